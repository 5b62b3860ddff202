"""Diagnosis by evidence: each known cause of a failure is a model, run exactly on every dataset the
check tried; a cause is named only when its model reproduces the implementation's weights on all of
them, with one learning rate, and then with the parameter it needed (T, ε, the convention, ...).

Causes are tried in order: those whose model is a single run (another convention, a changed rule,
an epoch cap, a tolerance, averaged or best-so-far weights, float rounding), then the probes that
call the implementation again (`_probes`: a nonzero start, another label encoding), and last two
that only say a run exists (some presentation order per epoch; some stop before convergence),
which are named only when nothing more specific explains the evidence.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from ..notes.conventions import Convention, dot
from ..run.averaged import AVERAGES
from ._averaged import counter_average
from ._count_cap import Trails, count_cap
from ._evidence import Model, Observation, Printed, allowing, explained, factor_of, other_rules, recast
from ._exact import Vector, _is_mistake
from ._models import Change, Simulation, orders_reaching, simulate
from ._pocket import pocket_cause
from ._results import Diagnosis
from ._wording import _approx, _count, _number

#: What each changed rule does, as a report says it.
RULES: dict[str, str] = {
    "ties-not-mistakes": "counts a mistake only when the score is strictly on the wrong side, so a score of exactly 0 "
                         "is let through",
    "no-bias-update": "never moves the bias weight",
    "bias-wrong-sign": "moves the bias weight the wrong way (by -η·y)",
    "wrong-sign": "moves the weights the wrong way (w -= η·y·x~)",
    "labels-0-1": "uses the 0/1 label as the update's sign, so mistakes on class 0 never move the weights",
    "skips-last-sample": "never presents the last sample (a loop that stops one short)",
    "skips-first-sample": "never presents the first sample (a loop from 1, or a program that skips a header line: "
                          "the harness's files have none unless --header asks for one)",
    "updates-every-sample": "updates on every sample, mistake or not",
    "integer-weights": "keeps its weights as integers, truncating every step toward 0 (an integer weight array?)",
}
#: The rates tried for a learning rate applied to the bias step alone.
BIAS_RATES = (Fraction(1, 2), Fraction(1, 4), Fraction(1, 10), Fraction(2), Fraction(1, 100))
#: The longest fixed run an average is looked for in epoch by epoch; past it, on runs that converged, T is
#: solved for, up to `MAX_AVERAGE_EPOCHS`.
AVERAGE_EPOCHS, MAX_AVERAGE_EPOCHS = 200, 10**7
#: The largest tolerance looked for (at learning rate 1), and the most runs spent sweeping up to it.
MAX_TOLERANCE, TOLERANCE_RUNS = Fraction(1), 400
#: The longest run of the other mode looked at (`mode_cause`).
MODE_EPOCHS = 2000
#: The most samples whose per-epoch orders are searched.
MAX_ORDERED_SAMPLES = 4

class _Runs:
    """Model runs, each made once per dataset and change."""

    def __init__(self, conv: Convention, rounded: bool | Printed) -> None:
        self.conv, self.rounded = conv, rounded
        self._runs: dict[tuple[int, Change, str], Simulation] = {}

    def explained(self, observations: list[Observation], model: Model, rate: Fraction | None) -> Fraction | None:
        """`explained`, within float64 rounding when the implementation computes in float64."""
        return explained(observations, model, rate, rounded=self.rounded)

    def __call__(self, o: Observation, change: Change = Change(), conv: Convention | None = None) -> Simulation:
        conv = conv or self.conv
        key = (id(o.data), change, conv.name)
        if key not in self._runs:
            self._runs[key] = simulate(o.data, conv, change)
        return self._runs[key]


def model_causes(observations: list[Observation], conv: Convention, rate: Fraction | None,
                 rounded: bool | Printed = False) -> list[Diagnosis]:
    """Every single-run cause whose model reproduces every observation (the counterexample first);
    `rounded` for a float64 implementation (`explained`)."""
    runs = _Runs(conv, rounded)
    n = len(observations)
    found = [d for d in (*_conventions(observations, conv, runs), *_rules(observations, conv, runs, rate),
                         _epoch_cap(observations, runs, rate), _tolerance(observations, conv, runs, rate),
                         *_averages(observations, runs, rate), pocket_cause(observations, conv, rate, rounded),
                         mode_cause(observations, conv, "batch", rate, rounded))
             if d is not None]
    return [Diagnosis(d.code, {**d.parameters, "datasets": n}, f"{d.text}: it reproduces the "
                                                                "implementation's weights on every dataset tried")
            for d in found]


def search_causes(observations: list[Observation], conv: Convention, rate: Fraction | None,
                  rounded: bool | Printed = False) -> list[Diagnosis]:
    """The causes that only say some run exists: per-epoch orders, or a stop before convergence."""
    runs = _Runs(conv, rounded)
    n = len(observations)
    found = []
    first = observations[0]
    orders = orders_reaching(first.data, conv, _unscaled(first.weights, rate, runs(first)))
    if orders is not None and runs.explained(observations, lambda o: _some_order(o, conv, runs, rate), rate) is not None:
        found.append(Diagnosis("shuffled", {"orders": [list(p) for p in orders], "datasets": n},
                               f"consistent with the {conv.name} perceptron presenting the samples in another order "
                               f"in each epoch (shuffled?): on the counterexample the epochs' orders "
                               f"{[list(p) for p in orders]} give its weights; every other dataset tried allows such "
                               "an order"))
    trails = Trails(conv, runs)  # the weights after each update, and where in the presentations each came
    c = runs.explained(observations, lambda o: [runs(o).weights(U) for U in runs(o).ends] + trails(o)[1][1:], rate)
    capped = count_cap(observations, trails, runs.explained, rate) if c is not None else None
    if capped is not None:
        found.append(Diagnosis(capped.code, {**capped.parameters, "datasets": n},
                               f"{capped.text}: it reproduces the implementation's weights on every dataset tried"))
    elif c is not None:
        found.append(Diagnosis("early-stop", {"datasets": n},
                               f"consistent with the {conv.name} perceptron stopped before it converged (an early "
                               f"stop on the loss, or earlier weights returned): on every dataset tried the weights "
                               "are those of its run at some point"))
    return found


# --- the causes ----------------------------------------------------------------------------------------


def _conventions(observations: list[Observation], conv: Convention, runs: _Runs) -> Iterator[Diagnosis | None]:
    """Another note's perceptron (another tie rule), read in the checked convention's coordinates."""
    fits = []
    for other in other_rules(conv, ball=False):
        def model(o: Observation, other: Convention = other) -> list[Vector] | None:
            run = runs(o, Change(), other)
            if run.stop != "converged":
                return None
            return [recast(run.final(), other, conv)]

        c = runs.explained(observations, model, None)
        if c is not None:
            fits.append((other, c))
    if fits:
        other, c = fits[0]
        also = [o.name for o, _ in fits[1:]]
        same = f" (and equally under {', '.join(also)}, whose rules agree on these data)" if also else ""
        yield Diagnosis("other-convention", {"convention": other.name, "also": also, "rate": _number(c)},
                        f"it is note {other.note_number}'s {other.name} perceptron ({other.summary}), at rate {_number(c)}"
                        f"{same}, not {conv.name}'s")


def _rules(observations: list[Observation], conv: Convention, runs: _Runs,
           rate: Fraction | None) -> Iterator[Diagnosis | None]:
    """The note's perceptron with one rule changed (see `RULES`), or a rate on the bias step alone."""
    changes = [Change(v) for v in RULES if not (conv.name == "unit-ball" and v == "labels-0-1")]
    if conv.name != "unit-ball":
        changes += [Change("bias-rate", bias_rate=r) for r in BIAS_RATES]
    for change in changes:
        def model(o: Observation, change: Change = change) -> list[Vector]:
            run = runs(o, change)
            return [run.final()] if run.stop == "converged" else [run.weights(U) for U in run.ends]

        if runs.explained(observations, model, rate) is None:
            continue
        first = runs(observations[0], change)
        if first.stop == "converged":
            how = "and converges there"
        else:
            target = _unscaled(observations[0].weights, rate, first)
            epoch = next((t for t, U in enumerate(first.ends, 1) if first.weights(U) == target), None)
            how = "which never converges on the counterexample: " + (
                f"an epoch limit stopped it after {_count(epoch, 'epoch')}" if epoch else "an epoch limit stopped it")
        variant = change.variant or ""
        text = RULES.get(variant, "scales the bias step by a learning rate the other weights do not get")
        detail = f" (rate {_number(change.bias_rate)} on the bias)" if variant == "bias-rate" else ""
        params = {"bias_rate": _number(change.bias_rate)} if variant == "bias-rate" else {}
        yield Diagnosis(variant, params, f"the {conv.name} perceptron that {text}{detail}, {how}")
        return  # one changed rule is the diagnosis; a second one fitting too is a coincidence of small data


