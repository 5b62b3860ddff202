"""Compressed data files read as the file inside them: gzip, bzip2 and xz (told by their first bytes, as
``np.loadtxt``, pandas and scikit-learn's svmlight reader read ``.csv.gz`` and LIBSVM's ``.bz2`` data sets),
and a ZIP archive holding one file (pandas' ``to_csv("d.csv.zip")``).

The file is decompressed into a temporary directory a block at a time, at most as many bytes as the cell
limit admits for a text file (`verify_perceptron.data.files.BYTES_PER_CELL` a cell): a file that would pass
it is refused before it is all written, so a small file cannot unpack into a full disk or memory. The copy
keeps the inner name (``d.csv.gz`` is read as ``d.csv``), which chooses its reader, and is deleted when it
has been read.
"""

from __future__ import annotations

import bz2
import contextlib
import gzip
import lzma
import os
import tempfile
import zipfile
import zlib
from collections.abc import Callable, Iterator
from typing import IO, Any

from ..errors import DataError
from .files import BYTES_PER_CELL, check_max_cells, limit_text, not_regular

__all__ = ["compression", "decompressed"]

#: First bytes, the compression's name, its opener, and the extensions it adds to a name.
_STREAMS: tuple[tuple[bytes, str, Callable[..., Any], tuple[str, ...]], ...] = (
    (b"\x1f\x8b", "gzip", gzip.open, (".gz", ".gzip")),
    (b"BZh", "bzip2", bz2.open, (".bz2", ".bz")),
    (b"\xfd7zXZ\x00", "xz", lzma.open, (".xz", ".lzma")),
)

#: Bytes copied at a time.
_BLOCK = 1 << 20


def compression(path: str) -> str | None:
    """The compression `path` is in (``"gzip"``, ``"bzip2"``, ``"xz"``, ``"zip"`` for a ZIP archive of one
    file), told by its first bytes whatever its name; None for any other file, a missing, special or
    unreadable one (its reader names those), a ZIP archive of several files (a workbook), or an ``.npz``.

    Examples
    --------
    >>> import gzip, os, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "d.csv.gz")
    ...     with gzip.open(path, "wt") as handle:
    ...         _ = handle.write("x,y\\n1,1\\n")
    ...     compression(path), compression(__file__)
    ('gzip', None)
    """
    if not_regular(path) is not None:
        return None
    try:
        with open(path, "rb") as handle:
            head = handle.read(8)
    except OSError:
        return None
    for magic, name, _, _ in _STREAMS:
        if head.startswith(magic) and (name != "bzip2" or head[3:4].isdigit()):
            return name
    if head.startswith(b"PK\x03\x04") and not path.lower().endswith(".npz") and _only_member(path) is not None:
        return "zip"  # (an .npz is a ZIP archive too, of arrays: the NumPy reader's, whatever it holds)
    return None


def _only_member(path: str) -> zipfile.ZipInfo | None:
    """The one file a ZIP archive holds (directories aside), else None (several, none, or not readable)."""
    try:
        with zipfile.ZipFile(path) as archive:
            files = [info for info in archive.infolist() if not info.is_dir()]
    except (OSError, zipfile.BadZipFile, ValueError, EOFError, NotImplementedError, RuntimeError):
        return None
    return files[0] if len(files) == 1 else None


@contextlib.contextmanager
def decompressed(path: str, kind: str, max_cells: int | None = None) -> Iterator[str]:
    """The path of `path` decompressed (`kind` from `compression`) into a temporary directory, under the
    inner file's name; the directory is deleted when the block ends. A copy that would pass
    ``BYTES_PER_CELL * max_cells`` bytes is refused (`DataError`) once it gets there, as a text file of that
    size would be; a file that does not decompress is refused naming the fault.

    Examples
    --------
    >>> import bz2, os, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "heart_scale.bz2")
    ...     _ = open(path, "wb").write(bz2.compress(b"+1 1:0.5\\n-1 1:-1\\n"))
    ...     with decompressed(path, "bzip2") as inner:
    ...         print(os.path.basename(inner), open(inner).read().split())
    heart_scale ['+1', '1:0.5', '-1', '1:-1']
    """
    cap = check_max_cells(max_cells)
    with tempfile.TemporaryDirectory(prefix="verify-perceptron-") as folder:
        try:
            if kind == "zip":
                member = _only_member(path)
                if member is None:
                    raise DataError(f"{path}: is not a ZIP archive of one file")
                name = os.path.basename(member.filename.rstrip("/")) or "data"
                with zipfile.ZipFile(path) as archive, archive.open(member) as source:
                    inner = _copy(source, os.path.join(folder, name), path, cap)
            else:
                opener, suffixes = next((opener, ends) for _, name, opener, ends in _STREAMS if name == kind)
                base = os.path.basename(path)
                stem = next((base[: -len(end)] for end in suffixes if base.lower().endswith(end)), base)
                with opener(path, "rb") as source:
                    inner = _copy(source, os.path.join(folder, stem or "data"), path, cap)
        except DataError:
            raise
        except (OSError, EOFError, zipfile.BadZipFile, lzma.LZMAError, zlib.error, ValueError, NotImplementedError,
                RuntimeError) as error:
            raise DataError(f"{path}: cannot be decompressed as {kind} ({error})") from None
        yield inner


def _copy(source: IO[bytes], target: str, path: str, max_cells: int) -> str:
    """Copy `source` into the file `target`, a block at a time, refusing (`DataError` naming `path`) past
    ``BYTES_PER_CELL * max_cells`` bytes; `target`."""
    limit, written = BYTES_PER_CELL * max_cells, 0
    with open(target, "wb") as sink:
        while block := source.read(min(_BLOCK, limit + 1 - written)):
            written += len(block)
            if written > limit:
                raise DataError(f"{path}: decompresses to more than the {limit} bytes allowed "
                                f"({BYTES_PER_CELL} a cell) for {limit_text(max_cells)}; "
                                "raise it with --max-cells N (max_cells= in Python)")
            sink.write(block)
    return target
