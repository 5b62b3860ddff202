"""What a command writes, read: its weights file (``{out}``) and its updates file (``{updates}``), within
size limits, with the exact literal reader the data files use (`data.rationals`).

The same strings are numbers here as in a CSV file: ``-3``, ``0.1``,
``1.5e-3``, ``22/7``, in ASCII digits; ``1_0``, ``١`` (an Arabic-Indic one),
``inf`` and ``0x1p3`` are not. Under float data a decimal is then rounded to
the nearest double, as ``strtod`` reads it, so ``%.17g`` round-trips. Every
way a file can be wrong is a `CommandFailed` whose message names the file,
the line and the value.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from fractions import Fraction

from ..data.rationals import MAX_DIGITS, parse_rational, shown
from ._capture import MAX_UPDATES_BYTES, MAX_WEIGHTS_BYTES, Capped, Unreadable, read_regular
from ._options import MAX_REPORTED_UPDATES
from ._weights_text import Named, weight_tokens
from ._wording import _short


#: Why a command that ended well gave no weights, when it wrote no ``{out}`` at all.
NO_WEIGHTS_FILE = "wrote no weights file ({out})"


class CommandFailed(Exception):
    """The command gave no weights to judge: why (`reason`), and what it printed (`output`).

    `late` is set when it did not end in the time it had.
    """

    def __init__(self, reason: str, output: Capped | None = None, *, late: bool = False) -> None:
        super().__init__(reason)
        self.reason, self.output, self.late = reason, output or Capped(), late


def read_weights(path: str, n_features: int, exact: bool) -> list[Fraction] | tuple[list[Fraction], Fraction] | None:
    """The weights file: d + 1 values, as programs print a vector (`_weights_text`: one a line or several on a
    line apart by spaces, tabs, commas or semicolons, brackets aside; NumPy's ``[ 0.5 -1.  2. ]``, a JSON array,
    R's ``[1] 0.5 -1 2``, a list of ``np.float64(0.5)`` or ``Fraction(1, 2)``), blank lines aside; the pair
    ``(w, b)`` when the file names them (``{"w": [...], "b": ...}``, ``weights: ...`` then ``bias: ...``); None
    when it is empty (not separable).

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "out.txt")
    ...     _ = open(path, "w").write("0.1\\n-2/3\\n")
    ...     read_weights(path, 1, exact=True)
    [Fraction(1, 10), Fraction(-2, 3)]
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "out.txt")
    ...     _ = open(path, "w").write("[ 0.5 -1.  ]\\n2\\n")
    ...     read_weights(path, 2, exact=True)
    [Fraction(1, 2), Fraction(-1, 1), Fraction(2, 1)]
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "out.json")
    ...     _ = open(path, "w").write('{"bias": -1, "weights": [0.5]}')
    ...     read_weights(path, 1, exact=True)
    ([Fraction(1, 2)], Fraction(-1, 1))
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "out.txt")
    ...     _ = open(path, "w").write("1_0\\n0\\n")
    ...     read_weights(path, 1, exact=False)
    Traceback (most recent call last):
    ...
    verify_perceptron.harness._protocol.CommandFailed: line 1 of its weights file: '1_0' is not a number (integer, decimal, 1.5e-3 or p/q)
    """
    text = _text(_file(path, "its weights file ({out})", MAX_WEIGHTS_BYTES), "its weights file ({out})")
    if text is None:
        raise CommandFailed(NO_WEIGHTS_FILE)
    return _weights_in(text, n_features, exact)


#: MATLAB's and Octave's common scale factor line above a vector's values (``   1.0e+03 *``).
_SCALE_FACTOR = re.compile(r"\s*[+-]?\d+(?:\.\d+)?[eE][+-]?\d+\s*\*\s*")
#: The most lines at the end of what a program printed that are tried as its weights (`trailing_weights`).
TRAILING_LINES = 64


def trailing_weights(path: str, n_features: int,
                     exact: bool) -> tuple[list[Fraction] | tuple[list[Fraction], Fraction], int] | None:
    """The weights a program printed last, after a log (``Epoch 1: 3 errors``, ``Converged after 4 epochs``) and
    before words (``converged``, ``Done.``): the fewest last lines of standard output, past the words, that read
    as its weights (`read_weights`' forms), or the last of lines that each read as a weight vector (printed after
    every epoch), and the number of lines before them passed over; None where no such lines do (or the whole
    output is none).

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "out.txt")
    ...     _ = open(path, "w").write("Epoch 1: 2 errors\\nEpoch 2: 0 errors\\nw: [0.5]\\nb: -1\\n")
    ...     trailing_weights(path, 1, exact=True)
    (([Fraction(1, 2)], Fraction(-1, 1)), 2)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "out.txt")
    ...     _ = open(path, "w").write("[0.5, -1.0]\\nconverged after 2 epochs\\n")
    ...     trailing_weights(path, 1, exact=True)
    ([Fraction(1, 2), Fraction(-1, 1)], 0)
    >>> with tempfile.TemporaryDirectory() as folder:  # the weights after every epoch: the last line
    ...     path = os.path.join(folder, "out.txt")
    ...     _ = open(path, "w").write("1 0\\n1 1\\n2 1\\n")
    ...     trailing_weights(path, 1, exact=True)
    ([Fraction(2, 1), Fraction(1, 1)], 2)
    """
    try:
        text = _text(_file(path, "its standard output", MAX_WEIGHTS_BYTES), "its standard output")
    except CommandFailed:
        return None
    lines = [line for line in (text or "").splitlines() if line.strip()]
    scale = next((line for line in lines if _SCALE_FACTOR.fullmatch(line)), None)
    if scale is not None:  # the values printed below it are the weights over it: no line reads as the weights
        raise CommandFailed(f"its standard output holds {shown(scale.strip())}, the common scale factor MATLAB and "
                            "Octave print above a vector whose values are shown divided by it, rounded short: "
                            "print every weight in full (fprintf('%.17g\\n', w))")
    after = 0  # then words printed after the weights (``converged``, ``Done.``) passed over, one line more each time
    while True:
        kept = lines[:len(lines) - after]
        found = _last_weights(kept, n_features, exact, whole=after > 0) or _each_line(kept, n_features, exact)
        if found is not None:
            return found
        if after >= min(len(lines) - 1, TRAILING_LINES) or not _is_log(lines[-after - 1], exact):
            return None
        after += 1


def _each_line(lines: list[str], n_features: int,
               exact: bool) -> tuple[list[Fraction] | tuple[list[Fraction], Fraction], int] | None:
    """The last of two or more lines after the last log line that each read as a whole weight vector of the same
    form (the weights printed after every epoch), and the number of lines before it; else None."""
    start = next((i + 1 for i in range(len(lines) - 1, -1, -1) if _is_log(lines[i], exact)), 0)
    if len(lines) - start < 2 or len(lines) - start > MAX_EACH_LINE:
        return None
    read = []
    for line in lines[start:]:
        try:
            found = _weights_in(line, n_features, exact)
        except CommandFailed:
            return None
        if found is None:
            return None
        read.append(found)
    if len({type(r) for r in read}) != 1:
        return None
    return read[-1], len(lines) - 1


#: The most lines of weights, one vector a line, that `_each_line` reads through for the last.
MAX_EACH_LINE = 100_000


def _last_weights(lines: list[str], n_features: int, exact: bool,
                  whole: bool) -> tuple[list[Fraction] | tuple[list[Fraction], Fraction], int] | None:
    """`trailing_weights` of these lines: the fewest last ones after a log line that read as weights (all of them
    too, with `whole`), and the number before them."""
    for k in range(1, min(len(lines), TRAILING_LINES) + 1):
        if k == len(lines) and not whole:  # the whole output: `read_weights` did not read it
            break
        if k < len(lines) and not _is_log(lines[-k - 1], exact):  # numbers just before: part of the weights
            continue
        try:
            found = _weights_in("\n".join(lines[-k:]), n_features, exact)
        except CommandFailed:
            continue
        if found is not None:
            return found, len(lines) - k
    return None


def _is_log(line: str, exact: bool) -> bool:
    """Whether a line is words (a log line), not values alone: it holds a letter and does not read as values (or
    holds none: ``converged``)."""
    if not re.search(r"[A-Za-z]", line):
        return False
    try:
        tokens = weight_tokens(line)
        if isinstance(tokens, Named):
            return False
        if not tokens:
            return True
        [number(value, exact, "") for _, value in tokens]
    except (CommandFailed, ValueError):
        return True
    return False


def _weights_in(text: str, n_features: int, exact: bool) -> list[Fraction] | tuple[list[Fraction], Fraction] | None:
    """`read_weights` of the text a weights file holds."""
    tokens = weight_tokens(text)
    if isinstance(tokens, Named):
        if len(tokens.weights) != n_features:
            raise CommandFailed(f"named {len(tokens.weights)} weight{'s' * (len(tokens.weights) != 1)} in its "
                                f"weights file; {n_features} needed, w1{_up_to(n_features)}, and the bias apart")
        weights = [_value(token, exact) for token in tokens.weights]
        return weights, _value(tokens.bias, exact)
    if not tokens:
        return None
    values = [_value(token, exact) for token in tokens]  # a word is named before the values are counted
    if len(values) != n_features + 1:
        raise CommandFailed(f"wrote {len(values)} value{'s' * (len(values) != 1)} to its weights file; "
                            f"{n_features + 1} needed: w1{_up_to(n_features)}, then the bias")
    return values


def _up_to(n_features: int) -> str:
    return f" ... w{n_features}" if n_features > 2 else ", w2" if n_features == 2 else ""


def _value(token: tuple[int, str], exact: bool) -> Fraction:
    line, value = token
    return number(value, exact, f"line {line} of its weights file")


def read_updates(path: str, n_features: int, exact: bool,
                 limit: int = MAX_REPORTED_UPDATES) -> tuple[list[tuple[int, list[Fraction]]], bool]:
    """The updates file, JSON Lines ``{"sample": i, "weights": [...]}``: ``(sample, values)`` per update, and
    whether there were more than `limit` (only the first are read). No file: no updates.

    JSON numbers are read as their text, exactly (never through a float); a
    sample index must be a JSON integer, a weight a JSON number or a string
    holding a literal (``"1/3"``). A line longer than an update of d + 1
    values of `MAX_DIGITS` digits can be is refused before it is parsed.
    """
    text = _file(path, "its updates file ({updates})", MAX_UPDATES_BYTES)
    updates: list[tuple[int, list[Fraction]]] = []
    if text is None:
        return updates, False
    longest = (n_features + 1) * (4 * MAX_DIGITS + 8) + 256
    for k, line in _lines(text):
        if not line.strip():
            continue
        if len(updates) >= limit:
            return updates, True
        where = f"line {k} of its updates file"
        if len(line) > longest:
            raise CommandFailed(f"{where} is {len(line)} bytes long; an update of {n_features + 1} values takes "
                                f"at most {longest}")
        updates.append(_update(_text(line, where) or "", n_features, exact, where))
    return updates, False


class _JsonInteger(str):
    """A JSON integer's text, kept as written."""


