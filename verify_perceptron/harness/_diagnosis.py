"""What a failure is: the known cause, or the smallest combination of causes, that explains every dataset
the check tried, found in order (scikit-learn's own configuration, single-run models, probes of the
implementation, the causes that only say a run exists, combinations, then whether it is a perceptron at
all), or the plain statement that nothing known explains it."""

from __future__ import annotations

from fractions import Fraction

from ..data.dataset import Dataset
from ..notes.conventions import Convention, get_convention
from ._batch_scaled import batch_scaled_cause
from ._causes import MODE_EPOCHS, mode_cause, model_causes, search_causes
from ._evidence import Evidence, Observation, other_rules, recast_all
from ._exact import Vector
from ._floats import capped_float_fit, float_fit, halves_step, rates_shown, short_rates, summed, summed_how
from ._normalized import normalized_cause
from ._one_class import one_class_probe
from ._options import REFERENCE_EPOCHS, CheckOptions
from ._printed import printed_cause
from ._probes import Recheck, labels_probe, start_probe
from ._results import Diagnosis
from ._start import StartedRun
from ._wording import _approx, _number, _rate_text

UNEXPLAINED = "unexplained"
#: The datasets whose own rates (`rates_shown`) float-rounding tries, beside the counterexample's.
_SHOWING = 5


def diagnose(data: Dataset, weights: Vector, conv: Convention, options: CheckOptions, evidence: Evidence | None,
             recheck: Recheck, rate: Fraction | None, float_rate: Fraction,
             deadline: float | None = None, search_seconds: float | None = None) -> list[Diagnosis]:
    """The causes that reproduce the implementation on every dataset tried, the first one the diagnosis.

    `data` and `weights` are the failing case; `evidence` every other dataset the check tried (None:
    this one only); `recheck` calls the implementation again; `rate` is its learning rate when known
    (declared, or read off its first reported step), `float_rate` the one a float64 run is tried at;
    `deadline` (`time.monotonic`) the check's own end, where the search of combinations stops at the latest;
    `search_seconds` that search's own time, from its start (default `_combinations.SEARCH_SECONDS`).
    """
    observations = (evidence or Evidence()).leading(data, weights)
    rounded = options.dtype == "float"
    if options.mode == "batch":  # every model below is an online run: only the online run itself is tried
        online = mode_cause(observations, conv, "online", rate, rounded)
        if online is not None:
            return [Diagnosis(online.code, {**online.parameters, "datasets": len(observations)},
                              f"{online.text}: it reproduces the implementation's weights on every dataset tried")]
        return [Diagnosis(UNEXPLAINED, {"datasets": len(observations)},
                          "no known cause explains it: in batch mode only the online run is tried (the harness's "
                          "other models, a changed rule, a cap, a tolerance, an average, ..., step after every mistake), "
                          "and it does not reproduce its weights on every dataset tried")]
    # its configuration; then labels read as one class, or swapped (the note's run on them, exactly: cheap)
    configured = _configured(observations, conv, options) or one_class_probe(
        observations, conv, recheck, options.labels, options.classes, rate, rounded)
    if configured is not None:
        return [configured]
    printed = printed_cause(observations, conv, rate, exact=options.dtype != "float", labels=options.labels)
    if printed is not None:  # the note's own run, printed short: nothing to look for beyond it
        return [printed]
    found = model_causes(observations, conv, rate, rounded)
    if options.dtype == "float":
        rounding = _float_rounding(observations, conv, float_rate, options.max_epochs, options.labels,
                                   declared=options.eta is not None, other_rules=not found, classes=options.classes)
        if rounding is None and not found:  # float32 only where nothing exact or float64 explains the weights
            rounding = _single_rounding(observations, conv, float_rate, options, rate)
        if rounding is not None:
            found.append(rounding)
    if found:
        return found
    scaled = batch_scaled_cause(observations, conv, rate, MODE_EPOCHS, options.labels, rounded)
    if scaled is not None:  # one step a pass by the mean of its mistakes, or over n: no call
        return [scaled]
    unit = normalized_cause(observations, conv, rate, options.max_epochs or REFERENCE_EPOCHS, options.labels) \
        if rounded else None
    if unit is not None:  # the run's weights over their length: no call
        return [unit]
    if rounded:  # float64 code that rescales its features first (its weights are for the rescaled ones): no call
        from ._rescaled import rescaled_cause

        inputs = rescaled_cause(observations, conv, float_rate, options.max_epochs or REFERENCE_EPOCHS, options.labels)
        if inputs is not None:
            return [inputs]
    for probe in (lambda: start_probe(data, conv, recheck, options.labels),
                  lambda: _bias_start(observations, conv, options, recheck, rate, float_rate),
                  lambda: labels_probe(observations, conv, recheck, options.labels, options.dtype == "float",
                                       options.classes)):
        diagnosis = probe()
        if (diagnosis is not None and diagnosis.code == "nonzero-start" and diagnosis.parameters.get("seeded")
                and "then" not in diagnosis.parameters):
            return [_past_the_start(diagnosis, observations, conv, options, recheck, rate, float_rate)]
        if diagnosis is not None:
            return [diagnosis]
    found = search_causes(observations, conv, rate, rounded)
    if found:
        return found
    combined, cut = _combined(observations, conv, options, rate, deadline, search_seconds)
    if combined is not None:
        return [combined]
    other = _not_a_perceptron(observations, conv, exact=options.dtype != "float", rate=rate)
    if other is not None:
        return [other]
    searched = ("nor any combination of up to three causes searched" if cut is None else
                f"nor any of the {cut} combinations of causes searched before the search's time limit stopped it "
                "(more causes at once were not all tried)")
    return [Diagnosis(UNEXPLAINED, {"datasets": len(observations), **({} if cut is None else {"cut": cut})},
                      "no known cause explains it: none of the models (another convention, a changed rule, "
                      "an epoch cap, a tolerance, averaged or best-so-far weights, a nonzero start, another label "
                      f"encoding, another order, an early stop), {searched}, reproduces its weights on every "
                      "dataset tried")]


