"""The floating-point filter for the sign (verify_perceptron.run.filter): its bound, and the passes that use it.

The data sit at the filter's threshold: integer rows and weights of about
2^45 whose exact scores are -1, 0 or 1, so that the float64 score is off by
far more than 1 and its sign is a coin toss. The filter must send every one
of them to the exact path; with its radius set to 0 (a filter that trusts
the float) the same tests must fail, which shows that they reach it.
"""

from __future__ import annotations

import math
from typing import Any
import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from verify_perceptron.data.dataset import Dataset
from verify_perceptron.data.integers import ExactMatrix
from verify_perceptron.run import fast
from verify_perceptron.run import filter as flt
from verify_perceptron.run import kernel as _kernel
from verify_perceptron.run.reference import train

U = Fraction(1, 2**53)


@given(st.integers(0, 2**126))
def test_norm_above_is_an_upper_bound_on_the_square_root(x):
    bound = Fraction(float(flt.norm_above(x)))
    assert bound * bound >= x


@given(st.integers(0, 2**40))
def test_the_factor_is_a_power_of_two_at_least_four_m_u(d):
    K = flt.factor(d)
    assert Fraction(K) >= 4 * (d + 5) * U and math.frexp(K)[0] == 0.5


def near_threshold_for(rng: random.Random, W: list[int], bits: int = 45) -> tuple[list[int], int]:
    """(z, s): a row of entries near 2^bits whose exact score z·W is s, one of -1, 0, 1 (W_0 odd, W_1 = W_0 + 2)."""
    s = rng.choice([-1, 0, 1])
    rest = [rng.randrange(-2**bits, 2**bits) for _ in range(len(W) - 2)]
    target = s - sum(a * b for a, b in zip(rest, W[2:]))
    z0 = pow(W[0], -1, W[1]) * target % W[1]  # gcd(W_0, W_1) = 1
    z1 = (target - z0 * W[0]) // W[1]
    k = (z0 // W[1] + z1 // W[0]) // 2  # z0 - k·W_1, z1 + k·W_0: the same score, entries of like size
    z = [z0 - k * W[1], z1 + k * W[0]] + rest
    assert sum(a * b for a, b in zip(z, W)) == s
    return z, s


def weights_near(rng: random.Random, d: int, bits: int = 45) -> list[int]:
    W = [rng.randrange(2**bits, 2**(bits + 1)) | 1 for _ in range(d)]
    W[1] = W[0] + 2
    return W


def near_threshold(rng: random.Random, d: int) -> tuple[list[int], list[int], int]:
    """(z, W, s): integer vectors of about 2^45 whose exact score z·W is s, one of -1, 0, 1."""
    W = weights_near(rng, d)
    z, s = near_threshold_for(rng, W)
    return z, W, s


def float_score(z: list[int], W: list[int]) -> float:
    return float(np.dot(np.array(z, dtype=np.float64), np.array(W, dtype=np.float64)))


@pytest.mark.parametrize("d", [2, 3, 8, 30])
def test_the_bound_holds_where_the_float_score_is_wrong(d):
    rng = random.Random(d)
    wrong_sign = 0
    for _ in range(200):
        z, W, s = near_threshold(rng, d)
        approx = float_score(z, W)
        threshold = float(flt.radii(np.array([sum(v * v for v in z)], dtype=object), d)[0]) * float(
            flt.norm_above(sum(v * v for v in W)))
        assert abs(Fraction(approx) - s) <= Fraction(threshold)  # the a-priori bound, exactly
        assert not approx > threshold  # never a proof of a positive sign here
        wrong_sign += (approx > 0) != (s > 0)
    assert wrong_sign > 20  # the data do sit where the float sign cannot be trusted


def one_row_pass(z: list[int], W: list[int], *, radius_scale: float = 1.0, dtype: Any = np.int64,
                 own_rows: bool = False) -> int:
    """How many mistakes the C pass, given the filter, makes on the one row z (of `dtype`) from weights W (0 or
    1); with `own_rows` the filter reads the row itself as floats (Zf None) rather than a float64 copy."""
    Z = np.array([z], dtype=dtype)
    weights = np.array(W, dtype=np.int64)
    norms = np.array([sum(v * v for v in z)], dtype=object)
    filter_arrays = (None if own_rows else Z.astype(np.float64), flt.radii(norms, len(z)) * radius_scale)
    out = np.zeros(1, dtype=np.int64)
    assert _kernel.online_pass is not None  # needs_kernel: the C kernel imported
    m, *_ = _kernel.online_pass(Z, weights, np.ones(1, dtype=bool), np.zeros(0, dtype=np.int64),
                                np.zeros(1, dtype=np.int64), out, np.zeros(2, dtype=np.int64), 0,
                                sum(v * v for v in W), 2**126 - 1,
                                (np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int64),
                                 np.zeros(0, dtype=np.int64), 1, 0, 1, 1, 1, 1), filter_arrays)
    return m


