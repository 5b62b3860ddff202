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

Code whose features start at 0 but whose bias starts at a seeded random value (``b = rng.normal(scale=0.1)``)
shows nothing on that probe (its features start at 0); `read_bias_start` reads it on the same probes: the far
sample's one step moves the first feature alone (by the step times `FAR`, which gives the step exactly), and the
bias's two answers are float64 sums of whole steps from its start, so the starts that give both are searched.

The note's perceptron is then run in float64 from that start (`_floats._float_run`, each score summed
in either order of `_floats.SUMS`), under each convention (a tie rule), at each rate, capped at each
epoch count the counterexample allows, and named when it reproduces every dataset tried.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from ..data.dataset import Dataset
from ..data.exact_text import nearest_float
from ..notes.conventions import CONVENTIONS, Convention, get_convention
from ._evidence import Observation
from ._exact import Vector
from ._floats import SUMS, _float_run, halves_step, short_rates
from ._probes import Recheck

#: Most datasets tried the model from the read start is run on (each read costs four calls per feature count).
MAX_STARTED = 30
#: The first feature's value in the far sample of `read_start`'s probes.
FAR = Fraction(2**60)
#: The whole numbers of steps tried between the bias's two answers (a rate read off their difference).
STEPS = range(1, 9)
#: The least number of samples of `read_bias_start`'s probes (the zeros then step the bias back in one epoch from
#: a start up to that many steps away), and the units in the last place it looks around.
BIAS_SAMPLES = 64
ULPS = 3

Canonical = tuple[Fraction, tuple[Fraction, ...]]


@dataclass(frozen=True)
class Read:
    """A start read off an implementation on one shape: its candidates, and the gap a whole number of its steps
    spans (the rate's evidence where it is not declared)."""

    starts: tuple[Canonical, ...]
    gap: Fraction


#: How a start is read on a dataset's shape (`read_start`, `read_bias_start`), or None where it cannot be.
Reader = Callable[[Dataset, Convention, Recheck, str], "Read | None"]


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
    sums: str = "bias-last"


def _probe(data: Dataset, label: int, value: Fraction, least: int = 0) -> Dataset:
    """`data`'s shape (at least `least` samples) with every value 0 and label `label`, but the last sample: `value`
    on the first feature, label -`label`."""
    n, d = max(data.n_samples, least), data.n_features
    zero = tuple(Fraction(0) for _ in range(d))
    far = (value, *zero[1:])
    return Dataset(X=(zero,) * (n - 1) + (far,), y=(label,) * (n - 1) + (-label,), source=data.source,
                   binary_float=data.binary_float)


