"""How spreadsheets, databases and NumPy users spell the same data: decimal commas, vertical bars, boolean
labels, unnamed ``.npz`` arrays. Each is read as the plain spelling is, or refused by name where reading it
could be wrong."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from verify_perceptron.data.readers import load_dataset
from verify_perceptron.errors import DataError

PLAIN = "x1,x2,label\n0.5,1.25,1\n-1.5,0.75,0\n2,-0.125,0\n"
X = ((Fraction(1, 2), Fraction(5, 4)), (Fraction(-3, 2), Fraction(3, 4)), (Fraction(2), Fraction(-1, 8)))


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("text", [
    "x1;x2;label\n0,5;1,25;1\n-1,5;0,75;0\n2;-0,125;0\n",  # pandas' to_csv(sep=";", decimal=",")
    "0,5;1,25;1\n-1,5;0,75;0\n2;-0,125;0\n",  # no header: a comma on every line, and still not the separator
    "x1\tx2\tlabel\n0,5\t1,25\t1\n-1,5\t0,75\t0\n2\t-0,125\t0\n",
    "0,5 1,25 1\n-1,5  0,75 0\n2 -0,125 0\n",
    '"";"x1";"x2";"label"\n"1";0,5;1,25;1\n"2";-1,5;0,75;0\n"3";2;-0,125;0\n',  # R's write.csv2
    "x1;x2;label\n0,5;1,25;1,0\n-1,5;0,75;0,0\n2;-0,125;0\n",  # labels written with a comma too
])
def test_decimal_commas_are_read_as_the_points_they_mean(tmp_path: Path, text: str) -> None:
    data = load_dataset(_write(tmp_path, "eu.csv", text), decimal=",")
    assert (data.X, data.y) == (X, (1, -1, -1))


def test_a_header_keeps_its_commas_and_points_under_decimal_commas(tmp_path: Path) -> None:
    path = _write(tmp_path, "r.csv", '"Sepal.Length";"width, cm";"Species"\n5,1;3,5;a,b\n4,9;3;c\n')
    data = load_dataset(path, decimal=",", positive="a,b")
    assert data.feature_names == ("Sepal.Length", "width, cm") and data.y == (1, -1)
    assert data.X[0] == (Fraction(51, 10), Fraction(7, 2))


@pytest.mark.parametrize("cell", ["1.234", "1.234,5", "-0.5", "1.2e3"])
def test_a_point_in_a_number_under_decimal_commas_is_refused_by_name(tmp_path: Path, cell: str) -> None:
    # 1.234 is 1234 to whoever wrote 1.234,5: read as 1.234 it would be wrong by a factor of 1,000.
    path = _write(tmp_path, "eu.csv", f"x1;x2;label\n0,5;1;1\n{cell};2;0\n")
    with pytest.raises(DataError, match=rf"eu.csv:3: '{cell}' holds a point, but decimals are marked with a comma"):
        load_dataset(path, decimal=",")


def test_decimal_commas_refuse_what_they_cannot_read(tmp_path: Path) -> None:
    commas = _write(tmp_path, "c.csv", PLAIN)
    with pytest.raises(DataError, match="no separator found besides the commas"):
        load_dataset(commas, decimal=",")
    with pytest.raises(DataError, match="a comma cannot both separate cells and mark decimals"):
        load_dataset(_write(tmp_path, "e.csv", "x;label\n0,5;1\n1;0\n"), decimal=",", delimiter=",")
    with pytest.raises(DataError, match=r"decimal='x' must be '\.' or ','"):
        load_dataset(commas, decimal="x")
    array = tmp_path / "d.npy"
    np.save(array, np.array([[0.5, 1.0], [1.0, 0.0]]))
    with pytest.raises(DataError, match="applies to CSV files; a numpy file marks decimals with a point"):
        load_dataset(str(array), decimal=",")
    # and without the option, a decimal comma is still bad input, never a misread
    with pytest.raises(DataError, match=r"'0,5' is not a number .*--decimal-comma"):
        load_dataset(_write(tmp_path, "eu.csv", "x1;x2;label\n0,5;1,25;1\n-1,5;0,75;0\n"))


@pytest.mark.parametrize("name", ["p.csv", "p.txt"])
def test_vertical_bars_separate_cells_as_commas_do(tmp_path: Path, name: str) -> None:
    plain = load_dataset(_write(tmp_path, "plain.csv", PLAIN))
    data = load_dataset(_write(tmp_path, name, PLAIN.replace(",", "|")))  # the compiled block reader
    assert (data.X, data.y, data.feature_names) == (plain.X, plain.y, plain.feature_names)
    quoted = load_dataset(_write(tmp_path, "q.csv", 'x1|x2|label\n"0.5"|1.25|"1"\n-1.5|0.75|0\n2|-0.125|0\n'))
    assert (quoted.X, quoted.y) == (plain.X, plain.y)  # the general reader
    named = load_dataset(_write(tmp_path, "n.csv", PLAIN.replace(",", "|")), delimiter="pipe")
    assert named.X == plain.X
    with pytest.raises(DataError, match="one column only"):  # bars asked for, a file without them
        load_dataset(_write(tmp_path, "s.csv", PLAIN.replace(",", ";")), delimiter="|")


@pytest.mark.parametrize("true, false", [("True", "False"), ("TRUE", "FALSE"), ("true", "false")])
def test_boolean_labels_read_true_as_the_positive_class(tmp_path: Path, true: str, false: str) -> None:
    data = load_dataset(_write(tmp_path, "b.csv", f"x1,x2,label\n0.5,1.25,{true}\n-1.5,0.75,{false}\n2,-0.125,"
                                                  f"{false}\n"))
    assert (data.X, data.y) == (X, (1, -1, -1))
    assert data.labels == (false, true)
    with pytest.raises(DataError, match="are neither"):  # a boolean and a number are two words, not a pair
        load_dataset(_write(tmp_path, "m.csv", f"x1,label\n0.5,{true}\n-1.5,0\n"))


def test_two_unnamed_npz_arrays_are_the_features_then_the_labels(tmp_path: Path) -> None:
    features, labels = np.array([[0.5, 1.25], [-1.5, 0.75], [2.0, -0.125]]), np.array([1, 0, 0])
    np.savez(tmp_path / "a.npz", features, labels)
    np.savez(tmp_path / "t.npz", X_train=features, y_train=labels == 1)
    for name in ("a.npz", "t.npz"):
        data = load_dataset(str(tmp_path / name))
        assert (data.X, data.y) == (X, (1, -1, -1))
    np.savez(tmp_path / "r.npz", labels, features)
    with pytest.raises(DataError, match=r"arr_0 has shape \(3,\); a 2-D array is needed"):
        load_dataset(str(tmp_path / "r.npz"))
    np.savez(tmp_path / "three.npz", features, labels, labels)
    with pytest.raises(DataError, match=r"needs arrays X and y .*found \['arr_0', 'arr_1', 'arr_2'\]"):
        load_dataset(str(tmp_path / "three.npz"))