def _configured(observations: list[Observation], conv: Convention, options: CheckOptions) -> Diagnosis | None:
    """scikit-learn's configuration as the cause: the fewest of its declared departures (`_configured`) whose
    learner reproduces every dataset tried, those not accepted named."""
    from . import _configured as configured

    params = dict(options.configuration)
    names = configured.smallest(observations, conv, params) if options.dtype == "float" else None
    if not names:
        return None
    accepted = [n for n in names if n in options.accept_departures]
    left = [configured.describe(n, params) for n in names if n not in accepted]
    if not left:
        return None
    said = [phrase for _, _, phrase in left]
    text = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]
    beyond = f" (beyond the accepted {', '.join(accepted)})" if accepted else ""
    parameters: dict[str, object] = dict(left[0][1]) if len(left) == 1 else {
        "causes": [{"code": code, "parameters": p} for code, p, _ in left]}
    parameters.update({"configuration": names, "accepted": accepted, "datasets": len(observations)})
    return Diagnosis(left[0][0] if len(left) == 1 else "combination", parameters,
                     f"scikit-learn's SGD as configured{beyond}: it {text}; its learner, run exactly as "
                     "scikit-learn computes in float64, reproduces the implementation's weights on every dataset tried")


def _combined(observations: list[Observation], conv: Convention, options: CheckOptions, rate: Fraction | None,
              deadline: float | None = None, seconds: float | None = None) -> tuple[Diagnosis | None, int | None]:
    """The smallest combination of causes (`_combinations`) that reproduces every dataset tried, or None; and the
    number of combinations tried where the search's time ran out before it was done (else None)."""
    import time

    from ._combinations import SEARCH_SECONDS, Search, catalogue, diagnosis_of

    params = dict(options.configuration)
    floats = options.dtype == "float"
    end = time.monotonic() + (SEARCH_SECONDS if seconds is None else seconds)
    search = Search(observations, conv, rate, floats, end if deadline is None else min(end, deadline), options.labels)
    fits = search.smallest(catalogue(conv, floats=floats, rate=rate, params=params))
    if not fits:
        return None, (search.tried if search.cut else None)
    code, parameters, text = diagnosis_of(fits, conv, len(observations), search.tried, search.cut)
    return Diagnosis(code, {**parameters, "datasets": len(observations)},
                     f"{text}: together they reproduce the implementation's weights on every dataset tried"), None


