"""Errata: where a note's step, as written, does not follow, with a counterexample from an exact run.

An `Erratum` quotes the note (place and words), says what is wrong and names
two steps of the note's `verify_perceptron.proofs.language.Proof`: the step as the
note writes it (``written=True``, expected to be not derivable) and the
corrected step (expected to be verified). Each `Failure` pairs a written step
with a `Run`: a small dataset, a convention, a rate and a separator. The run
is executed by the reference engine, exactly; `find_counterexample` walks its
updates, turns each into a `verify_perceptron.proofs.counter.CounterModel` (the note's
symbols at that update) and stops at the first update where the written
claim is false. The proof checker then confirms that the same values satisfy
every assumption of the written step: the claim does not follow from them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction

from ..notes.conventions import Convention, dot, get_convention
from ..data.dataset import Dataset, from_arrays
from ..run.reference import train
from ..errors import InvalidArgument
from ..data.examples import example
from .counter import CounterModel, refutes
from .language import Place, Proof

__all__ = ["Run", "Failure", "Erratum", "UpdateState", "Counterexample", "update_states", "find_counterexample", "exact_sqrt"]

Vector = tuple[Fraction, ...]


@dataclass(frozen=True)
class Run:
    """A small exact run of one note's perceptron.

    Attributes
    ----------
    label : str
        A short description (``"boolean AND (note 000, Table 1)"``).
    convention : str
        The convention to run.
    eta : Fraction
        The learning rate.
    example : str, optional
        A built-in example's name; else `points` and `labels` give the data.
    points, labels : tuple
        The data, when not a built-in example.
    separator : tuple of Fraction, optional
        w* in the convention's coordinates; by default the run's final weights.
    constants : tuple of (str, Fraction)
        Values the note lets one choose (``("gamma", -100)``).
    stop : str
        How the run must end: ``"converged"``, or ``"cycle"`` for data that no
        hyperplane separates (the engine then proves that the run repeats forever).
    """

    label: str
    convention: str
    eta: Fraction = Fraction(1)
    example: str | None = None
    points: tuple[tuple[Fraction, ...], ...] = ()
    labels: tuple[int, ...] = ()
    separator: Vector | None = None
    constants: tuple[tuple[str, Fraction], ...] = ()
    stop: str = "converged"

    def dataset(self) -> Dataset:
        """The run's data, exactly."""
        if self.example is not None:
            return example(self.example)
        return from_arrays([list(p) for p in self.points], list(self.labels), source=self.label)

    def constant(self, name: str) -> Fraction:
        """A chosen constant, by name."""
        for key, value in self.constants:
            if key == name:
                return value
        raise InvalidArgument(f"run {self.label!r} has no constant {name!r}")

    def describe(self) -> str:
        """The run in one line."""
        data = self.dataset()
        if self.example is not None:
            what = f"example {self.example!r}"
        else:
            what = "data " + "; ".join(
                f"({', '.join(str(v) for v in x)}) -> {y:+d}" for x, y in zip(data.X, data.y))
        rate = "" if get_convention(self.convention).rate_fixed else f", rate {self.eta}"
        sep = "" if self.separator is None else f", w* = ({', '.join(str(v) for v in self.separator)})"
        chosen = "".join(f", {k} = {v}" for k, v in self.constants)
        ends = "" if self.stop == "converged" else f", a run that ends in a {self.stop}"
        return f"{self.label}: {what}, convention {self.convention}{rate}{sep}{chosen}{ends}"


@dataclass(frozen=True)
class Failure:
    """A written step and the run that refutes it."""

    step: str
    run: Run


@dataclass(frozen=True)
class Erratum:
    """A place where a note's step, as written, does not follow.

    Attributes
    ----------
    id : str
        ``"E000.1"``.
    place : Place
        Where the note writes it.
    words : str
        The note's words (a short quote).
    problem : str
        What is wrong, in one or two sentences.
    correction : str
        The corrected statement, in words.
    corrected : str
        The id of the corrected step (verified).
    failures : tuple of Failure
        Each written step with the run that refutes it.
    consequence : str
        Whether the note's conclusion survives.
    """

    id: str
    place: Place
    words: str
    problem: str
    correction: str
    corrected: str
    failures: tuple[Failure, ...]
    consequence: str


