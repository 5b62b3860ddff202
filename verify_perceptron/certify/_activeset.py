"""Exact dual active-set method for ``min ½‖x‖²`` subject to ``a_k·x >= 1`` for every row ``a_k``.

This is Goldfarb and Idnani's dual method specialised to the identity Hessian,
without square roots: instead of a QR factorisation it keeps the inverse of
the Gram matrix ``G = N·Nᵀ`` of the active rows ``N``, updated by the block
formulas when a row joins or leaves, so every quantity is rational.

The method walks through points that are optimal for a subset of the rows:
``x = Σ_{j∈A} u_j·a_j`` with ``u >= 0`` and ``a_j·x = 1`` on the active set A.
It picks a violated row p and moves along

    z = a_p - Nᵀ·r,    r = G⁻¹·N·a_p        (z ⊥ every active row; r: a_p's shadow in span N)

raising ``u_p`` and lowering ``u_j`` by ``t·r_j``. Either p becomes active (a
full step: ½‖x‖² strictly increases, so no active set comes back and the
method ends), an active multiplier reaches 0 and leaves (a partial step), or
``z = 0`` with every ``r_j <= 0``: then ``a_p + Σ_j (-r_j)·a_j = 0`` is a
nonnegative combination of rows summing to zero, and no x satisfies all the
rows (for the perceptron's rows ``y_i·x~_i`` that is Gordan's certificate).

In exact arithmetic this decides every instance. The same loop run in floats
only proposes a starting active set; the exact run from it (or from nothing,
if the proposal is not dual feasible exactly) is what decides.

Every pass over all the rows is integer arithmetic: the rows
(`._constraints`) are integer arrays over one common denominator, and a
point x = X/D is compared with them as ``A_k·X >= L·D``. Floats only choose
which row to look at first. The starting point's multipliers are solved fraction-free (Bareiss), on integers
too, and the inverse of its Gram matrix made only if the method moves on.
"""

from __future__ import annotations

import math
import operator
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol, Union, cast

from . import _fraction_free as fraction_free
from ..errors import InvalidArgument

Number = Union[Fraction, float]
Key = Hashable

#: Relative tolerance of the float proposal only; the exact run has none.
_FLOAT_TOL = 1e-10


class Constraints(Protocol):
    """Rows ``a_k`` of ``a_k·x >= 1``, possibly generated on demand."""

    dim: int
    has_floats: bool
    row_scale: int

    def row(self, key: Key, exact: bool) -> Sequence[Number]:
        """Row `key`, as Fractions when `exact`, else as floats."""

    def scaled_row(self, key: Key) -> Sequence[int]:
        """Row `key` times `row_scale`: integers."""

    def scaled_rows(self, keys: Sequence[Key]) -> list[Sequence[int]]:
        """`scaled_row` of each key, read at once."""

    def most_violated(self, x: Sequence[Number], exact: bool) -> Key | None:
        """A row with ``a·x < 1`` (exactly, when `exact`), or None when there is none."""


@dataclass(frozen=True)
class Outcome:
    """How a run of the method ended.

    ``status`` is ``optimal`` (x is the minimiser; ``active`` and
    ``multipliers`` satisfy ``x = Σ u_j·a_j``), ``infeasible`` (``combination``
    holds rows and nonnegative coefficients summing to 1 whose combination is
    0), ``time-limit`` or ``iteration-limit`` (x is the last iterate, which
    solves the problem restricted to ``active``), or ``start-refused`` (a run
    told not to start cold, whose start was refused: nothing else is set).
    """

    status: str
    x: tuple[Number, ...]
    active: tuple[Key, ...]
    multipliers: tuple[Number, ...]
    combination: tuple[tuple[Key, Number], ...]
    n_iterations: int


@dataclass(frozen=True)
class Solution:
    """The exact outcome, and the float proposal's point (a candidate only) if one was made."""

    exact: Outcome
    proposal: tuple[float, ...] | None


def _dot(a: Sequence[Number], b: Sequence[Number], zero: Number = Fraction(0)) -> Number:
    return sum((p * q for p, q in zip(a, b)), zero)


