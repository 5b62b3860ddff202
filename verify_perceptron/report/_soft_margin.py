"""The soft-margin bound in the report: its record (JSON) and the sentences that the text and documents share."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..check.soft_margin import SoftMarginSummary
from ..data.exact_text import exact_text
from ._decimals import decimal_down, decimal_up
from ._words import bracket, count

__all__ = ["soft_margin_record", "soft_margin_sentences"]


def soft_margin_record(summary: SoftMarginSummary | None) -> dict[str, Any] | None:
    """The JSON record: exact constants, and each irrational bound as an enclosure [lower, upper]."""
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
        "tightest": None if s.tightest_bound is None else {
            "update": s.tightest_at, "mistakes": s.tightest_mistakes, "bound": enclosure(s.tightest_bound)},
    }


def soft_margin_sentences(r: Mapping[str, Any], n_samples: int) -> list[str]:
    """Four sentences on the soft-margin bound for a report record ``r``; none when it was not computed."""
    s = r.get("soft_margin")
    if not s:
        return []
    out = [f"u = {bracket(s['u'])} ({s['reference']})",
           f"ρ = {s['rho']}, ‖u‖² = {s['u_sq']}, R² = {s['R_sq']}; {s['short_samples']} of {n_samples} samples "
           f"fall short of ρ (d_i = max(0, ρ − y_i·u·x~_i) > 0), Σ d_i² over one pass = {s['pass_D_sq']}",
           f"after {count(s['n_mistakes'], 'mistake')}, D² = Σ_μ N_μ·d_μ² = {s['D_sq']} and the bound "
           f"((R·‖u‖ + D)/ρ)² lies in [{s['bound']['lower']}, {s['bound']['upper']}] (a rigorous enclosure; "
           "it is irrational)"]
    t = s["tightest"]
    if t:
        out.append(f"nearest to the bound at update {t['update']}: {count(t['mistakes'], 'mistake')} against a "
                   f"bound in [{t['bound']['lower']}, {t['bound']['upper']}]")
    return out
