"""Exact rational literals: text in, `fractions.Fraction` out, never a float.

This is the one place where numbers enter the toolkit. ``"0.1"`` is 1/10,
``"1.5e-3"`` is 3/2000 and ``"-22/25"`` is -22/25. Literals built to exhaust
time or memory (``"1e999999999"``, a million digits) are refused before any
arithmetic is done, so a hostile file costs a parse, not a hang.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction

from ..errors import InvalidArgument

__all__ = ["MAX_DIGITS", "MAX_EXPONENT", "parse_rational", "rational_parts", "format_rational", "as_rational", "as_rationals", "shown"]

#: Most digits accepted in one literal (mantissa, numerator or denominator).
MAX_DIGITS = 1000
#: Largest decimal exponent accepted (``1e1000`` is fine, ``1e1001`` is not).
MAX_EXPONENT = 1000

_DECIMAL = re.compile(r"([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?")
_RATIO = re.compile(r"([+-]?)([0-9]+)/([0-9]+)")
_NON_FINITE = {"nan", "+nan", "-nan", "inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"}


def shown(text: str) -> str:
    """Quote a literal for a message, cut short when it is huge.

    Examples
    --------
    >>> shown("1" * 100)
    "'11111111111111111111...1111111111'"
    """
    return repr(text if len(text) <= 40 else text[:20] + "..." + text[-10:])


def parse_rational(text: str) -> Fraction:
    """Read one exact rational from text.

    Parameters
    ----------
    text : str
        An integer (``"-3"``), a decimal (``"0.1"``, ``".5"``), scientific
        notation (``"1.5e-3"``) or a fraction (``"-22/25"``); surrounding
        white space is ignored.

    Returns
    -------
    Fraction
        The exact value the text denotes.

    Raises
    ------
    ValueError
        If the text is not such a literal, is NaN or infinite, divides by
        zero, or exceeds `MAX_DIGITS` digits or an exponent of `MAX_EXPONENT`.

    Examples
    --------
    >>> parse_rational("0.1")
    Fraction(1, 10)
    >>> parse_rational("1.5e-3")
    Fraction(3, 2000)
    >>> parse_rational(" -22/25 ")
    Fraction(-22, 25)
    >>> parse_rational("1e999999")
    Traceback (most recent call last):
    ...
    ValueError: '1e999999' has exponent 999999; at most 1000 is accepted
    """
    numerator, denominator = rational_parts(text)
    return Fraction(numerator, denominator)


def rational_parts(text: str) -> tuple[int, int]:
    """Read one exact rational from text as two integers, numerator and denominator, in lowest terms.

    The same literals and the same errors as `parse_rational`, without
    building a `Fraction` (the file readers put whole columns over one
    denominator themselves). The denominator is positive.

    Examples
    --------
    >>> rational_parts("0.250"), rational_parts("-6/4"), rational_parts("1e3"), rational_parts("-0")
    ((1, 4), (-3, 2), (1000, 1), (0, 1))
    """
    if not isinstance(text, str):
        raise InvalidArgument(f"text={text!r} of type {type(text).__name__} is not a str")
    s = text.strip()
    if not s:
        raise ValueError("empty cell: a number is required")
    if len(s) > 4 * MAX_DIGITS:
        raise ValueError(f"{shown(s)} is {len(s)} characters long; at most {4 * MAX_DIGITS} are accepted")
    ratio = _RATIO.fullmatch(s)
    if ratio:
        sign, num, den = ratio.groups()
        if max(len(num), len(den)) > MAX_DIGITS:
            raise ValueError(f"{shown(s)} has more than {MAX_DIGITS} digits")
        numerator, denominator = int(num), int(den)
        if denominator == 0:
            raise ValueError(f"{shown(s)} divides by zero")
    else:
        numerator, denominator = _decimal_parts(s)
        sign = s[0]
    common = math.gcd(numerator, denominator)
    if common > 1:
        numerator, denominator = numerator // common, denominator // common
    return (-numerator if sign == "-" else numerator), denominator


def _decimal_parts(s: str) -> tuple[int, int]:
    """|value| of a stripped decimal or scientific literal as (numerator, power of ten), its limits checked."""
    decimal = _DECIMAL.fullmatch(s)
    if decimal is None or not (decimal.group(2) or decimal.group(3)):
        if s.lower() in _NON_FINITE:
            raise ValueError(f"{shown(s)} is not a finite number")
        raise ValueError(f"{shown(s)} is not a number (integer, decimal, 1.5e-3 or p/q)")
    _, whole, frac, exp = decimal.groups()
    frac = frac or ""
    digits = (whole or "") + frac
    if len(digits.lstrip("0")) > MAX_DIGITS:
        raise ValueError(f"{shown(s)} has more than {MAX_DIGITS} digits")
    exponent = 0
    if exp is not None:
        if len(exp.lstrip("+-").lstrip("0")) > 6 or abs(int(exp)) > MAX_EXPONENT:
            raise ValueError(f"{shown(s)} has exponent {exp.lstrip('+')}; at most {MAX_EXPONENT} is accepted")
        exponent = int(exp)
    shift = exponent - len(frac)
    mantissa = int(digits)
    if mantissa == 0:
        return 0, 1
    if abs(shift) > MAX_EXPONENT + MAX_DIGITS:
        raise ValueError(f"{shown(s)} is out of the accepted range")
    return (mantissa * 10**shift, 1) if shift >= 0 else (mantissa, 10**-shift)


def as_rational(value: object, *, name: str = "value") -> Fraction:
    """Convert a Python number or a literal to `Fraction`, exactly.

    Floats convert through `Fraction.from_float`, so ``0.1`` becomes the
    binary double nearest to 1/10, not 1/10; pass the string ``"0.1"`` for
    the decimal.

    Examples
    --------
    >>> as_rational("3/7")
    Fraction(3, 7)
    >>> as_rational(0.5)
    Fraction(1, 2)
    >>> as_rational(Decimal("0.1"))
    Fraction(1, 10)
    >>> as_rational(float("nan"), name="eta")
    Traceback (most recent call last):
    ...
    ValueError: eta=nan is not a finite number
    """
    if isinstance(value, bool):
        raise ValueError(f"{name}={value!r} is a bool, not a number")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, str):
        try:
            return parse_rational(value)
        except ValueError as error:
            raise ValueError(f"{name}={value!r}: {error}") from None
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"{name}={value!r} is not a finite number")
        return Fraction.from_float(value)
    if isinstance(value, Decimal):  # a decimal is exact: Decimal("0.1") is 1/10
        if not value.is_finite():
            raise ValueError(f"{name}={value!r} is not a finite number")
        return Fraction(value)
    try:
        numerator, denominator = value.numerator, value.denominator  # type: ignore[attr-defined]
    except AttributeError:
        pass
    else:
        return Fraction(int(numerator), int(denominator))
    if hasattr(value, "is_integer") and hasattr(value, "as_integer_ratio"):
        # NumPy floating scalars (long double included): exact through their integer ratio.
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"{name}={value!r} is not a finite number")
        numerator, denominator = value.as_integer_ratio()  # type: ignore[attr-defined]
        return Fraction(int(numerator), int(denominator))
    raise ValueError(f"{name}={value!r} of type {type(value).__name__} is not a rational number")


def format_rational(value: Fraction) -> str:
    """Exact text of a rational: ``"3"``, ``"-22/25"``.

    Examples
    --------
    >>> format_rational(Fraction(-22, 25))
    '-22/25'
    """
    return str(value)


def as_rationals(values: Iterable[object], *, name: str = "value") -> tuple[Fraction, ...]:
    """Each of `values` as `as_rational` makes it; an error names the bad one as ``name[j]``.

    A vector of `Fraction` values (what the package itself hands on) is
    returned as it is, with no call per entry.

    Examples
    --------
    >>> as_rationals(["1/2", 3])
    (Fraction(1, 2), Fraction(3, 1))
    >>> as_rationals([1, "x"], name="w")
    Traceback (most recent call last):
    ...
    ValueError: w[1]='x': 'x' is not a number (integer, decimal, 1.5e-3 or p/q)
    """
    vector = tuple(values)
    if all(type(v) is Fraction for v in vector):
        return vector
    return tuple(v if type(v) is Fraction else as_rational(v, name=f"{name}[{j}]") for j, v in enumerate(vector))
