"""Perceptrons in the forms real code takes, written for this project: textbook estimator classes,
course code, tutorials. Each docstring says what it imitates and what differs from the notes.

Estimators: ``fit(X, y)``, then ``coef_`` (1-D) and ``intercept_`` (a float). Functions:
``fit(X, y) -> (w, b)``. All work in float64 with NumPy, start from zero, stop at the first epoch
without a mistake (at most 1000 epochs) and take labels -1/+1, unless their docstring says otherwise.
`CASES` lists each with how it is checked and the diagnosis it must get.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import numpy as np

MAX_EPOCHS = 1000


def _arrays(X: Any, y: Any) -> tuple[Any, Any]:
    return np.asarray(X, dtype=float), np.asarray(y, dtype=float)


def fit_correct(X: Any, y: Any) -> tuple[Any, float]:
    """Note 000's perceptron: a mistake when y·(w·x + b) <= 0, then w += y·x, b += y. Correct."""
    X, y = _arrays(X, y)
    w, b = np.zeros(X.shape[1]), 0.0
    for _ in range(MAX_EPOCHS):
        clean = True
        for xi, yi in zip(X, y):
            if yi * (w @ xi + b) <= 0:
                w, b, clean = w + yi * xi, b + yi, False
        if clean:
            break
    return w, b


class _Estimator(ABC):
    """The estimator interface the classes share: fit stores coef_ and intercept_."""

    def fit(self, X: Any, y: Any) -> _Estimator:
        w, b = self._train(*_arrays(X, y))
        self.coef_, self.intercept_ = w, float(b)
        return self

    @abstractmethod
    def _train(self, X: Any, y: Any) -> tuple[Any, float]:
        """The weights and bias each class learns from float arrays X and y."""


class CorrectPerceptron(_Estimator):
    """`fit_correct` as an estimator class. Correct."""

    def _train(self, X: Any, y: Any) -> tuple[Any, float]:
        return fit_correct(X, y)


class PredictGeZero(_Estimator):
    """The textbook and mlxtend form: predict +1 when w·x + b >= 0, else -1; update by
    eta·(d - prediction)·x. A hard limiter with sgn(0) = +1, the mirror of note 001's."""

    eta = 1.0

    def _train(self, X: Any, y: Any) -> tuple[Any, float]:
        w, b = np.zeros(X.shape[1]), 0.0
        for _ in range(MAX_EPOCHS):
            errors = 0
            for xi, target in zip(X, y):
                update = self.eta * (target - (1.0 if w @ xi + b >= 0.0 else -1.0))
                w, b = w + update * xi, b + update
                errors += int(update != 0.0)
            if errors == 0:
                break
        return w, b


class RandomStartSeeded(_Estimator):
    """The classic rule from small random weights, as textbook code seeds them (bias first)."""

    seed: int | None = 1

    def _train(self, X: Any, y: Any) -> tuple[Any, float]:
        start = np.random.default_rng(self.seed).normal(0.0, 0.01, X.shape[1] + 1)
        w, b = start[1:], start[0]
        for _ in range(MAX_EPOCHS):
            clean = True
            for xi, yi in zip(X, y):
                if yi * (w @ xi + b) <= 0:
                    w, b, clean = w + yi * xi, b + yi, False
            if clean:
                break
        return w, b


class RandomStartUnseeded(RandomStartSeeded):
    """The same with a generator seeded from the operating system: another start on every call."""

    seed = None


class AveragedPerceptron(_Estimator):
    """Course code's averaged perceptron: the classic rule for exactly `epochs` epochs (no early stop),
    returning the average of the weights after every presentation."""

    epochs = 10

    def _train(self, X: Any, y: Any) -> tuple[Any, float]:
        w, b = np.zeros(X.shape[1]), 0.0
        total_w, total_b, count = np.zeros(X.shape[1]), 0.0, 0
        for _ in range(self.epochs):
            for xi, yi in zip(X, y):
                if yi * (w @ xi + b) <= 0:
                    w, b = w + yi * xi, b + yi
                total_w, total_b, count = total_w + w, total_b + b, count + 1
        return total_w / count, total_b / count


class Capped50(_Estimator):
    """The classic rule with a fixed budget of 50 epochs: it returns what it has then, converged or not."""

    def _train(self, X: Any, y: Any) -> tuple[Any, float]:
        w, b = np.zeros(X.shape[1]), 0.0
        for _ in range(50):
            clean = True
            for xi, yi in zip(X, y):
                if yi * (w @ xi + b) <= 0:
                    w, b, clean = w + yi * xi, b + yi, False
            if clean:
                break
        return w, b


class Tolerant(_Estimator):
    """Course code that counts y·(w·x + b) < 1e-4 as a mistake (a tolerance for float noise)."""

    def _train(self, X: Any, y: Any) -> tuple[Any, float]:
        w, b = np.zeros(X.shape[1]), 0.0
        for _ in range(MAX_EPOCHS):
            clean = True
            for xi, yi in zip(X, y):
                if yi * (w @ xi + b) < 1e-4:
                    w, b, clean = w + yi * xi, b + yi, False
            if clean:
                break
        return w, b


class Shuffled(_Estimator):
    """The classic rule presenting the samples in a new order every epoch (a generator seeded in fit)."""

    def _train(self, X: Any, y: Any) -> tuple[Any, float]:
        order = np.random.default_rng(0)
        w, b = np.zeros(X.shape[1]), 0.0
        for _ in range(MAX_EPOCHS):
            clean = True
            for i in order.permutation(len(X)):
                if y[i] * (w @ X[i] + b) <= 0:
                    w, b, clean = w + y[i] * X[i], b + y[i], False
            if clean:
                break
        return w, b


class ZeroOneLabels(_Estimator):
    """Written for labels 0/1: predicts 1 when w·x + b > 0, else 0, and updates by (d - prediction)·x.
    It is note 001's hard limiter in 0/1 form; checked without ``--labels 0/1`` it gets -1/+1."""

    def _train(self, X: Any, y: Any) -> tuple[Any, float]:
        w, b = np.zeros(X.shape[1]), 0.0
        for _ in range(MAX_EPOCHS):
            clean = True
            for xi, target in zip(X, y):
                update = target - (1.0 if w @ xi + b > 0.0 else 0.0)
                if update != 0.0:
                    w, b, clean = w + update * xi, b + update, False
            if clean:
                break
        return w, b


#: name -> (how it is checked, the diagnosis code it must get; None when it must pass).
CASES: dict[str, tuple[dict[str, Any], str | None]] = {
    "fit_correct": ({}, None),
    "CorrectPerceptron": ({}, None),
    "PredictGeZero": ({}, "other-convention"),
    "PredictGeZero under hard-limiter-plus": ({"convention": "hard-limiter-plus"}, None),
    "RandomStartSeeded": ({}, "nonzero-start"),
    "RandomStartUnseeded": ({}, "nonzero-start"),
    "AveragedPerceptron": ({}, "averaged"),
    "AveragedPerceptron declared with --averaged --max-epochs 10": ({"averaged": True, "max_epochs": 10}, None),
    "Capped50": ({}, "epoch-cap"),
    "Tolerant": ({}, "tolerance"),
    "Shuffled": ({}, "shuffled"),
    "ZeroOneLabels": ({}, "label-encoding"),
    "ZeroOneLabels with --labels 0/1 under hard-limiter": ({"labels": "0/1", "convention": "hard-limiter"}, None),
    "fit_correct under hard-limiter": ({"convention": "hard-limiter"}, "other-convention"),
}
