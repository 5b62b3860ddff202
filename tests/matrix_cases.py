"""The end-to-end matrix's cases: data sets as people export them, and the facts the expected answers come from.

The data are scikit-learn's bundled sets (breast cancer, wine class 0 against
the rest, the three iris pairs, digits 0 against 1) and three at the ends of
float64's range (iris pairs times 1e-300, times 1e300, and with each feature
at its own magnitude from 1e-300 to 1e300). Each is written the ways people
write such files (`export`): ``np.savetxt`` with ``%g`` (the README's
walk-through), full ``repr`` precision, pandas ``to_csv`` with its index and
without, ``dump_svmlight_file``, ``.npy``, and standardized with
``StandardScaler`` then saved with ``np.savetxt``'s defaults.

The facts about each file (`facts`) are found without the package under
test: the file is read here by plain Python (every number as the exact
rational it spells, or a ``.npy`` float as the binary fraction it is), and
separability is settled by a certificate checked exactly in `Fraction`s, a
separator (a linear program's solution in floats, kept only if it separates
exactly) or Gordan's λ (the support of an LP's vertex, solved again exactly).
`mistakes_left` re-reads a run's final weights in each convention's own
coordinates, from the README's table of conventions.

Also here: `hard_limiter_plus`, a correct perceptron for the one convention
the gallery of `tests.implementations` has none for.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

#: scikit-learn's data sets in the matrix, smallest first.
SETS = ("iris01", "iris02", "iris12", "digits01", "wine0", "cancer")
#: Data at the ends of float64's range.
EXTREMES = ("tiny", "huge", "mixed")
#: How a data set is written to a file.
EXPORTS = ("g", "repr", "pandas-index", "pandas", "svmlight", "npy", "standardized", "frame-index", "frame", "numpy-r")


def exports_of(name: str) -> tuple[str, ...]:
    """The exports of data set `name`: all, but standardizing data at float64's ends (it overflows to NaN)."""
    return EXPORTS if name in SETS else tuple(kind for kind in EXPORTS if kind != "standardized")


#: The conventions `verify-perceptron verify --help` names.
CONVENTIONS = ("classic", "hard-limiter", "hard-limiter-plus", "unit-ball", "sum-norm", "split-bias")

#: The powers of ten of the extreme sets: one for every feature, or one per feature (iris has four).
_POWERS = {"tiny": ("iris01", (-300,) * 4), "huge": ("iris02", (300,) * 4), "mixed": ("iris12", (-300, -150, 150, 300))}


@functools.cache
def arrays(name: str) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """``(X, y, feature_names)`` of data set `name`: floats, labels 0/1, names as scikit-learn gives them."""
    from sklearn import datasets

    if name in _POWERS:
        base, powers = _POWERS[name]
        X, y, names = arrays(base)
        # each value's shortest decimal times its power of ten, rounded once to the nearest double
        scaled = np.array([[float(f"{v!r}e{p}") for v, p in zip(row.tolist(), powers)] for row in X])
        return scaled, y, names
    if name == "cancer":
        bunch = datasets.load_breast_cancer()
        X, y = bunch.data, bunch.target
    elif name == "wine0":
        bunch = datasets.load_wine()
        X, y = bunch.data, (bunch.target == 0).astype(int)
    elif name == "digits01":
        bunch = datasets.load_digits(n_class=2)
        X, y = bunch.data, bunch.target
    elif name.startswith("iris"):
        bunch = datasets.load_iris()
        a, b = int(name[4]), int(name[5])
        keep = (bunch.target == a) | (bunch.target == b)
        X, y = bunch.data[keep], (bunch.target[keep] == b).astype(int)
    else:
        raise ValueError(f"no data set named {name!r}")
    return X, y, tuple(str(n) for n in bunch.feature_names)


