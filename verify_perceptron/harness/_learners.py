"""Learners as specifications: the note's perceptron with any of several departures at once (a tie
rule, the step's sign, a bias step, labels 0/1 as the step's sign, another order, a decaying or
scheduled rate, a weight penalty, a stop on the loss, a tolerance, an average), run exactly or in
float64 as an implementation computes it.

A `Spec` is data; `run` carries it out on one dataset from w = 0 and returns every epoch's end, so a
cap of T epochs is read off one run. Exact runs are at learning rate 1 (a positive rate scales the
whole run, so the check finds it as one factor); a run whose departure breaks that scaling (a penalty,
a schedule with an irrational or rate-dependent step) is a float64 run at a given step, in one of two
arithmetics: ``plain`` (``w = w*(1 - ηα)``, then ``w + (η·y)·x``, products added in order, as a NumPy
loop does), or ``sklearn`` (scikit-learn's ``_plain_sgd``: a weight vector kept as a scale times an
array, the rate and penalty formulas of its schedules, its stop on the objective).

Facts about scikit-learn used here, from its ``_sgd_fast.pyx.tp`` (1.3 to 1.9): the perceptron loss is
max(0, -y·p) with gradient -y when y·p <= 0; the counter t starts at 1 and counts presentations;
``optimal`` is η_t = 1/(α·(t0 + t - 1)) with t0 = 1/(α·sqrt(1/sqrt(α))); ``invscaling`` is
η0/t^power_t; the l2 penalty scales w (not the intercept) by max(0, 1 - (1 - l1_ratio)·η·α) before
each step; the l1 penalty is the cumulative truncated gradient (u += l1_ratio·η·α, each weight
pulled toward 0 by u plus what it was not yet pulled); the stop: after each epoch, when the mean
objective is above the best mean objective less ``tol`` for ``n_iter_no_change`` epochs in a row.
"""

from __future__ import annotations

import functools
import math
import operator
from dataclasses import dataclass, field
from fractions import Fraction

from ..data.dataset import Dataset
from ..notes.conventions import Convention
from ._exact import _is_mistake

#: Epochs a specification runs at most (it stops earlier when it converges, stops or its state repeats).
SPEC_EPOCHS = 500
#: The tie rules: the note's, a score of 0 never a mistake, the hard limiters' sgn(0) = +1 or -1, and
#: NumPy's sign(0) = 0 in η·(d - sign(score)) (a tie steps η·d, a mistake 2η·d).
TIES = ("note", "strict", "plus", "minus", "zero")
#: The orders: as given, reversed, and back to the first sample after every update.
ORDERS = ("given", "reversed", "restart")
#: Rate schedules: the factor of η at count t (from 1). ``exponential``: η multiplied by `Spec.decay` after each
#: count, in float64 one product at a time, as ``lr *= 0.95`` computes it.
SCHEDULES = ("1/t", "1/(t+1)", "1/sqrt(t)", "optimal", "invscaling", "exponential")
#: What t counts in a schedule.
CLOCKS = ("presentation", "update", "epoch")

Number = Fraction | float


@dataclass(frozen=True)
class Spec:
    """One learner: every field at its default is the note's perceptron.

    Attributes
    ----------
    tie : str
        One of `TIES`.
    sign : int
        -1: the step taken the wrong way.
    bias : Fraction
        The bias step's factor (0: never moved, -1: the wrong way, 1/2: half the rate).
    labels01 : bool
        The 0/1 label as the step's sign: a mistake on class -1 never moves w.
    order : str
        One of `ORDERS`.
    schedule, clock : str or None
        One of `SCHEDULES` and what its t counts (`CLOCKS`).
    power_t : float
        The exponent of ``invscaling``.
    decay : float
        The factor of ``exponential``.
    penalty : str or None
        ``l2``, ``l1`` or ``elasticnet``, of strength `alpha` (and `l1_ratio`).
    stop : tuple of (float, int) or None
        scikit-learn's stop on the objective: ``(tol, n_iter_no_change)``.
    tolerance : Fraction
        A score y·(w·x~) <= tolerance counts as a mistake (exact runs: at rate 1).
    step : float or None
        A float64 run whose step (η, or η0 of a schedule) is this double; None: an exact run at rate 1.
    arithmetic : str
        ``plain`` or ``sklearn`` (see the module's docstring); only for float64 runs.
    random_state : int or None
        ``sklearn`` only: shuffle every epoch as scikit-learn does with this ``random_state``.
    class_weight : str or tuple of (float, float) or None
        ``sklearn`` only: each step times its class's weight, ``(negative, positive)`` or ``"balanced"``
        (n / (2·n_class) on the data run, as scikit-learn's ``compute_class_weight``).
    """

    tie: str = "note"
    sign: int = 1
    bias: Fraction = Fraction(1)
    labels01: bool = False
    order: str = "given"
    schedule: str | None = None
    clock: str = "presentation"
    power_t: float = 0.5
    decay: float = 1.0
    penalty: str | None = None
    alpha: float = 0.0001
    l1_ratio: float = 0.15
    stop: tuple[float, int] | None = None
    tolerance: Fraction = Fraction(0)
    step: float | None = None
    arithmetic: str = "plain"
    random_state: int | None = None
    class_weight: str | tuple[float, float] | None = None

    @property
    def exact(self) -> bool:
        """True when the run is in exact arithmetic (at rate 1)."""
        return self.step is None


