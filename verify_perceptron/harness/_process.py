"""An implementation in any language, run as a process: each dataset written as CSV, the command run
under a time limit and a keeper, its weights (and optionally its updates) read back exactly from the
files it writes.

The protocol, for ``command_implementation("CMD {train} {out}")``:

- ``{train}`` is replaced by the path of a CSV file with one sample a line, no
  header (with ``header=True`` a first line ``x1,...,xd,y`` names the columns, for a
  program that reads it as pandas' ``read_csv`` and R's ``read.csv`` do by default): the features, then the
  label (in the encoding chosen with ``labels``: -1/1, 0/1, or the tokens of a pair such as ``labels="R/M"``, written
  as given; the label first with ``label_column="first"``). Float data are written as each double's exact decimal
  expansion (`double_decimal`: a double is a dyadic rational, so its expansion
  is finite), so a program that reads decimals exactly (``Fraction``, GMP)
  and one that reads doubles (``strtod``) read the same number; exact data
  (``dtype="fraction"``) as ``p/q``.
- ``{out}`` is replaced by a path the command writes its weights to: one
  value a line, ``w1 ... wd`` then the bias ``b`` (d + 1 lines; ``b`` first
  with ``bias="first"``, the convention's own order with ``bias="convention"``
  or ``output="augmented"``; or named, ``{"w": [...], "b": ...}`` or
  ``w: ...`` and ``b: ...``, read by name), each a literal the data
  files accept (a decimal or ``p/q``: `_protocol`). Under ``dtype="float"`` a
  decimal is read as the double nearest to it (``%.17g`` round-trips);
  otherwise exactly.
- ``{updates}`` (optional) is replaced by a path for its updates as JSON
  Lines, one update a line: ``{"sample": i, "weights": [...]}``, the weights
  laid out as in ``{out}``; with it every update is checked.
- ``{n}`` and ``{d}`` (optional) are replaced by the numbers of samples and of
  features in ``{train}``, for a program that is told them on its command line
  (as C programs that size their arrays first are).
- Without ``{out}``, what the command prints on standard output is read as
  ``{out}`` would be (its standard error is what it printed, shown on a
  failure), as ``CMD {train} > {out}`` would write it.
- Without ``{train}``, the CSV file is its standard input, as ``CMD < {train}`` would give it (a script that
  reads ``sys.stdin``, ``<STDIN>``, ``Scanner(System.in)`` or ``readline``); with it, standard input is empty.
- An empty ``{out}`` file means "not separable" (for ``detects_nonseparable``).

The command is split like a shell would (`shlex`) but run without one, in
the directory given (by default the one the check started in), in a
session of its own under a keeper (`_keeper`): when it ends, or its time is
up, the keeper kills its process group and whatever it left running,
detached ones included (Linux). What it prints (standard output and error,
one pipe, in the order written) is read as it comes, a head and a tail kept
(`_capture`); its files are read only when they are regular files within
their size limits.
"""

from __future__ import annotations

import os
import shlex
import shutil
import tempfile
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..data.exact_text import exact_text
from ..data.rationals import shown_value
from ..errors import InvalidArgument
from ._capture import Capped
from ._keeper import FILE_CAP, CommandKeeper, Ending, describe_ending
from ._options import MAX_REPORTED_UPDATES
from ._protocol import NO_WEIGHTS_FILE, CommandFailed, read_updates, read_weights, trailing_weights

if TYPE_CHECKING:  # _implementation imports this module
    from ._implementation import Labels, Samples

#: The paths a command template may hold (without ``{train}`` the data are its standard input; without ``{out}``
#: the weights are printed).
PLACEHOLDERS = ("train", "out", "updates")
#: The sizes it may hold: the numbers of samples and of features in ``{train}``.
SIZES = ("n", "d")


