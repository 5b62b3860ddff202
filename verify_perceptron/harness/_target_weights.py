"""The weights a search of combinations (`_combinations`) looks for, ready to be compared with a run's epoch ends cheaply
and exactly: as integers over one denominator, and as doubles."""

from __future__ import annotations

import math
from fractions import Fraction

from ..data.exact_text import nearest_float
from ._evidence import factor_of
from ._exact import Vector
from ._learners import Run


class Target:
    """The counterexample's weights, ready to be compared with a run's epoch ends cheaply and exactly: as
    integers over one denominator (a positive multiple, or the declared rate's), and as doubles."""

    def __init__(self, weights: Vector, rate: Fraction | None) -> None:
        self.weights, self.rate = weights, rate
        D = 1
        for w in weights:
            D = D * w.denominator // math.gcd(D, w.denominator)
        self.V = [int(w * D) for w in weights]
        self.D = D
        self.pivot = max(range(len(weights)), key=lambda i: abs(self.V[i])) if weights else 0
        doubles = [nearest_float(w) for w in weights]
        self.doubles = tuple(doubles) if all(d is not None and Fraction(d) == w for d, w in zip(doubles, weights)) \
            else None

    def epochs(self, head: Run) -> list[int]:
        """Every T whose epoch end `matches`; a float run's compared as doubles at once.

        Examples
        --------
        >>> Target((Fraction(1), Fraction(-1, 2)), Fraction(1)).epochs(Run(ends=[(0.5, 0.0), (1.0, -0.5), (1.0, -0.5)]))
        [2, 3]
        """
        if head.ends and head.ends[0] and isinstance(head.ends[0][0], float):
            doubles = self.doubles
            return [] if doubles is None else [T for T, end in enumerate(head.ends, 1) if end == doubles]
        return [T for T in range(1, len(head.ends) + 1) if self.matches(head, T)]

    def matches(self, head: Run, T: int) -> bool:
        """Whether the weights after epoch T of `head` are the target (times the rate, or any c > 0 when
        no rate is known; a float run's exactly)."""
        end = head.ends[min(T, len(head.ends)) - 1]
        if end and isinstance(end[0], float):
            return self.doubles is not None and tuple(end) == self.doubles
        if not all(isinstance(u, int) for u in end):  # (an exact run's Fractions: a schedule's)
            return _ratio_fits(self.weights, head.at(T), self.rate)
        V, j = self.V, self.pivot
        if not any(V):
            return not any(end)
        if self.rate is not None:  # V/D == rate·U/scale
            p, q = self.rate.numerator, self.rate.denominator
            return all(v * head.scale * q == p * u * self.D for v, u in zip(V, end))
        return V[j] * end[j] > 0 and all(v * end[j] == V[j] * u for v, u in zip(V, end))


def _ratio_fits(weights: Vector, model: Vector, rate: Fraction | None) -> bool:
    return factor_of(weights, [model], rate) is not None
