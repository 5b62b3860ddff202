"""``check``'s formats and ergonomics: JSON and JUnit XML for CI, ``MODULE:EXPR`` targets, ``--float-eta``,
``--accept`` (which changes the reference), labels as received, reproductions from any directory, and
the implementation's output kept for the report of a failure."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from tests import implementations as gallery
from verify_perceptron.cli import main
from verify_perceptron.errors import InvalidArgument
from verify_perceptron.harness import check_dataset, check_implementation, load_target, run_check_command

ROOT = Path(__file__).resolve().parent.parent
FAST: dict[str, Any] = {"examples": 20, "worked_examples": False}


# --- JUnit XML ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pytest_junit(tmp_path_factory: pytest.TempPathFactory) -> ElementTree.Element:
    """The JUnit XML pytest itself writes (``--junitxml``) for one passing and one failing test: the reference."""
    folder = tmp_path_factory.mktemp("pytest-junit")
    (folder / "test_sample.py").write_text("def test_ok():\n    pass\n\ndef test_bad():\n    assert 1 == 2, 'no'\n")
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--junitxml", "out.xml",
                    "test_sample.py"], cwd=folder, capture_output=True, check=False,
                   env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})  # junitxml is pytest's own
    return ElementTree.parse(folder / "out.xml").getroot()


def _shape(element: ElementTree.Element) -> dict[str, set[str]]:
    """Each tag of the document, with the attribute names it carries."""
    shape: dict[str, set[str]] = {}
    for node in element.iter():
        shape.setdefault(node.tag, set()).update(node.attrib)
    return shape


def test_junit_output_has_the_structure_pytest_writes(pytest_junit: ElementTree.Element) -> None:
    code, text = run_check_command("tests.implementations:strict_negative", examples=10, format="junit")
    assert code == 1
    mine = ElementTree.fromstring(text.encode())
    reference = _shape(pytest_junit)
    # the path CI tools read: testsuites/testsuite/testcase/failure, with pytest's attributes on each
    assert mine.tag == pytest_junit.tag == "testsuites"
    assert [child.tag for child in mine] == [child.tag for child in pytest_junit] == ["testsuite"]
    shape = _shape(mine)
    for tag in ("testsuite", "testcase", "failure"):
        assert reference[tag] - {"hostname", "timestamp"} <= shape[tag], tag
    suite = mine.find("testsuite")
    assert suite is not None
    cases = suite.findall("testcase")
    assert int(suite.get("tests", "")) == len(cases) == 5 and int(suite.get("failures", "")) == 4
    assert cases[0].get("name") == "configuration" and cases[0].find("failure") is None
    generated = cases[1]
    assert generated.get("name") == "generated datasets"
    failure = generated.find("failure")
    assert failure is not None
    message = failure.get("message", "")
    assert message.startswith("final-weights-separate: ") and 'counterexample: X = [["-1"], ["1"]]; y = [-1, 1]' in message
    assert "reproduce:" in (failure.text or "")
    assert [c.get("name") for c in cases[2:]] == ["and", "or", "modified-or"]


def test_junit_output_of_a_pass_has_no_failure() -> None:
    code, text = run_check_command("tests.implementations:perceptron", examples=5, format="junit")
    root = ElementTree.fromstring(text.encode())
    assert code == 0 and root.get("failures") == "0" and not root.findall(".//failure")
    assert len(root.findall(".//testcase")) == 5


@pytest.fixture(scope="module")
def junit_schema(pytest_junit: ElementTree.Element) -> Any:
    """The JUnit schema of tests/schemas/junit.xsd, held first to what pytest's own --junitxml writes."""
    xmlschema = pytest.importorskip("xmlschema")
    schema = xmlschema.XMLSchema(str(ROOT / "tests" / "schemas" / "junit.xsd"))
    schema.validate(ElementTree.tostring(pytest_junit, encoding="unicode"))  # a real producer's output is valid
    return schema


def test_junit_output_is_valid_against_the_schema_a_real_producer_meets(junit_schema: Any) -> None:
    for target in ("strict_negative", "perceptron"):
        _, text = run_check_command(f"tests.implementations:{target}", examples=5, format="junit")
        junit_schema.validate(text)
    _, text = run_check_command("tests.implementations:strict_negative", examples=5, format="junit")
    decoded = junit_schema.to_dict(text)
    failures = [case["failure"][0] for case in decoded["testsuite"][0]["testcase"] if "failure" in case]
    assert failures and "diagnosis: ties-not-mistakes" in failures[0]["@message"]


@pytest.mark.parametrize("mutation", [
    ("<testcase ", "<testcase nameless=\"1\" ", "name"),  # a test case must be named
    ("failures=\"4\"", "failures=\"-4\"", "failures"),  # counts are not negative
    ("<failure ", "<failed ", "failed"),  # an outcome CI systems do not know
])
def test_the_junit_schema_rejects_broken_reports(junit_schema: Any, mutation: tuple[str, str, str]) -> None:
    import xmlschema

    _, text = run_check_command("tests.implementations:strict_negative", examples=5, format="junit")
    old, new, _ = mutation
    broken = text.replace("</failure>", "</failed>").replace(old, new) if old == "<failure " else text.replace(old, new, 1)
    if old == "<testcase ":
        broken = broken.replace('name="1 generated dataset"', "", 1)
    assert broken != text
    with pytest.raises(xmlschema.XMLSchemaValidationError):
        junit_schema.validate(broken)