@dataclass(frozen=True)
class UpdateState:
    """Everything about one update of a run, exactly, in the convention's own coordinates.

    Attributes
    ----------
    k : int
        The update's number (from 1); ``epoch`` and ``sample`` say where it happened.
    y : int
        The sample's label.
    x : tuple of Fraction
        The augmented sample x~.
    w_prev, w : tuple of Fraction
        The weights before and after.
    separator : tuple of Fraction
        w* (the run's, or the final weights).
    mistakes : tuple of int
        N_μ, counting this update.
    first : int
        The sample of the first update.
    presentations : int
        How many presentations the run has made while its weights are still
        `w`: up to the one before the next update, or, after the last update,
        up to the end of the run (its final pass without a mistake included).
    """

    data: Dataset
    convention: Convention
    rate: Fraction
    step_size: Fraction
    k: int
    epoch: int
    sample: int
    y: int
    x: Vector
    w_prev: Vector
    w: Vector
    separator: Vector
    mistakes: tuple[int, ...]
    first: int
    samples: tuple[Vector, ...]
    presentations: int

    @property
    def sum_xsq(self) -> Fraction:
        """Σ over the mistakes so far of ‖x~‖² (that is Σ_μ N_μ·‖x~_μ‖²)."""
        return sum((n * dot(x, x) for n, x in zip(self.mistakes, self.samples)), Fraction(0))

    @property
    def R_sq(self) -> Fraction:
        """max_i ‖x~_i‖²."""
        return max(dot(x, x) for x in self.samples)

    @property
    def margin(self) -> Fraction:
        """min_i y_i·w*·x~_i."""
        return min(y * dot(self.separator, x) for x, y in zip(self.samples, self.data.y))


def update_states(run: Run) -> Iterator[UpdateState]:
    """Run `run` exactly (online mode) and yield the state of every update.

    Examples
    --------
    >>> states = list(update_states(Run("AND", "classic", example="and")))
    >>> len(states), [str(v) for v in states[0].w], [str(v) for v in states[-1].w]
    (18, ['-1', '0', '0'], ['-4', '3', '2'])
    >>> states[0].presentations, states[-1].presentations  # 9 passes over 4 samples, the last without a mistake
    (3, 36)
    """
    data = run.dataset()
    conv = get_convention(run.convention)
    trace = train(data, conv, eta=run.eta, max_epochs=10_000)
    if trace.stop != run.stop:
        raise InvalidArgument(f"run {run.label!r} ended in {trace.stop!r}, not in {run.stop!r}")
    separator = run.separator if run.separator is not None else trace.final_weights
    samples = tuple(conv.augment(x) for x in data.X)
    a = conv.step_size(trace.rate)
    mistakes = [0] * len(samples)
    prev: Vector = tuple(Fraction(0) for _ in samples[0])
    first = trace.updates[0].samples[0]
    # An update's presentation is its place in the stream of samples, counted from 1; the weights
    # it leaves stay until the presentation before the next update, or to the end of the run.
    place = [(u.epoch - 1) * len(samples) + u.samples[0] + 1 for u in trace.updates]
    kept = [p - 1 for p in place[1:]] + [trace.n_epochs * len(samples)]
    for update, presentations in zip(trace.updates, kept):
        (i,) = update.samples
        mistakes[i] += 1
        yield UpdateState(data, conv, trace.rate, a, update.k, update.epoch, i, data.y[i], samples[i],
                          prev, tuple(update.weights), tuple(separator), tuple(mistakes), first, samples, presentations)
        prev = tuple(update.weights)


@dataclass(frozen=True)
class Counterexample:
    """The first update of a run at which a written step's claim fails."""

    failure: Failure
    state: UpdateState
    model: CounterModel

    def describe(self) -> str:
        """``update 1 (epoch 1, sample 3)``."""
        return f"update {self.state.k} (epoch {self.state.epoch}, sample {self.state.sample})"


ModelOf = Callable[[UpdateState, Run], CounterModel]


def find_counterexample(failure: Failure, proof: Proof, model_of: ModelOf) -> Counterexample:
    """The first update of ``failure.run`` whose values refute the written step.

    There, every assumption of the step holds and its claim is false (or
    undefined). Raises `InvalidArgument` if no update does: then the run is no
    counterexample.
    """
    for state in update_states(failure.run):
        model = model_of(state, failure.run)
        source = f"{failure.run.label}, update {state.k} (epoch {state.epoch}, sample {state.sample})"
        model = CounterModel(model.scalars, model.vectors, source)
        if refutes(proof, failure.step, model):
            return Counterexample(failure, state, model)
    raise InvalidArgument(f"no update of run {failure.run.label!r} refutes step {failure.step}")


def exact_sqrt(value: Fraction, name: str) -> Fraction:
    """The rational square root of `value`, or `InvalidArgument` naming it when there is none.

    Examples
    --------
    >>> exact_sqrt(Fraction(25, 16), "R_sq")
    Fraction(5, 4)
    """
    def root(n: int) -> int | None:
        r = math.isqrt(n)
        return r if r * r == n else None
    if value < 0:
        raise InvalidArgument(f"{name}={value} is negative")
    p, q = root(value.numerator), root(value.denominator)
    if p is None or q is None:
        raise InvalidArgument(f"{name}={value} has no rational square root; choose data with rational norms")
    return Fraction(p, q)
