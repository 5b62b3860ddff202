"""CSV files read exactly: header detection, the label column, and two paths to
one result: a fast one for plain decimals and a general one that names every
bad cell by line and column."""

from __future__ import annotations

import csv
import io
import math
import operator
import re
import shlex
from collections.abc import Callable, Iterator, Sequence
from typing import NoReturn

import numpy as np

from ..errors import DataError
from .thousands import check_thousands, ungrouped
from .files import check_encoding, check_max_cells, read_text, refuse_cells, refuse_foreign
from .delimiters import as_commas, as_points, excel_separator, find_delimiter
from ._labels import label_key, map_labels, positive_key
from .dataset import Dataset
from . import kernel as _kernel
from .denominators import MAX_DENOMINATOR_BITS, check_limit, over_common_denominator, parse_cells, read_table
from .rationals import is_missing, rational_parts, shown
from .csv_stream import stream_csv
from .csv_layout import LABEL_NAMES, _is_header, _layout, _Layout, _pandas_numbers
from .row_index import check_index_column

__all__ = ["LABEL_NAMES", "csv_text", "load_csv"]


def load_csv(path: str, *, label_column: str | int | None = None, positive: object = None,
             delimiter: str | None = None, max_denominator_bits: int = MAX_DENOMINATOR_BITS,
             max_cells: int | None = None, index_column: str = "auto", decimal: str = ".",
             encoding: str | None = None, thousands: str | None = None) -> Dataset:
    """Read a CSV file exactly.

    The first row is a header when none of its cells is a number, or when
    one of them names a label column (``label``, ``y``, ``target``,
    ``class``). The label column is ``label_column`` (a name or a 1-based
    index), else the first recognised name, else the last column. With
    `index_column` ``"auto"`` a first column whose header cell is empty (as
    pandas' ``to_csv`` and R's ``write.csv`` write their row labels), named
    ``Unnamed: 0``, or missing from a header one cell short, is the row
    index: left out of the data, and the dataset says so (`Dataset.row_index`;
    the rule: `verify_perceptron.data.row_index`); ``"drop"`` takes column 1
    as the index whatever its header, ``"keep"`` reads it as a feature. Column
    numbers (`label_column`, messages) count every column of the file. Blank lines
    and lines starting with ``#`` are skipped. Cells are separated by commas,
    semicolons, tabs, vertical bars or white space, found from the first lines, or by
    `delimiter` (``","``, ``";"``, ``"tab"``, ``"|"``, ``"whitespace"``). With
    `decimal` ``","`` numbers are written with a decimal comma (``5,1``), as
    European spreadsheets and pandas' ``decimal=","`` write them, and a point in
    a number is refused (a thousands separator). The values
    are stored over their least common denominator, which may have at most
    `max_denominator_bits` bits; the file may hold at most `max_cells` values
    (samples times features; by default what the available memory holds, `verify_perceptron.data.memory`).
    The text is UTF-8 (UTF-16 or UTF-32 where a byte-order mark says so), or `encoding` where given
    (``"cp1252"`` for what Excel saves as "CSV (Comma delimited)" on Western Windows). With `thousands` (``","``,
    ``"."``, ``"'"``, ``"space"``, ``"_"``) a number grouped by it in threes (``"1,234.5"``) is read as the
    number (`verify_perceptron.data.thousands`); without it, such a cell is refused by a message naming it.

    Raises
    ------
    DataError
        On a ragged row, a cell that is not a finite rational literal, an
        empty file, one class only, more than two label values, or a common
        denominator past `max_denominator_bits` (naming the first value that
        takes it there), or more values than `max_cells`.
    """
    # (a default limit is read from the machine's memory only where it is needed: `stream_csv` asks for it past
    # MIN_CELLS cells, the general reader always)
    limit, given = check_limit(max_denominator_bits), None if max_cells is None else check_max_cells(max_cells)
    index_column = check_index_column(index_column, path)
    if label_column is not None and not isinstance(label_column, str):
        if isinstance(label_column, bool) or not isinstance(label_column, int):
            raise DataError(f"{path}: label_column={label_column!r} must be a column name or a 1-based number")
        label_column = str(label_column)  # a 1-based number, as --label-column spells it
    refuse_foreign(path)  # a .csv.gz, a workbook, JSON: named, with how to make a CSV of it
    grouped = check_thousands(thousands, decimal, path)
    plain = decimal == "." and grouped is None and check_encoding(encoding) in (None, "utf-8-sig")
    streamed = None if not plain else stream_csv(path, label_column=label_column, positive=positive, delimiter=delimiter, max_bits=limit,
                          max_cells=given, index_column=index_column)
    if streamed is not None:  # the plain case, read in blocks; everything else (and every error) below
        return streamed
    cap = check_max_cells(given)
    text = read_text(path, cap, encoding)
    # Comment lines go before the CSV parser sees them (a quote in a comment must not swallow
    # the rows after it); an empty line keeps the line numbers right.
    if "#" in text:
        text = "\n".join("" if line.lstrip().startswith("#") else line for line in text.split("\n"))
    declared, text = excel_separator(text, path)  # Excel's "sep=;" line: the separator, when none was given
    separator = find_delimiter(text, delimiter or declared, path, decimal)
    if decimal != "." or grouped is not None:  # the general reader sees the cells one by one
        return _general_csv(text, path, label_column, positive, separator, limit, cap, index_column, decimal,
                            grouped)
    commas = as_commas(text, separator)
    if commas is None:  # commas or quotes inside cells: the csv module splits on the separator itself
        return _general_csv(text, path, label_column, positive, separator, limit, cap, index_column)
    quick = _fast_csv(commas, path, label_column, positive, limit, cap, index_column)
    return quick if quick is not None else _general_csv(commas, path, label_column, positive, ",", limit, cap,
                                                        index_column)