class _JsonNumber(str):
    """A JSON number's text (a fraction or an exponent), kept as written."""


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} is not a finite number")


def _update(line: str, n_features: int, exact: bool, where: str) -> tuple[int, list[Fraction]]:
    form = '{"sample": i, "weights": [...]}'
    try:
        record = json.loads(line, parse_int=_JsonInteger, parse_float=_JsonNumber, parse_constant=_refuse_constant)
    except RecursionError:
        raise CommandFailed(f"{where} is nested too deeply to be {form}") from None
    except ValueError as error:
        raise CommandFailed(f"{where} is not {form}: {shown(line.strip())} ({str(error)[:80]})") from None
    if not isinstance(record, dict) or "sample" not in record or "weights" not in record:
        raise CommandFailed(f"{where} is not {form}: {shown(line.strip())}")
    sample, weights = record["sample"], record["weights"]
    if not isinstance(sample, _JsonInteger):
        raise CommandFailed(f"{where}: sample {_short(sample)} is not a JSON integer")
    if not isinstance(weights, list):
        raise CommandFailed(f"{where}: weights {_short(weights)} is not a list")
    index = int(number(sample, True, f"{where}: sample"))
    return index, [number(v, exact, f"{where}: weight {j + 1}") for j, v in enumerate(weights)]


