"""The fast exact engine: the same runs as `verify_perceptron.run.reference`, in integer arithmetic.

Why it is exact
---------------
The data are integers over one common denominator L (`Dataset.numerators`).
Scaling every augmented sample by L, and forgetting the learning rate, only
multiplies every weight by the positive factor L/a and every score by
L²/a, so no sign, no tie and no mistake changes. The engine therefore keeps
the integer vector W = Σ z_i over the mistakes so far, with z_i = y_i·L·x~_i,
and the true weights are w = (a/L)·W. A sample is a mistake exactly when the
convention's own rule says so at the score s_i = W·z_i; the rule is read off
the convention's `decide` function at scores -1, 0 and +1, so the tie rule
is the note's, not a copy of it.

Why it is fast
--------------
Where the optional C kernel was built (`verify_perceptron.run.kernel`), an
online pass runs in C from one update to the next: scores in int64 while
``‖W‖²·max‖z‖² < 2^126`` proves every partial sum fits (Cauchy-Schwarz),
with ‖W‖² tracked exactly at every update; the mistakes come back in chunks
of rows and scores, so an update costs no Python call. Past the guard the
run continues in Python integers.

Without the kernel, the next mistake is found with one matrix-vector
product over a block of rows: between two mistakes the weights do not
change, so the scores of the samples that follow the last update all come
from the same W. Blocks gallop: a block that held no mistake is followed by
one twice as long; after a mistake found j rows in, the next block has about
2(j+1) rows. Each product runs in float64 (BLAS) while
``‖W‖²·max‖z‖² < 2^106`` proves it exact, in int64 while ``< 2^126`` proves
it free of overflow, and in Python integers beyond
(`verify_perceptron.data.integers`).
"""

from __future__ import annotations

import bisect
import functools
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, Protocol

import numpy as np

from . import kernel as _kernel
from ..data.integers import FLOAT_EXACT_SQ, INT64_EXACT_SQ, ExactMatrix
from ..notes.conventions import Convention
from ..data.dataset import Dataset
from .reference import CycleWatch, _check_settings
from ..data.trace import Counts, LazyUpdates, Trace, Update

__all__ = ["run", "Observer", "feed", "scaled_samples", "signed_samples", "sample_matrix", "KEEP_CELLS", "CHUNK"]

#: How many weights' worth of updates a run keeps for its report by default.
KEEP_CELLS = 20_000
#: The most online updates the compiled pass hands over at once.
CHUNK = 4096
#: The most rows the compiled pass scans (in whole epochs) before it lets Python run.
WORK = 2**24
_NONE = np.zeros(0, dtype=np.int64)  # no saved weights to compare with


class Observer(Protocol):
    """Receives each update as it happens, in scaled integer units (see `scaled_samples`).

    An observer may also have ``observe_chunk(first, epoch, rows, scores)``:
    online updates first, first + 1, ... of `epoch` (an int, or an int64 array
    of each update's epoch), one mistake each, on `rows` with `scores` (int64
    arrays, valid during the call only). Without it, `feed` tells it of each
    update in turn.
    """

    def observe(self, k: int, epoch: int, samples: list[int], scores: list[int]) -> None:
        """Update k of `epoch` was caused by `samples`, whose scores W_(k-1)·z_i were `scores`."""


def feed(observer: Observer, first: int, epoch: Any, rows: Any, scores: Any) -> None:
    """Tell `observer` of a chunk of online updates: at once if it can take chunks, else one by one.

    `epoch` is the chunk's epoch, or an array of each update's epoch.

    Examples
    --------
    >>> class Printer:
    ...     def observe(self, k, epoch, samples, scores):
    ...         print(k, epoch, samples, scores)
    >>> feed(Printer(), 5, 2, np.array([3, 7]), np.array([0, -4]))
    5 2 [3] [0]
    6 2 [7] [-4]
    """
    chunk = getattr(observer, "observe_chunk", None)
    if chunk is not None:
        chunk(first, epoch, rows, scores)
        return
    epochs = epoch.tolist() if isinstance(epoch, np.ndarray) else [epoch] * len(rows)
    for t, (i, s, e) in enumerate(zip(rows.tolist(), scores.tolist(), epochs)):
        observer.observe(first + t, e, [i], [s])


