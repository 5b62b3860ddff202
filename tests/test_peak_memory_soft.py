"""What the soft-margin check holds after a long run, against the size of the data (issue 32, `peakmem4`).

`verify` on data that do not separate checks the soft-margin bound after the
run, from its kept mistakes (`pipeline._soft_margin_afterwards`). Two copies
lived on there to the end of the report: u's margins as Python integers, kept
by the sample matrix for a second use of the same direction that does not
come, and the shortfalls d_i² held twice, as n Python integers
(`SoftMargin.deficits_sq`) and as the 46-bit pieces that sum a chunk's
(`SoftMarginCheck._pieces`). Each test here fails with the copy put back.
"""

from __future__ import annotations

import gc
import tracemalloc
from fractions import Fraction
from typing import Any

import numpy as np

from tests.test_peak_memory import _traced_peak
from verify_perceptron.check.soft_margin import SoftMarginCheck, soft_margin_check
from verify_perceptron.data.integers import ExactMatrix
from verify_perceptron.notes.soft_margin import SoftMargin


def _wide_bound(n: int) -> SoftMargin:
    """A bound over n samples whose shortfalls pass int64 (about 100 bits, as at 10^6 x 10 not separable)."""
    margins = np.random.default_rng(7).integers(-2**20, 2**20, size=n).astype(object) * 2**30
    return SoftMargin.from_margins(margins, rho=2**49, R_sq=2**120, u_sq=2**10, scale=2**30)


def test_the_squares_are_held_once_in_pieces_after_a_long_run() -> None:
    # 0.73x (the Python integers) beside 0.64x (their pieces) of the int64 data at 10^6 x 10 not separable; now
    # the pieces alone, and the same verdicts, sums and summary as from the Python integers.
    n = 2**15
    bound = _wide_bound(n)
    squares = bound.deficits_sq.tolist()
    assert bound.deficits_sq.dtype == object and max(squares) >= 2**63
    rows = np.random.default_rng(8).integers(0, n, size=n + 5)
    gc.collect()
    tracemalloc.start()
    try:
        check = SoftMarginCheck(bound, reference=(Fraction(1),), source="test", L=2**20, M=2**10)
        del bound  # (the caller's reference: the check's is the one that counts)
        check.observe_chunk(1, 1, rows[:-1])
        check.observe(n + 5, 2, [int(rows[-1])])  # one update alone, its square read from the pieces
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert len(check.bound.deficits_sq) == 0
    assert held / n < 48  # the pieces (3 x 8 bytes) and the filter's floats (8); the Python integers were 40 more
    result, summary = check.finish()
    assert result.n_checked == len(rows)
    assert check.D_sq == sum(squares[j] for j in rows.tolist())
    assert summary.pass_D_sq == Fraction(sum(squares), 2**60)
    assert summary.short_samples == sum(1 for v in squares if v)


def test_the_soft_margin_check_lets_go_of_u_s_margins() -> None:
    # The sample matrix kept u's margins (past int64 n Python integers: 0.48x the int64 data at 10^6 x 10) for a
    # second product with the same direction, which does not come: they lived on to the end of the report.
    rng = np.random.default_rng(9)
    matrix = ExactMatrix(rng.integers(-10**9, 10**9, size=(5000, 11)))
    u = [Fraction(int(v)) for v in rng.integers(2**39, 2**40, size=11)]
    check = soft_margin_check(matrix, u, L=1, source="user")
    assert isinstance(check, SoftMarginCheck)
    assert matrix._last is None
    W = [int(v) for v in u]
    assert check.bound.rho in set(matrix.products(W, norm_sq=sum(v * v for v in W)).tolist())


def test_u_s_margins_are_let_go_as_they_are_squared() -> None:
    # The margins and the squares, n Python integers each, were both held at the end of `from_margins` (the peak of
    # verify 10^6 x 10 not separable); consumed a piece at a time, the margins go as the squares come.
    n = 2**16
    made: list[Any] = []

    def squared() -> SoftMargin:
        margins = np.random.default_rng(10).integers(-2**40, 2**40, size=n).astype(object) * 2**30
        made.append(margins)
        return SoftMargin.from_margins(margins, rho=2**71, R_sq=1, u_sq=1, scale=1, consume=True)

    peak, bound = _traced_peak(squared)
    assert all(m is None for m in made[0].tolist())
    assert peak / n < 100  # the margins or the squares (about 48 bytes a sample each), not both: 129 bytes before
    again = np.random.default_rng(10).integers(-2**40, 2**40, size=n).astype(object) * 2**30
    assert bound.deficits_sq.tolist() == [max(2**71 - int(m), 0) ** 2 for m in again]


def test_the_check_s_own_squares_go_as_their_pieces_come() -> None:
    # Made from a bound only the check holds (`soft_margin_check`'s), the pieces replace the Python integers a
    # piece at a time (in resident memory: the pieces' pages are written as the squares' are freed), never both
    # held whole (0.64x beside 0.73x at 10^6 x 10 not separable); the pieces are the squares, exactly.
    n = 2**17
    bound = _wide_bound(n)
    squares = bound.deficits_sq.tolist()
    check = SoftMarginCheck(bound, reference=(Fraction(1),), source="test", L=2**20, M=2**10, consume=True)
    held = bound.deficits_sq
    del bound
    pieces = check._pieces
    assert held.tolist() == [0] * n  # (the caller's view of the bound it gave away)
    values = sum((pieces[k].astype(object) << (46 * k) for k in range(len(pieces))), np.zeros(n, dtype=object))
    assert values.tolist() == squares
    assert [check._square(j) for j in (0, 1, n - 1)] == [squares[0], squares[1], squares[-1]]



def test_sums_over_more_updates_than_a_chunk_are_read_from_the_pieces() -> None:
    # (`_filtered` asks for at most a chunk's; past one, the pieces' int64 sums could pass 2^63, and the Python
    # integers are gone: the updates' squares are made from the pieces)
    bound = _wide_bound(8)
    squares = bound.deficits_sq.tolist()
    check = SoftMarginCheck(bound, reference=(Fraction(1),), source="test", L=2**20, M=2**10)
    assert check._pieces is not None and len(check.bound.deficits_sq) == 0
    rows = np.random.default_rng(12).integers(0, 8, size=2**16 + 3)
    values = [squares[j] for j in rows.tolist()]
    assert check._exact(rows, [0, 2**16 + 2]) == {0: values[0], 2**16 + 2: sum(values)}
