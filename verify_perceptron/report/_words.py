"""The two small spellings every report shares: a vector in brackets and a count with its noun."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["approximately", "bracket", "count"]


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
