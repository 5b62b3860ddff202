"""A Python perceptron that returns one flat vector with the bias last, written for this project.

`flat_bias_last` is note 000's perceptron (float64, NumPy) returning
``[w1, ..., wd, b]``. A flat vector is read in the convention's own order by
default (classic: ``[w0, w1, ..., wd]``, the bias first), so it is misread
unless checked with ``bias="last"`` (``--bias last``).
"""

from __future__ import annotations

from typing import Any

import numpy as np


def flat_bias_last(X: Any, y: Any) -> Any:
    """Note 000's perceptron; returns ``np.append(w, b)``. Correct under ``bias="last"``."""
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    w, b = np.zeros(X.shape[1]), 0.0
    for _ in range(1000):
        clean = True
        for xi, yi in zip(X, y):
            if yi * (w @ xi + b) <= 0:  # mistake: y·(w·x~) <= 0
                w, b, clean = w + yi * xi, b + yi, False
        if clean:
            break
    return np.append(w, b)


def flat_bias_last_capped(X: Any, y: Any) -> Any:
    """`flat_bias_last` stopped after 3 epochs, converged or not: two departures at once, the layout and a cap.
    Under ``bias="last"`` it is ``epoch-cap`` (passes with ``max_epochs=3``)."""
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    w, b = np.zeros(X.shape[1]), 0.0
    for _ in range(3):
        clean = True
        for xi, yi in zip(X, y):
            if yi * (w @ xi + b) <= 0:
                w, b, clean = w + yi * xi, b + yi, False
        if clean:
            break
    return np.append(w, b)