@dataclass(frozen=True)
class CommandImplementation:
    """A perceptron run as an external command (see this module's docstring for the protocol).

    Attributes
    ----------
    template : str
        The command line, with ``{train}``, ``{out}`` and optionally ``{updates}``.
    cwd : str
        The absolute directory it runs in.
    label_column : {"last", "first"}
        Where each line of ``{train}`` holds the sample's label.
    header : bool
        Whether ``{train}`` starts with a line naming its columns (``x1,...,xd,y``).
    delimiter : str
        What stands between two values on a line of ``{train}``: ``,`` (CSV), ``" "`` or ``"\\t"``.
    """

    template: str
    cwd: str
    label_column: str = "last"
    header: bool = False
    delimiter: str = ","

    @property
    def writes_out(self) -> bool:
        """Whether the command writes its weights to ``{out}``; without it, what it prints on standard output is
        read as its weights (standard error is what it printed, shown on a failure)."""
        return "{out}" in self.template

    @property
    def reads_stdin(self) -> bool:
        """Whether the command reads the CSV on its standard input: its line does not name ``{train}``."""
        return "{train}" not in self.template

    @property
    def reports_updates(self) -> bool:
        """Whether the command is given an ``{updates}`` file to write."""
        return "{updates}" in self.template

    def run(self, X: Samples, y: Labels, *, dtype: str, timeout: float | None, max_updates: int = MAX_REPORTED_UPDATES,
            keeper: CommandKeeper | None = None
            ) -> tuple[list[Fraction] | tuple[list[Fraction], Fraction] | None, tuple[list[Any], bool] | None, Capped]:
        """Write the data, run the command, read its files: ``(weights, (updates, cut) or None, what it printed)``.

        The weights are the d + 1 values read (Fractions), or ``(w, b)`` when the
        file names them (`read_weights`), None when it wrote
        an empty ``{out}`` (its signal of non-separable data); the updates
        ``(sample, values)`` pairs, and whether more than `max_updates` were
        written (only those are read). `CommandFailed`, with the output, when it failed (``late``
        when `timeout` ran out). It runs under `keeper` (a check's, for all its calls), else under
        one of its own.
        """
        n_features = len(X[0])
        exact = dtype != "float"
        with tempfile.TemporaryDirectory(prefix="verify-perceptron-", ignore_cleanup_errors=True) as folder:
            paths = {name: os.path.join(folder, f"{name}.{'csv' if name == 'train' else 'txt'}") for name in PLACEHOLDERS}
            paths["updates"] = os.path.join(folder, "updates.jsonl")
            with open(paths["train"], "w", encoding="utf-8") as handle:
                handle.write(_csv(X, y, self.label_column == "first", self.header).replace(",", self.delimiter))
            argv = [part.format(**paths, n=len(X), d=n_features) for part in shlex.split(self.template)]
            output = Capped()
            runs = keeper or CommandKeeper()
            try:
                ending = runs.run(argv, self.cwd, timeout, output, stdout=None if self.writes_out else paths["out"],
                                  stdin=paths["train"] if self.reads_stdin else None)
            finally:
                if keeper is None:
                    runs.stop()
            if ending is None:
                raise CommandFailed("did not return in time", output, late=True)
            if not self.writes_out and os.path.isfile(paths["out"]) and os.path.getsize(paths["out"]) >= FILE_CAP:
                raise CommandFailed(f"printed {FILE_CAP - 1} bytes and more on standard output, where its weights "
                                    "were read, and was stopped there (the file size limit)", output)
            if ending != "exit 0":
                raise CommandFailed(_ended(ending, argv[0]), output)
            try:
                weights = _weights_read(paths["out"], n_features, exact, printed=not self.writes_out)
                updates = read_updates(paths["updates"], n_features, exact, max_updates) if self.reports_updates else None
            except CommandFailed as failure:
                reason = failure.reason
                if not self.writes_out:  # what it printed was read as its weights
                    reason = reason.replace("its weights file ({out})", "its standard output").replace(
                        "its weights file", "its standard output") + (
                        " (without {out} in the command, what it prints on standard output is read as its weights, "
                        "a log before them and words after them passed over: print the rest on standard error, or write the weights to "
                        "the file {out} names)")
                elif reason == NO_WEIGHTS_FILE and output.total:  # weights printed, as many programs do?
                    words = " ".join(w for w in shlex.split(self.template) if w != "{out}")
                    reason += (f" (it printed {output.total} bytes: a program that prints its weights on standard "
                               f"output can be checked as: sh -c '{words} > {{out}}')")
                raise CommandFailed(reason, output) from None
            return weights, (None if weights is None else updates), output


