"""How exact values and verdicts read in findings, notes and reports: vectors, weight names, counts,
learning rates, the note's verdict on a score."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ..data.dataset import Dataset
from ..data.exact_text import exact_text, nearest_float
from ..notes.conventions import Convention


def _vec(values: Sequence[Fraction]) -> str:
    return "[" + ", ".join(exact_text(v) if isinstance(v, (int, Fraction)) else str(v) for v in values) + "]"


def _names(conv: Convention, data: Dataset) -> str:
    return "(" + ", ".join(conv.weight_names(data.n_features)) + ")"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _rate_text(rate: Fraction) -> str:
    """A rate, with the float it is when that reads shorter (``3602879701896397/36028797018963968 (the double 0.1)``)."""
    double = nearest_float(rate)  # None past the doubles' range: no double is that rate
    if double is not None and Fraction.from_float(double) == rate and len(repr(double)) < len(exact_text(rate)):
        return f"{exact_text(rate)} (the double {double!r})"
    return exact_text(rate)


def _short(value: Any) -> str:
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
    return f"{verdict} under {conv.name} (y·(w·x~) = {product} {'<=' if product <= 0 else '>'} 0{tie})"


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
