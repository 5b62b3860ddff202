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


#: A comma-joined list of exact numbers, matched in one pass (a weight vector may hold 10^5 entries).
_NUMBERS = re.compile(r"-?\d+(?:/\d+)?(?:,-?\d+(?:/\d+)?)*")


def _numeric(values: list[Any]) -> bool:
    if set(map(type, values)) == {str}:
        return _NUMBERS.fullmatch(",".join(values)) is not None
    return all(isinstance(v, int) and not isinstance(v, bool) or isinstance(v, str) and _NUMBER.fullmatch(v)
               for v in values)


def _names(values: list[Any]) -> bool:
    """A list of short words (coordinate or feature names), shortened like the numbers beside them."""
    return all(isinstance(v, str) and len(v) <= SHORT for v in values)


def _list(values: list[Any]) -> list[Any]:
    """A list of numbers shortened for reading (other lists are walked entry by entry)."""
    if not values:
        return []
    if not _numeric(values):
        if _names(values):
            return values if len(values) <= LONG else values[:4] + [f"… {len(values) - 6} more …"] + values[-2:]
        return [readable(v) for v in values]
    def shown(v: Any) -> Any:
        return _number(v) if isinstance(v, str) else v

    if len(values) <= LONG:
        return [shown(v) for v in values]
    nonzero = [i for i, v in enumerate(values) if v != "0" and v != 0]  # only what is shown is formatted
    zeros = f"({len(values) - len(nonzero)} zeros)"
    if len(nonzero) <= LONG // 2:
        return [f"{i}: {shown(values[i])}" for i in nonzero] + [zeros]
    if len(nonzero) <= len(values) // 2:  # mostly zeros (a certificate λ): the non-zero entries by index
        return ([f"{i}: {shown(values[i])}" for i in nonzero[:4]] + [f"… {len(nonzero) - 6} more non-zero …"]
                + [f"{i}: {shown(values[i])}" for i in nonzero[-2:]] + [zeros])
    return [shown(v) for v in values[:4]] + [f"… {len(values) - 6} more …"] + [shown(v) for v in values[-2:]]


def readable(record: Any) -> Any:
    """A copy of a report record (or any part of one) for people; `record` itself is left as it is.

    Examples
    --------
    >>> readable({"value": "14459289768964798721/2", "gamma": "1/3", "weights": [str(i) for i in range(10)]})
    {'value': '≈ 7.22964e+18', 'gamma': '1/3', 'weights': ['0', '1', '2', '3', '… 4 more …', '8', '9']}
    >>> readable({"lambda": ["0", "1/2", "0", "0", "0", "0", "0", "0", "0", "1/2"]})
    {'lambda': ['1: 1/2', '9: 1/2', '(8 zeros)']}
    >>> readable([str(i % 3 // 2) for i in range(30)])
    ['2: 1', '5: 1', '8: 1', '11: 1', '… 4 more non-zero …', '26: 1', '29: 1', '(20 zeros)']
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
