"""The filter's rows from the user's float64 X (`verify_perceptron.data.float_source`), not a float copy.

The randn fit held a float copy of its samples (as large as their int64 array) for the run's floating-point
filter, and made it again after the run for `best_reference`. Binary floats over their common power of two are
z_ij = y_i·x_ij·2^p exactly, so the rows are made from the user's X as they are read: in NumPy a slice at a time
(`FilterRows`) and in C a row at a time (`run/_scan.c`'s `float_row`, seen here through `filter_rows`). They must
be the doubles the copy held, bit for bit; the fit's answers must not change; the user's X is never written and,
after the fit, never read again.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from typing import Any

import numpy as np
import pytest

from verify_perceptron import ExactPerceptron
from verify_perceptron.data import float_source
from verify_perceptron.data.dataset import from_arrays
from verify_perceptron.data.float_source import BinaryRows, FilterRows
from verify_perceptron.data.integers import ExactMatrix
from verify_perceptron.data.samples import sample_matrix
from verify_perceptron.notes.conventions import CONVENTIONS
from verify_perceptron.run import kernel as _kernel

needs_kernel = pytest.mark.skipif(not _kernel.AVAILABLE or _kernel.limb_pass is None,
                                  reason=f"the C kernel is not built: {_kernel.IMPORT_ERROR}")


def _scan() -> Any:
    return importlib.import_module("verify_perceptron.run._scan")


def _edges(n: int, seed: int, m: int = 6) -> tuple[Any, Any]:
    """n x m (m >= 6) binary floats at the edges the rows meet: negatives, +0.0 and -0.0, powers of two, full mantissas,
    values from 2^-400 to 2^70 (numerators up to 471 bits, below the filter's 2^480), and random labels."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, m)) * 2.0 ** rng.integers(-60, 60, size=(n, m))
    X[0, :6] = [0.0, -0.0, 2.0**-400, -(2.0**70), 1 + 2.0**-52, -(1 + 2.0**-52)]
    X[1] = -0.0
    X[2, :6] = [2.0**70 - 2.0**18, -(2.0**-400), 3 * 2.0**-399, 0.5, -0.5, np.nextafter(1.0, 2.0)]
    X[3:, 0] = np.where(rng.random(n - 3) < 0.3, -0.0, X[3:, 0])
    return X, np.where(rng.random(n) < 0.5, 1, -1)


def _matrix(X: Any, y: Any, convention: str) -> ExactMatrix:
    data = from_arrays(X, y)
    assert data.limbs is not None
    data.binary_rows = BinaryRows.of(X, data.denominator)
    return sample_matrix(data, CONVENTIONS[convention])


@needs_kernel
@pytest.mark.parametrize("convention", ["classic", "unit-ball", "sum-norm"])  # bias first; last; -1 last
@pytest.mark.parametrize("m", [6, 10, 13])  # rows of 7, 11, 14: a block of four and a tail; eight and a tail; ...
def test_the_rows_made_from_x_are_the_nearest_doubles_of_the_samples_bit_for_bit(convention: str, m: int) -> None:
    X, y = _edges(3000, 5, m)
    matrix = _matrix(X, y, convention)
    rows = matrix.float_source
    assert isinstance(rows, FilterRows) and rows.alive
    n, d = matrix.shape
    assert matrix.held is not None
    copy = matrix.held.doubles()  # each entry's integer rounded once (limb_doubles): the copy the filter read
    exact = matrix.exact  # (Python integers)
    assert all(copy[i].tolist() == [float(v) for v in exact[i]] for i in (0, 1, 2, 1234, n - 1))
    numpy_rows = np.concatenate([rows[lo:lo + 700] for lo in range(0, n, 700)])
    made, from_copy = np.empty((n, d)), np.empty((n, d))
    w = np.random.default_rng(9).standard_normal(d) * 2.0**-300
    w[::3] = 0.0  # zeros against -0.0 entries
    dots, copy_dots = np.empty(n), np.empty(n)
    _scan().filter_rows((rows.c_form(), np.ones(n)), made, w, dots)
    _scan().filter_rows((copy, np.ones(n)), from_copy, w, copy_dots)  # the pass's score on the float copy
    assert numpy_rows.tobytes() == copy.tobytes() and made.tobytes() == copy.tobytes()  # -0.0 is not +0.0 here
    assert from_copy.tobytes() == copy.tobytes() and dots.tobytes() == copy_dots.tobytes()  # the same sums
    for k in range(d):  # one weight alone: each entry's product, wherever the bias is
        w1 = np.zeros(d)
        w1[k] = 1.0
        _scan().filter_rows((rows.c_form(), np.ones(n)), made, w1, dots)
        _scan().filter_rows((copy, np.ones(n)), from_copy, w1, copy_dots)
        assert dots.tobytes() == copy_dots.tobytes()
    assert not np.signbit(made[1][made[1] == 0]).any()  # the -0.0s of X as +0.0
    assert matrix.float_rows(17, 29).tobytes() == copy[17:29].tobytes() and matrix._approximate is None
    F, shift = matrix.filter_floats()
    assert F is rows and shift == 0


@needs_kernel
def test_the_rows_are_refused_where_they_could_not_be_the_nearest_doubles() -> None:
    X, y = _edges(40, 6)
    assert BinaryRows.of(X.astype(np.float32), 8) is None and BinaryRows.of(np.asfortranarray(X), 8) is None
    assert BinaryRows.of(X, 3 * 2**10) is None and BinaryRows.of(X, 2**1024) is None
    wide = X.copy()
    wide[0, 0] = 2.0**200  # numerators of 600 bits over 2^400: past 2^480, some not doubles
    assert _matrix(wide, y, "classic").float_source is None
    tiny = X.copy()
    tiny[0, 0] = 5e-324  # a subnormal: its 2^1074 is no double
    assert from_arrays(tiny, y).denominator == 2**1074 and BinaryRows.of(tiny, 2**1074) is None
    source = BinaryRows(X, 2**400)
    rows = FilterRows(source, y, 2**400, 0)
    source.let_go()
    assert not rows.alive
    with pytest.raises(ValueError, match="let go"):
        rows.c_form()


@needs_kernel
def test_limb_pass_refuses_bad_rows_naming_them() -> None:
    X, y = _edges(5, 7)
    out, radius, w, dots = np.empty((5, 7)), np.ones(5), np.ones(7), np.empty(5)
    good = (X, y.astype(np.int64), 2.0**400, 1.0, 0)
    _scan().filter_rows((good, radius), out, w, dots)
    bad: list[tuple[Any, type[Exception], str]] = [
        ((X, y.astype(np.int64), 3.0, 1.0, 0), ValueError, "scale=3.0"),
        ((X, y.astype(np.int64), 0.0, 1.0, 0), ValueError, "scale=0.0"),
        ((X, y.astype(np.int64), float("inf"), 1.0, 0), ValueError, "scale=inf"),
        ((X, y.astype(np.int64), 2.0**400, float("nan"), 0), ValueError, "bias=nan"),
        ((X, y.astype(np.int64), 2.0**400, 1.0, 3), ValueError, "must be 0 or 6, got 3"),
        ((np.ascontiguousarray(X[:, :5]), y.astype(np.int64), 2.0**400, 1.0, 0), ValueError, r"X must be \(5, 6\)"),
        ((X[:4], y.astype(np.int64), 2.0**400, 1.0, 0), ValueError, r"X must be \(5, 6\)"),
        ((X.astype(np.float32), y.astype(np.int64), 2.0**400, 1.0, 0), TypeError, "X must hold float64"),
        ((np.asfortranarray(X), y.astype(np.int64), 2.0**400, 1.0, 0), ValueError, "X must be C-contiguous"),
        ((X, y.astype(np.int32), 2.0**400, 1.0, 0), TypeError, "y must hold int64"),
        ((X, y[:4].astype(np.int64), 2.0**400, 1.0, 0), ValueError, r"y \(4,\)"),
        ((X, y.astype(np.int64), 2.0**400), TypeError, r"\(X, y, scale, bias, column\)"),
        ((X, y.astype(np.int64), "2", 1.0, 0), TypeError, r"\(X, y, scale, bias, column\)"),
    ]
    for rows, error, words in bad:
        with pytest.raises(error, match=words):
            _scan().filter_rows((rows, radius), out, w, dots)
    with pytest.raises(ValueError, match="radius"):
        _scan().filter_rows((good, radius[:4]), out, w, dots)
    with pytest.raises(ValueError, match="w must have 7 entries"):
        _scan().filter_rows((good, radius), out, w[:6], dots)


def _randn(n: int, seed: int = 11) -> tuple[Any, Any]:
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n, 10)), np.where(rng.random(n) < 0.5, 1, -1)


