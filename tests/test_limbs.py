"""The compiled pass in 64-bit limbs makes the reference engine's run, at every width and past the widest."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from verify_perceptron.data.dataset import Dataset
from verify_perceptron.data.integers import ExactMatrix, score_values
from verify_perceptron.notes.conventions import CONVENTIONS
from verify_perceptron.run import _limbs, fast
from verify_perceptron.run import kernel as _kernel
from verify_perceptron.run import reference as engine
from verify_perceptron.run.filter import radii
from tests.test_fast import rate_for, same_run

needs_kernel = pytest.mark.skipif(not _kernel.AVAILABLE or _kernel.limb_pass is None,
                                  reason=f"the C kernel is not built: {_kernel.IMPORT_ERROR}")

#: Entry magnitudes whose norms call for 3, 4, 5 and 7 limbs, and one past the widest (Python integers).
MAGNITUDES = [2**70, 2**100, 2**125, 2**200, 2**300]


def _widths(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Spy on the limb pass: the score width of each call."""
    seen: list[int] = []
    real = _kernel.limb_pass

    def watched(*args: Any) -> Any:
        seen.append(args[6].shape[1])
        return real(*args)

    monkeypatch.setattr(_kernel, "limb_pass", watched)
    return seen


def _data(X: Any, y: Any) -> Dataset:
    """Integer samples as a `Dataset`."""
    return Dataset(X=[[Fraction(v) for v in row] for row in X], y=y)


@st.composite
def dyadic_data(draw: st.DrawFn, magnitude: int) -> Dataset:
    """Binary floats' kind of data: integers up to `magnitude` over a power of two, often with exact ties."""
    n, d = draw(st.integers(2, 7)), draw(st.integers(1, 3))
    entry = st.one_of(st.integers(-magnitude, magnitude), st.sampled_from([0, 1, -1, magnitude, -magnitude]))
    X = draw(st.lists(st.lists(entry, min_size=d, max_size=d), min_size=n, max_size=n))
    y = draw(st.lists(st.sampled_from((-1, 1)), min_size=n, max_size=n).filter(lambda ys: len(set(ys)) == 2))
    power = draw(st.sampled_from([0, 1, 64]))
    return Dataset(X=[[Fraction(v, 2**power) for v in row] for row in X], y=y)


@needs_kernel
@given(magnitude=st.sampled_from(MAGNITUDES), data=st.data(), convention=st.sampled_from(sorted(CONVENTIONS)),
       mode=st.sampled_from(["online", "batch"]), eta=st.sampled_from([Fraction(1), Fraction(1, 3), Fraction(5, 2)]))
def test_the_limb_pass_makes_the_reference_run_at_every_width_and_past_the_widest(magnitude, data, convention,
                                                                                  mode, eta):
    dataset = data.draw(dyadic_data(magnitude))
    eta = rate_for(convention, eta)
    same_run(engine.train(dataset, convention, eta=eta, mode=mode, max_epochs=12),
             fast.run(dataset, convention, eta=eta, mode=mode, max_epochs=12, keep_updates=10**9))


@needs_kernel
@pytest.mark.parametrize("magnitude, widths", [(2**70, {3}), (2**100, {4}), (2**125, {5}), (2**200, {7}),
                                               (2**300, set())])
def test_each_width_is_the_pass_that_runs_and_past_the_widest_python_integers(monkeypatch, magnitude, widths):
    seen = _widths(monkeypatch)
    rng = np.random.default_rng(7)
    X = [[int(v) * (magnitude >> 20) for v in rng.integers(-(2**20), 2**20, size=3)] for _ in range(12)]
    data = _data(X, [1, -1] * 6)  # not separable, most likely: updates at every epoch
    trace = fast.run(data, "classic", max_epochs=30, keep_updates=10**9)
    same_run(engine.train(data, "classic", max_epochs=30), trace)
    assert set(seen) == widths and trace.n_updates > 30


