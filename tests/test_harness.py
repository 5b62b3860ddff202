"""The implementation harness: it passes what is correct and rejects what is broken, naming the fault.

The subjects are the gallery in `tests.implementations`: perceptrons written
the way people write them, correct ones and the classic ways coursework goes
wrong, each as ``fit(X, y) -> (w, b)`` and as a version that also reports its
updates. Every broken one must fail with a shrunk counterexample, the same one
on every run, whose report names what is wrong and reproduces from its printed
one-line command.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import settings

from tests.wall_clock import Stopwatch
from tests import implementations as gallery
from verify_perceptron.data.dataset import Dataset
from verify_perceptron.errors import DataError, InvalidArgument, InvariantViolation
from verify_perceptron.harness import (
    CaseResult,
    CheckOptions,
    Finding,
    FloatDecision,
    HarnessResult,
    ImplementationFailure,
    assert_implementation_correct,
    check_dataset,
    check_implementation,
    harness_settings,
    load_target,
    reference_fit,
    run_check_command,
)

ROOT = Path(__file__).resolve().parent.parent
FAST: dict[str, Any] = {"examples": 40}


def counterexample(result: HarnessResult) -> CaseResult:
    assert not result.passed, result.report()
    assert result.counterexample is not None
    return result.counterexample


def checks(case: CaseResult) -> list[str]:
    return [f.check for f in case.findings]


@functools.lru_cache(maxsize=None)
def gallery_result(name: str) -> HarnessResult:
    """The harness's verdict on a gallery implementation, with its labels (computed once per test run)."""
    base = name.removesuffix("_reporting")
    return check_implementation(getattr(gallery, name), labels=gallery.BROKEN[base]["labels"], worked_examples=False)


# --- correct implementations pass ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("perceptron", {}),
        ("perceptron_reporting", {}),
        ("half_rate_perceptron", {}),
        ("half_rate_perceptron_reporting", {"eta": "1/2"}),
        ("exact_perceptron", {"dtype": "fraction"}),
        ("exact_perceptron_reporting", {"dtype": "object"}),
        ("ClassicPerceptron", {}),
        ("sum_norm_perceptron", {"convention": "sum-norm"}),
        ("sum_norm_perceptron_reporting", {"convention": "003"}),
        ("zero_one_hard_limiter_reporting", {"convention": "hard-limiter", "labels": "0/1"}),
        ("detecting_perceptron", {"detects_nonseparable": True}),
    ],
)
def test_correct_implementations_pass(name: str, options: dict[str, Any]) -> None:
    result = check_implementation(getattr(gallery, name), **FAST, **options)
    assert result.passed, result.report()
    assert result.counterexample is None and result.n_examples == FAST["examples"]
    assert all(case.passed for case in result.worked_examples)
    assert "verdict: passed" in result.report()


def test_an_estimator_instance_is_cloned_for_every_dataset() -> None:
    estimator = gallery.ClassicPerceptron(max_epochs=500)
    assert check_implementation(estimator, **FAST).passed
    assert not hasattr(estimator, "coef_")  # the instance given was never fitted itself


def test_the_learning_rate_factor_is_inferred_and_reported() -> None:
    case = check_dataset(gallery.half_rate_perceptron_reporting, [["0", "0"], ["0", "1"], ["1", "0"], ["1", "1"]],
                         [0, 0, 0, 1])
    assert case.passed and case.factor == Fraction(1, 2) and case.n_updates == 18
    assert case.weights == (Fraction(-2), Fraction(3, 2), Fraction(1))


def test_a_correct_float_implementation_never_fails_on_the_harness_data() -> None:
    result = check_implementation(gallery.perceptron_reporting, examples=120, seed=7, worked_examples=False)
    assert result.passed, result.report()


# --- the gallery of broken implementations: each fails, minimal, naming the fault -------------------------

