"""The mistake map (verify_perceptron.check.mistake_map): what it keeps is the run's mistakes, in order."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

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
