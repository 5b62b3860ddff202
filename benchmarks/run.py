"""Benchmark: the exact engines against floating-point peers, on the same data, in one run.

    python benchmarks/run.py            # every size, 5 repeats each (a few minutes)
    python benchmarks/run.py --quick    # the two small sizes, 3 repeats

For each seeded separable dataset (see `datasets.py`) it times, as medians:

- ``exact+checks``: `verify_run`, the fast exact engine with every invariant
  checked at every update (w* is the final weights, so the run's updates are
  kept and replayed into the checker once it ends);
- ``engine``: the fast exact engine alone;
- ``numpy loop``: a plain NumPy float64 per-sample perceptron, same epochs;
- ``sklearn``: ``Perceptron(shuffle=False, tol=None, eta0=1, alpha=0)`` for
  the same number of epochs, when scikit-learn is installed;
- ``reference``: the pure-`Fraction` reference engine and trace checker, on
  the first rows only where the whole set would take too long.

It confirms that the exact runs agree (fast and reference give the same
trace on the reference's rows; scikit-learn's float weights equal the exact
ones to float precision), and prints ratios against the baselines measured
in the same run. Absolute times on shared machines are noise; ratios less so.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks.datasets import SIZES, separable, write_csv  # noqa: E402
from verify_perceptron.check.traces import check_trace  # noqa: E402
from verify_perceptron.data.dataset import Dataset  # noqa: E402
from verify_perceptron.pipeline import verify_run  # noqa: E402
from verify_perceptron.run import fast  # noqa: E402
from verify_perceptron.run import reference as engine  # noqa: E402


#: The Fraction reference runs on at most this many augmented values (5,000 x 51).
REFERENCE_CELLS = 255_000


def median_time(job: Callable[[], Any], repeat: int, *, at_least: float = 0.05) -> tuple[float, Any]:
    """Median seconds per call over `repeat` samples; a sample repeats a quick job for `at_least` seconds.

    (A millisecond job timed once is mostly timer and scheduler noise.)
    """
    start = time.perf_counter()
    result = job()
    once = time.perf_counter() - start
    number = max(1, int(at_least / max(once, 1e-9)))
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            result = job()
        times.append((time.perf_counter() - start) / number)
    return statistics.median(times), result


def paired_times(ours: Callable[[], Any], theirs: Callable[[], Any], repeat: int,
                 *, at_least: float = 0.05) -> tuple[float, float, float, Any, Any]:
    """Medians of both jobs and of their ratio, sampled in turns (ours, theirs, ours, ...).

    Taking the samples in turns exposes both jobs to the same load on a shared
    machine; the median of the per-turn ratios is the figure compared with a target.
    """
    samples: list[tuple[float, float]] = []
    result_ours = result_theirs = None
    for _ in range(repeat):
        t_ours, result_ours = median_time(ours, 1, at_least=at_least)
        t_theirs, result_theirs = median_time(theirs, 1, at_least=at_least)
        samples.append((t_ours, t_theirs))
    return (statistics.median(a for a, _ in samples), statistics.median(b for _, b in samples),
            statistics.median(a / b for a, b in samples), result_ours, result_theirs)


def numpy_loop(X: np.ndarray, y: np.ndarray, epochs: int) -> np.ndarray:
    """The textbook float perceptron, one sample at a time (classic convention, bias first)."""
    Xa = np.hstack([np.ones((len(X), 1)), X])
    w = np.zeros(Xa.shape[1])
    for _ in range(epochs):
        for x, label in zip(Xa, y):
            if label * (w @ x) <= 0:
                w += label * x
    return w


def sklearn_fit(X: np.ndarray, y: np.ndarray, epochs: int) -> np.ndarray | None:
    try:
        from sklearn.linear_model import Perceptron
    except ImportError:
        return None
    model = Perceptron(shuffle=False, tol=None, eta0=1, alpha=0, max_iter=epochs)
    model.fit(X, y)
    return np.r_[model.intercept_, model.coef_[0]]


def head(data: Dataset, rows: int) -> Dataset:
    return Dataset(numerators=data.numerators[:rows], denominator=data.denominator, y=data.y[:rows],
                   source=data.source + f"[:{rows}]")


def bench_size(n: int, d: int, scale: int, repeat: int, reference_rows: int) -> dict[str, Any]:
    data = separable(n, d, scale)
    X = data.numerators / data.denominator
    y = np.asarray(data.y)
    epochs = fast.run(data, max_epochs=10**6).n_epochs
    t_checks, t_sk, sk_ratio, (trace, result), sk_weights = paired_times(
        lambda: verify_run(data, max_epochs=10**6), lambda: sklearn_fit(X, y, epochs), repeat)
    t_engine, quick = median_time(lambda: fast.run(data, max_epochs=10**6), repeat)
    t_loop, _ = median_time(lambda: numpy_loop(X, y, epochs), max(1, repeat // 2))
    exact = np.array([float(v) for v in trace.final_weights])
    sk_agrees = None if sk_weights is None else bool(np.allclose(sk_weights, exact, rtol=1e-9, atol=1e-9))
    rows = min(n, reference_rows, REFERENCE_CELLS // (d + 1))
    small = head(data, rows)
    start = time.perf_counter()
    ref_trace = engine.train(small, max_epochs=10**6)
    ref_result = check_trace(small, ref_trace)
    t_ref = time.perf_counter() - start
    t_small, (small_trace, _) = median_time(lambda: verify_run(small, max_epochs=10**6), repeat)
    agree = (small_trace.final_weights == ref_trace.final_weights and small_trace.n_updates == ref_trace.n_updates
             and quick.final_weights == trace.final_weights and result.holds and ref_result.holds)
    return {
        "size": f"{n:,} x {d:,} (k/{scale})", "epochs": epochs, "updates": trace.n_updates,
        "checks": t_checks, "engine": t_engine, "loop": t_loop, "sklearn": None if sk_weights is None else t_sk,
        "sklearn_ratio": sk_ratio,
        "reference": t_ref, "reference_rows": rows, "fast_on_reference_rows": t_small,
        "exact_agree": agree, "sklearn_agrees": sk_agrees,
    }


def whole_process(n: int, d: int, scale: int, repeat: int) -> dict[str, float] | None:
    """`verify-perceptron verify data.csv --format json` against NumPy loading + scikit-learn fitting."""
    try:
        import sklearn  # noqa: F401
    except ImportError:
        return None
    data = separable(n, d, scale)
    epochs = fast.run(data, max_epochs=10**6).n_epochs
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "data.csv")
        write_csv(data, path)
        ours = [sys.executable, "-m", "verify_perceptron", "verify", path, "--format", "json"]
        script = (
            "import numpy as np; from sklearn.linear_model import Perceptron; "
            f"a = np.loadtxt({path!r}, delimiter=',', skiprows=1); "
            f"Perceptron(shuffle=False, tol=None, eta0=1, alpha=0, max_iter={epochs}).fit(a[:, :-1], a[:, -1])"
        )
        theirs = [sys.executable, "-c", script]
        env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        t_ours, t_theirs, ratio, _, _ = paired_times(
            lambda: subprocess.run(ours, check=True, capture_output=True, env=env),
            lambda: subprocess.run(theirs, check=True, capture_output=True, env=env), repeat)
    return {"ours": t_ours, "theirs": t_theirs, "ratio": ratio}


def peak_memory(n: int, d: int, scale: int) -> tuple[int, int]:
    data = separable(n, d, scale)
    tracemalloc.start()
    verify_run(data, max_epochs=10**6)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak, data.numerators.nbytes


def ms(seconds: float) -> str:
    """Milliseconds with three significant figures."""
    return f"{seconds * 1000:.3g} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the two small sizes, 3 repeats")
    parser.add_argument("--repeat", type=int, default=None)
    parser.add_argument("--reference-rows", type=int, default=5000, help="rows the Fraction reference runs on")
    args = parser.parse_args()
    sizes = SIZES[:2] if args.quick else SIZES
    repeat = args.repeat or (3 if args.quick else 5)
    print(f"# verify_perceptron benchmark: medians of {repeat} samples (a sample repeats a quick job for "
          f"at least 50 ms; exact+checks and sklearn sampled in turns, their ratio the median of the "
          f"per-turn ratios), {os.cpu_count()} cores\n")
    print("| data | epochs | updates | exact+checks | engine | numpy loop | sklearn | ratio checks/sklearn "
          "| ratio checks/loop | reference (rows) | reference/fast | exact runs agree | sklearn agrees |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for n, d, scale in sizes:
        r = bench_size(n, d, scale, repeat, args.reference_rows)
        sk = "n/a" if r["sklearn"] is None else ms(r["sklearn"])
        ratio_sk = "n/a" if r["sklearn"] is None else f"{r['sklearn_ratio']:.2f}"
        print(f"| {r['size']} | {r['epochs']} | {r['updates']} | {ms(r['checks'])} | {ms(r['engine'])} "
              f"| {ms(r['loop'])} | {sk} | {ratio_sk} | {r['checks'] / r['loop']:.3f} "
              f"| {r['reference']:.2f} s ({r['reference_rows']:,}) | {r['reference'] / r['fast_on_reference_rows']:.0f}x "
              f"| {r['exact_agree']} | {r['sklearn_agrees']} |")
        sys.stdout.flush()
    if not args.quick:
        process = whole_process(100_000, 20, 1000, 3)
        if process is not None:
            print(f"\nwhole process, 100,000 x 20 CSV: `verify --format json` {process['ours']:.2f} s, "
                  f"NumPy loadtxt + scikit-learn fit {process['theirs']:.2f} s, ratio {process['ratio']:.2f}")
        peak, own = peak_memory(100_000, 20, 1000)
        print(f"peak memory of verify_run on 100,000 x 20 (tracemalloc): {peak / 2**20:.1f} MiB, "
              f"{peak / own:.2f} x the dataset's int64 array ({own / 2**20:.1f} MiB)")


if __name__ == "__main__":
    main()
