"""The compiled next-mistake scan equals the NumPy reference, and both equal a plain loop."""

from __future__ import annotations

import array
import importlib.util
import os
import re
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from verify_perceptron import _kernel
from verify_perceptron._kernel import AVAILABLE, first_mistake_reference

needs_kernel = pytest.mark.skipif(not AVAILABLE, reason=f"the C kernel is not built: {_kernel.IMPORT_ERROR}")

#: Every implementation of first_mistake: each must agree with the plain loop below.
IMPLEMENTATIONS = [
    pytest.param(first_mistake_reference, id="reference"),
    pytest.param(_kernel.first_mistake, id="c", marks=needs_kernel),
]

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def first_mistake_by_hand(Z, W, tie, start):
    """The definition, in Python integers: the first i >= start with s < 0, or s == 0 and tie[i]."""
    for i in range(start, len(Z)):
        s = sum(int(z) * int(w) for z, w in zip(Z[i], W))
        if not INT64_MIN <= s <= INT64_MAX:
            return "overflow"
        if s < 0 or (s == 0 and tie[i]):
            return i, s
    return -1, 0


def outcome(scan, *args):
    """What a scan does: its result, or "overflow" if it raised OverflowError."""
    try:
        return scan(*args)
    except OverflowError:
        return "overflow"


@st.composite
def problems(draw: st.DrawFn, *, entries: st.SearchStrategy[int], max_width: int = 6):
    """``(Z, W, tie)``: n rows of int64 entries, shrinking towards small zero matrices without ties."""
    n = draw(st.integers(1, 12))
    d = draw(st.integers(0, max_width))
    Z = np.array(draw(st.lists(st.lists(entries, min_size=d, max_size=d), min_size=n, max_size=n)),
                 dtype=np.int64).reshape(n, d)
    W = np.array(draw(st.lists(entries, min_size=d, max_size=d)), dtype=np.int64)
    tie = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    return Z, W, tie


# Small entries make many scores exactly 0, so the tie rule decides often; entries up to 2^29
# in at most 6 columns keep every partial sum below 6·2^58 < 2^63, the engine's precondition.
small_or_guarded = st.one_of(st.integers(-2, 2), st.integers(-(2**29), 2**29))
# Anything int64 can hold, the extremes most of all: the precondition may well fail.
any_int64 = st.one_of(st.sampled_from([INT64_MIN, INT64_MIN + 1, -1, 0, 1, INT64_MAX]),
                      st.integers(INT64_MIN, INT64_MAX))


@pytest.mark.parametrize("scan", IMPLEMENTATIONS)
@given(problem=problems(entries=small_or_guarded))
def test_scan_equals_the_definition_from_every_start(scan, problem):
    Z, W, tie = problem
    for start in range(len(Z) + 1):
        assert scan(Z, W, tie, start) == first_mistake_by_hand(Z, W, tie, start)


@pytest.mark.parametrize("scan", IMPLEMENTATIONS)
@given(problem=problems(entries=any_int64, max_width=5))
def test_scan_is_exact_or_raises_overflow_on_any_int64(scan, problem):
    Z, W, tie = problem
    for start in range(len(Z) + 1):
        assert outcome(scan, Z, W, tie, start) == first_mistake_by_hand(Z, W, tie, start)


@needs_kernel
@given(problem=problems(entries=small_or_guarded), tie_as_uint8=st.booleans())
def test_c_scan_equals_reference_from_every_start(problem, tie_as_uint8):
    Z, W, tie = problem
    flags = tie.astype(np.uint8) if tie_as_uint8 else tie
    for start in range(len(Z) + 1):
        assert _kernel.first_mistake(Z, W, flags, start) == first_mistake_reference(Z, W, tie, start)


# Each case: Z, W, tie, start and the expected (i, s), worked out by hand.
CASES = {
    "negative score": ([[1, 1], [1, -2]], [1, 1], [False, False], 0, (1, -1)),
    "zero score counts when tie is true": ([[1, -1]], [1, 1], [True], 0, (0, 0)),
    "zero score passes when tie is false": ([[1, -1]], [1, 1], [False], 0, (-1, 0)),
    "single row, no mistake": ([[3]], [2], [True], 0, (-1, 0)),
    "single row, mistake": ([[-3]], [2], [False], 0, (0, -6)),
    "mistake only in the last row": ([[1], [2], [3], [-4]], [5], [True] * 4, 0, (3, -20)),
    "start skips an earlier mistake": ([[-1], [1], [-2]], [1], [False] * 3, 1, (2, -2)),
    "start at the mistake itself": ([[1], [-1]], [1], [False] * 2, 1, (1, -1)),
    "start == n scans nothing": ([[-1]], [1], [True], 1, (-1, 0)),
    "no columns: every score is a tie": (np.zeros((3, 0), dtype=np.int64), [], [False, False, True], 0, (2, 0)),
    "no rows": (np.zeros((0, 2), dtype=np.int64), [1, 1], [], 0, (-1, 0)),
    # Eight products of 2^126 leave even 128 bits, however they are grouped; eight of
    # -2^126 + 2^63 and one of -2^66 bring the exact total back to 0, which must be found.
    "partial sums beyond 128 bits cancel exactly": (
        [[INT64_MIN] * 17], [INT64_MIN] * 8 + [INT64_MAX] * 8 + [8], [True], 0, (0, 0)),
    "partial sums beyond int64 cancel exactly": ([[2**62, 2**62, -(2**62), -(2**62)]], [1, 1, 1, 1], [True], 0, (0, 0)),
}