def scaled_samples(data: Dataset, conv: Convention) -> tuple[Any, Any]:
    """``(X, Z)``: the augmented samples times L, and the same times their labels, as integer arrays.

    Examples
    --------
    >>> from verify_perceptron.notes.conventions import CONVENTIONS
    >>> from verify_perceptron.data.examples import example
    >>> X, Z = scaled_samples(example("and"), CONVENTIONS["sum-norm"])
    >>> X[3].tolist(), Z[0].tolist()
    ([1, 1, -1], [0, 0, 1])
    """
    numerators = data.numerators
    bias = np.full((data.n_samples, 1), conv.bias_input * data.denominator, dtype=numerators.dtype)
    X = np.hstack([bias, numerators] if conv.bias_first else [numerators, bias])
    return X, signed_samples(data, conv)


def signed_samples(data: Dataset, conv: Convention) -> Any:
    """``Z`` of `scaled_samples` alone, z_i = y_i·L·x~_i, built in place (no temporary copies).

    It is stored in the narrowest of int16, int32 and int64 that holds every
    entry (Python integers when the data need them): the scans read every
    sample at every pass, so narrower rows are faster to stream.

    Examples
    --------
    >>> from verify_perceptron.notes.conventions import CONVENTIONS
    >>> from verify_perceptron.data.examples import example
    >>> Z = signed_samples(example("and"), CONVENTIONS["classic"])
    >>> Z[0].tolist(), Z.dtype.name
    ([-1, 0, 0], 'int16')
    """
    numerators = data.numerators
    n, m = numerators.shape
    dtype = _narrowest(data, conv)
    y = data.y_array.astype(dtype)
    Z = np.empty((n, m + 1), dtype=dtype)
    features, bias = (slice(1, None), 0) if conv.bias_first else (slice(0, m), m)
    if dtype is object:
        Z[:, features] = numerators
        Z[:, features] *= y[:, None]
    else:  # one pass, straight into the narrow array (every product fits: |y| = 1)
        np.multiply(numerators, y[:, None], out=Z[:, features], casting="unsafe")
    Z[:, bias] = conv.bias_input * data.denominator * y
    return Z


def _narrowest(data: Dataset, conv: Convention) -> Any:
    """The narrowest of int16/int32/int64 that holds every entry of every z_i (object if none does)."""
    numerators = data.numerators
    if numerators.dtype == object:
        return object
    biggest = max(int(numerators.max(initial=0)), -int(numerators.min(initial=0)),
                  abs(conv.bias_input) * data.denominator)
    return next((t for t in (np.int16, np.int32, np.int64) if biggest <= np.iinfo(t).max), object)


def sample_matrix(data: Dataset, conv: Convention) -> ExactMatrix:
    """``ExactMatrix(signed_samples(data, conv))``, made in one pass in C where the kernel was built.

    Examples
    --------
    >>> from verify_perceptron.notes.conventions import CONVENTIONS
    >>> from verify_perceptron.data.examples import example
    >>> m = sample_matrix(example("and"), CONVENTIONS["classic"])
    >>> m.exact[3].tolist(), m.norms.tolist(), m.max_norm_sq
    ([1, 1, 1], [1, 2, 2, 3], 3)
    """
    numerators = data.numerators
    bias = conv.bias_input * data.denominator
    if _kernel.signed_rows is None or numerators.dtype != np.int64:
        return ExactMatrix(signed_samples(data, conv))
    n, m = numerators.shape
    X = np.ascontiguousarray(numerators)
    # The narrowest width that holds every entry, found by trying: a row that does not fit stops
    # the pass at once, so no separate pass over the data looks for the largest entry.
    for dtype in (np.int16, np.int32, np.int64):
        if abs(bias) > np.iinfo(dtype).max:
            continue
        Z = np.empty((n, m + 1), dtype=dtype)
        norms = np.empty(n, dtype=np.int64)
        try:
            largest = _kernel.signed_rows(X, data.y_array, bias, 0 if conv.bias_first else m, Z, norms)
        except OverflowError:
            continue
        bound = np.iinfo(dtype).max if dtype is not np.int64 else None  # entries are at most this
        return ExactMatrix(Z, norms=None if largest is None else norms, biggest=bound)
    return ExactMatrix(signed_samples(data, conv))  # an entry beyond int64: Python integers


