"""`verify`'s peak at 10^5 x 10 (issue 32, item 3): the checker's replay and the soft-margin check read w*'s margins
and the norms in their own fewest limbs, not in K-limb copies nor as squared Python integers.

Each test fails with the copy it catches put back; the answers are compared with the old path's (`==`, exact).
"""

from __future__ import annotations

import tracemalloc
from fractions import Fraction

import numpy as np
import pytest

from verify_perceptron.check import kernel as _kernel
from verify_perceptron.check import soft_squares
from verify_perceptron.check.checker import Checker
from verify_perceptron.check.limb_replay import LimbReplay
from verify_perceptron.check.separator import scaled_separator
from verify_perceptron.check.soft_chunk import taken
from verify_perceptron.check.soft_margin import SoftMarginCheck, soft_margin_check
from verify_perceptron.data.dataset import Dataset
from verify_perceptron.data.integers import ExactMatrix, as_limbs, score_values
from verify_perceptron.notes.claims import OPS

needs_wide = pytest.mark.skipif(_kernel.check_wide is None, reason="the C kernel is not built")
needs_squares = pytest.mark.skipif(_kernel.deficit_squares is None or not soft_squares._extended(),
                                   reason="the C squares or a 64-bit significand are missing")

#: check_wide's slots (`S_N` .. `S_W_WS` in check/_replay.c): step_sq is 6, sum_N_xsq 7, w_ws 10.
STEP_SQ, SUM_N_XSQ, W_WS = 6, 7, 10


def _replayed(norms: np.ndarray, margins: np.ndarray, rows: list[int], K: int = 3) -> tuple[list[int], list[int]]:
    """check_wide over updates on `rows` of zero samples (every score 0, a tie: each one a mistake) from W = 0:
    the state after them (its 7 values) and the least values of two claims, w_ws and step_sq."""
    check_wide = _kernel.check_wide
    assert check_wide is not None
    n, d = len(norms), 2
    program = np.array([OPS["quantity"], W_WS, OPS["end"], OPS["quantity"], STEP_SQ, OPS["end"]], dtype=np.int64)
    state = np.zeros((7, K), dtype=np.int64)
    best = np.zeros((2, K), dtype=np.int64)
    done, reason = check_wide(np.zeros((n, d), dtype=np.int64), np.zeros(d * K, dtype=np.int64),
                              np.zeros(n, dtype=np.int64), np.ones(n, dtype=bool), norms, margins,
                              np.array(rows, dtype=np.int64), np.zeros((len(rows), 1), dtype=np.int64), program,
                              np.zeros((11, K), dtype=np.int64), np.arange(11, dtype=np.int64), state,
                              np.ones(2, dtype=bool), best, np.zeros(2, dtype=np.int64))
    assert (done, reason) == (len(rows), 0)
    return [int(v) for v in score_values(state).tolist()], [int(v) for v in score_values(best).tolist()]


@needs_wide
@pytest.mark.parametrize("norm_limbs, margin_limbs", [(1, 1), (1, 2), (2, 1), (3, 3)])
def test_check_wide_reads_narrow_norms_and_margins_sign_extended(norm_limbs: int, margin_limbs: int) -> None:
    # Norms and margins in fewer limbs than K are read sign-extended: the sums over the updates are exact (the
    # negative margins' high limbs are all ones), the same as from K-limb copies of them.
    norms = [3, 2**62 + 7, 1, 2**63 - 1][:4] if norm_limbs == 1 else [3, 2**100 + 7, 1, 2**126]
    margins = [-5, 2**62, -(2**63), 9] if margin_limbs == 1 else [-5, -(2**100), 2**120 + 1, -(2**64)]
    rows = [0, 1, 2, 1, 3, 1, 0]
    state, best = _replayed(np.ascontiguousarray(as_limbs(np.array(norms, dtype=object), norm_limbs)),
                            np.ascontiguousarray(as_limbs(np.array(margins, dtype=object), margin_limbs)), rows)
    ws = [sum(margins[i] for i in rows[:t + 1]) for t in range(len(rows))]
    assert state[3] == ws[-1] and state[4] == sum(norms[i] for i in rows)  # (k, N, w_sq, w_ws, sum_N_xsq, ...)
    assert best == [min(ws), min(norms[i] for i in rows)]
    assert (state, best) == _replayed(as_limbs(np.array(norms, dtype=object), 3),
                                      as_limbs(np.array(margins, dtype=object), 3), rows)


