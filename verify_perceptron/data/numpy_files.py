"""NumPy ``.npy`` and ``.npz`` files read exactly: integers as they are, floats
as the binary numbers they are, pickled objects never.

Each array's header is read first: an array that declares more than the
cell limit, more than 8 bytes a cell of it, or (for the features and
labels) anything but integers and floats is refused before it is read or
decompressed. The values are then converted a block at a time
(`verify_perceptron.data.arrays.exact_table`), never a Python object per
value (a long double that is no float64 excepted, within the same limit).

A ``.npy`` file is memory-mapped (``np.load(mmap_mode="r")``), not read
whole into memory. Integer features are their own exact form, but the label
column interleaves them in the file, so they are copied once into one
C-contiguous array (the dataset's numerators), a block of rows at a time,
each block's mapped pages released once copied. Float features are read
from the mapping by `exact_table`, whose integers are a new array anyway;
the file's pages it reads are the page cache's, which the system may drop,
not a second copy. An ``.npz`` member is compressed or stored inside a zip
archive and is read into memory, as before."""

from __future__ import annotations

import contextlib
import math
import mmap
import struct
import tokenize
import zipfile
import zlib
from fractions import Fraction
from typing import Any

import numpy as np

from ..errors import DataError
from .arrays import exact_table
from .files import COLUMN_NUMBER, check_max_cells, limit_text, refuse_cells, refuse_special
from ._labels import map_labels
from .dataset import Dataset, from_table
from .numpy_records import numeric_fields, record_columns, record_table
from .row_index import RowIndex
from .rationals import as_rational, bounded

__all__ = ["load_numpy"]

#: Names an ``.npz`` archive may give its features, then its labels, tried in this order.
_X_KEYS = ("X", "x", "data", "features", "X_train", "x_train")
_Y_KEYS = ("y", "Y", "labels", "label", "target", "y_train", "Y_train")
#: Names an ``.npz`` archive may give its features' names (``np.savez(path, X=b.data, y=b.target,
#: feature_names=b.feature_names)`` of a scikit-learn Bunch), tried in this order.
_NAME_KEYS = ("feature_names", "columns", "names")
#: The names ``np.savez(path, X, y)`` gives two arrays passed without names, in that order.
_POSITIONAL = ("arr_0", "arr_1")


def _members(names: Any) -> tuple[str, str] | None:
    """The members holding the features and the labels: the first of `_X_KEYS` and of `_Y_KEYS`, else the two
    unnamed arrays of ``np.savez(path, X, y)``; None when neither is there.

    Examples
    --------
    >>> _members(["y", "X"]), _members(["arr_0", "arr_1"]), _members(["arr_0", "arr_1", "arr_2"])
    (('X', 'y'), ('arr_0', 'arr_1'), None)
    """
    x_key = next((k for k in _X_KEYS if k in names), None)
    y_key = next((k for k in _Y_KEYS if k in names), None)
    if x_key is not None and y_key is not None:
        return x_key, y_key
    return _POSITIONAL if sorted(names) == list(_POSITIONAL) else None


def _numbers(a: Any, name: str, path: str, max_cells: int) -> Any:
    """`a` ready for `exact_table`: its dtype checked, its values finite, bool as 0/1, and a long double as the
    float64 it equals (else, one value at a time, at most `max_cells` // `_PER_VALUE` of them)."""
    if a.dtype.kind not in "biuf":
        raise DataError(f"{path}: array {name!r} has dtype {a.dtype}; integers or floats are needed")
    if a.ndim and a.shape[0] == 0:
        raise DataError(f"{path}: array {name!r} has no rows (shape {a.shape}); the perceptron needs samples")
    if a.dtype.kind == "b":
        return a.view(np.uint8)
    if a.dtype.kind == "f":
        bad = ~np.isfinite(a)
        if bad.any():
            where = tuple(int(i) for i in np.argwhere(bad)[0])
            raise DataError(f"{path}: {name}{list(where)} = {a[where]!r} is not a finite number")
        if a.dtype.itemsize > 8:  # long double: exact through float64 when it holds the same values
            with np.errstate(over="ignore", under="ignore"):  # a value past float64 becomes inf: not equal
                narrow = a.astype(np.float64)
            if (narrow == a).all():
                return narrow
            refuse_cells(path, f"{name} of {a.size} long doubles, read one by one at {_PER_VALUE} cells each",
                         a.size * _PER_VALUE, max_cells)
    return a


