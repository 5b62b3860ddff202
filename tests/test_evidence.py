"""The certificate record (`verify_perceptron.certify.evidence`) and the options that write it."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import verify_perceptron as vp
from verify_perceptron.certify.evidence import canonical_lines, data_sha256
from verify_perceptron.cli import main


def test_the_data_digest_is_sha256_of_the_canonical_text_as_documented(tmp_path: Path) -> None:
    data = tmp_path / "d.csv"
    data.write_text("a,b,label\n1/2,0.25,1\n-3,1/3,0\n")
    dataset = vp.load_dataset(str(data))
    # x over L = 12: (1/2, 1/4) -> (6, 3), (-3, 1/3) -> (-36, 4); labels 1 -> 1, 0 -> -1
    text = "verify-perceptron data 1\n2 2 12\n1 6 3\n-1 -36 4\n"
    assert data_sha256(dataset) == hashlib.sha256(text.encode()).hexdigest()
    assert "\n".join(canonical_lines(dataset)) + "\n" == text


def test_the_command_and_the_api_write_the_same_certificate(tmp_path: Path) -> None:
    data = tmp_path / "d.csv"
    data.write_text("0,0,0\n0,1,0\n1,0,0\n1,1,1\n")
    out = tmp_path / "c.json"
    assert main(["verify", str(data), "--certificate", str(out)]) == 0
    written = json.loads(out.read_text())
    assert written == vp.verify(str(data)).certificate()
    assert written["data"]["file_sha256"] == hashlib.sha256(data.read_bytes()).hexdigest()
    assert written["version"] == 1 and written["data"]["rows"][3] == ["1", "1", "1"]


def test_digest_only_leaves_the_integers_out(tmp_path: Path) -> None:
    data = tmp_path / "d.csv"
    data.write_text("0,0,0\n0,1,0\n1,0,0\n1,1,1\n")
    out, proof = tmp_path / "c.json", tmp_path / "c.v"
    assert main(["verify", str(data), "--certificate", str(out), "--certificate-data", "digest",
                 "--coq", str(proof)]) == 0
    cert = json.loads(out.read_text())
    assert cert["data"]["embedded"] is False and cert["data"]["rows"] is None and cert["data"]["denominator"] is None
    assert cert["data"]["sha256"] == data_sha256(vp.load_dataset(str(data)))
    assert "Definition samples" in proof.read_text()  # Coq computes on the integers: always in its file


def test_bounds_writes_a_certificate_of_its_separators(tmp_path: Path) -> None:
    out = tmp_path / "b.json"
    assert main(["bounds", "--example", "and", "--certificate", str(out)]) == 0
    cert = json.loads(out.read_text())
    assert cert["command"] == "bounds" and cert["run"] is None and cert["coordinates"] == "classic"
    assert {s["name"] for s in cert["separators"]} >= {"max-margin", "final"}


def test_a_non_separable_certificate_holds_gordan_lambda(tmp_path: Path) -> None:
    cert = vp.verify(vp.example("xor")).certificate()
    assert cert["separable"] is False and cert["separators"] == []
    assert cert["gordan"] == {"lambda": ["1/4", "1/4", "1/4", "1/4"]}


@pytest.mark.parametrize("args", [
    ["verify", "--example", "and", "--certificate-data", "digest"],
    ["verify", "--example", "and", "--certificate-data", "digest", "--certificate", "{tmp}/c.json"],
    ["verify", "--example", "and", "--certificate", "{tmp}/c.json", "-o", "{tmp}/c.json"],
    ["verify", "--example", "and", "--certificate", "{tmp}/c.json", "--coq", "{tmp}/c.json"],
    ["verify", "--example", "and", "--coq", "{tmp}/not-a-module.v"],
    ["verify", "--example", "and", "--certificate", "{tmp}/missing/c.json"],
    ["bounds", "--example", "and", "--certificate-data", "digest"],
])
def test_certificate_usage_errors_write_nothing(tmp_path: Path, args: list[str],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main([a.format(tmp=tmp_path) for a in args]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "error" in err
    assert list(tmp_path.iterdir()) == []
