"""The checker catches what is wrong: tampered traces, bad separators, bounds and claims made too strong.

Every claim of `claims.CLAIMS` gets a mutation test: the claim with its right
side halved must fail on some concrete run, so no claim is a rubber stamp.
"""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction

import pytest

import verify_perceptron.check.checker as checks_module
import verify_perceptron.cli as cli
import verify_perceptron.run.reference as engine_module
import verify_perceptron.run.fast as fast_module
from verify_perceptron.check.traces import assert_trace_verified, check_trace
from verify_perceptron.notes.bounds import note_bounds
from verify_perceptron.notes.claims import CLAIMS, Claim, claims_for
from verify_perceptron.notes.conventions import CONVENTIONS
from verify_perceptron.data.dataset import Dataset
from verify_perceptron.run.reference import train
from verify_perceptron.errors import InvalidArgument, InvariantViolation
from verify_perceptron.data.examples import example
from verify_perceptron.data.trace import Trace, Update

F = Fraction
CLAIM = {c.name: c for c in CLAIMS}
SEPARATOR_CLAIMS = [c.name for c in CLAIMS if c.needs_separator]


def vec(*values) -> tuple[Fraction, ...]:
    return tuple(Fraction(v) for v in values)


def data_of(X, y) -> Dataset:
    return Dataset(X=tuple(tuple(Fraction(v) for v in row) for row in X), y=tuple(y))


# Two crafted one-dimensional datasets on which the proofs' inequalities are nearly tight.
WIDE = data_of([(-2,), (2,)], (-1, 1))  # with w* = (0, 1): R²‖w*‖²/γ² = 5/4, one mistake
LOPSIDED = data_of([(-2,), (1,)], (-1, 1))  # sample 0 carries 5 of β = 7
DATASETS = {"and": example("and"), "or": example("or"), "modified-or": example("modified-or"),
            "wide": WIDE, "lopsided": LOPSIDED}


def result_named(result, name):
    (found,) = [r for r in result.invariants if r.name == name]
    return found


def tamper(trace: Trace, k: int, **changes) -> Trace:
    """The trace with update k (from 1) changed by dataclasses.replace."""
    updates = list(trace.updates)
    updates[k - 1] = dataclasses.replace(updates[k - 1], **changes)
    return dataclasses.replace(trace, updates=tuple(updates))


@pytest.fixture
def and_run():
    data = example("and")
    return data, train(data, "classic")


# ------------------------------------------------------------------------------------------------
# the genuine run passes


def test_genuine_and_run_passes_every_check(and_run):
    data, trace = and_run
    result = check_trace(data, trace)
    assert result.holds and result.complete
    assert [r.name for r in result.invariants] == [
        "update-rule", "separator-separates", "final-weights-separate",
        "lower-bound-step", "lower-bound", "upper-bound-step", "upper-bound-per-sample",
        "upper-bound", "cauchy-schwarz", "mistake-bound", "soft-margin-bound",
    ]
    assert all(r.holds is True for r in result.invariants)
    assert result.separator == vec(-4, 3, 2) and result.separator_source == "final"
    assert result_named(result, "update-rule").n_checked == 18
    assert result_named(result, "mistake-bound").min_slack == 87 - 18


# ------------------------------------------------------------------------------------------------
# tampered traces


def test_tampered_weight_fails_update_rule_at_that_update(and_run):
    data, trace = and_run
    u5 = trace.updates[4]
    bad = tamper(trace, 5, weights=(u5.weights[0] + 1, *u5.weights[1:]))
    result = check_trace(data, bad)
    assert not result.holds
    rule = result_named(result, "update-rule")
    assert rule.holds is False
    assert rule.first_violation.k == 5 and rule.first_violation.samples == u5.samples
    assert "update 5" in rule.first_violation.describe(rule.text)
    assert result.violations[0].name == "update-rule"