@needs_wide
def test_check_wide_refuses_norms_or_margins_wider_than_k_or_of_no_limbs() -> None:
    one = np.zeros((4, 1), dtype=np.int64)
    for wrong in (np.zeros((4, 4), dtype=np.int64), np.zeros((4, 0), dtype=np.int64)):
        with pytest.raises(ValueError, match="norms has shape"):
            _replayed(wrong, one, [0])
        with pytest.raises(ValueError, match="margins has shape"):
            _replayed(one, wrong, [0])


def _grid(n: int, d: int, seed: int = 3) -> Dataset:
    """The scale grid's kind of data (int32 samples), labelled by a hyperplane."""
    rng = np.random.default_rng(seed)
    numerators = rng.choice([-1, 1], size=(n, d)) * rng.integers(1000, 10000, size=(n, d))
    y = np.where(numerators @ np.arange(1, d + 1) > 0, 1, -1)
    return Dataset(numerators=numerators, denominator=10**4, y=y)


@needs_wide
def test_the_replay_holds_norms_and_margins_in_their_own_fewest_limbs() -> None:
    # At K = 3 the replay held the int64 norms and w*'s 65-bit margins in 3 limbs each (0.27x the int64 data each
    # at 10^5 x 10); now the norms as they are (one limb, the matrix's own) and the margins in two.
    data = _grid(300, 4)
    big = 2**60  # w*'s margins past int64: about 2^60 · 10^4 · 10
    checker = Checker(data, "classic", rate=1, mode="online", separator=[0, big, 2 * big, 3 * big, 4 * big],
                      compiled=True)
    replay = checker._limb_replay()
    assert isinstance(replay, LimbReplay)
    arrays = replay._at(3)
    assert arrays is not None
    _, norms, margins, _ = arrays
    assert max(abs(int(v)) for v in checker.margins) >= 2**63
    assert norms.shape == (300, 1) and margins.shape == (300, 2), "K-limb copies of the norms or margins"
    assert score_values(norms).tolist() == [int(v) for v in checker.matrix.norms]
    assert score_values(margins).tolist() == [int(v) for v in checker.margins]


def _object_matrix(seed: int, n: int) -> ExactMatrix:
    """Samples as Python integers whose margins against the reference below pass int64 (as w*'s on the grid)."""
    rng = np.random.default_rng(seed)
    values = rng.integers(-10**6, 10**6, (n, 4)).astype(object) * (2**20)
    return ExactMatrix(values)


@needs_squares
def test_the_check_from_python_integer_margins_squares_them_in_limbs(monkeypatch: pytest.MonkeyPatch) -> None:
    # Margins given as Python integers (w*'s, the checker's, past int64) were squared into n more Python integers
    # (`SoftMargin.from_margins`), then cut into pieces; now cut into limbs and squared in C: the same check.
    matrix = _object_matrix(4, 4000)
    reference = [Fraction(3, 7), Fraction(-2 * 10**6), Fraction(5, 3), Fraction(10**7)]
    counts = np.random.default_rng(4).integers(0, 4, 4000)
    limbs = soft_margin_check(matrix, reference, L=1, source="s", counts=counts)
    assert not isinstance(limbs, str)
    assert limbs._whole is not None and len(limbs.bound.deficits_sq) == 0, "the squares were made Python integers"
    monkeypatch.setattr(soft_squares, "_from_ints", lambda margins, rho: None)  # the old path
    ints = soft_margin_check(_object_matrix(4, 4000), reference, L=1, source="s", counts=counts)
    assert not isinstance(ints, str) and len(ints.bound.deficits_sq) == 4000
    assert max(int(v) for v in ints.bound.deficits_sq) >= 2**62  # (squares past int64: where the path pays)
    assert (limbs.bound.rho, limbs.bound.R_sq, limbs.bound.u_sq) == (ints.bound.rho, ints.bound.R_sq, ints.bound.u_sq)
    assert limbs._sq_over_rho.tolist() == ints._sq_over_rho.tolist()
    assert taken(limbs._pieces, slice(None)).tolist() == ints._pieces.tolist() and limbs._whole == ints._whole
    rows = np.random.default_rng(5).integers(0, 4000, 12000)
    for check in (ints, limbs):
        check.observe_chunk(1, 1, rows)
    assert (limbs.N, limbs.D_sq, limbs.tightest, limbs.result.n_checked) == (
        ints.N, ints.D_sq, ints.tightest, ints.result.n_checked)
    assert limbs.finish()[1] == ints.finish()[1]