def read_start(data: Dataset, conv: Convention, recheck: Recheck, labels: str) -> Read | None:
    """The two candidate starts ``(b, v)`` of an implementation on `data`'s shape (and the bias's gap between them),
    or None where they cannot be read (a call gives no weights, the features' answers differ, the first feature
    starts at 0).

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
    ...                                                        get_convention("classic"), seeded, "-1/+1").starts]
    [('1/4', ['1/8']), ('-3/4', ['1/8']), ('0', ['1/8'])]
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
    pair = min(found, key=lambda pair: abs(pair[0][1][0]))  # the far sample's step moves the other side's a lot
    # a bias that starts at exactly 0 (``w = rng.normal(size=d); b = 0``) predicts neither label: it ends a step
    # away on both probes, so 0 is a candidate too
    zero = () if 0 in (pair[0][0], pair[1][0]) else ((Fraction(0), pair[0][1]),)
    return Read((*pair, *zero), abs(pair[0][0] - pair[1][0]))


def read_bias_start(data: Dataset, conv: Convention, recheck: Recheck, labels: str) -> Read | None:
    """The starts ``(b, 0)`` of an implementation whose features start at 0 that give its answers on `_probe`'s
    two probes (`BIAS_SAMPLES` samples at least), the least first, and its step; None where a call gives no
    weights, a feature's weight but the first is not 0 (the features do not start at 0: `read_start`'s case), the
    first's is 0 or differs between the probes, or a start of 0 gives the answers too.

    On the probes the far sample is one mistake, the first time the bias predicts the zeros' label (its first
    feature's weight still 0); its step moves the first feature's weight by the step times `FAR` (so the step is
    read exactly) and the bias by a step away from that label, and the zeros then step it back to that label's
    side. The bias's path is then a float64 sum of whole steps, so the starts near each answer, a step or two
    from it and a few units in the last place either way, are tried (`_bias_path`) on both probes. Starts a whole
    number of steps apart can give the same answers (a start past one step walks back to the same place): the
    datasets tell them apart.

    Examples
    --------
    >>> from verify_perceptron.data.dataset import from_arrays
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> def bias_seeded(data, labels, name):  # the classic rule from (b, v) = (5/4, 0), steps of 1/2
    ...     b, v = 1.25, 0.0
    ...     for _ in range(4):
    ...         for x, t in zip(data.X, data.y):
    ...             if t * (v * float(x[0]) + b) <= 0:
    ...                 b, v = b + t / 2, v + t * float(x[0]) / 2
    ...     return data, (Fraction(b), Fraction(v)), False
    >>> found = read_bias_start(from_arrays([[1], [2]], [-1, 1]), get_convention("classic"), bias_seeded, "-1/+1")
    >>> [str(b) for b, _ in found.starts], str(found.gap)
    (['5/4'], '1/2')
    """
    answers: list[tuple[float, Fraction]] = []
    for label in (1, -1):
        _, weights, _ = recheck(_probe(data, label, -label * FAR, least=BIAS_SAMPLES), labels, conv.name)
        if weights is None:
            return None
        b, v = conv.to_canonical(weights)
        bias = nearest_float(b)
        if any(v[1:]) or not v[0] or bias is None or Fraction(bias) != b:
            return None
        answers.append((bias, v[0]))
    if answers[0][1] != answers[1][1]:
        return None
    step = nearest_float(abs(answers[0][1]) / FAR)
    if not step:
        return None
    zero = tuple(Fraction(0) for _ in range(data.n_features))
    near = {c for bias, _ in answers for k in (0, 1, 2) for c in _around(bias + k * step, bias - k * step)}

    def gives(c: float) -> bool:
        return any(all(_bias_path(c, label, step, ties) == bias for (bias, _), label in zip(answers, (1, -1)))
                   for ties in (True, False))

    if gives(0.0):  # a zero start gives them: nothing is read (starts a whole number of steps apart give them too)
        return None
    fits = sorted((c for c in near if gives(c)), key=abs)
    return Read(tuple((Fraction(c), zero) for c in fits), Fraction(step)) if fits else None


def _around(*values: float) -> set[float]:
    """The doubles within `ULPS` units in the last place of each value."""
    found = set()
    for value in values:
        up = down = value
        found.add(value)
        for _ in range(ULPS):
            up, down = math.nextafter(up, math.inf), math.nextafter(down, -math.inf)
            found.update((up, down))
    return found


def _bias_path(start: float, label: int, step: float, ties: bool) -> float:
    """The bias's end on `read_bias_start`'s probe with zeros labelled `label`, from `start`, in float64: the zeros
    step it by ``label·step`` until it predicts their label (a score of 0 a mistake when `ties`), the far sample then
    once by ``-label·step``, and the zeros back again."""
    def back(b: float) -> float:
        for _ in range(BIAS_SAMPLES):
            if label * b > 0 or (not ties and b == 0):
                return b
            b += label * step
        return b

    return back(back(start) - label * step)


def _rates(gap: Fraction, conv: Convention, labels: str, rate: Fraction | None,
           float_rate: Fraction) -> list[Fraction]:
    """The declared rate; else the rates whose steps, a whole number of them, span `gap` (their short decimals
    first: the gap is a float64 difference, 0.01 - (0.01 - 1) is not 1), then the one the weights show."""
    if rate is not None:
        return [rate]
    per = conv.step_size(Fraction(1)) / (2 if halves_step(conv, labels) else 1)
    found = [r for k in STEPS if gap for r in (*short_rates(gap / k / per)[1:], gap / k / per)]  # short ones first
    return list(dict.fromkeys([*found, *short_rates(float_rate)]))


def _floats(start: Canonical) -> tuple[float, list[float]] | None:
    b = nearest_float(start[0])
    v = [nearest_float(w) for w in start[1]]
    if b is None or any(w is None for w in v):
        return None
    return b, [w for w in v if w is not None]


def _ends(data: Dataset, conv: Convention, rate: Fraction, start: Canonical, labels: str,
          max_epochs: int, sums: str = "bias-last") -> tuple[list[Canonical], bool] | None:
    """The float64 run's canonical weights at each epoch's end from `start`, and whether it ended before the limit."""
    doubles = _floats(start)
    if doubles is None:
        return None
    ends: list[Vector] = []
    final, _, _ = _float_run(data, conv, rate, max_epochs, labels, start=doubles, ends=ends, sums=sums)
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
                rate: Fraction | None, float_rate: Fraction, max_epochs: int,
                reader: Reader = read_start) -> StartedRun | None:
    """The note's float64 perceptron from the implementation's own start (read by `reader`, per feature count) that
    reproduces every dataset tried (at most `MAX_STARTED`), under one convention, rate and epoch cap; or None."""
    used = observations[:MAX_STARTED]
    starts: dict[int, Read] = {}
    for o in used:
        if o.data.n_features not in starts:
            read = reader(o.data, conv, recheck, labels)
            if read is None:
                return None
            starts[o.data.n_features] = read
    seen = [conv.to_canonical(o.weights) for o in used]
    first = used[0]
    for name, sums in ((n, s) for n in (conv.name, *(c for c in CONVENTIONS if c != conv.name)) for s in SUMS):
        other = get_convention(name)
        for r in _rates(starts[first.data.n_features].gap, other, labels, rate, float_rate):
            for start in starts[first.data.n_features].starts:
                ends = _ends(first.data, other, r, start, labels, max_epochs, sums)
                caps = _caps(ends, seen[0]) if ends is not None else _Caps(frozenset(), None)
                for o, w in zip(used[1:], seen[1:]):
                    if caps.least() is None:
                        break
                    caps = caps & _fitting(o, w, other, r, starts[o.data.n_features], labels, max_epochs, sums)
                epochs = caps.least()
                if epochs is not None:
                    uncapped = epochs == caps.beyond
                    also = _same_steps(used, seen, starts, other, r, labels, max_epochs, epochs, sums)
                    return StartedRun(start, name, r, None if uncapped else epochs, caps.beyond is not None, also,
                                      sums)
    return None


def _same_steps(used: list[Observation], seen: list[Canonical], starts: dict[int, Read],
                found: Convention, rate: Fraction, labels: str, max_epochs: int,
                epochs: int, sums: str) -> tuple[tuple[str, Fraction], ...]:
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
        if all(_fitting(o, w, other, r, starts[o.data.n_features], labels, max_epochs, sums).has(epochs)
               for o, w in zip(used, seen)):
            fits.append((name, r))
    return tuple(fits)


def _fitting(o: Observation, seen: Canonical, conv: Convention, rate: Fraction, starts: Read,
             labels: str, max_epochs: int, sums: str = "bias-last") -> _Caps:
    """The caps at which a start read on `o`'s shape gives its weights."""
    caps = _Caps(frozenset(), None)
    for start in starts.starts:
        ends = _ends(o.data, conv, rate, start, labels, max_epochs, sums)
        if ends is not None:
            caps = caps | _caps(ends, seen)
    return caps