def test_tampered_step_and_weight_together_still_fail_update_rule(and_run):
    data, trace = and_run
    u3 = trace.updates[2]
    prev = trace.updates[1].weights
    delta = tuple(2 * d for d in u3.delta)  # twice the rule's step, with w_k consistent with it
    bad = tamper(trace, 3, delta=delta, weights=tuple(p + d for p, d in zip(prev, delta)))
    rule = result_named(check_trace(data, bad), "update-rule")
    assert rule.holds is False and rule.first_violation.k == 3
    assert "the step is" in rule.first_violation.message


def test_tampered_score_fails_update_rule(and_run):
    data, trace = and_run
    u7 = trace.updates[6]
    bad = tamper(trace, 7, scores=(u7.scores[0] - 1,))
    result = check_trace(data, bad)
    rule = result_named(result, "update-rule")
    assert not result.holds and rule.holds is False
    assert rule.first_violation.k == 7
    assert dict(rule.first_violation.values) == {"score": u7.scores[0], "recorded_score": u7.scores[0] - 1}


def test_update_on_a_sample_that_was_not_a_mistake_fails_update_rule():
    data = example("and")
    u1 = Update(1, 1, (0,), vec(0), vec(-1, 0, 0), vec(-1, 0, 0))  # genuine: score 0 on class -1
    # sample 1 = (0, 1), class -1: score [-1, 0, 0]·(1, 0, 1) = -1, correctly classified
    u2 = Update(2, 1, (1,), vec(-1), vec(-1, 0, -1), vec(-2, 0, -1))
    trace = Trace("classic", F(1), "online", (u1, u2), vec(-2, 0, -1), 1, "max-epochs", None, (1, 1, 0, 0))
    result = check_trace(data, trace)
    rule = result_named(result, "update-rule")
    assert rule.holds is False and rule.first_violation.k == 2
    assert "not a mistake" in rule.first_violation.message
    assert dict(rule.first_violation.values) == {"label": -1, "score": -1}


@pytest.mark.parametrize("mode", ["online", "batch"])
def test_an_update_of_no_sample_fails_update_rule_and_raises_nothing(mode):
    # a reported step of no sample (code written for other labels, given them) was an AttributeError in the checker
    data = example("and")
    u1 = Update(1, 1, (), (), vec(0, 0, 0), vec(0, 0, 0))
    trace = Trace("classic", F(1), mode, (u1,), vec(0, 0, 0), 1, "max-epochs", None, (0, 0, 0, 0))
    rule = result_named(check_trace(data, trace), "update-rule")
    assert rule.holds is False and rule.first_violation.k == 1
    assert rule.first_violation.message == f"samples [] are not what one {mode} update can have"


def test_zero_score_on_class_minus_one_is_no_mistake_for_hard_limiter():
    # The classic run's first update (score 0 on a class -1 sample) is not a hard-limiter mistake.
    data = example("and")
    u1 = Update(1, 1, (0,), vec(0), vec(-2, 0, 0), vec(-2, 0, 0))
    trace = Trace("hard-limiter", F(1), "online", (u1,), vec(-2, 0, 0), 1, "max-epochs", None, (1, 0, 0, 0))
    rule = result_named(check_trace(data, trace), "update-rule")
    assert rule.holds is False and rule.first_violation.k == 1
    assert "not a mistake" in rule.first_violation.message


def test_hard_limiter_step_of_eta_instead_of_two_eta_fails_update_rule():
    data = example("and")
    trace = train(data, "hard-limiter")
    u1 = trace.updates[0]
    half = tuple(d / 2 for d in u1.delta)
    bad = tamper(trace, 1, delta=half, weights=half)
    rule = result_named(check_trace(data, bad), "update-rule")
    assert rule.holds is False and rule.first_violation.k == 1


def test_batch_update_missing_a_score_is_caught():
    data = example("modified-or")
    trace = train(data, "sum-norm", mode="batch")
    bad = tamper(trace, 1, scores=(F(0), F(0), F(1), F(0)))
    rule = result_named(check_trace(data, bad), "update-rule")
    assert rule.holds is False and rule.first_violation.k == 1 and rule.first_violation.samples == (0, 1, 2, 3)


