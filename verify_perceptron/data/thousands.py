"""Numbers written with a thousands separator (``1,234.5``; ``1.234,5`` under decimal commas; ``1 234,5`` and
``1'234.5`` as French and Swiss locales write them), read as the number when asked (``--thousands``,
``thousands=`` in Python, as pandas' ``read_csv(thousands=",")``).

Only a cell whose groups are exactly three digits after a first group of one to three is read so
(``12,345,678``); any other cell is left as it is, for the number parser to read or refuse by name
(``1,23`` is not ``123``: it may be a decimal comma, and reading it either way could be wrong)."""

from __future__ import annotations

import functools
import re

from ..errors import DataError

__all__ = ["THOUSANDS_NAMES", "check_thousands", "ungrouped"]

#: What ``--thousands`` accepts, and the separator each names (``space`` stands for a space, a no-break space
#: and a narrow no-break space alike, as French locales write them).
THOUSANDS_NAMES: dict[str, str] = {",": ",", "comma": ",", ".": ".", "point": ".", "'": "'", "apostrophe": "'",
                                   " ": " ", "space": " ", "_": "_", "underscore": "_"}
#: The characters a ``space`` separator matches.
_SPACES = " \u00a0\u202f"


def check_thousands(thousands: object, decimal: str, path: str) -> str | None:
    """The separator `thousands` names (None: none), else a `DataError` naming it; it may not be the decimal mark.

    Examples
    --------
    >>> check_thousands("comma", ".", "f"), check_thousands(None, ".", "f"), check_thousands(".", ",", "f")
    (',', None, '.')
    >>> check_thousands(",", ",", "f")
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.DataError: f: thousands=',' is also the decimal mark (--decimal-comma): a number such as 1,234 could be read two ways
    >>> check_thousands("#", ".", "f")
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.DataError: f: thousands='#' must be one of , . ' space _ (or comma, point, apostrophe, underscore)
    """
    if thousands is None:
        return None
    sep = THOUSANDS_NAMES.get(thousands) if isinstance(thousands, str) else None
    if sep is None:
        shown = repr(thousands) if isinstance(thousands, str) and len(thousands) <= 20 else type(thousands).__name__
        raise DataError(f"{path}: thousands={shown} must be one of , . ' space _ (or comma, point, apostrophe, "
                        "underscore)")
    if sep == decimal:
        raise DataError(f"{path}: thousands={sep!r} is also the decimal mark"
                        f"{' (--decimal-comma)' if decimal == ',' else ''}: a number such as 1{sep}234 could be read "
                        "two ways")
    return sep


@functools.lru_cache(maxsize=None)  # made when first asked for: never at import, once each
def _grouped(sep: str, decimal: str) -> re.Pattern[str]:
    """A number whose integer part is grouped by `sep` in threes, with an optional fraction after `decimal` and
    an exponent (each part fixed or a class repeated: linear)."""
    mark = f"[{re.escape(_SPACES)}]" if sep == " " else re.escape(sep)
    return re.compile(rf"\s*[+-]?\d{{1,3}}(?:{mark}\d{{3}})+(?:{re.escape(decimal)}\d*)?(?:[eE][+-]?\d+)?\s*")


def ungrouped(cell: str, sep: str, decimal: str = ".") -> str:
    """`cell` without its thousands separators `sep` when it is a number grouped in threes; else as it is.

    Examples
    --------
    >>> ungrouped("1,234.5", ","), ungrouped("-12,345,678", ","), ungrouped("1,23", ","), ungrouped("x,y", ",")
    ('1234.5', '-12345678', '1,23', 'x,y')
    >>> ungrouped("1.234,5", ".", ","), ungrouped("1\u202f234,5", " ", ","), ungrouped("1'234.5e3", "'")
    ('1234,5', '1234,5', '1234.5e3')
    >>> ungrouped("12", ","), ungrouped("1234,567", ",")
    ('12', '1234,567')
    """
    if not _grouped(sep, decimal).fullmatch(cell):
        return cell
    for mark in (_SPACES if sep == " " else sep):
        cell = cell.replace(mark, "")
    return cell
