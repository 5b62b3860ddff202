"""The max-margin separator is certified optimal, agrees with a brute force over support sets, and
the optimality checker rejects every wrong certificate."""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.data_strategies import halves as datasets
from verify_perceptron.certify import _activeset, _constraints, _fraction_free
from verify_perceptron.certify.certificates import gordan_defect
from verify_perceptron.data.dataset import Dataset, from_arrays
from verify_perceptron.errors import InvalidArgument
from verify_perceptron.data.examples import example
from verify_perceptron.certify.maxmargin import max_margin, max_margin_free_bias, optimality_defect
from verify_perceptron.certify.separability import augmented_rows, separator_defect

F = Fraction
Vector = tuple[Fraction, ...]


# --- an independent brute force: every candidate support set, solved as equalities ----------------


def solve_linear(matrix: Sequence[Sequence[Fraction]], rhs: Sequence[Fraction]) -> list[Fraction] | None:
    """The unique solution of a square rational system, or None when the matrix is singular."""
    n = len(matrix)
    rows = [list(r) + [b] for r, b in zip(matrix, rhs)]
    for col in range(n):
        pivot = next((r for r in range(col, n) if rows[r][col] != 0), None)
        if pivot is None:
            return None
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col])]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def feasible(data: Dataset, w: Sequence[Fraction]) -> bool:
    return all(y * (w[0] + sum(v * x for v, x in zip(w[1:], xs))) >= 1 for xs, y in zip(data.X, data.y))


def brute_force_augmented(data: Dataset) -> tuple[Fraction, Vector] | None:
    """min b² + ‖v‖² over y_i·(v·x_i + b) >= 1, by trying every set S of tight samples.

    The optimum is the least-norm point of {w : a_i·w = 1, i ∈ S} for its own tight set S
    (w = A_Sᵀ·t with A_S·A_Sᵀ·t = 1), so it is the smallest feasible such point.
    """
    a = [tuple(y * v for v in (F(1), *x)) for x, y in zip(data.X, data.y)]
    best = None
    for size in range(1, data.n_features + 2):
        for S in itertools.combinations(range(data.n_samples), size):
            gram = [[sum((p * q for p, q in zip(a[i], a[j])), F(0)) for j in S] for i in S]
            t = solve_linear(gram, [F(1)] * size)
            if t is None:
                continue
            w = tuple(sum((tk * a[i][c] for tk, i in zip(t, S)), F(0)) for c in range(data.n_features + 1))
            if feasible(data, w):
                norm = sum((v * v for v in w), F(0))
                if best is None or norm < best[0]:
                    best = (norm, w)
    return best


def brute_force_free_bias(data: Dataset) -> tuple[Fraction, Vector] | None:
    """min ‖v‖² over y_i·(v·x_i + b) >= 1, b free, by solving the KKT equalities on every set S:

        v - Σ_S α_i·y_i·x_i = 0,   Σ_S α_i·y_i = 0,   y_i·(v·x_i + b) = 1 (i ∈ S).
    """
    m = data.n_features
    best = None
    for size in range(1, m + 2):
        for S in itertools.combinations(range(data.n_samples), size):
            k = len(S)
            n_unknowns = m + 1 + k  # v, b, α_S
            matrix: list[list[Fraction]] = []
            for c in range(m):
                row = [F(int(c == j)) for j in range(m)] + [F(0)] + [-data.y[i] * data.X[i][c] for i in S]
                matrix.append(row)
            matrix.append([F(0)] * (m + 1) + [F(-data.y[i]) for i in S])
            for i in S:
                matrix.append([data.y[i] * xc for xc in data.X[i]] + [F(data.y[i])] + [F(0)] * k)
            assert all(len(r) == n_unknowns for r in matrix)
            solution = solve_linear(matrix, [F(0)] * (m + 1) + [F(1)] * k)
            if solution is None:
                continue
            w = (solution[m], *solution[:m])
            if feasible(data, w):
                norm = sum((v * v for v in solution[:m]), F(0))
                if best is None or norm < best[0]:
                    best = (norm, w)
    return best


#: Three points where the two problems differ: the free bias buys a larger margin ρ with a larger bias.
TILTED = from_arrays([[0, 2], [-1, 3], [2, -2]], [1, 0, 1])


