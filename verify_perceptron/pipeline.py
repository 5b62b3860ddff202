"""`verify_run`: the `verify` command's work, from data to a checked run (orchestration only).

The data's scaled samples are built once (`verify_perceptron.data.samples`) and handed to both the engine and the
checker; the engine's updates reach the checker as they happen, or, when w* is the run's own final weights (known
only at the end), are kept within a memory budget and replayed once w* is known.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from .check.background import Background
from .check.checker import Checker
from .check.results import CheckResult
from .check.separator import strict_final_weights
from .check.mistake_map import MistakeMap
from .check.soft_reference import best_reference
from .check.soft_replay import replay_kept
from .check.traces import check_trace, whole_scores
from .check.whole_run import WholeRecord, WholeRun
from .data.dataset import Dataset, require_dataset
from .data.integers import ExactMatrix, as_halves, as_limbs, score_values
from .data.observers import Observer
from .data.samples import sample_matrix
from .data.trace import Trace
from .errors import InvalidArgument
from .heap import between
from .notes.conventions import Convention
from .run import fast, reference
from .run.settings import check_settings, check_time_limit

__all__ = ["ENGINES", "MIN_MAP_BYTES", "MIN_REPLAY_BYTES", "Pending", "verify_run", "verify_run_deferred"]

#: The engines `verify_run` can drive: the fast exact one and the reference that reads like the notes.
ENGINES = ("fast", "reference")
#: `verify_run` keeps a run's updates for the checker in at most max(this, half the samples' bytes).
MIN_REPLAY_BYTES = 2**22  # (a float64 set of 10^5 updates, with scores in three limbs, fits)
#: ... and, past that, which samples were mistakes (one bit per presentation) in max(this, the samples' bytes).
MIN_MAP_BYTES = 2**24
#: Kept updates are replayed in chunks of at least this many (but the last), each at most one engine chunk more.
REPLAY_CHUNK = 2**16
#: `verify_run`'s ``again``: ``again(w_star, source, note)`` is the run checked against w* (what a
#: run made again with `separator=w_star` would give, its updates replayed from the first run's).
Again = Callable[[Sequence[object], str, str | None], tuple[Trace, CheckResult]]


class _Tee:
    """Tells every observer given (the checker, a trace recorder) of each update."""

    def __init__(self, *observers: Observer | None) -> None:
        self.observers = [o for o in observers if o is not None]

    def observe(self, k: int, epoch: int, samples: Sequence[int], scores: Sequence[int]) -> None:
        for observer in self.observers:
            observer.observe(k, epoch, samples, scores)

    def observe_chunk(self, first: int, epoch: Any, rows: Any, scores: Any) -> None:
        for observer in self.observers:
            fast.feed(observer, first, epoch, rows, scores)


@dataclass(frozen=True)
class _Runs:
    """Non-decreasing epochs as runs: ``values[j]`` repeated ``lengths[j]`` times."""

    values: Any
    lengths: Any

    @property
    def nbytes(self) -> int:
        return int(self.values.nbytes + self.lengths.nbytes)

    def expand(self) -> Any:
        return np.repeat(self.values, self.lengths)


class _Store:
    """A run's updates, kept to be replayed once w* is known, up to `capacity` bytes.

    Memory never grows past `capacity`, however many updates the run makes. Past it (`complete` turns False) the
    observer `overflow()` then makes (most runs never need it) is handed the kept updates, and every later update
    goes there: a check that needs no w* is made during the run. Its chunks are sized from `samples` (`_replay_least`).
    """

    def __init__(self, capacity: int, overflow: Callable[[], Any], samples: int | None = None) -> None:
        self.capacity, self.used, self._overflow, self.samples, self.complete = capacity, 0, overflow, samples, True
        self.overflow: Any = None  # made by `_overflow` when first needed
        self.items: list[tuple[int, int, Any, Any]] = []

    def _room(self, size: int) -> bool:
        """Count `size` more bytes; past the capacity, hand what was kept to `overflow` (once)."""
        self.used += size
        if self.used > self.capacity:
            self.complete = False
            self.overflow = self._overflow()
            self.replay(self.overflow, least=_replay_least(self.samples))  # in order: kept, then (caller) this
        return self.complete

    def observe(self, k: int, epoch: int, samples: Sequence[int], scores: Sequence[int]) -> None:
        if self.complete and self._room(
                64 + 16 * len(samples) + sum(s.bit_length() // 8 for s in scores if isinstance(s, int))):
            self.items.append((k, epoch, list(samples), list(scores)))
        else:
            self.overflow.observe(k, epoch, samples, scores)

    def observe_chunk(self, first: int, epoch: Any, rows: Any, scores: Any) -> None:
        if not self.complete:
            fast.feed(self.overflow, first, epoch, rows, scores)
            return
        # Kept compact (copies: the engine's buffers are reused as soon as this returns): the rows in
        # the narrowest integers that hold them, a chunk's epochs (which never decrease) as runs.
        if isinstance(epoch, np.ndarray) and len(epoch):
            starts = np.flatnonzero(np.concatenate(([True], epoch[1:] != epoch[:-1])))
            epoch = _Runs(epoch[starts], np.diff(np.append(starts, len(epoch))))
        kept = rows.astype(np.min_scalar_type(-int(rows.max(initial=0)) - 1))
        if self._room(kept.nbytes + scores.nbytes + (epoch.nbytes if isinstance(epoch, _Runs) else 8)):
            self.items.append((first, epoch, kept, scores.copy()))
        else:
            fast.feed(self.overflow, first, epoch.expand() if isinstance(epoch, _Runs) else epoch, rows, scores)

    def replay(self, observer: Observer, *, keep: bool = False, least: int | None = None) -> None:
        """Tell `observer` of every kept update, in order, in chunks of at least `least` (but the last; after the
        run REPLAY_CHUNK on up to 4,096 samples, else `_replay_least`); none is kept after, unless `keep`."""
        items, self.items = (list(self.items), self.items) if keep else (self.items, [])
        if items and all(isinstance(rows, np.ndarray) or len(rows) == 1 for _, _, rows, _ in items):
            # online updates, from the compiled pass or one at a time (past its guard): in chunks of at
            # least `least` updates, so that what is unpacked at once stays small whatever the capacity
            items.reverse()  # popped in order: each compact copy is let go once unpacked
            piece: list[tuple[int, Any, Any, Any]] = []
            size, least = 0, least or (_replay_least(self.samples) if (self.samples or 0) > 4096 else REPLAY_CHUNK)
            while items:
                piece.append(items.pop())
                size += len(piece[-1][2])
                if size >= least or not items:
                    _feed_joined(observer, piece)
                    piece, size = [], 0
            return
        for first, epoch, rows, scores in items:
            if isinstance(rows, np.ndarray):
                fast.feed(observer, first, epoch.expand() if isinstance(epoch, _Runs) else epoch,
                          rows.astype(np.int64), scores)
            else:
                observer.observe(first, epoch, rows, scores)


def _replay_least(samples: int | None) -> int:
    """The least number of kept updates replayed as one chunk at the budget's overflow (into the checker thread's
    queue): `REPLAY_CHUNK`, or an eighth of the `samples` where fewer (2^16 was MB on small data, docs/performance)."""
    return REPLAY_CHUNK if samples is None else min(REPLAY_CHUNK, max(fast.SMALL_CHUNK, samples // 8))


def _feed_joined(observer: Observer, items: list[tuple[int, Any, Any, Any]]) -> None:
    """Consecutive kept online updates, told to `observer` as one chunk."""
    epochs = np.concatenate([epoch.expand() if isinstance(epoch, _Runs) else np.full(len(rows), epoch)
                             for _, epoch, rows, _ in items])
    rows = np.concatenate([np.asarray(rows, dtype=np.int64) for _, _, rows, _ in items])
    parts = [scores if isinstance(scores, np.ndarray) else _score_array(scores[0]) for *_, scores in items]
    if any(part.ndim == 2 for part in parts):  # some past int64, in limbs: all in as many limbs,
        width = max(part.shape[1] if part.ndim == 2 else 2 for part in parts)
        parts = ([as_limbs(part, width) for part in parts] if all(part.dtype == np.int64 for part in parts)
                 else [score_values(part).astype(object) for part in parts])  # or all Python integers
    first = items[0][0]
    items.clear()
    fast.feed(observer, first, epochs, rows, np.concatenate(parts))


def _score_array(score: int) -> Any:
    """One score as a chunk's scores are given: int64, else its halves (below 2^127), else a Python integer."""
    if -(2**63) <= score < 2**63:
        return np.array([score], dtype=np.int64)
    value = np.array([score], dtype=object)
    return as_halves(value) if -(2**127) <= score < 2**127 else value


