"""A gallery of perceptrons, correct and broken, as people write them: the harness's test subjects.

Each one is written out the way coursework writes it (NumPy, loops, a
``max_epochs`` guard), not as a flag on one shared loop, so that the harness
is tested against code it has never seen. Every implementation ``name`` here
returns ``(w, b)``; ``name_reporting`` is the same code also returning its
updates as ``(sample index, (w, b) after)``. Importable as
``tests.implementations`` (the tests' package) for the CLI's ``MODULE:CALLABLE``.

Correct: `perceptron`, `half_rate_perceptron`, `exact_perceptron` (Fractions),
`ClassicPerceptron` (an estimator), `sum_norm_perceptron` (note 003's
coordinates, an augmented vector), `zero_one_hard_limiter` (note 001 with 0/1
labels), `detecting_perceptron` (returns None on non-separable data).

Broken (what each gets wrong is in `BROKEN`).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

Updates = list[tuple[int, tuple[Any, Any]]]
Fit = Callable[[Any, Any], Any]

#: The passes a gallery perceptron makes at most (coursework always has such a guard).
MAX_EPOCHS = 1000


def _plain(reporting: Fit, name: str) -> Fit:
    """The same implementation returning (w, b) only, importable as `name`."""

    def fit(X: Any, y: Any) -> Any:
        result = reporting(X, y)
        return None if result is None else result[:2]

    fit.__name__ = fit.__qualname__ = name
    fit.__module__ = __name__
    fit.__doc__ = reporting.__doc__
    return fit


# --- correct ----------------------------------------------------------------------------------------


def perceptron_reporting(X: Any, y: Any) -> Any:
    """Note 000's perceptron in float64: w, b from zero, update on y·(w·x + b) <= 0."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    w, b, updates = np.zeros(X.shape[1]), 0.0, []
    for _ in range(MAX_EPOCHS):
        clean = True
        for i in range(len(X)):
            if y[i] * (w @ X[i] + b) <= 0:
                w, b = w + y[i] * X[i], b + y[i]
                updates.append((i, (w.copy(), b)))
                clean = False
        if clean:
            break
    return w, b, updates


def half_rate_perceptron_reporting(X: Any, y: Any) -> Any:
    """The same with learning rate 1/2 (exact in binary): every weight is half the rate-1 run's."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    eta = 0.5
    w, b, updates = np.zeros(X.shape[1]), 0.0, []
    for _ in range(MAX_EPOCHS):
        clean = True
        for i in range(len(X)):
            if y[i] * (w @ X[i] + b) <= 0:
                w, b = w + eta * y[i] * X[i], b + eta * y[i]
                updates.append((i, (w.copy(), b)))
                clean = False
        if clean:
            break
    return w, b, updates


def exact_perceptron_reporting(X: Any, y: Any) -> Any:
    """Pure Python over Fractions (for ``dtype="fraction"``)."""
    w, b, updates = [Fraction(0)] * len(X[0]), Fraction(0), []
    for _ in range(MAX_EPOCHS):
        clean = True
        for i, (x, t) in enumerate(zip(X, y)):
            if t * (sum(wj * xj for wj, xj in zip(w, x)) + b) <= 0:
                w, b = [wj + t * xj for wj, xj in zip(w, x)], b + t
                updates.append((i, (list(w), b)))
                clean = False
        if clean:
            break
    return w, b, updates


class ClassicPerceptron:
    """A scikit-learn-style estimator: fit, then coef_ (1, d), intercept_ (1,), and updates_."""

    def __init__(self, *, max_epochs: int = MAX_EPOCHS) -> None:
        self.max_epochs = max_epochs

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        return {"max_epochs": self.max_epochs}

    def fit(self, X: Any, y: Any) -> ClassicPerceptron:
        X, y = np.asarray(X, dtype=float), np.asarray(y)
        w, b = np.zeros(X.shape[1]), 0.0
        self.updates_: Updates = []
        for self.n_epochs_ in range(1, self.max_epochs + 1):
            clean = True
            for i in range(len(X)):
                if y[i] * (X[i] @ w + b) <= 0:
                    w, b = w + y[i] * X[i], b + y[i]
                    self.updates_.append((i, (w.copy(), b)))
                    clean = False
            if clean:
                break
        self.coef_, self.intercept_ = w.reshape(1, -1), np.array([b])
        return self


def sum_norm_perceptron_reporting(X: Any, y: Any) -> Any:
    """Note 003: inputs (x, -1), threshold w0 last; returns the augmented vector [w1..wm, w0]."""
    X, t = np.asarray(X, dtype=float), np.asarray(y)
    Z = np.hstack([X, -np.ones((len(X), 1))])
    w, updates = np.zeros(Z.shape[1]), []
    for _ in range(MAX_EPOCHS):
        clean = True
        for mu in range(len(Z)):
            if (w @ Z[mu]) * t[mu] <= 0:
                w = w + t[mu] * Z[mu]
                updates.append((mu, w.copy()))
                clean = False
        if clean:
            break
    return w, updates


def sum_norm_perceptron(X: Any, y: Any) -> Any:
    """Note 003's perceptron, returning [w1..wm, w0] only."""
    return sum_norm_perceptron_reporting(X, y)[0]


