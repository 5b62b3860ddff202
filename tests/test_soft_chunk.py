"""The soft-margin check's chunk in one compiled pass (`verify_perceptron.check.soft_chunk`): NumPy's floats, exact sums."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from verify_perceptron.check import kernel, soft_chunk, soft_margin
from verify_perceptron.check.soft_chunk import chunk_floats, filtered_chunk, joined, piece_rows, usable
from verify_perceptron.check.soft_margin import SoftMarginCheck
from verify_perceptron.check.soft_squares import int64_squares
from verify_perceptron.notes.soft_margin import SoftMargin

needs_kernel = pytest.mark.skipif(kernel.soft_chunk is None, reason="the compiled replay was not built")


def _case(seed: int, n: int, m: int, K: int, zeros: float = 0.2) -> tuple[Any, Any, Any]:
    rng = np.random.default_rng(seed)
    over = rng.random(n) * 10.0 ** rng.integers(-3, 4, n)
    over[rng.random(n) < zeros] = 0.0
    pieces = piece_rows(K, n)
    pieces[:] = rng.integers(0, 2**46, (K, n))
    pieces[:, :3] = 2**46 - 1  # the largest piece, on rows drawn often below
    rows = rng.integers(0, n, m)
    rows[: m // 4] = rng.integers(0, min(n, 3), m // 4)
    return over, pieces, rows


def _prefix(pieces: Any, rows: Any) -> Any:
    """Each chunk row's running sums of the pieces, in Python integers (an object array, rows x pieces)."""
    return np.cumsum(pieces[:, rows].T.astype(object), axis=0)


def _expected(over: Any, pieces: Any, rows: Any, prefix: Any = None,
              **floats: Any) -> tuple[list[int], int, float, list[list[int]]]:
    """What `filtered_chunk` must give: NumPy's floats, and the pieces' sums in Python integers."""
    doubtful, t, nearest = chunk_floats(over, rows, **floats)
    prefix = _prefix(pieces, rows) if prefix is None else prefix
    return doubtful, t, nearest, [list(prefix[j]) for j in [*doubtful, len(rows) - 1, t]]


@needs_kernel
@pytest.mark.parametrize("seed, n, m, K", [(1, 50, 1, 1), (2, 50, 7, 3), (3, 1000, 5000, 7),
                                           pytest.param(4, 300, 2**16, 8, marks=pytest.mark.slow), (5, 10, 2**16, 2)])
@pytest.mark.parametrize("factor, use_filter", [(1.0 + 2.0**-20, True), (4.0, True), (1.0, False)])
def test_the_pass_is_numpy_s_floats_and_the_exact_sums(seed: int, n: int, m: int, K: int, factor: float,
                                                       use_filter: bool) -> None:
    over, pieces, rows = _case(seed, n, m, K)
    prefix = _prefix(pieces, rows)  # (the floats below do not change the sums)
    mixed = False
    for base, root_B, N0 in [(0.0, 1.0, 1), (3.5, 0.25, 10**6 + 3), (1e9, 2.0**-100, 2**40), (1e13, 1.0, 10**8),
                             (0.0, 1.0, 10**5), (0.0, 0.5, 100)]:
        floats = dict(base=base, root_B=root_B, N0=N0, factor=factor, use_filter=use_filter)
        doubtful, t, nearest, sums = filtered_chunk(over, pieces, rows, **floats)  # type: ignore[arg-type]
        want_doubtful, want_t, want_nearest, want_sums = _expected(over, pieces, rows, prefix, **floats)
        assert (doubtful, t) == (want_doubtful, want_t)
        assert nearest == want_nearest or (np.isnan(nearest) and np.isnan(want_nearest))
        assert sums.tolist() == want_sums
        assert joined(7, sums) == [7 + sum(v << (46 * k) for k, v in enumerate(row)) for row in want_sums]
        mixed = mixed or 0 < len(doubtful) < m
    assert mixed or m < 100 or not use_filter  # (some updates doubtful and some not, in one chunk at least)


@needs_kernel
def test_ties_and_infinities_take_numpy_s_first() -> None:
    over, pieces, rows = _case(6, 20, 500, 2)
    for floats in [dict(base=0.0, root_B=np.inf, N0=1),  # every ratio 0: the first is the nearest
                   dict(base=0.0, root_B=0.0, N0=1)]:  # the first rows' d²/ρ² are 0 below: √N / 0 = inf
        over_zero = over.copy()
        over_zero[rows[:5]] = 0.0
        got = filtered_chunk(over_zero, pieces, rows, factor=1.0, use_filter=True, **floats)  # type: ignore[arg-type]
        want = _expected(over_zero, pieces, rows, factor=1.0, use_filter=True, **floats)
        assert got[:2] == want[:2] and got[2] == want[2] and got[3].tolist() == want[3]
        assert got[1] == 0