@pytest.fixture(autouse=True)
def _every_x_lent(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests' fits (2,000 rows or so) lend X as one of `MIN_CELLS` cells would."""
    monkeypatch.setattr(float_source, "MIN_CELLS", 0)


@needs_kernel
def test_a_small_x_is_not_lent_the_copy_is_quicker(monkeypatch: pytest.MonkeyPatch) -> None:
    # breast cancer standardized's limb pass took 9.0 ms reading X against 5.6 ms on the float copy (1,000 epochs)
    monkeypatch.setattr(float_source, "MIN_CELLS", 2**17)
    lent: list[BinaryRows | None] = []
    of = BinaryRows.lent

    def kept(cls: type[BinaryRows], X: Any, denominator: int) -> BinaryRows | None:
        lent.append(of.__func__(cls, X, denominator))  # type: ignore[attr-defined]
        return lent[-1]

    monkeypatch.setattr(BinaryRows, "lent", classmethod(kept))
    X, y = _randn(2000)
    answers = _fitted(X, y)
    assert lent == [None]
    monkeypatch.setattr(float_source, "MIN_CELLS", 0)
    assert _fitted(X, y) == answers and lent[-1] is not None


def _fitted(X: Any, y: Any) -> tuple[Any, ...]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est = ExactPerceptron(max_epochs=20).fit(X, y)
    assert est.verification_ is not None
    return est.coef_exact_, est.intercept_exact_, est.n_updates_, est.n_iter_, est.verification_.json


@needs_kernel
def test_a_fit_reads_the_filter_rows_from_x_without_a_float_copy_and_answers_as_with_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    X, y = _randn(3000)
    before = X.copy()
    callers: list[str] = []
    whole = ExactMatrix.approximate

    def approximate(self: ExactMatrix) -> tuple[Any, int]:
        callers.append(sys._getframe(1).f_code.co_filename)
        return whole(self)

    read: list[int] = []
    c_form = FilterRows.c_form

    def counted(self: FilterRows) -> tuple[Any, Any, float, float, int]:
        read.append(1)
        return c_form(self)

    made: list[BinaryRows | None] = []
    of = BinaryRows.of

    def kept(cls: type[BinaryRows], X: Any, denominator: int) -> BinaryRows | None:
        made.append(of(X, denominator))
        return made[-1]

    monkeypatch.setattr(ExactMatrix, "approximate", approximate)
    monkeypatch.setattr(FilterRows, "c_form", counted)
    monkeypatch.setattr(BinaryRows, "of", classmethod(kept))
    answers = _fitted(X, y)
    assert read and made and made[0] is not None  # the C pass read the rows from X
    # neither the run (its filter) nor best_reference after it made the float copy: only the separability
    # decision, made in this process at this size (a forked worker's at 10^5 rows and more)
    assert all("/certify/" in c for c in callers)
    assert all(rows is None or rows.X is None for rows in made)  # let go with the fit
    assert X.tobytes() == before.tobytes() and X.flags.writeable  # never written
    monkeypatch.setattr(BinaryRows, "of", classmethod(lambda cls, X, p: None))  # the float copy, as before
    assert _fitted(X, y) == answers


@needs_kernel
def test_a_model_does_not_change_when_its_user_changes_x_after_the_fit() -> None:
    X, y = _randn(2000, seed=12)
    kept = X.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est = ExactPerceptron(max_epochs=20).fit(X, y)
        X[:] = -X[::-1]  # the user's array changed after the fit, before its report is read
        assert est.verification_ is not None
        report = est.verification_.json
    coef, intercept, updates, _, json = _fitted(kept, y)
    assert (est.coef_exact_, est.intercept_exact_, est.n_updates_, report) == (coef, intercept, updates, json)


@needs_kernel
@pytest.mark.parametrize("kind", ["fortran", "strided", "float32"])
def test_x_the_rows_cannot_be_read_from_gives_the_same_answers_through_the_copy(
        kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    X, y = _randn(1500, seed=13)
    if kind == "float32":  # (spread over 2^±40: numerators past int64, held in limbs, as float64's)
        X = (X * 2.0 ** np.random.default_rng(14).integers(-40, 40, size=X.shape)).astype(np.float32)
    same = np.ascontiguousarray(X, dtype=np.float64)
    given = {"fortran": np.asfortranarray(X), "strided": np.repeat(X, 2, axis=1)[:, ::2], "float32": X}[kind]
    made: list[FilterRows | None] = []
    of = float_source.FilterRows.of

    def kept(cls: type[FilterRows], *args: Any) -> FilterRows | None:
        made.append(of(*args))
        return made[-1]

    monkeypatch.setattr(float_source.FilterRows, "of", classmethod(kept))
    answers = _fitted(given, y)
    assert made and all(rows is None for rows in made)
    made.clear()
    assert _fitted(same, y) == answers and any(rows is not None for rows in made)


@needs_kernel
@pytest.mark.parametrize("convention", ["classic", "unit-ball"])
def test_w_float_copy_kept_from_rows_made_from_x_is_the_one_kept_from_the_copy(convention: str) -> None:
    # The limb pass adds each update's row to W's float copy (drift_step): from X it adds y_i·(x_ij·2^p) as it
    # makes it, without the row's "+ 0.0"; the copy, its bound and the threshold must be the copy's, bit for bit.
    from verify_perceptron.run import _limbs

    X, y = _randn(3000, seed=15)  # (of these, the first 15 rows)
    X[0, 3], X[1, :] = 0.0, -0.0
    matrix = _matrix(X, y, convention)
    assert matrix.limbs is not None and matrix.limbs.shape[2] == 2 and isinstance(matrix.float_source, FilterRows)
    assert matrix.held is not None
    d = matrix.shape[1]
    W = [int(v) for v in np.random.default_rng(16).integers(-2**40, 2**40, size=d)]
    W = [v << 60 for v in W]
    W[2] = 0
    radius = np.linspace(1.0, 2.0, 15)
    traces = []
    x, labels, *rest = matrix.float_source.c_form()
    for rows in (matrix.held.doubles()[:15], (x[:15], labels[:15], *rest)):
        out = np.zeros((16, d + 3))
        _scan().float_copy_trace(np.ascontiguousarray(matrix.limbs[:15]), _limbs.limbs_of(W, 2), rows, radius,
                                 _limbs.limbs_of([sum(v * v for v in W)], 5)[0], out)
        traces.append(out)
    assert traces[0].tobytes() == traces[1].tobytes() and np.count_nonzero(traces[0][:, :d]) > 0
