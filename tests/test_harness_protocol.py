"""What an implementation declares and how it is read (issue 28, items 4, 5 and 7): a declared epoch limit
means the run stopped there (one pass included), the weight layout (``--bias``) and its diagnosis, the
exact decimals of ``{train}``, decimals beside fractions in the text, JUnit test cases that keep their
names from run to run with measured times, and Hypothesis as a dependency. Each implementation used
here is in ``tests/implementations`` (``streaming``, ``bias_first``, ``layouts``), written for this
project, and each result is asserted in ``--format json``."""

from __future__ import annotations

import json
import math
import re
import struct
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from verify_perceptron.cli import main
from verify_perceptron.data.rationals import MAX_DIGITS
from verify_perceptron.errors import InvalidArgument
from verify_perceptron.harness import check_implementation, run_check_command
from verify_perceptron.harness._process import MAX_DOUBLE_CHARACTERS, _csv, double_decimal
from verify_perceptron.harness._protocol import number
from verify_perceptron.harness._results import with_decimals

ROOT = Path(__file__).resolve().parent.parent
BIAS_FIRST = f"{sys.executable} {ROOT / 'tests' / 'implementations' / 'bias_first.py'} {{train}} {{out}}"


def checked(target: str | None, **options: Any) -> tuple[int, dict[str, Any]]:
    """`run_check_command` in JSON: the exit code and the record."""
    code, text = run_check_command(target, format="json", **options)
    return code, json.loads(text)


# --- item 4: a declared epoch limit is the run stopped there ---------------------------------------


def test_a_one_pass_learner_passes_under_max_epochs_1() -> None:
    code, record = checked("tests.implementations.streaming:one_pass", max_epochs=1, examples=40)
    assert code == 0 and record["passed"] is True and record["diagnosis"] is None
    assert record["options"]["max_epochs"] == 1 and record["n_examples"] == 40


def test_a_wrong_one_pass_learner_fails_with_a_finding_under_max_epochs_1() -> None:
    code, record = checked("tests.implementations.streaming:one_pass_strict", max_epochs=1, examples=40)
    case = record["counterexample"]
    assert code == 1 and record["passed"] is False
    assert case["X"] == [["-1"], ["1"]] and case["y"] == [-1, 1]
    assert [f["check"] for f in case["findings"]] == ["final-weights-separate", "agrees-with-reference"]
    assert case["reference_weights"] == ["0", "2"]  # after one pass: two updates, on the two ties
    assert record["diagnosis"]["code"] == "ties-not-mistakes"


def test_a_fixed_epoch_learner_passes_under_its_limit_and_only_there() -> None:
    code, record = checked("tests.implementations.streaming:ten_epochs", max_epochs=10, examples=40)
    assert code == 0 and record["passed"] is True and record["n_rejected"] <= 2  # no dataset set aside for its length
    code, record = checked("tests.implementations.streaming:ten_epochs", max_epochs=11, examples=40)
    assert code == 1 and record["counterexample"]["findings"][0]["check"] == "agrees-with-reference"
    assert record["diagnosis"]["code"] != "epoch-limit-ignored"  # it stops, at 10: not the run to convergence


def test_a_learner_that_runs_past_the_declared_limit_is_named() -> None:
    code, record = checked("tests.implementations.gallery:fit_correct", max_epochs=10, examples=40)
    assert code == 1 and record["diagnosis"]["code"] == "epoch-limit-ignored"
    assert record["diagnosis"]["parameters"]["max_epochs"] == 10


def test_an_estimators_max_iter_of_1_is_a_one_pass_check() -> None:
    from tests.implementations import ClassicPerceptron

    class OnePass(ClassicPerceptron):
        def get_params(self, deep: bool = True) -> dict[str, Any]:
            return {"max_iter": 1}  # scikit-learn's name, read as the epoch limit

    result = check_implementation(OnePass(max_epochs=1), examples=20)
    assert result.passed and result.options.max_epochs == 1, result.report()
    assert not check_implementation(OnePass(max_epochs=2), examples=20).passed


# --- item 5: the weight layout, and {train} read alike by exact and float readers -------------------


def test_a_bias_first_command_is_diagnosed_and_passes_when_declared() -> None:
    code, record = checked(None, command=BIAS_FIRST, examples=20)
    assert code == 1 and record["diagnosis"]["code"] == "weight-layout"
    assert record["diagnosis"]["parameters"]["bias"] == "first"
    assert record["diagnosis"]["parameters"]["option"] == "--bias first"
    assert "--bias first" in record["diagnosis"]["text"] and record["also_consistent"] == []
    code, record = checked(None, command=BIAS_FIRST, examples=20, bias="first")
    assert code == 0 and record["passed"] is True and record["options"]["bias"] == "first"