@needs_kernel
def test_the_run_widens_its_limbs_as_the_weights_grow(monkeypatch):
    # Points at a scale of s = 2^123 (‖z‖² < 2^253 calls for 4 limbs) on which ‖W‖² grows to 7 times
    # max ‖z‖², past that choice's limit: the run goes on in wider limbs, still the reference run.
    seen = _widths(monkeypatch)
    s = 2**123
    points = [(4, 4, 1), (-2, 4, 1), (4, 0, 1), (-4, -1, 1), (2, 2, 1), (5, 2, 1)]
    data = _data([[v * s for v in p] for p in points], (-1, -1, 1, -1, -1, 1))
    monkeypatch.setattr(_limbs, "_HEADROOM", 0)  # no room to spare: the first width is soon passed
    trace = fast.run(data, "classic", max_epochs=100, keep_updates=10**9)
    same_run(engine.train(data, "classic", max_epochs=100), trace)
    assert seen[0] == 4 and max(seen) > 4, seen


@needs_kernel
@pytest.mark.parametrize("scale", [2**64, 2**100, 2**200])
def test_a_cycle_past_128_bits_is_found_where_the_reference_finds_it(scale):
    data = _data([(0, 0), (0, scale), (scale, 0), (scale, scale)], (-1, 1, 1, -1))
    for convention in ("classic", "hard-limiter"):
        quick = fast.run(data, convention, max_epochs=200, keep_updates=10**9)
        assert quick.stop == "cycle"
        same_run(engine.train(data, convention, max_epochs=200), quick)


@pytest.mark.parametrize("convention", ["classic", "hard-limiter", "sum-norm"])
def test_without_the_compiled_pass_the_same_runs_are_made(monkeypatch, convention):
    rng = np.random.default_rng(5)
    X = [[int(v) << 90 for v in rng.integers(-(2**12), 2**12, size=3)] for _ in range(10)]
    data = _data(X, [1 if row[0] > row[1] else -1 for row in X])
    compiled = fast.run(data, convention, max_epochs=40, keep_updates=10**9)
    monkeypatch.setattr(_kernel, "limb_pass", None)
    same_run(compiled, fast.run(data, convention, max_epochs=40, keep_updates=10**9))
    monkeypatch.setattr(_kernel, "AVAILABLE", False)
    same_run(compiled, fast.run(data, convention, max_epochs=40, keep_updates=10**9))


def _pass(Z: list[list[int]], weights: list[int], tie: list[bool], floats: bool) -> tuple[list[int], list[int]]:
    """One limb pass over rows Z from W = weights (d = 2): the mistakes' rows and exact scores."""
    layout = _limbs.LimbLayout(ExactMatrix(np.array(Z, dtype=object)))
    norm_sq = sum(w * w for w in weights)
    ls, lw, limit = layout.shape(norm_sq) or (0, 0, 0)
    matrix = ExactMatrix(np.array(Z, dtype=object))
    F = np.array([[float(v) for v in row] for row in Z])
    filt = (F, radii(matrix.norms, 2)) if floats else None
    out_i, out_e, out_s = np.zeros(8, dtype=np.int64), np.zeros(8, dtype=np.int64), np.zeros((8, ls), dtype=np.int64)
    W = _limbs.limbs_of(weights, lw)
    m, *_ = _kernel.limb_pass(layout.Z, W, np.array(tie), layout.norms(ls), np.zeros(len(Z), dtype=np.int64), out_i,
                              out_s, 0, _limbs.limbs_of([norm_sq], ls)[0].copy(), _limbs.limbs_of([limit], ls)[0],
                              (out_e, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), 1, 0, 1, 0, 1, 1),
                              filt)
    return out_i[:m].tolist(), [int(v) for v in score_values(out_s[:m]).tolist()]


@needs_kernel
def test_scores_of_minus_one_zero_and_one_at_2_to_the_200_reach_the_exact_sums():
    # W = (A, B) with A = 2^100, B = A + 1, and rows near 2^200 of exact scores 1, -1 and 0: the float
    # score is a coin toss there, so only the filter's bound sends them to the exact sums.
    A, B, t = 2**100, 2**100 + 1, 2**99
    one = [-1 + t * B, 1 - t * A]  # (-1)·A + 1·B = 1
    for row, score in ((one, 1), ([-one[0], -one[1]], -1), ([B * t, -A * t], 0)):
        assert row[0] * A + row[1] * B == score
        for floats in (False, True):
            for tie in (False, True):
                mistake = score < 0 or (score == 0 and tie)
                assert _pass([row], [A, B], [tie], floats) == (([0], [score]) if mistake else ([], []))


