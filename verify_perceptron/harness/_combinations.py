"""Causes in combination: the smallest conjunction of up to three departures from the note whose learner
(`_learners.Spec`) reproduces the implementation's weights on every dataset tried.

Each cause belongs to a factor (the tie rule, the step's sign, the bias step, the labels, the order,
a float rate, a schedule, a penalty, a stop on the loss, a tolerance) and sets fields of a `Spec`; two
more are read off one run instead of changing it: an epoch cap (the weights after T epochs of a run
that would have gone on) and an average (of the weights after every presentation). A run that never
converges on its own must have been stopped by some limit: its T is a parameter, not a cause.

The search goes by size, so the first combinations found are the smallest; every one of that size that
fits is kept (the first is the diagnosis, the others are also consistent). Which prunings are sound,
and why, is in ``docs/harness.md`` ("Causes in combination"); in short:

- a combination is run on the counterexample first and dropped at the first dataset it does not
  reproduce (a conjunction must reproduce all of them);
- T (a cap, an average) and the rate are read off the counterexample's run, then checked on the rest;
- a cause whose condition never arose in the smaller combination's run on the counterexample (no score
  of exactly 0 for a tie rule, no mistake on class -1 for 0/1 labels, no positive score <= ε for a
  tolerance, no update before an epoch's last sample for a restarting order) leaves that run as it
  was: when the smaller combination did not reproduce the counterexample, neither does the larger.

A cause refuted alone is *not* dropped from larger combinations: two causes can cancel where one
alone shows (a wrong sign with a wrong bias sign), so that would not be sound.
"""

from __future__ import annotations

import functools
import itertools
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from ..data.exact_text import nearest_float
from ..notes.conventions import Convention
from ._evidence import Model, Observation, explained
from ._exact import Vector
from ._learners import CLOCKS, Run, Spec, run
from ._learners_batch import batchable, run_many
from ._target_weights import Target as _Target
from ._reachable import reachable
from ._wording import _count, _number

#: Most causes in a combination.
MAX_CAUSES = 3
#: Seconds the search may take at most (it stops earlier at the check's own time limit).
SEARCH_SECONDS = 10.0
#: ... and for one dataset and its neighbours (`check_dataset`, the reproduction a report prints).
SINGLE_SEARCH_SECONDS = 2.0
#: Epochs a model runs at most in the search (an implementation's own limit is read off below it).
SEARCH_EPOCHS = 1000
#: The longest fixed run an average is read off.
AVERAGE_EPOCHS = 100
#: Epochs an exact run with a decaying rate makes at most in the search.
EXACT_SCHEDULE_EPOCHS = 100
#: Learning rates a float64 implementation is tried at when none is declared (their nearest doubles).
FLOAT_RATES = ("0.1", "0.01", "0.001")
#: The bias step's factors tried, relative to the weights' step.
BIAS_FACTORS = (Fraction(0), Fraction(-1), Fraction(1, 2), Fraction(-1, 2), Fraction(1, 4), Fraction(2),
                Fraction(1, 10), Fraction(1, 100))
#: The factors of an exponential decay of the rate tried (``lr *= 0.95`` once an epoch).
DECAYS = (0.99, 0.95, 0.9)
#: Tolerances tried in combinations (a score y·(w·x~) <= ε counts as a mistake), at the run's rate.
TOLERANCES = tuple(Fraction(1, 10**k) for k in range(1, 9))
#: A margin perceptron's y·(w·x~) < 1 as a tolerance: 1 less this, below every gap between the harness data's
#: scores (small dyadic values); y·(w·x~) <= 1 is the tolerance 1 itself.
BELOW_ONE = Fraction(1, 2**40)
#: Penalty strengths tried when the configuration declares none.
ALPHAS = (0.0001, 0.001, 0.01)


@dataclass(frozen=True)
class Cause:
    """One departure: its factor, the `Spec` fields it sets, its code and parameters, and its phrase."""

    factor: str
    code: str
    fields: tuple[tuple[str, Any], ...]
    parameters: tuple[tuple[str, Any], ...]
    phrase: str
    trigger: str | None = None  # a condition of the run without it: when that never arose, it changes nothing


