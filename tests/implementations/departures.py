"""Perceptrons that depart from the notes in several ways at once, or in ways scikit-learn's options
do, written for this project (issue 28): each docstring says what it does. `CASES` lists each with
how it is checked and the diagnosis it must get, as ``--format json`` gives it.

Functions take X and y (labels -1/+1, unless their case gives 0/1) and return ``(w, b)``, computing in float64
with NumPy.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def _arrays(X: Any, y: Any) -> tuple[Any, Any]:
    return np.asarray(X, dtype=float), np.asarray(y, dtype=float)


def tie_plus_float_rate_ten_epochs(X: Any, y: Any) -> tuple[Any, float]:
    """Textbook code: predict +1 when w·x + b >= 0, update by eta·(d - prediction)·x with eta = 0.01,
    for exactly 10 epochs at most. Three departures of the classic perceptron (the tie rule, the float rate, the
    cap), which together are one model: note 001's hard-limiter-plus in float64 at 0.01, stopped after 10 epochs."""
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


def decaying_rate(X: Any, y: Any) -> tuple[Any, float]:
    """The classic rule with the rate η/(t+1), η = 1, t counting epochs from 0 (so 1, 1/2, 1/3, ...)."""
    X, y = _arrays(X, y)
    w, b = np.zeros(X.shape[1]), 0.0
    for t in range(1000):
        eta, clean = 1.0 / (t + 1), True
        for xi, yi in zip(X, y):
            if yi * (w @ xi + b) <= 0:
                w, b, clean = w + (eta * yi) * xi, b + eta * yi, False
        if clean:
            break
    return w, b


def sigmoid_gradient_descent(X: Any, y: Any) -> tuple[Any, float]:
    """Not a perceptron: stochastic gradient descent on the logistic loss with a sigmoid output and 0/1
    targets, rate 0.5, 100 epochs; its weights are sums of non-commensurate multiples of the samples."""
    X, y = _arrays(X, y)
    targets = (y > 0).astype(float)
    w, b = np.zeros(X.shape[1]), 0.0
    for _ in range(100):
        for xi, ti in zip(X, targets):
            out = 1.0 / (1.0 + np.exp(-(w @ xi + b)))
            w, b = w + 0.5 * (ti - out) * xi, b + 0.5 * (ti - out)
    return w, b


def heaviside_half_at_ties(X: Any, y: Any) -> tuple[Any, float]:
    """Code written for labels 0/1 (it is given them): predict NumPy's heaviside(w·x + b, 0.5), so 0.5 at a tie,
    and update by 0.1·(d - prediction): a step of ±0.1 on a mistake, half of it on a tie, in float64; stops at a
    clean epoch, else after 1000."""
    X, d = _arrays(X, y)
    w, b = np.zeros(X.shape[1]), 0.0
    for _ in range(1000):
        clean = True
        for xi, target in zip(X, d):
            error = 0.1 * (target - np.heaviside(w @ xi + b, 0.5))
            if error != 0.0:
                w, b, clean = w + error * xi, b + error, False
        if clean:
            break
    return w, b


#: name -> (target for MODULE:EXPR or the function's name here, how it is checked, the diagnosis: the code and,
#: for a combination, the codes of its causes in order).
CASES: dict[str, tuple[str, dict[str, Any], tuple[str, tuple[str, ...]]]] = {
    "hard-limiter-plus in float64 for 10 epochs": ("tests.implementations.departures:tie_plus_float_rate_ten_epochs",
                                                   {}, ("float-rounding", ())),
    "three causes, one a bias step": ("tests.implementations.departures:wrong_sign_half_bias_tie_minus", {},
                                      ("combination", ("tie-minus", "wrong-sign", "bias-rate"))),
    "scikit-learn's Perceptron()": ("sklearn.linear_model:Perceptron()", {},
                                    ("combination", ("shuffled", "loss-stop"))),
    "penalty='l2'": ("sklearn.linear_model:Perceptron(penalty='l2', shuffle=False, tol=None)", {}, ("penalty", ())),
    "a decaying rate": ("tests.implementations.departures:decaying_rate", {}, ("decaying-rate", ())),
    "heaviside(s, 0.5) on labels 0/1": ("tests.implementations.departures:heaviside_half_at_ties", {"labels": "0/1"},
                                        ("combination", ("tie-zero", "float-rate"))),
    "a sigmoid learner": ("tests.implementations.departures:sigmoid_gradient_descent", {}, ("not-a-perceptron", ())),
}
