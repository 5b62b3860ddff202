"""Perceptron classes as textbooks and courses write them, keeping their weights somewhere other than
scikit-learn's ``coef_``: the harness reads them where they are (`harness._reading.WEIGHT_NAMES`).

- `RaschkaFirstEdition`: ``w_`` with the bias first, ``η·(target - predict)`` with predict +1 at a score >= 0,
  η = 0.01, exactly 10 epochs (the book's chapter 2 class, as commonly copied);
- `RaschkaLater`: ``w_`` and ``b_`` apart, labels 0/1, predict 1 at a score >= 0, η = 1 (the later books'
  layout, started at zero here so that it is the note's run);
- `CourseWeightsBias`: ``weights`` and ``bias``, the classic rule;
- `NoWeights`: keeps its weights in ``_secret`` (nothing the harness reads).
"""

from __future__ import annotations

from typing import Any

import numpy as np


class RaschkaFirstEdition:
    def __init__(self, eta: float = 0.01, n_iter: int = 10) -> None:
        self.eta, self.n_iter = eta, n_iter

    def fit(self, X: Any, y: Any) -> RaschkaFirstEdition:
        self.w_ = np.zeros(1 + X.shape[1])
        for _ in range(self.n_iter):
            for xi, target in zip(X, y):
                update = self.eta * (target - self.predict(xi))
                self.w_[1:] += update * xi
                self.w_[0] += update
        return self

    def predict(self, X: Any) -> Any:
        return np.where(np.dot(X, self.w_[1:]) + self.w_[0] >= 0.0, 1, -1)


class RaschkaLater:
    def __init__(self, eta: float = 1.0, n_iter: int = 1000) -> None:
        self.eta, self.n_iter = eta, n_iter

    def fit(self, X: Any, y: Any) -> RaschkaLater:
        self.w_, self.b_ = np.zeros(X.shape[1]), np.float64(0.0)
        for _ in range(self.n_iter):
            errors = 0
            for xi, target in zip(X, y):
                update = self.eta * (target - self.predict(xi))
                self.w_ += update * xi
                self.b_ += update
                errors += int(update != 0.0)
            if errors == 0:
                break
        return self

    def predict(self, X: Any) -> Any:
        return np.where(np.dot(X, self.w_) + self.b_ >= 0.0, 1, 0)


class ColumnAndOneBias:
    """mlxtend's layout: ``w_`` a column (d x 1), ``b_`` an array of one value; the classic rule here."""

    def fit(self, X: Any, y: Any) -> None:
        w, b = np.zeros(X.shape[1]), 0.0
        for _ in range(1000):
            clean = True
            for xi, target in zip(X, y):
                if target * (xi @ w + b) <= 0:
                    w, b, clean = w + target * xi, b + target, False
            if clean:
                break
        self.w_, self.b_ = w.reshape(-1, 1), np.array([b])


class CourseWeightsBias:
    def fit(self, X: Any, y: Any) -> None:
        self.weights, self.bias = np.zeros(X.shape[1]), 0.0
        for _ in range(1000):
            clean = True
            for xi, target in zip(X, y):
                if target * (xi @ self.weights + self.bias) <= 0:
                    self.weights, self.bias, clean = self.weights + target * xi, self.bias + target, False
            if clean:
                return


class NoWeights:
    def fit(self, X: Any, y: Any) -> None:
        self._secret = np.zeros(X.shape[1])
