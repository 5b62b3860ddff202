"""A floor under `choose_columns`' figure for one column of margins, found without sorting the column.

`verify_perceptron.check.soft_reference.best_reference` ranks its candidate
references by the figure `choose_columns` gives each column (the least, over
up to 256 target margins ρ, of the bound's logarithm in floats); only the
least figure matters. `column_floor` gives a number that is at most a
column's figure, whatever the floats do, so that a column whose floor is
above a figure already found cannot be the least and need not be measured.

Why it is a floor. Take the real function, for ρ > 0,

    g(ρ) = 2·(ln(r + D(ρ)) − ln ρ),    D(ρ)² = Σ_{m_i < ρ} w_i·(ρ − m_i)²

(r = √B in the column's scale, w_i >= 0 the samples' weights). `choose_columns`
evaluates it at candidates ρ_k (positive margins of the column, so
p_min <= ρ_k <= p_max) through float sums of the K terms w·m^p (p = 0, 1, 2)
taken in sorted order and D² = S0·ρ² − 2·S1·ρ + S2. Any float summation of K
terms, each itself rounded at most twice, is within γ_{K+1}·Σ|terms| of the
exact sum (Higham, Accuracy and Stability, 4.3), γ_j = j·u/(1 − j·u),
u = 2^-53; with the formula's few roundings that computed D² is within
γ_{K+6}·Σ w·(ρ + |m|)² <= γ_{K+6}·W·(p_max + M)² of the true D(ρ)², where
W = Σ w and M = max |m| over the weighted samples. The same bound, with more
terms, holds for the float sums made here (in any order): E below is
γ_N·W·(p_max + M)² with N = 2·(K + cells) + 64, larger than both.

D(ρ) grows with ρ (every term does, and terms only enter, at 0), so on an
interval a <= ρ <= b every candidate's computed D² is at least D(a)² − E, at
least (D² at a, computed here) − 2·E; square root and the addition of r are
correctly rounded, hence monotone, and the logarithms are within a few units
in the last place: the candidate's figure is at least

    2·(ln(r + √max(D̂(a)² − 2E, 0)) − ln b) − τ

with τ far above those units (`_SLACK`). The intervals cover [p_min, p_max],
made finer where the floor is lowest (a few levels of `_CELLS` log-spaced
parts each): the least of their floors is the column's.

A column with no positive margin has no figure (None in `choose_columns`):
its floor is inf. Margins that are not finite, or past 2^500 (where
`choose_columns` keeps more samples in its sums), or negative weights give
-inf: no floor, the column must be measured.
"""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["COMPILED", "FirstLevel", "column_floor", "first_level"]

#: Each interval is cut into this many parts, log-spaced, at each level.
_CELLS = 64
#: ... for this many levels: the parts are then about (ln(p_max/p_min))/64^4 wide in ln ρ.
_LEVELS = 4
#: Absolute slack for the logarithms' rounding, relative to the figures' size (a few units of 2^-52 each).
_SLACK = 2.0**-40
_U = 2.0**-53


