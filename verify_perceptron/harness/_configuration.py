"""An estimator's configuration, read from ``get_params()``: the learning rate and epoch limit it
declares, and where it departs from the note's algorithm (``shuffle``, ``tol``, ...)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from ..data.rationals import shown_value
from ._clock import OutOfTime
from ._options import CheckOptions
from ._results import Finding
from ._wording import _number


def _params(target: object, kind: str) -> dict[str, Any]:
    """The estimator's ``get_params(deep=False)``; empty for a function, or when its code fails in any way
    (the calls then say what it does)."""
    if kind == "function":
        return {}
    try:
        probe = target if kind == "estimator" or not callable(target) else target()  # a class: an instance of it
        get_params = getattr(probe, "get_params", None)
        params = get_params(deep=False) if callable(get_params) else None
        if not isinstance(params, dict):
            return {}
        return {key: _plain(value) for key, value in params.items() if type(key) is str}
    except (KeyboardInterrupt, OutOfTime):
        raise
    except BaseException:  # noqa: BLE001 - sys.exit included: its own code, judged when it is called
        return {}


class Shown:
    """A parameter value that is not a plain number, string or None, kept as its text only: it compares
    equal to nothing, and its ``repr`` is that text (so no code of the implementation runs once it is read)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


#: Longest string parameter kept as it is.
_LONGEST_TEXT = 1000


def _plain(value: object) -> object:
    """`value` if it is None, a bool, an int, a float, a short str, a NumPy scalar or a small dict of numbers to
    numbers (``class_weight={-1: 2.0, 1: 0.5}``), else its `Shown` text.

    Examples
    --------
    >>> _plain(0.1), _plain("optimal"), _plain({"a": 1}), type(_plain({"a": 1})).__name__
    (0.1, 'optimal', {'a': 1}, 'Shown')
    >>> _plain({-1: 2.0, 1: 0.5})
    {-1: 2.0, 1: 0.5}
    """
    if type(value) in (type(None), bool, int, float) or type(value) is str and len(value) <= _LONGEST_TEXT:
        return value
    if type(value) is dict and len(value) <= 16 and all(type(k) in (int, float) and type(v) in (int, float)
                                                          for k, v in value.items()):
        return dict(value)
    if isinstance(value, np.generic) and type(value).__module__ == "numpy":
        return value
    try:
        return Shown(shown_value(value))
    except BaseException:  # noqa: BLE001 - its repr ran its code, which failed
        return Shown(f"(a {type(value).__name__})")


def _plain_configuration(params: dict[str, Any]) -> tuple[tuple[str, object], ...]:
    """The configuration's plain values (numbers, strings, None; a dict of numbers, ``class_weight``'s, as its
    sorted pairs), for the diagnosis's models.

    Examples
    --------
    >>> _plain_configuration({"tol": None, "class_weight": {1: 0.5, -1: 2.0}, "callback": print})
    (('class_weight', ((-1, 2.0), (1, 0.5))), ('tol', None))
    """
    plain = (type(None), bool, int, float, str)
    found = []
    for k, v in sorted(params.items()):
        if isinstance(v, dict) and all(type(a) in plain[2:4] and type(b) in plain[2:4] for a, b in v.items()):
            v = tuple(sorted(v.items()))
        if type(v) in plain or isinstance(v, tuple):
            found.append((k, v))
    return tuple(found)


def _declared(params: dict[str, Any], *, eta: object, max_epochs: int | None) -> tuple[object, int | None]:
    """The learning rate and epoch limit to check under: the ones given, else scikit-learn's ``eta0`` and ``max_iter``."""
    if eta is None and isinstance(params.get("eta0"), (int, float)) and not isinstance(params.get("eta0"), bool):
        eta = params["eta0"]
    if max_epochs is None and isinstance(params.get("max_iter"), int) and params.get("max_iter", 0) >= 1:
        max_epochs = params["max_iter"]
    return eta, max_epochs


def _inexact_float(value: object) -> Fraction | None:
    """The double's exact value when a float's shortest decimal text is not that value (0.1), else None
    (also for nan and the infinities, and a wider float past the doubles' range, which no double is).

    Examples
    --------
    >>> _inexact_float(0.1) == Fraction.from_float(0.1), _inexact_float(0.5), _inexact_float(float("nan"))
    (True, None, None)
    """
    if isinstance(value, bool) or not isinstance(value, (float, np.floating)):
        return None
    with np.errstate(over="ignore", invalid="ignore"):
        double = float(value)
    if not math.isfinite(double):
        return None
    exact = Fraction.from_float(double)
    return exact if Fraction(repr(double)) != exact else None


def _departures(params: dict[str, Any], options: CheckOptions) -> tuple[Finding, ...]:
    """Where a scikit-learn-style configuration departs from the note's algorithm, each named precisely."""
    found: list[tuple[str, str]] = []
    if params.get("shuffle") is True:
        found.append(("shuffle", "shuffle=True presents the samples in a new random order every epoch; "
                      "the notes present them in the given order"))
    if params.get("tol", None) is not None and "tol" in params:
        found.append(("tol", f"tol={shown_value(params['tol'])} stops once the training loss has not improved by "
                      f"tol·n_samples for n_iter_no_change={shown_value(params.get('n_iter_no_change', '?'))} epochs in a "
                      "row; the notes stop after the first pass without a mistake"))
    if params.get("early_stopping") is True:
        found.append(("early_stopping", "early_stopping=True holds out validation_fraction="
                      f"{shown_value(params.get('validation_fraction'))} of the samples and stops on their score"))
    if params.get("penalty") not in (None, "none") and "penalty" in params and params.get("alpha", 0) != 0:
        found.append(("penalty", f"penalty={shown_value(params['penalty'])} with alpha={shown_value(params.get('alpha'))} shrinks the "
                      "weights at every step; the notes' update adds the step only"))
    if params.get("fit_intercept") is False:
        found.append(("fit_intercept", "fit_intercept=False keeps the bias at 0; the notes' perceptron has a "
                      "bias weight (the constant input of x~)"))
    if "learning_rate" in params and params["learning_rate"] != "constant":
        found.append(("learning_rate", f"learning_rate={shown_value(params['learning_rate'])} changes the step over time; "
                      "the notes' rate is constant"))
    if "loss" in params and params["loss"] != "perceptron":
        found.append(("loss", f"loss={shown_value(params['loss'])} is not the perceptron's criterion"))
    if params.get("average") not in (None, False, 0) and "average" in params:
        found.append(("average", f"average={shown_value(params['average'])} returns averaged weights, not the last ones"))
    if params.get("class_weight") is not None and "class_weight" in params:
        found.append(("class_weight", f"class_weight={shown_value(params['class_weight'])} scales the step by class"))
    for name in ("eta0", "learning_rate_init"):
        exact = _inexact_float(params.get(name))
        if exact is not None:
            found.append((name, f"{name}={shown_value(params[name])} is not exactly representable in binary floating "
                          f"point: the rate used is {_number(exact)}, and every step η·y·x~ it scales may round"))
    return tuple(Finding("configuration", message) for name, message in found
                 if name not in options.accept_departures)
