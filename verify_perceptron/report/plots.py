"""Figures of a report: the invariant curves, the decision boundaries, the bounds, the certificate.

Two layers. The exact one reads a report dictionary (`verify_perceptron.report.record.build_report`,
or the JSON of ``verify --format json`` loaded back) and, where the samples
themselves are needed, the `~verify_perceptron.data.dataset.Dataset`, and computes
in `Fraction` everything a figure shows:

`invariant_series`
    w_k·w* and ‖w_k‖² at every kept update, beside the two sides the proofs
    bound them by (the ``lower-bound`` and ``upper-bound`` claims of
    `verify_perceptron.notes.claims`, evaluated by the very same functions);
`epoch_ends`
    the weights at the end of every epoch, as ``(b, v)`` with score ``v·x + b``;
`hull_meeting`
    for non-separable data, the point where the two classes' convex hulls
    meet, Σ 2λ_i·x_i over either class, from Gordan's certificate λ.

The drawing layer (`draw_invariants`, `draw_boundaries`, `draw_bounds`,
`draw_certificate`, and `report_figures` for all that apply) converts to float
only to place ink. matplotlib is imported when a figure is drawn, never when
this module is imported, and never through pyplot: figures are built as
``matplotlib.figure.Figure`` objects in a fixed style (matplotlib's defaults
plus a few settings, whatever the user's matplotlibrc says), rendered by the
SVG or Agg backends directly (never an interactive one), with no date or
version in the file and a fixed SVG hash salt, so the same report gives the
same image on every run.

Examples
--------
>>> from verify_perceptron.check.checker import verify_run
>>> from verify_perceptron.data.examples import example
>>> from verify_perceptron.report.record import build_report
>>> data = example("and")
>>> report = build_report(data, *verify_run(data))
>>> series = invariant_series(report)
>>> [str(v) for v in series.w_ws[:4]], [str(v) for v in series.lower[:4]]
(['0', '4', '5', '9'], ['0', '1', '2', '3'])
>>> series.bound, series.crossing
(Fraction(87, 1), Fraction(87, 1))
>>> [(e.epoch, [str(w) for w in e.weights]) for e in epoch_ends(report)][:2]
[(1, ['0', '1', '1']), (2, ['-1', '2', '1'])]
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

from ..notes.claims import CLAIMS
from ..notes.conventions import Convention, dot, get_convention
from ..data.dataset import Dataset
from ..errors import InvalidArgument, VerifyPerceptronError

if TYPE_CHECKING:  # only for annotations: importing this module never imports matplotlib
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "FIGURE_NAMES",
    "EpochEnd",
    "HullMeeting",
    "InvariantSeries",
    "PlottingUnavailable",
    "available_figures",
    "draw_boundaries",
    "draw_bounds",
    "draw_certificate",
    "draw_figure",
    "draw_invariants",
    "epoch_ends",
    "figure_png",
    "figure_svg",
    "hull_meeting",
    "invariant_series",
    "report_certificate",
    "report_figures",
]

#: Every figure a report can have, in the order documents show them.
FIGURE_NAMES = ("boundaries", "certificate", "invariants", "bounds")

Vector = tuple[Fraction, ...]

_CLAIMS = {c.name: c for c in CLAIMS}

# At most this many epochs get a panel of their own; longer runs show a spread of them.
_MAX_EPOCH_PANELS = 9

# Colours: the note's figure has the positive class blue and the negative class red.
_POSITIVE, _NEGATIVE = "#1f5fa8", "#c8322b"
_BOUND, _FORBIDDEN = "#222222", "#c8322b"
_SEPARATOR_COLOURS = ("#4c72b0", "#dd8452", "#55a868", "#8172b3", "#937860")


class PlottingUnavailable(VerifyPerceptronError, ImportError):
    """matplotlib, which draws the figures, is not installed.

    Examples
    --------
    >>> issubclass(PlottingUnavailable, ImportError)
    True
    """


# --------------------------------------------------------------------------------------------
# The exact layer
# --------------------------------------------------------------------------------------------


def _fractions(values: Sequence[str]) -> Vector:
    return tuple(Fraction(v) for v in values)


def _check_data(report: Mapping[str, Any], data: Dataset) -> None:
    d = report["dataset"]
    if (data.n_samples, data.n_features) != (d["n_samples"], d["n_features"]):
        raise InvalidArgument(
            f"data has {data.n_samples} samples of {data.n_features} features, but the report is about "
            f"{d['n_samples']} samples of {d['n_features']} features ({d['source']})"
        )


def _own_bound(report: Mapping[str, Any]) -> Fraction | None:
    """The mistake bound of the run's own note (online runs with a separator only)."""
    if report["mode"] != "online":
        return None
    own = [b for b in report["bounds"] if b["own"]]
    return Fraction(own[0]["value"]) if own else None


