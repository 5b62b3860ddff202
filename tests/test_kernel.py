"""The compiled online pass equals its Python reference and both equal a plain loop; the compiled
checker replay equals a plain replay, and stops where Python must decide."""

from __future__ import annotations

import array
import functools
import importlib.util
import inspect
import math
import os
import re
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from verify_perceptron.run import kernel as _kernel
from verify_perceptron.check import checker as checks
from verify_perceptron.run.kernel import AVAILABLE, online_pass_reference
from verify_perceptron.notes.claims import CLAIMS, OPS, QUANTITIES, compile_program

needs_kernel = pytest.mark.skipif(not AVAILABLE, reason=f"the C kernel is not built: {_kernel.IMPORT_ERROR}")

#: Every implementation of online_pass: each must agree with the plain loop below.
IMPLEMENTATIONS = [
    pytest.param(online_pass_reference, id="reference"),
    pytest.param(_kernel.online_pass, id="c", marks=needs_kernel),
]

INT64_MAX = 2**63 - 1
#: The engine's guard: limit · max ‖z_i‖² < 2^126 (verify_perceptron.data.integers.INT64_EXACT_SQ).
EXACT_SQ = 2**126
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
    added, found = [0] * len(rows), []
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


def exact_norms(Z):
    """‖z_i‖² of every row, exactly (the caller's precondition), as int64."""
    return np.array([sum(int(v) ** 2 for v in row) for row in Z.tolist()], dtype=np.int64).reshape(len(Z))


def largest_limit(norms):
    """The largest limit the precondition limit · max ‖z_i‖² < 2^126 allows."""
    return (EXACT_SQ - 1) // max(int(norms.max(initial=0)), 1)