#: Whether a checker told of updates during the run takes them in a second thread (`check.background`): True
#: for every online run checked as it goes, False for none, "long" (the default) for a run past its kept
#: updates' budget, a long run, where the thread pays (docs/performance.md). The results are the same.
BACKGROUND: bool | str = "long"


def _beside(mode: str, long: bool = False) -> bool:
    """Does the checker run in a thread of its own beside the engine (`BACKGROUND`, online runs; `long`: the
    run passed its kept updates' budget)?"""
    return mode == "online" and (BACKGROUND is True or (BACKGROUND == "long" and long))


def _finished(checker: Checker, whole: WholeRun | None, trace: Trace, result: CheckResult | None = None
              ) -> CheckResult:
    """The checker's result, with what `whole` kept of the whole run: its last updates and the invariants'
    extremes over every update, for the report, which reads them only when the trace kept its first updates
    alone (`updates_truncated`): else they are not kept. Either is made when first read (`WholeRecord`)."""
    result = checker.finish(trace) if result is None else result
    if whole is None or not trace.updates_truncated:
        return result
    return dataclasses.replace(result, whole=WholeRecord(whole, trace))


def _whole_run(checker: Checker, trace: Trace) -> WholeRun | None:
    """The whole-run record for a replay of the finished run `trace` (sized for its updates), or None when the
    trace kept every update, which is then all the report shows."""
    return WholeRun(checker, trace.n_updates) if trace.updates_truncated else None


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
    progress: Callable[[int, int, int | None, Fraction | None], None] | None = None,
    recorder: Observer | None = None,
    keep_updates: int | None = None,
    separator_source: str = "user",
    separator_note: str | None = None,
    again: list[Again] | None = None,
) -> tuple[Trace, CheckResult]:
    """Run a note's perceptron with the checker attached; the `verify` command's work.

    With no `separator` the run's own final weights serve as w*, known only
    at the end: the run's updates are kept, up to a budget of half the
    memory of the scaled samples, and replayed into the checker once w* is
    known. Past that budget the claims that need no w* are checked as the run
    goes, which is the whole check when it does not converge; a converged run
    is made again, deterministically, with every claim checked, within what
    is left of `time_limit`. Memory does not grow with the number of updates
    (beyond the first `keep_updates`, kept for the report).

    Parameters
    ----------
    engine_name : {"fast", "reference"}
        The fast exact engine, or the reference engine that reads like the notes.
    progress : callable, optional
        Called as ``progress(epoch, n_updates, n_mistakes, bound)`` after each pass: the mistakes the checker
        has counted and the note's mistake bound when the checker runs with the run and knows them, else None
        (`verify_perceptron.progress.Watch.epoch`). Without it the compiled pass runs on through epochs.
    recorder : observer, optional
        Also told of every update of the run, once (to write a trace file).
    separator_source, separator_note : str, optional
        Where `separator` came from (``"user"``, or ``"certified"`` for a certified
        max-margin separator), for the report.
    again : list, optional
        Given (an empty list) and the run neither converged nor passed the
        budget of kept updates, receives an `Again`: the same run checked
        against another w* by replaying its kept updates, without running it
        a second time (`verify_perceptron.api.verification.against_certified`).

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> trace, result = verify_run(example("and"))
    >>> [str(w) for w in trace.final_weights], result.holds, result.separator_source
    (['-4', '3', '2'], True, 'final')
    """
    trace, check = _verified(data, convention, eta=eta, mode=mode, max_epochs=max_epochs, time_limit=time_limit,
                             separator=separator, engine_name=engine_name, progress=progress, recorder=recorder,
                             keep_updates=keep_updates, separator_source=separator_source,
                             separator_note=separator_note, again=again, defer=False)
    return trace, check if isinstance(check, CheckResult) else check.check()  # (nothing is deferred here)


