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
import signal
import sys
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, TextIO

from .pipeline import Again, verify_run, verify_run_deferred
from .certify.comparison import compare_bounds
from .certify.orders import order_statistics
from .certify.evidence import certificate_of_bounds, certificate_of_run, check_auditable, file_sha256
from .notes.conventions import Convention, get_convention
from .data.dataset import Dataset
from .data.readers import load_dataset
from .errors import DataError, InvalidArgument
from .data.examples import example
from .data.files import not_regular
from .data.rationals import as_rational
from .check.recorder import TraceRecorder
from .check.results import CheckResult
from .data.trace import Trace
from .report.outputs import Outputs
from .report.certificates import render_certificate
from .report.record import build_report, comparison_report, json_blocks, render_json
from .report.schema import Report
from .report.text import comparison_lines, data_line, fit_lines, orders_lines, render_text
from .report.visible import displayed, visible, visible_json
from .api.verification import settle
from .certify.beside import decision_beside
from .progress import TerminalLine, Watch
from .arguments import EXIT_USAGE, build_parser, check_usage, parse_separator
from .deadline import Deadline, Terminated, TimeUp, deadline, process_age
from .heap import give_back

__all__ = ["main", "build_parser"]

EXIT_INCONCLUSIVE = 3
EXIT_INTERNAL = 4


def _write(stream: TextIO, text: str, *, json: bool = False) -> None:
    r"""Write `text` for a person: every control character but newline and tab shown escaped, never obeyed
    (`verify_perceptron.report.visible`). In `json` text the escape is JSON's own (``\u0085``), so the document
    stays valid.

    Examples
    --------
    >>> _write(sys.stdout, "label \x1b[2Jred\r\n")
    label \x1b[2Jred\r
    >>> _write(sys.stdout, '"\x85"\n', json=True)
    "\u0085"
    """
    stream.write(visible_json(text) if json else visible(text, lines=True))


def _say(message: str) -> None:
    """One line on stderr: `message` with even its newlines shown escaped."""
    _write(sys.stderr, f"verify-perceptron: {visible(message)}\n")


def _rate(text: str) -> Fraction:
    try:
        return as_rational(text, name="eta")
    except ValueError as error:
        raise InvalidArgument(str(error)) from None


def _load(args: argparse.Namespace) -> Dataset:
    """The data `check_usage` let through: an example, or DATA read by its reader."""
    if args.example:
        return example(args.example)
    if os.path.isdir(args.data):
        raise DataError(f"{args.data}: is a directory, not a data file")
    return load_dataset(args.data, format=args.input_format, label_column=args.label_column, positive=args.positive,
                        delimiter=args.delimiter, zero_based=args.zero_based,
                        max_denominator_bits=args.max_denominator_bits, max_cells=args.max_cells,
                        index_column=args.index_column, decimal=args.decimal,
                        encoding=args.encoding, thousands=args.thousands)


def _terminal_width(args: argparse.Namespace) -> int | None:
    """The columns the text report may use: ``--width``, else the terminal's (or ``COLUMNS``) when it goes to
    one, else None."""
    if getattr(args, "width", None) is not None:
        return int(args.width)
    if getattr(args, "output", None) is not None:
        return None
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and 0 < int(columns) < 10_000:
        return max(40, int(columns))
    try:
        return max(40, os.get_terminal_size(sys.stdout.fileno()).columns) if sys.stdout.isatty() else None
    except (OSError, ValueError, AttributeError):  # a stdout without a file descriptor (captured, replaced)
        return None


def _verify(args: argparse.Namespace, clock: Deadline, outputs: Outputs) -> int:
    started = time.monotonic()
    # Every output is named (checked, its temporary file made) before the data are read: all or nothing.
    report_file = None if args.output is None else outputs.file(args.output)
    trace_file = None if args.trace is None else outputs.file(args.trace, what="--trace")
    figures = outputs.figures(report_file) if report_file is not None and args.format == "markdown" else None
    certificates = _Certificates(args, outputs)
    watch = _watch(args, max_epochs=args.max_epochs, started=started)
    try:
        report, text = _verify_report(args, clock, trace_file, figures, watch, certificates)
    finally:
        if watch is not None:
            watch.close()  # the line cleared before the report is written, however the run ended
    clock.cancel()  # the report is made: writing it must not be cut short (and a swallowed alarm ends it here)
    if report_file is not None:
        for block in json_blocks(report) if text is None else [text]:
            report_file.write(visible_json(block) if args.format == "json" else visible(block, lines=True))
    outputs.commit()
    if report_file is None:
        for block in json_blocks(report) if text is None else [text]:
            _write(sys.stdout, block, json=args.format == "json")
    return int(report["exit_code"])


