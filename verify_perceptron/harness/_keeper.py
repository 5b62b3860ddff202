"""Processes at arm's length: a child run under a keeper that ends it, and everything it started.

A `Keeper` is a fork of the check that runs none of the checked code. A
`ChildKeeper` starts one child (the Python worker) in a process group of its
own; a `CommandKeeper` runs programs one after another, each in a session of
its own, for a whole check. When a child ends, when the check asks (a stop,
or ``k`` for the program running), or when the check's own process dies (the
control pipe only the check holds then closes), the keeper kills the child's
process group and every process left in its care, reaps them, and writes
how the child ended to its status pipe, one line an ending; at the end it
exits with nothing left running.

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
import pickle
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence

from ._capture import MAX_UPDATES_BYTES, Capped, drain, ready, wait_readable

#: prctl's options: the reaper of orphaned descendants (Linux >= 3.4); a signal at the parent's death.
_PR_SET_CHILD_SUBREAPER, _PR_SET_PDEATHSIG = 36, 1
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


def die_with_parent() -> None:
    """Be killed when the parent process dies (Linux ``PR_SET_PDEATHSIG``; nothing elsewhere)."""
    prctl = _prctl()
    if prctl is not None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


#: A child's end as the keeper reports it: ``exit N``, ``signal N``, ``stopped`` (killed when asked to stop),
#: or ``error MESSAGE`` (it could not be started); ``lost`` when the keeper itself died.
Ending = str


#: The largest file a command whose standard output goes to a file may write (``resource.RLIMIT_FSIZE``): its
#: updates file's limit and a byte; past it the kernel stops the write (SIGXFSZ ends the program), so a program
#: that prints without end cannot fill the disk in the time of its call.
FILE_CAP = MAX_UPDATES_BYTES + 1


def _file_cap() -> None:
    """In the child, before its program starts: no file it writes passes `FILE_CAP` bytes."""
    import resource

    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_CAP, FILE_CAP))


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
    if kind == "lost":
        return "killed the process that kept it (its parent), and was killed"
    return "was stopped"


class Keeper:
    """A keeper process: what it does is `body`, run in it; `stop` ends it and everything in its care.

    Parameters
    ----------
    body : callable
        Run in the keeper with its control and status descriptors and the
        descriptors a child it forks must close; it reports on the status
        pipe, one line an ending.
    close : sequence of int
        File descriptors of the check's side that the keeper must not hold.
    """

    def __init__(self, body: Callable[[int, int, list[int]], None], close: Sequence[int] = ()) -> None:
        _prctl()
        for stream in (sys.stdout, sys.stderr):  # nothing buffered twice
            with contextlib.suppress(Exception):
                stream.flush()
        control_read, control_write = os.pipe()
        status_read, status_write = os.pipe()
        others = [fd for keeper in _LIVE.values() for fd in keeper.descriptors()]
        parent = os.getpid()
        try:
            pid = os.fork()
            if pid == 0:
                _keep(body, control_read, status_write, [*close, *others, control_write, status_read])
        except BaseException:
            if os.getpid() != parent:  # an exception landed in the fork before it reached _keep
                os._exit(1)
            for fd in (control_read, status_write, control_write, status_read):
                os.close(fd)
            raise
        self.pid, self.control, self.status = pid, control_write, status_read
        self._received = b""
        self.gone = False
        _LIVE[pid] = self
        os.close(control_read)
        os.close(status_write)

    def descriptors(self) -> list[int]:
        """The check's ends of this keeper's pipes (a keeper forked later must not hold them)."""
        return [fd for fd in (self.control, self.status) if fd >= 0]

    def read_line(self, seconds: float) -> Ending | None:
        """The keeper's next report (waiting at most `seconds`): None if it has none yet, or is `gone`."""
        end = time.monotonic() + seconds
        while b"\n" not in self._received:
            left = end - time.monotonic()
            if self.status < 0 or self.gone or not ready([self.status], [], max(0.0, left))[0]:
                return None
            chunk = os.read(self.status, 4096)
            if not chunk:
                self.gone = True
                return None
            self._received += chunk
        line, _, self._received = self._received.partition(b"\n")
        return line.decode("utf-8", "replace").strip() or "error the keeper reported nothing"

    def stop(self) -> None:
        """End the keeper: it kills what it still keeps, then exits (killed itself if it does not in time)."""
        if self.pid not in _LIVE:
            return
        with contextlib.suppress(OSError):
            os.close(self.control)
        self.control = -1
        end = time.monotonic() + STOP_SECONDS
        while self.status >= 0 and time.monotonic() < end:  # its status pipe closes when it exits
            if ready([self.status], [], max(0.0, end - time.monotonic()))[0]:
                chunk = os.read(self.status, 4096)
                if not chunk:
                    break
                self._received += chunk
        else:
            with contextlib.suppress(OSError):
                os.kill(self.pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)
        with contextlib.suppress(OSError):
            os.close(self.status)
        self.status = -1
        _LIVE.pop(self.pid, None)


