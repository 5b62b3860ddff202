"""Whole `verify` against an exact C++ perceptron over GMP rationals, on CoqPerceptron-style data.

    python benchmarks/peer.py                 # a 200 x 1,000 set made here, 5 samples in turns
    python benchmarks/peer.py FILE.dat        # a CoqPerceptron benchmark file (n, d, label, values 'p % q')

The peer is `benchmarks/peers/gmp_perceptron.cpp` (GMP's mpq_class), compiled
here with ``g++ -O2 ... -lgmpxx -lgmp``; it stands in for the CoqPerceptron
benchmark's C++ perceptron, whose boost headers this machine may not have. It
only runs the perceptron; `verify` also reads the CSV, checks every update,
certifies separability and writes the JSON report. Needs g++ and GMP's C++
headers; says so and stops otherwise.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks.run import ms, paired_times  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def coq_style(n: int = 200, d: int = 1000, seed: int = 5) -> tuple[list[list[str]], list[int]]:
    """n samples of d values p/250 in lowest terms (denominators 1 to 250), labels 0/1 at random."""
    rng = np.random.default_rng(seed)
    p = rng.integers(-250, 251, size=(n, d)).tolist()
    rows = [[f"{a // np.gcd(a, 250)}/{250 // np.gcd(a, 250)}" for a in row] for row in p]
    return rows, rng.integers(0, 2, size=n).tolist()


def read_dat(path: str) -> tuple[list[list[str]], list[int]]:
    """A CoqPerceptron benchmark file: n, d, then per sample its 0/1 label and d lines 'p % q'."""
    with open(path, encoding="utf-8") as handle:
        lines = [line.strip() for line in handle if line.strip()]
    n, d = int(lines[0]), int(lines[1])
    rows, labels, at = [], [], 2
    for _ in range(n):
        labels.append(int(lines[at]))
        rows.append([v.replace(" % ", "/").replace("%", "/") for v in lines[at + 1:at + 1 + d]])
        at += 1 + d
    return rows, labels


def main() -> None:
    if shutil.which("g++") is None:
        sys.exit("benchmarks/peer.py: g++ is not installed")
    rows, labels = read_dat(sys.argv[1]) if len(sys.argv) > 1 else coq_style()
    with tempfile.TemporaryDirectory() as tmp:
        peer = os.path.join(tmp, "gmp_perceptron")
        built = subprocess.run(["g++", "-O2", "-o", peer, os.path.join(HERE, "peers", "gmp_perceptron.cpp"),
                                "-lgmpxx", "-lgmp"], capture_output=True, text=True)
        if built.returncode != 0:
            sys.exit(f"benchmarks/peer.py: the peer did not compile (GMP's C++ headers?): {built.stderr.strip()[:300]}")
        csv, dat = os.path.join(tmp, "data.csv"), os.path.join(tmp, "data.txt")
        with open(csv, "w", encoding="utf-8") as handle:
            handle.writelines(",".join(row) + f",{label}\n" for row, label in zip(rows, labels))
        with open(dat, "w", encoding="utf-8") as handle:
            handle.write(f"{len(rows)}\n{len(rows[0])}\n")
            handle.writelines(f"{label}\n" + "\n".join(row) + "\n" for row, label in zip(rows, labels))
        env = dict(os.environ, PYTHONPATH=os.path.dirname(HERE))
        ours = [sys.executable, "-m", "verify_perceptron", "verify", csv, "--format", "json"]

        def run_peer() -> str:
            with open(dat, encoding="utf-8") as stdin:
                return subprocess.run([peer], stdin=stdin, capture_output=True, text=True, check=True).stderr

        t_ours, t_peer, ratio, done, said = paired_times(
            lambda: subprocess.run(ours, capture_output=True, env=env), run_peer, 5, at_least=0)
        print(f"{len(rows)} x {len(rows[0])}: verify (whole process, exit {done.returncode}) {ms(t_ours)}, "
              f"GMP peer ({said.strip()}) {ms(t_peer)}, ratio {ratio:.2f} (medians of 5, in turns)")


if __name__ == "__main__":
    main()
