"""Fraction-free (Bareiss) linear algebra on integer matrices: exact, with no gcd and no `Fraction`.

Bareiss's elimination replaces row i by ``(p·row_i - f·row_pivot) / p_prev``
(p the pivot, f the entry below it, p_prev the pivot before). Every entry it
makes is a minor of the matrix, so each division is exact and the numbers
grow only as the minors do; the last pivot is the determinant of the
row-permuted matrix. The dual active-set method (`._activeset`) starts from a
Gram matrix of integer rows: `solve` gives its multipliers with one
right-hand side, about a sixth of the work of `inverse`, which the method
needs only when it has to move on from its starting point.

Where python-flint is installed, FLINT makes `gram`, `solve` and `inverse`
(multimodular and p-adic methods in C: a 197 x 197 Gram matrix of 25-bit
entries is solved in 0.04 s, where the elimination below takes 15 s), for
matrices large enough to be worth its import and when its predicted time
fits the deadline, since a FLINT call cannot be stopped.
Its answers are checked here exactly (``matrix·X == d·rhs``, in FLINT's
integers), and one that fails is made again below: the results are the same
either way, up to the choice of the common denominator d. `gram_solve_lowest`
gives the same solution as pairs of integers in lowest terms (the one place a
gcd is taken here): FLINT's own where it solves, checked against its X/d.
"""

from __future__ import annotations

import math
import operator
import sys
import time
from collections.abc import Sequence
from typing import Any, Literal

#: python-flint once `_flint_module` looked for it (optional: without it, the same results in Python).
_flint: Any = "not looked for"

__all__ = ["gram", "gram_solve", "gram_solve_lowest", "inverse", "solve"]

#: Below these sizes the Python here is quicker than importing FLINT (20 ms): k⁴ times the entries' bits
#: (times the right-hand sides) for a solve, since Bareiss's k³ products are of minors that grow to k times
#: the entries' bits (measured: 1.4·10^8 took 150 ms in Python and 13 ms in FLINT on breast cancer's 31 x 31
#: Gram matrix of 147-bit entries; 2.7·10^5 took 0.2 ms in both); k²·d products for a Gram matrix (3.9·10^7
#: took 1.1 s).
FLINT_FROM_SOLVE = 2 * 10**7
FLINT_FROM_GRAM = 2 * 10**6

#: The same threshold once FLINT is imported: from here its solve is quicker than the Python (measured
#: 1.8·10^6: 0.8 ms in Python, 0.2 ms in FLINT, on a 16 x 16 matrix of 28-bit entries).
FLINT_FROM_SOLVE_IMPORTED = 10**6
#: ... and a Gram matrix's k²·d (measured with 70-bit entries: 1,100 took 0.09 ms both ways; 29,791, breast
#: cancer's 31 active rows of 31, 2.3 ms in Python and 0.9 ms in FLINT; 125, 0.013 and 0.025 ms).
FLINT_FROM_GRAM_IMPORTED = 2 * 10**3

#: FLINT's work per second, k³ times the entries' bits, taken low (4.6e9 to 5e9 measured on 25- to
#: 28-bit entries, 1.6e9 on 70-bit ones), so that a call predicted to fit the deadline does.
FLINT_RATE = 1e9


def _flint_module() -> Any:
    """python-flint, imported when first needed (it costs 20 ms and 11 MB), or None if it is not installed."""
    global _flint
    if isinstance(_flint, str):
        try:
            import flint
            _flint = flint
        except ImportError:  # pragma: no cover - depends on the environment
            _flint = None
    return _flint


def _pivot(work: list[list[int]], col: int, deadline: float | None) -> int | None:
    """Column `col`'s pivot, its row swapped up to row `col`; None if the column is 0 from there down
    (singular) or time ran out."""
    if deadline is not None and time.monotonic() > deadline:
        return None
    found = next((i for i in range(col, len(work)) if work[i][col] != 0), None)
    if found is None:
        return None
    work[col], work[found] = work[found], work[col]
    return work[col][col]


def _flint_fits(matrix: list[list[int]], columns: int, deadline: float | None) -> bool:
    """Whether FLINT is worth its import here, is installed, and its solve of `columns` right-hand sides fits
    the deadline.

    (An inverse is predicted as `columns` solves: 7 times what one of 197 x 197 took, 6.4 s.)
    """
    return _flint_fits_size(len(matrix), max((abs(v).bit_length() for row in matrix for v in row), default=1),
                            columns, deadline)


