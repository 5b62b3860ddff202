"""The command line: ``verify-perceptron verify DATA`` and friends.

This is the only module that prints or exits. Exit codes:

=====  =====================================================================
0      verified (or certified not separable): every checked claim held
1      a violation: some claim failed at some update
2      bad input or usage: the message names the file, line and value
3      inconclusive: no convergence within the limits, and no proof of cycling
4      internal error (a bug in this tool: please report it)
=====  =====================================================================
"""

from __future__ import annotations

import argparse
import io
import os
import re
import signal
import sys
import time
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, TextIO

from .pipeline import verify_run
from .certify.comparison import compare_bounds
from .certify.orders import order_statistics
from .notes.conventions import Convention, get_convention
from .data.dataset import Dataset
from .data.readers import load_dataset
from .errors import DataError, InvalidArgument
from .data.files import not_regular
from .data.examples import example
from .data.rationals import as_rational, parse_rational
from .check.recorder import TraceRecorder
from .check.results import CheckResult
from .data.trace import Trace
from .report.record import build_report, comparison_report, render_json
from .report.text import comparison_lines, orders_lines, render_text
from .api.verification import settle
from .arguments import EXIT_USAGE, build_parser
from .deadline import Deadline, TimeUp, deadline, process_age

__all__ = ["main", "build_parser"]

EXIT_INCONCLUSIVE = 3
EXIT_INTERNAL = 4

#: Control characters a terminal would act on (ESC sequences, carriage returns, C1 codes), all but \n and \t.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _write(stream: TextIO, text: str, *, json: bool = False) -> None:
    r"""Write `text` for a person: every control character but newline and tab shown escaped, never obeyed.

    Labels, feature names and file names come from the data; printed raw, an
    ESC sequence among them would drive the terminal. A file name's bytes that
    are not UTF-8 are shown escaped too (``\udcff``). In `json` text the escape
    is JSON's own (``\u0085``), so the document stays valid.

    Examples
    --------
    >>> _write(sys.stdout, "label \x1b[2Jred\r\n")
    label \x1b[2Jred\r
    >>> _write(sys.stdout, '"\x85"\n', json=True)
    "\u0085"
    """
    escape = (lambda m: f"\\u{ord(m.group()):04x}") if json else (lambda m: repr(m.group())[1:-1])
    shown = _CONTROL.sub(escape, text)
    # A file name that is not valid UTF-8 reaches Python as lone surrogates, which no stream can encode.
    stream.write(shown.encode("utf-8", "backslashreplace").decode("utf-8"))


def _rate(text: str) -> Fraction:
    try:
        return as_rational(text, name="eta")
    except ValueError as error:
        raise InvalidArgument(str(error)) from None


def _parse_separator(text: str) -> list[str]:
    cleaned = text.strip().strip("[]()")
    parts = [p for p in cleaned.replace(",", " ").split() if p]
    if not parts:
        raise InvalidArgument(f"--separator {text!r} holds no numbers")
    for part in parts:
        try:
            parse_rational(part)
        except ValueError as error:
            raise InvalidArgument(f"--separator: {error}") from None
    return parts


class _Progress:
    """A one-line progress display on a terminal, after the first second; silent otherwise."""

    def __init__(self, stream: TextIO, enabled: bool) -> None:
        self.stream, self.enabled = stream, enabled
        self.start = time.monotonic()
        self.shown = False

    def __call__(self, epoch: int, n_updates: int, status: str = "") -> None:
        elapsed = time.monotonic() - self.start
        if self.enabled and elapsed > 1:
            line = f"epoch {epoch}, {n_updates} updates" + (f", {status}" if status else "") + f", {elapsed:.0f} s"
            self.stream.write("\r" + line[:100] + "\033[K")
            self.stream.flush()
            self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()


