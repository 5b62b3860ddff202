"""Verdicts at every magnitude: tiny, huge and mixed values decide as the same data at a moderate scale.

Scaling a feature by a positive constant c maps a separator (b, v) to
(b, v/c), so it keeps the data separable or not, and the verdict's ground
(separable, certified either way) with it. It does not keep the run: the
bias input 1 is not scaled, so the mistakes, and whether the run converges
within its epochs, may change (1 and 3 at labels +1, -1 converge at once;
1e-100 and 3e-100 need about 10^200 updates). The verdict is therefore read
from facts of each run, not copied across scales: a converged run is
verified, a stopped one on separable data is verified as far as it ran, and
data that are not separable are certified so. The moderate-scale run gives
separability, independently of every float the extreme run meets.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import verify_perceptron as vp
from verify_perceptron.api.verification import run_verification
from verify_perceptron.data.dataset import Dataset
from verify_perceptron.notes.conventions import CONVENTIONS

# A float step that meets the end of float64's range may choose badly, never warn on a user's terminal.
pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")

#: Epochs each run may take: few, so that runs stopped at the limit on separable data are common too.
EPOCHS = 12


@st.composite
def small_data(draw: st.DrawFn) -> tuple[list[list[int]], list[int]]:
    """2 to 5 samples of 1 to 3 small integer features, both classes present."""
    n, d = draw(st.integers(2, 5)), draw(st.integers(1, 3))
    X = [[draw(st.integers(-3, 3)) for _ in range(d)] for _ in range(n)]
    y = draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n).filter(lambda ys: len(set(ys)) == 2))
    return X, y


#: A common power of ten for every feature, or one per feature (mixed ranges in one sample), from 1e-300 to 1e300.
exponents = st.one_of(st.integers(-300, 300).map(lambda e: ("common", e)),
                      st.lists(st.sampled_from([-300, -150, -1, 0, 33, 151, 300]), min_size=3, max_size=3)
                      .map(lambda es: ("mixed", es)))


def _scaled(X: list[list[int]], y: list[int], exponent: tuple[str, int | list[int]]) -> Dataset:
    """X with each feature times 10**p: one common p ("common", p), or one per feature ("mixed", [p, ...])."""
    _, e = exponent
    powers = [e] * len(X[0]) if isinstance(e, int) else e[:len(X[0])]
    return Dataset(X=[[Fraction(v) * Fraction(10) ** p for v, p in zip(row, powers)] for row in X], y=y)


def _assert_reads_its_run(report: Mapping[str, Any], separable: bool | None) -> None:
    """The verdict follows from the run and from separability at the moderate scale, and the record agrees."""
    assert report["separable"] is separable
    if report["converged"]:
        assert report["verdict"] == "verified"  # (never 'inconclusive', whose sentence says 'no convergence')
    elif separable:
        assert report["verdict"] == "stopped-separable" and report["separator"]["source"] == "certified"
    else:
        assert report["verdict"] == "not-separable"
    assert report["exit_code"] == 0
    soft = next(i for i in report["invariants"] if i["name"] == "soft-margin-bound")
    if separable:  # u is a separator: it has a positive margin, whatever the floats make of it
        assert soft["holds"] is True and soft["n_checked"] == report["n_mistakes"]
    else:
        assert soft["holds"] is not False


@given(data=small_data(), exponent=exponents, convention=st.sampled_from(list(CONVENTIONS)))
def test_the_verdict_at_any_decimal_magnitude_is_the_one_its_run_and_the_data_give(data, exponent, convention):
    X, y = data
    moderate = run_verification(Dataset(X=X, y=y), convention, max_epochs=EPOCHS)
    separable = moderate.report["separable"]
    assert separable is not None  # small data: decided exactly at the moderate scale
    _assert_reads_its_run(moderate.report, separable)
    _assert_reads_its_run(run_verification(_scaled(X, y, exponent), convention, max_epochs=EPOCHS).report, separable)


@given(data=small_data(), power=st.integers(-1074, 1000))
def test_binary_floats_down_to_the_smallest_subnormal_decide_as_at_a_moderate_scale(data, power):
    X, y = data
    separable = run_verification(Dataset(X=X, y=y), "classic", max_epochs=EPOCHS).report["separable"]
    # each value v·2^power, an exact double (2^-1074 is the smallest: 5e-324), read exactly through the API
    floats = [[float(Fraction(v) * Fraction(2) ** power) for v in row] for row in X]
    assert all(Fraction(f) == Fraction(v) * Fraction(2) ** power for row, frow in zip(X, floats) for v, f in zip(row, frow))
    result = vp.verify(floats, y, max_epochs=EPOCHS)
    _assert_reads_its_run(result.report, separable)


def test_the_progress_line_reads_a_bound_past_float64s_range() -> None:
    # γ = 1e-300 with R = ‖w*‖ = 1 (about): note 000's bound is 10^600 + 1, shown on a terminal while a run goes
    from verify_perceptron.check.checker import Checker

    data = Dataset(X=[[Fraction(1, 10**300)], [Fraction(-1, 10**300)]], y=[1, -1])
    checker = Checker(data, "classic", rate=1, mode="online", separator=[0, 1])
    assert checker.own is not None and checker.own.value == 10**600 + 1
    assert checker.status() == "0 mistakes, bound 1.000e+600"
