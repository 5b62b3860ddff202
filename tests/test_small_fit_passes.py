"""Passes a small float64 fit no longer makes (issue 32, branch smallfit12): the binary floats' finiteness read
by their one pass over the bits (`binary_bits` raises `NotFinite`), not by a pass of NumPy's before it (the
refusal is the one the separate pass gave: a `DataError` naming the first value that is not finite); the weights
`best_reference` measures read together from the fast engine's records. Every answer the longer way's."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verify_perceptron.data import kernel
from verify_perceptron.data._floats import NotFinite, binary_bits
from verify_perceptron.data.arrays import exact_table
from verify_perceptron.check import facts
from verify_perceptron.check.checker import Checker
from verify_perceptron.check.facts import fact_check
from verify_perceptron.check.separator import scaled_separator
from verify_perceptron.data.dataset import from_arrays
from verify_perceptron.data.trace import LazyUpdates
from verify_perceptron.errors import DataError
from verify_perceptron.notes.facts import ProofFacts, Rule
from verify_perceptron.notes.soft_margin import _all_columns, _terms
from verify_perceptron.pipeline import verify_run
from verify_perceptron.run import fast, reference

_BAD = [(np.nan, "nan"), (np.inf, "inf"), (-np.inf, "-inf")]


def _table_with(bad: float, dtype: type, at: tuple[int, int]) -> Any:
    X: Any = np.array([[0.5, 2.0**-10, -3.0], [1.0, 2.0**10, 0.0], [0.25, -0.125, 7.0]], dtype=dtype)
    X[at] = bad
    return X


@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize("floats", ["binary", "decimal"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_a_value_not_finite_is_refused_by_name(monkeypatch: pytest.MonkeyPatch, compiled: bool, floats: str,
                                               dtype: type) -> None:
    if not compiled:
        monkeypatch.setattr(kernel, "dyadic_range", None)
    for bad, text in _BAD:
        for at in ((0, 0), (1, 2), (2, 1)):
            X = _table_with(bad, dtype, at)
            X[2, 2] = bad  # a second one after: the first in row order is named
            with pytest.raises(DataError) as caught:
                exact_table(X, floats=floats, source="s.csv")
            assert str(caught.value) == (f"s.csv: X[{at[0]}][{at[1]}]={text} is not a finite number (NaN and "
                                         "infinity have no exact value)")


@pytest.mark.parametrize("compiled", [True, False])
def test_binary_bits_says_not_finite_in_c_and_in_numpy(monkeypatch: pytest.MonkeyPatch, compiled: bool) -> None:
    if not compiled:
        monkeypatch.setattr(kernel, "dyadic_range", None)
    for bad, _ in _BAD:
        with pytest.raises(NotFinite):
            binary_bits(np.array([[1.0, 2.0], [bad, 0.0]]), max_cells=None, source="t")
    numerators, denominator, bits = binary_bits(np.array([[1.5, -2.0**-3], [0.0, 4.0]]), max_cells=None, source="t")
    assert numerators.tolist() == [[12, -1], [0, 32]] and denominator == 8 and bits == 6


@pytest.mark.parametrize("compiled", [True, False])
def test_finite_floats_read_as_before(monkeypatch: pytest.MonkeyPatch, compiled: bool) -> None:
    """Finite values past int64 and at both ends of float64: the same table either way (no value refused)."""
    if not compiled:
        monkeypatch.setattr(kernel, "dyadic_range", None)
    X = np.array([[2.0**-1074, -(2.0**1023)], [1.0, 0.0]])
    table = exact_table(X, source="t")
    assert table.denominator == 2**1074 and table.binary_float


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("mode", ["online", "batch"])
def test_the_kept_weights_read_together_are_each_update_s(seed: int, mode: str) -> None:
    """`best_reference`'s candidates read together (`LazyUpdates.scaled_weights_of`: a compiled chunk's running
    sums made once, no record's score) are the scaled separators of the updates' own weights, in any order."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-50, 50, (40, 3)) * (1 if seed % 2 else 2**40)  # past int64's guard at 2^40: limbs
    data = from_arrays(X, rng.choice([-1, 1], 40))
    lazy = fast.run(data, "classic", mode=mode, max_epochs=60, keep_updates=10**9).updates
    fresh = reference.train(data, "classic", mode=mode, max_epochs=60).updates  # (the reference engine's own)
    assert isinstance(lazy, LazyUpdates) and len(lazy) >= 60
    if mode == "online":  # (a compiled chunk's updates are kept as runs of a segment)
        assert any(len(part) == 5 for part in getattr(lazy._records, "parts"))
    at = [*range(0, len(lazy), 7), len(lazy) - 1, 3, 0, 3]
    assert lazy.scaled_weights_of(at) == [scaled_separator(fresh[i].weights)[0] for i in at]
    assert lazy.scaled_weights_of(at) == [lazy.scaled_weights(i) for i in at]
    with pytest.raises(IndexError):
        lazy.scaled_weights_of([len(lazy)])


