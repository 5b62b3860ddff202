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
import numbers
import os
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from ..certify.comparison import BoundComparison, compare_bounds
from ..certify.maxmargin import certified_separator
from ..certify.separability import Separability, separability_of_run
from ..check.results import CheckResult
from ..data.arrays import check_floats
from ..data.csv_files import LABEL_NAMES
from ..data.dataset import Dataset, from_arrays
from ..data.rationals import as_rational, bounded, shown_value
from ..data.readers import load_dataset
from ..data.trace import Trace
from ..errors import InvalidArgument
from ..notes.conventions import Convention, get_convention
from ..deadline import Deadline
from ..pipeline import verify_run
from ..report.record import build_report, render_json
from ..report.text import render_text
from ..run.settings import check_time_limit
from ._bounded import time_bounded, time_left

__all__ = ["Verification", "against_certified", "run_verification", "settle", "verify"]

#: Height of the frame the HTML report is shown in by Jupyter (it scrolls inside).
FRAME_HEIGHT = 640


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
        self.report: dict[str, Any] = build_report(data, trace, check, separability=separability,
                                                   comparison=comparison)

    @property
    def verdict(self) -> str:
        """``verified``, ``violated``, ``not-separable`` or ``inconclusive`` (the report's verdict)."""
        return str(self.report["verdict"])

    @property
    def holds(self) -> bool:
        """True when every checked claim held at every update."""
        return self.check.holds

    @property
    def exit_code(self) -> int:
        """The ``verify`` command's exit code for this report (0, 1 or 3)."""
        return int(self.report["exit_code"])

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
        from ..certify.evidence import certificate_of_run, file_sha256

        digest = file_sha256(self.data.source) if os.path.isfile(self.data.source) else None
        return certificate_of_run(self.data, self.trace, self.check, self.separability, file_digest=digest,
                                  data_choice=data)

    def coq(self) -> str:
        """The same statements as a Coq file's text, as ``verify --coq FILE`` writes it (``coqc`` proves it)."""
        from ..report.coq import render_coq

        return render_coq(self.certificate())

    def _repr_html_(self) -> str:
        """The HTML report for Jupyter, in a frame of its own so its style cannot touch the notebook's.

        The page is drawn once (figures take a few seconds) and kept for the next display.
        """
        if self._frame is None:
            page = html.escape(self.html(), quote=True)
            self._frame = (f'<iframe srcdoc="{page}" sandbox="" title="perceptron report" '
                           f'style="width: 100%; height: {FRAME_HEIGHT}px; border: 1px solid #d0d7de;"></iframe>')
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


def against_certified(data: Dataset, convention: Convention, trace: Trace, check: CheckResult,
                      separability: Separability, *, eta: object, mode: str, max_epochs: int,
                      time_left: Callable[[], float | None], engine: str = "fast") -> tuple[Trace, CheckResult]:
    """A run that stopped at a limit on data certified separable, made again and checked against the certified
    max-margin separator, so that every claim has a w*; otherwise (or without time left) the run as it is.

    The run is deterministic, so at the epoch limit it is the same run; at
    the time limit it may stop elsewhere, and the report says where it did.
    """
    if trace.converged or trace.stop not in ("max-epochs", "time-limit") or check.separator is not None:
        return trace, check
    left = time_left()
    if left is not None and left <= 0:  # a limit already spent (a tiny one, or a slow load) leaves no time to pass on
        return trace, check
    found = certified_separator(data, convention, separability, time_limit=left)
    left = time_left()
    if found is None or (left is not None and left <= 0):
        return trace, check
    return verify_run(data, convention, eta=eta, mode=mode, max_epochs=max_epochs, time_limit=left,
                      separator=found[0], separator_source="certified", separator_note=found[1], engine_name=engine)


