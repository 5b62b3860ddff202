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
them (`figure_svg`, `figure_png`). It converts to float only to place ink.
matplotlib is imported when a figure is drawn, never when this package is
imported, and never through pyplot: figures are built as
``matplotlib.figure.Figure`` objects in a fixed style (matplotlib's defaults
plus a few settings, whatever the user's matplotlibrc says), rendered by the
SVG or Agg backends directly (never an interactive one), with no date or
version in the file and a fixed SVG hash salt, so the same report gives the
same image on every run.

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
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...data.dataset import Dataset
from ...errors import InvalidArgument
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


def draw_figure(name: str, report: Mapping[str, Any], data: Dataset | None = None) -> Figure:
    """One figure by name (see `FIGURE_NAMES`)."""
    if name not in _DRAW:
        raise InvalidArgument(f"figure={name!r} is not one of {', '.join(FIGURE_NAMES)}")
    if name in ("boundaries", "projection", "certificate") and data is None:
        raise InvalidArgument(f"figure={name!r} needs the data (data=None)")
    return _DRAW[name](report, data)


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


def report_figures(report: Mapping[str, Any], data: Dataset | None = None) -> dict[str, str]:
    """Every figure the report can have (`available_figures`), as ``{name: SVG text}`` in `FIGURE_NAMES` order.

    Raises `PlottingUnavailable` when matplotlib is not installed.
    """
    return {name: figure_svg(draw_figure(name, report, data)) for name in available_figures(report, data)}
