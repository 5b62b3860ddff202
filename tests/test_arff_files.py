"""ARFF files (Weka's, OpenML's) read exactly, as SciPy's ARFF reader reads their rows, each fault named."""

from __future__ import annotations

import re
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from scipy.io import arff

from verify_perceptron.cli import main
from verify_perceptron.data.readers import load_dataset
from verify_perceptron.errors import DataError

WEKA = """% Wisconsin breast cancer, a few rows, as Weka writes a file
% (comments, quoted names, a nominal class)
@relation 'breast-w'

@attribute 'Clump Thickness' numeric
@ATTRIBUTE Cell_Size REAL
@attribute 'Marginal Adhesion'\tinteger
@attribute Class {benign, malignant}

@data
5,1,1,benign
5, 4,5,malignant
% a comment between rows
3,1,1,benign
8,10,8,'malignant'
0.5e1,1.5,1/1,benign
"""


def test_a_weka_file_reads_as_scipy_reads_it_but_exactly(tmp_path: Path) -> None:
    path = tmp_path / "breast-w.arff"
    path.write_text(WEKA.replace("1/1", "1").replace("'malignant'", "malignant"))  # (SciPy reads neither)
    table, meta = arff.loadarff(str(path))
    data = load_dataset(str(path), positive="malignant")
    features = [name for name in meta.names() if name != "Class"]
    assert data.feature_names == tuple(features)
    assert data.X == tuple(tuple(Fraction(float(row[name])) for name in features) for row in table)
    assert data.y == tuple(1 if row["Class"] == b"malignant" else -1 for row in table)
    exact = tmp_path / "exact.arff"
    exact.write_text(WEKA.replace("5,1,1,benign", "0.1,1,3/7,benign"))
    read = load_dataset(str(exact), positive="malignant")
    assert read.X[0] == (Fraction(1, 10), Fraction(1), Fraction(3, 7))
    assert read.X[4] == (Fraction(5), Fraction(3, 2), Fraction(1))
    assert read.y == data.y  # 'malignant' quoted is malignant


