"""The proofs' hypotheses decided on runs: true ones hold on every worked example, false ones fail where they fail."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, strategies as st

from tests.data_strategies import halves
from tests.test_cli import run
from verify_perceptron.check.checker import Checker
from verify_perceptron.check.facts import ProofCheck, _signs, fact_check, proofs_for
from verify_perceptron.data.integers import score_values
from verify_perceptron.data.dataset import Dataset
from verify_perceptron.data.examples import example
from verify_perceptron.notes._proof_facts import PROOF_FACTS
from verify_perceptron.notes.conventions import CONVENTIONS
from verify_perceptron.notes.facts import ProofFacts, Rule, evaluate
from verify_perceptron.pipeline import verify_run
from verify_perceptron.report.documents import render_html
from verify_perceptron.run import fast

MISTAKE = ("<=", ("*", ("q", "w_x"), ("q", "y")), ("c", 0, 1))
STRICT = Rule("strict", "algorithm", "on a mistake y·w·x < 0", "y·w_x < 0", "w_x·y < 0", "update",
              ("<", *MISTAKE[1:]))


def decide(data: Dataset, convention: str, proofs: list[ProofFacts], *, mode: str = "online",
           compiled: bool = True, rate: Fraction = Fraction(1)) -> tuple[ProofCheck, ...]:
    """The proofs' rules on a run of `data` (w* as `verify` takes it: the run's final weights, made strict)."""
    trace, check = verify_run(data, convention, mode=mode, max_epochs=30, eta=rate)
    checker = Checker(data, convention, rate=rate, mode=mode, separator=check.separator, compiled=compiled)
    checker.facts = fact_check(checker, proofs)
    fast.run(data, convention, mode=mode, max_epochs=30, observer=checker, eta=rate)
    return checker.finish(trace).proofs


def outcome(checks: tuple[ProofCheck, ...]) -> list[tuple[object, ...]]:
    return [(f.rule.name, f.holds, f.update, f.sample, f.values) for p in checks for f in p.facts]


def test_evaluate_is_exact_and_a_division_by_zero_raises() -> None:
    assert evaluate(("==", ("*", ("c", 1, 3), ("q", "a")), ("c", 1, 1)), {"a": 3}) is True
    assert evaluate(("+", ("q", "a"), ("c", -1, 10)), {"a": Fraction(1, 10)}) == 0
    with pytest.raises(ZeroDivisionError):
        evaluate(("^", ("q", "a"), -2), {"a": 0})


@pytest.mark.parametrize("name", ["and", "modified-or"])
@pytest.mark.parametrize("mode", ["online", "batch"])
def test_every_proofs_hypotheses_hold_on_the_worked_examples(name: str, mode: str) -> None:
    for convention in CONVENTIONS:
        _, check = verify_run(example(name), convention, mode=mode)
        assert [p.proof.key for p in check.proofs] == [p.key for p in proofs_for(convention, mode)] + (
            ["averaged"] if mode == "online" else [])
        for p in check.proofs:
            assert p.holds is True, (convention, p.proof.key, outcome((p,)))
            assert all(f.n_checked >= 1 for f in p.facts)


def test_a_false_rule_fails_at_its_first_update_with_its_values() -> None:
    proof = ProofFacts("t", "test", "hard-limiter-plus", "online", "mistake-bound", "", (STRICT,))
    (result,) = decide(example("and"), "hard-limiter-plus", [proof])
    (fact,) = result.facts
    # hard-limiter-plus's first update is sample 0, (0, 0) of class -1, scored exactly 0 by w = 0.
    assert (fact.holds, fact.update, fact.sample) == (False, 1, 0)
    assert fact.values == (("w_x", Fraction(0)), ("y", Fraction(-1)))
    assert result.holds is False


def test_a_separator_that_does_not_separate_fails_the_margins_hypothesis(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["verify", "--example", "and", "--separator=0,1,1", "--format", "json"], capsys)
    entry = json.loads(out)["proofs_applied"][0]
    assert entry["holds"] is False
    failed = {h["name"]: h for h in entry["hypotheses"] if h["holds"] is False}
    assert failed["gamma>0"]["first_failure"] == {"update": None, "sample": None, "values": {"gamma": "-1"}}  # min over AND of y·(x1 + x2)
    assert entry["sentence"].startswith("hypothesis")


def test_without_a_separator_the_hypotheses_about_it_are_not_checked() -> None:
    _, check = verify_run(example("xor"), "classic", max_epochs=5)
    (note, _) = check.proofs
    skipped = {f.rule.name for f in note.facts if f.holds is None}
    assert skipped == {"margin", "gamma>0"} and note.holds is None


@given(halves(max_samples=6, max_features=2), st.sampled_from(sorted(CONVENTIONS)))
def test_keyed_and_per_update_evaluations_agree(data: Dataset, convention: str) -> None:
    # The keyed path evaluates an update rule once per (label, sign of the score); marked not scaled,
    # the same rules are evaluated at every update on exact rationals, and, without the compiled
    # replay, one update at a time. All three must find the same.
    proofs = [dataclasses.replace(p, rules=(*p.rules, STRICT)) for p in PROOF_FACTS
              if p.convention == convention]
    exact = [dataclasses.replace(p, rules=tuple(dataclasses.replace(r, scaled=False) for r in p.rules))
             for p in proofs]
    keyed = outcome(decide(data, convention, proofs))
    assert keyed == outcome(decide(data, convention, exact))
    assert keyed == outcome(decide(data, convention, proofs, compiled=False))


@pytest.mark.parametrize("fmt", ["text", "json", "markdown", "html"])
def test_verify_shows_the_theorems_for_the_run_in_every_format(fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    # HTML from the JSON record, without figures (drawing them is the documents' tests' business, and costs seconds).
    shown = "json" if fmt == "html" else fmt
    code, out, _ = run(["verify", "--example", "and", "-c", "hard-limiter-plus", "--averaged", "--format", shown],
                       capsys)
    assert code == 0
    if fmt == "html":
        out = render_html(json.loads(out), figures={})
        assert '<h2 id="proofs-applied">' in out
    sentence = "its 5 hypotheses held on the data and at every one of the 11 updates, so its conclusion"
    if fmt == "json":
        entries = json.loads(out)["proofs_applied"]
        assert [e["proof"] for e in entries] == ["hard-limiter-plus", "averaged"]
        assert entries[0]["sentence"].startswith(sentence) and entries[0]["conclusion"]["bound"] == "135"
        assert [h["name"] for h in entries[0]["hypotheses"]] == ["update", "output", "mistake", "margin", "alpha>0"]
    else:
        assert sentence in out and "is a theorem about this run" in out


@given(st.lists(st.tuples(st.integers(-2**63, 2**63 - 1), st.integers(-2**63, 2**63 - 1)), min_size=1, max_size=20))
def test_the_signs_of_halves_are_the_signs_of_the_joined_scores(pairs: list[tuple[int, int]]) -> None:
    halves_ = np.array(pairs, dtype=np.int64)
    joined = score_values(halves_).tolist()
    assert _signs(halves_).tolist() == [(v > 0) - (v < 0) for v in joined]
    assert _signs(np.array(joined, dtype=object)).tolist() == [(v > 0) - (v < 0) for v in joined]


@given(st.lists(st.one_of(st.integers(-(2**255), 2**255 - 1), st.sampled_from([0, 1, -1, 2**128, -(2**128)])),
                min_size=1, max_size=8))
def test_the_signs_of_scores_in_four_limbs_are_the_signs_of_the_joined_scores(values: list[int]) -> None:
    from verify_perceptron.data.integers import as_limbs

    limbs = as_limbs(np.array(values, dtype=object), 4)
    assert _signs(limbs).tolist() == [(v > 0) - (v < 0) for v in values]


@pytest.mark.parametrize("convention", ["classic", "hard-limiter", "hard-limiter-plus", "split-bias", "sum-norm"])
def test_the_separators_squared_norm_without_its_bias_is_the_sum_of_the_other_squares(convention: str) -> None:
    # (taken as ‖W*‖² less the bias term's square: it must be Σ over the non-bias entries, wherever the
    # convention puts the bias)
    from verify_perceptron.data.examples import example
    from verify_perceptron.notes.conventions import get_convention

    conv = get_convention(convention)
    separator = [Fraction(-7, 2), Fraction(3), Fraction(5, 3)]  # (b, v) or (v, b) in the convention's order
    checker = Checker(example("and"), convention, rate=1, mode="online", separator=separator)
    W_star, M, _ = checker._scaled_separator
    bias = 0 if conv.bias_first else len(W_star) - 1
    assert M == 6 and checker.facts.scaled_run["wsb_sq"] == sum(v * v for j, v in enumerate(W_star) if j != bias)
    assert checker.facts.scaled_run["wsb_sq"] != checker.ws_sq_scaled - int(W_star[len(W_star) - 1 - bias]) ** 2
