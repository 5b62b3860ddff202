"""NumPy ``.npy`` and ``.npz`` files read exactly: integers as they are, floats
through `Fraction.from_float`, pickled objects never."""

from __future__ import annotations

import math
import struct
import tokenize
import zipfile
import zlib
from fractions import Fraction
from typing import Any

import numpy as np

from ..errors import DataError
from .files import COLUMN_NUMBER, MAX_CELLS, check_max_cells, refuse_cells, refuse_special
from ._labels import map_labels
from .dataset import Dataset

__all__ = ["load_numpy"]

#: Names an ``.npz`` archive may give its features, then its labels, tried in this order.
_X_KEYS = ("X", "x", "data", "features")
_Y_KEYS = ("y", "Y", "labels", "label", "target")


def _exact_array(array: object, name: str, path: str) -> tuple[list[list[Fraction]], bool]:
    """The rows of `array` as Fractions, and whether they came from binary floats."""
    a = np.asarray(array)
    if a.dtype.kind not in "biuf":
        raise DataError(f"{path}: array {name!r} has dtype {a.dtype}; integers or floats are needed")
    if a.ndim and a.shape[0] == 0:
        raise DataError(f"{path}: array {name!r} has no rows (shape {a.shape}); the perceptron needs samples")
    if a.dtype.kind == "f":
        bad = ~np.isfinite(a)
        if bad.any():
            where = tuple(int(i) for i in np.argwhere(bad)[0])
            raise DataError(f"{path}: {name}{list(where)} = {a[where]!r} is not a finite number")
        convert = Fraction.from_float
        rows = [[convert(float(v)) for v in row] for row in np.atleast_2d(a).reshape(a.shape[0] if a.ndim else 1, -1)]
        return rows, True
    rows = [[Fraction(int(v)) for v in row] for row in np.atleast_2d(a).reshape(a.shape[0] if a.ndim else 1, -1)]
    return rows, False


#: What a damaged .npy or .npz makes NumPy's reader raise besides ValueError: a header that does not
#: parse (tokenize's error, a syntax error), a stream or archive that ends early or does not inflate.
_UNREADABLE = (OSError, EOFError, SyntaxError, tokenize.TokenError, zipfile.BadZipFile, zlib.error, struct.error,
               NotImplementedError, RuntimeError)  # zipfile: an unsupported compression method, an encrypted member


def _declared_shape(handle: Any) -> tuple[int, ...] | None:
    """The shape a ``.npy`` stream's header declares, read without reading the data; None if unreadable."""
    try:
        version = np.lib.format.read_magic(handle)
        read = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        shape, _, _ = read(handle)
    except (ValueError, *_UNREADABLE):
        return None  # np.load will say what is wrong with it
    return tuple(int(n) for n in shape)


def _refuse_declared_size(path: str, is_npz: bool, max_cells: int) -> None:
    """Refuse, naming the file, any array whose header declares more than `max_cells` values (a lie or not),
    before anything is read, allocated or decompressed."""
    def check(shape: tuple[int, ...] | None, name: str) -> None:
        if shape is not None:
            refuse_cells(path, f"{name}declares shape {shape}", math.prod(shape), max_cells)

    try:
        if not is_npz:
            with open(path, "rb") as handle:
                check(_declared_shape(handle), "")
            return
        with zipfile.ZipFile(path) as archive:
            for member in archive.namelist():
                with archive.open(member) as handle:
                    check(_declared_shape(handle), f"array {member.removesuffix('.npy')!r} ")
    except DataError:
        raise  # a DataError is a ValueError: the refusal itself, not a damaged file
    except (ValueError, *_UNREADABLE):  # ValueError: a member name that is not UTF-8, among others
        return  # np.load will say what is wrong with it


