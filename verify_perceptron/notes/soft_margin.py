"""The mistake bound that needs no separation (Freund and Schapire 1999, after Block and Novikoff): not in the notes.

Take any reference vector u ≠ 0 (a candidate separator that may make
mistakes) and any target margin ρ > 0, and call d_i = max(0, ρ − y_i·u·x~_i)
sample i's shortfall from that margin. A perceptron that updates on
y·w·x~ <= 0, from w = 0, by a constant step a·y·x~, has after N mistakes

    w·u = a·Σ y·u·x~ >= a·Σ (ρ − d) >= a·(N·ρ − √N·D)      (Cauchy-Schwarz on Σ d)
    ‖w‖² <= a²·N·R²                                          (the notes' upper bound)

with D² = Σ_μ N_μ·d_μ², the shortfalls of the mistakes made (N_μ of them on
sample μ). As w·u <= ‖w‖·‖u‖, N·ρ − √N·D <= √N·R·‖u‖, that is

    N·ρ² <= (R·‖u‖ + D)².

Freund and Schapire state it with D² summed over every presentation, which
is larger (each mistake is a presentation and d >= 0); the form over the
mistakes is the stronger one, and it is the one checked. With D = 0 (u
separates with margin ρ) it is the notes' R²·‖u‖²/ρ². The proof, step by
step, is in `verify_perceptron.proofs.soft_margin`.

Everything here is in the checker's scaled integers: with samples
z_i = y_i·L·x~_i and U = M·u, a sample's margin is m_i = z_i·U = L·M·y_i·u·x~_i,
and ρ, d and D are kept multiplied by L·M, R² by L², ‖u‖² by M², so that each
comparison is the same as in rationals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
import math
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from ..data.limb_margins import LimbMargins
from ..data.wide_squares import int_squares
from .relative_floats import _relative as _relative, relative_floats as relative_floats

__all__ = ["SoftMargin", "choose_margin", "choose_scaled", "choose_columns", "relative_floats", "CANDIDATES"]

#: At most this many of the samples' margins are tried as ρ (evenly spaced in order).
CANDIDATES = 256
#: Samples whose deficits `SoftMargin.from_margins` squares at a time, in Python integers.
_PIECE = 2**14


@dataclass(frozen=True)
class SoftMargin:
    """The bound N·ρ² <= (R·‖u‖ + D)² for one reference u and target margin ρ, in scaled integers.

    Attributes
    ----------
    rho : int
        L·M·ρ (> 0).
    R_sq : int
        L²·R², R² = max_i ‖x~_i‖².
    u_sq : int
        M²·‖u‖² (> 0).
    deficits_sq : numpy.ndarray
        Per sample, (L·M·d_i)², d_i = max(0, ρ − y_i·u·x~_i): int64 where it fits, else Python integers.
    scale : int
        L·M, the factor between these integers and the true values.

    Examples
    --------
    >>> bound = SoftMargin.from_margins([3, -1], rho=2, R_sq=4, u_sq=1, scale=1)  # d = (0, 3)
    >>> bound.deficits_sq.tolist()
    [0, 9]
    >>> bound.holds(4, 0), bound.holds(5, 0)  # D = 0: N <= R²·‖u‖²/ρ² = 1
    (False, False)
    >>> bound.holds(1, 0), bound.holds(6, 9)  # D = 3: N <= ((2 + 3)/2)² = 25/4
    (True, True)
    >>> bound.holds(7, 9)
    False
    """

    rho: int
    R_sq: int
    u_sq: int
    deficits_sq: Any
    scale: int

    @classmethod
    def from_margins(cls, margins: Sequence[int] | Any, *, rho: int, R_sq: int, u_sq: int, scale: int,
                     consume: bool = False) -> SoftMargin:
        """The bound for target `rho`, from the samples' scaled margins m_i = z_i·U; with `consume`, margins past int64
        (an array the caller lets go of) are set to None a piece at a time as they are squared."""
        if rho <= 0 or u_sq <= 0:
            raise ValueError(f"the soft-margin bound needs rho > 0 and ‖u‖² > 0, got rho={rho}, u_sq={u_sq}")
        if isinstance(margins, np.ndarray) and margins.dtype == np.int64 and len(margins) and rho < 2**62:
            if int(margins.min()) > -(2**62):  # then every ρ − m is below 2^63: exact in int64
                deficits = np.maximum(rho - margins, 0)
                if int(deficits.max()) < 2**31:  # and every square below 2^62
                    return cls(rho, R_sq, u_sq, deficits * deficits, scale)
        # Python integers (wide ones squared over their limbs in C, `int_squares`), a piece of samples at a
        # time: the deficits ρ − m_i are then never all held beside their squares
        margins = np.asarray(margins, dtype=object).reshape(-1)
        squares = np.empty(len(margins), dtype=object)
        for start in range(0, len(margins), _PIECE):
            squares[start:start + _PIECE] = int_squares(np.maximum(rho - margins[start:start + _PIECE], 0))
            if consume:  # (the margins and their squares, n Python integers each, are then never all held at once)
                margins[start:start + _PIECE] = None
        fits = not len(squares) or squares.max() < 2**62
        return cls(rho, R_sq, u_sq, squares.astype(np.int64) if fits else squares, scale)

    def holds(self, n_mistakes: int, D_sq: int) -> bool:
        """Exactly: is N·ρ² <= (R·‖u‖ + D)², for N = `n_mistakes` and D² = `D_sq` (scaled)?

        With t = N·ρ² − R²‖u‖² − D², it holds iff t <= 2·R·‖u‖·D, that is iff
        t <= 0 or t² <= 4·R²‖u‖²·D²: squares, no root.
        """
        B = self.R_sq * self.u_sq
        t = n_mistakes * self.rho * self.rho - B - D_sq
        return t <= 0 or t * t <= 4 * B * D_sq

    def shortfalls(self, counts: Any) -> int:
        """D² = Σ_μ N_μ·d_μ² (scaled) for mistakes `counts` per sample, exactly.

        Examples
        --------
        >>> SoftMargin.from_margins([3, -1], rho=2, R_sq=4, u_sq=1, scale=1).shortfalls([5, 2])  # 2·3²
        18
        """
        counts = np.asarray(counts, dtype=np.int64)
        squares = self.deficits_sq
        total = int(counts.sum())
        if squares.dtype == np.int64 and int(squares.max(initial=0)) * total < 2**63:
            return int(counts @ squares)  # every partial sum is below 2^63
        hit = np.flatnonzero(counts)  # Python integers, summed by NumPy's loop rather than a generator
        return int(np.dot(counts[hit].astype(object), squares[hit].astype(object))) if len(hit) else 0

    def true(self, L: int, M: int) -> dict[str, Fraction]:
        """ρ, R², ‖u‖² and Σ_i d_i² over one pass, in true units, for data scale `L` and u scale `M`.

        Examples
        --------
        >>> SoftMargin.from_margins([3, -1], rho=2, R_sq=4, u_sq=1, scale=2).true(2, 1)
        {'rho': Fraction(1, 1), 'R_sq': Fraction(1, 1), 'u_sq': Fraction(1, 1), 'pass_D_sq': Fraction(9, 4)}
        >>> big = SoftMargin.from_margins([-(2**31) + 3] * 3, rho=2, R_sq=4, u_sq=1, scale=1)  # d² = (2^31 - 1)²
        >>> big.true(1, 1)["pass_D_sq"] == 3 * (2**31 - 1) ** 2  # past 2^63: summed in 32-bit halves
        True
        """
        squares = self.deficits_sq
        if squares.dtype == np.int64 and int(squares.max(initial=0)) * len(squares) < 2**63:
            total = int(squares.sum())  # every partial sum is below 2^63
        elif squares.dtype == np.int64 and len(squares) < 2**31:  # (squares >= 0) in 32-bit halves: each sum < 2^63
            total = int(np.sum(squares & 0xFFFFFFFF)) + (int(np.sum(squares >> 32)) << 32)
        else:
            total = sum(int(v) for v in squares)
        return {"rho": Fraction(self.rho, L * M), "R_sq": Fraction(self.R_sq, L * L), "u_sq": Fraction(self.u_sq, M * M),
                "pass_D_sq": Fraction(total, (L * M) ** 2)}

    def without_deficits(self) -> SoftMargin:
        """This bound without its per-sample deficits (an empty array): enough for `holds` and `interval`, which a
        summary kept to the end of a report reads; `true` and `shortfalls` then see no sample.

        Examples
        --------
        >>> bound = SoftMargin.from_margins([3, -1], rho=2, R_sq=4, u_sq=1, scale=1)
        >>> light = bound.without_deficits()
        >>> len(light.deficits_sq), light.interval(2) == bound.interval(2), light.holds(6, 9)
        (0, True, True)
        """
        return replace(self, deficits_sq=self.deficits_sq[:0].copy())

    def interval(self, D_sq: int, *, bits: int = 100) -> tuple[Fraction, Fraction]:
        """Rationals ``(lo, hi)`` enclosing the irrational bound ((R·‖u‖ + D)/ρ)², with D² = `D_sq` (scaled).

        Computed with mpmath's interval arithmetic at `bits` bits, so the
        enclosure is rigorous; its ends are returned exactly (they are binary
        fractions), and `holds` decides on the same side of each end as they do.

        Examples
        --------
        >>> lo, hi = SoftMargin.from_margins([3, -1], rho=2, R_sq=4, u_sq=1, scale=1).interval(2)
        >>> lo < hi, float(hi - lo) < 1e-25, round(float(lo), 6)  # (2 + √2)²/4
        (True, True, 2.914214)
        """
        iv = mpmath.iv
        saved = iv.prec
        iv.prec = bits
        try:
            value = ((iv.sqrt(iv.mpf(self.R_sq * self.u_sq)) + iv.sqrt(iv.mpf(D_sq))) / iv.mpf(self.rho)) ** 2
            low, high = value._mpi_
        finally:
            iv.prec = saved
        return _exact(low), _exact(high)


def _exact(value: Any) -> Fraction:
    """An mpmath raw binary float (sign, mantissa, exponent, bits) as the rational it is."""
    sign, mantissa, exponent, _ = value
    number = Fraction(int(mantissa)) * (Fraction(2) ** int(exponent))
    return -number if sign else number


def choose_margin(margins: Any, counts: Any, *, R_sq: int, u_sq: int) -> tuple[int, float] | None:
    """The target ρ, among the samples' positive scaled margins, that makes the bound smallest, and its log.

    For counts N_μ (the mistakes on each sample, or 1 each when they are not
    known yet), the bound at the end of the run is ((R‖u‖ + D(ρ))/ρ)² with
    D(ρ)² = Σ_{m_μ < ρ} N_μ·(ρ − m_μ)²; it is compared at each candidate (at
    most `CANDIDATES` of them) in floating point (`choose_scaled`). The choice
    only picks which true theorem is checked, so no float decides anything
    checked; the ρ returned is one of the exact margins, and positive. None
    exactly when no margin is positive.

    The floats are the margins over 2^s, s the bit length of √B, made from
    the integers (`relative_floats`): √B is then in [1/2, 1), every margin of
    u (|m| <= √B) at most 1, so nothing overflows, and the bound is compared
    by its logarithm, which cannot overflow either. A positive margin below
    2^-1074·√B is 0 there; when the floats see no positive margin at all,
    the largest exact one is taken, with its bound's logarithm from the
    integers. Returned with ρ: the natural logarithm of the bound (the same
    in scaled and true units).

    Examples
    --------
    >>> rho, log_bound = choose_margin([4, 1, -2], [1, 1, 1], R_sq=25, u_sq=1)  # ρ = 1: (5 + 3)²/1 = 64
    >>> rho, round(math.exp(log_bound), 4)  # ρ = 4: d = (0, 3, 6), (5 + √45)²/16
    (4, 8.5676)
    >>> choose_margin([1, -2**4000], [1, 1], R_sq=2**8000, u_sq=1)[0]  # 1 is 0 in floats beside √B = 2^4000
    1
    >>> choose_margin([0, -1], [1, 1], R_sq=1, u_sq=1) is None
    True
    """
    if not len(margins):
        return None
    root = math.isqrt(R_sq * u_sq)  # the bound's √B to within one unit: a float approximation anyway
    exact: Any = margins if isinstance(margins, LimbMargins) or (  # (in limbs: a Python integer for ρ alone)
        isinstance(margins, np.ndarray) and margins.dtype == np.int64) else (  # (an object array's own integers)
        margins.tolist() if isinstance(margins, np.ndarray) and margins.dtype == object else [int(m) for m in margins])
    shift = root.bit_length()
    values = relative_floats(exact, shift)
    chosen = choose_scaled(values, np.asarray(counts, dtype=np.float64), _relative(root, shift))
    if chosen is not None and exact[chosen[0]] > 0:
        return int(exact[chosen[0]]), chosen[1]
    # The floats lost every positive margin (each below 2^-1074·√B): the largest exact one, measured in integers.
    positive = [int(m) for m in exact if m > 0]
    if not positive:
        return None
    return max(positive), _log_bound(exact, counts, max(positive), root)


def _log_bound(margins: Any, counts: Any, rho: int, root: int) -> float:
    """ln(((√B + D(ρ))/ρ)²) from the integers, √B and D to within one unit (`math.log` takes any integer)."""
    D_sq = sum(int(c) * (rho - int(m)) ** 2 for m, c in zip(margins, counts) if m < rho)
    return 2 * (math.log(root + math.isqrt(D_sq) + 1) - math.log(rho))


def choose_scaled(margins: Any, counts: Any, root_B: float) -> tuple[int, float] | None:
    """`choose_margin` on float margins (one scale for all, √B = R‖u‖ in it): the index of ρ, and the bound's log.

    One column of `choose_columns`.

    Examples
    --------
    >>> choose_scaled(np.array([4.0, 1.0, -2.0]), np.ones(3), 5.0)[0]  # the index of ρ = 4
    0
    """
    margins = np.asarray(margins, dtype=np.float64)
    weights = np.asarray(counts, dtype=np.float64)
    # one column: `_one_column` (the same choice as `_all_columns`, tests/test_soft_margin.py) sorts only the
    # samples with a mistake, a few on a converged run
    return _one_column(margins, weights, weights != 0, float(root_B))


def choose_columns(margins: Any, counts: Any, roots: Sequence[float]) -> list[tuple[int, float] | None]:
    """`choose_scaled` for each column of `margins` (n × c floats), column j with √B = roots[j].

    The candidates of a column are its distinct positive margins, at most
    `CANDIDATES` of them evenly spaced in order (the smallest kept: D = 0
    there when u separates). D(ρ)² comes from cumulative sums over the
    margins in order (stable: equal ones by index), clamped at 0 where
    rounding would make it negative. Each candidate's bound is compared by
    its natural logarithm, 2·(ln(√B + D) − ln ρ), which stays finite for
    every positive float ρ (callers give margins of about √B's size or less:
    `relative_floats`). Per column: the index (in `margins`) of the first
    margin equal to the ρ taken, and the bound's logarithm, the least over
    the candidates (the first of equal ones; a NaN counts as infinite); None
    when no margin is positive.

    Only the samples with a mistake enter the sums (`_weighted`): the others'
    terms are 0 and leave every sum as it is, so no sort of the whole column
    is needed, and the candidates alone are measured.

    Examples
    --------
    >>> M = np.array([[4.0, -1.0], [1.0, 0.0], [-2.0, -3.0]])
    >>> choose_columns(M, np.ones(3), [5.0, 5.0])[0][0], choose_columns(M, np.ones(3), [5.0, 5.0])[1]
    (0, None)
    """
    margins = np.asarray(margins, dtype=np.float64)
    weights = np.asarray(counts, dtype=np.float64)
    if margins.size <= WHOLE_CELLS:
        return _all_columns(margins, weights, roots)
    hit = weights != 0
    return [_one_column(margins[:, j], weights, hit, float(root)) for j, root in enumerate(roots)]


#: Up to this many margins `choose_columns` takes every column at once (`_all_columns`: a dozen arrays of the
#: margins' size, in a few NumPy calls); past it a column at a time (`_one_column`: a few arrays of a column's
#: size, about ten NumPy calls a column, which on 35 columns of 100 margins cost more than the whole work).
WHOLE_CELLS = 2**14


def _all_columns(margins: Any, weights: Any, roots: Sequence[float]) -> list[tuple[int, float] | None]:
    """`choose_columns` on every column at once: each column's margins sorted whole (stable), the bound at
    every position whose margin is a candidate, the least taken. The same floats as `_one_column`: each sum
    reads the same terms in the same order, and the samples of weight 0 add zeros (`_weighted`).

    Examples
    --------
    >>> chosen = _all_columns(np.array([[4.0, -1.0], [1.0, 0.0], [-2.0, -3.0]]), np.ones(3), [5.0, 5.0])
    >>> chosen[0][0], chosen[1]
    (0, None)
    """
    n, c = margins.shape
    if n == 0:
        return [None] * c
    order = _stable_order(margins)
    m = np.take_along_axis(margins, order, axis=0)
    w = weights[order]
    candidate = m > 0  # (NaN is not)
    candidate[1:] &= m[1:] != m[:-1]  # the first of equal margins only
    rank = np.cumsum(candidate, axis=0) - 1
    total = rank[-1] + 1
    crowded = np.flatnonzero(total > CANDIDATES)
    if len(crowded):  # evenly spaced in order, the smallest kept
        kept = np.zeros((n, len(crowded)), dtype=bool)
        kept[np.arange(CANDIDATES)[:, None] * (total[crowded] - 1) // (CANDIDATES - 1), np.arange(len(crowded))] = True
        candidate[:, crowded] &= np.take_along_axis(kept, np.maximum(rank[:, crowded], 0), axis=0)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):  # (non-candidates are set aside below)
        sums = np.zeros((3, n, c))  # below each: 0, then the running sums of the terms w·m^p before it
        for p, terms in enumerate(_terms(w[:-1], m[:-1])):
            np.cumsum(terms, axis=0, out=sums[p, 1:])
        D_sq = np.maximum(sums[0] * m**2 - 2 * sums[1] * m + sums[2], 0.0)
        values = 2 * (np.log(np.asarray(roots, dtype=np.float64) + np.sqrt(D_sq)) - np.log(m))
    values = np.where(candidate & ~np.isnan(values), values, np.inf)
    best = np.argmin(values, axis=0)
    chosen: list[tuple[int, float] | None] = []
    for j in range(c):
        if total[j] == 0:
            chosen.append(None)
            continue
        b = int(best[j]) if candidate[best[j], j] else int(np.argmax(candidate[:, j]))  # all infinite: the first
        chosen.append((int(order[b, j]), float(values[b, j])))
    return chosen


def _one_column(margins: Any, weights: Any, hit: Any, root: float) -> tuple[int, float] | None:
    """`choose_columns` on one column (n floats), its samples' `weights` (`hit`: those not 0), √B = `root`."""
    m, w, keep = _weighted(margins, weights, hit)
    distinct = _distinct_positive(m, margins[~keep])
    total = len(distinct)
    if total == 0:
        return None
    if total > CANDIDATES:  # evenly spaced in order, the smallest kept
        distinct = distinct[np.arange(CANDIDATES) * (total - 1) // (CANDIDATES - 1)]
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):  # (a NaN counts as infinite below)
        below = np.searchsorted(m, distinct, side="left")  # D(ρ) sums the samples whose margin is below ρ
        sums = _sums_below(m, w, below)
        rho = distinct
        D_sq = np.maximum(sums[0] * rho**2 - 2 * sums[1] * rho + sums[2], 0.0)
        values = 2 * (np.log(root + np.sqrt(D_sq)) - np.log(rho))
    values = np.where(np.isnan(values), np.inf, values)
    best = int(np.argmin(values))  # (all infinite: the first, the smallest positive margin)
    return int(np.argmax(margins == rho[best])), float(values[best])


