"""An estimator's configuration, read from ``get_params()``: the learning rate and epoch limit it
declares, and where it departs from the note's algorithm (``shuffle``, ``tol``, ...)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from ._clock import OutOfTime
from ._options import CheckOptions
from ._results import Finding


def _params(target: object, kind: str) -> dict[str, Any]:
    """The estimator's ``get_params(deep=False)``; empty for a function, or when its code fails in any way
    (the calls then say what it does)."""
    if kind == "function":
        return {}
    try:
        probe = target if kind == "estimator" else target()  # type: ignore[operator]
        get_params = getattr(probe, "get_params", None)
        params = get_params(deep=False) if callable(get_params) else None
        return dict(params) if isinstance(params, dict) else {}
    except (KeyboardInterrupt, OutOfTime):
        raise
    except BaseException:  # noqa: BLE001 - sys.exit included: its own code, judged when it is called
        return {}


def _declared(params: dict[str, Any], *, eta: object, max_epochs: int | None) -> tuple[object, int | None]:
    """The learning rate and epoch limit to check under: the ones given, else scikit-learn's ``eta0`` and ``max_iter``."""
    if eta is None and isinstance(params.get("eta0"), (int, float)) and not isinstance(params.get("eta0"), bool):
        eta = params["eta0"]
    if max_epochs is None and isinstance(params.get("max_iter"), int) and params.get("max_iter", 0) >= 1:
        max_epochs = params["max_iter"]
    return eta, max_epochs


def _inexact_float(value: object) -> Fraction | None:
    """The double's exact value when a float's shortest decimal text is not that value (0.1), else None."""
    if isinstance(value, bool) or not isinstance(value, (float, np.floating)):
        return None
    exact = Fraction.from_float(float(value))
    return exact if Fraction(repr(float(value))) != exact else None


def _departures(params: dict[str, Any], options: CheckOptions) -> tuple[Finding, ...]:
    """Where a scikit-learn-style configuration departs from the note's algorithm, each named precisely."""
    found: list[tuple[str, str]] = []
    if params.get("shuffle") is True:
        found.append(("shuffle", "shuffle=True presents the samples in a new random order every epoch; "
                      "the notes present them in the given order"))
    if params.get("tol", None) is not None and "tol" in params:
        found.append(("tol", f"tol={params['tol']!r} stops once the training loss has not improved by "
                      f"tol·n_samples for n_iter_no_change={params.get('n_iter_no_change', '?')!r} epochs in a "
                      "row; the notes stop after the first pass without a mistake"))
    if params.get("early_stopping") is True:
        found.append(("early_stopping", "early_stopping=True holds out validation_fraction="
                      f"{params.get('validation_fraction')!r} of the samples and stops on their score"))
    if params.get("penalty") not in (None, "none") and "penalty" in params and params.get("alpha", 0) != 0:
        found.append(("penalty", f"penalty={params['penalty']!r} with alpha={params.get('alpha')!r} shrinks the "
                      "weights at every step; the notes' update adds the step only"))
    if params.get("fit_intercept") is False:
        found.append(("fit_intercept", "fit_intercept=False keeps the bias at 0; the notes' perceptron has a "
                      "bias weight (the constant input of x~)"))
    if "learning_rate" in params and params["learning_rate"] != "constant":
        found.append(("learning_rate", f"learning_rate={params['learning_rate']!r} changes the step over time; "
                      "the notes' rate is constant"))
    if "loss" in params and params["loss"] != "perceptron":
        found.append(("loss", f"loss={params['loss']!r} is not the perceptron's criterion"))
    if params.get("average") not in (None, False, 0) and "average" in params:
        found.append(("average", f"average={params['average']!r} returns averaged weights, not the last ones"))
    if params.get("class_weight") is not None and "class_weight" in params:
        found.append(("class_weight", f"class_weight={params['class_weight']!r} scales the step by class"))
    for name in ("eta0", "learning_rate_init"):
        exact = _inexact_float(params.get(name))
        if exact is not None:
            found.append((name, f"{name}={params[name]!r} is not exactly representable in binary floating "
                          f"point: the rate used is {exact}, and every step η·y·x~ it scales may round"))
    return tuple(Finding("configuration", message) for name, message in found
                 if name not in options.accept_departures)
