"""The five notes' proofs: every step verified or refuted as written, and no step survives a mutation."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from pathlib import Path

import pytest
import sympy as sp

from verify_perceptron.run.reference import train
from verify_perceptron.proofs.errata import update_states
from verify_perceptron.errors import InvalidArgument
from verify_perceptron.proofs.checking import check_proof
from verify_perceptron.proofs.counter import CounterModel, evaluate, refutes
from verify_perceptron.proofs.language import Proof, Rel, Step, VecEq, ge
from verify_perceptron.proofs.results import ProofResult
from tests import checked_proofs
from verify_perceptron.proofs import NOTE_PROOFS

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"  # shared/ sits beside the clone
REPORTS, KEYS = checked_proofs.REPORTS, checked_proofs.KEYS  # (checked when a test first reads them)


def restated(proof: Proof) -> list[Step]:
    return [s for s in proof.steps if not s.written]


def status_after(proof: Proof, step_id: str, **changes: object) -> str:
    """The step's status when it alone is changed (the proof is cut after it: later steps cannot matter)."""
    index = [s.id for s in proof.steps].index(step_id)
    mutant = proof.replace_step(step_id, **changes)
    cut = dataclasses.replace(mutant, steps=mutant.steps[:index + 1])
    return check_proof(cut).steps[-1].status


@pytest.mark.parametrize("key", KEYS)
def test_every_restated_step_is_verified_and_every_written_step_refuted(key: str) -> None:
    result: ProofResult = REPORTS[key].result
    for r in result.steps:
        expected = "not-derivable" if r.step.written else "verified"
        assert r.status == expected, (r.step.id, r.reason)
    assert result.complete


def test_errata_found() -> None:
    found = {e.id: (e.corrected, tuple(f.step for f in e.failures)) for r in REPORTS.values() for e, _ in r.errata}
    assert found == {
        "E000.1": ("000.1", ("000.1w",)), "E000.2": ("000.2", ("000.2w",)),
        "E000.3": ("000.11", ("000.11w", "000.13w")),
        "E001.1": ("001.1", ("001.1w",)), "E001.2": ("001.2", ("001.2w",)), "E001.3": ("001.4", ("001.4w",)),
        "E001.4": ("001.11", ("001.11w",)), "E001.5": ("001.15", ("001.15w",)),
        "E002.1": ("002.8", ("002.8w",)), "E002.2": ("002.13", ("002.13w",)),
        "E003.1": ("003.2", ("003.2w",)), "E003.2": ("003.G1", ("003.G1w",)), "E003.3": ("003.19", ("003.19w",)),
        "E003.4": ("003.R1", ("003.R1w", "003.R1w")),
        "E004.1": ("004.8", ("004.8w",)),
    }


@pytest.mark.parametrize("key", checked_proofs.WITH_ERRATA)
def test_each_erratum_is_a_run_of_the_reference_engine_where_only_the_correction_holds(key: str) -> None:
    report = REPORTS[key]
    proof = report.result.proof
    for erratum, counterexamples in report.errata:
        assert report.result.result(erratum.corrected).status == "verified"
        for ce in counterexamples:
            run = ce.failure.run
            trace = train(run.dataset(), run.convention, eta=run.eta, max_epochs=10_000)
            update = trace.updates[ce.state.k - 1]
            assert (update.epoch, update.samples, update.weights) == (ce.state.epoch, (ce.state.sample,), ce.state.w)
            assert refutes(proof, ce.failure.step, ce.model)
            model_of = report.entry.model_of
            assert model_of is not None
            # it is the first update of the run that refutes the written step
            for state in update_states(run):
                if state.k < ce.state.k:
                    assert not refutes(proof, ce.failure.step, model_of(state, run)), (erratum.id, state.k)


