"""The --time-limit backstop: it fires, it is disarmed by cancel, and it survives being swallowed once."""

from __future__ import annotations

import gc
import signal
import sys
import time

import pytest

from tests.wall_clock import Stopwatch
from verify_perceptron.deadline import _EXIT, GRACE, Terminated, TimeUp, deadline, process_age


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
    with Stopwatch() as watch, pytest.raises(TimeUp, match="the time limit of 0.5 s ran out while starting"):
        with deadline(0.5, spent=1.4):
            time.sleep(5)
    # before the alarm the limit alone would set (0.01 s against 1.35 s: no load closes that gap, so no stretch)
    assert watch.seconds < 0.5 + GRACE - _EXIT, watch


def test_the_process_age_is_read_and_grows() -> None:
    first = process_age()
    time.sleep(0.05)
    assert 0.0 < first < process_age()


def test_the_backstop_fires_early_enough_to_report_and_exit_within_the_grace() -> None:
    # The whole command must end by the limit plus GRACE; the report and the interpreter's exit take
    # about 0.05 s after the alarm, so it fires 0.15 s before that.
    with Stopwatch() as watch, pytest.raises(TimeUp):
        with deadline(0.1):
            time.sleep(3)
    # (the alarm is due at a fixed wall time; raising TimeUp after it is CPU work, which a loaded machine stretches)
    assert 0.1 + GRACE - 0.3 < watch.seconds and watch.within(0.1 + GRACE - _EXIT, _EXIT), watch


# -- an alarm or a signal that lands where Python drops its exception ---------------------------------------


class _Finalized:
    """An object whose weakref callback runs code of the test's choosing when it is deleted."""


def _dropped_in_a_weakref_callback(signum: int) -> None:
    """Deliver `signum` inside a weakref callback: its handler's exception is raised there, and Python drops it
    ("Exception ignored in ..."), as it does in matplotlib's callbacks while a figure is drawn."""
    import weakref

    def callback(ref: object) -> None:
        signal.raise_signal(signum)
        for _ in range(1000):  # a loop's backward jumps: where Python runs a pending handler, here in the callback
            pass

    thing = _Finalized()
    ref = weakref.ref(thing, callback)
    del thing
    assert ref() is None


def test_an_alarm_dropped_in_a_weakref_callback_ends_the_block_at_the_next_checkpoint(capsys) -> None:
    with pytest.raises(TimeUp, match="ran out while drawing"):
        with deadline(3600) as clock:
            clock.phase = "drawing"
            _dropped_in_a_weakref_callback(signal.SIGALRM)
            clock.cancel()  # would disarm it and go on to write the report as if in time
    assert "Exception ignored" not in capsys.readouterr().err  # dropped silently: it is raised again instead


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_dropped_in_a_weakref_callback_ends_the_block_at_the_end(signum: int, capsys) -> None:
    previous = signal.signal(signum, lambda *a: None)  # should the block not handle it, the test process lives on
    try:
        with pytest.raises(KeyboardInterrupt if signum == signal.SIGINT else Terminated) as ended:
            with deadline(None):
                _dropped_in_a_weakref_callback(signum)
        if signum == signal.SIGTERM:
            assert isinstance(ended.value, Terminated) and ended.value.signum == signal.SIGTERM
    finally:
        signal.signal(signum, previous)
    assert "Exception ignored" not in capsys.readouterr().err


def test_signals_are_handled_as_before_once_the_block_ends() -> None:
    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT), sys.unraisablehook
    with deadline(None):
        assert signal.getsignal(signal.SIGTERM) is not before[0]
    assert (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT), sys.unraisablehook) == before
