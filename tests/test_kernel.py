"""The compiled online pass equals its Python reference and both equal a plain loop.

The checker's compiled replay is tested in `tests/test_replay_kernel.py`, the data layer's compiled
scores in `tests/test_rows_kernel.py`; what they share is in `tests/kernel_cases.py`.
"""

from __future__ import annotations

import array
import importlib.util
import inspect
import os
import re
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from collections.abc import Callable
from typing import Any, Literal, NoReturn

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from verify_perceptron.run import kernel as _kernel
from verify_perceptron.data.integers import as_halves, score_values
from verify_perceptron.run.kernel import AVAILABLE, online_pass_reference
from tests.kernel_cases import (EXACT_SQ, I64, WIDE_SQ, buffer_format, exact_norms, largest_limit, pass_problems,
                                read_only, wide_problems)

needs_kernel = pytest.mark.skipif(not AVAILABLE, reason=f"the C kernel is not built: {_kernel.IMPORT_ERROR}")

#: Every implementation of online_pass: each must agree with the plain loop below.
IMPLEMENTATIONS = [
    pytest.param(online_pass_reference, id="reference"),
    pytest.param(_kernel.online_pass, id="c", marks=needs_kernel),
]

#: What the tests put in the output buffers first: any of it left past m was not written.
UNWRITTEN = -7


# --- online_pass: the definition ----------------------------------------------------------------


def online_pass_by_hand(Z, W, tie, start, w_sq, limit, cap):
    """The definition, from Z alone, in Python integers: what any online pass must do.

    Returns ``(result, W, added, found)``: the pass's 4-tuple, the new weights, the mistakes
    added per row and the (row, score) pairs. ‖W + z‖² is summed afresh, not by the identity
    ‖W‖² + 2s + ‖z‖² the implementations use, and `norms` is not read at all.
    """
    rows = [[int(v) for v in row] for row in Z.tolist()]
    weights = [int(v) for v in W.tolist()]
    added: list[int] = [0] * len(rows)
    found: list[tuple[int, int]] = []
    i = start
    while i < len(rows):
        s = sum(z * w for z, w in zip(rows[i], weights))
        if s < 0 or (s == 0 and tie[i]):
            after = sum((w + z) ** 2 for w, z in zip(weights, rows[i]))
            if after > limit:
                return (len(found), i, w_sq, True), weights, added, found
            weights = [w + z for w, z in zip(weights, rows[i])]
            w_sq = after
            added[i] += 1
            found.append((i, s))
            if len(found) == cap:
                return (len(found), i + 1, w_sq, False), weights, added, found
        i += 1
    return (len(found), i, w_sq, False), weights, added, found


def run_pass(step, Z, W, tie, norms, start, w_sq, limit, cap):
    """What a pass does, in the shape of `online_pass_by_hand`; the caller's W is not touched.

    The counts start from 0, 1, 2, ... (not zeros) so that an increment is told from a store,
    and the buffers past m must still hold what was there before.
    """
    W = W.copy()
    before = np.arange(len(Z), dtype=np.int64)
    counts = before.copy()
    out_i, out_s = np.full(cap, UNWRITTEN, dtype=np.int64), np.full(cap, UNWRITTEN, dtype=np.int64)
    result = step(Z, W, tie, norms, counts, out_i, out_s, start, w_sq, limit)
    m = result[0]
    assert out_i[m:].tolist() == out_s[m:].tolist() == [UNWRITTEN] * (cap - m)
    found = list(zip(out_i[:m].tolist(), out_s[:m].tolist()))
    return result, W.tolist(), (counts - before).tolist(), found



#: How far a row of the problems near 2^62 may reach in its other columns.
SWITCH_REACH = 2**17


@st.composite
def near_the_switch(draw, *, dtypes=(np.int16, np.int32, np.int64)):
    """Problems whose ‖W‖² starts within ~2^35 of 2^62 and whose updates move it by ~2^30..2^36.

    W = (2^31 + δ, small...), and each row either (-1, 0, ...), an update that takes ‖W‖²
    down by ~2^32, or (0, r...), which may take it up: ‖W‖² crosses 2^62 either way mid-pass,
    where the C pass switches between its int32 and int64 copies of W.
    """
    dtype = draw(st.sampled_from(dtypes))
    n, d = draw(st.integers(1, 16)), draw(st.integers(2, 9))
    big = min(int(np.iinfo(dtype).max), SWITCH_REACH)
    down = [-1] + [0] * (d - 1)
    other = st.lists(st.integers(-big, big), min_size=d - 1, max_size=d - 1).map(lambda r: [0, *r])
    Z = np.array(draw(st.lists(st.one_of(st.just(down), other), min_size=n, max_size=n)), dtype=dtype).reshape(n, d)
    rest = draw(st.lists(st.integers(-(2**16), 2**16), min_size=d - 1, max_size=d - 1))
    W = np.array([2**31 + draw(st.integers(-8, 8)), *rest], dtype=np.int64)
    norms = exact_norms(Z)
    w_sq = sum(int(v) ** 2 for v in W.tolist())
    tie = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    return Z, W, tie, norms, w_sq, largest_limit(norms)


capacities = st.one_of(st.integers(1, 3), st.just(1000))


@pytest.mark.parametrize("step", IMPLEMENTATIONS)
@given(problem=pass_problems(), cap=capacities)
def test_pass_equals_the_definition_from_every_start(step, problem, cap):
    Z, W, tie, norms, w_sq, limit = problem
    for start in range(len(Z) + 1):
        expected = online_pass_by_hand(Z, W, tie, start, w_sq, limit, cap)
        assert run_pass(step, Z, W, tie, norms, start, w_sq, limit, cap) == expected


@needs_kernel
@given(problem=pass_problems(), cap=capacities)
def test_c_pass_equals_reference_from_every_start(problem, cap):
    Z, W, tie, norms, w_sq, limit = problem
    for start in range(len(Z) + 1):
        assert (run_pass(_kernel.online_pass, Z, W, tie, norms, start, w_sq, limit, cap)
                == run_pass(online_pass_reference, Z, W, tie, norms, start, w_sq, limit, cap))


def wide_by_hand(Z, W, tie, start, w_sq, limit, cap, halves):
    """`online_pass_by_hand`, and a mistake whose score leaves int64 stops the pass unless `halves`."""
    rows = [[int(v) for v in row] for row in Z.tolist()]
    weights, i = [int(v) for v in W.tolist()], start
    found: list[tuple[int, int]] = []
    while i < len(rows):
        s = sum(z * w for z, w in zip(rows[i], weights))
        if s < 0 or (s == 0 and tie[i]):
            after = sum((w + z) ** 2 for w, z in zip(weights, rows[i]))
            if after > limit or (s < -(2**63) and not halves):
                return (len(found), i, w_sq, True), weights, found
            weights, w_sq = [w + z for w, z in zip(weights, rows[i])], after
            found.append((i, s))
            if len(found) == cap:
                return (len(found), i + 1, w_sq, False), weights, found
        i += 1
    return (len(found), i, w_sq, False), weights, found


