"""Writes a run's every update as JSON Lines while it runs (``verify --trace FILE``).

One line per update, exact numbers as strings, in the convention's own
coordinates: ``{"k": 1, "epoch": 1, "samples": [0], "scores": ["0"],
"weights": ["-1", "0", "0"]}``. The recorder keeps one weight vector, so
memory does not grow with the run; the file does, which is what was asked.
The stream is anything with a ``write(str)``: the command line hands it a
file that is put in place only when the run has finished, and whose errors
(a full disk) name the file (`verify_perceptron.report.files.PendingFile`).
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Protocol

from ..notes.conventions import Convention
from ..data.dataset import Dataset
from ..data.samples import signed_samples

__all__ = ["TraceRecorder", "TextSink", "exact_text"]


class TextSink(Protocol):
    """Where the lines go: a text file, `io.StringIO`, or any object with ``write(str)``."""

    def write(self, text: str, /) -> object: ...


#: Digits of one piece of a long integer written in pieces, under Python's limit on int-to-str conversion (4,300).
_PIECE = 4000


def _digits(n: int) -> str:
    """`n` >= 0 in decimal, halved by powers of ten until each piece is under `_PIECE` digits."""
    if n < 10**_PIECE:
        return str(n)
    size = _PIECE
    while 10 ** (2 * size) <= n:
        size *= 2
    high, low = divmod(n, 10**size)
    return _digits(high) + _digits(low).rjust(size, "0")


def exact_text(value: Fraction) -> str:
    """``str(value)`` at any length: Python refuses to write an int of more than 4,300 digits in one piece.

    Examples
    --------
    >>> exact_text(Fraction(-3, 4))
    '-3/4'
    >>> text = exact_text(Fraction(10**5000 + 1, 7))
    >>> len(text), text[:3], text[-6:]
    (5003, '100', '0001/7')
    """
    try:
        return str(value)
    except ValueError:  # past the limit: written in pieces
        sign = "-" if value < 0 else ""
        denominator = "" if value.denominator == 1 else "/" + _digits(value.denominator)
        return sign + _digits(abs(value.numerator)) + denominator


class TraceRecorder:
    """An engine observer that writes each update to `stream` as one JSON line.

    Examples
    --------
    >>> import io
    >>> from verify_perceptron.notes.conventions import CONVENTIONS
    >>> from verify_perceptron.data.examples import example
    >>> from verify_perceptron.run import fast
    >>> out = io.StringIO()
    >>> data = example("and")
    >>> _ = fast.run(data, observer=TraceRecorder(out, data, CONVENTIONS["classic"], Fraction(1)))
    >>> out.getvalue().splitlines()[0]
    '{"k": 1, "epoch": 1, "samples": [0], "scores": ["0"], "weights": ["-1", "0", "0"]}'
    """

    def __init__(self, stream: TextSink, data: Dataset, conv: Convention, rate: Fraction) -> None:
        self.stream = stream
        self.a = conv.step_size(rate)
        self.L = data.denominator
        self.y = data.y
        self.Z = signed_samples(data, conv)
        self.W = [0] * self.Z.shape[1]
        self.n_written = 0

    def observe(self, k: int, epoch: int, samples: list[int], scores: list[int]) -> None:
        """Write update k: its samples, their scores w·x~ and the weights after it (true units)."""
        for j in samples:
            self.W = [w + int(z) for w, z in zip(self.W, self.Z[j].tolist())]
        a, L = self.a, self.L
        record = {
            "k": k,
            "epoch": epoch,
            "samples": list(samples),
            "scores": [exact_text(a * self.y[j] * Fraction(s) / (L * L)) for j, s in zip(samples, scores)],
            "weights": [exact_text(Fraction(a.numerator * w, a.denominator * L)) for w in self.W],
        }
        self.stream.write(json.dumps(record) + "\n")
        self.n_written += 1
