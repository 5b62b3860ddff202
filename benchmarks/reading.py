"""Benchmark: reading rational CSV files, the integer reader against the `Fraction` reader it replaced.

    python benchmarks/reading.py            # 5 samples in turns per file
    python benchmarks/reading.py --quick    # 3 samples, and no 100,000 x 20 file

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 samples, and no 100,000 x 20 file")
    parser.add_argument("--old-revision", default=OLD_REVISION, help="the commit whose reader is 'old'")
    args = parser.parse_args()
    repeat = 3 if args.quick else 5
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
