"""The proof language and its checker: true steps pass, false or unjustified ones never do."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
import sympy as sp

from verify_perceptron.notes import claims
from verify_perceptron.proofs.algebra import V, Vec, components, in_ideal, lagrange_sos, remainder, unsafe_denominator
from verify_perceptron.errors import InvalidArgument
from verify_perceptron.proofs.checking import check_proof
from verify_perceptron.proofs.counter import CounterModel, evaluate, refutes
from verify_perceptron.proofs.language import C, Fact, Induction, Place, Proof, Split, Step, T, VecEq, eq, ge, gt, le, lt
from verify_perceptron.proofs.results import StepResult

eta, y, k, g, R_sq = sp.symbols("eta y k gamma R_sq")
w_ws, prev_w_ws, x_ws, w_sq, prev_w_sq, w_x, x_sq, ws_sq, u_v, u_u = sp.symbols(
    "w_ws prev_w_ws x_ws w_sq prev_w_sq w_x x_sq ws_sq u_v u_u")
HERE = Place("000", None, "test")

INNER = (
    (w_ws, V("wk"), V("o")), (prev_w_ws, V("w"), V("o")), (x_ws, V("x"), V("o")), (w_sq, V("wk"), V("wk")),
    (prev_w_sq, V("w"), V("w")), (w_x, V("w"), V("x")), (x_sq, V("x"), V("x")), (ws_sq, V("o"), V("o")),
    (u_v, V("w"), V("x")), (u_u, V("w"), V("w")),
)
FACTS = (
    Fact("eta", gt(eta, 0), "symbol", "rate"),
    Fact("eta>=0", ge(eta, 0), "symbol", "rate, weakly"),
    Fact("label", eq(y**2, 1), "symbol", "labels"),
    Fact("k-nat", ge(k, 0), "symbol", "count", integer=True),
    Fact("k>=0", ge(k, 0), "symbol", "count, not declared integer"),
    Fact("g>0", gt(g, 0), "hypothesis", "margin"),
    Fact("g>=0", ge(g, 0), "hypothesis", "margin, weakly"),
    Fact("update", VecEq(V("wk"), V("w") + eta * y * V("x")), "algorithm", "update"),
    Fact("mistake", le(y * w_x, 0), "algorithm", "mistake"),
    Fact("margin", ge(y * x_ws, g), "hypothesis", "margin"),
    Fact("init", VecEq(V("wk"), Vec()), "initial", "w_0 = 0"),
    Fact("k>0", gt(k, 0), "case", "after an update"),
)


def proof_of(*steps: Step) -> Proof:
    return Proof("t", "t.txt", "classic", "test", inner=INNER, facts=FACTS, steps=steps,
                 quantities=(("a", eta), ("N", k), ("n", sp.Integer(1)), ("gamma", g), ("w_ws", w_ws),
                             ("prev_w_ws", prev_w_ws), ("R_sq", R_sq), ("ws_sq", ws_sq), ("w_sq", w_sq)))


def status(*steps: Step, models: dict | None = None) -> list[str]:
    return [r.status for r in check_proof(proof_of(*steps), counter_models=models).steps]


def tie_how(result: StepResult) -> str:
    assert result.tie is not None
    return result.tie.how


NORM = Step("n", HERE, eq(w_sq, prev_w_sq + 2 * eta * y * w_x + eta**2 * x_sq), "identity", ("update", "label"))


def test_identity_is_checked_in_components_modulo_the_equalities_it_uses() -> None:
    assert status(NORM) == ["verified"]
    assert status(dataclasses.replace(NORM, uses=("update",))) == ["undecided"]  # y² = 1 is needed
    assert status(dataclasses.replace(NORM, statement=eq(w_sq, prev_w_sq + eta * y * w_x + eta**2 * x_sq))) == ["undecided"]


def test_identity_holding_only_in_one_dimension_is_rejected() -> None:
    # (w·x)² = ‖w‖²‖x‖² holds for all vectors of R^1, not of R^2: components must not be too few.
    step = Step("d", HERE, eq(u_v**2, u_u * x_sq), "identity")
    result = check_proof(proof_of(step)).steps[0]
    assert result.status == "undecided"
    assert "does not vanish" in result.reason


LOWER = Step("l", HERE, ge(w_ws, prev_w_ws + eta * g), "inequality", ("l0", "margin", "eta"), C(T(1, "eta", "margin")))
STEP0 = Step("l0", HERE, eq(w_ws, prev_w_ws + eta * y * x_ws), "identity", ("update",))


def test_inequality_needs_a_certificate_that_matches_exactly() -> None:
    assert status(STEP0, LOWER) == ["verified", "verified"]
    assert status(STEP0, dataclasses.replace(LOWER, proof=C(T(2, "eta", "margin")))) == ["verified", "undecided"]
    assert status(STEP0, dataclasses.replace(LOWER, proof=None)) == ["verified", "undecided"]


def test_flipped_inequality_is_not_verified() -> None:
    assert status(STEP0, dataclasses.replace(LOWER, statement=LOWER.statement.flipped())) == ["verified", "undecided"]


def test_a_fact_not_listed_among_the_assumptions_cannot_be_used() -> None:
    result = check_proof(proof_of(STEP0, dataclasses.replace(LOWER, uses=("l0", "eta")))).steps[1]
    assert result.status == "undecided"
    assert "uses (margin), which is not among the step's assumptions" in result.reason


def test_an_equation_cannot_serve_as_a_non_negative_factor() -> None:
    step = Step("e", HERE, ge(y**2, 0), "inequality", ("label",), C(T(1, "label")))
    assert "is an equation" in check_proof(proof_of(step)).steps[0].reason


def test_certificate_coefficients_must_be_non_negative_rationals() -> None:
    with pytest.raises(InvalidArgument, match="coeff=-1 must be >= 0"):
        T(-1, "eta")
    with pytest.raises(InvalidArgument, match=r"coeff=0.5 is a float"):
        T(0.5)
    with pytest.raises(InvalidArgument, match="lhs=0.1 is a float"):
        le(0.1, k)


def test_strict_claim_needs_a_strictly_positive_term() -> None:
    weak = Step("s", HERE, gt(eta * g, 0), "inequality", ("eta", "g>=0"), C(T(1, "eta", "g>=0")))
    strict = dataclasses.replace(weak, uses=("eta", "g>0"), proof=C(T(1, "eta", "g>0")))
    assert status(weak) == ["undecided"]
    assert "no term of the certificate is strictly positive" in check_proof(proof_of(weak)).steps[0].reason
    assert status(strict) == ["verified"]


def test_divisor_must_be_strictly_positive_and_claims_must_not_divide_by_zero() -> None:
    good = Step("d", HERE, le(0, 1 / g**2), "inequality", ("g>0",), C(T(1), divisor=("g>0", "g>0")))
    weak_divisor = dataclasses.replace(good, uses=("g>=0",), proof=C(T(1), divisor=("g>=0", "g>=0")))
    no_divisor = dataclasses.replace(good, uses=("g>=0",), proof=C(T(1)))
    assert status(good) == ["verified"]
    assert "divides by (g>=0), which is not a strictly positive" in check_proof(proof_of(weak_divisor)).steps[0].reason
    assert "the claim divides by gamma" in check_proof(proof_of(no_divisor)).steps[0].reason


def test_cauchy_schwarz_is_checked_by_lagrange_identity() -> None:
    cs = Step("cs", HERE, le(w_ws**2, w_sq * ws_sq), "cauchy-schwarz", vectors=(V("wk"), V("o")))
    wrong = dataclasses.replace(cs, statement=le(w_ws**2, w_sq))
    reversed_ = dataclasses.replace(cs, statement=ge(w_ws**2, w_sq * ws_sq))
    assert status(cs) == ["verified"]
    assert status(wrong) == ["undecided"]
    assert status(reversed_) == ["undecided"]


def test_induction_checks_base_and_step_with_a_derived_hypothesis() -> None:
    induction = Induction(k, {k: k - 1, w_ws: prev_w_ws}, base_uses=("init",), step=C(T(1, "IH"), T(1, "l")),
                          previous_vectors={"wk": V("w")})
    good = Step("i", HERE, ge(w_ws, k * eta * g), "induction", ("l",), induction=induction)
    base_fails = dataclasses.replace(good, statement=ge(w_ws, k * eta * g + 1))
    no_init = dataclasses.replace(good, induction=dataclasses.replace(induction, base_uses=()))
    bad_index = dataclasses.replace(good, induction=dataclasses.replace(induction, previous={k: k, w_ws: prev_w_ws}))
    assert status(STEP0, LOWER, good)[-1] == "verified"
    assert "base case" in check_proof(proof_of(STEP0, LOWER, base_fails)).steps[-1].reason
    assert status(STEP0, LOWER, no_init)[-1] == "undecided"
    assert "must be k - 1" in check_proof(proof_of(STEP0, LOWER, bad_index)).steps[-1].reason


def test_induction_hypothesis_must_speak_about_the_previous_vectors() -> None:
    induction = Induction(k, {k: k - 1, w_ws: prev_w_ws}, base_uses=("init",), step=C(T(1, "IH"), T(1, "l")),
                          previous_vectors={"wk": V("w")})
    good = Step("i", HERE, ge(w_ws, k * eta * g), "induction", ("l",), induction=induction)
    # prev_w_ws is w_{k-1}·w*; w_sq is not the previous value of w_k·w*, whatever the certificate says.
    wrong = dataclasses.replace(good, induction=dataclasses.replace(induction, previous={k: k - 1, w_ws: w_sq}))
    undeclared = dataclasses.replace(good, induction=dataclasses.replace(induction, previous_vectors=()))
    assert status(STEP0, LOWER, good)[-1] == "verified"
    for bad in (wrong, undeclared):
        assert "inner product of the previous vectors" in check_proof(proof_of(STEP0, LOWER, bad)).steps[-1].reason


def test_initial_state_facts_are_only_for_base_cases() -> None:
    step = Step("w0", HERE, eq(w_ws, 0), "identity", ("init",))
    assert "only a base case may use it" in check_proof(proof_of(step)).steps[0].reason


def test_case_split_needs_a_natural_number() -> None:
    split = Split(k, zero=C(), positive=C(T(1, "k>=1"), T(1)))
    declared = Step("s", HERE, ge(k, 0), "rearrangement", ("k-nat",), split)
    undeclared = dataclasses.replace(declared, uses=("k>=0",))
    assert status(declared) == ["verified"]
    assert "declared integer" in check_proof(proof_of(undeclared)).steps[0].reason


def test_steps_under_a_case_carry_it_and_the_zero_case_cannot_use_them() -> None:
    conditional = Step("c", HERE, gt(k * g, 0), "inequality", ("k>0", "g>0"), C(T(1, "k>0", "g>0")))
    # k·γ >= 0 for every natural k: the case k = 0 must not borrow the step that assumed k > 0.
    split = Step("s", HERE, ge(k * g, 0), "rearrangement", ("c", "k-nat"),
                 Split(k, zero=C(T(1, "c")), positive=C(T(1, "c"))))
    fine = dataclasses.replace(split, proof=Split(k, zero=C(), positive=C(T(1, "c"))))
    results = check_proof(proof_of(conditional, split)).steps
    assert results[0].conditions == ("k > 0",)
    assert results[1].status == "undecided" and "case k = 0" in results[1].reason
    assert check_proof(proof_of(conditional, fine)).steps[1].status == "verified"
    assert check_proof(proof_of(conditional, fine)).steps[1].conditions == ()


def test_not_derivable_needs_a_counter_model_satisfying_every_assumption() -> None:
    written = Step("w", HERE, lt(y * w_x, 0), "inequality", ("mistake",), written=True)
    at_zero = CounterModel.of({y: 1}, {"w": (0, 0), "x": (1, 2)}, "w = 0")
    violating = CounterModel.of({y: 1}, {"w": (1, 0), "x": (1, 2)}, "w·x = 1")
    assert status(written, models={"w": at_zero}) == ["not-derivable"]
    assert status(written, models={"w": violating}) == ["undecided"]
    assert status(written) == ["undecided"]
    assert refutes(proof_of(written), "w", at_zero) and not refutes(proof_of(written), "w", violating)


def test_a_written_step_that_does_follow_is_reported_verified() -> None:
    written = Step("w", HERE, le(2 * y * w_x, 0), "inequality", ("mistake",), written=True, corrected_by="c")
    corrected = Step("c", HERE, le(2 * y * w_x, 0), "inequality", ("mistake",), C(T(2, "mistake")), corrects="w")
    result = check_proof(proof_of(written, corrected))
    assert [r.status for r in result.steps] == ["verified", "verified"]
    assert not result.complete  # a written step is expected to be refuted


def test_evaluate_is_exact_and_reports_undefined() -> None:
    model = CounterModel.of({k: 3, g: Fraction(1, 3)})
    proof = proof_of()
    assert evaluate(le(k * g, 1), model, proof) is True
    assert evaluate(lt(k * g, 1), model, proof) is False
    assert evaluate(le(k, 1 / (g - Fraction(1, 3))), model, proof) is None
    with pytest.raises(InvalidArgument, match="leaves eta unassigned"):
        evaluate(le(eta, 1), model, proof)


def test_runtime_claim_is_read_from_claims_at_check_time(monkeypatch: pytest.MonkeyPatch) -> None:
    tied = dataclasses.replace(LOWER, claim="lower-bound-step")
    assert tie_how(check_proof(proof_of(STEP0, tied)).steps[1]) == "exact"
    broken = tuple(dataclasses.replace(c, lhs=lambda q: 2 * q.n * q.a * q.gamma) if c.name == "lower-bound-step" else c
                   for c in claims.CLAIMS)
    monkeypatch.setattr(claims, "CLAIMS", broken)
    result = check_proof(proof_of(STEP0, tied)).steps[1]
    assert result.status == "undecided"
    assert "does not imply the runtime claim lower-bound-step" in result.reason


def test_runtime_claim_of_another_convention_or_missing_quantity_is_refused() -> None:
    angle = dataclasses.replace(LOWER, claim="angle")
    unknown = dataclasses.replace(LOWER, claim="no-such-claim")
    assert "only for sum-norm" in tie_how(check_proof(proof_of(STEP0, angle)).steps[1])
    assert "no runtime claim is named 'no-such-claim'" in check_proof(proof_of(STEP0, unknown)).steps[1].reason
    per_sample = dataclasses.replace(LOWER, claim="upper-bound-per-sample")
    assert "quantity 'sum_N_xsq' is not defined" in tie_how(check_proof(proof_of(STEP0, per_sample)).steps[1])


def test_unknown_names_and_duplicates_are_errors_naming_the_value() -> None:
    with pytest.raises(InvalidArgument, match="uses='nope' names no fact and no earlier step"):
        check_proof(proof_of(dataclasses.replace(STEP0, uses=("nope",))))
    with pytest.raises(InvalidArgument, match="step id 'l0' is used twice"):
        check_proof(proof_of(STEP0, STEP0))
    with pytest.raises(InvalidArgument, match="kind='lemma' must be one of"):
        Step("x", HERE, eq(k, k), "lemma")


def test_algebra_helpers() -> None:
    a, b, c, d = sp.symbols("a b c d")
    assert in_ideal(a * b**2 - a, [b**2 - 1]) and not in_ideal(b - 1, [b**2 - 1])
    assert remainder(a + b, [a - b]) == 2 * b
    assert sp.expand(lagrange_sos((a, b), (c, d)) - (a * d - b * c) ** 2) == 0
    assert unsafe_denominator(1 / (a * b), [a]) == b
    assert components(["u", "v"])["u"][0] == 0 and len(components(["u", "v"])["v"]) == 3
    assert (2 * V("x") - V("x") + V("y")).terms == (("x", 1), ("y", 1))


def test_a_derivation_past_its_time_budget_is_undecided_never_a_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    from verify_perceptron.proofs import _prover
    from verify_perceptron.proofs.checking import check_proof
    from verify_perceptron.proofs.soft_margin import PROOF

    _prover.derive.cache_clear()
    monkeypatch.setattr(_prover, "STEP_SECONDS", 1e-6)
    try:
        result = check_proof(PROOF)
        statuses = {r.status for r in result.steps}
        assert "verified" not in statuses
        assert any("did not finish within" in r.reason for r in result.steps)
    finally:
        _prover.derive.cache_clear()  # the budget's verdicts must not outlive it
