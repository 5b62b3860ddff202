"""The front door for data files: `load_dataset` tells the kind of file from
`format` or its name and hands it to the CSV, LIBSVM or NumPy reader."""

from __future__ import annotations

import codecs
import os
import re
from typing import Any

from ..errors import DataError
from .files import refuse_special, text_encoding
from .arff_files import load_arff
from .csv_files import load_csv
from .compressed import compression, decompressed
from .dataset import Dataset
from .denominators import MAX_DENOMINATOR_BITS
from .libsvm_files import load_libsvm
from .numpy_files import load_numpy
from .row_index import check_index_column

__all__ = ["load_dataset"]


def load_dataset(
    path: str,
    *,
    format: str = "auto",
    label_column: str | None = None,
    positive: object = None,
    delimiter: str | None = None,
    zero_based: bool | str = "auto",
    max_denominator_bits: int = MAX_DENOMINATOR_BITS,
    max_cells: int | None = None,
    index_column: str = "auto",
    decimal: str = ".",
    encoding: str | None = None,
    thousands: str | None = None,
) -> Dataset:
    """Read a dataset, choosing the reader from `format` or from the file's extension.

    ``.npy``/``.npz`` are NumPy, ``.arff`` is ARFF (`load_arff`), and so is a file of another name (but those)
    whose first line is ``@relation`` (KEEL's ``.dat``), ``.svm``, ``.libsvm``, ``.svmlight`` and
    ``.txt`` whose first data line has ``index:value`` tokens are LIBSVM, and
    so is a file of any other name but ``.csv``, ``.tsv``, ``.tab``, ``.dat``
    and ``.data`` whose first data line is a label and ``index:value`` tokens
    only (LIBSVM's own data sets: ``a1a``, ``heart_scale``); anything else is
    CSV. A file compressed with gzip, bzip2 or xz, or a ZIP archive of one
    file, is read as the file inside it, told by that file's name
    (`verify_perceptron.data.compressed`). `delimiter`, `decimal` (``","`` for decimal commas) and `thousands` (a separator between
    groups of three digits, ``","``) go to `load_csv`,
    `zero_based` to `load_libsvm`; `encoding` (a codec's name, ``"cp1252"``; by default UTF-8, or what a
    byte-order mark says) to the readers of text;
    `max_denominator_bits` bounds the common denominator of a CSV or LIBSVM
    file's values (`verify_perceptron.data.denominators.MAX_DENOMINATOR_BITS`
    by default); a NumPy file's binary floats need at most 1,074 bits.
    `max_cells` bounds the values (samples times features) of any file
    (by default what the available memory holds, `verify_perceptron.data.memory`), checked from
    its size or header before anything is allocated. `index_column`
    (``"auto"``, ``"drop"``, ``"keep"``) says whether a CSV file's first
    column is its row index, left out of the data (`load_csv`); LIBSVM and
    NumPy files have none, so ``"drop"`` is refused for them.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "d.csv")
    ...     _ = open(path, "w").write("x1,x2,label\\n0.1,3/7,1\\n-1,0,0\\n")
    ...     data = load_dataset(path)
    >>> data.X, data.y
    (((Fraction(1, 10), Fraction(3, 7)), (Fraction(-1, 1), Fraction(0, 1))), (1, -1))
    """
    if format not in ("auto", "csv", "libsvm", "numpy", "arff"):
        raise DataError(f"format={format!r} must be auto, csv, libsvm, numpy or arff")
    kind = compression(path)
    if kind is not None and not (kind == "zip" and format == "numpy"):  # (an .npz under another name: NumPy's)
        return _inside(path, kind, dict(format=format, label_column=label_column, positive=positive,
                                        delimiter=delimiter, zero_based=zero_based,
                                        max_denominator_bits=max_denominator_bits, max_cells=max_cells,
                                        index_column=index_column, decimal=decimal, encoding=encoding,
                                        thousands=thousands))
    extension = os.path.splitext(path)[1].lower()
    if format == "auto":
        format = _format_of(path, extension)
    index_column = check_index_column(index_column, path)
    _refuse_foreign_options(path, format, index_column, decimal, thousands, encoding)
    if format == "arff":
        return load_arff(path, label_column=label_column, positive=positive,
                         max_denominator_bits=max_denominator_bits, max_cells=max_cells, encoding=encoding)
    if format == "numpy":
        return load_numpy(path, label_column=label_column, positive=positive, max_cells=max_cells,
                          index_column=index_column)
    if format == "libsvm":
        return load_libsvm(path, positive=positive, zero_based=zero_based, max_denominator_bits=max_denominator_bits,
                           max_cells=max_cells, encoding=encoding)
    return load_csv(path, label_column=label_column, positive=positive, delimiter=delimiter,
                    max_denominator_bits=max_denominator_bits, max_cells=max_cells, index_column=index_column,
                    decimal=decimal, encoding=encoding, thousands=thousands)


