"""Averaged perceptrons as course code writes them, one for each thing the average runs over
(`run.averaged.AVERAGES`). Each returns ``(w, b)`` in float64 and stops at its first clean epoch, except
`daume_fixed`, which runs exactly `FIXED_EPOCHS` epochs.

- `collins`: the mean of the weights after every presentation;
- `daume`, `daume_fixed`: a counter c from 1, u += c·y·x at each update, w - u/c returned (the start counted);
- `epoch_ends`: the mean of the weights at each epoch's end;
- `update_mean`: the mean of the weights after each update.
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: The epochs `daume_fixed` always runs (past 200: the diagnosis solves for T there).
FIXED_EPOCHS = 300


def _arrays(X: Any, y: Any) -> tuple[Any, Any]:
    return np.asarray(X, dtype=float), np.asarray(y, dtype=float)


def collins(X: Any, y: Any) -> Any:
    X, y = _arrays(X, y)
    w, b, sw, sb, n = np.zeros(X.shape[1]), 0.0, np.zeros(X.shape[1]), 0.0, 0
    for _ in range(1000):
        clean = True
        for x, t in zip(X, y):
            if t * (w @ x + b) <= 0:
                w, b, clean = w + t * x, b + t, False
            sw, sb, n = sw + w, sb + b, n + 1
        if clean:
            break
    return sw / n, sb / n


def _daume(X: Any, y: Any, epochs: int | None) -> Any:
    X, y = _arrays(X, y)
    w, b, u, beta, c = np.zeros(X.shape[1]), 0.0, np.zeros(X.shape[1]), 0.0, 1.0
    for _ in range(epochs or 1000):
        clean = True
        for x, t in zip(X, y):
            if t * (w @ x + b) <= 0:
                w, b, u, beta, clean = w + t * x, b + t, u + c * t * x, beta + c * t, False
            c += 1
        if clean and epochs is None:
            break
    return w - u / c, b - beta / c


def daume(X: Any, y: Any) -> Any:
    return _daume(X, y, None)


def daume_fixed(X: Any, y: Any) -> Any:
    return _daume(X, y, FIXED_EPOCHS)


def epoch_ends(X: Any, y: Any) -> Any:
    X, y = _arrays(X, y)
    w, b, sw, sb, e = np.zeros(X.shape[1]), 0.0, np.zeros(X.shape[1]), 0.0, 0
    for _ in range(1000):
        clean = True
        for x, t in zip(X, y):
            if t * (w @ x + b) <= 0:
                w, b, clean = w + t * x, b + t, False
        sw, sb, e = sw + w, sb + b, e + 1
        if clean:
            break
    return sw / e, sb / e


def update_mean(X: Any, y: Any) -> Any:
    X, y = _arrays(X, y)
    w, b, sw, sb, k = np.zeros(X.shape[1]), 0.0, np.zeros(X.shape[1]), 0.0, 0
    for _ in range(1000):
        clean = True
        for x, t in zip(X, y):
            if t * (w @ x + b) <= 0:
                w, b, clean = w + t * x, b + t, False
                sw, sb, k = sw + w, sb + b, k + 1
        if clean:
            break
    return sw / max(k, 1), sb / max(k, 1)