def run_wide(step, Z, W, tie, norms, start, w_sq, limit, cap, halves):
    """What a pass does past the int64 guard, in the shape of `wide_by_hand`."""
    W, counts = W.copy(), np.zeros(len(Z), dtype=np.int64)
    out_i, out_s = np.zeros(cap, dtype=np.int64), np.zeros(2 * cap if halves else cap, dtype=np.int64)
    result = step(Z, W, tie, norms, counts, out_i, out_s, start, w_sq, limit)
    m = result[0]
    scores = score_values(out_s[: 2 * m].reshape(-1, 2)) if halves else out_s[:m]
    return result, W.tolist(), list(zip(out_i[:m].tolist(), scores.tolist()))


@pytest.mark.parametrize("step", IMPLEMENTATIONS)
@given(problem=wide_problems(), cap=capacities, halves=st.booleans(), norms_in_halves=st.booleans())
def test_past_the_int64_guard_the_pass_sums_in_128_bits_exactly(step, problem, cap, halves, norms_in_halves):
    Z, W, tie, norms, w_sq, limit = problem
    if norms_in_halves:  # every norm given, in halves, as a matrix past int64 gives them (ExactMatrix.norm_halves)
        exact = [sum(int(v) * int(v) for v in row) for row in Z.tolist()]
        norms = as_halves(np.array(exact, dtype=object)).reshape(-1) if len(Z) else norms
    for start in range(len(Z) + 1):
        expected = wide_by_hand(Z, W, tie, start, w_sq, limit, cap, halves)
        assert run_wide(step, Z, W, tie, norms, start, w_sq, limit, cap, halves) == expected


@needs_kernel
@given(problem=wide_problems(), cap=capacities, halves=st.booleans(), norms_in_halves=st.booleans())
def test_given_the_largest_norm_the_c_pass_makes_the_same_updates(problem, cap, halves, norms_in_halves):
    # `most` spares the pass its look at every row's norm at each call; the int64 guard is read off it, so a
    # most below the true one would sum past the guard in int64 and go wrong here.
    Z, W, tie, norms, w_sq, limit = problem
    exact = [sum(int(v) * int(v) for v in row) for row in Z.tolist()]
    if norms_in_halves or not len(norms):  # most is taken only with the norms given (else they are summed)
        norms = as_halves(np.array(exact, dtype=object)).reshape(-1)

    def with_most(*args):  # one epoch (no previous W: it stops at the epoch's end), no filter, and most
        out_e = np.zeros(len(args[5]), dtype=np.int64)
        epochs = (out_e, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), 1, 0, 1, 1, 1, 2**40)
        step: Any = _kernel.online_pass  # (the C pass, with its 13th argument)
        return step(*args, epochs, None, max(exact))[:4]

    for start in range(len(Z) + 1):
        expected = wide_by_hand(Z, W, tie, start, w_sq, limit, cap, halves)
        assert run_wide(with_most, Z, W, tie, norms, start, w_sq, limit, cap, halves) == expected


@needs_kernel
@pytest.mark.parametrize("most, error, message", [
    (-1, ValueError, "most=-1 must satisfy 0 <= most < 2^126"),
    (2**126, ValueError, f"most={2**126} must satisfy 0 <= most < 2^126"),
    (2**130, OverflowError, f"most={2**130} does not fit in 128 bits"),
    (1.0, TypeError, "most must be an int, got float")], ids=["negative", "2^126", "2^130", "float"])
def test_c_pass_rejects_a_bad_largest_norm_with_the_whole_message(most, error, message):
    args = pass_arguments()
    epochs = (np.zeros(2, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), 1, 0, 1, 1, 1, 9)
    step: Any = _kernel.online_pass
    with pytest.raises(error) as raised:
        step(*args, epochs, None, most)
    assert str(raised.value) == "online_pass(): " + message


@pytest.mark.parametrize("step", IMPLEMENTATIONS)
def test_a_score_past_int64_is_written_in_halves_or_stops_the_pass(step):
    Z = np.array([[-(2**40), 0], [1, 1]], dtype=np.int64)
    W = np.array([2**40, 3], dtype=np.int64)  # row 0 scores -2^80, row 1 scores 2^40 + 3
    w_sq = 2**80 + 9
    tie = np.zeros(2, dtype=bool)
    stopped = run_wide(step, Z, W, tie, np.zeros(0, dtype=np.int64), 0, w_sq, WIDE_SQ - 1, 4, halves=False)
    assert stopped == ((0, 0, w_sq, True), W.tolist(), [])
    written = run_wide(step, Z, W, tie, np.zeros(0, dtype=np.int64), 0, w_sq, WIDE_SQ - 1, 4, halves=True)
    assert written == ((1, 2, 9, False), [0, 3], [(0, -(2**80))])


@pytest.mark.parametrize("step", IMPLEMENTATIONS)
def test_without_norms_a_row_of_norm_2_to_the_126_is_refused(step):
    Z = np.array([[2**62, 2**62, 2**62, 2**62]], dtype=np.int64)  # ‖z‖² = 2^126
    args = (Z, np.zeros(4, dtype=np.int64), np.zeros(1, dtype=bool), np.zeros(0, dtype=np.int64),
            np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64), 0, 0, 10)
    with pytest.raises(ValueError, match=r"\|\|Z\[0\]\|\|\^2 >= 2\^126"):
        step(*args)