def test_claimed_convergence_with_wrong_final_weights_fails(and_run):
    data, trace = and_run
    bad = dataclasses.replace(trace, final_weights=vec(-1, 1, 1))  # (1, 1) scores 1 > 0 but (0, 1) scores 0
    result = check_trace(data, bad, separator=[-4, 3, 2])
    final = result_named(result, "final-weights-separate")
    assert final.holds is False
    assert final.first_violation.samples == (1,)
    assert not result.holds


def test_wrong_fractional_final_weights_show_the_true_score_of_the_mistake(and_run):
    # w = (1/3, 0, 0) scores w·x~ = 1/3 on sample 0 (class -1): a mistake, shown as 1/3, not as
    # the score of the weights scaled to integers (1).
    data, trace = and_run
    bad = dataclasses.replace(trace, final_weights=vec(F(1, 3), 0, 0))
    final = result_named(check_trace(data, bad, separator=[-4, 3, 2]), "final-weights-separate")
    assert final.holds is False and final.first_violation.samples == (0,)
    assert dict(final.first_violation.values)["score"] == F(1, 3)


# ------------------------------------------------------------------------------------------------
# a separator that does not separate


def test_non_separating_separator_fails_and_skips_the_w_star_claims(and_run):
    data, trace = and_run
    result = check_trace(data, trace, separator=[1, 1, 1])
    sep = result_named(result, "separator-separates")
    assert sep.holds is False
    # The first sample w* fails, in the data's order: y·w*·x~ = -1 at (0, 0); γ = -2 is at (0, 1).
    assert sep.first_violation.samples == (0,)
    assert dict(sep.first_violation.values) == {"gamma": -2, "margin": -1}
    assert not result.holds and result.separator_source == "user"
    # Cauchy-Schwarz holds for any w*; only the claims about γ (and the bound built on it) need separation.
    for name in SEPARATOR_CLAIMS:
        if name in {c.name for c in claims_for("classic", "online")} and name != "cauchy-schwarz":
            skipped = result_named(result, name)
            assert skipped.holds is None and skipped.skipped == "the separator does not separate"
            assert skipped.n_checked == 0
    for name in ("update-rule", "upper-bound-step", "upper-bound-per-sample", "upper-bound"):
        assert result_named(result, name).holds is True
    assert result_named(result, "cauchy-schwarz").holds is True
    assert result_named(result, "cauchy-schwarz").n_checked == trace.n_updates
    assert result.bounds == () and result.own_bound is None
    assert [r.name for r in result.violations] == ["separator-separates"]


def test_separator_of_wrong_length_is_rejected(and_run):
    data, trace = and_run
    with pytest.raises(InvalidArgument, match="separator has 2 values"):
        check_trace(data, trace, separator=[1, 1])


def test_unconverged_run_without_separator_skips_the_w_star_claims():
    data = example("and")
    trace = train(data, "classic", max_epochs=2)
    result = check_trace(data, trace)
    assert result.holds and not result.complete
    assert result.separator is None and result_named(result, "separator-separates").holds is None
    assert result_named(result, "mistake-bound").skipped.startswith("no separator")


# ------------------------------------------------------------------------------------------------
# a bound constant made too small


def test_too_small_note_bound_is_a_violation(monkeypatch, and_run):
    data, trace = and_run
    real = note_bounds  # the checker's, replaced there below

    def tenth(g):
        return [dataclasses.replace(bound, value=bound.value / 10) for bound in real(g)]  # 87/10

    monkeypatch.setattr(checks_module, "note_bounds", tenth)
    result = check_trace(data, trace)
    mb = result_named(result, "mistake-bound")
    assert mb.holds is False
    assert mb.first_violation.k == 9  # the first N > 8.7
    assert dict(mb.first_violation.values) == {"N": 9, "bound": F(87, 10)}
    assert [r.name for r in result.violations] == ["mistake-bound"]


def test_claim_with_halved_radius_is_a_violation(and_run):
    data, trace = and_run
    wrong = dataclasses.replace(CLAIM["upper-bound"], rhs=lambda q: q.N * q.a**2 * (q.R_sq / 2))
    result = check_trace(data, trace, claims=[wrong])
    ub = result_named(result, "upper-bound")
    assert ub.holds is False and ub.first_violation.k >= 1
    assert dict(ub.first_violation.values)["R_sq"] == 3  # the values shown are the true ones
    assert check_trace(data, trace, claims=[CLAIM["upper-bound"]]).holds


