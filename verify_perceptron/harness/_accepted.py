"""Accepted departures change the reference a case is compared with, not only the report's wording.

- ``eta0``, ``learning_rate_init`` or ``float-rate`` (a learning rate binary
  floating point cannot hold): the reference becomes the float64 run of the
  note's algorithm at that very double (`_floats._float_run`, its scores summed
  in either order of `_floats.SUMS`); final weights equal to its result pass.
- ``tol`` (a stop on the loss, not on the first clean pass): the reference
  becomes the exact run stopped at the end of any epoch; final weights equal
  to c times the exact run's weights at an epoch's end pass, separating or not.
- ``shuffle`` (a random order each epoch): there is no presentation order to
  compare with, so agrees-with-reference is not checked; the final weights
  must still separate the data, and reported updates keep the proof's invariants.
- ``printed-rounding`` (weights written with too few digits, ``%f``): final
  weights equal to the exact run's rounded exactly as some printing rounds them
  (`_printed.printed_format`: k decimal places or p significant digits) pass;
  the reported updates, if any, are still compared digit for digit.

The other departures (``penalty``, ``loss``, ...) have no exact reference: accepting
them removes their line from the report and nothing else.
"""

from __future__ import annotations

from fractions import Fraction

from ..data.dataset import Dataset
from ..data.trace import Trace
from ..notes.conventions import Convention
from ._exact import Vector, _scaled
from ._floats import SUMS, _float_run, summed
from ._options import REFERENCE_EPOCHS, CheckOptions
from ._printed import described, printed_at, printed_format
from ._results import Finding
from ._wording import _count, _number, _rate_text

#: The names under which a float learning rate's rounding is accepted.
FLOAT_RATE = ("eta0", "learning_rate_init", "float-rate")
#: Epochs the float64 run a float rate is compared with may take where no limit is declared: rounding can make it
#: longer than the exact run (`REFERENCE_EPOCHS` bounds that one), and code looping to a clean epoch runs it so.
FLOAT_EPOCHS = 10 * REFERENCE_EPOCHS
#: The checks an accepted departure may replace.
_REPLACED = ("agrees-with-reference", "final-weights-separate", "learning-rate")


def _with_accepted(options: CheckOptions, conv: Convention, data: Dataset, reference: Trace, weights: Vector,
                   factor: Fraction, findings: list[Finding]) -> tuple[list[Finding], list[str]]:
    """The findings once the accepted departures' references replace the note's, and notes saying so."""
    accepted = set(options.accept_departures)
    if not accepted or not any(f.check in _REPLACED for f in findings):
        return findings, []
    modelled = _configured_reference(options, conv, data, weights)
    if modelled is not None:
        return _without(findings, _REPLACED), [modelled]
    if "float32" in accepted and options.dtype == "float" and options.eta is not None:
        from ._single import SINGLE_SUMS, as_single, same_single, single_run

        read = as_single(weights)
        if read is not None and any(same_single(single_run(data, conv, options.eta, options.max_epochs or REFERENCE_EPOCHS,
                                                           options.labels, sums), read, weights)
                                   for sums in SINGLE_SUMS):
            return _without(findings, _REPLACED), [
                f"compared with the run in float32 at rate {_rate_text(options.eta)} (float32 accepted): it ends at "
                "exactly the implementation's weights"]
    if accepted & set(FLOAT_RATE) and options.dtype == "float" and options.eta is not None:
        rate = options.eta
        runs = (_batch_runs(data, conv, rate, options) if options.mode == "batch" else
                {sums: _float_end(data, conv, rate, options, sums, findings) for sums in SUMS})  # any order of the
        # score's sums is float64's run
        same = [sums for sums, final in runs.items() if final == weights]
        if same:
            return _without(findings, _REPLACED), [
                f"compared with the float64 run at rate {_rate_text(rate)}{_how(same[0])} (float rate accepted): "
                "it ends at exactly the implementation's weights"]
        printed = [(sums, form) for sums, final in runs.items() if final is not None and "printed-rounding" in accepted
                   and (form := printed_format(weights, final, exact=False)) is not None]
        if printed:
            sums, form = printed[0]
            return _without(findings, _REPLACED), [
                f"compared with the float64 run at rate {_rate_text(rate)}{_how(sums)} at the digits it prints "
                f"(float rate and printed-rounding accepted): its weights, rounded to {described(form)}, are the "
                "implementation's"]
    if "tol" in accepted:
        ends = _epoch_ends(reference)
        for epoch, end in enumerate(ends):
            # the rate: the declared one, else whichever positive factor the weights show
            c = factor if options.eta is not None or not any(end) else _ratio(weights, end)
            if c is not None and weights == _scaled(c, end):
                return _without(findings, _REPLACED), [
                    f"compared with the exact run stopped early (tol accepted): the weights are {_number(c)} times the "
                    f"exact run's after {_count(epoch, 'epoch')}"]
    if "printed-rounding" in accepted:
        found = printed_at(weights, reference.final_weights, options.eta, exact=options.dtype != "float")
        if found is not None:
            c, form = found
            return _without(findings, _REPLACED), [
                f"compared at the digits it prints (printed-rounding accepted): the exact run's weights times {_number(c)}, "
                f"rounded to {described(form)}, are the implementation's"]
    if "shuffle" in accepted:
        return _without(findings, ("agrees-with-reference", "learning-rate")), [
            "agrees-with-reference not checked: shuffle accepted, so there is no presentation order to compare with"]
    return findings, []


