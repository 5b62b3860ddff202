"""The fast engine's kept updates on rows held in limbs (issue 32, branch smallfit13): a compiled chunk's kept
rows are its samples' indices, their Python integers made only when a kept update's weights are read (most runs
never read them: wine 0 vs rest raw made 3,894 rows of 14 Python integers for nothing, 12% of its fit); the
weights read are the reference engine's."""

from __future__ import annotations

import numpy as np
import pytest

from verify_perceptron.check.separator import scaled_separator
from verify_perceptron.data.dataset import from_arrays
from verify_perceptron.data.trace import LazyUpdates
from verify_perceptron.run import fast, reference
from verify_perceptron.run._kept import Segment


def _segments(updates: LazyUpdates) -> list[Segment]:
    return [part[4] for part in getattr(updates._records, "parts") if len(part) == 5]


@pytest.mark.parametrize("seed", range(3))
def test_a_limb_run_s_kept_rows_are_indices_until_a_weight_is_read(seed: int) -> None:
    rng = np.random.default_rng(seed)
    X = rng.integers(-50, 50, (40, 3)).astype(object) * 2**70  # past int64: the samples held in limbs, the run in limbs
    data = from_arrays(X, rng.choice([-1, 1], 40))
    updates = fast.run(data, "classic", max_epochs=60, keep_updates=10**9).updates
    fresh = reference.train(data, "classic", max_epochs=60).updates
    assert isinstance(updates, LazyUpdates)
    segments = _segments(updates)
    assert segments and all(s.read is not None for s in segments)
    for segment, part in zip(segments, (p for p in getattr(updates._records, "parts") if len(p) == 5)):
        assert segment.rows.dtype == np.int64 and segment.rows.ndim == 1  # indices, no Python integer yet
        assert segment.rows is part[2]  # the record's own rows, shared
    at = [*range(len(updates) - 1, -1, -5), 0]
    assert [updates.scaled_weights(i) for i in at] == [scaled_separator(fresh[i].weights)[0] for i in at]
    assert [updates[i].weights for i in at] == [fresh[i].weights for i in at]
    assert any(s._weights is not None for s in segments)


def test_a_segment_reads_its_rows_once_and_sums_them_from_its_start() -> None:
    calls: list[list[int]] = []
    table = np.array([[2**70, -1], [3, 2**65], [-(2**70), 5]], dtype=object)

    def read(rows: np.ndarray) -> np.ndarray:
        calls.append(rows.tolist())
        return table[rows]

    segment = Segment(np.array([1, 1], dtype=object), np.array([2, 0, 1]), read)
    assert calls == []
    assert segment.weights().tolist() == [[1 - 2**70, 6], [1, 5], [4, 5 + 2**65]]
    assert segment.weights().tolist() == [[1 - 2**70, 6], [1, 5], [4, 5 + 2**65]] and calls == [[2, 0, 1]]
