"""Averaged perceptrons of the four kinds course code writes (`run.averaged.AVERAGES`): each passes when its
kind is declared, fails under another where their weights differ, and is named by the diagnosis (with T when it
averages a fixed run, solved for past the epoch-by-epoch search), the suggestion checked before it is printed."""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import pytest

from tests.implementations import averages
from verify_perceptron.data.dataset import from_arrays
from verify_perceptron.harness import check_dataset, check_implementation
from verify_perceptron.harness._evidence import Observation, explained
from verify_perceptron.harness._exact import Vector
from verify_perceptron.harness._models import simulate
from verify_perceptron.notes.conventions import get_convention
from verify_perceptron.run.averaged import AVERAGES, averaged_weights
from verify_perceptron.run.reference import train

EXAMPLES = 20
KINDS = [(averages.collins, "presentations", None), (averages.daume, "start", None),
         (averages.epoch_ends, "epochs", None), (averages.update_mean, "updates", None),
         (averages.daume_fixed, "start", averages.FIXED_EPOCHS)]


@pytest.mark.parametrize("fit, over, epochs", KINDS)
def test_each_kind_passes_when_declared(fit: Any, over: str, epochs: int | None) -> None:
    result = check_implementation(fit, averaged=over, max_epochs=epochs, examples=EXAMPLES)
    assert result.passed, result.report()


@pytest.mark.parametrize("fit, other", [(averages.epoch_ends, "updates"), (averages.update_mean, "epochs"),
                                        (averages.collins, "epochs")])
def test_a_kind_checked_as_another_fails(fit: Any, other: str) -> None:
    assert not check_implementation(fit, averaged=other, examples=EXAMPLES).passed


@pytest.mark.parametrize("fit, over, epochs", KINDS[1:])
def test_the_diagnosis_names_the_kind_and_its_t(fit: Any, over: str, epochs: int | None) -> None:
    result = check_implementation(fit, examples=EXAMPLES)
    assert not result.passed and result.counterexample is not None
    diagnosis = result.counterexample.diagnoses[0]
    assert (diagnosis.code, diagnosis.parameters["over"], diagnosis.parameters["epochs"]) == ("averaged", over, epochs)
    flags = f"--averaged --average-over {over}" + (f" --max-epochs {epochs}" if epochs else "")
    assert diagnosis.parameters["passes_with"] == flags, result.report()


@pytest.mark.parametrize("X, y", [([[-1], [1]], [-1, 1]), ([[0, 1], [1, 0], [2, 2], [-1, -1]], [1, -1, 1, -1]),
                                  ([["1/2"], ["3/4"], ["-1/3"]], [1, 1, -1])])
@pytest.mark.parametrize("over", AVERAGES)
@pytest.mark.parametrize("epochs", [None, 1, 3, 250])
def test_the_diagnosis_model_and_the_run_average_alike(X: Any, y: Any, over: str, epochs: int | None) -> None:
    data = from_arrays(X, y)
    model = simulate(data, get_convention("classic"))
    trace = train(data, "classic")
    T = epochs or len(model.ends)
    if epochs is not None and epochs < trace.n_epochs:
        trace = train(data, "classic", max_epochs=epochs)
    assert model.average(T, over) == averaged_weights(trace, data.n_samples, epochs, over)


def test_one_factor_fits_doubles_that_happen_to_be_in_an_exact_ratio() -> None:
    # the doubles nearest to 4/3 and 2/3 are exactly in the ratio 2, so the exact test alone reads a factor
    # a hair below 1 there, where the other observation's is 1: one factor, 1, fits both
    data = from_arrays([[0], [1]], [-1, 1])
    rounded = Observation(data, (F(0), F(4 / 3), F(2 / 3)))
    exact = Observation(data, (F(1), F(1)))
    models: dict[int, list[Vector]] = {id(rounded): [(F(0), F(4, 3), F(2, 3))], id(exact): [(F(1), F(1))]}
    assert explained([rounded, exact], lambda o: models[id(o)], None, rounded=True) == 1


def test_a_counter_from_one_rounds_twice_and_is_still_accepted_only_as_such() -> None:
    data = [["-3"], ["0"], ["-5"]], [-1, 1, -1]
    assert check_dataset(averages.daume, *data, averaged="start").passed
    case = check_dataset(averages.daume, *data, averaged="start", eta="2")
    assert not case.passed  # a declared rate the weights do not show
    assert "agrees-with-reference" in {f.check for f in case.findings}


def test_an_unknown_kind_is_refused_by_name() -> None:
    from verify_perceptron.errors import InvalidArgument

    with pytest.raises(InvalidArgument, match="averaged='sometimes'"):
        check_implementation(averages.collins, averaged="sometimes", examples=1)