def verify_run_deferred(
    data: Dataset,
    convention: Convention | str = "classic",
    *,
    eta: object = 1,
    mode: str = "online",
    max_epochs: int = 1000,
    time_limit: float | None = None,
    separator: Sequence[object] | None = None,
    engine_name: str = "fast",
    progress: Callable[[int, int, int | None, Fraction | None], None] | None = None,
    recorder: Observer | None = None,
    again: list[Again] | None = None,
) -> tuple[Trace, CheckResult | Pending]:
    """`verify_run` for `verify`, whose check of a run stopped at a limit waits for the run's w*.

    Without `time_limit`, a run that neither converged nor passed the budget
    of kept updates comes back unchecked, as a `Pending`: separability is
    decided first, and its one replay is then made against the certified
    max-margin separator, or without w* when there is none
    (`verify_perceptron.api.verification.against_certified`). Replayed at
    once without w* and then again against w*, as `verify_run` with `again`
    does, it would be checked twice, and the first check thrown away. With a
    `time_limit` the run is checked at once, as by `verify_run` (its report
    must not wait on a decision that may take the time that is left), and
    `again` receives the replay against w*. Every other run comes back
    checked. The settings are `verify_run`'s.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> trace, pending = verify_run_deferred(example("and"), max_epochs=1)
    >>> trace.stop, pending.check([-3, 2, 2], "certified", None).separator_source
    ('max-epochs', 'certified')
    """
    return _verified(data, convention, eta=eta, mode=mode, max_epochs=max_epochs, time_limit=time_limit,
                     separator=separator, engine_name=engine_name, progress=progress, recorder=recorder,
                     keep_updates=None, separator_source="user", separator_note=None, again=again,
                     defer=time_limit is None)


