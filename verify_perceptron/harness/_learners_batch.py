"""Many float64 learners run at once on one dataset, in lockstep: the search of combinations (`_combinations`) runs
hundreds of `Spec` s that differ only in their rule, sign, bias step, labels and rate, each up to a thousand epochs
on the counterexample; one pass of NumPy's element-wise operations over all of them replaces a Python loop for each.

Every value is the one `_learners.run` computes, bit for bit: a score is made as the loop makes it (0.0, then each
product w_j·x_j added in order, one rounding each), a step as ``(η·multiple)·sign``, then ``(step·factor_j)·x_j``
added to w_j; NumPy's element-wise float64 ``+`` and ``*`` are IEEE 754's, as Python's are, and no two are fused.
Only the specs `batchable` accepts are run so (a constant rate or a schedule, no penalty, no stop on the loss, the
given or reversed order); the others go to `_learners.run`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from ..data.dataset import Dataset
from ..notes.conventions import Convention
from ._learners import Run, Spec, _decides


def batchable(spec: Spec) -> bool:
    """Whether `run_many` runs `spec`: a float64 run of the plain arithmetic at a constant rate or one of the
    schedules η·1/t, η·1/(t+1), η·1/√t (t by any clock) or ``lr *= decay`` after every epoch, without a penalty or a
    stop on the loss, in the given or the reversed order.

    Examples
    --------
    >>> batchable(Spec(step=0.1)), batchable(Spec()), batchable(Spec(step=0.1, order="restart"))
    (True, False, False)
    >>> batchable(Spec(step=0.1, schedule="1/t", clock="update")), batchable(Spec(step=0.1, penalty="l2"))
    (True, False)
    """
    scheduled = spec.schedule in (None, "1/t", "1/(t+1)", "1/sqrt(t)") or (spec.schedule, spec.clock) == (
        "exponential", "epoch")
    return (spec.step is not None and spec.arithmetic == "plain" and scheduled and spec.penalty is None
            and spec.stop is None and spec.order in ("given", "reversed") and spec.random_state is None
            and spec.class_weight is None)


def _below(tolerance: Fraction) -> float:
    """The largest double <= `tolerance`: a double m is <= `tolerance` exactly when m <= it.

    Examples
    --------
    >>> _below(Fraction(1, 10)) < 0.1 and Fraction(_below(Fraction(1, 10))) < Fraction(1, 10)
    True
    >>> _below(Fraction(1, 2))
    0.5
    """
    near = float(tolerance)
    return near if Fraction(near) <= tolerance else math.nextafter(near, -math.inf)


def run_many(data: Dataset, conv: Convention, specs: Sequence[Spec], epochs: int) -> list[Run]:
    """`_learners.run(data, conv, spec, epochs)` for every one of `specs` (all `batchable`; of both orders, each spec
    is given its own sample at each presentation), at once.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> from verify_perceptron.harness._learners import run
    >>> specs = [Spec(step=0.1), Spec(step=0.1, sign=-1), Spec(step=0.5, tie="plus")]
    >>> conv = get_convention("classic")
    >>> [r.ends for r in run_many(example("and"), conv, specs, 50)] == [run(example("and"), conv, s, 50).ends
    ...                                                                  for s in specs]
    True
    """
    if not specs:
        return []
    with np.errstate(over="ignore", invalid="ignore"):  # inf and nan as Python's floats make them: an overflow stop
        return _run_many(data, conv, specs, epochs)


class _Rates:
    """The specs' rates η_t (`_learners._rate`), as arrays over the live specs: the same doubles, made as it makes
    them (η/t, η/(t+1), η/√t: one division each; ``lr *= decay``: one product an epoch)."""

    def __init__(self, specs: Sequence[Spec]) -> None:
        self.base = np.array([s.step for s in specs], dtype=float)
        kind = np.array([str(s.schedule) for s in specs])
        self.over_t, self.over_t1, self.over_root = kind == "1/t", kind == "1/(t+1)", kind == "1/sqrt(t)"
        self.decaying = kind == "exponential"
        self.scheduled = bool((kind != "None").any())
        clock = np.array([s.clock for s in specs])
        self.by_presentation, self.by_update = clock == "presentation", clock == "update"
        self.decay = np.array([s.decay for s in specs])
        self.decayed = self.base.copy()  # ``lr *= decay`` once an epoch: this epoch's rate
        self.updates = np.zeros(len(specs), dtype=np.int64)

    def keep(self, rows: np.ndarray) -> None:
        """Only these rows go on."""
        for name in ("base", "over_t", "over_t1", "over_root", "decaying", "by_presentation", "by_update", "decay",
                     "decayed", "updates"):
            setattr(self, name, getattr(self, name)[rows])

    def next_epoch(self, epoch: int) -> None:
        if epoch > 1:
            self.decayed = np.where(self.decaying, self.decayed * self.decay, self.decayed)

    def now(self, presented: int, epoch: int) -> np.ndarray:
        """η_t of each live spec at this presentation (the `presented`-th, of epoch `epoch`)."""
        if not self.scheduled:
            return self.base
        t = np.where(self.by_presentation, presented, np.where(self.by_update, self.updates + 1, epoch)).astype(float)
        eta = np.where(self.over_t, self.base / t, self.base)
        eta = np.where(self.over_t1, self.base / (t + 1), eta)
        eta = np.where(self.over_root, self.base / np.sqrt(t), eta)
        return np.where(self.decaying, self.decayed, eta)


#: The tie rules of `_learners.TIES`, by their index here in the decision tables of `_Rules`.
_TIES = ("note", "strict", "plus", "minus", "zero")


class _Rules:
    """The specs' rules of a mistake (`_learners._mistake`), as arrays over the live specs, and the conditions that
    arose in their runs (`Run.fired`, `Run.least_margin`). A rule's verdict and its step's multiple are looked up by
    the rule, the label and the score's sign (all that `_mistake` looks at without a tolerance)."""

    def __init__(self, specs: Sequence[Spec], conv: Convention) -> None:
        decides = _decides(conv)
        self.mistakes, self.multiples = np.zeros(len(_TIES) * 8, dtype=bool), np.ones(len(_TIES) * 8, dtype=np.int64)
        for r, tie in enumerate(_TIES):
            for label in (-1, 1):
                for sign in (-1, 0, 1, None):  # None: a score that is NaN (inf - inf), neither > 0, < 0 nor 0
                    mistake, multiple = _verdict(tie, decides, sign, label)
                    where = r * 8 + (label > 0) * 4 + (3 if sign is None else sign + 1)
                    self.mistakes[where], self.multiples[where] = mistake, multiple
        self.rule = np.array([_TIES.index(s.tie) * 8 + 1 for s in specs], dtype=np.int64)
        self.tolerant = np.array([bool(s.tolerance) and s.tie in ("note", "strict") for s in specs])
        self.limit = np.array([_below(s.tolerance) for s in specs])
        self.strict = np.array([s.tie == "strict" for s in specs])
        self.least = np.full(len(specs), math.inf)
        self.flags = {name: np.zeros(len(specs), dtype=bool) for name in ("tie", "tolerance", "class-1", "orders")}

    def keep(self, rows: np.ndarray) -> None:
        """Only these rows go on."""
        for name in ("rule", "tolerant", "limit", "strict", "least"):
            setattr(self, name, getattr(self, name)[rows])
        self.flags = {name: flag[rows] for name, flag in self.flags.items()}

    def tell(self, result: Run, row: int) -> None:
        """What arose in `row`'s run, into its `result`."""
        result.fired = {name for name, arose in self.flags.items() if arose[row]}
        result.least_margin = float(self.least[row])

    def decide(self, score: np.ndarray, margin: np.ndarray, up: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Whether each live spec updates on its score, and its step's multiple of η·y (`up`: 4 where the label is
        +1, else 0)."""
        positive, at_zero = score > 0, score == 0
        self.flags["tie"] |= at_zero
        key = self.rule + up + positive.view(np.int8) - (score < 0).view(np.int8) + 2 * np.isnan(score).view(np.int8)
        mistake = self.mistakes[key]
        if self.tolerant.any():  # y·score <= ε, a strict rule's tie aside
            by_tolerance = margin <= self.limit
            self.flags["tolerance"] |= self.tolerant & by_tolerance & (margin > 0)
            mistake = np.where(self.tolerant, by_tolerance & ~(self.strict & at_zero), mistake)
        better = (margin > 0) & (margin < self.least)
        self.least = np.where(better, margin, self.least)
        return mistake, self.multiples[key]


def _verdict(tie: str, decides: dict[tuple[int, int], bool], sign: int | None, label: int) -> tuple[bool, int]:
    """`_learners._mistake`'s verdict and multiple for a score of this sign, without a tolerance; a NaN score (`sign`
    None) is as `_mistake` takes it: not >= 0, not > 0, not 0, of sign (NaN > 0) - (NaN < 0) = 0 for a note's rule."""
    if sign is None:
        return (decides[(0, label)], 1) if tie in ("note", "strict") else (-1 != label, 2)
    if tie == "plus":
        return (1 if sign >= 0 else -1) != label, 2
    if tie == "minus":
        return (1 if sign > 0 else -1) != label, 2
    if tie == "zero":
        return sign == 0 or (1 if sign > 0 else -1) != label, 1 if sign == 0 else 2
    return decides[(sign, label)] and not (tie == "strict" and sign == 0), 1


