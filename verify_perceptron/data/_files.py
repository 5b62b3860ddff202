"""What the file readers share: a data file's text read safely, the cap on the
cells a dataset may hold, and the spelling of a column number."""

from __future__ import annotations

import re

from ..errors import DataError

__all__ = ["COLUMN_NUMBER", "MAX_CELLS", "read_text"]

#: A column number as ``--label-column`` spells it: a sign and at most nine digits, so
#: ``int`` of it stays cheap whatever the user typed.
COLUMN_NUMBER = re.compile(r"[+-]?[0-9]{1,9}")

#: Most cells (samples times features) a dataset may hold in memory.
MAX_CELLS = 20_000_000


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
