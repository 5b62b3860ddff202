"""The fuzz suite: random and mutated bytes to every loader, random argument vectors to the CLI, in process.

The contract: a loader returns a `Dataset` or raises the toolkit's own `DataError`/`InvalidArgument` (never
another exception); the CLI returns 0, 1, 2 or 3, and a usage error (2) is one line on stderr without a
traceback. The CI profile runs each test on 60 examples (seconds); ``pytest --hypothesis-profile fuzz
tests/test_fuzz.py`` runs 20,000 each (docs/design.md, "Hostile input").
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
import zipfile
from decimal import Decimal
from pathlib import Path
from unittest import mock
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.wall_clock import Stopwatch
from verify_perceptron.arguments import build_parser
from verify_perceptron.api.estimator import ExactPerceptron
from verify_perceptron.cli import main
from verify_perceptron.data.dataset import Dataset, from_arrays
from verify_perceptron.data.readers import load_dataset
from verify_perceptron.errors import DataError, InvalidArgument


def _npy(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


def _npz() -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, X=np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]), y=np.array([0, 1, 1]))
    return buffer.getvalue()


#: A valid file of each kind the loaders read, to mutate.
VALID = {
    ".csv": b"x1,x2,y\n0,0,0\n0,1,0\n1,0,0\n1,1,1\n",
    ".tsv": b"x1\tx2\ty\n0.5\t1/3\t0\n2\t-1e-3\t1\n",
    ".svm": b"+1 1:1 2:1\n-1 1:0.5 3:2\n",
    ".npy": _npy(np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 1.0]])),
    ".npz": _npz(),
}


def _load(suffix: str, content: bytes) -> None:
    """Write `content` to a file and load it: the contract's only allowed outcomes."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"data{suffix}"
        path.write_bytes(content)
        try:
            assert isinstance(load_dataset(str(path)), Dataset)
        except (DataError, InvalidArgument) as error:
            assert str(error) and "\n" not in str(error).strip()


@given(st.sampled_from(sorted(VALID)), st.binary(max_size=3000))
def test_random_bytes_load_or_raise_the_toolkits_error(suffix: str, content: bytes) -> None:
    _load(suffix, content)


@st.composite
def _mutated(draw: st.DrawFn) -> tuple[str, bytes]:
    suffix = draw(st.sampled_from(sorted(VALID)))
    data = bytearray(VALID[suffix])
    for _ in range(draw(st.integers(1, 8))):
        where = draw(st.integers(0, max(len(data) - 1, 0)))
        kind = draw(st.sampled_from(("replace", "insert", "delete", "cut")))
        byte = draw(st.sampled_from((0, 10, 13, 34, 44, 45, 47, 48, 57, 58, 101, 110, 255)) | st.integers(0, 255))
        if kind == "replace" and data:
            data[where] = byte
        elif kind == "insert":
            data.insert(where, byte)
        elif kind == "delete" and data:
            del data[where]
        elif kind == "cut":
            del data[where:]
    return suffix, bytes(data)


@given(_mutated())
def test_mutated_valid_files_load_or_raise_the_toolkits_error(case: tuple[str, bytes]) -> None:
    _load(*case)


_VALUES = st.sampled_from(("0", "-1", "1", "1/2", "3/7", "0.1", "1e9", "9" * 40, "-5", "nan", "inf", "", "x",
                           "2**63", "1,2", "1,2,3", "-1/0", "classic", "hard-limiter-plus", "003", "batch"))
_FLAGS = st.sampled_from(("--convention", "--eta", "--mode", "--max-epochs", "--time-limit", "--separator",
                          "--format", "--exact", "--require-convergence", "--averaged", "--compare", "--label-column",
                          "--positive", "--delimiter", "--max-denominator-bits", "--no-such-flag", "-o"))


