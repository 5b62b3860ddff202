"""CSV files read exactly: header detection, the label column, and two paths to
one result: a fast one for plain decimals and a general one that names every
bad cell by line and column."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from ..errors import DataError
from .files import COLUMN_NUMBER, MAX_CELLS, read_text
from .delimiters import as_commas, find_delimiter
from ._labels import map_labels
from .dataset import Dataset
from .rationals import parse_rational

__all__ = ["LABEL_NAMES", "load_csv"]

#: Column names recognised as the label column of a CSV file, in this order.
LABEL_NAMES = ("label", "y", "target", "class")


def load_csv(path: str, *, label_column: str | None = None, positive: str | None = None,
             delimiter: str | None = None) -> Dataset:
    """Read a CSV file exactly.

    The first row is a header when none of its cells is a number, or when
    one of them names a label column (``label``, ``y``, ``target``,
    ``class``). The label column is ``label_column`` (a name or a 1-based
    index), else the first recognised name, else the last column. Blank lines
    and lines starting with ``#`` are skipped. Cells are separated by commas,
    semicolons, tabs or white space, found from the first lines, or by
    `delimiter` (``","``, ``";"``, ``"tab"``, ``"whitespace"``).

    Raises
    ------
    DataError
        On a ragged row, a cell that is not a finite rational literal, an
        empty file, one class only or more than two label values.
    """
    if label_column is not None and not isinstance(label_column, str):
        if isinstance(label_column, bool) or not isinstance(label_column, int):
            raise DataError(f"{path}: label_column={label_column!r} must be a column name or a 1-based number")
        label_column = str(label_column)  # a 1-based number, as --label-column spells it
    text = read_text(path)
    # Comment lines go before the CSV parser sees them (a quote in a comment must not swallow
    # the rows after it); an empty line keeps the line numbers right.
    text = "\n".join("" if line.lstrip().startswith("#") else line for line in text.split("\n"))
    separator = find_delimiter(text, delimiter, path)
    commas = as_commas(text, separator)
    if commas is None:  # commas or quotes inside cells: the csv module splits on the separator itself
        return _general_csv(text, path, label_column, positive, separator)
    quick = _fast_csv(commas, path, label_column, positive)
    return quick if quick is not None else _general_csv(commas, path, label_column, positive)


def _is_number(cell: str) -> bool:
    """Whether `cell` is a rational literal (so a row holding one is data, not a header)."""
    try:
        parse_rational(cell)
    except ValueError:
        return False
    return True


def _label_column(header: list[str] | None, width: int, label_column: str | None, path: str) -> int:
    """The 0-based label column: `label_column` by name or number, else a known name, else the last."""
    names = [h.strip().lower() for h in header] if header else []
    if label_column is not None:
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
    for name in LABEL_NAMES:
        if name in names:
            return names.index(name)
    return width - 1


def _is_header(first: Sequence[str], label_column: str | None) -> bool:
    """The first row is a header when none of its cells is a number, or one names the label column."""
    lowered = {c.strip().lower() for c in first}
    names_label = (
        label_column is not None
        and not COLUMN_NUMBER.fullmatch(label_column.strip())
        and label_column.strip().lower() in lowered
    )
    return not any(_is_number(c) for c in first) or names_label or bool(lowered & set(LABEL_NAMES))


def _general_csv(text: str, path: str, label_column: str | None, positive: str | None,
                 separator: str | None = ",") -> Dataset:
    """Any CSV: the csv module's parser and one exact literal per cell, each error named."""
    csv.field_size_limit(2**31 - 1)  # a huge cell is the number parser's to refuse, by name
    reader = csv.reader(io.StringIO(text), delimiter=separator or " ", skipinitialspace=separator is None)
    rows: list[tuple[int, list[str]]] = []
    ends: dict[int, int] = {}  # a record's first line -> its last, where a quoted cell spans lines
    while True:
        start = reader.line_num + 1  # errors name the line a record starts on, not where it ends
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as error:
            raise DataError(f"{path}:{start}: not valid CSV ({error})") from None
        if not row or all(not c.strip() for c in row):  # blank (comment lines were blanked above)
            continue
        rows.append((start, row))
        if reader.line_num > start:
            ends[start] = reader.line_num
    if not rows:
        raise DataError(f"{path}: empty file: no data rows")
    first = rows[0][1]
    if _is_header(first, label_column):
        header: list[str] | None = [c.strip() for c in first]
        rows = rows[1:]
        if not rows:
            raise DataError(f"{path}: only a header line, no data rows")
    else:
        header = None
    width = len(header) if header else len(rows[0][1])
    if width < 2:
        raise DataError(f"{path}:{rows[0][0]}: one column only; a feature and a label are needed")
    target = _label_column(header, width, label_column, path)
    if len(rows) * (width - 1) > MAX_CELLS:
        raise DataError(f"{path}: {len(rows)} x {width - 1} values exceed the limit of {MAX_CELLS} cells")
    X: list[tuple[Fraction, ...]] = []
    raw_labels: list[str] = []
    lines: list[int] = []
    for line, row in rows:
        if len(row) != width:
            spans = f" (a quote opened on this line runs to line {ends[line]})" if line in ends else ""
            raise DataError(f"{path}:{line}: ragged row: {len(row)} cells, expected {width}{spans}")
        features = []
        for j, cell in enumerate(row):
            if j == target:
                continue
            try:
                features.append(parse_rational(cell))
            except ValueError as error:
                column = header[j] if header else str(j + 1)
                words = label_column is None and not any(c.isdigit() for c in cell) and any(c.isalpha() for c in cell)
                hint = f" (if it holds the labels: --label-column {column})" if words else ""
                raise DataError(f"{path}:{line}: column {column}: {error}{hint}") from None
        X.append(tuple(features))
        raw_labels.append(row[target])
        lines.append(line)
    y, spelling = map_labels(raw_labels, positive=positive, source=path, lines=lines)
    names = tuple(h for j, h in enumerate(header) if j != target) if header else ()
    return Dataset(X=tuple(X), y=y, source=path, feature_names=names, labels=spelling)