def settle(data: Dataset, convention: Convention, trace: Trace, check: CheckResult, *, eta: object, mode: str,
           max_epochs: int, time_limit: float | None, started: float, engine: str = "fast", compare: bool = False,
           ) -> tuple[Trace, CheckResult, Separability, BoundComparison | None]:
    """What `verify` does after the run (for the CLI and `run_verification` alike), within what is left of
    `time_limit` since `started`: separability settled, a run stopped at a limit made again against the
    certified separator (`against_certified`), and with `compare` the five notes' bounds."""
    separability = separability_of_run(data, convention, trace, check, time_limit)
    trace, check = against_certified(
        data, convention, trace, check, separability, eta=eta, mode=mode, max_epochs=max_epochs, engine=engine,
        time_left=lambda: None if time_limit is None else time_limit - (time.monotonic() - started))
    comparison = None
    if compare:
        comparison = compare_bounds(
            data, user=_canonical(convention, check.separator) if check.separator_source == "user" else None,
            final=_canonical(convention, check.separator) if check.separator_source == "final" else None,
            time_limit=time_limit, max_epochs=max_epochs)
    return trace, check, separability, comparison


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
) -> Verification:
    """`data` run and checked under `convention`, with separability settled: the `Verification`.

    The settings are `verify`'s; `data` is a `Dataset` already. `time_limit`
    counts from `started` (`time.monotonic`; default now): the run is given
    what is left. `clock` (`verify_perceptron.api._bounded.time_bounded`'s) is told
    each phase, for the message of a `TimeUp` its backstop raises.
    """
    started = time.monotonic() if started is None else started
    clock = Deadline(None) if clock is None else clock
    conv = convention if isinstance(convention, Convention) else get_convention(convention)
    clock.phase = "running the perceptron"
    trace, check = verify_run(data, conv, eta=eta, mode=mode, max_epochs=max_epochs,
                              time_limit=time_left(time_limit, started), separator=separator, engine_name=engine)
    clock.phase = "deciding separability"
    trace, check, separability, comparison = settle(
        data, conv, trace, check, eta=eta, mode=mode, max_epochs=max_epochs, time_limit=time_limit,
        started=started, engine=engine, compare=compare)
    clock.phase = "building the report"
    result = Verification(data, trace, check, separability, comparison, max_updates=max_updates)
    clock.check()
    return result


def _label_name(X: Any) -> str | None:
    """The column of a DataFrame `X` that the CSV reader would take for the labels by its name (``label``, ``y``,
    ``target``, ``class``, in that order, in any case), or None."""
    names = {column.strip().lower(): column for column in reversed(list(X.columns)) if isinstance(column, str)}
    return next((names[name] for name in LABEL_NAMES if name in names), None)


def _column_key(y: Any) -> bool:
    """Whether `y`, given with a DataFrame, names one of its columns rather than giving labels: a string or an
    integer (``pd.DataFrame(array)`` names its columns 0, 1, ...); one label alone is never the labels."""
    return isinstance(y, str) or isinstance(y, numbers.Integral) and not isinstance(y, bool)


def _dataset(X: Any, y: Any, *, floats: str, positive: object, feature_names: Sequence[str],
             label_column: str | None, source: str | None, index_column: str) -> Dataset:
    """The data `verify` was given, as a `Dataset`: a path read by its reader, values in memory converted."""
    if isinstance(X, Dataset):
        if y is not None:
            raise InvalidArgument(f"y={shown_value(y)} with a Dataset: its labels are part of it")
        if index_column != "auto":
            raise InvalidArgument(f"index_column={index_column!r} with a Dataset: it was read already")
        return X
    if isinstance(X, (str, os.PathLike)):
        if y is not None:
            raise InvalidArgument(f"y={shown_value(y)} with the file {os.fspath(X)!r}: name its label column with "
                                  "label_column")
        if floats != "binary":
            raise InvalidArgument(f"floats={floats!r} applies to values in memory; a file's numbers are read "
                                  "as written (CSV, LIBSVM) or as binary (.npy)")
        return load_dataset(os.fspath(X), label_column=label_column, positive=positive, index_column=index_column)
    frame = hasattr(X, "columns") and hasattr(X, "drop")
    if frame and y is None:  # verify(df): its label column by name (label_column=, else as the CSV reader finds it)
        y = label_column if label_column is not None else _label_name(X)
        if y is None:
            names = [c if isinstance(c, str) else shown_value(c) for c in list(X.columns)[:20]]
            raise InvalidArgument(f"y is needed: X has no column named {', '.join(LABEL_NAMES)} (columns: "
                                  f"{', '.join(names)}{', ...' if len(X.columns) > 20 else ''}); give the labels "
                                  "or the name of X's label column")
    elif label_column is not None:
        raise InvalidArgument(f"label_column={shown_value(label_column)} applies to a file or a DataFrame without y")
    if frame and _column_key(y):  # verify(df, "target"), verify(pd.DataFrame(array), 4)
        if y not in list(X.columns):
            names = [c if isinstance(c, str) else shown_value(c) for c in list(X.columns)[:20]]
            raise InvalidArgument(f"y={shown_value(y)} is not a column of X (columns: {', '.join(names)}"
                                  f"{', ...' if len(X.columns) > 20 else ''})")
        X, y = X.drop(columns=[y]), X[y]
    if y is None:
        raise InvalidArgument("y is needed with X in memory: the labels, or the name of X's label column")
    return from_arrays(X, y, positive=positive, source=source or "<memory>", feature_names=feature_names,
                       floats=floats, index_column=index_column)