def test_an_exact_reader_gets_the_doubles_exactly_from_train() -> None:
    # 53-bit values: the shortest round-trip decimal of each double is another number to Fraction,
    # so this exact program computed with other values (and failed) before {train} held the expansions
    code, record = checked(None, command=BIAS_FIRST, examples=10, bias="first", rounding_stress=True)
    assert code == 0 and record["passed"] is True


def test_the_cli_declares_the_layout() -> None:
    assert main(["check", "--command", BIAS_FIRST, "--bias", "first", "--examples", "5", "--format", "json",
                 "-o", "/dev/null"]) == 2  # /dev/null is not a regular file: refused before the check
    code, record = checked(None, command=BIAS_FIRST, examples=5, bias="last")
    assert code == 1 and record["diagnosis"]["code"] == "weight-layout"


def test_a_flat_python_vector_with_the_bias_last_is_diagnosed_and_declared() -> None:
    code, record = checked("tests.implementations.layouts:flat_bias_last", examples=20)
    assert code == 1 and record["diagnosis"]["code"] == "weight-layout"
    assert record["diagnosis"]["parameters"]["bias"] == "last"
    assert check_implementation("tests.implementations.layouts:flat_bias_last", examples=20, bias="last").passed


def test_a_layout_with_a_second_departure_is_named_and_what_is_left_diagnosed_in_that_order() -> None:
    # read in the convention's order it fails everywhere, and read with the bias last it still fails (a cap): a
    # feature 0 in every sample keeps weight 0 only read with the bias last. It was named "nonzero-start".
    code, record = checked("tests.implementations.layouts:flat_bias_last_capped", examples=40)
    diagnosis = record["diagnosis"]
    assert code == 1 and diagnosis["code"] == "weight-layout", diagnosis
    assert diagnosis["parameters"]["bias"] == "last" and diagnosis["parameters"]["passes"] is False
    assert diagnosis["parameters"]["then"]["code"] == "epoch-cap"
    assert diagnosis["parameters"]["passes_with"] == "--bias last --max-epochs 3"
    assert diagnosis["parameters"]["python"] == "bias='last'"
    assert check_implementation("tests.implementations.layouts:flat_bias_last_capped", examples=20, bias="last",
                                max_epochs=3).passed


def test_a_correct_pair_is_read_as_a_pair_whatever_the_bias_place() -> None:
    assert check_implementation("tests.implementations:perceptron", examples=10, bias="first").passed


@pytest.mark.perceptron(bias="last", examples=10)
def test_the_pytest_marker_declares_the_layout(perceptron_checker: Any) -> None:
    from tests.implementations.layouts import flat_bias_last

    assert perceptron_checker(flat_bias_last).passed


@pytest.mark.parametrize(("options", "message"), [
    ({"bias": "middle"}, "bias='middle' must be one of first, last, convention or None"),
    ({"bias": "first", "output": "pair"}, "bias='first' and output='pair': give one of them"),
])
def test_bad_bias_options_are_refused_naming_the_value(options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidArgument, match=re.escape(message)):
        check_implementation("tests.implementations:perceptron", **options)


EXTREMES = [5e-324, -5e-324, 2.225073858507201e-308, 2.2250738585072014e-308, 1.7976931348623157e308, 0.1, 1 / 3,
            -0.6666665077209473, 1e16, 0.0]


@pytest.mark.parametrize("value", EXTREMES)
def test_a_double_is_written_as_its_exact_decimal_which_both_readers_read_alike(value: float) -> None:
    text = double_decimal(value)
    assert Fraction(text) == Fraction(value) and float(text) == value
    assert number(text, True, "x") == number(text, False, "x") == Fraction(value)  # the harness's own reader
    assert len(text) <= MAX_DOUBLE_CHARACTERS


