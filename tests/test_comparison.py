"""Bounds at several separators beside the mistakes made, and mistakes over presentation orders."""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.data_strategies import halves as datasets
from verify_perceptron.certify.orders import MistakeCounter
from verify_perceptron.notes.bounds import geometry, note_bound
from verify_perceptron.certify.comparison import compare_bounds
from verify_perceptron.certify.orders import order_statistics
from verify_perceptron.notes.conventions import CONVENTIONS, get_convention
from verify_perceptron.data.dataset import Dataset, from_arrays
from verify_perceptron.run.reference import train
from verify_perceptron.errors import InvalidArgument
from verify_perceptron.data.examples import example

F = Fraction
TILTED = from_arrays([[0, 2], [-1, 3], [2, -2]], [1, 0, 1])


def final_separator(data: Dataset, convention: str) -> tuple[Fraction, ...]:
    b, v = get_convention(convention).to_canonical(train(data, convention).final_weights)
    return (b, *v)


# --- the integer counter is the reference engine ---------------------------------------------------


@pytest.mark.parametrize("name", ["and", "or", "modified-or", "xor"])
@pytest.mark.parametrize("convention", list(CONVENTIONS))
def test_counter_matches_reference_engine_in_every_order(name: str, convention: str) -> None:
    data = example(name)
    counter = MistakeCounter(data, convention)
    for order in itertools.permutations(range(4)):
        trace = train(data.reordered(order), convention)
        count = counter.count(order)
        assert (count.n_updates, count.stop, count.final_weights) == (trace.n_updates, trace.stop, trace.final_weights)


@given(datasets(), st.sampled_from(list(CONVENTIONS)), st.randoms(use_true_random=False))
def test_counter_matches_reference_engine_on_random_data(data: Dataset, convention: str, rng: random.Random) -> None:
    order = list(range(data.n_samples))
    rng.shuffle(order)
    trace = train(data.reordered(order), convention, max_epochs=50)
    count = MistakeCounter(data, convention).count(order, max_epochs=50)
    assert (count.n_updates, count.stop, count.final_weights) == (trace.n_updates, trace.stop, trace.final_weights)


# --- bounds at the separators ----------------------------------------------------------------------


def test_and_bounds_at_max_margin_and_final_are_exact() -> None:
    data = example("and")
    result = compare_bounds(data, final=final_separator(data, "classic"))
    assert [s.name for s in result.separators] == ["max-margin", "free-bias-max-margin", "final"]
    classic = result.entry("classic", "max-margin")
    assert classic is not None
    assert (classic.value, classic.n_updates, classic.ratio, classic.note) == (F(51), 18, F(6, 17), "000")
    assert result.entry("classic", "final").value == 87  # type: ignore[union-attr]
    assert result.entry("sum-norm", "max-margin").value == 136  # type: ignore[union-attr]
    assert [(r.convention, r.n_updates) for r in result.runs] == [
        ("classic", 18), ("hard-limiter", 10), ("hard-limiter-plus", 11), ("unit-ball", 18), ("sum-norm", 18),
        ("split-bias", 18),
    ]


@pytest.mark.parametrize(("name", "user"), [("and", (-10, 7, 6)), ("or", (-1, 3, 3)), ("modified-or", (1, 2, 2))])
def test_four_bounds_coincide_and_sum_norm_is_larger_by_beta_over_r_sq(name: str, user: tuple[int, ...]) -> None:
    data = example(name)
    result = compare_bounds(data, final=final_separator(data, "classic"), user=user)
    for separator in result.separators:
        assert separator.skipped is None
        g = separator.geometry
        assert result.groups(separator.name) == (("classic", "hard-limiter", "hard-limiter-plus", "unit-ball",
                                                  "split-bias"), ("sum-norm",))
        classic = result.entry("classic", separator.name).value  # type: ignore[union-attr]
        assert classic == g.R_sq * g.ws_sq / g.gamma**2
        assert result.entry("sum-norm", separator.name).value == classic * g.beta / g.R_sq  # type: ignore[union-attr]


