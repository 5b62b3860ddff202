"""The hostile-input corpus: malformed and hostile files and arguments, each with the exit code and the
message fragment the CLI must give. The files are made by `build` (a script, not binary blobs).

Run as ``python -m tests.hostile_corpus DIR``: builds the corpus in DIR, runs every case through the CLI in
this one process (address space limited to 1 GiB, each case timed), and prints one JSON line per case:
its name, exit code, stderr, seconds. `tests/test_hostile_inputs.py` holds each line to its contract.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

#: Wall time one case may take, and the address space the whole run may use.
SECONDS, MEMORY = 2.0, 1 << 30


@dataclass(frozen=True)
class Case:
    """argv (files relative to the corpus folder), the exit code, and a fragment its one stderr line holds."""

    name: str
    argv: tuple[str, ...]
    code: int
    fragment: str


def _npy_header(shape: tuple[int, ...]) -> bytes:
    text = f"{{'descr': '<f8', 'fortran_order': False, 'shape': {shape}, }}".encode()
    text += b" " * (118 - len(text)) + b"\n"
    return b"\x93NUMPY\x01\x00" + len(text).to_bytes(2, "little") + text


def _primes(count: int, above: int) -> list[int]:
    found: list[int] = []
    n = above
    while len(found) < count:
        n += 1
        if all(n % p for p in range(2, int(n**0.5) + 1)):
            found.append(n)
    return found


def build(folder: Path) -> list[Case]:
    """Write the corpus's files into `folder`; the cases that use them."""
    f = folder
    (f / "and.csv").write_text("x1,x2,y\n0,0,0\n0,1,0\n1,0,0\n1,1,1\n")
    np.save(f / "zero_rows.npy", np.zeros((0, 3)))
    np.savez(f / "zero_rows.npz", X=np.zeros((0, 3)), y=np.zeros(0))
    np.savez(f / "objects.npz", X=np.array(["a", "b"], dtype=object), y=np.array([1, -1]))
    (f / "long_integer.csv").write_text("x,y\n" + "9" * 5000 + ",1\n1,0\n")
    (f / "primes.csv").write_text("x,y\n" + "".join(f"1/{p},{i % 2}\n" for i, p in enumerate(_primes(300, 2**14))))
    (f / "huge_shape.npy").write_bytes(_npy_header((10**11, 3)) + b"\0" * 64)
    np.save(f / "whole.npy", np.ones((10, 3)))
    (f / "truncated.npy").write_bytes((f / "whole.npy").read_bytes()[:-40])
    (f / "unterminated.csv").write_text('x,y\n"1,0\n2,1\n3,0\n')
    (f / "empty_label.csv").write_text("x,y\n1,0\n2,1\n3,\n")
    (f / "no_label.svm").write_text("+1 1:1\n2:1\n-1 1:2\n")
    (f / "half_label.csv").write_text("x,y\n1,0\n2,0.5\n")
    (f / "escape.csv").write_text("x,y\n1,\x1b[31mred\n2,blue\n")
    (f / "earlier_trace.jsonl").write_text("an earlier trace\n")
    (f / "taken_figures").write_text("a file where Markdown's figure folder goes\n")
    (f / "text_labels.csv").write_text("diagnosis,x\nM,1\nB,2\n")
    (f / "empty.csv").write_text("")
    (f / "one_class.csv").write_text("x,y\n1,1\n2,1\n")
    (f / "nan.csv").write_text("x,y\n1,0\nnan,1\n")
    (f / "binary.csv").write_bytes(bytes(range(256)) * 4)
    (f / "far_index.svm").write_text("+1 99999:1\n-1 1:1\n")  # 18 bytes, 2 x 99,999 values
    (f / "wide.svm").write_text("".join(f"{'+1' if i % 3 else '-1'} 100000:{i % 7 + 1}\n" for i in range(200)))
    (f / "e400.csv").write_text("x,y\n1e400,1\n-1e400,0\n3e399,1\n")  # numbers past the doubles' range
    digits = "7" * 999 + "3"  # derived numbers (R², the bounds) pass Python's 4,300-digit str limit
    (f / "digits1000.csv").write_text(f"x,y\n0.{digits},1\n-1,0\n{digits[:500]}.{digits[500:]},1\n")
    os.mkfifo(f / "pipe.csv")
    with zipfile.ZipFile(f / "bomb.npz", "w", compression=zipfile.ZIP_DEFLATED) as z:  # 320 MB of zeros in 0.3 MB
        with z.open("X.npy", "w") as member:
            member.write(_npy_header((20000, 2000)))
            for _ in range(305):
                member.write(b"\0" * (1 << 20))
        with z.open("y.npy", "w") as member:
            buffer = io.BytesIO()
            np.save(buffer, np.ones(20000))
            member.write(buffer.getvalue())
    return [
        Case("npy without rows", ("verify", "zero_rows.npy"), 2, "has no rows"),
        Case("npz without rows", ("verify", "zero_rows.npz"), 2, "has no rows"),
        Case("npz of Python objects", ("verify", "objects.npz"), 2, "never does unpickling"),
        Case("integer of 5000 digits", ("verify", "long_integer.csv"), 2, "5000 characters long"),
        Case("300 denominators 1/p", ("verify", "primes.csv"), 2, "--max-denominator-bits"),
        Case("npy header of 10^11 rows", ("verify", "huge_shape.npy"), 2, "huge_shape.npy: declares shape"),
        Case("truncated npy", ("verify", "truncated.npy"), 2, "truncated.npy: not a readable NumPy file"),
        Case("npz that inflates to 320 MB", ("verify", "bomb.npz"), 2, "more than the limit of"),
        Case("LIBSVM index 99,999 in 18 bytes", ("verify", "far_index.svm"), 0, ""),
        Case("200 LIBSVM rows of index 100,000, --max-cells 10^6", ("verify", "wide.svm", "--max-cells", "1000000"),
             2, "wide.svm: 200 x 100000 values, more than the limit of 1000000 cells; raise it with --max-cells"),
        Case("200 LIBSVM rows of index 100,000, --time-limit 0.25", ("verify", "wide.svm", "--time-limit", "0.25"), 3,
             "the time limit of 0.25 s ran out while"),
        Case("a file larger than --max-cells allows", ("verify", "primes.csv", "--max-cells", "100"), 2,
             "primes.csv: 3004 bytes, more than the 1600 bytes allowed"),
        Case("--max-cells 0", ("verify", "and.csv", "--max-cells", "0"), 2, "--max-cells: 0 must be >= 1"),
        Case("quote never closed", ("verify", "unterminated.csv"), 2, "unterminated.csv:2:"),
        Case("empty label", ("verify", "empty_label.csv"), 2, "empty_label.csv:4: empty label"),
        Case("LIBSVM line without a label", ("verify", "no_label.svm"), 2, "no_label.svm:2: no label"),
        Case("label 0.5", ("verify", "half_label.csv"), 2, "'0.5'"),
        Case("escape codes in a label", ("verify", "escape.csv"), 2, "\\x1b[31mred"),
        Case("text label column", ("verify", "text_labels.csv"), 2, "--label-column diagnosis"),
        Case("empty file", ("verify", "empty.csv"), 2, "empty.csv"),
        Case("one class", ("verify", "one_class.csv"), 2, "one_class.csv"),
        Case("nan", ("verify", "nan.csv"), 2, "nan.csv"),
        Case("binary bytes", ("verify", "binary.csv"), 2, "binary.csv"),
        Case("FIFO as data", ("verify", "pipe.csv"), 2, "is a FIFO"),
        Case("/dev/zero as data", ("verify", "/dev/zero"), 2, "is a character device"),
        Case("FIFO as --trace", ("verify", "and.csv", "--trace", "pipe.csv"), 2, "not a regular file"),
        Case("/dev/full as --trace", ("verify", "and.csv", "--trace", "/dev/full"), 2, "not a regular file"),
        Case("-o onto a device", ("verify", "and.csv", "-o", "/dev/null"), 2, "not a regular file"),
        Case("-o onto the input", ("verify", "and.csv", "-o", "and.csv"), 2, "and.csv"),
        Case("a usage error found after the run, with --trace over a file",
             ("verify", "and.csv", "--mode", "batch", "--averaged", "--trace", "earlier_trace.jsonl"), 2, "--averaged"),
        Case("-o in a folder that does not exist", ("verify", "and.csv", "--format", "markdown", "-o", "absent/r.md"),
             2, "the directory absent does not exist"),
        Case("a file where Markdown's figure folder goes", ("verify", "and.csv", "--format", "markdown",
                                                            "-o", "taken.md"), 2, "which is a file, not a folder"),
        Case("an ESC sequence as an unrecognized argument", ("verify", "and.csv", "\x1b[31mX\u202e"), 2,
             "unrecognized arguments: \\x1b[31mX\\u202e"),
        Case("--time-limit 1e-400", ("verify", "and.csv", "--time-limit", "1e-400"), 2, "shorter than the clock"),
        Case("--max-epochs -5", ("verify", "and.csv", "--max-epochs", "-5"), 2, "--max-epochs: -5 must be >= 1"),
        Case("--time-limit 0", ("verify", "and.csv", "--time-limit", "0"), 2, "--time-limit: 0 must be > 0"),
        Case("--time-limit 10^40", ("verify", "and.csv", "--time-limit", "1" + "0" * 40), 2, "must be at most"),
        Case("--mode fast", ("verify", "and.csv", "--mode", "fast"), 2, "invalid choice: 'fast'"),
        Case("--convention ''", ("verify", "and.csv", "--convention", ""), 2, "convention=''"),
        Case("--eta 3/2 for note 001", ("verify", "and.csv", "-c", "hard-limiter", "--eta", "3/2"), 2, "eta=3/2"),
        Case("--separator of the wrong length", ("verify", "and.csv", "--separator", "1,2"), 2, "--separator"),
        Case("no command", (), 2, "a command is required"),
        Case("unknown command", ("prove",), 2, "prove"),
        Case("missing file", ("verify", "absent.csv"), 2, "absent.csv"),
        Case("--max-epochs 2^63", ("verify", "and.csv", "--max-epochs", str(2**63)), 0, ""),
        Case("values of 1e400, as text", ("verify", "e400.csv"), 0, ""),
        Case("values of 1e400, as Markdown", ("verify", "e400.csv", "--format", "markdown"), 0, ""),
        Case("a value of 1,000 digits, as text", ("verify", "digits1000.csv"), 0, ""),
        Case("a value of 1,000 digits, as JSON", ("verify", "digits1000.csv", "--format", "json"), 0, ""),
        Case("--eta 1e999", ("verify", "and.csv", "--eta", "1e999"), 0, ""),
        Case("--separator of 1e1000", ("verify", "and.csv", "--separator=-4e1000,3e1000,2e1000"), 0, ""),
        # figures drawn past the doubles' range (left out before, and before that OverflowError); one case only, as
        # drawing costs a second or more (tests/test_figure_magnitudes.py draws them at every magnitude)
        Case("a value of 1,000 digits, as Markdown with its figures",
             ("verify", "digits1000.csv", "--format", "markdown", "-o", "digits1000.md"), 0, ""),
        Case("check of a target that does not import", ("check", "no_such_module:fit"), 2, "no_such_module"),
    ]


def run(folder: Path) -> list[dict[str, object]]:
    """Every case through `cli.main` in this process, stderr captured, each timed."""
    from verify_perceptron.cli import main

    results = []
    for case in build(folder):
        err = io.StringIO()
        started = time.monotonic()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                code = main(list(case.argv))
            except SystemExit as stop:  # noqa: PERF203 - main returns; a SystemExit would be a defect
                code = 100 + int(stop.code or 0)
            except BaseException as error:  # noqa: BLE001 - a traceback is what the contract forbids
                code, err = 99, io.StringIO(f"{type(error).__name__}: {error}")
        results.append({"name": case.name, "code": code, "expected": case.code, "fragment": case.fragment,
                        "stderr": err.getvalue(), "seconds": time.monotonic() - started})
    return results


if __name__ == "__main__":
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    os.chdir(sys.argv[1])
    for line in run(Path(sys.argv[1])):
        print(json.dumps(line))
