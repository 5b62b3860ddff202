"""The harness's batch mode (``mode="batch"``, ``check --mode batch``): a batch implementation is compared with
note 003's exact batch run, its reported steps one by one; an online one checked as batch, or a batch one checked
as online, is diagnosed as such and the suggestion is checked before it is printed."""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import pytest

from tests.implementations import batch
from tests.implementations import perceptron
from verify_perceptron.errors import InvalidArgument
from verify_perceptron.harness import check_dataset, check_implementation
from verify_perceptron.harness._floats import _sums_exact
from verify_perceptron.harness._formats import render

EXAMPLES = 25


@pytest.mark.parametrize("fit", [batch.batch_perceptron, batch.batch_perceptron_reporting])
def test_a_correct_batch_perceptron_passes_in_batch_mode(fit: Any) -> None:
    result = check_implementation(fit, mode="batch", examples=EXAMPLES)
    assert result.passed, result.report()
    assert "batch mode: one step a pass" in result.report()


def test_a_correct_batch_perceptron_passes_on_exact_values_too() -> None:
    def exact(X: Any, y: Any) -> Any:
        w, b = [F(0)] * len(X[0]), F(0)
        for _ in range(1000):
            wrong = [i for i, x in enumerate(X) if y[i] * (sum(a * v for a, v in zip(w, x)) + b) <= 0]
            if not wrong:
                break
            w = [a + sum(y[i] * X[i][j] for i in wrong) for j, a in enumerate(w)]
            b += sum(y[i] for i in wrong)
        return w, b

    assert check_implementation(exact, mode="batch", dtype="fraction", examples=EXAMPLES).passed


@pytest.mark.parametrize("fit", [batch.batch_without_bias, batch.batch_one_pass_short])
def test_a_broken_batch_perceptron_fails_in_batch_mode(fit: Any) -> None:
    result = check_implementation(fit, mode="batch", examples=EXAMPLES)
    assert not result.passed
    assert result.counterexample is not None
    assert "agrees-with-reference" in {f.check for f in result.counterexample.findings}


def test_a_reported_step_under_a_sample_its_pass_got_right_is_named() -> None:
    case = check_dataset(batch.batch_reporting_a_right_sample, [["-3"], ["0"], ["-5"]], [-1, 1, -1], mode="batch")
    texts = [f.message for f in case.findings if f.check == "agrees-with-reference"]
    assert texts and "do not misclassify" in texts[0], case.report()


def test_a_wrong_reported_step_breaks_the_rule_and_is_found_by_the_invariants() -> None:
    def doubled_first_step(X: Any, y: Any) -> Any:
        w, b, steps = batch.batch_perceptron_reporting(X, y)
        (i, (w1, b1)), *rest = steps
        return w, b, [(i, (2 * w1, 2 * b1)), *rest]

    case = check_dataset(doubled_first_step, [["-3"], ["0"], ["-5"]], [-1, 1, -1], mode="batch")
    checks = {f.check for f in case.findings}
    assert "agrees-with-reference" in checks and "update-rule" in checks, case.report()
    good = check_dataset(batch.batch_perceptron_reporting, [["-3"], ["0"], ["-5"]], [-1, 1, -1], mode="batch")
    assert good.passed, good.report()


def test_an_online_perceptron_checked_as_batch_is_diagnosed_online() -> None:
    result = check_implementation(perceptron, mode="batch", examples=EXAMPLES)
    assert not result.passed and result.counterexample is not None
    diagnosis = result.counterexample.diagnoses[0]
    assert diagnosis.code == "online-mode", result.report()
    assert diagnosis.parameters["passes_with"] == "--mode online"


def test_a_batch_perceptron_checked_as_online_is_diagnosed_batch_and_the_suggestion_checked() -> None:
    result = check_implementation(batch.batch_perceptron, examples=EXAMPLES)
    assert not result.passed and result.counterexample is not None
    diagnosis = result.counterexample.diagnoses[0]
    assert diagnosis.code == "batch-mode", result.report()
    assert diagnosis.parameters["passes_with"] == "--mode batch"
    assert '"mode": "online"' in render(result, "json")


@pytest.mark.slow  # a full search of combinations; test_batch_scaled's step over k + 1 guards the batch models too
def test_a_batch_run_the_exact_batch_run_does_not_explain_is_not_called_batch() -> None:
    case = check_dataset(batch.batch_without_bias, [["-3"], ["0"], ["-5"]], [-1, 1, -1])
    assert not case.passed and case.diagnoses and case.diagnoses[0].code != "batch-mode", case.report()
    assert check_dataset(batch.batch_perceptron, [["-3"], ["0"], ["-5"]], [-1, 1, -1]).diagnoses[0].code == "batch-mode"


def test_a_batch_steps_partial_sums_must_hold_in_53_bits() -> None:
    big = F(2**52 + 1)
    rows = [((F(1, 2),), 2), ((F(-(2**52)),), 1)]
    # (2^52 + 1) + 1/2 needs 54 bits: float64 rounds that partial sum although the step's end, 3/2, holds
    assert not _sums_exact([big], rows, 1, 2**53)
    assert _sums_exact([F(1)], rows[:1], 1, 2**53)
    assert _sums_exact([F(2**50)], rows, 1, 2**53) is False  # 2^50 + 2^52 + 1/2 on the grid 1/2: 2^53.3
    assert _sums_exact([F(3)], [((F(1, 2),), 2), ((F(-5),), 1)], 1, 2**53)


@pytest.mark.parametrize("settings, named", [
    ({"mode": "sideways"}, "mode='sideways'"),
    ({"mode": "batch", "averaged": True}, "averaged=True"),
    ({"mode": "batch", "accept_departures": ["shuffle"]}, "accept_departures"),
    ({"mode": "batch", "accept_departures": ["float-rate", "tol"]}, "only 'float-rate'.*'printed-rounding'"),
])
def test_bad_batch_settings_are_refused_by_name(settings: dict[str, Any], named: str) -> None:
    with pytest.raises(InvalidArgument, match=named):
        check_implementation(batch.batch_perceptron, examples=1, **settings)
