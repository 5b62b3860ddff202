"""The rows the active-set method reads, kept as integer arrays over one common denominator.

A dataset's samples are integers over one denominator L already
(`Dataset.numerators`), so the separability problem's rows y_i·(1, x_i)
are the integer array y_i·(L, n_i) over L: `augmented_matrix` takes it from
the dataset as it is stored, with no `Fraction` per cell. Every exact pass
over the rows is one exact matrix-vector product
(`verify_perceptron.data.integers.ExactMatrix`): a point x = X/D satisfies
row k's ``a_k·x >= 1`` iff ``A_k·X >= L·D``. Floats (A/L in float64) only
choose which row to look at first.

Rows given as Fractions (the tests' and the notes' small examples) become
the same integer arrays through `integer_matrix`.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, cast

import numpy as np

from ._activeset import _FLOAT_TOL, Constraints, Key, Number, exact_vector
from ..data.dataset import Dataset
from ..data.integers import ExactMatrix
from ..data.samples import sample_matrix, signed_samples

__all__ = [
    "augmented_constraints",
    "keep_per_dataset",
    "augmented_matrix",
    "explicit_rows",
    "integer_matrix",
    "integer_vector",
    "matrix_margins",
    "pair_rows",
]


def integer_matrix(rows: Sequence[Sequence[Fraction]]) -> tuple[list[tuple[int, ...]], int]:
    """``(A, L)`` with ``rows[i][j] == A[i][j]/L`` exactly: integers over one least common denominator.

    Then each exact comparison ``row·w >= c`` is in integers: ``A[i]·W >= c·L·D`` for w = W/D.

    Examples
    --------
    >>> integer_matrix([(Fraction(1, 2), Fraction(1, 3)), (Fraction(2), Fraction(0))])
    ([(3, 2), (12, 0)], 6)
    """
    scale = 1
    for row in rows:
        for v in row:
            if scale % v.denominator:  # (a remainder is cheaper than a gcd: most denominators divide the lcm so far)
                scale = scale * v.denominator // math.gcd(scale, v.denominator)
    return [tuple(v.numerator * (scale // v.denominator) for v in row) for row in rows], scale


def integer_vector(values: Sequence[Fraction]) -> tuple[tuple[int, ...], int]:
    """``(W, D)`` with ``values == W/D`` exactly, D > 0.

    Examples
    --------
    >>> integer_vector([Fraction(1, 2), Fraction(-2, 3)])
    ((3, -4), 6)
    """
    rows, scale = integer_matrix([values])
    return rows[0], scale


def _array(rows: Sequence[Sequence[int]]) -> Any:
    """Integer rows as an (n, d) array: int64 when every value fits, else Python integers."""
    try:
        return np.array(rows, dtype=np.int64)
    except OverflowError:
        return np.array(rows, dtype=object)


class _Canonical:
    """The augmentation x~ = (1, x) of the separability problem (bias first, input +1)."""

    bias_first = True
    bias_input = 1


def keep_per_dataset(store: dict[int, Any], data: Dataset, value: Any) -> Any:
    """``store[id(data)] = value`` while `data` lives (the dataset is treated as immutable); returns `value`.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> store, data = {}, example("and")
    >>> keep_per_dataset(store, data, 5), store[id(data)]
    (5, 5)
    >>> del data
    >>> store
    {}
    """
    key = id(data)
    store[key] = value
    weakref.finalize(data, store.pop, key, None)  # before the id can be another dataset's
    return value


#: Augmented matrices already made, by the id of their dataset while it lives.
_AUGMENTED: dict[int, tuple[ExactMatrix, int]] = {}


def augmented_matrix(data: Dataset) -> tuple[ExactMatrix, int]:
    """``(A, L)``: row i of A is y_i·L·(1, x_i) in integers, so that ``y_i·w·x~_i = A_i·w / L``; made once per dataset.

    Taken from the dataset's numerators as they are stored (no `Fraction`
    per cell), in the narrowest integer type that holds every entry. Below
    `HELD_BELOW` cells, numerators held in limbs (binary floats) give rows
    and norms in limbs, summed in C (`verify_perceptron.data.samples.sample_matrix`):
    their norms in Python integers were most of the matrix's cost there.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> A, L = augmented_matrix(example("and"))
    >>> A.exact[:2].tolist(), L
    ([[-1, 0, 0], [-1, 0, -1]], 1)
    """
    kept = _AUGMENTED.get(id(data))
    if kept is None:
        small = data.limbs is not None and data.n_samples * (data.n_features + 1) < HELD_BELOW
        matrix = sample_matrix(data, _Canonical()) if small else ExactMatrix(signed_samples(data, _Canonical()))
        kept = keep_per_dataset(_AUGMENTED, data, (matrix, data.denominator))
    return kept


#: Below this many cells the augmented rows of numerators held in limbs are held in limbs too: the exact
#: active set reads them as Python integers there anyway. From it on (where a float LP proposes first,
#: `verify_perceptron.certify.separability.PROPOSE_FROM`) they stay one array of Python integers, as the
#: proposal reads them: limbs beside it would add to the peak.
HELD_BELOW = 20_000


def matrix_margins(matrix: ExactMatrix, scale: int, w: Sequence[Fraction]) -> tuple[Any, int]:
    """``(M, E)`` with ``A_i·w / scale == M[i]/E`` for every row: all margins over one denominator E > 0, exactly.

    M is an int64 array where the product provably fits, else one of Python integers.

    Examples
    --------
    >>> A = ExactMatrix(np.array([[2, 0], [1, 1]]))
    >>> M, E = matrix_margins(A, 2, [Fraction(1, 3), Fraction(1)])  # (1/3, 2/3) = (2/6, 4/6)
    >>> M.tolist(), E
    ([2, 4], 6)
    """
    W, D = integer_vector(w)
    return matrix.products(W, norm_sq=None), scale * D  # (‖W‖² made only where the matrix's guard reads it)


def _float_matrix(matrix: ExactMatrix, scale: int) -> Any | None:
    """A/scale in float64, or None when a value does not fit (the exact method then works alone).

    Each entry is the quotient rounded once: from the integer array when
    entries and scale are exact doubles (an IEEE division then rounds as
    ``int / int`` does), or when the entries are int64 and the scale a power
    of two (`_over_power_of_two`), from the limbs' nearest doubles over a
    power of two (`_held_floats`), else one Python division per entry.
    """
    converted = _held_floats(matrix, scale)
    if converted is None and matrix.float_exact and scale < 2**53:
        converted = matrix.exact.astype(np.float64) / float(scale)
    elif converted is None and _over_power_of_two(matrix, scale):
        converted = matrix.exact.astype(np.float64) / float(scale)
    elif converted is None:
        try:
            converted = np.array([[v / scale for v in row] for row in matrix.exact.tolist()], dtype=float)
        except OverflowError:
            return None
    return converted if converted.size and np.isfinite(converted).all() else None


def _over_power_of_two(matrix: ExactMatrix, scale: int) -> bool:
    """Whether A/scale in float64 is each int64 entry's nearest double divided by scale, a power of two.

    NumPy's int64 -> float64 conversion rounds to nearest (ties to even), as ``float(int)`` does, and a
    division by 2^k (k <= 1000) only moves the exponent of a quotient that stays a normal double: nonzero
    entries below 2^63 give quotients between 2^-1000 and 2^63. So the array gives the floats one Python
    division per entry gives (binary floats of int64 numerators, iris raw's: 0.1 -> 0.01 ms).

    Examples
    --------
    >>> A = ExactMatrix(np.array([[2**60 + 1, -3]]))  # 2^60 + 1 is no double: rounded once, as int / int is
    >>> _over_power_of_two(A, 2**70), _over_power_of_two(A, 3), _over_power_of_two(A, 2**1001)
    (True, False, False)
    >>> (A.exact.astype(np.float64) / float(2**70)).tolist() == [[(2**60 + 1) / 2**70, -3 / 2**70]]
    True
    """
    return (matrix.held is None and matrix.exact.dtype == np.int64 and 0 < scale and not scale & (scale - 1)
            and scale.bit_length() <= 1000)


def _held_floats(matrix: ExactMatrix, scale: int) -> Any | None:
    """`_float_matrix` for entries held in limbs over a power of two (binary floats): None when it does not apply.

    Each entry's nearest double, from C, divided by 2^k: a power of two only
    moves the exponent, so the quotient is the nearest double of A/2^k, as
    one Python division rounds it, as long as it is a normal double. It is:
    with k <= 1000 and entries below 2^1000 (`LimbMatrix.doubles`), a
    nonzero quotient lies between 2^-1000 and 2^1000.

    Examples
    --------
    >>> from verify_perceptron.data.limb_arrays import dyadic_limbs
    >>> m = ExactMatrix(None, limbs=dyadic_limbs(np.array([[3, -1]]), np.array([[70, 0]]), 2))
    >>> _held_floats(m, 2**70).tolist(), _held_floats(m, 3)
    ([[3.0, -8.470329472543003e-22]], None)
    """
    if matrix.held is None or scale <= 0 or scale & (scale - 1) or scale.bit_length() > 1000:
        return None
    doubles = matrix.held.doubles()
    return None if doubles is None else doubles / float(scale)


def _float_point(x: Sequence[Number]) -> Any | None:
    try:
        point = np.array([float(v) for v in x], dtype=float)
    except OverflowError:
        return None
    return point if np.isfinite(point).all() else None


def _exact_point(x: Sequence[Number]) -> tuple[tuple[int, ...], int]:
    """``(X, D)`` for x = X/D."""
    return integer_vector(exact_vector(x))


class _ExplicitRows:
    """Rows ``A[k]/L``, keyed by k.

    Floats only screen which row to try first; whether it is violated, and
    that none is, is decided on integers: ``a·x >= 1`` iff ``A[k]·X >= L·D`` for x = X/D.
    """

    def __init__(self, matrix: ExactMatrix, scale: int) -> None:
        self.matrix = matrix
        self.scale = self.row_scale = scale
        # (rows read by index, `ExactMatrix.row_values`: a matrix held in limbs is not made Python integers
        # whole, which took 2 ms on breast cancer's, for the few rows the method reads)
        self.dim = matrix.shape[1]
        self.floats: Any = _float_matrix(matrix, scale)
        self.has_floats = self.floats is not None

    def scaled_row(self, key: Key) -> Sequence[int]:
        return tuple(self.matrix.row_values([cast(int, key)])[0].tolist())

    def scaled_rows(self, keys: Sequence[Key]) -> list[Sequence[int]]:
        return [tuple(row) for row in self.matrix.row_values([cast(int, k) for k in keys]).tolist()]

    def row(self, key: Key, exact: bool) -> Sequence[Number]:
        k = cast(int, key)
        if exact:
            return tuple(Fraction(v, self.scale) for v in self.scaled_row(k))
        return [float(v) for v in self.floats[k]]

    def most_violated(self, x: Sequence[Number], exact: bool) -> Key | None:
        point = None if self.floats is None else _float_point(x)
        values = None if point is None else self.floats @ point
        if not exact:
            if values is None:
                raise ArithmeticError("the rows or the point do not convert to float")
            worst = int(values.argmin())
            return worst if values[worst] < 1 - _FLOAT_TOL * (1 + abs(values[worst])) else None
        X, D = _exact_point(x)
        one = self.scale * D  # a·x >= 1 iff A[k]·X >= one
        if values is not None:
            guess = int(values.argmin())
            if sum(a * b for a, b in zip(self.scaled_row(guess), X)) < one:
                return guess
        exact_values = self.matrix.products(X, norm_sq=None)
        worst = int(np.argmin(exact_values))  # the first of the smallest
        return worst if int(exact_values[worst]) < one else None


class _PairRows:
    """The rows ``(x_i - x_j)/2`` for every positive sample i and negative sample j, made on demand.

    ``min ½‖v‖²`` subject to these is the free-bias SVM ``min ‖v‖²``,
    ``y_i·(v·x_i + b) >= 1``: a pair row says the two classes' scores are 2 apart.
    The most violated pair is the lowest-scoring positive with the highest-scoring negative.
    """

    def __init__(self, matrix: ExactMatrix, scale: int, y: Sequence[int]) -> None:
        self.matrix = matrix
        self.scale = scale
        self.row_scale = 2 * scale
        labels = np.asarray(y)
        self.pos, self.neg = np.flatnonzero(labels > 0), np.flatnonzero(labels < 0)
        self.dim = matrix.exact.shape[1]
        self.floats: Any = _float_matrix(matrix, scale)
        self.has_floats = self.floats is not None

    def _rows(self, key: Key) -> tuple[list[int], list[int]]:
        i, j = cast("tuple[int, int]", key)
        return self.matrix.exact[i].tolist(), self.matrix.exact[j].tolist()

    def scaled_row(self, key: Key) -> Sequence[int]:
        first, second = self._rows(key)
        return tuple(a - b for a, b in zip(first, second))

    def scaled_rows(self, keys: Sequence[Key]) -> list[Sequence[int]]:
        return [self.scaled_row(key) for key in keys]

    def row(self, key: Key, exact: bool) -> Sequence[Number]:
        if exact:
            return tuple(Fraction(v, 2 * self.scale) for v in self.scaled_row(key))
        i, j = cast("tuple[int, int]", key)
        return [float(a - b) / 2 for a, b in zip(self.floats[i], self.floats[j])]

    def _extremes(self, scores: Any) -> tuple[int, int]:
        """The first lowest-scoring positive sample and the first highest-scoring negative one."""
        return int(self.pos[np.argmin(scores[self.pos])]), int(self.neg[np.argmax(scores[self.neg])])

    def most_violated(self, x: Sequence[Number], exact: bool) -> Key | None:
        if not exact:
            point = None if self.floats is None else _float_point(x)
            if point is None:
                raise ArithmeticError("the samples or the point do not convert to float")
            s = self.floats @ point
            i, j = self._extremes(s)
            gap = (s[i] - s[j]) / 2
            return (i, j) if gap < 1 - _FLOAT_TOL * (1 + abs(gap)) else None
        X, D = _exact_point(x)
        scores = self.matrix.products(X, norm_sq=None)  # v·x_k = scores[k] / (L·D)
        i, j = self._extremes(scores)
        return (i, j) if int(scores[i]) - int(scores[j]) < 2 * self.scale * D else None


def explicit_rows(rows: Sequence[Sequence[Fraction]]) -> Constraints:
    """Constraints ``rows[k]·x >= 1``, keyed by k.

    Examples
    --------
    >>> rows = explicit_rows([(Fraction(1, 2), Fraction(0)), (Fraction(0), Fraction(1))])
    >>> rows.scaled_row(0), rows.row_scale, rows.most_violated([Fraction(2), Fraction(1, 2)], exact=True)
    ((1, 0), 2, 1)
    """
    A, scale = integer_matrix(rows)
    return _ExplicitRows(ExactMatrix(_array(A)), scale)


def augmented_constraints(data: Dataset) -> Constraints:
    """Constraints ``y_i·w·x~_i >= 1`` with x~ = (1, x), keyed by sample index, from the dataset's integers.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> rows = augmented_constraints(example("and"))
    >>> rows.scaled_row(3), rows.most_violated([Fraction(-3), Fraction(2), Fraction(2)], exact=True) is None
    ((1, 1, 1), True)
    """
    return _ExplicitRows(*augmented_matrix(data))


def pair_rows(data: Dataset) -> Constraints:
    """Constraints ``(x_i - x_j)/2·v >= 1`` for positive i and negative j, keyed by (i, j).

    Examples
    --------
    >>> from verify_perceptron.data.dataset import from_arrays
    >>> rows = pair_rows(from_arrays([[0, 4], [2, 4], [0, 0]], [1, 1, 0]))
    >>> rows.scaled_row((0, 2)), rows.most_violated([Fraction(0), Fraction(1, 2)], exact=True) is None
    ((0, 4), True)
    """
    return _PairRows(data.exact, data.denominator, data.y)