@pytest.mark.parametrize("scan", IMPLEMENTATIONS)
@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_scan_finds_the_worked_examples(scan, case):
    Z, W, tie, start, expected = case
    args = (np.array(Z, dtype=np.int64), np.array(W, dtype=np.int64), np.array(tie, dtype=bool), start)
    assert first_mistake_by_hand(*args) == expected  # the worked example is right
    assert scan(*args) == expected


@pytest.mark.parametrize("scan", IMPLEMENTATIONS)
def test_scan_raises_overflow_when_the_precondition_fails(scan):
    Z = np.array([[1, 1], [2**62, 2**62], [-1, -1]], dtype=np.int64)  # row 1 scores 2^63
    W = np.array([1, 1], dtype=np.int64)
    tie = np.zeros(3, dtype=bool)
    with pytest.raises(OverflowError, match=r"Z\[1\]"):
        scan(Z, W, tie, 0)
    assert scan(Z, W, tie, 2) == (2, -2)  # rows after the bad one are fine on their own


@pytest.mark.parametrize("scan", IMPLEMENTATIONS)
def test_scan_raises_overflow_for_a_score_that_wraps_128_bits_into_int64(scan):
    # 4·2^126 - 1 = 2^128 - 1 is -1 modulo 2^128: a wrapped accumulator would call it a mistake.
    Z = np.array([[INT64_MIN] * 4 + [1]], dtype=np.int64)
    W = np.array([INT64_MIN] * 4 + [-1], dtype=np.int64)
    with pytest.raises(OverflowError, match=r"Z\[0\]"):
        scan(Z, W, np.zeros(1, dtype=bool), 0)


@pytest.mark.parametrize("scan", IMPLEMENTATIONS)
def test_scan_stops_at_a_mistake_before_an_unrepresentable_score(scan):
    Z = np.array([[-1, 0], [2**62, 2**62]], dtype=np.int64)
    assert scan(Z, np.array([1, 1], dtype=np.int64), np.zeros(2, dtype=bool), 0) == (0, -1)


def buffer_format(dtype) -> str:
    """The buffer protocol's format string for a dtype: 'l' or 'q' for int64, by platform."""
    return memoryview(np.zeros(1, dtype=dtype)).format


def arguments(**changes):
    """Good arguments for a 3 x 2 problem, with some replaced."""
    good = {"Z": np.arange(6, dtype=np.int64).reshape(3, 2), "W": np.array([1, -1], dtype=np.int64),
            "tie": np.zeros(3, dtype=bool), "start": 0}
    good.update(changes)
    return good["Z"], good["W"], good["tie"], good["start"]


# Each: bad arguments, the error, and the start of its message after "first_mistake(): " (or
# "first_mistake_reference(): "): the argument's name and what was wrong with it.
BAD_FOR_BOTH = {
    "Z float64": (arguments(Z=np.zeros((3, 2))), TypeError, "Z must hold int64 items, got"),
    "Z int32": (arguments(Z=np.zeros((3, 2), dtype=np.int32)), TypeError, "Z must hold int64 items, got"),
    "Z uint64": (arguments(Z=np.zeros((3, 2), dtype=np.uint64)), TypeError, "Z must hold int64 items, got"),
    "Z a list": (arguments(Z=[[0, 1], [2, 3], [4, 5]]), TypeError, "Z must be a"),
    "Z 1-D": (arguments(Z=np.zeros(3, dtype=np.int64)), ValueError, "Z must be 2-D, got ndim=1"),
    "Z 3-D": (arguments(Z=np.zeros((3, 2, 1), dtype=np.int64)), ValueError, "Z must be 2-D, got ndim=3"),
    "W float64": (arguments(W=np.zeros(2)), TypeError, "W must hold int64 items, got"),
    "W 2-D": (arguments(W=np.zeros((2, 1), dtype=np.int64)), ValueError, "W must be 1-D, got ndim=2"),
    "W too long": (arguments(W=np.zeros(3, dtype=np.int64)), ValueError,
                   "W has length 3 but Z has 2 columns (Z.shape=(3, 2))"),
    "tie int64": (arguments(tie=np.zeros(3, dtype=np.int64)), TypeError, "tie must hold bool or uint8 items, got"),
    "tie too short": (arguments(tie=np.zeros(2, dtype=bool)), ValueError, "tie has length 2 but Z has 3 rows"),
    "start negative": (arguments(start=-1), ValueError, "start=-1 must satisfy 0 <= start <= n=3"),
    "start past n": (arguments(start=4), ValueError, "start=4 must satisfy 0 <= start <= n=3"),
    "start huge": (arguments(start=2**80), ValueError, f"start={2**80} must satisfy 0 <= start <= n=3"),
    "start a float": (arguments(start=1.0), TypeError, "start=1.0 must be an int, got float"),
}


