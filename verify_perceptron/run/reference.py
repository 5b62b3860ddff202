"""The reference engine: the perceptron of each note, in exact rational arithmetic.

It is meant to be held beside the notes and ticked line by line: start from
zero, present the samples in the given order, update on a mistake by the
convention's rule, and repeat epochs until a pass makes no mistake.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import partial

from ..data.dataset import Dataset, require_dataset
from ..data.trace import Trace, Update
from ..notes.conventions import Convention, dot
from .cycles import CycleWatch
from .settings import check_settings, check_time_limit

__all__ = ["train"]

Progress = Callable[[int, int], None]
Vector = tuple[Fraction, ...]


def train(
    data: Dataset,
    convention: Convention | str = "classic",
    *,
    eta: object = 1,
    mode: str = "online",
    max_epochs: int = 1000,
    time_limit: float | None = None,
    progress: Progress | None = None,
) -> Trace:
    """Run one note's perceptron on `data` and record every update.

    Parameters
    ----------
    data : Dataset
        The samples, presented in their order.
    convention : Convention or str
        Which note's perceptron (see `verify_perceptron.notes.conventions`).
    eta : rational
        The learning rate (η, ε or λ); ``"1/2"``, ``Fraction(1, 2)`` and ``0.5`` all work.
    mode : {"online", "batch"}
        ``online`` updates after each mistake (the notes' incremental mode);
        ``batch`` adds the updates of all mistakes of a pass at its end (note 003).
    max_epochs : int
        Stop after this many passes even if the last one made a mistake.
    time_limit : float, optional
        Stop after about this many seconds.
    progress : callable, optional
        Called as ``progress(epoch, n_updates)`` after each pass.

    Returns
    -------
    Trace

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> trace = train(example("and"), "classic")  # note 000's AND example ends at [-4, 3, 2]
    >>> [int(w) for w in trace.final_weights], trace.converged
    ([-4, 3, 2], True)
    """
    conv, rate = check_settings(convention, eta, mode, max_epochs)
    data, time_limit = require_dataset(data), check_time_limit(time_limit)
    samples = [conv.augment(x) for x in data.X]
    w: Vector = tuple(Fraction(0) for _ in samples[0])  # all five notes start from w = 0
    updates: list[Update] = []
    mistakes = [0] * len(samples)
    epoch_of = _online_epoch if mode == "online" else _batch_epoch
    repeats = CycleWatch(w, mistakes, partial(_one_epoch, epoch_of, conv, rate, samples, data.y))
    deadline = None if time_limit is None else time.monotonic() + time_limit
    stop, cycle, epoch = "max-epochs", None, 0
    while epoch < max_epochs:
        epoch += 1
        n_before = len(updates)
        w = epoch_of(conv, rate, samples, data.y, w, epoch, mistakes, updates)
        if progress is not None:
            progress(epoch, len(updates))
        if len(updates) == n_before:  # a pass without a mistake
            stop = "converged"
            break
        cycle = repeats.seen_before(w, epoch, mistakes)
        if cycle is not None:  # the same state again: the run repeats forever
            stop = "cycle"
            break
        if deadline is not None and time.monotonic() > deadline:
            stop = "time-limit"
            break
    return Trace(
        convention=conv.name,
        rate=rate,
        mode=mode,
        updates=tuple(updates),
        final_weights=w,
        n_epochs=epoch,
        stop=stop,
        cycle=cycle,
        mistakes_per_sample=tuple(mistakes),
        cycle_mistakes=repeats.cycle_mistakes,
    )


def _one_epoch(epoch_of: Callable[..., Vector], conv: Convention, rate: Fraction, samples: Sequence[Vector],
               labels: Sequence[int], start: Vector) -> list[int]:
    """The mistakes per sample of one pass from the weights `start`, recorded nowhere.

    After a period-1 repeat this is the epoch just made (the run is
    deterministic), so it is the cycle's certificate.
    """
    counts = [0] * len(samples)
    epoch_of(conv, rate, samples, labels, start, 0, counts, [])
    return counts


def _online_epoch(conv: Convention, rate: Fraction, samples: Sequence[Vector], labels: Sequence[int], w: Vector,
                  epoch: int, mistakes: list[int], updates: list[Update]) -> Vector:
    """One pass in online (incremental) mode: update after each mistake; return the weights after it."""
    for i, (x, y) in enumerate(zip(samples, labels)):
        score = dot(w, x)
        factor = conv.decide(score, y, rate)
        if factor is not None:  # a mistake under the note's rule
            delta = tuple(factor * xj for xj in x)
            w = tuple(wj + dj for wj, dj in zip(w, delta))
            mistakes[i] += 1
            updates.append(Update(len(updates) + 1, epoch, (i,), (score,), delta, w))
    return w


def _batch_epoch(conv: Convention, rate: Fraction, samples: Sequence[Vector], labels: Sequence[int], w: Vector,
                 epoch: int, mistakes: list[int], updates: list[Update]) -> Vector:
    """One pass in batch mode (note 003): every score from the same w, one update by the sum at the end."""
    wrong, scores, total = [], [], [Fraction(0)] * len(w)
    for i, (x, y) in enumerate(zip(samples, labels)):
        score = dot(w, x)  # every score of the pass uses the same w
        factor = conv.decide(score, y, rate)
        if factor is not None:
            wrong.append(i)
            scores.append(score)
            total = [t + factor * xj for t, xj in zip(total, x)]
            mistakes[i] += 1
    if wrong:
        delta = tuple(total)
        w = tuple(wj + dj for wj, dj in zip(w, delta))
        updates.append(Update(len(updates) + 1, epoch, tuple(wrong), tuple(scores), delta, w))
    return w
