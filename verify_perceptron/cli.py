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
import os
import re
import signal
import sys
import time
from collections.abc import Sequence
from fractions import Fraction
from typing import TextIO

from . import __version__
from .pipeline import ENGINES, verify_run
from .certify.comparison import compare_bounds
from .certify.orders import order_statistics
from .notes.conventions import CONVENTIONS, Convention, get_convention
from .data.dataset import Dataset
from .data.readers import load_dataset
from .data.denominators import MAX_DENOMINATOR_BITS
from .run.settings import MODES
from .errors import DataError, InvalidArgument
from .data.delimiters import DELIMITER_NAMES
from .data.files import not_regular
from .data.examples import EXAMPLES, example
from .data.rationals import as_rational, parse_rational
from .check.recorder import TraceRecorder
from .report.record import build_report, comparison_report, render_json
from .report.text import comparison_lines, orders_lines, render_text
from .api.verification import against_certified
from .certify.separability import separability_of_run

__all__ = ["main", "build_parser"]

EXIT_USAGE = 2
EXIT_INTERNAL = 4


class _Parser(argparse.ArgumentParser):
    """argparse that exits with code 2 and one line of error, no usage block, no traceback."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _data_options(command: argparse.ArgumentParser) -> None:
    source = command.add_argument_group("data")
    source.add_argument("data", nargs="?", metavar="DATA", help="CSV, LIBSVM/svmlight (.svm, .libsvm), or NumPy (.npy, .npz) file")
    source.add_argument("--example", choices=sorted(EXAMPLES), help="a built-in example instead of DATA")
    source.add_argument("--input-format", choices=("auto", "csv", "libsvm", "numpy"), default="auto",
                        help="how to read DATA (default: from its extension)")
    source.add_argument("--label-column", metavar="COLUMN", help="label column: a header name or a 1-based number")
    source.add_argument("--positive", metavar="VALUE", help="the label value of the positive class (for labels other than ±1 or 0/1)")
    source.add_argument("--delimiter", metavar="SEP", choices=sorted(DELIMITER_NAMES),
                        help="CSV cell separator: , ; tab or whitespace (default: found from the first lines)")
    source.add_argument("--max-denominator-bits", type=_positive_int, default=MAX_DENOMINATOR_BITS, metavar="N",
                        help=f"refuse CSV/LIBSVM values whose common denominator passes N bits (default {MAX_DENOMINATOR_BITS})")
    based = source.add_mutually_exclusive_group()
    based.add_argument("--zero-based", dest="zero_based", action="store_const", const=True, default="auto",
                       help="LIBSVM indices start at 0 (default: so when the file holds index 0, as scikit-learn writes)")
    based.add_argument("--one-based", dest="zero_based", action="store_const", const=False,
                       help="LIBSVM indices start at 1 (index 0 is then an error)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``verify-perceptron``."""
    parser = _Parser(
        prog="verify-perceptron",
        description="Exact checks of the perceptron convergence theorem.",
        epilog="exit codes: 0 verified, 1 violation, 2 bad input or usage, 3 inconclusive",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for add in (_verify_command, _bounds_command, _check_command, _proofs_command):
        add(commands)
    return parser


def _verify_command(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """The `verify` command: run a note's perceptron and check every invariant."""
    verify = commands.add_parser(
        "verify",
        help="run a note's perceptron exactly and check every invariant at every update",
        description="Run one note's perceptron exactly on DATA and check, at every update, "
        "the invariants its convergence proof relies on.",
        epilog="exit codes: 0 verified (or certified not separable), 1 violation, 2 bad input, 3 inconclusive",
    )
    _data_options(verify)
    run = verify.add_argument_group("run")
    run.add_argument("--convention", "-c", default=None, metavar="NAME",
                     help=f"one of {', '.join(CONVENTIONS)} or a note number (default: classic; an example's own note)")
    run.add_argument("--eta", default="1", metavar="RATE", help="learning rate η (ε, λ), a rational such as 1/2 (default 1)")
    run.add_argument("--mode", choices=MODES, default="online", help="online (incremental, default) or batch")
    run.add_argument("--max-epochs", type=_positive_int, default=1000, metavar="N", help="stop after N passes (default 1000)")
    run.add_argument("--time-limit", type=_positive_seconds, default=None, metavar="SECONDS", help="stop after about this long")
    run.add_argument("--engine", choices=ENGINES, default="fast",
                     help="fast (exact integers, vectorised; default) or reference (Fractions, reads like the notes)")
    run.add_argument("--separator", default=None, metavar="W",
                     help="w* in the convention's coordinates, e.g. --separator=-4,3,2 (default: the final weights)")
    run.add_argument("--compare", action="store_true",
                     help="add the five notes' bounds at the certified max-margin separator, with each convention's run")
    run.add_argument("--require-convergence", action="store_true",
                     help="exit 3, not 0, when separable data stopped at a limit before converging")
    out = verify.add_argument_group("output")
    out.add_argument("--format", choices=("text", "json", "markdown", "html"), default="text",
                     help="text tables, JSON, Markdown, or one self-contained HTML file with plots (default text)")
    out.add_argument("-o", "--output", metavar="FILE", default=None,
                     help="write the report to FILE (atomically: a temporary file, then renamed; never over the input)")
    out.add_argument("--max-updates-shown", type=_positive_int, default=60, metavar="N",
                     help="list at most N updates in the text report (all are checked)")
    out.add_argument("--exact", action="store_true",
                     help="show every number whole in text, Markdown and HTML (default: long ones as ≈ decimals; "
                     "JSON is always exact)")
    out.add_argument("--trace", metavar="FILE", default=None,
                     help="write every update to FILE as JSON Lines while the run goes (the report keeps the first ones)")


def _bounds_command(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """The `bounds` command: the five notes' bounds beside the mistakes made."""
    bounds = commands.add_parser(
        "bounds",
        help="compare the five notes' mistake bounds on DATA, at the certified max-margin separator and others",
        description="Decide separability exactly, certify the max-margin separator, and set each note's bound "
        "beside the mistakes each note's perceptron makes.",
        epilog="exit codes: 0 decided, 1 a bound below the mistakes made, 2 bad input, 3 undecided (time limit)",
    )
    _data_options(bounds)
    opts = bounds.add_argument_group("comparison")
    opts.add_argument("--convention", "-c", default="classic", metavar="NAME",
                      help="the coordinates of --separator, and the run whose final weights are compared (default classic)")
    opts.add_argument("--separator", default=None, metavar="W", help="a separator of yours, in --convention's coordinates")
    opts.add_argument("--orders", type=_positive_int, default=None, metavar="K",
                      help="also run K seeded random presentation orders (and every order when there are <= 8 samples)")
    opts.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the orders (default 0)")
    opts.add_argument("--exact", action="store_true", help="show every number whole (default: long ones as ≈ decimals)")
    opts.add_argument("--max-epochs", type=_positive_int, default=1000, metavar="N", help="passes allowed to each run")
    opts.add_argument("--time-limit", type=_positive_seconds, default=60.0, metavar="SECONDS",
                      help="time for the exact solves and the runs (default 60)")
    bounds.add_argument("--format", choices=("text", "json"), default="text", help="text tables or JSON (default text)")


def _check_command(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """The `check` command: someone's implementation against the exact reference."""
    check = commands.add_parser(
        "check",
        help="check someone's perceptron implementation against the exact reference, on generated data",
        description="Run MODULE:EXPR (a fit(X, y) -> (w, b) function, a scikit-learn-style estimator, or one "
        "that also reports its updates; EXPR may call it with literal arguments) or --command CMD (any language) "
        "on generated data and on the notes' examples, and compare it exactly with the note's algorithm; on "
        "failure print a minimal counterexample.",
        epilog="exit codes: 0 passed, 1 failed (a minimal counterexample is printed), 2 bad usage",
    )
    which = check.add_mutually_exclusive_group(required=True)  # one implementation: by name or as a command
    which.add_argument("target", nargs="?", default=None, metavar="MODULE:EXPR",
                       help="the implementation, e.g. mypackage.perceptron:fit or "
                       "'sklearn.linear_model:Perceptron(shuffle=False, tol=None)'")
    which.add_argument("--command", dest="external", default=None, metavar="CMD",
                       help="run an implementation in any language instead: 'CMD {train} {out} [{updates}]' reads the "
                       "CSV {train}, writes its weights w1..wd, b one a line to {out} (see docs/harness.md)")
    check.add_argument("--format", choices=("text", "json", "junit"), default="text",
                       help="the report as text, JSON, or JUnit XML for CI (default text)")
    check.add_argument("--convention", "-c", default="classic", metavar="NAME", help="the note it implements (default classic)")
    check.add_argument("--examples", type=_positive_int, default=100, metavar="N", help="generated datasets to try (default 100)")
    check.add_argument("--dtype", choices=("float", "fraction", "object"), default="float",
                       help="how the data are handed to it (default float: exactly representable values)")
    check.add_argument("--labels", choices=("-1/+1", "0/1"), default="-1/+1", help="the labels it expects")
    check.add_argument("--seed", type=int, default=None, metavar="S", help="seed of the search (default: fixed)")
    check.add_argument("--eta", default=None, metavar="RATE", help="the learning rate it uses, if not 1")
    check.add_argument("--float-eta", default=None, metavar="DECIMAL",
                       help="its rate is the double nearest to DECIMAL (0.1 is 3602879701896397/36028797018963968)")
    check.add_argument("--accept", action="append", default=[], metavar="NAME[,NAME]",
                       help="departures to accept (shuffle, tol, eta0, float-rate, ...): eta0/float-rate, tol and "
                       "shuffle also change the reference compared with")
    check.add_argument("--timeout", type=_positive_seconds, default=10.0, metavar="SECONDS",
                       help="seconds one call of the implementation may take (default 10)")
    check.add_argument("--rounding-stress", action="store_true", help="also give float implementations data that round")
    check.add_argument("--detects-nonseparable", action="store_true",
                       help="it claims to detect non-separable data (raise or return None): check that too")
    check.add_argument("--max-epochs", type=_positive_int, default=None, metavar="N", help="epochs it is allowed")


def _proofs_command(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """The `proofs` command: each note's proof checked step by step in SymPy."""
    proofs = commands.add_parser(
        "proofs",
        help="check each note's convergence proof step by step in SymPy, and list the errata",
        description="Restate each note's convergence proof as SymPy steps, check every step mechanically, and "
        "report the steps that do not follow as written, with corrections and counterexamples from exact runs.",
        epilog="exit codes: 0 every step verified or reported as an erratum with a counterexample, 1 a step "
        "undecided or an erratum without its counterexample, 2 bad usage",
    )
    proofs.add_argument("--note", default=None, metavar="NAME",
                        help="one note: 000..004, batch, soft-margin, a convention name or a seed file (default: all)")
    proofs.add_argument("--format", choices=("text", "json", "markdown"), default="text")


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


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} must be >= 1")
    return value


def _positive_seconds(text: str) -> float:
    try:
        value = float(parse_rational(text))
    except (ValueError, OverflowError):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text} must be > 0")
    return value


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
                        max_denominator_bits=args.max_denominator_bits)


def _verify(args: argparse.Namespace) -> int:
    started = time.monotonic()
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
        trace, check = verify_run(
            data, convention, eta=args.eta, mode=args.mode, max_epochs=args.max_epochs, time_limit=args.time_limit,
            separator=separator, engine_name=args.engine, progress=progress, recorder=recorder,
        )
    finally:
        progress.close()
        if sink is not None:
            sink.close()
    separability = separability_of_run(data, convention, trace, check, args.time_limit)
    trace, check = against_certified(
        data, convention, trace, check, separability, eta=args.eta, mode=args.mode, max_epochs=args.max_epochs,
        time_left=lambda: None if args.time_limit is None else args.time_limit - (time.monotonic() - started),
        engine=args.engine)
    comparison = None
    if args.compare:
        comparison = compare_bounds(
            data,
            user=None if separator is None else _canonical(convention, separator),
            final=_canonical(convention, check.separator) if check.separator_source == "final" else None,
            time_limit=args.time_limit, max_epochs=args.max_epochs,
        )
    report = build_report(data, trace, check, separability=separability, comparison=comparison,
                          require_convergence=args.require_convergence)
    if args.format == "json":
        text = render_json(report)
    elif args.format in ("markdown", "html"):
        from .report import documents  # plotting loads only for these formats

        render = documents.render_html if args.format == "html" else documents.render_markdown
        text = render(report, data=data, max_updates=args.max_updates_shown, exact=args.exact)
    else:
        text = render_text(report, max_updates=args.max_updates_shown, exact=args.exact)
    if args.output is not None:
        from .report.files import write_atomically

        write_atomically(args.output, text, forbidden=[p for p in (args.data, args.trace) if p])
    else:
        _write(sys.stdout, text, json=args.format == "json")
    return int(report["exit_code"])


def _canonical(convention: Convention, w: Sequence[object]) -> tuple[Fraction, ...]:
    b, v = convention.to_canonical([as_rational(x, name="separator") for x in w])
    return (b, *v)


def _bounds(args: argparse.Namespace) -> int:
    data = _load(args)
    convention = get_convention(args.convention)
    separator = None if args.separator is None else _parse_separator(args.separator)
    if separator is not None and len(separator) != data.n_features + 1:
        raise InvalidArgument(
            f"--separator has {len(separator)} values; {convention.name} needs {data.n_features + 1}: "
            + ", ".join(convention.weight_names(data.n_features))
        )
    trace, check = verify_run(data, convention, max_epochs=args.max_epochs, time_limit=args.time_limit)
    final = _canonical(convention, check.separator) if trace.converged and check.separator is not None else None
    comparison = compare_bounds(
        data, user=None if separator is None else _canonical(convention, separator), final=final,
        time_limit=args.time_limit, max_epochs=args.max_epochs,
    )
    orders = None
    if args.orders is not None:
        orders = order_statistics(data, orders=args.orders, seed=args.seed, max_epochs=args.max_epochs,
                                  time_limit=args.time_limit)
    record = comparison_report(data, comparison, orders)
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


def _check(args: argparse.Namespace) -> int:
    from .harness.check import run_check_command  # Hypothesis loads here, never on the verify path

    code, text = run_check_command(
        args.target, convention=args.convention, examples=args.examples, dtype=args.dtype, labels=args.labels,
        seed=args.seed, eta=args.eta, rounding_stress=args.rounding_stress,
        detects_nonseparable=args.detects_nonseparable, max_epochs=args.max_epochs, command=args.external,
        float_eta=args.float_eta, call_timeout=args.timeout, format=args.format,
        accept=[name.strip() for given in args.accept for name in given.split(",") if name.strip()],
    )
    _write(sys.stdout, text if text.endswith("\n") else text + "\n", json=args.format == "json")
    return code


def _proofs(args: argparse.Namespace) -> int:
    from . import proofs  # SymPy loads here, never on the verify path

    _write(sys.stdout, proofs.render_proofs(args.note, args.format), json=args.format == "json")
    records = proofs.proof_data(args.note)
    undecided = any(step["status"] == "undecided" for note in records for step in note["steps"])
    unshown = any(not erratum["failures"] for note in records for erratum in note["errata"])
    return 1 if undecided or unshown else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code (the console script exits with it)."""
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
            return _check(args)
        return _bounds(args) if args.command == "bounds" else _verify(args)
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
    sys.exit(main())


def _terminated(signum: int, frame: object) -> None:
    sys.exit(128 + signum)