@st.composite
def _argv(draw: st.DrawFn) -> list[str]:
    argv = [draw(st.sampled_from(("verify", "verify", "bounds", "--version", "nonsense")))]
    argv.append(draw(st.sampled_from(("and.csv", "--example", "missing.csv"))))
    if argv[-1] == "--example":
        argv.append(draw(st.sampled_from(("and", "or", "xor", "modified-or", "nope"))))
    for _ in range(draw(st.integers(0, 5))):
        flag = draw(_FLAGS)
        argv.append(flag)
        if flag == "--format":
            argv.append(draw(st.sampled_from(("text", "json", "xml"))))
        elif flag == "-o":
            argv.append(draw(st.sampled_from(("and.csv", "/dev/null", "out.txt"))))
        elif flag not in ("--exact", "--require-convergence", "--averaged", "--compare", "--no-such-flag"):
            argv.append(draw(_VALUES))
    return argv


@given(_argv())
def test_random_argument_vectors_exit_with_a_documented_code(argv: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "and.csv").write_text("x1,x2,y\n0,0,0\n0,1,0\n1,0,0\n1,1,1\n")
        here = os.getcwd()
        err = io.StringIO()
        os.chdir(folder)
        try:
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                code = main(argv)
        finally:
            os.chdir(here)
    assert code in (0, 1, 2, 3), (argv, code, err.getvalue())
    assert "Traceback" not in err.getvalue()
    if code == 2:
        assert len(err.getvalue().strip().splitlines()) == 1, (argv, err.getvalue())


def test_found_by_the_campaign_an_npz_with_an_unknown_compression_method_is_bad_input() -> None:
    # zipfile raises NotImplementedError for a compression method it does not know (here 99).
    content = bytearray(_npz())
    for at in [i for i in range(len(content) - 4) if bytes(content[i:i + 4]) in (b"PK\x03\x04", b"PK\x01\x02")]:
        offset = 8 if content[at + 2:at + 4] == b"\x03\x04" else 10
        content[at + offset:at + offset + 2] = (99).to_bytes(2, "little")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "data.npz"
        path.write_bytes(bytes(content))
        try:
            load_dataset(str(path))
        except DataError as error:
            assert "not a readable NumPy file" in str(error)
        else:
            raise AssertionError("an unreadable .npz was loaded")


def test_found_by_the_campaign_an_npz_member_name_that_is_not_utf8_is_bad_input() -> None:
    # The general-purpose flag 0x800 says the member's name is UTF-8; a byte 0xb0 in it is not.
    content = bytearray(_npz())
    at = content.index(b"PK\x03\x04")
    name = content.index(b"X.npy")
    content[at + 7] |= 0x08  # bit 11 of the flags: the name is UTF-8
    content[name] = 0xB0
    central = content.index(b"PK\x01\x02")
    content[central + 9] |= 0x08
    content[content.index(b"X.npy", central)] = 0xB0
    _load(".npz", bytes(content))


# -- the option parser: real option names, their values and junk, for every command but check (below) ------------


def _grammar() -> dict[str, dict[str, tuple[str, ...] | None]]:
    """``{command: {option: its choices, or () for a value, or None for a flag}}``, read from the real parser."""
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    grammar: dict[str, dict[str, tuple[str, ...] | None]] = {}
    for name in ("verify", "bounds", "proofs", "check"):
        options: dict[str, tuple[str, ...] | None] = {}
        for action in commands[name]._actions:
            for option in action.option_strings:
                options[option] = None if action.nargs == 0 else tuple(action.choices or ())
        grammar[name] = options
    return grammar


_GRAMMAR = _grammar()
#: Files in the folder a command line runs in, and names that are not there; each inside the temporary folder.
_PATHS = ("and.csv", "xor.csv", "missing.csv", "folder", "earlier.md", "earlier_figures", "t.jsonl", "out.txt",
          "out.md", "sub/out.md", "../up.txt", "/dev/null", "", "x\x00y", "\x1b[2Jz.csv", "a\nb.md", "folder/",
          "r" * 300 + ".md", "r" * 250 + ".md")
_JUNK = ("0", "-1", "1", "2", "1/2", "3/7", "0.1", "1e9", "1e-9", "9" * 40, "nan", "inf", "", " ", "x", "-", "--",
         "1,2,3", "-4,3,2", "[1 0 1]", "classic", "003", "batch", "text", "markdown", "\x1b[31m", "\u202e",
         "\x9b", "é", "a\nb", "--nope", "-o", "1e-400", "-0", "0x10", "1_0", "\u0663", "1e1001")