@needs_kernel
@pytest.mark.parametrize("change, message", [
    (lambda a: a.update(limit=_limbs.limbs_of([2**190], 3)[0]), "limit"),
    (lambda a: a.update(W=np.zeros((2, 1), dtype=np.int64), limit=_limbs.limbs_of([2**127], 3)[0]), "limit"),
    (lambda a: a.update(w_sq=_limbs.limbs_of([-1], 3)[0].copy()), "w_sq"),
    (lambda a: a.update(norms=_limbs.limbs_of([-1, 1], 3)), "norms"),
    # at the bound 2^(64·3 − 3) itself, on the last row: every row's top limb is read (or-ed over all rows)
    (lambda a: a.update(norms=_limbs.limbs_of([0, 2**189], 3)), r"norms\[1\]"),
    (lambda a: a.update(norms=_limbs.limbs_of([2**190 + 5, 0], 3)), r"norms\[0\]"),
    (lambda a: a.update(out_s=np.zeros((4, 2), dtype=np.int64)), "out_s"),
])
def test_the_limb_pass_refuses_arguments_outside_its_precondition(change, message):
    args: dict[str, Any] = dict(
        Z=np.zeros((2, 2, 2), dtype=np.int64), W=np.zeros((2, 2), dtype=np.int64), tie=np.zeros(2, dtype=bool),
        norms=np.zeros((2, 3), dtype=np.int64), counts=np.zeros(2, dtype=np.int64), out_i=np.zeros(4, dtype=np.int64),
        out_s=np.zeros((4, 3), dtype=np.int64), start=0, w_sq=np.zeros(3, dtype=np.int64),
        limit=_limbs.limbs_of([2**100], 3)[0],
        epochs=(np.zeros(4, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), 1, 0, 1, 0, 1, 1),
        filter=None)
    assert _kernel.limb_pass(*args.values())[0] == 0  # as given, a pass over two zero rows that ties nowhere
    change(args)
    with pytest.raises(ValueError, match=message):
        _kernel.limb_pass(*args.values())


def test_scores_that_fit_two_limbs_are_handed_on_in_halves():
    wide = _limbs.limbs_of([2**150, -3], 4)
    assert _limbs.narrowed(wide) is wide
    narrow = _limbs.narrowed(_limbs.limbs_of([2**100, -(2**127)], 4))
    assert narrow.shape == (2, 2) and score_values(narrow).tolist() == [2**100, -(2**127)]


@needs_kernel
@pytest.mark.parametrize("convention", ["classic", "unit-ball"])
def test_verify_run_checks_the_limb_pass_run_as_the_reference_run(convention):
    # Rows near 2^32 and one near 2^80 (samples past int64: the limb pass), checked as the reference's run.
    from verify_perceptron.pipeline import verify_run

    rng = np.random.default_rng(11)
    X = [[int(v) << 20 for v in rng.integers(-(2**12), 2**12, size=3)] for _ in range(40)]
    X[-1] = [v << 48 for v in X[-1]]
    data = _data(X, [1, -1] * 20)
    trace, result = verify_run(data, convention, max_epochs=20)
    reference_trace, reference_result = verify_run(data, convention, max_epochs=20, engine_name="reference")
    assert trace.n_updates == reference_trace.n_updates > 100
    assert trace.final_weights == reference_trace.final_weights
    assert result.holds is True and reference_result.holds is True
    assert ([(c.name, c.holds, c.n_checked, c.min_slack) for c in result.invariants]
            == [(c.name, c.holds, c.n_checked, c.min_slack) for c in reference_result.invariants])


