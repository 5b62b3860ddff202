"""The separability decision on the second core, beside the perceptron run: `decision_beside`.

`verify` needs separability only when its run neither converges nor cycles,
which it knows only at the run's end. On large data the decision is
therefore started first, in a forked worker process that shares the data
copy-on-write, and joined after the run (`Beside.result`); a run that
settles separability itself cancels it (`Beside.cancel`). The worker sends
its answer back (Gordan's λ as its support only) and nothing else: the
certificate it sends was checked exactly in the worker, by the same code
`decide_separability` runs in the caller's process.

Leaving the ``with`` block ends the worker in every case (an answer used or
not, an error, the time limit's `TimeUp`, Ctrl-C): no worker outlives the
call. Where there is no ``fork`` (Windows, macOS's default is kept out of
it too) or the data are small, no worker starts and the decision is made
after the run, as before.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

from ..data.dataset import Dataset
from . import _highs
from .separability import Separability, decide_separability

__all__ = ["BESIDE_FROM", "Beside", "decision_beside"]

#: From this many cells (samples times m + 1) the decision starts beside the run; below, a fork costs more
#: than the decision saves (a fork and its join take a few milliseconds; the decision there, less).
BESIDE_FROM = 200_000

#: A worker's join, once its answer came or it was told to stop, waits at most this long before SIGKILL.
_REAP_SECONDS = 2.0


def _work(data: Dataset, time_limit: float | None, sender: Any) -> None:
    """The worker: decide, send the answer (or the error's text), and end."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the parent ends the worker
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the command's handler, which would raise in here
    try:  # the run is the critical path (its answer is often needed, this one not): it goes first on a busy machine
        os.nice(5)
    except (AttributeError, OSError):  # pragma: no cover - no nice, or not allowed
        pass
    _highs.CORE_ONLY = True  # HiGHS without `scipy.optimize`'s import: 38 MiB this process's peak, `verify`'s too
    try:
        found = decide_separability(data, time_limit=time_limit)
        gordan = None if found.gordan is None else [(i, v) for i, v in enumerate(found.gordan) if v]
        sender.send(("answer", found.separable, found.certified, found.separator, gordan, found.method,
                     found.problem))
    except BaseException as error:  # noqa: BLE001 - every failure is sent, the parent decides what it means
        sender.send(("error", f"{type(error).__name__}: {error}"))
    finally:
        sender.close()


class Beside:
    """A separability decision running in a worker process (or, without one, made on demand)."""

    def __init__(self, data: Dataset, time_limit: float | None, process: Any = None, receiver: Any = None,
                 tick: Callable[[], None] | None = None) -> None:
        self.data, self.time_limit, self.tick = data, time_limit, tick
        self.process, self.receiver = process, receiver
        self.started = time.monotonic()

    @property
    def running(self) -> bool:
        """Whether a worker was started (and not yet ended)."""
        return self.process is not None

    def result(self, time_limit: float | None) -> Separability:
        """The decision: the worker's answer, waited for (without a limit, as long as it takes), or made here.

        `time_limit` is what is left of the caller's limit: past it the worker
        is ended and the answer is undecided, naming the limit. A worker that
        died without answering is replaced by the decision made here.
        """
        if self.process is None:
            return decide_separability(self.data, time_limit=time_limit)
        try:
            # (polled in steps, so that the command's signals and alarm are handled while it waits)
            deadline = None if time_limit is None else time.monotonic() + time_limit
            while not self.receiver.poll(0.25):
                if self.tick is not None:  # the progress display stays alive while the answer is waited for
                    self.tick()
                if not self.process.is_alive() and not self.receiver.poll(0):
                    self.cancel()
                    return decide_separability(self.data, time_limit=time_limit)
                if deadline is not None and time.monotonic() >= deadline:
                    self.cancel()
                    return Separability(None, False, None, None, "beside the run",
                                        f"undecided: the time limit ran out ({time_limit:.3g} s were left for the decision)")
            try:
                message = self.receiver.recv()
            except EOFError:  # the worker died as it answered
                self.cancel()
                return decide_separability(self.data, time_limit=time_limit)
            if self.process is not None:
                self.process.join(_REAP_SECONDS)  # it has answered: let it end by itself (cancel ends it if not)
        finally:
            self.cancel()
        if message[0] == "error":
            raise RuntimeError(f"the separability decision beside the run failed: {message[1]}")
        _, separable, certified, separator, sparse, method, problem = message
        gordan = None
        if sparse is not None:
            zero = Fraction(0)
            dense = [zero] * self.data.n_samples
            for i, value in sparse:
                dense[i] = value
            gordan = tuple(dense)
        return Separability(separable, certified, separator, gordan, f"{method} (beside the run)", problem)

    def cancel(self) -> None:
        """End the worker, if any (SIGTERM, then SIGKILL if it lingers), and reap it."""
        process, self.process = self.process, None
        if process is None:
            return
        if process.is_alive():
            process.terminate()
        process.join(_REAP_SECONDS)
        if process.is_alive():  # pragma: no cover - a worker that ignores SIGTERM
            process.kill()
            process.join()
        self.receiver.close()


@contextmanager
def decision_beside(data: Dataset, time_limit: float | None, *, enabled: bool = True,
                    tick: Callable[[], None] | None = None) -> Iterator[Beside]:
    """A `Beside`: the decision started in a worker when the data are large and ``fork`` exists, ended on exit.

    `tick` is called about four times a second while the answer is waited for
    (`verify_perceptron.progress.Watch.tick`).

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> with decision_beside(example("xor"), None) as beside:  # small: decided when asked, in this process
    ...     beside.running, beside.result(None).separable
    (False, False)
    """
    big = data.n_samples * (data.n_features + 1) >= BESIDE_FROM
    if not (enabled and big and "fork" in multiprocessing.get_all_start_methods() and sys.platform != "darwin"):
        yield Beside(data, time_limit, tick=tick)
        return
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    for stream in (sys.stdout, sys.stderr):  # nothing buffered may be written twice, by the worker too
        try:
            stream.flush()
        except (AttributeError, OSError, ValueError):
            pass
    process = context.Process(target=_work, args=(data, time_limit, sender), name="verify-perceptron separability",
                              daemon=True)
    process.start()
    sender.close()
    beside = Beside(data, time_limit, process, receiver, tick)
    try:
        yield beside
    finally:
        beside.cancel()