def zero_one_hard_limiter_reporting(X: Any, y: Any) -> Any:
    """Note 001 with labels 0/1: output 1 if w·x + b > 0 else 0, w += η·(d - out)·x, η = 1."""
    X, d = np.asarray(X, dtype=float), np.asarray(y)
    w, b, updates = np.zeros(X.shape[1]), 0.0, []
    for _ in range(MAX_EPOCHS):
        clean = True
        for i in range(len(X)):
            out = 1 if w @ X[i] + b > 0 else 0
            if out != d[i]:
                w, b = w + (d[i] - out) * X[i], b + (d[i] - out)
                updates.append((i, (w.copy(), b)))
                clean = False
        if clean:
            break
    return w, b, updates


def detecting_perceptron_reporting(X: Any, y: Any) -> Any:
    """Returns None when the weights at the end of a pass repeat (then they cycle forever: not separable)."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    w, b, updates, seen = np.zeros(X.shape[1]), 0.0, [], set()
    for _ in range(MAX_EPOCHS):
        clean = True
        for i in range(len(X)):
            if y[i] * (w @ X[i] + b) <= 0:
                w, b = w + y[i] * X[i], b + y[i]
                updates.append((i, (w.copy(), b)))
                clean = False
        if clean:
            return w, b, updates
        state = (b, *w.tolist())
        if state in seen:
            return None
        seen.add(state)
    return None


# --- broken -----------------------------------------------------------------------------------------


def strict_negative_reporting(X: Any, y: Any) -> Any:
    """Updates only when y·(w·x + b) < 0: a score of exactly 0 slips through."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    w, b, updates = np.zeros(X.shape[1]), 0.0, []
    for _ in range(MAX_EPOCHS):
        clean = True
        for i in range(len(X)):
            if y[i] * (w @ X[i] + b) < 0:
                w, b = w + y[i] * X[i], b + y[i]
                updates.append((i, (w.copy(), b)))
                clean = False
        if clean:
            break
    return w, b, updates


def forgets_bias_reporting(X: Any, y: Any) -> Any:
    """Never updates the bias."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    w, b, updates = np.zeros(X.shape[1]), 0.0, []
    for _ in range(100):
        clean = True
        for i in range(len(X)):
            if y[i] * (w @ X[i] + b) <= 0:
                w = w + y[i] * X[i]
                updates.append((i, (w.copy(), b)))
                clean = False
        if clean:
            break
    return w, b, updates


def zero_one_labels_reporting(X: Any, y: Any) -> Any:
    """Takes labels 0/1, tests mistakes with the ±1 label, but updates with the 0/1 one: class 0 never moves w."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    w, b, updates = np.zeros(X.shape[1]), 0.0, []
    for _ in range(100):
        clean = True
        for i in range(len(X)):
            if (2 * y[i] - 1) * (w @ X[i] + b) <= 0:
                w, b = w + y[i] * X[i], b + y[i]
                updates.append((i, (w.copy(), b)))
                clean = False
        if clean:
            break
    return w, b, updates


