"""Exact rational literals: text in, `fractions.Fraction` out, never a float.

This is the one place where numbers enter the toolkit. ``"0.1"`` is 1/10,
``"1.5e-3"`` is 3/2000 and ``"-22/25"`` is -22/25. Literals built to exhaust
time or memory (``"1e999999999"``, a million digits) are refused before any
arithmetic is done, so a hostile file costs a parse, not a hang.
"""

from __future__ import annotations

import math
import operator
import re
import reprlib
from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction
from typing import Any, TypeGuard

import numpy as np

from ..errors import InvalidArgument

__all__ = ["MAX_DIGITS", "MISSING_MARKS", "MAX_EXPONENT", "MAX_VALUE_DIGITS", "cell_parts", "parse_rational", "rational_parts", "format_rational",
           "as_rational", "as_rationals", "bounded", "shown", "shown_value"]

#: Most digits accepted in one literal (mantissa, numerator or denominator).
MAX_DIGITS = 1000
#: Largest decimal exponent accepted (``1e1000`` is fine, ``1e1001`` is not).
MAX_EXPONENT = 1000

#: Most digits a numerator or a denominator may have in a value given in memory (an int, a `Fraction`): as many
#: as the largest a literal can make, 1000 digits times 10^1000.
MAX_VALUE_DIGITS = MAX_DIGITS + MAX_EXPONENT
_VALUE_LIMIT = 10**MAX_VALUE_DIGITS
#: Integers up to this many bits are printed whole in a message (well under Python's 4,300-digit limit).
_PRINTABLE_BITS = 3 * 4096

_DECIMAL = re.compile(r"([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?")
_RATIO = re.compile(r"([+-]?)([0-9]+)/([0-9]+)")
#: NumPy 2's repr of a scalar, ``np.float64(20.57)``: what ``np.savetxt(..., fmt="%r")`` and ``repr()`` of an
#: array's entries write. The literal inside is read as any other.
_NUMPY_SCALAR = re.compile(r"(?:np|numpy)\.(?:u?int(?:8|16|32|64)?|float(?:16|32|64|96|128)?|longdouble|double|single"
                           r"|half|longlong|ulonglong|short|ushort|intc|uintc|intp|uintp)\((.*)\)", re.S)
_NON_FINITE = {"nan", "+nan", "-nan", "inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"}
#: How files mark a missing value in place of a number (R's NA, Excel's #N/A, pandas' <NA>, SAS's ".", Weka's
#: "?", database NULLs), compared in lower case; NaN and an empty cell mark one too (`is_missing`).
MISSING_MARKS = frozenset({"na", "n/a", "#n/a", "<na>", "nat", "null", "none", "nil", "missing", "?", "."})


def is_missing(cell: str) -> bool:
    """Whether a cell marks a missing value rather than a number: empty, NaN, or a spelling in `MISSING_MARKS`.

    Examples
    --------
    >>> [is_missing(c) for c in ("", " NA ", "NaN", "#N/A", "?", "0", "a")]
    [True, True, True, True, True, False, False]
    """
    s = cell.strip().lower()
    return not s or s in MISSING_MARKS or s.lstrip("+-") == "nan"


def shown(text: str) -> str:
    """Quote a literal for a message, cut short when it is huge.

    Examples
    --------
    >>> shown("1" * 100)
    "'11111111111111111111...1111111111'"
    """
    return repr(text if len(text) <= 40 else text[:20] + "..." + text[-10:])


