"""The update observer: what an engine (`verify_perceptron.run`) tells of each update as it happens.

The checker (`verify_perceptron.check.checker.Checker`), the trace recorder
(`verify_perceptron.check.recorder.TraceRecorder`), the report's record of the
whole run (`verify_perceptron.check.whole_run.WholeRun`) and the pipeline's
fan-out and replay store are observers. It lives here, upstream of both the
engines and the checker, so that neither imports the other to name it.

Every value is in scaled integer units (`verify_perceptron.data.samples.scaled_samples`):
the score of sample i before update k is ``W_(k-1)·z_i`` with z_i = y_i·L·x~_i.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeAlias

import numpy as np

from .integers import score_values

__all__ = ["Observer", "ChunkObserver", "Int64Array", "Epochs", "feed"]

#: An int64 array (any shape: a chunk's rows, its epochs, its scores or their (m, 2) halves).
Int64Array: TypeAlias = "np.ndarray[Any, np.dtype[np.int64]]"
#: A chunk's epoch: one int for the whole chunk, or each update's epoch (non-decreasing).
Epochs: TypeAlias = "int | Int64Array"


class Observer(Protocol):
    """Receives each update as it happens, in scaled integer units.

    An observer may also have ``observe_chunk`` (`ChunkObserver`); without it,
    `verify_perceptron.run.fast.feed` tells it of a chunk's updates one by one.
    """

    def observe(self, k: int, epoch: int, samples: Sequence[int], scores: Sequence[int]) -> None:
        """Update k of `epoch` was caused by `samples`, whose scores W_(k-1)·z_i were `scores`."""


class ChunkObserver(Observer, Protocol):
    """An observer that also takes a chunk of online updates at once."""

    def observe_chunk(self, first: int, epoch: Epochs, rows: Int64Array, scores: Int64Array) -> None:
        """Online updates first, first + 1, ... of `epoch`, one mistake each, on `rows` with `scores`.

        `rows` and `scores` are valid during the call only (the engine reuses
        its buffers); scores past int64 come as an (m, L) int64 array of
        64-bit limbs (L = 2, halves, up to 128 bits), which
        `verify_perceptron.data.integers.score_values` joins.
        """


def feed(observer: Observer, first: int, epoch: Any, rows: Any, scores: Any) -> None:
    """Tell `observer` of a chunk of online updates: at once if it can take chunks, else one by one.

    `epoch` is the chunk's epoch, or an array of each update's epoch.

    Examples
    --------
    >>> class Printer:
    ...     def observe(self, k, epoch, samples, scores):
    ...         print(k, epoch, samples, scores)
    >>> feed(Printer(), 5, 2, np.array([3, 7]), np.array([0, -4]))
    5 2 [3] [0]
    6 2 [7] [-4]
    """
    chunk = getattr(observer, "observe_chunk", None)
    if chunk is not None:
        chunk(first, epoch, rows, scores)
        return
    epochs = epoch.tolist() if isinstance(epoch, np.ndarray) else [epoch] * len(rows)
    for t, (i, s, e) in enumerate(zip(rows.tolist(), score_values(scores).tolist(), epochs)):
        observer.observe(first + t, e, [i], [s])