@needs_kernel
@given(problem=near_the_switch(), cap=capacities)
def test_c_pass_equals_reference_across_the_int32_switch(problem, cap):
    Z, W, tie, norms, w_sq, limit = problem
    for start in (0, len(Z) // 2):
        assert (run_pass(_kernel.online_pass, Z, W, tie, norms, start, w_sq, limit, cap)
                == online_pass_by_hand(Z, W, tie, start, w_sq, limit, cap))


@needs_kernel
@pytest.mark.parametrize("dtype, d, p", [(np.int16, 17, 0.3), (np.int32, 9, 0.2), (np.int64, 9, 0.2)],
                         ids=["int16", "int32", "int64"])
def test_c_pass_crosses_the_int32_switch_both_ways_and_stays_exact(dtype, d, p):
    # Not left to chance: seeded problems of the shape above (a fraction p of rows going down),
    # checked to cross 2^62 upwards and downwards several times (‖W‖² after each update, rebuilt
    # from the scores and norms). Narrow rows need more columns to climb back.
    rng = np.random.default_rng(7)
    big = min(int(np.iinfo(dtype).max), SWITCH_REACH)
    ups = downs = 0
    for _ in range(20):
        down = rng.random(200) < p
        Z = np.zeros((200, d), dtype=np.int64)
        Z[down, 0] = -1
        Z[~down, 1:] = rng.integers(-big, big + 1, ((~down).sum(), d - 1))
        Z = Z.astype(dtype)
        W = np.zeros(d, dtype=np.int64)
        W[0] = 2**31 + int(rng.integers(-4, 5))
        tie, norms = rng.random(200) < 0.5, exact_norms(Z)
        w_sq, limit = int(W[0]) ** 2, largest_limit(norms)
        got = run_pass(_kernel.online_pass, Z, W, tie, norms, 0, w_sq, limit, 1000)
        assert got == online_pass_by_hand(Z, W, tie, 0, w_sq, limit, 1000)
        path = [w_sq]
        for i, s in got[3]:
            path.append(path[-1] + 2 * s + int(norms[i]))
        ups += sum(a < 2**62 <= b for a, b in zip(path, path[1:]))
        downs += sum(b < 2**62 <= a for a, b in zip(path, path[1:]))
    assert ups >= 5 and downs >= 5


@pytest.mark.parametrize("step", IMPLEMENTATIONS)
@given(problem=pass_problems(), cap=st.integers(1, 3))
def test_resuming_from_the_position_equals_one_pass(step, problem, cap):
    # The engine's loop: call again from the returned position until the rows end or the guard.
    Z, W, tie, norms, w_sq, limit = problem
    whole = run_pass(step, Z, W, tie, norms, 0, w_sq, limit, len(Z) + 1)
    W, counts = W.copy(), np.zeros(len(Z), dtype=np.int64)
    out_i, out_s = np.zeros(cap, dtype=np.int64), np.zeros(cap, dtype=np.int64)
    position, guarded = 0, False
    found: list[tuple[int, int]] = []
    while position < len(Z) and not guarded:
        m, position, w_sq, guarded = step(Z, W, tie, norms, counts, out_i, out_s, position, w_sq, limit)
        assert m == cap or position == len(Z) or guarded  # a pass stops only for one of its three reasons
        found += zip(out_i[:m].tolist(), out_s[:m].tolist())
    assert ((len(found), position, w_sq, guarded), W.tolist(), counts.tolist(), found) == whole


# Each case: Z, W, tie, start, limit, buffer length, and the expected result, W, counts and
# (row, score) pairs, worked out by hand. ‖W‖² is passed exactly.
DOCSTRING_Z = [[1, 2], [3, -4], [0, 0]]
PASS_CASES = {
    # _kernel's own example: row 0 scores 3, row 1 scores -1 (W = (4, -3), ‖W‖² = 2 - 2 + 25), row 2 ties.
    "docstring example": (DOCSTRING_Z, [1, 1], [0, 0, 1], 0, 10**6, 4,
                          (2, 3, 25, False), [4, -3], [0, 1, 1], [(1, -1), (2, 0)]),
    "full buffer stops after the mistake": (DOCSTRING_Z, [1, 1], [0, 0, 1], 0, 10**6, 1,
                                            (1, 2, 25, False), [4, -3], [0, 1, 0], [(1, -1)]),
    "an update onto the limit is made": (DOCSTRING_Z, [1, 1], [0, 0, 1], 0, 25, 4,
                                         (2, 3, 25, False), [4, -3], [0, 1, 1], [(1, -1), (2, 0)]),
    "an update past the limit is not": (DOCSTRING_Z, [1, 1], [0, 0, 1], 0, 24, 4,
                                        (0, 1, 2, True), [1, 1], [0, 0, 0], []),
    "start past the mistake": (DOCSTRING_Z, [1, 1], [0, 0, 1], 2, 10**6, 4,
                               (1, 3, 2, False), [1, 1], [0, 0, 1], [(2, 0)]),
    "zero score passes without a tie": (DOCSTRING_Z, [1, 1], [0, 0, 0], 2, 10**6, 4,
                                        (0, 3, 2, False), [1, 1], [0, 0, 0], []),
    "start == n scans nothing": (DOCSTRING_Z, [1, 1], [1, 1, 1], 3, 10**6, 4,
                                 (0, 3, 2, False), [1, 1], [0, 0, 0], []),
    "no rows": (np.zeros((0, 2), dtype=np.int64), [1, 1], [], 0, 10**6, 1,
                (0, 0, 2, False), [1, 1], [], []),
    "no columns: every score is 0, ties decide": (np.zeros((3, 0), dtype=np.int64), [], [0, 1, 1], 0, 0, 4,
                                                  (2, 3, 0, False), [], [0, 1, 1], [(1, 0), (2, 0)]),
    "no columns, buffer of one": (np.zeros((3, 0), dtype=np.int64), [], [1, 1, 1], 1, 0, 1,
                                  (1, 2, 0, False), [], [0, 1, 0], [(1, 0)]),
    # Row 0 would be a mistake again at the end (W = 1 scores it -2), but a pass sees each row once.
    "later rows see the new W, earlier ones wait": ([[-2], [1], [1]], [1], [0, 0, 1], 0, 10**6, 4,
                                                    (3, 3, 1, False), [1], [1, 1, 1], [(0, -2), (1, -1), (2, 0)]),
    # W = -1 → 2^31 (‖W‖² = 2^62 exactly: W no longer fits in int32) → 2^31 - 1 → 0 → a tie at 0.
    "through ‖W‖² = 2^62 and back": (np.array([[2**31 + 1], [-1], [1], [-(2**31) + 1], [0]], dtype=np.int64),
                                     [-1], [0, 0, 0, 0, 1], 0, 2**63, 8,
                                     (4, 5, 0, False), [0], [1, 1, 0, 1, 1],
                                     [(0, -(2**31) - 1), (1, -(2**31)), (3, -((2**31 - 1) ** 2)), (4, 0)]),
    "int16 extremes": (np.array([[-(2**15), -(2**15)], [2**15 - 1, 2**15 - 1]], dtype=np.int16), [1, 1], [0, 0], 0,
                       2**40, 4, (2, 2, 0, False), [0, 0], [1, 1],
                       [(0, -(2**16)), (1, -(2**15 - 1) * 2 * (2**15 - 1))]),
    "int32 extremes": (np.array([[-(2**31)], [2**31 - 1]], dtype=np.int32), [5], [0, 0], 0,
                       2**64 - 1, 4, (2, 2, 16, False), [4], [1, 1],
                       [(0, -5 * 2**31), (1, -(2**31 - 5) * (2**31 - 1))]),
}


@pytest.mark.parametrize("step", IMPLEMENTATIONS)
@pytest.mark.parametrize("case", PASS_CASES.values(), ids=PASS_CASES.keys())
def test_pass_does_the_worked_examples(step, case):
    Z, W, tie, start, limit, cap, result, W_after, added, found = case
    Z = np.asarray(Z, dtype=np.int64) if isinstance(Z, list) else Z
    W = np.array(W, dtype=np.int64)
    tie, norms = np.array(tie, dtype=bool), exact_norms(Z)
    w_sq = sum(int(v) ** 2 for v in W.tolist())
    assert limit * int(norms.max(initial=0)) < EXACT_SQ  # the case meets the precondition
    expected = (result, W_after, added, found)
    assert online_pass_by_hand(Z, W, tie, start, w_sq, limit, cap) == expected  # the worked example is right
    got = run_pass(step, Z, W, tie, norms, start, w_sq, limit, cap)
    assert got == expected
    assert [type(v) for v in got[0]] == [int, int, int, bool]


# --- online_pass: its arguments ----------------------------------------------------------------



def pass_arguments(**changes):
    """Good arguments for a 3 x 2 problem (row 0 is a mistake), with some replaced."""
    Z = np.arange(6, dtype=np.int64).reshape(3, 2) * [1, -1]
    good = {"Z": Z, "W": np.array([1, 1], dtype=np.int64), "tie": np.zeros(3, dtype=bool),
            "norms": exact_norms(Z), "counts": np.zeros(3, dtype=np.int64), "out_i": np.zeros(2, dtype=np.int64),
            "out_s": np.zeros(2, dtype=np.int64), "start": 0, "w_sq": 2, "limit": 10}
    good.update(changes)
    return tuple(good.values())




# Each: bad arguments, the error, and the whole message after "online_pass(): ".
BAD_PASS_ARGUMENTS = {
    "Z float64": (pass_arguments(Z=np.zeros((3, 2))), TypeError,
                  f"Z must hold int16, int32 or int64 items, got format='{buffer_format(np.float64)}' itemsize=8"),
    "Z uint64": (pass_arguments(Z=np.zeros((3, 2), dtype=np.uint64)), TypeError,
                 f"Z must hold int16, int32 or int64 items, got format='{buffer_format(np.uint64)}' itemsize=8"),
    "Z int8": (pass_arguments(Z=np.zeros((3, 2), dtype=np.int8)), TypeError,
               "Z must hold int16, int32 or int64 items, got format='b' itemsize=1"),
    "Z big-endian": (pass_arguments(Z=np.zeros((3, 2), dtype=">i8")), TypeError,
                     f"Z must hold int16, int32 or int64 items, got format='{buffer_format('>i8')}' itemsize=8"),
    "Z big-endian int16": (pass_arguments(Z=np.zeros((3, 2), dtype=">i2")), TypeError,
                           f"Z must hold int16, int32 or int64 items, got format='{buffer_format('>i2')}' itemsize=2"),
    "Z a list": (pass_arguments(Z=[[0, 1], [2, 3], [4, 5]]), TypeError,
                 "Z must be an array supporting the buffer protocol, got list"),
    "Z 1-D": (pass_arguments(Z=np.zeros(3, dtype=np.int64)), ValueError, "Z must be 2-D, got ndim=1"),
    "Z 3-D": (pass_arguments(Z=np.zeros((3, 2, 1), dtype=np.int64)), ValueError, "Z must be 2-D, got ndim=3"),
    "Z transposed": (pass_arguments(Z=np.zeros((2, 3), dtype=np.int64).T), ValueError,
                     "Z must be C-contiguous, got strides=(8, 24) for shape=(3, 2)"),
    "Z int16 every other column": (pass_arguments(Z=np.zeros((3, 4), dtype=np.int16)[:, ::2]), ValueError,
                                   "Z must be C-contiguous, got strides=(8, 4) for shape=(3, 2)"),
    "W int32": (pass_arguments(W=np.ones(2, dtype=np.int32)), TypeError,
                f"W must hold int64 items, got format='{buffer_format(np.int32)}' itemsize=4"),
    "W 2-D": (pass_arguments(W=np.ones((2, 1), dtype=np.int64)), ValueError, "W must be 1-D, got ndim=2"),
    "W too long": (pass_arguments(W=np.ones(3, dtype=np.int64)), ValueError,
                   "W has length 3 but Z has 2 columns (Z.shape=(3, 2))"),
    "W every other": (pass_arguments(W=np.ones(4, dtype=np.int64)[::2]), ValueError,
                      "W must be C-contiguous, got strides=(16,) for itemsize=8"),
    "W read-only": (pass_arguments(W=read_only(np.ones(2, dtype=np.int64))), ValueError,
                    "W must be writable, got a read-only buffer"),
    "tie int64": (pass_arguments(tie=np.zeros(3, dtype=np.int64)), TypeError,
                  f"tie must hold bool or uint8 items, got format='{I64}' itemsize=8"),
    "tie int8": (pass_arguments(tie=np.zeros(3, dtype=np.int8)), TypeError,
                 "tie must hold bool or uint8 items, got format='b' itemsize=1"),
    "tie too short": (pass_arguments(tie=np.zeros(2, dtype=bool)), ValueError, "tie has length 2 but Z has 3 rows"),
    "tie every other": (pass_arguments(tie=np.zeros(6, dtype=bool)[::2]), ValueError,
                        "tie must be C-contiguous, got strides=(2,) for itemsize=1"),
    "norms int32": (pass_arguments(norms=np.zeros(3, dtype=np.int32)), TypeError,
                    f"norms must hold int64 items, got format='{buffer_format(np.int32)}' itemsize=4"),
    "norms too long": (pass_arguments(norms=np.zeros(4, dtype=np.int64)), ValueError,
                       "norms has length 4 but Z has 3 rows"),
    "counts too short": (pass_arguments(counts=np.zeros(2, dtype=np.int64)), ValueError,
                         "counts has length 2 but Z has 3 rows"),
    "counts read-only": (pass_arguments(counts=read_only(np.zeros(3, dtype=np.int64))), ValueError,
                         "counts must be writable, got a read-only buffer"),
    "out_i read-only": (pass_arguments(out_i=read_only(np.zeros(2, dtype=np.int64))), ValueError,
                        "out_i must be writable, got a read-only buffer"),
    "out_s read-only": (pass_arguments(out_s=read_only(np.zeros(2, dtype=np.int64))), ValueError,
                        "out_s must be writable, got a read-only buffer"),
    "out_s bytes": (pass_arguments(out_s=bytes(16)), TypeError,
                    "out_s must hold int64 items, got format='B' itemsize=1"),
    "out_i and out_s of two lengths": (pass_arguments(out_s=np.zeros(3, dtype=np.int64)), ValueError,
                                       "out_i must have a length >= 1 and out_s the same or twice it, got 2 and 3"),
    "out_i and out_s empty": (pass_arguments(out_i=np.zeros(0, dtype=np.int64), out_s=np.zeros(0, dtype=np.int64)),
                              ValueError, "out_i must have a length >= 1 and out_s the same or twice it, got 0 and 0"),
    "start negative": (pass_arguments(start=-1), ValueError, "start=-1 must satisfy 0 <= start <= n=3"),
    "start past n": (pass_arguments(start=4), ValueError, "start=4 must satisfy 0 <= start <= n=3"),
    "start huge": (pass_arguments(start=2**80), ValueError, f"start={2**80} must satisfy 0 <= start <= n=3"),
    "start hugely negative": (pass_arguments(start=-(2**80)), ValueError,
                              f"start={-(2**80)} must satisfy 0 <= start <= n=3"),
    "start a float": (pass_arguments(start=1.0), TypeError, "start=1.0 must be an int, got float"),
    "start a string": (pass_arguments(start="0"), TypeError, "start='0' must be an int, got str"),
    "w_sq a float": (pass_arguments(w_sq=2.0), TypeError, "w_sq must be an int, got float"),
    "limit None": (pass_arguments(limit=None), TypeError, "limit must be an int, got NoneType"),
    "w_sq above limit": (pass_arguments(w_sq=11), ValueError, "w_sq=11 must satisfy 0 <= w_sq <= limit=10"),
    "w_sq negative": (pass_arguments(w_sq=-1), ValueError, "w_sq=-1 must satisfy 0 <= w_sq <= limit=10"),
    "limit negative": (pass_arguments(w_sq=0, limit=-1), ValueError, "limit=-1 must satisfy 0 <= limit < 2^126"),
    "limit 2^126": (pass_arguments(limit=2**126), ValueError, f"limit={2**126} must satisfy 0 <= limit < 2^126"),
    "w_sq -2^127 fits but is negative": (pass_arguments(w_sq=-(2**127)), ValueError,
                                         f"w_sq={-(2**127)} must satisfy 0 <= w_sq <= limit=10"),
    "w_sq 2^127": (pass_arguments(w_sq=2**127), OverflowError, f"w_sq={2**127} does not fit in 128 bits"),
    "w_sq below -2^127": (pass_arguments(w_sq=-(2**127) - 1), OverflowError,
                          f"w_sq={-(2**127) - 1} does not fit in 128 bits"),
    "limit 2^200": (pass_arguments(limit=2**200), OverflowError, f"limit={2**200} does not fit in 128 bits"),
}


@needs_kernel
def test_c_pass_takes_the_good_arguments():
    assert _kernel.online_pass is not None  # needs_kernel: the C kernel imported
    # So that each bad case below fails for its one change: row 0 scores -1, W becomes (1, 0).
    args = pass_arguments()
    assert _kernel.online_pass(*args) == (1, 3, 1, False)
    W, counts, out_i, out_s = args[1], args[4], args[5], args[6]
    assert (W.tolist(), counts.tolist(), out_i[:1].tolist(), out_s[:1].tolist()) == ([1, 0], [1, 0, 0], [0], [-1])


@needs_kernel
def test_c_pass_takes_numpy_integers_like_python_ints():
    assert _kernel.online_pass is not None  # needs_kernel: the C kernel imported
    args = list(pass_arguments())
    args[7:10] = [np.int64(0), np.int64(2), np.int32(10)]
    assert _kernel.online_pass(*args) == (1, 3, 1, False)


@needs_kernel
@pytest.mark.parametrize("case", BAD_PASS_ARGUMENTS.values(), ids=BAD_PASS_ARGUMENTS.keys())
def test_c_pass_rejects_bad_arguments_with_the_whole_message(case):
    assert _kernel.online_pass is not None  # needs_kernel: the C kernel imported
    args, error, message = case
    arrays = [a for a in args if isinstance(a, np.ndarray)]
    before = [a.copy() for a in arrays]
    with pytest.raises(error) as raised:
        _kernel.online_pass(*args)
    assert type(raised.value) is error and str(raised.value) == f"online_pass(): {message}"
    assert all(np.array_equal(a, b) for a, b in zip(arrays, before))  # nothing was written


@needs_kernel
@pytest.mark.parametrize("count", [0, 9, 14])
def test_c_pass_rejects_a_wrong_number_of_arguments(count):
    assert _kernel.online_pass is not None  # needs_kernel: the C kernel imported
    args = (pass_arguments() + (0, 0, 0, 0))[:count]
    with pytest.raises(TypeError) as raised:
        _kernel.online_pass(*args)
    assert str(raised.value) == ("online_pass() takes 10 arguments (Z, W, tie, norms, counts, out_i, out_s, "
                                 f"start, w_sq, limit), 11 with epochs, 12 with a filter or 13 with most, got {count}")


@needs_kernel
def test_c_pass_has_the_reference_signature():
    assert _kernel.online_pass is not None  # needs_kernel: the C kernel imported
    # The C docstring's signature line and the reference name the same parameters, in order.
    c = list(inspect.signature(_kernel.online_pass).parameters)
    assert c == list(inspect.signature(online_pass_reference).parameters)
    assert c == ["Z", "W", "tie", "norms", "counts", "out_i", "out_s", "start", "w_sq", "limit"]


@pytest.mark.parametrize("changes, message", [
    ({"start": -1}, "start=-1 must satisfy 0 <= start <= n=3"),
    ({"start": 4}, "start=4 must satisfy 0 <= start <= n=3"),
    ({"w_sq": 11}, "w_sq=11 must satisfy 0 <= w_sq <= limit=10"),
    ({"w_sq": -1}, "w_sq=-1 must satisfy 0 <= w_sq <= limit=10"),
], ids=["start negative", "start past n", "w_sq above limit", "w_sq negative"])
def test_reference_rejects_what_the_c_pass_rejects_alike(changes, message):
    with pytest.raises(ValueError) as raised:
        online_pass_reference(*pass_arguments(**changes))
    assert str(raised.value) == f"online_pass_reference(): {message}"


@needs_kernel
def test_c_pass_reads_any_buffer():
    assert _kernel.online_pass is not None  # needs_kernel: the C kernel imported
    # Z = [[1, -1], [-2, 1]] as a 2-D memoryview of int16 and of int64, the rest array.array,
    # tie as read-only bytes: row 0 ties at W = (1, 1), row 1 scores -1.
    code: Literal["h", "q"]  # the formats memoryview.cast takes, for int16 and int64
    for code in ("h", "q"):
        Z = memoryview(array.array(code, [1, -1, -2, 1])).cast("B").cast(code, (2, 2))
        for ties, expected in [(bytes([0, 0]), ((1, 2, 5, False), [-1, 2], [0, 1], [1], [-1])),
                               (bytes([1, 0]), ((1, 1, 4, False), [2, 0], [1, 0], [0], [0]))]:
            W, counts = array.array("q", [1, 1]), array.array("q", [0, 0])
            out_i, out_s = array.array("q", [0]), array.array("q", [0])
            result = _kernel.online_pass(Z, W, ties, array.array("q", [2, 5]), counts, out_i, out_s, 0, 2, 100)
            assert (result, W.tolist(), counts.tolist(), out_i.tolist(), out_s.tolist()) == expected


@needs_kernel
def test_c_pass_gives_the_same_answers_from_many_threads():
    rng = np.random.default_rng(0)
    Z = rng.integers(-5, 6, size=(3000, 40), dtype=np.int32)
    W0 = rng.integers(-5, 6, size=40, dtype=np.int64)
    tie, norms = rng.random(3000) < 0.2, exact_norms(Z)
    w_sq, limit = int(W0 @ W0), largest_limit(norms)
    starts = list(range(0, 3000, 97))
    expected = [run_pass(online_pass_reference, Z, W0, tie, norms, s, w_sq, limit, 50) for s in starts]
    with ThreadPoolExecutor(max_workers=4) as pool:
        found = list(pool.map(lambda s: run_pass(_kernel.online_pass, Z, W0, tie, norms, s, w_sq, limit, 50), starts))
    assert found == expected


@needs_kernel
def test_c_pass_lets_other_threads_run_while_it_scans():
    step = _kernel.online_pass
    assert step is not None  # needs_kernel: the C kernel imported
    # A pass over 200,000 x 64 rows without a mistake takes milliseconds. With the switch
    # interval raised, a thread gives up the GIL only when it chooses to (sleep(0) here, the
    # pass's own release there): were the GIL held during the pass, the main thread could
    # not run between the worker's two clock readings.
    Z, W = np.ones((200_000, 64), dtype=np.int16), np.ones(64, dtype=np.int64)
    tie, norms, counts = np.zeros(len(Z), dtype=bool), np.full(len(Z), 64, dtype=np.int64), np.zeros(len(Z), np.int64)
    out_i, out_s = np.zeros(16, dtype=np.int64), np.zeros(16, dtype=np.int64)
    go = threading.Event()
    spans: list[tuple[float, float]] = []
    results: list[tuple[int, ...]] = []

    def scan() -> None:  # 20 passes, so that a busy machine (xdist's other worker) cannot hide all of them
        go.wait()
        for _ in range(20):
            entered = time.perf_counter()
            results.append(step(Z, W, tie, norms, counts, out_i, out_s, 0, 64, 10**6))
            spans.append((entered, time.perf_counter()))

    interval = sys.getswitchinterval()
    sys.setswitchinterval(100)
    try:
        worker = threading.Thread(target=scan)
        worker.start()
        ticks = []
        go.set()
        while worker.is_alive():
            ticks.append(time.perf_counter())
            time.sleep(0)  # lets the worker take the GIL whenever it wants it
        worker.join()
    finally:
        sys.setswitchinterval(interval)
    assert len(spans) == 20 and set(results) == {(0, 200_000, 64, False)}
    assert any(entered < tick < left for entered, left in spans for tick in ticks)



# --- the loader -----------------------------------------------------------------------------


def test_loader_falls_back_to_none_without_the_extension(monkeypatch):
    monkeypatch.setitem(sys.modules, "verify_perceptron.run._scan", None)  # makes the import fail
    spec = importlib.util.spec_from_file_location("verify_perceptron.run._kernel_without_scan", _kernel.__file__)
    assert spec is not None and spec.loader is not None
    loader = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loader)
    assert (loader.AVAILABLE, loader.online_pass) == (False, None)
    assert loader.IMPORT_ERROR is not None and "verify_perceptron.run._scan" in loader.IMPORT_ERROR


