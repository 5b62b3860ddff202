"""The fraction-free solve of a symmetric matrix from its upper triangle (issue 32, branch smallfit13): a Gram
matrix's elimination makes half the products (Bareiss's entry (i, j) is a minor that the symmetric matrix gives
at (j, i) too), its X and d those of the general elimination; a pivot of 0 goes back to the general one, which
swaps rows. The Gram matrix itself is made from its upper triangle. The separability decision's exact solves on
wine 0 vs rest raw (11 active rows of 14, 1,257-bit determinant): 878 -> 657 µs."""

from __future__ import annotations

import operator
import random
from typing import Any

import pytest

from verify_perceptron.certify import _fraction_free


def _general(matrix: list[list[int]], rhs: list[int], monkeypatch: pytest.MonkeyPatch) -> Any:
    """`solve` through the general elimination alone (the symmetric one always declining)."""
    with monkeypatch.context() as patch:
        patch.setattr(_fraction_free, "_symmetric_solve", lambda *args: "pivot")
        return _fraction_free.solve(matrix, rhs)


def _wide_rows(rng: random.Random, k: int, d: int) -> list[list[int]]:
    bits = rng.choice([2, 30, 70])
    rows = [[rng.randint(-(2**bits), 2**bits) for _ in range(d)] for _ in range(k)]
    if k > 1 and rng.random() < 0.25:  # dependent rows: a singular Gram matrix
        rows[-1] = [2 * v for v in rows[0]]
    return rows


@pytest.mark.parametrize("seed", range(4))
def test_a_gram_matrix_is_solved_as_the_general_elimination_solves_it(seed: int,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    for _ in range(25):
        k = rng.randint(1, 7)
        gram = _fraction_free.gram(_wide_rows(rng, k, rng.randint(1, 8)))
        for rhs in ([1] * k, [rng.randint(-5, 5) for _ in range(k)]):
            assert _fraction_free.solve(gram, rhs) == _general(gram, rhs, monkeypatch)


@pytest.mark.parametrize("seed", range(4))
def test_any_symmetric_matrix_is_solved_as_before_zero_pivots_and_singular_ones_too(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    for _ in range(100):
        k = rng.randint(1, 6)
        upper = [[rng.choice([0, 0, 1, -1, rng.randint(-2, 2)]) for _ in range(k - i)] for i in range(k)]
        matrix = [[upper[min(i, j)][abs(i - j)] for j in range(k)] for i in range(k)]
        rhs = [rng.randint(-3, 3) for _ in range(k)]
        assert _fraction_free.solve(matrix, rhs) == _general(matrix, rhs, monkeypatch)


def test_the_symmetric_elimination_runs_on_a_gram_matrix_and_declines_at_a_zero_pivot(
        monkeypatch: pytest.MonkeyPatch) -> None:
    taken: list[Any] = []
    symmetric = _fraction_free._symmetric_solve

    def spy(*args: Any) -> Any:
        taken.append(symmetric(*args))
        return taken[-1]

    monkeypatch.setattr(_fraction_free, "_symmetric_solve", spy)
    rows = [[2**66 + 1, -3, 5], [7, 2**65, -1], [1, 1, 2**64 - 9]]
    found = _fraction_free.solve(_fraction_free.gram(rows), [1, 1, 1])
    assert found is not None and taken == [found] and found[1] != 0
    assert _fraction_free.solve([[0, 1], [1, 0]], [2, 3]) == ([3, 2], 1)  # (swapped: the general elimination)
    assert taken[-1] == "pivot"
    assert _fraction_free.solve([[1, 2], [3, 4]], [1, 1]) is not None and len(taken) == 2  # not symmetric: not asked
    late = [[1, 0, 0], [0, 0, 0], [0, 0, 1]]
    assert _fraction_free.solve(late, [1, 1, 1]) is None and taken[-1] == "pivot"


@pytest.mark.parametrize("seed", range(4))
def test_the_gram_matrix_from_its_upper_triangle_is_every_product(seed: int) -> None:
    rng = random.Random(seed)
    for k in range(8):
        rows = _wide_rows(rng, k, rng.randint(1, 5))
        assert _fraction_free.gram(rows) == [[sum(map(operator.mul, a, b)) for b in rows] for a in rows]
