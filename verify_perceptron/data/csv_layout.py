"""A CSV file's layout, read off its first lines: whether the first row is a header, which column holds the
labels, which leading columns are the row index, and the file column of each feature. Both CSV readers
(`verify_perceptron.data.csv_files` and the streaming `verify_perceptron.data.csv_stream`) use it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import DataError
from .files import COLUMN_NUMBER
from .rationals import parse_rational
from .row_index import RowIndex, index_columns

__all__ = ["LABEL_NAMES", "is_number"]

#: Column names recognised as the label column of a CSV file, in this order.
LABEL_NAMES = ("label", "y", "target", "class")


def is_number(cell: str) -> bool:
    """Whether `cell` is a rational literal (so a row holding one is data, not a header)."""
    try:
        parse_rational(cell)
    except ValueError:
        return False
    return True


def named_column(header: list[str] | None, width: int, label_column: str, path: str) -> int:
    """The 0-based index of the column `label_column` names: a header's name (any case), else a 1-based number
    (negative from the end).

    Examples
    --------
    >>> named_column(["a", "Class"], 2, "class", "t"), named_column(None, 3, "1", "t"), named_column(None, 3, "-1", "t")
    (1, 0, 2)
    >>> named_column(["a", "b"], 2, "c", "t")
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.DataError: t: --label-column 'c' is not a column name (columns: a, b)
    """
    names = [h.strip().lower() for h in header] if header else []
    if label_column.strip().lower() in names:
        return names.index(label_column.strip().lower())
    if COLUMN_NUMBER.fullmatch(label_column.strip()):
        index = int(label_column)
        if 1 <= index <= width:
            return index - 1
        if -width <= index <= -1:
            return width + index
        raise DataError(f"{path}: --label-column {label_column} is outside columns 1..{width}")
    known = ", ".join(header) if header else "none: the file has no header"
    raise DataError(f"{path}: --label-column {label_column!r} is not a column name (columns: {known})")


def _label_column(header: list[str] | None, width: int, label_column: str | None, path: str) -> int:
    """The 0-based label column: `label_column` by name or number, else a known name, else the last."""
    if label_column is not None:
        return named_column(header, width, label_column, path)
    names = [h.strip().lower() for h in header] if header else []
    for name in LABEL_NAMES:
        if name in names:
            return names.index(name)
    return width - 1


def _is_header(first: Sequence[str], label_column: str | None) -> bool:
    """The first row is a header when none of its cells is a number, or one names the label column, or it is
    pandas' default column names (`_pandas_numbers`)."""
    lowered = {c.strip().lower() for c in first}
    names_label = (
        label_column is not None
        and not COLUMN_NUMBER.fullmatch(label_column.strip())
        and label_column.strip().lower() in lowered
    )
    return (not any(is_number(c) for c in first) or names_label or bool(lowered & set(LABEL_NAMES))
            or _pandas_numbers(first) is not None)


def _pandas_numbers(first: Sequence[str]) -> str | None:
    """How a first row is pandas' default column names, ``0, 1, ..., m-1`` (``pd.DataFrame(X).to_csv(path)``):
    ``"indexed"`` after an empty cell (the index's: no data row has an empty cell, so it is surely a header),
    ``"bare"`` without one and m >= 3 (``index=False``: the label cell m-1 >= 2 is then no 0/1 or ±1 label, and
    `_general_csv` refuses the file where it is one of the data's labels); else None.

    Examples
    --------
    >>> _pandas_numbers(["", "0", "1"]), _pandas_numbers(["0", "1", "2"]), _pandas_numbers(["0", "1"])
    ('indexed', 'bare', None)
    """
    cells = [c.strip() for c in first]
    indexed = bool(cells) and cells[0] == ""
    names = cells[1:] if indexed else cells
    if len(names) < (1 if indexed else 3) or names != [str(j) for j in range(len(names))]:
        return None
    return "indexed" if indexed else "bare"


@dataclass(frozen=True)
class _Layout:
    """Which of a CSV file's columns hold what: `width` cells a row (the header padded where it is one short),
    the label column `target`, the row `index` (leading columns left out), and the file column of each feature."""

    header: list[str] | None
    width: int
    target: int
    index: RowIndex | None
    features: tuple[int, ...]
    #: Trailing columns with no name in the header (a spreadsheet's trailing separators): read by nobody, and
    #: refused by the reader where a row holds anything in them.
    unnamed_tail: int = 0

    @property
    def names(self) -> tuple[str, ...]:
        """The features' names (none without a header)."""
        return tuple(self.header[j] for j in self.features) if self.header else ()


def _layout(header: list[str] | None, data_width: int, label_column: str | None, index_column: str, path: str,
            line: int, first_row: Sequence[str] | None = None) -> _Layout:
    """The layout of a file whose header cells are `header` (None: no header) and whose first data row
    (file line `line`) has `data_width` cells: `first_row`'s, when given, which lets trailing columns with
    no name (or no header at all) and no value there be left out (`_Layout.unnamed_tail`); an unnamed last
    column that holds values (the labels, unnamed) is read as before."""
    if header is not None and data_width == len(header) + 1:
        header = ["", *header]  # R's write.table: no header cell over the row names
    width = len(header) if header is not None else data_width
    if width < 2:
        raise DataError(f"{path}:{line}: one column only; a feature and a label are needed")
    tail = 0
    while (first_row is not None and width - tail > 2 and len(first_row) == width
           and (header is None or not header[width - tail - 1].strip()) and not first_row[width - tail - 1].strip()):
        tail += 1  # "x1,x2,y,,": the separators a spreadsheet leaves after the last named column (or "1,2,1,")
    used = header[:width - tail] if header is not None else None
    target = _label_column(used, width - tail, label_column, path)
    index = index_columns(used, target, index_column, path)
    skipped = len(index.columns) if index else 0
    features = tuple(j for j in range(skipped, width - tail) if j != target)
    if not features:
        assert index is not None  # (width >= 2: without an index some column is a feature)
        raise DataError(f"{path}: no feature column: {index.description}, and column {target + 1} holds the labels; "
                        "--index-column keep (index_column='keep' in Python) reads it as a feature")
    return _Layout(header, width, target, index, features, tail)