def _verified(data: Dataset, convention: Convention | str, *, eta: object, mode: str, max_epochs: int,
              time_limit: float | None, separator: Sequence[object] | None, engine_name: str,
              progress: Callable[[int, int, int | None, Fraction | None], None] | None, recorder: Observer | None,
              keep_updates: int | None, separator_source: str, separator_note: str | None,
              again: list[Again] | None, defer: bool) -> tuple[Trace, CheckResult | Pending]:
    """`verify_run`'s work; with `defer`, a run that stopped with every update kept comes back `Pending`."""
    if engine_name not in ENGINES:
        raise InvalidArgument(f"engine={engine_name!r} must be one of {', '.join(ENGINES)}")
    conv, rate = check_settings(convention, eta, mode, max_epochs)
    data, time_limit = require_dataset(data), check_time_limit(time_limit)
    if engine_name == "reference":
        trace = reference.train(data, conv, eta=rate, mode=mode, max_epochs=max_epochs, time_limit=time_limit,
                             progress=None if progress is None else (lambda e, n: progress(e, n, None, None)))
        if recorder is not None:
            for u in trace.updates:
                recorder.observe(u.k, u.epoch, list(u.samples), whole_scores(data, u, conv.step_size(rate)))
        return trace, check_trace(data, trace, separator=separator)
    job = _Job(data, conv, rate, mode, max_epochs, time_limit, progress, keep_updates,
               sample_matrix(data, conv, lend=True))  # the samples built once: the engine's and the checker's
    try:
        if separator is not None:
            return job.checked(separator, separator_source, separator_note, recorder, time_limit)
        return job.with_final_weights(recorder, again, defer)
    finally:  # the trace keeps the matrix to build its updates on demand, but none of the copies made of it
        job.matrix.release_copies()  # (made again if the replay in `again` asks for them)


