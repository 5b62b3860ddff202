"""The report: verdicts and exit codes, text and JSON agreeing, exact numbers as strings."""

from __future__ import annotations

import dataclasses
import re
import json
from collections.abc import Callable
from fractions import Fraction
from typing import Any
from typing import TypedDict

import pytest

from verify_perceptron.check.traces import check_trace
from verify_perceptron.run.reference import train
from verify_perceptron.data.examples import example
from verify_perceptron.report.record import EXIT_CODES, SCHEMA_VERSION, build_report, render_json
from verify_perceptron.report.text import render_text
from verify_perceptron.data.trace import Trace

F = Fraction


def report_for(ex, convention="classic", *, separator=None, mode="online", max_epochs=1000, tamper=None):
    data = example(ex)
    trace = train(data, convention, mode=mode, max_epochs=max_epochs)
    if tamper is not None:
        trace = tamper(trace)
    return build_report(data, trace, check_trace(data, trace, separator=separator))


def tamper_weight(trace):
    updates = list(trace.updates)
    u = updates[4]
    updates[4] = dataclasses.replace(u, weights=(u.weights[0] + 1, *u.weights[1:]))
    return dataclasses.replace(trace, updates=tuple(updates))


class Case(TypedDict, total=False):
    """The arguments of `report_for` for one case."""

    ex: str
    convention: str
    separator: list[int]
    mode: str
    max_epochs: int
    tamper: Callable[[Trace], Trace]


CASES: dict[str, Case] = {
    "verified": {"ex": "and"},
    "verified-hard-limiter": {"ex": "and", "convention": "hard-limiter"},
    "verified-batch": {"ex": "modified-or", "convention": "sum-norm", "mode": "batch"},
    "violated-tampered": {"ex": "and", "tamper": tamper_weight},
    "violated-separator": {"ex": "and", "separator": [1, 1, 1]},
    "not-separable": {"ex": "xor"},
    "inconclusive": {"ex": "and", "max_epochs": 1},
}


@pytest.fixture(params=list(CASES))
def report(request):
    return report_for(**CASES[request.param])


# ------------------------------------------------------------------------------------------------
# verdicts and exit codes


def test_exit_codes_are_as_documented():
    assert EXIT_CODES == {"verified": 0, "stopped-separable": 0, "not-separable": 0, "violated": 1, "inconclusive": 3}


def test_converged_genuine_run_is_verified_with_exit_0():
    r = report_for("and")
    assert (r["verdict"], r["exit_code"]) == ("verified", 0)
    assert r["final_weights"] == ["-4", "3", "2"] and r["n_updates"] == 18
    assert r["converged"] is True and r["stop"] == "converged"


def test_tampered_run_is_violated_with_exit_1():
    r = report_for("and", tamper=tamper_weight)
    assert (r["verdict"], r["exit_code"]) == ("violated", 1)
    rule = [i for i in r["invariants"] if i["name"] == "update-rule"][0]
    assert rule["holds"] is False and rule["first_violation"]["update"] == 5


def test_non_separating_separator_is_violated_with_exit_1():
    r = report_for("and", separator=[1, 1, 1])
    assert (r["verdict"], r["exit_code"]) == ("violated", 1)
    sep = [i for i in r["invariants"] if i["name"] == "separator-separates"][0]
    assert sep["first_violation"]["values"] == {"gamma": "-2", "margin": "-1"}
    assert sep["first_violation"]["update"] is None and sep["first_violation"]["samples"] == [0]  # the first, not the worst
    assert r["bounds"] == []


def test_xor_is_certified_not_separable_with_exit_0():
    r = report_for("xor")
    assert (r["verdict"], r["exit_code"]) == ("not-separable", 0)
    assert r["cycle"] == {"epochs": [0, 1], "certificate": ["1/4"] * 4,
                          "certificate_valid": True, "certificate_problem": None}
    assert r["separator"] is None and r["constants"] is None


def test_unfinished_run_is_inconclusive_with_exit_3():
    r = report_for("and", max_epochs=1)
    assert (r["verdict"], r["exit_code"]) == ("inconclusive", 3)
    assert r["stop"] == "max-epochs" and r["cycle"] is None


def test_verdict_and_exit_code_always_agree(report):
    assert report["exit_code"] == EXIT_CODES[report["verdict"]]
    assert report["schema_version"] == SCHEMA_VERSION


def test_batch_reports_leave_online_bounds_unjudged():
    r = report_for("modified-or", "sum-norm", mode="batch")
    assert r["verdict"] == "verified"
    assert r["bounds"] and all(b["holds"] is None for b in r["bounds"])
    assert all(b["n_mistakes"] == 4 for b in r["bounds"])


