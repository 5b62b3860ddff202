"""A report record made for reading: numbers by the rule of docs/numbers.md, long vectors shortened.

The JSON keeps every value exact; the text, Markdown and HTML renderers
read the record through `readable` unless asked for ``--exact`` (then
through `exactly`). One rule writes every number (docs/numbers.md): a
rational whose denominator divides a power of ten (every decimal input
does) is that decimal, exactly (``17.99``, not ``1799/100``), when it has at
most `SHORT` characters; every other value is ``≈`` and 6 significant
digits. A list of more than `LONG` numbers keeps its first and last entries
around a count of those left out (never fewer than two), and a list that is
mostly zeros (a certificate λ) shows its non-zero entries by index.

Why this is total. Only a whole exact number is rewritten: a string that is
one (``-12/7``), an integer, a `Fraction`, or, inside a sentence, a token
that is one, standing alone (no letter, digit, ``.``, ``/``, ``_``, sign or
``^`` touching it: never the digits of a decimal such as an enclosure's
end, of an exponent, a name or a path). A decimal is written only when its
numerator and denominator are short, so only short texts are converted; a
``≈`` value is rounded from integers
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
from ._decimals import approximate, decimal_text

__all__ = ["readable", "shown", "written", "exactly", "SHORT", "LONG"]

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
    """An exact value for reading, by the one rule of docs/numbers.md: a decimal, exactly, when its denominator
    divides a power of ten and the decimal is short; else ``≈`` its 6-digit decimal.

    Examples
    --------
    >>> shown(Fraction(1799, 100)), shown(Fraction(-22, 25)), shown(Fraction(1, 3)), shown(Fraction(10**400, 3))
    ('17.99', '-0.88', '≈ 0.333333', '≈ 3.33333e+399')
    >>> shown(-(10**20)), shown(12345678901234)
    ('≈ -1e+20', '12345678901234')
    """
    exact = Fraction(value)
    return decimal_text(exact, longest=SHORT) or "≈ " + approximate(exact)


def written(value: Fraction | int) -> str:
    """An exact value written whole (``--exact``), by the same rule: its decimal when its denominator divides a
    power of ten, else ``p/q``; at any size.

    Examples
    --------
    >>> written(Fraction(1799, 100)), written(Fraction(-1, 3)), written(10**30)
    ('17.99', '-1/3', '1000000000000000000000000000000')
    """
    exact = Fraction(value)
    return decimal_text(exact) or exact_text(exact)


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


def _short(text: str) -> str:
    """A whole exact number's text (``p`` or ``p/q``) for reading: `shown`'s rule, reading few digits.

    A decimal of at most `SHORT` characters has a numerator of at most that
    many digits and a denominator of fewer, so only those are converted;
    every other value goes to `_approximate`, which reads the leading digits.
    """
    negative = text.startswith("-")
    p, _, q = text[negative:].partition("/")
    if p.startswith("0") and len(p) > 1 or q.startswith("0"):  # "000" (a note's number) is a name, not a value
        return text
    if len(p) + negative <= SHORT and len(q) < SHORT and (q.strip("0") or not q):
        exact = Fraction(int(p), int(q or "1"))
        decimal = decimal_text(-exact if negative else exact, longest=SHORT)
        if decimal is not None:
            return decimal
    return _approximate(text) if text.strip("-0") else "0"


def _number(value: str) -> str:
    """A whole exact number by `shown`'s rule; in a sentence, each whole number standing alone."""
    if _NUMBER.fullmatch(value):
        return _short(value)
    if not any(c.isdigit() for c in value):
        return value
    return _TOKEN.sub(lambda m: _short(m.group()), value)


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
    if len(nonzero) <= LONG - 1:  # a marker would stand for fewer than two entries: all of them
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
    {'value': '≈ 7.22964e+18', 'gamma': '≈ 0.333333', 'weights': ['0', '1', '2', '3', '… 4 more …', '8', '9']}
    >>> readable({"lambda": ["0", "1/2", "0", "0", "0", "0", "0", "0", "0", "1/2"], "x": "3483943/500"})
    {'lambda': ['1: 0.5', '9: 0.5', '(8 zeros)'], 'x': '6967.886'}
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


def _whole(text: str) -> str:
    """A whole exact number's text written by `written`'s rule, at any size (`read_exact` reads it in pieces)."""
    if "/" not in text:
        return text
    return written(read_exact(text))


def exactly(record: Any) -> Any:
    """A copy of a report record for ``--exact``: every number whole, a decimal where its denominator divides a
    power of ten (`written`), ``p/q`` otherwise; names as written.

    Examples
    --------
    >>> exactly({"weights": ["1799/100", "-1/3", "4"], "source": "a/10", "text": "γ = 1/8, k = 3"})
    {'weights': ['17.99', '-1/3', '4'], 'source': 'a/10', 'text': 'γ = 0.125, k = 3'}
    """
    if isinstance(record, dict):
        return {key: record[key] if key in _NAMES else exactly(value) for key, value in record.items()}
    if isinstance(record, list):
        return [exactly(v) for v in record]
    if isinstance(record, str):
        if _NUMBER.fullmatch(record):
            return _whole(record)
        return _TOKEN.sub(lambda m: _whole(m.group()), record) if "/" in record else record
    if isinstance(record, Fraction):
        return written(record)
    return record


#: The most values `exact_titles` reads, and the longest exact text a title shows whole.
_TITLED, _TITLE_CHARS = 50_000, 400


def _title(exact: str) -> str:
    if len(exact) <= _TITLE_CHARS:
        return f"exactly {exact}"
    return f"exactly {exact[:60]}… ({len(exact):,} characters: whole in the JSON and with --exact)"


def exact_titles(record: Any) -> dict[str, str]:
    """For each ``≈`` value `readable` shows of `record`: the exact value, as a tooltip's text (the HTML report's
    title); a shown value that stands for two different exact values gets none.

    Examples
    --------
    >>> exact_titles({"gamma": "1/3", "x": "17/10", "y": ["2/3", "-7/3"]})
    {'≈ 0.333333': 'exactly 1/3', '≈ 0.666667': 'exactly 2/3', '≈ -2.33333': 'exactly -7/3'}
    """
    titles: dict[str, str | None] = {}
    seen = 0

    def note(exact: str) -> None:
        nonlocal seen
        seen += 1
        if seen > _TITLED:
            return
        shown_text = _number(exact)
        if shown_text.startswith("≈"):
            title = _title(written(read_exact(exact)) if len(exact) <= _TITLE_CHARS else exact)
            titles[shown_text] = title if titles.get(shown_text, title) == title else None

    def walk(value: Any, key: str = "") -> None:
        if seen > _TITLED:  # enough: a record of millions of values is not walked whole for its tooltips
            return
        if isinstance(value, dict):
            for k, v in value.items():
                if k not in _NAMES:
                    walk(v, k)
        elif isinstance(value, list):
            # what a report shows of a long list: a vector's ends (`_list`), a table's first and last rows
            rows = bool(value) and isinstance(value[0], (dict, list))
            head, tail = (64, 16) if rows else (4, 2)
            for v in value if len(value) <= head + tail else value[:head] + value[-tail:]:
                if seen > _TITLED:
                    return
                walk(v, key)
        elif isinstance(value, str):
            if _NUMBER.fullmatch(value):
                note(value)
            elif any(c.isdigit() for c in value):
                for m in _TOKEN.finditer(value):
                    note(m.group())
        elif isinstance(value, Fraction) or _integer(value):
            note(exact_text(value))

    walk(record)
    return {shown_text: title for shown_text, title in titles.items() if title is not None}