@dataclass(frozen=True)
class _Job:
    """One `verify_run` of the fast engine: its settings, and the sample matrix engine and checker share."""

    data: Dataset
    conv: Convention
    rate: Fraction
    mode: str
    max_epochs: int
    time_limit: float | None
    progress: Callable[[int, int, int | None, Fraction | None], None] | None
    keep_updates: int | None
    matrix: ExactMatrix

    def run(self, observer: Observer, seconds: float | None,
            status: Callable[[], tuple[int | None, Fraction | None]]) -> Trace:
        progress = self.progress
        report = None if progress is None else (lambda e, n: progress(e, n, *status()))
        return fast.run(self.data, self.conv, eta=self.rate, mode=self.mode, max_epochs=self.max_epochs,
                        time_limit=seconds, progress=report, observer=observer, keep_updates=self.keep_updates,
                        matrix=self.matrix)

    def checker(self, w_star: Sequence[object] | None = None, source: str | None = None,
                note: str | None = None, last: Trace | None = None) -> Checker:
        """A checker against w*; without one, `last` (a finished run) gives u, the best weights it visited."""
        u = None if last is None or self.mode != "online" else best_reference(self.matrix, last)
        return Checker(self.data, self.conv, rate=self.rate, mode=self.mode, separator=w_star,
                       separator_source=source, separator_note=note, matrix=self.matrix,
                       reference=None if u is None else u[0], reference_source="" if u is None else u[1],
                       reference_counts=None if u is None or last is None else last.mistakes_per_sample)

    def checked(self, w_star: Sequence[object] | None, source: str | None, note: str | None, sink: Any,
                seconds: float | None, last: Trace | None = None) -> tuple[Trace, CheckResult]:
        """A run with the checker (and `sink`) told of every update as it happens."""
        checker = self.checker(w_star, source, note, last)
        whole = WholeRun(checker)
        tee = _Tee(checker, whole, sink)
        status = lambda: (checker.N, None if checker.own is None else checker.own.value)  # noqa: E731
        if _beside(self.mode):
            with Background(tee) as beside:  # the checker in a thread of its own, ended however the run ends
                trace = self.run(beside, seconds, status)
        else:
            trace = self.run(tee, seconds, status)
        return trace, _finished(checker, whole, trace)

    def with_final_weights(self, recorder: Observer | None, again: list[Again] | None = None, defer: bool = False
                           ) -> tuple[Trace, CheckResult | Pending]:
        """A run whose own final weights are w*, known only at its end.

        The run keeps its updates (within half the samples' own memory) and
        replays them into the checker once w* is known, which costs no scan.
        Past the budget the updates go to a checker without w* as they come:
        that check is the whole one when the run does not converge; a
        converged run is made again with w* known, in the time that is left.
        With `defer`, a run that did not converge and kept every update is
        not replayed here: it comes back `Pending`, for one replay once the
        caller knows its w* (or that there is none).
        """
        started = time.monotonic()
        kept = MistakeMap(self.data.n_samples, max(MIN_MAP_BYTES, self.matrix.nbytes))

        def overflow() -> _Tee:  # the checker first (beside the engine, alone in the second thread: the engine
            checker = self.checker()  # waits on its longer replay), then what the report keeps of the whole run
            beside = _beside(self.mode, long=True)  # the facts then told in the engine's thread, as the record is
            facts, told = (checker.facts_apart(), Background(checker).start()) if beside else (None, checker)
            return _Tee(told, WholeRun(checker), recorder, kept if self.mode == "online" else None, facts)

        store = _Store(max(MIN_REPLAY_BYTES, self.matrix.nbytes // 2), overflow=overflow, samples=self.data.n_samples)
        try:
            trace = self.run(store, self.time_limit, lambda: (None, None))  # counted by the checker once w* is known
        except BaseException:
            if store.overflow is not None and isinstance(store.overflow.observers[0], Background):
                store.overflow.observers[0].close(cancel=True)
            raise
        if store.overflow is not None and isinstance(beside := store.overflow.observers[0], Background):
            beside.close()  # every update told: the overflow's checker is done
            store.overflow.observers[0] = beside.observer
        # The engine's float copy of the samples (its filter's, as large as the int64 data) is let go before the
        # replay, which reads the samples themselves; a check that wants floats makes them again.
        self.matrix.release_copies()
        if not trace.converged:
            if not store.complete:  # the overflow's checker, without w*, has seen every update
                checker, whole = store.overflow.observers[:2]
                return trace, _finished(checker, whole, trace, self._soft_margin_afterwards(trace, checker, kept))
            pending = Pending(self, store, trace, recorder)
            if defer:
                return trace, pending
            check = pending.check(keep=again is not None)
            if again is not None:  # the same run, checked once more against another w* from the same kept updates
                again.append(lambda w_star, source, note: (trace, pending.check(w_star, source, note, keep=True)))
            return trace, check
        w_star, note = strict_final_weights(self.data, self.conv, trace.final_weights, self.matrix)
        if not store.complete:  # (the recorder has had every update already)
            left = None if self.time_limit is None else max(self.time_limit - (time.monotonic() - started), 1e-3)
            return self.checked(w_star, "final", note, None, left)
        checker = self.checker(w_star, "final", note)
        whole = _whole_run(checker, trace)
        store.replay(_Tee(checker, whole, recorder))
        return trace, _finished(checker, whole, trace)

    def _soft_margin_afterwards(self, trace: Trace, checker: Checker, kept: MistakeMap) -> CheckResult:
        """`checker`'s result, with the soft-margin bound checked at every update from the run's kept mistakes (for a
        run that did not converge, u, the best weights it visited, is known only at its end; the checker saw the
        updates during the run, the mistakes were kept apart), the heap given back before each phase (`between`)."""
        checker.let_go_of_replays()  # every update is told: their arrays need not live on beside the bound's
        between(kept.n)
        u = None if self.mode != "online" else best_reference(self.matrix, trace)
        between(kept.n)
        if u is not None:
            checker.take_reference(u[0], u[1], trace.mistakes_per_sample)
            between(kept.n)
            if checker.soft is not None and kept.complete:  # a block of epochs at a time (16 bytes a mistake)
                replay_kept(checker.soft, kept)  # (on a long run, its second half in a second thread)
            elif checker.soft is not None:
                result, checker.soft = checker.soft.result, None
                checker.soft_result, result.holds = result, None
                result.skipped = (f"the run's mistakes passed the {kept.capacity:,} bytes kept to replay "
                                  "them; give --separator to check it during the run")
        between(kept.n)  # (the facts' sample rules and the final checks next)
        return checker.finish(trace)


class Pending:
    """A run stopped at a limit, every update kept, whose check waits for its w*: `check` replays it.

    Made by `verify_run_deferred`. Its kept updates are replayed into a
    checker against the w* given (the certified max-margin separator), or,
    without one, into a checker that takes the best weights the run visited
    as its soft-margin reference, as `verify_run` checks such a run. The
    replay reads the kept updates; the data are not scanned again.

    Attributes
    ----------
    trace : Trace
        The run.
    n_checks : int
        How many times the run was checked (replayed into a checker).
    """

    def __init__(self, job: _Job, store: _Store, trace: Trace, recorder: Observer | None) -> None:
        self._job, self._store, self._recorder = job, store, recorder
        self.trace = trace
        self.n_checks = 0
        self._spent = False

    def check(self, w_star: Sequence[object] | None = None, source: str | None = None, note: str | None = None,
              *, keep: bool = False) -> CheckResult:
        """The run checked against `w_star` (from `source`, with `note`), or without w*: its one replay.

        The kept updates are let go after it, unless `keep` (for one more
        check against another w*); the recorder is told of them the first
        time only. A second check of updates let go is a bug: it raises.
        """
        if self._spent:
            raise RuntimeError("the run's kept updates were let go after its check: it cannot be checked again")
        job, trace = self._job, self.trace
        checker = job.checker(last=trace) if w_star is None else job.checker(w_star, source, note)
        whole = _whole_run(checker, trace)
        self._store.replay(_Tee(checker, whole, self._recorder), keep=keep)
        self._recorder, self._spent, self.n_checks = None, not keep, self.n_checks + 1
        return _finished(checker, whole, trace)