def _load(args: argparse.Namespace) -> Dataset:
    if args.example and args.data:
        raise InvalidArgument(f"give DATA ({args.data}) or --example {args.example}, not both")
    if args.example:
        for option, value in (("--label-column", args.label_column), ("--positive", args.positive)):
            if value is not None:
                raise InvalidArgument(f"{option} {value} applies to a data file, not to --example {args.example}")
        return example(args.example)
    if not args.data:
        raise InvalidArgument("DATA or --example NAME is required")
    if os.path.isdir(args.data):
        raise DataError(f"{args.data}: is a directory, not a data file")
    return load_dataset(args.data, format=args.input_format, label_column=args.label_column, positive=args.positive,
                        delimiter=args.delimiter, zero_based=args.zero_based,
                        max_denominator_bits=args.max_denominator_bits, max_cells=args.max_cells)


def _terminal_width(args: argparse.Namespace) -> int | None:
    """The columns the text report may use: the terminal's (or ``COLUMNS``) when it goes to one, else None."""
    if args.output is not None:
        return None
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and 0 < int(columns) < 10_000:
        return max(40, int(columns))
    try:
        return max(40, os.get_terminal_size(sys.stdout.fileno()).columns) if sys.stdout.isatty() else None
    except (OSError, ValueError, AttributeError):  # a stdout without a file descriptor (captured, replaced)
        return None


def _verify(args: argparse.Namespace, clock: Deadline) -> int:
    started = time.monotonic()
    clock.phase = "loading the data"
    data = _load(args)
    # (an explicit --convention '' is a name like any other: get_convention refuses it)
    convention = get_convention(args.convention if args.convention is not None
                                else data.default_convention or "classic")
    separator = None if args.separator is None else _parse_separator(args.separator)
    if separator is not None and len(separator) != data.n_features + 1:
        raise InvalidArgument(
            f"--separator has {len(separator)} values; {convention.name} needs {data.n_features + 1}: "
            + ", ".join(convention.weight_names(data.n_features))
        )
    progress = _Progress(sys.stderr, args.format == "text" and sys.stderr.isatty())
    sink = None
    if args.trace is not None:
        if args.data and os.path.exists(args.trace) and os.path.samefile(args.trace, args.data):
            raise InvalidArgument(f"--trace {args.trace} is the input file; it would be overwritten")
        kind = not_regular(args.trace)
        if kind is not None:  # opening a FIFO would wait for a reader forever
            raise InvalidArgument(f"--trace {args.trace}: is {kind}, not a regular file")
        try:
            sink = open(args.trace, "w", encoding="utf-8")
        except OSError as error:
            raise InvalidArgument(f"--trace {args.trace}: cannot be written ({error.strerror})") from None
    try:
        recorder = None
        if sink is not None:
            recorder = TraceRecorder(sink, data, convention, convention.check_rate(_rate(args.eta)))
        clock.phase = "running the perceptron"
        trace, check = verify_run(
            data, convention, eta=args.eta, mode=args.mode, max_epochs=args.max_epochs, time_limit=args.time_limit,
            separator=separator, engine_name=args.engine, recorder=recorder,
            progress=progress if progress.enabled else None,  # without a display the pass runs on through epochs
        )
    finally:
        progress.close()
        if sink is not None:
            sink.close()
    clock.phase = "deciding separability"
    trace, check, separability, comparison = settle(
        data, convention, trace, check, eta=args.eta, mode=args.mode, max_epochs=args.max_epochs,
        time_limit=args.time_limit, started=started, engine=args.engine, compare=args.compare)
    clock.phase = "building the report"
    report = build_report(data, trace, check, separability=separability, comparison=comparison,
                          require_convergence=args.require_convergence)
    if args.averaged:
        _add_averaged(report, data, trace, check)
    if args.format == "json":
        text = render_json(report)
    elif args.format in ("markdown", "html"):
        from .report import documents  # plotting loads only for these formats

        if args.format == "html":
            text = documents.render_html(report, data=data, max_updates=args.max_updates_shown, exact=args.exact)
        else:
            text = documents.render_markdown(report, data=data, max_updates=args.max_updates_shown, exact=args.exact,
                                             figures=_figures_beside(args, report, data))
    else:
        text = render_text(report, max_updates=args.max_updates_shown, exact=args.exact, width=_terminal_width(args))
    clock.cancel()  # the report is made: writing it must not be cut short
    if args.output is not None:
        from .report.files import write_atomically

        write_atomically(args.output, text, forbidden=[p for p in (args.data, args.trace) if p])
    else:
        _write(sys.stdout, text, json=args.format == "json")
    return int(report["exit_code"])


