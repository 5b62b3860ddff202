"""The floor under a column's figure (notes/soft_floor.py) and best_reference's use of it (check/soft_reference.py)."""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np
import pytest

from verify_perceptron.check import soft_reference as check_module
from verify_perceptron.check.soft_reference import best_reference
from verify_perceptron.data.dataset import Dataset
from verify_perceptron.data.samples import sample_matrix
from verify_perceptron.notes.conventions import get_convention
from verify_perceptron.notes import soft_floor
from verify_perceptron.notes.soft_floor import column_floor
from verify_perceptron.notes.soft_margin import choose_columns
from verify_perceptron.run import fast


def _columns() -> list[tuple[Any, Any]]:
    """Columns of margins (over √B = 1) and weights: spread, clustered, tied, mostly unweighted, one sample."""
    rng = np.random.default_rng(32)
    cases = []
    for n, spread, shift in ((400, 0.1, 0.0), (3000, 0.01, 0.02), (3000, 0.3, -0.2), (20000, 0.05, 0.01)):
        m = rng.normal(shift, spread, n)
        cases.append((m, rng.integers(0, 4, n).astype(np.float64)))
        cases.append((np.round(m, 3), rng.integers(0, 2, n).astype(np.float64)))  # many equal margins
        cases.append((m, (rng.random(n) < 0.02).astype(np.float64) * 7))  # few samples weighted
    cases.append((np.array([0.25]), np.array([1.0])))
    cases.append((np.array([0.5, -0.5, 1e-300]), np.array([0.0, 3.0, 1.0])))
    return cases


def test_the_floor_is_at_most_the_figure_and_near_it() -> None:
    for margins, weights in _columns():
        figure = choose_columns(margins[:, None], weights, [1.0])[0]
        assert figure is not None
        floor = column_floor(margins, weights, 1.0)
        assert floor <= figure[1]
        assert figure[1] - floor < 1e-4 or len(margins) < 10  # (a floor of -inf would be useless: none is)
        assert column_floor(margins, weights, 1.0, hit=np.flatnonzero(weights)) == floor


def test_a_column_without_a_figure_or_floor() -> None:
    assert column_floor(np.array([-1.0, 0.0, -3.0]), np.ones(3), 1.0) == math.inf  # no ρ: no figure either
    assert choose_columns(np.array([[-1.0], [0.0], [-3.0]]), np.ones(3), [1.0]) == [None]
    for bad in (np.array([0.5, np.nan]), np.array([0.5, np.inf]), np.array([0.5, -2.0**600])):
        assert column_floor(bad, np.ones(2), 1.0) == -math.inf  # must be measured
    assert column_floor(np.array([0.5, 0.25]), np.array([1.0, -1.0]), 1.0) == -math.inf


def _not_separable(seed: int, n: int) -> tuple[Any, Any]:
    rng = np.random.default_rng(seed)
    data = Dataset(numerators=rng.integers(-50, 50, size=(n, 3)), y=rng.choice([-1, 1], size=n))
    return sample_matrix(data, get_convention("classic")), fast.run(data, "classic", max_epochs=40)


def test_best_reference_with_floors_takes_the_same_u_measuring_fewer(monkeypatch: pytest.MonkeyPatch) -> None:
    measured: list[int] = []
    floors: list[float] = []

    def counted(margins: Any, *args: Any) -> Any:
        measured.append(margins.shape[1])
        return choose_columns(margins, *args)

    def floored(*args: Any, **kwargs: Any) -> float:
        floors.append(floor := column_floor(*args, **kwargs))
        return floor

    monkeypatch.setattr(check_module, "choose_columns", counted)
    monkeypatch.setattr(check_module, "column_floor", floored)
    monkeypatch.setattr(check_module, "_MIN_BLOCK_CELLS", 1)  # one column a block, as at 10^6 rows
    for seed in (5, 6):
        matrix, trace = _not_separable(seed, 300)
        measured.clear()
        every = best_reference(matrix, trace)  # below _FLOORS_FROM: every column measured
        columns = len(measured)
        assert columns > 20 and not floors
        for threads, ahead in ((10**9, False), (1, False), (1, True)):
            monkeypatch.setattr(check_module, "_FLOORS_FROM", 1)
            monkeypatch.setattr(check_module, "_THREADS_FROM", threads)
            monkeypatch.setattr(check_module, "_FLOORS_BESIDE", threads == 1)  # (this thread and one other)
            monkeypatch.setattr(check_module, "_AHEAD_FROM", 1 if ahead else 10**9)  # (the next margins beside)
            measured.clear()
            assert best_reference(matrix, trace) == every
            assert len(floors) == columns and len(measured) < columns // 2
            floors.clear()
            monkeypatch.setattr(check_module, "_FLOORS_FROM", 2**16)


