"""One cell of `benchmarks/scale.py`, measured in turns and cut off at a time limit; peak memory from the OS.

The parent imports neither NumPy nor the package: a child's ``ru_maxrss``
counts its parent's resident peak at the fork, so the parent stays small.

A cell is either a fit (`ExactPerceptron().fit` against scikit-learn's
`Perceptron.fit`, both in one child process, so that a fit too slow for the
limit is killed with its child and the cell reads "> limit") or a pair of
whole processes (``verify FILE`` against a NumPy-load + scikit-learn script),
each a child whose own peak resident memory comes from ``os.wait4``.

Run as a script, this module is that fit cell's child: it prints one JSON
line per sample, so that the samples taken before a kill are kept.

    python benchmarks/scale_cells.py "fit iris setosa/versicolor raw" --samples 3 --limit 120
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from benchmarks import scale_data  # noqa: E402

#: A sample repeats a job quicker than this many seconds and reports the mean (a millisecond once is noise).
AT_LEAST = 0.05
#: Seconds a fit cell's child may take to import and make its data, before its limit starts.
SET_UP = 300.0
#: The cell limit given to the randn fits and to verify on a cell of more than `DEFAULT_CELLS` values.
MAX_CELLS = 1_000_000_000
#: The data layer's default limit of values (verify_perceptron.data.files.MAX_CELLS when this was written).
DEFAULT_CELLS = 5_000_000
#: Epochs of the fit cells: scikit-learn's and ExactPerceptron's default budget on the bundled sets.
BUNDLED_EPOCHS = 1000
#: Epochs of the randn fit cells (the issue's figure).
RANDN_EPOCHS = 100


def _status_kib(field: str) -> int | None:
    """A field of /proc/self/status in KiB (VmRSS, VmHWM), None where there is no /proc."""
    try:
        with open("/proc/self/status", encoding="ascii") as handle:
            found = re.search(field + r":\s+(\d+)", handle.read())
    except OSError:
        return None
    return int(found.group(1)) if found else None


def _reset_peak() -> bool:
    """Reset this process's peak resident memory (Linux >= 4.0: writing 5 to clear_refs); False if it cannot."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as handle:
            handle.write("5")
    except OSError:
        return False
    return True


def sample(job: Callable[[], Any], *, memory: bool = False) -> tuple[float, float, int | None, Any]:
    """(wall seconds per call, CPU seconds per call, bytes the first call added to the resident peak or None,
    the job's result).

    A job quicker than `AT_LEAST` is repeated and its mean taken (the first call then counts as a warm-up)."""
    peak = None
    gc.collect()
    reset = memory and _reset_peak()
    before = _status_kib("VmRSS") if reset else None
    start, cpu = time.perf_counter(), time.process_time()
    result = job()
    once, once_cpu = time.perf_counter() - start, time.process_time() - cpu
    if before is not None:
        after = _status_kib("VmHWM")
        peak = None if after is None else (after - before) * 1024
    if once >= AT_LEAST:
        return once, once_cpu, peak, result
    number = max(1, int(AT_LEAST / max(once, 1e-9)))
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(number):
        result = job()
    return (time.perf_counter() - start) / number, (time.process_time() - cpu) / number, peak, result


def fit_data(name: str) -> tuple[np.ndarray, np.ndarray, int]:
    """(X, y, max_epochs) of a fit cell: ``fit SET raw``, ``fit SET standardized`` or ``fit randn N x D``."""
    found = re.fullmatch(r"fit randn (\d+) x (\d+)", name)
    if found:
        X, y = scale_data.randn(int(found.group(1)), int(found.group(2)))
        return X, y, RANDN_EPOCHS
    found = re.fullmatch(r"fit (.+) (raw|standardized)", name)
    if not found:
        raise ValueError(f"name={name!r} is not a fit cell")
    X, y = scale_data.bundled(found.group(1))
    return (X if found.group(2) == "raw" else scale_data.standardized(X)), y, BUNDLED_EPOCHS


def fit_settings(name: str, max_cells: int) -> dict[str, Any]:
    """ExactPerceptron's keyword arguments beyond max_epochs: on a randn cell, the cell limit raised to `max_cells`.

    ``ExactPerceptron`` has no ``max_cells`` parameter today (the estimator reads X with the data layer's
    default, 5,000,000 int64 values, which 10^5 x 10 float64 values of 94 bits pass): until it has, the
    estimator's module-level `exact_table` is wrapped here with the raised limit. A benchmark-only measure."""
    if "randn" not in name:
        return {}
    import functools
    import inspect

    from verify_perceptron.api import estimator

    if "max_cells" in inspect.signature(estimator.ExactPerceptron).parameters:
        return {"max_cells": max_cells}
    estimator.exact_table = functools.partial(estimator.exact_table, max_cells=max_cells)
    return {}


def _emit(record: dict[str, Any]) -> None:
    print(json.dumps(record), flush=True)