@dataclass(frozen=True)
class Fit:
    """A combination that reproduces every dataset: its causes, the read-off ones included, and the rate."""

    causes: tuple[Cause, ...]
    rate: Fraction | None
    limit: int | None  # the epoch a never-converging run was stopped at on the counterexample

    @property
    def codes(self) -> list[str]:
        return [c.code for c in self.causes]


def catalogue(conv: Convention, *, floats: bool, rate: Fraction | None, params: dict[str, Any]) -> list[Cause]:
    """Every cause the search combines, factor by factor, for a checked convention.

    `floats`: the implementation computes in float64 (a float rate is a cause); `rate` the declared
    one; `params` its configuration (``get_params()``), whose values are tried first.
    """
    causes = [
        Cause("tie", "ties-not-mistakes", (("tie", "strict"),), (), "counts a score of exactly 0 as right", "tie"),
        Cause("tie", "tie-plus", (("tie", "plus"),), (),
              "predicts +1 at a score of exactly 0 (sgn(0) = +1) and steps by η·(d - y)"),
        Cause("tie", "tie-minus", (("tie", "minus"),), (),
              "predicts -1 at a score of exactly 0 (sgn(0) = -1) and steps by η·(d - y)"),
        Cause("tie", "tie-zero", (("tie", "zero"),), (),
              "predicts 0 at a score of exactly 0 (NumPy's sign(0) = 0) and steps by η·(d - sign(score)): half a step "
              "on a tie"),
        Cause("sign", "wrong-sign", (("sign", -1),), (), "moves the weights the wrong way (w -= η·y·x~)"),
    ]
    if conv.name != "unit-ball":
        causes.append(Cause("labels", "labels-0-1", (("labels01", True),), (),
                            "uses the 0/1 label as the step's sign (mistakes on class -1 never move w)", "class-1"))
    for factor in BIAS_FACTORS:
        code = {Fraction(0): "no-bias-update", Fraction(-1): "bias-wrong-sign"}.get(factor, "bias-rate")
        phrase = {Fraction(0): "never moves the bias", Fraction(-1): "moves the bias the wrong way"}.get(
            factor, f"moves the bias by {_number(factor)} times the weights' step")
        causes.append(Cause("bias", code, (("bias", factor),), (("bias_rate", _number(factor)),) if code == "bias-rate"
                            else (), phrase))
    causes.append(Cause("order", "order", (("order", "reversed"),), (("order", "reversed"),),
                        "presents the samples in reverse order"))
    causes.append(Cause("order", "order", (("order", "restart"),), (("order", "restart"),),
                        "goes back to the first sample after every update", "orders"))
    schedule_rates = (_rates(rate, params)[:1] or ["1"]) + ["1", "0.1"] if floats else [None]
    causes += _schedules(schedule_rates)
    for tolerance in TOLERANCES:
        causes.append(Cause("tolerance", "tolerance", (("tolerance", tolerance),),
                            (("epsilon", f"1e-{len(str(tolerance.denominator)) - 1}"),),
                            f"counts y·(w·x~) <= {_number(tolerance)} as a mistake", "tolerance"))
    for strict in (False, True):  # a margin perceptron: y·(w·x~) <= 1, or < 1, is a mistake
        causes.append(Cause("tolerance", "tolerance", (("tolerance", 1 - BELOW_ONE if strict else Fraction(1)),),
                            (("epsilon", "1"), ("strict", strict)),
                            f"counts y·(w·x~) {'<' if strict else '<='} 1 as a mistake (a margin perceptron)",
                            "tolerance"))
    tol, patience = params.get("tol"), params.get("n_iter_no_change", 5)
    stops = [(tol, patience)] if isinstance(tol, float) and isinstance(patience, int) else []
    stops += [s for s in ((0.001, 5),) if s not in stops]
    for stop in stops:
        causes.append(Cause("stop", "loss-stop", (("stop", stop),), (("tol", stop[0]), ("n_iter_no_change", stop[1])),
                            f"stops once the mean loss has not fallen by tol={stop[0]!r} for n_iter_no_change="
                            f"{stop[1]} epochs in a row (scikit-learn's tol), converged or not"))
    if floats:
        declared = params.get("alpha")
        alphas = ([declared] if isinstance(declared, float) else []) + [a for a in ALPHAS if a != declared]
        for kind, alpha in itertools.product(("l2",), alphas):
            causes.append(Cause("penalty", "penalty", (("penalty", kind), ("alpha", alpha)),
                                (("penalty", kind), ("alpha", alpha)),
                                f"shrinks w by (1 - η·α) before every step (penalty={kind!r}, alpha={alpha!r})"))
        for text in _rates(rate, params):
            step = nearest_float(Fraction(text))
            causes.append(Cause("rate", "float-rate", (("step", step),), (("rate", text),),
                                f"computes in float64 at the rate {text} (the double {step!r})"))
    return causes