def _flint_fits_size(k: int, bits: int, columns: int, deadline: float | None) -> bool:
    """`_flint_fits` for a k x k matrix of entries of at most `bits` bits."""
    imported = not isinstance(_flint, str) or "flint" in sys.modules
    threshold = min(FLINT_FROM_SOLVE, FLINT_FROM_SOLVE_IMPORTED) if imported else FLINT_FROM_SOLVE
    if k**4 * bits * columns < threshold or _flint_module() is None:
        return False
    return deadline is None or k**3 * max(bits, 32) * columns / FLINT_RATE <= deadline - time.monotonic()


def _flint_solve(matrix: list[list[int]], rhs: list[list[int]]) -> tuple[list[list[int]], int] | None | Literal[False]:
    """``(X, d)`` with ``matrix·X = d·rhs`` from FLINT, checked; None if singular; False if the check failed."""
    flint = _flint_module()
    found = _flint_checked(flint.fmpz_mat(matrix), flint.fmpz_mat(rhs))
    if found is None or found is False:
        return found
    return [[int(v) for v in row] for row in found[0].tolist()], int(found[1])


def _flint_checked(A: Any, B: Any) -> tuple[Any, Any] | None | Literal[False]:
    """FLINT's ``(X, d)`` with ``A·X = d·B`` (FLINT's matrices and integer), checked; None if singular; False if
    the check failed."""
    try:
        numerators, denominator = A.solve(B).numer_denom()
    except ZeroDivisionError:  # FLINT's "singular matrix"
        return None
    if A * numerators != B * denominator or denominator == 0:
        return False
    return numerators, denominator


def gram(rows: Sequence[Sequence[int]]) -> list[list[int]]:
    """``A·Aᵀ`` for the integer rows A.

    Examples
    --------
    >>> gram([[1, 2], [3, -1]])
    [[5, 1], [1, 10]]
    """
    size = len(rows) ** 2 * len(rows[0]) if rows else 0
    imported = not isinstance(_flint, str) or "flint" in sys.modules
    flint = _flint_module() if size and size >= (FLINT_FROM_GRAM_IMPORTED if imported else FLINT_FROM_GRAM) else None
    if flint is not None:
        A = flint.fmpz_mat([list(row) for row in rows])
        return [[int(v) for v in row] for row in (A * A.transpose()).tolist()]
    out = [[sum(map(operator.mul, a, b)) for b in rows[i:]] for i, a in enumerate(rows)]  # (the upper triangle)
    return [[out[j][i - j] for j in range(i)] + row for i, row in enumerate(out)]  # (its mirror: the same ints)


def _flint_gram_within(rows: Sequence[Sequence[int]],
                       deadline: float | None) -> tuple[Any, Any, Any, Any] | None | Literal[False]:
    """`_flint_gram` where there are rows and FLINT's solve fits their size and the deadline; None where there are
    none (no system) or it is singular, False where FLINT is not to be used or its check failed."""
    if not rows:
        return None
    if not _flint_fits_size(len(rows), _gram_bits(rows), 1, deadline):
        return False
    return _flint_gram(rows)


def _flint_gram(rows: Sequence[Sequence[int]]) -> tuple[Any, Any, Any, Any] | None | Literal[False]:
    """FLINT's solve of ``A·Aᵀ·X = d·1``: ``(solution, X, d, Aᵀ·X)`` in FLINT's types (the solution an
    fmpq_mat, X/d its entries over one denominator, checked), None if singular, False if the check failed."""
    flint = _flint_module()
    A = flint.fmpz_mat([list(row) for row in rows])
    G = flint.fmpz_mat(A * A.transpose())
    try:
        solution = G.solve(flint.fmpz_mat([[1]] * len(rows)))
    except ZeroDivisionError:  # FLINT's "singular matrix"
        return None
    numerators, denominator = solution.numer_denom()
    if G * numerators != flint.fmpz_mat([[denominator]] * len(rows)) or denominator == 0:
        return False
    return solution, numerators, denominator, A.transpose() * numerators


def _gram_bits(rows: Sequence[Sequence[int]]) -> int:
    # The bound on the Gram entries' bits, 2·(the rows') + log2(the row length), for `_flint_fits`' rule.
    return 2 * max((abs(v).bit_length() for row in rows for v in row), default=1) + len(rows[0]).bit_length()


