"""`verify_perceptron.data.files.read_text`: what a CSV or LIBSVM file's bytes are read as, whatever their line
ends and Unicode encoding."""

from __future__ import annotations

import gzip
import io
import re
import zipfile
from fractions import Fraction
from pathlib import Path

import pytest

from tests.wall_clock import Stopwatch
from verify_perceptron.data.readers import load_dataset
from verify_perceptron.errors import DataError

CSV = "x1,x2,y\n0,0,0\n0,1,0\n1,0,0\n1,1,1\n"
SVM = "-1 2:0\n-1 2:1\n-1 1:1\n+1 1:1 2:1\n"


@pytest.mark.parametrize("suffix, text", [(".csv", CSV), (".svm", SVM), (".tsv", CSV.replace(",", "\t"))])
@pytest.mark.parametrize("line_end", ["\r\n", "\r"])
def test_carriage_returns_end_lines_as_newlines_do(tmp_path: Path, suffix: str, text: str, line_end: str) -> None:
    # A file of bare carriage returns (an old Mac file) was one line, and its first cell "not a number".
    plain, other = tmp_path / f"plain{suffix}", tmp_path / f"other{suffix}"
    plain.write_text(text)
    other.write_bytes(text.replace("\n", line_end).encode())
    a, b = load_dataset(str(plain)), load_dataset(str(other))
    assert (a.X, a.y, a.feature_names) == (b.X, b.y, b.feature_names)


