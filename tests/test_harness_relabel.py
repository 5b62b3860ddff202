"""Code written for labels 0/1 that departs in other ways too (machinelearningmastery's perceptron: predict 1 at an
activation >= 0, a step of 0.1·(t - p), 5 epochs, the bias first in its weights) was "unexplained" at the defaults:
given -1/+1 no model fits, and the label probe only knew code that passes on 0/1, or nearly. The check now calls it
again with the other labels and diagnoses it there; and an "unexplained" whose search of combinations ran out of
time says so instead of claiming every combination was tried."""

from __future__ import annotations

from typing import Any

import pytest

import verify_perceptron.harness._combinations as combinations
from verify_perceptron.harness import check_dataset, check_implementation


def _mastery(rate: float = 0.1, epochs: int = 5) -> Any:
    """machinelearningmastery.com's perceptron (labels 0/1, the activation from the bias first), as fit(X, y)."""
    def fit(X: Any, y: Any) -> Any:
        rows = [[float(v) for v in x] + [float(t)] for x, t in zip(X, y)]
        weights = [0.0] * len(rows[0])
        for _ in range(epochs):
            for row in rows:
                activation = weights[0]
                for i in range(len(row) - 1):
                    activation += weights[i + 1] * row[i]
                error = row[-1] - (1.0 if activation >= 0.0 else 0.0)
                weights[0] = weights[0] + rate * error
                for i in range(len(row) - 1):
                    weights[i + 1] = weights[i + 1] + rate * error * row[i]
        return weights[1:], weights[0]
    return fit


@pytest.mark.slow
def test_code_for_labels_0_1_with_other_departures_is_diagnosed_on_them() -> None:
    result = check_implementation(_mastery(), examples=20)
    assert [d.code for d in result.diagnoses] == ["label-encoding"], result.report()
    parameters = result.diagnoses[0].parameters
    assert parameters["labels"] == "0/1" and parameters["then"]["code"] == "combination", parameters
    causes = {c["code"] for c in parameters["then"]["parameters"]["causes"]}
    assert causes == {"tie-plus", "float-rate", "epoch-cap"}, parameters
    assert parameters["passes_with"].startswith("--labels 0/1 "), parameters
    assert "it expects labels 0/1" in result.report()


def test_a_search_stopped_by_its_time_limit_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(combinations, "SINGLE_SEARCH_SECONDS", 0.0)
    monkeypatch.setattr(combinations, "SEARCH_SECONDS", 0.0)  # (the other labels' search, too)
    case = check_dataset(_mastery(), [["-1"], ["1"]], [0, 1], labels="0/1")
    assert [d.code for d in case.diagnoses] == ["unexplained"], case.report()
    assert case.diagnoses[0].parameters["cut"] == 0
    assert "before the search's time limit stopped it" in case.diagnoses[0].text
    assert "nor any combination of up to three causes searched" not in case.diagnoses[0].text
