"""A seeded random start is read off the implementation and looked past: code that starts from small seeded
random weights (as a well-known textbook writes it) is named nonzero-start, and then what it is from that start
(the convention, the rate, the epochs) is found, or it is said that something else departs too."""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import numpy as np
import pytest

from verify_perceptron.data.dataset import Dataset, from_arrays
from verify_perceptron.harness import check_implementation
from verify_perceptron.harness._start import _bias_path, _Caps, read_bias_start
from verify_perceptron.notes.conventions import get_convention


def _seeded(*, epochs: int = 10, eta: float = 0.01, moves_bias: bool = True) -> Any:
    """A perceptron from a seeded normal start, w[0] the bias, stepping eta·(t - predict) with predict +1 at >= 0."""
    def fit(X: Any, y: Any) -> Any:
        X, y = np.asarray(X, dtype=float), np.asarray(y)
        w = np.random.RandomState(1).normal(loc=0.0, scale=0.01, size=1 + X.shape[1])
        for _ in range(epochs):
            for xi, target in zip(X, y):
                update = eta * (target - (1 if xi @ w[1:] + w[0] >= 0.0 else -1))
                w[1:] += update * xi
                if moves_bias:
                    w[0] += update
        return w[1:], w[0]
    return fit


def test_a_seeded_start_is_read_and_the_rest_is_named() -> None:
    result = check_implementation(_seeded(), examples=40, worked_examples=False)
    assert [d.code for d in result.diagnoses] == ["nonzero-start"], result.report()
    then = result.diagnoses[0].parameters["then"]
    assert then is not None, result.report()
    # eta·(t - p) steps 2·eta on a mistake: the classic rule at 0.02, and equally a hard limiter's at 0.01 (the same
    # steps; no score is ever exactly 0 from a random start, so the tie rules are not told apart)
    fits = {(then["convention"], F(then["rate"]))} | {(a["convention"], F(a["rate"])) for a in then["also"]}
    assert {("classic", F(0.02)), ("hard-limiter-plus", F(0.01))} <= fits, then
    assert "(equally the hard-limiter and hard-limiter-plus perceptron's rule at rate" in result.report()
    assert then["epochs"] == 10 or (then["or_more"] and then["epochs"] <= 10), then
    start = np.random.RandomState(1).normal(loc=0.0, scale=0.01, size=3)
    assert [F(v) for v in then["start"][:2]] == [F(start[0]), F(start[1])]  # the bias, then w1


def test_a_seeded_start_with_another_departure_says_so() -> None:
    result = check_implementation(_seeded(moves_bias=False), examples=40, worked_examples=False)
    assert [d.code for d in result.diagnoses] == ["nonzero-start"], result.report()
    assert result.diagnoses[0].parameters["then"] is None
    assert "something else departs too" in result.report()


def _seeded_zero_one(eta: float = 0.01, epochs: int = 50) -> Any:
    """The 2022 edition's class: w_ from a seeded normal draw, b_ = 0, labels 0/1, predict 1 at a score >= 0."""
    def fit(X: Any, y: Any) -> Any:
        X, y = np.asarray(X, dtype=float), np.asarray(y)
        w, b = np.random.RandomState(1).normal(loc=0.0, scale=0.01, size=X.shape[1]), 0.0
        for _ in range(epochs):
            for xi, target in zip(X, y):
                update = eta * (target - (1 if xi @ w + b >= 0.0 else 0))
                w, b = w + update * xi, b + update
        return w, b
    return fit


def test_a_seeded_start_written_for_labels_0_1_is_named_with_them() -> None:
    # given -1/+1 it steps by eta·(t - p) with p in {0, 1}: 'something else departs too'; called again with labels 0/1
    # it is a float64 run from the start read
    result = check_implementation(_seeded_zero_one(), examples=40, worked_examples=False)
    assert [d.code for d in result.diagnoses] == ["nonzero-start"], result.report()
    parameters = result.diagnoses[0].parameters
    assert parameters["labels"] == "0/1" and parameters["then"] is not None, result.report()
    assert F(parameters["then"]["rate"]) == F(0.01) and parameters["then"]["convention"] == "classic"
    assert "it is written for labels 0/1" in result.report()
    assert "nothing but the start and the labels (0/1) departs" in result.report()


def test_caps_meet_and_join() -> None:
    a, b = _Caps(frozenset({3, 4}), 9), _Caps(frozenset({4, 7}), 12)
    both = a & b
    assert (both.some, both.beyond, both.least()) == (frozenset({4}), 12, 4)
    assert (a | b).beyond == 9 and (a | b).some == frozenset({3, 4, 7})
    assert (_Caps(frozenset(), 5) & _Caps(frozenset({2}), None)).least() is None
    assert _Caps(frozenset({6}), 5).has(8) and not _Caps(frozenset({6}), None).has(8)


def _bias_seeded(*, draw: Any, eta: float = 1.0, epochs: int = 1000, bias_eta: float | None = None) -> Any:
    """A perceptron whose features start at 0 and whose bias starts at a seeded draw (`draw(rng)`), classic rule
    (the bias stepped at `bias_eta` if given), stopping at a clean epoch or after `epochs`."""
    def fit(X: Any, y: Any) -> Any:
        X, y = np.asarray(X, dtype=float), np.asarray(y)
        w, b = np.zeros(X.shape[1]), float(draw(np.random.default_rng(0)))
        for _ in range(epochs):
            clean = True
            for x, t in zip(X, y):
                if t * (w @ x + b) <= 0:
                    w, b, clean = w + eta * t * x, b + (eta if bias_eta is None else bias_eta) * t, False
            if clean:
                break
        return w, b
    return fit


