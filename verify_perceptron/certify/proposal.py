"""Separability proposed in floating point by a linear program, then certified exactly.

A float LP solver (SciPy's HiGHS) is fast and usually right, but it decides
nothing here: what it proposes is a certificate, and only the exact check
of that certificate counts.

* **Gordan's certificate** is looked for as a *basic* solution of
  ``λ >= 0, Σ λ_i = 1, Σ λ_i·y_i·x~_i = 0`` (m + 2 equations): by
  Carathéodory it has at most m + 2 nonzero entries. Only its support is
  taken from the floats; λ on that support is solved again in integers
  (fraction-free, `._fraction_free`) and checked exactly: every entry > 0,
  Σ λ = 1, the combination 0.
* A **separator** w with ``y_i·w·x~_i >= 1`` is rounded to integers over a
  power of two and checked on every sample in one exact integer pass
  (`verify_perceptron.data.integers.ExactMatrix.products`, with its int64
  guard), then scaled to margin exactly 1.

The LP is solved on a sample of the rows first and grows (cutting planes):
a Gordan certificate of a subset is one of the whole set (λ = 0 elsewhere),
and a subset's separator is checked against every row, the rows it fails
joining the subset. Without SciPy, or when a proposal fails its check,
`propose` returns None and the caller decides by the exact method
(`verify_perceptron.certify.separability.decide_separability`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from . import _fraction_free as fraction_free, _highs
from ._constraints import augmented_matrix, matrix_margins
from ..data import kernel as _data_kernel
from ..data.dataset import Dataset
from ..data.integers import ExactMatrix
from ..data.limb_arrays import limb_values

__all__ = ["FIRST_ROWS", "exact_gordan", "gordan_support_defect", "propose", "rounded_separator"]

#: The LP is first solved on this many rows (or 10 per dimension, if more), drawn at random with a fixed seed.
FIRST_ROWS = 1000

#: How `propose` names its certificates (`Separability.method`).
GORDAN_METHOD = "a float LP's basic solution on {k} samples, λ solved and checked exactly"
SEPARATOR_METHOD = "a float LP's separator, checked exactly on every sample"

#: Cells (rows times columns) converted to floats at a time for the passes over every row: 2 MiB of floats.
#: (2^16 rows were 53 MB at d = 100, a piece as large as two thirds of the int64 data of 10^5 x 100, in the
#: separability worker, whose peak `verify`'s counts.)
_PIECE_CELLS = 2**18

_linprog: Any = "not looked for"


def _scipy_linprog() -> Any:
    """SciPy's `linprog`, or None when SciPy is not installed (the exact method then decides alone)."""
    global _linprog
    if isinstance(_linprog, str):
        try:
            from scipy.optimize import linprog
            _linprog = linprog
        except ImportError:  # pragma: no cover - depends on the environment
            _linprog = None
    return _linprog


def _left(deadline: float | None) -> float | None:
    return None if deadline is None else deadline - time.monotonic()


def _lp_options(deadline: float | None) -> dict[str, Any]:
    left = _left(deadline)
    return {} if left is None else {"time_limit": max(left, 1e-3)}


def _gordan_lp(rows: Any, deadline: float | None) -> Any | None:
    """A basic λ (floats) with λ >= 0, Σλ = 1, Σ λ_i·rows_i = 0, or None when the LP finds none."""
    n, d = rows.shape
    equations = np.vstack([rows.T, np.ones(n)])
    right = np.zeros(d + 1)
    right[-1] = 1.0
    # dual simplex: its answer is a vertex, so at most d + 1 entries are nonzero
    if _highs.CORE_ONLY and (x := _highs.lp_solution(equations, right, right, (0.0, math.inf), dual_simplex=True,
                                                     time_limit=_lp_options(deadline).get("time_limit"))) \
            is not _highs.UNAVAILABLE:
        return x
    result = _scipy_linprog()(np.zeros(n), A_eq=equations, b_eq=right, bounds=(0, None), method="highs-ds",
                              options=_lp_options(deadline))
    return result.x if result.status == 0 and result.x is not None else None