def fixed_epochs_reporting(X: Any, y: Any) -> Any:
    """Makes exactly three passes, converged or not."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    w, b, updates = np.zeros(X.shape[1]), 0.0, []
    for _ in range(3):
        for i in range(len(X)):
            if y[i] * (w @ X[i] + b) <= 0:
                w, b = w + y[i] * X[i], b + y[i]
                updates.append((i, (w.copy(), b)))
    return w, b, updates


def skips_first_sample_reporting(X: Any, y: Any) -> Any:
    """A loop from 1, range(1, len(X)) (or a reader that takes the first line for a header): the first
    sample is never presented."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    w, b, updates = np.zeros(X.shape[1]), 0.0, []
    for _ in range(MAX_EPOCHS):
        clean = True
        for i in range(1, len(X)):
            if y[i] * (w @ X[i] + b) <= 0:
                w, b = w + y[i] * X[i], b + y[i]
                updates.append((i, (w.copy(), b)))
                clean = False
        if clean:
            break
    return w, b, updates


def wrong_sign_reporting(X: Any, y: Any) -> Any:
    """Subtracts the step: w -= y·x, b -= y."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    w, b, updates = np.zeros(X.shape[1]), 0.0, []
    for _ in range(100):
        clean = True
        for i in range(len(X)):
            if y[i] * (w @ X[i] + b) <= 0:
                w, b = w - y[i] * X[i], b - y[i]
                updates.append((i, (w.copy(), b)))
                clean = False
        if clean:
            break
    return w, b, updates


def skips_last_sample_reporting(X: Any, y: Any) -> Any:
    """An off-by-one loop, range(len(X) - 1): the last sample is never presented."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    w, b, updates = np.zeros(X.shape[1]), 0.0, []
    for _ in range(MAX_EPOCHS):
        clean = True
        for i in range(len(X) - 1):
            if y[i] * (w @ X[i] + b) <= 0:
                w, b = w + y[i] * X[i], b + y[i]
                updates.append((i, (w.copy(), b)))
                clean = False
        if clean:
            break
    return w, b, updates


def shuffles_reporting(X: Any, y: Any) -> Any:
    """Presents the samples in a fresh (seeded) random order every pass."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    rng = np.random.default_rng(0)
    w, b, updates = np.zeros(X.shape[1]), 0.0, []
    for _ in range(MAX_EPOCHS):
        clean = True
        for i in rng.permutation(len(X)):
            if y[i] * (w @ X[i] + b) <= 0:
                w, b = w + y[i] * X[i], b + y[i]
                updates.append((int(i), (w.copy(), b)))
                clean = False
        if clean:
            break
    return w, b, updates


def best_so_far_reporting(X: Any, y: Any) -> Any:
    """Returns the weights with the best training accuracy seen, predicting +1 when w·x + b >= 0."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    w, b, updates = np.zeros(X.shape[1]), 0.0, []
    best, best_accuracy = (w.copy(), b), -1.0
    for _ in range(MAX_EPOCHS):
        clean = True
        for i in range(len(X)):
            if y[i] * (w @ X[i] + b) <= 0:
                w, b = w + y[i] * X[i], b + y[i]
                updates.append((i, (w.copy(), b)))
                clean = False
                accuracy = np.mean(np.where(X @ w + b >= 0, 1, -1) == y)
                if accuracy > best_accuracy:
                    best, best_accuracy = (w.copy(), b), accuracy
        if clean:
            break
    return best[0], best[1], updates


def bias_wrong_sign_reporting(X: Any, y: Any) -> Any:
    """Moves the bias the wrong way: b -= y."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    w, b, updates = np.zeros(X.shape[1]), 0.0, []
    for _ in range(100):
        clean = True
        for i in range(len(X)):
            if y[i] * (w @ X[i] + b) <= 0:
                w, b = w + y[i] * X[i], b - y[i]
                updates.append((i, (w.copy(), b)))
                clean = False
        if clean:
            break
    return w, b, updates


def rate_on_bias_only_reporting(X: Any, y: Any) -> Any:
    """Applies the learning rate 1/2 to the bias only: w += y·x, b += η·y."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    eta = 0.5
    w, b, updates = np.zeros(X.shape[1]), 0.0, []
    for _ in range(MAX_EPOCHS):
        clean = True
        for i in range(len(X)):
            if y[i] * (w @ X[i] + b) <= 0:
                w, b = w + y[i] * X[i], b + eta * y[i]
                updates.append((i, (w.copy(), b)))
                clean = False
        if clean:
            break
    return w, b, updates


