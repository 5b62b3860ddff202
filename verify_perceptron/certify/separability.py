"""Is the data linearly separable? An exact answer, with a certificate either way.

By Gordan's alternative exactly one of these holds for the augmented samples
x~_i = (1, x_i):

* a **separator**: w = (b, v) with ``y_i·w·x~_i >= 1`` for every sample i
  (any strict separator scaled by its smallest margin is one);
* a **Gordan certificate**: λ >= 0, Σ λ_i = 1, ``Σ λ_i·y_i·x~_i = 0``: a point
  common to the two classes' convex hulls, which no separator survives
  (it would give 0 = w·Σ λ_i y_i x~_i >= Σ λ_i = 1).

Both are checked in rational arithmetic by `separator_defect` and
`verify_perceptron.certify.certificates.gordan_defect`; a `Separability` says
``separable`` only after its certificate passed that check. The decision does
not run a perceptron: it solves ``min ‖w‖²`` subject to ``y_i·w·x~_i >= 1``
exactly (see `verify_perceptron.certify.maxmargin`), which ends either at a separator
or at a certificate.

Separators are written ``(b, v1, ..., vm)``: the shared form of
`verify_perceptron.notes.conventions` with score ``v·x + b``; a convention's
``from_canonical(b, v)`` gives its own coordinates.
"""

from __future__ import annotations

from collections.abc import Sequence
import dataclasses
from dataclasses import dataclass
from typing import Protocol
from fractions import Fraction

import numpy as np

from ._activeset import Solution, combination_by_row, deadline_after, exact_vector, rationalize, solve
from ._nnls_start import nnls_solution
from ._constraints import (HELD_BELOW, augmented_constraints, augmented_matrix, integer_vector, keep_per_dataset,
                           matrix_margins)
from .certificates import certificate_from_cycle, gordan_defect
from .proposal import propose
from ..check.results import CheckResult
from ..data.dataset import Dataset
from ..data.exact_text import exact_text
from ..data.integers import ExactMatrix
from ..data.limb_arrays import LimbMatrix
from ..data.trace import ScaledWeights, Trace
from ..notes.conventions import Convention
from ..errors import InvalidArgument
from ..data.rationals import as_rationals

__all__ = [
    "Separability",
    "augmented_rows",
    "augmented_solution",
    "certify",
    "decide_separability",
    "separability_of_run",
    "normalize_separator",
    "separator_defect",
]

Vector = tuple[Fraction, ...]


@dataclass(frozen=True)
class Separability:
    """The answer to "is the data linearly separable?", with its exactly checked certificate.

    Attributes
    ----------
    separable : bool or None
        True or False only when `certified`; None when no certificate was found
        (time limit) or a proposed one failed its check.
    certified : bool
        True when the certificate below passed its exact check.
    separator : tuple of Fraction or None
        ``(b, v1, ..., vm)`` with ``y_i·(v·x_i + b) >= 1`` for every sample.
    gordan : tuple of Fraction or None
        λ >= 0, Σ λ = 1, ``Σ λ_i·y_i·(1, x_i) = 0``: the data are not separable.
    method : str
        How the certificate was found.
    problem : str or None
        Why there is no certified answer, if there is none.
    """

    separable: bool | None
    certified: bool
    separator: Vector | ScaledWeights | None  # (a converged run's: its final weights over γ, made when read)
    gordan: Vector | None
    method: str
    problem: str | None = None

    @property
    def certificate(self) -> Vector | ScaledWeights | None:
        """The separator when separable, λ when not, None when undecided."""
        return self.separator if self.separable else self.gordan if self.separable is False else None

    @property
    def certificate_kind(self) -> str | None:
        """``"separator"``, ``"gordan"`` or None."""
        return "separator" if self.separable else "gordan" if self.separable is False else None

    def as_dict(self) -> dict[str, object]:
        """JSON-ready: exact numbers as strings.

        Examples
        --------
        >>> from verify_perceptron.data.examples import example
        >>> decide_separability(example("xor")).as_dict()["certificate"]
        {'kind': 'gordan', 'values': ['1/4', '1/4', '1/4', '1/4']}
        """
        values = self.certificate
        return {
            "separable": self.separable,
            "certified": self.certified,
            "certificate": None if values is None else {"kind": self.certificate_kind,
                                                        "values": _texts(values)},
            "method": self.method,
            "problem": self.problem,
        }


