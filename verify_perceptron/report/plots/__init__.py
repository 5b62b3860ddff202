"""Figures of a report: the invariant curves, the decision boundaries, the bounds, the certificate.

Two layers. The exact one (`verify_perceptron.report.plots.series`) reads a
report dictionary (`verify_perceptron.report.record.build_report`, or the JSON
of ``verify --format json`` loaded back) and, where the samples themselves are
needed, the `~verify_perceptron.data.dataset.Dataset`, and computes in
`Fraction` everything a figure shows: `invariant_series`, `epoch_ends`,
`hull_meeting`, and `available_figures`, the figures a report can have.

The drawing layer has one module per figure (`draw_invariants`,
`draw_boundaries`, `draw_projection` for more than two features,
`draw_certificate`, `draw_bounds`); this module draws them
by name (`draw_figure`, and `report_figures` for all that apply) and renders
them (`figure_svg`, `figure_png`). It converts to float only to place ink, and
only after scaling each axis by a power of ten read off the exact values
(`verify_perceptron.report.plots._scale`), so every figure is drawn at any
magnitude of the data and the report: data times 10^k give the same drawing,
its axis labels saying the unit.
matplotlib is imported when a figure is drawn, never when this package is
imported, and never through pyplot: figures are built as
``matplotlib.figure.Figure`` objects in a fixed style (matplotlib's defaults
plus a few settings, whatever the user's matplotlibrc says), rendered by the
SVG or Agg backends directly (never an interactive one), with no date or
version in the file and a fixed SVG hash salt, so the same report gives the
same image on every run.

What the figures show of the user's data (labels, feature names, the file
name) is shown as the text reports show it: control characters escaped
(`verify_perceptron.report.visible`), and a ``$`` as a dollar sign, never as
the start of matplotlib's math. What matplotlib warns of while drawing (a
glyph missing from the font, say) never reaches stderr: `report_figures`
hands it back in one clean line each, for the caller to show or not.

Examples
--------
>>> from verify_perceptron.pipeline import verify_run
>>> from verify_perceptron.data.examples import example
>>> from verify_perceptron.report.record import build_report
>>> data = example("and")
>>> available_figures(build_report(data, *verify_run(data)), data)
('boundaries', 'invariants', 'bounds')
>>> draw_figure("boundaries", build_report(data, *verify_run(data)))
Traceback (most recent call last):
...
verify_perceptron.errors.InvalidArgument: figure='boundaries' needs the data (data=None)
"""

from __future__ import annotations

import io
import logging
import warnings as _warnings
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ...data.dataset import Dataset
from ...errors import InvalidArgument
from ..visible import displayed, visible
from ..schema import Report
from ._style import PlottingUnavailable, fixed_style
from .boundaries import draw_boundaries
from .projection import draw_projection
from .bounds import draw_bounds
from .certificate import draw_certificate
from .invariants import draw_invariants
from .series import (
    FIGURE_NAMES,
    EpochEnd,
    HullMeeting,
    InvariantSeries,
    available_figures,
    convex_hull,
    epoch_ends,
    hull_meeting,
    invariant_series,
    report_certificate,
)

if TYPE_CHECKING:  # only for annotations: importing this package never imports matplotlib
    from matplotlib.figure import Figure

__all__ = [
    "FIGURE_NAMES",
    "EpochEnd",
    "HullMeeting",
    "InvariantSeries",
    "PlottingUnavailable",
    "available_figures",
    "convex_hull",
    "draw_boundaries",
    "draw_projection",
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


_DRAW = {
    "invariants": lambda report, data: draw_invariants(report, data),
    "bounds": lambda report, data: draw_bounds(report),
    "boundaries": lambda report, data: draw_boundaries(report, data),
    "projection": lambda report, data: draw_projection(report, data),
    "certificate": lambda report, data: draw_certificate(report, data),
}


def _as_ink(text: str) -> str:
    r"""A string of the user's as matplotlib must show it: control characters escaped, ``$`` a dollar sign.

    Examples
    --------
    >>> _as_ink("$x$ \x1b")
    '\\$x\\$ \\x1b'
    """
    return visible(text).replace("$", r"\$")


def draw_figure(name: str, report: Report | Mapping[str, Any], data: Dataset | None = None) -> Figure:
    """One figure by name (see `FIGURE_NAMES`)."""
    if name not in _DRAW:
        raise InvalidArgument(f"figure={name!r} is not one of {', '.join(FIGURE_NAMES)}")
    if name in ("boundaries", "projection", "certificate") and data is None:
        raise InvalidArgument(f"figure={name!r} needs the data (data=None)")
    return _DRAW[name](displayed(report, _as_ink), data)


class _Caught(logging.Handler):
    def __init__(self, seen: list[str]) -> None:
        super().__init__(logging.WARNING)
        self.seen = seen

    def emit(self, record: logging.LogRecord) -> None:
        self.seen.append(record.getMessage())


@contextmanager
def _caught(seen: list[str]) -> Iterator[None]:
    """matplotlib's warnings (the `warnings` module's and its logger's) collected in `seen`, never printed."""
    logger = logging.getLogger("matplotlib")
    handler, propagate = _Caught(seen), logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        with _warnings.catch_warnings(record=True) as caught:
            _warnings.simplefilter("always")
            yield
        seen.extend(str(w.message) for w in caught)
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate


def figure_svg(fig: Figure) -> str:
    """The figure as SVG text, the same every time: no date, no version, fixed ids.

    Text stays text (selectable, small files), in DejaVu Sans with the usual
    sans-serif fonts as fallbacks where a viewer lacks it.
    """
    with fixed_style():
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": "verify-perceptron (matplotlib)"})
    return buffer.getvalue()


def figure_png(fig: Figure, *, dpi: int = 100) -> bytes:
    """The figure as PNG bytes, rendered by the Agg backend, with no date or version in the file."""
    with fixed_style():
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=dpi, metadata={"Software": None})
    return buffer.getvalue()


def report_figures(report: Report | Mapping[str, Any], data: Dataset | None = None, *,
                   warnings: list[str] | None = None) -> dict[str, str]:
    """Every figure the report can have (`available_figures`), as ``{name: SVG text}`` in `FIGURE_NAMES` order.

    What matplotlib warns of while drawing them is added to `warnings`, each
    message once and on one line with its control characters escaped (and
    dropped without it). Raises `PlottingUnavailable` when matplotlib is not
    installed.
    """
    seen: list[str] = []
    with _caught(seen):
        drawn = {name: figure_svg(draw_figure(name, report, data)) for name in available_figures(report, data)}
    if warnings is not None:
        for message in dict.fromkeys(visible(" ".join(m.split())) for m in seen):
            if message not in warnings:
                warnings.append(message)
    return drawn
