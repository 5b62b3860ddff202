"""The harness's verdicts as immutable records and how they read: a `Finding`, a `FloatDecision`, the
`CaseResult` of one dataset, the `HarnessResult` of a whole check, `ImplementationFailure`, which
carries its report; then the report's text (settings, cases, findings, a one-line reproduction)."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..data.dataset import Dataset
from ..data.trace import Trace
from ..errors import InvariantViolation
from ..notes.conventions import get_convention
from ._exact import Vector
from ._options import CheckOptions
from ._tokens import given, keywords as keywords_of, shown as labels_shown
from ..data.exact_text import nearest_float
from ._wording import _approx, _count, _number, _rate_text, _vec


class ImplementationFailure(InvariantViolation):
    """An implementation broke the algorithm or the theorem; the message is the harness's report."""


# Tracebacks name the class where users import it from, not the private module that defines it.
ImplementationFailure.__module__ = "verify_perceptron.harness"


@dataclass(frozen=True)
class Finding:
    """One thing wrong with one case: the check that failed and what, exactly, it saw.

    Examples
    --------
    >>> print(Finding("final-weights-separate", "sample 0 scores 0"))
    final-weights-separate: sample 0 scores 0
    """

    check: str
    message: str
    update: int | None = None
    sample: int | None = None

    def __str__(self) -> str:
        return f"{self.check}: {self.message}"


@dataclass(frozen=True)
class Diagnosis:
    """A cause that reproduces the implementation's output exactly: a code, its parameters, and the sentence.

    Examples
    --------
    >>> Diagnosis("order", {"order": [1, 0]}, "consistent with ... the order [1, 0]").code
    'order'
    """

    code: str
    parameters: dict[str, Any]  # JSON: each code has its own parameters (the table in docs/harness.md)
    text: str


@dataclass(frozen=True)
class FloatDecision:
    """Where float64 arithmetic decided a sample differently from exact arithmetic.

    Attributes
    ----------
    update : int
        The number the update would have (or had), counting from 1: the decision came after update - 1 updates.
    epoch : int
        The pass, from 1.
    sample : int
        The sample, from 0.
    exact_score : Fraction
        The score of those very weights on that sample, computed exactly.
    float_score : float
        The score float64 computed.
    mistake_exactly : bool
        Whether exact arithmetic calls it a mistake (float64 said the opposite).
    """

    update: int
    epoch: int
    sample: int
    exact_score: Fraction
    float_score: float
    mistake_exactly: bool

    def describe(self) -> str:
        """One line: where, the exact score and the float64 score, and how each was judged.

        Examples
        --------
        >>> print(FloatDecision(3, 2, 1, Fraction(0), 5.551115123125783e-17, True).describe())
        at update 3 (epoch 2, sample 1): the exact score is 0 (a mistake), float64 computes 5.551115123125783e-17 (not a mistake)
        """
        said = "a mistake" if self.mistake_exactly else "not a mistake"
        other = "not a mistake" if self.mistake_exactly else "a mistake"
        return (f"at update {self.update} (epoch {self.epoch}, sample {self.sample}): the exact score is "
                f"{_number(self.exact_score)} ({said}), float64 computes {self.float_score!r} ({other})")