def _not_a_perceptron(observations: list[Observation], conv: Convention, exact: bool,
                      rate: Fraction | None = None) -> Diagnosis | None:
    """not-a-perceptron: on some dataset tried, the weights are Σ a_i·y_i·x_i with coefficients that no
    count of updates gives (`_reachable.incommensurate`), whatever the rate, the bias step or the rule;
    printed-short instead when those coefficients are counts and the weights their sum printed short
    (`_printed.printed_sum`): the printing hides what else departs, so the single-run models are tried
    again against the weights as printed (`_evidence.Printed`), and the first that fits is named. Weights that
    are all float32 values, exactly or as printed (`_single.as_single`), are not judged (float32's rounding of a
    perceptron's sums passes the test's bound)."""
    from ._printed import FULL_PRECISION, described, printed_sum
    from ._reachable import incommensurate
    from ._rescaled import perceptron_when_rescaled
    from ._single import is_single

    for index, o in enumerate(observations):
        a = incommensurate(o.weights, o.data, conv)
        form = printed_sum(o.weights, o.data, conv, a, exact) if a is not None else None
        if form is None and is_single(o.weights):  # float32's rounding is past what the test allows: it cannot tell
            continue
        if form is None and a is not None and perceptron_when_rescaled(o, conv) is not None:
            continue  # a perceptron's sum of steps on its features rescaled (standardized, ...): no claim
        if form is not None:
            where = 'the counterexample' if index == 0 else f'dataset {index}'
            then = _as_printed(observations, conv, rate, form, exact)
            parameters = {"format": form, "dataset": index, "datasets": len(observations),
                          "then": None if then is None else {"code": then.code, "parameters": then.parameters}}
            if then is not None:
                return Diagnosis("printed-short", parameters,
                                 f"its weights are printed with {described(then.parameters['format'])}, and, read as "
                                 f"printed, they are {then.text.split(': it reproduces')[0]}: it reproduces the "
                                 f"implementation's weights, printed so, on every dataset tried; {FULL_PRECISION}, and "
                                 "check again to confirm it")
            return Diagnosis("printed-short", parameters,
                             f"its weights are printed with {described(form)}: on a dataset tried ({where}) they are "
                             f"a perceptron's sum of steps printed so, but neither the {conv.name} perceptron's run "
                             "printed so nor any model compared as printed reproduces every dataset tried, so "
                             f"something else departs too; {FULL_PRECISION}, and check again to diagnose it")
        if a is not None:
            shown = ", ".join(_approx(v) for v in a)
            return Diagnosis("not-a-perceptron", {"dataset": index, "coefficients": [_number(v) for v in a],
                                                  "datasets": len(observations)},
                             f"not a perceptron: on a dataset tried ({'the counterexample' if index == 0 else f'dataset {index}'}), "
                             f"its weights are Σ a_i·y_i·x_i with a ≈ ({shown}), and a perceptron's a_i are its rate "
                             "times whole counts of updates, so their ratios would be ratios of counts; these are not "
                             "(a gradient method on a smooth loss, such as a sigmoid's, gives such weights)")
    return None