# --- the notes' examples ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "weights", "norm_sq", "support", "multipliers"),
    [
        ("and", (-3, 2, 2), 17, (1, 2, 3), (5, 5, 7)),
        ("or", (-1, 2, 2), 9, (0, 1, 2), (5, 2, 2)),
        ("modified-or", (1, 1, 1), 3, (0, 1, 2), (1, 1, 1)),
    ],
)
def test_notes_examples_have_the_certified_optimum(
    name: str, weights: tuple[int, ...], norm_sq: int, support: tuple[int, ...], multipliers: tuple[int, ...]
) -> None:
    data = example(name)
    result = max_margin(data)
    assert result.certified and result.problem is None
    assert result.weights == tuple(F(v) for v in weights)
    assert result.norm_sq == norm_sq == sum(result.multipliers)  # Σ α_i = ‖w‖² at the optimum
    assert (result.support, result.multipliers) == (support, tuple(F(a) for a in multipliers))
    assert brute_force_augmented(data) == (result.norm_sq, result.weights)
    assert optimality_defect(data, result.weights, result.support, result.multipliers) is None


@pytest.mark.parametrize("name", ["and", "or", "modified-or"])
def test_notes_examples_free_bias_optimum_matches_brute_force(name: str) -> None:
    data = example(name)
    result = max_margin_free_bias(data)
    assert result.certified
    assert brute_force_free_bias(data) == (result.norm_sq, result.weights)
    assert result.weights == max_margin(data).weights  # symmetric examples: the two problems agree


def test_free_bias_and_augmented_optima_differ_on_tilted_data() -> None:
    augmented, free = max_margin(TILTED), max_margin_free_bias(TILTED)
    assert augmented.weights == (F(1), F(2), F(0)) and augmented.norm_sq == 5
    assert free.weights == (F(3), F(1), F(-1)) and free.norm_sq == 2
    assert brute_force_augmented(TILTED) == (F(5), augmented.weights)
    assert brute_force_free_bias(TILTED) == (F(2), free.weights)
    assert optimality_defect(TILTED, free.weights, free.support, free.multipliers, free_bias=True) is None


def test_xor_has_no_max_margin_separator_and_says_why() -> None:
    for solve in (max_margin, max_margin_free_bias):
        result = solve(example("xor"), time_limit=10)
        assert not result.certified and result.weights is None
        assert result.problem == "not separable: no separator exists"
        assert result.separability.separable is False
        assert gordan_defect(example("xor"), result.separability.gordan) is None  # type: ignore[arg-type]


def test_same_point_under_both_labels_has_no_max_margin_separator() -> None:
    data = Dataset(X=((F(1), F(2)), (F(0), F(0)), (F(1), F(2))), y=(1, 1, -1))
    for solve in (max_margin, max_margin_free_bias):
        result = solve(data, time_limit=10)
        assert result.separability.separable is False
        assert result.separability.gordan == (F(1, 2), F(0), F(1, 2))


# --- agreement with the brute force on random data -------------------------------------------------


@given(datasets())
def test_augmented_optimum_matches_brute_force(data: Dataset) -> None:
    result = max_margin(data)
    expected = brute_force_augmented(data)
    if expected is None:
        assert result.separability.separable is False and not result.certified
    else:
        assert result.certified
        assert (result.norm_sq, result.weights) == expected
        assert result.norm_sq == sum(result.multipliers)


@given(datasets())
def test_free_bias_optimum_matches_brute_force(data: Dataset) -> None:
    result = max_margin_free_bias(data)
    expected = brute_force_free_bias(data)
    if expected is None:
        assert result.separability.separable is False and not result.certified
    else:
        assert result.certified
        assert (result.norm_sq, result.weights) == expected
        assert result.norm_sq == sum(result.multipliers)  # ‖v‖² = Σ α_i here too


@given(datasets(max_samples=8, max_features=3))
def test_exact_run_from_nothing_equals_run_from_the_float_proposal(data: Dataset) -> None:
    constraints = _constraints.explicit_rows(augmented_rows(data))
    cold = _activeset.run(constraints, exact=True)
    warm = _activeset.solve(constraints).exact
    assert (cold.status, cold.x) == (warm.status, warm.x)


def test_exact_method_alone_decides_when_floats_overflow() -> None:
    big = F(10) ** 400
    data = Dataset(X=tuple(tuple(v * big for v in x) for x in example("and").X), y=example("and").y)
    result = max_margin(data)
    assert result.certified and result.weights == (F(-3), 2 / big, 2 / big)
    assert max_margin_free_bias(data).weights == (F(-3), 2 / big, 2 / big)


# --- the optimality checker rejects what is false --------------------------------------------------

