"""A Python implementation run at arm's length: in a worker process forked from the check, under a
keeper (`_keeper`), sent each dataset and sending back only exact values.

Why a process, and a fork: an implementation can end the process it runs
in (``os._exit``), loop in C where no signal handler runs
(``sum(range(10**12))``, a regular expression that backtracks), block or
swallow the timer's signal, leave a thread that never ends, or write to file
descriptor 1 under the check's JSON. None of that can be stopped or undone
in the check's own process; a worker is killed (SIGKILL, its process group
and whatever it left behind, by its keeper), and its descriptors 1 and 2 are
a pipe the check reads within limits (`_capture`). A fork, not a fresh
interpreter: the worker has an implementation given as an object as the
check has it (a function defined in a test or a notebook included); one
named by text (``MODULE:EXPR``) is imported in the worker itself
(`_loading`), so that the check's process never runs its module's code. It
serves every call of one check, so an implementation keeps its state from
one call to the next as it would in process; a worker that died or timed
out is replaced by a new fork for the next call (which imports a named
implementation again).

The exchange: a worker that imports its implementation first sends a
`_target.Loaded` record (its kind and configuration, or why it cannot be
used); then the check writes ``Request`` (the data as the implementation
expects them) pickled, with its length first; the worker calls the
implementation (`_call.attempt`), reads its weights and updates into
`Fraction`s there, under the time limit, and writes back the `_Call` record
the same way. A result larger than `MAX_RESULT_BYTES` is refused.
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import signal
import struct
import sys
import time
import traceback
from collections.abc import Sequence

from ..data.rationals import shown_value
from ._call import Request, _Call, attempt
from ._capture import Capped, drain, drain_until_eof, ready
from ._keeper import ChildKeeper, describe_ending, die_with_parent
from ._target import Loaded, load_named

#: Most bytes of one call's result (its weights and updates, pickled) the check reads.
MAX_RESULT_BYTES = 64 << 20
#: Whether Python implementations run in a worker (POSIX); elsewhere they run in the check's process.
ISOLATED = hasattr(os, "fork")

_LENGTH = struct.Struct("!Q")
#: The worker's exit status when the harness's own code in it failed (EX_SOFTWARE).
_WORKER_FAILED = 70


class LoadTimeout(Exception):
    """A worker did not finish loading its implementation in the time it was given."""


class Worker:
    """The worker process serving one implementation's calls; started on the first call, replaced after it ends.

    With `name` (``MODULE:EXPR``), every worker imports the implementation
    itself before it serves (`load` starts the first one); else it has
    `target`, of `kind`, as the check's process has it.
    """

    def __init__(self, target: object, kind: str | None, signals: tuple[type[BaseException], ...],
                 name: str | None = None) -> None:
        self.target, self.kind, self.signals, self.name = target, kind, signals, name
        self.keeper: ChildKeeper | None = None
        self.requests = self.results = self.output = -1
        self.output_open = False

    def load(self, seconds: float | None) -> tuple[Loaded, Capped]:
        """Start the first worker, which loads the implementation named: what it learnt and what it printed
        meanwhile. `LoadTimeout` after `seconds`; the worker is then stopped (as after any failure to load)."""
        kept = Capped()
        self._start()
        try:
            loaded = self._loaded(seconds, kept)
        except TimeoutError:
            raise LoadTimeout from None
        if loaded.kind is None:
            self._end(kept)
        else:
            self.kind = loaded.kind
        return loaded, kept

    def _loaded(self, seconds: float | None, kept: Capped) -> Loaded:
        """The new worker's `Loaded` record, waited for `seconds` (`LoadTimeout` after them: it is stopped)."""
        end = None if seconds is None else time.monotonic() + seconds
        try:
            payload = self._exchange(None, end, kept)
        except BaseException:
            self._end(kept)
            raise
        if not isinstance(payload, bytes):  # it ended while loading (os._exit in the module, a crash)
            ending = self._end(kept, ended=True) if payload is None else "stopped"
            return Loaded(None, {}, f"target={shown_value(self.name)}: while being imported, it {describe_ending(ending)}")
        try:
            loaded = pickle.loads(payload)
        except Exception as error:  # noqa: BLE001 - never expected: the worker sends only its own record
            self._end(kept)
            return Loaded(None, {}, f"target={shown_value(self.name)}: loading it gave a record the check cannot read "
                          f"({type(error).__name__})")
        return loaded if isinstance(loaded, Loaded) else Loaded(None, {}, f"target={shown_value(self.name)}: no record")

    def call(self, request: Request, timeout: float | None,
             load_seconds: float | None = None) -> tuple[_Call | None, Capped]:
        """One call: its record and what it printed, or ``(None, printed)`` when it did not return in `timeout` s.

        A worker started here (the last one ended) that loads its implementation itself may take
        `load_seconds` for that, apart from `timeout`: `LoadTimeout` when it does not load in time."""
        kept = Capped()
        if self.keeper is None:
            self._start()
            if self.name is not None:
                try:
                    loaded = self._loaded(load_seconds, kept)
                except TimeoutError:
                    raise LoadTimeout from None
                if loaded.kind is None:
                    self._end(kept)
                    return _Call(error=f"could not be loaded again in a new worker process: {loaded.error}"), kept
        end = None if timeout is None else time.monotonic() + timeout
        try:
            payload = self._exchange(pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL), end, kept)
        except TimeoutError:
            self._end(kept)
            return None, kept
        if payload is None:  # the worker ended without an answer
            ending = self._end(kept, ended=True)
            return _Call(error=f"{describe_ending(ending)} instead of returning"), kept
        if isinstance(payload, int):
            self._end(kept)
            return _Call(error=f"returned {payload} bytes of weights and updates; at most {MAX_RESULT_BYTES} are "
                         "read"), kept
        if self.output_open and drain(self.output, kept):
            self.output_open = False
        try:
            call = pickle.loads(payload)
        except Exception as error:  # noqa: BLE001 - never expected: the worker sends only its own records
            self._end(kept)
            return _Call(error=f"gave a result the check cannot read ({type(error).__name__})"), kept
        return call, kept

    def close(self) -> None:
        """End the worker and everything it started."""
        if self.keeper is not None:
            self._end(Capped())

    def _start(self) -> None:
        request_read, request_write = os.pipe()
        result_read, result_write = os.pipe()
        output_read, output_write = os.pipe()
        mine, theirs = (request_write, result_read, output_read), (request_read, result_write, output_write)
        target, kind, signals, name = self.target, self.kind, self.signals, self.name

        def launch(keeper_fds: Sequence[int]) -> int:
            pid = os.fork()
            if pid == 0:
                try:
                    os.setpgid(0, 0)
                    die_with_parent()  # should the implementation kill its keeper, it goes too
                    _become_worker(output_write)  # first: even its own failure is then the check's to read
                    for fd in keeper_fds:
                        os.close(fd)
                    _serve(target, kind, signals, request_read, result_write, name)
                    os._exit(0)
                except BaseException:  # noqa: BLE001 - the worker's own failure: say so where the output goes
                    with contextlib.suppress(BaseException):
                        os.write(2, traceback.format_exc().encode("utf-8", "replace"))
                finally:
                    os._exit(_WORKER_FAILED)
            with contextlib.suppress(OSError):
                os.setpgid(pid, pid)  # also here: whichever of the two runs first
            return pid

        try:
            self.keeper = ChildKeeper(launch, close=mine)
        except BaseException:
            for fd in mine:
                os.close(fd)
            raise
        finally:
            for fd in theirs:
                os.close(fd)
        self.requests, self.results, self.output = mine
        for fd in mine:
            os.set_blocking(fd, False)
        self.output_open = True

    def _exchange(self, payload: bytes | None, end: float | None, kept: Capped) -> bytes | int | None:
        """Send the request (None: nothing), read the answer, drain the output meanwhile: the answer's bytes,
        None when the worker ended first, its length when too long; TimeoutError at `end`."""
        pending = memoryview(b"" if payload is None else _LENGTH.pack(len(payload)) + payload)
        received = bytearray()
        while True:
            left = None if end is None else end - time.monotonic()
            if left is not None and left <= 0:
                raise TimeoutError
            readable = [self.results] + ([self.output] if self.output_open else [])
            found, writable = ready(readable, [self.requests] if pending else [], left)
            if writable:
                try:
                    pending = pending[os.write(self.requests, pending[:1 << 16]):]
                except BlockingIOError:
                    pass
                except BrokenPipeError:  # it ended; its results pipe says so next
                    pending = pending[len(pending):]
            if self.output in found and drain(self.output, kept):
                self.output_open = False
            if self.results in found:
                try:
                    chunk = os.read(self.results, 1 << 20)
                except BlockingIOError:
                    continue
                if not chunk:
                    return None
                received += chunk
                if len(received) >= _LENGTH.size:
                    (length,) = _LENGTH.unpack_from(received)
                    if length > MAX_RESULT_BYTES:
                        return length
                    if len(received) >= _LENGTH.size + length:
                        return bytes(received[_LENGTH.size:_LENGTH.size + length])

    def _end(self, kept: Capped, *, ended: bool = False) -> str:
        """Stop the worker and its keeper, read the rest of its output; how it ended (`ended`: it closed its
        end of the results pipe, so its keeper is about to say how)."""
        keeper, self.keeper = self.keeper, None
        ending = "stopped"
        if keeper is not None:
            if keeper.read_ending(1.0 if ended else 0.0) is None:
                keeper.stop()
            ending = keeper.ending or "stopped"
        if self.output_open:
            drain_until_eof(self.output, kept, 0.5)
        for fd in (self.requests, self.results, self.output):
            with contextlib.suppress(OSError):
                os.close(fd)
        self.requests = self.results = self.output = -1
        self.output_open = False
        return ending


