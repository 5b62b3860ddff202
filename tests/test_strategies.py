"""The public Hypothesis strategies: every dataset is what its strategy promises, checked exactly.

Separability is confirmed by the package's exact decision (`decide_separability`),
margins by the certified free-bias max-margin separator, ties by a plain
exact replay written here, and shrinking by `hypothesis.find` under fixed settings.
"""

from __future__ import annotations

import re
import subprocess
import sys
from fractions import Fraction

import pytest
from hypothesis import Phase, find, given, settings
from hypothesis import strategies as st

from verify_perceptron.data.dataset import Dataset
from verify_perceptron.errors import InvalidArgument
from verify_perceptron.data.examples import example
from verify_perceptron.certify.maxmargin import max_margin_free_bias
from verify_perceptron.certify.separability import decide_separability
from verify_perceptron.harness.strategies import (
    DATASET_KINDS,
    NUMBERS,
    datasets,
    duplicated_datasets,
    nonseparable_datasets,
    scaled_datasets,
    separable_datasets,
    tied_datasets,
    tiny_margin_datasets,
    worked_examples,
)

# No explain phase: it replays each shrunk example many times to annotate it, which find() does not need.
QUIET = settings(derandomize=True, database=None, max_examples=200, deadline=None,
                 phases=(Phase.explicit, Phase.generate, Phase.shrink))


def rows(data: Dataset) -> list[list[str]]:
    return [[str(v) for v in x] for x in data.X]


def hyperplane(data: Dataset) -> tuple[tuple[Fraction, ...], Fraction]:
    """The generating hyperplane a separable strategy writes into the dataset's source."""
    match = re.search(r"v = \[([^\]]*)\], b = (\S+?)(?:;|$)", data.source)
    assert match, data.source
    return tuple(Fraction(t) for t in match.group(1).split(", ")), Fraction(match.group(2))


def scores(data: Dataset, v: tuple[Fraction, ...], b: Fraction) -> list[Fraction]:
    return [y * (sum((vj * xj for vj, xj in zip(v, x)), Fraction(0)) + b) for x, y in zip(data.X, data.y)]


# --- arguments are validated when the strategy is built, before anything is drawn --------------------


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: separable_datasets(max_samples=1), "max_samples=1 must be >= 2"),
        (lambda: separable_datasets(min_features=0), "min_features=0 must be >= 1"),
        (lambda: separable_datasets(min_features=3, max_features=2), "max_features=2 must be >= min_features=3"),
        (lambda: separable_datasets(min_margin=-1), "min_margin=-1 must be >= 0"),
        (lambda: separable_datasets(min_margin=0.5), "min_margin=0.5 must be an int, a Fraction or a literal"),  # type: ignore[arg-type]
        (lambda: separable_datasets(numbers="reals"), "numbers='reals' must be one of integers, dyadic, rationals, floats"),
        (lambda: separable_datasets(max_numerator=True), "max_numerator=True must be an integer"),
        (lambda: tied_datasets(convention="nope"), "convention='nope' is not one of"),
        (lambda: tied_datasets(max_epochs=0), "max_epochs=0 must be >= 1"),
        (lambda: duplicated_datasets(margin=1), "margin=1 is not a bound"),
        (lambda: tiny_margin_datasets(min_exponent=5, max_exponent=4), "max_exponent=4 must be >= min_exponent=5"),
        (lambda: scaled_datasets(min_exponent=1.5), "min_exponent=1.5 must be an integer"),  # type: ignore[arg-type]
        (lambda: datasets(kinds=()), "kinds=() must be a non-empty selection"),
        (lambda: datasets(kinds="separable"), "kinds='separable' must be a non-empty selection"),
    ],
)
def test_bad_bounds_are_refused_naming_the_value(build: object, message: str) -> None:
    with pytest.raises(InvalidArgument, match=re.escape(message)):
        build()  # type: ignore[operator]


def test_invalid_argument_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        separable_datasets(max_samples=0)


# --- what each strategy promises -----------------------------------------------------------------------


@given(separable_datasets(min_features=2, max_features=3, min_samples=3, max_samples=6))
def test_separable_datasets_respect_their_bounds_and_separate(data: Dataset) -> None:
    assert 2 <= data.n_features <= 3 and 3 <= data.n_samples <= 6
    assert set(data.y) == {-1, 1}
    v, b = hyperplane(data)
    assert all(s > 0 for s in scores(data, v, b))
    assert decide_separability(data).separable is True


@given(separable_datasets(min_margin="1/2", max_features=2))
def test_every_sample_is_at_least_min_margin_from_the_hyperplane(data: Dataset) -> None:
    v, b = hyperplane(data)
    v_sq = sum(c * c for c in v)
    # distance y·(v·x + b)/‖v‖ >= 1/2, compared squared
    assert all(s > 0 and s * s >= Fraction(1, 4) * v_sq for s in scores(data, v, b))
    best = max_margin_free_bias(data)
    assert best.certified and best.norm_sq is not None and best.norm_sq * Fraction(1, 4) <= 1  # the data's own margin 1/‖v*‖ >= 1/2


@pytest.mark.parametrize("numbers", NUMBERS)
def test_values_are_of_the_kind_asked_for(numbers: str) -> None:
    @settings(QUIET, max_examples=50)
    @given(separable_datasets(numbers=numbers))
    def check(data: Dataset) -> None:
        values = [v for x in data.X for v in x]
        if numbers == "integers":
            assert data.denominator == 1
        if numbers == "dyadic":
            assert data.denominator & (data.denominator - 1) == 0
        if numbers in ("dyadic", "floats"):
            assert all(Fraction.from_float(float(v)) == v for v in values)

    check()