AND = example("and")
W_AND = (F(-3), F(2), F(2))


def test_checker_accepts_the_true_certificate() -> None:
    assert optimality_defect(AND, W_AND, (1, 2, 3), (F(5), F(5), F(7))) is None


def test_checker_rejects_multipliers_that_break_stationarity() -> None:
    assert (
        optimality_defect(AND, W_AND, (1, 2, 3), (F(5), F(5), F(6)))
        == "stationarity fails: w = [-3, 2, 2] but Σ α_i·y_i·x~_i = [-4, 1, 1]"
    )


def test_checker_rejects_a_negative_multiplier() -> None:
    assert optimality_defect(AND, W_AND, (1, 2, 3), (F(5), F(-5), F(7))) == "α_2 = -5 < 0: dual feasibility fails"


def test_checker_rejects_a_separator_that_misses_one_point() -> None:
    # Half of the optimum with half the multipliers: stationary, but every margin is 1/2.
    half = tuple(v / 2 for v in W_AND)
    assert (
        optimality_defect(AND, half, (1, 2, 3), (F(5, 2), F(5, 2), F(7, 2)))
        == "primal feasibility fails: y_1·w·x~_1 = 1/2 < 1 (sample 1)"
    )


def test_checker_rejects_a_multiplier_on_a_sample_that_is_not_tight() -> None:
    # On AND the rows a_i = y_i·x~_i satisfy a_0 = a_1 + a_2 + a_3, so α = (1, 4, 4, 6) gives the same
    # w = (-3, 2, 2) as the true (0, 5, 5, 7): stationary, feasible, nonnegative, but it puts weight
    # on sample 0, whose margin is 3.
    assert (
        optimality_defect(AND, W_AND, (0, 1, 2, 3), (F(1), F(4), F(4), F(6)))
        == "complementary slackness fails: α_0 = 1 > 0 but y_0·w·x~_0 = 3, not 1"
    )


def test_checker_rejects_free_bias_multipliers_that_do_not_balance_the_classes() -> None:
    assert (
        optimality_defect(AND, W_AND, (1, 2, 3), (F(5), F(5), F(7)), free_bias=True)
        == "stationarity in b fails: Σ α_i·y_i = -3, not 0"
    )
    free = max_margin_free_bias(AND)
    assert (free.support, free.multipliers) == ((1, 2, 3), (F(2), F(2), F(4)))
    assert optimality_defect(AND, W_AND, free.support, free.multipliers, free_bias=True) is None
    assert optimality_defect(AND, W_AND, free.support, free.multipliers) is not None  # not augmented-optimal multipliers


def test_checker_rejects_free_bias_multipliers_whose_combination_is_not_v() -> None:
    # balanced (Σ α_i·y_i = 0) but Σ α_i·y_i·x_i = (2, 2): each vector shown exactly, 5/2 as a fraction
    free = max_margin_free_bias(AND)
    assert (
        optimality_defect(AND, (F(-3), F(2), F(5, 2)), free.support, free.multipliers, free_bias=True)
        == "stationarity fails: v = [2, 5/2] but Σ α_i·y_i·x_i = [2, 2]"
    )


@pytest.mark.parametrize(
    ("weights", "support", "multipliers", "message"),
    [
        (W_AND[:2], (1,), (F(1),), "w has 2 entries; (b, v1..v2) needs 3"),
        (W_AND, (1, 2), (F(1),), "2 support indices but 1 multipliers"),
        (W_AND, (1, 1), (F(1), F(1)), "support [1, 1] repeats an index"),
        (W_AND, (4,), (F(1),), "support index 4 is not a sample (0..3)"),
    ],
)
def test_checker_rejects_malformed_certificates(
    weights: Vector, support: tuple[int, ...], multipliers: tuple[Fraction, ...], message: str
) -> None:
    assert optimality_defect(AND, weights, support, multipliers) == message


# --- running out of time degrades to a verified separator, never called optimal --------------------


def test_time_limit_falls_back_to_the_best_verified_candidate() -> None:
    result = max_margin(AND, time_limit=1e-9, candidates=[(-4, 3, 2), (1, 1, 1)])
    if not result.certified:  # a fast machine may still finish in the first step
        assert result.weights == (F(-4), F(3), F(2)) and result.norm_sq == 29
        assert result.support == () and result.multipliers == ()
        assert result.problem is not None and "not shown optimal" in result.problem
        assert result.separability.separable is True
        assert separator_defect(AND, result.weights) is None