def _value(draw: st.DrawFn, option: str, choices: tuple[str, ...]) -> str:
    if option in ("-o", "--output", "--trace", "--note") or not choices and draw(st.integers(0, 4)) == 0:
        return draw(st.sampled_from(_PATHS + _JUNK))
    if choices and draw(st.integers(0, 3)) > 0:
        return draw(st.sampled_from(sorted(choices)))
    return draw(st.sampled_from(_JUNK) | st.text(max_size=6))


@st.composite
def _command_lines(draw: st.DrawFn) -> list[str]:
    command = draw(st.sampled_from(("top", "verify", "verify", "bounds", "proofs")))
    if command == "top":
        return draw(st.lists(st.sampled_from(("--version", "--help", "-h", "--nope", "verify", "bounds", "proofs",
                                              "check", "nonsense", "", "\x1b[2J")), max_size=3))
    argv = [command]
    options = _GRAMMAR[command]
    if command != "proofs" and draw(st.integers(0, 3)) > 0:
        argv.append(draw(st.sampled_from(_PATHS)))
    for _ in range(draw(st.integers(0, 6))):
        option = draw(st.sampled_from(sorted(options)) | st.sampled_from(_JUNK))
        argv.append(option)
        if options.get(option) is not None and draw(st.integers(0, 9)) > 0:
            argv.append(_value(draw, option, options[option] or ()))
    if command != "proofs":
        argv += ["--time-limit", "2"]  # the last one counts: a drawn --time-limit is still parsed and checked
    return argv


def _files(folder: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None) for p in sorted(folder.rglob("*"))}


def _quick_proofs(note: str | None = None, format: str = "text") -> str:
    from verify_perceptron.proofs.catalog import FORMATS, select

    select(note)  # the real check of --note, without SymPy's minutes
    if format not in FORMATS:
        raise InvalidArgument(f"format={format!r} must be one of {', '.join(FORMATS)}")
    return "the proofs\n"


@pytest.mark.slow  # 6 s; by default the hostile corpus (test_hostile_inputs) holds the command line to this contract
@given(_command_lines())
def test_random_command_lines_exit_0_to_3_say_a_usage_error_in_one_line_and_write_only_in_their_folder(
        argv: list[str]) -> None:
    # Drawing figures and checking proofs take seconds and are tested elsewhere: here they are quick stand-ins.
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "work"
        (work / "folder").mkdir(parents=True)
        (work / "and.csv").write_text("x1,x2,y\n0,0,0\n0,1,0\n1,0,0\n1,1,1\n")
        (work / "xor.csv").write_text("x1,x2,y\n0,0,0\n0,1,1\n1,0,1\n1,1,0\n")
        (work / "earlier.md").write_text("an earlier report\n")
        (work / "t.jsonl").write_text("an earlier trace\n")
        before = _files(Path(tmp))
        out, err, here = io.StringIO(), io.StringIO(), os.getcwd()
        figures = {"bounds": "<svg/>"}
        with contextlib.ExitStack() as stack:
            stack.enter_context(mock.patch("verify_perceptron.report.plots.report_figures",
                                           lambda report, data=None, *, warnings=None: figures))
            stack.enter_context(mock.patch("verify_perceptron.proofs.render_proofs", _quick_proofs))
            stack.enter_context(mock.patch("verify_perceptron.proofs.proof_data", lambda note=None: []))
            stack.enter_context(contextlib.redirect_stdout(out))
            stack.enter_context(contextlib.redirect_stderr(err))
            os.chdir(work)
            stack.callback(os.chdir, here)
            code = main(argv)
        after = _files(Path(tmp))
    shown = err.getvalue()
    assert code in (0, 1, 2, 3), (argv, code, shown)
    assert "Traceback" not in shown and "internal error" not in shown, (argv, shown)
    assert not any(c < " " and c not in "\n\t" or "\x7f" <= c <= "\x9f" for c in shown + out.getvalue()), (argv, shown)
    if code == 2:
        assert shown.count("\n") == 1 and shown.endswith("\n"), (argv, shown)
        assert after == before, argv  # a usage error writes nothing
    assert not any(name.endswith(".tmp") for name in after), (argv, sorted(after))  # no temporary file left
    changed = {name for name in after if before.get(name, b"new") != after[name]}
    assert all(name.startswith("work/") or name == "up.txt" for name in changed), (argv, changed)
    assert os.path.exists("/dev/null") and not os.path.isfile("/dev/null")


