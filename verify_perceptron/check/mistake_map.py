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

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from ..data.observers import Epochs, Int64Array
from . import kernel as _kernel

__all__ = ["MistakeMap"]


#: At most this many cells (epochs x samples) of booleans are made at once when packing or unpacking.
BLOCK_CELLS = 2**22
#: The number of set bits of each byte.
_ONES = np.array([bin(byte).count("1") for byte in range(256)], dtype=np.uint8)


class MistakeMap:
    """An online run's mistakes as one packed bitmap per epoch, within `capacity` bytes.

    Past the capacity, or on an update it cannot hold (a batch update, a
    sample out of order), `complete` turns False and it keeps nothing more.
    A chunk of updates is taken in whole-array operations, however many
    epochs it spans.

    Examples
    --------
    >>> kept = MistakeMap(n_samples=4, capacity=100)
    >>> kept.observe(1, 1, [0], [0]); kept.observe(2, 1, [3], [0]); kept.observe(3, 2, [1], [0])
    >>> kept.complete, [(first, epoch, rows.tolist()) for first, epoch, rows in kept.chunks()]
    (True, [(1, 1, [0, 3]), (3, 2, [1])])
    """

    def __init__(self, n_samples: int, capacity: int) -> None:
        self.n, self.capacity = n_samples, capacity
        self.epochs: list[int] = []  # the closed epochs with a mistake, in order
        self.bits: list[Any] = []  # their packed bitmaps, blocks of rows (one row an epoch)
        self.current: Any = None  # the open epoch's mistakes, one bool a sample
        self.epoch = 0
        self.last_row = -1
        self.complete = True

    def _fail(self) -> None:
        self.complete, self.epochs, self.bits, self.current = False, [], [], None

    def observe(self, k: int, epoch: int, samples: Sequence[int], scores: Sequence[int]) -> None:
        if len(samples) != 1:
            if self.complete:
                self._fail()
            return
        self.observe_chunk(k, epoch, samples, scores)

    def observe_chunk(self, first: int, epoch: Epochs, rows: Int64Array | Sequence[int], scores: object) -> None:
        if not self.complete or not len(rows):
            return
        rows = np.asarray(rows, dtype=np.int64)
        epochs = np.broadcast_to(np.asarray(epoch, dtype=np.int64), rows.shape)
        new_epoch = epochs[1:] != epochs[:-1]
        # one online order: epochs never go back, rows rise within an epoch, all in range
        if (int(rows.min()) < 0 or int(rows.max()) >= self.n or int(epochs[0]) < self.epoch
                or (int(epochs[0]) == self.epoch and int(rows[0]) <= self.last_row)
                or bool((epochs[1:] < epochs[:-1]).any()) or bool(((~new_epoch) & (rows[1:] <= rows[:-1])).any())):
            self._fail()
            return
        starts = np.flatnonzero(np.concatenate(([True], new_epoch)))
        groups = epochs[starts].tolist()
        same = groups[0] == self.epoch  # the chunk goes on with the open epoch
        total = len(self.epochs) + (self.current is not None) + len(groups) - same
        if (total + 1) * (self.n // 8 + 1) > self.capacity:
            self._fail()
            return
        bounds = starts.tolist() + [len(rows)]
        if same:
            self.current[rows[:bounds[1]]] = True
            groups, starts, bounds = groups[1:], starts[1:], bounds[1:]
        if groups:  # close the open epoch and every new one but the last, which stays open
            closed = ([] if self.current is None else [(self.epoch, self.current)])
            self.current, self.epoch = np.zeros(self.n, dtype=bool), groups[-1]
            self.current[rows[bounds[-2]:]] = True
            self._close(closed, groups[:-1], rows[bounds[0]:bounds[-2]], epochs[bounds[0]:bounds[-2]])
        self.last_row = int(rows[-1])

    def _close(self, open_one: list[tuple[int, Any]], groups: list[int], rows: Any, epochs: Any) -> None:
        """Pack the epoch that was open, and `groups` (the epochs of `rows`), in blocks of at most BLOCK_CELLS."""
        for epoch, bits in open_one:
            self.epochs.append(epoch)
            self.bits.append(np.packbits(bits)[None, :])
        if not groups:
            return
        index = np.searchsorted(np.asarray(groups, dtype=np.int64), epochs)  # each row's epoch, 0..len(groups)-1
        per_block = max(1, BLOCK_CELLS // max(self.n, 1))
        for lo in range(0, len(groups), per_block):
            hi = min(lo + per_block, len(groups))
            cells = np.zeros((hi - lo, self.n), dtype=bool)
            take = (index >= lo) & (index < hi)
            cells[index[take] - lo, rows[take]] = True
            self.bits.append(np.packbits(cells, axis=1))
        self.epochs.extend(groups)

    def mistakes(self) -> tuple[Any, Any]:
        """``(epochs, rows)``: every mistake kept, in order, as two int64 arrays.

        Examples
        --------
        >>> kept = MistakeMap(n_samples=3, capacity=100)
        >>> kept.observe_chunk(1, np.array([1, 1, 3]), np.array([0, 2, 1]), None)
        >>> [a.tolist() for a in kept.mistakes()]
        [[1, 1, 3], [0, 2, 1]]
        """
        parts = list(self.blocks())
        if not parts:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        return np.concatenate([e for e, _ in parts]), np.concatenate([r for _, r in parts])

    def blocks(self) -> Iterator[tuple[Any, Any]]:
        """`mistakes` a block of epochs at a time (at most BLOCK_CELLS presentations unpacked at once): the run's
        mistakes, in order, without all of them in memory at once (16 bytes each, against n/8 bytes an epoch here).

        Examples
        --------
        >>> kept = MistakeMap(n_samples=3, capacity=100)
        >>> kept.observe_chunk(1, np.array([1, 1, 3]), np.array([0, 2, 1]), None)
        >>> [(e.tolist(), r.tolist()) for e, r in kept.blocks()]
        [([1, 1], [0, 2]), ([3], [1])]
        """
        return self.blocks_of(self.parts())

    def parts(self) -> list[tuple[Any, Any]]:
        """The kept epochs as `blocks` unpacks them, still packed: ``(epoch numbers, bitmaps)`` for each block of
        at most BLOCK_CELLS presentations, in order. `blocks_of` unpacks any run of them; `counts` counts them.

        Examples
        --------
        >>> kept = MistakeMap(n_samples=3, capacity=100)
        >>> kept.observe_chunk(1, np.array([1, 1, 3]), np.array([0, 2, 1]), None)
        >>> [(numbers.tolist(), bits.shape) for numbers, bits in kept.parts()]
        [([1], (1, 1)), ([3], (1, 1))]
        """
        packed = self.bits + ([np.packbits(self.current)[None, :]] if self.current is not None else [])
        numbers = np.asarray(self.epochs + ([self.epoch] if self.current is not None else []), dtype=np.int64)
        done, found = 0, []
        per_block = max(1, BLOCK_CELLS // max(self.n, 1))
        for block in packed:
            for lo in range(0, len(block), per_block):
                part = block[lo:lo + per_block]
                found.append((numbers[done + lo:done + lo + len(part)], part))
            done += len(block)
        return found

    def blocks_of(self, parts: Sequence[tuple[Any, Any]]) -> Iterator[tuple[Any, Any]]:
        """`blocks` of these `parts` (a run of `parts()`' in order): the same arrays as `blocks` yields for them."""
        if _kernel.bit_rows is not None:  # one pass over the bytes, in C
            for (numbers, part), size in zip(parts, self.sizes(parts)):
                epochs, rows = np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64)
                found = _kernel.bit_rows(np.ascontiguousarray(part), np.asarray(numbers, dtype=np.int64), self.n,
                                         epochs, rows)
                if found:
                    yield epochs[:found], rows[:found]
            return
        for numbers, part in parts:  # one flat search over the unpacked bits (as bool): faster than a 2-D np.nonzero
            which, rows = np.divmod(np.flatnonzero(np.unpackbits(part, axis=1, count=self.n).view(bool)), self.n)
            if len(rows):
                yield numbers[which], rows

    def counts(self, parts: Sequence[tuple[Any, Any]], out: Any = None) -> tuple[Any, int]:
        """(mistakes per sample, int64, and their number) over `parts`; into `out` (n int64, zeros) when given.

        Examples
        --------
        >>> kept = MistakeMap(n_samples=3, capacity=100)
        >>> kept.observe_chunk(1, np.array([1, 1, 3]), np.array([0, 2, 1]), None)
        >>> per_sample, total = kept.counts(kept.parts())
        >>> per_sample.tolist(), total
        ([1, 1, 1], 3)
        """
        per_sample = np.zeros(self.n, dtype=np.int64) if out is None else out
        for _, part in parts:  # (an epoch's bits at a time: a uint8 row of n, added in)
            for bits in part:
                per_sample += np.unpackbits(bits, count=self.n)
        return per_sample, int(per_sample.sum())

    @staticmethod
    def sizes(parts: Sequence[tuple[Any, Any]]) -> list[int]:
        """How many mistakes each of `parts` holds (its set bits; packbits pads with 0)."""
        return [int(_ONES[part].sum(dtype=np.int64)) for _, part in parts]

    def chunks(self) -> list[tuple[int, int, Any]]:
        """``(first update, epoch, rows)`` for each epoch with a mistake, in order."""
        epochs, rows = self.mistakes()
        starts = np.flatnonzero(np.concatenate(([True], epochs[1:] != epochs[:-1]))) if len(epochs) else np.zeros(0, dtype=np.intp)
        return [(int(i) + 1, int(epochs[i]), rows[i:j]) for i, j in zip(starts, list(starts[1:]) + [len(rows)])]
