"""The small spellings every report shares: a vector in brackets, a count with its noun, the row index left out,
which updates a report lists."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..data.row_index import RowIndex

__all__ = ["approximately", "bracket", "count", "row_index_phrase", "updates_heading", "updates_shown"]


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


def updates_shown(r: Mapping[str, Any], max_updates: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The updates a report lists: ``(first, last)``, at most `max_updates` in all (at least 2), the last ones
    being the run's own last updates (the record's ``last_updates``) when the record kept only its first ones.

    Examples
    --------
    >>> r = {"updates": [{"k": k} for k in range(1, 646)], "last_updates": [{"k": k} for k in range(11918, 11928)]}
    >>> first, last = updates_shown(r, 60)
    >>> [u["k"] for u in first][-1], [u["k"] for u in last][:2], len(first) + len(last)
    (50, [11918, 11919], 60)
    """
    updates = r["updates"]
    tail = [u for u in r.get("last_updates") or [] if not updates or u["k"] > updates[-1]["k"]]
    if not tail and len(updates) <= max_updates:
        return list(updates), []
    limit = max(max_updates, 2)
    keep = min(10, limit // 2)
    last = (tail or updates)[-keep:]
    return list(updates[: limit - len(last)]), list(last)


def updates_heading(r: Mapping[str, Any], first: list[dict[str, Any]], last: list[dict[str, Any]]) -> str:
    """``updates 1–50 and 11918–11927 of 11927``: which updates a report lists, of how many.

    Examples
    --------
    >>> updates_heading({"n_updates": 18}, [{"k": k} for k in range(1, 19)], [])
    'updates 1–18 of 18'
    >>> updates_heading({"n_updates": 900}, [{"k": 1}, {"k": 2}], [{"k": 900}])
    'updates 1–2 and 900 of 900'
    """
    def span(part: list[dict[str, Any]]) -> str:
        return str(part[0]["k"]) if len(part) == 1 else f"{part[0]['k']}–{part[-1]['k']}"

    shown = " and ".join(span(part) for part in (first, last) if part)
    return f"updates {shown} of {r['n_updates']}"
