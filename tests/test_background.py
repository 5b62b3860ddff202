"""The checker in a second thread (`Background`) gives the verdicts and reports of the checker in the engine's.

`verify_run` is run with `pipeline.BACKGROUND` off and on, with a separator (the
checker beside the run), without one past the replay budget (the overflow's
checker beside it), and the results must be equal, exactly. An error in the
thread reaches the caller, an error in the engine ends the thread, and no
thread is left running either way.
"""

from __future__ import annotations

import threading
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.wall_clock import Stopwatch
from tests.test_cli import run_json
from verify_perceptron import pipeline
from verify_perceptron.check.background import Background
from verify_perceptron.check.checker import Checker
from verify_perceptron.check.results import CheckResult
from verify_perceptron.data.trace import Trace
from verify_perceptron.data.dataset import Dataset
from verify_perceptron.data.examples import example
from verify_perceptron.pipeline import verify_run


def decimal_data(seed: int, n: int = 400, d: int = 5, separable: bool = True) -> Dataset:
    """Decimals of 3 places, labelled by the hyperplane `separator(seed)` (or at random), so that runs
    make many chunked updates."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-1000, 1000, size=(n, d))
    y = np.where(2 * X @ _normal(seed, d) + 15 > 0, 1, -1) if separable else rng.choice([-1, 1], size=n)
    return Dataset(numerators=X, denominator=1000, y=y.tolist())


def _normal(seed: int, d: int) -> np.ndarray:
    return np.random.default_rng(seed + 1000).integers(-9, 9, size=d)


def separator(seed: int, d: int = 5) -> list[object]:
    """w* = (7.5, 1000·v) of the hyperplane that labels `decimal_data(seed)`: it separates them."""
    return [Fraction(15, 2)] + [1000 * int(v) for v in _normal(seed, d)]


def both_ways(monkeypatch: pytest.MonkeyPatch, *args: Any, **options: Any) -> tuple[Trace, CheckResult]:
    results = []
    for beside in (False, True):
        monkeypatch.setattr(pipeline, "BACKGROUND", beside)
        before = threading.active_count()
        trace, check = verify_run(*args, **options)
        assert threading.active_count() == before  # the thread has ended
        results.append((trace, check))
    (trace, check), (trace2, check2) = results
    assert check == check2 and trace.n_updates == trace2.n_updates and trace.final_weights == trace2.final_weights
    return trace, check


@pytest.mark.parametrize("separable", [True, False])
def test_the_checker_beside_the_run_gives_the_same_result(monkeypatch: pytest.MonkeyPatch, separable: bool) -> None:
    data = decimal_data(1, separable=separable)
    trace, check = both_ways(monkeypatch, data, "classic", max_epochs=40, separator=separator(1))
    assert trace.n_updates > 100 and check.invariants[0].holds is True and check.holds is separable


def test_the_overflow_checker_beside_the_run_gives_the_same_result(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "MIN_REPLAY_BYTES", 0)  # past the budget at once: checked as the run goes
    trace, check = both_ways(monkeypatch, decimal_data(2, separable=False), "classic", max_epochs=30)
    assert not trace.converged and check.invariants[0].holds is True
    trace, check = both_ways(monkeypatch, decimal_data(3), "sum-norm", eta=Fraction(1, 3), max_epochs=200)
    assert trace.converged and check.holds


class Failing:
    """An observer that fails at its `at`-th update."""

    def __init__(self, at: int) -> None:
        self.at, self.seen = at, 0

    def observe(self, k: int, epoch: int, samples: object, scores: object) -> None:
        self.seen += 1
        if self.seen == self.at:
            raise OSError(f"disk full at update {k}")


def test_an_error_in_the_thread_reaches_the_caller_and_ends_the_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "BACKGROUND", True)
    before = threading.active_count()
    with pytest.raises(OSError, match="disk full at update 5"):
        verify_run(decimal_data(4), "classic", max_epochs=40, separator=separator(4), recorder=Failing(5))
    assert threading.active_count() == before


def test_an_error_in_the_engine_ends_the_thread() -> None:
    data = example("and")
    checker = Checker(data, "classic", rate=1, mode="online", separator=[-4, 3, 2])
    before = threading.active_count()
    with pytest.raises(KeyboardInterrupt):
        with Background(checker, depth=1) as beside:
            for k in range(1, 4):
                beside.observe(k, 1, [0], [0])
            raise KeyboardInterrupt
    assert threading.active_count() == before


def test_chunks_are_copied_when_queued() -> None:
    # The engine reuses its buffers as soon as observe_chunk returns: the thread must see what was told.
    seen: list[list[int]] = []

    class Chunks:
        def observe(self, k: int, epoch: int, samples: object, scores: object) -> None:
            raise AssertionError("told one by one")

        def observe_chunk(self, first: int, epoch: object, rows: np.ndarray, scores: np.ndarray) -> None:
            seen.append(rows.tolist() + scores.tolist())

    rows, scores = np.array([1, 2], dtype=np.int64), np.array([-3, -4], dtype=np.int64)
    with Background(Chunks()) as beside:
        beside.observe_chunk(1, 1, rows, scores)
        rows[:], scores[:] = 9, 9
    assert seen == [[1, 2, -3, -4]]


def test_the_report_is_the_same_with_the_checker_beside_the_run(monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str],
                                                                 tmp_path: Path) -> None:
    data = decimal_data(5)
    path = tmp_path / "data.csv"
    path.write_text("".join(",".join(f"{v / 1000:.3f}" for v in row) + f",{y}\n"
                            for row, y in zip(data.numerators.tolist(), data.y)), encoding="utf-8")
    reports = []
    for beside in (False, True):
        monkeypatch.setattr(pipeline, "BACKGROUND", beside)
        code, report = run_json(["verify", str(path), "--max-epochs", "40", "--separator",
                                   ",".join(str(v) for v in separator(5))], capsys)
        report.pop("timing", None)
        reports.append((code, report))
    assert reports[0] == reports[1] and reports[0][0] == 0


def test_the_time_limit_ends_a_run_with_the_checker_beside_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # The engine stops at the limit; the thread then tells the checker of at most DEPTH queued chunks.
    monkeypatch.setattr(pipeline, "BACKGROUND", True)
    data = decimal_data(6, n=3000, separable=False)
    before = threading.active_count()
    with Stopwatch() as watch:
        trace, check = verify_run(data, "classic", max_epochs=10**6, separator=separator(6), time_limit=0.3)
    assert watch.within(0.3, 4.7) and threading.active_count() == before, watch
    assert not trace.converged and check.invariants[0].holds is True and check.invariants[0].n_checked == trace.n_updates


def test_by_default_only_a_run_past_its_kept_updates_budget_checks_beside_the_engine(monkeypatch) -> None:
    # BACKGROUND = "long": a run whose kept updates passed their budget (here made tiny) hands its checker a
    # thread of its own; a run checked against a given separator as it goes, and a short run, do not
    from verify_perceptron.check.background import Background

    assert pipeline.BACKGROUND == "long"
    started: list[int] = []
    start = Background.start

    def counted(self: Any) -> Any:
        started.append(1)
        return start(self)

    monkeypatch.setattr(Background, "start", counted)
    data = decimal_data(7, n=400, separable=False)
    verify_run(data, "classic", max_epochs=20)
    verify_run(data, "classic", max_epochs=20, separator=separator(7))
    assert started == []
    monkeypatch.setattr(pipeline, "MIN_REPLAY_BYTES", 0)  # the budget: half the samples' own bytes
    trace, check = verify_run(data, "classic", max_epochs=20)
    assert started == [1] and check.holds
    monkeypatch.setattr(pipeline, "BACKGROUND", False)
    trace2, check2 = verify_run(data, "classic", max_epochs=20)
    assert started == [1] and check2 == check and trace2.final_weights == trace.final_weights


def test_beside_the_engine_only_the_checker_takes_the_thread(monkeypatch) -> None:
    # Past the kept updates' budget the overflow's checker replays in the second thread, while the whole-run
    # record and the mistakes' map are told in the engine's (which waits on the checker's longer replay
    # anyway); the check is the one-thread check.
    from verify_perceptron.check.mistake_map import MistakeMap
    from verify_perceptron.check.whole_run import WholeRun

    told: dict[str, set[str]] = {}

    def spied(cls: Any, name: str) -> None:
        real = cls.observe_chunk

        def observe_chunk(self: Any, *args: Any) -> Any:
            told.setdefault(name, set()).add(threading.current_thread().name)
            return real(self, *args)

        monkeypatch.setattr(cls, "observe_chunk", observe_chunk)

    from verify_perceptron.check.facts import FactCheck

    for cls, name in ((Checker, "checker"), (WholeRun, "whole"), (MistakeMap, "map"), (FactCheck, "facts")):
        spied(cls, name)
    chunks = {"checker": 0, "facts": 0}
    for cls, name in ((Checker, "checker"), (FactCheck, "facts")):  # each chunk told to the facts once
        def counted(self: Any, *args: Any, _real: Any = cls.observe_chunk, _name: str = name) -> Any:
            chunks[_name] += 1
            return _real(self, *args)

        monkeypatch.setattr(cls, "observe_chunk", counted)
    monkeypatch.setattr(pipeline, "MIN_REPLAY_BYTES", 0)
    data = decimal_data(8, n=400, separable=False)
    trace, check = verify_run(data, "classic", max_epochs=20)
    engine = threading.current_thread().name
    assert told["checker"] == {"verify_perceptron-checker"} and told["whole"] == told["map"] == {engine}
    assert told["facts"] == {engine} and chunks["facts"] == chunks["checker"] > 0  # (the facts beside the checker)
    told.clear()
    monkeypatch.setattr(pipeline, "BACKGROUND", False)
    trace2, check2 = verify_run(data, "classic", max_epochs=20)
    assert set().union(*told.values()) == {engine}
    assert check2 == check and trace2.final_weights == trace.final_weights and not trace.converged