def _add_averaged(report: dict[str, Any], data: Dataset, trace: Trace, check: CheckResult) -> None:
    """``--averaged``: the average of the run's weights over its presentations and its claims, in the report;
    a broken claim makes the verdict ``violated``."""
    from .check.averaged import check_averaged
    from .report._averaged import averaged_record

    if trace.mode != "online":
        raise InvalidArgument("--averaged averages the presentations of an online run; drop --mode batch")
    result = check_averaged(data, trace, check.separator)
    report["averaged"] = averaged_record(result)
    if not result.holds:
        report["verdict"], report["exit_code"] = "violated", 1


def _figures_beside(args: argparse.Namespace, report: dict[str, object], data: Dataset) -> dict[str, str]:
    """With ``-o FILE.md``, the figures as SVG files in ``FILE_figures/`` beside it; their links for the document.

    None without ``-o`` (standard output has no place for files) or without matplotlib (said on stderr).
    """
    if args.output is None:
        return {}
    from .report.files import write_atomically
    from .report.plots import PlottingUnavailable, report_figures

    try:
        drawn = report_figures(report, data)
    except PlottingUnavailable as error:
        _write(sys.stderr, f"verify-perceptron: no figures in the Markdown report: {error}\n")
        return {}
    folder = os.path.splitext(args.output)[0] + "_figures"
    if drawn:
        os.makedirs(folder, exist_ok=True)
    for name, svg in drawn.items():
        write_atomically(os.path.join(folder, f"{name}.svg"), svg, forbidden=[p for p in (args.data, args.trace) if p])
    return {name: f"{os.path.basename(folder)}/{name}.svg" for name in drawn}


def _canonical(convention: Convention, w: Sequence[object]) -> tuple[Fraction, ...]:
    b, v = convention.to_canonical([as_rational(x, name="separator") for x in w])
    return (b, *v)


def _bounds(args: argparse.Namespace, clock: Deadline) -> int:
    clock.phase = "loading the data"
    data = _load(args)
    convention = get_convention(args.convention)
    separator = None if args.separator is None else _parse_separator(args.separator)
    if separator is not None and len(separator) != data.n_features + 1:
        raise InvalidArgument(
            f"--separator has {len(separator)} values; {convention.name} needs {data.n_features + 1}: "
            + ", ".join(convention.weight_names(data.n_features))
        )
    clock.phase = "running the perceptron"
    trace, check = verify_run(data, convention, max_epochs=args.max_epochs, time_limit=args.time_limit)
    final = _canonical(convention, check.separator) if trace.converged and check.separator is not None else None
    clock.phase = "comparing the bounds"
    comparison = compare_bounds(
        data, user=None if separator is None else _canonical(convention, separator), final=final,
        time_limit=args.time_limit, max_epochs=args.max_epochs,
    )
    orders = None
    if args.orders is not None:
        clock.phase = "running the presentation orders"
        orders = order_statistics(data, orders=args.orders, seed=args.seed, max_epochs=args.max_epochs,
                                  time_limit=args.time_limit)
    record = comparison_report(data, comparison, orders)
    clock.cancel()  # the record is made: writing it must not be cut short
    if args.format == "json":
        _write(sys.stdout, render_json(record), json=True)
    else:
        lines = [f"data        {data.source}: {data.n_samples} samples, {data.n_features} features", ""]
        lines += comparison_lines(record, exact=args.exact)
        if record["orders"] is not None:
            lines += [""] + orders_lines(record["orders"])
        _write(sys.stdout, "\n".join(lines) + "\n")
    if any(e.converged and e.n_updates > e.value for e in comparison.entries):
        return 1
    return 0 if comparison.separability.separable is not None else 3


