"""`load_numpy` against hostile and unusual NumPy files: refused from the header before anything is read,
converted without a Python object per value, and exact for every float width."""

from __future__ import annotations

import io
import zipfile
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from verify_perceptron.data.numpy_files import load_numpy
from verify_perceptron.errors import DataError


def _npy(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


def test_an_npz_member_that_is_not_an_array_is_bad_input(tmp_path: Path) -> None:
    # NumPy hands back the raw bytes of a member without a .npy header (it was an AttributeError).
    path = tmp_path / "d.npz"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("X.npy", b"this is not an array")
        archive.writestr("y.npy", _npy(np.array([0, 1])))
    with pytest.raises(DataError, match="d.npz: member 'X' is not a NumPy array"):
        load_numpy(str(path))


@pytest.mark.parametrize("dtype, message", [
    ("<U50000000", r"declares shape \(2, 1\) of dtype <U50000000: 400000000 bytes, more than the 80000000 allowed"),
    ("<U2", "array 'X' has dtype <U2; integers or floats are needed"),
    ("complex128", "array 'X' has dtype complex128; integers or floats are needed"),
    ("datetime64[s]", r"array 'X' has dtype datetime64\[s\]; integers or floats are needed"),
])
def test_an_array_that_is_not_numbers_is_refused_from_its_header_before_it_is_read(
        tmp_path: Path, dtype: str, message: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "d.npz"
    np.savez_compressed(path, X=np.zeros((2, 1), dtype=dtype), y=np.array([0, 1]))
    monkeypatch.setattr(np, "load", lambda *a, **k: pytest.fail("the array was read"))
    with pytest.raises(DataError, match=message):
        load_numpy(str(path), max_cells=10**7)


def test_an_npz_member_that_is_never_read_is_not_refused_for_its_dtype(tmp_path: Path) -> None:
    path = tmp_path / "d.npz"
    np.savez(path, X=np.array([[0.5], [1.0]]), y=np.array([0, 1]), names=np.array(["a", "b"]))
    assert load_numpy(str(path)).X == ((Fraction(1, 2),), (Fraction(1),))


def test_a_long_double_that_no_float64_holds_is_read_exactly(tmp_path: Path) -> None:
    if np.finfo(np.longdouble).nmant <= np.finfo(np.float64).nmant:
        pytest.skip("long double is float64 here")
    value = np.longdouble(1) / np.longdouble(3)  # more bits than a float64 has
    path = tmp_path / "d.npy"
    np.save(path, np.array([[value, 0], [np.longdouble(2), 1]], dtype=np.longdouble))
    data = load_numpy(str(path))
    assert data.X[0][0] == Fraction(*value.as_integer_ratio()) != Fraction(float(value))


def test_long_doubles_that_are_float64_values_are_read_in_blocks(tmp_path: Path) -> None:
    path = tmp_path / "d.npy"
    np.save(path, np.array([[0.1, 0], [2.5, 1]], dtype=np.longdouble))
    assert load_numpy(str(path)).X == ((Fraction(0.1),), (Fraction(5, 2),))


def test_a_third_label_is_named_by_its_sample(tmp_path: Path) -> None:
    path = tmp_path / "d.npz"
    np.savez(path, X=np.zeros((6, 1)), y=np.array([0, 1, 1, 0, 2, 0]))
    with pytest.raises(DataError, match="d.npz: sample 4: label '2' is a third label value"):
        load_numpy(str(path))


def test_the_labels_map_by_the_values_each_sample_holds(tmp_path: Path) -> None:
    path = tmp_path / "d.npy"
    np.save(path, np.array([[1.5, 7], [2.5, 3], [0.5, 7]]))
    data = load_numpy(str(path), positive="7")
    assert data.y == (1, -1, 1) and data.labels == ("3", "7")


def test_a_label_past_a_literals_size_is_bad_input(tmp_path: Path) -> None:
    # Found by the fuzz campaign: a long double label near 2^16383 reached str() past 4,300 digits.
    if np.finfo(np.longdouble).maxexp <= 1024:
        pytest.skip("long double is float64 here")
    path = tmp_path / "d.npz"
    np.savez(path, X=np.zeros((2, 1)), y=np.array([np.finfo(np.longdouble).max, 0], dtype=np.longdouble))
    with pytest.raises(DataError, match=r"d.npz: y\[0\]=.* has more than 2000 digits"):
        load_numpy(str(path))


def test_an_npy_file_is_memory_mapped_and_its_integers_copied_once_contiguous(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """np.load maps the file (mmap_mode="r"); the integer features come out as one C-contiguous array of their own
    dtype, equal to the file's, copied in blocks (`_ROWS` made small so that there are several), uint64 included."""
    from verify_perceptron.data import numpy_files

    modes = []
    load = np.load

    def spy(*args: Any, **kwargs: Any) -> Any:
        modes.append(kwargs.get("mmap_mode"))
        return load(*args, **kwargs)

    monkeypatch.setattr(np, "load", spy)
    monkeypatch.setattr(numpy_files, "_ROWS", 7)
    rng = np.random.default_rng(4)
    for dtype in (np.int64, np.int16, np.uint64):
        X = rng.integers(0, 1000, size=(50, 3)).astype(dtype)
        if dtype == np.uint64:
            X[3, 1] = 2**64 - 1  # as int64 it would wrap to -1
        path = tmp_path / f"{np.dtype(dtype).name}.npy"
        np.save(path, np.column_stack([X, (np.arange(50) % 2).astype(dtype)]))
        data = load_numpy(str(path))
        assert data.numerators.flags.c_contiguous
        assert [[int(v) for v in row] for row in data.numerators.tolist()] == [[int(v) for v in row] for row in X]
        assert not isinstance(data.numerators, np.memmap) and data.numerators.base is None
    assert modes == ["r"] * 3


def test_an_npy_file_numpy_cannot_map_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "empty.npy"
    np.save(path, np.zeros((0, 3)))
    with pytest.raises(DataError, match="has no rows"):
        load_numpy(str(path))
