"""The reference engine: the perceptron of each note, in exact rational arithmetic.

It is meant to be held beside the notes and ticked line by line: start from
zero, present the samples in the given order, update on a mistake by the
convention's rule, and repeat epochs until a pass makes no mistake.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np

from ..notes.conventions import Convention, dot, get_convention
from ..data.dataset import Dataset
from ..errors import InvalidArgument
from ..data.rationals import as_rational
from ..data.trace import Trace, Update

__all__ = ["train", "MODES", "CycleWatch"]

MODES = ("online", "batch")

Progress = Callable[[int, int], None]


class CycleWatch:
    """Brent's cycle detection over the weights at epoch boundaries, in constant memory.

    Each epoch's final weights are compared with one saved state, saved again
    at distances 1, 2, 4, ... epochs. A deterministic run that returns to a
    state repeats forever; it is caught within about three times its tail
    plus period. Both engines use this one watch, so they stop at the same epoch.

    It also keeps the per-sample mistake counts of the saved epoch, so that on
    a repeat `cycle_mistakes` holds the mistakes made over the repeated epochs
    (the certificate of non-separability), however many updates a run kept.

    Examples
    --------
    >>> watch = CycleWatch((0, 0), [0, 0])
    >>> watch.seen_before((1, 0), 1, [1, 0]), watch.seen_before((1, 0), 2, [2, 1])
    (None, (1, 2))
    >>> watch.cycle_mistakes
    (1, 1)
    """

    def __init__(self, start: object, counts: Sequence[int]) -> None:
        self.saved, self.saved_epoch, self.power = start, 0, 1
        self.saved_counts = np.array(counts, dtype=np.int64)
        self.cycle_mistakes: tuple[int, ...] | None = None

    @property
    def fits_int64(self) -> bool:
        """Whether the saved state is a vector of integers that int64 holds (for the compiled pass)."""
        saved = self.saved
        return isinstance(saved, (list, tuple)) and all(
            isinstance(v, int) and -(2**63) <= v < 2**63 for v in saved)

    def seen_before(self, state: object, epoch: int, counts: Sequence[int]) -> tuple[int, int] | None:
        """``(e1, epoch)`` when `state` equals the state after epoch e1, else None.

        `counts` are the mistakes per sample so far (N_μ).
        """
        if state == self.saved:
            self.cycle_mistakes = tuple((np.array(counts, dtype=np.int64) - self.saved_counts).tolist())
            return self.saved_epoch, epoch
        if epoch - self.saved_epoch == self.power:
            self.saved, self.saved_epoch, self.power = state, epoch, 2 * self.power
            self.saved_counts = np.array(counts, dtype=np.int64)
        return None


def _check_settings(convention: Convention | str, eta: object, mode: str, max_epochs: int) -> tuple[Convention, Fraction]:
    conv = convention if isinstance(convention, Convention) else get_convention(convention)
    try:
        rate = as_rational(eta, name="eta")
    except ValueError as error:
        raise InvalidArgument(str(error)) from None
    conv.check_rate(rate)
    if mode not in MODES:
        raise InvalidArgument(f"mode={mode!r} must be one of {', '.join(MODES)}")
    if isinstance(max_epochs, bool) or not isinstance(max_epochs, int) or max_epochs < 1:
        raise InvalidArgument(f"max_epochs={max_epochs!r} must be an integer >= 1")
    return conv, rate


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
    Note 000's AND example ends at [-4, 3, 2]:

    >>> from verify_perceptron.data.examples import example
    >>> trace = train(example("and"), "classic")
    >>> [int(w) for w in trace.final_weights], trace.converged
    ([-4, 3, 2], True)
    """
    conv, rate = _check_settings(convention, eta, mode, max_epochs)
    samples = [conv.augment(x) for x in data.X]
    w = tuple(Fraction(0) for _ in samples[0])  # all five notes start from w = 0
    updates: list[Update] = []
    mistakes = [0] * len(samples)
    repeats = CycleWatch(w, mistakes)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    stop, cycle, epoch = "max-epochs", None, 0
    while epoch < max_epochs:
        epoch += 1
        n_before = len(updates)
        if mode == "online":
            for i, (x, y) in enumerate(zip(samples, data.y)):
                score = dot(w, x)
                factor = conv.decide(score, y, rate)
                if factor is not None:  # a mistake under the note's rule
                    delta = tuple(factor * xj for xj in x)
                    w = tuple(wj + dj for wj, dj in zip(w, delta))
                    mistakes[i] += 1
                    updates.append(Update(len(updates) + 1, epoch, (i,), (score,), delta, w))
        else:
            wrong, scores, total = [], [], [Fraction(0)] * len(w)
            for i, (x, y) in enumerate(zip(samples, data.y)):
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
