"""The reference u of the soft-margin bound for a run that did not converge: `best_reference`.

The soft-margin bound (`verify_perceptron.check.soft_margin`) holds for any
reference u and margin ρ fixed before the run; without a separator, the
checker takes as u the weights the run visited whose bound is smallest at its
end. Which u is taken only chooses which true theorem is checked, so the
candidates are ranked in floats (their margins a block of candidates at a
time, `verify_perceptron.notes.soft_margin.choose_columns`; on large data a
floor under each figure first, `verify_perceptron.notes.soft_floor`), and
the one taken is confirmed to have a positive margin exactly.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from typing import Any

import numpy as np

from ..data.integers import ExactMatrix, scaled_floats
from ..data.limb_margins import LimbMargins
from ..data.trace import LazyUpdates, Trace
from ..notes.soft_floor import COMPILED, column_floor, first_level
from ..notes.soft_margin import choose_columns
from .separator import scaled_separator

__all__ = ["VISITED", "best_reference", "has_positive_margin"]

#: How many of the weights a run visited (besides its last ones) `best_reference` tries as u.
VISITED = 32
#: `best_reference` measures its candidates in blocks of about this many margins (float64 cells).
_BLOCK_CELLS = 2**18
#: ... and never in blocks of fewer than this many (on small data an eighth of the samples' cells is less than a
#: column: iris versicolor/virginica's 35 candidates were measured one by one, 35 calls of `choose_columns`).
_MIN_BLOCK_CELLS = 2**15
#: The samples are made floats (`ExactMatrix.float_rows`) a piece of rows of about this many cells at a time: 512 KiB
#: of floats a piece. (Pieces of `_BLOCK_CELLS`, 2 MiB, stood with the floors' columns at `verify`'s peak at 10^5 x 10
#: not separable: 3.04-3.19x the int64 data in the process, 2.74-2.88 with pieces of 2^16 cells.)
_ROW_CELLS = 2**16

#: From this many samples on, `best_reference` measures its blocks of candidates in `_WORKERS` threads at once
#: (a block is then one candidate, 10^6 margins sorted: about 90 ms, in NumPy calls that release the GIL).
_THREADS_FROM = 2**16
_WORKERS = 2
#: From this many samples on (a column a block), `best_reference` first puts a floor under each candidate's
#: figure (`verify_perceptron.notes.soft_floor`: about half a measure's time, no sort) and measures only the
#: candidates whose floor is below the least figure found: at 10^6 x 10 not separable, 1 or 2 of 33.
_FLOORS_FROM = 2**16
#: ... in this thread and one other (`_beside`) where threads are used, if True: at 10^6 x 10 the floors' malloc
#: arena in the second thread raised the process's peak by 30 MB (0.34x the int64 data) over floors in this
#: thread alone (False), which take about twice the wall time (1.2 s of CPU in all) where a second core is idle.
_FLOORS_BESIDE = False
#: From this many samples on (with threads), each next candidate's margins are made in a second thread while this
#: one's floor is found (`_ahead`; the floors' own arrays stay in this thread). Below it a column's work is a few
#: ms, and each hand-over waits for the other thread to be scheduled: at 10^5 x 10 on a machine loaded 6 to 7
#: deep, it made `best_reference` slower in wall time (0.76-1.03 -> 1.2-1.35 s after the run).
_AHEAD_FROM = 2**19
#: The floors' margins are made this many columns at a time (`_ranked`'s `each_margins`: each piece of rows made
#: once for them), in this thread; `_AHEAD_GROUP` at a time in the second thread (`_floors_ahead`, which holds two
#: such sets): each column n floats, about 0.09x the int64 data at d = 10.
_GROUP = 4
_AHEAD_GROUP = 2


def best_reference(matrix: ExactMatrix, trace: Trace) -> tuple[tuple[Fraction, ...], str] | None:
    """u for a run that did not converge: of the weights it visited, the one whose bound is smallest at its end.

    The candidates are the run's last weights and up to `VISITED` of the
    weights after its kept updates, evenly spaced; each is measured with ρ
    chosen for the run's mistake counts (`choose_columns`). The measure only
    chooses which true theorem is checked, so it is made in floats, every
    candidate's margins in one matrix product; the candidate taken is the
    best one that has a positive margin exactly. Returns ``(u, source)``, or
    None when no candidate has a positive margin.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> from verify_perceptron.data.samples import sample_matrix
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> from verify_perceptron.run.reference import train
    >>> data = example("xor")
    >>> trace = train(data)  # cycles back to w = 0
    >>> u, source = best_reference(sample_matrix(data, get_convention("classic")), trace)
    >>> [str(v) for v in u], source
    (['0', '0', '1'], 'the weights after update 2, the best of 3 the run visited')
    """
    kept = trace.updates  # built on demand by the fast engine: only the one taken is made
    step = max(1, -(-len(kept) // VISITED))
    counts = np.asarray(trace.mistakes_per_sample, dtype=np.int64)
    seen: dict[tuple[int, ...], Any] = {}  # scaled integer weights: the run's last weights, or an update's index
    visited = range(0, len(kept), step)  # (from the fast engine's records when there are, read together)
    recorded = kept.scaled_weights_of(visited) if isinstance(kept, LazyUpdates) else None
    for index in [None, *visited]:
        if index is None:
            W = scaled_separator(trace.final_weights)[0]
        else:  # from the fast engine's record when there is one, else from the update's fractions
            W = scaled_separator(kept[index].weights)[0] if recorded is None else recorded[index // step]
        key = tuple(W)
        if any(key) and key not in seen:
            seen[key] = index
    if not seen:
        return None
    # Each candidate's bound in floats, the margins of a block of candidates in one product; the best
    # is confirmed exactly.
    keys = list(seen)
    U, weights = np.stack([scaled_floats(list(W))[0] for W in keys], axis=1), counts.astype(np.float64)
    confirmed: dict[int, bool] = {}

    def positive(j: int) -> bool:
        """Whether candidate j has a positive margin exactly (in floats a margin near 0 may have the wrong sign)."""
        if j not in confirmed:
            confirmed[j] = has_positive_margin(matrix, keys[j])
        return confirmed[j]

    ranked, whole = _ranked(matrix, U, weights, floors=True)
    # (peakfit) the exact margins `positive` makes (n Python integers past int64) need no float copy of the samples
    # beside them: of samples held in limbs it is the whole copy, as large as the int64 data (made again if read),
    # which lived on through the soft-margin check after the run
    matrix.forget_floats()
    if not whole and not (ranked and positive(min(ranked)[1])):  # the least not confirmed: every column measured
        ranked, whole = _ranked(matrix, U, weights)
        matrix.forget_floats()
    first = [j for _, j in sorted(ranked)]
    for j in first + sorted(set(range(len(keys))) - set(first)):
        if positive(j):
            index = seen[keys[j]]
            best = ((tuple(trace.final_weights), "the run's last weights") if index is None
                    else (tuple(kept[index].weights), f"the weights after update {kept[index].k}"))
            break
    else:
        return None
    tried = len(seen)
    return best[0], best[1] + (f", the best of {tried} the run visited" if tried > 1 else "")


def has_positive_margin(matrix: ExactMatrix, W: Sequence[int]) -> bool:
    """Whether some sample's margin z_i·W is positive, exactly: when
    `verify_perceptron.notes.soft_margin.choose_margin` finds a ρ for u = W (it
    returns None exactly when no margin is positive). ρ itself is chosen once, by the soft-margin check that takes
    u (`verify_perceptron.check.soft_margin.soft_margin_check`): it was chosen here too, 0.1 s at 10^6 x 10.

    Examples
    --------
    >>> from verify_perceptron.data.integers import ExactMatrix
    >>> Z = ExactMatrix(np.array([[1, -2], [-1, 2]]))
    >>> has_positive_margin(Z, [1, 0]), has_positive_margin(Z, [2, 1])  # margins (1, -1); (0, 0)
    (True, False)
    """
    if matrix.held is not None and (positive := LimbMargins.positive(matrix.held, W)) is not None:
        return positive  # (in limbs, up to the first block of rows with one: no Python integer per sample)
    return bool((matrix.products(list(W), norm_sq=sum(v * v for v in W)) > 0).any())


def _ranked(matrix: ExactMatrix, U: Any, weights: Any, *, floors: bool = False) -> tuple[list[tuple[float, int]], bool]:
    """`best_reference`'s measure: (the bound's logarithm in floats, column) for each column of U with a ρ, and
    whether every column was measured.

    With `floors`, on large samples (a column a block, from `_FLOORS_FROM` samples), each column first gets a
    floor under its figure (`verify_perceptron.notes.soft_floor.column_floor`, no sort), and columns are measured
    in the order of their floors until the next floor is above the least figure found: the columns left out
    cannot have the least figure, so the least (figure, column) is the one a measure of every column gives, the
    same floats (its column's figure is measured as without floors). Only the least is then known: the rest
    are not returned (the bool is False), and a caller that needs more measures every column.
    """
    n, d = matrix.shape
    # columns at a time: choose_columns makes about a dozen arrays of the block's size, so the block is at
    # most an eighth of the samples' own cells, and memory stays near the samples' own (past 2^18 cells, less;
    # below 2^15, a few MB at most whatever the samples)
    block = max(1, min(_BLOCK_CELLS, max(n * d // 8, _MIN_BLOCK_CELLS)) // max(n, 1))
    # the samples in floats a piece of rows at a time (`ExactMatrix.float_rows`): a whole float copy was as
    # large as the int64 data, held through the soft-margin check (issue 32's peak at 10^5 x 100)
    rows = max(1, _ROW_CELLS // max(d, 1))
    pieces = range(0, n, rows)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        root_R = math.sqrt(max((float(np.max(np.einsum("ij,ij->i", F, F), initial=0.0))
                                for F in (matrix.float_rows(lo, lo + rows) for lo in pieces)), default=0.0))
        root_B = root_R * np.sqrt(np.einsum("ij,ij->j", U, U))
        # each column over its own √B: every margin at most about 1 (|z·U| <= R·‖U‖), so no square overflows
        root_B = np.where((root_B > 0) & np.isfinite(root_B), root_B, 1.0)

    def margins(start: int) -> Any:
        """The block of candidates from column `start`, each column's margins over its √B (as measured)."""
        width = min(block, U.shape[1] - start)
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):  # (per thread: a context variable)
            products = (np.concatenate([matrix.float_rows(lo, lo + rows) @ U[:, start:start + block]
                                        for lo in pieces]) if n else np.zeros((0, width)))
            products /= root_B[start:start + block]  # (in place: the same quotients, one array less)
            return products

    def each_margins(group: Sequence[int], outs: Sequence[Any]) -> Sequence[Any]:
        """`margins(j)` (blocks of one) for each column j of `group`, into its (n, 1) array of `outs`: the same
        products piece by piece, bit for bit, each piece of rows made once for them all (rows made from the user's
        X, `ExactMatrix.float_rows`, cost about four times the product: 35 times at 10^6 x 10, once a column)."""
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            for lo in pieces:
                F = matrix.float_rows(lo, lo + rows)
                for j, out in zip(group, outs):
                    np.matmul(F, U[:, j:j + 1], out=out[lo:lo + rows])
            for j, out in zip(group, outs):
                out /= root_B[j:j + 1]
        return outs[:len(group)]

    def measured(start: int) -> list[tuple[float, int]]:
        """The block of candidates from column `start`: (the bound's logarithm, column) for each with a ρ."""
        block_margins = margins(start)
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            columns = choose_columns(block_margins, weights, [1.0] * block_margins.shape[1])
        return [(chosen[1], start + j) for j, chosen in enumerate(columns) if chosen is not None]

    starts = range(0, U.shape[1], block)
    threads = n >= _THREADS_FROM and len(starts) > 1
    if floors and n >= _FLOORS_FROM and block == 1:
        hit = np.flatnonzero(weights)
        if threads and n >= _AHEAD_FROM:
            floor = _floors_ahead(each_margins, starts, n, weights, hit)
        elif threads and _FLOORS_BESIDE:
            floor = _beside(lambda j: column_floor(margins(j)[:, 0], weights, 1.0, hit=hit), starts)
        else:
            outs = [np.empty((n, 1)) for _ in range(min(_GROUP, len(starts)))]
            floor = [column_floor(column[:, 0], weights, 1.0, hit=hit)
                     for group in _groups(starts, _GROUP) for column in each_margins(group, outs)]
            del outs
        ranked: list[tuple[float, int]] = []
        least = math.inf
        for j in sorted(starts, key=lambda j: (floor[j], j)):
            if floor[j] > least:  # every column left has a floor, so a figure, above the least found
                return ranked, False
            ranked += measured(j)
            least = min([least, *(value for value, _ in ranked)])
        return ranked, True
    parts = _in_threads(measured, starts) if threads else [measured(start) for start in starts]
    return [item for part in parts for item in part], True  # (each block's figures the same whichever thread made them)


