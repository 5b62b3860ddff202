"""The soft-margin bound in the report: its record (JSON) and the sentences that the text and documents share."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import MAX_EMAX, MIN_EMIN, ROUND_CEILING, ROUND_FLOOR, Context, Decimal
from fractions import Fraction
from typing import Any

from ..check.soft_margin import SoftMarginSummary
from ._words import bracket, count

__all__ = ["soft_margin_record", "soft_margin_sentences", "decimal_down", "decimal_up"]


def decimal_down(x: Fraction, digits: int = 10) -> str:
    """`x` rounded down to `digits` significant decimal digits (an enclosure's lower end stays below).

    Examples
    --------
    >>> decimal_down(Fraction(2, 3)), decimal_up(Fraction(2, 3)), decimal_up(Fraction(-2, 3), 3)
    ('0.6666666666', '0.6666666667', '-0.666')
    """
    return _rounded(x, digits, up=False)


def decimal_up(x: Fraction, digits: int = 10) -> str:
    """`x` rounded up to `digits` significant decimal digits (an enclosure's upper end stays above)."""
    return _rounded(x, digits, up=True)


def _rounded(x: Fraction, digits: int, *, up: bool) -> str:
    """Decimal division, correctly rounded in the direction asked (`decimal` rounds exactly)."""
    context = Context(prec=digits, rounding=ROUND_CEILING if up else ROUND_FLOOR, Emax=MAX_EMAX, Emin=MIN_EMIN)
    value = context.divide(Decimal(x.numerator), Decimal(x.denominator))
    if not value:
        return "0"
    if -7 < value.adjusted() < 15:  # plain digits; trailing zeros after the point dropped
        text = format(value, "f")
        return text.rstrip("0").rstrip(".") if "." in text else text
    return format(value.normalize(context), "e")


def soft_margin_record(summary: SoftMarginSummary | None) -> dict[str, Any] | None:
    """The JSON record: exact constants, and each irrational bound as an enclosure [lower, upper]."""
    if summary is None:
        return None
    s = summary

    def enclosure(pair: tuple[Fraction, Fraction]) -> dict[str, str]:
        return {"lower": decimal_down(pair[0]), "upper": decimal_up(pair[1])}

    return {
        "reference": s.source,
        "u": [str(v) for v in s.reference],
        "rho": str(s.rho), "R_sq": str(s.R_sq), "u_sq": str(s.u_sq),
        "pass_D_sq": str(s.pass_D_sq), "short_samples": s.short_samples,
        "n_mistakes": s.n_mistakes, "D_sq": str(s.D_sq), "bound": enclosure(s.bound),
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
