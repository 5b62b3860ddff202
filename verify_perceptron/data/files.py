"""What the file readers share: a data file's text read safely, the cap on the
cells a dataset may hold, and the spelling of a column number."""

from __future__ import annotations

import os
import re
import stat

from ..errors import DataError

__all__ = ["COLUMN_NUMBER", "MAX_CELLS", "not_regular", "read_text", "refuse_special"]

#: A column number as ``--label-column`` spells it: a sign and at most nine digits, so
#: ``int`` of it stays cheap whatever the user typed.
COLUMN_NUMBER = re.compile(r"[+-]?[0-9]{1,9}")

#: Most cells (samples times features) a dataset may hold in memory.
MAX_CELLS = 20_000_000


def not_regular(path: str) -> str | None:
    """What `path` is when it exists and is neither a regular file nor a directory (a FIFO, a device, a
    socket), else None: opening such a file can block forever or never end.

    Examples
    --------
    >>> not_regular("/dev/zero"), not_regular(__file__), not_regular("/no/such/file")
    ('a character device', None, None)
    """
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None  # missing or unreadable: the opener reports it
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    return "a socket" if stat.S_ISSOCK(mode) else "not a regular file"


def refuse_special(path: str) -> None:
    """Raise `DataError` naming `path` when it is a FIFO, a device or a socket (see `not_regular`)."""
    kind = not_regular(path)
    if kind is not None:
        raise DataError(f"{path}: is {kind}, not a regular file: save the data to a file first")


def read_text(path: str) -> str:
    """The UTF-8 text of a CSV or LIBSVM file, every failure a `DataError` naming the file.

    A byte-order mark is dropped; a NUL byte near the start means a binary
    file, refused before any parsing.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "d.csv")
    ...     _ = open(path, "wb").write(b"\\xef\\xbb\\xbfx,label\\n")
    ...     read_text(path)
    'x,label\\n'
    """
    refuse_special(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        raise DataError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise DataError(f"{path}: is a directory, not a data file") from None
    except OSError as error:
        raise DataError(f"{path}: cannot be read ({error.strerror})") from None
    if b"\0" in data[:4096]:
        raise DataError(f"{path}: is a binary file, not CSV or LIBSVM text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise DataError(f"{path}:{line}: not UTF-8 text (byte {data[error.start]:#04x})") from None
