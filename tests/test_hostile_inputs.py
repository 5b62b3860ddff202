"""The hostile-input corpus (`tests/hostile_corpus.py`) through the CLI and the API: for every case the expected
exit code, for a usage error or a time-up one line on stderr with the expected fragment (naming the file, the
line, the value where there is one), no traceback, within its time limit plus a second (2 s of CPU time without one,
and no hang), all within an address space of 1 GiB. The grace second after a time limit is CPU work (stopping, the
message), which a loaded machine stretches (`tests/wall_clock.py`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Wall seconds a case without --time-limit may take, whatever the machine's load: a hang, not a slow path (its
#: CPU time, which a shared machine's load leaves alone, is held to the case's limit).
HANG = 30.0
#: The part of a time-limited case's allowance that is CPU work after the limit: the grace second.
GRACE = 1.0


def test_every_hostile_input_gets_its_exit_code_and_one_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "tests.hostile_corpus", str(tmp_path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(results) >= 80
    broken = []
    for r in results:
        problem = _broken(r)
        allowed = r["limit"] + (r["stretch"] - 1) * GRACE  # the command's own promise: wall time
        if r["time_limited"] and r["seconds"] > allowed:
            broken.append(f"{r['name']}: {r['seconds']:.2f} s, more than {r['limit']} s "
                          f"({allowed:.2f} s at the load's stretch of {r['stretch']:.2f})")
        elif not r["time_limited"] and (r["cpu"] > r["limit"] or r["seconds"] > HANG):
            broken.append(f"{r['name']}: {r['cpu']:.2f} s of CPU ({r['seconds']:.2f} s of wall time), more than "
                          f"{r['limit']} s of CPU or {HANG} s")
        elif problem is not None:
            broken.append(problem)
    assert not broken, "\n".join(broken)


def _broken(r: dict[str, object]) -> str | None:
    """What is wrong with one case's outcome, or None."""
    stderr = str(r["stderr"])
    lines = stderr.strip().splitlines()
    if r["code"] != r["expected"]:
        return f"{r['name']}: exit {r['code']}, expected {r['expected']}: {stderr[:200]}"
    if r["expected"] in (2, 3) and (len(lines) != 1 or str(r["fragment"]) not in lines[0]):  # 1 is a verdict
        return f"{r['name']}: stderr {stderr[:300]!r} should be one line holding {r['fragment']!r}"
    if "Traceback" in stderr:
        return f"{r['name']}: a traceback"
    return None


def test_the_contract_check_itself_fails_on_a_wrong_expectation(tmp_path: Path) -> None:
    # A case expecting the wrong exit code is caught by the same comparison the test above makes.
    from tests.hostile_corpus import Case

    case = Case("and.csv verifies", ("verify", "and.csv"), 2, "error")
    (tmp_path / "and.csv").write_text("x1,x2,y\n0,0,0\n0,1,0\n1,0,0\n1,1,1\n")
    import contextlib
    import io
    import os

    from verify_perceptron.cli import main

    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            code = main(list(case.argv))
    finally:
        os.chdir(here)
    assert code == 0 != case.code
