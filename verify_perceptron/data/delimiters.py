"""Which character separates a CSV file's cells (comma, semicolon, tab or white space), read off its lines."""

from __future__ import annotations

from ..errors import DataError

__all__ = ["DELIMITER_NAMES", "as_commas", "find_delimiter"]

#: What `--delimiter` accepts, and the separator each names (None: runs of white space).
DELIMITER_NAMES: dict[str, str | None] = {",": ",", "comma": ",", ";": ";", "semicolon": ";", "\t": "\t",
                                          "tab": "\t", "whitespace": None, "space": None}
#: How many data lines the detection reads.
_SAMPLE = 50


def find_delimiter(text: str, requested: str | None, path: str) -> str | None:
    """The separator `requested`, or the one every one of the first lines holds; None means white space.

    A comma on every line is a comma file (its reader then names a ragged row);
    a semicolon or a tab as often on every line is that (a comma among them
    is then part of a cell); no separator at all but two or more words on
    every line is white space (quoted cells too, as R's ``write.table``
    writes them). Anything else is read as commas, whose reader says what is
    wrong.

    Examples
    --------
    >>> find_delimiter("a;b;label\\n1;2;1\\n", None, "f"), find_delimiter("1 2 1\\n3  4 -1\\n", None, "f")
    (';', None)
    >>> find_delimiter('"x" "label"\\n"a 1" 2 1\\n', None, "f") is None
    True
    >>> find_delimiter("1,2,1\\n", "tab", "f")
    '\\t'
    """
    if requested is not None:
        if requested not in DELIMITER_NAMES:
            raise DataError(f"{path}: --delimiter {requested!r} is not one of {', '.join(map(repr, DELIMITER_NAMES))}")
        return DELIMITER_NAMES[requested]
    lines = [line for line in text.split("\n") if line.strip()][:_SAMPLE]
    if not lines or all("," in line for line in lines):
        return ","
    for candidate in (";", "\t"):  # the same number on every line (a comma may then be a decimal one)
        if len({line.count(candidate) for line in lines} - {0}) == 1 and all(candidate in line for line in lines):
            return candidate
    if not any(c in line for line in lines for c in ",;\t") and all(len(line.split()) >= 2 for line in lines):
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
