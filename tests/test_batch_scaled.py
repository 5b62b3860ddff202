"""Batch steps scaled by a count (`verify_perceptron.harness._batch_scaled`): the mean of a pass's mistakes, gradient
descent on the mean perceptron loss (rate η/n), and note 003's batch sum in float64, each named; code that scales
its step some other way is not."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from verify_perceptron.data.dataset import Dataset, from_arrays
from verify_perceptron.harness import check_implementation
from verify_perceptron.harness._batch_scaled import STEPS, SUMS_OF_STEPS, batch_scaled_cause, exact_run, float_run
from verify_perceptron.harness._evidence import Observation
from verify_perceptron.notes.conventions import get_convention

Implementation = Callable[[Any, Any], tuple[Any, Any]]


def _batch(scale: Callable[[Any, Any, int, int], tuple[Any, Any]]) -> Implementation:
    """A vectorized float64 perceptron at the rule y·score <= 0, stepping a pass by `scale(s_w, s_b, k, n)` of its
    mistakes' sums (k mistakes of n samples)."""
    def run(X: Any, y: Any) -> tuple[Any, Any]:
        X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
        w, b = np.zeros(X.shape[1]), 0.0
        for _ in range(1000):
            m = y * (X @ w + b) <= 0
            if not m.any():
                break
            step_w, step_b = scale((y[m, None] * X[m]).sum(0), y[m].sum(), int(m.sum()), len(X))
            w, b = w + step_w, b + step_b
        return w, b
    return run


mean_of_mistakes = _batch(lambda s, sb, k, n: (s / k, sb / k))
mean_loss_gradient = _batch(lambda s, sb, k, n: (0.1 * s / n, 0.1 * sb / n))
broken_mean = _batch(lambda s, sb, k, n: (s / (k + 1), sb / (k + 1)))  # one too many in the count
tenth_sum = _batch(lambda s, sb, k, n: (0.1 * s, 0.1 * sb))


def gradient_descent(X: Any, y: Any) -> tuple[Any, Any]:
    """Full-batch gradient descent on the mean perceptron loss at rate 0.1 (each pass's rate 0.1/n), the sums by
    NumPy's matrix product."""
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    w, b = np.zeros(X.shape[1]), 0.0
    for _ in range(1000):
        m = y * (X @ w + b) <= 0
        if not m.any():
            break
        w, b = w + 0.1 / len(X) * (X[m].T @ y[m]), b + 0.1 / len(X) * y[m].sum()
    return w, b


def mean_on_01(X: Any, t: Any) -> tuple[Any, Any]:
    """Labels 0/1, predicting 1 at a score >= 0, stepping 0.5 times the mean of (t - p)·x over its mistakes."""
    X, t = np.asarray(X, dtype=float), np.asarray(t, dtype=float)
    w, b = np.zeros(X.shape[1]), 0.0
    for _ in range(1000):
        e = t - (X @ w + b >= 0)
        m = e != 0
        if not m.any():
            break
        w, b = w + 0.5 * (e[m, None] * X[m]).mean(0), b + 0.5 * e[m].mean()
    return w, b


def mean_in_fractions(X: Any, y: Any) -> tuple[list[Fraction], Fraction]:
    """The mean of the pass's mistakes, in exact arithmetic."""
    w, b = [Fraction(0)] * len(X[0]), Fraction(0)
    for _ in range(1000):
        wrong = [i for i in range(len(X)) if y[i] * (sum(a * x for a, x in zip(w, X[i])) + b) <= 0]
        if not wrong:
            break
        w = [w[j] + sum(y[i] * X[i][j] for i in wrong) / len(wrong) for j in range(len(w))]
        b += Fraction(sum(y[i] for i in wrong), len(wrong))
    return w, b


def _datasets(count: int, seed: int, sizes: tuple[int, ...] = (3,), unit: int = 10) -> list[Dataset]:
    """Separable datasets of 3 samples (or `sizes`) in 2 features on the grid 1/`unit` (1/10: not dyadic, so float64
    rounds their sums)."""
    rng = random.Random(seed)
    found: list[Dataset] = []
    while len(found) < count:
        size = sizes[0] if len(sizes) == 1 else rng.choice(sizes)
        X = [[f"{rng.randint(-30, 30) / unit:g}" for _ in range(2)] for _ in range(size)]
        y = [1 if float(x[0]) + 0.5 * float(x[1]) > 0.05 else -1 for x in X]
        if len(set(y)) == 2:
            found.append(from_arrays(X, y))
    return found


