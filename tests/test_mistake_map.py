"""The mistake map (verify_perceptron.check.mistake_map): what it keeps is the run's mistakes, in order."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import pytest

from verify_perceptron.check import kernel as _kernel, mistake_map
from verify_perceptron.check.mistake_map import MistakeMap


@st.composite
def online_runs(draw):
    """(n, epochs, rows, cuts): an online run's mistakes and where its chunks end."""
    n = draw(st.integers(1, 40))
    epochs, rows = [], []
    for epoch in range(1, draw(st.integers(1, 12)) + 1):
        if draw(st.booleans()):
            for row in sorted(draw(st.sets(st.integers(0, n - 1), min_size=1))):
                epochs.append(epoch)
                rows.append(row)
    cuts = sorted(draw(st.sets(st.integers(1, max(len(rows), 1)))))
    return n, epochs, rows, cuts


@given(online_runs(), st.sampled_from(["chunks", "one by one"]))
def test_the_map_gives_back_every_mistake_in_order(run, how):
    n, epochs, rows, cuts = run
    kept = MistakeMap(n, capacity=10**6)
    if how == "chunks":
        for lo, hi in zip([0] + cuts, cuts + [len(rows)]):
            kept.observe_chunk(lo + 1, np.array(epochs[lo:hi], dtype=np.int64), np.array(rows[lo:hi]), None)
    else:
        for k, (epoch, row) in enumerate(zip(epochs, rows), 1):
            kept.observe(k, epoch, [row], [0])
    assert kept.complete
    got_epochs, got_rows = kept.mistakes()
    assert got_epochs.tolist() == epochs and got_rows.tolist() == rows
    assert [r for _, _, part in kept.chunks() for r in part.tolist()] == rows


@given(online_runs(), st.data())
def test_a_mistake_out_of_order_empties_the_map(run, data):
    n, epochs, rows, _ = run
    if len(rows) < 2:
        return
    i = data.draw(st.integers(1, len(rows) - 1))
    rows, epochs = rows[:i] + [rows[i - 1]] + rows[i:], epochs[:i] + [epochs[i - 1]] + epochs[i:]  # a repeat
    kept = MistakeMap(n, capacity=10**6)
    kept.observe_chunk(1, np.array(epochs, dtype=np.int64), np.array(rows), None)
    assert not kept.complete and kept.mistakes()[1].tolist() == []


def test_past_its_capacity_the_map_keeps_nothing():
    kept = MistakeMap(16, capacity=3 * 3)  # 3 bytes an epoch: room for two epochs and the spare
    kept.observe_chunk(1, np.array([1, 2]), np.array([0, 1]), None)
    assert kept.complete
    kept.observe_chunk(3, np.array([3]), np.array([0]), None)
    assert not kept.complete


def _numpy_blocks(kept: MistakeMap, monkeypatch: pytest.MonkeyPatch) -> list[tuple[list[int], list[int]]]:
    with monkeypatch.context() as patched:
        patched.setattr(_kernel, "bit_rows", None)
        return [(e.tolist(), r.tolist()) for e, r in kept.blocks()]


@pytest.mark.skipif(_kernel.bit_rows is None, reason="the compiled replay was not built")
@pytest.mark.parametrize("n", [1, 7, 8, 9, 64, 1001])
def test_the_compiled_unpacking_gives_numpy_s_blocks(n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(n)
    kept = MistakeMap(n_samples=n, capacity=10**6)
    monkeypatch.setattr(mistake_map, "BLOCK_CELLS", 3 * n + 5)  # several blocks of epochs, some of one epoch
    first = 1
    for epoch in range(1, 12):
        rows = np.flatnonzero(rng.random(n) < (0.0 if epoch == 4 else 0.5 if epoch < 9 else 1.0))
        kept.observe_chunk(first, epoch, rows, None)
        first += len(rows)
    calls: list[int] = []
    bit_rows = _kernel.bit_rows
    assert bit_rows is not None

    def counted(*args: Any) -> Any:
        calls.append(1)
        return bit_rows(*args)

    monkeypatch.setattr(_kernel, "bit_rows", counted)
    compiled = [(e.tolist(), r.tolist()) for e, r in kept.blocks()]
    assert calls  # (the compiled pass was taken)
    assert compiled == _numpy_blocks(kept, monkeypatch) and len(compiled) >= 3
    assert sum(len(r) for _, r in compiled) == first - 1


@pytest.mark.skipif(_kernel.bit_rows is None, reason="the compiled replay was not built")
def test_the_compiled_unpacking_reads_no_bit_past_n_and_refuses_bad_input() -> None:
    bit_rows = _kernel.bit_rows
    assert bit_rows is not None
    bits = np.array([[0b10100111], [0b00000001]], dtype=np.uint8)  # n = 3: samples 0 and 2; the rest padding
    epochs, rows = np.empty(4, dtype=np.int64), np.empty(4, dtype=np.int64)
    found = bit_rows(bits, np.array([5, 6], dtype=np.int64), 3, epochs, rows)
    assert (found, epochs[:found].tolist(), rows[:found].tolist()) == (2, [5, 5], [0, 2])
    with pytest.raises(ValueError, match="more than cap=1 bits"):
        bit_rows(bits, np.array([5, 6], dtype=np.int64), 3, epochs[:1], rows[:1])
    with pytest.raises(ValueError, match="do not agree with n=9"):
        bit_rows(bits, np.array([5, 6], dtype=np.int64), 9, epochs, rows)
    with pytest.raises(ValueError, match="do not agree"):
        bit_rows(bits, np.array([5], dtype=np.int64), 3, epochs, rows)