def test_the_command_reads_it_and_names_the_positive_class(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "breast-w.arff"
    path.write_text(WEKA)
    assert main(["verify", str(path), "--no-progress"]) == 2
    assert "name the positive one with --positive" in capsys.readouterr().err
    assert main(["verify", str(path), "--positive", "malignant", "--no-progress"]) == 0
    assert "5 samples, 3 features (labels benign -> -1, malignant -> +1)" in capsys.readouterr().out
    copy = tmp_path / "weka.txt"
    copy.write_text(WEKA)
    assert main(["verify", str(copy), "--input-format", "arff", "--positive", "malignant", "--no-progress"]) == 0


def test_a_numeric_class_a_label_column_and_names_that_read_as_numbers(tmp_path: Path) -> None:
    path = tmp_path / "d.arff"
    path.write_text("@relation r\n@attribute 1 numeric\n@attribute y {0,1}\n@attribute 3 real\n@data\n"
                    "1,1,2\n-1,0,5\n2,1,7\n")
    data = load_dataset(str(path), label_column="y")  # not the last attribute
    assert data.X == tuple(tuple(map(Fraction, row)) for row in ((1, 2), (-1, 5), (2, 7)))
    assert (data.y, data.feature_names) == ((1, -1, 1), ("1", "3"))
    by_number = load_dataset(str(path), label_column="2")
    assert (by_number.X, by_number.y) == (data.X, data.y)
    # as a CSV's --label-column: a name in any case, a number from the end
    for named in ("Y", "-2"):
        other = load_dataset(str(path), label_column=named)
        assert (other.X, other.y) == (data.X, data.y)
    with pytest.raises(DataError, match=re.escape("--label-column 'z' is not a column name (columns: 1, y, 3)")):
        load_dataset(str(path), label_column="z")
    # without one: the last attribute is numeric, so the nominal attribute named y is the class (OpenML's files
    # put it anywhere), not a feature to refuse
    default = load_dataset(str(path))
    assert (default.X, default.y, default.feature_names) == (data.X, data.y, data.feature_names)


@pytest.mark.parametrize(("text", "named"), [
    ("@relation r\n@attribute outlook {sunny, rainy}\n@attribute x real\n@attribute c {a,b}\n@data\nsunny,1,a\n",
     "attribute 'outlook' is '{sunny, rainy}', not numeric"),
    ("@relation r\n@attribute when date 'yyyy-MM-dd'\n@attribute c {a,b}\n@data\n'2020-01-01',a\n",
     "attribute 'when' is \"date 'yyyy-MM-dd'\", not numeric"),
    ("@relation r\n@attribute x real\n@attribute c {a,b}\n@data\n1,a\n?,b\n", "d.arff:6: a missing value '?' (column 1)"),
    ("@relation r\n@attribute x real\n@attribute c {a,b}\n@data\n{0 1, 1 a, 0 2}\n",
     "d.arff:5: sparse entry '0 2': attribute 0 is given twice"),
    ("@relation r\n@attribute x real\n@attribute c {a,b}\n", "no @data line"),
    ("@relation r\n@attribute c {a,b}\n@data\na\n", "@data after 1 attribute(s)"),
    ("@relation r\n@attrib x real\n@data\n", "d.arff:2: '@attrib x real' is not an ARFF header line"),
    ("@relation r\n@attribute x real\n@attribute c {a,b}\n@data\n1,a\nzz,b\n", "d.arff:6: column x: 'zz' is not"),
    ("@relation r\n@attribute x real\n@attribute c {a,b}\n@data\n1,a\n2,b,3\n", "d.arff:6: ragged row"),
], ids=["nominal feature", "date", "missing", "sparse twice", "no data", "one attribute", "bad header", "bad cell",
        "ragged"])
def test_what_it_cannot_read_is_bad_input_naming_the_line(tmp_path: Path, text: str, named: str) -> None:
    path = tmp_path / "d.arff"
    path.write_text(text)
    with pytest.raises(DataError, match=re.escape(named)):
        load_dataset(str(path), positive="b")


def test_an_arff_of_many_rows_with_crlf_ends(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    X = rng.integers(-9, 10, size=(300, 4))
    y = np.where(X[:, 0] + X[:, 1] > 0, "yes", "no")
    lines = ["@relation big", *(f"@attribute f{k} integer" for k in range(4)), "@attribute c {no,yes}", "@data"]
    lines += [",".join(map(str, row)) + f",{label}" for row, label in zip(X, y)]
    path = tmp_path / "big.arff"
    path.write_bytes("\r\n".join(lines).encode())
    data = load_dataset(str(path), positive="yes")
    assert data.X == tuple(tuple(Fraction(int(v)) for v in row) for row in X)
    assert data.y == tuple(1 if label == "yes" else -1 for label in y)


def test_attribute_names_that_are_all_numbers_stay_a_header(tmp_path: Path) -> None:
    path = tmp_path / "d.arff"  # OpenML's unnamed columns: a header '1,2,3' would read as a sample
    path.write_text("@relation r\n@attribute 1 real\n@attribute 2 real\n@attribute 3 {0,1}\n@data\n1,2,1\n-1,0,0\n")
    data = load_dataset(str(path))
    assert data.X == ((Fraction(1), Fraction(2)), (Fraction(-1), Fraction(0)))
    assert (data.y, data.feature_names) == ((1, -1), ("1", "2"))


def test_header_lines_are_read_in_linear_time(tmp_path: Path) -> None:
    from verify_perceptron.data.arff_files import _ATTRIBUTE

    started = time.process_time()
    for line in ("@attribute '" + "\\" * 200_001, "@attribute \"" + "\\'" * 100_000, "@attribute " + "x" * 200_000
                 + " " * 200_000, "@attribute " + " " * 200_000 + "{", "@attribute '" + "a" * 200_000):
        _ATTRIBUTE.fullmatch(line)
    assert time.process_time() - started < 2.0


SPARSE = """@relation s
@attribute a numeric
@attribute b numeric
@attribute c numeric
@attribute class {neg, pos}
@data
{0 1, 3 pos}
{1 2}
{2 -1.5, 3 neg}
% a comment
{0 3,1 1, 3 pos}
0,0,0.5,pos
"""


def test_a_sparse_arff_row_reads_as_the_dense_row_it_stands_for(tmp_path: Path) -> None:
    # Weka's rule: a left-out attribute is 0, a nominal one its first value (row 2's class is neg)
    path = tmp_path / "s.arff"
    path.write_text(SPARSE)
    dense = tmp_path / "d.arff"
    dense.write_text(SPARSE.split("@data")[0] + "@data\n1,0,0,pos\n0,2,0,neg\n0,0,-1.5,neg\n3,1,0,pos\n0,0,0.5,pos\n")
    got, want = load_dataset(str(path), positive="pos"), load_dataset(str(dense), positive="pos")
    assert (got.X, got.y, got.feature_names) == (want.X, want.y, want.feature_names)
    assert got.y == (1, -1, -1, 1, 1)
    assert got.X[2] == (Fraction(0), Fraction(0), Fraction(-3, 2))


@pytest.mark.parametrize(("row", "named"), [
    ("{7 1}", "d.arff:7: sparse entry '7 1': attribute index 7 is past the last (3; indices count from 0)"),
    ("{0 ?, 3 pos}", "d.arff:7: a missing value '?' (attribute index 0)"),
    ("{0 1 3 pos}", "d.arff:7: sparse entry '0 1 3 pos' is not 'index value'"),  # a comma left out: the class
    ("{0 1, 3 pos", "d.arff:7: a sparse row must end with '}'"),
    ("{0 x, 3 pos}", "d.arff:7: column a: 'x' is not"),
])
def test_a_bad_sparse_arff_row_is_named(tmp_path: Path, row: str, named: str) -> None:
    path = tmp_path / "d.arff"
    path.write_text(SPARSE.split("@data")[0] + f"@data\n{row}\n")
    with pytest.raises(DataError) as caught:
        load_dataset(str(path), positive="pos")
    assert str(caught.value).startswith(f"{tmp_path}/{named}")


def test_sparse_arff_rows_are_counted_against_the_cell_limit_before_they_are_made_dense(tmp_path: Path) -> None:
    header = "@relation wide\n" + "".join(f"@attribute a{k} numeric\n" for k in range(2000)) + "@attribute c {n,p}\n"
    path = tmp_path / "wide.arff"
    path.write_text(header + "@data\n" + "{0 1, 2000 p}\n{1 1}\n" * 500)
    with pytest.raises(DataError, match=r"wide\.arff: 1000 sparse rows x 2000 values"):
        load_dataset(str(path), positive="p", max_cells=100_000)