#: Terms `_sums_below` makes and sums at a time.
_BLOCK = 2**16


def _sums_below(m: Any, w: Any, below: Any) -> Any:
    """(3, len(below)): for p = 0, 1, 2, the running sum of w_i·m_i^p over i < j (np.cumsum's, one term after
    another; 0 before the first) at each j of `below` (sorted). The terms and their sums a block of `_BLOCK` at a
    time, each block's cumulative sum begun from the last one's end: the same floats as one cumulative sum over all,
    without its three arrays of n sums and their terms (0.5x the int64 data at 10^6 x 10 for a moment).

    Examples
    --------
    >>> _sums_below(np.array([1.0, 2.0, 3.0]), np.array([1.0, 1.0, 2.0]), np.array([0, 2, 3])).tolist()
    [[0.0, 2.0, 4.0], [0.0, 3.0, 9.0], [0.0, 5.0, 23.0]]
    """
    sums = np.zeros((3, len(below)))
    ends: list[Any] = [None] * 3
    for lo in range(0, len(m), _BLOCK):
        hi = min(lo + _BLOCK, len(m))
        inside = np.flatnonzero((below > lo) & (below <= hi))  # sums that end in this block (at below - 1)
        for p, terms in enumerate(_terms(w[lo:hi], m[lo:hi])):
            run = np.cumsum(terms if ends[p] is None else np.concatenate(([ends[p]], terms)))[ends[p] is not None:]
            sums[p, inside] = run[below[inside] - 1 - lo]
            ends[p] = run[-1]
    return sums


