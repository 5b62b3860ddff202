"""LIBSVM/svmlight files read exactly: ``label index:value ...`` lines with
1-based indices, the missing features 0."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import DataError
from .files import check_max_cells, read_text, refuse_cells, refuse_foreign
from ._labels import map_labels
from .dataset import Dataset
from .denominators import MAX_DENOMINATOR_BITS, as_arrays, check_limit, over_common_denominator
from .rationals import rational_parts

__all__ = ["MAX_FEATURES", "load_libsvm"]

#: Largest dimension a sparse file may declare; a larger index is refused
#: rather than allocated.
MAX_FEATURES = 100_000


def load_libsvm(path: str, *, positive: object = None, n_features: int | None = None,
                zero_based: bool | str = "auto", max_denominator_bits: int = MAX_DENOMINATOR_BITS,
                max_cells: int | None = None, encoding: str | None = None) -> Dataset:
    """Read LIBSVM/svmlight text: ``label index:value ...`` (UTF-8, or `encoding` where given).

    Indices are 1-based, or 0-based with ``zero_based=True``; with ``"auto"``
    (the default, as scikit-learn's reader does) a file holding index 0 is
    0-based. Missing features are 0; ``qid:`` tokens and ``#`` comments are
    ignored. The dimension is the largest index, or `n_features` when given.
    The values are stored over their least common denominator, refused past
    `max_denominator_bits` bits by a `DataError` naming the value that takes
    it there. The dense dataset may hold at most `max_cells` values (rows
    times the dimension), checked before it is allocated.
    """
    limit, cap = check_limit(max_denominator_bits), check_max_cells(max_cells)
    if zero_based not in (True, False, "auto"):
        raise DataError(f"{path}: zero_based={zero_based!r} must be True, False or 'auto'")
    refuse_foreign(path)
    text = read_text(path, cap, encoding)
    entries: list[tuple[int, dict[int, tuple[int, int]]]] = []
    raw_labels: list[str] = []
    lines: list[int] = []
    highest = 0
    for line_no, line in enumerate(text.split("\n"), start=1):  # lines as an editor counts them
        content = line.split("#", 1)[0].strip()
        if not content:
            continue
        label, *tokens = content.split()
        if ":" in label:  # the line starts with a feature: its label is missing
            raise DataError(f"{path}:{line_no}: no label: the line starts with the feature {label!r}")
        row: dict[int, tuple[int, int]] = {}  # index -> (numerator, denominator) in lowest terms
        for token in tokens:
            index_text, sep, value_text = token.partition(":")
            if index_text == "qid":
                continue
            if not sep or not (index_text.isascii() and index_text.isdigit()):
                raise DataError(f"{path}:{line_no}: {token!r} is not index:value")
            digits = index_text.lstrip("0") or "0"  # leading zeros are no size: 0000000001 is 1
            index = int(digits) if len(digits) <= 9 else MAX_FEATURES + 1
            if index < 1 and zero_based is False:
                raise DataError(f"{path}:{line_no}: index {index_text} in {token!r}; indices start at 1 "
                                "(--zero-based reads 0-based files)")
            if index > MAX_FEATURES:
                raise DataError(f"{path}:{line_no}: index {index_text} exceeds {MAX_FEATURES} features")
            if index in row:
                raise DataError(f"{path}:{line_no}: index {index} appears twice")
            try:
                row[index] = rational_parts(value_text)
            except ValueError as error:
                raise DataError(f"{path}:{line_no}: feature {index}: {error}") from None
            highest = max(highest, index)
        entries.append((line_no, row))
        raw_labels.append(label)
        lines.append(line_no)
    if not entries:
        raise DataError(f"{path}: empty file: no data rows")
    # 0-based when asked, or (auto, as scikit-learn decides) when some index is 0: feature j is index j - shift.
    shift = 1 if zero_based is True or (zero_based == "auto" and any(0 in row for _, row in entries)) else 0
    highest += shift
    width = highest if n_features is None else n_features
    if width < highest:
        raise DataError(f"{path}: index {highest - shift} exceeds n_features={n_features}")
    if width == 0:
        raise DataError(f"{path}: no feature values at all")
    refuse_cells(path, f"{len(entries)} x {width} values", len(entries) * width, cap)
    y, spelling = map_labels(raw_labels, positive=positive, source=path, lines=lines)
    numerators, denominator = _dense_numerators(entries, width, shift, limit, text, path, cap)
    return Dataset(numerators=numerators, denominator=denominator, y=y, source=path, labels=spelling)


def _dense_numerators(entries: list[tuple[int, dict[int, tuple[int, int]]]], width: int, shift: int,
                      max_bits: int, text: str, path: str, max_cells: int | None = None) -> tuple[Any, int]:
    """The rows as integer numerators over one common denominator, built from the stored values only.

    A sparse file is mostly zeros: they stay zeros of the integer array and
    are never parsed or scaled (200 rows of 100,000 features would make
    20,000,000 of them). The file's index i goes to column i - 1 + `shift`.
    """
    at = [(r, index) for r, (_, row) in enumerate(entries) for index in row]
    values = [value for _, row in entries for value in row.values()]
    nums, dens = as_arrays([n for n, _ in values], [d for _, d in values])

    def where(k: int) -> tuple[str, str]:
        r, index = at[k]
        line = entries[r][0]
        token = next((t for t in text.split("\n")[line - 1].split("#", 1)[0].split()
                      if t.partition(":")[0].lstrip("0") == str(index).lstrip("0")), "")
        return f"{path}:{line}: feature {index}", token.partition(":")[2]

    scaled, denominator = over_common_denominator(nums, dens, max_bits=max_bits, where=where, max_cells=max_cells,
                                                  source=path)
    numerators = np.zeros((len(entries), width), dtype=scaled.dtype)  # (object zeros are ints)
    if at:
        rows, columns = zip(*at)
        numerators[list(rows), [c - 1 + shift for c in columns]] = scaled
    return numerators, denominator
