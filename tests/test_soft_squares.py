"""The soft-margin check's squares from int64 margins without Python integers (check/soft_squares.py)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from verify_perceptron.check import soft_squares
from verify_perceptron.check.soft_margin import SoftMarginCheck
from verify_perceptron.check.soft_squares import int64_squares
from verify_perceptron.notes.soft_margin import SoftMargin

needs_extended = pytest.mark.skipif(np.finfo(np.longdouble).nmant < 63, reason="no 64-bit significand here")


def _margins(seed: int, n: int, rho: int) -> np.ndarray:
    """int64 margins whose deficits ρ − m spread over every size up to 2^64 − 1, with the ends of the range."""
    rng = np.random.default_rng(seed)
    deficits = [int(v) >> int(s) for v in rng.integers(1, 2**63, n) for s in rng.integers(0, 62, 1)]
    margins = [max(rho - d, -(2**63)) for d in deficits]
    margins[:6] = [-(2**63), -(2**63) + 1, rho, rho - 1, 2**63 - 1, 0]  # d = the largest, ..., 0 (m >= ρ), 1
    return np.array(margins, dtype=np.int64)


def _expected(margins: np.ndarray, rho: int) -> tuple[list[int], list[float]]:
    squares = [max(rho - int(m), 0) ** 2 for m in margins]
    return squares, [s / (rho * rho) for s in squares]  # (int / int: correctly rounded)


@needs_extended
@pytest.mark.parametrize("rho", [2**63 - 1, 7394759868667429591, 2**40 + 3])
def test_pieces_quotients_and_sums_are_the_python_integers(rho: int) -> None:
    margins = _margins(rho % 1000, 50_000, rho)
    squares, quotients = _expected(margins, rho)
    figures = int64_squares(margins, rho)
    assert figures is not None
    pieces = figures.pieces.tolist()
    assert [sum(piece[i] << (46 * k) for k, piece in enumerate(pieces)) for i in range(len(margins))] == squares
    assert figures.pieces.shape[0] == -(-max(squares).bit_length() // 46)
    assert figures.over_rho_sq.tolist() == quotients  # every one, bit for bit
    assert figures.total == sum(squares) and figures.short == sum(s > 0 for s in squares)


@needs_extended
def test_quotients_near_a_midpoint_are_taken_in_integers(monkeypatch: pytest.MonkeyPatch) -> None:
    # (d/ρ)² in extended precision rounds to the wrong double now and then (651 of 2,000,000 random 63-bit
    # deficits): each such one lies near a midpoint of doubles, where the quotient is taken in integers instead.
    rho = 7394759868667429591
    margins = _margins(32, 100_000, rho)
    quotients = _expected(margins, rho)[1]
    figures = int64_squares(margins, rho)
    assert figures is not None and figures.over_rho_sq.tolist() == quotients
    monkeypatch.setattr(soft_squares, "_NEAR", -1)  # never in integers: some are wrong
    figures = int64_squares(margins, rho)
    assert figures is not None and figures.over_rho_sq.tolist() != quotients


def test_margins_it_does_not_take() -> None:
    assert int64_squares(np.array([1, 2], dtype=np.int64), 2**63) is None
    assert int64_squares(np.array([1, 2], dtype=object), 5) is None
    assert int64_squares(np.array([1, 2], dtype=np.int64), 0) is None


def test_no_extended_precision_means_python_integers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(soft_squares, "_NEEDED_MANT", 200)
    assert int64_squares(np.array([1, 2], dtype=np.int64), 5) is None
    assert not soft_squares._extended()


@needs_extended
def test_the_check_from_pieces_is_the_check_from_python_integers() -> None:
    # The same updates told to a check whose squares are Python integers and to one made from the pieces: the same
    # verdict, counts, D², nearest point and summary (every float of the filter the same).
    rho = 2**62 + 12345
    margins = _margins(4, 3000, rho)
    R_sq, u_sq, scale = 2**124, 2**3, 10**6
    reference = (Fraction(1), Fraction(2))
    whole = SoftMarginCheck(SoftMargin.from_margins(margins, rho=rho, R_sq=R_sq, u_sq=u_sq, scale=scale),
                            reference=reference, source="s", L=10**3, M=10**3)
    assert whole.bound.deficits_sq.dtype == object
    light = SoftMargin(rho, R_sq, u_sq, np.zeros(0, dtype=object), scale)
    pieces = SoftMarginCheck(light, reference=reference, source="s", L=10**3, M=10**3,
                             squares=int64_squares(margins, rho))
    rows = np.random.default_rng(4).integers(0, len(margins), 20_000)
    for check in (whole, pieces):
        check.observe(1, 1, [int(rows[0])])
        check.observe_chunk(2, 1, rows[1:9000])
        check.observe_chunk(9001, 2, rows[9000:])
    (result, summary), (result2, summary2) = whole.finish(), pieces.finish()
    assert (result.holds, result.n_checked, result.first_violation) == (
        result2.holds, result2.n_checked, result2.first_violation)
    assert summary == summary2 and summary.bound == summary2.bound and summary.tightest_bound == summary2.tightest_bound
    assert (whole.N, whole.D_sq, whole.tightest) == (pieces.N, pieces.D_sq, pieces.tightest)
    counts = np.bincount(rows, minlength=len(margins))
    assert whole.shortfall_sum(counts) == pieces.shortfall_sum(counts) == sum(
        int(c) * max(rho - int(m), 0) ** 2 for c, m in zip(counts, margins))


@needs_extended
def test_the_bounds_command_s_soft_margin_entries_are_the_same_from_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    # `bounds` reads D² from the check (`shortfall_sum`), not from its bound, which holds no deficits when the
    # squares were made from int64 margins: the same entries either way.
    from verify_perceptron.certify import soft_bounds
    from verify_perceptron.data.dataset import Dataset

    rng = np.random.default_rng(3)
    data = Dataset(numerators=rng.integers(-10**9, 10**9, size=(300, 3)), denominator=10**6,
                   y=rng.choice([-1, 1], size=300))
    made: list[bool] = []

    def counted(squares: Any) -> Any:
        def made_by(*args: Any) -> Any:
            found = squares(*args)
            made.append(found is not None)
            return found
        return made_by

    for name in ("int64_squares", "limb_squares"):  # (int64 margins: in C as one limb each, else in NumPy)
        monkeypatch.setattr(soft_squares, name, counted(getattr(soft_squares, name)))
    from_pieces = soft_bounds.soft_margin_entries(data, max_epochs=30, remaining=lambda: None)
    assert any(made) and from_pieces[0].D_sq is not None and from_pieces[0].D_sq > 0
    for name in ("int64_squares", "limb_squares"):
        monkeypatch.setattr(soft_squares, name, lambda *a: None)
    assert soft_bounds.soft_margin_entries(data, max_epochs=30, remaining=lambda: None) == from_pieces
