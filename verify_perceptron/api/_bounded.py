"""The Python API's time limit over a whole call: `time_bounded`, the command line's backstop without its signals.

A run stops by itself at its time limit and is reported; reading the data,
deciding separability and building the report cannot always watch the clock
(one long parse, one huge integer product). As ``--time-limit`` does for the
command, `time_bounded` raises `verify_perceptron.deadline.TimeUp`, naming the
phase, in whatever phase is still running a second past the limit
(`verify_perceptron.deadline.GRACE`, less the time the exception needs to
come back), so the call ends within the limit plus that second. It uses the
SIGALRM timer (`verify_perceptron.deadline.alarm`): in the main thread of a
POSIX process with no other timer running (a notebook, a script); elsewhere
only the run and the certificates stop at the limit, by themselves. SIGINT
and SIGTERM are left as they are: a notebook's Ctrl-C stays a
KeyboardInterrupt, and SIGTERM still ends the process.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from ..deadline import GRACE, Deadline, TimeUp, alarm

__all__ = ["time_bounded", "time_left"]

#: Seconds the backstop leaves, of the grace second, for its exception to come back to the caller. More than
#: the command line's 0.15 s: the caller's process goes on, with whatever heap a notebook or a test session
#: holds, and the half second also covers a busy machine (with 0.15 s, a fit limited to 0.2 s once returned
#: after 1.34 s in the whole test suite on two shared cores; alone it returns after 1.08 s).
_RETURN = 0.5
#: The least time limit a run is given: a run started with no time left stops at its first look at the clock.
_AT_ONCE = 1e-9


@contextmanager
def time_bounded(time_limit: float | None) -> Iterator[Deadline]:
    """Raise `TimeUp` in the block at ``time_limit + GRACE - 0.5`` seconds; nothing without a limit or a timer.

    Set the clock's `phase` as the work goes: the message names it. An alarm
    whose exception was dropped where it landed is raised again at the next
    phase and at the end of the block.

    Examples
    --------
    >>> import time
    >>> try:
    ...     with time_bounded(0.01) as clock:
    ...         clock.phase = "waiting"
    ...         time.sleep(3)
    ... except TimeUp as error:
    ...     print(error)
    the time limit of 0.01 s ran out while waiting
    """
    clock = Deadline(time_limit)
    seconds = None if time_limit is None else max(time_limit + GRACE - _RETURN, 0.01)
    with alarm(seconds, lambda: TimeUp(time_limit or 0.0, clock.phase)) as timer:
        clock.timer = timer
        yield clock
        clock.check()


def time_left(time_limit: float | None, started: float) -> float | None:
    """What is left of `time_limit` since `started` (`time.monotonic`), at least 1e-9 s; None without a limit.

    Examples
    --------
    >>> time_left(None, 0.0), time_left(5.0, time.monotonic() - 10.0)
    (None, 1e-09)
    """
    if time_limit is None:
        return None
    return max(time_limit - (time.monotonic() - started), _AT_ONCE)