def _floors_ahead(margins: Callable[[Sequence[int], Sequence[Any]], Sequence[Any]], starts: range, n: int,
                  weights: Any, hit: Any) -> list[float]:
    """Each column's floor, its margins and (with the C passes) its floor's first pass over them (`first_level`)
    made in a second thread ahead of this one (`_ahead`), `_AHEAD_GROUP` columns at a time (`margins`: each piece
    of rows read once for them), into two sets of columns and of arrays of cells (a byte a weighted sample) of this
    thread's, each filled in turn; all let go on return, before any column is measured."""
    width = min(_AHEAD_GROUP, len(starts))
    columns = [[np.empty((n, 1)) for _ in range(width)] for _ in range(2)]
    cells = [[np.empty(len(hit), dtype=np.uint8) for _ in range(width)] for _ in columns] if COMPILED else None

    def made(group: Sequence[int], slot: int) -> list[tuple[Any, Any]]:
        return [(column, None if cells is None else first_level(column[:, 0], weights, hit=hit, cell=cells[slot][i]))
                for i, column in enumerate(margins(group, columns[slot]))]

    return [column_floor(column[:, 0], weights, 1.0, hit=hit, first=first)
            for group in _ahead(made, _groups(starts, width)) for column, first in group]


def _groups(starts: range, size: int) -> list[range]:
    """`starts` in consecutive groups of `size` (the last perhaps fewer).

    Examples
    --------
    >>> _groups(range(5), 2)
    [range(0, 2), range(2, 4), range(4, 5)]
    """
    return [starts[i:i + size] for i in range(0, len(starts), size)]


