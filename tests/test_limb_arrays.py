"""Binary floats past int64 are held in 64-bit limbs, made from the float64 arrays without a Python integer per
value, and every value, every norm, every product, every run and every report is the one of the exact
values (`Fraction(float)`) and of the Python-integer path this replaces."""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from verify_perceptron.api.verification import run_verification
from verify_perceptron.data import kernel as _kernel
from verify_perceptron.data._floats import binary_floats
from verify_perceptron.data.arrays import exact_table
from verify_perceptron.data.dataset import Dataset, from_arrays
from verify_perceptron.data.integers import ExactMatrix
from verify_perceptron.data.limb_arrays import (
    LimbMatrix, dyadic_limbs, int_limbs, limb_values, magnitude_bits, negated, row_ints, shifted_right,
    trailing_zeros)
from verify_perceptron.data.samples import sample_matrix, signed_samples
from verify_perceptron.errors import DataError
from verify_perceptron.notes.conventions import CONVENTIONS
from verify_perceptron.run import fast
from tests.test_fast import rate_for, same_run

needs_kernel = pytest.mark.skipif(_kernel.limb_norms is None, reason="the limb extension is not built")


def _compiled(name: str) -> Any:
    """The limb extension's function `name` (the tests that call it are skipped where it was not built)."""
    function = getattr(_kernel, name)
    assert function is not None
    return function

#: Doubles of every kind: subnormal, ±0, the extremes, integers, negative, and plain ones.
SPECIAL = [0.0, -0.0, 5e-324, -5e-324, 2.0**-1022, 2.0**-1074 * 3, 1.7976931348623157e308, -2.0**1023, 1.0,
           -3.0, 2.0**53, 2.0**60 + 2.0**8, 0.1, -0.3, 1e-300, 1e300]
values = st.one_of(st.sampled_from(SPECIAL), st.floats(allow_nan=False, allow_infinity=False),
                   st.floats(-1e3, 1e3, allow_nan=False), st.integers(-2**53, 2**53).map(float))
tables = hnp.arrays(np.float64, st.tuples(st.integers(1, 5), st.integers(1, 4)), elements=values)


def _values(numerators, denominator):
    ints = limb_values(numerators) if numerators.ndim == 3 else numerators
    return [[F(int(v), denominator) for v in row] for row in ints.tolist()]


@given(a=tables, zero_column=st.booleans(), compiled=st.booleans())
def test_binary_floats_hold_each_float_exactly_in_lowest_terms(a, zero_column, compiled):
    if zero_column:
        a[:, 0] = 0.0
    if compiled or _kernel.dyadic_range is None:
        numerators, denominator = binary_floats(a, max_cells=10**9, source="t")
    else:  # NumPy's way, where the extension was not built
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(_kernel, "dyadic_range", None)
            numerators, denominator = binary_floats(a, max_cells=10**9, source="t")
    assert _values(numerators, denominator) == [[F(float(v)) for v in row] for row in a.tolist()]
    # lowest terms: the denominator is a power of two that no more of it divides every numerator and it
    ints = [int(v) for v in (limb_values(numerators) if numerators.ndim == 3 else numerators).ravel().tolist()]
    assert denominator & (denominator - 1) == 0
    assert denominator == 1 or any(v % 2 for v in ints)
    assert (numerators.ndim == 3) == any(abs(v) >= 2**62 for v in ints)  # limbs exactly where int64 is not


@given(a=tables)
def test_a_dataset_from_float64_arrays_is_todays_dataset_value_by_value(a):
    a = np.vstack([a, a[:1]])  # two rows at least, for two classes
    y = [1 if i % 2 else -1 for i in range(len(a))]
    quick = from_arrays(a, y)
    today = Dataset(X=[[F(float(v)) for v in row] for row in a.tolist()], y=y, source="<memory>")
    assert (quick.numerators.tolist(), quick.denominator) == (today.numerators.tolist(), today.denominator)
    assert quick.numerators.dtype == today.numerators.dtype
    assert quick.X == today.X
    assert quick.exact.exact.tolist() == today.exact.exact.tolist()
    assert quick.row_norms_sq == today.row_norms_sq
    assert quick.reordered(list(range(len(a)))[::-1]).X == today.reordered(list(range(len(a)))[::-1]).X


