"""Diagnosis by evidence: the models are the note's algorithm when unchanged, a cause is named only when
its model reproduces every dataset tried, and a failure no model explains is said to be unexplained."""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import numpy as np
import pytest
from hypothesis import given

from tests.data_strategies import halves
from verify_perceptron.data.dataset import Dataset, from_arrays
from verify_perceptron.harness import check_dataset, check_implementation
from verify_perceptron.harness._causes import model_causes
from verify_perceptron.harness._evidence import Evidence, Observation, explained
from verify_perceptron.harness._models import Change, orders_reaching, simulate
from verify_perceptron.harness._probes import neighbours, with_zero_feature
from verify_perceptron.notes.conventions import CONVENTIONS, get_convention
from verify_perceptron.run.reference import train


@given(halves())
@pytest.mark.parametrize("name", list(CONVENTIONS))
def test_the_unchanged_model_is_the_notes_run(name: str, data: Dataset) -> None:
    conv = get_convention(name)
    run, model = train(data, conv, max_epochs=60), simulate(data, conv)
    if run.stop == "converged":
        assert model.stop == "converged" and model.final() == run.final_weights
        assert len(model.ends) == run.n_epochs


@given(halves(max_samples=4))
def test_a_fixed_run_averages_every_presentation(data: Dataset) -> None:
    conv = get_convention("classic")
    run = simulate(data, conv, Change(epochs=3))
    # the same average, presentation by presentation, in Fractions
    w, total = [F(0)] * (data.n_features + 1), [F(0)] * (data.n_features + 1)
    for _ in range(3):
        for x, y in zip(data.X, data.y):
            z = conv.augment(x)
            if y * sum(a * b for a, b in zip(w, z)) <= 0:
                w = [a + y * b for a, b in zip(w, z)]
            total = [t + a for t, a in zip(total, w)]
    assert run.average(3) == tuple(t / (3 * data.n_samples) for t in total)


def test_a_tolerance_run_knows_the_interval_it_holds_on() -> None:
    data = from_arrays([["-1"], ["1/1024"]], [-1, 1])
    run = simulate(data, get_convention("classic"), Change(tolerance=F(1, 10**6)))
    assert run.hi is not None  # a tolerance run has an interval's upper end
    assert run.lo <= F(1, 10**6) < run.hi
    wider = simulate(data, get_convention("classic"), Change(tolerance=run.hi))
    assert wider.ends != run.ends  # at hi, a visit that was not a mistake becomes one


def test_orders_are_searched_per_epoch() -> None:
    data = from_arrays([[-1, 0], [1, 0], [-1, 1]], [-1, 1, -1])
    conv = get_convention("classic")
    assert simulate(data, conv).final() == (F(0), F(2), F(0))
    orders = orders_reaching(data, conv, (F(0), F(2), F(-1)))
    assert orders is not None and len(set(orders)) > 1  # no single order gives it
    assert orders_reaching(data, conv, (F(5), F(5), F(5))) is None


def test_one_rate_must_fit_every_observation() -> None:
    a, b = from_arrays([[-1], [1]], [-1, 1]), from_arrays([[-2], [1]], [-1, 1])
    seen = [Observation(a, (F(0), F(1))), Observation(b, (F(0), F(2)))]
    same = {id(a): (F(0), F(2)), id(b): (F(0), F(4))}
    other = {id(a): (F(0), F(2)), id(b): (F(0), F(2))}
    assert explained(seen, lambda o: [same[id(o.data)]], None) == F(1, 2)
    assert explained(seen, lambda o: [other[id(o.data)]], None) is None  # rates 1/2 and 1 disagree
    assert explained(seen, lambda o: [same[id(o.data)]], F(1)) is None  # the declared rate does not fit
    assert explained(seen, lambda o: None, None) is None


def test_float_rounding_of_an_average_fits_only_when_rounding_is_allowed() -> None:
    data = from_arrays([[-1], [1]], [-1, 1])
    exact = (F(-1, 20), F(39, 20))
    doubles = tuple(F(float(v)) for v in exact)
    assert explained([Observation(data, doubles)], lambda o: [exact], None) is None
    assert explained([Observation(data, doubles)], lambda o: [exact], None, rounded=True) == 1