def _separator_lp(rows: Any, deadline: float | None) -> Any | None:
    """A w (floats) with rows·w >= 1, or None when the LP finds none."""
    n, d = rows.shape
    if _highs.CORE_ONLY and (x := _highs.lp_solution(-rows, np.full(n, -math.inf), -np.ones(n), (-math.inf, math.inf),
                                                     dual_simplex=False,
                                                     time_limit=_lp_options(deadline).get("time_limit"))) \
            is not _highs.UNAVAILABLE:
        return x
    result = _scipy_linprog()(np.zeros(d), A_ub=-rows, b_ub=-np.ones(n), bounds=(None, None), method="highs",
                              options=_lp_options(deadline))
    return result.x if result.status == 0 and result.x is not None else None


def exact_gordan(matrix: ExactMatrix, support: Sequence[int], deadline: float | None = None) -> list[Fraction] | None:
    """λ on `support` solving ``Σ λ_i·A_i = 0, Σ λ_i = 1`` exactly, or None when the system has no unique solution.

    The (m + 2) x k system M·λ = (0, ..., 0, 1) is solved through its normal
    equations MᵀM·λ = Mᵀ(0, ..., 1) in integers: unique when M has full
    column rank, and then the solution of M·λ = b whenever one exists (which
    `gordan_support_defect` checks; signs are not looked at here).

    Examples
    --------
    >>> A = ExactMatrix(np.array([[-1, 0], [-1, -1], [1, 1], [1, 0]]))  # XOR's y_i·(1, x_i), first feature
    >>> [str(v) for v in exact_gordan(A, [0, 3])]
    ['1/2', '1/2']
    >>> exact_gordan(A, [0, 1, 2, 3]) is None  # four columns in three equations: not unique
    True
    """
    rows = [[*map(int, matrix.exact[i]), 1] for i in support]  # column j of M, as a row
    found = fraction_free.solve(fraction_free.gram(rows), [1] * len(rows), deadline)
    if found is None:
        return None
    X, det = found
    return [Fraction(v, det) for v in X]


