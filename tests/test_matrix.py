"""The end-to-end matrix: every command, in every format, at every epoch limit and convention, on real data.

The data are scikit-learn's bundled sets and sets at float64's ends, exported
the ways people export them (`tests.matrix_cases`). Each cell runs the
command line in-process (`verify_perceptron.cli.main` with captured
streams; a few cells run it as a process) and asserts:

- the exit code the mathematics gives, read from facts found without the
  package (`tests.matrix_cases.facts`: a separator or Gordan's λ checked
  exactly in Fractions): separable or not, no run breaks a theorem, so
  `verify` exits 0 (3 with ``--require-convergence`` when a run on separable
  data stopped at its limit), `bounds` 0, `check` of a correct perceptron 0,
  `proofs` 0; never 4 and never a traceback;
- that the output parses: JSON loads and holds the keys the README
  documents, JUnit validates against tests/schemas/junit.xsd, HTML's tags
  balance, Markdown's and HTML's figures exist and are SVG (at every
  magnitude: none is left out, and no report says one is); the verdict a text,
  Markdown or HTML report states is the one the facts allow;
- for JSON, the run's end read again independently: a converged run's final
  weights make no mistake under the convention's rule, a stopped one used
  all its epochs, and the verdict follows;
- for the API, `predict` gives back the training labels after a converged
  fit, under every convention.

The default run holds a slice of about 10 s: the `%g` export under
`classic` in text and JSON on the smaller sets (at the default epochs, at 7
for those at float64's ends), Markdown and HTML on iris12, the README's
walk-through on breast cancer at the default epochs (in text and JSON, and
as a process), and a cell of `bounds`, `check` and the API. The whole
matrix is marked slow (``python -m pytest -m slow``, about ten minutes on
two busy cores): where the full product would take hours, an export, a
convention or an epoch limit is taken in turn, and each cell's id names
what it ran.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import io
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from html.parser import HTMLParser
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.matrix_cases import CONVENTIONS, EXTREMES, SETS, Facts, arrays, export, exports_of, facts, mistakes_left
from verify_perceptron.cli import main

ROOT = Path(__file__).resolve().parent.parent
#: The epoch limits of the matrix; None runs at the default (1000).
EPOCHS = ("1", "7", None)
#: Every format of each command.
FORMATS = {"verify": ("text", "json", "markdown", "html"), "bounds": ("text", "json"),
           "check": ("text", "json", "junit"), "proofs": ("text", "json", "markdown")}
#: The small sets of the default slice (text and JSON; Markdown and HTML on iris12), at the default epochs, or at
#: 7 for those at float64's ends (whose runs are in long integers).
SMALL = ("iris01", "iris12", "digits01", "wine0", *EXTREMES)

#: A correct perceptron for each convention, as `check` is given it (with its labels).
CORRECT = {
    "classic": ("tests.implementations:perceptron", []),
    "hard-limiter": ("tests.implementations:zero_one_hard_limiter", ["--labels", "0/1"]),
    "hard-limiter-plus": ("tests.matrix_cases:hard_limiter_plus", []),
    "unit-ball": ("tests.implementations:perceptron", []),
    "sum-norm": ("tests.implementations:sum_norm_perceptron", []),
    "split-bias": ("tests.implementations:perceptron", []),
}

_VERDICT = re.compile(r"(VERIFIED AS FAR AS IT RAN|VERIFIED|NOT SEPARABLE|INCONCLUSIVE|VIOLATED)[^\n<]*?"
                      r"\(exit code (\d)\)")


@dataclass(frozen=True)
class Ran:
    """One command's exit code and its two streams."""

    code: int
    out: str
    err: str

    def sound(self) -> None:
        """Never an internal error, never a traceback."""
        assert self.code != 4 and "Traceback" not in self.err + self.out and "internal error" not in self.err, self.err