def _epoch_cap(observations: list[Observation], runs: _Runs, rate: Fraction | None) -> Diagnosis | None:
    """A cap of T epochs: the run returns what it has after T epochs, converged or not."""
    first = runs(observations[0])
    target = _unscaled(observations[0].weights, rate, first)
    candidates = [t for t, U in enumerate(first.ends[:-1], 1) if first.weights(U) == target]
    if not candidates and rate is None:  # the rate is unknown: any positive multiple of an epoch's end
        candidates = [t for t, U in enumerate(first.ends[:-1], 1)
                      if runs.explained([observations[0]], allowing(first.weights(U)), None) is not None]
    if runs.explained([observations[0]], allowing(first.final()), rate) is not None:
        # the cap does not bind on the counterexample (a printing departs there): another dataset's run tells T
        candidates += sorted({t for o in observations[1:] for t in range(len(first.ends), len(runs(o).ends))
                              if runs.explained([o], allowing(runs(o).weights(runs(o).ends[t - 1])), rate) is not None})
    fitting = [T for T in candidates if runs.explained(observations, _capped(runs, T), rate) is not None]
    if not fitting:
        return None
    T = fitting[0]
    return Diagnosis("epoch-cap", {"epochs": T},
                     f"the {runs.conv.name} perceptron capped at {_count(T, 'epoch')}: it returns its weights after "
                     f"epoch {T}, converged or not")


