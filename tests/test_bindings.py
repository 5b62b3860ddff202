"""The proofs' hypotheses compiled into rules for runs: from the statements themselves, and refused when they cannot be."""

from __future__ import annotations

import dataclasses

import pytest
import sympy as sp

from verify_perceptron.errors import InvalidArgument
from verify_perceptron.notes._proof_facts import PROOF_FACTS
from verify_perceptron.proofs import hard_limiter_plus, note_000, note_002
from verify_perceptron.proofs.bindings import BINDINGS, MODULE, Binding, compile_proof, module_source
from verify_perceptron.proofs.language import Fact, ge, gt, le, lt, text_relation


def test_the_generated_module_is_what_the_proofs_compile_to() -> None:
    # The chain reads notes/_proof_facts.py without SymPy; it must be the proofs' own statements, not a copy.
    assert MODULE.read_text(encoding="utf-8") == module_source(), \
        "notes/_proof_facts.py is stale: run `python -m verify_perceptron.proofs.bindings`"


def test_every_bound_proof_has_rules_and_every_rule_reads_run_quantities() -> None:
    assert {p.key for p in PROOF_FACTS} == set(BINDINGS)
    for proof in PROOF_FACTS:
        assert proof.rules, proof.key
        for rule in proof.rules:
            assert rule.origin in ("hypothesis", "algorithm")
            assert (rule.scope == "claim") == (rule.reads == ("slack",)), (proof.key, rule.name)


def test_a_rule_is_the_statement_with_the_run_quantities_put_in() -> None:
    rules = {r.name: r for r in compile_proof(hard_limiter_plus.PROOF).rules}
    assert rules["mistake"].formula == "d·w_x <= 0" and rules["mistake"].bound == "w_x·y <= 0"
    assert rules["output"].bound == "out == -y"
    assert rules["update"].bound == "step + eta·out == eta·y"  # wn1 = wn + η(d - y_out)·x, with wn1 = wn + step·x
    # The strict form is compiled as strict: nothing re-writes the condition by hand.
    strict = hard_limiter_plus.PROOF.replace_fact("mistake", statement=lt(sp.Symbol("d") * sp.Symbol("w_x"), 0),
                                                   text="on a mistake d·w·x < 0")
    assert {r.name: r for r in compile_proof(strict, BINDINGS["hard-limiter-plus"]).rules}["mistake"].bound == \
        "w_x·y < 0"


def test_a_rescaling_brings_its_denominator_in_as_a_condition() -> None:
    rules = {r.name: r for r in compile_proof(note_002.PROOF).rules}
    assert rules["unit-w*"].bound == "ws_sq != 0 and 1 == 1"  # ‖w*/‖w*‖‖² = 1 needs w* != 0
    assert rules["unit-x"].bound == "R_sq != 0 and x_sq·R_sq^-1 <= 1"


def test_a_fact_whose_words_say_another_relation_cannot_be_written() -> None:
    d, w_x = sp.symbols("d w_x")
    with pytest.raises(InvalidArgument, match="ends in the relation '<='"):
        Fact("mistake", lt(d * w_x, 0), "algorithm", "either way d·w·x <= 0")
    with pytest.raises(InvalidArgument, match="'mistake'"):  # the reviewer's survivor of issue 29
        hard_limiter_plus.PROOF.replace_fact("mistake", statement=lt(d * w_x, 0))
    assert Fact("mistake", le(d * w_x, 0), "algorithm", "either way d·w·x <= 0").name == "mistake"
    assert Fact("g", gt(d, 0), "hypothesis", "0 < d").name == "g"  # the mirror agrees
    assert text_relation("α = min over H of d·w0·x") is None  # a definition's "=" is no relation


def test_a_symbol_without_a_run_quantity_is_refused() -> None:
    binding = dataclasses.replace(BINDINGS["000"], symbols={k: v for k, v in BINDINGS["000"].symbols.items()
                                                            if k != "gamma"})
    with pytest.raises(InvalidArgument, match="no run quantity is bound to gamma"):
        compile_proof(note_000.PROOF, binding)


def test_a_positive_factor_the_fact_is_not_homogeneous_in_is_refused() -> None:
    y, x_ws = sp.symbols("y x_ws")
    proof = note_002.PROOF.replace_fact("separates", statement=gt(y * x_ws, 1), text="w* classifies every point")
    with pytest.raises(InvalidArgument, match="positive factor"):
        compile_proof(proof, BINDINGS["002"])


def test_a_claim_fact_must_state_its_claim() -> None:
    from verify_perceptron.proofs import averaged
    w_u, a, g, k = sp.symbols("w_u a gamma k")
    proof = averaged.PROOF.replace_fact("lower", statement=ge(w_u, a * g * (k + 1)))
    with pytest.raises(InvalidArgument, match="does not state claim 'lower-bound'"):
        compile_proof(proof, BINDINGS["averaged"])


def test_an_update_rule_that_keeps_the_vector_it_defines_is_refused() -> None:
    binding = Binding(BINDINGS["000"].symbols)  # no move for wk
    with pytest.raises(InvalidArgument, match="no move says how the run.s update reads"):
        compile_proof(note_000.PROOF, binding)