def _how(key: str) -> str:
    """The words for a float run's way of computing: `_floats.summed` of an order of `SUMS`, a batch run's own."""
    return summed(key) if key in SUMS else key


def _float_end(data: Dataset, conv: Convention, rate: Fraction, options: CheckOptions, sums: str,
               findings: list[Finding]) -> Vector | None:
    """The float64 run's final weights: stopped at the declared epochs, else at convergence; one still running at
    `REFERENCE_EPOCHS` is run on to `FLOAT_EPOCHS` where the implementation's weights separate the data (it ended
    at a clean epoch, which float rounding may put past the exact run's limit)."""
    ends: list[Vector] = []
    final = _float_run(data, conv, rate, options.max_epochs or REFERENCE_EPOCHS, options.labels, sums=sums,
                       ends=ends)[0]
    if options.max_epochs is None and len(ends) >= REFERENCE_EPOCHS and final is not None and \
            not any(f.check == "final-weights-separate" for f in findings):
        final = _float_run(data, conv, rate, FLOAT_EPOCHS, options.labels, sums=sums)[0]
    return final


def _batch_runs(data: Dataset, conv: Convention, rate: Fraction, options: CheckOptions) -> dict[str, Vector | None]:
    """Note 003's batch run in float64 at `rate`, computed each way of `_batch_scaled` (the scores, the sum of a
    pass's steps), keyed by the words for the way."""
    from ._batch_scaled import SCORES, SUMS_OF_STEPS, computed, float_run

    runs: dict[str, Vector | None] = {}
    for scores in SCORES:
        for steps_sum in SUMS_OF_STEPS:
            found = float_run(data, conv, rate, "none", options.max_epochs or REFERENCE_EPOCHS, options.labels,
                              scores=scores, steps_sum=steps_sum, at_cap=True)
            runs[f" in batch mode ({computed(scores, steps_sum, 'rate-first', 'none')})"] = (
                None if found is None else conv.from_canonical(*found))
    return runs


def _configured_reference(options: CheckOptions, conv: Convention, data: Dataset, weights: Vector) -> str | None:
    """A note when the weights are those of scikit-learn's learner making the accepted departures its
    configuration declares (`_configured`), run as it computes; None otherwise."""
    from . import _configured

    params = dict(options.configuration)
    found = _configured.departures(params) if options.dtype == "float" else None
    names = [n for n in (found or {}) if n in options.accept_departures]
    if not names or _configured.final(data, conv, params, names) != weights:
        return None
    return (f"compared with scikit-learn's learner making the accepted {', '.join(names)} as configured (run as it "
            "computes in float64): it ends at exactly the implementation's weights")


def _epoch_ends(reference: Trace) -> list[Vector]:
    """The exact run's weights at the start and after each epoch (the zero vector first)."""
    if not reference.updates:
        return [reference.final_weights]
    zero = tuple(Fraction(0) for _ in reference.final_weights)
    ends: list[Vector] = [zero]
    last_epoch = 0
    for update in reference.updates:
        if update.epoch != last_epoch:
            ends.extend([ends[-1]] * (update.epoch - last_epoch - 1))
            last_epoch = update.epoch
            ends.append(update.weights)
        else:
            ends[-1] = update.weights
    return ends


def _ratio(mine: Vector, theirs: Vector) -> Fraction | None:
    """c > 0 with mine = c·theirs read off the first non-zero coordinate of `theirs` (None if not positive)."""
    j = next(j for j, t in enumerate(theirs) if t != 0)
    c = mine[j] / theirs[j]
    return c if c > 0 else None


def _without(findings: list[Finding], checks: tuple[str, ...]) -> list[Finding]:
    return [f for f in findings if f.check not in checks]
