"""The invariants figure: w_k·w* and ‖w_k‖² against their bounds, and how Cauchy-Schwarz squeezes them.

Each top panel draws a quantity and its bound in one unit, the power of ten
of the larger (`_scale.axis_scale`); the bottom panel's log axes are drawn in
exponents (`_scale.log_position`), counted on the vertical axis from the
exponent of its largest value. So the values are exact until they are placed
on their axis, and no magnitude overflows or vanishes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, cast

from ...data.dataset import Dataset
from ._scale import axis_scale, log_offset, log_position
from ._style import BOUND, FORBIDDEN, POSITIVE, equals, fixed_style, log_ticks, new_figure, scaled_ticks, short
from .series import InvariantSeries, invariant_series

if TYPE_CHECKING:  # only for annotations: importing this module never imports matplotlib
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["draw_invariants"]


def draw_invariants(report: Mapping[str, Any], data: Dataset | None = None) -> Figure:
    """The two invariant curves against the update count, and (online, with a separator) why the run stops.

    Top left: w_k·w* above its lower bound N·a·γ. Top right: ‖w_k‖² below
    its upper bound. Below (online runs with a separator), on log-log axes:
    both in units of ‖w‖², with Cauchy-Schwarz between them; the squared
    lower bound grows like N², the upper like N, and they cross at the mistake
    bound B, drawn as a vertical line.
    """
    s = invariant_series(report, data)
    online = report["mode"] == "online"
    with fixed_style():
        squeeze = s.bound is not None and s.w_ws is not None and s.R_sq is not None
        top = ["lower", "upper"] if s.w_ws is not None else ["upper"]
        layout = [top, ["squeeze"] * len(top)] if squeeze else [top]
        fig = new_figure(10.5 if len(top) == 2 else 7.0, 4.5 * len(layout) + 0.5)
        axes = fig.subplot_mosaic(cast(Any, layout))
        xlabel = "update k (= mistakes N)" if online else "update k (each adds the n mistakes of one pass)"
        if "lower" in axes:
            _bounded_panel(axes["lower"], list(s.k), s.w_ws or (), s.lower, below=True,
                           label=r"$w_k\cdot w^*$", bound_label=r"lower bound $N\,a\,\gamma$",
                           title=r"$w_k\cdot w^*$ stays above $N\,a\,\gamma$", slack=s.min_slack("lower-bound"))
            axes["lower"].set_xlabel(xlabel)
        upper = r"$N\,a^2R^2$" if online else r"$a^2R^2\,\Sigma\,n^2$"
        _bounded_panel(axes["upper"], list(s.k), s.w_sq, s.upper, below=False, label=r"$\Vert w_k\Vert^2$",
                       bound_label="upper bound " + upper, title=r"$\Vert w_k\Vert^2$ stays below " + upper,
                       slack=s.min_slack(s.upper_claim) if s.upper is not None else None)
        axes["upper"].set_xlabel(xlabel)
        if squeeze:
            _squeeze_panel(axes["squeeze"], s)
        if s.per_interval > 1:  # the caption says the same: which updates are drawn, of how many
            span = (f"all {s.n_updates} updates, thinned exactly: of each {s.per_interval}, those of least and "
                    "greatest slack\n")
        else:
            span = f"the first {len(s.k) - 1} of {s.n_updates} updates\n" if s.truncated else ""
        fig.suptitle(f"The invariants of the convergence proof, exactly at every update\n{span}"
                     f"{report['convention']} (note {report['note'][:3]}), {report['mode']}, "
                     f"step size a = {short(s.a)}", fontsize=11)
    return fig


def _bounded_panel(ax: Axes, k: list[int], values: Sequence[Fraction], bound: Sequence[Fraction] | None, *,
                   below: bool, label: str, bound_label: str, title: str,
                   slack: tuple[Fraction, int] | None) -> None:
    """One quantity against k, with the bound it must not cross and the side it must not enter shaded; both in
    one unit, labelled `label` on the vertical axis."""
    scale = axis_scale(values, bound or ())
    y = scale.floats(values)
    ax.plot(k, y, "o-" if len(k) <= 60 else "-", color=POSITIVE, markersize=4, linewidth=1.6, label=label, zorder=3)
    scaled_ticks(ax.yaxis, scale)
    ax.set_ylabel(scale.label(label))
    if bound is not None:
        yb = scale.floats(bound)
        ax.plot(k, yb, "--", color=BOUND, linewidth=1.4, label=bound_label, zorder=2)
        top = max(max(y), max(yb))
        bottom = min(min(y), min(yb))
        margin = 0.06 * (top - bottom or 1)
        if below:
            ax.fill_between(k, [bottom - margin] * len(k), yb, color=FORBIDDEN, alpha=0.08, linewidth=0,
                            label="ruled out by the proof")
        else:
            ax.fill_between(k, yb, [top + margin] * len(k), color=FORBIDDEN, alpha=0.08, linewidth=0,
                            label="ruled out by the proof")
        ax.set_ylim(bottom - margin, top + margin)
    if slack is not None:
        value, at = slack
        index = k.index(at)
        ax.plot([at], [y[index]], "o", markersize=11, markerfacecolor="none", markeredgecolor="#e08a00",
                markeredgewidth=1.8, label=f"tightest: slack {short(value)} at k = {at}", zorder=4)
    ax.set_xlim(min(k) - 0.4, max(k) + 0.4)
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title(title)
    ax.legend(loc="upper left")


def _squeeze_panel(ax: Axes, s: InvariantSeries) -> None:
    """Log-log: (N·a·γ)²/‖w*‖² <= (w·w*)²/‖w*‖² <= ‖w‖² <= N·a²·U, which forces N <= B.

    Drawn in exponents: x = log10 N, y = log10(value) less the exponent of the
    largest value shown (the upper bound at the right end), so both bounds are
    straight lines, of slopes 1 and 2, at any magnitude.
    """
    assert s.w_ws is not None and s.gamma is not None and s.ws_sq is not None and s.R_sq is not None
    assert s.bound is not None
    crossing = s.crossing
    assert crossing is not None
    size = s.beta if s.squeeze_uses_beta else s.R_sq
    assert size is not None
    upper_per_n = s.a * s.a * size  # N·a²·U = N times this
    lower_per_n_sq = (s.a * s.gamma) ** 2 / s.ws_sq  # (N·a·γ)²/‖w*‖² = N² times this
    end = max(2 * s.bound, Fraction(2 * max(s.n_mistakes)))
    offset = log_offset([end * upper_per_n])

    def at(n: Fraction | int) -> float:
        return log_position(Fraction(n), 0)

    def height(value: Fraction) -> float:
        return log_position(value, offset)

    ends = (Fraction(1), end)  # the bounds from N = 1 (the axis starts a little left of it, at 0.8)
    upper = [height(n * upper_per_n) for n in ends]
    lower = [height(n * n * lower_per_n_sq) for n in ends]
    ax.plot([at(n) for n in ends], upper, "--", color=BOUND, linewidth=1.4,
            label=r"upper: $N\,a^2\beta$ (note 003)" if s.squeeze_uses_beta else r"upper: $N\,a^2R^2$")
    ax.plot([at(n) for n in ends], lower, ":", color=BOUND, linewidth=1.8,
            label=r"lower: $(N\,a\,\gamma)^2/\Vert w^*\Vert^2$")
    shown = [(n, w, c) for n, w, c in zip(s.n_mistakes, s.w_sq, s.w_ws) if n > 0 and w > 0]
    squares = [height(w) for _, w, _ in shown]
    ax.plot([at(n) for n, _, _ in shown], squares, "o", color=POSITIVE, markersize=4, label=r"$\Vert w_k\Vert^2$")
    along = [height(c * c / s.ws_sq) for _, _, c in shown if c > 0]
    ax.plot([at(n) for n, _, c in shown if c > 0], along, "s", color="#55a868", markersize=3.5,
            label=r"$(w_k\cdot w^*)^2/\Vert w^*\Vert^2$")
    ax.axvline(at(s.bound), color=FORBIDDEN, linewidth=1.6, label=f"mistake bound B {equals(s.bound)}")
    if s.n_mistakes[-1] > 0:
        ax.axvline(at(s.n_mistakes[-1]), color="#e08a00", linewidth=1.2, linestyle="-.",
                   label=f"this run: N = {s.n_mistakes[-1]}" + (" (kept)" if s.truncated else ""))
    ax.axvspan(at(s.bound), at(end), color=FORBIDDEN, alpha=0.08, linewidth=0)
    ax.annotate(f"the bounds cross at N = B {equals(s.bound)}", (at(s.bound), height(s.bound * upper_per_n)),
                textcoords="offset points", xytext=(-12, 14), ha="right", fontsize=9,
                bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": "none", "alpha": 0.85})
    heights = upper + lower + squares + along
    low, high = min(heights), max(heights)
    margin = 0.05 * ((high - low) or 1)
    ax.set_xlim(at(Fraction(4, 5)), at(end))
    ax.set_ylim(low - margin, high + margin)
    log_ticks(ax.xaxis, 0, at(Fraction(4, 5)), at(end))
    log_ticks(ax.yaxis, offset, low - margin, high + margin)
    ax.set_xlabel("mistakes N (log scale)")
    ax.set_ylabel("squared length (log scale)")
    ax.set_title(r"Cauchy-Schwarz squeezes them: $N \leq B$")
    ax.legend(loc="upper left", fontsize=8)
