"""The projection figure, for data with more than two features: the samples in the plane spanned by the
separator's normal v* and the final weights' normal v, with both boundaries.

Let u1 = v*/‖v*‖ and u2 the unit part of v orthogonal to u1 (any other direction when v is parallel
to v*). Both normals lie in span(u1, u2), so for every sample v·x = v·(its projection), and the same
for v*: each boundary is a line in this plane that puts every projected sample on exactly the side
its score puts the sample. The projection is computed in floats: it is a picture, and nothing is
decided from it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from ...data.dataset import Dataset
from ...errors import InvalidArgument
from ...notes.conventions import get_convention
from ._style import POSITIVE, data_box, fixed_style, new_figure, scatter
from .boundaries import _line, _positive_side
from .series import check_data

if TYPE_CHECKING:  # only for annotations: importing this module never imports matplotlib
    from matplotlib.figure import Figure

__all__ = ["draw_projection", "projection_basis"]


def projection_basis(v_star: Sequence[float], v: Sequence[float]) -> tuple[Any, Any]:
    """Orthonormal u1, u2 with v* and v in their span (u1 along v*).

    Examples
    --------
    >>> u1, u2 = projection_basis([3.0, 0.0, 4.0], [0.0, 1.0, 0.0])
    >>> u1.tolist(), u2.tolist()
    ([0.6, 0.0, 0.8], [0.0, 1.0, 0.0])
    """
    a, b = np.asarray(v_star, dtype=float), np.asarray(v, dtype=float)
    norm = np.linalg.norm(a)
    if norm == 0:
        raise InvalidArgument("the separator's normal v* is 0: there is no plane to project onto")
    u1 = a / norm
    rest = b - (b @ u1) * u1
    if np.linalg.norm(rest) <= 1e-9 * max(np.linalg.norm(b), 1.0):  # v parallel to v*: any orthogonal direction
        rest = np.eye(len(a))[int(np.argmin(np.abs(u1)))]
        rest = rest - (rest @ u1) * u1
    return u1, rest / np.linalg.norm(rest)


def _widened(box: tuple[float, float, float, float], b: float,
             v: Sequence[float]) -> tuple[float, float, float, float]:
    """The box, grown to show where the final boundary crosses it when that is within twice its size: a run
    stopped early may leave its boundary beside the data, and the figure should show how far."""
    x0, x1, y0, y1 = box
    if v[1] == 0:
        return box
    ends = [-(b + v[0] * x) / v[1] for x in (x0, x1)]
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
    b_star, v_star = conv.to_canonical([Fraction(w) for w in report["separator"]["weights"]])
    b, v = conv.to_canonical([Fraction(w) for w in report["final_weights"]])
    u1, u2 = projection_basis([float(c) for c in v_star], [float(c) for c in v])
    X = np.array([[float(c) for c in x] for x in data.X])
    plane = Dataset(X=tuple((Fraction(float(p)), Fraction(float(q))) for p, q in zip(X @ u1, X @ u2)), y=data.y)
    in_plane = [float(np.asarray([float(c) for c in v]) @ u) for u in (u1, u2)]
    star_in_plane = [float(np.asarray([float(c) for c in v_star]) @ u) for u in (u1, u2)]
    box = _widened(data_box(plane), float(b), in_plane)
    with fixed_style():
        fig = new_figure(6.2, 6.0)
        ax = fig.subplots()
        polygon = _positive_side(float(b), in_plane, box)
        if polygon:
            ax.fill([p[0] for p in polygon], [p[1] for p in polygon], color=POSITIVE, alpha=0.10, linewidth=0,
                    label="predicted +1 by the final weights")
        _line(ax, Fraction(float(b_star)), [Fraction(c) for c in star_in_plane], color="#555555", linestyle="--",
              linewidth=1.4, label=f"separator w* ({report['separator']['source']})")
        _line(ax, Fraction(float(b)), [Fraction(c) for c in in_plane], color="black", linewidth=2.0,
              label="final boundary v·x + b = 0")
        scatter(ax, plane, report, size=30)
        ax.set_xlim(box[0], box[1])
        ax.set_ylim(box[2], box[3])
        ax.set_xlabel("x·u1  (u1 = v*/‖v*‖)")
        ax.set_ylabel("x·u2  (u2: the final v's part orthogonal to u1)")
        ax.legend(loc="best", fontsize=8)
        fig.suptitle(f"The {data.n_features} features seen in the plane of w* and the final weights\n"
                     f"{report['convention']} (note {report['note'][:3]}); each sample keeps the side of "
                     "both boundaries it has in full space", fontsize=10)
    return fig
