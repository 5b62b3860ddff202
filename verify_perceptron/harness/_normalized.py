"""Weights returned divided by their Euclidean length: float64 code that normalizes the perceptron's weights before
it returns them (to plot a unit normal, or to compare directions). Their factor over the run's weights is 1/‖w‖,
another on each dataset, so no common rate fits and the check cannot pass.

`normalized_cause` names it where the note's float64 run (`_floats._float_run`), at the rate code was written with,
ends at weights whose quotient by their length is the implementation's on every dataset tried. The quotient is
irrational: it is compared without a square root, within a proven bound on float64's rounding of a norm and a
division (`within_rounding`).
"""

from __future__ import annotations

from fractions import Fraction

from ..notes.conventions import Convention
from ._evidence import Observation
from ._exact import Vector
from ._floats import SUMS, _double, _float_run, code_rate, short_rates, summed
from ._results import Diagnosis

#: What the length is taken over, with the words that say it.
NORMS: dict[str, str] = {
    "all": "the whole weight vector, the bias included",
    "features": "the feature weights (the bias divided by the same length)",
}
#: The rates tried where none is known: those code is written with most.
COMMON_RATES = (Fraction(1), *(Fraction(r) for r in (0.1, 0.01, 0.001, 0.5)))


def within_rounding(weights: Vector, run: Vector, conv: Convention, norm: str) -> bool:
    """True when `weights` are `run` divided by its length over `norm` (`NORMS`), to float64's rounding.

    For m coordinates, a computed Euclidean norm is within about (m/2 + 1)·u of the true one relatively (the sum
    of m rounded squares within m·u, u = 2^-53, halved by the square root, then the root's own rounding), and the
    quotient adds u: each coordinate within (m/2 + 2)·u of run_j/‖run‖ to first order. ε is taken as (2m + 10)·u,
    four times that and more, so that the terms of higher order and a norm computed another way (BLAS's scaled
    nrm2, or the bias left out with m - 1 terms) fit too, while weights that are not the quotient stay out. With N = ‖run‖², the test is exact: the signs agree (0 where run_j is
    0) and run_j²·(1 - ε)² <= weights_j²·N <= run_j²·(1 + ε)².

    Examples
    --------
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> conv = get_convention("classic")
    >>> run = (Fraction(0), Fraction(3), Fraction(4))
    >>> within_rounding((Fraction(0), Fraction(0.6), Fraction(0.8)), run, conv, "all")
    True
    >>> within_rounding((Fraction(0), Fraction(0.6), Fraction(0.81)), run, conv, "all")
    False
    """
    b, v = conv.to_canonical(run)
    mine_b, mine_v = conv.to_canonical(weights)
    total = _squared_length(b, v, norm)
    if total == 0:
        return False
    low, high = _bounds(len(v))
    for mine, theirs in zip((mine_b, *mine_v), (b, *v)):
        if theirs == 0 or mine == 0:
            if theirs != mine:
                return False
            continue
        if (mine > 0) != (theirs > 0) or not low * theirs * theirs <= mine * mine * total <= high * theirs * theirs:
            return False
    return True


def _unit_length(weights: Vector, conv: Convention, norm: str) -> bool:
    """Whether `weights` have length 1 over `norm` to `within_rounding`'s ε: each is run_j/‖run‖ within a factor
    1 ± ε, so their squares sum to within (1 ± ε)²."""
    b, v = conv.to_canonical(weights)
    low, high = _bounds(len(v))
    return low <= _squared_length(b, v, norm) <= high


def _squared_length(b: Fraction, v: Vector, norm: str) -> Fraction:
    """‖(v, b)‖² over `norm` (`NORMS`): the bias counted only for ``"all"``."""
    return sum((x * x for x in v), Fraction(0)) + (b * b if norm == "all" else 0)


def _bounds(n_features: int) -> tuple[Fraction, Fraction]:
    """(1 - ε)² and (1 + ε)² for `within_rounding`'s ε = (2m + 8)·2^-53, m = n_features + 1 coordinates."""
    eps = Fraction(2 * (n_features + 1) + 8, 2**53)
    return (1 - eps) ** 2, (1 + eps) ** 2


def normalized_cause(observations: list[Observation], conv: Convention, rate: Fraction | None, max_epochs: int,
                     labels: str) -> Diagnosis | None:
    """``normalized``: the note's float64 run at `rate` (its short decimals; where none is known, `COMMON_RATES`), in
    an order of `_floats.SUMS`, divided by its length over one of `NORMS`, is every observation's weights to
    float64's rounding (`within_rounding`); else None."""
    rates = short_rates(code_rate(conv, rate, labels)) if rate is not None else list(COMMON_RATES)
    runs: dict[tuple[int, Fraction, str], Vector | None] = {}

    def run(o: Observation, candidate: Fraction, sums: str) -> Vector | None:
        key = (id(o), candidate, sums)
        if key not in runs:
            runs[key] = _float_run(o.data, conv, candidate, max_epochs, labels, sums=sums)[0]
        return runs[key]

    for norm, words in NORMS.items():
        if not _unit_length(observations[0].weights, conv, norm):
            continue  # weights divided by a length have length 1 to the same rounding: no run can give these
        for candidate in (r for r in dict.fromkeys(rates) if _double(r) is not None):
            for sums in SUMS:
                if all((found := run(o, candidate, sums)) is not None and within_rounding(o.weights, found, conv, norm)
                       for o in observations):
                    return Diagnosis("normalized", {"norm": norm, "rate": str(candidate), "sums": sums,
                                                    "datasets": len(observations)},
                                     f"it returns its weights divided by their Euclidean length ({words}): the "
                                     f"{conv.name} perceptron computed in float64 at rate {float(candidate)!r}"
                                     f"{summed(sums)}, so divided, gives its weights on every dataset tried, to "
                                     "float64's rounding of the length and the quotient (a rate whose steps "
                                     "float64 computes exactly gives the same direction). Their factor over the "
                                     "run's weights is 1/length, another on each dataset, so no check of the notes' "
                                     "algorithm can pass: check the weights before they are divided")
    return None