def _refuse_ambiguous_names(path: str, header: Sequence[str], target: int, rows: list[tuple[int, list[str]]]) -> None:
    """A first row 0, 1, ..., m-1 read as pandas' column names drops a sample if it was data: refuse the file
    when its label cell is also one of the labels below it (then it could be either)."""
    if not header[target].strip().isdigit():
        return  # R's write.table: the header one short, its cells one column on
    name = int(header[target])

    def same(cell: str) -> bool:  # as numbers: a label written 2.0 is the sample's label 2
        try:
            return rational_parts(cell) == (name, 1)
        except ValueError:
            return False

    if any(len(row) > target and same(row[target]) for _, row in rows):
        raise DataError(f"{path}:1: the first row (0, 1, ..., {len(header) - 1}) may be pandas' column names or a "
                        f"sample whose label is {name}, a label of other rows too: add a header row of names, or "
                        "write the file with the DataFrame's index (df.to_csv(path))")


def csv_text(text: str, path: str, label_column: str, positive: object, max_bits: int, max_cells: int) -> Dataset:
    """The dataset in `text`, comma-separated with a header row, read by the general reader with
    `label_column` (a name or a 1-based number) for the labels and no row index; errors name `path` and the
    line of `text` (the ARFF reader's rows, `verify_perceptron.data.arff_files`)."""
    return _general_csv(text, path, label_column, positive, ",", max_bits, max_cells, "keep")