def _terms(w: Any, m: Any) -> tuple[Any, Any, Any]:
    """w·m^p for p = 0, 1, 2, bit for bit: w·m^0 is w (m^0 is 1, even for a NaN or an infinity), m^1 is m and m^2
    is m·m (NumPy's power by 2 is its square), so two of NumPy's powers and a product are not made.

    Examples
    --------
    >>> m, w = np.array([3.0, np.nan, -np.inf, 0.1]), np.array([2.0, 1.0, 0.5, 3.0])
    >>> all(np.array_equal(t, w * m**p, equal_nan=True) for p, t in enumerate(_terms(w, m)))
    True
    """
    return w, w * m, w * (m * m)


def _distinct_positive(ordered: Any, others: Any) -> Any:
    """``np.unique`` of the positive values among `ordered` (sorted) and `others`: only `others` are sorted,
    then the two merged (a stable sort of two sorted runs merges them).

    Examples
    --------
    >>> _distinct_positive(np.array([-1.0, 2.0, 2.0, 5.0, np.nan]), np.array([3.0, 0.0, 2.0, np.inf])).tolist()
    [2.0, 3.0, 5.0, inf]
    """
    ordered = ordered[ordered > 0]  # (NaN is not > 0)
    others = np.sort(others[others > 0])
    merged = np.sort(np.concatenate((ordered, others)), kind="stable") if len(others) and len(ordered) else (
        others if len(others) else ordered)
    if len(merged) < 2:
        return merged
    return merged[np.concatenate(([True], merged[1:] != merged[:-1]))]


