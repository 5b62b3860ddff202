"""The soft-margin check's squares made from the margins held in limbs, chunk by chunk (check/soft_chunk.MarginPieces,
C in check/_soft.h's soft_chunk and check/_deficits.h's deficit_pieces): the figures of the pieces held whole."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from verify_perceptron.check import kernel as check_kernel, soft_squares
from verify_perceptron.check.soft_chunk import MarginPieces, filtered_chunk, taken
from verify_perceptron.check.soft_margin import SoftMarginCheck
from verify_perceptron.check.soft_squares import Squares, limb_squares
from verify_perceptron.data.limb_arrays import int_limbs
from verify_perceptron.data.limb_margins import LimbMargins
from verify_perceptron.notes.soft_margin import SoftMargin

needs_c = pytest.mark.skipif(check_kernel.deficit_pieces is None or check_kernel.soft_chunk is None
                             or not soft_squares._extended(), reason="the C passes or a 64-bit significand are missing")

RHO = 2**141 - 12345


def _margins(seed: int, n: int, rho: int = RHO) -> list[int]:
    """Margins whose deficits reach every limb: d = 0 (m >= ρ, m = ρ), d = 1, d across 2^64 and 2^128, d near 2^183
    (d² in 8 pieces), negative margins (their sign limbs)."""
    rng = np.random.default_rng(seed)
    edges = [rho, rho + 1, rho - 1, rho - 2**64, rho - 2**64 + 1, rho - 2**128, rho - 2**128 - 1, 0, -1,
             -(2**64), -(2**140), rho - (2**183 - 1), 2**150]
    drawn = [int(rho) - (int(a) << int(s)) for a, s in zip(rng.integers(-2**40, 2**62, n), rng.integers(0, 120, n))]
    return edges + drawn


def _held(pieces: Any) -> Any:
    """The pieces of every sample, held as `soft_squares` held them ((K, n), n rows of K in memory)."""
    whole = taken(pieces, slice(None))
    held = np.empty(whole.shape[::-1], dtype=np.int64).T
    held[:] = whole
    return held


@needs_c
def test_the_squares_made_from_margins_on_any_rows_are_the_python_integers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(soft_squares, "_CHUNK", 256)  # Σ d², the count and the quotients a block of 256 at a time
    margins = _margins(1, 3000)
    figures = limb_squares(LimbMargins(int_limbs(margins, 3)), RHO)
    assert figures is not None and isinstance(figures.pieces, MarginPieces)
    rows = np.random.default_rng(1).integers(0, len(margins), 9000)
    got = taken(figures.pieces, rows)
    assert [sum(int(p) << (46 * k) for k, p in enumerate(column)) for column in got.T.tolist()] == [
        max(RHO - margins[i], 0) ** 2 for i in rows.tolist()]
    assert figures.total == sum(max(RHO - m, 0) ** 2 for m in margins)  # (made a block of samples at a time)
    assert figures.short == sum(m < RHO for m in margins)
    assert figures.over_rho_sq.tolist() == [max(RHO - m, 0) ** 2 / RHO**2 for m in margins]


@needs_c
@pytest.mark.parametrize("use_filter", [True, False])
def test_a_chunk_read_from_margins_gives_the_held_pieces_figures(use_filter: bool) -> None:
    # The same floats (the running sums, the nearest point) and the same exact sums at the same updates
    margins = _margins(2, 5000)
    figures = limb_squares(LimbMargins(int_limbs(margins, 3)), RHO)
    assert figures is not None
    held = _held(figures.pieces)
    rng = np.random.default_rng(2)
    for m in (1, 7, 2**16):
        rows = rng.integers(0, len(margins), m)
        kwargs: dict[str, Any] = dict(base=3.5, root_B=40.0, N0=12345, factor=1.0 + 2**-20, use_filter=use_filter)
        one = filtered_chunk(figures.over_rho_sq, figures.pieces, rows, **kwargs)
        other = filtered_chunk(figures.over_rho_sq, held, rows, **kwargs)
        assert one[:3] == other[:3] and one[3].tolist() == other[3].tolist()


@needs_c
def test_the_check_from_margins_is_the_check_from_held_pieces() -> None:
    # Every figure of the check: the filter's chunks, d_j² one at a time, D² from counts, the summary
    margins = _margins(3, 4000)
    figures = limb_squares(LimbMargins(int_limbs(margins, 3)), RHO)
    assert figures is not None
    checks = []
    for pieces in (figures.pieces, _held(figures.pieces)):
        bound = SoftMargin(RHO, 2**290, 1, np.zeros(0, dtype=object), 1)
        squares = Squares(pieces, figures.over_rho_sq, figures.total, figures.short)
        checks.append(SoftMarginCheck(bound, reference=(Fraction(1),), source="s", L=1, M=1, squares=squares))
    rng = np.random.default_rng(3)
    counts, rows = rng.integers(0, 300, len(margins)), rng.integers(0, len(margins), 70000)  # (two chunks)
    for check in checks:
        check.observe(1, 1, [5])
        check.observe_chunk(2, 1, rows)
    one, other = checks
    assert (one.N, one.D_sq, one.tightest) == (other.N, other.D_sq, other.tightest)
    assert one.result.n_checked == other.result.n_checked and one.result.first_violation == other.result.first_violation
    assert [one._square(j) for j in range(20)] == [max(RHO - m, 0) ** 2 for m in margins[:20]]
    assert one.shortfall_sum(counts) == other.shortfall_sum(counts) == sum(
        int(c) * max(RHO - m, 0) ** 2 for c, m in zip(counts, margins))
    assert one.finish()[1] == other.finish()[1]


@needs_c
def test_the_compiled_passes_refuse_what_they_cannot_square() -> None:
    pieces, margins = check_kernel.deficit_pieces, int_limbs([5, -(2**190)], 4)
    rho = int_limbs([7], 4)[0]
    assert pieces is not None and check_kernel.soft_chunk is not None
    with pytest.raises(ValueError, match="rows\\[1\\]'s deficit passes 2\\^192"):
        pieces(margins, rho, np.array([0, 1]), np.empty((2, 8), dtype=np.int64))
    with pytest.raises(ValueError, match="rows\\[0\\]=2 is not a margin's"):
        pieces(margins, rho, np.array([2]), np.empty((1, 8), dtype=np.int64))
    with pytest.raises(ValueError, match="its square 2 pieces"):  # d² = 2^94: 3 pieces
        pieces(int_limbs([7 - 2**47], 1), int_limbs([7], 1)[0], np.array([0]), np.empty((1, 2), dtype=np.int64))
    over, doubtful, sums = np.zeros(2), np.empty(1, dtype=np.int64), np.empty((3, 2), dtype=np.int64)
    args = (np.array([1]), 0.0, 1.0, 1, 1.0, True, doubtful, sums)
    with pytest.raises(ValueError, match="rows\\[0\\]'s deficit passes 2\\^192 or its square 2 pieces"):
        check_kernel.soft_chunk(over, None, *args, margins, rho)
    with pytest.raises(ValueError, match="pieces must be None"):
        check_kernel.soft_chunk(over, np.zeros((2, 2), dtype=np.int64), *args, margins, rho)
    with pytest.raises(ValueError, match="do not agree"):  # rho not in the margins' limbs
        check_kernel.soft_chunk(over, None, *args, margins, int_limbs([7], 3)[0])


@needs_c
def test_a_row_out_of_range_past_the_rows_read_ahead_is_named_in_both_forms() -> None:
    # soft_chunk and deficit_pieces ask the memory for the row SOFT_AHEAD (16) rows ahead of the one they read (a
    # hint); a row out of range there is not asked for, and is refused when reached, by its place.
    margins = _margins(3, 40)
    figures = limb_squares(LimbMargins(int_limbs(margins, 3)), RHO)
    assert figures is not None and isinstance(figures.pieces, MarginPieces)
    n = len(margins)
    for bad in (n, -1):
        rows = np.arange(40, dtype=np.int64) % n
        rows[30] = bad
        for pieces in (figures.pieces, _held(figures.pieces)):
            with pytest.raises(ValueError, match=rf"rows\[30\]={bad} is not a sample"):
                filtered_chunk(figures.over_rho_sq, pieces, rows, base=0.0, root_B=1.0, N0=1, factor=1.0,
                               use_filter=False)
        with pytest.raises(ValueError, match=rf"rows\[30\]={bad} is not a margin's"):
            figures.pieces.rows(rows)
