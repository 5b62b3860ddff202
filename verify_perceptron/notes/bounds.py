"""The five notes' mistake bounds, exactly, for one separator.

Every bound is a ratio of squares, so it is rational: where a note writes
γ, R or ‖w*‖ we keep γ², R², ‖w*‖². The separator is taken in the shared form
``(b, v)`` (score ``v·x + b``), so the same geometric separator is measured by
each note's yardstick; `Convention.to_canonical` converts from a
convention's own coordinates.

This module depends only on the data and a separator, not on a run: the
checker compares a run against these numbers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..data.integers import exact_sum
from .conventions import CONVENTIONS
from ..data.dataset import Dataset

__all__ = ["Geometry", "NoteBound", "geometry", "geometry_from_scaled", "geometry_of_margins", "note_bound",
           "note_bounds"]


@dataclass(frozen=True)
class Geometry:
    """The exact quantities of data and separator that the notes' bounds are made of.

    Attributes
    ----------
    gamma : Fraction
        ``min_i y_i·(v·x_i + b)``: the unnormalised margin; > 0 iff the separator separates.
    worst_sample : int
        An index i where that minimum is reached.
    R_sq : Fraction
        ``max_i ‖x~_i‖² = max_i (1 + ‖x_i‖²)``: the same for every bias convention (input ±1).
    M_sq : Fraction
        ``max_i ‖x_i‖²`` without the bias input (note 004's M²).
    beta : Fraction
        ``Σ_i ‖x~_i‖²`` (note 003's β, a sum).
    ws_sq : Fraction
        ``b² + ‖v‖²``: the squared norm of the augmented separator.
    v_sq : Fraction
        ``‖v‖²``: the squared norm of its non-bias part.
    b_sq : Fraction
        ``b²``.
    """

    gamma: Fraction
    worst_sample: int
    R_sq: Fraction
    M_sq: Fraction
    beta: Fraction
    ws_sq: Fraction
    v_sq: Fraction
    b_sq: Fraction

    @property
    def separates(self) -> bool:
        """True when every sample is strictly on its side: γ > 0."""
        return self.gamma > 0


def geometry(data: Dataset, b: Fraction, v: Sequence[Fraction]) -> Geometry:
    """Measure the separator ``v·x + b`` on `data`.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> g = geometry(example("and"), Fraction(-4), (Fraction(3), Fraction(2)))
    >>> g.gamma, g.R_sq, g.ws_sq
    (Fraction(1, 1), Fraction(3, 1), Fraction(29, 1))
    """
    # In integers: x = N/L and (b, v) = (B, V)/M, so y·(v·x + b) = y·(V·N + B·L)/(L·M).
    b, v = Fraction(b), tuple(Fraction(c) for c in v)
    M = math.lcm(b.denominator, *(c.denominator for c in v))
    B, V = int(b * M), [int(c * M) for c in v]
    L = data.denominator
    V_sq = sum(c * c for c in V)
    raw = data.exact.matvec(V, slice(None), norm_sq=V_sq)
    margins = [y * (r + B * L) for r, y in zip(raw, data.y)]
    augmented_norms = [L * L + n for n in data.row_norms_sq]  # ‖L·x~_i‖² = L² + ‖L·x_i‖²
    return geometry_from_scaled(margins, augmented_norms, L=L, M=M, ws_sq=b * b + Fraction(V_sq, M * M), b=b)


def geometry_from_scaled(
    margins: Any, norms_sq: Any, *, L: int, M: int, ws_sq: Fraction, b: Fraction
) -> Geometry:
    """The same measurements from the checker's integers, without touching the data again.

    `margins` are ``y_i·(L·x~_i)·(M·w*)`` and `norms_sq` are ``‖L·x~_i‖²``, for
    samples scaled by their common denominator L and a separator by its own M.

    Examples
    --------
    >>> g = geometry_from_scaled([4, 4, 4, 4], [1, 2, 2, 3], L=1, M=1, ws_sq=Fraction(29), b=Fraction(-4))
    >>> g.gamma, g.R_sq, g.beta, g.v_sq
    (Fraction(4, 1), Fraction(3, 1), Fraction(8, 1), Fraction(13, 1))
    """
    norms_sq = np.asarray(norms_sq)
    return geometry_of_margins(margins, R_sq=int(norms_sq.max()), beta=exact_sum(norms_sq), L=L, M=M, ws_sq=ws_sq, b=b)


def geometry_of_margins(margins: Any, *, R_sq: int, beta: int, L: int, M: int, ws_sq: Fraction, b: Fraction) -> Geometry:
    """`geometry_from_scaled` where the largest ‖L·x~_i‖² (`R_sq`) and their sum (`beta`) are known already, as
    the checker's sample matrix knows them (from their limbs, without a Python integer per norm).

    Examples
    --------
    >>> g = geometry_of_margins([4, 4, 4, 4], R_sq=3, beta=8, L=1, M=1, ws_sq=Fraction(29), b=Fraction(-4))
    >>> g == geometry_from_scaled([4, 4, 4, 4], [1, 2, 2, 3], L=1, M=1, ws_sq=Fraction(29), b=Fraction(-4))
    True
    """
    margins = np.asarray(margins)
    worst = int(np.argmin(margins))  # the first smallest margin
    L_sq = L * L
    R = Fraction(R_sq, L_sq)
    b_sq = b * b
    return Geometry(
        gamma=Fraction(int(margins[worst]), L * M),
        worst_sample=worst,
        R_sq=R,
        M_sq=R - 1,
        beta=Fraction(beta, L_sq),
        ws_sq=ws_sq,
        v_sq=ws_sq - b_sq,
        b_sq=b_sq,
    )


@dataclass(frozen=True)
class NoteBound:
    """One note's mistake bound for one separator.

    Attributes
    ----------
    convention : str
        The note's convention.
    note : str
        The note's seed file.
    formula : str
        The bound as the note writes it.
    constants : tuple of (str, Fraction)
        The note's own constants, squared where the note has a root, in the note's names.
    value : Fraction
        The bound on the number of mistakes.
    """

    convention: str
    note: str
    formula: str
    constants: tuple[tuple[str, Fraction], ...]
    value: Fraction


class _Parts:
    """The bounds' shared pieces for one geometry, each computed once when first asked for: `note_bounds`
    computes (R/γ)²·‖w*‖², which four notes' bounds are, once rather than four times (exact rationals of a
    few hundred bits on float64 data, where each operation costs microseconds)."""

    def __init__(self, g: Geometry) -> None:
        self.g = g
        self._gamma_sq: Fraction | None = None
        self._ratio: Fraction | None = None

    @property
    def gamma_sq(self) -> Fraction:
        if self._gamma_sq is None:
            self._gamma_sq = self.g.gamma * self.g.gamma
        return self._gamma_sq

    @property
    def ratio(self) -> Fraction:
        """R²·‖w*‖²/γ²."""
        if self._ratio is None:
            self._ratio = self.g.R_sq * self.g.ws_sq / self.gamma_sq
        return self._ratio


def note_bound(convention: str, g: Geometry, parts: _Parts | None = None) -> NoteBound:
    """The bound of `convention`'s note for the separator measured by `g` (which must separate).

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> g = geometry(example("and"), Fraction(-4), (Fraction(3), Fraction(2)))
    >>> note_bound("classic", g).value, note_bound("sum-norm", g).value
    (Fraction(87, 1), Fraction(232, 1))
    """
    if not g.separates:
        raise ValueError(f"gamma={g.gamma} <= 0: the separator does not separate, no note's bound applies")
    parts = _Parts(g) if parts is None else parts
    gamma_sq = parts.gamma_sq
    if convention == "classic":
        formula = "k <= (R/γ)²·‖w_opt‖²"
        constants: tuple[tuple[str, Fraction], ...] = (("γ", g.gamma), ("R²", g.R_sq), ("‖w_opt‖²", g.ws_sq))
        value = parts.ratio
    elif convention in ("hard-limiter", "hard-limiter-plus"):
        formula = "n_max = β²·‖w0‖²/α²"
        constants = (("α", g.gamma), ("β²", g.R_sq), ("‖w0‖²", g.ws_sq))
        value = parts.ratio
    elif convention == "unit-ball":
        # Rescaled so that ‖w*‖ = 1 and ‖x~‖ <= 1: γ becomes γ/(R·‖w*‖), squared here.
        unit_gamma_sq = 1 / parts.ratio  # γ²/(R²·‖w*‖²)
        formula = "M <= 1/γ² (after rescaling to ‖w*‖ = 1, ‖x‖ <= 1)"
        constants = (("γ²", unit_gamma_sq),)
        value = parts.ratio
    elif convention == "sum-norm":
        d_sq = gamma_sq / g.ws_sq  # D(ŵ) = min_μ t·x·ŵ/|ŵ|
        formula = "N <= β/D², β = Σ_μ |x^μ|²"
        constants = (("D²", d_sq), ("β", g.beta))
        value = g.beta / d_sq
    elif convention == "split-bias":
        if g.v_sq == 0:
            raise ValueError("the separator's non-bias part is 0: note 004 normalises ‖α*‖ = 1, impossible here")
        # ‖α*‖ = 1 normalises the non-bias part only: divide by ‖v‖.
        rho_sq, alpha0_sq = gamma_sq / g.v_sq, g.b_sq / g.v_sq
        formula = "k <= (α0*² + 1)(1 + M²)/ρ²"
        constants = (("ρ²", rho_sq), ("α0*²", alpha0_sq), ("M²", g.M_sq))
        value = (alpha0_sq + 1) * (1 + g.M_sq) / rho_sq
    else:
        raise ValueError(f"convention={convention!r} is not one of {', '.join(CONVENTIONS)}")
    return NoteBound(convention, CONVENTIONS[convention].note, formula, constants, value)


def note_bounds(g: Geometry) -> list[NoteBound]:
    """All five notes' bounds for one separator, in note order."""
    parts = _Parts(g)
    return [note_bound(name, g, parts) for name in CONVENTIONS]