@pytest.mark.skipif(os.environ.get("VERIFY_PERCEPTRON_REQUIRE_KERNEL") != "1",
                    reason="set VERIFY_PERCEPTRON_REQUIRE_KERNEL=1 to demand the compiled kernel")
def test_kernel_is_built_when_required():
    assert AVAILABLE, f"VERIFY_PERCEPTRON_REQUIRE_KERNEL=1 but the C kernel did not import: {_kernel.IMPORT_ERROR}"


# ------------------------------------------------------------------------------------------------
# online_pass with epochs: a run through several epochs in one call


def epochs_by_hand(Z, W, tie, norms, counts, cap, start, w_sq, limit, epoch, made, max_epochs, stop_epoch,
                   per_epoch, work, saved, previous):
    """The epochs mode by its definition: passes by hand, carried on while the caller has nothing to do.

    `previous` (W after the epoch before, or empty if unknown) is updated in place at each epoch gone past.
    """
    weights = [int(v) for v in W.tolist()]
    rows, scores, epochs = [], [], []
    n, i, guarded, scanned = len(Z), start, False, 0
    while True:
        while i < n:
            s = sum(int(z) * w for z, w in zip(Z[i].tolist(), weights))
            if s < 0 or (s == 0 and tie[i]):
                after = w_sq + 2 * s + int(norms[i])
                if after > limit:
                    guarded = True
                    break
                weights = [w + int(z) for w, z in zip(weights, Z[i].tolist())]
                w_sq = after
                counts[i] += 1
                rows.append(i)
                scores.append(s)
                epochs.append(epoch)
                made += 1
                if len(rows) == cap:
                    i += 1
                    break
            i += 1
        scanned += n
        if guarded or i < n:
            break
        same = len(saved) == len(weights) and weights == [int(v) for v in saved.tolist()]
        known = len(previous) == len(weights)
        repeat = known and weights == [int(v) for v in previous.tolist()]  # a period of one epoch
        if (made == 0 or per_epoch or epoch >= max_epochs or epoch == stop_epoch or same or not known or repeat
                or len(rows) == cap or scanned >= work):
            break
        previous[:] = weights
        epoch, made, i = epoch + 1, 0, 0
    W[:] = weights
    return (len(rows), i, w_sq, guarded, epoch, made), rows, scores, epochs


