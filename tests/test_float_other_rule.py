"""Textbook code that predicts +1 at a score of 0 and steps by η·y at η = 0.1 (Java's and C's tutorials) is note
001's hard-limiter-plus rule at η/2, computed in float64. The float models tried the checked convention's rule only,
so at a float rate the check named nothing it could run, and the last probe called it code "written for labels 0/1"
(a wrong diagnosis); each note's rule is now tried in float64 too, in its own coordinates."""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import pytest

from verify_perceptron.harness import check_implementation


def _predicts_plus_at_ties(X: Any, y: Any) -> tuple[list[float], float]:
    """sign(w·x + b) with sign(0) = +1; on a wrong prediction w += 0.1·y·x, b += 0.1·y; until a clean epoch."""
    rows = [[float(v) for v in x] for x in X]
    w, b = [0.0] * len(rows[0]), 0.0
    for _ in range(1000):
        wrong = 0
        for x, t in zip(rows, y):
            s = b
            for wj, xj in zip(w, x):
                s += wj * xj
            if (1 if s >= 0 else -1) != t:
                w, b, wrong = [wj + 0.1 * t * xj for wj, xj in zip(w, x)], b + 0.1 * t, wrong + 1
        if not wrong:
            break
    return w, b


def test_another_rule_at_a_float_rate_is_named_with_its_options() -> None:
    result = check_implementation(_predicts_plus_at_ties, examples=30)
    assert [d.code for d in result.diagnoses] == ["float-rounding"], result.report()
    parameters = result.diagnoses[0].parameters
    assert (parameters["convention"], F(parameters["rate"])) == ("hard-limiter-plus", F(0.05))
    assert "labels 0/1" not in result.report()
    assert "it passes with --convention hard-limiter-plus --float-eta 0.05 --accept float-rate" in result.report()


def _zero_one_step_printed(X: Any, y: Any) -> tuple[list[float], float]:
    """Perl's and tutorials' 0/1 step rule: predict 1 when w·x + b > 0, else 0; w += 0.1·(d - prediction)·x; the
    weights printed as Perl prints a number (15 significant digits) and read back."""
    rows = [[float(v) for v in x] for x in X]
    w, b = [0.0] * len(rows[0]), 0.0
    for _ in range(1000):
        wrong = 0
        for x, t in zip(rows, y):
            s = b
            for wj, xj in zip(w, x):
                s += wj * xj
            step = 0.1 * (t - (1 if s > 0 else 0))
            if step:
                w, b, wrong = [wj + step * xj for wj, xj in zip(w, x)], b + step, wrong + 1
        if not wrong:
            break
    return [float(f"{v:.15g}") for v in w], float(f"{b:.15g}")


def test_another_rule_at_a_float_rate_printed_short_is_named() -> None:
    # it was "unexplained" (given labels 0/1), or "takes a header line" (given -1/+1): the printed float64 model
    # tried the checked convention's rule only, on labels -1/+1 only
    result = check_implementation(_zero_one_step_printed, labels="0/1", examples=30)
    assert [d.code for d in result.diagnoses] == ["printed-rounding"], result.report()
    parameters = result.diagnoses[0].parameters
    assert (parameters["convention"], parameters["format"], parameters["float64"]) == ("hard-limiter", "%.15g", True)
    assert "--convention hard-limiter --accept printed-rounding,float-rate --float-eta 0.1" in result.report()
    assert check_implementation(_zero_one_step_printed, labels="0/1", convention="hard-limiter", eta=F(0.1),
                                accept_departures=("printed-rounding", "float-rate"), examples=30).passed


def _fixed_epochs(X: Any, y: Any, bias_rate: float = 0.01) -> tuple[list[float], float]:
    """JavaScript's and Java's tutorial class: 50 epochs, no early stop, sign(0) = +1, w += 0.01·y·x on a wrong
    prediction (the bias by `bias_rate`·y)."""
    rows = [[float(v) for v in x] for x in X]
    w, b = [0.0] * len(rows[0]), 0.0
    for _ in range(50):
        for x, t in zip(rows, y):
            s = b
            for wj, xj in zip(w, x):
                s += wj * xj
            if (1 if s >= 0 else -1) != t:
                w, b = [wj + 0.01 * t * xj for wj, xj in zip(w, x)], b + bias_rate * t
    return w, b


def test_another_rule_at_a_float_rate_for_a_fixed_count_of_epochs_is_named() -> None:
    # it was "expects labels 0/1" (that code never moves on labels 0/1, as the strict rule does not either)
    result = check_implementation(_fixed_epochs, examples=15)
    assert [d.code for d in result.diagnoses] == ["float-rounding"], result.report()
    parameters = result.diagnoses[0].parameters
    assert (parameters["convention"], F(parameters["rate"]), parameters["epochs"]) == ("hard-limiter-plus", F(0.005), 50)
    assert "--convention hard-limiter-plus --float-eta 0.005 --max-epochs 50 --accept float-rate" in result.report()


@pytest.mark.slow
def test_code_that_never_moves_on_the_other_labels_is_not_said_to_expect_them() -> None:
    # given labels 0/1 it stays at w = 0 (a class-0 mistake steps by 0·x; a score of 0 predicts class 1), as the
    # strict rule does: "it expects labels 0/1" was said of it; now the search goes on (and finds nothing known)
    from functools import partial

    from verify_perceptron.harness import check_dataset

    case = check_dataset(partial(_fixed_epochs, bias_rate=0.03), [["1"], ["2"]], [-1, 1])
    assert not case.passed and "label-encoding" not in [d.code for d in case.diagnoses], case.report()