def _tie_rule(conv: Convention, rate: Fraction, labels: Any) -> Any:
    """Per sample (`labels` an int array): is a score of exactly 0 a mistake? Read off the note's own decide()."""
    positive, negative = (_zero_is_mistake(conv, rate)[y] for y in (1, -1))
    if positive == negative:
        return np.full(len(labels), positive)
    return labels > 0 if positive else labels < 0


@functools.lru_cache(maxsize=64)
def _zero_is_mistake(conv: Convention, rate: Fraction) -> dict[int, bool]:
    for y in (-1, 1):
        # Away from 0 every note decides by sign alone: y·score < 0 is a mistake, > 0 is not.
        if conv.decide(Fraction(-y), y, rate) is None or conv.decide(Fraction(y), y, rate) is not None:
            raise AssertionError(f"{conv.name} does not decide by the sign of y·score")
    return {y: conv.decide(Fraction(0), y, rate) is not None for y in (-1, 1)}


class _Kept(Sequence[tuple[int, int, list[int], list[int], Any]]):
    """The kept updates' compact records, one by one or as runs of a compiled chunk.

    A record is ``(k, epoch, samples, scores, weights)``; in a run, weights is
    ``(segment, t)``, the t-th weights of a `_Segment`, computed when read.
    """

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.parts: list[tuple[Any, ...]] = []
        self.length = 0

    def add(self, record: tuple[int, int, list[int], list[int], Any]) -> None:
        self.starts.append(self.length)
        self.parts.append((record,))
        self.length += 1

    def add_run(self, first: int, epochs: list[int], rows: list[int], scores: list[int], segment: _Segment) -> None:
        self.starts.append(self.length)
        self.parts.append((first, epochs, rows, scores, segment))
        self.length += len(rows)

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.length))]
        if not 0 <= index < self.length:
            raise IndexError(index)
        p = bisect.bisect_right(self.starts, index) - 1
        part = self.parts[p]
        if len(part) == 1:
            return part[0]
        first, epochs, rows, scores, segment = part
        t = index - self.starts[p]
        return first + t, epochs[t], [rows[t]], [scores[t]], (segment, t)


class _Segment:
    """The weights after each of a run of updates, computed only if a kept update is read."""

    def __init__(self, start: Any, rows: Any) -> None:
        self.start, self.rows, self._weights = start, rows, None

    def weights(self) -> Any:
        if self._weights is None:
            # Each running sum is a weight vector of the run, inside the int64 guard.
            self._weights = np.cumsum(np.vstack([self.start, self.rows]), axis=0)[1:]
        return self._weights


#: The weights' representation for each kind of product (`ExactMatrix.backend`).
_WEIGHTS: dict[str, Any] = {"float64": np.float64, "int64": np.int64, "object": object}


