"""The checker's units: its scaled integers and the true rationals they stand for.

The checker replays a run in integers: samples z_i = y_i·L·x~_i (L the data's
common denominator), weights W with w = (a/L)·W (a the convention's step)
and separator W* = M·w*. A quantity's true value is its integer value times
a**p / (L**q · M**r), for the quantity's unit (p, q, r)
(`verify_perceptron.notes.claims.UNITS`).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ..data.trace import ScaledWeights
from ..notes.claims import UNITS

__all__ = ["Units"]


class Units:
    """Conversions between the checker's integers and true rationals, for step `a`, data `L` and w* `M`.

    Examples
    --------
    >>> u = Units(Fraction(1, 2), L=3, M=1, labels=[1, -1])
    >>> u.weights([6, -3]), u.is_weights([Fraction(1), Fraction(-1, 2)], [6, -3])
    ((Fraction(1, 1), Fraction(-1, 2)), True)
    >>> u.score(1, Fraction(18))  # w·x~_1 = (a/L²)·y_1·s
    Fraction(-1, 1)
    """

    def __init__(self, a: Fraction, *, L: int, M: int, labels: Sequence[int]) -> None:
        self.a, self.L, self.M, self.labels = a, L, M, labels
        self._factors: dict[tuple[int, int, int], Fraction] = {}

    def factor(self, unit: tuple[int, int, int]) -> Fraction:
        """The true value of 1 in `unit` (p, q, r): a**p / (L**q · M**r)."""
        factor = self._factors.get(unit)
        if factor is None:
            p, q, r = unit
            factor = self._factors[unit] = self.a**p / (self.L**q * self.M**r)
        return factor

    def true(self, name: str, value: int | Fraction) -> Fraction:
        """The true value of quantity `name` whose integer value is `value`."""
        return value * self.factor(UNITS[name])

    def weights(self, vector: Sequence[int]) -> tuple[Fraction, ...]:
        """The true weights w = (a/L)·W of an integer vector W."""
        return tuple(Fraction(self.a.numerator * int(v), self.a.denominator * self.L) for v in vector)

    def is_weights(self, weights: Sequence[Fraction], vector: Sequence[int]) -> bool:
        """Is ``weights == self.weights(vector)``? In integers: w_j = (a/L)·V_j ⟺ p_j·L·a_den = a_num·V_j·q_j."""
        a_num, a_den, L = self.a.numerator, self.a.denominator, self.L
        if len(weights) != len(vector):
            return False
        if isinstance(weights, ScaledWeights) and weights.unit == self.a / self.L:
            return weights.integers == list(vector)  # the same unit: the same integers
        for w, v in zip(weights, vector):
            p, q = (w if type(w) is Fraction else Fraction(w)).as_integer_ratio()
            if p * L * a_den != a_num * v * q:
                return False
        return True

    def score(self, j: int, s: Fraction) -> Fraction:
        """A scaled score z_j·W back in true units: w·x~_j = (a/L²)·y_j·s."""
        return self.a * self.labels[j] * s / (self.L * self.L)
