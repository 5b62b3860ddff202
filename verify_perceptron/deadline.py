"""The command line's backstop for `--time-limit`: every phase ends within the limit plus a second.

The run itself watches the clock and stops cleanly with a partial report;
loading, the separability decision and the report's own arithmetic mostly
do too, but not every step can (one very long integer operation, say).
`deadline` arms a one-shot timer (SIGALRM, main thread, POSIX) at the limit
plus a grace second; when it fires, `TimeUp` is raised in whatever phase is
running, which the command line reports in one line with exit code 3.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["Deadline", "TimeUp", "deadline", "GRACE"]

#: Seconds allowed past the limit before the backstop fires.
GRACE = 1.0
#: Seconds between repeats of the backstop, should its exception be swallowed where it lands.
_AGAIN = 0.05


class TimeUp(Exception):
    """The time limit (plus `GRACE`) ran out during `phase`."""

    def __init__(self, seconds: float, phase: str) -> None:
        super().__init__(f"the time limit of {seconds:g} s ran out while {phase}")
        self.seconds, self.phase = seconds, phase


class Deadline:
    """What the command is doing now (`phase`), for the message; `cancel` disarms the timer."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds, self.phase, self.armed = seconds, "starting", False

    def cancel(self) -> None:
        """Disarm: what follows (writing the report) must not be cut short."""
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            self.armed = False

    def _fire(self, signum: int, frame: object) -> None:
        # A handler's exception can land where it is swallowed (a garbage-collector callback, a
        # finalizer): the timer stays armed and fires again shortly, until `cancel` or the exception ends it.
        signal.setitimer(signal.ITIMER_REAL, _AGAIN)
        raise TimeUp(self.seconds or 0.0, self.phase)


@contextmanager
def deadline(seconds: float | None) -> Iterator[Deadline]:
    """Raise `TimeUp` after ``seconds + GRACE`` unless cancelled; nothing without a limit or a usable timer.

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
    usable = (seconds is not None and hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread())
    previous = None
    if usable:
        previous = signal.signal(signal.SIGALRM, clock._fire)
        signal.setitimer(signal.ITIMER_REAL, float(seconds) + GRACE)  # type: ignore[arg-type]
        clock.armed = True
    try:
        yield clock
    finally:
        clock.cancel()
        if usable:
            signal.signal(signal.SIGALRM, previous)
