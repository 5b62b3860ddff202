"""The note's perceptron as float64 NumPy code writes it, for tests that wrap it (rescaled inputs, weights divided
by their length): a mistake when t·(x·w + b) <= 0, then w += η·t·x and b += η·t, until a pass without a mistake
(at most 1000 passes)."""

from __future__ import annotations

from typing import Any

import numpy as np


def float_perceptron(X: Any, y: Any, eta: float, decay: float = 1.0) -> tuple[Any, float]:
    """The weights and the bias after the run on `X` (float64) and the labels `y` (-1/+1) at rate `eta`, the rate
    multiplied by `decay` after every epoch with a mistake (``lr *= decay``; 1: a constant rate)."""
    X = np.asarray(X, dtype=float)
    w, b = np.zeros(X.shape[1]), 0.0
    for _ in range(1000):
        mistakes = 0
        for x, t in zip(X, y):
            if t * (x @ w + b) <= 0:
                w, b, mistakes = w + eta * t * x, b + eta * t, mistakes + 1
        if not mistakes:
            break
        eta *= decay
    return w, b
