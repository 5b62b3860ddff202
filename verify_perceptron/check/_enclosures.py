"""Rigorous enclosures of integers of any size in float64 intervals with one exponent, and their arithmetic.

An `Enclosure` is ``[lo, hi]·2^e``: float64 arrays (or scalars) ``lo <= hi``
and one Python integer ``e``, and it stands for integers known to lie inside.
Every operation returns an enclosure of the exact result, with no assumption
on the rounding of the machine beyond IEEE 754 round to nearest:

- a sum, difference or product of two floats rounded to nearest is within half
  an ulp of the exact value (also where it underflows to a subnormal or to 0,
  where the ulp is 2^-1074), so one float down and one float up of the rounded
  value enclose the exact one. The step is taken as ``x - |x|·2^-52 - 2^-1074``
  (and up alike), three times faster than ``nextafter`` on NumPy arrays and at
  least as far: |x|·2^-52 is at least x's ulp (and exact, or rounded only
  where 2^-1074 is the ulp), and x minus its ulp is a float, so rounding to
  nearest, which is monotone, lands at or below the float under x. A result
  that overflows to ±inf gives ±inf on the outward side, which still encloses
  it, and NaN (inf - inf) on the inward one, read as unbounded (below);
- ``ldexp`` by a power of two is exact unless it underflows, where it rounds to
  nearest: the same outward step covers it;
- an undefined result (0·inf, inf - inf) is NaN, which every later operation
  keeps (NumPy's minimum, maximum, sums and products propagate it); `sure`
  reads it as -inf below and +inf above, so it encloses everything.

Each result whose largest finite end is not within 2^±200 of 1 is scaled by
a power of two to at most 1 (`Enclosure.normal`): the exponent lives in ``e``,
a Python integer, so values of thousands of bits never overflow, and a
product of two kept ends (at most 2^400) never does either. Nothing here decides anything: a caller
reads the signs of the ends (``2^e > 0`` changes no sign) and decides exactly
wherever an enclosure straddles what it needs to know.

Examples
--------
>>> x = enclose(np.array([3**2000, -(2**3000) + 1], dtype=object))
>>> y = x * x - x * x
>>> bool((y.lo <= 0).all() and (y.hi >= 0).all())
True
>>> z = enclose(np.array([5, -7]))
>>> (z * z).contains([25, 49])
True
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["Enclosure", "enclose", "enclose_nearest", "joined_ends"]

_INF = np.inf
#: Bits an integer keeps when it is shifted before its conversion to float64 (far below 2^1024).
_KEEP = 1000
#: Ends within 2^±_NEAR of 1 are not scaled (a product of two stays far from overflow).
_NEAR = 200
#: An ldexp by fewer than -_FAR takes a kept end (|x| <= 2^_NEAR) below half the smallest subnormal (2^-1075),
#: so one by exactly -_FAR (0 or ±2^-1074 after the outward step) encloses it.
_FAR = 1400


#: 2^-52, at least an ulp of a float relative to its magnitude; and the smallest subnormal, the ulp near 0.
_RELATIVE, _TINY = 2.0**-52, 2.0**-1074


def _down(x: Any, owned: bool = False) -> Any:
    """At or below the float below x: a lower end for an exact value x was rounded from (NaN stays NaN, and
    +inf becomes NaN: see `sure`). An array x that is `owned` (a temporary of the caller's) is overwritten.

    The array's steps are the scalar expression ``x - |x|·2^-52 - 2^-1074``'s, in the same order, into one
    buffer: the same floats, without the two temporaries as long as x. A fresh array of a chunk's 2^16
    doubles costs its pages' first touch, about ten times the arithmetic itself (0.38 against 0.03 ms).

    Examples
    --------
    >>> x = np.array([1.0, -1.0, 0.0, 2.0**-1074, 1.5 * 2.0**1000])
    >>> bool((_down(x) <= np.nextafter(x, -np.inf)).all() and (_up(x) >= np.nextafter(x, np.inf)).all())
    True
    >>> _down(x).tolist() == (x - np.abs(x) * 2.0**-52 - 2.0**-1074).tolist()
    True
    """
    return _step(x, owned, np.subtract)


def _up(x: Any, owned: bool = False) -> Any:
    """At or above the float above x (NaN stays NaN, and -inf becomes NaN); as `_down`."""
    return _step(x, owned, np.add)


def _step(x: Any, owned: bool, op: Any) -> Any:
    """``op(op(x, |x|·2^-52), 2^-1074)``: `_down` with np.subtract, `_up` with np.add."""
    with np.errstate(invalid="ignore", over="ignore"):  # (inf - inf: NaN, as documented; past the largest: inf)
        if not isinstance(x, np.ndarray) or x.ndim == 0 or x.dtype != np.float64:
            return op(op(x, np.abs(x) * _RELATIVE), _TINY)
        scaled = np.abs(x)
        scaled *= _RELATIVE
        out = x if owned else scaled
        op(x, scaled, out=out)
        op(out, _TINY, out=out)
        return out


class Enclosure:
    """Integers inside ``[lo, hi]·2^e``, elementwise (see the module docstring for why each operation encloses)."""

    __slots__ = ("lo", "hi", "e")

    def __init__(self, lo: Any, hi: Any, e: int) -> None:
        self.lo, self.hi, self.e = lo, hi, e

    @staticmethod
    def of(value: Enclosure | int) -> Enclosure:
        """An enclosure as it is; an integer (a claim's constant) enclosed."""
        return _of(value)

    def normal(self) -> Enclosure:
        """The same enclosure scaled so that its largest finite end is at most 1 in magnitude (unless it is
        within 2^±200 of 1 already)."""
        top = max(_largest(self.lo), _largest(self.hi))
        if not np.isfinite(top):  # an infinite or undefined end: the largest finite one
            ends = np.abs(np.concatenate([np.ravel(self.lo), np.ravel(self.hi)]))
            ends = ends[np.isfinite(ends)]
            top = float(ends.max()) if ends.size else 0.0
        if top == 0.0 or 2.0**-_NEAR <= top <= 2.0**_NEAR:  # near enough to 1: left as it is
            return self
        k = int(np.frexp(top)[1])  # top < 2^k
        return Enclosure(_down(np.ldexp(self.lo, -k), True), _up(np.ldexp(self.hi, -k), True), self.e + k)

    def _at(self, e: int) -> tuple[Any, Any]:
        """lo and hi over 2^e, for e >= self.e (outward: an ldexp that underflows rounds)."""
        shift = max(self.e - e, -_FAR)
        if shift == 0:
            return self.lo, self.hi
        return _down(np.ldexp(self.lo, shift), True), _up(np.ldexp(self.hi, shift), True)

    def __add__(self, other: Enclosure | int) -> Enclosure:
        other = _of(other)
        e = max(self.e, other.e)
        (a, b), (c, d) = self._at(e), other._at(e)
        return Enclosure(_down(a + c, True), _up(b + d, True), e).normal()

    def __neg__(self) -> Enclosure:
        return Enclosure(-self.hi, -self.lo, self.e)

    def __sub__(self, other: Enclosure | int) -> Enclosure:
        return self + (-_of(other))

    def __radd__(self, other: int) -> Enclosure:
        return self + other

    def __rsub__(self, other: int) -> Enclosure:
        return _of(other) - self

    def __rmul__(self, other: int) -> Enclosure:
        return self * other

    def __mul__(self, other: Enclosure | int) -> Enclosure:
        other = _of(other)
        if np.ndim(self.lo) == 0 and np.ndim(other.lo) > 0:
            return other * self
        if np.ndim(other.lo) == 0 and other.lo >= 0:  # x·c, c in [c1, c2] with 0 <= c1: the ends by c1 and c2
            lo = np.minimum(self.lo * other.lo, self.lo * other.hi)
            hi = np.maximum(self.hi * other.lo, self.hi * other.hi)
            return Enclosure(_down(lo, True), _up(hi, True), self.e + other.e).normal()
        lo, hi = _extremes(self.lo * other.lo, self.lo * other.hi, self.hi * other.lo, self.hi * other.hi)
        return Enclosure(_down(lo, True), _up(hi, True), self.e + other.e).normal()

    def __pow__(self, n: int) -> Enclosure:
        if n < 1:
            raise ValueError(f"n={n} must be >= 1: a claim's powers are positive integers")
        out = self
        for _ in range(n - 1):
            out = out * self
        return out

    def shifted(self, bits: int) -> Enclosure:
        """The values times 2^bits (exactly: only the exponent moves)."""
        return Enclosure(self.lo, self.hi, self.e + bits)

    def gathered(self, at: Any) -> Enclosure:
        """The values at indices `at` (each sample's, for the updates on those samples)."""
        return Enclosure(self.lo[at], self.hi[at], self.e)

    def sliced(self, start: int, stop: int) -> Enclosure:
        """The values at indices start..stop-1 (views, no copy); an enclosure of one value stands for every index."""
        if np.ndim(self.lo) == 0:
            return self
        return Enclosure(self.lo[start:stop], self.hi[start:stop], self.e)

    def preceded_by(self, first: Enclosure) -> Enclosure:
        """`first`, then the values but the last: the value before each (the quantity before each update)."""
        e = max(self.e, first.e)
        (a, b), (c, d) = self._at(e), first._at(e)
        return Enclosure(np.concatenate([np.ravel(c), a[:-1]]), np.concatenate([np.ravel(d), b[:-1]]), e).normal()

    def prefix_sums(self) -> Enclosure:
        """The sums of the first 1, 2, ..., m values, enclosed.

        NumPy's cumsum adds in order, so the float sum of t terms is within
        γ·Σ|x_j| of the exact sum of the floats, γ = (t - 1)·u/(1 - (t - 1)·u),
        u = 2^-53 (each addition rounds to nearest; one whose result is
        subnormal is exact); the float sum of the |x_j| is at least
        (1 - γ)·Σ|x_j|, so for t·u <= 1/4 the error is at most t·2^-52 times it.
        The bound is taken twice that (its own two roundings are far inside),
        below the sums of the lower ends and above those of the upper ends.
        """
        lo, hi = np.ravel(self.lo), np.ravel(self.hi)
        if len(lo) >= 2**50:
            raise ValueError(f"{len(lo)} values: the error bound needs fewer than 2^50")
        t = np.arange(1, len(lo) + 1, dtype=np.float64)
        t *= 2.0**-51
        return Enclosure(_down(_sums_beside(lo, t, np.subtract), True), _up(_sums_beside(hi, t, np.add), True),
                         self.e).normal()

    def sure(self) -> tuple[Any, Any]:
        """lo and hi with NaN read as -inf and +inf: ends whose signs are those of the enclosed values' bounds."""
        lo, hi = np.asarray(self.lo), np.asarray(self.hi)
        return np.where(np.isnan(lo), -_INF, lo), np.where(np.isnan(hi), _INF, hi)

    def contains(self, values: Any) -> bool:
        """Whether every integer of `values` lies inside (exactly, in Python integers: for the tests)."""
        lo, hi = np.broadcast_arrays(*self.sure())
        out = []
        for v, a, b in zip(np.ravel(np.asarray(values, dtype=object)).tolist(), lo.ravel().tolist(),
                           hi.ravel().tolist()):
            below = a == -_INF or _exact(a, self.e) <= v
            above = b == _INF or v <= _exact(b, self.e)
            out.append(below and above)
        return all(out)


def _extremes(p: Any, q: Any, r: Any, s: Any) -> tuple[Any, Any]:
    """``(min(p, q, r, s), max(p, q, r, s))`` elementwise (NaN wherever one is NaN), in the products' own
    arrays where they are arrays (min and max are exact: the same values as fresh arrays would hold).

    Examples
    --------
    >>> lo, hi = _extremes(*(np.array([v, -v]) for v in (1.0, 4.0, -2.0, 3.0)))
    >>> lo.tolist(), hi.tolist()
    ([-2.0, -4.0], [4.0, 2.0])
    """
    if not all(isinstance(a, np.ndarray) and a.shape == p.shape and a.ndim for a in (p, q, r, s)):
        return np.minimum(np.minimum(p, q), np.minimum(r, s)), np.maximum(np.maximum(p, q), np.maximum(r, s))
    lo = np.minimum(p, q)
    np.maximum(p, q, out=p)
    np.minimum(r, s, out=q)
    np.minimum(lo, q, out=lo)
    np.maximum(r, s, out=r)
    np.maximum(p, r, out=p)
    return lo, p


def _sums_beside(x: Any, t: Any, op: Any) -> Any:
    """``op(cumsum(x), cumsum(|x|)·t)``, in two buffers: `prefix_sums`' ends before their outward step."""
    total = np.cumsum(x)
    magnitudes = np.abs(x)
    np.cumsum(magnitudes, out=magnitudes)
    magnitudes *= t
    op(total, magnitudes, out=total)
    return total


def _largest(ends: Any) -> float:
    """``max |end|`` (0.0 for none; NaN if an end is NaN), from the largest and the least end: no array of
    |end| is made.

    Examples
    --------
    >>> _largest(np.array([-3.0, 2.0])), _largest(np.array([])), _largest(np.array([1.0, np.nan]))
    (3.0, 0.0, nan)
    """
    return max(float(np.max(ends, initial=0.0)), -float(np.min(ends, initial=0.0)))


def _of(value: Enclosure | int) -> Enclosure:
    """An enclosure as it is; an integer (a claim's constant) enclosed."""
    return value if isinstance(value, Enclosure) else enclose(value)


def _exact(x: float, e: int) -> Any:
    """x·2^e as an exact rational (a float is m·2^p)."""
    return Fraction(x) * (Fraction(2) ** e)


def enclose(values: Any) -> Enclosure:
    """An enclosure of integers: a Python int, an int64 array or an object array of Python integers.

    Each value is shifted right by s = max(0, bits - 1000) (floor, so the value
    over 2^s lies in [x, x + 1)) and x converted to the nearest float f, within
    |f|·2^-53 of x: [f - |f|·2^-52 - 1, f + |f|·2^-52 + 1]·2^s encloses it (without the
    1 when s = 0; exactly f when every value has at most 53 bits), and values
    up to 2^1000 below the largest keep a relative precision of 2^-50.
    """
    a = np.asarray(values)
    ints = a.reshape(-1)
    top = max(abs(int(ints.max(initial=0))), abs(int(ints.min(initial=0)))).bit_length() if ints.size else 0
    if top <= 53:  # every value is a float exactly
        f = a.astype(np.float64)
        return Enclosure(f, f, 0).normal()
    s = max(0, top - _KEEP)
    f = np.asarray((a >> s) if s else a).astype(np.float64)
    err = np.abs(f) * 2.0**-52 + (1.0 if s else 0.0)  # the rounding to nearest, and the floor of the shift
    return Enclosure(_down(f - err, True), _up(f + err, True), s).normal()


def joined_ends(pieces: list[Enclosure], spans: list[tuple[int, int]], length: int) -> tuple[Any, Any]:
    """`Enclosure.sure`'s ends of one enclosure of `length` values made of `pieces`, each enclosing the
    values at its span's indices start..stop-1 (an enclosure of one value: every index of its span alike).

    Every piece is brought to the largest exponent E, outward, as a sum's operands are (`Enclosure._at`), so
    that the ends compare across pieces as they would in one enclosure. No end grows: a piece at E is
    normal (ends at most 2^200) and the others shrink. An end left undefined (NaN) is read as `sure` reads
    it: -inf below, +inf above.

    Examples
    --------
    >>> big, small = enclose(np.array([3**400, -(3**400)], dtype=object)), enclose(np.array([5, 7]))
    >>> lo, hi = joined_ends([big, small, enclose(-1)], [(0, 2), (2, 4), (4, 6)], 6)
    >>> Enclosure(lo, hi, big.e).contains([3**400, -(3**400), 5, 7, -1, -1])
    True
    >>> bool((lo[2:4] >= 0).all() and (lo[:2] != hi[:2]).all())  # 5 and 7 stay positive; 3^400 is no float
    True
    """
    top = max((piece.e for piece in pieces), default=0)
    lo, hi = np.empty(length), np.empty(length)
    for piece, (start, stop) in zip(pieces, spans):
        lo[start:stop], hi[start:stop] = piece._at(top)
    np.copyto(lo, -_INF, where=np.isnan(lo))
    np.copyto(hi, _INF, where=np.isnan(hi))
    return lo, hi


def enclose_nearest(nearest: Any) -> Enclosure:
    """An enclosure of integers given by their nearest doubles (each rounded once, to nearest, as
    ``float(int)`` rounds: within |f|·2^-53 of the integer, an integer's double being 0 or normal), as
    `enclose` encloses a Python integer it converts itself.

    Examples
    --------
    >>> enclose_nearest(np.array([float(3**40), -2.0, 0.0])).contains([3**40, -2, 0])
    True
    """
    f = np.asarray(nearest, dtype=np.float64)
    err = np.abs(f) * 2.0**-52
    return Enclosure(_down(f - err, True), _up(f + err, True), 0).normal()
