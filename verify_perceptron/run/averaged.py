"""The averaged perceptron: the average of a run's weights, exactly, in the four ways course code takes it.

Freund and Schapire's averaged perceptron, and Collins's after it, return
w̄ = (1/P)·Σ_p w_p, where w_p are the weights after the p-th presentation of a
sample (every epoch, the clean last one included) and P the presentations.
Code written after Daumé's *A Course in Machine Learning* keeps a counter c
from 1 and returns w - u/c: that is the same sum over P + 1 (the start w_0 = 0
counted). Others average the weights at each epoch's end, or after each
update. `AVERAGES` names the four:

- ``presentations``: (1/P)·Σ_{p=1..P} w_p;
- ``start``: (1/(P+1))·Σ_{p=0..P} w_p, w_0 = 0 (Daumé's counter from 1);
- ``epochs``: (1/E)·Σ_{e=1..E} w at the end of epoch e;
- ``updates``: (1/K)·Σ_{k=1..K} w_k after each update (0 when there is none).

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

__all__ = ["AVERAGES", "averaged_weights"]

Vector = tuple[Fraction, ...]

#: What an average runs over (see the module's docstring).
AVERAGES = ("presentations", "start", "epochs", "updates")


def averaged_weights(trace: Trace, n_samples: int, epochs: int | None = None, over: str = "presentations") -> Vector:
    """The average of the run's weights `over` its presentations, epochs' ends or updates (`AVERAGES`), over
    the run up to its first clean epoch, or over exactly `epochs` epochs when given.

    Examples
    --------
    >>> from verify_perceptron.data.dataset import from_arrays
    >>> from verify_perceptron.run.reference import train
    >>> run = train(from_arrays([[-1], [1]], [-1, 1]), "classic")
    >>> [str(v) for v in averaged_weights(run, 2)], [str(v) for v in averaged_weights(run, 2, epochs=10)]
    (['-1/4', '7/4'], ['-1/20', '39/20'])
    >>> [[str(v) for v in averaged_weights(run, 2, over=kind)] for kind in ("start", "epochs", "updates")]
    [['-1/5', '7/5'], ['0', '2'], ['-1/2', '3/2']]
    """
    segments = presentation_segments(trace, n_samples, epochs)  # (its checks of the mode and of `epochs` too)
    zero = tuple(Fraction(0) for _ in trace.final_weights)
    if over == "updates":
        last = epochs or trace.n_epochs
        kept = [tuple(u.weights) for u in trace.updates if u.epoch <= last]
        return _mean(kept, len(kept), zero)
    if over == "epochs":
        T = epochs or trace.n_epochs
        ends, current, updates = [], zero, iter(trace.updates)
        pending = next(updates, None)
        for e in range(1, T + 1):
            while pending is not None and pending.epoch <= e:
                current, pending = tuple(pending.weights), next(updates, None)
            ends.append(current)
        return _mean(ends, T, zero)
    if over not in ("presentations", "start"):
        raise ValueError(f"over={over!r} must be one of {', '.join(AVERAGES)}")
    P = sum(count for _, count, _ in segments)
    sums = [Fraction(0)] * len(zero)
    for _, count, w in segments:
        if count:
            sums = [s + count * v for s, v in zip(sums, w)]
    return tuple(s / (P + (over == "start")) for s in sums)


def _mean(vectors: list[Vector], count: int, zero: Vector) -> Vector:
    """Σ vectors / count, or `zero` when there are none."""
    if not count:
        return zero
    sums = [Fraction(0)] * len(zero)
    for w in vectors:
        sums = [s + v for s, v in zip(sums, w)]
    return tuple(s / count for s in sums)