def fit_child(name: str, samples: int, limit: float, *, max_cells: int, theirs_only: bool = False) -> None:
    """The fit cell's child: turns of ours then theirs while the next turn fits in `limit`, one JSON line each.

    With `theirs_only`, one fit of scikit-learn's for the cell's whole epoch budget (ours was cut off)."""
    from sklearn.linear_model import Perceptron

    from verify_perceptron import ExactPerceptron

    warnings.simplefilter("ignore")  # both warn that a fit stopped before converging
    ExactPerceptron().fit([[0.5, 1.0], [1.0, -0.25]], [0, 1])  # lazy imports, before memory is read
    Perceptron().fit([[0.5, 1.0], [1.0, -0.25]], [0, 1])
    X, y, epochs = fit_data(name)
    settings = fit_settings(name, max_cells)
    warm = "randn" not in name and not theirs_only  # a bundled cell: one fit of each, untimed, first
    if warm:
        # the first fit of a bundled set in the process pays what later ones do not: python-flint's import (about
        # 30 ms, on a set whose run stops at max_epochs), first calls, a heap not yet grown. Its peak is the cell's.
        _, _, ours_peak, clf = sample(lambda: ExactPerceptron(max_epochs=epochs).fit(X, y), memory=True)
        _, _, theirs_peak, _ = sample(lambda: Perceptron(shuffle=False, tol=None, max_iter=int(clf.n_iter_)).fit(X, y),
                                      memory=True)
    # the parent's clock starts at this line (the warm-up's peaks in it: a line just after it would be read with
    # it into the parent's buffer by its readline, which `communicate` then does not see)
    peaks = {side: peak for side, peak in (("ours", ours_peak), ("theirs", theirs_peak)) if peak is not None} \
        if warm else {}
    _emit({"n": len(y), "d": X.shape[1], "peaks": peaks})
    started = time.monotonic()
    if theirs_only:
        seconds, cpu, peak, _ = sample(lambda: Perceptron(shuffle=False, tol=None, max_iter=epochs).fit(X, y),
                                       memory=True)
        _emit({"side": "theirs", "seconds": seconds, "cpu": cpu, "peak": peak})
        return
    turn = 0.0
    for k in range(samples):
        if k and time.monotonic() - started + turn > limit:
            break
        begun = time.monotonic()
        seconds, cpu, peak, clf = sample(lambda: ExactPerceptron(max_epochs=epochs, **settings).fit(X, y),
                                         memory=k == 0 and not warm)
        if k == 0:
            check = clf.verification_
            epochs_run = int(clf.n_iter_)
            _emit({"epochs": epochs_run, "updates": int(clf.n_updates_), "verdict": check.verdict,
                   "held": bool(check.holds), "decided": bool(check.separability.certified)})
        _emit({"side": "ours", "seconds": seconds, "cpu": cpu, "peak": peak})
        seconds, cpu, peak, _ = sample(lambda: Perceptron(shuffle=False, tol=None, max_iter=epochs_run).fit(X, y),
                                       memory=k == 0 and not warm)
        _emit({"side": "theirs", "seconds": seconds, "cpu": cpu, "peak": peak})
        turn = time.monotonic() - begun


def _kill_after(process: subprocess.Popen[Any], seconds: float) -> threading.Timer:
    timer = threading.Timer(max(seconds, 0.0), process.kill)
    timer.start()
    return timer


def fit_cell(name: str, samples: int, limit: float, max_cells: int) -> dict[str, Any]:
    """Run the fit cell in a child, killed at `limit` seconds; its JSON lines gathered into one record.

    When ours is cut off before its first fit ends, scikit-learn's fit is timed alone in a second child,
    for the cell's whole epoch budget, so that the ratio reads "> limit / theirs"."""
    record: dict[str, Any] = {"name": name, "ours": [], "theirs": [], "cpu_ours": [], "cpu_theirs": [], "peaks": {},
                              "killed": False, "limit": limit}
    _fit_child(record, [name, "--samples", str(samples), "--max-cells", str(max_cells)], limit)
    if record["killed"] and not record["theirs"]:
        _fit_child(record, [name, "--theirs-only"], limit)
    return record


def _fit_child(record: dict[str, Any], arguments: list[str], limit: float) -> None:
    """Run `fit_child` with `arguments` in a child process, adding its lines to `record`.

    The child is killed `limit` seconds after its first line (its imports and data made, the clock started),
    or `SET_UP` seconds after it starts if it never prints one."""
    command = [sys.executable, os.path.abspath(__file__), *arguments, "--limit", str(limit)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    timer = _kill_after(process, SET_UP)
    first = process.stdout.readline()
    timer.cancel()
    timer = _kill_after(process, limit)
    out, err = process.communicate()
    out = first + out
    timer.cancel()
    record["killed"] = record["killed"] or process.returncode < 0
    for line in out.splitlines():
        item = json.loads(line)
        side = item.pop("side", None)
        if side is None:
            record.update(item)
            continue
        record[side].append(item["seconds"])
        record["cpu_" + side].append(item["cpu"])
        if item["peak"] is not None and side not in record["peaks"]:
            record["peaks"][side] = item["peak"]
    if process.returncode and not record["killed"]:
        record["error"] = (err.strip().splitlines() or [f"exit {process.returncode}"])[-1]


def run_process(command: list[str], timeout: float,
                stdout: str = os.devnull) -> tuple[float, float, int | None, int]:
    """(wall seconds, CPU seconds, exit code or None when killed at `timeout`, peak resident bytes) of one
    child process."""
    with open(stdout, "wb") as out:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL)
        timer = _kill_after(process, timeout)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        timer.cancel()
    process.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
    code = process.returncode if process.returncode >= 0 else None
    return seconds, usage.ru_utime + usage.ru_stime, code, usage.ru_maxrss * 1024  # ru_maxrss: KiB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description="one fit cell of benchmarks/scale.py (the child)")
    parser.add_argument("name")
    parser.add_argument("--samples", type=int, default=3)
    parser.add_argument("--limit", type=float, default=120.0)
    parser.add_argument("--max-cells", type=int, default=MAX_CELLS)
    parser.add_argument("--theirs-only", action="store_true", help="scikit-learn's fit alone, once")
    args = parser.parse_args()
    fit_child(args.name, args.samples, args.limit, max_cells=args.max_cells, theirs_only=args.theirs_only)


if __name__ == "__main__":
    main()
