"""The report as a document: Markdown, or one self-contained HTML file with its figures inside.

Both formats are laid out once, as a list of blocks (headings, paragraphs,
tables, figures: `verify_perceptron.report._document`), from the report
dictionary alone (`build_report`, or the JSON of ``verify --format json``
loaded back), by `verify_perceptron.report._sections`, so they cannot disagree
with each other or with the JSON: every number in them is the report's exact
string, or computed exactly from it (the per-update values of the invariant
curves, by `verify_perceptron.report.plots.invariant_series`).

What comes from the user's data (the file name, the feature names, the
labels) is shown with its control characters escaped (``\\x1b``,
`verify_perceptron.report.visible`), and so is anything else in the
document: a terminal showing it, or a browser, never obeys them.

`render_html` embeds each figure as an SVG image in a ``data:`` URI: one
file, no network, no JavaScript. `render_markdown` links figures the caller
has written beside the document. Neither imports matplotlib unless figures
are drawn; `write_atomically` (from `verify_perceptron.report.files`) writes
the result where it belongs.

Examples
--------
>>> from verify_perceptron.pipeline import verify_run
>>> from verify_perceptron.data.examples import example
>>> from verify_perceptron.report.record import build_report
>>> data = example("and")
>>> report = build_report(data, *verify_run(data))
>>> text = render_markdown(report, data=data)
>>> print(text.splitlines()[0])
# Perceptron report: example:and
>>> "| ok | `lower-bound` | 18 | `3` | 1 |" in text
True
>>> page = render_html(report, data=data, figures={})
>>> page.startswith("<!DOCTYPE html>"), "<script" in page
(True, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..data.dataset import Dataset
from ..errors import InvalidArgument
from ._html import to_html
from ._markdown import to_markdown
from ._readable import exact_titles
from ._sections import document, figure_captions
from ._words import approximately
from .files import write_atomically
from .plots.series import FIGURE_NAMES
from .schema import Report
from .visible import displayed, visible

__all__ = ["render_markdown", "render_html", "write_atomically", "figure_captions"]


def _check_figures(names: Mapping[str, str]) -> None:
    unknown = sorted(set(names) - set(FIGURE_NAMES))
    if unknown:
        raise InvalidArgument(f"figures: {', '.join(unknown)} not among {', '.join(FIGURE_NAMES)}")


def render_markdown(
    report: Report | Mapping[str, Any],
    *,
    data: Dataset | None = None,
    figures: Mapping[str, str] | None = None,
    title: str | None = None,
    description: str | None = None,
    command: str | None = None,
    max_updates: int = 60,
    exact: bool = False,
    left_out: Mapping[str, str] | None = None,
) -> str:
    """The report as GitHub-flavoured Markdown.

    Parameters
    ----------
    report : mapping
        The report dictionary (`build_report`, or ``verify --format json`` loaded back).
    data : Dataset, optional
        The report's data: adds the point where the hulls meet for non-separable data.
    figures : mapping, optional
        ``{figure name: image path or URL}`` for figures written beside the document
        (names from `verify_perceptron.report.plots.FIGURE_NAMES`); none by default.
    title, description : str, optional
        A heading instead of ``Perceptron report: SOURCE``, and a paragraph under it.
    command : str, optional
        The command line that made the report, shown as "Reproduce with: ...".
    max_updates : int
        At most this many updates are listed (the first and the last ones); all were checked.
    exact : bool
        Every number whole; by default long ones are shown as short decimals (the JSON keeps them exact).
    left_out : mapping, optional
        ``{figure name: why it is not shown}`` for figures that apply but were not drawn: the document says
        so in one sentence per reason (a figure neither given nor left out is not mentioned).
    """
    if max_updates < 1:
        raise InvalidArgument(f"max_updates={max_updates} must be >= 1")
    links = dict(figures or {})
    _check_figures(links)
    _check_figures(left_out or {})
    doc = document(displayed(report), data, links, title=title, description=description,
                   command=command, max_updates=max_updates, exact=exact, left_out=left_out)
    return visible(approximately(to_markdown(doc, links)), lines=True)


def render_html(
    report: Report | Mapping[str, Any],
    *,
    data: Dataset | None = None,
    figures: Mapping[str, str] | None = None,
    title: str | None = None,
    description: str | None = None,
    command: str | None = None,
    max_updates: int = 60,
    exact: bool = False,
    left_out: Mapping[str, str] | None = None,
) -> str:
    """The report as one self-contained HTML page: figures inside as SVG images, no script, no network.

    Parameters
    ----------
    report : mapping
        The report dictionary (`build_report`, or ``verify --format json`` loaded back).
    data : Dataset, optional
        The report's data: needed for the decision boundaries and the certificate's figure.
    figures : mapping, optional
        ``{figure name: SVG text}`` to embed. By default every figure that applies
        is drawn (`verify_perceptron.report.plots.report_figures`), which needs matplotlib and
        raises `verify_perceptron.report.plots.PlottingUnavailable` without it; ``{}`` for none.
    title, description, command, max_updates, exact, left_out
        As for `render_markdown`.
    """
    if max_updates < 1:
        raise InvalidArgument(f"max_updates={max_updates} must be >= 1")
    if figures is None:
        from .plots import report_figures

        figures = report_figures(report, data)
    _check_figures(figures)
    _check_figures(left_out or {})
    doc = document(displayed(report), data, figures, title=title, description=description,
                   command=command, max_updates=max_updates, exact=exact, left_out=left_out)
    titles = {} if exact else exact_titles(displayed(report))  # each ≈ value's exact one, as its tooltip
    return visible(approximately(to_html(doc, figures, titles)), lines=True)
