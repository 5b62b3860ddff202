"""What a diagnosis suggests declaring: the options under which the implementation would be checked as
what it is (another convention, labels, a float rate, an epoch limit, an average, accepted departures).

A suggestion is only a candidate: the case prints it ("it passes with ...") only after running the
check under those options on the same datasets and on a fresh batch, and seeing it pass (`_case`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..data.exact_text import nearest_float
from ._options import CheckOptions
from ._results import Diagnosis
from ._tokens import flags

#: Conventions that declare a tie rule.
_TIES = {"tie-plus": "hard-limiter-plus", "tie-minus": "hard-limiter"}


def _one(code: str, parameters: dict[str, Any], options: CheckOptions) -> dict[str, Any] | None:
    """The option overrides that declare one cause, or None when no option does."""
    if code == "other-convention":
        return {"convention": parameters["convention"]}
    if code == "label-encoding":
        if "labels" not in parameters:  # labels of its own it was not given: none to declare
            return None
        rate = {"eta": Fraction(str(parameters["rate"])), "accept_departures": ("float-rate",)} \
            if "rate" in parameters else {}
        tokens = {"classes": tuple(parameters["classes"])} if "classes" in parameters else {}
        return {"labels": parameters["labels"], "convention": parameters["convention"], **rate, **tokens}
    if code in _TIES:
        return {"convention": _TIES[code]}
    if code == "float-rounding" and parameters.get("precision") == "float32" and "rate" in parameters:
        return {"eta": Fraction(str(parameters["rate"])), "accept_departures": ("float32",),
                **({"convention": parameters["convention"]} if parameters.get("convention") != options.convention
                   else {})}
    if code == "float-rounding" and "rate" in parameters and ("float-rate" not in options.accept_departures
                                                               or "convention" in parameters):
        return {"eta": Fraction(str(parameters["rate"])), "accept_departures": ("float-rate",),
                **({"convention": parameters["convention"]} if "convention" in parameters else {}),
                **({"max_epochs": parameters["epochs"]} if "epochs" in parameters else {})}
    if code == "float-rate" and "rate" in parameters:
        double = nearest_float(Fraction(str(parameters["rate"])))
        return None if double is None else {"eta": Fraction(double), "accept_departures": ("float-rate",)}
    if code == "batch-mode" and parameters.get("float64"):  # note 003's batch run in float64 at the rate it shows
        double = nearest_float(Fraction(str(parameters["rate"])))
        accepted = ("float-rate", "printed-rounding") if parameters.get("printed") else ("float-rate",)
        ruled = {"convention": parameters["convention"]} if parameters.get("convention") != options.convention else {}
        return None if double is None else {"mode": "batch", "eta": Fraction(double), "accept_departures": accepted,
                                            **ruled}
    if code in ("batch-mode", "online-mode"):
        return {"mode": parameters["mode"]}
    if code == "epoch-cap":
        return {"max_epochs": parameters["epochs"]}
    if code == "averaged":
        return {"averaged": parameters.get("over") or True,
                **({"max_epochs": parameters["epochs"]} if parameters.get("epochs") else {})}
    if code in ("shuffled", "loss-stop", "penalty", "decaying-rate", "class-weight") and "configuration" in parameters:
        return {"accept_departures": tuple(parameters["configuration"])}
    return None


def suggestion(diagnosis: Diagnosis, options: CheckOptions) -> dict[str, Any] | None:
    """The overrides of `options` that declare every cause of `diagnosis`, or None when some cause has none."""
    parameters = diagnosis.parameters
    if diagnosis.code == "combination":
        if "configuration" in parameters:
            return {"accept_departures": tuple(dict.fromkeys((*options.accept_departures, *parameters["configuration"])))}
        merged: dict[str, Any] = {}
        for cause in parameters["causes"]:
            one = _one(cause["code"], {**cause["parameters"], **({"rate": parameters["rate"]} if cause["code"] == "float-rate" and "rate" in parameters else {})}, options)
            if one is None:
                return None
            accepted = merged.get("accept_departures", ()) + one.pop("accept_departures", ())
            merged.update(one)
            if accepted:
                merged["accept_departures"] = accepted
        return merged or None
    return _one(diagnosis.code, parameters, options)


def command_line(overrides: dict[str, Any], options: CheckOptions) -> str:
    """The ``check`` options that make `overrides` (those that differ from `options`)."""
    words = []
    if "convention" in overrides and overrides["convention"] != options.convention:
        words.append(f"--convention {overrides['convention']}")
    classes = overrides.get("classes", options.classes)
    if "labels" in overrides and (overrides["labels"], classes) != (options.labels, options.classes):
        words.append(flags(overrides["labels"], classes))
    if "eta" in overrides:
        words.append(f"--float-eta {nearest_float(overrides['eta'])!r}")
    if "mode" in overrides and overrides["mode"] != options.mode:
        words.append(f"--mode {overrides['mode']}")
    if overrides.get("averaged"):
        over = overrides["averaged"]
        words.append("--averaged" if over in (True, "presentations") else f"--averaged --average-over {over}")
    if "max_epochs" in overrides:
        words.append(f"--max-epochs {overrides['max_epochs']}")
    accepted = [a for a in overrides.get("accept_departures", ()) if a not in options.accept_departures]
    if accepted:
        words.append("--accept " + ",".join(dict.fromkeys((*options.accept_departures, *accepted))))
    return " ".join(words)


def applied(overrides: dict[str, Any], options: CheckOptions) -> dict[str, Any]:
    """`overrides` as `dataclasses.replace` arguments for `options` (accepted departures added to the given)."""
    fields = dict(overrides)
    if "averaged" in fields:  # True, or what the average runs over
        over = fields["averaged"]
        fields["averaged"], fields["average"] = True, over if isinstance(over, str) else "presentations"
    if "accept_departures" in fields:
        fields["accept_departures"] = tuple(dict.fromkeys((*options.accept_departures, *fields["accept_departures"])))
    return fields
