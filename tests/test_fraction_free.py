"""Fraction-free linear algebra, in Python and through FLINT where python-flint is installed: exact either way."""

from __future__ import annotations

import contextlib
import sys
import time
from types import SimpleNamespace
from typing import Any

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from tests.data_strategies import halves as datasets
from verify_perceptron.certify import _fraction_free
from verify_perceptron.certify.separability import decide_separability

FLINT = _fraction_free._flint_module()
needs_flint = pytest.mark.skipif(FLINT is None, reason="python-flint is not installed")
BACKENDS = ["python", pytest.param("flint", marks=needs_flint)]


@contextlib.contextmanager
def backend(name):
    """FLINT as installed, or none."""
    saved = (_fraction_free._flint, _fraction_free.FLINT_FROM_SOLVE, _fraction_free.FLINT_FROM_GRAM)
    _fraction_free._flint = FLINT if name == "flint" else None
    if name == "flint":  # for every size, not only where it is worth its import
        _fraction_free.FLINT_FROM_SOLVE = _fraction_free.FLINT_FROM_GRAM = 0
    try:
        yield
    finally:
        _fraction_free._flint, _fraction_free.FLINT_FROM_SOLVE, _fraction_free.FLINT_FROM_GRAM = saved


square = st.integers(0, 6).flatmap(lambda k: st.lists(st.lists(st.integers(-3, 3), min_size=k, max_size=k),
                                                      min_size=k, max_size=k))


@pytest.mark.parametrize("name", BACKENDS)
@given(matrix=square.filter(len), data=st.data())
def test_the_solve_is_exact_or_the_matrix_is_singular(name, matrix, data):
    k = len(matrix)
    rhs = data.draw(st.lists(st.integers(-5, 5), min_size=k, max_size=k))
    with backend(name):
        found = _fraction_free.solve(matrix, rhs)
    det = sympy.Matrix(matrix).det()
    if found is None:
        assert det == 0
        return
    X, d = found
    assert d != 0 and det != 0
    assert [sum(matrix[i][j] * X[j] for j in range(k)) for i in range(k)] == [d * b for b in rhs]
    if name == "python":
        assert abs(d) == abs(det)  # Bareiss's last pivot


@pytest.mark.parametrize("name", BACKENDS)
@given(matrix=square)
def test_the_inverse_is_exact_or_the_matrix_is_singular(name, matrix):
    k = len(matrix)
    with backend(name):
        found = _fraction_free.inverse(matrix)
    if found is None:
        assert k > 0 and sympy.Matrix(matrix).det() == 0
        return
    R, d = found
    assert d != 0
    assert [[sum(matrix[i][m] * R[m][j] for m in range(k)) for j in range(k)] for i in range(k)] == [
        [d if i == j else 0 for j in range(k)] for i in range(k)]


@pytest.mark.parametrize("name", BACKENDS)
@given(rows=st.lists(st.lists(st.integers(-(2**70), 2**70), min_size=3, max_size=3), max_size=4))
def test_the_gram_matrix_is_exact(name, rows):
    with backend(name):
        assert _fraction_free.gram(rows) == [[sum(p * q for p, q in zip(a, b)) for b in rows] for a in rows]


@pytest.mark.parametrize("name", BACKENDS)
@given(rows=st.integers(1, 4).flatmap(lambda k: st.lists(
    st.lists(st.integers(-(2**70), 2**70) | st.integers(-3, 3), min_size=k, max_size=k), min_size=1, max_size=k)))
def test_the_gram_system_is_solved_exactly_with_its_point_or_is_singular(name, rows):
    with backend(name):
        found = _fraction_free.gram_solve(rows)
    gram = [[sum(p * q for p, q in zip(a, b)) for b in rows] for a in rows]
    if found is None:
        assert sympy.Matrix(gram).det() == 0
        return
    X, d, point = found
    assert d != 0 and [sum(g * x for g, x in zip(row, X)) for row in gram] == [d] * len(rows)
    assert point == [sum(x * row[c] for x, row in zip(X, rows)) for c in range(len(rows[0]))]  # Aᵀ·X


@needs_flint
def test_a_flint_gram_solve_that_fails_its_check_is_made_again_in_python(monkeypatch):
    fmpz_mat: Any = FLINT.fmpz_mat

    class Wrong(fmpz_mat):
        def solve(self, other):  # twice the solution: G·X = d·1 fails
            x = super().solve(other)
            return x + x

    monkeypatch.setattr(_fraction_free, "_flint", SimpleNamespace(fmpz_mat=Wrong))
    monkeypatch.setattr(_fraction_free, "FLINT_FROM_SOLVE", 0)
    rows = [[2, 1, 0], [1, 3, 1]]
    with backend("python"):
        expected = _fraction_free.gram_solve(rows)
    assert expected is not None and _fraction_free.gram_solve(rows) == expected


