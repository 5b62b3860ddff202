"""The diagnosis of checks that nothing explains (the harness's whole search of combinations runs), in CPU seconds,
this tree against another (a copy of main built in its own directory), in turns; and whether both trees give the same
diagnoses (codes, parameters and text).

    python benchmarks/unexplained.py --base /tmp/base --turns 3

Each turn runs every program once in each tree, each in a process of its own started in that tree's directory (so
that tree's ``verify_perceptron`` is the one imported: it prints its path). The figure is the CPU time of the
``diagnose`` calls (`harness._diagnosis.diagnose`, the other labels' one included), median over the turns, with the
search's own time limit (`_combinations.SEARCH_SECONDS`, 10 s of wall clock) raised to 600 s in both trees: on a loaded
machine the slower tree's search is otherwise cut short, and its figure with it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]

#: (name, implementation, check_implementation's keywords): tests/implementations/unexplained.py's and the tests'.
PROGRAMS: list[tuple[str, str, dict[str, Any]]] = [
    ("off-by-a-half (test_diagnosis)", "tests.test_diagnosis:_off_by_a_half", {"examples": 20}),
    ("shrinks-on-negatives (test_harness_relabel)", "tests.test_harness_relabel:_shrinks_on_negatives",
     {"examples": 30}),
    ("bias-without-label", "tests.implementations.unexplained:bias_without_label", {}),
    ("previous-sample", "tests.implementations.unexplained:previous_sample", {}),
    ("bias-by-first-feature (--command)", "command", {}),
]

INNER = r'''
import json, sys, time
sys.path.insert(0, ".")
import verify_perceptron
from verify_perceptron.harness import _case, _combinations, _diagnosis, check_implementation, command_implementation
_combinations.SEARCH_SECONDS = 600.0  # the whole search in both trees: its 10 s are wall-clock, cut short under load
spent = [0.0]
original = _diagnosis.diagnose
def timed(*args, **kwargs):
    start = time.process_time()
    try:
        return original(*args, **kwargs)
    finally:
        spent[0] += time.process_time() - start
_diagnosis.diagnose = _case.diagnose = timed
target, keywords, script = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
if target == "command":
    implementation = command_implementation(f"{sys.executable} {script} {{train}} {{out}}")
else:
    import importlib
    module, name = target.rsplit(":", 1)
    implementation = getattr(importlib.import_module(module), name)
start = time.process_time()
result = check_implementation(implementation, **keywords)
total = time.process_time() - start
print(json.dumps({"module": verify_perceptron.__file__, "diagnosis": spent[0], "check": total,
                  "answers": [[d.code, repr(sorted(d.parameters.items())), d.text] for d in result.diagnoses]}))
'''


def _one(tree: Path, target: str, keywords: Mapping[str, object], script: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", INNER, target, json.dumps(keywords), script], cwd=tree,
                          capture_output=True, text=True, check=True)
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if not str(found["module"]).startswith(str(tree)):
        raise SystemExit(f"{tree}: imported {found['module']}, not this tree's verify_perceptron")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, type=Path, help="the other tree (a copy of main, built)")
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--only", default="", help="the programs whose name contains this")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    from tests.implementations.unexplained import BIAS_BY_FIRST_FEATURE

    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "bias_by_first_feature.py"
        script.write_text(BIAS_BY_FIRST_FEATURE, encoding="utf-8")
        for name, target, keywords in PROGRAMS:
            if args.only not in name:
                continue
            times: dict[str, list[float]] = {"base": [], "this": []}
            answers: dict[str, Any] = {}
            for _ in range(args.turns):
                for label, tree in (("base", args.base.resolve()), ("this", HERE)):
                    found = _one(tree, target, keywords, str(script))
                    times[label].append(float(found["diagnosis"]))
                    answers.setdefault(label, found["answers"])
            base, this = statistics.median(times["base"]), statistics.median(times["this"])
            codes = [a[0] for a in answers["this"]]
            print(f"{name}: diagnosis CPU {base:.2f} s -> {this:.2f} s, ratio {this / base:.2f} (x{base / this:.1f}); "
                  f"{codes}; same answers: {answers['base'] == answers['this']}", flush=True)


if __name__ == "__main__":
    main()
