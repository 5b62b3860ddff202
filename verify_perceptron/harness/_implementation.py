"""What `check` accepts as an implementation, as types a checker reads (the forms docs/harness.md and
`check_implementation` describe): a ``fit(X, y)`` function (`FitFunction`), a scikit-learn-style estimator
instance or class (`Estimator`), a command (`CommandImplementation`), or ``"MODULE:EXPR"`` naming one;
`Implementation` is any of them.

These say what a user's code must look like to be called; they promise nothing about what it does. The
check trusts none of it: whatever a call returns is read at arm's length and every form that is not one
of these is a finding, not a crash. So the data it is given are `Any` (NumPy float64 or object arrays, or
lists of `Fraction`, as ``dtype`` says: the implementation's own code decides what to do with them), and
what it returns is `object` here: any value is read, and judged (`Returned` lists the forms that can pass;
annotate a fit function with it to have a checker hold it to them).

Examples
--------
>>> import numpy as np
>>> def fit(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
...     return np.zeros(X.shape[1]), 0.0
>>> implementation: Implementation = fit  # a type checker accepts it; so does `check_implementation`
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any, Protocol, Union

import numpy as np

from ._process import CommandImplementation

__all__ = ["Samples", "Labels", "Number", "WeightVector", "Updates", "Returned", "FitFunction", "Estimator", "Implementation"]

#: The samples as an implementation receives them (``dtype``): a float64 or object array, or lists of Fraction.
Samples = Union["np.ndarray[Any, Any]", list[list[Fraction]]]
#: The labels as it receives them: an int64, str or object array, or a list of ints or of str (``labels="R/M"``).
Labels = Union["np.ndarray[Any, Any]", list[int], list[str]]
#: A value the check reads exactly: a float through `Fraction.from_float`, a string as a literal (``"1/3"``).
Number = Union[int, float, Fraction, Decimal, str, "np.number[Any]"]
#: A weight vector: its numbers in a sequence or an array (a 1×d row is read too, hence `object`).
WeightVector = Union[Sequence[object], "np.ndarray[Any, Any]"]
#: The reported updates, in order: ``(sample index, the weights after that update)``; an iterator may be lazy.
Updates = Iterable[tuple[Union[int, "np.integer[Any]"], WeightVector]]
#: What a fit function returns: the weights in the convention's order, ``(w, b)``, ``(w, b, updates)``,
#: ``(augmented weights, updates)``, or None for "not separable" (as is raising one of its
#: ``detects_nonseparable`` signals). A bias may be an array of one value (as an ``intercept_`` is).
Returned = Union[
    None,
    WeightVector,
    tuple[WeightVector, Union[Number, WeightVector]],
    tuple[WeightVector, Union[Number, WeightVector], Updates],
    tuple[WeightVector, Updates],
]


class FitFunction(Protocol):
    """``fit(X, y)``: the weights the perceptron learns from the samples X (n × d) and labels y, in one of
    `Returned`'s forms (anything else is a finding of the check)."""

    def __call__(self, X: Any, y: Any, /) -> object:  # Any: the data in the form ``dtype`` says
        ...


class Estimator(Protocol):
    """A scikit-learn-style estimator: ``fit(X, y)``, then its weights in ``coef_``, or where textbook and
    course classes keep them (``w_``, ``weights``, ... with ``b_``, ``bias``, ...: `_reading.WEIGHT_NAMES`).

    A class is built with no arguments for each dataset; an instance is cloned through
    ``get_params(deep=False)`` when it has one (else copied). After ``fit`` the check also reads
    ``intercept_`` (0 when absent), ``classes_`` (which class ``coef_`` scores) and ``updates_`` (the
    reported updates, as `Updates`) when they are there: a Protocol cannot say "optional", so none of the
    attributes is a member here.
    """

    def fit(self, X: Any, y: Any, /) -> object:  # Any: the data in the form ``dtype`` says; fit's return is not read
        ...


#: Anything `check_implementation` checks: a fit function, an estimator instance or class (built with no
#: arguments), a command, or ``"MODULE:EXPR"`` naming a function, class or instance.
Implementation = Union[FitFunction, Estimator, type[Estimator], CommandImplementation, str]
