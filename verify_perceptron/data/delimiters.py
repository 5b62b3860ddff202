"""Which character separates a CSV file's cells (comma, semicolon, tab, vertical bar or white space), read off
its lines; and a spreadsheet's decimal commas (``5,1`` in a semicolon file), read as points when asked."""

from __future__ import annotations

import re

from ..errors import DataError
from .rationals import shown

__all__ = ["DECIMAL_MARKS", "DELIMITER_NAMES", "as_commas", "as_points", "excel_separator", "find_delimiter"]

#: What a cell's decimal mark may be: a point (``5.1``), or a comma (``5,1``) as spreadsheets in much of Europe
#: write it (pandas' ``decimal=","``, R's ``write.csv2``).
DECIMAL_MARKS = (".", ",")

#: What `--delimiter` accepts, and the separator each names (None: runs of white space).
DELIMITER_NAMES: dict[str, str | None] = {",": ",", "comma": ",", ";": ";", "semicolon": ";", "\t": "\t",
                                          "tab": "\t", "|": "|", "pipe": "|", "whitespace": None, "space": None}
#: How many data lines the detection reads.
_SAMPLE = 50
#: Excel's first line naming the separator (``sep=;``, also quoted), which Excel writes before the header and
#: reads in place of its locale's list separator. (One character between fixed ones: linear.)
_EXCEL_SEPARATOR = re.compile(r'[ \t]*"?sep=(.)"?[ \t]*', re.IGNORECASE)


def excel_separator(text: str, path: str) -> tuple[str | None, str]:
    """The separator Excel's ``sep=X`` first line names (as `--delimiter` spells it), and `text` with that line
    left empty (the lines keep their numbers); ``(None, text)`` when the first line is no such line.

    Examples
    --------
    >>> excel_separator("sep=;\\na;label\\n1,5;1\\n", "f")
    (';', '\\na;label\\n1,5;1\\n')
    >>> excel_separator("sep=\\t\\nx\\tlabel\\n", "f"), excel_separator("x,label\\n", "f")
    (('tab', '\\nx\\tlabel\\n'), (None, 'x,label\\n'))
    >>> excel_separator("sep=:\\nx:label\\n", "f")
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.DataError: f:1: Excel's separator line names ':'; cells must be separated by commas, semicolons, tabs, vertical bars or spaces
    """
    end = text.find("\n")
    first = text if end < 0 else text[:end]
    match = _EXCEL_SEPARATOR.fullmatch(first)
    if match is None:
        return None, text
    named = {",": ",", ";": ";", "\t": "tab", "|": "|", " ": "whitespace"}.get(match[1])
    if named is None:
        raise DataError(f"{path}:1: Excel's separator line names {shown(match[1])}; cells must be separated by "
                        "commas, semicolons, tabs, vertical bars or spaces")
    return named, text[len(first):]


def find_delimiter(text: str, requested: str | None, path: str, decimal: str = ".") -> str | None:
    """The separator `requested`, or the one every one of the first lines holds; None means white space.

    A comma on every line is a comma file (its reader then names a ragged row);
    a semicolon, a tab or a vertical bar (``|``, as database exports write) as
    often on every line is that (a comma among them is then part of a cell); no separator at all but two or more words on
    every line is white space (quoted cells too, as R's ``write.table``
    writes them). Anything else is read as commas, whose reader says what is
    wrong. Under decimal commas (`decimal` ``","``) a comma is never the
    separator, and a file with no other one is refused.

    Examples
    --------
    >>> find_delimiter("a;b;label\\n1;2;1\\n", None, "f"), find_delimiter("1 2 1\\n3  4 -1\\n", None, "f")
    (';', None)
    >>> find_delimiter('"x" "label"\\n"a 1" 2 1\\n', None, "f") is None
    True
    >>> find_delimiter("x|y|label\\n0.5|1|0\\n", None, "f")
    '|'
    >>> find_delimiter("1,2,1\\n", "tab", "f")
    '\\t'
    >>> find_delimiter("5,1;3,5;0\\n4,9;3;1\\n", None, "f", decimal=",")
    ';'
    """
    if decimal not in DECIMAL_MARKS:
        raise DataError(f"{path}: decimal={decimal!r} must be '.' or ','")
    if requested is not None:
        if requested not in DELIMITER_NAMES:
            raise DataError(f"{path}: --delimiter {requested!r} is not one of {', '.join(map(repr, DELIMITER_NAMES))}")
        if decimal == "," and DELIMITER_NAMES[requested] == ",":
            raise DataError(f"{path}: --delimiter , and --decimal-comma (decimal=',') together: a comma cannot both "
                            "separate cells and mark decimals")
        return DELIMITER_NAMES[requested]
    lines = [line for line in text.split("\n") if line.strip()][:_SAMPLE]
    if decimal == ",":
        return _beside_decimal_commas(lines, path)
    if not lines or all("," in line for line in lines):
        return ","
    repeated = _repeated(lines)  # (a comma among them may then be a decimal one)
    if repeated is not None:
        return repeated
    if not any(c in line for line in lines for c in ",;\t|") and all(len(line.split()) >= 2 for line in lines):
        return None
    return ","


