"""The checker: every claim of the proofs, confirmed exactly at every update of a trace.

`check_trace` replays a `Trace` against its data. At each update it confirms
that the update obeys the convention's rule (it was a mistake, its score and
its step are what the rule gives) and evaluates every `Claim` that is a
theorem for the convention and mode, exactly, with no square root anywhere.
When the run claims convergence it also confirms that the final weights make
no mistake on any sample.

The separator w* is the user's, or by default the run's own final weights
once the run has converged: they classify every sample correctly, so they
are a valid w*.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import SimpleNamespace

from .bounds import Geometry, NoteBound, geometry, note_bound, note_bounds
from .claims import Claim, claims_for
from .conventions import Convention, dot, get_convention
from .dataset import Dataset
from .errors import InvalidArgument, InvariantViolation
from .rationals import as_rational
from .trace import Trace, Update

__all__ = ["Violation", "InvariantResult", "CheckResult", "check_trace", "assert_trace_verified"]

Vector = tuple[Fraction, ...]


@dataclass(frozen=True)
class Violation:
    """Where a claim first failed, with the values involved (sorted by name)."""

    k: int
    epoch: int
    samples: tuple[int, ...]
    values: tuple[tuple[str, Fraction], ...]
    message: str = ""

    def describe(self, claim: str) -> str:
        """One stable line: the claim, where, then each value as ``name was value``.

        Examples
        --------
        >>> Violation(3, 1, (2,), (("w_sq", Fraction(5)),)).describe("‖w‖² <= 4")
        '‖w‖² <= 4 failed at update 3 (epoch 1, sample 2): w_sq was 5'
        """
        plural = "s" if len(self.samples) > 1 else ""
        samples = ", ".join(map(str, self.samples))
        if self.k:
            where = f"update {self.k} (epoch {self.epoch}, sample{plural} {samples})"
        else:
            where = f"sample{plural} {samples}" if self.samples else "the data"
        values = ", ".join(f"{name} was {value}" for name, value in self.values)
        detail = f" ({self.message})" if self.message else ""
        return f"{claim} failed at {where}{detail}: {values}" if values else f"{claim} failed at {where}{detail}"


@dataclass
class InvariantResult:
    """The verdict on one claim over a whole trace.

    ``holds`` is None when the claim was not checked (``skipped`` says why).
    ``min_slack`` is the smallest ``rhs - lhs`` seen, exactly, at update
    ``min_slack_at``.
    """

    name: str
    text: str
    source: str
    holds: bool | None = True
    n_checked: int = 0
    min_slack: Fraction | None = None
    min_slack_at: int | None = None
    first_violation: Violation | None = None
    skipped: str | None = None

    def record(self, slack: Fraction, k: int) -> None:
        self.n_checked += 1
        if self.min_slack is None or slack < self.min_slack:
            self.min_slack, self.min_slack_at = slack, k

    def fail(self, violation: Violation) -> None:
        if self.first_violation is None:
            self.first_violation = violation
        self.holds = False


@dataclass(frozen=True)
class CheckResult:
    """Everything the checker found about one trace.

    Attributes
    ----------
    invariants : tuple of InvariantResult
        One per claim, in report order.
    separator : tuple of Fraction or None
        The w* used, in the convention's coordinates.
    separator_source : str or None
        ``"user"`` or ``"final"`` (the run's own final weights); None when there was none.
    geometry : Geometry or None
        The separator's exact measurements on the data.
    bounds : tuple of NoteBound
        All five notes' bounds for this separator (empty if it does not separate).
    own_bound : NoteBound or None
        The bound of the trace's own convention.
    """

    invariants: tuple[InvariantResult, ...]
    separator: Vector | None
    separator_source: str | None
    geometry: Geometry | None
    bounds: tuple[NoteBound, ...] = field(default=())
    own_bound: NoteBound | None = None

    @property
    def holds(self) -> bool:
        """True when no checked claim failed."""
        return all(r.holds is not False for r in self.invariants)

    @property
    def violations(self) -> list[InvariantResult]:
        """The claims that failed."""
        return [r for r in self.invariants if r.holds is False]

    @property
    def complete(self) -> bool:
        """True when every claim was checked (none skipped for want of a separator)."""
        return all(r.skipped is None for r in self.invariants)


def _resolve_separator(
    data: Dataset, trace: Trace, conv: Convention, separator: Sequence[object] | None
) -> tuple[Vector | None, str | None]:
    width = data.n_features + 1
    if separator is not None:
        values = tuple(as_rational(v, name=f"separator[{j}]") for j, v in enumerate(separator))
        if len(values) != width:
            raise InvalidArgument(
                f"separator has {len(values)} values; {conv.name} needs {width}: "
                + ", ".join(conv.weight_names(data.n_features))
            )
        return values, "user"
    if trace.converged:
        return _strict(data, conv, trace.final_weights)
    return None, None


def _strict(data: Dataset, conv: Convention, w: Vector) -> tuple[Vector, str]:
    """The final weights as w*, made strict when a hard limiter left a class -1 score at exactly 0.

    sgn(0) = -1 lets note 001's run stop with w·x~ = 0 on a class -1 sample, so
    γ = 0 and the final weights are no strict separator. Every class +1 score
    is then > 0; lowering the bias by half the smallest of them, δ, keeps those
    >= δ and makes every class -1 score <= -δ: a strict separator, exactly.
    """
    b, v = conv.to_canonical(w)
    scores = [dot(v, x) + b for x in data.X]
    if all(y * s > 0 for s, y in zip(scores, data.y)):
        return w, "final"
    positive = [s for s, y in zip(scores, data.y) if y > 0 and s > 0]
    if not positive or any(s > 0 for s, y in zip(scores, data.y) if y < 0):
        return w, "final"  # not a clean hard-limiter stop: let the checks report it
    delta = min(positive) / 2
    return conv.from_canonical(b - delta, v), f"final, bias lowered by {delta} (a class -1 score was 0)"


def check_trace(
    data: Dataset,
    trace: Trace,
    *,
    separator: Sequence[object] | None = None,
    claims: Sequence[Claim] | None = None,
) -> CheckResult:
    """Check a trace against its data, exactly, at every update.

    Parameters
    ----------
    data : Dataset
        The data the trace was run on, in the same order.
    trace : Trace
        The run to check (from `verify_perceptron.engine.train` or elsewhere).
    separator : sequence of rationals, optional
        w* in the convention's own coordinates; by default the run's final
        weights if it converged.
    claims : sequence of Claim, optional
        The claims to evaluate; by default every claim that is a theorem for
        the convention and mode.

    Returns
    -------
    CheckResult

    Examples
    --------
    >>> from verify_perceptron.engine import train
    >>> from verify_perceptron.examples import example
    >>> data = example("and")
    >>> result = check_trace(data, train(data))
    >>> result.holds, [r.n_checked for r in result.invariants][:3]
    (True, [18, 4, 4])
    """
    conv = get_convention(trace.convention)
    a = conv.step_size(trace.rate)
    xs = [conv.augment(x) for x in data.X]
    x_sq = [dot(x, x) for x in xs]
    w_star, source = _resolve_separator(data, trace, conv, separator)
    chosen = list(claims) if claims is not None else claims_for(conv.name, trace.mode)

    g: Geometry | None = None
    bounds: tuple[NoteBound, ...] = ()
    own: NoteBound | None = None
    results: list[InvariantResult] = []

    rule = InvariantResult("update-rule", f"each update is a mistake under {conv.name}'s rule and moves w by exactly that rule", f"note {conv.note_number}'s algorithm")
    separates = InvariantResult("separator-separates", "y_i·w*·x~_i > 0 for every sample i (γ > 0)", "the theorem's hypothesis (all notes)")
    results += [rule, separates]
    final = InvariantResult("final-weights-separate", "the final weights make no mistake on any sample", "the algorithm's stopping rule")
    if w_star is None:
        separates.holds, separates.skipped = None, "no separator: the run did not converge and none was given"
    else:
        b, v = conv.to_canonical(w_star)
        g = geometry(data, b, v)
        separates.n_checked = data.n_samples
        separates.min_slack, separates.min_slack_at = g.gamma, None
        if not g.separates:
            i = g.worst_sample
            separates.fail(Violation(0, 0, (i,), (("gamma", g.gamma),), f"y_{i}·w*·x~_{i} = {g.gamma} <= 0"))
        else:
            bounds = tuple(note_bounds(g))
            own = note_bound(conv.name, g)
    usable = g is not None and g.separates
    per_claim = []
    for claim in chosen:
        result = InvariantResult(claim.name, claim.text, claim.source)
        if claim.needs_separator and not usable:
            result.holds = None
            result.skipped = "the separator does not separate" if g is not None else separates.skipped
        results.append(result)
        per_claim.append((claim, result))

    # Running quantities, updated once per update (each in O(d)).
    prev: Vector = tuple(Fraction(0) for _ in xs[0])
    prev_w_sq = Fraction(0)
    prev_w_ws = Fraction(0)
    n_mistakes = 0
    sum_N_xsq = Fraction(0)
    sum_n_sq = 0
    n_max = 0
    for update in trace.updates:
        _check_rule(rule, conv, trace, xs, data.y, prev, update)
        n = len(update.samples)
        n_mistakes += n
        sum_N_xsq += sum(x_sq[j] for j in update.samples)
        sum_n_sq += n * n
        n_max = max(n_max, n)
        w = update.weights
        w_sq = dot(w, w)
        step = [Fraction(0)] * len(w)
        for j in update.samples:
            step = [s + a * data.y[j] * xj for s, xj in zip(step, xs[j])]
        q = SimpleNamespace(
            k=update.k, N=n_mistakes, n=n, a=a, w_sq=w_sq, prev_w_sq=prev_w_sq,
            step_sq=dot(step, step), sum_N_xsq=sum_N_xsq, sum_n_sq=sum_n_sq, n_max=n_max,
        )
        if g is not None:
            q.R_sq, q.beta, q.ws_sq = g.R_sq, g.beta, g.ws_sq
        if usable and g is not None and own is not None and w_star is not None:
            q.gamma, q.bound = g.gamma, own.value
            q.w_ws, q.prev_w_ws = dot(w, w_star), prev_w_ws
        else:
            q.R_sq = 1 + max(x_sq) if g is None else g.R_sq
            q.beta = sum(x_sq, Fraction(0))
        for claim, result in per_claim:
            if result.skipped is not None:
                continue
            slack = claim.slack(q)
            result.record(slack, update.k)
            if slack < 0:
                values = tuple(sorted((name, Fraction(getattr(q, name))) for name in claim.uses))
                result.fail(Violation(update.k, update.epoch, update.samples, values))
        prev, prev_w_sq = w, w_sq
        if usable:
            prev_w_ws = q.w_ws
    if trace.converged:
        _check_final(final, conv, trace, xs, data.y)
        results.insert(2, final)
    return CheckResult(tuple(results), w_star, source, g, bounds, own)


def _check_rule(
    result: InvariantResult, conv: Convention, trace: Trace, xs: list[Vector], ys: Sequence[int],
    prev: Vector, update: Update,
) -> None:
    """Confirm that `update` is what the rule does to `prev`: every sample a mistake, the exact step."""
    problem = None
    expected = [Fraction(0)] * len(prev)
    for j, recorded in zip(update.samples, update.scores):
        score = dot(prev, xs[j])
        factor = conv.decide(score, ys[j], trace.rate)
        if score != recorded:
            problem = (f"sample {j}'s score w_(k-1)·x~ is {score}, the trace says {recorded}", (("score", score), ("recorded_score", recorded)))
            break
        if factor is None:
            problem = (f"sample {j} is not a mistake (score {score}, label {ys[j]:+d})", (("label", Fraction(ys[j])), ("score", score)))
            break
        expected = [e + factor * xj for e, xj in zip(expected, xs[j])]
    if problem is None and tuple(expected) != update.delta:
        problem = (f"the step is {_vec(update.delta)}, the rule gives {_vec(expected)}", ())
    if problem is None:
        after = tuple(p + d for p, d in zip(prev, update.delta))
        if after != update.weights:
            problem = (f"w_k is {_vec(update.weights)}, but w_(k-1) + step is {_vec(after)}", ())
    result.n_checked += 1
    if problem is not None:
        result.fail(Violation(update.k, update.epoch, update.samples, tuple(problem[1]), problem[0]))


def _check_final(result: InvariantResult, conv: Convention, trace: Trace, xs: list[Vector], ys: Sequence[int]) -> None:
    w = trace.final_weights
    for i, (x, y) in enumerate(zip(xs, ys)):
        score = dot(w, x)
        result.n_checked += 1
        if conv.decide(score, y, trace.rate) is not None:
            result.fail(Violation(0, 0, (i,), (("label", Fraction(y)), ("score", score)), "a mistake after convergence"))
            return


def _vec(v: Sequence[Fraction]) -> str:
    return "[" + ", ".join(str(x) for x in v) + "]"


def assert_trace_verified(data: Dataset, trace: Trace, *, separator: Sequence[object] | None = None) -> CheckResult:
    """Like `check_trace`, but raise `InvariantViolation` naming the first failed claim.

    Examples
    --------
    >>> from verify_perceptron.engine import train
    >>> from verify_perceptron.examples import example
    >>> data = example("and")
    >>> assert_trace_verified(data, train(data), separator=[1, 1, 1])
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.InvariantViolation: y_i·w*·x~_i > 0 for every sample i (γ > 0) failed at sample 1 (y_1·w*·x~_1 = -2 <= 0): gamma was -2
    """
    result = check_trace(data, trace, separator=separator)
    for r in result.violations:
        assert r.first_violation is not None
        raise InvariantViolation(r.first_violation.describe(r.text))
    return result