@dataclass(frozen=True)
class InvariantSeries:
    """The two quantities the convergence proofs bound, exactly, at update 0 (w = 0) and each kept update.

    Attributes
    ----------
    k, n_mistakes : tuple of int
        Update number and mistakes so far N (equal in online mode).
    w_ws, lower : tuple of Fraction, or None
        w_k·w* and the lower bound N·a·γ (the ``lower-bound`` claim); None without a separator
        that separates (γ > 0), as the checker then skips the claim.
    w_sq, upper : tuple of Fraction
        ‖w_k‖² and its upper bound: N·a²·R² online (``upper-bound``), a²·R²·Σn² in batch
        mode (``upper-bound-batch``). `upper` is None when R² is unknown (no separator and no data).
    upper_claim : str
        The name of the claim `upper` comes from.
    a, gamma, R_sq, beta, ws_sq : Fraction or None
        Step size and the separator's constants (γ and ‖w*‖² None without a separator).
    bound : Fraction or None
        The run's own note's mistake bound B (online runs with a separator).
    truncated : bool
        True when the report kept only the first updates.
    """

    k: tuple[int, ...]
    n_mistakes: tuple[int, ...]
    w_ws: Vector | None
    lower: Vector | None
    w_sq: Vector
    upper: Vector | None
    upper_claim: str
    a: Fraction
    gamma: Fraction | None
    R_sq: Fraction | None
    beta: Fraction | None
    ws_sq: Fraction | None
    bound: Fraction | None
    convention: str
    truncated: bool

    @property
    def squeeze_uses_beta(self) -> bool:
        """True for note 003, whose proof bounds ‖w‖² by a²·N·β (a sum) rather than N·a²·R²."""
        return self.convention == "sum-norm"

    @property
    def crossing(self) -> Fraction | None:
        """Where (N·a·γ)²/‖w*‖² (the lower bound, squared, by Cauchy-Schwarz) meets the upper bound.

        The lower side grows like N², the upper like N: they meet at
        N = U·‖w*‖²/γ² (U = R², or β for note 003), which is the note's bound B.
        """
        if self.gamma is None or self.ws_sq is None or self.R_sq is None or self.gamma <= 0:
            return None
        size = self.beta if self.squeeze_uses_beta else self.R_sq
        assert size is not None
        return size * self.ws_sq / self.gamma**2

    def min_slack(self, claim: str) -> tuple[Fraction, int] | None:
        """The smallest slack (right side minus left side) of ``lower-bound`` or the upper claim over
        the updates k >= 1 shown here, and the first k where it occurs.

        Examples
        --------
        >>> from verify_perceptron.check.checker import verify_run
        >>> from verify_perceptron.data.examples import example
        >>> from verify_perceptron.report.record import build_report
        >>> data = example("and")
        >>> invariant_series(build_report(data, *verify_run(data))).min_slack("lower-bound")
        (Fraction(3, 1), 1)
        """
        if claim == "lower-bound":
            if self.w_ws is None or self.lower is None:
                return None
            slacks = [w - b for w, b in zip(self.w_ws, self.lower)]
        elif claim == self.upper_claim:
            if self.upper is None:
                return None
            slacks = [b - w for w, b in zip(self.w_sq, self.upper)]
        else:
            raise InvalidArgument(f"claim={claim!r} must be 'lower-bound' or {self.upper_claim!r}")
        if len(slacks) < 2:
            return None
        best = min(slacks[1:])
        return best, self.k[slacks.index(best, 1)]


def _norms_sq(convention: Convention, data: Dataset) -> list[Fraction]:
    return [dot(x, x) for x in (convention.augment(x) for x in data.X)]


