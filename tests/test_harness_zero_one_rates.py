"""A hard limiter's η·(d - y) as textbook code writes it on labels 0/1 (Raschka's later editions, most course
code): d - y is ±1 there, so its steps are η, half the note's 2η on labels ±1. Declared with its own rate it
passes; at its default settings the check names the labels, the convention and the rate it runs at."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from verify_perceptron.harness import check_dataset
from tests.implementations.textbooks import RaschkaLater

#: A dataset on which float64 at rate 0.01 ends away from the exact run's weights times any factor.
X = [["1"], ["3/2"]]
RATE = str(Fraction(0.01))  # the double 0.01, as diagnoses write a rate


class PlusMinusOne:
    """The same rule on labels ±1 (Raschka's first edition, run to convergence): steps of 2η."""

    def __init__(self, eta: float) -> None:
        self.eta = eta

    def fit(self, X: Any, y: Any) -> PlusMinusOne:
        self.w_ = np.zeros(1 + X.shape[1])
        for _ in range(1000):
            errors = 0
            for xi, target in zip(X, y):
                update = self.eta * (target - (1 if np.dot(xi, self.w_[1:]) + self.w_[0] >= 0.0 else -1))
                self.w_[1:] += update * xi
                self.w_[0] += update
                errors += int(update != 0.0)
            if errors == 0:
                break
        return self


def test_zero_one_code_passes_at_the_rate_it_was_written_with() -> None:
    def check(target: Any, y: list[int], labels: str, eta: float) -> Any:
        return check_dataset(target, X, y, labels=labels, convention="hard-limiter-plus", eta=eta,
                             accept_departures=("float-rate",))

    assert check(RaschkaLater(eta=0.01), [0, 1], "0/1", 0.01).passed
    wrong = check(RaschkaLater(eta=0.01), [0, 1], "0/1", 0.02)
    assert not wrong.passed and "agrees-with-reference" in [f.check for f in wrong.findings]
    # on labels ±1 the same rule steps by 2η, as the note's does: the declared rate is still the code's
    assert check(PlusMinusOne(eta=0.01), [-1, 1], "-1/+1", 0.01).passed


def test_declared_labels_and_convention_name_the_float_rate_the_code_uses() -> None:
    result = check_dataset(RaschkaLater(eta=0.01), X, [0, 1], labels="0/1", convention="hard-limiter-plus")
    diagnosis = result.diagnoses[0]
    assert (diagnosis.code, diagnosis.parameters["rate"]) == ("float-rounding", RATE)
    assert diagnosis.parameters["passes_with"] == "--float-eta 0.01 --accept float-rate"


def test_at_the_defaults_the_labels_and_the_rate_are_named_and_pass_when_declared() -> None:
    diagnosis = check_dataset(RaschkaLater(eta=0.01), X, [-1, 1]).diagnoses[0]
    assert diagnosis.code == "label-encoding"
    assert (diagnosis.parameters["labels"], diagnosis.parameters["rate"]) == ("0/1", RATE)
    # (one dataset and its neighbours may not tell the tie rules apart: the convention named is one they fit)
    convention = diagnosis.parameters["convention"]
    assert "--float-eta 0.01 --accept float-rate" in diagnosis.text
    assert check_dataset(RaschkaLater(eta=0.01), X, [0, 1], labels="0/1", convention=convention, eta=0.01,
                         accept_departures=("float-rate",)).passed


def test_declared_labels_alone_find_the_tie_rule_and_the_rate_together() -> None:
    # classic left as the convention: note 001's tie rule run in float64 (the float models try each note's rule)
    # steps by η on labels 0/1 as well; before they did, the combination search named tie-plus and float-rate
    from verify_perceptron.harness import check_implementation

    result = check_implementation(RaschkaLater(eta=0.1), labels="0/1", examples=5)
    assert result.counterexample is not None
    diagnosis = result.counterexample.diagnoses[0]
    assert (diagnosis.code, diagnosis.parameters["convention"]) == ("float-rounding", "hard-limiter-plus")
    assert diagnosis.parameters["rate"] == str(Fraction(0.1))
    assert diagnosis.parameters["passes_with"] == "--convention hard-limiter-plus --float-eta 0.1 --accept float-rate"
