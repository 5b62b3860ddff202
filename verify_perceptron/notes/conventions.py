"""The five notes' conventions, and note 001's with the tie mirrored: where the bias goes, what counts as a
mistake, how w moves.

Each `Convention` is data plus one small decision function that reads like
its note. A weight vector is always kept in the convention's own coordinate
order (``[w0, w1, ..., wm]`` for ``classic``, ``[w1, ..., wm, w0]`` for
``sum-norm``, ...); `Convention.to_canonical` and `Convention.from_canonical`
translate to and from the shared form ``(b, v)`` with score ``v·x + b``, so a
separator can be carried from one note to another.

========================  ======  =========================  ======================  ===============
name                      note    augmented sample x~        mistake when            update
========================  ======  =========================  ======================  ===============
``classic``               000     (1, x)                     y·(w·x~) <= 0           w += η·y·x~
``hard-limiter``          001     (+1, x)                    sgn(w·x~) != d,         w += η·(d - y)·x~
                                                             sgn(0) = -1
``unit-ball``             002     (x, 1)                     y·(w·x~) <= 0           w += y·x~
``sum-norm``              003     (x, -1)                    (w·x~)·t <= 0           w += ε·t·x~
``split-bias``            004     α0 kept apart              y·(x·α + α0) <= 0       (α0, α) += λ·(y, y·x)
========================  ======  =========================  ======================  ===============
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..errors import InvalidArgument

__all__ = ["Convention", "CONVENTIONS", "get_convention", "dot", "tie_rule"]

Vector = tuple[Fraction, ...]


_RATIONAL = (Fraction, int)


def dot(a: Sequence[Fraction], b: Sequence[Fraction]) -> Fraction:
    """Exact inner product.

    Each vector is put over the lcm of its own denominators and the sum is
    taken in integers, with one division at the end: a sum of `Fraction`
    products reduces every partial sum by a gcd, which on the report's
    31-entry decimal weights cost about eight times as much.

    Examples
    --------
    >>> dot((Fraction(1, 2), Fraction(3)), (Fraction(2), Fraction(-1)))
    Fraction(-2, 1)
    >>> dot((Fraction(1, 3), 2), (Fraction(3, 4), Fraction(-1, 6)))
    Fraction(-1, 12)
    """
    if not all(isinstance(v, _RATIONAL) for v in itertools.chain(a, b)):  # SymPy's, NumPy's: as they multiply
        return sum((x * y for x, y in zip(a, b)), Fraction(0))
    p, q = [v.denominator for v in a], [v.denominator for v in b]
    P, Q = math.lcm(*p), math.lcm(*q)  # (1 for empty vectors)
    total = sum((x.numerator * (P // i)) * (y.numerator * (Q // j)) for x, i, y, j in zip(a, p, b, q))
    return Fraction(total, P * Q)


# Each decision function returns the factor c of the update w += c·x~ when the sample is a
# mistake under its note's rule, and None when it is classified correctly.


def _classic(score: Fraction, y: int, eta: Fraction) -> Fraction | None:
    # note 000, Algorithm 1: if ŷ·y <= 0 then w <- w + η·y·x
    return eta * y if score * y <= 0 else None


def _hard_limiter(score: Fraction, d: int, eta: Fraction) -> Fraction | None:
    # note 001, Table 1: y(n) = sgn(w·x) with sgn(v) = +1 if v > 0, -1 if v <= 0;
    # w(n+1) = w(n) + η·[d(n) - y(n)]·x(n), which moves only when y(n) != d(n).
    output = 1 if score > 0 else -1
    return eta * (d - output) if output != d else None


def _hard_limiter_plus(score: Fraction, d: int, eta: Fraction) -> Fraction | None:
    # note 001's rule with the tie the other way, as textbook and library code writes it:
    # y(n) = +1 if w·x >= 0 else -1; w(n+1) = w(n) + η·[d(n) - y(n)]·x(n).
    output = 1 if score >= 0 else -1
    return eta * (d - output) if output != d else None


def _unit_ball(score: Fraction, y: int, eta: Fraction) -> Fraction | None:
    # note 002: if y·(w·x) <= 0 then w <- w + y·x (no learning rate)
    return Fraction(y) if y * score <= 0 else None


def _sum_norm(score: Fraction, t: int, eps: Fraction) -> Fraction | None:
    # note 003, Remark 1: update when (w·x)·t <= 0, by Δw = ε·t·x
    return eps * t if score * t <= 0 else None


def _split_bias(score: Fraction, y: int, lam: Fraction) -> Fraction | None:
    # note 004: if y·(x·α + α0) <= 0 then (α0, α) <- (α0, α) + λ·(y, y·x)
    return lam * y if y * score <= 0 else None


@dataclass(frozen=True)
class Convention:
    """One note's perceptron, exactly as the note defines it.

    Attributes
    ----------
    name : str
        Short name (``classic``, ``hard-limiter``, ``unit-ball``, ``sum-norm``, ``split-bias``).
    note : str
        The seed file of the note.
    bias_first : bool
        True when the constant input comes first in x~, False when last.
    bias_input : int
        The constant input: +1, or -1 for ``sum-norm``.
    rate_symbol : str
        The note's name for the learning rate (``η``, ``ε``, ``λ``; empty if none).
    rate_fixed : bool
        True when the note has no learning rate (it is 1).
    rate_at_most_one : bool
        True when the note requires 0 < η <= 1.
    decide : callable
        ``decide(score, label, rate)`` returns the update factor on a mistake, else None.
    """

    name: str
    note: str
    summary: str
    bias_first: bool
    bias_input: int
    bias_symbol: str
    rate_symbol: str
    rate_fixed: bool
    rate_at_most_one: bool
    step_factor: int
    decide: Callable[[Fraction, int, Fraction], Fraction | None]

    @property
    def note_title(self) -> str:
        """The note as a reader would find it: its authors or title and where in its course it sits.

        Examples
        --------
        >>> get_convention("sum-norm").note_title
        'slides "Linear Classification - The Perceptron"'
        """
        return NOTE_TITLES[self.note]

    @property
    def note_number(self) -> str:
        """The note's three-digit number (``"000"``)."""
        return self.note[:3]

    def check_rate(self, rate: Fraction) -> Fraction:
        """Return `rate` if the note allows it, else raise `InvalidArgument` naming it.

        Examples
        --------
        >>> CONVENTIONS["hard-limiter"].check_rate(Fraction(2))
        Traceback (most recent call last):
        ...
        verify_perceptron.errors.InvalidArgument: eta=2 is outside 0 < η <= 1, the range note 001 (hard-limiter) allows
        """
        if rate <= 0:
            raise InvalidArgument(f"eta={rate} must be > 0")
        if self.rate_fixed and rate != 1:
            raise InvalidArgument(f"eta={rate}: note {self.note_number} ({self.name}) has no learning rate; it must be 1")
        if self.rate_at_most_one and rate > 1:
            raise InvalidArgument(
                f"eta={rate} is outside 0 < {self.rate_symbol} <= 1, the range note {self.note_number} ({self.name}) allows"
            )
        return rate

    def step_size(self, rate: Fraction) -> Fraction:
        """The length factor a of one update: w_k - w_{k-1} = ±a·x~ (2η for hard-limiter).

        Examples
        --------
        >>> CONVENTIONS["hard-limiter"].step_size(Fraction(1, 2))
        Fraction(1, 1)
        """
        return self.step_factor * (Fraction(1) if self.rate_fixed else rate)

    def augment(self, x: Sequence[Fraction]) -> Vector:
        """The sample with its constant input, in this convention's order.

        Examples
        --------
        >>> CONVENTIONS["sum-norm"].augment((Fraction(1), Fraction(2)))
        (Fraction(1, 1), Fraction(2, 1), Fraction(-1, 1))
        """
        bias = Fraction(self.bias_input)
        return (bias, *x) if self.bias_first else (*x, bias)

    def weight_names(self, n_features: int) -> list[str]:
        """Names of the weight coordinates, in order (``['w0', 'w1', 'w2']``)."""
        names = [f"{'α' if self.name == 'split-bias' else 'w'}{j + 1}" for j in range(n_features)]
        return [self.bias_symbol, *names] if self.bias_first else [*names, self.bias_symbol]

    def to_canonical(self, w: Sequence[Fraction]) -> tuple[Fraction, Vector]:
        """``(b, v)`` with ``w·x~ == v·x + b`` for every x.

        Examples
        --------
        >>> CONVENTIONS["sum-norm"].to_canonical((Fraction(1), Fraction(1), Fraction(-1)))
        (Fraction(1, 1), (Fraction(1, 1), Fraction(1, 1)))
        """
        return self.bias(w), tuple(w[1:] if self.bias_first else w[:-1])

    def bias(self, w: Sequence[Fraction]) -> Fraction:
        """b of `to_canonical`, alone: ``w·x~ == v·x + b`` for every x.

        Examples
        --------
        >>> CONVENTIONS["classic"].bias((Fraction(-4), Fraction(3), Fraction(2)))
        Fraction(-4, 1)
        """
        return self.bias_input * w[0 if self.bias_first else -1]

    def from_canonical(self, b: Fraction, v: Sequence[Fraction]) -> Vector:
        """This convention's weight vector for the separator ``v·x + b``."""
        bias = self.bias_input * b  # bias_input is ±1, its own inverse
        return (bias, *v) if self.bias_first else (*v, bias)


