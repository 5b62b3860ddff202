"""A verdict for machines: the JSON record (findings and diagnoses as codes with parameters) and JUnit
XML (one test case for the configuration, one for the generated data and one per worked example, under
names that stay the same from run to run, each with its measured time; a failing one's message is the
counterexample), in the structure pytest's ``--junitxml`` writes and CI systems read."""

from __future__ import annotations

import json
import re
from typing import Any
from xml.etree import ElementTree

from ..data.exact_text import exact_text, nearest_float
from ..data.rationals import shown_value
from ._results import CaseResult, Diagnosis, HarnessResult, _case_lines, _truncated

#: The formats ``check --format`` writes.
FORMATS = ("text", "json", "junit")


def render(result: HarnessResult, fmt: str) -> str:
    """The verdict as ``text`` (the report), ``json`` or ``junit`` XML.

    Examples
    --------
    >>> from verify_perceptron.harness import check_implementation, reference_fit
    >>> result = check_implementation(reference_fit, dtype="fraction", examples=3, worked_examples=False)
    >>> json.loads(render(result, "json"))["passed"]
    True
    >>> render(result, "junit").splitlines()[1][:40]
    '<testsuites name="verify-perceptron" tes'
    """
    if fmt == "json":
        return json.dumps(result_record(result), indent=2) + "\n"
    if fmt == "junit":
        return junit_xml(result)
    if fmt == "text":
        return result.report()
    raise ValueError(f"format={shown_value(fmt)} must be one of {', '.join(FORMATS)}")


def result_record(result: HarnessResult) -> dict[str, Any]:
    """The verdict as plain JSON-ready data; exact values as strings (``"1/3"``), decimals beside them."""
    options = result.options
    return {
        "target": result.target,
        "passed": result.passed,
        "options": {"convention": options.convention, "dtype": options.dtype, "labels": options.labels,
                    "classes": None if options.classes is None else list(options.classes),
                    "eta": None if options.eta is None else exact_text(options.eta),
                    "eta_decimal": None if options.eta is None else nearest_float(options.eta),
                    "max_epochs": options.max_epochs, "examples": options.examples, "seed": options.seed,
                    "call_timeout": options.call_timeout, "accept_departures": list(options.accept_departures),
                    "bias": options.bias, "averaged": options.averaged, "average": options.average if options.averaged else None,
                    "mode": options.mode},
        "departures": [{"code": "departure", "name": d.message.split("=", 1)[0], "message": d.message}
                       for d in result.departures],
        "flaky": result.flaky,
        "diagnosis": _diagnosis_record(result.diagnoses[0]) if result.diagnoses else None,
        "also_consistent": [_diagnosis_record(d) for d in result.diagnoses[1:]],
        "counterexample": None if result.counterexample is None else case_record(result.counterexample),
        "worked_examples": [{"name": c.name, "passed": c.passed, "checks": [f.check for f in c.findings]}
                            for c in result.worked_examples],
        "n_examples": result.n_examples,
        "n_rejected": result.n_rejected,
        "reports_updates": result.reports_updates,
        "loading_output": _truncated(result.loading_output),
    }


def case_record(case: CaseResult) -> dict[str, Any]:
    """One dataset's verdict: data (labels as the implementation received them), findings, diagnoses."""
    return {
        "name": case.name,
        "passed": case.passed,
        "separable": case.separable,
        "X": [[exact_text(v) for v in row] for row in case.data.X],
        "y": case.labels,
        "findings": [{"check": f.check, "message": f.message, "update": f.update, "sample": f.sample}
                     for f in case.findings],
        "diagnosis": [_diagnosis_record(d) for d in case.diagnoses],
        "notes": list(case.notes),
        "weights": None if case.weights is None else [exact_text(w) for w in case.weights],
        "weights_decimal": None if case.weights is None else [nearest_float(w) for w in case.weights],
        "reference_weights": None if case.reference is None else [exact_text(w) for w in case.reference.final_weights],
        "reference_weights_decimal": None if case.reference is None else [nearest_float(w) for w in
                                                                          case.reference.final_weights],
        "factor": None if case.factor is None else exact_text(case.factor),
        "factor_decimal": None if case.factor is None else nearest_float(case.factor),
        "n_updates": case.n_updates,
        "output": _truncated(case.output) if case.output and not case.passed else "",
        "reproduction": None if case.passed else case.reproduction(),
    }


