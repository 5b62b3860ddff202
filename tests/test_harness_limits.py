"""The harness at the edges of the numbers: rates and data that no double holds, values past Python's
4,300-digit int-to-string limit, time limits past any timer, configuration values that neither print nor
compare. Each is a clear `InvalidArgument` before the check, or a verdict shown in every format: never an
OverflowError or a ValueError from a conversion (issue 27)."""

from __future__ import annotations

import json
from fractions import Fraction
from xml.etree import ElementTree

import pytest

from tests.implementations import exact_perceptron, hostile, perceptron
from verify_perceptron.data.exact_text import exact_text
from verify_perceptron.errors import InvalidArgument
from verify_perceptron.harness import check_dataset, check_implementation, run_check_command
from verify_perceptron.harness._formats import render
from verify_perceptron.notes.conventions import get_convention

TIE = ([["-1"], ["1"]], [-1, 1])
#: p/q with a 1,000-digit numerator: 3.3e998, past every double.
FAR = "1" + "0" * 999 + "/3"


@pytest.mark.parametrize(("eta", "where"), [("1e400", "is beyond the largest double"),
                                             ("1e-400", "is below the least positive double"),
                                             (FAR, "is beyond the largest double")])
def test_a_rate_no_double_holds_is_refused_under_float_before_anything_runs(eta: str, where: str) -> None:
    with pytest.raises(InvalidArgument, match=f"{where}.*dtype 'fraction' or 'object'"):
        run_check_command("no_such_module_is_imported:fit", eta=eta)  # refused before the target is loaded


@pytest.mark.parametrize("eta", ["1e400", "1e-400", FAR])
def test_a_rate_no_double_holds_is_checked_exactly_as_fractions(eta: str) -> None:
    case = check_dataset(exact_perceptron, *TIE, dtype="fraction", eta=eta)  # it runs at rate 1: the rate is wrong
    assert [f.check for f in case.findings] == ["agrees-with-reference"]


def test_data_past_the_doubles_are_refused_under_float_and_tiny_ones_become_0() -> None:
    with pytest.raises(InvalidArgument, match=r"X\[1\]\[0\] ≈ -3e\+400 is beyond the largest double"):
        check_dataset(perceptron, [["1"], ["-3e400"]], [1, -1])
    case = check_dataset(perceptron, [["1e-400"], ["-1"]], [1, -1])
    assert case.notes[0].endswith(f"X[0][0] = {exact_text(Fraction(1, 10**400))} became 0")


def test_a_rate_past_the_doubles_read_off_the_weights_is_diagnosed_without_a_float() -> None:
    # Its first reported step gives the factor 10^400, which the float64 model was once run at (OverflowError).
    case = check_dataset(hostile.far_rate_last_update_unreported, *TIE)
    assert [f.check for f in case.findings] == ["reported-updates", "agrees-with-reference"] and case.diagnoses


def test_a_float64_run_that_overflows_has_no_final_weights() -> None:
    from verify_perceptron.data.dataset import from_arrays
    from verify_perceptron.harness._floats import _float_run, _rounding_notes

    data = from_arrays([["-1e300"], ["1e300"]], [-1, 1])
    classic = get_convention("classic")
    final, _, why = _float_run(data, classic, Fraction(2**1000), 100)  # a double: 2^1000·10^300 is not
    assert final is None and why is not None and "overflows" in why
    first, notes = _rounding_notes(data, classic, (Fraction(0), Fraction(1)), Fraction(2**1000), 100)
    assert first is None and notes and "ends early" in notes[0]


@pytest.mark.parametrize(("target", "options"), [(hostile.huge_multiple, {"eta": "1"}),
                                                 (hostile.huge_wrong, {"dtype": "fraction"})])
def test_values_past_the_int_string_limit_are_shown_in_every_format(target: object, options: dict[str, str]) -> None:
    result = check_implementation(target, examples=3, **options)  # type: ignore[arg-type]
    assert not result.passed and result.counterexample is not None
    weights = [exact_text(w) for w in result.counterexample.weights or ()]
    assert max(len(w) for w in weights) > 4300
    assert weights[-1] in render(result, "text")
    assert json.loads(render(result, "json"))["counterexample"]["weights"] == weights
    ElementTree.fromstring(render(result, "junit"))


def test_configuration_values_that_neither_print_nor_compare_are_named() -> None:
    code, text = run_check_command("tests.implementations.hostile:OddParams", examples=3)
    assert code == 1
    assert "tol=(an integer of 5001 digits) stops once" in text
    assert "penalty='l2' with alpha=array([0.1, 0.2]) shrinks" in text


@pytest.mark.parametrize("keyword", ["time_limit", "call_timeout"])
@pytest.mark.parametrize("seconds", [10**400, 1e300, float("inf")], ids=["10^400", "1e300", "inf"])
def test_time_limits_past_any_timer_are_refused(keyword: str, seconds: object) -> None:
    with pytest.raises(InvalidArgument, match=f"{keyword}=.* must be a number of seconds > 0 and at most 1000000000"):
        check_dataset(perceptron, *TIE, **{keyword: seconds})  # type: ignore[arg-type]


@pytest.mark.parametrize(("keyword", "value"), [("max_epochs", -10**5000), ("eta", -10**5000), ("dtype", 10**5000),
                                                ("examples", -10**5000), ("seed", Fraction(10**5000, 3))],
                         ids=["max_epochs", "eta", "dtype", "examples", "seed"])
def test_bad_arguments_past_the_int_string_limit_are_named(keyword: str, value: object) -> None:
    with pytest.raises(InvalidArgument, match=rf"{keyword}=.*5001 digits"):
        check_implementation(perceptron, **{keyword: value})  # type: ignore[arg-type]