@dataclass(frozen=True)
class CaseResult:
    """The verdict on one dataset.

    Attributes
    ----------
    name : str
        ``generated``, ``worked example 'and'`` or ``given dataset``.
    data : Dataset
        The data exactly as the implementation saw them (floats are their exact values).
    options : CheckOptions
        The settings it was checked under.
    target : str
        The implementation, as ``module:name`` when it can be imported.
    findings : tuple of Finding
        What is wrong, in check order; empty when the case passed.
    notes : tuple of str
        Diagnoses (what the output is consistent with, where float rounding changed a decision),
        warnings the implementation raised, and how the inputs were rounded.
    target_code : (str, str) or None
        How the reproduction names the implementation: an import statement (or "") and a Python
        expression; None when it cannot be named from outside (a local function).
    separable : bool
        Whether the data are linearly separable (decided exactly).
    reference : Trace or None
        The exact run (learning rate 1) on these data.
    weights : tuple of Fraction or None
        The implementation's final weights, in the convention's coordinates.
    n_updates : int or None
        The number of updates it reported, if it did.
    factor : Fraction or None
        c: its weights divided by the exact run's (its learning rate).
    rounding : FloatDecision or None
        The first decision float64 rounding changed, when that explains a failure.
    output : str
        What the implementation printed (stdout and stderr) on these data, its start and its end when
        long (`_capture`); shown only on failure.
    diagnoses : tuple of Diagnosis
        The notes' causes that reproduce its output, as codes with parameters (their text is in `notes`).
    output_bytes : int
        How many bytes it printed in all.
    """

    name: str
    data: Dataset
    options: CheckOptions
    target: str
    findings: tuple[Finding, ...]
    notes: tuple[str, ...] = ()
    target_code: tuple[str, str] | None = None
    separable: bool = True
    reference: Trace | None = None
    weights: Vector | None = None
    n_updates: int | None = None
    factor: Fraction | None = None
    rounding: FloatDecision | None = None
    output: str = ""
    diagnoses: tuple[Diagnosis, ...] = ()
    output_bytes: int = 0

    @property
    def passed(self) -> bool:
        """True when nothing was found wrong."""
        return not self.findings

    @property
    def labels(self) -> list[int] | list[str]:
        """The labels as the implementation received them (0/1 under ``labels="0/1"``, ``R`` and ``M`` under "R/M")."""
        return given(self.data.y, self.options.labels, self.options.classes)

    def literals(self) -> str:
        """The dataset as exact Python literals (strings, read back exactly by `from_arrays`), the labels
        in the encoding the implementation received.

        Examples
        --------
        >>> from verify_perceptron.data.examples import example
        >>> print(CaseResult("given dataset", example("and"), CheckOptions(), "f", ()).literals())
        X = [["0", "0"], ["0", "1"], ["1", "0"], ["1", "1"]]
        y = [-1, -1, -1, 1]
        """
        return f"X = {_rows_literal(self.data)}\ny = {self.labels}"

    def reproduction(self) -> str:
        """A one-line shell command that checks this dataset again and prints the same report."""
        return _reproduction(self.target_code, self.data, self.labels if self.options.classes is None else
                             list(self.data.y), self.options)

    def report(self) -> str:
        """The whole verdict on this dataset, as text."""
        return "\n".join(_case_lines(self, indent=""))


@dataclass(frozen=True)
class HarnessResult:
    """The verdict on an implementation: the minimal counterexample if there is one.

    Attributes
    ----------
    target : str
        The implementation, as ``module:name`` when it can be imported.
    options : CheckOptions
        The settings it was checked under.
    departures : tuple of Finding
        Where its configuration departs from the note's algorithm (``shuffle=True``, ``tol=...``, a
        learning rate binary floating point cannot hold), read from ``get_params()``.
    counterexample : CaseResult or None
        The shrunk failing case (or a failing worked example when no generated one failed).
    worked_examples : tuple of CaseResult
        The notes' worked examples.
    n_examples : int
        Generated datasets checked (up to the first failure, when there is one).
    n_rejected : int
        Generated datasets set aside (the exact run too slow, or float64 would round).
    flaky : str or None
        Set when the failure did not happen again on the same data (a non-deterministic implementation).
    reports_updates : bool
        Whether the implementation reported its updates, so that every update was checked.
    flaky_diagnosis : Diagnosis or None
        For an implementation that is not deterministic: a random start, or else a random order.
    loading_output : str
        What it printed while being loaded (its module's import, its constructor), cut to a head and a tail.
    seconds : tuple of (str, float)
        Wall-clock seconds measured for each part of the check: ``total`` (loading included),
        ``configuration``, ``generated`` (the search, its shrink and diagnosis) and each worked
        example by its case name (its diagnosis included); JUnit's ``time`` attributes.
    """

    target: str
    options: CheckOptions
    departures: tuple[Finding, ...]
    counterexample: CaseResult | None
    worked_examples: tuple[CaseResult, ...]
    n_examples: int
    n_rejected: int
    flaky: str | None = None
    reports_updates: bool = False
    flaky_diagnosis: Diagnosis | None = None
    loading_output: str = ""
    seconds: tuple[tuple[str, float], ...] = ()

    def seconds_of(self, part: str) -> float:
        """The seconds measured for `part` (0.0 when it was not measured)."""
        return dict(self.seconds).get(part, 0.0)

    @property
    def diagnoses(self) -> tuple[Diagnosis, ...]:
        """What the failure is, the diagnosis first (then other causes that fit as well); empty when passed."""
        found = self.counterexample.diagnoses if self.counterexample is not None else ()
        return found or ((self.flaky_diagnosis,) if self.flaky_diagnosis is not None else ())

    @property
    def passed(self) -> bool:
        """True when no case failed and the configuration departs from nothing (or only accepted things)."""
        return (self.counterexample is None and not self.departures and self.flaky is None
                and all(c.passed for c in self.worked_examples))

    def report(self) -> str:
        """The full report: settings, verdict, the counterexample with its reproduction, worked examples."""
        return _harness_report(self)