@given(datasets())
def test_no_run_exceeds_any_bound_and_max_margin_is_tightest(data: Dataset) -> None:
    result = compare_bounds(data, max_epochs=2000)
    if result.separability.separable is not True:
        assert result.entries == () and result.runs == ()
        return
    assert all(run.converged for run in result.runs)
    for entry in result.entries:
        assert entry.n_updates <= entry.value  # the convergence theorem, in each note's form
    for convention in CONVENTIONS:
        values = [e.value for e in result.entries if e.convention == convention]
        assert min(values) == result.entry(convention, "max-margin").value  # type: ignore[union-attr]


def test_note_003_bound_stands_beside_every_conventions_batch_run() -> None:
    # Note 003's batch mode (ε = 1): one batch update of all four patterns to (2, 2, -2); hard-limiter
    # (score 0 is class -1, so pattern 1 is no mistake at w = 0) needs two. β/D² = 12·3/1 = 36 at (1, 1, 1).
    data = example("modified-or")
    result = compare_bounds(data)
    assert [(r.convention, r.n_updates, r.n_mistakes, r.stop) for r in result.batch_runs] == [
        ("classic", 1, 4, "converged"), ("hard-limiter", 2, 4, "converged"),
        ("hard-limiter-plus", 2, 3, "converged"), ("unit-ball", 1, 4, "converged"),
        ("sum-norm", 1, 4, "converged"), ("split-bias", 1, 4, "converged"),
    ]
    assert len(result.batch_entries) == len(result.batch_runs) * len(result.separators)
    for entry in result.batch_entries:
        assert entry.value == result.entry("sum-norm", entry.separator).value == 36  # type: ignore[union-attr]
        if entry.convention == "hard-limiter-plus":  # sgn(0) = +1: class +1 ties are no mistakes
            assert (entry.n_mistakes, entry.ratio, entry.converged) == (3, F(1, 12), True)
            continue
        assert (entry.n_mistakes, entry.ratio, entry.converged) == (4, F(1, 9), True)
    for run in result.batch_runs:
        trace = train(data, run.convention, mode="batch")
        assert (run.n_updates, run.n_mistakes, run.stop) == (trace.n_updates, trace.n_mistakes, trace.stop)


@given(datasets())
def test_no_batch_run_exceeds_note_003s_bound_at_any_separator(data: Dataset) -> None:
    result = compare_bounds(data, max_epochs=2000)
    if result.separability.separable is not True:
        assert result.batch_entries == () and result.batch_runs == ()
        return
    assert all(run.converged for run in result.batch_runs)
    for entry in result.batch_entries:
        g = next(s.geometry for s in result.separators if s.name == entry.separator)
        assert entry.value == g.beta * g.ws_sq / g.gamma**2
        assert entry.n_mistakes <= entry.value  # mistake-bound-sum-batch, derived here


def test_note_004_bound_is_smallest_at_the_augmented_optimum_not_the_free_bias_svm() -> None:
    result = compare_bounds(TILTED)
    at_augmented = result.entry("split-bias", "max-margin")
    at_free = result.entry("split-bias", "free-bias-max-margin")
    assert at_augmented is not None and at_free is not None
    assert (at_augmented.value, at_free.value) == (F(55), F(121))
    # The free-bias SVM does have note 004's larger margin ρ = γ/‖v‖.
    free, augmented = result.separators[1].geometry, result.separators[0].geometry
    assert free.gamma**2 / free.v_sq == F(1, 2) > augmented.gamma**2 / augmented.v_sq == F(1, 4)
    assert any(f.startswith("split-bias: the free-bias SVM has note 004's larger margin") for f in result.findings)


def test_note_004_bound_equals_note_000_bound_at_any_separator() -> None:
    # (b²/‖v‖² + 1)(1 + M²)/(γ²/‖v‖²) = (b² + ‖v‖²)·R²/γ², since R² = 1 + M².
    for w in [(F(1), F(2), F(0)), (F(3), F(1), F(-1)), (F(2), F(3), F(0))]:
        g = geometry(TILTED, w[0], w[1:])
        assert g.separates
        assert note_bound("split-bias", g).value == note_bound("classic", g).value


def test_findings_name_the_coincidences_and_the_factor() -> None:
    findings = compare_bounds(example("and")).findings
    assert findings == (
        "free-bias-max-margin is the same separator as max-margin: the same bounds",
        "at max-margin: the bounds of classic, hard-limiter, hard-limiter-plus, unit-ball, split-bias coincide, "
        "51 = R²·‖w‖²/γ² "
        "(R² = 3, ‖w‖² = 17, γ = 1)",
        "at every separator sum-norm's bound is β/R² = 8/3 times the others': note 003 sums ‖x~_i‖² (β = 8) "
        "where the others take the largest (R² = 3)",
        "the bound without separation (Freund and Schapire 1999, derived here), N <= ((R‖u‖ + D)/ρ)², taken at each "
        "separator u with ρ = γ, has D = 0 and is R²‖u‖²/γ², note 000's value",
    )


