"""The limb extension's passes at the widths it compiles apart (an entry of two limbs: the bundled sets
standardized, and their weights of one or two limbs) give the exact values the Python integers give, as the
general widths do, at the extremes of each width (2^63, 2^64, 2^127 - 1, their negations) and at zero."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from verify_perceptron.data import kernel as _kernel
from verify_perceptron.data.limb_arrays import int_limbs, limb_values

pytestmark = pytest.mark.skipif(_kernel.limb_norms is None, reason="the limb extension is not built")

#: The edges of one and of two limbs, each below 2^127 in magnitude with its negation.
EDGES = [0, 1, -1, 2**63 - 1, 2**63, -(2**63), -(2**63) - 1, 2**64 - 1, 2**64, -(2**64), 2**126, -(2**126),
         2**127 - 1, -(2**127 - 1)]


def _entries(bits: int) -> Any:
    """Integers below 2^bits in magnitude (so that each and its negation fit), edges among them."""
    edges = [v for v in EDGES if abs(v) < 2**bits]
    return st.one_of(st.sampled_from(edges), st.integers(-(2**bits) + 1, 2**bits - 1))


def _compiled(name: str) -> Any:
    function = getattr(_kernel, name)
    assert function is not None
    return function


@st.composite
def _signed_cases(draw: Any) -> tuple[list[list[int]], list[int], int, int, int, int]:
    n, m, L = draw(st.integers(0, 5)), draw(st.integers(1, 4)), draw(st.sampled_from([1, 2]))
    rows = draw(st.lists(st.lists(_entries(64 * L - 1), min_size=m, max_size=m), min_size=n, max_size=n))
    labels = draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n))
    return rows, labels, draw(_entries(127)), draw(st.sampled_from([0, m])), L, m


@given(case=_signed_cases(), lz=st.sampled_from([2, 3]))
def test_signed_rows_and_their_norms_at_two_limbs_are_the_python_integers(case, lz):
    rows, labels, bias, column, L, m = case
    n = len(rows)
    X = int_limbs([v for row in rows for v in row], L).reshape(n, m, L)
    Z, norms = np.empty((n, m + 1, lz), dtype=np.int64), np.empty((n, 2 * lz + 1), dtype=np.int64)
    best = _compiled("signed_limbs")(X, np.array(labels, dtype=np.int64), int_limbs([bias], lz)[0], column, Z,
                                     norms)
    signed = [[y * v for v in (row[:column] + [bias] + row[column:])] for row, y in zip(rows, labels)]
    assert limb_values(Z).tolist() == signed if n else Z.size == 0
    squares = [sum(v * v for v in row) for row in signed]
    assert limb_values(norms).tolist() == squares if n else norms.size == 0
    assert best == (squares.index(max(squares)) if n else -1)


@st.composite
def _score_cases(draw: Any) -> tuple[list[list[int]], list[int], int, int]:
    n, d = draw(st.integers(0, 5)), draw(st.integers(1, 5))
    lz, lw = draw(st.sampled_from([1, 2, 3])), draw(st.sampled_from([1, 2, 3, 7]))
    rows = draw(st.lists(st.lists(_entries(64 * lz - 1), min_size=d, max_size=d), min_size=n, max_size=n))
    return rows, draw(st.lists(_entries(64 * lw - 1), min_size=d, max_size=d)), lz, lw


@given(case=_score_cases(), wider=st.booleans())
def test_scores_against_weights_of_any_width_are_exact(case, wider):
    """Two-limb rows against weights of one or two limbs (compiled apart), and wide weights (a certified
    separator's: the carried pass), each at the least width of the scores and at one more."""
    rows, w, lz, lw = case
    n, d = len(rows), len(w)
    ls = lz + lw + 1 + wider
    out = np.empty((n, ls), dtype=np.int64)
    _compiled("limb_scores")(int_limbs([v for row in rows for v in row], lz).reshape(n, d, lz), int_limbs(w, lw),
                             out)
    assert limb_values(out).tolist() == [sum(a * b for a, b in zip(row, w)) for row in rows] if n else True


def test_scores_of_extreme_magnitudes_against_a_wide_separator_carry_through_every_limb():
    d, lw = 9, 7
    w = [2**447 - 1, -(2**447 - 1), 2**446, -1, 2**64 - 1, 0, 2**447 - 1, 2**447 - 1, -(2**300)]
    rows = [[2**127 - 1] * d, [-(2**127 - 1)] * d, [(-1) ** j * (2**127 - 1) for j in range(d)], [0] * d]
    out = np.empty((len(rows), 2 + lw + 1), dtype=np.int64)
    _compiled("limb_scores")(int_limbs([v for row in rows for v in row], 2).reshape(len(rows), d, 2),
                             int_limbs(w, lw), out)
    assert limb_values(out).tolist() == [sum(a * b for a, b in zip(row, w)) for row in rows]


@given(a=hnp.arrays(np.int64, st.tuples(st.integers(0, 4), st.integers(1, 4)), elements=st.just(0)),
       values=st.lists(_entries(127), min_size=16, max_size=16), lz=st.sampled_from([2, 3]))
def test_the_nearest_doubles_of_two_limb_values_are_pythons(a, values, lz):
    n, d = a.shape
    ints = (values * ((n * d) // 16 + 1))[: n * d]
    out = np.empty((n, d))
    _compiled("limb_doubles")(int_limbs(ints, lz).reshape(n, d, lz), out)
    assert out.ravel().tolist() == [float(v) for v in ints]


doubles = st.one_of(st.sampled_from([0.0, -0.0, 1.0, -1.0, 2.0**63, -(2.0**63), 2.0**64, -(2.0**66), 2.0**-60,
                                     -(2.0**-60), 3.0 * 2.0**-58, 2.0**66 - 2.0**14]),
                    st.floats(-(2.0**66), 2.0**66, allow_nan=False, allow_infinity=False).map(
                        lambda x: float(np.ldexp(np.round(np.ldexp(x, 60)), -60))))


@given(X=hnp.arrays(np.float64, st.tuples(st.integers(0, 4), st.integers(1, 5)), elements=doubles),
       L=st.sampled_from([2, 3]))
def test_binary_floats_read_into_two_limbs_are_their_exact_values(X, L):
    out = np.empty(X.shape + (L,), dtype=np.int64)
    _compiled("dyadic_fill")(X, 60, out)
    assert limb_values(out).tolist() == [[int(Fraction(x) * 2**60) for x in row] for row in X.tolist()]


def test_the_two_limb_reading_refuses_what_does_not_fit_or_is_not_an_integer():
    out = np.empty((1, 1, 2), dtype=np.int64)
    with pytest.raises(ValueError, match="does not fit the limbs"):
        _compiled("dyadic_fill")(np.array([[2.0**127]]), 0, out)  # its sign bit has no place
    with pytest.raises(ValueError, match="not an integer times"):
        _compiled("dyadic_fill")(np.array([[2.0**-61]]), 60, out)
    _compiled("dyadic_fill")(np.array([[-(2.0**126)]]), 0, out)
    assert limb_values(out).tolist() == [[-(2**126)]]


@given(values=st.lists(st.one_of(st.sampled_from(EDGES), st.integers(-(2**447) + 1, 2**447 - 1)), max_size=6),
       K=st.sampled_from([1, 2, 3, 7]), wider=st.booleans())
def test_squares_of_limb_values_are_the_python_squares(values, K, wider):
    values = [v for v in values if abs(v) < 2 ** (64 * K - 1)] + [2 ** (64 * K - 1) - 1, -(2 ** (64 * K - 1))]
    out = np.empty((len(values), 2 * K + wider), dtype=np.int64)
    _compiled("square_limbs")(int_limbs(values, K), out)
    assert limb_values(out).tolist() == [v * v for v in values]


def test_squares_of_values_with_every_limb_full_carry_through_each_column():
    # (the last: a column's sum and its carry-in pass 2^128 together, where each column's own sum does not)
    values = [2**3392 - 1, 2**3391, 2**3391 - 2**1700 + 1, 1, 0, -(2**3391 - 1), (2**64 - 1) << 1000,
              0x139B21C95055455E880000000000000008000000000000000FFFFFFFFFFFFFFFF0000000000000000FFFFFFFFFFFFFFFF]
    out = np.empty((len(values), 2 * 54), dtype=np.int64)
    _compiled("square_limbs")(int_limbs(values, 54), out)
    assert limb_values(out).tolist() == [v * v for v in values]


def test_int_squares_square_wide_and_narrow_python_integers_exactly(monkeypatch: pytest.MonkeyPatch):
    from verify_perceptron.data import wide_squares
    from verify_perceptron.notes.soft_margin import SoftMargin

    wide = np.array([3**2000, -(5**1500), 0, 2**3375 - 1, -1], dtype=object)
    assert wide_squares.int_squares(wide).tolist() == [v * v for v in wide.tolist()]
    narrow = np.array([3, -(2**300)], dtype=object)
    assert wide_squares.int_squares(narrow).tolist() == [9, 2**600]
    calls: list[Any] = []
    square = _compiled("square_limbs")

    def spy(V: Any, out: Any) -> None:
        calls.append(V.shape)
        square(V, out)

    monkeypatch.setattr(_kernel, "square_limbs", spy)
    margins = [2**3374 + 5, -(3**2100), 2**3300 * 7 - 1, 2**3375]
    bound = SoftMargin.from_margins(np.array(margins, dtype=object), rho=2**3375, R_sq=1, u_sq=1, scale=1)
    assert bound.deficits_sq.tolist() == [max(2**3375 - m, 0) ** 2 for m in margins]
    assert calls == [(4, 53)]  # the deficits (3,376 bits at most: 53 limbs) squared in C


@given(values=st.lists(st.one_of(st.sampled_from(EDGES), st.integers(-(2**447) + 1, 2**447 - 1)), min_size=1,
                       max_size=5),
       K=st.sampled_from([1, 2, 3, 7]), data=st.data())
def test_gathered_sums_are_the_prefix_sums_of_the_rows_values(values, K, data):
    values = [v for v in values if abs(v) < 2 ** (64 * K - 1)] + [2 ** (64 * K - 1) - 1, -(2 ** (64 * K - 1))]
    rows = data.draw(st.lists(st.integers(0, len(values) - 1), min_size=1, max_size=40))
    points = sorted(data.draw(st.sets(st.integers(0, len(rows) - 1), min_size=1)))
    out = np.empty((len(points), K + 1), dtype=np.int64)
    _compiled("gathered_sums")(int_limbs(values, K), np.array(rows, dtype=np.int64), np.array(points), out)
    assert limb_values(out).tolist() == [sum(values[i] for i in rows[:p + 1]) for p in points]


def test_gathered_sums_name_a_row_or_a_point_out_of_range():
    M, out = int_limbs([1, 2], 1), np.empty((1, 2), dtype=np.int64)
    with pytest.raises(ValueError, match=r"rows\[1\]=2 is not a row of M"):
        _compiled("gathered_sums")(M, np.array([0, 2]), np.array([1]), out)
    with pytest.raises(ValueError, match=r"points\[1\]=0 is out of range or order"):
        _compiled("gathered_sums")(M, np.array([0, 1]), np.array([1, 0]), np.empty((2, 2), dtype=np.int64))
    with pytest.raises(ValueError, match=r"points\[0\]=2 is out of range"):
        _compiled("gathered_sums")(M, np.array([0, 1]), np.array([2]), out)
