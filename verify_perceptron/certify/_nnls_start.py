"""A quick start for the exact max-margin solve: SciPy's non-negative least squares proposes the active set.

The augmented max-margin problem ``min ½‖w‖²`` subject to ``a_i·w >= 1`` is
a least-distance program, which Lawson and Hanson reduce to one non-negative
least-squares problem: with E the rows a_i as columns over a last row of
ones, minimise ``‖E·u - (0, ..., 0, 1)‖`` over u >= 0; the samples with
u_i > 0 are the optimum's active set (the residual is 0 when the rows admit
no w at all). SciPy solves it in compiled code in about a millisecond on
breast cancer, where `verify_perceptron.certify._activeset`'s float run
takes a few hundred least-squares steps in Python (about 100 ms).

The proposal is a float guess and decides nothing. The exact dual method
starts from it only when it is exactly dual feasible (refused otherwise) and
runs on to the exact optimum. Its answer is kept only where it is provably
the one the float run's start gives: an optimum at which the rows at margin
exactly 1 are exactly the active ones, each with a multiplier > 0. The
active rows are linearly independent (the method keeps their Gram matrix
invertible), so there the multipliers α are the only ones that satisfy the
Karush-Kuhn-Tucker conditions, and w* is unique anyway: any exact run ends
with the same (w*, support, α). Anywhere else (not separable, degenerate,
time out) the caller solves as before.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

from ._activeset import Constraints, Number, Solution, exact_vector, run
from ._constraints import integer_vector

__all__ = ["NNLS_BELOW", "nnls_active_set", "nnls_solution"]

#: Rows times their length below which the start is tried: SciPy's solve grows faster than the float run's
#: passes (measured on separable randn rows: 8 ms at 569 x 31, 46 ms at 2,000 x 31, 515 ms at 10^4 x 31), and
#: from here on `verify_perceptron.certify.separability.PROPOSE_FROM` (the same 20,000) has HiGHS propose first.
NNLS_BELOW = 20_000


def nnls_active_set(rows: Any) -> tuple[int, ...] | None:
    """The rows with u_i > 0 in Lawson and Hanson's least-distance solve, or None if it proposes none.

    None also when SciPy's optimizer is not imported already: its import (about a second) costs more
    than it saves here. `rows` is the float matrix of the rows a_i, one row per constraint.

    Examples
    --------
    >>> import scipy.optimize
    >>> nnls_active_set(np.array([[2.0], [1.0]]))  # 2w >= 1 and w >= 1: the second is active
    (1,)
    >>> nnls_active_set(np.array([[1.0], [-1.0]])) is None  # w >= 1 and -w >= 1: no w, no proposal
    True
    """
    # (read from sys.modules, not imported: and a module another thread is still importing may lack nnls yet)
    nnls = getattr(sys.modules.get("scipy.optimize"), "nnls", None)
    if nnls is None or rows is None or not len(rows) or rows.size >= NNLS_BELOW:
        return None
    E = np.vstack([rows.T, np.ones(len(rows))])
    f = np.zeros(E.shape[0])
    f[-1] = 1.0
    try:
        with np.errstate(all="ignore"):
            u, residual_norm = nnls(E, f, maxiter=50 * E.shape[0] + 500)
    except (RuntimeError, ValueError, ArithmeticError):  # not converged, or values near float64's ends
        return None
    if not np.isfinite(residual_norm) or residual_norm <= 1e-9:  # no separator: the float run proposes instead
        return None
    active = tuple(int(i) for i in np.flatnonzero(u > 0))
    return active or None


def _tight_rows(cons: Any, x: Sequence[Number]) -> set[int]:
    """The rows with ``a_k·x == 1`` exactly: ``A_k·X == L·D`` in integers, for x = X/D."""
    X, D = integer_vector(exact_vector(x))
    products = cons.matrix.products(X, norm_sq=None)
    one = cons.scale * D
    if products.dtype != object and one >= 2**63:
        return set()
    return {int(k) for k in np.flatnonzero(products == one)}


def nnls_solution(cons: Constraints, deadline: float | None) -> Solution | None:
    """The exact solve from `nnls_active_set`'s start, where it provably gives today's answer; else None.

    `cons` are explicit rows (`verify_perceptron.certify._constraints.augmented_constraints`).
    """
    active = nnls_active_set(getattr(cons, "floats", None))
    if active is None:
        return None
    outcome = run(cons, exact=True, start=active, deadline=deadline, cold=False)
    if outcome.status != "optimal" or not all(u > 0 for u in outcome.multipliers):
        return None
    if _tight_rows(cons, outcome.x) != set(outcome.active):
        return None  # another row at margin 1: its multipliers need not be unique
    return Solution(outcome, None)