#: A hexadecimal floating-point literal, as C's ``%a``, Python's ``float.hex`` and Java's ``Double.toHexString``
#: write a double exactly: sign, hex digits with an optional point, and a binary exponent.
_HEX_FLOAT = re.compile(r"([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?\d{1,6})")
#: The largest binary exponent accepted in one (the doubles' range is 2^-1074 to 2^1024).
_HEX_EXPONENT = 1100


def _hex_float(text: str) -> Fraction | None:
    """The exact value of a hexadecimal floating-point literal (``0x1.8p-3`` is 3/16), or None where `text` is
    none; a `ValueError` naming it where its exponent or its digits are past what any double needs.

    Examples
    --------
    >>> _hex_float("0x1.999999999999ap-4") == Fraction.from_float(0.1), _hex_float("-0x0p+0"), _hex_float("0.1")
    (True, Fraction(0, 1), None)
    """
    found = _HEX_FLOAT.fullmatch(text.strip())
    if found is None or not (found.group(2) or found.group(3)):
        return None
    sign, whole, fraction, exponent = found.groups()
    fraction = fraction or ""
    if len(whole) + len(fraction) > MAX_DIGITS or abs(int(exponent)) > _HEX_EXPONENT:
        raise ValueError(f"{shown(text.strip())} has more digits or a larger exponent than a double has")
    value = Fraction(int(whole + fraction or "0", 16)) * Fraction(2) ** (int(exponent) - 4 * len(fraction))
    return -value if sign == "-" else value


