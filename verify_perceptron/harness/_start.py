"""A seeded random start, read off the implementation and looked past.

Code that starts from small random weights drawn with a fixed seed (``rgen.normal(scale=0.01,
size=1 + d)`` with ``random_state=1``, as a well-known textbook writes it) is diagnosed
``nonzero-start`` by `_probes.start_probe`, and no model that starts at 0 can tell what else it
does. Such a start depends only on the shape, so it can be read:

- on samples that are all 0 no update moves a feature's weight, so every feature weight the
  implementation returns there is its start (the same whatever the labels, or the start is not read);
- the bias does move there: on labels all +1 it ends at its start when that start already predicts
  +1, and on labels all -1 when it predicts -1, so one of the two answers is the bias's start and
  their difference is a whole number of steps (which gives the rate, where it is not declared).

The note's perceptron is then run in float64 from that start (`_floats._float_run`, products added
in order, then the bias), under each convention (a tie rule), at each rate, capped at each epoch
count the counterexample allows, and named when it reproduces every dataset tried.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..data.dataset import Dataset
from ..notes.conventions import CONVENTIONS, Convention, get_convention
from ._evidence import Observation
from ._exact import Vector
from ._floats import _float_run, halves_step, nearest_float, short_rates
from ._probes import Recheck

#: Most datasets tried the model from the read start is run on (each read costs four calls per feature count).
MAX_STARTED = 30
#: The first feature's value in the far sample of `read_start`'s probes.
FAR = Fraction(2**60)
#: The whole numbers of steps tried between the bias's two answers (a rate read off their difference).
STEPS = range(1, 9)

Canonical = tuple[Fraction, tuple[Fraction, ...]]


@dataclass(frozen=True)
class StartedRun:
    """The model found: the start read on the counterexample's shape (canonical ``(b, v)``), the convention,
    the rate, and the epoch cap (None: run to convergence; `or_more`: every larger cap, and none, fit too)."""

    start: Canonical
    convention: str
    rate: Fraction
    epochs: int | None
    or_more: bool
    also: tuple[tuple[str, Fraction], ...] = ()


def _probe(data: Dataset, label: int, value: Fraction) -> Dataset:
    """`data`'s shape with every value 0 and label `label`, but the last sample: `value` on the first feature, label
    -`label`."""
    n, d = data.n_samples, data.n_features
    zero = tuple(Fraction(0) for _ in range(d))
    far = (value, *zero[1:])
    return Dataset(X=(zero,) * (n - 1) + (far,), y=(label,) * (n - 1) + (-label,), source=data.source,
                   binary_float=data.binary_float)


def read_start(data: Dataset, conv: Convention, recheck: Recheck, labels: str) -> tuple[Canonical, Canonical] | None:
    """The two candidate starts ``(b, v)`` of an implementation on `data`'s shape, or None where they cannot be
    read (a call gives no weights, the features' answers differ, the first feature starts at 0).

    The probes are samples all 0, labelled +1 (then -1), beside one sample labelled -1 (+1) whose first feature
    is so large (`FAR`, on the side its start weight gives its label) that no step of the bias makes it a mistake:
    no update moves a feature, so the features' answers are their start, the same on both probes (on the
    wrong side the far sample is a mistake, and its step moves the first feature by ``FAR`` times the rate), and
    the bias ends at its start when that start predicts the probe's label, else past it.

    Examples
    --------
    >>> from verify_perceptron.data.dataset import from_arrays
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> def seeded(data, labels, name):  # the classic rule from (b, v) = (1/4, (1/8,)), one step of 1 a mistake
    ...     b, v = Fraction(1, 4), Fraction(1, 8)
    ...     for _ in range(3):
    ...         for x, t in zip(data.X, data.y):
    ...             if t * (v * x[0] + b) <= 0:
    ...                 b, v = b + t, v + t * x[0]
    ...     return data, (b, v), False
    >>> [(str(b), [str(w) for w in v]) for b, v in read_start(from_arrays([[1], [2]], [-1, 1]),
    ...                                                        get_convention("classic"), seeded, "-1/+1")]
    [('1/4', ['1/8']), ('-3/4', ['1/8'])]
    """
    found = []
    for side in (1, -1):
        answers = []
        for label in (1, -1):
            _, weights, _ = recheck(_probe(data, label, -label * side * FAR), labels, conv.name)
            if weights is None:
                break
            answers.append(conv.to_canonical(weights))
        if len(answers) == 2 and answers[0][1] == answers[1][1] and abs(answers[0][1][0]) * FAR >= 2**40:
            found.append(((answers[0][0], answers[0][1]), (answers[1][0], answers[1][1])))
    if not found:
        return None
    return min(found, key=lambda pair: abs(pair[0][1][0]))  # the far sample's step moves the other side's a lot


def _rates(candidates: tuple[Canonical, Canonical], conv: Convention, labels: str, rate: Fraction | None,
           float_rate: Fraction) -> list[Fraction]:
    """The declared rate; else the rates whose steps, a whole number of them, span the bias's two answers (and
    their short decimals), then the one the weights show."""
    if rate is not None:
        return [rate]
    gap = abs(candidates[0][0] - candidates[1][0])
    per = conv.step_size(Fraction(1)) / (2 if halves_step(conv, labels) else 1)
    found = [r for k in STEPS if gap for r in short_rates(gap / k / per)]
    return list(dict.fromkeys([*found, *short_rates(float_rate)]))


def _floats(start: Canonical) -> tuple[float, list[float]] | None:
    b = nearest_float(start[0])
    v = [nearest_float(w) for w in start[1]]
    if b is None or any(w is None for w in v):
        return None
    return b, [w for w in v if w is not None]


def _ends(data: Dataset, conv: Convention, rate: Fraction, start: Canonical, labels: str,
          max_epochs: int) -> tuple[list[Canonical], bool] | None:
    """The float64 run's canonical weights at each epoch's end from `start`, and whether it ended before the limit."""
    doubles = _floats(start)
    if doubles is None:
        return None
    ends: list[Vector] = []
    final, _, _ = _float_run(data, conv, rate, max_epochs, labels, start=doubles, ends=ends)
    if final is None:
        return None
    return [conv.to_canonical(w) for w in ends], len(ends) < max_epochs


@dataclass(frozen=True)
class _Caps:
    """The epoch caps at which a model gives the weights seen: `some`, and every cap from `beyond` on (None: no
    such tail, the run not converged by the limit or not ending at them)."""

    some: frozenset[int]
    beyond: int | None

    def has(self, epochs: int) -> bool:
        return epochs in self.some or (self.beyond is not None and epochs >= self.beyond)

    def __and__(self, other: _Caps) -> _Caps:
        beyond = None if self.beyond is None or other.beyond is None else max(self.beyond, other.beyond)
        some = {t for t in self.some | other.some if self.has(t) and other.has(t)}
        return _Caps(frozenset(t for t in some if beyond is None or t < beyond), beyond)

    def __or__(self, other: _Caps) -> _Caps:
        beyond = min((t for t in (self.beyond, other.beyond) if t is not None), default=None)
        return _Caps(self.some | other.some, beyond)

    def least(self) -> int | None:
        return min(self.some, default=self.beyond)


def _caps(ends: tuple[list[Canonical], bool], seen: Canonical) -> _Caps:
    """The caps at which a run (`_ends`) gives `seen`: its epochs that end there, and, when it converged there,
    every cap past its last epoch."""
    run, ended = ends
    some = frozenset(t for t in range(1, len(run) + 1) if run[t - 1] == seen)
    converged = ended and bool(run) and (len(run) == 1 or run[-2] == run[-1])
    return _Caps(some, len(run) + 1 if converged and run[-1] == seen else None)


def started_run(observations: list[Observation], conv: Convention, recheck: Recheck, labels: str,
                rate: Fraction | None, float_rate: Fraction, max_epochs: int) -> StartedRun | None:
    """The note's float64 perceptron from the implementation's own start (`read_start`, per feature count) that
    reproduces every dataset tried (at most `MAX_STARTED`), under one convention, rate and epoch cap; or None."""
    used = observations[:MAX_STARTED]
    starts: dict[int, tuple[Canonical, Canonical]] = {}
    for o in used:
        if o.data.n_features not in starts:
            read = read_start(o.data, conv, recheck, labels)
            if read is None:
                return None
            starts[o.data.n_features] = read
    seen = [conv.to_canonical(o.weights) for o in used]
    first = used[0]
    for name in (conv.name, *(c for c in CONVENTIONS if c != conv.name)):
        other = get_convention(name)
        for r in _rates(starts[first.data.n_features], other, labels, rate, float_rate):
            for start in starts[first.data.n_features]:
                ends = _ends(first.data, other, r, start, labels, max_epochs)
                caps = _caps(ends, seen[0]) if ends is not None else _Caps(frozenset(), None)
                for o, w in zip(used[1:], seen[1:]):
                    if caps.least() is None:
                        break
                    caps = caps & _fitting(o, w, other, r, starts[o.data.n_features], labels, max_epochs)
                epochs = caps.least()
                if epochs is not None:
                    uncapped = epochs == caps.beyond
                    also = _same_steps(used, seen, starts, other, r, labels, max_epochs, epochs)
                    return StartedRun(start, name, r, None if uncapped else epochs, caps.beyond is not None, also)
    return None


def _same_steps(used: list[Observation], seen: list[Canonical], starts: dict[int, tuple[Canonical, Canonical]],
                found: Convention, rate: Fraction, labels: str, max_epochs: int,
                epochs: int) -> tuple[tuple[str, Fraction], ...]:
    """The other conventions that, at the rate giving the same steps as `found`'s at `rate`, fit every dataset at
    `epochs` too (where no score is ever exactly 0, the tie rules do not tell them apart)."""
    def per(conv: Convention) -> Fraction:
        return conv.step_size(Fraction(1)) / (2 if halves_step(conv, labels) else 1)

    fits = []
    for name in CONVENTIONS:
        other = get_convention(name)
        if name == found.name:
            continue
        r = rate * per(found) / per(other)
        if all(_fitting(o, w, other, r, starts[o.data.n_features], labels, max_epochs).has(epochs)
               for o, w in zip(used, seen)):
            fits.append((name, r))
    return tuple(fits)


def _fitting(o: Observation, seen: Canonical, conv: Convention, rate: Fraction, starts: tuple[Canonical, Canonical],
             labels: str, max_epochs: int) -> _Caps:
    """The caps at which either start read on `o`'s shape gives its weights."""
    caps = _Caps(frozenset(), None)
    for start in starts:
        ends = _ends(o.data, conv, rate, start, labels, max_epochs)
        if ends is not None:
            caps = caps | _caps(ends, seen)
    return caps