def test_float_values_carry_53_significant_bits_somewhere() -> None:
    data = find(separable_datasets(numbers="floats"), lambda d: any(v.denominator > 2**40 for x in d.X for v in x),
                settings=QUIET)
    assert all(Fraction.from_float(float(v)) == v for x in data.X for v in x)


def _interior_tie(data: Dataset) -> bool:
    """A plain exact replay of note 000: is some score exactly 0 while w is not all 0?"""
    w = [Fraction(0)] * (data.n_features + 1)
    for _ in range(100):
        clean = True
        for x, y in zip(data.X, data.y):
            xt = (Fraction(1), *x)
            score = sum((a * c for a, c in zip(w, xt)), Fraction(0))
            if score == 0 and any(w):
                return True
            if y * score <= 0:
                w, clean = [a + y * c for a, c in zip(w, xt)], False
        if clean:
            return False
    return False


@settings(max_examples=25)
@given(tied_datasets())
def test_tied_datasets_meet_a_score_of_exactly_zero_at_nonzero_weights(data: Dataset) -> None:
    assert _interior_tie(data)
    assert decide_separability(data).separable is True


@given(duplicated_datasets())
def test_duplicated_datasets_repeat_a_sample_with_its_label(data: Dataset) -> None:
    pairs = list(zip(data.X, data.y))
    assert len(set(pairs)) < len(pairs)
    assert decide_separability(data).separable is True


@given(tiny_margin_datasets(numbers="dyadic", min_exponent=4, max_exponent=6))
def test_tiny_margin_datasets_put_one_sample_just_inside(data: Dataset) -> None:
    v, b = hyperplane(data)
    assert min(scores(data, v, b)) in {Fraction(1, 2**e) for e in range(4, 7)}


@given(scaled_datasets(min_exponent=8, max_exponent=10))
def test_scaled_datasets_are_separable_at_large_magnitudes(data: Dataset) -> None:
    assert decide_separability(data).separable is True
    # base values are multiples of 1/16 (a pushed sample) and scaled by at least 2^8
    assert all(abs(v) >= 16 or v == 0 for x in data.X for v in x)


@given(scaled_datasets(min_exponent=-10, max_exponent=-8))
def test_scaled_datasets_are_separable_at_tiny_magnitudes(data: Dataset) -> None:
    assert decide_separability(data).separable is True
    # base values stay below 64 (a pushed sample) and are scaled by at most 2^-8
    assert all(abs(v) < Fraction(1, 4) for x in data.X for v in x)


@given(nonseparable_datasets(numbers="floats"))
def test_nonseparable_datasets_are_not_separable(data: Dataset) -> None:
    assert decide_separability(data).separable is False


@given(datasets(nonseparable=True))
def test_datasets_mix_kinds_and_keep_both_labels(data: Dataset) -> None:
    assert set(data.y) == {-1, 1}


def test_datasets_without_nonseparable_draw_only_separable_data() -> None:
    @settings(QUIET, max_examples=100)
    @given(datasets(kinds=DATASET_KINDS))
    def check(data: Dataset) -> None:
        assert decide_separability(data).separable is True

    check()


# --- shrinking -----------------------------------------------------------------------------------------


def test_separable_datasets_shrink_to_two_points_on_a_line() -> None:
    data = find(separable_datasets(max_features=3), lambda d: True, settings=QUIET)
    assert (rows(data), data.y) == ([["-1"], ["1"]], (-1, 1))


def test_a_condition_shrinks_to_a_small_simple_dataset() -> None:
    data = find(separable_datasets(), lambda d: d.n_samples >= 4 and any(v.denominator > 1 for x in d.X for v in x),
                settings=QUIET)
    assert data.n_samples == 4 and data.n_features == 1
    assert max(v.denominator for x in data.X for v in x) == 2
    assert max(abs(v) for x in data.X for v in x) <= 2


def test_nonseparable_datasets_shrink_to_one_point_with_both_labels() -> None:
    data = find(nonseparable_datasets(), lambda d: True, settings=QUIET)
    assert (rows(data), sorted(data.y)) == ([["0"], ["0"]], [-1, 1])


def test_shrinking_is_deterministic() -> None:
    condition = lambda d: d.n_samples >= 3  # noqa: E731
    first = find(datasets(max_features=1), condition, settings=QUIET)
    second = find(datasets(max_features=1), condition, settings=QUIET)
    assert (rows(first), first.y) == (rows(second), second.y)


# --- worked examples -------------------------------------------------------------------------------------


def test_worked_examples_are_the_notes_examples() -> None:
    cases = dict(worked_examples())
    assert list(cases) == ["and", "or", "modified-or"]
    assert cases["and"] == example("and")
    assert [name for name, _ in worked_examples(nonseparable=True)][-1] == "xor"


def test_strategies_module_draws_nothing_at_import_and_stays_out_of_the_chain() -> None:
    code = (
        "import sys, verify_perceptron, verify_perceptron.cli as c; c.main(['verify', '--example', 'and', "
        "'--format', 'json']); print(sorted(m for m in ('verify_perceptron.harness.strategies', 'verify_perceptron.harness', "
        "'verify_perceptron.harness.pytest_plugin') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"


@given(st.data())
def test_strategies_compose_with_other_strategies(data: st.DataObject) -> None:
    drawn = data.draw(st.one_of(separable_datasets(max_samples=3), nonseparable_datasets(max_samples=3)))
    assert isinstance(drawn, Dataset)
