"""Fraction-free (Bareiss) linear algebra on integer matrices: exact, with no gcd and no `Fraction`.

Bareiss's elimination replaces row i by ``(p·row_i - f·row_pivot) / p_prev``
(p the pivot, f the entry below it, p_prev the pivot before). Every entry it
makes is a minor of the matrix, so each division is exact and the numbers
grow only as the minors do; the last pivot is the determinant of the
row-permuted matrix. The dual active-set method (`._activeset`) starts from a
Gram matrix of integer rows: `solve` gives its multipliers with one
right-hand side, about a sixth of the work of `inverse`, which the method
needs only when it has to move on from its starting point.
"""

from __future__ import annotations

import time

__all__ = ["inverse", "solve"]


def _out_of_time(deadline: float | None) -> bool:
    return deadline is not None and time.monotonic() > deadline


def solve(matrix: list[list[int]], rhs: list[int], deadline: float | None = None) -> tuple[list[int], int] | None:
    """``(X, d)`` with ``matrix·X = d·rhs``, X integers and d = ±det(matrix) != 0; None if singular (or out of time).

    Forward elimination to an upper-triangular U (row i of U still holds for
    the solution x, and U's last pivot is d), then back substitution on
    X = d·x, which is ±adj(matrix)·rhs, an integer vector: each
    ``U_ii·X_i = d·c_i - Σ_{j>i} U_ij·X_j`` divides exactly.

    Examples
    --------
    >>> solve([[2, 1], [1, 3]], [1, 1])  # x = (2/5, 1/5)
    ([2, 1], 5)
    >>> solve([[1, 2], [2, 4]], [1, 1]) is None
    True
    """
    k = len(matrix)
    work = [list(row) + [b] for row, b in zip(matrix, rhs)]
    previous = 1
    for col in range(k):
        if _out_of_time(deadline):
            return None
        pivot = next((i for i in range(col, k) if work[i][col] != 0), None)
        if pivot is None:
            return None
        work[col], work[pivot] = work[pivot], work[col]
        top = work[col]
        p = top[col]
        for i in range(col + 1, k):
            row = work[i]
            f = row[col]
            row[col + 1:] = [(p * a - f * b) // previous for a, b in zip(row[col + 1:], top[col + 1:])]
            row[col] = 0
        previous = p
    det = previous
    X = [0] * k
    for i in range(k - 1, -1, -1):
        row = work[i]
        X[i] = (det * row[k] - sum(row[j] * X[j] for j in range(i + 1, k))) // row[i]
    return X, det


def inverse(matrix: list[list[int]], deadline: float | None = None) -> tuple[list[list[int]], int] | None:
    """``(R, d)`` with ``matrix·R = d·I`` and d != 0, or None if singular (or out of time).

    Bareiss's elimination above and below each pivot (Gauss-Jordan) on
    ``[matrix | I]``: the left half ends as d·I and the right half as R.

    Examples
    --------
    >>> inverse([[2, 1], [1, 3]])
    ([[3, -1], [-1, 2]], 5)
    """
    k = len(matrix)
    work = [list(row) + [int(i == j) for j in range(k)] for i, row in enumerate(matrix)]
    previous = 1
    for col in range(k):
        if _out_of_time(deadline):
            return None
        pivot = next((i for i in range(col, k) if work[i][col] != 0), None)
        if pivot is None:
            return None
        work[col], work[pivot] = work[pivot], work[col]
        p = work[col][col]
        for i in range(k):
            if i != col:
                f = work[i][col]
                work[i] = [(p * a - f * b) // previous for a, b in zip(work[i], work[col])]
        previous = p
    return [row[k:] for row in work], previous