def _weighted(margins: Any, weights: Any, hit: Any) -> tuple[Any, Any, Any]:
    """The margins and weights of the terms of D(ρ)'s sums that can be other than 0, in the stable order of the
    margins, and which samples they are (a mask).

    A sample of weight 0 adds 0·m^p, a zero (of either sign), to each sum,
    which leaves it as it is, except where m^p is not finite (0·∞ is NaN):
    such samples are kept, so that every partial sum read is the one a sum
    over all the samples in order gives (its zeros' signs aside, which no
    bound reads: each is added to a positive √B or a nonzero term, or the
    whole D² is a zero).

    Examples
    --------
    >>> m, w, keep = _weighted(np.array([3.0, -1.0, 2.0, 1e200]), np.array([1.0, 0.0, 2.0, 0.0]),
    ...                        np.array([True, False, True, False]))
    >>> m.tolist(), w.tolist(), keep.tolist()  # (1e200² is infinite: kept)
    ([2.0, 3.0, 1e+200], [2.0, 1.0, 0.0], [True, False, True, True])
    """
    with np.errstate(over="ignore", invalid="ignore"):
        largest = np.max(np.abs(margins), initial=0.0)  # (NaN if there is one)
        keep = hit if largest < 2.0**500 else hit | ~np.isfinite(margins * margins)  # (m² finite below 2^512)
    at = np.flatnonzero(keep)
    order = _stable_order((m := margins[at])[:, None])[:, 0]
    at = at[order]
    return m[order], weights[at], keep