# name -> (what the report of the function form must say, what the reporting form's must say)
NAMED = {
    "strict_negative": ("counts a mistake only when the score is strictly on the wrong side",
                        "stopped after 0 updates, but the exact run goes on"),
    "forgets_bias": ("never moves the bias weight", "the bias weight w0 did not move"),
    "zero_one_labels": ("uses the 0/1 label as the update's sign",
                        "they did not move at all (the 0/1 label 0 used as the update's sign?)"),
    "fixed_epochs": ("the classic perceptron capped at 3 epochs",
                     "the implementation stopped after 5 updates, but the exact run goes on"),
    "wrong_sign": ("moves the weights the wrong way (w -= η·y·x~), which never converges",
                   "the opposite sign (w -= η·y·x~ instead of w += η·y·x~)"),
    "skips_last_sample": ("never presents the last sample", "never presents the last sample"),
    "skips_first_sample": ("never presents the first sample", "never presents the first sample"),
    "shuffles": ("another order in each epoch", "the samples are presented in order and 0 comes first"),
    "best_so_far": ("the weights of best training accuracy met so far", "are not the weights after the last reported update"),
    "bias_wrong_sign": ("moves the bias weight the wrong way", "the bias weight w0 moved the wrong way"),
    "rate_on_bias_only": ("(rate 1/2 (≈ 0.5) on the bias)", "the bias weight w0 moved 1/2 (≈ 0.5) times the rule's step"),
    "integer_weights": ("keeps its weights as integers", "whole numbers where the rule gives fractions"),
}


#: The diagnosis each must get, and no other: the one cause that reproduces it on every dataset tried.
DIAGNOSED = {"strict_negative": "ties-not-mistakes", "forgets_bias": "no-bias-update", "zero_one_labels": "labels-0-1",
             "fixed_epochs": "epoch-cap", "wrong_sign": "wrong-sign", "skips_last_sample": "skips-last-sample",
             "skips_first_sample": "skips-first-sample",
             "shuffles": "shuffled", "best_so_far": "best-so-far", "bias_wrong_sign": "bias-wrong-sign",
             "rate_on_bias_only": "bias-rate", "integer_weights": "integer-weights"}


def test_every_broken_implementation_of_the_gallery_is_tested() -> None:
    assert set(NAMED) == set(gallery.BROKEN) == set(DIAGNOSED)


@pytest.mark.parametrize("form", ["", "_reporting"])
@pytest.mark.parametrize("name", sorted(DIAGNOSED))
def test_each_broken_implementation_gets_exactly_its_own_diagnosis(name: str, form: str) -> None:
    result = gallery_result(name + form)
    assert [d.code for d in result.diagnoses] == [DIAGNOSED[name]], result.report()
    assert result.counterexample is not None and result.counterexample.notes[0].startswith("diagnosis: ")


@pytest.mark.parametrize("form", ["", "_reporting"])
@pytest.mark.parametrize("name", sorted(NAMED))
def test_broken_implementation_fails_with_a_minimal_counterexample_naming_the_fault(name: str, form: str) -> None:
    labels = gallery.BROKEN[name]["labels"]
    case = counterexample(gallery_result(name + form))
    assert case.name == "generated"
    assert case.data.n_features <= 2 and case.data.n_samples <= 3
    assert all(abs(v) <= 4 for x in case.data.X for v in x)
    expected = NAMED[name][1 if form else 0]
    assert expected in case.report(), case.report()
    if form:  # the reported updates are checked one by one: the first divergence is named
        assert "agrees-with-reference" in checks(case) or "reported-updates" in checks(case)
    # 1-minimal: without any one sample the data pass (or are no longer a usable dataset)
    for i in range(case.data.n_samples):
        X = [[str(v) for v in x] for j, x in enumerate(case.data.X) if j != i]
        y = [label for j, label in enumerate(case.data.y) if j != i]
        try:
            smaller = check_dataset(getattr(gallery, name + form), X, y, labels=labels)
        except (DataError, InvalidArgument):
            continue
        assert smaller.passed, smaller.report()


def test_the_counterexample_is_the_same_on_every_run() -> None:
    again = check_implementation(gallery.shuffles, labels="-1/+1", worked_examples=False)
    assert again.report() == gallery_result("shuffles").report()


def test_the_counterexample_does_not_depend_on_the_loaded_hypothesis_profile() -> None:
    expected = gallery_result("forgets_bias").report()
    previous = getattr(settings, "_current_profile", None) or "default"
    settings.register_profile("harness-test-other", max_examples=3, derandomize=False, database=None)
    settings.load_profile("harness-test-other")
    try:
        assert check_implementation(gallery.forgets_bias, worked_examples=False).report() == expected
    finally:
        settings.load_profile(previous)


def test_the_printed_reproduction_reproduces_the_failure() -> None:
    case = counterexample(gallery_result("shuffles_reporting"))
    command = case.reproduction()
    assert command.startswith('python -c "') and "tests.implementations:shuffles_reporting" in command
    code = command[len('python -c "'):-1]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    first, *rest = case.report().splitlines()
    assert first.startswith("generated: ") and out.splitlines() == [first.replace("generated", "given dataset"), *rest]


