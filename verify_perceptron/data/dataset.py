"""Datasets, exact from the first byte: CSV, LIBSVM/svmlight and NumPy files.

A `Dataset` holds rational feature vectors and labels in {-1, +1}. Every
loader converts at the boundary, once: decimal text through
`verify_perceptron.data.rationals.parse_rational` (``"0.1"`` is 1/10), binary
floats from ``.npy``/``.npz`` through `Fraction.from_float` (and the dataset
says so in `Dataset.binary_float`). Whatever cannot be read exactly raises
`DataError` naming the file, the line and the value.
"""

from __future__ import annotations

import csv
import io
import math
import os
import re
import zipfile
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from .integers import ExactMatrix
from ..errors import DataError
from .rationals import as_rational, parse_rational, shown as _shown

__all__ = ["Dataset", "load_dataset", "load_csv", "load_libsvm", "load_numpy", "from_arrays", "LABEL_NAMES"]

#: Column names recognised as the label column of a CSV file, in this order.
LABEL_NAMES = ("label", "y", "target", "class")
_INTEGER = re.compile(r"[+-]?[0-9]{1,9}")

#: Largest dimension a sparse file may declare; a larger index is refused
#: rather than allocated.
MAX_FEATURES = 100_000
#: Most cells (samples times features) a dataset may hold in memory.
MAX_CELLS = 20_000_000


