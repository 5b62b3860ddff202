"""`verify`: the ``verify`` command's work from Python, and `Verification`, the report it returns.

`verify` takes what a notebook holds (a DataFrame and a label column, arrays,
lists, a `Dataset`) or a file path, runs a note's perceptron exactly with the
checker attached (`verify_perceptron.pipeline.verify_run`), settles
separability as the command does, and builds the same report record
(`verify_perceptron.report.record.build_report`). The `Verification` prints
as the text report, shows as the HTML report in Jupyter (`_repr_html_`), and
keeps the run, the check and the record for code.
"""

from __future__ import annotations

import dataclasses
import html
import os
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from ..certify.comparison import BoundComparison, compare_bounds
from ..certify.maxmargin import certified_separator
from ..certify.beside import decision_beside
from ..certify.separability import Decision, Separability, separability_of_run
from ..check.results import CheckResult
from ..data.arrays import check_floats
from ..data.dataset import Dataset
from ..data.trace import Trace
from ..errors import InvalidArgument
from ..heap import between
from ..notes.conventions import Convention, get_convention
from ..deadline import Deadline
from ..pipeline import Again, Pending, verify_run, verify_run_deferred
from ..progress import Watch, watching
from ..report.record import EXIT_CODES, build_report, render_json, verdict_of
from ..report.schema import Report
from ..report.text import render_text
from ..run.settings import check_time_limit
from ._bounded import time_bounded, time_left
from ._data import dataset_of, separator_of

__all__ = ["Verification", "against_certified", "run_verification", "settle", "verify"]

#: Sets the frame's height to its page's once the page (figures included) has loaded. It runs in the notebook,
#: not in the frame: the frame's sandbox lets no script run inside it, only lets the notebook read its height.
_FIT_HEIGHT = "this.style.height = (this.contentDocument.documentElement.scrollHeight + 2) + 'px'"


def frame_height(page: str) -> int:
    """The height in pixels of a frame that shows the HTML report `page` whole: estimated from what it holds
    (table rows, headings, paragraphs, figures), for where the notebook does not run the frame's ``onload``
    (an untrusted notebook), which sets it exactly.

    Examples
    --------
    >>> frame_height("<h1>r</h1><p>a</p>") < frame_height("<h1>r</h1><p>a</p><table><tr><td>1</td></tr></table>")
    True
    """
    lines = page.count("<tr") * 29 + (page.count("<p") + page.count("<li")) * 26 + page.count("<pre") * 40
    return 140 + lines + (page.count("<h2") + page.count("<h3")) * 56 + page.count("<figure") * 1000