# --- check's command line (issue 27): its options with extreme and junk values, on quick targets -------------------

_CHECK_TARGETS = ("tests.implementations:perceptron", "tests.implementations:exact_perceptron",
                  "tests.implementations:strict_negative", "tests.implementations:ClassicPerceptron(max_epochs=3)",
                  "tests.implementations.hostile:exits_3", "tests.implementations.hostile:huge_wrong",
                  "tests.implementations.hostile:far_rate_last_update_unreported", "tests.implementations:nothing",
                  "tests.implementations:perceptron(", "no_such_module:fit", "tests.implementations", "")
#: Values that probe each option's edges: past the doubles' range, below the clock, past the int-string limit.
_CHECK_VALUES = {
    "--eta": ("1e400", "1e-400", "1" + "0" * 999 + "/3", "1/" + "7" * 1000, "5e-324", "1e308", "1/3", "0.5", "0"),
    "--float-eta": ("1e400", "1e-400", "5e-324", "1e308", "0.1", "1" * 400),
    "--max-epochs": ("1", "2", "3", "7", str(2**63), "9" * 50),
    "--timeout": ("1e-9", "0.01", "1e-400", "1e400", "1e9", "5"),
    "--time-limit": ("1e-9", "0.05", "1e400"),
    "--seed": ("0", "-1", "9" * 5000, str(2**64)),
    "--examples": ("1", "2", "0"),
}


@st.composite
def _check_lines(draw: st.DrawFn) -> list[str]:
    argv = ["check", draw(st.sampled_from(_CHECK_TARGETS))]
    options = {k: v for k, v in _GRAMMAR["check"].items() if k not in ("--command", "-o", "--output")}
    for _ in range(draw(st.integers(0, 5))):
        option = draw(st.sampled_from(sorted(options)))
        argv.append(option)
        if options[option] is not None:
            values = _CHECK_VALUES.get(option, ())
            argv.append(draw(st.sampled_from(values)) if values and draw(st.integers(0, 3)) != 0 else
                         _value(draw, option, options[option] or ()))
    return argv + ["--examples", "1", "--time-limit", "3"]  # the last one counts: a check of seconds at most


# A whole check each; the check's own search is a @given inside this one, as it would be in a user's property test.
@settings(max_examples=max(1, settings().max_examples // 12),
          suppress_health_check=[*settings().suppress_health_check, HealthCheck.nested_given])
@given(_check_lines())
@example(["check", "tests.implementations:perceptron", "--eta", "1e400", "--examples", "1", "--time-limit", "3"])
@example(["check", "tests.implementations.hostile:huge_wrong", "--dtype", "fraction", "--examples", "1",
          "--time-limit", "3"])
def test_random_check_command_lines_exit_0_to_3_in_one_line_within_the_time_limit(argv: list[str]) -> None:
    out, err = io.StringIO(), io.StringIO()
    with Stopwatch() as watch, contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    shown = err.getvalue()
    assert code in (0, 1, 2, 3), (argv, code, shown)
    assert "Traceback" not in shown and "internal error" not in shown, (argv, shown)
    assert watch.within(3, 2.5), (argv, watch)  # the time limit, then its grace second and some slack (CPU work)
    if code in (2, 3):
        *progress, last = shown.splitlines()
        # --progress asked for progress lines on a stream that is no terminal: one a second, each naming the limit
        assert not progress or ("--progress" in argv and all("s of the 3 s limit" in p for p in progress)), (argv, shown)
        assert last and shown.endswith("\n") and not out.getvalue(), (argv, shown)


# --- the check protocol: what a command writes to {out} and {updates} ------------------------------------------
# Every outcome is a pass or a finding, never an exception, and within the call's timeout. The readers are
# fuzzed directly (many examples, no process); a smaller share goes through a real command under the harness.

_LITERALS = st.sampled_from(("0", "1", "-1", "2", "1/2", "-3/7", "0.5", "1e-3", "1e400", "1e-400", "9" * 1200,
                             "1_0", "١", "0x1p3", "nan", "inf", "-0", "+2", " 3 ", "1/0", "", "\x00", "\ufeff1",
                             "1\u2028", "2e999999", "٣/٤"))
_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8) | _LITERALS,
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                     max_leaves=12)


