"""The --time-limit backstop: it fires, it is disarmed by cancel, and it survives being swallowed once."""

from __future__ import annotations

import gc
import time

import pytest

from verify_perceptron.deadline import TimeUp, deadline, process_age


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


def test_what_the_process_spent_before_counts_against_the_limit() -> None:
    # 0.5 s of limit and its grace second, of which 1.4 s were spent before main: the alarm is due at once.
    started = time.monotonic()
    with pytest.raises(TimeUp, match="the time limit of 0.5 s ran out while starting"):
        with deadline(0.5, spent=1.4):
            time.sleep(5)
    assert time.monotonic() - started < 1.0  # not the 1.5 s the limit alone would allow


def test_the_process_age_is_read_and_grows() -> None:
    first = process_age()
    time.sleep(0.05)
    assert 0.0 < first < process_age()


def test_the_backstop_fires_early_enough_to_report_and_exit_within_the_grace() -> None:
    # The whole command must end by the limit plus GRACE; the report and the interpreter's exit take
    # about 0.05 s after the alarm, so it fires 0.15 s before that.
    from verify_perceptron.deadline import GRACE

    started = time.monotonic()
    with pytest.raises(TimeUp):
        with deadline(0.1):
            time.sleep(3)
    assert 0.1 + GRACE - 0.3 < time.monotonic() - started < 0.1 + GRACE
