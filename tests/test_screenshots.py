"""Browser screenshots of the HTML report (benchmarks/screenshots.py): slow, and skipped without headless Chromium."""

from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def test_screenshots_show_the_whole_run_and_decimal_inputs(tmp_path: Path) -> None:
    pytest.importorskip("sklearn")
    pytest.importorskip("matplotlib")
    from benchmarks import screenshots

    if screenshots.browser() is None:
        pytest.skip("no headless Chromium (apt-get install chromium)")
    pngs = screenshots.take(tmp_path)
    assert len(pngs) == 4
    for png in pngs:
        head = png.read_bytes()[:24]
        assert head[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", head[16:24]) == screenshots.WINDOW
        assert png.stat().st_size > 20_000  # a page, not a blank window
    cancer = (tmp_path / "breast-cancer-200-epochs.html").read_text(encoding="utf-8")
    seen = re.sub(r"<[^>]*>", "", cancer)
    assert "all 11927 updates, thinned exactly" in seen and "updates 1–50 and 11918–11927 of 11927" in seen
    assert "6967.886" in seen and "3483943/500" not in cancer  # the final weights as decimals
    iris = re.sub(r"<[^>]*>", "", (tmp_path / "iris-setosa-versicolor.html").read_text(encoding="utf-8"))
    assert not re.search(r"(?<![\w.])-?\d+/\d+(?![\w/])", iris.replace("x~/", ""))  # no p/q anywhere