class Dataset:
    """Labelled rational data: ``X[i]`` is sample i, ``y[i]`` its label (+1 or -1).

    The values are stored once, exactly, as an integer matrix over one common
    denominator: ``X[i][j] == Fraction(numerators[i, j], denominator)``, in
    lowest terms over the whole matrix. Scaling every sample by the same
    positive number changes no decision of any of the five perceptrons, so
    the fast engine works on `numerators` directly; `X` gives the same values
    as `Fraction` for code that reads like the notes.

    Parameters
    ----------
    X : sequence of sequences of Fraction, optional
        The samples, all of the same dimension, without any bias input.
    y : sequence of int
        Labels in {-1, +1}.
    source : str
        Where the data came from (a path or ``example:NAME``).
    feature_names : sequence of str
        One name per feature (default ``x1, x2, ...``).
    binary_float : bool
        True when the values were read from binary floating point and converted
        exactly (so ``0.1`` was the double nearest to 1/10).
    labels : (str, str)
        The original spelling of the negative and the positive label.
    default_convention : str, optional
        The convention an example's note uses.
    numerators, denominator : array of int and int, optional
        The values as integers over one positive denominator, instead of `X`.

    Examples
    --------
    >>> data = Dataset(X=((Fraction(1, 2), Fraction(1, 3)), (Fraction(0), Fraction(1))), y=(1, -1))
    >>> data.n_samples, data.n_features, data.denominator, data.numerators.tolist()
    (2, 2, 6, [[3, 2], [0, 6]])
    >>> data.X[0]
    (Fraction(1, 2), Fraction(1, 3))
    """

    def __init__(
        self,
        X: Sequence[Sequence[Fraction]] | None = None,
        y: Sequence[int] = (),
        source: str = "<memory>",
        feature_names: Sequence[str] = (),
        binary_float: bool = False,
        labels: tuple[str, str] = ("-1", "1"),
        default_convention: str | None = None,
        *,
        numerators: Any = None,
        denominator: int = 1,
    ) -> None:
        self.source = source
        if X is not None:
            numerators, denominator = _common_denominator(X, source)
        if numerators is None:
            raise DataError(f"{source}: no samples")
        self.numerators, self.denominator = _lowest_terms(numerators, denominator, source)
        labels_in = np.asarray(y)
        if labels_in.dtype.kind not in "iu" or labels_in.ndim != 1:  # Fractions, floats, ...: one by one
            labels_in = np.array([_label_value(label, i, source) for i, label in enumerate(y)], dtype=np.int64)
        self.binary_float = binary_float
        self.labels = labels
        self.default_convention = default_convention
        if len(labels_in) != self.n_samples:
            raise DataError(f"{source}: {self.n_samples} samples but {len(labels_in)} labels")
        wrong = np.flatnonzero((labels_in != 1) & (labels_in != -1))
        if wrong.size:
            i = int(wrong[0])
            raise DataError(f"{source}: label y[{i}]={int(labels_in[i])!r} must be -1 or +1")
        #: The labels as an int64 array (``y`` holds them as a tuple of ints).
        self.y_array = labels_in.astype(np.int64)
        self.y_array.flags.writeable = False
        self.y: tuple[int, ...] = tuple(self.y_array.tolist())
        self.feature_names = tuple(feature_names) or tuple(f"x{j + 1}" for j in range(self.n_features))
        if self.y_array.min() == self.y_array.max():
            raise DataError(f"{source}: only one class (label {self.y[0]:+d}); the perceptron needs two")
        self._X: tuple[tuple[Fraction, ...], ...] | None = None
        self._exact: ExactMatrix | None = None

    @property
    def X(self) -> tuple[tuple[Fraction, ...], ...]:
        """The samples as exact `Fraction` tuples (built on first use)."""
        if self._X is None:
            d = self.denominator
            self._X = tuple(tuple(Fraction(int(v), d) for v in row) for row in self.numerators.tolist())
        return self._X

    @property
    def exact(self) -> ExactMatrix:
        """`numerators` wrapped for exact, fast products with integer vectors (built on first use)."""
        if self._exact is None:
            self._exact = ExactMatrix(self.numerators)
        return self._exact

    @property
    def row_norms_sq(self) -> list[int]:
        """``‖numerators[i]‖²`` for each sample, exactly (so ‖x_i‖² is this over denominator²)."""
        return self.exact.norms_sq

    @property
    def n_samples(self) -> int:
        """Number of samples."""
        return int(self.numerators.shape[0])

    @property
    def n_features(self) -> int:
        """Dimension of a sample, without the bias input."""
        return int(self.numerators.shape[1])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Dataset):
            return NotImplemented
        return (
            self.denominator == other.denominator
            and self.numerators.shape == other.numerators.shape
            and bool((self.numerators == other.numerators).all())
            and (self.y, self.source, self.feature_names, self.binary_float, self.labels)
            == (other.y, other.source, other.feature_names, other.binary_float, other.labels)
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Dataset(source={self.source!r}, n_samples={self.n_samples}, n_features={self.n_features})"

    def reordered(self, order: Sequence[int]) -> Dataset:
        """The same data presented in another order (``order[i]`` is the old index).

        Examples
        --------
        >>> from verify_perceptron.data.examples import example
        >>> example("and").reordered([3, 2, 1, 0]).y
        (1, -1, -1, -1)
        """
        if sorted(order) != list(range(self.n_samples)):
            raise ValueError(f"order={list(order)!r} is not a permutation of range({self.n_samples})")
        return Dataset(
            y=tuple(self.y[i] for i in order),
            source=self.source,
            feature_names=self.feature_names,
            binary_float=self.binary_float,
            labels=self.labels,
            default_convention=self.default_convention,
            numerators=self.numerators[list(order)],
            denominator=self.denominator,
        )


#: Largest magnitude kept in an int64 array; larger values use Python integers (dtype object).
_INT64_SAFE = 2**62


def _label_value(label: Any, i: int, source: str) -> int:
    """A label given as a number: -1 or +1 exactly (so 1.5 is refused, not truncated to 1)."""
    try:
        value = int(label)
    except (TypeError, ValueError):
        raise DataError(f"{source}: label y[{i}]={label!r} must be -1 or +1") from None
    if value != label or value not in (-1, 1):
        raise DataError(f"{source}: label y[{i}]={label!r} must be -1 or +1")
    return value


def _integer_array(rows: Any) -> Any:
    """An int64 array when every value fits comfortably, else an object array of Python ints."""
    flat_max = max((abs(int(v)) for row in rows for v in row), default=0)
    if flat_max < _INT64_SAFE:
        return np.array(rows, dtype=np.int64).reshape(len(rows), -1)
    array = np.empty((len(rows), len(rows[0]) if rows else 0), dtype=object)
    for i, row in enumerate(rows):
        array[i, :] = [int(v) for v in row]
    return array


def _common_denominator(X: Sequence[Sequence[Fraction]], source: str) -> tuple[Any, int]:
    rows = [tuple(row) for row in X]
    if not rows:
        raise DataError(f"{source}: no samples")
    width = len(rows[0])
    for i, row in enumerate(rows):
        if len(row) != width:
            raise DataError(f"{source}: sample {i} has {len(row)} features, sample 0 has {width}")
    if width == 0:
        raise DataError(f"{source}: samples have no features")
    common = 1
    for row in rows:
        for value in row:
            common = math.lcm(common, Fraction(value).denominator)
    ints = [[(Fraction(v).numerator * (common // Fraction(v).denominator)) for v in row] for row in rows]
    return _integer_array(ints), common


def _lowest_terms(numerators: Any, denominator: int, source: str) -> tuple[Any, int]:
    """Divide numerators and denominator by their common factor, so equal data compare equal."""
    array = np.asarray(numerators)
    if array.ndim != 2 or array.shape[0] == 0 or array.shape[1] == 0:
        raise DataError(f"{source}: numerators of shape {array.shape}; a non-empty 2-D array is needed")
    if array.dtype.kind not in "iuO":
        raise DataError(f"{source}: numerators of dtype {array.dtype}; integers are needed")
    if isinstance(denominator, bool) or int(denominator) != denominator or denominator < 1:
        raise DataError(f"{source}: denominator={denominator!r} must be a positive integer")
    denominator = int(denominator)
    if array.dtype.kind == "O":
        common = denominator
        for v in array.flat:
            common = math.gcd(common, int(v))
        if common > 1:
            array = np.vectorize(lambda v: int(v) // common, otypes=[object])(array)
        return array, denominator // common
    array = array.astype(np.int64, copy=False)
    common = math.gcd(denominator, int(np.gcd.reduce(array, axis=None)))
    if common > 1:
        array = array // common
    return array, denominator // common


# --- labels -------------------------------------------------------------------------------------


def _label_key(raw: str | Fraction) -> str | Fraction:
    """Labels compare as numbers when they are numbers (``1`` == ``1.0``), else as text."""
    if isinstance(raw, Fraction):
        return raw
    try:
        return parse_rational(raw)
    except ValueError:
        return raw.strip()


def _map_labels(
    raw_labels: Sequence[str | Fraction], *, positive: str | None, source: str, lines: Sequence[int] | None = None
) -> tuple[tuple[int, ...], tuple[str, str]]:
    """Map raw labels to {-1, +1}: {-1,+1} as is, {0,1} with 0 -> -1, or two values and `positive`."""
    # Work on the distinct spellings (usually two), then map every sample through a dict.
    key_of = {raw: _label_key(raw) for raw in dict.fromkeys(raw_labels)}
    distinct = list(dict.fromkeys(key_of.values()))
    shown = ", ".join(_shown(str(k)) for k in distinct[:5]) + (", ..." if len(distinct) > 5 else "")
    if len(distinct) > 2:
        third = distinct[2]
        at = next(i for i, raw in enumerate(raw_labels) if key_of[raw] == third)
        where = f"{source}:{lines[at]}" if lines else f"{source}: sample {at}"
        raise DataError(f"{where}: label {_shown(str(third))} is a third label value ({shown}); exactly two are needed")
    if positive is not None:
        pos_key = _label_key(positive)
        if pos_key not in distinct:
            raise DataError(f"{source}: --positive {positive!r} is not one of the labels ({shown})")
        if len(distinct) < 2:
            raise DataError(f"{source}: only one class ({shown}); the perceptron needs two")
        negative = next(k for k in distinct if k != pos_key)
        value_of = {k: 1 if k == pos_key else -1 for k in distinct}
        spelling = (str(negative), str(pos_key))
    elif len(distinct) < 2:
        raise DataError(f"{source}: only one class ({shown}); the perceptron needs two")
    elif set(distinct) == {Fraction(-1), Fraction(1)}:
        value_of, spelling = {k: int(k) for k in distinct}, ("-1", "1")  # type: ignore[call-overload]
    elif set(distinct) == {Fraction(0), Fraction(1)}:
        value_of, spelling = {k: 1 if k == 1 else -1 for k in distinct}, ("0", "1")
    else:
        raise DataError(f"{source}: labels {shown} are neither {{-1, +1}} nor {{0, 1}}; name the positive one with --positive")
    label_of = {raw: value_of[key] for raw, key in key_of.items()}
    return tuple(map(label_of.__getitem__, raw_labels)), spelling


def from_arrays(
    X: Iterable[Iterable[object]],
    y: Iterable[object],
    *,
    positive: str | None = None,
    source: str = "<memory>",
    feature_names: Sequence[str] = (),
) -> Dataset:
    """Build a `Dataset` from Python or NumPy values, converting each exactly.

    Strings are read as literals, floats through `Fraction.from_float`.

    Examples
    --------
    >>> data = from_arrays([["0.1", 1], ["3/7", 0]], [1, 0])
    >>> data.X[0], data.y
    ((Fraction(1, 10), Fraction(1, 1)), (1, -1))
    """
    binary_float = False
    rows: list[tuple[Fraction, ...]] = []
    for i, row in enumerate(X):
        converted = []
        for j, value in enumerate(row):
            binary_float = binary_float or isinstance(value, float) or type(value).__name__.startswith("float")
            try:
                converted.append(as_rational(value, name=f"X[{i}][{j}]"))
            except ValueError as error:
                raise DataError(f"{source}: {error}") from None
        rows.append(tuple(converted))
    raw: list[str | Fraction] = []
    for i, v in enumerate(y):
        if isinstance(v, str):
            raw.append(v)
            continue
        try:
            raw.append(Fraction(int(v)) if isinstance(v, bool) else as_rational(v, name=f"y[{i}]"))
        except ValueError as error:
            raise DataError(f"{source}: {error}") from None
    labels, spelling = _map_labels(raw, positive=positive, source=source)
    if len(labels) != len(rows):
        raise DataError(f"{source}: {len(rows)} samples but {len(labels)} labels")
    return Dataset(
        X=tuple(rows), y=labels, source=source, feature_names=tuple(feature_names),
        binary_float=binary_float, labels=spelling,
    )


# --- CSV ------------------------------------------------------------------------------------------


def _is_number(cell: str) -> bool:
    try:
        parse_rational(cell)
    except ValueError:
        return False
    return True


def _read_text(path: str) -> str:
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        raise DataError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise DataError(f"{path}: is a directory, not a data file") from None
    except OSError as error:
        raise DataError(f"{path}: cannot be read ({error.strerror})") from None
    if b"\0" in data[:4096]:
        raise DataError(f"{path}: is a binary file, not CSV or LIBSVM text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise DataError(f"{path}:{line}: not UTF-8 text (byte {data[error.start]:#04x})") from None


def _label_column(header: list[str] | None, width: int, label_column: str | None, path: str) -> int:
    names = [h.strip().lower() for h in header] if header else []
    if label_column is not None:
        if label_column.strip().lower() in names:
            return names.index(label_column.strip().lower())
        if _INTEGER.fullmatch(label_column.strip()):
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


def _is_header(first: Sequence[str], label_column: str | None) -> bool:
    """The first row is a header when none of its cells is a number, or one names the label column."""
    lowered = {c.strip().lower() for c in first}
    names_label = (
        label_column is not None
        and not _INTEGER.fullmatch(label_column.strip())
        and label_column.strip().lower() in lowered
    )
    return not any(_is_number(c) for c in first) or names_label or bool(lowered & set(LABEL_NAMES))


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
    y, spelling = _map_labels(raw_labels, positive=positive, source=path, lines=line_numbers)
    names = tuple(h for j, h in enumerate(header) if j != target) if header else ()
    return Dataset(y=y, source=path, feature_names=names, labels=spelling,
                   numerators=numerators, denominator=10**digits)


def load_csv(path: str, *, label_column: str | None = None, positive: str | None = None) -> Dataset:
    """Read a CSV file exactly.

    The first row is a header when none of its cells is a number, or when
    one of them names a label column (``label``, ``y``, ``target``,
    ``class``). The label column is ``label_column`` (a name or a 1-based
    index), else the first recognised name, else the last column. Blank lines
    and lines starting with ``#`` are skipped.

    Raises
    ------
    DataError
        On a ragged row, a cell that is not a finite rational literal, an
        empty file, one class only or more than two label values.
    """
    text = _read_text(path)
    # Comment lines go before the CSV parser sees them (a quote in a comment must not swallow
    # the rows after it); an empty line keeps the line numbers right.
    text = "\n".join("" if line.lstrip().startswith("#") else line for line in text.split("\n"))
    quick = _fast_csv(text, path, label_column, positive)
    return quick if quick is not None else _general_csv(text, path, label_column, positive)


def _general_csv(text: str, path: str, label_column: str | None, positive: str | None) -> Dataset:
    """Any CSV: the csv module's parser and one exact literal per cell, each error named."""
    csv.field_size_limit(2**31 - 1)  # a huge cell is the number parser's to refuse, by name
    reader = csv.reader(io.StringIO(text))
    rows: list[tuple[int, list[str]]] = []
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as error:
            raise DataError(f"{path}:{reader.line_num}: not valid CSV ({error})") from None
        if not row or all(not c.strip() for c in row):  # blank (comment lines were blanked above)
            continue
        rows.append((reader.line_num, row))
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
            raise DataError(f"{path}:{line}: ragged row: {len(row)} cells, expected {width}")
        features = []
        for j, cell in enumerate(row):
            if j == target:
                continue
            try:
                features.append(parse_rational(cell))
            except ValueError as error:
                column = header[j] if header else str(j + 1)
                raise DataError(f"{path}:{line}: column {column}: {error}") from None
        X.append(tuple(features))
        raw_labels.append(row[target])
        lines.append(line)
    y, spelling = _map_labels(raw_labels, positive=positive, source=path, lines=lines)
    names = tuple(h for j, h in enumerate(header) if j != target) if header else ()
    return Dataset(X=tuple(X), y=y, source=path, feature_names=names, labels=spelling)


# --- LIBSVM / svmlight ----------------------------------------------------------------------------


def load_libsvm(path: str, *, positive: str | None = None, n_features: int | None = None) -> Dataset:
    """Read LIBSVM/svmlight text: ``label index:value ...`` with 1-based indices.

    Missing features are 0; ``qid:`` tokens and ``#`` comments are ignored.
    The dimension is the largest index, or `n_features` when given.
    """
    text = _read_text(path)
    entries: list[tuple[int, dict[int, Fraction]]] = []
    raw_labels: list[str] = []
    lines: list[int] = []
    highest = 0
    for line_no, line in enumerate(text.splitlines(), start=1):
        content = line.split("#", 1)[0].strip()
        if not content:
            continue
        label, *tokens = content.split()
        row: dict[int, Fraction] = {}
        for token in tokens:
            index_text, sep, value_text = token.partition(":")
            if index_text == "qid":
                continue
            if not sep or not (index_text.isascii() and index_text.isdigit()):
                raise DataError(f"{path}:{line_no}: {token!r} is not index:value")
            index = int(index_text) if len(index_text) <= 9 else MAX_FEATURES + 1
            if index < 1:
                raise DataError(f"{path}:{line_no}: index {index_text} in {token!r}; indices start at 1")
            if index > MAX_FEATURES:
                raise DataError(f"{path}:{line_no}: index {index_text} exceeds {MAX_FEATURES} features")
            if index in row:
                raise DataError(f"{path}:{line_no}: index {index} appears twice")
            try:
                row[index] = parse_rational(value_text)
            except ValueError as error:
                raise DataError(f"{path}:{line_no}: feature {index}: {error}") from None
            highest = max(highest, index)
        entries.append((line_no, row))
        raw_labels.append(label)
        lines.append(line_no)
    if not entries:
        raise DataError(f"{path}: empty file: no data rows")
    width = highest if n_features is None else n_features
    if width < highest:
        raise DataError(f"{path}: index {highest} exceeds n_features={n_features}")
    if width == 0:
        raise DataError(f"{path}: no feature values at all")
    if len(entries) * width > MAX_CELLS:
        raise DataError(f"{path}: {len(entries)} x {width} values exceed the limit of {MAX_CELLS} cells")
    zero = Fraction(0)
    X = tuple(tuple(row.get(j, zero) for j in range(1, width + 1)) for _, row in entries)
    y, spelling = _map_labels(raw_labels, positive=positive, source=path, lines=lines)
    return Dataset(X=X, y=y, source=path, labels=spelling)


# --- NumPy --------------------------------------------------------------------------------------


_X_KEYS = ("X", "x", "data", "features")
_Y_KEYS = ("y", "Y", "labels", "label", "target")


def _exact_array(array: object, name: str, path: str) -> tuple[list[list[Fraction]], bool]:
    a = np.asarray(array)
    if a.dtype.kind not in "biuf":
        raise DataError(f"{path}: array {name!r} has dtype {a.dtype}; integers or floats are needed")
    if a.dtype.kind == "f":
        bad = ~np.isfinite(a)
        if bad.any():
            where = tuple(int(i) for i in np.argwhere(bad)[0])
            raise DataError(f"{path}: {name}{list(where)} = {a[where]!r} is not a finite number")
        convert = Fraction.from_float
        rows = [[convert(float(v)) for v in row] for row in np.atleast_2d(a).reshape(a.shape[0] if a.ndim else 1, -1)]
        return rows, True
    rows = [[Fraction(int(v)) for v in row] for row in np.atleast_2d(a).reshape(a.shape[0] if a.ndim else 1, -1)]
    return rows, False


def load_numpy(path: str, *, label_column: str | None = None, positive: str | None = None) -> Dataset:
    """Read ``.npy`` (a 2-D array, labels in the last column or `label_column`) or ``.npz``.

    An ``.npz`` archive holds the features under ``X`` (or ``x``, ``data``,
    ``features``) and the labels under ``y`` (or ``labels``, ``label``,
    ``target``). Pickled objects are never loaded. Floats are converted
    exactly with `Fraction.from_float`.
    """
    try:
        with open(path, "rb") as handle:
            magic = handle.read(6)
    except FileNotFoundError:
        raise DataError(f"{path}: no such file") from None
    except OSError as error:
        raise DataError(f"{path}: cannot be read ({error.strerror})") from None
    if magic != b"\x93NUMPY" and not magic.startswith(b"PK"):
        raise DataError(f"{path}: not a NumPy file (no .npy or .npz header)")
    try:
        loaded = np.load(path, allow_pickle=False)
    except FileNotFoundError:
        raise DataError(f"{path}: no such file") from None
    except ValueError:
        raise DataError(f"{path}: holds Python objects, and this tool never does unpickling: save numbers only") from None
    except (OSError, EOFError, zipfile.BadZipFile) as error:
        raise DataError(f"{path}: not a readable NumPy file ({error})") from None
    if isinstance(loaded, np.lib.npyio.NpzFile):
        with loaded:
            x_key = next((k for k in _X_KEYS if k in loaded.files), None)
            y_key = next((k for k in _Y_KEYS if k in loaded.files), None)
            if x_key is None or y_key is None:
                raise DataError(f"{path}: needs arrays X and y, found {sorted(loaded.files)}")
            try:
                Xa, ya = loaded[x_key], loaded[y_key]
            except ValueError:
                raise DataError(f"{path}: holds Python objects, and this tool never does unpickling: save numbers only") from None
        if Xa.ndim != 2:
            raise DataError(f"{path}: X has shape {Xa.shape}; a 2-D array is needed")
        if ya.ndim != 1 or ya.shape[0] != Xa.shape[0]:
            raise DataError(f"{path}: y has shape {ya.shape}; expected ({Xa.shape[0]},)")
        if Xa.size > MAX_CELLS:
            raise DataError(f"{path}: {Xa.shape} values exceed the limit of {MAX_CELLS} cells")
        rows, x_float = _exact_array(Xa, "X", path)
        labels_raw, _ = _exact_array(ya.reshape(-1, 1), "y", path)
        raw = [r[0] for r in labels_raw]
    else:
        a = loaded
        if a.ndim != 2 or a.shape[1] < 2:
            raise DataError(f"{path}: array of shape {a.shape}; a 2-D array with a label column is needed")
        if a.size > MAX_CELLS:
            raise DataError(f"{path}: {a.shape} values exceed the limit of {MAX_CELLS} cells")
        width = a.shape[1]
        target = width - 1
        if label_column is not None:
            text = label_column.strip()
            if not _INTEGER.fullmatch(text) or not (1 <= abs(int(text)) <= width):
                raise DataError(f"{path}: --label-column {label_column!r} must be a column number 1..{width}")
            target = int(text) - 1 if int(text) > 0 else width + int(text)
        full, x_float = _exact_array(a, "array", path)
        rows = [[v for j, v in enumerate(r) if j != target] for r in full]
        raw = [r[target] for r in full]
    y, spelling = _map_labels(raw, positive=positive, source=path)
    return Dataset(X=tuple(tuple(r) for r in rows), y=y, source=path, binary_float=x_float, labels=spelling)


def load_dataset(
    path: str,
    *,
    format: str = "auto",
    label_column: str | None = None,
    positive: str | None = None,
) -> Dataset:
    """Read a dataset, choosing the reader from `format` or from the file's extension.

    ``.npy``/``.npz`` are NumPy, ``.svm``, ``.libsvm``, ``.svmlight`` and
    ``.txt`` whose first data line has ``index:value`` tokens are LIBSVM,
    anything else is CSV.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "d.csv")
    ...     _ = open(path, "w").write("x1,x2,label\\n0.1,3/7,1\\n-1,0,0\\n")
    ...     data = load_dataset(path)
    >>> data.X, data.y
    (((Fraction(1, 10), Fraction(3, 7)), (Fraction(-1, 1), Fraction(0, 1))), (1, -1))
    """
    if format not in ("auto", "csv", "libsvm", "numpy"):
        raise DataError(f"format={format!r} must be auto, csv, libsvm or numpy")
    extension = os.path.splitext(path)[1].lower()
    if format == "auto":
        if extension in (".npy", ".npz"):
            format = "numpy"
        elif extension in (".svm", ".libsvm", ".svmlight"):
            format = "libsvm"
        elif extension == ".txt" and _looks_sparse(path):
            format = "libsvm"
        else:
            format = "csv"
    if format == "numpy":
        return load_numpy(path, label_column=label_column, positive=positive)
    if format == "libsvm":
        return load_libsvm(path, positive=positive)
    return load_csv(path, label_column=label_column, positive=positive)


def _looks_sparse(path: str) -> bool:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                content = line.split("#", 1)[0].split()
                if content:
                    return any(":" in token for token in content[1:])
    except OSError:
        return False
    return False
