"""The limb pass's two uses of the float score (run/filter.py): the score from its residue, W's float copy.

Past 128 bits, with entries of at most two limbs, the limb pass sums a
score exactly only modulo 2^128 and reads its high limb off the float score
where the filter's bound t is below 2^125; and it keeps W's float copy by
adding the rows' floats, with a running bound on its drift, making it from
W's limbs again every 16 updates. Both are tested at their edges here: rows
whose float score errs by more than 2^127 (where only the bound keeps the
residue from a wrong high limb), scores next to multiples of 2^128, and
float copies whose drift reaches 2/3, 4/5 and all but 10^-13 of its bound.
"""

from __future__ import annotations

import math
import random
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
from verify_perceptron.run.filter import factor, radii
from tests.test_fast import same_run

needs_kernel = pytest.mark.skipif(not _kernel.AVAILABLE or _kernel.limb_pass is None,
                                  reason=f"the C kernel is not built: {_kernel.IMPORT_ERROR}")
U = Fraction(1, 2**53)


def _scan() -> Any:
    import importlib

    return importlib.import_module("verify_perceptron.run._scan")


def _pass(Z: list[list[int]], weights: list[int], tie: list[bool]) -> tuple[list[int], list[int], int]:
    """One limb pass with the filter over rows Z from W = `weights`: the mistakes' rows, exact scores, and ls."""
    matrix = ExactMatrix(np.array(Z, dtype=object))
    layout = _limbs.LimbLayout(matrix)
    norm_sq = sum(w * w for w in weights)
    ls, lw, limit = layout.shape(norm_sq) or (0, 0, 0)
    F = np.array([[float(v) for v in row] for row in Z])  # the nearest doubles
    k = len(Z)
    out_i, out_e, out_s = np.zeros(k, dtype=np.int64), np.zeros(k, dtype=np.int64), np.zeros((k, ls), dtype=np.int64)
    m, *_ = _kernel.limb_pass(layout.Z, _limbs.limbs_of(weights, lw), np.array(tie), layout.norms(ls),
                              np.zeros(k, dtype=np.int64), out_i, out_s, 0, _limbs.limbs_of([norm_sq], ls)[0].copy(),
                              _limbs.limbs_of([limit], ls)[0],
                              (out_e, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), 1, 0, 1, 0, 1, 1),
                              (F, radii(matrix.norms, len(weights))))
    return out_i[:m].tolist(), [int(v) for v in score_values(out_s[:m]).tolist()], ls