def _ahead(work: Callable[[Any, int], Any], starts: Sequence[Any]) -> Iterator[Any]:
    """work(start, slot) for each start in turn, the next one made in a second thread while the caller reads
    this one (its floor, so the products and the floor's first pass are off this thread's path); slot is 0, 1, 0,
    ... in turn.

    `work` fills arrays of this thread's, one set a slot: the second thread allocates only a piece of rows in
    floats and a few small arrays, so its malloc arena keeps little (a whole column's floor there, in NumPy, kept
    30 MB at 10^6 x 10: `_FLOORS_BESIDE`). A slot is filled again only once the caller has asked for the start
    after the one it holds.
    """
    if not len(starts):
        return
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="verify_perceptron-reference") as pool:
        future = pool.submit(work, starts[0], 0)
        for i in range(len(starts)):
            made = future.result()
            if i + 1 < len(starts):  # (the caller is done with start i - 1, whose slot this one reuses)
                future = pool.submit(work, starts[i + 1], (i + 1) % 2)
            yield made
            del made


def _beside(work: Callable[[int], Any], starts: range) -> list[Any]:
    """[work(start) for start in starts], every other one in a second thread: this thread and one other, not two
    new ones (each thread's allocations come from an arena of its own, which keeps what it freed: with two
    new threads the floors raised the process's peak, later in the soft-margin check, by 57 MB at 10^6 x 10)."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="verify_perceptron-reference") as pool:
        theirs = [pool.submit(work, start) for start in starts[1::2]]
        mine = [work(start) for start in starts[0::2]]
        done = [future.result() for future in theirs]
    return [done[i // 2] if i % 2 else mine[i // 2] for i in range(len(starts))]


def _in_threads(work: Callable[[int], Any], starts: range) -> list[Any]:
    """[work(start) for start in starts] in `_WORKERS` threads (NumPy's sorts and sums, most of it, release the GIL)."""
    with ThreadPoolExecutor(max_workers=_WORKERS, thread_name_prefix="verify_perceptron-reference") as pool:
        return list(pool.map(work, starts))
