"""The irrational quantities people ask for, as rigorous enclosures: R, ‖w*‖, the normalised margin
γ/‖w*‖ and R·‖w*‖/γ (the square root of note 000's bound), each computed with mpmath's interval
arithmetic from the exact constants and given as rationals [lower, upper] that contain it.

The checker never uses them (it compares squares of rationals); they are for reading, and a test
squares each end in rationals to confirm that it encloses the exact value.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath

from ..notes.bounds import Geometry
from ._soft_margin import decimal_down, decimal_up

__all__ = ["enclosures", "enclosure_record", "enclosure_line", "enclosure_text"]

#: Bits of the interval arithmetic: far more than the 6 to 10 digits shown.
BITS = 100


def _rational(raw: Any) -> Fraction:
    """An mpmath raw binary float (sign, mantissa, exponent, bits) as the rational it is."""
    sign, mantissa, exponent, _ = raw
    value = Fraction(int(mantissa)) * Fraction(2) ** int(exponent)
    return -value if sign else value


def enclosures(g: Geometry) -> dict[str, tuple[Fraction, Fraction]]:
    """``name -> (lower, upper)`` for ``R``, ``ws_norm`` (‖w*‖), ``margin`` (γ/‖w*‖) and ``ratio`` (R‖w*‖/γ).

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> from verify_perceptron.notes.bounds import geometry
    >>> lo, hi = enclosures(geometry(example("and"), Fraction(-4), (Fraction(3), Fraction(2))))["R"]
    >>> lo * lo <= 3 <= hi * hi, float(hi - lo) < 1e-25
    (True, True)
    """
    iv = mpmath.iv
    saved = iv.prec
    iv.prec = BITS
    try:
        def exact(x: Fraction) -> Any:
            return iv.mpf(x.numerator) / iv.mpf(x.denominator)

        R, W, gamma = iv.sqrt(exact(g.R_sq)), iv.sqrt(exact(g.ws_sq)), exact(g.gamma)
        values = {"R": R, "ws_norm": W, "margin": gamma / W, "ratio": R * W / gamma}
        return {name: (_rational(v._mpi_[0]), _rational(v._mpi_[1])) for name, v in values.items()}
    finally:
        iv.prec = saved


def enclosure_record(g: Geometry | None) -> dict[str, dict[str, str]] | None:
    """JSON-ready: each enclosure's ends as decimals rounded outward (still enclosing)."""
    if g is None or g.gamma <= 0:
        return None
    return {name: {"lower": decimal_down(lo), "upper": decimal_up(hi)} for name, (lo, hi) in enclosures(g).items()}


def enclosure_line(record: dict[str, dict[str, str]] | None) -> str | None:
    """The text report's line: ``roots`` and `enclosure_text`."""
    text = enclosure_text(record)
    return None if text is None else f"roots       {text}"


def enclosure_text(record: dict[str, dict[str, str]] | None) -> str | None:
    """``R ∈ [lo, hi], ‖w*‖ ∈ [...], γ/‖w*‖ ∈ [...], R·‖w*‖/γ ∈ [...]   (mpmath interval enclosures)``.

    Examples
    --------
    >>> print(enclosure_text({name: {"lower": "1.414", "upper": "1.415"} for name in ("R", "ws_norm", "margin", "ratio")}))
    R ∈ [1.414, 1.415], ‖w*‖ ∈ [1.414, 1.415], γ/‖w*‖ ∈ [1.414, 1.415], R·‖w*‖/γ ∈ [1.414, 1.415]   (mpmath interval enclosures)
    """
    if not record:
        return None
    shown = {"R": "R", "ws_norm": "‖w*‖", "margin": "γ/‖w*‖", "ratio": "R·‖w*‖/γ"}

    def short(name: str) -> str:
        lo, hi = record[name]["lower"], record[name]["upper"]
        return f"{shown[name]} ∈ [{decimal_down(Fraction(lo), 7)}, {decimal_up(Fraction(hi), 7)}]"

    return ", ".join(short(n) for n in shown) + "   (mpmath interval enclosures)"
