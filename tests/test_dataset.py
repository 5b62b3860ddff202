"""Datasets read exactly from CSV, LIBSVM and NumPy files, and every way a file can be bad.

Each bad file must raise `DataError` whose message names the file, the line
(for text files) and the offending value, quickly, whatever its size.
"""

from __future__ import annotations

import math
import os
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from verify_perceptron.data.csv_files import LABEL_NAMES, load_csv
from verify_perceptron.data.dataset import Dataset, from_arrays
from verify_perceptron.data.libsvm_files import load_libsvm
from verify_perceptron.data.numpy_files import load_numpy
from verify_perceptron.data.readers import load_dataset
from verify_perceptron.errors import DataError

F = Fraction


def write(tmp_path: Path, name: str, content: str | bytes) -> str:
    """Write `content` to tmp_path/name and return the path as a string."""
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return str(path)


def data_error(call, *args, **kwargs) -> str:
    """The message of the DataError that `call(*args, **kwargs)` raises."""
    with pytest.raises(DataError) as info:
        call(*args, **kwargs)
    return str(info.value)


# --- CSV: label column -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["label", "y", "target", "class", "LABEL", "Y", "Target", "Class"])
def test_csv_header_label_column_is_found_by_its_name_in_any_case(tmp_path: Path, name: str) -> None:
    path = write(tmp_path, "d.csv", f"a,{name},b\n1,1,2\n3,0,4\n")
    data = load_csv(path)
    assert data.X == ((F(1), F(2)), (F(3), F(4)))
    assert data.y == (1, -1)
    assert data.feature_names == ("a", "b")
    assert data.source == path


def test_label_names_are_the_documented_four() -> None:
    assert LABEL_NAMES == ("label", "y", "target", "class")


def test_csv_label_column_chosen_by_name_case_insensitively(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "Outcome,p,q\n1,5,6\n-1,7,8\n")
    data = load_csv(path, label_column="outcome")
    assert data.X == ((F(5), F(6)), (F(7), F(8)))
    assert data.y == (1, -1)
    assert data.feature_names == ("p", "q")


def test_csv_label_column_name_overrides_the_recognised_label_name(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "label,flag\n5,1\n7,0\n")
    data = load_csv(path, label_column="flag")
    assert data.X == ((F(5),), (F(7),))
    assert data.y == (1, -1)


@pytest.mark.parametrize("column, content", [
    ("1", "0,5,6\n1,7,8\n"),
    ("2", "5,0,6\n7,1,8\n"),
    ("3", "5,6,0\n7,8,1\n"),
    ("-1", "5,6,0\n7,8,1\n"),
    (" 2 ", "5,0,6\n7,1,8\n"),
])
def test_csv_label_column_chosen_by_one_based_number(tmp_path: Path, column: str, content: str) -> None:
    path = write(tmp_path, "d.csv", content)
    data = load_csv(path, label_column=column)
    assert data.X == ((F(5), F(6)), (F(7), F(8)))
    assert data.y == (-1, 1)


def test_label_column_number_equal_to_a_first_row_cell_keeps_that_row_as_data(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "1,5,6\n0,7,8\n")
    data = load_csv(path, label_column="1")
    assert data.X == ((F(5), F(6)), (F(7), F(8)))
    assert data.y == (1, -1)


def test_csv_without_header_takes_the_last_column_as_label(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "0.5,1/3,1\n-2,1e-2,0\n")
    data = load_csv(path)
    assert data.X == ((F(1, 2), F(1, 3)), (F(-2), F(1, 100)))
    assert data.y == (1, -1)
    assert data.feature_names == ("x1", "x2")


def test_csv_comment_and_blank_lines_are_skipped(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "# a comment\n\nx1,label\n  # indented comment\n1,1\n\n , \n2,0\n# end\n")
    data = load_csv(path)
    assert data.X == ((F(1),), (F(2),))
    assert data.y == (1, -1)


def test_csv_line_numbers_count_skipped_lines(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "# c\n\nx1,label\n# c\n1,1\n\nbad,0\n")
    message = data_error(load_csv, path)
    assert f"{path}:7:" in message
    assert "'bad'" in message


def test_csv_decimals_scientific_and_fractions_are_exact(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "x1,x2,x3,label\n0.1,1.5e-3,-22/25,1\n.5,5.,1E3,0\n")
    data = load_csv(path)
    assert data.X == ((F(1, 10), F(3, 2000), F(-22, 25)), (F(1, 2), F(5), F(1000)))
    assert data.binary_float is False


