"""Which leading columns of a table with a header are its row index, not features: pandas' and R's row labels.

``df.to_csv(path)`` (pandas' default) writes the DataFrame's index as a first
column whose header cell is empty; R's ``write.csv`` writes ``""`` there and
its row names below it, and R's ``write.table`` leaves the header one cell
short. Read back without ``index_col`` (pandas) that column is named
``Unnamed: 0``. Such a column holds row labels, which may order or even
separate the classes (rows 50..149 after a filter): read as a feature it
changes the data set, and with it the verdict. The rule (`index_columns`),
for ``index_column="auto"``:

- a table without a header has no index (nothing says which column would be);
- a header one cell shorter than the rows leaves the first column unnamed: it
  is the index (as pandas' ``read_csv`` and R's ``read.table`` read it);
- otherwise the leading columns whose header cell is empty or pandas' name
  for an empty one (``Unnamed: N``) are the index, whatever they hold
  (numbers, R's quoted row names, repeated labels after a ``concat``): the
  values are never read;
- the label column is never the index, however it is named.

``"drop"`` takes column 1 as the index whatever its header (an ``id``
column), in a file without a header too; ``"keep"`` reads every column as
data.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import DataError

__all__ = ["INDEX_COLUMN_CHOICES", "RowIndex", "check_index_column", "index_columns"]

#: What ``--index-column`` and ``index_column=`` accept.
INDEX_COLUMN_CHOICES = ("auto", "drop", "keep")

#: pandas' name for a column whose header cell was empty (``read_csv`` of an index written by ``to_csv``).
_PANDAS_UNNAMED = re.compile(r"Unnamed: [0-9]+")


@dataclass(frozen=True)
class RowIndex:
    """The leading columns read as the row index and left out: their 1-based numbers and header cells.

    Examples
    --------
    >>> RowIndex((1,), ("",)).description
    'column 1 (unnamed) read as the row index and left out'
    >>> RowIndex((1, 2), ("", "Unnamed: 0")).description
    "columns 1-2 (unnamed, 'Unnamed: 0') read as the row index and left out"
    """

    columns: tuple[int, ...]
    names: tuple[str, ...]

    @property
    def description(self) -> str:
        """One phrase for the report's data line."""
        names = ", ".join(f"'{name}'" if name.strip() else "unnamed" for name in self.names)
        where = (f"column {self.columns[0]}" if len(self.columns) == 1
                 else f"columns {self.columns[0]}-{self.columns[-1]}")
        return f"{where} ({names}) read as the row index and left out"

    def as_dict(self) -> dict[str, list[int] | list[str]]:
        """The JSON report's ``dataset.row_index``."""
        return {"columns": list(self.columns), "names": list(self.names)}


def check_index_column(index_column: object, source: str = "") -> str:
    """`index_column` when it is one of `INDEX_COLUMN_CHOICES`, else `DataError` naming it.

    Examples
    --------
    >>> check_index_column("keep")
    'keep'
    >>> check_index_column("yes", "d.csv")
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.DataError: d.csv: index_column='yes' must be one of auto, drop, keep
    """
    if not isinstance(index_column, str) or index_column not in INDEX_COLUMN_CHOICES:
        where = f"{source}: " if source else ""
        raise DataError(f"{where}index_column={index_column!r} must be one of {', '.join(INDEX_COLUMN_CHOICES)}")
    return index_column


def _unnamed(cell: str) -> bool:
    text = cell.strip()
    return not text or _PANDAS_UNNAMED.fullmatch(text) is not None


def index_columns(header: Sequence[str] | None, label: int, index_column: str, source: str) -> RowIndex | None:
    """The row index among the leading columns, by the module's rule; None when there is none.

    `header` is the header's cells (None without one), padded with an empty
    first cell where it was one cell short; `label` is the 0-based label
    column, which is never the index.

    Examples
    --------
    >>> index_columns(["", "x", "label"], 2, "auto", "d.csv")
    RowIndex(columns=(1,), names=('',))
    >>> index_columns(["id", "x", "label"], 2, "auto", "d.csv") is None
    True
    >>> index_columns(["id", "x", "label"], 2, "drop", "d.csv").columns
    (1,)
    >>> index_columns(None, 2, "auto", "d.csv") is None, index_columns(["", "x", "y"], 2, "keep", "d.csv") is None
    (True, True)
    """
    if index_column == "keep":
        return None
    count = 0
    if header is not None:
        while count < len(header) and count != label and _unnamed(header[count]):
            count += 1
    if index_column == "drop" and count == 0:
        if label == 0:
            raise DataError(f"{source}: --index-column drop (index_column='drop') takes column 1 as the row index, "
                            "but column 1 is the label column")
        count = 1
    if count == 0:
        return None
    names = tuple(header[:count]) if header is not None else ("",) * count
    return RowIndex(tuple(range(1, count + 1)), names)