def test_not_separable_data_get_the_bound_without_separation_for_each_run() -> None:
    result = compare_bounds(example("xor"))
    assert [e.convention for e in result.soft_margin] == list(CONVENTIONS)
    for e in result.soft_margin:
        assert e.stop == "cycle" and e.bound is not None and e.n_mistakes <= e.bound[0] <= e.bound[1]
    soft_margin = result.as_dict()["soft_margin"]
    assert isinstance(soft_margin, list) and soft_margin[1]["n_mistakes"] == result.soft_margin[1].n_mistakes


def test_a_user_separator_that_does_not_separate_gets_no_bound() -> None:
    result = compare_bounds(example("and"), user=(1, 1, 1))
    user = next(s for s in result.separators if s.name == "user")
    assert user.skipped == "does not separate: γ = -2 <= 0 at sample 1"
    assert all(e.separator != "user" for e in result.entries)


def test_a_separator_of_the_wrong_length_is_refused() -> None:
    with pytest.raises(InvalidArgument, match=r"^user has 2 values; \(b, v1\.\.v2\) needs 3$"):
        compare_bounds(example("and"), user=(1, 1))


@pytest.mark.parametrize("data", [example("xor"), Dataset(X=((F(1), F(2)), (F(0), F(0)), (F(1), F(2))), y=(1, 1, -1))])
def test_not_separable_data_get_a_certificate_and_no_bounds(data: Dataset) -> None:
    result = compare_bounds(data, time_limit=20)
    assert result.separability.separable is False and result.separability.certified
    assert result.entries == () and result.runs == ()
    assert result.findings == ("not separable: no note's bound applies",)


def test_as_dict_has_the_issue_keys_and_is_json() -> None:
    data = example("modified-or")
    shown = json.loads(json.dumps(compare_bounds(data, final=final_separator(data, "sum-norm")).as_dict()))
    assert shown["separable"] is True
    assert shown["certificate"] == {"kind": "separator", "values": ["1", "1", "1"]}
    assert {k: shown["max_margin"][k] for k in ("weights", "norm_sq", "certified")} == {
        "weights": ["1", "1", "1"], "norm_sq": "3", "certified": True,
    }
    assert shown["bounds"][0] == {
        "note": "000", "convention": "classic", "separator": "max-margin",
        "value": "9", "value_floor": 9, "n_updates": 3, "converged": True, "ratio": "1/3", "ratio_decimal": 1 / 3,
    }
    # Note 003's incremental run ends at (1, 1, -1): b = 1, v = (1, 1), the optimum itself.
    assert [s["name"] for s in shown["separators"]] == ["max-margin", "free-bias-max-margin", "final"]
    assert shown["separators"][2]["weights"] == ["1", "1", "1"]
    # Batch mode, added beside the online keys: note 003's bound and each convention's batch run.
    assert shown["batch_runs"][4] == {"convention": "sum-norm", "n_updates": 1, "n_mistakes": 4, "stop": "converged"}
    assert shown["batch_bounds"][4] == {
        "note": "003", "convention": "sum-norm", "separator": "max-margin",
        "value": "36", "value_floor": 36, "n_mistakes": 4, "n_updates": 1, "converged": True, "ratio": "1/9",
        "ratio_decimal": 1 / 9,
    }


# --- presentation orders ---------------------------------------------------------------------------


def reference_counts(data: Dataset, convention: str) -> list[int]:
    """Mistakes of the reference engine in every order, for an independent worst case."""
    return [train(data.reordered(order), convention).n_updates for order in itertools.permutations(range(data.n_samples))]


