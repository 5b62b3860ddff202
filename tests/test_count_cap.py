"""Code that stops after K updates, or after P presentations of a sample, is named with its cap (it was only
'consistent with an early stop'), and a stop whose count changes with the data is not given one."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from verify_perceptron.harness import check_implementation


def _update_cap(cap: Any) -> Any:
    """The classic perceptron that returns after `cap(n)` updates (n the number of samples)."""
    def fit(X: Any, y: Any) -> Any:
        X = np.asarray(X, dtype=float)
        w, b, k = np.zeros(X.shape[1]), 0.0, 0
        for _ in range(1000):
            clean = True
            for x, t in zip(X, y):
                if t * (w @ x + b) <= 0:
                    w, b, clean, k = w + t * x, b + t, False, k + 1
                    if k >= cap(len(X)):
                        return w, b
            if clean:
                break
        return w, b
    return fit


def _presentation_cap(X: Any, y: Any) -> Any:
    """A streaming loop over the samples in turn, 50 presentations, mistakes or not."""
    X = np.asarray(X, dtype=float)
    w, b = np.zeros(X.shape[1]), 0.0
    for step in range(50):
        x, t = X[step % len(X)], y[step % len(X)]
        if t * (w @ x + b) <= 0:
            w, b = w + t * x, b + t
    return w, b


def test_an_update_cap_is_named_with_its_count() -> None:
    result = check_implementation(_update_cap(lambda n: 20), examples=25, worked_examples=False)
    assert [d.code for d in result.diagnoses] == ["count-cap"], result.report()
    parameters = result.diagnoses[0].parameters
    assert (parameters["count"], parameters["cap"]) == ("updates", 20), result.report()


@pytest.mark.slow  # (8 s under load; the update cap's test above runs by default)
def test_a_presentation_cap_is_named_with_its_count() -> None:
    result = check_implementation(_presentation_cap, examples=25, worked_examples=False)
    assert [d.code for d in result.diagnoses] == ["count-cap"], result.report()
    parameters = result.diagnoses[0].parameters
    assert (parameters["count"], parameters["cap"]) == ("presentations", 50), result.report()


@pytest.mark.slow  # 5 s; by default test_an_update_cap_is_named_with_its_count holds the cap's model
def test_a_stop_whose_count_follows_the_data_gets_no_cap() -> None:
    result = check_implementation(_update_cap(lambda n: n + 1), examples=25, worked_examples=False)
    assert not result.passed
    assert "count-cap" not in [d.code for d in result.diagnoses], result.report()