def gram_solve(rows: Sequence[Sequence[int]], deadline: float | None = None
               ) -> tuple[list[int], int, list[int]] | None:
    """``(X, d, Aᵀ·X)`` with ``A·Aᵀ·X = d·(1, ..., 1)``, X integers and d != 0, for the integer rows A: `solve`
    of `gram`'s matrix, and the point Aᵀ·X over d; None if singular (or out of time).

    Where FLINT solves it, the Gram matrix is made, solved and checked and Aᵀ·X made in FLINT's integers,
    with no Python integer between (on breast cancer's 31 rows of 31, 1,922 conversions and 1 of 8 ms).
    The bound on the Gram entries' bits, 2·(the rows') + log2(the row length), stands for their bits
    in `_flint_fits`' rule.

    Examples
    --------
    >>> from fractions import Fraction
    >>> X, d, point = gram_solve([[2, 0], [1, 1]])  # G = [[4, 2], [2, 2]]: u = (0, 1/2), x = Aᵀ·u = (1/2, 1/2)
    >>> [Fraction(v, d) for v in X], [Fraction(v, d) for v in point]
    ([Fraction(0, 1), Fraction(1, 2)], [Fraction(1, 2), Fraction(1, 2)])
    >>> gram_solve([[1, 2], [2, 4]]) is None
    True
    """
    found = _flint_gram_within(rows, deadline)
    if found is None:
        return None
    if found is not False:
        _, numerators, denominator, point = found
        return ([int(v) for v in numerators.entries()], int(denominator), [int(v) for v in point.entries()])
    return _python_gram_solve(rows, deadline)


def _python_gram_solve(rows: Sequence[Sequence[int]], deadline: float | None
                       ) -> tuple[list[int], int, list[int]] | None:
    solved = solve(gram(rows), [1] * len(rows), deadline)
    if solved is None:
        return None
    X, d = solved
    return X, d, [sum(map(operator.mul, X, column)) for column in zip(*rows)]


def _lowest(p: int, q: int) -> tuple[int, int]:
    g = math.gcd(p, q) * (-1 if q < 0 else 1)
    return p // g, q // g


def gram_solve_lowest(rows: Sequence[Sequence[int]], deadline: float | None = None
                      ) -> tuple[list[tuple[int, int]], list[tuple[int, int]]] | None:
    """`gram_solve`'s X/d and Aᵀ·X/d, each entry as ``(p, q)`` in lowest terms with q > 0; None as there.

    Where FLINT solves, X/d's entries are its solution's own (FLINT holds every rational in lowest terms),
    each checked equal to the checked X_i/d (``p·d == X_i·q``, products, no gcd), and Aᵀ·X/d's are reduced
    by FLINT's gcd (half Python's time at the thousands of bits of breast cancer's: 31 gcds of 3,200 bits
    each for u and x, 2.4 ms of its decision's 12 in Python). Elsewhere, or if a check fails, `math.gcd`.

    Examples
    --------
    >>> gram_solve_lowest([[2, 0], [1, 1]])  # X/d = (0, 1/2), Aᵀ·X/d = (1/2, 1/2)
    ([(0, 1), (1, 2)], [(1, 2), (1, 2)])
    >>> gram_solve_lowest([[1, 2], [2, 4]]) is None
    True
    """
    found = _flint_gram_within(rows, deadline)
    if found is None:
        return None
    if found is not False:
        solution, numerators, d, point = found
        flint = _flint_module()
        terms = [(v.p, v.q) for v in solution.entries()]
        if all(q > 0 and p * d == X * q for (p, q), X in zip(terms, numerators.entries())):
            return ([(int(p), int(q)) for p, q in terms],
                    [(int(v.p), int(v.q)) for v in (flint.fmpq(x, d) for x in point.entries())])
    solved = _python_gram_solve(rows, deadline)
    if solved is None:
        return None
    X, d, point = solved
    return [_lowest(v, d) for v in X], [_lowest(v, d) for v in point]


