"""The hostile-input corpus: malformed and hostile files and arguments, each with the exit code and the
message fragment the CLI must give, and calls of the Python API (`tests/hostile_api.py`). The files are made
by `build` (a script, not binary blobs).

Run as ``python -m tests.hostile_corpus DIR``: builds the corpus in DIR, runs every case through the CLI (or
the API) in this one process (address space limited to 1 GiB, each case timed), and prints one JSON line per
case: its name, exit code, stderr, wall and CPU seconds, and the seconds it may take (its --time-limit plus one, at
least `SECONDS`).
`tests/test_hostile_inputs.py` holds each line to its contract.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import os
import sys
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tests.hostile_api import API_CASES, ApiCase
from tests.wall_clock import stretch

#: Time one case may take (CPU time where it has no --time-limit, `tests/test_hostile_inputs.py`), and the
#: address space the whole run may use.
SECONDS, MEMORY = 2.0, 1 << 30


@dataclass(frozen=True)
class Case:
    """argv (files relative to the corpus folder), the exit code, a fragment its one stderr line holds, and the
    branch whose fix it awaits (the test then holds it to failing, so that the mark is dropped once it passes)."""

    name: str
    argv: tuple[str, ...]
    code: int
    fragment: str
    #: CPU seconds the case may take without a time limit (a case that draws figures takes more than `SECONDS`).
    cpu: float = SECONDS

    @property
    def seconds(self) -> float:
        """What the case may take: its time limit plus the grace second, and at least `SECONDS`; or its CPU time."""
        if "--time-limit" in self.argv:
            return max(SECONDS, float(self.argv[self.argv.index("--time-limit") + 1]) + 1.0)
        return self.cpu


def _npy_header(shape: tuple[int, ...]) -> bytes:
    text = f"{{'descr': '<f8', 'fortran_order': False, 'shape': {shape}, }}".encode()
    text += b" " * (118 - len(text)) + b"\n"
    return b"\x93NUMPY\x01\x00" + len(text).to_bytes(2, "little") + text


def _zeros_member(archive: zipfile.ZipFile, name: str, shape: tuple[int, ...], descr: str) -> None:
    """An .npy member of zeros declaring `shape`, written a megabyte at a time (its whole data, compressed)."""
    text = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}".encode()
    text += b" " * (-(len(text) + 11) % 64) + b"\n"
    with archive.open(name, "w") as member:
        member.write(b"\x93NUMPY\x01\x00" + len(text).to_bytes(2, "little") + text)
        left = int(np.prod(shape)) * np.dtype(descr).itemsize
        while left > 0:
            member.write(b"\0" * min(left, 1 << 20))
            left -= 1 << 20


def _npy_member(archive: zipfile.ZipFile, name: str, array: np.ndarray) -> None:
    buffer = io.BytesIO()
    np.save(buffer, array)
    archive.writestr(name, buffer.getvalue())


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
    (f / "wide.svm").write_text("".join(f"{'+1' if i % 3 else '-1'} 100000:{i % 7 + 1}\n" for i in range(100)))
    (f / "e400.csv").write_text("x,y\n1e400,1\n-1e400,0\n3e399,1\n")  # numbers past the doubles' range
    digits = "7" * 999 + "3"  # derived numbers (R², the bounds) pass Python's 4,300-digit str limit
    (f / "digits1000.csv").write_text(f"x,y\n0.{digits},1\n-1,0\n{digits[:500]}.{digits[500:]},1\n")
    os.mkfifo(f / "pipe.csv")
    with zipfile.ZipFile(f / "bomb.npz", "w", compression=zipfile.ZIP_DEFLATED,
                         compresslevel=1) as z:  # 320 MB of zeros in 1.4 MB (level 1: 0.5 s less CPU)
        with z.open("X.npy", "w") as member:
            member.write(_npy_header((20000, 2000)))
            for _ in range(305):
                member.write(b"\0" * (1 << 20))
        with z.open("y.npy", "w") as member:
            buffer = io.BytesIO()
            np.save(buffer, np.ones(20000))
            member.write(buffer.getvalue())
    with gzip.open(f / "bomb.csv.gz", "wb", compresslevel=1) as packed:  # 32 MB of one cell in 140 KB
        packed.write(b"0" * (32 << 20))
    (f / "cut.csv.gz").write_bytes(gzip.compress(b"x,y\n1,1\n-1,0\n" * 100, mtime=0)[:40])
    (f / "exits_on_import.py").write_text("import sys\nsys.exit(3)\n")
    cases = _issue_27(f) + _check_27(f)
    return cases + [
        Case("npy without rows", ("verify", "zero_rows.npy"), 2, "has no rows"),
        Case("npz without rows", ("verify", "zero_rows.npz"), 2, "has no rows"),
        Case("npz of Python objects", ("verify", "objects.npz"), 2, "never does unpickling"),
        Case("integer of 5000 digits", ("verify", "long_integer.csv"), 2, "5000 characters long"),
        Case("300 denominators 1/p", ("verify", "primes.csv"), 2, "--max-denominator-bits"),
        Case("npy header of 10^11 rows", ("verify", "huge_shape.npy"), 2, "huge_shape.npy: declares shape"),
        Case("truncated npy", ("verify", "truncated.npy"), 2, "truncated.npy: not a readable NumPy file"),
        Case("npz that inflates to 320 MB", ("verify", "bomb.npz"), 2, "more than the limit of"),
        Case("csv.gz that inflates to 32 MB, --max-cells 10^6", ("verify", "bomb.csv.gz", "--max-cells", "1000000"),
             2, "bomb.csv.gz: decompresses to more than the 16000000 bytes allowed"),
        Case("truncated csv.gz", ("verify", "cut.csv.gz"), 2, "cut.csv.gz: cannot be decompressed as gzip"),
        Case("LIBSVM index 99,999 in 18 bytes", ("verify", "far_index.svm"), 0, ""),
        Case("100 LIBSVM rows of index 100,000, --max-cells 10^6", ("verify", "wide.svm", "--max-cells", "1000000"),
             2, "wide.svm: 100 x 100000 values, more than the limit of 1000000 cells; raise it with --max-cells"),
        Case("100 LIBSVM rows of index 100,000, --max-cells 10^7, --time-limit 0.25",
             ("verify", "wide.svm", "--max-cells", "10000000", "--time-limit", "0.25"), 3,
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
        # drawing costs a second or more (tests/test_figure_magnitudes.py draws them at every magnitude): 1.7 to
        # 2.2 s of CPU on a quiet 2-core machine, past the 2 s every case without a time limit gets, hence its own
        # CPU allowance (a --time-limit of 5 s, wall time, ended it with exit 3 at a load of 8)
        Case("a value of 1,000 digits, as Markdown with its figures",
             ("verify", "digits1000.csv", "--format", "markdown", "-o", "digits1000.md"), 0, "", cpu=5.0),
        Case("check of a target that does not import", ("check", "no_such_module:fit"), 2, "no_such_module"),
        Case("check of a module that exits when imported", ("check", "exits_on_import:fit"), 2,
             "importing exits_on_import raised SystemExit: 3"),
        Case("check of a target looping in C, with a time limit",
             ("check", "tests.implementations.hostile:loops_in_c", "--timeout", "100", "--time-limit", "0.5"), 3,
             "the time limit of 0.5 s ran out while"),
        Case("check -o a directory", ("check", "tests.implementations.hostile:exits_3", "-o", "."), 2, "is a directory"),
    ]


def _issue_27(f: Path) -> list[Case]:
    """Issue 27's hostile inputs to the readers, and their kind."""
    with zipfile.ZipFile(f / "garbage_member.npz", "w") as z:
        z.writestr("X.npy", b"not an array at all")
        _npy_member(z, "y.npy", np.array([0, 1]))
    with zipfile.ZipFile(f / "zeros_20m.npz", "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        _zeros_member(z, "X.npy", (10_000_000, 2), "<f8")  # 20 M cells, about 300 KB
        _zeros_member(z, "y.npy", (10_000_000,), "<f8")
    with zipfile.ZipFile(f / "unicode.npz", "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        _zeros_member(z, "X.npy", (2, 1), "<U50000000")  # 400 MB of zeros in about 400 KB
        _npy_member(z, "y.npy", np.array([0, 1]))
    y = np.arange(2_500_000, dtype=np.int8) % 2
    np.savez_compressed(f / "two_classes_5m.npz", X=np.column_stack([2.0 * y - 1, np.zeros(len(y))]), y=y)
    np.save(f / "long_double.npy", np.array([[np.longdouble(1) / 3, 0], [2, 1]], dtype=np.longdouble))
    np.save(f / "complex.npy", np.ones((2, 2), dtype=np.complex128))
    np.save(f / "dates.npy", np.zeros((2, 2), dtype="datetime64[s]"))
    np.save(f / "records.npy", np.zeros((2, 2), dtype=[("a", "<i4")]))
    np.save(f / "three_d.npy", np.zeros((2, 2, 2)))
    np.save(f / "zero_d.npy", np.array(1.0))
    big = "9" * 1000
    (f / "digits_1000.csv").write_text(f"x,y\n{big},1\n-{big},0\n")  # 2 KB
    (f / "digits_2000.csv").write_text(f"x,y\n{big}e1000,1\n-{big}e1000,0\n")
    (f / "header_cr.csv").write_bytes(b"y,\r" + b"9" * 400 + b"\n0,1\n1,2\n")  # the CR ends the header line
    (f / "header_digits.csv").write_bytes(b"y," + b"9" * 400 + b"\n0,1\n1,2\n")  # a feature named by 400 digits
    (f / "old_mac.csv").write_bytes(b"x1,x2,y\r0,0,0\r0,1,0\r1,0,0\r1,1,1\r")
    (f / "utf16.csv").write_bytes("x1,x2,y\n0,0,0\n0,1,0\n1,0,0\n1,1,1\n".encode("utf-16"))
    (f / "wide_20m.svm").write_text("".join(f"{'+1' if i % 2 else '-1'} 100000:{i % 7 + 1}\n" for i in range(200)))
    (f / "huge_exponents.csv").write_text("x,y\n1E+99999999,0\n2,1\n")
    (f / "huge_exponent_label.svm").write_text("1e99999999 1:1\n-1 1:2\n")
    (f / "unicode_digits.csv").write_text("x,y\n\u0661\u0662,0\n2,1\n")
    rows: list[str] = []
    chosen: list[int] = []
    common = 1
    for p in _primes(300, 2**14):
        if (common * p).bit_length() > 4080:
            break
        common, chosen = common * p, chosen + [p]
    size = 0
    while size < 3_000_000:  # 3 MB of 1/p over a common denominator just under the cap
        i = len(rows)
        rows.append(f"1/{chosen[i % len(chosen)]},-1/{chosen[(7 * i + 3) % len(chosen)]},{i % 2}\n")
        size += len(rows[-1])
    (f / "denominator_3mb.csv").write_text("x1,x2,y\n" + "".join(rows))
    return [
        Case("npz member that is not an array", ("verify", "garbage_member.npz"), 2, "member 'X' is not a NumPy array"),
        Case("npz of 20 M zero cells in 300 KB", ("verify", "zeros_20m.npz"), 2,
             "declares shape (10000000, 2), more than the limit of"),
        Case("npz of dtype <U50000000", ("verify", "unicode.npz"), 2, "declares shape (2, 1) of dtype <U50000000"),
        # 1.3 s of CPU; held to 5 s of CPU, not to a --time-limit of 10 s (wall time: exit 3 at a load of 8)
        Case("npz at the cell limit (2.5 M rows)", ("verify", "two_classes_5m.npz", "--max-cells", "5000000"), 0, "",
             cpu=5.0),
        Case("npy of long doubles", ("verify", "long_double.npy"), 0, ""),
        Case("npy of complex numbers", ("verify", "complex.npy"), 2, "has dtype complex128"),
        Case("npy of dates", ("verify", "dates.npy"), 2, "has dtype datetime64[s]"),
        Case("npy of records", ("verify", "records.npy"), 2, "a record array of shape (2, 2) with 1 field(s)"),
        Case("npy of three dimensions", ("verify", "three_d.npy"), 2, "array of shape (2, 2, 2)"),
        Case("npy of no dimension", ("verify", "zero_d.npy"), 2, "array of shape ()"),
        Case("a 1,000-digit value, JSON", ("verify", "digits_1000.csv", "--format", "json"), 0, ""),
        Case("a 1,000-digit value, text", ("verify", "digits_1000.csv"), 0, ""),
        Case("a 2,000-digit value, JSON", ("verify", "digits_2000.csv", "--format", "json"), 0, ""),
        Case("a header cell holding a bare CR", ("verify", "header_cr.csv"), 2, "header_cr.csv:2: ragged row"),
        Case("a feature named by 400 digits", ("verify", "header_digits.csv"), 0, ""),
        Case("bare CRs as line ends", ("verify", "old_mac.csv"), 0, ""),
        Case("UTF-16 with its byte-order mark", ("verify", "utf16.csv"), 0, ""),
        Case("3 KB of LIBSVM making 20 M cells, --time-limit 5", ("verify", "wide_20m.svm", "--time-limit", "5"), 2,
             "wide_20m.svm: 200 x 100000 values, more than the limit of"),
        Case("exponent 99999999", ("verify", "huge_exponents.csv"), 2, "has exponent 99999999; at most 1000"),
        Case("a label of exponent 99999999", ("verify", "huge_exponent_label.svm"), 2, "'1e99999999', '-1' are neither"),
        Case("Arabic-Indic digits", ("verify", "unicode_digits.csv"), 2, "is not a number"),
        Case("3 MB of 1/p over a denominator just under the cap", ("verify", "denominator_3mb.csv"), 2,
             "over one common denominator take the memory of"),
        Case("bounds --orders 100000000 on AND, --time-limit 0.5",
             ("bounds", "--example", "and", "--orders", "100000000", "--time-limit", "0.5"), 0, ""),
    ]


def _check_27(f: Path) -> list[Case]:
    """Issue 27's hostile inputs to ``check``: rates past the doubles' range under every --dtype (refused under
    float, where no double is that rate; checked exactly otherwise), a module that hangs in C when imported."""
    (f / "hangs_on_import.py").write_text("sum(range(10**13))\n")  # one C call of hours: no signal handler runs
    far = "1" + "0" * 999 + "/3"  # 3.3e998
    cases = [Case("check of a module that hangs in C when imported, --time-limit 0.5",
                  ("check", "hangs_on_import:fit", "--time-limit", "0.5"), 3,
                  "the time limit of 0.5 s ran out while loading the implementation")]
    for eta, name, refusal in (("1e400", "1e400", "is beyond the largest double"),
                               ("1e-400", "1e-400", "is below the least positive double"),
                               (far, "10^999/3", "is beyond the largest double")):
        cases.append(Case(f"check --eta {name}", ("check", "tests.implementations:perceptron", "--eta", eta), 2,
                          refusal))
        cases += [Case(f"check --eta {name} --dtype {dtype}", ("check", "tests.implementations:exact_perceptron",
                                                               "--eta", eta, "--dtype", dtype, "--examples", "1"), 1, "")
                  for dtype in ("fraction", "object")]
    return cases


def _call(case: ApiCase) -> tuple[int, str]:
    """An API case's exit code in the command line's terms, and what it would print."""
    from verify_perceptron.errors import DataError, InvalidArgument

    try:
        wrong = case.call()
    except (DataError, InvalidArgument, ValueError, TypeError) as error:
        return 2, f"{type(error).__name__}: {error}"
    return (1, wrong) if wrong else (0, "")


def _warm_up() -> None:
    """Import the libraries some cases load (matplotlib, scikit-learn, Hypothesis) before any case is timed: a
    second or so of a process's life once, which would otherwise be charged to whichever case comes first."""
    for name in ("matplotlib.pyplot", "sklearn.base", "hypothesis"):
        with contextlib.suppress(ImportError):
            __import__(name)


def run(folder: Path) -> list[dict[str, object]]:
    """Every case through `cli.main` in this process, stderr captured, each timed."""
    from verify_perceptron.cli import main

    _warm_up()
    results = []
    for case in build(folder):
        err = io.StringIO()
        started, cpu = time.monotonic(), time.process_time()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                code = main(list(case.argv))
            except SystemExit as stop:  # noqa: PERF203 - main returns; a SystemExit would be a defect
                code = 100 + int(stop.code or 0)
            except BaseException as error:  # noqa: BLE001 - a traceback is what the contract forbids
                code, err = 99, io.StringIO(f"{type(error).__name__}: {error}")
        seconds = time.monotonic() - started
        results.append({"name": case.name, "code": code, "expected": case.code, "fragment": case.fragment,
                        "stderr": err.getvalue(), "seconds": seconds,
                        "cpu": time.process_time() - cpu, "limit": case.seconds,
                        "time_limited": "--time-limit" in case.argv,
                        # measured only for a case that took longer than a quiet machine needs (tests/wall_clock.py)
                        "stretch": stretch() if seconds >= case.seconds else 1.0})
    for api in API_CASES:
        started, cpu = time.monotonic(), time.process_time()
        try:
            code, stderr = _call(api)
        except BaseException as error:  # noqa: BLE001 - an internal error, as the command line's exit 4
            code, stderr = 4, f"{type(error).__name__}: {error}"
        results.append({"name": api.name, "code": code, "expected": api.code, "fragment": api.fragment,
                        "stderr": stderr, "seconds": time.monotonic() - started, "cpu": time.process_time() - cpu,
                        "limit": SECONDS, "time_limited": False, "stretch": 1.0})  # (held to its CPU time)
    return results


if __name__ == "__main__":
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    os.chdir(sys.argv[1])
    for line in run(Path(sys.argv[1])):
        print(json.dumps(line))