def _watch(args: argparse.Namespace, **settings: Any) -> Watch | None:
    """The progress display of a command (`--progress`; by default on a terminal) at its `--time-limit`, with
    `Watch`'s other `settings`, or None."""
    shown = args.progress if args.progress is not None else sys.stderr.isatty()
    return Watch(TerminalLine(sys.stderr), time_limit=args.time_limit, **settings) if shown else None


def _phase(clock: Deadline, watch: Watch | None, name: str) -> None:
    """A phase begins: named for the time limit's message and for the progress display."""
    clock.phase = name
    if watch is not None:
        watch.phase(name)


def _verify_report(args: argparse.Namespace, clock: Deadline, trace_file: Any, figures: Any,
                   watch: Watch | None, certificates: _Certificates) -> tuple[Report, str | None]:
    """The `verify` command's work, from loading the data to the report's text (None for JSON: made as written)."""
    started = time.monotonic() if watch is None else watch.started
    _phase(clock, watch, "loading the data")
    data = _load(args)
    certificates.read(args, data)
    # (an explicit --convention '' is a name like any other: get_convention refuses it)
    convention = get_convention(args.convention if args.convention is not None
                                else data.default_convention or "classic")
    separator = None if args.separator is None else parse_separator(args.separator)
    if separator is not None and len(separator) != data.n_features + 1:
        raise InvalidArgument(
            f"--separator has {len(separator)} values; {convention.name} needs {data.n_features + 1}: "
            + ", ".join(convention.weight_names(data.n_features))
        )
    recorder = None
    if trace_file is not None:
        recorder = TraceRecorder(trace_file, data, convention, convention.check_rate(_rate(args.eta)))
    _phase(clock, watch, "running the perceptron")
    again: list[Again] = []  # the run's kept updates, replayed against a certified separator if one is found
    # separability decided on the second core while the run goes on (large data only); ended on leaving the block
    with decision_beside(data, args.time_limit, enabled=args.engine == "fast",
                         tick=None if watch is None else watch.tick) as beside:
        trace, first = verify_run_deferred(  # a run stopped at a limit is checked once, in `settle`
            data, convention, eta=args.eta, mode=args.mode, max_epochs=args.max_epochs, time_limit=args.time_limit,
            separator=separator, engine_name=args.engine, recorder=recorder,
            progress=None if watch is None else watch.epoch,  # without a display the pass runs on through epochs
            again=again,
        )
        clock.phase = "deciding separability"
        give_back()  # the check's freed arrays, resident in the heap, returned before the decision and the report
        trace, check, separability, comparison = settle(
            data, convention, trace, first, eta=args.eta, mode=args.mode, max_epochs=args.max_epochs,
            time_limit=args.time_limit, started=started, engine=args.engine, compare=args.compare, watch=watch,
            again=again, beside=beside)
    give_back()
    _phase(clock, watch, "writing the report")
    report = build_report(data, trace, check, separability=separability, comparison=comparison,
                          require_convergence=args.require_convergence)
    if args.averaged:
        _add_averaged(report, data, trace, check)
    certificates.write(lambda digest, choice: certificate_of_run(data, trace, check, separability,
                                                                 file_digest=digest, data_choice=choice))
    if args.format == "json":
        return report, None  # written from the report a block at a time (`json_blocks`), never held whole
    if args.format not in ("markdown", "html"):
        return report, render_text(report, max_updates=args.max_updates_shown, exact=args.exact,
                                   width=_terminal_width(args))
    from .report import documents  # plotting loads only for these formats

    _phase(clock, watch, "drawing the figures")
    if args.format == "html":
        return report, documents.render_html(report, data=data, max_updates=args.max_updates_shown, exact=args.exact,
                                             figures=_figures(report, data, required=True)[0])
    drawn, left_out = (_figures(report, data, required=False) if figures is not None else
                       ({}, _left_out(report, data, "a Markdown report on standard output links no files; "
                                                    "written with -o FILE, it has them beside it")))
    links = {name: figures.add(name, svg) for name, svg in drawn.items()} if figures is not None else {}
    return report, documents.render_markdown(report, data=data, max_updates=args.max_updates_shown, exact=args.exact,
                                             figures=links, left_out=left_out)


