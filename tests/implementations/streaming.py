"""Learners that stop after a fixed number of passes, written for this project to check ``--max-epochs``.

`one_pass` is a streaming perceptron: it sees each sample once, in order, and
updates on a mistake as note 000 does (y·(w·x + b) <= 0, then w += y·x, b += y).
`one_pass_strict` is the same learner with the tie rule of many tutorials
(< 0), which makes it wrong. `ten_epochs` runs exactly ten passes of note
000's perceptron, stopping earlier only after a pass without a mistake.
All work in float64 with NumPy and take labels -1/+1.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def _passes(X: Any, y: Any, epochs: int, strict: bool = False) -> tuple[Any, float]:
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    w, b = np.zeros(X.shape[1]), 0.0
    for _ in range(epochs):
        clean = True
        for xi, yi in zip(X, y):
            score = yi * (w @ xi + b)
            if score < 0 or (score == 0 and not strict):  # mistake: y·(w·x~) <= 0 (strict: < 0)
                w, b, clean = w + yi * xi, b + yi, False
        if clean:
            break
    return w, b


def one_pass(X: Any, y: Any) -> tuple[Any, float]:
    """One pass over the stream, note 000's rule. Correct under ``--max-epochs 1``."""
    return _passes(X, y, 1)


def one_pass_strict(X: Any, y: Any) -> tuple[Any, float]:
    """One pass, but a score of exactly 0 is not a mistake: wrong under ``--max-epochs 1``."""
    return _passes(X, y, 1, strict=True)


def ten_epochs(X: Any, y: Any) -> tuple[Any, float]:
    """At most ten passes, note 000's rule. Correct under ``--max-epochs 10``."""
    return _passes(X, y, 10)