def _weights_read(path: str, n_features: int, exact: bool,
                  printed: bool) -> list[Fraction] | tuple[list[Fraction], Fraction] | None:
    """`read_weights`; where the file is what the command `printed` on standard output, a log before its weights
    and words after them passed over when the whole does not read (`trailing_weights`: what it printed last)."""
    try:
        return read_weights(path, n_features, exact)
    except CommandFailed:
        trailing = trailing_weights(path, n_features, exact) if printed else None
        if trailing is None:
            raise
        return trailing[0]


#: The delimiters a ``{train}`` file may be written with, by the names ``--delimiter`` takes.
DELIMITERS = {"comma": ",", "space": " ", "tab": "\t", "semicolon": ";"}


def command_implementation(template: str, *, cwd: str | None = None, label_column: str = "last",
                           header: bool = False, delimiter: str = ",") -> CommandImplementation:
    """An implementation in any language: `template` is its command line (``"./perceptron {train} {out}"``).

    Parameters
    ----------
    template : str
        The command, with ``{train}`` (the CSV it reads; without it, the CSV is
        its standard input), ``{out}`` (where it writes its weights; without it,
        what it prints on standard output is read as its weights) and optionally
        ``{updates}`` (JSON Lines).
    cwd : str, optional
        The directory it runs in (default: the current one), kept as an absolute path.
    label_column : {"last", "first"}
        Where each line of ``{train}`` holds the label: after the features (the default) or before them, for a
        program written for files laid out ``label,x1,...,xd``.
    header : bool
        Whether ``{train}`` starts with a header line, ``x1,...,xd,y`` (``y,x1,...,xd`` with the label first), for
        a program that reads its first line as the columns' names (pandas' ``read_csv``, R's ``read.csv``).
    delimiter : str
        Between two values of ``{train}``: ``","`` (the default), ``" "`` (for ``np.loadtxt(path)``, ``fscanf``,
        R's ``read.table``), ``"\\t"`` or ``";"`` (or their names, ``"space"``, ...).

    Examples
    --------
    >>> command_implementation("cat {train} {out}", cwd="/tmp").cwd
    '/tmp'
    >>> command_implementation("cat {train}", cwd="/tmp").writes_out
    False
    >>> command_implementation("cat", cwd="/tmp").reads_stdin  # the CSV on standard input, as `cat < {train}`
    True
    """
    if not isinstance(template, str) or not template.strip():
        raise InvalidArgument(f"command={shown_value(template)} must be a command line (with {{train}} and {{out}})")
    try:
        parts = shlex.split(template)
    except ValueError as error:
        raise InvalidArgument(f"command={shown_value(template)} cannot be split into words: {error}") from None
    if label_column not in ("last", "first"):
        raise InvalidArgument(f"label_column={shown_value(label_column)} must be 'last' or 'first'")
    if not isinstance(header, bool):
        raise InvalidArgument(f"header={shown_value(header)} must be True or False")
    delimiter = DELIMITERS.get(delimiter, delimiter) if isinstance(delimiter, str) else delimiter
    if delimiter not in DELIMITERS.values():
        raise InvalidArgument(f"delimiter={shown_value(delimiter)} must be one of {', '.join(DELIMITERS)} "
                              "(',', ' ', '\\t', ';')")
    for part in parts:
        try:
            part.format(**{name: "" for name in (*PLACEHOLDERS, *SIZES)})
        except (KeyError, IndexError, ValueError) as error:
            raise InvalidArgument(f"command={shown_value(template)}: unknown placeholder or stray brace in {part!r} ({error}); "
                                  "the placeholders are {train}, {out}, {updates}, {n} and {d}") from None
    folder = os.path.abspath(cwd if cwd is not None else os.getcwd())
    if not os.path.isdir(folder):
        raise InvalidArgument(f"cwd={shown_value(cwd)} is not a directory")
    program = parts[0]
    found = (os.path.isfile(os.path.join(folder, program)) if os.sep in program
             else shutil.which(program) is not None)
    if not found:
        raise InvalidArgument(f"command={shown_value(template)}: the program {program!r} is not found"
                              + (f" (from {folder})" if os.sep in program else " on PATH"))
    return CommandImplementation(template, folder, label_column, header, delimiter)