class _Certificates:
    """``--certificate FILE`` and ``--coq FILE`` (docs/certificates.md): named before the data are read, as every
    output is; the data file's SHA-256 taken once its reader has read it (`read`, so its size limits came
    first); written from the record at the end."""

    def __init__(self, args: argparse.Namespace, outputs: Outputs) -> None:
        self.json = None if args.certificate is None else outputs.file(args.certificate, what="--certificate")
        self.coq = None if args.coq is None else outputs.file(args.coq, what="--coq")
        self.choice: str = args.certificate_data
        self.digest: str | None = None  # the data file's SHA-256, once read

    def read(self, args: argparse.Namespace, data: Dataset) -> None:
        if (self.json is not None or self.coq is not None) and args.data and os.path.isfile(args.data):
            self.digest = file_sha256(args.data)
        if self.json is not None and self.choice == "digest":
            check_auditable(data, args.data)  # before the run: a certificate nobody can check is not written

    def write(self, record: Callable[[str | None, str], dict[str, Any]]) -> None:
        if self.json is not None:
            self.json.write(render_certificate(record(self.digest, self.choice)))
        if self.coq is not None:  # Coq computes on the integers themselves: they are always in the file
            from .report.coq import render_coq

            self.coq.write(render_coq(record(self.digest, "embed")))


def _add_averaged(report: Report, data: Dataset, trace: Trace, check: CheckResult) -> None:
    """``--averaged``: the average of the run's weights over its presentations and its claims, in the report;
    a broken claim makes the verdict ``violated``. (`check_usage` has refused ``--mode batch``.)"""
    from .check.averaged import check_averaged
    from .report._averaged import averaged_record

    result = check_averaged(data, trace, check.separator)
    report["averaged"] = averaged_record(result)
    from .report._proofs_applied import averaged_proof_record  # (issue 29: its proof's hypotheses on the run)
    entry = averaged_proof_record(check, result.holds)
    report["proofs_applied"] += [entry] if entry is not None else []
    if not result.holds:
        report["verdict"], report["exit_code"] = "violated", 1


def _left_out(report: Report, data: Dataset, reason: str) -> dict[str, str]:
    """Every figure the report has, left out for `reason` (which the document then states)."""
    from .report.plots.series import available_figures

    return {name: reason for name in available_figures(report, data)}


def _figures(report: Report, data: Dataset, *, required: bool) -> tuple[dict[str, str], dict[str, str]]:
    """The report's figures as SVG text, and those left out with why; what matplotlib warned of in one line on
    stderr. Without matplotlib, `PlottingUnavailable` if `required` (HTML), else none, said on stderr and in
    the document (Markdown)."""
    from .report.plots import PlottingUnavailable, report_figures

    warned: list[str] = []
    try:
        drawn = report_figures(report, data, warnings=warned)
    except PlottingUnavailable as error:
        if required:
            raise
        _say(f"no figures in the Markdown report: {error}")
        return {}, _left_out(report, data, str(error))
    if warned:
        _say("note: while drawing the figures: " + "; ".join(warned))
    return drawn, {}


def _canonical(convention: Convention, w: Sequence[object]) -> tuple[Fraction, ...]:
    b, v = convention.to_canonical([as_rational(x, name="separator") for x in w])
    return (b, *v)


def _bounds(args: argparse.Namespace, clock: Deadline, outputs: Outputs) -> int:
    watch = _watch(args, max_epochs=args.max_epochs, started=time.monotonic())
    try:
        return _bounds_report(args, clock, outputs, watch)
    finally:
        if watch is not None:
            watch.close()  # the line cleared before the report is written, however the run ended