def _solve(W: list[int], s: int, shift: int) -> list[int]:
    """A row z of entries like W's in size with z·W = s (W_0, W_1 coprime), `shift` steps from the smallest."""
    z0 = pow(W[0], -1, W[1]) * s % W[1]
    z1 = (s - z0 * W[0]) // W[1]
    k = (z0 // W[1] + z1 // W[0]) // 2 + shift
    return [z0 - k * W[1], z1 + k * W[0]]


@needs_kernel
@pytest.mark.parametrize("s", [-1, -2, -(2**127), -(2**127) - 1, -(2**128) + 1, -(2**128), -(2**128) - 1,
                               -3 * 2**128 + 5, -(2**150), 0, 1, 2**128 - 1, 2**128, 2**128 + 1])
def test_scores_next_to_multiples_of_2_to_the_128_are_read_exactly_from_their_residue(s):
    # W near 2^80, rows near 2^80: ‖z‖·‖W‖ near 2^161, so the filter's t is near 2^115, below the 2^125 that
    # lets the residue decide. Rounding the high limb down, or toward 0, instead of to the nearest fails here.
    # Rows of that score from eight W, whose float scores err by different amounts either way.
    rng = random.Random(s)
    for _ in range(8):
        W = [rng.randrange(2**80, 2**81) | 1]
        W.append(W[0] + 2)
        row = _solve(W, s, 0)
        assert row[0] * W[0] + row[1] * W[1] == s and max(map(abs, row)) < 2**84
        for tie in (False, True):
            mistake = s < 0 or (s == 0 and tie)
            rows, scores, ls = _pass([row], W, [tie])
            assert ls == 3 and (rows, scores) == (([0], [s]) if mistake else ([], []))


def _far_off(s: int, seed: int) -> tuple[list[int], list[int], int]:
    """(z, W, error): three-entry z, W in two limbs each with z·W = s whose float score misses s by `error`,
    more than 2^127: z_0·W_0 is about 2^181 and its double is off by 3/4 of a half unit or more; z_1·W_1 is that
    double's negative, exactly; z_2·W_2 puts back what makes the score s."""
    rng = random.Random(seed)
    while True:
        a, b = rng.randrange(2**52, 2**53), rng.randrange(2**52, 2**53)
        error = a * b - int(float(a * b))
        if 3 * 2**50 <= abs(error) <= 2**52:
            break
    z = [a << 40, -(2**70)]
    W = [b << 36, int(float(a * b)) << 6, 2**10]
    rest = s - z[0] * W[0] - z[1] * W[1]
    assert rest % 2**10 == 0
    z.append(rest >> 10)
    assert sum(x * w for x, w in zip(z, W)) == s and abs(z[2]) < 2**126
    return z, W, error << 76


@needs_kernel
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("s", [-(2**10), -(2**125) - 2**10, 0])
def test_a_float_score_off_by_more_than_2_to_the_127_is_not_used_for_the_high_limb(seed, s):
    # The float score errs by 1.5·2^127 or more, so its high limb would be off by one; its bound t is near 2^133,
    # past 2^125, so the pass sums the score whole. Without that guard (or with a looser one) this fails.
    z, W, error = _far_off(s, seed)
    assert abs(error) > 2**127
    rows, scores, ls = _pass([z], W, [True])
    assert ls == 4 and (rows, scores) == ([0], [s])


def _trace(W: list[int], rows: list[list[int]]) -> Any:
    """`_scan.float_copy_trace` from W over `rows`, their floats the nearest doubles and radii `radii`'s."""
    d = len(W)
    Z = np.ascontiguousarray(_limbs.limbs_of([v for row in rows for v in row], 2).reshape(len(rows), d, 2))
    Zf = np.array([[float(v) for v in row] for row in rows], dtype=np.float64).reshape(len(rows), d)
    radius = np.ascontiguousarray(radii(np.array([sum(v * v for v in row) for row in rows] + [0], dtype=object), d)[:-1])
    out = np.zeros((len(rows) + 1, d + 3))
    _scan().float_copy_trace(Z, _limbs.limbs_of(W, 2), Zf, radius, _limbs.limbs_of([sum(v * v for v in W)], 5)[0], out)
    return out


def _drift_ratios(W: list[int], rows: list[list[int]]) -> list[float]:
    """After each row: asserts the float copy's invariants exactly, and returns ‖Wf − W‖ over its bound."""
    d = len(W)
    K = Fraction(factor(d))
    out = _trace(W, rows)
    ratios = []
    for t in range(len(rows) + 1):
        if t:
            W = [w + z for w, z in zip(W, rows[t - 1])]
        copy = [Fraction(v) for v in out[t, :d]]
        n_W, drift, factor_W = (Fraction(v) for v in out[t, d:])
        error_sq = sum((c - w) ** 2 for c, w in zip(copy, W))
        bound = K * drift * (1 - U) / 2  # the drift's meaning: 2‖Wf − W‖ / (K_d (1 − u)) <= drift
        assert n_W * n_W >= sum(w * w for w in W), t
        assert bound * bound >= error_sq, (t, float(error_sq), float(bound * bound))
        assert factor_W >= n_W + drift, t
        ratios.append(math.sqrt(error_sq) / float(bound) if bound else 0.0)
    return ratios


@needs_kernel
@given(d=st.integers(1, 12), data=st.data())
def test_w_float_copy_stays_within_its_drift_and_n_w_above_the_norm(d, data):
    entry = st.one_of(st.integers(-(2**110), 2**110), st.integers(-(2**60), 2**60), st.sampled_from([0, 1, -1]))
    W = data.draw(st.lists(st.integers(-(2**112), 2**112), min_size=d, max_size=d))
    rows = data.draw(st.lists(st.lists(entry, min_size=d, max_size=d), max_size=15))
    _drift_ratios(W, rows)


@needs_kernel
def test_the_drift_bound_is_tight_at_the_edge():
    # W's two limbs round twice into a double, by 2u·|W| in all: the drift made from W is 3u·n_W, so 2/3 of it.
    # Then two rows whose doubles and sums round each by nearly half a unit the same way: 3/4 and 4/5 of it.
    W = [(2**53 + 1) * 2**64 + 2**64 - 1]
    ratios = _drift_ratios(W, [[43197275550670654418131979], [645620097442099449459]])
    assert ratios[0] > 0.66 and ratios[1] > 0.74 and ratios[2] > 0.79, ratios
    # From W = 0: a row below half a unit of the next one, which its double drops (u·|z|), and whose sum with
    # the copy drops the first row again (u·|W|): 2u·|z| in all, which the drift's terms u·|z| and u·n_W each
    # bound only together. The bound is met to within 10^-13.
    b = 60
    ratios = _drift_ratios([0], [[2**(b - 1) - 1], [2**(52 + b) + 2**(b - 1) - 1]])
    assert ratios[2] > 1 - 1e-12, ratios


@needs_kernel
def test_float_copy_trace_refuses_too_many_rows_and_entries_past_128_bits():
    with pytest.raises(ValueError, match="k < 16"):
        _trace([1], [[1]] * 16)
    with pytest.raises(ValueError, match="leaves 127 bits"):
        _trace([2**126], [[2**126]])


@st.composite
def wide_runs(draw: st.DrawFn) -> Dataset:
    """Binary floats' kind of data past 64 bits, 24 to 60 rows and random labels: many updates an epoch, so
    that W's float copy drifts over more than 16 updates before it is made again."""
    n, d = draw(st.integers(24, 60)), draw(st.integers(1, 4))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    scale = draw(st.sampled_from([2**40, 2**60, 2**75]))
    X = [[int(v) * scale + int(r) for v, r in zip(rng.integers(-(2**20), 2**20, size=d), rng.integers(0, 2**20, size=d))]
         for _ in range(n)]
    y = [1, -1] + [int(v) for v in rng.choice([-1, 1], size=n - 2)]
    return Dataset(X=[[Fraction(v, 2**64) for v in row] for row in X], y=y)


@needs_kernel
@given(data=wide_runs(), convention=st.sampled_from(sorted(CONVENTIONS)), mode=st.sampled_from(["online", "batch"]))
def test_long_epochs_through_the_limb_pass_make_the_reference_run(data, convention, mode):
    same_run(engine.train(data, convention, mode=mode, max_epochs=8),
             fast.run(data, convention, mode=mode, max_epochs=8, keep_updates=10**9))