@dataclass
class Run:
    """What one run of a `Spec` gives.

    Attributes
    ----------
    ends : list of tuple
        The weights (the convention's coordinates) at the end of epochs 1, 2, ...
    sums : list of tuple
        Σ of the weights after every presentation, up to each epoch's end (for an average).
    presentations : int
        Presentations per epoch.
    stop : str
        ``converged``, ``stopped`` (the loss rule), ``cycles``, ``limit``, ``overflow``.
    fired : set of str
        The conditions that changed a decision or a step at least once: ``tie`` (a score of
        exactly 0 was judged), ``class-1`` (a mistake on class -1), ``tolerance`` (a positive score
        counted as a mistake), ``orders`` (an update before the last sample of an epoch).
    least_margin : Fraction or float
        The least positive score y·(w·x~) judged (inf if none): a tolerance below it changes nothing.
    """

    ends: list[tuple[Number, ...]] = field(default_factory=list)
    sums: list[tuple[Number, ...]] = field(default_factory=list)
    presentations: int = 0
    stop: str = "limit"
    fired: set[str] = field(default_factory=set)
    least_margin: Number = math.inf
    scale: int = 1

    def _exact(self, values: tuple[Number, ...]) -> tuple[Fraction, ...]:
        return tuple(Fraction(v) / self.scale if self.scale != 1 else Fraction(v) for v in values)

    def final(self) -> tuple[Fraction, ...]:
        """The weights the run returns, exactly."""
        return self._exact(self.ends[-1]) if self.ends else ()

    def at(self, epochs: int) -> tuple[Fraction, ...]:
        """The weights after `epochs` epochs (the last ones when the run ended before)."""
        return self._exact(self.ends[min(epochs, len(self.ends)) - 1])

    def average(self, epochs: int) -> tuple[Fraction, ...]:
        """The average of the weights over every presentation of the first `epochs` epochs, exactly."""
        count = self.presentations * epochs * self.scale
        if epochs > len(self.sums):  # a converged run stays where it ended: each further epoch adds its end
            more = (epochs - len(self.sums)) * self.presentations
            return tuple((Fraction(s) + more * Fraction(w)) / count for s, w in zip(self.sums[-1], self.ends[-1]))
        return tuple(Fraction(s) / count for s in self.sums[epochs - 1])


def _mistake(spec: Spec, conv: Convention, score: Number, label: int, run: Run) -> tuple[bool, int]:
    """Whether the learner updates on this score, and the step's multiple of η·y (2 for a hard limiter's d - y)."""
    if score == 0:
        run.fired.add("tie")
    if spec.tie == "plus":
        return (1 if score >= 0 else -1) != label, 2
    if spec.tie == "minus":
        return (1 if score > 0 else -1) != label, 2
    if spec.tie == "zero":
        return score == 0 or (1 if score > 0 else -1) != label, 1 if score == 0 else 2
    if spec.tolerance:
        mistake = label * score <= spec.tolerance
        if mistake and label * score > 0:
            run.fired.add("tolerance")
    else:
        mistake = _decides(conv)[((score > 0) - (score < 0), label)]
    if spec.tie == "strict" and score == 0:
        return False, 1
    return mistake, 1


@functools.lru_cache(maxsize=None)
def _decides(conv: Convention) -> dict[tuple[int, int], bool]:
    """The note's verdict on a score by its sign and the label (the rules look at nothing else)."""
    return {(sign, label): _is_mistake(conv, Fraction(sign), label) for sign in (-1, 0, 1) for label in (-1, 1)}


