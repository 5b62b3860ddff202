"""What the command line shows people is safe: control characters from arguments, data, file names and
matplotlib's warnings are shown escaped, in the terminal and in every text, Markdown and HTML report."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from verify_perceptron.cli import main

from tests.test_visible import CONTROLS

ESC = "\x1b[31m"
#: A CSV whose feature names and labels carry an ESC sequence and a right-to-left override.
HOSTILE = f"x{ESC}1,x2\u202e,label\n0,0,{ESC}no\n0,1,{ESC}no\n1,0,{ESC}no\n1,1,yes\u2066\n"


def _raw(text: str) -> list[str]:
    """The control characters in `text` a terminal would act on (newline and tab are the layout's own)."""
    return sorted({c for c in text if c in CONTROLS and c not in "\n\t"})


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv", [
    ["verify", "and.csv", f"{ESC}X\u202e"],                         # argparse: unrecognized arguments (raw before)
    ["verify", "--example", "and", f"--{ESC}X"],                    # the same, an option
    ["verify", "--example", "and", "--format", f"{ESC}X"],          # argparse: invalid choice (shown by repr)
    [f"{ESC}X\u202e"],                                              # argparse: no such command (shown by repr)
    ["verify", "--example", "and", "--eta", f"1{ESC}"],             # our own check of a value
    ["verify", f"{ESC}missing\n.csv"],                              # a file name, newline included (raw before)
])
def test_a_usage_error_shows_what_was_typed_escaped_on_one_line(argv: list[str], capsys) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2 and out == "" and _raw(err) == []
    assert err.count("\n") == 1 and "\\x1b" in err


def test_labels_and_names_are_escaped_in_the_terminal_and_in_every_report_file(tmp_path: Path, capsys,
                                                                              monkeypatch) -> None:
    from verify_perceptron.report import plots

    monkeypatch.setattr(plots, "available_figures", lambda report, data=None: ())  # the figures: the next test
    data = tmp_path / "hostile.csv"
    data.write_text(HOSTILE, encoding="utf-8")
    code, out, err = run(["verify", str(data), "--positive", "yes\u2066"], capsys)
    assert code == 0 and _raw(out) == [] and "\\x1b[31mno" in out and err == ""
    for fmt, suffix in (("text", "txt"), ("markdown", "md"), ("html", "html"), ("json", "json")):
        target = tmp_path / f"r.{suffix}"
        code, out, err = run(["verify", str(data), "--positive", "yes\u2066", "--format", fmt, "-o", str(target)],
                             capsys)
        assert code == 0, err
        text = target.read_text(encoding="utf-8")
        assert _raw(text) == [], fmt
        if fmt == "json":  # escaped on the wire, exact once read
            assert json.loads(text)["dataset"]["labels"]["negative"] == f"{ESC}no"
        else:
            assert "x1b[31mno" in text and "u2066" in text, fmt


def test_figures_show_the_data_escaped_dollars_as_dollars_and_matplotlib_warns_in_one_clean_line(
        tmp_path: Path, capsys, monkeypatch) -> None:
    pytest.importorskip("matplotlib")
    from verify_perceptron.report import plots

    # The one figure that shows labels and feature names. "$\frac$" would be matplotlib math, and a malformed
    # one (an internal error before); DejaVu Sans has no CJK glyph, which matplotlib warns of.
    monkeypatch.setattr(plots, "available_figures", lambda report, data=None: ("boundaries",))
    data = tmp_path / "d.csv"
    data.write_text(HOSTILE.replace("yes\u2066", "$\\frac$ 中"), encoding="utf-8")
    target = tmp_path / "r.md"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        code, out, err = run(["verify", str(data), "--positive", "$\\frac$ 中", "--format", "markdown",
                              "-o", str(target)], capsys)
    assert (code, out) == (0, "")
    assert [str(w.message) for w in caught] == []
    assert err.count("\n") == 1 and err.startswith("verify-perceptron: note: while drawing the figures: Glyph")
    assert _raw(err) == []
    figures = list((tmp_path / "r_figures").iterdir())
    assert [f.name.split("-")[0] for f in figures] == ["boundaries"]
    svg = figures[0].read_text(encoding="utf-8")
    assert _raw(svg) == [] and "$\\frac$" in svg  # shown as typed: the SVG is valid XML again
    assert _raw(target.read_text(encoding="utf-8")) == []


def test_bounds_shows_the_file_name_escaped(tmp_path: Path, capsys) -> None:
    data = tmp_path / f"and{ESC}.csv"
    data.write_text("x1,x2,label\n0,0,0\n0,1,0\n1,0,0\n1,1,1\n", encoding="utf-8")
    code, out, err = run(["bounds", str(data)], capsys)
    assert code == 0 and _raw(out) == [] and "and\\x1b[31m.csv" in out
