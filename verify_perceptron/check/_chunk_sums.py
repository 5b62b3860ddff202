"""The whole-run record's exact sums over a chunk of updates in NumPy (`verify_perceptron.check.whole_run`).

Its chunks' prefix sums of scores, norms and margins at a few points, exactly, from int64 arrays cut into
32-bit pieces (or Python integers as they are), and the norms' limbs as columns. The one-pass C reading
(`verify_perceptron.check.kernel.record_sums`) replaces them where it can; these are the general path. Margins
that are Python integers (against a certified separator, 1,627 bits on breast cancer raw) are summed over
their limbs in C (`margin_sums`), where the 53,256 additions of Python integers of a chunk took 2.7 ms.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..data import kernel as _data_kernel
from ..data.integers import as_limbs, biggest_entry, score_values
from ..data.limb_arrays import int_limbs, limbs_for_bits

__all__ = ["held_margins", "margin_sums", "norm_columns", "prefix_sums"]


def norm_columns(matrix: Any) -> tuple[Any, ...]:
    """Every ‖z_i‖² of `matrix` (an `ExactMatrix`) as the columns of its L 64-bit limbs, lowest first, L the
    fewest that hold max ‖z_i‖² (two's complement: the top limb's sign bit is 0, norms being >= 0): the held
    matrix's own norm limbs where it is held in limbs (their higher limbs, all 0, left out), else its 128-bit
    halves, else the Python integers cut into limbs once.

    Examples
    --------
    >>> from verify_perceptron.data.integers import ExactMatrix
    >>> [c.tolist() for c in norm_columns(ExactMatrix(np.array([[2**40, 2**40], [1, 0]])))]  # 2^81 and 1
    [[0, 1], [131072, 0]]
    >>> big = ExactMatrix(np.array([[2**70, 0], [-3, 2**64]], dtype=object))  # 2^140 and 2^128 + 9
    >>> [c.tolist() for c in norm_columns(big)]
    [[0, 9], [0, 0], [4096, 1]]
    """
    L = limbs_for_bits(int(matrix.max_norm_sq).bit_length())
    held = getattr(matrix, "held", None)
    if held is not None and held.norm_limbs.shape[1] >= L:
        return tuple(held.norm_limbs[:, k] for k in range(L))  # (views: no copy)
    halves = matrix.norm_halves() if L == 2 else None
    limbs = halves.reshape(-1, 2) if halves is not None else as_limbs(np.asarray(matrix.norms, dtype=object), L)
    return tuple(np.ascontiguousarray(limbs[:, k]) for k in range(L))


def prefix_sums(js: Sequence[int], *arrays: tuple[Any, int]) -> list[int]:
    """[Σ_{i<=j} factor·value_i for j in js] over the (array, factor) pairs, exactly. An int64 array of shape
    (m,) or (m, L), or a tuple of L int64 columns (64-bit limbs, lowest first, two's complement over all L),
    is cut into 32-bit pieces (unsigned, the top one signed) whose sums stay inside int64 for up to 2^31 rows;
    an object array of Python integers is summed as it is. Each piece is summed between the points asked for
    (`np.add.reduceat`: no cumulative array of the rows, and none past the last point), and the pieces are
    joined at the points only.

    Examples
    --------
    >>> prefix_sums([0, 1, 2], (np.array([2**62, 2**62, -5], dtype=np.int64), 2),
    ...              (np.array([[0, 1], [3, 0], [0, -1]]), 1)) == [2**63 + 2**64, 2**64 + 2**64 + 3, 2**64 - 7]
    True
    >>> prefix_sums([2], (np.array([[0, 1], [3, 0], [0, -1]]), 1)) == prefix_sums([2], ((np.array([0, 3, 0]),
    ...                                                                                np.array([1, 0, -1])), 1))
    True
    >>> prefix_sums([2, 0], (np.array([2**70, 1, -3], dtype=object), 1)) == [2**70 - 2, 2**70]
    True
    >>> prefix_sums([2, 0], (np.array([[2**70], [1], [-3]], dtype=object), 1)) == [2**70 - 2, 2**70]
    True
    """
    points = sorted(set(js))
    if not points:
        return [0] * len(js)
    starts = [0, *(t + 1 for t in points[:-1])]  # strictly increasing: each segment ends at its point
    end = points[-1] + 1
    # per shift: the sum at the points of its pieces' running sums times their factors (Python integers)
    joined: dict[int, Any] = {}

    def add(values: Any, shift: int, factor: int) -> None:
        # (int64 pieces: each running sum is at most the rows' sum, inside int64 as the segments' are)
        running = np.cumsum(np.add.reduceat(values[:end], starts)).astype(object)
        running *= factor
        joined[shift] = running if shift not in joined else joined[shift] + running

    for array, factor in arrays:
        if not isinstance(array, tuple) and array.dtype != np.int64:
            # Python integers: one a row, also as an (m, 1) column (scores the Python path wrote in one "limb")
            add(np.asarray(array, dtype=object).reshape(len(array)), 0, factor)
            continue
        columns = array if isinstance(array, tuple) else tuple(array.reshape(len(array), -1).T)
        # one int64 segment sum is exact where len·max|value| < 2^63
        if len(columns) == 1 and len(columns[0]) * biggest_entry(columns[0]) < 2**63:
            add(columns[0], 0, factor)
            continue
        top = len(columns) - 1
        for at, limb in enumerate(columns):
            limb = limb[:end]
            add(limb & 0xFFFFFFFF, 64 * at, factor)
            add(limb >> 32 if at == top else (limb >> 32) & 0xFFFFFFFF, 64 * at + 32, factor)
    totals = sum((running << shift if shift else running for shift, running in joined.items()),
                 np.zeros(len(points), dtype=object))  # (an object array: NumPy's loop of Python integers)
    at_point = dict(zip(points, totals.tolist()))
    return [at_point[j] for j in js]


def held_margins(margins: Any) -> Any:
    """The margins in limbs, (n, K) int64, where they are Python integers (an object array) and the C sums
    (`verify_perceptron.data.kernel.gathered_sums`) are built; else None (`prefix_sums` reads them as they are).

    Examples
    --------
    >>> held = held_margins(np.array([2**70, -3], dtype=object))
    >>> held is None or held.tolist() == [[0, 64], [-3, -1]]
    True
    >>> held_margins(np.array([5, -3]))  # int64: cut into pieces by `prefix_sums`
    """
    if _data_kernel.gathered_sums is None or not isinstance(margins, np.ndarray) or margins.dtype != object:
        return None
    values = margins.tolist()
    return int_limbs(values, limbs_for_bits(max(map(abs, values), default=0).bit_length()))


def margin_sums(margins: Any, held: Any, rows: Any, points: Sequence[int]) -> list[int]:
    """``prefix_sums(points, (margins[rows], 1))`` for `points` strictly increasing: from `held` (`held_margins`)
    in one pass in C where it is not None, with no Python integer per update.

    Examples
    --------
    >>> margins = np.array([2**70, -3, 5], dtype=object)
    >>> rows, points = np.array([0, 1, 0, 2]), [0, 2, 3]
    >>> in_c = margin_sums(margins, held_margins(margins), rows, points)
    >>> in_c == [2**70, 2**71 - 3, 2**71 + 2] == margin_sums(margins, None, rows, points)
    True
    """
    gathered = _data_kernel.gathered_sums
    if held is None or gathered is None:
        return prefix_sums(points, (margins[rows], 1))
    out = np.empty((len(points), held.shape[1] + 1), dtype=np.int64)
    gathered(held, np.ascontiguousarray(rows, dtype=np.int64), np.asarray(points, dtype=np.int64), out)
    values: list[int] = score_values(out).tolist()
    return values


def step_sums(scores: Any, rows: Any, norms: Any, points: Sequence[int]) -> list[int] | None:
    """``prefix_sums(points, (scores, 2), (norms[rows], 1))`` for `points` strictly increasing: Σ 2·s + ‖z‖² over
    the updates up to each point, in two C passes (the scores' limbs (m, L) over every row, the norms' limbs
    (n, K) gathered by `rows`: `gathered_sums`), with no Python integer per update; None where the C sums are
    not built.

    Examples
    --------
    >>> scores, norms = np.array([[-5, -1], [0, 0], [3, -1]]), np.array([[9], [2**62]])
    >>> sums = step_sums(scores, np.array([1, 0, 1]), norms, [0, 2])
    >>> sums is None or sums == prefix_sums([0, 2], (scores, 2), (norms[[1, 0, 1]], 1))
    True
    """
    gathered = _data_kernel.gathered_sums
    if gathered is None:
        return None
    at = np.asarray(points, dtype=np.int64)
    s = np.empty((len(at), scores.shape[1] + 1), dtype=np.int64)
    gathered(np.ascontiguousarray(scores), np.arange(len(scores), dtype=np.int64), at, s)
    z = np.empty((len(at), norms.shape[1] + 1), dtype=np.int64)
    gathered(norms, np.ascontiguousarray(rows, dtype=np.int64), at, z)
    return [2 * a + b for a, b in zip(score_values(s).tolist(), score_values(z).tolist())]
