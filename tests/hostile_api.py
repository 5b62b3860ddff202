"""The hostile-input corpus's cases for the Python API (`tests/hostile_corpus.py` runs them beside the command
line's): each a call that must return what the mathematics says, or raise the toolkit's one-line error.

A call returns None when its answer is right, or a sentence saying what is wrong (a wrong answer, exit 1 in
the corpus's terms); the toolkit's `DataError`/`InvalidArgument` (and, from the estimator, scikit-learn's
ValueError/TypeError) is exit 2 with its message; anything else is an internal error (exit 4).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import numpy as np


@dataclass(frozen=True)
class ApiCase:
    """A call, the exit code it stands for, and a fragment its one line holds."""

    name: str
    call: Callable[[], str | None]
    code: int
    fragment: str


def _predicts_its_tie() -> str | None:
    from verify_perceptron.api.estimator import ExactPerceptron

    for mode in ("online", "batch"):
        clf = ExactPerceptron(convention="hard-limiter-plus", mode=mode).fit([[-2], [-1]], [0, 1])
        if clf.predict([[-2], [-1]]).tolist() != [0, 1]:
            return f"hard-limiter-plus ({mode}) predicts {clf.predict([[-2], [-1]]).tolist()}, trained on [0, 1]"
    return None


def _from_arrays(X: object, y: object, **kwargs: Any) -> Callable[[], str | None]:  # Any: hostile settings
    def call() -> str | None:
        from verify_perceptron.data.dataset import from_arrays

        data = from_arrays(X, y, **kwargs)
        return f"accepted: labels {data.y}, names {data.feature_names}"
    return call


def _fit(X: object, y: object) -> Callable[[], str | None]:
    def call() -> str | None:
        from verify_perceptron.api.estimator import ExactPerceptron

        return f"fitted: classes {ExactPerceptron().fit(X, y).classes_.tolist()}"
    return call


def _positive_two() -> str | None:
    from verify_perceptron.data.dataset import from_arrays

    data = from_arrays([[0], [1], [2]], [2, 3, 3], positive=2)
    return None if data.y == (1, -1, -1) else f"positive=2 gave labels {data.y}"


def _verify(X: object, y: object, *, report: bool = False,
            **kwargs: Any) -> Callable[[], str | None]:  # Any: settings of any type, as a user's code may pass
    def call() -> str | None:
        import verify_perceptron as vp

        result = vp.verify(X, y, **kwargs)
        if report:
            result.text, result.json  # noqa: B018 - rendering is part of the contract
        return None if result.exit_code == 0 else f"exit code {result.exit_code}, verdict {result.verdict}"
    return call


_ROWS = [[0], [1], [2]]
_BIG = 10**1000 - 1

#: The API's cases (issue 27 and its kind).
API_CASES = [
    ApiCase("API: hard-limiter-plus predicts a score of 0 as +1", _predicts_its_tie, 0, ""),
    ApiCase("API: NaN in an object y", _fit(_ROWS, np.array([0, float("nan"), 0], dtype=object)), 2,
            "y[1]=nan is not a finite number"),
    ApiCase("API: None in y", _from_arrays(_ROWS, ["a", None, "b"], positive="a"), 2, "y[1]=None is a missing value"),
    ApiCase("API: a masked value in X", _from_arrays(np.ma.masked_array(_ROWS, mask=[[False], [True], [False]]), [0, 1, 1]), 2,
            "X[1][0] is masked: masked values are missing data"),
    ApiCase("API: rows given as sets", _from_arrays([{1, 2}, {3, 4}], [0, 1]), 2, "X[0]={1, 2} is a set"),
    ApiCase("API: feature_names of the wrong length", _from_arrays([[0, 1], [1, 0]], [0, 1], feature_names=["a"]), 2,
            "feature_names has 1 names for 2 features"),
    ApiCase("API: mixed int and string labels", _from_arrays(_ROWS, [1, "a", 1], positive="a"), 2,
            "y[1]='a' is text and y[0]=1 is a number"),
    ApiCase("API: positive=2 names the class 2", _positive_two, 0, ""),
    ApiCase("API: positive=2 that is no label", _from_arrays(_ROWS, [0, 1, 1], positive=2), 2,
            "--positive 2 is not one of the labels"),
    ApiCase("API: Decimal 1E+99999999 with time_limit=5",
            _verify([[Decimal("1E+99999999")], [1]], [0, 1], time_limit=5), 2, "has exponent 99999999"),
    ApiCase("API: an int of 5001 digits", _from_arrays([[10**5000], [1]], [0, 1]), 2, "has more than 2000 digits"),
    ApiCase("API: a generator of rows without end",
            _from_arrays(([0] * 100 for _ in iter(int, 1)), [0, 1]), 2, "more than the limit of"),
    ApiCase("API: eta=10**5000", _verify([[0], [1]], [0, 1], eta=10**5000), 2, "eta=(an integer of 5001 digits)"),
    ApiCase("API: a timedelta64 column", _from_arrays(np.array([[1], [2]], dtype="timedelta64[s]"), [0, 1]), 2,
            "X has dtype timedelta64[s]"),
    ApiCase("API: a 1,000-digit value, JSON report", _verify([[_BIG], [-_BIG]], [1, 0]), 0, ""),
    ApiCase("API: a 1,000-digit value, text report", _verify([[_BIG], [-_BIG]], [1, 0], report=True), 0, ""),
]
