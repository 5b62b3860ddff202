"""What `best_reference` holds while it ranks the weights a run visited, against the size of the data (issue 32,
`peakfit6`).

`best_reference` multiplies the samples, made floats a piece of rows at a time (`ExactMatrix.float_rows`), by
each candidate u; on large data (one column a block) each candidate's margins first get a floor, a group of
columns at a time. The pieces of rows were 2^18 cells (2 MiB of floats), and stood beside the group's columns at
`verify`'s peak at 10^5 x 10 not separable; they are now `_ROW_CELLS` (2^16) cells. Each test here fails with
the pieces of 2^18 cells put back.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

from tests.test_peak_memory import _grid, _traced_peak
from verify_perceptron.check import soft_reference
from verify_perceptron.data.integers import ExactMatrix
from verify_perceptron.data.samples import sample_matrix
from verify_perceptron.data.trace import Trace
from verify_perceptron.notes.conventions import get_convention
from verify_perceptron.run import fast

N = 2**14


@pytest.fixture(scope="module")
def visited() -> tuple[ExactMatrix, Trace]:
    """A run of 2 epochs on 2^14 x 10 not separable (the scale grid's kind of data) and its sample matrix."""
    data = _grid(N, 10, separable=False, seed=8)
    matrix = sample_matrix(data, get_convention("classic"))
    trace = fast.run(data, "classic", max_epochs=2, matrix=matrix)
    matrix.release_copies()
    return matrix, trace


def _as_at_scale(monkeypatch: pytest.MonkeyPatch) -> None:
    """`best_reference` as at 10^5 rows: a column a block, its floors first, in this thread."""
    monkeypatch.setattr(soft_reference, "_MIN_BLOCK_CELLS", 1)
    monkeypatch.setattr(soft_reference, "_FLOORS_FROM", 1)
    monkeypatch.setattr(soft_reference, "_THREADS_FROM", 1)


def test_the_samples_are_made_floats_in_pieces_of_at_most_row_cells(
        visited: tuple[ExactMatrix, Trace], monkeypatch: pytest.MonkeyPatch) -> None:
    matrix, trace = visited
    _as_at_scale(monkeypatch)
    pieces: list[tuple[int, int]] = []
    real = matrix.float_rows

    def recorded(start: int, stop: int) -> Any:
        pieces.append((start, stop))
        return real(start, stop)

    monkeypatch.setattr(matrix, "float_rows", recorded)
    assert soft_reference.best_reference(matrix, trace) is not None
    d = matrix.shape[1]
    assert pieces and max(stop - start for start, stop in pieces) * d <= soft_reference._ROW_CELLS
    # every pass over the rows reads each row once, in order (the last piece's stop may pass the rows' end)
    read = [(start, min(stop, N)) for start, stop in pieces]
    firsts = [k for k, (start, _) in enumerate(read) if start == 0]
    passes = [read[i:j] for i, j in zip(firsts, [*firsts[1:], len(read)])]
    assert firsts[0] == 0 and len(passes) > 1
    assert all(p[-1][1] == N and all(a[1] == b[0] for a, b in zip(p, p[1:])) for p in passes)


def test_ranking_with_floors_holds_no_more_than_a_small_piece_of_rows_beside_its_columns(
        visited: tuple[ExactMatrix, Trace], monkeypatch: pytest.MonkeyPatch) -> None:
    # at 2^14 x 10 a piece of 2^18 cells is every row (1.2 MiB of floats, 0.91x the int64 data), of 2^16 cells a
    # quarter; the floors' 4 columns (0.36x), the counts and the figures' arrays are the same either way
    matrix, trace = visited
    _as_at_scale(monkeypatch)
    soft_reference.best_reference(matrix, trace)  # (the trace's counts and weights made once, as in a fit)
    peak, found = _traced_peak(lambda: soft_reference.best_reference(matrix, trace))
    assert found is not None
    assert peak / (N * 11 * 8) < 1.45  # 1.34 measured; 1.59 with pieces of 2^18 cells


def test_the_reference_taken_does_not_depend_on_the_size_of_the_pieces(
        visited: tuple[ExactMatrix, Trace], monkeypatch: pytest.MonkeyPatch) -> None:
    matrix, trace = visited
    _as_at_scale(monkeypatch)
    taken = {}
    for cells in (10, 2**9, 2**16, 2**18, 2**24):  # (10: a row a piece; 2^24: every row in one piece)
        monkeypatch.setattr(soft_reference, "_ROW_CELLS", cells)
        taken[cells] = soft_reference.best_reference(matrix, trace)
    assert taken[2**16] is not None and all(found == taken[2**16] for found in taken.values())


def test_the_reference_reads_the_runs_counts_as_their_array_without_a_tuple(
        visited: tuple[ExactMatrix, Trace]) -> None:
    # np.asarray of the run's Counts iterated them: a tuple of n ints made and kept in the trace (0.09x the int64
    # data at d = 10 from best_reference to the fit's end), then an array made from it (`Counts.__array__`).
    matrix, _ = visited
    data = _grid(N, 10, separable=False, seed=8)
    trace = fast.run(data, "classic", max_epochs=2, matrix=matrix)
    counts = trace.mistakes_per_sample
    taken = soft_reference.best_reference(matrix, trace)
    assert taken is not None and getattr(counts, "_tuple", ()) is None  # (no tuple made)
    assert np.asarray(counts, dtype=np.int64) is getattr(counts, "array")
    assert taken == soft_reference.best_reference(matrix, dataclasses.replace(trace, mistakes_per_sample=tuple(counts)))