def _texts(values: Sequence[Fraction]) -> list[str]:
    """`exact_text` of each value; a zero, most of a Gordan certificate's (at most d + 2 of its n are not: 10^6
    at 10^6 samples), written without the call.

    Examples
    --------
    >>> _texts([Fraction(0), Fraction(-1, 3), 0, Fraction(4)])
    ['0', '-1/3', '0', '4']

    A dense certificate made from its support holds one zero object n − (d + 2) times: that object is passed by
    identity, without a call of `Fraction.__bool__` (0.1 s for 10^6 of them); any other zero is still written "0".
    """
    zero = values[0] if len(values) and not values[0] else None
    return [("0" if v is zero or not v else exact_text(v)) for v in values]


def augmented_rows(data: Dataset) -> list[Vector]:
    """``y_i·(1, x_i)`` for every sample: w separates with margin 1 iff ``row·w >= 1`` for each row.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> [tuple(map(int, r)) for r in augmented_rows(example("and"))][:2]
    [(-1, 0, 0), (-1, 0, -1)]
    """
    A, L = augmented_matrix(data)
    return [tuple(Fraction(v, L) for v in row) for row in A.exact.tolist()]


def _as_vector(data: Dataset, w: Sequence[object], name: str) -> Vector:
    values = as_rationals(w, name=name)
    if len(values) != data.n_features + 1:
        raise InvalidArgument(
            f"{name} has {len(values)} values; (b, v1..v{data.n_features}) needs {data.n_features + 1}"
        )
    return values


def separator_defect(data: Dataset, w: Sequence[Fraction]) -> str | None:
    """None when ``y_i·(v·x_i + b) >= 1`` for every sample, else what is wrong, naming the sample.

    Parameters
    ----------
    data : Dataset
    w : sequence of Fraction
        ``(b, v1, ..., vm)``.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> separator_defect(example("and"), [Fraction(-3), Fraction(2), Fraction(2)]) is None
    True
    >>> separator_defect(example("and"), [Fraction(-2), Fraction(1), Fraction(1)])
    'y_3·w·x~_3 = 0 < 1 (sample 3)'
    """
    if len(w) != data.n_features + 1:
        return f"w has {len(w)} entries; (b, v1..v{data.n_features}) needs {data.n_features + 1}"
    # Every margin over one denominator E, in integers: y_i·w·x~_i = M[i]/E >= 1 iff M[i] >= E.
    M, E = matrix_margins(*augmented_matrix(data), w)
    short = np.flatnonzero(M < E) if M.dtype == object or E < 2**63 else np.arange(len(M))
    if len(short):
        i = int(short[0])
        return f"y_{i}·w·x~_{i} = {Fraction(int(M[i]), E)} < 1 (sample {i})"
    return None


def normalize_separator(data: Dataset, w: Sequence[Fraction]) -> Vector | None:
    """``w/γ`` with γ = min_i y_i·w·x~_i, so that the smallest margin is exactly 1; None if γ <= 0.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> [str(v) for v in normalize_separator(example("and"), [Fraction(-4), Fraction(3), Fraction(2)])]
    ['-4', '3', '2']
    >>> normalize_separator(example("and"), [Fraction(1), Fraction(1), Fraction(1)]) is None
    True
    """
    M, E = matrix_margins(*augmented_matrix(data), w)
    gamma = Fraction(int(M.min()), E)
    if gamma <= 0:
        return None
    return tuple(v / gamma for v in w)


def certify(
    data: Dataset,
    *,
    separator: Sequence[Fraction] | None = None,
    gordan: Sequence[Fraction] | None = None,
    method: str = "given",
) -> Separability:
    """Check a proposed certificate exactly and say what it proves.

    Exactly one of `separator` and `gordan` is given. A certificate that
    fails its check proves nothing: the result is then undecided
    (``separable=None``) and `Separability.problem` says why.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> certify(example("and"), separator=[Fraction(-3), Fraction(2), Fraction(2)]).separable
    True
    >>> result = certify(example("and"), gordan=[Fraction(1, 4)] * 4)
    >>> result.separable, result.problem
    (None, 'the proposed Gordan certificate is wrong: Σ λ_i·y_i·x~_i = [-1/2, 0, 0], not 0')
    """
    if (separator is None) == (gordan is None):
        raise InvalidArgument("certify needs exactly one of separator= and gordan=")
    if separator is not None:
        w = _as_vector(data, separator, "separator")
        defect = separator_defect(data, w)
        if defect is None:
            return Separability(True, True, w, None, method)
        return Separability(None, False, None, None, method, f"the proposed separator is wrong: {defect}")
    assert gordan is not None
    lam = as_rationals(gordan, name="gordan")
    defect = gordan_defect(data, lam)
    if defect is None:
        return Separability(False, True, None, lam, method)
    return Separability(None, False, None, None, method, f"the proposed Gordan certificate is wrong: {defect}")