def _rates(rate: Fraction | None, params: dict[str, Any]) -> list[str]:
    """Rates to try a float64 run at: the declared one, scikit-learn's eta0, then common ones."""
    first = [str(nearest_float(r)) for r in (rate,) if r is not None and nearest_float(r)]
    eta0 = params.get("eta0")
    if isinstance(eta0, float) and eta0 > 0:
        first.append(repr(eta0))
    return list(dict.fromkeys([*first, *FLOAT_RATES]))


def _schedules(schedule_rates: Sequence[str | None]) -> list[Cause]:
    """The decaying rates of the search: η·1/t, η·1/(t+1), η·1/√t by each clock, and in float64 a rate multiplied
    by one of `DECAYS` after every epoch (``lr *= 0.95``; after every update is not tried: each cause costs every
    unexplained check its runs), at the first two of `schedule_rates` (None: an exact run)."""
    found: list[Cause] = []
    for kind, clock, text in itertools.product(("1/t", "1/(t+1)", "1/sqrt(t)"), CLOCKS,
                                               list(dict.fromkeys(schedule_rates))):
        if kind == "1/sqrt(t)" and text is None:
            continue  # irrational steps: only a float64 run has them
        counted = {"presentation": "presentations", "update": "updates", "epoch": "epochs"}[clock]
        fields: tuple[tuple[str, Any], ...] = (("schedule", kind), ("clock", clock))
        parameters: tuple[tuple[str, Any], ...] = (("schedule", "η·" + kind), ("t", counted))
        if text is not None:
            fields += (("step", nearest_float(Fraction(text))),)
            parameters += (("eta0", text),)
        found.append(Cause("schedule", "decaying-rate", fields, parameters,
                            f"decays its rate as η·{kind}, t counting {counted} from 1"
                            + (f", η = {text} in float64" if text is not None else "")))
    for decay, clock, text in itertools.product(DECAYS, ("epoch",), list(dict.fromkeys(schedule_rates))[:2]):
        if text is None:
            continue  # float64 code multiplies its rate: an exact run has no such steps
        found.append(Cause("schedule", "decaying-rate",
                            (("schedule", "exponential"), ("clock", clock), ("decay", decay),
                             ("step", nearest_float(Fraction(text)))),
                            (("schedule", f"η·{decay!r}^(t-1)"), ("t", f"{clock}s"), ("eta0", text)),
                            f"multiplies its rate by {decay!r} after every {clock} (lr *= {decay!r}), η = {text} "
                            "in float64"))
    return found


#: The factors combined three at a time (a schedule or a penalty joins combinations of two at most).
TRIPLE_FACTORS = ("tie", "sign", "labels", "bias", "order", "rate", "stop", "tolerance")


def combinations(causes: list[Cause], size: int) -> Iterator[tuple[Cause, ...]]:
    """Every set of `size` causes of distinct factors (of `TRIPLE_FACTORS` only, for three)."""
    factors: dict[str, list[Cause]] = {}
    for cause in causes:
        if size < 3 or cause.factor in TRIPLE_FACTORS:
            factors.setdefault(cause.factor, []).append(cause)
    names = list(factors)
    for chosen in itertools.combinations(names, size):
        for combo in itertools.product(*(factors[name] for name in chosen)):
            set_fields = [name for cause in combo for name, _ in cause.fields]
            if len(set_fields) == len(set(set_fields)):  # two causes setting one field (two rates) contradict
                yield combo


def spec_of(causes: tuple[Cause, ...]) -> Spec:
    """The learner that makes every one of `causes` at once; float64 when a cause needs a rate (a penalty,
    an irrational schedule) and none is given: then at rate 1."""
    fields: dict[str, Any] = {}
    for cause in causes:
        fields.update(cause.fields)
    needs_floats = fields.get("penalty") is not None or fields.get("schedule") == "1/sqrt(t)"
    if needs_floats and "step" not in fields:
        fields["step"] = 1.0
    return replace(Spec(), **fields)


