"""The errata of issue 16: each is listed with a counterexample from an exact run, and the package's own
engines (the reference perceptron, the separability decision, the max-margin solve, the notes' bounds)
confirm that the counterexample refutes the note as written while the correction holds."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest

from tests import checked_proofs
from verify_perceptron.certify.certificates import gordan_defect
from verify_perceptron.certify.maxmargin import max_margin
from verify_perceptron.certify.separability import decide_separability
from verify_perceptron.data.dataset import from_arrays
from verify_perceptron.errors import InvalidArgument
from verify_perceptron.notes.bounds import geometry, note_bound
from verify_perceptron.notes.conventions import dot, get_convention
from verify_perceptron.proofs import ProofReport, render_proofs
from verify_perceptron.proofs.catalog import default_directory
from verify_perceptron.proofs.checking import check_proof
from verify_perceptron.proofs.counter import evaluate, refutes
from verify_perceptron.proofs.errata import Counterexample, Erratum, Run, update_states
from verify_perceptron.proofs.language import Rel, ge
from verify_perceptron.run.reference import train

REPORTS = checked_proofs.REPORTS  # notes 000 to 004 among them (checked when a test first reads them)
NEW = {"E001.5": "001", "E003.2": "003", "E003.3": "003", "E003.4": "003"}


def erratum(erratum_id: str) -> tuple[ProofReport, Erratum, tuple[Counterexample, ...]]:
    report = REPORTS[NEW.get(erratum_id, erratum_id[1:4])]
    for e, found in report.errata:
        if e.id == erratum_id:
            return report, e, found
    raise AssertionError(f"{erratum_id} is not listed")


def value(report: ProofReport, ce: Counterexample, side: str) -> Fraction:
    statement = report.result.proof.step(ce.failure.step).statement
    assert isinstance(statement, Rel)
    number = getattr(statement, side).xreplace(ce.model.values(report.result.proof))
    return Fraction(int(number.p), int(number.q))


@pytest.mark.parametrize("erratum_id", sorted(NEW))
def test_each_new_erratum_is_listed_with_a_counterexample_that_refutes_the_written_step(erratum_id: str) -> None:
    report, e, found = erratum(erratum_id)
    proof = report.result.proof
    assert report.result.result(e.corrected).status == "verified"
    assert found and len(found) == len(e.failures)
    for ce in found:
        assert report.result.result(ce.failure.step).status == "not-derivable"
        assert refutes(proof, ce.failure.step, ce.model)
        assert evaluate(proof.step(ce.failure.step).statement, ce.model, proof) is False


@pytest.mark.parametrize("form", ["text", "json", "markdown"])
def test_every_new_erratum_appears_in_every_format_with_its_counterexample(form: str) -> None:
    for erratum_id, key in NEW.items():
        out = render_proofs(key, form)
        written = erratum(erratum_id)[1].failures[0].step
        if form == "json":
            failures = {e["id"]: e for e in json.loads(out)[0]["errata"]}[erratum_id]["failures"]
            assert failures and all(f["written_step"] == written and f["updates_per_sample"] for f in failures)
        elif form == "text":
            assert f"erratum {erratum_id} " in out and f"counterexample for {written}: " in out
        else:
            assert f"### {erratum_id} · " in out and f"**Counterexample** to step {written} " in out


# --- E003.2: fewer patterns than features, yet not separable ----------------------------------------


def test_fewer_patterns_than_features_are_not_separable_by_the_engines_own_certificate() -> None:
    _, e, (ce,) = erratum("E003.2")
    run = ce.failure.run
    data = run.dataset()
    assert data.n_samples < data.n_features
    # The exact perceptron cycles, and returns to w = 0 at the counterexample: λ_μ = N_μ/N is Gordan's certificate.
    assert train(data, run.convention, max_epochs=10_000).stop == "cycle"
    assert all(v == 0 for v in ce.state.w) and ce.state.k > 0
    lam = tuple(Fraction(n, ce.state.k) for n in ce.state.mistakes)
    assert lam == (Fraction(1, 4), Fraction(1, 2), Fraction(1, 4))
    assert gordan_defect(data, lam) is None
    decision = decide_separability(data)
    assert decision.separable is False and decision.certified and decision.gordan == lam


def test_in_general_position_every_labelling_is_separable() -> None:
    # The correction: linearly independent augmented patterns are separable whatever their targets.
    points = [[1, 0, 0, 0], [0, 2, 0, 0], [3, 3, 1, 0]]
    for labels in itertools.product((1, -1), repeat=3):
        if len(set(labels)) == 1:
            continue  # one class: a dataset needs two (and any constant score separates it)
        assert decide_separability(from_arrays(points, list(labels))).separable is True, labels


# --- E003.3: N iterations are updates, not presentations ---------------------------------------------


def test_presentations_exceed_the_tightest_sum_norm_bound_while_updates_do_not() -> None:
    report, _, (ce,) = erratum("E003.3")
    run = ce.failure.run
    data = run.dataset()
    trace = train(data, run.convention)
    assert trace.converged and trace.n_updates == 1 and trace.n_epochs * data.n_samples == 8
    assert ce.state.presentations == 8 and ce.state.k == trace.n_updates
    # ŵ is the max-margin separator (the tightest β/D²), and the note's bound there is 223/50.
    best = max_margin(data)
    assert best.certified and best.weights is not None
    b, *v = best.weights
    ratios = {w / u for w, u in zip(get_convention("sum-norm").from_canonical(b, v), run.separator or ()) if u}
    assert len(ratios) == 1 and min(ratios) > 0
    assert all(w == 0 for w, u in zip(get_convention("sum-norm").from_canonical(b, v), run.separator or ()) if not u)
    assert note_bound("sum-norm", geometry(data, b, v)).value == Fraction(223, 50)
    assert value(report, ce, "lhs") == 8 and value(report, ce, "rhs") == Fraction(223, 50)
    assert trace.n_updates <= Fraction(223, 50) < 8


# --- E001.5: α over C1 only, n_max is exceeded ---------------------------------------------------------


def test_the_hard_limiter_makes_more_mistakes_than_n_max_with_the_notes_alpha() -> None:
    report, _, (ce,) = erratum("E001.5")
    run = ce.failure.run
    data = run.dataset()
    trace = train(data, run.convention, eta=run.eta)
    conv = get_convention(run.convention)
    w0 = run.separator
    assert trace.converged and trace.n_updates == 5 and w0 is not None
    samples = [conv.augment(x) for x in data.X]
    alpha_c1 = min(dot(w0, x) for x, y in zip(samples, data.y) if y > 0)
    alpha = min(y * dot(w0, x) for x, y in zip(samples, data.y))
    beta_sq = max(dot(x, x) for x in samples)
    n_max = beta_sq * dot(w0, w0) / alpha_c1**2
    assert n_max == Fraction(5002, 2401) and trace.n_updates > n_max
    # The counterexample is the first update past n_max; with α over both classes the bound holds.
    assert ce.state.k == 3 and value(report, ce, "rhs") == n_max
    assert trace.n_updates <= beta_sq * dot(w0, w0) / alpha**2
    b, v = conv.to_canonical(w0)
    assert trace.n_updates <= note_bound("hard-limiter", geometry(data, b, v)).value


# --- E003.4: Remark 1 needs sign(0) = 0 ----------------------------------------------------------------


def test_remark_1_fails_at_a_score_of_zero_for_either_sign_of_zero() -> None:
    report, _, found = erratum("E003.4")
    assert sorted(dict(ce.failure.run.constants)["sign0"] for ce in found) == [-1, 1]
    for ce in found:
        state = ce.state
        assert (state.k, all(v == 0 for v in state.w_prev)) == (1, True)  # the first presentation, at w = 0
        assert dot(state.w_prev, state.x) == 0
        assert dict(ce.failure.run.constants)["sign0"] == state.y  # sign(0) is this class's target: y = t
        assert value(report, ce, "lhs") == 1  # y·t = 1, yet (w·x)t = 0 <= 0 made it a mistake


def test_with_sign_of_zero_zero_remark_1_holds_at_every_update() -> None:
    report = REPORTS["003"]
    proof, model_of = report.result.proof, report.entry.model_of
    assert model_of is not None
    step = proof.step("003.R1")
    for run in (Run("modified OR", "sum-norm", example="modified-or"), Run("AND", "sum-norm", example="and")):
        for state in update_states(run):
            assert evaluate(step.statement, model_of(state, run), proof) is True


# --- E004.1: the correction names the weights before the update --------------------------------------


def test_e004_1_correction_names_the_weights_before_the_update() -> None:
    report, e, _ = erratum("E004.1")
    assert "(α0^(k-1), α^(k-1))" in e.correction
    assert "α^(k)" not in e.correction and "α0^(k)" not in e.correction
    corrected = report.result.proof.step(e.corrected)
    names = {str(s) for s in corrected.statement.free_symbols}
    assert names == {"m_prev"}  # y_i·(x_i·α^(k-1) + α0^(k-1)), the cross term of the norm expansion
    assert "corrected (004.8, verified): (α0^(k-1), α^(k-1))^T(y_i, y_i x_i) <= 0" in render_proofs("004", "text")


# --- the machinery the errata need -------------------------------------------------------------------


def test_presentations_count_every_sample_shown_while_the_weights_stand() -> None:
    run = Run("AND", "classic", example="and")
    trace = train(run.dataset(), run.convention)
    states = list(update_states(run))
    assert states[-1].presentations == trace.n_epochs * 4
    for state, following in zip(states, trace.updates[1:]):
        assert state.presentations == (following.epoch - 1) * 4 + following.samples[0]


def test_a_run_must_end_the_way_it_says() -> None:
    line = Run("line", "sum-norm", points=((Fraction(1),), (Fraction(2),), (Fraction(3),)), labels=(1, -1, 1))
    with pytest.raises(InvalidArgument, match="ended in 'cycle', not in 'converged'"):
        next(update_states(line))
    with pytest.raises(InvalidArgument, match="ended in 'converged', not in 'cycle'"):
        next(update_states(Run("AND", "classic", example="and", stop="cycle")))
    assert "a run that ends in a cycle" in Run("line", "sum-norm", points=line.points, labels=line.labels,
                                               stop="cycle").describe()


def test_regenerating_writes_the_repositorys_proofs_folder() -> None:
    assert default_directory() == Path(__file__).resolve().parent.parent / "proofs"


# --- the design document's account of weakening the margin --------------------------------------------


@pytest.mark.parametrize(("key", "fact", "failing"), [
    ("000", "gamma>0", ["000.13"]), ("001", "alpha>0", ["001.2", "001.15"]), ("002", "gamma>0", ["002.18"]),
    ("003", "m>0", ["003.14", "003.16", "003.17", "003.18", "003.19"]), ("004", "rho>0", ["004.16"]),
])
def test_weakening_the_margin_fails_exactly_these_steps(key: str, fact: str, failing: list[str]) -> None:
    # docs/design.md: γ >= 0 breaks each final bound and the steps that need a strict margin, no others.
    proof = REPORTS[key].result.proof
    statement = proof.fact(fact).statement
    assert isinstance(statement, Rel)
    weakened = check_proof(proof.replace_fact(fact, statement=ge(statement.lhs, statement.rhs), text="weakened to >="))
    assert [r.step.id for r in weakened.steps if not r.step.written and r.status != "verified"] == failing
    if key == "000":
        assert weakened.result("000.11").status == weakened.result("000.12").status == "verified"