def invariant_series(report: Mapping[str, Any], data: Dataset | None = None) -> InvariantSeries:
    """w_k·w*, ‖w_k‖² and their bounds at every kept update, exactly (see `InvariantSeries`).

    Parameters
    ----------
    report : mapping
        A report dictionary (`build_report`, or its JSON loaded back).
    data : Dataset, optional
        Only needed for R² when the report has no separator (and so no constants).

    Examples
    --------
    >>> from verify_perceptron.check.checker import verify_run
    >>> from verify_perceptron.data.examples import example
    >>> from verify_perceptron.report.record import build_report
    >>> data = example("modified-or")
    >>> s = invariant_series(build_report(data, *verify_run(data, "sum-norm", mode="batch")))
    >>> s.k, s.n_mistakes, s.upper_claim, [str(v) for v in s.upper]
    ((0, 1), (0, 4), 'upper-bound-batch', ['0', '48'])
    """
    convention = get_convention(report["convention"])
    a = Fraction(report["step_size"])
    constants = report["constants"]
    separator = report["separator"]
    ws = _fractions(separator["weights"]) if separator else None
    gamma = ws_sq = R_sq = beta = None
    if constants is not None:
        gamma, ws_sq = Fraction(constants["gamma"]), Fraction(constants["ws_sq"])
        R_sq, beta = Fraction(constants["R_sq"]), Fraction(constants["beta"])
    elif data is not None:
        _check_data(report, data)
        norms = _norms_sq(convention, data)
        R_sq, beta = max(norms), sum(norms, Fraction(0))
    # The lower bound speaks of a separator: with γ <= 0 the proof's hypothesis fails, the checker
    # skips every claim about w*, and so do the curves.
    separates = ws is not None and gamma is not None and gamma > 0
    online = report["mode"] == "online"
    upper_claim = "upper-bound" if online else "upper-bound-batch"
    lower_side, upper_side = _CLAIMS["lower-bound"].lhs, _CLAIMS[upper_claim].rhs
    zero = Fraction(0)
    ks, Ns, w_ws, w_sq, lower, upper = [0], [0], [zero], [zero], [zero], [zero]
    N = sum_n_sq = 0
    for u in report["updates"]:
        w = _fractions(u["weights"])
        n = len(u["samples"])
        N, sum_n_sq = N + n, sum_n_sq + n * n
        # The claims' own sides, on the same quantities the checker gives them.
        q = SimpleNamespace(a=a, N=N, n=n, gamma=gamma, R_sq=R_sq, sum_n_sq=sum_n_sq)
        ks.append(u["k"])
        Ns.append(N)
        w_sq.append(dot(w, w))
        if separates:
            assert ws is not None
            w_ws.append(dot(w, ws))
            lower.append(lower_side(q))
        if R_sq is not None:
            upper.append(upper_side(q))
    return InvariantSeries(
        k=tuple(ks), n_mistakes=tuple(Ns),
        w_ws=tuple(w_ws) if separates else None,
        lower=tuple(lower) if separates else None,
        w_sq=tuple(w_sq), upper=tuple(upper) if R_sq is not None else None, upper_claim=upper_claim,
        a=a, gamma=gamma, R_sq=R_sq, beta=beta, ws_sq=ws_sq,
        bound=_own_bound(report) if separates else None,
        convention=convention.name, truncated=bool(report["updates_truncated"]),
    )


@dataclass(frozen=True)
class EpochEnd:
    """The weights at the end of one epoch (pass).

    Attributes
    ----------
    epoch : int
        From 1.
    k : int
        Updates made so far.
    weights : tuple of Fraction
        In the convention's own coordinate order.
    bias, normal : Fraction and tuple of Fraction
        The same weights as ``(b, v)``: the score of x is ``v·x + b``, the boundary ``v·x + b = 0``.
    """

    epoch: int
    k: int
    weights: Vector
    bias: Fraction
    normal: Vector


def epoch_ends(report: Mapping[str, Any]) -> list[EpochEnd]:
    """The weights at the end of each epoch whose end the report's kept updates determine.

    Epoch e ends with the weights of the last update made in an epoch <= e
    (zero if none). When the report kept only the first updates, the epochs
    they cover completely are given, then the last epoch from the final weights.
    """
    convention = get_convention(report["convention"])
    updates = report["updates"]
    n_epochs = int(report["n_epochs"])
    complete = n_epochs
    if report["updates_truncated"] and updates:
        complete = min(n_epochs, updates[-1]["epoch"] - 1)
    out: list[EpochEnd] = []
    weights: Vector = tuple(Fraction(0) for _ in report["final_weights"])
    k, i = 0, 0
    for epoch in range(1, complete + 1):
        while i < len(updates) and updates[i]["epoch"] <= epoch:
            weights, k = _fractions(updates[i]["weights"]), updates[i]["k"]
            i += 1
        b, v = convention.to_canonical(weights)
        out.append(EpochEnd(epoch, k, weights, b, v))
    if complete < n_epochs:
        final = _fractions(report["final_weights"])
        b, v = convention.to_canonical(final)
        out.append(EpochEnd(n_epochs, int(report["n_updates"]), final, b, v))
    return out


def report_certificate(report: Mapping[str, Any]) -> Vector | None:
    """Gordan's λ when the report certifies the data not separable (from the run's cycle or the exact decision)."""
    if report["cycle"] and report["cycle"]["certificate"] and report["cycle"]["certificate_valid"]:
        return _fractions(report["cycle"]["certificate"])
    certificate = report.get("certificate")
    if certificate and certificate["kind"] == "gordan":
        return _fractions(certificate["values"])
    return None


@dataclass(frozen=True)
class HullMeeting:
    """A point of both classes' convex hulls, from Gordan's certificate.

    Σ λ_i·y_i·x~_i = 0 with Σ λ_i = 1 splits, in the constant coordinate, into
    Σ_{y=+1} λ_i = Σ_{y=-1} λ_i = 1/2; the other coordinates then say that
    Σ_{y=+1} 2λ_i·x_i = Σ_{y=-1} 2λ_i·x_i: one point, a convex combination of
    each class.

    Attributes
    ----------
    point : tuple of Fraction
        The common point.
    positive, negative : tuple of (int, Fraction)
        The samples of each class with λ_i > 0, and their convex weights 2λ_i.
    """

    point: Vector
    positive: tuple[tuple[int, Fraction], ...]
    negative: tuple[tuple[int, Fraction], ...]