def run_cli(argv: list[str]) -> Ran:
    """`verify_perceptron.cli.main(argv)` in this process, its streams captured."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return Ran(code, out.getvalue(), err.getvalue())


def run_process(argv: list[str], cwd: Path) -> Ran:
    """``python -m verify_perceptron ARGV`` as a process (no terminal), within two minutes."""
    done = subprocess.run([sys.executable, "-m", "verify_perceptron", *argv], capture_output=True, text=True,
                          cwd=cwd, timeout=120, env=_process_env())
    return Ran(done.returncode, done.stdout, done.stderr)


def _process_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")  # `tests.implementations` importable
    return env


#: The `exported` fixture: (data set, kind) -> the file written.
Exported = Callable[[str, str], Path]


@pytest.fixture(scope="session")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Exported:
    """``exported(name, kind)``: the file of data set `name` written as `kind` (made once a session)."""
    folder = tmp_path_factory.mktemp("matrix-data")
    made: dict[tuple[str, str], Path] = {}

    def get(name: str, kind: str) -> Path:
        if (name, kind) not in made:
            made[name, kind] = export(name, kind, folder)
        return made[name, kind]

    return get


# --- what an output must hold ----------------------------------------------------------------------------------


@functools.cache
def documented_keys() -> frozenset[str]:
    """The top-level keys of `verify --format json`, from the README's table (``averaged`` comes with --averaged)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = next(block for block in text.split("### JSON report", 1)[1].split("\n\n") if block.startswith("| key"))
    keys = set()
    for row in table.splitlines():
        if row.startswith("| `"):
            keys |= set(re.findall(r"`([a-z_]+)`", row.split("|")[1]))
    assert {"verdict", "soft_margin", "updates_truncated"} <= keys  # (the table was found)
    return frozenset(keys - {"averaged"})


BOUNDS_KEYS = {"separable", "certificate", "separability", "max_margin", "max_margin_free_bias", "runs", "separators",
               "bounds", "findings", "batch_runs", "batch_bounds", "soft_margin", "orders"}
CHECK_KEYS = {"passed", "diagnosis", "also_consistent", "counterexample"}


class _Balance(HTMLParser):
    """Every element the HTML opens is closed, in order (void elements and ``<x/>`` aside)."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.open[-1:] or 'nothing'}")
        else:
            self.open.pop()


def assert_html(text: str) -> None:
    assert text.lstrip().lower().startswith("<!doctype html>")
    parser = _Balance()
    parser.feed(text)
    parser.close()
    assert not parser.problems and not parser.open, (parser.problems[:3], parser.open[-3:])


def assert_markdown(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("#")
    links = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert links, "a Markdown report written with -o has figures"
    assert "left out (" not in text, "every figure is drawn, at any magnitude"
    for link in links:
        figure = path.parent / link
        assert figure.is_file(), link
        assert ElementTree.parse(figure).getroot().tag.endswith("svg")


def assert_html_figures(text: str) -> None:
    """An HTML report has its figures, each an SVG image inside the page, and says of none that it is left out."""
    images = re.findall(r'<img src="data:image/svg\+xml;base64,([^"]+)"', text)
    assert images, "an HTML report has figures"
    assert "left out (" not in text, "every figure is drawn, at any magnitude"
    for image in images:
        assert ElementTree.fromstring(base64.b64decode(image)).tag.endswith("svg")


def assert_junit(text: str) -> None:
    import xmlschema

    xmlschema.XMLSchema(str(ROOT / "tests" / "schemas" / "junit.xsd")).validate(text)


def stated_verdict(text: str) -> tuple[str, int]:
    """The verdict a text, Markdown or HTML report states, and the exit code it names."""
    found = _VERDICT.findall(text)
    assert found, "no verdict line"
    verdict, code = found[-1]
    return verdict, int(code)


def test_the_facts_tell_true_from_false(exported: Exported) -> None:
    # the matrix's judges can fail: no Gordan λ for separable data, no separator for iris 1-2, and zero weights
    # wrong on every sample (classic), on the +1 samples only (sgn(0) = -1) or on the -1 samples only (sgn(0) = +1)
    from tests.matrix_cases import gordan, separator

    separable, mixed = facts(exported("iris01", "g"), "g"), facts(exported("iris12", "g"), "g")
    assert gordan(separable.X, separable.y) is None and separator(mixed.X, mixed.y) is None
    zero = ["0"] * 5
    assert mistakes_left("classic", zero, separable) == list(range(100))
    assert mistakes_left("hard-limiter", zero, separable) == [i for i, t in enumerate(separable.y) if t == 1]
    assert mistakes_left("hard-limiter-plus", zero, separable) == [i for i, t in enumerate(separable.y) if t == -1]


# --- verify ------------------------------------------------------------------------------------------------------


def _epochs(epochs: str | None) -> list[str]:
    return [] if epochs is None else ["--max-epochs", epochs]


def check_verify_json(report: dict[str, Any], fact: Facts, convention: str, epochs: str | None, code: int,
                      require: bool) -> None:
    """The JSON report against the facts: its keys, the data read, the run's end read again, the verdict."""
    assert documented_keys() <= set(report), documented_keys() - set(report)
    assert report["dataset"]["n_samples"] == len(fact.X) and report["dataset"]["n_features"] == fact.n_features
    assert report["separable"] is fact.separable
    assert all(i["holds"] is not False for i in report["invariants"]), [i["name"] for i in report["invariants"]]
    if report["converged"]:
        assert fact.separable and mistakes_left(convention, report["final_weights"], fact) == []
        verdict, expected = "verified", 0
    elif fact.separable:
        assert report["stop"] == "max-epochs" and report["n_epochs"] == int(epochs or 1000)
        verdict, expected = "stopped-separable", 3 if require else 0
    else:
        assert report["stop"] in ("cycle", "max-epochs")
        verdict, expected = "not-separable", 0
    assert (report["verdict"], report["exit_code"], code) == (verdict, expected, expected)
    soft = next(i for i in report["invariants"] if i["name"] == "soft-margin-bound")
    if fact.separable:  # u is the separator: the bound is checked at every mistake
        assert soft["holds"] is True and soft["n_checked"] == report["n_mistakes"]


