"""Which samples an online run got wrong in each epoch, one bit per presentation: its mistakes, replayable.

An online pass presents the samples in order and each at most once, so the
run's sequence of mistaken samples is exactly, epoch by epoch, the set bits
of a bitmap of n bits: n/8 bytes per epoch, whatever the size of the
samples or of the weights. `verify_perceptron.pipeline` keeps one beside a
run whose own updates were too many to keep, so that a check that needs
only which samples were wrong (the soft-margin bound, whose u is known only
at the end) can still be made at every update.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["MistakeMap"]


class MistakeMap:
    """An online run's mistakes as one packed bitmap per epoch, within `capacity` bytes.

    Past the capacity, or on an update it cannot hold (a batch update, a
    sample out of order), `complete` turns False and it keeps nothing more.

    Examples
    --------
    >>> kept = MistakeMap(n_samples=4, capacity=100)
    >>> kept.observe(1, 1, [0], [0]); kept.observe(2, 1, [3], [0]); kept.observe(3, 2, [1], [0])
    >>> kept.complete, [(first, epoch, rows.tolist()) for first, epoch, rows in kept.chunks()]
    (True, [(1, 1, [0, 3]), (3, 2, [1])])
    """

    def __init__(self, n_samples: int, capacity: int) -> None:
        self.n, self.capacity = n_samples, capacity
        self.epochs: list[tuple[int, Any]] = []  # (epoch, packed bits), in order
        self.current: Any = None
        self.epoch = 0
        self.last_row = -1
        self.complete = True

    def _open(self, epoch: int) -> bool:
        """Start `epoch`'s bitmap when it is a new one; False when it does not fit or goes back."""
        if epoch == self.epoch:
            return True
        if epoch < self.epoch or (len(self.epochs) + 2) * (self.n // 8 + 1) > self.capacity:
            self.complete, self.current = False, None
            self.epochs = []
            return False
        self._close()
        self.current, self.epoch, self.last_row = np.zeros(self.n, dtype=bool), epoch, -1
        return True

    def _close(self) -> None:
        if self.current is not None:
            self.epochs.append((self.epoch, np.packbits(self.current)))

    def observe(self, k: int, epoch: int, samples: Sequence[int], scores: Sequence[object]) -> None:
        if not self.complete:
            return
        if len(samples) != 1 or not self._open(epoch) or not self.last_row < samples[0] < self.n:
            self.complete, self.epochs, self.current = False, [], None
            return
        self.current[samples[0]] = True
        self.last_row = samples[0]

    def observe_chunk(self, first: int, epoch: Any, rows: Any, scores: Any) -> None:
        epochs = np.broadcast_to(np.asarray(epoch, dtype=np.int64), (len(rows),))
        start = 0
        while self.complete and start < len(rows):
            e = int(epochs[start])
            stop = start + int(np.searchsorted(epochs[start:], e, side="right"))
            part = np.asarray(rows[start:stop], dtype=np.int64)
            if not self._open(e) or part[0] <= self.last_row or part[-1] >= self.n or (
                    len(part) > 1 and not bool((part[1:] > part[:-1]).all())):
                self.complete, self.epochs, self.current = False, [], None
                return
            self.current[part] = True
            self.last_row = int(part[-1])
            start = stop

    def chunks(self) -> list[tuple[int, int, Any]]:
        """``(first update, epoch, rows)`` for each epoch with a mistake, in order."""
        epochs = self.epochs + ([(self.epoch, np.packbits(self.current))] if self.current is not None else [])
        out, first = [], 1
        for epoch, bits in epochs:
            rows = np.flatnonzero(np.unpackbits(bits, count=self.n)).astype(np.int64)
            out.append((first, epoch, rows))
            first += len(rows)
        return out
