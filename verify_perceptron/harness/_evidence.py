"""The evidence a diagnosis rests on: every dataset a check tried, with the weights the implementation
returned on it, and the one learning rate that must relate a model's weights to them all."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction

from ..data.dataset import Dataset
from ..notes.conventions import CONVENTIONS, Convention
from ._exact import Vector
from ._floats import _nearest_double

#: A model of the implementation: the weights it allows on an observation (at learning rate 1), or None
#: when it cannot run there.
Model = Callable[["Observation"], "list[Vector] | None"]
#: Most datasets kept as evidence (the counterexample always is; then the first ones tried).
MAX_OBSERVATIONS = 400


@dataclass(frozen=True)
class Printed:
    """Weights read from a program that prints them short: a model fits when c·model, printed with `form`
    (``"%.8f"``, `_printed.FORMS`) and read back (exactly, or as the nearest double when not `exact`), gives
    them. Passed where a model comparison takes ``rounded``."""

    form: str
    exact: bool


@dataclass(frozen=True)
class Observation:
    """One dataset the check tried (exactly as the implementation saw it) and the weights it returned."""

    data: Dataset
    weights: Vector


class Evidence:
    """Every observation of one check, the counterexample first; `add` keeps each dataset once.

    Examples
    --------
    >>> from verify_perceptron.data.dataset import from_arrays
    >>> evidence = Evidence()
    >>> data = from_arrays([[-1], [1]], [-1, 1])
    >>> evidence.add(data, (Fraction(0), Fraction(2))); evidence.add(data, (Fraction(0), Fraction(2)))
    >>> len(evidence.observations)
    1
    """

    def __init__(self) -> None:
        self.observations: list[Observation] = []
        self.last: Dataset | None = None  # the dataset tried last (for a probe when no case failed twice alike)
        self._seen: set[tuple[object, ...]] = set()

    def add(self, data: Dataset, weights: Vector | None) -> None:
        """Keep a dataset and what the implementation returned on it (nothing when it returned no weights)."""
        key = (data.X, data.y)
        if weights is None or key in self._seen or len(self.observations) >= MAX_OBSERVATIONS:
            return
        self._seen.add(key)
        self.observations.append(Observation(data, weights))

    def leading(self, data: Dataset, weights: Vector) -> list[Observation]:
        """All observations with (`data`, `weights`) first: the counterexample is tried before the rest."""
        first = Observation(data, weights)
        return [first, *(o for o in self.observations if (o.data.X, o.data.y) != (data.X, data.y))]


def explained(observations: Iterable[Observation], model: Model,
              rate: Fraction | None, *, rounded: bool | Printed = False) -> Fraction | None:
    """The one factor c > 0 with weights = c·(one of the model's outputs) on every observation, or None.

    `model` gives, per observation, the weights it allows (at learning rate 1), or None when it
    cannot run there. `rate` is the declared learning rate (then c must be it); else c is whatever
    the observations show, the same on all. With `rounded` (a float64 implementation), weights that
    are c·model rounded to the nearest double also fit, c then a fraction of denominator <= 10^6:
    an average or a quotient the implementation computed in float64; with `Printed`, weights that are
    c·model printed so.

    Examples
    --------
    >>> from verify_perceptron.data.dataset import from_arrays
    >>> data = from_arrays([[-1], [1]], [-1, 1])
    >>> seen = [Observation(data, (Fraction(0), Fraction(1)))]
    >>> explained(seen, lambda o: [(Fraction(0), Fraction(2))], None)
    Fraction(1, 2)
    >>> explained(seen, lambda o: [(Fraction(0), Fraction(2))], Fraction(1)) is None
    True
    """
    return _common_factor(((o.weights, model(o)) for o in observations), rate, rounded)


def allowing(weights: Vector) -> Model:
    """The model that allows `weights` on any observation."""
    return lambda o: [weights]


def factor_of(weights: Vector, allowed: list[Vector], rate: Fraction | None, *,
              rounded: bool | Printed = False) -> Fraction | None:
    """`explained` for one set of weights, whatever the data: the factor c > 0 with weights = c·(one of
    `allowed`), the declared `rate` when there is one, or None.

    Examples
    --------
    >>> factor_of((Fraction(0), Fraction(1)), [(Fraction(0), Fraction(2))], None)
    Fraction(1, 2)
    """
    return _common_factor([(weights, allowed)], rate, rounded)


def _common_factor(pairs: Iterable[tuple[Vector, list[Vector] | None]], rate: Fraction | None,
                   rounded: bool | Printed) -> Fraction | None:
    """The factor of `explained`, from each observation's weights and the model's outputs there (read
    lazily: a model is not run past the first observation it cannot explain)."""
    candidates: set[Fraction] | None = None if rate is None else {rate}
    for weights, allowed in pairs:
        if not allowed:
            return None
        fits = {f for m in allowed for f in _ratios(weights, m, rounded)}
        if Fraction(0) in fits:  # zero weights, a zero model: any rate fits
            continue
        candidates = fits if candidates is None else candidates & fits
        if not candidates:
            return None
    return Fraction(1) if not candidates else min(candidates)


def _ratios(weights: Vector, model: Vector, rounded: bool | Printed) -> set[Fraction]:
    """Every factor `_ratio` allows: the exact one, and with `rounded` the one of the nearest doubles too (doubles
    nearest to 4/3 and 2/3 are exactly in the ratio 2, so the exact test alone can find a factor a hair off 1,
    which another observation's rounded fit of factor 1 does not share)."""
    if isinstance(rounded, Printed):
        return _printed_ratios(weights, model, rounded)
    found = {f for f in (_ratio(weights, model), _ratio(weights, model, rounded, exact=False) if rounded else None)
             if f is not None}
    return found


def _printed_ratios(weights: Vector, model: Vector, printed: Printed) -> set[Fraction]:
    """The factors c (1, or a short decimal read off the largest weight: `_printed.rates`) with `weights` =
    c·model printed as `printed` says; {0} when both are zero.

    Examples
    --------
    >>> _printed_ratios((Fraction("0.33333333"), Fraction(1)), (Fraction(1, 3), Fraction(1)), Printed("%.8f", True))
    {Fraction(1, 1)}
    >>> _printed_ratios((Fraction("0.33333334"), Fraction(1)), (Fraction(1, 3), Fraction(1)), Printed("%.8f", True))
    set()
    """
    from ._printed import rates, reproduces

    if len(weights) != len(model):
        return set()
    if not any(model):
        return {Fraction(0)} if not any(weights) else set()
    return {c for c in rates(weights, model, None)
            if c > 0 and reproduces(weights, [c * m for m in model], printed.exact, printed.form)}


#: The types `_ratio` compares in integers (Python's own: a NumPy integer would wrap around).
_RATIONAL = (Fraction, int)


def _ratio(weights: Vector, model: Vector, rounded: bool = False, *, exact: bool = True) -> Fraction | None:
    """c >= 0 with weights = c·model (0 when both are zero), or with `rounded` weights = the doubles
    nearest to c·model; None when there is none."""
    if len(weights) != len(model):
        return None
    if not all(type(v) in _RATIONAL for v in (*weights, *model)):  # a float (or a NumPy number) among them
        return _float_ratio(weights, model, rounded, exact=exact)
    # in integers, numerators and denominators: no Fraction made and reduced for a comparison
    ws, ms = [(w.numerator, w.denominator) for w in weights], [(m.numerator, m.denominator) for m in model]
    if not any(p for p, _ in ms):
        return Fraction(0) if not any(a for a, _ in ws) else None
    j, top, below = 0, abs(ms[0][0]), ms[0][1]  # the first of the largest |m| (as max with key=abs gives)
    for i, (p, q) in enumerate(ms):
        if abs(p) * below > top * q:
            j, top, below = i, abs(p), q
    (a_j, b_j), (p_j, q_j) = ws[j], ms[j]
    if a_j == 0 or (a_j > 0) != (p_j > 0):  # c = w_j / m_j is not > 0
        return None
    # w_i = c·m_i with c = (a_j/b_j)/(p_j/q_j), for w_i = a_i/b_i and m_i = p_i/q_i: a_i·b_j·p_j·q_i = a_j·q_j·p_i·b_i
    if exact and all(a * b_j * p_j * q == a_j * q_j * p * b for (a, b), (p, q) in zip(ws, ms)):
        return Fraction(a_j * q_j, b_j * p_j)
    if rounded:
        c = Fraction(a_j * q_j, b_j * p_j).limit_denominator(10**6)
        if all(w == _nearest_double(c * m) for w, m in zip(weights, model)):  # None past the doubles: no fit
            return c
    return None


def _float_ratio(weights: Vector, model: Vector, rounded: bool = False, *, exact: bool = True) -> Fraction | None:
    """`_ratio` where a value is a float: the same test in the values' own arithmetic."""
    if not any(model):
        return Fraction(0) if not any(weights) else None
    j = max(range(len(model)), key=lambda i: abs(model[i]))
    c = weights[j] / model[j]
    if exact and c > 0 and all(w == c * m for w, m in zip(weights, model)):
        return c
    if rounded and c > 0:
        c = c.limit_denominator(10**6)
        if all(w == _nearest_double(c * m) for w, m in zip(weights, model)):  # None past the doubles: no fit
            return c
    return None


def other_rules(conv: Convention, *, ball: bool = True) -> Iterator[Convention]:
    """Each other note's convention (another tie rule, step or bias place), in the notes' order; with `ball`, the
    unit-ball perceptron only beside itself (it normalizes its samples: no other rule's run is its own).

    Examples
    --------
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> [c.name for c in other_rules(get_convention("classic"))]
    ['hard-limiter', 'hard-limiter-plus', 'sum-norm', 'split-bias']
    >>> len(list(other_rules(get_convention("classic"), ball=False)))
    5
    """
    for other in CONVENTIONS.values():
        if other.name != conv.name and not (ball and (other.name == "unit-ball") != (conv.name == "unit-ball")):
            yield other


def recast(weights: Vector, source: Convention, target: Convention) -> Vector:
    """Weights in `source`'s coordinates written in `target`'s: the same separator.

    Examples
    --------
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> recast((Fraction(1), Fraction(2)), get_convention("classic"), get_convention("sum-norm"))
    (Fraction(2, 1), Fraction(-1, 1))
    """
    return target.from_canonical(*source.to_canonical(weights))


def recast_all(observations: Iterable[Observation], source: Convention, target: Convention) -> list[Observation]:
    """`observations` with their weights read in `target`'s coordinates (`recast`), as another rule's run is
    compared with them."""
    return [Observation(o.data, recast(o.weights, source, target)) for o in observations]
