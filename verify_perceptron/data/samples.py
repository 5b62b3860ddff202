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
            return _limb_matrix(data, bias, augmentation.bias_first, lend=lend)
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


def _limb_matrix(data: Dataset, bias: int, bias_first: bool, *, lend: bool = False) -> ExactMatrix:
    """`sample_matrix` for numerators held in limbs (`Dataset.limbs`): z_i in limbs too, with their norms,
    in one pass in C where it was built, with no Python integer per entry. With `lend`, the dataset lets go of
    its limbs for the matrix's (`Dataset.rest_on`); where a fit holds the user's binary floats
    (`Dataset.binary_rows`), before the matrix is made, which is then made from them (`_from_floats`).

    Examples
    --------
    >>> from verify_perceptron.data.limb_arrays import dyadic_limbs
    >>> data = Dataset(limbs=dyadic_limbs(np.array([[3], [1]]), np.array([[70], [0]]), 2), y=(1, -1))
    >>> m = _limb_matrix(data, -1, True)
    >>> m.limbs.shape, m.exact.tolist() == [[-1, 3 * 2**70], [1, -1]], m.norms.tolist() == [9 * 2**140 + 1, 2]
    ((2, 2, 2), True, True)
    """
    n, m, L = data.limbs.shape  # (no reference kept here: `_from_floats` lets go of them)
    # |z| is at most max(|x|, |bias|): the limbs that hold the larger and its negation
    bits = max(data.numerator_bits, abs(bias).bit_length())
    lz = max(L, limbs_for_bits(bits))
    column = 0 if bias_first else m
    if _kernel.signed_limbs is None:
        Z = np.empty((n, m + 1), dtype=object)
        features = slice(1, None) if bias_first else slice(0, m)
        Z[:, features] = limb_values(data.limbs) * data.y_array[:, None].astype(object)
        Z[:, column] = bias * data.y_array.astype(object)
        matrix = ExactMatrix(None, limbs=as_limbs(Z.reshape(-1), lz).reshape(n, m + 1, lz), biggest=2**bits - 1)
        if lend:
            data.rest_on(matrix.limbs, column)
        return matrix
    Z = np.empty((n, m + 1, lz), dtype=np.int64)
    norms = np.empty((n, 2 * lz + 1), dtype=np.int64)
    bias_limbs = as_limbs(np.array([bias], dtype=object), lz)[0]
    floats = data.binary_rows.X if lend and data.binary_rows is not None else None
    if floats is None or not _from_floats(data, floats, bias_limbs, column, Z, norms):
        _kernel.signed_limbs(np.ascontiguousarray(data.limbs), data.y_array, bias_limbs, column, Z, norms)
        if lend:
            data.rest_on(Z, column)
    matrix = ExactMatrix(None, limbs=Z, norm_limbs=norms, biggest=2**bits - 1)
    # the filter's rows from the user's float64 X while the fit holds it: no float copy of Z (`float_source`)
    matrix.float_source = FilterRows.of(data.binary_rows, data.y_array, bias, column, bits)
    return matrix


#: `_from_floats` reads the user's floats into limbs this many rows at a time (a few MB of limbs at d = 10).
FLOAT_ROWS = 1 << 14


def _from_floats(data: Dataset, X: Any, bias_limbs: Any, column: int, Z: Any, norms: Any) -> bool:
    """Fill `Z` and `norms` (`_limb_matrix`'s) from the user's float64 `X`, whose values are the dataset's over its
    denominator 2^p (`Dataset.binary_rows`), a block of rows at a time: each block's limbs (`dyadic_fill`, as
    `verify_perceptron.data.arrays.exact_table` made the dataset's) into the matrix's rows (`signed_limbs`).

    The dataset lets go of its limbs (`Dataset.rest_on`) before the matrix is filled: the two are never whole
    together (1.8x and 2.0x the int64 data at 10^6 x 10 in two limbs). The first block is compared with the
    dataset's own limbs first; False, with nothing lent or written, where it differs or cannot be made.

    Examples
    --------
    >>> from verify_perceptron.data.arrays import exact_table
    >>> from verify_perceptron.data.dataset import from_table
    >>> X = np.array([[2.0**70, -0.5], [3.0, 0.0]])
    >>> data = from_table(exact_table(X), [1, -1], source="t", labels=("a", "b"))
    >>> Z, norms = np.empty((2, 3, 2), dtype=np.int64), np.empty((2, 5), dtype=np.int64)
    >>> _from_floats(data, X, as_limbs(np.array([2], dtype=object), 2)[0], 0, Z, norms), data._limbs is None
    (True, True)
    >>> limb_values(Z).tolist() == [[2, 2**71, -1], [-2, -6, 0]]
    True
    >>> limb_values(data.limbs).tolist() == [[2**71, -1], [6, 0]]  # made again from Z
    True
    >>> two = as_limbs(np.array([2], dtype=object), 2)[0]
    >>> _from_floats(data, X + 1.0, two, 0, Z, norms), data._lent  # X is not its values
    (False, None)
    """
    held = data._limbs
    if (_kernel.dyadic_fill is None or held is None or data._lent is not None or data._exact is not None
            or not isinstance(X, np.ndarray) or X.dtype != np.float64 or not X.flags.c_contiguous
            or X.shape != held.shape[:2] or data.denominator & (data.denominator - 1)):
        return False
    n, m, L = held.shape
    power, y, fill, signed = data.denominator.bit_length() - 1, data.y_array, _kernel.dyadic_fill, _kernel.signed_limbs
    assert fill is not None and signed is not None  # (`_limb_matrix` comes here only then)
    block = np.empty((min(FLOAT_ROWS, n), m, L), dtype=np.int64)
    for lo in range(0, n, FLOAT_ROWS):
        hi = min(n, lo + FLOAT_ROWS)
        rows = block[:hi - lo]
        try:
            fill(X[lo:hi], power, rows)
        except ValueError:
            if lo:  # (the dataset let go of its limbs: X is not its values, a broken invariant)
                raise
            return False
        if not lo:
            if not np.array_equal(rows, held[:hi]):
                return False
            del held
            data.rest_on(Z, column)
            if data._lent is None:
                return False
        signed(rows, y[lo:hi], bias_limbs, column, Z[lo:hi], norms[lo:hi])
    return True
