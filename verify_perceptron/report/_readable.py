"""A report record made for reading: long exact numbers as short decimals, long vectors shortened.

The JSON keeps every value exact; the text, Markdown and HTML renderers
read the record through `readable` unless asked for ``--exact``. A number
is kept as written when it is short (at most `SHORT` characters, such as
``-22/25``), else shown as ``≈`` and 6 significant digits; a list of more
than `LONG` numbers keeps its first and last entries around a count of
those left out, and a list that is mostly zeros (a certificate λ) shows its
non-zero entries by index.

Why this is total. Only a whole exact number is shortened: a string that is
one (``-12/7``), an integer, a `Fraction`, or, inside a sentence, a token
that is one, standing alone (no letter, digit, ``.``, ``/``, ``_``, sign or
``^`` touching it: never the digits of a decimal such as an enclosure's
end, of an exponent, a name or a path). It is rounded from integers
(`verify_perceptron.report._decimals.approximate`): those of its leading
digits when they settle the rounding (`_approximate`), else of its whole
value (`verify_perceptron.data.exact_text.read_exact`, at any size). No
float, so no overflow or underflow, and no int-to-string limit. Nothing
shortened is ever read back as a number: the renderers read numbers from
the exact record only. The dataset's source and its labels are names, left
as written.

What it costs. A shortened number is ``≈ -d.ddddde+X``: 12 characters and
the exponent's digits (6 for 10^±100,000), whatever its size, and a list of numbers shows at most `LONG` entries plus two markers;
so the output of a renderer grows with the record's shape (how many values
it shows, and its names and sentences), not with the size of its numbers.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from ..data.exact_text import exact_text, read_exact
from ._decimals import approximate

__all__ = ["readable", "shown", "SHORT", "LONG"]

#: The longest number shown as written.
SHORT = 14
#: The longest list of numbers shown whole.
LONG = 8
#: Keys whose values are names (a path, the labels' own spelling), never numbers to shorten.
_NAMES = frozenset({"source", "labels", "row_index"})

_NUMBER = re.compile(r"-?\d+(?:/\d+)?")
#: A whole exact number standing alone in a sentence: nothing of a word, a decimal, an exponent, a path,
#: a fraction or a power touches it.
_TOKEN = re.compile(r"(?<![\w.+\-/\\^])-?\d+(?:/\d+)?(?![\w/\\^]|\.\w)")


def shown(value: Fraction | int) -> str:
    """An exact value for reading: as written when short, else ``≈`` its 6-digit decimal.

    Examples
    --------
    >>> shown(Fraction(-22, 25)), shown(Fraction(10**400, 3)), shown(-(10**20))
    ('-22/25', '≈ 3.33333e+399', '≈ -1e+20')
    """
    exact = Fraction(value)
    # Past 100 bits in all, the exact text has over 30 digits: no need to write it to know it is long.
    if exact.numerator.bit_length() + exact.denominator.bit_length() <= 100:
        text = str(exact)
        if len(text) <= SHORT:
            return text
    return "≈ " + approximate(exact)


#: Leading digits of a long numerator or denominator that bracket the value (see `_approximate`).
_PREFIX = 40


def _bracket(digits: str) -> tuple[int, int, int]:
    """``(low, high, a)`` with low·10^a <= the digits' value <= high·10^a, read off the leading digits."""
    if len(digits) <= _PREFIX:
        value = int(digits)
        return value, value, 0
    a = len(digits) - _PREFIX
    head = int(digits[:_PREFIX])
    return head, head + (digits.count("0", _PREFIX) != a), a


