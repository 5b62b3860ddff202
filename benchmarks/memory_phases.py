"""Benchmark: `verify`'s resident memory after reading, phase by phase, on the scale grid's data (issue 32).

    python benchmarks/memory_phases.py 100000 10 not        # one cell: rows, features, separable|not
    python benchmarks/memory_phases.py --grid               # 10^5 x 10, 10^5 x 100, 10^6 x 10, both kinds

The cell's data are `benchmarks/scale_data.py`'s grid (the same seeded rows
and labels as its CSV files), built as int64 numerators over 10^6 in memory,
so that nothing of a CSV reader's cost is in the figures. The phases are
`verify`'s once the `Dataset` exists, as the command runs them: the checked
run (`verify_run`) with the separability decision started beside it in a
forked worker (`certify.beside`), separability settled and a run stopped at
its limit checked against the certified separator (`settle`), the report,
its JSON text. A thread polls the resident size (/proc/self/statm) every
half millisecond; each phase's figure is its peak above the resident size
once the data were built, over the data's int64 array n x (d + 1) x 8
bytes (what `benchmarks/scale.py` divides by). The worker's figure is its
own peak resident size (RUSAGE_CHILDREN once reaped) above the same start:
the pages it shares with the parent count, as they do in a ``ru_maxrss``.
Linux only (/proc). Each cell runs in a child process of its own.
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import subprocess
import sys
import threading
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from verify_perceptron.data.dataset import Dataset

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

#: The cells of ``--grid``: (rows, features); each separable and not.
GRID = ((100_000, 10), (100_000, 100), (1_000_000, 10))


def resident() -> int:
    """This process's resident size in bytes."""
    with open("/proc/self/statm", encoding="ascii") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class Peak:
    """The highest resident size seen since the last `reset`, polled in a thread."""

    def __init__(self) -> None:
        self.value, self.stopped = resident(), False
        threading.Thread(target=self._poll, daemon=True).start()

    def _poll(self) -> None:
        while not self.stopped:
            self.value = max(self.value, resident())
            time.sleep(0.0005)

    def reset(self) -> int:
        """The peak so far (after one more reading), and a new start from the present size."""
        time.sleep(0.01)
        value, self.value = max(self.value, resident()), resident()
        return value


def grid_dataset(n: int, d: int, separable: bool) -> Dataset:
    """The scale grid's cell as a `Dataset` of int64 numerators over 10^6 (`scale_data.grid_chunks`' rows)."""
    import numpy as np

    from benchmarks.scale_data import grid_chunks
    from verify_perceptron.data.dataset import Dataset

    parts, labels = [], []
    for index, y in grid_chunks(n, d, separable=separable):
        negative, rest = np.divmod(index, 6 * 9000)  # the index into scale_data._strings' table
        k_less_one, m_less_1000 = np.divmod(rest, 9000)
        parts.append(np.where(negative == 1, -1, 1) * (m_less_1000 + 1000) * 10 ** (5 - k_less_one))
        labels.append(y)
    return Dataset(numerators=np.concatenate(parts).astype(np.int64), denominator=10**6, y=np.concatenate(labels))


def one_cell(n: int, d: int, separable: bool) -> list[str]:
    """The lines of one cell's figures, measured in this process."""
    from verify_perceptron.api.verification import settle
    from verify_perceptron.certify.beside import decision_beside
    from verify_perceptron.notes.conventions import get_convention
    from verify_perceptron.pipeline import verify_run
    from verify_perceptron.report.record import build_report, render_json

    data = grid_dataset(n, d, separable)
    gc.collect()
    size = n * (d + 1) * 8
    peak = Peak()
    start = resident()
    lines = [f"{n} x {d} {'separable' if separable else 'not separable'}: int64 data {size / 2**20:.1f} MiB, "
             f"resident once built {start / 2**20:.0f} MiB; each phase's peak above that, over the int64 data"]
    clock = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal clock
        lines.append(f"  {name:28s} {time.perf_counter() - clock:7.2f} s  +{(peak.reset() - start) / size:5.2f}x")
        clock = time.perf_counter()

    conv, again = get_convention("classic"), []
    with decision_beside(data, None) as beside:
        trace, check = verify_run(data, conv, max_epochs=100, again=again)
        lap("run (verify_run)")
        trace, check, separability, _ = settle(data, conv, trace, check, eta=1, mode="online", max_epochs=100,
                                               time_limit=None, started=time.monotonic(), again=again,
                                               beside=beside)
        lap("separability, again (settle)")
    worker = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    report = build_report(data, trace, check, separability=separability)
    lap("report")
    render_json(report)
    lap("JSON text")
    lines.append(f"  {'decision (forked worker)':28s} {'':9s}  +{(worker - start) / size:5.2f}x" if worker else
                 "  no worker: small data are decided in the process, after the run")
    lines.append(f"  {report['verdict']}, {trace.n_updates:,} updates; separability: {separability.method}")
    peak.stopped = True
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description="verify's resident memory after reading, phase by phase")
    parser.add_argument("cell", nargs="*", help="ROWS FEATURES separable|not")
    parser.add_argument("--grid", action="store_true", help="every cell of GRID, each in a child process")
    args = parser.parse_args()
    if args.grid:
        for n, d in GRID:
            for kind in ("separable", "not"):
                subprocess.run([sys.executable, os.path.abspath(__file__), str(n), str(d), kind], check=True)
        return
    if len(args.cell) != 3:
        parser.error("give ROWS FEATURES separable|not, or --grid")
    print("\n".join(one_cell(int(args.cell[0]), int(args.cell[1]), args.cell[2] == "separable")), flush=True)


if __name__ == "__main__":
    main()
