"""Rigorous enclosures of integers of any size in float64 intervals with one exponent, and their arithmetic.

An `Enclosure` is ``[lo, hi]·2^e``: float64 arrays (or scalars) ``lo <= hi``
and one Python integer ``e``, and it stands for integers known to lie inside.
Every operation returns an enclosure of the exact result, with no assumption
on the rounding of the machine beyond IEEE 754 round to nearest:

- a sum, difference or product of two floats rounded to nearest is within half
  an ulp of the exact value (also where it underflows to a subnormal or to 0,
  where the ulp is 2^-1074), so ``nextafter`` one step down and one step up of
  the rounded value encloses the exact one; a result that overflows to ±inf
  gives ±inf or ±max on the outward side, which still encloses it;
- ``ldexp`` by a power of two is exact unless it underflows, where it rounds to
  nearest: the same outward step covers it;
- an undefined result (0·inf, inf - inf) is NaN, read as -inf below and +inf
  above, so it encloses everything.

Each result is scaled by a power of two so that its largest finite end is at
most 1 in magnitude (`Enclosure.normal`): the exponent lives in ``e``, a Python
integer, so values of thousands of bits never overflow, and a product of
normalised factors never does either. Nothing here decides anything: a caller
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

__all__ = ["Enclosure", "enclose"]

_INF = np.inf
#: Bits an integer keeps when it is shifted before its conversion to float64 (far below 2^1024).
_KEEP = 1000
#: An ldexp by fewer than -_FAR leaves a normalised value (|x| <= 1) below the smallest subnormal.
_FAR = 1100


def _down(x: Any) -> Any:
    """One float below x (NaN: -inf): a lower end for an exact value x was rounded from."""
    x = np.nextafter(x, -_INF)
    return np.where(np.isnan(x), -_INF, x)


def _up(x: Any) -> Any:
    """One float above x (NaN: +inf)."""
    x = np.nextafter(x, _INF)
    return np.where(np.isnan(x), _INF, x)


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
        """The same enclosure scaled so that its largest finite end is at most 1 in magnitude."""
        ends = np.abs(np.concatenate([np.ravel(self.lo), np.ravel(self.hi)]))
        ends = ends[np.isfinite(ends)]
        top = float(ends.max()) if ends.size else 0.0
        if top == 0.0:
            return self
        k = int(np.frexp(top)[1])  # top < 2^k
        return Enclosure(_down(np.ldexp(self.lo, -k)), _up(np.ldexp(self.hi, -k)), self.e + k)

    def _at(self, e: int) -> tuple[Any, Any]:
        """lo and hi over 2^e, for e >= self.e (outward: an ldexp that underflows rounds)."""
        shift = max(self.e - e, -_FAR)
        if shift == 0:
            return self.lo, self.hi
        return _down(np.ldexp(self.lo, shift)), _up(np.ldexp(self.hi, shift))

    def __add__(self, other: Enclosure | int) -> Enclosure:
        other = _of(other)
        e = max(self.e, other.e)
        (a, b), (c, d) = self._at(e), other._at(e)
        return Enclosure(_down(a + c), _up(b + d), e).normal()

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
        products = (self.lo * other.lo, self.lo * other.hi, self.hi * other.lo, self.hi * other.hi)
        lo = np.minimum(np.minimum(products[0], products[1]), np.minimum(products[2], products[3]))
        hi = np.maximum(np.maximum(products[0], products[1]), np.maximum(products[2], products[3]))
        return Enclosure(_down(lo), _up(hi), self.e + other.e).normal()

    def __pow__(self, n: int) -> Enclosure:
        if n < 1:
            raise ValueError(f"n={n} must be >= 1: a claim's powers are positive integers")
        out = self
        for _ in range(n - 1):
            out = out * self
        return out

    def contains(self, values: Any) -> bool:
        """Whether every integer of `values` lies inside (exactly, in Python integers: for the tests)."""
        lo, hi = np.broadcast_arrays(self.lo, self.hi)
        out = []
        for v, a, b in zip(np.ravel(np.asarray(values, dtype=object)).tolist(), lo.ravel().tolist(),
                           hi.ravel().tolist()):
            below = a == -_INF or _exact(a, self.e) <= v
            above = b == _INF or v <= _exact(b, self.e)
            out.append(below and above)
        return all(out)


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
    return Enclosure(_down(f - err), _up(f + err), s).normal()
