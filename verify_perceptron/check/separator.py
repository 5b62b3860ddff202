"""The separator w* the checker measures against: scaled to integers, or made strict from a run's end.

The checker keeps w* as integers W* = M·w*, M the least common denominator
of its entries. By default w* is the run's own final weights once the run
has converged; a hard limiter may stop with a score of exactly 0 on the class
its sgn(0) names (-1 for note 001, +1 for ``hard-limiter-plus``), and
`strict_final_weights` then moves its bias by an exact amount so that w*
separates strictly.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from fractions import Fraction

from ..data.dataset import Dataset
from ..data.exact_text import exact_text
from ..data.integers import ExactMatrix
from ..data.trace import ScaledWeights
from ..notes.conventions import Convention

__all__ = ["scaled_separator", "strict_final_weights"]


def scaled_separator(separator: Sequence[Fraction | int]) -> tuple[list[int], int]:
    """``(W*, M)`` with integer W* = M·w* and M the least common denominator (integer arithmetic only).

    Examples
    --------
    >>> scaled_separator([Fraction(1, 2), Fraction(-2, 3), 4])
    ([3, -4, 24], 6)
    """
    if isinstance(separator, ScaledWeights):
        return separator.scaled()
    pairs = [(v if type(v) is Fraction or type(v) is int else Fraction(v)).as_integer_ratio() for v in separator]
    M = math.lcm(*(q for _, q in pairs))
    return ([p for p, _ in pairs] if M == 1 else [p * (M // q) for p, q in pairs]), M


def strict_final_weights(data: Dataset, conv: Convention, final: Sequence[Fraction],
                         matrix: ExactMatrix) -> tuple[Sequence[Fraction], str | None]:
    """The final weights as w*, made strict when a hard limiter left a score at exactly 0.

    sgn(0) = -1 lets note 001's run stop with w·x~ = 0 on a class -1 sample, so
    γ = 0 and the final weights are no strict separator. Every class +1 score
    is then > 0; lowering the bias by half the smallest of them, δ, keeps those
    >= δ and makes every class -1 score <= -δ: a strict separator, exactly.
    With sgn(0) = +1 the same holds with the classes' roles exchanged.
    """
    w = final if isinstance(final, ScaledWeights) else tuple(final)
    W, M = scaled_separator(w)
    # z_i·W = y_i·L·M·(w·x~_i): y_i times the score (v·x_i + b)·L·M, exactly, in integers. The signs and the
    # least values are read from these margins and the labels, with no array of the scores themselves: past
    # int64 that would be n more Python integers (0.45x the int64 data at d = 10) beside the margins.
    margins = matrix.products(W, norm_sq=sum(map(operator.mul, W, W)))
    separated = margins > 0  # score of the sample's own sign
    if separated.all():  # (a converged run's final weights but for a hard limiter's tie: nothing more to read)
        return w, None
    L = data.denominator
    positive_class = data.y_array > 0
    on_or_past = margins >= 0  # score of the sample's own sign, or 0
    if separated[positive_class].all() and on_or_past[~positive_class].all():
        # sgn(0) = -1 (note 001): a class -1 score is 0; lower the bias by half the least class +1 score
        delta = Fraction(int(margins[positive_class].min()), 2 * L * M)
        b, v = conv.to_canonical(w)
        return conv.from_canonical(b - delta, v), f"bias lowered by {exact_text(delta)}: a class -1 score was exactly 0"
    if on_or_past[positive_class].all() and separated[~positive_class].all():
        # sgn(0) = +1 (hard-limiter-plus): a class +1 score is 0; raise the bias by half the least |class -1 score|
        delta = Fraction(int(margins[~positive_class].min()), 2 * L * M)
        b, v = conv.to_canonical(w)
        return conv.from_canonical(b + delta, v), f"bias raised by {exact_text(delta)}: a class +1 score was exactly 0"
    return w, None  # not a clean hard-limiter stop: let the checks report it