class _History:
    """Every spec's weights and sums at the end of each epoch (`Run.ends`, `Run.sums`), kept as arrays (epoch, spec,
    coordinate), and the hashes of the weights met, to find a state met before (`_learners._Epochs`: a cycle)."""

    def __init__(self, S: int, D: int) -> None:
        self.S, self.D, self.epochs = S, D, 0
        self.ends, self.sums = np.zeros((16, S, D)), np.zeros((16, S, D))
        self.hashes = np.zeros((16, S), dtype=np.int64)
        self.seen: list[set[int]] = [set() for _ in range(S)]
        self.mix = np.arange(1, 2 * D, 2, dtype=np.int64) * np.int64(0x9E3779B97F4A7C15 - 2**64)

    def keep(self, live: np.ndarray, W: np.ndarray, total: np.ndarray, clean: np.ndarray) -> list[int]:
        """The live specs' weights `W` and sums `total` after the next epoch; the rows of those (not `clean`) whose
        weights are their weights after an epoch before, exactly (their hash first)."""
        e = self.epochs
        if e == len(self.ends):  # twice the room
            self.ends, self.sums, self.hashes = (np.concatenate([a, np.zeros_like(a)])
                                                 for a in (self.ends, self.sums, self.hashes))
        self.ends[e, live], self.sums[e, live] = W, total
        with np.errstate(over="ignore"):  # (a hash: it wraps around)
            hashes = ((W + 0.0).view(np.int64) * self.mix).sum(axis=1)  # + 0.0: -0.0 is 0.0, as == has it
        self.hashes[e, live] = hashes
        self.epochs += 1
        met = []
        for row, k, h, done in zip(range(len(live)), live.tolist(), hashes.tolist(), clean.tolist()):
            if done:
                continue
            seen = self.seen[k]
            if h not in seen:
                seen.add(h)
            elif ((self.hashes[:e, k] == h) & (self.ends[:e, k] == W[row]).all(axis=1)).any():
                met.append(row)
        return met

    def tell(self, result: Run, k: int) -> None:
        """Spec `k`'s epochs' ends and sums, into its `result`."""
        n = self.epochs
        result.ends = list(map(tuple, self.ends[:n, k].tolist()))
        result.sums = list(map(tuple, self.sums[:n, k].tolist()))


