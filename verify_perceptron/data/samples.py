"""The signed scaled samples z_i = y_i·L·x~_i that the fast engine runs on and the checker replays against.

The data are integers over one common denominator L (`Dataset.numerators`),
so the augmented samples x~_i times L are integer vectors, and so are
z_i = y_i·L·x~_i. The matrix of them is built here once and passed to
whoever needs it (the engine and the checker), so neither builds it
through the other.

Augmenting a sample needs only where the constant input goes and its value;
any object with the attributes `bias_first` and `bias_input` says so (a
`verify_perceptron.notes.conventions.Convention` does), which keeps this
layer free of the notes.
"""

from __future__ import annotations

import weakref
from typing import Any, Protocol

import numpy as np

from . import kernel as _kernel
from .dataset import Dataset
from .float_source import FilterRows
from .integers import ExactMatrix, as_limbs
from .limb_arrays import limb_values, limbs_for_bits

__all__ = ["Augmentation", "scaled_samples", "signed_samples", "sample_matrix"]


class Augmentation(Protocol):
    """Where a note puts its constant input, and what it is (a `Convention` has both)."""

    @property
    def bias_first(self) -> bool:
        """True when the constant input comes first in x~, False when last."""

    @property
    def bias_input(self) -> int:
        """The constant input: +1, or -1."""


def scaled_samples(data: Dataset, augmentation: Augmentation) -> tuple[Any, Any]:
    """``(X, Z)``: the augmented samples times L, and the same times their labels, as integer arrays.

    Examples
    --------
    >>> from verify_perceptron.notes.conventions import CONVENTIONS
    >>> from verify_perceptron.data.examples import example
    >>> X, Z = scaled_samples(example("and"), CONVENTIONS["sum-norm"])
    >>> X[3].tolist(), Z[0].tolist()
    ([1, 1, -1], [0, 0, 1])
    """
    numerators = data.numerators
    bias = np.full((data.n_samples, 1), augmentation.bias_input * data.denominator, dtype=numerators.dtype)
    X = np.hstack([bias, numerators] if augmentation.bias_first else [numerators, bias])
    return X, signed_samples(data, augmentation)


def signed_samples(data: Dataset, augmentation: Augmentation) -> Any:
    """``Z`` of `scaled_samples` alone, z_i = y_i·L·x~_i, built in place (no temporary copies).

    It is stored in the narrowest of int16, int32 and int64 that holds every
    entry (Python integers when the data need them): the scans read every
    sample at every pass, so narrower rows are faster to stream.

    Examples
    --------
    >>> from verify_perceptron.notes.conventions import CONVENTIONS
    >>> from verify_perceptron.data.examples import example
    >>> Z = signed_samples(example("and"), CONVENTIONS["classic"])
    >>> Z[0].tolist(), Z.dtype.name
    ([-1, 0, 0], 'int16')
    """
    numerators = data.numerators
    n, m = numerators.shape
    dtype = _narrowest(data, augmentation)
    y = data.y_array.astype(dtype)
    Z = np.empty((n, m + 1), dtype=dtype)
    features, bias = (slice(1, None), 0) if augmentation.bias_first else (slice(0, m), m)
    if dtype is object:
        Z[:, features] = numerators
        Z[:, features] *= y[:, None]
    else:  # one pass, straight into the narrow array (every product fits: |y| = 1)
        np.multiply(numerators, y[:, None], out=Z[:, features], casting="unsafe")
    Z[:, bias] = augmentation.bias_input * data.denominator * y
    return Z


def _narrowest(data: Dataset, augmentation: Augmentation) -> Any:
    """The narrowest of int16/int32/int64 that holds every entry of every z_i (object if none does)."""
    numerators = data.numerators
    if numerators.dtype == object:
        return object
    biggest = max(int(numerators.max(initial=0)), -int(numerators.min(initial=0)),
                  abs(augmentation.bias_input) * data.denominator)
    return next((t for t in (np.int16, np.int32, np.int64) if biggest <= np.iinfo(t).max), object)