def _mapped(path: str) -> Any:
    """A ``.npy`` file's array memory-mapped read-only (`np.load` with ``mmap_mode="r"``), or, where NumPy
    cannot map it (an empty array, an odd file), read whole as before, NumPy naming what is wrong."""
    try:
        mapped = np.load(path, allow_pickle=False, mmap_mode="r")
    except (ValueError, *_UNREADABLE):
        mapped = None
    return mapped if isinstance(mapped, np.memmap) else np.load(path, allow_pickle=False)


#: Rows copied (and their mapped pages released) at a time from a memory-mapped ``.npy``.
_ROWS = 1 << 14


def _off_the_map(features: Any, loaded: Any) -> Any:
    """The features `exact_table` reads: integers that are a view of a memory-mapped file copied into memory (they
    are their own exact form), else as they are; the mapped pages read so far released."""
    if not isinstance(loaded, np.memmap):
        return features
    _release(loaded, loaded.shape[0])  # the pages the checks of values and labels read
    if features.dtype.kind in "iu" and np.may_share_memory(features, loaded):
        return _in_memory(features, loaded)
    return features


def _in_memory(features: Any, mapped: Any) -> Any:
    """The integer `features` (a view of the memory-mapped `mapped`) as a C-contiguous array of the same dtype in
    memory, copied `_ROWS` rows at a time, each block's file pages released once copied: the resident file never
    holds more than a block beside the copy, which is the dataset's numerators (the labels' column interleaves
    the features in the file, so the exact form needs this one copy)."""
    out = np.empty(features.shape, dtype=features.dtype)
    for start in range(0, features.shape[0], _ROWS):
        stop = min(start + _ROWS, features.shape[0])
        out[start:stop] = features[start:stop]
        _release(mapped, stop)
    return out


def _release(mapped: Any, rows: int) -> None:
    """Drop the resident pages of the first `rows` rows of the memory-mapped `mapped` (a read-only mapping: they
    are read again from the file should they be needed); nothing where the platform has no ``madvise``."""
    handle = getattr(mapped, "_mmap", None)  # (NumPy's mapping; None for a view of another memmap)
    advice = getattr(mmap, "MADV_DONTNEED", None)
    if handle is None or advice is None or not mapped.flags.c_contiguous:
        return
    start = mapped.offset % mmap.ALLOCATIONGRANULARITY  # the array's first byte within the mapping
    end = (start + rows * mapped.strides[0]) // mmap.PAGESIZE * mmap.PAGESIZE
    if end > 0:
        with contextlib.suppress(OSError, ValueError):
            handle.madvise(advice, 0, min(end, len(handle)))


#: What a value read one at a time (a `Fraction`, its integers, its place in lists) costs, in int64 cells.
_PER_VALUE = 24


def _labels(ya: Any, path: str, positive: object) -> tuple[Any, tuple[str, str]]:
    """The labels as an int64 array of -1/+1 and their spelling: the first value, the first other one and a
    third if any (which `map_labels` refuses without `positive`) found by comparisons, each read once; with a
    third and `positive`, one class against the rest, every distinct value read (`_against_rest`)."""
    first = [0]
    other = ya != ya[0]
    if other.any():
        first.append(int(np.argmax(other)))
        third = other & (ya != ya[first[1]])
        if third.any():
            if positive is not None:
                return _against_rest(ya, path, positive)
            first.append(int(np.argmax(third)))
    mapped, spelling = map_labels(_exact(ya, first, path), positive=positive, source=path, samples=first)
    return np.where(other, mapped[-1], mapped[0]).astype(np.int64), spelling