def test_kept_chunks_of_scores_in_different_limbs_are_replayed_as_one():
    from verify_perceptron import pipeline

    told: list[Any] = []

    class Chunks:
        def observe(self, k: int, epoch: int, samples: Any, scores: Any) -> None:
            raise AssertionError("told one by one")

        def observe_chunk(self, first: int, epoch: Any, rows: Any, scores: Any) -> None:
            told.append((first, rows.tolist(), score_values(scores).tolist()))

    values = [[-5, 2**100], [2**150, -(2**140)], [7]]
    parts = [_limbs.limbs_of(values[0], 2), _limbs.limbs_of(values[1], 3), np.array(values[2], dtype=np.int64)]
    items = [(1, 1, np.array([0, 1]), parts[0]), (3, 2, np.array([2, 3]), parts[1]), (5, 2, np.array([4]), parts[2])]
    pipeline._feed_joined(Chunks(), items)
    assert told == [(1, [0, 1, 2, 3, 4], [v for part in values for v in part])]


@needs_kernel
@pytest.mark.slow
def test_the_limb_pass_lets_other_threads_run(monkeypatch):
    # One long compiled pass in a second thread (every epoch in one call): the main thread's Python runs
    # meanwhile, which it could not if the pass held the GIL.
    import threading
    import time

    from verify_perceptron.data.arrays import exact_table

    rng = np.random.default_rng(4)
    table = exact_table(rng.standard_normal((1000, 20)))  # binary floats: numerators past 64 bits
    data = Dataset(numerators=table.numerators, denominator=table.denominator, y=[1, -1] * 500)
    monkeypatch.setattr(fast, "WORK", 2**40)
    monkeypatch.setattr(fast, "CHUNK", 2**22)
    monkeypatch.setattr(fast, "SMALL_CHUNK", 2**22)
    spans: list[tuple[float, float]] = []
    real = _kernel.limb_pass

    def timed(*args: Any) -> Any:
        start = time.monotonic()
        result = real(*args)
        spans.append((start, time.monotonic()))
        return result

    monkeypatch.setattr(_kernel, "limb_pass", timed)
    worker = threading.Thread(target=lambda: fast.run(data, "classic", max_epochs=3000, keep_updates=0))
    ticks = []
    worker.start()
    while worker.is_alive():
        ticks.append(time.monotonic())
    start, end = max(spans, key=lambda span: span[1] - span[0])
    assert end - start > 0.05, spans  # one pass long enough to tell
    inside = [t for t in ticks if start < t < end]
    # the main thread ran through the pass, not only in a switch interval (5 ms) before it took the GIL
    assert inside and inside[-1] - inside[0] > (end - start) / 2, (end - start, len(inside))


@needs_kernel
def test_the_limb_pass_hands_over_more_than_4096_updates_at_once_and_the_checked_run_is_the_same(monkeypatch):
    # fast.CHUNK = 4096 made the randn fits stop the pass, and run the engine's and the checker's Python, every
    # 4096 updates (about a millisecond each: 13% of the 10^5 x 10 fit). Past 32,768 rows the buffers now hold
    # n/8 updates (here 5,000). The chunk's size must not show in the run or its check: both are made again
    # with the old size and compared.
    from verify_perceptron.data.arrays import exact_table
    from verify_perceptron.pipeline import verify_run

    rng = np.random.default_rng(5)
    table = exact_table(rng.standard_normal((40_000, 2)))  # binary floats: numerators past 64 bits
    data = Dataset(numerators=table.numerators, denominator=table.denominator,
                   y=np.where(rng.random(40_000) < 0.5, 1, -1))
    handed: list[int] = []
    real = _kernel.limb_pass

    def watched(*args: Any) -> Any:
        result = real(*args)
        handed.append(result[0])
        return result

    monkeypatch.setattr(_kernel, "limb_pass", watched)
    trace, result = verify_run(data, "classic", max_epochs=1)
    assert max(handed) > 4096, handed
    monkeypatch.setattr(fast, "CHUNK", 4096)
    again, again_result = verify_run(data, "classic", max_epochs=1)
    assert trace.n_updates == again.n_updates > 8192 and trace.final_weights == again.final_weights
    assert ([(c.name, c.holds, c.n_checked, c.min_slack, c.min_slack_at) for c in result.invariants]
            == [(c.name, c.holds, c.n_checked, c.min_slack, c.min_slack_at) for c in again_result.invariants])