def test_the_report_prints_the_dataset_as_exact_literals() -> None:
    case = counterexample(gallery_result("integer_weights"))
    literals = case.literals()
    namespace: dict[str, Any] = {}
    exec(literals, namespace)  # noqa: S102 - the report's own text
    X, y = namespace["X"], namespace["y"]
    assert [[Fraction(v) for v in row] for row in X] == [list(x) for x in case.data.X]
    assert y == list(case.data.y)


# --- what each check says -----------------------------------------------------------------------------------


def test_a_tie_missed_is_named_with_its_exact_score() -> None:
    case = check_dataset(gallery.strict_negative_reporting, [["-1"], ["1"]], [-1, 1])
    assert checks(case) == ["final-weights-separate", "agrees-with-reference"]
    assert case.findings[1].update == 1 and case.findings[1].sample == 0
    assert ("sample 0 (epoch 1) scores w·x~ = 0, a mistake under classic (y·(w·x~) = 0 <= 0: a score of exactly 0 "
            "is a mistake under this rule)") in case.findings[1].message


def test_an_update_that_breaks_the_rule_fails_the_checkers_invariants() -> None:
    case = check_dataset(gallery.wrong_sign_reporting, [["-1"], ["1"]], [-1, 1])
    found = set(checks(case))
    assert {"update-rule", "upper-bound", "mistake-bound"} <= found
    rule = next(f for f in case.findings if f.check == "update-rule")
    assert "(the step is [1, -1], the rule gives [-1, 1])" in rule.message and rule.update == 1


def test_the_mistake_bound_is_checked_against_the_reported_updates() -> None:
    case = check_dataset(gallery.bias_wrong_sign_reporting, [["-1"], ["1"]], [-1, 1])
    bound = next(f for f in case.findings if f.check == "mistake-bound")
    assert bound.message.endswith("N was 3, bound was 2")


def test_an_implementation_that_raises_fails_with_its_error() -> None:
    def broken(X: object, y: object) -> object:
        raise ZeroDivisionError("division by zero")

    case = counterexample(check_implementation(broken, **FAST))
    assert case.findings == (Finding("returns-weights", "on these data the implementation raised ZeroDivisionError: "
                                     "division by zero"),)


@pytest.mark.parametrize(
    ("returned", "message"),
    [
        ((np.array([np.nan]), 0.0), "the returned weights: w[0]=nan is not a finite number"),
        ((np.array([1.0, 2.0]), 0.0), "the returned weights: w has 2 values for 1 features"),
        ((np.array([1.0]), [0.0, 1.0]), "the returned weights: b has 2 values, not 1"),
        ("w", "the returned weights is 'w', neither (w, b) nor a weight vector"),
        # a number has no len(): it was "the implementation raised TypeError" (found by mypy, issue 33)
        (5, "the returned weights is 5, neither (w, b) nor a weight vector"),
        (np.array(2.5), "the returned weights is array(2.5), neither (w, b) nor a weight vector"),
        ([1.0, 2.0, 3.0], "the returned weights has 3 values; classic needs 2: w0, w1"),
    ],
)
def test_malformed_weights_are_named(returned: object, message: str) -> None:
    case = check_dataset(lambda X, y: returned, [["-1"], ["1"]], [-1, 1])
    assert case.findings == (Finding("returns-weights", message),)


def test_returning_none_without_claiming_detection_is_a_failure() -> None:
    case = check_dataset(lambda X, y: None, [["-1"], ["1"]], [-1, 1])
    assert case.findings == (Finding("returns-weights", "returned None instead of weights"),)


def test_a_call_that_does_not_return_in_time_is_stopped() -> None:
    def slow(X: object, y: object) -> object:
        time.sleep(5)
        return [0.0], 0.0

    with Stopwatch() as watch:
        case = check_dataset(slow, [["-1"], ["1"]], [-1, 1], call_timeout=0.2)
    assert watch.within(0.2, 2.8), watch
    assert case.findings == (Finding("returns-weights", "on these data the implementation did not return within "
                                     "call_timeout=0.2 s"),)


