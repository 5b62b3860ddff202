"""Exact products of int64 matrices whose sums could pass int64, computed in int64 pieces.

An int64 entry is cut into pieces small enough that every product of two
pieces, and every sum of a row's products, provably stays below 2^63; the
pieces' sums are then joined in Python integers, one per row, so the
work in Python is per row, not per entry. `verify_perceptron.data.integers`
re-exports `row_dots` and `matrix_vector` and uses the rest for
`ExactMatrix.products`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from . import kernel as _kernel
from .limb_arrays import int_limbs, limb_values

__all__ = ["row_dots", "matrix_vector"]


def _norms_in_pieces(matrix: Any) -> Any:
    """Exact ‖z_i‖² of an int64 matrix of fewer than 2^20 columns, as Python ints: `row_dots` of it with itself.

    Examples
    --------
    >>> _norms_in_pieces(np.array([[-(2**63), 3], [2**62 + 5, -(2**40)]])).tolist() == [
    ...     2**126 + 9, (2**62 + 5)**2 + 2**80]
    True
    """
    return row_dots(matrix, matrix)


#: `row_dots` and `matrix_vector` work on blocks of about this many entries at a time.
DOT_CELLS, PRODUCT_CELLS = 2**14, 2**17


def row_dots(X: Any, Y: Any) -> Any:
    """Exact Σ_j X_ij·Y_ij for each row of two int64 (or narrower) matrices of fewer than 2^19 columns, as Python ints.

    Each entry is split as x = a·2^42 + b·2^21 + c with |a| <= 2^21 and
    0 <= b, c < 2^21 (a = x >> 42, arithmetic), so that every product of two
    pieces is at most 2^42 in magnitude and a row's sum of the (at most three)
    products of one weight, 2^84, 2^63, 2^42, 2^21 or 1, stays below
    3·2^42·2^19 < 2^63 in int64. The five sums are then joined in Python
    integers: the work in Python is per row, not per entry.

    Examples
    --------
    >>> X = np.array([[2**62, -(2**63)], [7, -1]])
    >>> row_dots(X, np.array([[3, 2**62 + 1], [-(2**63), 5]])).tolist() == [
    ...     3 * 2**62 - 2**63 * (2**62 + 1), -7 * 2**63 - 5]
    True
    """
    if X.shape[1] >= 2**19:
        raise ValueError(f"row_dots(): {X.shape[1]} columns, at most 2^19 - 1 are summed in int64")
    # In blocks of rows: the pieces are six int64 copies of each matrix and the sums five Python-integer
    # arrays, so whole matrices at once would hold about ten times the data besides the result.
    step = max(1, DOT_CELLS // max(X.shape[1], 1))
    if len(X) <= step:
        return _row_dots(X, Y)
    out = np.empty(len(X), dtype=object)
    for lo in range(0, len(X), step):
        out[lo:lo + step] = _row_dots(X[lo:lo + step], Y[lo:lo + step])
    return out


def _row_dots(X: Any, Y: Any) -> Any:
    """`row_dots` of one block of rows."""

    def pieces(M: Any) -> tuple[Any, Any, Any]:
        a = M >> 42
        rest = M - (a << 42)
        return a, rest >> 21, rest & (2**21 - 1)

    (a, b, c), (p, q, r) = pieces(X.astype(np.int64, copy=False)), pieces(Y.astype(np.int64, copy=False))

    def sums(*pairs: tuple[Any, Any]) -> Any:
        total = sum(np.einsum("ij,ij->i", u, v, dtype=np.int64) for u, v in pairs)
        return np.asarray(total, dtype=np.int64).astype(object)

    return (sums((a, p)) * 2**84 + sums((a, q), (b, p)) * 2**63 + sums((a, r), (b, q), (c, p)) * 2**42
            + sums((b, r), (c, q)) * 2**21 + sums((c, r)))


def matrix_vector(Z: Any, w: Any) -> Any:
    """Exact Z·w for an int64 matrix Z of fewer than 2^19 columns and an int64 vector w, as Python ints.

    With max|Z_ij|·d < 2^e, w is cut into pieces of b = 63 - e bits (the low
    ones in [0, 2^b), the top one signed with |piece| <= 2^b, as many as
    63 bits need): every partial sum of Z times a piece is below
    2^e·2^b = 2^63, so each product is exact in int64, and the pieces' products
    are joined in Python integers. Where b would be under 8 bits, `row_dots`.

    Examples
    --------
    >>> matrix_vector(np.array([[3, -1], [0, 2]]), np.array([2**62, -(2**63)])).tolist() == [
    ...     3 * 2**62 + 2**63, -(2**64)]
    True
    """
    w = np.asarray(w, dtype=np.int64)
    if not len(Z):
        return np.zeros(0, dtype=object)
    b = 63 - (max(int(Z.max()), -int(Z.min())) * Z.shape[1]).bit_length()  # (in Python integers: no overflow)
    # in blocks of rows, each widened to int64 on its own: narrower samples are not copied whole
    step = max(1, PRODUCT_CELLS // max(Z.shape[1], 1))
    if len(Z) <= step:
        return _matrix_vector(Z.astype(np.int64, copy=False), w, b)
    out = np.empty(len(Z), dtype=object)
    for lo in range(0, len(Z), step):
        out[lo:lo + step] = _matrix_vector(Z[lo:lo + step].astype(np.int64, copy=False), w, b)
    return out


def _matrix_vector(Z: Any, w: Any, b: int) -> Any:
    """`matrix_vector` of one int64 block of rows, with pieces of `b` bits."""
    if b < 8:
        return row_dots(Z, np.broadcast_to(w, Z.shape))
    total, shift = np.zeros(len(Z), dtype=object), 0
    while shift + b < 63:  # the low pieces, b bits each
        total += (Z @ ((w >> shift) & (2**b - 1))).astype(object) << shift
        shift += b
    return total + ((Z @ (w >> shift)).astype(object) << shift)  # the top one: |w >> shift| <= 2^(63 - shift) <= 2^b


def _pieces_pay(direction: Sequence[int]) -> bool:
    """Whether `_wide_products` beats a Python-integer product for `direction`: its 62-bit pieces cost
    three passes of Python integers over the rows each, the other way a product of big integers a cell
    (measured at 10^5 rows: d = 20 even at 200 bits, d = 100 at 1,000 bits 0.6x of it, d = 20 at 1,000 bits 2.5x)."""
    pieces = -(-max((abs(v) for v in direction), default=0).bit_length() // 62)
    return pieces <= len(direction) // 4 + 2


def _wide_products(Z: Any, direction: Sequence[int]) -> Any:
    """Exact Z·direction for an int64 matrix Z and integers of any size, as Python ints, in int64 pieces.

    direction = Σ_k 2^(62k)·c_k with every c_k an int64 vector (the low ones
    in [0, 2^62), the top one signed), so Z·direction = Σ_k 2^(62k)·(Z·c_k),
    each by `matrix_vector`. Only vectors as long as Z's rows are made: a
    Python-integer copy of Z (8 bytes a cell become about 40) never is.

    Examples
    --------
    >>> Z = np.array([[3, -1], [0, 2]])
    >>> w = [2**200 + 5, -(3**90)]
    >>> _wide_products(Z, w).tolist() == [3 * w[0] - w[1], 2 * w[1]]
    True
    """
    top = max((abs(v) for v in direction), default=0).bit_length()
    if (made := _limb_products(Z, direction, top)) is not None:
        return made
    if top < 63:
        return matrix_vector(Z, np.asarray(direction, dtype=np.int64))
    total, shift = np.zeros(len(Z), dtype=object), 0
    while shift + 62 <= top:  # the low pieces, 62 bits each, non-negative
        piece = np.array([(v >> shift) & (2**62 - 1) for v in direction], dtype=np.int64)
        total += matrix_vector(Z, piece) << shift
        shift += 62
    piece = np.array([v >> shift for v in direction], dtype=np.int64)  # signed, |piece| < 2^62
    return total + (matrix_vector(Z, piece) << shift)


def _limb_products(Z: Any, direction: Sequence[int], top: int) -> Any:
    """`_wide_products` in C, a block of rows at a time (`limb_scores`, the rows as one-limb values): one Python
    integer made per row, where the pieces' sums made and let go three or four per row (their heap stayed
    resident: at 10^5 x 10 about 3 MiB beside w*'s margins). None where the extension is not built.

    Examples
    --------
    >>> Z = np.array([[3, -1], [0, 2]], dtype=np.int32)
    >>> w = [2**200 + 5, -(3**90)]
    >>> got = _limb_products(Z, w, (2**200 + 5).bit_length())
    >>> got is None or got.tolist() == [3 * w[0] - w[1], 2 * w[1]]
    True
    """
    limb_scores = _kernel.limb_scores
    if limb_scores is None or not len(Z):
        return None
    lw = top // 64 + 1
    W = int_limbs(list(direction), lw)
    step = max(1, PRODUCT_CELLS // max(Z.shape[1], 1))
    out = np.empty(len(Z), dtype=object)
    scores = np.empty((min(step, len(Z)), lw + 2), dtype=np.int64)
    for lo in range(0, len(Z), step):
        block = np.ascontiguousarray(Z[lo:lo + step], dtype=np.int64)
        limb_scores(block.reshape(len(block), Z.shape[1], 1), W, scores[:len(block)])
        out[lo:lo + step] = limb_values(scores[:len(block)])
    return out