@pytest.mark.parametrize("name", ["and", "or", "modified-or"])
def test_exhaustive_worst_case_matches_the_reference_engine(name: str) -> None:
    data = example(name)
    stats = order_statistics(data, orders=3, seed=7)
    bound = compare_bounds(data)
    for counts in stats.exhaustive:
        values = sorted(reference_counts(data, counts.convention))
        assert counts.exhaustive and counts.n_orders == 24 and counts.all_converged
        assert (counts.min, counts.max) == (values[0], values[-1])
        assert counts.median == F(values[11] + values[12], 2)
        assert train(data.reordered(counts.worst_order), counts.convention).n_updates == counts.max
        assert counts.max <= bound.entry(counts.convention, "max-margin").value  # type: ignore[union-attr]


def test_and_worst_case_over_all_orders() -> None:
    stats = order_statistics(example("and"), orders=5, seed=0)
    assert [(c.convention, c.min, c.median, c.max) for c in stats.exhaustive] == [
        ("classic", 18, F(20), 22), ("hard-limiter", 10, F(12), 12), ("hard-limiter-plus", 11, F(14), 15),
        ("unit-ball", 18, F(20), 22), ("sum-norm", 18, F(20), 22), ("split-bias", 18, F(20), 22),
    ]
    assert stats.notes == ()


def test_sampled_orders_are_the_seeded_shuffles() -> None:
    data = from_arrays([[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [0, 2], [3, 1], [1, 3], [2, 2]], [0, 0, 0, 1, 1, 1, 1, 1, 1])
    stats = order_statistics(data, orders=6, seed=42)
    assert stats.exhaustive == () and stats.notes == ("no exhaustive run: 9 samples > exhaustive_limit=8",)
    rng = random.Random(42)
    orders = []
    for _ in range(6):
        order = list(range(9))
        rng.shuffle(order)
        orders.append(order)
    expected = sorted(train(data.reordered(o), "classic").n_updates for o in orders)
    classic = stats.sampled[0]
    assert classic.convention == "classic" and classic.n_orders == 6
    assert (classic.min, classic.median, classic.max) == (expected[0], F(expected[2] + expected[3], 2), expected[-1])
    assert order_statistics(data, orders=6, seed=42) == stats


def test_time_limit_leaves_out_the_exhaustive_part_and_says_so() -> None:
    data = from_arrays([[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [0, 2], [3, 1], [1, 3]], [0, 0, 0, 1, 1, 1, 1, 1])
    stats = order_statistics(data, orders=2, seed=1, time_limit=0.05)
    assert stats.exhaustive == ()
    assert any("ran out" in note for note in stats.notes)


def test_orders_are_drawn_one_at_a_time_so_memory_does_not_grow_with_their_number() -> None:
    # bounds --orders 100000000 once drew every order before running one (gigabytes on AND).
    import tracemalloc

    order_statistics(example("and"), orders=1, seed=0)  # what loads on first use is not counted
    tracemalloc.start()
    try:
        stats = order_statistics(example("and"), orders=1_000_000, seed=0, time_limit=0.2)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 40 * 2**20  # (each run makes its own buffers, some megabytes; 1,000,000 orders drawn first took 80)
    assert stats.sampled[0].n_orders < 1_000_000 and "ran out after" in stats.notes[0]


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"orders": 0, "seed": 1}, "orders=0 must be an integer >= 1"),
        ({"orders": 2, "seed": -1}, "seed=-1 must be an integer >= 0"),
        ({"orders": True, "seed": 1}, "orders=True must be an integer >= 1"),
        ({"orders": 2, "seed": 1, "exhaustive_limit": "8"}, "exhaustive_limit='8' must be an integer >= 0"),
    ],
)
def test_order_settings_are_checked(settings: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidArgument, match=f"^{message}$"):
        order_statistics(example("and"), **settings)  # type: ignore[arg-type]


# --- real data shipped in a package (optional: scikit-learn) ---------------------------------------


def test_iris_setosa_vs_versicolor_runs_stay_within_every_bound() -> None:
    sklearn_datasets = pytest.importorskip("sklearn.datasets")
    bunch = sklearn_datasets.load_iris()
    rows = [[repr(float(v)) for v in x] for x, t in zip(bunch.data, bunch.target) if t < 2]
    data = from_arrays(rows, [int(t) for t in bunch.target if t < 2], source="iris 0 vs 1")
    result = compare_bounds(data, final=final_separator(data, "classic"), time_limit=60)
    assert result.max_margin is not None and result.max_margin.certified
    assert len(result.entries) == 18 and all(e.converged and e.n_updates <= e.value for e in result.entries)
