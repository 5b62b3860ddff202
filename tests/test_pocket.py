"""The pocket algorithm as people write it: every written form's weights after every epoch agree with a
plain Fraction pocket, and a pocket implementation, capped or not, is diagnosed as one with its own
prediction rule, start, tie rule and a cap range holding its cap; what is not a pocket is not called one."""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import numpy as np
import pytest
from hypothesis import given

from tests.data_strategies import halves
from verify_perceptron.data.dataset import Dataset
from verify_perceptron.harness import check_implementation
from verify_perceptron.harness._pocket import POCKETS, Pocket, pocket_run
from verify_perceptron.notes.conventions import get_convention


def _right(prediction: str, score: F, label: int) -> bool:
    if prediction == "ge":
        return (1 if score >= 0 else -1) == label
    if prediction == "gt":
        return (1 if score > 0 else -1) == label
    return label * score > 0


def _plain_pockets(data: Dataset, pocket: Pocket, epochs: int) -> list[list[F]]:
    """The classic perceptron's pocket after each of the first `epochs` epochs (the pocket after epoch T at index
    T - 1), in Fractions, written the obvious way: one run, its pocket read at each epoch's end."""
    Z = [[F(1), *x] for x in data.X]
    w = [F(0)] * len(Z[0])
    best = list(w)
    best_right = sum(_right(pocket.prediction, F(0), int(t)) for t in data.y) if pocket.start else -1
    after = []
    for _ in range(epochs):
        for z, t in zip(Z, data.y):
            if t * sum(a * b for a, b in zip(w, z)) <= 0:
                w = [a + t * b for a, b in zip(w, z)]
                right = sum(_right(pocket.prediction, F(sum(a * b for a, b in zip(w, u))), s) for u, s in zip(Z, data.y))
                if right > best_right or (pocket.last_on_tie and right == best_right):
                    best, best_right = list(w), right
        after.append(list(best))
    return after


@given(halves(max_samples=5))
def test_every_pocket_after_every_epoch_is_the_plain_pockets(data: Dataset) -> None:
    run = pocket_run(data, get_convention("classic"))
    for pocket in POCKETS:
        last = min(len(run.kept[pocket]), 40) + 2
        plain = _plain_pockets(data, pocket, last)  # one run read at every epoch's end, not one run for each T
        for T in range(1, last + 1):
            at = run.at(pocket, T)
            if at is not None:
                assert list(at) == plain[T - 1], (pocket, T)


def _pocket(prediction: str, start: bool, last_on_tie: bool, cap: int) -> Any:
    """A float64 pocket with bias last, as people write it."""
    def fit(X: Any, y: Any) -> Any:
        X, y = np.asarray(X, dtype=float), np.asarray(y)
        Z = np.hstack([X, np.ones((len(X), 1))])
        w = np.zeros(Z.shape[1])

        def right(v: Any) -> int:
            s = Z @ v
            guess = {"ge": np.where(s >= 0, 1, -1), "gt": np.where(s > 0, 1, -1), "sign": np.sign(s)}[prediction]
            return int(np.sum(guess == y))
        best, best_right = w.copy(), (right(w) if start else -1)
        for _ in range(cap):
            for z, t in zip(Z, y):
                if t * (z @ w) <= 0:
                    w = w + t * z
                    r = right(w)
                    if r > best_right or (last_on_tie and r == best_right):
                        best, best_right = w.copy(), r
        return best[:-1], best[-1]
    return fit


@pytest.mark.parametrize(("prediction", "start", "last_on_tie", "cap"),
                         [("ge", False, False, 1000), ("sign", False, False, 20), ("ge", True, False, 10),
                          ("gt", True, False, 15), ("gt", False, False, 30)])
def test_a_pocket_is_diagnosed_with_its_own_rules_and_cap(prediction: str, start: bool, last_on_tie: bool,
                                                         cap: int) -> None:
    result = check_implementation(_pocket(prediction, start, last_on_tie, cap), examples=60, worked_examples=False)
    assert not result.passed
    codes = [d.code for d in result.diagnoses]
    assert "best-so-far" in codes and set(codes) <= {"best-so-far", "epoch-cap"}, result.report()
    found = result.diagnoses[codes.index("best-so-far")].parameters
    forms = [(found["prediction"], found["start"], found["last_on_tie"])]
    forms += [(p["prediction"], p["start"], p["last_on_tie"]) for p in found["also"]]
    assert (prediction, start, last_on_tie) in forms, found
    low, high = found["epochs"], found["epochs_up_to"]
    assert low is None or low <= cap, found
    assert high is None or cap <= high, found


def _worst(X: Any, y: Any) -> Any:
    """Keeps the weights of the WORST accuracy met: not a pocket."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    Z = np.hstack([X, np.ones((len(X), 1))])
    w = np.zeros(Z.shape[1])
    worst, worst_right = w.copy(), len(y) + 1
    for _ in range(30):
        for z, t in zip(Z, y):
            if t * (z @ w) <= 0:
                w = w + t * z
                r = int(np.sum(np.where(Z @ w >= 0, 1, -1) == y))
                if r < worst_right:
                    worst, worst_right = w.copy(), r
    return worst[:-1], worst[-1]


def test_weights_of_the_worst_accuracy_are_not_called_a_pocket() -> None:
    result = check_implementation(_worst, examples=60, worked_examples=False)
    assert not result.passed
    assert "best-so-far" not in [d.code for d in result.diagnoses], result.report()


def test_a_pocket_that_keeps_the_last_weights_on_every_dataset_is_called_an_epoch_cap() -> None:
    # on the datasets tried this pocket is the run's own weights after the cap: the simpler cause is named alone
    cap = 15
    result = check_implementation(_pocket("gt", True, True, cap), examples=60, worked_examples=False)
    assert [(d.code, d.parameters.get("epochs")) for d in result.diagnoses] == [("epoch-cap", cap)], result.report()
