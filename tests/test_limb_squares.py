"""The soft-margin check from margins held in limbs (data/limb_margins.py, check/soft_squares.limb_squares, C in
data/_limbrows.c's limb_ratios and check/_deficits.h): the same figures as from Python integers."""

from __future__ import annotations

from fractions import Fraction
import random

import numpy as np
import pytest

from verify_perceptron.check import kernel as check_kernel, soft_squares
from verify_perceptron.check.soft_margin import soft_margin_check
from verify_perceptron.check.soft_chunk import taken
from verify_perceptron.check.soft_reference import has_positive_margin
from verify_perceptron.check.soft_squares import limb_squares
from verify_perceptron.data import kernel as data_kernel
from verify_perceptron.data.integers import ExactMatrix, as_limbs
from verify_perceptron.data.limb_arrays import int_limbs
from verify_perceptron.data.limb_margins import LimbMargins
from verify_perceptron.notes.relative_floats import _relative, relative_floats

def _ratios(M: np.ndarray, shift: int, out: np.ndarray) -> None:
    assert data_kernel.limb_ratios is not None
    data_kernel.limb_ratios(M, shift, out)


def _top(margins: np.ndarray, rho: np.ndarray) -> int:
    assert check_kernel.deficit_top is not None
    return check_kernel.deficit_top(margins, rho)


def _squares(*args: np.ndarray) -> int:
    assert check_kernel.deficit_squares is not None
    return check_kernel.deficit_squares(*args)


needs_c = pytest.mark.skipif(data_kernel.limb_ratios is None or check_kernel.deficit_squares is None
                             or not soft_squares._extended(), reason="the C passes or a 64-bit significand are missing")

#: Values at the edges: around powers of two (the leading bits' carries), negatives (the floor's extra unit), 0.
EDGES = [0, 1, -1, 2**63 - 1, -(2**63), 2**64 - 1, -(2**64 - 1), 2**64, -(2**64), -(2**64 + 1), 2**65 - 1,
         -(2**65 - 1), -(2**128 - 1), -(2**128 + 1), 2**128 + 2**63, -(2**190), 2**190 - 1, -(2**191), 2**191 - 1,
         -(2**66 - 2**2 - 1), -(2**66 - 3), (2**64 - 1) << 60, -((2**64 - 1) << 60) - 1, -((2**64 - 1) << 60)]


def _values(seed: int, n: int, top: int) -> list[int]:
    rng = random.Random(seed)
    values = []
    for _ in range(n):
        bits = rng.randint(1, top)
        v = rng.getrandbits(bits) | (1 << (bits - 1))
        if rng.random() < 0.3:  # a run of ones below the leading bits: the rounding's carries
            v |= (1 << rng.randint(0, bits - 1)) - 1
        values.append(-v if rng.random() < 0.5 else v)
    return values


@needs_c
@pytest.mark.parametrize("shift", [0, 5, 141, 1100, -1100])
def test_the_doubles_from_limbs_are_those_from_the_python_integers(shift: int) -> None:
    values = EDGES + _values(shift % 97, 5000, 191)
    limbs = int_limbs(values, 3)
    expected = np.array([_relative(v, shift) for v in values])
    got = LimbMargins(limbs).relative(shift, otherwise=relative_floats)
    assert got.view(np.int64).tolist() == expected.view(np.int64).tolist()  # bit for bit, signed zeros and infinities
    wide = int_limbs(values, 5)  # the same values in more limbs (sign-extended): the same doubles
    assert LimbMargins(wide).relative(shift, otherwise=relative_floats).view(np.int64).tolist() == expected.view(np.int64).tolist()


@needs_c
def test_limb_ratios_refuses_bad_input() -> None:
    out = np.empty(2)
    with pytest.raises(ValueError, match="1 to 64 limbs"):
        _ratios(np.zeros((2, 65), dtype=np.int64), 0, out)
    with pytest.raises(ValueError, match="out \\(2\\)"):
        _ratios(np.zeros((3, 2), dtype=np.int64), 0, out)
    with pytest.raises(TypeError, match="M must hold int64"):
        _ratios(np.zeros((2, 2)), 0, out)
    with pytest.raises(ValueError, match="C-contiguous"):
        _ratios(np.zeros((2, 4), dtype=np.int64)[:, ::2], 0, out)


def _expected(margins: list[int], rho: int) -> tuple[list[int], list[float]]:
    squares = [max(rho - m, 0) ** 2 for m in margins]
    return squares, [s / (rho * rho) for s in squares]  # (int / int: correctly rounded)


