"""The JSON report's text is built without copies of itself or a string per entry of its long lists (issue 32).

`verify --format json` on 10^5 samples writes per-sample lists (mistakes
per sample, a Gordan certificate's values) of 10^5 entries. Encoded in one
shot, such a list held a string per entry and per separator before they were
joined (about 10x its text), and the whole report was put together by nested
concatenations holding several partial copies of its text at once: the
report's rendering was the whole process's peak at 10^5 x 10. The limit is
on `tracemalloc`'s peak during `render_json`, over the length of its text.
"""

from __future__ import annotations

import json
import tracemalloc
from typing import Any

import pytest

from verify_perceptron.report import record
from verify_perceptron.report.record import render_json

N = 100_000


def _report() -> dict[str, Any]:
    """A report's shape at 10^5 samples: long flat lists at the top and inside a nested object, short lines."""
    return {
        "verdict": "not-separable",
        "mistakes_per_sample": [(i * 7919) % 1013 for i in range(N)],
        "separability": {"separable": False, "certificate": {"kind": "gordan",
                                                              "values": [f"{i}/{N + 3}" for i in range(N)]}},
        "updates": [{"k": k, "sample": k % N, "weights": [str(k), f"-{k}/3", "7"]} for k in range(2_000)],
        "huge": [2**3000, 1],
    }


def _peak(work: Any) -> int:
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        work()
        return tracemalloc.get_traced_memory()[1] - start
    finally:
        tracemalloc.stop()


def test_long_lists_in_blocks_give_the_one_shot_text(monkeypatch: pytest.MonkeyPatch) -> None:
    report = _report()
    text = render_json(report)
    monkeypatch.setattr(record, "_BLOCK", 10 * N)  # every list encoded at once, as the standard library does
    assert text == render_json(report)
    assert json.loads(text) == report
    assert '"values": ["0/100003", "1/100003", ' in text and text.endswith("1]\n}\n")


def test_the_json_text_is_built_without_copies_of_itself() -> None:
    report = _report()
    text = render_json(report)
    peak = _peak(lambda: render_json(report)) / len(text)  # ASCII: a byte a character
    # the pieces and the text joined from them: 2.06x; the lists in one shot 2.72x, the nested concatenations 3.0x
    assert peak < 2.4, f"render_json's peak is {peak:.2f}x its text ({len(text)} characters)"


def test_a_long_line_read_twice_is_made_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # A Gordan certificate is both the report's "certificate" and its "separability"'s, the same dict: its line is
    # made once and written twice. Two other lists of the same length and one shape are each their own.
    report = _report()
    certificate = report["separability"]["certificate"]
    report = {"certificate": certificate, **report, "other": [(i * 31) % 977 for i in range(N)]}
    made: list[int] = []
    real_line = record._line

    def counted(value: Any) -> str:
        made.append(id(value))
        return real_line(value)

    monkeypatch.setattr(record, "_line", counted)
    text = render_json(report)
    assert made.count(id(certificate)) == 1 and json.loads(text) == report
    monkeypatch.setattr(record, "_long", lambda value: False)  # nothing kept: each line made where it is written
    assert render_json(report) == text
    assert made.count(id(certificate)) == 3