def test_custom_claim_is_evaluated_at_every_update(and_run):
    data, trace = and_run
    always_false = Claim("never", "0 <= -1", "test", lambda q: 0, lambda q: -1, (), needs_separator=False)
    result = check_trace(data, trace, claims=[always_false])
    never = result_named(result, "never")
    assert never.holds is False and never.n_checked == 18 and never.first_violation.k == 1


# ------------------------------------------------------------------------------------------------
# every claim can fail: mutation tests

# claim -> (dataset, convention, mode, separator or None for the default)
MUTATION_CASES = {
    "lower-bound-step": ("and", "classic", "online", None),
    "lower-bound": ("and", "classic", "online", None),
    "upper-bound-step": ("and", "classic", "online", None),
    "upper-bound-per-sample": ("and", "classic", "online", None),
    "upper-bound": ("and", "hard-limiter", "online", None),
    "upper-bound-batch": ("wide", "classic", "batch", None),
    "cauchy-schwarz": ("and", "classic", "online", None),
    "mistake-bound": ("wide", "classic", "online", [0, 1]),
    "mistake-bound-batch": ("wide", "classic", "batch", [0, 1]),
    "quadratic-lower-bound": ("or", "hard-limiter", "online", None),
    "upper-bound-sum": ("lopsided", "sum-norm", "online", None),
    "angle": ("lopsided", "sum-norm", "online", [2, -1]),
    "upper-bound-sum-batch": ("wide", "classic", "batch", None),
    "upper-bound-per-sample-batch": ("wide", "classic", "batch", None),
    "mistake-bound-sum-batch": ("wide", "classic", "batch", [0, 1]),
}


def test_every_claim_has_a_mutation_case():
    assert set(MUTATION_CASES) == {c.name for c in CLAIMS}


def halved(claim: Claim) -> Claim:
    rhs = claim.rhs
    return dataclasses.replace(claim, rhs=lambda q: rhs(q) / 2)


@pytest.mark.parametrize("name", list(MUTATION_CASES))
def test_claim_with_halved_right_side_fails(name):
    dataset, convention, mode, separator = MUTATION_CASES[name]
    claim = CLAIM[name]
    assert claim in claims_for(convention, mode)  # a theorem for this run: it must hold as written
    data = DATASETS[dataset]
    trace = train(data, convention, mode=mode)
    genuine = check_trace(data, trace, separator=separator, claims=[claim])
    assert genuine.holds and result_named(genuine, name).holds is True
    assert result_named(genuine, name).n_checked == trace.n_updates
    mutated = check_trace(data, trace, separator=separator, claims=[halved(claim)])
    failed = result_named(mutated, name)
    assert failed.holds is False and failed.min_slack < 0
    assert 1 <= failed.first_violation.k <= trace.n_updates
    assert [r.name for r in mutated.violations] == [name]
    assert {v for v, _ in failed.first_violation.values} == set(claim.uses)


@pytest.mark.parametrize("name", ["lower-bound-step", "upper-bound-step", "upper-bound-per-sample"])
def test_tight_claims_reach_zero_slack_and_fail_when_tightened(name):
    # These hold with equality at some update of the AND run: anything stronger is false.
    data = example("and")
    trace = train(data, "classic")
    genuine = result_named(check_trace(data, trace), name)
    assert genuine.holds is True and genuine.min_slack == 0
    # Tightened by a thousandth of its left side (which is > 0 there), so it stays homogeneous.
    loose = CLAIM[name].lhs
    tighter = dataclasses.replace(CLAIM[name], lhs=lambda q: loose(q) * F(1001, 1000))
    failed = result_named(check_trace(data, trace, claims=[tighter]), name)
    assert failed.holds is False and failed.first_violation.k == genuine.min_slack_at
    assert failed.min_slack < 0