@needs_kernel
@given(problem=pass_problems(max_rows=6, max_width=3), data=st.data())
def test_c_epochs_equal_the_definition(problem, data):
    assert _kernel.online_pass is not None  # needs_kernel: the C kernel imported
    Z, W, tie, norms, w_sq, limit = problem
    n, d = Z.shape
    cap = data.draw(st.integers(1, 12))
    max_epochs = data.draw(st.integers(1, 6))
    stop_epoch = data.draw(st.integers(1, 8))
    per_epoch = data.draw(st.integers(0, 1))
    work = data.draw(st.sampled_from([1, n + 1, 10**6]))
    saved = np.zeros(0, dtype=np.int64) if data.draw(st.booleans()) else W.copy()  # the start recurs?
    # The epoch before: unknown, W itself (an epoch with a zero net step repeats it) or other weights.
    previous = data.draw(st.sampled_from([np.zeros(0, dtype=np.int64), W.copy(), W + 1]))
    previous_c, previous_h = previous.copy(), previous.copy()
    start = data.draw(st.integers(0, n))
    counts_c, counts_h = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    W_c, W_h = W.copy(), W.copy()
    out_i, out_s, out_e = (np.zeros(cap, dtype=np.int64) for _ in range(3))
    got: tuple[int, ...] = _kernel.online_pass(  # with epochs: 6 numbers, the pass's 4 then epoch and made
        np.ascontiguousarray(Z), W_c, tie, norms, counts_c, out_i, out_s, start, w_sq, limit,
        (out_e, saved, previous_c, 1, 0, max_epochs, stop_epoch, per_epoch, work))
    expected, rows, scores, epochs = epochs_by_hand(Z, W_h, tie, norms, counts_h, cap, start, w_sq, limit, 1, 0,
                                                    max_epochs, stop_epoch, per_epoch, work, saved, previous_h)
    m = got[0]
    assert got == expected
    assert (out_i[:m].tolist(), out_s[:m].tolist(), out_e[:m].tolist()) == (rows, scores, epochs)
    assert W_c.tolist() == W_h.tolist() and counts_c.tolist() == counts_h.tolist()
    assert previous_c.tolist() == previous_h.tolist()