# Whole messages of the C checks that only a raw buffer needs (NumPy copes with any layout).
BAD_FOR_C = {
    "Z float64": (arguments(Z=np.zeros((3, 2))), TypeError,
                  f"Z must hold int64 items, got format='{buffer_format(np.float64)}' itemsize=8"),
    "Z int32": (arguments(Z=np.zeros((3, 2), dtype=np.int32)), TypeError,
                f"Z must hold int64 items, got format='{buffer_format(np.int32)}' itemsize=4"),
    "Z big-endian": (arguments(Z=np.zeros((3, 2), dtype=">i8")), TypeError,
                     f"Z must hold int64 items, got format='{buffer_format('>i8')}' itemsize=8"),
    "Z a list": (arguments(Z=[[0, 1], [2, 3], [4, 5]]), TypeError,
                 "Z must be an array supporting the buffer protocol, got list"),
    "Z transposed": (arguments(Z=np.zeros((2, 3), dtype=np.int64).T), ValueError,
                     "Z must be C-contiguous, got strides=(8, 24) for shape=(3, 2)"),
    "Z every other column": (arguments(Z=np.zeros((3, 4), dtype=np.int64)[:, ::2]), ValueError,
                             "Z must be C-contiguous, got strides=(32, 16) for shape=(3, 2)"),
    "W every other": (arguments(W=np.zeros(4, dtype=np.int64)[::2]), ValueError,
                      "W must be C-contiguous, got strides=(16,) for itemsize=8"),
    "tie every other": (arguments(tie=np.zeros(6, dtype=bool)[::2]), ValueError,
                        "tie must be C-contiguous, got strides=(2,) for itemsize=1"),
}


@needs_kernel
@pytest.mark.parametrize("case", BAD_FOR_BOTH.values(), ids=BAD_FOR_BOTH.keys())
def test_c_scan_rejects_bad_arguments_naming_them(case):
    args, error, message = case
    with pytest.raises(error, match="^" + re.escape(f"first_mistake(): {message}")):
        _kernel.first_mistake(*args)


@needs_kernel
@pytest.mark.parametrize("case", BAD_FOR_C.values(), ids=BAD_FOR_C.keys())
def test_c_scan_rejects_bad_buffers_with_the_whole_message(case):
    args, error, message = case
    with pytest.raises(error) as raised:
        _kernel.first_mistake(*args)
    assert str(raised.value) == f"first_mistake(): {message}"


@pytest.mark.parametrize("case", BAD_FOR_BOTH.values(), ids=BAD_FOR_BOTH.keys())
def test_reference_rejects_bad_arguments_like_the_c_scan(case):
    args, error, message = case
    with pytest.raises(error, match="^" + re.escape(f"first_mistake_reference(): {message}")):
        first_mistake_reference(*args)


@needs_kernel
def test_c_scan_rejects_a_wrong_number_of_arguments():
    with pytest.raises(TypeError, match=r"takes 4 arguments \(Z, W, tie, start\), got 3"):
        _kernel.first_mistake(*arguments()[:3])


@needs_kernel
def test_c_scan_reads_any_int64_buffer():
    Z = memoryview(array.array("q", [1, -1, -2, 1])).cast("B").cast("q", (2, 2))
    W = array.array("q", [1, 1])
    assert _kernel.first_mistake(Z, W, bytes([0, 0]), 0) == (1, -1)
    assert _kernel.first_mistake(Z, W, bytes([1, 0]), 0) == (0, 0)


