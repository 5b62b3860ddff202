"""Models of the perceptrons people write: the note's algorithm changed in one way (a tie let
through, a bias never moved, a tolerance on the score, weights kept as integers, ...), run exactly
in integers, with everything a diagnosis reads off one run: the weights at each epoch's end, their
running sums for an average, the scores that bound a tolerance (the best-accuracy weights: `_pocket`).

With samples x~ = N/L (integers N) and a bias rate P/Q, the weights at learning rate 1 are
w = U/(L·Q) with integer U, so every decision is an integer comparison.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ..data.dataset import Dataset
from ..notes.conventions import Convention
from ._exact import _is_mistake

#: One way the update or the decision departs from the note (None: the note's own rule).
VARIANTS = ("ties-not-mistakes", "no-bias-update", "bias-wrong-sign", "wrong-sign", "labels-0-1",
            "skips-last-sample", "skips-first-sample", "updates-every-sample", "bias-rate", "integer-weights")
#: Epochs a model runs at most (it stops earlier when it converges or its epoch ends repeat).
MODEL_EPOCHS = 2000


@dataclass(frozen=True)
class Change:
    """How a model departs from the note's perceptron; the defaults are the note's own algorithm.

    Attributes
    ----------
    variant : str or None
        One of `VARIANTS`.
    bias_rate : Fraction
        The bias step's own rate (``bias-rate``).
    tolerance : Fraction
        A score y·(w·x~) <= tolerance counts as a mistake (0: the note's rule), at learning rate 1.
    epochs : int or None
        Run exactly this many epochs, without stopping at a clean one (an average over a fixed run).
    """

    variant: str | None = None
    bias_rate: Fraction = Fraction(1)
    tolerance: Fraction = Fraction(0)
    epochs: int | None = None


@dataclass
class Simulation:
    """One model run. Weights are integer vectors U with w = U/scale at learning rate 1.

    Attributes
    ----------
    ends : list of tuple of int
        The weights at the end of epochs 1, 2, ...
    sums : list of tuple of int
        Σ of the weights after every presentation, up to the end of each epoch.
    update_sums : list of tuple of int
        Σ of the weights after every update, up to the end of each epoch.
    update_counts : list of int
        The updates up to the end of each epoch.
    presentations : int
        Samples presented per epoch.
    stop : str
        ``converged`` (the last epoch was clean), ``cycles`` (an epoch end repeated), ``limit``.
    lo, hi : Fraction
        With a tolerance: every tolerance in [lo, hi) gives this very run.
    """

    scale: int
    presentations: int
    ends: list[tuple[int, ...]] = field(default_factory=list)
    sums: list[tuple[int, ...]] = field(default_factory=list)
    update_sums: list[tuple[int, ...]] = field(default_factory=list)
    update_counts: list[int] = field(default_factory=list)
    stop: str = "limit"
    lo: Fraction = Fraction(0)
    hi: Fraction | None = None

    def weights(self, U: tuple[int, ...]) -> tuple[Fraction, ...]:
        """The exact weights (learning rate 1) of an integer state."""
        return tuple(Fraction(u, self.scale) for u in U)

    def final(self) -> tuple[Fraction, ...]:
        """The weights the run returns."""
        return self.weights(self.ends[-1]) if self.ends else ()

    def average(self, epochs: int, over: str = "presentations") -> tuple[Fraction, ...]:
        """The average of the weights over the first `epochs` epochs, over what `over` names
        (`run.averaged.AVERAGES`): every presentation, the start too, each epoch's end, each update.
        Past the epochs run, a run that converged keeps its final weights."""
        known = min(epochs, len(self.ends))
        more = epochs - known
        if more and self.stop != "converged":
            raise ValueError(f"epochs={epochs}: the run stopped ({self.stop}) after {len(self.ends)} epochs")
        last = self.ends[known - 1]
        if over == "updates":
            count = self.update_counts[known - 1]
            return tuple(Fraction(s, self.scale * count) if count else Fraction(0) for s in self.update_sums[known - 1])
        if over == "epochs":
            total = [sum(U[j] for U in self.ends[:known]) + more * last[j] for j in range(len(last))]
            return tuple(Fraction(s, self.scale * epochs) for s in total)
        P = self.presentations * epochs
        total = [s + more * self.presentations * u for s, u in zip(self.sums[known - 1], last)]
        return tuple(Fraction(s, self.scale * (P + (over == "start"))) for s in total)


def simulate(data: Dataset, conv: Convention, change: Change = Change(), *,
             on_update: Callable[[list[int]], None] | None = None,
             on_epoch: Callable[[], None] | None = None, labels: Sequence[int] | None = None) -> Simulation:
    """Run the note's perceptron changed as `change` says, exactly, from w = 0, at learning rate 1;
    `on_update` is told the integer weights after each update, `on_epoch` each epoch's end (`_pocket`);
    `labels` are read in place of the data's own (all of one class too: `_one_class`).

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> run = simulate(example("and"), get_convention("classic"))
    >>> run.stop, len(run.ends), [str(v) for v in run.final()]
    ('converged', 9, ['-4', '3', '2'])
    >>> simulate(example("and"), get_convention("classic"), Change("no-bias-update")).stop
    'cycles'
    """
    L, Q, P = data.denominator, change.bias_rate.denominator, change.bias_rate.numerator
    samples = [[int(v * L) for v in conv.augment(x)] for x in data.X]
    bias = 0 if conv.bias_first else data.n_features
    decides = {(sign, label): _is_mistake(conv, Fraction(sign), label) for sign in (-1, 0, 1) for label in (-1, 1)}
    variant = change.variant
    order = {"skips-last-sample": range(len(samples) - 1),
             "skips-first-sample": range(1, len(samples))}.get(variant or "", range(len(samples)))
    run = Simulation(scale=L * Q, presentations=len(order))
    given = data.y if labels is None else labels
    # a tolerance compares y·(U·N) with tolerance·L²·Q (the score's integer units)
    limit = change.tolerance * L * L * Q
    U = [0] * len(samples[0])
    total = [0] * len(U)
    updated, updates = [0] * len(U), 0
    seen: set[tuple[int, ...]] = set()
    for _ in range(change.epochs or MODEL_EPOCHS):
        clean = True
        for i in order:
            x, label = samples[i], given[i]
            score = sum(u * v for u, v in zip(U, x))
            if limit:
                mistake = label * score <= limit
                margin = Fraction(label * score, L * L * Q)
                if mistake and margin > 0:
                    run.lo = max(run.lo, margin)
                elif not mistake:
                    run.hi = margin if run.hi is None else min(run.hi, margin)
            else:
                mistake = decides[((score > 0) - (score < 0), label)]
            if variant == "ties-not-mistakes":
                mistake = mistake and score != 0
            elif variant == "updates-every-sample":
                mistake = True
            if mistake:
                clean = False
                U = _step(U, x, conv.step_factor * label, variant, bias, P, Q, L)
                updated, updates = [t + u for t, u in zip(updated, U)], updates + 1
                if on_update is not None:
                    on_update(U)
            total = [t + u for t, u in zip(total, U)]
        state = tuple(U)
        run.ends.append(state)
        run.sums.append(tuple(total))
        run.update_sums.append(tuple(updated))
        run.update_counts.append(updates)
        if on_epoch is not None:
            on_epoch()
        if change.epochs is None:
            if clean:
                run.stop = "converged"
                break
            if state in seen:
                run.stop = "cycles"
                break
            seen.add(state)
    if change.epochs is not None:
        run.stop = "fixed"
    return run


def _dot(U: list[int], x: list[int]) -> int:
    return sum(u * v for u, v in zip(U, x))


def _step(U: list[int], x: list[int], sign: int, variant: str | None, bias: int, P: int, Q: int,
          L: int) -> list[int]:
    """The weights after one update of the model: U + Q·sign·x, changed as `variant` says."""
    if variant == "labels-0-1":
        sign = max(sign, 0)  # the 0/1 label 0 as the update's sign: class 0 never moves w
    elif variant == "wrong-sign":
        sign = -sign
    step = [sign * Q * v for v in x]
    if variant == "no-bias-update":
        step[bias] = 0
    elif variant == "bias-wrong-sign":
        step[bias] = -step[bias]
    elif variant == "bias-rate":
        step[bias] = sign * P * x[bias]
    new = [u + t for u, t in zip(U, step)]
    if variant == "integer-weights":  # an integer array: every weight truncated toward 0 after the step
        unit = L * Q
        new = [int(Fraction(u, unit)) * unit for u in new]
    return new


def orders_reaching(data: Dataset, conv: Convention, target: Sequence[Fraction], *, max_epochs: int = 30,
                    max_states: int = 20_000) -> list[tuple[int, ...]] | None:
    """Per-epoch presentation orders under which the note's run (rate 1) converges at `target`, or None.

    A breadth-first search over the weights reachable at each epoch's end,
    every epoch in any order of the samples (a shuffling implementation);
    None when no such run exists within the limits.

    Examples
    --------
    >>> from verify_perceptron.data.dataset import from_arrays
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> data = from_arrays([[-1], [1]], [-1, 1])
    >>> orders_reaching(data, get_convention("classic"), (Fraction(0), Fraction(2)))
    [(0, 1), (0, 1)]
    >>> orders_reaching(data, get_convention("classic"), (Fraction(1), Fraction(1))) is None
    True
    """
    import itertools

    L = data.denominator
    samples = [[int(v * L) for v in conv.augment(x)] for x in data.X]
    goal = tuple(t * L for t in target)
    if any(g.denominator != 1 for g in goal) or data.n_samples > 5:
        return None
    wanted = tuple(int(g) for g in goal)
    decides = {(sign, label): _is_mistake(conv, Fraction(sign), label) for sign in (-1, 0, 1) for label in (-1, 1)}
    zero = tuple([0] * len(samples[0]))
    frontier: dict[tuple[int, ...], list[tuple[int, ...]]] = {zero: []}
    visited = {zero}
    for _ in range(max_epochs):
        following: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
        for state, history in frontier.items():
            for order in itertools.permutations(range(len(samples))):
                U, clean = list(state), True
                for i in order:
                    score = _dot(U, samples[i])
                    if decides[((score > 0) - (score < 0), data.y[i])]:
                        U = [u + conv.step_factor * data.y[i] * v for u, v in zip(U, samples[i])]
                        clean = False
                new = tuple(U)
                if clean:
                    if new == wanted:
                        return history + [order]
                    continue
                if new not in visited:
                    visited.add(new)
                    following[new] = history + [order]
        if not following or len(visited) > max_states:
            return None
        frontier = following
    return None