# --- the fast path: plain decimals ------------------------------------------------------------

#: Deletes the characters a plain decimal cell may hold (and the separators between cells).
_PLAIN_DECIMAL = str.maketrans("", "", "0123456789+-. \t,\n")


def _most_fractional_digits(text: str) -> int:
    """The largest number of digits after a decimal point in `text` (at most 16 is looked for)."""
    low, high = 0, 16  # invariant: some point has >= low digits after it; none has >= high + 1
    if re.search(r"\.[0-9]{17}", text):
        return 17
    while low < high:
        middle = (low + high + 1) // 2
        if re.search(r"\.[0-9]{%d}" % middle, text):
            low = middle
        else:
            high = middle - 1
    return low


def _fast_csv(text: str, path: str, label_column: str | None, positive: str | None) -> Dataset | None:
    """The common case at C speed, exactly: plain decimals (no exponent, no quotes, no gaps).

    Such a cell is m/10^f with f <= s, the most fractional digits in the file.
    NumPy's float parse gives the double nearest to it, off by a relative
    2^-53 at most; times 10^s (an exact double for s <= 22) it is off from the
    integer m·10^(s-f) by less than |m|·2^-51, which is below 1/2 while the
    scaled value is below 2^49, so rounding recovers it exactly. Whatever
    falls outside this case returns None and goes through the general reader.
    """
    if '"' in text:
        return None
    lines = text.split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    start = next((i for i, line in enumerate(lines) if line.strip()), None)
    if start is None:
        return None
    first = [c.strip() for c in lines[start].split(",")]
    has_header = _is_header(first, label_column)
    header = first if has_header else None
    body_start = start + 1 if has_header else start
    body = lines[body_start:]
    width = len(first)
    if not body or width < 2 or any(not line.strip() for line in body):
        return None
    try:
        target = _label_column(header, width, label_column, path)
    except DataError:
        return None
    if len(body) * (width - 1) > MAX_CELLS:
        return None
    if any(line.count(",") != width - 1 for line in body):  # ragged: the general reader names the line
        return None
    if target == width - 1:  # the usual layout: split each line once, at its last comma
        parts = [line.rpartition(",") for line in body]
        raw_labels = [p[2] for p in parts]
        features = "\n".join([p[0] for p in parts])
    else:
        rows = [line.split(",") for line in body]
        if any(len(row) != width for row in rows):
            return None
        raw_labels = [row[target] for row in rows]
        features = "\n".join(",".join(c for j, c in enumerate(row) if j != target) for row in rows)
    if features.translate(_PLAIN_DECIMAL):  # a character beyond digits, sign, point, space
        return None
    digits = _most_fractional_digits(features)
    if digits > 15:
        return None
    columns = [j for j in range(width) if j != target]
    try:
        values = np.loadtxt(io.StringIO("\n".join(body)), delimiter=",", usecols=columns, dtype=np.float64, ndmin=2)
    except ValueError:  # "1.2.3", "--1", an empty cell: the general reader names it
        return None
    scaled = values * 10.0**digits
    if values.shape != (len(body), width - 1) or not bool(np.all(np.abs(scaled) < 2.0**49)):
        return None
    numerators = np.rint(scaled).astype(np.int64)
    line_numbers = list(range(body_start + 1, body_start + 1 + len(body)))
    y, spelling = map_labels(raw_labels, positive=positive, source=path, lines=line_numbers)
    names = tuple(h for j, h in enumerate(header) if j != target) if header else ()
    return Dataset(y=y, source=path, feature_names=names, labels=spelling,
                   numerators=numerators, denominator=10**digits)