needs_kernel = pytest.mark.skipif(not _kernel.AVAILABLE, reason="the C kernel is not built")


@needs_kernel
@pytest.mark.parametrize("d", [2, 3, 4, 5, 7, 8, 9, 12, 30])  # the C float score's tails and both vector sums
def test_the_compiled_pass_decides_every_row_at_the_threshold_exactly(d):
    rng = random.Random(7 + d)
    cases = [near_threshold(rng, d) for _ in range(300)]
    assert [one_row_pass(z, W) for z, W, _ in cases] == [int(s <= 0) for _, _, s in cases]  # a tie is a mistake
    # A filter that trusted the float score (radius 0) passes over mistakes: these rows reach the filter.
    assert [one_row_pass(z, W, radius_scale=0.0) for z, W, _ in cases] != [int(s <= 0) for _, _, s in cases]


def narrow_near_threshold(rng: random.Random, d: int) -> tuple[list[int], list[int], int]:
    """(z, W, s): a row of int32 entries (about 2^26, the last 1) and int64 weights (about 2^33, the last what
    makes the exact score z·W equal s, one of -1, 0, 1): terms of about 2^59, far past the float's last bit."""
    while True:
        s = rng.choice([-1, 0, 1])
        z = [rng.randrange(-2**26, 2**26) for _ in range(d - 1)] + [1]
        W = [rng.randrange(-2**33, 2**33) for _ in range(d - 1)]
        W.append(s - sum(a * b for a, b in zip(z, W)))
        if abs(W[-1]) < 2**62:
            return z, W, s


@needs_kernel
@pytest.mark.parametrize("d", [2, 3, 4, 5, 7, 8, 9, 12, 30])
def test_the_compiled_pass_reads_narrow_rows_as_floats_itself_and_decides_every_row_exactly(d):
    # Zf None: the pass converts each int32 entry as it reads it (exactly) instead of reading a float64 copy
    # of the rows (as large as their int64 array); the same decisions, every one exact.
    rng = random.Random(70 + d)
    cases = [narrow_near_threshold(rng, d) for _ in range(300)]
    exact = [int(s <= 0) for _, _, s in cases]
    assert [one_row_pass(z, W, dtype=np.int32, own_rows=True) for z, W, _ in cases] == exact
    assert [one_row_pass(z, W, dtype=np.int16 if max(map(abs, z)) < 2**15 else np.int32, own_rows=True)
            for z, W, _ in cases] == exact
    # A filter that trusted the float score (radius 0) passes over mistakes: these rows reach the row's own floats.
    # (At d = 2 the float score z_0·W_0 + W_1 mostly cancels exactly, both terms rounded alike.)
    trusting = [one_row_pass(z, W, dtype=np.int32, own_rows=True, radius_scale=0.0) for z, W, _ in cases]
    assert trusting != exact or d == 2


@needs_kernel
def test_the_compiled_pass_refuses_to_read_int64_rows_as_floats_itself():
    # an int64 entry past 2^53 is no double: such rows need their float copy, rounded once each
    with pytest.raises(ValueError, match="Zf may be None only for int16 or int32 Z"):
        one_row_pass([2**60 + 1, 3], [5, 7], own_rows=True)


def run_from(matrix: ExactMatrix, W: list[int]) -> fast._Run:
    run = fast._Run(matrix, np.ones(len(matrix.exact), dtype=bool), observer=None, keep_updates=0, deadline=None,
                    per_epoch=True)
    run.move(W, sum(v * v for v in W))
    return run


