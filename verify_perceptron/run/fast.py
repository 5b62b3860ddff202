"""The fast exact engine: the same runs as `verify_perceptron.run.reference`, in integer arithmetic.

Why it is exact
---------------
The data are integers over one common denominator L (`Dataset.numerators`). Scaling every augmented sample by
L, and forgetting the learning rate, only multiplies every weight by the positive factor L/a and every score
by L²/a, so no sign, no tie and no mistake changes. The engine therefore keeps the integer vector W = Σ z_i
over the mistakes so far, with z_i = y_i·L·x~_i, and the true weights are w = (a/L)·W. A sample is a mistake
exactly when the convention's own rule says so at the score s_i = W·z_i; the rule is read off the convention's
`decide` function at scores -1, 0 and +1, so the tie rule is the note's, not a copy of it.

Why it is fast
--------------
Where the optional C kernel was built (`verify_perceptron.run.kernel`), an
online pass runs in C from one update to the next: scores in int64 while
``‖W‖²·max‖z‖² < 2^126`` proves every partial sum fits (Cauchy-Schwarz),
then in 128-bit sums while ``‖W‖² < 2^126`` keeps W in int64 (the "wide"
kind), with ‖W‖² tracked exactly at every update; the mistakes come back in
chunks of rows and scores, so an update costs no Python call. Past that
the run continues in Python integers.

Without the kernel, the next mistake is found with one matrix-vector product over a block of rows: between two
mistakes the weights do not change, so the scores of the samples that follow the last update all come from the
same W. Blocks gallop: a block that held no mistake is followed by one twice as long; after a mistake found j
rows in, the next block has about 2(j+1) rows. Each product runs in float64 (BLAS) while ``‖W‖²·max‖z‖² <
2^106`` proves it exact, in int64 while ``< 2^126`` proves it free of overflow, and in Python integers beyond
(`verify_perceptron.data.integers`).
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from . import _limbs
from . import filter as _filter
from . import kernel as _kernel
from ..data.dataset import Dataset, require_dataset
from ..data.integers import FLOAT_EXACT_SQ, INT64_EXACT_SQ, WIDE_SQ, ExactMatrix, matrix_vector
from ..data.observers import Observer, feed
from ..data.samples import sample_matrix
from ..data.trace import Counts, LazyUpdates, ScaledWeights, Trace, Update
from ..notes.conventions import Convention, tie_rule
from ._kept import Kept, Segment
from .cycles import CycleWatch
from .settings import check_settings, check_time_limit

__all__ = ["run", "count_run", "Count", "Observer", "feed", "KEEP_CELLS", "CHUNK"]

#: How many weights' worth of updates a run keeps for its report by default; also the most samples
#: (with their scores) the kept batch updates may name, past the first update, which is always kept.
KEEP_CELLS = 20_000

#: The most online updates the compiled pass hands over at once (each costs about 1 ms of Python); the buffers
#: hold min(CHUNK, max(SMALL_CHUNK, n // 8)) of them, so that small data keep their peak memory.
CHUNK, SMALL_CHUNK = 2**16, 4096
#: The most rows the compiled pass scans (in whole epochs) before it lets Python run.
WORK = 2**24
#: Under a time limit, about how many cells (rows times their width) the compiled pass scans between two
#: readings of the clock: a few milliseconds.
DEADLINE_CELLS = 2**22
_NONE = np.zeros(0, dtype=np.int64)  # no saved weights to compare with
#: The compiled pass counts epochs in int64; no run reaches this many, so a larger `max_epochs` is this one.
_EPOCH_CAP = 2**62
#: The weights' representation for each kind of product (`ExactMatrix.backend`).
#: "wide" is the compiled pass's 128-bit sums: W still int64, and NumPy's products in Python integers.
_WEIGHTS: dict[str, Any] = {"float64": np.float64, "int64": np.int64, "wide": np.int64, "object": object,
                            "limbs": object}  # "limbs": the compiled pass in 64-bit limbs, W in Python ints between
#: ‖W‖² times max‖z‖² below these keeps the float64 (or int64) product exact.
_LIMITS = {"float64": FLOAT_EXACT_SQ, "int64": INT64_EXACT_SQ}


def _int64_copy(state: Sequence[int]) -> Any:
    """A state of the cycle watch (Python ints) in int64, for the compiled pass to compare W with; empty
    (nothing to compare) when an entry is past int64."""
    try:
        return np.array(state, dtype=np.int64)
    except OverflowError:
        return _NONE


def _ints(vector: Any) -> list[int]:
    """A vector's exact integer values as Python ints (float64 entries hold integers exactly)."""
    values = vector.tolist()
    return [int(v) for v in values] if vector.dtype.kind == "f" else values


