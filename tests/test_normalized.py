"""Weights returned divided by their length (`verify_perceptron.harness._normalized`): named, within a proven bound
on float64's rounding, and nothing else is."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from tests.implementations.plain import float_perceptron
from verify_perceptron.data.dataset import from_arrays
from verify_perceptron.harness import check_implementation
from verify_perceptron.harness._evidence import Observation
from verify_perceptron.harness._normalized import normalized_cause, within_rounding
from verify_perceptron.notes.conventions import get_convention


def unit_vector(X: Any, y: Any) -> tuple[Any, float]:
    """The weights and the bias over the length of (w, b)."""
    w, b = float_perceptron(X, y, 1.0)
    length = np.sqrt(w @ w + b * b)
    return w / length, b / length


def unit_normal(X: Any, y: Any) -> tuple[Any, float]:
    """At rate 0.1, both over the length of the feature weights alone (NumPy's norm)."""
    w, b = float_perceptron(X, y, 0.1)
    length = np.linalg.norm(w)
    return (w / length, b / length) if length else (w, b)


def sum_scaled(X: Any, y: Any) -> tuple[Any, float]:
    """Over the sum of the magnitudes: no Euclidean length."""
    w, b = float_perceptron(X, y, 1.0)
    total = np.abs(w).sum() + abs(b)
    return w / total, b / total


@pytest.mark.slow  # the default suite names it through normalized_cause (the test below); this is the whole check
@pytest.mark.parametrize("implementation, norm, rate", [(unit_vector, "all", 1.0), (unit_normal, "features", 0.1)])
def test_code_that_normalizes_its_weights_is_named_so(implementation: Any, norm: str, rate: float) -> None:
    # it was "unexplained" after the whole search of combinations
    result = check_implementation(implementation, dtype="float", examples=30)
    assert result.counterexample is not None
    diagnosis = result.counterexample.diagnoses[0]
    assert (diagnosis.code, diagnosis.parameters["norm"], float(Fraction(diagnosis.parameters["rate"]))) == (
        "normalized", norm, rate), result.report()


def test_weights_over_another_length_are_not_called_normalized() -> None:
    conv = get_convention("classic")
    rng = random.Random(2)
    seen: dict[str, list[Observation]] = {"unit": [], "sum": []}
    while len(seen["sum"]) < 15:
        X = [[rng.randint(-8, 8) / 4 for _ in range(2)] for _ in range(rng.randint(2, 5))]
        y = [1 if x[0] - 0.5 * x[1] > 0.1 else -1 for x in X]
        if len(set(y)) < 2:
            continue
        data = from_arrays([[str(v) for v in x] for x in X], y)
        for key, implementation in (("unit", unit_vector), ("sum", sum_scaled)):
            w, b = implementation(X, y)
            seen[key].append(Observation(data, conv.from_canonical(Fraction(b), tuple(Fraction(v) for v in w))))
    found = normalized_cause(seen["unit"], conv, None, 200, "-1/+1")
    assert found is not None and (found.code, found.parameters["norm"]) == ("normalized", "all")
    assert normalized_cause(seen["sum"], conv, None, 200, "-1/+1") is None


def test_the_bound_holds_for_numpy_s_quotients_and_nothing_farther() -> None:
    conv = get_convention("classic")
    rng = random.Random(4)
    for _ in range(300):
        m = rng.randint(1, 30)
        run = np.array([rng.choice([0.0, rng.uniform(-1e6, 1e6), rng.uniform(-1e-3, 1e-3)]) for _ in range(m)])
        if not run.any():
            continue
        exact = tuple(Fraction(v) for v in run)
        for length in (np.linalg.norm(run), np.sqrt(run @ run), np.sqrt((run * run).sum()), np.sqrt(sum(run * run))):
            unit = run / length
            assert within_rounding(tuple(Fraction(v) for v in unit), exact, conv, "all")
            j = int(np.flatnonzero(run)[0])
            off = unit.copy()
            off[j] *= 1 + 1e-12  # about 4500 units in the last place: no rounding of the norm gives it
            assert not within_rounding(tuple(Fraction(v) for v in off), exact, conv, "all")
            flipped = unit.copy()
            flipped[j] = -flipped[j]
            assert not within_rounding(tuple(Fraction(v) for v in flipped), exact, conv, "all")