def _refuse_foreign_options(path: str, format: str, index_column: str, decimal: str, thousands: str | None,
                            encoding: str | None) -> None:
    """A `DataError` for an option given that the reader of `format` has no use for (CSV's, or text's)."""
    if format != "csv" and index_column == "drop":
        raise DataError(f"{path}: --index-column drop (index_column='drop') applies to CSV files; a {format} file "
                        "has no row index column")
    if format != "csv" and thousands is not None:
        raise DataError(f"{path}: --thousands (thousands={thousands!r}) applies to CSV files")
    if format != "csv" and decimal != ".":
        raise DataError(f"{path}: --decimal-comma (decimal={decimal!r}) applies to CSV files; a {format} file "
                        "marks decimals with a point")
    if format == "numpy" and encoding is not None:
        raise DataError(f"{path}: --encoding (encoding={encoding!r}) applies to text files; a NumPy file holds its "
                        "text as Unicode")


#: Extensions that always name a table of cells (read as CSV whatever their first line holds).
_TEXT_TABLES = (".csv", ".tsv", ".tab", ".dat", ".data")


def _sparse_line(tokens: list[str], strict: bool) -> bool:
    """Whether a data line's `tokens` (split at white space) read as LIBSVM's ``label index:value ...``: some
    token after the first holding a colon, or (`strict`, for a file whose name does not say LIBSVM or text) a
    label without one followed by at least one token, each ``index:value`` or ``qid:value``.

    Examples
    --------
    >>> _sparse_line(["+1", "1:0.5", "7:2"], True), _sparse_line(["time", "(h:m)", "y"], True)
    (True, False)
    >>> _sparse_line(["time", "(h:m)", "y"], False), _sparse_line(["1,2,3"], True)
    (True, False)
    """
    if not strict:
        return any(":" in token for token in tokens[1:])
    return len(tokens) > 1 and ":" not in tokens[0] and all(_PAIR.fullmatch(token) for token in tokens[1:])


#: One ``index:value`` (or ``qid:value``) token of a LIBSVM line.
_PAIR = re.compile(r"(?:[0-9]+|qid):[^:]+")


def _format_of(path: str, extension: str) -> str:
    """The reader of `path` by its `extension` (lower case) and, for a name that does not say, its first line."""
    if extension in (".npy", ".npz"):
        return "numpy"
    if extension == ".arff":
        return "arff"
    if extension in (".svm", ".libsvm", ".svmlight"):
        return "libsvm"
    if _first_line(path).lower().startswith("@relation"):
        return "arff"  # an ARFF header under another name: KEEL's .dat files, an OpenML download saved as .txt
    if extension not in _TEXT_TABLES and _looks_sparse(path, strict=extension != ".txt"):
        return "libsvm"  # LIBSVM's own data sets are named a1a, heart_scale, covtype.libsvm.binary
    return "csv"


def _inside(path: str, kind: str, options: dict[str, Any]) -> Dataset:
    """The dataset in the compressed file `path` (`kind` from `compression`), read by `load_dataset` with
    `options`; an error names `path`, not the temporary copy."""
    with decompressed(path, kind, options["max_cells"]) as inner:
        try:
            data = load_dataset(inner, **options)
        except DataError as error:
            raise DataError(str(error).replace(inner, path)) from None
    data.source = path
    return data


def _first_line(path: str) -> str:
    """The first line of a text file (decoded as `_looks_sparse` decodes it) that is neither blank nor an ARFF
    comment (``%``), from its first block; "" where there is none there."""
    refuse_special(path)
    try:
        with open(path, "rb") as handle:
            block = handle.read(_SNIFF)
    except OSError:
        return ""
    text = block.decode(text_encoding(block), errors="replace")
    start = 0
    while start < len(text):  # line by line, never a list of all the block's lines (a large file's refusal)
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        line = text[start:end].strip()
        if line and not line.startswith("%"):
            return line
        start = end + 1
    return ""


def _looks_sparse(path: str, strict: bool = False) -> bool:
    """Whether the first data line of a text file has ``index:value`` tokens after its label (`_sparse_line`).

    The file is decoded as the readers decode it (`verify_perceptron.data.files.text_encoding`: UTF-8, or
    UTF-16/UTF-32 by their byte-order mark), a block at a time until the first line that is neither blank
    nor a comment.
    """
    refuse_special(path)  # never open a FIFO or a device to sniff it
    try:
        with open(path, "rb") as handle:
            block = handle.read(_SNIFF)
            decoder = codecs.getincrementaldecoder(text_encoding(block))(errors="replace")
            text = ""
            while True:
                text += decoder.decode(block, final=not block)
                lines = text.replace("\r", "\n").split("\n")
                for line in lines[:-1] if block else lines:  # (a line the block cut short is read whole next time)
                    content = line.split("#", 1)[0].split()
                    if content:
                        return _sparse_line(content, strict)
                if not block:
                    return False
                text = lines[-1]
                if len(text) > _SNIFF:  # one long line: decided by its start, or only whether it is a comment kept
                    content = text.split("#", 1)[0].split()
                    if content:
                        return _sparse_line(content, strict)
                    text = "#" if "#" in text else ""
                block = handle.read(_SNIFF)
    except OSError:
        return False


#: Bytes read at a time while looking for a text file's first data line.
_SNIFF = 1 << 16
