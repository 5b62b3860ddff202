"""The Python API's `time_limit` bounds the whole call, reading the data included
(`verify_perceptron.api._bounded`): what cannot stop by itself ends a second past the limit with `TimeUp`."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

import verify_perceptron as vp
from tests.wall_clock import Stopwatch
from verify_perceptron.deadline import GRACE, TimeUp

#: A limit far below what reading the slow data takes (about 2 s on an idle core).
LIMIT = 0.2
#: Rows of four literals at the edge of the exponent limit: every cell parsed in Python, 10^999 each time.
SLOW_ROW = "1e-999,2e-999,3e-999,4e-999"
#: The same in a file, with 21 significant digits: past the C reader's 64-bit mantissa (it reads 1e-999 itself).
SLOW_FILE_ROW = ",".join(f"{k}.00000000000000000001e-979" for k in range(1, 5))
ROWS = 30_000


def slow_file(folder: Path) -> str:
    path = folder / "slow.csv"
    path.write_text("".join(f"{SLOW_FILE_ROW},{k % 2}\n" for k in range(2 * ROWS)))
    return str(path)


# A repeated alarm may land in a garbage-collector callback, which reports it as unraisable.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_reading_a_file_stops_at_the_time_limit_with_time_up(tmp_path: Path) -> None:
    path = slow_file(tmp_path)
    expected = f"the time limit of {LIMIT:g} s ran out while loading the data"
    with Stopwatch() as watch, pytest.raises(TimeUp, match=expected):
        vp.verify(path, time_limit=LIMIT)
    # the limit, waited out, then the grace second: stopping and unwinding, CPU work that a loaded machine stretches
    # (its last 0.15 s alone took 1.65 s at a stretch of 4.6: a signal waits for the main thread to run)
    assert watch.within(LIMIT, GRACE), watch
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # the timer is off again
    assert signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, None, signal.default_int_handler)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_fit_stops_reading_x_at_the_time_limit_with_time_up() -> None:
    X = [SLOW_ROW.split(",") for _ in range(ROWS // 2)] * 2
    y = [k % 2 for k in range(len(X))]
    estimator = vp.ExactPerceptron(time_limit=LIMIT)  # (scikit-learn loads here, before the clock starts)
    with Stopwatch() as watch, pytest.raises(TimeUp, match="ran out while reading X and y"):
        estimator.fit(X, y)
    assert watch.within(LIMIT, GRACE), watch


def test_the_run_gets_what_loading_left_and_a_run_at_the_limit_is_still_reported() -> None:
    # the run itself stops cleanly at the limit, long before the backstop: a report, not TimeUp
    result = vp.verify(vp.example("xor"), time_limit=1e-9, max_epochs=10**6)
    assert result.trace.stop == "time-limit" or result.trace.stop == "cycle"
    assert result.verdict in ("inconclusive", "not-separable")


def test_without_a_limit_or_off_the_main_thread_nothing_is_armed() -> None:
    import threading

    results: list[str] = []
    thread = threading.Thread(target=lambda: results.append(vp.verify(vp.example("and"), time_limit=5).verdict))
    thread.start()
    thread.join()
    assert results == ["verified"] and vp.verify(vp.example("and")).verdict == "verified"
