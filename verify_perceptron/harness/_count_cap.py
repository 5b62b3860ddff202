"""A cap on a count other than epochs: code that stops after K updates (``if k >= max_updates: return``), or after
P presentations of a sample, mistakes or not (``for t in range(P): i = t % n``, a streaming loop over the data in
turn), returns the note's run's weights at that count, converged or not.

Without this model such code is only "consistent with an early stop" (`_causes.search_causes`); with it, the cap is
named with its K or P when one count, the same on every dataset tried, gives the weights on all of them.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable
from fractions import Fraction

from ..notes.conventions import Convention
from ._evidence import Model, Observation, allowing
from ._exact import Vector
from ._models import Simulation
from ._results import Diagnosis
from ._wording import _count

#: `_causes._Runs.explained`: the common factor of a model's outputs and every observation's weights, or None.
Explained = Callable[[list[Observation], Model, "Fraction | None"], "Fraction | None"]

#: The most presentation counts tried (those that give the counterexample's weights, least first).
MAX_PRESENTATIONS = 5000

#: (presentation count at each update, the start's 0 first; the weights after it; whether the run converged)
Trail = tuple[list[int], list[Vector], bool]


class Trails:
    """The note's run on each dataset as a trail of updates (the presentation count at each, and the weights after
    it), made once: the count caps read it, and `_causes.search_causes`' early stop its weights."""

    def __init__(self, conv: Convention, run_of: Callable[[Observation], Simulation]) -> None:
        self.conv, self.run_of = conv, run_of
        self._made: dict[int, Trail] = {}

    def __call__(self, o: Observation) -> Trail:
        from ..run.reference import train

        key = id(o.data)
        if key not in self._made:
            run = self.run_of(o)
            n = o.data.n_samples
            result = train(o.data, self.conv, max_epochs=len(run.ends) + 1)
            at = [0] + [(u.epoch - 1) * n + u.samples[-1] + 1 for u in result.updates]
            weights: list[Vector] = [tuple(Fraction(0) for _ in o.weights)]
            weights += [tuple(u.weights) for u in result.updates]
            self._made[key] = (at, weights, run.stop == "converged")
        return self._made[key]


def _after_updates(trails: Trails, K: int) -> Model:
    def model(o: Observation) -> list[Vector] | None:
        at, weights, converged = trails(o)
        if K >= len(weights) and not converged:
            return None  # past the run the model made
        return [weights[min(K, len(weights) - 1)]]
    return model


def _after_presentations(trails: Trails, P: int) -> Model:
    def model(o: Observation) -> list[Vector] | None:
        at, weights, converged = trails(o)
        k = bisect_right(at, P) - 1
        if k == len(weights) - 1 and not converged:
            return None  # the run past its last update is not known to make none
        return [weights[k]]
    return model


def count_cap(observations: list[Observation], trails: Trails, explained: Explained,
              rate: Fraction | None) -> Diagnosis | None:
    """count-cap: the least K (updates), else P (presentations), at which the note's run (`trails`) gives the weights
    on every dataset tried (`explained`, with the implementation's rounding), the counterexample's run cut short
    by it; None where none does."""
    conv = trails.conv
    first = observations[0]
    at, weights, _ = trails(first)
    matching = [k for k in range(len(weights) - 1) if explained([first], allowing(weights[k]), rate) is not None]
    for K in matching:
        if K and explained(observations, _after_updates(trails, K), rate) is not None:
            return _named(conv, "updates", K, _presentations(observations, trails, explained, rate, matching))
    P = _presentations(observations, trails, explained, rate, matching)
    return None if P is None else _named(conv, "presentations", P, None)


def _presentations(observations: list[Observation], trails: Trails, explained: Explained, rate: Fraction | None,
                   matching: list[int]) -> int | None:
    """The least presentation count at which the run gives the weights on every dataset tried (the counterexample's
    `matching` updates tell where to look), or None."""
    at = trails(observations[0])[0]
    for P in _limited(P for k in matching for P in range(at[k], at[k + 1])):
        if P and explained(observations, _after_presentations(trails, P), rate) is not None:
            return P
    return None


def _limited(counts: Iterable[int]) -> Iterable[int]:
    for i, P in enumerate(counts):
        if i >= MAX_PRESENTATIONS:
            return
        yield P


def _named(conv: Convention, what: str, count: int, also: int | None) -> Diagnosis:
    if what == "updates":
        text = f"the {conv.name} perceptron capped at {_count(count, 'update')}: it returns its weights after that many"
        if also is not None:
            text += (f" (or after {_count(also, 'presentation')} of a sample, mistakes or not: the datasets tried do "
                     "not tell the two caps apart)")
    else:
        text = (f"the {conv.name} perceptron capped at {_count(count, 'presentation')}: it presents the samples in "
                "turn that many times, mistakes or not, and returns its weights then")
    return Diagnosis("count-cap", {"count": what, "cap": count, "presentations": also},
                     f"{text}, converged or not")
