"""What the convergence proof gives the averaged perceptron, checked exactly after every presentation.

With S_p = Σ_{q<=p} w_q (so w̄ = S_P/P), K_p = Σ_{q<=p} k_q (k_q the updates made by presentation
q), a the step size, γ the separator's margin and R² = max ‖x~‖²:

==================  ===================================  ==========================================
claim               inequality (times p, no division)    from
==================  ===================================  ==========================================
averaged-lower      S_p·w* >= a·γ·K_p                    the lower bound w_k·w* >= k·a·γ, summed
averaged-jensen     ‖S_p‖² <= p·Σ_{q<=p} ‖w_q‖²          convexity of ‖·‖² (Jensen, or Cauchy-Schwarz)
averaged-upper      ‖S_p‖² <= p·a²·R²·K_p                the upper bound ‖w_k‖² <= k·a²·R², summed,
                                                         then Jensen
==================  ===================================  ==========================================

Between two updates each side grows by a fixed amount per presentation and the left side of each
(its slack's change) keeps one sign, so checking at the last presentation before every update and
at the end decides every presentation. The averaged weights get no mistake bound of their own, and
need not separate the data even when the run converged (`separates`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..data.dataset import Dataset
from ..data.exact_text import exact_text
from ..data.trace import Trace
from ..errors import InvalidArgument
from ..notes.conventions import dot, get_convention
from ..data.presentations import presentation_segments

__all__ = ["AveragedClaim", "AveragedCheck", "check_averaged", "AVERAGED_CLAIMS"]

#: The claims, in order, with their statements.
AVERAGED_CLAIMS = (
    ("averaged-lower", "S_p·w* >= a·γ·K_p  (w̄·w* >= a·γ·K_p/p)"),
    ("averaged-jensen", "‖S_p‖² <= p·Σ_q ‖w_q‖²  (‖w̄‖² <= mean of ‖w_q‖²)"),
    ("averaged-upper", "‖S_p‖² <= p·a²·R²·K_p  (‖w̄‖² <= a²·R²·K_p/p)"),
)


@dataclass(frozen=True)
class AveragedClaim:
    """One claim's result: where it was checked, the least slack, the first presentation that broke it."""

    name: str
    statement: str
    n_checked: int
    min_slack: Fraction | None
    first_violation: int | None

    @property
    def holds(self) -> bool:
        return self.first_violation is None


@dataclass(frozen=True)
class AveragedCheck:
    """The averaged weights, whether they separate the data (decided exactly), and the claims."""

    weights: tuple[Fraction, ...]
    presentations: int
    separates: bool
    claims: tuple[AveragedClaim, ...]

    @property
    def holds(self) -> bool:
        return all(c.holds for c in self.claims)


def check_averaged(data: Dataset, trace: Trace, separator: Sequence[Fraction] | None = None, *,
                   epochs: int | None = None) -> AveragedCheck:
    """Average a run's weights over its presentations and check the three claims at every presentation.

    Without a separator (non-separable data), only ``averaged-jensen``, which needs none, is checked.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> from verify_perceptron.run.reference import train
    >>> data = example("and")
    >>> result = check_averaged(data, train(data, "classic"), separator=(-4, 3, 2))
    >>> [str(v) for v in result.weights], result.separates, result.holds
    (['-23/9', '25/12', '4/3'], True, True)
    """
    conv = get_convention(trace.convention)
    samples = [conv.augment(x) for x in data.X]
    a = conv.step_size(trace.rate)
    w_star = None if separator is None else tuple(Fraction(v) for v in separator)
    gamma = None if w_star is None else min(y * dot(w_star, x) for x, y in zip(samples, data.y))
    if gamma is not None and gamma <= 0:
        raise InvalidArgument(f"separator={[exact_text(v) for v in w_star or ()]} does not separate the data: "
                              f"γ = min y·w*·x~ = {exact_text(gamma)} <= 0")
    R_sq = max(dot(x, x) for x in samples)
    S = [Fraction(0)] * len(trace.final_weights)
    p = K = 0
    Q = Fraction(0)
    slacks: dict[str, list[Fraction]] = {name: [] for name, _ in AVERAGED_CLAIMS}
    first: dict[str, int | None] = {name: None for name, _ in AVERAGED_CLAIMS}
    for k, (_, count, w) in enumerate(presentation_segments(trace, data.n_samples, epochs)):
        if not count:
            continue
        S = [s + count * v for s, v in zip(S, w)]
        p, K, Q = p + count, K + count * k, Q + count * dot(w, w)
        S_sq = dot(S, S)
        values = {"averaged-jensen": p * Q - S_sq, "averaged-upper": p * a * a * R_sq * K - S_sq}
        if w_star is not None and gamma is not None:
            values["averaged-lower"] = dot(S, w_star) - a * gamma * K
        for name, slack in values.items():
            slacks[name].append(slack)
            if slack < 0 and first[name] is None:
                first[name] = p
    weights = tuple(s / p for s in S)
    separates = all(conv.decide(dot(weights, x), y, Fraction(1)) is None for x, y in zip(samples, data.y))
    claims = tuple(AveragedClaim(name, statement, len(slacks[name]), min(slacks[name]) if slacks[name] else None,
                                 first[name])
                   for name, statement in AVERAGED_CLAIMS if slacks[name] or name != "averaged-lower")
    return AveragedCheck(weights, p, separates, claims)
