"""What the file readers share: a data file's text read safely, the cap on the
cells a dataset may hold, and the spelling of a column number."""

from __future__ import annotations

import codecs
import os
import re
import shlex
import stat

from ..errors import DataError
from . import memory
from .memory import FALLBACK_CELLS, memory_cells

__all__ = ["BYTES_PER_CELL", "COLUMN_NUMBER", "MAX_CELLS", "cell_units", "check_encoding", "check_max_cells", "file_kind", "limit_text",
           "not_regular", "read_text", "refuse_cells", "refuse_special", "refuse_wide", "text_encoding"]

#: A column number as ``--label-column`` spells it: a sign and at most nine digits, so
#: ``int`` of it stays cheap whatever the user typed.
COLUMN_NUMBER = re.compile(r"[+-]?[0-9]{1,9}")

#: Most cells (samples times features) a dataset may hold where the machine's available memory cannot be read.
#: The default limit (``max_cells=None``) is what that memory holds (`verify_perceptron.data.memory`), unless
#: the user says otherwise (``--max-cells N``, ``max_cells=`` in Python).
MAX_CELLS = FALLBACK_CELLS

#: Bytes a CSV or LIBSVM file may have per cell of the limit, checked from the file's size before it is read:
#: 16 bytes hold a cell such as ``-0.123456789012,`` (a 5,000,000-cell limit admits an 80 MB file).
BYTES_PER_CELL = 16


def check_max_cells(max_cells: object) -> int:
    """`max_cells` as a positive int (None: what the available memory holds, `memory_cells`), else `DataError`
    naming it.

    Examples
    --------
    >>> check_max_cells(1000)
    1000
    >>> check_max_cells(None) >= 100_000
    True
    >>> check_max_cells(0)
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.DataError: max_cells=0 must be a positive integer
    """
    if max_cells is None:
        return memory_cells()
    if isinstance(max_cells, bool) or not isinstance(max_cells, int) or max_cells < 1:
        raise DataError(f"max_cells={max_cells!r} must be a positive integer")
    return max_cells


def limit_text(max_cells: int) -> str:
    """The limit of `max_cells` cells in words, with where it came from when it was not given (`CellLimit`).

    Examples
    --------
    >>> from verify_perceptron.data.memory import CellLimit
    >>> limit_text(1000), limit_text(CellLimit(1000, "what 0 MB of available memory holds"))
    ('the limit of 1000 cells', 'the limit of 1000 cells (what 0 MB of available memory holds)')
    """
    origin = getattr(max_cells, "origin", None)
    return f"the limit of {int(max_cells)} cells" + ("" if origin is None else f" ({origin})")


def refuse_cells(path: str, what: str, cells: int, max_cells: int | None) -> None:
    """Raise `DataError` naming `path` and `what` (a shape, a size) when `cells` passes `max_cells`.

    Examples
    --------
    >>> refuse_cells("d.svm", "200 x 100000 values", 200 * 100000, 10**6)
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.DataError: d.svm: 200 x 100000 values, more than the limit of 1000000 cells; raise it with --max-cells N (max_cells= in Python)
    """
    if max_cells is None and cells <= memory.MIN_CELLS:
        return  # the default limit is never below MIN_CELLS: the memory need not be read (100 µs) for small data
    max_cells = check_max_cells(max_cells)
    if cells > max_cells:
        raise DataError(f"{path}: {what}, more than {limit_text(max_cells)}; "
                        "raise it with --max-cells N (max_cells= in Python)")


