"""The certificate figure: for non-separable data, both classes' convex hulls and the point where they meet.

The hulls and the common point are exact (`series.convex_hull`, `series.hull_meeting`); they become floats
only in each feature's drawn units (`_scale.axis_scale`, as in the boundaries figure), at any magnitude.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...data.dataset import Dataset
from ...errors import InvalidArgument
from ._scale import AxisScale
from ._style import NEGATIVE, POSITIVE, Points, data_box, fixed_style, new_figure, scaled_ticks, scatter, short
from .boundaries import Box, samples_drawn
from .series import HullMeeting, check_data, convex_hull, hull_meeting, report_certificate

if TYPE_CHECKING:  # only for annotations: importing this module never imports matplotlib
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["draw_certificate"]


def draw_certificate(report: Mapping[str, Any], data: Dataset) -> Figure:
    """Non-separable two-feature data: both classes' convex hulls, and the point where they meet.

    The point is Σ 2λ_i·x_i over either class, λ being the report's Gordan
    certificate; the samples with λ_i > 0 are labelled with λ_i. When they lie
    in a small part of the data, a second panel shows that part enlarged.
    """
    check_data(report, data)
    certificate = report_certificate(report)
    if certificate is None:
        raise InvalidArgument("the report has no Gordan certificate: the data were not shown to be non-separable")
    if data.n_features != 2:
        raise InvalidArgument(f"the certificate is drawn for 2 features; the data have {data.n_features}")
    meeting = hull_meeting(data, certificate)
    names = report["dataset"]["feature_names"]
    x_scale, y_scale, points = samples_drawn(data)
    box = data_box(points)
    zoom = _zoom_box([points[i] for i, _ in meeting.positive + meeting.negative], box)
    point = "(" + ", ".join(short(v) for v in meeting.point) + ")"
    drawn_point = (x_scale(meeting.point[0]), y_scale(meeting.point[1]))
    with fixed_style():
        fig = new_figure(12.4 if zoom else 7.6, 6.4)
        axes = fig.subplots(1, 2 if zoom else 1, squeeze=False)[0]
        for ax, limits in zip(axes, (box, zoom) if zoom else (box,)):
            _hulls(ax, data, x_scale, y_scale)
            scatter(ax, points, data.y, report)
            detailed = zoom is None or limits is zoom
            _certificate_marks(ax, points, meeting, (point, drawn_point), limits, labels=detailed)
            ax.set_xlim(limits[0], limits[1])
            ax.set_ylim(limits[2], limits[3])
            scaled_ticks(ax.xaxis, x_scale)
            scaled_ticks(ax.yaxis, y_scale)
            ax.set_xlabel(x_scale.label(names[0]))
            ax.set_ylabel(y_scale.label(names[1]))
        if zoom:
            x0, x1, y0, y1 = zoom
            axes[0].add_patch(_rectangle((x0, y0), x1 - x0, y1 - y0))
            axes[0].set_title("all samples (the box is enlarged on the right)")
            axes[1].set_title("where the hulls meet, enlarged")
        handles: dict[str, Any] = {}
        for handle, label in zip(*axes[-1].get_legend_handles_labels()):
            handles.setdefault(label, handle)
        fig.legend(list(handles.values()), list(handles), loc="outside lower center", ncols=3)
        fig.suptitle("Not separable: the two classes' convex hulls meet at p (Gordan's certificate λ, checked exactly)\n"
                     r"$p = \sum_{y_i=+1} 2\lambda_i\, x_i = \sum_{y_i=-1} 2\lambda_i\, x_i$", fontsize=11)
    return fig


def _zoom_box(points: Points, box: Box) -> Box | None:
    """A box around `points` when they fill less than 40% of the data's box in each direction (and are not
    all one point), else None."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    width, height = max(xs) - min(xs), max(ys) - min(ys)
    if width == height == 0 or width > 0.4 * (box[1] - box[0]) or height > 0.4 * (box[3] - box[2]):
        return None
    pad_x = 0.35 * (width or height or 1)
    pad_y = 0.35 * (height or width or 1)
    return min(xs) - pad_x, max(xs) + pad_x, min(ys) - pad_y, max(ys) + pad_y


def _rectangle(corner: tuple[float, float], width: float, height: float) -> Any:
    from matplotlib.patches import Rectangle

    return Rectangle(corner, width, height, fill=False, edgecolor="#444444", linewidth=1.2, linestyle="--", zorder=8)


def _hulls(ax: Axes, data: Dataset, x_scale: AxisScale, y_scale: AxisScale) -> None:
    for label, colour in ((1, POSITIVE), (-1, NEGATIVE)):
        hull = convex_hull([(x[0], x[1]) for x, y in zip(data.X, data.y) if y == label])
        closed = hull + hull[:1]
        xs, ys = x_scale.floats(p[0] for p in closed), y_scale.floats(p[1] for p in closed)
        ax.fill(xs, ys, color=colour, alpha=0.12, linewidth=0)
        ax.plot(xs, ys, color=colour, linewidth=1.4, label=f"convex hull of class {'+1' if label == 1 else '-1'}")


def _certificate_marks(ax: Axes, points: Points, meeting: HullMeeting, p: tuple[str, tuple[float, float]],
                       limits: Box, *, labels: bool) -> None:
    """Dotted lines from the samples with λ_i > 0 to p, their λ_i, and p itself (its text and where it is drawn)."""
    point, (px, py) = p
    span_x, span_y = limits[1] - limits[0], limits[3] - limits[2]
    for members, colour in ((meeting.positive, POSITIVE), (meeting.negative, NEGATIVE)):
        for i, weight in members:
            x, y = points[i]
            ax.plot([x, px], [y, py], color=colour, linestyle=":", linewidth=1.4, zorder=3)
            if labels:
                # Put the label on the far side of the sample from p, so that it covers neither.
                dx, dy = (x - px) / span_x, (y - py) / span_y
                norm = math.hypot(dx, dy) or 1.0
                ax.annotate(rf"$\lambda_{{{i}}}$ = {short(weight / 2)}", (x, y), textcoords="offset points",
                            xytext=(16 * dx / norm, 16 * dy / norm), ha="left" if dx >= 0 else "right",
                            va="bottom" if dy >= 0 else "top", fontsize=9.5, color=colour, zorder=6,
                            bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": "none", "alpha": 0.85})
    ax.plot([px], [py], "*", color="black", markersize=17, zorder=7, label=f"common point p = {point}")
    if labels:
        ax.annotate(f"p = {point}", (px, py), textcoords="offset points", xytext=(12, -18), fontsize=10,
                    fontweight="bold", zorder=7,
                    bbox={"boxstyle": "round,pad=0.25", "fc": "white", "ec": "#444444", "alpha": 0.9})