# --- the text of a verdict ----------------------------------------------------------------------


def _rows_literal(data: Dataset) -> str:
    return "[" + ", ".join("[" + ", ".join(f'"{_number(v)}"' for v in row) + "]" for row in data.X) + "]"


def _reproduction(code: tuple[str, str] | None, data: Dataset, labels: list[int] | list[str],
                  options: CheckOptions) -> str:
    head, call = code if code is not None else ("", "YOUR_IMPLEMENTATION")
    path = _import_path(call)
    defaults = CheckOptions()
    keywords = [f"convention={options.convention!r}", f"dtype={options.dtype!r}", keywords_of(options.labels, options.classes)]
    if options.eta is not None:
        keywords.append(f"eta={_number(options.eta)!r}")
    if options.max_epochs is not None:
        keywords.append(f"max_epochs={_number(options.max_epochs)}")
    if options.detects_nonseparable != defaults.detects_nonseparable:
        keywords.append("detects_nonseparable=True")
    if options.output != defaults.output:
        keywords.append(f"output={options.output!r}")
    if options.call_timeout != defaults.call_timeout:
        keywords.append(f"call_timeout={options.call_timeout!r}")
    if options.accept_departures:
        keywords.append(f"accept_departures={options.accept_departures!r}")
    if options.averaged:
        keywords.append("averaged=True" if options.average == "presentations" else f"averaged={options.average!r}")
    if options.mode != "online":
        keywords.append(f"mode={options.mode!r}")
    if options.bias is not None:
        keywords.append(f"bias={options.bias!r}")
    rows = "[" + ", ".join("[" + ", ".join(repr(_number(v)) for v in row) + "]" for row in data.X) + "]"
    line = (f"from verify_perceptron.harness import check_dataset; {path}{head}print(check_dataset({call}, "
            f"{rows}, {labels}, {', '.join(keywords)}).report())")
    if any(c in line for c in '"$`\\!'):  # the shell would read these inside double quotes
        return f"python -c {shlex.quote(line)}"
    return f'python -c "{line}"'


def _import_path(call: str) -> str:
    """``import sys; sys.path.insert(0, DIR); `` when the implementation's module comes from a folder that
    is not always on the path (the project being tested), so that the line works from any directory."""
    import importlib.util
    import os
    import site

    if not call.startswith(("'", '"')) or ":" not in call:
        return ""
    module = call[1:].split(":", 1)[0].strip()
    try:
        spec = importlib.util.find_spec(module.split(".")[0])
    except (ImportError, ValueError):
        return ""
    if spec is None or spec.origin in ("built-in", "frozen"):
        return ""
    if spec.origin:  # a module, or a package's __init__
        top = os.path.dirname(spec.origin)
        root = os.path.abspath(os.path.dirname(top) if spec.submodule_search_locations else top)
    elif spec.submodule_search_locations:  # a namespace package (a tests/ folder without __init__)
        root = os.path.abspath(os.path.dirname(list(spec.submodule_search_locations)[0]))
    else:
        return ""
    always = {os.path.abspath(p) for p in (*site.getsitepackages(), site.getusersitepackages())}
    if root in always or root == os.path.abspath(os.path.dirname(os.__file__)):
        return ""
    return f"import sys; sys.path.insert(0, {root!r}); "


_NUMBERS_SHOWN = {
    "integers": "integer values",
    "dyadic": "small dyadic values, on which float64 computes every score exactly",
    "rationals": "rational values",
    "floats": "float64 values with 53 significant bits: rounding stress",
}