def _from_solution(data: Dataset, solution: Solution) -> Separability:
    """What a solve of ``min ‖w‖²``, ``y_i·w·x~_i >= 1`` proves, every certificate checked exactly."""
    outcome = solution.exact
    if outcome.status == "optimal":
        return certify(data, separator=exact_vector(outcome.x), method="exact dual active set")
    if outcome.status == "infeasible":
        return certify(data, gordan=combination_by_row(outcome, data.n_samples), method="exact dual active set")
    # Out of time: a float candidate that separates still decides, once checked exactly.
    if solution.proposal is not None:
        w = normalize_separator(data, rationalize(solution.proposal))
        if w is not None:
            return certify(data, separator=w, method="float candidate, checked exactly")
    return Separability(None, False, None, None, "exact dual active set", f"undecided: stopped at the {outcome.status}")


def decide_separability(data: Dataset, *, time_limit: float | None = None) -> Separability:
    """Decide exactly whether `data` is linearly separable, with a certificate either way.

    Parameters
    ----------
    data : Dataset
    time_limit : float, optional
        Seconds to spend; when they run out the answer is undecided
        (``separable=None``) unless a float candidate already separates exactly.

    Returns
    -------
    Separability

    Notes
    -----
    From `PROPOSE_FROM` cells on, a float LP first proposes a certificate
    (`verify_perceptron.certify.proposal`: a separator checked exactly on
    every sample, or Gordan's λ on at most m + 2 samples, solved and checked
    exactly); only when it fails is the exact method below run.

    The exact work is the dual active-set solve of the max-margin problem in
    dimension d = m + 1: each step costs O(n·d) integer operations to find a
    violated sample and O(k·d + k²) rational ones, k <= d the active samples;
    a float run proposes the active set first, so on separable data the exact
    run usually only confirms it. A few hundred samples by tens of features
    take about a second.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> result = decide_separability(example("and"))
    >>> result.separable, [str(v) for v in result.separator]
    (True, ['-3', '2', '2'])
    >>> result = decide_separability(example("xor"))
    >>> result.separable, [str(v) for v in result.gordan]
    (False, ['1/4', '1/4', '1/4', '1/4'])
    """
    deadline = deadline_after(time_limit)
    if data.n_samples * (data.n_features + 1) >= PROPOSE_FROM and _SOLVED.get(id(data)) is None:
        proposed = propose(data, deadline)
        if proposed is not None:
            kind, values, method = proposed  # checked exactly by `propose`, against every sample
            return Separability(kind == "separator", True, values if kind == "separator" else None,
                                values if kind == "gordan" else None, method)
    found = _from_solution(data, augmented_solution(data, deadline))
    if found.separable is None and time_limit is not None and found.problem is not None and "time-limit" in found.problem:
        return dataclasses.replace(found, problem=f"undecided: the time limit ran out ({time_limit:.3g} s were left for the decision)")
    return found


#: From this many cells (samples times m + 1) a float LP's proposal, checked exactly, is tried before the exact
#: method (`verify_perceptron.certify.proposal`): the exact method alone took over 300 s on 10^4 x 100 non-separable
#: data, the proposal 1.3 s; below it the exact method is quick and its certificates are the simplest.
PROPOSE_FROM = 20_000

#: Finished solves of the augmented problem, by the id of their dataset while it lives.
_SOLVED: dict[int, Solution] = {}


def augmented_solution(data: Dataset, deadline: float | None) -> Solution:
    """`solve` of `data`'s augmented max-margin problem, made once per dataset.

    A solve that finished (optimal or infeasible) answers for any deadline, so
    it is kept while `data` lives: deciding separability and then certifying
    the max-margin separator, as `verify` does, solve once. A solve stopped by
    its deadline is not kept. The dataset is treated as immutable, as
    everywhere else.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> data = example("and")
    >>> first = augmented_solution(data, None)
    >>> first.exact.status, augmented_solution(data, None) is first
    ('optimal', True)
    """
    kept = _SOLVED.get(id(data))
    if kept is not None:
        return kept
    constraints = augmented_constraints(data)
    # SciPy's least-squares start where it provably gives the same answer (`._nnls_start`), else as before.
    solution = nnls_solution(constraints, deadline) or solve(constraints, deadline=deadline)
    if solution.exact.status in ("optimal", "infeasible"):
        keep_per_dataset(_SOLVED, data, solution)
    return solution


