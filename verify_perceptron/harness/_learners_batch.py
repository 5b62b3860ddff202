"""Many float64 learners run at once on one dataset, in lockstep: the search of combinations (`_combinations`) runs
hundreds of `Spec` s that differ only in their rule, sign, bias step, labels and rate, each up to a thousand epochs
on the counterexample; one pass of NumPy's element-wise operations over all of them replaces a Python loop for each.

Every value is the one `_learners.run` computes, bit for bit: a score is made as the loop makes it (0.0, then each
product w_j·x_j added in order, one rounding each), a step as ``(η·multiple)·sign``, then ``(step·factor_j)·x_j``
added to w_j; NumPy's element-wise float64 ``+`` and ``*`` are IEEE 754's, as Python's are, and no two are fused.
Only the specs `batchable` accepts are run so (a constant rate, no penalty, no stop on the loss, the given or
reversed order); the others go to `_learners.run`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from ..data.dataset import Dataset
from ..notes.conventions import Convention
from ._learners import Run, Spec, _decides


def batchable(spec: Spec) -> bool:
    """Whether `run_many` runs `spec`: a float64 run of the plain arithmetic at a constant rate, without a penalty
    or a stop on the loss, in the given or the reversed order.

    Examples
    --------
    >>> batchable(Spec(step=0.1)), batchable(Spec()), batchable(Spec(step=0.1, order="restart"))
    (True, False, False)
    """
    return (spec.step is not None and spec.arithmetic == "plain" and spec.schedule is None and spec.penalty is None
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
    """`_learners.run(data, conv, spec, epochs)` for every one of `specs` (all `batchable`, of one order), at once.

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


class _Rules:
    """The specs' rules of a mistake (`_learners._mistake`), as arrays over the specs."""

    def __init__(self, specs: Sequence[Spec], conv: Convention) -> None:
        tie = np.array([s.tie for s in specs])
        self.plus, self.minus, self.zero = tie == "plus", tie == "minus", tie == "zero"
        self.by_rule = ~(self.plus | self.minus | self.zero)
        self.tolerant = self.by_rule & np.array([bool(s.tolerance) for s in specs])
        self.limit = np.array([_below(s.tolerance) for s in specs])
        self.strict = tie == "strict"
        self.table = _decides(conv)

    def decide(self, score: np.ndarray, margin: np.ndarray, label: int, live: np.ndarray,
               flags: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Whether each live spec updates on its score, and its step's multiple of η·y; the conditions that arose
        marked in `flags`."""
        at_zero = score == 0
        flags["tie"][live] |= at_zero
        positive, negative = score > 0, score < 0
        rule = [self.table[(1, label)], self.table[(0, label)], self.table[(-1, label)]]
        mistake = np.where(positive, rule[0], np.where(negative, rule[2], rule[1]))
        by_tolerance = margin <= self.limit[live]
        flags["tolerance"][live] |= self.tolerant[live] & by_tolerance & (margin > 0)
        mistake = np.where(self.tolerant[live], by_tolerance, mistake) & ~(self.strict[live] & at_zero)
        hard_plus = np.where(positive | at_zero, 1, -1) != label
        hard_minus = np.where(positive, 1, -1) != label
        mistake = np.where(self.plus[live], hard_plus, np.where(self.minus[live], hard_minus,
                                                                np.where(self.zero[live], at_zero | hard_minus, mistake)))
        return mistake, np.where(self.by_rule[live] | (self.zero[live] & at_zero), 1, 2)


def _run_many(data: Dataset, conv: Convention, specs: Sequence[Spec], epochs: int) -> list[Run]:
    if any(not batchable(s) for s in specs) or len({s.order for s in specs}) != 1:
        raise ValueError(f"run_many: not all of {len(specs)} specs are float64 runs of one order at a constant rate")
    rows = [tuple(float(v) for v in conv.augment(x)) for x in data.X]
    order = list(range(len(rows)))[::-1] if specs[0].order == "reversed" else list(range(len(rows)))
    bias = 0 if conv.bias_first else data.n_features
    S, D = len(specs), len(rows[0])
    results = [Run(presentations=len(order)) for _ in specs]
    W, total = np.zeros((S, D)), np.zeros((S, D))
    factors = np.ones((S, D))
    factors[:, bias] = [float(s.bias) for s in specs]
    eta = np.array([s.step for s in specs], dtype=float)
    sign0 = np.array([s.sign * conv.step_factor for s in specs], dtype=np.int64)
    labels01 = np.array([s.labels01 for s in specs])
    rules = _Rules(specs, conv)
    least = np.full(S, math.inf)
    flags = {name: np.zeros(S, dtype=bool) for name in ("tie", "tolerance", "class-1", "orders")}
    seen: list[set[tuple[float, ...]]] = [set() for _ in specs]
    live = np.arange(S)  # the specs still running, as indices into `specs`
    for _ in range(epochs):
        clean = np.ones(len(live), dtype=bool)
        for position, i in enumerate(order):
            x, label = rows[i], data.y[i]
            score = np.zeros(len(live))
            for j in range(D):
                score = score + W[:, j] * x[j]
            margin = label * score
            mistake, multiple = rules.decide(score, margin, label, live, flags)
            better = (margin > 0) & (margin < least[live])
            least[live[better]] = margin[better]
            if mistake.any():
                clean &= ~mistake
                moved = live[mistake]
                sign = sign0[moved] * label
                if label < 0:
                    flags["class-1"][moved] = True
                    sign = np.where(labels01[moved], 0, sign)
                step = (eta[moved] * multiple[mistake]) * sign
                W[mistake] = W[mistake] + (step[:, None] * factors[moved]) * np.asarray(x)
                broken = ~np.isfinite(W[mistake]).all(axis=1)
                if position < len(order) - 1:
                    flags["orders"][moved[~broken]] = True
                if broken.any():
                    for k in moved[broken]:
                        results[k].stop = "overflow"
                    keep = np.ones(len(live), dtype=bool)
                    keep[np.flatnonzero(mistake)[broken]] = False
                    live, W, total, clean = live[keep], W[keep], total[keep], clean[keep]
                    if not len(live):
                        break
            total = total + W
        if not len(live):
            break
        ended = np.zeros(len(live), dtype=bool)
        for row, k in enumerate(live):
            state, result = tuple(W[row].tolist()), results[k]
            result.ends.append(state)
            result.sums.append(tuple(total[row].tolist()))
            if clean[row]:
                result.stop, ended[row] = "converged", True
            elif state in seen[k]:
                result.stop, ended[row] = "cycles", True
            else:
                seen[k].add(state)
        if ended.any():
            live, W, total = live[~ended], W[~ended], total[~ended]
            if not len(live):
                break
    for k, result in enumerate(results):
        result.fired = {name for name, arose in flags.items() if arose[k]}
        result.least_margin = float(least[k])
    return results