def test_batch_reports_check_note_003s_bound_as_an_invariant_and_say_so():
    r = report_for("modified-or", "sum-norm", mode="batch")
    invariants = {i["name"]: i for i in r["invariants"]}
    # w* = (2, 2, -2), the final weights: γ = 2, ‖w*‖² = 12, β = 12, N = 4: 12·12 - 4·2² = 128.
    assert invariants["mistake-bound-sum-batch"]["holds"] is True
    assert invariants["mistake-bound-sum-batch"]["min_slack"] == "128"
    assert invariants["upper-bound-sum-batch"]["min_slack"] == "36"  # a²Nβ - ‖w‖² = 48 - 12
    text = render_text(r)
    assert "note 003's also holds in batch mode, for every convention (derived here): mistake-bound-sum-batch" in text
    assert "holds in batch mode" not in render_text(report_for("modified-or", "sum-norm"))


def test_bounds_in_report_are_the_exact_note_bounds():
    r = report_for("and", separator=[-4, 3, 2])
    assert [(b["convention"], b["value"], b["value_floor"]) for b in r["bounds"]] == [
        ("classic", "87", 87), ("hard-limiter", "87", 87), ("hard-limiter-plus", "87", 87), ("unit-ball", "87", 87),
        ("sum-norm", "232", 232), ("split-bias", "87", 87),
    ]
    assert [b["own"] for b in r["bounds"]] == [True, False, False, False, False, False]
    assert r["constants"] == {"gamma": "1", "R_sq": "3", "beta": "8", "ws_sq": "29"}
    assert r["separator"] == {"source": "user", "weights": ["-4", "3", "2"], "note": None}


# ------------------------------------------------------------------------------------------------
# text and JSON agree