@needs_kernel
def test_c_epochs_run_the_and_example_to_convergence_in_one_call():
    assert _kernel.online_pass is not None  # needs_kernel: the C kernel imported
    from verify_perceptron.run import fast
    from verify_perceptron.notes.conventions import CONVENTIONS
    from verify_perceptron.data.examples import example

    data = example("and")
    matrix = fast.sample_matrix(data, CONVENTIONS["classic"])
    Z, norms = np.ascontiguousarray(matrix.exact), matrix.norms
    W, counts = np.zeros(3, dtype=np.int64), np.zeros(4, dtype=np.int64)
    out_i, out_s, out_e = (np.zeros(64, dtype=np.int64) for _ in range(3))
    tie = np.ones(4, dtype=bool)  # classic: a score of 0 is a mistake
    got: tuple[int, ...] = _kernel.online_pass(
        Z, W, tie, norms, counts, out_i, out_s, 0, 0, largest_limit(norms),
        (out_e, np.zeros(0, dtype=np.int64), np.zeros(3, dtype=np.int64), 1, 0, 100, 100, 0, 10**6))
    assert got == (18, 4, 29, False, 9, 0)  # 18 updates; epoch 9 made none; ‖(-4, 3, 2)‖² = 29
    assert W.tolist() == [-4, 3, 2]
    from verify_perceptron.run.reference import train

    reference = train(data, "classic")
    assert out_e[:18].tolist() == [u.epoch for u in reference.updates]
    assert out_i[:18].tolist() == [u.samples[0] for u in reference.updates]


