"""The soft-margin bound, checked at every online update: a mistake count that no separation is needed for.

`SoftMarginCheck` is told of the same updates as the `Checker` and confirms
`verify_perceptron.notes.claims.SOFT_MARGIN`, N·ρ² <= (R·‖u‖ + D)², after each
one, for a reference u and target margin ρ fixed before the first update
(`verify_perceptron.notes.soft_margin`). It reads only which sample each
update was on: N grows by one and D² by that sample's d².

Most updates are settled by a floating-point filter, the rest exactly. The
filter tests √N <= √(B/ρ²) + √(D²/ρ²), B = R²‖u‖², in float64: B/ρ² and each
sample's d²/ρ² are quotients of integers, each rounded once (relative error
at most u = 2^-53); D²/ρ² after an update is the quotient before a chunk
plus a running float sum of at most 2^16 of those per-sample terms, all
>= 0, so its relative error is below (2^16 + 2)·u < 2^-36; the roots and the
sum add a few u more. The computed right side is therefore within a factor
1 ± 2^-35 of the true one, and √N (N < 2^53) within 1 ± u. An update is taken
as holding only when √N·(1 + 2^-20) <= the computed side, far outside those
errors. Underflow cannot matter: the filter is used only when √(B/ρ²) >= 2^-100
(it is >= 1 when ρ is a margin of u on a sample, as `choose_margin` takes
it, since then ρ <= ‖u‖·R), so the right side is far above the subnormal
range. Every other update, a violation included, is decided in integers by
`SoftMargin.holds`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
import copy
import math
import operator
from fractions import Fraction
from typing import Any

import numpy as np

from ..data.integers import ExactMatrix, as_limbs
from ..data.limb_arrays import limbs_for_bits
from ..data.limb_margins import LimbMargins
from ..data.observers import Epochs, Int64Array
from ..notes.claims import SOFT_MARGIN
from ..notes.soft_margin import SoftMargin, choose_margin
from .results import InvariantResult, Violation
from .separator import scaled_separator
from .soft_chunk import chunk_floats, filtered_chunk, joined, piece_rows, taken, usable
from .soft_squares import Squares, exact_squares
from .soft_sums import SEGMENT_COST, counted_sums, piece_sums, prefix_sums

__all__ = ["SoftMarginCheck", "SoftMarginSummary", "soft_margin_check", "counted_sums", "prefix_sums"]

#: The filter's safety factor: far above its rounding errors (a few times 2^-53), far below any real slack.
_FILTER = 1.0 + 2.0**-20
#: Updates the filter sums at once: a float sum of this many terms is off by at most about 2^16·2^-53.
_CHUNK = 2**16
#: Shortfalls past int64 are summed over a chunk in pieces of this many bits, at most `_MOST_PIECES` of them
#: (`SoftMarginCheck._pieces`); a sum of `_CHUNK` pieces stays below 2^63.
_PIECE_BITS, _MOST_PIECES = 46, 8


def _quotient(a: int, b: int) -> float:
    """a/b for integers, correctly rounded (Python's int / int), or inf past float64's range."""
    try:
        return a / b
    except OverflowError:
        return math.inf


@dataclass(frozen=True)
class SoftMarginSummary:
    """The soft-margin bound's constants and its value where it was tightest and at the end, for the report.

    The two bounds are irrational. Each is read as exact rationals ``(lo, hi)``
    enclosing it (`SoftMargin.interval`, mpmath's interval arithmetic),
    computed when first read: the verdict never needs them, a report does.
    """

    source: str
    reference: Sequence[Fraction]
    rho: Fraction
    R_sq: Fraction
    u_sq: Fraction
    pass_D_sq: Fraction
    short_samples: int
    n_mistakes: int
    D_sq: Fraction
    tightest_at: int | None
    tightest_mistakes: int
    scaled: SoftMargin = field(compare=False, repr=False)  # the bound in scaled integers (its interval only: the
    # deficits left out, n Python integers past int64 that the report would hold to its end, 0.55x the data)
    scaled_D_sq: int = field(compare=False, repr=False)  # D² at the end, scaled
    scaled_tightest_D_sq: int | None = field(compare=False, repr=False)  # D² where tightest, scaled

    @cached_property
    def bound(self) -> tuple[Fraction, Fraction]:
        """The bound at the end of the run: rationals enclosing ((R·‖u‖ + D)/ρ)²."""
        return self.scaled.interval(self.scaled_D_sq)

    @cached_property
    def tightest_bound(self) -> tuple[Fraction, Fraction] | None:
        """The bound where the mistakes came nearest to it, enclosed likewise; None before any mistake."""
        return None if self.scaled_tightest_D_sq is None else self.scaled.interval(self.scaled_tightest_D_sq)


class SoftMarginCheck:
    """Confirms N·ρ² <= (R·‖u‖ + D)² after every online update, exactly.

    Parameters
    ----------
    bound : SoftMargin
        u, ρ and the samples' shortfalls, in the checker's scaled integers.
    reference : sequence of Fraction
        u in the convention's coordinates (for the report).
    source : str
        Where u came from.
    L, M : int
        The data's common denominator and u's scale (U = M·u is integral).
    consume : bool
        The check is the only holder of `bound`: its squares past int64 are overwritten (with 0) as their
        pieces are made, and let go then in any case.
    squares : Squares, optional
        The squares already in pieces, with their quotients by ρ² (`verify_perceptron.check.soft_squares`),
        for a `bound` without deficits.

    Examples
    --------
    >>> bound = SoftMargin.from_margins([3, -1], rho=2, R_sq=4, u_sq=1, scale=1)  # N <= ((2 + 3·√N_1)/2)²
    >>> check = SoftMarginCheck(bound, reference=(Fraction(1),), source="user", L=1, M=1)
    >>> for k in range(1, 6):
    ...     check.observe(k, 1, [0])  # five mistakes on sample 0, whose d is 0: the bound is 1
    >>> result, summary = check.finish()
    >>> result.holds, result.first_violation.k, summary.n_mistakes
    (False, 2, 5)
    """

    def __init__(self, bound: SoftMargin, *, reference: Sequence[Fraction], source: str, L: int, M: int,
                 consume: bool = False, squares: Squares | None = None) -> None:
        self.bound, self.L, self.M, self._consume = bound, L, M, consume
        self.reference, self.source = reference, source
        self.n_samples = len(bound.deficits_sq) if squares is None else squares.pieces.shape[1]
        self.N = 0
        self.D_sq = 0
        self.result = InvariantResult(SOFT_MARGIN.name, SOFT_MARGIN.text, SOFT_MARGIN.source)
        self.tightest: tuple[float, int, int, int] | None = None  # (√N / √bound, k, N, D²) where N is nearest
        self._start = (0, 0)  # (N, D²) before the first update it is told of (`resumed`)
        # The one-pass figures of `finish` (true units, shortfalls > 0), taken when the squares are let go
        self._whole: tuple[dict[str, Fraction], int] | None = None
        self._rho_sq = bound.rho * bound.rho
        self._root_B = math.sqrt(_quotient(bound.R_sq * bound.u_sq, self._rho_sq))
        self._filter = self._root_B >= 2.0**-100  # else every update is decided in integers
        if squares is not None:  # (made from int64 margins: what `_pieces` would make, and the quotients)
            self.__dict__["_pieces"] = squares.pieces
            self._whole = ({**bound.true(L, M), "pass_D_sq": Fraction(squares.total, (L * M) ** 2)}, squares.short)
            self._sq_over_rho = squares.over_rho_sq
            return
        # d_i²/ρ² per sample, each rounded once (int / int), for the filter's running sums
        held = bound.deficits_sq
        if held.dtype == np.int64 and int(held.max(initial=0)) <= 2**53 and self._rho_sq <= 2**53:
            # both exact in float64, so one IEEE division rounds d²/ρ² once, as int / int does
            self._sq_over_rho = held.astype(np.float64) / float(self._rho_sq)
        else:  # int / int per entry (correctly rounded), one NumPy loop a piece; one past float64's range is inf
            self._sq_over_rho = np.empty(len(held), dtype=np.float64)
            for start in range(0, len(held), _CHUNK):  # (a float object per sample for a piece only)
                piece = held[start:start + _CHUNK]
                try:
                    self._sq_over_rho[start:start + _CHUNK] = (piece.astype(object) / self._rho_sq).astype(np.float64)
                except OverflowError:
                    self._sq_over_rho[start:start + _CHUNK] = [_quotient(int(v), self._rho_sq) for v in piece]

    @cached_property
    def _pieces(self) -> Any:
        """Shortfalls d_i² past int64 in `_PIECE_BITS`-bit pieces, (K, n) int64 (lowest first; None for int64 ones or
        K > `_MOST_PIECES`): a chunk's sums, of int64 pieces, each stay below 2^(_PIECE_BITS + 16) < 2^63."""
        squares = self.bound.deficits_sq
        if squares.dtype != object or not len(squares):
            return None
        most = int(squares.max())
        count = max(1, -(-most.bit_length() // _PIECE_BITS))
        if count > _MOST_PIECES or int(squares.min()) < 0:
            return None
        # The squares are now held twice, as n Python integers and in these pieces (0.73x and 0.64x the int64
        # data at 10^6 x 10): the Python integers are let go, once what `finish` reads of them all is taken (a
        # piece at a time where the check is the bound's only holder, `consume`: never all held beside the pieces)
        self._whole = (self.bound.true(self.L, self.M), int(np.count_nonzero(squares)))
        pieces = piece_rows(count, len(squares))  # (n rows of count in memory: `soft_chunk` reads them)
        limbs = limbs_for_bits(most.bit_length())
        mask = np.uint64((1 << _PIECE_BITS) - 1)
        for start in range(0, len(squares), _CHUNK):  # (the limbs a piece of samples at a time)
            # each value's 64-bit limbs from its bytes (`as_limbs`), then the pieces' bits cut from the limbs in
            # NumPy: the same bits as (d² >> (k·_PIECE_BITS)) & mask (d² >= 0), without 2·K Python integer
            # operations a sample (0.25 s for 10^6 126-bit shortfalls)
            part = as_limbs(squares[start:start + _CHUNK], limbs).view(np.uint64)
            for k in range(count):
                at, shift = divmod(k * _PIECE_BITS, 64)
                piece = part[:, at] >> np.uint64(shift)
                if shift + _PIECE_BITS > 64 and at + 1 < limbs:  # the piece runs on into the next limb
                    piece |= part[:, at + 1] << np.uint64(64 - shift)
                pieces[k, start:start + _CHUNK] = (piece & mask).view(np.int64)
            if self._consume:
                squares[start:start + _CHUNK] = 0
        self.bound = self.bound.without_deficits()
        return pieces

    def _square(self, j: int) -> int:
        """d_j² (scaled), from the squares or, once they are let go, from their pieces."""
        if self._whole is None:
            return int(self.bound.deficits_sq[j])
        column = taken(self._pieces, [j])[:, 0].tolist()
        return sum(int(value) << (k * _PIECE_BITS) for k, value in enumerate(column))

    def _side(self, D_sq: int) -> float:
        """(√B + √D²)/ρ in floating point, for the filter."""
        return self._root_B + math.sqrt(_quotient(D_sq, self._rho_sq))

    def observe(self, k: int, epoch: int, samples: Sequence[int]) -> None:
        """Update k was a mistake on `samples` (one, online)."""
        for j in samples:
            if not 0 <= j < self.n_samples:
                return  # the checker reports a sample that does not exist
            self.N += 1
            self.D_sq += self._square(j)
            side = self._side(self.D_sq)
            self._remember(math.sqrt(self.N) / side if side > 0 else math.inf, k, self.N, self.D_sq)
            if not self._filter or math.sqrt(self.N) * _FILTER > side:
                self._decide(k, epoch, j, self.N, self.D_sq)
            else:
                self.result.n_checked += 1

    def observe_chunk(self, first: int, epochs: Epochs, rows: Int64Array) -> None:
        """Updates first, first + 1, ... on `rows`, in `epochs` (an int, or an array with one per update)."""
        rows = np.asarray(rows, dtype=np.int64)
        epochs = np.broadcast_to(np.asarray(epochs, dtype=np.int64), (len(rows),))
        if len(rows) and (rows.min() < 0 or rows.max() >= self.n_samples):
            for t in range(len(rows)):  # (the checker reports the sample that does not exist)
                self.observe(first + t, int(epochs[t]), [int(rows[t])])
            return
        for start in range(0, len(rows), _CHUNK):
            self._filtered(first + start, epochs[start:start + _CHUNK], rows[start:start + _CHUNK])

    def _filtered(self, first: int, epochs: Any, rows: Any) -> None:
        """Up to `_CHUNK` updates: the filter for all, integers where it is not sure."""
        m = len(rows)
        if m == 0:
            return
        base, N0 = _quotient(self.D_sq, self._rho_sq), self.N + 1  # update t of the chunk is mistake N0 + t
        pieces = None if self._whole is None and self.N + m < self.n_samples else self._pieces
        sums = None
        if pieces is not None and usable(pieces, self._sq_over_rho):  # one compiled pass: the same floats and sums
            wanted, t, nearest, sums = filtered_chunk(self._sq_over_rho, pieces, rows, base=base, root_B=self._root_B,
                                                      N0=N0, factor=_FILTER, use_filter=self._filter)
        else:
            wanted, t, nearest = chunk_floats(self._sq_over_rho, rows, base=base, root_B=self._root_B, N0=N0,
                                              factor=_FILTER, use_filter=self._filter)
        self.result.n_checked += m - len(wanted)
        nearer = self.tightest is None or nearest > self.tightest[0]
        exact = (self._exact(rows, [m - 1, *wanted, *([t] if nearer else [])]) if sums is None
                 else {**dict(zip(wanted, totals := joined(self.D_sq, sums))), m - 1: totals[-2], t: totals[-1]})
        if nearer:
            self._remember(nearest, first + t, N0 + t, exact[t])
        for t in wanted:
            self._decide(first + t, int(epochs[t]), int(rows[t]), N0 + t, exact[t])
        self.N, self.D_sq = N0 + m - 1, exact[m - 1]

    def _exact(self, rows: Any, at: Sequence[int]) -> dict[int, int]:
        """{t: D² after the updates on rows[:t + 1] (which follow those seen) for t in `at`}, exactly: sums of
        the updates' d² made once a chunk (`prefix_sums`), not a pass over every sample for each."""
        # Until the run has made as many updates as there are samples, its d² are summed as they are: the pieces
        # are made for every sample (a converged run of 5 to 20 updates paid 50 to 100 µs for them)
        pieces = None if self._whole is None and self.N + len(rows) < self.n_samples else self._pieces
        squares = self.bound.deficits_sq
        if pieces is not None and len(rows) > _CHUNK:  # (not from `_filtered`): these updates' squares, whole
            pieces = taken(pieces, rows)
            squares = sum((pieces[k].astype(object) << (k * _PIECE_BITS) for k in range(len(pieces))),
                          np.zeros(len(rows), dtype=object))
            return {t: self.D_sq + total for t, total in prefix_sums(squares, at).items()}
        if (pieces is None and squares.dtype == object
                and len(set(at)) * (len(squares) + SEGMENT_COST) < len(rows)):
            return {t: self.D_sq + total for t, total in counted_sums(squares, rows, at).items()}
        if pieces is None or len(rows) > _CHUNK:
            return {t: self.D_sq + total for t, total in prefix_sums(squares[rows], at).items()}
        if not isinstance(pieces, np.ndarray):  # (made from the margins: those of these rows, in their order)
            pieces, rows = taken(pieces, rows), np.arange(len(rows))
        return {t: self.D_sq + total for t, total in piece_sums(pieces, rows, at).items()}

    def shortfall_sum(self, counts: Any) -> int:
        """Σ_i counts_i·d_i² (scaled), exactly, for `counts` (one per sample, >= 0, of any integer type: the replay's
        are uint16): the D² after mistakes with those counts. From the pieces where the squares are cut into them:
        each product below 2^(_PIECE_BITS + c), c the bits of the largest count, summed in segments of
        2^(62 - _PIECE_BITS - c) <= `_CHUNK` samples, each sum below 2^62, the products a block of `_CHUNK` samples
        at a time (n int64 of them were held beside the replay, 0.09x the int64 data at d = 10). Else from the
        bound's squares."""
        counts = np.asarray(counts) if np.asarray(counts).dtype.kind in "iu" else np.asarray(counts, dtype=np.int64)
        pieces = self._pieces if self._whole is not None or self.bound.deficits_sq.dtype == object else None
        if pieces is None:
            return self.bound.shortfalls(counts.astype(np.int64, copy=False))
        room = 62 - _PIECE_BITS - int(counts.max(initial=0)).bit_length()
        if room < 0:  # (counts past 2^16: products as Python integers)
            hit = np.flatnonzero(counts)
            return sum(int(np.dot(counts[hit].astype(object), piece.astype(object))) << (k * _PIECE_BITS)
                       for k, piece in enumerate(taken(pieces, hit)))
        products, total = np.empty(min(self.n_samples, _CHUNK), dtype=np.int64), 0
        for lo in range(0, self.n_samples, _CHUNK):
            part = counts[lo:lo + _CHUNK]
            out, starts = products[:len(part)], np.arange(0, len(part), 2**room)
            total += sum(sum(np.add.reduceat(np.multiply(piece, part, out=out), starts).tolist()) << (k * _PIECE_BITS)
                         for k, piece in enumerate(taken(pieces, slice(lo, lo + len(part)))))
        return total

    def resumed(self) -> SoftMarginCheck:
        """A copy of this check with a result of its own, to be placed after the updates it will not be told of
        (`start_at`), told of the later ones (in another thread) and then `join`-ed. It shares the bound and the
        per-sample arrays, which neither changes once the squares are cut (`_pieces`, made here, before the copy)."""
        self._pieces  # noqa: B018
        later = copy.copy(self)
        later.tightest = None
        later.result = InvariantResult(SOFT_MARGIN.name, SOFT_MARGIN.text, SOFT_MARGIN.source)
        return later

    def start_at(self, N: int, D_sq: int) -> None:
        """Go on after N mistakes whose shortfalls sum to D² = `D_sq` (scaled), before being told of any update."""
        self.N, self.D_sq, self._start = N, D_sq, (N, D_sq)

    def join(self, later: SoftMarginCheck) -> None:
        """Go on as `later` (this check's `resumed` copy) ended, once this check has been told of the updates before
        it: what holds over both, the first violation, and the nearest point (the first of equal ones), as one
        check told of every update in order would have them."""
        if (self.N, self.D_sq) != later._start:
            raise AssertionError(f"the soft-margin replay's halves do not meet: the first ended at N={self.N}, "
                                 f"D²={self.D_sq}; the second began at N={later._start[0]}, D²={later._start[1]}")
        self.result.n_checked += later.result.n_checked
        if later.result.first_violation is not None:
            self.result.fail(later.result.first_violation)
        if later.tightest is not None and (self.tightest is None or later.tightest[0] > self.tightest[0]):
            self.tightest = later.tightest
        self.N, self.D_sq = later.N, later.D_sq

    def _decide(self, k: int, epoch: int, j: int, N: int, D_sq: int) -> None:
        """The exact verdict at update k (N mistakes, shortfalls D² so far)."""
        self.result.n_checked += 1
        if not self.bound.holds(N, D_sq):
            true = self.bound.true(self.L, self.M)
            self.result.fail(Violation(k, epoch, (j,), (
                ("N", Fraction(N)), ("R_sq", true["R_sq"]), ("rho", true["rho"]),
                ("sum_N_dsq", Fraction(D_sq, (self.L * self.M) ** 2)), ("ws_sq", true["u_sq"]))))

    def _remember(self, ratio: float, k: int, N: int, D_sq: int) -> None:
        if self.tightest is None or ratio > self.tightest[0]:
            self.tightest = (ratio, k, N, D_sq)

    def finish(self) -> tuple[InvariantResult, SoftMarginSummary]:
        """The verdict, and the summary for the report."""
        true, short = (self.bound.true(self.L, self.M), int(np.count_nonzero(self.bound.deficits_sq))
                       ) if self._whole is None else self._whole
        scale = (self.L * self.M) ** 2
        tightest = self.tightest
        summary = SoftMarginSummary(
            source=self.source, reference=self.reference, rho=true["rho"], R_sq=true["R_sq"], u_sq=true["u_sq"],
            pass_D_sq=true["pass_D_sq"], short_samples=short,
            n_mistakes=self.N, D_sq=Fraction(self.D_sq, scale),
            tightest_at=None if tightest is None else tightest[1],
            tightest_mistakes=0 if tightest is None else tightest[2],
            scaled=self.bound.without_deficits(), scaled_D_sq=self.D_sq,
            scaled_tightest_D_sq=None if tightest is None else tightest[3],
        )
        return self.result, summary


def soft_margin_check(matrix: ExactMatrix, reference: Sequence[Fraction], *, L: int, source: str,
                      counts: Any = None, scaled: tuple[list[int], int, Any] | None = None) -> SoftMarginCheck | str:
    """The check for reference u (convention coordinates), or why it cannot be made.

    ρ is chosen by `verify_perceptron.notes.soft_margin.choose_margin` for the
    per-sample mistake counts `counts` when a finished run gives them, else
    for one mistake on every sample. `scaled`, when the caller has them, is
    ``(U, M, margins)``: `scaled_separator`'s U = M·u and ``matrix @ U``.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> from verify_perceptron.data.samples import sample_matrix
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> data = example("xor")
    >>> Z = sample_matrix(data, get_convention("classic"))
    >>> check = soft_margin_check(Z, [Fraction(-1), Fraction(1), Fraction(1)], L=1,
    ...                           source="user")
    >>> check.bound.true(1, 1)["rho"], check.bound.true(1, 1)["pass_D_sq"]
    (Fraction(1, 1), Fraction(6, 1))
    >>> soft_margin_check(Z, [Fraction(0)] * 3, L=1, source="user")
    'u = 0 has no direction'
    """
    W, M = scaled_separator(reference) if scaled is None else scaled[:2]
    u_sq = sum(map(operator.mul, W, W))
    if u_sq == 0:
        return "u = 0 has no direction"
    held = matrix.held  # (in limbs: no ints; w*'s own margins, `scaled`, from its product's limbs where kept)
    margins = (None if held is None else LimbMargins.of(held, W)) if scaled is None else LimbMargins.last_of(held, W)
    margins = margins if margins is not None else matrix.products(W, norm_sq=u_sq) if scaled is None else scaled[2]
    weights = np.ones(len(margins), dtype=np.int64) if counts is None else np.asarray(counts, dtype=np.int64)
    chosen = choose_margin(margins, weights, R_sq=matrix.max_norm_sq, u_sq=u_sq)
    if chosen is None:
        return "u has no positive margin y·u·x~ on any sample"
    rho = chosen[0]
    del weights  # (n int64 counts: read no more)
    if scaled is None:  # u's margins, made (or found) here, are read no more: the matrix need not keep them for a
        matrix.forget_product()  # second use (past int64 n Python integers, 0.48x the int64 data at d = 10), and
        # they are let go as they are squared (`consume`); the checker's own (`scaled`) live on
    squares, margins = exact_squares(margins, rho)  # (from the margins' int64 words or limbs, where they pay)
    if squares is not None:
        # the squares past int64 in pieces and their quotients by ρ² from two words a sample, not n Python integers
        del margins  # (the bound itself then holds no deficits)
        bound = SoftMargin(rho, matrix.max_norm_sq, u_sq, np.zeros(0, dtype=object), L * M)
        return SoftMarginCheck(bound, reference=reference, source=source, L=L, M=M, squares=squares)
    bound = SoftMargin.from_margins(margins, rho=rho, R_sq=matrix.max_norm_sq, u_sq=u_sq, scale=L * M,
                                    consume=scaled is None)
    del margins
    return SoftMarginCheck(bound, reference=reference, source=source, L=L, M=M, consume=True)