def _final_separator(data: Dataset, convention: Convention, trace: Trace) -> Separability | None:
    """The run's final weights, scaled to margin 1, when they separate every sample (checked exactly), else None.

    One exact pass over the dataset's own numerators (``data.exact``): no
    augmented copy of the data is made for it.
    """
    if trace.final_weights is None or len(trace.final_weights) != data.n_features + 1:
        return None
    b, v = convention.to_canonical(trace.final_weights)
    W, D = integer_vector((b, *v))  # w = W/D, and y_i·w·x~_i = y_i·(W_0·L + N_i·W_v) / (L·D)
    offset = W[0] * data.denominator
    if _first_rows_fail(data, W[1:], offset):
        return None
    if _least_row_fails(data, W):  # (no product of every row made, so none to let go of)
        return None
    products = data.exact.products(W[1:], norm_sq=sum(c * c for c in W[1:]))
    gamma = None
    # y_i·(p_i + offset) a piece of rows at a time: past int64 each is a Python integer, and two more arrays of
    # them as long as the data would be made (twice the int64 data at d = 10); the first margin <= 0 ends it
    for start in range(0, len(products), _MARGIN_PIECE):
        piece = products[start:start + _MARGIN_PIECE]
        if piece.dtype != object and abs(offset) + int(np.abs(piece).max(initial=0)) >= 2**62:
            piece = piece.astype(object)
        least = int((data.y_array[start:start + _MARGIN_PIECE] * (piece + offset)).min())
        gamma = least if gamma is None else min(gamma, least)
        if gamma <= 0:
            data.exact.forget_product()  # the product kept for a second use of the same weights: none comes
            return None
    if gamma is None:
        return None
    scaled = tuple(Fraction(c * data.denominator, gamma) for c in W)  # w/γ: the smallest margin exactly 1
    return Separability(True, True, scaled, None, "the run's final weights, scaled by 1/γ")


#: Rows whose margins `_final_separator` computes at a time.
_MARGIN_PIECE = 2**14


def _first_rows_fail(data: Dataset, V: Sequence[int], offset: int) -> bool:
    """Whether y_i·(N_i·V + offset) <= 0 for one of the first `_MARGIN_PIECE` samples (limbs or int64), exactly.

    A run stopped at a limit on data that are not separable has such a sample among its first rows, nearly
    always: then the products of every row (at 10^6 x 10, as many Python integers made from their limbs: 0.7 s
    after the run) are not made. False where the numerators pass int64 without limbs, or no first row fails: the
    caller's pass over every row then decides, as it did without this look.
    """
    if data.n_samples <= _MARGIN_PIECE:
        return False  # (`limb_rows`, `numerator_rows`: these rows alone, where the data rest on a sample matrix)
    if (first := data.limb_rows(slice(_MARGIN_PIECE))) is not None:
        products = LimbMatrix(first).products(V)
    elif (first := data.numerator_rows(slice(_MARGIN_PIECE))) is not None:  # int64: `data.exact` not made
        products = ExactMatrix(first).products(V, norm_sq=sum(c * c for c in V)).astype(object)
    else:
        return False
    return products is not None and int((data.y_array[:_MARGIN_PIECE] * (products + offset)).min()) <= 0