def _csv(X: Samples, y: Labels, label_first: bool = False, header: bool = False) -> str:
    """One sample a line: the features, then the label (the label first with `label_first`); doubles as their
    exact decimal expansion; first a line naming the columns with `header`.

    Examples
    --------
    >>> print(_csv([[0.5, 1.0]], [-1], header=True), end="")
    x1,x2,y
    0.5,1,-1
    >>> print(_csv([[0.5, 1.0]], [-1], label_first=True, header=True), end="")
    y,x1,x2
    -1,0.5,1
    >>> print(_csv([[0.5], [1.0]], ["R", "M"]), end="")
    0.5,R
    1,M
    """
    names = [f"x{j}" for j in range(1, len(X[0]) + 1)] if len(X) else []
    lines = [",".join(["y", *names] if label_first else [*names, "y"])] if header else []
    for row, label in zip(X, y):
        cells = [double_decimal(float(v)) if isinstance(v, float) or type(v).__name__.startswith("float")
                 else exact_text(v) for v in row]
        token = str(label) if isinstance(label, str) else str(int(label))  # a class's own token (``--labels R/M``)
        lines.append(",".join([token, *cells] if label_first else [*cells, token]))
    return "\n".join(lines) + "\n"


#: The most characters `double_decimal` writes: 767 significant digits (the most any double has, near
#: the least normal one), a sign, a point and an exponent of three digits with its sign.
MAX_DOUBLE_CHARACTERS = 767 + 1 + 1 + 5


def double_decimal(value: float) -> str:
    """The exact decimal expansion of a finite double, which reads back as that very double.

    A double is m·2^e with integers m and e; for e < 0 it is m·5^-e / 10^-e,
    a finite decimal. Written whole, ``Fraction(text)`` gives the double's
    exact value and ``strtod`` (or ``float``) the double itself, so an exact
    reader and a float reader see one number, where the shortest round-trip
    text (``repr``: ``0.1``) is another number to an exact reader. Every
    significant digit is kept; the form (positional or with an exponent) is
    the shorter one, so the text is at most `MAX_DOUBLE_CHARACTERS` long
    (the least positive double, 2^-1074, has 751 significant digits).

    Examples
    --------
    >>> double_decimal(0.1)
    '0.1000000000000000055511151231257827021181583404541015625'
    >>> double_decimal(-2.0), double_decimal(0.5), double_decimal(1e22), double_decimal(0.0)
    ('-2', '0.5', '1e+22', '0')
    >>> text = double_decimal(5e-324)
    >>> text[:12], text[-5:], len(text), float(text) == 5e-324
    ('4.9406564584', 'e-324', 757, True)
    """
    exact = Fraction(value)  # exact: numerator/2^k
    if exact == 0:
        return "0"
    k = exact.denominator.bit_length() - 1
    digits, exponent = abs(exact.numerator) * 5**k, -k  # |value| = digits·10^exponent
    text = str(digits)
    stripped = text.rstrip("0")
    exponent += len(text) - len(stripped)
    text = stripped
    sign = "-" if exact < 0 else ""
    if exponent >= 0:
        positional = text + "0" * exponent
    elif -exponent < len(text):
        positional = f"{text[:exponent]}.{text[exponent:]}"
    else:
        positional = "0." + "0" * (-exponent - len(text)) + text
    scientific = text[0] + ("." + text[1:] if len(text) > 1 else "") + f"e{exponent + len(text) - 1:+d}"
    return sign + (positional if len(positional) <= len(scientific) else scientific)


def _ended(ending: Ending, program: str) -> str:
    """Why a command that did not exit with status 0 gave no weights."""
    if ending.startswith("exit "):
        return f"exited with status {ending.split()[1]}"
    if ending.startswith("error "):
        return f"could not be started: {ending[6:]} ({program!r})"  # the keeper's words: the program's name follows
    return describe_ending(ending)
