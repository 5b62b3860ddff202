"""The whole run in the report (check/whole_run.py): the run's last updates beside its first ones, and the
invariant plots over every update, thinned exactly (each interval's least and greatest slack drawn)."""

from __future__ import annotations

import io
import json
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, strategies as st

from verify_perceptron import cli
from verify_perceptron.check import whole_run
from verify_perceptron.check.whole_run import INTERVALS, LAST
from verify_perceptron.data.exact_text import read_exact
from verify_perceptron.data.examples import example
from verify_perceptron.api.verification import settle
from verify_perceptron.notes.conventions import dot, get_convention
from verify_perceptron.pipeline import verify_run
from verify_perceptron.report.plots.series import invariant_series
from verify_perceptron.report.record import build_report
from verify_perceptron.report.text import render_text
from verify_perceptron.run import fast

sklearn = pytest.importorskip("sklearn")


@pytest.fixture(scope="module")
def cancer():
    from sklearn.datasets import load_breast_cancer

    from verify_perceptron.data.dataset import from_arrays

    X, y = load_breast_cancer(return_X_y=True)
    return from_arrays(X, y, floats="decimal")


@pytest.fixture(scope="module")
def cancer_csv(tmp_path_factory: pytest.TempPathFactory):
    import numpy as np
    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True)
    path = tmp_path_factory.mktemp("whole") / "cancer.csv"
    np.savetxt(path, np.c_[X, y], fmt="%g", delimiter=",")
    return path