def _label_first(error: DataError, features: Any, labels: Any, path: str) -> DataError:
    """`error`, refusing the labels of a ``.npy`` file's last column, saying which ``--label-column`` would help
    where that column has more than two values and the first exactly two (``np.save(path, np.c_[y, X])``)."""
    if features.ndim != 2 or not features.shape[1] or labels.dtype.kind not in "biuf":
        return error
    if len(np.unique(labels)) <= 2 or len(np.unique(features[:, 0])) != 2:
        return error
    return DataError(f"{error}; column 1 holds two values: if it holds the labels, give --label-column 1 "
                     "(label_column='1' in Python)")


def _exact(ya: Any, samples: list[int], path: str) -> list[Fraction] | list[str]:
    """Labels `samples` of `ya` as exact numbers: NumPy's scalars exactly, no longer than a literal may be; finite
    floats as their shortest text (``0.1``), which tells distinct floats apart as their exact values do, and is
    how a user names one (``--positive 0.1``) and reads it in a message (not 3602879701896397/36028797018963968)."""
    if ya.dtype.kind == "U":  # text labels (`_words`), read as a CSV file's are
        return [str(ya[i]) for i in samples]
    try:
        exact = [bounded(as_rational(ya[i]), name=f"y[{i}]") for i in samples]  # a huge long double refused here
    except ValueError as error:
        raise DataError(f"{path}: {error}") from None
    return [str(ya[i]) for i in samples] if ya.dtype.kind == "f" else exact


def _against_rest(ya: Any, path: str, positive: object) -> tuple[Any, tuple[str, str]]:
    """`positive` against every other label value: each distinct value read once, each sample mapped by its
    value's index (`np.unique`, which sorts; the values are then named in the order they first occur)."""
    try:
        _, where, inverse = np.unique(ya, return_index=True, return_inverse=True)
    except TypeError:  # values NumPy cannot order (an object array of mixed types): each read exactly
        every = list(range(len(ya)))
        mapped, spelling = map_labels(_exact(ya, every, path), positive=positive, source=path, samples=every)
        return np.asarray(mapped, dtype=np.int64), spelling
    order = np.argsort(where, kind="stable")  # the distinct values in the order the file first has them
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    samples = [int(i) for i in where[order]]
    mapped, spelling = map_labels(_exact(ya, samples, path), positive=positive, source=path, samples=samples)
    return np.asarray(mapped, dtype=np.int64)[rank[inverse.reshape(-1)]], spelling


#: What a damaged .npy or .npz makes NumPy's reader raise besides ValueError: a header that does not
#: parse (tokenize's error, a syntax error), a stream or archive that ends early or does not inflate.
_UNREADABLE = (OSError, EOFError, SyntaxError, tokenize.TokenError, zipfile.BadZipFile, zlib.error, struct.error,
               NotImplementedError, RuntimeError)  # zipfile: an unsupported compression method, an encrypted member


def _declared(handle: Any) -> tuple[tuple[int, ...], Any] | None:
    """The shape and dtype a ``.npy`` stream's header declares, read without reading the data; None if unreadable."""
    try:
        version = np.lib.format.read_magic(handle)
        read = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        shape, _, dtype = read(handle)
    except (ValueError, *_UNREADABLE):
        return None  # np.load will say what is wrong with it
    return tuple(int(n) for n in shape), dtype


def _check_declared(path: str, name: str, declared: tuple[tuple[int, ...], Any] | None, max_cells: int,
                    read: bool, words: bool = False) -> None:
    """Refuse an array whose header declares more than `max_cells` values or 8 bytes a value on average (a lie
    or not), and, for an array that will be `read`, one that is not numbers (or, for the labels, `words`, text),
    before anything is read, allocated or decompressed."""
    if declared is None:
        return
    shape, dtype = declared
    cells = math.prod(shape)
    label = f"array {name!r} " if name else ""
    refuse_cells(path, f"{label}declares shape {shape}", cells, max_cells)
    if cells * dtype.itemsize > 8 * max_cells:
        raise DataError(f"{path}: {label}declares shape {shape} of dtype {dtype}: {cells * dtype.itemsize} bytes, "
                        f"more than the {8 * max_cells} allowed (8 a cell of {limit_text(max_cells)}); "
                        "raise it with --max-cells N (max_cells= in Python)")
    if read and dtype.hasobject:
        raise DataError(f"{path}: holds Python objects, and this tool never does unpickling: save numbers only")
    if read and dtype.kind not in ("biufUS" if words else "biuf") and not numeric_fields(dtype):
        raise DataError(f"{path}: array {name or 'array'!r} has dtype {dtype}; integers or floats are needed")


