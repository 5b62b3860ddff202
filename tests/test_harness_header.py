"""A program that reads ``{train}``'s first line as the columns' names (pandas' ``read_csv`` and R's ``read.csv`` do
by default, ``np.loadtxt(..., skiprows=1)`` on purpose) lost its first sample on the harness's files, which have no
header: it was "skips-first-sample" with no option to declare it. ``--header`` (``header=True``) writes one, and a
failing command is called again with it: where it then passes, the diagnosis says so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_harness_command import FAST, LABEL_FIRST, script
from verify_perceptron.cli import main
from verify_perceptron.errors import InvalidArgument
from verify_perceptron.harness import check_implementation, command_implementation

#: A perceptron that skips its file's first line, as np.loadtxt(..., skiprows=1) and pandas' read_csv do, the label in
#: `COLUMN` (test_harness_command's LABEL_FIRST reading its file so; plain Python: no NumPy import a call).
SKIPS_HEADER = LABEL_FIRST.replace(
    'rows = [[float(v) for v in line.split(",")] for line in open(sys.argv[1]) if line.strip()]',
    'lines = [line.split(",") for line in open(sys.argv[1]).read().split()][1:]  # np.loadtxt(..., skiprows=1)\n'
    '    rows = [[float(v) for v in (row if COLUMN == "first" else row[-1:] + row[:-1])] for row in lines]')
assert SKIPS_HEADER != LABEL_FIRST


def _reader(tmp_path: Path, column: str) -> str:
    return script(tmp_path, SKIPS_HEADER.replace("COLUMN", repr(column))).replace(" {updates}", "")


def test_a_program_that_skips_a_header_line_is_named_and_passes_with_header(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    command = _reader(tmp_path, "last")
    assert main(["check", "--command", command, "--examples", "20", "--format", "json"]) == 1
    diagnosis = json.loads(capsys.readouterr().out)["diagnosis"]
    assert diagnosis["code"] == "header-line", diagnosis
    assert (diagnosis["parameters"]["option"], diagnosis["parameters"]["header"]) == ("--header", True)
    assert "pandas' read_csv" in diagnosis["text"]
    assert main(["check", "--command", command, "--examples", "20", "--header"]) == 0
    assert "a header line" in capsys.readouterr().out
    assert check_implementation(command_implementation(command, header=True), **FAST).passed


def test_the_label_first_and_a_header_are_found_together(tmp_path: Path) -> None:
    command = _reader(tmp_path, "first")
    result = check_implementation(command_implementation(command), **FAST)
    assert [d.code for d in result.diagnoses] == ["header-line"], result.report()
    assert result.diagnoses[0].parameters["option"] == "--label-column first --header"
    assert check_implementation(command_implementation(command, label_column="first", header=True), **FAST).passed


def test_a_program_that_reads_no_header_fails_when_given_one(tmp_path: Path) -> None:
    plain = script(tmp_path, SKIPS_HEADER.replace("[1:]  #", "[0:]  #").replace("COLUMN", "'last'"))
    plain = plain.replace(" {updates}", "")
    assert check_implementation(command_implementation(plain), **FAST).passed
    result = check_implementation(command_implementation(plain, header=True), **FAST)
    assert not result.passed  # the header is no number: float('x1') raises
    assert result.diagnoses and result.diagnoses[0].code == "header-line", result.report()
    assert result.diagnoses[0].parameters["header"] is False


def test_header_is_a_command_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(InvalidArgument, match="header='yes' must be True or False"):
        command_implementation("cat {train}", header="yes")  # type: ignore[arg-type]
    assert main(["check", "tests.implementations:perceptron", "--header"]) == 2
    assert "header=True says a command's {train} starts with a header line" in capsys.readouterr().err


#: Right only on two samples under a header line (a program right by chance there): zeros otherwise.
LUCKY = """
    import sys
    lines = [line.split(",") for line in open(sys.argv[1]).read().split()]
    header = bool(lines) and lines[0][0].startswith("x")
    rows = [[float(v) for v in row] for row in lines[1:]] if header else []
    w, b = [0.0] * (len(lines[0]) - 1), 0.0
    for _ in range(1000 if len(rows) == 2 else 0):
        clean = True
        for *x, t in rows:
            if t * (sum(a * c for a, c in zip(w, x)) + b) <= 0:
                w, b, clean = [a + t * c for a, c in zip(w, x)], b + t, False
        if clean:
            break
    open(sys.argv[2], "w").write(" ".join(map(str, w + [b])))
"""


def test_a_header_is_named_only_where_fresh_data_pass_with_it(tmp_path: Path) -> None:
    # on one dataset (check_dataset) the header was named on the counterexample alone ("and on 0 other datasets
    # tried"), where two samples can pass by chance: Perl's 0/1 step rule at 0.1 was told to declare --header
    from verify_perceptron.harness import check_dataset

    lucky = command_implementation(script(tmp_path, LUCKY).replace(" {updates}", ""))
    assert check_dataset(command_implementation(lucky.template, header=True), [["-1"], ["1"]], [-1, 1]).passed
    case = check_dataset(lucky, [["-1"], ["1"]], [-1, 1])
    assert not case.passed and "header-line" not in [d.code for d in case.diagnoses], case.report()


#: A reader of values apart by whitespace, as np.loadtxt(path), C's fscanf and R's read.table are by default.
WHITESPACE = """
    import sys
    rows = [[float(v) for v in line.split()] for line in open(sys.argv[1]) if line.strip()]
    w, b = [0.0] * (len(rows[0]) - 1), 0.0
    for _ in range(1000):
        clean = True
        for *x, t in rows:
            if t * (sum(a * c for a, c in zip(w, x)) + b) <= 0:
                w, b, clean = [a + t * c for a, c in zip(w, x)], b + t, False
        if clean:
            break
    print(*w, b)
"""


def test_a_program_reading_values_apart_by_spaces_is_named_and_passes_with_delimiter(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # it was "exited with status 1" and nothing more (float('0.5,1,-1') raises), with no way to declare it
    from verify_perceptron.harness import check_dataset

    command = script(tmp_path, WHITESPACE).replace(" {out} {updates}", "")
    case = check_dataset(command_implementation(command), [["-1", "1/2"], ["1", "1"]], [-1, 1])
    assert [d.code for d in case.diagnoses] == ["delimiter"], case.report()
    assert case.diagnoses[0].parameters["option"] == "--delimiter space"
    assert check_dataset(command_implementation(command, delimiter="space"), [["-1", "1/2"], ["1", "1"]], [-1, 1]).passed
    assert main(["check", "--command", command, "--examples", "5", "--delimiter", "tab", "--no-progress"]) == 0
    assert "values apart by '\\t'" in capsys.readouterr().out
    with pytest.raises(InvalidArgument, match="delimiter='|' must be one of comma, space, tab, semicolon"):
        command_implementation(command, delimiter="|")