def _separator(separator: Sequence[object] | None) -> list[Fraction] | None:
    """`separator` read as the command reads ``--separator``: each value exactly, within a literal's limits."""
    if separator is None:
        return None
    try:
        return [bounded(as_rational(v, name=f"separator[{j}]"), name=f"separator[{j}]")
                for j, v in enumerate(separator)]
    except (TypeError, ValueError) as error:
        raise InvalidArgument(str(error) if isinstance(error, ValueError) else
                              f"separator={shown_value(separator)} is not a sequence of numbers") from None


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
) -> Verification:
    """Run a note's perceptron exactly on the data and check every invariant: ``verify-perceptron verify``.

    Parameters
    ----------
    X : DataFrame, array, list of rows, Dataset, or path
        The samples (a DataFrame's columns name the features), a `Dataset`, or
        a data file (CSV, LIBSVM, NumPy) as the command reads it.
    y : array-like, str or int, optional
        The labels (any two values; `positive` names the positive one unless
        they are -1/+1 or 0/1), or the name (or integer key) of X's label
        column; without it, a DataFrame's is `label_column`, else the first column named
        ``label``, ``y``, ``target`` or ``class`` (any case), as the command
        finds a CSV file's. Not with a `Dataset` or a path.
    convention : str, optional
        One of the five notes' conventions or a note number (default: classic,
        or an example's own note).
    eta, mode, max_epochs, separator, engine, compare
        As the command's ``--eta``, ``--mode``, ``--max-epochs``,
        ``--separator``, ``--engine`` and ``--compare``.
    time_limit : float, optional
        Seconds for the whole call, loading included (``--time-limit``): the
        run gets what loading left and stops cleanly at the limit; a phase
        still running a second past it raises `verify_perceptron.deadline.TimeUp`.
    floats : {"binary", "decimal"}
        How floats in memory are read: as the binary numbers they are (the
        default, said in the report), or as their shortest decimals (0.1 is 1/10).
    label_column : str, optional
        A file's label column (a name or a 1-based number), or a DataFrame's.
    index_column : {"auto", "drop", "keep"}
        ``--index-column``: whether a CSV file's or a DataFrame's first column
        is its row index, left out and named in the report
        (`verify_perceptron.data.row_index`). A DataFrame's own index is never read.
    source : str, optional
        The data's name in the report (default ``<memory>``, or the path).
    max_updates : int
        At most this many updates are listed in the text and HTML reports (all are checked).

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
    time_limit, separator = check_time_limit(time_limit), _separator(separator)
    with time_bounded(time_limit) as clock:
        clock.phase = "loading the data"
        data = _dataset(X, y, floats=floats, positive=positive, feature_names=feature_names,
                        label_column=label_column, source=source, index_column=index_column)
        return run_verification(data, convention if convention is not None else data.default_convention or "classic",
                                eta=eta, mode=mode, max_epochs=max_epochs, time_limit=time_limit, separator=separator,
                                engine=engine, compare=compare, max_updates=max_updates, clock=clock, started=started)