class Verification:
    """One checked run and its report: prints as text, shows as HTML in Jupyter.

    Attributes
    ----------
    data : Dataset
        The data, exactly as run.
    trace : Trace
        The run (`verify_perceptron.data.trace.Trace`).
    check : CheckResult
        Every invariant's result (`verify_perceptron.check.results.CheckResult`).
    separability : Separability
        Separable or not, with its certificate, as the ``verify`` command settles it.
    comparison : BoundComparison or None
        The five notes' bounds, when asked for (``compare=True``).
    report : dict
        The report record, the JSON report's content (`verify_perceptron.report.record.build_report`).

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> result = run_verification(example("and"), "classic")
    >>> result
    <Verification of example:and (classic): verified, 18 updates>
    >>> result.verdict, result.holds, result.report["final_weights"]
    ('verified', True, ['-4', '3', '2'])
    >>> print(result.text.splitlines()[0])
    data        example:and: 4 samples, 2 features (labels 0 -> -1, 1 -> +1)
    """

    def __init__(self, data: Dataset, trace: Trace, check: CheckResult, separability: Separability,
                 comparison: BoundComparison | None = None, *, max_updates: int = 60) -> None:
        if isinstance(max_updates, bool) or not isinstance(max_updates, int) or max_updates < 1:
            raise InvalidArgument(f"max_updates={max_updates!r} must be an integer >= 1")
        self.data, self.trace, self.check = data, trace, check
        self.separability, self.comparison = separability, comparison
        self.max_updates = max_updates
        self._frame: str | None = None
        self._report: Report | None = None
        self._verdict: str | None = None

    @property
    def report(self) -> Report:
        """The report record (built the first time it is read: a fit that nobody reads the report of does not
        pay for its enclosures and strings; `verdict`, `exit_code` and every rendering read it)."""
        if self._report is None:
            self._report = build_report(self.data, self.trace, self.check, separability=self.separability,
                                        comparison=self.comparison)
        return self._report

    @property
    def verdict(self) -> str:
        """``verified``, ``violated``, ``not-separable`` or ``inconclusive`` (the report's verdict; read
        without building the report when nothing has built it yet)."""
        if self._report is not None:
            return str(self._report["verdict"])
        if self._verdict is None:
            self._verdict = verdict_of(self.data, self.trace, self.check, separability=self.separability)
        return self._verdict

    @property
    def holds(self) -> bool:
        """True when every checked claim held at every update."""
        return self.check.holds

    @property
    def exit_code(self) -> int:
        """The ``verify`` command's exit code for this report (0, 1 or 3)."""
        return EXIT_CODES[self.verdict]

    @property
    def text(self) -> str:
        """The text report, as ``verify-perceptron verify`` prints it."""
        return render_text(self.report, max_updates=self.max_updates)

    @property
    def json(self) -> str:
        """The JSON report, as ``verify --format json`` writes it."""
        return render_json(self.report)

    def html(self, *, figures: bool = True) -> str:
        """The report as one self-contained HTML page, as ``verify --format html`` writes it.

        With `figures` (the default) the figures are drawn when matplotlib is
        installed, and left out when it is not.
        """
        from ..report import documents  # plotting loads only here
        from ..report.plots import PlottingUnavailable

        try:
            return documents.render_html(self.report, data=self.data, max_updates=self.max_updates,
                                         figures=None if figures else {})
        except (PlottingUnavailable, ImportError):
            return documents.render_html(self.report, data=self.data, max_updates=self.max_updates, figures={})

    def markdown(self) -> str:
        """The report as Markdown (without figures), as ``verify --format markdown`` writes it."""
        from ..report import documents

        return documents.render_markdown(self.report, data=self.data, max_updates=self.max_updates)

    # --- certificates (issue 30; docs/certificates.md) ---

    def certificate(self, *, data: str = "embed") -> dict[str, Any]:
        """The evidence of this verdict, as ``verify --certificate FILE`` writes it (the same dict, as JSON there).

        `data` is ``"embed"`` (the data's integers in the certificate) or
        ``"digest"`` (only their digests). When the data were read from a
        file, its SHA-256 is taken now, from the file as it is now.
        ``python -m verify_perceptron.audit FILE`` checks it.

        Examples
        --------
        >>> cert = verify([[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 0, 1]).certificate()
        >>> cert["separators"][0]["gamma"], cert["run"]["final_weights"]
        ('1', ['-4', '3', '2'])
        """
        from ..certify.evidence import certificate_of_run, check_auditable, file_sha256

        digest = file_sha256(self.data.source) if os.path.isfile(self.data.source) else None
        if data == "digest" and digest is not None:
            check_auditable(self.data, self.data.source)
        return certificate_of_run(self.data, self.trace, self.check, self.separability, file_digest=digest,
                                  data_choice=data)

    def coq(self) -> str:
        """The same statements as a Coq file's text, as ``verify --coq FILE`` writes it (``coqc`` proves it)."""
        from ..report.coq import render_coq

        return render_coq(self.certificate())

    def _repr_html_(self) -> str:
        """The HTML report for Jupyter, in a frame of its own so its style cannot touch the notebook's, sized to
        its content (`frame_height`, then exactly once it has loaded, where the notebook runs ``onload``).

        The page is drawn once (figures take a few seconds) and kept for the next display.
        """
        if self._frame is None:
            page = self.html()
            self._frame = (f'<iframe srcdoc="{html.escape(page, quote=True)}" sandbox="allow-same-origin" '
                           f'title="perceptron report" onload="{_FIT_HEIGHT}" style="width: 100%; '
                           f'height: {frame_height(page)}px; border: 1px solid #d0d7de;"></iframe>')
        return self._frame

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """IPython's plain display: the text report."""
        printer.text(repr(self) if cycle else self.text)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return (f"<Verification of {self.data.source} ({self.report['convention']}): "
                f"{self.verdict}, {self.trace.n_updates} updates>")

    def __getstate__(self) -> dict[str, Any]:
        # A run's updates may be built on demand by a closure, which pickle cannot carry: carry them built.
        state = dict(self.__dict__)
        state["trace"] = dataclasses.replace(self.trace, updates=tuple(self.trace.updates))
        return state


def _canonical(convention: Convention, w: Sequence[Fraction]) -> tuple[Fraction, ...]:
    b, v = convention.to_canonical(w)
    return (b, *v)