def _settings_line(options: CheckOptions) -> str:
    conv = get_convention(options.convention)
    rate = f"learning rate {_rate_text(options.eta)}" if options.eta is not None else "learning rate inferred from the output"
    limit = ("" if options.max_epochs is None else
             f", at most {_count(options.max_epochs, 'epoch')} (compared with the run stopped after "
             f"{_count(options.max_epochs, 'epoch')}, converged or not)")
    mode = "; batch mode: one step a pass, by the sum over the samples it misclassifies" if options.mode == "batch" else ""
    return (f"convention {conv.name} (note {conv.note_number}: {conv.summary}{mode}); dtype {options.dtype}, "
            f"labels {labels_shown(options.labels, options.classes)}, {rate}{limit}")


#: An exact fraction in a report's sentence: p/q, not inside a word, a path or a longer fraction, nor a pair of
#: labels (``labels 1/2``).
_FRACTION = re.compile(r"(?<![\w./])(?<!labels )-?\d+/\d+(?![\w/.])(?! \((?:the double|≈))")


#: Digits past which a fraction's decimal is computed from its leading digits (`int` refuses 4,300 and more).
_LONG_TOKEN = 1000


def _decimal_of(token: str) -> str | None:
    """The decimal shown beside the exact fraction `token`: the nearest double's shortest text, or three
    digits past the doubles' range; None when `token` is not a fraction in lowest terms (``0/1`` names the
    label encoding, not a number)."""
    numerator, denominator = token.split("/")
    if len(token) > _LONG_TOKEN:  # far past the doubles' range either way: its magnitude from the digits
        from decimal import Context, Decimal

        return format(Context(prec=3).divide(Decimal(numerator), Decimal(denominator)), ".2e")
    value = Fraction(int(numerator), int(denominator))
    if value.denominator == 1 or value.denominator != int(denominator):
        return None
    double = nearest_float(value)
    if double is None or (double == 0 and value != 0):
        return _approx(value)
    return repr(double)


def with_decimals(line: str) -> str:
    """`line` with a decimal beside every exact fraction in it (``1/3`` -> ``1/3 (≈ 0.3333333333333333)``).

    Examples
    --------
    >>> with_decimals("weights [-3602879701896397/36028797018963968, 2], rate 1/2, labels 0/1")
    'weights [-3602879701896397/36028797018963968 (≈ -0.1), 2], rate 1/2 (≈ 0.5), labels 0/1'
    >>> with_decimals("the rate 1/10 (the double 0.1) in /tmp/1/2; --labels 1/2")
    'the rate 1/10 (the double 0.1) in /tmp/1/2; --labels 1/2'
    >>> with_decimals("w0: -1/" + "3" * 5000)[-20:]
    '3333 (≈ -3.00e-5000)'
    """
    def beside(match: re.Match[str]) -> str:
        decimal = _decimal_of(match.group())
        return match.group() if decimal is None else f"{match.group()} (≈ {decimal})"

    return _FRACTION.sub(beside, line)


#: Sentences quoted from the implementation keep their text as it was.
_QUOTED = ("the implementation warned: ", "while being loaded, the implementation printed: ")