def _holds_where_assumed(proof: Proof, step: Step, model: CounterModel) -> bool | None:
    """True/False: the step's claim at the model, given that its assumptions hold there; None: not applicable."""
    known = {f.name: f.statement for f in proof.facts} | {s.id: s.statement for s in proof.steps}
    assumptions = [known[u] for u in (*step.uses, *step.tie)]
    try:
        if any(evaluate(a, model, proof) is not True for a in assumptions):
            return None
        return evaluate(step.statement, model, proof)
    except InvalidArgument:
        return None  # the model does not give every symbol (a partial sum, a rescaled value)


@pytest.mark.parametrize("key", checked_proofs.WITH_ERRATA)
def test_verified_steps_hold_at_every_update_of_the_runs_where_their_assumptions_do(key: str) -> None:
    # Soundness, empirically: a verified step is never refuted by exact values that satisfy its assumptions.
    report = REPORTS[key]
    proof = report.result.proof
    model_of = report.entry.model_of
    assert model_of is not None
    checked = 0
    for erratum, _ in report.errata:
        for failure in erratum.failures:
            for state in update_states(failure.run):
                model = model_of(state, failure.run)
                for step in restated(proof):
                    verdict = _holds_where_assumed(proof, step, model)
                    assert verdict is not False, (step.id, failure.run.label, state.k)
                    checked += verdict is True
    assert checked > 0


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed notes are not available here")
def test_every_quote_is_the_notes_own_words_at_that_line() -> None:
    for entry in NOTE_PROOFS:
        proof = entry.proof
        places = [s.place for s in proof.steps] + [f.place for f in proof.facts if f.place is not None]
        places += [e.place for e in entry.errata]
        for place in places:
            if place.note == "toolkit":
                continue
            seed = next(SEEDS.glob(f"{place.note}_*.txt"))
            lines = seed.read_text(encoding="utf-8").splitlines()
            assert place.line is not None, place
            assert place.quote and place.quote in lines[place.line - 1], (proof.key, place)
        for erratum in entry.errata:
            seed = next(SEEDS.glob(f"{erratum.place.note}_*.txt"))
            assert erratum.words in seed.read_text(encoding="utf-8"), erratum.id


# --- mutations: the checker is not a rubber stamp -----------------------------------------------


def _mutated_constants(statement: Rel | VecEq) -> list[Rel | VecEq]:
    """Each number in the statement changed by one; with no number, a side doubled or moved by one."""
    if isinstance(statement, VecEq):
        return [VecEq(2 * statement.lhs, statement.rhs)]
    found: list[Rel | VecEq] = []
    numbers = (statement.lhs.atoms(sp.Number) | statement.rhs.atoms(sp.Number)) - {sp.Integer(0)}
    for number in sorted(numbers, key=str):
        changed = Rel(statement.lhs.xreplace({number: number + 1}), statement.op,
                      statement.rhs.xreplace({number: number + 1}))
        if changed != statement:
            found.append(changed)
    if not found:
        found.append(Rel(statement.lhs, statement.op, statement.rhs + 1))
    return found


@pytest.mark.parametrize("key", KEYS)
def test_flipping_an_inequality_fails_that_step(key: str) -> None:
    proof = REPORTS[key].result.proof
    for step in restated(proof):
        if isinstance(step.statement, Rel) and not step.statement.is_equality:
            assert status_after(proof, step.id, statement=step.statement.flipped()) != "verified", step.id


@pytest.mark.parametrize("key", KEYS)
def test_changing_a_constant_fails_that_step(key: str) -> None:
    proof = REPORTS[key].result.proof
    for step in restated(proof):
        for mutant in _mutated_constants(step.statement):
            assert status_after(proof, step.id, statement=mutant) != "verified", (step.id, mutant)


