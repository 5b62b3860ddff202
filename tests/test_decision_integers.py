"""The separability decision's big integers handled with fewer operations on them, the same values as made the
long way: Fractions in lowest terms without a gcd of their thousands of bits, the product of a vector with a
common factor kept for its next use, ‖W‖² made only where a product's guard reads it, and the optimality
check's stationarity compared without a product of two such integers."""

from __future__ import annotations

import math
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.test_fraction_free import BACKENDS, backend, needs_flint
from verify_perceptron.certify import _activeset, _fraction_free
from verify_perceptron.certify._activeset import times_lowest
from verify_perceptron.certify._constraints import explicit_rows
from verify_perceptron.certify.maxmargin import max_margin, optimality_defect
from verify_perceptron.data.dataset import Dataset
from verify_perceptron.data.examples import example
from verify_perceptron.data.integers import ExactMatrix

big = st.integers(-(2**200), 2**200)


@given(factor=st.integers(1, 2**80) | st.sampled_from([2**64, 3 * 2**70, 6]), p=big,
       q=st.integers(1, 2**200))
def test_a_multiple_of_a_fraction_in_lowest_terms_is_the_fraction_made_anew(factor, p, q):
    g = math.gcd(p, q)
    p, q = p // g, q // g
    made = times_lowest(factor, p, q)
    expected = Fraction(factor * p, q)
    # (Fraction's == compares numerators and denominators: a value not in lowest terms is unequal)
    assert made == expected and (made.numerator, made.denominator) == (expected.numerator, expected.denominator)
    assert hash(made) == hash(expected) and str(made) == str(expected)


def test_a_fraction_the_factor_shares_primes_with_is_reduced():
    assert times_lowest(2**64 * 3, 5, 2**10 * 9) == Fraction(2**64 * 3 * 5, 2**10 * 9)
    assert (times_lowest(12, 7, 18).numerator, times_lowest(12, 7, 18).denominator) == (14, 3)


@pytest.mark.parametrize("args, bad", [((0, 1, 2), "factor=0"), ((-3, 1, 2), "factor=-3"),
                                       ((3, 1, 0), "1/0"), ((3, 1, -2), "1/-2"), ((3, 4, 6), "4/6"),
                                       ((3, 0, 5), "0/5")])
def test_a_fraction_not_in_lowest_terms_or_a_factor_not_positive_is_refused_by_name(args, bad):
    with pytest.raises(ValueError, match=bad):
        times_lowest(*args)


rows_strategy = st.integers(1, 4).flatmap(lambda k: st.lists(
    st.lists(st.integers(-(2**70), 2**70) | st.integers(-3, 3), min_size=k, max_size=k), min_size=1, max_size=k))


@pytest.mark.parametrize("name", BACKENDS)
@given(rows=rows_strategy)
def test_the_gram_solve_in_lowest_terms_is_gram_solves_values(name, rows):
    with backend(name):
        lowest = _fraction_free.gram_solve_lowest(rows)
    found = _fraction_free.gram_solve(rows)
    assert (lowest is None) == (found is None)
    if found is None or lowest is None:
        return
    X, d, point = found
    for terms, values in ((lowest[0], X), (lowest[1], point)):
        assert [(Fraction(v, d).numerator, Fraction(v, d).denominator) for v in values] == terms


@needs_flint
def test_flint_terms_that_are_not_its_checked_solution_are_made_again(monkeypatch):
    rows = [[2, 1, 0], [1, 3, 1]]
    with backend("python"):
        expected = _fraction_free.gram_solve_lowest(rows)
    real = _fraction_free._flint_gram

    def wrong(rows):  # the solution's entries say twice what its checked numerators say
        found = real(rows)
        assert found
        solution, numerators, d, point = found
        twice = [SimpleNamespace(p=2 * v.p, q=v.q) for v in solution.entries()]
        return SimpleNamespace(entries=lambda: twice), numerators, d, point

    monkeypatch.setattr(_fraction_free, "_flint_gram", wrong)
    with backend("flint"):
        assert _fraction_free.gram_solve_lowest(rows) == expected


