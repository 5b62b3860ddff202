"""The mistake bound without separation: its exact test, its filter, its check at every update, and its reports."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
import pytest
import hypothesis
from hypothesis import given
from hypothesis import strategies as st

import verify_perceptron.pipeline as pipeline
from verify_perceptron.check.checker import Checker
from verify_perceptron.check import mistake_map
from verify_perceptron.check.mistake_map import MistakeMap
from verify_perceptron.check.soft_margin import SoftMarginCheck
from verify_perceptron.check.soft_reference import best_reference
from verify_perceptron.check.traces import check_trace
from verify_perceptron.data.dataset import Dataset
from verify_perceptron.data.examples import example
from verify_perceptron.data.samples import sample_matrix
from verify_perceptron.notes.conventions import CONVENTIONS, get_convention
import verify_perceptron.notes.soft_margin as soft_module
from verify_perceptron.notes.soft_margin import SoftMargin, _stable_order, choose_columns, choose_margin
from verify_perceptron.pipeline import verify_run
from verify_perceptron.report.record import build_report
from verify_perceptron.report.text import render_text
from verify_perceptron.run.reference import train


def below_root_form(x: Fraction, bound: SoftMargin, D_sq: int) -> bool:
    """x·ρ² <= (√B + √C)², decided by squaring in rationals (t <= 0 or t² <= 4BC), as the issue asks."""
    B = bound.R_sq * bound.u_sq
    t = x * bound.rho**2 - B - D_sq
    return t <= 0 or t * t <= 4 * B * D_sq


@given(b=st.integers(1, 40), c=st.integers(0, 40), rho=st.integers(1, 12), N=st.integers(0, 400))
def test_the_squared_test_is_the_root_form_on_perfect_squares(b: int, c: int, rho: int, N: int) -> None:
    # With B = b² and D² = c², the bound (b + c)²/ρ² is rational, so the root form is decided in integers.
    bound = SoftMargin(rho, b * b, 1, np.zeros(1, dtype=np.int64), 1)
    assert bound.holds(N, c * c) == (N * rho * rho <= (b + c) ** 2)


@given(B=st.integers(1, 10**6), C=st.integers(0, 10**6), rho=st.integers(1, 1000), N=st.integers(0, 10**6))
def test_the_squared_test_agrees_with_50_digits(B: int, C: int, rho: int, N: int) -> None:
    bound = SoftMargin(rho, B, 1, np.zeros(1, dtype=np.int64), 1)
    with mpmath.workdps(50):
        gap = (mpmath.sqrt(B) + mpmath.sqrt(C)) ** 2 - N * rho * rho
    if abs(gap) > mpmath.mpf(10) ** -30:  # (an exact tie needs B·C square: the test above covers those)
        assert bound.holds(N, C) == (gap > 0)


@given(B=st.integers(1, 10**40), C=st.integers(0, 10**40), rho=st.integers(1, 10**15))
def test_the_enclosure_contains_the_bound(B: int, C: int, rho: int) -> None:
    bound = SoftMargin(rho, B, 1, np.zeros(1, dtype=np.int64), 1)
    lo, hi = bound.interval(C)
    assert lo <= hi and hi - lo <= hi * Fraction(1, 2**90)
    assert below_root_form(lo, bound, C)
    assert not below_root_form(hi, bound, C) or hi == lo


def test_a_tampered_count_is_a_violation_at_the_first_update_past_the_bound() -> None:
    # AND's w* = (-3, 2, 2) has margins 3, 1, 1, 1 (R² = 3, ‖u‖² = 17); with ρ = 1, D = 0 and N <= 3·17 = 51.
    data = example("and")
    margins = sample_matrix(data, get_convention("classic")).products([-3, 2, 2], norm_sq=17).tolist()
    assert margins == [3, 1, 1, 1]
    bound = SoftMargin.from_margins(margins, rho=1, R_sq=3, u_sq=17, scale=1)
    check = SoftMarginCheck(bound, reference=(Fraction(-3), Fraction(2), Fraction(2)), source="user", L=1, M=1)
    check.observe_chunk(1, 1, np.full(60, 3))  # a count no run can reach: 60 mistakes on the last sample
    result, summary = check.finish()
    assert result.holds is False and result.first_violation is not None and result.first_violation.k == 52
    assert dict(result.first_violation.values)["N"] == 52
    assert summary.n_mistakes == 60 and summary.bound[0] <= 51 <= summary.bound[1]


def test_the_checker_reports_an_inflated_trace_as_a_soft_margin_violation() -> None:
    data = example("and")
    checker = Checker(data, "classic", rate=1, mode="online", separator=[-3, 2, 2])
    for k in range(1, 61):
        checker.observe(k, k, [3], [0])  # not mistakes either: the update rule fails as well
    names = {r.name for r in checker.finish().violations}
    assert {"update-rule", "soft-margin-bound"} <= names


@given(st.lists(st.integers(0, 5), min_size=1, max_size=300), st.integers(1, 7), st.integers(0, 3))
def test_the_filter_decides_as_the_integers_do(rows: list[int], rho: int, R: int) -> None:
    margins = [rho, rho - 1, 0, -2, rho + 3, 1 - rho]
    bound = SoftMargin.from_margins(margins, rho=rho, R_sq=R * R + 1, u_sq=1, scale=1)
    chunked = SoftMarginCheck(bound, reference=(Fraction(1),), source="test", L=1, M=1)
    chunked.observe_chunk(1, 1, np.array(rows))
    one_by_one = SoftMarginCheck(bound, reference=(Fraction(1),), source="test", L=1, M=1)
    for k, row in enumerate(rows, 1):
        one_by_one.observe(k, 1, [row])
    exact_first = next((k for k in range(1, len(rows) + 1)
                        if not bound.holds(k, sum(int(bound.deficits_sq[j]) for j in rows[:k]))), None)
    for check in (chunked, one_by_one):
        result, summary = check.finish()
        assert result.n_checked == len(rows)
        assert (result.first_violation.k if result.first_violation else None) == exact_first
        assert summary.D_sq == sum(int(bound.deficits_sq[j]) for j in rows)


@pytest.mark.parametrize("scale", [2**40, 2**100, 2**200], ids=["2^40", "2^100", "2^200"])
@given(st.lists(st.integers(0, 5), min_size=1, max_size=300), st.integers(1, 7), st.integers(0, 3))
def test_shortfalls_past_int64_are_summed_in_pieces_as_the_integers_are(scale: int, rows: list[int], rho: int,
                                                                        R: int) -> None:
    # Every quantity times `scale` (the bound is the same): the shortfalls pass int64 (126 bits at 10^6 x 10 not
    # separable), and a chunk's D² are sums of 46-bit pieces (SoftMarginCheck._pieces); past 8 pieces
    # (2^200: 400-bit shortfalls), sums of Python integers.
    margins = [scale * m for m in (rho, rho - 1, 0, -2, rho + 3, 1 - rho)]
    bound = SoftMargin.from_margins(margins, rho=rho * scale, R_sq=(R * R + 1) * scale**2, u_sq=1, scale=1)
    assert bound.deficits_sq.dtype == object
    check = SoftMarginCheck(bound, reference=(Fraction(1),), source="test", L=1, M=1)
    assert (check._pieces is None) == (scale == 2**200)
    check.observe_chunk(1, 1, np.array(rows))
    exact_first = next((k for k in range(1, len(rows) + 1)
                        if not bound.holds(k, sum(int(bound.deficits_sq[j]) for j in rows[:k]))), None)
    result, summary = check.finish()
    assert result.n_checked == len(rows)
    assert (result.first_violation.k if result.first_violation else None) == exact_first
    assert summary.D_sq == sum(int(bound.deficits_sq[j]) for j in rows)
    tightest = summary.tightest_at
    assert summary.scaled_tightest_D_sq == (None if tightest is None else
                                            sum(int(bound.deficits_sq[j]) for j in rows[:tightest]))


def test_the_filter_is_exact_at_a_tie() -> None:
    # B = 4, ρ = 1, one sample with d = 2: after N mistakes D² = 4N, bound (2 + 2√N)²: N = 16 ties nothing, but
    # with the sample's d = 0 the bound is exactly 4 and the fifth mistake is the first past it.
    bound = SoftMargin.from_margins([1], rho=1, R_sq=4, u_sq=1, scale=1)
    check = SoftMarginCheck(bound, reference=(Fraction(1),), source="test", L=1, M=1)
    check.observe_chunk(1, 1, np.zeros(5, dtype=np.int64))
    result, _ = check.finish()
    assert result.first_violation is not None and result.first_violation.k == 5


def test_choose_margin_takes_the_least_bound_of_its_candidates() -> None:
    margins, counts = [5, 3, 3, -1, 8, 2], [2, 1, 0, 4, 1, 3]
    chosen = choose_margin(margins, counts, R_sq=50, u_sq=2)
    assert chosen is not None
    rho, log_bound = chosen
    for candidate in {m for m in margins if m > 0}:
        D_sq = sum(c * max(0, candidate - m) ** 2 for m, c in zip(margins, counts))
        assert math.exp(log_bound) <= (math.sqrt(100) + math.sqrt(D_sq)) ** 2 / candidate**2 * (1 + 1e-12)
    assert rho in margins


def one_column(margins: np.ndarray, counts: np.ndarray, root_B: float) -> tuple[int, float] | None:
    """The choice of ρ for one column as first written (one candidate at a time): the oracle of `choose_columns`."""
    order = np.argsort(margins, kind="stable")
    m, c = margins[order], counts[order]
    candidates = np.unique(m[m > 0])
    if not len(candidates):
        return None
    if len(candidates) > soft_module.CANDIDATES:
        k = soft_module.CANDIDATES
        candidates = candidates[np.arange(k) * (len(candidates) - 1) // (k - 1)]
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        sums = [np.concatenate(([0.0], np.cumsum(c * m**p))) for p in range(3)]
        below = np.searchsorted(m, candidates, side="left")
        D_sq = np.maximum(sums[0][below] * candidates**2 - 2 * sums[1][below] * candidates + sums[2][below], 0.0)
        values = 2 * (np.log(root_B + np.sqrt(D_sq)) - np.log(candidates))  # the bound's logarithm
    values = np.where(np.isnan(values), np.inf, values)
    best = int(np.argmin(values))
    return int(order[below[best]]), float(values[best])


MARGIN_POOL = [-3.0, -0.0, 0.0, 0.5, 1.0, 1.0, 2.0, 3.5, 7.0, 1e200, 1e-300, math.inf, -math.inf, math.nan]


@given(data=st.data(), n=st.integers(0, 40), c=st.integers(1, 5), candidates=st.sampled_from([2, 3, 5, 256]),
       whole=st.sampled_from([0, 2**14]))
def test_choose_columns_is_the_one_column_choice_on_every_column(data: st.DataObject, n: int, c: int,
                                                                  candidates: int, whole: int) -> None:
    # both ways: a column at a time (whole = 0) and every column at once (these sizes, at the default)
    margins = np.array(data.draw(st.lists(st.lists(st.sampled_from(MARGIN_POOL) | st.floats(-9, 9), min_size=c,
                                                   max_size=c), min_size=n, max_size=n)), dtype=np.float64)
    margins = margins.reshape(n, c)
    counts = np.array(data.draw(st.lists(st.integers(0, 5), min_size=n, max_size=n)), dtype=np.float64)
    roots = data.draw(st.lists(st.sampled_from([0.0, 1.0, 3.0, 1e300]), min_size=c, max_size=c))
    saved = soft_module.CANDIDATES, soft_module.WHOLE_CELLS
    soft_module.CANDIDATES = candidates  # few candidates, so that the evenly spaced choice is exercised
    soft_module.WHOLE_CELLS = whole
    try:
        got = choose_columns(margins, counts, roots)
        expected = [one_column(margins[:, j], counts, roots[j]) for j in range(c)]
    finally:
        soft_module.CANDIDATES, soft_module.WHOLE_CELLS = saved
    assert got == expected


@given(data=st.data(), n=st.integers(0, 60), c=st.integers(1, 4), copies=st.sampled_from([1, 30]))
def test_the_stable_order_is_numpys_stable_argsort(data: st.DataObject, n: int, c: int, copies: int) -> None:
    cells = data.draw(st.lists(st.sampled_from(MARGIN_POOL) | st.floats(-3, 3), min_size=n * c, max_size=n * c))
    values = np.tile(np.array(cells, dtype=np.float64).reshape(n, c), (copies, 1))  # 30 copies: past 1,024 rows
    assert _stable_order(values).tolist() == np.argsort(values, axis=0, kind="stable").tolist()


def test_the_stable_order_of_a_large_column_makes_its_keys_in_place() -> None:
    # choose_margin's sort of 10^6 margins stood at the randn fit's peak after the run: its keys rank·n + index
    # were made in five arrays of n at once, now two (tracemalloc: 5.13 and 3.25 arrays of n int64 at 2^16 values)
    import tracemalloc

    n = 2**16
    values = np.random.default_rng(3).integers(0, 1000, (n, 1)).astype(np.float64)  # (ties: the keys are made)
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        got = _stable_order(values)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert got.tolist() == np.argsort(values, axis=0, kind="stable").tolist()
    assert peak < 4 * n * 8


def test_choose_columns_fails_when_a_column_takes_another_columns_root() -> None:
    # the mutation the property test guards against: the roots applied to the wrong columns
    margins = np.array([[1.0, 1.0], [4.0, 4.0], [-1.0, -1.0]])
    right = choose_columns(margins, np.ones(3), [0.0, 100.0])
    assert right[0] != right[1] and right[1] == one_column(margins[:, 1], np.ones(3), 100.0)


@pytest.mark.parametrize("convention", list(CONVENTIONS))
def test_xor_is_checked_at_every_update(convention: str) -> None:
    data = example("xor")
    trace, result = verify_run(data, convention)
    soft = next(r for r in result.invariants if r.name == "soft-margin-bound")
    assert soft.holds is True and soft.n_checked == trace.n_updates > 0
    assert result.soft_margin is not None and result.soft_margin.n_mistakes == trace.n_mistakes


def test_iris_versicolor_virginica_is_checked_at_every_update() -> None:
    datasets = pytest.importorskip("sklearn.datasets")
    X, y = datasets.load_iris(return_X_y=True)
    keep = y > 0
    data = Dataset([[Fraction(str(v)) for v in row] for row in X[keep]], [1 if t == 2 else -1 for t in y[keep]])
    trace, result = verify_run(data, "classic", max_epochs=300)
    assert trace.stop == "max-epochs"
    soft = next(r for r in result.invariants if r.name == "soft-margin-bound")
    assert soft.holds is True and soft.n_checked == trace.n_updates
    assert result.soft_margin is not None
    lo, hi = result.soft_margin.bound
    assert trace.n_mistakes <= lo <= hi


def _random_labels(n: int = 2000, d: int = 10) -> Dataset:
    rng = np.random.default_rng(7)
    return Dataset(numerators=rng.integers(-1000, 1001, size=(n, d)), denominator=1000,
                   y=rng.choice([-1, 1], size=n).tolist())


def test_random_labels_are_checked_at_every_update_from_the_kept_mistakes(monkeypatch: pytest.MonkeyPatch) -> None:
    data = _random_labels()
    read: list[int] = []
    real = MistakeMap.blocks_of

    def counted_blocks(self, parts):
        read.append(1)
        return real(self, parts)

    monkeypatch.setattr(MistakeMap, "blocks_of", counted_blocks)  # (what the replay reads: check/soft_replay)
    monkeypatch.setattr(pipeline, "MIN_REPLAY_BYTES", 2**18)  # a quarter of the updates' 1 MB, kept compactly
    trace, result = verify_run(data, "classic", max_epochs=100)
    assert trace.n_updates > 10**5 and read  # past the replay budget: the mistake map path
    soft = next(r for r in result.invariants if r.name == "soft-margin-bound")
    assert soft.holds is True and soft.n_checked == trace.n_updates
    assert result.soft_margin is not None
    lo, _ = result.soft_margin.bound
    assert trace.n_mistakes <= lo


@pytest.mark.parametrize("budget, block", [(1024, None), (2**14, None), (1024, 400 * 3)],
                         ids=["past-it-at-once", "past-it-after-some-kept", "in-blocks-of-three-epochs"])
def test_the_mistake_map_path_and_the_kept_updates_path_agree(monkeypatch: pytest.MonkeyPatch, budget: int,
                                                              block: int | None) -> None:
    data = _random_labels(400, 5)
    monkeypatch.setattr(pipeline, "MIN_REPLAY_BYTES", budget)
    if block is not None:  # the kept mistakes reach the soft-margin check a few epochs at a time
        monkeypatch.setattr(mistake_map, "BLOCK_CELLS", block)
    _, by_map = verify_run(data, "classic", max_epochs=40)
    monkeypatch.setattr(pipeline, "MIN_REPLAY_BYTES", 2**30)
    _, by_replay = verify_run(data, "classic", max_epochs=40)
    assert by_map.soft_margin == by_replay.soft_margin
    assert [(r.name, r.holds, r.n_checked) for r in by_map.invariants] == \
        [(r.name, r.holds, r.n_checked) for r in by_replay.invariants]


@pytest.mark.parametrize("budget", [1024, 2**30], ids=["mistake-map", "kept-updates"])
def test_rho_is_chosen_once_exactly_for_a_run_that_did_not_converge(monkeypatch: pytest.MonkeyPatch,
                                                                   budget: int) -> None:
    # best_reference confirms its u by the signs of the exact margins (has_positive_margin); ρ is chosen from them
    # once, by the soft-margin check that takes u (it was chosen in both: 0.1 s each at 10^6 x 10)
    from verify_perceptron.notes import soft_margin as notes

    chosen: list[int] = []
    real = notes.choose_scaled

    def counted(*args: Any, **kwargs: Any) -> Any:
        chosen.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(notes, "choose_scaled", counted)  # (what choose_margin calls, wherever it is imported)
    monkeypatch.setattr(pipeline, "MIN_REPLAY_BYTES", budget)
    trace, result = verify_run(_random_labels(400, 5), "classic", max_epochs=40)
    assert not trace.converged and result.soft_margin is not None
    assert len(chosen) == 1


def test_kept_updates_replayed_in_small_chunks_give_the_same_result(monkeypatch: pytest.MonkeyPatch) -> None:
    data = _random_labels(400, 5)
    trace, whole = verify_run(data, "classic", max_epochs=40)
    monkeypatch.setattr(pipeline, "REPLAY_CHUNK", 100)  # about a hundred chunks instead of one
    again, pieces = verify_run(data, "classic", max_epochs=40)
    assert trace.n_updates > 8_000 and again.n_updates == trace.n_updates
    assert pieces == whole


def test_a_mistake_map_past_its_capacity_says_the_bound_was_not_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "MIN_MAP_BYTES", 64)
    monkeypatch.setattr(pipeline, "MIN_REPLAY_BYTES", 1024)
    data = _random_labels(400, 5)  # 51 bytes an epoch, against the samples' own 4,800 bytes
    _, result = verify_run(data, "classic", max_epochs=200)
    soft = next(r for r in result.invariants if r.name == "soft-margin-bound")
    assert soft.holds is None and "passed the" in (soft.skipped or "")


def test_the_mistake_map_refuses_what_it_cannot_replay() -> None:
    kept = MistakeMap(n_samples=4, capacity=100)
    kept.observe(1, 1, [2], [0])
    kept.observe(2, 1, [1], [0])  # a sample before the last one in the same epoch: not an online pass
    assert not kept.complete
    batch = MistakeMap(n_samples=4, capacity=100)
    batch.observe(1, 1, [0, 1], [0, 0])
    assert not batch.complete


def test_best_reference_prefers_a_visited_direction_to_zero_weights() -> None:
    data = example("xor")
    trace = train(data, "classic")
    assert not any(trace.final_weights)
    reference = best_reference(sample_matrix(data, get_convention("classic")), trace)
    assert reference is not None
    u, source = reference
    assert any(u) and "update" in source


def test_best_reference_measures_a_small_sets_candidates_in_one_block(monkeypatch: pytest.MonkeyPatch) -> None:
    from verify_perceptron.check import soft_reference as check_module
    from verify_perceptron.run import fast

    rng = np.random.default_rng(3)
    data = Dataset(numerators=rng.integers(-50, 50, size=(60, 3)), y=rng.choice([-1, 1], size=60))  # not separable
    matrix = sample_matrix(data, get_convention("classic"))
    trace = fast.run(data, "classic", max_epochs=40)
    assert not trace.converged and trace.n_updates > 40
    calls: list[int] = []

    def counted(margins: Any, *args: Any) -> Any:
        calls.append(margins.shape[1])
        return choose_columns(margins, *args)

    monkeypatch.setattr(check_module, "choose_columns", counted)
    taken = best_reference(matrix, trace)
    assert len(calls) == 1 and calls[0] > 20  # every candidate at once (it was one call each)
    monkeypatch.setattr(check_module, "_MIN_BLOCK_CELLS", 1)  # one column a block: the same u
    assert best_reference(matrix, trace) == taken and len(calls) == 1 + calls[0]


def test_best_reference_measures_blocks_on_two_threads_and_takes_the_same_u(monkeypatch: pytest.MonkeyPatch) -> None:
    # From _THREADS_FROM samples on, the blocks of candidates are measured in two threads (each a column of
    # 10^6 margins sorted at 10^6 x 10): the same figures per block, so the same u as one after the other.
    import threading

    from verify_perceptron.check import soft_reference as check_module
    from verify_perceptron.run import fast

    rng = np.random.default_rng(5)
    data = Dataset(numerators=rng.integers(-50, 50, size=(200, 3)), y=rng.choice([-1, 1], size=200))  # not separable
    matrix = sample_matrix(data, get_convention("classic"))
    trace = fast.run(data, "classic", max_epochs=40)
    threads: list[str] = []
    figures: list[Any] = []

    def watched(margins: Any, *args: Any) -> Any:
        threads.append(threading.current_thread().name)
        figures.append(chosen := choose_columns(margins, *args))
        return chosen

    monkeypatch.setattr(check_module, "choose_columns", watched)
    monkeypatch.setattr(check_module, "_MIN_BLOCK_CELLS", 1)  # one column a block: about 30 blocks
    serial = best_reference(matrix, trace)
    alone = sorted(map(repr, figures))
    assert len(threads) > 20 and set(threads) == {threading.current_thread().name}
    threads.clear()
    figures.clear()
    monkeypatch.setattr(check_module, "_THREADS_FROM", 1)
    assert best_reference(matrix, trace) == serial
    assert sorted(map(repr, figures)) == alone and all(name.startswith("verify_perceptron-reference") for name in threads)


def test_batch_runs_have_no_soft_margin_row() -> None:
    data = example("xor")
    _, result = verify_run(data, "classic", mode="batch")
    assert all(r.name != "soft-margin-bound" for r in result.invariants) and result.soft_margin is None


def test_the_report_shows_the_bound_as_an_enclosure() -> None:
    data = example("xor")
    trace, result = verify_run(data, "hard-limiter")
    report: dict[str, Any] = dict(build_report(data, trace, result))  # read as JSON
    record = report["soft_margin"]
    assert result.soft_margin is not None
    assert Fraction(record["bound"]["lower"]) <= result.soft_margin.bound[0]
    assert Fraction(record["bound"]["upper"]) >= result.soft_margin.bound[1]
    text = render_text(report)
    assert "the mistake bound that needs no separator" in text and record["bound"]["lower"] in text


def test_check_trace_checks_a_run_that_did_not_converge() -> None:
    data = example("xor")
    result = check_trace(data, train(data, "sum-norm"))
    soft = next(r for r in result.invariants if r.name == "soft-margin-bound")
    assert soft.holds is True and soft.n_checked == 4


def test_a_bound_below_the_filter_range_is_decided_in_integers() -> None:
    # ρ so large that √(B/ρ²) is far below 1: the filter stands aside and the integers decide (N = 1 > 2^-400).
    bound = SoftMargin.from_margins([2**200], rho=2**200, R_sq=1, u_sq=1, scale=1)
    for feed in ("chunk", "one"):
        check = SoftMarginCheck(bound, reference=(Fraction(1),), source="test", L=1, M=1)
        if feed == "chunk":
            check.observe_chunk(1, 1, np.zeros(3, dtype=np.int64))
        else:
            for k in range(1, 4):
                check.observe(k, 1, [0])
        result, _ = check.finish()
        assert result.first_violation is not None and result.first_violation.k == 1 and result.n_checked == 3


int64s = st.one_of(st.integers(-50, 50), st.integers(-(2**63), 2**63 - 1), st.sampled_from([-(2**62), 2**31, 2**53]))


@given(margins=st.lists(int64s, min_size=1, max_size=12),
       rho=st.one_of(st.integers(1, 60), st.integers(1, 2**63 - 1), st.integers(2**26, 2**31)),
       counts=st.lists(st.integers(0, 4), min_size=12, max_size=12),
       R_sq=st.one_of(st.integers(1, 100), st.integers(1, 2**1000)))
# where int64 or float64 arithmetic would be wrong: ρ − m past 2^63, d² past 2^53, ρ² past 2^53
@hypothesis.example(margins=[-(2**63), 5], rho=2**62 - 1, counts=[1] * 12, R_sq=4)
@hypothesis.example(margins=[7 - (2**27 + 1), 7], rho=7, counts=[1] * 12, R_sq=4)  # d² rounds in float64
@hypothesis.example(margins=[2**27, 2**27 + 1], rho=2**27 + 1, counts=[1] * 12, R_sq=4)  # ρ² rounds in float64
def test_the_int64_array_paths_of_the_soft_margin_bound_equal_its_python_integer_paths(margins, rho, counts, R_sq):
    array = np.array(margins, dtype=np.int64)
    weights = np.array(counts[:len(margins)], dtype=np.int64)
    assert choose_margin(array, weights, R_sq=R_sq, u_sq=3) == choose_margin(margins, weights.tolist(), R_sq=R_sq, u_sq=3)
    fast, slow = (SoftMargin.from_margins(m, rho=rho, R_sq=R_sq, u_sq=3, scale=7) for m in (array, margins))
    assert fast.deficits_sq.tolist() == slow.deficits_sq.tolist() == [max(0, rho - m) ** 2 for m in margins]
    assert fast.true(7, 1) == slow.true(7, 1)
    as_objects = SoftMargin(rho, R_sq, 3, slow.deficits_sq.astype(object), 7)  # the loops' own paths
    assert fast.true(7, 1) == as_objects.true(7, 1)
    fast_check, slow_check = (SoftMarginCheck(b, reference=(Fraction(1),), source="test", L=7, M=1)
                              for b in (fast, as_objects))
    assert fast_check._sq_over_rho.tolist() == slow_check._sq_over_rho.tolist()  # each d²/ρ² rounded once
    assert slow_check._sq_over_rho.tolist() == [max(0, rho - m) ** 2 / rho**2 for m in margins]  # as int / int


# --- the choice of ρ at any magnitude: floats choose, they never decide whether there is a choice -----------------

@given(mantissas=st.lists(st.integers(-9, 9), min_size=1, max_size=8), exponents=st.data(),
       root_bits=st.sampled_from([1, 60, 1100, 4000]))
@hypothesis.example(mantissas=[1, -1], exponents=None, root_bits=4000)  # 1 beside √B = 2^4000: 0 in floats
def test_choose_margin_finds_a_positive_margin_whenever_there_is_one(mantissas, exponents, root_bits) -> None:
    # margins m·2^e of any size below √B: the floats see some of them as 0 (or infinite), the choice never fails
    shifts = [0] * len(mantissas) if exponents is None else exponents.draw(
        st.lists(st.integers(0, root_bits - 1), min_size=len(mantissas), max_size=len(mantissas)))
    margins = [m << e for m, e in zip(mantissas, shifts)]
    chosen = choose_margin(margins, [1] * len(margins), R_sq=2 ** (2 * root_bits), u_sq=1)
    if not any(m > 0 for m in margins):
        assert chosen is None
    else:
        assert chosen is not None and chosen[0] > 0 and chosen[0] in margins and math.isfinite(chosen[1])


def test_choose_margin_takes_an_exact_margin_when_floats_see_none() -> None:
    # the 1e-145 data: margins of 2 beside √B of about 2^482 are 0 in floats scaled to 2^480
    for margins, counts, R_sq, u_sq, rho in [
        ([2, 2], [1, 1], 4 * 10**290 + 4, 4, 2),
        (np.array([3, -5], dtype=np.int64), np.ones(2), 2**4000, 1, 3),
        ([-(2**3000), 1, 7], [1, 1, 1], 2**6002, 1, 7),  # the largest, exactly
    ]:
        chosen = choose_margin(margins, counts, R_sq=R_sq, u_sq=u_sq)
        assert chosen is not None and chosen[0] == rho


@pytest.mark.parametrize("rows, epochs, verdict", [
    ([("1e-145", 1), ("-1e-145", -1)], None, "verified"),
    ([("3e151", 1), ("2e33", -1)], 50, "stopped-separable"),
], ids=["tiny", "wide-range"])
def test_separable_data_at_extreme_magnitudes_are_verified(tmp_path, capsys, rows, epochs, verdict) -> None:
    import json

    from verify_perceptron.cli import main

    path = tmp_path / "data.csv"
    path.write_text("".join(f"{x},{y}\n" for x, y in rows))
    argv = ["verify", str(path)] + ([] if epochs is None else ["--max-epochs", str(epochs)])
    assert main(argv + ["--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["verdict"] == verdict and report["separable"] is True
    soft = next(i for i in report["invariants"] if i["name"] == "soft-margin-bound")
    assert soft["holds"] is True and soft["n_checked"] == report["n_updates"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "no convergence" not in text and "(exit code 0)" in text.splitlines()[-1]


def test_a_binary_float_at_the_bottom_of_its_range_is_verified_through_the_api() -> None:
    import verify_perceptron as vp

    result = vp.verify([[5e-324], [-5e-324]], [1, -1])
    assert result.verdict == "verified" and result.report["converged"] and result.report["exit_code"] == 0
    soft = next(i for i in result.report["invariants"] if i["name"] == "soft-margin-bound")
    assert soft["holds"] is True


def test_a_soft_margin_bound_left_unchecked_does_not_change_the_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    # whatever keeps the extra bound from being checked, a converged run whose claims all held is verified
    import verify_perceptron.check.checker as checker_module

    monkeypatch.setattr(checker_module, "soft_margin_check", lambda *args, **kwargs: "no u today")
    data = example("and")
    trace, result = verify_run(data, "classic")
    soft = next(r for r in result.invariants if r.name == "soft-margin-bound")
    assert soft.holds is None and soft.skipped == "no u today"
    assert result.complete and build_report(data, trace, result)["verdict"] == "verified"


def test_the_report_calls_the_bound_irrational_only_when_it_is() -> None:
    # Two equal samples with opposite labels: ρ = 2, R² = ‖u‖² = 2, D² = 16, so ((√2·√2 + 4)/2)² = 9 exactly.
    from verify_perceptron.report.record import build_report
    from verify_perceptron.report.text import render_text

    def _report(data: Dataset) -> dict:
        return dict(build_report(data, *pipeline.verify_run(data)))

    report = _report(Dataset([[Fraction(1)], [Fraction(1)]], [1, -1]))
    assert report["soft_margin"]["bound_exact"] == "9"
    text = render_text(report)
    assert "((R·‖u‖ + D)/ρ)² = 9 (exact" in text and "irrational" not in text
    and_report = _report(example("and"))  # D² = 119, R²·‖u‖² = 87: (√87 + √119)² is irrational
    assert and_report["soft_margin"]["bound_exact"] is None
    assert "it is irrational" in render_text(and_report)


@given(values=st.lists(st.one_of(st.integers(-(2**70), 2**70), st.integers(-(2**3000), 2**3000),
                                 st.sampled_from([0, 2**53 + 1, -(2**64) - 1, 2**1100 - 1])), min_size=1, max_size=8),
       shift=st.one_of(st.integers(0, 3100), st.sampled_from([1074, 1075, 4100])))
@hypothesis.example(values=[2**64 + 2**11 + 2], shift=0)  # its leading 64 bits round up, 63 of them to even (down)
def test_relative_floats_of_python_integers_are_each_values_own(values: list[int], shift: int) -> None:
    # the array path (_relative_ints) against the per-value one, bit for bit (zeros' signs and infinities too),
    # where the per-value one answers (it raises past float64's range, which choose_margin never asks for)
    try:
        expected = [soft_module._relative(v, shift) for v in values]
    except OverflowError:
        hypothesis.assume(False)
    got = soft_module.relative_floats(values, shift).tolist()
    assert [(x, math.copysign(1.0, x)) for x in got] == [(x, math.copysign(1.0, x)) for x in expected]


@given(st.lists(st.integers(0, 2**3000), min_size=1, max_size=12), st.data())
def test_shortfall_sums_by_counts_are_the_sums_update_by_update(values, data):
    from verify_perceptron.check.soft_margin import counted_sums, prefix_sums

    per_sample = np.array(values, dtype=object)
    rows = np.array(data.draw(st.lists(st.integers(0, len(values) - 1), min_size=1, max_size=40)), dtype=np.int64)
    at = data.draw(st.lists(st.integers(0, len(rows) - 1), min_size=1, max_size=6))
    running = np.cumsum(per_sample[rows]).tolist()
    assert counted_sums(per_sample, rows, at) == {t: running[t] for t in at} == prefix_sums(per_sample[rows], at)


def test_a_chunk_of_wide_shortfalls_is_summed_by_counts_with_the_same_report(monkeypatch: pytest.MonkeyPatch):
    # wine (0 against the rest) at 1,000 epochs, checked against its certified max-margin separator: shortfalls
    # of thousands of bits, past the 46-bit pieces' reach, over a chunk of 3,894 updates on 178 samples are summed
    # by counts (`counted_sums`), and the report is the one of adding each update's shortfall (`prefix_sums`)
    datasets = pytest.importorskip("sklearn.datasets")
    import verify_perceptron.check.soft_margin as soft
    from verify_perceptron import ExactPerceptron

    X, y = datasets.load_wine(return_X_y=True)
    used: list[int] = []
    counted = soft.counted_sums

    def spy(per_sample: Any, rows: Any, at: Any) -> dict[int, int]:
        used.append(len(rows))
        return counted(per_sample, rows, at)

    reports = []
    for by_counts in (True, False):
        monkeypatch.setattr(soft, "counted_sums", spy if by_counts else (lambda v, r, at: soft.prefix_sums(v[r], at)))
        with pytest.warns(UserWarning):  # (the ConvergenceWarning of a run stopped at max_epochs)
            verification = ExactPerceptron().fit(X, y == 0).verification_
        assert verification is not None
        reports.append(verification.json)
    assert used and reports[0] == reports[1]


@given(st.lists(st.integers(0, 5), min_size=1, max_size=60), st.data())
def test_shortfall_sums_in_pieces_at_any_points_are_the_prefix_sums(rows: list[int], data: st.DataObject) -> None:
    # SoftMarginCheck._exact sums the pieces between the points asked for: the last point need not be the chunk's end
    scale = 2**100
    margins = [scale * m for m in (3, 2, 0, -2, 6, -2)]
    bound = SoftMargin.from_margins(margins, rho=3 * scale, R_sq=2 * scale**2, u_sq=1, scale=1)
    check = SoftMarginCheck(bound, reference=(Fraction(1),), source="test", L=1, M=1)
    check.N, check.D_sq = len(margins), 7  # past n mistakes: the pieces are used
    at = data.draw(st.lists(st.integers(0, len(rows) - 1), max_size=4))
    exact = check._exact(np.array(rows), at)
    assert check._pieces is not None and exact == {t: 7 + sum(int(bound.deficits_sq[j]) for j in rows[:t + 1])
                                                   for t in at}


@pytest.mark.parametrize("block", [1, 3, 64, 2**16])
def test_the_sums_below_each_candidate_a_block_at_a_time_are_the_whole_cumulative_sums(
        monkeypatch: pytest.MonkeyPatch, block: int) -> None:
    # `_one_column` read three cumulative sums of n terms at the candidates only; they are now made a block of terms
    # at a time: the same floats bit for bit (NaN, infinities, zeros of both signs, sums that lose low bits)
    monkeypatch.setattr(soft_module, "_BLOCK", block)
    rng = np.random.default_rng(block)
    m = np.sort(np.concatenate([rng.normal(size=300) * 10.0 ** rng.integers(-200, 200, 300),
                                [0.0, -0.0, np.inf, -np.inf, 1e308, 1e-320]]))
    m = np.concatenate([m, [np.nan]])
    w = rng.integers(0, 4, len(m)).astype(np.float64)
    below = np.sort(rng.integers(0, len(m) + 1, 50))
    with np.errstate(over="ignore", invalid="ignore"):
        expected = [np.concatenate(([0.0], np.cumsum(w * m**p)))[below] for p in range(3)]
        got = soft_module._sums_below(m, w, below)
    assert [row.view(np.int64).tolist() for row in got] == [row.view(np.int64).tolist() for row in expected]
    assert soft_module._sums_below(m[:0], w[:0], np.zeros(2, dtype=np.int64)).tolist() == [[0.0, 0.0]] * 3
