"""How exact values and verdicts read in findings, notes and reports: vectors, weight names, counts,
learning rates, the note's verdict on a score."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import MAX_EMAX, MIN_EMIN, Context, Decimal
from fractions import Fraction

from ..data.dataset import Dataset
from ..data.exact_text import exact_text, nearest_float
from ..notes.conventions import Convention


def _number(value: object) -> str:
    """An exact value as ``p/q`` or ``p``, at any size (`exact_text`: never Python's 4,300-digit limit).

    Examples
    --------
    >>> _number(Fraction(-1, 3)), len(_number(10**5000)), _number("text")
    ('-1/3', 5001, 'text')
    """
    if isinstance(value, (int, Fraction)) and not isinstance(value, bool):
        return exact_text(value)
    return str(value)


def _vec(values: Sequence[Fraction]) -> str:
    return "[" + ", ".join(_number(v) for v in values) + "]"


#: Enough digits that rounding to three again rounds as the exact value would, but at an exact tie.
_APPROXIMATE = Context(prec=30, Emax=MAX_EMAX, Emin=MIN_EMIN)
#: Bits kept of a numerator or denominator for a three-digit approximation (the rest only moves digit 30).
_KEPT_BITS = 160


def _approx(value: Fraction | int) -> str:
    """`value` to three significant digits (the ``≈`` beside an exact value), at any magnitude.

    As ``format(float(value), ".3g")`` within the doubles' normal range; beyond
    it (where `float` overflows or underflows) from the integers: both are cut
    to their leading bits, divided in 30-digit decimal arithmetic and scaled by
    the power of two cut off, which leaves an error far below the third digit.

    Examples
    --------
    >>> _approx(Fraction(1, 3)), _approx(Fraction(10**400, 3)), _approx(Fraction(-1, 7 * 10**400)), _approx(0)
    ('0.333', '3.33e+399', '-1.43e-401', '0')
    """
    value = Fraction(value)
    double = nearest_float(value)
    if double is not None and (value == 0 or abs(double) >= 2.2250738585072014e-308):  # the normal doubles
        return f"{double:.3g}"
    n, d = abs(value.numerator), value.denominator
    cut_n, cut_d = max(n.bit_length() - _KEPT_BITS, 0), max(d.bit_length() - _KEPT_BITS, 0)
    q = _APPROXIMATE.divide(Decimal(n >> cut_n), Decimal(d >> cut_d))
    q = _APPROXIMATE.multiply(q, _APPROXIMATE.power(Decimal(2), cut_n - cut_d))
    mantissa, _, exponent = format(q, ".2e").partition("e")  # laid out as float's .3g past the doubles' range
    text = f"{mantissa.rstrip('0').rstrip('.')}e{int(exponent):+03d}"
    return "-" + text if value < 0 else text


def _names(conv: Convention, data: Dataset) -> str:
    return "(" + ", ".join(conv.weight_names(data.n_features)) + ")"


def _count(n: int, noun: str) -> str:
    return f"{_number(n)} {noun}{'' if n == 1 else 's'}"


def _rate_text(rate: Fraction) -> str:
    """A rate, with the float it is when that reads shorter (``3602879701896397/36028797018963968 (the double 0.1)``)."""
    double = nearest_float(rate)  # None past the doubles' range: no double is that rate
    if double is not None and Fraction.from_float(double) == rate and len(repr(double)) < len(exact_text(rate)):
        return f"{exact_text(rate)} (the double {double!r})"
    return exact_text(rate)


def _short(value: object) -> str:
    text = " ".join(repr(value).split())
    return text if len(text) <= 60 else text[:57] + "..."


def _judged(conv: Convention, score: Fraction, label: int) -> str:
    """How the note's rule judges this score: "a mistake under classic (y·(w·x~) = 0 <= 0)", or "not a mistake ..."."""
    if conv.name in ("hard-limiter", "hard-limiter-plus"):
        out = 1 if score > 0 or (score == 0 and conv.name == "hard-limiter-plus") else -1
        verdict = "a mistake" if out != label else "not a mistake"
        return f"{verdict} under {conv.name} (sgn(w·x~) = {out:+d}, label {label:+d})"
    product = score * label
    verdict = "a mistake" if product <= 0 else "not a mistake"
    tie = ": a score of exactly 0 is a mistake under this rule" if score == 0 else ""
    return f"{verdict} under {conv.name} (y·(w·x~) = {_number(product)} {'<=' if product <= 0 else '>'} 0{tie})"


#: Most characters of a message taken from the implementation (an exception's text, a warning).
_MESSAGE_CHARACTERS = 1000


def _limited(text: str, limit: int = _MESSAGE_CHARACTERS) -> str:
    """`text`, or its start and end with the number of characters left out between them."""
    if len(text) <= limit:
        return text
    keep = limit // 2
    return f"{text[:keep]}[... {len(text) - 2 * keep} characters left out ...]{text[-keep:]}"


def _exception_text(error: BaseException) -> str:
    """``Name: message`` of an exception the implementation raised, even when its ``__str__`` raises.

    Examples
    --------
    >>> class Odd(Exception):
    ...     def __str__(self):
    ...         raise RuntimeError("no text")
    >>> _exception_text(ValueError("bad")), _exception_text(Odd())
    ('ValueError: bad', 'Odd (its message could not be shown: str() raised RuntimeError)')
    """
    name = type(error).__name__
    try:
        message = str(error)
    except BaseException as inner:  # noqa: BLE001 - whatever its __str__ does is the implementation's
        return f"{name} (its message could not be shown: str() raised {type(inner).__name__})"
    if not isinstance(message, str):
        return name
    return _limited(f"{name}: {message}" if message else name)