def _tolerance(observations: list[Observation], conv: Convention, runs: _Runs,
               rate: Fraction | None) -> Diagnosis | None:
    """A tolerance ε: a score y·(w·x~) <= ε counts as a mistake.

    A run with tolerance ε is the same run for every ε in its interval [lo, hi),
    so ε is swept upward from below every positive score, jumping each time
    past the interval of a dataset the current ε does not reproduce (no ε
    below that jump can): the first ε that reproduces every dataset is found
    with one run per dataset and interval crossed.
    """
    if conv.decide(Fraction(0), 1, Fraction(1)) is None or conv.decide(Fraction(0), -1, Fraction(1)) is None:
        return None  # a tolerance widens the rule y·(w·x~) <= 0; the hard limiters' ties are another rule
    L = max(o.data.denominator for o in observations)
    epsilon = Fraction(1, 2 * L * L)  # below every positive score: the note's own run
    held: dict[int, Simulation] = {}
    for _ in range(TOLERANCE_RUNS):
        if epsilon > MAX_TOLERANCE:
            return None
        c = rate
        for o in observations:
            run = held.get(id(o.data))
            if run is None or epsilon < run.lo or (run.hi is not None and epsilon >= run.hi):
                run = held[id(o.data)] = simulate(o.data, conv, Change(tolerance=epsilon))
            fits = run.stop == "converged" and runs.explained([o], lambda _: [run.final()], c) is not None
            if not fits:
                if run.hi is None:
                    return None
                epsilon = run.hi
                break
            if c is None and any(o.weights):
                c = runs.explained([o], lambda _: [run.final()], None)
        else:
            if epsilon == Fraction(1, 2 * L * L):
                return None  # the note's own run: no tolerance
            lo = max(r.lo for r in held.values())
            hi = min((r.hi for r in held.values() if r.hi is not None), default=MAX_TOLERANCE)
            return _tolerance_diagnosis(conv, (c or Fraction(1)) * lo, (c or Fraction(1)) * hi)
    return None


