"""The five notes' mistake bounds, exactly: AND at w* = [-4, 3, 2], scale invariance, order, domain."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from verify_perceptron.notes.bounds import Geometry, geometry, note_bound, note_bounds
from verify_perceptron.check.traces import check_trace
from verify_perceptron.notes.conventions import CONVENTIONS
from verify_perceptron.data.dataset import Dataset
from verify_perceptron.errors import DataError
from verify_perceptron.run.reference import train
from verify_perceptron.data.examples import example

F = Fraction
AND_B, AND_V = F(-4), (F(3), F(2))


def and_geometry():
    return geometry(example("and"), AND_B, AND_V)


# ------------------------------------------------------------------------------------------------
# AND at w* = [-4, 3, 2]


def test_and_geometry_is_exact():
    g = and_geometry()
    # margins y·(3x1 + 2x2 - 4): 4, 2, 1, 1
    assert g.gamma == 1 and g.worst_sample == 2
    assert g.R_sq == 3  # max ‖(1, x)‖² at (1, 1)
    assert g.M_sq == 2
    assert g.beta == 1 + 2 + 2 + 3 == 8
    assert g.ws_sq == 16 + 9 + 4 == 29 and g.v_sq == 13 and g.b_sq == 16
    assert g.separates


def test_and_bounds_are_87_except_sum_norm_232():
    values = {b.convention: b.value for b in note_bounds(and_geometry())}
    assert values == {"classic": 87, "hard-limiter": 87, "hard-limiter-plus": 87, "unit-ball": 87, "sum-norm": 232,
                      "split-bias": 87}
    assert all(isinstance(v, Fraction) for v in values.values())


def test_and_bound_constants_are_exact():
    g = and_geometry()
    consts = {b.convention: dict(b.constants) for b in note_bounds(g)}
    assert consts["classic"] == {"γ": 1, "R²": 3, "‖w_opt‖²": 29}
    assert consts["hard-limiter"] == {"α": 1, "β²": 3, "‖w0‖²": 29}
    assert consts["unit-ball"] == {"γ²": F(1, 87)}
    assert consts["sum-norm"] == {"D²": F(1, 29), "β": 8}
    assert consts["split-bias"] == {"ρ²": F(1, 13), "α0*²": F(16, 13), "M²": 2}
    assert consts["hard-limiter-plus"] == consts["hard-limiter"]  # note 001's bound: the tie does not enter it
    assert [b.note[:3] for b in note_bounds(g)] == ["000", "001", "001", "002", "003", "004"]


def test_and_bounds_are_one_formula_after_normalisation():
    # Why four notes agree: each is R²·‖w*‖²/γ² once its normalisation is undone.
    g = and_geometry()
    classic = g.R_sq * g.ws_sq / g.gamma**2
    assert classic == 3 * 29 / 1 == 87
    # 002: rescale w* to unit length and x~ into the unit ball: γ' = γ/(R·‖w*‖); 1/γ'² = R²‖w*‖²/γ²
    unit_gamma_sq = g.gamma**2 / (g.R_sq * g.ws_sq)
    assert 1 / unit_gamma_sq == classic
    # 004: ‖α*‖ = 1 divides by ‖v‖: (α0² + 1)(1 + M²)/ρ² = (b² + ‖v‖²)/‖v‖² · R² · ‖v‖²/γ²
    rho_sq, a0_sq = g.gamma**2 / g.v_sq, g.b_sq / g.v_sq
    assert (a0_sq + 1) * (1 + g.M_sq) / rho_sq == classic
    assert 1 + g.M_sq == g.R_sq
    # 003 has the same shape with the sum β in place of the max R²: β·‖w*‖²/γ² = 8·29 = 232
    d_sq = g.gamma**2 / g.ws_sq
    assert g.beta / d_sq == g.beta * g.ws_sq / g.gamma**2 == 232
    assert note_bound("sum-norm", g).value == classic * g.beta / g.R_sq


def test_and_runs_stay_within_their_own_bound():
    data = example("and")
    g = and_geometry()
    for name in CONVENTIONS:
        trace = train(data, name)
        assert trace.n_mistakes <= note_bound(name, g).value
    assert train(data, "classic").n_mistakes == 18


def test_checker_reports_the_same_bounds_for_the_note_separator():
    data = example("and")
    result = check_trace(data, train(data, "classic"), separator=[-4, 3, 2])
    assert [b.value for b in result.bounds] == [87, 87, 87, 87, 232, 87]
    assert result.own_bound is not None
    assert result.own_bound.value == 87 and result.own_bound.convention == "classic"


# ------------------------------------------------------------------------------------------------
# domain


def test_non_separating_separator_raises_value_error():
    g = geometry(example("and"), F(1), (F(1), F(1)))
    assert g.gamma == -2 and not g.separates
    for name in CONVENTIONS:
        with pytest.raises(ValueError, match="does not separate"):
            note_bound(name, g)
    with pytest.raises(ValueError):
        note_bounds(g)


def test_separator_touching_a_sample_raises_value_error():
    g = geometry(example("and"), F(-4), (F(4), F(2)))  # the hard limiter's final weights: score 0 at (1, 0)
    assert g.gamma == 0 and not g.separates
    with pytest.raises(ValueError):
        note_bound("hard-limiter", g)


def test_unknown_convention_raises_value_error():
    with pytest.raises(ValueError, match="not one of"):
        note_bound("no-such-note", and_geometry())


def test_one_class_data_is_refused_and_a_bias_only_separator_has_no_note_004_bound():
    # One class is bad input (the perceptron needs two); and for a separator whose non-bias part
    # is 0, note 004's normalisation ‖α*‖ = 1 is impossible: a clear ValueError, not a crash.
    with pytest.raises(DataError, match="only one class"):
        Dataset(X=((F(0), F(0)),), y=(1,))
    g = Geometry(gamma=F(1), worst_sample=0, R_sq=F(1), M_sq=F(0), beta=F(1), ws_sq=F(1), v_sq=F(0), b_sq=F(1))
    with pytest.raises(ValueError, match="non-bias part is 0"):
        note_bound("split-bias", g)
    assert note_bound("classic", g).value == 1


# ------------------------------------------------------------------------------------------------
# properties


def small_rationals() -> st.SearchStrategy[Fraction]:
    return st.builds(Fraction, st.integers(-3, 3), st.integers(1, 3))


@st.composite
def separated(draw: st.DrawFn):
    dim = draw(st.integers(1, 3))
    n = draw(st.integers(2, 8))
    X = tuple(tuple(draw(small_rationals()) for _ in range(dim)) for _ in range(n))
    v = tuple(draw(small_rationals()) for _ in range(dim))
    scores = sorted({sum((a * b for a, b in zip(v, x)), F(0)) for x in X})
    assume(len(scores) >= 2)
    j = draw(st.integers(0, len(scores) - 2))
    b = -(scores[j] + scores[j + 1]) / 2
    y = tuple(1 if sum((a * c for a, c in zip(v, x)), F(0)) + b > 0 else -1 for x in X)
    return Dataset(X=X, y=y), b, v


positive_scales = st.builds(Fraction, st.integers(1, 50), st.integers(1, 50))


@given(case=separated(), c=positive_scales)
def test_every_bound_is_scale_invariant_in_w_star(case, c):
    data, b, v = case
    g = geometry(data, b, v)
    scaled = geometry(data, c * b, tuple(c * vj for vj in v))
    assert scaled.gamma == c * g.gamma and scaled.ws_sq == c * c * g.ws_sq
    assert [nb.value for nb in note_bounds(scaled)] == [nb.value for nb in note_bounds(g)]


@given(case=separated())
def test_sum_norm_bound_is_never_below_classic(case):
    data, b, v = case
    g = geometry(data, b, v)
    classic, sum_norm = note_bound("classic", g).value, note_bound("sum-norm", g).value
    assert sum_norm >= classic
    assert sum_norm * g.R_sq == classic * g.beta  # exactly β/R² times the classic bound
    assert sum_norm > classic  # two or more samples: β >= R² + 1 > R²


@given(case=separated())
def test_four_bounds_agree_and_are_at_least_one(case):
    data, b, v = case
    values = {nb.convention: nb.value for nb in note_bounds(geometry(data, b, v))}
    assert values["classic"] == values["hard-limiter"] == values["unit-ball"] == values["split-bias"]
    assert values["classic"] >= 1  # Cauchy-Schwarz: γ <= ‖w*‖·R


@given(case=separated(), c=positive_scales)
def test_negating_the_separator_stops_it_separating(case, c):
    data, b, v = case
    g = geometry(data, -c * b, tuple(-c * vj for vj in v))
    assert not g.separates
    with pytest.raises(ValueError):
        note_bound("classic", g)
