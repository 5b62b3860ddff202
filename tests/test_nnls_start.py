"""The least-squares start of the max-margin solve: kept only where it gives today's answer, refused when wrong."""

from __future__ import annotations

from fractions import Fraction as F

import scipy.optimize  # noqa: F401  (the start is proposed only once SciPy's optimizer is imported)
from hypothesis import given

from tests.data_strategies import halves as datasets
from verify_perceptron.certify import _nnls_start
from verify_perceptron.certify._activeset import solve
from verify_perceptron.certify._constraints import augmented_constraints
from verify_perceptron.certify.maxmargin import max_margin
from verify_perceptron.data.dataset import Dataset
from verify_perceptron.data.examples import example


def fresh(data: Dataset) -> Dataset:
    """The same data as a new dataset: no solve kept from another test."""
    return Dataset(X=data.X, y=data.y)


def answer(solution) -> tuple[object, ...]:
    out = solution.exact
    return out.status, out.x, dict(zip(out.active, out.multipliers))


def test_the_start_gives_the_float_runs_answer():
    cons = augmented_constraints(example("and"))
    found = _nnls_start.nnls_solution(cons, None)
    assert found is not None and answer(found) == answer(solve(cons))


def test_a_start_that_is_not_dual_feasible_or_dependent_is_refused(monkeypatch):
    # Rows (1, 1) and (1, 3) at margin exactly 1 need α = (3/2, -1/2); three rows in dimension 2 are dependent.
    data = Dataset(X=((F(1),), (F(3),), (F(-1),)), y=(1, 1, -1))
    expected = max_margin(fresh(data)).as_dict()
    for wrong in ((0, 1), (0, 1, 2)):
        monkeypatch.setattr(_nnls_start, "nnls_active_set", lambda rows, wrong=wrong: wrong)
        assert _nnls_start.nnls_solution(augmented_constraints(data), None) is None
        assert max_margin(fresh(data)).as_dict() == expected  # the float run's start decides instead


def test_a_start_whose_multipliers_need_not_be_unique_is_refused(monkeypatch):
    # Sample 0 twice: both copies are at margin 1, one is active, so another α splits the weight between them.
    data = Dataset(X=((F(1),), (F(1),), (F(-1),)), y=(1, 1, -1))
    cons = augmented_constraints(data)
    assert _nnls_start.nnls_solution(cons, None) is None
    monkeypatch.setattr(_nnls_start, "nnls_active_set", lambda rows: (0, 2))
    assert _nnls_start.nnls_solution(cons, None) is None
    refused = max_margin(fresh(data)).as_dict()
    monkeypatch.setattr(_nnls_start, "nnls_active_set", lambda rows: None)
    assert refused == max_margin(fresh(data)).as_dict()  # the float run's start decided


def test_no_start_is_proposed_for_data_that_are_not_separable_or_without_scipy(monkeypatch):
    assert _nnls_start.nnls_active_set(getattr(augmented_constraints(example("xor")), "floats")) is None
    monkeypatch.delitem(__import__("sys").modules, "scipy.optimize")
    assert _nnls_start.nnls_active_set(getattr(augmented_constraints(example("and")), "floats")) is None


@given(datasets(max_samples=8, max_features=3))
def test_the_start_gives_the_same_answer_as_the_float_run_wherever_it_is_kept(data):
    cons = augmented_constraints(data)
    found = _nnls_start.nnls_solution(cons, None)
    if found is not None:
        assert answer(found) == answer(solve(cons))


def test_no_start_is_proposed_from_its_size_limit(monkeypatch):
    # (SciPy's solve grows faster than the float run's passes: past the limit the float run proposes)
    rows = getattr(augmented_constraints(example("and")), "floats")
    assert _nnls_start.nnls_active_set(rows) is not None
    monkeypatch.setattr(_nnls_start, "NNLS_BELOW", rows.size)
    assert _nnls_start.nnls_active_set(rows) is None


def test_no_start_is_proposed_while_scipy_is_half_imported(monkeypatch):
    # (the decision may run in a thread beside one still importing SciPy's optimizer: no AttributeError)
    from types import SimpleNamespace

    monkeypatch.setitem(__import__("sys").modules, "scipy.optimize", SimpleNamespace())
    assert _nnls_start.nnls_active_set(getattr(augmented_constraints(example("and")), "floats")) is None
