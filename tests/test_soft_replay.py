"""The soft-margin check told of a run's kept mistakes in two halves (check/soft_replay.py) is the one pass's."""

from __future__ import annotations

import threading
import time
from typing import Any

import numpy as np
import pytest

from verify_perceptron.check import mistake_map, soft_replay
from verify_perceptron.check.mistake_map import MistakeMap
from verify_perceptron.check.soft_margin import SoftMarginCheck
from verify_perceptron.check.soft_replay import replay_kept
from verify_perceptron.notes.soft_margin import SoftMargin


def _kept(seed: int, n: int, epochs: int, rate: float) -> MistakeMap:
    """A run's mistakes: in each epoch a random set of samples, in order."""
    rng = np.random.default_rng(seed)
    kept = MistakeMap(n_samples=n, capacity=10**7)
    first = 1
    for epoch in range(1, epochs + 1):
        rows = np.flatnonzero(rng.random(n) < rate)
        kept.observe_chunk(first, epoch, rows, None)
        first += len(rows)
    return kept


def _check(seed: int, n: int, *, big: bool, rho: int) -> SoftMarginCheck:
    """A check whose bound fails now and then (a small ρ against many mistakes); past int64 with `big`."""
    rng = np.random.default_rng(seed)
    scale = 2**40 if big else 1
    margins = [int(m) * scale for m in rng.integers(-5, 60, n)]
    bound = SoftMargin.from_margins(margins, rho=rho * scale, R_sq=3600 * scale, u_sq=scale, scale=1)
    return SoftMarginCheck(bound, reference=(), source="test", L=1, M=1, consume=True)


def _state(check: SoftMarginCheck) -> Any:
    result, summary = check.finish()
    return (check.N, check.D_sq, check.tightest, result.holds, result.n_checked, result.first_violation,
            summary.tightest_at, summary.D_sq, summary.pass_D_sq, summary.short_samples)


@pytest.mark.parametrize("big", [False, True])
@pytest.mark.parametrize("rho", [1, 40])  # ρ = 40: violations from the start (both halves); ρ = 1: none
def test_two_halves_give_the_one_pass_s_every_figure(monkeypatch: pytest.MonkeyPatch, big: bool, rho: int) -> None:
    monkeypatch.setattr(mistake_map, "BLOCK_CELLS", 400)  # two epochs a part: the halves meet between parts
    for seed in (1, 2):
        kept = _kept(seed, 200, 30, 0.3)
        one = _check(seed, 200, big=big, rho=rho)
        replay_kept(one, kept)
        monkeypatch.setattr(soft_replay, "HALVES_FROM", 1)
        two = _check(seed, 200, big=big, rho=rho)
        halves: list[int] = []
        resumed = SoftMarginCheck.start_at

        def noted(check: SoftMarginCheck, N: int, D_sq: int) -> None:
            halves.append(N)
            resumed(check, N, D_sq)

        monkeypatch.setattr(SoftMarginCheck, "start_at", noted)
        replay_kept(two, kept)
        monkeypatch.undo()
        monkeypatch.setattr(mistake_map, "BLOCK_CELLS", 400)
        assert len(halves) == 1 and 0 < halves[0] < one.N  # it was cut in two
        assert _state(two) == _state(one)
        assert (one.result.holds is False) == (rho == 40)


def test_the_halves_must_meet() -> None:
    # The second half starts from D² summed from the first half's counts; the join confirms the first half ended
    # there. A wrong start (here one shortfall too many) is an internal error, never a quiet wrong D².
    kept = _kept(3, 100, 4, 0.5)
    check = _check(3, 100, big=True, rho=40)
    later = check.resumed()
    parts = kept.parts()
    counts, told = kept.counts(parts[:2])
    later.start_at(told, check.shortfall_sum(counts) + 1)
    soft_replay._tell(check, 1, kept, parts[:2])
    with pytest.raises(AssertionError, match="do not meet"):
        check.join(later)


@pytest.mark.parametrize("big", [False, True])
def test_the_shortfall_sum_is_exact(big: bool) -> None:
    check = _check(4, 3000, big=big, rho=40)
    squares = [int(v) for v in check.bound.deficits_sq]
    rng = np.random.default_rng(4)
    for most in (1, 100, 2**20):  # 2^20: counts past 2^16, whose products are made as Python integers
        counts = rng.integers(0, most + 1, 3000)
        assert check.shortfall_sum(counts) == sum(int(c) * s for c, s in zip(counts, squares))


