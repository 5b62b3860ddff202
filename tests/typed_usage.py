"""A user's typed code calling the public API, checked by mypy (issue 33, item 4).

Nothing here is a test of behaviour: `mypy` (run over tests/, see pyproject.toml) checks
that code written the way a user writes it, with annotated variables, type-checks against
the annotations `py.typed` ships. `tests/test_api.py` and the harness tests check what
these calls return; `tests/test_api.py::test_the_typed_usage_example_runs` runs the example
once, so that it cannot rot into code that type-checks but fails. (pytest does not collect
this file: its name does not start with ``test_``.)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import numpy.typing as npt

import verify_perceptron as vp
from verify_perceptron.harness import HarnessResult, check_implementation


def my_perceptron(X: npt.NDArray[np.float64], y: npt.NDArray[np.int64]) -> tuple[list[float], float]:
    """A user's perceptron, in the harness's ``fit(X, y) -> (w, b)`` shape: classic, eta 1, from 0."""
    w, b = [0.0] * X.shape[1], 0.0
    for _ in range(1000):
        mistakes = 0
        for row, label in zip(X.tolist(), y.tolist()):
            if label * (sum(wi * xi for wi, xi in zip(w, row)) + b) <= 0:
                w = [wi + label * xi for wi, xi in zip(w, row)]
                b += label
                mistakes += 1
        if mistakes == 0:
            break
    return w, b


def verify_and() -> vp.Verification:
    X: list[list[int]] = [[0, 0], [0, 1], [1, 0], [1, 1]]
    y: list[int] = [0, 0, 0, 1]
    result: vp.Verification = vp.verify(X, y, convention="classic", eta="1/2", max_epochs=100)
    verdict: str = result.verdict
    holds: bool = result.holds
    code: int = result.exit_code
    text: str = result.text
    assert (verdict, holds, code) == ("verified", True, 0) and text
    trace: vp.Trace = result.trace
    weights: Sequence[Fraction] = trace.final_weights
    n_updates: int = trace.n_updates
    assert len(weights) == 3 and n_updates > 0
    return result


def fit_and_predict() -> float:
    X: list[list[float]] = [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]
    y: list[int] = [0, 0, 0, 1]
    clf: vp.ExactPerceptron = vp.ExactPerceptron(convention="classic", max_epochs=100)
    fitted: vp.ExactPerceptron = clf.fit(X, y)
    predicted: npt.NDArray[np.int64] = fitted.predict(X)
    accuracy: float = fitted.score(X, y)
    converged: bool = fitted.converged_
    n_iter: int = fitted.n_iter_
    verification: vp.Verification | None = fitted.verification_  # None only when fitted with verify=False
    assert verification is not None and verification.verdict == "verified"
    assert predicted.tolist() == y and converged and n_iter > 0
    return accuracy


def check_my_perceptron(examples: int = 10) -> HarnessResult:
    result: HarnessResult = check_implementation(my_perceptron, convention="classic", examples=examples, seed=0)
    passed: bool = result.passed
    report: str = result.report()
    departures: Sequence[object] = result.departures
    assert passed, report
    assert not departures
    return result
