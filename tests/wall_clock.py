"""Wall-time limits in tests that hold on a loaded machine: `stretch` says how many wall seconds a second of CPU
work takes right now, and `Stopwatch` times an action and scales the part of its limit that is CPU work by it.

A limit of the package (``--time-limit``, a call timeout) is a promise in wall time, but what follows it (stopping,
the report, joining a thread, a process's exit) is CPU work, which a machine running eight busy processes on two
cores does four times slower. A test that held such work to a fixed number of wall seconds failed under load without
the code being wrong. Each limit is the figure a quiet machine meets, its CPU part times the stretch measured right
after the action; a quiet machine's stretch is 1, so there a test is as strict as before, and a code path that
ignores its limit (runs to its end, or hangs) still fails on any machine. Where the wrong behaviour is a fixed wall
time (an alarm set too late), the test compares with that figure itself, unstretched (`tests/test_deadline.py`).
"""

from __future__ import annotations

import os
import time
from types import TracebackType

#: CPU seconds of the calibration spin: long enough to span several scheduler slices, short enough to be cheap.
SPIN = 0.02


def spin_stretch(cpu_seconds: float = SPIN) -> float:
    """Wall seconds per CPU second of a busy loop of `cpu_seconds` in this thread, now (1.0 on an idle core).

    >>> spin_stretch(0.001) >= 1.0
    True
    """
    wall, cpu = time.perf_counter(), time.thread_time()
    while time.thread_time() - cpu < cpu_seconds:
        pass
    return max(1.0, (time.perf_counter() - wall) / (time.thread_time() - cpu))


def load_stretch() -> float:
    """The last minute's load average per core, at least 1: the share of a core each runnable process got.

    >>> load_stretch() >= 1.0
    True
    """
    try:
        return max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))
    except OSError:  # (no load average on this system)
        return 1.0


def stretch() -> float:
    """How many wall seconds a second of CPU work takes now: the larger of a short spin's measure (a sudden burst of
    load) and the minute's load average per core (a steady load the spin's few slices may miss).

    >>> stretch() >= 1.0
    True
    """
    return max(spin_stretch(), load_stretch())


class Stopwatch:
    """Started when made; stopped when the block it manages ends (or read while running, without a block).

    `within(fixed, work)` is True when the time taken is at most `fixed` seconds that no load lengthens (a time
    limit waited out, a sleep) plus `work` seconds of a quiet machine's CPU work, stretched by the load. The
    stretch is measured only when the time taken passed the quiet machine's figure, right then: a test on a quiet
    machine spends nothing on it.

    >>> with Stopwatch() as watch:
    ...     pass
    >>> watch.within(0.0, 0.5) and not watch.within(-1.0, 0.0)
    True
    """

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.stopped: float | None = None
        self.stretch: float | None = None

    def __enter__(self) -> Stopwatch:
        self.started = time.monotonic()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.stopped = time.monotonic()

    @property
    def seconds(self) -> float:
        """Wall seconds from the start to the stop, or to now while running."""
        return (time.monotonic() if self.stopped is None else self.stopped) - self.started

    def within(self, fixed: float, work: float) -> bool:
        """Whether the time taken is below `fixed` plus `work` stretched by the load (measured now, if needed)."""
        seconds = self.seconds
        if seconds < fixed + work:
            return True
        if self.stretch is None:
            self.stretch = stretch()
        return seconds < fixed + work * self.stretch

    def __repr__(self) -> str:
        return f"Stopwatch(seconds={self.seconds:.3f}, stretch={self.stretch})"