def shown_value(value: object) -> str:
    """Any value for a message, cut short when it is long, and never failing: a long integer by its first and
    last digits and its length (one too long to print, past Python's 4,300-digit limit, by its length alone),
    an object whose ``repr`` raises by its type.

    Examples
    --------
    >>> shown_value(Fraction(1, 3)), shown_value(10**50), shown_value(-10**5000)
    ('Fraction(1, 3)', '10000000000000000000...0000000000 (51 digits)', '-(an integer of 5001 digits)')
    >>> shown_value(list(range(10**6))), shown_value([10**5000])
    ('[0, 1, 2, 3, ...]', '[(an integer of 5001 digits)]')
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return _integer_text(int(value))
    if isinstance(value, Fraction):
        return f"Fraction({_integer_text(value.numerator)}, {_integer_text(value.denominator)})"
    try:
        text = _SHORT_REPR.repr(value)  # a few items of a long list, never the whole of it
    except Exception:  # noqa: BLE001 - a message must not fail on the value it names
        return f"(a {type(value).__name__} that cannot be shown)"
    return text if len(text) <= 60 else text[:40] + "..." + text[-15:]


class _ShortRepr(reprlib.Repr):
    """`reprlib`'s short repr, with integers as `_integer_text` shows them (its own calls repr() on them)."""

    def repr_int(self, x: int, level: int) -> str:
        return _integer_text(x)

    def repr_instance(self, x: object, level: int) -> str:
        text = repr(x)  # other objects (a Fraction in a list, a NumPy scalar) as they show themselves
        return text if len(text) <= 60 else text[:40] + "..." + text[-15:]


_SHORT_REPR = _ShortRepr()
_SHORT_REPR.maxlist = _SHORT_REPR.maxtuple = _SHORT_REPR.maxset = _SHORT_REPR.maxdict = 4
_SHORT_REPR.maxstring = _SHORT_REPR.maxother = 60


def _integer_text(value: int) -> str:
    if abs(value) < 10**30:
        return str(value)
    sign = "-" if value < 0 else ""
    if value.bit_length() > _PRINTABLE_BITS:
        return f"{sign}(an integer of {_digits(value)} digits)"
    digits = str(abs(value))
    return f"{sign}{digits[:20]}...{digits[-10:]} ({len(digits)} digits)"


def _digits(value: int) -> int:
    """The number of decimal digits of `value` (sign left out), without converting it to text."""
    estimate = int(abs(value).bit_length() * 0.30102999566398120) + 1  # log10(2); too high by at most one
    return estimate if estimate == 1 or abs(value) >= 10 ** (estimate - 1) else estimate - 1