@needs_c
@pytest.mark.parametrize("rho", [1, 2**62 + 1, 2**64 - 1, 2**64, 2**64 + 1, 2**100 + 7, 2**141 - 12345, 2**180 + 3])
def test_the_squares_from_limbs_are_those_from_the_python_integers(rho: int) -> None:
    # deficits of every size up to 2^183 (d² in at most 8 pieces), the edges of the borrow (m = ρ, ρ ± 1, m < 0 with
    # its sign limbs) and of the cut to 64 leading bits
    margins = [v for v in EDGES + _values(rho % 89, 6000, 183) if 0 <= rho - v < 2**183 or v >= rho]
    margins += [rho, rho - 1, rho + 1, rho - 2**64, rho - 2**64 + 1, rho - 2**128, rho - (2**183 - 1)]
    squares, quotients = _expected(margins, rho)
    figures = limb_squares(LimbMargins(int_limbs(margins, 3)), rho)
    assert figures is not None
    count = -(-max(squares).bit_length() // 46)
    assert figures.pieces.shape == (count, len(margins))
    held = taken(figures.pieces, slice(None))  # (made from the margins, each sample's pieces)
    assert [sum(int(p) << (46 * k) for k, p in enumerate(column)) for column in held.T.tolist()] == squares
    assert figures.over_rho_sq.tolist() == quotients  # every one, bit for bit
    assert figures.total == sum(squares) and figures.short == sum(s > 0 for s in squares)


@needs_c
def test_quotients_near_a_midpoint_are_flagged_and_taken_in_integers() -> None:
    # The C pass flags the quotients near a midpoint of doubles (their last 11 bits within 16 units of it): the
    # others are already Python's int / int; with the flagged ones taken in integers, all are.
    rho = 2**141 - 12345
    margins = [v for v in _values(7, 20_000, 183) if rho - v < 2**183]
    limbs = int_limbs(margins, 3)
    count = -(-max(max(rho - m, 0) ** 2 for m in margins).bit_length() // 46)
    pieces, over = np.empty((len(margins), count), dtype=np.int64), np.empty(len(margins))
    near = np.empty(len(margins), dtype=np.uint8)
    _squares(limbs, int_limbs([rho], 3)[0], pieces, over, near)
    quotients = _expected(margins, rho)[1]
    assert 0 < near.sum() < 0.03 * len(margins)
    assert all(q == expected for q, expected, flagged in zip(over.tolist(), quotients, near) if not flagged)
    figures = limb_squares(LimbMargins(limbs), rho)
    assert figures is not None and figures.over_rho_sq.tolist() == quotients


@needs_c
def test_the_largest_deficit_is_found() -> None:
    margins = EDGES + _values(3, 3000, 300)
    for rho in (1, 2**64 + 5, 2**200 - 1):
        top = _top(int_limbs(margins, 6), int_limbs([rho], 6)[0])
        assert top == max(max(rho - m, 0) for m in margins)
    assert _top(int_limbs([5, 9], 1), int_limbs([3], 1)[0]) == 0


@needs_c
def test_deficit_passes_refuse_bad_input() -> None:
    margins = int_limbs([5, -(2**190)], 3)
    rho = int_limbs([7], 3)[0]
    pieces, over, near = np.empty((2, 8), dtype=np.int64), np.empty(2), np.empty(2, dtype=np.uint8)
    with pytest.raises(ValueError, match="row 1's deficit"):  # d ~ 2^190: d² past 8 pieces
        _squares(margins, rho, pieces, over, near)
    with pytest.raises(ValueError, match="row 1's deficit passes 2\\^192"):
        _squares(int_limbs([5, -(2**200)], 4), int_limbs([7], 4)[0], pieces, over, near)
    with pytest.raises(ValueError, match="row 0's deficit"):  # d² = 2^94 needs 3 pieces, 2 given
        _squares(int_limbs([7 - 2**47], 1), int_limbs([7], 1)[0], pieces[:1, :2].copy(),
                                     over[:1], near[:1])
    for bad_rho in (int_limbs([0], 3)[0], int_limbs([-3], 3)[0], int_limbs([7], 2)[0]):  # 0, < 0, not 3 limbs
        with pytest.raises(ValueError, match="rho \\(\\d\\) as many, > 0"):
            _top(margins, bad_rho)
    with pytest.raises(ValueError, match="rho passes 2\\^192"):
        _squares(int_limbs([5], 4), int_limbs([2**200], 4)[0], pieces[:1], over[:1], near[:1])
    with pytest.raises(ValueError, match="the margins' 2 rows"):
        _squares(margins, rho, pieces[:1], over, near)


def _held(seed: int, n: int) -> tuple[ExactMatrix, ExactMatrix]:
    """One matrix of ~94-bit samples held in limbs (as randn's), and the same in Python integers."""
    rng = np.random.default_rng(seed)
    values = [[int(v) << int(s) for v, s in zip(row, shifts)]
              for row, shifts in zip(rng.integers(-2**52, 2**52, (n, 4)).tolist(), rng.integers(0, 42, (n, 4)).tolist())]
    flat = np.array(values, dtype=object)
    return ExactMatrix(None, limbs=as_limbs(flat.reshape(-1), 2).reshape(n, 4, 2)), ExactMatrix(flat)


@needs_c
def test_the_check_from_limbs_is_the_check_from_python_integers(monkeypatch: pytest.MonkeyPatch) -> None:
    held, whole = _held(5, 3000)
    assert held.held is not None and whole.held is None
    reference = [Fraction(3, 7), Fraction(-2), Fraction(5, 3), Fraction(1)]
    counts = np.random.default_rng(5).integers(0, 4, 3000)
    ints = soft_margin_check(whole, reference, L=1, source="s", counts=counts)

    def no_python_products(*args: object, **kwargs: object) -> object:
        raise AssertionError("the margins were made Python integers")

    monkeypatch.setattr(ExactMatrix, "products", no_python_products)
    limbs = soft_margin_check(held, reference, L=1, source="s", counts=counts)
    assert not isinstance(ints, str) and not isinstance(limbs, str)
    assert (limbs.bound.rho, limbs.bound.R_sq, limbs.bound.u_sq) == (ints.bound.rho, ints.bound.R_sq, ints.bound.u_sq)
    assert limbs._sq_over_rho.tolist() == ints._sq_over_rho.tolist()
    assert taken(limbs._pieces, slice(None)).tolist() == taken(ints._pieces, slice(None)).tolist()
    assert limbs._whole == ints._whole
    rows = np.random.default_rng(6).integers(0, 3000, 9000)
    for check in (ints, limbs):
        check.observe_chunk(1, 1, rows)
    assert (limbs.N, limbs.D_sq, limbs.tightest, limbs.result.n_checked) == (
        ints.N, ints.D_sq, ints.tightest, ints.result.n_checked)
    assert limbs.finish()[1] == ints.finish()[1]
    assert has_positive_margin(held, [3, -14, 35, 21]) and not has_positive_margin(held, [0, 0, 0, 0])


@needs_c
def test_margins_in_limbs_are_cut_to_the_fewest_limbs_that_hold_them() -> None:
    held, whole = _held(8, 500)
    W = [2**70 + 3, -5, 2**40, -(2**71)]
    assert held.held is not None
    margins = LimbMargins.of(held.held, W)
    assert margins is not None and margins.limbs.shape == (500, 3)  # (2 + 2 + 1 limbs made; |m| < 2^141 or so)
    assert margins.ints().tolist() == whole.products(W, norm_sq=sum(v * v for v in W)).tolist()


@needs_c
def test_a_positive_margin_is_found_in_any_block_of_rows() -> None:
    # `has_positive_margin` reads the margins a block of 2^15 rows at a time, up to the first block with one > 0:
    # the one positive margin in the last row of the second block, and no positive margin at all
    n = 2**15 + 5
    values = np.zeros((n, 2), dtype=object)
    values[:, 0] = -(2**90)
    values[-1, 0] = 2**90
    values[:, 1] = 1
    held = ExactMatrix(None, limbs=as_limbs(values.reshape(-1), 2).reshape(n, 2, 2))
    assert held.held is not None
    assert has_positive_margin(held, [1, 0]) and LimbMargins.positive(held.held, [1, 2**89]) is True
    assert not has_positive_margin(held, [1, -(2**91)]) and not has_positive_margin(held, [0, 0])


@needs_c
def test_margins_past_the_c_passes_limbs_are_squared_as_python_integers() -> None:
    # Margins of thousands of bits (42 limbs: the test matrix's mixed data) are Python integers' work, as before:
    # the check from them equals the one made from the Python integers, and nothing is refused.
    values = np.array([[2**2600 + 7, -3], [-(2**2600), 5], [1, 2]], dtype=object)
    held = ExactMatrix(None, limbs=as_limbs(values.reshape(-1), 42).reshape(3, 2, 42))
    whole = ExactMatrix(values)
    reference = [Fraction(1), Fraction(2**10)]
    limbs, ints = (soft_margin_check(m, reference, L=1, source="s") for m in (held, whole))
    assert not isinstance(limbs, str) and not isinstance(ints, str)
    assert (limbs.bound.rho, limbs.bound.R_sq, limbs.bound.u_sq) == (ints.bound.rho, ints.bound.R_sq, ints.bound.u_sq)
    assert limbs.bound.deficits_sq.tolist() == ints.bound.deficits_sq.tolist()
    assert limbs._sq_over_rho.tolist() == ints._sq_over_rho.tolist()
    assert limb_squares(LimbMargins(int_limbs([3, -(2**80)], 33)), 4) is None