def _approximate(text: str) -> str:
    """``≈`` and 6 digits of an exact ``p`` or ``p/q`` (not 0), correctly rounded, reading few digits.

    Rounding to nearest is monotone, so when the two ends of a bracket of
    the value round alike, the value rounds so too: the first `_PREFIX`
    digits of p and of q bracket it within a factor (1 + 10^-39)², and only
    a value that close to a tie (or a tie) is read whole (`read_exact`).
    """
    negative = text.startswith("-")
    p, _, q = text[negative:].partition("/")
    if q and not q.strip("0"):  # no number (a token of a sentence such as 1/000...0): as written
        return text
    p_low, p_high, a = _bracket(p)
    q_low, q_high, b = _bracket(q or "1")
    low = approximate(Fraction(p_low, q_high), shift=a - b)
    if low != approximate(Fraction(p_high, q_low), shift=a - b):
        low = approximate(abs(read_exact(text)))
    return "≈ " + ("-" if negative else "") + low


def _number(value: str) -> str:
    """A short exact value as it is, a long one as ``≈`` its 6-digit decimal; in a sentence, each long number."""
    if len(value) <= SHORT:
        return value
    if _NUMBER.fullmatch(value):
        return _approximate(value)
    return _TOKEN.sub(lambda m: _number(m.group()), value)


#: A comma-joined list of exact numbers, matched in one pass (a weight vector may hold 10^5 entries).
_NUMBERS = re.compile(r"-?\d+(?:/\d+)?(?:,-?\d+(?:/\d+)?)*")


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _numeric(values: list[Any]) -> bool:
    if set(map(type, values)) == {str}:
        return _NUMBERS.fullmatch(",".join(values)) is not None
    return all(_integer(v) or isinstance(v, Fraction) or isinstance(v, str) and _NUMBER.fullmatch(v)
               for v in values)


def _names(values: list[Any]) -> bool:
    """A list of short words (coordinate or feature names), shortened like the numbers beside them."""
    return all(isinstance(v, str) and len(v) <= SHORT for v in values)


def _entry(value: Any) -> Any:
    """One entry of a list of numbers, for reading (a short int stays an int)."""
    if isinstance(value, str):
        return _number(value)
    if isinstance(value, Fraction):
        return shown(value)
    if _integer(value):
        text = shown(value)
        return text if text.startswith("≈") else value
    return value


def _zero(value: Any) -> bool:
    return value == 0 or value == "0"


def _list(values: list[Any]) -> list[Any]:
    """A list of numbers shortened for reading (other lists are walked entry by entry)."""
    if not values:
        return []
    if not _numeric(values):
        if _names(values):
            return values if len(values) <= LONG else values[:4] + [f"… {len(values) - 6} more …"] + values[-2:]
        return [readable(v) for v in values]
    if len(values) <= LONG:
        return [_entry(v) for v in values]
    nonzero = [i for i, v in enumerate(values) if not _zero(v)]  # only what is shown is formatted
    zeros = f"({len(values) - len(nonzero)} zeros)"
    if len(nonzero) <= LONG // 2:
        return [f"{i}: {_entry(values[i])}" for i in nonzero] + [zeros]
    if len(nonzero) <= len(values) // 2:  # mostly zeros (a certificate λ): the non-zero entries by index
        return ([f"{i}: {_entry(values[i])}" for i in nonzero[:4]] + [f"… {len(nonzero) - 6} more non-zero …"]
                + [f"{i}: {_entry(values[i])}" for i in nonzero[-2:]] + [zeros])
    return [_entry(v) for v in values[:4]] + [f"… {len(values) - 6} more …"] + [_entry(v) for v in values[-2:]]


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
    >>> readable({"lower": "0.0000001919160123", "source": "runs/20240101123456789"})  # a decimal, a name: as written
    {'lower': '0.0000001919160123', 'source': 'runs/20240101123456789'}
    """
    if isinstance(record, dict):
        return {key: record[key] if key in _NAMES else readable(value) for key, value in record.items()}
    if isinstance(record, list):
        return _list(record)
    if isinstance(record, str):
        return _number(record)
    if isinstance(record, Fraction) or _integer(record):
        return _entry(record)
    return record