class _Run:
    """One fast run's state: the integer weights W in the representation the guard allows, and its records.

    The true weights are w = (a/L)·W, with a the convention's step and L the
    data's common denominator; ‖W‖² is tracked exactly at every update.
    """

    def __init__(self, matrix: ExactMatrix, tie: Any, *, observer: Observer | None, keep_updates: int,
                 deadline: float | None, per_epoch: bool) -> None:
        self.matrix, self.tie, self.observer = matrix, tie, observer
        self.all_ties, self.no_ties = bool(tie.all()), not tie.any()
        self.keep_updates, self.deadline = keep_updates, deadline
        n, width = matrix.shape
        # The compiled pass reads C-contiguous int16/int32/int64 rows and an int64 W; it runs while ‖W‖² < 2^126
        # (its scores in int64 sums under the int64 guard, in 128-bit sums beyond), and every ‖z‖² < 2^126 is its
        # precondition. With it the run keeps to int64 (no float64 copy of the samples is made), Python ints beyond.
        # (Samples past int64, held in limbs or as Python integers, go to the limb pass: `_limbs`.)
        self.compiled = _kernel.AVAILABLE and not matrix.wide and matrix.max_norm_sq < WIDE_SQ
        # the pass reads int64 norms or their halves, and their largest (then no row's is read at each call)
        halves = matrix.norm_halves() if self.compiled else None
        self.pass_norms: Any = _NONE if halves is None else halves
        self.most: int | None = None if halves is None else matrix.max_norm_sq
        self.norm_sq = 0  # ‖W‖², exactly
        self._layout: Any = None  # the samples in limbs (`_limbs`), once needed; False where the pass cannot be
        self._represent(0)
        self.W: Any = np.zeros(width, dtype=_WEIGHTS[self.kind])  # integers exactly, in the product's representation
        if self.kind == "object":
            self.W[:] = 0
        self.mistakes = np.zeros(n, dtype=np.int64)
        self.kept = Kept()
        self.kept_samples = 0  # the samples the kept updates name (a batch update may name all of them)
        self.n_updates, self.epoch, self.mode = 0, 0, "online"
        self.repeats, self.out_of_time = CycleWatch(_ints(self.W), self.mistakes, self._one_epoch), False
        size = min(CHUNK, max(SMALL_CHUNK, n // 8))  # (about 8 bytes a row at most, with the limbs' scores)
        self.out_i, self.out_s, self.out_e = (np.empty(size, dtype=np.int64) for _ in range(3))
        if self.compiled:
            self.Z = np.ascontiguousarray(matrix.exact)
            self.out_halves = np.empty(2 * size, dtype=np.int64)  # "wide": each score as two int64
        # The compiled pass runs on through the epochs at whose end there is nothing to do here (no
        # convergence, no save or repeat of the cycle watch, the last epoch not reached), in chunks of
        # at most WORK rows scanned; under a time limit, of about DEADLINE_CELLS cells, so that the clock
        # is read every few milliseconds without a Python return at every epoch of a small data set.
        self.per_epoch = int(per_epoch)
        self.work = WORK if deadline is None else max(1, min(WORK, DEADLINE_CELLS // max(1, width)))
        self.on_pass: Callable[[int, int], None] | None = None  # told of the epochs ended within a compiled pass
        self.saved_at, self.saved = -1, _NONE  # the cycle watch's saved weights, as the compiled pass reads them
        self.last_at, self.previous = -1, _NONE  # and its weights after the previous epoch, which the pass moves on
        self._floats: Any = None  # the float filter's (Zf, radius), once built; False where it cannot be
        self._wf: Any = None  # W's float copy and n_W for the NumPy filter, until W changes

    @property
    def rows(self) -> Any:
        """The samples in the products' representation (`ExactMatrix.rows`), made on first use: the compiled
        pass reads the narrow integers themselves, so a run that stays in it (128 bits or limbs) never has the
        matrix's Python-integer copy (several times the int64 data) made."""
        return self.matrix.rows(self.rows_kind)

    # --- the weights ------------------------------------------------------------------------

    def _represent(self, norm_sq: int) -> None:
        """Choose the product's representation for ‖W‖² = `norm_sq`, and the ‖W‖² up to which it holds."""
        chosen = self.matrix.backend(norm_sq)
        self.kind = "int64" if self.compiled and chosen == "float64" else chosen
        if self.compiled and chosen == "object" and norm_sq < WIDE_SQ:
            self.kind = "wide"  # the compiled pass sums the scores in 128 bits, exactly
        shape = self._limb_shape(norm_sq) if self.kind == "object" else None
        if shape is not None:
            self.kind = "limbs"  # past 128 bits: the compiled pass in limbs, up to its limit
        self.rows_kind = "object" if self.kind in ("wide", "limbs") else self.kind
        self.fast_limit = (WIDE_SQ - 1 if self.kind == "wide" else shape[2] if shape is not None
                           else (_LIMITS.get(self.kind, 0) - 1) // max(self.matrix.max_norm_sq, 1))

    def _limb_shape(self, norm_sq: int) -> tuple[int, int, int] | None:
        """The compiled limb pass's ``(ls, lw, limit)`` at ‖W‖² = `norm_sq` (`_limbs.LimbLayout.shape`), or None."""
        if self._layout is None:
            self._layout = _limbs.LimbLayout.of(self.matrix) or False
        return self._layout.shape(norm_sq) if self._layout else None

    def move(self, step: list[int], new_norm_sq: int) -> None:
        """W += step, exactly, in the representation the guard allows for the new ‖W‖²."""
        exact = [w + t for w, t in zip(_ints(self.W), step)]
        self.norm_sq, self._wf = new_norm_sq, None
        self._represent(new_norm_sq)
        self.W = np.array(exact, dtype=_WEIGHTS[self.kind])

    def mistaken(self, scores: Any, rows: Any) -> Any:
        """Which of the scores of `rows` (a slice or indices) are mistakes under the note's rule (ties included)."""
        if self.all_ties:
            return scores <= 0
        if self.no_ties:
            return scores < 0
        return (scores < 0) | ((scores == 0) & self.tie[rows])

    def _filter(self, *, own_rows: bool = True) -> tuple[Any, Any] | None:
        """The float filter's ``(Zf, radius)`` (`verify_perceptron.run.filter`), or None where it cannot be used; Zf
        None where the C pass reads int16/int32 rows as floats itself (`own_rows`: each entry exact), so no float
        copy as large as the int64 data sits beside them (the pass in limbs reads one)."""
        narrow = own_rows and self.compiled and self.Z.dtype in (np.int16, np.int32)
        if self._floats is None or (not narrow and self._floats and self._floats[0] is None):
            F, shift = (None, 0) if narrow else self.matrix.filter_floats()  # (F: an array, or `FilterRows`)
            if shift == 0:  # the radii made once, for either form
                radius = self._floats[1] if self._floats else _filter.radii(self.matrix.norm_floats(), self.matrix.shape[1])
            self._floats = shift == 0 and (F, radius)
        return self._floats or None

    def _unsure(self, start: int, end: int) -> Any:
        """Rows start..end whose score the float filter cannot prove positive (NumPy, one BLAS product), or None."""
        if self.kind not in ("int64", "wide", "object", "limbs") or not _filter.usable(self.matrix.max_norm_sq, self.norm_sq,
                                                                      len(self.W)):
            return None
        arrays = self._filter()
        if arrays is None:
            return None
        if self._wf is None:
            self._wf = _filter.weights_in_floats(_ints(self.W), self.norm_sq)
        Zf, radius = arrays
        Wf, n_W = self._wf
        rows = self.matrix.float_rows(start, end) if Zf is None else Zf[start:end]
        return start + np.flatnonzero(~_filter.certainly_positive(rows @ Wf, radius[start:end], n_W))

    # --- the records ------------------------------------------------------------------------

    def record(self, samples: list[int], scores: list[int]) -> None:
        """Count an update on `samples`, tell the observer, and keep it compactly while there is room."""
        self.n_updates += 1
        if self.observer is not None:
            self.observer.observe(self.n_updates, self.epoch, samples, scores)
        if len(self.kept) < self.keep_updates:
            if self.kept and self.kept_samples + len(samples) > KEEP_CELLS:
                self.keep_updates = len(self.kept)  # full: what is kept stays the run's first updates
                return
            self.kept_samples += len(samples)  # `Update`s are made only if read
            self.kept.add((self.n_updates, self.epoch, samples, scores, self.W.copy()))

    def record_chunk(self, chunk: Any, scores: Any, epochs: Any, start_w: Any) -> None:
        """The compiled pass's updates (rows `chunk`, of `epochs`); `start_w` is W before them, while kept."""
        first = self.n_updates + 1
        self.n_updates += len(chunk)
        if self.observer is not None:
            feed(self.observer, first, epochs if epochs[0] != epochs[-1] else int(epochs[0]), chunk, scores)
        room = min(self.keep_updates - len(self.kept), len(chunk))
        if room > 0:  # (rows held in limbs: their values made if a weight is read; the indices shared, never written)
            rows = chunk[:room].copy()
            segment = Segment(start_w, self.Z[rows]) if self.compiled else Segment(start_w, rows, self.matrix.row_values)
            # (the scores as they are, limbs too: a kept record's score is joined when it is read, and most are not)
            self.kept.add_run(first, epochs[:room].copy(), rows, np.array(scores[:room]), segment)

    # --- the passes -------------------------------------------------------------------------

    def online_epoch(self, max_epochs: int) -> int:
        """One online pass (or, compiled, on through the epochs where nothing else is to do); its mistakes."""
        n = len(self.mistakes)
        p, block, made = 0, 128, 0
        while p < n:
            if (self.compiled and self.kind in ("int64", "wide")) or self.kind == "limbs":
                before, (p, made) = self.epoch, self._compiled_steps(p, made, max_epochs)
                if self.on_pass is not None and self.epoch != before:  # the pass ran on through epochs: say so
                    self.on_pass(self.epoch - 1, self.n_updates)
                if self.deadline is not None and time.monotonic() > self.deadline and p < n:
                    self.out_of_time = True  # mid-epoch: the state is no epoch boundary
                    break
                continue
            end = min(p + block, n)
            unsure = self._unsure(p, end)  # None: every row of the block is scored exactly
            rows = slice(p, end) if unsure is None else unsure
            scores = self.rows[rows] @ self.W
            hits = self.mistaken(scores, rows)
            j = int(hits.argmax()) if len(hits) else 0
            if not len(hits) or not hits[j]:  # no mistake in this block: the next one is twice as long
                p, block = end, 2 * block
                continue
            i = p + j if unsure is None else int(unsure[j])
            self._update(i, int(scores[j]))
            made += 1
            p, block = i + 1, 2 * (i + 1 - p)
            if self.deadline is not None and time.monotonic() > self.deadline:
                self.out_of_time = True  # mid-epoch: the state is no epoch boundary
                break
        return made

    def _update(self, i: int, s: int) -> None:
        """The online update on sample i, whose score was s: W += z_i in the cheapest exact representation."""
        new_norm_sq = self.norm_sq + 2 * s + int(self.matrix.norms[i])  # ‖W + z‖² = ‖W‖² + 2·W·z + ‖z‖²
        if new_norm_sq <= self.fast_limit:
            self.W += self.rows[i]  # exact: every coordinate of the new W is below the guard
            self.norm_sq, self._wf = new_norm_sq, None
        else:
            self.move(_ints(self.matrix.row_values(i)), new_norm_sq)
        self.mistakes[i] += 1
        self.record([i], [s])

    def _compiled_steps(self, p: int, made: int, max_epochs: int) -> tuple[int, int]:
        """The C pass from row p: to the end of an epoch the Python loop must see, a full chunk, or the guard."""
        start_w = self.W.copy() if len(self.kept) < self.keep_updates else None
        repeats = self.repeats
        if self.saved_at != repeats.saved_epoch:  # the watch saved new weights: pass them once
            self.saved_at = repeats.saved_epoch
            self.saved = _int64_copy(repeats.saved)
        if self.last_at != repeats.last_epoch:  # empty when not in int64: the pass then stops at the epoch's end
            self.last_at = repeats.last_epoch
            self.previous = _int64_copy(repeats.last)
        epoch = self.epoch
        epochs = (min(max_epochs, _EPOCH_CAP), repeats.saved_epoch + repeats.power, self.per_epoch, self.work)
        if self.kind == "limbs":
            m, p, guarded, made, previous, scores = self._limb_steps(p, made, epochs)
        else:
            out_s = self.out_halves if self.kind == "wide" else self.out_s  # wide scores need 128 bits
            # past W's int32 copy, the float filter passes over rows whose score it proves positive
            floats = self._filter() if self.norm_sq >= _filter.FILTER_FROM_SQ else None
            m, p, self.norm_sq, guarded, self.epoch, made = _kernel.compiled()(
                self.Z, self.W, self.tie, self.pass_norms, self.mistakes, self.out_i, out_s, p, self.norm_sq,
                self.fast_limit, (self.out_e, self.saved, self.previous, self.epoch, made, *epochs), floats, self.most)
            previous = _ints(self.previous)
            # past int64 the scores stay in halves: the checker's C replay reads them so
            scores = out_s[:2 * m].reshape(m, 2) if out_s is self.out_halves else out_s[:m]
        if self.epoch != epoch:  # the pass went on past epoch boundaries, comparing W with the previous one's
            self.last_at = self.epoch - 1
            repeats.passed(previous, self.last_at)
        if m:
            self.record_chunk(self.out_i[:m], scores, self.out_e[:m], start_w)
        if guarded:  # this update leaves the pass's guard: made here, in Python integers
            row = _ints(self.matrix.row_values(p))
            s = sum(z * w for z, w in zip(row, _ints(self.W)))
            self.move(row, self.norm_sq + 2 * s + int(self.matrix.norms[p]))
            self.mistakes[p] += 1
            made += 1
            self.record([p], [s])
            p += 1
        return p, made

    def _limb_steps(self, p: int, made: int, epochs: tuple[int, int, int, int]) -> tuple[int, int, bool, int, Any, Any]:
        """`_compiled_steps`'s pass in limbs: ``(m, position, guarded, made, previous, scores)``, W moved on."""
        m, p, guarded, self.epoch, made, weights, self.norm_sq, previous, scores = self._layout.scan(
            _ints(self.W), self.norm_sq, self.tie, self.mistakes, (self.out_i, self.out_e), p,
            (self.epoch, made, *epochs), (self.repeats.saved, self.repeats.last), self._filter(own_rows=False))
        self.W, self._wf = np.array(weights, dtype=object), None
        return m, p, guarded, made, previous, scores

    def _one_epoch(self, weights: list[int]) -> list[int]:
        """The mistakes per sample of one pass from W = `weights`, on a scratch run (a period-1 certificate)."""
        scratch = _Run(self.matrix, self.tie, observer=None, keep_updates=0, deadline=None, per_epoch=True)
        scratch.move(weights, sum(v * v for v in weights))
        scratch.epoch = 1
        if self.mode == "online":
            scratch.online_epoch(1)
        else:
            scratch.batch_epoch()
        return scratch.mistakes.tolist()

    def batch_epoch(self) -> int:
        """One batch pass (note 003): all scores from one W (exact where the float filter is unsure), one update."""
        unsure = self._unsure(0, len(self.mistakes))
        picked = slice(None) if unsure is None else unsure
        wide = self.kind == "wide" and unsure is not None and len(self.W) < 2**19  # int64 rows and W: exact
        scores = matrix_vector(self.matrix.exact[picked], self.W) if wide else self.rows[picked] @ self.W
        hit = self.mistaken(scores, picked)
        rows, scores = np.flatnonzero(hit) if unsure is None else unsure[hit], scores[hit]
        wrong = rows.tolist()
        if wrong:  # the step in int64 where m rows of norms below ‖z‖ cannot reach 2^63, else Python integers
            small = not self.matrix.wide and len(wrong) ** 2 * self.matrix.max_norm_sq < 2**126
            step = self.matrix.row_values(rows).sum(axis=0, dtype=np.int64 if small else object).tolist()
            s_values = [int(v) for v in scores.tolist()]
            self.move(step, sum((w + t) ** 2 for w, t in zip(_ints(self.W), step)))
            self.mistakes[wrong] += 1
            self.record(wrong, s_values)
        return len(wrong)

    def epochs(self, mode: str, max_epochs: int, progress: Callable[[int, int], None] | None) -> tuple[str, Any]:
        """Pass after pass until one makes no mistake, the weights repeat, or a limit; ``(stop, cycle)``."""
        self.mode = mode
        while self.epoch < max_epochs:
            self.epoch += 1
            made = self.online_epoch(max_epochs) if mode == "online" else self.batch_epoch()
            if progress is not None:
                progress(self.epoch, self.n_updates)
            if self.out_of_time:
                return "time-limit", None
            if made == 0:
                return "converged", None
            cycle = self.repeats.seen_before(_ints(self.W), self.epoch, self.mistakes)
            if cycle is not None:
                return "cycle", cycle
            if self.deadline is not None and time.monotonic() > self.deadline:
                return "time-limit", None
        return "max-epochs", None


def run(
    data: Dataset,
    convention: Convention | str = "classic",
    *,
    eta: object = 1,
    mode: str = "online",
    max_epochs: int = 1000,
    time_limit: float | None = None,
    progress: Callable[[int, int], None] | None = None,
    observer: Observer | None = None,
    keep_updates: int | None = None,
    matrix: ExactMatrix | None = None,
) -> Trace:
    """Run one note's perceptron exactly and fast; the same trace as `verify_perceptron.run.reference.train`.

    Parameters
    ----------
    data, convention, eta, mode, max_epochs, time_limit, progress
        As for `verify_perceptron.run.reference.train`, but `progress` is told only of the epochs
        Python sees end: the compiled pass runs on through epochs, so a display costs the run nothing.
    observer : Observer, optional
        Told of every update as it happens (the streaming checker).
    keep_updates : int or None
        Keep the first this many updates in the returned trace, so memory does
        not grow with the number of updates; None (the default) keeps the first
        `KEEP_CELLS` weights' worth: 1000 updates of 20 weights, 20 of 1000.
    matrix : ExactMatrix, optional
        ``verify_perceptron.data.samples.sample_matrix(data, convention)``, if the caller has it already.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> trace = run(example("and"))
    >>> [str(w) for w in trace.final_weights], trace.n_updates, trace.n_epochs
    (['-4', '3', '2'], 18, 9)
    """
    conv, rate = check_settings(convention, eta, mode, max_epochs)
    data, time_limit = require_dataset(data), check_time_limit(time_limit)
    if keep_updates is None:
        keep_updates = max(10, KEEP_CELLS // (data.n_features + 1))
    a = conv.step_size(rate)
    L = data.denominator
    unit = a / L  # w = unit·W
    if matrix is None:
        matrix = sample_matrix(data, conv)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    state = _Run(matrix, tie_rule(conv, rate, data.y_array), observer=observer, keep_updates=keep_updates,
                 deadline=deadline, per_epoch=False)  # (progress: whenever the pass returns)
    state.on_pass = progress
    stop, cycle = state.epochs(mode, max_epochs, progress)
    # the run and its cycle watch refer to each other: parted, the state goes with this call, not at a collection
    state._floats, state._wf, state._layout, watch = None, None, None, state.repeats  # (floats, layout: now)
    del state.repeats  # (its counts, 16 bytes a sample, go with it)

    def build(record: tuple[int, int, list[int], list[int], Any]) -> Update:
        k, at_epoch, samples, scores, weights = record
        if isinstance(weights, tuple):  # (segment, t): the t-th weights of a compiled chunk
            weights = weights[0].weights()[weights[1]]
        step = [sum(col) for col in zip(*(_ints(matrix.row_values(i)) for i in samples))]
        return Update(
            k, at_epoch, tuple(samples),
            tuple(Fraction(a.numerator * data.y[i] * s, a.denominator * L * L) for i, s in zip(samples, scores)),
            ScaledWeights(step, unit), ScaledWeights(_ints(weights), unit),
        )

    return Trace(
        convention=conv.name,
        rate=rate,
        mode=mode,
        updates=LazyUpdates(state.kept, build, functools.partial(_scaled_records, unit)),
        final_weights=ScaledWeights(_ints(state.W), unit),
        n_epochs=state.epoch,
        stop=stop,
        cycle=cycle,
        mistakes_per_sample=Counts(state.mistakes),
        total_updates=state.n_updates,
        cycle_mistakes=watch.cycle_mistakes,
    )


def _scaled_records(unit: Fraction, kept: Kept, indices: Sequence[int]) -> list[list[int]]:
    """M·w for the weights w = unit·V of each kept record at `indices`, M the least common denominator of their
    entries: what `verify_perceptron.check.separator.scaled_separator` makes of w (`ScaledWeights.scaled`),
    without a Fraction per entry, and the weights read without the records' scores (`Kept.weights_of`).
    """
    p, q, gcd = unit.numerator, unit.denominator, math.gcd  # (`ScaledWeights.scaled`'s M·w = p·V/gcd(q, gcd(V)))
    return [[p * v // g for v in V] for V in map(_ints, kept.weights_of(indices)) for g in [gcd(q, gcd(*V))]]


@dataclass(frozen=True)
class Count:
    """One online run at rate 1: its mistakes (= updates), why it stopped, and its final weights."""

    n_updates: int
    stop: str
    final_weights: tuple[Fraction, ...]


def count_run(matrix: ExactMatrix, tie: Any, step: Fraction, L: int, *, max_epochs: int = 1000) -> Count:
    """The online run on the rows of `matrix` in their order, counted only: no trace, no observer.

    `tie` says per row whether a score of 0 is a mistake (`verify_perceptron.notes.conventions.tie_rule`),
    `step` is the convention's step at rate 1 and `L` the data's common
    denominator, so that the final weights are (step/L)·W. The loop is
    `run`'s own; the presentation-order sweeps reorder the rows and call it.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> from verify_perceptron.notes.conventions import CONVENTIONS
    >>> data, conv = example("and"), CONVENTIONS["classic"]
    >>> tie = tie_rule(conv, Fraction(1), data.y_array)
    >>> c = count_run(sample_matrix(data, conv), tie, conv.step_size(Fraction(1)), data.denominator)
    >>> c.n_updates, c.stop, [str(w) for w in c.final_weights]
    (18, 'converged', ['-4', '3', '2'])
    """
    state = _Run(matrix, tie, observer=None, keep_updates=0, deadline=None, per_epoch=False)
    stop, _ = state.epochs("online", max_epochs, None)
    return Count(state.n_updates, stop, tuple(Fraction(step.numerator * v, step.denominator * L) for v in _ints(state.W)))
