"""The separable kinds of data: one construction (samples pushed to their side of a drawn hyperplane)
and the kinds built on it: plain, tied, duplicated, tiny-margin and scaled datasets."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import assume
from hypothesis import strategies as st

from ..data.dataset import Dataset
from ..data.exact_text import exact_text
from ..data.rationals import shown_value
from ..errors import InvalidArgument
from ..notes.conventions import Convention, dot, get_convention
from ._bounds import _as_float, _norm_ceiling, _ordered, _shape, _Shape, _whole


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
    need = shape.on_grid(shape.min_margin * _norm_ceiling(sum((c * c for c in v), Fraction(0))))
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
                   f"v = [{', '.join(map(exact_text, v))}], b = {exact_text(b)}")


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
        The kind of values drawn (see `verify_perceptron.harness.strategies`).
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
            raise InvalidArgument(f"{name}={shown_value(value)} must be an integer")
    _ordered("min_exponent", min_exponent, "max_exponent", max_exponent)
    base = _separable(_shape(**bounds), through_origin=True, kind="scaled_datasets")
    return _scaled(base, st.integers(min_exponent, max_exponent))
