"""The `bounds` command and the separability and comparison sections of `verify`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from verify_perceptron import cli


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:
    code = cli.main(argv)
    out = capsys.readouterr().out
    return code, json.loads(out)


def test_bounds_json_has_the_documented_keys_and_exact_values(capsys):
    code, r = run_json(["bounds", "--example", "and", "--format", "json"], capsys)
    assert code == 0
    assert r["separable"] is True
    assert r["certificate"] == {"kind": "separator", "values": ["-3", "2", "2"]}
    assert r["max_margin"]["weights"] == ["-3", "2", "2"]
    assert r["max_margin"]["norm_sq"] == "17" and r["max_margin"]["certified"] is True
    entry = {(b["convention"], b["separator"]): b for b in r["bounds"]}
    assert entry["classic", "max-margin"]["value"] == "51"
    assert entry["classic", "max-margin"]["n_updates"] == 18
    assert entry["sum-norm", "max-margin"]["value"] == "136"
    assert entry["hard-limiter", "final"]["n_updates"] == 10
    assert {b["separator"] for b in r["bounds"]} >= {"max-margin", "final"}


def test_bounds_json_sets_note_003s_bound_beside_each_batch_run(capsys):
    code, r = run_json(["bounds", "--example", "and", "--format", "json"], capsys)
    assert code == 0
    runs = {b["convention"]: b for b in r["batch_runs"]}
    assert (runs["classic"]["n_updates"], runs["classic"]["n_mistakes"]) == (9, 15)
    assert (runs["hard-limiter"]["n_updates"], runs["hard-limiter"]["n_mistakes"]) == (3, 5)
    entry = {(b["convention"], b["separator"]): b for b in r["batch_bounds"]}
    assert entry["classic", "max-margin"] == {
        "note": "003", "convention": "classic", "separator": "max-margin",
        "value": "136", "value_floor": 136, "n_mistakes": 15, "n_updates": 9, "converged": True, "ratio": "15/136",
        "ratio_decimal": 15 / 136,
    }
    assert {b["value"] for b in r["batch_bounds"] if b["separator"] == "max-margin"} == {"136"}


def test_bounds_text_shows_note_003s_bound_in_batch_mode(capsys):
    assert cli.main(["bounds", "--example", "modified-or"]) == 0
    out = capsys.readouterr().out
    assert "note 003's bound β·‖w‖²/γ² in batch mode, for every convention (derived here, not in the notes" in out
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("note 003's bound"))
    assert lines[header + 1].split()[:3] == ["convention", "updates", "mistakes"]
    assert lines[header + 3].split() == ["hard-limiter", "2", "4", *["36", "(≈", "0.111111)"] * 3]


def test_bounds_with_a_user_separator_lists_it(capsys):
    code, r = run_json(["bounds", "--example", "and", "--separator=-4,3,2", "--format", "json"], capsys)
    assert code == 0
    assert [b["value"] for b in r["bounds"] if b["separator"] == "user" and b["convention"] == "classic"] == ["87"]


def test_bounds_on_xor_is_not_separable_with_a_gordan_certificate(capsys):
    code, r = run_json(["bounds", "--example", "xor", "--format", "json"], capsys)
    assert code == 0
    assert r["separable"] is False
    assert r["certificate"] == {"kind": "gordan", "values": ["1/4", "1/4", "1/4", "1/4"]}
    assert r["bounds"] == []


def test_bounds_orders_report_min_median_max_and_every_order_for_tiny_data(capsys):
    code, r = run_json(["bounds", "--example", "and", "--orders", "5", "--seed", "3", "--format", "json"], capsys)
    assert code == 0
    sampled = {c["convention"]: c for c in r["orders"]["sampled"]}
    every = {c["convention"]: c for c in r["orders"]["exhaustive"]}
    assert sampled["classic"]["n_orders"] == 5
    assert every["classic"]["n_orders"] == 24 and every["classic"]["max"] == 22 and every["classic"]["min"] == 18
    assert every["hard-limiter"]["max"] <= every["classic"]["max"]


def test_bounds_text_shows_the_table_and_findings(capsys):
    assert cli.main(["bounds", "--example", "and"]) == 0
    out = capsys.readouterr().out
    assert "max-margin separator (b, v) = [-3, 2, 2]" in out and "certified optimal" in out
    assert "coincide" in out and "β/R² ≈ 2.66667" in out


def test_verify_decides_non_separable_data_exactly_when_the_run_does_not_settle_it(tmp_path: Path, capsys):
    path = tmp_path / "line.csv"
    path.write_text("x,label\n0,1\n1,0\n2,1\n")
    code, r = run_json(["verify", str(path), "--max-epochs", "2", "--format", "json"], capsys)
    assert code == 0 and r["verdict"] == "not-separable"
    assert r["cycle"] is None
    assert r["separable"] is False and r["certificate"]["kind"] == "gordan"
    assert r["certificate"]["values"] == ["1/4", "1/2", "1/4"]


def test_verify_reports_separable_with_the_scaled_final_weights(capsys):
    code, r = run_json(["verify", "--example", "and", "--format", "json"], capsys)
    assert code == 0 and r["separable"] is True
    assert r["certificate"] == {"kind": "separator", "values": ["-4", "3", "2"]}  # γ = 1


def test_verify_compare_adds_the_comparison_section(capsys):
    code, r = run_json(["verify", "--example", "modified-or", "--compare", "--format", "json"], capsys)
    assert code == 0
    assert r["comparison"]["max_margin"]["weights"] == ["1", "1", "1"]
    assert any(b["separator"] == "final" for b in r["comparison"]["bounds"])


def test_bounds_separator_with_the_wrong_length_is_bad_input(capsys):
    assert cli.main(["bounds", "--example", "and", "--separator=1,2"]) == 2
    assert "needs 3" in capsys.readouterr().err


def test_verify_compare_with_a_separator_does_not_call_it_the_final_weights(capsys) -> None:
    from verify_perceptron.cli import main

    code = main(["verify", "--example", "and", "--separator=-3,2,2", "--compare", "--format", "json"])
    record = json.loads(capsys.readouterr().out)["comparison"]
    names = [s["name"] for s in record["separators"]]
    assert code == 0 and "user" in names and "final" not in names


def test_bounds_text_of_non_separable_data_shows_each_enclosure(capsys) -> None:
    # Found by the fuzz suite: the shortened record's '≈ 17.4853' was read back as an enclosure's end.
    from verify_perceptron.cli import main

    assert main(["bounds", "--example", "xor"]) == 0
    out = capsys.readouterr().out
    assert "classic             4 (cycle)  [17.48528137, 17.48528138]" in out


def test_verify_with_compare_on_non_separable_data_in_every_format(capsys) -> None:
    # Found by the fuzz suite: the verify report passed its shortened comparison on as if exact.
    from verify_perceptron.cli import main

    for fmt in ("text", "json", "markdown"):
        assert main(["verify", "--example", "xor", "--compare", "--format", fmt]) == 0, fmt
    assert "[17.48528137, 17.48528138]" in capsys.readouterr().out