def _value(v: Any) -> Fraction:
    """A returned weight exactly: a Fraction as it is, a NumPy float (float32 too) as the double it holds."""
    return v if isinstance(v, Fraction) else Fraction(float(v))


def _observed(implementation: Implementation, data: list[Dataset], exact: bool = False) -> list[Observation]:
    conv = get_convention("classic")
    seen = []
    for one in data:
        X = [list(x) for x in one.X] if exact else [[float(v) for v in x] for x in one.X]
        w, b = implementation(X, list(one.y))
        seen.append(Observation(one, conv.from_canonical(_value(b), tuple(_value(v) for v in w))))
    return seen


@pytest.mark.parametrize("implementation, code, rate", [(mean_of_mistakes, "batch-mean", "1"),
                                                        (mean_loss_gradient, "batch-mean-loss", "0.1"),
                                                        (tenth_sum, "batch-mode", "0.1")])
def test_each_scaled_batch_is_named_with_its_rate(implementation: Implementation, code: str, rate: str) -> None:
    found = batch_scaled_cause(_observed(implementation, _datasets(20, 5, sizes=(2, 3, 4, 5))),
                               get_convention("classic"), None, 2000, "-1/+1", True)
    assert found is not None and found.code == code, found
    assert Fraction(found.parameters["rate"]) in (Fraction(rate), Fraction(float(rate)))


def test_a_step_scaled_otherwise_is_not_named() -> None:
    assert batch_scaled_cause(_observed(broken_mean, _datasets(20, 5, sizes=(2, 3, 4, 5))),
                              get_convention("classic"), None, 2000, "-1/+1", True) is None


def test_the_exact_mean_is_named_in_exact_arithmetic() -> None:
    found = batch_scaled_cause(_observed(mean_in_fractions, _datasets(8, 6), exact=True), get_convention("classic"),
                               None, 2000, "-1/+1", False)
    assert found is not None and (found.code, found.parameters["rate"], found.parameters["float64"]) == (
        "batch-mean", "1", False)


def test_the_float_run_is_numpy_s_bit_for_bit() -> None:
    # the model against NumPy code written out, on data whose sums float64 rounds, every way of computing
    conv = get_convention("classic")
    writes: dict[str, Callable[[Any, float, float], Any]] = {
        "rate-first": lambda s, a, k: a * s / k, "mean-first": lambda s, a, k: a * (s / k),
        "rate-over-count": lambda s, a, k: a / k * s}
    assert sorted(writes) == sorted(STEPS)
    for data in _datasets(25, 7):
        X, y = np.array([[float(v) for v in x] for x in data.X]), np.array(data.y, dtype=float)
        for divisor in ("mistakes", "samples"):
            for step, write in writes.items():
                for steps_sum in SUMS_OF_STEPS:
                    w, b = np.zeros(2), 0.0
                    for _ in range(2000):
                        m = y * (X @ w + b) <= 0
                        if not m.any():
                            break
                        s = (y[m, None] * X[m]).sum(0) if steps_sum == "rows" else X[m].T @ y[m]
                        k = float(m.sum()) if divisor == "mistakes" else 3.0
                        w, b = w + write(s, 0.1, k), b + write(np.array([y[m].sum()]), 0.1, k)[0]
                    found = float_run(data, conv, Fraction(0.1), divisor, 2000, steps_sum=steps_sum, step=step)
                    assert found == (Fraction(float(b)), tuple(Fraction(v) for v in w)), (data, divisor, step)


def test_the_exact_run_is_the_mean_written_out() -> None:
    conv = get_convention("classic")
    for data in _datasets(10, 8):
        w, b = mean_in_fractions([list(x) for x in data.X], list(data.y))
        assert exact_run(data, conv, "mistakes", 2000) == (b, tuple(w))