def test_csv_quoted_cells_and_padding_are_read(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", 'x1,x2,label\n"0.25", 3 ,"1"\n 1/4 ,"-3", 0\n')
    data = load_csv(path)
    assert data.X == ((F(1, 4), F(3)), (F(1, 4), F(-3)))
    assert data.y == (1, -1)


def test_csv_utf8_bom_is_not_part_of_the_first_header_name(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "\ufefflabel,x\n1,2\n0,3\n".encode())
    data = load_csv(path)
    assert data.feature_names == ("x",)
    assert data.y == (1, -1)


# --- CSV: labels -----------------------------------------------------------------------------------


def test_labels_minus_one_plus_one_are_kept(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "x,label\n1,+1\n2,-1\n3,1\n")
    data = load_csv(path)
    assert data.y == (1, -1, 1)
    assert data.labels == ("-1", "1")


def test_labels_zero_one_map_zero_to_minus_one(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "x,label\n1,0\n2,1\n3,0\n")
    data = load_csv(path)
    assert data.y == (-1, 1, -1)
    assert data.labels == ("0", "1")


def test_labels_compare_as_numbers(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "x,label\n1,1.0\n2,0\n3,1\n4,0.0\n")
    assert load_csv(path).y == (1, -1, 1, -1)


def test_text_labels_with_positive_map_positive_to_plus_one(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "x,label\n1,dog\n2,cat\n3,dog\n")
    data = load_csv(path, positive="dog")
    assert data.y == (1, -1, 1)
    assert data.labels == ("cat", "dog")


def test_two_numeric_labels_with_positive_are_mapped(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "x,label\n1,1/2\n2,3\n3,0.5\n")
    data = load_csv(path, positive="1/2")
    assert data.y == (1, -1, 1)
    assert data.labels == ("3", "1/2")
    assert load_csv(path, positive="0.5").y == (1, -1, 1)  # the same number spelled another way


def test_positive_zero_turns_zero_one_labels_around(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "x,label\n1,0\n2,1\n")
    assert load_csv(path, positive="0").y == (1, -1)


# --- CSV: errors -----------------------------------------------------------------------------------


def test_ragged_row_is_data_error_naming_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "x1,x2,label\n1,2,1\n3,0\n")
    message = data_error(load_csv, path)
    assert f"{path}:3:" in message
    assert "ragged" in message
    assert "2 cells, expected 3" in message


def test_non_numeric_cell_is_data_error_naming_file_line_column_and_value(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "x1,x2,label\n1,2,1\n3,abc,0\n")
    message = data_error(load_csv, path)
    assert f"{path}:3:" in message
    assert "x2" in message
    assert "'abc'" in message


@pytest.mark.parametrize("cell", ["nan", "NaN", "inf", "-inf", "Infinity"])
def test_non_finite_cell_is_data_error_naming_file_line_and_value(tmp_path: Path, cell: str) -> None:
    path = write(tmp_path, "d.csv", f"x1,x2,label\n1,2,1\n3,{cell},0\n")
    message = data_error(load_csv, path)
    assert f"{path}:3:" in message
    assert repr(cell) in message
    assert "not a finite number" in message


@pytest.mark.parametrize("content", ["", "\n\n", "# only a comment\n"])
def test_empty_file_is_data_error(tmp_path: Path, content: str) -> None:
    path = write(tmp_path, "d.csv", content)
    message = data_error(load_csv, path)
    assert path in message
    assert "empty" in message


def test_header_only_is_data_error(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "x1,x2,label\n")
    message = data_error(load_csv, path)
    assert path in message
    assert "only a header" in message


def test_single_column_is_data_error(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "1\n0\n")
    message = data_error(load_csv, path)
    assert f"{path}:1:" in message
    assert "one column" in message


def test_one_class_only_is_data_error(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "x,label\n1,1\n2,1\n")
    message = data_error(load_csv, path)
    assert path in message
    assert "only one class" in message
    assert "'1'" in message


def test_three_labels_is_data_error_naming_the_line_of_the_third(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "x,label\n1,1\n2,0\n3,1\n4,2\n")
    message = data_error(load_csv, path)
    assert f"{path}:5:" in message
    assert "'2'" in message
    assert "third label" in message


def test_labels_other_than_pm1_or_01_need_positive(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "x,label\n1,1\n2,2\n")
    message = data_error(load_csv, path)
    assert path in message
    assert "'1', '2'" in message
    assert "--positive" in message


def test_positive_not_among_the_labels_is_data_error(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "x,label\n1,dog\n2,cat\n")
    message = data_error(load_csv, path, positive="cow")
    assert path in message
    assert "'cow'" in message
    assert "'dog', 'cat'" in message


def test_unknown_label_column_name_is_data_error_listing_columns(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "a,b,c\n1,2,1\n0,0,0\n")
    message = data_error(load_csv, path, label_column="zzz")
    assert path in message
    assert "'zzz'" in message
    assert "a, b, c" in message


def test_label_column_name_without_header_is_data_error(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "1,2,1\n0,0,0\n")
    message = data_error(load_csv, path, label_column="label")
    assert path in message
    assert "no header" in message


@pytest.mark.parametrize("column", ["0", "4", "-4", "99"])
def test_label_column_out_of_range_is_data_error(tmp_path: Path, column: str) -> None:
    path = write(tmp_path, "d.csv", "a,b,c\n1,2,1\n0,0,0\n")
    message = data_error(load_csv, path, label_column=column)
    assert path in message
    assert column in message
    assert "1..3" in message


@pytest.mark.parametrize("column", ["--1", "²"])
def test_malformed_label_column_number_is_data_error(tmp_path: Path, column: str) -> None:
    path = write(tmp_path, "d.csv", "a,b,c\n1,2,1\n0,0,0\n")
    message = data_error(load_csv, path, label_column=column)
    assert column in message


def test_absurd_exponent_is_data_error_naming_line_and_literal(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "x1,x2,label\n1,2,1\n0,1e999999,0\n")
    message = data_error(load_csv, path)
    assert f"{path}:3:" in message
    assert "'1e999999'" in message


def test_five_thousand_digit_cell_is_data_error_showing_its_head(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "x1,x2,label\n1,2,1\n0," + "8" * 5000 + ",0\n")
    message = data_error(load_csv, path)
    assert f"{path}:3:" in message
    assert "8" * 20 in message
    assert len(message) < 300


def test_million_digit_cell_fails_fast_with_data_error_naming_line(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "x1,x2,label\n1,2,1\n0," + "9" * 1_000_000 + ",0\n")
    message = data_error(load_csv, path)
    assert f"{path}:3:" in message
    assert len(message) < 300


