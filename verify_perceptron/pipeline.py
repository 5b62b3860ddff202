"""`verify_run`: the `verify` command's work, from data to a checked run (orchestration only).

The data's scaled samples are built once (`verify_perceptron.data.samples`)
and handed to both the engine and the checker; the engine's updates reach
the checker as they happen, or, when w* is the run's own final weights
(known only at the end), are kept within a memory budget and replayed once
w* is known.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .check.checker import Checker
from .check.results import CheckResult
from .check.separator import strict_final_weights
from .check.traces import check_trace, scaled_scores
from .data.dataset import Dataset
from .data.samples import sample_matrix
from .data.trace import Trace
from .errors import InvalidArgument
from .notes.conventions import Convention
from .run import fast, reference
from .run.settings import check_data, check_settings, check_time_limit

__all__ = ["ENGINES", "MIN_REPLAY_BYTES", "verify_run"]

#: The engines `verify_run` can drive: the fast exact one and the reference that reads like the notes.
ENGINES = ("fast", "reference")
#: `verify_run` keeps a run's updates for the checker in at most max(this, half the samples' bytes).
MIN_REPLAY_BYTES = 2**20


class _Tee:
    """Tells every observer given (the checker, a trace recorder) of each update."""

    def __init__(self, *observers: Any) -> None:
        self.observers = [o for o in observers if o is not None]

    def observe(self, k: int, epoch: int, samples: list[int], scores: list[int]) -> None:
        for observer in self.observers:
            observer.observe(k, epoch, samples, scores)

    def observe_chunk(self, first: int, epoch: Any, rows: Any, scores: Any) -> None:
        for observer in self.observers:
            fast.feed(observer, first, epoch, rows, scores)


class _Store:
    """A run's updates, kept to be replayed once w* is known, up to `capacity` bytes (then dropped).

    Memory therefore never grows past `capacity`, however many updates the
    run makes; a run that needs more is run again instead (`complete` is False).
    """

    def __init__(self, capacity: int) -> None:
        self.capacity, self.used = capacity, 0
        self.items: list[tuple[int, int, Any, Any]] = []
        self.complete = True

    def _room(self, size: int) -> bool:
        self.used += size
        if self.complete and self.used > self.capacity:
            self.complete, self.items = False, []
        return self.complete

    def observe(self, k: int, epoch: int, samples: list[int], scores: list[int]) -> None:
        if self._room(64 + 16 * len(samples) + sum(s.bit_length() // 8 for s in scores if isinstance(s, int))):
            self.items.append((k, epoch, list(samples), list(scores)))

    def observe_chunk(self, first: int, epoch: Any, rows: Any, scores: Any) -> None:
        if self._room(rows.nbytes + scores.nbytes + np.asarray(epoch).nbytes):
            # (copies: the engine's buffers are reused as soon as this returns)
            self.items.append((first, np.copy(epoch) if isinstance(epoch, np.ndarray) else epoch,
                               rows.copy(), scores.copy()))

    def replay(self, observer: Any) -> None:
        chunks = [item for item in self.items if isinstance(item[2], np.ndarray)]
        if chunks and len(chunks) == len(self.items):  # all from the compiled pass: one chunk
            epochs = np.concatenate([np.full(len(rows), epoch) for _, epoch, rows, _ in chunks])
            rows = np.concatenate([rows for _, _, rows, _ in chunks])
            scores = np.concatenate([scores for _, _, _, scores in chunks])
            fast.feed(observer, chunks[0][0], epochs, rows, scores)
            return
        for first, epoch, rows, scores in self.items:
            if isinstance(rows, np.ndarray):
                fast.feed(observer, first, epoch, rows, scores)
            else:
                observer.observe(first, epoch, rows, scores)


def verify_run(
    data: Dataset,
    convention: Convention | str = "classic",
    *,
    eta: object = 1,
    mode: str = "online",
    max_epochs: int = 1000,
    time_limit: float | None = None,
    separator: Sequence[object] | None = None,
    engine_name: str = "fast",
    progress: Callable[[int, int, str], None] | None = None,
    recorder: Any = None,
    keep_updates: int | None = None,
) -> tuple[Trace, CheckResult]:
    """Run a note's perceptron with the checker attached; the `verify` command's work.

    With no `separator` the run's own final weights serve as w*, known only
    at the end: the run's updates are kept, up to a budget of half the
    memory of the scaled samples, and replayed into the checker once w* is
    known; a run with more updates than that is run again, deterministically,
    with every claim checked. Memory does not grow with the number of
    updates (beyond the first `keep_updates`, kept for the report).

    Parameters
    ----------
    engine_name : {"fast", "reference"}
        The fast exact engine, or the reference engine that reads like the notes.
    progress : callable, optional
        Called as ``progress(epoch, n_updates, status)`` after each pass.
    recorder : observer, optional
        Also told of every update of the final pass (to write a trace file).

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> trace, result = verify_run(example("and"))
    >>> [str(w) for w in trace.final_weights], result.holds, result.separator_source
    (['-4', '3', '2'], True, 'final')
    """
    if engine_name not in ENGINES:
        raise InvalidArgument(f"engine={engine_name!r} must be one of {', '.join(ENGINES)}")
    conv, rate = check_settings(convention, eta, mode, max_epochs)
    data, time_limit = check_data(data), check_time_limit(time_limit)
    if engine_name == "reference":
        trace = reference.train(data, conv, eta=rate, mode=mode, max_epochs=max_epochs, time_limit=time_limit,
                             progress=None if progress is None else (lambda e, n: progress(e, n, "")))
        if recorder is not None:
            for u in trace.updates:
                recorder.observe(u.k, u.epoch, list(u.samples), scaled_scores(data, u, conv.step_size(rate)))
        return trace, check_trace(data, trace, separator=separator)
    matrix = sample_matrix(data, conv)  # built once, shared by the engine and the checker

    def attempt(w_star: Sequence[object] | None, source: str | None, note: str | None,
                sink: Any) -> tuple[Trace, CheckResult]:
        checker = Checker(data, conv, rate=rate, mode=mode, separator=w_star, separator_source=source,
                          separator_note=note, matrix=matrix)
        report = None if progress is None else (lambda e, n: progress(e, n, checker.status()))
        trace = fast.run(data, conv, eta=rate, mode=mode, max_epochs=max_epochs, time_limit=time_limit,
                         progress=report, observer=_Tee(checker, sink), keep_updates=keep_updates, matrix=matrix)
        return trace, checker.finish(trace)

    if separator is not None:
        return attempt(separator, "user", None, recorder)
    # w* is the final weights, known at the end: run once keeping the updates (within a budget of
    # half the samples' own memory), then replay them into the checker, which costs no scan.
    store = _Store(capacity=max(MIN_REPLAY_BYTES, matrix.exact.nbytes // 2))
    report = None if progress is None else (lambda e, n: progress(e, n, f"{n} mistakes"))
    trace = fast.run(data, conv, eta=rate, mode=mode, max_epochs=max_epochs, time_limit=time_limit,
                     progress=report, observer=store, keep_updates=keep_updates, matrix=matrix)
    w_star, source, note = None, None, None
    if trace.converged:
        w_star, note = strict_final_weights(data, conv, trace.final_weights, matrix)
        source = "final"
    if not store.complete:
        return attempt(w_star, source, note, recorder)
    checker = Checker(data, conv, rate=rate, mode=mode, separator=w_star, separator_source=source,
                      separator_note=note, matrix=matrix)
    store.replay(_Tee(checker, recorder))
    return trace, checker.finish(trace)
