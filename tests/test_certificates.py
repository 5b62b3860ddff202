"""Gordan certificates of non-separability, from cycling runs, checked exactly."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from verify_perceptron.certify.certificates import certificate_from_cycle, gordan_defect
from verify_perceptron.notes.conventions import CONVENTIONS
from verify_perceptron.data.dataset import Dataset
from verify_perceptron.run.reference import train
from verify_perceptron.data.examples import example

F = Fraction
Q = F(1, 4)


def data_of(X, y) -> Dataset:
    return Dataset(X=tuple(tuple(Fraction(v) for v in row) for row in X), y=tuple(y))


# ------------------------------------------------------------------------------------------------
# XOR


def test_xor_cycle_certificate_is_a_quarter_each_and_valid():
    data = example("xor")
    trace = train(data, "classic")
    lam = certificate_from_cycle(trace)
    assert lam == (Q, Q, Q, Q)
    assert gordan_defect(data, lam) is None
    # by hand: Σ λ_i·y_i·(1, x_i) = ¼[-(1,0,0) + (1,0,1) + (1,1,0) - (1,1,1)] = 0
    total = [sum((l * y * c for l, y, c in zip(lam, data.y, col)), F(0))
             for col in zip(*[(F(1), *x) for x in data.X])]
    assert total == [0, 0, 0]


@pytest.mark.parametrize("name", list(CONVENTIONS))
@pytest.mark.parametrize("mode", ["online", "batch"])
def test_xor_certificate_is_valid_for_every_convention(name, mode):
    data = example("xor")
    lam = certificate_from_cycle(train(data, name, mode=mode))
    assert lam is not None and sum(lam) == 1
    assert gordan_defect(data, lam) is None


# ------------------------------------------------------------------------------------------------
# gordan_defect rejects what is not a certificate


def test_gordan_defect_rejects_a_negative_entry():
    defect = gordan_defect(example("xor"), [F(-1, 4), F(1, 2), F(1, 2), F(1, 4)])
    assert defect == "λ_0 = -1/4 < 0"


def test_gordan_defect_rejects_weights_not_summing_to_one():
    assert gordan_defect(example("xor"), [F(1, 2)] * 4) == "Σ λ_i = 2, not 1"
    assert gordan_defect(example("xor"), [F(0)] * 4) == "Σ λ_i = 0, not 1"  # λ = 0 is no certificate


def test_gordan_defect_rejects_a_nonzero_weighted_sum():
    assert gordan_defect(example("and"), [Q] * 4) == "Σ λ_i·y_i·x~_i = [-1/2, 0, 0], not 0"
    # a nonnegative combination summing to 1 that misses zero in a feature coordinate only
    assert gordan_defect(example("xor"), [F(1, 2), F(1, 2), F(0), F(0)]) == "Σ λ_i·y_i·x~_i = [0, 0, 1/2], not 0"


@pytest.mark.parametrize("lam", [[Q] * 3, [Q] * 5, []])
def test_gordan_defect_rejects_a_wrong_length(lam):
    assert gordan_defect(example("xor"), lam) == f"λ has {len(lam)} entries for 4 samples"


def test_gordan_defect_accepts_other_valid_certificates():
    # any convex combination of XOR's two "diagonal" certificates is one too
    assert gordan_defect(example("xor"), [F(1, 4)] * 4) is None
    same_point = data_of([(1, 2), (1, 2)], (1, -1))
    assert gordan_defect(same_point, [F(1, 2), F(1, 2)]) is None
    assert gordan_defect(same_point, [F(1, 3), F(2, 3)]) is not None


# ------------------------------------------------------------------------------------------------
# a point under both labels


@pytest.mark.parametrize("name", list(CONVENTIONS))
@pytest.mark.parametrize("mode", ["online", "batch"])
def test_same_point_under_both_labels_cycles_with_a_valid_certificate(name, mode):
    data = data_of([(F(1, 2), -3), (0, 1), (F(1, 2), -3)], (1, 1, -1))
    trace = train(data, name, mode=mode)
    assert trace.stop == "cycle"
    lam = certificate_from_cycle(trace)
    assert lam is not None and gordan_defect(data, lam) is None
    assert all(v >= 0 for v in lam) and sum(lam) == 1


def test_same_point_certificate_weights_the_two_copies_equally():
    data = data_of([(3,), (3,)], (1, -1))
    lam = certificate_from_cycle(train(data, "classic"))
    assert lam == (F(1, 2), F(1, 2))


# ------------------------------------------------------------------------------------------------
# no certificate without a cycle


@pytest.mark.parametrize("ex", ["and", "or", "modified-or"])
@pytest.mark.parametrize("name", list(CONVENTIONS))
def test_certificate_is_none_for_converged_runs(ex, name):
    trace = train(example(ex), name)
    assert trace.converged
    assert certificate_from_cycle(trace) is None


def test_certificate_is_none_when_stopped_by_the_epoch_limit():
    trace = train(example("and"), "classic", max_epochs=2)
    assert trace.stop == "max-epochs" and certificate_from_cycle(trace) is None


# ------------------------------------------------------------------------------------------------
# property: every cycle yields a valid certificate


def small_rationals():
    return st.builds(Fraction, st.integers(-2, 2), st.integers(1, 2))


@st.composite
def labelled(draw):
    dim = draw(st.integers(1, 3))
    n = draw(st.integers(2, 8))
    X = tuple(tuple(draw(small_rationals()) for _ in range(dim)) for _ in range(n))
    y = tuple(draw(st.sampled_from((-1, 1))) for _ in range(n))
    assume(len(set(y)) == 2)
    return Dataset(X=X, y=y)


@given(data=labelled(), name=st.sampled_from(list(CONVENTIONS)), mode=st.sampled_from(["online", "batch"]))
def test_every_cycle_yields_a_valid_certificate(data, name, mode):
    trace = train(data, name, mode=mode, max_epochs=60)
    lam = certificate_from_cycle(trace)
    assert (lam is None) == (trace.cycle is None)
    if lam is not None:
        assert gordan_defect(data, lam) is None
    if trace.converged:  # separable: a certificate would be a contradiction, so none exists
        assert lam is None


def test_cycle_certificate_counts_every_repeated_mistake_even_when_the_run_kept_few_updates():
    # The fast engine keeps only the first updates for the report; the certificate must not be
    # built from those alone (it once was, and came out invalid).
    from verify_perceptron.run import fast

    data = example("xor")
    trace = fast.run(data, keep_updates=2)
    assert trace.updates_truncated and trace.cycle_mistakes == (1, 1, 1, 1)
    lam = certificate_from_cycle(trace)
    assert lam == (Fraction(1, 4),) * 4 and gordan_defect(data, lam) is None


def test_a_truncated_record_without_cycle_counts_gives_no_certificate():
    from verify_perceptron.run import fast

    trace = dataclasses.replace(fast.run(example("xor"), keep_updates=2), cycle_mistakes=None)
    assert certificate_from_cycle(trace) is None


@given(st.lists(st.tuples(st.fractions(max_denominator=50), st.fractions(max_denominator=50)), min_size=2, max_size=6),
       st.integers(0, 2**70), st.data())
def test_the_gordan_sum_in_integers_is_the_sum_in_fractions(points, scale, draw) -> None:
    # Huge coordinates (scale) take the Python-integer path, small ones int64; both must equal the definition.
    from verify_perceptron.certify.certificates import _signed_sum

    X = [(a * scale, b) for a, b in points]
    y = [1 if i % 2 else -1 for i in range(len(X))]
    data = Dataset(X=X, y=y)
    weights = draw.draw(st.lists(st.integers(0, 5), min_size=len(X), max_size=len(X)).filter(any))
    lam = [Fraction(w, sum(weights)) for w in weights]
    expected = [sum((v * yi * xj for v, yi, xj in zip(lam, y, column)), Fraction(0))
                for column in zip(*[(Fraction(1), *x) for x in X])]
    assert _signed_sum(data, [(i, v) for i, v in enumerate(lam) if v]) == expected


def test_the_gordan_sum_of_zero_rows_with_huge_weights_stays_exact() -> None:
    # All-zero features bound nothing: the weights' own size must still choose Python integers.
    from verify_perceptron.certify.certificates import _signed_sum

    tiny = Fraction(1, 3**50)
    data = Dataset(X=((Fraction(0),), (Fraction(0),)), y=(1, -1))
    assert _signed_sum(data, [(0, 1 - tiny), (1, tiny)]) == [1 - 2 * tiny, 0]


class _ZeroNotToCompare(Fraction):
    """A zero that fails when compared or added: the checks must skip the zero entries."""

    def __lt__(self, other: object) -> bool:
        raise AssertionError("a zero entry of λ was compared")

    def __add__(self, other: Any) -> Any:
        raise AssertionError("a zero entry of λ was added")

    def __radd__(self, other: Any) -> Any:
        raise AssertionError("a zero entry of λ was added")


def test_gordan_defect_reads_only_the_nonzero_entries() -> None:
    zero = _ZeroNotToCompare(0)
    q = Fraction(1, 4)
    padded = Dataset(X=((Fraction(0), Fraction(0)), *example("xor").X), y=(1, *example("xor").y))
    assert gordan_defect(padded, [zero, q, q, q, q]) is None
    assert gordan_defect(padded, [zero, q, q, q, -q]) == "λ_4 = -1/4 < 0"
