"""Perceptrons that depart from the notes in several ways at once, or in ways scikit-learn's options
do, written for this project (issue 28): each docstring says what it does. `CASES` lists each with
how it is checked and the diagnosis it must get, as ``--format json`` gives it.

Functions take X and y (labels -1/+1) and return ``(w, b)``, computing in float64 with NumPy.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def _arrays(X: Any, y: Any) -> tuple[Any, Any]:
    return np.asarray(X, dtype=float), np.asarray(y, dtype=float)


def tie_plus_float_rate_ten_epochs(X: Any, y: Any) -> tuple[Any, float]:
    """Textbook code: predict +1 when w·x + b >= 0, update by eta·(d - prediction)·x with eta = 0.01,
    for exactly 10 epochs at most. Three departures: the tie rule, the float rate, the cap."""
    X, y = _arrays(X, y)
    eta = 0.01
    w, b = np.zeros(X.shape[1]), 0.0
    for _ in range(10):
        errors = 0
        for xi, target in zip(X, y):
            update = eta * (target - (1.0 if w @ xi + b >= 0.0 else -1.0))
            w, b = w + update * xi, b + update
            errors += int(update != 0.0)
        if errors == 0:
            break
    return w, b


def wrong_sign_half_bias_tie_minus(X: Any, y: Any) -> tuple[Any, float]:
    """Predict +1 only when w·x + b > 0; the weights step the wrong way (w -= (d - y)·x), the bias the
    right way at half the rate (b += (d - y)/2); stops at a clean epoch, else after 1000."""
    X, y = _arrays(X, y)
    w, b = np.zeros(X.shape[1]), 0.0
    for _ in range(1000):
        clean = True
        for xi, target in zip(X, y):
            error = target - (1.0 if w @ xi + b > 0.0 else -1.0)
            if error != 0.0:
                w, b, clean = w - error * xi, b + error / 2, False
        if clean:
            break
    return w, b
