"""The `verify` command: exit codes, one-line errors, and the JSON and text reports.

Almost every test calls `verify_perceptron.cli.main` in-process; two run the
installed command in a subprocess, once each way it can be started.
"""

from __future__ import annotations

import json
import re
import os
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from tests.wall_clock import Stopwatch
from verify_perceptron.cli import main

AND_CSV = "x1,x2,label\n0,0,0\n0,1,0\n1,0,0\n1,1,1\n"  # note 000's AND: needs 9 epochs


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run the command in-process: (exit code, stdout, stderr). Usage errors exit through argparse."""
    try:
        code = main(argv)
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:
    code, out, err = run([*argv, "--format", "json"], capsys)
    assert err == ""
    return code, json.loads(out)


def write(tmp_path: Path, name: str, content: str | bytes) -> str:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return str(path)


def assert_bad_input(code: int, out: str, err: str, *fragments: str, usage: bool = False) -> str:
    """Exit 2, nothing on stdout, no traceback, one error line naming every fragment; return that line.

    `usage`: an error of the command line itself, whose line points at ``--help``.
    """
    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    lines = err.splitlines()
    errors = [line for line in lines if "error:" in line]
    assert len(errors) == 1, err
    line = errors[0]
    assert line.startswith("verify-perceptron")
    assert err == line + "\n"  # one line, usage errors included: no usage block
    if usage:  # argparse's errors point at the help instead
        assert line.endswith("--help')"), line
    for fragment in fragments:
        assert fragment in line, (fragment, line)
    return line


# --- exit codes 0, 1, 3 ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["and", "or", "modified-or"])
def test_separable_example_is_verified_with_exit_zero(name: str, capsys) -> None:
    code, report = run_json(["verify", "--example", name], capsys)
    assert code == 0
    assert report["verdict"] == "verified"
    assert report["exit_code"] == 0
    assert report["converged"] is True


def test_modified_or_in_batch_mode_is_verified(capsys) -> None:
    code, report = run_json(["verify", "--example", "modified-or", "--mode", "batch"], capsys)
    assert code == 0
    assert report["verdict"] == "verified"
    assert report["mode"] == "batch"
    assert report["convention"] == "sum-norm"  # the example's own note


def test_xor_is_certified_not_separable_with_exit_zero(capsys) -> None:
    code, report = run_json(["verify", "--example", "xor"], capsys)
    assert code == 0
    assert report["verdict"] == "not-separable"
    assert report["converged"] is False
    assert report["stop"] == "cycle"
    assert report["cycle"]["certificate"] == ["1/4", "1/4", "1/4", "1/4"]
    assert report["cycle"]["certificate_valid"] is True


def test_xor_text_report_says_not_separable(capsys) -> None:
    code, out, err = run(["verify", "--example", "xor"], capsys)
    assert code == 0
    assert err == ""
    assert "NOT SEPARABLE (certified)" in out
    assert out.rstrip().endswith("(exit code 0)")


def test_separable_data_stopped_after_one_epoch_are_verified_against_the_certified_separator(
        tmp_path: Path, capsys) -> None:
    path = write(tmp_path, "and.csv", AND_CSV)
    code, report = run_json(["verify", path, "--max-epochs", "1"], capsys)
    assert (code, report["verdict"], report["stop"], report["n_epochs"]) == (0, "stopped-separable", "max-epochs", 1)
    assert report["separator"]["source"] == "certified" and report["separator"]["weights"] == ["-3", "2", "2"]
    assert all(i["holds"] is True for i in report["invariants"]), report["invariants"]
    assert "--max-epochs 52" in report["advice"]  # note 000's bound at the max-margin separator is 51
    code, report = run_json(["verify", path, "--max-epochs", "1", "--require-convergence"], capsys)
    assert (code, report["verdict"], report["exit_code"]) == (3, "stopped-separable", 3)
    # the same data, given time, converge: it was the limit, not the data
    code, report = run_json(["verify", path], capsys)
    assert (code, report["verdict"], report["n_epochs"]) == (0, "verified", 9)


@pytest.mark.parametrize("name", ["wine", "breast_cancer"])
def test_real_separable_data_stopped_at_the_limit_exit_zero_or_three_on_request(
        name: str, tmp_path: Path, capsys) -> None:
    datasets = pytest.importorskip("sklearn.datasets")
    X, y = getattr(datasets, f"load_{name}")(return_X_y=True)
    keep = y < 2  # wine: classes 0 and 1; breast cancer: both
    rows = [",".join(f"{v:g}" for v in x) + f",{t}" for x, t in zip(X[keep], y[keep])]
    path = write(tmp_path, f"{name}.csv", "\n".join(rows) + "\n")
    code, report = run_json(["verify", path, "--max-epochs", "5"], capsys)
    assert (code, report["verdict"], report["separator"]["source"]) == (0, "stopped-separable", "certified")
    assert report["separable"] is True and all(i["holds"] is True for i in report["invariants"])
    # each irrational quantity is an enclosure that contains it: its ends squared bracket the exact square
    c, box = {k: Fraction(v) for k, v in report["constants"].items()}, report["enclosures"]
    squares = {"R": c["R_sq"], "ws_norm": c["ws_sq"], "margin": c["gamma"] ** 2 / c["ws_sq"],
               "ratio": c["R_sq"] * c["ws_sq"] / c["gamma"] ** 2}
    for name, square in squares.items():
        lo, hi = Fraction(box[name]["lower"]), Fraction(box[name]["upper"])
        assert 0 <= lo <= hi and lo * lo <= square <= hi * hi, name
    code, _ = run_json(["verify", path, "--max-epochs", "5", "--require-convergence"], capsys)
    assert code == 3
    # Numbers for people: no line of the text report or of bounds is longer than 200 characters ...
    for argv in (["verify", path, "--max-epochs", "5"], ["bounds", path, "--max-epochs", "5"]):
        code, out, _ = run(argv, capsys)
        assert code == 0 and max(map(len, out.splitlines())) <= 200, max(out.splitlines(), key=len)[:120]
        assert "≈" in out and "= ≈" not in out  # a shortened value reads "R² ≈ 2.47476e+07", not "R² = ≈ ..."
    # ... while --exact keeps every value whole, as the JSON has them.
    code, exact, _ = run(["verify", path, "--max-epochs", "5", "--exact"], capsys)
    assert code == 0 and "≈" not in exact and ", ".join(report["separator"]["weights"]) in exact


@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_exact_markdown_and_html_reports_show_the_invariants_sides_whole(fmt: str, capsys,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # and: w* = (-4, 3, 2) is the run's end; update 18 has w_k·w* = 29, N·a·γ = 18, ‖w_k‖² = 29, N·a²·R² = 54.
    # Markdown and HTML once crashed here: the sides came as Fractions where a cell must be text.
    from verify_perceptron.report import plots

    monkeypatch.setattr(plots, "report_figures", lambda report, data=None, *, warnings=None: {})  # a table's cells
    code, out, err = run(["verify", "--example", "and", "--exact", "--format", fmt], capsys)
    assert (code, err) == (0, "")
    row = next(line for line in out.splitlines() if "[-4, 3, 2]" in line and "54" in line)
    assert "≈" not in out and re.search(r"\b29\b\D+\b18\b\D+\b29\b\D+\b54\b", row), row


def test_inconclusive_text_report_says_so_with_exit_code(tmp_path: Path, capsys,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    # Separability left undecided (as past a time limit on large data): the run's stop settles nothing.
    from verify_perceptron.certify.separability import Separability

    undecided = Separability(None, False, None, None, "test", "undecided in this test")
    monkeypatch.setattr("verify_perceptron.api.verification.separability_of_run", lambda *args: undecided)
    path = write(tmp_path, "and.csv", AND_CSV)
    code, out, _ = run(["verify", path, "--max-epochs", "1"], capsys)
    assert code == 3
    assert "INCONCLUSIVE" in out
    assert out.rstrip().endswith("(exit code 3)")


def test_separator_that_does_not_separate_is_a_violation_exit_one(capsys) -> None:
    code, report = run_json(["verify", "--example", "and", "--separator=1,1,1"], capsys)
    assert code == 1
    assert report["verdict"] == "violated"
    assert report["separator"] == {"source": "user", "weights": ["1", "1", "1"], "note": None}
    separates = next(i for i in report["invariants"] if i["name"] == "separator-separates")
    assert separates["holds"] is False
    assert separates["first_violation"]["values"] == {"gamma": "-2", "margin": "-1"}  # sample 0 fails first


def test_violation_text_report_names_the_failed_invariant(capsys) -> None:
    code, out, err = run(["verify", "--example", "and", "--separator=1,1,1"], capsys)
    assert code == 1
    assert err == ""
    assert "FAIL separator-separates" in out
    assert "VIOLATED: separator-separates" in out


def test_user_separator_that_separates_is_verified(capsys) -> None:
    code, report = run_json(["verify", "--example", "and", "--separator=-4,3,2"], capsys)
    assert code == 0
    assert report["separator"] == {"source": "user", "weights": ["-4", "3", "2"], "note": None}


# --- exit code 2: bad data -------------------------------------------------------------------------


def test_ragged_row_is_bad_input_naming_file_and_line(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, "d.csv", "x1,x2,label\n1,2,1\n0,0\n")
    assert_bad_input(*run(["verify", path], capsys), f"{path}:3:", "ragged")


def test_non_numeric_cell_is_bad_input_naming_file_line_and_value(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, "d.csv", "x1,x2,label\n1,2,1\n0,abc,0\n")
    assert_bad_input(*run(["verify", path], capsys), f"{path}:3:", "'abc'")


@pytest.mark.parametrize("cell", ["NaN", "nan", "inf", "-Infinity"])
def test_non_finite_cell_is_bad_input_naming_file_line_and_value(tmp_path: Path, capsys, cell: str) -> None:
    path = write(tmp_path, "d.csv", f"x1,x2,label\n1,2,1\n0,{cell},0\n")
    assert_bad_input(*run(["verify", path], capsys), f"{path}:3:", repr(cell), "not a finite number")


def test_empty_file_is_bad_input(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, "d.csv", "")
    assert_bad_input(*run(["verify", path], capsys), path, "empty")


def test_one_class_only_is_bad_input(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, "d.csv", "x,label\n1,1\n2,1\n")
    assert_bad_input(*run(["verify", path], capsys), path, "only one class")


def test_more_than_two_labels_is_bad_input_naming_line_and_label(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, "d.csv", "x,label\n1,1\n2,0\n3,2\n")
    assert_bad_input(*run(["verify", path], capsys), f"{path}:4:", "'2'", "third label")


def test_absurd_exponent_in_data_is_bad_input_naming_line_and_literal(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, "d.csv", "x1,x2,label\n1,2,1\n0,1e999999999,0\n")
    assert_bad_input(*run(["verify", path], capsys), f"{path}:3:", "'1e999999999'")


def test_number_with_millions_of_digits_is_bad_input_quickly(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, "d.csv", "x1,x2,label\n1,2,1\n0," + "7" * 2_000_000 + ",0\n")
    line = assert_bad_input(*run(["verify", path], capsys), f"{path}:3:")
    assert len(line) < 300  # the digits are not echoed back


def test_non_utf8_file_is_bad_input(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, "d.csv", b"x,label\n1,1\n\xfe,0\n")
    assert_bad_input(*run(["verify", path], capsys), f"{path}:3:", "0xfe")


def test_directory_as_data_is_bad_input(tmp_path: Path, capsys) -> None:
    assert_bad_input(*run(["verify", str(tmp_path)], capsys), str(tmp_path), "directory")


def test_missing_file_is_bad_input(tmp_path: Path, capsys) -> None:
    path = str(tmp_path / "absent.csv")
    assert_bad_input(*run(["verify", path], capsys), path, "no such file")


def test_pickled_numpy_file_is_bad_input(tmp_path: Path, capsys) -> None:
    np = pytest.importorskip("numpy")
    path = str(tmp_path / "d.npy")
    np.save(path, np.array([[1, "a"], [0, "b"]], dtype=object), allow_pickle=True)
    assert_bad_input(*run(["verify", path], capsys), path, "unpickling")


def test_malformed_label_column_is_bad_input_not_internal_error(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, "d.csv", "x1,x2,label\n1,2,1\n0,0,0\n")
    assert_bad_input(*run(["verify", path, "--label-column=--1"], capsys), "--1")


def test_label_column_number_keeps_every_headerless_row(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, "d.csv", "1,5,6\n0,-7,-8\n1,9,9\n")
    code, r = run_json(["verify", path, "--label-column", "1"], capsys)
    assert code == 0
    assert r["dataset"]["n_samples"] == 3  # today: 2, the first sample silently became the header "1,5,6"
    assert r["dataset"]["feature_names"] == ["x1", "x2"]


# --- exit code 2: bad settings ---------------------------------------------------------------------


@pytest.mark.parametrize("eta, fragment", [
    ("0", "eta=0 must be > 0"),
    ("-1", "eta=-1 must be > 0"),
    ("abc", "eta='abc'"),
    ("nan", "eta='nan'"),
    ("1e999999", "'1e999999'"),
    ("1/0", "'1/0'"),
])
def test_bad_eta_is_bad_input_naming_the_value(eta: str, fragment: str, capsys) -> None:
    assert_bad_input(*run(["verify", "--example", "and", "--eta", eta], capsys), fragment)


def test_hard_limiter_eta_above_one_is_bad_input(capsys) -> None:
    argv = ["verify", "--example", "and", "--convention", "hard-limiter", "--eta", "3/2"]
    assert_bad_input(*run(argv, capsys), "eta=3/2", "hard-limiter")


def test_unit_ball_eta_other_than_one_is_bad_input(capsys) -> None:
    argv = ["verify", "--example", "and", "--convention", "unit-ball", "--eta", "2"]
    assert_bad_input(*run(argv, capsys), "eta=2", "unit-ball")


def test_unknown_convention_is_bad_input_listing_the_known_ones(capsys) -> None:
    argv = ["verify", "--example", "and", "--convention", "bogus"]
    assert_bad_input(*run(argv, capsys), "'bogus'", "classic", "split-bias")


@pytest.mark.parametrize("separator", ["--separator=1,1", "--separator=1,1,1,1"])
def test_separator_of_wrong_length_is_bad_input(separator: str, capsys) -> None:
    n = separator.count(",") + 1
    assert_bad_input(*run(["verify", "--example", "and", separator], capsys), f"separator has {n} values", "needs 3")


@pytest.mark.parametrize("separator, fragment", [("--separator=1,x,1", "'x'"), ("--separator=1,nan,1", "'nan'"),
                                                 ("--separator=", "holds no numbers")])
def test_separator_with_a_non_number_is_bad_input(separator: str, fragment: str, capsys) -> None:
    assert_bad_input(*run(["verify", "--example", "and", separator], capsys), "--separator", fragment)


def test_data_and_example_together_are_a_usage_error(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, "and.csv", AND_CSV)
    assert_bad_input(*run(["verify", path, "--example", "and"], capsys), "not both")


def test_neither_data_nor_example_is_a_usage_error(capsys) -> None:
    assert_bad_input(*run(["verify"], capsys), "DATA or --example")


@pytest.mark.parametrize("value", ["0", "-3", "many"])
def test_max_epochs_below_one_or_not_a_number_is_a_usage_error(value: str, capsys) -> None:
    assert_bad_input(*run(["verify", "--example", "and", "--max-epochs", value], capsys), "--max-epochs", value,
                     usage=True)


def test_unknown_example_is_a_usage_error(capsys) -> None:
    assert_bad_input(*run(["verify", "--example", "nand"], capsys), "'nand'", usage=True)


def test_no_command_is_a_one_line_usage_error_naming_the_commands(capsys) -> None:
    assert_bad_input(*run([], capsys), "verify, bounds, check or proofs", usage=True)


@pytest.mark.parametrize("argv", [
    ["verify", "--example", "and", "--time-limit", "0"],
    ["verify", "--example", "and", "--mode", "sideways"],
    ["bounds", "--example", "and", "--orders", "-1"],
    ["check"],
    ["proofs", "--format", "pdf"],
    ["nonsense"],
])
def test_every_usage_error_is_one_line(argv: list[str], capsys) -> None:
    assert_bad_input(*run(argv, capsys), usage=True)


# --- the reports -----------------------------------------------------------------------------------


def test_json_report_has_the_documented_schema(capsys) -> None:
    code, r = run_json(["verify", "--example", "and"], capsys)
    assert code == 0
    assert r["convention"] == "classic"
    assert r["dataset"]["n_samples"] == 4
    assert r["dataset"]["n_features"] == 2
    assert r["dataset"]["source"] == "example:and"
    assert r["converged"] is True
    assert r["n_updates"] == 18
    assert r["n_epochs"] == 9
    assert r["final_weights"] == ["-4", "3", "2"]
    assert r["separator"]["source"] == "final"
    assert r["separator"]["weights"] == ["-4", "3", "2"]
    assert r["invariants"], "no invariants reported"
    for inv in r["invariants"]:
        assert {"name", "holds", "n_checked", "min_slack", "first_violation"} <= inv.keys()
        assert isinstance(inv["name"], str)
        assert inv["holds"] is True
        assert isinstance(inv["n_checked"], int) and inv["n_checked"] > 0
        assert inv["min_slack"] is None or isinstance(inv["min_slack"], str)
        assert inv["first_violation"] is None
    assert len(r["bounds"]) == 6
    for bound in r["bounds"]:
        assert isinstance(bound["value"], str)
        assert bound["n_mistakes"] == 18
    own = next(b for b in r["bounds"] if b["own"])
    assert own["value"] == "87"


def test_json_exact_numbers_are_strings(capsys) -> None:
    _, r = run_json(["verify", "--example", "and"], capsys)
    assert r["eta"] == "1"
    assert r["step_size"] == "1"
    assert r["constants"] == {"gamma": "1", "R_sq": "3", "beta": "8", "ws_sq": "29"}
    assert all(isinstance(w, str) for w in r["final_weights"])
    for update in r["updates"]:
        assert all(isinstance(v, str) for key in ("scores", "delta", "weights") for v in update[key])
    assert r["updates"][-1]["weights"] == ["-4", "3", "2"]
    lower = next(i for i in r["invariants"] if i["name"] == "lower-bound")
    assert lower["min_slack"] == "3"


def test_hard_limiter_with_rational_eta_on_a_csv(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, "d.csv", "x1,x2,label\n1,2,1\n0,0,0\n")
    code, r = run_json(["verify", path, "--convention", "hard-limiter", "--eta", "1/2"], capsys)
    assert code == 0
    assert r["verdict"] == "verified"
    assert r["convention"] == "hard-limiter"
    assert r["eta"] == "1/2"
    assert r["step_size"] == "1"  # 2η
    assert r["dataset"]["source"] == path
    # w = 0 -> + 1/2·(1-(-1))·(1,1,2) = (1,1,2) -> + 1/2·(-1-1)·(1,0,0) = (0,1,2)
    assert r["final_weights"] == ["0", "1", "2"]
    # sgn(0) = -1 left sample 2 at score 0, so the separator is the final w with its bias lowered
    assert r["separator"]["weights"] == ["-5/2", "1", "2"]
    assert r["separator"]["source"].startswith("final")


def test_decimal_data_give_exact_rational_weights(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, "d.csv", "x,label\n0.1,1\n-0.2,0\n")
    code, r = run_json(["verify", path], capsys)
    assert code == 0
    # (0,0) + (1, 1/10) = (1, 1/10); then - (1, -1/5) = (0, 3/10)
    assert r["final_weights"] == ["0", "3/10"]
    assert r["constants"]["gamma"] == "3/100"
    assert r["constants"]["R_sq"] == "26/25"
    assert r["dataset"]["binary_float"] is False


def test_text_report_for_and_shows_final_weights_and_verified(capsys) -> None:
    code, out, err = run(["verify", "--example", "and"], capsys)
    assert code == 0
    assert err == ""
    assert "[-4, 3, 2]" in out
    assert "VERIFIED" in out
    assert "final w     [w0, w1, w2] = [-4, 3, 2]" in out
    assert out.rstrip().endswith("(exit code 0)")


def test_text_report_lists_at_most_the_requested_updates(capsys) -> None:
    code, out, _ = run(["verify", "--example", "and", "--max-updates-shown", "12"], capsys)
    assert code == 0
    assert "(6 more)" in out


# --- the installed command -------------------------------------------------------------------------


def _console_script() -> str:
    found = shutil.which("verify-perceptron") or os.path.join(os.path.dirname(sys.executable), "verify-perceptron")
    if not os.path.exists(found):
        pytest.skip("verify-perceptron console script is not installed")
    return found


def test_console_script_verifies_the_and_example() -> None:
    done = subprocess.run([_console_script(), "verify", "--example", "and"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert done.stderr == ""
    assert "[-4, 3, 2]" in done.stdout
    assert "VERIFIED" in done.stdout


def test_python_dash_m_emits_parseable_json() -> None:
    done = subprocess.run([sys.executable, "-m", "verify_perceptron", "verify", "--example", "and", "--format", "json"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert done.stderr == ""
    report = json.loads(done.stdout)
    assert report["final_weights"] == ["-4", "3", "2"]
    assert report["verdict"] == "verified"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_fifo_as_data_or_as_trace_is_refused_at_once(tmp_path: Path, capsys) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)  # either open would block forever
    assert_bad_input(*run(["verify", str(fifo)], capsys), str(fifo), "is a FIFO (named pipe), not a regular file")
    assert_bad_input(*run(["verify", "--example", "and", "--trace", str(fifo)], capsys),
                     f"--trace {fifo}", "is a FIFO (named pipe), not a regular file")


@pytest.mark.parametrize("epochs", [str(2**63), str(10**30)])
def test_a_max_epochs_beyond_int64_runs_as_any_large_one(epochs: str, capsys) -> None:
    # No run reaches 2^62 epochs: the compiled pass takes that as the limit instead of failing.
    code, out, err = run(["verify", "--example", "and", "--max-epochs", epochs], capsys)
    assert (code, err) == (0, "") and "VERIFIED" in out


def test_escape_sequences_in_the_data_are_shown_not_obeyed(tmp_path: Path, capsys) -> None:
    # Labels and names come from the file; a terminal must not act on an ESC sequence among them.
    path = write(tmp_path, "esc.csv", "x1,x2,label\n0,0,\x1b[2Jno\n0,1,\x1b[2Jno\n1,0,\x1b[2Jno\n1,1,yes\n")
    code, out, err = run(["verify", path, "--positive", "yes"], capsys)
    assert code == 0 and "\x1b" not in out and "\\x1b[2Jno" in out
    code, out, err = run(["verify", path], capsys)  # no --positive: an error line naming the labels
    assert code == 2 and "\x1b" not in err and "\\x1b" in err


def test_an_empty_convention_name_is_refused_not_read_as_the_default(capsys) -> None:
    assert_bad_input(*run(["verify", "--example", "and", "--convention", ""], capsys), "convention=''")


@pytest.mark.skipif(sys.platform == "win32" or sys.getfilesystemencoding() != "utf-8",
                    reason="POSIX file names are bytes; this needs a UTF-8 file system encoding")
def test_a_file_name_that_is_not_utf8_is_shown_escaped_under_a_strict_utf8_stdout(tmp_path: Path) -> None:
    import subprocess

    name = os.fsdecode(b"ok\xff.csv")  # a lone surrogate in Python
    (tmp_path / name).write_text("a,label\n0,-1\n1,1\n")
    done = subprocess.run([sys.executable, "-m", "verify_perceptron", "verify", name], cwd=tmp_path,
                          capture_output=True, env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode("utf-8").startswith("data        ok\\udcff.csv: 2 samples")


def test_a_semicolon_file_and_a_zero_based_libsvm_file_read_as_written(tmp_path: Path, capsys) -> None:
    semi = write(tmp_path, "d.csv", "x1;x2;label\n0;0;-1\n0;1;-1\n1;0;-1\n1;1;1\n")
    code, out, _ = run(["verify", semi], capsys)
    assert code == 0 and "4 samples, 2 features" in out
    zero = write(tmp_path, "d.svm", "-1 0:0 1:0\n-1 1:1\n-1 0:1\n1 0:1 1:1\n")
    code, out, _ = run(["verify", zero], capsys)
    assert code == 0 and "4 samples, 2 features" in out
    assert_bad_input(*run(["verify", zero, "--one-based"], capsys), "index 0", "--zero-based")


def test_a_spreadsheets_decimal_comma_is_refused_with_the_way_to_read_it(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, "eu.csv", "x1;x2;label\n0,5;1,25;yes\n-1,5;0,75;no\n")
    code, out, err = run(["verify", path], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "'0,5' is not a number" in err and "a decimal comma, 0.5? then give --decimal-comma" in err
    plain = write(tmp_path, "w.csv", "x1;x2;label\n0,5x;1;yes\n-1;0;no\n")
    assert "decimal comma" not in run(["verify", plain], capsys)[2]
    code, out, err = run(["verify", path, "--positive", "yes", "--decimal-comma", "--format", "json"], capsys)
    assert code == 0 and err == ""
    updates = json.loads(out)["updates"]  # bias first: the samples 0,5;1,25 (yes) and -1,5;0,75 (no)
    assert [u["delta"] for u in updates] == [["1", "1/2", "5/4"], ["-1", "3/2", "-3/4"]]


def test_json_output_stays_valid_json_when_the_data_hold_control_characters(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, "c.csv", "x1,x2,label\n0,0,\x9bno\x7f\n0,1,\x9bno\x7f\n1,0,\x9bno\x7f\n1,1,yes\n")
    code, out, err = run(["verify", path, "--positive", "yes", "--format", "json"], capsys)
    assert code == 0 and "\x9b" not in out and "\x7f" not in out
    assert json.loads(out)["dataset"]["labels"]["negative"] == "\x9bno\x7f"  # escaped on the wire, exact once parsed


# An alarm may land in a garbage-collector callback (Hypothesis installs one), which swallows it and
# prints an "Exception ignored" warning; the alarm repeats every 0.05 s for that case (deadline._AGAIN).
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_the_time_limit_bounds_every_phase(tmp_path: Path, capsys) -> None:
    # 300 rows of 1/p for the first 300 primes: a 2,766-bit common denominator, slow in every phase.
    primes = [p for p in range(2, 2000) if all(p % q for q in range(2, int(p**0.5) + 1))][:300]
    path = write(tmp_path, "primes.csv", "".join(f"1/{p},{1 if i % 2 else -1}\n" for i, p in enumerate(primes)))
    with Stopwatch() as watch:
        code, out, err = run(["verify", path, "--time-limit", "1"], capsys)
    assert code == 3 and watch.within(1, 3), watch  # the limit, then the grace second and some slack (CPU work)
    assert err == "" or ("ran out while" in err and err.count("\n") == 1)


def test_markdown_to_a_file_writes_its_figures_beside_it_and_links_them(tmp_path: Path, capsys) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "report.md"
    code, _, err = run(["verify", "--example", "and", "--format", "markdown", "-o", str(target)], capsys)
    assert code == 0 and err == ""
    links = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", target.read_text(encoding="utf-8"))
    assert links and all(link.startswith("report_figures/") for link in links)
    for link in links:
        assert (tmp_path / link).read_text(encoding="utf-8").lstrip().startswith(("<?xml", "<svg"))


def test_a_markdown_report_without_its_figures_says_which_and_why(tmp_path: Path, capsys,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # Markdown on standard output links no files, and without matplotlib nothing is drawn: both were silent
    titles = "(decision boundaries, epoch by epoch; the two invariants of the proof; mistake bounds and mistakes made)"
    code, out, _ = run(["verify", "--example", "and", "--format", "markdown"], capsys)
    assert code == 0 and f"Figures left out {titles}: a Markdown report on standard output links no files" in out
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    target = tmp_path / "report.md"
    code, _, err = run(["verify", "--example", "and", "--format", "markdown", "-o", str(target)], capsys)
    assert code == 0 and "no figures in the Markdown report" in err
    assert f"Figures left out {titles}: figures need matplotlib, which is not installed" in target.read_text("utf-8")


@pytest.mark.parametrize("limit", ["1e-9", "1/999999999", "0.000001"])
def test_a_tiny_time_limit_stops_the_run_with_no_negative_time_in_what_it_says(limit: str, capsys) -> None:
    # The run stops at once; what is left of the limit for the certified separator was negative.
    code, out, err = run(["verify", "--example", "and", "--time-limit", limit], capsys)
    assert code == 3 and "time_limit=" not in err, err
    assert "stopped at the time limit" in out or ("ran out while" in err and err.count("\n") == 1)


@pytest.mark.parametrize("limit, says", [
    ("1e-10", "1e-10 is shorter than the clock measures: at least 1e-09 s"),
    ("1e-400", "1e-400 is shorter than the clock measures"),   # > 0, yet 0.0 as a float
    ("0", "0 must be > 0"), ("-1/2", "-1/2 must be > 0"),
    ("1e999", "1e999 must be at most 1000000000 seconds"),
    ("nan", "'nan' is not a number of seconds"), ("inf", "'inf' is not a number of seconds"),
    ("1e1001", "'1e1001' is not a number of seconds"),
])
def test_every_time_limit_that_is_no_usable_limit_is_refused_naming_it(limit: str, says: str, capsys) -> None:
    for command in (["verify", "--example", "and"], ["bounds", "--example", "and"]):
        assert_bad_input(*run([*command, f"--time-limit={limit}"], capsys), says, usage=True)


@pytest.mark.parametrize("option", ["--max-cells", "--max-denominator-bits", "--max-updates-shown", "--max-epochs"])
def test_a_limit_past_every_index_is_a_limit_like_any_large_one(option: str, tmp_path: Path, capsys) -> None:
    # Found by the parser fuzz: --max-cells 10^40 made read() raise OverflowError (an internal error).
    path = write(tmp_path, "and.csv", AND_CSV)
    for command in (["verify", path], ["bounds", path]):
        if option == "--max-updates-shown" and command[0] == "bounds":
            continue
        code, out, err = run([*command, option, "9" * 40], capsys)
        assert (code, err) == (0, ""), err