def _general_csv(text: str, path: str, label_column: str | None, positive: object,
                 separator: str | None = ",", max_bits: int = MAX_DENOMINATOR_BITS,
                 max_cells: int | None = None, index_column: str = "auto", decimal: str = ".",
                 thousands: str | None = None) -> Dataset:
    """Any CSV: the csv module's parser and one exact literal per cell, each error named; with `thousands` a
    number's separators between groups taken out (`ungrouped`), with `decimal` ``","`` each number's comma read
    as a point (`as_points`); the header row's names as they are."""
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
    header: list[str] | None = None
    if thousands is not None:
        rows = [(line, [ungrouped(c, thousands, decimal) for c in row]) for line, row in rows]
    if decimal != ".":
        rows = [(line, [as_points(c, f"{path}:{line}") for c in row]) for line, row in rows]
    if decimal != "." or thousands is not None:  # the header row (names, also once its numbers are read) as it was
        first = first if _is_header(rows[0][1], label_column) else rows[0][1]
    if _is_header(first, label_column):
        header = [c.strip() for c in first]
        rows = rows[1:]
        if not rows:
            raise DataError(f"{path}: only a header line, no data rows")
    layout = _layout(header, len(rows[0][1]), label_column, index_column, path, rows[0][0], rows[0][1])
    width, features = layout.width, layout.features
    if layout.header is not None and _pandas_numbers(first) == "bare":
        _refuse_ambiguous_names(path, layout.header, layout.target, rows)
    m = len(features)
    refuse_cells(path, f"{len(rows)} x {m} values", len(rows) * m, max_cells)

    unnamed = range(width - layout.unnamed_tail, width)

    def cells() -> Iterator[str]:  # row by row, so a ragged row is named before the cells after it are read
        for line, row in rows:
            if len(row) != width:
                spans = f" (a quote opened on this line runs to line {ends[line]})" if line in ends else ""
                raise DataError(f"{path}:{line}: ragged row: {len(row)} cells, expected {width}{spans}")
            held = next((j for j in unnamed if row[j].strip()), None)
            if held is not None:  # an unnamed trailing column is read only where it is empty: never lost data
                value = shown(row[held].strip())
                if layout.header is not None:
                    raise DataError(f"{path}:{line}: column {held + 1} has no name in the header but holds {value}: "
                                    "name it in the header, or leave it empty")
                raise DataError(f"{path}:{line}: column {held + 1} is empty on line {rows[0][0]} (read as a trailing "
                                f"separator there) but holds {value}: fill it on every row, or on none")
            yield from (row[j] for j in features)

    def cell_text(k: int) -> str:
        return rows[k // m][1][features[k % m]]

    lines = [line for line, _ in rows]
    place, fail = _cell_places(path, layout.header, features, label_column, lines, cell_text)
    nums, dens = parse_cells(cells(), fail)
    raw_labels = [row[layout.target] for _, row in rows]
    if label_column is None:
        _suggest_label_column(raw_labels, [row[features[0]] for _, row in rows], layout, path, lines, positive)
    return _dataset(nums, dens, len(rows), place, max_bits, raw_labels, lines, positive, path, layout, max_cells)


def _suggest_label_column(raw_labels: list[str], first: list[str], layout: _Layout, path: str,
                          lines: Sequence[int], positive: object = None) -> None:
    """Labels in the last column with more than two values, where the first feature column holds exactly two (as
    a file written label first does): the `DataError` of the labels, saying which ``--label-column`` would help.
    A `positive` among the labels' values is one class against the rest (the fast readers take it so too)."""
    keys = {label_key(raw) for raw in dict.fromkeys(raw_labels)}
    if len(keys) <= 2 or (positive is not None and positive_key(positive, path) in keys):
        return
    if len({label_key(cell) for cell in dict.fromkeys(first)}) != 2 or "" in first:
        return
    j = layout.features[0]
    name = layout.header[j] if layout.header and layout.header[j].strip() else str(j + 1)
    try:
        map_labels(raw_labels, source=path, lines=lines)
    except DataError as error:
        raise DataError(f"{error}; column {name} holds two values: if it holds the labels, give --label-column "
                        f"{shlex.quote(name)} (label_column={name!r} in Python)") from None


#: A number with commas between groups of three digits (``1,001.5``, ``-12,345``): a thousands separator.
_THOUSANDS = re.compile(r"\s*[+-]?\d{1,3}(,\d{3})+(\.\d*)?\s*")

_Place = Callable[[int], "tuple[str, str]"]
_Fail = Callable[[int, ValueError], NoReturn]


def _cell_places(path: str, header: list[str] | None, features: Sequence[int], label_column: str | None,
                 lines: Sequence[int], cell_text: Callable[[int], str]) -> tuple[_Place, _Fail]:
    """For the flat index k of a feature cell: its place and text (`place`), and the error naming it (`fail`).

    Feature k % m is the file's column ``features[k % m]``, named by its header cell or else by its number."""
    m = len(features)

    def column(k: int) -> str:
        j = features[k % m]
        return header[j] if header and header[j] else str(j + 1)

    def place(k: int) -> tuple[str, str]:
        return f"{path}:{lines[k // m]}: column {column(k)}", cell_text(k)

    def fail(k: int, error: ValueError) -> NoReturn:
        cell = cell_text(k)
        words = label_column is None and not any(c.isdigit() for c in cell) and any(c.isalpha() for c in cell)
        hint = f" (if it holds the labels: --label-column {shlex.quote(column(k))})" if words else ""
        if is_missing(cell):  # NA, NaN, an empty cell: not a label column's word
            hint = " (missing values: drop or fill those rows first, as pandas' dropna() or fillna() do)"
        elif _THOUSANDS.fullmatch(cell):
            hint = (f" (a thousands separator? give --thousands , (thousands=',' in Python), or write it "
                    f"{cell.strip().replace(',', '')})")
        if re.fullmatch(r"\s*[+-]?\d+,\d+\s*", cell):  # a spreadsheet's decimal comma (a ; file): say how to read it
            hint = (f" (a decimal comma, {cell.strip().replace(',', '.')}? then give --decimal-comma (decimal=',' in "
                    "Python))")
        raise DataError(f"{path}:{lines[k // m]}: column {column(k)}: {error}{hint}") from None

    return place, fail


def _dataset(nums: object, dens: object, n: int, place: _Place, max_bits: int, raw_labels: list[str],
             lines: Sequence[int], positive: object, path: str, layout: _Layout,
             max_cells: int | None = None) -> Dataset:
    """The Dataset of flat cells (numerators, denominators) in `n` rows, with its labels and names."""
    scaled, denominator = over_common_denominator(nums, dens, max_bits=max_bits, where=place, max_cells=max_cells,
                                                  source=path)
    y, spelling = map_labels(raw_labels, positive=positive, source=path, lines=lines)
    return Dataset(y=y, source=path, feature_names=layout.names, labels=spelling,
                   numerators=scaled.reshape(n, -1), denominator=denominator, row_index=layout.index)


# --- the fast path: one comma between cells ------------------------------------------------------------

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


def _fast_csv(text: str, path: str, label_column: str | None, positive: object,
              max_bits: int = MAX_DENOMINATOR_BITS, max_cells: int | None = None,
              index_column: str = "auto") -> Dataset | None:
    """The common case at C speed, exactly: one comma between cells, no quotes, no gaps, no ragged row.

    The cells are read by the C reader into integers (``read_table``); where
    it is not built, plain decimals go through NumPy's float parser instead
    (`_plain_decimals`) and any other cell through the Python parser. A
    bad cell raises the general reader's error; a file outside this case
    returns None and goes through the general reader.
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
    if not first[-1] or (has_header and _pandas_numbers(first) == "bare"):
        return None  # the general reader sees whether the first row could be a sample, or an unnamed last column
    body_start = start + 1 if has_header else start
    body = lines[body_start:]
    if not body:
        return None
    try:
        layout = _layout(first if has_header else None, body[0].count(",") + 1, label_column, index_column, path,
                         body_start + 1)
    except DataError:
        return None  # the general reader raises it
    m = len(layout.features)
    if len(body) * m > check_max_cells(max_cells):
        return None  # the general reader refuses it, naming the shape
    skipped = len(layout.index.columns) if layout.index else 0
    if skipped:  # the row index is cut off each line: the readers below see the columns after it
        parts = [line.split(",", skipped) for line in body]
        if any(len(cells) <= skipped for cells in parts):
            return None
        body = [cells[skipped] for cells in parts]
        del parts
        body_text = "\n".join(body)
    else:
        offset = sum(len(line) + 1 for line in lines[:body_start])
        body_text = text[offset:offset + sum(map(len, body)) + len(body) - 1]  # "\n".join(body), not rebuilt
    width, target = layout.width - skipped, layout.target - skipped

    def cell_text(k: int) -> str:
        cells = body[k // m].split(",")
        del cells[target]
        return cells[k % m]

    numbers = list(range(body_start + 1, body_start + 1 + len(body)))
    place, fail = _cell_places(path, layout.header, layout.features, label_column, numbers, cell_text)
    plain = None
    if _kernel.rational_cells is None and set(map(operator.methodcaller("count", ","), body)) == {m}:
        features = ([line.rpartition(",")[0] for line in body] if target == m
                    else [",".join(c for j, c in enumerate(line.split(",")) if j != target) for line in body])
        plain = _plain_decimals(features, m, max_bits)
    if plain is not None:
        scaled, denominator = plain
    else:
        table = read_table(body_text, len(body), width, target, fail)
        if table is None:  # a blank or ragged line: the general reader names it
            return None
        scaled, denominator = over_common_denominator(*table, max_bits=max_bits, where=place, max_cells=max_cells,
                                                      source=path)
    if target == m:  # the usual layout: one split per line, at its last comma
        raw_labels = [line.rpartition(",")[2] for line in body]
    else:
        raw_labels = [line.split(",", target + 1)[target] for line in body]
    try:
        y, spelling = map_labels(raw_labels, positive=positive, source=path, lines=numbers)
    except DataError:
        if label_column is None:
            return None  # the general reader raises it, with a hint at --label-column where one would help
        raise
    return Dataset(y=y, source=path, feature_names=layout.names, labels=spelling,
                   numerators=scaled.reshape(len(body), m), denominator=denominator, row_index=layout.index)


def _plain_decimals(features: list[str], m: int, max_bits: int) -> tuple[np.ndarray, int] | None:
    """Plain decimals (no exponent) through NumPy's float parser, exactly; None for anything else.

    Such a cell is k/10^f with f <= s, the most fractional digits in the file.
    NumPy's float parse gives the double nearest to it, off by a relative
    2^-53 at most; times 10^s (an exact double for s <= 22) it is off from the
    integer k·10^(s-f) by less than |k|·2^-51, which is below 1/2 while the
    scaled value is below 2^49, so rounding recovers it exactly. Used where
    the C reader is not built.
    """
    text = "\n".join(features)
    if text.translate(_PLAIN_DECIMAL):  # a character beyond digits, sign, point, space
        return None
    digits = _most_fractional_digits(text)
    if digits > 15:
        return None
    try:
        values = np.loadtxt(io.StringIO(text), delimiter=",", dtype=np.float64, ndmin=2)
    except ValueError:  # "1.2.3", "--1", an empty cell: the Python parser names it
        return None
    scaled = values * 10.0**digits
    if values.shape != (len(features), m) or not bool(np.all(np.abs(scaled) < 2.0**49)):
        return None
    numerators = np.rint(scaled).astype(np.int64)
    common = math.gcd(10**digits, int(np.gcd.reduce(numerators, axis=None)))
    if (10**digits // common).bit_length() > max_bits:  # the exact reader names the value
        return None
    return numerators // common, 10**digits // common