def test_time_limit_without_candidates_is_honest() -> None:
    result = max_margin_free_bias(AND, time_limit=1e-9)
    if not result.certified:
        assert result.problem is not None
        if result.weights is not None:
            assert separator_defect(AND, result.weights) is None


def test_candidates_are_checked_for_length() -> None:
    with pytest.raises(InvalidArgument, match=r"^candidates\[0\] has 2 values; \(b, v1\.\.v2\) needs 3$"):
        max_margin(AND, candidates=[(1, 2)])


def test_as_dict_is_json_with_exact_strings() -> None:
    assert json.loads(json.dumps(max_margin(TILTED).as_dict())) == {
        "kind": "augmented",
        "certified": True,
        "weights": ["1", "2", "0"],
        "norm_sq": "5",
        "support": [0, 1],
        "multipliers": ["3", "2"],
        "problem": None,
    }
    assert max_margin(TILTED).margin_sq == F(1, 5)


# --- real data shipped in a package (optional: scikit-learn) ---------------------------------------


def iris(first: int, second: int) -> Dataset:
    """Two iris classes, each value the decimal the data file prints (5.1 is 51/10)."""
    sklearn_datasets = pytest.importorskip("sklearn.datasets")
    bunch = sklearn_datasets.load_iris()
    rows = [[repr(float(v)) for v in x] for x, t in zip(bunch.data, bunch.target) if t in (first, second)]
    labels = [int(t == second) for t in bunch.target if t in (first, second)]
    return from_arrays(rows, labels, source=f"iris {first} vs {second}")


def test_iris_setosa_vs_versicolor_max_margin_is_certified() -> None:
    data = iris(0, 1)
    for solve, free_bias in ((max_margin, False), (max_margin_free_bias, True)):
        result = solve(data, time_limit=60)
        assert result.certified and result.weights is not None
        assert optimality_defect(data, result.weights, result.support, result.multipliers, free_bias=free_bias) is None
        assert result.norm_sq == sum(result.multipliers)


def test_iris_versicolor_vs_virginica_has_no_max_margin_separator() -> None:
    data = iris(1, 2)
    result = max_margin(data, time_limit=60)
    assert not result.certified and result.separability.separable is False
    assert gordan_defect(data, result.separability.gordan) is None  # type: ignore[arg-type]


def test_a_warm_start_that_moves_on_makes_its_inverse_then(monkeypatch):
    # Start the exact run from a wrong active set that is dual feasible: it must move on, so G⁻¹ is made.
    made = []
    inverse = _fraction_free.inverse

    def counted(*a, **k):
        made.append(1)
        return inverse(*a, **k)

    monkeypatch.setattr(_fraction_free, "inverse", counted)
    rows = _constraints.explicit_rows([(F(1), F(0)), (F(0), F(1)), (F(1), F(1))])
    cold = _activeset.run(rows, exact=True)
    warm = _activeset.run(rows, exact=True, start=(0,))
    assert (warm.status, warm.x) == (cold.status, cold.x) and made


def test_a_warm_start_at_the_optimum_makes_no_fraction_rows(monkeypatch):
    rows = _constraints.explicit_rows([(F(1), F(0)), (F(0), F(1)), (F(1), F(1))])
    exact_rows = []
    row = type(rows).row

    def counted(self, key, exact):
        exact_rows.extend([key] if exact else [])
        return row(self, key, exact)

    monkeypatch.setattr(type(rows), "row", counted)
    warm = _activeset.run(rows, exact=True, start=(0, 1))  # w = (1, 1): the optimum, with rows 0 and 1 active
    assert (warm.status, warm.x, warm.active) == ("optimal", (F(1), F(1)), (0, 1)) and exact_rows == []
    moved = _activeset.run(rows, exact=True, start=(0,))  # moves on: row 0 made a Fraction row then, row 1 too
    assert moved.x == warm.x and 0 in exact_rows


@pytest.mark.parametrize("status, solves", [("optimal", 1), ("time-limit", 2)])
def test_deciding_separability_then_the_max_margin_solves_once_unless_time_ran_out(monkeypatch, status, solves):
    from verify_perceptron.certify import separability

    made = []
    real = _activeset.solve  # the name separability calls

    def counted(cons, *, deadline=None):
        made.append(1)
        solution = real(cons, deadline=deadline)
        if status == "optimal":
            return solution
        return _activeset.Solution(_activeset.Outcome(status, *[getattr(solution.exact, f) for f in (
            "x", "active", "multipliers", "combination", "n_iterations")]), None)

    monkeypatch.setattr(separability, "solve", counted)
    monkeypatch.setattr(separability, "nnls_solution", lambda cons, deadline: None)  # every solve through `solve`
    data = example("and")
    first = separability.decide_separability(data)
    best = max_margin(data)
    assert len(made) == solves
    assert first.separable is (True if status == "optimal" else None) and best.certified is (status == "optimal")


