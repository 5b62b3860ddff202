"""A run's presentations: which weights follow each presentation of a sample, as stretches of equal
weights read off a trace (every epoch presents every sample once, in order, in online mode)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ..errors import InvalidArgument
from .trace import Trace

__all__ = ["presentation_segments"]

Vector = Sequence[Fraction]


def presentation_segments(trace: Trace, n_samples: int,
                          epochs: int | None = None) -> list[tuple[int, int, Vector]]:
    """``(first, count, w)`` per stretch of presentations with the same weights after them, in order.

    Presentations are numbered from 0 (epoch e, sample i is (e - 1)·n + i);
    `count` presentations from `first` on leave the weights at `w`.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> from verify_perceptron.run.reference import train
    >>> [(first, count) for first, count, _ in presentation_segments(train(example("and"), "classic"), 4)][:3]
    [(0, 0), (0, 3), (3, 1)]
    """
    if trace.mode != "online":
        raise InvalidArgument(f"mode={trace.mode!r}: the averaged perceptron averages online presentations")
    T = trace.n_epochs if epochs is None else epochs
    if T < 1 or (T > trace.n_epochs and trace.stop != "converged"):
        raise InvalidArgument(f"epochs={epochs!r}: the run stopped ({trace.stop}) after {trace.n_epochs} epochs, "
                              "so the weights of later epochs are not known")
    total = T * n_samples
    current: Vector = tuple(Fraction(0) for _ in trace.final_weights)
    segments: list[tuple[int, int, Vector]] = []
    last = 0
    for update in trace.updates:
        if update.epoch > T:
            break
        p = (update.epoch - 1) * n_samples + update.samples[0]
        segments.append((last, p - last, current))
        current, last = update.weights, p
    segments.append((last, total - last, current))
    return segments