def invariant_rows(text):
    """Table rows of the invariants section, split into cells on whitespace."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("invariants, checked exactly"))
    rows = []
    for line in lines[start + 2:]:
        if not line.strip():
            break
        cells = line.split()
        if cells[1].endswith(":") or line.startswith("  -- not checked"):
            continue  # the notes under the table: a violation's text, the skipped claims
        rows.append(cells)
    return rows


def test_text_lists_every_invariant_with_its_min_slack(report):
    text = render_text(report)
    rows = {cells[1]: cells for cells in invariant_rows(text)}
    assert list(rows) == [i["name"] for i in report["invariants"]]
    marks = {True: "ok", False: "FAIL", None: "--"}
    for inv in report["invariants"]:
        cells = rows[inv["name"]]
        assert cells[0] == marks[inv["holds"]]
        assert cells[2] == str(inv["n_checked"])
        if inv["min_slack"] is not None:
            assert cells[3] == inv["min_slack"]


def test_text_shows_the_final_weights_and_verdict(report):
    text = render_text(report)
    assert "[" + ", ".join(report["final_weights"]) + "]" in text
    assert f"(exit code {report['exit_code']})" in text
    assert f"verdict: {report['verdict'].replace('-', ' ').upper()}" in text
    for inv in report["invariants"]:
        if inv["first_violation"]:
            assert inv["first_violation"]["text"] in text


def test_text_shows_every_update_when_few(report):
    text = render_text(report)
    for u in report["updates"]:
        assert "[" + ", ".join(u["weights"]) + "]" in text


def test_text_shows_bounds_and_certificate():
    text = render_text(report_for("and", separator=[-4, 3, 2]))
    assert "232" in text and "87" in text
    xor = render_text(report_for("xor"))
    assert "[0.25, 0.25, 0.25, 0.25]" in xor and "NOT SEPARABLE" in xor


def test_long_runs_are_elided_in_text_but_all_in_json():
    r = report_for("and")
    text = render_text(r, max_updates=12)
    assert "(6 more)" in text
    assert len(r["updates"]) == 18


# ------------------------------------------------------------------------------------------------
# JSON


def test_json_round_trips(report):
    text = render_json(report)
    assert json.loads(text) == report
    assert text.endswith("\n")


def _walk(value, path=""):
    if isinstance(value, dict):
        for k, v in value.items():
            assert isinstance(k, str)
            yield from _walk(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk(v, f"{path}[{i}]")
    else:
        yield path, value


def test_json_has_no_floats_or_fractions(report):
    for path, value in _walk(report):
        assert value is None or isinstance(value, (str, int, bool)), (path, value)
        assert not isinstance(value, float), path


def test_exact_numbers_are_strings(report):
    exact = [report["eta"], report["step_size"], *report["final_weights"]]
    if report["separator"]:
        exact += report["separator"]["weights"]
    if report["constants"]:
        exact += list(report["constants"].values())
    for inv in report["invariants"]:
        if inv["min_slack"] is not None:
            exact.append(inv["min_slack"])
        if inv["first_violation"]:
            exact += list(inv["first_violation"]["values"].values())
    for b in report["bounds"]:
        exact += [b["value"], *b["constants"].values()]
    for u in report["updates"]:
        exact += [*u["scores"], *u["delta"], *u["weights"]]
    if report["cycle"]:
        exact += report["cycle"]["certificate"]
    assert exact
    for value in exact:
        assert isinstance(value, str)
        assert str(F(value)) == value  # canonical exact rational spelling


def test_fractional_values_are_reported_exactly():
    r = report_for("and", separator=["-4/3", 1, "2/3"])
    assert r["separator"]["weights"] == ["-4/3", "1", "2/3"]
    assert r["constants"]["gamma"] == "1/3"
    assert r["constants"]["ws_sq"] == "29/9"
    assert [b["value"] for b in r["bounds"]] == ["87", "87", "87", "87", "232", "87"]  # scale invariant


def test_json_min_slack_matches_checker():
    data = example("and")
    trace = train(data, "classic")
    check = check_trace(data, trace)
    r: dict[str, Any] = dict(build_report(data, trace, check))  # read as JSON
    for inv, res in zip(r["invariants"], check.invariants):
        assert inv["name"] == res.name
        assert inv["min_slack"] == (None if res.min_slack is None else str(res.min_slack))
        assert inv["holds"] is res.holds


def test_mistake_count_above_a_note_bound_makes_the_report_violated():
    # The bounds table judges the trace's own mistake count; inflate it past 87 (AND at [-4, 3, 2]).
    data = example("and")
    trace = train(data, "classic")
    inflated = dataclasses.replace(trace, mistakes_per_sample=(100, 0, 0, 0))
    check = check_trace(data, inflated, separator=[-4, 3, 2])
    r: dict[str, Any] = dict(build_report(data, inflated, check))  # read as JSON
    assert [b["holds"] for b in r["bounds"]] == [False, False, False, False, True, False]  # 100 > 87, <= 232
    assert (r["verdict"], r["exit_code"]) == ("violated", 1)
    assert "(and a mistake bound)" in render_text(r)


def test_enclosures_contain_the_irrational_quantities_and_an_error_would_show() -> None:
    from verify_perceptron.report._enclosures import enclosures

    data = example("and")
    check = check_trace(data, train(data, "classic"))
    g = check.geometry
    assert g is not None
    boxes = enclosures(g)
    squares = {"R": g.R_sq, "ws_norm": g.ws_sq, "margin": g.gamma ** 2 / g.ws_sq, "ratio": g.R_sq * g.ws_sq / g.gamma ** 2}
    for name, square in squares.items():
        lo, hi = boxes[name]
        assert lo * lo <= square <= hi * hi and hi - lo < Fraction(1, 10**20), name
    # an enclosure of the wrong quantity (R for ‖w*‖) fails the same test
    lo, hi = boxes["R"]
    assert not lo * lo <= g.ws_sq <= hi * hi
    r: dict[str, Any] = dict(build_report(data, train(data, "classic"), check))  # read as JSON
    assert set(r["enclosures"]) == {"R", "ws_norm", "margin", "ratio", "cos_final", "cos_bound"}
    assert "roots       R ∈ [1.73205, 1.732051]" in render_text(r)


@pytest.mark.parametrize("convention", ["classic", "hard-limiter", "hard-limiter-plus", "unit-ball", "sum-norm",
                                        "split-bias"])
@pytest.mark.parametrize("name", ["and", "or", "modified-or"])
def test_the_angle_to_w_star_and_the_proofs_bound_on_it_are_enclosures_in_order(convention: str, name: str) -> None:
    from verify_perceptron.pipeline import verify_run

    data = example(name)
    trace, check = verify_run(data, convention, separator=None)
    r: dict[str, Any] = dict(build_report(data, trace, check))  # read as JSON
    box = {k: (Fraction(v["lower"]), Fraction(v["upper"])) for k, v in r["enclosures"].items()}
    w, ws, g = trace.final_weights, check.separator, check.geometry
    assert ws is not None and g is not None
    dot = sum(a * b for a, b in zip(w, ws))
    cos_sq = dot * dot / (sum(a * a for a in w) * g.ws_sq)
    bound_sq = r["n_updates"] * g.gamma ** 2 / (g.R_sq * g.ws_sq)
    (lo, hi), (b_lo, b_hi) = box["cos_final"], box["cos_bound"]
    assert 0 < lo <= hi <= 1 and lo * lo <= cos_sq <= hi * hi  # dot > 0: the run converged to a separator
    assert 0 < b_lo <= b_hi and b_lo * b_lo <= bound_sq <= b_hi * b_hi
    assert b_lo <= hi  # the proofs' consequence, cos >= √N·γ/(R·‖w*‖), seen in the enclosures


def test_no_angle_bound_is_shown_where_a_bound_it_rests_on_failed() -> None:
    data = example("and")
    trace = train(data, "classic")
    inflated = dataclasses.replace(trace, final_weights=tuple(3 * v for v in trace.final_weights))
    check = check_trace(data, trace, separator=[-3, 2, 2])
    failed = dataclasses.replace(check, invariants=tuple(
        dataclasses.replace(i, holds=False) if i.name == "upper-bound" else i for i in check.invariants))
    r: dict[str, Any] = dict(build_report(data, inflated, failed))  # read as JSON
    assert "cos_final" in r["enclosures"] and "cos_bound" not in r["enclosures"]
    assert "the bound the proofs give" not in render_text(r) and "angle       cos∠(w, w*) ∈" in render_text(r)


def _wide_report() -> dict:
    """30 features of long decimals and a batch run: wide weights, samples and scores in every row."""
    import numpy as np

    from verify_perceptron.data.dataset import Dataset
    from verify_perceptron.pipeline import verify_run

    rng = np.random.default_rng(7)
    numerators = rng.integers(-10**6, 10**6, size=(40, 30))
    data = Dataset(numerators=numerators, denominator=10**4, y=[1 if v > 0 else -1 for v in numerators[:, 0]])
    return dict(build_report(data, *verify_run(data, "classic", mode="batch", max_epochs=5)))


@pytest.mark.parametrize("width", [50, 80, 100])
def test_the_updates_table_fits_the_terminal_width_it_is_given(width: int) -> None:
    report = _wide_report()
    whole = render_text(report).splitlines()
    fitted = render_text(report, width=width).splitlines()
    start = next(i for i, line in enumerate(fitted) if re.match(r"\s+k\s+epoch", line))
    rows = fitted[start: fitted.index("", start)]
    assert len(rows) == len(report["updates"]) + 1 and all(len(line) <= width for line in fitted), rows
    head = next(i for i, line in enumerate(whole) if re.match(r"\s+k\s+epoch", line))
    assert max(len(line) for line in whole[head: whole.index("", head)]) > width  # there was cutting to do
    for row, update in zip(rows[1:], report["updates"]):
        match = re.fullmatch(r"\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*?)\s+(\[.*\])", row)
        assert match is not None, row
        k, epoch, samples, scores, weights = match.groups()
        assert (int(k), int(epoch)) == (update["k"], update["epoch"])  # never cut
        assert samples.split(",")[0] == str(update["samples"][0]) and weights.startswith("[") and weights.endswith("]")
        hidden = re.search(r"… (\d+) more …", weights)
        shown = weights[1:-1].split(", ")
        assert len(shown) - (1 if hidden else 0) + (int(hidden.group(1)) if hidden else 0) == 31  # every entry counted
    assert render_text(report, width=width, exact=True) == render_text(report, exact=True)  # exact: never cut


def test_the_command_line_fits_the_table_to_columns_only_on_the_terminal(tmp_path) -> None:
    import os
    import subprocess
    import sys

    report_path = tmp_path / "wide.csv"
    import numpy as np

    rng = np.random.default_rng(7)
    X = rng.integers(-10**6, 10**6, size=(40, 30)) / 10**4
    np.savetxt(report_path, np.column_stack([X, np.where(X[:, 0] > 0, 1, -1)]), delimiter=",", fmt="%.4f")
    env = {**os.environ, "COLUMNS": "72"}
    command = [sys.executable, "-m", "verify_perceptron", "verify", str(report_path), "--max-epochs", "3"]
    narrow = subprocess.run(command, capture_output=True, text=True, env=env).stdout.splitlines()
    assert narrow and all(len(line) <= 72 for line in narrow)  # every line, not only the updates table
    env.pop("COLUMNS")
    piped = subprocess.run(command, capture_output=True, text=True, env=env).stdout.splitlines()
    assert max(map(len, piped)) > 72  # a pipe without COLUMNS: not cut