@needs_kernel
def test_c_epochs_stop_at_the_first_repeat_of_period_one():
    assert _kernel.online_pass is not None  # needs_kernel: the C kernel imported
    # XOR under the hard limiter: the weights after epoch 3 equal those after epoch 2 (its four mistakes
    # sum to a zero step); the pass stops there, after 9 mistakes, not one epoch or more later.
    from verify_perceptron.run import fast
    from verify_perceptron.notes.conventions import CONVENTIONS, tie_rule
    from verify_perceptron.data.examples import example
    from fractions import Fraction

    data, conv = example("xor"), CONVENTIONS["hard-limiter"]
    matrix = fast.sample_matrix(data, conv)
    Z, norms = np.ascontiguousarray(matrix.exact), matrix.norms
    W, counts, previous = np.zeros(3, dtype=np.int64), np.zeros(4, dtype=np.int64), np.zeros(3, dtype=np.int64)
    out_i, out_s, out_e = (np.zeros(64, dtype=np.int64) for _ in range(3))
    tie = tie_rule(conv, Fraction(1), data.y_array)
    got: tuple[int, ...] = _kernel.online_pass(
        Z, W, tie, norms, counts, out_i, out_s, 0, 0, largest_limit(norms),
        (out_e, np.zeros(0, dtype=np.int64), previous, 1, 0, 100, 100, 0, 10**6))
    assert got[0] == 9 and got[1] == 4 and got[4:] == (3, 4)  # 9 mistakes; epoch 3 made 4 of them
    assert previous.tolist() == W.tolist()  # W after epoch 2, which epoch 3 came back to
    assert out_e[:9].tolist() == [1, 1, 2, 2, 2, 3, 3, 3, 3] and out_i[:9].tolist() == [1, 3, 1, 2, 3, 0, 1, 2, 3]
    unknown: tuple[int, ...] = _kernel.online_pass(Z, np.zeros(3, dtype=np.int64), tie, norms, np.zeros(4, dtype=np.int64), out_i,
                                  out_s, 0, 0, largest_limit(norms),
                                  (out_e, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), 1, 0, 100, 100,
                                   0, 10**6))
    assert unknown[4] == 1  # the epoch before unknown: the pass stops at the end of this one