@st.composite
def _protocol_files(draw: st.DrawFn) -> tuple[bytes, bytes]:
    """What a command might leave in {out} and {updates}: junk, odd numbers, JSON of any shape, deep nesting,
    long lines."""
    def weights() -> bytes:
        kind = draw(st.sampled_from(("right", "junk", "values", "long")))
        if kind == "right":  # so that the updates file is read too
            return b"2\n0\n"
        if kind == "junk":
            return draw(st.binary(min_size=1, max_size=300))
        if kind == "long":
            return draw(st.sampled_from((b"1", b"\n", b"9" * 1100 + b"\n"))) * draw(st.integers(1, 3000))
        lines = draw(st.lists(_LITERALS, max_size=4))
        return "\n".join(lines).encode("utf-8", "surrogatepass")

    def update_line() -> str:
        kind = draw(st.sampled_from(("record", "json", "nested", "junk")))
        if kind == "record":
            sample = draw(st.integers(-2, 3) | st.sampled_from(("0", 1.0, None, "١")))
            return json.dumps({"sample": sample, "weights": draw(st.lists(_LITERALS | st.integers() | st.floats(),
                                                                             max_size=4))})
        if kind == "json":
            return json.dumps(draw(_JSON))
        if kind == "nested":
            depth = draw(st.integers(1, 9000))
            return "[" * depth + "]" * draw(st.integers(0, depth))
        return draw(st.text(max_size=40))

    updates = "\n".join(update_line() for _ in range(draw(st.integers(0, 4))))
    return weights(), updates.encode("utf-8", "surrogatepass")


@given(_protocol_files(), st.booleans())
def test_random_command_files_are_read_or_refused_in_one_line(files: tuple[bytes, bytes], exact: bool) -> None:
    from verify_perceptron.harness._protocol import CommandFailed, read_updates, read_weights

    with tempfile.TemporaryDirectory() as folder:
        out, updates = Path(folder) / "out.txt", Path(folder) / "updates.jsonl"
        out.write_bytes(files[0])
        updates.write_bytes(files[1])
        for read in (lambda: read_weights(str(out), 1, exact), lambda: read_updates(str(updates), 1, exact)):
            try:
                read()
            except CommandFailed as failure:
                assert failure.reason and "\n" not in failure.reason, failure.reason


