"""The checker on the second core: an observer that hands each update to another thread, in order.

`Background` wraps an observer (the checker with its companions) and tells it
of every update in a thread of its own, through a bounded queue, while the
engine goes on. The C replays (`verify_perceptron.check.kernel`) and the
engine's compiled scan release the GIL, so the two run at once; the Python
parts of each still take turns. The observer is told of the same updates in
the same order as without it, so its verdicts are the same; chunks are copied
when queued, since the engine reuses its buffers.

The queue holds at most `depth` items: an engine faster than the checker
waits for it, so memory stays bounded and the checker is never more than
`depth` chunks behind when the run ends (or stops at its time limit). An
error in the thread is raised in the engine's thread at its next update or at
`close`; `close` always ends the thread (`cancel` drops what is still queued).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..data.integers import score_values
from ..data.observers import Epochs, Int64Array, Observer

__all__ = ["Background", "DEPTH"]

#: The most chunks queued for the thread at once.
DEPTH = 4
_STOP = object()


class Background:
    """`observer`, told of each update in a thread of its own (start it with `start`, end it with `close`).

    Examples
    --------
    >>> from verify_perceptron.check.checker import Checker
    >>> from verify_perceptron.data.examples import example
    >>> from verify_perceptron.run import fast
    >>> data = example("and")
    >>> checker = Checker(data, "classic", rate=1, mode="online", separator=[-4, 3, 2])
    >>> with Background(checker) as beside:
    ...     trace = fast.run(data, observer=beside)
    >>> checker.finish(trace).holds
    True
    """

    def __init__(self, observer: Observer, depth: int = DEPTH) -> None:
        self.observer = observer
        self.queue: queue.Queue[Any] = queue.Queue(maxsize=depth)
        self.error: BaseException | None = None
        self.cancelled = False
        self.thread = threading.Thread(target=self._work, name="verify_perceptron-checker", daemon=True)

    def start(self) -> Background:
        self.thread.start()
        return self

    def __enter__(self) -> Background:
        return self.start()

    def __exit__(self, kind: object, error: object, traceback: object) -> None:
        self.close(cancel=error is not None)

    def _work(self) -> None:
        while True:
            item = self.queue.get()
            if item is _STOP:
                return
            if self.error is not None or self.cancelled:
                continue  # drained, not told: the run is ending
            try:
                tell, args = item
                tell(*args)
            except BaseException as error:  # handed to the engine's thread, which raises it
                self.error = error

    def _put(self, item: Any) -> None:
        if self.error is not None:
            raise self.error
        self.queue.put(item)

    # --- the observer ---------------------------------------------------------------------------

    def observe(self, k: int, epoch: int, samples: Sequence[int], scores: Sequence[int]) -> None:
        self._put((self.observer.observe, (k, epoch, list(samples), list(scores))))

    def observe_chunk(self, first: int, epoch: Epochs, rows: Int64Array, scores: Int64Array) -> None:
        epochs = epoch.copy() if isinstance(epoch, np.ndarray) else epoch
        self._put((self._chunk, (first, epochs, rows.copy(), scores.copy())))

    def _chunk(self, first: int, epoch: Epochs, rows: Int64Array, scores: Int64Array) -> None:
        """In the thread: the observer's own chunk path, or each update in turn (as the engine's feed does)."""
        chunk = getattr(self.observer, "observe_chunk", None)
        if chunk is not None:
            chunk(first, epoch, rows, scores)
            return
        epochs = epoch.tolist() if isinstance(epoch, np.ndarray) else [epoch] * len(rows)
        for t, (i, s, e) in enumerate(zip(rows.tolist(), score_values(scores).tolist(), epochs)):
            self.observer.observe(first + t, e, [i], [s])

    def close(self, *, cancel: bool = False) -> None:
        """Wait for the thread to tell the observer of everything queued (or, with `cancel`, drop it), end
        it, and raise the error it met, if any."""
        if self.thread.ident is not None:
            self.cancelled = self.cancelled or cancel
            self.queue.put(_STOP)  # after everything queued: the thread ends when it reaches it
            self.thread.join()
        if self.error is not None and not cancel:
            error, self.error = self.error, None
            raise error
