"""Time limits that interrupt: one SIGALRM timer for the command line's `--time-limit`, the prover and the harness.

`alarm` raises an exception of the caller's choosing in the main thread once
its seconds are up (SIGALRM, POSIX; nothing elsewhere, or while another timer
runs). An exception raised by a signal handler can land where Python drops
it (a garbage-collector callback, a finalizer), so the timer fires again
every 50 ms until the block ends, and is disarmed even if it lands while
being disarmed.

`deadline` is the command line's backstop for `--time-limit`: the run itself
watches the clock and stops cleanly with a partial report, but not every
phase can (one very long integer operation, say); at the limit plus a grace
second `TimeUp` is raised in whatever phase is running, which the command
line reports in one line with exit code 3.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

__all__ = ["Alarm", "Deadline", "TimeUp", "alarm", "deadline", "process_age", "GRACE"]

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
        self.make, self.armed = make, False
        self._raised: list[BaseException] = []

    def _fire(self, signum: int, frame: object) -> None:
        if self.armed:
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


class Deadline:
    """What the command is doing now (`phase`), for the message; `cancel` disarms the timer."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds, self.phase = seconds, "starting"
        self.timer: Alarm | None = None

    @property
    def armed(self) -> bool:
        """True while the backstop can still fire."""
        return self.timer is not None and self.timer.armed

    def cancel(self) -> None:
        """Disarm: what follows (writing the report) must not be cut short."""
        if self.timer is not None:
            self.timer.cancel()


@contextmanager
def deadline(seconds: float | None, *, spent: float = 0.0) -> Iterator[Deadline]:
    """Raise `TimeUp` after ``seconds + GRACE - _EXIT - spent`` unless cancelled; nothing without a limit or a usable timer.

    `spent` is what the process used before (`process_age`), so the whole
    command ends by the limit plus `GRACE`.

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
    with alarm(None if seconds is None else max(seconds + GRACE - _EXIT - spent, 0.01),
               lambda: TimeUp(seconds or 0.0, clock.phase)) as timer:
        clock.timer = timer
        yield clock