@given(datasets(), st.integers(0, 2), st.fractions(-2, 2, max_denominator=7).filter(lambda v: v != 0))
def test_the_optimality_check_takes_a_certified_optimum_and_refuses_it_changed(data, which, change):
    # The check sums in integers over common denominators; a changed weight, multiplier or support must fail it.
    result = max_margin(data)
    if not result.certified:
        return
    assert result.weights is not None  # a certified optimum has its weights
    w, support, alphas = list(result.weights), list(result.support), list(result.multipliers)
    assert optimality_defect(data, w, support, alphas) is None
    if which == 0:
        w[len(w) - 1] += change
    elif which == 1:
        alphas[0] += change
    else:
        spare = [i for i in range(data.n_samples) if i not in support]
        if not spare:
            return
        support, alphas = [*support, spare[0]], [*alphas, abs(change)]
    assert optimality_defect(data, w, support, alphas) is not None


def _held_in_limbs(data: Dataset) -> Dataset:
    """`data` with its first value moved by 2^-70: numerators past int64, held in limbs as binary floats are."""
    import numpy as np

    from verify_perceptron.data.integers import as_limbs

    N = np.array(data.numerators.tolist(), dtype=object) * 2**70
    N[0, 0] += 1
    n, m = N.shape
    held = Dataset(limbs=as_limbs(N.reshape(-1), 3).reshape(n, m, 3), denominator=data.denominator * 2**70,
                   y=data.y)
    assert held.limbs is not None
    return held


@pytest.mark.parametrize("name", ["and", "or"])
def test_the_optimality_check_on_data_held_in_limbs_takes_the_optimum_and_refuses_it_changed(name: str) -> None:
    data = _held_in_limbs(example(name))
    result = max_margin(data)
    assert result.certified and result.weights is not None
    w, support, alphas = list(result.weights), list(result.support), list(result.multipliers)
    assert optimality_defect(data, w, support, alphas) is None
    assert optimality_defect(data, w[:-1] + [w[-1] + Fraction(1, 3)], support, alphas) is not None
    assert optimality_defect(data, w, support, [alphas[0] + Fraction(1, 5), *alphas[1:]]) is not None
    assert optimality_defect(data, w, support[::-1], alphas) is not None  # each multiplier with its own row


# --- the first step from a warm start in integers (`_activeset._gordan_from_start`) ---------------


def _outcomes_from_every_start(constraints: _activeset.Constraints, n_rows: int, dim: int) -> list[_activeset.Outcome]:
    starts = [S for size in range(1, dim + 1) for S in itertools.combinations(range(n_rows), size)]
    return [_activeset.run(constraints, exact=True, start=S, cold=False) for S in starts]


@given(datasets(max_samples=6, max_features=2))
def test_the_first_step_in_integers_ends_as_the_step_in_fractions_from_every_start(data: Dataset) -> None:
    constraints = _constraints.explicit_rows(augmented_rows(data))
    fast = _outcomes_from_every_start(constraints, data.n_samples, constraints.dim)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_activeset, "_gordan_from_start", lambda *args: None)
        slow = _outcomes_from_every_start(constraints, data.n_samples, constraints.dim)
    assert fast == slow


def test_iris_versicolor_virginica_ends_in_the_first_step_in_integers(monkeypatch: pytest.MonkeyPatch) -> None:
    constraints = _constraints.augmented_constraints(iris(1, 2))
    inverses = []
    inverse = _fraction_free.inverse

    def counted(*args: Any, **kwargs: Any) -> Any:
        inverses.append(1)
        return inverse(*args, **kwargs)

    monkeypatch.setattr(_fraction_free, "inverse", counted)
    fast = _activeset.solve(constraints).exact
    assert (fast.status, fast.n_iterations, inverses) == ("infeasible", 1, [])  # no G⁻¹, no Fraction rows
    monkeypatch.setattr(_activeset, "_gordan_from_start", lambda *args: None)
    assert _activeset.solve(constraints).exact == fast and inverses