def _become_worker(output: int) -> None:
    """The worker's standard streams: nothing to read, and what it prints to the check's pipe, in order."""
    signal.set_wakeup_fd(-1)  # the keeper's, closed here
    for signum in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP, signal.SIGALRM):
        signal.signal(signum, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    nothing = os.open(os.devnull, os.O_RDONLY)
    os.dup2(nothing, 0)
    os.close(nothing)
    os.dup2(output, 1)
    os.dup2(output, 2)
    os.close(output)
    sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8", errors="backslashreplace",
                                  write_through=True)
    sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8", errors="backslashreplace",
                                  write_through=True)


def _serve(target: object, kind: str | None, signals: tuple[type[BaseException], ...], requests: int, results: int,
           name: str | None) -> None:
    """Load the implementation `name`d, if any, and say how that went; then answer requests until the check
    closes its end."""
    me = os.getpid()
    if name is not None:
        target, loaded = load_named(name)
        if os.getpid() != me:  # a fork its module made while imported, returning here: only the worker answers
            os._exit(0)
        _flush()
        _write_all(results, _frame(loaded))
        if loaded.kind is None:
            return
        kind = loaded.kind
    assert kind is not None
    while True:
        payload = _read_frame(requests)
        if payload is None:
            return
        call = attempt(target, kind, pickle.loads(payload), signals)
        if os.getpid() != me:  # a fork the implementation made, returning here: only the worker answers
            os._exit(0)
        _flush()  # what it printed reaches the pipe before the answer
        _write_all(results, _frame(call))


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(BaseException):
            stream.flush()


def _frame(record: _Call | Loaded) -> bytes:
    """`record` pickled, its length first."""
    try:
        answer = pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as error:  # noqa: BLE001 - never expected: the records hold exact values and text
        answer = pickle.dumps(_Call(error=f"gave weights the check cannot carry ({type(error).__name__})"))
    return _LENGTH.pack(len(answer)) + answer


def _read_frame(fd: int) -> bytes | None:
    header = _read_exactly(fd, _LENGTH.size)
    return None if header is None else _read_exactly(fd, _LENGTH.unpack(header)[0])


def _read_exactly(fd: int, size: int) -> bytes | None:
    parts, got = [], 0
    while got < size:
        chunk = os.read(fd, min(size - got, 1 << 20))
        if not chunk:
            return None
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