@needs_flint
def test_a_flint_answer_that_fails_its_check_is_made_again_in_python(monkeypatch):
    called = []
    fmpz_mat: Any = FLINT.fmpz_mat  # python-flint's matrix class (Any: flint has no type information)

    class Wrong(fmpz_mat):
        def solve(self, other):  # twice the solution: matrix·X = d·rhs fails
            called.append(1)
            x = super().solve(other)
            return x + x

    monkeypatch.setattr(_fraction_free, "_flint", SimpleNamespace(fmpz_mat=Wrong))
    monkeypatch.setattr(_fraction_free, "FLINT_FROM_SOLVE", 0)  # FLINT at this size too
    matrix = [[2, 1, 0], [1, 3, 1], [0, 1, 4]]
    solved = _fraction_free.solve(matrix, [1, 1, 1])
    assert solved is not None  # the matrix is not singular
    X, d = solved
    assert called and [sum(a * x for a, x in zip(row, X)) for row in matrix] == [d, d, d]
    with backend("python"):
        assert _fraction_free.solve(matrix, [1, 1, 1]) == (X, d)  # Python's answer, not a corrected FLINT one


@needs_flint
def test_flint_is_not_called_when_its_predicted_time_passes_the_deadline():
    # (a FLINT call cannot be stopped: only one predicted to end in time is made)
    big = [[(i + j) * 2**2000 + int(i == j) for j in range(60)] for i in range(60)]
    assert _fraction_free._flint_fits(big, 1, None)
    assert not _fraction_free._flint_fits(big, 1, time.monotonic() + 0.01)
    assert not _fraction_free._flint_fits([[1]], 1, None)  # not worth FLINT's import
    with backend("flint"):
        assert _fraction_free._flint_fits([[1]], 1, time.monotonic() + 1)
    assert _fraction_free.solve(big, [1] * 60, deadline=time.monotonic() - 1) is None  # Python, out of time


def test_flint_is_imported_only_when_first_needed():
    import subprocess
    import sys

    code = ("import sys, verify_perceptron.cli; from verify_perceptron.certify import _fraction_free as f; "
            "print('flint' in sys.modules, f._flint_module() is not None, 'flint' in sys.modules)")
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert shown == ["False", str(FLINT is not None), str(FLINT is not None)]


@given(datasets())
def test_separability_is_decided_alike_with_and_without_flint(data):
    decisions = []
    for name in ("python", "flint"):
        with backend(name):
            found = decide_separability(type(data)(numerators=data.numerators, denominator=data.denominator,
                                                   y=data.y))  # (a new dataset: no solve kept from the other)
        decisions.append((found.separable, found.certified, found.separator, found.gordan))
    assert decisions[0] == decisions[1]


@needs_flint
def test_flint_solves_gram_matrices_of_wide_entries_where_the_python_is_slower(monkeypatch):
    # Breast cancer's float64 data give a 31 x 31 Gram matrix of 147-bit entries: Bareiss's minors grow to
    # 31 times that, and the Python took 150 ms where FLINT took 13 ms (its k³·bits alone said "Python").
    wide = [[(i + j + 1) * 2**146 + int(i == j) for j in range(31)] for i in range(31)]
    assert _fraction_free._flint_fits(wide, 1, None)
    small = [[(i + j + 1) * 2**27 + int(i == j) for j in range(16)] for i in range(16)]
    assert _fraction_free._flint_fits(small, 1, None)  # FLINT imported: the quicker from this size on
    monkeypatch.setattr(_fraction_free, "_flint", "not looked for")
    monkeypatch.delitem(sys.modules, "flint")
    assert not _fraction_free._flint_fits(small, 1, None)  # not worth FLINT's import
    assert "flint" not in sys.modules


@needs_flint
@pytest.mark.parametrize("k, imported", [(31, True), (31, False), (5, True)])
def test_a_gram_matrix_goes_to_flint_once_it_is_imported_from_a_smaller_size(monkeypatch, k, imported):
    rows = [[(i * 7919 + j * 104729) % 2**70 - 2**69 for j in range(31)] for i in range(k)]
    used = []
    fmpz_mat = FLINT.fmpz_mat

    def counted(*a):
        used.append(1)
        return fmpz_mat(*a)

    monkeypatch.setattr(FLINT, "fmpz_mat", counted)
    monkeypatch.setattr(_fraction_free, "_flint", FLINT if imported else "not looked for")
    if not imported:
        monkeypatch.delitem(sys.modules, "flint")
        monkeypatch.setattr(_fraction_free, "_flint_module", lambda: FLINT)
    assert _fraction_free.gram(rows) == [[sum(p * q for p, q in zip(a, b)) for b in rows] for a in rows]
    assert bool(used) == (imported and k * k * 31 >= _fraction_free.FLINT_FROM_GRAM_IMPORTED)
