"""The projection figure, for data with more than two features: the samples in the plane spanned by the
separator's normal v* and the final weights' normal v, with both boundaries.

Let u1 = v*/‖v*‖ and u2 the unit part of v orthogonal to u1 (any other direction when v is parallel
to v*; u1 along v when v* = 0, and the first two features when both are 0). Both normals lie in
span(u1, u2), so for every sample v·x = v·(its projection), and the same for v*: each boundary is a
line in this plane that puts every projected sample on exactly the side its score puts the sample.

The drawing is made from scaled values, so that no magnitude overflows or vanishes: each normal is
scaled by a power of ten from its integers before it becomes floats (`_scale.direction`), the
samples by one power of ten 10^s for all features (a projection mixes them; `_scale.axis_scale`),
and a boundary v·x + b = 0 becomes n·P + b/(‖v‖·10^s) = 0 in the drawn plane coordinates P, n the
unit normal's coordinates there. The projection is then computed in floats: it is a picture, and
nothing is decided from it (a feature far below the largest one is at 0 in it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from ...data.dataset import Dataset
from ...data.exact_text import read_exact
from ...errors import InvalidArgument
from ...notes.conventions import get_convention
from ._scale import AxisScale, axis_scale, direction, shifted
from ._style import POSITIVE, data_box, fixed_style, new_figure, scaled_ticks, scatter
from .boundaries import Box, Line, draw_line, positive_side
from .series import check_data

if TYPE_CHECKING:  # only for annotations: importing this module never imports matplotlib
    from matplotlib.figure import Figure

__all__ = ["draw_projection", "projection_basis"]


def _basis(v_star: Sequence[float], v: Sequence[float]) -> tuple[Any, Any, str, str]:
    """`projection_basis`, with what each direction is, for the axis labels."""
    a, b = np.asarray(v_star, dtype=float), np.asarray(v, dtype=float)
    first, second, other = "v*/‖v*‖", "the final v's part orthogonal to u1", "v"
    if not a.any():
        a, b = b, a
        first, other = "v/‖v‖ (v* = 0)", "v*"
    if not a.any():
        u1, u2 = np.eye(len(a))[0], np.eye(len(a))[1]
        return u1, u2, "the first feature (v* = v = 0)", "the second feature"
    u1 = a / np.linalg.norm(a)
    rest = b - (b @ u1) * u1
    if np.linalg.norm(rest) <= 1e-9 * max(float(np.linalg.norm(b)), 1.0):  # b parallel to a: any orthogonal direction
        rest = np.eye(len(a))[int(np.argmin(np.abs(u1)))]
        rest = rest - (rest @ u1) * u1
        second = f"a direction orthogonal to u1 ({'v is parallel to v*' if b.any() else other + ' = 0'})"
    return u1, rest / np.linalg.norm(rest), first, second


def projection_basis(v_star: Sequence[float], v: Sequence[float]) -> tuple[Any, Any]:
    """Orthonormal u1, u2 with v* and v in their span (u1 along v*, or along v when v* = 0).

    Examples
    --------
    >>> u1, u2 = projection_basis([3.0, 0.0, 4.0], [0.0, 1.0, 0.0])
    >>> u1.tolist(), u2.tolist()
    ([0.6, 0.0, 0.8], [0.0, 1.0, 0.0])
    >>> [u.tolist() for u in projection_basis([0.0, 0.0, 0.0], [0.0, 2.0, 0.0])][0]
    [0.0, 1.0, 0.0]
    """
    u1, u2, _, _ = _basis(v_star, v)
    return u1, u2


def _samples(data: Dataset) -> tuple[AxisScale, Any]:
    """One scale for every feature (the largest entry's), and the samples in its units as a float matrix, each
    entry rounded once from its integers."""
    rows = data.numerators.tolist()
    scale = axis_scale([Fraction(max(abs(n) for row in rows for n in row), data.denominator)])
    return scale, np.array([scale.over(row, data.denominator) for row in rows], dtype=float).reshape(
        data.n_samples, data.n_features)


def _plane_line(b: Fraction, v: Sequence[Fraction], d: Sequence[float], u1: Any, u2: Any,
                scale: AxisScale) -> Line | None:
    """v·x + b = 0 in the plane's drawn coordinates P (x = 10^s·P): with v = 10^e·d, it is
    (d·u1)·P1 + (d·u2)·P2 + b/10^(e + s) = 0, divided through by ‖d‖."""
    if not any(v):
        return None
    norm = float(np.linalg.norm(d))
    e = axis_scale(v).exponent
    return (float(np.asarray(d) @ u1) / norm, float(np.asarray(d) @ u2) / norm,
            shifted(b, e + scale.exponent) / norm)


def _widened(box: Box, line: Line | None) -> Box:
    """The box, grown to show where the final boundary crosses it when that is within twice its size: a run
    stopped early may leave its boundary beside the data, and the figure should show how far."""
    x0, x1, y0, y1 = box
    if line is None or line[1] == 0:
        return box
    c0, c1, c = line
    ends = [-(c + c0 * x) / c1 for x in (x0, x1)]
    height = y1 - y0
    if all(y0 - 2 * height <= t <= y1 + 2 * height for t in ends):
        pad = 0.1 * height
        return x0, x1, min(y0, *ends) - pad, max(y1, *ends) + pad
    return box


def draw_projection(report: Mapping[str, Any], data: Dataset) -> Figure:
    """The samples in the plane of v* and v, the final boundary (solid) and the separator's (dashed)."""
    check_data(report, data)
    if report["separator"] is None:
        raise InvalidArgument("the projection needs a separator w*; this report has none")
    conv = get_convention(report["convention"])
    b_star, v_star = conv.to_canonical([read_exact(w) for w in report["separator"]["weights"]])
    b, v = conv.to_canonical([read_exact(w) for w in report["final_weights"]])
    d_star, d = direction(v_star), direction(v)
    u1, u2, first, second = _basis(d_star, d)
    scale, X = _samples(data)
    points = list(zip((X @ u1).tolist(), (X @ u2).tolist()))
    final, star = _plane_line(b, v, d, u1, u2, scale), _plane_line(b_star, v_star, d_star, u1, u2, scale)
    box = _widened(data_box(points), final)
    with fixed_style():
        fig = new_figure(6.2, 6.0)
        ax = fig.subplots()
        polygon = positive_side(final, box) if final is not None else []
        if polygon:
            ax.fill([p[0] for p in polygon], [p[1] for p in polygon], color=POSITIVE, alpha=0.10, linewidth=0,
                    label="predicted +1 by the final weights")
        draw_line(ax, star, box, color="#555555", linestyle="--", linewidth=1.4,
                  label=f"separator w* ({report['separator']['source']})")
        draw_line(ax, final, box, color="black", linewidth=2.0, label="final boundary v·x + b = 0")
        scatter(ax, points, data.y, report, size=30)
        ax.set_xlim(box[0], box[1])
        ax.set_ylim(box[2], box[3])
        for axis in (ax.xaxis, ax.yaxis):
            scaled_ticks(axis, scale)
        ax.set_xlabel(scale.label(f"x·u1  (u1 = {first})"))
        ax.set_ylabel(scale.label(f"x·u2  (u2: {second})"))
        ax.legend(loc="best", fontsize=8)
        fig.suptitle(f"The {data.n_features} features seen in the plane of w* and the final weights\n"
                     f"{report['convention']} (note {report['note'][:3]}); each sample keeps the side of "
                     "both boundaries it has in full space", fontsize=10)
    return fig
