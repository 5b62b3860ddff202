"""Compressed data files (gzip, bzip2, xz, a ZIP archive of one file) are read as the file inside them, within
the cell limit, and LIBSVM files are told by their content whatever their name (LIBSVM's own data sets)."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import tempfile
import zipfile
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

from verify_perceptron.cli import main
from verify_perceptron.data import compressed
from verify_perceptron.data.readers import load_dataset
from verify_perceptron.errors import DataError

CSV = b"x1,x2,label\n0.1,3/7,1\n-1,0,0\n2.5,-1e-3,1\n"
LIBSVM = b"+1 1:0.1 2:3/7\n-1 1:-1\n+1 1:2.5 2:-1e-3\n"


def _zip(name: str, content: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name, content)
    return buffer.getvalue()


COMPRESSIONS: dict[str, Callable[[str, bytes], bytes]] = {
    ".gz": lambda name, content: gzip.compress(content, mtime=0),
    ".bz2": lambda name, content: bz2.compress(content),
    ".xz": lambda name, content: lzma.compress(content),
    ".zip": _zip,
}


@pytest.mark.parametrize("suffix", COMPRESSIONS)
@pytest.mark.parametrize(("inner", "content"), [("d.csv", CSV), ("heart_scale", LIBSVM), ("d.svm", LIBSVM)])
def test_a_compressed_file_reads_as_the_file_inside_it(tmp_path: Path, suffix: str, inner: str,
                                                       content: bytes) -> None:
    plain = tmp_path / inner
    plain.write_bytes(content)
    packed = tmp_path / (inner + suffix)
    packed.write_bytes(COMPRESSIONS[suffix](inner, content))
    expected, got = load_dataset(str(plain)), load_dataset(str(packed))
    assert (got.X, got.y, got.feature_names) == (expected.X, expected.y, expected.feature_names)
    assert got.source == str(packed)


def test_a_compressed_numpy_file_and_a_name_without_the_suffix(tmp_path: Path) -> None:
    plain = tmp_path / "d.npy"
    np.save(plain, np.array([[0.5, 1.0, 1.0], [-1.0, 2.0, 0.0]]))
    packed = tmp_path / "d.npy.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes(), mtime=0))
    assert load_dataset(str(packed)).X == load_dataset(str(plain)).X
    unnamed = tmp_path / "d.csv"  # compressed, though its name does not say so: told by its first bytes
    unnamed.write_bytes(gzip.compress(CSV, mtime=0))
    assert load_dataset(str(unnamed)).y == (1, -1, 1)


def test_an_error_inside_names_the_compressed_file_and_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv.gz"
    path.write_bytes(gzip.compress(b"a,b,y\n1,x,1\n2,3,0\n", mtime=0))
    with pytest.raises(DataError) as caught:
        load_dataset(str(path))
    assert str(caught.value).startswith(f"{path}:2: column b: 'x' is not a number")
    assert "verify-perceptron-" not in str(caught.value)  # not the temporary copy's name


@pytest.mark.parametrize(("name", "content", "named"), [
    ("cut.csv.gz", gzip.compress(CSV * 20, mtime=0)[:60], "cannot be decompressed as gzip"),
    ("bad.bz2", b"BZh9 this is no bzip2 stream", "cannot be decompressed as bzip2"),
    ("deflate.csv.gz", (lambda b: b[:30] + b"\xff" * 10 + b[40:])(gzip.compress(CSV * 50, mtime=0)),
     "cannot be decompressed as gzip"),  # a sound header over a broken stream: zlib's own error
    ("bad.xz", b"\xfd7zXZ\x00 nor an xz one", "cannot be decompressed as xz"),
], ids=["cut", "bzip2", "deflate", "xz"])
def test_a_damaged_compressed_file_is_bad_input_naming_it(tmp_path: Path, name: str, content: bytes,
                                                          named: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(DataError, match=f"{path}: {named}"):
        load_dataset(str(path))


def test_a_file_that_decompresses_past_the_limit_is_refused_before_it_is_all_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "scratch"))
    os.mkdir(tmp_path / "scratch")
    path = tmp_path / "bomb.csv.gz"
    path.write_bytes(gzip.compress(b"1,2,1\n-1,-2,0\n" * 100_000, mtime=0))  # 1.3 MB from about 5 KB
    written: list[int] = []

    class Counted(io.FileIO):
        def write(self, data: Any) -> int:
            written.append(len(data))
            return super().write(data)

    monkeypatch.setattr(compressed, "open", lambda path, mode: Counted(path, mode.replace("b", "")), raising=False)
    with pytest.raises(DataError, match=r"bomb.csv.gz: decompresses to more than the 16000 bytes allowed .* "
                                        r"the limit of 1000 cells; raise it with --max-cells N"):
        load_dataset(str(path), max_cells=1000)
    assert sum(written) <= 16_000  # (the first block read already passes it: nothing is written)
    assert os.listdir(tmp_path / "scratch") == []  # the temporary copy is gone
    assert load_dataset(str(path), max_cells=10**6).n_samples == 200_000


def test_the_command_reads_a_compressed_file_and_refuses_a_damaged_one(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "d.csv.xz"
    good.write_bytes(lzma.compress(CSV))
    assert main(["verify", str(good), "--no-progress"]) == 0
    assert f"{good}: 3 samples" in capsys.readouterr().out
    bad = tmp_path / "d.csv.gz"
    bad.write_bytes(b"\x1f\x8b\x08\x00 not gzip")
    assert main(["verify", str(bad), "--no-progress"]) == 2
    assert "cannot be decompressed as gzip" in capsys.readouterr().err


@pytest.mark.parametrize(("name", "first", "kind"), [
    ("a1a", b"-1 3:1 11:1 14:1\n+1 5:1 7:1\n", "libsvm"),
    ("covtype.libsvm.binary", b"1 1:2596 2:51 qid:3\n-1 1:2590 2:56\n", "libsvm"),
    ("d.txt", b"1 1:2596 2:51\n-1 1:2590 2:56\n", "libsvm"),
    ("times", b"t (h:m) y\n1 2 1\n-1 3 -1\n", "csv"),     # a colon in a header name is no LIBSVM line
    ("d.data", b"1 1:2596 2:51\n-1 1:2590 2:56\n", "csv"),  # .data names a table (UCI's files)
    ("plain", b"1 2 1\n-1 3 -1\n", "csv"),
])
def test_libsvm_files_are_told_by_their_first_line_whatever_their_name(tmp_path: Path, name: str, first: bytes,
                                                                       kind: str) -> None:
    path = tmp_path / name
    path.write_bytes(first)
    if kind == "libsvm":
        assert load_dataset(str(path)).X == load_dataset(str(path), format="libsvm").X
    elif name == "d.data":
        with pytest.raises(DataError, match="is not a number"):
            load_dataset(str(path))
    else:
        assert load_dataset(str(path)).X == load_dataset(str(path), format="csv").X


def test_an_npz_of_one_array_stays_the_numpy_reader_s(tmp_path: Path) -> None:
    # an .npz is a ZIP archive of one file when it holds one array: still a NumPy file, whose reader names it
    path = tmp_path / "d.npz"
    np.savez(path, X=np.array([[1.0, 2.0], [-1.0, 0.0]]))
    with pytest.raises(DataError, match=r"d.npz: needs arrays X and y .* found \['X'\]"):
        load_dataset(str(path))
    renamed = tmp_path / "arrays.zip"  # under another name, declared NumPy
    renamed.write_bytes(path.read_bytes())
    with pytest.raises(DataError, match=r"arrays.zip: needs arrays X and y .* found \['X'\]"):
        load_dataset(str(renamed), format="numpy")