def test_a_claim_that_is_not_homogeneous_is_refused_naming_it():
    # w_sq <= w_sq + 1/1000 mixes units: its sign would depend on the scaling the checker uses.
    data = example("and")
    mixed = dataclasses.replace(CLAIM["upper-bound-step"], rhs=lambda q: q.w_sq + F(1, 1000))
    with pytest.raises(InvalidArgument, match="claim 'upper-bound-step' cannot be checked exactly here"):
        check_trace(data, train(data, "classic"), claims=[mixed])


def test_every_claim_is_checked_on_some_example_run():
    checked = set()
    for name in DATASETS:
        for convention in CONVENTIONS:
            for mode in ("online", "batch"):
                data = DATASETS[name]
                result = check_trace(data, train(data, convention, mode=mode))
                assert result.holds, (name, convention, mode)
                checked |= {r.name for r in result.invariants if r.n_checked > 0 and r.holds is True}
    assert {c.name for c in CLAIMS} <= checked


NOTE_003_BATCH = ("upper-bound-sum-batch", "upper-bound-per-sample-batch", "mistake-bound-sum-batch")


@pytest.mark.parametrize("convention", list(CONVENTIONS))
def test_note_003_batch_claims_are_checked_for_every_convention(convention):
    # Derived here for any step a: each is a theorem of every convention's batch mode, none of online mode.
    assert set(NOTE_003_BATCH) <= {c.name for c in claims_for(convention, "batch")}
    assert not set(NOTE_003_BATCH) & {c.name for c in claims_for(convention, "online")}
    for name in ("and", "or", "modified-or"):
        data = example(name)
        trace = train(data, convention, mode="batch")
        result = check_trace(data, trace)
        for claim in NOTE_003_BATCH:
            found = result_named(result, claim)
            assert found.holds is True and found.n_checked == trace.n_updates, (name, claim)


def test_a_batch_of_samples_that_are_no_mistakes_breaks_note_003s_batch_claims():
    # WIDE, classic, batch: one update w = (0, 4) (both samples, N = 2, β = 10). A forged second
    # batch adds both samples again although both score 8·y > 0: w = (0, 8), ‖w‖² = 64 > a²Nβ = 40,
    # > a²·n_max·Σ N_μ‖x~_μ‖² = 2·20 = 40, and Nγ² = 4·4 > β‖w*‖² = 10 with w* = (0, 1).
    trace = train(WIDE, "classic", mode="batch")
    assert [u.samples for u in trace.updates] == [(0, 1)] and trace.final_weights == vec(0, 4)
    forged = Update(2, 2, (0, 1), (F(-8), F(8)), vec(0, 4), vec(0, 8))
    bad = dataclasses.replace(trace, updates=(*trace.updates, forged), final_weights=vec(0, 8))
    result = check_trace(WIDE, bad, separator=[0, 1])
    assert result_named(result, "update-rule").holds is False
    expected = {"upper-bound-sum-batch": {"w_sq": 64, "a": 1, "N": 4, "beta": 10},
                "upper-bound-per-sample-batch": {"w_sq": 64, "a": 1, "n_max": 2, "sum_N_xsq": 20},
                "mistake-bound-sum-batch": {"N": 4, "gamma": 2, "beta": 10, "ws_sq": 1}}
    for name, values in expected.items():
        failed = result_named(result, name)
        assert failed.holds is False and failed.first_violation.k == 2, name
        assert dict(failed.first_violation.values) == values
    genuine = check_trace(WIDE, trace, separator=[0, 1])
    assert all(result_named(genuine, name).holds is True for name in expected)


def test_note_003s_per_sample_form_fails_in_batch_mode_and_holds_with_n_max():
    # Why the batch form carries n_max: from w = 0 both samples of WIDE are mistakes, and
    # ‖(0, 4)‖² = 16 > a²·Σ_μ N_μ‖x~_μ‖² = 10 (the online claim), <= a²·n_max·10 = 20.
    trace = train(WIDE, "classic", mode="batch")
    online_form = dataclasses.replace(CLAIM["upper-bound-per-sample"], modes=("online", "batch"))
    failed = result_named(check_trace(WIDE, trace, claims=[online_form]), "upper-bound-per-sample")
    assert failed.holds is False and dict(failed.first_violation.values) == {"w_sq": 16, "a": 1, "sum_N_xsq": 10}
    batch_form = result_named(check_trace(WIDE, trace), "upper-bound-per-sample-batch")
    assert batch_form.holds is True and batch_form.min_slack == 4