@needs_kernel
def test_c_scan_gives_the_same_answers_from_many_threads():
    rng = np.random.default_rng(0)
    Z = rng.integers(-5, 6, size=(3000, 40), dtype=np.int64)
    W = rng.integers(-5, 6, size=40, dtype=np.int64)
    Z[Z @ W < 0] *= -1  # no mistakes but ties, so each scan runs a long way
    tie = rng.random(3000) < 0.2
    starts = list(range(0, 3000, 7))
    expected = [first_mistake_reference(Z, W, tie, start) for start in starts]
    with ThreadPoolExecutor(max_workers=4) as pool:
        found = list(pool.map(lambda start: _kernel.first_mistake(Z, W, tie, start), starts))
    assert found == expected


@needs_kernel
def test_c_scan_lets_other_threads_run_while_it_scans():
    # A scan of 100,000 x 64 rows without a mistake takes milliseconds. With the switch
    # interval raised, a thread gives up the GIL only when it chooses to (sleep(0) here, the
    # scan's own release there): were the GIL held during the scan, the main thread could
    # not run between the worker's two clock readings.
    Z, W = np.ones((100_000, 64), dtype=np.int64), np.ones(64, dtype=np.int64)
    tie = np.zeros(len(Z), dtype=bool)
    go, span = threading.Event(), []

    def scan() -> None:
        go.wait()
        entered = time.perf_counter()
        result = _kernel.first_mistake(Z, W, tie, 0)
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
    assert result == (-1, 0)
    assert any(entered < tick < left for tick in ticks)


@needs_kernel
@given(problem=problems(entries=small_or_guarded), data=st.data())
def test_add_row_adds_the_row_in_place(problem, data):
    Z, W, _ = problem
    i = data.draw(st.integers(0, len(Z) - 1))
    before = W.copy()
    assert _kernel.add_row(W, Z, i) is None
    assert W.tolist() == [w + z for w, z in zip(before.tolist(), Z[i].tolist())]


@needs_kernel
def test_add_row_overflow_raises_and_leaves_w_unchanged():
    W = np.array([1, INT64_MAX], dtype=np.int64)
    Z = np.array([[5, 0], [5, 1]], dtype=np.int64)
    with pytest.raises(OverflowError) as raised:
        _kernel.add_row(W, Z, 1)
    assert str(raised.value) == f"add_row(): W[1] + Z[1, 1] = {INT64_MAX} + 1 does not fit in int64"
    assert W.tolist() == [1, INT64_MAX]


def int64s(*shape):
    """Zeros of int64."""
    return np.zeros(shape, dtype=np.int64)


@needs_kernel
@pytest.mark.parametrize("args, error, pattern", [
    ((int64s(2), int64s(3, 2), 3), ValueError, r"i=3 must satisfy 0 <= i <= n-1=2"),
    ((int64s(2), int64s(3, 2), -1), ValueError, r"i=-1 must satisfy 0 <= i <= n-1=2"),
    ((int64s(3), int64s(3, 2), 0), ValueError, r"W has length 3 but Z has 2 columns"),
    ((np.zeros(2), int64s(3, 2), 0), TypeError, r"W must hold int64 items"),
    ((int64s(2), np.asfortranarray(int64s(3, 2)), 0), ValueError, r"Z must be C-contiguous"),
    ((int64s(2), int64s(3, 2)), TypeError, r"takes 3 arguments \(W, Z, i\), got 2"),
], ids=["i past the end", "i negative", "W too long", "W float64", "Z not contiguous", "two arguments"])
def test_add_row_rejects_bad_arguments_naming_them(args, error, pattern):
    with pytest.raises(error, match=rf"add_row\(\).*{pattern}"):
        _kernel.add_row(*args)


@needs_kernel
def test_add_row_refuses_a_read_only_w():
    W = np.zeros(2, dtype=np.int64)
    W.flags.writeable = False
    with pytest.raises(ValueError, match=r"^add_row\(\): W must be writable"):
        _kernel.add_row(W, np.ones((1, 2), dtype=np.int64), 0)


def test_loader_falls_back_to_none_without_the_extension(monkeypatch):
    monkeypatch.setitem(sys.modules, "verify_perceptron._scan", None)  # makes the import fail
    spec = importlib.util.spec_from_file_location("verify_perceptron._kernel_without_scan", _kernel.__file__)
    assert spec is not None and spec.loader is not None
    loader = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loader)
    assert (loader.AVAILABLE, loader.first_mistake, loader.add_row) == (False, None, None)
    assert loader.IMPORT_ERROR is not None and "verify_perceptron._scan" in loader.IMPORT_ERROR


@pytest.mark.skipif(os.environ.get("VERIFY_PERCEPTRON_REQUIRE_KERNEL") != "1",
                    reason="set VERIFY_PERCEPTRON_REQUIRE_KERNEL=1 to demand the compiled kernel")
def test_kernel_is_built_when_required():
    assert AVAILABLE, f"VERIFY_PERCEPTRON_REQUIRE_KERNEL=1 but the C kernel did not import: {_kernel.IMPORT_ERROR}"