_BELOW = Rule("below", "hypothesis", "every updated sample's ‖x‖² is at most 30", "x_sq <= 30", "x_sq <= 30", "sample",
              ("<=", ("q", "x_sq"), ("c", 30, 1)), True, "")
_SIGNED = Rule("signed", "hypothesis", "y is a sign", "y·y >= 1", "y·y >= 1", "sample",
               (">=", ("*", ("q", "y"), ("q", "y")), ("c", 1, 1)), True, "")


@pytest.mark.parametrize("piece", [1, 2, 3, 2**14])
def test_each_sample_rule_reads_its_own_piece_of_the_samples(monkeypatch: pytest.MonkeyPatch, piece: int) -> None:
    """The sample rules read one piece of the updated samples' labels, norms and margins, kept for the next rule
    (`FactCheck._piece`): each piece is its own, so the one sample past the bound is found in whichever piece."""
    monkeypatch.setattr(facts, "SAMPLE_PIECE", piece)
    X = np.array([[1, 1], [-2, -1], [1, -3], [-1, 2], [2, 2], [-3, -1], [4, 1], [-5, -5]])
    data = from_arrays(X, [1, -1, 1, -1, 1, -1, 1, -1])  # (updates on samples 0, 2 and 7)
    proof = ProofFacts("t", "test", "classic", "online", "mistake-bound", "", (_SIGNED, _BELOW))
    trace, check = verify_run(data, "classic", max_epochs=30)
    checker = Checker(data, "classic", rate=Fraction(1), mode="online", separator=check.separator)
    checker.facts = fact_check(checker, [proof])
    fast.run(data, "classic", max_epochs=30, observer=checker)
    (result,) = checker.finish(trace).proofs
    signed, below = result.facts
    assert signed.holds is True and signed.n_checked == below.n_checked == 3
    assert (below.holds, below.sample) == (False, 7)  # ‖(-5, -5, 1)‖² = 51; 3 and 11 before it
    assert dict(below.values)["x_sq"] == 51


_FLOATS = st.floats(allow_nan=True, allow_infinity=True, width=64)


@given(st.lists(st.tuples(_FLOATS, st.floats(0.0, 1e6) | st.sampled_from([0.0, 1.0, 3.0])), max_size=30))
@settings(max_examples=200, deadline=None)
def test_the_bound_s_terms_are_numpy_s_powers_bit_for_bit(pairs: list[tuple[float, float]]) -> None:
    """D(ρ)'s terms w·m^p without NumPy's powers (`_terms`): the same doubles as w * m**p, NaNs where they are."""
    m = np.array([a for a, _ in pairs], dtype=np.float64)
    w = np.array([b for _, b in pairs], dtype=np.float64)
    with np.errstate(all="ignore"):
        for p, terms in enumerate(_terms(w, m)):
            expected = w * m**p
            assert terms.tobytes() == expected.tobytes() or np.array_equal(terms, expected, equal_nan=True)


@given(st.integers(1, 40), st.integers(1, 6), st.integers(0, 2**32 - 1))
@settings(max_examples=100, deadline=None)
def test_every_column_s_choice_is_the_sums_of_powers_choice(n: int, c: int, seed: int) -> None:
    """`_all_columns` (running sums written in place, after a zero) chooses as the concatenated sums of w * m**p
    did: the same index and the same bound's logarithm, bit for bit, for every column."""
    rng = np.random.default_rng(seed)
    margins = np.round(rng.normal(size=(n, c)), int(rng.integers(0, 3)))  # ties too
    counts = rng.integers(0, 3, n).astype(np.float64)
    roots = list(rng.uniform(0.5, 4.0, c))
    order = np.argsort(margins, axis=0, kind="stable")
    m, w = np.take_along_axis(margins, order, axis=0), counts[order]
    with np.errstate(all="ignore"):
        sums = [np.concatenate((np.zeros((1, c)), np.cumsum(w * m**p, axis=0)))[:-1] for p in range(3)]
        D_sq = np.maximum(sums[0] * m**2 - 2 * sums[1] * m + sums[2], 0.0)
        values = 2 * (np.log(np.asarray(roots) + np.sqrt(D_sq)) - np.log(m))
    for j, chosen in enumerate(_all_columns(margins, counts, roots)):
        positive = [i for i in range(n) if m[i, j] > 0 and (i == 0 or m[i, j] != m[i - 1, j])]
        if not positive:
            assert chosen is None
            continue
        assert chosen is not None
        best = min(positive, key=lambda i: (values[i, j], i))
        assert (chosen[0], chosen[1]) == (int(order[best, j]), float(values[best, j]))
