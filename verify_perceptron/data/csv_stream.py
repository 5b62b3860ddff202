"""A plain CSV file read a block at a time, in bounded memory: the common case of
`verify_perceptron.data.csv_files.load_csv`, with the same result.

The file is read twice, a block (`BLOCK` bytes) at a time, never whole: once
to count its lines, so that the arrays are sized (and ``--max-cells`` checked)
before they are allocated, then to parse it. Its first lines (the head) go
through the same steps as `load_csv`'s (delimiter, header, label column, row
index: `verify_perceptron.data.csv_layout`); the body goes to the C reader
(`verify_perceptron.data.kernel.csv_block`), which puts each cell's numerator
in lowest terms into one int64 array and the code of its denominator (an
index into the table of the distinct denominators, in the order they first
appear) into a uint16 array, and each label's text into a table of the
distinct label texts. The common denominator is the lcm of the table; the
numerators are scaled over it in place when every product stays below 2^62
(what `Dataset` keeps in int64), and into 64-bit limbs otherwise
(`verify_perceptron.data.limb_arrays`; a decimal file at full precision,
whose common denominator passes int64), the values
`verify_perceptron.data.denominators.over_common_denominator` makes as Python
integers. A cell the C reader cannot hold in int64 is read by
`verify_perceptron.data.rationals.rational_parts`, as today.

Peak memory is the numerators (8 bytes a cell), the codes (2 bytes a cell,
freed before the dataset is built), a byte a row for the labels and two
blocks of text: about 1.25 times the int64 data at 10 features. Past int64
the limbs are made beside the numerators and codes (8 bytes a limb, 2 limbs
a cell for `repr`'s decimals), where Python integers took about 44 bytes a
cell and an object array.

`stream_csv` returns None whenever the file is not that plain case (a quote,
a blank or comment line inside the data, a ragged row, a cell that is no
rational literal, labels `map_labels` refuses, a common denominator past the
limit, a text that is not ASCII past its head, ...): `load_csv` then reads it
as before, and names the error by line and column exactly as before. Only
the outcome where both readers agree is produced here.
"""

from __future__ import annotations

import os
from typing import Any, BinaryIO

import numpy as np

from ..errors import DataError
from . import kernel as _kernel
from . import memory
from ._labels import map_labels
from .csv_layout import _is_header, _layout, _Layout, _pandas_numbers
from .dataset import Dataset
from .delimiters import find_delimiter
from .denominators import _grown_lcm, _refuse_wide
from .files import BYTES_PER_CELL, check_max_cells, not_regular, text_encoding
from .limb_arrays import int_limbs, limbs_for_bits
from .rationals import cell_parts

__all__ = ["BLOCK", "stream_csv"]

#: Bytes read at a time.
BLOCK = 1 << 18
#: The head must hold this many non-blank lines (what `find_delimiter` samples, and one more) unless it is the whole
#: file, and may not pass `_HEAD_LIMIT` bytes.
_HEAD_LINES = 51
_HEAD_LIMIT = 1 << 24
#: A line longer than this is left to the general reader.
_LINE_LIMIT = 1 << 26
#: Capacities of the C reader's tables (see verify_perceptron/data/_csv.h): distinct denominators (a decimal file
#: has at most a few hundred, the powers of ten over their common factors with the numerators; past this many the
#: file is read by the general reader), label texts and their length.
_MAX_DENS, _MAX_LABELS, _LABEL_BYTES = 4096, 255, 64
#: Numerators below this in magnitude are int64 in a Dataset.
_INT64_SAFE = 2**62


