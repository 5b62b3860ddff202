"""The boundaries figure: the decision boundary at the end of each epoch over the samples (note 000's figure).

Each feature is drawn in units of its own power of ten (`_scale.axis_scale`),
and a boundary v·x + b = 0 becomes the line c0·X + c1·Y + c = 0 in the drawn
coordinates X = x0/10^s0, Y = x1/10^s1, with (c0, c1, c) = (v0·10^s0, v1·10^s1, b)
scaled together from the exact values (`drawn_line`). The line and the side
it calls +1 are then clipped to the axes in floats near 1: nothing overflows
or vanishes, whatever the magnitude of the data or the weights.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ...data.dataset import Dataset
from ...data.exact_text import read_exact
from ...errors import InvalidArgument
from ...notes.conventions import dot, get_convention
from ._scale import AxisScale, axis_scale, direction
from ._style import POSITIVE, Points, bracket, data_box, fixed_style, new_figure, scaled_ticks, scatter
from .series import EpochEnd, Vector, check_data, epoch_ends

if TYPE_CHECKING:  # only for annotations: importing this module never imports matplotlib
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["Box", "Line", "draw_boundaries", "draw_line", "drawn_line", "positive_side", "samples_drawn"]

#: The axes' limits (x0, x1, y0, y1), drawn coordinates.
Box = tuple[float, float, float, float]
#: (c0, c1, c): the line c0·X + c1·Y + c = 0 in drawn coordinates, scaled from the exact values so that no
#: coefficient overflows (`drawn_line`, and the projection's lines).
Line = tuple[float, float, float]

# At most this many epochs get a panel of their own; longer runs show a spread of them.
_MAX_EPOCH_PANELS = 9


def _select_epochs(ends: Sequence[EpochEnd]) -> list[EpochEnd]:
    if len(ends) <= _MAX_EPOCH_PANELS:
        return list(ends)
    step = (len(ends) - 1) / (_MAX_EPOCH_PANELS - 1)
    picks = sorted({round(j * step) for j in range(_MAX_EPOCH_PANELS)})
    return [ends[j] for j in picks]


def _times_ten_to(x: Fraction, power: int) -> Fraction:
    return x * 10**power if power >= 0 else x / 10**-power


def drawn_line(b: Fraction, v: Sequence[Fraction], x_scale: AxisScale, y_scale: AxisScale) -> Line | None:
    """The boundary v·x + b = 0 in coordinates drawn in units of 10^sx and 10^sy; None when v = 0 (no boundary).

    Examples
    --------
    >>> F = Fraction
    >>> drawn_line(F(-4, 10**400), [F(3), F(2)], AxisScale(-400), AxisScale(-400))  # 3X + 2Y - 4 = 0
    (3.0, 2.0, -4.0)
    >>> drawn_line(F(1), [F(0), F(0)], AxisScale(0), AxisScale(0)) is None
    True
    """
    if not any(v):
        return None
    c0, c1, c = direction([_times_ten_to(v[0], x_scale.exponent), _times_ten_to(v[1], y_scale.exponent), b])
    return c0, c1, c


def _corners(box: Box) -> list[tuple[float, float]]:
    x0, x1, y0, y1 = box
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def _crossings(line: Line, box: Box, *, keep_positive: bool) -> list[tuple[float, float]]:
    """Walk the box's edges: the points where the line crosses them, the corners on it, and the corners where
    c0·X + c1·Y + c > 0 when `keep_positive` (one half-plane clips a rectangle to a convex polygon)."""
    c0, c1, c = line
    corners = _corners(box)
    out: list[tuple[float, float]] = []
    for p, q in zip(corners, corners[1:] + corners[:1]):
        sp, sq = c0 * p[0] + c1 * p[1] + c, c0 * q[0] + c1 * q[1] + c
        if sp == 0 or (sp > 0 and keep_positive):
            out.append(p)
        if (sp > 0 > sq) or (sp < 0 < sq):
            t = sp / (sp - sq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def positive_side(line: Line, box: Box) -> list[tuple[float, float]]:
    """The part of the box where c0·X + c1·Y + c > 0, as a polygon (empty when none of it is)."""
    return _crossings(line, box, keep_positive=True)


def draw_line(ax: Axes, line: Line | None, box: Box, **style: Any) -> bool:
    """Draw the line across the box (nothing, but its legend entry, when it misses the box); False for None."""
    if line is None:
        return False
    ends = list(dict.fromkeys(_crossings(line, box, keep_positive=False)))
    shown = [ends[0], ends[-1]] if len(ends) >= 2 else []
    ax.plot([p[0] for p in shown], [p[1] for p in shown], **style)
    return True


def samples_drawn(data: Dataset) -> tuple[AxisScale, AxisScale, list[tuple[float, float]]]:
    """The scales of the two features and the samples in drawn coordinates."""
    xs, ys = [x[0] for x in data.X], [x[1] for x in data.X]
    x_scale, y_scale = axis_scale(xs), axis_scale(ys)
    return x_scale, y_scale, list(zip(x_scale.floats(xs), y_scale.floats(ys)))


def _index_labels(ax: Axes, points: Points) -> None:
    """Each sample's number (from 0, as in the report's update table) beside it."""
    for i, p in enumerate(points):
        ax.annotate(str(i), p, textcoords="offset points", xytext=(-11, 7), fontsize=8,
                    color="#444444", ha="right", zorder=6)


def _misclassified(report: Mapping[str, Any], data: Dataset, weights: Vector) -> list[int]:
    """The samples the convention's own rule counts as mistakes under these weights (exact)."""
    convention = get_convention(report["convention"])
    rate = read_exact(report["eta"])
    return [i for i, (x, y) in enumerate(zip(data.X, data.y))
            if convention.decide(dot(weights, convention.augment(x)), y, rate) is not None]