def column_floor(margins: Any, weights: Any, root: float, *, cap: float = math.inf, hit: Any = None,
                 first: FirstLevel | None = None) -> float:
    """A number at most `choose_columns`' figure for the column `margins` (n floats), `weights` and √B = `root`.

    Parts of the column's range whose floor is above `cap` (a figure already
    found, when there is one) are not made finer: the floor returned is then
    still a floor, perhaps a lower one. `hit`, when given, is
    ``np.flatnonzero(weights)`` (the same for every column). `first`, when
    given, is `first_level` of the same margins, weights and hit (made
    beforehand, in another thread perhaps): the same floor.

    Examples
    --------
    >>> from verify_perceptron.notes.soft_margin import choose_columns
    >>> rng = np.random.default_rng(0)
    >>> m, w = rng.normal(0.0, 0.1, 3000), rng.integers(0, 3, 3000).astype(float)
    >>> figure = choose_columns(m[:, None], w, [1.0])[0][1]
    >>> floor = column_floor(m, w, 1.0)
    >>> floor <= figure, figure - floor < 1e-3
    (True, True)
    >>> column_floor(np.array([-1.0, 0.0]), np.ones(2), 1.0), column_floor(np.array([np.nan]), np.ones(1), 1.0)
    (inf, -inf)
    """
    margins = np.ascontiguousarray(margins, dtype=np.float64)
    weights = np.ascontiguousarray(weights, dtype=np.float64)
    first = first_level(margins, weights, hit=hit) if first is None else first
    if first.floor is not None:
        return first.floor
    if not (math.isfinite(root) and root > 0):
        return -math.inf
    at, p_max = first.at, first.p_max
    N = 2 * (len(at) + (_CELLS + 2) * _LEVELS * 64) + 64
    gamma = N * _U / (1 - N * _U)
    # one interval [p_min, p_max] to start, no sums below it (its part 0 holds the margins below p_min)
    state: tuple[Any, ...] = (np.array([first.p_min]), np.array([p_max]), np.zeros((1, 3)), at, None)
    settled, estimate, E2 = math.inf, math.inf, math.inf
    for level in range(_LEVELS):
        lows, highs, bases, at, owner = state
        if level:  # each value's cell, and the sums of w, w·m, w·m² over each cell of its row (`_sums`: in C when built)
            edges = _edges(lows, highs)
            cell, sums, _ = _sums(margins, weights, at, owner, edges)
        else:  # (made by `first_level`, with the least and largest weighted margin and the least weight: of all)
            edges, cell, sums, (least, largest, lightest) = first.edges, first.cell, first.sums, first.extremes
            if len(at) and lightest < 0:
                return -math.inf
            biggest = max(largest, 0.0, -least)
            # 2E, doubled for the rounding of E itself; W = Σ w over all the weights (those outside `at` are 0:
            # the same W, and one contiguous sum rather than a gather a column)
            E2 = 2.0 * 2.0 * gamma * float(np.sum(weights)) * (p_max + biggest) ** 2
            if not math.isfinite(E2):
                return -math.inf
        sums = bases[:, None, :] + np.cumsum(sums, axis=1)  # [r, k]: over the margins below edge k of row r
        a, b, at_a = edges[:, 1:-2], edges[:, 2:-1], sums[:, :_CELLS, :]
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            D_sq = at_a[..., 0] * a**2 - 2 * at_a[..., 1] * a + at_a[..., 2]
            near = 2 * (np.log(root + np.sqrt(np.maximum(D_sq, 0.0))) - np.log(a))
            high = 2 * np.log(root + np.sqrt(np.maximum(D_sq - E2, 0.0)))
            floors = high - 2 * np.log(b)
            floors = floors - _SLACK * (np.abs(high) + np.abs(2 * np.log(b)) + 1.0)
        floors = np.where(np.isnan(floors), -math.inf, floors)
        estimate = min(estimate, float(np.min(np.where(np.isnan(near), math.inf, near))))
        finer = (floors <= min(estimate, cap)) & (b > a)
        if level == _LEVELS - 1 or not finer.any():
            return min(settled, float(np.min(floors)))
        settled = min(settled, float(np.min(floors[~finer], initial=math.inf)))
        r, k = np.nonzero(finer)
        index = np.full((len(lows), _CELLS + 2), -1, dtype=np.int64)
        index[r, k + 1] = np.arange(len(r))  # part k of a row is [edge k, edge k + 1): cell k + 1
        new_owner = index[0 if owner is None else owner, cell]
        chosen = np.flatnonzero(new_owner >= 0)
        state = (a[r, k], b[r, k], at_a[r, k], at[chosen], new_owner[chosen])
    return -math.inf  # (not reached)


@dataclass(frozen=True)
class FirstLevel:
    """What `column_floor` reads of the column itself, at its first level (`first_level`): the floor when the
    column's range already gives it, else its least and largest positive margins, the weighted samples, the first
    level's edges, each weighted margin's cell and the cells' sums, and (least, largest) weighted margin and least
    weight."""

    floor: float | None
    p_min: float = math.nan
    p_max: float = math.nan
    at: Any = None
    edges: Any = None
    cell: Any = None
    sums: Any = None
    extremes: tuple[float, ...] = ()


def first_level(margins: Any, weights: Any, *, hit: Any = None, cell: Any = None) -> FirstLevel:
    """`column_floor`'s passes over the whole column: its range, then each weighted margin's cell among the first
    level's edges (log-spaced from the least positive margin to the largest) and the cells' sums. `cell`, when
    given (uint8, one per weighted sample), receives the cells where the C passes are built: a caller in another
    thread then allocates nothing the size of the column (`verify_perceptron.check.soft_reference._ahead`).

    Examples
    --------
    >>> first_level(np.array([-1.0, 0.0]), np.ones(2)).floor  # no positive margin: no figure
    inf
    >>> first = first_level(np.array([0.5, -0.25, 2.0]), np.array([1.0, 0.0, 2.0]))
    >>> first.floor, first.p_min, first.p_max, first.at.tolist(), first.extremes
    (None, 0.5, 2.0, [0, 2], (0.5, 2.0, 1.0))
    """
    margins = np.ascontiguousarray(margins, dtype=np.float64)
    weights = np.ascontiguousarray(weights, dtype=np.float64)
    if not len(margins):
        return FirstLevel(math.inf)
    lowest, highest, p_min = _range(margins)  # (the first two NaN if there is one)
    if not (math.isfinite(lowest) and math.isfinite(highest)) or max(-lowest, highest) >= 2.0**500:
        return FirstLevel(-math.inf)
    if highest <= 0:
        return FirstLevel(math.inf)  # no positive margin: no figure
    at = np.flatnonzero(weights) if hit is None else np.ascontiguousarray(hit, dtype=np.int64)
    edges = _edges(np.array([p_min]), np.array([highest]))
    made, sums, extremes = _sums(margins, weights, at, None, edges, cell)
    return FirstLevel(None, p_min, highest, at, edges, made, sums, extremes)


def _load() -> Any:
    """The C passes (`verify_perceptron.notes._floor`), or None where the extension was not built."""
    try:
        return importlib.import_module(f"{__package__}._floor")
    except ImportError:
        return None