def verify_cell(exported: Exported, tmp_path: Path, name: str, kind: str, fmt: str, epochs: str | None,
                convention: str, *, require: bool = False) -> None:
    path = exported(name, kind)
    fact = facts(path, kind)
    argv = ["verify", str(path), "--convention", convention, "--format", fmt, *_epochs(epochs)]
    argv += ["--require-convergence"] if require else []
    report_path = tmp_path / "report.md"
    if fmt == "markdown":
        argv += ["-o", str(report_path)]
    ran = run_cli(argv)
    ran.sound()
    if fmt == "json":
        check_verify_json(json.loads(ran.out), fact, convention, epochs, ran.code, require)
        return
    assert ran.code == 0, ran.err
    if fmt == "markdown":
        assert_markdown(report_path)
        shown = report_path.read_text(encoding="utf-8")
    else:
        shown = ran.out
        if fmt == "html":
            assert_html(shown)
            assert_html_figures(shown)
    verdict, code = stated_verdict(shown)
    assert code == ran.code
    assert verdict in (("VERIFIED", "VERIFIED AS FAR AS IT RAN") if fact.separable else ("NOT SEPARABLE",))


def _turn(name: str, *steps: int) -> str:
    """An export of `name` chosen in turn: over the cells of one data set, every export comes round."""
    kinds = exports_of(name)
    return kinds[((SETS + EXTREMES).index(name) + sum(steps)) % len(kinds)]


def _in_default(name: str, kind: str, fmt: str, epochs: str | None, convention: str) -> bool:
    """Whether a `verify` cell is in the default slice."""
    return (name in SMALL and kind == "g" and convention == "classic" and epochs == ("7" if name in EXTREMES else None)
            and (fmt in ("text", "json") or name == "iris12"))


def _cell(name: str, kind: str, fmt: str, epochs: str | None, convention: str) -> Any:
    default = _in_default(name, kind, fmt, epochs, convention)
    return pytest.param(name, kind, fmt, epochs, convention, id=f"{name}-{kind}-{fmt}-{epochs or 'default'}-{convention}",
                        marks=() if default else pytest.mark.slow)


def _verify_cells() -> list[Any]:
    """The `verify` cells, sized for about 12 minutes in all (a Markdown or HTML report costs seconds).

    For each data set: text and JSON at every epoch limit under every
    convention, the export taken in turn; every export in JSON at 7 epochs
    under two conventions in turn; Markdown and HTML at every epoch limit,
    the convention and export in turn. Whatever a cell varies, its id names.
    """
    cells: dict[tuple[str, str, str, str | None, str], None] = {}  # an ordered set of cells
    for name in SETS + EXTREMES:
        for e, epochs in enumerate(EPOCHS):
            for c, convention in enumerate(CONVENTIONS):
                for f, fmt in enumerate(("text", "json")):
                    kind = "g" if _in_default(name, "g", fmt, epochs, convention) else _turn(name, e, c, f)
                    cells[name, kind, fmt, epochs, convention] = None
            for f, fmt in enumerate(("markdown", "html")):
                convention = CONVENTIONS[(e + 3 * f + len(name)) % len(CONVENTIONS)]
                kind = "g" if _in_default(name, "g", fmt, epochs, "classic") else _turn(name, e, f)
                cells[name, kind, fmt, epochs, "classic" if kind == "g" and name == "iris12" else convention] = None
        for k, kind in enumerate(exports_of(name)):
            for convention in (CONVENTIONS[k % 6], CONVENTIONS[(k + 3) % 6]):
                cells[name, kind, "json", "7", convention] = None
    return [_cell(*cell) for cell in cells]