def against_certified(data: Dataset, convention: Convention, trace: Trace, check: CheckResult | Pending,
                      separability: Separability, *, eta: object, mode: str, max_epochs: int,
                      time_left: Callable[[], float | None], engine: str = "fast",
                      watch: Watch | None = None, again: Again | None = None) -> tuple[Trace, CheckResult]:
    """A run that stopped at a limit on data certified separable, made again and checked against the certified
    max-margin separator, so that every claim has a w*; otherwise (or without time left) the run as it is.

    The run is deterministic, so at the epoch limit it is the same run; at
    the time limit it may stop elsewhere, and the report says where it did.
    Given `again` (`verify_perceptron.pipeline.verify_run`'s), the first run's
    kept updates are replayed against the separator instead: the same run and
    the same checks, without scanning the data a second time. A `Pending`
    check (`verify_perceptron.pipeline.verify_run_deferred`'s) is made here,
    once: against the separator when there is one, else without w*.
    """
    def as_it_is() -> tuple[Trace, CheckResult]:
        return (trace, check) if isinstance(check, CheckResult) else (trace, check.check())

    if trace.converged or trace.stop not in ("max-epochs", "time-limit") or (
            isinstance(check, CheckResult) and check.separator is not None):
        return as_it_is()
    left = time_left()
    if left is not None and left <= 0:  # a limit already spent (a tiny one, or a slow load) leaves no time to pass on
        return as_it_is()
    if watch is not None:
        watch.phase("solving for the max-margin separator")
    found = certified_separator(data, convention, separability, time_limit=left)
    left = time_left()
    if found is None or (left is not None and left <= 0):
        return as_it_is()
    if watch is not None:
        watch.phase("checking the run against the certified separator" if again is not None or
                    isinstance(check, Pending) else "running again against the certified separator")
    if isinstance(check, Pending):
        return trace, check.check(found[0], "certified", found[1])
    if again is not None:
        return again(found[0], "certified", found[1])
    return verify_run(data, convention, eta=eta, mode=mode, max_epochs=max_epochs, time_limit=left,
                      separator=found[0], separator_source="certified", separator_note=found[1], engine_name=engine,
                      progress=None if watch is None else watch.epoch)


def settle(data: Dataset, convention: Convention, trace: Trace, check: CheckResult | Pending, *, eta: object,
           mode: str, max_epochs: int, time_limit: float | None, started: float, engine: str = "fast",
           compare: bool = False, watch: Watch | None = None, again: Sequence[Again] = (),
           beside: Decision | None = None) -> tuple[Trace, CheckResult, Separability, BoundComparison | None]:
    """What `verify` does after the run (for the CLI and `run_verification` alike), within what is left of
    `time_limit` since `started`: separability settled (joining `beside`, the decision started beside the run,
    when there is one), a run stopped at a limit made again against the certified separator
    (`against_certified`; replayed instead, given `verify_run`'s filled `again`; a `Pending` check, given
    `verify_run_deferred`'s, made there once, with the separator if there is one), and with `compare` the five
    notes' bounds. `watch` is told each phase as it begins."""
    if watch is not None:
        watch.phase("deciding separability")
    left = None if time_limit is None else max(time_limit - (time.monotonic() - started), 1.0)
    separability = separability_of_run(data, convention, trace, check if isinstance(check, CheckResult) else None,
                                       left, beside)
    trace, checked = against_certified(
        data, convention, trace, check, separability, eta=eta, mode=mode, max_epochs=max_epochs, engine=engine,
        time_left=lambda: None if time_limit is None else time_limit - (time.monotonic() - started), watch=watch,
        again=again[0] if again else None)
    comparison = None
    if compare:
        if watch is not None:
            watch.phase("comparing the five notes' bounds")
        separator = checked.separator
        given = None if separator is None or checked.separator_source not in ("user", "final") else \
            _canonical(convention, separator)
        comparison = compare_bounds(
            data, user=given if checked.separator_source == "user" else None,
            final=given if checked.separator_source == "final" else None,
            time_limit=time_limit, max_epochs=max_epochs)
    return trace, checked, separability, comparison


def run_verification(
    data: Dataset,
    convention: Convention | str,
    *,
    eta: object = 1,
    mode: str = "online",
    max_epochs: int = 1000,
    time_limit: float | None = None,
    separator: Sequence[object] | None = None,
    engine: str = "fast",
    compare: bool = False,
    max_updates: int = 60,
    clock: Deadline | None = None,
    started: float | None = None,
    watch: Watch | None = None,
) -> Verification:
    """`data` run and checked under `convention`, with separability settled: the `Verification`.

    The settings are `verify`'s; `data` is a `Dataset` already. `time_limit`
    counts from `started` (`time.monotonic`; default now): the run is given
    what is left. `clock` (`verify_perceptron.api._bounded.time_bounded`'s) is told
    each phase, for the message of a `TimeUp` its backstop raises; `watch`
    (`verify_perceptron.progress`), for a progress display.
    """
    started = time.monotonic() if started is None else started
    clock = Deadline(None) if clock is None else clock
    conv = convention if isinstance(convention, Convention) else get_convention(convention)
    clock.phase = "running the perceptron"
    if watch is not None:
        watch.phase(clock.phase)
    again: list[Again] = []  # the run's kept updates, to replay against a certified separator
    with decision_beside(data, time_left(time_limit, started), enabled=engine == "fast",
                         tick=None if watch is None else watch.tick) as beside:
        trace, first = verify_run_deferred(  # a run stopped at a limit is checked once, in `settle`
            data, conv, eta=eta, mode=mode, max_epochs=max_epochs, time_limit=time_left(time_limit, started),
            separator=separator, engine_name=engine, progress=None if watch is None else watch.epoch, again=again)
        clock.phase = "deciding separability"
        between(data.n_samples)  # the check's freed arrays given back before the decision (as the CLI does)
        trace, check, separability, comparison = settle(
            data, conv, trace, first, eta=eta, mode=mode, max_epochs=max_epochs, time_limit=time_limit,
            started=started, engine=engine, compare=compare, watch=watch, again=again, beside=beside)
    clock.phase = "building the report"
    if watch is not None:
        watch.phase("writing the report")
    result = Verification(data, trace, check, separability, comparison, max_updates=max_updates)
    clock.check()
    return result


