"""Files as spreadsheets, R, pandas and NumPy export them, read at the defaults, or refused with a message that
names the convention: Excel's ``sep=`` line, missing values, thousands separators, Windows-1252 text, text
labels and a column of labels in an ``.npz``, OpenML's class attribute where it is not last, and the `bounds`
report saying which label is +1 as `verify`'s does."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from verify_perceptron import cli
from verify_perceptron.data.readers import load_dataset
from verify_perceptron.errors import DataError


def _write(tmp_path: Path, name: str, content: str | bytes) -> str:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, newline="")
    return str(path)


@pytest.mark.parametrize(("text", "decimal"), [
    ("sep=;\r\nx;z;label\r\n1,5;2;1\r\n-1;-2,25;0\r\n", ","),  # Excel in a decimal-comma locale
    ("sep=,\nx,z,label\n1.5,2,1\n-1,-2.25,0\n", "."),
    ('"sep=\t"\nx\tz\tlabel\n1.5\t2\t1\n-1\t-2.25\t0\n', "."),  # quoted, a tab
    ("\ufeffsep=|\r\nx|z|label\r\n1.5|2|1\r\n-1|-2.25|0\r\n", "."),  # after a byte-order mark
])
def test_excels_separator_line_names_the_separator_and_is_no_row(tmp_path: Path, text: str, decimal: str) -> None:
    data = load_dataset(_write(tmp_path, "d.csv", text.encode("utf-8")), decimal=decimal)
    assert data.X == ((Fraction(3, 2), Fraction(2)), (Fraction(-1), Fraction(-9, 4)))
    assert (data.y, data.feature_names) == ((1, -1), ("x", "z"))


def test_excels_separator_line_with_another_character_is_refused_by_name(tmp_path: Path) -> None:
    path = _write(tmp_path, "d.csv", "sep=:\nx:label\n1:1\n2:0\n")
    with pytest.raises(DataError, match=r"d\.csv:1: Excel's separator line names ':'"):
        load_dataset(path)


@pytest.mark.parametrize("cell", ["NA", "", "nan", "N/A", "#N/A", "?", "NULL"])
def test_a_missing_value_in_a_feature_is_named_missing_not_a_label_column(tmp_path: Path, cell: str) -> None:
    path = _write(tmp_path, "d.csv", f"a,b,label\n1,2,1\n3,{cell},0\n4,5,1\n")
    with pytest.raises(DataError) as caught:
        load_dataset(path)
    message = str(caught.value)
    assert message.startswith(f"{path}:3: column b: ")
    assert "missing values: drop or fill those rows first" in message and "--label-column" not in message


@pytest.mark.parametrize("cell", ["NA", "nan", "?", "#N/A"])
def test_a_missing_label_is_refused_even_against_the_rest(tmp_path: Path, cell: str) -> None:
    path = _write(tmp_path, "d.csv", f"a,label\n1,1\n2,{cell}\n3,0\n")
    for positive in (None, "1"):  # with --positive the sample would silently join the rest
        with pytest.raises(DataError, match=re.escape(f"d.csv:3: label '{cell}' marks a missing value")):
            load_dataset(path, positive=positive)


def test_a_thousands_separator_is_named(tmp_path: Path) -> None:
    path = _write(tmp_path, "d.csv", 'area,label\n"1,001.5",1\n12,0\n')
    with pytest.raises(DataError, match=r"'1,001\.5' is not a number .* \(a thousands separator\? give --thousands , "
                                        r"\(thousands=',' in Python\), or write it 1001\.5\)"):
        load_dataset(path)


def test_windows_1252_text_is_named_with_how_to_read_it(tmp_path: Path) -> None:
    path = _write(tmp_path, "d.csv", "taille,étiquette\n1,1\n2,0\n".encode("cp1252"))
    with pytest.raises(DataError) as caught:
        load_dataset(path)
    assert str(caught.value).startswith(f"{path}:1: not UTF-8 text (byte 0xe9; Windows-1252")
    assert "read it so with --encoding cp1252 (encoding='cp1252' in Python)" in str(caught.value)


def test_an_npz_with_text_labels_or_a_column_of_labels_reads_as_its_csv(tmp_path: Path) -> None:
    X = np.array([[0.5, 1.0], [-1.0, 2.0], [3.0, -0.25], [1.0, 1.0]])
    words = np.array(["M", "B", "B", "M"])
    numbers = np.array([1, 0, 0, 1])
    np.savez(tmp_path / "n.npz", X=X, y=numbers)
    expected = load_dataset(str(tmp_path / "n.npz"))
    for name, y, positive in (("u.npz", words, "M"), ("s.npz", words.astype("S"), "M"),
                              ("column.npz", numbers.reshape(-1, 1), None),
                              ("ucolumn.npz", words.reshape(-1, 1), "M")):
        np.savez(tmp_path / name, X=X, y=y)
        data = load_dataset(str(tmp_path / name), positive=positive)
        assert (data.X, data.y) == (expected.X, expected.y)
        assert data.labels == (("B", "M") if positive else ("0", "1"))
    with pytest.raises(DataError, match=r"labels 'M', 'B' are neither .*--positive M takes 'M' as \+1"):
        load_dataset(str(tmp_path / "u.npz"))
    np.savez(tmp_path / "bad.npz", X=X[:2], y=np.array([b"\xff", b"a"]))
    with pytest.raises(DataError, match=r"bad\.npz: array 'y' holds bytes that are not UTF-8 text"):
        load_dataset(str(tmp_path / "bad.npz"))
    np.savez(tmp_path / "xwords.npz", X=np.array([["a", "b"], ["c", "d"]]), y=np.array(["M", "B"]))
    with pytest.raises(DataError, match=r"array 'X' has dtype <U1; integers or floats are needed"):
        load_dataset(str(tmp_path / "xwords.npz"))  # features stay numbers


def test_openmls_class_attribute_first_is_the_class(tmp_path: Path) -> None:
    path = _write(tmp_path, "d.arff", "@RELATION t\r\n@ATTRIBUTE Class { pos , neg }\r\n@ATTRIBUTE a REAL\r\n"
                                      "@ATTRIBUTE b REAL\r\n@DATA\r\npos,1,2\r\nneg,-1,0.5\r\n")
    data = load_dataset(path, positive="pos")
    assert data.X == ((Fraction(1), Fraction(2)), (Fraction(-1), Fraction(1, 2)))
    assert (data.y, data.feature_names) == ((1, -1), ("a", "b"))
    other = _write(tmp_path, "e.arff", "@relation t\n@attribute color {red, blue}\n@attribute a real\n"
                                       "@attribute out real\n@data\nred,1,1\nblue,2,0\n")
    with pytest.raises(DataError, match=r"attribute 'color' is .*; if it is the class, give --label-column color"):
        load_dataset(other)  # named otherwise: the last attribute stays the class, and the hint names the way


def test_bounds_says_which_label_is_positive_as_verify_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "d.csv", ",x,z,diagnosis\n0,1,2,M\n1,-1,-2,B\n2,2,1,M\n")
    argv = [path, "--label-column", "diagnosis", "--positive", "M", "--no-progress"]
    assert cli.main(["verify", *argv, "--format", "json"]) == 0
    verified = json.loads(capsys.readouterr().out)["dataset"]
    assert cli.main(["bounds", *argv, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["dataset"] == verified
    assert cli.main(["bounds", *argv]) == 0
    first = capsys.readouterr().out.split("\n")[0]
    assert first == (f"data        {path}: 3 samples, 2 features (labels B -> -1, M -> +1; column 1 (unnamed) read as "
                     "the row index and left out)")


def test_boolean_features_as_pandas_writes_them_read_as_a_numpy_files_booleans(tmp_path: Path) -> None:
    # pd.get_dummies makes bool columns, and to_csv writes them True/False (R: TRUE/FALSE, Julia: true/false)
    rows = [(0.5, True, "1"), (-1.25, False, "0"), (2, True, "0"), (1, False, "1")]
    text = "x,smoker_yes,label\n" + "".join(f"{a},{b},{c}\n" for a, b, c in rows)
    data = load_dataset(_write(tmp_path, "d.csv", text))
    np.savez(tmp_path / "d.npz", X=np.array([[a, b] for a, b, _ in rows], dtype=object).astype(float),
             y=np.array([int(c) for *_, c in rows]))
    assert data.X == tuple((Fraction(a), Fraction(int(b))) for a, b, _ in rows)
    assert data.X == load_dataset(str(tmp_path / "d.npz")).X and data.y == (1, -1, -1, 1)
    spelled = _write(tmp_path, "r.csv", text.replace("True", "TRUE").replace("False", " false"))
    assert load_dataset(spelled).X == data.X
    for n in (3000, 30000):  # the block reader's cells too
        big = _write(tmp_path, f"b{n}.csv", "x,b,label\n" + "1.5,True,1\n-2,False,0\n" * n)
        assert load_dataset(big).X[:2] == ((Fraction(3, 2), Fraction(1)), (Fraction(-2), Fraction(0)))


def test_an_npy_saved_label_first_is_told_which_label_column(tmp_path: Path) -> None:
    X = np.array([[0.5, 1.0], [-1.0, 2.0], [3.0, -0.25], [1.0, 1.5]])
    y = np.array([1, 0, 0, 1])
    np.save(tmp_path / "d.npy", np.c_[y, X])  # np.c_[y, X]: the labels first
    with pytest.raises(DataError, match=r"column 1 holds two values: if it holds the labels, give --label-column 1"):
        load_dataset(str(tmp_path / "d.npy"))
    data = load_dataset(str(tmp_path / "d.npy"), label_column="1")
    assert (data.X, data.y) == (tuple(tuple(map(Fraction, row)) for row in X), (1, -1, -1, 1))


def test_the_options_a_message_suggests_are_quoted_for_the_shell(tmp_path: Path) -> None:
    words = _write(tmp_path, "w.csv", "sepal length,b,label\nx,1,1\ny,2,0\n")
    with pytest.raises(DataError, match=re.escape("(if it holds the labels: --label-column 'sepal length')")):
        load_dataset(words)
    named = _write(tmp_path, "n.csv", "a,species\n1,Iris setosa\n2,Iris versicolor\n")
    with pytest.raises(DataError, match=re.escape("(--positive 'Iris versicolor' takes 'Iris versicolor' as +1")):
        load_dataset(named)
    first = _write(tmp_path, "f.csv", "is sick,a,b\n1,0.5,3\n0,2,4\n1,3,5\n")
    with pytest.raises(DataError, match=re.escape("give --label-column 'is sick' (label_column='is sick' in")):
        load_dataset(first)
    arff = _write(tmp_path, "e.arff", "@relation t\n@attribute 'eye color' {red, blue}\n@attribute a real\n"
                                      "@attribute out real\n@data\nred,1,1\nblue,2,0\n")
    with pytest.raises(DataError, match=re.escape("give --label-column 'eye color'")):
        load_dataset(arff)


KEEL = """@relation glass-keel
@attribute Type {positive, negative}
@attribute RI real [1.51115, 1.53393]
@attribute Na integer [10, 17]
@inputs RI, Na
@outputs Type
@data
positive, 1.52101, 13
negative, 1.51761, 14
positive, 1.51618, 12
"""


@pytest.mark.parametrize("name", ["glass.dat", "glass.txt", "glass.arff", "glass"])
def test_a_keel_file_reads_as_arff_its_outputs_the_class(tmp_path: Path, name: str) -> None:
    data = load_dataset(_write(tmp_path, name, KEEL), positive="positive")  # KEEL names its files .dat
    assert data.X == ((Fraction(152101, 100000), Fraction(13)), (Fraction(151761, 100000), Fraction(14)),
                      (Fraction(151618, 100000), Fraction(12)))
    assert (data.y, data.feature_names) == ((1, -1, 1), ("RI", "Na"))
    broken = _write(tmp_path, "two.dat", KEEL.replace("@outputs Type", "@outputs Type, RI"))
    with pytest.raises(DataError, match=r"two\.dat:6: '@outputs Type, RI': one class attribute is needed"):
        load_dataset(broken, positive="positive")


def test_a_record_array_saved_from_a_dataframe_reads_as_its_table(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"target": [1, 0, 0, 1], "x": [0.5, -1.0, 3.0, 1.0], "flag": [True, False, True, True]},
                         index=[10, 11, 12, 13])
    np.save(tmp_path / "r.npy", frame.to_records(index=False))
    np.save(tmp_path / "i.npy", frame.to_records())  # with the index, as a field named 'index'
    expected = ((Fraction(1, 2), Fraction(1)), (Fraction(-1), Fraction(0)), (Fraction(3), Fraction(1)),
                (Fraction(1), Fraction(1)))
    for name in ("r.npy", "i.npy"):
        data = load_dataset(str(tmp_path / name))  # the label field found by its name, as a CSV's column
        assert (data.X, data.y, data.feature_names) == (expected, (1, -1, -1, 1), ("x", "flag"))
    assert load_dataset(str(tmp_path / "r.npy")).row_index is None
    index = load_dataset(str(tmp_path / "i.npy")).row_index
    assert index is not None and index.description == "column 1 ('index') read as the row index and left out"
    kept = load_dataset(str(tmp_path / "i.npy"), index_column="keep")
    assert [row[0] for row in kept.X] == [10, 11, 12, 13] and kept.feature_names == ("index", "x", "flag")
    assert load_dataset(str(tmp_path / "r.npy"), label_column="flag").y == (1, -1, 1, 1)
    frame["x"] = [2**60, 1, 2, 3]  # integers a float64 rounds, beside a float field
    frame["z"] = 0.5
    np.save(tmp_path / "w.npy", frame.to_records(index=False))
    with pytest.raises(DataError, match=r"field 'x' holds the integer 1152921504606846976, which the floats"):
        load_dataset(str(tmp_path / "w.npy"))


def test_an_npz_with_feature_names_names_the_features(tmp_path: Path) -> None:
    X, y = np.array([[0.5, 1.0], [-1.0, 2.0]]), np.array([1, 0])
    np.savez(tmp_path / "b.npz", data=X, target=y, feature_names=np.array(["mean radius", "mean texture"]),
             target_names=np.array(["malignant", "benign"]))  # a scikit-learn Bunch saved as it is
    assert load_dataset(str(tmp_path / "b.npz")).feature_names == ("mean radius", "mean texture")
    np.savez(tmp_path / "s.npz", X=X, y=y, columns=np.array([b"a", b"b"]))
    assert load_dataset(str(tmp_path / "s.npz")).feature_names == ("a", "b")
    for names in (np.array(["a", "b", "c"]), np.array([1, 2]), np.array(["a", 1], dtype=object)):
        np.savez(tmp_path / "n.npz", X=X, y=y, feature_names=names)  # another length, numbers, pickled objects
        assert load_dataset(str(tmp_path / "n.npz")).feature_names == ("x1", "x2")


def test_float_labels_of_a_numpy_file_are_named_as_they_print(tmp_path: Path) -> None:
    table = np.array([[0.5, 0.1], [-1.0, 0.7], [2.0, 0.1]])
    for dtype in (np.float64, np.float32):
        np.save(tmp_path / "f.npy", table.astype(dtype))
        with pytest.raises(DataError, match=re.escape("labels '0.1', '0.7' are neither {-1, +1} nor {0, 1}; name the "
                                                      "positive one with --positive (--positive 0.7 takes")):
            load_dataset(str(tmp_path / "f.npy"))
        assert load_dataset(str(tmp_path / "f.npy"), positive="0.7").y == (-1, 1, -1)