def test_printing_and_warnings_of_the_implementation_are_captured() -> None:
    import warnings

    def chatty(X: object, y: object) -> object:
        print("epoch 1")
        warnings.warn("did not converge", RuntimeWarning)
        return gallery.perceptron(X, y)

    case = check_dataset(chatty, [["-1"], ["1"]], [-1, 1])
    assert case.passed and case.notes == ("the implementation warned: RuntimeWarning: did not converge",)


def test_a_declared_learning_rate_is_held_to() -> None:
    case = check_dataset(gallery.half_rate_perceptron, [["-1"], ["1"]], [-1, 1], eta=1)
    assert checks(case) == ["agrees-with-reference"]
    assert "they are 1/2 times them, not 1 (the declared learning rate)" in case.findings[0].message


def test_a_rate_the_note_forbids_is_reported() -> None:
    case = check_dataset(gallery.perceptron, [["-1"], ["1"]], [-1, 1], convention="hard-limiter", eta=2)
    assert "agrees-with-reference" in checks(case)
    unit_ball = check_dataset(gallery.half_rate_perceptron, [["-1"], ["1"]], [-1, 1], convention="unit-ball")
    assert checks(unit_ball) == ["learning-rate"]
    assert "note 002 (unit-ball) has no learning rate" in unit_ball.findings[0].message


def test_the_wrong_convention_is_caught() -> None:
    case = counterexample(check_implementation(gallery.perceptron, convention="hard-limiter", **FAST))
    assert "agrees-with-reference" in checks(case)


def test_data_a_float_implementation_cannot_hold_are_rounded_and_say_so() -> None:
    case = check_dataset(gallery.perceptron, [["1/3"], ["-1"]], [1, -1])
    assert case.data.X[0][0] == Fraction.from_float(1 / 3)
    assert case.notes[0].startswith("float64 cannot hold every value; the data checked are the doubles the "
                                    "implementation got: X[0][0] = 1/3 became 6004799503160661/18014398509481984")


# --- non-separable data ----------------------------------------------------------------------------------------


def test_an_implementation_claiming_detection_must_signal_nonseparable_data() -> None:
    case = counterexample(check_implementation(gallery.perceptron, detects_nonseparable=True, **FAST))
    assert not case.separable and checks(case) == ["detects-nonseparable"]
    assert "Gordan's certificate λ = [1/2, 1/2]" in case.findings[0].message
    assert [[str(v) for v in x] for x in case.data.X] == [["0"], ["0"]]


def test_nonseparable_data_given_without_a_detection_claim_are_refused() -> None:
    with pytest.raises(InvalidArgument, match=re.escape("are not linearly separable (Gordan's certificate λ = "
                                                        "[1/4, 1/4, 1/4, 1/4]); pass detects_nonseparable=True")):
        check_dataset(gallery.perceptron, [[0, 0], [0, 1], [1, 0], [1, 1]], [0, 1, 1, 0])


def test_signalling_on_separable_data_is_a_failure() -> None:
    case = check_dataset(lambda X, y: None, [["-1"], ["1"]], [-1, 1], detects_nonseparable=True)
    assert checks(case) == ["detects-nonseparable"]
    assert "the weights [0, 2] (w0, w1) of the exact run separate them" in case.findings[0].message


def test_an_exception_can_be_the_nonseparable_signal() -> None:
    class NotSeparable(Exception):
        pass

    def fit(X: object, y: object) -> object:
        result = gallery.detecting_perceptron(X, y)
        if result is None:
            raise NotSeparable("cycle")
        return result

    assert check_implementation(fit, detects_nonseparable=NotSeparable, **FAST).passed
    xor = check_dataset(fit, [[0, 0], [0, 1], [1, 0], [1, 1]], [0, 1, 1, 0], detects_nonseparable=NotSeparable)
    assert xor.passed and not xor.separable


# --- floating point ----------------------------------------------------------------------------------------------


def test_rounding_stress_shows_float_rounding_explains_a_correct_float_implementation() -> None:
    case = counterexample(check_implementation(gallery.perceptron, rounding_stress=True, **FAST))
    assert any(note.startswith("float rounding: in that float64 run, update") for note in case.notes)
    assert case.notes[-1].endswith("is exactly the implementation's result: float rounding explains the difference "
                                   "from the exact run")