@pytest.mark.parametrize("name, kind, fmt, epochs, convention", _verify_cells())
def test_verify(exported: Exported, tmp_path: Path, name: str, kind: str, fmt: str, epochs: str | None,
                convention: str) -> None:
    verify_cell(exported, tmp_path, name, kind, fmt, epochs, convention)


@pytest.mark.slow
@pytest.mark.parametrize("name, epochs, convention", [
    pytest.param(name, epochs, convention, id=f"{name}-{epochs or 'default'}-{convention}")
    for name in SETS + EXTREMES for epochs in EPOCHS for convention in CONVENTIONS
    if epochs is not None or convention == "classic"])
def test_verify_requiring_convergence(exported: Exported, tmp_path: Path, name: str, epochs: str | None,
                                      convention: str) -> None:
    verify_cell(exported, tmp_path, name, "g", "json", epochs, convention, require=True)


@pytest.mark.parametrize("fmt", [pytest.param(fmt, marks=() if fmt in ("text", "json") else pytest.mark.slow)
                                 for fmt in FORMATS["verify"]])
def test_the_readme_walk_through_at_the_default_epochs(exported: Exported, tmp_path: Path, fmt: str) -> None:
    # the README's own data and command, without its --max-epochs 200
    verify_cell(exported, tmp_path, "cancer", "g", fmt, None, "classic")


def test_the_readme_walk_through_as_a_process(exported: Exported, tmp_path: Path) -> None:
    ran = run_process(["verify", str(exported("cancer", "g"))], tmp_path)
    ran.sound()
    assert ran.code == 0 and stated_verdict(ran.out) == ("VERIFIED AS FAR AS IT RAN", 0)


# --- bounds ------------------------------------------------------------------------------------------------------


def _bounds_cells() -> list[Any]:
    """For each data set: text and JSON at 1 and 7 epochs, and one at the default (where the runs cost most), the
    convention and the export in turn (the README's `%g` file at the default epochs)."""
    cells = []
    for index, name in enumerate(SETS + EXTREMES):
        plan = [("text", "1"), ("json", "1"), ("text", "7"), ("json", "7"), (("json", "text")[index % 2], None)]
        for step, (fmt, epochs) in enumerate(plan):
            convention = CONVENTIONS[(index + step) % len(CONVENTIONS)]
            kind = "g" if epochs is None else _turn(name, step)
            default = name == "iris12" and fmt == "json" and epochs == "7"
            if default:
                kind, convention = "g", "classic"
            cells.append(pytest.param(name, kind, fmt, epochs, convention,
                                      id=f"{name}-{kind}-{fmt}-{epochs or 'default'}-{convention}",
                                      marks=() if default else pytest.mark.slow))
    return cells


@pytest.mark.parametrize("name, kind, fmt, epochs, convention", _bounds_cells())
def test_bounds(exported: Exported, name: str, kind: str, fmt: str, epochs: str | None, convention: str) -> None:
    path = exported(name, kind)
    fact = facts(path, kind)
    ran = run_cli(["bounds", str(path), "--convention", convention, "--format", fmt, *_epochs(epochs)])
    ran.sound()
    assert ran.code == 0, ran.err  # decided, and no note's bound is below a run's mistakes
    if fmt == "json":
        record = json.loads(ran.out)
        assert BOUNDS_KEYS <= set(record) and record["separable"] is fact.separable
    else:
        assert ran.out.startswith("data ") and ("max-margin" in ran.out) is fact.separable


# --- check -------------------------------------------------------------------------------------------------------


def _check_cells() -> list[Any]:
    """Every format at 7 epochs and at the default under every convention; at one epoch (a one-pass learner)
    every format once, the convention in turn."""
    cells = []
    for f, fmt in enumerate(FORMATS["check"]):
        for epochs in EPOCHS:
            for c, convention in enumerate(CONVENTIONS):
                if epochs == "1" and c != 2 * f:
                    continue
                default = convention == "classic" and epochs is None
                cells.append(pytest.param(fmt, epochs, convention, id=f"{fmt}-{epochs or 'default'}-{convention}",
                                          marks=() if default else pytest.mark.slow))
    return cells