def test_the_numpy_filter_leaves_every_row_at_the_threshold_to_the_exact_path(monkeypatch):
    monkeypatch.setattr(fast._kernel, "AVAILABLE", False)  # the NumPy engine, whatever was built
    rng = random.Random(11)
    W = weights_near(rng, 6)
    cases = [near_threshold_for(rng, W) for _ in range(300)]
    Z = np.array([z for z, _ in cases], dtype=np.int64)
    mistakes = {i for i, (_, s) in enumerate(cases) if s <= 0}
    run = run_from(ExactMatrix(Z), W)
    assert run.kind in ("int64", "object")
    assert mistakes <= set(run._unsure(0, len(Z)).tolist())
    # A filter that trusted the float score (radius 0) would pass over some of those mistakes.
    monkeypatch.setattr(flt, "radii", lambda norms, d: np.zeros(len(norms)))
    assert not mistakes <= set(run_from(ExactMatrix(Z), W)._unsure(0, len(Z)).tolist())


@pytest.mark.parametrize("compiled", [True, False])
def test_runs_through_the_filter_equal_the_reference_engine(monkeypatch, compiled):
    # Samples of about 2^40 and a bias: W leaves its int32 copy after one update, and every later
    # scan goes through the filter; the fast engine's run must be the Fraction reference's.
    if not compiled:
        monkeypatch.setattr(fast._kernel, "AVAILABLE", False)
    assert_runs_equal_the_reference(random.Random(3), "online")


def assert_runs_equal_the_reference(rng: random.Random, mode: str) -> None:
    """Five datasets of samples of about 2^40 and a bias: the fast engine's runs are the Fraction reference's."""
    for _ in range(5):
        n, d = rng.randrange(5, 40), rng.randrange(2, 7)
        X = [[Fraction(rng.randrange(-2**40, 2**40), rng.choice([1, 3, 2**20])) for _ in range(d)] for _ in range(n)]
        y = [rng.choice([-1, 1]) for _ in range(n)]
        data = Dataset(X, y)
        ours, theirs = fast.run(data, mode=mode, max_epochs=30), train(data, mode=mode, max_epochs=30)
        assert ours.final_weights == theirs.final_weights and ours.n_updates == theirs.n_updates
        assert ours.mistakes_per_sample == theirs.mistakes_per_sample


@pytest.mark.parametrize("compiled", [True, False])
def test_batch_runs_through_the_filter_equal_the_reference_engine(monkeypatch, compiled):
    # Batch mode scores every row from one W: past int64 only the rows the filter cannot prove positive
    # are scored exactly. The run must be the Fraction reference's, and the filter must have been used.
    if not compiled:
        monkeypatch.setattr(fast._kernel, "AVAILABLE", False)
    filtered: list[object] = []
    unsure = fast._Run._unsure

    def recorded(self: fast._Run, *a: Any) -> Any:  # Any: the arguments and answer passed through as they are
        filtered.append(r := unsure(self, *a))
        return r

    monkeypatch.setattr(fast._Run, "_unsure", recorded)
    assert_runs_equal_the_reference(random.Random(5), "batch")
    assert any(r is not None for r in filtered)


def test_a_batch_epoch_finds_every_mistake_at_the_threshold(monkeypatch):
    rng = random.Random(13)
    W = weights_near(rng, 6)
    cases = [near_threshold_for(rng, W) for _ in range(300)]
    Z = np.array([z for z, _ in cases], dtype=np.int64)
    mistakes = [i for i, (_, s) in enumerate(cases) if s <= 0]  # (a tie is a mistake here)
    run = run_from(ExactMatrix(Z), W)
    assert run._unsure(0, len(Z)) is not None  # the filter is what decides the others
    run.batch_epoch()
    assert np.flatnonzero(run.mistakes).tolist() == mistakes
    # A filter that trusted the float score (radius 0) would miss some of them.
    monkeypatch.setattr(flt, "radii", lambda norms, d: np.zeros(len(norms)))
    trusting = run_from(ExactMatrix(Z), W)
    trusting.batch_epoch()
    assert np.flatnonzero(trusting.mistakes).tolist() != mistakes
