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

Every presentation is decided, exactly, in O(1) per stretch of equal weights (after O(d) for its
dot products). Within a stretch the weights stay w (after k updates) and, t presentations into it,
S = S0 + t·w, K = K0 + t·k and Σ‖w_q‖² = Q0 + t·‖w‖²; so each slack is a polynomial in t:

* averaged-lower: S·w* - a·γ·K = (S0·w* - a·γ·K0) + t·(w·w* - a·γ·k), linear;
* averaged-jensen: p·Q - ‖S‖² with p = p0 + t: the t² terms cancel (t²‖w‖² on both sides), linear;
* averaged-upper: p·a²R²·K - ‖S‖² = A·t² + B·t + C with A = a²R²·k - ‖w‖²,
  B = a²R²·(p0·k + K0) - 2·S0·w, C = a²R²·p0·K0 - ‖S0‖², a quadratic.

A polynomial's least value over t = 1..c is at an end, or for a convex quadratic next to its vertex
-B/(2A), so the reported least slack is the true minimum over all presentations; the first
presentation with a negative slack is found by bisection in the stretch that has one ({t : f(t) < 0}
is an interval, ending at the minimum or beyond). The averaged weights get no mistake bound of their
own, and need not separate the data even when the run converged (`separates`).
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

    Without a separator (non-separable data) ``averaged-lower``, which reads w*, is left out; the
    other two need none.

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
    c2 = a * a * max(dot(x, x) for x in samples)  # a²·R²
    S = [Fraction(0)] * len(trace.final_weights)
    p = K = 0
    Q = Fraction(0)
    least: dict[str, Fraction | None] = {name: None for name, _ in AVERAGED_CLAIMS}
    first: dict[str, int | None] = {name: None for name, _ in AVERAGED_CLAIMS}
    for k, (_, count, w) in enumerate(presentation_segments(trace, data.n_samples, epochs)):
        if not count:
            continue
        w_sq, S_w, S_sq = dot(w, w), dot(S, w), dot(S, S)
        # Each claim's slack t presentations into the stretch, as (t², t, 1) coefficients (module docstring).
        forms = {"averaged-jensen": (Fraction(0), p * w_sq + Q - 2 * S_w, p * Q - S_sq),
                 "averaged-upper": (c2 * k - w_sq, c2 * (p * k + K) - 2 * S_w, c2 * p * K - S_sq)}
        if w_star is not None and gamma is not None:
            forms["averaged-lower"] = (Fraction(0), dot(w, w_star) - a * gamma * k, dot(S, w_star) - a * gamma * K)
        for name, form in forms.items():
            value, at = _least(form, count)
            if least[name] is None or value < least[name]:  # type: ignore[operator]
                least[name] = value
            if value < 0 and first[name] is None:
                first[name] = p + _first_negative(form, at)
        S = [s + count * v for s, v in zip(S, w)]
        p, K, Q = p + count, K + count * k, Q + count * w_sq
    weights = tuple(s / p for s in S)
    separates = all(conv.decide(dot(weights, x), y, Fraction(1)) is None for x, y in zip(samples, data.y))
    claims = tuple(AveragedClaim(name, statement, p if least[name] is not None else 0, least[name], first[name])
                   for name, statement in AVERAGED_CLAIMS if least[name] is not None or name != "averaged-lower")
    return AveragedCheck(weights, p, separates, claims)


Form = tuple[Fraction, Fraction, Fraction]


def _value(form: Form, t: int) -> Fraction:
    A, B, C = form
    return (A * t + B) * t + C


def _least(form: Form, count: int) -> tuple[Fraction, int]:
    """The least value of A·t² + B·t + C over t = 1..count, and the first t where it is taken."""
    A, B, _ = form
    candidates = {1, count}
    if A > 0:  # convex: the least integer value is next to the vertex -B/(2A)
        vertex = -B / (2 * A)
        floor = vertex.numerator // vertex.denominator
        candidates |= {t for t in (floor, floor + 1) if 1 <= t <= count}
    return min((_value(form, t), t) for t in candidates)


def _first_negative(form: Form, last: int) -> int:
    """The first t in 1..last with a negative value, given one at `last`, the least.

    If f(1) >= 0, {t : f(t) < 0} within 1..last is an interval ending at `last`: f is linear, or a convex
    quadratic (its negative set an interval around its least), or a concave one (negative only to the right).
    """
    if _value(form, 1) < 0:
        return 1
    lo, hi = 2, last
    while lo < hi:
        mid = (lo + hi) // 2
        if _value(form, mid) < 0:
            hi = mid
        else:
            lo = mid + 1
    return lo
