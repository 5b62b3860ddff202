"""Checking a recorded `Trace`: its updates replayed into a `Checker`, one by one."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ..data.dataset import Dataset, require_dataset
from ..data.samples import sample_matrix
from ..data.trace import Trace, Update
from ..errors import InvalidArgument, InvariantViolation
from ..notes.claims import Claim
from ..notes.conventions import get_convention
from .checker import Checker
from .results import CheckResult
from .separator import strict_final_weights
from .soft_reference import best_reference

__all__ = ["check_trace", "assert_trace_verified", "scaled_scores", "whole_scores"]


def check_trace(
    data: Dataset,
    trace: Trace,
    *,
    separator: Sequence[object] | None = None,
    claims: Sequence[Claim] | None = None,
) -> CheckResult:
    """Check a recorded trace against its data, exactly, at every update.

    Parameters
    ----------
    data : Dataset
        The data the trace was run on, in the same order.
    trace : Trace
        The run to check, with all its updates (from `verify_perceptron.run.reference.train` or elsewhere).
    separator : sequence of rationals, optional
        w* in the convention's own coordinates; by default the run's final
        weights if it converged. It is also the soft-margin bound's u; without
        it, a run that did not converge takes as u the best of the weights it
        visited (`verify_perceptron.check.soft_reference.best_reference`).
    claims : sequence of Claim, optional
        The claims to evaluate; by default every claim that is a theorem for
        the convention and mode.

    Returns
    -------
    CheckResult

    Examples
    --------
    >>> from verify_perceptron.run.reference import train
    >>> from verify_perceptron.data.examples import example
    >>> data = example("and")
    >>> result = check_trace(data, train(data))
    >>> result.holds, [r.n_checked for r in result.invariants][:3]
    (True, [18, 4, 4])
    """
    require_dataset(data)
    if not isinstance(trace, Trace):
        raise InvalidArgument(f"trace={trace!r:.60} of type {type(trace).__name__} is not a Trace")
    if trace.updates_truncated:
        raise InvalidArgument(
            f"the trace keeps {len(trace.updates)} of its {trace.n_updates} updates; "
            "check it while it runs (verify_run) or record all of them"
        )
    conv = get_convention(trace.convention)
    source, note = None, None
    if separator is not None:
        source = "user"
    elif trace.converged:
        separator, note = strict_final_weights(data, conv, trace.final_weights, sample_matrix(data, conv))
        source = "final"
    u = best_reference(sample_matrix(data, conv), trace) if separator is None and trace.mode == "online" else None
    checker = Checker(data, conv, rate=trace.rate, mode=trace.mode, separator=separator,
                      separator_source=source, separator_note=note, claims=claims,
                      reference=None if u is None else u[0], reference_source="" if u is None else u[1],
                      reference_counts=None if u is None else trace.mistakes_per_sample)
    for update in trace.updates:
        checker.observe(update.k, update.epoch, update.samples, scaled_scores(data, update, checker.a),
                        weights=update.weights, delta=update.delta)
    return checker.finish(trace)


def scaled_scores(data: Dataset, update: Update, a: Fraction) -> list[int | Fraction]:
    """A recorded update's scores in the checker's units: z·W = y·(L²/a)·(w·x~), an int when whole.

    (A tampered record may give a non-integer, which the checker then reports as a wrong score.)
    """
    L = data.denominator
    scaled = [data.y[j] * score * L * L / a for j, score in zip(update.samples, update.scores)]
    return [int(s) if s.denominator == 1 else s for s in scaled]


def whole_scores(data: Dataset, update: Update, a: Fraction) -> list[int]:
    """`scaled_scores` of an engine's own update, which are integers: W = Σ z_i over the mistakes is an
    integer vector, so every z·W is one.

    Raises
    ------
    ValueError
        When a score is not whole (the update is not an engine's own record), naming the update and score.

    Examples
    --------
    >>> from verify_perceptron.run.reference import train
    >>> from verify_perceptron.data.examples import example
    >>> data = example("and")
    >>> whole_scores(data, train(data).updates[1], Fraction(1))
    [-1]
    """
    scores = scaled_scores(data, update, a)
    whole = [s for s in scores if isinstance(s, int)]
    if len(whole) != len(scores):
        raise ValueError(f"update {update.k} has a score {next(s for s in scores if not isinstance(s, int))} "
                         "that is not whole in the checker's units: it is not an engine's own record")
    return whole


def assert_trace_verified(data: Dataset, trace: Trace, *, separator: Sequence[object] | None = None) -> CheckResult:
    """Like `check_trace`, but raise `InvariantViolation` naming the first failed claim.

    Examples
    --------
    >>> from verify_perceptron.run.reference import train
    >>> from verify_perceptron.data.examples import example
    >>> data = example("and")
    >>> assert_trace_verified(data, train(data), separator=[1, 1, 1])
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.InvariantViolation: y_i·w*·x~_i > 0 for every sample i (γ > 0) failed at sample 0 (y_0·w*·x~_0 = -1 <= 0): gamma was -2, margin was -1
    """
    result = check_trace(data, trace, separator=separator)
    for r in result.violations:
        assert r.first_violation is not None
        raise InvariantViolation(r.first_violation.describe(r.text))
    return result
