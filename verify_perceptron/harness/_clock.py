"""The check's own time limit (``check --time-limit``, ``time_limit=``): what is left of it, and the
exception that ends the check when it runs out."""

from __future__ import annotations

import time
from typing import Any

from ..data.rationals import shown_value
from ..errors import InvalidArgument

#: The longest time a check or a call may be given: a timer or a wait cannot be set much further (the
#: platform's time_t), and 31 years is no limit in practice. Leave the limit out (None) instead.
MAX_SECONDS = 1e9


def seconds_or_none(name: str, seconds: object) -> float | None:
    """`seconds` checked (a number > 0, at most `MAX_SECONDS`), or None for no limit.

    Examples
    --------
    >>> seconds_or_none("call_timeout", 10), seconds_or_none("call_timeout", None)
    (10, None)
    >>> seconds_or_none("time_limit", 10**400)
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.InvalidArgument: time_limit=10000000000000000000...0000000000 (401 digits) must be a number of seconds > 0 and at most 1000000000 (about 31 years), or None for no limit
    """
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 < seconds <= MAX_SECONDS:
        raise InvalidArgument(f"{name}={shown_value(seconds)} must be a number of seconds > 0 and at most "
                              f"{MAX_SECONDS:.0f} (about 31 years), or None for no limit")
    return seconds


class OutOfTime(BaseException):
    """The check's time limit ran out during `phase`.

    A BaseException, not an Exception: Hypothesis takes an Exception raised in
    a test for a failure to shrink, and would go on calling the implementation;
    anything else it lets through at once. The front doors turn it into
    `verify_perceptron.deadline.TimeUp`.
    """

    def __init__(self, seconds: float, phase: str) -> None:
        super().__init__(seconds, phase)
        self.seconds, self.phase = seconds, phase

    def __str__(self) -> str:
        return f"the time limit of {self.seconds:g} s ran out while {self.phase}"


class Clock:
    """The time left of a check limited to `seconds` (None: no limit), `spent` of them already used
    before, and what it is doing (`phase`).

    Examples
    --------
    >>> clock = Clock(None)
    >>> clock.wait(10.0)
    (10.0, False)
    >>> Clock(3600).wait(None)[1]
    True
    >>> Clock(1e-9).wait(1.0)
    Traceback (most recent call last):
    ...
    verify_perceptron.harness._clock.OutOfTime: the time limit of 1e-09 s ran out while starting
    """

    def __init__(self, seconds: float | None, *, spent: float = 0.0, watch: Any = None) -> None:
        self.seconds = seconds
        self.end = None if seconds is None else time.monotonic() + seconds - spent
        self.watch, self.n_calls = watch, 0  # a progress display (`verify_perceptron.progress.Watch`), or None
        self._phase = "starting"

    @property
    def phase(self) -> str:
        """What the check is doing, for a time limit's message and a progress display (told as it changes)."""
        return self._phase

    @phase.setter
    def phase(self, name: str) -> None:
        if self.watch is not None and name != self._phase:
            self.watch.phase(name)
        self._phase = name

    def called(self) -> None:
        """The implementation is called once more: counted, and told to the progress display."""
        self.n_calls += 1
        if self.watch is not None:
            self.watch.calls(self.n_calls)

    def wait(self, timeout: float | None) -> tuple[float | None, bool]:
        """How long one call may take: ``(seconds or None, whether that is the check's limit rather than
        `timeout`)``; `OutOfTime` when nothing is left."""
        if self.end is None:
            return timeout, False
        left = self.end - time.monotonic()
        if left <= 0:
            raise OutOfTime(self.seconds or 0.0, self.phase)
        return (left, True) if timeout is None or left < timeout else (timeout, False)

    def check(self) -> None:
        """`OutOfTime` once the limit has passed."""
        self.wait(None)
