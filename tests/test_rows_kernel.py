"""The data layer's compiled scores equal Python's integer products, and refuse what they cannot do exactly."""

from __future__ import annotations

import importlib.util
import os
import re
import sys

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from verify_perceptron.data import kernel as _kernel

needs_kernel = pytest.mark.skipif(not _kernel.AVAILABLE, reason=f"the C kernel is not built: {_kernel.IMPORT_ERROR}")


# ------------------------------------------------------------------------------------------------
# scores: every row's score at once


@needs_kernel
@given(dtype=st.sampled_from([np.int16, np.int32, np.int64]), data=st.data())
def test_c_scores_equal_python_integer_products_at_every_width(dtype, data):
    assert _kernel.scores is not None  # needs_kernel skips the test without the extension
    info = np.iinfo(dtype)
    n, d = data.draw(st.integers(0, 9)), data.draw(st.integers(0, 5))
    Z = np.array(data.draw(st.lists(st.lists(st.integers(info.min + 1, info.max), min_size=d, max_size=d),
                                    min_size=n, max_size=n)), dtype=dtype).reshape(n, d)
    norms = np.array([sum(int(v) ** 2 for v in row) for row in Z.tolist()], dtype=object)
    assume(all(v < 2**63 for v in norms))
    largest = max(norms.tolist(), default=0)
    bound = (2**126 - 1) // max(largest, 1)  # the guard the function demands
    # weights near the guard as often as small ones, so both the int32 copy and int64 are used
    entry = st.integers(-(2**20), 2**20) if data.draw(st.booleans()) else st.integers(-(2**62), 2**62)
    W = data.draw(st.lists(entry, min_size=d, max_size=d))
    assume(sum(w * w for w in W) <= bound)
    out = np.zeros(n, dtype=np.int64)
    assert _kernel.scores(Z, np.array(W, dtype=np.int64), norms.astype(np.int64), out) is None
    assert out.tolist() == [sum(int(z) * w for z, w in zip(row, W)) for row in Z.tolist()]


@needs_kernel
def test_c_scores_refuse_weights_past_the_guard():
    assert _kernel.scores is not None  # needs_kernel skips the test without the extension
    Z = np.array([[2**31, 0]], dtype=np.int64)
    W = np.array([2**62, 0], dtype=np.int64)  # ‖W‖²·‖z‖² = 2^124·2^62 ≥ 2^126
    with pytest.raises(ValueError, match=r"^scores\(\): \|\|W\|\|\^2 \* max\(norms\) must be below 2\^126"):
        _kernel.scores(Z, W, np.array([2**62], dtype=np.int64), np.zeros(1, dtype=np.int64))


@needs_kernel
@pytest.mark.parametrize("args, error, message", [
    ((np.zeros((2, 2)), np.zeros(2, np.int64), np.zeros(2, np.int64), np.zeros(2, np.int64)), TypeError,
     "Z must hold int16, int32 or int64 items"),
    ((np.zeros((2, 2), np.int16), np.zeros(3, np.int64), np.zeros(2, np.int64), np.zeros(2, np.int64)), ValueError,
     "W has length 3 but Z has 2 columns"),
    ((np.zeros((2, 2), np.int16), np.zeros(2, np.int64), np.zeros(1, np.int64), np.zeros(2, np.int64)), ValueError,
     "norms has length 1 but Z has 2 rows"),
    ((np.zeros((2, 2), np.int16), np.zeros(2, np.int64), np.zeros(2, np.int64), np.zeros(2, np.int32)), TypeError,
     "out must hold int64 items"),
])
def test_c_scores_reject_bad_arguments_naming_them(args, error, message):
    assert _kernel.scores is not None  # needs_kernel skips the test without the extension
    with pytest.raises(error, match="^" + re.escape(f"scores(): {message}")):
        _kernel.scores(*args)


@needs_kernel
def test_exact_products_are_the_same_with_and_without_the_c_scores(monkeypatch):
    from verify_perceptron.data.integers import ExactMatrix

    rng = np.random.default_rng(3)
    Z = rng.integers(-1000, 1001, size=(500, 7)).astype(np.int16)
    W = rng.integers(-(10**9), 10**9, size=7).tolist()
    norm_sq = sum(w * w for w in W)
    quick = ExactMatrix(Z).products(W, norm_sq=norm_sq)
    monkeypatch.setattr(_kernel, "scores", None)
    plain = ExactMatrix(Z).products(W, norm_sq=norm_sq)
    assert quick.tolist() == plain.tolist() == [sum(int(z) * w for z, w in zip(row, W)) for row in Z.tolist()]


# --- the loader -----------------------------------------------------------------------------


