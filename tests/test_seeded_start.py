"""A seeded random start is read off the implementation and looked past: code that starts from small seeded
random weights (as a well-known textbook writes it) is named nonzero-start, and then what it is from that start
(the convention, the rate, the epochs) is found, or it is said that something else departs too."""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import numpy as np

from verify_perceptron.harness import check_implementation
from verify_perceptron.harness._start import _Caps


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


def test_caps_meet_and_join() -> None:
    a, b = _Caps(frozenset({3, 4}), 9), _Caps(frozenset({4, 7}), 12)
    both = a & b
    assert (both.some, both.beyond, both.least()) == (frozenset({4}), 12, 4)
    assert (a | b).beyond == 9 and (a | b).some == frozenset({3, 4, 7})
    assert (_Caps(frozenset(), 5) & _Caps(frozenset({2}), None)).least() is None
    assert _Caps(frozenset({6}), 5).has(8) and not _Caps(frozenset({6}), None).has(8)