def verify(
    X: Any,
    y: Any = None,
    *,
    convention: str | None = None,
    eta: object = "1",
    mode: str = "online",
    max_epochs: int = 1000,
    time_limit: float | None = None,
    separator: Sequence[object] | None = None,
    engine: str = "fast",
    compare: bool = False,
    floats: str = "binary",
    positive: object = None,
    feature_names: Sequence[str] = (),
    label_column: str | None = None,
    index_column: str = "auto",
    source: str | None = None,
    max_updates: int = 60,
    progress: object = None,
) -> Verification:
    """Run a note's perceptron exactly on the data and check every invariant: ``verify-perceptron verify``.

    Parameters
    ----------
    X : DataFrame, array, list of rows, Dataset, or path
        The samples (a DataFrame's columns name the features), a `Dataset`, or a data file.
    y : array-like, str or int, optional
        The labels (any two; `positive` names the positive one unless -1/+1 or 0/1), or the name (or
        integer key) of X's label column; without it, a DataFrame's is `label_column`, else the first
        named ``label``, ``y``, ``target`` or ``class`` (any case), as the command finds a CSV file's.
    convention : str, optional
        One of the five notes' conventions or a note number (default: classic, or an example's own).
    eta, mode, max_epochs, separator, engine, compare
        As the command's ``--eta``, ``--mode``, ``--max-epochs``, ``--separator``, ``--engine``, ``--compare``.
    time_limit : float, optional
        Seconds for the whole call, loading included (``--time-limit``): the run stops cleanly at the
        limit; a phase still running a second past it raises `verify_perceptron.deadline.TimeUp`.
    floats : {"binary", "decimal"}
        Floats in memory as the binary numbers they are (default), or as their shortest decimals.
    label_column : str, optional
        A file's label column (a name or a 1-based number), or a DataFrame's.
    index_column : {"auto", "drop", "keep"}
        ``--index-column``: whether a CSV file's or a DataFrame's first column is its row index, left
        out and named in the report (`verify_perceptron.data.row_index`); a DataFrame's own is never read.
    source : str, optional
        The data's name in the report (default ``<memory>``, or the path).
    max_updates : int
        At most this many updates are listed in the reports (all are checked).
    progress : None, bool or callable
        None: a bar in a notebook, else nothing; True: also a line on a terminal's stderr; False:
        nothing; a callable gets a `verify_perceptron.progress.Progress` at each phase and epoch's end.

    Returns
    -------
    Verification
        Prints as the text report, shows as the HTML report in Jupyter.

    Examples
    --------
    >>> result = verify([[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 0, 1])
    >>> result.verdict, result.report["final_weights"]
    ('verified', ['-4', '3', '2'])
    >>> verify([[0.1], [0.3]], [0, 1], floats="decimal").data.X
    ((Fraction(1, 10),), (Fraction(3, 10),))
    """
    started = time.monotonic()
    check_floats(floats)
    time_limit, separator = check_time_limit(time_limit), separator_of(separator)
    with watching(progress, max_epochs=max_epochs if isinstance(max_epochs, int) else None, time_limit=time_limit,
                  started=started) as watch, time_bounded(time_limit) as clock:
        clock.phase = "loading the data"
        if watch is not None:
            watch.phase(clock.phase)
        data = dataset_of(X, y, floats=floats, positive=positive, feature_names=feature_names,
                        label_column=label_column, source=source, index_column=index_column)
        return run_verification(data, convention if convention is not None else data.default_convention or "classic",
                                eta=eta, mode=mode, max_epochs=max_epochs, time_limit=time_limit, separator=separator,
                                engine=engine, compare=compare, max_updates=max_updates, clock=clock, started=started,
                                watch=watch)
