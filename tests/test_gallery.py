"""The reports/ gallery is generated: it must be exactly what `python -m verify_perceptron.gallery` writes."""

from __future__ import annotations

import base64
import contextlib
import io
import json
import re
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sklearn")

from verify_perceptron import gallery  # noqa: E402
from verify_perceptron.cli import main  # noqa: E402
from verify_perceptron.data.dataset import Dataset  # noqa: E402
from verify_perceptron.data.readers import load_dataset  # noqa: E402
from verify_perceptron.errors import InvalidArgument  # noqa: E402
from verify_perceptron.data.examples import example  # noqa: E402
from verify_perceptron.report._readable import readable  # noqa: E402
from verify_perceptron.gallery import ENTRIES, GENERATED_BY, gallery_files, iris_csv  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
REPORTS = REPO / "reports"
STALE = f"stale: run `{GENERATED_BY}` from the repository root"
_IMAGE = re.compile(r"data:image/svg\+xml;base64,[A-Za-z0-9+/=]*")


@pytest.fixture(scope="module")
def regenerated_text() -> dict[str, str]:
    return gallery_files(draw=False)


def committed(name: str) -> str:
    return (REPORTS / name).read_text(encoding="utf-8")


def entry_inputs(entry: gallery.GalleryEntry) -> tuple[dict[str, Any], Dataset]:
    """The committed JSON report of an entry and the data it is about."""
    report = json.loads(committed(f"{entry.name}.json"))
    if entry.data_file is None:
        return report, example(entry.arguments[1])
    positive = entry.arguments[entry.arguments.index("--positive") + 1]
    return report, load_dataset(str(REPORTS / "data" / entry.data_file), positive=positive)


def test_gallery_holds_exactly_the_generated_files(regenerated_text: dict[str, str]) -> None:
    on_disk = sorted(p.relative_to(REPORTS).as_posix() for p in REPORTS.rglob("*") if p.is_file())
    assert on_disk == sorted(regenerated_text), STALE


def test_committed_text_is_what_the_generator_writes(regenerated_text: dict[str, str]) -> None:
    # Markdown, JSON, CSV and the index exactly; the HTML pages with their images left out (next tests).
    for name, text in regenerated_text.items():
        if name.endswith(".svg"):
            continue
        old = committed(name)
        if name.endswith(".html"):
            old, text = _IMAGE.sub("data:image/svg+xml;base64,", old), _IMAGE.sub("data:image/svg+xml;base64,", text)
        assert old == text, f"reports/{name} is {STALE}"


def test_html_pages_embed_the_committed_figures() -> None:
    for page in sorted(REPORTS.glob("*.html")):
        images = re.findall(r'<figure id="fig-(\w+)">\n<img src="data:image/svg\+xml;base64,([^"]+)"', page.read_text())
        assert images, page.name
        for name, encoded in images:
            assert base64.b64decode(encoded).decode("utf-8") == committed(f"figures/{page.stem}-{name}.svg"), page.name


def _drawing(svg: str) -> tuple[str | None, str | None, list[str]]:
    """What a drawing says: its size and every piece of text in it, in order (the ink may differ a little)."""
    root = ET.fromstring(svg)
    texts = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    return root.get("width"), root.get("height"), texts


@pytest.mark.slow  # (every figure drawn again: 6 s; the pages' own tests below run by default)
def test_committed_figures_say_what_a_fresh_drawing_says() -> None:
    pytest.importorskip("matplotlib")
    from verify_perceptron.report.plots import available_figures, draw_figure, figure_svg

    for entry in ENTRIES:
        report, data = entry_inputs(entry)
        for name in available_figures(report, data):
            old = committed(f"figures/{entry.name}-{name}.svg")
            assert "<dc:date>" not in old
            assert _drawing(old) == _drawing(figure_svg(draw_figure(name, report, data))), f"{entry.name}-{name}: {STALE}"


def test_and_page_shows_every_epochs_boundary_and_both_invariant_curves() -> None:
    page = committed("and.html")
    report = json.loads(committed("and.json"))
    boundaries = _drawing(committed("figures/and-boundaries.svg"))[2]
    for epoch in range(1, report["n_epochs"] + 1):
        assert any(t.startswith(f"epoch {epoch} (") for t in boundaries)
    assert "[w0, w1, w2] = [-4, 3, 2]" in boundaries  # note 000's final weights
    invariants = _drawing(committed("figures/and-invariants.svg"))[2]  # (formulas are drawn glyph by glyph)
    for text in ("tightest: slack 3 at k = 1", "tightest: slack 2 at k = 1", "mistake bound B = 87", "this run: N = 18"):
        assert text in invariants
    assert '<figure id="fig-boundaries">' in page and '<figure id="fig-invariants">' in page


def test_each_page_shows_its_json_reports_numbers() -> None:
    for entry in ENTRIES:
        report = readable(json.loads(committed(f"{entry.name}.json")))  # written by docs/numbers.md's rule
        page, text = committed(f"{entry.name}.html"), committed(f"{entry.name}.md")
        page = re.sub(r'<span class="approx" title="[^"]*">([^<]*)</span>', r"\1", page)  # the tooltips
        for inv in report["invariants"]:
            if inv["min_slack"] is not None:
                n, slack = inv["n_checked"], inv["min_slack"]
                assert f'<td><code>{inv["name"]}</code></td><td class="r">{n}</td><td class="r"><code>{slack}</code>' in page
                assert f"| `{inv['name']}` | {n} | `{slack}` |" in text
        final = f"[{', '.join(report['coordinates'])}] = [{', '.join(report['final_weights'])}]"
        assert final in page and final in text


def test_gallery_json_is_what_the_command_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)  # the iris entries name their file from the repository root
    for entry in ENTRIES:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            main(["verify", *entry.arguments, "--format", "json"])
        assert out.getvalue() == committed(f"{entry.name}.json"), entry.name


def test_iris_is_read_as_its_printed_decimals() -> None:
    data = load_dataset(str(REPORTS / "data" / "iris-setosa-versicolor.csv"), positive="versicolor")
    assert data.n_samples == 100 and data.labels == ("setosa", "versicolor") and not data.binary_float
    assert data.X[0] == (Fraction(7, 5), Fraction(1, 5))  # 1.4 cm, 0.2 cm
    assert iris_csv("setosa", "versicolor") == committed("data/iris-setosa-versicolor.csv")
    with pytest.raises(InvalidArgument, match="species='rose' is not one of setosa, versicolor, virginica"):
        iris_csv("rose", "setosa")


def test_write_gallery_writes_every_file_in_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gallery, "gallery_files", lambda: {"README.md": "# g\n", "figures/a.svg": "<svg/>"})
    written = gallery.write_gallery(tmp_path)
    assert written == [tmp_path / "README.md", tmp_path / "figures" / "a.svg"]
    assert (tmp_path / "figures" / "a.svg").read_text() == "<svg/>"
    with pytest.raises(InvalidArgument, match="expected at most one directory"):
        gallery._main(["a", "b"])