def solve(matrix: list[list[int]], rhs: list[int], deadline: float | None = None) -> tuple[list[int], int] | None:
    """``(X, d)`` with ``matrix·X = d·rhs``, X integers and d != 0 (±det(matrix) here, a least common
    denominator from FLINT); None if singular (or out of time).

    Forward elimination to an upper-triangular U (row i of U still holds for
    the solution x, and U's last pivot is d), then back substitution on
    X = d·x, which is ±adj(matrix)·rhs, an integer vector: each
    ``U_ii·X_i = d·c_i - Σ_{j>i} U_ij·X_j`` divides exactly.

    Examples
    --------
    >>> from fractions import Fraction
    >>> X, d = solve([[2, 1], [1, 3]], [1, 1])  # x = (2/5, 1/5)
    >>> [Fraction(v, d) for v in X]
    [Fraction(2, 5), Fraction(1, 5)]
    >>> solve([[1, 2], [2, 4]], [1, 1]) is None
    True
    """
    k = len(matrix)
    if k and _flint_fits(matrix, 1, deadline):
        found = _flint_solve(matrix, [[b] for b in rhs])
        if found is not False:
            return None if found is None else ([row[0] for row in found[0]], found[1])
    if all(matrix[i][j] == matrix[j][i] for i in range(k) for j in range(i)):
        symmetric = _symmetric_solve(matrix, rhs, deadline)
        if symmetric != "pivot":
            return symmetric
    work = [list(row) + [b] for row, b in zip(matrix, rhs)]
    previous = 1
    for col in range(k):
        p = _pivot(work, col, deadline)
        if p is None:
            return None
        top = work[col]
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


def _symmetric_solve(matrix: list[list[int]], rhs: list[int], deadline: float | None
                     ) -> tuple[list[int], int] | None | Literal["pivot"]:
    """`solve`'s elimination of a symmetric matrix where no pivot is 0 (every leading minor nonzero, as in a Gram
    matrix of independent rows): the same X and d, from half the products; "pivot" at a pivot of 0 (where
    `solve` would swap rows), None when time runs out.

    Without swaps, Bareiss's entry (i, j) after column c is the minor of rows 0..c, i and columns 0..c, j
    (Sylvester's identity), which a symmetric matrix gives (j, i) too: only the upper triangle and the
    right-hand side are made, and the factor of row i at column c is the pivot row's entry i.

    Examples
    --------
    >>> _symmetric_solve([[2, 1], [1, 3]], [1, 1], None), _symmetric_solve([[0, 1], [1, 0]], [1, 1], None)
    (([2, 1], 5), 'pivot')
    """
    k = len(matrix)
    work = [list(row[i:]) + [b] for i, (row, b) in enumerate(zip(matrix, rhs))]  # row i holds columns i..k-1, rhs
    previous = 1
    for col in range(k):
        if deadline is not None and time.monotonic() > deadline:
            return None
        top = work[col]
        p = top[0]
        if p == 0:
            return "pivot"
        for i in range(col + 1, k):
            f, at = top[i - col], i - col  # (entry (i, col) is entry (col, i)); row i's columns from i
            work[i] = [(p * a - f * b) // previous for a, b in zip(work[i], top[at:])]
        previous = p
    X = [0] * k
    for i in range(k - 1, -1, -1):
        row = work[i]
        X[i] = (previous * row[-1] - sum(row[j - i] * X[j] for j in range(i + 1, k))) // row[0]
    return X, previous


def inverse(matrix: list[list[int]], deadline: float | None = None) -> tuple[list[list[int]], int] | None:
    """``(R, d)`` with ``matrix·R = d·I`` and d != 0, or None if singular (or out of time).

    Bareiss's elimination above and below each pivot (Gauss-Jordan) on
    ``[matrix | I]``: the left half ends as d·I and the right half as R.

    Examples
    --------
    >>> from fractions import Fraction
    >>> R, d = inverse([[2, 1], [1, 3]])
    >>> [[Fraction(v, d) for v in row] for row in R]
    [[Fraction(3, 5), Fraction(-1, 5)], [Fraction(-1, 5), Fraction(2, 5)]]
    """
    k = len(matrix)
    if k and _flint_fits(matrix, k, deadline):
        found = _flint_solve(matrix, [[int(i == j) for j in range(k)] for i in range(k)])
        if found is not False:
            return found
    work = [list(row) + [int(i == j) for j in range(k)] for i, row in enumerate(matrix)]
    previous = 1
    for col in range(k):
        p = _pivot(work, col, deadline)
        if p is None:
            return None
        for i in range(k):
            if i != col:
                f = work[i][col]
                work[i] = [(p * a - f * b) // previous for a, b in zip(work[i], work[col])]
        previous = p
    return [row[k:] for row in work], previous
