"""Benchmark: reading rational CSV files, the integer reader against the `Fraction` reader it replaced.

    python benchmarks/reading.py            # 5 samples in turns per file
    python benchmarks/reading.py --quick    # 3 samples, and no 100,000 x 20 file
    python benchmarks/reading.py --against-numpy [--big]   # load_dataset against np.loadtxt and pandas

Files, made in a temporary directory with a fixed seed:

- ``200 x 1,000 p/q``: CoqPerceptron's vec200_1 style, rationals p/q with
  |p| <= 30 and the denominators 1..20 (many distinct ones per row);
- ``100,000 x 20 decimals``: k/1000 written as decimals, the synthetic
  benchmark's kind of file (plain decimals, which the old reader also read
  without `Fraction`, through NumPy's float parser);
- ``300 x 1/p``: 300 distinct primes above 2^14, a common denominator of
  about 4,200 bits, which the reader refuses (default limit 4,096 bits).

"old" is the CSV reader as committed at `OLD_REVISION`, loaded from git
(``git show``) and run against today's `Dataset`; "new" is
`verify_perceptron.data.csv_files.load_csv`. Both must give the same
Dataset. Times are medians of samples taken in turns (old, new, old, ...);
the ratio is the median of the per-turn ratios.

``--against-numpy`` (issue 32) times `load_dataset` in turns against
``np.loadtxt`` and ``pandas.read_csv(...).to_numpy()`` on the scale grid's
files (`benchmarks/scale_data.py`: 10^4 and 10^5 rows x 10, 10^4 x 100;
``--big`` adds 10^5 x 100 and 10^6 x 10) and on the bundled sets written
with ``%g``, at full precision (``repr``) standardized, and standardized by
pandas' ``to_csv`` with its index; "Dataset" is the time `Dataset()` itself
takes on the result as the reader hands it over (int64 numerators, or limbs
past int64: its lowest-terms pass). Peak memory
is a child process's resident peak (``VmHWM``, Linux) rise during the read,
over the int64 array n x (d + 1) x 8 bytes.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from verify_perceptron.data.csv_files import load_csv  # noqa: E402
from verify_perceptron.errors import DataError  # noqa: E402

#: The last commit whose CSV reader built one `Fraction` per cell (issue 12, item 3, starts after it).
OLD_REVISION = "30df0727e2ca46c509f5653afd7b7d4c8d18168b"


def old_reader(revision: str) -> Callable[[str], Any] | None:
    """`load_csv` as committed at `revision`, run inside today's package; None without git."""
    try:
        source = subprocess.run(["git", "-C", ROOT, "show", f"{revision}:verify_perceptron/data/csv_files.py"],
                                capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    spec = importlib.util.spec_from_loader("verify_perceptron.data._csv_files_old", loader=None)
    assert spec is not None
    module: ModuleType = importlib.util.module_from_spec(spec)
    module.__package__ = "verify_perceptron.data"  # its relative imports reach today's modules
    exec(compile(source, f"{revision[:7]}:csv_files.py", "exec"), module.__dict__)
    return module.load_csv  # type: ignore[no-any-return]


def write_ratios(path: str, n: int, d: int, seed: int = 1) -> None:
    """n rows of d rationals p/q (|p| <= 30, 1 <= q <= 20) and a 0/1 label."""
    rng = np.random.default_rng(seed)
    p, q = rng.integers(-30, 31, size=(n, d)), rng.integers(1, 21, size=(n, d))
    with open(path, "w", encoding="utf-8") as handle:
        for i in range(n):
            handle.write(",".join(f"{a}/{b}" for a, b in zip(p[i].tolist(), q[i].tolist())) + f",{i % 2}\n")


def write_decimals(path: str, n: int, d: int, seed: int = 2) -> None:
    """n rows of d decimals k/1000, |k| <= 1000, and a 0/1 label."""
    rng = np.random.default_rng(seed)
    k = rng.integers(-1000, 1001, size=(n, d))
    with open(path, "w", encoding="utf-8") as handle:
        for i in range(n):
            handle.write(",".join(f"{v / 1000:.3f}" for v in k[i].tolist()) + f",{i % 2}\n")


def write_primes(path: str, count: int = 300, above: int = 2**14) -> None:
    """`count` rows 1/p for the primes p after `above`."""
    found: list[int] = []
    n = above
    while len(found) < count:
        n += 1
        if all(n % p for p in range(2, int(n**0.5) + 1)):
            found.append(n)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("".join(f"1/{p},{i % 2}\n" for i, p in enumerate(found)))


def in_turns(old: Callable[[], Any], new: Callable[[], Any], repeat: int) -> tuple[float, float, float]:
    """Medians of old and new, sampled in turns, and the median of the per-turn ratios old/new."""
    olds, news = [], []
    for _ in range(repeat):
        for job, times in ((old, olds), (new, news)):
            start = time.perf_counter()
            job()
            times.append(time.perf_counter() - start)
    ratios = [a / b for a, b in zip(olds, news)]
    return statistics.median(olds), statistics.median(news), statistics.median(ratios)


def refusal_time(path: str) -> tuple[float, str]:
    """Seconds the reader takes to refuse the file, and its message."""
    start = time.perf_counter()
    try:
        load_csv(path)
    except DataError as error:
        return time.perf_counter() - start, str(error)
    raise AssertionError(f"{path} was not refused")


#: The child that measures one reader's peak: ru_maxrss rise over the imports, in bytes, and the result's shape.
_PEAK = """
import sys
import numpy as np
reader, path, skip = sys.argv[1], sys.argv[2], int(sys.argv[3])
if reader == "ours":
    from verify_perceptron.data.readers import load_dataset
elif reader == "pandas":
    import pandas as pd
def resident_peak():  # VmHWM: this process's own (ru_maxrss would count the parent's peak at the fork)
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
base = resident_peak()
if reader == "ours":
    data = load_dataset(path)
    cells = data.n_samples * (data.n_features + 1)
else:  # (a header row is pandas' column names, over its index column)
    a = np.loadtxt(path, delimiter=",", skiprows=skip) if reader == "numpy" else pd.read_csv(
        path, header=0 if skip else None).to_numpy()
    cells = a.shape[0] * (a.shape[1] - skip)
print((resident_peak() - base) * 1024, cells)
"""


def peak_ratio(reader: str, path: str, skip: int) -> float:
    """A child process's resident peak rise while `reader` reads `path`, over the int64 data."""
    out = subprocess.run([sys.executable, "-c", _PEAK, reader, path, str(skip)], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout.split()
    return int(out[0]) / (8 * int(out[1]))


def numpy_files(tmp: str, big: bool) -> list[tuple[str, str, int]]:
    """(label, path, header rows) of the files `--against-numpy` reads, written into `tmp`."""
    import pandas as pd

    from benchmarks.scale_data import bundled, standardized, write_floats, write_grid

    files = []
    grid = [(10_000, 10), (100_000, 10), (10_000, 100)] + ([(100_000, 100), (1_000_000, 10)] if big else [])
    for n, d in grid:
        path = os.path.join(tmp, f"grid_{n}_{d}.csv")
        write_grid(path, n, d, separable=True)
        files.append((f"grid {n:,} x {d}", path, 0))
    for name in ("breast cancer", "wine 0 vs rest", "digits 0 vs 1"):
        X, y = bundled(name)
        tag = name.split()[0]
        path = os.path.join(tmp, f"{tag}_g.csv")
        np.savetxt(path, np.c_[X, y], fmt="%g", delimiter=",")
        files.append((f"{name} %g", path, 0))
        path = os.path.join(tmp, f"{tag}_repr.csv")
        write_floats(path, standardized(X), y)
        files.append((f"{name} standardized, repr", path, 0))
        path = os.path.join(tmp, f"{tag}_pandas.csv")
        frame = pd.DataFrame(standardized(X))
        frame["label"] = y
        frame.to_csv(path)
        files.append((f"{name} standardized, pandas to_csv", path, 1))
    return files


def against_numpy(repeat: int, big: bool) -> None:
    """The table of `load_dataset` against np.loadtxt and pandas.read_csv, times and peak memory."""
    import pandas as pd

    from verify_perceptron.data.dataset import Dataset
    from verify_perceptron.data.readers import load_dataset

    print("| file | load_dataset | of which Dataset() | np.loadtxt | pandas.read_csv | ours / loadtxt | "
          "ours / pandas | peak ours / int64 | peak loadtxt / int64 | peak pandas / int64 |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for label, path, skip in numpy_files(tmp, big):
            data = load_dataset(path)
            jobs = {"ours": lambda: load_dataset(path),
                    "numpy": lambda: np.loadtxt(path, delimiter=",", skiprows=skip),
                    "pandas": lambda: pd.read_csv(path, header=0 if skip else None).to_numpy(),
                    "dataset": lambda: Dataset(y=data.y_array, limbs=data.limbs, denominator=data.denominator,
                                               numerators=None if data.limbs is not None else data.numerators)}
            times: dict[str, list[float]] = {k: [] for k in jobs}
            for _ in range(repeat):
                for key, job in jobs.items():
                    start = time.perf_counter()
                    job()
                    times[key].append(time.perf_counter() - start)
            med = {k: statistics.median(v) for k, v in times.items()}
            ratio = {k: statistics.median(a / b for a, b in zip(times["ours"], times[k])) for k in ("numpy", "pandas")}
            peaks = {k: peak_ratio(k, path, skip) for k in ("ours", "numpy", "pandas")}
            print(f"| {label} | {med['ours'] * 1000:.1f} ms | {med['dataset'] * 1000:.1f} ms | "
                  f"{med['numpy'] * 1000:.1f} ms | {med['pandas'] * 1000:.1f} ms | {ratio['numpy']:.2f} | "
                  f"{ratio['pandas']:.2f} | {peaks['ours']:.2f} | {peaks['numpy']:.2f} | {peaks['pandas']:.2f} |",
                  flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 samples, and no 100,000 x 20 file")
    parser.add_argument("--old-revision", default=OLD_REVISION, help="the commit whose reader is 'old'")
    parser.add_argument("--against-numpy", action="store_true",
                        help="load_dataset against np.loadtxt and pandas.read_csv (issue 32), times and peak memory")
    parser.add_argument("--big", action="store_true", help="with --against-numpy: also 10^5 x 100 and 10^6 x 10")
    args = parser.parse_args()
    repeat = 3 if args.quick else 5
    if args.against_numpy:
        against_numpy(repeat if args.quick else 7, args.big)
        return
    old = old_reader(args.old_revision)
    if old is None:
        sys.exit(f"cannot read the old reader from git at {args.old_revision}")
    files = [("200 x 1,000 p/q", "ratios.csv", lambda p: write_ratios(p, 200, 1000))]
    if not args.quick:
        files.append(("100,000 x 20 decimals", "decimals.csv", lambda p: write_decimals(p, 100_000, 20)))
    print("| file | old (Fraction per cell) | new (integers) | ratio old/new | same Dataset |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for label, name, write in files:
            path = os.path.join(tmp, name)
            write(path)
            same = old(path) == load_csv(path)
            t_old, t_new, ratio = in_turns(lambda: old(path), lambda: load_csv(path), repeat)
            print(f"| {label} | {t_old * 1000:.0f} ms | {t_new * 1000:.1f} ms | {ratio:.1f} | {same} |")
        path = os.path.join(tmp, "primes.csv")
        write_primes(path)
        seconds, message = refusal_time(path)
        print(f"\n300 x 1/p ({os.path.getsize(path):,} bytes): refused in {seconds * 1000:.1f} ms:")
        print("  " + message.replace(tmp + os.sep, ""))


if __name__ == "__main__":
    main()
