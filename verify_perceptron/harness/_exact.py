"""Exact weight vectors: sums, multiples, the positive factor between two of them, and whether the
note's rule takes a score for a mistake."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from ..notes.conventions import Convention

Vector = Sequence[Fraction]


def _add(u: Sequence[Fraction], w: Sequence[Fraction]) -> Vector:
    return tuple(a + b for a, b in zip(u, w))


def _scaled(c: Fraction, w: Sequence[Fraction]) -> Vector:
    return tuple(c * x for x in w)


def _factor(mine: Sequence[Fraction], theirs: Sequence[Fraction], conv: Convention) -> Fraction | None:
    """The positive ratio most coordinates share (a non-bias one on a tie); None if no ratio is positive."""
    bias = 0 if conv.bias_first else len(theirs) - 1
    ratios = [(m / t, j == bias) for j, (m, t) in enumerate(zip(mine, theirs)) if t != 0 and m / t > 0]
    if not ratios:
        return None
    counts = Counter(r for r, _ in ratios)
    if len(counts) > 1 and 1 in counts:  # the coordinates disagree: measure against the plain rule
        return Fraction(1)
    return max(counts, key=lambda r: (counts[r], any(r == q and not is_bias for q, is_bias in ratios)))


def _is_mistake(conv: Convention, score: Fraction, label: int) -> bool:
    return conv.decide(score, label, Fraction(1)) is not None
