"""Exact integer linear algebra on NumPy arrays, with proven overflow guards.

A float64 holds every integer below 2^53 exactly, and a sum or product of
such integers is computed exactly as long as its exact value stays below
2^53 in magnitude (IEEE 754 rounds only results it cannot represent). For a
matrix-vector product Z·w every product and every partial sum, in whatever
order BLAS adds them, is bounded by Σ_j |z_j|·|w_j| <= ‖z‖·‖w‖ (Cauchy-Schwarz).
So ``‖w‖²·max_i ‖z_i‖² < 2^106`` proves the float64 product exact, and
``< 2^126`` does the same for int64 (bound 2^63). Beyond that, Python's
arbitrary-precision integers (dtype object) are exact at any size.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["FLOAT_EXACT_SQ", "INT64_EXACT_SQ", "ExactMatrix", "row_norms_sq"]

#: ‖w‖²·max‖z‖² below this proves a float64 product of integer arrays exact.
FLOAT_EXACT_SQ = 2**106
#: ‖w‖²·max‖z‖² below this proves an int64 product free of overflow.
INT64_EXACT_SQ = 2**126


def row_norms_sq(matrix: Any) -> list[int]:
    """Exact ‖z_i‖² of each row of an integer matrix, as Python ints.

    Examples
    --------
    >>> row_norms_sq(np.array([[3, 4], [1, -1]]))
    [25, 2]
    """
    if matrix.dtype != object:
        biggest = int(np.abs(matrix).max(initial=0))
        if biggest * biggest * max(matrix.shape[1], 1) < 2**63:
            return [int(v) for v in np.einsum("ij,ij->i", matrix, matrix)]
    return [sum(int(v) * int(v) for v in row) for row in matrix.tolist()]


class ExactMatrix:
    """An integer matrix whose products with integer vectors are exact, and fast when they can be.

    It keeps the float64 copy when every entry fits in 53 bits, and chooses
    per product the fastest representation that the guard proves exact.

    Examples
    --------
    >>> m = ExactMatrix(np.array([[1, 2], [3, 4]]))
    >>> m.matvec([5, -6], slice(0, 2), norm_sq=61)
    [-7, -9]
    >>> m.matvec([2**80, 0], slice(0, 1), norm_sq=2**160)
    [1208925819614629174706176]
    """

    def __init__(self, matrix: Any) -> None:
        self.exact = matrix if matrix.dtype == object else matrix.astype(np.int64, copy=False)
        self.norms_sq = row_norms_sq(matrix)
        self.max_norm_sq = max(self.norms_sq, default=0)
        # Whether a float64 copy would hold every entry exactly; the copy itself is made on first use.
        self.float_exact = matrix.dtype != object and (not matrix.size or int(np.abs(matrix).max()) < 2**53)
        self._as_float: Any = None
        self._as_object: Any = None

    @property
    def as_float(self) -> Any:
        """The float64 copy (None when an entry has 53 bits or more), built on first use."""
        if self._as_float is None and self.float_exact:
            self._as_float = self.exact.astype(np.float64)
        return self._as_float

    def backend(self, norm_sq: int) -> str:
        """``float64``, ``int64`` or ``object``: the fastest exact one for a vector of squared norm `norm_sq`."""
        bound = norm_sq * self.max_norm_sq
        if self.float_exact and bound < FLOAT_EXACT_SQ:
            return "float64"
        if self.exact.dtype != object and bound < INT64_EXACT_SQ:
            return "int64"
        return "object"

    def rows(self, kind: str) -> Any:
        """The matrix in representation `kind` (``float64``, ``int64`` or ``object``)."""
        if kind == "float64" and self.float_exact:
            return self.as_float
        if kind == "int64" and self.exact.dtype != object:
            return self.exact
        if kind != "object":
            raise ValueError(f"kind={kind!r} is not available for this matrix")
        if self._as_object is None:
            self._as_object = self.exact.astype(object)
        return self._as_object

    def matvec(self, vector: Any, rows: slice, *, norm_sq: int) -> list[int]:
        """Exact ``matrix[rows] @ vector`` as Python ints; `norm_sq` must be ``‖vector‖²`` (exactly)."""
        kind = self.backend(norm_sq)
        if kind == "float64" and self._as_float is None:
            kind = "int64"  # exact too (the float guard implies the int64 one); no float copy just for this
        if kind == "float64":
            assert self.as_float is not None
            product = self.as_float[rows] @ np.asarray(vector, dtype=np.float64)
            return [int(v) for v in product.tolist()]
        if kind == "int64":
            return [int(v) for v in (self.exact[rows] @ np.asarray(vector, dtype=np.int64)).tolist()]
        return [int(v) for v in (self.rows("object")[rows] @ np.asarray([int(v) for v in vector], dtype=object)).tolist()]