def _sample(rows: np.ndarray, labels: np.ndarray, backwards: np.ndarray, position: int,
            mixed: bool) -> tuple[np.ndarray, Any, np.ndarray, Any]:
    """The sample presented at `position` of an epoch: its row, label, columns (each one's value or values) and
    whether its label is -1; with both orders `mixed`, (S, D) rows and S labels, each spec's own."""
    n = len(rows)
    if mixed:
        x = np.where(backwards[:, None], rows[n - 1 - position], rows[position])
        label = np.where(backwards, labels[n - 1 - position], labels[position])
        return x, label, x.T, label < 0
    i = n - 1 - position if backwards[0] else position
    return rows[i], int(labels[i]), rows[i], int(labels[i]) < 0


def _run_many(data: Dataset, conv: Convention, specs: Sequence[Spec], epochs: int) -> list[Run]:
    if not all(batchable(s) for s in specs):
        raise ValueError(f"run_many: not all of {len(specs)} specs are float64 runs at a constant rate or a schedule")
    rows = np.array([[float(v) for v in conv.augment(x)] for x in data.X])
    labels = np.array(data.y, dtype=np.int64)
    n = len(rows)
    backwards = np.array([s.order == "reversed" for s in specs])
    mixed = bool(backwards.any() and not backwards.all())  # both orders: each spec's sample taken apart
    bias = 0 if conv.bias_first else data.n_features
    S, D = len(specs), len(rows[0])
    results = [Run(presentations=n) for _ in specs]
    W, total = np.zeros((S, D)), np.zeros((S, D))
    factors = np.ones((S, D))
    factors[:, bias] = [float(s.bias) for s in specs]
    sign0 = np.array([s.sign * conv.step_factor for s in specs], dtype=np.int64)
    sign_negative = np.where([s.labels01 for s in specs], 0, -sign0)  # a step's sign on class -1 (0/1: none)
    rates, rules = _Rates(specs), _Rules(specs, conv)
    history = _History(S, D)
    live = np.arange(S)  # the specs still running, as indices into `specs`
    presented = 0
    for epoch in range(1, epochs + 1):
        clean = np.ones(len(live), dtype=bool)
        rates.next_epoch(epoch)
        for position in range(n):
            x, label, columns, negative = _sample(rows, labels, backwards, position, mixed)
            presented += 1
            eta = rates.now(presented, epoch)
            score = np.zeros(len(live))
            for j in range(D):
                score = score + W[:, j] * columns[j]
            mistake, multiple = rules.decide(score, label * score, np.where(label > 0, 4, 0))
            if mistake.any():
                clean &= ~mistake
                if np.any(negative):
                    rules.flags["class-1"] |= mistake & negative
                step = (eta * multiple) * np.where(negative, sign_negative, sign0)
                rates.updates += mistake
                moved = W + (step[:, None] * factors) * x
                W = np.where(mistake[:, None], moved, W)
                broken = mistake & ~np.isfinite(moved).all(axis=1) if not np.isfinite(moved).all() else None
                if position < n - 1:
                    rules.flags["orders"] |= mistake if broken is None else mistake & ~broken
                if broken is not None and broken.any():
                    for row in np.flatnonzero(broken).tolist():
                        results[live[row]].stop = "overflow"
                        rules.tell(results[live[row]], row)
                        history.tell(results[live[row]], live[row])
                    keep = ~broken
                    live, W, total, clean = live[keep], W[keep], total[keep], clean[keep]
                    factors, sign0, sign_negative = factors[keep], sign0[keep], sign_negative[keep]
                    backwards = backwards[keep]
                    rates.keep(keep)
                    rules.keep(keep)
                    if not len(live):
                        return results
            total = total + W
        ended = clean.copy()
        for row in history.keep(live, W, total, clean):  # a state met at an epoch's end before
            results[live[row]].stop, ended[row] = "cycles", True
        for row in np.flatnonzero(clean).tolist():
            results[live[row]].stop = "converged"
        if ended.any() or epoch == epochs:
            for row in np.flatnonzero(ended if epoch < epochs else np.ones(len(live), dtype=bool)).tolist():
                rules.tell(results[live[row]], row)
                history.tell(results[live[row]], live[row])
            keep = ~ended
            live, W, total = live[keep], W[keep], total[keep]
            factors, sign0, sign_negative = factors[keep], sign0[keep], sign_negative[keep]
            backwards = backwards[keep]
            mixed = bool(backwards.any() and not backwards.all())
            rates.keep(keep)
            rules.keep(keep)
            if not len(live):
                break
    return results
