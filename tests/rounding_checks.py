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
    """Whether `text` (a decimal, maybe after ``≈ ``) is `x` rounded to `digits` digits as `rounding` says.

    Compared by cross-multiplying the integers (x = n/d, r = a/b, the unit u = c/e), with no gcd: the
    values may have 10^5 digits.
    """
    r = read_exact(text.removeprefix("≈ "))
    if x == 0:
        return r == 0
    n, d, a, b = x.numerator, x.denominator, r.numerator, r.denominator
    k = decade(x) - digits + 1
    c, e = (10**k, 1) if k >= 0 else (1, 10**-k)
    if (a * e) % (b * c):  # r is no multiple of u
        return False
    x_b, r_d = n * b, a * d  # x and r over the common denominator b·d
    if rounding == "down":  # r <= x < r + u
        return r_d <= x_b and x_b * e < r_d * e + c * b * d
    if rounding == "up":  # r - u < x <= r
        return x_b <= r_d and r_d * e - c * b * d < x_b * e
    twice_gap, unit = 2 * abs(x_b - r_d) * e, c * b * d  # 2|x - r| and u, over b·d·e
    return twice_gap < unit or twice_gap == unit and (a * e // (b * c)) % 2 == 0
