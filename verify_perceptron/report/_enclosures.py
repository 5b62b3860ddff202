"""The irrational quantities people ask for, as rigorous enclosures: R, ‖w*‖, the normalised margin
γ/‖w*‖ and R·‖w*‖/γ (the square root of note 000's bound), and the angle between the final weights
and w* with the proofs' bound on it, each computed with mpmath's interval arithmetic from the exact
values and given as rationals [lower, upper] that contain it.

The checker never uses them (it compares squares of rationals); they are for reading, and a test
squares each end in rationals to confirm that it encloses the exact value.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import mpmath

from ..data.exact_text import read_exact
from ..data.trace import ScaledWeights
from ..notes.bounds import Geometry
from ._decimals import decimal_down, decimal_up

__all__ = ["angle_enclosures", "angle_text", "enclosures", "enclosure_record", "enclosure_line", "enclosure_text",
           "root_record", "root_text"]

#: Bits of the interval arithmetic: far more than the 6 to 10 digits shown.
BITS = 100


def _rational(raw: Any) -> Fraction:
    """An mpmath raw binary float (sign, mantissa, exponent, bits) as the rational it is."""
    sign, mantissa, exponent, _ = raw
    value = Fraction(int(mantissa)) * Fraction(2) ** int(exponent)
    return -value if sign else value


def _boxes(make: Callable[[Any, Callable[[Fraction], Any]], dict[str, Any]]) -> dict[str, tuple[Fraction, Fraction]]:
    """The intervals ``make(iv, exact)`` returns (`exact` makes a rational an interval), computed at
    `BITS` bits, as rational ``(lower, upper)`` pairs; mpmath's precision is restored after."""
    iv = mpmath.iv
    saved, iv.prec = iv.prec, BITS
    try:
        values = make(iv, lambda x: iv.mpf(x.numerator) / iv.mpf(x.denominator))
        return {name: (_rational(v._mpi_[0]), _rational(v._mpi_[1])) for name, v in values.items()}
    finally:
        iv.prec = saved


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
    def make(iv: Any, exact: Callable[[Fraction], Any]) -> dict[str, Any]:
        R, W, gamma = iv.sqrt(exact(g.R_sq)), iv.sqrt(exact(g.ws_sq)), exact(g.gamma)
        return {"R": R, "ws_norm": W, "margin": gamma / W, "ratio": R * W / gamma}

    return _boxes(make)


