"""A ``.npy`` file holding a NumPy record array (``np.save(path, df.to_records(index=False))``): one field a
column, named, read as the table it stands for, exactly."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import DataError
from .csv_layout import LABEL_NAMES, named_column

__all__ = ["numeric_fields", "record_columns", "record_table"]

#: Integers of at most this many bits are exact in a float64 (its 53-bit significand).
_FLOAT64_INTEGER_BITS = 53


def numeric_fields(dtype: Any) -> bool:
    """Whether `dtype` is a record of numbers only (integers, booleans, floats), each field a scalar.

    Examples
    --------
    >>> numeric_fields(np.dtype([("a", "<f8"), ("label", "<i8")])), numeric_fields(np.dtype([("a", "<U3")]))
    (True, False)
    >>> numeric_fields(np.dtype("<f8"))
    False
    """
    if not dtype.names:
        return False
    return all(dtype.fields[name][0].kind in "biuf" and not dtype.fields[name][0].shape for name in dtype.names)


def record_table(a: Any, path: str) -> tuple[Any, tuple[str, ...]]:
    """A 1-D record array `a` as a 2-D array of one dtype, exactly, and its field names; a field that is not a
    number, or integers a common float64 would round, are refused by name.

    Examples
    --------
    >>> table, names = record_table(np.array([(0.5, 1), (-2.0, 0)], dtype=[("x", "<f8"), ("y", "<i8")]), "r")
    >>> table.tolist(), table.dtype.name, names
    ([[0.5, 1.0], [-2.0, 0.0]], 'float64', ('x', 'y'))
    """
    names = tuple(a.dtype.names)
    if a.ndim != 1 or len(names) < 2:
        raise DataError(f"{path}: a record array of shape {a.shape} with {len(names)} field(s); a 1-D one with a "
                        "field for each feature and one for the labels is needed")
    for name in names:
        kind = a.dtype.fields[name][0]
        if kind.kind not in "biuf" or kind.shape:
            raise DataError(f"{path}: field {name!r} has dtype {kind}; integers or floats are needed")
    common = np.result_type(*(a.dtype.fields[name][0] for name in names))
    columns = []
    for name in names:
        column = a[name]
        if column.dtype.kind == "b":
            column = column.view(np.uint8)
        if common.kind == "f" and column.dtype.kind in "iu" and common.itemsize <= 8 and column.size:
            widest = max(abs(int(column.min())), abs(int(column.max())))
            if widest.bit_length() > _FLOAT64_INTEGER_BITS:
                raise DataError(f"{path}: field {name!r} holds the integer {widest}, which the floats of the "
                                "other fields cannot hold exactly: save the record's fields as one dtype")
        columns.append(column.astype(common if common.kind != "b" else np.uint8))
    return np.stack(columns, axis=1), names


def record_columns(names: tuple[str, ...], label_column: str | int | None, path: str) -> int:
    """The label field's index: `label_column` by name or 1-based number, else the first field named as a CSV
    file's label column is (``label``, ``y``, ``target``, ``class``), else the last.

    Examples
    --------
    >>> record_columns(("a", "Target", "b"), None, "r"), record_columns(("a", "b"), None, "r")
    (1, 1)
    >>> record_columns(("a", "b", "c"), "1", "r"), record_columns(("a", "b", "c"), "b", "r")
    (0, 1)
    """
    if label_column is not None:
        return named_column(list(names), len(names), str(label_column), path)
    lowered = [name.strip().lower() for name in names]
    return next((lowered.index(label) for label in LABEL_NAMES if label in lowered), len(names) - 1)
