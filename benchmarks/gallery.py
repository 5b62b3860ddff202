"""The gallery of real-world perceptron forms (`tests/implementations/gallery.py`) under `check`: for each,
the verdict, the diagnosis with its parameters, and the time of the whole check at default settings.

Run from the repository root: ``python benchmarks/gallery.py`` (a Markdown table on stdout). Times are
single runs on a shared machine: read them as orders of magnitude.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.implementations import gallery  # noqa: E402
from verify_perceptron.harness import check_implementation  # noqa: E402

_SHOWN = ("convention", "epochs", "at_least", "below", "decimal", "weight", "seeded", "labels", "bias_rate")


def main() -> None:
    print("| implementation | checked as | verdict | diagnosis | parameters | time (s) |")
    print("|---|---|---|---|---|---|")
    for name, (options, expected) in gallery.CASES.items():
        target = getattr(gallery, name.split(" ")[0])
        started = time.perf_counter()
        result = check_implementation(target, **options)
        seconds = time.perf_counter() - started
        first = result.diagnoses[0] if result.diagnoses else None
        shown = "" if first is None else ", ".join(f"{k}={first.parameters[k]}" for k in _SHOWN
                                                 if first.parameters.get(k) not in (None, [], ""))
        checked = ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults"
        verdict = "passed" if result.passed else "FAILED"
        code = "-" if first is None else first.code
        mark = "" if (first.code if first else None) == expected else " (expected " + str(expected) + ")"
        print(f"| {name.split(' ')[0]} | {checked} | {verdict} | {code}{mark} | {shown} | {seconds:.1f} |")


if __name__ == "__main__":
    main()