def _refuse_declared_size(path: str, is_npz: bool, max_cells: int) -> None:
    """`_check_declared` for the one array of a ``.npy``, or every member of an ``.npz`` (the dtype of the
    features and labels only: other members are never read)."""
    try:
        if not is_npz:
            with open(path, "rb") as handle:
                _check_declared(path, "", _declared(handle), max_cells, read=True)
            return
        with zipfile.ZipFile(path) as archive:
            names = {member.removesuffix(".npy"): member for member in archive.namelist()}
            keys = _members(names) or ("", "")
            for name, member in names.items():
                with archive.open(member) as handle:
                    _check_declared(path, name, _declared(handle), max_cells, read=name in keys,
                                    words=name == keys[1])
    except DataError:
        raise  # a DataError is a ValueError: the refusal itself, not a damaged file
    except (ValueError, *_UNREADABLE):  # ValueError: a member name that is not UTF-8, among others
        return  # np.load will say what is wrong with it


def _npz_arrays(loaded: Any, path: str, cap: int) -> tuple[Any, Any, tuple[str, ...]]:
    """The features and labels of an ``.npz`` archive (`_members`), each checked to be an array of numbers of
    the right shape, and the features' names (`_npz_names`; () where it holds none that fit)."""
    with loaded:
        keys = _members(loaded.files)
        if keys is None:
            raise DataError(f"{path}: needs arrays X and y (np.savez(path, X=X, y=y)), found "
                            f"{sorted(loaded.files)}")
        x_key, y_key = keys
        try:
            Xa, ya = loaded[x_key], loaded[y_key]
        except ValueError as error:
            if "allow_pickle" not in str(error):
                raise DataError(f"{path}: not a readable NumPy file ({error})") from None
            raise DataError(f"{path}: holds Python objects, and this tool never does unpickling: save numbers only") from None
        except _UNREADABLE as error:
            raise DataError(f"{path}: not a readable NumPy file ({type(error).__name__}: {error})") from None
        names = _npz_names(loaded, Xa.shape[1] if isinstance(Xa, np.ndarray) and Xa.ndim == 2 else -1)
    for key, member in ((x_key, Xa), (y_key, ya)):
        if not isinstance(member, np.ndarray):  # NumPy hands back the bytes of a member without a .npy header
            raise DataError(f"{path}: member {key!r} is not a NumPy array (no .npy header)")
    if Xa.ndim != 2:
        raise DataError(f"{path}: {x_key} has shape {Xa.shape}; a 2-D array is needed")
    if ya.ndim == 2 and ya.shape[1] == 1:
        ya = ya[:, 0]  # a column, as y = df[["target"]].to_numpy() makes it (scikit-learn takes it so too)
    if ya.ndim != 1 or ya.shape[0] != Xa.shape[0]:
        raise DataError(f"{path}: {y_key} has shape {ya.shape}; expected ({Xa.shape[0]},) or ({Xa.shape[0]}, 1)")
    refuse_cells(path, f"X of shape {Xa.shape}", Xa.size, cap)
    features = _numbers(Xa, "X", path, cap)
    labels = _words(ya, y_key, path) if ya.dtype.kind in "US" else _numbers(ya, "y", path, cap)
    return features, labels, names


def _npz_names(loaded: Any, width: int) -> tuple[str, ...]:
    """The features' names an ``.npz`` archive holds under one of `_NAME_KEYS`: a 1-D array of `width` texts
    (``U``, or ``S`` as UTF-8); () where there is none that fits (names are a label of the report, never data:
    an array of another length or kind, or of pickled objects, which are never loaded, is not read)."""
    for key in _NAME_KEYS:
        if key not in loaded.files:
            continue
        try:
            member = loaded[key]
        except (ValueError, *_UNREADABLE):
            return ()
        if not isinstance(member, np.ndarray) or member.shape != (width,) or member.dtype.kind not in "US":
            return ()
        try:
            names = tuple(str(n) if member.dtype.kind == "U" else bytes(n).decode("utf-8") for n in member)
        except UnicodeDecodeError:
            return ()
        return names if all(n.strip() for n in names) else ()
    return ()


