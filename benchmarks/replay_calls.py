"""Benchmark: the checker's compiled calls, captured from fits, timed in turns against another build (issue 32).

    python benchmarks/replay_calls.py capture calls.pkl         # the fits below, with this checkout's package
    python benchmarks/replay_calls.py turns calls.pkl BASE 300  # each call, BASE's build against this one's

``capture`` fits `ExactPerceptron` on breast cancer (raw float64) and wine (class 0 or not), keeping a copy of
the arguments of every call to `check_wide`, `walk_sums`, `claim_slacks`, `record_sums` and `fact_keys`.
``turns`` loads `verify_perceptron/check/_replay` from BASE (a copy of another commit, built there with
``python setup.py build_ext --inplace``) and from this checkout into one process, and times each captured call
on fresh copies of its arguments, the two builds taking turns (the order alternating); it prints each call's
medians and the median of the paired ratios, and stops if the builds' results or written arrays differ.
"""

from __future__ import annotations

import copy
import importlib.machinery
import importlib.util
import os
import pickle
import statistics
import sys
import time
from types import ModuleType
from typing import Any

import numpy as np

NAMES = ("check_wide", "walk_sums", "claim_slacks", "record_sums", "fact_keys")
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODULE = "verify_perceptron.check._replay"


def capture(path: str) -> None:
    """Fit the two sets with every call's arguments kept, and pickle them to `path`."""
    from sklearn.datasets import load_breast_cancer, load_wine

    from verify_perceptron import ExactPerceptron
    from verify_perceptron.check import kernel

    calls: dict[str, list[tuple[Any, ...]]] = {name: [] for name in NAMES}

    def kept(name: str, call: Any) -> Any:
        def keeping(*args: Any) -> Any:
            calls[name].append(copy.deepcopy(args))
            return call(*args)
        return keeping

    for name in NAMES:
        setattr(kernel, name, kept(name, getattr(kernel, name)))
    X, y = load_breast_cancer(return_X_y=True)
    ExactPerceptron().fit(X, y)
    X, y = load_wine(return_X_y=True)
    ExactPerceptron().fit(X, y == 0)
    with open(path, "wb") as out:
        pickle.dump(calls, out)
    print({name: len(made) for name, made in calls.items()})


def load(root: str) -> ModuleType:
    """The checker's extension as built under `root`."""
    found = [f for f in os.listdir(os.path.join(root, "verify_perceptron", "check")) if f.startswith("_replay.")
             and f.endswith(".so")]
    path = os.path.join(root, "verify_perceptron", "check", found[0])
    loader = importlib.machinery.ExtensionFileLoader(MODULE, path)
    spec = importlib.util.spec_from_file_location(MODULE, path, loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def turns(path: str, base_root: str, rounds: int) -> None:
    """Each captured call, `base_root`'s build against this checkout's, in `rounds` turns."""
    with open(path, "rb") as source:
        calls = pickle.load(source)
    builds = {"base": load(base_root), "this": load(HERE)}
    for name in NAMES:
        for k, args in enumerate(calls[name]):
            times: dict[str, list[int]] = {"base": [], "this": []}
            seen: dict[str, tuple[Any, tuple[Any, ...]]] = {}
            for r in range(rounds):
                for side in ("base", "this") if r % 2 == 0 else ("this", "base"):
                    fresh = copy.deepcopy(args)
                    call = getattr(builds[side], name)
                    start = time.perf_counter_ns()
                    result = call(*fresh)
                    times[side].append(time.perf_counter_ns() - start)
                    seen[side] = (result, fresh)
                assert seen["base"][0] == seen["this"][0], (name, k)
                for a, b in zip(seen["base"][1], seen["this"][1]):
                    assert not isinstance(a, np.ndarray) or np.array_equal(a, b, equal_nan=a.dtype.kind == "f")
            base, this = statistics.median(times["base"]), statistics.median(times["this"])
            paired = statistics.median(t / b for t, b in zip(times["this"], times["base"]))
            print(f"{name}[{k}]: base {base / 1e3:.1f} us, this {this / 1e3:.1f} us, "
                  f"this/base medians {this / base:.3f}, median of paired ratios {paired:.3f}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "capture":
        sys.path.insert(0, HERE)
        capture(sys.argv[2])
    elif len(sys.argv) in (4, 5) and sys.argv[1] == "turns":
        turns(sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) == 5 else 300)
    else:
        sys.exit(__doc__)
