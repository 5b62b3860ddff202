"""The proofs/ folder is generated, and every output format says the same thing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.checked_proofs import KEYS, REPORTS
from verify_perceptron.errors import InvalidArgument
from verify_perceptron.proofs.results import STATUSES
from verify_perceptron.proofs import FORMATS, GENERATED_BY, NOTE_PROOFS, proof_data, render_proofs
from verify_perceptron.proofs.catalog import render_records

PROOFS_DIR = Path(__file__).resolve().parent.parent / "proofs"


def test_committed_documents_are_exactly_what_python_m_writes(tmp_path: Path) -> None:
    # The regeneration command itself, in a fresh interpreter, into a scratch directory: what it writes is
    # proof_documents(), so this holds the committed files to the generator (once; each run costs 4 s).
    done = subprocess.run([sys.executable, "-m", "verify_perceptron.proofs", str(tmp_path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""  # only the CLI prints
    written = {p.name: p.read_text(encoding="utf-8") for p in tmp_path.iterdir()}
    committed = {p.name: p.read_text(encoding="utf-8") for p in sorted(PROOFS_DIR.glob("*.md"))}
    assert sorted(committed) == sorted(written), f"run `{GENERATED_BY}` to regenerate {PROOFS_DIR}"
    for name, text in written.items():
        assert committed[name] == text, f"{name} is stale: run `{GENERATED_BY}`"


def test_json_has_one_entry_per_proof_with_steps_and_errata() -> None:
    # Every proof's JSON from the reports checked once per process (tests/checked_proofs.py, which the proof-note and
    # errata tests read too): render_proofs(None, "json") is render_records of these records, and checking every
    # proof again here cost 5.6 s. render_proofs's own JSON is held to the same records on one note below.
    data = json.loads(render_records([REPORTS[key].record() for key in KEYS], "json"))
    assert json.loads(render_proofs("004", "json")) == [d for d in data if d["note"].startswith("004")]
    assert [d["key"] for d in data] == [e.proof.key for e in NOTE_PROOFS]
    assert [d["note"] for d in data] == [e.proof.note for e in NOTE_PROOFS]
    for entry in data:
        assert {"note", "convention", "steps", "errata"} <= set(entry)
        for step in entry["steps"]:
            assert {"id", "place", "claim", "status"} <= set(step)
            assert step["status"] in STATUSES
            assert step["claim"]["latex"] and step["claim"]["text"]
        for erratum in entry["errata"]:
            assert erratum["words"] and erratum["corrected_status"] == "verified"
            for failure in erratum["failures"]:
                assert failure["status"] == "not-derivable" and failure["update"] >= 1
                assert failure["claim_at_update"] in ("false", "undefined")
    assert sum(len(d["errata"]) for d in data) == 15


def test_formats_agree_on_every_status() -> None:
    records = proof_data("001")
    text = render_proofs("001", "text")
    markdown = render_proofs("001", "markdown")
    for step in records[0]["steps"]:
        assert f"{step['id']:<8} {step['status']}" in text
        assert f"### {step['id']} · " in markdown and f"**{step['status']}**" in markdown
    for erratum in records[0]["errata"]:
        assert erratum["id"] in text and f"### {erratum['id']}" in markdown


def test_selection_by_key_convention_and_seed_file() -> None:
    assert [d["key"] for d in proof_data("note-002")] == ["002"]
    assert [d["key"] for d in proof_data("unit-ball")] == ["002"]
    assert [d["key"] for d in proof_data("003_a6cf23fd4ca930da.txt")] == ["003", "batch"]
    assert [d["key"] for d in proof_data("batch")] == ["batch"]


def test_bad_note_or_format_is_named_in_the_error() -> None:
    with pytest.raises(InvalidArgument, match="note='9' is not one of"):
        render_proofs("9", "text")
    with pytest.raises(InvalidArgument, match="format='html' must be one of text, json, markdown"):
        render_proofs(None, "html")
    assert FORMATS == ("text", "json", "markdown")


def test_markdown_tables_keep_their_columns() -> None:
    # A bare "|" inside a table cell would split it; norms are written \Vert there. (The committed files, which the
    # first test holds to the generator.)
    for text in (p.read_text(encoding="utf-8") for p in sorted(PROOFS_DIR.glob("*.md"))):
        in_table = False
        for line in text.splitlines():
            if line.startswith("| name | statement") or line.startswith("| symbol |") or line.startswith("| vector |"):
                in_table = True
                columns = line.count("|")
            elif in_table and line.startswith("|"):
                assert line.replace(r"\|", "").count("|") == columns, line
            else:
                in_table = False
