"""What `ExactPerceptron` reads and hands back: X's values checked, y's classes, and exact values as float64."""

from __future__ import annotations

import math
import numbers
import warnings
from decimal import Decimal
from typing import Any

import numpy as np

from ..data.arrays import exact_labels, label_sequence
from ..data.rationals import shown_value
from ._sklearn import DataConversionWarning

__all__ = ["TINY", "classes_of", "refuse_non_numbers", "to_float"]


def refuse_non_numbers(X: Any, where: str) -> None:
    """An object array holding something neither a number nor a literal is a `TypeError` naming the value."""
    if isinstance(X, np.ndarray) and X.dtype == object:
        for index, value in np.ndenumerate(X):
            if not isinstance(value, (numbers.Number, str, Decimal)):
                place = "".join(f"[{k}]" for k in index)
                raise TypeError(f"{where}: X{place}={shown_value(value)}: argument must be a string or a number, "
                                f"not {type(value).__name__}")


def classes_of(y: Any, where: str) -> tuple[Any, Any]:
    """``(classes_, index)``: the classes sorted (two or more), and each sample's class as its index in them."""
    if y is None:
        raise ValueError(f"{where}: ExactPerceptron requires y to be passed, but the target y is None")
    y = label_sequence(y, where)
    values = y.to_numpy() if hasattr(y, "to_numpy") else np.asarray(y)
    if values.ndim == 2 and values.shape[1] == 1:
        warnings.warn("A column-vector y was passed when a 1d array was expected. Please change the shape of y "
                      "to (n_samples,), for example using ravel().", DataConversionWarning, stacklevel=3)
        values = values[:, 0]
    if values.ndim != 1:
        raise ValueError(f"{where}: y should be a 1d array, got an array of shape {values.shape} instead.")
    if values.dtype.kind in "fc":
        finite = np.isfinite(values)
        if not finite.all():
            i = int(np.flatnonzero(~finite)[0])
            raise ValueError(f"{where}: y[{i}]={float(values[i].real)!r} is not a finite number: "
                             "Input y contains NaN or infinity")
        if values.dtype.kind == "c" or (values != np.round(values)).any():
            raise ValueError(f"{where}: Unknown label type: continuous (y holds {values.dtype} values that are "
                             "not whole numbers); a classifier needs two class labels")
    if values.dtype.kind not in "iufcb":
        exact_labels(values, source=where)  # each label read once: a missing value, a mix of numbers and text
    try:
        if values.dtype.kind in "iufb":
            # numbers (finite, checked above): each label's place among the sorted classes is its index, as
            # `return_inverse` gives it, found by one binary search a label (30 µs less a fit than np.unique's
            # inverse, whose argsort and scatter cost more than the search on a few classes)
            classes = np.unique(values)
            inverse = np.searchsorted(classes, values)
        else:
            classes, inverse = np.unique(values, return_inverse=True)
    except TypeError as error:  # labels of kinds that do not compare, such as 1 and "a"
        raise ValueError(f"{where}: Unknown label type: y's labels cannot be ordered ({error})") from None
    if len(classes) == 1:
        raise ValueError(f"{where}: y has only one class ({shown_value(classes.tolist()[0])}); the perceptron needs two")
    return classes, inverse.reshape(-1)


#: The smallest positive float64 (2^-1074): what a positive score too small for float64 becomes.
TINY = math.ulp(0.0)


def to_float(numerator: int, denominator: int) -> float:
    """numerator/denominator rounded once to the nearest float64 (±inf beyond its range), never to 0.0 unless
    it is 0: a value too small for float64 is ±2^-1074, so its sign survives.

    Examples
    --------
    >>> to_float(1, 3), to_float(-1, 10**400), to_float(10**400, 1), to_float(0, 5)
    (0.3333333333333333, -5e-324, inf, 0.0)
    """
    try:
        value = numerator / denominator  # int / int is correctly rounded in Python
    except OverflowError:
        return float("inf") if (numerator > 0) == (denominator > 0) else float("-inf")
    if value == 0.0 and numerator != 0:
        return TINY if (numerator > 0) == (denominator > 0) else -TINY
    return value
