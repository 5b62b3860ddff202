"""Broken perceptrons that no known cause explains, as people's code gets them wrong: the benchmark of the harness's
whole search (`benchmarks/unexplained.py`) and its tests. Each is the classic float64 loop (a mistake when
t·(x·w + b) <= 0, at most 1000 passes) with one slip of the kind a typo makes."""

from __future__ import annotations

from typing import Any

import numpy as np

#: A `--command` program (run as ``python SCRIPT {train} {out}``): the bias steps by the first feature's step
#: (``b += lr * t * x[0]``, the loop's index left at 0); it reads the CSV the harness writes and prints ``w1 ... wd b``.
BIAS_BY_FIRST_FEATURE = '''\
import sys
rows = [line.strip().split(",") for line in open(sys.argv[1]) if line.strip()]
X = [[float(v) for v in r[:-1]] for r in rows]
y = [float(r[-1]) for r in rows]
d = len(X[0])
w, b = [0.0] * d, 0.0
for _ in range(1000):
    clean = True
    for x, t in zip(X, y):
        if t * (sum(wj * xj for wj, xj in zip(w, x)) + b) <= 0:
            for j in range(d):
                w[j] += 0.1 * t * x[j]
            b += 0.1 * t * x[0]
            clean = False
    if clean:
        break
open(sys.argv[2], "w").write(" ".join(repr(v) for v in w + [b]) + "\\n")
'''


def bias_without_label(X: Any, y: Any) -> tuple[Any, float]:
    """The bias moved by the rate alone (``b += lr``: the label forgotten), the weights by ``lr * t * x``."""
    X = np.asarray(X, dtype=float)
    w, b = np.zeros(X.shape[1]), 0.0
    for _ in range(1000):
        clean = True
        for x, t in zip(X, y):
            if t * (x @ w + b) <= 0:
                w, b, clean = w + 0.1 * t * x, b + 0.1, False
        if clean:
            break
    return w, b


def previous_sample(X: Any, y: Any) -> tuple[Any, float]:
    """The step made with the sample before the mistaken one (``X[i - 1]``: the last one for the first)."""
    X = np.asarray(X, dtype=float)
    w, b = np.zeros(X.shape[1]), 0.0
    for _ in range(1000):
        clean = True
        for i in range(len(X)):
            if y[i] * (X[i] @ w + b) <= 0:
                w, b, clean = w + y[i] * X[i - 1], b + y[i], False
        if clean:
            break
    return w, b