def sample_matrix(data: Dataset, augmentation: Augmentation, *, lend: bool = False) -> ExactMatrix:
    """``ExactMatrix(signed_samples(data, augmentation))``, made in one pass in C where it was built.

    With `lend`, a dataset held in limbs (or in int64 numerators) lets go of them for the matrix's while it is not
    shared (`Dataset.rest_on`: for a run, whose trace keeps its matrix); read, they are made again from it.

    Examples
    --------
    >>> from verify_perceptron.notes.conventions import CONVENTIONS
    >>> from verify_perceptron.data.examples import example
    >>> m = sample_matrix(example("and"), CONVENTIONS["classic"])
    >>> m.exact[3].tolist(), m.norms.tolist(), m.max_norm_sq
    ([1, 1, 1], [1, 2, 2, 3], 3)
    """
    bias = augmentation.bias_input * data.denominator
    if data.limbs is not None:
        if data.n_samples * (data.n_features + 1) >= SHARED_BELOW:
            matrix = _limb_matrix(data, bias, augmentation.bias_first)
            if lend:
                data.rest_on(matrix.limbs, 0 if augmentation.bias_first else data.n_features)
            return matrix
        key = (id(data), bias, augmentation.bias_first)
        if key not in _SHARED:
            _SHARED[key] = _limb_matrix(data, bias, augmentation.bias_first)
            weakref.finalize(data, _SHARED.pop, key, None)  # before the id can be another dataset's
        return _SHARED[key]
    numerators = data.numerators
    if _kernel.signed_rows is None or numerators.dtype != np.int64:
        return ExactMatrix(signed_samples(data, augmentation))
    n, m = numerators.shape
    X = np.ascontiguousarray(numerators)
    # The narrowest width that holds every entry, found by trying: a row that does not fit stops
    # the pass at once, so no separate pass over the data looks for the largest entry.
    for dtype in (np.int16, np.int32, np.int64):
        if abs(bias) > np.iinfo(dtype).max:
            continue
        Z = np.empty((n, m + 1), dtype=dtype)
        norms = np.empty(n, dtype=np.int64)
        try:
            largest = _kernel.signed_rows(X, data.y_array, bias, 0 if augmentation.bias_first else m, Z, norms)
        except OverflowError:
            continue
        bound = np.iinfo(dtype).max if dtype is not np.int64 else None  # entries are at most this
        if lend:  # the int64 numerators are made again from Z if read (0.9x the int64 data at d = 10 not held)
            data.rest_on(Z, 0 if augmentation.bias_first else m)
        return ExactMatrix(Z, norms=None if largest is None else norms, biggest=bound)
    return ExactMatrix(signed_samples(data, augmentation))  # an entry beyond int64: Python integers


#: Below this many cells (samples times features + 1) the matrix of a dataset held in limbs is made once per
#: augmentation and shared while the dataset lives (`_SHARED`): the run, the checker and the separability
#: decision of one fit then read one matrix, and its last product (`ExactMatrix.products`) serves all of them.
#: On breast cancer's float64 data the checker's margins against the certified max-margin separator (about
#: 4,000 bits) are the product the decision computed last. Larger data keep one matrix per caller, as before
#: (what a caller lets go is not held here).
SHARED_BELOW = 20_000

#: Sample matrices of small datasets held in limbs, by (dataset id, bias, bias_first), while the dataset lives.
_SHARED: dict[tuple[int, int, bool], ExactMatrix] = {}


def _limb_matrix(data: Dataset, bias: int, bias_first: bool) -> ExactMatrix:
    """`sample_matrix` for numerators held in limbs (`Dataset.limbs`): z_i in limbs too, with their norms,
    in one pass in C where it was built, with no Python integer per entry.

    Examples
    --------
    >>> from verify_perceptron.data.limb_arrays import dyadic_limbs
    >>> data = Dataset(limbs=dyadic_limbs(np.array([[3], [1]]), np.array([[70], [0]]), 2), y=(1, -1))
    >>> m = _limb_matrix(data, -1, True)
    >>> m.limbs.shape, m.exact.tolist() == [[-1, 3 * 2**70], [1, -1]], m.norms.tolist() == [9 * 2**140 + 1, 2]
    ((2, 2, 2), True, True)
    """
    X = data.limbs
    n, m, L = X.shape
    # |z| is at most max(|x|, |bias|): the limbs that hold the larger and its negation
    bits = max(data.numerator_bits, abs(bias).bit_length())
    lz = max(L, limbs_for_bits(bits))
    column = 0 if bias_first else m
    if _kernel.signed_limbs is None:
        Z = np.empty((n, m + 1), dtype=object)
        features = slice(1, None) if bias_first else slice(0, m)
        Z[:, features] = limb_values(X) * data.y_array[:, None].astype(object)
        Z[:, column] = bias * data.y_array.astype(object)
        return ExactMatrix(None, limbs=as_limbs(Z.reshape(-1), lz).reshape(n, m + 1, lz), biggest=2**bits - 1)
    Z = np.empty((n, m + 1, lz), dtype=np.int64)
    norms = np.empty((n, 2 * lz + 1), dtype=np.int64)
    _kernel.signed_limbs(np.ascontiguousarray(X), data.y_array, as_limbs(np.array([bias], dtype=object), lz)[0],
                         column, Z, norms)
    matrix = ExactMatrix(None, limbs=Z, norm_limbs=norms, biggest=2**bits - 1)
    # the filter's rows from the user's float64 X while the fit holds it: no float copy of Z (`float_source`)
    matrix.float_source = FilterRows.of(data.binary_rows, data.y_array, bias, column, bits)
    return matrix
