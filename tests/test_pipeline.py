"""`verify_perceptron.pipeline`: a run stopped at a limit is checked once, against the w* it ends up with.

`verify_run_deferred` leaves the check of such a run `Pending` until
separability is settled; `settle` then replays it once, against the
certified max-margin separator or without w*. The report must be the one
`verify_run` with ``again`` gives (checked without w*, then replayed against
w*, the first check thrown away), on every convention and mode.
"""

from __future__ import annotations

import json
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from verify_perceptron import pipeline
from verify_perceptron.api.verification import settle
from verify_perceptron.cli import main
from verify_perceptron.data.dataset import Dataset
from verify_perceptron.notes.conventions import CONVENTIONS, get_convention
from verify_perceptron.pipeline import Again, Pending, verify_run, verify_run_deferred
from verify_perceptron.report.record import build_report, render_json


def _data(separable: bool) -> Dataset:
    """12 samples in 3 features, labelled by a hyperplane; and, when not `separable`, the first again, labelled
    the other way."""
    rng = np.random.default_rng(5)
    X = [[Fraction(int(rng.integers(-9, 10)), int(rng.integers(1, 4))) for _ in range(3)] for _ in range(12)]
    y = [1 if 2 * row[0] - row[1] + row[2] + 1 >= 0 else -1 for row in X]
    if not separable:
        X, y = [*X, X[0]], [*y, -y[0]]
    return Dataset(X, y)


def _replays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the replays of kept updates into a checker (one a check)."""
    counted: list[int] = []
    real = pipeline._Store.replay

    def replay(self: Any, observer: Any, *, keep: bool = False) -> None:
        counted.append(1)
        real(self, observer, keep=keep)

    monkeypatch.setattr(pipeline._Store, "replay", replay)
    return counted


def _settled(data: Dataset, convention: str, mode: str, deferred: bool) -> tuple[str, Any]:
    conv = get_convention(convention)
    eta = "1" if conv.rate_fixed else "1/2"
    again: list[Again] = []
    if deferred:
        trace, first = verify_run_deferred(data, conv, eta=eta, mode=mode, max_epochs=1, again=again)
        assert isinstance(first, Pending) and not again and first.n_checks == 0  # not checked yet
    else:
        trace, first = verify_run(data, conv, eta=eta, mode=mode, max_epochs=1, again=again)
    assert trace.stop == "max-epochs"
    t, check, separability, _ = settle(data, conv, trace, first, eta=eta, mode=mode, max_epochs=1, time_limit=None,
                                       started=time.monotonic(), again=again)
    return render_json(build_report(data, t, check, separability=separability)), check


@pytest.mark.parametrize("mode", ["online", "batch"])
@pytest.mark.parametrize("convention", sorted(CONVENTIONS))
def test_a_stopped_run_is_checked_once_against_its_certified_separator_and_reports_as_before(
        convention: str, mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    replays = _replays(monkeypatch)
    for separable in (True, False):
        data = _data(separable)
        before, old = _settled(data, convention, mode, deferred=False)
        assert len(replays) == (2 if separable else 1)  # without w*, then against it: the first thrown away
        replays.clear()
        after, new = _settled(data, convention, mode, deferred=True)
        assert len(replays) == 1  # checked once
        replays.clear()
        assert new.separator_source == ("certified" if separable else None) == old.separator_source
        assert after == before


def test_a_pending_check_is_made_once(monkeypatch: pytest.MonkeyPatch) -> None:
    replays = _replays(monkeypatch)
    trace, pending = verify_run_deferred(_data(True), max_epochs=1)
    assert isinstance(pending, Pending) and pending.trace is trace
    check = pending.check()  # without w*: the best weights visited are its soft-margin reference
    assert (check.separator, pending.n_checks, len(replays)) == (None, 1, 1)
    with pytest.raises(RuntimeError, match="cannot be checked again"):  # its kept updates were let go
        pending.check([1, 0, 0, 0], "certified", None)
    assert len(replays) == 1


def test_a_time_limited_run_is_checked_at_once_and_again_against_w_star() -> None:
    # with a time limit the run's check cannot wait for a decision that may take what is left
    again: list[Again] = []
    trace, check = verify_run_deferred(_data(True), max_epochs=1, time_limit=60.0, again=again)
    assert not isinstance(check, Pending) and check.separator is None and len(again) == 1


def test_verify_and_fit_check_a_stopped_run_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from verify_perceptron import ExactPerceptron, verify

    data = _data(True)
    X, y = [[float(v) for v in row] for row in data.X], [int(v) for v in data.y_array]
    replays = _replays(monkeypatch)
    result = verify(X, y, max_epochs=1)
    assert (len(replays), result.check.separator_source, result.verdict) == (1, "certified", "stopped-separable")
    with pytest.warns(Warning):  # stopped at max_epochs
        model = ExactPerceptron(max_epochs=1).fit(X, y)
    assert model.verification_ is not None and model.verification_.check.separator_source == "certified"
    assert len(replays) == 2
    path = tmp_path / "d.csv"
    path.write_text("".join(",".join(map(repr, row)) + f",{label}\n" for row, label in zip(X, y)))
    reports = []
    for limit in ([], ["--time-limit", "600"]):  # deferred; checked at once, then against w*
        replays.clear()
        code = main(["verify", str(path), "--max-epochs", "1", "--format", "json", *limit])
        reports.append(capsys.readouterr().out)
        assert (code, len(replays)) == (0, 1 if not limit else 2)
    assert reports[0] == reports[1] and json.loads(reports[0])["separator"]["source"] == "certified"
