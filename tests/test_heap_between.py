"""The heap's freed pages given back between the phases after a long run (`verify_perceptron.heap.between`,
issue 32, `peakfit6`).

After a run that did not converge and passed its kept updates' budget, `pipeline` finds the best reference, the
soft-margin check's ρ and squares, and replays the kept mistakes: each phase frees arrays of n values that the
next does not fill exactly, and the process's resident size only grew. `between` gives the heap's whole free pages
back before the first of them and after each of the next two, from `BETWEEN_FROM` samples; then (branch `limbless`)
before the facts' sample rules and the final checks, and, in `run_verification` (the estimator's path), before the
separability decision, as the CLI does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.test_peak_memory import _randn_limbs
from verify_perceptron import heap, pipeline
from verify_perceptron.report.record import build_report, render_json


def _tracer(events: list[str]) -> Callable[[str, Any], Any]:
    """A maker of wrappers that append their `name` to `events`, then do the wrapped `work`."""
    def traced(name: str, work: Any) -> Any:
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            events.append(name)
            return work(*args, **kwargs)
        return wrapped
    return traced


def test_the_heap_is_given_back_before_each_phase_after_a_long_run(monkeypatch: pytest.MonkeyPatch) -> None:
    data = _randn_limbs(600)
    monkeypatch.setattr(pipeline, "MIN_REPLAY_BYTES", 2**12)  # the kept updates' budget passed: the mistakes kept
    plain = render_json(build_report(data, *pipeline.verify_run(data, "classic", max_epochs=20)))
    events: list[str] = []
    traced = _tracer(events)

    monkeypatch.setattr(heap, "BETWEEN_FROM", 600)
    monkeypatch.setattr(heap, "give_back", traced("give back", heap.give_back))
    monkeypatch.setattr(pipeline, "best_reference", traced("reference", pipeline.best_reference))
    monkeypatch.setattr(pipeline.Checker, "take_reference", traced("rho and squares", pipeline.Checker.take_reference))
    monkeypatch.setattr(pipeline, "replay_kept", traced("replay", pipeline.replay_kept))
    monkeypatch.setattr(pipeline.Checker, "finish", traced("finish", pipeline.Checker.finish))
    trace, check = pipeline.verify_run(data, "classic", max_epochs=20)
    assert not trace.converged and trace.n_updates > 1000
    after = events[events.index("reference") - 1:]
    assert after[:8] == ["give back", "reference", "give back", "rho and squares", "give back", "replay",
                         "give back", "finish"]
    assert render_json(build_report(data, trace, check)) == plain  # the same report

    events.clear()  # below BETWEEN_FROM samples: nothing given back
    monkeypatch.setattr(heap, "BETWEEN_FROM", 601)
    pipeline.verify_run(data, "classic", max_epochs=20)
    assert "replay" in events and "give back" not in events


def test_the_estimators_path_gives_the_heap_back_before_the_separability_decision(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from verify_perceptron.api import verification

    data = _randn_limbs(600)
    events: list[str] = []
    traced = _tracer(events)

    monkeypatch.setattr(heap, "BETWEEN_FROM", 600)
    monkeypatch.setattr(heap, "give_back", traced("give back", heap.give_back))
    monkeypatch.setattr(verification, "separability_of_run", traced("decision", verification.separability_of_run))
    given = verification.run_verification(data, "classic", max_epochs=20)
    at = events.index("decision")
    assert at > 0 and events[at - 1] == "give back"
    events.clear()  # below BETWEEN_FROM samples: nothing given back before the decision
    monkeypatch.setattr(heap, "BETWEEN_FROM", 601)
    plain = verification.run_verification(data, "classic", max_epochs=20)
    assert "decision" in events and "give back" not in events
    assert given.json == plain.json  # the same report
