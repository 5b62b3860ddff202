"""What a fit of a small float64 set pays whatever its size (issue 32, the bundled sets standardized): the facts
the reading of binary floats knows already, kernel files not read for nothing, arrays not copied twice. Every
answer is the one the longer way gives."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from verify_perceptron.check.soft_chunk import taken
from verify_perceptron.data import _floats, dataset, kernel, limb_arrays, memory
from verify_perceptron.data.arrays import exact_table
from verify_perceptron.data.dataset import Dataset, from_table
from verify_perceptron.data.integers import ExactMatrix
from verify_perceptron.data.limb_arrays import limb_values, lowest_terms_facts
from verify_perceptron.notes.soft_margin import choose_margin

# doubles of every kind: zeros, subnormals, the extremes, integers with trailing zeros, and random values
_DOUBLES = st.one_of(st.sampled_from([0.0, -0.0, 1.0, -3.0, 2.0**-1074, -(2.0**-1074), 2.0**1023, 1.5 * 2.0**60,
                                      6.0, -12.0, 2.0**70, 0.1]),
                     st.floats(allow_nan=False, allow_infinity=False))


def _facts(numerators: Any) -> tuple[int, int | None, int]:
    """`lowest_terms_facts` of int64 numerators or limbs over a denominator that is a power of two."""
    limbs = numerators if numerators.ndim == 3 else numerators[..., None]
    return lowest_terms_facts(limbs, 1)


@pytest.mark.parametrize("compiled", [True, False])
@settings(max_examples=150, deadline=None)
@given(X=hnp.arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(1, 4)), elements=_DOUBLES))
def test_binary_floats_give_the_bit_length_and_lowest_terms_that_one_pass_over_them_finds(
        compiled: bool, X: Any) -> None:
    patch = pytest.MonkeyPatch()
    if not compiled:
        patch.setattr(kernel, "dyadic_range", None)  # the NumPy reading
    try:
        numerators, denominator, bits = _floats.binary_bits(X, max_cells=10**9, source="t")
    finally:
        patch.undo()
    common, zeros, found = _facts(numerators)
    assert bits == found  # the largest |numerator|'s length, exactly
    assert common == 1 and (denominator == 1 or zeros == 0)  # no common power of two left: lowest terms
    assert limb_values(numerators if numerators.ndim == 3 else numerators[..., None]).tolist() == [
        [int(Fraction(x) * denominator) for x in row] for row in X.tolist()]


def test_a_dataset_of_binary_floats_takes_their_bit_length_without_a_pass_and_is_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(8)
    X = rng.standard_normal((40, 5)) * np.array([1e-3, 1.0, 1e3, 3.0, 1e-9])  # 2 limbs of numerators
    y = np.where(rng.random(40) < 0.5, 1, -1)
    table = exact_table(X)
    assert table.limbs is not None and table.bits is not None
    passes: list[int] = []
    facts = limb_arrays.lowest_terms_facts

    def counted(limbs: Any, q: int) -> Any:
        passes.append(1)
        return facts(limbs, q)

    monkeypatch.setattr(dataset, "lowest_terms_facts", counted)
    fast = from_table(table, y, source="t", labels=("-1", "1"))
    assert passes == []  # the bits came with the table (one pass before: fails on the old code)
    slow = Dataset(y=y, limbs=table.limbs, denominator=table.denominator, binary_float=True)
    assert passes == [1]
    assert fast.denominator == slow.denominator and fast._bits == slow._bits == table.bits
    assert np.array_equal(fast.limbs, slow.limbs) and fast.X == slow.X


def _cgroup(tmp_path: Any, monkeypatch: pytest.MonkeyPatch, limit: str | None) -> list[str]:
    """A machine with a cgroup whose limit file says `limit` (None: no such file); the files read, as a list."""
    if limit is not None:
        (tmp_path / "limit").write_text(limit + "\n")
    (tmp_path / "usage").write_text("200000000\n")
    (tmp_path / "meminfo").write_text("MemAvailable:    8000000 kB\n")
    monkeypatch.setattr(memory, "_MEMINFO", str(tmp_path / "meminfo"))
    monkeypatch.setattr(memory, "_CGROUP_FILES", ((str(tmp_path / "limit"), str(tmp_path / "usage")),))
    read: list[str] = []
    text = memory._read_text

    def spy(path: str, size: int | None = None) -> str | None:
        read.append(path.rsplit("/", 1)[-1])
        return text(path, size)

    monkeypatch.setattr(memory, "_read_text", spy)
    return read


@pytest.mark.parametrize("limit, usage_read, figure", [
    (None, False, (8_192_000_000, "MemAvailable")),
    ("max", False, (8_192_000_000, "MemAvailable")),
    (str(2**63 - 4096), False, (8_192_000_000, "MemAvailable")),  # v1's "no limit"
    ("1000000000", True, (800_000_000, "the cgroup limit")),
])
def test_the_cgroups_usage_is_read_only_under_a_limit(tmp_path: Any, monkeypatch: pytest.MonkeyPatch,
                                                      limit: str | None, usage_read: bool, figure: Any) -> None:
    read = _cgroup(tmp_path, monkeypatch, limit)
    assert memory.available_memory() == figure
    assert ("usage" in read) == usage_read  # (read with no limit too on the old code)


def test_the_margins_of_an_object_array_choose_the_same_target_as_listed_integers() -> None:
    rng = np.random.default_rng(3)
    values = [int(v) * 2**70 + int(w) for v, w in zip(rng.integers(-50, 50, 60), rng.integers(0, 2**60, 60))]
    counts = rng.integers(0, 3, 60)
    listed = choose_margin(values, counts, R_sq=2**150, u_sq=2**10)
    held = np.array(values, dtype=object)
    assert choose_margin(held, counts, R_sq=2**150, u_sq=2**10) == listed
    mixed = held.copy()
    mixed[::3] = [np.int64(v) for v in range(0, 60, 3)]  # NumPy integers among them: read as ints
    assert choose_margin(mixed, counts, R_sq=2**150, u_sq=2**10) == choose_margin(
        [int(v) for v in mixed], counts, R_sq=2**150, u_sq=2**10)


def test_a_product_past_int64_is_the_callers_own_copy() -> None:
    Z = np.array([[2**40, -3], [5, 2**41]], dtype=np.int64)
    matrix = ExactMatrix(Z)
    first = matrix.products([2**30, 7], norm_sq=2**60 + 49)
    assert first.dtype == object and first.tolist() == [2**70 - 21, 5 * 2**30 + 7 * 2**41]
    first[0] = 0  # the caller's array: the product kept for the next call is not changed
    again = matrix.products([2**30, 7], norm_sq=2**60 + 49)
    assert again.tolist() == [2**70 - 21, 5 * 2**30 + 7 * 2**41] and again is not first
    doubled = matrix.products([2**31, 14], norm_sq=4 * (2**60 + 49))  # the same direction, times 2
    assert doubled.tolist() == [2 * v for v in again.tolist()]


def _held(n: int = 30, seed: int = 5) -> Any:
    """A sample matrix held in limbs (binary floats of about 66 bits), and its dataset."""
    from verify_perceptron.data.dataset import from_arrays
    from verify_perceptron.data.samples import sample_matrix
    from verify_perceptron.notes.conventions import get_convention

    rng = np.random.default_rng(seed)
    data = from_arrays(rng.standard_normal((n, 4)) * np.array([1e-4, 1.0, 1e4, 3.0]), np.where(rng.random(n) < 0.5, 1, -1))
    matrix = sample_matrix(data, get_convention("classic"))
    assert matrix.held is not None
    return matrix


def test_the_limbs_of_the_last_product_are_those_of_its_direction_only(monkeypatch: pytest.MonkeyPatch) -> None:
    from verify_perceptron.data import limb_arrays as arrays
    from verify_perceptron.data.limb_margins import LimbMargins

    held = _held().held
    u, v = [3, -(2**70), 5, 2**40, -7], [1, 2, 3, 4, 5]
    assert LimbMargins.last_of(held, u) is None  # no product yet
    values = held.products(u).tolist()
    last = LimbMargins.last_of(held, u)
    assert last is not None and last.ints().tolist() == values == [
        sum(a * b for a, b in zip(row, u)) for row in held.values().tolist()]
    held.products(v)
    last = LimbMargins.last_of(held, v)
    assert LimbMargins.last_of(held, u) is None and last is not None and last.ints().tolist() == \
        held.products(v).tolist()
    assert LimbMargins.last_of(None, u) is None
    monkeypatch.setattr(arrays, "KEEP_SCORES", 29)  # 30 rows: not kept
    held.products(u)
    assert LimbMargins.last_of(held, u) is None and LimbMargins.last_of(held, v) is None


def _figures(check: Any) -> tuple[Any, ...]:
    """What the soft-margin check holds of its bound: ρ, R², ‖u‖², the pieces of the squares, their quotients by
    ρ², and the one-pass figures (Σd², how many are short)."""
    pieces = check._pieces
    held = None if pieces is None else taken(pieces, slice(None)).tobytes()  # (made from the margins: all of them)
    return (check.bound.rho, check.bound.R_sq, check.bound.u_sq, held, check._sq_over_rho.tobytes(), check._whole)


def test_the_soft_margin_check_against_w_star_reads_its_margins_from_the_products_limbs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from verify_perceptron.check import soft_margin as soft
    from verify_perceptron.check.separator import scaled_separator
    from verify_perceptron.data import limb_arrays as arrays
    from verify_perceptron.data.limb_margins import LimbMargins

    read: list[str] = []
    choose = soft.choose_margin  # type: ignore[attr-defined]

    def spy(margins: Any, *args: Any, **kwargs: Any) -> Any:
        read.append(type(margins).__name__)
        return choose(margins, *args, **kwargs)

    monkeypatch.setattr(soft, "choose_margin", spy)
    kept = arrays.KEEP_SCORES
    for u in ([Fraction(1, 3), Fraction(-2**70, 7), Fraction(5), Fraction(2**40), Fraction(-7, 2)],
              [Fraction(1), Fraction(2**-60), Fraction(-3), Fraction(0), Fraction(1, 2**80)]):
        figures = []
        for keep in (kept, 0):
            monkeypatch.setattr(arrays, "KEEP_SCORES", keep)
            matrix = _held()
            W, M = scaled_separator(u)
            margins = matrix.products(W, norm_sq=sum(w * w for w in W))  # as the checker makes w*'s
            check = soft.soft_margin_check(matrix, u, L=1, source="t", counts=np.arange(30) % 3,
                                           scaled=(W, M, margins))
            assert not isinstance(check, str)
            figures.append(_figures(check))
        assert read[-2:] == ["LimbMargins", "ndarray"]  # (the old code read the Python integers both times)
        assert figures[0] == figures[1]
    assert LimbMargins.last_of(_held().held, [1, 2, 3, 4, 5]) is None
