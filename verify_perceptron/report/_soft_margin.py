"""The soft-margin bound in the report: its record (JSON) and the sentences that the text and documents share."""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..check.soft_margin import SoftMarginSummary
from ..data.exact_text import exact_text
from ._decimals import decimal_down, decimal_up
from ._words import bracket, count

__all__ = ["soft_margin_record", "soft_margin_sentences"]


def rational_root(x: Fraction) -> Fraction | None:
    """√x when it is rational (x >= 0 in lowest terms with a square numerator and denominator), else None.

    Examples
    --------
    >>> rational_root(Fraction(9, 4)), rational_root(Fraction(2)), rational_root(Fraction(0))
    (Fraction(3, 2), None, Fraction(0, 1))
    """
    if x < 0:
        return None
    top, bottom = math.isqrt(x.numerator), math.isqrt(x.denominator)
    return Fraction(top, bottom) if top * top == x.numerator and bottom * bottom == x.denominator else None


def exact_bound(rho: Fraction, R_sq: Fraction, u_sq: Fraction, D_sq: Fraction) -> Fraction | None:
    """((R·‖u‖ + D)/ρ)² when it is rational, else None: it equals (R²·‖u‖² + D² + 2·√(R²·‖u‖²·D²))/ρ², which is
    rational exactly when R²·‖u‖²·D² is the square of a rational.

    Examples
    --------
    >>> exact_bound(Fraction(2), Fraction(2), Fraction(2), Fraction(16))  # ((√2·√2 + 4)/2)²
    Fraction(9, 1)
    >>> exact_bound(Fraction(4), Fraction(3), Fraction(29), Fraction(119)) is None
    True
    """
    root = rational_root(R_sq * u_sq * D_sq)
    return None if root is None else (R_sq * u_sq + D_sq + 2 * root) / (rho * rho)


def soft_margin_record(summary: SoftMarginSummary | None) -> dict[str, Any] | None:
    """The JSON record: exact constants, each bound as an enclosure [lower, upper], and the bound at the end
    exactly (``bound_exact``) when it is rational (`exact_bound`)."""
    if summary is None:
        return None
    s = summary

    def enclosure(pair: tuple[Fraction, Fraction]) -> dict[str, str]:
        return {"lower": decimal_down(pair[0]), "upper": decimal_up(pair[1])}

    return {
        "reference": s.source,
        "u": [exact_text(v) for v in s.reference],
        "rho": exact_text(s.rho), "R_sq": exact_text(s.R_sq), "u_sq": exact_text(s.u_sq),
        "pass_D_sq": exact_text(s.pass_D_sq), "short_samples": s.short_samples,
        "n_mistakes": s.n_mistakes, "D_sq": exact_text(s.D_sq), "bound": enclosure(s.bound),
        "bound_exact": _optional(exact_bound(s.rho, s.R_sq, s.u_sq, s.D_sq)),
        "tightest": None if s.tightest_bound is None else {
            "update": s.tightest_at, "mistakes": s.tightest_mistakes, "bound": enclosure(s.tightest_bound)},
    }


def _optional(value: Fraction | None) -> str | None:
    return None if value is None else exact_text(value)


def soft_margin_sentences(r: Mapping[str, Any], n_samples: int) -> list[str]:
    """Four sentences on the soft-margin bound for a report record ``r``; none when it was not computed."""
    s = r.get("soft_margin")
    if not s:
        return []
    if s.get("bound_exact") is not None:  # R²·‖u‖²·D² is a rational square: the bound is shown as it is
        value = f"= {s['bound_exact']} (exact: R²·‖u‖²·D² is the square of a rational)"
    else:
        value = (f"lies in [{s['bound']['lower']}, {s['bound']['upper']}] (a rigorous enclosure; "
                 "it is irrational)")
    out = [f"u = {bracket(s['u'])} ({s['reference']})",
           f"ρ = {s['rho']}, ‖u‖² = {s['u_sq']}, R² = {s['R_sq']}; {s['short_samples']} of {n_samples} samples "
           f"fall short of ρ (d_i = max(0, ρ − y_i·u·x~_i) > 0), Σ d_i² over one pass = {s['pass_D_sq']}",
           f"after {count(s['n_mistakes'], 'mistake')}, D² = Σ_μ N_μ·d_μ² = {s['D_sq']} and the bound "
           f"((R·‖u‖ + D)/ρ)² {value}"]
    t = s["tightest"]
    if t:
        out.append(f"nearest to the bound at update {t['update']}: {count(t['mistakes'], 'mistake')} against a "
                   f"bound in [{t['bound']['lower']}, {t['bound']['upper']}]")
    return out
