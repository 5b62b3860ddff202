"""The proof steps and the runtime check are one object: the claims of verify_perceptron.notes.claims."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

import pytest
import sympy as sp

from verify_perceptron.notes import claims
from verify_perceptron.notes.bounds import geometry, note_bound
from verify_perceptron.check.traces import check_trace
from verify_perceptron.notes.claims import claims_for
from verify_perceptron.notes.conventions import CONVENTIONS
from verify_perceptron.run.reference import train
from verify_perceptron.proofs.errata import Run, update_states
from verify_perceptron.data.examples import example
from verify_perceptron.proofs import NOTE_PROOFS, instantiated_claims, proof_reports

MODES = ("online", "batch")


@pytest.mark.parametrize("convention", list(CONVENTIONS))
@pytest.mark.parametrize("mode", MODES)
def test_every_invariant_verify_reports_is_an_instantiated_proof_step(convention: str, mode: str) -> None:
    assert [c.name for c in instantiated_claims(convention, mode)] == [c.name for c in claims_for(convention, mode)]


@pytest.mark.parametrize("mode", MODES)
def test_the_instantiated_steps_are_what_check_trace_evaluates(mode: str) -> None:
    data = example("and")
    trace = train(data, "classic", mode=mode)
    default = check_trace(data, trace)
    from_steps = check_trace(data, trace, claims=instantiated_claims("classic", mode))
    summary = [(r.name, r.holds, r.n_checked, r.min_slack) for r in default.invariants]
    # The default check adds the soft-margin bound (online only), which check/soft_margin evaluates apart from
    # the claims; its proof (proofs/soft-margin.md) ends in the root form that check tests in squares.
    extra = [("soft-margin-bound", True, trace.n_updates, None)] if mode == "online" else []
    assert [(r.name, r.holds, r.n_checked, r.min_slack) for r in from_steps.invariants] + extra == summary


def _replace_claim(name: str, **changes: Any) -> tuple[claims.Claim, ...]:
    return tuple(dataclasses.replace(c, **changes) if c.name == name else c for c in claims.CLAIMS)


def test_breaking_a_claim_changes_both_the_proof_step_and_the_runtime_check(monkeypatch: pytest.MonkeyPatch) -> None:
    data = example("and")
    trace = train(data, "classic")
    before = {r.name: r for r in check_trace(data, trace).invariants}
    assert before["lower-bound"].holds and proof_reports("000")[0].result.result("000.5").status == "verified"

    # Flip the claim: w_k·w* <= N·a·γ.
    monkeypatch.setattr(claims, "CLAIMS", _replace_claim("lower-bound", lhs=lambda q: q.w_ws,
                                                         rhs=lambda q: q.N * q.a * q.gamma))
    step = proof_reports("000")[0].result.result("000.5")
    runtime = {r.name: r for r in check_trace(data, trace).invariants}["lower-bound"]
    assert step.status == "undecided" and "does not imply the runtime claim lower-bound" in step.reason
    assert runtime.holds is False
    assert runtime.first_violation is not None and runtime.first_violation.k == 1


def test_strengthening_a_claim_changes_both(monkeypatch: pytest.MonkeyPatch) -> None:
    # One more mistake's worth of progress than the proof gives: w_k·w* >= (N + 1)·a·γ.
    data = example("and")
    trace = train(data, "classic")
    before = {r.name: r.min_slack for r in check_trace(data, trace).invariants}
    monkeypatch.setattr(claims, "CLAIMS", _replace_claim("lower-bound", lhs=lambda q: (q.N + 1) * q.a * q.gamma))
    after = {r.name: r.min_slack for r in check_trace(data, trace).invariants}
    assert before["lower-bound"] is not None
    assert after["lower-bound"] == before["lower-bound"] - 1  # γ = 1, a = 1 for these weights
    assert proof_reports("000")[0].result.result("000.5").status == "undecided"


def test_weakening_a_claim_also_shows_in_both(monkeypatch: pytest.MonkeyPatch) -> None:
    data = example("modified-or")
    trace = train(data, "sum-norm")
    before = {r.name: r.min_slack for r in check_trace(data, trace).invariants}
    # Doubled (not "+ 1": a claim must stay homogeneous to be checked in the checker's integers).
    monkeypatch.setattr(claims, "CLAIMS", _replace_claim("angle", rhs=lambda q: 2 * q.w_ws**2 * q.beta))
    after = {r.name: r.min_slack for r in check_trace(data, trace).invariants}
    assert before["angle"] is not None and after["angle"] is not None
    assert after["angle"] > before["angle"]
    result = proof_reports("003")[0].result.result("003.17")
    assert result.status == "undecided" and result.tie is not None and not result.tie.holds


def test_a_broken_step_no_longer_backs_its_runtime_invariant(monkeypatch: pytest.MonkeyPatch) -> None:
    # Break step 000.10 (its certificate); the invariant it instantiates drops out of what the proofs back.
    import verify_perceptron.proofs.note_000 as note000
    from verify_perceptron.proofs.language import C, T

    induction = note000.PROOF.step("000.10").induction
    assert induction is not None
    broken = note000.PROOF.replace_step("000.10", induction=dataclasses.replace(induction, step=C(T(1, "IH"))))
    entries = tuple(dataclasses.replace(e, proof=broken) if e.proof.key == "000" else e for e in NOTE_PROOFS)
    monkeypatch.setattr("verify_perceptron.proofs.catalog.NOTE_PROOFS", entries)
    names = [c.name for c in instantiated_claims("classic")]
    assert "upper-bound" not in names
    data = example("and")
    checked = check_trace(data, train(data), claims=instantiated_claims("classic"))
    assert "upper-bound" not in [r.name for r in checked.invariants]


# The note's symbols read off runs whose norms are rational, so every quantity stays exact.
RUNS = {
    "000": Run("AND", "classic", example="and"),
    "001": Run("AND, η = 1/2", "hard-limiter", Fraction(1, 2), example="and",
               separator=(Fraction(-4), Fraction(3), Fraction(2))),
    "002": Run("±3/4", "unit-ball", points=((Fraction(3, 4),), (Fraction(-3, 4),)), labels=(1, -1),
               separator=(Fraction(1), Fraction(0))),
    "003": Run("modified OR", "sum-norm", example="modified-or"),
    "004": Run("AND", "split-bias", example="and", separator=(Fraction(-1), Fraction(3, 5), Fraction(4, 5))),
}


@pytest.mark.parametrize("key", list(RUNS))
def test_proof_quantities_are_the_runtime_quantities(key: str) -> None:
    # Each tied claim, evaluated on the proof's symbols at every update, has the runtime's exact min slack.
    entry = next(e for e in NOTE_PROOFS if e.proof.key == key)
    assert entry.model_of is not None
    run = RUNS[key]
    data = run.dataset()
    trace = train(data, run.convention, eta=run.eta)
    runtime = {r.name: r.min_slack for r in check_trace(data, trace, separator=run.separator).invariants}
    tied = {r.tie.claim for r in proof_reports(key)[0].result.steps if r.tie is not None and r.tie.holds}
    slacks: dict[str, list[Fraction]] = {}
    for state in update_states(run):
        values = entry.model_of(state, run).values(entry.proof)
        q = SimpleNamespace(**{name: expr.xreplace(values) for name, expr in entry.proof.quantities})
        for claim in claims.CLAIMS:
            if claim.name in tied:
                slack = sp.nsimplify(claim.slack(q))
                assert slack.is_Rational, (claim.name, slack)
                slacks.setdefault(claim.name, []).append(Fraction(int(slack.p), int(slack.q)))
    assert set(slacks) == tied
    for name, found in slacks.items():
        assert min(found) == runtime[name], name


@pytest.mark.parametrize("convention", list(CONVENTIONS))
def test_every_notes_bound_is_at_least_the_one_the_batch_proof_assumes(convention: str) -> None:
    # The batch proof's fact (bound): B >= R²·‖w*‖²/γ² for each note's bound B.
    for name, (b, *v) in (("and", (-4, 3, 2)), ("or", (-1, 2, 2)), ("modified-or", (1, 1, 1))):
        g = geometry(example(name), Fraction(b), tuple(map(Fraction, v)))
        assert g.separates
        assert note_bound(convention, g).value >= g.R_sq * g.ws_sq / g.gamma**2


def test_the_runtime_chain_does_not_import_the_proofs() -> None:
    code = ("import sys, verify_perceptron, verify_perceptron.cli\n"
            "mine = [m for m in sys.modules if m.split('.')[-1] in "
            "('proof', 'proofs', 'errata', '_algebra', '_proof_render') or m.startswith('verify_perceptron._proof_')]\n"
            "print(mine)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