def _words(ya: Any, name: str, path: str) -> Any:
    """Labels saved as text (``y = df["diagnosis"].to_numpy(dtype=str)``: ``'M'``, ``'B'``), as a str array;
    bytes (``dtype="S"``) as UTF-8. They are read as a CSV file's label column is (`_labels`)."""
    if ya.shape[0] == 0:
        raise DataError(f"{path}: array {name!r} has no rows (shape {ya.shape}); the perceptron needs samples")
    if ya.dtype.kind == "U":
        return ya
    try:
        return np.char.decode(ya, "utf-8")
    except UnicodeDecodeError as error:
        raise DataError(f"{path}: array {name!r} holds bytes that are not UTF-8 text ({error.reason})") from None


def load_numpy(path: str, *, label_column: str | None = None, positive: object = None,
               max_cells: int | None = None, index_column: str = "auto") -> Dataset:
    """Read ``.npy`` (a 2-D array, labels in the last column or `label_column`) or ``.npz``.

    An ``.npz`` archive holds the features under ``X`` (or ``x``, ``data``,
    ``features``, ``X_train``) and the labels under ``y`` (or ``labels``,
    ``label``, ``target``, ``y_train``), or exactly two unnamed arrays,
    features then labels, as ``np.savez(path, X, y)`` writes them. Pickled objects are never loaded. Floats are read exactly,
    as the binary numbers they are. An array whose header declares more than
    `max_cells` values, or more than 8 bytes a cell of it, is refused before
    it is read or decompressed. A ``.npy`` record array (``df.to_records()``) is
    the table of its numeric fields, named (`verify_perceptron.data.numpy_records`): its label
    field `label_column` (a name or a number) or as a CSV file's; with `index_column` ``"auto"``
    a first field ``index`` (what ``to_records`` names the DataFrame's index) is the row index, left out.
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
        loaded = np.load(path, allow_pickle=False) if magic.startswith(b"PK") else _mapped(path)
    except FileNotFoundError:
        raise DataError(f"{path}: no such file") from None
    except ValueError as error:
        if "allow_pickle" in str(error):
            raise DataError(f"{path}: holds Python objects, and this tool never does unpickling: save numbers only") from None
        raise DataError(f"{path}: not a readable NumPy file ({error})") from None
    except _UNREADABLE as error:
        raise DataError(f"{path}: not a readable NumPy file ({type(error).__name__}: {error})") from None
    names: tuple[str, ...] = ()
    row_index = None
    if isinstance(loaded, np.lib.npyio.NpzFile):
        features, labels, names = _npz_arrays(loaded, path, cap)
        target = len(names)  # no label column among the names
    else:
        a = loaded
        if a.dtype.names:  # a record array (df.to_records()): its fields are the columns, by name
            refuse_cells(path, f"a record array of shape {a.shape}", a.size * len(a.dtype.names), cap)
            a, names = record_table(a, path)
            k = record_columns(names, label_column, path)
            if index_column == "auto" and names[0] == "index" and k and len(names) > 2:  # df.to_records()'s
                a, names, k, row_index = a[:, 1:], names[1:], k - 1, RowIndex((1,), ("index",))
            label_column = str(k + 1)
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
        a = _numbers(a, "array", path, cap)
        labels = a[:, target]
        features = a[:, :target] if target == width - 1 else np.delete(a, target, axis=1)  # a view when last
        del a
    try:
        y, spelling = _labels(labels, path, positive)  # first: cheap, and it may refuse the file
    except DataError as error:
        raise _label_first(error, features, labels, path) if label_column is None else error from None
    table = exact_table(_off_the_map(features, loaded), source=path, max_cells=cap)
    del loaded, features, labels  # the file's arrays, gone before the dataset makes its own
    return from_table(table, y, source=path, labels=spelling, row_index=row_index,
                      feature_names=tuple(name for k, name in enumerate(names) if k != target) if names else ())
