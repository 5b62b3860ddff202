"""The soft-margin check's filter over a chunk of mistakes in one compiled pass: `filtered_chunk`.

`verify_perceptron.check.soft_margin.SoftMarginCheck._filtered` tells the
check of up to 2^16 mistakes at once: a running float sum of the samples'
d²/ρ² gives the filter's right side after each, the updates it cannot settle
are listed, and D² is summed exactly at those, at the chunk's last update and
where √N comes nearest to the bound. In NumPy that was about a dozen passes
over the chunk and one gather per 46-bit piece of the squares (eight random
reads a mistake at 10^6 samples); `verify_perceptron.check.kernel.soft_chunk`
makes the same floats in the same order and the same exact sums in one pass,
reading each sample's pieces side by side: the pieces are held (n, K) in
memory (`piece_rows`), seen by the check as their (K, n) transpose. Where
the squares come from margins held in limbs, the margins are held instead
and each chunk's rows are squared and cut as it is read (`MarginPieces`).

The compiled pass decides nothing: every doubtful update is decided in
integers by the caller, from exact sums of exact pieces (each below 2^46, so
2^16 of them stay below 2^62 in int64); the floats it returns are NumPy's,
bit for bit, so the nearest point the report gives is the same.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import kernel as _kernel

__all__ = ["MarginPieces", "chunk_floats", "filtered_chunk", "joined", "piece_rows", "taken", "usable"]

#: The pieces' width (`verify_perceptron.check.soft_margin`'s `_PIECE_BITS`).
PIECE_BITS = 46


def piece_rows(count: int, n: int) -> Any:
    """An uninitialized (count, n) int64 array of pieces, laid out as n rows of `count` (its transpose C-contiguous).

    Examples
    --------
    >>> pieces = piece_rows(3, 5)
    >>> pieces.shape, pieces.T.flags.c_contiguous
    ((3, 5), True)
    """
    return np.empty((n, count), dtype=np.int64).T


class MarginPieces:
    """The squares d² = max(0, ρ − m)² of margins m held in limbs, cut into `count` pieces of 46 bits on the rows
    asked for (`kernel.deficit_pieces`, the cut of `kernel.deficit_squares`): a (count, n) array of pieces
    (`piece_rows`) held as the margins' n × K limbs, 0.27x the int64 data at 10^6 x 10 (K = 3), where the pieces
    of every sample were 0.64x (count = 7). Needs the compiled pass (`kernel.deficit_pieces`).

    Examples
    --------
    >>> from verify_perceptron.data.limb_arrays import int_limbs
    >>> pieces = MarginPieces(int_limbs([3, -2**50, 9], 2), int_limbs([5], 2)[0], 3)
    >>> pieces.shape
    (3, 3)
    >>> _kernel.deficit_pieces is None or taken(pieces, np.array([1, 0, 2])).T.tolist() == [
    ...     [((2**50 + 5) ** 2 >> (46 * k)) % 2**46 for k in range(3)], [4, 0, 0], [0, 0, 0]]
    True
    """

    def __init__(self, limbs: Any, rho: Any, count: int) -> None:
        self.limbs, self.rho, self.shape = limbs, rho, (count, len(limbs))

    def rows(self, rows: Any) -> Any:
        """The pieces of the squares on `rows` (int64 sample numbers), as `piece_rows(count, len(rows))` holds them."""
        rows = np.ascontiguousarray(rows, dtype=np.int64)
        out = piece_rows(self.shape[0], len(rows))
        assert _kernel.deficit_pieces is not None  # (made only where it is)
        _kernel.deficit_pieces(self.limbs, self.rho, rows, out.T)
        return out


def taken(pieces: Any, rows: Any) -> Any:
    """``pieces[:, rows]`` for pieces held ((K, n) int64) or made from margins (`MarginPieces`): (K, len(rows));
    `rows` a sequence of sample numbers or a slice (a view of pieces held).

    Examples
    --------
    >>> taken(np.array([[1, 2, 3], [4, 5, 6]]), np.array([2, 0])).tolist()
    [[3, 1], [6, 4]]
    """
    if not isinstance(pieces, MarginPieces):
        return pieces[:, rows]
    return pieces.rows(np.arange(*rows.indices(pieces.shape[1])) if isinstance(rows, slice) else rows)


def usable(pieces: Any, over: Any) -> bool:
    """Whether `filtered_chunk` can read `pieces` ((K, n) int64 with C-contiguous rows of K) and `over`.

    Examples
    --------
    >>> usable(piece_rows(2, 4), np.zeros(4)) == (_kernel.soft_chunk is not None)
    True
    >>> usable(np.zeros((2, 4), dtype=np.int64), np.zeros(4))  # (K, n) in memory: not rows of K
    False
    """
    if isinstance(pieces, MarginPieces):
        return (_kernel.soft_chunk is not None and isinstance(over, np.ndarray) and over.dtype == np.float64
                and over.shape == pieces.shape[1:])
    return (_kernel.soft_chunk is not None and isinstance(pieces, np.ndarray) and pieces.dtype == np.int64
            and pieces.ndim == 2 and 1 <= pieces.shape[0] <= 8 and pieces.T.flags.c_contiguous
            and isinstance(over, np.ndarray) and over.dtype == np.float64 and over.flags.c_contiguous
            and over.shape == pieces.shape[1:])


def filtered_chunk(over: Any, pieces: Any, rows: Any, *, base: float, root_B: float, N0: int, factor: float,
                   use_filter: bool) -> tuple[list[int], int, float, Any]:
    """The filter over mistakes on `rows` (1 to 2^16 of them), the first numbered `N0`, after D²/ρ² = `base`.

    Returns ``(doubtful, t, nearest, sums)``: the updates t whose √N·factor
    exceeds the computed side √(B/ρ²) + √(base + Σ d²/ρ²) (every one without
    `use_filter`), the first t where √N / side is largest and that ratio, and
    ``sums`` ((len(doubtful) + 2, K) int64): the pieces' sums over rows[:t + 1]
    at each doubtful t, then at the last update, then at the nearest one.
    `usable(pieces, over)` must hold.

    Examples
    --------
    >>> pieces = piece_rows(2, 2)
    >>> pieces[:] = [[5, 7], [0, 1]]  # d² = 5 and 7 + 2^46
    >>> over = np.array([5.0, 7.0 + 2.0**46])
    >>> if _kernel.soft_chunk is not None:
    ...     doubtful, t, nearest, sums = filtered_chunk(over, pieces, np.array([1, 0]), base=0.0, root_B=1.0,
    ...                                                 N0=1, factor=1.0, use_filter=True)
    ...     assert doubtful == [] and t == 1 and sums[-2].tolist() == [12, 1]
    """
    m = len(rows)
    doubtful = np.empty(m, dtype=np.int64)
    sums = np.empty((m + 2, pieces.shape[0]), dtype=np.int64)
    assert _kernel.soft_chunk is not None  # (`usable`)
    # (pieces made from margins: each row's squared and cut in the same pass, as it is read)
    held = (None, pieces.limbs, pieces.rho) if isinstance(pieces, MarginPieces) else (pieces.T,)
    count, t, nearest = _kernel.soft_chunk(over, held[0], np.ascontiguousarray(rows, dtype=np.int64), base,
                                           root_B, N0, factor, use_filter, doubtful, sums, *held[1:])
    return doubtful[:count].tolist(), t, nearest, np.concatenate([sums[:count], sums[m:]])


def chunk_floats(over: Any, rows: Any, *, base: float, root_B: float, N0: int, factor: float,
                 use_filter: bool) -> tuple[list[int], int, float]:
    """`filtered_chunk`'s floats in NumPy, for any `over` and rows (its sums are then made by the caller):
    ``(doubtful, t, nearest)``.

    Examples
    --------
    >>> chunk_floats(np.array([0.0, 3.0]), np.array([1, 1, 0]), base=0.0, root_B=1.0, N0=1, factor=1.0,
    ...              use_filter=True)  # sides 1 + √3, 1 + √6, 1 + √6; √N 1, √2, √3
    ([], 2, 0.5021179759100816)
    """
    m = len(rows)
    side = root_B + np.sqrt(base + np.cumsum(over[rows]))
    root_N = np.sqrt(np.arange(N0, N0 + m, dtype=np.float64))  # (each N exact: N < 2^53)
    doubtful = np.flatnonzero(root_N * factor > side) if use_filter else np.arange(m)
    with np.errstate(divide="ignore"):  # (√N / 0 is infinite: nearest of all)
        ratio = root_N / side  # not N / side²: that square can pass float64's range
    t = int(np.argmax(ratio))
    return doubtful.tolist(), t, float(ratio[t])


def joined(D_sq: int, sums: Any) -> list[int]:
    """D² plus each row of piece sums joined into one integer (piece k at 2^(46k)), exactly.

    Examples
    --------
    >>> joined(10, np.array([[1, 2], [3, 0]])) == [10 + 1 + 2 * 2**46, 13]
    True
    """
    return [D_sq + sum(int(v) << (k * PIECE_BITS) for k, v in enumerate(row)) for row in sums.tolist()]
