"""The command line's grammar: the `verify`, `bounds`, `check` and `proofs` subcommands and their options.

`verify_perceptron.cli` parses with `build_parser`, then checks every
combination of options with `check_usage`, before anything runs or is
written, and does the work; a usage error is one line and exit code 2
(`EXIT_USAGE`), never argparse's usage block, and what the user typed is
shown in it with its control characters escaped, never obeyed.
"""

from __future__ import annotations

import argparse
import os
import re
from fractions import Fraction
from typing import TYPE_CHECKING, NoReturn

from . import __version__
from .data.delimiters import DELIMITER_NAMES
from .data.thousands import THOUSANDS_NAMES
from .data.row_index import INDEX_COLUMN_CHOICES
from .data.denominators import MAX_DENOMINATOR_BITS
from .data.files import BYTES_PER_CELL, MAX_CELLS
from .data.memory import RUN_BYTES_PER_CELL
from .data.examples import EXAMPLES
from .data.rationals import parse_rational
from .errors import InvalidArgument
from .notes.conventions import CONVENTIONS, get_convention
from .pipeline import ENGINES
from .report.visible import visible
from .run.settings import MODES, check_settings

if TYPE_CHECKING:
    from _typeshed import SupportsWrite  # (typeshed's own protocol, what ArgumentParser takes)

__all__ = ["EXIT_USAGE", "FORMAT_OF_SUFFIX", "build_parser", "check_usage", "format_from_name", "parse_separator"]

#: The exit code of bad input or usage.
EXIT_USAGE = 2

#: How every output file is written (`verify_perceptron.report.outputs`), as --help and the README say it.
OUTPUT_RULE = ("Every output file is written whole or not at all: to a temporary file in its folder, renamed into "
               "place when the run has finished, and removed on any failure (an existing file is then left as it "
               "was). FILE's folder must exist; FILE must not be an input, a directory or a device. Markdown also "
               "writes its figures beside it, in report_figures/ for report.md (the one folder made when "
               "missing), each under a name of its run's own.")


