"""The small spellings every report shares: a vector in brackets, a count with its noun, the row index left out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..data.row_index import RowIndex

__all__ = ["approximately", "bracket", "count", "row_index_phrase"]


def bracket(values: Sequence[object]) -> str:
    """``[a, b, c]``, each value as `str` spells it.

    Examples
    --------
    >>> bracket([1, "1/2"]), count(1, "update"), count(3, "update")
    ('[1, 1/2]', '1 update', '3 updates')
    """
    return "[" + ", ".join(str(v) for v in values) + "]"


def approximately(text: str) -> str:
    """`text` with ``x = ≈ v`` (an exact value shown shortened) said as ``x ≈ v``.

    Examples
    --------
    >>> approximately("γ = 1, R² = ≈ 2.47476e+07")
    'γ = 1, R² ≈ 2.47476e+07'
    """
    return text.replace(" = ≈ ", " ≈ ")


def count(n: int, noun: str) -> str:
    """``n noun``, the noun plural unless n is 1."""
    return f"{n} {noun}" + ("" if n == 1 else "s")


def row_index_phrase(dataset: Mapping[str, Any]) -> str:
    """``; column 1 (unnamed) read as the row index and left out`` for a report's ``dataset`` record whose
    ``row_index`` says so, else nothing (a record from before the key: nothing either).

    Examples
    --------
    >>> row_index_phrase({"row_index": {"columns": [1], "names": [""]}}), row_index_phrase({"row_index": None})
    ('; column 1 (unnamed) read as the row index and left out', '')
    """
    index = dataset.get("row_index")
    if not index:
        return ""
    return "; " + RowIndex(tuple(index["columns"]), tuple(index["names"])).description