def draw_boundaries(report: Mapping[str, Any], data: Dataset) -> Figure:
    """The decision boundary at the end of each epoch over the samples, one panel per epoch (note 000's figure).

    Each panel shades the side the weights call +1, draws the boundary
    ``v·x + b = 0`` (and, dashed, the previous epoch's), and rings the samples
    its rule still gets wrong. Runs of more than 9 epochs show 9 of them,
    evenly spread, the last included.
    """
    check_data(report, data)
    if data.n_features != 2:
        raise InvalidArgument(f"decision boundaries are drawn for 2 features; the data have {data.n_features}")
    ends = epoch_ends(report)
    shown = _select_epochs(ends)
    x_scale, y_scale, points = samples_drawn(data)
    box = data_box(points)
    names = report["dataset"]["feature_names"]
    coordinates = report["coordinates"]
    with fixed_style():
        cols = min(3, len(shown))
        rows = -(-len(shown) // cols)
        width = max(3.7, min(5.0, 7.4 / cols))
        fig = new_figure(width * cols + 0.3, width * 0.95 * rows + 1.3)
        axes = fig.subplots(rows, cols, squeeze=False, sharex=True, sharey=True)
        previous = {e.epoch: ends[j - 1] for j, e in enumerate(ends) if j > 0}
        for index, end in enumerate(shown):
            ax = axes[index // cols][index % cols]
            line = drawn_line(end.bias, end.normal, x_scale, y_scale)
            polygon = positive_side(line, box) if line is not None else []
            if polygon:
                ax.fill([p[0] for p in polygon], [p[1] for p in polygon], color=POSITIVE, alpha=0.10,
                        linewidth=0, label="predicted +1 (v·x + b > 0)")
            before = previous.get(end.epoch)
            if before is not None and before.weights != end.weights:
                draw_line(ax, drawn_line(before.bias, before.normal, x_scale, y_scale), box, color="#888888",
                          linestyle="--", linewidth=1.1, label="previous epoch's boundary")
            has_line = draw_line(ax, line, box, color="black", linewidth=2.0, label="boundary v·x + b = 0")
            scatter(ax, points, data.y, report, size=38)
            if data.n_samples <= 12:
                _index_labels(ax, points)
            wrong = _misclassified(report, data, end.weights)
            if wrong:
                ax.scatter([points[i][0] for i in wrong], [points[i][1] for i in wrong], s=170,
                           facecolors="none", edgecolors="#e08a00", linewidths=1.6, zorder=5,
                           label="still a mistake")
            last = end.epoch == int(report["n_epochs"])
            status = ("converged" if report["converged"] else report["stop"]) if last else f"after update {end.k}"
            title = f"epoch {end.epoch} ({status})\n[{', '.join(coordinates)}] = {bracket(end.weights)}"
            mistakes = f"{len(wrong)} of {data.n_samples} wrong" if wrong else "all correct"
            ax.set_title(title + ("" if has_line else "  (no boundary)") + f"\n{mistakes}", fontsize=9.5)
            ax.set_xlim(box[0], box[1])
            ax.set_ylim(box[2], box[3])
        for index in range(len(shown), rows * cols):
            axes[index // cols][index % cols].set_visible(False)
        scaled_ticks(axes[0][0].xaxis, x_scale)  # (shared by every panel)
        scaled_ticks(axes[0][0].yaxis, y_scale)
        for r in range(rows):
            axes[r][0].set_ylabel(y_scale.label(names[1]))
        for c in range(cols):
            axes[rows - 1][c].set_xlabel(x_scale.label(names[0]))
            axes[rows - 1][c].tick_params(labelbottom=True)
        handles: dict[str, Any] = {}
        for ax in axes.flat:
            for handle, label in zip(*ax.get_legend_handles_labels()):
                handles.setdefault(label, handle)
        fig.legend(list(handles.values()), list(handles), loc="outside lower center",
                   ncols=min(3 if cols > 1 else 2, len(handles)))
        spread = "" if len(shown) == len(ends) else f" ({len(shown)} of {len(ends)} epochs shown)"
        fig.suptitle(f"Decision boundary v·x + b = 0 at the end of each epoch{spread}\n"
                     f"{report['convention']} (note {report['note'][:3]}), {report['mode']}; samples numbered from 0",
                     fontsize=11)
    return fig