def test_a_one_row_table_and_a_zero_column_are_held_exactly():
    table = exact_table(np.array([[2.0**-1074, 0.0, -(2.0**1023)]]))
    assert table.limbs is not None and table.shape == (1, 3)
    assert _values(table.limbs, table.denominator) == [
        [F(2.0**-1074), F(0), F(-(2.0**1023))]]


@given(m=st.integers(-(2**53), 2**53), shift=st.integers(0, 400))
def test_dyadic_limbs_are_m_shifted_left(m, shift):
    limbs = dyadic_limbs(np.array([m]), np.array([shift]), (shift + 54 + 64) // 64 + 1)
    assert limb_values(limbs).tolist() == [m << shift]
    assert limb_values(negated(limbs)).tolist() == [-(m << shift)]
    assert magnitude_bits(limbs) == abs(m << shift).bit_length()
    if m:
        zeros = trailing_zeros(limbs)
        assert zeros is not None
        assert (m << shift) % 2**zeros == 0 and (m << shift) % 2 ** (zeros + 1) != 0
        assert limb_values(shifted_right(limbs, zeros)).tolist() == [(m << shift) >> zeros]


def test_a_broken_conversion_fails_the_exactness_tests():
    """Values whose limbs need the carry between two limbs and every shift within a limb."""
    m = np.array([-(2**52) - 1, 2**52 + 3, -1, 1, -(2**53) + 1])
    for r in range(64):
        shift = np.full(len(m), 64 + r)
        assert limb_values(dyadic_limbs(m, shift, 4)).tolist() == [int(v) << (64 + r) for v in m.tolist()], r
    assert limb_values(negated(int_limbs([2**128, 2**64, 1, 0], 3))).tolist() == [-(2**128), -(2**64), -1, 0]


def test_nan_and_infinity_are_refused_with_the_same_messages_among_wide_values():
    for bad, text in ((np.nan, "nan"), (np.inf, "inf"), (-np.inf, "-inf")):
        with pytest.raises(DataError) as caught:
            from_arrays(np.array([[2.0**-1074, 1.0], [2.0**1000, bad]]), [0, 1])
        assert str(caught.value) == (f"<memory>: X[1][1]={text} is not a finite number (NaN and infinity have "
                                     "no exact value)")


matrices = st.tuples(st.integers(1, 6), st.integers(1, 4), st.integers(0, 300)).flatmap(
    lambda s: st.tuples(hnp.arrays(np.int64, s[:2], elements=st.integers(-(2**53), 2**53)),
                        hnp.arrays(np.int64, s[:2], elements=st.integers(0, s[2]))))


@given(parts=matrices, direction=st.lists(st.integers(-(2**200), 2**200), min_size=4, max_size=4))
def test_a_matrix_in_limbs_gives_the_python_integer_matrix_norms_floats_and_products(parts, direction):
    m, shift = parts
    limbs = dyadic_limbs(m, shift, 7)
    held, today = ExactMatrix(None, limbs=limbs), ExactMatrix(limb_values(limbs))
    assert held.exact.tolist() == today.exact.tolist() and held.shape == today.shape
    assert held.norms.tolist() == today.norms.tolist() and held.max_norm_sq == today.max_norm_sq
    assert held.biggest >= max(abs(v) for v in today.exact.ravel().tolist())
    F_held, t_held = held.approximate()
    F_today, t_today = today.approximate()
    assert t_held == t_today and F_held.tolist() == F_today.tolist()  # each the nearest double, once rounded
    w = direction[: m.shape[1]]
    square = sum(v * v for v in w)
    assert held.products(w, norm_sq=square).tolist() == today.products(w, norm_sq=square).tolist()
    order = list(range(m.shape[0]))[::-1]
    assert held.reordered(order).norms.tolist() == today.reordered(order).norms.tolist()
    assert held.row_values([0]).tolist() == today.exact[[0]].tolist()


@needs_kernel
def test_the_compiled_reading_of_floats_refuses_what_has_no_place_in_its_limbs():
    a = np.array([[1.5, -(2.0**70)]])
    with pytest.raises(ValueError, match="infinity or a NaN"):
        _compiled("dyadic_range")(np.array([1.0, np.nan]))
    out = np.empty((1, 2, 1), dtype=np.int64)
    with pytest.raises(ValueError, match="does not fit the limbs"):
        _compiled("dyadic_fill")(a, 1, out)  # -2^71 needs two limbs
    with pytest.raises(ValueError, match="not an integer times"):
        _compiled("dyadic_fill")(a, 0, np.empty((1, 2, 2), dtype=np.int64))  # 1.5 is not an integer
    _compiled("dyadic_fill")(a, 1, wide := np.empty((1, 2, 2), dtype=np.int64))
    assert limb_values(wide).tolist() == [[3, -(2**71)]]
    assert _compiled("dyadic_range")(np.zeros(3)) is None and _compiled("dyadic_range")(a) == (-1, 71)


@needs_kernel
def test_the_nearest_double_of_a_limb_value_rounds_once_at_every_tie():
    ints = [2**64 + 1, 2**64 + 2**11, 2**64 + 2**12 + 2**11, 2**64 + 2**11 + 1, -(2**100 + 2**47), 2**999 - 1,
            3 * 2**140 + 2**88 - 1, -(2**63)]
    out = np.empty((1, len(ints)))
    _compiled("limb_doubles")(int_limbs(ints, 16)[None], out)
    assert out[0].tolist() == [float(v) for v in ints]
    with pytest.raises(ValueError, match="1000 bits"):
        _compiled("limb_doubles")(int_limbs([2**1000], 17)[None], np.empty((1, 1)))


@needs_kernel
@pytest.mark.parametrize("convention", sorted(CONVENTIONS))
def test_the_signed_samples_in_limbs_are_todays(convention):
    X = np.array([[2.0**-70, -3.5], [1e20, 0.0], [-0.0, 2.0**-60], [7.0, -(2.0**40)]])
    data = from_arrays(X, [1, 0, 1, 0])
    held = sample_matrix(data, CONVENTIONS[convention])
    assert held.limbs is not None
    today = signed_samples(data, CONVENTIONS[convention])
    assert held.exact.tolist() == today.tolist()
    assert held.norms.tolist() == [sum(int(v) ** 2 for v in row) for row in today.tolist()]
    assert LimbMatrix(held.limbs).max_norm_sq == held.max_norm_sq


def _pair(seed: int, n: int, d: int) -> tuple[Dataset, Dataset]:
    """The same randn-like data, in limbs and as today's Python integers."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * np.exp2(rng.integers(-40, 40, (n, d)))
    X[0, 0], X[1, 0] = 2.0**-50 + 2.0**-60, -(2.0**40)  # values of 91 bits over 2^60 at least: in limbs
    y = np.where(rng.random(n) < 0.5, 1, -1)
    y[:2] = 1, -1  # both classes
    held = from_arrays(X, y)
    today = Dataset(y=held.y, source=held.source, binary_float=True, labels=held.labels,
                    numerators=held.numerators.copy(), denominator=held.denominator)
    assert held.limbs is not None and today.limbs is None
    return held, today


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(4, 30), d=st.integers(1, 4),
       convention=st.sampled_from(sorted(CONVENTIONS)), mode=st.sampled_from(["online", "batch"]))
def test_traces_on_limbs_are_todays_on_every_convention(seed, n, d, convention, mode):
    held, today = _pair(seed, n, d)
    eta = rate_for(convention, F(1, 3))
    same_run(fast.run(today, convention, eta=eta, mode=mode, max_epochs=25, keep_updates=10**9),
             fast.run(held, convention, eta=eta, mode=mode, max_epochs=25, keep_updates=10**9))


@pytest.mark.parametrize("convention", sorted(CONVENTIONS))
@pytest.mark.parametrize("mode", ["online", "batch"])
def test_runs_and_reports_on_limbs_are_todays(convention, mode):
    held, today = _pair(7, 24, 3)
    eta = rate_for(convention, F(1, 2))
    same_run(fast.run(today, convention, eta=eta, mode=mode, max_epochs=40, keep_updates=10**9),
             fast.run(held, convention, eta=eta, mode=mode, max_epochs=40, keep_updates=10**9))
    quick = run_verification(held, convention, eta=eta, mode=mode, max_epochs=40)
    slow = run_verification(today, convention, eta=eta, mode=mode, max_epochs=40)
    assert quick.report == slow.report


def test_a_dataset_refuses_limbs_of_the_wrong_shape_or_kind_and_reduces_any_denominator():
    with pytest.raises(DataError, match=r"limbs of shape \(2, 2\) and dtype int64"):
        Dataset(limbs=np.zeros((2, 2), dtype=np.int64), y=(1, -1))
    with pytest.raises(DataError, match="dtype float64"):
        Dataset(limbs=np.zeros((2, 1, 2)), y=(1, -1))
    with pytest.raises(DataError, match="denominator=0 must be a positive integer"):
        Dataset(limbs=np.zeros((2, 1, 2), dtype=np.int64), denominator=0, y=(1, -1))
    limbs = int_limbs([6 * 2**70, -9 * 2**64, 3, 12], 2).reshape(2, 2, 2)
    for denominator in (6, 2**80, 2**64 * 3, 1):
        data = Dataset(limbs=limbs, denominator=denominator, y=(1, -1))
        today = Dataset(X=[[F(6 * 2**70, denominator), F(-9 * 2**64, denominator)],
                           [F(3, denominator), F(12, denominator)]], y=(1, -1))
        assert (data.X, data.denominator, data.numerators.tolist()) == (today.X, today.denominator,
                                                                        today.numerators.tolist())
        assert data.numerator_bits == max(abs(int(v)) for v in today.numerators.ravel().tolist()).bit_length()


def test_a_checked_run_on_a_wide_float_npy_makes_no_python_integer_per_value(tmp_path: Any, monkeypatch: Any) -> None:
    """A float64 .npy past int64 reaches the dataset in limbs, and the checked run never asks for every entry
    as a Python integer: the loader passes the limbs, and the checker reads `matrix.wide`, not `matrix.exact`."""
    from verify_perceptron.data.limb_arrays import LimbMatrix
    from verify_perceptron.data.readers import load_dataset
    from verify_perceptron.pipeline import verify_run

    if _kernel.limb_norms is None:
        pytest.skip("the limb extension is not built")
    rng = np.random.default_rng(7)
    X = rng.standard_normal((200, 4)) * np.array([1.0, 1e-9, 1e3, 1.0])  # about 100 bits over one power of two
    path = tmp_path / "wide.npy"
    np.save(path, np.c_[X, (X @ np.array([1.0, -2.0, 0.5, 1.5]) > 0).astype(float)])
    data = load_dataset(str(path))
    assert data.limbs is not None and data._numerators is None
    whole = LimbMatrix.values

    def per_row_only(self: Any, rows: Any = slice(None)) -> Any:
        assert not (isinstance(rows, slice) and rows == slice(None)), "every entry made a Python integer"
        return whole(self, rows)

    monkeypatch.setattr(LimbMatrix, "values", per_row_only)
    trace, result = verify_run(data, "classic", max_epochs=3)
    assert trace.n_updates > 0 and all(inv.holds is not False for inv in result.invariants) and data._numerators is None


@given(shape=st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(1, 8)), seed=st.integers(0, 2**32 - 1))
def test_limb_values_are_the_twos_complement_integers_by_shifts_and_by_bytes_alike(shape, seed):
    limbs = np.random.default_rng(seed).integers(-(2**63), 2**63, shape, dtype=np.int64)
    limbs[..., -1] >>= seed % 64  # small and large tops, of both signs
    L = shape[-1]
    expected = [sum(int(v) % 2**64 << 64 * k for k, v in enumerate(row)) for row in limbs.reshape(-1, L).tolist()]
    expected = [v - 2 ** (64 * L) if v >= 2 ** (64 * L - 1) else v for v in expected]
    compiled = _kernel.limb_ints
    try:
        for reader in {compiled, None}:  # in C where it is built, and by NumPy object arithmetic and bytes
            _kernel.limb_ints = reader
            values = limb_values(limbs)
            assert values.shape == shape[:-1] and values.dtype == object
            assert values.ravel().tolist() == expected and all(type(v) is int for v in values.ravel().tolist())
            assert limb_values(limbs[..., ::-1][..., ::-1]).ravel().tolist() == expected  # not contiguous
            assert row_ints(limbs.reshape(-1, L)) == expected
    finally:
        _kernel.limb_ints = compiled


@pytest.mark.skipif(_kernel.limb_ints is None, reason="the limb extension is not built")
def test_the_compiled_limb_reader_gives_each_twos_complement_integer_and_refuses_other_arrays():
    limb_ints = _compiled("limb_ints")
    top, least = 2**63 - 1, -(2**63)
    rows = [[least], [top], [-1], [0], [0, least], [-1, top], [least, -1], [0, -1], [1, 0], [-1, 0], [0, 0, 1],
            [5, -1, -1, -1, -1]]
    for row in rows:
        expected = sum((v % 2**64) << 64 * k for k, v in enumerate(row))
        expected -= 2 ** (64 * len(row)) if expected >= 2 ** (64 * len(row) - 1) else 0
        assert limb_ints(np.array([row, row], dtype=np.int64)) == [expected, expected]
    assert limb_ints(np.zeros((0, 3), dtype=np.int64)) == []
    with pytest.raises(TypeError, match="limbs must hold int64 items"):
        limb_ints(np.zeros((2, 2), dtype=np.int32))
    with pytest.raises(ValueError, match="limbs must be 2-D, got ndim=3"):
        limb_ints(np.zeros((2, 2, 1), dtype=np.int64))
    with pytest.raises(ValueError, match="limbs must be C-contiguous"):
        limb_ints(np.zeros((2, 4), dtype=np.int64)[:, ::2])
    with pytest.raises(ValueError, match="at least 1 limb a value, got shape=\\(2, 0\\)"):
        limb_ints(np.zeros((2, 0), dtype=np.int64))


@needs_kernel
def test_a_small_dataset_in_limbs_shares_one_sample_matrix_per_augmentation():
    X = np.array([[2.0**-70, -3.5], [1e20, 0.0], [-0.0, 2.0**-60], [7.0, -(2.0**40)]])
    data, other = from_arrays(X, [1, 0, 1, 0]), from_arrays(X * 3, [1, 0, 1, 0])
    assert data.limbs is not None
    for first in CONVENTIONS.values():
        held = sample_matrix(data, first)
        assert held.exact.tolist() == signed_samples(data, first).tolist()  # each augmentation its own rows
        assert sample_matrix(other, first).exact.tolist() == signed_samples(other, first).tolist()
        for second in CONVENTIONS.values():
            same = (first.bias_first, first.bias_input) == (second.bias_first, second.bias_input)
            assert (sample_matrix(data, second) is held) == same, (first.name, second.name)


@needs_kernel
def test_a_large_dataset_in_limbs_gets_a_matrix_of_its_own_each_time():
    from verify_perceptron.data import samples

    rng = np.random.default_rng(5)
    n = samples.SHARED_BELOW // 3 + 1  # n·(d + 1) at the limit with d = 2
    data = from_arrays(rng.standard_normal((n, 2)) * 2.0**-70, np.where(rng.random(n) < 0.5, 1, -1))
    assert data.limbs is not None
    assert sample_matrix(data, CONVENTIONS["classic"]) is not sample_matrix(data, CONVENTIONS["classic"])


@needs_kernel
def test_a_fit_multiplies_its_samples_by_each_direction_once(monkeypatch: pytest.MonkeyPatch):
    # wine (0 against the rest) at 1,000 epochs stops separable: the checker's margins against the certified
    # max-margin separator are the product the separability decision made last, on the same shared matrix
    from sklearn.datasets import load_wine

    from verify_perceptron import ExactPerceptron

    directions: list[tuple[int, ...]] = []
    products = LimbMatrix.products

    def counted(self: LimbMatrix, direction: Any) -> Any:
        directions.append(tuple(direction))
        return products(self, direction)

    monkeypatch.setattr(LimbMatrix, "products", counted)
    X, y = load_wine(return_X_y=True)
    with pytest.warns(UserWarning):  # (the ConvergenceWarning of a run stopped at max_epochs)
        clf = ExactPerceptron().fit(X, y == 0)
    assert clf.verification_ is not None and clf.verification_.verdict == "stopped-separable"
    # (the run's final weights are refused by their least row alone, `_least_row_fails`: no product of theirs)
    assert len(directions) >= 1 and len(set(directions)) == len(directions)


@pytest.mark.parametrize("limbs", [1, 2, 5])
def test_limb_sum_is_the_exact_sum_of_the_values(monkeypatch: pytest.MonkeyPatch, limbs: int) -> None:
    from verify_perceptron.data import limb_arrays

    rng = np.random.default_rng(limbs)
    held = rng.integers(-2**63, 2**63 - 1, size=(1000, limbs), dtype=np.int64, endpoint=True)
    held[:3] = [-1] * limbs, [2**63 - 1] * limbs, [-2**63] * limbs  # every bit set; the top limb at its ends
    assert limb_arrays.limb_sum(held) == sum(limb_arrays.limb_values(held).tolist())
    monkeypatch.setattr(limb_arrays, "_SUM_ROWS", 7)  # rows summed in blocks: the same sum
    assert limb_arrays.limb_sum(held) == sum(limb_arrays.limb_values(held).tolist())
    assert limb_arrays.limb_sum(held[:0]) == 0


@given(bits=st.lists(st.tuples(st.integers(0, 319), st.booleans()), max_size=12), L=st.integers(1, 5))
def test_int_limbs_writes_each_value_as_its_twos_complement_limbs_in_c_and_by_bytes_alike(bits, L):
    values = [(-(2**b) if negative else 2**b - 1) for b, negative in bits]  # the extremes of each bit length
    fits = [v for v in values if -(2 ** (64 * L - 1)) <= v < 2 ** (64 * L - 1)]
    compiled = _kernel.int_limbs
    try:
        for writer in {compiled, None}:
            _kernel.int_limbs = writer
            held = int_limbs(fits, L)
            assert held.shape == (len(fits), L) and held.dtype == np.int64
            expected = [[((v >> 64 * k) + 2**63) % 2**64 - 2**63 for k in range(L)] for v in fits]
            assert held.tolist() == expected
            assert int_limbs(np.array(fits, dtype=object), L).tolist() == expected  # an object array alike
            if len(fits) < len(values):
                with pytest.raises(OverflowError):
                    int_limbs(values, L)
    finally:
        _kernel.int_limbs = compiled


@pytest.mark.skipif(_kernel.int_limbs is None, reason="the limb extension is not built")
def test_the_compiled_limb_writer_refuses_what_is_no_python_int_or_does_not_fit():
    writer = _compiled("int_limbs")
    out = np.zeros((2, 2), dtype=np.int64)
    writer([-(2**127), 2**127 - 1], out)
    assert out.tolist() == [[0, -(2**63)], [-1, 2**63 - 1]]
    with pytest.raises(OverflowError):
        writer([0, 2**127], out)
    with pytest.raises(TypeError, match=r"values\[1\] is no Python int: numpy.int64"):
        writer([1, np.int64(2)], out)
    with pytest.raises(ValueError, match=r"out must have shape \(3, L >= 1\), got \(2, 2\)"):
        writer([1, 2, 3], out)
    frozen = np.zeros((2, 2), dtype=np.int64)
    frozen.setflags(write=False)
    with pytest.raises(ValueError, match="out must be writable"):
        writer([1, 2], frozen)
    assert int_limbs([np.int64(-5), 2**70], 2).tolist() == [[-5, -1], [0, 64]]  # NumPy integers: through int()