@needs_kernel
@pytest.mark.parametrize("epochs, message", [
    ((np.zeros(2, np.int64),), "epochs must be a tuple"),
    ((np.zeros(2, np.int64), np.zeros(0, np.int64), 1, 0, 5, 5, 0, 10), "epochs must be a tuple"),
    ((np.zeros(1, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64), 1, 0, 5, 5, 0, 10),
     "epochs needs out_e as long as out_i"),
    ((np.zeros(2, np.int64), np.zeros(1, np.int64), np.zeros(0, np.int64), 1, 0, 5, 5, 0, 10),
     "saved and previous each empty or of length d=2"),
    ((np.zeros(2, np.int64), np.zeros(0, np.int64), np.zeros(3, np.int64), 1, 0, 5, 5, 0, 10),
     "saved and previous each empty or of length d=2"),
    ((np.zeros(2, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64), 0, 0, 5, 5, 0, 10),
     "1 <= epoch <= max_epochs"),
    ((np.zeros(2, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64), 1, 0, 5, 5, 0, 0), "work >= 1"),
    ((np.zeros(2, np.int32), np.zeros(0, np.int64), np.zeros(0, np.int64), 1, 0, 5, 5, 0, 10),
     "out_e must hold int64 items"),
    ((np.zeros(2, np.int64), np.zeros(0, np.int64), np.zeros(2, np.int32), 1, 0, 5, 5, 0, 10),
     "previous must hold int64 items"),
    ((np.zeros(2, np.int64), np.zeros(0, np.int64), read_only(np.zeros(2, np.int64)), 1, 0, 5, 5, 0, 10),
     "previous must be writable"),
])
def test_c_epochs_reject_a_bad_epochs_argument(epochs, message):
    assert _kernel.online_pass is not None  # needs_kernel: the C kernel imported
    online_pass: Callable[..., object] = _kernel.online_pass  # called with wrong arguments on purpose
    with pytest.raises((TypeError, ValueError), match=re.escape(message)):
        online_pass(*pass_arguments(), epochs)


@given(st.lists(st.integers(-(2**127), 2**127 - 1), max_size=8), st.lists(st.integers(-(2**63), 2**63 - 1), max_size=8))
def test_scores_in_halves_read_back_as_the_same_integers(wide, narrow):
    from verify_perceptron.check.replay import in_halves
    from verify_perceptron.data.integers import as_halves, score_values

    halves = in_halves(np.array(wide, dtype=object)).reshape(-1, 2)
    assert score_values(halves).tolist() == wide
    small = np.array(narrow, dtype=np.int64)
    assert score_values(as_halves(small)).tolist() == narrow
    assert score_values(as_halves(small)).dtype == np.int64  # every one fits: int64 again
    assert in_halves(as_halves(small)).tolist() == in_halves(np.array(narrow, dtype=object)).tolist()


def _never_overflows() -> NoReturn:
    """The overflow of a store these tests never fill."""
    raise AssertionError("a store of 2^20 bytes overflowed on a few updates")


def test_a_run_kept_for_replay_joins_int64_chunks_and_chunks_in_halves_in_order():
    from verify_perceptron.pipeline import _Store

    class Collect:
        def __init__(self):
            self.seen = []

        def observe(self, k, epoch, samples, scores):
            self.seen.append((k, epoch, samples[0], scores[0]))

    store = _Store(2**20, overflow=_never_overflows)
    store.observe_chunk(1, 1, np.array([0, 1]), np.array([-3, 0], dtype=np.int64))
    store.observe_chunk(3, 2, np.array([2]), np.array([[0, -1]], dtype=np.int64))  # -2^64, in halves
    sink = Collect()
    store.replay(sink)
    assert sink.seen == [(1, 1, 0, -3), (2, 1, 1, 0), (3, 2, 2, -(2**64))]


@pytest.mark.parametrize("last_row", [1, 127, 128, 32767, 32768, 2**31])
def test_a_run_kept_for_replay_is_kept_compactly_and_replayed_as_one_chunk(last_row, monkeypatch):
    # Rows in the narrowest integers that hold them, epochs as runs, and updates made one at a time
    # (past the compiled pass's guard, scores up to 2^127 and past it) joined into the chunks' one call.
    from verify_perceptron.pipeline import _Store

    class Collect:
        def __init__(self):
            self.calls = []

        def observe(self, k, epoch, samples, scores):  # an Observer's one-by-one form, which a kept run never uses
            raise AssertionError(f"update {k} replayed one at a time, not in its chunk")

        def observe_chunk(self, first, epoch, rows, scores):
            self.calls.append((first, np.asarray(epoch).tolist(), rows.tolist(), score_values(scores).tolist()))

    store = _Store(2**20, overflow=_never_overflows)
    store.observe_chunk(1, np.array([1, 1, 2, 2, 2, 4]), np.array([0, last_row, 0, 1, last_row, 0]),
                        np.array([-3, 0, -1, -2, 0, -5], dtype=np.int64))
    narrow = 1 if last_row < 128 else 2 if last_row < 2**15 else 8 if last_row >= 2**31 else 4
    assert store.used == 6 * narrow + 6 * 8 + 2 * 3 * 8  # rows, scores, and three runs of epochs
    store.observe(7, 4, [last_row], [-(2**100)])
    store.observe_chunk(8, 5, np.array([0]), np.array([[0, -1]], dtype=np.int64))  # -2^64, in halves
    store.observe(9, 5, [1], [-7])
    sink = Collect()
    store.replay(sink)
    assert sink.calls == [(1, [1, 1, 2, 2, 2, 4, 4, 5, 5], [0, last_row, 0, 1, last_row, 0, last_row, 0, 1],
                           [-3, 0, -1, -2, 0, -5, -(2**100), -(2**64), -7])]
    assert store.items == []  # replayed once: nothing is kept after
    # in chunks of at least REPLAY_CHUNK updates (but the last): the same updates, in order
    from verify_perceptron import pipeline

    store.observe_chunk(1, np.array([1, 1, 2, 2, 2, 4]), np.array([0, last_row, 0, 1, last_row, 0]),
                        np.array([-3, 0, -1, -2, 0, -5], dtype=np.int64))
    store.observe(7, 4, [last_row], [-(2**100)])
    store.observe(8, 5, [1], [-7])
    sink = Collect()
    monkeypatch.setattr(pipeline, "REPLAY_CHUNK", 4)
    store.replay(sink)
    assert sink.calls == [(1, [1, 1, 2, 2, 2, 4], [0, last_row, 0, 1, last_row, 0], [-3, 0, -1, -2, 0, -5]),
                          (7, [4, 5], [last_row, 1], [-(2**100), -7])]
    monkeypatch.undo()
    store.observe_chunk(1, 1, np.array([0]), np.array([[0, -1]], dtype=np.int64))
    store.observe(2, 1, [last_row], [-(2**130)])  # past 128 bits: Python integers
    sink = Collect()
    store.replay(sink)
    assert sink.calls == [(1, [1, 1], [0, last_row], [-(2**64), -(2**130)])]


@pytest.mark.parametrize("step", IMPLEMENTATIONS)
def test_a_norm_in_halves_of_2_to_the_126_is_refused(step):
    Z = np.array([[1, 0]], dtype=np.int64)
    norms = as_halves(np.array([2**126], dtype=object)).reshape(-1)
    args = (Z, np.zeros(2, dtype=np.int64), np.zeros(1, dtype=bool), norms,
            np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64), 0, 0, 10)
    with pytest.raises(ValueError, match=r"norms\[0\] given in halves"):
        step(*args)
