"""Code that rescales its features before it learns (`verify_perceptron.harness._rescaled`): named, and never
called "not a perceptron"."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from tests.implementations.plain import float_perceptron
from verify_perceptron.data.dataset import from_arrays
from verify_perceptron.harness import check_implementation
from verify_perceptron.harness._diagnosis import _not_a_perceptron
from verify_perceptron.harness._evidence import Observation
from verify_perceptron.harness._reachable import incommensurate
from verify_perceptron.harness._rescaled import RESCALINGS, perceptron_when_rescaled, rescaled
from verify_perceptron.notes.conventions import get_convention


def standardizing(X: Any, y: Any) -> tuple[Any, float]:
    """A float perceptron at rate 1 on its features standardized first, as a pipeline with a scaler does."""
    X = np.asarray(X, dtype=float)
    scale = X.std(axis=0)
    return float_perceptron((X - X.mean(axis=0)) / np.where(scale == 0, 1.0, scale), np.asarray(y), 1.0)


def scaling_to_01(X: Any, y: Any) -> tuple[Any, float]:
    """The same at rate 0.1 on its features scaled to [0, 1]."""
    X = np.asarray(X, dtype=float)
    low, span = X.min(axis=0), X.max(axis=0) - X.min(axis=0)
    return float_perceptron((X - low) / np.where(span == 0, 1.0, span), np.asarray(y), 0.1)


def scaling_each_sample(X: Any, y: Any) -> tuple[Any, float]:
    """The same at rate 0.1 on its samples scaled to length 1 (scikit-learn's Normalizer), scored by NumPy's dot."""
    X = np.asarray(X, dtype=float)
    length = np.sqrt((X * X).sum(axis=1))
    return float_perceptron(X / np.where(length == 0, 1.0, length)[:, None], np.asarray(y), 0.1)


TENTH = "3602879701896397/36028797018963968"


@pytest.mark.parametrize("implementation, how, rate", [(standardizing, "standardized", "1"),
                                                       (scaling_to_01, "min-max", TENTH),
                                                       (scaling_each_sample, "unit-rows", TENTH)])
def test_code_that_rescales_its_features_is_named_so(implementation: Any, how: str, rate: str) -> None:
    # it was "not a perceptron: ... a gradient method on a smooth loss" (standardized) or "unexplained"; the samples
    # of length 1 tie where the score's order of sums decides (NumPy's dot here: `_floats.SUMS`)
    result = check_implementation(implementation, dtype="float", examples=30)
    assert result.counterexample is not None
    diagnosis = result.counterexample.diagnoses[0]
    assert (diagnosis.code, diagnosis.parameters["rescaling"], diagnosis.parameters["rate"]) == (
        "rescaled-inputs", how, rate), result.report()


def test_rescaled_weights_are_no_evidence_against_a_perceptron() -> None:
    # three independent samples in three features, on which the standardized run's weights are a sum of the data's
    # steps with coefficients in no ratio of counts: "not a perceptron" without the rescaled view
    data = from_arrays([["1", "2", "1"], ["1", "-1", "3"], ["-3", "1", "2"]], [1, 1, -1])
    conv = get_convention("classic")
    w, b = standardizing([[float(v) for v in x] for x in data.X], list(data.y))
    seen = Observation(data, tuple(Fraction(v) for v in [b, *w]))
    assert incommensurate(seen.weights, data, conv) is not None
    assert perceptron_when_rescaled(seen, conv) == "standardized"
    assert _not_a_perceptron([seen], conv, exact=False) is None
    # a sum of the data's steps with coefficients in no ratio of counts (a sigmoid's gradient steps): still none
    a = [0.3, 2 ** 0.5, 0.7]
    smooth = [sum(a_i * y * float(x[j]) for a_i, x, y in zip(a, data.X, data.y)) for j in range(3)]
    other = Observation(data, tuple(Fraction(v) for v in [0.25, *smooth]))
    assert perceptron_when_rescaled(other, conv) is None
    found = _not_a_perceptron([other], conv, exact=False)
    assert found is not None and found.code == "not-a-perceptron"


def test_each_rescaling_is_numpy_s() -> None:
    data = from_arrays([["1", "-4"], ["3", "0"], ["-2", "8"]], [-1, 1, 1])
    X = np.array([[1.0, -4.0], [3.0, 0.0], [-2.0, 8.0]])
    low, span = X.min(axis=0), X.max(axis=0) - X.min(axis=0)
    expected = {"standardized": (X - X.mean(axis=0)) / X.std(axis=0),
                "standardized-ddof1": (X - X.mean(axis=0)) / X.std(axis=0, ddof=1),
                "min-max": (X - low) / span, "min-max-scaler": X * (1.0 / span) + (0.0 - low * (1.0 / span)),
                "centred": X - X.mean(axis=0), "max-abs": X / np.abs(X).max(axis=0),
                "unit-rows": X / np.sqrt((X * X).sum(axis=1))[:, None]}
    assert sorted(expected) == sorted(RESCALINGS)
    for how, Z in expected.items():
        view = rescaled(data, how)
        assert view is not None and [[float(v) for v in x] for x in view.X] == Z.tolist(), how
    huge = from_arrays([["1e308"], ["1.5e308"]], [-1, 1])  # their sum overflows: no mean
    assert rescaled(huge, "max-abs") is not None and rescaled(huge, "standardized") is None
    # exact values past the doubles (an exact check's data or weights): no view, no claim, no OverflowError
    past = from_arrays([["1e400"], ["-1"]], [1, -1])
    assert all(rescaled(past, how) is None for how in RESCALINGS)
    conv = get_convention("classic")
    assert perceptron_when_rescaled(Observation(past, (Fraction(1), Fraction(10) ** 400)), conv) is None
    assert perceptron_when_rescaled(Observation(data, (Fraction(1), Fraction(10) ** 400, Fraction(1))), conv) is None