class _Parser(argparse.ArgumentParser):
    """argparse that exits with code 2 and one line of error, no usage block, no traceback."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {visible(message)} (see '{self.prog} --help')\n")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        # Help, version and errors: argparse echoes what was typed, which may hold an ESC sequence.
        super()._print_message(visible(message, lines=True), file)


def _data_options(command: argparse.ArgumentParser) -> None:
    source = command.add_argument_group("data")
    source.add_argument("data", nargs="?", metavar="DATA",
                        help="CSV, LIBSVM/svmlight (.svm, .libsvm), NumPy (.npy, .npz) or ARFF (.arff) file, "
                             "compressed (gzip, bzip2, xz, a ZIP of one file) or not")
    source.add_argument("--example", choices=sorted(EXAMPLES), help="a built-in example instead of DATA")
    source.add_argument("--input-format", choices=("auto", "csv", "libsvm", "numpy", "arff"), default="auto",
                        help="how to read DATA (default: from its extension)")
    source.add_argument("--label-column", metavar="COLUMN", help="label column: a header name or a 1-based number")
    index = source.add_mutually_exclusive_group()
    index.add_argument("--keep-index", dest="index_column", action="store_const", const="keep", default="auto",
                       help="read a CSV file's first column as a feature even when it looks like a row index "
                            "(the same as --index-column keep)")
    index.add_argument("--index-column", choices=INDEX_COLUMN_CHOICES, default="auto",
                       help="a CSV file's row index (pandas' to_csv, R's write.csv): auto leaves out a first column "
                            "whose header cell is empty or 'Unnamed: 0', drop leaves out column 1 whatever its header, "
                            "keep reads it as a feature (default auto)")
    source.add_argument("--positive", metavar="VALUE",
                        help="the label value of the positive class (for labels other than ±1 or 0/1; of more "
                             "than two values, that class against all the others)")
    source.add_argument("--delimiter", metavar="SEP", choices=sorted(DELIMITER_NAMES),
                        help="CSV cell separator: , ; tab | or whitespace (default: found from the first lines)")
    source.add_argument("--decimal-comma", dest="decimal", action="store_const", const=",", default=".",
                        help="CSV numbers are written with a decimal comma, 5,1 (European spreadsheets, pandas' "
                             "decimal=','); cells are then separated by ; tab | or whitespace")
    source.add_argument("--thousands", metavar="SEP", choices=sorted(THOUSANDS_NAMES),
                        help="CSV numbers group digits by SEP: , . ' space or _ (1,234.5; default: none, refused)")
    source.add_argument("--encoding", metavar="NAME", help="DATA's text encoding, e.g. cp1252 (Excel's 'CSV (Comma "
                        "delimited)'); default UTF-8, or UTF-16/32 by a byte-order mark")
    source.add_argument("--max-denominator-bits", type=_positive_int, default=MAX_DENOMINATOR_BITS, metavar="N",
                        help=f"refuse CSV/LIBSVM values whose common denominator passes N bits (default {MAX_DENOMINATOR_BITS})")
    source.add_argument("--max-cells", type=_positive_int, default=None, metavar="N",  # None: sized from memory
                        help=f"refuse DATA holding more than N values, samples times features (default: what the "
                             f"available memory holds at {RUN_BYTES_PER_CELL} bytes a value, {MAX_CELLS} where it "
                             f"cannot be read; a CSV/LIBSVM file may have {BYTES_PER_CELL}·N bytes)")
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
    for command in commands.choices.values():  # `verify --version` as well as `--version`
        command.add_argument("--version", action="version", version=f"{parser.prog} {__version__}",
                             help="show the version and exit")
    return parser


def _verify_command(commands: argparse._SubParsersAction[_Parser]) -> None:
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
    run.add_argument("--averaged", action="store_true",
                     help="also average the weights over every presentation (the averaged perceptron) and check "
                     "what the proof gives the average")
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
    out.add_argument("--format", choices=("text", "json", "markdown", "html"), default=None,
                     help="text tables, JSON, Markdown, or one self-contained HTML file with plots (default: from "
                     "-o FILE's name, .txt .json .md .html .htm; else text)")
    out.add_argument("-o", "--output", metavar="FILE", default=None,
                     help=f"write the report to FILE instead of standard output. {OUTPUT_RULE}")
    out.add_argument("--max-updates-shown", type=_positive_int, default=60, metavar="N",
                     help="list at most N updates in the text report (all are checked)")
    out.add_argument("--exact", action="store_true",
                     help="show every number whole in text, Markdown and HTML (default: long ones as ≈ decimals; "
                     "JSON is always exact)")
    out.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None, help=PROGRESS_HELP)
    out.add_argument("--width", type=_width, default=None, metavar="N",
                     help=WIDTH_HELP)
    out.add_argument("--trace", metavar="FILE", default=None,
                     help="also write every update to FILE as JSON Lines (the report keeps the first ones); "
                     "as -o FILE, it is put in place when the run has finished")
    _certificate_options(out)


#: ``--progress`` / ``--no-progress``, of `verify` and `bounds`.
PROGRESS_HELP = ("show on stderr how far the call has got (the epoch of the limit, updates, mistakes and the bound, "
                 "the phase, the time left): by default only when stderr is a terminal; --progress also when it is "
                 "not (a line each phase and each second), --no-progress never")


def _bounds_command(commands: argparse._SubParsersAction[_Parser]) -> None:
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
    bounds.add_argument("--width", type=_width, default=None, metavar="N", help=WIDTH_HELP)
    bounds.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None, help=PROGRESS_HELP)
    _certificate_options(bounds.add_argument_group("certificates"))


# --- certificates (issue 30): evidence a small independent auditor and Coq check (docs/certificates.md) ---

def _certificate_options(group: argparse._ArgumentGroup) -> None:
    group.add_argument("--certificate", metavar="FILE", default=None,
                       help="also write the evidence of the verdict to FILE as JSON, for `python -m "
                       "verify_perceptron.audit FILE [DATA]` (docs/certificates.md); put in place as -o FILE")
    group.add_argument("--certificate-data", choices=("embed", "digest"), default="embed",
                       help="embed the data's integers in the certificate (default: the auditor then needs nothing "
                       "else), or only their digests (the auditor then reads DATA, a plain CSV file)")
    group.add_argument("--coq", metavar="FILE", default=None,
                       help="also write the same statements as a Coq file whose lemmas `coqc FILE` proves by "
                       "computation; put in place as -o FILE")


def _check_certificates(args: argparse.Namespace) -> None:
    if args.coq is not None and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_']*\.v", os.path.basename(args.coq)):
        raise InvalidArgument(f"--coq {args.coq}: coqc takes a file named as a Coq module, letters, digits and _ "
                              "then .v (such as cancer_certificate.v)")
    if args.certificate_data == "digest":
        if args.certificate is None:
            raise InvalidArgument("--certificate-data digest says what goes in --certificate FILE; give one")
        if args.example:
            raise InvalidArgument(f"--certificate-data digest needs a data file for the auditor to read, not "
                                  f"--example {args.example}; leave the data embedded")


def _check_command(commands: argparse._SubParsersAction[_Parser]) -> None:
    """The `check` command: someone's implementation against the exact reference."""
    check = commands.add_parser(
        "check",
        help="check someone's perceptron implementation against the exact reference, on generated data",
        description="Run MODULE:EXPR (a fit(X, y) -> (w, b) function, a scikit-learn-style estimator, or one "
        "that also reports its updates; EXPR may call it with literal arguments) or --command CMD (any language) "
        "on generated data and on the notes' examples, and compare it exactly with the note's algorithm; on "
        "failure print a minimal counterexample.",
        epilog="exit codes: 0 passed, 1 failed (a minimal counterexample is printed), 2 bad usage, 3 the time "
        "limit ran out",
    )
    which = check.add_mutually_exclusive_group(required=True)  # one implementation: by name or as a command
    which.add_argument("target", nargs="?", default=None, metavar="MODULE:EXPR",
                       help="the implementation, e.g. mypackage.perceptron:fit, a file's path "
                       "(src/perceptron.py:fit) or 'sklearn.linear_model:Perceptron(shuffle=False, tol=None)'")
    which.add_argument("--command", dest="external", default=None, metavar="CMD",
                       help="run an implementation in any language instead: 'CMD {train} {out} [{updates}]' reads the "
                       "CSV {train} (without {train}: on standard input), writes its weights w1..wd, b one a line to "
                       "{out} (see docs/harness.md)")
    check.add_argument("--format", choices=("text", "json", "junit"), default=None,
                       help="the report as text, JSON, or JUnit XML for CI (default: from -o FILE's name, .txt "
                       ".json .xml; else text)")
    check.add_argument("-o", "--output", metavar="FILE", default=None,
                       help="write the report to FILE (atomically: a temporary file, then renamed; only once the "
                       "check has a verdict)")
    check.add_argument("--convention", "-c", default="classic", metavar="NAME", help="the note it implements (default classic)")
    check.add_argument("--examples", type=_positive_int, default=100, metavar="N", help="generated datasets to try (default 100)")
    check.add_argument("--dtype", choices=("float", "fraction", "object"), default="float",
                       help="how the data are handed to it (default float: exactly representable values)")
    check.add_argument("--labels", default="-1/+1", metavar="NEG/POS",
                       help="the labels it expects: -1/+1 (default), 0/1, or any two, the negative first (1/2, R/M)")
    check.add_argument("--labels-as", choices=("-1/+1", "0/1"), default=None,
                       help="how its code maps them: to -1/+1 (a step of η·y) or to 0/1 (η·(d - y)); default: "
                       "-1/+1, or 0/1 for --labels 0/1")
    check.add_argument("--seed", type=int, default=None, metavar="S", help="seed of the search (default: fixed)")
    check.add_argument("--eta", default=None, metavar="RATE", help="the learning rate it uses, if not 1")
    check.add_argument("--float-eta", default=None, metavar="DECIMAL",
                       help="its rate is the double nearest to DECIMAL (0.1 is 3602879701896397/36028797018963968)")
    check.add_argument("--accept", action="append", default=[], metavar="NAME[,NAME]",
                       help="departures to accept (shuffle, tol, eta0, float-rate, printed-rounding, float32, ...): "
                       "eta0/float-rate, float32 (with --float-eta), tol and shuffle also change the reference "
                       "compared with")
    check.add_argument("--timeout", type=_positive_seconds, default=10.0, metavar="SECONDS",
                       help="seconds one call of the implementation may take (default 10)")
    check.add_argument("--time-limit", type=_positive_seconds, default=None, metavar="SECONDS",
                       help="seconds the whole check may take; exit 3 when they run out")
    check.add_argument("--label-column", choices=("last", "first"), default="last",
                       help="where each line of --command's {train} holds the label: after the features (default) "
                       "or before them")
    check.add_argument("--header", action="store_true",
                       help="--command's {train} starts with a line naming its columns (x1,...,xd,y), for a program "
                       "that reads one (pandas' read_csv, R's read.csv)")
    check.add_argument("--delimiter", choices=("comma", "space", "tab", "semicolon"), default="comma",
                       help="what stands between two values of --command's {train} (default comma; space for a "
                       "program that reads with np.loadtxt(path), fscanf or R's read.table)")
    check.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                       help="show on stderr what the check is doing (its phase, the calls of the implementation, "
                       "the time): by default only when stderr is a terminal; --progress also when it is not, "
                       "--no-progress never")
    check.add_argument("--rounding-stress", action="store_true", help="also give float implementations data that round")
    check.add_argument("--detects-nonseparable", action="store_true",
                       help="it claims to detect non-separable data (raise or return None): check that too")
    check.add_argument("--max-epochs", type=_positive_int, default=None, metavar="N",
                       help="it stops after N epochs, converged or not (1: one pass); compared with the note's run "
                       "stopped there")
    check.add_argument("--averaged", action="store_true",
                       help="it returns the averaged perceptron's weights (over every presentation; over exactly "
                       "--max-epochs epochs when given)")
    check.add_argument("--average-over", choices=("presentations", "start", "epochs", "updates"), default=None,
                       help="with --averaged: what its average runs over: every presentation (default), every "
                       "presentation and the start w = 0 (a counter from 1, as in Daume's course), each epoch's end, "
                       "or each update")
    check.add_argument("--mode", choices=("online", "batch"), default="online",
                       help="online: a step after every mistake (default); batch: one step a pass, by the sum over "
                       "the samples the pass's starting weights misclassify (note 003)")
    check.add_argument("--bias", choices=("first", "last", "convention"), default=None,
                       help="where its flat weight vector holds the bias: b, w1..wd (first), w1..wd, b (last: a "
                       "command's default) or the convention's own order")