@pytest.mark.slow  # 5 s; by default test_random_command_files_are_read_or_refused_in_one_line reads such files
@settings(max_examples=max(1, settings().max_examples // 8))  # a process and a diagnosis each
@given(_protocol_files())
def test_random_command_files_end_in_a_pass_or_a_finding_within_the_timeout(files: tuple[bytes, bytes]) -> None:
    from verify_perceptron.harness import check_dataset, command_implementation

    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "out").write_bytes(files[0])
        Path(folder, "updates").write_bytes(files[1])
        command = command_implementation(f"sh -c 'cat \"$3\" > \"$1\"; cat \"$4\" > \"$2\"' sh {{out}} {{updates}} "
                                         f"{folder}/out {folder}/updates {{train}}")
        watch = Stopwatch()
        case = check_dataset(command, [["-1"], ["1"]], [-1, 1], call_timeout=5)
        assert watch.within(5, 3), watch
    assert case.passed or case.findings


# --- the readers from their grammar (issue 27): literals of every syntax, line ends, encodings, dtypes -------

#: A load may take at most this long (in process, each example): the readers refuse before they work hard.
LOAD_SECONDS = 5.0

_LITERAL = st.one_of(
    st.integers(-10**6, 10**6).map(str),
    st.fractions(max_denominator=10**6).map(str),
    st.decimals(places=None).map(str),  # NaN, Infinity, sNaN, 1E+999999999 among them
    st.floats().map(repr),
    st.builds("{}e{}".format, st.integers(-999, 999), st.integers(-10**12, 10**12)),  # exponents of any size
    st.builds("{}/{}".format, st.integers(-10, 10), st.integers(-2, 10**1200)),
    st.sampled_from(["", " ", "x", "1_0", "\u0661\u0662", "\uff11", "0x1f", "1/0", "--1", "1e", ".", "+.5", "5.",
                     "\ufeff1", "1\x00", "9" * 1100, "1" + "0" * 5000, "0." + "0" * 999 + "1e-1000", "1e1000"]),
    st.text(max_size=6),
)
_LABEL = st.sampled_from(["0", "1", "-1", "+1", "a", "b", "", "1.0", "nan", "2", " 1 "])


@st.composite
def _csv(draw: st.DrawFn) -> bytes:
    sep = draw(st.sampled_from([",", ";", "\t", " "]))
    width = draw(st.integers(1, 4))
    rows = [sep.join(draw(st.lists(_LITERAL, min_size=width, max_size=width)) + [draw(_LABEL)])
            for _ in range(draw(st.integers(1, 6)))]
    if draw(st.booleans()):
        rows.insert(0, sep.join([f"x{j}" for j in range(width)] + [draw(st.sampled_from(["y", "label", "\r", '"q"']))]))
    text = draw(st.sampled_from(["\n", "\r\n", "\r"])).join(rows) + draw(st.sampled_from(["", "\n", "\r"]))
    return text.encode(draw(st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "latin-1"])), errors="replace")


@st.composite
def _libsvm(draw: st.DrawFn) -> bytes:
    index = st.one_of(st.integers(-1, 12).map(str), st.integers(0, 200_000).map(str), st.sampled_from(["qid", "1" * 30]))
    lines = []
    for _ in range(draw(st.integers(1, 6))):
        tokens = [f"{draw(index)}:{draw(_LITERAL)}" for _ in range(draw(st.integers(0, 4)))]
        lines.append(" ".join([draw(_LABEL)] + tokens) + draw(st.sampled_from(["", " # note", "#"])))
    return draw(st.sampled_from(["\n", "\r\n", "\r"])).join(lines).encode("utf-8", errors="replace")


_DTYPES = ["<f8", "<f4", "<f2", "<g", "<i8", "<u8", "<i1", "|b1", "<c16", "<M8[s]", "<m8[s]", "<U3", "|S3",
           "V4", [("a", "<i4"), ("b", "<f8")]]


@st.composite
def _array(draw: st.DrawFn, *, two_d: bool) -> np.ndarray:
    dtype = np.dtype(draw(st.sampled_from(_DTYPES)))
    shape = draw(st.sampled_from([(3, 2), (4, 3), (2, 2)] if two_d else [(), (0,), (3,), (0, 3), (3, 0), (2, 2, 2)]))
    raw = draw(st.binary(min_size=dtype.itemsize * int(np.prod(shape)), max_size=dtype.itemsize * int(np.prod(shape))))
    return np.frombuffer(raw, dtype=dtype).reshape(shape).copy()  # any bit pattern: NaN, inf, NaT, odd strings


@st.composite
def _numpy_file(draw: st.DrawFn) -> tuple[str, bytes]:
    if draw(st.booleans()):
        return ".npy", _npy(draw(st.one_of(_array(two_d=True), _array(two_d=False))))
    buffer = io.BytesIO()
    X = draw(st.one_of(_array(two_d=True), _array(two_d=False)))
    y = draw(_array(two_d=False)) if draw(st.booleans()) else draw(st.sampled_from([np.array([0, 1, 1]), np.array([1.0, 0.0]), np.zeros(4)]))
    members = {draw(st.sampled_from(["X", "x", "data"])): X, draw(st.sampled_from(["y", "target", "z"])): y}
    with zipfile.ZipFile(buffer, "w", compression=draw(st.sampled_from([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED]))) as z:
        for name, array in members.items():
            z.writestr(f"{name}.npy", _npy(array) if draw(st.integers(0, 5)) else draw(st.binary(max_size=40)))
    return ".npz", buffer.getvalue()


