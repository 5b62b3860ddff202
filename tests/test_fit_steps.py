"""Steps a small float64 fit no longer takes (issue 32, the bundled sets standardized): y's classes found
without NumPy's inverse, the fitted weights' floats and common denominator from the engine's integers. Every
answer is the one the longer way gives."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verify_perceptron.api._inputs import classes_of, to_float
from verify_perceptron.api.estimator import _exact_weights
from verify_perceptron.data.trace import ScaledWeights
from verify_perceptron.notes.conventions import CONVENTIONS

_LABELS = [
    np.array([1, 0, 1, 1, 0]),
    np.array([7, -3, 7, 2, -3, 2, 9], dtype=np.int8),
    np.array([3, 1, 2, 3, 1], dtype=np.uint8),
    np.array([2**64 - 1, 0, 2**63], dtype=np.uint64),
    np.array([2**63 - 1, -(2**63), 0, -(2**63)]),
    np.array([True, False, True]),
    np.array([-0.0, 1.0, 0.0, -0.0]),  # -0.0 and 0.0 are one class
    np.array([3.0, 1.0, 3.0, 2.0], dtype=np.float32),
    np.array([1e300, -1e300, 5.0, 1e300]),
]


@pytest.mark.parametrize("y", _LABELS, ids=[f"{a.dtype}-{k}" for k, a in enumerate(_LABELS)])
def test_numeric_classes_and_each_samples_index_are_numpys(y: Any) -> None:
    classes, index = classes_of(y, "t")
    expected, inverse = np.unique(y, return_inverse=True)
    assert classes.dtype == expected.dtype and classes.tolist() == expected.tolist()
    assert index.dtype == inverse.dtype and index.tolist() == inverse.reshape(-1).tolist()
    assert classes[index].tolist() == y.tolist()


def _generic(conv_name: str, weights: ScaledWeights) -> tuple[Any, ...]:
    """The weights' canonical form made from their Fractions, the way every engine's tuple is read."""
    return _exact_weights(CONVENTIONS[conv_name], tuple(Fraction(w) for w in weights))


@pytest.mark.parametrize("conv_name", sorted(CONVENTIONS))
@settings(max_examples=60, deadline=None)
@given(integers=st.lists(st.one_of(st.integers(-(2**70), 2**70), st.sampled_from([0, 1, -1, 2**1100, -(2**1100)])),
                         min_size=2, max_size=6),
       p=st.integers(-(2**80), 2**80).filter(bool), q=st.one_of(st.integers(1, 2**90), st.just(2**1200)))
def test_the_engines_weights_give_the_fractions_floats_and_common_denominator_of_their_fractions(
        conv_name: str, integers: list[int], p: int, q: int) -> None:
    weights = ScaledWeights(integers, Fraction(p, q))
    v, b, over, common = _exact_weights(CONVENTIONS[conv_name], weights)
    assert (v, b, over, common) == _generic(conv_name, weights)
    assert common == math.lcm(*(x.denominator for x in (*v, b)))  # the least common denominator
    assert over == tuple(x * common for x in (*v, b))
    assert all(type(x) is Fraction for x in (*v, b))
    # the floats from the integers over the common denominator are those of the Fractions in lowest terms
    assert [to_float(n, common) for n in over] == [to_float(x.numerator, x.denominator) for x in (*v, b)]


def test_a_bias_read_last_with_a_negative_input_keeps_its_sign() -> None:
    """sum-norm: w = (v, w_b) with b = -w_b; the bias's integer over q is negated as its Fraction is."""
    v, b, over, common = _exact_weights(CONVENTIONS["sum-norm"], ScaledWeights([4, -6, 3], Fraction(1, 4)))
    assert (v, b, over, common) == ((Fraction(1), Fraction(-3, 2)), Fraction(-3, 4), (4, -6, -3), 4)


def _standardized_data() -> Any:
    from verify_perceptron.data.arrays import exact_table
    from verify_perceptron.data.dataset import from_table

    rng = np.random.default_rng(3)
    X = rng.standard_normal((40, 5))
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    X[:, 0] *= 2.0**-20  # 53-bit mantissas over one power of two, spread: numerators past int64, held in limbs
    y = np.where(X @ np.array([1.0, -2.0, 0.5, 0.0, 1.0]) > 0, 1, -1)
    return from_table(exact_table(X), y, source="t", labels=("a", "b"))


