"""ARFF's sparse rows (``{0 1.5, 3 2, 4 yes}``: 0-based attribute index and value, as Weka and OpenML write
data mostly of zeros), made the dense cells of the row.

An attribute a row leaves out holds 0, not a missing value: a numeric one is 0, a nominal one its first
declared value (Weka's rule), so a class left out of a row is its first class."""

from __future__ import annotations

import csv
import re

from ..errors import DataError

__all__ = ["dense_cells", "first_value"]

#: One entry of a sparse row: the attribute's index, white space, the value (one word, or quoted with spaces).
_ENTRY = re.compile(r"""\s*([0-9]{1,9})\s+('[^']*'|"[^"]*"|[^\s'"]+)\s*""")


def first_value(kind: str) -> str:
    """What a sparse row's left-out attribute of type `kind` holds: a nominal type's first value, else 0.

    Examples
    --------
    >>> first_value("{tested_negative, tested_positive}"), first_value("{'a b', c}"), first_value("real")
    ('tested_negative', 'a b', '0')
    """
    if not kind.startswith("{"):
        return "0"
    values = next(csv.reader([kind[1:].rstrip().removesuffix("}")], quotechar="'", skipinitialspace=True), [])
    return values[0].strip() if values and values[0].strip() else "0"


def dense_cells(text: str, defaults: list[str], where: str) -> list[str]:
    """The cells of the sparse row `text` (``{index value, ...}``), each attribute left out holding its entry of
    `defaults`; a bad entry, an index out of range or given twice, or a missing value is a `DataError` naming
    `where` (the file and line).

    Examples
    --------
    >>> dense_cells("{1 2.5, 3 yes}", ["0", "0", "0", "no"], "f:7")
    ['0', '2.5', '0', 'yes']
    >>> dense_cells("{}", ["0", "no"], "f:7"), dense_cells("{0 'x y'}", ["0", "no"], "f:7")
    (['0', 'no'], ['x y', 'no'])
    >>> dense_cells("{4 1}", ["0", "0", "no"], "f:7")
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.DataError: f:7: sparse entry '4 1': attribute index 4 is past the last (2; indices count from 0)
    """
    body = text.strip()
    if not body.endswith("}"):
        raise DataError(f"{where}: a sparse row must end with '}}': {body[-40:]!r}")
    cells = list(defaults)
    seen: set[int] = set()
    inner = body[1:-1]
    entries = next(csv.reader([inner], quotechar="'", skipinitialspace=True), []) if inner.strip() else []
    for entry in entries:
        match = _ENTRY.fullmatch(entry)
        if match is None:
            raise DataError(f"{where}: sparse entry {entry.strip()[:40]!r} is not 'index value'")
        index, value = int(match[1]), match[2]
        if index >= len(cells):
            raise DataError(f"{where}: sparse entry {entry.strip()[:40]!r}: attribute index {index} is past the last "
                            f"({len(cells) - 1}; indices count from 0)")
        if index in seen:
            raise DataError(f"{where}: sparse entry {entry.strip()[:40]!r}: attribute {index} is given twice")
        if value == "?":
            raise DataError(f"{where}: a missing value '?' (attribute index {index}): the perceptron needs every "
                            "value")
        seen.add(index)
        cells[index] = value[1:-1] if len(value) > 1 and value[0] == value[-1] and value[0] in "'\"" else value
    return cells