_FLOOR = _load()
#: Whether the C passes were built (`first_level` then allocates nothing the size of the column, given `cell`).
COMPILED = _FLOOR is not None


def _numpy_range(margins: Any) -> tuple[float, float, float]:
    """The column's least and largest values (NaN if there is one) and its least positive one (inf if none)."""
    return (float(np.min(margins)), float(np.max(margins)),
            float(np.min(margins, where=margins > 0, initial=math.inf)))


def _range(margins: Any) -> tuple[float, float, float]:
    """`_numpy_range`, in one pass in C when it was built (the same three floats: a least or largest is exact)."""
    return _numpy_range(margins) if _FLOOR is None else _FLOOR.column_range(margins)


def _numpy_sums(margins: Any, weights: Any, at: Any, owner: Any, edges: Any) -> tuple[Any, Any, tuple[float, ...]]:
    """For the values m = margins[at] of weights w = weights[at], of rows `owner` (None: row 0) of `edges`: each
    one's cell (`_cells`), the sums of w, w·m and w·m² over each cell of each row ((rows, `_CELLS` + 2, 3), each
    sum taken in the order of `at`, as `np.bincount` reads them), and (least m, largest m, least w)."""
    m, w = margins[at], weights[at]
    row = np.zeros(len(at), dtype=np.int64) if owner is None else owner
    cell = _cells(edges, m, row)
    slot = row * (_CELLS + 2) + cell
    sums = np.stack([np.bincount(slot, weights=t, minlength=len(edges) * (_CELLS + 2)).reshape(len(edges), -1)
                     for t in (w, w * m, w * m**2)], axis=-1)
    if not len(at):
        return cell, sums, (math.inf, -math.inf, math.inf)
    return cell, sums, (float(np.min(m)), float(np.max(m)), float(np.min(w)))


def _sums(margins: Any, weights: Any, at: Any, owner: Any, edges: Any,
          cell: Any = None) -> tuple[Any, Any, tuple[float, ...]]:
    """`_numpy_sums`, in one pass in C when it was built: the same cells, and the same sums (each cell's terms
    added one at a time in the order of `at`, as `np.bincount` adds them; w·m² is w·(m·m) in both); the cells into
    `cell` when given. In C a cell is a byte (uint8: a row has `_CELLS` + 2 of them), where NumPy's are int64."""
    if _FLOOR is None:
        return _numpy_sums(margins, weights, at, owner, edges)
    cell = np.empty(len(at), dtype=np.uint8) if cell is None else cell
    sums = np.empty((len(edges), _CELLS + 2, 3))
    extremes = _FLOOR.floor_sums(margins, weights, at, owner, edges, cell, sums)
    return cell, sums, extremes


def _edges(lows: Any, highs: Any) -> Any:
    """Rows of `_CELLS` + 1 non-decreasing edges, log-spaced from each low to its high (those two exactly),
    between -inf and inf: ``[-inf, e_0, ..., e_C, inf]``."""
    steps = np.arange(_CELLS + 1) / _CELLS
    with np.errstate(divide="ignore", invalid="ignore"):
        edges = np.exp(np.log(lows)[:, None] + steps * (np.log(highs) - np.log(lows))[:, None])
    edges[:, 0], edges[:, -1] = lows, highs
    edges = np.minimum(np.maximum.accumulate(edges, axis=1), highs[:, None])
    outer = np.full((len(lows), 1), math.inf)
    return np.concatenate((-outer, edges, outer), axis=1)


def _cells(edges: Any, m: Any, owner: Any) -> Any:
    """For each value m of row `owner`, its cell c: edges[owner, c] <= m < edges[owner, c + 1] (0 to `_CELLS` + 1),
    that is, c = #{e_k <= m}."""
    if not len(m):
        return np.zeros(0, dtype=np.int64)
    flat = edges.reshape(-1)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        lows, spans = np.log(edges[:, 1]), _CELLS / (np.log(edges[:, _CELLS + 1]) - np.log(edges[:, 1]))
        if len(edges) == 1:  # (one row, the first level's: no per-value gathers of its ends)
            first: Any = 0
            guess = (np.log(np.maximum(m, edges[0, 1])) - lows[0]) * spans[0]
        else:
            first = owner * (_CELLS + 3)
            guess = (np.log(np.maximum(m, edges[owner, 1])) - lows[owner]) * spans[owner]
    cell = np.clip(np.nan_to_num(guess, nan=0.0, posinf=_CELLS, neginf=0.0), 0, _CELLS).astype(np.int64) + 1
    cell = np.clip(cell - (m < flat[first + cell]), 0, _CELLS + 1)  # (the guess is near: rounding, equal edges)
    cell = np.clip(cell + (m >= flat[first + cell + 1]), 0, _CELLS + 1)
    wrong = np.flatnonzero((m < flat[first + cell]) | (m >= flat[first + cell + 1]))
    for i in wrong.tolist():  # (seldom): the exact count
        cell[i] = int(np.searchsorted(edges[owner[i]], m[i], side="right")) - 1
    return cell