def as_commas(text: str, delimiter: str | None) -> str | None:
    """`text` with a comma between cells, when that is a plain substitution (no comma, no quote); else None.

    Examples
    --------
    >>> as_commas("1;2;1\\n", ";"), as_commas(" 1  2 1\\n", None), as_commas("1,5;2\\n", ";")
    ('1,2,1\\n', '1,2,1\\n', None)
    """
    if delimiter == ",":
        return text
    if "," in text or '"' in text:
        return None
    if delimiter is None:
        return "\n".join(",".join(line.split()) for line in text.split("\n"))
    return text.replace(delimiter, ",")


def _repeated(lines: list[str]) -> str | None:
    """The semicolon, tab or vertical bar that every line holds, as often on each; None when none does."""
    for candidate in (";", "\t", "|"):
        if len({line.count(candidate) for line in lines} - {0}) == 1 and all(candidate in line for line in lines):
            return candidate
    return None


def _beside_decimal_commas(lines: list[str], path: str) -> str | None:
    """The separator of lines whose commas are decimal marks: a semicolon, tab or vertical bar as often on every
    line, else white space between two or more words on every line."""
    repeated = _repeated(lines)
    if repeated is not None:
        return repeated
    if lines and all(len(line.split()) >= 2 for line in lines):
        return None
    raise DataError(f"{path}: --decimal-comma (decimal=','): no separator found besides the commas; cells must be "
                    "separated by semicolons, tabs, vertical bars or spaces")


#: A number written with a decimal comma: ``5,1``, ``-0,25``, ``,5``, ``12``, ``1,5e-3``.
_COMMA_NUMBER = re.compile(r"\s*[+-]?(\d+(,\d*)?|,\d+)([eE][+-]?\d+)?\s*")
#: A number-like cell holding a point, which under decimal commas can only be a thousands separator or a typo.
_POINTED = re.compile(r"\s*[+-]?[\d,]*\.[\d.,]*([eE][+-]?\d+)?\s*")  # (the first point: linear)


def as_points(cell: str, where: str) -> str:
    """`cell` with its decimal comma as a point, when it is a number so written; other text as it is.

    A number-like cell with a point (``1.234``, ``1.234,5``) is refused: under
    decimal commas a point is a thousands separator, and reading it either way
    could be wrong by a factor of 1,000.

    Examples
    --------
    >>> as_points("5,1", "f:2"), as_points("-0,25e3", "f:2"), as_points("7", "f:2"), as_points("a,b", "f:2")
    ('5.1', '-0.25e3', '7', 'a,b')
    >>> as_points("1.234,5", "f:2")
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.DataError: f:2: '1.234,5' holds a point, but decimals are marked with a comma here (--decimal-comma): a thousands separator? give --thousands . (thousands='.' in Python), or write numbers without one
    """
    if _COMMA_NUMBER.fullmatch(cell):
        return cell.replace(",", ".")
    if any(c.isdigit() for c in cell) and _POINTED.fullmatch(cell):
        raise DataError(f"{where}: {shown(cell.strip())} holds a point, but decimals are marked with a comma here "
                        "(--decimal-comma): a thousands separator? give --thousands . (thousands='.' in Python), or "
                        "write numbers without one")
    return cell