def load_numpy(path: str, *, label_column: str | None = None, positive: object = None,
               max_cells: int = MAX_CELLS) -> Dataset:
    """Read ``.npy`` (a 2-D array, labels in the last column or `label_column`) or ``.npz``.

    An ``.npz`` archive holds the features under ``X`` (or ``x``, ``data``,
    ``features``) and the labels under ``y`` (or ``labels``, ``label``,
    ``target``). Pickled objects are never loaded. Floats are converted
    exactly with `Fraction.from_float`. An array whose header declares more
    than `max_cells` values is refused before it is read or decompressed.
    """
    cap = check_max_cells(max_cells)
    refuse_special(path)
    try:
        with open(path, "rb") as handle:
            magic = handle.read(6)
    except FileNotFoundError:
        raise DataError(f"{path}: no such file") from None
    except OSError as error:
        raise DataError(f"{path}: cannot be read ({error.strerror})") from None
    if magic != b"\x93NUMPY" and not magic.startswith(b"PK"):
        raise DataError(f"{path}: not a NumPy file (no .npy or .npz header)")
    _refuse_declared_size(path, magic.startswith(b"PK"), cap)
    try:
        loaded = np.load(path, allow_pickle=False)
    except FileNotFoundError:
        raise DataError(f"{path}: no such file") from None
    except ValueError as error:
        if "allow_pickle" in str(error):
            raise DataError(f"{path}: holds Python objects, and this tool never does unpickling: save numbers only") from None
        raise DataError(f"{path}: not a readable NumPy file ({error})") from None
    except _UNREADABLE as error:
        raise DataError(f"{path}: not a readable NumPy file ({type(error).__name__}: {error})") from None
    if isinstance(loaded, np.lib.npyio.NpzFile):
        with loaded:
            x_key = next((k for k in _X_KEYS if k in loaded.files), None)
            y_key = next((k for k in _Y_KEYS if k in loaded.files), None)
            if x_key is None or y_key is None:
                raise DataError(f"{path}: needs arrays X and y, found {sorted(loaded.files)}")
            try:
                Xa, ya = loaded[x_key], loaded[y_key]
            except ValueError as error:
                if "allow_pickle" not in str(error):
                    raise DataError(f"{path}: not a readable NumPy file ({error})") from None
                raise DataError(f"{path}: holds Python objects, and this tool never does unpickling: save numbers only") from None
            except _UNREADABLE as error:
                raise DataError(f"{path}: not a readable NumPy file ({type(error).__name__}: {error})") from None
        if Xa.ndim != 2:
            raise DataError(f"{path}: X has shape {Xa.shape}; a 2-D array is needed")
        if ya.ndim != 1 or ya.shape[0] != Xa.shape[0]:
            raise DataError(f"{path}: y has shape {ya.shape}; expected ({Xa.shape[0]},)")
        refuse_cells(path, f"X of shape {Xa.shape}", Xa.size, cap)
        rows, x_float = _exact_array(Xa, "X", path)
        labels_raw, _ = _exact_array(ya.reshape(-1, 1), "y", path)
        raw = [r[0] for r in labels_raw]
    else:
        a = loaded
        if a.ndim != 2 or a.shape[1] < 2:
            raise DataError(f"{path}: array of shape {a.shape}; a 2-D array with a label column is needed")
        refuse_cells(path, f"an array of shape {a.shape}", a.size, cap)
        width = a.shape[1]
        target = width - 1
        if label_column is not None:
            if isinstance(label_column, bool) or not isinstance(label_column, (str, int)):
                raise DataError(f"{path}: label_column={label_column!r} must be a 1-based column number")
            text = str(label_column).strip()
            if not COLUMN_NUMBER.fullmatch(text) or not (1 <= abs(int(text)) <= width):
                raise DataError(f"{path}: --label-column {label_column!r} must be a column number 1..{width}")
            target = int(text) - 1 if int(text) > 0 else width + int(text)
        full, x_float = _exact_array(a, "array", path)
        rows = [[v for j, v in enumerate(r) if j != target] for r in full]
        raw = [r[target] for r in full]
    y, spelling = map_labels(raw, positive=positive, source=path)
    return Dataset(X=tuple(tuple(r) for r in rows), y=y, source=path, binary_float=x_float, labels=spelling)