def test_a_bad_cell_after_bare_carriage_returns_is_named_by_its_line(tmp_path: Path) -> None:
    path = tmp_path / "d.csv"
    path.write_bytes(b"x,y\r1,0\r\r2,1\rq,0\r")
    with pytest.raises(DataError, match=r"d.csv:5: column x: 'q' is not a number"):
        load_dataset(str(path))


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-8-sig"])
def test_a_unicode_file_with_a_byte_order_mark_is_read_as_its_encoding(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "d.csv"
    data = CSV.encode(encoding)
    if encoding in ("utf-16-le", "utf-16-be"):  # these codecs write no mark: put it first
        data = ("\ufeff" + CSV).encode(encoding)
    path.write_bytes(data)
    assert load_dataset(str(path)).X == load_dataset(_written(tmp_path, CSV)).X


def _written(folder: Path, text: str) -> str:
    path = folder / "plain.csv"
    path.write_text(text)
    return str(path)


def test_nul_bytes_without_a_mark_are_a_binary_file(tmp_path: Path) -> None:
    path = tmp_path / "d.csv"
    path.write_bytes(CSV.encode("utf-16-le"))  # no mark: NUL bytes, as any binary file has
    with pytest.raises(DataError, match="is a binary file"):
        load_dataset(str(path))


SPARSE_TXT = "# written by dump_svmlight_file\n\n-1 1:0.5 2:1\n+1 1:2 2:-1\n"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32", "utf-8-sig"])
@pytest.mark.parametrize("text", [SPARSE_TXT, "#" + "c" * 70_000 + "\r\n" + SPARSE_TXT])  # past one 64 KiB block
def test_a_libsvm_txt_file_is_told_from_csv_in_every_encoding_the_readers_read(tmp_path: Path, encoding: str,
                                                                                text: str) -> None:
    # A UTF-16 file's NUL bytes once made its comment and blank lines look like data lines: read as CSV, refused.
    path = tmp_path / "d.txt"
    path.write_bytes(("\ufeff" + text).encode(encoding) if encoding == "utf-16-be" else text.encode(encoding))
    data = load_dataset(str(path))
    assert data.X == ((Fraction(1, 2), Fraction(1)), (Fraction(2), Fraction(-1))) and data.y == (-1, 1)


@pytest.mark.parametrize("first", ["#" + "c" * 20_000_000, " " * 20_000_000])
def test_a_txt_file_whose_first_line_is_very_long_is_sniffed_in_one_pass(tmp_path: Path, first: str) -> None:
    from verify_perceptron.data.readers import _looks_sparse

    path = tmp_path / "d.txt"
    path.write_text(first + "\n-1 1:0.5\n+1 1:2\n")
    with Stopwatch() as watch:
        assert _looks_sparse(str(path))
    assert watch.within(0, 1.0), watch  # a block at a time, the text kept short: not one scan per block


@pytest.mark.parametrize("header", ["species,a,b\n", ""])
def test_a_file_written_label_first_is_refused_suggesting_label_column(tmp_path: Path, header: str) -> None:
    path = tmp_path / "first.csv"
    path.write_text(header + "0,1.5,0.2\n1,2.5,0.3\n0,3.5,0.4\n", encoding="utf-8")
    name = "species" if header else "1"
    line = 4 if header else 3
    with pytest.raises(DataError) as caught:
        load_dataset(str(path))
    assert str(caught.value) == (f"{path}:{line}: label '0.4' is a third label value ('0.2', '0.3', '0.4'); exactly "
                                 "two are needed, or one named with --positive to be taken against the rest; "
                                 f"column {name} holds two values: if it holds the labels, give "
                                 f"--label-column {name} (label_column='{name}' in Python)")
    assert load_dataset(str(path), label_column=name).y == (-1, 1, -1)
    # no hint where the first column would not help either
    path.write_text(header + "0,1.5,0.2\n1,2.5,0.3\n2,3.5,0.4\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"exactly two are needed, or one named with --positive to be taken "
                                        r"against the rest$"):
        load_dataset(str(path))


@pytest.mark.parametrize("line_end", ["\n", "\r\n"])
def test_trailing_unnamed_empty_columns_a_spreadsheet_writes_are_left_out(tmp_path: Path, line_end: str) -> None:
    rows = ["x1,x2,y,,", "0.5,1,1,,", "-1,2,-1,,"]
    path = tmp_path / "trail.csv"
    path.write_bytes(line_end.join(rows).encode() + line_end.encode())
    data = load_dataset(str(path))
    assert data.X == ((Fraction(1, 2), Fraction(1)), (Fraction(-1), Fraction(2))) and data.y == (1, -1)


@pytest.mark.parametrize(("separator", "line_end"), [(",", "\n"), (";", "\r\n"), ("\t", "\n")])
def test_rows_ending_with_a_separator_in_a_file_without_a_header_are_read(tmp_path: Path, separator: str,
                                                                          line_end: str) -> None:
    rows = [separator.join(r) + separator for r in (["0.5", "1", "1"], ["-1", "2", "-1"], ["3", "0", "1"])]
    path = tmp_path / "trail.csv"
    path.write_bytes(line_end.join(rows).encode() + line_end.encode())
    data = load_dataset(str(path))
    assert data.X == ((Fraction(1, 2), Fraction(1)), (Fraction(-1), Fraction(2)), (Fraction(3), Fraction(0)))
    assert data.y == (1, -1, 1)
    from verify_perceptron.cli import main

    assert main(["verify", str(path), "--format", "json", "-o", str(tmp_path / "report.json")]) == 0  # the command too
    path.write_text("0.5,1,1,\n-1,2,-1,4\n")  # a value further down: refused, naming it, never dropped
    with pytest.raises(DataError, match="trail.csv:2: column 4 is empty on line 1 .* but holds '4'"):
        load_dataset(str(path))


def test_an_unnamed_column_is_read_where_it_holds_values_and_refused_where_it_holds_some(tmp_path: Path) -> None:
    labels = tmp_path / "unnamed_label.csv"  # the labels' column left without a name: still the labels
    labels.write_text("x1,x2,\n0.5,1,1\n-1,2,-1\n")
    assert load_dataset(str(labels)).y == (1, -1)
    partly = tmp_path / "partly.csv"  # empty on the first row, a value further down: never dropped silently
    partly.write_text("x1,x2,y,,\n0.5,1,1,,\n-1,2,-1,7,\n")
    with pytest.raises(DataError, match="partly.csv:3: column 4 has no name in the header but holds '7'"):
        load_dataset(str(partly))


@pytest.mark.parametrize("header", ["PAR1,PAR2,y", "BZh,b,y", "[mm],b,y", "{a},b,y"])
def test_a_header_that_begins_like_another_format_is_read_as_csv(tmp_path: Path, header: str) -> None:
    path = tmp_path / "d.csv"
    path.write_text(header + "\n1,2,1\n-1,-2,-1\n", encoding="utf-8")
    assert load_dataset(str(path)).y == (1, -1)


def _zip_of(members: dict[str, bytes]) -> bytes:
    """A ZIP archive holding `members`, as bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return buffer.getvalue()


@pytest.mark.parametrize(("name", "content", "named"), [
    ("d.xlsx", b"PK\x03\x04\x14\x00\x06\x00", "is a ZIP archive (an .xlsx workbook"),
    ("two.zip", _zip_of({"a.csv": b"x,y\n1,1\n", "b.csv": b"x,y\n1,1\n"}), "is a ZIP archive"),
    ("d.parquet", b"PAR1\x15\x04", "is a Parquet file, not CSV or LIBSVM text: save it as CSV: pd.read_parquet('"),
    ("d.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "is an Excel 97-2003 workbook"),
    ("d.csv", b"\x93NUMPY\x01\x00v\x00{'descr'", "is a NumPy array file, not CSV or LIBSVM text: name it .npy"),
    ("d.mat", b"MATLAB 5.0 MAT-file, Platform: posix, Created on: Sat Nov 28 2026" + b" " * 60 + b"\x00\x01IM",
     "is a MATLAB .mat file, not CSV or LIBSVM text: save its arrays as CSV: X, y from scipy.io.loadmat('"),
    ("d.h5", b"\x89HDF\r\n\x1a\n\x00\x00\x00\x00", "is an HDF5 file"),
    ("d.feather", b"ARROW1\x00\x00\xff\xff", "is a Feather (Arrow) file"),
    ("d.pkl", b"\x80\x04\x95\x1a\x00\x00\x00", "is a Python pickle (never unpickled here"),
    ("d.json", b'{"a":{"0":1.0,"1":2.0},"y":{"0":1,"1":-1}}', "is JSON, not CSV or LIBSVM text"),
    ("records.json", b'\xef\xbb\xbf  [{"a": 1, "y": 1}]', "is JSON"),
    ("d.jsonl", b'{"a":1.0,"y":1}\r\n{"a":2.0,"y":-1}\r\n', "is JSON Lines, not CSV or LIBSVM text: save it as CSV, "
     "e.g. pd.read_json("),  # pandas' to_json(orient="records", lines=True)
    ("d.html", b'<table border="1" class="dataframe">\n  <thead>', "is an HTML page or table, not CSV or LIBSVM "
     "text: save it as CSV, e.g. pd.read_html("),
    ("d.xml", b"<?xml version='1.0' encoding='utf-8'?>\n<data>", "is XML, not CSV or LIBSVM text"),
], ids=lambda value: value if isinstance(value, str) and "." in value and " " not in value else "")
def test_files_that_are_not_text_data_are_named_with_how_to_make_a_csv(tmp_path: Path, name: str, content: bytes,
                                                                      named: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(DataError, match=re.escape(f"{path}: {named}")):
        load_dataset(str(path))


def test_the_csv_and_libsvm_readers_name_a_compressed_file_themselves(tmp_path: Path) -> None:
    # load_csv and load_libsvm are public: they refuse it as load_dataset does, not as "a binary file"
    from verify_perceptron.data.csv_files import load_csv
    from verify_perceptron.data.libsvm_files import load_libsvm

    path = tmp_path / "d.svm.gz"
    path.write_bytes(gzip.compress(b"1 1:0.5\n-1 1:-1\n", mtime=0))
    for read in (load_csv, load_libsvm):
        with pytest.raises(DataError, match="is gzip-compressed, not CSV or LIBSVM text"):
            read(str(path))


def test_json_lines_are_named_with_how_pandas_reads_them(tmp_path: Path) -> None:
    for name in ("d.json", "d.ndjson"):  # told by a second record on the next line, or by the name
        path = tmp_path / name
        path.write_bytes(b'{"a":1.0,"y":1}\n{"a":2.0,"y":-1}\n' if name == "d.json" else b'{"a":1.0,"y":1}')
        with pytest.raises(DataError, match=re.escape(f"pd.read_json({str(path)!r}, lines=True).to_csv(")):
            load_dataset(str(path))