def _bounds_report(args: argparse.Namespace, clock: Deadline, outputs: Outputs, watch: Watch | None) -> int:
    certificates = _Certificates(args, outputs)
    _phase(clock, watch, "loading the data")
    data = _load(args)
    certificates.read(args, data)
    convention = get_convention(args.convention)
    separator = None if args.separator is None else parse_separator(args.separator)
    if separator is not None and len(separator) != data.n_features + 1:
        raise InvalidArgument(
            f"--separator has {len(separator)} values; {convention.name} needs {data.n_features + 1}: "
            + ", ".join(convention.weight_names(data.n_features))
        )
    _phase(clock, watch, "running the perceptron")
    trace, check = verify_run(data, convention, max_epochs=args.max_epochs, time_limit=args.time_limit,
                              progress=None if watch is None else watch.epoch)
    final = _canonical(convention, check.separator) if trace.converged and check.separator is not None else None
    _phase(clock, watch, "comparing the bounds (each note's run, the max-margin separators)")
    comparison = compare_bounds(
        data, user=None if separator is None else _canonical(convention, separator), final=final,
        time_limit=args.time_limit, max_epochs=args.max_epochs,
    )
    orders = None
    if args.orders is not None:
        _phase(clock, watch, "running the presentation orders")
        orders = order_statistics(data, orders=args.orders, seed=args.seed, max_epochs=args.max_epochs,
                                  time_limit=args.time_limit)
    record = comparison_report(data, comparison, orders)
    certificates.write(lambda digest, choice: certificate_of_bounds(data, comparison, file_digest=digest,
                                                                    data_choice=choice))
    clock.cancel()  # the record is made: writing it must not be cut short
    outputs.commit()
    if watch is not None:
        watch.close()
    if args.format == "json":
        _write(sys.stdout, render_json(record), json=True)
    else:
        lines = [data_line(displayed(record)["dataset"]), ""]
        width = None if args.exact else _terminal_width(args)
        lines += comparison_lines(record, exact=args.exact, width=width)
        if record["orders"] is not None:
            lines += [""] + orders_lines(record["orders"], width=width)
        _write(sys.stdout, "\n".join(fit_lines(lines, width)) + "\n")
    if any(e.converged and e.n_updates > e.value for e in comparison.entries):
        return 1
    return 0 if comparison.separability.separable is not None else 3


def _check(args: argparse.Namespace, spent: float) -> int:
    if args.output is not None:  # refused before the check runs, not after
        if os.path.isdir(args.output) or not_regular(args.output) is not None:
            raise InvalidArgument(f"-o {args.output}: is {not_regular(args.output) or 'a directory'}, "
                                  "not a file the report can be written to")
        folder = os.path.dirname(os.path.abspath(args.output))
        if not os.path.isdir(folder):
            raise InvalidArgument(f"-o {args.output}: the directory {folder} does not exist")
    watch = _watch(args)
    try:
        code, text = _checked(args, spent, watch)
    finally:
        if watch is not None:
            watch.close()  # the line cleared before the report is written
    text = text if text.endswith("\n") else text + "\n"
    if args.output is None:
        _write(sys.stdout, text, json=args.format == "json")
    else:  # the same escaping as on a terminal: what the implementation printed cannot drive one through cat
        from .report.files import write_atomically

        shown = io.StringIO()
        _write(shown, text, json=args.format == "json")
        write_atomically(args.output, shown.getvalue())
    return code


def _checked(args: argparse.Namespace, spent: float, watch: Watch | None) -> tuple[int, str]:
    """`check`'s run: its exit code and report."""
    from .harness.check import run_check_command  # Hypothesis loads here, never on the verify path

    return run_check_command(
        args.target, convention=args.convention, examples=args.examples, dtype=args.dtype, labels=args.labels,
        seed=args.seed, eta=args.eta, rounding_stress=args.rounding_stress,
        detects_nonseparable=args.detects_nonseparable, max_epochs=args.max_epochs, command=args.external,
        float_eta=args.float_eta, call_timeout=args.timeout, format=args.format,
        averaged=args.average_over or args.averaged,
        accept=[name.strip() for given in args.accept for name in given.split(",") if name.strip()],
        time_limit=args.time_limit, spent=spent, bias=args.bias, mode=args.mode, progress=watch,
        label_column=args.label_column, header=args.header, delimiter=args.delimiter, labels_as=args.labels_as,
    )


