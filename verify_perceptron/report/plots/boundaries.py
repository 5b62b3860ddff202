"""The boundaries figure: the decision boundary at the end of each epoch over the samples (note 000's figure)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ...notes.conventions import dot, get_convention
from ...data.dataset import Dataset
from ...errors import InvalidArgument
from ._style import POSITIVE, bracket, data_box, fixed_style, floats, new_figure, scatter
from .series import EpochEnd, Vector, check_data, epoch_ends

if TYPE_CHECKING:  # only for annotations: importing this module never imports matplotlib
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["draw_boundaries"]

# At most this many epochs get a panel of their own; longer runs show a spread of them.
_MAX_EPOCH_PANELS = 9


def _select_epochs(ends: Sequence[EpochEnd]) -> list[EpochEnd]:
    if len(ends) <= _MAX_EPOCH_PANELS:
        return list(ends)
    step = (len(ends) - 1) / (_MAX_EPOCH_PANELS - 1)
    picks = sorted({round(j * step) for j in range(_MAX_EPOCH_PANELS)})
    return [ends[j] for j in picks]


def _positive_side(b: float, v: Sequence[float], box: tuple[float, float, float, float]) -> list[tuple[float, float]]:
    """The part of the box where v·x + b > 0, as a polygon (one half-plane clips a rectangle)."""
    x0, x1, y0, y1 = box
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    out: list[tuple[float, float]] = []
    for p, q in zip(corners, corners[1:] + corners[:1]):
        sp, sq = b + v[0] * p[0] + v[1] * p[1], b + v[0] * q[0] + v[1] * q[1]
        if sp > 0:
            out.append(p)
        if (sp > 0) != (sq > 0) and sp != sq:
            t = sp / (sp - sq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def _index_labels(ax: Axes, data: Dataset) -> None:
    """Each sample's number (from 0, as in the report's update table) beside it."""
    for i, x in enumerate(data.X):
        ax.annotate(str(i), (float(x[0]), float(x[1])), textcoords="offset points", xytext=(-11, 7), fontsize=8,
                    color="#444444", ha="right", zorder=6)


def _line(ax: Axes, b: Fraction, v: Sequence[Fraction], **style: Any) -> bool:
    """Draw v·x + b = 0 across the axes; False when v = 0 (no boundary)."""
    if v[1] != 0:
        ax.axline((0.0, float(-b / v[1])), slope=float(-v[0] / v[1]), **style)
    elif v[0] != 0:
        ax.axline((float(-b / v[0]), 0.0), (float(-b / v[0]), 1.0), **style)
    else:
        return False
    return True


def _misclassified(report: Mapping[str, Any], data: Dataset, weights: Vector) -> list[int]:
    """The samples the convention's own rule counts as mistakes under these weights (exact)."""
    convention = get_convention(report["convention"])
    rate = Fraction(report["eta"])
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
    box = data_box(data)
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
            polygon = _positive_side(float(end.bias), floats(end.normal), box)
            if polygon:
                ax.fill([p[0] for p in polygon], [p[1] for p in polygon], color=POSITIVE, alpha=0.10,
                        linewidth=0, label="predicted +1 (v·x + b > 0)")
            before = previous.get(end.epoch)
            if before is not None and before.weights != end.weights:
                _line(ax, before.bias, before.normal, color="#888888", linestyle="--", linewidth=1.1,
                      label="previous epoch's boundary")
            has_line = _line(ax, end.bias, end.normal, color="black", linewidth=2.0, label="boundary v·x + b = 0")
            scatter(ax, data, report, size=38)
            if data.n_samples <= 12:
                _index_labels(ax, data)
            wrong = _misclassified(report, data, end.weights)
            if wrong:
                ax.scatter([float(data.X[i][0]) for i in wrong], [float(data.X[i][1]) for i in wrong], s=170,
                           facecolors="none", edgecolors="#e08a00", linewidths=1.6, zorder=5,
                           label="still a mistake")
            last = end.epoch == int(report["n_epochs"])
            status = ("converged" if report["converged"] else report["stop"]) if last else f"after update {end.k}"
            title = f"epoch {end.epoch} ({status})\n{bracket(coordinates)} = {bracket(end.weights)}"
            mistakes = f"{len(wrong)} of {data.n_samples} wrong" if wrong else "all correct"
            ax.set_title(title + ("" if has_line else "  (no boundary)") + f"\n{mistakes}", fontsize=9.5)
            ax.set_xlim(box[0], box[1])
            ax.set_ylim(box[2], box[3])
        for index in range(len(shown), rows * cols):
            axes[index // cols][index % cols].set_visible(False)
        for r in range(rows):
            axes[r][0].set_ylabel(names[1])
        for c in range(cols):
            axes[rows - 1][c].set_xlabel(names[0])
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