def cell_units(n_cells: int, bits: int) -> int:
    """The memory of `n_cells` integers of up to `bits` bits, counted in the cells of `MAX_CELLS` (8 bytes each).

    Below 63 bits an integer is one int64 cell. Past that it is a Python
    integer: 28 bytes and 4 for every 30 bits, 8 more for its place in the
    array, counted twice for the copy a run makes of the samples (times their
    labels), where the int64 copy is narrower than the data.

    Examples
    --------
    >>> cell_units(1000, 62), cell_units(1000, 64), cell_units(1000, 4096)
    (1000, 12000, 146000)
    """
    if bits < 63:
        return n_cells
    return -(-2 * n_cells * (36 + 4 * -(-bits // 30)) // 8)


def refuse_wide(path: str, n_cells: int, bits: int, max_cells: int | None) -> None:
    """Raise `DataError` when `n_cells` integers of up to `bits` bits take more memory than `max_cells` int64
    cells (`cell_units`): checked before the integers are made.

    Examples
    --------
    >>> refuse_wide("d.csv", 300_000, 4090, 5_000_000)
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.DataError: d.csv: 300000 values of up to 4090 bits over one common denominator take the memory of 43800000 int64 values, more than the limit of 5000000 cells; raise it with --max-cells N (max_cells= in Python)
    """
    units = cell_units(n_cells, bits)
    if max_cells is None and units <= memory.MIN_CELLS:
        return  # (as in `refuse_cells`)
    max_cells = check_max_cells(max_cells)
    if units > max_cells:
        raise DataError(f"{path}: {n_cells} values of up to {bits} bits over one common denominator take the memory "
                        f"of {units} int64 values, more than {limit_text(max_cells)}; raise it with --max-cells N "
                        "(max_cells= in Python)")


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
    return file_kind(mode)


def file_kind(mode: int) -> str:
    """What a file whose ``st_mode`` is `mode` is, in words, for one that is not regular.

    Examples
    --------
    >>> import os
    >>> file_kind(os.stat("/dev/null").st_mode), file_kind(os.stat("/").st_mode)
    ('a character device', 'a directory')
    """
    if stat.S_ISDIR(mode):
        return "a directory"
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


#: Files that are not text, told by their first bytes: what each is, and how to make a CSV of it.
_FOREIGN = (
    (b"\x1f\x8b", "gzip-compressed", "decompress it first (gunzip -k FILE)"),
    (b"BZh", "bzip2-compressed", "decompress it first (bunzip2 -k FILE)"),
    (b"\xfd7zXZ\x00", "xz-compressed", "decompress it first (unxz -k FILE)"),
    (b"PK\x03\x04", "a ZIP archive (an .xlsx workbook, a zipped CSV, an .npz)",
     "unzip it, save a workbook's sheet as CSV, or name an .npz file .npz"),
    (b"PAR1", "a Parquet file", "save it as CSV: pd.read_parquet(PATH).to_csv('data.csv', index=False)"),
    (b"\xd0\xcf\x11\xe0", "an Excel 97-2003 workbook", "save its sheet as CSV"),
    (b"\x93NUMPY", "a NumPy array file", "name it .npy, or give --input-format numpy"),
    (b"MATLAB ", "a MATLAB .mat file", "save its arrays as CSV: X, y from scipy.io.loadmat(PATH), then "
     "np.savetxt('data.csv', np.c_[X, y], delimiter=',')"),
    (b"\x89HDF\r\n\x1a\n", "an HDF5 file", "save its arrays as CSV: pd.read_hdf(PATH).to_csv('data.csv', index=False)"),
    (b"ARROW1", "a Feather (Arrow) file", "save it as CSV: pd.read_feather(PATH).to_csv('data.csv', index=False)"),
    (b"\x80", "a Python pickle (never unpickled here: it can run code)",
     "load it in Python and save it as CSV: df.to_csv('data.csv', index=False)"),
)


_DIGITS = tuple(bytes([c]) for c in b"0123456789")


def refuse_foreign(path: str) -> None:
    """Raise `DataError` naming what `path` is when its first bytes say it is not CSV or LIBSVM text: a
    compressed file, an archive or workbook, Parquet, Feather, HDF5, a MATLAB file, a pickle, a NumPy file
    under another name, JSON (JSON Lines too), an HTML table or XML; nothing
    for any other file (a missing, unreadable or special one is the reader's to name). `load_csv` and
    `load_libsvm` call it first.

    Examples
    --------
    >>> import tempfile, os
    >>> from verify_perceptron.errors import DataError
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "d.csv.gz")
    ...     _ = open(path, "wb").write(b"\\x1f\\x8b\\x08\\x00")
    ...     try:
    ...         refuse_foreign(path)
    ...     except DataError as error:
    ...         print(str(error).replace(tmp, "TMP"))
    TMP/d.csv.gz: is gzip-compressed, not CSV or LIBSVM text: decompress it first (gunzip -k TMP/d.csv.gz)
    """
    if not_regular(path) is not None:
        return  # a FIFO or a device is never opened to sniff it (`refuse_special` names it)
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096)
    except OSError:
        return
    for magic, what, fix in _FOREIGN:
        # the two magics that are text could begin a header ("PAR1,PAR2,y"): read on past them
        if head.startswith(magic) and (magic != b"PAR1" or any(b < 9 for b in head)) and (
                magic != b"BZh" or head[4:10] == b"1AY&SY") and (magic != b"MATLAB " or b"MAT-file" in head) and (
                magic != b"\x80" or head[1:2] in (b"\x02", b"\x03", b"\x04", b"\x05")):
            fix = fix.replace("FILE", shlex.quote(path)).replace("PATH", repr(path))  # for a shell, for Python
            raise DataError(f"{path}: is {what}, not CSV or LIBSVM text: {fix}")
    text = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    if text[:1] in (b"{", b"[") and text[1:].lstrip()[:1] in (b'"', b"{", b"[", b"]", b"}", b"-", *_DIGITS):
        lines = text[:1] == b"{" and (b"}\n{" in text.replace(b"\r", b"") or
                                      path.lower().endswith((".jsonl", ".ndjson")))  # JSON Lines: a record a line
        raise DataError(f"{path}: is JSON{' Lines' if lines else ''}, not CSV or LIBSVM text: save it as CSV, e.g. "
                        f"pd.read_json({path!r}{', lines=True' if lines else ''}).to_csv('data.csv', index=False)")
    markup = _MARKUP.match(text[:200].decode("ascii", "replace"))
    if markup is not None:
        kind, reader = ("XML", "read_xml") if markup[1].lower() == "?xml" else ("an HTML page or table", "read_html")
        fix = f"pd.{reader}({path!r}){'[0]' if reader == 'read_html' else ''}.to_csv('data.csv', index=False)"
        raise DataError(f"{path}: is {kind}, not CSV or LIBSVM text: save it as CSV, e.g. {fix}")


#: The start of a markup file: XML's declaration, an HTML page, or a table as pandas' ``to_html`` writes it.
_MARKUP = re.compile(r"<(\?xml|!doctype html|html|table)\b", re.IGNORECASE)


def _refuse_size(path: str, size: int, max_cells: int) -> None:
    if size > BYTES_PER_CELL * max_cells:
        raise DataError(f"{path}: {size} bytes, more than the {BYTES_PER_CELL * max_cells} bytes allowed ({BYTES_PER_CELL} "
                        f"a cell) for {limit_text(max_cells)}; raise it with --max-cells N "
                        "(max_cells= in Python)")


def check_encoding(encoding: object) -> str | None:
    """`encoding` as Python's name for its codec (None: found from the file, `text_encoding`), else a
    `DataError` naming it.

    Examples
    --------
    >>> check_encoding("CP1252"), check_encoding("latin1"), check_encoding(None)
    ('cp1252', 'iso8859-1', None)
    >>> check_encoding("ansi")
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.DataError: encoding='ansi' is not a text encoding Python knows (cp1252 is Windows' Western one, latin-1, utf-8, utf-16, ...)
    """
    if encoding is None:
        return None
    name = None
    if isinstance(encoding, str) and encoding.isprintable() and len(encoding) <= 40:
        try:
            info = codecs.lookup(encoding)
            name = info.name if getattr(info, "_is_text_encoding", True) else None  # not hex, zlib, ...
        except LookupError:
            pass
    if name is None:
        shown_name = repr(encoding) if isinstance(encoding, str) and len(encoding) <= 40 else type(encoding).__name__
        raise DataError(f"encoding={shown_name} is not a text encoding Python knows (cp1252 is Windows' Western "
                        "one, latin-1, utf-8, utf-16, ...)")
    return "utf-8-sig" if name == "utf-8" else name  # a UTF-8 byte-order mark is dropped, as without the option


def read_text(path: str, max_cells: int | None = None, encoding: str | None = None) -> str:
    """The text of a CSV or LIBSVM file, every failure a `DataError` naming the file: UTF-8 (or UTF-16 or
    UTF-32 where a byte-order mark says so), or `encoding` (a name `check_encoding` takes) where given.

    A file larger than `BYTES_PER_CELL` bytes per cell of `max_cells` is
    refused from its size, before it is read. A byte-order mark is dropped;
    a NUL byte near the start means a binary file, refused before any parsing,
    unless a byte-order mark says UTF-16 or UTF-32, which are read as such. Line
    ends are read as Python's universal newlines read them: ``\r\n`` and a
    lone ``\r`` (an old Mac file, a stray carriage return) are ``\n``.

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
    max_cells = check_max_cells(max_cells)
    limit = BYTES_PER_CELL * max_cells
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            _refuse_size(path, size, max_cells)
            # read(n) allocates n bytes at once (and cannot past an index's range: --max-cells 10**40): the size
            # first; a file that grows while it is read is read on up to the limit, cut there, and refused
            data = handle.read(size + 1)
            if len(data) > size:
                grown = bytearray(data)
                while len(grown) <= limit and (more := handle.read(min(limit + 1 - len(grown), 1 << 20))):
                    grown += more
                data = bytes(grown)
    except FileNotFoundError:
        raise DataError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise DataError(f"{path}: is a directory, not a data file") from None
    except OSError as error:
        raise DataError(f"{path}: cannot be read ({error.strerror})") from None
    _refuse_size(path, len(data), max_cells)
    given = check_encoding(encoding)
    encoding = given or text_encoding(data)
    if given is None and encoding == "utf-8-sig" and b"\0" in data[:4096]:
        raise DataError(f"{path}: is a binary file, not CSV or LIBSVM text")
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise DataError(f"{path}:{line}: {_undecodable(encoding, data[error.start], given is None)}") from None
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def _undecodable(encoding: str, byte: int, found: bool = True) -> str:
    """Why a file's text cannot be read in `encoding`, its first bad `byte` named; for UTF-8 `found` from the
    file (no ``--encoding``), how to read what Excel and other Windows programs write (their "CSV (Comma
    delimited)" is Windows-1252, where 0xe9 is é).

    Examples
    --------
    >>> _undecodable("utf-16", 0xd8)
    'not UTF-16 text (byte 0xd8)'
    >>> _undecodable("utf-8-sig", 0xe9)  # doctest: +ELLIPSIS
    "not UTF-8 text (byte 0xe9; Windows-1252 or Latin-1, as Excel's 'CSV (Comma delimited)' writes? ..."
    >>> _undecodable("cp1252", 0x81, False)
    'not cp1252 text (byte 0x81)'
    """
    name = {"utf-8-sig": "UTF-8", "utf-16": "UTF-16", "utf-32": "UTF-32"}.get(encoding, encoding)
    if name != "UTF-8" or not found:
        return f"not {name} text (byte {byte:#04x})"
    return (f"not UTF-8 text (byte {byte:#04x}; Windows-1252 or Latin-1, as Excel's 'CSV (Comma delimited)' "
            "writes? read it so with --encoding cp1252 (encoding='cp1252' in Python), or save it as 'CSV UTF-8')")


def text_encoding(start: bytes) -> str:
    """The codec that reads a text file beginning with `start`: UTF-16 or UTF-32 when a byte-order mark says so,
    else UTF-8 (a UTF-8 mark dropped). The codec drops the mark it reads.

    Examples
    --------
    >>> text_encoding("1 1:2".encode("utf-16")), text_encoding(b"1 1:2"), text_encoding("1".encode("utf-32"))
    ('utf-16', 'utf-8-sig', 'utf-32')
    """
    return next((name for mark, name in _WIDE_MARKS if start.startswith(mark)), "utf-8-sig")


#: Byte-order marks of the wider Unicode encodings (the codec reads and drops its mark), longest first:
#: UTF-32's little-endian mark begins with UTF-16's.
_WIDE_MARKS = ((b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"), (b"\xff\xfe", "utf-16"),
               (b"\xfe\xff", "utf-16"))