def test_a_decision_changed_by_float_rounding_is_located_exactly() -> None:
    def fit(X: object, y: object) -> object:  # the classic perceptron with η = 0.1 in float64
        X, y = np.asarray(X, dtype=float), np.asarray(y)
        w, b = np.zeros(X.shape[1]), 0.0
        for _ in range(1000):
            clean = True
            for i in range(len(X)):
                if y[i] * (X[i] @ w + b) <= 0:
                    w, b, clean = w + 0.1 * y[i] * X[i], b + 0.1 * y[i], False
            if clean:
                break
        return w, b

    case = check_dataset(fit, [[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 0, 1], eta=0.1)
    assert case.rounding == FloatDecision(9, 4, 2, Fraction(0), -2.7755575615628914e-17, True)
    assert ("first decides differently from the exact run at update 9 (epoch 4, sample 2): the exact score is 0 "
            "(a mistake), float64 computes -2.7755575615628914e-17 (not a mistake)") in case.report()


# --- scikit-learn, the real client ------------------------------------------------------------------------------


def test_scikit_learn_perceptron_passes_in_its_classic_configuration() -> None:
    linear_model = pytest.importorskip("sklearn.linear_model")
    classic = linear_model.Perceptron(shuffle=False, tol=None, eta0=1.0, alpha=0.0, max_iter=1000, fit_intercept=True)
    result = check_implementation(classic, examples=60)
    assert result.passed, result.report()
    assert result.target == ("sklearn.linear_model:Perceptron(alpha=0.0, shuffle=False, tol=None)")
    assert result.options.eta == 1 and result.options.max_epochs == 1000  # read from get_params()


def test_scikit_learn_defaults_report_each_departure() -> None:
    linear_model = pytest.importorskip("sklearn.linear_model")
    result = check_implementation(linear_model.Perceptron(), **FAST)
    assert [d.message.split(" ", 1)[0] for d in result.departures] == ["shuffle=True", "tol=0.001"]
    assert "stops once the training loss has not improved by tol·n_samples for n_iter_no_change=5" in result.report()
    assert counterexample(result).findings[0].check == "agrees-with-reference"
    accepted = check_implementation(linear_model.Perceptron(shuffle=False), accept_departures=["tol"], **FAST)
    assert not accepted.departures


def test_scikit_learn_with_an_inexact_learning_rate_is_explained() -> None:
    linear_model = pytest.importorskip("sklearn.linear_model")
    result = check_implementation(linear_model.Perceptron(shuffle=False, tol=None, eta0=0.1), **FAST)
    assert [d.message for d in result.departures] == [
        "eta0=0.1 is not exactly representable in binary floating point: the rate used is "
        "3602879701896397/36028797018963968, and every step η·y·x~ it scales may round"]
    case = counterexample(result)
    assert "float rounding explains the difference from the exact run" in case.report()


# --- front doors and settings --------------------------------------------------------------------------------------


def test_assert_variant_raises_an_assertion_error_with_the_report() -> None:
    with pytest.raises(ImplementationFailure) as raised:
        assert_implementation_correct(gallery.strict_negative, **FAST)
    assert isinstance(raised.value, AssertionError) and isinstance(raised.value, InvariantViolation)
    assert "verdict: FAILED" in str(raised.value) and 'X = [["-1"], ["1"]]' in str(raised.value)
    assert assert_implementation_correct(gallery.perceptron, **FAST).passed


def test_check_command_function_returns_exit_code_and_text() -> None:
    code, text = run_check_command("tests.implementations:perceptron", examples=20)
    assert code == 0 and "verdict: passed" in text
    code, text = run_check_command("tests.implementations:zero_one_labels", labels="0/1", examples=20)
    assert code == 1 and "verdict: FAILED" in text and "python -c" in text
    with pytest.raises(InvalidArgument, match="cannot import no_such_module"):
        run_check_command("no_such_module:fit")


def test_a_python_file_named_by_its_path_is_checked(tmp_path: Path) -> None:
    # "perceptron.py:fit", as users type it: the file imported under its own name, its folder first on the path
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "helpers_for_fit.py").write_text("STEP = 1\n", encoding="utf-8")
    (folder / "file_perceptron.py").write_text(
        "import numpy as np\nfrom helpers_for_fit import STEP\n\n\ndef fit(X, y):\n"
        "    X, y = np.asarray(X, dtype=float), np.asarray(y)\n    w, b = np.zeros(X.shape[1]), 0.0\n"
        "    for _ in range(1000):\n        clean = True\n        for xi, t in zip(X, y):\n"
        "            if t * (xi @ w + b) <= 0:\n                w, b, clean = w + STEP * t * xi, b + STEP * t, False\n"
        "        if clean:\n            break\n    return w, b\n", encoding="utf-8")
    code, text = run_check_command(f"{folder / 'file_perceptron.py'}:fit", examples=10)
    assert code == 0 and "verdict: passed" in text, text
    (folder / "random.py").write_text(  # a file named as a module already imported: that module stays
        (folder / "file_perceptron.py").read_text(encoding="utf-8"), encoding="utf-8")
    import random

    from verify_perceptron.harness._target import load_target

    try:
        fit = load_target(f"{folder / 'random.py'}:fit")
        assert callable(fit) and sys.modules["random"] is random and not hasattr(random, "fit")
    finally:  # (load_target put the file's folder first on this process's path)
        while str(folder) in sys.path:
            sys.path.remove(str(folder))
    with pytest.raises(InvalidArgument, match=r"no_such_file\.py is not a file"):
        run_check_command(f"{tmp_path / 'no_such_file.py'}:fit")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"dtype": "double"}, "dtype='double' must be one of float, fraction, object"),
        ({"labels": "2/2"}, "labels='2/2' must name two different labels, NEG/POS"),
        ({"labels": "1/01"}, "labels='1/01' must name two different"),
        ({"labels": "a,b/c"}, "labels='a,b/c' cannot hold a comma"),
        ({"labels": "R/M", "labels_as": "1/2"}, "labels_as='1/2' must be one of -1/+1, 0/1"),
        ({"eta": 0}, "eta=0 must be > 0"),
        ({"eta": "x"}, "eta='x'"),
        ({"examples": 0}, "examples=0 must be an integer >= 1"),
        ({"max_epochs": 0}, "max_epochs=0 must be an integer >= 1 or None"),
        ({"convention": "newton"}, "convention='newton' is not one of"),
        ({"rounding_stress": True, "dtype": "fraction"}, "rounding_stress=True needs dtype='float'"),
        ({"output": "dict"}, "output='dict' must be auto, pair or augmented"),
        ({"detects_nonseparable": "yes"}, "detects_nonseparable='yes' must be a bool or exception types"),
        ({"accept_departures": ["shufle"]}, "accept_departures: 'shufle' is not a departure the harness knows"),
        ({"accept_departures": "tol"}, "accept_departures='tol' must be a list of names, not one string"),
    ],
)
def test_bad_options_are_refused_naming_the_value(options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidArgument, match=re.escape(message)):
        check_implementation(gallery.perceptron, **options)