@needs_kernel
@pytest.mark.parametrize("change, message", [
    (lambda a: a.update(rows=np.array([0, 5, 50])), "rows\\[2\\]=50 is not a sample"),
    (lambda a: a.update(rows=np.array([-1])), "rows\\[0\\]=-1 is not a sample"),
    (lambda a: a["pieces"].__setitem__((1, 3), 2**46), "not in \\[0, 2\\^46\\)"),
    (lambda a: a["pieces"].__setitem__((0, 3), -1), "not in \\[0, 2\\^46\\)"),
    (lambda a: a.update(rows=np.zeros(2**16 + 1, dtype=np.int64)), "do not agree"),
    (lambda a: a.update(N0=0), "n0=0 is not in"),
])
def test_bad_input_is_refused(change: Any, message: str) -> None:
    over, pieces, rows = _case(7, 50, 10, 2)
    rows[:] = 3
    args: dict[str, Any] = dict(over=over, pieces=pieces, rows=rows, N0=1)
    change(args)
    with pytest.raises(ValueError, match=message):
        filtered_chunk(args["over"], args["pieces"], args["rows"], base=0.0, root_B=1.0, N0=args["N0"],
                       factor=1.0, use_filter=True)


def test_what_it_reads() -> None:
    assert not usable(np.zeros((2, 4), dtype=np.int64), np.zeros(4))  # (K, n) in memory
    assert not usable(piece_rows(2, 4), np.zeros(5))
    assert not usable(piece_rows(9, 4), np.zeros(4))
    assert not usable(None, np.zeros(4))
    assert usable(piece_rows(2, 4), np.zeros(4)) == (kernel.soft_chunk is not None)


def _violated_check() -> tuple[SoftMarginCheck, Any]:
    """A check from pieces whose bound the rows told break: most margins at ρ or above (d = 0), a few short."""
    rng = np.random.default_rng(8)
    rho = 2**40 + 7
    margins = np.where(rng.random(3000) < 0.97, rho + rng.integers(0, 2**30, 3000), rho - rng.integers(1, 2**20, 3000))
    bound = SoftMargin(rho, 2**80, 4, np.zeros(0, dtype=object), 1)  # √B/ρ about 2: N <= (2 + D/ρ)²
    squares = int64_squares(margins.astype(np.int64), rho)
    assert squares is not None
    check = SoftMarginCheck(bound, reference=(Fraction(1),), source="s", L=1, M=1, squares=squares)
    return check, np.concatenate([rng.integers(0, 3000, 3500), np.flatnonzero(margins < rho)])


@needs_kernel
def test_the_check_through_the_pass_is_the_numpy_check(monkeypatch: pytest.MonkeyPatch) -> None:
    # The same mistakes told to a check through the compiled pass and through NumPy (every float and sum): the
    # same violation, counts, D², nearest point, summary. The bound is broken: the pass's doubtful updates are
    # decided in integers and the first violation found.
    calls: list[int] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return soft_chunk.filtered_chunk(*args, **kwargs)

    monkeypatch.setattr(soft_margin, "filtered_chunk", counted)
    checks = []
    for compiled in (True, False):
        if not compiled:
            monkeypatch.setattr(soft_margin, "usable", lambda *a: False)
        check, rows = _violated_check()
        check.observe_chunk(1, 1, rows[:3100])
        check.observe_chunk(3101, 2, rows[3100:])
        checks.append((check, check.finish()))
    assert len(calls) == 2
    (one, (result, summary)), (two, (result2, summary2)) = checks
    assert result.holds is False and result.first_violation is not None
    assert (result.holds, result.n_checked, result.first_violation) == (
        result2.holds, result2.n_checked, result2.first_violation)
    assert summary == summary2 and (one.N, one.D_sq, one.tightest) == (two.N, two.D_sq, two.tightest)
    # the first violation, by brute force in integers: N·ρ² > (√B + D)² first at mistake k
    check, rows = _violated_check()
    rho, D_sq = check.bound.rho, 0
    d_sq = [int(sum(int(p) << (46 * k) for k, p in enumerate(check._pieces[:, i]))) for i in range(3000)]
    for k, i in enumerate(rows.tolist(), start=1):
        D_sq += d_sq[i]
        if not check.bound.holds(k, D_sq):
            break
    assert result.first_violation.k == k
