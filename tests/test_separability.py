"""Separability is decided exactly, with a certificate either way, and every wrong certificate is rejected."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tests.data_strategies import halves as datasets
from verify_perceptron.certify.certificates import gordan_defect
from verify_perceptron.data.dataset import Dataset, from_arrays
from verify_perceptron.run.reference import train
from verify_perceptron.errors import InvalidArgument
from verify_perceptron.data.examples import example
from verify_perceptron.certify.separability import (
    augmented_rows,
    certify,
    decide_separability,
    normalize_separator,
    separator_defect,
)

F = Fraction
HALF = F(1, 2)


# --- the notes' examples and the two classic non-separable cases ----------------------------------


@pytest.mark.parametrize(
    ("name", "separator"),
    [("and", (-3, 2, 2)), ("or", (-1, 2, 2)), ("modified-or", (1, 1, 1))],
)
def test_notes_examples_are_separable_with_the_max_margin_separator(name: str, separator: tuple[int, ...]) -> None:
    result = decide_separability(example(name))
    assert result.separable is True and result.certified
    assert result.separator == tuple(F(v) for v in separator)
    assert result.certificate_kind == "separator" and result.certificate == result.separator
    assert separator_defect(example(name), result.separator) is None


def test_xor_is_not_separable_with_gordan_certificate() -> None:
    result = decide_separability(example("xor"), time_limit=10)
    assert result.separable is False and result.certified
    assert result.gordan == (F(1, 4),) * 4
    assert result.certificate_kind == "gordan"
    assert gordan_defect(example("xor"), result.gordan) is None


def test_same_point_under_both_labels_is_not_separable() -> None:
    data = Dataset(X=((F(1), F(2)), (F(0), F(0)), (F(1), F(2))), y=(1, 1, -1))
    result = decide_separability(data, time_limit=10)
    assert result.separable is False
    assert result.gordan == (HALF, F(0), HALF)


def test_two_samples_on_a_line_have_the_separator_through_their_midpoint() -> None:
    # min b² + v² with -(b + v) >= 1 and b + 3v >= 1: both active, v = 1, b = -2.
    assert decide_separability(Dataset(X=((F(1),), (F(3),)), y=(-1, 1))).separator == (F(-2), F(1))


# --- the checkers reject what is false ------------------------------------------------------------


def test_separator_defect_rejects_a_separator_that_misses_one_point() -> None:
    # (-3, 2, 2) is AND's max-margin separator; raising the bias by 1/2 puts (1, 0) at margin 1/2.
    assert separator_defect(example("and"), [F(-5, 2), F(2), F(2)]) == "y_1·w·x~_1 = 1/2 < 1 (sample 1)"


def test_separator_defect_rejects_a_strict_separator_below_margin_one() -> None:
    assert separator_defect(example("and"), [F(-3, 2), F(1), F(1)]) == "y_1·w·x~_1 = 1/2 < 1 (sample 1)"
    assert normalize_separator(example("and"), [F(-3, 2), F(1), F(1)]) == (F(-3), F(2), F(2))


@given(datasets(), st.lists(st.builds(F, st.integers(-18, 18), st.integers(1, 4)), min_size=3, max_size=3))
def test_separator_defect_agrees_with_the_margins_computed_directly(data: Dataset, w: list[Fraction]) -> None:
    w = w[: data.n_features + 1] + [F(0)] * (data.n_features + 1 - len(w))
    margins = [y * (w[0] + sum((v * x for v, x in zip(w[1:], xs)), F(0))) for xs, y in zip(data.X, data.y)]
    low = next((i for i, m in enumerate(margins) if m < 1), None)
    expected = None if low is None else f"y_{low}·w·x~_{low} = {margins[low]} < 1 (sample {low})"
    assert separator_defect(data, w) == expected
    gamma = min(margins)
    assert normalize_separator(data, w) == (tuple(v / gamma for v in w) if gamma > 0 else None)


def test_separator_defect_rejects_a_wrong_length() -> None:
    assert separator_defect(example("and"), [F(1), F(1)]) == "w has 2 entries; (b, v1..v2) needs 3"


def test_certify_rejects_a_lambda_with_a_negative_entry_that_otherwise_balances() -> None:
    # On AND, λ = (-1/2, 1/2, 1/2, 1/2) sums to 1 and Σ λ_i·y_i·x~_i = 0: only the sign check stops
    # it from "proving" that separable data are not separable.
    lam = [F(-1, 2), HALF, HALF, HALF]
    rows = augmented_rows(example("and"))
    assert [sum((l * r[j] for l, r in zip(lam, rows)), F(0)) for j in range(3)] == [0, 0, 0]
    result = certify(example("and"), gordan=lam)
    assert result.separable is None and not result.certified
    assert result.problem == "the proposed Gordan certificate is wrong: λ_0 = -1/2 < 0"


def test_certify_rejects_a_lambda_that_does_not_balance() -> None:
    result = certify(example("xor"), gordan=[HALF, HALF, F(0), F(0)])
    assert result.separable is None
    assert result.problem == "the proposed Gordan certificate is wrong: Σ λ_i·y_i·x~_i = [0, 0, 1/2], not 0"


def test_certify_rejects_a_separator_that_misses_one_point() -> None:
    result = certify(example("or"), separator=[F(-1), F(2), F(1)])
    assert result.separable is None
    assert result.problem == "the proposed separator is wrong: y_1·w·x~_1 = 0 < 1 (sample 1)"


def test_certify_needs_exactly_one_certificate() -> None:
    with pytest.raises(InvalidArgument, match="exactly one of separator= and gordan="):
        certify(example("and"))


def test_certify_names_a_separator_of_the_wrong_length() -> None:
    with pytest.raises(InvalidArgument, match=r"^separator has 2 values; \(b, v1\.\.v2\) needs 3$"):
        certify(example("and"), separator=[F(1), F(2)])


@pytest.mark.parametrize("limit", [0, -1, float("nan"), "5", True])
def test_time_limit_must_be_positive_seconds(limit: object) -> None:
    with pytest.raises(InvalidArgument, match=r"^time_limit=.* must be a number of seconds > 0$"):
        decide_separability(example("and"), time_limit=limit)  # type: ignore[arg-type]


# --- exactness and agreement with an independent witness ------------------------------------------


def test_huge_values_without_float_conversion_are_decided_exactly() -> None:
    # 10**400 overflows a float: no float proposal is possible, the exact method decides alone.
    big = F(10) ** 400
    for name, separable in (("and", True), ("xor", False)):
        data = example(name)
        scaled = Dataset(X=tuple(tuple(v * big for v in x) for x in data.X), y=data.y)
        result = decide_separability(scaled)
        assert result.separable is separable and result.certified
    scaled_and = Dataset(X=tuple(tuple(v * big for v in x) for x in example("and").X), y=example("and").y)
    assert decide_separability(scaled_and).separator == (F(-3), 2 / big, 2 / big)


@given(datasets())
def test_decision_agrees_with_whether_the_perceptron_converges(data: Dataset) -> None:
    # Independent witness: on separable data the perceptron converges; on the rest its weights
    # repeat at an epoch boundary. Runs that do neither within the epochs are left out.
    run = train(data, "classic", max_epochs=300)
    assume(run.stop in ("converged", "cycle"))
    result = decide_separability(data)
    assert result.certified
    assert result.separable is (run.stop == "converged")
    if result.separable:
        assert separator_defect(data, result.separator) is None  # type: ignore[arg-type]
    else:
        assert gordan_defect(data, result.gordan) is None  # type: ignore[arg-type]


def test_an_exhausted_time_limit_never_gives_a_wrong_answer() -> None:
    for name in ("and", "xor", "modified-or"):
        result = decide_separability(example(name), time_limit=1e-9)
        if result.separable is None:
            assert not result.certified and result.problem
        else:
            assert result.certified and result.separable is (name != "xor")


def test_as_dict_is_json_with_exact_strings() -> None:
    text = json.dumps(decide_separability(example("or")).as_dict())
    assert json.loads(text) == {
        "separable": True,
        "certified": True,
        "certificate": {"kind": "separator", "values": ["-1", "2", "2"]},
        "method": "exact dual active set",
        "problem": None,
    }


# --- real data shipped in a package (optional: scikit-learn) --------------------------------------


def iris(first: int, second: int) -> Dataset:
    """Two of the iris classes, read exactly: each value is the decimal the data file prints (5.1 is 51/10)."""
    sklearn_datasets = pytest.importorskip("sklearn.datasets")
    bunch = sklearn_datasets.load_iris()
    rows = [[repr(float(v)) for v in x] for x, t in zip(bunch.data, bunch.target) if t in (first, second)]
    labels = [int(t == second) for t in bunch.target if t in (first, second)]
    return from_arrays(rows, labels, source=f"iris {first} vs {second}")


def test_iris_setosa_vs_versicolor_is_separable() -> None:
    data = iris(0, 1)
    assert data.X[0] == (F(51, 10), F(7, 2), F(7, 5), F(1, 5))
    result = decide_separability(data, time_limit=60)
    assert result.separable is True
    assert separator_defect(data, result.separator) is None  # type: ignore[arg-type]


def test_iris_versicolor_vs_virginica_is_not_separable() -> None:
    data = iris(1, 2)
    result = decide_separability(data, time_limit=60)
    assert result.separable is False and result.gordan is not None
    assert gordan_defect(data, result.gordan) is None
    # Carathéodory: a zero combination of rows in dimension d = 5 needs at most d + 1 of them.
    assert 0 < sum(1 for v in result.gordan if v) <= 6


# --- a run's final weights on numerators held in limbs: a first piece of rows looked at before every row ---

def _held_binary(n: int, m: int, seed: int, *, by_plane: bool) -> Dataset:
    """n x m binary floats past int64 (held in limbs): labels at random, or by the plane x·(1, -2, ...) + 1/4."""
    import numpy as np

    from verify_perceptron.data.arrays import exact_table
    from verify_perceptron.data.dataset import from_table

    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, m))
    X[-1, -1] = 3 * 2.0**-90  # numerators of 90 bits and more
    plane = np.where(np.arange(m) % 2, -2.0, 1.0)
    y = np.where(X @ plane + 0.25 > 0, 1, -1) if by_plane else np.where(rng.random(n) < 0.5, 1, -1)
    return from_table(exact_table(X, floats="binary", max_cells=10**8), y, source="test", labels=("-1", "1"))


@given(seed=st.integers(0, 2**32), m=st.integers(1, 3), by_plane=st.booleans(), piece=st.integers(1, 12),
       weights=st.lists(st.fractions(-4, 4, max_denominator=8), min_size=4, max_size=4))
def test_the_final_weights_first_rows_look_changes_no_answer(seed: int, m: int, by_plane: bool, piece: int,
                                                            weights: list[Fraction]) -> None:
    from types import SimpleNamespace
    from unittest import mock

    from verify_perceptron.certify import separability
    from verify_perceptron.notes.conventions import get_convention

    data = _held_binary(16, m, seed, by_plane=by_plane)
    assert data.limbs is not None
    plane = [Fraction(1, 4)] + [Fraction(-2 if j % 2 else 1) for j in range(m)]
    for w in (plane, weights[:m + 1]):  # the labelling plane separates every sample when it labelled them
        trace: Any = SimpleNamespace(final_weights=tuple(w))  # (all `_final_separator` reads of a Trace)
        with mock.patch.object(separability, "_MARGIN_PIECE", piece):
            ours = separability._final_separator(data, get_convention("classic"), trace)
        with mock.patch.object(separability, "_first_rows_fail", lambda data, V, offset: False):
            theirs = separability._final_separator(data, get_convention("classic"), trace)
        assert ours == theirs
        assert (ours is not None) == (by_plane and w is plane) or w is not plane


def test_the_final_weights_of_a_stopped_run_are_refused_without_the_products_of_every_row() -> None:
    from types import SimpleNamespace
    from unittest import mock

    from verify_perceptron.certify import separability
    from verify_perceptron.data.integers import ExactMatrix
    from verify_perceptron.notes.conventions import get_convention

    data = _held_binary(3 * separability._MARGIN_PIECE, 10, 7, by_plane=False)
    trace: Any = SimpleNamespace(final_weights=(Fraction(1, 3),) + (Fraction(1),) * 10)
    with mock.patch.object(ExactMatrix, "products", side_effect=AssertionError("every row's product")):
        assert separability._final_separator(data, get_convention("classic"), trace) is None


@given(seed=st.integers(0, 2**32), m=st.integers(1, 3), by_plane=st.booleans(),
       weights=st.lists(st.fractions(-4, 4, max_denominator=8), min_size=4, max_size=4))
def test_the_final_weights_least_row_look_changes_no_answer(seed: int, m: int, by_plane: bool,
                                                           weights: list[Fraction]) -> None:
    from types import SimpleNamespace
    from unittest import mock

    from verify_perceptron.certify import separability
    from verify_perceptron.notes.conventions import get_convention

    for data in (_held_binary(16, m, seed, by_plane=by_plane), datasets_int64(seed, m)):
        plane = [Fraction(1, 4)] + [Fraction(-2 if j % 2 else 1) for j in range(m)]
        for w in (plane, weights[:m + 1], [Fraction(0)] * (m + 1)):
            trace: Any = SimpleNamespace(final_weights=tuple(w))  # (all `_final_separator` reads of a Trace)
            ours = separability._final_separator(data, get_convention("classic"), trace)
            with mock.patch.object(separability, "_least_row_fails", lambda data, W: False):
                theirs = separability._final_separator(data, get_convention("classic"), trace)
            assert ours == theirs


def datasets_int64(seed: int, m: int) -> Dataset:
    """12 samples of small decimals (int64 numerators), labelled at random."""
    import numpy as np

    rng = np.random.default_rng(seed)
    rows = [[f"{v:.2f}" for v in rng.uniform(-3, 3, m)] for _ in range(12)]
    return from_arrays(rows, [0, 1] + [int(v) for v in rng.integers(0, 2, 10)], source="test")


def test_the_final_weights_of_a_stopped_run_on_small_data_are_refused_without_the_products_of_every_row() -> None:
    from types import SimpleNamespace
    from unittest import mock

    from verify_perceptron.certify import separability
    from verify_perceptron.data.integers import ExactMatrix
    from verify_perceptron.notes.conventions import get_convention

    data = _held_binary(200, 4, 7, by_plane=False)
    trace: Any = SimpleNamespace(final_weights=(Fraction(1, 3),) + (Fraction(1),) * 4)
    with mock.patch.object(ExactMatrix, "products", side_effect=AssertionError("every row's product")):
        assert separability._final_separator(data, get_convention("classic"), trace) is None