def test_an_epoch_limit_of_one_is_checked_not_refused() -> None:
    # it was refused at once (exit 2: "max_epochs=1 is too few for the check"); it now means a one-pass learner
    result = check_implementation(gallery.detecting_perceptron, max_epochs=1, examples=5)  # AND takes 6 epochs
    assert not result.passed and result.counterexample is not None  # it runs to convergence: not one pass
    assert result.counterexample.reference is not None and result.counterexample.reference.stop == "max-epochs"


def test_targets_load_by_module_and_name() -> None:
    assert load_target("tests.implementations:perceptron") is gallery.perceptron
    assert load_target("tests.implementations:ClassicPerceptron") is gallery.ClassicPerceptron
    with pytest.raises(InvalidArgument, match="has no attribute nothing"):
        load_target("tests.implementations:nothing")
    with pytest.raises(InvalidArgument, match="is neither a fit"):
        check_implementation(42)  # type: ignore[arg-type]  # deliberately no implementation: the check says so


def test_the_examples_are_shared_among_the_kinds_of_data() -> None:
    assert check_implementation(gallery.perceptron, examples=3, worked_examples=False).n_examples == 3
    assert check_implementation(gallery.perceptron, examples=12, worked_examples=False).n_examples == 12


def test_harness_settings_are_explicit_and_derandomized() -> None:
    s = harness_settings()
    assert (s.derandomize, s.database, s.deadline, s.max_examples) == (True, None, None, 100)
    assert harness_settings(seed=3).derandomize is False


def test_importing_the_harness_loads_no_hypothesis() -> None:
    code = "import sys, verify_perceptron.harness, verify_perceptron.harness.pytest_plugin; print('hypothesis' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert out.strip() == "False"


def test_results_are_immutable_records() -> None:
    case = check_dataset(reference_fit, [["-1"], ["1"]], [-1, 1], dtype="fraction")
    for record, field in ((case, "findings"), (case.options, "dtype"), (Finding("a", "b"), "check")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, field, None)
    assert isinstance(case.options, CheckOptions) and isinstance(case.data, Dataset)