@pytest.mark.parametrize("implementation, options, code, expected", [
    # the default suite names batch-mean-loss through batch_scaled_cause (above); the whole check is slow's
    pytest.param(gradient_descent, {}, "batch-mean-loss", ("0.1", "classic"), marks=pytest.mark.slow),
    (mean_on_01, {"labels": "0/1"}, "batch-mean", ("0.5", "hard-limiter-plus"))])
def test_a_check_names_scaled_batch_code(implementation: Implementation, options: dict[str, Any], code: str,
                                         expected: tuple[str, str]) -> None:
    # both were "unexplained" after the whole search of combinations
    result = check_implementation(implementation, dtype="float", examples=30, **options)
    assert result.counterexample is not None
    diagnosis = result.counterexample.diagnoses[0]
    assert diagnosis.code == code, result.report()
    assert (float(Fraction(diagnosis.parameters["rate"])), diagnosis.parameters["convention"]) == (
        float(expected[0]), expected[1])


def tenth_sum_bias_fixed(X: Any, y: Any) -> tuple[Any, Any]:
    """Note 003's batch step at rate 0.1 in float64 that never moves the bias."""
    w, _ = _batch(lambda s, sb, k, n: (0.1 * s, 0.0))(X, y)
    return w, 0.0


def test_float_batch_code_passes_where_its_rate_is_accepted_and_a_broken_one_does_not() -> None:
    # --mode batch --accept float-rate was refused: a vectorized NumPy perceptron at 0.1 could not be checked
    batch: dict[str, Any] = {"dtype": "float", "mode": "batch", "eta": Fraction(0.1), "accept_departures": ["float-rate"],
             "examples": 20}
    result = check_implementation(tenth_sum, **batch)
    assert result.passed, result.report()
    broken = check_implementation(tenth_sum_bias_fixed, **batch)
    assert not broken.passed and broken.counterexample is not None


@pytest.mark.slow
def test_float_batch_code_checked_online_is_told_the_options_that_pass() -> None:
    # the suggestion is checked on the datasets tried and fresh ones before it is printed
    online = check_implementation(tenth_sum, dtype="float", examples=20)
    assert online.counterexample is not None
    diagnosis = online.counterexample.diagnoses[0]
    assert diagnosis.code == "batch-mode" and diagnosis.parameters["passes_with"] == (
        "--float-eta 0.1 --mode batch --accept float-rate"), online.report()


def tenth_sum_printed(X: Any, y: Any) -> tuple[list[float], float]:
    """`tenth_sum`'s weights as a program printing them with %.4f gives them."""
    w, b = tenth_sum(X, y)
    return [float(f"{v:.4f}") for v in w], float(f"{b:.4f}")


def test_float_batch_code_printing_short_is_named_and_passes_where_its_printing_is_accepted() -> None:
    # on eighths, where the exact run at 1/10 has more than 4 decimals: only float64's run printed gives them
    seen = _observed(tenth_sum_printed, _datasets(12, 9, sizes=(2, 3, 4), unit=8))
    found = batch_scaled_cause(seen, get_convention("classic"), None, 2000, "-1/+1", True)
    assert found is not None and (found.code, found.parameters["printed"]) == ("batch-mode", True), found
    assert "printed to 4 decimal places" in found.text
    batch: dict[str, Any] = {"dtype": "float", "mode": "batch", "eta": Fraction(0.1), "examples": 10}
    assert not check_implementation(tenth_sum_printed, accept_departures=["float-rate"], **batch).passed
    result = check_implementation(tenth_sum_printed, accept_departures=["float-rate", "printed-rounding"], **batch)
    assert result.passed, result.report()


def textbook_online(X: Any, y: Any) -> tuple[Any, Any]:
    """Online, predicting +1 at a score >= 0, stepping 0.01·(y - prediction): note 001's rule at 0.01 in float64."""
    X = np.asarray(X, dtype=float)
    w, b = np.zeros(X.shape[1]), 0.0
    for _ in range(1000):
        errors = 0
        for x, t in zip(X, y):
            p = 1.0 if x @ w + b >= 0 else -1.0
            if p != t:
                w, b, errors = w + 0.01 * (t - p) * x, b + 0.01 * (t - p), errors + 1
        if not errors:
            break
    return w, b


