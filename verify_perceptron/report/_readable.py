"""A report record made for reading: long exact numbers as short decimals, long vectors shortened.

The JSON keeps every value exact; the text, Markdown and HTML renderers
read the record through `readable` unless asked for ``--exact``. A number
is kept as written when it is short (at most `SHORT` characters, such as
``-22/25``), else shown as ``≈`` and 6 significant digits; a list of more
than `LONG` numbers keeps its first and last entries around a count of
those left out, and a list that is mostly zeros (a certificate λ) shows its
non-zero entries by index.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

__all__ = ["readable", "SHORT", "LONG"]

#: The longest number shown as written.
SHORT = 14
#: The longest list of numbers shown whole.
LONG = 8

_NUMBER = re.compile(r"-?\d+(?:/\d+)?")


def _number(value: str) -> str:
    """A short exact value as it is, a long one as ``≈`` its 6-digit decimal; in a sentence, each long number."""
    if len(value) <= SHORT:
        return value
    if not _NUMBER.fullmatch(value):
        return _NUMBER.sub(lambda m: _number(m.group()), value)
    return f"≈ {float(Fraction(value)):.6g}"


def _numeric(values: list[Any]) -> bool:
    return all(isinstance(v, int) and not isinstance(v, bool) or isinstance(v, str) and _NUMBER.fullmatch(v)
               for v in values)


def _names(values: list[Any]) -> bool:
    """A list of short words (coordinate or feature names), shortened like the numbers beside them."""
    return all(isinstance(v, str) and len(v) <= SHORT for v in values)


def _list(values: list[Any]) -> list[Any]:
    """A list of numbers shortened for reading (other lists are walked entry by entry)."""
    if values and _names(values) and not _numeric(values):
        return values if len(values) <= LONG else values[:4] + [f"… {len(values) - 6} more …"] + values[-2:]
    if not values or not _numeric(values):
        return [readable(v) for v in values]
    shown = [_number(v) if isinstance(v, str) else v for v in values]
    if len(shown) <= LONG:
        return shown
    nonzero = [(i, v) for i, v in enumerate(shown) if str(v) != "0"]
    if len(nonzero) <= LONG // 2:
        return [f"{i}: {v}" for i, v in nonzero] + [f"({len(shown) - len(nonzero)} zeros)"]
    return shown[:4] + [f"… {len(shown) - 6} more …"] + shown[-2:]


def readable(record: Any) -> Any:
    """A copy of a report record (or any part of one) for people; `record` itself is left as it is.

    Examples
    --------
    >>> readable({"value": "14459289768964798721/2", "gamma": "1/3", "weights": [str(i) for i in range(10)]})
    {'value': '≈ 7.22964e+18', 'gamma': '1/3', 'weights': ['0', '1', '2', '3', '… 4 more …', '8', '9']}
    >>> readable({"lambda": ["0", "1/2", "0", "0", "0", "0", "0", "0", "0", "1/2"]})
    {'lambda': ['1: 1/2', '9: 1/2', '(8 zeros)']}
    >>> readable("β/R² = 11938373663562561600697/309345173896923063300 times the others'")
    "β/R² = ≈ 38.5924 times the others'"
    """
    if isinstance(record, dict):
        return {key: readable(value) for key, value in record.items()}
    if isinstance(record, list):
        return _list(record)
    if isinstance(record, str):
        return _number(record)
    return record
