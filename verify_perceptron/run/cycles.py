"""The cycle watch over a run's epoch boundaries, in constant memory: the one watch both engines use."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

import numpy as np
import numpy.typing as npt

__all__ = ["CycleWatch"]

#: An engine's state at an epoch boundary (its weights), compared with ==.
State = TypeVar("State")
#: Mistakes per sample: a sequence of ints or an int64 array.
Counts = Sequence[int] | npt.NDArray[np.int64]


class CycleWatch(Generic[State]):
    """Cycle detection over the weights at epoch boundaries, in constant memory.

    Two states are kept. The weights after the previous epoch catch a period
    of one epoch (an epoch whose mistakes sum to a zero step) at its first
    repeat. Brent's saved state, saved again at epochs 1, 3, 7, ..., 2^k - 1,
    catches every longer period: with a tail of μ epochs before the cycle and
    a period of p, it finds the repeat at epoch 2^k - 1 + p for the least k
    with 2^k - 1 >= μ and 2^k >= p, fewer than max(μ + 1, 2p) epochs after
    the first repeat at epoch μ + p. Both engines use this one watch, so they
    stop at the same epoch.

    Why not always at the first repeat: until then the states w_0, ..., w_(e-1)
    are pairwise distinct, and w_e may return to any of them. A watch that
    holds k states sees a repeat at epoch e only if the state it returns to
    is one of those k; its choice of what to keep depends only on the run so
    far, so the run that returns to a state it dropped is missed at e. For a
    watch that knows of the run only that it is deterministic, stopping at
    every first repeat means keeping all e states (a hash of each would still
    grow with e, and a collision would report a repeat that is not one).
    Period 1 is the exception: the one state it can return to is w_(e-1).

    On a repeat `cycle_mistakes` holds the mistakes per sample made over the
    repeated epochs, which sum to a zero step (the certificate of
    non-separability), however many updates a run kept: from the mistake
    counts saved with Brent's state, or, for period 1, as the mistakes of one
    epoch from the repeated weights, which the engine's `one_epoch` recounts
    (that epoch is the one just made, the run being deterministic).

    Examples
    --------
    >>> watch = CycleWatch((0, 0), [0, 0], lambda w: [1, 1])
    >>> watch.seen_before((1, 0), 1, [1, 0]), watch.seen_before((2, 0), 2, [2, 1])
    (None, None)
    >>> watch.seen_before((2, 0), 3, [3, 2]), watch.cycle_mistakes  # the first repeat: period 1
    ((2, 3), (1, 1))
    >>> watch = CycleWatch((0, 0), [0, 0], lambda w: [1, 1])
    >>> [watch.seen_before(w, e, [e, e]) for e, w in enumerate([(1, 0), (2, 0), (1, 0)], start=1)]
    [None, None, (1, 3)]
    >>> watch.cycle_mistakes  # period 2, found by Brent's saved state
    (2, 2)
    """

    def __init__(self, start: State, counts: Counts, one_epoch: Callable[[State], Sequence[int]]) -> None:
        self.saved, self.saved_epoch, self.power = start, 0, 1
        self.saved_counts = np.array(counts, dtype=np.int64)
        self.last, self.last_epoch = start, 0
        self.one_epoch = one_epoch
        self.cycle_mistakes: tuple[int, ...] | None = None

    def passed(self, state: State, epoch: int) -> None:
        """Note the state after `epoch`, which the engine went past without asking (a compiled pass compared it)."""
        self.last, self.last_epoch = state, epoch

    def seen_before(self, state: State, epoch: int, counts: Counts) -> tuple[int, int] | None:
        """``(e1, epoch)`` when `state` equals the state after epoch e1, else None.

        `counts` are the mistakes per sample so far (N_μ).
        """
        if state == self.last and epoch == self.last_epoch + 1:  # period 1: caught at its first repeat
            self.cycle_mistakes = tuple(int(c) for c in self.one_epoch(state))
            return self.last_epoch, epoch
        if state == self.saved:
            self.cycle_mistakes = tuple((np.array(counts, dtype=np.int64) - self.saved_counts).tolist())
            return self.saved_epoch, epoch
        if epoch - self.saved_epoch == self.power:
            self.saved, self.saved_epoch, self.power = state, epoch, 2 * self.power
            self.saved_counts = np.array(counts, dtype=np.int64)
        self.passed(state, epoch)
        return None