# ------------------------------------------------------------------------------------------------
# hard-limiter on AND: a class -1 score of exactly 0 at the end


def test_hard_limiter_and_ends_with_a_zero_class_minus_one_score():
    data = example("and")
    trace = train(data, "hard-limiter")
    assert trace.converged and trace.final_weights == vec(-4, 4, 2)
    b, v = CONVENTIONS["hard-limiter"].to_canonical(trace.final_weights)
    scores = [sum((p * q for p, q in zip(v, x)), F(0)) + b for x in data.X]
    assert scores == [-4, -2, 0, 2]
    assert [s for s, y in zip(scores, data.y) if s == 0] == [0] and data.y[scores.index(F(0))] == -1


def test_hard_limiter_default_separator_is_final_weights_with_bias_lowered():
    data = example("and")
    trace = train(data, "hard-limiter")
    result = check_trace(data, trace)
    assert result.separator_source == "final" and result.separator_note is not None
    assert result.separator_note.startswith("bias lowered")
    assert result.separator == vec(-5, 4, 2)  # bias lowered by half the smallest class +1 score (2)
    assert result.geometry is not None and result.geometry.gamma == 1
    assert result.holds and result.complete
    assert all(r.holds is True for r in result.invariants)
    assert result_named(result, "quadratic-lower-bound").n_checked == trace.n_updates


def test_hard_limiter_final_weights_themselves_are_no_strict_separator():
    data = example("and")
    trace = train(data, "hard-limiter")
    result = check_trace(data, trace, separator=trace.final_weights)
    sep = result_named(result, "separator-separates")
    assert sep.holds is False and dict(sep.first_violation.values) == {"gamma": 0, "margin": 0}
    assert sep.first_violation.samples == (2,)


# ------------------------------------------------------------------------------------------------
# assert_trace_verified


def test_assert_trace_verified_returns_the_result_when_everything_holds(and_run):
    data, trace = and_run
    assert assert_trace_verified(data, trace).holds


def test_assert_trace_verified_raises_naming_the_claim_and_values(and_run):
    data, trace = and_run
    u7 = trace.updates[6]
    bad = tamper(trace, 7, scores=(u7.scores[0] - 1,))
    with pytest.raises(InvariantViolation) as info:
        assert_trace_verified(data, bad)
    message = str(info.value)
    assert result_named(check_trace(data, bad), "update-rule").text in message
    assert "update 7" in message
    assert f"score was {u7.scores[0]}" in message and f"recorded_score was {u7.scores[0] - 1}" in message


def test_assert_trace_verified_error_is_an_assertion_error(and_run):
    data, trace = and_run
    assert issubclass(InvariantViolation, AssertionError)
    with pytest.raises(AssertionError, match="gamma was -2"):
        assert_trace_verified(data, trace, separator=[1, 1, 1])


# ------------------------------------------------------------------------------------------------
# the command line


def test_cli_verifies_the_genuine_and_run(capsys):
    assert cli.main(["verify", "--example", "and"]) == 0
    assert "VERIFIED" in capsys.readouterr().out