def test_a_cause_that_fits_the_counterexample_but_not_another_dataset_is_not_named() -> None:
    conv = get_convention("classic")
    tie = from_arrays([[-1], [1]], [-1, 1])  # the exact run meets scores of 0 here
    plain = from_arrays([[-2], [3]], [-1, 1])
    strict = simulate(tie, conv, Change("ties-not-mistakes")).final()
    assert [d.code for d in model_causes([Observation(tie, strict)], conv, None)] == ["ties-not-mistakes"]
    # a second dataset on which the implementation did something no strict rule does
    wrong = Observation(plain, (F(7), F(1)))
    assert "ties-not-mistakes" not in [d.code for d in model_causes([Observation(tie, strict), wrong], conv, None)]


def test_neighbours_are_separable_and_differ_from_the_counterexample() -> None:
    data = from_arrays([["-1", "0"], ["1", "1/2"], ["-1", "1"]], [-1, 1, -1])
    near = neighbours(data)
    assert len(near) == 2 + 1 + 2 + 1 + 2 + 1
    assert all(train(d, "classic", max_epochs=1000).converged for d in near)
    assert all((d.X, d.y) != (data.X, data.y) for d in near)
    assert with_zero_feature(data).X[1] == (F(1), F(1, 2), F(0))


def test_evidence_keeps_each_dataset_once_and_the_counterexample_first() -> None:
    evidence = Evidence()
    a, b = from_arrays([[-1], [1]], [-1, 1]), from_arrays([[-2], [1]], [-1, 1])
    evidence.add(a, (F(0), F(2)))
    evidence.add(b, (F(1), F(2)))
    evidence.add(b, (F(1), F(2)))
    evidence.add(a, None)
    assert [o.data for o in evidence.leading(b, (F(1), F(2)))] == [b, a]


# --- whole checks ------------------------------------------------------------------------------------------------