class _State:
    """Active set A, its rows N, G⁻¹ = (N·Nᵀ)⁻¹ (once `inverse` made it), multipliers u and the point x = Nᵀ·u."""

    def __init__(self, dim: int, exact: bool) -> None:
        zero: Number = Fraction(0) if exact else 0.0
        self.zero = zero
        self.exact = exact
        self.keys: list[Key] = []
        self.rows: list[Sequence[Number]] = []
        self.ginv: list[list[Number]] = []
        self.pending: Callable[[float | None], list[list[Number]] | None] | None = None
        self.scaled: list[Sequence[int]] = []  # the active rows times row_scale, while G⁻¹ is pending
        self.u: list[Number] = []
        self.x: list[Number] = [zero] * dim

    def inverse(self, deadline: float | None) -> bool:
        """Make G⁻¹ if it is pending; False if time ran out first."""
        if self.pending is not None:
            ginv = self.pending(deadline)
            if ginv is None:
                return False
            self.ginv, self.pending = ginv, None
        return True

    def add(self, key: Key, row: Sequence[Number], r: list[Number], s: Number, u_new: Number) -> None:
        # Block inverse of [[G, g], [gᵀ, c]] with r = G⁻¹g and Schur complement s = c - gᵀr = ‖z‖².
        if self.exact:
            self.ginv = [[gij + ri * rj / s for gij, rj in zip(grow, r)] + [-ri / s] for grow, ri in zip(self.ginv, r)]
            self.ginv.append([-rj / s for rj in r] + [1 / s])
        self.keys.append(key)
        self.rows.append(row)
        self.u.append(u_new)

    def drop(self, l: int) -> None:
        # Inverse of G without row and column l, from the inverse M of G: M' = M_rest - M_rl·M_lr / M_ll.
        if self.exact:
            m = self.ginv
            pivot = m[l][l]
            rest = [i for i in range(len(m)) if i != l]
            self.ginv = [[m[i][j] - m[i][l] * m[l][j] / pivot for j in rest] for i in rest]
        del self.keys[l], self.rows[l], self.u[l]


