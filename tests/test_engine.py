"""The engine against the notes' worked examples, exactly, and its settings and stopping rules."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from verify_perceptron.notes.conventions import CONVENTIONS, get_convention
from verify_perceptron.data.dataset import Dataset
from verify_perceptron.run.reference import train
from verify_perceptron.errors import InvalidArgument
from verify_perceptron.data.examples import example
from verify_perceptron.data.trace import STOP_REASONS

F = Fraction
ALL = tuple(CONVENTIONS)


def vec(*values) -> tuple[Fraction, ...]:
    return tuple(Fraction(v) for v in values)


def data_of(X, y) -> Dataset:
    return Dataset(X=tuple(tuple(Fraction(v) for v in row) for row in X), y=tuple(y))


# ------------------------------------------------------------------------------------------------
# note 000, Table 1: boolean AND, classic, η = 1


def test_and_example_ends_at_note_000_final_weights():
    trace = train(example("and"), "classic", eta=1)
    assert trace.final_weights == vec(-4, 3, 2)
    assert trace.converged and trace.stop == "converged"


def test_and_example_first_epoch_is_as_note_000_tabulates():
    trace = train(example("and"), "classic", eta=1)
    first_epoch = [u for u in trace.updates if u.epoch == 1]
    # 1. ŷ1 = 0 -> w = [-1 0 0]; 2., 3. ŷ = -1, no update; 4. ŷ4 = -1 -> w = [0 1 1]
    assert [(u.k, u.samples, u.scores, u.weights) for u in first_epoch] == [
        (1, (0,), vec(0), vec(-1, 0, 0)),
        (2, (3,), vec(-1), vec(0, 1, 1)),
    ]
    assert first_epoch[0].delta == vec(-1, 0, 0)  # (1)(-1)x1
    assert first_epoch[1].delta == vec(1, 1, 1)  # (1)(1)x4


def test_and_example_replays_algorithm_1_step_by_step():
    # Algorithm 1 of note 000, replayed by hand: every presentation, every update, nothing skipped.
    data = example("and")
    trace = train(data, "classic", eta=1)
    expected: list[tuple[int, tuple[int], tuple[F], tuple[F, ...]]] = []
    w: tuple[F, ...] = (F(0), F(0), F(0))
    epoch = 0
    while True:
        epoch += 1
        changed = False
        for i, (x, y) in enumerate(zip(data.X, data.y)):
            xt = (F(1), *x)
            y_hat = sum((a * b for a, b in zip(w, xt)), F(0))
            if y_hat * y <= 0:
                w = tuple(a + y * b for a, b in zip(w, xt))
                expected.append((epoch, (i,), (y_hat,), w))
                changed = True
        if not changed:
            break
    assert [(u.epoch, u.samples, u.scores, u.weights) for u in trace.updates] == expected
    assert w == trace.final_weights == vec(-4, 3, 2)
    assert trace.n_updates == 18 and trace.n_epochs == epoch == 9
    assert trace.mistakes_per_sample == (2, 5, 4, 7)


# ------------------------------------------------------------------------------------------------
# note 003: the modified OR, sum-norm, ε = 1


def test_modified_or_online_makes_the_three_tabulated_updates():
    data = example("modified-or")
    trace = train(data, "sum-norm", eta=1, mode="online")
    assert [u.samples for u in trace.updates] == [(0,), (1,), (2,)]
    assert [u.weights for u in trace.updates] == [vec(1, 1, 1), vec(2, 0, 0), vec(1, 1, -1)]
    assert [u.delta for u in trace.updates] == [vec(1, 1, 1), vec(1, -1, -1), vec(-1, 1, -1)]
    # recorded scores are w·x; the note's column is t·w·x = 0, -1, -2 for rows 1-3
    assert [u.scores for u in trace.updates] == [vec(0), vec(-1), vec(-2)]
    assert [data.y[u.samples[0]] * u.scores[0] for u in trace.updates] == [0, -1, -2]
    assert trace.final_weights == vec(1, 1, -1)
    assert trace.converged and trace.n_epochs == 2


def test_modified_or_online_second_epoch_scores_as_tabulated():
    # rows 4, 1, 2, 3, 4 of the table: t·w·x = 3, 1, 1, 1, 3 at w = (1, 1, -1), no update
    data = example("modified-or")
    w = train(data, "sum-norm").final_weights
    conv = CONVENTIONS["sum-norm"]
    margins = [t * sum((a * b for a, b in zip(w, conv.augment(x))), F(0)) for x, t in zip(data.X, data.y)]
    assert margins == [1, 1, 1, 3]


def test_modified_or_batch_makes_one_update_then_a_clean_pass():
    data = example("modified-or")
    trace = train(data, "sum-norm", eta=1, mode="batch")
    assert trace.n_updates == 1
    (u,) = trace.updates
    assert u.samples == (0, 1, 2, 3) and u.scores == vec(0, 0, 0, 0)
    assert u.delta == vec(2, 2, -2) and u.weights == vec(2, 2, -2)
    assert trace.final_weights == vec(2, 2, -2)
    assert trace.n_epochs == 2 and trace.converged
    assert trace.n_mistakes == 4


# ------------------------------------------------------------------------------------------------
# the update rules


def test_hard_limiter_update_is_two_eta_d_x():
    data = example("and")
    for eta in (F(1), F(1, 2), F(1, 3)):
        trace = train(data, "hard-limiter", eta=eta)
        assert trace.n_updates > 0
        for u in trace.updates:
            (i,) = u.samples
            x = CONVENTIONS["hard-limiter"].augment(data.X[i])
            d = data.y[i]
            output = 1 if u.scores[0] > 0 else -1
            assert output != d
            assert u.delta == tuple(eta * (d - output) * xj for xj in x)
            assert u.delta == tuple(2 * eta * d * xj for xj in x)


def test_hard_limiter_treats_a_zero_score_as_class_minus_one():
    conv = CONVENTIONS["hard-limiter"]
    assert conv.decide(F(0), -1, F(1)) is None  # sgn(0) = -1 is right for d = -1
    assert conv.decide(F(0), 1, F(1)) == 2
    assert CONVENTIONS["classic"].decide(F(0), -1, F(1)) == -1  # the `<= 0` rule updates


def test_step_size_is_two_eta_for_hard_limiter_and_one_for_unit_ball():
    assert CONVENTIONS["hard-limiter"].step_size(F(1, 3)) == F(2, 3)
    assert CONVENTIONS["classic"].step_size(F(1, 3)) == F(1, 3)
    assert CONVENTIONS["sum-norm"].step_size(F(5)) == 5
    assert CONVENTIONS["split-bias"].step_size(F(2, 7)) == F(2, 7)
    assert CONVENTIONS["unit-ball"].step_size(F(1)) == 1


@pytest.mark.parametrize(
    "name, x, expected",
    [
        ("classic", (2, 3), (1, 2, 3)),
        ("hard-limiter", (2, 3), (1, 2, 3)),
        ("unit-ball", (2, 3), (2, 3, 1)),
        ("sum-norm", (2, 3), (2, 3, -1)),
        ("split-bias", (2, 3), (1, 2, 3)),
    ],
)
def test_augment_places_the_constant_input_as_the_note_does(name, x, expected):
    assert CONVENTIONS[name].augment(vec(*x)) == vec(*expected)


@pytest.mark.parametrize("name", ALL)
def test_canonical_round_trip_preserves_the_score(name):
    conv = CONVENTIONS[name]
    b, v = F(-7, 3), vec(F(1, 2), 5)
    w = conv.from_canonical(b, v)
    assert conv.to_canonical(w) == (b, v)
    x = vec(3, F(-2, 5))
    score = sum((p * q for p, q in zip(w, conv.augment(x))), F(0))
    assert score == sum((p * q for p, q in zip(v, x)), F(0)) + b


def test_get_convention_accepts_note_numbers():
    assert get_convention("003").name == "sum-norm"
    assert get_convention("note-001").name == "hard-limiter"
    assert get_convention("004_0d14cbbd3b612206.txt").name == "split-bias"
    with pytest.raises(InvalidArgument):
        get_convention("no-such-note")


# ------------------------------------------------------------------------------------------------
# learning-rate validation, per convention


@pytest.mark.parametrize("eta", [F(1, 100), F(1, 2), 1])
def test_hard_limiter_accepts_rates_in_zero_one(eta):
    assert train(example("and"), "hard-limiter", eta=eta).converged


@pytest.mark.parametrize("eta", [0, -1, F(101, 100), 2])
def test_hard_limiter_rejects_rates_outside_zero_one(eta):
    with pytest.raises(InvalidArgument):
        train(example("and"), "hard-limiter", eta=eta)


@pytest.mark.parametrize("eta", [F(1, 2), 2, 0, -1])
def test_unit_ball_requires_rate_one(eta):
    with pytest.raises(InvalidArgument):
        train(example("and"), "unit-ball", eta=eta)


def test_unit_ball_accepts_rate_one_in_any_spelling():
    for eta in (1, F(1), "1", 1.0, "2/2"):
        assert train(example("and"), "unit-ball", eta=eta).rate == 1


@pytest.mark.parametrize("name", ["classic", "sum-norm", "split-bias"])
@pytest.mark.parametrize("eta", [F(1, 1000), F(7, 3), 50])
def test_free_rate_conventions_accept_any_positive_rate(name, eta):
    trace = train(example("and"), name, eta=eta)
    assert trace.converged and trace.rate == F(eta)


@pytest.mark.parametrize("name", ["classic", "sum-norm", "split-bias"])
@pytest.mark.parametrize("eta", [0, -1, F(-1, 2)])
def test_free_rate_conventions_reject_non_positive_rates(name, eta):
    with pytest.raises(InvalidArgument):
        train(example("and"), name, eta=eta)


@pytest.mark.parametrize("eta", [True, "abc", float("nan"), float("inf"), None])
def test_rate_that_is_not_a_rational_is_rejected(eta):
    with pytest.raises(InvalidArgument):
        train(example("and"), "classic", eta=eta)


def test_rate_errors_are_value_errors_naming_the_value():
    with pytest.raises(ValueError, match="eta=2"):
        train(example("and"), "hard-limiter", eta=2)


def test_float_rate_is_converted_exactly():
    assert train(example("and"), "classic", eta=0.5).rate == F(1, 2)
    assert train(example("and"), "classic", eta=0.1).rate == F(0.1)  # the binary double, exactly


@pytest.mark.parametrize("bad", [{"mode": "stochastic"}, {"max_epochs": 0}, {"max_epochs": True}, {"max_epochs": 2.0}])
def test_bad_mode_or_epoch_limit_is_rejected(bad):
    with pytest.raises(InvalidArgument):
        train(example("and"), "classic", **bad)


# ------------------------------------------------------------------------------------------------
# stopping


def test_max_epochs_stops_an_unfinished_run():
    trace = train(example("and"), "classic", max_epochs=2)
    assert trace.stop == "max-epochs" and not trace.converged
    assert trace.n_epochs == 2 and trace.cycle is None
    assert all(u.epoch <= 2 for u in trace.updates)
    full = train(example("and"), "classic")
    assert trace.updates == full.updates[: trace.n_updates]  # a prefix of the full run
    assert trace.final_weights == trace.updates[-1].weights


def test_max_epochs_is_not_reported_when_the_last_allowed_pass_is_clean():
    full = train(example("and"), "classic")
    exact = train(example("and"), "classic", max_epochs=full.n_epochs)
    assert exact.stop == "converged" and exact.updates == full.updates


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("mode", ["online", "batch"])
def test_xor_cycles(name, mode):
    trace = train(example("xor"), name, mode=mode)
    assert trace.stop == "cycle" and not trace.converged and trace.cycle is not None
    first, last = trace.cycle
    assert 0 <= first < last == trace.n_epochs
    # the weights at the end of epoch `last` equal those at the end of epoch `first`
    def at_end_of(epoch):
        ws = [u.weights for u in trace.updates if u.epoch <= epoch]
        return ws[-1] if ws else tuple(F(0) for _ in trace.final_weights)
    assert at_end_of(first) == at_end_of(last) == trace.final_weights


def test_xor_classic_returns_to_zero_after_one_epoch():
    trace = train(example("xor"), "classic")
    assert trace.cycle == (0, 1)
    assert [u.samples for u in trace.updates] == [(0,), (1,), (2,), (3,)]
    assert trace.final_weights == vec(0, 0, 0)


def test_xor_hard_limiter_stops_at_its_first_repeat_of_period_one():
    # Epoch 3's mistakes sum to a zero step, so w_3 = w_2: the run stops there (9 updates), not at
    # Brent's next look (w_4 = w_3, 13 updates), and epoch 3's mistakes are the certificate.
    trace = train(example("xor"), "hard-limiter")
    assert (trace.cycle, trace.n_epochs, trace.n_updates) == ((2, 3), 3, 9)
    assert [u.epoch for u in trace.updates] == [1, 1, 2, 2, 2, 3, 3, 3, 3]
    assert trace.cycle_mistakes == (1, 1, 1, 1)
    assert [sum(col) for col in zip(*(u.delta for u in trace.updates if u.epoch == 3))] == [0, 0, 0]


def test_stop_reasons_are_documented():
    stops = {train(example(n), "classic", max_epochs=m).stop for n, m in [("and", 1000), ("and", 1), ("xor", 1000)]}
    assert stops == {"converged", "max-epochs", "cycle"}
    assert stops <= set(STOP_REASONS)


# ------------------------------------------------------------------------------------------------
# bookkeeping


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("mode", ["online", "batch"])
@pytest.mark.parametrize("ex", ["and", "or", "modified-or", "xor"])
def test_per_sample_mistake_counts_sum_to_n_mistakes(name, mode, ex):
    trace = train(example(ex), name, mode=mode)
    counted = [0] * len(trace.mistakes_per_sample)
    for u in trace.updates:
        for j in u.samples:
            counted[j] += 1
    assert tuple(counted) == trace.mistakes_per_sample
    assert sum(trace.mistakes_per_sample) == trace.n_mistakes
    if mode == "online":
        assert trace.n_mistakes == trace.n_updates


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("ex", ["and", "or", "modified-or", "xor"])
def test_batch_update_is_the_sum_of_the_pass_mistakes(name, ex):
    data = example(ex)
    conv = CONVENTIONS[name]
    trace = train(data, name, mode="batch")
    w = tuple(F(0) for _ in range(data.n_features + 1))
    for u in trace.updates:
        xs = [conv.augment(x) for x in data.X]
        scores = [sum((a * b for a, b in zip(w, x)), F(0)) for x in xs]
        wrong = [i for i, s in enumerate(scores) if conv.decide(s, data.y[i], trace.rate) is not None]
        assert u.samples == tuple(wrong)  # every mistake of the pass, against the same w
        assert u.scores == tuple(scores[i] for i in wrong)
        total = [F(0)] * len(w)
        for i in wrong:
            factor = conv.decide(scores[i], data.y[i], trace.rate)
            assert factor is not None  # i is a mistake
            total = [t + factor * xj for t, xj in zip(total, xs[i])]
        assert u.delta == tuple(total)
        w = tuple(a + b for a, b in zip(w, total))
        assert u.weights == w
    assert len({u.epoch for u in trace.updates}) == trace.n_updates  # at most one update per pass


def test_batch_and_online_differ_on_and():
    online = train(example("and"), "classic", mode="online")
    batch = train(example("and"), "classic", mode="batch")
    assert batch.final_weights == vec(-3, 2, 2) and batch.n_updates == 9 and batch.n_mistakes == 15
    assert online.final_weights == vec(-4, 3, 2)


def test_updates_are_numbered_from_one_in_order():
    trace = train(example("and"), "classic")
    assert [u.k for u in trace.updates] == list(range(1, 19))
    epochs = [u.epoch for u in trace.updates]
    assert epochs == sorted(epochs) and epochs[0] == 1


def test_progress_is_called_once_per_epoch():
    calls = []
    trace = train(example("and"), "classic", progress=lambda e, n: calls.append((e, n)))
    assert [e for e, _ in calls] == list(range(1, trace.n_epochs + 1))
    assert calls[-1] == (trace.n_epochs, trace.n_updates)


def test_same_point_under_both_labels_never_converges():
    data = data_of([(1, 2), (1, 2)], (1, -1))
    for name in ALL:
        trace = train(data, name)
        assert trace.stop == "cycle", name


def test_reordered_data_changes_the_run_but_not_its_validity():
    data = example("and").reordered([3, 2, 1, 0])
    trace = train(data, "classic")
    assert trace.converged
    b, v = CONVENTIONS["classic"].to_canonical(trace.final_weights)
    assert all(y * (sum((p * q for p, q in zip(v, x)), F(0)) + b) > 0 for x, y in zip(data.X, data.y))


@pytest.mark.parametrize("time_limit", [-1, 0, float("nan"), float("-inf"), float("inf"), True, "5"])
def test_a_time_limit_that_is_no_positive_finite_number_is_refused_by_every_engine(time_limit: Any) -> None:
    # Any: values of the wrong type, passed as a user's untyped code would
    from verify_perceptron.pipeline import verify_run
    from verify_perceptron.run.fast import run

    for engine in (train, run, verify_run):
        with pytest.raises(InvalidArgument, match=f"time_limit={time_limit!r:.4}"):
            engine(example("and"), time_limit=time_limit)


@pytest.mark.parametrize("data", [None, [[0, 1]], "and.csv"])
def test_data_that_is_no_dataset_is_named_not_an_attribute_error(data: Any) -> None:  # Any: no Dataset, on purpose
    from verify_perceptron.check.traces import check_trace
    from verify_perceptron.run.fast import run

    for engine in (train, run):
        with pytest.raises(InvalidArgument, match="is not a Dataset"):
            engine(data)
    with pytest.raises(InvalidArgument, match="trace=None of type NoneType is not a Trace"):
        check_trace(example("and"), None)  # type: ignore[arg-type]