def bounded(value: Fraction, *, name: str = "value") -> Fraction:
    """`value` itself when its numerator and denominator each have at most `MAX_VALUE_DIGITS` digits, as any
    literal's do; else a `ValueError` naming it. Values given in memory go through this as text goes through
    `parse_rational`, so that neither can make every later step slow.

    Examples
    --------
    >>> bounded(Fraction(10**1999, 3)) == Fraction(10**1999, 3)
    True
    >>> bounded(Fraction(1, 10**2000), name="X[0][1]")
    Traceback (most recent call last):
    ...
    ValueError: X[0][1]=Fraction(1, 10000000000000000000...0000000000 (2001 digits)) has more than 2000 digits; at most 2000 are accepted
    """
    if value.numerator >= _VALUE_LIMIT or -value.numerator >= _VALUE_LIMIT or value.denominator >= _VALUE_LIMIT:
        named = shown_value(value.numerator if value.denominator == 1 else value)
        raise ValueError(f"{name}={named} has more than {MAX_VALUE_DIGITS} digits; "
                         f"at most {MAX_VALUE_DIGITS} are accepted")
    return value


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
    >>> rational_parts("np.float64(20.57)"), rational_parts("np.int64(-3)")  # NumPy 2's repr of a scalar
    ((2057, 100), (-3, 1))
    """
    if not isinstance(text, str):
        raise InvalidArgument(f"text={text!r} of type {type(text).__name__} is not a str")
    s = text.strip()
    if not s:
        raise ValueError("empty cell: a number is required")
    if len(s) > 4 * MAX_DIGITS + 20:
        raise ValueError(f"{shown(s)} is {len(s)} characters long; at most {4 * MAX_DIGITS} are accepted")
    scalar = _NUMPY_SCALAR.fullmatch(s)
    if scalar:
        s = scalar.group(1).strip()
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


def cell_parts(text: str) -> tuple[int, int]:
    """A data file's cell as `rational_parts` reads it, or a boolean as pandas, R and JSON write one (``True``,
    ``FALSE``, in any case) as 1 or 0, as a NumPy file's booleans are read: ``pd.get_dummies`` writes its
    indicator columns so.

    Examples
    --------
    >>> cell_parts(" True"), cell_parts("FALSE"), cell_parts("-0.5")
    ((1, 1), (0, 1), (-1, 2))
    """
    flag = text.strip().lower() if len(text) < 16 else ""
    if flag in ("true", "false"):
        return (1 if flag == "true" else 0), 1
    return rational_parts(text)


def _decimal_parts(s: str) -> tuple[int, int]:
    """|value| of a stripped decimal or scientific literal as (numerator, power of ten), its limits checked."""
    decimal = _DECIMAL.fullmatch(s)
    if decimal is None or not (decimal.group(2) or decimal.group(3)):
        if s.lower() in _NON_FINITE:
            raise ValueError(f"{shown(s)} is not a finite number")
        if s.lower() in MISSING_MARKS:
            raise ValueError(f"{shown(s)} marks a missing value, not a number")
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
            raise ValueError(f"{name}={shown(value)}: {error}") from None
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"{name}={value!r} is not a finite number")
        return Fraction.from_float(value)
    if isinstance(value, Decimal):  # a decimal is exact: Decimal("0.1") is 1/10
        if not value.is_finite():
            raise ValueError(f"{name}={value!r} is not a finite number")
        # Through its text (which Decimal writes without expanding the exponent), so that the literal limits
        # apply before any arithmetic: Decimal("1E+99999999") would otherwise make a 10^8-digit integer.
        try:
            return parse_rational(str(value))
        except ValueError as error:
            raise ValueError(f"{name}={shown_value(value)}: {error}") from None
    if hasattr(value, "is_integer") and hasattr(value, "as_integer_ratio") and not _finite(value):
        raise ValueError(f"{name}={shown_value(value)} is not a finite number")
    try:
        return _duck_rational(value)
    except (ArithmeticError, TypeError, ValueError, AttributeError):
        pass
    raise ValueError(f"{name}={shown_value(value)} of type {type(value).__name__} is not a rational number")


def _finite(value: Any) -> bool:
    try:
        return bool(value == value and value not in (float("inf"), float("-inf")))
    except (TypeError, ValueError):
        return True  # no float comparison: `_duck_rational` decides


def _duck_rational(value: object) -> Fraction:
    """A number of another library (NumPy's scalars, a SymPy or gmpy2 rational) by its integer ratio; any
    error (TypeError, AttributeError, ...) means it is none: `as_rational` names it."""
    if hasattr(value, "is_integer") and hasattr(value, "as_integer_ratio"):
        # NumPy floating scalars (long double included): exact through their integer ratio.
        numerator, denominator = value.as_integer_ratio()
    else:
        numerator, denominator = value.numerator, value.denominator  # type: ignore[attr-defined]
    if not isinstance(numerator, (int, np.integer)) or not isinstance(denominator, (int, np.integer)):
        numerator, denominator = operator.index(numerator), operator.index(denominator)
    return Fraction(int(numerator), int(denominator))


def format_rational(value: Fraction) -> str:
    """Exact text of a rational: ``"3"``, ``"-22/25"``.

    Examples
    --------
    >>> format_rational(Fraction(-22, 25))
    '-22/25'
    """
    return str(value)


def _all_fractions(vector: tuple[object, ...]) -> TypeGuard[tuple[Fraction, ...]]:
    return all(type(v) is Fraction for v in vector)


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
    if _all_fractions(vector):
        return vector
    return tuple(v if type(v) is Fraction else as_rational(v, name=f"{name}[{j}]") for j, v in enumerate(vector))
