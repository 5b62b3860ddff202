"""Plotted numbers at any magnitude: each axis scaled by a power of ten read off the exact integers.

A double holds magnitudes from about 10^-308 to 10^308, and a drawing
multiplies and adds coordinates, so exact values become floats only after
a scale has brought them near 1. Each quantity drawn on an axis (a feature
of the data, an invariant series and its bound, the bounds) is divided by
10^s, s the decimal exponent of the largest magnitude on that axis, found
from the integers (`exponent`: bit lengths, then integer division; no
float is made): the drawn values then lie in (-10, 10), the largest at 1 or
more. Quantities compared on one axis share its s; the axis label says
``×10^s`` unless s is small enough for the tick labels to show the true
values (`AxisScale.plain`). A direction (a normal v) is scaled the same way
before it becomes floats (`direction`), so that its norm neither overflows
nor vanishes.

A value below the float resolution of its axis (more than about 10^16 below
the largest) is drawn at 0, as any plot of it would be: that is a picture,
and nothing is decided from it. Log axes are drawn in exponents
(`log_position`: log10 of the value, less an integer offset), which a double
holds for any value of any size.

Scaling all values on an axis by 10^k adds k to s and leaves every drawn
coordinate the same float: a figure's geometry does not depend on the
magnitude of the data.

Examples
--------
>>> scale = axis_scale([Fraction(3, 10**400), Fraction(-7, 10**401)])
>>> scale.exponent, scale.floats([Fraction(3, 10**400), Fraction(-7, 10**401)]), scale.plain
(-400, [3.0, -0.7], False)
>>> axis_scale([Fraction(87)]).floats([Fraction(87), Fraction(0)]), exponent(Fraction(1, 3))
([8.7, 0.0], -1)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .._decimals import significant

__all__ = ["FAR", "AxisScale", "axis_scale", "direction", "exponent", "log_offset", "log_position", "shifted"]

#: Where a value too large for its axis is drawn (a double, far off any page): only a line's offset can be
#: that far from the data, and it is then drawn nowhere.
FAR = 1e300

#: Scales whose tick labels can show the true values as plain decimals (matplotlib's own limits): 10^-4 to 10^5.
_PLAIN = range(-4, 6)


def exponent(x: Fraction) -> int:
    """The e with 10^e <= |x| < 10^(e+1), exactly, from the integers; x must not be 0.

    Examples
    --------
    >>> exponent(Fraction(999)), exponent(Fraction(1000)), exponent(Fraction(-1, 10**500))
    (2, 3, -500)
    """
    return significant(abs(x), 1, "down")[2]


def shifted(x: Fraction, shift: int) -> float:
    """x/10^shift as the nearest double, made by one integer division; 0.0 below the doubles, ±`FAR` past them.

    Examples
    --------
    >>> shifted(Fraction(5, 10**400), -400), shifted(Fraction(10**400), 0), shifted(Fraction(-1, 10**400), 0)
    (5.0, 1e+300, -0.0)
    """
    return _divided(x.numerator, x.denominator, 10 ** abs(shift), shift >= 0)


def _divided(n: int, d: int, power: int, down: bool) -> float:
    """(n/d)/power when `down`, else (n/d)·power, as `shifted` rounds it."""
    if down:
        d *= power
    else:
        n *= power
    try:
        value = n / d  # Python's division of integers is correctly rounded at any size
    except OverflowError:
        value = math.inf
    return value if abs(value) <= FAR else (FAR if n > 0 else -FAR)


@dataclass(frozen=True)
class AxisScale:
    """An axis drawn in units of 10^`exponent`.

    Examples
    --------
    >>> AxisScale(-300).label("x1"), AxisScale(2).label("x1")
    ('x1  (×$\\\\mathdefault{10^{-300}}$)', 'x1')
    """

    exponent: int

    @property
    def plain(self) -> bool:
        """True when the tick labels show the true values (the scale is between 10^-4 and 10^5)."""
        return self.exponent in _PLAIN

    def __call__(self, x: Fraction) -> float:
        return shifted(x, self.exponent)

    def floats(self, values: Iterable[Fraction]) -> list[float]:
        power, down = 10 ** abs(self.exponent), self.exponent >= 0
        return [_divided(v.numerator, v.denominator, power, down) for v in values]

    def over(self, numerators: Iterable[int], denominator: int) -> list[float]:
        """The floats of n/denominator for each integer n (one division each, the denominator shared)."""
        power, down = 10 ** abs(self.exponent), self.exponent >= 0
        return [_divided(n, denominator, power, down) for n in numerators]

    def label(self, text: str) -> str:
        """An axis label that says the scale when the tick labels do not."""
        return text if self.plain else f"{text}  (×$\\mathdefault{{10^{{{self.exponent}}}}}$)"


def axis_scale(*groups: Iterable[Fraction]) -> AxisScale:
    """The scale of an axis that shows every value of `groups`: the exponent of the largest magnitude (0 when
    all are 0)."""
    largest = max((abs(v) for group in groups for v in group), default=Fraction(0))
    return AxisScale(exponent(largest) if largest else 0)


def log_offset(values: Iterable[Fraction]) -> int:
    """The exponent of the largest of `values` (all > 0): the integer a log axis's positions are counted from."""
    return exponent(max(values))


def log_position(x: Fraction, offset: int) -> float:
    """log10(x) - offset for x > 0, from its exponent and leading digits: a float at any magnitude of x.

    Examples
    --------
    >>> log_position(Fraction(10**500), 500), round(log_position(Fraction(2, 10**400), -400), 5)
    (0.0, 0.30103)
    """
    e = exponent(x)
    return (e - offset) + math.log10(shifted(x, e))


def direction(v: Sequence[Fraction]) -> list[float]:
    """v/10^e with e the exponent of its largest entry: the same direction as floats in (-10, 10), the largest
    at 1 or more, so that its norm is a double (all zeros when v = 0).

    Examples
    --------
    >>> direction([Fraction(3, 10**400), Fraction(4, 10**400)]), direction([Fraction(0), Fraction(0)])
    ([3.0, 4.0], [0.0, 0.0])
    """
    return axis_scale(v).floats(v)
