"""The report's format from the output's name (`verify_perceptron.arguments.format_from_name`), the
``--keep-index`` spelling of ``--index-column keep``, and ``--version`` on every subcommand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from verify_perceptron import cli
from verify_perceptron.arguments import build_parser, check_usage
from verify_perceptron.errors import InvalidArgument

AND_CSV = "x1,x2,label\n0,0,0\n0,1,0\n1,0,0\n1,1,1\n"
#: pandas' to_csv of a frame whose index separates the classes that x alone does not
PANDAS = ",x,target\n0,0,0\n1,2,0\n2,1,1\n"

#: What the first characters of each format's report are.
STARTS = {"text": "data ", "json": "{", "markdown": "# Perceptron report", "html": "<!DOCTYPE html>"}


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name, fmt", [("r.html", "html"), ("r.htm", "html"), ("r.md", "markdown"),
                                       ("r.json", "json"), ("r.txt", "text"), ("R.JSON", "json"),
                                       ("r.out", "text"), ("report", "text"), ("r.xml", "text")])
def test_verify_writes_the_format_its_output_s_name_asks_for(tmp_path: Path, name: str, fmt: str,
                                                              capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    if fmt in ("html", "markdown"):  # the figures are not what is tested here (Markdown's drew two sets, 4 s)
        from verify_perceptron.report import plots
        monkeypatch.setattr(plots, "report_figures", lambda report, data=None, *, warnings=None: {})
    (tmp_path / "and.csv").write_text(AND_CSV)
    code, out, err = run(["verify", str(tmp_path / "and.csv"), "-o", str(tmp_path / name)], capsys)
    assert (code, out) == (0, "")
    assert (tmp_path / name).read_text(encoding="utf-8").startswith(STARTS[fmt])
    # and the explicit --format that agrees is accepted
    code, _, _ = run(["verify", str(tmp_path / "and.csv"), "-o", str(tmp_path / name), "--format", fmt], capsys)
    assert code == 0


@pytest.mark.parametrize("fmt, name, named", [("text", "r.html", "an HTML"), ("json", "r.md", "a Markdown"),
                                              ("html", "r.json", "a JSON"), ("markdown", "r.txt", "a text"),
                                              ("text", "r.htm", "an HTML")])
def test_a_format_that_disagrees_with_the_name_is_refused_before_the_run(
        tmp_path: Path, fmt: str, name: str, named: str, capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(tmp_path / "missing.csv")  # never read: the usage is refused first
    target = tmp_path / name
    code, out, err = run(["verify", missing, "--format", fmt, "-o", str(target)], capsys)
    assert (code, out) == (2, "")
    assert err == (f"verify-perceptron: error: --format {fmt} disagrees with -o {target}, {named} file's name: "
                   "drop one, or make them agree\n")
    assert list(tmp_path.iterdir()) == []


def test_check_takes_its_format_from_the_name_and_refuses_one_it_does_not_write() -> None:
    parser = build_parser()

    def usage(*argv: str) -> str:
        args = parser.parse_args(["check", "m:f", *argv])
        check_usage(args)
        return str(args.format)

    assert usage("-o", "r.xml") == "junit" and usage("-o", "r.JSON") == "json" and usage("-o", "r.txt") == "text"
    assert usage("-o", "r.out") == "text" and usage() == "text" and usage("--format", "junit") == "junit"
    with pytest.raises(InvalidArgument, match=r"^-o r.html is an HTML file's name, but check writes text, json or "
                                              r"junit: give --format or another name$"):
        usage("-o", "r.html")
    with pytest.raises(InvalidArgument, match=r"^--format json disagrees with -o r.xml, a JUnit XML file's name"):
        usage("-o", "r.xml", "--format", "json")
    with pytest.raises(InvalidArgument, match=r"^--format junit disagrees with -o r.md, a Markdown file's name"):
        usage("-o", "r.md", "--format", "junit")


def test_check_refuses_a_disagreeing_name_on_the_command_line(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["check", "no_such_module:fit", "-o", str(tmp_path / "r.html")], capsys)
    assert (code, out) == (2, "") and "is an HTML file's name, but check writes" in err
    assert list(tmp_path.iterdir()) == []


def test_keep_index_is_index_column_keep(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.csv"
    path.write_text(PANDAS)
    _, out, _ = run(["verify", str(path), "--format", "json"], capsys)
    assert json.loads(out)["dataset"]["n_features"] == 1
    _, out, _ = run(["verify", str(path), "--format", "json", "--keep-index"], capsys)
    kept = json.loads(out)
    assert (kept["dataset"]["n_features"], kept["dataset"]["row_index"], kept["verdict"]) == (2, None, "verified")
    code, _, err = run(["verify", str(path), "--keep-index", "--index-column", "drop"], capsys)
    assert code == 2 and "not allowed with argument --keep-index" in err


@pytest.mark.parametrize("command", ["verify", "bounds", "check", "proofs"])
def test_every_subcommand_has_version(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    from verify_perceptron import __version__

    code, out, err = run([command, "--version"], capsys)
    assert (code, out, err) == (0, f"verify-perceptron {__version__}\n", "")
