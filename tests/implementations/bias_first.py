"""A perceptron run as a command, written for this project: note 000's rule in exact arithmetic.

Usage: ``python bias_first.py TRAIN OUT``. It reads the CSV file TRAIN (the
features, then the label -1 or 1, one sample a line) with `fractions.Fraction`,
so each value is the decimal written, exactly; it runs note 000's perceptron
(a mistake when y·(w·x + b) <= 0, then w += y·x, b += y) until a pass without
a mistake (at most 1000 passes) and writes to OUT one value a line, **the bias
first**: b, w1, ..., wd, each as ``p/q``. The harness's default layout is
w1, ..., wd, b; ``--bias first`` declares this one.
"""

from __future__ import annotations

import sys
from fractions import Fraction


def main(train: str, out: str) -> None:
    with open(train, encoding="utf-8") as handle:
        rows = [line.strip().split(",") for line in handle if line.strip()]
    X = [[Fraction(v) for v in row[:-1]] for row in rows]
    y = [int(row[-1]) for row in rows]
    w, b = [Fraction(0)] * len(X[0]), Fraction(0)
    for _ in range(1000):
        clean = True
        for x, label in zip(X, y):
            if label * (sum(wj * xj for wj, xj in zip(w, x)) + b) <= 0:  # mistake: y·(w·x~) <= 0
                w, b, clean = [wj + label * xj for wj, xj in zip(w, x)], b + label, False
        if clean:
            break
    with open(out, "w", encoding="utf-8") as handle:
        handle.write("".join(f"{v}\n" for v in [b, *w]))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
