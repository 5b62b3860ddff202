"""What the tests of the three compiled kernels share: exact norms, the engine's guard, problems
meeting every precondition of `online_pass`, and buffer helpers.

`tests/test_kernel.py` (the engine's `online_pass`), `tests/test_replay_kernel.py` (the checker's
`check_online`, replaying runs of `online_pass_reference`) and `tests/test_rows_kernel.py`
(the data layer's `scores`) import them from here.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import DTypeLike
from hypothesis import strategies as st

INT64_MAX = 2**63 - 1
#: The engine's guard: limit · max ‖z_i‖² < 2^126 (verify_perceptron.data.integers.INT64_EXACT_SQ).
EXACT_SQ = 2**126


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


#: ‖W‖² (and, without norms, each ‖z_i‖²) below this: W stays in int64 and every score in 128 bits.
WIDE_SQ = 2**126


@st.composite
def wide_problems(draw, *, max_rows=8, max_width=4):
    """``(Z, W, tie, norms, w_sq, limit)`` past the int64 guard: ‖z_i‖² up to 2^126 (norms then not
    given: an empty array), ‖W‖² up to 2^126, so that scores are summed in 128 bits and pass int64."""
    n, d = draw(st.integers(1, max_rows)), draw(st.integers(1, max_width))
    z_bound = min(INT64_MAX, math.isqrt((WIDE_SQ - 1) // d))
    entries = st.one_of(st.integers(-2, 2), st.integers(-z_bound, z_bound), st.sampled_from([-z_bound, z_bound]))
    Z = np.array(draw(st.lists(entries, min_size=n * d, max_size=n * d)), dtype=np.int64).reshape(n, d)
    true_norms = [sum(int(v) ** 2 for v in row) for row in Z.tolist()]
    given = max(true_norms) <= INT64_MAX and draw(st.booleans())
    norms = np.array(true_norms, dtype=np.int64) if given else np.zeros(0, dtype=np.int64)
    w_bound = min(INT64_MAX, math.isqrt((WIDE_SQ - 1) // d))
    weights = st.one_of(st.integers(-2, 2), st.integers(-w_bound, w_bound), st.sampled_from([-w_bound, w_bound]))
    W = np.array(draw(st.lists(weights, min_size=d, max_size=d)), dtype=np.int64)
    w_sq = sum(int(v) ** 2 for v in W.tolist())
    limit = draw(st.one_of(st.just(WIDE_SQ - 1), st.integers(w_sq, WIDE_SQ - 1)))
    tie = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    return Z, W, tie, norms, w_sq, limit


def buffer_format(dtype: DTypeLike) -> str:
    """The buffer protocol's format string for a dtype: 'l' or 'q' for int64, by platform."""
    return np.zeros(1, dtype=dtype).data.format  # .data: the array's memoryview


def read_only(a):
    """`a`, no longer writable."""
    a.flags.writeable = False
    return a



I64 = buffer_format(np.int64)
