"""Batch perceptrons as people write them with NumPy: every score of a pass from the same weights, then one
step by the sum over the mistakes (note 003's batch mode). Each returns ``(w, b)``; ``*_reporting`` also
returns its steps as ``(a sample of the step, (w, b) after)``.

Correct: `batch_perceptron`. Broken: `batch_without_bias` (the bias never moves), `batch_one_pass_short`
(returns before its last step), `batch_reporting_a_right_sample` (names a sample the pass got right).
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: The passes a batch perceptron here makes at most.
MAX_EPOCHS = 1000


def _batch(X: Any, y: Any, *, bias: bool = True, short: bool = False, right_sample: bool = False) -> Any:
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    w, b = np.zeros(X.shape[1]), 0.0
    steps: list[tuple[int, tuple[Any, float]]] = []
    for _ in range(MAX_EPOCHS):
        wrong = y * (X @ w + b) <= 0
        if not wrong.any():
            break
        if short and not (y * (X @ (w + (y[wrong, None] * X[wrong]).sum(axis=0)) + b + bias * y[wrong].sum()) <= 0).any():
            break  # a loop that checks "will this be the last step?" and skips it
        w = w + (y[wrong, None] * X[wrong]).sum(axis=0)
        if bias:
            b = b + y[wrong].sum()
        named = int(np.flatnonzero(~wrong)[0]) if right_sample and (~wrong).any() else int(np.flatnonzero(wrong)[0])
        steps.append((named, (w.copy(), b)))
    return w, b, steps


def batch_perceptron_reporting(X: Any, y: Any) -> Any:
    """The batch perceptron in float64, reporting its steps."""
    return _batch(X, y)


def batch_perceptron(X: Any, y: Any) -> Any:
    """The batch perceptron in float64."""
    return _batch(X, y)[:2]


def batch_without_bias(X: Any, y: Any) -> Any:
    """Broken: the bias weight never moves."""
    return _batch(X, y, bias=False)[:2]


def batch_one_pass_short(X: Any, y: Any) -> Any:
    """Broken: it stops before the step that would make the pass clean."""
    return _batch(X, y, short=True)[:2]


def batch_reporting_a_right_sample(X: Any, y: Any) -> Any:
    """Broken bookkeeping: each step is reported under a sample its pass classified right, when there is one."""
    return _batch(X, y, right_sample=True)