@pytest.mark.parametrize("big", [False, True])
def test_the_shortfall_sum_by_blocks_of_samples_and_small_counts_is_exact(monkeypatch: pytest.MonkeyPatch,
                                                                         big: bool) -> None:
    # The products are made a block of samples at a time (blocks of 256 here: 12 of them, the last one short), and
    # the counts may come in uint16 (the replay's): the same exact sum as the integers give
    from verify_perceptron.check import soft_margin

    monkeypatch.setattr(soft_margin, "_CHUNK", 256)
    check = _check(7, 3000, big=big, rho=40)
    squares = [int(v) for v in check.bound.deficits_sq]
    counts = np.random.default_rng(7).integers(0, 300, 3000)
    expected = sum(int(c) * s for c, s in zip(counts, squares))
    assert check.shortfall_sum(counts.astype(np.uint16)) == check.shortfall_sum(counts) == expected


def test_the_second_half_starts_from_counts_past_a_byte(monkeypatch: pytest.MonkeyPatch) -> None:
    # 600 epochs in the first half, sample 0 wrong in every one: its count (600) needs more than a byte; the second
    # half starts where the first ends (the join checks it), and the counts it read are let go small (uint16)
    monkeypatch.setattr(mistake_map, "BLOCK_CELLS", 400)
    monkeypatch.setattr(soft_replay, "HALVES_FROM", 1)
    kept = MistakeMap(n_samples=4, capacity=10**6)
    for epoch in range(1, 1201):
        kept.observe_chunk(2 * epoch - 1, epoch, np.array([0, 1 + epoch % 3]), None)
    types: list[Any] = []
    counted = MistakeMap.counts

    def spy(self: MistakeMap, parts: Any, out: Any = None) -> Any:
        types.append(None if out is None else out.dtype)
        return counted(self, parts, out)

    monkeypatch.setattr(MistakeMap, "counts", spy)
    bound = SoftMargin.from_margins([-2**40, 3, 7, 1], rho=5 * 2**30, R_sq=2**70, u_sq=1, scale=1)
    two = SoftMarginCheck(bound, reference=(), source="test", L=1, M=1)
    replay_kept(two, kept)
    monkeypatch.setattr(soft_replay, "HALVES_FROM", 2**40)
    one = SoftMarginCheck(bound, reference=(), source="test", L=1, M=1)
    replay_kept(one, kept)
    assert types == [np.uint16] and _state(two) == _state(one) and one.N == 2400


def test_each_part_s_size_is_its_mistakes() -> None:
    kept = _kept(5, 300, 9, 0.4)
    parts = kept.parts()
    assert kept.sizes(parts) == [kept.counts([part])[1] for part in parts]
    assert sum(kept.sizes(parts)) == len(kept.mistakes()[1])


def test_an_error_in_the_first_half_stops_the_second(monkeypatch: pytest.MonkeyPatch) -> None:
    # The time limit (or any error) in this thread ends the replay at once: the second thread stops at its next
    # block rather than replaying its whole half before the error is seen.
    monkeypatch.setattr(mistake_map, "BLOCK_CELLS", 200)  # an epoch a part
    monkeypatch.setattr(soft_replay, "HALVES_FROM", 1)
    kept = _kept(6, 200, 40, 0.3)
    told: list[int] = []
    real = SoftMarginCheck.observe_chunk
    second_started = threading.Event()

    def slow(check: SoftMarginCheck, first: int, epochs: Any, rows: Any) -> None:
        told.append(first)
        if check.result.n_checked == 0 and first == 1:
            second_started.wait(10)  # the second thread is on its half (not a sleep: the machine may be loaded)
            raise TimeoutError("time is up")
        second_started.set()
        time.sleep(0.05)  # 20 blocks of the second half: a second in all, if nothing stopped it
        real(check, first, epochs, rows)

    monkeypatch.setattr(SoftMarginCheck, "observe_chunk", slow)
    with pytest.raises(TimeoutError):
        replay_kept(_check(6, 200, big=False, rho=1), kept)
    assert 1 < len(told) < 15  # the second half (20 epochs) stopped within a block or two
