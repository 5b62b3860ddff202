"""The active-set method's rows, read from a dataset's integers, answer as the Fraction rows they stand for.

Each question the method asks of its rows (a row, its scaled integers, the
most violated row at a point) is put to the integer-array rows of
`verify_perceptron.certify._constraints` and to a reference written here in
Fractions straight from the definitions; the answers must be equal, ties
(the first of equal rows) included. Data with values past int64 take the
Python-integer path, and points with large denominators the one past int64
products.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.data_strategies import halves
from verify_perceptron.certify import _constraints
from verify_perceptron.certify._constraints import (_ExplicitRows, _float_matrix, augmented_constraints,
                                                    augmented_matrix, explicit_rows, pair_rows)
from verify_perceptron.certify.separability import decide_separability, normalize_separator, separator_defect
from verify_perceptron.data.arrays import exact_table
from verify_perceptron.data.dataset import Dataset, from_table
from verify_perceptron.data.integers import ExactMatrix
from verify_perceptron.data.samples import signed_samples
from verify_perceptron.data.readers import load_dataset


def _augmented(data: Dataset) -> list[tuple[F, ...]]:
    """y_i·(1, x_i), from the definition."""
    return [tuple(y * v for v in (F(1), *x)) for x, y in zip(data.X, data.y)]


def _dot(a: tuple[F, ...], b: tuple[F, ...]) -> F:
    return sum((p * q for p, q in zip(a, b)), F(0))


def _violated(rows: list[tuple[F, ...]], x: tuple[F, ...]) -> list[int]:
    """The rows with a·x < 1."""
    return [k for k, a in enumerate(rows) if _dot(a, x) < 1]


def _pair_violated(data: Dataset, v: tuple[F, ...]) -> tuple[int, int] | None:
    """The first lowest-scoring positive and first highest-scoring negative, when their half gap is below 1."""
    scores = [_dot(x, v) for x in data.X]
    positive = [i for i, y in enumerate(data.y) if y > 0]
    negative = [i for i, y in enumerate(data.y) if y < 0]
    i = min(positive, key=scores.__getitem__)
    j = max(negative, key=scores.__getitem__)
    return (i, j) if (scores[i] - scores[j]) / 2 < 1 else None


@st.composite
def _wide(draw: st.DrawFn) -> Dataset:
    """Datasets whose integers pass int64: values of about 2^70 over odd denominators."""
    m, n = draw(st.integers(1, 3)), draw(st.integers(2, 6))
    value = st.builds(F, st.integers(-(2**72), 2**72), st.sampled_from((1, 3, 7, 2**40 + 1)))
    X = tuple(tuple(draw(value) for _ in range(m)) for _ in range(n))
    y = draw(st.lists(st.sampled_from((-1, 1)), min_size=n, max_size=n).filter(lambda ys: len(set(ys)) == 2))
    return Dataset(X=X, y=tuple(y))


def _binary(X: list[list[float]], y: list[int]) -> Dataset:
    """float64 samples read as the binary numbers they are (`ExactPerceptron`'s default)."""
    return from_table(exact_table(np.array(X, dtype=np.float64), floats="binary"), np.array(y), source="test",
                      labels=("-1", "1"))


@st.composite
def _held(draw: st.DrawFn) -> Dataset:
    """float64 datasets whose numerators pass int64, so that they are held in limbs: mantissas times 2^-80..2^40."""
    m, n = draw(st.integers(1, 3)), draw(st.integers(2, 6))
    value = st.builds(lambda a, e: float(a) * 2.0**e, st.integers(-(2**53) + 1, 2**53 - 1), st.integers(-80, 40))
    X = [[draw(value) for _ in range(m)] for _ in range(n)]
    X[0][0], X[-1][-1] = 3 * 2.0**-80, 2.0**10  # a numerator of 2^90 over the common 2^80: past int64
    y = draw(st.lists(st.sampled_from((-1, 1)), min_size=n, max_size=n).filter(lambda ys: len(set(ys)) == 2))
    return _binary(X, y)


_DATA = st.one_of(halves(max_samples=8, max_features=3), _wide(), _held())
#: Points of small and of large denominators (these take the products past int64).
_VALUE = st.one_of(st.integers(-4, 4).map(F), st.builds(F, st.integers(-(2**90), 2**90), st.integers(1, 2**80)))


@given(data=_DATA, seed=st.data())
def test_augmented_rows_answer_as_the_fraction_rows(data: Dataset, seed: st.DataObject) -> None:
    rows = augmented_constraints(data)
    reference = _augmented(data)
    assert [tuple(rows.row(k, exact=True)) for k in range(len(reference))] == reference
    for k, a in enumerate(reference):
        assert all(F(s, rows.row_scale) == v for s, v in zip(rows.scaled_row(k), a))
    x = tuple(seed.draw(st.lists(_VALUE, min_size=rows.dim, max_size=rows.dim)))
    violated = _violated(reference, x)
    found = rows.most_violated(x, exact=True)  # the floats' guess when it is violated, else the first worst
    assert (found is None) == (not violated) and (found is None or found in violated)


@given(data=_DATA, seed=st.data())
def test_without_floats_the_first_worst_row_is_found_exactly(data: Dataset, seed: st.DataObject) -> None:
    rows = augmented_constraints(data)
    assert isinstance(rows, _ExplicitRows)  # the rows of a dataset, whose float copy is set aside here
    rows.floats = None  # (as when the data do not convert to float64): the exact pass alone decides
    reference = _augmented(data)
    x = tuple(seed.draw(st.lists(_VALUE, min_size=rows.dim, max_size=rows.dim)))
    values = [_dot(a, x) for a in reference]
    worst = min(range(len(values)), key=values.__getitem__)
    assert rows.most_violated(x, exact=True) == (worst if values[worst] < 1 else None)


@given(data=_DATA, seed=st.data())
def test_pair_rows_answer_as_the_fraction_pairs(data: Dataset, seed: st.DataObject) -> None:
    rows = pair_rows(data)
    v = tuple(seed.draw(st.lists(_VALUE, min_size=rows.dim, max_size=rows.dim)))
    assert rows.most_violated(v, exact=True) == _pair_violated(data, v)
    i = next(k for k, y in enumerate(data.y) if y > 0)
    j = next(k for k, y in enumerate(data.y) if y < 0)
    assert tuple(rows.row((i, j), exact=True)) == tuple((a - b) / 2 for a, b in zip(data.X[i], data.X[j]))


@given(data=_DATA, seed=st.data())
def test_separator_defect_names_the_first_sample_below_margin_one(data: Dataset, seed: st.DataObject) -> None:
    w = tuple(seed.draw(st.lists(_VALUE, min_size=data.n_features + 1, max_size=data.n_features + 1)))
    margins = [_dot(a, w) for a in _augmented(data)]
    short = [i for i, m in enumerate(margins) if m < 1]
    expected = None if not short else f"y_{short[0]}·w·x~_{short[0]} = {margins[short[0]]} < 1 (sample {short[0]})"
    assert separator_defect(data, w) == expected
    gamma = min(margins)
    normalized = normalize_separator(data, w)
    assert normalized == (None if gamma <= 0 else tuple(c / gamma for c in w))


def test_a_separator_of_tiny_weights_fails_at_the_first_sample() -> None:
    """Margins that fit int64 over a denominator past it: every one is below 1."""
    data = Dataset(X=((F(1),), (F(-1),)), y=(1, -1))
    w = (F(0), F(3, 2**70))
    assert separator_defect(data, w) == f"y_0·w·x~_0 = {F(3, 2**70)} < 1 (sample 0)"


def test_pair_rows_at_exactly_margin_one_are_not_violated() -> None:
    data = Dataset(X=((F(0), F(4)), (F(2), F(4)), (F(0), F(0))), y=(1, 1, -1))
    rows = pair_rows(data)  # v = (0, 1/2): scores 2, 2 and 0, a half gap of exactly 1
    assert rows.most_violated((F(0), F(1, 2)), exact=True) is None
    assert rows.most_violated((F(0), F(1, 2) - F(1, 2**80)), exact=True) == (0, 2)


@pytest.mark.parametrize("exact", [True, False])
def test_explicit_rows_take_the_first_of_equally_violated_rows(exact: bool) -> None:
    rows = explicit_rows([(F(1), F(0)), (F(0), F(1)), (F(0), F(1))])
    assert rows.most_violated((F(2), F(0)), exact=exact) == 1
    assert rows.most_violated((F(1), F(1)), exact=exact) is None


def test_deciding_separability_builds_no_fraction_per_cell(tmp_path: object) -> None:
    path = tmp_path / "data.csv"  # type: ignore[operator]
    path.write_text("x1,x2,y\n0.5,1/3,1\n-0.25,2,-1\n1.5,-1/7,1\n-3,0.125,-1\n")
    data = load_dataset(str(path))
    result = decide_separability(data)
    assert result.separable is True and result.separator is not None
    assert separator_defect(data, result.separator) is None
    assert data._X is None  # the samples as Fractions were never made


@given(data=_held())
def test_rows_held_in_limbs_are_the_python_integer_rows_and_their_floats_the_quotients_rounded_once(
        data: Dataset) -> None:
    assert data.limbs is not None
    A, L = augmented_matrix(data)
    plain = ExactMatrix(signed_samples(data, _constraints._Canonical()))
    assert A.held is not None and A.exact.tolist() == plain.exact.tolist() and A.norms.tolist() == plain.norms.tolist()
    assert A.max_norm_sq == plain.max_norm_sq
    floats = _float_matrix(A, L)
    assert floats is not None and floats.tolist() == [[v / L for v in row] for row in plain.exact.tolist()]


@given(entries=st.lists(st.lists(st.integers(-(2**63) + 1, 2**63 - 1), min_size=2, max_size=2), min_size=1,
                         max_size=5), k=st.integers(0, 1000))
def test_int64_rows_over_a_power_of_two_give_the_quotients_rounded_once(entries: list[list[int]], k: int) -> None:
    entries[0][0] = 2**60 + 1  # no double: a quotient that must be rounded, once
    A = ExactMatrix(np.array(entries, dtype=np.int64))
    assert A.held is None and not A.float_exact and _constraints._over_power_of_two(A, 2**k)
    floats = _float_matrix(A, 2**k)
    assert floats is not None and floats.tolist() == [[v / 2**k for v in row] for row in entries]
    assert not _constraints._over_power_of_two(A, 3 * 2**k) and not _constraints._over_power_of_two(A, 2**1001)


def test_rows_held_in_limbs_over_no_power_of_two_below_2_1000_are_divided_one_by_one() -> None:
    data = _binary([[3 * 2.0**-1073, 1.0], [1.0, 2.0**60]], [1, -1])  # a common denominator of 2^1073
    A, L = augmented_matrix(data)
    assert A.held is not None and _constraints._held_floats(A, L) is None
    floats = _float_matrix(A, L)
    assert floats is not None and floats.tolist() == [[v / L for v in row] for row in A.exact.tolist()]
    small = _binary([[3 * 2.0**-70, 1.0], [1.0, 2.0**60]], [1, -1])
    A, L = augmented_matrix(small)
    assert _constraints._held_floats(A, L) is not None and _constraints._held_floats(A, 3 * L) is None


def test_only_small_data_held_in_limbs_give_augmented_rows_in_limbs(monkeypatch: pytest.MonkeyPatch) -> None:
    data = _binary([[2.0**-70, 2.0**20], [1.0, -3.0]], [1, -1])
    assert augmented_matrix(data)[0].held is not None
    monkeypatch.setattr(_constraints, "HELD_BELOW", 6)  # 2 samples x 3 columns: past it, Python integers
    again = _binary([[2.0**-70, 2.0**20], [1.0, -3.0]], [1, -1])
    assert augmented_matrix(again)[0].held is None
    assert decide_separability(again) == decide_separability(data)


@given(data=_held(), seed=st.data())
def test_rows_held_in_limbs_are_read_by_index_not_made_python_integers_whole(data: Dataset,
                                                                                 seed: st.DataObject) -> None:
    rows = augmented_constraints(data)
    A, _ = augmented_matrix(data)
    keys = seed.draw(st.lists(st.integers(0, data.n_samples - 1), max_size=6))
    assert rows.scaled_rows(keys) == [rows.scaled_row(k) for k in keys]
    x = tuple(seed.draw(st.lists(_VALUE, min_size=rows.dim, max_size=rows.dim)))
    rows.most_violated(x, exact=True)
    assert A._exact is None  # the whole matrix as Python integers was never made
    assert [rows.scaled_row(k) for k in keys] == [tuple(A.exact[k].tolist()) for k in keys]