def _tolerance_diagnosis(conv: Convention, lo: Fraction, hi: Fraction) -> Diagnosis:
    decimals = [f"1e-{k}" for k in range(1, 13) if lo <= Fraction(1, 10**k) < hi]
    inside = f"; {decimals[0]} lies in it" if decimals else ""
    return Diagnosis("tolerance", {"at_least": _number(lo), "below": _number(hi), "decimal": decimals[0] if decimals else None},
                     f"the {conv.name} perceptron with a tolerance ε: a score y·(w·x~) <= ε counts as a mistake, for "
                     f"any ε with {_number(lo)} <= ε < {_number(hi)} (≈ {_approx(lo)} to {_approx(hi)}{inside})")


def _averages(observations: list[Observation], runs: _Runs, rate: Fraction | None) -> Iterator[Diagnosis | None]:
    """Averaged weights, over each of `AVERAGES` (presentations, the start too, epochs' ends, updates): over
    the run up to its clean epoch, over a fixed run of T <= `AVERAGE_EPOCHS` epochs, or, where the runs
    converged, over any T past that (solved for on the counterexample: `_averaged_past`)."""
    for over in AVERAGES:
        def until_clean(o: Observation, over: str = over) -> list[Vector] | None:
            run = runs(o)
            return _averaged(runs, Change(), len(run.ends), over, rate)(o) if run.stop == "converged" else None

        if runs.explained(observations, until_clean, rate) is not None:
            yield _averaged_diagnosis(runs.conv.name, over, None)
            return
    fixed = Change(epochs=AVERAGE_EPOCHS)
    first = runs(observations[0], fixed)
    for over in AVERAGES:
        for T in range(1, AVERAGE_EPOCHS + 1):
            if over != "start" and runs.explained([observations[0]], allowing(first.average(T, over)), rate) is None:
                continue
            if runs.explained(observations, _averaged(runs, fixed, T, over, rate), rate) is not None:
                yield _averaged_diagnosis(runs.conv.name, over, T)
                return
    for over in ("presentations", "start", "epochs"):  # an average over updates stops changing at convergence
        for T in _averaged_past(observations[0], runs(observations[0]), over):
            if runs.explained(observations, _averaged(runs, Change(), T, over, rate), rate) is not None:
                yield _averaged_diagnosis(runs.conv.name, over, T)
                return


#: What each average runs over, as a report says it.
_OVER = {"presentations": "the average of the weights after every presentation",
         "start": "the average of the weights over every presentation and the start w = 0 (a counter from 1, "
                  "w - u/c at the end, as in Daumé's course)",
         "epochs": "the average of the weights at the end of every epoch",
         "updates": "the average of the weights after every update"}


def _averaged_diagnosis(name: str, over: str, T: int | None) -> Diagnosis:
    until = (f"run for exactly {_count(T, 'epoch')}" if T else "")
    text = (f"the averaged {name} perceptron{' ' + until if until else ''}: it returns {_OVER[over]}"
            + ("" if T else ", up to the end of its first epoch without a mistake"))
    return Diagnosis("averaged", {"epochs": T, "over": over}, text)


def _averaged_past(o: Observation, run: Simulation, over: str) -> list[int]:
    """T > `AVERAGE_EPOCHS` whose average `over` the converged `run` extended to T epochs may be `o`'s weights.

    Past convergence the sum is A + T·B (B the final weights times the presentations an epoch, or once an
    epoch for its ends), and the average a positive multiple of it: with the weights a, a_i·(A_j + T·B_j) =
    a_j·(A_i + T·B_i) on every pair of coordinates, which gives T; the pair of largest determinant is
    used, and its neighbours are tried (the weights may be rounded)."""
    if run.stop != "converged":
        return []
    E, final = len(run.ends), run.ends[-1]
    per = run.presentations if over != "epochs" else 1
    total = run.sums[-1] if over != "epochs" else [sum(U[j] for U in run.ends) for j in range(len(final))]
    A = [s - E * per * u for s, u in zip(total, final)]
    B = [per * u for u in final]
    a = o.weights
    pairs = [(i, j) for i in range(len(a)) for j in range(i + 1, len(a))]
    if not pairs:
        return []
    i, j = max(pairs, key=lambda p: abs(a[p[0]] * B[p[1]] - a[p[1]] * B[p[0]]))
    det = a[i] * B[j] - a[j] * B[i]
    if det == 0:
        return []
    T = (a[j] * A[i] - a[i] * A[j]) / det
    if not AVERAGE_EPOCHS < T < MAX_AVERAGE_EPOCHS + 2:
        return []
    near = round(T)
    return [t for t in (near, near - 1, near + 1) if AVERAGE_EPOCHS < t <= MAX_AVERAGE_EPOCHS]