def test_huge_label_value_is_cut_short_in_the_message(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "x,label\n1,1\n2," + "7" * 100_000 + "\n3,0\n")
    message = data_error(load_csv, path)
    assert path in message
    assert len(message) < 1000


def test_quote_in_comment_line_does_not_swallow_data_rows(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", 'x1,x2,label\n# exported,"by tool\n1,2,1\n0,0,0\n')
    data = load_csv(path)
    assert data.X == ((F(1), F(2)), (F(0), F(0)))


def test_non_utf8_bytes_are_data_error_naming_line_and_byte(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", b"x1,label\n1,1\n\xff,0\n")
    message = data_error(load_csv, path)
    assert f"{path}:3:" in message
    assert "0xff" in message
    assert "UTF-8" in message


def test_binary_file_is_data_error(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", bytes(range(256)) * 4)
    message = data_error(load_csv, path)
    assert path in message
    assert "binary" in message


def test_directory_is_data_error(tmp_path: Path) -> None:
    message = data_error(load_csv, str(tmp_path))
    assert str(tmp_path) in message
    assert "directory" in message


def test_missing_file_is_data_error(tmp_path: Path) -> None:
    path = str(tmp_path / "absent.csv")
    message = data_error(load_csv, path)
    assert path in message
    assert "no such file" in message


# --- LIBSVM ----------------------------------------------------------------------------------------


def test_libsvm_sparse_indices_are_one_based_and_missing_values_zero(tmp_path: Path) -> None:
    path = write(tmp_path, "d.svm", "+1 1:0.5 3:2\n-1 2:1/3\n")
    data = load_libsvm(path)
    assert data.X == ((F(1, 2), F(0), F(2)), (F(0), F(1, 3), F(0)))
    assert data.y == (1, -1)
    assert data.n_features == 3
    assert data.binary_float is False


def test_libsvm_comments_blank_lines_and_qid_are_ignored(tmp_path: Path) -> None:
    path = write(tmp_path, "d.svm", "# header\n\n1 qid:7 1:1e-1 # trailing\n   \n0 qid:8 2:-4\n")
    data = load_libsvm(path)
    assert data.X == ((F(1, 10), F(0)), (F(0), F(-4)))
    assert data.y == (1, -1)


def test_libsvm_text_labels_with_positive(tmp_path: Path) -> None:
    path = write(tmp_path, "d.svm", "spam 1:1\nham 1:2\n")
    assert load_libsvm(path, positive="spam").y == (1, -1)


def test_libsvm_n_features_widens_the_rows(tmp_path: Path) -> None:
    path = write(tmp_path, "d.svm", "1 1:1\n-1 2:1\n")
    assert load_libsvm(path, n_features=4).X == ((F(1), F(0), F(0), F(0)), (F(0), F(1), F(0), F(0)))
    message = data_error(load_libsvm, path, n_features=1)
    assert "index 2" in message


def test_libsvm_index_zero_is_rejected_when_the_file_is_said_to_be_one_based(tmp_path: Path) -> None:
    path = write(tmp_path, "d.svm", "1 1:1\n-1 0:0.5\n")
    message = data_error(load_libsvm, path, zero_based=False)
    assert f"{path}:2:" in message
    assert "'0:0.5'" in message
    assert "start at 1" in message


def test_libsvm_duplicate_index_is_rejected(tmp_path: Path) -> None:
    path = write(tmp_path, "d.svm", "1 1:1 2:3 1:2\n-1 1:1\n")
    message = data_error(load_libsvm, path)
    assert f"{path}:1:" in message
    assert "index 1 appears twice" in message


@pytest.mark.parametrize("index", [10**9, 10**30, 100_001])
def test_libsvm_huge_index_is_rejected_without_allocating(tmp_path: Path, index: int) -> None:
    path = write(tmp_path, "d.svm", f"1 1:1\n-1 {index}:1\n")
    message = data_error(load_libsvm, path)
    assert f"{path}:2:" in message
    assert str(index) in message


@pytest.mark.parametrize("token", ["foo", "1", ":5", "a:1", "-1:2", "1=2"])
def test_libsvm_token_that_is_not_index_value_is_rejected(tmp_path: Path, token: str) -> None:
    path = write(tmp_path, "d.svm", f"1 1:1\n-1 {token}\n")
    message = data_error(load_libsvm, path)
    assert f"{path}:2:" in message
    assert repr(token) in message


@pytest.mark.parametrize("value", ["abc", "nan", "inf", "1e999999"])
def test_libsvm_bad_value_names_line_feature_and_value(tmp_path: Path, value: str) -> None:
    path = write(tmp_path, "d.svm", f"1 1:1\n-1 2:{value}\n")
    message = data_error(load_libsvm, path)
    assert f"{path}:2:" in message
    assert "feature 2" in message
    assert repr(value) in message


def test_libsvm_without_any_feature_is_rejected(tmp_path: Path) -> None:
    path = write(tmp_path, "d.svm", "1\n-1\n")
    assert "no feature values" in data_error(load_libsvm, path)


def test_libsvm_empty_file_is_rejected(tmp_path: Path) -> None:
    path = write(tmp_path, "d.svm", "# nothing\n\n")
    message = data_error(load_libsvm, path)
    assert path in message
    assert "empty" in message


def test_libsvm_unicode_digit_index_is_data_error(tmp_path: Path) -> None:
    path = write(tmp_path, "d.svm", "1 ²:1\n-1 1:1\n")
    message = data_error(load_libsvm, path)
    assert "²" in message


# --- NumPy -----------------------------------------------------------------------------------------


class _Bomb:
    """Unpickling this would create a directory: a witness that nothing was unpickled."""

    def __init__(self, witness: Path) -> None:
        self.witness = witness

    def __reduce__(self):
        return (os.mkdir, (str(self.witness),))


def test_npy_int_array_with_label_last(tmp_path: Path) -> None:
    path = str(tmp_path / "d.npy")
    np.save(path, np.array([[0, 5, 0], [1, -2, 1]], dtype=np.int64))
    data = load_numpy(path)
    assert data.X == ((F(0), F(5)), (F(1), F(-2)))
    assert data.y == (-1, 1)
    assert data.binary_float is False
    assert all(type(v) is Fraction for row in data.X for v in row)


def test_npy_float_array_is_converted_exactly_from_binary(tmp_path: Path) -> None:
    path = str(tmp_path / "d.npy")
    np.save(path, np.array([[0.1, 0.5, 1.0], [-0.25, 3.0, -1.0]]))
    data = load_numpy(path)
    assert data.X == ((Fraction.from_float(0.1), F(1, 2)), (F(-1, 4), F(3)))
    assert data.X[0][0] != F(1, 10)
    assert data.y == (1, -1)
    assert data.binary_float is True


def test_npy_label_column_by_number(tmp_path: Path) -> None:
    path = str(tmp_path / "d.npy")
    np.save(path, np.array([[1, 7, 8], [0, 9, 10]]))
    data = load_numpy(path, label_column="1")
    assert data.X == ((F(7), F(8)), (F(9), F(10)))
    assert data.y == (1, -1)
    message = data_error(load_numpy, path, label_column="4")
    assert path in message
    assert "1..3" in message


def test_npz_with_X_and_y(tmp_path: Path) -> None:
    path = str(tmp_path / "d.npz")
    np.savez(path, X=np.array([[1, 2], [3, 4], [5, 6]]), y=np.array([1, 0, 1]))
    data = load_numpy(path)
    assert data.X == ((F(1), F(2)), (F(3), F(4)), (F(5), F(6)))
    assert data.y == (1, -1, 1)
    assert data.binary_float is False


def test_npz_alternative_key_names(tmp_path: Path) -> None:
    path = str(tmp_path / "d.npz")
    np.savez(path, features=np.array([[0.5], [2.0]]), labels=np.array([-1, 1]))
    data = load_numpy(path)
    assert data.X == ((F(1, 2),), (F(2),))
    assert data.y == (-1, 1)
    assert data.binary_float is True


def test_npy_object_array_is_refused_and_never_unpickled(tmp_path: Path) -> None:
    witness = tmp_path / "unpickled"
    path = str(tmp_path / "d.npy")
    np.save(path, np.array([[_Bomb(witness), 1], [2, 0]], dtype=object), allow_pickle=True)
    message = data_error(load_numpy, path)
    assert path in message
    assert "unpickling" in message
    assert not witness.exists()


def test_npz_object_array_is_refused_and_never_unpickled(tmp_path: Path) -> None:
    witness = tmp_path / "unpickled"
    path = str(tmp_path / "d.npz")
    np.savez(path, X=np.array([[_Bomb(witness)], [2]], dtype=object), y=np.array([1, 0]))
    message = data_error(load_numpy, path)
    assert path in message
    assert "unpickling" in message
    assert not witness.exists()


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_npy_non_finite_value_is_rejected_naming_its_position(tmp_path: Path, bad: float) -> None:
    path = str(tmp_path / "d.npy")
    np.save(path, np.array([[0.5, 1.0, 1.0], [2.0, bad, 0.0]]))
    message = data_error(load_numpy, path)
    assert path in message
    assert "[1, 1]" in message
    assert "not a finite number" in message


@pytest.mark.parametrize("array", [np.array([1, 0, 1]), np.zeros((2, 2, 2)), np.array([[1], [0]]), np.array(5)])
def test_npy_with_wrong_shape_is_rejected(tmp_path: Path, array: np.ndarray) -> None:
    path = str(tmp_path / "d.npy")
    np.save(path, array)
    message = data_error(load_numpy, path)
    assert path in message
    assert str(array.shape) in message


def test_npy_of_strings_is_rejected_by_dtype(tmp_path: Path) -> None:
    path = str(tmp_path / "d.npy")
    np.save(path, np.array([["1", "a"], ["0", "b"]]))
    message = data_error(load_numpy, path)
    assert path in message
    assert "dtype" in message


@pytest.mark.parametrize("X, y, expected", [
    (np.array([1, 2]), np.array([1, 0]), "X has shape (2,)"),
    (np.array([[1], [2]]), np.array([1, 0, 1]), "y has shape (3,)"),
    (np.array([[1], [2]]), np.array([[1, 0], [0, 1]]), "y has shape (2, 2)"),
])
def test_npz_with_wrong_shapes_is_rejected(tmp_path: Path, X, y, expected: str) -> None:
    path = str(tmp_path / "d.npz")
    np.savez(path, X=X, y=y)
    message = data_error(load_numpy, path)
    assert path in message
    assert expected in message


def test_npz_without_X_and_y_names_what_it_found(tmp_path: Path) -> None:
    path = str(tmp_path / "d.npz")
    np.savez(path, A=np.array([[1], [2]]), y=np.array([1, 0]))
    message = data_error(load_numpy, path)
    assert "['A', 'y']" in message


def test_text_file_named_npy_is_data_error(tmp_path: Path) -> None:
    path = write(tmp_path, "d.npy", "1,2,1\n0,0,0\n")
    assert path in data_error(load_numpy, path)


def test_missing_npy_is_data_error(tmp_path: Path) -> None:
    path = str(tmp_path / "absent.npy")
    message = data_error(load_numpy, path)
    assert path in message
    assert "no such file" in message


def test_npy_malformed_label_column_is_data_error(tmp_path: Path) -> None:
    path = str(tmp_path / "d.npy")
    np.save(path, np.array([[1, 7, 8], [0, 9, 10]]))
    assert "--1" in data_error(load_numpy, path, label_column="--1")


# --- load_dataset: choosing the reader -------------------------------------------------------------


def test_load_dataset_reads_npy_and_npz_by_extension(tmp_path: Path) -> None:
    npy = str(tmp_path / "d.npy")
    np.save(npy, np.array([[3, 1], [4, 0]]))
    npz = str(tmp_path / "d.npz")
    np.savez(npz, X=np.array([[3], [4]]), y=np.array([1, 0]))
    assert load_dataset(npy).X == load_dataset(npz).X == ((F(3),), (F(4),))
    assert load_dataset(npy).y == load_dataset(npz).y == (1, -1)


@pytest.mark.parametrize("extension", [".svm", ".libsvm", ".svmlight", ".SVM"])
def test_load_dataset_reads_sparse_extensions_as_libsvm(tmp_path: Path, extension: str) -> None:
    path = write(tmp_path, "d" + extension, "1 2:5\n-1 1:1\n")
    assert load_dataset(path).X == ((F(0), F(5)), (F(1), F(0)))


def test_load_dataset_reads_sparse_looking_txt_as_libsvm(tmp_path: Path) -> None:
    path = write(tmp_path, "d.txt", "# comment\n1 2:5\n-1 1:1\n")
    assert load_dataset(path).X == ((F(0), F(5)), (F(1), F(0)))


def test_load_dataset_reads_dense_txt_and_other_extensions_as_csv(tmp_path: Path) -> None:
    txt = write(tmp_path, "d.txt", "1,2,1\n3,4,0\n")
    dat = write(tmp_path, "d.dat", "1,2,1\n3,4,0\n")
    assert load_dataset(txt).X == load_dataset(dat).X == ((F(1), F(2)), (F(3), F(4)))


def test_load_dataset_format_overrides_the_extension(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "1 2:5\n-1 1:1\n")
    assert load_dataset(path, format="libsvm").X == ((F(0), F(5)), (F(1), F(0)))


def test_load_dataset_passes_label_column_and_positive_to_csv(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "kind,x\nb,1\na,2\n")
    data = load_dataset(path, label_column="kind", positive="a")
    assert data.X == ((F(1),), (F(2),))
    assert data.y == (-1, 1)


def test_load_dataset_rejects_unknown_format(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "1,1\n2,0\n")
    assert "'xml'" in data_error(load_dataset, path, format="xml")


# --- Dataset and from_arrays -----------------------------------------------------------------------


def _small() -> Dataset:
    return Dataset(
        X=((F(0), F(1)), (F(1, 2), F(2)), (F(3), F(-1))), y=(1, -1, 1), source="s.csv",
        feature_names=("a", "b"), binary_float=True, labels=("no", "yes"), default_convention="sum-norm",
    )


def test_reordered_permutes_samples_and_labels_together() -> None:
    data = _small()
    moved = data.reordered([2, 0, 1])
    assert moved.X == ((F(3), F(-1)), (F(0), F(1)), (F(1, 2), F(2)))
    assert moved.y == (1, 1, -1)
    assert (moved.source, moved.feature_names, moved.binary_float, moved.labels, moved.default_convention) == (
        "s.csv", ("a", "b"), True, ("no", "yes"), "sum-norm")


def test_reordered_by_the_identity_is_equal_and_reversing_twice_restores() -> None:
    data = _small()
    assert data.reordered([0, 1, 2]) == data
    assert data.reordered([2, 1, 0]).reordered([2, 1, 0]) == data


@pytest.mark.parametrize("order", [[0, 0, 1], [0, 1], [0, 1, 2, 3], [1, 2, 3]])
def test_reordered_rejects_a_non_permutation(order: list[int]) -> None:
    with pytest.raises(ValueError, match="not a permutation"):
        _small().reordered(order)


def test_dataset_sizes_and_default_feature_names() -> None:
    data = Dataset(X=((F(1), F(2), F(3)), (F(0), F(0), F(0))), y=(-1, 1))
    assert (data.n_samples, data.n_features, data.feature_names) == (2, 3, ("x1", "x2", "x3"))


def test_dataset_of_one_class_is_refused() -> None:
    with pytest.raises(DataError, match="only one class"):
        Dataset(X=((F(1),), (F(2),)), y=(1, 1))


@pytest.mark.parametrize("X, y, fragment", [
    ((), (), "no samples"),
    (((F(1),), (F(1), F(2))), (1, -1), "sample 1 has 2 features"),
    (((F(1),),), (1, -1), "1 samples but 2 labels"),
    (((F(1),), (F(2),)), (1, 0), "y[1]=0"),
])
def test_dataset_rejects_inconsistent_contents(X, y, fragment: str) -> None:
    with pytest.raises(DataError, match=fragment.replace("[", r"\[").replace("]", r"\]")):
        Dataset(X=X, y=y)


def test_from_arrays_reads_strings_exactly_and_ints_as_ints() -> None:
    data = from_arrays([["0.1", 1], ["3/7", 0]], [1, 0], feature_names=["p", "q"], source="mem")
    assert data.X == ((F(1, 10), F(1)), (F(3, 7), F(0)))
    assert data.y == (1, -1)
    assert data.binary_float is False
    assert (data.source, data.feature_names) == ("mem", ("p", "q"))


def test_from_arrays_converts_floats_from_binary_and_says_so() -> None:
    data = from_arrays(np.array([[0.1], [2.0]]), np.array([0, 1]))
    assert data.X == ((Fraction.from_float(0.1),), (F(2),))
    assert data.y == (-1, 1)
    assert data.binary_float is True


def test_from_arrays_maps_text_labels_with_positive() -> None:
    data = from_arrays([[1], [2], [3]], ["dog", "cat", "dog"], positive="dog")
    assert data.y == (1, -1, 1)
    assert data.labels == ("cat", "dog")


def test_from_arrays_bad_value_is_data_error_naming_source_and_position() -> None:
    with pytest.raises(DataError) as info:
        from_arrays([[1], [float("nan")]], [0, 1], source="mem")
    assert "mem" in str(info.value)
    assert "X[1][0]" in str(info.value)


def test_from_arrays_length_mismatch_is_data_error() -> None:
    with pytest.raises(DataError, match="2 samples but 3 labels"):
        from_arrays([[1], [2]], [0, 1, 1])


def test_from_arrays_non_finite_label_is_data_error_naming_source() -> None:
    with pytest.raises(DataError) as info:
        from_arrays([[1], [2]], [float("nan"), 1], source="mem")
    assert "mem" in str(info.value)


@pytest.mark.parametrize("labels, bad", [([1.5, -1], "y[0]=1.5"), ([1, "x"], "y[1]='x'"), ([1, 0], "y[1]=0")])
def test_a_label_that_is_not_exactly_plus_or_minus_one_is_refused_not_truncated(labels, bad):
    with pytest.raises(DataError, match=re.escape(f"label {bad} must be -1 or +1")):
        Dataset(numerators=np.array([[1], [2]]), y=labels)


# --- files that are not regular files ---------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
@pytest.mark.parametrize("loader", [load_csv, load_libsvm, load_numpy, load_dataset])
def test_a_fifo_is_refused_before_it_is_opened(tmp_path, loader) -> None:
    fifo = tmp_path / "data.csv"
    os.mkfifo(fifo)  # opening it to read would wait for a writer forever
    with pytest.raises(DataError, match=r"data\.csv: is a FIFO \(named pipe\), not a regular file"):
        loader(str(fifo))


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
@pytest.mark.parametrize("loader", [load_csv, load_libsvm, load_numpy, load_dataset])
def test_a_device_is_refused_without_reading_it(loader) -> None:
    with pytest.raises(DataError, match="/dev/zero: is a character device, not a regular file"):
        loader("/dev/zero")


def test_a_numpy_file_with_no_rows_is_refused_by_name(tmp_path) -> None:
    np.save(tmp_path / "empty.npy", np.zeros((0, 3)))
    np.savez(tmp_path / "empty.npz", X=np.zeros((0, 2)), y=np.zeros(0))
    with pytest.raises(DataError, match=r"empty\.npy: array 'array' has no rows \(shape \(0, 3\)\)"):
        load_numpy(str(tmp_path / "empty.npy"))
    with pytest.raises(DataError, match=r"empty\.npz: array 'X' has no rows \(shape \(0, 2\)\)"):
        load_numpy(str(tmp_path / "empty.npz"))


def test_no_samples_at_all_says_so() -> None:
    with pytest.raises(DataError, match="<memory>: no samples"):
        from_arrays([], [])


def test_numerators_are_integers_exactly_or_refused() -> None:
    # uint64 beyond int64 would wrap to -1; an object 1.5 would truncate to 1; "1" would be read.
    big = Dataset(numerators=np.array([[2**64 - 1], [1]], dtype=np.uint64), denominator=1, y=[1, -1])
    assert big.X[0][0] == 2**64 - 1
    for bad in ([[1.5], [1]], [["1"], [2]], [[True], [1]]):
        with pytest.raises(DataError, match=r"numerators\[0, 0\] = .* is not an integer"):
            Dataset(numerators=np.array(bad, dtype=object), denominator=1, y=[1, -1])


def test_load_csv_takes_a_label_column_number_as_an_int(tmp_path) -> None:
    path = tmp_path / "d.csv"
    path.write_text("label,x\n1,0\n-1,1\n")
    assert load_csv(str(path), label_column=1).y == (1, -1)
    with pytest.raises(DataError, match="label_column=1.5 must be a column name or a 1-based number"):
        load_csv(str(path), label_column=1.5)  # type: ignore[arg-type]


# --- messages that point at the right place (issue 14) ----------------------------------------------


def _message_of(loader, path) -> str:
    with pytest.raises(DataError) as info:
        loader(str(path))
    return str(info.value)


def test_an_unclosed_quote_is_reported_where_it_opens(tmp_path) -> None:
    path = tmp_path / "q.csv"
    path.write_text('a,b,label\n1,"2,1\n3,4,-1\n5,6,1\n')
    assert _message_of(load_csv, path) == (f"{path}:2: ragged row: 2 cells, expected 3 "
                                           "(a quote opened on this line runs to line 4)")


def test_an_empty_label_is_reported_at_its_own_line(tmp_path) -> None:
    path = tmp_path / "e.csv"
    path.write_text("a,b,label\n1,2,1\n3,4,\n5,6,-1\n")
    assert _message_of(load_csv, path) == f"{path}:3: empty label; every sample needs one"


def test_a_libsvm_line_without_a_label_is_reported_at_that_line(tmp_path) -> None:
    path = tmp_path / "n.svm"
    path.write_text("1 1:2\n2:3\n-1 1:1\n")
    assert _message_of(load_libsvm, path) == f"{path}:2: no label: the line starts with the feature '2:3'"


def test_a_label_is_shown_as_the_file_spells_it_with_its_line(tmp_path) -> None:
    path = tmp_path / "h.csv"
    path.write_text("a,label\n1,0.5\n2,1\n")
    message = _message_of(load_csv, path)
    assert message.startswith(f"{path}:2: labels '0.5', '1' are neither") and "1/2" not in message


def test_leading_zeros_do_not_make_a_libsvm_index_large(tmp_path) -> None:
    path = tmp_path / "z.svm"
    path.write_text("1 0000000001:1\n-1 1:2\n")
    assert load_libsvm(str(path)).X == ((F(1),), (F(2),))


def test_a_truncated_npy_is_called_unreadable_not_python_objects(tmp_path) -> None:
    np.save(tmp_path / "t.npy", np.ones((100, 3)))
    whole = (tmp_path / "t.npy").read_bytes()
    (tmp_path / "t.npy").write_bytes(whole[:200])
    message = _message_of(load_numpy, tmp_path / "t.npy")
    assert message.startswith(f"{tmp_path / 't.npy'}: not a readable NumPy file") and "objects" not in message


def test_an_array_header_declaring_too_many_cells_is_refused_before_any_allocation(tmp_path, monkeypatch) -> None:
    import io
    import zipfile

    from verify_perceptron.data import memory

    monkeypatch.setattr(memory, "available_memory", lambda: (1_280_000_000, "MemAvailable"))  # 5,000,000 cells

    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "<f8", "fortran_order": False, "shape": (10**11, 3)})
    (tmp_path / "huge.npy").write_bytes(header.getvalue() + b"\0" * 64)  # 2.4 TB declared, 128 bytes on disk
    assert _message_of(load_numpy, tmp_path / "huge.npy") == (
        f"{tmp_path / 'huge.npy'}: declares shape (100000000000, 3), more than the limit of 5000000 cells (what "
        "1,280 MB of available memory (MemAvailable) holds at 256 bytes a cell); raise it with --max-cells N "
        "(max_cells= in Python)")
    with zipfile.ZipFile(tmp_path / "bomb.npz", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("X.npy", header.getvalue() + b"\0" * 1000)
        archive.writestr("y.npy", header.getvalue())
    assert "array 'X' declares shape (100000000000, 3)" in _message_of(load_numpy, tmp_path / "bomb.npz")


def test_the_cell_limit_is_the_users_to_lower_or_raise_in_every_reader(tmp_path: Path) -> None:
    csv = write(tmp_path, "d.csv", "x1,x2,label\n1,2,1\n3,4,-1\n5,6,1\n")
    svm = write(tmp_path, "d.svm", "+1 1:1 5:2\n-1 2:3\n")
    npy = tmp_path / "d.npy"
    np.save(npy, np.array([[1, 2, 1], [3, 4, -1]]))
    assert load_csv(csv, max_cells=6).n_samples == 3  # 3 samples x 2 features: exactly at the limit
    assert _message_of(lambda p: load_csv(p, max_cells=5), csv) == (
        f"{csv}: 3 x 2 values, more than the limit of 5 cells; raise it with --max-cells N (max_cells= in Python)")
    assert load_libsvm(svm, max_cells=10).n_features == 5
    assert "2 x 5 values, more than the limit of 9 cells" in _message_of(lambda p: load_libsvm(p, max_cells=9), svm)
    assert load_numpy(str(npy), max_cells=6).n_samples == 2  # the header's 2 x 3 values
    assert "declares shape (2, 3), more than the limit of 5 cells" in _message_of(
        lambda p: load_numpy(p, max_cells=5), npy)
    bad: Any  # values of the wrong type, as a user's untyped code may pass them
    for bad in (0, -1, 2.5, True, "10"):
        with pytest.raises(DataError, match=f"max_cells={bad!r} must be a positive integer"):
            load_dataset(str(csv), max_cells=bad)


def test_a_text_file_larger_than_the_cell_limit_allows_is_refused_from_its_size(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "x1,label\n" + "0.5,1\n-0.5,-1\n" * 5)  # 79 bytes for 10 cells
    assert load_csv(path, max_cells=10).n_samples == 10  # 160 bytes allowed
    message = _message_of(lambda p: load_csv(p, max_cells=4), path)
    assert message == (f"{path}: 79 bytes, more than the 64 bytes allowed (16 a cell) for the limit of 4 cells; "
                       "raise it with --max-cells N (max_cells= in Python)")


def test_libsvm_zero_based_files_are_detected_as_scikit_learn_writes_them(tmp_path: Path) -> None:
    # dump_svmlight_file writes 0-based indices by default: index 0 is feature 1.
    zero = load_libsvm(write(tmp_path, "z.svm", "1 0:1 2:3\n-1 1:2\n"))
    assert zero.X == ((F(1), F(0), F(3)), (F(0), F(2), F(0)))
    one = write(tmp_path, "o.svm", "1 1:1 3:3\n-1 2:2\n")
    assert load_libsvm(one).X == ((F(1), F(0), F(3)), (F(0), F(2), F(0)))  # no index 0: 1-based, as before
    assert load_libsvm(one, zero_based=True).X == ((F(0), F(1), F(0), F(3)), (F(0), F(0), F(2), F(0)))
    with pytest.raises(DataError, match="zero_based='yes' must be True, False or 'auto'"):
        load_libsvm(one, zero_based="yes")


@pytest.mark.parametrize(("text", "delimiter"), [
    ("a;b;label\n0.5;1;1\n1;0;-1\n", None),
    ("a\tb\tlabel\n0.5\t1\t1\n1\t0\t-1\n", None),
    ("0.5 1 1\n1   0   -1\n", None),
    ("a|b|label\n0.5|1|1\n1|0|-1\n", None),
    ("a:b:label\n0.5:1:1\n1:0:-1\n", ":"),
])
def test_semicolons_tabs_and_white_space_separate_cells_too(tmp_path: Path, text: str, delimiter: str | None) -> None:
    path = write(tmp_path, "d.csv", text)
    if delimiter is not None:  # not a separator it knows: said, by name
        with pytest.raises(DataError, match="--delimiter ':' is not one of"):
            load_csv(path, delimiter=delimiter)
        return
    data = load_csv(path)
    assert data.X == ((Fraction(1, 2), F(1)), (F(1), F(0))) and data.y == (1, -1)


def test_a_semicolon_file_with_decimal_commas_names_the_cell(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "a;b;label\n0,5;1;1\n1;0;-1\n")
    assert "column a: '0,5' is not a number" in data_error(load_csv, path)


def test_a_word_in_a_feature_column_suggests_it_may_be_the_labels(tmp_path: Path) -> None:
    path = write(tmp_path, "d.csv", "diagnosis,x,y\nM,1,2\nB,2,1\n")
    assert data_error(load_csv, path).endswith("(if it holds the labels: --label-column diagnosis)")
    assert load_csv(path, label_column="diagnosis", positive="M").y == (1, -1)


@given(st.lists(st.dictionaries(st.integers(1, 6), st.fractions(max_denominator=10**6).filter(bool)
                                .map(lambda f: f * 10**30 if f.denominator == 7 else f), max_size=4),
                min_size=2, max_size=6))
def test_a_sparse_file_reads_as_the_dense_rows_it_stands_for(tmp_path_factory, rows) -> None:
    # The LIBSVM reader builds integer numerators from the stored values only; it must equal the
    # dataset of the dense rows in Fractions, huge numerators included.
    width = max([1, *(i for row in rows for i in row)])
    labels = [1 if r % 2 else -1 for r in range(len(rows))]
    text = "".join(f"{y} " + " ".join(f"{i}:{v}" for i, v in sorted(row.items())) + "\n"
                   for y, row in zip(labels, rows))
    path = tmp_path_factory.mktemp("svm") / "d.svm"
    path.write_text(text)
    dense = [[row.get(j, Fraction(0)) for j in range(1, width + 1)] for row in rows]
    assert load_libsvm(str(path), n_features=width) == Dataset(X=dense, y=labels, source=str(path))


@given(st.lists(st.lists(st.fractions(max_denominator=50), min_size=2, max_size=2), min_size=2, max_size=6))
def test_the_samples_integer_form_is_the_one_computed_from_their_fractions(rows):
    from verify_perceptron.certify._constraints import integer_matrix

    data = Dataset(rows, [1, -1] + [1] * (len(rows) - 2))
    assert integer_matrix(data.X) == ([tuple(r) for r in data.numerators.tolist()], data.denominator)
    assert [tuple(r) for r in data.X] == [tuple(Fraction(v) for v in r) for r in rows]


@pytest.mark.parametrize("seed", range(4))
def test_object_numerators_are_put_in_lowest_terms_exactly_whatever_their_types(seed: int) -> None:
    # Python integers only take one gcd call; np.integer and int subclasses mixed in take the value-by-value path:
    # the same data either way, in lowest terms, exactly
    class Sub(int):
        pass

    rng = np.random.default_rng(seed)
    factor = int(rng.integers(1, 50)) * 2**int(rng.integers(0, 80))
    ints = [[factor * int(v) for v in row] for row in rng.integers(-10**6, 10**6, size=(7, 3))]
    ints[0][0] = 2**200 * factor  # past int64
    denominator = factor * int(rng.integers(1, 9)) * 3
    expected = [[Fraction(v, denominator) for v in row] for row in ints]
    for mixed in (False, True):
        values = np.array([[Sub(v) if mixed and j == 1 else v for j, v in enumerate(row)] for row in ints], dtype=object)
        if mixed:
            values[1, 2] = np.int64(ints[1][2] % 2**62)
            expected[1][2] = Fraction(ints[1][2] % 2**62, denominator)
        data = Dataset(y=[1, -1] * 3 + [1], numerators=values, denominator=denominator)
        assert [[Fraction(v, data.denominator) for v in row] for row in data.numerators.tolist()] == expected
        assert math.gcd(data.denominator, *map(int, data.numerators.ravel().tolist())) == 1
        assert all(type(v) is int for v in data.numerators.ravel().tolist()) or mixed
    with pytest.raises(DataError, match=r"numerators\[1, 0\] = 1\.5 is not an integer"):
        Dataset(y=[1, -1], numerators=np.array([[2, 4], [1.5, 2]], dtype=object), denominator=2)
    with pytest.raises(DataError, match=r"numerators\[0, 1\] = True is not an integer"):
        Dataset(y=[1, -1], numerators=np.array([[2, True], [1, 2]], dtype=object), denominator=2)