@pytest.mark.parametrize("fmt, epochs, convention", _check_cells())
def test_check_passes_a_correct_perceptron(fmt: str, epochs: str | None, convention: str) -> None:
    target, options = CORRECT[convention]
    if epochs is not None:  # --max-epochs T declares a learner that stops after T epochs, converged or not
        target = f"tests.matrix_cases:StoppedReference(convention={convention!r}, max_iter={epochs})"
        options = ["--labels", "0/1"] if "0/1" in options else []
    ran = run_cli(["check", target, "--convention", convention, "--format", fmt, "--examples", "3",
                   *options, *_epochs(epochs)])
    ran.sound()
    assert ran.code == 0, ran.out[-2000:] + ran.err
    if fmt == "json":
        record = json.loads(ran.out)
        assert CHECK_KEYS <= set(record) and record["passed"] is True and record["diagnosis"] is None
    elif fmt == "junit":
        assert_junit(ran.out)
        assert ElementTree.fromstring(ran.out).get("failures") in ("0", None)
    else:
        assert "passed" in ran.out


# --- proofs ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt, note", [
    pytest.param(fmt, note, id=f"{fmt}-{note}", marks=pytest.mark.slow)  # (SymPy: the default suite has its own)
    for fmt in FORMATS["proofs"] for note in CONVENTIONS])
def test_proofs(fmt: str, note: str) -> None:
    ran = run_cli(["proofs", "--note", note, "--format", fmt])
    ran.sound()
    assert ran.code == 0, ran.err
    if fmt == "json":
        records = json.loads(ran.out)
        assert records and all({"steps", "errata", "note"} <= set(r) for r in records)
    elif fmt == "markdown":
        assert ran.out.startswith("#")
    else:
        assert ran.out.strip()


# --- a few cells as processes --------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("argv", [
    ["bounds", "{iris12}", "--format", "json"],
    ["verify", "{mixed}", "--format", "html", "--max-epochs", "7"],
    ["check", "tests.implementations:perceptron", "--format", "junit", "--examples", "3"],
    ["proofs", "--note", "hard-limiter-plus", "--format", "markdown"],
], ids=["bounds-json", "verify-html", "check-junit", "proofs-markdown"])
def test_commands_as_processes(exported: Exported, tmp_path: Path, argv: list[str]) -> None:
    argv = [str(exported(a[1:-1], "g")) if a.startswith("{") else a for a in argv]
    ran = run_process(argv, tmp_path)
    ran.sound()
    assert ran.code == 0, ran.err
    if "json" in argv:
        json.loads(ran.out)
    elif "junit" in argv:
        assert_junit(ran.out)
    elif "html" in argv:
        assert_html(ran.out)
        assert_html_figures(ran.out)


# --- the API -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, convention", [
    pytest.param(name, convention, id=f"{name}-{convention}",
                 marks=() if name == "iris01" else pytest.mark.slow)
    for name in SETS + EXTREMES for convention in CONVENTIONS])
def test_predict_gives_back_the_labels_after_a_converged_fit(name: str, convention: str) -> None:
    import verify_perceptron as vp

    X, y, _ = arrays(name)
    # (the sets that do not converge within the default epochs run 7: their binary floats make long runs long)
    epochs = 7 if name in ("cancer", "wine0", "iris12", "mixed") else 1000
    model = vp.ExactPerceptron(convention=convention, max_epochs=epochs).fit(X, y)
    verification = model.verification_
    assert verification is not None  # fit verifies by default
    assert verification.verdict != "violated" and verification.report["exit_code"] in (0, 3)
    # (setosa against versicolor: a few epochs under every convention, as the README's gallery shows)
    assert verification.trace.converged or name != "iris01"
    if verification.trace.converged:
        assert np.array_equal(model.predict(X), y)
    else:
        assert verification.report["separable"] is not None


@pytest.mark.slow
@pytest.mark.parametrize("name", SETS + EXTREMES)
def test_verify_takes_a_dataframe_and_its_label_column(exported: Exported, name: str) -> None:
    import pandas as pd

    import verify_perceptron as vp

    X, y, names = arrays(name)
    frame = pd.DataFrame(X, columns=list(names))
    frame["target"] = y
    result = vp.verify(frame, "target", max_epochs=7)
    fact = facts(exported(name, "npy"), "npy")  # the same binary floats
    check_verify_json(dict(result.report), fact, "classic", "7", result.report["exit_code"], False)
