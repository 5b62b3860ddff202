"""Processes at arm's length: a child run under a keeper that ends it, and everything it started.

`Keeper` forks a keeper process, which runs none of the checked code. The
keeper starts the child (a function of the harness run in a fork, or a
program through `subprocess`) in a process group of its own, and waits. When
the child ends, when the check asks (`Keeper.stop`), or when the check's own
process dies (the control pipe only the check holds then closes), the keeper
kills the child's process group and every process left in its care, reaps
them, writes how the child ended to its status pipe, and exits.

On Linux the keeper is a child subreaper (``prctl(PR_SET_CHILD_SUBREAPER)``):
a descendant that leaves the group (``setsid``, a double fork) is re-parented
to the keeper instead of to init, found among the keeper's children in
``/proc`` and killed with the rest, round after round until none is left. Other
platforms have no such call here (FreeBSD's ``procctl(PROC_REAP_ACQUIRE)`` is
not used): there the child's process group is killed, and a descendant that
left it can outlive the check.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import select
import signal
import sys
import time
from collections.abc import Callable, Sequence

#: prctl's option that makes a process the reaper of its orphaned descendants (Linux >= 3.4).
_PR_SET_CHILD_SUBREAPER = 36
#: Seconds the keeper goes on killing and reaping before it gives up (a process stuck in the kernel).
_REAP_SECONDS = 2.0
#: Seconds the check waits for a keeper to report once asked to stop, before killing the keeper itself.
STOP_SECONDS = 3.0

#: The keepers alive, by process id, so that `stop_all` can end them whatever happened in between.
_LIVE: dict[int, Keeper] = {}
_PRCTL: list[Callable[..., int] | None] = []


def _prctl() -> Callable[..., int] | None:
    """libc's ``prctl``, looked up once in the check's process (never in a fresh fork, where it would cost)."""
    if not _PRCTL:
        found = None
        if sys.platform.startswith("linux"):
            try:
                import ctypes

                found = ctypes.CDLL(None, use_errno=True).prctl
            except (OSError, AttributeError):
                found = None
        _PRCTL.append(found)
    return _PRCTL[0]


#: A child's end as the keeper reports it: ``exit N``, ``signal N``, ``stopped`` (killed when asked to stop),
#: or ``error MESSAGE`` (it could not be started).
Ending = str


def describe_ending(ending: Ending) -> str:
    """How a child ended, in words.

    Examples
    --------
    >>> describe_ending("exit 3"), describe_ending("signal 11")
    ('ended its process with exit status 3', 'was killed by signal SIGSEGV (11)')
    """
    kind, _, value = ending.partition(" ")
    if kind == "exit":
        return f"ended its process with exit status {value}"
    if kind == "signal":
        try:
            name = signal.Signals(int(value)).name
        except ValueError:
            name = "unknown"
        return f"was killed by signal {name} ({value})"
    if kind == "error":
        return f"could not be started: {value}"
    return "was stopped"


class Keeper:
    """A keeper process and the child it started; `ending` once it reported how the child ended.

    Parameters
    ----------
    launch : callable
        Run in the keeper: starts the child in a process group of its own and
        returns its process id. It is given the keeper's own file descriptors,
        which a forked child must close.
    close : sequence of int
        File descriptors of the check's side that the keeper must not hold.
    """

    def __init__(self, launch: Callable[[Sequence[int]], int], close: Sequence[int] = ()) -> None:
        _prctl()
        for stream in (sys.stdout, sys.stderr):  # nothing buffered twice
            with contextlib.suppress(Exception):
                stream.flush()
        control_read, control_write = os.pipe()
        status_read, status_write = os.pipe()
        others = [fd for keeper in _LIVE.values() for fd in (keeper.control, keeper.status)]
        parent = os.getpid()
        try:
            pid = os.fork()
            if pid == 0:
                _keep(launch, control_read, status_write, [*close, *others, control_write, status_read])
        except BaseException:
            if os.getpid() != parent:  # an exception landed in the fork before it reached _keep
                os._exit(1)
            os.close(control_read)
            os.close(status_write)
            os.close(control_write)
            os.close(status_read)
            raise
        self.pid, self.control, self.status = pid, control_write, status_read
        self.ending: Ending | None = None
        _LIVE[pid] = self
        os.close(control_read)
        os.close(status_write)

    def read_ending(self, seconds: float) -> Ending | None:
        """How the child ended, once the keeper has said so (waiting at most `seconds`); the keeper is then reaped."""
        if self.ending is None:
            received = b""
            end = time.monotonic() + seconds
            while True:
                left = end - time.monotonic()
                if left <= 0 or not select.select([self.status], [], [], left)[0]:
                    return None
                chunk = os.read(self.status, 4096)
                if not chunk:
                    break
                received += chunk
            self.ending = received.decode("utf-8", "replace").strip() or "error the keeper ended without a word"
            self._reap(kill=False)
        return self.ending

    def stop(self) -> Ending:
        """End the child (if it still runs) and everything it started; how it ended."""
        if self.pid not in _LIVE:
            return self.ending or "stopped"
        with contextlib.suppress(OSError):
            os.close(self.control)
        self.control = -1
        if self.read_ending(STOP_SECONDS) is None:
            self._reap(kill=True)
            self.ending = "stopped"
        return self.ending or "stopped"

    def _reap(self, *, kill: bool) -> None:
        if kill:
            with contextlib.suppress(OSError):
                os.kill(self.pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)
        for fd in (self.control, self.status):
            with contextlib.suppress(OSError):
                if fd >= 0:
                    os.close(fd)
        self.control = self.status = -1
        _LIVE.pop(self.pid, None)


def stop_all() -> None:
    """Stop every keeper still alive (the check's end, an error, the time limit, ^C)."""
    for keeper in list(_LIVE.values()):
        keeper.stop()


atexit.register(stop_all)


def _keep(launch: Callable[[Sequence[int]], int], control: int, status: int, close: Sequence[int]) -> None:
    """The keeper's life: start the child, wait for its end or for the word to stop, kill all, report, exit."""
    ending = "error the keeper failed before the child started"
    child = None
    try:
        for fd in close:
            with contextlib.suppress(OSError):
                os.close(fd)
        wake_read, wake_write = os.pipe()
        os.set_blocking(wake_write, False)
        # Handlers, not SIG_IGN, so that a program started from here gets the defaults back at exec. ^C
        # reaches the check too, which then stops us; a stray alarm inherited from it does nothing here.
        for signum in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP, signal.SIGINT, signal.SIGALRM):
            signal.signal(signum, lambda *_: None)
        signal.set_wakeup_fd(wake_write, warn_on_full_buffer=False)
        prctl = _prctl()
        if prctl is not None:
            prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
        try:
            child = launch([control, status, wake_read, wake_write])
        except OSError as error:
            ending = f"error {error.strerror or error}"
            return
        ending = _wait(child, control, wake_read)
    except BaseException as error:  # noqa: BLE001 - the keeper must still kill and report
        ending = f"error the keeper failed: {type(error).__name__}"
    finally:
        try:
            _kill_all(child)
            os.write(status, ending.encode("utf-8", "replace") + b"\n")
        finally:
            os._exit(0)


