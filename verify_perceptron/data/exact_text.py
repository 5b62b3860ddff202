"""Exact numbers as decimal text and back, at any size, without Python's int-to-string limit.

Python refuses ``str(n)`` and ``int(text)`` past 4,300 decimal digits
(`sys.get_int_max_str_digits`), a guard against quadratic conversions of
untrusted text. The report's exact values are the toolkit's own, and its
derived numbers (products, squared norms, bounds) pass 4,300 digits on a
2 KB file; a library must not lift the process-wide limit for its user, so
these two conversions work in pieces instead:

- `integer_text` splits a large integer in binary (a shift, exact and
  cheap), converts each half recursively into a `decimal.Decimal` (no
  digit limit) and joins them as ``high·2^k + low`` in `decimal`
  arithmetic at unlimited precision, whose multiplication is
  sub-quadratic (number-theoretic transform).
- `read_exact` splits the digit string in halves and joins them as
  ``high·10^k + low`` with Python's Karatsuba multiplication.

Their cost, measured once beside CPython 3.11's own quadratic conversions
(with the limit lifted, in the same process, on a shared machine: ratios,
not timings): at 10^5 digits writing took about a tenth of ``str``'s time
and reading a quarter of ``int``'s; at 10^6 digits, a sixtieth and a ninth.

Up to 2,000 bits (603 digits, below any limit a program may set) both use
the built-in conversions; at every size the text is the one `str` writes
with the limit lifted (``exact_text(x) == str(x)``), and `read_exact` keeps
the last values it read (a report reads its final weights more than once).
"""

from __future__ import annotations

import re
from decimal import MAX_EMAX, MAX_PREC, MIN_EMIN, Context, Decimal
from fractions import Fraction
from functools import lru_cache

__all__ = ["integer_text", "exact_text", "read_integer", "read_exact", "nearest_float"]

#: Integers of at most this many bits (603 digits) are converted by `str` itself: no limit a program can
#: set (the least allowed is 640 digits) refuses them.
_SMALL_BITS = 2_000
#: Digit strings of at most this many characters are read by `int` itself, for the same reason.
_SMALL_DIGITS = 600

#: Exact decimal arithmetic: no rounding happens below 10^(10^18) digits.
_EXACT = Context(prec=MAX_PREC, Emax=MAX_EMAX, Emin=MIN_EMIN)


@lru_cache(maxsize=64)
def _power_of_two(k: int) -> Decimal:
    return _EXACT.power(Decimal(2), k)


def _decimal(n: int) -> Decimal:
    """The non-negative integer `n` as a `Decimal`, exactly, by binary splitting."""
    if n.bit_length() <= _SMALL_BITS:
        return Decimal(n)
    k = n.bit_length() // 2
    return _EXACT.add(_EXACT.multiply(_decimal(n >> k), _power_of_two(k)), _decimal(n & ((1 << k) - 1)))


def integer_text(n: int) -> str:
    """The decimal digits of `n` (with ``-`` when negative), as ``str(n)`` writes them, at any size.

    Examples
    --------
    >>> integer_text(-120)
    '-120'
    >>> text = integer_text(7 ** 20_000)  # 16,902 digits: str() would refuse it
    >>> len(text), text[:5], read_integer(text) == 7 ** 20_000
    (16902, '91369', True)
    """
    if n.bit_length() <= _SMALL_BITS:
        return str(n)
    digits = format(_decimal(abs(n)), "f")
    return "-" + digits if n < 0 else digits


def exact_text(value: Fraction | int) -> str:
    """``p/q`` or ``p``, as ``str`` writes a `Fraction` or an int, at any size.

    Examples
    --------
    >>> exact_text(Fraction(-22, 25)), exact_text(Fraction(4)), exact_text(3)
    ('-22/25', '4', '3')
    """
    if isinstance(value, int):
        return integer_text(value)
    if value.denominator == 1:
        return integer_text(value.numerator)
    return f"{integer_text(value.numerator)}/{integer_text(value.denominator)}"


@lru_cache(maxsize=64)
def _power_of_ten(k: int) -> int:
    power: int = 10**k  # (k >= 0: an int, which the stubs cannot tell from k's type)
    return power


def _digits_value(digits: str) -> int:
    """The value of a string of decimal digits, halves joined as high·10^k + low."""
    if len(digits) <= _SMALL_DIGITS:
        return int(digits)
    k = len(digits) // 2
    return _digits_value(digits[:-k]) * _power_of_ten(k) + _digits_value(digits[-k:])


_INTEGER = re.compile(r"([+-]?)([0-9]+)")
_RATIO = re.compile(r"([+-]?)([0-9]+)/([0-9]+)")
_DECIMAL = re.compile(r"([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?")


def read_integer(text: str) -> int:
    """The integer `text` writes (``-120``), at any size; the inverse of `integer_text`.

    Raises
    ------
    ValueError
        If `text` is not an optional sign and decimal digits.
    """
    match = _INTEGER.fullmatch(text)
    if match is None:
        raise ValueError(f"{text[:40]!r} is not an integer")
    value = _digits_value(match.group(2))
    return -value if match.group(1) == "-" else value


def read_exact(text: str) -> Fraction:
    """The rational `text` writes (``p``, ``p/q``, or a decimal such as ``1.25e-7``), at any size.

    The report's own exact strings (`exact_text`) and its enclosures' decimal
    ends read back with it; it is no reader of user input (that is
    `verify_perceptron.data.rationals`, with its limits).

    Examples
    --------
    >>> read_exact("-22/25"), read_exact("1.25e-7"), read_exact(exact_text(Fraction(3, 10) ** 9000)) == Fraction(3, 10) ** 9000
    (Fraction(-22, 25), Fraction(1, 8000000), True)
    >>> read_exact("0.≈ 1.9e+09")
    Traceback (most recent call last):
    ...
    ValueError: '0.≈ 1.9e+09' is not an exact number
    """
    return _read(text)


@lru_cache(maxsize=1024)  # a report reads its values more than once (the final weights are the last update's)
def _read(text: str) -> Fraction:
    ratio = _RATIO.fullmatch(text)
    if ratio is not None:
        sign, numerator, denominator = ratio.groups()
        value = Fraction(_digits_value(numerator), _digits_value(denominator))
        return -value if sign == "-" else value
    decimal = _DECIMAL.fullmatch(text)
    if decimal is None or not (decimal.group(2) or decimal.group(3)):
        raise ValueError(f"{text[:40]!r} is not an exact number")
    sign, whole, fraction, exponent = decimal.groups()
    fraction = fraction or ""
    shift = (0 if exponent is None else read_integer(exponent)) - len(fraction)
    mantissa = _digits_value(whole + fraction if whole or fraction else "0")
    value = Fraction(mantissa * 10**shift) if shift >= 0 else Fraction(mantissa, 10**-shift)
    return -value if sign == "-" else value


def nearest_float(value: Fraction | int) -> float | None:
    """The double nearest `value` (the decimal the JSON gives beside an exact value), or None past the
    doubles' range, where `float` raises (a value below it rounds to 0.0, the nearest double).

    Examples
    --------
    >>> nearest_float(Fraction(1, 3)), nearest_float(Fraction(10**400, 3)), nearest_float(Fraction(1, 10**400))
    (0.3333333333333333, None, 0.0)
    """
    try:
        return float(value)
    except OverflowError:
        return None