class ChildKeeper(Keeper):
    """A keeper of one child, started by `launch` (run in the keeper: it starts the child in a process group
    of its own and returns its process id, given the descriptors a forked child must close)."""

    def __init__(self, launch: Callable[[Sequence[int]], int], close: Sequence[int] = ()) -> None:
        super().__init__(lambda control, status, own: _keep_child(launch, control, status, own), close)
        self.ending: Ending | None = None

    def read_ending(self, seconds: float) -> Ending | None:
        """How the child ended, once the keeper said so (waiting at most `seconds`); the keeper is then gone."""
        if self.ending is None:
            self.ending = self.read_line(seconds) or ("lost" if self.gone else None)
            if self.ending is not None:
                super().stop()
        return self.ending

    def stop(self) -> None:
        """End the child, if it still runs, and everything it started (`ending` then says how it ended)."""
        if self.ending is None:
            with contextlib.suppress(OSError):
                os.close(self.control)
            self.control = -1
            self.ending = self.read_line(STOP_SECONDS) or ("lost" if self.gone else "stopped")
        super().stop()


class CommandKeeper(Keeper):
    """A keeper that runs programs one after another (one fork for a whole check, not one a call), each
    in a session of its own, what they print going to one pipe; between two, nothing is left running."""

    def __init__(self) -> None:
        output_read, output_write = os.pipe()
        try:
            super().__init__(lambda control, status, own: _keep_commands(output_write, control, status, own),
                             close=[output_read])
        except BaseException:
            os.close(output_read)
            raise
        finally:
            os.close(output_write)
        self.output = output_read
        os.set_blocking(output_read, False)

    def descriptors(self) -> list[int]:
        return [*super().descriptors(), *([self.output] if getattr(self, "output", -1) >= 0 else [])]

    def run(self, argv: list[str], cwd: str, timeout: float | None, kept: Capped,
            stdout: str | None = None, stdin: str | None = None) -> Ending | None:
        """Run `argv` in `cwd`, what it prints into `kept` (its standard output into the file `stdout` instead,
        when given), its standard input the file `stdin` (else empty): how it ended, None when `timeout` ran out (it and all it started are then killed). After a
        failure of the keeper itself, `gone` is set."""
        request = pickle.dumps((argv, cwd, stdout, stdin))
        end = None if timeout is None else time.monotonic() + timeout
        started, ending, late = None, None, False
        try:
            os.write(self.control, b"r" + len(request).to_bytes(8, "big") + request)
            while ending is None and not self.gone:
                if b"\n" not in self._received and not wait_readable(self.status, self.output, kept, end):
                    late = True
                    os.write(self.control, b"k")
                    ending = self.read_line(STOP_SECONDS)
                    break
                line = self.read_line(0.0)
                if line is not None and line.startswith("pid "):
                    started, line = int(line[4:]), None
                ending = line
        except OSError:  # its control pipe is broken: it is gone
            self.gone = True
        if ending is None:  # the keeper died (killed by what it ran?): end that session ourselves
            self.gone = True
            if started is not None:
                with contextlib.suppress(OSError):
                    os.killpg(started, signal.SIGKILL)
            ending = "lost"
        drain(self.output, kept)  # everything it and its descendants wrote is in the pipe: they are dead
        return None if late and ending == "stopped" else ending

    def stop(self) -> None:
        super().stop()
        with contextlib.suppress(OSError):
            if self.output >= 0:
                os.close(self.output)
        self.output = -1


