"""Which weights a perceptron-like learner can reach at all: every update adds a multiple of one sample's
step direction, so its weights are Σ a_i·z_i with z_i = y_i·x~_i (the bias coordinate scaled by the
bias step's factor), every a_i of the step's sign and, at a constant known rate η, a whole multiple of η.

`coefficients` solves for the a_i exactly when the z_i are linearly independent (then they are unique);
the search prunes a combination whose step directions cannot reach the counterexample's weights, and
the diagnosis uses the same test to say that a learner is not a perceptron at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ..data.dataset import Dataset
from ..notes.conventions import Convention

Vector = tuple[Fraction, ...]


def directions(data: Dataset, conv: Convention, bias_factor: Fraction = Fraction(1)) -> list[Vector]:
    """z_i = y_i·x~_i (times the convention's step factor), the bias coordinate times `bias_factor`."""
    bias = 0 if conv.bias_first else data.n_features
    return [tuple(conv.step_factor * y * v * (bias_factor if j == bias else 1) for j, v in enumerate(conv.augment(x)))
            for x, y in zip(data.X, data.y)]


def coefficients(target: Sequence[Fraction], vectors: Sequence[Vector]) -> list[Fraction] | None | bool:
    """The a with Σ a_i·vectors[i] == target: the list when the vectors are independent, False when no
    combination is the target, None when the vectors are dependent and it is (a is then not unique).

    Examples
    --------
    >>> F = Fraction
    >>> coefficients((F(0), F(2)), [(F(-1), F(1)), (F(1), F(1))])
    [Fraction(1, 1), Fraction(1, 1)]
    >>> coefficients((F(1), F(0)), [(F(0), F(1))])
    False
    """
    n, m = len(vectors), len(target)
    # rows: the m coordinates; columns: the n unknowns, then the target
    rows = [[vectors[i][r] for i in range(n)] + [Fraction(target[r])] for r in range(m)]
    pivots: list[int] = []
    r = 0
    for col in range(n):
        pivot = next((k for k in range(r, m) if rows[k][col] != 0), None)
        if pivot is None:
            continue
        rows[r], rows[pivot] = rows[pivot], rows[r]
        lead = rows[r][col]
        rows[r] = [v / lead for v in rows[r]]
        for k in range(m):
            if k != r and rows[k][col] != 0:
                factor = rows[k][col]
                rows[k] = [a - factor * b for a, b in zip(rows[k], rows[r])]
        pivots.append(col)
        r += 1
    if any(all(v == 0 for v in row[:n]) and row[n] != 0 for row in rows):
        return False
    if len(pivots) < n:
        return None
    a = [Fraction(0)] * n
    for k, col in enumerate(pivots):
        a[col] = rows[k][n]
    return a


def reachable(target: Sequence[Fraction], data: Dataset, conv: Convention, *, sign: int = 1,
              bias_factor: Fraction = Fraction(1), labels01: bool = False, unit: Fraction | None = None) -> bool:
    """False only when no sum of steps of this shape is `target`: each a_i of the step's sign (0 for class
    -1 under 0/1 labels) and, when `unit` (the rate times the step's multiple) is known, a whole multiple
    of it. True when that cannot be ruled out (dependent directions included)."""
    a = coefficients(target, directions(data, conv, bias_factor))
    if a is False:
        return False
    if a is None or a is True:
        return True
    for coefficient, label in zip(a, data.y):
        if labels01 and label < 0 and coefficient != 0:
            return False
        if coefficient * sign < 0:
            return False
        if unit is not None and (coefficient / unit).denominator != 1:
            return False
    return True


#: The most updates a sample is thought to take part in, and how near a ratio of counts a float64 ratio
#: must lie (float64 rounding of a perceptron's sums stays far inside it).
MAX_COUNT, NEAR = 10**4, Fraction(1, 2**30)


def incommensurate(weights: Sequence[Fraction], data: Dataset, conv: Convention) -> list[Fraction] | None:
    """The coefficients a_i of the weights (features only, so any bias step fits) when no perceptron can
    have made them: a perceptron's are η times whole counts, so a_i/a_j is a ratio of counts (up to
    float64 rounding); None when they could be a perceptron's or cannot be told (dependent samples).

    Examples
    --------
    >>> from verify_perceptron.data.dataset import from_arrays
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> data = from_arrays([["1", "0"], ["0", "1"]], [1, -1])
    >>> incommensurate((Fraction(0), Fraction(3), Fraction(-6)), data, get_convention("classic")) is None
    True
    >>> root = Fraction(2 ** 0.5)  # the double nearest to sqrt(2): no ratio of counts is that near it
    >>> incommensurate((Fraction(0), Fraction(1), -root), data, get_convention("classic")) == [1, root]
    True
    """
    bias = 0 if conv.bias_first else data.n_features
    features = [tuple(v for j, v in enumerate(z) if j != bias) for z in directions(data, conv)]
    target = tuple(v for j, v in enumerate(weights) if j != bias)
    a = coefficients(target, features)
    if not isinstance(a, list) or not any(a):
        return None
    return None if count_ratios(a) else a


def count_ratios(a: Sequence[Fraction]) -> bool:
    """Whether every a_i/a_j is a ratio of counts of updates (up to `MAX_COUNT`), to float64's rounding (`NEAR`),
    as a perceptron's coefficients are; all zero: True.

    Examples
    --------
    >>> count_ratios([Fraction(3), Fraction(-1, 2)]), count_ratios([Fraction(1), Fraction(2 ** 0.5)])
    (True, False)
    """
    largest = max(a, key=abs, default=Fraction(0))
    if largest == 0:
        return True
    for coefficient in a:
        ratio = coefficient / largest
        near = ratio.limit_denominator(MAX_COUNT)
        if abs(ratio - near) > NEAR * abs(ratio) + NEAR:
            return False
    return True