@st.composite
def pass_problems(draw, *, max_rows=10, max_width=5, dtypes=(np.int16, np.int32, np.int64)):
    """``(Z, W, tie, norms, w_sq, limit)`` meeting every precondition of `online_pass`.

    Entries run from small (scores of 0, so ties decide) to the largest the dtype and an int64
    ‖z_i‖² allow; W from small to the largest the guard allows, so that ‖W‖² starts on either
    side of 2^62, where the C pass switches between its int32 and int64 copies of W. The limit
    is the guard itself or just above ‖W‖², so that the pass often stops at the guard.
    """
    dtype = draw(st.sampled_from(dtypes))
    n, d = draw(st.integers(0, max_rows)), draw(st.integers(0, max_width))
    info = np.iinfo(dtype)
    bound = math.isqrt(INT64_MAX // max(d, 1))  # d · bound² fits in int64: norms can hold ‖z_i‖²
    lo, hi = max(int(info.min), -bound), min(int(info.max), bound)
    entries = st.one_of(st.integers(-2, 2), st.integers(lo, hi), st.sampled_from([lo, hi]))
    Z = np.array(draw(st.lists(entries, min_size=n * d, max_size=n * d)), dtype=dtype).reshape(n, d)
    norms = exact_norms(Z)
    guard = largest_limit(norms)
    w_bound = min(INT64_MAX, math.isqrt(guard // max(d, 1)))  # then ‖W‖² <= d · w_bound² <= guard
    weights = st.one_of(st.integers(-2, 2), st.integers(-w_bound, w_bound))
    W = np.array(draw(st.lists(weights, min_size=d, max_size=d)), dtype=np.int64)
    w_sq = sum(int(v) ** 2 for v in W.tolist())
    step = 2 * int(norms.max(initial=0)) + 4
    limit = draw(st.one_of(st.just(guard), st.integers(w_sq, min(guard, w_sq + step)), st.integers(w_sq, guard)))
    tie = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    if draw(st.booleans()):
        tie = tie.astype(np.uint8)
    return Z, W, tie, norms, w_sq, limit


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
    position, guarded, found = 0, False, []
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


def buffer_format(dtype) -> str:
    """The buffer protocol's format string for a dtype: 'l' or 'q' for int64, by platform."""
    return memoryview(np.zeros(1, dtype=dtype)).format


def read_only(a):
    """`a`, no longer writable."""
    a.flags.writeable = False
    return a


def pass_arguments(**changes):
    """Good arguments for a 3 x 2 problem (row 0 is a mistake), with some replaced."""
    Z = np.arange(6, dtype=np.int64).reshape(3, 2) * [1, -1]
    good = {"Z": Z, "W": np.array([1, 1], dtype=np.int64), "tie": np.zeros(3, dtype=bool),
            "norms": exact_norms(Z), "counts": np.zeros(3, dtype=np.int64), "out_i": np.zeros(2, dtype=np.int64),
            "out_s": np.zeros(2, dtype=np.int64), "start": 0, "w_sq": 2, "limit": 10}
    good.update(changes)
    return tuple(good.values())


I64 = buffer_format(np.int64)
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
                                       "out_i and out_s must have one length >= 1, got 2 and 3"),
    "out_i and out_s empty": (pass_arguments(out_i=np.zeros(0, dtype=np.int64), out_s=np.zeros(0, dtype=np.int64)),
                              ValueError, "out_i and out_s must have one length >= 1, got 0 and 0"),
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
    # So that each bad case below fails for its one change: row 0 scores -1, W becomes (1, 0).
    args = pass_arguments()
    assert _kernel.online_pass(*args) == (1, 3, 1, False)
    W, counts, out_i, out_s = args[1], args[4], args[5], args[6]
    assert (W.tolist(), counts.tolist(), out_i[:1].tolist(), out_s[:1].tolist()) == ([1, 0], [1, 0, 0], [0], [-1])


@needs_kernel
def test_c_pass_takes_numpy_integers_like_python_ints():
    args = list(pass_arguments())
    args[7:10] = [np.int64(0), np.int64(2), np.int32(10)]
    assert _kernel.online_pass(*args) == (1, 3, 1, False)


@needs_kernel
@pytest.mark.parametrize("case", BAD_PASS_ARGUMENTS.values(), ids=BAD_PASS_ARGUMENTS.keys())
def test_c_pass_rejects_bad_arguments_with_the_whole_message(case):
    args, error, message = case
    arrays = [a for a in args if isinstance(a, np.ndarray)]
    before = [a.copy() for a in arrays]
    with pytest.raises(error) as raised:
        _kernel.online_pass(*args)
    assert type(raised.value) is error and str(raised.value) == f"online_pass(): {message}"
    assert all(np.array_equal(a, b) for a, b in zip(arrays, before))  # nothing was written


@needs_kernel
@pytest.mark.parametrize("count", [0, 9, 12])
def test_c_pass_rejects_a_wrong_number_of_arguments(count):
    args = (pass_arguments() + (0, 0))[:count]
    with pytest.raises(TypeError) as raised:
        _kernel.online_pass(*args)
    assert str(raised.value) == ("online_pass() takes 10 arguments (Z, W, tie, norms, counts, out_i, out_s, "
                                 f"start, w_sq, limit), or 11 with epochs, got {count}")


@needs_kernel
def test_c_pass_has_the_reference_signature():
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
    # Z = [[1, -1], [-2, 1]] as a 2-D memoryview of int16 and of int64, the rest array.array,
    # tie as read-only bytes: row 0 ties at W = (1, 1), row 1 scores -1.
    for code in "hq":
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
    # A pass over 200,000 x 64 rows without a mistake takes milliseconds. With the switch
    # interval raised, a thread gives up the GIL only when it chooses to (sleep(0) here, the
    # pass's own release there): were the GIL held during the pass, the main thread could
    # not run between the worker's two clock readings.
    Z, W = np.ones((200_000, 64), dtype=np.int16), np.ones(64, dtype=np.int64)
    tie, norms, counts = np.zeros(len(Z), dtype=bool), np.full(len(Z), 64, dtype=np.int64), np.zeros(len(Z), np.int64)
    out_i, out_s = np.zeros(16, dtype=np.int64), np.zeros(16, dtype=np.int64)
    go, span = threading.Event(), []

    def scan() -> None:
        go.wait()
        entered = time.perf_counter()
        result = _kernel.online_pass(Z, W, tie, norms, counts, out_i, out_s, 0, 64, 10**6)
        span.extend([entered, time.perf_counter(), result])

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
    entered, left, result = span
    assert result == (0, 200_000, 64, False)
    assert any(entered < tick < left for tick in ticks)


# --- check_online: the definition ------------------------------------------------------------

#: The quantities check_online computes at each update, in the order `slots` lists them.
SLOT_NAMES = ("N", "k", "n", "n_max", "prev_w_sq", "prev_w_ws", "step_sq", "sum_N_xsq", "sum_n_sq", "w_sq", "w_ws")
SLOTS = np.array([QUANTITIES.index(name) for name in SLOT_NAMES], dtype=np.int64)
NO_PROGRAM, NO_CLAIMS = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=bool)
LOW, HIGH = -(2**127), 2**127  # a value of the replay must stay in [LOW, HIGH)
ONLINE_CLAIMS = [c for c in CLAIMS if "online" in c.modes]


def op(name, *operand):
    """One operation of a claims program."""
    return [OPS[name], *operand]


def quantity(name):
    """Code pushing a quantity."""
    return op("quantity", QUANTITIES.index(name))


def run_program_by_hand(code, q):
    """Each claim's value (one per END), or None when any value on the way leaves [-2^127, 2^127)."""
    stack, slacks, pc = [], [], 0
    while pc < len(code):
        o = code[pc]
        if o == OPS["end"]:
            slacks.append(stack.pop())
        elif o in (OPS["quantity"], OPS["constant"]):
            pc += 1
            stack.append(q[code[pc]] if o == OPS["quantity"] else code[pc])
        elif o == OPS["neg"]:
            stack.append(-stack.pop())
        elif o == OPS["**"]:
            pc += 1
            x, value = stack.pop(), 1
            for _ in range(code[pc]):  # x, x², x³, ...: each power on the way must fit too
                value *= x
                if not LOW <= value < HIGH:
                    return None
            stack.append(value)
        else:
            b, a = stack.pop(), stack.pop()
            stack.append({OPS["+"]: a + b, OPS["-"]: a - b, OPS["*"]: a * b}[o])
        if stack and not LOW <= stack[-1] < HIGH:
            return None
        pc += 1
    return slacks


def check_online_by_hand(Z, W, counts, tie, norms, margins, rows, scores, program, quantities, state, failed):
    """The replay as check_online defines it (its docstring, and its code where that says more:
    it also stops before an update that would END above the limit), in Python integers; W and
    counts in place."""
    k, N, w_sq, w_ws, sum_N_xsq, sum_n_sq, n_max, limit = state
    code, q = [int(v) for v in program], list(quantities)
    weights, best, done = [int(v) for v in W.tolist()], {}, 0
    for t, (i, reported) in enumerate(zip(rows.tolist(), scores.tolist())):
        if not 0 <= i < len(Z) or w_sq > limit:
            break
        z = [int(v) for v in Z[i].tolist()]
        s = sum(a * b for a, b in zip(z, weights))
        if s != reported or not (s < 0 or (s == 0 and tie[i])):
            break
        norm = int(norms[i])
        values = {"N": N + 1, "k": k + 1, "n": 1, "n_max": max(n_max, 1), "prev_w_sq": w_sq, "prev_w_ws": w_ws,
                  "step_sq": norm, "sum_N_xsq": sum_N_xsq + norm, "sum_n_sq": sum_n_sq + 1,
                  "w_sq": w_sq + 2 * s + norm, "w_ws": w_ws + int(margins[i])}
        if any(not LOW <= v < HIGH for v in values.values()) or values["w_sq"] > limit:
            break
        for name in SLOT_NAMES:
            q[QUANTITIES.index(name)] = values[name]
        slacks = run_program_by_hand(code, q)
        if slacks is None or any(value < 0 and not f for value, f in zip(slacks, failed)):
            break
        weights = [a + b for a, b in zip(weights, z)]
        counts[i] += 1
        k, N, n_max, sum_n_sq = values["k"], values["N"], values["n_max"], values["sum_n_sq"]
        sum_N_xsq, w_sq, w_ws = values["sum_N_xsq"], values["w_sq"], values["w_ws"]
        for c, value in enumerate(slacks):
            if c not in best or value < best[c][0]:  # the first update of the smallest slack
                best[c] = (value, t, tuple(q))
        done = t + 1
    W[:] = weights
    n_claims = len(failed)
    claims = [None] * n_claims if done == 0 else [best[c] for c in range(n_claims)]
    return done, (k, N, w_sq, w_ws, sum_N_xsq, sum_n_sq, n_max, limit), claims


def replay(check, Z, W, tie, norms, margins, rows, scores, *, program=NO_PROGRAM, quantities=(0,) * len(QUANTITIES),
           state=None, failed=NO_CLAIMS, limit=None):
    """What a replay does: its result, the new W and counts (from zeros); the caller's W is not touched."""
    W, counts = W.copy(), np.zeros(len(Z), dtype=np.int64)
    if state is None:
        w_sq = sum(int(v) ** 2 for v in W.tolist())
        state = (0, 0, w_sq, 0, 0, 0, 0, largest_limit(norms) if limit is None else limit)
    rows, scores = np.asarray(rows, dtype=np.int64), np.asarray(scores, dtype=np.int64)
    program, failed = np.asarray(program, dtype=np.int64), np.asarray(failed, dtype=bool)
    if check is check_online_by_hand:
        result = check(Z, W, counts, tie, norms, margins, rows, scores, program, quantities, state, failed)
    else:
        result = check(Z, W, counts, tie, norms, margins, rows, scores, program, quantities, SLOTS, state, failed)
    return result, W.tolist(), counts.tolist()


# A small run: from W = 0 with every tie a mistake, one pass makes five updates,
#   row 0 ties (W = (1, 0)), row 1 ties (1, 1), row 2 scores -1 (0, 1), row 3 scores -1 (0, 0), row 4 ties (1, 1),
# with ‖W‖² = 1, 2, 1, 0, 2. The margins are z_i·w* for w* = (2, 1).
DATA_Z = np.array([[1, 0], [0, 1], [-1, 0], [0, -1], [1, 1]], dtype=np.int64)
DATA_TIE, DATA_NORMS = np.ones(5, dtype=bool), exact_norms(DATA_Z)
DATA_MARGINS = np.array([2, 1, -2, -1, 3], dtype=np.int64)
DATA_W0 = np.zeros(2, dtype=np.int64)
DATA_LIMIT = largest_limit(DATA_NORMS)


def data_run():
    """The run's updates, as the engine reports them (the reference pass's out_i and out_s)."""
    W, counts = DATA_W0.copy(), np.zeros(5, dtype=np.int64)
    out_i, out_s = np.zeros(8, dtype=np.int64), np.zeros(8, dtype=np.int64)
    m, _, w_sq, _ = online_pass_reference(DATA_Z, W, DATA_TIE, DATA_NORMS, counts, out_i, out_s, 0, 0, DATA_LIMIT)
    return out_i[:m], out_s[:m], W, counts, w_sq


def data_replay(check, rows, scores, **options):
    """Replay updates of the small run."""
    return replay(check, DATA_Z, DATA_W0, DATA_TIE, DATA_NORMS, DATA_MARGINS, rows, scores, **options)


def quantities(**values):
    """A quantities tuple in the order of QUANTITIES, 0 where not given."""
    assert set(values) <= set(QUANTITIES)
    return tuple(values.get(name, 0) for name in QUANTITIES)


def test_the_small_run_is_as_worked_out():
    rows, scores, W, counts, w_sq = data_run()
    assert (rows.tolist(), scores.tolist(), W.tolist(), counts.tolist(), w_sq) == (
        [0, 1, 2, 3, 4], [0, 0, -1, -1, 0], [1, 1], [1, 1, 1, 1, 1], 2)


def test_ops_are_the_c_enum():
    # The program's numbering is the C replay's (enum OP_*), read from its source.
    source = (Path(_kernel.__file__).parent / "_scan.c").read_text()
    names = {"END": "end", "QUANTITY": "quantity", "CONSTANT": "constant", "ADD": "+", "SUB": "-", "MUL": "*",
             "NEG": "neg", "POW": "**"}
    enum = {names[name]: int(value) for name, value in re.findall(r"\bOP_([A-Z]+) = (\d+)", source)}
    assert enum == OPS == {"end": 0, "quantity": 1, "constant": 2, "+": 3, "-": 4, "*": 5, "neg": 6, "**": 7}


def test_checker_passes_the_slots_in_the_c_order():
    # check_online overwrites slots[j] with its j-th computed quantity (enum S_* in C).
    source = (Path(_kernel.__file__).parent / "_scan.c").read_text()
    enum = re.search(r"enum \{ (S_N, .*?), N_SLOTS \}", source, re.S)
    assert enum is not None
    c_order = [s.strip() for s in enum.group(1).split(",")]
    assert c_order == ["S_" + {"n": "SMALL_N"}.get(name, name.upper()) for name in SLOT_NAMES]
    assert checks._REPLAYED == SLOT_NAMES


# --- check_online: replays ---------------------------------------------------------------------

REPLAYS = [
    pytest.param(check_online_by_hand, id="by-hand"),
    pytest.param(_kernel.check_online, id="c", marks=needs_kernel),
]


@pytest.mark.parametrize("check", REPLAYS)
def test_replay_of_a_correct_run_ends_where_the_engine_did(check):
    rows, scores, W, counts, w_sq = data_run()
    result, W_after, counts_after = data_replay(check, rows, scores)
    # k = N = sum_n_sq = 5 updates; w_ws = 2 + 1 - 2 - 1 + 3; sum_N_xsq = 1 + 1 + 1 + 1 + 2.
    assert result == (5, (5, 5, 2, 3, 6, 5, 1, DATA_LIMIT), [])
    assert (W_after, counts_after) == (W.tolist(), counts.tolist()) == ([1, 1], [1, 1, 1, 1, 1])


@pytest.mark.parametrize("check", REPLAYS)
def test_replay_carries_on_from_any_state(check):
    # k and N are counted apart (each + 1 per update); n_max stays at its larger value; values past
    # int64 come back exactly.
    rows, scores, *_ = data_run()
    state = (10, 20, 0, -(2**100), 2**126, 50, 3, DATA_LIMIT)
    result, W_after, _ = data_replay(check, rows, scores, state=state)
    assert result == (5, (15, 25, 2, -(2**100) + 3, 2**126 + 6, 55, 3, DATA_LIMIT), [])
    assert W_after == [1, 1]


@pytest.mark.parametrize("check", REPLAYS)
def test_replay_of_no_updates_changes_nothing(check):
    state = (1, 2, 0, 4, 5, 6, 7, 8)
    assert data_replay(check, [], [], state=state) == ((0, state, []), [0, 0], [0, 0, 0, 0, 0])
    program, failed = quantity("N") + op("end"), [False]
    assert data_replay(check, [], [], state=state, program=program, failed=failed) == (
        (0, state, [None]), [0, 0], [0, 0, 0, 0, 0])


# Each: rows and scores with one bad update, how many come before it, and W, counts and state
# (k, N, w_sq, w_ws, sum_N_xsq, sum_n_sq, n_max) after those.
STOPS = {
    "not a mistake": ([0, 1, 0], [0, 0, 1], 2, [1, 1], [1, 1, 0, 0, 0], (2, 2, 2, 3, 2, 2, 1)),
    "a score that is not the true one": ([0, 1, 2], [0, 0, -2], 2, [1, 1], [1, 1, 0, 0, 0], (2, 2, 2, 3, 2, 2, 1)),
    "a row past the end": ([0, 5], [0, 0], 1, [1, 0], [1, 0, 0, 0, 0], (1, 1, 1, 2, 1, 1, 1)),
    "a row far past the end": ([0, 2**62], [0, 0], 1, [1, 0], [1, 0, 0, 0, 0], (1, 1, 1, 2, 1, 1, 1)),
    "a negative row": ([0, -1], [0, 0], 1, [1, 0], [1, 0, 0, 0, 0], (1, 1, 1, 2, 1, 1, 1)),
    "a wrong score at the first update": ([2], [-1], 0, [0, 0], [0, 0, 0, 0, 0], (0, 0, 0, 0, 0, 0, 0)),
}


@pytest.mark.parametrize("check", REPLAYS)
@pytest.mark.parametrize("case", STOPS.values(), ids=STOPS.keys())
def test_replay_stops_before_a_bad_update(check, case):
    rows, scores, done, W, counts, state = case
    result, W_after, counts_after = data_replay(check, rows, scores)
    assert result == (done, state + (DATA_LIMIT,), [])
    assert (W_after, counts_after) == (W, counts)


@pytest.mark.parametrize("check", REPLAYS)
def test_replay_stops_at_row_n_even_where_memory_follows(check):
    # Every array is the first 5 rows of a longer one whose row 5 would be a good update
    # (score 0, a tie): only the bound on the row index stops it.
    Z = np.vstack([DATA_Z, [[0, 0]]])[:5]
    tie, norms, margins = np.ones(6, dtype=bool)[:5], np.append(DATA_NORMS, 0)[:5], np.zeros(6, dtype=np.int64)[:5]
    assert Z.flags.c_contiguous and len(Z) == 5
    result = replay(check, Z, DATA_W0, tie, norms, margins, [0, 5], [0, 0])
    assert result == ((1, (1, 1, 1, 0, 1, 1, 1, largest_limit(norms)), []), [1, 0], [1, 0, 0, 0, 0])


@pytest.mark.parametrize("check", REPLAYS)
def test_replay_stops_at_a_score_that_wraps_128_bits_into_a_mistake(check):
    # 4·2^126 - 1 = 2^128 - 1 is -1 modulo 2^128: a wrapped 128-bit sum would confirm the
    # reported -1 as a mistake. The replay sums exactly, sees a score beyond int64 and stops.
    # (Only the score matters here: norms and the state's ‖W‖² are not this W's.)
    Z = np.array([[-(2**63)] * 4 + [1]], dtype=np.int64)
    W = np.array([-(2**63)] * 4 + [-1], dtype=np.int64)
    one = np.ones(1, dtype=np.int64)
    result = replay(check, Z, W, np.ones(1, dtype=bool), one, one, [0], [-1], state=(0, 0, 0, 0, 0, 0, 0, 10))
    assert result == ((0, (0, 0, 0, 0, 0, 0, 0, 10), []), W.tolist(), [0])


@pytest.mark.parametrize("check", REPLAYS)
def test_replay_stops_at_a_zero_score_without_a_tie(check):
    tie = np.array([False, True, True, True, True])
    result = replay(check, DATA_Z, DATA_W0, tie, DATA_NORMS, DATA_MARGINS, [0], [0])
    assert result == ((0, (0, 0, 0, 0, 0, 0, 0, DATA_LIMIT), []), [0, 0], [0, 0, 0, 0, 0])
    result = replay(check, DATA_Z, DATA_W0, tie.astype(np.uint8), DATA_NORMS, DATA_MARGINS, [1], [0])
    assert result == ((1, (1, 1, 1, 1, 1, 1, 1, DATA_LIMIT), []), [0, 1], [0, 1, 0, 0, 0])


@pytest.mark.parametrize("check", REPLAYS)
def test_replay_stops_before_an_update_past_the_limit(check):
    rows, scores, *_ = data_run()
    # ‖W‖² goes 0 → 1 → 2: the second update would leave the limit 1.
    assert data_replay(check, rows, scores, limit=1) == ((1, (1, 1, 1, 2, 1, 1, 1, 1), []), [1, 0], [1, 0, 0, 0, 0])
    # ‖W‖² = 2 is already above the limit 1: not even an update back to 1 is replayed.
    W = np.array([1, 1], dtype=np.int64)
    result = replay(check, DATA_Z, W, DATA_TIE, DATA_NORMS, DATA_MARGINS, [2], [-1], limit=1)
    assert result == ((0, (0, 0, 2, 0, 0, 0, 0, 1), []), [1, 1], [0, 0, 0, 0, 0])


@pytest.mark.parametrize("check", REPLAYS)
def test_replay_stops_before_a_state_beyond_128_bits(check):
    rows, scores, *_ = data_run()
    for j in (0, 1, 3, 4, 5):  # k, N, w_ws, sum_N_xsq, sum_n_sq, one at a time, about to leave 128 bits
        state = [0, 0, 0, 0, 0, 0, 0, DATA_LIMIT]
        state[j] = HIGH - 1
        if j == 3:
            state[j] = HIGH - 2  # the first margin is 2
        assert data_replay(check, rows, scores, state=tuple(state)) == ((0, tuple(state), []), [0, 0], [0, 0, 0, 0, 0])


# The mistake-bound claim N <= bound: with bound = 2, its slack bound - N is 1, 0, -1, ... at updates 1, 2, 3.
MISTAKE_BOUND = [c for c in CLAIMS if c.name == "mistake-bound"]
CONSTANT_VALUES = {"a": 1, "gamma": 1, "R_sq": 2, "ws_sq": 5, "beta": 6, "bound": 2}
# The quantities at updates 2 and 5 of the small run (positions 1 and 4 in rows).
AT_UPDATE_2 = quantities(**CONSTANT_VALUES, N=2, k=2, n=1, n_max=1, prev_w_sq=1, prev_w_ws=2, step_sq=1,
                         sum_N_xsq=2, sum_n_sq=2, w_sq=2, w_ws=3)
# The replayed quantities at update 1 (N, k, n, n_max, prev_w_sq, prev_w_ws, step_sq, sum_N_xsq, sum_n_sq, w_sq, w_ws).
FIRST_UPDATE = dict(zip(SLOT_NAMES, [1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 2]))
AT_UPDATE_5 = quantities(**CONSTANT_VALUES, N=5, k=5, n=1, n_max=1, prev_w_sq=0, prev_w_ws=0, step_sq=2,
                         sum_N_xsq=6, sum_n_sq=5, w_sq=2, w_ws=3)


@pytest.mark.parametrize("check", REPLAYS)
def test_replay_stops_before_a_claim_fails_unless_it_failed_already(check):
    code, scales = compile_program(MISTAKE_BOUND, {})
    assert (code, scales) == (quantity("bound") + quantity("N") + op("-") + op("end"), [1])
    rows, scores, *_ = data_run()
    options = {"program": code, "quantities": quantities(**CONSTANT_VALUES)}
    # Not yet failed: stop before update 3 (N = 3 > 2); the least slack so far is 0, at update 2.
    assert data_replay(check, rows, scores, failed=[False], **options) == (
        (2, (2, 2, 2, 3, 2, 2, 1, DATA_LIMIT), [(0, 1, AT_UPDATE_2)]), [1, 1], [1, 1, 0, 0, 0])
    # Already failed (Python reported it): every update is replayed; the least slack is 2 - 5, at update 5.
    assert data_replay(check, rows, scores, failed=[True], **options) == (
        (5, (5, 5, 2, 3, 6, 5, 1, DATA_LIMIT), [(-3, 4, AT_UPDATE_5)]), [1, 1], [1, 1, 1, 1, 1])


@pytest.mark.parametrize("check", REPLAYS)
def test_replay_evaluates_a_scaled_claim(check):
    # bound = 7/3: the program reads the numerator 7 and computes 3·(7/3 - N) = 7 - 3N: 4, 1, -2.
    code, scales = compile_program(MISTAKE_BOUND, {"bound": 3})
    rows, scores, *_ = data_run()
    values = quantities(**CONSTANT_VALUES | {"bound": 7})
    assert scales == [3]
    result = data_replay(check, rows, scores, program=code, quantities=values, failed=[False])
    assert result[0][:2] == (2, (2, 2, 2, 3, 2, 2, 1, DATA_LIMIT))
    assert result[0][2] == [(1, 1, quantities(**dict(zip(QUANTITIES, AT_UPDATE_2)) | {"bound": 7}))]
    value, _, snapshot = result[0][2][0]
    q = SimpleNamespace(**dict(zip(QUANTITIES, snapshot)) | {"bound": Fraction(7, 3)})
    assert Fraction(value, scales[0]) == MISTAKE_BOUND[0].slack(q)  # the claim's own slack, exactly


@pytest.mark.parametrize("check", REPLAYS)
def test_replay_keeps_each_claims_own_least_slack(check):
    # Two claims: bound - N (least at the last update) and w_sq (least, 0, at update 4; ties keep the first).
    code = quantity("bound") + quantity("N") + op("-") + op("end") + quantity("w_sq") + op("end")
    rows, scores, *_ = data_run()
    result, _, _ = data_replay(check, rows, scores, program=code, quantities=quantities(bound=10),
                               failed=[False, False])
    at_4 = quantities(bound=10, N=4, k=4, n=1, n_max=1, prev_w_sq=1, prev_w_ws=1, step_sq=1, sum_N_xsq=4,
                      sum_n_sq=4, w_sq=0, w_ws=0)
    at_5 = quantities(bound=10, **dict(zip(SLOT_NAMES, [5, 5, 1, 1, 0, 0, 2, 6, 5, 2, 3])))
    assert result == (5, (5, 5, 2, 3, 6, 5, 1, DATA_LIMIT), [(5, 4, at_5), (0, 3, at_4)])


# Each: a one-claim program over the quantities a = 3, gamma = -4, ws_sq = 2^60 and its value.
OPERATIONS = {
    "quantity": (quantity("gamma"), -4),
    "constant": (op("constant", -(2**63)), -(2**63)),
    "+": (quantity("a") + quantity("gamma") + op("+"), -1),
    "- (first minus second)": (quantity("a") + quantity("gamma") + op("-"), 7),
    "*": (quantity("a") + quantity("gamma") + op("*"), -12),
    "neg": (quantity("gamma") + op("neg"), 4),
    "** 1": (quantity("gamma") + op("**", 1), -4),
    "** 3": (quantity("gamma") + op("**", 3), -64),
    "** 16": (quantity("a") + op("**", 16), 3**16),
    "beyond int64": (quantity("ws_sq") + op("**", 2), 2**120),
    "a full stack of 64": (quantity("a") * 64 + op("+") * 63, 192),
    "a constant operand equal to END": (op("constant", 0) + quantity("a") + op("+"), 3),
}


@pytest.mark.parametrize("check", REPLAYS)
@pytest.mark.parametrize("case", OPERATIONS.values(), ids=OPERATIONS.keys())
def test_replay_computes_each_operation(check, case):
    code, value = case
    q = quantities(a=3, gamma=-4, ws_sq=2**60)
    result, _, _ = data_replay(check, [0], [0], program=code + op("end"), quantities=q, failed=[True])
    assert result[0] == 1 and result[2][0][:2] == (value, 0)


# Each: a one-claim program whose value leaves 128 bits on the way (or at the end).
OVERFLOWS = {
    "2^100 squared": (quantities(ws_sq=2**100), quantity("ws_sq") + op("**", 2)),
    "2^100 times 2^100": (quantities(ws_sq=2**100), quantity("ws_sq") + quantity("ws_sq") + op("*")),
    "2^126 + 2^126": (quantities(ws_sq=2**126), quantity("ws_sq") + quantity("ws_sq") + op("+")),
    "-2^127 - 1": (quantities(ws_sq=-(2**127)), quantity("ws_sq") + op("constant", 1) + op("-")),
    "-(-2^127)": (quantities(ws_sq=-(2**127)), quantity("ws_sq") + op("neg")),
    "2^64 cubed, back to 0": (quantities(ws_sq=2**64), quantity("ws_sq") + op("**", 3) + op("constant", 0) + op("*")),
}


@pytest.mark.parametrize("check", REPLAYS)
@pytest.mark.parametrize("case", OVERFLOWS.values(), ids=OVERFLOWS.keys())
def test_replay_stops_before_a_value_beyond_128_bits(check, case):
    q, code = case
    rows, scores, *_ = data_run()
    for failed in (False, True):  # a claim already failed does not let a wrong value through
        result = data_replay(check, rows, scores, program=code + op("end"), quantities=q, failed=[failed])
        assert result == ((0, (0, 0, 0, 0, 0, 0, 0, DATA_LIMIT), [None]), [0, 0], [0, 0, 0, 0, 0])


@pytest.mark.parametrize("check", REPLAYS)
def test_replay_returns_values_near_2_to_127_exactly(check):
    rows, scores, *_ = data_run()
    for value in (HIGH - 1, LOW, -(2**64), 2**64 - 1, 2**63, -(2**63) - 1):
        q = quantities(ws_sq=value)
        result, _, _ = data_replay(check, rows, scores, program=quantity("ws_sq") + op("end"), quantities=q,
                                   failed=[True])
        # Every update has the same slack: the first is the least.
        assert result[0] == 5 and result[2] == [(value, 0, quantities(ws_sq=value, **FIRST_UPDATE))]


# --- check_online vs the definition, on random runs ---------------------------------------------


@st.composite
def small_problems(draw):
    """Like `pass_problems`, but small enough that a pass makes mistakes (entries in -3..3)."""
    dtype = draw(st.sampled_from([np.int16, np.int32, np.int64]))
    n, d = draw(st.integers(1, 6)), draw(st.integers(1, 3))
    Z = np.array(draw(st.lists(st.integers(-3, 3), min_size=n * d, max_size=n * d)), dtype=dtype).reshape(n, d)
    W = np.array(draw(st.lists(st.integers(-3, 3), min_size=d, max_size=d)), dtype=np.int64)
    tie = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    norms = exact_norms(Z)
    return Z, W, tie, norms, sum(int(v) ** 2 for v in W.tolist()), largest_limit(norms)


@st.composite
def recorded_runs(draw):
    """A problem and the updates an engine reported for it over up to three passes (maybe one
    spoilt), with the checker's program, quantities, state and failed flags.

    Returns ``(data, options, (claims, scales, denominators))``: the arguments of `replay`, and
    how the program was compiled.
    """
    Z, W, tie, norms, w_sq, limit = draw(st.one_of(small_problems(), pass_problems(max_rows=6, max_width=3)))
    W0, counts = W.copy(), np.zeros(len(Z), dtype=np.int64)
    out_i, out_s = np.zeros(20, dtype=np.int64), np.zeros(20, dtype=np.int64)
    rows, scores, sq = [], [], w_sq
    for _ in range(3):
        m, _, sq, guarded = online_pass_reference(Z, W, tie, norms, counts, out_i, out_s, 0, sq, limit)
        rows += out_i[:m].tolist()
        scores += out_s[:m].tolist()
        if guarded:
            break
    spoil = draw(st.sampled_from(["none", "none", "score", "row"]))
    if rows and spoil != "none":
        t = draw(st.integers(0, len(rows) - 1))
        if spoil == "score":
            scores[t] += draw(st.sampled_from([-1, 1]))
        else:
            rows[t] = draw(st.integers(-2, len(Z) + 1))
    claims = draw(st.lists(st.sampled_from(ONLINE_CLAIMS), min_size=1, max_size=4))  # no claims: tested above
    denominators = draw(st.dictionaries(st.sampled_from(["a", "gamma", "bound", "R_sq", "beta"]), st.integers(2, 5)))
    code, scales = compile_program(claims, denominators)
    # Mostly small values, so that claims hold, fail and pass 128 bits in turn.
    value = st.one_of(st.integers(-3, 40), st.integers(-3, 40), st.integers(-(2**70), 2**70),
                      st.integers(LOW, HIGH - 1))
    q = tuple(draw(value) for _ in QUANTITIES)  # the replay overwrites the slots: they may start at anything
    small = st.integers(0, 9)
    state = (draw(small), draw(small), w_sq, draw(st.integers(-9, 9)), draw(small), draw(small), draw(small),
             draw(st.sampled_from([limit, limit, max(w_sq, limit // 2), min(w_sq + 2, limit)])))
    margins = np.array(draw(st.lists(st.one_of(st.integers(-3, 3), st.integers(-(2**62), 2**62)),
                                     min_size=len(Z), max_size=len(Z))), dtype=np.int64)
    # Mostly failed already: random claims on random data rarely hold at every update.
    failed = draw(st.lists(st.sampled_from([True, True, True, False]), min_size=len(claims), max_size=len(claims)))
    data = (Z, W0, tie, norms, margins, rows, scores)
    options = {"program": code, "quantities": q, "state": state, "failed": failed}
    return data, options, (claims, scales, denominators)


@needs_kernel
@given(run=recorded_runs())
def test_c_replay_equals_the_definition(run):
    data, options, (claims, scales, denominators) = run
    got = replay(_kernel.check_online, *data, **options)
    assert got == replay(check_online_by_hand, *data, **options)
    # Each claim's reported value is its own slack there, times its scale.
    for claim, scale, entry in zip(claims, scales, got[0][2]):
        if entry is None:  # nothing replayed
            continue
        value, _, snapshot = entry
        q = {name: Fraction(v, denominators.get(name, 1)) for name, v in zip(QUANTITIES, snapshot)}
        assert Fraction(value, scale) == claim.slack(SimpleNamespace(**q))


# --- check_online: its arguments --------------------------------------------------------------


def replay_arguments(**changes):
    """Good arguments for replaying the small run, with some replaced."""
    rows, scores, *_ = data_run()
    good = {"Z": DATA_Z, "W": DATA_W0.copy(), "counts": np.zeros(5, dtype=np.int64), "tie": DATA_TIE,
            "norms": DATA_NORMS, "margins": DATA_MARGINS, "rows": rows, "scores": scores,
            "program": np.array(quantity("N") + op("end"), dtype=np.int64), "quantities": quantities(),
            "slots": SLOTS, "state": (0, 0, 0, 0, 0, 0, 0, DATA_LIMIT), "failed": np.zeros(1, dtype=bool)}
    good.update(changes)
    return tuple(good.values())


def program(*code):
    """A program as check_online takes it."""
    return np.array(code, dtype=np.int64)


# Each: bad arguments, the error, and the whole message after "check_online(): ".
BAD_REPLAY_ARGUMENTS = {
    "an unknown operation": (replay_arguments(program=program(9)), ValueError, "program[0]=9 is no operation"),
    "a negative operation": (replay_arguments(program=program(*quantity("N"), -1)), ValueError,
                             "program[2]=-1 is no operation"),
    "a quantity past the end": (replay_arguments(program=program(OPS["quantity"], 17, 0)), ValueError,
                                "program[1]=17 is out of range"),
    "a negative quantity": (replay_arguments(program=program(OPS["quantity"], -1, 0)), ValueError,
                            "program[1]=-1 is out of range"),
    "a power of 0": (replay_arguments(program=program(*quantity("N"), OPS["**"], 0, 0)), ValueError,
                     "program[3]=0 is out of range"),
    "a power of 17": (replay_arguments(program=program(*quantity("N"), OPS["**"], 17, 0)), ValueError,
                      "program[3]=17 is out of range"),
    "two values left at END": (replay_arguments(program=program(*quantity("N"), *quantity("k"), 0)), ValueError,
                               "claim 0 leaves values behind"),
    "two values left at the second END": (
        replay_arguments(program=program(*quantity("N"), 0, *quantity("N"), *quantity("k"), 0),
                         failed=np.zeros(2, dtype=bool)), ValueError, "claim 1 leaves values behind"),
    "an operand missing at the end": (replay_arguments(program=program(OPS["quantity"])), ValueError,
                                      "program ends inside an operation"),
    "a power missing at the end": (replay_arguments(program=program(*quantity("N"), OPS["**"])), ValueError,
                                   "program ends inside an operation"),
    "+ on one value": (replay_arguments(program=program(*quantity("N"), OPS["+"], 0)), ValueError,
                       "the program's stack is wrong at [2]"),
    "END on no value": (replay_arguments(program=program(0)), ValueError, "the program's stack is wrong at [0]"),
    "a stack deeper than 64": (replay_arguments(program=program(*quantity("N") * 65, *[OPS["+"]] * 64, 0)),
                               ValueError, "the program's stack is wrong at [129]"),
    "no END at the end": (replay_arguments(program=program(*quantity("N"), 0, *quantity("N"))), ValueError,
                          "the program must end with END and have <= 64 claims"),
    "65 claims": (replay_arguments(program=program(*(quantity("N") + op("end")) * 65), failed=np.zeros(65, bool)),
                  ValueError, "the program must end with END and have <= 64 claims"),
    "failed too long": (replay_arguments(failed=np.zeros(2, dtype=bool)), ValueError,
                        "failed has length 2 but the program has 1 claims"),
    "failed int64": (replay_arguments(failed=np.zeros(1, dtype=np.int64)), TypeError,
                     f"failed must hold bool or uint8 items, got format='{I64}' itemsize=8"),
    "slots too short": (replay_arguments(slots=SLOTS[:10]), ValueError, "slots must have 11 entries, got 10"),
    "a slot out of range": (replay_arguments(slots=np.array([*SLOTS[:3], 17, *SLOTS[4:]])), ValueError,
                            "slots[3]=17 is out of range"),
    "quantities a list": (replay_arguments(quantities=list(quantities())), TypeError,
                          "quantities must be a tuple of at most 64 ints"),
    "65 quantities": (replay_arguments(quantities=(0,) * 65), TypeError,
                      "quantities must be a tuple of at most 64 ints"),
    "a quantity of 2^127": (replay_arguments(quantities=quantities(bound=2**127)), OverflowError,
                            f"a quantity={2**127} does not fit in 128 bits"),
    "a quantity a float": (replay_arguments(quantities=quantities(bound=1.5)), TypeError,
                           "a quantity must be an int, got float"),
    "state of 7": (replay_arguments(state=(0,) * 7), TypeError, "state must be a tuple of 8 ints"),
    # A limit of 2^126 or more would let W_j leave int64: refused, not replayed wrongly.
    "a limit of 2^126": (replay_arguments(state=(0,) * 7 + (2**126,)), ValueError,
                         f"limit={2**126} must satisfy 0 <= limit < 2^126"),
    "a negative limit": (replay_arguments(state=(0,) * 7 + (-1,)), ValueError,
                         "limit=-1 must satisfy 0 <= limit < 2^126"),
    "state a list": (replay_arguments(state=[0] * 8), TypeError, "state must be a tuple of 8 ints"),
    "a state value below -2^127": (replay_arguments(state=(0,) * 7 + (LOW - 1,)), OverflowError,
                                   f"a state value={LOW - 1} does not fit in 128 bits"),
    "scores too short": (replay_arguments(scores=np.zeros(4, dtype=np.int64)), ValueError,
                         "scores has length 4 but rows has 5"),
    "margins too short": (replay_arguments(margins=np.zeros(4, dtype=np.int64)), ValueError,
                          "margins has length 4 but Z has 5 rows"),
    "counts too long": (replay_arguments(counts=np.zeros(6, dtype=np.int64)), ValueError,
                        "counts has length 6 but Z has 5 rows"),
    "W read-only": (replay_arguments(W=read_only(np.zeros(2, dtype=np.int64))), ValueError,
                    "W must be writable, got a read-only buffer"),
    "counts read-only": (replay_arguments(counts=read_only(np.zeros(5, dtype=np.int64))), ValueError,
                         "counts must be writable, got a read-only buffer"),
    "W too short": (replay_arguments(W=np.zeros(1, dtype=np.int64)), ValueError,
                    "W has length 1 but Z has 2 columns (Z.shape=(5, 2))"),
    "Z float64": (replay_arguments(Z=DATA_Z.astype(float)), TypeError,
                  f"Z must hold int16, int32 or int64 items, got format='{buffer_format(np.float64)}' itemsize=8"),
    "rows int32": (replay_arguments(rows=np.zeros(5, dtype=np.int32)), TypeError,
                   f"rows must hold int64 items, got format='{buffer_format(np.int32)}' itemsize=4"),
    "program not contiguous": (replay_arguments(program=np.array([1, 9, 0, 9], dtype=np.int64)[::2]), ValueError,
                               "program must be C-contiguous, got strides=(16,) for itemsize=8"),
}


@needs_kernel
def test_c_replay_takes_the_good_arguments():
    # So that each bad case below fails for its one change: all five updates are replayed.
    args = replay_arguments()
    assert _kernel.check_online(*args) == (5, (5, 5, 2, 3, 6, 5, 1, DATA_LIMIT), [(1, 0, quantities(**FIRST_UPDATE))])
    assert (args[1].tolist(), args[2].tolist()) == ([1, 1], [1, 1, 1, 1, 1])


@needs_kernel
@pytest.mark.parametrize("case", BAD_REPLAY_ARGUMENTS.values(), ids=BAD_REPLAY_ARGUMENTS.keys())
def test_c_replay_rejects_bad_arguments_with_the_whole_message(case):
    args, error, message = case
    arrays = [a for a in args if isinstance(a, np.ndarray)]
    before = [a.copy() for a in arrays]
    with pytest.raises(error) as raised:
        _kernel.check_online(*args)
    assert type(raised.value) is error and str(raised.value) == f"check_online(): {message}"
    assert all(np.array_equal(a, b) for a, b in zip(arrays, before))  # nothing was written


@needs_kernel
def test_c_replay_rejects_a_wrong_number_of_arguments():
    with pytest.raises(TypeError) as raised:
        _kernel.check_online(*replay_arguments()[:12])
    assert str(raised.value) == "check_online() takes 13 arguments, got 12"


@needs_kernel
def test_c_replay_reads_any_buffer():
    # The small run as array.array and bytes, Z as a 2-D int16 memoryview.
    Z = memoryview(array.array("h", DATA_Z.ravel().tolist())).cast("B").cast("h", (5, 2))
    W, counts = array.array("q", [0, 0]), array.array("q", [0] * 5)
    longs = functools.partial(array.array, "q")
    done, state, claims = _kernel.check_online(
        Z, W, counts, bytes([1] * 5), longs(DATA_NORMS.tolist()), longs(DATA_MARGINS.tolist()), longs(range(5)),
        longs([0, 0, -1, -1, 0]), longs(quantity("N") + op("end")), quantities(), longs(SLOTS.tolist()),
        (0, 0, 0, 0, 0, 0, 0, DATA_LIMIT), bytes([0]))
    assert (done, state, W.tolist(), counts.tolist()) == (5, (5, 5, 2, 3, 6, 5, 1, DATA_LIMIT), [1, 1], [1] * 5)
    assert claims == [(1, 0, quantities(**FIRST_UPDATE))]


# --- the loader -----------------------------------------------------------------------------


def test_loader_falls_back_to_none_without_the_extension(monkeypatch):
    monkeypatch.setitem(sys.modules, "verify_perceptron._scan", None)  # makes the import fail
    spec = importlib.util.spec_from_file_location("verify_perceptron._kernel_without_scan", _kernel.__file__)
    assert spec is not None and spec.loader is not None
    loader = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loader)
    assert (loader.AVAILABLE, loader.online_pass, loader.check_online) == (False, None, None)
    assert loader.IMPORT_ERROR is not None and "verify_perceptron._scan" in loader.IMPORT_ERROR


@pytest.mark.skipif(os.environ.get("VERIFY_PERCEPTRON_REQUIRE_KERNEL") != "1",
                    reason="set VERIFY_PERCEPTRON_REQUIRE_KERNEL=1 to demand the compiled kernel")
def test_kernel_is_built_when_required():
    assert AVAILABLE, f"VERIFY_PERCEPTRON_REQUIRE_KERNEL=1 but the C kernel did not import: {_kernel.IMPORT_ERROR}"


# ------------------------------------------------------------------------------------------------
# scores: every row's score at once


@needs_kernel
@given(dtype=st.sampled_from([np.int16, np.int32, np.int64]), data=st.data())
def test_c_scores_equal_python_integer_products_at_every_width(dtype, data):
    info = np.iinfo(dtype)
    n, d = data.draw(st.integers(0, 9)), data.draw(st.integers(0, 5))
    Z = np.array(data.draw(st.lists(st.lists(st.integers(info.min + 1, info.max), min_size=d, max_size=d),
                                    min_size=n, max_size=n)), dtype=dtype).reshape(n, d)
    norms = np.array([sum(int(v) ** 2 for v in row) for row in Z.tolist()], dtype=object)
    assume(all(v < 2**63 for v in norms))
    largest = max(norms.tolist(), default=0)
    bound = (2**126 - 1) // max(largest, 1)  # the guard the function demands
    # weights near the guard as often as small ones, so both the int32 copy and int64 are used
    entry = st.integers(-(2**20), 2**20) if data.draw(st.booleans()) else st.integers(-(2**62), 2**62)
    W = data.draw(st.lists(entry, min_size=d, max_size=d))
    assume(sum(w * w for w in W) <= bound)
    out = np.zeros(n, dtype=np.int64)
    assert _kernel.scores(Z, np.array(W, dtype=np.int64), norms.astype(np.int64), out) is None
    assert out.tolist() == [sum(int(z) * w for z, w in zip(row, W)) for row in Z.tolist()]


@needs_kernel
def test_c_scores_refuse_weights_past_the_guard():
    Z = np.array([[2**31, 0]], dtype=np.int64)
    W = np.array([2**62, 0], dtype=np.int64)  # ‖W‖²·‖z‖² = 2^124·2^62 ≥ 2^126
    with pytest.raises(ValueError, match=r"^scores\(\): \|\|W\|\|\^2 \* max\(norms\) must be below 2\^126"):
        _kernel.scores(Z, W, np.array([2**62], dtype=np.int64), np.zeros(1, dtype=np.int64))


@needs_kernel
@pytest.mark.parametrize("args, error, message", [
    ((np.zeros((2, 2)), np.zeros(2, np.int64), np.zeros(2, np.int64), np.zeros(2, np.int64)), TypeError,
     "Z must hold int16, int32 or int64 items"),
    ((np.zeros((2, 2), np.int16), np.zeros(3, np.int64), np.zeros(2, np.int64), np.zeros(2, np.int64)), ValueError,
     "W has length 3 but Z has 2 columns"),
    ((np.zeros((2, 2), np.int16), np.zeros(2, np.int64), np.zeros(1, np.int64), np.zeros(2, np.int64)), ValueError,
     "norms has length 1 but Z has 2 rows"),
    ((np.zeros((2, 2), np.int16), np.zeros(2, np.int64), np.zeros(2, np.int64), np.zeros(2, np.int32)), TypeError,
     "out must hold int64 items"),
])
def test_c_scores_reject_bad_arguments_naming_them(args, error, message):
    with pytest.raises(error, match="^" + re.escape(f"scores(): {message}")):
        _kernel.scores(*args)


@needs_kernel
def test_exact_products_are_the_same_with_and_without_the_c_scores(monkeypatch):
    from verify_perceptron.data.integers import ExactMatrix

    rng = np.random.default_rng(3)
    Z = rng.integers(-1000, 1001, size=(500, 7)).astype(np.int16)
    W = rng.integers(-(10**9), 10**9, size=7).tolist()
    norm_sq = sum(w * w for w in W)
    quick = ExactMatrix(Z).products(W, norm_sq=norm_sq)
    monkeypatch.setattr(_kernel, "scores", None)
    plain = ExactMatrix(Z).products(W, norm_sq=norm_sq)
    assert quick.tolist() == plain.tolist() == [sum(int(z) * w for z, w in zip(row, W)) for row in Z.tolist()]


# ------------------------------------------------------------------------------------------------
# online_pass with epochs: a run through several epochs in one call


def epochs_by_hand(Z, W, tie, norms, counts, cap, start, w_sq, limit, epoch, made, max_epochs, stop_epoch,
                   per_epoch, work, saved):
    """The epochs mode by its definition: passes by hand, carried on while the caller has nothing to do."""
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
                rows.append(i), scores.append(s), epochs.append(epoch)
                made += 1
                if len(rows) == cap:
                    i += 1
                    break
            i += 1
        scanned += n
        if guarded or i < n:
            break
        same = len(saved) == len(weights) and weights == [int(v) for v in saved.tolist()]
        if (made == 0 or per_epoch or epoch >= max_epochs or epoch == stop_epoch or same or len(rows) == cap
                or scanned >= work):
            break
        epoch, made, i = epoch + 1, 0, 0
    W[:] = weights
    return (len(rows), i, w_sq, guarded, epoch, made), rows, scores, epochs


@needs_kernel
@given(problem=pass_problems(max_rows=6, max_width=3), data=st.data())
def test_c_epochs_equal_the_definition(problem, data):
    Z, W, tie, norms, w_sq, limit = problem
    n, d = Z.shape
    cap = data.draw(st.integers(1, 12))
    max_epochs = data.draw(st.integers(1, 6))
    stop_epoch = data.draw(st.integers(1, 8))
    per_epoch = data.draw(st.integers(0, 1))
    work = data.draw(st.sampled_from([1, n + 1, 10**6]))
    saved = np.zeros(0, dtype=np.int64) if data.draw(st.booleans()) else W.copy()  # the start recurs?
    start = data.draw(st.integers(0, n))
    counts_c, counts_h = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    W_c, W_h = W.copy(), W.copy()
    out_i, out_s, out_e = (np.zeros(cap, dtype=np.int64) for _ in range(3))
    got = _kernel.online_pass(np.ascontiguousarray(Z), W_c, tie, norms, counts_c, out_i, out_s, start, w_sq, limit,
                              (out_e, saved, 1, 0, max_epochs, stop_epoch, per_epoch, work))
    expected, rows, scores, epochs = epochs_by_hand(Z, W_h, tie, norms, counts_h, cap, start, w_sq, limit, 1, 0,
                                                    max_epochs, stop_epoch, per_epoch, work, saved)
    m = got[0]
    assert got == expected
    assert (out_i[:m].tolist(), out_s[:m].tolist(), out_e[:m].tolist()) == (rows, scores, epochs)
    assert W_c.tolist() == W_h.tolist() and counts_c.tolist() == counts_h.tolist()


@needs_kernel
def test_c_epochs_run_the_and_example_to_convergence_in_one_call():
    from verify_perceptron.run import fast
    from verify_perceptron.notes.conventions import CONVENTIONS
    from verify_perceptron.data.examples import example

    data = example("and")
    matrix = fast.sample_matrix(data, CONVENTIONS["classic"])
    Z, norms = np.ascontiguousarray(matrix.exact), matrix.norms
    W, counts = np.zeros(3, dtype=np.int64), np.zeros(4, dtype=np.int64)
    out_i, out_s, out_e = (np.zeros(64, dtype=np.int64) for _ in range(3))
    tie = np.ones(4, dtype=bool)  # classic: a score of 0 is a mistake
    got = _kernel.online_pass(Z, W, tie, norms, counts, out_i, out_s, 0, 0, largest_limit(norms),
                              (out_e, np.zeros(0, dtype=np.int64), 1, 0, 100, 100, 0, 10**6))
    assert got == (18, 4, 29, False, 9, 0)  # 18 updates; epoch 9 made none; ‖(-4, 3, 2)‖² = 29
    assert W.tolist() == [-4, 3, 2]
    from verify_perceptron.run.reference import train

    reference = train(data, "classic")
    assert out_e[:18].tolist() == [u.epoch for u in reference.updates]
    assert out_i[:18].tolist() == [u.samples[0] for u in reference.updates]


@needs_kernel
@pytest.mark.parametrize("epochs, message", [
    ((np.zeros(2, np.int64),), "epochs must be a tuple"),
    ((np.zeros(1, np.int64), np.zeros(0, np.int64), 1, 0, 5, 5, 0, 10), "epochs needs out_e as long as out_i"),
    ((np.zeros(2, np.int64), np.zeros(1, np.int64), 1, 0, 5, 5, 0, 10), "saved empty or of length d=2"),
    ((np.zeros(2, np.int64), np.zeros(0, np.int64), 0, 0, 5, 5, 0, 10), "1 <= epoch <= max_epochs"),
    ((np.zeros(2, np.int64), np.zeros(0, np.int64), 1, 0, 5, 5, 0, 0), "work >= 1"),
    ((np.zeros(2, np.int32), np.zeros(0, np.int64), 1, 0, 5, 5, 0, 10), "out_e must hold int64 items"),
])
def test_c_epochs_reject_a_bad_epochs_argument(epochs, message):
    with pytest.raises((TypeError, ValueError), match=re.escape(message)):
        _kernel.online_pass(*pass_arguments(), epochs)
