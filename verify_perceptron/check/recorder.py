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
from collections.abc import Sequence
from fractions import Fraction
from typing import Protocol

from ..notes.conventions import Convention
from ..data.dataset import Dataset
from ..data.exact_text import exact_text
from ..data.samples import signed_samples

__all__ = ["TraceRecorder", "TextSink"]


class TextSink(Protocol):
    """Where the lines go: a text file, `io.StringIO`, or any object with ``write(str)``."""

    def write(self, text: str, /) -> object: ...


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

    def observe(self, k: int, epoch: int, samples: Sequence[int], scores: Sequence[int]) -> None:
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