def test_loader_falls_back_to_none_without_the_extension(monkeypatch):
    monkeypatch.setitem(sys.modules, "verify_perceptron.data._rows", None)  # makes the import fail
    spec = importlib.util.spec_from_file_location("verify_perceptron.data._kernel_without_rows", _kernel.__file__)
    assert spec is not None and spec.loader is not None
    loader = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loader)
    assert (loader.AVAILABLE, loader.signed_rows, loader.scores) == (False, None, None)
    assert loader.IMPORT_ERROR is not None and "verify_perceptron.data._rows" in loader.IMPORT_ERROR


@pytest.mark.skipif(os.environ.get("VERIFY_PERCEPTRON_REQUIRE_KERNEL") != "1",
                    reason="set VERIFY_PERCEPTRON_REQUIRE_KERNEL=1 to demand the compiled kernel")
def test_kernel_is_built_when_required():
    assert _kernel.AVAILABLE, f"VERIFY_PERCEPTRON_REQUIRE_KERNEL=1 but the C kernel did not import: {_kernel.IMPORT_ERROR}"


# ------------------------------------------------------------------------------------------------
# rational_cells: a table of literals as int64 numerators over int64 denominators

_cell = st.one_of(
    st.text(alphabet="0123456789+-./eE \t\r", max_size=12),  # literals and near-literals of every shape
    st.builds(lambda p, q: f"{p}/{q}", st.integers(-(2**64), 2**64), st.integers(0, 2**64)),
    st.builds(lambda m, f, e: f"{m}.{f}e{e}", st.integers(-(10**19), 10**19), st.integers(0, 10**6),
              st.integers(-1100, 1100)),
    st.sampled_from(["1e1000", "1e1001", "0e1001", "9" * 19, "9" * 20, "0." + "0" * 18 + "1", "0." + "0" * 19 + "1",
                     "1e0000000000000000000000005", "x", "1_0", "nan", "\u00a01", "1\u00a0", "0" * 4001]),
)


@needs_kernel
@given(st.lists(_cell, min_size=1, max_size=12), st.integers(1, 3))
def test_c_rational_cells_read_what_rational_parts_reads_or_leave_it_to_python(cells: list[str], cols: int) -> None:
    from verify_perceptron.data.rationals import rational_parts

    assert _kernel.rational_cells is not None  # needs_kernel skips the test without the extension
    cells = [c.replace(",", "").replace("\n", "") for c in cells]
    cells += ["0"] * (-len(cells) % cols)
    rows = len(cells) // cols
    lines = [",".join(cells[i * cols:(i + 1) * cols]) for i in range(rows)]
    nums, dens = np.full(len(cells), 7, dtype=np.int64), np.full(len(cells), 7, dtype=np.int64)
    left = _kernel.rational_cells("\n".join(lines).encode(), rows, cols, -1, nums, dens)
    assert left == int((dens == 0).sum())
    for cell, n, d in zip(cells, nums.tolist(), dens.tolist()):
        try:
            expected = rational_parts(cell)
        except ValueError:
            assert d == 0 and n == 0, cell  # refused: Python names it
            continue
        assert d == 0 or (n, d) == expected, cell
        short = set(cell) <= set("0123456789+-./ \t\r") and len(cell.strip(" \t\r")) < 19
        if short and abs(expected[0]) < 10**18 and expected[1] < 10**18:
            assert (n, d) == expected, cell  # what fits is read in C, not left over


@needs_kernel
def test_c_rational_cells_skip_the_label_column_and_refuse_a_table_of_another_shape() -> None:
    assert _kernel.rational_cells is not None  # needs_kernel skips the test without the extension
    nums, dens = np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64)
    assert _kernel.rational_cells(b"1,2\n3,4", 2, 2, -1, nums, dens) == 0 and nums.tolist() == [1, 2, 3, 4]
    assert _kernel.rational_cells(b"1,x,1/2\n3,y,0.4", 2, 3, 1, nums, dens) == 0
    assert nums.tolist() == [1, 1, 3, 2] and dens.tolist() == [1, 2, 1, 5]
    for text in (b"1,2\n3", b"1,2,3\n4", b"1,2\n3,4\n5,6", b"1\n2,3,4", b"1,2\n\n"):
        with pytest.raises(ValueError, match="does not hold 2 cells"):
            _kernel.rational_cells(text, 2, 2, -1, nums, dens)
    with pytest.raises(ValueError, match="need 4 items"):
        _kernel.rational_cells(b"1,2\n3,4", 2, 2, -1, nums[:3], dens)
    with pytest.raises(ValueError, match="skip"):
        _kernel.rational_cells(b"1,2\n3,4", 2, 2, 2, nums, dens)
    with pytest.raises(TypeError, match="int64"):
        _kernel.rational_cells(b"1,2\n3,4", 2, 2, -1, nums.astype(np.int32), dens)
