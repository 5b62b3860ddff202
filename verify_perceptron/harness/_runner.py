"""The implementation as the checks call it: at arm's length (a worker process for Python code, a keeper
for a command), each call within its own time and the check's, what it printed kept within limits.

Where there is no ``fork`` (Windows) a Python implementation runs in the
check's own process, as before: what it raises, exits with (``sys.exit``) or
prints is still recorded, but only the timer's signal can stop it, so a loop
in C or a blocked signal is not stopped there.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from ..deadline import alarm
from ..errors import InvalidArgument
from ..notes.conventions import get_convention
from . import _loading
from ._call import Request, _Call, attempt
from ._capture import Capped, TextSink
from ._clock import Clock, OutOfTime
from ._implementation import Labels, Samples
from ._keeper import CommandKeeper
from ._options import CheckOptions
from ._process import CommandImplementation
from ._protocol import CommandFailed
from ._reading import _exact_weights, _read_updates
from ._worker import ISOLATED, LoadTimeout, Worker


T = TypeVar("T")


class _TimedOut(BaseException):
    """Raised in an implementation running in process when its time is up (no `except Exception` eats it)."""


class Runner:
    """Calls one implementation for one check; `close` ends whatever process it still has.

    Parameters
    ----------
    target : object
        The implementation, loaded (`_target._prepare`).
    kind : str
        ``function``, ``estimator``, ``estimator class`` or ``command``.
    options : CheckOptions
        The check's options (its non-separable signals are the worker's).
    clock : Clock
        The check's time limit: every call ends by it.
    worker : Worker, optional
        The worker that loaded the implementation (`_loading.prepare`), when it was named by text.
    """

    def __init__(self, target: object, kind: str, options: CheckOptions, clock: Clock,
                 worker: Worker | None = None) -> None:
        self.target, self.kind, self.clock = target, kind, clock
        self.signals = options.nonseparable_errors
        if worker is None and kind != "command" and ISOLATED:
            worker = Worker(target, kind, self.signals)
        self.worker = worker
        self.commands: CommandKeeper | None = None  # one keeper runs every call of a command

    def call(self, X: Samples, y: Labels, options: CheckOptions, max_updates: int) -> _Call:
        """One call on `X`, `y` (as the implementation expects them), read under `options`; at most
        `max_updates` of its reported updates are read."""
        timeout, limited = self.clock.wait(options.call_timeout)
        self.clock.called()
        if self.kind == "command":
            if not isinstance(self.target, CommandImplementation):  # `_loading.prepare` gives a command as itself
                raise TypeError(f"a command implementation was expected, not {type(self.target).__name__}")
            if self.commands is None or self.commands.gone:
                if self.commands is not None:
                    self.commands.stop()
                self.commands = self._started(CommandKeeper)
            call, output = _command_call(self.target, X, y, options, timeout, max_updates,
                                         self.commands)
        else:
            request = Request(X, y, options.convention, options.reading, len(X[0]), len(y), max_updates)
            if self.worker is not None:
                call, output = self._worker_call(self.worker, request, timeout)
            else:
                call, output = _in_process(self.target, self.kind, request, self.signals, timeout)
        if call is None:
            if limited:
                raise OutOfTime(self.clock.seconds or 0.0, self.clock.phase)
            prefix = "(the command) " if self.kind == "command" else ""
            call = _Call(error=f"{prefix}did not return within call_timeout={options.call_timeout} s")
        return replace(call, output=output.text(), output_bytes=output.total)

    def _worker_call(self, worker: Worker, request: Request, timeout: float | None) -> tuple[_Call | None, Capped]:
        """One call in the worker; a new worker that loads the implementation itself has `LOAD_SECONDS` (or
        what is left of the check's time) for that, apart from the call's own `timeout`."""
        load_seconds, limited = self.clock.wait(_loading.LOAD_SECONDS)
        try:
            return self._started(lambda: worker.call(request, timeout, load_seconds))
        except LoadTimeout:
            if limited:
                raise OutOfTime(self.clock.seconds or 0.0, self.clock.phase) from None
            return _Call(error=f"was not loaded again in a new worker process within {_loading.LOAD_SECONDS:g} s (the "
                         "loading limit)"), Capped()

    def close(self) -> None:
        """End the worker process or the commands' keeper, and everything they started."""
        if self.worker is not None:
            self.worker.close()
        if self.commands is not None:
            self.commands.stop()

    @staticmethod
    def _started(start: Callable[[], T]) -> T:
        """`start()`, a process refused (fork, pipes) being the machine's limits, not the implementation's."""
        try:
            return start()
        except OSError as error:
            raise InvalidArgument(f"the check could not start a process to run the implementation in "
                                  f"({error.strerror or error})") from None


def _in_process(target: object, kind: str, request: Request, signals: tuple[type[BaseException], ...],
                timeout: float | None) -> tuple[_Call | None, Capped]:
    kept = Capped()
    sink = TextSink(kept)
    try:
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink), alarm(timeout, _TimedOut):
            call = attempt(target, kind, request, signals, passthrough=(_TimedOut, KeyboardInterrupt, OutOfTime))
    except _TimedOut:
        return None, kept
    return call, kept


def _command_call(target: CommandImplementation, X: Samples, y: Labels, options: CheckOptions, timeout: float | None,
                  max_updates: int, keeper: CommandKeeper) -> tuple[_Call | None, Capped]:
    """One run of the command; its weights laid out as ``(w, b)`` (the bias last, or first with ``bias="first"``)
    unless in the convention's order (``output="augmented"`` or ``bias="convention"``), then read."""
    try:
        flat, written, output = target.run(X, y, dtype=options.dtype, timeout=timeout, max_updates=max_updates,
                                           keeper=keeper)
    except CommandFailed as failure:
        return (None if failure.late else _Call(error=f"(the command) {failure.reason}")), failure.output
    if flat is None:
        return _Call(signalled=True), output
    conv, d = get_convention(options.convention), len(X[0])

    in_order = options.output == "augmented" or options.bias == "convention"
    reading = "augmented" if in_order else options.output

    def laid_out(values: list[Any]) -> Any:
        if in_order or not values:
            return values
        return (values[1:], values[0]) if options.bias == "first" else (values[:-1], values[-1])

    # the weights and the bias named in the file are a pair whatever --bias says
    raw, how = (flat, "pair") if isinstance(flat, tuple) else (laid_out(flat), reading)
    try:
        weights = _exact_weights(raw, conv, d, how, "the returned weights")
    except ValueError as error:
        return _Call(weights_error=str(error)), output
    if written is None:
        return _Call(weights), output
    updates, cut = written
    try:
        read, _ = _read_updates([(i, laid_out(w)) for i, w in updates], conv, len(y), d, reading)
    except ValueError as error:
        return _Call(weights, updates_error=str(error)), output
    return _Call(weights, updates=read, updates_cut=cut), output