def _least_row_fails(data: Dataset, W: Sequence[int]) -> bool:
    """Whether y_i·w·x~_i <= 0, exactly, for w = W/D and the sample i whose margin is least in floats; on
    data of fewer than `HELD_BELOW` cells (larger ones: `_first_rows_fail`), else False.

    The floats (those of the augmented rows, `augmented_matrix`: the run's own sample matrix under the
    default convention, its floats made by the run's filter) only choose the sample; its margin is then
    computed exactly. The final weights of a run stopped at max_epochs rarely separate, and the exact
    products of every row were made to find it (0.3 to 1 ms a fit on breast cancer: Python integers made
    from their limbs). False where nothing is found so: the pass over every row then decides, as it did
    without this look.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> data = example("and")  # y = -1, -1, -1, +1 at (0, 0), (0, 1), (1, 0), (1, 1)
    >>> _least_row_fails(data, [-1, 1, 1]), _least_row_fails(data, [-3, 2, 2])  # x1 + x2 - 1: (0, 1) on it
    (True, False)
    """
    if not 0 < data.n_samples * (data.n_features + 1) < HELD_BELOW:
        return False
    matrix, _ = augmented_matrix(data)  # row i: y_i·(L, N_i), so that its product with W is L·D·y_i·w·x~_i
    floats, shift = matrix.approximate()  # each entry nearest to the row's over 2^shift
    down = 2 ** max(max((abs(v).bit_length() for v in W), default=0) - 60, 0)
    with np.errstate(all="ignore"):  # (inf or NaN ends the look: nothing is chosen)
        margins = floats @ np.array([v / down for v in W], dtype=np.float64)
    i = int(np.argmin(margins))
    if not np.isfinite(margins[i]):
        return False
    return bool(sum(a * b for a, b in zip(matrix.row_values([i])[0].tolist(), map(int, W))) <= 0)


class Decision(Protocol):
    """A decision already under way (`verify_perceptron.certify.beside.Beside`): joined, or cancelled."""

    def result(self, time_limit: float | None) -> Separability:
        """The answer, within `time_limit` seconds (None: as long as it takes)."""

    def cancel(self) -> None:
        """The answer is not needed."""


def _over_gamma(convention: Convention, separator: Sequence[Fraction], gamma: Fraction) -> Vector | ScaledWeights:
    """The separator in canonical order (b, v) over its margin γ: y_i·(v·x_i + b) >= 1 for every sample.

    The engine's final weights (`ScaledWeights`, unit·V) give ScaledWeights of the same integers over
    unit/γ, whose fractions are made only when read (a report): a converged fit on 65 features spent a tenth
    of its time dividing 65 fractions by γ that nothing read. Others are divided here.

    Examples
    --------
    >>> from verify_perceptron.notes.conventions import CONVENTIONS
    >>> over = _over_gamma(CONVENTIONS["sum-norm"], ScaledWeights([2, 0, -3], Fraction(1, 4)), Fraction(3, 2))
    >>> over == (Fraction(1, 2), Fraction(1, 3), Fraction(0)), isinstance(over, ScaledWeights)
    (True, True)
    """
    if isinstance(separator, ScaledWeights):
        V, sign = separator.integers, convention.bias_input  # (bias_input is ±1)
        canonical = [sign * V[0], *V[1:]] if convention.bias_first else [sign * V[-1], *V[:-1]]
        return ScaledWeights(canonical, separator.unit / gamma)
    b, v = convention.to_canonical(separator)
    return tuple(w / gamma for w in (b, *v))


def separability_of_run(data: Dataset, convention: Convention, trace: Trace, check: CheckResult | None,
                        time_limit: float | None, beside: Decision | None = None) -> Separability:
    """Separable or not, with a certificate: from a checked run when it settles it, else decided exactly.

    A converged run's separator, scaled by 1/γ, is a certificate of
    separability; a run that cycled gives Gordan's λ from its mistakes
    (checked exactly). `check` may be None for a run not checked yet (its
    check waits for this answer): a converged run is always checked first.
    Otherwise `decide_separability` decides, within
    `time_limit` seconds, or, without one, for as long as it takes; `beside`,
    a decision started beside the run, is joined instead (and cancelled when
    the run settled it).
    """
    g = None if check is None else check.geometry
    if trace.converged and g is not None and g.separates and check is not None and check.separator is not None:
        scaled = _over_gamma(convention, check.separator, g.gamma)
        if beside is not None:
            beside.cancel()
        return Separability(True, True, scaled, None, f"the {check.separator_source} separator, scaled by 1/γ")
    cycle = certificate_from_cycle(trace)
    if cycle is not None and gordan_defect(data, cycle) is None:
        if beside is not None:
            beside.cancel()
        e1, e2 = trace.cycle or (0, 0)
        span = f"epoch {e2}" if e2 == e1 + 1 else f"epochs {e1 + 1} to {e2}"
        return Separability(False, True, None, cycle, f"the run's cycle: mistakes per sample over {span}")
    final = _final_separator(data, convention, trace)
    if final is not None:  # a run stopped at a limit just after its last mistake may already separate
        if beside is not None:
            beside.cancel()
        return final
    limit = None if time_limit is None else max(time_limit, 1e-3)
    return decide_separability(data, time_limit=limit) if beside is None else beside.result(limit)

