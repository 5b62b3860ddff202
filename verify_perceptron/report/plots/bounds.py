"""The bounds figure: each note's mistake bound as a bar, beside the mistakes actually made.

Bounds and mistakes share the horizontal axis: linear, in units of the power
of ten of the largest (`_scale.axis_scale`), or logarithmic, drawn in
exponents (`_scale.log_position`), when the bounds dwarf the mistakes. The
values stay exact until they are placed, so a bound of any size is drawn.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ...data.exact_text import read_exact
from ...errors import InvalidArgument
from ._scale import axis_scale, log_position
from ._style import SEPARATOR_COLOURS, fixed_style, log_ticks, new_figure, scaled_ticks, short

if TYPE_CHECKING:  # only for annotations: importing this module never imports matplotlib
    from matplotlib.figure import Figure

__all__ = ["draw_bounds"]


_Bars = tuple[list[tuple[str, str]], list[str], dict[str, dict[str, Fraction]], dict[str, int], str]


def _bars(report: Mapping[str, Any]) -> _Bars:
    """What the figure shows: the rows (note number, convention), the separators, each separator's bound for
    each convention, the mistakes made by convention, and what the mistakes' legend says."""
    comparison = report["comparison"]
    rows: list[tuple[str, str]] = []
    bars: dict[str, dict[str, Fraction]] = {}
    if comparison is not None and comparison["separable"]:
        separators = [s["name"] for s in comparison["separators"] if not s.get("skipped")]
        for entry in comparison["bounds"]:
            if (entry["note"][:3], entry["convention"]) not in rows:
                rows.append((entry["note"][:3], entry["convention"]))
            bars.setdefault(entry["separator"], {})[entry["convention"]] = read_exact(entry["value"])
        made = {run["convention"]: run["n_updates"] for run in comparison["runs"]}
        return rows, separators, bars, made, "mistakes made by the note's own perceptron (online, from w = 0)"
    if report["bounds"]:
        separators = [f"{report['separator']['source']} separator"]
        for b in report["bounds"]:
            rows.append((b["note"][:3], b["convention"]))
            bars.setdefault(separators[0], {})[b["convention"]] = read_exact(b["value"])
        made = {b["convention"]: b["n_mistakes"] for b in report["bounds"]}
        return rows, separators, bars, made, f"mistakes made by this run ({report['convention']}, {report['mode']})"
    raise InvalidArgument("the report has no bounds to draw: no separator (and no comparison)")


def draw_bounds(report: Mapping[str, Any]) -> Figure:
    """Each note's mistake bound as a bar, with the mistakes actually made marked.

    With the report's comparison (``verify --compare``): one bar per
    separator for each note, and each note's own perceptron's mistakes.
    Without: each note's bound at the run's separator, and this run's mistakes.
    A logarithmic axis is used when the bounds dwarf the mistakes.
    """
    comparison = report["comparison"]
    rows, separators, bars, made, legend_made = _bars(report)
    values = [v for per in bars.values() for v in per.values()]
    smallest = min([*values, *(Fraction(m) for m in made.values() if m > 0)] or [Fraction(1)])
    logarithmic = max(values) / max(smallest, Fraction(1, 10**9)) > 30
    left = Fraction(1, 2) if logarithmic else Fraction(0)  # a log axis starts at 1/2: a bar of 1 shows
    scale = axis_scale(values, (Fraction(m) for m in made.values()))

    def place(x: Fraction) -> float:
        """Where x is drawn: its exponent on the log axis (from 1/2 for x below it), else x in the axis's unit."""
        return log_position(max(x, left), 0) if logarithmic else scale(x)

    with fixed_style():
        fig = new_figure(10.0, 1.1 + 0.62 * len(rows) * max(1, len(separators)) ** 0.5 + 0.9)
        ax = fig.subplots()
        height = 0.8 / len(separators)
        for j, name in enumerate(separators):
            ys = [len(rows) - 1 - r + (len(separators) - 1 - 2 * j) * height / 2 for r in range(len(rows))]
            widths = [place(bars.get(name, {}).get(conv, left)) - place(left) for _, conv in rows]
            ax.barh(ys, widths, left=place(left), height=height * 0.92,
                    color=SEPARATOR_COLOURS[j % len(SEPARATOR_COLOURS)],
                    label=f"bound at the {name}" + ("" if name.endswith("separator") else " separator"), zorder=2)
            for y, (_, conv) in zip(ys, rows):
                value = bars.get(name, {}).get(conv)
                if value is not None:
                    ax.annotate(f" {short(value)}", (place(value), y), va="center", fontsize=8.5, zorder=3)
        centres = [len(rows) - 1 - r for r in range(len(rows))]
        labelled = False
        for c, (_, conv) in zip(centres, rows):
            x = made.get(conv)
            if x is None:
                continue
            # A black bar across the whole group: the mistakes are one number per note, whatever the separator.
            at = place(Fraction(x))
            ax.plot([at, at], [c - 0.45, c + 0.45], color="black", linewidth=3, solid_capstyle="butt", zorder=4,
                    label=None if labelled else legend_made)
            labelled = True
            ax.annotate(f"{x} mistakes", (at, c + 0.45), textcoords="offset points", xytext=(0, 2), ha="center",
                        va="bottom", fontsize=8.5, fontweight="bold", zorder=5,
                        bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.85})
        ax.set_yticks(centres, [f"{note} {conv}" for note, conv in rows])
        ax.set_ylim(-0.6, len(rows) - 0.25)
        top = max(values)
        if logarithmic:  # room on the right for the bars' labels: up to 4 times the largest bound
            low, high = place(left), place(top * 4)
            ax.set_xlim(low, high)
            log_ticks(ax.xaxis, 0, low, high)
            ax.set_xlabel("number of mistakes (log scale)")
        else:
            ax.set_xlim(0, place(top) * 1.18)
            scaled_ticks(ax.xaxis, scale)
            ax.set_xlabel(scale.label("number of mistakes"))
        ax.grid(axis="y", visible=False)
        batch = "" if comparison is not None or report["mode"] == "online" else (
            "\nbatch mode: the notes prove these bounds for online runs only")
        ax.set_title("Each note's mistake bound (bars) and the mistakes made (black marks)" + batch)
        fig.legend(loc="outside lower center", ncols=2)
    return fig