def _integers(v: Sequence[Fraction]) -> tuple[list[int], Fraction]:
    """Integers V and a unit with v = unit·V: a `ScaledWeights`' own, else over the denominators' lcm.

    Examples
    --------
    >>> _integers([Fraction(1, 2), Fraction(-2, 3), Fraction(0)])
    ([3, -4, 0], Fraction(1, 6))
    """
    if isinstance(v, ScaledWeights):
        return v.integers, v.unit
    common = math.lcm(*(x.denominator for x in v)) if len(v) else 1
    return [x.numerator * (common // x.denominator) for x in v], Fraction(1, common)


def angle_enclosures(w: Sequence[Fraction], ws: Sequence[Fraction], g: Geometry,
                     n_updates: int | None) -> dict[str, tuple[Fraction, Fraction]]:
    """``cos_final``: cos∠(w, w*) of the final weights; ``cos_bound``: √N·γ/(R·‖w*‖), given `n_updates` N.

    The lower bound w_N·w* >= N·a·γ and the upper bound ‖w_N‖² <= N·a²·R²
    give cos∠(w_N, w*) >= √N·γ/(R·‖w*‖) (a cancels): the angle the proofs
    close. Pass N only where the report checked both bounds at every update.
    Nothing for final weights of zero.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> from verify_perceptron.notes.bounds import geometry
    >>> g = geometry(example("and"), Fraction(-3), (Fraction(2), Fraction(2)))
    >>> box = angle_enclosures([Fraction(-4), Fraction(3), Fraction(2)], [Fraction(-3), Fraction(2), Fraction(2)], g, 18)
    >>> lo, hi = box["cos_final"]; lo * lo <= Fraction(22 ** 2, 29 * 17) <= hi * hi  # (w·w*)² / (‖w‖²·‖w*‖²)
    True
    """
    (W, w_unit), (V, v_unit) = _integers(w), _integers(ws)
    dot = w_unit * v_unit * sum(a * b for a, b in zip(W, V))  # in integers: 10^5 weights cost no Fraction each
    w_sq = w_unit * w_unit * sum(a * a for a in W)
    if w_sq == 0 or g.gamma <= 0:
        return {}
    def make(iv: Any, exact: Callable[[Fraction], Any]) -> dict[str, Any]:
        values = {"cos_final": exact(Fraction(dot)) / iv.sqrt(exact(Fraction(w_sq)) * exact(g.ws_sq))}
        if n_updates:
            values["cos_bound"] = iv.sqrt(exact(n_updates * g.gamma ** 2 / (g.R_sq * g.ws_sq)))
        return values

    return _boxes(make)


def enclosure_record(g: Geometry | None, w: Sequence[Fraction] = (), ws: Sequence[Fraction] | None = None,
                     n_updates: int | None = None) -> dict[str, dict[str, str]] | None:
    """JSON-ready: each enclosure's ends as decimals rounded outward (still enclosing); with the final
    weights `w` and the separator `ws`, their angle too (`angle_enclosures`)."""
    if g is None or g.gamma <= 0:
        return None
    boxes = enclosures(g)
    if ws is not None:
        boxes.update(angle_enclosures(w, ws, g, n_updates))
    return {name: {"lower": decimal_down(lo), "upper": decimal_up(hi)} for name, (lo, hi) in boxes.items()}


def root_record(value: Fraction) -> dict[str, str]:
    """√value, for a bound B >= 0 in squared form: its enclosure's ends as decimals rounded outward.

    Examples
    --------
    >>> box = root_record(Fraction(87))
    >>> box, Fraction(box["lower"]) ** 2 <= 87 <= Fraction(box["upper"]) ** 2
    ({'lower': '9.327379053', 'upper': '9.327379054'}, True)
    """
    lo, hi = _boxes(lambda iv, exact: {"root": iv.sqrt(exact(value))})["root"]
    return {"lower": decimal_down(lo), "upper": decimal_up(hi)}


def root_text(record: dict[str, str] | None) -> str:
    """``[lo, hi]`` of a `root_record` (of the exact report), 7 digits, still enclosing; empty without one."""
    if not record:
        return ""
    return f"[{decimal_down(read_exact(record['lower']), 7)}, {decimal_up(read_exact(record['upper']), 7)}]"


def enclosure_line(record: dict[str, dict[str, str]] | None) -> str | None:
    """The text report's lines: ``roots`` and `enclosure_text`, then ``angle`` and `angle_text` if known."""
    roots, angle = enclosure_text(record), angle_text(record)
    if roots is None:
        return None
    return f"roots       {roots}" + ("" if angle is None else f"\nangle       {angle}")


def _interval(record: dict[str, dict[str, str]], name: str) -> str:
    lo, hi = record[name]["lower"], record[name]["upper"]
    return f"{_NAMES[name]} ∈ [{decimal_down(read_exact(lo), 7)}, {decimal_up(read_exact(hi), 7)}]"


_NAMES = {"R": "R", "ws_norm": "‖w*‖", "margin": "γ/‖w*‖", "ratio": "R·‖w*‖/γ",
          "cos_final": "cos∠(w, w*)", "cos_bound": "√N·γ/(R·‖w*‖)"}
_NOTE = "   (mpmath interval enclosures)"


def enclosure_text(record: dict[str, dict[str, str]] | None) -> str | None:
    """``R ∈ [lo, hi], ‖w*‖ ∈ [...], γ/‖w*‖ ∈ [...], R·‖w*‖/γ ∈ [...]   (mpmath interval enclosures)``.

    Examples
    --------
    >>> print(enclosure_text({name: {"lower": "1.414", "upper": "1.415"} for name in ("R", "ws_norm", "margin", "ratio")}))
    R ∈ [1.414, 1.415], ‖w*‖ ∈ [1.414, 1.415], γ/‖w*‖ ∈ [1.414, 1.415], R·‖w*‖/γ ∈ [1.414, 1.415]   (mpmath interval enclosures)
    """
    if not record:
        return None
    return ", ".join(_interval(record, n) for n in ("R", "ws_norm", "margin", "ratio")) + _NOTE


def angle_text(record: dict[str, dict[str, str]] | None) -> str | None:
    """``cos∠(w, w*) ∈ [...] >= √N·γ/(R·‖w*‖) ∈ [...]``: the final angle, and the proofs' bound when checked.

    Examples
    --------
    >>> print(angle_text({"cos_final": {"lower": "0.5", "upper": "0.6"}, "cos_bound": {"lower": "0.1", "upper": "0.2"}}))
    cos∠(w, w*) ∈ [0.5, 0.6] >= √N·γ/(R·‖w*‖) ∈ [0.1, 0.2], the bound the proofs give at the last update   (mpmath interval enclosures)
    """
    if not record or "cos_final" not in record:
        return None
    text = _interval(record, "cos_final")
    if "cos_bound" in record:
        text += f" >= {_interval(record, 'cos_bound')}, the bound the proofs give at the last update"
    return text + _NOTE
