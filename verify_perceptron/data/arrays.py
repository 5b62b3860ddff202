"""Values held in memory, read exactly: lists, NumPy arrays, pandas DataFrames and Series.

`exact_table` turns the samples into integers over one common denominator,
and `exact_labels` reads the labels as `map_labels` expects them; the
`Dataset` is built from both by `verify_perceptron.data.dataset.from_arrays`.
A DataFrame is recognised by its ``to_numpy()`` and ``columns`` (pandas is
never imported), a Series by ``to_numpy()``.

How a float is read is a choice, `floats`:

- ``"binary"`` (the default): the binary number it is, exactly
  (``Fraction.from_float``): ``0.1`` is 3602879701896397/2^55, and the
  dataset says so (`Dataset.binary_float`, and the report after it);
- ``"decimal"``: the shortest decimal that reads back as the same float
  (Python's ``repr``, NumPy's ``unique`` formatting for float32): ``0.1`` is
  1/10, as the person who typed it meant.

Integers, `Fraction`, `Decimal` and strings (``"3/7"``, ``"1.5e-3"``) are
exact either way.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence, Set
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np

from ..errors import DataError, InvalidArgument
from ._floats import NotFinite, binary_bits
from .denominators import MAX_DENOMINATOR_BITS
from .files import check_max_cells, refuse_cells, refuse_wide
from .limb_arrays import limb_values
from .rationals import as_rational, bounded, shown_value

__all__ = ["FLOAT_READINGS", "ExactTable", "check_floats", "column_name", "exact_labels", "exact_positive", "exact_table",
           "feature_names_of", "label_sequence"]

#: The two readings of a binary float: as the binary number it is, or as its shortest decimal.
FLOAT_READINGS = ("binary", "decimal")
#: Largest magnitude kept in an int64 array; larger values use Python integers (dtype object).
_INT64_SAFE = 2**62


class ExactTable:
    """Samples as integers over one positive denominator: ``X[i][j] == numerators[i, j] / denominator``.

    `numerators` is an int64 array, or an object array of Python ints when a
    value is too large; `feature_names` are a DataFrame's column names (None
    for other inputs); `binary_float` is True when a float was read as binary.
    Binary floats past int64 are held in 64-bit limbs (`limbs`, an int64
    (n, d, L) array, else None), and `numerators` is made from them only when
    read (`verify_perceptron.data.limb_arrays.limb_values`): `Dataset` takes the limbs,
    in lowest terms with `bits` the largest |numerator|'s length (`binary_bits`; None when unknown).

    Examples
    --------
    >>> table = ExactTable(np.array([[[0, 1]]]), 4, None, True)
    >>> table.shape, table.limbs.shape, table.numerators.tolist()
    ((1, 1), (1, 1, 2), [[18446744073709551616]])
    """

    def __init__(self, numerators: Any, denominator: int, feature_names: tuple[str, ...] | None,
                 binary_float: bool, bits: int | None = None) -> None:
        self.denominator, self.bits = denominator, bits
        self.feature_names = feature_names
        self.binary_float = binary_float
        #: The numerators in 64-bit limbs, (n, d, L) int64, when they were made so; else None.
        self.limbs: Any = numerators if numerators.ndim == 3 else None
        self._numerators: Any = None if self.limbs is not None else numerators

    @property
    def numerators(self) -> Any:
        """The numerators as an (n, d) int64 or object array (made from `limbs` on first use)."""
        if self._numerators is None:
            self._numerators = limb_values(self.limbs)
        return self._numerators

    @property
    def shape(self) -> tuple[int, int]:
        """(samples, features)."""
        held = self.limbs if self.limbs is not None else self._numerators
        return int(held.shape[0]), int(held.shape[1])


def check_floats(floats: object) -> str:
    """`floats` itself when it is one of `FLOAT_READINGS`, else `InvalidArgument` naming it.

    Examples
    --------
    >>> check_floats("decimal")
    'decimal'
    >>> check_floats("exact")
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.InvalidArgument: floats='exact' must be one of binary, decimal
    """
    if not isinstance(floats, str) or floats not in FLOAT_READINGS:
        raise InvalidArgument(f"floats={floats!r} must be one of {', '.join(FLOAT_READINGS)}")
    return floats


def _non_finite(name: str, value: Any) -> str:
    return f"{name}={float(value)!r} is not a finite number (NaN and infinity have no exact value)"


def _is_float(value: object) -> bool:
    return isinstance(value, (float, np.floating))


def holds_floats(X: Any) -> bool:
    """Whether `X` (an array, a DataFrame, or a list of rows) holds a binary float; False for anything else
    (a generator is not read: it could not be read again).

    Examples
    --------
    >>> holds_floats([[1, "0.5"]]), holds_floats([[1, 0.5]]), holds_floats(np.zeros((2, 2)))
    (False, True, True)
    """
    a = X.to_numpy() if hasattr(X, "to_numpy") and hasattr(X, "columns") else X
    if isinstance(a, np.ndarray):
        return a.dtype.kind == "f" or (a.dtype.kind == "O" and any(_is_float(v) for v in a.flat))
    if not isinstance(a, (list, tuple)):
        return False
    return any(_is_float(v) for row in a if isinstance(row, (list, tuple, np.ndarray)) for v in row)


def _shortest_decimal(value: Any) -> Fraction:
    """The shortest decimal that reads back as the finite float `value` in its own precision (float32's for a
    float32), exactly. (The text is a float's repr, at most 17 digits and a 3-digit exponent: safe for `Decimal`.)"""
    text = repr(float(value)) if isinstance(value, float) else np.format_float_scientific(value, unique=True)
    return as_rational(Decimal(text))


def _missing(value: object) -> bool:
    """None, pandas' NA and NaT: a value that is not there (NaN is refused as not finite)."""
    return value is None or type(value).__name__ in ("NAType", "NaTType")


def _exact(value: object, name: str, floats: str, source: str) -> Fraction:
    """One value as a Fraction, floats read as `floats` says, no longer than a literal may be (`bounded`);
    `DataError` naming `source` and `name`."""
    try:
        if _missing(value):
            raise ValueError(f"{name}={value!r} is a missing value; fill it or drop its sample first")
        if _is_float(value) and not math.isfinite(value):  # type: ignore[arg-type]
            raise ValueError(_non_finite(name, value))
        if floats == "decimal" and _is_float(value):
            return _shortest_decimal(value)
        return bounded(as_rational(value, name=name), name=name)
    except (ValueError, OverflowError) as error:
        raise DataError(f"{source}: {error}") from None


def _over_one_denominator(values: list[Fraction], where: Any, max_cells: int | None, source: str) -> tuple[Any, int]:
    """Fractions as a 1-D integer array over their least common denominator, which may have at most
    `MAX_DENOMINATOR_BITS` bits (`where(k)` names value k), and whose Python integers, if any, may take at
    most the memory of `max_cells` int64 values."""
    common = 1
    for k, v in enumerate(values):
        if common % v.denominator:
            common = math.lcm(common, v.denominator)
            if common.bit_length() > MAX_DENOMINATOR_BITS:
                raise DataError(f"{source}: {where(k)}={shown_value(v)} makes the common denominator "
                                f"{common.bit_length()} bits long, past the limit of {MAX_DENOMINATOR_BITS} bits")
    if values:
        _refuse_wide(max(abs(v.numerator) for v in values), common // min(v.denominator for v in values),
                     len(values), max_cells, source)
    return _integer_column([v.numerator * (common // v.denominator) for v in values]), common


def _refuse_wide(largest: int, factor: int, n_cells: int, max_cells: int | None, source: str) -> None:
    """`refuse_wide` for integers of at most bits(largest) + bits(factor) bits, before they are made."""
    bits = largest.bit_length() + factor.bit_length()
    if bits >= 63:
        refuse_wide(source, n_cells, bits, max_cells)


def _integer_column(ints: list[int]) -> Any:
    """int64 when every value is below 2^62 in magnitude, else an object array of the same Python ints."""
    if max((abs(v) for v in ints), default=0) < _INT64_SAFE:
        return np.array(ints, dtype=np.int64)
    return np.array(ints + [None], dtype=object)[:-1]  # (the None keeps NumPy from nesting anything)


def _decimal_column(values: Any, n_cells: int, max_cells: int | None, source: str) -> tuple[Any, int]:
    """A 1-D array of finite floats read as their shortest decimals, over their least common denominator
    (`n_cells` values of the table take them: the memory counted)."""
    if values.dtype == np.float64:  # the common case without a Fraction per value: (numerator, power of ten)
        pairs = [Decimal(repr(v)).as_integer_ratio() for v in values.tolist()]
    else:
        pairs = [(f.numerator, f.denominator) for f in map(_shortest_decimal, values)]
    common = 1
    for d in {d for _, d in pairs}:
        common = math.lcm(common, d)
    if pairs:
        _refuse_wide(max(abs(n) for n, _ in pairs), common // min(d for _, d in pairs), n_cells, max_cells, source)
    return _integer_column([n * (common // d) for n, d in pairs]), common


def _refuse_bad_text(a: Any, name: str, source: str) -> None:
    """A NumPy text array holding a code point past U+10FFFF (raw bytes seen as text) cannot be read as str."""
    if a.dtype.kind == "U" and a.size and a.dtype.itemsize:
        codes = np.ascontiguousarray(a).view(np.uint32)
        if codes.size and int(codes.max()) > 0x10FFFF:
            raise DataError(f"{source}: {name} holds the code point {int(codes.max()):#x}, past Unicode's last "
                            "(U+10FFFF): not text")


def _array_table(a: Any, floats: str, source: str, max_cells: int | None) -> tuple[Any, int, bool, int | None]:
    """A 2-D NumPy array as (numerators, denominator, binary_float, `ExactTable.bits`)."""
    _refuse_bad_text(a, "X", source)
    kind = a.dtype.kind
    if kind == "c":
        raise DataError(f"{source}: Complex data not supported: X has dtype {a.dtype}")
    if kind in "mMV":  # dates, durations, records: no number is the value
        raise DataError(f"{source}: X has dtype {a.dtype}; numbers are needed, one column per feature")
    if kind in "iu":
        return a, 1, False, None
    if kind == "b":
        raise DataError(f"{source}: X has dtype bool; numbers are needed (X.astype(int) reads True as 1)")
    if kind == "f" and a.dtype.itemsize <= 8:
        try:  # (binary floats: their pass finds a NaN or an infinity, no pass over X of its own)
            if floats == "binary":
                numerators, denominator, bits = binary_bits(a, max_cells=max_cells, source=source)
                return numerators, denominator, True, bits
            if not np.isfinite(a).all():
                raise NotFinite(source)
        except NotFinite:
            i, j = (int(k) for k in np.argwhere(~np.isfinite(a))[0])
            raise DataError(f"{source}: {_non_finite(f'X[{i}][{j}]', a[i, j])}") from None
        values, inverse = np.unique(a, return_inverse=True)  # each distinct value is read once
        column, denominator = _decimal_column(values, a.size, max_cells, source)
        return column[inverse.reshape(a.shape)], denominator, False, None
    return (*_one_by_one(a.tolist(), a.shape[1], floats, source, max_cells), None)


#: What a value read on its own costs (a `Fraction`, its two integers, its place in lists), in int64 cells.
PER_VALUE = 8


def _one_by_one(rows: list[list[Any]], width: int, floats: str, source: str,
                max_cells: int | None) -> tuple[Any, int, bool]:
    """Rows of Python values of mixed kinds, each converted on its own: at most `max_cells` // `PER_VALUE`."""
    refuse_cells(source, f"X: {len(rows)} x {width} values read one by one, {PER_VALUE} cells each",
                 len(rows) * width * PER_VALUE, max_cells)
    exact = [[_exact(v, f"X[{i}][{j}]", floats, source) for j, v in enumerate(row)] for i, row in enumerate(rows)]
    binary = floats == "binary" and any(_is_float(v) for row in rows for v in row)
    column, denominator = _over_one_denominator([v for row in exact for v in row],
                                                lambda k: f"X[{k // width}][{k % width}]", max_cells, source)
    return column.reshape(len(rows), width), denominator, binary


def _same_kind(rows: list[list[Any]]) -> Any:
    """The rows as a float64 array when every value is a Python float, as int64 when every one is an int
    that fits; else None. Either array holds the very values, so the vectorised readers read them exactly."""
    kinds = {type(v) for row in rows for v in row}
    if kinds == {float}:
        return np.array(rows, dtype=np.float64)
    if kinds == {int} and all(-(2**63) <= v < 2**63 for row in rows for v in row):
        return np.array(rows, dtype=np.int64)
    return None


def _list_table(X: Iterable[Any], floats: str, source: str, max_cells: int) -> tuple[Any, int, bool, int | None]:
    """Rows given as Python iterables (lists, tuples, generators): read at once when all floats or all ints,
    else each value on its own."""
    rows: list[list[Any]] = []
    for i, row in enumerate(X):
        if isinstance(row, (str, bytes)) or not isinstance(row, Iterable):
            raise DataError(f"{source}: X[{i}]={shown_value(row)} is not a row of values: X must be 2-D, one row "
                            "per sample (Reshape your data: [[v] for v in X] for one feature)")
        _refuse_unordered(row, f"X[{i}]", source)
        rows.append(list(row))
        if len(rows[-1]) != len(rows[0]):
            raise DataError(f"{source}: sample {i} has {len(rows[-1])} features, sample 0 has {len(rows[0])}")
        refuse_cells(source, f"X: {i + 1} rows of {len(rows[0])} values so far", (i + 1) * len(rows[0]), max_cells)
    width = len(rows[0]) if rows else 0
    if rows and width:
        same = _same_kind(rows)
        if same is not None:
            return _array_table(same, floats, source, max_cells)
    return (*_one_by_one(rows, width, floats, source, max_cells), None)


def _refuse_unordered(values: object, name: str, source: str) -> None:
    """A set has no order and a mapping's iteration gives its keys: neither is a row, nor one label per sample."""
    if isinstance(values, (Set, Mapping)):
        kind = "a set, which has no order" if isinstance(values, Set) else "a mapping, whose iteration gives its keys"
        raise DataError(f"{source}: {name}={shown_value(values)} is {kind}; give a list, a tuple or an array")


def _refuse_masked(values: Any, name: str, source: str) -> Any:
    """A masked array's data when nothing is masked; a masked value is missing data, refused by its place."""
    if not isinstance(values, np.ma.MaskedArray):
        return values
    mask = np.ma.getmaskarray(values)
    if mask.any():
        place = "".join(f"[{int(k)}]" for k in np.argwhere(mask)[0])
        raise DataError(f"{source}: {name}{place} is masked: masked values are missing data; fill them "
                        f"({name}.filled(value)) or drop their samples first")
    return np.asarray(values.data)


def feature_names_of(feature_names: Sequence[str], n_features: int, source: str) -> tuple[str, ...]:
    """One name (a str) per feature, or ``x1, x2, ...`` when none are given."""
    if isinstance(feature_names, (str, bytes)):
        raise DataError(f"{source}: feature_names={shown_value(feature_names)} is one string; give one name per feature")
    names = tuple(feature_names)
    if not names:
        return tuple(f"x{j + 1}" for j in range(n_features))
    if len(names) != n_features:
        raise DataError(f"{source}: feature_names has {len(names)} names for {n_features} features")
    bad = next((j for j, name in enumerate(names) if not isinstance(name, str)), None)
    if bad is not None:
        raise DataError(f"{source}: feature_names[{bad}]={shown_value(names[bad])} is not a str")
    return names


def column_name(column: object) -> str:
    """A DataFrame's column name as text: str() of it, unless that fails (an integer past Python's 4,300-digit
    limit, an object whose str raises): then `shown_value`."""
    try:
        return column if isinstance(column, str) else str(column)
    except Exception:  # noqa: BLE001 - a name must not stop the reading
        return shown_value(column)


def _as_array(X: Any, source: str) -> tuple[Any, tuple[str, ...] | None]:
    """`X` as a NumPy array with a DataFrame's column names, or as it is when it is a plain iterable."""
    X = _refuse_masked(X, "X", source)
    _refuse_unordered(X, "X", source)
    if hasattr(X, "toarray") and hasattr(X, "nnz"):  # scipy.sparse, never densified behind the user's back
        raise DataError(f"{source}: X is a sparse matrix of shape {X.shape}; sparse input is not supported: pass X.toarray()")
    if hasattr(X, "to_numpy") and hasattr(X, "columns"):
        names = tuple(map(column_name, X.columns))
        dtypes = list(getattr(X, "dtypes", ()))
        # Mixed columns would be upcast to float64 together (an int64 beyond 2^53 rounded): keep each value's type,
        # unless every column is NumPy's ints and floats and every int is one float64 holds exactly.
        if len({str(t) for t in dtypes}) <= 1:
            return X.to_numpy(), names
        if all(isinstance(t, np.dtype) and t.kind in "iuf" and t.itemsize <= 8 for t in dtypes):
            exact = X.to_numpy(dtype=np.float64)
            # every int below 2^53 is a float64; every one from 2^53 on rounds to at least 2^53
            if not any(t.kind in "iu" for t in dtypes) or (np.abs(exact) < 2.0**53).all():
                return exact, names
        return X.to_numpy(dtype=object), names
    if hasattr(X, "to_numpy"):  # a Series
        return X.to_numpy(), None
    if isinstance(X, np.ndarray) or hasattr(X, "__array__"):
        return np.asarray(X), None
    if isinstance(X, (str, bytes)) or not isinstance(X, Iterable):
        raise DataError(f"{source}: X={shown_value(X)} of type {type(X).__name__} is not rows of values: "
                        "give a list of rows, a 2-D array or a DataFrame")
    return X, None


def exact_table(X: Any, *, floats: str = "binary", source: str = "<memory>", max_cells: int | None = None) -> ExactTable:
    """The samples `X` as integers over one common denominator, every value converted exactly.

    Parameters
    ----------
    X : 2-D array-like
        Rows of numbers or literals: a list of lists, a NumPy array, a pandas
        DataFrame (its column names become `ExactTable.feature_names`).
    floats : {"binary", "decimal"}
        How a float is read: as the binary number it is, or as its shortest decimal.
    source : str
        Named at the start of every error message.
    max_cells : int, optional
        Most values X may hold (by default what the available memory holds,
        `verify_perceptron.data.memory`), counting each value too wide for int64 as the int64 values
        its memory would fill (`verify_perceptron.data.files.cell_units`).

    Examples
    --------
    >>> table = exact_table(np.array([[0.5, 0.25], [1.0, -2.0]]))
    >>> table.numerators.tolist(), table.denominator, table.binary_float
    ([[2, 1], [4, -8]], 4, True)
    >>> exact_table([[0.1]], floats="decimal").denominator
    10
    >>> exact_table([1, 2])
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.DataError: <memory>: X[0]=1 is not a row of values: X must be 2-D, one row per sample (Reshape your data: [[v] for v in X] for one feature)
    """
    check_floats(floats)
    if max_cells is not None:
        max_cells = check_max_cells(max_cells)
    values, names = _as_array(X, source)
    if isinstance(values, np.ndarray):  # refused at most twice (its cells, then its width): None is read there
        if values.ndim != 2:
            hint = " (Reshape your data: X.reshape(-1, 1) for one feature)" if values.ndim == 1 else ""
            raise DataError(f"{source}: X has shape {values.shape}; a 2-D array is needed, one row per sample{hint}")
        refuse_cells(source, f"X of shape {values.shape}", values.size, max_cells)
        numerators, denominator, binary, bits = _array_table(values, floats, source, max_cells)
    else:  # refused row by row as the rows come: the limit read once
        numerators, denominator, binary, bits = _list_table(values, floats, source, check_max_cells(max_cells))
    n, d = numerators.shape[:2]
    if n == 0:
        raise DataError(f"{source}: no samples; the perceptron needs at least one of each class")
    if d == 0:
        raise DataError(f"{source}: X has 0 feature(s) (shape=({n}, 0)) while a minimum of 1 is required.")
    return ExactTable(numerators, denominator, names, binary, bits)


def _label(value: object, i: int, floats: str, source: str) -> str | Fraction:
    if isinstance(value, str):
        return value
    if isinstance(value, (bool, np.bool_)):
        return Fraction(int(value))
    return _exact(value, f"y[{i}]", floats, source)


def exact_positive(positive: object, *, floats: str = "binary", source: str = "<memory>") -> str | Fraction | None:
    """The positive label as `map_labels` reads it: text as it is, a number exactly, as `exact_labels` reads y.

    Examples
    --------
    >>> exact_positive(2), exact_positive("yes"), exact_positive(None)
    (Fraction(2, 1), 'yes', None)
    """
    if positive is None:
        return None
    try:
        return _label(positive, 0, floats, source)
    except DataError as error:
        raise DataError(str(error).replace("y[0]=", "positive=", 1)) from None


def _refuse_mixed(labels: list[str | Fraction], raw: list[Any], source: str) -> None:
    """Labels are all text or all numbers: a mix (1 and "1", 0 and "cat") has no one reading."""
    text = next((i for i, v in enumerate(labels) if isinstance(v, str)), None)
    number = next((i for i, v in enumerate(labels) if not isinstance(v, str)), None)
    if text is not None and number is not None:
        later, earlier = max(text, number), min(text, number)
        raise DataError(f"{source}: y[{later}]={shown_value(raw[later])} is {'text' if later == text else 'a number'} "
                        f"and y[{earlier}]={shown_value(raw[earlier])} is {'a number' if later == text else 'text'}: "
                        "labels must be all numbers or all text")


def label_sequence(y: Any, source: str) -> Any:
    """`y` when it can be one label per sample, a masked array's data when nothing is masked; else `DataError`
    (a masked value, a set or a mapping, a single value).

    Examples
    --------
    >>> label_sequence({0, 1}, "t")
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.DataError: t: y={0, 1} is a set, which has no order; give a list, a tuple or an array
    """
    y = _refuse_masked(y, "y", source)
    _refuse_unordered(y, "y", source)
    if isinstance(y, (str, bytes)) or not (isinstance(y, Iterable) or hasattr(y, "__array__") or hasattr(y, "to_numpy")):
        raise DataError(f"{source}: y={shown_value(y)} is not one label per sample: give a list, an array or a Series")
    return y


def exact_labels(y: Any, *, floats: str = "binary", source: str = "<memory>") -> list[str | Fraction]:
    """The labels as `map_labels` reads them: text as it is, numbers as exact Fractions.

    A Series, a one-column DataFrame and an ``(n, 1)`` array are read as one
    label per sample.

    Examples
    --------
    >>> exact_labels(np.array([0.0, 1.0])), exact_labels(["cat", "dog"])
    ([Fraction(0, 1), Fraction(1, 1)], ['cat', 'dog'])
    >>> exact_labels(["cat", 1])
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.DataError: <memory>: y[1]=1 is a number and y[0]='cat' is text: labels must be all numbers or all text
    """
    check_floats(floats)
    y = label_sequence(y, source)
    if hasattr(y, "to_numpy") or isinstance(y, np.ndarray) or hasattr(y, "__array__"):
        values = y.to_numpy() if hasattr(y, "to_numpy") else np.asarray(y)
        if values.ndim == 2 and values.shape[1] == 1:
            values = values[:, 0]
        if values.ndim != 1:
            raise DataError(f"{source}: y has shape {values.shape}; one label per sample (1-D) is needed")
        _refuse_bad_text(values, "y", source)
        if values.dtype.kind in "iub" or (values.dtype.kind == "f" and values.dtype.itemsize <= 8):
            distinct, inverse = np.unique(values, return_inverse=True)
            if len(distinct) <= 2 and np.isfinite(distinct.astype(np.float64)).all():  # read each class once
                read = [_label(v, 0, floats, source) for v in list(distinct)]
                return [read[k] for k in inverse.reshape(-1).tolist()]
        raw = values.tolist()
    else:
        raw = list(y)
    labels = [_label(v, i, floats, source) for i, v in enumerate(raw)]
    _refuse_mixed(labels, raw, source)
    return labels