def test_breast_cancer_at_200_epochs_lists_its_last_updates_as_the_trace_has_them(cancer_csv, tmp_path,
                                                                                   capsys) -> None:
    trace_file = tmp_path / "trace.jsonl"
    assert cli.main(["verify", str(cancer_csv), "--max-epochs", "200", "--format", "json",
                     "--trace", str(trace_file)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["n_updates"] == 11927 and report["updates_truncated"]
    last = report["last_updates"]
    assert [u["k"] for u in last] == list(range(11927 - LAST + 1, 11928))
    lines = [json.loads(line) for line in trace_file.read_text().splitlines()[-LAST:]]
    for u, t in zip(last, lines):  # the ring's updates are the run's own, exactly
        assert (u["k"], u["epoch"], u["samples"]) == (t["k"], t["epoch"], t["samples"])
        assert [read_exact(v) for v in u["scores"]] == [read_exact(v) for v in t["scores"]]
        assert [read_exact(v) for v in u["weights"]] == [read_exact(v) for v in t["weights"]]
    assert last[-1]["weights"] == report["final_weights"]
    text = render_text(report)
    assert "updates 1–50 and 11918–11927 of 11927" in text
    assert text.count("\n  11927    200 ") == 1


def _exact_series(data, report):
    """w_k·w* and ‖w_k‖² at every update of the run, from a trace that keeps them all."""
    trace = fast.run(data, max_epochs=report["n_epochs"], keep_updates=10**9)
    ws = [read_exact(v) for v in report["separator"]["weights"]]
    return {u.k: (dot(tuple(u.weights), ws), dot(tuple(u.weights), tuple(u.weights))) for u in trace.updates}


def test_the_plots_draw_every_interval_s_extremes_exactly(cancer) -> None:
    trace, check = verify_run(cancer, max_epochs=40, keep_updates=5)
    # stopped at the limit: made again against the certified separator, as verify does
    trace, check, *_ = settle(cancer, get_convention("classic"), trace, check, eta=1, mode="online", max_epochs=40,
                              time_limit=None, started=0.0)
    report: dict[str, Any] = dict(build_report(cancer, trace, check))  # read as JSON
    assert report["separator"]["source"] == "certified"
    points = report["invariant_points"]
    n = report["n_updates"]
    assert points is not None and points["n_updates"] == n and points["k"][-1] == n  # the whole run, to its end
    width = points["per_interval"]
    assert width > 1 and INTERVALS * width >= n and len(points["k"]) <= 4 * INTERVALS + 1
    exact = _exact_series(cancer, report)
    a, gamma = read_exact(report["step_size"]), read_exact(report["constants"]["gamma"])
    R_sq = read_exact(report["constants"]["R_sq"])
    drawn = dict(zip(points["k"], zip(map(read_exact, points["w_ws"]), map(read_exact, points["w_sq"]))))
    for k, values in drawn.items():
        assert values == exact[k], k  # each drawn point is exact
    lower = {k: v[0] - k * a * gamma for k, v in exact.items()}
    upper = {k: k * a * a * R_sq - v[1] for k, v in exact.items()}
    for start in range(1, n + 1, width):
        interval = range(start, min(start + width, n + 1))
        for slack in (lower, upper):
            least = min(slack[k] for k in interval)
            greatest = max(slack[k] for k in interval)
            assert any(slack[k] == least for k in interval if k in drawn), (start, "least")
            assert any(slack[k] == greatest for k in interval if k in drawn), (start, "greatest")
    series = invariant_series(report)
    tightest = min(lower.values())
    assert series.min_slack("lower-bound") == (tightest, min(k for k, v in lower.items() if v == tightest))
    inv = next(i for i in report["invariants"] if i["name"] == "lower-bound")
    assert (read_exact(inv["min_slack"]), inv["min_slack_at"]) == series.min_slack("lower-bound")


def test_the_caption_and_title_say_which_updates_are_drawn(cancer) -> None:
    pytest.importorskip("matplotlib")
    from verify_perceptron.report._sections import figure_captions
    from verify_perceptron.report.plots import draw_figure

    trace, check = verify_run(cancer, max_epochs=10, keep_updates=5, separator=[1] + [0] * 30)
    report: dict[str, Any] = dict(build_report(cancer, trace, check))  # read as JSON
    points = report["invariant_points"]
    caption = figure_captions(report)["invariants"]
    assert f"cover all {report['n_updates']} updates" in caption and f"interval of {points['per_interval']}" in caption
    figure = draw_figure("invariants", report, cancer)
    # matplotlib >= 3.7 is supported; Figure.get_suptitle() is new in 3.8, so the attribute it reads
    title = figure._suptitle.get_text()  # type: ignore[attr-defined]  # private in the stubs, public from 3.8
    assert f"all {report['n_updates']} updates" in title


def test_small_runs_keep_every_update_and_say_so() -> None:
    data = example("and")
    report: dict[str, Any] = dict(build_report(data, *verify_run(data)))  # read as JSON
    assert report["invariant_points"] is None and report["last_updates"] == []
    assert "updates 1–18 of 18" in render_text(report)
    assert invariant_series(report).k == tuple(range(19))


def test_memory_does_not_grow_with_the_run(cancer) -> None:
    from verify_perceptron.check.checker import Checker
    from verify_perceptron.check.whole_run import WholeRun

    checker = Checker(cancer, "classic", rate=1, mode="online", separator=[1] + [0] * 30)
    whole = WholeRun(checker)
    trace = fast.run(cancer, max_epochs=60, observer=whole, keep_updates=0)
    assert trace.n_updates > 2 * INTERVALS * 16
    assert len(whole.intervals) <= INTERVALS and len(whole.ring) == LAST
    assert whole.points().k[-1] == trace.n_updates


def test_batch_runs_draw_their_own_upper_bound() -> None:
    data = example("modified-or")
    trace, check = verify_run(data, "sum-norm", mode="batch", keep_updates=1, separator=[1, 1, -1])
    report: dict[str, Any] = dict(build_report(data, trace, check))  # read as JSON
    assert [u["k"] for u in report["last_updates"]] == [u.k for u in check.last_updates if u.k > 1]
    assert io.StringIO(render_text(report)).getvalue().count("updates 1") == 1
    trace, check = verify_run(data, "sum-norm", mode="batch", keep_updates=0, separator=[1, 1, -1])
    assert trace.updates_truncated  # (a trace that kept every update is all the report needs: no points made)
    assert check.points is not None and check.points.k[-1] == trace.n_updates
    assert [u.k for u in check.last_updates] == list(range(1, trace.n_updates + 1))
    assert all(isinstance(v, Fraction) for v in check.points.w_sq)


def _points_both_ways(monkeypatch: pytest.MonkeyPatch, data: Any, **settings: Any) -> tuple[Any, Any, int]:
    """verify_run's drawn points and last updates with the int64 monotone path, then without it; and how many
    chunks took that path."""

    taken = [0]
    fast_path = whole_run.WholeRun._monotone_chunk

    def counted(self: Any, *args: Any) -> bool:
        done = fast_path(self, *args)
        taken[0] += done
        return done

    monkeypatch.setattr(whole_run.WholeRun, "_monotone_chunk", counted)
    trace, result = verify_run(data, **settings)
    mine = (result.points, result.last_updates)
    monkeypatch.setattr(whole_run.WholeRun, "_monotone_chunk", lambda self, *args: False)
    trace, result = verify_run(data, **settings)
    return mine, (result.points, result.last_updates), taken[0]


@pytest.mark.parametrize("settings", [
    {"max_epochs": 300}, {"max_epochs": 37, "convention": "hard-limiter-plus"},
    {"max_epochs": 300, "separator": None}, {"max_epochs": 5, "eta": "1/3", "convention": "classic", "mode": "online", "keep_updates": 5},
])
def test_the_int64_path_draws_the_same_points_as_python_integers(cancer, monkeypatch, settings) -> None:
    # breast cancer's runs come in int64 chunks: the monotone path takes them, and must pick the same
    # least and greatest updates of every interval as the general path's argmin and argmax, ties included
    fast_points, slow_points, taken = _points_both_ways(monkeypatch, cancer, **settings)
    assert taken > 0
    assert fast_points == slow_points


def test_a_chunk_with_a_positive_score_takes_the_general_path() -> None:
    # a score > 0 is no mistake: the slack may fall, so the int64 path must decline and leave it to the
    # general one (a broken engine's chunk is drawn as it is, its violation among the points)
    import numpy as np

    from verify_perceptron.check.checker import Checker
    from verify_perceptron.check.whole_run import WholeRun

    checker = Checker(example("and"), "classic", rate=1, mode="online", separator=[-4, 3, 2])
    whole = WholeRun(checker)
    rows, scores = np.array([0, 3, 1], dtype=np.int64), np.array([0, 5, -1], dtype=np.int64)
    assert whole._monotone_chunk(1, rows, scores) is False
    other = WholeRun(checker)
    other.monotone = False
    whole.observe_chunk(1, 1, rows, scores)
    other.observe_chunk(1, 1, rows, scores)
    assert whole.points() == other.points() and whole.intervals == other.intervals


@pytest.mark.parametrize("seed", range(6))
def test_the_int64_path_picks_the_same_updates_where_slacks_stand_still(seed: int) -> None:
    # ties: on the AND data with w* = (-4, 3, 2), samples 2 and 3 have the least margin (the lower slack
    # stands still on them) and sample 3 the greatest norm (the upper slack stands still on it at score 0);
    # long runs of such updates, over interval merges, must keep the very updates the general path keeps
    import numpy as np

    from verify_perceptron.check.checker import Checker
    from verify_perceptron.check.whole_run import WholeRun

    rng = np.random.default_rng(seed)
    checker = Checker(example("and"), "classic", rate=1, mode="online", separator=[-4, 3, 2])
    fast, general = WholeRun(checker), WholeRun(checker)
    general.monotone = False
    first = 1
    for size in rng.integers(1, 700, size=5).tolist():
        rows = rng.choice([2, 3, 3, 3, 0, 1], size=size).astype(np.int64)
        scores = np.where(rng.random(size) < 0.7, 0, -rng.integers(1, 3, size=size)).astype(np.int64)
        fast.observe_chunk(first, 1, rows, scores)
        general.observe_chunk(first, 1, rows, scores)
        first += size
    assert fast.intervals == general.intervals
    assert fast.points() == general.points() and fast.last_state == general.last_state


@pytest.mark.parametrize("scale", [1, 2**100], ids=["int64-margins", "python-integer-margins"])
@pytest.mark.parametrize("seed", range(3))
def test_python_integer_margins_draw_the_same_points_on_the_monotone_path(seed: int, scale: int) -> None:
    # The same runs of tied updates with w* scaled up: its margins are Python integers (breast cancer raw's are
    # 1,627 bits), summed between the points asked for (`_prefix_sums`); the monotone path must take every chunk
    # and draw the points of the general path
    import numpy as np

    from verify_perceptron.check.checker import Checker
    from verify_perceptron.check.whole_run import WholeRun

    rng = np.random.default_rng(seed)
    checker = Checker(example("and"), "classic", rate=1, mode="online", separator=[-4 * scale, 3 * scale, 2 * scale])
    assert (checker.margins.dtype == object) == (scale > 1)
    fast, general = WholeRun(checker), WholeRun(checker)
    general.monotone = False
    taken: list[bool] = []
    monotone = fast._monotone_chunk

    def counted(*args: Any) -> bool:
        taken.append(monotone(*args))
        return taken[-1]

    setattr(fast, "_monotone_chunk", counted)  # (on this record only)
    first = 1
    for size in rng.integers(1, 700, size=5).tolist():
        rows = rng.choice([2, 3, 3, 3, 0, 1], size=size).astype(np.int64)
        scores = np.where(rng.random(size) < 0.7, 0, -rng.integers(1, 3, size=size)).astype(np.int64)
        fast.observe_chunk(first, 1, rows, scores)
        general.observe_chunk(first, 1, rows, scores)
        first += size
    assert len(taken) == 5 and all(taken)
    assert fast.intervals == general.intervals
    assert fast.points() == general.points() and fast.last_state == general.last_state


def _report_json(data: Any, settings: dict[str, Any]) -> str:
    from verify_perceptron.report.record import render_json

    trace, check = verify_run(data, **settings)
    if not trace.converged and settings.get("separator") is None:  # as verify does: against w* certified
        trace, check, *_ = settle(data, get_convention(settings.get("convention", "classic")), trace, check,
                                  eta=settings.get("eta", 1), mode=settings.get("mode", "online"),
                                  max_epochs=settings["max_epochs"], time_limit=None, started=0.0)
    return render_json(build_report(data, trace, check))


@pytest.mark.parametrize("convention", ["classic", "hard-limiter", "hard-limiter-plus", "split-bias", "sum-norm"])
@pytest.mark.parametrize("mode", ["online", "batch"])
def test_the_report_is_the_same_with_the_record_sized_up_front_and_skipped_when_every_update_is_kept(
        cancer, monkeypatch, convention: str, mode: str) -> None:
    # the record of a replayed run is sized for its known updates (never merged) and not made at all when the
    # trace kept every update; reports must be those of the record grown as the run goes, always made
    import dataclasses

    from verify_perceptron import pipeline
    from verify_perceptron.check.whole_run import WholeRecord, WholeRun

    def always_finished(checker: Any, whole: Any, trace: Any, result: Any = None) -> Any:
        result = checker.finish(trace) if result is None else result
        return dataclasses.replace(result, whole=WholeRecord(whole, trace))

    drawn = 0
    eta = "1" if get_convention(convention).rate_fixed else "1/3"
    cases: list[tuple[Any, dict[str, Any]]] = [(example("and"), {"max_epochs": 50}), (example("xor"), {"max_epochs": 7}),
             (cancer, {"max_epochs": 4, "keep_updates": 5}), (cancer, {"max_epochs": 3}),
             (cancer, {"max_epochs": 3, "keep_updates": 2, "separator": [1] + [0] * 30})]
    for data, settings in cases:
        settings = {**settings, "convention": convention, "mode": mode, "eta": eta}
        now = _report_json(data, settings)
        with monkeypatch.context() as patch:
            patch.setattr(pipeline, "_whole_run", lambda checker, trace: WholeRun(checker))
            patch.setattr(pipeline, "_finished", always_finished)
            always = _report_json(data, settings)
        assert now == always, (data.source, settings)
        drawn += json.loads(now)["invariant_points"] is not None
    assert drawn >= 1  # (the record's points are in some of these reports)


@pytest.mark.parametrize("seed", range(4))
def test_a_record_sized_up_front_keeps_what_a_growing_one_keeps(seed: int) -> None:
    import numpy as np

    from verify_perceptron.check.checker import Checker
    from verify_perceptron.check.whole_run import WholeRun

    rng = np.random.default_rng(seed)
    checker = Checker(example("and"), "classic", rate=1, mode="online", separator=[-4, 3, 2])
    sizes = rng.integers(1, 900, size=6).tolist()
    grown, sized = WholeRun(checker), WholeRun(checker, sum(sizes))
    assert sized.width == grown.width == 1 or sized.width > grown.width
    general = WholeRun(checker, sum(sizes))
    general.monotone = False
    first = 1
    for size in sizes:
        rows = rng.choice([2, 3, 3, 3, 0, 1], size=size).astype(np.int64)
        scores = np.where(rng.random(size) < 0.6, 0, -rng.integers(1, 3, size=size)).astype(np.int64)
        scores[rng.random(size) < 0.05] = 4  # no mistake: the general path
        for whole in (grown, sized, general):
            whole.observe_chunk(first, 1, rows, scores)
        first += size
    assert sized.width == grown.width and len(sized.intervals) == len(grown.intervals) <= INTERVALS
    assert sized.intervals == grown.intervals == general.intervals
    assert sized.points() == grown.points() == general.points()


@pytest.mark.parametrize("seed", range(3))
def test_a_long_chunk_taken_at_once_keeps_what_pieces_keep(seed: int) -> None:
    # a replay's chunk of up to 2^16 updates goes through the int64 path at once when it takes it, else in
    # pieces of PIECE updates: the record (intervals, ring, last state) is the same either way, with both
    # slacks standing still over long stretches (ties) and in int64 or in limbs
    import numpy as np

    from verify_perceptron.check.checker import Checker
    from verify_perceptron.data.integers import as_limbs

    rng = np.random.default_rng(seed)
    checker = Checker(example("and"), "classic", rate=1, mode="online", separator=[-4, 3, 2])
    size = int(rng.integers(3 * whole_run.PIECE, 5 * whole_run.PIECE))
    rows = rng.choice([2, 3, 3, 3, 0, 1], size=size).astype(np.int64)
    scores = np.where(rng.random(size) < 0.7, 0, -rng.integers(1, 3, size=size)).astype(np.int64)
    epochs = np.sort(rng.integers(1, 9, size=size))
    for given in (scores, as_limbs(scores, 2)):
        at_once, pieces = whole_run.WholeRun(checker, size + 3), whole_run.WholeRun(checker, size + 3)
        pieces.monotone = False  # (pieces on the general path: Python integers)
        for whole in (at_once, pieces):
            whole.observe(1, 1, [0], [0])
            for start in range(0, size, size if whole is at_once else whole_run.PIECE):
                end = start + (size if whole is at_once else whole_run.PIECE)
                whole.observe_chunk(2 + start, epochs[start:end], rows[start:end], given[start:end])
            whole.observe_chunk(size + 2, 9, rows[:2], scores[:2])
        assert at_once.intervals == pieces.intervals and list(at_once.ring) == list(pieces.ring)
        assert at_once.last_state == pieces.last_state and at_once.points() == pieces.points()


@pytest.mark.parametrize("int64", [True, False])
@pytest.mark.parametrize("floats", ["decimal", "binary"])
def test_the_last_updates_are_the_runs_own_with_their_weights(floats: str, int64: bool, monkeypatch) -> None:
    # stepped back from the final weights (in int64 where no entry can pass it, else in Python integers):
    # the same updates, scores, steps and weights as a run that kept every update
    import numpy as np
    from sklearn.datasets import load_iris

    from verify_perceptron.data.dataset import from_arrays

    monkeypatch.setattr(whole_run, "INT64_STEPS", int64)
    X, y = load_iris(return_X_y=True)
    data = from_arrays(X[50:], np.where(y[50:] == 2, 1, -1), floats=floats)  # versicolor/virginica: not separable
    for convention in ("classic", "hard-limiter-plus"):
        trace, check = verify_run(data, convention, max_epochs=6, keep_updates=3, separator=[1, 0, 0, 0, -5])
        whole = fast.run(data, convention, max_epochs=6, keep_updates=10**9)
        assert trace.updates_truncated and len(check.last_updates) == LAST
        assert check.last_updates == tuple(whole.updates[-LAST:])


@pytest.fixture(scope="module")
def wide_floats():
    # float64 data read as the binary numbers they are: over one power of two the entries pass 64 bits and
    # the norms 126 (held in limbs), as on randn data; labels by the first feature's sign (w* = e_1 separates)
    import numpy as np

    from verify_perceptron.data.dataset import from_arrays

    X = np.random.default_rng(1).standard_normal((300, 4))
    y = np.where(X[:, 0] > 0, 1, -1)
    y[:20] = -y[:20]  # (and some labels flipped: not separable, the run goes on)
    return from_arrays(X, y), from_arrays(X, np.where(X[:, 0] > 0, 1, -1))


@pytest.mark.parametrize("settings", [
    {"max_epochs": 6, "keep_updates": 0}, {"max_epochs": 3, "keep_updates": 3, "convention": "hard-limiter-plus"},
    {"max_epochs": 4, "keep_updates": 0, "eta": "1/3", "convention": "sum-norm"},
])
def test_the_int64_path_draws_the_same_points_on_norms_past_126_bits(wide_floats, monkeypatch, settings) -> None:
    # norms past 2^126 are cut into limbs' columns (here held by the matrix): the int64 path must take such
    # chunks and pick the very updates the general path's argmin and argmax pick, with and without w*
    from verify_perceptron.check.checker import Checker

    noisy, separable = wide_floats
    assert int(Checker(noisy, "classic", rate=1, mode="online").matrix.max_norm_sq) >= 2**126
    for data, separator in ((noisy, None), (separable, [0, 1, 0, 0, 0])):
        with monkeypatch.context() as patch:  # (each case patched anew: the last one left the general path on)
            fast_points, slow_points, taken = _points_both_ways(patch, data, separator=separator, **settings)
        assert taken > 0
        assert fast_points == slow_points and fast_points[0] is not None


def _wide_runs() -> Any:
    """(integer rows wide enough that the norms pass 126 bits, chunks of (rows, scores <= 0 in 3 limbs))."""
    from hypothesis import strategies as st

    wide = st.integers(-(2**70), 2**70) | st.sampled_from([0, 2**69, -(2**70)])

    @st.composite
    def build(draw: st.DrawFn) -> tuple[list[list[int]], list[tuple[list[int], list[int]]]]:
        n = draw(st.integers(2, 5))
        rows = [[draw(wide) for _ in range(2)] for _ in range(n)]
        rows[draw(st.integers(0, n - 1))][0] = 2**70  # norms past 2^126 (and a widest row for ties)
        if draw(st.booleans()):
            rows.append(list(rows[0]))  # (a second sample of the same norm)
        chunks = draw(st.lists(st.integers(1, 60).flatmap(lambda m: st.tuples(
            st.lists(st.integers(0, len(rows) - 1), min_size=m, max_size=m),
            st.lists(st.sampled_from([0, 0, -1, -(2**64), -(2**130)]) | st.integers(-(2**140), 0),
                     min_size=m, max_size=m))), min_size=1, max_size=8))
        return rows, chunks

    return build()


def _wide_run_cases(test: Any) -> Any:
    from hypothesis import given

    return given(_wide_runs())(test)


@_wide_run_cases
def test_the_int64_path_keeps_what_python_integers_keep_on_wide_norms(case: Any) -> None:
    # ties, merges and scores in three limbs, on norms past 2^126 cut into limbs' columns
    import numpy as np

    from verify_perceptron.check.checker import Checker
    from verify_perceptron.check.whole_run import WholeRun
    from verify_perceptron.data.dataset import from_arrays
    from verify_perceptron.data.integers import as_limbs

    rows, chunks = case
    data = from_arrays(rows, [1, -1] * (len(rows) // 2) + [1] * (len(rows) % 2))
    checker = Checker(data, "classic", rate=1, mode="online")
    assert int(checker.matrix.max_norm_sq) >= 2**126
    fast, general = WholeRun(checker), WholeRun(checker)
    general.monotone = False
    first = 1
    for samples, scores in chunks:
        chunk = (np.array(samples, dtype=np.int64), as_limbs(np.array(scores, dtype=object), 3))
        for whole in (fast, general):
            whole.observe_chunk(first, 1, *chunk)
        first += len(samples)
    assert fast.intervals == general.intervals and list(fast.ring) == list(general.ring)
    assert fast.points() == general.points() and fast.last_state == general.last_state


def test_the_record_is_made_when_the_report_first_reads_it(monkeypatch) -> None:
    # a run checked for its verdict alone (an estimator's fit) never makes the drawn points or the last updates;
    # the report's first read makes each once, and the second read is the same object
    from verify_perceptron.check.whole_run import WholeRun
    from verify_perceptron.data.examples import example

    made: list[str] = []

    def counted(name: str) -> Any:
        original = getattr(WholeRun, name)

        def made_once(self: WholeRun, *args: Any) -> Any:
            made.append(name)
            return original(self, *args)
        return made_once

    for name in ("points", "last_updates"):
        monkeypatch.setattr(WholeRun, name, counted(name))
    trace, check = verify_run(example("and"), keep_updates=3)
    assert trace.updates_truncated and check.holds and made == []
    first = (check.points, check.last_updates)
    assert made == ["points", "last_updates"] and (check.points, check.last_updates) == first
    assert check.points is first[0] and made == ["points", "last_updates"]
    assert first[0] is not None and first[0].k[-1] == trace.n_updates and first[1][-1].weights == trace.final_weights


def test_batch_updates_on_samples_held_in_limbs_read_only_their_rows(monkeypatch) -> None:
    # the checker's batch step and the record's read the update's rows (ExactMatrix.row_values): samples held in
    # limbs are not all made Python integers (`exact`) for them, which at 10^5 x 10 was most of a fit's memory
    import numpy as np

    from verify_perceptron.check.checker import Checker
    from verify_perceptron.check.whole_run import WholeRun
    from verify_perceptron.data.dataset import from_arrays
    from verify_perceptron.data.limb_arrays import LimbMatrix

    rng = np.random.default_rng(3)
    X = rng.standard_normal((400, 3))  # (at 40 samples the numerators fit in int64)
    data = from_arrays(X, np.where(X[:, 0] > 0, 1, -1), floats="binary")  # w* = e_1 separates
    checker = Checker(data, "classic", rate=1, mode="batch", separator=[0, 1, 0, 0])
    whole = WholeRun(checker)
    assert checker.matrix.held is not None
    read: list[int] = []
    values = LimbMatrix.values

    def counted(self: LimbMatrix, *rows: Any) -> Any:
        out = values(self, *rows)
        read.append(len(out))
        return out

    monkeypatch.setattr(LimbMatrix, "values", counted)
    samples = [i for i, label in enumerate(data.y) if label > 0][:3]  # at W = 0: score 0, a mistake under the tie rule
    checker.observe(1, 1, samples, [0, 0, 0])
    whole.observe(1, 1, samples, [0, 0, 0])
    checker.observe(2, 2, samples[:1], [0])  # (one sample: its score is not 0 now, a violation; only reads count)
    assert read and all(n in (1, 3) for n in read) and read[-1] == 1


# --- the chunk read in C (kernel.record_sums) ------------------------------------------------------------------

kernel = pytest.importorskip("verify_perceptron.check.kernel")
needs_record = pytest.mark.skipif(kernel.record_sums is None, reason="the C replay was not built")


def _record_sums_reference(values: list[int], rows: list[int], norms: list[int], R_sq: int,
                           starts: list[int]) -> tuple[list[tuple[int, int]], list[int]] | None:
    """record_sums' answer, in Python integers: None where a score is > 0; else per piece its last rise and the
    updates after it, and the prefix sums of 2·s + ‖z‖² at each piece's first and last update."""
    if any(v > 0 for v in values):
        return None
    prefix, total = [], 0
    for v, i in zip(values, rows):
        total += 2 * v + norms[i]
        prefix.append(total)
    ends, sums = [], []
    for s, e in zip(starts, [*starts[1:], len(values)]):
        g = max([t for t in range(s, e) if values[t] < 0 or norms[rows[t]] != R_sq], default=s)
        ends.append((g, e - 1 - g))
        sums += [prefix[s], prefix[e - 1]]
    return ends, sums


@st.composite
def _record_chunks(draw: st.DrawFn) -> tuple[Any, ...]:
    """Scores in Ls limbs (mostly <= 0, with 0s and the most negative), norms in Ln limbs (some R² itself,
    stored in as many more zero limbs), rows, and pieces."""
    import numpy as np

    Ls, Ln, extra = draw(st.integers(1, 4)), draw(st.integers(1, 3)), draw(st.integers(0, 2))
    n = draw(st.integers(1, 6))
    top = 2 ** (64 * Ln - 1) - 1
    norms = draw(st.lists(st.one_of(st.integers(0, top), st.sampled_from([0, 1, top, 2**64 - 1 if Ln > 1 else 5])),
                          min_size=n, max_size=n))
    R_sq = max(norms)
    m = draw(st.integers(1, 40))
    low = -(2 ** (64 * Ls - 1))
    values = draw(st.lists(st.one_of(st.just(0), st.integers(low, 0), st.sampled_from([low, -1])), min_size=m, max_size=m))
    if draw(st.booleans()) and m > 1:  # a mistake's score is <= 0: one > 0 makes the chunk not monotone
        values[draw(st.integers(0, m - 1))] = draw(st.integers(1, 2 ** (64 * Ls - 1) - 1))
    rows = draw(st.lists(st.integers(0, n - 1), min_size=m, max_size=m))
    starts = sorted({0, *draw(st.lists(st.integers(1, m - 1), max_size=5))}) if m > 1 else [0]
    return values, rows, norms, R_sq, starts, Ls, Ln, extra


@needs_record
@given(_record_chunks())
def test_the_chunk_read_in_c_is_the_chunk_read_in_python_integers(chunk: tuple[Any, ...]) -> None:
    import numpy as np

    from verify_perceptron.data.integers import as_limbs, score_values

    values, rows, norms, R_sq, starts, Ls, Ln, extra = chunk
    held = np.zeros((len(norms), Ln + extra), dtype=np.int64)  # the norms' limbs above Ln are 0, as held
    held[:, :Ln] = as_limbs(np.array(norms, dtype=object), Ln)
    ends = np.full((len(starts), 2), -7, dtype=np.int64)
    sums = np.zeros((2 * len(starts), max(Ls, Ln) + 2), dtype=np.int64)
    taken = kernel.record_sums(np.ascontiguousarray(as_limbs(np.array(values, dtype=object), Ls)),
                               np.array(rows, dtype=np.int64), held,
                               np.ascontiguousarray(as_limbs(np.array([R_sq], dtype=object), Ln)[0]),
                               np.array(starts, dtype=np.int64), ends, sums)
    expected = _record_sums_reference(values, rows, norms, R_sq, starts)
    assert bool(taken) == (expected is not None)
    if expected is not None:
        assert [tuple(e) for e in ends.tolist()] == expected[0]
        assert score_values(sums).tolist() == expected[1]


@needs_record
def test_the_chunk_read_in_c_refuses_rows_out_of_range_and_bad_shapes() -> None:
    import numpy as np

    args = [np.zeros((3, 1), dtype=np.int64), np.array([0, 5, 1], dtype=np.int64), np.zeros((2, 1), dtype=np.int64),
            np.zeros(1, dtype=np.int64), np.array([0], dtype=np.int64), np.zeros((1, 2), dtype=np.int64),
            np.zeros((2, 3), dtype=np.int64)]
    assert kernel.record_sums(*args) == 0  # row 5 of 2: declined (the NumPy path says what is wrong)
    args[1][1] = 1
    assert kernel.record_sums(*args) == 1
    with pytest.raises(ValueError, match="do not agree"):
        kernel.record_sums(*args[:6], np.zeros((2, 2), dtype=np.int64))  # KS below max(Ls, Ln) + 2
    with pytest.raises(ValueError, match="starts"):
        kernel.record_sums(*args[:4], np.array([1], dtype=np.int64), *args[5:])


@pytest.mark.parametrize("seed", range(4))
def test_the_c_reading_draws_the_same_points_where_slacks_stand_still(seed: int, monkeypatch) -> None:
    # no separator (as in a run that did not converge): the chunks go to the C reading, with runs of updates of
    # score 0 on the sample of norm R² (the slack stands still), over interval merges; the NumPy path must agree
    import numpy as np

    from verify_perceptron.check.checker import Checker
    from verify_perceptron.check.whole_run import WholeRun

    taken: list[int] = []
    sums_of = kernel.record_sums

    def counted(*args: Any) -> int:
        assert sums_of is not None
        taken.append(sums_of(*args))
        return taken[-1]

    if sums_of is not None:
        monkeypatch.setattr(kernel, "record_sums", counted)
    rng = np.random.default_rng(seed)
    checker = Checker(example("and"), "classic", rate=1, mode="online")
    fast_record, general = WholeRun(checker), WholeRun(checker)
    general.monotone = False
    first = 1
    for size in rng.integers(1, 3000, size=6).tolist():
        rows = rng.choice([2, 3, 3, 3, 0, 1], size=size).astype(np.int64)
        scores = np.where(rng.random(size) < 0.7, 0, -rng.integers(1, 3, size=size)).astype(np.int64)
        fast_record.observe_chunk(first, 1, rows, scores)
        general.observe_chunk(first, 1, rows, scores)
        first += size
    assert (taken and all(taken)) == (sums_of is not None)
    assert fast_record.intervals == general.intervals
    assert fast_record.points() == general.points() and fast_record.last_state == general.last_state


def test_a_randn_fit_draws_the_same_points_with_the_c_reading_and_without(monkeypatch) -> None:
    # float64 data over 2^k: samples, norms and scores in limbs (three here); the fit's whole report, its drawn
    # points among it, is the same whichever path reads the chunks
    import numpy as np
    import warnings

    from verify_perceptron.api.estimator import ExactPerceptron

    rng = np.random.default_rng(3)
    X, y = rng.standard_normal((3000, 4)), np.where(rng.random(3000) < 0.5, 1, -1)
    widths: list[int] = []
    sums_of = kernel.record_sums

    def counted(*args: Any) -> int:
        assert sums_of is not None
        widths.append(args[0].shape[1])
        return sums_of(*args)

    if sums_of is not None:
        monkeypatch.setattr(kernel, "record_sums", counted)
    reports = []
    for in_c in (True, False):
        monkeypatch.setattr(whole_run, "RECORD_IN_C", in_c)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fitted = ExactPerceptron(max_epochs=6).fit(X, y)
        reports.append([v.json for v in fitted.verifications_])
    assert reports[0] == reports[1]
    assert sums_of is None or (widths and min(widths) >= 2)  # (the scores in limbs went through C)
