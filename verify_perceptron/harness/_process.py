"""An implementation in any language, run as a process: each dataset written as CSV, the command run
under a time limit, its weights (and optionally its updates) read back exactly from the files it writes.

The protocol, for ``command_implementation("CMD {train} {out}")``:

- ``{train}`` is replaced by the path of a CSV file with one sample a line, no
  header: the features, then the label (in the encoding chosen with
  ``labels``). Float data are written as the shortest decimal that reads
  back as the same double (so ``strtod`` gets the exact value); exact data
  (``dtype="fraction"``) as ``p/q``.
- ``{out}`` is replaced by a path the command writes its weights to: one
  value a line, ``w1 ... wd`` then the bias ``b`` (d + 1 lines; the
  convention's own order with ``output="augmented"``), each a decimal or
  ``p/q``. Under ``dtype="float"`` a decimal is read as the double nearest to
  it (``%.17g`` round-trips); otherwise exactly.
- ``{updates}`` (optional) is replaced by a path for its updates as JSON
  Lines, one update a line: ``{"sample": i, "weights": [...]}``, the weights
  laid out as in ``{out}``; with it every update is checked.
- An empty ``{out}`` file means "not separable" (for ``detects_nonseparable``).

The command is split like a shell would (`shlex`) but run without one, in
the directory given (by default the one the check started in), in a
session of its own, so that a timeout ends it and everything it started.
Its standard output and error are kept for the report.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import tempfile
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..data.rationals import as_rational
from ..errors import InvalidArgument

#: The placeholders a command template may hold; ``{train}`` and ``{out}`` are required.
PLACEHOLDERS = ("train", "out", "updates")


class CommandFailed(Exception):
    """The command did not produce weights: it exited with an error, timed out, or wrote nothing readable."""


@dataclass(frozen=True)
class CommandImplementation:
    """A perceptron run as an external command (see this module's docstring for the protocol).

    Attributes
    ----------
    template : str
        The command line, with ``{train}``, ``{out}`` and optionally ``{updates}``.
    cwd : str
        The absolute directory it runs in.
    """

    template: str
    cwd: str

    @property
    def reports_updates(self) -> bool:
        """Whether the command is given an ``{updates}`` file to write."""
        return "{updates}" in self.template

    def run(self, X: Any, y: Any, *, dtype: str, timeout: float | None) -> tuple[Any, Any, str]:
        """Write the data, run the command, read its weights: ``(weights, updates or None, output)``.

        The weights are the raw values read (Fractions), None when it wrote an
        empty ``{out}`` (its signal of non-separable data). `CommandFailed`,
        with the output, when it failed.
        """
        with tempfile.TemporaryDirectory(prefix="verify-perceptron-") as folder:
            paths = {name: os.path.join(folder, f"{name}.{'csv' if name == 'train' else 'txt'}") for name in PLACEHOLDERS}
            paths["updates"] = os.path.join(folder, "updates.jsonl")
            with open(paths["train"], "w", encoding="utf-8") as handle:
                handle.write(_csv(X, y))
            argv = [part.format(**paths) for part in shlex.split(self.template)]
            output = _execute(argv, self.cwd, timeout)
            if not os.path.exists(paths["out"]):
                raise CommandFailed(f"wrote no weights file ({{out}})\n{output}")
            with open(paths["out"], encoding="utf-8") as handle:
                lines = [line.strip() for line in handle if line.strip()]
            if not lines:
                return None, None, output
            exact = dtype != "float"
            weights = [_number(text, exact, f"line {k} of its weights file") for k, text in enumerate(lines, 1)]
            updates = _updates(paths["updates"], exact) if self.reports_updates else None
            return weights, updates, output


def command_implementation(template: str, *, cwd: str | None = None) -> CommandImplementation:
    """An implementation in any language: `template` is its command line (``"./perceptron {train} {out}"``).

    Parameters
    ----------
    template : str
        The command, with ``{train}`` (the CSV it reads), ``{out}`` (where it
        writes its weights) and optionally ``{updates}`` (JSON Lines).
    cwd : str, optional
        The directory it runs in (default: the current one), kept as an absolute path.

    Examples
    --------
    >>> command_implementation("cat {train} {out}", cwd="/tmp").cwd
    '/tmp'
    >>> command_implementation("./fit {train}")
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.InvalidArgument: command='./fit {train}' must contain {out} (where it writes its weights)
    """
    if not isinstance(template, str) or not template.strip():
        raise InvalidArgument(f"command={template!r} must be a command line with {{train}} and {{out}}")
    try:
        parts = shlex.split(template)
    except ValueError as error:
        raise InvalidArgument(f"command={template!r} cannot be split into words: {error}") from None
    for name, what in (("train", "the CSV it reads"), ("out", "where it writes its weights")):
        if "{" + name + "}" not in template:
            raise InvalidArgument(f"command={template!r} must contain {{{name}}} ({what})")
    for part in parts:
        try:
            part.format(train="", out="", updates="")
        except (KeyError, IndexError, ValueError) as error:
            raise InvalidArgument(f"command={template!r}: unknown placeholder or stray brace in {part!r} ({error}); "
                                  "the placeholders are {train}, {out} and {updates}") from None
    folder = os.path.abspath(cwd if cwd is not None else os.getcwd())
    if not os.path.isdir(folder):
        raise InvalidArgument(f"cwd={cwd!r} is not a directory")
    program = parts[0]
    found = (os.path.isfile(os.path.join(folder, program)) if os.sep in program
             else shutil.which(program) is not None)
    if not found:
        raise InvalidArgument(f"command={template!r}: the program {program!r} is not found"
                              + (f" (from {folder})" if os.sep in program else " on PATH"))
    return CommandImplementation(template, folder)


def _csv(X: Any, y: Any) -> str:
    """One sample a line: the features, then the label; doubles as their shortest round-trip decimal."""
    lines = []
    for row, label in zip(X, y):
        cells = [repr(float(v)) if isinstance(v, float) or type(v).__name__.startswith("float") else str(v)
                 for v in row]
        lines.append(",".join([*cells, str(int(label))]))
    return "\n".join(lines) + "\n"


def _execute(argv: list[str], cwd: str, timeout: float | None) -> str:
    """Run `argv` in its own session; its output (stdout, then stderr); `CommandFailed` on error or timeout."""
    try:
        process = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, start_new_session=True)
    except OSError as error:
        raise CommandFailed(f"could not be started: {error.strerror or error} ({argv[0]!r})") from None
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill(process)
        out, err = process.communicate()
        raise CommandFailed(f"did not return within call_timeout={timeout} s\n{_joined(out, err)}") from None
    except BaseException:  # the harness's own alarm, or ^C: leave nothing running
        _kill(process)
        raise
    text = _joined(out, err)
    if process.returncode != 0:
        raise CommandFailed(f"exited with status {process.returncode}\n{text}")
    return text


def _kill(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        process.kill()


def _joined(out: bytes, err: bytes) -> str:
    parts = [b.decode("utf-8", "replace") for b in (out, err) if b]
    return "".join(p if p.endswith("\n") else p + "\n" for p in parts)


def _number(value: object, exact: bool, where: str) -> Fraction:
    """A weight as written: p/q exactly; a decimal exactly, or (float data) as the double nearest to it."""
    if isinstance(value, str) and not exact and "/" not in value:
        try:
            return as_rational(float(value), name=where)
        except ValueError as error:
            raise CommandFailed(f"{where}: {value!r} is not a number ({error})") from None
    try:
        return as_rational(value, name=where)
    except (ValueError, TypeError) as error:
        raise CommandFailed(f"{where}: {error}") from None


def _updates(path: str, exact: bool) -> list[tuple[int, list[Fraction]]]:
    """The JSON Lines updates file: ``(sample, weights)`` per line; `CommandFailed` naming a bad line."""
    if not os.path.exists(path):
        return []
    updates = []
    with open(path, encoding="utf-8") as handle:
        for k, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line, parse_float=str, parse_int=str)
                sample, weights = int(record["sample"]), record["weights"]
            except (ValueError, KeyError, TypeError) as error:
                raise CommandFailed(f"line {k} of its updates file is not {{\"sample\": i, \"weights\": [...]}}: "
                                    f"{line.strip()[:80]!r} ({type(error).__name__})") from None
            if not isinstance(weights, list):
                raise CommandFailed(f"line {k} of its updates file: weights {weights!r} is not a list")
            updates.append((sample, [_number(v, exact, f"update {k}'s weights") for v in weights]))
    return updates
