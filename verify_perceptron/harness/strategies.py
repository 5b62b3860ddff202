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
`slow_datasets`                separable data whose exact run needs at least 100 epochs
                               (a margin small relative to R): epoch caps show
`near_tie_datasets`            separable data on which the final weights score one sample
                               in (0, 2^-20]: a tolerance on the score shows
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

from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

from ..data.dataset import Dataset
from ..data.examples import example
from ..data.rationals import shown_value
from ..errors import InvalidArgument
from ._bounds import NUMBERS
from ._hard_cases import near_tie_datasets, slow_datasets
from ._nonseparable import nonseparable_datasets
from ._separable import (
    duplicated_datasets,
    scaled_datasets,
    separable_datasets,
    tied_datasets,
    tiny_margin_datasets,
)

__all__ = [
    "NUMBERS",
    "DATASET_KINDS",
    "separable_datasets",
    "tied_datasets",
    "duplicated_datasets",
    "tiny_margin_datasets",
    "scaled_datasets",
    "slow_datasets",
    "near_tie_datasets",
    "nonseparable_datasets",
    "datasets",
    "worked_examples",
]

#: The separable kinds `datasets` mixes, in the order it prefers when shrinking.
DATASET_KINDS = ("separable", "tied", "duplicated", "tiny-margin", "scaled", "many-epochs", "near-tie")


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
        ``tiny-margin``, ``scaled``, ``many-epochs``, ``near-tie``.
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
    verify_perceptron.errors.InvalidArgument: kinds=['round'] must be a non-empty selection of separable, tied, duplicated, tiny-margin, scaled, many-epochs, near-tie
    """
    if isinstance(kinds, str) or not kinds or any(k not in DATASET_KINDS for k in kinds):
        raise InvalidArgument(f"kinds={shown_value(kinds)} must be a non-empty selection of {', '.join(DATASET_KINDS)}")
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
        "many-epochs": lambda: slow_datasets(convention=convention, max_features=max_features,
                                             max_samples=max_samples),
        "near-tie": lambda: near_tie_datasets(separable_datasets(**{**bounds, "max_samples": max(2, max_samples - 1)}),
                                              convention=convention),
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