def _wait(child: int, control: int, wake: int) -> Ending:
    """Until the child ends (its ending) or the check says stop or dies (``stopped``)."""
    while True:
        ending = _reap_children(child)
        if ending is not None:
            return ending
        ready, _, _ = select.select([control, wake], [], [])
        stop = control in ready  # end of file: the check closed its end, or died
        if wake in ready:
            signals = os.read(wake, 512)
            stop = stop or signal.SIGTERM in signals or signal.SIGHUP in signals
        if stop:
            return _reap_children(child) or "stopped"


def _reap_children(child: int) -> Ending | None:
    """Reap whatever has ended; the child's ending if it is among them."""
    ending = None
    while True:
        try:
            pid, wait_status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:  # no child at all: the child's end was read elsewhere (never expected)
            return ending or "error its exit status was lost"
        if pid == 0:
            return ending
        if pid == child:
            code = os.waitstatus_to_exitcode(wait_status)
            ending = f"exit {code}" if code >= 0 else f"signal {-code}"


def _kill_all(child: int | None) -> None:
    """Kill the child's process group, then every process left in the keeper's care, until none is left."""
    if child is not None:
        with contextlib.suppress(OSError):
            os.killpg(child, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.kill(child, signal.SIGKILL)
    end = time.monotonic() + _REAP_SECONDS
    while time.monotonic() < end:
        for pid in _children():
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        try:
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass
        except ChildProcessError:
            return
        time.sleep(0.001)


def _children() -> list[int]:
    """The keeper's child processes (Linux ``/proc``; none found elsewhere)."""
    me = os.getpid()
    try:
        with open(f"/proc/{me}/task/{me}/children", encoding="ascii") as listing:
            return [int(pid) for pid in listing.read().split()]
    except (OSError, ValueError):
        pass
    found = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as stat:
                    fields = stat.read().rsplit(b")", 1)[1].split()  # after the name, which may hold spaces
                if int(fields[1]) == me:
                    found.append(int(entry))
            except (OSError, ValueError, IndexError):
                continue
    return found
