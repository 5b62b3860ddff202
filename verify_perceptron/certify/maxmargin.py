"""The tightest separator, certified: the max-margin separator in exact rational arithmetic.

Two problems, both convex quadratic programs with linear constraints:

``augmented`` (every note's bound is smallest here)
    ``min ‖w‖² = b² + ‖v‖²`` subject to ``y_i·w·x~_i >= 1``, x~ = (1, x): the
    bias is penalised like any weight. Each note's bound is a constant
    times ‖w‖²/γ², and γ = 1 on these constraints, so this separator gives
    every note its tightest bound.
``free-bias`` (the standard SVM)
    ``min ‖v‖²`` subject to ``y_i·(v·x_i + b) >= 1``, b free: it maximises
    the margin of note 004's normalisation ‖α*‖ = 1 (only the non-bias
    part), ρ = 1/‖v‖, which is *not* what minimises note 004's bound.

The optimum is found by an exact dual active-set method (a float run may
propose where to start; the exact run decides). It is then certified by
`optimality_defect`, which knows nothing of how it was found and checks the
Karush-Kuhn-Tucker conditions exactly, which suffice for optimality of a
convex program:

* stationarity: ``w = Σ α_i·y_i·x~_i`` (free bias: ``v = Σ α_i·y_i·x_i`` and ``Σ α_i·y_i = 0``);
* dual feasibility: ``α_i >= 0``;
* primal feasibility: ``y_i·w·x~_i >= 1`` for every sample;
* complementary slackness: ``y_i·w·x~_i = 1`` wherever ``α_i > 0``.

The samples with α_i > 0 are the support vectors; (support, α) is the
certificate. When certification fails or time runs out, the result says
so (``certified=False``) and carries the best exactly verified separator
found instead (from a float candidate or the caller's candidates), never
calling it optimal.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import cast

import numpy as np

from ._activeset import Solution, combination_by_row, deadline_after, exact, exact_vector, rationalize, solve
from ._constraints import integer_vector, matrix_margins, pair_rows
from ..notes.conventions import Convention
from ..data.dataset import Dataset
from ..data.exact_text import exact_text
from ..errors import InvalidArgument
from ..data.rationals import as_rationals
from .separability import Separability, augmented_solution, certify, normalize_separator, separator_defect

__all__ = ["KINDS", "MaxMargin", "certified_separator", "max_margin", "max_margin_free_bias", "optimality_defect"]

Vector = tuple[Fraction, ...]

#: The two max-margin problems: bias penalised (``augmented``) or free (``free-bias``).
KINDS = ("augmented", "free-bias")


@dataclass(frozen=True)
class MaxMargin:
    """A max-margin separator, with its optimality certificate when it has one.

    Attributes
    ----------
    kind : str
        ``augmented`` (``min b² + ‖v‖²``) or ``free-bias`` (``min ‖v‖²``).
    separability : Separability
        What the solve proved about separability, with its checked certificate.
    certified : bool
        True when `weights` passed `optimality_defect` with `support` and `multipliers`:
        it is the optimum. False when the data are not separable, time ran
        out, or the check failed (`problem` says which).
    weights : tuple of Fraction or None
        ``(b, v1, ..., vm)``, score ``v·x + b``, smallest margin exactly 1. When not
        `certified`, the best exactly verified separator found, or None.
    norm_sq : Fraction or None
        The objective at `weights`: ``b² + ‖v‖²`` (augmented) or ``‖v‖²`` (free-bias).
    support : tuple of int
        The support vectors: samples with α_i > 0 (empty when not certified).
    multipliers : tuple of Fraction
        α_i for each support vector, in the same order.
    problem : str or None
        Why the result is not certified, if it is not.
    """

    kind: str
    separability: Separability
    certified: bool
    weights: Vector | None
    norm_sq: Fraction | None
    support: tuple[int, ...] = ()
    multipliers: tuple[Fraction, ...] = ()
    problem: str | None = None

    @property
    def margin_sq(self) -> Fraction | None:
        """The squared geometric margin 1/`norm_sq` (of x~ for augmented, of x for free-bias)."""
        return None if not self.norm_sq else 1 / self.norm_sq

    def as_dict(self) -> dict[str, object]:
        """JSON-ready: exact numbers as strings.

        Examples
        --------
        >>> from verify_perceptron.data.examples import example
        >>> d = max_margin(example("and")).as_dict()
        >>> d["weights"], d["norm_sq"], d["certified"], d["support"], d["multipliers"]
        (['-3', '2', '2'], '17', True, [1, 2, 3], ['5', '5', '7'])
        """
        return {
            "kind": self.kind,
            "certified": self.certified,
            "weights": None if self.weights is None else [exact_text(v) for v in self.weights],
            "norm_sq": None if self.norm_sq is None else exact_text(self.norm_sq),
            "support": list(self.support),
            "multipliers": [exact_text(a) for a in self.multipliers],
            "problem": self.problem,
        }


def optimality_defect(
    data: Dataset,
    weights: Sequence[Fraction],
    support: Sequence[int],
    multipliers: Sequence[Fraction],
    *,
    free_bias: bool = False,
) -> str | None:
    """None when (support, multipliers) prove `weights` optimal, else the first condition that fails.

    Parameters
    ----------
    data : Dataset
    weights : sequence of Fraction
        ``(b, v1, ..., vm)``.
    support : sequence of int
        Sample indices carrying a multiplier (others have α_i = 0).
    multipliers : sequence of Fraction
        α_i for each index in `support`.
    free_bias : bool
        Check the free-bias SVM (``min ‖v‖²``) instead of the augmented problem.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> F = Fraction
    >>> optimality_defect(example("and"), [F(-3), F(2), F(2)], [1, 2, 3], [F(5), F(5), F(7)]) is None
    True
    >>> optimality_defect(example("and"), [F(-3), F(2), F(2)], [1, 2, 3], [F(5), F(5), F(6)])
    'stationarity fails: w = [-3, 2, 2] but Σ α_i·y_i·x~_i = [-4, 1, 1]'
    """
    m = data.n_features
    if len(weights) != m + 1:
        return f"w has {len(weights)} entries; (b, v1..v{m}) needs {m + 1}"
    if len(support) != len(multipliers):
        return f"{len(support)} support indices but {len(multipliers)} multipliers"
    if len(set(support)) != len(support):
        return f"support {list(support)} repeats an index"
    for i, alpha in zip(support, multipliers):
        if not 0 <= i < data.n_samples:
            return f"support index {i} is not a sample (0..{data.n_samples - 1})"
        if alpha < 0:
            return f"α_{i} = {alpha} < 0: dual feasibility fails"
    # In integers: y_i·x~_i = y_i·(L, N_i)/L (N the numerators over L), α_i = A_i/Q over one Q, w = W/M.
    L, Q = data.denominator, math.lcm(*(alpha.denominator for alpha in multipliers))
    M = math.lcm(*(w.denominator for w in weights))
    W = np.array([w.numerator * (M // w.denominator) for w in weights], dtype=object)
    # (numerators held in limbs: the support's rows alone, not every sample's, made Python integers)
    picked = data.exact.row_values(list(support)) if data.limbs is not None else data.numerators[list(support)]
    rows = np.asarray(picked, dtype=object).reshape(len(support), m)
    signs = np.array([data.y[i] for i in support], dtype=object)
    c = signs * np.array([alpha.numerator * (Q // alpha.denominator) for alpha in multipliers], dtype=object)
    total = [int(c.sum()) * L, *(int(v) for v in (c[:, None] * rows).sum(axis=0, initial=0))]
    # Σ α_i·y_i·x~_i = total/(Q·L) equals w = W/M coordinate by coordinate iff total·M == W·Q·L: compared in
    # integers, with no Fraction (a gcd of thousands of bits each) unless a message shows them; where M divides
    # Q·L (at the optimum, where w = Σ α_i·y_i·x~_i), as total == W·(Q·L/M): no product of two such integers
    QL = Q * L
    k = QL // M if QL % M == 0 else None
    equal = [t * M == v * QL if k is None else t == v * k for t, v in zip(total, W.tolist())]
    if free_bias:
        # The bias is free: its stationarity condition is Σ α_i·y_i = 0, the first coordinate.
        if total[0] != 0:
            return f"stationarity in b fails: Σ α_i·y_i = {Fraction(total[0], Q * L)}, not 0"
        if not all(equal[1:]):
            combination = [Fraction(v, Q * L) for v in total]
            return f"stationarity fails: v = {_show(weights[1:])} but Σ α_i·y_i·x_i = {_show(combination[1:])}"
    elif not all(equal):
        combination = [Fraction(v, Q * L) for v in total]
        return f"stationarity fails: w = {_show(weights)} but Σ α_i·y_i·x~_i = {_show(combination)}"
    defect = separator_defect(data, weights)
    if defect is not None:
        return f"primal feasibility fails: {defect}"
    scores = signs * (rows.dot(W[1:]) + W[0] * L) if len(support) else signs  # y_i·w·x~_i times M·L
    for i, alpha, score in zip(support, multipliers, scores.tolist()):
        if alpha > 0 and score != M * L:
            return (f"complementary slackness fails: α_{i} = {alpha} > 0 but y_{i}·w·x~_{i} = "
                    f"{Fraction(score, M * L)}, not 1")
    return None


def _show(values: Sequence[Fraction]) -> str:
    return "[" + ", ".join(map(str, values)) + "]"


def _candidates(data: Dataset, candidates: Sequence[Sequence[object]]) -> list[Vector]:
    checked = []
    for k, w in enumerate(candidates):
        values = as_rationals(w, name=f"candidates[{k}]")
        if len(values) != data.n_features + 1:
            raise InvalidArgument(
                f"candidates[{k}] has {len(values)} values; (b, v1..v{data.n_features}) needs {data.n_features + 1}"
            )
        checked.append(values)
    return checked


def _objective(w: Vector, free_bias: bool) -> Fraction:
    # Over one common denominator: one gcd, where a sum of Fractions takes one per term.
    W, D = integer_vector(w[1:] if free_bias else w)
    return Fraction(sum(v * v for v in W), D * D)


def _best_bias(data: Dataset, w: Vector) -> Vector | None:
    """For the direction v of `w`: the bias and scale that give the largest margin 1/‖v‖, or None.

    With s_i = v·x_i, the best bias sits midway between the classes' nearest scores, and the
    gap between them, halved, is the margin to scale to 1.
    """
    scores, denominator = matrix_margins(data.exact, data.denominator, w[1:])  # v·x_i = scores[i]/denominator
    labels = data.y_array
    low, high = int(scores[labels > 0].min()), int(scores[labels < 0].max())
    if low <= high:
        return None
    half_gap = Fraction(low - high, 2 * denominator)
    return (-Fraction(low + high, 2 * denominator) / half_gap, *(c / half_gap for c in w[1:]))


def _fallback(
    data: Dataset, kind: str, solution: Solution, candidates: list[Vector], problem: str
) -> MaxMargin:
    """The smallest-objective separator among the candidates that verify exactly; never called optimal."""
    free_bias = kind == "free-bias"
    pool: list[tuple[str, Vector]] = []
    last = exact_vector(solution.exact.x)
    pool.append(("the exact solver's last point", last if not free_bias else (Fraction(0), *last)))
    if solution.proposal is not None:
        point = rationalize(solution.proposal)
        pool.append(("the float solver's point", point if not free_bias else (Fraction(0), *point)))
    pool += [(f"candidates[{k}]", w) for k, w in enumerate(candidates)]
    best: tuple[Fraction, str, Vector] | None = None
    for source, w in pool:
        scaled = _best_bias(data, w) if free_bias else normalize_separator(data, w)
        if scaled is not None and separator_defect(data, scaled) is None:
            value = _objective(scaled, free_bias)
            if best is None or value < best[0]:
                best = (value, source, scaled)
    if best is None:
        undecided = Separability(None, False, None, None, "exact dual active set", problem)
        return MaxMargin(kind, undecided, False, None, None, problem=f"{problem}; no verified separator found")
    value, source, w = best
    separability = certify(data, separator=w, method=f"{source}, checked exactly")
    return MaxMargin(kind, separability, False, w, value, problem=f"{problem}; weights: the best verified separator ({source}), not shown optimal")


def _certified(data: Dataset, kind: str, w: Vector, alpha_by_sample: dict[int, Fraction], solution: Solution,
               candidates: list[Vector]) -> MaxMargin:
    support = tuple(sorted(i for i, a in alpha_by_sample.items() if a != 0))
    alphas = tuple(alpha_by_sample[i] for i in support)
    defect = optimality_defect(data, w, support, alphas, free_bias=kind == "free-bias")
    if defect is not None:
        return _fallback(data, kind, solution, [w, *candidates], f"the optimality check failed: {defect}")
    separability = certify(data, separator=w, method="exact dual active set")
    return MaxMargin(kind, separability, True, w, _objective(w, kind == "free-bias"), support, alphas)


def _not_separable(data: Dataset, kind: str, lam: Sequence[Fraction]) -> MaxMargin:
    separability = certify(data, gordan=lam, method="exact dual active set")
    problem = "not separable: no separator exists" if separability.separable is False else separability.problem
    return MaxMargin(kind, separability, False, None, None, problem=problem)


def max_margin(
    data: Dataset, *, time_limit: float | None = None, candidates: Sequence[Sequence[object]] = ()
) -> MaxMargin:
    """The augmented max-margin separator, ``min ‖w‖²`` subject to ``y_i·w·x~_i >= 1``, certified.

    Parameters
    ----------
    data : Dataset
    time_limit : float, optional
        Seconds to spend. When they run out the result is not certified and
        carries the best exactly verified separator found.
    candidates : sequence of (b, v1, ..., vm), optional
        Separators to fall back on (a run's final weights, say), used only if
        the optimum is not certified; each is scaled to margin 1 and checked.

    Returns
    -------
    MaxMargin

    Notes
    -----
    ``norm_sq = Σ α_i`` at the optimum (each support vector has margin 1), and
    every note's bound there is a constant times ``norm_sq``: R²·norm_sq for
    notes 000, 001, 002 and 004, β·norm_sq for note 003. Costs: see
    `verify_perceptron.certify.separability.decide_separability`; the optimality
    check adds O(n·d) rational operations.

    Examples
    --------
    Note 003's modified OR: the incremental run's final weights (1, 1, -1) in
    note 003's coordinates are b = 1, v = (1, 1): already the optimum.

    >>> from verify_perceptron.data.examples import example
    >>> result = max_margin(example("modified-or"))
    >>> result.certified, [str(v) for v in result.weights], result.norm_sq
    (True, ['1', '1', '1'], Fraction(3, 1))
    >>> result.support, [str(a) for a in result.multipliers]
    ((0, 1, 2), ['1', '1', '1'])
    >>> max_margin(example("xor")).problem
    'not separable: no separator exists'
    """
    deadline = deadline_after(time_limit)
    extra = _candidates(data, candidates)
    solution = augmented_solution(data, deadline)
    out = solution.exact
    if out.status == "optimal":
        alpha: dict[int, Fraction] = {}
        for i, u in zip(cast("tuple[int, ...]", out.active), exact_vector(out.multipliers)):
            alpha[i] = alpha.get(i, Fraction(0)) + u
        return _certified(data, "augmented", exact_vector(out.x), alpha, solution, extra)
    if out.status == "infeasible":
        return _not_separable(data, "augmented", combination_by_row(out, data.n_samples))
    return _fallback(data, "augmented", solution, extra, f"not certified: stopped at the {out.status}")


def max_margin_free_bias(
    data: Dataset, *, time_limit: float | None = None, candidates: Sequence[Sequence[object]] = ()
) -> MaxMargin:
    """The standard SVM with a free bias, ``min ‖v‖²`` subject to ``y_i·(v·x_i + b) >= 1``, certified.

    It is solved as ``min ‖v‖²`` subject to ``v·(x_i - x_j) >= 2`` for every
    positive i and negative j (the classes' scores 2 apart), which has the
    same optimal v; b then puts the nearest samples of both classes at
    margin exactly 1. Multipliers are reported per sample.

    Parameters and results are as for `max_margin`.

    Raises
    ------
    InvalidArgument
        If the data have one class only (the problem has no optimum: v = 0 is feasible).

    Examples
    --------
    >>> from verify_perceptron.data.dataset import from_arrays
    >>> data = from_arrays([[0, 4], [2, 4], [0, 0]], [1, 1, 0])
    >>> result = max_margin_free_bias(data)
    >>> result.certified, [str(v) for v in result.weights], result.norm_sq
    (True, ['-1', '0', '1/2'], Fraction(1, 4))
    """
    if len(set(data.y)) < 2:
        raise InvalidArgument(f"y has the single class {data.y[0]:+d}: the free-bias SVM needs both classes")
    deadline = deadline_after(time_limit)
    extra = _candidates(data, candidates)
    solution = solve(pair_rows(data), deadline=deadline)
    out = solution.exact
    if out.status == "optimal":
        v = exact_vector(out.x)
        w = _best_bias(data, (Fraction(0), *v))
        if w is None or w[1:] != v:
            return _fallback(data, "free-bias", solution, extra, "the exact solve ended at a point that does not separate")
        # v = Σ u_ij·(x_i - x_j)/2: sample i carries Σ_j u_ij/2, sample j carries Σ_i u_ij/2.
        alpha: dict[int, Fraction] = {}
        for (i, j), u in zip(cast("tuple[tuple[int, int], ...]", out.active), exact_vector(out.multipliers)):
            alpha[i] = alpha.get(i, Fraction(0)) + u / 2
            alpha[j] = alpha.get(j, Fraction(0)) + u / 2
        return _certified(data, "free-bias", w, alpha, solution, extra)
    if out.status == "infeasible":
        lam = [Fraction(0)] * data.n_samples
        for key, weight in out.combination:
            i, j = cast("tuple[int, int]", key)
            c = exact(weight)
            lam[i] += c / 2  # Σ c_ij·(x_i - x_j) = 0 is Σ λ_k·y_k·(1, x_k) = 0 with these λ
            lam[j] += c / 2
        return _not_separable(data, "free-bias", lam)
    return _fallback(data, "free-bias", solution, extra, f"not certified: stopped at the {out.status}")


def certified_separator(data: Dataset, convention: Convention, separability: Separability, *,
                        time_limit: float | None = None) -> tuple[tuple[Fraction, ...], str] | None:
    """The separator a run that stopped at a limit is checked against: the max-margin one, in `convention`'s coordinates.

    Returns ``(w*, note)`` for data certified separable (the augmented
    max-margin separator when it is certified within `time_limit`, else the
    separability certificate's own separator), or None when separability is
    not certified.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> from .separability import decide_separability
    >>> data = example("and")
    >>> w, note = certified_separator(data, get_convention("classic"), decide_separability(data))
    >>> [str(v) for v in w], note
    (['-3', '2', '2'], 'the certified augmented max-margin separator')
    """
    if separability.separable is not True or not separability.certified or separability.separator is None:
        return None
    best = max_margin(data, time_limit=time_limit, candidates=[separability.separator])
    if best.certified and best.weights is not None:
        b, *v = best.weights
        return tuple(convention.from_canonical(b, v)), "the certified augmented max-margin separator"
    b, *v = separability.separator
    return tuple(convention.from_canonical(b, v)), f"the separability certificate's separator ({separability.method})"