def _off_by_a_half(X: Any, y: Any) -> Any:
    """The classic perceptron, then half a unit added to the bias: no known cause does that."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    w, b = np.zeros(X.shape[1]), 0.0
    for _ in range(1000):
        clean = True
        for i in range(len(X)):
            if y[i] * (w @ X[i] + b) <= 0:
                w, b, clean = w + y[i] * X[i], b + y[i], False
        if clean:
            break
    return w, b + 0.5


def test_a_failure_no_model_explains_is_said_to_be_unexplained() -> None:
    result = check_implementation(_off_by_a_half, examples=20)
    assert [d.code for d in result.diagnoses] == ["unexplained"]
    assert result.counterexample is not None
    assert result.counterexample.notes[0].startswith("diagnosis: no known cause explains it")


def test_a_correct_implementation_gets_no_diagnosis() -> None:
    from verify_perceptron.harness import reference_fit

    result = check_implementation(reference_fit, dtype="fraction", examples=20)
    assert result.passed and result.diagnoses == ()


def test_a_single_dataset_is_diagnosed_with_its_neighbours() -> None:
    def capped(X: Any, y: Any) -> Any:
        X, y = np.asarray(X, dtype=float), np.asarray(y)
        w, b = np.zeros(X.shape[1]), 0.0
        for _ in range(2):
            for i in range(len(X)):
                if y[i] * (w @ X[i] + b) <= 0:
                    w, b = w + y[i] * X[i], b + y[i]
        return w, b

    case = check_dataset(capped, [["0", "0"], ["0", "1"], ["1", "0"], ["1", "1"]], [0, 0, 0, 1])
    assert [d.code for d in case.diagnoses] == ["epoch-cap"] and case.diagnoses[0].parameters["epochs"] == 2


def test_numpys_sign_of_zero_in_the_step_is_named() -> None:
    def fit(X: Any, y: Any) -> Any:  # η·(d - np.sign(score)): a tie steps half a mistake's step
        X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
        w, b = np.zeros(X.shape[1]), 0.0
        for _ in range(1000):
            clean = True
            for x, t in zip(X, y):
                step = t - np.sign(w @ x + b)
                if step:
                    w, b, clean = w + step * x, b + step, False
            if clean:
                break
        return w, b

    result = check_implementation(fit, examples=20)
    assert not result.passed and result.counterexample is not None
    codes = [result.counterexample.diagnoses[0].code]
    codes += [c["code"] for c in result.counterexample.diagnoses[0].parameters.get("causes", [])]
    assert "tie-zero" in codes, result.report()


def test_a_perceptron_printed_short_that_also_departs_is_not_called_not_a_perceptron() -> None:
    # NumPy prints 8 decimals: 3/512 shows as 0.00585938, so the coefficients over the steps are a hair off whole
    # counts; with a cap of 50 epochs as well, no model fits, and the old diagnosis said "not a perceptron"
    from verify_perceptron.harness._diagnosis import _not_a_perceptron

    from tests.implementations.gallery import Capped50

    def printed_and_capped(X: Any, y: Any) -> Any:
        fitted = Capped50().fit(X, y)  # the classic rule, 50 epochs at most
        return [float(f"{v:.8f}") for v in fitted.coef_], float(f"{fitted.intercept_:.8f}")

    case = check_dataset(printed_and_capped, [["-1", "0"], ["1", "3/512"]], [-1, 1])
    assert [d.code for d in case.diagnoses] == ["printed-short"], case.report()
    assert case.diagnoses[0].parameters["format"] == "%.8f"
    # the models compared as printed: the cap behind the printing is named
    assert case.diagnoses[0].parameters["then"] == {"code": "epoch-cap", "parameters": {
        "epochs": 50, "datasets": case.diagnoses[0].parameters["datasets"], "format": "%.8f"}}, case.report()
    assert "read as printed, they are the classic perceptron capped at 50 epochs" in case.report()
    # weights a gradient method gives, printed in full, are still not a perceptron's
    data = from_arrays([["1", "1/2"], ["-1/2", "1"]], [-1, 1])
    sigmoid = tuple(F(v) for v in (0.0, -0.7310585786300049, 0.3775406687981454))
    found = _not_a_perceptron([Observation(data, sigmoid)], get_convention("classic"), exact=False)
    assert found is not None and found.code == "not-a-perceptron"



def test_an_unseeded_shuffle_is_named_nondeterministic_where_no_model_fits() -> None:
    # SGDClassifier(loss="perceptron") at its defaults shuffles with random_state=None: no model of a run fits,
    # and its counterexample of two samples has few orders; two more calls on the largest dataset tried tell it
    from sklearn.linear_model import SGDClassifier

    result = check_implementation(SGDClassifier(loss="perceptron"), examples=30)
    assert not result.passed
    assert result.diagnoses[0].code == "nondeterministic", result.report()


def _zero_one_only(strict: bool) -> Any:
    """A perceptron that refuses labels other than 0/1 (as mlxtend's does: "y array must not contain negative
    labels"); with `strict`, a score of exactly 0 is also let through."""
    def fit(X: Any, y: Any) -> tuple[Any, float]:
        y = np.asarray(y)
        if (y < 0).any():
            raise ValueError("y array must not contain negative labels")
        t = 2 * y - 1
        w, b = np.zeros(X.shape[1]), 0.0
        for _ in range(1000):
            clean = True
            for x, s in zip(X, t):
                if s * (w @ x + b) < 0 or not strict and s * (w @ x + b) == 0:
                    w, b, clean = w + s * x, b + s, False
            if clean:
                break
        return w, b
    return fit


def test_an_implementation_that_refuses_labels_minus_one_is_told_to_take_0_1_and_diagnosed_there() -> None:
    # it raised on every dataset, so there were no weights to diagnose: the other labels are tried
    result = check_implementation(_zero_one_only(strict=False), examples=20)
    diagnosis = result.diagnoses[0]
    assert diagnosis.code == "label-encoding" and diagnosis.parameters["labels"] == "0/1", result.report()
    assert diagnosis.parameters["passes_with"] == "--labels 0/1"
    assert "given labels -1/+1 it raised ValueError: y array must not contain negative labels" in diagnosis.text
    strict = check_implementation(_zero_one_only(strict=True), examples=20).diagnoses[0]
    assert strict.code == "label-encoding" and strict.parameters["then"]["code"] == "ties-not-mistakes", strict.text
