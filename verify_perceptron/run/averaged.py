"""The averaged perceptron: the average of the weights over every presentation of a run, exactly.

Freund and Schapire's averaged perceptron, and course code after it, return
w̄ = (1/P)·Σ_p w_p, where w_p are the weights after the p-th presentation of a
sample (every epoch, the clean last one included) and P the presentations.
Averaging changes what a run returns, not how it runs, so it applies to every
note's online rule: the run is the note's, the average is read off its trace.
Between two updates the weights do not change, so Σ_p w_p is a sum over the
updates of w_k times the presentations during which w_k was current: O(updates),
not O(presentations).

A run of T epochs that converged earlier keeps its final weights for the
remaining epochs (the course code's fixed T); `epochs` says T.
"""

from __future__ import annotations

from fractions import Fraction

from ..data.presentations import presentation_segments
from ..data.trace import Trace

__all__ = ["averaged_weights"]

Vector = tuple[Fraction, ...]


def averaged_weights(trace: Trace, n_samples: int, epochs: int | None = None) -> Vector:
    """w̄ = (1/P)·Σ_p w_p over the run's presentations (over exactly `epochs` epochs when given).

    Examples
    --------
    >>> from verify_perceptron.data.dataset import from_arrays
    >>> from verify_perceptron.run.reference import train
    >>> run = train(from_arrays([[-1], [1]], [-1, 1]), "classic")
    >>> [str(v) for v in averaged_weights(run, 2)], [str(v) for v in averaged_weights(run, 2, epochs=10)]
    (['-1/4', '7/4'], ['-1/20', '39/20'])
    """
    segments = presentation_segments(trace, n_samples, epochs)
    P = sum(count for _, count, _ in segments)
    sums = [Fraction(0)] * len(trace.final_weights)
    for _, count, w in segments:
        if count:
            sums = [s + count * v for s, v in zip(sums, w)]
    return tuple(s / P for s in sums)