def _stable_order(values: Any) -> Any:
    """``np.argsort(values, axis=0, kind="stable")`` for an (n, c) float array; on large arrays in about half its time.

    An unstable sort orders the values; each then gets the rank of its group
    of equal values (NaNs one group, as the stable sort keeps them), and one
    sort of the integer keys rank·n + index puts equal values in index order.
    Up to 1,024 rows and 8,192 values NumPy's stable sort is the faster one
    here, and is used.

    Examples
    --------
    >>> _stable_order(np.array([[2.0], [1.0], [2.0], [np.nan], [1.0], [np.nan]]))[:, 0].tolist()
    [1, 4, 0, 2, 3, 5]
    """
    n = len(values)
    if n >= 2**31 or (n <= 1024 and values.size <= 8192):  # (rank·n + index could pass int64; small: faster)
        return np.argsort(values, axis=0, kind="stable")
    first = np.argsort(values, axis=0)
    ordered = np.take_along_axis(values, first, axis=0)
    same = (ordered[1:] == ordered[:-1]) | (np.isnan(ordered[1:]) & np.isnan(ordered[:-1]))
    del ordered  # (the keys made in place below: two arrays of n at once, where there were five at 10^6 x 10)
    if not same.any():  # no two equal: the order is the stable one already
        return first
    keys = np.zeros(values.shape, dtype=np.int64)
    np.cumsum(~same, axis=0, out=keys[1:])  # each value's rank among the distinct ones
    del same
    keys *= n
    keys += first
    del first
    keys.sort(axis=0)
    keys %= n
    return keys
