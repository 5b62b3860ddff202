"""The checked fits of small data with many updates (issue 32, the bundled sets that stop at max_epochs): what
is made once a run rather than once a chunk, with the same answers."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verify_perceptron import pipeline
from verify_perceptron.data.dataset import Dataset, from_arrays
from verify_perceptron.pipeline import verify_run
from verify_perceptron.report.record import build_report, render_json
from verify_perceptron.run import fast


def _noisy(n: int, d: int, seed: int) -> Dataset:
    """n x d standard normal binary floats with random labels (not separable: the run stops at its epochs)."""
    rng = np.random.default_rng(seed)
    return from_arrays(rng.standard_normal((n, d)), np.where(rng.random(n) < 0.5, 1, -1))


def _chunk_sizes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The updates in each chunk the pipeline feeds the checker, from now on (a list filled as they come)."""
    sizes: list[int] = []
    feed = pipeline._feed_joined

    def spy(observer: Any, items: list[tuple[int, Any, Any, Any]]) -> None:
        sizes.append(sum(len(rows) for _, _, rows, _ in items))
        feed(observer, items)

    monkeypatch.setattr(pipeline, "_feed_joined", spy)
    return sizes


def test_the_updates_kept_to_the_end_of_a_run_are_replayed_in_chunks_of_replay_chunk(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The replay after the run feeds the checker chunks of at least REPLAY_CHUNK (2^16) updates, not an eighth
    # of the samples (at least the engine's 4,096): each chunk costs the checker a fixed set-up (the wide
    # claims' enclosures, the whole-run record's pieces, the soft-margin filter), which breast cancer raw's
    # 53,256 updates paid 12 times (about 12 ms of its 76). The small chunks stay for the replay at the kept
    # updates' overflow (into the checker thread's queue: `_replay_least`). The report is the same.
    data = _noisy(300, 3, 5)
    sizes = _chunk_sizes(monkeypatch)
    trace, check = verify_run(data, "classic", max_epochs=100)
    assert not trace.converged and 3 * fast.SMALL_CHUNK < trace.n_updates <= pipeline.REPLAY_CHUNK
    assert sizes == [trace.n_updates]  # one chunk (several of at least 4,096 before)
    report = render_json(build_report(data, trace, check))
    replay = pipeline._Store.replay

    def small(self: Any, observer: Any, *, keep: bool = False, least: int | None = None) -> None:
        replay(self, observer, keep=keep, least=fast.SMALL_CHUNK)

    monkeypatch.setattr(pipeline._Store, "replay", small)
    sizes.clear()
    trace, check = verify_run(data, "classic", max_epochs=100)
    assert len(sizes) > 3 and render_json(build_report(data, trace, check)) == report


def test_past_the_kept_updates_budget_the_replay_into_the_checker_thread_keeps_small_chunks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # At the budget's overflow the kept updates go to the checker thread's queue in chunks sized from the
    # samples (`_replay_least`), not REPLAY_CHUNK: the peak memory of test_peak_memory's randn runs.
    data = _noisy(300, 3, 5)
    sizes = _chunk_sizes(monkeypatch)
    monkeypatch.setattr(pipeline, "MIN_REPLAY_BYTES", 2**18)  # passed after about 9,000 updates
    trace, _ = verify_run(data, "classic", max_epochs=300)
    least = pipeline._replay_least(data.n_samples)
    assert trace.n_updates > 2**16 // 2 and least < pipeline.REPLAY_CHUNK
    assert len(sizes) >= 2 and all(size < least + fast.SMALL_CHUNK for size in sizes)  # one chunk with 2^16


def _limb_value(row: list[int]) -> int:
    """64-bit limbs, lowest first, as one two's-complement integer over all of them."""
    value = sum((limb % 2**64) << (64 * k) for k, limb in enumerate(row))
    return value - (1 << (64 * len(row))) if row[-1] < 0 else value


@given(st.data())
@settings(max_examples=60, deadline=None)
def test_the_whole_run_records_prefix_sums_are_the_sums_of_the_values(data: st.DataObject) -> None:
    # `_chunk_sums.prefix_sums` joins its 32-bit pieces' running sums at the points in NumPy (cumsum in int64,
    # then one object array a shift) where it added them in a Python loop per point and piece: the same
    # integers, at any points, for int64 values, limbs (an (m, L) array or its columns) and Python integers.
    from verify_perceptron.check._chunk_sums import prefix_sums

    m = data.draw(st.integers(1, 40))
    int64s = st.integers(-2**63, 2**63 - 1)
    kind = data.draw(st.sampled_from(["int64", "small", "limbs", "columns", "object"]))
    if kind in ("limbs", "columns"):
        L = data.draw(st.integers(1, 3))
        rows = [data.draw(st.lists(int64s, min_size=L, max_size=L)) for _ in range(m)]
        values = [_limb_value(row) for row in rows]
        limbs = np.array(rows, dtype=np.int64)
        array: Any = limbs if kind == "limbs" else tuple(np.ascontiguousarray(limbs[:, k]) for k in range(L))
    elif kind == "object":
        values = data.draw(st.lists(st.integers(-2**300, 2**300), min_size=m, max_size=m))
        array = np.array(values, dtype=object)
    else:
        values = data.draw(st.lists(int64s if kind == "int64" else st.integers(-1000, 1000), min_size=m, max_size=m))
        array = np.array(values, dtype=np.int64)
    other = data.draw(st.lists(st.integers(0, 2**40), min_size=m, max_size=m))
    factor = data.draw(st.sampled_from([1, 2, -3]))
    js = data.draw(st.lists(st.integers(0, m - 1), min_size=1, max_size=8))
    expected = [factor * sum(values[:j + 1]) + sum(other[:j + 1]) for j in js]
    assert prefix_sums(js, (array, factor), (np.array(other, dtype=np.int64), 1)) == expected


@pytest.mark.parametrize("scale", [1, 2**100], ids=["int64-margins", "python-integer-margins"])
def test_the_whole_run_records_int64_path_declines_a_chunk_on_a_margin_below_gamma(scale: int) -> None:
    # `_monotone_chunk` takes a chunk only where no update's margin is below γ (else the lower slack may fall);
    # that is told per sample now (`_margin_marks`, once a run), not by the least of the chunk's margins. A γ
    # above samples 2 and 3's margins (the AND data, w* = (-4, 3, 2): margins 4, 2, 1, 1 times the scale) must
    # make it decline the chunks on them and take those on sample 0 alone; the points are the general path's.
    from verify_perceptron.check.checker import Checker
    from verify_perceptron.check.whole_run import WholeRun
    from verify_perceptron.data.examples import example

    checker = Checker(example("and"), "classic", rate=1, mode="online", separator=[-4 * scale, 3 * scale, 2 * scale])
    fast, general = WholeRun(checker), WholeRun(checker)
    general.monotone = False
    for record in (fast, general):
        record.gamma = 2 * int(checker.gamma_scaled)
    taken: list[bool] = []
    monotone = fast._monotone_chunk

    def counted(*args: Any) -> bool:
        taken.append(monotone(*args))
        return taken[-1]

    setattr(fast, "_monotone_chunk", counted)
    rng = np.random.default_rng(7)
    first = 1
    for rows in ([0] * 300, [0, 2, 0] * 100, [3] * 300, [0] * 300):
        scores = -rng.integers(1, 3, size=len(rows)).astype(np.int64)
        fast.observe_chunk(first, 1, np.array(rows, dtype=np.int64), scores)
        general.observe_chunk(first, 1, np.array(rows, dtype=np.int64), scores)
        first += len(rows)
    assert taken == [True, False, False, True]
    assert fast.intervals == general.intervals and fast.points() == general.points()


def test_a_matrix_not_held_in_limbs_with_norms_past_int64_is_read_in_c_by_the_whole_run_record(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Floats in [1, 2) over 2^52: numerators of 53 bits, int64, so the sample matrix is not held in limbs, but
    # ‖z_i‖² passes 2^63 (iris versicolor/virginica standardized: 123 bits). The whole-run record's chunks were
    # read by its NumPy path there (`_norm_limbs` gave None); they are read in C now, from the norms' limbs
    # side by side (made once a run), and the report is the NumPy path's.
    import warnings

    from verify_perceptron.api.estimator import ExactPerceptron
    from verify_perceptron.check import kernel, whole_run

    if kernel.record_sums is None:
        pytest.skip("the C kernel is not built")
    rng = np.random.default_rng(11)
    X, y = rng.uniform(1.0, 2.0, (120, 4)), np.where(rng.random(120) < 0.5, 1, -1)
    calls: list[int] = []
    sums_of = kernel.record_sums

    def counted(*args: Any) -> Any:
        calls.append(args[2].shape[1])  # the norms' limbs
        return sums_of(*args)

    monkeypatch.setattr(kernel, "record_sums", counted)
    reports = []
    for in_c in (True, False):
        monkeypatch.setattr(whole_run, "RECORD_IN_C", in_c)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fitted = ExactPerceptron(max_epochs=300).fit(X, y)  # (16,781 updates: past the trace's kept ones)
        assert fitted.verification_ is not None
        reports.append(fitted.verification_.json)
    assert not fitted.converged_ and calls and min(calls) >= 2  # (none before: the NumPy path read them)
    assert reports[0] == reports[1]


def test_after_the_run_more_samples_than_the_engines_chunk_keep_chunks_sized_from_the_samples(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # REPLAY_CHUNK after the run only on small data (up to 4,096 samples): on more, each chunk's temporaries in
    # the checker would weigh on the peak against the data's own bytes (issue 32's 10^5 and 10^6 rows), so the
    # chunks stay `_replay_least`'s, as at the overflow.
    data = _noisy(5000, 2, 3)
    sizes = _chunk_sizes(monkeypatch)
    trace, _ = verify_run(data, "classic", max_epochs=8)
    assert not trace.converged and trace.n_updates > 4 * pipeline._replay_least(data.n_samples)
    assert len(sizes) >= 4 and max(sizes[:-1]) < pipeline._replay_least(data.n_samples) + fast.SMALL_CHUNK


def test_the_whole_run_record_sums_python_integer_margins_over_their_limbs_in_c(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Margins past int64 (against a certified separator: 1,627 bits on breast cancer raw) were added as Python
    # integers at every update of a chunk; they are summed over their limbs in one C pass now (`margin_sums`),
    # with the general path's points. A scale of 2^100 - 1 makes the margins' low limbs carry as they are summed.
    from verify_perceptron.check.checker import Checker
    from verify_perceptron.check.whole_run import WholeRun
    from verify_perceptron.data import kernel
    from verify_perceptron.data.examples import example

    if kernel.limb_norms is None:
        pytest.skip("the limb extension is not built")
    scale = 2**100 - 1
    checker = Checker(example("and"), "classic", rate=1, mode="online", separator=[-4 * scale, 3 * scale, 2 * scale])
    fast, general = WholeRun(checker), WholeRun(checker)
    general.monotone = False
    calls: list[tuple[int, ...]] = []
    gathered = kernel.gathered_sums
    assert gathered is not None

    def counted(*args: Any) -> None:
        calls.append(args[0].shape)
        gathered(*args)

    monkeypatch.setattr(kernel, "gathered_sums", counted)
    rng = np.random.default_rng(3)
    first = 1
    for rows in ([0] * 400, [0, 1, 2, 3] * 150, [1, 0] * 200):
        scores = -rng.integers(1, 2**40, size=len(rows)).astype(np.int64)
        fast.observe_chunk(first, 1, np.array(rows, dtype=np.int64), scores)
        general.observe_chunk(first, 1, np.array(rows, dtype=np.int64), scores)
        first += len(rows)
    # the four margins, two limbs each, once a chunk (beside them `step_sums`' scores and norms, one limb each)
    assert calls.count((4, 2)) == 3 and all(shape in ((4, 2), (4, 1)) or shape[1] == 1 for shape in calls)
    assert fast.intervals == general.intervals and fast.points() == general.points()
