"""The data of `benchmarks/scale.py`: the bundled sets as float64, `randn` sets, and the seeded scale grid.

The grid's values have 4 significant digits and magnitudes from 10^-3 to
10^3: each is ±m/10^k with m in 1000..9999 and k in 1..6, so every one is
exact over the common denominator 10^6 and its numerator fits 30 bits. A
random integer hyperplane through the origin labels the rows, exactly (the
scores are int64 sums of integers far below 2^63); rows nearer to it than
`MARGIN` of the typical score are drawn again, so "separable" cells separate
with a margin. "Not separable" cells take the same rows and flip the labels
of `FLIPPED` of them at random. The CSV is written in chunks of rows, each
chunk from its own seeded generator, so a 10^6 x 100 file (about 800 MB)
never sits in memory whole.

The benchmark's parent process imports this module without NumPy and writes
its files through a child (``python benchmarks/scale_data.py grid PATH N D
separable``): a child's ``ru_maxrss`` counts its parent's resident peak at
the fork, so the parent must stay small for the children's peaks to mean
anything.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

#: A "separable" row's |score| is at least this fraction of the hyperplane's typical |score|.
MARGIN = 0.05
#: The fraction of labels flipped in a "not separable" cell.
FLIPPED = 0.05
#: Rows generated (then filtered) per chunk of the CSV.
CHUNK = 20_000
#: The bundled two-class problems: (name, loader, positive class, negative class or None for the rest).
BUNDLED = (("breast cancer", "load_breast_cancer", 1, None), ("wine 0 vs rest", "load_wine", 0, None),
           ("iris setosa/versicolor", "load_iris", 1, 0), ("iris versicolor/virginica", "load_iris", 2, 1),
           ("digits 0 vs 1", "load_digits", 1, 0))


def bundled(name: str) -> tuple[np.ndarray, np.ndarray]:
    """(X as float64, y in {-1, +1}) of the bundled set `name` (a name of `BUNDLED`)."""
    import numpy as np

    from sklearn import datasets

    for known, loader, positive, negative in BUNDLED:
        if known == name:
            X, y = getattr(datasets, loader)(return_X_y=True)
            keep = np.ones(len(y), dtype=bool) if negative is None else (y == positive) | (y == negative)
            return np.asarray(X[keep], dtype=np.float64), np.where(y[keep] == positive, 1, -1)
    raise ValueError(f"name={name!r} is not a bundled set: {[b[0] for b in BUNDLED]}")


def standardized(X: np.ndarray) -> np.ndarray:
    """X through scikit-learn's StandardScaler: float64 at full binary precision."""
    import numpy as np
    from sklearn.preprocessing import StandardScaler

    return np.asarray(StandardScaler().fit_transform(X), dtype=np.float64)


def randn(n_samples: int, n_features: int, *, seed: int = 32) -> tuple[np.ndarray, np.ndarray]:
    """Standard normal X and random labels: not separable once n_samples is well above n_features."""
    import numpy as np

    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n_samples, n_features))
    return X, np.where(rng.random(n_samples) < 0.5, 1, -1)


def _strings() -> np.ndarray:
    """Every grid value's decimal text, indexed by (sign, k - 1, m - 1000): 2 x 6 x 9000 strings."""
    import numpy as np

    table = np.empty((2, 6, 9000), dtype=object)
    for k in range(1, 7):
        for m in range(1000, 10000):
            digits = str(m)
            text = digits[:4 - k] + "." + digits[4 - k:] if k <= 3 else "0." + "0" * (k - 4) + digits
            table[0, k - 1, m - 1000] = text
            table[1, k - 1, m - 1000] = "-" + text
    return table


def _hyperplane(n_features: int, seed: int) -> np.ndarray:
    """The labelling hyperplane's integer normal (entries in -9..9, none 0)."""
    import numpy as np

    rng = np.random.default_rng([seed, 0])
    return rng.integers(1, 10, size=n_features) * rng.choice([-1, 1], size=n_features)


def grid_chunks(n_samples: int, n_features: int, *, separable: bool,
                seed: int = 32) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The grid cell's rows in chunks: (index into `_strings`' flattened table, labels in {-1, +1}).

    A value's numerator over 10^6 is ±m·10^(6-k); the score against the
    hyperplane is an exact int64 sum (|score| < 10^10·n_features·9)."""
    import numpy as np

    w = _hyperplane(n_features, seed)
    # the typical |score|: each term's magnitude is about 9·5·10^(6-k)·m, dominated by k = 1
    typical = float(np.sqrt(n_features)) * 5 * 5500 * 10**5
    left, chunk = n_samples, 0
    while left > 0:
        chunk += 1
        rng = np.random.default_rng([seed, chunk])
        rows = min(CHUNK, left)
        m = rng.integers(1000, 10000, size=(2 * rows, n_features))
        k = rng.integers(1, 7, size=(2 * rows, n_features))
        negative = rng.integers(0, 2, size=(2 * rows, n_features))
        numerators = np.where(negative == 1, -1, 1) * m * 10 ** (6 - k)
        scores = numerators @ w
        keep = np.flatnonzero(np.abs(scores) >= MARGIN * typical)[:rows]
        if len(keep) < rows:
            raise RuntimeError(f"the margin {MARGIN} keeps too few rows ({len(keep)} of {rows})")
        y = np.where(scores[keep] > 0, 1, -1)
        if not separable:
            y = np.where(rng.random(rows) < FLIPPED, -y, y)
        index = (negative[keep] * 6 + (k[keep] - 1)) * 9000 + (m[keep] - 1000)
        yield index, y
        left -= rows


def write_grid(path: str, n_samples: int, n_features: int, *, separable: bool, seed: int = 32) -> None:
    """The grid cell as a CSV file: `n_features` decimal columns and a label column (-1 or 1), no header."""
    table = _strings().ravel()
    with open(path, "w", encoding="utf-8") as handle:
        for index, y in grid_chunks(n_samples, n_features, separable=separable, seed=seed):
            texts = table[index]
            handle.write("".join(",".join(row) + ("," + str(label) + "\n")
                                 for row, label in zip(texts.tolist(), y.tolist())))


def write_floats(path: str, X: np.ndarray, y: np.ndarray) -> None:
    """X at full precision (repr, the shortest text that reads back as the same float64) and y, as CSV."""
    with open(path, "w", encoding="utf-8") as handle:
        for row, label in zip(X.tolist(), y.tolist()):
            handle.write(",".join(repr(v) for v in row) + f",{label}\n")


def main() -> None:
    """Write a cell's CSV in this (child) process and print its rows and features."""
    parser = argparse.ArgumentParser(description="write a data file of benchmarks/scale.py")
    parser.add_argument("kind", choices=("grid", "bundled"))
    parser.add_argument("path")
    parser.add_argument("what", nargs="+", help="grid: N D separable|not; bundled: the set's name")
    args = parser.parse_args()
    if args.kind == "grid":
        n, d, separable = int(args.what[0]), int(args.what[1]), args.what[2] == "separable"
        write_grid(args.path, n, d, separable=separable)
    else:
        X, y = bundled(" ".join(args.what))
        n, d = X.shape
        write_floats(args.path, standardized(X), y)
    print(n, d)


if __name__ == "__main__":
    main()