def test_best_reference_measures_every_column_whose_floor_is_below_the_least(monkeypatch: pytest.MonkeyPatch) -> None:
    # Floors in any order (each at most its column's figure) give the same u: the columns are measured from the
    # lowest floor until one is above the least figure. Here the floors put the least figure's column last.
    matrix, trace = _not_separable(7, 300)
    monkeypatch.setattr(check_module, "_MIN_BLOCK_CELLS", 1)
    every = best_reference(matrix, trace)
    figures: dict[int, float] = {}

    def remembered(margins: Any, *args: Any) -> Any:
        chosen = choose_columns(margins, *args)
        if chosen[0] is not None:
            figures[len(figures)] = chosen[0][1]
        return chosen

    monkeypatch.setattr(check_module, "choose_columns", remembered)
    best_reference(matrix, trace)
    least, spread = min(figures.values()), max(figures.values()) - min(figures.values())
    assert spread > 0
    def upside_down(margins: Any, weights: Any, root: float, **_: Any) -> float:
        figure = choose_columns(margins[:, None], weights, [root])[0]
        if figure is None:
            return math.inf
        return figure[1] if figure[1] == least else least - spread  # every other column is measured first

    monkeypatch.setattr(check_module, "column_floor", upside_down)
    monkeypatch.setattr(check_module, "_FLOORS_FROM", 1)
    assert best_reference(matrix, trace) == every


def test_best_reference_measures_every_column_when_the_least_has_no_exact_margin(monkeypatch: pytest.MonkeyPatch) -> None:
    # The least figure's column is taken only if its margin is positive exactly; when it is not (here: said not
    # to be), the floors know no second best, and every column is measured, as without floors.
    matrix, trace = _not_separable(8, 300)
    monkeypatch.setattr(check_module, "_MIN_BLOCK_CELLS", 1)
    refused: list[int] = []
    positive = check_module.has_positive_margin

    def refusing(*args: Any, **kwargs: Any) -> Any:
        if not refused:
            refused.append(1)
            return False
        return positive(*args, **kwargs)

    monkeypatch.setattr(check_module, "has_positive_margin", refusing)
    every = best_reference(matrix, trace)
    refused.clear()
    monkeypatch.setattr(check_module, "_FLOORS_FROM", 1)
    assert best_reference(matrix, trace) == every and refused


def test_the_margins_ahead_are_each_column_s_own_while_it_is_read() -> None:
    # `_ahead` fills two arrays in turn, the next column in a second thread while the caller reads this one: each
    # column, while the caller holds it, is its own start's (a fill of the array being read would change it).
    starts = range(0, 7)
    made: list[int] = []
    columns = [np.empty((5, 1)), np.empty((5, 1))]

    def margins(start: int, slot: int) -> Any:
        made.append(start)
        columns[slot][:] = start
        return columns[slot]

    for start, column in zip(starts, check_module._ahead(margins, starts)):
        assert column.shape == (5, 1) and (column == start).all()
        time.sleep(0.01)  # the next column is made meanwhile, into the other array
        assert (column == start).all()
    assert made == list(starts)
    assert list(check_module._ahead(margins, range(0))) == []


def test_the_margins_into_an_array_are_the_same_floats() -> None:
    # best_reference's floors read the margins made into `_ahead`'s arrays, its measure those it makes anew: the
    # same products piece by piece, so the floor is one of the column measured (bit for bit).
    matrix, trace = _not_separable(9, 3000)
    U = np.random.default_rng(9).normal(0.0, 1.0, (4, 3)) * 2.0**20
    seen: list[Any] = []
    firsts: list[Any] = []

    def kept(margins: Any, *args: Any, **kwargs: Any) -> float:
        seen.append(margins.copy())
        floor = column_floor(margins, *args, **kwargs)
        firsts.append(kwargs.pop("first", None))  # (made in the second thread, from these margins: the same floor)
        assert floor == column_floor(margins, *args, **kwargs)
        return floor

    weights = np.asarray(trace.mistakes_per_sample, dtype=np.float64)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(check_module, "_FLOORS_FROM", 1)
        patch.setattr(check_module, "_THREADS_FROM", 1)
        patch.setattr(check_module, "_MIN_BLOCK_CELLS", 1)
        patch.setattr(check_module, "_ROW_CELLS", 2**9)  # pieces of 128 rows: 24 a column
        patch.setattr(check_module, "column_floor", kept)
        ahead_calls: list[int] = []
        real_ahead = check_module._ahead

        def counted_ahead(*args: Any) -> Any:
            ahead_calls.append(1)
            return real_ahead(*args)

        patch.setattr(check_module, "_ahead", counted_ahead)
        for ahead in (False, True):
            patch.setattr(check_module, "_AHEAD_FROM", 1 if ahead else 10**9)
            check_module._ranked(matrix, U, weights, floors=True)
    plain, ahead_made = seen[:3], seen[3:]
    assert len(ahead_made) == 3 and ahead_calls == [1]  # (made ahead the second time only)
    assert firsts[:3] == [None] * 3 and all((first is not None) == soft_floor.COMPILED for first in firsts[3:])
    hit = np.count_nonzero(weights)  # the cells made ahead a byte a weighted sample (int64 ones were 0.36x the int64
    assert all(first.cell.dtype == np.uint8 and first.cell.nbytes == hit  # data at 10^6 x 10, at the fit's peak)
               for first in firsts[3:] if first is not None)
    assert all(np.array_equal(a.view(np.int64), b.view(np.int64)) for a, b in zip(plain, ahead_made))