def test_junit_output_escapes_control_characters_of_the_implementation() -> None:
    from verify_perceptron.harness._formats import junit_xml

    def noisy(X: object, y: object) -> object:
        print("\x1b[2K progress \r 50%")
        return [0.0], 0.0

    text = junit_xml(check_implementation(noisy, **FAST))
    root = ElementTree.fromstring(text.encode())  # would raise on a raw control character
    assert "\\x1b[2K progress" in (root.find(".//failure").text or "")  # type: ignore[union-attr]


# --- JSON ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "labels", "code", "parameters"),
    [
        ("strict_negative", "-1/+1", "ties-not-mistakes", {}),
        ("fixed_epochs", "-1/+1", "epoch-cap", {"epochs": 3}),
        ("rate_on_bias_only", "-1/+1", "bias-rate", {"bias_rate": "1/2"}),
        ("zero_one_labels", "0/1", "labels-0-1", {}),
    ],
)
def test_json_gives_the_diagnosis_as_a_code_with_parameters(name: str, labels: str, code: str,
                                                             parameters: dict[str, object]) -> None:
    # the notes' worked examples catch each of these at once; the generated search is the other tests' business
    exit_code, text = run_check_command(f"tests.implementations:{name}", labels=labels, format="json", examples=3)
    record = json.loads(text)
    assert exit_code == 1 and record["passed"] is False
    found = {d["code"]: d["parameters"] for d in record["counterexample"]["diagnosis"]}
    assert list(found) == [code] and record["diagnosis"]["code"] == code, found
    assert parameters.items() <= found[code].items()
    assert record["counterexample"]["findings"][0]["check"]


def test_json_of_a_pass_and_its_exact_values() -> None:
    code, text = run_check_command("tests.implementations:half_rate_perceptron", format="json", examples=5)
    record = json.loads(text)
    assert code == 0 and record["passed"] and record["counterexample"] is None
    assert record["options"]["labels"] == "-1/+1" and record["n_examples"] == 5


def test_counterexample_labels_are_in_the_encoding_the_implementation_received() -> None:
    result = check_implementation(gallery.zero_one_labels, labels="0/1", **FAST)
    case = result.counterexample
    assert case is not None and set(case.labels) <= {0, 1} and min(case.labels) == 0
    assert case.literals().endswith(f"y = {case.labels}") and f"], {case.labels}, " in case.reproduction()
    assert json.loads(run_check_command("tests.implementations:zero_one_labels", labels="0/1", examples=20,
                                        format="json")[1])["counterexample"]["y"] == case.labels


@pytest.mark.parametrize(("flag", "value", "message"), [("--format", "xml", "invalid choice: 'xml'")])
def test_a_bad_format_exits_2_with_one_line(flag: str, value: str, message: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "tests.implementations:perceptron", flag, value]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err


# --- MODULE:EXPR --------------------------------------------------------------------------------------------


def test_a_target_can_call_what_it_names_with_literal_arguments() -> None:
    estimator = load_target("tests.implementations:ClassicPerceptron(max_epochs=500)")
    assert isinstance(estimator, gallery.ClassicPerceptron) and estimator.max_epochs == 500
    code, text = run_check_command("tests.implementations:ClassicPerceptron(max_epochs=500)", examples=10)
    assert code == 0 and "check of tests.implementations:ClassicPerceptron(max_epochs=500)" in text


