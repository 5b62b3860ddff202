"""The updates a fast run keeps for its report, compactly: one record each, or runs of a compiled chunk."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..data.limb_arrays import row_ints

__all__ = ["Kept", "Segment"]


class Kept(Sequence[tuple[int, int, list[int], list[int], Any]]):
    """The kept updates' compact records, one by one or as runs of a compiled chunk.

    A record is ``(k, epoch, samples, scores, weights)``; in a run, weights is
    ``(segment, t)``, the t-th weights of a `Segment`, computed when read.
    """

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.parts: list[tuple[Any, ...]] = []
        self.length = 0

    def add(self, record: tuple[int, int, list[int], list[int], Any]) -> None:
        self.starts.append(self.length)
        self.parts.append((record,))
        self.length += 1

    def add_run(self, first: int, epochs: Any, rows: Any, scores: Any, segment: Segment) -> None:
        """A chunk's updates first, first + 1, ...: `epochs`, `rows` and `scores` are arrays (kept as
        they are: a record's Python ints are made when it is read); `scores` int64 values, or an (m, L) int64
        array of limbs (`verify_perceptron.data.integers.score_values`' layout), each joined when read."""
        self.starts.append(self.length)
        self.parts.append((first, epochs, rows, scores, segment))
        self.length += len(rows)

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.length))]
        if not 0 <= index < self.length:
            raise IndexError(index)
        p = bisect.bisect_right(self.starts, index) - 1
        part = self.parts[p]
        if len(part) == 1:
            return part[0]
        first, epochs, rows, scores, segment = part
        t = index - self.starts[p]
        score = int(scores[t]) if scores.ndim == 1 else row_ints(scores[t:t + 1])[0]
        return first + t, int(epochs[t]), [int(rows[t])], [score], (segment, t)


    def weights_of(self, indices: Sequence[int]) -> list[Any]:
        """The weights of the records at `indices` (``self[i][4]`` with a segment's read: its running sums made
        once), without the records' scores and tuples (`best_reference` reads 33 a run, only their weights).

        Examples
        --------
        >>> kept = Kept()
        >>> kept.add((1, 1, [0], [0], np.array([1, 1])))
        >>> kept.add_run(2, np.array([1, 1]), np.array([1, 0]), np.array([-1, 0]),
        ...              Segment(np.array([1, 1]), np.array([[0, 2], [-1, 3]])))
        >>> [w.tolist() for w in kept.weights_of([2, 0, 1])]
        [[0, 6], [1, 1], [1, 3]]
        """
        out = []
        for index in indices:
            if not 0 <= index < self.length:
                raise IndexError(index)
            p = bisect.bisect_right(self.starts, index) - 1
            part = self.parts[p]
            out.append(part[0][4] if len(part) == 1 else part[4].weights()[index - self.starts[p]])
        return out


class Segment:
    """The weights after each of a run of updates, computed only if a kept update is read.

    `rows` are the updates' rows, or, with `read`, what `read` makes them from when the weights are first read
    (the samples' indices, for rows held in limbs: their Python integers are made only then, where most runs'
    kept updates are never read; on wine 0 vs rest raw, 3,894 rows of 14 values, 12% of the fit).

    Examples
    --------
    >>> Segment(np.array([1, 1]), np.array([1, 0]), read=lambda i: np.array([[0, 2], [-1, 3]])[i]).weights().tolist()
    [[0, 4], [0, 6]]
    """

    def __init__(self, start: Any, rows: Any, read: Callable[[Any], Any] | None = None) -> None:
        self.start, self.rows, self.read = start, rows, read
        self._weights: np.ndarray[Any, Any] | None = None  # the running sums, once read

    def weights(self) -> Any:
        if self._weights is None:
            rows = self.rows if self.read is None else self.read(self.rows)
            # Each running sum is a weight vector of the run, inside the int64 guard.
            # (the rows' sums, then W before them added: no stacked copy; int64 at least, as np.cumsum widens)
            self._weights = np.cumsum(rows, axis=0) + self.start
        return self._weights