def hull_meeting(data: Dataset, certificate: Sequence[Fraction]) -> HullMeeting:
    """The point where the classes' convex hulls meet, checked exactly from both sides.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> meeting = hull_meeting(example("xor"), [Fraction(1, 4)] * 4)
    >>> [str(v) for v in meeting.point], meeting.positive
    (['1/2', '1/2'], ((1, Fraction(1, 2)), (2, Fraction(1, 2))))
    >>> hull_meeting(example("and"), [Fraction(1, 4)] * 4)
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.InvalidArgument: certificate: λ over the positive class sums to 1/4, not 1/2: not a Gordan certificate
    """
    lam = tuple(Fraction(v) for v in certificate)
    if len(lam) != data.n_samples:
        raise InvalidArgument(f"certificate has {len(lam)} values; the data have {data.n_samples} samples")
    if any(v < 0 for v in lam) or sum(lam) != 1:
        raise InvalidArgument("certificate: λ must be >= 0 with Σλ = 1")
    sides: dict[int, tuple[tuple[int, Fraction], ...]] = {}
    points: dict[int, Vector] = {}
    for label, name in ((1, "positive"), (-1, "negative")):
        members = tuple((i, 2 * v) for i, v in enumerate(lam) if data.y[i] == label and v > 0)
        total = sum((w for _, w in members), Fraction(0)) / 2
        if total != Fraction(1, 2):
            raise InvalidArgument(f"certificate: λ over the {name} class sums to {total}, not 1/2: not a Gordan certificate")
        sides[label] = members
        points[label] = tuple(sum((w * data.X[i][j] for i, w in members), Fraction(0)) for j in range(data.n_features))
    if points[1] != points[-1]:
        raise InvalidArgument(
            f"certificate: Σ 2λ_i·x_i is {_bracket(points[1])} over the positive class but "
            f"{_bracket(points[-1])} over the negative one: not a Gordan certificate"
        )
    return HullMeeting(points[1], sides[1], sides[-1])


def convex_hull(points: Sequence[tuple[Fraction, Fraction]]) -> list[tuple[Fraction, Fraction]]:
    """The convex hull's corners, counter-clockwise, exactly (Andrew's monotone chain).

    Examples
    --------
    >>> F = Fraction
    >>> convex_hull([(F(0), F(0)), (F(1), F(1)), (F(2), F(0)), (F(1), F(0)), (F(1), F(1, 2))])
    [(Fraction(0, 1), Fraction(0, 1)), (Fraction(2, 1), Fraction(0, 1)), (Fraction(1, 1), Fraction(1, 1))]
    """
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def turn(o: tuple[Fraction, Fraction], p: tuple[Fraction, Fraction], q: tuple[Fraction, Fraction]) -> Fraction:
        return (p[0] - o[0]) * (q[1] - o[1]) - (p[1] - o[1]) * (q[0] - o[0])

    def chain(ordered: list[tuple[Fraction, Fraction]]) -> list[tuple[Fraction, Fraction]]:
        out: list[tuple[Fraction, Fraction]] = []
        for p in ordered:
            while len(out) >= 2 and turn(out[-2], out[-1], p) <= 0:
                out.pop()
            out.append(p)
        return out

    lower, upper = chain(pts), chain(pts[::-1])
    return lower[:-1] + upper[:-1]


def available_figures(report: Mapping[str, Any], data: Dataset | None = None) -> tuple[str, ...]:
    """The names (from `FIGURE_NAMES`) of the figures this report can have; matplotlib is not needed.

    Examples
    --------
    >>> from verify_perceptron.check.checker import verify_run
    >>> from verify_perceptron.data.examples import example
    >>> from verify_perceptron.report.record import build_report
    >>> data = example("and")
    >>> report = build_report(data, *verify_run(data))
    >>> available_figures(report), available_figures(report, data)
    (('invariants', 'bounds'), ('boundaries', 'invariants', 'bounds'))
    """
    two_d = data is not None and data.n_features == 2
    if data is not None:
        _check_data(report, data)
    names = []
    if two_d and report["n_epochs"] >= 1:
        names.append("boundaries")
    if two_d and report_certificate(report) is not None:
        names.append("certificate")
    if report["updates"] and (report["separator"] is not None or data is not None):
        names.append("invariants")
    comparison = report["comparison"]
    if (comparison is not None and comparison["separable"]) or report["bounds"]:
        names.append("bounds")
    return tuple(names)


# --------------------------------------------------------------------------------------------
# The drawing layer: floats from here on, for ink only
# --------------------------------------------------------------------------------------------

