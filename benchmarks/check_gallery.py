"""Benchmark: the time of `check` on the gallery of `tests/implementations/gallery.py`, case by case, with
the settings of `tests/test_gallery_implementations.py` (30 datasets, the default 100 where the default is
the point), wall and CPU (this process and the workers it reaped).

    python benchmarks/check_gallery.py [CASE ...]

Run it on two trees in turn (``cd TREE && python benchmarks/check_gallery.py``) to compare them under the
same load: the machine's other work moves wall times far more than a change does.
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def main(names: list[str]) -> None:
    from tests.implementations import gallery
    from tests.test_gallery_implementations import DEFAULTS, QUICK, _target
    from verify_perceptron.harness import check_implementation

    total_wall = total_cpu = 0.0
    for name in names or list(gallery.CASES):
        options, _ = gallery.CASES[name]
        wall, cpu = time.perf_counter(), _cpu()
        result = check_implementation(_target(name), **options, **({} if name in DEFAULTS else QUICK))
        wall, cpu = time.perf_counter() - wall, _cpu() - cpu
        total_wall, total_cpu = total_wall + wall, total_cpu + cpu
        print(f"{name:60s} {wall:6.2f} s wall {cpu:6.2f} s cpu {[d.code for d in result.diagnoses]}")
    print(f"total {total_wall:.2f} s wall {total_cpu:.2f} s cpu")


if __name__ == "__main__":
    main(sys.argv[1:])