def _proofs_command(commands: argparse._SubParsersAction[_Parser]) -> None:
    """The `proofs` command: each note's proof checked step by step in SymPy."""
    proofs = commands.add_parser(
        "proofs",
        help="check each note's convergence proof step by step in SymPy, and list the errata",
        description="Restate each note's convergence proof as SymPy steps, check every step mechanically, and "
        "report the steps that do not follow as written, with corrections and counterexamples from exact runs.",
        epilog="exit codes: 0 every step verified or reported as an erratum with a counterexample, 1 a step "
        "undecided or an erratum without its counterexample, 2 bad usage, 3 stopped at --time-limit",
    )
    proofs.add_argument("--note", default=None, metavar="NAME",
                        help="one note: 000..004, batch, soft-margin, a convention name or a seed file (default: all)")
    proofs.add_argument("--format", choices=("text", "json", "markdown"), default="text")
    proofs.add_argument("--time-limit", type=_positive_seconds, default=None, metavar="SECONDS",
                        help="stop after about this long (exit code 3, nothing checked is reported)")
    proofs.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show which proof is being checked on stderr: by default only when stderr is a terminal; "
                        "--progress also when it is not, --no-progress never")


#: --width: the one width of the text report (`verify_perceptron.report._width`).
WIDTH_HELP = ("fit every line of the text report to N characters (default: the terminal's width, or COLUMNS, "
              "on a terminal; no limit in a file); --exact and JSON are never cut")