def test_the_expansion_is_bounded_for_every_double() -> None:
    assert len(double_decimal(5e-324).split("e")[0].replace(".", "")) == 751  # 2^-1074: 751 significant digits
    # the most significant digits of any double (767) are those of the largest subnormal: within the readers' limit
    longest = double_decimal(-2.225073858507201e-308)
    assert len(longest) == MAX_DOUBLE_CHARACTERS and len(longest.split("e")[0]) - 2 == 767 <= MAX_DIGITS
    for bits in range(0, 2**64, 2**64 // 4099):  # doubles of every exponent
        value = struct.unpack("<d", bits.to_bytes(8, "little"))[0]
        if math.isfinite(value):
            assert len(double_decimal(value)) <= MAX_DOUBLE_CHARACTERS


def test_train_holds_exact_expansions_and_fractions() -> None:
    import numpy as np

    assert _csv(np.array([[0.1, -2.0]]), [1]) == "0.1000000000000000055511151231257827021181583404541015625,-2,1\n"
    assert _csv([[Fraction(1, 3), Fraction(2)]], [-1]) == "1/3,2,-1\n"


# --- item 7: decimals in the text, JUnit names and times, Hypothesis ---------------------------------


def test_every_fraction_in_a_text_report_has_a_decimal_beside_it() -> None:
    code, text = run_check_command("tests.implementations.gallery:fit_correct", float_eta="0.1", examples=5)
    assert code == 1 and "3602879701896397/36028797018963968 (≈ 0.1)" in text
    prose = [line for line in text.splitlines()
             if not line.strip().startswith(("X = ", "y = ", "python -c", "| "))]
    for line in prose:
        for match in re.finditer(r"(?<![\w./'\"])-?\d+/\d+(?![\w/])", line):
            after = line[match.end():]
            assert after.startswith((" (≈ ", " (the double ")), line
    code, record = checked("tests.implementations.gallery:fit_correct", float_eta="0.1", examples=5)
    case = record["counterexample"]  # JSON keeps the exact values, and gives decimals beside them
    assert case["factor_decimal"] == 0.1 and case["reference_weights_decimal"] == [0.0, 2.0]
    assert with_decimals("1/3") == "1/3 (≈ 0.3333333333333333)"


def _junit(target: str) -> tuple[int, ElementTree.Element]:
    code, text = run_check_command(target, format="junit", examples=10)
    return code, ElementTree.fromstring(text.encode())


def test_junit_names_stay_the_same_across_outcomes_and_times_are_measured() -> None:
    passing_code, passing = _junit("tests.implementations:perceptron")
    failing_code, failing = _junit("tests.implementations:strict_negative")
    assert (passing_code, failing_code) == (0, 1)
    assert checked("tests.implementations:perceptron", examples=10)[1]["passed"] is True
    assert checked("tests.implementations:strict_negative", examples=10)[1]["passed"] is False

    def names(root: ElementTree.Element) -> list[str]:
        return [f"{c.get('classname')}::{c.get('name')}" for c in root.iter("testcase")]

    assert names(passing) == names(failing) == [
        "verify_perceptron.check.configuration::configuration", "verify_perceptron.check.generated::generated datasets",
        "verify_perceptron.check.worked_examples::and", "verify_perceptron.check.worked_examples::or",
        "verify_perceptron.check.worked_examples::modified-or"]
    for root in (passing, failing):
        times = {c.get("name"): float(c.get("time", "0")) for c in root.iter("testcase")}
        assert all(t > 0 for name, t in times.items()), times
        suite = root.find("testsuite")
        assert suite is not None and float(suite.get("time", "0")) >= times["generated datasets"] > 0
    assert not passing.findall(".//failure") and failing.find(".//testcase[@name='generated datasets']/failure") is not None


def test_hypothesis_is_a_dependency_and_its_absence_says_what_to_install(monkeypatch: pytest.MonkeyPatch,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from Python 3.11")

    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert any(d.replace(" ", "").startswith("hypothesis>=") for d in dependencies)
    monkeypatch.setitem(sys.modules, "hypothesis", None)  # as if it were not installed
    assert main(["check", "tests.implementations:perceptron", "--examples", "1"]) == 2
    err = capsys.readouterr().err
    assert "python -m pip install hypothesis" in err and "Traceback" not in err


@pytest.mark.parametrize("text", ["0.5 -1 2\n", "0.5,-1,2\n", "0.5\n-1, 2\n", "0.5\t-1\t2"])
def test_a_weights_file_may_hold_a_vector_on_one_line(tmp_path: Any, text: str) -> None:
    from verify_perceptron.harness._protocol import read_weights

    path = tmp_path / "out.txt"
    path.write_text(text)
    assert read_weights(str(path), 2, exact=True) == [Fraction(1, 2), Fraction(-1), Fraction(2)]
    path.write_text("0.5 -1\n")
    with pytest.raises(Exception, match="wrote 2 values to its weights file; 3 needed"):
        read_weights(str(path), 2, exact=True)


def test_weights_printed_as_hexadecimal_floats_are_read_exactly() -> None:
    # C's %a, Python's float.hex and Java's Double.toHexString print every double exactly; they were refused
    # ("'0x1.999999999999ap-3' is not a number")
    command = f"{sys.executable} {ROOT / 'tests' / 'implementations' / 'hex_floats.py'} {{train}}"
    code, record = checked(None, command=command, examples=15)
    assert code == 0 and record["passed"] is True, record
    rng = __import__("random").Random(3)
    for _ in range(500):
        value = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
        if math.isfinite(value):
            assert number(float.hex(value), False, "w") == Fraction.from_float(value)
    assert number("-0x0p+0", True, "w") == 0 and number("0X1P-1074", True, "w") == Fraction(1, 2**1074)
    assert number("0x1.8p-3", True, "w") == Fraction(3, 16) and number("0x.8p1", True, "w") == 1
    for bad in ("0xp+1", "0x1.8", "0x1p99999", "0x1.zp1"):
        with pytest.raises(Exception, match="w: "):
            number(bad, True, "w")