def _rate(spec: Spec, t: int) -> Number:
    """η_t: the step's rate at count t (exact runs: the factor of rate 1)."""
    base: Number = Fraction(1) if spec.step is None else spec.step
    kind = spec.schedule
    if kind is None:
        return base
    if kind == "1/t":
        return base / t
    if kind == "1/(t+1)":
        return base / (t + 1)
    if kind == "1/sqrt(t)":
        return float(base) / math.sqrt(t)
    if kind == "invscaling":
        return float(base) / math.pow(t, spec.power_t)
    if kind == "exponential":
        return _decayed(float(base), spec.decay, t)
    # optimal: scikit-learn's, from alpha alone (its own typical weight 1/sqrt(sqrt(alpha)))
    typw = math.sqrt(1.0 / math.sqrt(spec.alpha))
    optimal_init = 1.0 / (typw * spec.alpha)
    return 1.0 / (spec.alpha * (optimal_init + t - 1))


@functools.lru_cache(maxsize=4096)
def _decayed(base: float, decay: float, t: int) -> float:
    """base·decay^(t - 1) as float64 code computes it, multiplying by `decay` once a count (``lr *= decay``).

    Examples
    --------
    >>> _decayed(0.1, 0.9, 3) == 0.1 * 0.9 * 0.9
    True
    """
    rate = base
    for _ in range(t - 1):
        rate *= decay
    return rate


def run(data: Dataset, conv: Convention, spec: Spec, epochs: int = SPEC_EPOCHS) -> Run:
    """Carry out `spec` on `data` from w = 0 for at most `epochs` epochs.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> r = run(example("and"), get_convention("classic"), Spec())
    >>> r.stop, len(r.ends), [str(v) for v in r.final()]
    ('converged', 9, ['-4', '3', '2'])
    >>> r = run(example("and"), get_convention("classic"), Spec(schedule="1/t", clock="epoch"))
    >>> r.stop, [str(v) for v in r.final()]
    ('converged', ['-4/3', '1', '2/3'])
    """
    if spec.arithmetic == "sklearn" and spec.step is not None:
        from ._sgd_learner import sklearn_run  # (it imports this module's Spec and Run)

        return sklearn_run(data, conv, spec, epochs)
    if spec.step is None and spec.schedule is None and spec.penalty is None:
        return _integer_run(data, conv, spec, epochs)
    exact = spec.step is None
    rows: list[tuple[Number, ...]] = [tuple(conv.augment(x)) if exact else tuple(float(v) for v in conv.augment(x))
                                      for x in data.X]
    bias = 0 if conv.bias_first else data.n_features
    zero: Number = Fraction(0) if exact else 0.0
    w: list[Number] = [zero] * len(rows[0])
    total: list[Number] = [zero] * len(w)
    order = list(range(len(rows)))[::-1] if spec.order == "reversed" else list(range(len(rows)))
    result = Run(presentations=len(order))
    epochs_end = _Epochs(spec)
    t_presented, t_updates = 0, 0
    constant = _rate(spec, 1)
    # the bias step's factor (1 elsewhere): as a double in a float64 run (1/2, -1: exact as doubles)
    factors = [(spec.bias if exact else float(spec.bias)) if j == bias else 1 for j in range(len(w))]
    for epoch in range(1, epochs + 1):
        clean, loss = True, 0.0
        position = 0
        while position < len(order):
            i = order[position]
            position += 1
            x, label = rows[i], data.y[i]
            t_presented += 1
            score: Number = zero
            for wj, xj in zip(w, x):
                score += wj * xj
            if spec.stop is not None:
                loss += max(0.0, -float(label * score))
            if spec.schedule is None:
                eta = constant
            else:
                eta = _rate(spec, t_presented if spec.clock == "presentation" else
                            t_updates + 1 if spec.clock == "update" else epoch)
            if spec.penalty in ("l2", "elasticnet"):
                shrink = max(0.0, 1.0 - (1.0 - (0.0 if spec.penalty == "l2" else spec.l1_ratio)) * float(eta) * spec.alpha)
                w = [wj if j == bias else wj * shrink for j, wj in enumerate(w)]
            mistake, multiple = _mistake(spec, conv, score, label, result)
            if 0 < label * score < result.least_margin:
                result.least_margin = label * score
            if mistake:
                clean = False
                t_updates += 1
                sign = spec.sign * conv.step_factor * label
                if label < 0:
                    result.fired.add("class-1")
                    sign = 0 if spec.labels01 else sign
                step = eta * multiple * sign
                w = [wj + (step * cj) * xj for wj, cj, xj in zip(w, factors, x)]
                if not exact and not all(math.isfinite(v) for v in w):
                    result.stop = "overflow"
                    return result
                if position < len(order):
                    result.fired.add("orders")
            total = [s + wj for s, wj in zip(total, w)]
            if mistake and spec.order == "restart":  # a scan ends at its first mistake
                break
        if epochs_end.end(result, tuple(w), tuple(total), clean, loss / len(order)):
            break
    return result


