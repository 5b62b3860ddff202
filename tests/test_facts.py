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


# --- the chunk's keys read in C (kernel.fact_keys) --------------------------------------------------------------

from verify_perceptron.check import facts as facts_module, kernel  # noqa: E402

needs_keys = pytest.mark.skipif(kernel.fact_keys is None, reason="the C replay was not built")


@needs_keys
@given(st.integers(1, 4), st.lists(st.integers(0, 5), min_size=1, max_size=30), st.data())
def test_the_keys_read_in_c_are_the_first_updates_of_each_label_and_sign(L: int, rows: list[int],
                                                                          data: st.DataObject) -> None:
    from verify_perceptron.data.integers import as_limbs

    low, high = -(2 ** (64 * L - 1)), 2 ** (64 * L - 1) - 1
    values = data.draw(st.lists(st.one_of(st.sampled_from([0, low, high, -1, 1]), st.integers(low, high)),
                                min_size=len(rows), max_size=len(rows)))
    labels = data.draw(st.lists(st.sampled_from([-1, 1, 0]), min_size=6, max_size=6))
    seen = data.draw(st.lists(st.integers(0, 3), min_size=6, max_size=6))  # 0: no update on the sample yet
    first = data.draw(st.integers(1, 10**6))
    first_at, out = np.array(seen, dtype=np.int64), np.zeros(9, dtype=np.int64)
    keys = kernel.fact_keys
    assert keys is not None
    assert keys(np.array(rows, dtype=np.int64), np.ascontiguousarray(as_limbs(np.array(values, dtype=object), L)),
                            np.array(labels, dtype=np.int64), first_at, first, out) == 1
    expected_first, expected_out = list(seen), [-1] * 9
    for t, (i, v) in enumerate(zip(rows, values)):
        if expected_first[i] == 0:
            expected_first[i] = first + t
        c = (labels[i] + 1) * 3 + (v > 0) - (v < 0) + 1
        if expected_out[c] < 0:
            expected_out[c] = t
    assert first_at.tolist() == expected_first and out.tolist() == expected_out


@needs_keys
def test_the_keys_read_in_c_write_nothing_for_a_row_or_label_out_of_range() -> None:
    first_at, out = np.zeros(3, dtype=np.int64), np.full(9, 5, dtype=np.int64)
    scores = np.zeros((2, 1), dtype=np.int64)
    keys = kernel.fact_keys
    assert keys is not None
    for rows, labels in (([0, 3], [1, -1, 1]), ([0, -1], [1, -1, 1]), ([0, 2], [1, -1, 2])):
        assert keys(np.array(rows, dtype=np.int64), scores, np.array(labels, dtype=np.int64), first_at, 1, out) == 0
        assert first_at.tolist() == [0, 0, 0] and out.tolist() == [5] * 9
    with pytest.raises(ValueError, match="first=0"):
        keys(np.array([0, 1], dtype=np.int64), scores, np.ones(3, dtype=np.int64), first_at, 0, out)


@pytest.mark.parametrize("seed", range(3))
def test_fact_chunks_read_in_c_and_in_numpy_agree(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # chunks of int64 scores and of scores in limbs, one with a sample out of range (the per-update path), told
    # to two fact checks, one reading in C and one in NumPy: the same first updates, keys and results
    checker = Checker(example("and"), "classic", rate=1, mode="online", separator=[-4, 3, 2])
    rng = np.random.default_rng(seed)
    keys = kernel.fact_keys
    told = []
    for in_c in (True, False):
        monkeypatch.setattr(kernel, "fact_keys", keys if in_c else None)
        check = fact_check(checker)
        first = 1
        for size, limbs in ((50, 0), (300, 3), (7, 0), (40, 2)):
            rows = rng.integers(0, 4, size=size).astype(np.int64)
            if size == 7:
                rows[3] = 4  # no such sample
            scores = rng.integers(-3, 3, size=size).astype(np.int64)
            check.observe_chunk(first, rows, np.ascontiguousarray(np.stack([scores, *(scores >> 63,) * (limbs - 1)], axis=1))
                                if limbs else scores)
            first += size
        told.append((check.first_at.tolist(), sorted(check.codes), check.k,
                     check.finish({}, first - 1)))
        rng = np.random.default_rng(seed)
    assert told[0] == told[1]