def integer_weights_reporting(X: Any, y: Any) -> Any:
    """Keeps the weights in an integer array, which silently truncates a fractional step."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    w, b, updates = np.zeros(X.shape[1], dtype=np.int64), 0, []
    for _ in range(MAX_EPOCHS):
        clean = True
        for i in range(len(X)):
            if y[i] * (w @ X[i] + b) <= 0:
                w[:] = w + y[i] * X[i]
                b += int(y[i])
                updates.append((i, (w.copy(), b)))
                clean = False
        if clean:
            break
    return w, b, updates


#: Each broken implementation, with the labels it takes and the check its counterexample must fail first.
BROKEN: dict[str, dict[str, str]] = {
    "strict_negative": {"labels": "-1/+1", "wrong": "a score of exactly 0 is not taken for a mistake"},
    "forgets_bias": {"labels": "-1/+1", "wrong": "the bias is never updated"},
    "zero_one_labels": {"labels": "0/1", "wrong": "0/1 labels used directly in the update"},
    "fixed_epochs": {"labels": "-1/+1", "wrong": "stops after three passes, converged or not"},
    "wrong_sign": {"labels": "-1/+1", "wrong": "the update has the wrong sign"},
    "skips_last_sample": {"labels": "-1/+1", "wrong": "the epoch loop skips the last sample"},
    "skips_first_sample": {"labels": "-1/+1", "wrong": "the epoch loop starts at the second sample"},
    "shuffles": {"labels": "-1/+1", "wrong": "the samples are shuffled every pass"},
    "best_so_far": {"labels": "-1/+1", "wrong": "returns the best-so-far weights, not the last ones"},
    "bias_wrong_sign": {"labels": "-1/+1", "wrong": "the bias moves the wrong way"},
    "rate_on_bias_only": {"labels": "-1/+1", "wrong": "the learning rate scales the bias step only"},
    "integer_weights": {"labels": "-1/+1", "wrong": "integer weights truncate a fractional step"},
}

CORRECT = ("perceptron", "half_rate_perceptron", "exact_perceptron", "zero_one_hard_limiter", "detecting_perceptron")

perceptron = _plain(perceptron_reporting, "perceptron")
half_rate_perceptron = _plain(half_rate_perceptron_reporting, "half_rate_perceptron")
exact_perceptron = _plain(exact_perceptron_reporting, "exact_perceptron")
zero_one_hard_limiter = _plain(zero_one_hard_limiter_reporting, "zero_one_hard_limiter")
detecting_perceptron = _plain(detecting_perceptron_reporting, "detecting_perceptron")
strict_negative = _plain(strict_negative_reporting, "strict_negative")
forgets_bias = _plain(forgets_bias_reporting, "forgets_bias")
zero_one_labels = _plain(zero_one_labels_reporting, "zero_one_labels")
fixed_epochs = _plain(fixed_epochs_reporting, "fixed_epochs")
wrong_sign = _plain(wrong_sign_reporting, "wrong_sign")
skips_last_sample = _plain(skips_last_sample_reporting, "skips_last_sample")
skips_first_sample = _plain(skips_first_sample_reporting, "skips_first_sample")
shuffles = _plain(shuffles_reporting, "shuffles")
best_so_far = _plain(best_so_far_reporting, "best_so_far")
bias_wrong_sign = _plain(bias_wrong_sign_reporting, "bias_wrong_sign")
rate_on_bias_only = _plain(rate_on_bias_only_reporting, "rate_on_bias_only")
integer_weights = _plain(integer_weights_reporting, "integer_weights")
