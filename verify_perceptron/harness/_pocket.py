"""The pocket algorithm as people write it: the note's run, returning not its last weights but those of
best training accuracy met so far, often with an epoch cap.

Written pockets differ in three ways, each tried (`POCKETS`):

- how a score predicts (``>= 0`` predicts +1, ``> 0`` predicts +1, or ``np.sign(score) == y``, which
  counts a score of 0 wrong for both labels);
- whether the starting weights (zero) are a candidate before the first update;
- which weights are kept on a tie of accuracy: the first met or the last met.

The run is the note's own (integers, as `_models.simulate`), so the pocket after epoch T is known for
every T at once: an epoch cap is found as the T, the same on every dataset, whose pocket reproduces the
implementation's weights.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from ..data.dataset import Dataset
from ..notes.conventions import Convention
from ._evidence import Observation, Printed, explained, factor_of
from ._exact import Vector
from ._models import _dot, simulate
from ._results import Diagnosis
from ._wording import _count

#: How a score predicts, as a report says it: the rule's name, and whether (score sign, label) is right.
PREDICTIONS: dict[str, str] = {
    "ge": "predicting +1 when w·x~ >= 0",
    "gt": "predicting +1 when w·x~ > 0",
    "sign": "counting a sample right when sign(w·x~) is its label, so a score of 0 is wrong for both labels",
}


@dataclass(frozen=True)
class Pocket:
    """One way of writing the pocket: its prediction rule (a key of `PREDICTIONS`), whether the zero start
    is a candidate, whether a tie of accuracy keeps the last weights met (else the first)."""

    prediction: str = "ge"
    start: bool = False
    last_on_tie: bool = False

    def words(self) -> str:
        """The pocket as a report says it."""
        start = "the zero start a candidate" if self.start else "only weights met after an update"
        return f"{PREDICTIONS[self.prediction]}; {start}; the {'last' if self.last_on_tie else 'first'} met on a tie"


#: Every pocket tried, the one most often written first.
POCKETS = tuple(Pocket(p, s, t) for p in PREDICTIONS for s in (False, True) for t in (False, True))


@dataclass
class PocketRun:
    """The note's run with every pocket of `POCKETS` followed: ``kept[p][t]`` is pocket p's weights (integers
    over `scale`) after epoch t + 1, ``ends[t]`` the run's own; ``converged`` says its last epoch was clean
    (else it cycles or met the limit: a pocket that keeps the first met cannot change past a cycle)."""

    scale: int
    kept: dict[Pocket, list[tuple[int, ...]]]
    converged: bool
    ends: list[tuple[int, ...]]

    def is_last(self, pocket: Pocket, epochs: int | None) -> bool:
        """Whether pocket's weights after `epochs` epochs are the run's own then (no pocket in evidence)."""
        at = min(epochs or len(self.ends), len(self.ends))
        return bool(self.ends) and self.kept[pocket][at - 1] == self.ends[at - 1]

    def at(self, pocket: Pocket, epochs: int | None) -> tuple[Fraction, ...] | None:
        """Pocket's weights after `epochs` epochs (None: when the run ends), or None where unknown."""
        kept = self.kept[pocket]
        if epochs is not None and epochs <= len(kept):
            return tuple(Fraction(u, self.scale) for u in kept[epochs - 1])
        if not kept or (pocket.last_on_tie and not self.converged):
            return None  # a cycling run's pocket that keeps the last met can move on
        return tuple(Fraction(u, self.scale) for u in kept[-1])


def pocket_run(data: Dataset, conv: Convention) -> PocketRun:
    """The note's run from w = 0 at learning rate 1 (`_models.simulate`), following every pocket.

    Examples
    --------
    >>> from verify_perceptron.data.dataset import from_arrays
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> run = pocket_run(from_arrays([[-1], [1]], [-1, 1]), get_convention("classic"))
    >>> [str(v) for v in run.at(Pocket(), None)], run.converged
    (['-1', '1'], True)
    """
    L = data.denominator
    samples = [[int(v * L) for v in conv.augment(x)] for x in data.X]
    labels = list(data.y)
    zero = [0] * len(samples[0])
    counts = _rights(zero, samples, labels)
    best = {p: (tuple(zero), counts[p.prediction] if p.start else -1) for p in POCKETS}
    kept: dict[Pocket, list[tuple[int, ...]]] = {p: [] for p in POCKETS}

    def updated(U: list[int]) -> None:
        counts = _rights(U, samples, labels)
        for p in POCKETS:
            right = counts[p.prediction]
            if right > best[p][1] or (p.last_on_tie and right == best[p][1]):
                best[p] = (tuple(U), right)

    def ended() -> None:
        for p in POCKETS:
            kept[p].append(best[p][0])

    run = simulate(data, conv, on_update=updated, on_epoch=ended)
    return PocketRun(run.scale, kept, run.stop == "converged", run.ends)