def _case_lines(case: CaseResult, *, indent: str) -> list[str]:
    conv = get_convention(case.options.convention)
    d = case.data
    lines = [f"{indent}{case.name}: {d.n_samples} samples, {d.n_features} feature{'s' if d.n_features > 1 else ''}"
             f"{'' if case.separable else ', not linearly separable'}: {'passed' if case.passed else 'FAILED'}"]
    lines += [f"{indent}  {line}" for line in case.literals().splitlines()]
    if case.findings:
        lines.append(f"{indent}  what is wrong:")
        lines += [f"{indent}    - {with_decimals(str(finding))}" for finding in case.findings]
    if case.notes:
        lines.append(f"{indent}  notes:")
        lines += [f"{indent}    - {note if note.startswith(_QUOTED) else with_decimals(note)}" for note in case.notes]
    ref = case.reference
    if ref is not None and case.separable:
        steps = ", ".join(f"sample {u.samples[0]} (score {_number(u.scores[0])})" if len(u.samples) == 1 else
                          f"samples {', '.join(map(str, u.samples))} (scores {', '.join(map(_number, u.scores))})"
                          for u in ref.updates[:8])
        more = ", ..." if ref.n_updates > 8 else ""
        stopped = " (stopped there: the declared epoch limit)" if ref.stop == "max-epochs" else ""
        lines.append(with_decimals(f"{indent}  exact run (learning rate 1): {_count(ref.n_updates, 'update')} in "
                                   f"{_count(ref.n_epochs, 'epoch')}{stopped} "
                                   f"[{steps}{more}], final weights {_vec(ref.final_weights)} "
                                   f"({', '.join(conv.weight_names(d.n_features))})"))
    if case.weights is not None:
        reported = "updates not reported" if case.n_updates is None else f"{_count(case.n_updates, 'update')} reported"
        lines.append(with_decimals(f"{indent}  implementation: final weights {_vec(case.weights)}, {reported}"))
    if not case.passed and case.output:
        size = _count(case.output_bytes, "byte") if case.output_bytes else _count(len(case.output), "character")
        lines.append(f"{indent}  output of the implementation (stdout and stderr, {size}):")
        lines += [f"{indent}    | {line}" for line in _truncated(case.output).splitlines()]
    if not case.passed:
        lines.append(f"{indent}  reproduce:")
        lines.append(f"{indent}    {case.reproduction()}")
    return lines


#: How much of an implementation's output a report shows: its start and, mostly, its end (where errors are).
_OUTPUT_HEAD, _OUTPUT_TAIL = 400, 1600


def _truncated(text: str) -> str:
    """`text`, or its first and last characters with the number cut between them.

    Examples
    --------
    >>> _truncated("x" * 3000).count("x"), "[... 1000 characters cut ...]" in _truncated("x" * 3000)
    (2000, True)
    """
    if len(text) <= _OUTPUT_HEAD + _OUTPUT_TAIL:
        return text
    cut = len(text) - _OUTPUT_HEAD - _OUTPUT_TAIL
    return f"{text[:_OUTPUT_HEAD]}\n[... {cut} characters cut ...]\n{text[-_OUTPUT_TAIL:]}"


def _harness_report(result: HarnessResult) -> str:
    options = result.options
    verdict = "passed" if result.passed else "FAILED"
    lines = [f"check of {result.target}", f"  {with_decimals(_settings_line(options))}",
             f"  data: up to {options.examples} generated datasets ({_NUMBERS_SHOWN[options.numbers]}"
             + (", non-separable ones too" if options.detects_nonseparable else "")
             + (")" if not options.worked_examples else ") and the notes' worked examples"),
             "  checks: the final weights separate the data and equal the exact run's up to the learning rate"
             + ("; every reported update obeys the rule and keeps the proof's invariants, the mistake bound included"
                if result.reports_updates else "; the updates are not reported, so not checked one by one"),
             f"verdict: {verdict}"]
    if result.diagnoses:
        first = result.diagnoses[0]
        lines.append(f"diagnosis ({first.code}): {with_decimals(first.text)}")
    if result.departures:
        lines.append("configuration departs from the note's algorithm:")
        lines += [f"  - {with_decimals(d.message)}" for d in result.departures]
    if result.flaky:
        lines.append(f"not deterministic: {result.flaky}")
    if result.counterexample is not None:
        shrunk = " (shrunk to a minimal one)" if result.counterexample.name == "generated" else ""
        lines.append(f"counterexample{shrunk}:")
        lines += _case_lines(result.counterexample, indent="  ")
    generated = (f"generated: {_count(result.n_examples, 'dataset')} checked"
                 + (" before the first failure" if result.counterexample is not None
                    and result.counterexample.name == "generated" else "")
                 + f", {result.n_rejected} set aside")
    lines.append(generated)
    if result.worked_examples:
        shown = []
        for case in result.worked_examples:
            status = "passed" if case.passed else f"FAILED ({case.findings[0].check})"
            shown.append(f"{case.name.removeprefix('worked example ')} {status}")
        lines.append("worked examples: " + ", ".join(shown))
    if result.loading_output:
        lines.append(f"output of the implementation while being loaded ({_count(len(result.loading_output), 'character')}):")
        lines += [f"    | {line}" for line in _truncated(result.loading_output).splitlines()]
    return "\n".join(lines) + "\n"
