"""LIBSVM/svmlight files read exactly: ``label index:value ...`` lines with
1-based indices, the missing features 0."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from ..errors import DataError
from .files import MAX_CELLS, read_text
from ._labels import map_labels
from .dataset import Dataset
from .rationals import parse_rational

__all__ = ["MAX_FEATURES", "load_libsvm"]

#: Largest dimension a sparse file may declare; a larger index is refused
#: rather than allocated.
MAX_FEATURES = 100_000
#: Numerators below this in magnitude are stored as int64 (with room to spare), larger ones as Python ints.
_INT64_SAFE = 2**62


def load_libsvm(path: str, *, positive: str | None = None, n_features: int | None = None,
                zero_based: bool | str = "auto") -> Dataset:
    """Read LIBSVM/svmlight text: ``label index:value ...``.

    Indices are 1-based, or 0-based with ``zero_based=True``; with ``"auto"``
    (the default, as scikit-learn's reader does) a file holding index 0 is
    0-based. Missing features are 0; ``qid:`` tokens and ``#`` comments are
    ignored. The dimension is the largest index, or `n_features` when given.
    """
    if zero_based not in (True, False, "auto"):
        raise DataError(f"{path}: zero_based={zero_based!r} must be True, False or 'auto'")
    text = read_text(path)
    entries: list[tuple[int, dict[int, Fraction]]] = []
    raw_labels: list[str] = []
    lines: list[int] = []
    highest = 0
    for line_no, line in enumerate(text.splitlines(), start=1):
        content = line.split("#", 1)[0].strip()
        if not content:
            continue
        label, *tokens = content.split()
        if ":" in label:  # the line starts with a feature: its label is missing
            raise DataError(f"{path}:{line_no}: no label: the line starts with the feature {label!r}")
        row: dict[int, Fraction] = {}
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
                row[index] = parse_rational(value_text)
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
    if len(entries) * width > MAX_CELLS:
        raise DataError(f"{path}: {len(entries)} x {width} values exceed the limit of {MAX_CELLS} cells")
    y, spelling = map_labels(raw_labels, positive=positive, source=path, lines=lines)
    numerators, denominator = _dense_numerators([row for _, row in entries], width, shift)
    return Dataset(numerators=numerators, denominator=denominator, y=y, source=path, labels=spelling)


def _dense_numerators(rows: list[dict[int, Fraction]], width: int, shift: int) -> tuple[Any, int]:
    """The rows as integer numerators over one common denominator, built from the stored values only.

    A sparse file is mostly zeros: they stay zeros of the integer array and
    never become `Fraction` objects (200 rows of 100,000 features would make
    20,000,000 of them). The file's index i goes to column i - 1 + `shift`.
    """
    denominator = math.lcm(1, *(v.denominator for row in rows for v in row.values()))
    scaled = [{j: v.numerator * (denominator // v.denominator) for j, v in row.items()} for row in rows]
    big = any(abs(v) >= _INT64_SAFE for row in scaled for v in row.values())
    numerators = np.zeros((len(rows), width), dtype=object if big else np.int64)  # (object zeros are ints)
    for r, row in enumerate(scaled):
        for index, value in row.items():
            numerators[r, index - 1 + shift] = value
    return numerators, denominator