def mode_cause(observations: list[Observation], conv: Convention, mode: str, rate: Fraction | None,
               rounded: bool | Printed = False) -> Diagnosis | None:
    """batch-mode or online-mode: the note's run in `mode` (the other than the one checked) reproduces every
    dataset tried: one step a pass by the sum over the pass's mistakes (note 003's batch mode), or a step
    after every mistake."""
    from ..run.reference import train

    def model(o: Observation) -> list[Vector] | None:
        run = train(o.data, conv, mode=mode, max_epochs=MODE_EPOCHS)
        return [run.final_weights] if run.stop == "converged" else None

    if explained(observations, model, rate, rounded=rounded) is None:
        return None
    text = ("takes one step a pass, by the sum of the steps of every sample the pass's starting weights misclassify "
            "(note 003's batch mode), not a step after every mistake" if mode == "batch" else
            "takes a step after every mistake (online mode), not one step a pass by the sum over its mistakes")
    return Diagnosis(f"{mode}-mode", {"mode": mode}, f"the {conv.name} perceptron that {text}")


# --- helpers ---------------------------------------------------------------------------------------------


def _unscaled(weights: Vector, rate: Fraction | None, run: Simulation) -> Vector:
    """The weights at learning rate 1: divided by the declared rate, or by the factor the converged run
    shows (the weights as they are when it shows none)."""
    if rate is not None:
        return tuple(w / rate for w in weights)
    c = factor_of(weights, [run.final()], None)
    return tuple(w / c for w in weights) if c else weights


def _capped(runs: _Runs, T: int) -> Model:
    """The note's run returning its weights after T epochs (after its last, when it ends sooner)."""
    def model(o: Observation) -> list[Vector]:
        run = runs(o)
        return [run.weights(run.ends[min(T, len(run.ends)) - 1])]
    return model


def _averaged(runs: _Runs, change: Change, T: int, over: str = "presentations", rate: Fraction | None = None) -> Model:
    """The run under `change` returning the average of its weights `over` T epochs (None where it cannot); for
    a float64 implementation averaging with a counter from 1 (``start``), also what float64 makes of it."""
    def model(o: Observation) -> list[Vector] | None:
        run = runs(o, change)
        if T > len(run.ends) and run.stop != "converged":
            return None
        average: Vector = run.average(T, over)
        if over != "start" or not runs.rounded:
            return [average]
        c = rate or Fraction(1)
        final = run.weights(run.ends[min(T, len(run.ends)) - 1])
        rounded = counter_average(final, average, run.presentations * T + 1, c)
        return [average] + ([tuple(v / c for v in rounded)] if rounded is not None else [])
    return model


def _some_order(o: Observation, conv: Convention, runs: _Runs, rate: Fraction | None) -> list[Vector] | None:
    """The note's final weights when they are the observation's, else those of some per-epoch order (on more
    than `MAX_ORDERED_SAMPLES` samples, any separating weights: the orders are too many to search)."""
    final = runs(o).final()
    if runs.explained([o], lambda _: [final], rate) is not None:
        return [final]
    target = _unscaled(o.weights, rate, runs(o))
    if o.data.n_samples > MAX_ORDERED_SAMPLES:  # too many orders to search: a shuffled run converges, so it separates
        separates = all(not _is_mistake(conv, dot(target, conv.augment(x)), y) for x, y in zip(o.data.X, o.data.y))
        return [target] if separates else None
    return [target] if orders_reaching(o.data, conv, target) is not None else None