@pytest.mark.parametrize("key", KEYS)
def test_dropping_an_assumption_fails_that_step(key: str) -> None:
    proof = REPORTS[key].result.proof
    for step in restated(proof):
        for name in step.uses:
            uses = tuple(u for u in step.uses if u != name)
            assert status_after(proof, step.id, uses=uses) != "verified", (step.id, name)
        if step.induction is not None:
            for name in step.induction.base_uses:
                base = tuple(u for u in step.induction.base_uses if u != name)
                induction = dataclasses.replace(step.induction, base_uses=base)
                assert status_after(proof, step.id, induction=induction) != "verified", (step.id, "base", name)
        for name in step.tie:
            tie = tuple(u for u in step.tie if u != name)
            assert status_after(proof, step.id, tie=tie) != "verified", (step.id, "tie", name)


@pytest.mark.parametrize("key", KEYS)
def test_weakening_a_strict_hypothesis_fails_a_step_that_uses_it(key: str) -> None:
    proof = REPORTS[key].result.proof
    for fact in proof.facts:
        statement = fact.statement
        users = [s.id for s in restated(proof) if fact.name in (*s.uses, *s.tie)]
        if not (isinstance(statement, Rel) and statement.op == ">") or not users:
            continue
        weakened = check_proof(proof.replace_fact(fact.name, statement=Rel(statement.lhs, ">=", statement.rhs),
                                                     text="weakened to >="))
        failed = [r.step.id for r in weakened.steps if r.step.id in users and r.status != "verified"]
        assert failed, fact.name


@pytest.mark.parametrize(("key", "fact", "final"), [
    ("000", "gamma>0", "000.13"), ("001", "alpha>0", "001.15"), ("hard-limiter-plus", "alpha>0", "001.15"),
    ("002", "gamma>0", "002.18"),
    ("003", "m>0", "003.19"), ("004", "rho>0", "004.16"), ("batch", "gamma>0", "B.19"),
])
def test_margin_zero_breaks_the_final_bound(key: str, fact: str, final: str) -> None:
    proof = REPORTS[key].result.proof
    statement = proof.fact(fact).statement
    assert isinstance(statement, Rel)
    weakened = proof.replace_fact(fact, statement=ge(statement.lhs, statement.rhs), text="weakened to >=")
    assert check_proof(weakened).result(final).status != "verified"


def test_a_note_hypothesis_as_written_makes_the_final_step_undecided() -> None:
    # Note 000 with "γ ∈ R": drop γ > 0 entirely; the squaring and the division both fail.
    proof = REPORTS["000"].result.proof
    without = proof.replace_step("000.11", uses=("000.5", "eta", "k-nat"))
    result = check_proof(without)
    assert result.result("000.11").status == "undecided"
    assert result.result("000.12").status == "undecided"  # it depends on 000.11
    assert result.result("000.13").status == "undecided"


def test_exact_values_only() -> None:
    # The counter-models of the errata are exact rationals, read off exact runs.
    for report in REPORTS.values():
        for _, counterexamples in report.errata:
            for ce in counterexamples:
                for _, value in ce.model.scalars:
                    assert value.is_Rational
                assert all(isinstance(v, Fraction) for v in ce.state.w)


def test_the_mirrored_tie_enters_only_through_the_mistake_fact() -> None:
    """hard-limiter-plus: note 001's chain holds from d·w·x <= 0; a rule that lets a positive score be a
    mistake (a tolerance, d·w·x <= 1) breaks the upper bound's step, and note 001's own statement of
    the fact differs from the mirrored one only in its words."""
    proof = REPORTS["hard-limiter-plus"].result.proof
    original = REPORTS["001"].result.proof
    assert proof.fact("mistake").statement == original.fact("mistake").statement
    assert "sgn(0) = +1" in proof.fact("mistake").text and "sgn(0) = -1" in original.fact("mistake").text
    statement = proof.fact("mistake").statement
    assert isinstance(statement, Rel)
    tolerant = proof.replace_fact("mistake", statement=Rel(statement.lhs, "<=", statement.rhs + 1),
                                 text="tolerant: <= 1")
    users = [s.id for s in restated(proof) if "mistake" in s.uses]
    result = check_proof(tolerant)
    assert users and any(result.result(u).status != "verified" for u in users)
