"""How many mistakes in another presentation order? Counts over seeded random orders, or all of them.

Every note's bound depends on the set of samples only, not on their order,
so it applies to every order; the mistakes actually made do depend on it.
The counts come from the fast engine's loop (`verify_perceptron.run.fast.count_run`)
on the same scaled samples with their rows reordered: one integer
perceptron loop serves both the runs and these sweeps.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..data.dataset import Dataset
from ..data.samples import sample_matrix
from ..errors import InvalidArgument
from ..notes.conventions import CONVENTIONS, Convention, get_convention, tie_rule
from ..run.fast import Count, count_run
from ._activeset import deadline_after

__all__ = ["MistakeCounter", "OrderCounts", "OrderStatistics", "order_statistics"]


class MistakeCounter:
    """Online runs of one convention on one dataset at rate 1, in any presentation order.

    From w = 0 the rate only scales the weights, so rate 1 makes every
    rate's mistakes. The scaled samples and the tie rule are made once; each
    order only reorders their rows.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> count = MistakeCounter(example("and"), "classic").count(range(4))
    >>> count.n_updates, count.stop, [str(w) for w in count.final_weights]
    (18, 'converged', ['-4', '3', '2'])
    """

    def __init__(self, data: Dataset, convention: Convention | str) -> None:
        self.convention = convention if isinstance(convention, Convention) else get_convention(convention)
        rate = Fraction(1)
        self.matrix = sample_matrix(data, self.convention)
        self.tie = tie_rule(self.convention, rate, data.y_array)
        self.step = self.convention.step_size(rate)
        self.L = data.denominator

    def count(self, order: Sequence[int], *, max_epochs: int = 1000) -> Count:
        """Run with the samples presented in `order` (``order[k]`` is the k-th sample shown)."""
        index = np.asarray(order, dtype=np.intp)
        return count_run(self.matrix.reordered(index), self.tie[index], self.step, self.L, max_epochs=max_epochs)


@dataclass(frozen=True)
class OrderCounts:
    """Mistakes of one convention's runs over many presentation orders.

    Attributes
    ----------
    convention : str
    n_orders : int
        How many orders were run.
    exhaustive : bool
        True when they were all n! orders: then `max` is the exact worst case.
    min, max : int
        Fewest and most mistakes.
    median : Fraction
        The median (the mean of the middle two for an even count).
    worst_order : tuple of int
        The first order run that made `max` mistakes (``worst_order[k]`` is the k-th sample shown).
    all_converged : bool
        False when some run hit `max_epochs` or cycled: its count is then no final count.
    """

    convention: str
    n_orders: int
    exhaustive: bool
    min: int
    median: Fraction
    max: int
    worst_order: tuple[int, ...]
    all_converged: bool

    def as_dict(self) -> dict[str, object]:
        """JSON-ready."""
        return {
            "convention": self.convention, "n_orders": self.n_orders, "exhaustive": self.exhaustive,
            "min": self.min, "median": str(self.median), "max": self.max,
            "worst_order": list(self.worst_order), "all_converged": self.all_converged,
        }


@dataclass(frozen=True)
class OrderStatistics:
    """Mistakes over `orders` seeded random orders and, for small data, over every order.

    Attributes
    ----------
    orders, seed : int
        The settings: `orders` orders drawn by ``random.Random(seed).shuffle``.
    sampled : tuple of OrderCounts
        One per convention, over the random orders (fewer if time ran out: see `notes`).
    exhaustive : tuple of OrderCounts
        One per convention over all n! orders, when n <= the limit and time allowed; else empty.
    notes : tuple of str
        What was cut short or left out, and why.
    """

    orders: int
    seed: int
    sampled: tuple[OrderCounts, ...]
    exhaustive: tuple[OrderCounts, ...]
    notes: tuple[str, ...]

    def as_dict(self) -> dict[str, object]:
        """JSON-ready."""
        return {
            "orders": self.orders, "seed": self.seed,
            "sampled": [c.as_dict() for c in self.sampled],
            "exhaustive": [c.as_dict() for c in self.exhaustive],
            "notes": list(self.notes),
        }


class _Tally:
    """Mistake counts over orders run one after another, kept as a histogram: memory bounded by the distinct
    counts, however many orders are run (``bounds --orders 100000000`` once held every order drawn)."""

    def __init__(self) -> None:
        self.histogram: Counter[int] = Counter()
        self.n_orders = 0
        self.worst: tuple[int, tuple[int, ...]] | None = None
        self.all_converged = True

    def add(self, order: tuple[int, ...], count: Count) -> None:
        self.histogram[count.n_updates] += 1
        self.n_orders += 1
        if self.worst is None or count.n_updates > self.worst[0]:
            self.worst = (count.n_updates, order)
        self.all_converged = self.all_converged and count.stop == "converged"

    def summary(self, convention: str, exhaustive: bool) -> OrderCounts:
        assert self.worst is not None  # (only called after an order ran)
        counts = sorted(self.histogram)
        middle = self.n_orders // 2
        median = (Fraction(_nth(self.histogram, counts, middle)) if self.n_orders % 2
                  else Fraction(_nth(self.histogram, counts, middle - 1) + _nth(self.histogram, counts, middle), 2))
        return OrderCounts(convention, self.n_orders, exhaustive, counts[0], median, counts[-1], self.worst[1],
                           self.all_converged)


def _nth(histogram: Counter[int], counts: list[int], k: int) -> int:
    """The k-th smallest (from 0) of the values the histogram counts."""
    for value in counts:
        k -= histogram[value]
        if k < 0:
            return value
    raise IndexError(k)


def _drawn(n: int, orders: int, seed: int) -> Iterator[tuple[int, ...]]:
    """The seeded random orders, one at a time: the same sequence for every convention."""
    rng = random.Random(seed)
    for _ in range(orders):
        order = list(range(n))
        rng.shuffle(order)
        yield tuple(order)


def _tally(counter: MistakeCounter, orders: Iterable[tuple[int, ...]], max_epochs: int,
           deadline: float | None) -> _Tally:
    """Counts for the orders in turn, stopping early (with fewer) when the deadline passes."""
    tally = _Tally()
    for order in orders:
        if deadline is not None and time.monotonic() > deadline:
            break
        tally.add(order, counter.count(order, max_epochs=max_epochs))
    return tally


def _check_count(value: object, name: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise InvalidArgument(f"{name}={value!r} must be an integer >= {low}")
    return value


def order_statistics(
    data: Dataset,
    *,
    orders: int,
    seed: int,
    exhaustive_limit: int = 8,
    max_epochs: int = 1000,
    time_limit: float | None = None,
) -> OrderStatistics:
    """Mistakes per convention over `orders` seeded random orders, and over all orders for small data.

    Parameters
    ----------
    data : Dataset
    orders : int
        How many random presentation orders (>= 1).
    seed : int
        Seed of ``random.Random`` that draws them, so a run can be repeated.
    exhaustive_limit : int
        Also run every one of the n! orders when n <= this (8! = 40320 runs per convention).
    max_epochs : int
        Passes allowed to each run.
    time_limit : float, optional
        Seconds; runs stop when they are spent. Sampled counts then cover the orders
        run so far, and the exhaustive part is left out; `OrderStatistics.notes` says so.
        Orders are drawn and run one at a time, and the counts kept as a histogram,
        so memory does not grow with `orders`.

    Returns
    -------
    OrderStatistics

    Notes
    -----
    Runs are counted by the fast engine's own loop (`MistakeCounter`), which
    the tests also hold to the reference engine's counts. Every note's bound depends
    on the set of samples only, so one bound per note and separator (from
    `compare_bounds`) applies to every order.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> stats = order_statistics(example("and"), orders=5, seed=0)
    >>> [(c.convention, c.min, c.max) for c in stats.exhaustive][:2]
    [('classic', 18, 22), ('hard-limiter', 10, 12)]
    """
    _check_count(orders, "orders", 1)
    _check_count(seed, "seed", 0)
    _check_count(exhaustive_limit, "exhaustive_limit", 0)
    _check_count(max_epochs, "max_epochs", 1)
    deadline = deadline_after(time_limit)
    counters = [MistakeCounter(data, c) for c in CONVENTIONS]
    sampled, notes = [], []
    for counter in counters:
        tally = _tally(counter, _drawn(data.n_samples, orders, seed), max_epochs, deadline)
        if tally.n_orders:
            sampled.append(tally.summary(counter.convention.name, False))
        if tally.n_orders < orders:
            notes.append(f"{counter.convention.name}: time_limit={time_limit!r} ran out after {tally.n_orders} of {orders} orders")
    exhaustive: list[OrderCounts] = []
    if data.n_samples > exhaustive_limit:
        notes.append(f"no exhaustive run: {data.n_samples} samples > exhaustive_limit={exhaustive_limit}")
    else:
        every = math.factorial(data.n_samples)
        for counter in counters:
            tally = _tally(counter, itertools.permutations(range(data.n_samples)), max_epochs, deadline)
            if tally.n_orders < every:  # a partial maximum is no worst case: leave it out
                notes.append(f"no exhaustive run: time_limit={time_limit!r} ran out during the {every} orders")
                exhaustive = []
                break
            exhaustive.append(tally.summary(counter.convention.name, True))
    return OrderStatistics(orders, seed, tuple(sampled), tuple(exhaustive), tuple(notes))