def _diagnosis_record(diagnosis: Diagnosis) -> dict[str, Any]:
    return {"code": diagnosis.code, "parameters": diagnosis.parameters, "text": diagnosis.text}


#: The JUnit test case of the generated data: one name, whatever the number of datasets tried.
GENERATED_CASE = "generated datasets"


def junit_xml(result: HarnessResult) -> str:
    """JUnit XML: ``testsuites/testsuite/testcase[/failure]``, as pytest's ``--junitxml`` lays it out.

    The test cases, always the same ones for the same options, so that CI can
    follow each across runs: the configuration, the generated data (failing
    with the counterexample as the message and its report as the text, or
    with the implementation's nondeterminism), and each worked example. Their
    names hold no count (the number of datasets tried is a property), and
    their ``time`` attributes are the seconds measured for each
    (`HarnessResult.seconds`); the suite's is the whole check's.
    """
    cases: list[tuple[str, str, str | None, str, float]] = []  # (classname, name, failure or None, text, seconds)
    suite = f"check of {result.target} under {result.options.convention}"
    configuration = ("configuration departs from the note's algorithm: " + "; ".join(d.message for d in result.departures)
                     if result.departures else None)
    cases.append(("configuration", "configuration", configuration, "", result.seconds_of("configuration")))
    generated = result.counterexample if result.counterexample is not None and result.counterexample.name == "generated" else None
    message, text = _failure(generated)
    if result.flaky:
        message = f"not deterministic: {result.flaky}" + ("" if message is None else f"; {message}")
    cases.append(("generated", GENERATED_CASE, message, text, result.seconds_of("generated")))
    for case in result.worked_examples:
        cases.append(("worked_examples", case.name.removeprefix("worked example ").strip("'"),
                      *_failure(None if case.passed else case), result.seconds_of(case.name)))
    failures = sum(1 for c in cases if c[2] is not None)
    root = ElementTree.Element("testsuites", name="verify-perceptron", tests=str(len(cases)), failures=str(failures),
                               errors="0", skipped="0", time=_seconds(result.seconds_of("total")))
    testsuite = ElementTree.SubElement(root, "testsuite", name=suite, tests=str(len(cases)), failures=str(failures),
                                       errors="0", skipped="0", time=_seconds(result.seconds_of("total")))
    properties = ElementTree.SubElement(testsuite, "properties")
    for name, value in (("target", result.target), ("generated_datasets_checked", str(result.n_examples)),
                        ("generated_datasets_set_aside", str(result.n_rejected))):
        ElementTree.SubElement(properties, "property", name=name, value=value)
    for classname, name, message, text, seconds in cases:
        element = ElementTree.SubElement(testsuite, "testcase", classname=f"verify_perceptron.check.{classname}",
                                         name=name, time=_seconds(seconds))
        if message is not None:
            failure = ElementTree.SubElement(element, "failure", message=message, type="PerceptronCheckFailure")
            failure.text = text
    for element in root.iter():  # XML 1.0 has no place for most control characters: show them escaped
        element.text = _xml_safe(element.text)
        for key, value in element.attrib.items():
            element.set(key, _xml_safe(value) or "")
    ElementTree.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ElementTree.tostring(root, encoding="unicode") + "\n"


def _seconds(seconds: float) -> str:
    """A ``time`` attribute: seconds to the microsecond, as a decimal (never an exponent).

    Examples
    --------
    >>> _seconds(1.5), _seconds(2e-05)
    ('1.500000', '0.000020')
    """
    return f"{max(seconds, 0.0):.6f}"


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _xml_safe(text: str | None) -> str | None:
    """`text` with every character XML 1.0 cannot hold shown as its ``\\xNN`` escape."""
    return None if text is None else _NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def _failure(case: CaseResult | None) -> tuple[str | None, str]:
    """The failure message (the counterexample in one line) and text (its report), or (None, "") when it passed."""
    if case is None:
        return None, ""
    finding = case.findings[0]
    data = case.literals().replace("\n", "; ")
    diagnosis = f"; diagnosis: {case.diagnoses[0].code}" if case.diagnoses else ""
    return f"{finding}; counterexample: {data}{diagnosis}", "\n".join(_case_lines(case, indent=""))
