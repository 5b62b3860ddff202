"""The data `verify` was given, as a `Dataset`: a path read by its reader, a DataFrame's label column found by
the CSV reader's names, values in memory converted exactly; and `separator` read as ``--separator`` is."""

from __future__ import annotations

import numbers
import os
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ..data.csv_files import LABEL_NAMES
from ..data.dataset import Dataset, from_arrays
from ..data.rationals import as_rational, bounded, shown_value
from ..data.readers import load_dataset
from ..errors import InvalidArgument

__all__ = ["dataset_of", "separator_of"]


def _label_name(X: Any) -> str | None:
    """The column of a DataFrame `X` that the CSV reader would take for the labels by its name (``label``, ``y``,
    ``target``, ``class``, in that order, in any case), or None."""
    names = {column.strip().lower(): column for column in reversed(list(X.columns)) if isinstance(column, str)}
    return next((names[name] for name in LABEL_NAMES if name in names), None)


def _column_key(y: Any) -> bool:
    """Whether `y`, given with a DataFrame, names one of its columns rather than giving labels: a string or an
    integer (``pd.DataFrame(array)`` names its columns 0, 1, ...); one label alone is never the labels."""
    return isinstance(y, str) or isinstance(y, numbers.Integral) and not isinstance(y, bool)


def dataset_of(X: Any, y: Any, *, floats: str, positive: object, feature_names: Sequence[str],
             label_column: str | None, source: str | None, index_column: str) -> Dataset:
    """The data `verify` was given, as a `Dataset`: a path read by its reader, values in memory converted."""
    if isinstance(X, Dataset):
        if y is not None:
            raise InvalidArgument(f"y={shown_value(y)} with a Dataset: its labels are part of it")
        if index_column != "auto":
            raise InvalidArgument(f"index_column={index_column!r} with a Dataset: it was read already")
        return X
    if isinstance(X, (str, os.PathLike)):
        if y is not None:
            raise InvalidArgument(f"y={shown_value(y)} with the file {os.fspath(X)!r}: name its label column with "
                                  "label_column")
        if floats != "binary":
            raise InvalidArgument(f"floats={floats!r} applies to values in memory; a file's numbers are read "
                                  "as written (CSV, LIBSVM) or as binary (.npy)")
        return load_dataset(os.fspath(X), label_column=label_column, positive=positive, index_column=index_column)
    frame = hasattr(X, "columns") and hasattr(X, "drop")
    if frame and y is None:  # verify(df): its label column by name (label_column=, else as the CSV reader finds it)
        y = label_column if label_column is not None else _label_name(X)
        if y is None:
            names = [c if isinstance(c, str) else shown_value(c) for c in list(X.columns)[:20]]
            raise InvalidArgument(f"y is needed: X has no column named {', '.join(LABEL_NAMES)} (columns: "
                                  f"{', '.join(names)}{', ...' if len(X.columns) > 20 else ''}); give the labels "
                                  "or the name of X's label column")
    elif label_column is not None:
        raise InvalidArgument(f"label_column={shown_value(label_column)} applies to a file or a DataFrame without y")
    if frame and _column_key(y):  # verify(df, "target"), verify(pd.DataFrame(array), 4)
        if y not in list(X.columns):
            names = [c if isinstance(c, str) else shown_value(c) for c in list(X.columns)[:20]]
            raise InvalidArgument(f"y={shown_value(y)} is not a column of X (columns: {', '.join(names)}"
                                  f"{', ...' if len(X.columns) > 20 else ''})")
        X, y = X.drop(columns=[y]), X[y]
    if y is None:
        raise InvalidArgument("y is needed with X in memory: the labels, or the name of X's label column")
    return from_arrays(X, y, positive=positive, source=source or "<memory>", feature_names=feature_names,
                       floats=floats, index_column=index_column)


def separator_of(separator: Sequence[object] | None) -> list[Fraction] | None:
    """`separator` read as the command reads ``--separator``: each value exactly, within a literal's limits."""
    if separator is None:
        return None
    try:
        return [bounded(as_rational(v, name=f"separator[{j}]"), name=f"separator[{j}]")
                for j, v in enumerate(separator)]
    except (TypeError, ValueError) as error:
        raise InvalidArgument(str(error) if isinstance(error, ValueError) else
                              f"separator={shown_value(separator)} is not a sequence of numbers") from None