def stream_csv(path: str, *, label_column: str | None, positive: object, delimiter: str | None, max_bits: int,
               max_cells: int | None, index_column: str) -> Dataset | None:
    """The Dataset `load_csv` reads from `path`, read in blocks; None where the file is not the plain case.

    The arguments are `load_csv`'s, already checked (`max_cells` a positive int, or None for the default limit,
    what the memory holds: read only for a file past `memory.MIN_CELLS` cells, as reading it costs about
    100 µs).

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "d.csv")
    ...     _ = open(path, "w").write("x1,x2,label\\n0.5,3/7,1\\n-1,2e1,0\\n")
    ...     data = stream_csv(path, label_column=None, positive=None, delimiter=None, max_bits=64, max_cells=100,
    ...                       index_column="auto")
    >>> data.numerators.tolist(), data.denominator, data.y, data.feature_names
    ([[7, 6], [-14, 280]], 14, (1, -1), ('x1', 'x2'))
    """
    if None in (_kernel.csv_block, _kernel.scale_cells, _kernel.scale_limbs) or not_regular(path) is not None:
        return None
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            max_cells = _limit(max_cells, size // BYTES_PER_CELL)
            if max_cells is not None and size > BYTES_PER_CELL * max_cells:
                return None  # load_csv refuses it from its size
            found = _head(handle, path, label_column, delimiter, index_column)
            if found is None:
                return None
            offset, sep, layout = found
            skipped = len(layout.index.columns) if layout.index else 0
            m = len(layout.features)
            if layout.target < skipped or m != layout.width - skipped - 1:
                return None
            handle.seek(offset)
            rows = _count_lines(handle)
            max_cells = _limit(max_cells, rows * m)
            if max_cells is not None and rows * m > max_cells:
                return None  # the general reader refuses it, naming the shape
            handle.seek(offset)
            return _body(handle, path, sep, layout, skipped, rows, positive, max_bits, max_cells)
    except OSError:
        return None  # load_csv says why it cannot read the file


def _limit(max_cells: int | None, cells: int) -> int | None:
    """`max_cells`, or the default limit where none was given and `cells` passes `memory.MIN_CELLS` (below it,
    None still: the default is never below it, so the memory need not be read)."""
    return check_max_cells(None) if max_cells is None and cells > memory.MIN_CELLS else max_cells


def _head(handle: BinaryIO, path: str, label_column: str | None, delimiter: str | None,
          index_column: str) -> tuple[int, int, _Layout] | None:
    """Where the body starts (a byte offset), its separator (a byte; 32 for runs of blanks) and the layout, read
    off the file's first lines as `load_csv` reads them; None where they are not the plain case."""
    parts, newlines, size = [], 0, 0
    while True:  # (4 times the lines needed: a few blank or comment lines among them)
        block = handle.read(BLOCK)
        parts.append(block)
        newlines, size = newlines + block.count(b"\n"), size + len(block)
        if not block or newlines >= 4 * _HEAD_LINES:
            break
        if size > _HEAD_LIMIT:
            return None
    head = b"".join(parts)
    complete = head[: head.rfind(b"\n") + 1] if block else head
    if text_encoding(head) != "utf-8-sig" or b"\0" in head[:4096] or b'"' in complete:
        return None
    start = 3 if complete.startswith(b"\xef\xbb\xbf") else 0
    # The first lines only, also where the head is the whole file: the body's own are read by the C reader, which
    # refuses what would have been refused here (a quote, a lone CR, a comma under another separator). A few
    # more than _HEAD_LINES first (Python's work here is most of a small file's read), 4 times as many where
    # blank or comment lines leave fewer than _HEAD_LINES among them.
    for allowance in (_HEAD_LINES + 8, 4 * _HEAD_LINES):
        cut = bool(block) or newlines > allowance
        try:
            text = complete[start: _line_end(complete, allowance) if cut else len(complete)].decode("utf-8")
        except UnicodeDecodeError:
            return None
        if "\r" in text:
            if text.count("\r") != text.count("\r\n"):
                return None  # a lone CR is a line end to the text reader
        raw_lines = text.split("\n")
        lines = ["" if line.lstrip().startswith("#") else line.removesuffix("\r") for line in raw_lines]
        if not cut or sum(1 for line in lines if line.strip()) >= _HEAD_LINES:
            break
    else:
        return None
    try:
        separator = find_delimiter("\n".join(lines), delimiter, path)
    except DataError:
        return None
    if separator not in (",", ";", "\t", "|", None):
        return None
    if separator != "," and "," in text:
        return None  # as_commas: a comma in a file of another separator goes to the csv module

    def cells(i: int) -> list[str]:
        return lines[i].split(separator) if separator else lines[i].split()

    begin = next((i for i, line in enumerate(lines) if line.strip()), None)
    if begin is None:
        return None
    first = [c.strip() for c in cells(begin)]
    has_header = _is_header(first, label_column)
    if has_header and _pandas_numbers(first) == "bare":
        return None
    body = begin + 1 if has_header else begin
    if body >= len(lines) or not lines[body].strip() or (body == len(lines) - 1 and cut):
        return None
    try:
        layout = _layout(first if has_header else None, len(cells(body)), label_column, index_column, path, body + 1)
    except DataError:
        return None
    if not first[-1]:
        return None  # a last column with no name (or empty on the first row): the general reader sees to it
    offset = start + len("\n".join(raw_lines[:body]).encode("utf-8")) + (1 if body else 0)
    return offset, ord(separator) if separator else 32, layout


def _line_end(text: bytes, count: int) -> int:
    """The offset just past the `count`-th line end of `text` (which holds at least that many)."""
    at = -1
    for _ in range(count):
        at = text.index(b"\n", at + 1)
    return at + 1


def _count_lines(handle: BinaryIO) -> int:
    """The lines from the handle's position to the end of the file (a last line without a line end counts)."""
    count, last = 0, b"\n"
    while block := handle.read(BLOCK):
        count += block.count(b"\n")
        last = block[-1:]
    return count + (last != b"\n")


def _body(handle: BinaryIO, path: str, sep: int, layout: _Layout, skipped: int, rows: int, positive: object,
          max_bits: int, max_cells: int | None) -> Dataset | None:
    """Parse the body (`rows` lines at most) and build the Dataset; None where it is not the plain case."""
    m = len(layout.features)
    nums = np.empty(rows * m, dtype=np.int64)
    codes = np.empty(rows * m, dtype=np.uint16)
    label_codes = np.empty(rows, dtype=np.uint8)
    state = np.zeros(6, dtype=np.int64)
    capacity = min(_MAX_DENS, rows * m + 1)
    table, maxabs = np.zeros(capacity, dtype=np.int64), np.zeros(capacity, dtype=np.int64)
    slots = np.zeros(1 << max(1, (2 * capacity - 1).bit_length()), dtype=np.int32)
    texts, lengths = np.zeros(_MAX_LABELS * _LABEL_BYTES, dtype=np.uint8), np.zeros(_MAX_LABELS, dtype=np.int64)
    left: list[tuple[int, bytes]] = []
    shape = (layout.width, skipped, layout.target)
    read = _kernel.csv_block
    assert read is not None
    carry = b""
    while True:  # complete lines only go to the C reader: a line a block cuts is carried to the next
        block = handle.read(BLOCK)
        end = block.rfind(b"\n") + 1
        if block and not end:
            carry += block
            if len(carry) > _LINE_LIMIT:
                return None
            continue
        cut = block.find(b"\n") + 1  # the line the last block cut, joined (a copy of one line only)
        for lines in (carry + block[:cut], memoryview(block)[cut:end]) if block else (carry,):
            if len(lines) and read(lines, sep, shape, nums, codes, label_codes, state, table, maxabs, slots, texts,
                                   lengths, left):
                return None
        if not block:
            break
        carry = block[end:]
    n = int(state[0])
    if n == 0:
        return None
    raws = [bytes(texts[c * _LABEL_BYTES: c * _LABEL_BYTES + int(lengths[c])]).decode("ascii")
            for c in range(int(state[2]))]
    try:
        mapped, spelling = map_labels(raws, positive=positive, source=path)
    except DataError:
        return None
    y = np.array(mapped, dtype=np.int64)[label_codes[:n]]
    del label_codes
    scaled = _over_common_denominator(nums[: n * m], codes[: n * m], table, maxabs, int(state[1]), left, path,
                                      max_bits, max_cells)
    del codes, nums  # the dataset keeps the scaled numerators only
    if scaled is None:
        return None
    values, denominator = scaled
    limbs = values.reshape(n, m, -1) if values.ndim == 2 else None
    return Dataset(y=y, source=path, feature_names=layout.names, labels=spelling, limbs=limbs,
                   numerators=None if limbs is not None else values.reshape(n, m), denominator=denominator,
                   row_index=layout.index)


def _over_common_denominator(nums: Any, codes: Any, table: Any, maxabs: Any, n_dens: int,
                             left: list[tuple[int, bytes]], path: str, max_bits: int,
                             max_cells: int | None) -> tuple[Any, int] | None:
    """The cells over their least common denominator (`over_common_denominator`'s values): the int64 numerators
    scaled in place where every product fits, else a (cells, L) array of them in limbs; None where the general
    reader must name an error."""
    wide: list[tuple[int, int, int]] = []
    code_of = {d: c for c, d in enumerate(table[:n_dens].tolist())} if left else {}
    for k, raw in left:  # the cells the C reader left: huge numbers, or no literal at all (the general reader names it)
        try:
            n, d = cell_parts(raw.decode("ascii"))
        except ValueError:
            return None
        if abs(n) < 2**63 and d < 2**63:
            code = code_of.setdefault(d, n_dens)
            if code == n_dens:  # a new denominator
                if n_dens >= min(_MAX_DENS, len(table)):
                    return None
                table[n_dens], n_dens = d, n_dens + 1
            nums[k], codes[k] = n, code
            maxabs[code] = max(int(maxabs[code]), abs(n))
        else:
            wide.append((k, n, d))
            codes[k] = 0  # (any code: the cell is set below)
    dens = [d if d > 0 else _decimal_denominator(d) for d in table[:n_dens].tolist()]
    distinct = dens + [d for _, _, d in wide]
    common = _grown_lcm(distinct, None, max_bits, lambda k: (path, ""))
    if common is None:
        return None  # past the limit: the general reader names the value that takes it there
    if not wide and common < 2**63:
        factors = [common // d for d in dens]
        if all(int(a) * f < _INT64_SAFE for a, f in zip(maxabs[:n_dens].tolist(), factors)):
            scale = _kernel.scale_cells
            assert scale is not None
            scale(nums, codes, np.array(factors, dtype=np.int64))
            return nums, common
    # Past int64: in limbs (over_common_denominator's memory check first, which counts Python integers: a bound)
    largest = max([int(maxabs[:n_dens].max()) if n_dens else 0] + [abs(n) for _, n, _ in wide])
    try:
        _refuse_wide(largest, common // min(distinct), len(nums), max_cells, path)
    except DataError:
        return None
    # (a code whose numerators are all 0 gets factor 0: its factor alone might not fit the limbs)
    factors = [common // d if a else 0 for a, d in zip(maxabs[:n_dens].tolist(), dens)] or [0]
    widest = max([int(a) * f for a, f in zip(maxabs[:n_dens].tolist(), factors)]
                 + [abs(n) * (common // d) for _, n, d in wide])
    L = limbs_for_bits(widest.bit_length())
    limbs = np.empty((len(nums), L), dtype=np.int64)
    in_limbs = _kernel.scale_limbs
    assert in_limbs is not None
    in_limbs(nums, codes, int_limbs(factors, L), limbs)
    if wide:
        cells = np.array([k for k, _, _ in wide], dtype=np.intp)
        limbs[cells] = int_limbs([n * (common // d) for _, n, d in wide], L)
    return limbs, common


def _decimal_denominator(code: int) -> int:
    """The denominator 2^a·5^b the C reader writes as the code -(a·2^16 + b) where it passes int64 (a decimal
    such as repr's 1.2345678901234567e-05, n/(2^21·5^21) in lowest terms).

    Examples
    --------
    >>> _decimal_denominator(-((21 << 16) | 21)) == 10**21
    True
    """
    fives: int = 5 ** (-code & 0xFFFF)
    return fives << (-code >> 16)
