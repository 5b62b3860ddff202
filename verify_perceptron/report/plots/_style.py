"""What every figure shares: matplotlib loaded on demand in one fixed style, the colours, and the ink helpers.

matplotlib is imported inside `fixed_style`, `new_figure` and the tick helpers,
never when this module is imported, and never through pyplot: figures are built
as ``matplotlib.figure.Figure`` objects in a fixed style (matplotlib's defaults
plus `STYLE`, whatever the user's matplotlibrc says), so the same report gives
the same image on every run. Values reach these helpers already scaled to
floats near 1 (`verify_perceptron.report.plots._scale`); `scaled_ticks` and
`log_ticks` label the axes with the true values.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, cast

from ...errors import VerifyPerceptronError
from .._readable import shown
from ._scale import AxisScale

if TYPE_CHECKING:  # only for annotations: importing this module never imports matplotlib
    from matplotlib.axes import Axes
    from matplotlib.axis import Axis
    from matplotlib.figure import Figure

__all__ = [
    "BOUND", "FORBIDDEN", "NEGATIVE", "POSITIVE", "SEPARATOR_COLOURS", "STYLE", "PlottingUnavailable",
    "Points", "bracket", "data_box", "equals", "fixed_style", "log_ticks", "new_figure", "scaled_ticks", "scatter",
    "short",
]

#: Samples as drawn: one (x, y) pair of floats each.
Points = Sequence[tuple[float, float]]

# Colours: the note's figure has the positive class blue and the negative class red.
POSITIVE, NEGATIVE = "#1f5fa8", "#c8322b"
BOUND, FORBIDDEN = "#222222", "#c8322b"
SEPARATOR_COLOURS = ("#4c72b0", "#dd8452", "#55a868", "#8172b3", "#937860")


class PlottingUnavailable(VerifyPerceptronError, ImportError):
    """matplotlib, which draws the figures, is not installed.

    Examples
    --------
    >>> issubclass(PlottingUnavailable, ImportError)
    True
    """


# matplotlib's defaults, whatever the user's matplotlibrc says, plus these.
STYLE = {
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
def fixed_style() -> Iterator[Any]:
    """matplotlib, in the fixed style; raises `PlottingUnavailable` when it is not installed."""
    try:
        import matplotlib
        import matplotlib.style
    except ImportError:
        raise PlottingUnavailable(
            "figures need matplotlib, which is not installed: pip install 'verify-perceptron[plots]'"
        ) from None
    with matplotlib.style.context("default"), matplotlib.rc_context(cast(Any, STYLE)):
        yield matplotlib


def new_figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def bracket(values: Sequence[Fraction]) -> str:
    """Exact values as `short` shows them, in brackets: ``[-4, 3, 2]``."""
    return "[" + ", ".join(short(v) for v in values) + "]"


def short(value: Fraction) -> str:
    """`value` as the reports write it (docs/numbers.md): a short decimal exactly, else ``≈`` six digits.

    Examples
    --------
    >>> short(Fraction(87)), short(Fraction(10**12, 7)), short(Fraction(1799, 100))
    ('87', '≈ 1.42857e+11', '17.99')
    """
    return shown(value)


def equals(value: Fraction) -> str:
    """``= 87`` when exact and short, ``≈ 1001.4`` otherwise."""
    text = short(value)
    return text if text.startswith("≈") else "= " + text


def data_box(points: Points) -> tuple[float, float, float, float]:
    """The points' extent, with a quarter of it added on each side: (x0, x1, y0, y1)."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    pad_x = 0.25 * ((max(xs) - min(xs)) or 2)
    pad_y = 0.25 * ((max(ys) - min(ys)) or 2)
    return min(xs) - pad_x, max(xs) + pad_x, min(ys) - pad_y, max(ys) + pad_y


def scatter(ax: Axes, points: Points, labels: Sequence[int], report: Mapping[str, Any], *, size: float = 46) -> None:
    """The samples as drawn, each class in its colour and marker, labelled with the data's label."""
    names = report["dataset"]["labels"]
    for label, colour, marker, name in ((1, POSITIVE, "o", names["positive"]), (-1, NEGATIVE, "s", names["negative"])):
        pts = [p for p, y in zip(points, labels) if y == label]
        ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=size, c=colour, marker=marker, edgecolors="white",
                   linewidths=0.6, zorder=4, label=f"class {'+1' if label == 1 else '-1'} ({name})")


def _true_value(tick: float, ticks: Sequence[float], exponent: int) -> str:
    """Tick `tick` of an axis drawn in units of 10^exponent, as its true value, with as many decimals as the
    finest of `ticks` needs (as matplotlib writes them: ``0.0, 0.5, 1.0``, a minus sign for ``-``).

    Examples
    --------
    >>> _true_value(0.30000000000000004, [0.0, 0.1, 0.30000000000000004], 1), _true_value(-0.25, [-0.25, 0.5], -1)
    ('3', '−0.025')
    """
    def true(t: float) -> Decimal:
        return Decimal(f"{t:.12g}").scaleb(exponent).normalize()

    places = max([0, *(-int(true(t).as_tuple().exponent) for t in ticks)])
    value = true(tick)
    return format(value if value else Decimal(0), f".{places}f").replace("-", "\N{MINUS SIGN}")


def scaled_ticks(axis: Axis, scale: AxisScale) -> None:
    """Label the ticks of an axis drawn in units of 10^s with their true values when `scale.plain` (else the
    axis label says the scale, `AxisScale.label`)."""
    if scale.exponent == 0 or not scale.plain:
        return
    from matplotlib.ticker import Formatter

    class TrueValues(Formatter):  # (made here: matplotlib is imported only to draw)
        ticks: Sequence[float] = ()

        def set_locs(self, locs: Sequence[float]) -> None:
            self.ticks = list(locs)

        def __call__(self, x: float, pos: int | None = None) -> str:
            return _true_value(x, self.ticks or [x], scale.exponent)

    axis.set_major_formatter(TrueValues())


def log_ticks(axis: Axis, offset: int, low: float, high: float) -> None:
    """Ticks of a log axis drawn in exponents less `offset` (`_scale.log_position`), shown from `low` to `high`:
    ``10^n`` at whole exponents, and unlabelled minor ticks at 2..9 times them over a few decades."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, MaxNLocator, NullFormatter

    axis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 5, 10]))
    axis.set_major_formatter(FuncFormatter(
        lambda t, pos: f"$\\mathdefault{{10^{{{round(t) + offset}}}}}$" if abs(t - round(t)) < 1e-9 else ""))
    if high - low <= 8:
        axis.set_minor_locator(FixedLocator([n + math.log10(m) for n in range(math.floor(low), math.ceil(high))
                                             for m in range(2, 10)]))
        axis.set_minor_formatter(NullFormatter())
