"""The --time-limit backstop: it fires, it is disarmed by cancel, and it survives being swallowed once."""

from __future__ import annotations

import gc
import time

import pytest

from verify_perceptron.deadline import TimeUp, deadline


def test_a_cancelled_deadline_never_fires() -> None:
    with deadline(0.01) as clock:
        clock.cancel()
        time.sleep(1.2)  # past the limit and its grace second


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # the swallowed first alarm
def test_an_exception_swallowed_where_it_lands_comes_back() -> None:
    # The first alarm lands in a garbage-collector callback, where Python reports and drops exceptions.
    def slow_callback(phase: str, info: dict) -> None:
        if phase == "start":
            time.sleep(1.3)

    gc.callbacks.append(slow_callback)
    try:
        with pytest.raises(TimeUp, match="ran out while waiting"):
            with deadline(0.01) as clock:
                clock.phase = "waiting"
                gc.collect()  # the alarm (at 1.01 s) fires in the callback and is swallowed there
                gc.callbacks.remove(slow_callback)
                time.sleep(2)  # ... and fires again here
    finally:
        if slow_callback in gc.callbacks:
            gc.callbacks.remove(slow_callback)


def test_no_limit_no_timer() -> None:
    with deadline(None) as clock:
        assert not clock.armed
