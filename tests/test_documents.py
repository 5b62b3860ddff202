"""Markdown and HTML reports: every number is the JSON report's, the HTML stands alone, writes are atomic."""

from __future__ import annotations

import base64
from fractions import Fraction
import contextlib
import dataclasses
import io
import json
import os
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from verify_perceptron.report import files
from verify_perceptron.check.traces import check_trace
from verify_perceptron.pipeline import verify_run
from verify_perceptron.cli import main
from verify_perceptron.report.documents import figure_captions, render_html, render_markdown, write_atomically
from verify_perceptron.run.reference import train
from verify_perceptron.errors import InvalidArgument
from verify_perceptron.data.examples import example
from verify_perceptron.report.plots import PlottingUnavailable
from verify_perceptron.report.record import build_report
from verify_perceptron.report._readable import readable

Rows = list[list[str]]


def json_report(*arguments: str) -> dict[str, Any]:
    """What ``verify ... --format json`` prints, loaded back: the JSON report itself."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["verify", *arguments, "--format", "json"])
    return json.loads(out.getvalue())


@pytest.fixture(scope="module")
def and_json() -> dict[str, Any]:
    return json_report("--example", "and", "--compare")


class _Tables(HTMLParser):
    """``{table id: rows of cell texts}`` and the ``src`` of every image, from an HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, Rows] = {}
        self.images: dict[str, str] = {}
        self._table: str | None = None
        self._figure: str | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "table":
            self._table = a["id"] or ""
            self.tables[self._table] = []
        elif tag == "tr" and self._table:
            self.tables[self._table].append([])
        elif tag in ("td", "th") and self._table:
            self._cell = []
        elif tag == "figure":
            self._figure = a["id"]
        elif tag == "img" and self._figure:
            self.images[self._figure] = a["src"] or ""

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._table:
            self.tables[self._table][-1].append("".join(self._cell))
            self._cell = None
        elif tag == "table":
            self._table = None
        elif tag == "figure":
            self._figure = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def html_tables(page: str) -> _Tables:
    parser = _Tables()
    parser.feed(page)
    return parser


_MD_IDS = {("", "value"): "summary", ("", "invariant"): "invariants", ("", "note"): "bounds",
           ("note", "convention"): "comparison", ("k", "epoch"): "updates", ("epoch", "after update"): "epochs",
           ("sample", "λ_i"): "lambda"}


def markdown_tables(text: str) -> dict[str, Rows]:
    """Pipe tables, named by their header as the HTML names them; code spans and escapes undone."""
    tables: dict[str, Rows] = {}
    block: Rows = []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            cells = [re.sub(r"\\(.)", r"\1", c.strip("`")) for c in cells]
            if not set("".join(cells)) <= set("-:"):
                block.append(cells)
        elif block:
            tables[_MD_IDS[(block[0][0], block[0][1])]] = block
            block = []
    return tables