def _float_rounding(observations: list[Observation], conv: Convention, rate: Fraction,
                    max_epochs: int | None, labels: str = "-1/+1", declared: bool = False,
                    other_rules: bool = True, classes: tuple[str, str] | None = None) -> Diagnosis | None:
    """float-rounding: the note's algorithm in float64 at the rate ends at the implementation's weights
    on every dataset tried, and the exact run does not on the counterexample.

    The rate is the declared one; else the one its weights show (`rate`, rounded by float64's steps, so only
    near the one it was written with) and that one's shortest decimals of 1 to 3 significant digits, each
    as its double (0.01 is the double nearest to 1/100). Under a pair of labels read as -1/+1, a hard limiter's
    run at η is said to be code mapping them to 0/1 at 2η too (the same run: `_tokens`)."""
    raw, *short = short_rates(rate)
    candidates = [rate] if declared else [*short, raw]
    if not declared:  # where float64 changed a decision, the counterexample's factor is no rate: the others' are
        candidates += [r for o in observations[:_SHOWING] for r in rates_shown(o.data, conv, o.weights, labels,
                                                                               max_epochs or REFERENCE_EPOCHS)]
    found = float_fit([(o.data, o.weights) for o in observations], conv, candidates, max_epochs or REFERENCE_EPOCHS,
                      labels)
    ruled, cap = conv, None
    if found is None and other_rules:  # another note's rule in float64 (a tie counted +1, and 0.1 for a rate)
        ruled, found, cap = _other_rule_in_float64(observations, conv, rate, max_epochs, labels, declared)
    if found is None:
        return None
    candidate, sums = found
    order = {"sums": sums} if sums != "bias-last" else {}
    other = {"convention": ruled.name} if ruled is not conv else {}
    said = f" (note {ruled.note_number}'s rule, not {conv.name}'s)" if ruled is not conv else ""
    capped = f", stopped after epoch {cap} (a fixed count of epochs)," if cap else ""
    return Diagnosis("float-rounding", {"rate": _number(candidate), **order, **other, **({"epochs": cap} if cap else {}),
                                        "datasets": len(observations)},
                     f"float rounding: the {ruled.name} perceptron{said} computed in float64 at rate "
                     f"{_rate_text(candidate)}{_on_labels(ruled, labels)}{summed(sums)}{capped} ends at exactly "
                     f"the implementation's weights on every dataset tried{_read_as_01(ruled, labels, classes, candidate)}")


def _other_rule_in_float64(observations: list[Observation], conv: Convention, rate: Fraction,
                           max_epochs: int | None, labels: str, declared: bool
                           ) -> tuple[Convention, tuple[Fraction, str] | None, int | None]:
    """The first other convention whose float64 run, at the declared rate or at one the weights show in its own
    coordinates, ends at every dataset's weights (read in its coordinates), and that fit; else, where no epoch
    limit is declared, the first whose run stopped after T epochs does (`capped_float_fit`), and T; else `conv`."""
    epochs = max_epochs or REFERENCE_EPOCHS
    tried = []
    for other in other_rules(conv):
        pairs = [(o.data, o.weights) for o in recast_all(observations, conv, other)]
        candidates = [rate] if declared else [
            r for data, weights in pairs[:_SHOWING] for r in rates_shown(data, other, weights, labels, epochs)]
        found = float_fit(pairs, other, candidates, epochs, labels) if candidates else None
        if found is not None:
            return other, found, None
        tried.append((other, pairs, candidates))
    for other, pairs, candidates in tried if max_epochs is None else ():
        capped = capped_float_fit(pairs, other, candidates, epochs, labels) if candidates else None
        if capped is not None:
            return other, capped[:2], capped[2]
    return conv, None, None


def _single_rounding(observations: list[Observation], conv: Convention, float_rate: Fraction, options: CheckOptions,
                     rate: Fraction | None) -> Diagnosis | None:
    """float-rounding in float32: a note's algorithm (the checked convention's, else another's) computed in single
    precision at one rate (`_single.single_rate`) ends at the implementation's weights, all float32 values, on
    every dataset tried."""
    from ..notes.conventions import CONVENTIONS
    from ._single import MAX_SINGLE, single_rate, single_readings

    readings = single_readings(observations)
    if readings is None:
        return None
    declared = options.eta is not None
    for name in (conv.name, *(c for c in CONVENTIONS if c != conv.name)):
        other = get_convention(name)
        found = single_rate(observations, readings, other, rate if declared and rate is not None else float_rate,
                            options.max_epochs or REFERENCE_EPOCHS, options.labels, declared=declared)
        if found is None:
            continue
        single, sums = found
        tried = min(len(observations), MAX_SINGLE)
        said = "" if name == conv.name else f" (note {other.note_number}'s rule, not {conv.name}'s)"
        order = {"sums": sums} if sums != "bias-last" else {}
        how = summed_how(sums)
        return Diagnosis("float-rounding", {"rate": _number(single), "precision": "float32", "convention": name,
                                            **order, "datasets": tried},
                         f"float rounding in single precision: the {name} perceptron{said} computed in float32 (every "
                         f"value and step rounded to 24 bits, each score {how}) at rate "
                         f"{_approx(single)} (the float32 nearest it){_on_labels(other, options.labels)} ends at "
                         f"the implementation's weights (their float32 values, or those as NumPy prints a float32 "
                         f"array) on the {tried} datasets tried first: it computes in float32 "
                         "(PyTorch's and JAX's default), where the notes' algorithm is exact")
    return None


