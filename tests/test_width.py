"""One width (report/_width.py): every line of the text report fits COLUMNS, --width or the terminal; cut or
wrapped at cell boundaries, never inside a word or a number; --exact and JSON never cut."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from verify_perceptron import cli
from verify_perceptron.report._width import fit_lines, fit_table

pytest.importorskip("sklearn")


@pytest.fixture(scope="module")
def cancer(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """breast cancer exported as the README's walk-through exports it."""
    import numpy as np
    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True)
    path = tmp_path_factory.mktemp("cancer") / "cancer.csv"
    np.savetxt(path, np.c_[X, y], fmt="%g", delimiter=",")
    return path


def _text(argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[str]:
    assert cli.main(argv) == 0
    return capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("epochs", [[], ["--max-epochs", "200"]], ids=["default epochs", "200 epochs"])
def test_breast_cancer_at_columns_80_has_no_line_over_80(cancer: Path, epochs: list[str], capsys,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    lines = _text(["verify", str(cancer), *epochs], capsys)
    assert max(map(len, lines)) <= 80, max(lines, key=len)
    assert any(line.startswith("verdict: ") for line in lines) and len(lines) > 60
    monkeypatch.delenv("COLUMNS")
    assert max(map(len, _text(["verify", str(cancer), *epochs], capsys))) > 80  # a pipe: as wide as it is


@pytest.mark.parametrize("width", [60, 100, 200])
def test_every_line_fits_width_and_no_word_is_split(cancer: Path, width: int, capsys, monkeypatch) -> None:
    # read by its name from its folder: a temporary path can be longer than 60 columns, and a word longer than
    # the line is broken (the one break this test does not expect)
    monkeypatch.chdir(cancer.parent)
    lines = _text(["verify", cancer.name, "--max-epochs", "200", "--width", str(width)], capsys)
    assert max(map(len, lines)) <= width
    whole = " ".join(_text(["verify", cancer.name, "--max-epochs", "200", "--width", "10000"], capsys))
    words = set(whole.split())
    # every word shown at this width is a word of the report, or a cut vector's or list's own marker
    for word in " ".join(lines).split():
        assert word in words or re.fullmatch(r"\[?…|more|…\]?,?|\d+|\S+,?…|\[\S+,|\S+\]", word), word


def test_a_100_column_terminal_keeps_the_bounds_header_whole(cancer: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    lines = _text(["verify", str(cancer), "--max-epochs", "200"], capsys)
    at = next(i for i, line in enumerate(lines) if line.startswith("the notes' mistake bounds"))
    header = lines[at + 1]
    assert len(header) <= 100 and header.split() == ["note", "convention", "bound", "=", "value", "mistakes"]
    assert all(len(line) <= 100 for line in lines)


def test_exact_and_json_are_never_cut(cancer: Path, capsys) -> None:
    narrow = _text(["verify", str(cancer), "--max-epochs", "20", "--exact", "--width", "60"], capsys)
    assert narrow == _text(["verify", str(cancer), "--max-epochs", "20", "--exact"], capsys)
    assert max(map(len, narrow)) > 1000
    assert cli.main(["verify", str(cancer), "--max-epochs", "20", "--format", "json", "--width", "60"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert len(report["final_weights"]) == 31


@pytest.mark.parametrize("bad", ["39", "0", "10001", "wide"])
def test_a_width_out_of_range_is_a_usage_error_naming_it(bad: str, capsys) -> None:
    assert cli.main(["verify", "--example", "and", "--width", bad]) == 2
    err = capsys.readouterr().err
    assert bad in err and "--width" in err and len(err.splitlines()) == 1


def test_a_prose_column_wraps_at_spaces_inside_its_column() -> None:
    rows = [["", "name", "claim"], ["ok", "lower-bound", "w_k·w* >= N·a·γ for every update of the run so far"]]
    lines = fit_table(rows, "<<<", 40, kinds="kkw")
    assert all(len(line) <= 40 for line in lines) and len(lines) > 2
    column = lines[0].index("claim")
    assert " ".join(line[column:].strip() for line in lines[1:]) == rows[1][2]  # every word whole, in order


def test_columns_that_cannot_fit_continue_below_their_row() -> None:
    rows = [["a" * 20, "b" * 20, "c" * 20], ["1", "2", "3"]]
    lines = fit_table(rows, "<<<", 45)
    assert all(len(line) <= 45 for line in lines)
    assert lines[0].split() == ["a" * 20, "b" * 20] and lines[1].split() == ["c" * 20]


def test_an_approximate_value_and_a_marker_are_never_split() -> None:
    line = "constants   " + ", ".join(f"x{i} ≈ -1.23457e+{i:02d}" for i in range(12)) + " [1, … 25 more …, 3]"
    for width in range(40, 90, 7):
        out = fit_lines([line], width)
        assert all(len(part) <= width for part in out)
        assert not any(part.rstrip().endswith(("≈", "…", "more")) for part in out[:-1]), out


def test_the_bounds_command_fits_width_too(capsys) -> None:
    iris = Path(__file__).resolve().parent.parent / "reports" / "data" / "iris-setosa-versicolor.csv"
    lines = _text(["bounds", str(iris), "--positive", "versicolor", "--orders", "3", "--width", "50"], capsys)
    assert max(map(len, lines)) <= 50 and any("mistakes over 3" in line for line in lines)
    wide = _text(["bounds", str(iris), "--positive", "versicolor", "--orders", "3"], capsys)
    assert max(map(len, wide)) > 50
