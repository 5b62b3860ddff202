"""Brent's cycle detection over a run's epoch boundaries: the one watch both engines use."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["CycleWatch"]


class CycleWatch:
    """Brent's cycle detection over the weights at epoch boundaries, in constant memory.

    Each epoch's final weights are compared with one saved state, saved again
    at distances 1, 2, 4, ... epochs. A deterministic run that returns to a
    state repeats forever; it is caught within about three times its tail
    plus period. Both engines use this one watch, so they stop at the same epoch.

    It also keeps the per-sample mistake counts of the saved epoch, so that on
    a repeat `cycle_mistakes` holds the mistakes made over the repeated epochs
    (the certificate of non-separability), however many updates a run kept.

    Examples
    --------
    >>> watch = CycleWatch((0, 0), [0, 0])
    >>> watch.seen_before((1, 0), 1, [1, 0]), watch.seen_before((1, 0), 2, [2, 1])
    (None, (1, 2))
    >>> watch.cycle_mistakes
    (1, 1)
    """

    def __init__(self, start: object, counts: Sequence[int]) -> None:
        self.saved, self.saved_epoch, self.power = start, 0, 1
        self.saved_counts = np.array(counts, dtype=np.int64)
        self.cycle_mistakes: tuple[int, ...] | None = None

    @property
    def fits_int64(self) -> bool:
        """Whether the saved state is a vector of integers that int64 holds (for the compiled pass)."""
        saved = self.saved
        return isinstance(saved, (list, tuple)) and all(
            isinstance(v, int) and -(2**63) <= v < 2**63 for v in saved)

    def seen_before(self, state: object, epoch: int, counts: Sequence[int]) -> tuple[int, int] | None:
        """``(e1, epoch)`` when `state` equals the state after epoch e1, else None.

        `counts` are the mistakes per sample so far (N_μ).
        """
        if state == self.saved:
            self.cycle_mistakes = tuple((np.array(counts, dtype=np.int64) - self.saved_counts).tolist())
            return self.saved_epoch, epoch
        if epoch - self.saved_epoch == self.power:
            self.saved, self.saved_epoch, self.power = state, epoch, 2 * self.power
            self.saved_counts = np.array(counts, dtype=np.int64)
        return None
