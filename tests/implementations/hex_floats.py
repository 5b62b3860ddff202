"""A float64 perceptron run as a command that prints its weights as hexadecimal floats, written for this project.

Usage: ``python hex_floats.py TRAIN``. It reads the CSV file TRAIN (the features, then the label -1 or 1, one
sample a line) as doubles, runs note 000's perceptron at rate 1/2 (a mistake when y·(w·x + b) <= 0, then
w += y·x/2, b += y/2) until a pass without a mistake (at most 1000 passes) and prints w1, ..., wd, b on one line
with `float.hex` (``0x1.8000000000000p-1``): every double exactly, as C's ``%a`` prints it.
"""

from __future__ import annotations

import sys


def main(train: str) -> None:
    with open(train, encoding="utf-8") as handle:
        rows = [[float(v) for v in line.strip().split(",")] for line in handle if line.strip()]
    w, b = [0.0] * (len(rows[0]) - 1), 0.0
    for _ in range(1000):
        clean = True
        for *x, label in rows:
            if label * (sum(wj * xj for wj, xj in zip(w, x)) + b) <= 0:
                w, b, clean = [wj + 0.5 * label * xj for wj, xj in zip(w, x)], b + 0.5 * label, False
        if clean:
            break
    print(" ".join(float.hex(v) for v in [*w, b]))


if __name__ == "__main__":
    main(sys.argv[1])
