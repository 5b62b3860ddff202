"""`verify --format json` writes its report a block at a time, and gives the check's freed heap back (issue 32).

At 10^5 x 10 not separable the JSON text (2.2 MB, 4.4 MB as a str with one
character past Latin-1) was held whole, beside its pieces, then encoded: the
process's peak. `json_blocks` makes the same text a block of about 64 KiB at a
time, each written before the next is made. And the pages the check's
freed arrays left inside glibc's heap (1.5x the int64 data) are given back
before the separability decision and the report (`verify_perceptron.heap`).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from verify_perceptron import cli, heap
from verify_perceptron.report import record
from verify_perceptron.report.record import json_blocks, render_json
from verify_perceptron.report.visible import visible_json


def _report(n: int = 20_000) -> dict[str, Any]:
    """A report's shape: many short lines (updates), a long flat list, a huge integer, a character escaped."""
    return {
        "verdict": "not-separable \u2016w\u2016",
        "updates": [{"k": k, "sample": k % 97, "weights": [str(k), f"-{k}/3", "7"]} for k in range(n)],
        "mistakes_per_sample": [(i * 7919) % 1013 for i in range(n)],
        "huge": [2**3000, 1],
        "label": "a\x85b",
        "empty": {"list": [], "object": {}},
    }


def test_the_blocks_are_the_text() -> None:
    report = _report(3_000)
    text = render_json(report)
    for size in (1, 100, 2**16, 10**9):
        blocks = list(json_blocks(report, size))
        assert "".join(blocks) == text
        assert all(len(block) >= size for block in blocks[:-1])
    assert json.loads(text)["updates"][2999] == report["updates"][2999]
    # (escaped a block at a time: each escape is of one character, so the blocks' escapes are the text's)
    assert "".join(map(visible_json, json_blocks(report, 7))) == visible_json(text)


def test_the_blocks_are_made_as_they_are_read() -> None:
    # The traced peak of writing the blocks away is a small part of the text (the whole text and its pieces
    # held were about twice its size).
    report = _report()
    text = render_json(report)
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        for block in json_blocks(report):
            block.encode("utf-8")
        peak = tracemalloc.get_traced_memory()[1] - start
    finally:
        tracemalloc.stop()
    assert peak < 0.5 * len(text), f"{peak} bytes traced for {len(text)} characters"  # (was over 2x: UCS-2)


def test_verify_writes_json_in_blocks_the_same_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.json"
    assert cli.main(["verify", "--example", "xor", "--format", "json", "-o", str(out)]) == 0
    assert cli.main(["verify", "--example", "xor", "--format", "json"]) == 0
    shown = capsys.readouterr().out
    assert out.read_bytes() == shown.encode("utf-8")

    def whole(*args: object) -> str:
        raise AssertionError("the whole JSON text was made")

    monkeypatch.setattr(cli, "render_json", whole)
    monkeypatch.setattr(record, "_BLOCK_CHARS", 50)  # many blocks, each written as made
    again = tmp_path / "again.json"
    assert cli.main(["verify", "--example", "xor", "--format", "json", "-o", str(again)]) == 0
    assert cli.main(["verify", "--example", "xor", "--format", "json"]) == 0
    assert again.read_bytes() == out.read_bytes() and capsys.readouterr().out == shown


def test_verify_gives_the_heap_back_after_the_check_and_after_the_decision(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    said: list[str] = []

    def told(name: str, function: Any) -> Any:
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            said.append(name)
            return function(*args, **kwargs)
        return wrapped

    for name in ("settle", "build_report"):
        monkeypatch.setattr(cli, name, told(name, getattr(cli, name)))
    monkeypatch.setattr(cli, "give_back", told("give_back", lambda: True))
    assert cli.main(["verify", "--example", "xor", "--format", "json", "-o", str(tmp_path / "r.json")]) == 0
    assert said == ["give_back", "settle", "give_back", "build_report"]


_FRAGMENTED = """
import numpy as np, os, sys
from verify_perceptron.heap import give_back
def rss():
    with open("/proc/self/statm") as h:
        return int(h.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
big = np.ones(2**21)  # 16 MiB mmapped, freed: glibc's mmap threshold rises past the arrays below
del big
arrays = [np.ones(2**17) for _ in range(40)]  # 40 arrays of 1 MiB, now in the heap
pin = np.ones(2**17)  # the heap's top stays in use: only malloc_trim gives the pages below it back
del arrays
before = rss()
print(give_back(), (before - rss()) / 2**20)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux") or heap._TRIM is None, reason="glibc's malloc_trim")
def test_freed_pages_inside_the_heap_are_given_back() -> None:
    done = subprocess.run([sys.executable, "-c", _FRAGMENTED], capture_output=True, text=True, check=True)
    asked, freed = done.stdout.split()
    assert asked == "True" and float(freed) > 30, done.stdout