# matplotlib's defaults, whatever the user's matplotlibrc says, plus these.
_STYLE = {
    "svg.hashsalt": "verify-perceptron",
    "svg.fonttype": "none",
    "font.family": "DejaVu Sans",
    "font.size": 10,
    "axes.titlesize": 10.5,
    "axes.labelsize": 10,
    "legend.fontsize": 9,
    "legend.framealpha": 0.92,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "figure.dpi": 100,
    "savefig.dpi": 100,
}


@contextmanager
def _style() -> Iterator[Any]:
    """matplotlib, in the fixed style; raises `PlottingUnavailable` when it is not installed."""
    try:
        import matplotlib
        import matplotlib.style
    except ImportError:
        raise PlottingUnavailable(
            "figures need matplotlib, which is not installed: pip install 'verify-perceptron[plots]'"
        ) from None
    with matplotlib.style.context("default"), matplotlib.rc_context(cast(Any, _STYLE)):
        yield matplotlib


def _new_figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _bracket(values: Sequence[object]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def _short(value: Fraction) -> str:
    """The exact value when short; else about 5 significant digits, marked as approximate."""
    text = str(value)
    return text if len(text) <= 9 else f"≈ {float(value):.5g}"


def _equals(value: Fraction) -> str:
    """``= 87`` when exact and short, ``≈ 1001.4`` otherwise."""
    text = _short(value)
    return text if text.startswith("≈") else "= " + text


def _floats(values: Sequence[Fraction]) -> list[float]:
    return [float(v) for v in values]


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
    with _style():
        squeeze = s.bound is not None and s.w_ws is not None and s.R_sq is not None
        top = ["lower", "upper"] if s.w_ws is not None else ["upper"]
        layout = [top, ["squeeze"] * len(top)] if squeeze else [top]
        fig = _new_figure(10.5 if len(top) == 2 else 7.0, 4.5 * len(layout) + 0.5)
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
    y = _floats(values)
    ax.plot(k, y, "o-" if len(k) <= 60 else "-", color=_POSITIVE, markersize=4, linewidth=1.6, label=label, zorder=3)
    if bound is not None:
        yb = _floats(bound)
        ax.plot(k, yb, "--", color=_BOUND, linewidth=1.4, label=bound_label, zorder=2)
        top = max(max(y), max(yb))
        bottom = min(min(y), min(yb))
        margin = 0.06 * (top - bottom or 1)
        if below:
            ax.fill_between(k, [bottom - margin] * len(k), yb, color=_FORBIDDEN, alpha=0.08, linewidth=0,
                            label="ruled out by the proof")
        else:
            ax.fill_between(k, yb, [top + margin] * len(k), color=_FORBIDDEN, alpha=0.08, linewidth=0,
                            label="ruled out by the proof")
        ax.set_ylim(bottom - margin, top + margin)
    if slack is not None:
        value, at = slack
        index = k.index(at)
        ax.plot([at], [y[index]], "o", markersize=11, markerfacecolor="none", markeredgecolor="#e08a00",
                markeredgewidth=1.8, label=f"tightest: slack {_short(value)} at k = {at}", zorder=4)
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
    ax.plot(grid, [n * a * a * float(size) for n in grid], "--", color=_BOUND, linewidth=1.4,
            label=r"upper: $N\,a^2\beta$ (note 003)" if s.squeeze_uses_beta else r"upper: $N\,a^2R^2$")
    ax.plot(grid, [(n * a * gamma) ** 2 / ws_sq for n in grid], ":", color=_BOUND, linewidth=1.8,
            label=r"lower: $(N\,a\,\gamma)^2/\Vert w^*\Vert^2$")
    shown = [(n, w, c) for n, w, c in zip(s.n_mistakes, s.w_sq, s.w_ws) if n > 0 and w > 0]
    ax.plot([n for n, _, _ in shown], [float(w) for _, w, _ in shown], "o", color=_POSITIVE, markersize=4,
            label=r"$\Vert w_k\Vert^2$")
    ax.plot([n for n, _, c in shown if c > 0], [float(c * c / s.ws_sq) for _, _, c in shown if c > 0], "s",
            color="#55a868", markersize=3.5, label=r"$(w_k\cdot w^*)^2/\Vert w^*\Vert^2$")
    ax.axvline(float(s.bound), color=_FORBIDDEN, linewidth=1.6, label=f"mistake bound B {_equals(s.bound)}")
    ax.axvline(float(s.n_mistakes[-1]), color="#e08a00", linewidth=1.2, linestyle="-.",
               label=f"this run: N = {s.n_mistakes[-1]}" + (" (kept)" if s.truncated else ""))
    ax.axvspan(float(s.bound), end, color=_FORBIDDEN, alpha=0.08, linewidth=0)
    meet = float(s.bound) * a * a * float(size)
    ax.annotate(f"the bounds cross at N = B {_equals(s.bound)}", (float(s.bound), meet), textcoords="offset points",
                xytext=(-12, 14), ha="right", fontsize=9,
                bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": "none", "alpha": 0.85})
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(0.8, end)
    ax.set_xlabel("mistakes N (log scale)")
    ax.set_ylabel("squared length (log scale)")
    ax.set_title(r"Cauchy-Schwarz squeezes them: $N \leq B$")
    ax.legend(loc="upper left", fontsize=8)


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


def _data_box(data: Dataset) -> tuple[float, float, float, float]:
    xs = [float(x[0]) for x in data.X]
    ys = [float(x[1]) for x in data.X]
    pad_x = 0.25 * ((max(xs) - min(xs)) or 2)
    pad_y = 0.25 * ((max(ys) - min(ys)) or 2)
    return min(xs) - pad_x, max(xs) + pad_x, min(ys) - pad_y, max(ys) + pad_y


def _scatter(ax: Axes, data: Dataset, report: Mapping[str, Any], *, size: float = 46) -> None:
    labels = report["dataset"]["labels"]
    for label, colour, marker, name in ((1, _POSITIVE, "o", labels["positive"]), (-1, _NEGATIVE, "s", labels["negative"])):
        pts = [(float(x[0]), float(x[1])) for x, y in zip(data.X, data.y) if y == label]
        ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=size, c=colour, marker=marker, edgecolors="white",
                   linewidths=0.6, zorder=4, label=f"class {'+1' if label == 1 else '-1'} ({name})")


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
    _check_data(report, data)
    if data.n_features != 2:
        raise InvalidArgument(f"decision boundaries are drawn for 2 features; the data have {data.n_features}")
    ends = epoch_ends(report)
    shown = _select_epochs(ends)
    box = _data_box(data)
    names = report["dataset"]["feature_names"]
    coordinates = report["coordinates"]
    with _style():
        cols = min(3, len(shown))
        rows = -(-len(shown) // cols)
        width = max(3.7, min(5.0, 7.4 / cols))
        fig = _new_figure(width * cols + 0.3, width * 0.95 * rows + 1.3)
        axes = fig.subplots(rows, cols, squeeze=False, sharex=True, sharey=True)
        previous = {e.epoch: ends[j - 1] for j, e in enumerate(ends) if j > 0}
        for index, end in enumerate(shown):
            ax = axes[index // cols][index % cols]
            polygon = _positive_side(float(end.bias), _floats(end.normal), box)
            if polygon:
                ax.fill([p[0] for p in polygon], [p[1] for p in polygon], color=_POSITIVE, alpha=0.10,
                        linewidth=0, label="predicted +1 (v·x + b > 0)")
            before = previous.get(end.epoch)
            if before is not None and before.weights != end.weights:
                _line(ax, before.bias, before.normal, color="#888888", linestyle="--", linewidth=1.1,
                      label="previous epoch's boundary")
            has_line = _line(ax, end.bias, end.normal, color="black", linewidth=2.0, label="boundary v·x + b = 0")
            _scatter(ax, data, report, size=38)
            if data.n_samples <= 12:
                _index_labels(ax, data)
            wrong = _misclassified(report, data, end.weights)
            if wrong:
                ax.scatter([float(data.X[i][0]) for i in wrong], [float(data.X[i][1]) for i in wrong], s=170,
                           facecolors="none", edgecolors="#e08a00", linewidths=1.6, zorder=5,
                           label="still a mistake")
            last = end.epoch == int(report["n_epochs"])
            status = ("converged" if report["converged"] else report["stop"]) if last else f"after update {end.k}"
            title = f"epoch {end.epoch} ({status})\n{_bracket(coordinates)} = {_bracket(end.weights)}"
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


def draw_certificate(report: Mapping[str, Any], data: Dataset) -> Figure:
    """Non-separable two-feature data: both classes' convex hulls, and the point where they meet.

    The point is Σ 2λ_i·x_i over either class, λ being the report's Gordan
    certificate; the samples with λ_i > 0 are labelled with λ_i. When they lie
    in a small part of the data, a second panel shows that part enlarged.
    """
    _check_data(report, data)
    certificate = report_certificate(report)
    if certificate is None:
        raise InvalidArgument("the report has no Gordan certificate: the data were not shown to be non-separable")
    if data.n_features != 2:
        raise InvalidArgument(f"the certificate is drawn for 2 features; the data have {data.n_features}")
    meeting = hull_meeting(data, certificate)
    names = report["dataset"]["feature_names"]
    box = _data_box(data)
    support = [data.X[i] for i, _ in meeting.positive + meeting.negative]
    zoom = _zoom_box(support, box)
    point = "(" + ", ".join(str(v) for v in meeting.point) + ")"
    with _style():
        fig = _new_figure(12.4 if zoom else 7.6, 6.4)
        axes = fig.subplots(1, 2 if zoom else 1, squeeze=False)[0]
        for ax, limits in zip(axes, (box, zoom) if zoom else (box,)):
            _hulls(ax, data)
            _scatter(ax, data, report)
            detailed = zoom is None or limits is zoom
            _certificate_marks(ax, data, meeting, point, limits, labels=detailed)
            ax.set_xlim(limits[0], limits[1])
            ax.set_ylim(limits[2], limits[3])
            ax.set_xlabel(names[0])
            ax.set_ylabel(names[1])
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


def _zoom_box(points: Sequence[Sequence[Fraction]], box: tuple[float, float, float, float]
              ) -> tuple[float, float, float, float] | None:
    """A box around `points` when they fill less than 40% of the data's box in each direction (and are not
    all one point), else None."""
    xs, ys = [float(p[0]) for p in points], [float(p[1]) for p in points]
    width, height = max(xs) - min(xs), max(ys) - min(ys)
    if width == height == 0 or width > 0.4 * (box[1] - box[0]) or height > 0.4 * (box[3] - box[2]):
        return None
    pad_x = 0.35 * (width or height or 1)
    pad_y = 0.35 * (height or width or 1)
    return min(xs) - pad_x, max(xs) + pad_x, min(ys) - pad_y, max(ys) + pad_y


def _rectangle(corner: tuple[float, float], width: float, height: float) -> Any:
    from matplotlib.patches import Rectangle

    return Rectangle(corner, width, height, fill=False, edgecolor="#444444", linewidth=1.2, linestyle="--", zorder=8)


def _hulls(ax: Axes, data: Dataset) -> None:
    for label, colour in ((1, _POSITIVE), (-1, _NEGATIVE)):
        hull = convex_hull([(x[0], x[1]) for x, y in zip(data.X, data.y) if y == label])
        closed = hull + hull[:1]
        xs, ys = [float(p[0]) for p in closed], [float(p[1]) for p in closed]
        ax.fill(xs, ys, color=colour, alpha=0.12, linewidth=0)
        ax.plot(xs, ys, color=colour, linewidth=1.4, label=f"convex hull of class {'+1' if label == 1 else '-1'}")


def _certificate_marks(ax: Axes, data: Dataset, meeting: HullMeeting, point: str,
                       limits: tuple[float, float, float, float], *, labels: bool) -> None:
    """Dotted lines from the samples with λ_i > 0 to p, their λ_i, and p itself."""
    px, py = float(meeting.point[0]), float(meeting.point[1])
    span_x, span_y = limits[1] - limits[0], limits[3] - limits[2]
    for members, colour in ((meeting.positive, _POSITIVE), (meeting.negative, _NEGATIVE)):
        for i, weight in members:
            x, y = float(data.X[i][0]), float(data.X[i][1])
            ax.plot([x, px], [y, py], color=colour, linestyle=":", linewidth=1.4, zorder=3)
            if labels:
                # Put the label on the far side of the sample from p, so that it covers neither.
                dx, dy = (x - px) / span_x, (y - py) / span_y
                norm = math.hypot(dx, dy) or 1.0
                ax.annotate(rf"$\lambda_{{{i}}}$ = {weight / 2}", (x, y), textcoords="offset points",
                            xytext=(16 * dx / norm, 16 * dy / norm), ha="left" if dx >= 0 else "right",
                            va="bottom" if dy >= 0 else "top", fontsize=9.5, color=colour, zorder=6,
                            bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": "none", "alpha": 0.85})
    ax.plot([px], [py], "*", color="black", markersize=17, zorder=7, label=f"common point p = {point}")
    if labels:
        ax.annotate(f"p = {point}", (px, py), textcoords="offset points", xytext=(12, -18), fontsize=10,
                    fontweight="bold", zorder=7,
                    bbox={"boxstyle": "round,pad=0.25", "fc": "white", "ec": "#444444", "alpha": 0.9})


def draw_bounds(report: Mapping[str, Any]) -> Figure:
    """Each note's mistake bound as a bar, with the mistakes actually made marked.

    With the report's comparison (``verify --compare``): one bar per
    separator for each note, and each note's own perceptron's mistakes.
    Without: each note's bound at the run's separator, and this run's mistakes.
    A logarithmic axis is used when the bounds dwarf the mistakes.
    """
    comparison = report["comparison"]
    rows: list[tuple[str, str]] = []  # (note number, convention)
    bars: dict[str, dict[str, Fraction]] = {}  # separator -> convention -> bound
    made: dict[str, int] = {}
    if comparison is not None and comparison["separable"]:
        separators = [s["name"] for s in comparison["separators"] if not s.get("skipped")]
        for entry in comparison["bounds"]:
            if (entry["note"][:3], entry["convention"]) not in rows:
                rows.append((entry["note"][:3], entry["convention"]))
            bars.setdefault(entry["separator"], {})[entry["convention"]] = Fraction(entry["value"])
        made = {run["convention"]: run["n_updates"] for run in comparison["runs"]}
        legend_made = "mistakes made by the note's own perceptron (online, from w = 0)"
    elif report["bounds"]:
        separators = [f"{report['separator']['source']} separator"]
        for b in report["bounds"]:
            rows.append((b["note"][:3], b["convention"]))
            bars.setdefault(separators[0], {})[b["convention"]] = Fraction(b["value"])
        made = {b["convention"]: b["n_mistakes"] for b in report["bounds"]}
        legend_made = f"mistakes made by this run ({report['convention']}, {report['mode']})"
    else:
        raise InvalidArgument("the report has no bounds to draw: no separator (and no comparison)")
    values = [v for per in bars.values() for v in per.values()]
    smallest = min([*values, *(Fraction(m) for m in made.values() if m > 0)] or [Fraction(1)])
    logarithmic = max(values) / max(smallest, Fraction(1, 10**9)) > 30
    with _style():
        fig = _new_figure(10.0, 1.1 + 0.62 * len(rows) * max(1, len(separators)) ** 0.5 + 0.9)
        ax = fig.subplots()
        height = 0.8 / len(separators)
        for j, name in enumerate(separators):
            ys = [len(rows) - 1 - r + (len(separators) - 1 - 2 * j) * height / 2 for r in range(len(rows))]
            widths = [float(bars.get(name, {}).get(conv, Fraction(0))) for _, conv in rows]
            ax.barh(ys, widths, height=height * 0.92, color=_SEPARATOR_COLOURS[j % len(_SEPARATOR_COLOURS)],
                    label=f"bound at the {name}" + ("" if name.endswith("separator") else " separator"), zorder=2)
            for y, (_, conv) in zip(ys, rows):
                value = bars.get(name, {}).get(conv)
                if value is not None:
                    ax.annotate(f" {_short(value)}", (float(value), y), va="center", fontsize=8.5, zorder=3)
        centres = [len(rows) - 1 - r for r in range(len(rows))]
        labelled = False
        for c, (_, conv) in zip(centres, rows):
            x = made.get(conv)
            if x is None:
                continue
            # A black bar across the whole group: the mistakes are one number per note, whatever the separator.
            ax.plot([x, x], [c - 0.45, c + 0.45], color="black", linewidth=3, solid_capstyle="butt", zorder=4,
                    label=None if labelled else legend_made)
            labelled = True
            ax.annotate(f"{x} mistakes", (x, c + 0.45), textcoords="offset points", xytext=(0, 2), ha="center",
                        va="bottom", fontsize=8.5, fontweight="bold", zorder=5,
                        bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.85})
        ax.set_yticks(centres, [f"{note} {conv}" for note, conv in rows])
        ax.set_ylim(-0.6, len(rows) - 0.25)
        if logarithmic:
            ax.set_xscale("log")
            ax.set_xlim(left=0.5)
        right = max(float(v) for v in values)
        ax.set_xlim(right=right * (4 if logarithmic else 1.18))
        ax.set_xlabel("number of mistakes" + (" (log scale)" if logarithmic else ""))
        ax.grid(axis="y", visible=False)
        batch = "" if comparison is not None or report["mode"] == "online" else (
            "\nbatch mode: the notes prove these bounds for online runs only")
        ax.set_title("Each note's mistake bound (bars) and the mistakes made (black marks)" + batch)
        fig.legend(loc="outside lower center", ncols=2)
    return fig


_DRAW = {
    "invariants": lambda report, data: draw_invariants(report, data),
    "bounds": lambda report, data: draw_bounds(report),
    "boundaries": lambda report, data: draw_boundaries(report, data),
    "certificate": lambda report, data: draw_certificate(report, data),
}


def draw_figure(name: str, report: Mapping[str, Any], data: Dataset | None = None) -> Figure:
    """One figure by name (see `FIGURE_NAMES`)."""
    if name not in _DRAW:
        raise InvalidArgument(f"figure={name!r} is not one of {', '.join(FIGURE_NAMES)}")
    if name in ("boundaries", "certificate") and data is None:
        raise InvalidArgument(f"figure={name!r} needs the data (data=None)")
    return _DRAW[name](report, data)


def figure_svg(fig: Figure) -> str:
    """The figure as SVG text, the same every time: no date, no version, fixed ids.

    Text stays text (selectable, small files), in DejaVu Sans with the usual
    sans-serif fonts as fallbacks where a viewer lacks it.
    """
    with _style():
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": "verify-perceptron (matplotlib)"})
    return buffer.getvalue()


def figure_png(fig: Figure, *, dpi: int = 100) -> bytes:
    """The figure as PNG bytes, rendered by the Agg backend, with no date or version in the file."""
    with _style():
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=dpi, metadata={"Software": None})
    return buffer.getvalue()


def report_figures(report: Mapping[str, Any], data: Dataset | None = None) -> dict[str, str]:
    """Every figure the report can have (`available_figures`), as ``{name: SVG text}`` in `FIGURE_NAMES` order.

    Raises `PlottingUnavailable` when matplotlib is not installed.
    """
    return {name: figure_svg(draw_figure(name, report, data)) for name in available_figures(report, data)}