def _timed_load(suffix: str, content: bytes) -> None:
    watch = Stopwatch()
    _load(suffix, content)
    assert watch.within(0, LOAD_SECONDS), watch


@given(_csv())
def test_csv_text_of_every_literal_syntax_loads_or_raises_one_line(content: bytes) -> None:
    _timed_load(".csv", content)


@given(_libsvm())
def test_libsvm_text_of_every_index_and_literal_loads_or_raises_one_line(content: bytes) -> None:
    _timed_load(".svm", content)


@given(_numpy_file())
def test_numpy_files_of_every_dtype_and_shape_load_or_raise_one_line(case: tuple[str, bytes]) -> None:
    _timed_load(*case)


class _Unprintable:
    def __repr__(self) -> str:
        raise RuntimeError("repr")


_VALUE = st.one_of(
    st.integers(-10**6, 10**6), st.integers(-10**2100, 10**2100), st.floats(), st.fractions(),
    st.decimals(), st.builds(Decimal, st.sampled_from(["1E+99999999", "-1E-99999999", "sNaN", "1E+1000"])),
    _LITERAL, st.sampled_from([None, True, b"1", [1], {1}, {"a": 1}, np.float32(0.5), np.longdouble(1) / 3,
                               np.datetime64(1, "s"), np.timedelta64(1, "s"), complex(1, 1), _Unprintable()]),
)
_Y = st.one_of(st.integers(0, 1), st.sampled_from(["a", "b", None, float("nan"), True, 10**5000, 2, 1.5]))


@st.composite
def _in_memory(draw: st.DrawFn) -> tuple[Any, Any]:
    n, d = draw(st.integers(1, 5)), draw(st.integers(1, 3))
    kind = draw(st.sampled_from(["rows", "array", "masked", "frame", "odd"]))
    if kind == "rows":
        X: Any = [[draw(_VALUE) for _ in range(d)] for _ in range(n)]
    elif kind == "array":
        X = draw(st.one_of(_array(two_d=True), _array(two_d=False)))
        n = len(X) if X.ndim else 1
    elif kind == "masked":
        X = np.ma.masked_array(np.arange(n * d).reshape(n, d), mask=draw(st.lists(st.booleans(), min_size=n * d, max_size=n * d)))
    elif kind == "frame":
        X = FakeFrame({f"c{j}": [draw(_VALUE) for _ in range(n)] for j in range(d)})
    else:
        X = draw(st.sampled_from([{(1,), (2,)}, {"a": [1]}, 5, "a.csv.missing", [[]], [], [[1], [1, 2]], iter([[1], [2]])]))
    y: Any = [draw(_Y) for _ in range(n)]
    if draw(st.booleans()):
        y = draw(st.sampled_from([np.array(y + [None], dtype=object)[:-1], set(range(n)), 3, np.ma.masked_array([0] * n, mask=[True] * n)]))
    return X, y


class FakeFrame:
    """A DataFrame as the readers see one (``to_numpy``, ``columns``, ``dtypes``): pandas is not a dependency."""

    def __init__(self, columns: dict[str, list[Any]]) -> None:
        self.columns = list(columns)
        self._arrays = [np.array(v + [None], dtype=object)[:-1] for v in columns.values()]
        self.dtypes = [a.dtype for a in self._arrays]

    def to_numpy(self, dtype: Any = None) -> Any:
        return np.array([list(r) for r in zip(*(a.tolist() for a in self._arrays))] + [None], dtype=object)[:-1]


@given(_in_memory(), st.sampled_from(["binary", "decimal"]))
def test_values_in_memory_make_a_dataset_or_one_line_naming_the_value(case: tuple[Any, Any], floats: str) -> None:
    X, y = case
    watch = Stopwatch()
    try:
        assert isinstance(from_arrays(X, y, floats=floats), Dataset)
    except (DataError, InvalidArgument) as error:
        assert str(error) and "\n" not in str(error).strip()
    assert watch.within(0, LOAD_SECONDS), watch


