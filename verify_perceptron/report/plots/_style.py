"""What every figure shares: matplotlib loaded on demand in one fixed style, the colours, and the ink helpers.

matplotlib is imported inside `fixed_style` and `new_figure`, never when this
module is imported, and never through pyplot: figures are built as
``matplotlib.figure.Figure`` objects in a fixed style (matplotlib's defaults
plus `STYLE`, whatever the user's matplotlibrc says), so the same report gives
the same image on every run. Values become floats here, for ink only.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from fractions import Fraction
from typing import TYPE_CHECKING, Any, cast

from ...data.dataset import Dataset
from ...errors import VerifyPerceptronError
from .._decimals import approximate

if TYPE_CHECKING:  # only for annotations: importing this module never imports matplotlib
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "BOUND", "FORBIDDEN", "NEGATIVE", "POSITIVE", "SEPARATOR_COLOURS", "STYLE", "PlottingUnavailable",
    "bracket", "data_box", "equals", "fixed_style", "floats", "new_figure", "scatter", "short",
]

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


def bracket(values: Sequence[object]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def short(value: Fraction) -> str:
    """The exact value when short; else about 5 significant digits, marked as approximate.

    Examples
    --------
    >>> short(Fraction(87)), short(Fraction(10**12, 7))
    ('87', '≈ 1.4286e+11')
    """
    if value.numerator.bit_length() + value.denominator.bit_length() <= 64:  # past 64 bits, over 9 characters
        text = str(value)
        if len(text) <= 9:
            return text
    return "≈ " + approximate(value, 5)


def equals(value: Fraction) -> str:
    """``= 87`` when exact and short, ``≈ 1001.4`` otherwise."""
    text = short(value)
    return text if text.startswith("≈") else "= " + text


def floats(values: Sequence[Fraction]) -> list[float]:
    return [float(v) for v in values]


def data_box(data: Dataset) -> tuple[float, float, float, float]:
    """The samples' extent in two features, with a quarter of it added on each side: (x0, x1, y0, y1)."""
    xs = [float(x[0]) for x in data.X]
    ys = [float(x[1]) for x in data.X]
    pad_x = 0.25 * ((max(xs) - min(xs)) or 2)
    pad_y = 0.25 * ((max(ys) - min(ys)) or 2)
    return min(xs) - pad_x, max(xs) + pad_x, min(ys) - pad_y, max(ys) + pad_y


def scatter(ax: Axes, data: Dataset, report: Mapping[str, Any], *, size: float = 46) -> None:
    """The samples of two features, each class in its colour and marker, labelled with the data's label."""
    labels = report["dataset"]["labels"]
    for label, colour, marker, name in ((1, POSITIVE, "o", labels["positive"]), (-1, NEGATIVE, "s", labels["negative"])):
        pts = [(float(x[0]), float(x[1])) for x, y in zip(data.X, data.y) if y == label]
        ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=size, c=colour, marker=marker, edgecolors="white",
                   linewidths=0.6, zorder=4, label=f"class {'+1' if label == 1 else '-1'} ({name})")
