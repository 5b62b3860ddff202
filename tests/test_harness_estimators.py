"""Estimators that keep their weights elsewhere than ``coef_`` (textbook and course classes) are read where
they keep them, checked, and diagnosed like any other implementation."""

from __future__ import annotations

import collections
import dataclasses
from fractions import Fraction as F

import pytest

from tests.implementations import textbooks
from verify_perceptron.harness import check_dataset, check_implementation

EXAMPLES = 15
ONE_HUNDREDTH = F(0.01)  # the double the book's η = 0.01 is


def test_the_books_first_perceptron_is_read_from_w_and_passes_as_what_it_is() -> None:
    result = check_implementation(textbooks.RaschkaFirstEdition, convention="hard-limiter-plus", eta=ONE_HUNDREDTH,
                                  accept_departures=["float-rate"], max_epochs=10, examples=EXAMPLES)
    assert result.passed, result.report()


def test_the_books_first_perceptron_fails_the_plain_check_on_its_weights() -> None:
    case = check_dataset(textbooks.RaschkaFirstEdition, [["-1"], ["1"]], [-1, 1])
    assert not case.passed
    assert "returns-weights" not in {f.check for f in case.findings}, case.report()
    assert case.weights is not None and case.weights[0] < 0 < case.weights[1]  # w_[0] read as the bias


def test_weights_and_a_bias_kept_apart_are_read_as_a_pair() -> None:
    result = check_implementation(textbooks.RaschkaLater, convention="hard-limiter-plus", labels="0/1",
                                  examples=EXAMPLES)
    assert result.passed, result.report()
    assert check_implementation(textbooks.CourseWeightsBias, examples=EXAMPLES).passed
    assert check_implementation(textbooks.ColumnAndOneBias, examples=EXAMPLES).passed


def test_weights_and_a_bias_kept_in_private_attributes_are_read() -> None:
    class Private:  # an object-oriented course's class: self._weights, self._bias
        def fit(self, X: object, y: object) -> None:
            est = textbooks.CourseWeightsBias()
            est.fit(X, y)
            self._weights, self._bias = est.weights, est.bias

    assert check_implementation(Private, examples=EXAMPLES).passed


@pytest.mark.parametrize(("weights", "bias"), [("W", "B"), ("w", "w0"), ("theta", "theta0")])
def test_weights_and_a_bias_under_other_names_are_read(weights: str, bias: str) -> None:
    # self.W and self.B: the weights were read as one augmented vector, one value short ('returns-weights')
    class Named:
        def fit(self, X: object, y: object) -> None:
            est = textbooks.CourseWeightsBias()
            est.fit(X, y)
            setattr(self, weights, est.weights)
            setattr(self, bias, est.bias)

    assert check_implementation(Named, examples=EXAMPLES).passed


def test_an_estimator_without_readable_weights_gets_a_finding_naming_where_it_looked() -> None:
    case = check_dataset(textbooks.NoWeights, [["-1"], ["1"]], [-1, 1])
    messages = [f.message for f in case.findings if f.check == "returns-weights"]
    assert messages and "no coef_, nor any of w_" in messages[0], case.report()


@pytest.mark.parametrize("broken_bias", [0.0, pytest.param(1.0, marks=pytest.mark.slow)])
def test_a_bias_read_from_its_own_attribute_is_checked(broken_bias: float) -> None:
    class StuckBias(textbooks.CourseWeightsBias):
        def fit(self, X: object, y: object) -> None:
            super().fit(X, y)
            self.bias = broken_bias

    case = check_dataset(StuckBias, [["-3"], ["-1"]], [-1, 1])
    assert not case.passed and "returns-weights" not in {f.check for f in case.findings}, case.report()


def test_a_function_returning_a_dict_is_read_by_its_keys() -> None:
    def fit(X: object, y: object) -> dict[str, object]:
        est = textbooks.CourseWeightsBias()
        est.fit(X, y)
        return {"w": est.weights, "b": est.bias}

    assert check_implementation(fit, examples=EXAMPLES).passed
    case = check_dataset(lambda X, y: {"loss": 0.0}, [["-1"], ["1"]], [-1, 1])
    messages = [f.message for f in case.findings if f.check == "returns-weights"]
    assert messages and "neither (w, b) nor a weight vector" in messages[0], case.report()


class _Library:
    """Another array library's vector (a pandas Series, a tensor): NumPy converts it through ``__array__``, unless
    `refuses` (a tensor that needs its gradient, or lives on a GPU)."""

    def __init__(self, values: object, refuses: bool = False) -> None:
        self.values, self.refuses = values, refuses

    def __array__(self, dtype: object = None, copy: object = None) -> object:
        if self.refuses:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad")
        import numpy as np

        return np.asarray(self.values, dtype=float)


def test_another_librarys_arrays_are_read_as_numpys() -> None:
    # a pandas Series or a tensor as the weights was 'returns-weights: the returned weights[0]=0    2.0'
    def returns(X: object, y: object) -> object:
        est = textbooks.CourseWeightsBias()
        est.fit(X, y)
        return _Library(est.weights), _Library(est.bias)

    class Keeps:
        def fit(self, X: object, y: object) -> None:
            est = textbooks.CourseWeightsBias()
            est.fit(X, y)
            self.weights, self.bias = _Library(est.weights), _Library(est.bias)

    assert check_implementation(returns, examples=EXAMPLES).passed
    assert check_implementation(Keeps, examples=EXAMPLES).passed

    def refuses(X: object, y: object) -> object:
        return _Library([0.0, 1.0], refuses=True), 0.0

    case = check_dataset(refuses, [["-1"], ["1"]], [-1, 1])
    messages = [f.message for f in case.findings if f.check == "returns-weights"]
    assert messages and "of type _Library is not a rational number" in messages[0], case.report()


def test_a_returned_model_object_is_read_by_its_attributes() -> None:
    # a function returning a dataclass Model(w, b) got 'the returned weights is Model(...), neither (w, b) nor ...'
    @dataclasses.dataclass
    class Model:
        w: object
        b: float

    def fit(X: object, y: object) -> Model:
        est = textbooks.CourseWeightsBias()
        est.fit(X, y)
        return Model(est.weights, est.bias)

    assert check_implementation(fit, examples=EXAMPLES).passed


def test_a_returned_namedtuple_is_read_as_its_values() -> None:
    # Model(weights, bias) as a namedtuple raised "M.__new__() missing 1 required positional argument" in the
    # harness's own reading (its items were rebuilt with the namedtuple's constructor)
    Model = collections.namedtuple("Model", "weights bias")

    def fit(X: object, y: object) -> object:
        est = textbooks.CourseWeightsBias()
        est.fit(X, y)
        return Model(est.weights, est.bias)

    assert check_implementation(fit, examples=EXAMPLES).passed


def test_code_that_takes_its_data_otherwise_is_told_how_it_is_called() -> None:
    def train(data: object, epochs: object = 10) -> object:  # the data in one array, the labels last
        return [0.0] * int(epochs)  # type: ignore[call-overload]

    case = check_dataset(train, [["-1"], ["1"]], [-1, 1])
    messages = [f.message for f in case.findings if f.check == "returns-weights"]
    assert messages and "raised TypeError" in messages[0] and "it is called as fit(X, y)" in messages[0], messages

    def broken(X: object, y: object) -> object:
        raise ValueError("no")

    case = check_dataset(broken, [["-1"], ["1"]], [-1, 1])
    messages = [f.message for f in case.findings if f.check == "returns-weights"]
    assert messages and "raised ValueError" in messages[0] and "it is called as" not in messages[0], messages
