"""One class against the rest: ``--positive VALUE`` (``positive=`` in Python) on labels of more than two values.

Every reader maps a sample to +1 exactly when its label equals the value named, and says which values became
-1; without a value named, a third label is refused as before, and the message says how to go on.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from verify_perceptron.cli import main
from verify_perceptron.data.dataset import from_arrays
from verify_perceptron.data.readers import load_dataset
from verify_perceptron.errors import DataError

# three classes, the middle one first seen last (the names follow the file's order: 0, 2, then 1)
LABELS = [0, 2, 0, 2, 1, 1, 2, 0, 1, 2]
X = [[k, (k * 7) % 5 - 2] for k in range(len(LABELS))]


def _write(tmp_path: Path, kind: str) -> str:
    y = np.array(LABELS)
    if kind == "csv":
        path = tmp_path / "three.csv"
        path.write_text("a,b,label\n" + "".join(f"{a},{b},{c}\n" for (a, b), c in zip(X, LABELS)), encoding="utf-8")
    elif kind == "csv-float":  # labels written 1.0 and 2.0 by np.savetxt: the same values
        path = tmp_path / "three_f.csv"
        np.savetxt(path, np.c_[np.array(X, dtype=float), y.astype(float)], fmt="%r", delimiter=",")
    elif kind == "pandas":
        path = tmp_path / "three_pd.csv"
        path.write_text(",a,b,target\n" + "".join(f"{i},{a},{b},{c}\n" for i, ((a, b), c) in
                                                   enumerate(zip(X, LABELS))), encoding="utf-8")
    elif kind == "npy":
        path = tmp_path / "three.npy"
        np.save(path, np.c_[np.array(X, dtype=float), y])
    elif kind == "npz":
        path = tmp_path / "three.npz"
        np.savez(path, X=np.array(X), y=y)
    else:
        path = tmp_path / "three.svm"
        path.write_text("".join(f"{c} 1:{a} 2:{b}\n" for (a, b), c in zip(X, LABELS)), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("kind", ["csv", "csv-float", "pandas", "npy", "npz", "svm"])
@pytest.mark.parametrize("positive", [2, 1, 0])
def test_every_reader_takes_the_value_named_against_the_rest(tmp_path: Path, kind: str, positive: int) -> None:
    data = load_dataset(_write(tmp_path, kind), positive=str(positive))
    assert data.y == tuple(1 if c == positive else -1 for c in LABELS)
    rest = [str(c) for c in dict.fromkeys(LABELS) if c != positive]
    assert data.labels == (", ".join(rest), str(positive))


def test_arrays_take_the_value_named_against_the_rest() -> None:
    assert from_arrays(X, np.array(LABELS), positive=1).y == tuple(1 if c == 1 else -1 for c in LABELS)
    mixed: Any = np.array(["b", "a", "c", "a"], dtype=object)
    assert from_arrays([[0], [1], [2], [3]], mixed, positive="a").y == (-1, 1, -1, 1)


def test_more_than_four_others_are_counted() -> None:
    data = from_arrays([[k] for k in range(7)], list(range(7)), positive=3)
    assert data.labels == ("0, 1, 2, 4, ... (6 values)", "3")


@pytest.mark.parametrize("kind", ["csv", "npz", "svm"])
def test_without_a_value_named_a_third_label_is_refused_saying_how_to_go_on(tmp_path: Path, kind: str) -> None:
    with pytest.raises(DataError, match="third label value.*one named with --positive to be taken against the rest"):
        load_dataset(_write(tmp_path, kind))


def test_a_value_named_that_no_sample_has_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="--positive '5' is not one of the labels"):
        load_dataset(_write(tmp_path, "npz"), positive="5")


def test_a_file_written_label_first_still_gets_its_hint_when_the_value_is_not_a_last_column_value(
        tmp_path: Path) -> None:
    path = tmp_path / "first.csv"
    path.write_text("species,a,b\n1,1.5,0.2\n2,2.5,0.3\n1,3.5,0.4\n", encoding="utf-8")
    with pytest.raises(DataError, match="give --label-column species"):
        load_dataset(str(path), positive="2")
    assert load_dataset(str(path), positive="2", label_column="species").y == (-1, 1, -1)


def test_the_report_names_both_classes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", _write(tmp_path, "csv"), "--positive", "1", "--max-epochs", "3"]) in (0, 1, 3)
    assert "(labels 0, 2 -> -1, 1 -> +1)" in capsys.readouterr().out