class Search:
    """The search over combinations on one body of evidence, its model runs made once each."""

    def __init__(self, observations: list[Observation], conv: Convention, rate: Fraction | None,
                 rounded: bool, deadline: float, labels: str = "-1/+1") -> None:
        self.observations, self.conv, self.rate, self.rounded = observations, conv, rate, rounded
        self.labels = labels
        self.deadline = deadline
        self.tried = 0
        self.cut = False
        self._runs: dict[tuple[int, Spec], Run] = {}
        # keyed by the causes' ids (`_ids`: a catalogue's causes are distinct), cheaper to hash than the causes
        self._first: dict[tuple[int, ...], tuple[bool, Run]] = {}
        self._shapes: dict[tuple[object, ...], bool] = {}
        self._targets = {r: _Target(observations[0].weights, r) for r in (rate, Fraction(1))}
        self._each: dict[tuple[int, Fraction | None], _Target] = {}
        self._specs: dict[tuple[int, ...], Spec] = {}

    def run(self, o: Observation, spec: Spec) -> Run:
        key = (id(o.data), spec)
        if key not in self._runs:
            # exact decaying rates grow their denominators with every step: a shorter run
            epochs = EXACT_SCHEDULE_EPOCHS if spec.exact and spec.schedule else SEARCH_EPOCHS
            self._runs[key] = run(o.data, self.conv, spec, epochs)
        return self._runs[key]

    def smallest(self, causes: list[Cause]) -> list[Fit]:
        """Every fitting combination of the least size, up to `MAX_CAUSES` causes (read-off ones counted)."""
        for size in range(1, MAX_CAUSES + 1):
            found: list[Fit] = []
            self._run_together(causes, size)
            # the read-off causes first: their runs are the smaller combinations', made already
            for spec_size, readoffs in ((size - 1, ("epoch-cap",)), (size, (None,)), (size - 1, ("averaged",))):
                for combo in combinations(causes, spec_size):
                    if time.monotonic() > self.deadline:
                        self.cut = True
                        return found
                    for readoff in readoffs:
                        fit = self._fits(combo, readoff)
                        if fit is not None:
                            found.append(fit)
            if found:
                return found
        return []

    def _target(self, o: Observation, rate: Fraction | None) -> _Target:
        key = (id(o), rate)
        if key not in self._each:
            self._each[key] = _Target(o.weights, rate)
        return self._each[key]

    def _each_alone(self, spec: Spec, T: int | None, rate: Fraction | None) -> bool:
        """Whether every observation alone has weights that one of the run's weights `_fits` allows there (its
        `model` without a read-off) fits, at `rate` or some c > 0 (not one c for all): where one has none, the
        exact test of all of them (`explained`, unrounded) fails as well; this one is in integers."""
        for o in self.observations:
            r, fits = self.run(o, spec), self._target(o, rate)
            if not r.ends:
                return False
            if r.stop in ("converged", "stopped") and (T is None or len(r.ends) <= T):
                allowed: range | list[int] = [len(r.ends)]
            else:
                allowed = range(1, len(r.ends) + 1) if T is None else [T] if len(r.ends) >= T else []
            if not any(fits.matches(r, U) for U in allowed):
                return False
        return True

    def _run_together(self, causes: list[Cause], size: int) -> None:
        """The counterexample's float64 runs of every combination of `size` causes that `_fits` will run (not pruned),
        made at once (`_learners_batch.run_many`: the same runs, bit for bit) where they are batchable."""
        if time.monotonic() > self.deadline:
            return
        first = self.observations[0]
        pending: dict[str, dict[Spec, None]] = {}
        for combo in combinations(causes, size):
            spec = self._spec(combo)
            if batchable(spec) and (id(first.data), spec) not in self._runs and self._pruned(combo) is None:
                pending.setdefault("all", {})[spec] = None
        # their weights and sums after every epoch are kept as arrays: some 32 MB at most a call
        room = max(1, 2**21 // (SEARCH_EPOCHS * (first.data.n_features + 1)))
        for specs in pending.values():
            chosen = list(specs)
            for start in range(0, len(chosen), room):
                part = chosen[start:start + room]
                for spec, made in zip(part, run_many(first.data, self.conv, part, SEARCH_EPOCHS)):
                    self._runs[(id(first.data), spec)] = made

    def _spec(self, combo: tuple[Cause, ...]) -> Spec:
        key = _ids(combo)
        if key not in self._specs:
            self._specs[key] = self._on_labels(spec_of(combo))
        return self._specs[key]

    def _on_labels(self, spec: Spec) -> Spec:
        """`spec` as code on the labels given runs it: a float64 run of η·(d - y) (a hard limiter's rule, or a
        tie cause's: NumPy's heaviside(s, 0.5) gives d - 0.5 at a tie) on labels 0/1 steps by η, where d - y is
        ±1, not 2η (its step halved: exact in float64)."""
        twice = spec.tie in ("plus", "minus", "zero") or (spec.tie == "note" and self.conv.step_factor == 2)
        if self.labels != "0/1" or spec.step is None or not twice:
            return spec
        return replace(spec, step=spec.step / 2)

    def _reachable(self, spec: Spec, readoff: str | None) -> bool:
        """Whether an exact learner's steps can sum to the counterexample's weights at all (`_reachable`):
        what the tie rule, the order, a tolerance, a stop or a cap decide, they only choose among such sums."""
        unit: Fraction | None = None
        if spec.schedule is None and readoff != "averaged" and self.rate is not None:  # a constant rate
            unit = self.rate * (2 if spec.tie in ("plus", "minus", "zero") else 1)
        key = (spec.sign, spec.bias, spec.labels01, unit)
        if key not in self._shapes:
            self._shapes[key] = reachable(self.observations[0].weights, self.observations[0].data, self.conv,
                                          sign=spec.sign, bias_factor=spec.bias, labels01=spec.labels01, unit=unit)
        return self._shapes[key]

    def _pruned(self, combo: tuple[Cause, ...]) -> tuple[bool, Run] | None:
        """The smaller combination's verdict on the counterexample when one of `combo`'s causes could not
        have changed that run (its condition never arose there): then `combo`'s is the same."""
        for i, cause in enumerate(combo):
            known = self._first.get(_ids(combo[:i] + combo[i + 1:]))
            if known is None or known[0] or cause.trigger is None:
                continue
            before = known[1]
            if cause.trigger == "tolerance":
                unchanged = before.least_margin > dict(cause.fields)["tolerance"]
            else:
                unchanged = cause.trigger not in before.fired
            if unchanged:
                return known
        return None

    def _fits(self, combo: tuple[Cause, ...], readoff: str | None) -> Fit | None:
        """The fit of `combo` (with a cap or an average read off its run) on every observation, or None."""
        first = self.observations[0]
        if readoff is None:
            pruned = self._pruned(combo)
            if pruned is not None:
                self._first[_ids(combo)] = pruned
                return None
        spec = self._spec(combo)
        if spec.exact and not self._reachable(spec, readoff):
            self._first.setdefault(_ids(combo), (False, Run()))
            return None
        self.tried += 1
        head = self.run(first, spec)
        if head.stop == "overflow" or not head.ends:
            self._first.setdefault(_ids(combo), (False, head))
            return None
        rate = None if not spec.exact else self.rate
        rate = Fraction(1) if not spec.exact else rate
        rounded = self.rounded and spec.exact and readoff == "averaged"  # an average divided in float64

        def fitting(model: Model, observations: list[Observation]) -> Fraction | None:
            return explained(observations, model, rate, rounded=rounded)

        target = self._targets[rate]

        def one(weights: Vector) -> bool:
            return fitting(lambda o: [weights], [first]) is not None

        def at(T: int) -> bool:
            return target.matches(head, T)

        settled = head.stop in ("converged", "stopped")
        ends = len(head.ends)
        if readoff is None:
            candidates: list[int | None] = ([None] if at(ends) else []) if settled else [*target.epochs(head)]
            self._first[_ids(combo)] = (bool(candidates), head)

            def model(o: Observation, T: int | None) -> list[Vector] | None:
                r = self.run(o, spec)
                if r.stop in ("converged", "stopped") and (T is None or len(r.ends) <= T):
                    return [r.final()]
                if T is None:  # the counterexample converged: its limit is unknown, any epoch's end will do
                    return [r.at(U) for U in range(1, len(r.ends) + 1)]
                return [r.at(T)] if len(r.ends) >= T else None
        elif readoff == "epoch-cap":
            candidates = []
            if settled:  # T is read where the cap shows: the first dataset whose run goes on past it
                for o in self.observations:
                    r = self.run(o, spec)
                    if r.stop not in ("converged", "stopped") or not r.ends:
                        break
                    fits = self._target(o, rate)  # `fitting` on `o` alone, in integers (no rounding: not averaged)
                    if fits.matches(r, len(r.ends)):
                        continue
                    candidates = [T for T in range(1, len(r.ends)) if fits.matches(r, T)]
                    break

            def model(o: Observation, T: int | None) -> list[Vector] | None:
                return [self.run(o, spec).at(T or 1)]
        else:
            candidates = ([None] if settled and one(head.average(ends)) else []) + \
                [T for T in range(1, min(ends, AVERAGE_EPOCHS) + 1) if one(head.average(T))]

            def model(o: Observation, T: int | None) -> list[Vector] | None:
                r = self.run(o, spec)
                if T is None:
                    return [r.average(len(r.ends))] if r.stop in ("converged", "stopped") else None
                return [r.average(T)] if len(r.ends) >= T or r.stop == "converged" else None
        for T in candidates:
            if readoff is None and not self._each_alone(spec, T, rate):
                continue
            c = fitting(functools.partial(model, T=T), self.observations)
            if c is None:
                continue
            if readoff is None:
                return Fit(combo, c if spec.exact else None, T)
            return Fit((*combo, _read_off(readoff, T)), c if spec.exact else None, None)
        return None


def _ids(combo: tuple[Cause, ...]) -> tuple[int, ...]:
    return tuple(map(id, combo))


def _read_off(code: str, epochs: int | None) -> Cause:
    if code == "epoch-cap":
        return Cause("cap", code, (), (("epochs", epochs),), f"returns its weights after {_count(epochs or 0, 'epoch')}, "
                                                            "converged or not")
    if epochs is None:
        return Cause("average", code, (), (("epochs", None),), "returns the average of its weights after every "
                                                               "presentation, up to its first clean epoch")
    return Cause("average", code, (), (("epochs", epochs),),
                 f"returns the average of its weights after every presentation over {_count(epochs, 'epoch')}")


def diagnosis_of(fits: list[Fit], conv: Convention, n_datasets: int, tried: int, cut: bool) -> tuple[str, dict[str, Any], str]:
    """The code, parameters and sentence of the first fit, the others named as also fitting."""
    first = fits[0]
    parameters: dict[str, Any] = {}
    if len(first.causes) == 1:
        code = first.causes[0].code
        parameters.update(first.causes[0].parameters)
    else:
        code = "combination"
        parameters["causes"] = [{"code": c.code, "parameters": dict(c.parameters)} for c in first.causes]
    if first.rate is not None:
        parameters["rate"] = _number(first.rate)
    if first.limit is not None:
        parameters["stopped_after"] = first.limit
    parameters["others"] = [f.codes for f in fits[1:]]
    parameters["combinations_tried"] = tried
    phrases = [c.phrase for c in first.causes]
    said = phrases[0] if len(phrases) == 1 else ", ".join(phrases[:-1]) + " and " + phrases[-1]
    rate = f", at rate {_number(first.rate)}" if first.rate is not None and first.rate != 1 else ""
    limit = (f"; it never converges on the counterexample, and a limit stopped it after "
             f"{_count(first.limit, 'epoch')}") if first.limit is not None else ""
    ways = "in one way" if len(phrases) == 1 else f"in {len(phrases)} ways at once"
    others = ""
    if len(fits) > 1:
        shown = "; ".join(" + ".join(f.codes) for f in fits[1:4])
        others = f" (also fitting, with as many causes: {shown}{' ...' if len(fits) > 4 else ''})"
    text = (f"the {conv.name} perceptron changed {ways}: it {said}{rate}{limit}{others}")
    if cut:
        text += f" (the search stopped at its time limit after {tried} combinations)"
    return code, parameters, text
