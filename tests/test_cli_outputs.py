"""What `verify` writes to files: usage found before anything runs, and every output (-o, --trace, the Markdown
figures) put in place only when the run has finished, all together, or not at all."""

from __future__ import annotations

import errno
import os
import re
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from verify_perceptron import cli
from verify_perceptron.deadline import Terminated, TimeUp
from verify_perceptron.report import documents

if TYPE_CHECKING:
    from _typeshed import StrOrBytesPath

AND_CSV = "x1,x2,label\n0,0,0\n0,1,0\n1,0,0\n1,1,1\n"


def _listing(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): (p.read_text(encoding="utf-8") if p.is_file() else "/")
            for p in sorted(folder.rglob("*"))}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A folder with the data and an earlier run's outputs, which a failed run must leave as they are."""
    (tmp_path / "and.csv").write_text(AND_CSV)
    for name in ("t.jsonl", "r.txt", "r.md", "r.html"):
        (tmp_path / name).write_text(f"earlier {name}\n")
    return tmp_path


def _never_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    def load(*args: object, **kwargs: object) -> None:
        raise AssertionError("the data were read before the usage was checked")

    monkeypatch.setattr(cli, "load_dataset", load)
    monkeypatch.setattr(cli, "example", load)


@pytest.fixture
def quick_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    """Figures drawn in no time, each saying whose report it belongs to (these tests are about the files)."""
    from verify_perceptron.report import plots

    def figures(report: dict, data: object = None, *, warnings: list[str] | None = None) -> dict[str, str]:
        return {name: f"<svg>{name} of {report['dataset']['source']}</svg>" for name in ("boundaries", "bounds")}

    monkeypatch.setattr(plots, "report_figures", figures)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("usage", [
    ["--mode", "batch", "--averaged"],       # found after the run, once: the trace was already replaced
    ["--eta", "0"],
    ["--eta", "2", "--convention", "hard-limiter"],
    ["--convention", "nope"],
    ["--separator", "1,x"],
    ["--example", "and"],                    # DATA and --example
    ["-o", "and.csv"],                       # the report over the input
    ["-o", "t.jsonl"],                       # the report and the trace in one file
])
def test_a_usage_error_is_found_before_anything_runs_or_is_written(folder: Path, usage: list[str], capsys,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    before = _listing(folder)
    monkeypatch.chdir(folder)
    _never_loads(monkeypatch)
    code, out, err = run(["verify", "and.csv", "--trace", "t.jsonl", *usage], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("verify-perceptron: error: ")
    assert _listing(folder) == before


@pytest.mark.parametrize("fmt", ["text", "markdown", "html", "json"])
@pytest.mark.parametrize("stop", [TimeUp(1.0, "building the report"), KeyboardInterrupt(),
                                  Terminated(signal.SIGTERM), MemoryError()])
def test_a_run_ended_early_leaves_every_earlier_output_and_no_new_file(folder: Path, fmt: str, stop: BaseException,
                                                                       capsys, monkeypatch: pytest.MonkeyPatch,
                                                                       quick_figures: None) -> None:
    before = _listing(folder)
    suffix = {"text": "txt", "markdown": "md", "html": "html", "json": "json"}[fmt]
    monkeypatch.chdir(folder)
    real = cli.build_report

    def stopped(*args: Any, **kwargs: Any) -> object:  # Any: passed through to build_report as given
        real(*args, **kwargs)
        raise stop

    monkeypatch.setattr(cli, "build_report", stopped)
    code, out, _ = run(["verify", "and.csv", "--trace", "t.jsonl", "--format", fmt, "-o", f"r.{suffix}"], capsys)
    assert code == {TimeUp: 3, KeyboardInterrupt: 130, Terminated: 143, MemoryError: 2}[type(stop)]
    assert out == "" and _listing(folder) == before


def test_a_run_ended_while_the_figures_are_drawn_leaves_no_figure(folder: Path, capsys, quick_figures: None,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    before = _listing(folder)
    monkeypatch.chdir(folder)

    def stopped(*args: object, **kwargs: object) -> str:
        raise TimeUp(1.0, "drawing the figures")

    monkeypatch.setattr(documents, "render_markdown", stopped)  # after the figures are written
    code, _, err = run(["verify", "and.csv", "--format", "markdown", "-o", "r.md"], capsys)
    assert code == 3 and "ran out while drawing the figures" in err
    assert _listing(folder) == before


def test_a_full_disk_under_the_trace_is_one_line_naming_it_and_leaves_no_part(folder: Path, capsys,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    before = _listing(folder)
    monkeypatch.chdir(folder)
    real = os.fdopen

    class Full:
        def __init__(self, handle):
            self.handle = handle

        def write(self, data: bytes) -> int:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def __getattr__(self, name: str):
            return getattr(self.handle, name)

    monkeypatch.setattr(os, "fdopen", lambda fd, mode="r": Full(real(fd, mode)))
    code, out, err = run(["verify", "and.csv", "--trace", "t.jsonl"], capsys)
    assert (code, out) == (2, "")
    assert err == "verify-perceptron: error: --trace t.jsonl: cannot be written (No space left on device)\n"
    assert _listing(folder) == before


def test_a_full_disk_under_the_report_is_one_line_naming_it(folder: Path, capsys,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    before = _listing(folder)
    monkeypatch.chdir(folder)

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    code, out, err = run(["verify", "and.csv", "-o", "r.txt", "--trace", "t.jsonl"], capsys)
    assert (code, out) == (2, "")
    assert re.fullmatch(r"verify-perceptron: error: (output r\.txt|--trace t\.jsonl): cannot be written "
                        r"\(No space left on device\)\n", err)
    assert _listing(folder) == before


@pytest.mark.parametrize("fmt", ["text", "markdown", "html", "json"])
def test_every_format_refuses_a_missing_folder_and_creates_none(folder: Path, fmt: str, capsys,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    before = _listing(folder)
    monkeypatch.chdir(folder)
    _never_loads(monkeypatch)
    code, out, err = run(["verify", "and.csv", "--format", fmt, "-o", "new/sub/r.out"], capsys)
    assert code == 2 and err == "verify-perceptron: error: output new/sub/r.out: the directory new/sub does not exist\n"
    assert _listing(folder) == before


def test_a_file_where_the_figures_go_or_a_read_only_folder_is_refused_before_the_run(
        folder: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    (folder / "r_figures").write_text("a file")
    before = _listing(folder)
    monkeypatch.chdir(folder)
    _never_loads(monkeypatch)
    code, _, err = run(["verify", "and.csv", "--format", "markdown", "-o", "r.md"], capsys)
    assert code == 2 and err == ("verify-perceptron: error: output r.md: its figures go in r_figures, which is a "
                                 "file, not a folder\n")
    real = os.open

    def read_only(path: StrOrBytesPath, flags: int, *args: int) -> int:
        if flags & os.O_CREAT:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return real(path, flags, *args)

    monkeypatch.setattr(os, "open", read_only)
    code, _, err = run(["verify", "and.csv", "--format", "markdown", "-o", "elsewhere.md"], capsys)
    assert code == 2 and err == "verify-perceptron: error: output elsewhere.md: cannot be written (Read-only file system)\n"
    assert _listing(folder) == before


def test_markdown_never_leaves_one_figure_when_another_cannot_be_written(folder: Path, capsys, quick_figures: None,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    before = _listing(folder)
    monkeypatch.chdir(folder)
    real, opened = os.open, []

    def second_refused(path: StrOrBytesPath, flags: int, *args: int) -> int:
        if "r_figures" in str(path) and flags & os.O_CREAT and not str(path).endswith(".tmp"):
            opened.append(path)
            if len(opened) == 2:
                raise OSError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return real(path, flags, *args)

    monkeypatch.setattr(os, "open", second_refused)
    code, _, err = run(["verify", "and.csv", "--format", "markdown", "-o", "r.md"], capsys)
    assert code == 2 and "cannot be written (Permission denied)" in err and len(opened) == 2
    assert _listing(folder) == before


def test_two_markdown_runs_into_one_report_never_mix_one_runs_report_with_the_others_figures(
        tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch, quick_figures: None) -> None:
    # Run A draws and writes its figures; run B then runs whole, into the same -o; then A writes its report.
    target = tmp_path / "r.md"
    real = documents.render_markdown
    calls = []

    def interleaved(*args: Any, **kwargs: Any) -> str:  # Any: passed through as given
        calls.append(1)
        if len(calls) == 1:  # A's figures are written: B runs here, start to end
            assert cli.main(["verify", "--example", "or", "--format", "markdown", "-o", str(target)]) == 0
        return real(*args, **kwargs)

    monkeypatch.setattr(documents, "render_markdown", interleaved)
    assert cli.main(["verify", "--example", "and", "--format", "markdown", "-o", str(target)]) == 0
    capsys.readouterr()
    text = target.read_text()
    assert text.startswith("# Perceptron report: example:and")
    links = re.findall(r"\]\((r_figures/[^)]+)\)", text)
    assert sorted((tmp_path / link).read_text() for link in links) == [
        "<svg>boundaries of example:and</svg>", "<svg>bounds of example:and</svg>"]
    assert sorted(os.listdir(tmp_path / "r_figures")) == sorted(Path(link).name for link in links)


@pytest.mark.parametrize("signum, code", [(signal.SIGALRM, 3), (signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_an_alarm_or_a_signal_dropped_while_the_figures_are_drawn_still_ends_the_run(
        folder: Path, signum: int, code: int, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    # matplotlib runs weakref callbacks while it draws; an exception raised there is dropped, and the
    # run used to go on, write its report and exit 0.
    from tests.test_deadline import _dropped_in_a_weakref_callback
    from verify_perceptron.report import plots

    def figures(report: dict, data: object = None, *, warnings: list[str] | None = None) -> dict[str, str]:
        _dropped_in_a_weakref_callback(signum)
        return {"bounds": "<svg/>"}

    monkeypatch.setattr(plots, "report_figures", figures)
    before = _listing(folder)
    monkeypatch.chdir(folder)
    previous = signal.signal(signum, lambda *a: None)  # should the run not handle it, the test process lives on
    try:
        got = cli.main(["verify", "and.csv", "--time-limit", "3600", "--format", "markdown", "-o", "r.md",
                        "--trace", "t.jsonl"])
    finally:
        signal.signal(signum, previous)
    out, err = capsys.readouterr()
    assert got == code and out == "" and "Exception ignored" not in err and "Traceback" not in err
    assert _listing(folder) == before
