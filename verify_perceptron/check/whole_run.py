"""The whole run in a bounded record: its last updates and the invariants' extremes over every update.

A run keeps its first updates for the report (the engine's `Trace.updates`);
`WholeRun` is an observer beside the checker that keeps what the report needs
of the rest, in memory that does not grow with the run:

- the last `LAST` updates (a ring buffer: samples and scores only; their
  weights are made at the end, from the final weights backwards);
- the two invariants the figures draw, w_k·w* >= N·a·γ and ‖w_k‖² <= its
  bound, thinned exactly: the updates are cut into at most `INTERVALS`
  intervals of 2^j updates each (j grows as the run does, two neighbours
  merged into one), and each interval keeps the updates where each slack
  is least and greatest, with w_k·w* and ‖w_k‖² there. So the tightest
  update, and any violation, is always one of the drawn points.

It works in the checker's scaled integers (w = (a/L)·W, w* = W*/M, z_i =
y_i·L·x~_i): per online update, t = W·W* grows by z_i·W* (the checker's
`margins`) and ‖W‖² by 2·s + ‖z_i‖² (s = W_(k-1)·z_i, the score the checker
has confirmed), so an update costs a few integer additions, vectorised over a
chunk. Nothing here decides anything: the checker does; this draws it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from . import kernel as _kernel
from ._chunk_sums import held_margins, margin_sums, norm_columns, prefix_sums, step_sums
from ..data.integers import score_values
from ..data.limb_arrays import int_limbs, limbs_for_bits
from ..data.observers import Epochs, Int64Array
from ..data.trace import ScaledWeights, Trace, Update

__all__ = ["WholeRun", "WholeRecord", "RunPoints", "LAST", "INTERVALS"]

#: The last updates kept.
LAST = 10
#: The most intervals the invariants' extremes are kept for.
INTERVALS = 128
#: The most updates of a chunk handled at once.
PIECE = 4096
_INT64 = 2**63
#: Whether a chunk without a separator may be read in C (`kernel.record_sums`; a test turns it off to compare).
RECORD_IN_C = True
#: Whether the last updates' steps and weights may be made in int64 where they provably fit (a test turns it
#: off to compare with Python integers).
INT64_STEPS = True


@dataclass(frozen=True)
class RunPoints:
    """The invariants at the updates drawn: in true units, exactly.

    Attributes
    ----------
    k, n_mistakes, n, sum_n_sq : tuple of int
        Each drawn update, the mistakes so far N, its own mistakes n and Σn² so far.
    w_ws : sequence of Fraction, or None
        w_k·w* (None without a separator), read as a tuple (`ScaledWeights`).
    w_sq : sequence of Fraction
        ‖w_k‖², read as a tuple.
    per_interval : int
        Updates per interval (1: every update is drawn).
    n_updates : int
        The run's updates.
    """

    k: tuple[int, ...]
    n_mistakes: tuple[int, ...]
    n: tuple[int, ...]
    sum_n_sq: tuple[int, ...]
    w_ws: Sequence[Fraction] | None
    w_sq: Sequence[Fraction]
    per_interval: int
    n_updates: int


class WholeRun:
    """An observer of every update (online chunks or one update at a time), beside a `Checker`.

    Parameters
    ----------
    checker : Checker
        The checker it runs beside: its samples, norms, step, and separator's margins and γ (scaled).
    n_updates : int, optional
        How many updates it will be told of, when known (a finished run replayed): its intervals are then as
        wide as they end from the start, and are never merged.

    Examples
    --------
    >>> from verify_perceptron.check.checker import Checker
    >>> from verify_perceptron.data.examples import example
    >>> checker = Checker(example("and"), "classic", rate=1, mode="online", separator=[-4, 3, 2])
    >>> whole = WholeRun(checker)
    >>> whole.observe(1, 1, [0], [0])  # the AND data's first update: sample 0, score 0
    >>> points = whole.points()
    >>> points.k, [str(v) for v in points.w_ws], [str(v) for v in points.w_sq], points.per_interval
    ((1,), ['4'], ['1'], 1)
    """

    def __init__(self, checker: Any, n_updates: int | None = None) -> None:
        self.matrix = checker.matrix
        self.L, self.y = checker.L, checker.data.y
        self.unit = checker.a / checker.L  # w = unit·W
        self.M = checker.M
        self.separates = checker.g is not None and checker.g.separates
        self.margins = checker.margins if self.separates else None
        self.gamma = checker.gamma_scaled
        self.R_sq = self.matrix.max_norm_sq
        self.k = self.N = self.sum_n_sq = 0
        self.t = self.q = 0  # W·W* and ‖W‖², scaled
        # Updates per interval: doubled (neighbours merged) as the run grows, or, when the caller knows how many
        # updates will come (a replay of a finished run), the width they end at from the start. The same
        # intervals either way (2^j updates each, aligned), and a merge keeps each pair's first least and first
        # greatest, as one wide interval does: only the merges' work is saved.
        self.width = 1 if not n_updates else 1 << max(0, -(-n_updates // INTERVALS) - 1).bit_length()
        #: per interval: {slack name: [(slack, state) least, (slack, state) greatest]}
        self.intervals: list[dict[str, list[tuple[int, tuple[int, int, int, int, int, int]]]]] = []
        self.last_state: tuple[int, int, int, int, int, int] | None = None
        self.ring: deque[tuple[int, int, tuple[int, ...], tuple[int, ...]]] = deque(maxlen=LAST)
        #: Whether chunks may take `_monotone_chunk`'s int64 path (a test turns it off to compare).
        self.monotone = True
        self._norms64: Any = None  # the norms in int64, or their limbs' columns (`norm_columns`): made once
        self._marks: tuple[Any, Any] | None = None  # `_margin_marks`: made once
        self._norm_stack: Any = None  # `_norm_limbs` of a matrix not held in limbs, R² past int64: made once
        self._held_margins: Any = False  # the margins in limbs (`held_margins`), or None: made once
        self._widest: Any = None  # per sample, whether ‖z_i‖² = R² (`_numpy_pieces`): made once

    @property
    def norms(self) -> Any:
        """The matrix's ‖z_i‖², read by index (`ExactMatrix.norm_rows`): ``matrix.norms`` would make n Python
        integers where the samples are held in limbs (0.55x the int64 data on randn 10^5 x 10) that the chunks'
        int64 path (`_monotone_chunk`, on the limbs' columns) never reads."""
        return self.matrix.norm_rows()

    # --- what the engine tells it -------------------------------------------------------------

    def observe(self, k: int, epoch: int, samples: Sequence[int], scores: Sequence[int]) -> None:
        """Update k on `samples` (one online, any number in batch mode) with their scores W_(k-1)·z_i."""
        n = len(samples)
        if n == 1:
            i = samples[0]
            step_sq = int(self.norms[i])
        else:  # ‖Σ z‖² for a batch update: the samples' sum, exactly
            step_sq = sum(v * v for v in self._step(samples).tolist())
        self.q += 2 * sum(int(s) for s in scores) + step_sq
        if self.margins is not None:
            self.t += sum(int(self.margins[i]) for i in samples)
        self.k, self.N, self.sum_n_sq = k, self.N + n, self.sum_n_sq + n * n
        self.ring.append((k, epoch, tuple(samples), tuple(int(s) for s in scores)))
        self._keep(np.array([k], dtype=object), np.array([self.N], dtype=object),
                   np.array([n], dtype=object), np.array([self.sum_n_sq], dtype=object),
                   np.array([self.t], dtype=object), np.array([self.q], dtype=object))

    def observe_chunk(self, first: int, epoch: Epochs, rows: Int64Array, scores: Int64Array) -> None:
        """Online updates first, first + 1, ... on `rows`, with `scores` (int64, or limbs past it): at once on
        `_monotone_chunk`'s int64 path when it takes the chunk (its arrays are the chunk's size, in int64), else in
        pieces of at most `PIECE`, so that the arrays of Python integers stay small whatever the chunk (a replay's
        is 2^16)."""
        if len(rows) > PIECE and self.monotone and self._monotone_chunk(first, np.asarray(rows, dtype=np.int64), scores):
            self._ring(first, epoch, rows, scores)
            return
        for start in range(0, len(rows), PIECE):
            part = epoch[start:start + PIECE] if isinstance(epoch, np.ndarray) else epoch
            self._chunk(first + start, part, rows[start:start + PIECE], scores[start:start + PIECE])

    def _ring(self, first: int, epoch: Any, rows: Any, scores: Any) -> None:
        """The chunk's last `LAST` updates into the ring."""
        m = len(rows)
        start = max(0, m - LAST)
        epochs = epoch[start:].tolist() if isinstance(epoch, np.ndarray) else [epoch] * (m - start)
        tail = score_values(scores[start:]).tolist()
        for j in range(start, m):
            self.ring.append((first + j, int(epochs[j - start]), (int(rows[j]),), (int(tail[j - start]),)))

    def _chunk(self, first: int, epoch: Any, rows: Any, scores: Any) -> None:
        m = len(rows)
        if not m:
            return
        rows = np.asarray(rows, dtype=np.int64)
        self._ring(first, epoch, rows, scores)
        if self.monotone and self._monotone_chunk(first, rows, scores):
            return
        values = score_values(scores)
        steps = 2 * np.asarray(values, dtype=object) + np.asarray(self.norms[rows], dtype=object)
        q = np.cumsum(steps, dtype=object) + self.q
        if self.margins is not None:
            t = np.cumsum(np.asarray(self.margins[rows], dtype=object), dtype=object) + self.t
        else:
            t = np.zeros(m, dtype=object)
        k = np.arange(first, first + m).astype(object)
        N = k - first + 1 + self.N
        self.k, self.N, self.q, self.t = first + m - 1, int(N[-1]), int(q[-1]), int(t[-1])
        self.sum_n_sq += m  # one mistake an update: Σn² is N
        self._keep(k, N, np.ones(m, dtype=object), N, t, q)

    def _monotone_chunk(self, first: int, rows: Any, scores: Any) -> bool:
        """`_chunk`'s work on int64 pieces, where both slacks provably never decrease over the chunk; False
        (nothing done) where that is not proven.

        An online update changes the upper slack N·R² - ‖W‖² by R² - ‖z_i‖² - 2·s_i >= 0 when its score
        s_i <= 0 (every mistake's is), and the lower slack t - N·γ by z_i·W* - γ >= 0 (γ is the least
        margin). In a nondecreasing piece the first update is where the slack is least (first found) and
        the update after the piece's last increase where it is greatest (first found): the updates that
        `_keep`'s argmin and argmax pick. Only their states are made exactly, from prefix sums of the
        scores (int64 or limbs), norms and margins cut into 32-bit pieces (`prefix_sums`).
        """
        margins, R_sq, gamma = self.margins, int(self.R_sq), self.gamma
        m = len(rows)
        width = self.width
        while first + m - 1 > INTERVALS * width:
            width *= 2  # (the merges are made once the chunk is taken)
        # the pieces: where update first + j starts an interval of `width` (aligned: (k - 1) // width)
        offset = (1 - first) % width
        starts = np.arange(offset, m, width, dtype=np.int64)
        if offset:
            starts = np.concatenate((np.zeros(1, dtype=np.int64), starts))
        compiled = self._compiled_pieces(rows, scores, starts) if margins is None else None
        if compiled is not None:
            if not compiled:
                return False  # a score > 0: no mistake, and the slack may fall
            greatest, q_at, t_at = compiled[0], compiled[1], None
        else:
            found = self._numpy_pieces(rows, scores, starts)
            if not found:
                return False
            greatest, q_at, t_at = found
        rises = tuple(greatest)
        while self.width < width:
            self._merge()
        N0, q0, t0 = self.N, self.q, self.t

        def state(j: int) -> tuple[int, int, int, int, int, int]:
            N = N0 + j + 1
            return (first + j, N, 1, N, t0 if t_at is None else t0 + t_at[j], q0 + q_at[j])

        # `_offer` of each piece's first update and its last rise, inline: each state made once for both slacks,
        # and a last rise at the first update (no rise) not offered twice (the second offer keeps the first)
        intervals = self.intervals
        for p, start in enumerate(starts.tolist()):
            at = (first + start - 1) // width
            while len(intervals) <= at:
                intervals.append({})
            kept, first_state = intervals[at], state(start)
            for name in rises:
                g = greatest[name][p]
                for point in (first_state,) if g == start else (first_state, state(g)):
                    entry = (point[3] * R_sq - point[5] if name == "upper" else point[4] - point[1] * gamma, point)
                    ends = kept.setdefault(name, [entry, entry])
                    if entry[0] < ends[0][0]:
                        ends[0] = entry
                    if entry[0] > ends[1][0]:
                        ends[1] = entry
        self.last_state = last = state(m - 1)
        self.k, self.N, self.q, self.t = last[0], last[1], last[5], last[4]
        self.sum_n_sq += m  # one mistake an update: Σn² is N
        return True

    def _numpy_pieces(self, rows: Any, scores: Any, starts: Any) -> tuple[dict[str, list[int]], dict[int, int],
                                                                        dict[int, int] | None] | Literal[False]:
        """`_monotone_chunk`'s reading of the chunk in NumPy: ``(each slack's last rise per piece, the prefix sums
        of 2·s + ‖z‖² at the points, those of the margins or None)``, or False where the slacks are not proven
        never to decrease."""
        margins, R_sq, gamma, m = self.margins, int(self.R_sq), self.gamma, len(rows)
        limbs = scores.reshape(len(scores), -1)
        zero = limbs[:, 0] == 0
        for limb in range(1, limbs.shape[1]):  # (a column at a time: .all(axis=1) is slow on a few columns)
            zero &= limbs[:, limb] == 0
        if not bool(((limbs[:, -1] < 0) | zero).all()):
            return False  # a score > 0: no mistake, and the slack may fall
        if self._norms64 is None:  # (once a run) the norms in int64 where R² < 2^63, else their limbs' columns
            self._norms64 = np.asarray(self.matrix.norms, dtype=np.int64) if R_sq < 2**63 else norm_columns(self.matrix)
        if self._widest is None:  # (once a run) per sample whether ‖z‖² is R² (in limbs: where every one is R²'s)
            columns = self._norms64 if isinstance(self._norms64, tuple) else (self._norms64,)
            self._widest = np.ones(len(columns[0]), dtype=bool)
            tops = int_limbs([R_sq], len(columns))[0].tolist() if len(columns) > 1 else [R_sq]
            for column, limb in zip(columns, tops):
                self._widest &= column == limb
        masks = {"upper": ~(self._widest[rows] & zero)}
        if margins is not None:
            if not isinstance(gamma, int):
                return False
            below, other = self._margin_marks()  # per sample, not per update: 1,627-bit margins on breast cancer
            if bool(below[rows].any()):
                return False
            masks["lower"] = other[rows]
        # per piece, the last update where the slack rose (the piece's first when none after it did)
        greatest = {name: np.maximum(np.maximum.reduceat(np.where(rise, np.arange(m), -1), starts), starts).tolist()
                    for name, rise in masks.items()}
        wanted = sorted({m - 1, *starts.tolist(), *(j for ends in greatest.values() for j in ends)})
        held = self._norm_limbs() if RECORD_IN_C and limbs.dtype == np.int64 else None  # (gathered: `step_sums`)
        summed = None if held is None else step_sums(limbs, rows, held, wanted)
        if summed is None:  # the norms gathered, as int64 or as columns (no (m, L) copy), cut into pieces
            norms = (self._norms64[rows] if not isinstance(self._norms64, tuple)
                     else tuple(column[rows] for column in self._norms64))
            summed = prefix_sums(wanted, (limbs, 2), (norms, 1))
        q_at = dict(zip(wanted, summed))
        if margins is not None and self._held_margins is False:  # (once a run: the margins' limbs, or None)
            self._held_margins = held_margins(margins)
        t_at = None if margins is None else dict(zip(wanted, margin_sums(margins, self._held_margins, rows, wanted)))
        return greatest, q_at, t_at

    def _margin_marks(self) -> tuple[Any, Any]:
        """Per sample (once a run): whether its margin is below γ, and whether it is other than γ, exactly."""
        if self._marks is None:
            margins = self.margins
            if not (isinstance(margins, np.ndarray) and margins.dtype == np.int64 and -_INT64 <= self.gamma < _INT64):
                margins = np.asarray(margins, dtype=object)  # (a NumPy loop of Python comparisons)
            self._marks = (np.asarray(margins < self.gamma, dtype=bool), np.asarray(margins != self.gamma, dtype=bool))
        return self._marks

    def _compiled_pieces(self, rows: Any, scores: Any, starts: Any) -> tuple[dict[str, list[int]], dict[int, int]] | None | Literal[False]:
        """`_monotone_chunk`'s reading of the chunk in one pass in C (`kernel.record_sums`), without a separator:
        ``({"upper": each piece's last rise}, {update: prefix sum of 2·s + ‖z‖² there})``, False where a score
        is > 0, None where the C reading cannot take it (not built, scores not int64, norms not held in limbs
        or int64, a row out of range): the NumPy path then reads the chunk."""
        sums_of = _kernel.record_sums
        if sums_of is None or not RECORD_IN_C or scores.dtype != np.int64:
            return None
        norms = self._norm_limbs()
        if norms is None:
            return None
        limbs = np.ascontiguousarray(scores.reshape(len(scores), -1))
        L = limbs_for_bits(int(self.R_sq).bit_length())  # (the norms' limbs above L are 0: not read)
        ends = np.empty((len(starts), 2), dtype=np.int64)  # per piece: its last rise, and the updates after it
        sums = np.empty((2 * len(starts), max(limbs.shape[1], L) + 2), dtype=np.int64)
        if not sums_of(limbs, np.ascontiguousarray(rows, dtype=np.int64), norms, int_limbs([int(self.R_sq)], L)[0],
                       starts, ends, sums):
            if bool((rows < 0).any() or (rows >= len(norms)).any()):
                return None  # (the NumPy path says what is wrong with the rows)
            return False
        R_sq, values = int(self.R_sq), score_values(sums).tolist()  # each piece's sums at its first and last
        q_at = {j: values[2 * p] for p, j in enumerate(starts.tolist())}
        greatest = []
        for p, (g, after) in enumerate(ends.tolist()):  # each update after the last rise added exactly R²
            greatest.append(g)
            q_at[g] = values[2 * p + 1] - after * R_sq
        q_at[len(rows) - 1] = values[-1]
        return {"upper": greatest}, q_at

    def _norm_limbs(self) -> Any:
        """Every ‖z_i‖² as an (n, L) int64 array of limbs: the held matrix's norm limbs (no copy), the norms in
        int64 (L = 1) where R² < 2^63, else (a matrix not held in limbs, R² past int64: iris versicolor/virginica
        standardized's 123 bits) their `norm_columns` side by side, made once a run, as the NumPy path's columns."""
        held = getattr(self.matrix, "held", None)
        if (held is not None and held.norm_limbs.flags.c_contiguous
                and held.norm_limbs.shape[1] >= limbs_for_bits(int(self.R_sq).bit_length())):
            return held.norm_limbs
        if int(self.R_sq) < 2**63:
            if self._norms64 is None:
                self._norms64 = np.asarray(self.matrix.norms, dtype=np.int64)
            return self._norms64.reshape(-1, 1)
        if self._norm_stack is None:
            self._norm_stack = np.ascontiguousarray(np.stack(norm_columns(self.matrix), axis=1), dtype=np.int64)
        return self._norm_stack

    # --- the intervals --------------------------------------------------------------------------

    def _merge(self) -> None:
        """Twice as many updates per interval: each pair of neighbours becomes one."""
        merged = []
        for j in range(0, len(self.intervals), 2):
            pair = self.intervals[j:j + 2]
            kept = {}
            for name in pair[0]:
                ends = [e for p in pair for e in p[name]]
                kept[name] = [min(ends, key=lambda e: e[0]), max(ends, key=lambda e: e[0])]
            merged.append(kept)
        self.intervals = merged
        self.width *= 2

    def _offer(self, at: int, name: str, entry: tuple[int, tuple[int, int, int, int, int, int]]) -> None:
        """Keep `entry` (a slack and its update's state) as interval `at`'s least or greatest `name` slack if it
        is below or above the ones kept (the first found stays on a tie)."""
        while len(self.intervals) <= at:
            self.intervals.append({})
        ends = self.intervals[at].setdefault(name, [entry, entry])
        if entry[0] < ends[0][0]:
            ends[0] = entry
        if entry[0] > ends[1][0]:
            ends[1] = entry

    def _keep(self, k: Any, N: Any, n: Any, sum_n_sq: Any, t: Any, q: Any) -> None:
        """Fold updates k (consecutive, object arrays) into their intervals' extremes."""
        while int(k[-1]) > INTERVALS * self.width:
            self._merge()
        slacks = {"upper": sum_n_sq * self.R_sq - q}  # ‖W‖² <= Σn²·R², scaled (N·R² online, where n = 1)
        if self.margins is not None:
            slacks["lower"] = t - N * self.gamma
        index = (np.asarray(k - 1, dtype=np.int64)) // self.width
        cuts = np.flatnonzero(np.diff(index)) + 1
        for start, end in zip(np.r_[0, cuts], np.r_[cuts, len(index)]):
            for name, values in slacks.items():
                piece = values[start:end]
                for j in (int(np.argmin(piece)) + start, int(np.argmax(piece)) + start):
                    entry = (int(values[j]), (int(k[j]), int(N[j]), int(n[j]), int(sum_n_sq[j]), int(t[j]), int(q[j])))
                    self._offer(int(index[start]), name, entry)
        j = len(k) - 1
        self.last_state = (int(k[j]), int(N[j]), int(n[j]), int(sum_n_sq[j]), int(t[j]), int(q[j]))

    # --- what the report reads ------------------------------------------------------------------

    def points(self) -> RunPoints:
        """The updates drawn (each interval's extremes, and the last update), in order, in true units."""
        states = {e[1] for interval in self.intervals for ends in interval.values() for e in ends}
        if self.last_state is not None:
            states.add(self.last_state)
        ordered = sorted(states)
        unit, M = self.unit, self.M
        # w·w* = unit·t/M and ‖w‖² = unit²·q: read as tuples of Fraction, each made only if asked for (the report
        # writes them from the integers)
        return RunPoints(
            k=tuple(s[0] for s in ordered), n_mistakes=tuple(s[1] for s in ordered),
            n=tuple(s[2] for s in ordered), sum_n_sq=tuple(s[3] for s in ordered),
            w_ws=ScaledWeights([s[4] for s in ordered], unit / M) if self.separates else None,
            w_sq=ScaledWeights([s[5] for s in ordered], unit * unit), per_interval=self.width, n_updates=self.k)

    def last_updates(self, trace: Trace) -> list[Update]:
        """The run's last updates, with their weights: the final weights, less each later update's step."""
        final = trace.final_weights
        if isinstance(final, ScaledWeights) and final.unit == self.unit:
            integers = list(final.integers)
        else:
            integers = [int(w / self.unit) for w in final]  # exact: w = unit·W with W integer
        ring = list(self.ring)
        steps = [self._step(samples) for _, _, samples, _ in ring]
        # W before the later updates' steps: W_final - (their sum), all at once in int64 where |W_final| + Σ|step|
        # provably fits (each |step entry| <= |samples|·biggest), else one update at a time in Python integers
        biggest = getattr(self.matrix, "biggest", None)
        reach = None if biggest is None else max(map(abs, integers), default=0) + biggest * sum(
            len(samples) for _, _, samples, _ in ring)
        if INT64_STEPS and reach is not None and reach < 2**63 and all(step.dtype != object for step in steps):
            after = np.zeros((len(ring) + 1, len(integers)), dtype=np.int64)  # row j: Σ of steps j.. (and none)
            if ring:
                after[:-1] = np.cumsum(np.stack(steps)[::-1], axis=0)[::-1]
            weights = (np.array(integers, dtype=np.int64) - after[1:]).tolist()
        else:
            W, weights = np.array(integers, dtype=object), []
            for step in reversed(steps):
                weights.append(W.tolist())
                W = W - step
            weights.reverse()
        per_score = self.unit / self.L
        return [Update(k, epoch, samples, tuple(per_score * (int(self.y[i]) * s) for i, s in zip(samples, scores)),
                       ScaledWeights(step.tolist(), self.unit), ScaledWeights(w, self.unit))
                for (k, epoch, samples, scores), step, w in zip(ring, steps, weights)]

    def _step(self, samples: Sequence[int]) -> Any:
        """Σ z_i over an update's samples, exactly: int64 where the matrix is (|samples|·biggest < 2^63), else
        Python integers."""
        rows = self.matrix.row_values(list(samples))
        biggest = getattr(self.matrix, "biggest", None)
        if INT64_STEPS and rows.dtype != object and biggest is not None and biggest * len(samples) < 2**63:
            return rows.astype(np.int64).sum(axis=0)
        return np.asarray(rows, dtype=object).sum(axis=0)


class WholeRecord:
    """What the report reads of a `WholeRun` told of every update of `trace`: its drawn points and last updates,
    each made when first read, once. A run checked but never reported (an estimator's fit, `verify_run` called
    for its verdict) does not make them.

    Parameters
    ----------
    whole : WholeRun
        The record, told of every update; its per-sample arrays are let go here (neither reading needs them).
    trace : Trace
        The run (its final weights, for the last updates' weights).

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> from verify_perceptron.pipeline import verify_run
    >>> trace, check = verify_run(example("and"), keep_updates=3)  # the first 3 of 18 updates kept
    >>> isinstance(check.whole, WholeRecord), check.points.k[-1], [u.k for u in check.last_updates][-3:]
    (True, 18, [16, 17, 18])
    >>> check.last_updates[-1].weights == trace.final_weights
    True
    """

    def __init__(self, whole: WholeRun, trace: Trace) -> None:
        whole.margins = whole._norms64 = None  # (read only while updates come)
        self._whole, self._trace = whole, trace

    @cached_property
    def points(self) -> RunPoints:
        """The updates drawn, in true units (`WholeRun.points`)."""
        return self._whole.points()

    @cached_property
    def last_updates(self) -> tuple[Update, ...]:
        """The run's last updates, with their weights (`WholeRun.last_updates`)."""
        return tuple(self._whole.last_updates(self._trace))