def export(name: str, kind: str, folder: Path) -> Path:
    """Data set `name` written to `folder` as `kind` (one of `EXPORTS`); the file's path."""
    X, y, names = arrays(name)
    stem = folder / f"{name}-{kind}"
    if kind == "g":
        path = stem.with_suffix(".csv")
        np.savetxt(path, np.c_[X, y], fmt="%g", delimiter=",")
    elif kind == "repr":
        path = stem.with_suffix(".csv")
        path.write_text("".join(",".join([*(repr(float(v)) for v in row), str(int(t))]) + "\n" for row, t in zip(X, y)))
    elif kind in ("pandas", "pandas-index"):
        import pandas as pd

        path = stem.with_suffix(".csv")
        frame = pd.DataFrame(X, columns=list(names))
        frame["target"] = y
        frame.to_csv(path, index=kind == "pandas-index")
    elif kind in ("frame", "frame-index"):  # pd.DataFrame(array): pandas' default column names 0, 1, ..., m-1
        import pandas as pd

        path = stem.with_suffix(".csv")
        pd.DataFrame(np.c_[X, y]).to_csv(path, index=kind == "frame-index")
    elif kind == "numpy-r":  # np.savetxt's %r: NumPy 2 writes np.float64(17.99)
        path = stem.with_suffix(".csv")
        np.savetxt(path, np.c_[X, y], fmt="%r", delimiter=",")
    elif kind == "svmlight":
        from sklearn.datasets import dump_svmlight_file

        path = stem.with_suffix(".svmlight")
        dump_svmlight_file(X, y, str(path))
    elif kind == "npy":
        path = stem.with_suffix(".npy")
        np.save(path, np.c_[X, y])
    elif kind == "standardized":
        from sklearn.preprocessing import StandardScaler

        path = stem.with_suffix(".csv")
        np.savetxt(path, np.c_[StandardScaler().fit_transform(X), y], delimiter=",")
    else:
        raise ValueError(f"no export named {kind!r}")
    return path


# --- the data as the file holds them, read here by plain Python ------------------------------------------------


def _number(text: str) -> bool:
    try:
        Fraction(text)
    except ValueError:
        return False
    return True


def read_exactly(path: Path, kind: str) -> tuple[list[list[Fraction]], list[int]]:
    """The samples and ±1 labels the file holds, exactly; pandas' index (the unnamed first column) is no feature."""
    if kind == "npy":
        table = np.load(path)
        X = [[Fraction(float(v)) for v in row[:-1]] for row in table]
        labels = [Fraction(float(v)) for v in table[:, -1]]
    elif kind == "svmlight":
        X, labels = [], []
        rows = [line.split() for line in path.read_text().splitlines() if line.strip()]
        indices = {int(token.split(":")[0]) for tokens in rows for token in tokens[1:]}
        # The format stores no width; as the README says, indices are 0-based when index 0 occurs, else 1-based
        # (a feature that is 0 everywhere at either end is then not there: it changes no score)
        first = 0 if 0 in indices else 1
        width = max(indices) + 1 - first
        for tokens in rows:
            row = [Fraction(0)] * width
            for token in tokens[1:]:
                index, value = token.split(":")
                row[int(index) - first] = Fraction(value)
            X.append(row)
            labels.append(Fraction(tokens[0]))
    else:
        text = re.sub(r"np\.float64\(([^)]*)\)", r"\1", path.read_text())  # numpy-r: the literal inside
        lines = [line.split(",") for line in text.splitlines() if line.strip()]
        if kind.startswith("frame") or not all(_number(cell) for cell in lines[0]):
            lines = lines[1:]  # a header (a DataFrame's is its column numbers)
        first = 1 if kind in ("pandas-index", "frame-index") else 0
        X = [[Fraction(cell) for cell in cells[first:-1]] for cells in lines]
        labels = [Fraction(cells[-1]) for cells in lines]
    assert set(labels) == {0, 1}, f"{path}: labels {sorted(set(labels))}"
    return X, [1 if t == 1 else -1 for t in labels]


# --- separability, settled by a certificate checked exactly -----------------------------------------------------


def _scales(X: list[list[Fraction]]) -> list[Fraction]:
    """A power of two per feature near its largest |value| (1 for a zero feature): the LP's columns of about 1."""
    scales = []
    for column in zip(*X):
        top = max(abs(v) for v in column)
        scales.append(Fraction(2) ** (top.numerator.bit_length() - top.denominator.bit_length()) if top else Fraction(1))
    return scales