def _rights(U: list[int], samples: list[list[int]], labels: list[int]) -> dict[str, int]:
    """How many samples each prediction rule gets right under weights U."""
    ge = gt = sign = 0
    for x, label in zip(samples, labels):
        score = _dot(U, x)
        ge += (1 if score >= 0 else -1) == label
        gt += (1 if score > 0 else -1) == label
        sign += label * score > 0
    return {"ge": ge, "gt": gt, "sign": sign}


def pocket_cause(observations: list[Observation], conv: Convention, rate: Fraction | None,
                 rounded: bool | Printed = False) -> Diagnosis | None:
    """best-so-far: some pocket of `POCKETS`, uncapped or capped at T epochs (the same T on every dataset),
    reproduces every observation with one learning rate."""
    runs = [pocket_run(o.data, conv) for o in observations]
    fitting = [(pocket, epochs) for pocket in POCKETS
               for epochs in _first_cap(observations, runs, pocket, rate, rounded)]
    if not fitting:
        return None
    (pocket, epochs), others = fitting[0], [p for p, _ in fitting[1:]]
    most, capped = _widest(observations, runs, pocket, epochs, rate, rounded), ""
    if epochs is not None and most == epochs:
        capped = f", capped at {_count(epochs, 'epoch')}"
    elif epochs is not None:
        capped = (f", capped at {epochs} epochs or more, or not capped (on the datasets tried every such cap gives the "
                  "same weights)" if most is None else
                  f", capped at {epochs} to {most} epochs (on the datasets tried each gives the same weights)")
    open_ = [what for what, key in (("its prediction rule", "prediction"), ("whether the zero start counts", "start"),
                                    ("its tie rule", "last_on_tie"))
             if any(getattr(p, key) != getattr(pocket, key) for p in others)]
    also = f" (the datasets tried do not tell {' or '.join(open_)})" if open_ else ""
    return Diagnosis("best-so-far", {"epochs": epochs, "epochs_up_to": most, "prediction": pocket.prediction,
                                     "start": pocket.start, "last_on_tie": pocket.last_on_tie,
                                     "also": [vars(p) for p in others]},
                     f"the {conv.name} perceptron returning the weights of best training accuracy met so far "
                     f"({pocket.words()}), not the last ones (a pocket algorithm){capped}{also}")


def _first_cap(observations: list[Observation], runs: list[PocketRun], pocket: Pocket, rate: Fraction | None,
               rounded: bool | Printed) -> list[int | None]:
    """The least cap (None: no cap) at which `pocket` reproduces every observation, as a list of one, or []; not
    where the pocket holds the run's own last weights there on every dataset (an epoch cap says that more simply)."""
    least = next(([epochs] for epochs in _caps(observations, runs, pocket, rate, rounded)
                  if _fits(observations, runs, pocket, epochs, rate, rounded)), [])
    return [] if least and all(run.is_last(pocket, least[0]) for run in runs) else least


def _fits(observations: list[Observation], runs: list[PocketRun], pocket: Pocket, epochs: int | None,
          rate: Fraction | None, rounded: bool | Printed) -> bool:
    """Pocket, capped at `epochs` (None: not capped), reproduces every observation with one factor."""
    models = {id(o): run.at(pocket, epochs) for o, run in zip(observations, runs)}
    return explained(observations, lambda o: _listed(models[id(o)]), rate, rounded=rounded) is not None


def _widest(observations: list[Observation], runs: list[PocketRun], pocket: Pocket, epochs: int | None,
            rate: Fraction | None, rounded: bool | Printed) -> int | None:
    """The largest cap from `epochs` on such that every cap up to it fits too; None when every larger cap, and no
    cap, fit (past the longest run, a larger cap changes nothing)."""
    if epochs is None:
        return None
    longest = max(len(run.kept[pocket]) for run in runs)
    most = epochs
    while most < longest and _fits(observations, runs, pocket, most + 1, rate, rounded):
        most += 1
    return None if most == longest and _fits(observations, runs, pocket, None, rate, rounded) else most


def _caps(observations: list[Observation], runs: list[PocketRun], pocket: Pocket, rate: Fraction | None,
          rounded: bool | Printed) -> Iterator[int | None]:
    """The caps worth trying, in increasing order: the epochs after which the counterexample's pocket fits it;
    then, where its run's end fits (every later cap alike on it), the later caps at which the next dataset's
    pocket fits that one, and no cap."""
    first, kept = observations[0], runs[0].kept[pocket]
    for t in range(1, len(kept) + 1):
        at = runs[0].at(pocket, t)
        if at is not None and factor_of(first.weights, [at], rate, rounded=rounded) is not None:
            yield t
    end = runs[0].at(pocket, None)
    if end is None or factor_of(first.weights, [end], rate, rounded=rounded) is None:
        return
    longest = max(len(run.kept[pocket]) for run in runs)
    other = 1 if len(runs) > 1 else 0
    for t in range(len(kept) + 1, longest + 1):
        at = runs[other].at(pocket, t)
        if at is not None and factor_of(observations[other].weights, [at], rate, rounded=rounded) is not None:
            yield t
    yield None


def _listed(weights: Vector | None) -> list[Vector] | None:
    return None if weights is None else [weights]