def _traced_peak(matrix: ExactMatrix, reference: list[Fraction]) -> tuple[int, SoftMarginCheck | str]:
    """The traced peak of `soft_margin_check` given u's margins (as the checker gives w*'s, which it keeps)."""
    W, M = scaled_separator(reference)
    margins = matrix.products(W, norm_sq=sum(v * v for v in W))
    tracemalloc.start()
    try:
        check = soft_margin_check(matrix, reference, L=3, source="s", scaled=(W, M, margins))
        return tracemalloc.get_traced_memory()[1], check
    finally:
        tracemalloc.stop()


@needs_squares
def test_python_integer_margins_are_squared_without_a_python_integer_a_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    # The traced peak of the check's making from margins held by its caller: the old path held the squares' n
    # Python integers (about 50 bytes each, and a pointer) beside their pieces.
    reference = [Fraction(1), Fraction(-2 * 10**6), Fraction(5, 3), Fraction(10**7)]
    peak, check = _traced_peak(_object_matrix(6, 20000), reference)
    assert not isinstance(check, str) and len(check.bound.deficits_sq) == 0
    monkeypatch.setattr(soft_squares, "_from_ints", lambda margins, rho: None)  # the old path
    old, _ = _traced_peak(_object_matrix(6, 20000), reference)
    assert peak < 0.85 * old, f"traced peaks {peak} and {old} bytes for 20,000 margins"


#: int64 margins at the edges: the most negative (d past 2^63), ρ − 1, ρ, ρ + 1, and d about 2^31 (d² about 2^62).
_EDGE_MARGINS = [-(2**63), -(2**63) + 1, 2**40 + 12344, 2**40 + 12345, 2**40 + 12346, 2**40 + 12345 - 2**31, 0]


@needs_squares
@pytest.mark.parametrize("rho", [2**40 + 12345, 2**63 - 1, 3])
def test_int64_margins_are_squared_in_c_as_one_limb_each(rho: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # The int64 margins' squares past int64 were made in NumPy a chunk of 2^16 at a time, through five arrays of
    # long doubles (16 bytes a sample each, whose freed heap then stayed resident); now in C (`limb_squares` on the
    # margins as one limb each, no copy): the same pieces, quotients, sum and count, correctly rounded both.
    rng = np.random.default_rng(rho % 1000)
    margins = np.concatenate([rng.integers(-(2**63), 2**63 - 1, 3000, dtype=np.int64),
                              rng.integers(-(2**33), 2**33, 3000), np.array(_EDGE_MARGINS, dtype=np.int64)])
    expected = soft_squares.int64_squares(margins, rho)
    assert expected is not None

    def refused(*args: object) -> None:
        raise AssertionError("the squares were made in NumPy")

    monkeypatch.setattr(soft_squares, "int64_squares", refused)
    got, left = soft_squares.exact_squares(margins, rho)
    assert got is not None and left is None
    assert taken(got.pieces, slice(None)).tolist() == expected.pieces.tolist()
    assert got.over_rho_sq.tolist() == expected.over_rho_sq.tolist()
    assert (got.total, got.short) == (expected.total, expected.short)
    rho_sq = rho * rho
    assert got.over_rho_sq.tolist() == [max(rho - m, 0) ** 2 / rho_sq for m in margins.tolist()]
    assert got.total == sum(max(rho - m, 0) ** 2 for m in margins.tolist())