def separator(X: list[list[Fraction]], y: list[int]) -> tuple[Fraction, list[Fraction]] | None:
    """(b, v) with y_i·(v·x_i + b) > 0 for every i, exactly, or None when the LP's point does not separate."""
    from scipy.optimize import linprog

    scales = _scales(X)
    A = np.array([[float(v / s) for v, s in zip(row, scales)] for row in X])
    d = A.shape[1]
    Y = np.asarray(y, dtype=float)[:, None]
    # maximise t subject to y_i·(v·a_i + b) >= t, with v and b in [-1, 1]
    A_ub = np.hstack([-Y * A, -Y, np.ones((len(y), 1))])
    result = linprog(np.r_[np.zeros(d + 1), -1.0], A_ub=A_ub, b_ub=np.zeros(len(y)),
                     bounds=[(-1, 1)] * (d + 1) + [(None, 1)], method="highs")
    if result.status != 0 or result.x[-1] <= 0:
        return None
    v = [Fraction(float(c)) / s for c, s in zip(result.x[:d], scales)]
    b = Fraction(float(result.x[d]))
    if all(t * (sum(map(lambda a, w: a * w, row, v)) + b) > 0 for row, t in zip(X, y)):
        return b, v
    return None


def gordan(X: list[list[Fraction]], y: list[int]) -> list[Fraction] | None:
    """λ >= 0 with Σλ = 1 and Σ λ_i·y_i·(1, x_i) = 0, exactly (no separator exists), or None when none was found."""
    from scipy.optimize import linprog

    scales = _scales(X)
    n, d = len(X), len(X[0])
    columns = [[t * float(v / s) for v, s in zip(row, scales)] + [float(t), 1.0] for row, t in zip(X, y)]
    A_eq = np.array(columns).T
    result = linprog(np.zeros(n), A_eq=A_eq, b_eq=np.r_[np.zeros(d + 1), 1.0], bounds=[(0, None)] * n,
                     method="highs-ds")
    if result.status != 0:
        return None
    support = [i for i in range(n) if result.x[i] > 1e-12]
    # the same equations on the support, exactly
    rows = [[t * v for v in X[i]] + [Fraction(t), Fraction(1)] for i, t in ((i, y[i]) for i in support)]
    system = [[rows[k][j] for k in range(len(support))] + [Fraction(1 if j == d + 1 else 0)] for j in range(d + 2)]
    values = _solve(system, len(support))
    if values is None or any(v < 0 for v in values):
        return None
    lam = [Fraction(0)] * n
    for i, v in zip(support, values):
        lam[i] = v
    ok = sum(lam) == 1 and all(sum(lam[i] * y[i] * X[i][j] for i in support) == 0 for j in range(d)) \
        and sum(lam[i] * y[i] for i in support) == 0
    return lam if ok else None


def _solve(system: list[list[Fraction]], unknowns: int) -> list[Fraction] | None:
    """A solution of the augmented system by Gauss-Jordan elimination in Fractions (free unknowns 0), or None."""
    rows = [list(r) for r in system]
    pivots: list[int] = []
    r = 0
    for c in range(unknowns):
        p = next((i for i in range(r, len(rows)) if rows[i][c] != 0), None)
        if p is None:
            continue
        rows[r], rows[p] = rows[p], rows[r]
        rows[r] = [v / rows[r][c] for v in rows[r]]
        for i in range(len(rows)):
            if i != r and rows[i][c] != 0:
                factor = rows[i][c]
                rows[i] = [a - factor * b for a, b in zip(rows[i], rows[r])]
        pivots.append(c)
        r += 1
    if any(all(v == 0 for v in row[:-1]) and row[-1] != 0 for row in rows):
        return None  # inconsistent
    solution = [Fraction(0)] * unknowns
    for i, c in enumerate(pivots):
        solution[c] = rows[i][-1]
    return solution


