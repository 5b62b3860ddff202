"""Code written for a dataset's own two labels (``1/2`` with class 2 positive, ``R/M``, ``no/yes``), as tutorials
reading a CSV are: `check --labels NEG/POS` gives it them (in ``{train}`` and to Python code), ``--labels-as``
says how its code maps them (to -1/+1, or to 0/1 for η·(d - y)); and at the defaults, code that reads -1/+1 as one
class, swaps them, or refuses them naming one, is told to declare its labels (and 1/2 is named where it passes).
Before, `--labels` took -1/+1 and 0/1 only: such code was "unexplained" after a long search, or not diagnosed."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from verify_perceptron.cli import main
from verify_perceptron.harness import check_dataset, check_implementation, command_implementation
from verify_perceptron.data.dataset import from_arrays
from verify_perceptron.harness._formats import result_record
from verify_perceptron.harness._options import CheckOptions
from verify_perceptron.harness._protocol import CommandFailed, read_weights
from verify_perceptron.harness._results import CaseResult
from verify_perceptron.harness._results import with_decimals


def _perceptron(mapped: Any) -> Any:
    """The classic perceptron (bias last, rate 1) on the labels `mapped` makes of y (each -1 or +1)."""
    def fit(X: Any, y: Any) -> Any:
        t = [mapped(v) for v in y]
        w, b = [0.0] * len(X[0]), 0.0
        for _ in range(1000):
            errors = 0
            for x, label in zip(X, t):
                if label * (sum(a * float(c) for a, c in zip(w, x)) + b) <= 0:
                    w, b, errors = [a + label * float(c) for a, c in zip(w, x)], b + label, errors + 1
            if not errors:
                break
        return w, b
    return fit


def test_strings_are_given_to_python_code_and_it_passes() -> None:
    def fit(X: Any, y: Any) -> Any:
        if y.dtype.kind != "U" or not set(y.tolist()) <= {"R", "M"}:
            return [0.0] * len(X[0]), 0.0  # (fails the check)
        return _perceptron(lambda v: 1 if v == "M" else -1)(X, y)

    result = check_implementation(fit, labels="R/M", examples=5, worked_examples=False)
    assert result.passed, result.report()
    assert "labels R/M (read as -1/+1)" in result.report()


def test_an_integer_pair_is_given_as_int64_and_named_in_the_reproduction() -> None:
    def fit(X: Any, y: Any) -> Any:
        assert y.dtype == np.int64
        return _perceptron(lambda v: 1 if v == 2 else -1)(X, y)

    result = check_implementation(fit, labels="1/2", examples=2, worked_examples=False)
    assert result.passed, result.report()
    assert result_record(result)["options"]["classes"] == ["1", "2"]
    options = CheckOptions(labels="0/1", classes=("1", "2"))
    case = CaseResult("given dataset", from_arrays([["-1"], ["1"]], [-1, 1]), options, "f", ())
    assert case.labels == [1, 2]
    assert "labels='1/2', labels_as='0/1'" in case.reproduction() and ", [-1, 1], " in case.reproduction()


def test_a_pair_of_labels_is_no_fraction_in_a_report() -> None:
    assert with_decimals("labels 1/2 (read as -1/+1); it passes with --labels 1/2") == \
        "labels 1/2 (read as -1/+1); it passes with --labels 1/2"


def test_code_comparing_with_class_2_is_told_labels_1_2_at_the_defaults() -> None:
    # given -1/+1 it reads every label as class -1 (1 if v == 2 else -1): it was "unexplained" after the search
    result = check_implementation(_perceptron(lambda v: 1 if v == 2 else -1), examples=5, worked_examples=False)
    first = result.diagnoses[0]
    assert first.code == "label-encoding", result.report()
    assert (first.parameters["read"], first.parameters["classes"]) == ("negative", ["1", "2"])
    assert first.parameters["passes_with"] == "--labels 1/2", first.parameters


def test_code_comparing_with_a_class_name_is_told_to_declare_its_labels() -> None:
    result = check_implementation(_perceptron(lambda v: -1 if v == "Iris-setosa" else 1), examples=20,
                                  worked_examples=False)
    first = result.diagnoses[0]
    assert first.code == "label-encoding" and first.parameters["read"] == "positive", result.report()
    assert "--labels NEG/POS" in first.text and "passes_with" not in first.parameters


@pytest.mark.slow
def test_code_taking_the_classes_in_sorted_order_is_told_the_pair_the_other_way() -> None:
    def fit(X: Any, y: Any) -> Any:
        classes = sorted(set(np.asarray(y).tolist()))  # the second in sorted order is positive: R, not M
        return _perceptron(lambda v: 1 if v == classes[1] else -1)(X, y)

    result = check_implementation(fit, labels="R/M", examples=20, worked_examples=False)
    first = result.diagnoses[0]
    assert (first.code, first.parameters["read"]) == ("label-encoding", "swapped"), result.report()
    assert first.parameters["passes_with"] == "--labels M/R", first.parameters


def test_code_that_refuses_minus_one_naming_it_is_told_to_declare_its_labels() -> None:
    fit = _perceptron(lambda v: {"M": 1, "R": -1}[v])
    case = check_dataset(fit, [["-1"], ["1"]], [-1, 1])
    assert [d.code for d in case.diagnoses] == ["label-encoding"], case.report()
    assert case.diagnoses[0].parameters["named"] == "-1"
    assert "--labels NEG/POS" in case.diagnoses[0].text


def test_a_refusal_of_minus_one_by_code_for_1_2_names_them() -> None:
    def fit(X: Any, y: Any) -> Any:
        if any(v not in (1, 2) for v in y):
            raise ValueError(f"labels must be 1 or 2, not {sorted(set(y.tolist()))}")
        return _perceptron(lambda v: 1 if v == 2 else -1)(X, y)

    case = check_dataset(fit, [["-1"], ["1"]], [-1, 1])
    assert [d.code for d in case.diagnoses] == ["label-encoding"], case.report()
    assert case.diagnoses[0].parameters["classes"] == ["1", "2"], case.diagnoses[0].parameters
    assert "it expects labels 1/2" in case.diagnoses[0].text


def _zero_one_code(rate: float) -> Any:
    """Textbook code for R/M: M read as 1 and R as 0, predicting 1 at a score >= 0, stepping rate·(d - y) in
    floats until an epoch makes no mistake (at most 1000)."""
    def fit(X: Any, y: Any) -> Any:
        d = [1 if v == "M" else 0 for v in y]
        w, b = [0.0] * len(X[0]), 0.0
        for _ in range(1000):
            errors = 0
            for x, target in zip(X, d):
                update = rate * (target - (1 if sum(a * float(c) for a, c in zip(w, x)) + b >= 0 else 0))
                if update:
                    w, b, errors = [a + update * float(c) for a, c in zip(w, x)], b + update, errors + 1
            if not errors:
                break
        return w, b
    return fit


@pytest.mark.slow
def test_the_other_reading_of_a_pair_is_named_with_the_pair() -> None:
    # 0/1 code (η·(d - y) at 1, predicting 1 at a score >= 0: note 001's hard-limiter-plus at 1/2) given R/M
    fit = _zero_one_code(1)

    result = check_implementation(fit, labels="R/M", labels_as="0/1", convention="hard-limiter-plus", examples=10,
                                  worked_examples=False)
    assert result.passed, result.report()
    assert not check_implementation(fit, labels="R/M", convention="hard-limiter-plus", examples=10,
                                    worked_examples=False, eta=1).passed


@pytest.mark.slow
def test_the_command_line_takes_a_pair_and_its_reading(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "fit.py"
    script.write_text(textwrap.dedent("""\
        import sys
        rows = [line.strip().split(",") for line in open(sys.argv[1]) if line.strip()]
        X = [[float(v) for v in r[1:]] for r in rows]
        y = [1 if r[0] == "yes" else -1 for r in rows]
        w, b = [0.0] * len(X[0]), 0.0
        for _ in range(1000):
            errors = 0
            for x, t in zip(X, y):
                if t * (sum(a * c for a, c in zip(w, x)) + b) <= 0:
                    w, b, errors = [a + t * c for a, c in zip(w, x)], b + t, errors + 1
            if not errors:
                break
        print(*w, b)
        """))
    command = f"{sys.executable} {script} {{train}}"
    code = main(["check", "--command", command, "--label-column", "first", "--labels", "no/yes", "--examples", "3"])
    assert code == 0, capsys.readouterr().out
    assert main(["check", "--command", command, "--labels", "0/1", "--labels-as", "-1/+1", "--examples", "1",
                 "--label-column", "first"]) == 1  # (0 is no 'yes': every label -1)


def test_a_command_is_given_the_tokens_in_its_train_file(tmp_path: Path) -> None:
    script = tmp_path / "fit.py"  # the classic perceptron at rate 1 (bias last) on labels yes/no
    script.write_text("import sys\nrows = [l.strip().split(',') for l in open(sys.argv[1]) if l.strip()]\n"
                      "w = [0.0, 0.0]\nfor _ in range(100):\n    for r in rows:\n"
                      "        x, t = [float(r[0]), 1.0], {'yes': 1, 'no': -1}[r[1]]\n"
                      "        if t * (w[0] * x[0] + w[1]) <= 0:\n            w = [a + t * c for a, c in zip(w, x)]\n"
                      "print(*w)\n")
    implementation = command_implementation(f"{sys.executable} {script} {{train}}")
    case = check_dataset(implementation, [["-1"], ["1"]], [-1, 1], labels="no/yes")
    assert case.passed, case.report()
    assert case.literals().endswith("y = ['no', 'yes']")


def test_a_bad_pair_is_refused_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--command", "true {train}", "--labels", "yes/yes"]) == 2
    assert "labels='yes/yes' must name two different labels" in capsys.readouterr().err


def test_numpy_s_summary_of_long_weights_is_named_with_how_to_print_them_all(tmp_path: Path) -> None:
    # print(w) of more than 1000 values (or under a low threshold) writes '[ 1. 2. 3. ... 7. 8. 9.]'; it was
    # "'...' is not a number"
    path = tmp_path / "out.txt"
    path.write_text("[1. 2. 3. ... 1998. 1999. 2000.]\n")
    with pytest.raises(CommandFailed, match=r"'\.\.\.' stands for weights left out: NumPy prints .* print\(w.tolist\(\)\)"):
        read_weights(str(path), 2000, exact=False)


def test_a_label_holding_the_delimiter_of_train_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--command", "true {train}", "--labels", "Iris setosa/b", "--delimiter", "space"]) == 2
    assert "the label 'Iris setosa' holds a space, the delimiter" in capsys.readouterr().err


@pytest.mark.slow
def test_a_hard_limiter_on_a_pair_read_as_pm1_is_also_said_as_0_1_code() -> None:
    # η·(d - y) at 0.01 on R/M mapped to 0/1 is note 001's hard-limiter-plus at 0.005 on ±1: the same run
    fit = _zero_one_code(0.01)

    result = check_implementation(fit, labels="R/M", examples=10, worked_examples=False)
    first = result.diagnoses[0]
    assert first.code == "float-rounding" and first.parameters["convention"] == "hard-limiter-plus", result.report()
    assert "maps R/M to 0/1 and steps η·(d - y) at 0.01: --labels-as 0/1 --float-eta 0.01" in first.text
    assert check_implementation(fit, labels="R/M", labels_as="0/1", convention="hard-limiter-plus", eta=0.01,
                                accept_departures=("float-rate",), examples=10, worked_examples=False).passed
