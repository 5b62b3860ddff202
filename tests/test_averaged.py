"""The averaged perceptron: its weights read off a trace equal the presentation-by-presentation average,
the three claims hold on real runs and fail on broken ones, and the average need not separate."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
import json
from fractions import Fraction as F

import pytest
from hypothesis import given, strategies as st

from tests.data_strategies import halves
from tests.implementations import gallery
from verify_perceptron.check.averaged import check_averaged
from verify_perceptron.cli import main
from verify_perceptron.data.dataset import Dataset, from_arrays
from verify_perceptron.data.examples import example
from verify_perceptron.data.trace import Trace
from verify_perceptron.errors import InvalidArgument
from verify_perceptron.harness import check_implementation
from verify_perceptron.notes.conventions import CONVENTIONS, get_convention
from verify_perceptron.run.averaged import averaged_weights
from verify_perceptron.run.reference import train


def brute_force(data: Dataset, convention: str, epochs: int) -> tuple[F, ...]:
    """The note's run presentation by presentation, summing the weights after each one."""
    conv = get_convention(convention)
    eta = F(1)
    w = [F(0)] * (data.n_features + 1)
    total = [F(0)] * len(w)
    for _ in range(epochs):
        for x, y in zip(data.X, data.y):
            z = conv.augment(x)
            step = conv.decide(sum((a * b for a, b in zip(w, z)), F(0)), y, eta)
            if step is not None:
                w = [a + step * b for a, b in zip(w, z)]
            total = [t + a for t, a in zip(total, w)]
    return tuple(t / (epochs * data.n_samples) for t in total)


@given(halves(max_samples=5))
@pytest.mark.parametrize("convention", list(CONVENTIONS))
def test_the_average_read_off_the_trace_is_the_presentation_by_presentation_one(convention: str,
                                                                                data: Dataset) -> None:
    run = train(data, convention, max_epochs=100)
    if run.stop != "converged":
        return
    assert averaged_weights(run, data.n_samples) == brute_force(data, convention, run.n_epochs)
    assert averaged_weights(run, data.n_samples, epochs=run.n_epochs + 3) == brute_force(data, convention,
                                                                                         run.n_epochs + 3)


@given(halves(max_samples=5))
def test_the_claims_hold_on_every_converged_run(data: Dataset) -> None:
    run = train(data, "classic", max_epochs=100)
    if run.stop != "converged":
        return
    result = check_averaged(data, run, run.final_weights if all(
        y * sum(a * b for a, b in zip(run.final_weights, (F(1), *x))) > 0 for x, y in zip(data.X, data.y)) else None)
    assert result.holds and result.presentations == run.n_epochs * data.n_samples


def per_presentation(data: Dataset, run: Trace, separator: Sequence[F] | None) -> dict[str, tuple[F, int | None]]:
    """Each claim's least slack over every presentation and its first negative one, a presentation at a time."""
    conv = get_convention(run.convention)
    samples = [conv.augment(x) for x in data.X]
    a = conv.step_size(run.rate)
    R_sq = max(sum(v * v for v in x) for x in samples)
    gamma = None if separator is None else min(y * sum(u * v for u, v in zip(separator, x))
                                               for x, y in zip(samples, data.y))
    at = {(u.epoch, u.samples[0]): u for u in run.updates}
    w: Sequence[F] = (F(0),) * len(samples[0])
    k = 0
    S, K, Q, p = [F(0)] * len(w), 0, F(0), 0
    slacks: dict[str, list[F]] = {}
    for epoch in range(1, run.n_epochs + 1):
        for i in range(data.n_samples):
            if (epoch, i) in at:
                w, k = at[epoch, i].weights, at[epoch, i].k
            S, K, Q, p = [s + v for s, v in zip(S, w)], K + k, Q + sum(v * v for v in w), p + 1
            S_sq = sum(v * v for v in S)
            slacks.setdefault("averaged-jensen", []).append(p * Q - S_sq)
            slacks.setdefault("averaged-upper", []).append(p * a * a * R_sq * K - S_sq)
            if separator is not None:
                assert gamma is not None  # computed from the separator
                slacks.setdefault("averaged-lower", []).append(sum(u * v for u, v in zip(S, separator)) - a * gamma * K)
    return {name: (min(values), next((q + 1 for q, v in enumerate(values) if v < 0), None))
            for name, values in slacks.items()}