def _read_as_01(conv: Convention, labels: str, classes: tuple[str, str] | None, rate: Fraction) -> str:
    """Where code given a pair of labels (`classes`) read as -1/+1 is a hard limiter at `rate`: the same run as code
    mapping them to 0/1 and stepping η·(d - y) at twice the rate, said with its options (one cannot tell them apart)."""
    if classes is None or labels != "-1/+1" or conv.step_factor != 2:
        return ""
    return (f" (the same run as code that maps {classes[0]}/{classes[1]} to 0/1 and steps η·(d - y) at "
            f"{float(2 * rate)!r}: --labels-as 0/1 --float-eta {float(2 * rate)!r} declares that reading)")


def _on_labels(conv: Convention, labels: str) -> str:
    return " (η·(d - y) on labels 0/1: steps of η, the note's 2η at η/2)" if halves_step(conv, labels) else ""


def _as_printed(observations: list[Observation], conv: Convention, rate: Fraction | None, form: str,
                exact: bool) -> Diagnosis | None:
    """The first single-run model (`model_causes`) that reproduces every dataset tried once its weights are
    printed with `form` or a printing one dataset may not tell from it (`_printed.related`: ``%.8f``, ``%.8g``,
    NumPy's print), or None; its parameters name the printing (``format``)."""
    from ._evidence import Printed
    from ._printed import related

    for printing in related(form):
        found = model_causes(observations, conv, rate, Printed(printing, exact))
        if found:
            return Diagnosis(found[0].code, {**found[0].parameters, "format": printing}, found[0].text)
    return None


def _past_the_start(diagnosis: Diagnosis, observations: list[Observation], conv: Convention, options: CheckOptions,
                    recheck: Recheck, rate: Fraction | None, float_rate: Fraction) -> Diagnosis:
    """A seeded start's diagnosis, with what the implementation is from that start where a float64 run of a
    note's perceptron from it reproduces every dataset tried (`_start.started_run`)."""
    from ._start import started_run

    if options.dtype != "float":
        return diagnosis
    found = started_run(observations, conv, recheck, options.labels, rate, float_rate,
                        options.max_epochs or REFERENCE_EPOCHS)
    if found is None:
        relabelled = _started_on_other_labels(diagnosis, observations, conv, options, recheck, float_rate)
        if relabelled is not None:
            return relabelled
        return Diagnosis(diagnosis.code, {**diagnosis.parameters, "then": None},
                         f"{diagnosis.text}; from the start it shows where no update can move its features, no float64 "
                         "run of a note's perceptron reproduces every dataset tried, so something else departs too")
    return _from_the_start(diagnosis, found, observations, conv,
                           "read where no update can move the features: samples of 0 beside one far one")


def _started_on_other_labels(diagnosis: Diagnosis, observations: list[Observation], conv: Convention,
                             options: CheckOptions, recheck: Recheck, float_rate: Fraction) -> Diagnosis | None:
    """A seeded start's diagnosis where the implementation, called again on the datasets tried with the other labels
    (0/1 for -1/+1: code written for them, as the 2022 edition of Raschka's book is), is a note's float64 perceptron
    from that start on every one (`_start.started_run`); else None."""
    from ._start import MAX_STARTED, started_run
    from ._tokens import other_reading, shown

    other = other_reading(options.labels)
    seen = []
    for o in observations[:MAX_STARTED]:
        data, weights, _ = recheck(o.data, other, conv.name)
        if weights is None:
            return None
        seen.append(Observation(data, tuple(weights)))
    found = started_run(seen, conv, recheck, other, None, float_rate, options.max_epochs or REFERENCE_EPOCHS)
    if found is None:
        return None
    said = Diagnosis(diagnosis.code, {**diagnosis.parameters, "labels": other},
                     f"{diagnosis.text}; it is written for labels {shown(other, options.classes)}: given them, each dataset "
                     "called again")
    return _from_the_start(said, found, seen, conv,
                           "read where no update can move the features: samples of 0 beside one far one")