@dataclass(frozen=True)
class Facts:
    """What the mathematics says about one file's data, found without the package under test."""

    X: list[list[Fraction]] = field(repr=False)
    y: list[int] = field(repr=False)
    separable: bool

    @property
    def n_features(self) -> int:
        return len(self.X[0])


@functools.cache
def facts(path: Path, kind: str) -> Facts:
    """The file's exact data and their separability, settled by an exactly checked certificate."""
    X, y = read_exactly(path, kind)
    if separator(X, y) is not None:
        return Facts(X, y, True)
    if gordan(X, y) is not None:
        return Facts(X, y, False)
    raise AssertionError(f"{path}: neither a separator nor Gordan's λ was found: the matrix cannot judge these data")


# --- a run's end, read again in each convention's own coordinates (the README's table) ------------------------


def _scores(convention: str, weights: Sequence[Fraction], X: list[list[Fraction]]) -> list[Fraction]:
    """w·x~ for each sample, x~ as the convention augments it."""
    if convention in ("classic", "hard-limiter", "hard-limiter-plus", "split-bias"):
        bias, v = weights[0], weights[1:]  # [w0 | b | α0, w1..wm]: x~ = (1, x)
    elif convention == "unit-ball":
        bias, v = weights[-1], weights[:-1]  # [w1..wm, b]: x~ = (x, 1)
    elif convention == "sum-norm":
        bias, v = -weights[-1], weights[:-1]  # [w1..wm, w0]: x~ = (x, -1)
    else:
        raise ValueError(convention)
    return [sum(map(lambda a, w: a * w, row, v)) + bias for row in X]


def mistakes_left(convention: str, weights: Sequence[str], facts: Facts) -> list[int]:
    """The samples the weights still get wrong under the convention's rule (ties as the README says)."""
    w = [Fraction(v) for v in weights]
    wrong = []
    for i, (s, t) in enumerate(zip(_scores(convention, w, facts.X), facts.y)):
        if convention == "hard-limiter":
            right = (1 if s > 0 else -1) == t  # sgn(0) = -1
        elif convention == "hard-limiter-plus":
            right = (1 if s >= 0 else -1) == t  # sgn(0) = +1
        else:
            right = t * s > 0  # a mistake when y·(w·x~) <= 0
        if not right:
            wrong.append(i)
    return wrong


# --- the one correct perceptron tests.implementations lacks -------------------------------------------------------


def hard_limiter_plus(X: npt.ArrayLike, y: npt.ArrayLike) -> tuple[np.ndarray, float]:
    """Note 001's hard limiter with sgn(0) = +1 (predict +1 when w·x + b >= 0), labels ±1, rate 1/2, in float64."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    w, b = np.zeros(X.shape[1]), 0.0
    for _ in range(1000):
        clean = True
        for i in range(len(X)):
            out = 1 if w @ X[i] + b >= 0 else -1
            if out != y[i]:  # η·(d - out) = y_i with η = 1/2
                w, b, clean = w + y[i] * X[i], b + y[i], False
        if clean:
            break
    return w, b


class StoppedReference:
    """An estimator that stops after exactly `max_iter` epochs, converged or not (the matrix's ``--max-epochs``
    cells): the exact reference run of `convention` capped there, its weights as ``coef_`` and ``intercept_``.
    Labels 0/1 are read as -1/+1."""

    def __init__(self, *, convention: str = "classic", max_iter: int = 1) -> None:
        self.convention, self.max_iter = convention, max_iter

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        return {"convention": self.convention, "max_iter": self.max_iter}

    def fit(self, X: npt.ArrayLike, y: npt.ArrayLike) -> StoppedReference:
        from verify_perceptron.data.dataset import from_arrays
        from verify_perceptron.notes.conventions import get_convention
        from verify_perceptron.run.reference import train

        conv = get_convention(self.convention)
        labels = [1 if v > 0 else -1 for v in np.asarray(y).tolist()]
        run = train(from_arrays(np.asarray(X, dtype=object).tolist(), labels), conv, max_epochs=self.max_iter)
        b, v = conv.to_canonical(run.final_weights)
        self.coef_, self.intercept_ = np.array([float(x) for x in v]), float(b)
        return self