needs_c = pytest.mark.skipif(soft_floor._FLOOR is None, reason="the C passes (notes/_floor.c) were not built")


@needs_c
def test_the_c_passes_give_numpy_s_cells_sums_and_floors(monkeypatch: pytest.MonkeyPatch) -> None:
    # `_sums` and `_range` in C (notes/_floor.c) against their NumPy references: the same cells, the same sums
    # bit for bit (each cell's terms added in the order of `at`, as np.bincount adds them), so the same floor.
    rng = np.random.default_rng(5)
    for margins, weights in _columns():
        at = np.flatnonzero(weights)
        assert soft_floor._FLOOR.column_range(margins) == soft_floor._numpy_range(margins)
        positive = margins[margins > 0]
        if len(positive) < 2:
            continue
        lows = np.sort(rng.choice(positive, 3))  # three rows of edges, as a finer level has them
        edges = soft_floor._edges(lows, lows * 1.5 + 0.01)
        owner = rng.integers(0, 3, len(at))
        for row in (owner, None):
            edge_rows = edges if row is not None else edges[:1]
            cell, sums, extremes = soft_floor._sums(margins, weights, at, row, edge_rows)
            want_cell, want_sums, want_extremes = soft_floor._numpy_sums(margins, weights, at, row, edge_rows)
            assert np.array_equal(cell, want_cell) and extremes == want_extremes
            assert np.array_equal(sums.view(np.int64), want_sums.view(np.int64))
    floors = [column_floor(m, w, 1.0) for m, w in _columns()]
    monkeypatch.setattr(soft_floor, "_FLOOR", None)
    assert [column_floor(m, w, 1.0) for m, w in _columns()] == floors


@needs_c
def test_the_c_passes_refuse_what_they_cannot_read() -> None:
    floor_sums = soft_floor._FLOOR.floor_sums
    column, weights, edges = np.array([0.5, 1.0]), np.ones(2), soft_floor._edges(np.array([0.5]), np.array([1.0]))
    cell, sums = np.empty(1, dtype=np.uint8), np.empty((1, soft_floor._CELLS + 2, 3))
    with pytest.raises(IndexError, match=r"at\[0\]=2 must be in 0..1"):
        floor_sums(column, weights, np.array([2]), None, edges, cell, sums)
    with pytest.raises(IndexError, match=r"owner\[0\]=1 in 0..0"):
        floor_sums(column, weights, np.array([0]), np.array([1]), edges, cell, sums)
    with pytest.raises(ValueError, match=r"sums.shape=\(1, 66, 2\) must be \(1, 66, 3\)"):
        floor_sums(column, weights, np.array([0]), None, edges, cell, np.empty((1, 66, 2)))
    with pytest.raises(ValueError, match=r"len\(weights\)=1 must be len\(column\)=2"):
        floor_sums(column, np.ones(1), np.array([0]), None, edges, cell, sums)
    with pytest.raises(TypeError, match="cells must hold bool or uint8 items"):  # (a cell is a byte: int64 was 8)
        floor_sums(column, weights, np.array([0]), None, edges, np.empty(1, dtype=np.int64), sums)
    wide = np.concatenate(([-math.inf], np.linspace(0.0, 1.0, 256), [math.inf]))[None, :]  # 258 edges: 257 cells
    with pytest.raises(ValueError, match=r"edges.shape=\(1, 258\) has more than 257 edges a row"):
        floor_sums(column, weights, np.array([0]), None, wide, cell, np.empty((1, 257, 3)))
    widest, cells = np.concatenate(([-math.inf], wide[0, 2:])), np.empty(2, dtype=np.uint8)  # 257 edges: cells to 255
    floor_sums(np.array([0.5, math.inf]), weights, np.array([0, 1]), None, widest[None, :], cells, np.empty((1, 256, 3)))
    assert cells.tolist() == [127, 255]  # (0.5: above -inf and 1/255 .. 127/255; inf: the last cell)
    with pytest.raises(TypeError, match="column must hold float64"):
        soft_floor._FLOOR.column_range(np.array([1, 2]))
    nan = soft_floor._FLOOR.column_range(np.array([1.0, np.nan, -2.0]))
    assert math.isnan(nan[0]) and math.isnan(nan[1]) and nan[2] == 1.0
    assert soft_floor._FLOOR.column_range(np.array([-1.0, 0.0])) == (-1.0, 0.0, math.inf)