def test_datasets_that_cannot_tell_a_batch_model_from_the_online_run_name_no_batch_model() -> None:
    # a Rust textbook perceptron (note 001's rule at 0.01, bias first) was "batch-mean" where each pass of the
    # datasets tried had one mistake: the batch run of mean steps is then the online run
    conv, rule = get_convention("classic"), get_convention("hard-limiter-plus")
    alike = []
    for data in _datasets(400, 11, sizes=(2, 3), unit=4):
        seen = _observed(textbook_online, [data])[0]
        found = float_run(data, rule, Fraction(0.01), "mistakes", 2000)
        if found is not None and conv.from_canonical(*found) == seen.weights:
            alike.append(seen)
    assert len(alike) >= 5
    assert batch_scaled_cause(alike[:12], conv, None, 2000, "-1/+1", True) is None


def test_the_suggestion_for_float_batch_code_declares_its_rule_rate_and_printing() -> None:
    from types import SimpleNamespace

    from verify_perceptron.harness._suggestions import _one

    options: Any = SimpleNamespace(convention="classic", accept_departures=())
    found = _one("batch-mode", {"mode": "batch", "rate": "0.05", "float64": True, "printed": True,
                                "convention": "hard-limiter-plus"}, options)
    assert found == {"mode": "batch", "eta": Fraction(0.05), "accept_departures": ("float-rate", "printed-rounding"),
                     "convention": "hard-limiter-plus"}
    assert _one("batch-mode", {"mode": "batch", "rate": "0.1", "float64": True, "printed": False,
                               "convention": "classic"}, options) == {
        "mode": "batch", "eta": Fraction(0.1), "accept_departures": ("float-rate",)}
    assert _one("batch-mode", {"mode": "batch"}, options) == {"mode": "batch"}  # the exact batch run's


def tenth_sum_in_float32(X: Any, y: Any) -> tuple[Any, Any]:
    """Note 003's batch step at rate 0.1 in float32, NumPy's (and PyTorch's default) single precision."""
    X, y = np.asarray(X, dtype=np.float32), np.asarray(y, dtype=np.float32)
    w, b = np.zeros(X.shape[1], dtype=np.float32), np.float32(0)
    for _ in range(1000):
        m = y * (X @ w + b) <= 0
        if not m.any():
            break
        w, b = w + np.float32(0.1) * (y[m, None] * X[m]).sum(0), b + np.float32(0.1) * y[m].sum()
    return w, b


def test_float32_batch_code_is_named_in_float32() -> None:
    # it was "unexplained" after the whole search: the float64 batch model rounds otherwise
    data = _datasets(20, 12, sizes=(2, 3, 4), unit=8)
    seen = _observed(tenth_sum_in_float32, data)
    found = batch_scaled_cause(seen, get_convention("classic"), None, 2000, "-1/+1", True)
    assert found is not None and (found.code, found.parameters["float32"], found.parameters["float64"]) == (
        "batch-mode", True, False), found
    assert float(Fraction(found.parameters["rate"])) == 0.1 and "in float32 (" in found.text
    for one, observation in zip(data, seen):  # the model is NumPy's float32 run bit for bit
        model = float_run(one, get_convention("classic"), Fraction(0.1), "none", 2000, single=True)
        assert model is not None and get_convention("classic").from_canonical(*model) == observation.weights


def test_a_loops_scores_made_a_feature_at_a_time_are_the_loops_own() -> None:
    # the loop orders of _floats.SUMS, made over every sample at once, round as the scalar loop does, bit for bit
    from verify_perceptron.harness._batch_scaled import _scores
    from verify_perceptron.harness._floats import SUMS, _score

    rng = np.random.default_rng(5)
    for _ in range(200):
        n, d = int(rng.integers(1, 6)), int(rng.integers(1, 6))
        X = rng.standard_normal((n, d)) * 10.0 ** rng.integers(-3, 4, size=(n, d))
        v, b = rng.standard_normal(d) / 3, float(rng.standard_normal() / 7)
        rows = X.tolist()
        for order in SUMS:
            assert _scores(X, v, b, order, rows).tolist() == [_score(v.tolist(), x, b, order) for x in rows], order