def gordan_support_defect(matrix: ExactMatrix, support: Sequence[int], lam: Sequence[Fraction]) -> str | None:
    """None when λ on `support` (0 elsewhere) is Gordan's certificate for the rows of `matrix`, else what fails.

    Examples
    --------
    >>> A = ExactMatrix(np.array([[-1, 0], [-1, -1], [1, 1], [1, 0]]))
    >>> gordan_support_defect(A, [0, 3], [Fraction(1, 2), Fraction(1, 2)]) is None
    True
    >>> gordan_support_defect(A, [0, 2], [Fraction(1, 2), Fraction(1, 2)])
    'Σ λ_i·y_i·x~_i = 0 fails in coordinate 1'
    >>> gordan_support_defect(A, [0, 3], [Fraction(3, 2), Fraction(-1, 2)])
    'λ_3 = -1/2 < 0'
    """
    if len(support) != len(lam) or len(set(support)) != len(support):
        return f"{len(support)} indices, {len(set(support))} distinct, for {len(lam)} values"
    for i, value in zip(support, lam):
        if not 0 <= i < len(matrix.exact):
            return f"index {i} is not a sample (0..{len(matrix.exact) - 1})"
        if value < 0:
            return f"λ_{i} = {value} < 0"
    if sum(lam, Fraction(0)) != 1:
        return f"Σ λ_i = {sum(lam, Fraction(0))}, not 1"
    D = math.lcm(*(v.denominator for v in lam)) if lam else 1
    c = [v.numerator * (D // v.denominator) for v in lam]
    for j in range(matrix.exact.shape[1]):  # in Python integers: no product can overflow
        if sum(ci * int(matrix.exact[i, j]) for ci, i in zip(c, support)) != 0:
            return f"Σ λ_i·y_i·x~_i = 0 fails in coordinate {j}"
    return None


def rounded_separator(matrix: ExactMatrix, scale: int, w: Any) -> tuple[Fraction, ...] | None:
    """Float `w` rounded to integers over one power of two, scaled to smallest margin exactly 1, if it separates.

    The integers are as wide as `ExactMatrix.products`'s int64 guard allows, so
    the pass over every row is one int64 product when the data allow it.
    None when a margin ``A_i·w/scale`` is not > 0 (exactly).

    Examples
    --------
    >>> A = ExactMatrix(np.array([[-1, 0, 0], [-1, 0, -1], [-1, -1, 0], [1, 1, 1]]))  # AND's y_i·(1, x_i)
    >>> [str(v) for v in rounded_separator(A, 1, np.array([-3.0, 2.0, 2.0]))]
    ['-3', '2', '2']
    >>> rounded_separator(A, 1, np.array([-1.0, 1.0, 1.0])) is None
    True
    """
    if not np.isfinite(w).all() or not np.any(w):
        return None
    # ‖W‖²·max‖A_i‖² < 2^124 keeps every product in int64 (Cauchy-Schwarz), with room to spare
    room = 124 - max(matrix.max_norm_sq, 1).bit_length()
    bits = max(room // 2 - 1 - math.ceil(math.log2(len(w))) // 2, 24)
    exponent = bits - math.frexp(float(np.abs(w).max()))[1]
    W = [int(round(math.ldexp(float(v), exponent))) for v in w]
    M, E = matrix_margins(matrix, scale, [Fraction(v) for v in W])
    gamma = int(M.min())
    if gamma <= 0:
        return None
    return tuple(Fraction(v * E, gamma) for v in W)  # margins M_i/gamma >= 1, the smallest exactly 1


def _floats(matrix: ExactMatrix, scale: int, index: Any) -> Any | None:
    """Rows `index` of A/scale in float64, each entry rounded once, or None if one overflows.

    Taken a piece at a time: no float copy of the whole matrix is made.
    """
    A = matrix.exact[index]
    if matrix.float_exact and scale < 2**53:
        return A.astype(np.float64) / float(scale)  # an IEEE division of exact doubles rounds as int / int does
    try:
        converted = np.array([[v / scale for v in row] for row in A.tolist()], dtype=float)
    except OverflowError:
        return None
    return converted if np.isfinite(converted).all() else None


class _Rows:
    """The augmented rows A/L as `propose` reads them: float64 pieces, and exact rows only where a proposal is checked.

    For numerators held in limbs over a power of two (binary floats) the
    floats come from the limbs, a piece at a time (`_held_pieces`), and the
    exact matrix of Python integers (`augmented_matrix`: at 10^6 x 10, 10 s of
    conversions in the separability worker) is made only for a separator,
    whose check reads every row; a Gordan certificate reads its support's
    rows alone (`support`). Otherwise the matrix is made at once, as before.
    """

    def __init__(self, data: Dataset) -> None:
        self.data = data
        self.held = _held_pieces(data)
        self._matrix: tuple[ExactMatrix, int] | None = None if self.held else augmented_matrix(data)
        self.shape = (data.n_samples, data.n_features + 1)

    @property
    def matrix(self) -> ExactMatrix:
        if self._matrix is None:
            self._matrix = augmented_matrix(self.data)
        return self._matrix[0]

    def floats(self, index: Any) -> Any:
        """Rows `index` of A/L in float64, each entry rounded once, or None if one overflows (`_floats`)."""
        if self.held:
            return _signed_doubles(self.data, index)
        return _floats(self.matrix, self.data.denominator, index)

    def support(self, indices: list[int]) -> tuple[ExactMatrix, list[int]]:
        """``(B, at)``: rows `at` of B are the exact rows `indices` of A (B = A where A is made; else those rows alone).
        """
        if not self.held:
            return self.matrix, indices
        data = self.data
        signs = [int(data.y_array[i]) for i in indices]
        rows = limb_values(data.limbs[indices]) * np.array(signs, dtype=object)[:, None]
        bias = np.array([[data.denominator * y] for y in signs], dtype=object)
        return ExactMatrix(np.concatenate([bias, rows], axis=1)), list(range(len(indices)))


def _held_pieces(data: Dataset) -> bool:
    """Whether `_signed_doubles` applies: numerators in limbs of fewer than 1000 bits over 2^k, k < 1000, and C."""
    L = data.denominator
    return (data.limbs is not None and _data_kernel.limb_doubles is not None and L & (L - 1) == 0
            and L.bit_length() <= 1000 and data.numerator_bits < 1000)


def _signed_doubles(data: Dataset, index: Any) -> Any:
    """Rows `index` of y_i·(1, x_i) in float64 from the limbs: the same doubles as `_floats` of the augmented matrix.

    Each numerator's nearest double (from C) over L = 2^k is the nearest double of n/L (a power of two moves the
    exponent only, and with n below 2^1000 and k <= 1000 a nonzero quotient is a normal double), and a sign is
    exact, so each entry is y_i·L·x_ij / L rounded once, as `_floats` divides it; the bias entry y_i·L/L is ±1.
    ``+ 0.0`` turns y_i·0 = -0.0 into the 0.0 that int / int gives.
    """
    limbs = np.ascontiguousarray(data.limbs[index])
    doubles = np.empty(limbs.shape[:2], dtype=np.float64)
    nearest: Any = _data_kernel.limb_doubles  # (there: `_held_pieces`)
    nearest(limbs, doubles)
    y = np.asarray(data.y_array, dtype=np.float64)[index]
    out = np.empty((limbs.shape[0], limbs.shape[1] + 1), dtype=np.float64)
    np.multiply(doubles / float(data.denominator), y[:, None], out=out[:, 1:])
    out[:, 1:] += 0.0
    out[:, 0] = y
    return out


def _first_rows(n: int, d: int) -> Any:
    size = min(n, max(FIRST_ROWS, 10 * d))
    return np.sort(np.random.default_rng(0).choice(n, size, replace=False)) if size < n else np.arange(n)


def propose(data: Dataset, deadline: float | None = None) -> tuple[str, tuple[Fraction, ...], str] | None:
    """A certificate of (non-)separability proposed by a float LP and checked exactly, or None.

    Returns ``("separator", w, method)`` with ``y_i·w·x~_i >= 1`` for every
    sample (checked exactly), ``("gordan", λ, method)`` with λ checked
    exactly, or None: SciPy missing, the floats overflow, the deadline
    passed, or the proposal failed its exact check.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> kind, lam, method = propose(example("xor"))
    >>> kind, sum(lam), all(v >= 0 for v in lam)
    ('gordan', Fraction(1, 1), True)
    >>> kind, w, _ = propose(example("and"))
    >>> kind, min(sum(a * b for a, b in zip(w, (1, *x))) * (1 if y > 0 else -1)
    ...            for x, y in zip(example("and").X, example("and").y))
    ('separator', Fraction(1, 1))
    """
    if not (_highs.CORE_ONLY and _highs.core() is not None) and _scipy_linprog() is None:
        return None
    source = _Rows(data)
    n, d = source.shape
    # each column scaled to at most 1: Gordan's combination is 0 after it as before, and the LP is better conditioned
    column = np.ones(d)
    step = max(1, _PIECE_CELLS // max(d, 1))
    for start in range(0, n, step):
        piece = source.floats(slice(start, start + step))
        if piece is None:
            return None
        column = np.maximum(column if start else 0.0, np.abs(piece).max(axis=0))
    column[column == 0] = 1.0
    chosen = _first_rows(n, d)
    while _left(deadline) is None or _left(deadline) > 0:  # type: ignore[operator]
        rows = source.floats(chosen) / column  # (not None: every row converted above)
        lam = _gordan_lp(rows, deadline)
        if lam is not None:
            return _checked_gordan(source, chosen[lam > 0], n, deadline)
        w = _separator_lp(rows, deadline)
        if w is None:
            return None
        margins = np.concatenate([source.floats(slice(start, start + step)) @ (w / column)
                                  for start in range(0, n, step)])
        failed = np.flatnonzero(margins < 0.5)  # the float filter: rows to add, not a decision
        if not len(failed):
            separator = rounded_separator(source.matrix, data.denominator, w / column)
            return None if separator is None else ("separator", separator, SEPARATOR_METHOD)
        if len(chosen) == n:
            return None
        worst = failed[np.argsort(margins[failed], kind="stable")][:len(chosen)]
        chosen = np.union1d(chosen, worst)
    return None


def _checked_gordan(source: _Rows, support: Any, n: int,
                    deadline: float | None) -> tuple[str, tuple[Fraction, ...], str] | None:
    indices = [int(i) for i in support]
    if not indices or len(indices) > source.shape[1] + 1:
        return None  # not a basic solution: its λ is not unique on its support
    matrix, at = source.support(indices)  # (read by `at`: the same rows of A, in the support's order)
    lam = exact_gordan(matrix, at, deadline)
    if lam is None or gordan_support_defect(matrix, at, lam) is not None:
        return None
    zero = Fraction(0)
    dense = [zero] * n
    for i, value in zip(indices, lam):
        dense[i] = value
    return "gordan", tuple(dense), GORDAN_METHOD.format(k=len(indices))