def check_numbers(tables: dict[str, Rows], exact: dict[str, Any]) -> None:
    """Every number the document shows against the JSON report's own, written by the one rule (docs/numbers.md)."""
    report = readable(exact)
    summary = {row[0]: row[1] for row in tables["summary"][1:]}
    assert summary["final weights"] == f"[{', '.join(report['coordinates'])}] = [{', '.join(report['final_weights'])}]"
    c = report["constants"]
    assert summary["constants"] == f"γ = {c['gamma']}, R² = {c['R_sq']}, β = {c['beta']}, ‖w*‖² = {c['ws_sq']}"
    assert summary["outcome"].startswith(f"{report['n_updates']} updates, {report['n_mistakes']} mistakes, "
                                         f"{report['n_epochs']} epochs")
    shown = [row[1:5] for row in tables["invariants"][1:]]
    assert shown == [[i["name"], str(i["n_checked"]), i["min_slack"] or "", "" if i["min_slack_at"] is None
                      else str(i["min_slack_at"])] for i in report["invariants"]]
    assert [(row[5], row[8]) for row in tables["bounds"][1:]] == [
        (b["value"], str(b["n_mistakes"])) for b in report["bounds"]]
    for row, b in zip(tables["bounds"][1:], report["bounds"]):  # √value encloses the bound's square root
        lo, hi = (Fraction(v) for v in row[7].strip("[]").split(", "))
        b = next(e for e in exact["bounds"] if e["convention"] == b["convention"])
        assert lo * lo <= Fraction(b["value"]) <= hi * hi and hi - lo < Fraction(1, 10**4), row[7]
    comparison = report["comparison"]
    separators = tables["comparison"][0][3:]
    for row in tables["comparison"][1:]:
        run = next(r for r in comparison["runs"] if r["convention"] == row[1])
        assert row[2] == str(run["n_updates"])
        for name, cell in zip(separators, row[3:]):
            entry = next(b for b in comparison["bounds"] if b["convention"] == row[1] and b["separator"] == name)
            assert cell == f"{entry['value']} ({entry['ratio']})"
    header, *rows = tables["updates"]
    assert [(row[0], row[4]) for row in rows] == [
        (str(u["k"]), f"[{', '.join(u['weights'])}]") for u in report["updates"]]
    column = {name: j for j, name in enumerate(header)}
    lower = [(int(row[0]), _frac(row[column["w_k·w*"]]) - _frac(row[column["N·a·γ"]])) for row in rows]
    upper = [(int(row[0]), _frac(row[column["N·a²·R²"]]) - _frac(row[column["‖w_k‖²"]])) for row in rows]
    for claim, slacks in (("lower-bound", lower), ("upper-bound", upper)):
        tightest = min(s for _, s in slacks)
        at = next(k for k, s in slacks if s == tightest)
        inv = next(i for i in exact["invariants"] if i["name"] == claim)
        assert (str(tightest), at) == (inv["min_slack"], inv["min_slack_at"])
    assert tables["epochs"][-1][2] == f"[{', '.join(report['final_weights'])}]"


def _frac(text: str) -> Any:
    from fractions import Fraction

    return Fraction(text)


def test_html_numbers_equal_the_json_reports(and_json: dict[str, Any]) -> None:
    page = render_html(and_json, data=example("and"), figures={})
    check_numbers(html_tables(page).tables, and_json)


def test_markdown_numbers_equal_the_json_reports(and_json: dict[str, Any]) -> None:
    text = render_markdown(and_json, data=example("and"), figures={"boundaries": "b.svg", "invariants": "i.svg"})
    check_numbers(markdown_tables(text), and_json)
    assert "![Decision boundaries, epoch by epoch](b.svg)" in text and "(i.svg)" in text


def test_html_for_and_shows_each_epochs_boundary_and_the_two_invariant_curves(and_json: dict[str, Any]) -> None:
    pytest.importorskip("matplotlib")
    page = render_html(and_json, data=example("and"))
    images = html_tables(page).images
    assert list(images) == ["fig-boundaries", "fig-invariants", "fig-bounds"]
    svg = {name: base64.b64decode(src.split(",", 1)[1]).decode("utf-8") for name, src in images.items()}
    for epoch, weights in ((1, "[0, 1, 1]"), (2, "[-1, 2, 1]"), (9, "[-4, 3, 2]")):
        assert f">epoch {epoch} (" in svg["fig-boundaries"] and f">[w0, w1, w2] = {weights}<" in svg["fig-boundaries"]
    assert ">mistake bound B = 87<" in svg["fig-invariants"]
    assert "stays above" in svg["fig-invariants"] and "stays below" in svg["fig-invariants"]
    assert ">18 mistakes<" in svg["fig-bounds"]


