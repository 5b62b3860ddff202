"""The fuzz suite: random and mutated bytes to every loader, random argument vectors to the CLI, in process.

The contract: a loader returns a `Dataset` or raises the toolkit's own `DataError`/`InvalidArgument` (never
another exception); the CLI returns 0, 1, 2 or 3, and a usage error (2) is one line on stderr without a
traceback. The CI profile runs each test on 60 examples (seconds); ``pytest --hypothesis-profile fuzz
tests/test_fuzz.py`` runs 20,000 each (docs/design.md, "Hostile input").
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from pathlib import Path

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from verify_perceptron.cli import main
from verify_perceptron.data.dataset import Dataset
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
    for at in [i for i in range(len(content) - 4) if content[i:i + 4] in (b"PK\x03\x04", b"PK\x01\x02")]:
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