def _bias_start(observations: list[Observation], conv: Convention, options: CheckOptions, recheck: Recheck,
                rate: Fraction | None, float_rate: Fraction) -> Diagnosis | None:
    """nonzero-start of the bias alone (the features start at 0, which `start_probe` sees as a zero start), where
    a float64 run of a note's perceptron from the start read on samples of 0 beside a far one (`_start.read_bias_start`)
    reproduces every dataset tried; else None (the probe alone does not prove a start: a zero start under a tie
    rule or a step of its own also ends the bias apart from 0 there)."""
    from ._start import read_bias_start, started_run

    if options.dtype != "float":
        return None
    found = started_run(observations, conv, recheck, options.labels, rate, float_rate,
                        options.max_epochs or REFERENCE_EPOCHS, reader=read_bias_start)
    if found is None or found.start[0] == 0:
        return None
    start = found.start[0]
    d = len(found.start[1])
    name = conv.weight_names(d)[0 if conv.bias_first else d]
    diagnosis = Diagnosis("nonzero-start", {"weight": name, "value": _number(start), "seeded": True},
                          f"the bias does not start at 0 (its features do): {name} starts at {_number(start)} "
                          f"(≈ {_approx(start)}; or at a double near it whose float64 steps round the same: a step rounds "
                          "a start's last bits away), read on samples of 0 beside one far one, where its answers are "
                          "float64 sums of whole steps from there (the far sample's one step gives the step, on the "
                          "first feature), the same on every call: a fixed start (a constant, or a seeded random draw)")
    return _from_the_start(diagnosis, found, observations, conv, None)


def _from_the_start(diagnosis: Diagnosis, found: StartedRun, observations: list[Observation], conv: Convention,
                    where: str | None) -> Diagnosis:
    """`diagnosis` (a seeded start's) with `found`, the note's float64 perceptron from that start (shown, with
    `where` it was read, unless `where` is None: the diagnosis shows it)."""
    from ._start import MAX_STARTED

    b, v = found.start
    cap = ("until an epoch makes no mistake" if found.epochs is None else
           f"for {found.epochs} epochs{' (or more: the datasets tried do not tell)' if found.or_more else ''}")
    other = get_convention(found.convention)
    said = "" if other.name == conv.name else f" (note {other.note_number}'s rule, not {conv.name}'s)"
    rates: dict[Fraction, list[str]] = {}
    for name, r in found.also:
        if r != found.rate:  # at the same rate, the same rule but for ties, which these data never meet
            rates.setdefault(r, []).append(name)
    equally = "".join(f" (equally the {' and '.join(names)} perceptron's rule at rate {_rate_text(r)}: the same steps)"
                      for r, names in rates.items())
    shown = ", ".join(_approx(w) for w in conv.from_canonical(b, v))
    labels = f" and the labels ({diagnosis.parameters['labels']})" if "labels" in diagnosis.parameters else ""
    then = {"convention": other.name, "rate": _number(found.rate), "epochs": found.epochs, "or_more": found.or_more,
            "start": [_number(w) for w in conv.from_canonical(b, v)],
            "also": [{"convention": name, "rate": _number(r)} for name, r in found.also],
            **({"sums": found.sums} if found.sums != "bias-last" else {})}
    return Diagnosis(diagnosis.code, {**diagnosis.parameters, "then": then},
                     f"{diagnosis.text}; from that start"
                     f"{'' if where is None else f' ([{shown}], {where})'} it is the "
                     f"{other.name} perceptron{said} in float64 at rate {_rate_text(found.rate)}{summed(found.sums)}"
                     f"{equally}, run {cap}: that "
                     f"reproduces the implementation's weights on the {min(len(observations), MAX_STARTED)} datasets "
                     f"tried first, so nothing but the start{labels} departs on them")
