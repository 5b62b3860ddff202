"""The invariants figure: w_k·w* and ‖w_k‖² against their bounds, and how Cauchy-Schwarz squeezes them."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, cast

from ...data.dataset import Dataset
from ._style import BOUND, FORBIDDEN, POSITIVE, equals, fixed_style, floats, new_figure, short
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
            axes["lower"].set_ylabel(r"$w_k\cdot w^*$")
            axes["lower"].set_xlabel(xlabel)
        upper = r"$N\,a^2R^2$" if online else r"$a^2R^2\,\Sigma\,n^2$"
        _bounded_panel(axes["upper"], list(s.k), s.w_sq, s.upper, below=False, label=r"$\Vert w_k\Vert^2$",
                       bound_label="upper bound " + upper, title=r"$\Vert w_k\Vert^2$ stays below " + upper,
                       slack=s.min_slack(s.upper_claim) if s.upper is not None else None)
        axes["upper"].set_ylabel(r"$\Vert w_k\Vert^2$")
        axes["upper"].set_xlabel(xlabel)
        if squeeze:
            _squeeze_panel(axes["squeeze"], s)
        truncated = " (the updates the report kept)" if s.truncated else ""
        fig.suptitle(f"The invariants of the convergence proof, exactly at every update{truncated}\n"
                     f"{report['convention']} (note {report['note'][:3]}), {report['mode']}, "
                     f"step size a = {report['step_size']}", fontsize=11)
    return fig


def _bounded_panel(ax: Axes, k: list[int], values: Sequence[Fraction], bound: Sequence[Fraction] | None, *,
                   below: bool, label: str, bound_label: str, title: str,
                   slack: tuple[Fraction, int] | None) -> None:
    """One quantity against k, with the bound it must not cross and the side it must not enter shaded."""
    y = floats(values)
    ax.plot(k, y, "o-" if len(k) <= 60 else "-", color=POSITIVE, markersize=4, linewidth=1.6, label=label, zorder=3)
    if bound is not None:
        yb = floats(bound)
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
    """Log-log: (N·a·γ)²/‖w*‖² <= (w·w*)²/‖w*‖² <= ‖w‖² <= N·a²·U, which forces N <= B."""
    assert s.w_ws is not None and s.gamma is not None and s.ws_sq is not None and s.R_sq is not None
    assert s.bound is not None
    crossing = s.crossing
    assert crossing is not None
    size = s.beta if s.squeeze_uses_beta else s.R_sq
    assert size is not None
    a, gamma, ws_sq = float(s.a), float(s.gamma), float(s.ws_sq)
    end = max(2 * float(s.bound), 2 * max(s.n_mistakes))
    grid = [10 ** (math.log10(end) * t / 200) for t in range(201)]
    ax.plot(grid, [n * a * a * float(size) for n in grid], "--", color=BOUND, linewidth=1.4,
            label=r"upper: $N\,a^2\beta$ (note 003)" if s.squeeze_uses_beta else r"upper: $N\,a^2R^2$")
    ax.plot(grid, [(n * a * gamma) ** 2 / ws_sq for n in grid], ":", color=BOUND, linewidth=1.8,
            label=r"lower: $(N\,a\,\gamma)^2/\Vert w^*\Vert^2$")
    shown = [(n, w, c) for n, w, c in zip(s.n_mistakes, s.w_sq, s.w_ws) if n > 0 and w > 0]
    ax.plot([n for n, _, _ in shown], [float(w) for _, w, _ in shown], "o", color=POSITIVE, markersize=4,
            label=r"$\Vert w_k\Vert^2$")
    ax.plot([n for n, _, c in shown if c > 0], [float(c * c / s.ws_sq) for _, _, c in shown if c > 0], "s",
            color="#55a868", markersize=3.5, label=r"$(w_k\cdot w^*)^2/\Vert w^*\Vert^2$")
    ax.axvline(float(s.bound), color=FORBIDDEN, linewidth=1.6, label=f"mistake bound B {equals(s.bound)}")
    ax.axvline(float(s.n_mistakes[-1]), color="#e08a00", linewidth=1.2, linestyle="-.",
               label=f"this run: N = {s.n_mistakes[-1]}" + (" (kept)" if s.truncated else ""))
    ax.axvspan(float(s.bound), end, color=FORBIDDEN, alpha=0.08, linewidth=0)
    meet = float(s.bound) * a * a * float(size)
    ax.annotate(f"the bounds cross at N = B {equals(s.bound)}", (float(s.bound), meet), textcoords="offset points",
                xytext=(-12, 14), ha="right", fontsize=9,
                bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": "none", "alpha": 0.85})
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(0.8, end)
    ax.set_xlabel("mistakes N (log scale)")
    ax.set_ylabel("squared length (log scale)")
    ax.set_title(r"Cauchy-Schwarz squeezes them: $N \leq B$")
    ax.legend(loc="upper left", fontsize=8)

