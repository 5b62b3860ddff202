"""Checks that a shown decimal is the right rounding of an exact rational, by the definition.

Independent of `verify_perceptron.report._decimals`: the decade of x comes
from `math.log10` (exact for huge ints up to ±1, then fixed by comparing
with a power of ten), and rounding to `digits` significant digits means:
the shown r is a multiple of the unit u = 10^(e - digits + 1) of x's decade
e, and |x - r| <= u/2 with a tie (= u/2) only to an even r/u (nearest), or
r <= x < r + u (down), or r - u < x <= r (up).
"""

from __future__ import annotations

import math
from fractions import Fraction

from verify_perceptron.data.exact_text import read_exact


def decade(x: Fraction) -> int:
    """The e with 10^e <= |x| < 10^(e+1), for x != 0."""
    n, d = abs(x.numerator), x.denominator
    e = math.floor(math.log10(n) - math.log10(d))
    while Fraction(10) ** e > abs(x):
        e -= 1
    while Fraction(10) ** (e + 1) <= abs(x):
        e += 1
    return e


def is_rounded(text: str, x: Fraction, digits: int, rounding: str) -> bool:
    """Whether `text` (a decimal, maybe after ``≈ ``) is `x` rounded to `digits` digits as `rounding` says."""
    r = read_exact(text.removeprefix("≈ "))
    if x == 0:
        return r == 0
    unit = Fraction(10) ** (decade(x) - digits + 1)
    steps = r / unit
    if steps.denominator != 1:
        return False
    if rounding == "down":
        return r <= x < r + unit
    if rounding == "up":
        return r - unit < x <= r
    gap = abs(x - r)
    return gap < unit / 2 or gap == unit / 2 and steps.numerator % 2 == 0