#: Each seed note as it names itself (its header, title or first heading); the seed files are in ../shared/seeds.
NOTE_TITLES: dict[str, str] = {
    "000_2170d352a53c42fd.txt": 'B. Ahmed and V. Pavlu, "The Perceptron Algorithm", lecture 5',
    "001_dfb81ab7d9d1b7e8.txt": '"Lecture Notes on the Perceptron Algorithm"',
    "002_a1550050d12f1cd2.txt": 'course web page "Perceptron Algorithm" (Video II)',
    "003_a6cf23fd4ca930da.txt": 'slides "Linear Classification - The Perceptron"',
    "004_0d14cbbd3b612206.txt": 'slides 09_perceptron.tex, "Rosenblatt\'s Perceptron (1957)"',
}

CONVENTIONS: dict[str, Convention] = {
    c.name: c
    for c in (
        # Note 000 calls the first weight θ, but with x0 = +1 it multiplies +1 in w·x - θ:
        # it is -θ (erratum E000.1 of the proofs), so it is named w0 here.
        Convention("classic", "000_2170d352a53c42fd.txt",
                   "constant input 1 first (w0 = -θ; the note writes θ, erratum E000.1), y·(w·x~) <= 0, w += η·y·x~",
                   True, 1, "w0", "η", False, False, 1, _classic),
        Convention("hard-limiter", "001_dfb81ab7d9d1b7e8.txt",
                   "input +1 first (w0 = b), sgn(0) = -1, w += η·(d - y)·x~ with 0 < η <= 1",
                   True, 1, "b", "η", False, True, 2, _hard_limiter),
        # Not a note of its own: note 001's perceptron with sgn(0) = +1. On every mistake d·(w·x~) <= 0
        # still holds, so note 001's proof carries over unchanged (proofs/hard-limiter-plus.md).
        Convention("hard-limiter-plus", "001_dfb81ab7d9d1b7e8.txt",
                   "note 001 with sgn(0) = +1 (predict +1 when w·x~ >= 0, as textbook code does), "
                   "w += η·(d - y)·x~ with 0 < η <= 1",
                   True, 1, "b", "η", False, True, 2, _hard_limiter_plus),
        Convention("unit-ball", "002_a1550050d12f1cd2.txt", "constant 1 last, y·(w·x~) <= 0, w += y·x~ (no learning rate)",
                   False, 1, "b", "", True, False, 1, _unit_ball),
        Convention("sum-norm", "003_a6cf23fd4ca930da.txt", "input -1 last (threshold w0), (w·x~)·t <= 0, w += ε·t·x~",
                   False, -1, "w0", "ε", False, False, 1, _sum_norm),
        Convention("split-bias", "004_0d14cbbd3b612206.txt", "α0 kept apart, y·(x·α + α0) <= 0, (α0, α) += λ·(y, y·x)",
                   True, 1, "α0", "λ", False, False, 1, _split_bias),
    )
}

