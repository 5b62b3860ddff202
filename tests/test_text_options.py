"""`--encoding` and `--thousands`: text files as Windows programs save them (Windows-1252) and numbers grouped
in threes (``"1,234.5"``, ``1.234,5``, ``1 234,5``, ``1'234.5``), read exactly when asked, refused by name when not."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from verify_perceptron import cli
from verify_perceptron.data.readers import load_dataset
from verify_perceptron.errors import DataError

WANT = ((Fraction(2469, 2), Fraction(2)), (Fraction(-3), Fraction(4000)))


def _write(tmp_path: Path, name: str, content: str | bytes) -> str:
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return str(path)


@pytest.mark.parametrize(("text", "thousands", "decimal"), [
    ('x1,x2,label\n"1,234.5",2,1\n-3,"4,000",0\n', ",", "."),  # pandas' to_csv of strings, Excel's CSV
    ("x1;x2;label\n1,234.5;2;1\n-3;4,000;0\n", ",", "."),
    ("x1;x2;label\n1.234,5;2;1\n-3;4.000;0\n", ".", ","),  # a German spreadsheet
    ("x1;x2;label\n1\u202f234,5;2;1\n-3;4\u00a0000;0\n", "space", ","),  # French: narrow and no-break spaces
    ("x1,x2,label\n1'234.5,2,1\n-3,4'000,0\n", "'", "."),  # Swiss
])
def test_numbers_grouped_in_threes_are_read_with_thousands(tmp_path: Path, text: str, thousands: str,
                                                           decimal: str) -> None:
    path = _write(tmp_path, "d.csv", text)
    data = load_dataset(path, thousands=thousands, decimal=decimal)
    assert (data.X, data.y, data.feature_names) == (WANT, (1, -1), ("x1", "x2"))
    with pytest.raises(DataError):  # without the option the same file is bad input, never misread
        load_dataset(path, decimal=decimal)


@pytest.mark.parametrize(("cell", "read"), [("1,23", False), ("12,3456", False), ("1234,567", False),
                                            ("-12,345,678.25e-3", True)])
def test_only_groups_of_three_are_ungrouped(tmp_path: Path, cell: str, read: bool) -> None:
    path = _write(tmp_path, "d.csv", f'x,label\n"{cell}",1\n2,0\n')
    if read:
        assert load_dataset(path, thousands=",").X[0] == (Fraction(-1234567825, 100000),)
    else:
        with pytest.raises(DataError, match=f"'{cell}' is not a number"):
            load_dataset(path, thousands=",")


def test_thousands_that_is_the_decimal_mark_or_another_format_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, "d.csv", "x;label\n1,5;1\n2;0\n")
    with pytest.raises(DataError, match="thousands=',' is also the decimal mark"):
        load_dataset(path, thousands=",", decimal=",")
    with pytest.raises(DataError, match="thousands='#' must be one of"):
        load_dataset(path, thousands="#")
    svm = _write(tmp_path, "d.svm", "1 1:0.5\n-1 1:2\n")
    with pytest.raises(DataError, match=r"--thousands \(thousands=','\) applies to CSV files"):
        load_dataset(svm, thousands=",")


CP1252 = "taille;poids;étiquette\n1,5;2;oui\n-1;0,25;non\n"


def test_windows_1252_text_is_read_with_encoding(tmp_path: Path) -> None:
    path = _write(tmp_path, "d.csv", CP1252.encode("cp1252"))
    data = load_dataset(path, encoding="cp1252", decimal=",", positive="oui")
    assert data.X == ((Fraction(3, 2), Fraction(2)), (Fraction(-1), Fraction(1, 4)))
    assert (data.y, data.feature_names) == ((1, -1), ("taille", "poids"))
    utf8 = _write(tmp_path, "u.csv", CP1252.replace("étiquette", "label"))
    assert load_dataset(utf8, encoding="utf-8", decimal=",", positive="oui").X == data.X
    arff = _write(tmp_path, "d.arff", "@relation r\n@attribute 'é' real\n@attribute c {oui, non}\n@data\n1,oui\n"
                                      "2,non\n".encode("cp1252"))
    assert load_dataset(arff, encoding="cp1252", positive="oui").feature_names == ("é",)
    with pytest.raises(DataError, match="not UTF-8 text"):
        load_dataset(arff, positive="oui")


def test_a_bad_or_wrong_encoding_is_named(tmp_path: Path) -> None:
    path = _write(tmp_path, "d.csv", b"x,label\n1,\x81\n2,0\n")  # 0x81 is no character of Windows-1252
    with pytest.raises(DataError, match=r"d\.csv:2: not cp1252 text \(byte 0x81\)$"):
        load_dataset(path, encoding="cp1252")
    for name in ("ansi", "hex", 7):
        with pytest.raises(DataError, match="is not a text encoding Python knows"):
            load_dataset(path, encoding=name)  # type: ignore[arg-type]
    np.save(tmp_path / "d.npy", np.array([[1.0, 1.0], [2.0, 0.0]]))
    with pytest.raises(DataError, match=r"--encoding \(encoding='cp1252'\) applies to text files"):
        load_dataset(str(tmp_path / "d.npy"), encoding="cp1252")


def test_the_cli_reads_both_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "d.csv", "x1;x2;Größe\n1.234,5;2;grün\n-3;4.000;blau\n".encode("cp1252"))
    assert cli.main(["verify", path, "--positive", "grün", "--decimal-comma"]) == 2
    assert "--encoding cp1252" in capsys.readouterr().err
    assert cli.main(["verify", path, "--positive", "grün", "--decimal-comma", "--encoding", "cp1252"]) == 2
    assert "--thousands ." in capsys.readouterr().err
    assert cli.main(["verify", path, "--positive", "grün", "--decimal-comma", "--encoding", "cp1252",
                     "--thousands", ".", "--format", "json"]) == 0
    dataset = json.loads(capsys.readouterr().out)["dataset"]
    assert dataset["labels"] == {"negative": "blau", "positive": "grün"}
    assert dataset["feature_names"] == ["x1", "x2"]
