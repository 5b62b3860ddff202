"""How exact values and verdicts read in findings, notes and reports: vectors, weight names, counts,
learning rates, the note's verdict on a score."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ..data.dataset import Dataset
from ..data.exact_text import exact_text, nearest_float
from ..notes.conventions import Convention


def _vec(values: Sequence[Fraction]) -> str:
    return "[" + ", ".join(exact_text(v) if isinstance(v, (int, Fraction)) else str(v) for v in values) + "]"


def _names(conv: Convention, data: Dataset) -> str:
    return "(" + ", ".join(conv.weight_names(data.n_features)) + ")"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _rate_text(rate: Fraction) -> str:
    """A rate, with the float it is when that reads shorter (``3602879701896397/36028797018963968 (the double 0.1)``)."""
    double = nearest_float(rate)  # None past the doubles' range: no double is that rate
    if double is not None and Fraction.from_float(double) == rate and len(repr(double)) < len(exact_text(rate)):
        return f"{exact_text(rate)} (the double {double!r})"
    return exact_text(rate)


def _short(value: Any) -> str:
    text = " ".join(repr(value).split())
    return text if len(text) <= 60 else text[:57] + "..."


def _judged(conv: Convention, score: Fraction, label: int) -> str:
    """How the note's rule judges this score: "a mistake under classic (y·(w·x~) = 0 <= 0)", or "not a mistake ..."."""
    if conv.name in ("hard-limiter", "hard-limiter-plus"):
        out = 1 if score > 0 or (score == 0 and conv.name == "hard-limiter-plus") else -1
        verdict = "a mistake" if out != label else "not a mistake"
        return f"{verdict} under {conv.name} (sgn(w·x~) = {out:+d}, label {label:+d})"
    product = score * label
    verdict = "a mistake" if product <= 0 else "not a mistake"
    tie = ": a score of exactly 0 is a mistake under this rule" if score == 0 else ""
    return f"{verdict} under {conv.name} (y·(w·x~) = {product} {'<=' if product <= 0 else '>'} 0{tie})"
