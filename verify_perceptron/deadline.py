"""Time limits that interrupt: one SIGALRM timer for the command line's `--time-limit`, the prover and the harness.

`alarm` raises an exception of the caller's choosing in the main thread once
its seconds are up (SIGALRM, POSIX; nothing elsewhere, or while another timer
runs). An exception raised by a signal handler can land where Python drops
it (a weakref or garbage-collector callback, a finalizer, matplotlib's
callbacks while a figure is drawn), so the timer fires again every 50 ms
until the block ends, and is disarmed even if it lands while being disarmed.

`deadline` is the command line's backstop for `--time-limit`: the run itself
watches the clock and stops cleanly with a partial report, but not every
phase can (one very long integer operation, say); at the limit plus a grace
second `TimeUp` is raised in whatever phase is running, which the command
line reports in one line with exit code 3. It also turns SIGTERM into
`Terminated` and SIGINT into `KeyboardInterrupt` (exit 128 + the signal).
Each of the three is also recorded where it lands: should Python drop it
there, the next checkpoint (a new `Deadline.phase`, `Deadline.check`,
`Deadline.cancel`, the end of the block) raises it again, so a command can
never finish as if nothing had happened, and the dropped exception prints
nothing (no "Exception ignored in" block on stderr).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["Alarm", "Deadline", "Terminated", "TimeUp", "alarm", "deadline", "process_age", "GRACE"]

#: Seconds allowed past the limit: the whole command ends by then.
GRACE = 1.0
#: Of those, the seconds left after the backstop fires, for the one-line report and the interpreter's exit
#: (about 0.05 s measured with NumPy and FLINT loaded).
_EXIT = 0.15
#: Seconds between repeats of an alarm, should its exception be swallowed where it lands.
_AGAIN = 0.05


class Alarm:
    """An armed timer (`armed`), which `cancel` disarms for the rest of its block."""

    def __init__(self, make: Callable[[], BaseException]) -> None:
        self.make, self.armed, self.fired = make, False, False
        self._raised: list[BaseException] = []

    def _fire(self, signum: int, frame: object) -> None:
        if self.armed:
            self.fired = True  # remembered, should the exception be dropped where it lands
            signal.setitimer(signal.ITIMER_REAL, _AGAIN)  # again soon, should this one be swallowed
            error = self.make()
            self._raised.append(error)
            raise error

    def cancel(self) -> None:
        """Disarm, even if the alarm lands in the middle of disarming."""
        while self.armed:
            try:
                self.armed = False
                signal.setitimer(signal.ITIMER_REAL, 0)
            except BaseException as error:  # only our own alarm is retried; anything else goes on
                if not any(error is raised for raised in self._raised):
                    raise
                self.armed = True


@contextmanager
def alarm(seconds: float | None, make: Callable[[], BaseException]) -> Iterator[Alarm]:
    """Raise ``make()`` in the block after `seconds`; nothing without seconds or a usable timer.

    Examples
    --------
    >>> import time
    >>> try:
    ...     with alarm(0.01, lambda: TimeoutError("up")) as timer:
    ...         time.sleep(3)
    ... except TimeoutError as error:
    ...     print(error, timer.armed)
    up False
    """
    timer = Alarm(make)
    usable = (seconds is not None and hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread()
              and signal.getitimer(signal.ITIMER_REAL)[0] == 0)
    if not usable:
        yield timer
        return
    previous = signal.signal(signal.SIGALRM, timer._fire)
    try:
        timer.armed = True
        signal.setitimer(signal.ITIMER_REAL, float(seconds))  # type: ignore[arg-type]
        yield timer
    finally:
        timer.cancel()
        signal.signal(signal.SIGALRM, previous)


def process_age() -> float:
    """Seconds since this process started (Linux, to the clock tick), or 0.0 where that cannot be read.

    The console script gives it to `deadline`, so that ``--time-limit S``
    counts the interpreter's start and the imports too.

    Examples
    --------
    >>> 0.0 <= process_age() < 24 * 3600
    True
    """
    try:
        with open("/proc/self/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()  # after the command name, which may hold spaces
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22, starttime: ticks after boot
        return max(0.0, time.clock_gettime(time.CLOCK_BOOTTIME) - started)
    except (OSError, ValueError, IndexError, AttributeError):
        return 0.0


class TimeUp(Exception):
    """The time limit (plus `GRACE`) ran out during `phase`."""

    def __init__(self, seconds: float, phase: str) -> None:
        super().__init__(f"the time limit of {seconds:g} s ran out while {phase}")
        self.seconds, self.phase = seconds, phase


class Terminated(BaseException):
    """A signal such as SIGTERM ended the command; its exit code is 128 + `signum`.

    A `BaseException`, as `KeyboardInterrupt` is, so that no ``except Exception`` on the way swallows it.

    Examples
    --------
    >>> import signal
    >>> 128 + Terminated(signal.SIGTERM).signum
    143
    """

    def __init__(self, signum: int) -> None:
        super().__init__(f"terminated by signal {signum}")
        self.signum = signum


class Deadline:
    """What the command is doing now (`phase`), for the message; `cancel` disarms the timer.

    Setting `phase` is a checkpoint (`check`): an alarm or a signal whose
    exception was dropped where it landed is raised again there.
    """

    def __init__(self, seconds: float | None) -> None:
        self.seconds, self._phase = seconds, "starting"
        self.timer: Alarm | None = None
        self.signalled: int | None = None
        self._raised: list[BaseException] = []

    @property
    def phase(self) -> str:
        """What the command is doing now; setting it checks first (`check`)."""
        return self._phase

    @phase.setter
    def phase(self, phase: str) -> None:
        self.check()
        self._phase = phase

    @property
    def armed(self) -> bool:
        """True while the backstop can still fire."""
        return self.timer is not None and self.timer.armed

    def check(self) -> None:
        """Raise again a signal's or the alarm's exception that fired before and was dropped where it landed."""
        if self.signalled is not None:
            raise _signal_error(self.signalled)
        if self.timer is not None and self.timer.fired:
            raise TimeUp(self.seconds or 0.0, self._phase)

    def cancel(self) -> None:
        """Disarm: what follows (writing the report) must not be cut short. Then `check`: a command whose
        time ran out, or that was signalled, does not go on to write as if it had finished."""
        if self.timer is not None:
            self.timer.cancel()
        self.check()

    def _on_signal(self, signum: int, frame: object) -> None:
        if self.signalled is None:
            self.signalled = signum
        error = _signal_error(signum)
        self._raised.append(error)
        raise error

    def _ours(self, error: BaseException | None) -> bool:
        raised = self._raised + (self.timer._raised if self.timer is not None else [])
        return any(error is mine for mine in raised)


def _signal_error(signum: int) -> BaseException:
    return KeyboardInterrupt() if signum == signal.SIGINT else Terminated(signum)


@contextmanager
def _signals_recorded(clock: Deadline) -> Iterator[None]:
    """SIGINT and SIGTERM handled by `clock` in the block (main thread only; an ignored SIGINT stays ignored),
    and the exceptions of its own that Python drops reported nowhere: `clock.check` raises them again."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    hook = sys.unraisablehook

    def unraisable(info: Any) -> None:
        if not clock._ours(info.exc_value):
            hook(info)

    try:
        for signum, handler in previous.items():
            if handler is not signal.SIG_IGN:
                signal.signal(signum, clock._on_signal)
        sys.unraisablehook = unraisable
        yield
    finally:
        for signum, handler in previous.items():
            if handler is not None:
                signal.signal(signum, handler)
        sys.unraisablehook = hook


@contextmanager
def deadline(seconds: float | None, *, spent: float = 0.0) -> Iterator[Deadline]:
    """Raise `TimeUp` after ``seconds + GRACE - _EXIT - spent`` unless cancelled; no timer without a limit or a usable timer.

    `spent` is what the process used before (`process_age`), so the whole
    command ends by the limit plus `GRACE`. SIGTERM raises `Terminated` and
    SIGINT `KeyboardInterrupt` in the block (with or without a limit); any of
    the three that Python drops where it lands is raised again at the next
    checkpoint (`Deadline.check`), at the latest when the block ends.

    Examples
    --------
    >>> import time
    >>> try:
    ...     with deadline(0.01) as clock:
    ...         clock.phase = "waiting"
    ...         time.sleep(3)
    ... except TimeUp as error:
    ...     print(error)
    the time limit of 0.01 s ran out while waiting
    """
    clock = Deadline(seconds)
    with _signals_recorded(clock), alarm(None if seconds is None else max(seconds + GRACE - _EXIT - spent, 0.01),
                                         lambda: TimeUp(seconds or 0.0, clock.phase)) as timer:
        clock.timer = timer
        yield clock
        clock.check()
