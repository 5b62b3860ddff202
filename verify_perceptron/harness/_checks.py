"""The checks of one case that judge what came back, each returning its findings: returns-weights,
detects-nonseparable, reported-updates, final-weights-separate, learning-rate, and the proof's
invariants on reported updates (update-rule, ...). agrees-with-reference is `_agreement`'s."""

from __future__ import annotations

from fractions import Fraction

from ..check.traces import check_trace
from ..data.dataset import Dataset
from ..data.trace import Trace, Update
from ..errors import InvalidArgument
from ..notes.conventions import Convention, dot
from ._exact import Vector, _is_mistake
from ._call import _Call
from ._exact_run import _ExactRun
from ._options import CheckOptions
from ._results import Finding
from ._wording import _judged, _names, _number, _vec


def _returned_weights(call: _Call, exact: _ExactRun, conv: Convention, data: Dataset,
                      options: CheckOptions) -> tuple[Vector | None, list[Finding]]:
    """returns-weights and detects-nonseparable: the returned weights, exactly, or None and why there
    are none to judge (none and no finding when it rightly signalled non-separable data)."""
    if call.error is not None:
        return None, [Finding("returns-weights", f"on these data the implementation {call.error}")]
    if not exact.separable:
        return None, [] if call.signalled else [_unsignalled(exact, options)]
    if call.signalled:
        return None, [_signalled_on_separable(exact, conv, data, options)]
    if call.weights is None:
        return None, [Finding("returns-weights", call.weights_error or "returned no weights")]
    return call.weights, []


def _signal_text(options: CheckOptions) -> str:
    errors = " or ".join(e.__name__ for e in options.nonseparable_errors)
    return "returning None" + (f" or raising {errors}" if errors else "")


def _unsignalled(exact: _ExactRun, options: CheckOptions) -> Finding:
    """It returned weights on non-separable data it claims to signal."""
    lam = ", ".join(_number(v) for v in exact.certificate or ())
    return Finding("detects-nonseparable",
                   f"returned weights on data that no hyperplane separates (Gordan's certificate λ = [{lam}]: "
                   "λ >= 0, Σλ = 1, Σ λ_i·y_i·x~_i = 0); it claims to signal such data by "
                   + _signal_text(options))


def _signalled_on_separable(exact: _ExactRun, conv: Convention, data: Dataset, options: CheckOptions) -> Finding:
    """It returned None (or raised its signal) on separable data."""
    if not options.detects_nonseparable:
        return Finding("returns-weights", "returned None instead of weights")
    w = exact.trace.final_weights
    return Finding("detects-nonseparable",
                   f"signalled non-separable data ({_signal_text(options)}), but the weights {_vec(w)} "
                   f"{_names(conv, data)} of the exact run separate them")


def _ends_at_returned(updates: list[tuple[int, Vector]], weights: Vector) -> list[Finding]:
    """reported-updates: the last reported update ends at the returned weights (with none, they are 0)."""
    last = updates[-1][1] if updates else tuple(Fraction(0) for _ in weights)
    if last != weights:
        return [Finding("reported-updates", f"the returned weights {_vec(weights)} are not the weights after "
                        f"the last reported update, {_vec(last)}")]
    return []


def _separates(conv: Convention, data: Dataset, weights: Vector) -> list[Finding]:
    """final-weights-separate: the stopping rule, that the final weights make no mistake (the first one found)."""
    for i, (x, label) in enumerate(zip(data.X, data.y)):
        score = dot(weights, conv.augment(x))
        if _is_mistake(conv, score, label):
            return [Finding("final-weights-separate",
                            f"the final weights {_vec(weights)} {_names(conv, data)} make a mistake on sample {i} "
                            f"(x = {_vec(x)}, label {label:+d}): w·x~ = {_number(score)}, {_judged(conv, score, label)}",
                            sample=i)]
    return []


def _learning_rate(conv: Convention, c: Fraction) -> list[Finding]:
    """learning-rate: the factor c between its weights and the exact run's is a rate the note allows."""
    try:
        conv.check_rate(c)
    except InvalidArgument as error:
        return [Finding("learning-rate", f"the weights are {_number(c)} times the exact run's: {error}")]
    return []


def _invariants(data: Dataset, conv: Convention, reference: Trace, updates: list[tuple[int, Vector]],
                factor: Fraction, mode: str = "online") -> list[Finding]:
    """update-rule, ...: the reported updates, as a trace, keep the rule and every invariant of the
    proof (`check_trace`), the mistake bound included; the first violation of each. `reference` is the
    exact run to convergence (not one stopped at an epoch limit): its final weights are the separator w*.
    In batch mode each reported update is one pass's step, over the samples its starting weights misclassify."""
    samples = [conv.augment(x) for x in data.X]
    previous: Vector = tuple(Fraction(0) for _ in samples[0])
    records, epoch, last, counts = [], 1, -1, [0] * data.n_samples
    for k, (i, after) in enumerate(updates, start=1):
        if mode == "batch":  # one step a pass, by every sample the pass's starting weights misclassify
            epoch, step = k, tuple(j for j, x in enumerate(samples) if _is_mistake(conv, dot(previous, x), data.y[j]))
        else:
            epoch, step = epoch + (i <= last), (i,)
        last = i
        for j in step:
            counts[j] += 1
        records.append(Update(k, epoch, step, tuple(dot(previous, samples[j]) for j in step),
                              tuple(a - b for a, b in zip(after, previous)), after))
        previous = after
    rate = factor if factor > 0 else Fraction(1)
    trace = Trace(conv.name, rate, mode, tuple(records), previous, epoch + 1, "max-epochs", None,
                  tuple(counts))
    final = reference.final_weights
    strict = all(y * dot(final, x) > 0 for x, y in zip(samples, data.y))
    # w* for the invariants: the exact run's final weights, made strict by the checker when a
    # hard limiter stopped with a class -1 score of exactly 0
    separator = final if strict else check_trace(data, reference).separator
    result = check_trace(data, trace, separator=separator)
    findings = []
    for invariant in result.violations:
        violation = invariant.first_violation
        assert violation is not None
        findings.append(Finding(invariant.name, violation.describe(invariant.text), update=violation.k or None))
    return findings