@pytest.mark.parametrize(("draw", "eta", "epochs"), [
    (lambda rng: rng.normal(scale=0.1), 1.0, 1000),  # |b| below one step: the far sample's step is undone
    (lambda rng: rng.uniform(-2, 2), 0.5, 1000),  # |b| several steps: the zeros step it back over several
    (lambda rng: -rng.uniform(1, 2), 0.1, 10),  # many steps, and a cap
])
def test_a_seeded_bias_start_is_read_and_the_rest_is_named(draw: Any, eta: float, epochs: int) -> None:
    result = check_implementation(_bias_seeded(draw=draw, eta=eta, epochs=epochs), examples=40,
                                  worked_examples=False)
    assert [d.code for d in result.diagnoses] == ["nonzero-start"], result.report()
    parameters = result.diagnoses[0].parameters
    # a step rounds a start's last bits away: the start read is one whose float64 path on the probes is the true one's
    start, found = float(draw(np.random.default_rng(0))), float(F(parameters["value"]))
    assert [_bias_path(found, label, eta, True) for label in (1, -1)] == [
        _bias_path(start, label, eta, True) for label in (1, -1)]
    assert (parameters["weight"], parameters["seeded"]) == ("w0", True)
    then = parameters["then"]
    assert (then["convention"], F(then["rate"])) == ("classic", F(eta)), result.report()
    assert [F(w) for w in then["start"]] == [F(found), 0], then
    assert then["epochs"] == epochs or (then["or_more"] and then["epochs"] <= epochs), then


def test_a_bias_start_with_another_departure_is_not_named() -> None:
    # a bias start, but the bias stepped at half the rate too: no float64 run of a note's rule from any start read
    # gives its weights, and the probe alone proves no start (a zero start under its own tie rule or step also ends
    # the bias apart from 0 there)
    result = check_implementation(_bias_seeded(draw=lambda rng: rng.normal(scale=0.1), bias_eta=0.5), examples=40,
                                  worked_examples=False)
    assert not result.passed
    assert "nonzero-start" not in [d.code for d in result.diagnoses], result.report()


def test_the_bias_start_reader_refuses_what_is_not_a_bias_start() -> None:
    data = from_arrays([[1], [2]], [-1, 1])
    conv = get_convention("classic")

    def moves(probe: Dataset, labels: str, name: str) -> Any:  # a second feature's weight nonzero: no bias start
        return probe, (F(1, 4), F(3), F(1, 8)), False

    def zero_start(probe: Dataset, labels: str, name: str) -> Any:  # the far sample never a mistake: first weight 0
        return probe, (F(1, 4), F(0), F(0)), False

    def classic_from(start: float, shuffle: bool = False) -> Any:  # the classic rule from (start, 0), rate 1
        def run(probe: Dataset, labels: str, name: str) -> Any:
            order = np.random.default_rng(0).permutation(probe.n_samples) if shuffle else range(probe.n_samples)
            b, v = start, 0.0
            for _ in range(4):
                for i in order:
                    x, t = float(probe.X[i][0]), probe.y[i]
                    if t * (v * x + b) <= 0:
                        b, v = b + t, v + t * x
            return probe, (F(b), F(v)), False
        return run

    read = read_bias_start(data, conv, classic_from(0.3), "-1/+1")
    assert read is not None and read.gap == 1 and read.starts[0] == (F(0.3), (F(0),)), read
    # a zero start's answers (also shuffled) prove no start, though starts a whole number of steps away give them too
    assert read_bias_start(data, conv, classic_from(0.0), "-1/+1") is None
    assert read_bias_start(data, conv, classic_from(0.0, shuffle=True), "-1/+1") is None
    data2 = from_arrays([[1, 0], [2, 0]], [-1, 1])
    assert read_bias_start(data2, conv, moves, "-1/+1") is None
    assert read_bias_start(data2, conv, zero_start, "-1/+1") is None
    assert read_bias_start(data, conv, lambda probe, labels, name: (probe, None, False), "-1/+1") is None


def _fixed(start: Any, bias: float, eta: float) -> Any:
    """The classic perceptron at `eta` from features `start(d)` and bias `bias`."""
    def fit(X: Any, y: Any) -> Any:
        X = np.asarray(X, dtype=float)
        w, b = np.array(start(X.shape[1]), dtype=float), bias
        for _ in range(1000):
            clean = True
            for x, t in zip(X, y):
                if t * (w @ x + b) <= 0:
                    w, b, clean = w + eta * t * x, b + eta * t, False
            if clean:
                break
        return w, b
    return fit


@pytest.mark.parametrize(("start", "bias", "eta"), [
    (np.ones, 0.0, 0.5),  # a bias of exactly 0 predicts neither probe's label: it was 'something else departs too'
    (lambda d: np.random.default_rng(42).normal(size=d), 0.0, 0.1),
    (lambda d: np.full(d, 0.01), 0.01, 1.0),  # the bias's answers 0.01 and 0.01 - 1 are 0.99999... apart, not 1
])
def test_a_fixed_start_is_read_with_its_bias_and_rate(start: Any, bias: float, eta: float) -> None:
    result = check_implementation(_fixed(start, bias, eta), examples=40, worked_examples=False)
    assert [d.code for d in result.diagnoses] == ["nonzero-start"], result.report()
    then = result.diagnoses[0].parameters["then"]
    assert then is not None and (then["convention"], F(then["rate"])) == ("classic", F(eta)), result.report()
    assert F(then["start"][0]) == F(bias), then
    assert "a fixed start (a constant, or a seeded random draw)" in result.report()
