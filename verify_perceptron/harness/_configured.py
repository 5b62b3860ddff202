"""scikit-learn's own configuration as a learner: the departures its ``get_params()`` declares (a seeded
shuffle, a stop on the objective, a penalty, a rate schedule) run at once in its float64 arithmetic
(`_learners`, ``arithmetic="sklearn"``), so its defaults get a diagnosis naming them, and an accepted
departure changes the reference the check compares with."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from ..data.dataset import Dataset
from ..notes.conventions import Convention
from ._evidence import Observation
from ._exact import Vector
from ._learners import Spec, run

#: The departures a configuration model makes, by their `--accept` names.
MODELLED = ("shuffle", "tol", "penalty", "learning_rate", "class_weight")


def departures(params: dict[str, Any]) -> dict[str, dict[str, Any]] | None:
    """The modelled departures of a scikit-learn SGD configuration, each with the `Spec` fields it sets; None
    when the configuration is not one (or has a departure this model cannot make: unseeded shuffling, a
    validation split, averaging, no intercept, another loss, an adaptive rate)."""
    if not {"eta0", "penalty", "shuffle", "max_iter"} <= params.keys():
        return None
    if params.get("loss", "perceptron") != "perceptron" or params.get("early_stopping") or params.get("average") \
            or params.get("fit_intercept") is False:
        return None
    found: dict[str, dict[str, Any]] = {}
    weights = params.get("class_weight")
    if weights == "balanced":
        found["class_weight"] = {"class_weight": "balanced"}
    elif isinstance(weights, tuple) and len(weights) == 2:  # a dict's sorted (class, weight) pairs
        (_, low), (_, high) = weights  # scikit-learn's classes sorted: the negative one first
        found["class_weight"] = {"class_weight": (float(low), float(high))}
    elif weights is not None:
        return None
    if params.get("shuffle"):
        if not isinstance(params.get("random_state"), int):
            return None
        found["shuffle"] = {"random_state": params["random_state"]}
    if isinstance(params.get("tol"), float):
        found["tol"] = {"stop": (params["tol"], int(params.get("n_iter_no_change", 5)))}
    if params.get("penalty") not in (None, "none") and float(params.get("alpha", 0)) > 0:
        found["penalty"] = {"penalty": params["penalty"], "alpha": float(params["alpha"]),
                            "l1_ratio": float(params.get("l1_ratio", 0.15))}
    rate = params.get("learning_rate", "constant")
    if rate in ("optimal", "invscaling"):
        found["learning_rate"] = {"schedule": rate, "power_t": float(params.get("power_t", 0.5))}
        if rate == "optimal":
            found["learning_rate"]["alpha"] = float(params.get("alpha", 0.0001))
    elif rate != "constant":
        return None
    return found


def spec(params: dict[str, Any], names: Sequence[str]) -> Spec | None:
    """The learner making the configuration's departures `names` (the others as the notes do)."""
    found = departures(params)
    if found is None or not set(names) <= found.keys():
        return None
    fields: dict[str, Any] = {"arithmetic": "sklearn", "step": float(params["eta0"])}
    for name in names:
        fields.update(found[name])
    return replace(Spec(), **fields)


def final(data: Dataset, conv: Convention, params: dict[str, Any], names: Sequence[str]) -> Vector | None:
    """The weights the configuration with departures `names` returns on `data` (None: not modelled)."""
    learner = spec(params, names)
    if learner is None or conv.name != "classic":
        return None
    result = run(data, conv, learner, int(params["max_iter"]))
    return result.final() if result.ends and result.stop != "overflow" else None


def smallest(observations: list[Observation], conv: Convention, params: dict[str, Any]) -> list[str] | None:
    """The fewest of the configuration's departures whose learner reproduces every observation exactly."""
    found = departures(params)
    if found is None or conv.name != "classic":
        return None
    names = list(found)
    for size in range(1, len(names) + 1):
        for chosen in itertools.combinations(names, size):
            if all(final(o.data, conv, params, chosen) == o.weights for o in observations):
                return list(chosen)
    return None


def describe(name: str, params: dict[str, Any]) -> tuple[str, dict[str, Any], str]:
    """The diagnosis code, parameters and phrase of one configuration departure."""
    if name == "shuffle":
        return "shuffled", {"random_state": params["random_state"], "seeded": True}, \
            f"shuffles the samples every epoch as scikit-learn does with random_state={params['random_state']}"
    if name == "tol":
        return "loss-stop", {"tol": params["tol"], "n_iter_no_change": params.get("n_iter_no_change", 5)}, \
            (f"stops once its mean loss has not fallen by tol={params['tol']!r} for n_iter_no_change="
             f"{params.get('n_iter_no_change', 5)} epochs in a row, converged or not")
    if name == "penalty":
        return "penalty", {"penalty": params["penalty"], "alpha": params["alpha"]}, \
            f"shrinks its weights at every step (penalty={params['penalty']!r}, alpha={params['alpha']!r})"
    if name == "class_weight":
        weights = params["class_weight"]
        shown = weights if weights == "balanced" else dict(weights)  # a dict's pairs (`check._plain_configuration`)
        how = "n / (2·n_class), the rarer class's steps the larger" if weights == "balanced" else "its class's weight"
        return "class-weight", {"class_weight": str(shown)}, f"multiplies each step by {how} (class_weight={shown!r})"
    schedule = params.get("learning_rate")
    return "decaying-rate", {"schedule": schedule, "eta0": params.get("eta0"), "power_t": params.get("power_t")}, \
        f"changes its rate at every step (learning_rate={schedule!r})"


def rate_of(params: dict[str, Any]) -> Fraction:
    return Fraction(float(params["eta0"]))
