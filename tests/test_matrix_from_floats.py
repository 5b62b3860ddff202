"""The run's sample matrix in limbs made from the user's float64 X (`data.samples._from_floats`), the dataset's own
limbs let go before it is made, and `best_reference`'s floors made several columns a piece of rows
(`check.soft_reference`): the same integers and the same floats as before, bit for bit."""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np
import pytest

from verify_perceptron.check import soft_reference
from verify_perceptron.data import kernel as _data_kernel
from verify_perceptron.data import samples
from verify_perceptron.data.dataset import from_arrays
from verify_perceptron.data.float_source import BinaryRows
from verify_perceptron.data.limb_arrays import limb_values
from verify_perceptron.data.samples import sample_matrix
from verify_perceptron.notes.conventions import CONVENTIONS
from verify_perceptron.run import fast

needs_kernel = pytest.mark.skipif(_data_kernel.dyadic_fill is None or _data_kernel.signed_limbs is None,
                                  reason=f"the C kernel is not built: {_data_kernel.IMPORT_ERROR}")


def _edges(n: int, seed: int) -> tuple[Any, Any]:
    """n x 6 binary floats from 2^-300 to 2^70 with negatives, +0.0 and -0.0, full mantissas, whole zero rows."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 6)) * 2.0 ** rng.integers(-300, 70, size=(n, 6))
    X[0] = [0.0, -0.0, 2.0**-300, -(2.0**70), 1 + 2.0**-52, -(1 + 2.0**-52)]
    X[1] = -0.0
    X[2:, 3] = np.where(rng.random(n - 2) < 0.3, -0.0, X[2:, 3])
    return X, np.where(rng.random(n) < 0.5, 1, -1)


def _data(X: Any, y: Any) -> Any:
    data = from_arrays(X, y)
    assert data.limbs is not None
    data.binary_rows = BinaryRows.of(X, data.denominator)
    return data


@needs_kernel
@pytest.mark.parametrize("convention", ["classic", "unit-ball", "sum-norm"])  # bias first; last; -1 last
@pytest.mark.parametrize("block", [7, 1 << 14])  # blocks of 7 rows and a tail; one block
def test_the_matrix_made_from_x_is_the_one_made_from_the_limbs(
        convention: str, block: int, monkeypatch: pytest.MonkeyPatch) -> None:
    X, y = _edges(4000, 3)  # (28,000 cells: past SHARED_BELOW, a matrix of its own)
    before = X.copy()
    conv = CONVENTIONS[convention]
    expected = sample_matrix(_data(X, y), conv)  # not lent: from the dataset's limbs
    data = _data(X, y)
    limbs = data.limbs.copy()
    used: list[bool] = []
    real = samples._from_floats

    def spied(*args: Any) -> bool:
        used.append(real(*args))
        return used[-1]

    monkeypatch.setattr(samples, "FLOAT_ROWS", block)
    monkeypatch.setattr(samples, "_from_floats", spied)
    matrix = sample_matrix(data, conv, lend=True)
    assert used == [True] and data._limbs is None  # made from X, the dataset's limbs let go
    assert np.array_equal(matrix.limbs, expected.limbs) and matrix.limbs.dtype == np.int64
    assert matrix.held is not None and expected.held is not None
    assert np.array_equal(matrix.held.norm_limbs, expected.held.norm_limbs)
    assert matrix.norms.tolist() == expected.norms.tolist() and matrix.exact.tolist() == expected.exact.tolist()
    assert np.array_equal(data.limbs, limbs)  # read, the dataset's limbs are made again from the matrix
    assert X.tobytes() == before.tobytes()


@needs_kernel
def test_the_dataset_s_limbs_are_gone_before_the_matrix_is_made(monkeypatch: pytest.MonkeyPatch) -> None:
    # the point: the dataset's limbs (1.8x the int64 data at 10^6 x 10) never whole beside the matrix (2.0x)
    X, y = _edges(3000, 4)
    data = _data(X, y)
    held = weakref.ref(data._limbs)
    alive: list[bool] = []
    fill = _data_kernel.dyadic_fill
    assert fill is not None

    def filled(*args: Any) -> None:
        alive.append(held() is not None)
        fill(*args)

    monkeypatch.setattr(samples, "FLOAT_ROWS", 1000)
    monkeypatch.setattr(_data_kernel, "dyadic_fill", filled)
    sample_matrix(data, CONVENTIONS["classic"], lend=True)
    assert alive == [True, False, False]  # the first block compared with them, then they are gone


@needs_kernel
@pytest.mark.parametrize("change", ["values", "fortran", "no rows", "not lent"])
def test_x_that_is_not_the_dataset_s_gives_the_matrix_from_the_limbs(change: str) -> None:
    X, y = _edges(4000, 5)
    conv = CONVENTIONS["classic"]
    expected = sample_matrix(_data(X, y), conv)
    data = _data(X, y)
    assert data.binary_rows is not None
    if change == "values":  # (a broken invariant: the rows held are not the data's)
        data.binary_rows.X = X * 2.0
    elif change == "fortran":
        data.binary_rows.X = np.asfortranarray(X)
    elif change == "no rows":
        data.binary_rows.let_go()
    matrix = sample_matrix(data, conv, lend=change != "not lent")
    assert np.array_equal(matrix.limbs, expected.limbs)
    assert matrix.held is not None and expected.held is not None
    assert np.array_equal(matrix.held.norm_limbs, expected.held.norm_limbs)
    assert (data._limbs is None) == (change != "not lent")  # lent, as before, where it was asked for


def _not_separable(seed: int, n: int) -> tuple[Any, Any]:
    rng = np.random.default_rng(seed)
    X, y = rng.standard_normal((n, 5)), np.where(rng.random(n) < 0.5, 1, -1)
    data = _data(X, y)
    matrix = sample_matrix(data, CONVENTIONS["classic"])
    return matrix, fast.run(data, "classic", max_epochs=4, matrix=matrix)


@pytest.mark.parametrize("ahead", [False, True])
def test_the_floors_margins_made_several_columns_a_piece_are_the_measured_ones(
        ahead: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    # the floors' columns (made `_GROUP` or `_AHEAD_GROUP` at a time, each piece of rows once) are the floats the
    # measure makes one column at a time, bit for bit: a floor is its column's
    matrix, trace = _not_separable(21, 3000)
    U = np.random.default_rng(21).normal(0.0, 1.0, (6, 7)) * 2.0**30
    weights = np.asarray(trace.mistakes_per_sample, dtype=np.float64)
    floored: list[Any] = []
    measured: list[Any] = []
    monkeypatch.setattr(soft_reference, "_MIN_BLOCK_CELLS", 1)
    monkeypatch.setattr(soft_reference, "_ROW_CELLS", 2**9)  # pieces of 85 rows

    def floor(margins: Any, *args: Any, **kwargs: Any) -> float:
        floored.append(margins.copy())
        return -np.inf

    def measure(margins: Any, *args: Any) -> list[None]:
        measured.append(margins[:, 0].copy())
        return [None]

    monkeypatch.setattr(soft_reference, "column_floor", floor)
    monkeypatch.setattr(soft_reference, "choose_columns", measure)
    monkeypatch.setattr(soft_reference, "_FLOORS_FROM", 1)
    monkeypatch.setattr(soft_reference, "_THREADS_FROM", 1 if ahead else 10**9)
    monkeypatch.setattr(soft_reference, "_AHEAD_FROM", 1 if ahead else 10**9)
    soft_reference._ranked(matrix, U, weights, floors=True)  # every floor -inf: every column measured in turn
    assert len(floored) == len(measured) == 7
    order = sorted(range(7), key=lambda j: (-np.inf, j))
    assert all(np.array_equal(floored[j].view(np.int64), measured[order.index(j)].view(np.int64)) for j in range(7))