def times_lowest(factor: int, p: int, q: int) -> Fraction:
    """``factor·p/q`` for p/q in lowest terms (q > 0) and factor > 0, with one gcd of `factor` and q.

    Where p/q is in lowest terms, ``factor·p/q`` is in them once the gcd g of factor and q is divided out:
    no prime of q/g divides factor/g or p. A Fraction made from them anew would find g by a gcd of the
    full numerator and denominator, thousands of bits each for the optimum of breast cancer (30 µs a
    value); this gcd is of `factor` (a power of two times a few bits, the rows' scale) and q.

    Examples
    --------
    >>> times_lowest(6, 1, 4), times_lowest(6, -5, 9), times_lowest(1, 0, 1)
    (Fraction(3, 2), Fraction(-10, 3), Fraction(0, 1))
    >>> times_lowest(6, 2, 4)
    Traceback (most recent call last):
      ...
    ValueError: 2/4 is not in lowest terms with a positive denominator
    """
    if factor <= 0:
        raise ValueError(f"factor={factor} must be positive")
    if q <= 0 or (p == 0 and q != 1):
        raise ValueError(f"{p}/{q} is not in lowest terms with a positive denominator")
    if p % 2 == 0 and q % 2 == 0:  # (the checks a bit can make: a common factor 2, a zero not over 1)
        raise ValueError(f"{p}/{q} is not in lowest terms with a positive denominator")
    g = math.gcd(factor, q)
    return _coprime(factor // g * p, q // g)


def _coprime(numerator: int, denominator: int) -> Fraction:
    """The Fraction of coprime integers, denominator > 0, made without the gcd that would show it again
    (`Fraction._from_coprime_ints` from Python 3.12, ``_normalize=False`` before)."""
    made = getattr(Fraction, "_from_coprime_ints", None)
    if made is not None:
        return cast(Fraction, made(numerator, denominator))
    return cast(Fraction, cast(Any, Fraction)(numerator, denominator, _normalize=False))


def _warm_state(cons: Constraints, start: Sequence[Key], deadline: float | None) -> _State | None:
    """The exact optimum on the rows `start` as a starting point, if it is dual feasible (u >= 0)."""
    if not start:
        return None
    # With rows a = A/s (A integers), G = A·Aᵀ/s², so u = G⁻¹·1 = s²·X/d where A·Aᵀ·X = d·1.
    scaled = cons.scaled_rows(start)
    solved = fraction_free.gram_solve_lowest(scaled, deadline)
    if solved is None:
        return None
    u_terms, x_terms = solved
    square = cons.row_scale**2
    u = [times_lowest(square, p, q) for p, q in u_terms]  # the active rows at exactly 1
    if any(value < 0 for value in u):
        return None

    def ginv(deadline: float | None) -> list[list[Number]] | None:
        # G⁻¹ = s²·R/d where A·Aᵀ·R = d·I; made only if the method moves on from here, and with it the active
        # rows as Fractions, which only the steps read (`inverse` comes first in each): a start that is the
        # optimum already (breast cancer's, from `verify_perceptron.certify._nnls_start`) makes neither.
        inverse = fraction_free.inverse(fraction_free.gram(scaled), deadline)
        if inverse is None:
            return None
        state.rows = [tuple(cons.row(key, True)) for key in start]
        factor = Fraction(square, inverse[1])
        return [[factor * v for v in row] for row in inverse[0]]

    state = _State(cons.dim, True)
    state.keys, state.pending, state.u, state.scaled = list(start), ginv, list[Number](u), scaled
    # x = Σ u_j·a_j = s·Σ X_j·A_j / d (gram_solve's point): one Fraction per coordinate.
    state.x = [times_lowest(cons.row_scale, p, q) for p, q in x_terms]
    return state


def _directions(state: _State, a: Sequence[Number]) -> tuple[list[Number], list[Number], Number]:
    """Exactly: r = G⁻¹·N·a, the step z = a - Nᵀ·r (⊥ every active row) and ‖z‖² = z·a."""
    zero = state.zero
    g = [_dot(row, a, zero) for row in state.rows]
    r = [_dot(grow, g, zero) for grow in state.ginv]
    z = [ac - sum((rj * row[c] for rj, row in zip(r, state.rows)), zero) for c, ac in enumerate(a)]
    return r, z, _dot(z, a, zero)


def _gordan_from_start(cons: Constraints, state: _State, p: Key, deadline: float | None,
                       max_iterations: int | None = None) -> tuple[tuple[Key, Number], ...] | None:
    """The first step from a warm start, in integers, when it ends the method: Gordan's combination, else None.

    With the active rows a_j = A_j/s, r = G⁻¹·N·a_p does not depend on s: (A·Aᵀ)·R = d·(A·A_p) and r = R/d.
    The step finds the rows infeasible at once when a_p lies in their span (z = a_p - Nᵀ·r = 0: d·A_p = Aᵀ·R)
    with no r_j > 0; the combination (p, 1), (j, -r_j) over its total 1 - Σ r_j is then (p, d/(d - ΣR)),
    (j, -R_j/(d - ΣR)), the same Fractions the step in Fractions makes, without G⁻¹ and the rows as Fractions
    (iris versicolor/virginica: its float proposal's 5 rows and the next one, 1.5 of the decision's 2 ms).
    None where the method moves on (or the start is no warm start pending its inverse, the deadline has
    passed, or no iteration is allowed): it then goes on in Fractions, as before.

    Examples
    --------
    >>> from verify_perceptron.certify._constraints import explicit_rows
    >>> rows = explicit_rows([(Fraction(1), Fraction(0)), (Fraction(-2), Fraction(0))])
    >>> state = _warm_state(rows, [0], None)
    >>> _gordan_from_start(rows, state, 1, None)  # a_1 = -2·a_0: 1·a_1 + 2·a_0 = 0, over 3
    ((1, Fraction(1, 3)), (0, Fraction(2, 3)))
    """
    if state.pending is None or not _deadline_ok(deadline) or (max_iterations is not None and max_iterations < 1):
        return None
    rows, A_p = state.scaled, cons.scaled_row(p)
    solved = fraction_free.solve(fraction_free.gram(rows), [sum(map(operator.mul, row, A_p)) for row in rows],
                                 deadline)
    if solved is None:
        return None
    R, d = solved
    if any(v and (v > 0) == (d > 0) for v in R):
        return None  # some r_j > 0: a partial step, and the method goes on
    if any(d * a != sum(map(operator.mul, R, column)) for a, column in zip(A_p, zip(*rows))):
        return None  # z != 0: a_p is not in the span of the active rows
    total = d - sum(R)  # (d·(1 - Σ r_j), never 0: 1 - Σ r_j >= 1)
    return ((p, Fraction(d, total)),) + tuple((key, Fraction(-v, total)) for key, v in zip(state.keys, R) if v)


def _float_directions(state: _State, a: Sequence[Number]) -> tuple[list[Number], list[Number], Number]:
    """The same in floats, by least squares (stable where the Gram matrix is ill-conditioned)."""
    import numpy as np

    target = np.asarray(a, dtype=float)
    if not state.rows:
        return [], [float(v) for v in target], float(target @ target)
    basis = np.asarray(state.rows, dtype=float).T
    r = np.linalg.lstsq(basis, target, rcond=None)[0]
    z = target - basis @ r
    return [float(v) for v in r], [float(v) for v in z], float(z @ z)


def run(
    cons: Constraints,
    *,
    exact: bool,
    start: Sequence[Key] = (),
    deadline: float | None = None,
    max_iterations: int | None = None,
    cold: bool = True,
) -> Outcome:
    """Run the dual method, exactly or (as a proposal) in floats; a refused `start` ends it if not `cold`.

    Examples
    --------
    Two rows on the line, 2x >= 1 and x >= 1: the optimum is x = 1, where only the second is active.

    >>> from verify_perceptron.certify._constraints import explicit_rows
    >>> out = run(explicit_rows([(Fraction(2),), (Fraction(1),)]), exact=True)
    >>> out.status, out.x, out.active, out.multipliers
    ('optimal', (Fraction(1, 1),), (1,), (Fraction(1, 1),))
    """
    state = _warm_state(cons, start, deadline) if exact else None
    if state is None and exact and not cold:  # not dual feasible exactly, or dependent rows: no cold start
        return Outcome("start-refused", (), (), (), (), 0)
    state = state or _State(cons.dim, exact)
    zero = state.zero
    one: Number = Fraction(1) if exact else 1.0
    iterations = 0

    def outcome(status: str, combination: tuple[tuple[Key, Number], ...] = ()) -> Outcome:
        return Outcome(status, tuple(state.x), tuple(state.keys), tuple(state.u), combination, iterations)

    while True:
        p = cons.most_violated(state.x, exact)
        if p is None:
            return outcome("optimal")
        ended = _gordan_from_start(cons, state, p, deadline, max_iterations)
        if ended is not None:  # the first step ends the method: its one iteration, as below
            return Outcome("infeasible", tuple(state.x), tuple(state.keys), tuple(state.u), ended, 1)
        a = cons.row(p, exact)
        a_sq = _dot(a, a, zero)
        u_p = zero
        while True:
            iterations += 1
            if deadline is not None and time.monotonic() > deadline:
                return outcome("time-limit")
            if max_iterations is not None and iterations > max_iterations:
                return outcome("iteration-limit")
            if not state.inverse(deadline):
                return outcome("time-limit")
            r, z, z_sq = _directions(state, a) if exact else _float_directions(state, a)
            # Partial step length: the first active multiplier to reach zero as u_j falls by t·r_j.
            leave, t_partial = None, None
            for j, (uj, rj) in enumerate(zip(state.u, r)):
                if rj > (0 if exact else _FLOAT_TOL):
                    ratio = uj / rj
                    if t_partial is None or ratio < t_partial:
                        leave, t_partial = j, ratio
            if z_sq <= (0 if exact else _FLOAT_TOL**2 * a_sq):
                if t_partial is None:
                    # a_p = Σ r_j·a_j with every r_j <= 0: a nonnegative combination that is zero.
                    weights = [(p, one)] + [(key, -rj) for key, rj in zip(state.keys, r) if rj != 0]
                    total = sum((w for _, w in weights), zero)
                    return outcome("infeasible", tuple((key, w / total) for key, w in weights))
                step: Number = t_partial
                full = False  # a_p lies in span N: only the multipliers move
            else:
                t_full = (1 - _dot(a, state.x, zero)) / z_sq  # > 0: row p is violated
                full = t_partial is None or t_full <= t_partial
                step = t_full if t_partial is None or full else t_partial
                state.x = [xc + step * zc for xc, zc in zip(state.x, z)]
            if not exact and not math.isfinite(step):
                raise ArithmeticError(f"the float proposal diverged (step {step})")
            state.u = [uj - step * rj for uj, rj in zip(state.u, r)]
            u_p += step
            if full:
                state.add(p, a, r, z_sq, u_p)  # row p is now active, at exactly 1
                break
            assert leave is not None
            state.u[leave] = zero  # exactly zero already in exact arithmetic; pinned for floats
            state.drop(leave)


def _deadline_ok(deadline: float | None) -> bool:
    return deadline is None or time.monotonic() <= deadline


def solve(cons: Constraints, *, deadline: float | None = None) -> Solution:
    """Propose an active set in floats (if the rows convert), then decide exactly from it.

    The proposal saves exact iterations on large data; it can be wrong in
    any way without harm, since the exact run starts from it only if it is
    exactly dual feasible and then continues to the exact optimum.
    """
    proposal: Outcome | None = None
    if cons.has_floats:
        # The proposal gets at most half of the time left, and a bounded number of steps.
        budget = None if deadline is None else time.monotonic() + (deadline - time.monotonic()) / 2
        import numpy as np

        try:  # values near float64's ends overflow here: a poor proposal at worst, so nothing to warn of
            with np.errstate(all="ignore"):
                proposal = run(cons, exact=False, deadline=budget, max_iterations=50 * cons.dim + 500)
        except (ArithmeticError, ValueError):
            proposal = None
    # An infeasible proposal's active set is dual feasible too: the exact run may confirm it quickly.
    start = proposal.active if proposal is not None and proposal.status in ("optimal", "infeasible") else ()
    exact = run(cons, exact=True, start=start, deadline=deadline)
    point = tuple(float(v) for v in proposal.x) if proposal is not None else None
    if point is not None and not all(math.isfinite(v) for v in point):
        point = None
    return Solution(exact, point)


def deadline_after(time_limit: float | None) -> float | None:
    """The monotonic clock's reading `time_limit` seconds from now (None: no limit)."""
    if time_limit is None:
        return None
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not time_limit > 0:
        raise InvalidArgument(f"time_limit={time_limit!r} must be a number of seconds > 0")
    return time.monotonic() + time_limit


def rationalize(point: Sequence[float]) -> tuple[Fraction, ...]:
    """A float point as nearby short rationals: a candidate only, every use of it is checked exactly."""
    return tuple(Fraction(v).limit_denominator(10**12) for v in point)


def combination_by_row(outcome: Outcome, n_rows: int) -> tuple[Fraction, ...]:
    """An infeasible outcome's combination of explicit rows as one coefficient per row."""
    lam = [Fraction(0)] * n_rows
    for key, weight in outcome.combination:
        lam[cast(int, key)] += exact(weight)
    return tuple(lam)


def exact(value: Number) -> Fraction:
    """`value`, checked to be a Fraction: no float may reach an exact result unnoticed."""
    if not isinstance(value, Fraction):
        raise TypeError(f"value={value!r} of type {type(value).__name__} in an exact result")
    return value


def exact_vector(values: Sequence[Number]) -> tuple[Fraction, ...]:
    """`values`, each checked by `exact`."""
    return tuple(exact(v) for v in values)