def number(value: object, exact: bool, where: str) -> Fraction:
    """A value as written: p/q exactly; a decimal exactly, or (float data) as the double nearest to it; a
    hexadecimal float (``0x1.999999999999ap-4``, C's ``%a``) exactly.

    Examples
    --------
    >>> number("0.1", True, "w"), number("0.1", False, "w") == Fraction.from_float(0.1)
    (Fraction(1, 10), True)
    >>> number("0x1.8p-3", False, "w")
    Fraction(3, 16)
    >>> number("١", False, "w")
    Traceback (most recent call last):
    ...
    verify_perceptron.harness._protocol.CommandFailed: w: '١' is not a number (integer, decimal, 1.5e-3 or p/q)
    """
    if not isinstance(value, str):
        raise CommandFailed(f"{where}: {_short(value)} is not a number")
    if value.strip() in ("...", "…"):
        raise CommandFailed(f"{where}: {shown(value.strip())} stands for weights left out: NumPy prints an array of more "
                            "than 1000 values (or more than np.set_printoptions(threshold=...) allows) as its first and "
                            "last three, '...' between; print every one: print(w.tolist()), or "
                            "np.set_printoptions(threshold=sys.maxsize) before print(w)")
    try:
        hexadecimal = _hex_float(value)
        if hexadecimal is not None:
            return hexadecimal
        exact_value = parse_rational(value)
    except ValueError as error:
        raise CommandFailed(f"{where}: {error}") from None
    if exact or "/" in value:
        return exact_value
    try:  # Fraction to float rounds correctly (an integer division), as strtod does
        return Fraction.from_float(float(exact_value))
    except OverflowError:
        raise CommandFailed(f"{where}: {shown(value.strip())} is beyond the largest double") from None


def _file(path: str, what: str, limit: int) -> bytes | None:
    try:
        return read_regular(path, limit)
    except Unreadable as error:
        raise CommandFailed(f"{what} {error}") from None


def _text(data: bytes | None, what: str) -> str | None:
    """UTF-8 text (a byte-order mark dropped, as the CSV reader does); `CommandFailed` at the first bad byte."""
    if data is None:
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise CommandFailed(f"{what} is not UTF-8 text (byte 0x{data[error.start]:02x} at offset {error.start})") from None


_NEWLINE = re.compile(b"\n")


def _lines(data: bytes) -> Iterator[tuple[int, bytes]]:
    """The lines of `data` with their numbers, one at a time (a file of newlines makes no list of them)."""
    start = k = 0
    for k, match in enumerate(_NEWLINE.finditer(data), start=1):
        yield k, data[start:match.start()]
        start = match.end()
    if start < len(data):
        yield k + 1, data[start:]
