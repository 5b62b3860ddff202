"""The gallery of perceptrons as real code writes them (`tests.implementations.gallery`): the correct ones
pass, and each of the others fails with exactly its own diagnosis, found with the default settings where
the default is the point (an epoch cap of 50 and a tolerance of 1e-4 are found by the default 100 datasets)."""

from __future__ import annotations

import functools
import json
from typing import Any, TypedDict

import pytest

from tests.implementations import gallery
from verify_perceptron.harness import HarnessResult, check_implementation, run_check_command
from verify_perceptron.notes.conventions import CONVENTIONS

#: Cases checked with fewer datasets than the default: their failure shows on the first ones.
class Quick(TypedDict, total=False):
    """check_implementation's settings for the gallery's cases that do not need its defaults."""

    examples: int


QUICK: Quick = {"examples": 30}
DEFAULTS = ("Capped50", "Tolerant")


def _target(name: str) -> Any:
    return getattr(gallery, name.split(" ")[0])


@functools.lru_cache(maxsize=None)
def verdict(name: str) -> HarnessResult:
    options, _ = gallery.CASES[name]
    if "convention" in options and options["convention"] not in CONVENTIONS:
        pytest.skip(f"convention {options['convention']} is not defined")
    return check_implementation(_target(name), **options, **({} if name in DEFAULTS else QUICK))


@pytest.mark.parametrize("name", [n for n, (_, code) in gallery.CASES.items() if code is None])
def test_correct_implementations_pass_with_no_diagnosis(name: str) -> None:
    result = verdict(name)
    assert result.passed, result.report()
    assert result.diagnoses == () and "diagnosis" not in result.report()


#: The departures whose check takes longest (a full search of combinations): in the slow suite.
SLOW = ("Tolerant",)


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n
                                  for n, (_, code) in gallery.CASES.items() if code is not None])
def test_each_departure_gets_its_own_diagnosis(name: str) -> None:
    result = verdict(name)
    assert not result.passed
    assert [d.code for d in result.diagnoses] == [gallery.CASES[name][1]], result.report()


def test_the_parameters_found_are_the_implementations_own() -> None:
    assert verdict("Capped50").diagnoses[0].parameters["epochs"] == 50
    assert verdict("AveragedPerceptron").diagnoses[0].parameters["epochs"] == 10
    seeded, unseeded = (verdict(n).diagnoses[0].parameters for n in ("RandomStartSeeded", "RandomStartUnseeded"))
    assert seeded["seeded"] is True and unseeded["seeded"] is False
    assert verdict("ZeroOneLabels").diagnoses[0].parameters["labels"] == "0/1"
    assert verdict("fit_correct under hard-limiter").diagnoses[0].parameters["convention"] == "classic"


@pytest.mark.slow  # Tolerant's check runs a full search of combinations, as its diagnosis test in SLOW does
def test_the_tolerance_found_is_the_implementations_own() -> None:
    from fractions import Fraction

    tolerance = verdict("Tolerant").diagnoses[0].parameters
    assert tolerance["decimal"] == "1e-4"
    assert Fraction(str(tolerance["at_least"])) <= Fraction(1, 10**4) < Fraction(str(tolerance["below"]))


def test_the_json_gives_each_diagnosis_as_a_code() -> None:
    code, text = run_check_command("tests.implementations.gallery:Capped50", format="json")
    record = json.loads(text)
    assert code == 1 and record["diagnosis"]["code"] == "epoch-cap"
    assert record["diagnosis"]["parameters"]["epochs"] == 50 and record["also_consistent"] == []