class _Epochs:
    """The end of an epoch: its weights kept, then whether the run stops (converged, scikit-learn's stop on
    the mean loss, or a state met before)."""

    def __init__(self, spec: Spec) -> None:
        self.stop = spec.stop
        self.best, self.quiet = math.inf, 0
        self.seen: set[tuple[Number, ...]] = set()

    def end(self, result: Run, state: tuple[Number, ...], total: tuple[Number, ...], clean: bool,
            mean_loss: float) -> bool:
        result.ends.append(state)
        result.sums.append(total)
        if clean and self.stop is None:
            result.stop = "converged"
            return True
        if self.stop is not None:
            self.quiet = self.quiet + 1 if mean_loss > self.best - self.stop[0] else 0
            self.best = min(self.best, mean_loss)
            if self.quiet >= self.stop[1]:
                result.stop = "stopped"
                return True
        elif state in self.seen:
            result.stop = "cycles"
            return True
        self.seen.add(state)
        return False


def _integer_run(data: Dataset, conv: Convention, spec: Spec, epochs: int) -> Run:
    """`run` for an exact learner at a constant rate, in integers: with samples x~ = N/L and a bias factor
    P/Q, the weights are U/(L·Q) with integer U, and a score w·x~ is (U·N)/(L²·Q)."""
    L, P, Q = data.denominator, spec.bias.numerator, spec.bias.denominator
    rows = [tuple(int(v * L) for v in conv.augment(x)) for x in data.X]
    bias = 0 if conv.bias_first else data.n_features
    unit = L * L * Q  # a score's integer units
    limit = spec.tolerance * unit
    U = [0] * len(rows[0])
    total = [0] * len(U)
    order = list(range(len(rows)))[::-1] if spec.order == "reversed" else list(range(len(rows)))
    result = Run(presentations=len(order), scale=L * Q)
    decides = {(sign, label): _is_mistake(conv, Fraction(sign), label) for sign in (-1, 0, 1) for label in (-1, 1)}
    least = None
    epochs_end = _Epochs(spec)
    held = 0  # presentations since `total` last took U in: U is the same after each, so it is added that many times
    for _ in range(epochs):
        clean, loss = True, 0.0
        position = 0
        while position < len(order):
            i = order[position]
            position += 1
            x, label = rows[i], data.y[i]
            score = sum(map(operator.mul, U, x))
            if spec.stop is not None:
                loss += max(0.0, -label * score / unit)
            margin = label * score
            if margin > 0 and (least is None or margin < least):
                least = margin
            multiple = 1
            if score == 0:
                result.fired.add("tie")
            if spec.tie == "plus":
                mistake, multiple = (1 if score >= 0 else -1) != label, 2
            elif spec.tie == "minus":
                mistake, multiple = (1 if score > 0 else -1) != label, 2
            elif spec.tie == "zero":
                mistake, multiple = score == 0 or (1 if score > 0 else -1) != label, 1 if score == 0 else 2
            elif limit:
                mistake = margin <= limit
                if mistake and margin > 0:
                    result.fired.add("tolerance")
            else:
                mistake = decides[((score > 0) - (score < 0), label)]
            if spec.tie == "strict" and score == 0:
                mistake = False
            if not mistake:
                held += 1
                continue
            clean = False
            sign = spec.sign * conv.step_factor * label * multiple
            if label < 0:
                result.fired.add("class-1")
                sign = 0 if spec.labels01 else sign
            if held:
                total = [t + held * u for t, u in zip(total, U)]
            U = [u + sign * (P if j == bias else Q) * v for j, (u, v) in enumerate(zip(U, x))]
            if position < len(order):
                result.fired.add("orders")
            held = 1
            if spec.order == "restart":  # a scan ends at its first mistake: the next one starts again at sample 0
                break
        if held:
            total, held = [t + held * u for t, u in zip(total, U)], 0
        if epochs_end.end(result, tuple(U), tuple(total), clean, loss / len(order)):
            break
    if least is not None:
        result.least_margin = Fraction(least, unit)
    return result