@pytest.mark.parametrize("name", BACKENDS)
def test_the_warm_start_from_lowest_terms_is_the_one_from_the_fractions(name):
    # rows over the scale 6: u = 36·X/d and x = 6·Aᵀ·X/d share factors with the scale
    rows = [(Fraction(1, 2), Fraction(1, 3), Fraction(0)), (Fraction(0), Fraction(5, 6), Fraction(1, 2)),
            (Fraction(1), Fraction(-1, 3), Fraction(2, 3))]
    cons = explicit_rows(rows)
    with backend(name):
        state = _activeset._warm_state(cons, [0, 1, 2], None)
    solved = _fraction_free.gram_solve(cons.scaled_rows([0, 1, 2]))
    assert solved is not None and state is not None and cons.row_scale == 6
    X, d, point = solved
    assert state.u == [Fraction(36 * v, d) for v in X] and state.x == [Fraction(6 * v, d) for v in point]
    assert [(Fraction(v).numerator, Fraction(v).denominator) for v in state.x] == [(Fraction(6 * v, d).numerator,
                                                                Fraction(6 * v, d).denominator) for v in point]


def test_a_product_with_a_common_factor_is_kept_for_the_same_vector_only():
    Z = np.array([[2**70, -1, 3], [5, 2**66, -7], [1, 1, 1]], dtype=object)
    m = ExactMatrix(Z)
    direction = [3, -2**80, 5]

    def expected(vector):
        return [sum(int(a) * b for a, b in zip(row, vector)) for row in Z.tolist()]

    for factor in (6, 6, 10, 6, 1, 6):
        vector = [factor * v for v in direction]
        found = m.products(vector, norm_sq=sum(v * v for v in vector))
        assert found.tolist() == expected(vector)
        found[0] = 0  # each answer is the caller's own: the next one is not changed by this
    again = m.products([6 * v for v in direction], norm_sq=0)
    assert again.tolist() == expected([6 * v for v in direction])
    m.forget_product()
    assert m._scaled is None and m._last is None


@pytest.mark.parametrize("Z", [np.array([[2**40, -(2**41)], [3, 2**42]], dtype=np.int64),
                               np.array([[2**70, -1], [3, 2**66]], dtype=object)])
def test_a_product_without_its_norm_makes_it_where_the_guard_reads_it(Z):
    m = ExactMatrix(Z)
    vector = [2**30 + 1, -(2**31) + 7]  # past int64 on the narrow matrix: its guard must see the true norm
    expected = [sum(int(a) * b for a, b in zip(row, vector)) for row in Z.tolist()]
    assert m.products(vector, norm_sq=None).tolist() == expected
    assert m.products(vector, norm_sq=sum(v * v for v in vector)).tolist() == expected


# On AND over the denominator 2 (x/2), the optimum's weights and multipliers have denominators whose lcms M and Q
# make Q·L/M = 2: stationarity is then read as total == W·2.
HALVED = Dataset(X=tuple(tuple(v / 2 for v in x) for x in example("and").X), y=example("and").y)


def test_the_optimum_over_a_denominator_passes_the_optimality_check():
    result = max_margin(HALVED)
    assert result.certified and result.weights is not None
    assert optimality_defect(HALVED, result.weights, result.support, result.multipliers) is None


def test_multipliers_off_by_a_little_fail_stationarity_in_either_comparison():
    result = max_margin(HALVED)
    assert result.weights is not None
    w, support, alphas = result.weights, result.support, list(result.multipliers)
    alphas[0] += Fraction(1, 10**30)  # Q grows: M still divides Q·L
    found = optimality_defect(HALVED, w, support, alphas)
    assert found is not None and found.startswith("stationarity fails")
    tilted = (w[0], w[1] + Fraction(1, 3), *w[2:])  # M gains a 3 that Q·L lacks
    found = optimality_defect(HALVED, tilted, support, result.multipliers)
    assert found is not None and found.startswith("stationarity fails")
