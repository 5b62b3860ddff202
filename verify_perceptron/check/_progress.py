"""Numbers for a progress line, from their integers: a bound past 1.8e308 would overflow a float."""

from __future__ import annotations

from fractions import Fraction

__all__ = ["magnitude"]


def magnitude(value: Fraction) -> str:
    """A bound (> 0) to 4 significant digits (a float only below 10^15).

    Examples
    --------
    >>> magnitude(Fraction(51)), magnitude(Fraction(10**600 * 12345, 7))
    ('51', '1.763e+603')
    """
    if value < 10**15:
        return f"{float(value):.4g}"
    whole = value.numerator // value.denominator
    shift = max(0, (whole.bit_length() - 1) * 30103 // 100000 - 4)  # 10^shift <= whole / 10^4
    head = whole // 10**shift
    while head >= 10**5:
        head, shift = head // 10, shift + 1
    digits = str(head)
    return f"{digits[0]}.{digits[1:4]}e+{shift + len(digits) - 1}"