def _proofs(args: argparse.Namespace, clock: Deadline) -> int:
    watch = _watch(args)
    _phase(clock, watch, "loading SymPy")
    from . import proofs  # SymPy loads here, never on the verify path
    from .proofs.catalog import render_records

    def starting(k: int, n: int, entry: proofs.NoteProof) -> None:
        key, convention = entry.proof.key, entry.proof.convention
        name = f"note {key}'s proof" if key.isdigit() else f"the {key} proof"
        said = [convention] if convention not in ("*", key) else []
        said += [f"{entry.proof.mode} mode"] if entry.proof.mode != "online" else []
        inside = f" ({', '.join(said)})" if said else ""
        _phase(clock, watch, f"checking {name}{inside}, {k} of {n}")

    try:
        records = [report.record() for report in proofs.proof_reports(args.note, starting)]
    finally:
        if watch is not None:
            watch.close()
    text = render_records(records, args.format)
    clock.cancel()
    _write(sys.stdout, text, json=args.format == "json")
    undecided = any(step["status"] == "undecided" for note in records for step in note["steps"])
    unshown = any(not erratum["failures"] for note in records for erratum in note["errata"])
    return 1 if undecided or unshown else 0


def _labels_joined(argv: list[str]) -> list[str]:
    """`argv` with ``--labels -1/+1`` (and ``--labels-as -1/+1``) made one word, ``--labels=-1/+1``: argparse takes
    a value that starts with a dash, and is no negative number, for an option, so the choice the help shows was
    refused ("expected one argument").

    Examples
    --------
    >>> _labels_joined(["check", "--labels", "-1/+1", "m:f"])
    ['check', '--labels=-1/+1', 'm:f']
    >>> _labels_joined(["check", "--labels", "0/1", "--labels-as", "-1/+1", "--labels"])
    ['check', '--labels', '0/1', '--labels-as=-1/+1', '--labels']
    """
    out: list[str] = []
    for word in argv:
        joined = out and out[-1] in ("--labels", "--labels-as") and word.startswith("-") and word[1:2].isdigit()
        out[-1:] = [f"{out[-1]}={word}"] if joined else [*out[-1:], word]
    return out


def main(argv: Sequence[str] | None = None, *, spent: float = 0.0) -> int:
    """Run the command line; return the exit code (the console script exits with it).

    `spent` is the seconds the process used before (the console script passes
    `verify_perceptron.deadline.process_age`): ``--time-limit S`` then bounds
    the whole process by S plus the grace second. Usage is checked whole
    (`check_usage`) before anything runs; output files are put in place only
    when the command has finished (`verify_perceptron.report.outputs`).
    """
    parser = build_parser()
    try:
        args = parser.parse_args(_labels_joined(sys.argv[1:] if argv is None else list(argv)))
        if args.command is None:
            parser.error("a command is required: verify, bounds, check or proofs")
    except SystemExit as exit:  # --help, --version, or a usage error already reported on one line
        return exit.code if isinstance(exit.code, int) else EXIT_USAGE
    try:
        check_usage(args)
        if args.command == "check":
            return _check(args, spent)
        limit = args.time_limit if args.command in ("verify", "bounds", "proofs") else None
        # The outputs are outermost: whatever ends the command early, the timer is off when they are removed.
        with Outputs(inputs=[getattr(args, "data", None)]) as outputs, deadline(limit, spent=spent) as clock:
            if args.command == "proofs":
                return _proofs(args, clock)
            return _bounds(args, clock, outputs) if args.command == "bounds" else _verify(args, clock, outputs)
    except TimeUp as error:
        _say(f"{error}; nothing was verified (exit code 3)")
        return EXIT_INCONCLUSIVE
    except (DataError, InvalidArgument) as error:
        _say(f"error: {error}")
        return EXIT_USAGE
    except ImportError as error:  # an optional extra (plots: matplotlib) is not installed
        _say(f"error: {error}")
        return EXIT_USAGE
    except MemoryError:
        _say("error: out of memory; the data or the run is too large")
        return EXIT_USAGE
    except KeyboardInterrupt:
        _say("interrupted")
        return 128 + signal.SIGINT
    except Terminated as stop:
        return 128 + stop.signum
    except BrokenPipeError:
        return 0
    except Exception as error:  # a bug: say so in one line, never a traceback
        _say(f"internal error: {type(error).__name__}: {error} (please report this)")
        return EXIT_INTERNAL


def run() -> None:
    """Console-script entry point.

    SIGTERM ends the process as an exception does, so a report being written
    removes its temporary file (SIGKILL cannot be caught: nothing can);
    within a command, `verify_perceptron.deadline.deadline` handles it.
    """
    signal.signal(signal.SIGTERM, _terminated)
    sys.exit(main(spent=process_age()))


def _terminated(signum: int, frame: object) -> None:
    sys.exit(128 + signum)
