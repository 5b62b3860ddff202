"""Benchmark on real data: data sets that ship with scikit-learn, exact with every check against float peers.

    python benchmarks/real.py             # 5 samples each (several minutes)
    python benchmarks/real.py --quick     # 3 samples each

For each data set (exported to CSV with ``%g``, read back exactly as decimals)
and a budget of 1,000 epochs it prints, as medians:

- ``exact+checks``: `verify_run`, the fast exact engine with every invariant
  checked at every update, beside scikit-learn's ``Perceptron`` for the same
  epochs, sampled in turns (their ratio is the median of the per-turn ratios);
- ``engine``: the fast exact engine alone;
- ``peak memory``: `tracemalloc`'s peak during one `verify_run`, over the
  data's own size as an int64 array;
- ``whole process``: ``verify DATA --format json`` (reading, the run, the
  separability decision, a run against the certified separator when the first
  one stopped at the limit, the report) against a NumPy-load + scikit-learn
  script, in turns.

Absolute times on shared machines are noise; the ratios are the figures.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import tracemalloc
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks.run import median_time, ms, paired_times, sklearn_fit  # noqa: E402
from verify_perceptron.data.readers import load_dataset  # noqa: E402
from verify_perceptron.pipeline import verify_run  # noqa: E402
from verify_perceptron.run import fast  # noqa: E402

EPOCHS = 1000


def real_sets() -> list[tuple[str, np.ndarray, np.ndarray]]:
    """(name, X, y in {-1, +1}) for each two-class problem taken from scikit-learn's bundled data, and one
    CoqPerceptron-style set made here."""
    from sklearn import datasets

    out = []
    X, y = datasets.load_breast_cancer(return_X_y=True)
    out.append(("breast cancer (569 x 30)", X, np.where(y == 1, 1, -1)))
    X, y = datasets.load_wine(return_X_y=True)
    out.append(("wine 0 vs rest (178 x 13)", X, np.where(y == 0, 1, -1)))
    X, y = datasets.load_iris(return_X_y=True)
    for a, b, name in ((0, 1, "setosa/versicolor"), (1, 2, "versicolor/virginica")):
        keep = (y == a) | (y == b)
        out.append((f"iris {name} (100 x 4)", X[keep], np.where(y[keep] == b, 1, -1)))
    X, y = datasets.load_digits(return_X_y=True)
    keep = y < 2
    out.append(("digits 0 vs 1 (360 x 64)", X[keep], np.where(y[keep] == 1, 1, -1)))
    # CoqPerceptron-style (its vecN files): values p/250, random labels; %g writes each one exactly
    rng = np.random.default_rng(5)
    out.append(("CoqPerceptron-style p/250 (200 x 1,000)", rng.integers(-250, 251, size=(200, 1000)) / 250,
                np.where(rng.integers(0, 2, size=200) == 1, 1, -1)))
    return out


def bench(name: str, X: np.ndarray, y: np.ndarray, repeat: int, tmp: str) -> dict[str, Any]:
    path = os.path.join(tmp, "data.csv")
    np.savetxt(path, np.c_[X, y], fmt="%g", delimiter=",")
    data = load_dataset(path)
    Xf, yf = np.asarray(data.numerators / data.denominator, dtype=float), np.asarray(data.y)
    trace = fast.run(data, max_epochs=EPOCHS)
    epochs = trace.n_epochs
    t_checks, t_sk, ratio, (_, result), _ = paired_times(
        lambda: verify_run(data, max_epochs=EPOCHS), lambda: sklearn_fit(Xf, yf, epochs), repeat)
    t_engine, _ = median_time(lambda: fast.run(data, max_epochs=EPOCHS), repeat)
    ours = [sys.executable, "-m", "verify_perceptron", "verify", path, "--format", "json",
            "--max-epochs", str(EPOCHS)]
    script = ("import numpy as np; from sklearn.linear_model import Perceptron; "
              f"a = np.loadtxt({path!r}, delimiter=','); "
              f"Perceptron(shuffle=False, tol=None, eta0=1, alpha=0, max_iter={epochs}).fit(a[:, :-1], a[:, -1])")
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    w_ours, w_theirs, w_ratio, _, _ = paired_times(
        lambda: subprocess.run(ours, capture_output=True, env=env),
        lambda: subprocess.run([sys.executable, "-c", script], check=True, capture_output=True, env=env),
        repeat, at_least=0)
    tracemalloc.start()
    verify_run(data, max_epochs=EPOCHS)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    own = data.n_samples * data.n_features * 8  # the data as an int64 array
    return {"peak": peak / own, "name": name, "epochs": epochs, "updates": trace.n_updates, "stop": trace.stop,
            "holds": result.holds, "checks": t_checks, "engine": t_engine, "sklearn": t_sk, "ratio": ratio,
            "whole": w_ours, "whole_theirs": w_theirs, "whole_ratio": w_ratio}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 samples each instead of 5")
    repeat = 3 if parser.parse_args().quick else 5
    print(f"# real data: medians of {repeat} samples, {EPOCHS} epochs at most, in turns with scikit-learn\n")
    print("| data | epochs | updates | stop | all held | exact+checks | engine | sklearn | checks/sklearn "
          "| verify process | numpy+sklearn process | process ratio | peak memory / int64 data |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, X, y in real_sets():
            r = bench(name, X, y, repeat, tmp)
            rows.append(r)
            print(f"| {r['name']} | {r['epochs']} | {r['updates']:,} | {r['stop']} | {r['holds']} | {ms(r['checks'])} "
                  f"| {ms(r['engine'])} | {ms(r['sklearn'])} | {r['ratio']:.2f} | {ms(r['whole'])} "
                  f"| {ms(r['whole_theirs'])} | {r['whole_ratio']:.2f} | {r['peak']:.2f} |", flush=True)
    print()
    for line in targets(rows):
        print(line)


def targets(rows: list[dict[str, Any]]) -> list[str]:
    """Issue 12's targets on these rows: on how many sets each is met, and the figures that decide it."""
    def met(key: str, limit: float) -> str:
        values = [r[key] for r in rows]
        return f"{sum(v <= limit for v in values)} of {len(values)} sets (from {min(values):.2f} to {max(values):.2f})"

    engine = [r["engine"] / r["sklearn"] for r in rows]
    return [f"- every check on, at most 0.5 of scikit-learn's fit: met on {met('ratio', 0.5)}; the engine alone "
            f"(ratio of medians) {min(engine):.2f} to {max(engine):.2f}",
            f"- the whole verify process, at most 1.0 of NumPy load + scikit-learn: met on {met('whole_ratio', 1.0)}",
            f"- peak memory at most 3 x the data's int64 array: met on {met('peak', 3.0)}"]


if __name__ == "__main__":
    main()
