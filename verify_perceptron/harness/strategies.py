"""Hypothesis strategies for perceptron data: exact datasets that shrink toward small, simple ones.

Every strategy here draws a `verify_perceptron.data.dataset.Dataset`: rational
samples with labels in {-1, +1}, both labels present. They sit beside the
chain (dataset -> engine -> ... -> cli), which never imports them, and they
are what `verify_perceptron.harness` feeds to the implementations it checks.

=============================  ==========================================================
strategy                       draws
=============================  ==========================================================
`separable_datasets`           separable data, every sample at least `min_margin` from a
                               known hyperplane
`tied_datasets`                separable data on which the exact run meets a score of
                               exactly 0 with nonzero weights
`duplicated_datasets`          separable data with a sample repeated (same x, same label)
`tiny_margin_datasets`         separable data with one sample very close to the hyperplane
`scaled_datasets`              separable data whose features are scaled by 2^e, e large
                               or small (large and tiny magnitudes)
`nonseparable_datasets`        data that no hyperplane separates: a sample of one class
                               lies in the convex hull of the other
`datasets`                     any of the separable kinds above
=============================  ==========================================================

The values a strategy draws are chosen by ``numbers``:

- ``"integers"``: whole numbers;
- ``"dyadic"``: p/2^k, exactly representable in binary floating point, with
  few significant bits, so that a float64 implementation computes every score
  exactly on them (the harness's default for ``dtype="float"``);
- ``"rationals"``: p/q;
- ``"floats"``: the exact values of the doubles nearest to p/q, which carry
  53 significant bits when q is not a power of two: products and sums then
  round in float64 (rounding stress).

How examples shrink
-------------------
Draws are ordered so that Hypothesis's shrinker simplifies the whole dataset:
fewer features first (every vector is drawn at `max_features` and cut to the
dimension, so lowering the dimension disturbs no other draw), then fewer
samples (the samples are a list, so the shrinker deletes them one by one),
then the separating hyperplane toward ``x1 = 0`` (the pivot weight is ±1, the
other weights and the bias shrink to 0), then every value toward 0 and every
denominator toward 1, and labels toward -1 (the last sample is made +1 when
every label is -1). A sample on
the wrong side of the hyperplane is moved along the pivot coordinate until
it is `min_margin` away, so the simplest separable dataset is
``X = [[-1], [1]]``, ``y = [-1, +1]``.

Examples
--------
>>> from hypothesis import find
>>> from verify_perceptron.harness import harness_settings
>>> data = find(separable_datasets(), lambda data: True, settings=harness_settings())
>>> [[str(v) for v in row] for row in data.X], data.y
([['-1'], ['1']], (-1, 1))
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from hypothesis import assume
from hypothesis import strategies as st

from ..notes.conventions import Convention, dot, get_convention
from ..data.dataset import Dataset
from ..errors import InvalidArgument
from ..data.examples import example

__all__ = [
    "NUMBERS",
    "DATASET_KINDS",
    "separable_datasets",
    "tied_datasets",
    "duplicated_datasets",
    "tiny_margin_datasets",
    "scaled_datasets",
    "nonseparable_datasets",
    "datasets",
    "worked_examples",
]

#: The kinds of values a strategy can draw (see the module's docstring).
NUMBERS = ("integers", "dyadic", "rationals", "floats")

#: The separable kinds `datasets` mixes, in the order it prefers when shrinking.
DATASET_KINDS = ("separable", "tied", "duplicated", "tiny-margin", "scaled")

Vector = tuple[Fraction, ...]


# --- validation: every bound is checked when the strategy is built, before anything is drawn ----


def _whole(name: str, value: object, *, at_least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgument(f"{name}={value!r} must be an integer")
    if value < at_least:
        raise InvalidArgument(f"{name}={value!r} must be >= {at_least}")
    return value


def _ordered(low_name: str, low: int, high_name: str, high: int) -> None:
    if high < low:
        raise InvalidArgument(f"{high_name}={high} must be >= {low_name}={low}")


def _rational(name: str, value: object) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, Fraction, str)):
        raise InvalidArgument(f"{name}={value!r} must be an int, a Fraction or a literal such as '1/4'")
    try:
        return Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise InvalidArgument(f"{name}={value!r} is not a rational number") from None


def _numbers_kind(numbers: object) -> str:
    if numbers not in NUMBERS:
        raise InvalidArgument(f"numbers={numbers!r} must be one of {', '.join(NUMBERS)}")
    return str(numbers)


class _Shape:
    """The validated common bounds of the separable strategies."""

    def __init__(self, *, min_features: int, max_features: int, min_samples: int, max_samples: int,
                 min_margin: object, numbers: str, max_numerator: int, max_denominator: int) -> None:
        self.min_features = _whole("min_features", min_features, at_least=1)
        self.max_features = _whole("max_features", max_features, at_least=1)
        _ordered("min_features", min_features, "max_features", max_features)
        self.min_samples = _whole("min_samples", min_samples, at_least=2)
        self.max_samples = _whole("max_samples", max_samples, at_least=2)
        _ordered("min_samples", min_samples, "max_samples", max_samples)
        self.min_margin = _rational("min_margin", min_margin)
        if self.min_margin < 0:
            raise InvalidArgument(f"min_margin={min_margin!r} must be >= 0")
        self.numbers = _numbers_kind(numbers)
        self.max_numerator = _whole("max_numerator", max_numerator, at_least=1)
        self.max_denominator = _whole("max_denominator", max_denominator, at_least=1)
        # dyadic denominators are the powers of two up to max_denominator
        self.max_power = self.max_denominator.bit_length() - 1
        # Strategies are built once and reused by every draw (building one per draw costs more than drawing).
        self._values: st.SearchStrategy[Fraction] | None = None
        self._vectors: st.SearchStrategy[tuple[Fraction, ...]] | None = None
        self._rows: dict[tuple[int, int], st.SearchStrategy[list[tuple[tuple[Fraction, ...], bool]]]] = {}
        self.dimensions = st.integers(self.min_features, self.max_features)
        self.pivots = st.integers(0, self.max_features - 1)

    def values(self) -> st.SearchStrategy[Fraction]:
        """One drawn value p/q: shrinks toward 0, then toward denominator 1 (built once per shape)."""
        if self._values is None:
            numerators = st.integers(-self.max_numerator, self.max_numerator)
            if self.numbers == "integers":
                self._values = numerators.map(Fraction)
            elif self.numbers == "dyadic":
                self._values = st.builds(lambda p, k: Fraction(p, 2**k), numerators, st.integers(0, self.max_power))
            else:
                self._values = st.builds(Fraction, numerators, st.integers(1, self.max_denominator))
        return self._values

    def vectors(self) -> st.SearchStrategy[tuple[Fraction, ...]]:
        """A vector at the largest dimension (cut to the drawn one by the caller)."""
        if self._vectors is None:
            self._vectors = st.tuples(*[self.values()] * self.max_features)
        return self._vectors

    def rows(self, *, min_size: int, max_size: int) -> st.SearchStrategy[list[tuple[tuple[Fraction, ...], bool]]]:
        """Samples as (vector, positive?) pairs: a list, so the shrinker deletes samples one by one."""
        key = (min_size, max_size)
        if key not in self._rows:
            self._rows[key] = st.lists(st.tuples(self.vectors(), st.booleans()), min_size=min_size, max_size=max_size)
        return self._rows[key]

    def on_grid(self, value: Fraction) -> Fraction:
        """The least value of the drawn kind that is >= `value` (>= 0), so a margin is kept."""
        if self.numbers == "integers":
            return Fraction(math.ceil(value))
        if self.numbers == "dyadic":
            scale = 2**self.max_power
            return Fraction(math.ceil(value * scale), scale)
        return value


def _shape(**bounds: object) -> _Shape:
    unknown = sorted(set(bounds) - set(_DEFAULTS))
    if unknown:
        raise InvalidArgument(f"{unknown[0]}={bounds[unknown[0]]!r} is not a bound; the bounds are {', '.join(_DEFAULTS)}")
    return _Shape(**{**_DEFAULTS, **bounds})  # type: ignore[arg-type]


_DEFAULTS: dict[str, object] = {
    "min_features": 1, "max_features": 3, "min_samples": 2, "max_samples": 8, "min_margin": 0,
    "numbers": "rationals", "max_numerator": 4, "max_denominator": 4,
}


def _norm_ceiling(v_sq: Fraction) -> int:
    """The least integer c with c² >= v_sq: an exact upper bound of ‖v‖ without a root."""
    c = math.isqrt(math.ceil(v_sq))
    while c * c < v_sq:
        c += 1
    return c


def _as_float(value: Fraction) -> Fraction:
    """The exact value of the double nearest to `value`."""
    return Fraction.from_float(float(value))


# --- the separable core ---------------------------------------------------------------------------


@st.composite
def _separable(draw: st.DrawFn, shape: _Shape, *, through_origin: bool = False,
               tiny: Fraction | None = None, kind: str = "separable_datasets") -> Dataset:
    # Every vector is drawn at the largest dimension and cut to d values, so that lowering d (a
    # single integer) is a step the shrinker can take without disturbing any other draw.
    d = draw(shape.dimensions)
    # The hyperplane v·x + b = 0: the pivot weight is ±1, so moving a sample along the pivot
    # coordinate by t moves its score by ±t exactly, on the same grid as the data.
    pivot = min(draw(shape.pivots), d - 1)
    sign = -1 if draw(st.booleans()) else 1
    v = list(draw(shape.vectors()))[:d]
    v[pivot] = Fraction(sign)
    b = Fraction(0) if through_origin else draw(shape.values())
    rows = draw(shape.rows(min_size=shape.min_samples, max_size=shape.max_samples))
    X = [list(x[:d]) for x, _ in rows]
    y = [1 if positive else -1 for _, positive in rows]
    if len(set(y)) == 1:  # both classes, always: the last sample changes side
        y[-1] = -y[0]
    # Each sample ends at least `need` on its side: distance need/‖v‖ >= min_margin since need >= m·‖v‖.
    need = shape.on_grid(shape.min_margin * _norm_ceiling(sum(c * c for c in v)))
    if need == 0:
        need = Fraction(1)
    for x, label in zip(X, y):
        score = dot(v, x) + b
        if label * score < need:
            x[pivot] += (label * need - score) * sign
    if tiny is not None:  # one sample, drawn, sits just `tiny` inside its side
        i = draw(st.integers(0, len(X) - 1))
        x, label = X[i], y[i]
        x[pivot] += (label * tiny - (dot(v, x) + b)) * sign
    if shape.numbers == "floats":
        X = [[_as_float(value) for value in x] for x in X]
    # Confirm exactly what the construction promises (rounding to doubles could in principle undo it).
    margin_sq = shape.min_margin**2 * sum(c * c for c in v)
    for x, label in zip(X, y):
        score = label * (dot(v, x) + b)
        assume(score > 0 and score * score >= margin_sq)
    return Dataset(X=tuple(tuple(x) for x in X), y=tuple(y), source=f"{kind}: separated by v·x + b = 0, "
                   f"v = [{', '.join(map(str, v))}], b = {b}")


def separable_datasets(
    *,
    min_features: int = 1,
    max_features: int = 3,
    min_samples: int = 2,
    max_samples: int = 8,
    min_margin: int | Fraction | str = 0,
    numbers: str = "rationals",
    max_numerator: int = 4,
    max_denominator: int = 4,
    through_origin: bool = False,
) -> st.SearchStrategy[Dataset]:
    """Linearly separable datasets, with both labels and every sample at least `min_margin` from a hyperplane.

    Parameters
    ----------
    min_features, max_features : int
        The dimension of a sample (without the bias input), 1 or more.
    min_samples, max_samples : int
        The number of samples, 2 or more.
    min_margin : rational
        Every sample lies at Euclidean distance >= `min_margin` from the
        generating hyperplane (so the data's own margin is at least that);
        0 asks only for strict separation.
    numbers : {"integers", "dyadic", "rationals", "floats"}
        The kind of values drawn (see the module's docstring).
    max_numerator, max_denominator : int
        Bounds of the drawn values p/q: |p| <= max_numerator, q <= max_denominator
        (a power of two for ``"dyadic"``). Moving a sample to its side of the
        hyperplane can take it beyond these bounds.
    through_origin : bool
        Separate by a hyperplane through the origin (b = 0).

    Notes
    -----
    Shrinks toward one feature, two samples, the hyperplane x1 = 0, values 0
    with denominator 1, and labels -1 (the last one +1): that is, toward
    ``X = [[-1], [1]]``, ``y = [-1, 1]``.

    Examples
    --------
    >>> from hypothesis import find
    >>> from verify_perceptron.harness import harness_settings
    >>> quiet = harness_settings()
    >>> data = find(separable_datasets(min_features=2, min_margin=1), lambda data: True, settings=quiet)
    >>> [[str(v) for v in row] for row in data.X], data.y
    ([['-1', '0'], ['1', '0']], (-1, 1))
    >>> separable_datasets(max_samples=1)
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.InvalidArgument: max_samples=1 must be >= 2
    """
    shape = _shape(min_features=min_features, max_features=max_features, min_samples=min_samples,
                   max_samples=max_samples, min_margin=min_margin, numbers=numbers,
                   max_numerator=max_numerator, max_denominator=max_denominator)
    return _separable(shape, through_origin=bool(through_origin))


# --- ties -------------------------------------------------------------------------------------------


def _has_tie(data: Dataset, conv: Convention, max_epochs: int) -> bool:
    """True when the exact run scores some sample exactly 0 while its weights are not all 0."""
    samples = [conv.augment(x) for x in data.X]
    w = [Fraction(0)] * len(samples[0])
    for _ in range(max_epochs):
        clean = True
        for x, label in zip(samples, data.y):
            score = dot(w, x)
            if score == 0 and any(w):
                return True
            factor = conv.decide(score, label, Fraction(1))
            if factor is not None:
                w = [wj + factor * xj for wj, xj in zip(w, x)]
                clean = False
        if clean:
            return False
    return False


def tied_datasets(
    *,
    convention: str = "classic",
    max_epochs: int = 50,
    **bounds: object,
) -> st.SearchStrategy[Dataset]:
    """Separable datasets on which `convention`'s exact run meets a score of exactly 0 at nonzero weights.

    Every run starts with a tie (w = 0 scores every sample 0); these data
    have a later one, where the tie rule decides the run: ``y·(w·x~) <= 0``
    counts it as a mistake, the hard limiter's sgn(0) = -1 only for class +1.

    Parameters
    ----------
    convention : str
        The convention whose run must meet the tie.
    max_epochs : int
        Epochs of the exact run searched for the tie.
    **bounds
        As for `separable_datasets`.

    Notes
    -----
    Shrinks as `separable_datasets`, among data with such a tie (a filter:
    the shrinker keeps only simplifications that still tie). The smallest is
    ``X = [[-1], [1]]``, ``y = [-1, 1]``: after the first update w = (-1, 1)
    scores x~ = (1, 1) exactly 0.

    Examples
    --------
    >>> from hypothesis import find
    >>> from verify_perceptron.harness import harness_settings
    >>> quiet = harness_settings()
    >>> data = find(tied_datasets(min_samples=3), lambda data: True, settings=quiet)
    >>> [[str(v) for v in row] for row in data.X], data.y
    ([['-1'], ['-1'], ['1']], (-1, -1, 1))
    """
    conv = get_convention(convention)
    _whole("max_epochs", max_epochs, at_least=1)
    shape = _shape(**bounds)
    return _separable(shape, kind="tied_datasets").filter(lambda data: _has_tie(data, conv, max_epochs))


# --- duplicates -------------------------------------------------------------------------------------


@st.composite
def _duplicated(draw: st.DrawFn, separable: st.SearchStrategy[Dataset]) -> Dataset:
    base = draw(separable)
    i = draw(st.integers(0, base.n_samples - 1))
    at = draw(st.integers(0, base.n_samples))
    X, y = list(base.X), list(base.y)
    X.insert(at, base.X[i])
    y.insert(at, base.y[i])
    return Dataset(X=tuple(X), y=tuple(y), source=f"{base.source}; sample {i} repeated at {at}")


def duplicated_datasets(**bounds: object) -> st.SearchStrategy[Dataset]:
    """Separable datasets with one sample repeated (the same x and label, a second time).

    Parameters
    ----------
    **bounds
        As for `separable_datasets` (`max_samples` bounds the data before the copy).

    Notes
    -----
    Shrinks as `separable_datasets`, with the copy of sample 0 put first.

    Examples
    --------
    >>> from hypothesis import find
    >>> from verify_perceptron.harness import harness_settings
    >>> quiet = harness_settings()
    >>> data = find(duplicated_datasets(), lambda data: True, settings=quiet)
    >>> [[str(v) for v in row] for row in data.X], data.y
    ([['-1'], ['-1'], ['1']], (-1, -1, 1))
    """
    return _duplicated(_separable(_shape(**bounds), kind="duplicated_datasets"))


# --- tiny margins -----------------------------------------------------------------------------------


def _tiny(shape: _Shape, min_exponent: int, max_exponent: int) -> st.SearchStrategy[Dataset]:
    def near(e: int) -> st.SearchStrategy[Dataset]:
        # 2^-e on the dyadic and float grids; 1/(2^e + 1) (not a power of two) for rationals
        tiny = Fraction(1, 2**e) if shape.numbers in ("dyadic", "floats", "integers") else Fraction(1, 2**e + 1)
        return _separable(shape, tiny=tiny, kind="tiny_margin_datasets")

    by_exponent = {e: near(e) for e in range(min_exponent, max_exponent + 1)}
    return st.integers(min_exponent, max_exponent).flatmap(by_exponent.__getitem__)


def tiny_margin_datasets(*, min_exponent: int = 3, max_exponent: int = 6, **bounds: object) -> st.SearchStrategy[Dataset]:
    """Separable datasets with one sample scoring only 2^-e on its side of the hyperplane.

    The perceptron must then tell apart samples that nearly touch, which takes
    many updates (the mistake bounds grow as 1/γ²) and, in floating point,
    brings scores close to 0.

    Parameters
    ----------
    min_exponent, max_exponent : int
        The range of e (>= 0); the sample's score is 2^-e (1/(2^e + 1) for
        ``numbers="rationals"``). Its values then carry e more bits.
    **bounds
        As for `separable_datasets`; ``numbers="integers"`` gives dyadic
        values here, since 2^-e is not an integer.

    Notes
    -----
    Shrinks toward e = `min_exponent`, then as `separable_datasets`, with the
    first sample the one close to the hyperplane.

    Examples
    --------
    >>> from hypothesis import find
    >>> from verify_perceptron.harness import harness_settings
    >>> quiet = harness_settings()
    >>> data = find(tiny_margin_datasets(numbers="dyadic"), lambda data: True, settings=quiet)
    >>> [[str(v) for v in row] for row in data.X], data.y
    ([['-1/8'], ['1']], (-1, 1))
    """
    _whole("min_exponent", min_exponent, at_least=0)
    _whole("max_exponent", max_exponent, at_least=0)
    _ordered("min_exponent", min_exponent, "max_exponent", max_exponent)
    return _tiny(_shape(**bounds), min_exponent, max_exponent)


# --- large and tiny magnitudes ----------------------------------------------------------------------


@st.composite
def _scaled(draw: st.DrawFn, separable: st.SearchStrategy[Dataset], exponent: st.SearchStrategy[int]) -> Dataset:
    base = draw(separable)
    exponents = [draw(exponent) for _ in range(base.n_features)]
    scales = [Fraction(2) ** e for e in exponents]
    X = tuple(tuple(value * s for value, s in zip(x, scales)) for x in base.X)
    return Dataset(X=X, y=base.y, source=f"{base.source}; features scaled by 2^{exponents}")


def scaled_datasets(*, min_exponent: int = -12, max_exponent: int = 12, **bounds: object) -> st.SearchStrategy[Dataset]:
    """Separable datasets whose feature j is scaled by 2^e_j: large and tiny magnitudes side by side.

    The base data are separated through the origin, so scaling a feature
    keeps them separable whatever the exponents (the bias input stays 1).
    Scaling by a power of two is exact in binary floating point; with the
    default exponents, float64 still computes every score of a short run on
    dyadic data exactly, and the harness confirms that for each dataset it
    gives a float implementation.

    Parameters
    ----------
    min_exponent, max_exponent : int
        The range of each feature's exponent e_j.
    **bounds
        As for `separable_datasets` (`through_origin` is implied).

    Notes
    -----
    Shrinks as `separable_datasets` (through the origin), then every exponent
    toward 0.

    Examples
    --------
    >>> from hypothesis import find
    >>> from verify_perceptron.harness import harness_settings
    >>> quiet = harness_settings()
    >>> data = find(scaled_datasets(min_exponent=10), lambda data: True, settings=quiet)
    >>> [[str(v) for v in row] for row in data.X], data.y
    ([['-1024'], ['1024']], (-1, 1))
    """
    for name, value in (("min_exponent", min_exponent), ("max_exponent", max_exponent)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidArgument(f"{name}={value!r} must be an integer")
    _ordered("min_exponent", min_exponent, "max_exponent", max_exponent)
    base = _separable(_shape(**bounds), through_origin=True, kind="scaled_datasets")
    return _scaled(base, st.integers(min_exponent, max_exponent))


# --- not separable ----------------------------------------------------------------------------------

# Convex weights λ of the hull's points (each a dyadic rational, so a float grid keeps them exact).
_HULL_WEIGHTS: tuple[tuple[Fraction, ...], ...] = (
    (Fraction(1),),
    (Fraction(1, 2), Fraction(1, 2)),
    (Fraction(1, 4), Fraction(3, 4)),
    (Fraction(1, 4), Fraction(1, 4), Fraction(1, 2)),
)
_HULL_CHOICES = st.sampled_from(_HULL_WEIGHTS)


@st.composite
def _nonseparable(draw: st.DrawFn, shape: _Shape) -> Dataset:
    d = draw(shape.dimensions)  # vectors drawn at full width and cut to d, as in _separable
    weights = draw(_HULL_CHOICES)
    hull_label = 1 if draw(st.booleans()) else -1
    hull = [list(draw(shape.vectors()))[:d] for _ in weights]
    # The witness: a convex combination of the hull's points, with the other label.
    inside = [sum((lam * p[j] for lam, p in zip(weights, hull)), Fraction(0)) for j in range(d)]
    extra = draw(shape.rows(min_size=0, max_size=max(0, shape.max_samples - len(weights) - 1)))
    X = [*hull, inside, *(list(x[:d]) for x, _ in extra)]
    y = [hull_label] * len(hull) + [-hull_label] + [1 if positive else -1 for _, positive in extra]
    if shape.numbers == "floats":
        X = [[_as_float(v) for v in x] for x in X]
        inside_now = [sum((lam * p[j] for lam, p in zip(weights, X)), Fraction(0)) for j in range(d)]
        assume(inside_now == X[len(weights)])  # rounding kept the witness inside the hull
    order = draw(st.permutations(range(len(X))))
    return Dataset(X=tuple(tuple(X[i]) for i in order), y=tuple(y[i] for i in order),
                   source=f"nonseparable_datasets: sample {order.index(len(weights))} = "
                   + " + ".join(f"{lam}·x_{order.index(k)}" for k, lam in enumerate(weights))
                   + " with the opposite label")


def nonseparable_datasets(**bounds: object) -> st.SearchStrategy[Dataset]:
    """Datasets that no hyperplane separates: one sample is a convex combination of the other class's.

    If x_q = Σ λ_k x_k (λ >= 0, Σλ = 1) with the opposite label, then
    Σ λ_k y_k x~_k + y_q x~_q = 0 is Gordan's certificate that no w makes
    every y_i·w·x~_i positive. The combination uses 1, 2 or 3 points with
    dyadic weights, so it is exact on every grid.

    Parameters
    ----------
    **bounds
        As for `separable_datasets` (`min_samples` and `min_margin` do not apply).

    Notes
    -----
    Shrinks toward two copies of the same point with opposite labels,
    ``X = [[0], [0]]`` (the smallest conflict), then toward fewer extra
    samples and values 0.

    Examples
    --------
    >>> from hypothesis import find
    >>> from verify_perceptron.harness import harness_settings
    >>> quiet = harness_settings()
    >>> data = find(nonseparable_datasets(), lambda data: True, settings=quiet)
    >>> [[str(v) for v in row] for row in data.X], data.y
    ([['0'], ['0']], (-1, 1))
    """
    return _nonseparable(_shape(**bounds))


# --- everything separable -------------------------------------------------------------------------


def datasets(
    *,
    kinds: Sequence[str] = DATASET_KINDS,
    convention: str = "classic",
    numbers: str = "rationals",
    max_features: int = 3,
    max_samples: int = 8,
    max_numerator: int = 4,
    max_denominator: int = 4,
    min_scale_exponent: int = -12,
    max_scale_exponent: int = 12,
    nonseparable: bool = False,
) -> st.SearchStrategy[Dataset]:
    """Separable datasets of every kind in `kinds` (and non-separable ones, when asked), mixed.

    Parameters
    ----------
    kinds : sequence of str
        Any of `DATASET_KINDS`: ``separable``, ``tied``, ``duplicated``,
        ``tiny-margin``, ``scaled``.
    convention : str
        The convention whose exact run the ``tied`` data must tie.
    numbers : {"integers", "dyadic", "rationals", "floats"}
        The kind of values (see the module's docstring).
    max_features, max_samples, max_numerator, max_denominator : int
        As for `separable_datasets`.
    min_scale_exponent, max_scale_exponent : int
        The range of the ``scaled`` kind's exponents.
    nonseparable : bool
        Also draw `nonseparable_datasets` (for implementations that detect
        them), about as often as separable data.

    Notes
    -----
    Shrinks toward the first kind in `kinds` (then as that kind's strategy),
    so a failure found on tied or scaled data is shown on plain separable
    data whenever it occurs there too.

    Examples
    --------
    >>> from hypothesis import find
    >>> from verify_perceptron.harness import harness_settings
    >>> quiet = harness_settings()
    >>> data = find(datasets(), lambda data: data.n_samples > 2, settings=quiet)
    >>> [[str(v) for v in row] for row in data.X], data.y
    ([['-1'], ['-1'], ['1']], (-1, -1, 1))
    >>> datasets(kinds=["round"])
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.InvalidArgument: kinds=['round'] must be a non-empty selection of separable, tied, duplicated, tiny-margin, scaled
    """
    if isinstance(kinds, str) or not kinds or any(k not in DATASET_KINDS for k in kinds):
        raise InvalidArgument(f"kinds={kinds!r} must be a non-empty selection of {', '.join(DATASET_KINDS)}")
    bounds: dict[str, Any] = {"numbers": numbers, "max_features": max_features, "max_samples": max_samples,
                                 "max_numerator": max_numerator, "max_denominator": max_denominator}
    # Tiny margins and ties need a grid finer than the integers to exist at all.
    fine = {**bounds, "numbers": "dyadic" if numbers == "integers" else numbers}
    makers = {
        "separable": lambda: separable_datasets(**bounds),
        "tied": lambda: tied_datasets(convention=convention, **bounds),
        "duplicated": lambda: duplicated_datasets(**bounds),
        "tiny-margin": lambda: tiny_margin_datasets(**fine),
        "scaled": lambda: scaled_datasets(min_exponent=min_scale_exponent, max_exponent=max_scale_exponent,
                                          **bounds),
    }
    separable = st.one_of([makers[k]() for k in dict.fromkeys(kinds)])
    if nonseparable:  # as often as all the separable kinds together
        return st.one_of(separable, nonseparable_datasets(**bounds))
    return separable


# --- the notes' worked examples ---------------------------------------------------------------------


def worked_examples(*, nonseparable: bool = False) -> tuple[tuple[str, Dataset], ...]:
    """The notes' worked examples, as fixed cases: ``(name, data)`` pairs.

    Note 000's AND (Table 1), OR, note 003's modified OR; with `nonseparable`,
    also XOR, which no hyperplane separates.

    Examples
    --------
    >>> [name for name, _ in worked_examples(nonseparable=True)]
    ['and', 'or', 'modified-or', 'xor']
    """
    names = ("and", "or", "modified-or", "xor") if nonseparable else ("and", "or", "modified-or")
    return tuple((name, example(name)) for name in names)