@given(halves(max_samples=5), st.sampled_from([1, 10, -1]))
def test_the_least_slacks_are_the_minima_over_every_presentation(data: Dataset, factor: int) -> None:
    # The closed forms within each stretch of equal weights against the claims summed one presentation at a
    # time; a factor of 10 or -1 on every weight breaks the claims, so the first broken presentation is compared too.
    run = train(data, "classic", max_epochs=20)
    separator = run.final_weights if run.stop == "converged" and all(
        y * sum(a * b for a, b in zip(run.final_weights, (F(1), *x))) > 0 for x, y in zip(data.X, data.y)) else None
    run = dataclasses.replace(run, updates=[dataclasses.replace(u, weights=tuple(factor * v for v in u.weights))
                                            for u in run.updates])
    result = check_averaged(data, run, separator)
    expected = per_presentation(data, run, separator)
    assert {c.name: (c.min_slack, c.first_violation) for c in result.claims} == expected
    assert all(c.n_checked == run.n_epochs * data.n_samples for c in result.claims)


def test_the_least_slacks_of_and_are_taken_inside_the_stretches() -> None:
    # Issue 29: at the ends of the stretches of equal weights AND's least slacks read 9 and 18; over every
    # presentation they are 3 (presentation 1) and 2.
    data = example("and")
    result = check_averaged(data, train(data, "classic"), separator=(F(-4), F(3), F(2)))
    assert {c.name: c.min_slack for c in result.claims} == {"averaged-lower": 3, "averaged-jensen": 0,
                                                            "averaged-upper": 2}


def test_a_broken_trace_breaks_the_claims() -> None:
    data = example("and")
    run = train(data, "classic")
    inflated = dataclasses.replace(run, updates=[dataclasses.replace(u, weights=tuple(10 * v for v in u.weights))
                                                 for u in run.updates])
    result = check_averaged(data, inflated, separator=(F(-4), F(3), F(2)))
    broken = {c.name: c.first_violation for c in result.claims if not c.holds}
    assert "averaged-upper" in broken and broken["averaged-upper"] is not None
    negated = dataclasses.replace(run, updates=[dataclasses.replace(u, weights=tuple(-v for v in u.weights))
                                                for u in run.updates])
    wrong_way = check_averaged(data, negated, separator=(F(-4), F(3), F(2)))  # weights moving away from w*
    assert not next(c for c in wrong_way.claims if c.name == "averaged-lower").holds
    with pytest.raises(InvalidArgument, match="does not separate"):
        check_averaged(data, run, separator=(F(4), F(-3), F(-2)))


def test_the_average_need_not_separate_though_the_run_converged() -> None:
    data = from_arrays([["0", "1/2"], ["1/2", "0"]], [-1, 1])
    run = train(data, "classic")
    assert run.converged
    result = check_averaged(data, run, run.final_weights)
    assert not result.separates and result.holds


def test_epochs_beyond_a_run_that_did_not_converge_are_refused() -> None:
    run = train(example("xor"), "classic", max_epochs=5)
    with pytest.raises(InvalidArgument, match="not known"):
        averaged_weights(run, 4, epochs=10)
    with pytest.raises(InvalidArgument, match="online"):
        averaged_weights(train(example("and"), "classic", mode="batch"), 4)


def test_verify_reports_the_average_and_its_claims(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--example", "and", "--averaged"]) == 0
    out = capsys.readouterr().out
    assert "averaged perceptron: w̄ = [≈ -2.55556, ≈ 2.08333, ≈ 1.33333] over 36 presentations" in out  # docs/numbers.md
    assert main(["verify", "--example", "and", "--averaged", "--format", "json"]) == 0
    record = json.loads(capsys.readouterr().out)["averaged"]
    assert record["weights"] == ["-23/9", "25/12", "4/3"] and [c["holds"] for c in record["claims"]] == [True] * 3
    assert main(["verify", "--example", "and", "--averaged", "--mode", "batch"]) == 2


def test_the_harness_holds_a_declared_averaged_implementation_to_the_average() -> None:
    result = check_implementation(gallery.fit_correct, averaged=True, examples=10, worked_examples=False)
    assert not result.passed
    assert result.counterexample is not None
    assert "exact averaged weights" in result.counterexample.findings[0].message
    with pytest.raises(InvalidArgument, match="averaged='yes'"):
        check_implementation(gallery.fit_correct, averaged="yes")


def test_check_command_line_takes_averaged(capsys: pytest.CaptureFixture[str]) -> None:
    target = "tests.implementations.gallery:AveragedPerceptron"
    assert main(["check", target, "--averaged", "--max-epochs", "10", "--examples", "10"]) == 0
    assert "verdict: passed" in capsys.readouterr().out
    assert main(["check", target, "--averaged", "--max-epochs", "9", "--examples", "10"]) == 1
    assert "diagnosis (averaged)" in capsys.readouterr().out
