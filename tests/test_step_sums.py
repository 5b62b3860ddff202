"""The whole-run record's sums of 2·s + ‖z‖² at its points in C (`check/_chunk_sums.step_sums`) are
`prefix_sums`' over Python integers, with limbs at their edges (carries through every limb, negative scores),
and the record's int64 path takes them."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verify_perceptron.check import _chunk_sums, whole_run
from verify_perceptron.data import kernel as _data_kernel
from verify_perceptron.data.limb_arrays import int_limbs

pytestmark = pytest.mark.skipif(_data_kernel.gathered_sums is None, reason="the C limb sums are not built")
EDGES = [0, 1, -1, 2**63 - 1, -(2**63), 2**64 - 1]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), m=st.integers(1, 300), L=st.integers(1, 4), K=st.integers(1, 3))
def test_step_sums_are_the_python_integers_prefix_sums(seed, m, L, K) -> None:
    rng = random.Random(seed)
    n = rng.randint(1, 20)

    def value(bits: int, signed: bool) -> int:
        v = rng.choice([rng.getrandbits(bits), 2**bits - 1, 2**(bits - 1), 1, 0])
        return -v if signed and rng.random() < 0.7 else v

    scores = [value(64 * L - 1, True) for _ in range(m)]
    norms = [value(64 * K - 1, False) for _ in range(n)]
    rows = np.array([rng.randrange(n) for _ in range(m)], dtype=np.int64)
    points = sorted(rng.sample(range(m), rng.randint(1, m)))
    got = _chunk_sums.step_sums(int_limbs(scores, L), rows, int_limbs(norms, K), points)
    expected = _chunk_sums.prefix_sums(points, (np.array(scores, dtype=object), 2),
                                       (np.array([norms[i] for i in rows], dtype=object), 1))
    assert got == expected


def test_limbs_at_their_edges_carry() -> None:
    scores = [sum(e << (64 * k) for k, e in enumerate((a, b))) for a in EDGES for b in EDGES]
    scores = [s for s in scores if -(2**127) <= s < 2**127]
    norms = [2**127 - 1, 0, 2**64]
    rows = np.arange(len(scores), dtype=np.int64) % 3
    points = list(range(len(scores)))
    got = _chunk_sums.step_sums(int_limbs(scores, 2), rows, int_limbs(norms, 3), points)
    running, expected = 0, []
    for s, i in zip(scores, rows.tolist()):
        running += 2 * s + norms[i]
        expected.append(running)
    assert got == expected


def test_the_records_int64_path_sums_in_c(monkeypatch) -> None:
    """A chunk against a separator read by `_numpy_pieces` takes `step_sums` (and gives the general path's points:
    `test_whole_run` and `test_small_fits` compare them)."""
    calls = []
    original = _chunk_sums.step_sums

    def counted(*args):
        calls.append(len(args[3]))
        return original(*args)

    monkeypatch.setattr(whole_run, "step_sums", counted)
    from verify_perceptron.check.checker import Checker
    from verify_perceptron.data.examples import example

    checker = Checker(example("and"), "classic", rate=1, mode="online", separator=[-4, 3, 2])
    record = whole_run.WholeRun(checker)
    assert record._monotone_chunk(1, np.array([0, 0], dtype=np.int64), np.array([0, -3], dtype=np.int64))
    assert calls and record.q == int(checker.matrix.norm_rows()[0]) * 2 - 6