def test_cli_exits_1_on_a_tampered_trace(monkeypatch, capsys):
    real_train = engine_module.train

    def tampered_train(*args, **kwargs):
        trace = real_train(*args, **kwargs)
        u = trace.updates[4]
        return tamper(trace, 5, weights=(u.weights[0] + 1, *u.weights[1:]))

    monkeypatch.setattr(engine_module, "train", tampered_train)
    assert cli.main(["verify", "--example", "and", "--engine", "reference", "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["verdict"] == "violated"
    rule = [i for i in report["invariants"] if i["name"] == "update-rule"][0]
    assert rule["holds"] is False and rule["first_violation"]["update"] == 5


def test_cli_exits_1_when_the_fast_engine_reports_a_wrong_score(monkeypatch, capsys):
    # The streaming checker recomputes every reported score exactly: a fast engine whose
    # (float) product went wrong at update 5 is caught there.
    real_run = fast_module.run

    def corrupted_run(*args, observer=None, **kwargs):
        class Corrupt:
            def observe(self, k, epoch, samples, scores):
                observer.observe(k, epoch, samples, [s - 1 for s in scores] if k == 5 else scores)
        return real_run(*args, observer=Corrupt(), **kwargs)

    monkeypatch.setattr(fast_module, "run", corrupted_run)
    assert cli.main(["verify", "--example", "and", "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    rule = [i for i in report["invariants"] if i["name"] == "update-rule"][0]
    assert rule["holds"] is False and rule["first_violation"]["update"] == 5
    assert "recorded_score" in rule["first_violation"]["values"]


def test_cli_exits_1_when_the_bound_is_too_small(monkeypatch, capsys):
    real = note_bounds  # the checker's, replaced there below
    monkeypatch.setattr(
        checks_module, "note_bounds", lambda g: [dataclasses.replace(b, value=b.value / 10) for b in real(g)]
    )
    assert cli.main(["verify", "--example", "and"]) == 1
    out = capsys.readouterr().out
    assert "VIOLATED: mistake-bound" in out and "(exit code 1)" in out


# ------------------------------------------------------------------------------------------------
# bugs


def test_separator_free_claims_do_not_depend_on_the_separator():
    # upper-bound is ‖w_k‖² <= N·a²·R² with R² = max‖x~‖² = 3 on AND. Its slack cannot depend on
    # whether a separator was given; without one the checker adds the bias input twice.
    data = example("and")
    trace = train(data, "classic", max_epochs=1)  # not converged: no default separator
    without = result_named(check_trace(data, trace), "upper-bound")
    with_sep = result_named(check_trace(data, trace, separator=[-4, 3, 2]), "upper-bound")
    assert with_sep.min_slack == 2  # k = 1: w = [-1, 0, 0], ‖w‖² = 1 <= 1·3
    assert without.min_slack == with_sep.min_slack


def test_upper_bound_uses_the_true_radius_on_xor():
    # XOR, classic: update 1 is w = -x~_0 = [-1, 0, 0]: ‖w‖² = 1, N·R² = 3, slack 2.
    data = example("xor")
    result = check_trace(data, train(data, "classic"))
    assert result_named(result, "upper-bound").min_slack == 2


def test_an_overlong_recorded_step_is_caught_by_the_rule_and_claims_judge_the_replay():
    # A foreign 'trace' whose update 1 claims ‖w_1‖² = 4 > 1·R² = 3. The checker replays each update
    # from the data and the rule, so the record is rejected by update-rule, and the claims are
    # evaluated on the run the rule really makes (‖w_1‖² = 3).
    data = example("and")
    u1 = Update(1, 1, (3,), vec(0), vec(1, 1, 1), vec(2, 0, 0))  # inconsistent on purpose, ‖w‖² = 4
    trace = Trace("classic", F(1), "online", (u1,), vec(2, 0, 0), 1, "max-epochs", None, (0, 0, 0, 1))
    result = check_trace(data, trace, claims=[CLAIM["upper-bound"]])
    assert result_named(result, "update-rule").holds is False
    assert result_named(result, "update-rule").first_violation.k == 1
    assert result_named(result, "upper-bound").holds is True
    assert result_named(result, "upper-bound").min_slack == 0


def test_a_non_separating_separator_is_still_held_to_cauchy_schwarz_at_every_update(and_run):
    # (w_k·w*)² <= ‖w_k‖²·‖w*‖² does not need γ > 0, so it is checked for any w* given.
    data, trace = and_run
    cs = result_named(check_trace(data, trace, separator=[1, 1, 1]), "cauchy-schwarz")
    assert cs.holds is True and cs.n_checked == trace.n_updates
    # Stated wrongly (the product halved), it fails under the same non-separating w*.
    broken = dataclasses.replace(next(c for c in CLAIMS if c.name == "cauchy-schwarz"),
                                 rhs=lambda q: q.w_sq * q.ws_sq / 2)
    result = check_trace(data, trace, separator=[1, 1, 1], claims=[broken])
    assert result_named(result, "cauchy-schwarz").holds is False