def _check(args: argparse.Namespace, spent: float) -> int:
    from .harness.check import run_check_command  # Hypothesis loads here, never on the verify path

    if args.output is not None:  # refused before the check runs, not after
        if os.path.isdir(args.output) or not_regular(args.output) is not None:
            raise InvalidArgument(f"-o {args.output}: is {not_regular(args.output) or 'a directory'}, "
                                  "not a file the report can be written to")
        folder = os.path.dirname(os.path.abspath(args.output))
        if not os.path.isdir(folder):
            raise InvalidArgument(f"-o {args.output}: the directory {folder} does not exist")
    code, text = run_check_command(
        args.target, convention=args.convention, examples=args.examples, dtype=args.dtype, labels=args.labels,
        seed=args.seed, eta=args.eta, rounding_stress=args.rounding_stress,
        detects_nonseparable=args.detects_nonseparable, max_epochs=args.max_epochs, command=args.external,
        float_eta=args.float_eta, call_timeout=args.timeout, format=args.format, averaged=args.averaged,
        accept=[name.strip() for given in args.accept for name in given.split(",") if name.strip()],
        time_limit=args.time_limit, spent=spent,
    )
    text = text if text.endswith("\n") else text + "\n"
    if args.output is None:
        _write(sys.stdout, text, json=args.format == "json")
    else:  # the same escaping as on a terminal: what the implementation printed cannot drive one through cat
        from .report.files import write_atomically

        shown = io.StringIO()
        _write(shown, text, json=args.format == "json")
        write_atomically(args.output, shown.getvalue())
    return code


def _proofs(args: argparse.Namespace) -> int:
    from . import proofs  # SymPy loads here, never on the verify path

    _write(sys.stdout, proofs.render_proofs(args.note, args.format), json=args.format == "json")
    records = proofs.proof_data(args.note)
    undecided = any(step["status"] == "undecided" for note in records for step in note["steps"])
    unshown = any(not erratum["failures"] for note in records for erratum in note["errata"])
    return 1 if undecided or unshown else 0


def main(argv: Sequence[str] | None = None, *, spent: float = 0.0) -> int:
    """Run the command line; return the exit code (the console script exits with it).

    `spent` is the seconds the process used before (the console script passes
    `verify_perceptron.deadline.process_age`): ``--time-limit S`` then bounds
    the whole process by S plus the grace second.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            parser.error("a command is required: verify, bounds, check or proofs")
    except SystemExit as exit:  # --help, --version, or a usage error already reported on one line
        return exit.code if isinstance(exit.code, int) else EXIT_USAGE
    try:
        if args.command == "proofs":
            return _proofs(args)
        if args.command == "check":
            return _check(args, spent)
        with deadline(args.time_limit, spent=spent) as clock:  # a backstop: every phase ends by the limit plus a second
            return _bounds(args, clock) if args.command == "bounds" else _verify(args, clock)
    except TimeUp as error:
        _write(sys.stderr, f"verify-perceptron: {error}; nothing was verified (exit code 3)\n")
        return EXIT_INCONCLUSIVE
    except (DataError, InvalidArgument) as error:
        _write(sys.stderr, f"verify-perceptron: error: {error}\n")
        return EXIT_USAGE
    except ImportError as error:  # an optional extra (plots: matplotlib) is not installed
        _write(sys.stderr, f"verify-perceptron: error: {error}\n")
        return EXIT_USAGE
    except MemoryError:
        _write(sys.stderr, "verify-perceptron: error: out of memory; the data or the run is too large\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        _write(sys.stderr, "verify-perceptron: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0
    except Exception as error:  # a bug: say so in one line, never a traceback
        _write(sys.stderr, f"verify-perceptron: internal error: {type(error).__name__}: {error} (please report this)\n")
        return EXIT_INTERNAL


def run() -> None:
    """Console-script entry point.

    SIGTERM ends the process as an exception does, so a report being written
    removes its temporary file (SIGKILL cannot be caught: nothing can).
    """
    signal.signal(signal.SIGTERM, _terminated)
    sys.exit(main(spent=process_age()))


def _terminated(signum: int, frame: object) -> None:
    sys.exit(128 + signum)
