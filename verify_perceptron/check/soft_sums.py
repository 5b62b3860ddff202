"""Exact sums of the soft-margin check's shortfalls d² over a chunk of updates, at the points asked for.

`verify_perceptron.check.soft_margin.SoftMarginCheck` needs D² (the sum of
the shortfalls of the updates so far) exactly at a few updates of a chunk:
the last, the doubtful ones and the nearest. `prefix_sums` adds the
updates' values (int64 or Python integers), `counted_sums` takes each
sample's value once times its count between two points (wide shortfalls on
few samples), and `piece_sums` sums values held as 46-bit pieces.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["SEGMENT_COST", "counted_sums", "piece_sums", "prefix_sums"]

#: The pieces' width (`verify_perceptron.check.soft_margin`'s): 2^16 of them sum below 2^62 in int64.
PIECE_BITS = 46

#: What `counted_sums` pays per point asked for besides a count per sample, in Python additions of the shortfalls.
SEGMENT_COST = 64


def counted_sums(per_sample: Any, rows: Any, at: Sequence[int]) -> dict[int, int]:
    """{t: per_sample[rows[0]] + ... + per_sample[rows[t]] for t in `at`}, exactly, for Python integers
    `per_sample` (an object array, one per sample) and int64 `rows`.

    Between two points asked for, each sample's value is taken once, times how many of the updates there were
    on it (`np.bincount`): at most one product per sample, where `prefix_sums` adds each update's value. A
    chunk of 53,256 updates on breast cancer raw adds 3,200-bit shortfalls 53,256 times there; here it makes
    at most 569 products a point.

    Examples
    --------
    >>> counted_sums(np.array([2**70, 5, 0], dtype=object), np.array([0, 1, 0, 2, 1]), [3, 1, 4])
    {1: 1180591620717411303429, 3: 2361183241434822606853, 4: 2361183241434822606858}
    """
    sums, total, start = {}, 0, 0
    for t in sorted(set(at)):
        counts = np.bincount(rows[start:t + 1], minlength=len(per_sample))
        hit = np.flatnonzero(counts)
        if len(hit):
            total += int(np.dot(counts[hit].astype(object), per_sample[hit]))
        sums[t] = total
        start = t + 1
    return sums


def piece_sums(pieces: Any, rows: Any, at: Sequence[int]) -> dict[int, int]:
    """{t: Σ_{s<=t} value[rows[s]] for t in `at`}, exactly, for values held as `pieces` ((K, n) int64 of
    `PIECE_BITS` bits each, lowest first) and at most 2^16 int64 `rows`: each piece's values on the rows
    gathered as one column and summed between the points asked for (`np.add.reduceat`), so that no row of the
    (K, m) gather and no cumulative array is made (a chunk of 2^16 updates: 0.5 ms where the gather of every piece
    at once and its cumsum took 2 to 6 ms). Each segment's sum stays below 2^(PIECE_BITS + 16) < 2^63.

    Examples
    --------
    >>> pieces = np.array([[1, 2, 3], [0, 1, 0]], dtype=np.int64)  # values 1, 2 + 2^46, 3
    >>> piece_sums(pieces, np.array([1, 0, 1, 2]), [2, 0, 3]) == {0: 2 + 2**46, 2: 5 + 2**47, 3: 8 + 2**47}
    True
    """
    points = sorted(set(at))
    if not points:
        return {}
    upto = np.asarray(rows[:points[-1] + 1], dtype=np.intp)
    starts = [0, *(t + 1 for t in points[:-1])]  # strictly increasing: each segment holds at least its point
    parts = [np.add.reduceat(piece[upto], starts).tolist() for piece in pieces]
    sums, totals = {}, [0] * len(parts)
    for j, t in enumerate(points):
        totals = [total + part[j] for total, part in zip(totals, parts)]
        sums[t] = sum(total << (k * PIECE_BITS) for k, total in enumerate(totals))
    return sums


def prefix_sums(values: Any, at: Sequence[int]) -> dict[int, int]:
    """{t: values[0] + ... + values[t] for t in `at`}, exactly, for non-negative int64 `values` (overwritten
    where writeable: the caller's own gathered copy) or Python integers.

    The int64 values are cut into two 32-bit halves whose cumulative sums stay
    below 2^63 for up to 2^31 values. Python integers are summed between the
    points asked for (`np.add.reduceat`), so that no integer is made for the
    others.

    Examples
    --------
    >>> sums = prefix_sums(np.array([2**62, 2**62, 3], dtype=np.int64), [2, 0])
    >>> sums[0] == 2**62, sums[2] == 2**63 + 3
    (True, True)
    >>> prefix_sums(np.array([2**70, 1, 5], dtype=object), [1, 2]) == {1: 2**70 + 1, 2: 2**70 + 6}
    True
    """
    points = sorted(set(at))
    if not points:
        return {}
    if values.dtype == np.int64 and len(values) < 2**31:
        high = values >> 32
        low = np.bitwise_and(values, 0xFFFFFFFF, out=values if values.flags.writeable else None)
        np.cumsum(low, out=low)  # (in place: two arrays of the values' size in all)
        np.cumsum(high, out=high)
        return {t: int(low[t]) + (int(high[t]) << 32) for t in points}
    parts = np.add.reduceat(np.asarray(values[:points[-1] + 1], dtype=object), [0, *(t + 1 for t in points[:-1])])
    sums, total = {}, 0
    for t, part in zip(points, parts.tolist()):
        total += int(part)
        sums[t] = total
    return sums