@pytest.mark.parametrize("held", [True, False])
def test_the_checkers_geometry_reads_the_matrixs_largest_norm_and_their_sum(held: bool) -> None:
    from verify_perceptron.check.checker import Checker
    from verify_perceptron.data.examples import example
    from verify_perceptron.notes.bounds import geometry_from_scaled

    data = _standardized_data() if held else example("and")
    separator = [Fraction(-4), Fraction(3), Fraction(2)] if not held else \
        [Fraction(0), Fraction(1), Fraction(-2), Fraction(1, 2), Fraction(0), Fraction(1)]
    checker = Checker(data, "classic", rate=1, mode="online", separator=separator)
    assert (checker.matrix.held is not None) == held
    if held:  # no Python integer per norm was made for the geometry, nor kept with the matrix
        assert checker.matrix._norms is None
    g = checker.g
    assert g is not None
    assert g == geometry_from_scaled(checker.margins, checker.matrix.norms, L=checker.L, M=checker.M,
                                     ws_sq=g.ws_sq, b=separator[0])
    assert checker.constants["beta"] == sum(int(v) for v in checker.matrix.norms.tolist())
    assert g.R_sq == Fraction(max(int(v) for v in checker.matrix.norms.tolist()), checker.L**2)


def test_scaled_weights_give_each_caller_its_own_list() -> None:
    w = ScaledWeights([6, 0, -9], Fraction(5, 4))
    first, M = w.scaled()
    assert (first, M) == ([30, 0, -45], 4)  # 5/4·(6, 0, -9) = (15/2, 0, -45/4) = (30, 0, -45)/4
    first.append(7)
    first[0] = 0
    assert w.scaled() == ([30, 0, -45], 4)


_OPERAND = st.one_of(
    st.tuples(st.just("quantity"), st.integers(0, 18)),
    st.tuples(st.just("constant"), st.one_of(st.integers(-(2**63), 2**63 - 1), st.integers(2**63, 2**300),
                                             st.integers(-(2**300), -(2**63) - 1))),
    st.tuples(st.just("**"), st.integers(2, 3)),
)


@settings(max_examples=200, deadline=None)
@given(pieces=st.lists(st.one_of(_OPERAND, st.sampled_from([("*",), ("+",), ("-",)])), max_size=30))
def test_the_replays_program_lists_what_it_reads_as_it_moves_wide_constants_to_quantities(pieces: list[Any]) -> None:
    from verify_perceptron.check.limb_replay import _read, _wide_constants
    from verify_perceptron.notes._tracers import OPS

    code = [v for piece in pieces for v in (OPS[piece[0]], *piece[1:])] + [OPS["end"]]
    program, extra, read = _wide_constants(code, 19)
    assert read == _read(program)
    wide = [v for piece in pieces if piece[0] == "constant" and not -(2**63) <= (v := piece[1]) < 2**63]
    assert extra == tuple(wide)
    assert {19 + k for k in range(len(wide))} <= read
    assert len(program) == len(code)


@settings(max_examples=300, deadline=None)
@given(values=st.lists(st.one_of(st.integers(0, 2**64 + 5), st.integers(0, 2**250), st.sampled_from(
    [0, 2**63, 2**64 - 1, 2**64, 2**127 + 2**63, 2**128 - 1])), min_size=1, max_size=12),
       width=st.integers(0, 2))
def test_the_largest_norm_held_in_limbs_is_the_largest_value(values: list[int], width: int) -> None:
    from verify_perceptron.data.limb_arrays import _largest, int_limbs, limb_values

    L = max(1, -(-(max(values).bit_length() + 1) // 64)) + width  # (signed limbs: room for the sign bit, and more)
    limbs = np.asarray(int_limbs(values, L)).reshape(len(values), L)
    assert limb_values(limbs).tolist() == values
    assert _largest(limbs) == max(values)
    assert _largest(np.ascontiguousarray(limbs[::-1])) == max(values)
