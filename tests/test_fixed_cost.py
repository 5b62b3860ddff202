"""The fixed cost of a checked fit on small data (issue 32): each shortcut takes the cheap way only where it gives
the same values, and the costly way it replaces is not taken on small data."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from verify_perceptron.api.estimator import ExactPerceptron, _as_fraction
from verify_perceptron.check import facts as facts_module
from verify_perceptron.check import soft_margin as soft_margin_module
from verify_perceptron.check import replay as replay_module
from verify_perceptron.check.checker import Checker
from verify_perceptron.check.limb_replay import LimbReplay, _narrowed
from verify_perceptron.check.soft_margin import SoftMarginCheck
from verify_perceptron.data import integers, kernel, limb_arrays
from verify_perceptron.data.examples import example
from verify_perceptron.data.int64_pieces import _wide_products
from verify_perceptron.data.integers import ExactMatrix, as_limbs, score_values
from verify_perceptron.data.limb_arrays import LimbMatrix, int64_norms, int_limbs
from verify_perceptron.notes.bounds import Geometry, note_bound, note_bounds
from verify_perceptron.notes.conventions import CONVENTIONS
from verify_perceptron.notes import soft_margin as soft_notes
from verify_perceptron.notes.facts import quantities_of
from verify_perceptron.notes._proof_facts import PROOF_FACTS
from verify_perceptron.notes.relative_floats import _relative, relative_floats
from verify_perceptron.notes.soft_margin import SoftMargin
from verify_perceptron.run import fast


def _refuse(*_: object, **__: object) -> None:
    raise AssertionError("the costly path was taken")


def test_a_small_matrix_past_int64_is_multiplied_in_python_integers_not_in_pieces(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(7)
    Z = rng.integers(-2**53, 2**53, (100, 5))
    direction = [int(v) << 150 for v in rng.integers(-2**40, 2**40, 5)]
    expected = [sum(int(z) * w for z, w in zip(row, direction)) for row in Z.tolist()]
    monkeypatch.setattr("verify_perceptron.data.integers._wide_products", _refuse)
    product = ExactMatrix(Z).products(direction, norm_sq=sum(w * w for w in direction))
    assert product.tolist() == expected
    monkeypatch.undo()
    big = np.tile(Z, (integers.SMALL_CELLS // Z.size + 1, 1))  # past SMALL_CELLS: in int64 pieces, the same values
    used: list[int] = []

    def pieces(*arguments: Any) -> Any:
        used.append(1)
        return _wide_products(*arguments)

    monkeypatch.setattr("verify_perceptron.data.integers._wide_products", pieces)
    product = ExactMatrix(big).products(direction, norm_sq=sum(w * w for w in direction))
    assert product.tolist()[:100] == expected and used == [1]


def test_as_limbs_of_python_integers_is_their_twos_complement_and_refuses_what_does_not_fit() -> None:
    random.seed(3)
    values = [random.getrandbits(b) * random.choice((1, -1)) for b in (0, 1, 62, 63, 64, 127, 190)] + [-(2**191)]
    limbs = as_limbs(np.array(values, dtype=object), 3)
    assert limbs.dtype == np.int64 and limbs.shape == (8, 3)
    assert score_values(limbs).tolist() == values
    assert as_limbs(np.array([], dtype=object), 2).shape == (0, 2)
    with pytest.raises(OverflowError, match="an integer of 192 bits does not fit in 3 limbs of 64 bits"):
        as_limbs(np.array([5, 2**191], dtype=object), 3)
    with pytest.raises(OverflowError, match="an integer of 193 bits does not fit in 3 limbs"):
        as_limbs(np.array([-(2**192) - 3, 1], dtype=object), 3)


@pytest.mark.parametrize("compiled", [True, False])
def test_relative_floats_of_python_integers_are_relative_of_each_bit_for_bit(
        monkeypatch: pytest.MonkeyPatch, compiled: bool) -> None:
    # in C where the extension is built (`kernel.int_ratios`), and by NumPy object arithmetic (`_relative_ints`)
    if not compiled:
        monkeypatch.setattr(kernel, "int_ratios", None)
    elif kernel.int_ratios is None:
        pytest.skip("the limb extension is not built")
    random.seed(11)
    values = [0, 1, -1, 2**63 - 1, -(2**63), 2**64, -(2**64) - 1]
    for _ in range(3000):
        value = random.getrandbits(random.choice((5, 53, 64, 65, 66, 120, 700, 1000))) * random.choice((1, -1))
        if random.random() < 0.3:  # a tie at the 53rd bit of the leading 64, with bits below them
            value = (((random.getrandbits(52) | 1 << 52) << 11 | 1 << 10) << random.randint(1, 90)) + 1
        values.append(value)
    for shift in (0, 7, 64, 300, 1100):
        floats = relative_floats(values, shift)
        expected = np.array([_relative(v, shift) for v in values])
        assert floats.view(np.int64).tolist() == expected.view(np.int64).tolist()
    assert relative_floats([3, -8], 3).tolist() == [0.375, -1.0] and relative_floats([], 3).shape == (0,)
    assert relative_floats([2**1100, -(2**1100)], 0).tolist() == [math.inf, -math.inf]
    tiny = relative_floats([1, -1, 3, 2**64 + 2**11 + 1, -(2**64) - 2**11], 1076)  # below 2^-1074: ±0; ties
    assert tiny.view(np.int64).tolist() == np.array([_relative(v, 1076) for v in (1, -1, 3, 2**64 + 2**11 + 1,
                                                                              -(2**64) - 2**11)]).view(np.int64).tolist()


@pytest.mark.skipif(kernel.int_ratios is None, reason="the limb extension is not built")
def test_the_compiled_ratios_refuse_what_is_no_python_int_and_arrays_of_another_size() -> None:
    ratios = kernel.int_ratios
    assert ratios is not None
    out = np.zeros(2)
    ratios((2**70 + 1, -5), 3, out)  # any sequence
    assert out.tolist() == [2.0**67, -0.625]
    with pytest.raises(TypeError, match=r"values\[1\] is no Python int: float"):
        ratios([1, 2.0], 0, out)
    with pytest.raises(ValueError, match="out must have 3 items, got 2"):
        ratios([1, 2, 3], 0, out)
    with pytest.raises(TypeError, match="out must hold float64 items"):
        ratios([1, 2], 0, np.zeros(2, dtype=np.int64))


def test_note_bounds_share_their_pieces_and_equal_each_bound_made_alone() -> None:
    g = Geometry(gamma=Fraction(3, 2**60), worst_sample=0, R_sq=Fraction(7**30, 2**100), M_sq=Fraction(5, 3),
                 beta=Fraction(11**20, 2**90), ws_sq=Fraction(13, 2**70), v_sq=Fraction(9, 2**70), b_sq=Fraction(4, 2**70))
    together = note_bounds(g)
    assert together == [note_bound(name, g) for name in CONVENTIONS]
    ratio = g.R_sq * g.ws_sq / (g.gamma * g.gamma)
    by_name = {b.convention: b for b in together}
    assert {by_name[name].value for name in ("classic", "hard-limiter", "hard-limiter-plus", "unit-ball")} == {ratio}
    assert by_name["unit-ball"].constants == (("γ²", g.gamma**2 / (g.R_sq * g.ws_sq)),)
    assert by_name["sum-norm"].value == g.beta / (g.gamma**2 / g.ws_sq)


def test_a_scaled_fact_check_makes_no_true_value_unless_a_rule_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    data = example("and")
    checker = Checker(data, "classic", rate=1, mode="online", separator=[-4, 3, 2])
    assert checker.facts._true_run is None
    trace = fast.run(data, observer=checker)
    result = checker.finish(trace)
    assert result.holds
    assert all(f.rule.scaled for p in result.proofs for f in p.facts if f.rule.scope == "update")
    made: list[int] = []
    exact = facts_module.FactCheck._exact

    def counted(self: facts_module.FactCheck, *arguments: Any) -> dict[str, Any]:
        made.append(1)
        return exact(self, *arguments)

    checker = Checker(data, "classic", rate=1, mode="online", separator=[-4, 3, 2])
    monkeypatch.setattr(facts_module.FactCheck, "_exact", counted)
    fast.run(data, observer=checker)
    assert made == []  # every update rule is scaled and held: no update's values in true units were made


def test_the_128_bit_replay_is_refused_before_its_margins_are_halved(monkeypatch: pytest.MonkeyPatch) -> None:
    """On float64 data the claims' constants pass int64, the 128-bit program is refused, and the margins (Python
    integers) are not first cut into halves for it."""
    data = example("and")
    big = 2**70 + 1
    checker = Checker(data, "classic", rate=1, mode="online", separator=[-4 * big, 3 * big, 2 * big + 1])
    monkeypatch.setattr(replay_module, "in_halves", _refuse)
    margins = checker.margins.astype(object) * 2**40  # past int64, within 128 bits
    assert replay_module.compiled_replay(checker.matrix, checker.tie, margins, [c for c, _ in checker.active],
                                         {**checker.constants, "bound": Fraction(2**80 + 1, 3)}) is None


def test_int_limbs_reads_numpy_integers_and_iterators_as_it_reads_python_integers() -> None:
    values = [0, -1, 2**63 - 1, -(2**63), 5]
    expected = int_limbs(values, 2)
    assert score_values(expected).tolist() == values
    assert int_limbs(np.array(values, dtype=np.int64).astype(object).tolist(), 2).tolist() == expected.tolist()
    assert int_limbs(list(np.array(values, dtype=np.int64)), 2).tolist() == expected.tolist()  # NumPy ints
    assert int_limbs((np.int64(v) if k % 2 else v for k, v in enumerate(values)), 2).tolist() == expected.tolist()
    with pytest.raises(OverflowError):
        int_limbs([np.int64(1), 2**200], 2)


def test_a_short_runs_shortfalls_are_summed_as_they_are_and_a_long_runs_in_pieces(
        monkeypatch: pytest.MonkeyPatch) -> None:
    scale = 2**100  # shortfalls past int64: pieces of 46 bits, for a run longer than the data
    margins = [scale * m for m in (3, 2, 0, -2, 6, -1)]
    bound = SoftMargin.from_margins(margins, rho=3 * scale, R_sq=10 * scale**2, u_sq=1, scale=1)
    rows = [3, 5, 0, 3, 1, 2, 3, 3]

    def checked(chunks: list[list[int]]) -> tuple[Any, ...]:
        check = SoftMarginCheck(bound, reference=(Fraction(1),), source="test", L=1, M=1)
        first = 1
        for chunk in chunks:
            check.observe_chunk(first, 1, np.array(chunk))
            first += len(chunk)
        result, summary = check.finish()
        return (result.holds, result.n_checked, result.first_violation, summary.D_sq, summary.tightest_at,
                summary.scaled_tightest_D_sq)

    expected = sum(int(bound.deficits_sq[j]) for j in rows)
    made: list[int] = []
    pieces = soft_margin_module.SoftMarginCheck.__dict__["_pieces"].func

    def counted(self: Any) -> Any:
        made.append(1)
        return pieces(self)

    monkeypatch.setattr(soft_margin_module.SoftMarginCheck, "_pieces", property(counted))
    short = checked([rows[:2], rows[2:5]])  # 5 updates on 6 samples: no pieces made
    assert made == [] and short[3] == Fraction(sum(int(bound.deficits_sq[j]) for j in rows[:5]))
    long = checked([rows[:2], rows[2:]])  # the second chunk ends past 6 updates: in pieces
    assert made == [1] and long[3] == Fraction(expected)
    monkeypatch.setattr(soft_margin_module.SoftMarginCheck, "_pieces", property(lambda self: None))
    assert checked([rows[:2], rows[2:]]) == long  # the same sums of Python integers


def test_the_limb_replay_reads_norms_held_in_limbs_without_their_python_integers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    values = np.array([[3, -4, 1], [-(2**70), 5, 2**65 + 7], [0, 0, -1]], dtype=object)
    matrix = ExactMatrix(None, limbs=as_limbs(values.reshape(-1), 2).reshape(3, 3, 2))
    norms = [sum(v * v for v in row) for row in values.tolist()]
    monkeypatch.setattr(LimbMatrix, "norms", _refuse)
    replay = LimbReplay(matrix, np.zeros(3, dtype=bool), np.array([1, 2, 3]), None, [], (7,), 3)
    for K in (3, 4, 6):
        arrays = replay._at(K)
        assert arrays is not None and score_values(arrays[1]).tolist() == norms
    assert replay._at(2) is None  # 2^140 does not fit two limbs
    assert _narrowed(as_limbs(np.array([-5, 2**64], dtype=object), 3), 2).tolist() == [[-5, -1], [0, 1]]
    with pytest.raises(OverflowError):
        _narrowed(as_limbs(np.array([2**127], dtype=object), 3), 2)
    with pytest.raises(OverflowError):
        _narrowed(as_limbs(np.array([2**63], dtype=object), 3), 1)


def test_the_fitted_weights_are_the_runs_fractions_and_other_numbers_become_fractions() -> None:
    half = Fraction(1, 2)
    assert _as_fraction(half) is half
    assert _as_fraction(3) == 3 and type(_as_fraction(3)) is Fraction and _as_fraction(True) == 1
    clf = ExactPerceptron().fit([[0.5, 1.0], [1.0, -0.25], [-1.0, 0.5]], [0, 1, 0])
    assert all(type(x) is Fraction for x in (*clf.coef_exact_, clf.intercept_exact_))


def test_magnitude_bounds_each_quantity_once_and_on_its_own() -> None:
    values = {"a": np.array([5, -3]), "b": np.array([2**61]), "f": np.array([1], dtype=object)}
    tree = ("+", ("q", "a"), ("*", ("q", "b"), ("q", "a")))
    assert facts_module._magnitude(tree, values) is None  # 5·2^61 passes int64
    assert facts_module._magnitude(("+", ("q", "b"), ("*", ("q", "a"), ("q", "a"))), values) == 2**61 + 25
    assert facts_module._magnitude(("+", ("q", "a"), ("q", "b")), values) == 5 + 2**61
    assert facts_module._magnitude(("+", ("q", "a"), ("q", "f")), values) is None
    assert facts_module._magnitude(("*", ("q", "b"), ("q", "b")), values) is None


def test_row_norms_of_int64_past_int64_are_summed_in_limbs_in_c_and_equal_the_pieces(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(17)
    Z = rng.integers(-2**62, 2**62, (60, 7))
    Z[0, :3] = [2**63 - 1, -(2**63 - 1), 5]  # the widest entries the limbs take
    expected = [sum(int(v) * int(v) for v in row) for row in Z.tolist()]
    assert int64_norms(Z, integers.biggest_entry(Z)) is not None
    monkeypatch.setattr(integers, "_norms_in_pieces", _refuse)
    norms = integers.row_norms_sq(Z)
    assert norms.dtype == object and norms.tolist() == expected
    assert integers.row_norms_sq(Z[:0]).tolist() == []
    monkeypatch.undo()
    used: list[int] = []
    pieces = integers.__dict__["_norms_in_pieces"]

    def counted(matrix: Any) -> Any:
        used.append(1)
        return pieces(matrix)

    monkeypatch.setattr(integers, "_norms_in_pieces", counted)
    assert integers.row_norms_sq(np.asfortranarray(Z)).tolist() == expected and used == [1]  # not read in place
    minimum = Z.copy()
    minimum[1, 0] = -(2**63)  # |entry| = 2^63: not below it, so in pieces
    assert integers.row_norms_sq(minimum)[1] == 2**126 + sum(int(v) ** 2 for v in Z[1, 1:].tolist()) and used == [1, 1]


def test_choose_scaled_is_the_choice_of_every_column_at_once() -> None:
    rng = np.random.default_rng(23)
    pool = np.array([-3.0, -0.0, 0.0, 0.5, 1.0, 2.0, 3.5, 7.0, 1e200, 1e-300, math.inf, -math.inf, math.nan])
    for n in (0, 1, 5, 40, 300):
        for _ in range(20):
            margins = np.where(rng.random(n) < 0.3, rng.choice(pool, n), rng.normal(1.0, 2.0, n))
            counts = rng.integers(0, 3, n).astype(np.float64)
            for root in (0.0, 0.7, 1e300):
                assert soft_notes.choose_scaled(margins, counts, root) == soft_notes._all_columns(
                    margins[:, None], counts, [root])[0]


def test_a_rules_reads_are_walked_once_and_are_its_trees_quantities() -> None:
    rules = [r for p in PROOF_FACTS for r in p.rules]
    assert rules and all(r.reads == quantities_of(r.tree) and r.reads is r.reads for r in rules)


def test_eta_given_as_text_is_the_rate_its_value_gives_and_is_refused_as_often_as_given() -> None:
    from verify_perceptron.errors import InvalidArgument
    from verify_perceptron.run.settings import check_settings

    for text in ("1", "1/2", "0.1", "3e-5", "2" * 900):
        assert check_settings("classic", text, "online", 5)[1] == check_settings("classic", Fraction(text), "online",
                                                                                   5)[1]
        assert check_settings("classic", text, "online", 5) == check_settings("classic", text, "online", 5)
    for _ in range(2):  # a refusal is not remembered as a rate
        for text in ("1/" + "3" * 1001, "1e3000"):  # too long a literal, too large a value
            with pytest.raises(InvalidArgument, match="eta="):
                check_settings("classic", text, "online", 5)
        with pytest.raises(InvalidArgument, match="eta="):
            check_settings("classic", Fraction("1e3000"), "online", 5)
        with pytest.raises(InvalidArgument, match="eta"):
            check_settings("classic", "-1", "online", 5)
        with pytest.raises(InvalidArgument, match="eta"):
            check_settings("classic", "one", "online", 5)


def test_a_converged_runs_certificate_is_its_final_weights_over_gamma_made_when_read() -> None:
    from verify_perceptron.certify.separability import _over_gamma
    from verify_perceptron.data.trace import ScaledWeights

    weights = ScaledWeights([6, -4, 0, 9], Fraction(3, 2**70))
    gamma = Fraction(5, 2**71)
    for name, conv in CONVENTIONS.items():
        b, v = conv.to_canonical(tuple(weights))
        over = _over_gamma(conv, weights, gamma)
        assert isinstance(over, ScaledWeights) and over == tuple(w / gamma for w in (b, *v)), name
        assert _over_gamma(conv, tuple(weights), gamma) == over
    X = [[0.5, 1.0], [1.0, -0.25], [-1.0, 0.5], [-0.75, -1.5]]
    clf = ExactPerceptron().fit(X, [1, 1, 0, 0])
    verification = clf.verification_
    assert verification is not None
    separability = verification.separability
    certificate = separability.separator
    assert isinstance(certificate, ScaledWeights) and certificate._tuple is None  # nothing read it yet
    g = verification.check.geometry
    assert g is not None and certificate == (clf.intercept_exact_ / g.gamma, *(w / g.gamma for w in clf.coef_exact_))
    written: Any = separability.as_dict()["certificate"]
    assert written["values"] == [str(w) for w in certificate]


@pytest.mark.parametrize("limbs", [2, 3, 5])
def test_scores_in_limbs_are_joined_as_limb_values_joins_them_from_four_limbs_from_their_bytes(
        monkeypatch: pytest.MonkeyPatch, limbs: int) -> None:
    rng = np.random.default_rng(limbs)
    read: list[int] = []
    from_bytes = limb_arrays.row_ints

    def counted(scores: Any) -> list[int]:
        read.append(len(scores))
        return from_bytes(scores)

    monkeypatch.setattr(limb_arrays, "row_ints", counted)
    for m in (1, 7, 64, 300):
        values = [int(v) << int(s) for v, s in zip(rng.integers(-2**40, 2**40, m),
                                                   rng.integers(0, 64 * (limbs - 1) - 42, m))]
        values[0] = -(2**(64 * limbs - 1))  # the most negative the limbs hold: past int64
        scores = as_limbs(np.array(values, dtype=object), limbs)
        read.clear()
        joined = score_values(scores)
        assert joined.dtype == object and joined.tolist() == values
        # read from their bytes from FROM_BYTES limbs on, and in C (`kernel.limb_ints`) from two where it is built
        assert read == ([m] if limbs >= limb_arrays.FROM_BYTES or kernel.limb_ints is not None else [])
    assert score_values(as_limbs(np.array([5, -3], dtype=object), limbs)).dtype == np.int64  # all in int64