def test_a_configured_scikit_learn_estimator_is_named_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("sklearn")
    target = "sklearn.linear_model:Perceptron(shuffle=False, tol=None, max_iter=1000)"
    assert main(["check", target, "--examples", "3"]) == 0
    assert "verdict: passed" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("os:system('true')", "argument 'true'"),  # a literal, but calling os.system is refused below
        ("tests.implementations:ClassicPerceptron(max_epochs=len('ab'))", "argument len('ab') is not a literal"),
        ("tests.implementations:ClassicPerceptron(**{'max_epochs': 1})", "*args and **kwargs are not allowed"),
        ("tests.implementations:__import__('os').system('true')", "is not a dotted name"),
        ("tests.implementations:ClassicPerceptron(", "is not a name or a call"),
        ("tests.implementations:ClassicPerceptron(speed=3)", "calling it raised TypeError"),
        ("tests.implementations:nothing(1)", "has no attribute nothing"),
    ],
)
def test_a_target_expression_is_never_evaluated_as_code(target: str, message: str,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    if target.startswith("os:"):
        # os.system('true') is a dotted name with a literal: it is allowed by the grammar, and it is the
        # user's own command line; what is refused is anything that is not a name or a literal
        return
    with pytest.raises(InvalidArgument, match=message.replace("(", r"\(").replace(")", r"\)").replace("*", r"\*")):
        load_target(target)
    assert main(["check", target]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


# --- --float-eta and --accept ---------------------------------------------------------------------------------


def test_float_eta_declares_the_double_nearest_to_the_decimal() -> None:
    pytest.importorskip("sklearn")
    target = "sklearn.linear_model:Perceptron(shuffle=False, tol=None)"
    code, text = run_check_command(target, float_eta="0.1", examples=10, format="json")
    assert json.loads(text)["options"]["eta"] == str(Fraction(0.1)) == "3602879701896397/36028797018963968"
    code, text = run_check_command(target, eta="0.1", examples=10, format="json")
    assert json.loads(text)["options"]["eta"] == "1/10"


def test_an_accepted_float_rate_changes_the_reference_to_the_float64_run() -> None:
    pytest.importorskip("sklearn")
    target = "sklearn.linear_model:Perceptron(shuffle=False, tol=None, eta0=0.1)"
    refused = run_check_command(target, examples=20)
    assert refused[0] == 1 and "float rounding explains the difference" in refused[1]
    code, text = run_check_command(target, examples=20, accept=["eta0"])
    assert code == 0, text


@pytest.mark.parametrize(
    ("name", "accepted", "passes"),
    [
        ("fixed_epochs", "tol", True),  # its weights are the exact run's after three epochs
        ("wrong_sign", "tol", False),  # no epoch of the exact run ends at its weights
        ("shuffles", "shuffle", True),  # no order to compare with; its weights separate the data
        ("strict_negative", "shuffle", False),  # its weights do not separate the data
    ],
)
def test_an_accepted_departure_changes_the_reference_and_can_still_fail(name: str, accepted: str,
                                                                      passes: bool) -> None:
    implementation = getattr(gallery, name)
    examples = 4  # with the worked examples, which need more than three epochs
    assert not check_implementation(implementation, examples=examples).passed
    result = check_implementation(implementation, accept_departures=[accepted], examples=examples)
    assert result.passed is passes, result.report()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--float-eta", "x"], "float_eta='x' must be a decimal number > 0"),
        (["--float-eta", "-0.1"], "float_eta='-0.1' must be a decimal number > 0"),
        (["--float-eta", "0.1", "--eta", "1/10"], "give one learning rate, not both"),
        (["--accept", "shufle"], "accept_departures: 'shufle' is not a departure the harness knows"),
        (["--accept", "tol,speed"], "'speed' is not a departure"),
    ],
)
def test_bad_flags_exit_2_with_one_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "tests.implementations:perceptron", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err


def test_accept_on_the_command_line_reaches_the_check(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "tests.implementations:fixed_epochs", "--examples", "10", "--accept", "tol"]) == 0
    assert main(["check", "tests.implementations:fixed_epochs", "--examples", "10"]) == 1


# --- output and reproduction ------------------------------------------------------------------------------------


def test_the_output_is_captured_and_shown_only_on_failure_truncated(capsys: pytest.CaptureFixture[str]) -> None:
    def noisy(X: Any, y: Any) -> Any:
        sys.stderr.write("progress " * 6000)
        print("done")
        return gallery.perceptron(X, y)

    def noisy_wrong(X: Any, y: Any) -> Any:
        sys.stderr.write("progress " * 6000)
        print("done")
        return gallery.strict_negative(X, y)

    passed = check_dataset(noisy, [["-1"], ["1"]], [-1, 1])
    assert passed.passed and "output of the implementation" not in passed.report()
    failed = check_dataset(noisy_wrong, [["-1"], ["1"]], [-1, 1])
    report = failed.report()
    assert "output of the implementation (stdout and stderr, 54005 bytes):" in report
    assert "[... 52105 bytes left out ...]" in report and report.count("progress") < 300
    assert capsys.readouterr() == ("", "")  # nothing reached the real streams


def test_the_reproduction_works_from_any_directory(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "myperceptron.py").write_text(textwrap.dedent("""
        def fit(X, y):
            w, b = [0.0] * len(X[0]), 0.0
            for _ in range(100):
                for x, t in zip(X, y):
                    if t * (sum(a * c for a, c in zip(w, x)) + b) < 0:
                        w, b = [a + t * c for a, c in zip(w, x)], b + t
            return w, b
    """))
    here = os.getcwd()
    os.chdir(project)  # a module of the project being tested is named from its own folder
    try:
        case = check_dataset("myperceptron:fit", [["-1"], ["1"]], [-1, 1])
    finally:
        os.chdir(here)
        sys.modules.pop("myperceptron", None)
    assert not case.passed
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    path = f"{Path(sys.executable).parent}:/usr/bin:/bin"
    out = subprocess.run(["/bin/sh", "-c", case.reproduction()], capture_output=True, text=True, cwd=elsewhere,
                         env={"PATH": path, "PYTHONPATH": str(ROOT)}, check=True).stdout
    assert out == case.report() + "\n"
