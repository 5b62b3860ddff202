"""How many mistakes a run makes, fast: the reference engine's loop on integers.

From w = 0, scaling every augmented sample by the same L > 0 scales every
weight vector of the run by L (by induction over the updates) and changes no
score's sign, so it changes no decision of any note's rule. With L the
common denominator of the data, every score is an integer. The loop is
otherwise the engine's: online mode, rate 1 (from w = 0 the rate only
scales the weights), stop after a pass without a mistake, or when the
weights at the end of a pass equal those saved at the end of an earlier one
(a cycle; saved, as the engine does, at distances 1, 2, 4, ... passes: Brent's
method), or after `max_epochs` passes. The tests hold it to the engine's
counts, stops and final weights.
"""

from __future__ import annotations

import math
from operator import mul
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..notes.conventions import get_convention
from ..data.dataset import Dataset

__all__ = ["Count", "MistakeCounter"]


@dataclass(frozen=True)
class Count:
    """One run: its mistakes (= updates, online), why it stopped, and its final weights."""

    n_updates: int
    stop: str
    final_weights: tuple[Fraction, ...]


class MistakeCounter:
    """Runs of one convention on one dataset, in any presentation order.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> count = MistakeCounter(example("and"), "classic").count(range(4))
    >>> count.n_updates, count.stop, [str(w) for w in count.final_weights]
    (18, 'converged', ['-4', '3', '2'])
    """

    def __init__(self, data: Dataset, convention: str) -> None:
        self.convention = get_convention(convention)
        scale = 1
        for x in data.X:
            for value in x:
                scale = scale * value.denominator // math.gcd(scale, value.denominator)
        self.scale = scale
        self.rows = [tuple(int(v * scale) for v in self.convention.augment(x)) for x in data.X]
        self.labels = data.y

    def count(self, order: Sequence[int], *, max_epochs: int = 1000) -> Count:
        """Run with the samples presented in `order` (``order[k]`` is the k-th sample shown)."""
        decide = self.convention.decide
        samples = [(self.rows[i], self.labels[i]) for i in order]
        w = tuple(0 for _ in self.rows[0])
        saved, saved_epoch, power = w, 0, 1
        n_updates, stop, epoch = 0, "max-epochs", 0
        while epoch < max_epochs:
            epoch += 1
            before = n_updates
            for row, label in samples:
                factor = decide(sum(map(mul, w, row)), label, 1)  # type: ignore[arg-type]
                if factor is not None:  # a mistake under the note's rule
                    step = int(factor)
                    w = tuple([a + step * b for a, b in zip(w, row)])
                    n_updates += 1
            if n_updates == before:
                stop = "converged"
                break
            if w == saved:  # the same weights at two pass ends: the run repeats forever
                stop = "cycle"
                break
            if epoch - saved_epoch == power:
                saved, saved_epoch, power = w, epoch, 2 * power
        return Count(n_updates, stop, tuple(Fraction(a, self.scale) for a in w))