#: The widest --width taken.
MAX_WIDTH = 10_000


def _width(text: str) -> int:
    from .report._width import MIN_WIDTH

    value = _positive_int(text)
    if not MIN_WIDTH <= value <= MAX_WIDTH:
        raise argparse.ArgumentTypeError(f"{text} must be between {MIN_WIDTH} and {MAX_WIDTH}")
    return value


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} must be >= 1")
    return value


#: The longest time limit a timer is set for.
MAX_SECONDS = 1e9
#: The shortest: the monotonic clock counts nanoseconds, and a float of fewer seconds may round to 0.
MIN_SECONDS = Fraction(1, 10**9)


def _positive_seconds(text: str) -> float:
    """A number of seconds, decided exactly: ``1e-400`` is > 0 but shorter than any clock (and than a float)."""
    try:
        value = parse_rational(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text} must be > 0")
    if value > MAX_SECONDS:  # a timer cannot be set that far (the platform's time_t); leave the option out instead
        raise argparse.ArgumentTypeError(f"{text} must be at most {MAX_SECONDS:.0f} seconds (about 31 years)")
    if value < MIN_SECONDS:
        raise argparse.ArgumentTypeError(f"{text} is shorter than the clock measures: at least {float(MIN_SECONDS):g} s")
    return float(value)


def parse_separator(text: str) -> list[str]:
    """The values of ``--separator`` as typed (``-4,3,2``, ``[1/2 0 1]``), each checked to be a number.

    Examples
    --------
    >>> parse_separator("[-4, 3, 2]")
    ['-4', '3', '2']
    >>> parse_separator("1,x")
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.InvalidArgument: --separator: 'x' is not a number (integer, decimal, 1.5e-3 or p/q)
    """
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


