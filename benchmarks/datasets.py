"""Seeded separable rational datasets for the benchmark.

Coordinates are k/scale for integers |k| <= scale. A random integer
hyperplane labels them; samples closer to it than `margin` (in units of the
data's scale) are drawn again, so every dataset is separable with a known
minimum margin and the perceptron converges in a modest number of epochs.
"""

from __future__ import annotations

import numpy as np

from verify_perceptron.data.dataset import Dataset

#: (n_samples, n_features, scale): the sizes the benchmark runs.
SIZES = ((1_000, 10, 1000), (10_000, 50, 1000), (100_000, 20, 1000), (3_200, 1_000, 250))


def separable(n_samples: int, n_features: int, scale: int, *, seed: int = 0, margin: float = 0.05) -> Dataset:
    """A dataset of `n_samples` points k/scale in [-1, 1]^n_features, separable with `margin`."""
    rng = np.random.default_rng(seed)
    w = rng.integers(-scale, scale + 1, size=n_features)
    b = int(rng.integers(-scale // 4, scale // 4 + 1)) * scale
    norm = float(np.sqrt((w.astype(float) ** 2).sum()))
    kept: list[np.ndarray] = []
    count = 0
    while count < n_samples:
        X = rng.integers(-scale, scale + 1, size=(2 * n_samples, n_features))
        distance = (X @ w + b) / (norm * scale)
        X = X[np.abs(distance) >= margin]
        kept.append(X)
        count += len(X)
    X = np.vstack(kept)[:n_samples]
    y = np.where(X @ w + b > 0, 1, -1)
    return Dataset(numerators=X.astype(np.int64), denominator=scale, y=tuple(int(v) for v in y),
                   source=f"separable({n_samples}x{n_features}, k/{scale}, seed {seed})")


def write_csv(data: Dataset, path: str) -> None:
    """The dataset as CSV text with exact decimals (k/1000 as 0.123, k/250 as 0.004 multiples)."""
    from decimal import Decimal

    scale = Decimal(data.denominator)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(",".join(data.feature_names) + ",label\n")
        for row, label in zip(data.numerators.tolist(), data.y):
            handle.write(",".join(format(Decimal(v) / scale, "f") for v in row) + f",{label}\n")
