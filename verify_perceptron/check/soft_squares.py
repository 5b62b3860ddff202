"""The soft-margin check's per-sample figures from int64 margins, without a Python integer per sample: `int64_squares`.

`verify_perceptron.check.soft_margin.SoftMarginCheck` reads, per sample, the
shortfall's square d² = max(0, ρ − m)² (scaled) cut into 46-bit pieces, and
the quotient d²/ρ² correctly rounded to a double (its filter's). When the
margins m are int64 and ρ < 2^63, every d is below 2^64 and every d² below
2^128, so both come from two 64-bit words per sample:

* d = ρ − m in uint64 (exact: 0 < ρ − m < 2^63 + 2^63), 0 where m >= ρ;
* d² = h²·2^64 + 2·h·l·2^32 + l² for d = h·2^32 + l (h, l < 2^32), each
  product below 2^64, summed into (high, low) words with one carry;
* the pieces cut from the two words as `SoftMarginCheck._pieces` cuts a
  square's limbs;
* d²/ρ²: t = d/ρ, then t·t, in the x87's 80-bit extended format (a 64-bit
  significand: d and ρ are exact in it), each step correctly rounded, so
  the result q is within 3·2^-64 of the quotient Q = d²/ρ², relatively
  (|e₁| <= 2^-64 twice, and their product). Q and q round to the same
  double unless a rounding boundary of doubles (a midpoint, whose 64-bit
  significand ends in the 11 bits 10000000000) lies within that distance
  of q: within 3 units of q's last place (4 at a binade's top, where Q may
  pass into the next). Where q's last 11 bits are within `_NEAR` units of
  the midpoint's, the quotient is taken in Python integers instead, as the
  Python-integer path takes every one (int / int, correctly rounded);
  about 0.8% of the samples. Every other q rounds to Q's double.

`limb_squares` gives the same from margins held in 64-bit limbs (samples in
limbs: randn margins have about 141 bits), in C (`deficit_squares` in
check/_deficits.h, where the bound is proven): d = ρ − m in limbs, d² in six
words cut into the same pieces, and d²/ρ² as (d~/ρ~)² in extended precision,
d~ and ρ~ the leading 64 bits of d and ρ (cut: each within 2^-63 relatively,
exact below 2^64), so q is within 7.02·2^-64 of Q relatively: within 7.02
units of the last place of Q's binade's 64-bit significands. Where q's last
11 bits are within 16 units of the midpoint's, the quotient is taken in
Python integers (about 1% of them); every other q rounds to Q's double.
`exact_squares` takes that path for int64 margins too (one limb each, the
array as it is): `int64_squares`' chunks of long doubles (five arrays of 16
bytes a sample at once) left their freed heap resident after the check.
It also takes it for margins given as Python integers (the checker's w*'s
past int64), cut into their fewest limbs, where the squares were n more
Python integers.

Where the format has no 64-bit significand (NumPy's longdouble is a double
on some platforms), or the x87 rounds to doubles, `int64_squares` returns
None and the caller squares in Python integers, as before. (The filter's
soundness needs only a few units of 2^-53 on each quotient; correct rounding
is asked for so that every float it computes, and the report's nearest
point, is the Python-integer path's.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..data.integers import as_limbs
from ..data.limb_arrays import int_limbs, limb_values
from ..data.limb_margins import LimbMargins
from . import kernel as _kernel
from .soft_chunk import MarginPieces, piece_rows, taken

__all__ = ["Squares", "exact_squares", "int64_squares", "limb_squares", "PIECE_BITS"]

#: The pieces' width (`SoftMarginCheck._pieces`'s): a chunk of 2^16 of them sums below 2^62.
PIECE_BITS = 46
#: Samples at a time: the words and the quotients' temporaries of a chunk only.
_CHUNK = 2**16
#: A quotient whose 64-bit significand's last 11 bits are within this many units of 1024 (a midpoint of doubles)
#: is taken in Python integers: q is within 4 units of Q, so this is twice the distance that matters.
_NEAR = 8
#: The most pieces of a square (`SoftMarginCheck`'s): past them the squares stay Python integers, as before.
_MOST_PIECES = 8
#: The most limbs of a margin the C passes read (check/_deficits.h's DEFICIT_MAX_LIMBS): wider ones, which need
#: more than 8 pieces anyway unless ρ is as wide, are squared as Python integers.
_MOST_LIMBS = 32
#: The significand bits the fast quotient needs (x87 extended: 63 after the leading one).
_NEEDED_MANT = 63


@dataclass(frozen=True)
class Squares:
    """Per sample, for the deficits d = max(0, ρ − m) of int64 margins m.

    Attributes
    ----------
    pieces : numpy.ndarray or MarginPieces
        d² in `PIECE_BITS`-bit pieces, (K, n) int64, lowest first; K the fewest for the largest d²; or made from
        the margins in limbs on the rows asked for (`verify_perceptron.check.soft_chunk.taken`).
    over_rho_sq : numpy.ndarray
        d²/ρ², each correctly rounded to a double (as Python's int / int).
    total : int
        Σ d² over the samples, exactly.
    short : int
        How many d are > 0.
    """

    pieces: Any
    over_rho_sq: Any
    total: int
    short: int


def exact_squares(margins: Any, rho: int) -> tuple[Squares | None, Any]:
    """(`Squares`, None) from int64 `margins` or margins in limbs where they are made so (`int64_squares`,
    `limb_squares`), else (None, the margins as `SoftMargin.from_margins` takes them: in limbs, made Python integers).

    Examples
    --------
    >>> exact_squares(np.array([3, -5], dtype=np.int64), 4)[0] is None  # int64 squares: the bound's own path
    True
    >>> exact_squares(LimbMargins(int_limbs([3, -2**80], 2)), 4)[0].short
    2
    """
    if isinstance(margins, LimbMargins):
        squares = limb_squares(margins, rho)
        return squares, margins.ints() if squares is None else None
    if isinstance(margins, np.ndarray) and margins.dtype == object and margins.ndim == 1:
        return _from_ints(margins, rho), margins
    squares = None
    if _past_int64(margins, rho):  # in C from the int64 words as one limb each (no copy), else in NumPy
        squares = limb_squares(LimbMargins(margins.reshape(-1, 1)), rho) or int64_squares(margins, rho)
    return squares, margins if squares is None else None


def _from_ints(margins: Any, rho: int) -> Squares | None:
    """`limb_squares` of margins given as Python integers (an object array: w*'s margins past int64, the checker's),
    cut into their fewest limbs a block at a time, where it takes them (else None: the caller squares the integers).
    The deficits' squares were n more Python integers (0.55x the int64 data at 10^5 x 10 and 65-bit margins), and
    their pieces and quotients made from them; the limbs are 16 bytes a sample at that size, and let go here.

    Examples
    --------
    >>> figures = _from_ints(np.array([3, -2**80, 2**90], dtype=object), 2**62 + 1)
    >>> figures.short, figures.total == (2**62 - 2) ** 2 + (2**80 + 2**62 + 1) ** 2
    (2, True)
    >>> _from_ints(np.array([3, -5], dtype=object), 4) is None  # every d² below 2^62: the bound's int64 squares
    True
    """
    if not len(margins) or rho <= 0:
        return None
    top = max(abs(int(margins.max())), abs(int(margins.min())), rho).bit_length()
    K = top // 64 + 1
    if K > _MOST_LIMBS:
        return None
    return limb_squares(LimbMargins(as_limbs(margins, K)), rho)  # (`as_limbs`: a block's bytes at a time)


def _past_int64(margins: Any, rho: int) -> bool:
    """int64 margins whose squared deficits `SoftMargin.from_margins` would make Python integers (some d >= 2^31,
    or ρ or a margin past ±2^62: its own int64 path is taken otherwise)."""
    if not isinstance(margins, np.ndarray) or margins.dtype != np.int64 or not len(margins):
        return False
    lowest = int(margins.min())
    return not (rho < 2**62 and lowest > -(2**62) and max(rho - lowest, 0) < 2**31)


def int64_squares(margins: Any, rho: int) -> Squares | None:
    """`Squares` for int64 `margins` and 0 < ρ = `rho` < 2^63, or None where they are not (or no 64-bit significand).

    Examples
    --------
    >>> figures = int64_squares(np.array([3, -2**62, 5], dtype=np.int64), 2**62 + 1)
    >>> d = [2**62 - 2, 2**63 + 1, 2**62 - 4]
    >>> [sum(int(p) << (46 * k) for k, p in enumerate(figures.pieces[:, i])) for i in range(3)] == [v * v for v in d]
    True
    >>> figures.over_rho_sq.tolist() == [v * v / (2**62 + 1) ** 2 for v in d], figures.total == sum(v * v for v in d)
    (True, True)
    >>> int64_squares(np.array([1], dtype=np.int64), 2**63) is None  # ρ past int64
    True
    """
    if (not isinstance(margins, np.ndarray) or margins.dtype != np.int64 or margins.ndim != 1
            or not 0 < rho < 2**63 or not _extended()):
        return None
    n = len(margins)
    largest = max(rho - int(margins.min(initial=rho)), 0)  # the largest d (d > 0 where m < ρ)
    count = max(1, -(-(largest * largest).bit_length() // PIECE_BITS))
    pieces = piece_rows(count, n)  # (n rows of count in memory: `verify_perceptron.check.soft_chunk` reads them)
    over = np.empty(n, dtype=np.float64)
    rho_sq, short = rho * rho, 0
    mask = np.uint64((1 << PIECE_BITS) - 1)
    for start in range(0, n, _CHUNK):
        m = margins[start:start + _CHUNK]
        below = m < rho
        d = np.where(below, np.uint64(rho) - m.view(np.uint64), np.uint64(0))  # (mod 2^64: exact, 0 < ρ − m < 2^64)
        short += int(np.count_nonzero(below))
        high, low = _square(d)
        for k in range(count):  # bits [46k, 46k + 46) of the 128-bit square (high·2^64 + low)
            at = k * PIECE_BITS
            if at >= 64:
                piece = high >> np.uint64(at - 64)
            else:
                piece = low >> np.uint64(at)
                if at + PIECE_BITS > 64:
                    piece |= high << np.uint64(64 - at)
            pieces[k, start:start + _CHUNK] = (piece & mask).view(np.int64)
        over[start:start + _CHUNK] = _quotients(d, rho, rho_sq)
    return Squares(pieces, over, _total(pieces), short)


def limb_squares(margins: LimbMargins, rho: int) -> Squares | None:
    """`Squares` for margins held in limbs and 0 < ρ = `rho`, where `SoftMargin.from_margins` would square them in
    Python integers (some d² >= 2^62) and at most `_MOST_PIECES` pieces hold each; else None (the caller then
    squares their Python integers, as before), and None without the C pass or a 64-bit significand.

    Examples
    --------
    >>> margins = LimbMargins(int_limbs([3, -2**80, 2**90, -7], 2))
    >>> figures = limb_squares(margins, 2**62 + 1)
    >>> d = [2**62 - 2, 2**80 + 2**62 + 1, 0, 2**62 + 8]
    >>> [sum(int(p) << (46 * k) for k, p in enumerate(taken(figures.pieces, [i])[:, 0])) for i in range(4)] == [
    ...     v * v for v in d]
    True
    >>> figures.over_rho_sq.tolist() == [v * v / (2**62 + 1) ** 2 for v in d], figures.total == sum(v * v for v in d)
    (True, True)
    >>> figures.short
    3
    >>> limb_squares(LimbMargins(int_limbs([3, -5], 1)), 4) is None  # every d² below 2^62: int64 squares
    True
    >>> limb_squares(LimbMargins(int_limbs([3, -2**80], 33)), 4) is None  # past the C passes' 32 limbs
    True
    """
    K = margins.limbs.shape[1]
    if (_kernel.deficit_squares is None or _kernel.deficit_top is None or _kernel.deficit_pieces is None
            or not len(margins) or rho <= 0
            or rho.bit_length() >= 64 * K or K > _MOST_LIMBS or not _extended()):
        return None
    rho_limbs = int_limbs([rho], K)[0]
    largest = _kernel.deficit_top(margins.limbs, rho_limbs) ** 2
    count = max(1, -(-largest.bit_length() // PIECE_BITS))
    if largest < 2**62 or count > _MOST_PIECES:
        return None
    n = len(margins)
    # The pieces of a block of samples at a time, for Σ d²: the check keeps the margins (`MarginPieces`, n x K limbs)
    # and cuts each chunk's rows as it reads them, where it held the pieces of every sample (n x count)
    block = piece_rows(count, min(n, _CHUNK))
    over = np.empty(n, dtype=np.float64)
    near = np.empty(n, dtype=np.uint8)
    short, total = 0, 0
    for lo in range(0, n, _CHUNK):
        hi = min(lo + _CHUNK, n)
        pieces = block[:, :hi - lo]
        short += _kernel.deficit_squares(margins.limbs[lo:hi], rho_limbs, pieces.T, over[lo:hi], near[lo:hi])
        total += _total(pieces)
    near_at = np.flatnonzero(near)
    if len(near_at):  # (about 1%: d²/ρ² in Python integers, int / int correctly rounded)
        rho_sq = rho * rho
        for i, m in zip(near_at.tolist(), limb_values(margins.limbs[near_at]).tolist()):
            over[i] = (rho - m) ** 2 / rho_sq
    return Squares(MarginPieces(margins.limbs, rho_limbs, count), over, total, short)


def _total(pieces: Any) -> int:
    """Σ d² from its pieces ((K, n)): each piece's sums over segments of 2^16 samples stay below 2^62."""
    n = pieces.shape[1]
    return sum(sum(np.add.reduceat(piece, np.arange(0, n, _CHUNK)).tolist()) << (k * PIECE_BITS)
               for k, piece in enumerate(pieces)) if n else 0


def _extended() -> bool:
    """Whether longdouble arithmetic keeps 64 significant bits now: the format has them (`np.finfo`), and an
    addition rounds to them (an x87 whose precision control was set to doubles would round 1 + 2^-62 to 1)."""
    one = np.longdouble(1)
    return bool(np.finfo(np.longdouble).nmant >= _NEEDED_MANT and one + np.longdouble(2.0**-62) != one)


def _square(d: Any) -> tuple[Any, Any]:
    """(high, low) uint64 words of d² for uint64 d: d = h·2^32 + l, d² = h²·2^64 + h·l·2^33 + l² (each product < 2^64)."""
    h, l = d >> np.uint64(32), d & np.uint64(0xFFFFFFFF)
    cross = h * l
    low = l * l
    shifted = cross << np.uint64(33)  # (mod 2^64: the bits of h·l·2^33 below 2^64; the rest go to the high word)
    low += shifted
    carry = (low < shifted).astype(np.uint64)
    high = h * h + (cross >> np.uint64(31)) + carry
    return high, low


def _quotients(d: Any, rho: int, rho_sq: int) -> Any:
    """d²/ρ² correctly rounded to doubles: (d/ρ)² in 80-bit extended, rounded to a double where no midpoint of doubles
    is near it; in Python integers (int / int) where one is. 0 where d = 0."""
    extended = d.astype(np.longdouble) / np.longdouble(rho)  # (d < 2^64 and ρ < 2^63: both exact in it)
    extended *= extended
    out = extended.astype(np.float64)
    mantissa, _ = np.frexp(extended)
    last = np.fmod(np.ldexp(mantissa, 64), np.longdouble(2048))  # the significand's last 11 bits (0 where d = 0)
    near = np.flatnonzero(np.abs(last - 1024) <= _NEAR)
    for i in near.tolist():
        out[i] = int(d[i]) ** 2 / rho_sq  # (below 2^128 / 1: within float64's range)
    return out