def stop_all() -> None:
    """Stop every keeper still alive (the check's end, an error, the time limit, ^C)."""
    for keeper in list(_LIVE.values()):
        keeper.stop()


atexit.register(stop_all)


def _keep(body: Callable[[int, int, list[int]], None], control: int, status: int, close: Sequence[int]) -> None:
    """The keeper's life: its body, then nothing left running, then exit."""
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
        body(control, status, [control, status, wake_read, wake_write])
    except BaseException as error:  # noqa: BLE001 - the keeper must still kill, and say why
        with contextlib.suppress(BaseException):
            os.write(status, f"error the keeper failed: {type(error).__name__}\n".encode())
    finally:
        try:
            _kill_all(None)
        finally:
            os._exit(0)


def _report(status: int, ending: Ending) -> None:
    os.write(status, ending.encode("utf-8", "replace").replace(b"\n", b" ") + b"\n")


def _keep_child(launch: Callable[[Sequence[int]], int], control: int, status: int, own: list[int]) -> None:
    """One child: start it, wait for its end or for the word to stop, kill all, report."""
    wake = own[2]
    try:
        child = launch(own)
    except OSError as error:
        _report(status, f"error {error.strerror or error}")
        return
    ending = _wait(child, control, wake)
    _kill_all(child)
    _report(status, ending)


def _keep_commands(output: int, control: int, status: int, own: list[int]) -> None:
    """Programs one after another, on request: each run, waited for (or killed when told), cleared, reported."""
    wake = own[2]
    while True:
        kind = _read_exactly(control, 1)
        while kind == b"k":  # a stop that came as the last program ended by itself
            kind = _read_exactly(control, 1)
        if kind != b"r":
            return  # end of file: the check is done (or gone)
        size = _read_exactly(control, 8)
        request = _read_exactly(control, int.from_bytes(size, "big")) if size else None
        if request is None:
            return
        argv, cwd, stdout, stdin = pickle.loads(request)
        try:
            with contextlib.ExitStack() as files:  # a file for its standard output: the child keeps its own copy
                sink = output if stdout is None else files.enter_context(open(stdout, "wb"))
                source = subprocess.DEVNULL if stdin is None else files.enter_context(open(stdin, "rb"))
                child = subprocess.Popen(argv, cwd=cwd, stdin=source, stdout=sink, stderr=output,
                                         start_new_session=True, preexec_fn=None if stdout is None else _file_cap)
        except OSError as error:
            _report(status, f"error {error.strerror or error}")
            continue
        _report(status, f"pid {child.pid}")  # the check kills its session itself should we die
        # `child` is kept until reaped here: a Popen that is collected polls its child and could reap it first.
        ending = _wait(child.pid, control, wake)
        _kill_all(child.pid)
        _report(status, ending)
        del child


def _read_exactly(fd: int, size: int) -> bytes | None:
    data = b""
    while len(data) < size:
        chunk = os.read(fd, size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def _wait(child: int, control: int, wake: int) -> Ending:
    """Until the child ends (its ending) or the check says stop (``k``) or goes (``stopped``)."""
    while True:
        ending = _reap_children(child)
        if ending is not None:
            return ending
        found, _ = ready([control, wake])
        stop = False
        if control in found:
            stop = True  # b"k", or end of file: the check closed its end, or died
            with contextlib.suppress(OSError):
                os.read(control, 1)
        if wake in found:
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
