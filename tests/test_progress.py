"""How far a call has got (`verify_perceptron.progress`): the line on a terminal, nothing elsewhere unless asked,
the Python API's callback and notebook bar, and the time limit and SIGINT obeyed with a display on."""

from __future__ import annotations

import io
import os
import sys
import threading
import types
from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest

from tests.wall_clock import Stopwatch
import verify_perceptron as vp
from verify_perceptron import cli, progress
from verify_perceptron.deadline import TimeUp
from verify_perceptron.progress import NotebookBar, Progress, TerminalLine, Watch, watch_for

AND_X = [[0, 0], [0, 1], [1, 0], [1, 1]]
AND_Y = [0, 0, 0, 1]
XOR_Y = [0, 1, 1, 0]


class Terminal(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Displays draw from the first record, not after half a second (these runs are short)."""
    monkeypatch.setattr(progress, "QUIET_SECONDS", 0.0)
    monkeypatch.setattr(progress, "REDRAW_SECONDS", 0.0)
    monkeypatch.setattr(progress, "LINE_SECONDS", 0.0)
    monkeypatch.setattr(progress, "BAR_SECONDS", 0.0)


def test_the_line_tells_the_epoch_of_the_limit_the_share_the_time_left_and_the_bound() -> None:
    p = Progress("running the perceptron", 10.0, 8.0, epoch=57412, max_epochs=100000, n_updates=2308362,
                 n_mistakes=2308362, bound=F(10**600 + 1))
    assert p.line() == ("running the perceptron: epoch 57,412 of 100,000 (57%), 2,308,362 updates, 2,308,362 "
                        "mistakes of at most 1.000e+600, 10 s, about 6 s left")
    assert Progress("running the perceptron", 1.0, 1.0, epoch=999, max_epochs=1000).line().endswith(
        "epoch 999 of 1,000 (99%), 1 s, under 1 s left")  # never 100% before the end
    # the time limit, sooner than the epoch limit, bounds the estimate
    assert Progress("running the perceptron", 9.0, 9.0, epoch=1, max_epochs=100, time_limit=10.0).seconds_left == 1.0
    assert Progress("solving for the max-margin separator", 3.0, 1.0).line() == \
        "solving for the max-margin separator: 3 s"


def test_a_terminal_line_is_redrawn_in_place_cut_to_the_width_and_cleared(at_once: None,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    stream = Terminal()
    watch = Watch(TerminalLine(stream), max_epochs=10)
    watch.phase("running the perceptron")
    watch.epoch(3, 12, 12, F(87))
    watch.phase("deciding separability")
    watch.close()
    frames = stream.getvalue().split("\r")[1:]
    assert frames[-1] == "\033[K"  # cleared: the report starts on a clean line
    assert all(len(frame) <= 39 + len("\033[K") and frame.endswith("\033[K") for frame in frames)
    assert frames[1].startswith("running the perceptron: epoch 3 of 10")
    assert frames[2].startswith("deciding separability: ")
    assert not any(t.name == "verify-perceptron progress" for t in threading.enumerate())  # the ticker stopped


def test_the_ticker_keeps_the_clock_going_in_a_phase_without_epochs(at_once: None) -> None:
    stream = Terminal()
    line = TerminalLine(stream)
    watch = Watch(line)
    watch.phase("solving for the max-margin separator")
    drawn = stream.getvalue().count("\r")
    line.stop.wait(1.2)  # the ticker redraws twice a second
    watch.close()
    assert stream.getvalue().count("\r") > drawn + 1


def test_a_long_phase_begun_in_the_first_half_second_is_drawn_once_it_is_long() -> None:
    # bounds: its phases all begin early, then one runs for seconds without news; the line must come anyway
    stream = Terminal()
    line = TerminalLine(stream)
    watch = Watch(line)
    watch.phase("comparing the bounds")
    assert stream.getvalue() == ""  # (quiet: not yet half a second)
    line.stop.wait(1.3)
    watch.close()
    assert "\rcomparing the bounds: 1 s" in stream.getvalue() or "\rcomparing the bounds: 0 s" in stream.getvalue()


def test_bounds_shows_its_phases_with_progress(at_once: None, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "d.csv"
    data.write_text("x1,x2,y\n0,0,0\n0,1,0\n1,0,0\n1,1,1\n")
    assert cli.main(["bounds", str(data), "--progress"]) == 0
    phases = [line.split(":")[0] for line in capsys.readouterr().err.splitlines()]
    assert phases[0] == "loading the data" and "running the perceptron" in phases
    assert any(phase.startswith("comparing the bounds") for phase in phases)
    assert cli.main(["bounds", str(data), "--no-progress"]) == 0 and capsys.readouterr().err == ""
    assert cli.main(["bounds", str(data)]) == 0 and capsys.readouterr().err == ""  # no terminal: nothing


def test_nothing_is_drawn_in_a_short_call_s_first_half_second() -> None:
    stream = Terminal()
    watch = Watch(TerminalLine(stream), max_epochs=10)
    watch.phase("running the perceptron")
    watch.epoch(1, 1)
    watch.close()
    assert stream.getvalue() == ""


def test_the_command_shows_nothing_on_a_stderr_that_is_no_terminal_unless_asked(
        at_once: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["verify", "--example", "and"]) == 0
    assert capsys.readouterr().err == ""
    assert cli.main(["verify", "--example", "and", "--progress", "--max-epochs", "50"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert "\r" not in "".join(err) and "\033" not in "".join(err)  # plain lines on a file
    phases = [line.split(":")[0] for line in err]
    assert phases[:3] == ["loading the data", "running the perceptron", "running the perceptron"]
    assert "epoch 1 of 50 (2%), 2 updates" in err[2]
    assert phases[-2:] == ["deciding separability", "writing the report"]
    assert cli.main(["verify", "--example", "and", "--no-progress"]) == 0 and capsys.readouterr().err == ""


def test_a_terminal_gets_the_line_by_default_and_it_is_cleared_before_the_report(
        at_once: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert cli.main(["verify", "--example", "and", "--format", "json"]) == 0
    assert "\rrunning the perceptron: epoch 1 of 1,000 (0%)" in terminal.getvalue()
    assert terminal.getvalue().endswith("\r\033[K")
    terminal.truncate(0)
    assert cli.main(["verify", "--example", "and", "--no-progress"]) == 0 and terminal.getvalue() == ""


def test_the_bound_is_shown_where_the_run_knows_it(at_once: None) -> None:
    seen: list[Progress] = []
    vp.verify(AND_X, AND_Y, separator=[-4, 3, 2], progress=seen.append)
    epochs = [p for p in seen if p.epoch is not None]  # the epochs' ends Python sees (the compiled pass runs on)
    numbers = [p.epoch for p in seen if p.epoch is not None]
    assert numbers == sorted(set(numbers)) and numbers[-1] == 9
    assert all(p.bound == 87 and p.n_mistakes == p.n_updates for p in epochs)
    assert epochs[-1].n_updates == 18 and epochs[-1].max_epochs == 1000


def test_the_api_calls_back_with_every_phase_in_order() -> None:
    seen: list[Progress] = []
    result = vp.verify(AND_X, XOR_Y, max_epochs=5, progress=seen.append)
    phases = list(dict.fromkeys(p.phase for p in seen))
    assert phases == ["loading the data", "running the perceptron", "deciding separability", "writing the report"]
    assert result.verdict == "not-separable"
    assert [p.epoch for p in seen if p.epoch is not None] == list(range(1, result.trace.n_epochs + 1))
    assert all(b.elapsed >= a.elapsed for a, b in zip(seen, seen[1:]))


def test_the_api_shows_nothing_by_default_outside_a_notebook_and_refuses_a_bad_value(
        capsys: pytest.CaptureFixture[str]) -> None:
    vp.verify(AND_X, AND_Y)
    vp.verify(AND_X, AND_Y, progress=True)  # stderr is no terminal here
    assert capsys.readouterr().err == ""
    with pytest.raises(TypeError, match="progress=1 must be None, True, False or a callable taking a Progress"):
        vp.verify(AND_X, AND_Y, progress=1)


def test_in_a_notebook_the_api_shows_a_bar_updated_in_place(at_once: None, monkeypatch: pytest.MonkeyPatch) -> None:
    updates: list[str] = []

    class Handle:
        def update(self, html: Any) -> None:
            updates.append(html.data)

    class ZMQInteractiveShell:  # a Jupyter kernel's shell, by name
        pass

    display = types.ModuleType("IPython.display")
    display.HTML = types.SimpleNamespace  # type: ignore[attr-defined]
    display.display = lambda obj, display_id=False: Handle()  # type: ignore[attr-defined]
    ipython = types.ModuleType("IPython")
    ipython.get_ipython = ZMQInteractiveShell  # type: ignore[attr-defined]
    ipython.display = display  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "IPython", ipython)
    monkeypatch.setitem(sys.modules, "IPython.display", display)
    monkeypatch.setattr(display, "HTML", lambda data: types.SimpleNamespace(data=data))
    watch = watch_for(None, max_epochs=3, time_limit=None)
    assert watch is not None and isinstance(watch.show, NotebookBar)
    vp.verify(AND_X, AND_Y, max_epochs=30)
    assert any('<progress value="0.0333" max="1"></progress> <code>running the perceptron: epoch 1 of 30' in u
               for u in updates)
    assert "done in" in updates[-1]


def test_sigint_during_a_run_with_the_line_on_clears_it_and_exits_130(
        at_once: None, monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)

    def interrupted(*args: Any, progress: Any = None, **kwargs: Any) -> Any:
        progress(1, 1, None, None)
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "verify_run_deferred", interrupted)
    assert cli.main(["verify", "--example", "and"]) == 130
    text = terminal.getvalue()
    assert "\rrunning the perceptron: epoch 1 of 1,000" in text
    assert text.endswith("\r\033[Kverify-perceptron: interrupted\n")  # the line cleared before the message
    assert not any(t.name == "verify-perceptron progress" for t in threading.enumerate())


def test_the_time_limit_ends_a_run_shown_on_a_terminal(at_once: None, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    import numpy as np

    rng = np.random.default_rng(0)
    X = rng.integers(-50, 51, size=(400, 6))
    y = rng.integers(0, 2, size=400)  # labels at random: not separable, the run goes to its limit
    stderr = Terminal()
    monkeypatch.setattr(sys, "stderr", stderr)
    with Stopwatch() as watch:
        try:  # the run stops at the limit; what comes after it may be cut short by the backstop
            result = vp.verify(X, y, max_epochs=10**9, time_limit=0.5, progress=True)
            assert result.trace.stop in ("time-limit", "cycle")
        except TimeUp:
            pass
    assert watch.within(0.5, 2.0), watch
    assert "running the perceptron: epoch" in stderr.getvalue()
    assert stderr.getvalue().endswith("\r\033[K")
    assert not any(t.name == "verify-perceptron progress" for t in threading.enumerate())


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_a_real_terminal_gets_the_line(tmp_path: Path) -> None:
    import subprocess

    master, slave = os.openpty()
    code = ("import verify_perceptron.progress as p; p.QUIET_SECONDS = p.REDRAW_SECONDS = 0.0\n"
            "from verify_perceptron.cli import main\n"
            "raise SystemExit(main(['verify', '--example', 'and', '--format', 'json']))\n")
    done = subprocess.run([sys.executable, "-c", code], stderr=slave, stdout=subprocess.DEVNULL, timeout=60)
    os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(master)
    assert done.returncode == 0
    assert b"\rloading the data: " in shown and b"running the perceptron: epoch 1 of 1,000 (0%)" in shown
    assert shown.endswith(b"\r\x1b[K")


def test_check_tells_its_phases_and_counts_the_calls_of_the_implementation() -> None:
    from verify_perceptron.harness.check import run_check_command

    seen: list[Progress] = []
    code, _ = run_check_command("verify_perceptron.harness:reference_fit", dtype="fraction", examples=5,
                                progress=Watch(seen.append))
    assert code == 0
    phases = list(dict.fromkeys(p.phase for p in seen))
    assert phases[:2] == ["loading the implementation", "checking the notes' worked examples"]
    assert "searching generated data (and shrinking what fails)" in phases
    calls = [p.calls for p in seen if p.calls is not None]
    assert calls == sorted(calls) and calls[-1] >= 5 + 3  # every dataset and each worked example, counted once
    assert "calls of the implementation" in seen[-1].line()


def test_the_check_command_shows_its_progress_only_when_asked_off_a_terminal(
        at_once: None, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["check", "verify_perceptron.harness:reference_fit", "--dtype", "fraction", "--examples", "3"]
    assert cli.main([*argv, "--progress"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("loading the implementation: ")
    assert any("calls of the implementation" in line for line in err)
    assert cli.main([*argv, "--no-progress"]) == 0 and capsys.readouterr().err == ""
    assert cli.main(argv) == 0 and capsys.readouterr().err == ""
