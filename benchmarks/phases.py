"""Benchmark: where the time of a `verify` goes, phase by phase, on the real data sets of `benchmarks/real.py`.

    python benchmarks/phases.py            # 5 samples each
    python benchmarks/phases.py --quick    # 3 samples each

Each sample reads the CSV afresh (so nothing one sample solved is kept for
the next) and makes what ``verify DATA --format json --max-epochs 1000``
makes, timed phase by phase: reading, the checked run, the separability
decision, the certified max-margin separator and the checked run against it
(only for a run stopped at its limit on separable data, as `verify` does),
the report and its JSON text. scikit-learn's fit for the same epochs is
timed in the same turns as the baseline; ``work/sklearn`` is the median of
the per-turn ratios of all the phases together to it. The process's own
start (Python, NumPy, the package: about 0.15 s here) is not in the phases.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import tempfile
import time
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks.real import EPOCHS, real_sets  # noqa: E402
from benchmarks.run import ms, sklearn_fit  # noqa: E402
from verify_perceptron.api.verification import against_certified  # noqa: E402
from verify_perceptron.certify.separability import separability_of_run  # noqa: E402
from verify_perceptron.data.readers import load_dataset  # noqa: E402
from verify_perceptron.notes.conventions import get_convention  # noqa: E402
from verify_perceptron.pipeline import verify_run  # noqa: E402
from verify_perceptron.report.record import build_report, render_json  # noqa: E402

PHASES = ("read", "run", "separability", "against certified", "report", "json")


def one_verify(path: str) -> dict[str, float]:
    """Seconds per phase of one `verify` of `path`."""
    times: dict[str, float] = {}
    gc.collect()  # each sample from the same start: where a collection falls is otherwise the noise
    clock = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        times[name], clock = now - clock, now

    data = load_dataset(path)
    lap("read")
    convention = get_convention("classic")
    trace, check = verify_run(data, convention, max_epochs=EPOCHS)
    lap("run")
    separability = separability_of_run(data, convention, trace, check, None)
    lap("separability")
    trace, check = against_certified(data, convention, trace, check, separability, eta=1, mode="online",
                                     max_epochs=EPOCHS, time_left=lambda: None)
    lap("against certified")
    report = build_report(data, trace, check, separability=separability)
    lap("report")
    render_json(report)
    lap("json")
    return times


def bench(name: str, X: np.ndarray, y: np.ndarray, repeat: int, tmp: str) -> dict[str, Any]:
    path = os.path.join(tmp, "data.csv")
    np.savetxt(path, np.c_[X, y], fmt="%g", delimiter=",")
    one_verify(path)  # warm-up
    epochs = verify_run(load_dataset(path), max_epochs=EPOCHS)[0].n_epochs
    samples, baseline = [], []
    for _ in range(repeat):
        samples.append(one_verify(path))
        start = time.perf_counter()
        sklearn_fit(X, y, epochs)
        baseline.append(time.perf_counter() - start)
    phases = {p: statistics.median(s[p] for s in samples) for p in PHASES}
    ratio = statistics.median(sum(s.values()) / b for s, b in zip(samples, baseline))
    return {"name": name, "phases": phases, "work": statistics.median(sum(s.values()) for s in samples),
            "sklearn": statistics.median(baseline), "ratio": ratio}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 samples each instead of 5")
    repeat = 3 if parser.parse_args().quick else 5
    print(f"# phases of verify --format json --max-epochs {EPOCHS}: medians of {repeat} samples\n")
    print("| data | " + " | ".join(PHASES) + " | all phases | sklearn fit | work/sklearn |")
    print("|---|" + "---|" * (len(PHASES) + 3))
    with tempfile.TemporaryDirectory() as tmp:
        for name, X, y in real_sets():
            r = bench(name, X, y, repeat, tmp)
            cells = " | ".join(ms(r["phases"][p]) for p in PHASES)
            print(f"| {r['name']} | {cells} | {ms(r['work'])} | {ms(r['sklearn'])} | {r['ratio']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