def _check_paths(args: argparse.Namespace) -> None:
    named = [("DATA", getattr(args, "data", None)), ("-o", getattr(args, "output", None)),
             ("--trace", getattr(args, "trace", None)), ("--certificate", getattr(args, "certificate", None)),
             ("--coq", getattr(args, "coq", None))]
    for option, path in named:
        if path is not None and "\0" in path:
            raise InvalidArgument(f"{option} {path!r}: a file name cannot hold a NUL character")
        if path == "":
            raise InvalidArgument(f"{option} '': an empty file name")


def _check_source(args: argparse.Namespace) -> None:
    if args.example and args.data:
        raise InvalidArgument(f"give DATA ({args.data}) or --example {args.example}, not both")
    if args.example:
        for option, value in (("--label-column", args.label_column), ("--positive", args.positive)):
            if value is not None:
                raise InvalidArgument(f"{option} {value} applies to a data file, not to --example {args.example}")
        if args.index_column != "auto":
            raise InvalidArgument(f"--index-column {args.index_column} applies to a data file, not to --example "
                                  f"{args.example}")
    elif not args.data:
        raise InvalidArgument("DATA or --example NAME is required")

#: The report format an output file's name asks for, by its suffix in any case; any other name keeps the default.
FORMAT_OF_SUFFIX = {".txt": "text", ".json": "json", ".md": "markdown", ".html": "html", ".htm": "html",
                    ".xml": "junit"}
#: The formats each command with -o writes, its default first.
_FORMATS = {"verify": ("text", "json", "markdown", "html"), "check": ("text", "json", "junit")}
_NAMES = {"text": "text", "json": "JSON", "markdown": "Markdown", "html": "HTML", "junit": "JUnit XML"}


def format_from_name(output: str | None, given: str | None, *, command: str) -> str:
    """The report format of `command`: `given` (``--format``), else the one -o `output`'s name asks for, else text.

    A name that asks for another format than `given`, or for one the command
    does not write, is an `InvalidArgument` naming both (checked before the
    run). ``.xml`` (JUnit) is a name only `check` reads; to `verify` it is
    like any other name.

    Examples
    --------
    >>> format_from_name("report.HTML", None, command="verify"), format_from_name("r.out", None, command="verify")
    ('html', 'text')
    >>> format_from_name("r.json", "json", command="check"), format_from_name("r.xml", None, command="check")
    ('json', 'junit')
    >>> format_from_name("r.html", "text", command="verify")
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.InvalidArgument: --format text disagrees with -o r.html, an HTML file's name: drop one, or make them agree
    >>> format_from_name("r.md", None, command="check")
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.InvalidArgument: -o r.md is a Markdown file's name, but check writes text, json or junit: give --format or another name
    """
    formats = _FORMATS[command]
    suffix = None if output is None else os.path.splitext(output)[1].lower()
    named = FORMAT_OF_SUFFIX.get(suffix or "")
    if named == "junit" and "junit" not in formats:
        named = None  # .xml means JUnit only to a command that writes it
    if named is not None and given is not None and named != given:
        raise InvalidArgument(f"--format {given} disagrees with -o {output}, {_article(named)} {_NAMES[named]} "
                              "file's name: drop one, or make them agree")
    if named is not None and named not in formats:
        raise InvalidArgument(f"-o {output} is {_article(named)} {_NAMES[named]} file's name, but {command} writes "
                              f"{', '.join(formats[:-1])} or {formats[-1]}: give --format or another name")
    return given or named or formats[0]


def _article(name: str) -> str:
    return "an" if name == "html" else "a"  # "an HTML", "a JSON", "a Markdown"


def check_usage(args: argparse.Namespace) -> None:
    """Every combination of options `args` holds, checked before anything runs or is written.

    What needs the data (``--separator``'s length) or the file system (an
    output's folder) is checked as soon as those are known, still before the
    run. Raises `InvalidArgument` naming the option and its value.

    Examples
    --------
    >>> check_usage(build_parser().parse_args(["verify", "--example", "and", "--mode", "batch", "--averaged"]))
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.InvalidArgument: --averaged averages the presentations of an online run; drop --mode batch
    """
    _check_paths(args)
    if args.command in ("verify", "check"):
        args.format = format_from_name(args.output, args.format, command=args.command)
    if args.command not in ("verify", "bounds"):
        return
    _check_source(args)
    if args.separator is not None:
        parse_separator(args.separator)
    _check_certificates(args)
    if args.command == "bounds":
        get_convention(args.convention)
        return
    home = EXAMPLES[args.example][2] if args.example in EXAMPLES else "classic"
    check_settings(home if args.convention is None else args.convention, args.eta, args.mode, args.max_epochs)
    if args.averaged and args.mode != "online":
        raise InvalidArgument("--averaged averages the presentations of an online run; drop --mode batch")
