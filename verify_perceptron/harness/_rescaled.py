"""Data rescaled inside the implementation before it learns (features standardized, scaled to [0, 1], centred,
divided by their largest magnitude; or each sample scaled to length 1): its weights are then a perceptron's on
the rescaled data, not on the data it was given, so no sum of steps on the data makes them.

`rescalings` makes each such view of a dataset in float64 as NumPy computes it (the values are square roots and
quotients: only float64 code does this, and only float64 values can be compared exactly); `rescaled_cause` names
the one whose float64 run reproduces every dataset tried, and `perceptron_when_rescaled` tells, for the
not-a-perceptron diagnosis, that weights whose coefficients on the data are no counts are a perceptron's on one
of these views (so that is not said).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..data.dataset import Dataset
from ..notes.conventions import Convention
from ._evidence import Observation
from ._results import Diagnosis

#: The ways code rescales its features, each with the words that say it.
RESCALINGS: dict[str, str] = {
    "standardized": "standardized (each feature minus its mean, over its standard deviation: NumPy's mean and std, "
                    "scikit-learn's StandardScaler)",
    "standardized-ddof1": "standardized with the sample standard deviation (ddof=1, as pandas' std)",
    "min-max": "scaled to [0, 1] (each feature minus its least value, over its range)",
    "min-max-scaler": "scaled to [0, 1] as scikit-learn's MinMaxScaler computes it (times 1/range, plus -min/range)",
    "centred": "centred (each feature minus its mean)",
    "max-abs": "divided by each feature's largest magnitude (MaxAbsScaler)",
    "unit-rows": "with each sample divided by its Euclidean length (scikit-learn's Normalizer)",
}


def rescaled(data: Dataset, how: str) -> Dataset | None:
    """`data` with its features rescaled as `how` (a key of `RESCALINGS`) says, in float64 as NumPy computes it
    (a constant feature is left at 0 by the centring and divided by 1); None where a value is past the doubles or
    a result is not finite.

    Examples
    --------
    >>> from verify_perceptron.data.dataset import from_arrays
    >>> data = from_arrays([["1", "10"], ["3", "10"]], [-1, 1])
    >>> [[float(v) for v in x] for x in rescaled(data, "standardized").X]
    [[-1.0, 0.0], [1.0, 0.0]]
    >>> [[float(v) for v in x] for x in rescaled(data, "max-abs").X]
    [[0.3333333333333333, 1.0], [1.0, 1.0]]
    """
    try:
        X = np.array([[float(v) for v in x] for x in data.X], dtype=np.float64)
    except OverflowError:  # a value past the doubles: no float64 code rescales it
        return None
    with np.errstate(all="ignore"):
        if how in ("standardized", "standardized-ddof1", "centred"):
            Z = X - X.mean(axis=0)
            if how != "centred":
                scale = X.std(axis=0, ddof=1 if how == "standardized-ddof1" else 0)
                Z = Z / np.where(scale == 0, 1.0, scale)
        elif how in ("min-max", "min-max-scaler"):
            low = X.min(axis=0)
            span = X.max(axis=0) - low
            span = np.where(span == 0, 1.0, span)
            if how == "min-max":
                Z = (X - low) / span
            else:
                scale = 1.0 / span
                Z = X * scale + (0.0 - low * scale)
        elif how == "max-abs":
            largest = np.abs(X).max(axis=0)
            Z = X / np.where(largest == 0, 1.0, largest)
        else:
            length = np.sqrt(np.einsum("ij,ij->i", X, X))  # as scikit-learn's row_norms
            Z = X / np.where(length == 0, 1.0, length)[:, None]
    if not np.isfinite(Z).all():
        return None
    return Dataset(X=tuple(tuple(Fraction(float(v)) for v in row) for row in Z), y=data.y, source=data.source)


def perceptron_when_rescaled(observation: Observation, conv: Convention) -> str | None:
    """The first rescaling (`RESCALINGS`) under which the weights (features only: any bias step fits) could be a
    perceptron's sum of steps on the rescaled samples, or None: they lie in the span of the rescaled step
    directions within float64's rounding (relative 2^-30, `_reachable.NEAR`) and, where those directions are
    independent, with coefficients in the ratios of counts of updates (`_reachable.count_ratios`).

    Examples
    --------
    >>> from verify_perceptron.data.dataset import from_arrays
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> data = from_arrays([["1", "0"], ["3", "4"]], [-1, 1])
    >>> z = [[float(v) for v in x] for x in rescaled(data, "max-abs").X]  # [[1/3, 0], [1, 1]]
    >>> steps = [-z[0][0] + 2 * z[1][0], -z[0][1] + 2 * z[1][1]]  # sample 0 once, sample 1 twice
    >>> perceptron_when_rescaled(Observation(data, (Fraction(0), *map(Fraction, steps))), get_convention("classic"))
    'max-abs'
    """
    from ._reachable import NEAR, count_ratios

    bias = 0 if conv.bias_first else observation.data.n_features
    try:
        target = np.array([float(v) for j, v in enumerate(observation.weights) if j != bias])
    except OverflowError:  # weights past the doubles: no float64 code made them
        return None
    size = float(np.abs(target).max()) if target.size else 0.0
    if size == 0.0 or not np.isfinite(size):
        return None
    for how in RESCALINGS:
        view = rescaled(observation.data, how)
        if view is None:
            continue
        steps = np.array([[float(v) for v in x] for x in view.X]).T * np.array([float(y) for y in view.y])
        a, _, rank, _ = np.linalg.lstsq(steps, target, rcond=None)
        if np.abs(steps @ a - target).max() > float(NEAR) * size:
            continue  # not in their span: no sum of steps on this view
        if rank < steps.shape[1]:
            return how  # dependent directions: the coefficients cannot be told, a perceptron's among them
        if count_ratios([Fraction(float(v)) for v in a]):
            return how
    return None


def rescaled_cause(observations: list[Observation], conv: Convention, rate: Fraction, max_epochs: int,
                   labels: str) -> Diagnosis | None:
    """``rescaled-inputs``: the note's perceptron in float64, run on the features rescaled one way
    (`RESCALINGS`), ends at the implementation's weights on every dataset tried, at a rate its weights show there
    (or `rate`'s short decimals), in any order of `_floats.SUMS` (`_floats.float_fit`); else None."""
    from ._floats import float_fit, rates_shown, short_rates, summed

    first = observations[0]
    for how, words in RESCALINGS.items():
        views = [rescaled(o.data, how) for o in observations]
        if views[0] is None:
            continue
        shown = rates_shown(views[0], conv, first.weights, labels, max_epochs)
        found = float_fit([(view, o.weights) for view, o in zip(views, observations)], conv, [*shown, *short_rates(rate)],
                          max_epochs, labels)
        if found is not None:
            candidate, sums = found
            return Diagnosis("rescaled-inputs", {"rescaling": how, "rate": str(candidate), "sums": sums,
                                                 "datasets": len(observations)},
                             f"it rescales its inputs: the {conv.name} perceptron computed in float64 at "
                             f"rate {float(candidate)!r}{summed(sums)}, run on the {_data(how)} {words}, ends "
                             "at exactly the implementation's weights on every dataset tried; they are "
                             "weights for the rescaled data, not for the data given, so no check of "
                             "the notes' algorithm on the data can pass: check the learner on data "
                             "rescaled beforehand, with the rescaling taken out of the implementation")
    return None



def _data(how: str) -> str:
    return "samples" if how == "unit-rows" else "features"