def test_html_stands_alone_without_script_or_network(and_json: dict[str, Any]) -> None:
    page = render_html(and_json, data=example("and"), figures={"invariants": "<svg xmlns='http://www.w3.org/2000/svg'/>"})
    assert page.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in page
    assert "<script" not in page.lower() and "<link" not in page.lower() and "@import" not in page
    outside = re.sub(r'src="data:image/svg\+xml;base64,[A-Za-z0-9+/=]+"', "", page)
    assert "http:" not in outside and "https:" not in outside and "src=" not in outside
    stack: list[str] = []
    void = {"meta", "img", "br", "hr", "link"}

    class Balance(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag not in void:
                stack.append(tag)

        def handle_endtag(self, tag: str) -> None:
            assert stack.pop() == tag

    Balance().feed(page)
    assert stack == []


def test_markdown_table_rows_keep_their_columns(and_json: dict[str, Any]) -> None:
    # Note 003's bound has |x^μ|: an unescaped pipe would split its cell.
    counts: list[int] = []
    for line in [*render_markdown(and_json, data=example("and")).splitlines(), ""]:
        if line.startswith("|"):
            counts.append(len(re.findall(r"(?<!\\)\|", line)))
        elif counts:
            assert len(set(counts)) == 1, counts
            counts = []


def test_every_table_row_has_as_many_cells_as_its_header(and_json: dict[str, Any]) -> None:
    for rows in markdown_tables(render_markdown(and_json, data=example("and"))).values():
        assert {len(row) for row in rows} == {len(rows[0])}
    for rows in html_tables(render_html(and_json, data=example("and"), figures={})).tables.values():
        assert {len(row) for row in rows} == {len(rows[0])}


def test_not_separable_shows_lambda_and_the_common_point() -> None:
    report = json_report("--example", "xor")
    text = render_markdown(report, data=example("xor"))
    tables = markdown_tables(text)
    assert tables["lambda"][1:] == [["0", "0.25", "-1 (0)"], ["1", "0.25", "+1 (1)"], ["2", "0.25", "+1 (1)"],
                                    ["3", "0.25", "-1 (0)"]]
    assert "`(0.5, 0.5)`" in text and "the updates of epoch 1 sum to zero" in text
    assert "NOT SEPARABLE (certified)" in text
    assert "`(1/2, 1/2)`" not in render_markdown(report)  # the point needs the samples


def test_batch_report_says_the_bound_is_proved_for_online_runs_only() -> None:
    report = json_report("--example", "modified-or", "--mode", "batch")
    text = render_markdown(report, data=example("modified-or"))
    assert "the note proves it for online runs only" in text
    assert "| `N·a·γ` |" not in text and "a²·R²·Σn²" in text
    assert "The notes prove no mistake bound for batch runs." in figure_captions(report)["invariants"]


def test_violation_is_shown_with_its_values() -> None:
    data = example("and")
    trace = train(data)
    updates = list(trace.updates)
    updates[4] = dataclasses.replace(updates[4], weights=(updates[4].weights[0] + 1, *updates[4].weights[1:]))
    tampered = dataclasses.replace(trace, updates=tuple(updates))
    report = build_report(data, tampered, check_trace(data, tampered))
    page = render_html(report, data=data, figures={})
    assert '<p class="verdict violated">' in page and '<td class="fail">FAIL</td>' in page
    assert "<strong>FAIL update-rule: </strong>" in page


def test_a_separator_that_does_not_separate_is_said_so_under_the_curves() -> None:
    report = json_report("--example", "and", "--separator=1,1,1")
    assert report["verdict"] == "violated"
    caption = figure_captions(report)["invariants"]
    assert caption.startswith("The separator given does not separate the data (γ <= 0), so only the upper invariant")


def test_truncated_report_says_how_many_updates_it_kept() -> None:
    data = example("and")
    report = build_report(data, *verify_run(data, keep_updates=5))
    assert report["updates_truncated"]
    text = render_markdown(report, data=data)
    assert "updates 1–5 and 9–18 of 18" in text  # the first ones kept, and the run's own last ones
    assert "| 18 | 8 | 1 | `0` | `[-4, 3, 2]` | 18 |" in text  # update 18, with the final weights


def test_long_update_lists_show_the_first_and_last_rows() -> None:
    data = example("and")
    report = build_report(data, *verify_run(data))
    rows = markdown_tables(render_markdown(report, max_updates=8))["updates"]
    assert [row[0] for row in rows[1:]] == ["1", "2", "3", "4", "…", "15", "16", "17", "18"]


def test_bad_arguments_are_named(and_json: dict[str, Any]) -> None:
    with pytest.raises(InvalidArgument, match="max_updates=0 must be >= 1"):
        render_markdown(and_json, max_updates=0)
    with pytest.raises(InvalidArgument, match="figures: pie not among boundaries"):
        render_html(and_json, figures={"pie": "<svg/>"})


def test_html_without_matplotlib_raises_unless_told_to_draw_nothing(
        and_json: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(PlottingUnavailable, match="pip install"):
        render_html(and_json, data=example("and"))
    assert "<figure" not in render_html(and_json, data=example("and"), figures={})


def test_title_description_and_command_are_shown(and_json: dict[str, Any]) -> None:
    page = render_html(and_json, figures={}, title="AND <3", description="Note 000's table.",
                       command="verify-perceptron verify --example and")
    assert "<title>AND &lt;3</title>" in page and "<h1>AND &lt;3</h1>" in page
    assert "<p>Reproduce with: <code>verify-perceptron verify --example and</code></p>" in page


# -- write_atomically -----------------------------------------------------------------------


def test_write_atomically_writes_and_replaces(tmp_path: Path) -> None:
    target = tmp_path / "report.html"
    write_atomically(target, "first\n")
    write_atomically(target, "second\n")
    write_atomically(tmp_path / "figure.png", b"\x89PNG")
    assert target.read_bytes() == b"second\n" and (tmp_path / "figure.png").read_bytes() == b"\x89PNG"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["figure.png", "report.html"]


def test_write_atomically_keeps_the_mode_of_the_file_it_replaces(tmp_path: Path) -> None:
    target = tmp_path / "report.md"
    target.write_text("old")
    os.chmod(target, 0o640)
    write_atomically(target, "new")
    assert (target.stat().st_mode & 0o777) == 0o640


@pytest.mark.parametrize("spelling", ["same", "relative", "link"])
def test_write_atomically_refuses_to_overwrite_an_input(tmp_path: Path, spelling: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data.csv"
    data.write_text("x,y\n1,1\n")
    target = {"same": data, "relative": Path("data.csv"), "link": tmp_path / "link.csv"}[spelling]
    if spelling == "link":
        target.symlink_to(data)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InvalidArgument, match="is an input file .*; it would be overwritten"):
        write_atomically(target, "report", forbidden=[str(data)])
    assert data.read_text() == "x,y\n1,1\n"


def test_write_atomically_names_a_directory_or_a_missing_one(tmp_path: Path) -> None:
    with pytest.raises(InvalidArgument, match="is a directory"):
        write_atomically(tmp_path, "x")
    with pytest.raises(InvalidArgument, match="the directory .*nowhere does not exist"):
        write_atomically(tmp_path / "nowhere" / "report.md", "x")


def test_write_atomically_leaves_the_old_file_and_no_debris_when_it_fails(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "report.md"
    target.write_text("old")

    def refuse(src: object, dst: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(files.os, "replace", refuse)
    with pytest.raises(InvalidArgument, match="cannot be written \\(Permission denied\\)"):
        write_atomically(target, "new")
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["report.md"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_write_atomically_refuses_a_fifo_or_a_device_and_leaves_it_be(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(InvalidArgument, match="pipe is a FIFO \\(named pipe\\), not a regular file"):
        write_atomically(fifo, "x")
    assert fifo.is_fifo() and [p.name for p in tmp_path.iterdir()] == ["pipe"]
    if os.path.exists("/dev/null"):
        with pytest.raises(InvalidArgument, match="/dev/null is a character device, not a regular file"):
            write_atomically("/dev/null", "x")


def test_write_atomically_writes_through_a_link_and_keeps_the_link(tmp_path: Path) -> None:
    real = tmp_path / "real.md"
    real.write_text("old")
    link = tmp_path / "link.md"
    link.symlink_to(real)
    write_atomically(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text() == "new" and sorted(p.name for p in tmp_path.iterdir()) == ["link.md", "real.md"]


def test_a_terminated_cli_removes_the_report_it_was_writing(tmp_path: Path) -> None:
    # SIGTERM while the report is written: the process ends through its exception path, and the
    # temporary file goes with it. A slow write is simulated by a sitecustomize that sleeps in fsync.
    import signal
    import subprocess
    import time

    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(
        "import os, pathlib, time\n"
        "_fsync = os.fsync\n"
        "def fsync(fd):\n"
        "    pathlib.Path(os.environ['VP_READY']).touch()\n"
        "    time.sleep(30)\n"
        "os.fsync = fsync\n")
    out = tmp_path / "out"
    out.mkdir()
    ready = tmp_path / "ready"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(hook), os.environ.get("PYTHONPATH", "")]),
           "VP_READY": str(ready)}
    process = subprocess.Popen([sys.executable, "-c", "from verify_perceptron.cli import run; run()",
                                "verify", "--example", "and", "--format", "json", "-o", str(out / "r.json")],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while not ready.exists() and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.02)
    assert ready.exists(), "the report was never written"
    assert [p.name for p in out.iterdir()] != []  # the temporary file is there while it is written
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=20) == 128 + signal.SIGTERM
    assert list(out.iterdir()) == []


def test_a_report_with_figures_says_why_there_is_no_boundary_figure_beyond_two_features() -> None:
    from verify_perceptron.data.dataset import Dataset
    from verify_perceptron.pipeline import verify_run
    from verify_perceptron.report.documents import render_markdown
    from verify_perceptron.report.record import build_report

    data = Dataset([[Fraction(v) for v in row] for row in [[1, 0, 2], [0, 1, 1], [-1, -1, 0]]], [1, 1, -1])
    report = build_report(data, *verify_run(data))
    with_figures = render_markdown(report, data=data, figures={"invariants": "f/invariants.svg"})
    assert "No decision-boundary figure" in with_figures and "these data have 3" in with_figures
    assert "No decision-boundary figure" not in render_markdown(report, data=data)  # no figures, nothing to explain
    projected = render_markdown(report, data=data, figures={"projection": "f/projection.svg"})
    assert "No decision-boundary figure" not in projected and "plane of w\\* and the final weights" in projected


def test_markdown_and_html_show_each_square_root_as_an_interval_that_contains_it() -> None:
    from fractions import Fraction

    data = example("and")
    trace = train(data, "classic")
    check = check_trace(data, trace)
    g = check.geometry
    assert g is not None
    squares = {"R": g.R_sq, "‖w\\*‖": g.ws_sq, "γ/‖w\\*‖": g.gamma ** 2 / g.ws_sq,
               "R·‖w\\*‖/γ": g.R_sq * g.ws_sq / g.gamma ** 2}
    report = build_report(data, trace, check)
    markdown = render_markdown(report, data=data, figures={})
    row = next(line for line in markdown.splitlines() if line.startswith("| square roots |"))
    for name, square in squares.items():
        found = re.search(re.escape(name) + r" ∈ \[([\d.]+), ([\d.]+)\]", row)
        assert found is not None, (name, row)
        lo, hi = (Fraction(v) for v in found.groups())
        assert lo * lo <= square <= hi * hi, name
    html = render_html(report, data=data, figures={})  # (a table row: drawing the figures took 2 s)
    assert "square roots</td><td>R ∈ [1.73205, 1.732051], ‖w*‖ ∈ [5.385164, 5.385165]" in html


def test_a_document_shortens_the_numbers_of_the_updates_it_lists_only(monkeypatch: pytest.MonkeyPatch) -> None:
    # The record keeps hundreds of updates; the table lists max_updates of them, and only those are written
    # for reading (each shortened number costs a rounding): the others are not handed to `readable`.
    from verify_perceptron.report import _sections

    data = example("and")  # 18 updates
    report = build_report(data, *verify_run(data))
    assert len(report["updates"]) > 12
    seen: list[int] = []
    original = _sections.readable

    def spy(value: Any) -> Any:
        if isinstance(value, dict) and "updates" in value:
            seen.append(len(value["updates"]) + len(value.get("last_updates") or []))
        return original(value)

    monkeypatch.setattr(_sections, "readable", spy)
    text = render_markdown(report, max_updates=6)
    assert seen == [6] and "updates 1–" in text