#: A note's number, ``note-NNN`` or its seed file names the note's own convention (the first with that note).
_ALIASES: dict[str, str] = {}
for _c in CONVENTIONS.values():
    for _alias in (_c.note_number, f"note-{_c.note_number}", _c.note):
        _ALIASES.setdefault(_alias, _c.name)


def get_convention(name: str) -> Convention:
    """A convention by name, note number (``"003"``, ``"note-003"``) or seed file name.

    Examples
    --------
    >>> get_convention("003").name
    'sum-norm'
    """
    key = _ALIASES.get(name, name)
    try:
        return CONVENTIONS[key]
    except KeyError:
        raise InvalidArgument(f"convention={name!r} is not one of {', '.join(CONVENTIONS)}") from None


def tie_rule(conv: Convention, rate: Fraction, labels: Any) -> Any:
    """Per sample (`labels` an int array): is a score of exactly 0 a mistake? Read off the note's own decide().

    Examples
    --------
    >>> tie_rule(CONVENTIONS["hard-limiter"], Fraction(1), np.array([1, -1])).tolist()
    [True, False]
    """
    positive, negative = (_zero_is_mistake(conv, rate)[y] for y in (1, -1))
    if positive == negative:
        return np.full(len(labels), positive)
    return labels > 0 if positive else labels < 0


@functools.lru_cache(maxsize=64)
def _zero_is_mistake(conv: Convention, rate: Fraction) -> dict[int, bool]:
    for y in (-1, 1):
        # Away from 0 every note decides by sign alone: y·score < 0 is a mistake, > 0 is not.
        if conv.decide(Fraction(-y), y, rate) is None or conv.decide(Fraction(y), y, rate) is not None:
            raise AssertionError(f"{conv.name} does not decide by the sign of y·score")
    return {y: conv.decide(Fraction(0), y, rate) is not None for y in (-1, 1)}