def _ints(vector: Any) -> list[int]:
    """A vector's exact integer values as Python ints (float64 entries hold integers exactly)."""
    values = vector.tolist()
    return [int(v) for v in values] if vector.dtype.kind == "f" else values


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
    """Run one note's perceptron exactly and fast; the same trace as `engine.train`.

    Parameters
    ----------
    data, convention, eta, mode, max_epochs, time_limit, progress
        As for `verify_perceptron.run.reference.train`.
    observer : Observer, optional
        Told of every update as it happens (the streaming checker).
    keep_updates : int or None
        Keep the first this many updates in the returned trace, so memory does
        not grow with the number of updates; None (the default) keeps the first
        `KEEP_CELLS` weights' worth: 1000 updates of 20 weights, 20 of 1000.
    matrix : ExactMatrix, optional
        ``ExactMatrix(signed_samples(data, convention))``, if the caller has it already.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> trace = run(example("and"))
    >>> [str(w) for w in trace.final_weights], trace.n_updates, trace.n_epochs
    (['-4', '3', '2'], 18, 9)
    """
    conv, rate = _check_settings(convention, eta, mode, max_epochs)
    if keep_updates is None:
        keep_updates = max(10, KEEP_CELLS // (data.n_features + 1))
    a = conv.step_size(rate)
    a_num, a_den = a.numerator, a.denominator
    L = data.denominator
    if matrix is None:
        matrix = sample_matrix(data, conv)
    Z = matrix.exact
    tie = _tie_rule(conv, rate, data.y_array)
    all_ties, no_ties = bool(tie.all()), not tie.any()
    n, width = Z.shape
    norm_sq = 0  # ‖W‖², exactly
    # The compiled pass reads C-contiguous int16/int32/int64 rows, int64 norms and an int64 W; it
    # runs while the int64 guard holds, which is its precondition. With it the run keeps to int64
    # (no float64 copy of the samples is made), and Python integers beyond.
    compiled = _kernel.AVAILABLE and Z.dtype != object and matrix.norms.dtype == np.int64

    def backend(norm: int) -> str:
        chosen = matrix.backend(norm)
        return "int64" if compiled and chosen == "float64" else chosen

    kind = backend(norm_sq)
    rows = matrix.rows(kind)
    W: Any = np.zeros(width, dtype=_WEIGHTS[kind])  # holds integers exactly, in the product's representation
    if kind == "object":
        W[:] = 0
    mistakes = np.zeros(n, dtype=np.int64)
    kept = _Kept()
    n_updates = 0
    deadline = None if time_limit is None else time.monotonic() + time_limit
    repeats = CycleWatch(_ints(W), mistakes)
    stop, cycle, epoch = "max-epochs", None, 0
    out_of_time = False

    def mistaken(scores: Any, start: int, end: int) -> Any:
        if all_ties:
            return scores <= 0
        if no_ties:
            return scores < 0
        return (scores < 0) | ((scores == 0) & tie[start:end])

    # ‖W‖² below this keeps the float64 (or int64) product exact: checked in O(1) per update.
    limit = {"float64": FLOAT_EXACT_SQ, "int64": INT64_EXACT_SQ}
    fast_limit = (limit.get(kind, 0) - 1) // max(matrix.max_norm_sq, 1)

    def move(step: list[int], new_norm_sq: int) -> None:
        """W += step, exactly, in the representation the guard allows for the new ‖W‖²."""
        nonlocal W, rows, kind, norm_sq, fast_limit
        norm_sq = new_norm_sq
        exact = [w + t for w, t in zip(_ints(W), step)]
        kind = backend(norm_sq)
        rows = matrix.rows(kind)
        fast_limit = (limit.get(kind, 0) - 1) // max(matrix.max_norm_sq, 1)
        W = np.array(exact, dtype=_WEIGHTS[kind])

    def record(samples: list[int], scores: list[int], step: list[int] | None) -> None:
        nonlocal n_updates
        n_updates += 1
        if observer is not None:
            observer.observe(n_updates, epoch, samples, scores)
        if len(kept) < keep_updates:  # compactly; `build` makes the Update if it is read
            kept.add((n_updates, epoch, samples, scores, W.copy()))

    def build(record: tuple[int, int, list[int], list[int], Any]) -> Update:
        k, at_epoch, samples, scores, weights = record
        if isinstance(weights, tuple):  # (segment, t): the t-th weights of a compiled chunk
            weights = weights[0].weights()[weights[1]]
        step = [sum(col) for col in zip(*(_ints(matrix.exact[i]) for i in samples))]
        return Update(
            k, at_epoch, tuple(samples),
            tuple(Fraction(a_num * data.y[i] * s, a_den * L * L) for i, s in zip(samples, scores)),
            tuple(Fraction(a_num * d, a_den * L) for d in step),
            tuple(Fraction(a_num * v, a_den * L) for v in _ints(weights)),
        )

    if compiled:
        Z = np.ascontiguousarray(Z)
        norms64 = matrix.norms
        out_i, out_s, out_e = (np.empty(CHUNK, dtype=np.int64) for _ in range(3))

    def record_chunk(chunk: Any, scores: Any, epochs: Any, start_w: Any) -> None:
        """The compiled pass's updates (rows `chunk`, of `epochs`); `start_w` is W before them, while kept."""
        nonlocal n_updates
        first = n_updates + 1
        n_updates += len(chunk)
        if observer is not None:
            feed(observer, first, epochs if epochs[0] != epochs[-1] else int(epochs[0]), chunk, scores)
        room = min(keep_updates - len(kept), len(chunk))
        if room > 0:
            segment = _Segment(start_w, Z[chunk[:room]])
            kept.add_run(first, epochs[:room].tolist(), chunk[:room].tolist(), scores[:room].tolist(), segment)

    # Without a progress display or a time limit, the compiled pass runs on through the epochs
    # at whose end there is nothing to do here (no convergence, no save or repeat of the cycle
    # watch, the last epoch not reached), in chunks of at most WORK rows scanned.
    per_epoch = int(progress is not None or deadline is not None)
    saved_at, saved = -1, _NONE  # the cycle watch's saved weights, as the compiled pass reads them
    while epoch < max_epochs:
        epoch += 1
        made = 0  # mistakes in this epoch
        if mode == "online":
            p, block = 0, 128
            while p < n:
                if compiled and kind == "int64":
                    # The C pass: to the end of an epoch the loop below must see, a full chunk, or
                    # an update past the guard.
                    start_w = W.copy() if len(kept) < keep_updates else None
                    if saved_at != repeats.saved_epoch:  # the watch saved new weights: pass them once
                        saved_at = repeats.saved_epoch
                        saved = np.array(repeats.saved, dtype=np.int64) if repeats.fits_int64 else _NONE
                    m, p, norm_sq, guarded, epoch, made = _kernel.online_pass(
                        Z, W, tie, norms64, mistakes, out_i, out_s, p, norm_sq, fast_limit,
                        (out_e, saved, epoch, made, max_epochs, repeats.saved_epoch + repeats.power, per_epoch, WORK))
                    if m:
                        record_chunk(out_i[:m], out_s[:m], out_e[:m], start_w)
                    if guarded:  # this update leaves int64: Python integers from here on
                        i = p
                        s = sum(z * w for z, w in zip(_ints(matrix.exact[i]), _ints(W)))
                        move(_ints(matrix.exact[i]), norm_sq + 2 * s + int(matrix.norms[i]))
                        mistakes[i] += 1
                        made += 1
                        record([i], [s], None)
                        p += 1
                    if deadline is not None and time.monotonic() > deadline and p < n:
                        out_of_time = True  # mid-epoch: the state is no epoch boundary
                        break
                    continue
                end = p + block
                scores = rows[p:end] @ W
                hits = mistaken(scores, p, end)
                j = int(hits.argmax())
                if not hits[j]:  # no mistake in this block: the next one is twice as long
                    p, block = end, 2 * block
                    continue
                i = p + j
                s = int(scores[j])
                new_norm_sq = norm_sq + 2 * s + int(matrix.norms[i])  # ‖W + z‖² = ‖W‖² + 2·W·z + ‖z‖², exactly
                if new_norm_sq <= fast_limit:
                    W += rows[i]  # exact: every coordinate of the new W is below the guard
                    norm_sq = new_norm_sq
                else:
                    move(_ints(matrix.exact[i]), new_norm_sq)
                mistakes[i] += 1
                made += 1
                record([i], [s], None)
                p, block = i + 1, 2 * (j + 1)
                if deadline is not None and time.monotonic() > deadline:
                    out_of_time = True  # mid-epoch: the state is no epoch boundary
                    break
        else:
            scores = rows @ W  # every score of the pass from the same W
            wrong = [int(i) for i in np.flatnonzero(mistaken(scores, 0, n))]
            if wrong:
                step = [sum(col) for col in zip(*(_ints(matrix.exact[i]) for i in wrong))]
                s_values = [int(scores[i]) for i in wrong]
                after = [w + t for w, t in zip(_ints(W), step)]
                move(step, sum(v * v for v in after))
                mistakes[wrong] += 1
                made = len(wrong)
                record(wrong, s_values, step)
        if progress is not None:
            progress(epoch, n_updates)
        if out_of_time:
            stop = "time-limit"
            break
        if made == 0:
            stop = "converged"
            break
        cycle = repeats.seen_before(_ints(W), epoch, mistakes)
        if cycle is not None:
            stop = "cycle"
            break
        if deadline is not None and time.monotonic() > deadline:
            stop = "time-limit"
            break
    return Trace(
        convention=conv.name,
        rate=rate,
        mode=mode,
        updates=LazyUpdates(kept, build),
        final_weights=tuple(Fraction(a_num * v, a_den * L) for v in _ints(W)),
        n_epochs=epoch,
        stop=stop,
        cycle=cycle,
        mistakes_per_sample=Counts(mistakes),
        total_updates=n_updates,
        cycle_mistakes=repeats.cycle_mistakes,
    )
