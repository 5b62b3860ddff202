"""The `proofs` command shows which proof it is checking (``--progress``) and stops at ``--time-limit``
with exit code 3; its report is the one `render_proofs` gives, whatever the display."""

from __future__ import annotations

import pytest

from verify_perceptron import cli
from verify_perceptron.cli import main
from verify_perceptron.progress import Progress
from verify_perceptron.proofs import render_proofs


class _Shown:
    """A display that keeps every phase it is told (a terminal line draws nothing in its first half second)."""

    phases: list[str] = []

    def __init__(self, stream: object) -> None:
        _Shown.phases = []

    def __call__(self, progress: Progress) -> None:
        _Shown.phases.append(progress.phase)

    def close(self) -> None:
        _Shown.phases.append("closed")


def test_the_progress_names_each_proof_and_the_report_is_unchanged(capsys: pytest.CaptureFixture[str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "TerminalLine", _Shown)
    assert main(["proofs", "--note", "004", "--progress"]) == 0
    out, err = capsys.readouterr()
    assert out.rstrip("\n") == render_proofs("004", "text").rstrip("\n")
    assert _Shown.phases == ["loading SymPy", "checking note 004's proof (split-bias), 1 of 1", "closed"]
    assert main(["proofs", "--note", "batch", "--progress"]) == 0
    assert _Shown.phases[1] == "checking the batch proof (batch mode), 1 of 1"
    capsys.readouterr()
    assert main(["proofs", "--note", "batch", "--no-progress", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and out.rstrip("\n") == render_proofs("batch", "json").rstrip("\n")


def test_a_time_limit_stops_the_proofs_with_exit_code_3(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["proofs", "--time-limit", "0.05", "--no-progress"]) == 3
    out, err = capsys.readouterr()
    assert out == "" and "time limit of 0.05 s ran out while checking" in err and "exit code 3" in err