@given(_in_memory())
def test_the_estimator_fits_or_raises_a_value_or_type_error_on_any_input(case: tuple[Any, Any]) -> None:
    X, y = case
    try:
        ExactPerceptron(max_epochs=3).fit(X, y)
    except (ValueError, TypeError) as error:  # scikit-learn's conventions: DataError is a ValueError
        assert str(error) and "\n" not in str(error).strip()


# --- the memory-heavy cases, under an address-space limit in a child process --------------------------------

#: The address space the child that loads the heavy cases may use, as tests/hostile_corpus.py gives its run.
MEMORY = 1 << 30

_CHILD = """
import json, resource, sys, time
resource.setrlimit(resource.RLIMIT_AS, ({memory}, {memory}))
from verify_perceptron.data.readers import load_dataset
from verify_perceptron.errors import DataError
for path in sys.argv[1:]:
    started = time.monotonic()
    try:
        load_dataset(path)
        outcome = "ok"
    except DataError as error:
        outcome = "DataError: " + str(error)
    except BaseException as error:
        outcome = "OTHER " + type(error).__name__ + ": " + str(error)[:300]
    print(json.dumps([path, outcome, time.monotonic() - started]), flush=True)
"""


def _header(shape: tuple[int, ...], descr: str) -> bytes:
    text = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}".encode()
    text += b" " * (-(len(text) + 11) % 64) + b"\n"
    return b"\x93NUMPY\x01\x00" + len(text).to_bytes(2, "little") + text


def _zeros_npz(path: Path, shape: tuple[int, int], descr: str, cells_written: int) -> None:
    """An .npz whose X declares `shape` and holds `cells_written` zero cells (compressed: a few hundred KB)."""
    itemsize = np.dtype(descr).itemsize
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        with z.open("X.npy", "w") as member:
            member.write(_header(shape, descr))
            left = cells_written * itemsize
            while left > 0:
                member.write(b"\0" * min(left, 1 << 22))
                left -= 1 << 22
        z.writestr("y.npy", _npy(np.arange(shape[0]) % 2))


@st.composite
def _heavy(draw: st.DrawFn, folder: Path) -> list[Path]:
    made = []
    rows = draw(st.sampled_from([2, 1000, 1_000_000, 5_000_000, 50_000_000]))
    cols = draw(st.sampled_from([1, 2, 3]))
    descr = draw(st.sampled_from(["<f8", "<i8", "<f4", "<U3", "<U50000000", "|b1", "<c16", "<g"]))
    whole = draw(st.booleans()) and rows * cols <= 5_000_000 and np.dtype(descr).itemsize <= 16
    made.append(folder / "a.npz")
    _zeros_npz(made[-1], (rows, cols), descr, rows * cols if whole else draw(st.integers(0, 1000)))
    width = draw(st.sampled_from([10, 1000, 100_000]))
    lines = draw(st.sampled_from([2, 99, 100, 101, 5000]))
    made.append(folder / "b.svm")
    made[-1].write_text("".join(f"{k % 2} {width}:{k % 7 + 1}\n" for k in range(lines)))
    count = draw(st.sampled_from([10, 300, 3000]))
    primes = [p for p in range(16385, 16385 + 40 * count) if all(p % q for q in range(2, 129))][:count]
    made.append(folder / "c.csv")
    made[-1].write_text("x,y\n" + "".join(f"1/{p},{k % 2}\n" for k, p in enumerate(primes)))
    return made


@settings(max_examples=max(2, settings().max_examples // 30))  # settings(): the loaded profile's
@given(st.data())
def test_memory_heavy_files_load_or_raise_one_line_within_an_address_space_limit(tmp_path_factory: Any,
                                                                              data: st.DataObject) -> None:
    folder = tmp_path_factory.mktemp("heavy")
    paths = data.draw(_heavy(folder))
    done = subprocess.run([sys.executable, "-c", _CHILD.format(memory=MEMORY), *map(str, paths)],
                          capture_output=True, text=True, timeout=120, cwd=Path(__file__).resolve().parent.parent)
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(results) == len(paths), done.stderr[-2000:]
    for path, outcome, seconds in results:
        assert outcome == "ok" or (outcome.startswith("DataError: ") and "\n" not in outcome), (path, outcome)
        assert seconds < LOAD_SECONDS, (path, seconds)
