"""The cycle watch: period 1 at its first repeat, longer periods by Brent, the same stop in every engine."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.data_strategies import halves
from verify_perceptron.certify.certificates import certificate_from_cycle, gordan_defect
from verify_perceptron.data.dataset import Dataset
from verify_perceptron.data.examples import example
from verify_perceptron.notes.conventions import CONVENTIONS
from verify_perceptron.run import fast
from verify_perceptron.run import kernel as _kernel
from verify_perceptron.run.cycles import CycleWatch
from verify_perceptron.run.reference import train

F = Fraction


def expected_stop(tail: int, period: int) -> int:
    """The epoch the watch stops at: the first repeat for period 1, else Brent's 2^k - 1 + p."""
    if period == 1:
        return tail + 1
    k = 0
    while 2**k - 1 < tail or 2**k < period:
        k += 1
    return 2**k - 1 + period


def watch_sequence(tail: int, period: int, epochs: int) -> tuple[tuple[int, int] | None, int]:
    """Feed the watch states 0..tail+period-1, then round the cycle; its answer and the epoch it stopped at."""
    state = lambda e: e if e < tail + period else tail + (e - tail) % period  # noqa: E731
    watch = CycleWatch(state(0), [0], lambda w: [1])
    for e in range(1, epochs + 1):
        found = watch.seen_before(state(e), e, [e])
        if found is not None:
            assert state(found[0]) == state(found[1])  # a true repeat
            return found, e
    return None, epochs


@pytest.mark.parametrize("tail", range(0, 12))
@pytest.mark.parametrize("period", range(1, 12))
def test_the_watch_stops_where_its_docstring_says(tail, period):
    found, at = watch_sequence(tail, period, 200)
    assert at == expected_stop(tail, period) and found == (at - period, at)
    assert at - (tail + period) < max(tail + 1, 2 * period)  # how late, at most


def test_a_sequence_that_never_repeats_is_never_reported():
    assert watch_sequence(10**6, 1, 3000) == (None, 3000)


def test_the_period_one_certificate_is_the_recounted_epoch_and_brents_the_count_difference():
    recounts: list[object] = []

    def recount(w: object) -> list[int]:
        recounts.append(w)
        return [2, 0]

    watch = CycleWatch("a", [0, 0], recount)
    assert watch.seen_before("b", 1, [1, 1]) is None and watch.seen_before("b", 2, [3, 1]) == (1, 2)
    assert watch.cycle_mistakes == (2, 0) and recounts == ["b"]
    watch = CycleWatch("a", [0, 0], lambda w: pytest.fail("no recount for period 2"))
    assert [watch.seen_before(w, e, [e, 2 * e]) for e, w in enumerate("bcb", start=1)] == [None, None, (1, 3)]
    assert watch.cycle_mistakes == (2, 4)


def test_a_state_passed_without_a_look_still_serves_the_next_epoch():
    watch = CycleWatch(0, [0], lambda w: [1])
    watch.passed(5, 7)  # a compiled pass went past epoch 7 with these weights
    assert watch.seen_before(5, 8, [8]) == (7, 8)
    watch = CycleWatch(0, [0], lambda w: [1])
    watch.passed(5, 6)  # not the epoch just before: no period-1 claim
    assert watch.seen_before(5, 8, [8]) is None


# ------------------------------------------------------------------------------------------------
# the engines


def engines(data, convention, **options):
    """The reference run, the fast run (compiled where built) and the fast run on its NumPy path."""
    reference = train(data, convention, **options)
    compiled = fast.run(data, convention, keep_updates=10**9, **options)
    saved = _kernel.AVAILABLE
    _kernel.AVAILABLE = False
    try:
        numpy_path = fast.run(data, convention, keep_updates=10**9, **options)
    finally:
        _kernel.AVAILABLE = saved
    return reference, compiled, numpy_path


def summary(trace):
    return (trace.stop, trace.cycle, trace.n_epochs, trace.n_updates, trace.cycle_mistakes, trace.final_weights,
            tuple(trace.mistakes_per_sample))


def epoch_ends(trace) -> list[tuple[Fraction, ...]]:
    """The weights after each epoch 0..n_epochs, from a trace that kept every update."""
    ends = [tuple(F(0) for _ in trace.final_weights)]
    for epoch in range(1, trace.n_epochs + 1):
        ends.append(next((u.weights for u in reversed(trace.updates) if u.epoch <= epoch), ends[0]))
    return ends


def test_xor_under_the_hard_limiter_stops_at_its_first_repeat_in_every_engine():
    for trace in engines(example("xor"), "hard-limiter"):
        assert (trace.stop, trace.cycle, trace.n_epochs, trace.n_updates) == ("cycle", (2, 3), 3, 9)
        assert trace.cycle_mistakes == (1, 1, 1, 1)
        assert trace.final_weights == (F(2), F(-2), F(0))
        certificate = certificate_from_cycle(trace)
        assert certificate is not None and gordan_defect(example("xor"), certificate) is None


def test_a_longer_period_is_still_found_by_brent_in_every_engine():
    # Online classic on these three points repeats with period 4 after a tail of 2 epochs: first at
    # epoch 6 (w_6 = w_2); Brent's state saved at epoch 3 sees it one epoch later (w_7 = w_3). Batch
    # XOR under the hard limiter repeats with period 2 at once (w_3 = w_1).
    data = Dataset(X=((F(-1),), (F(2),), (F(-2),)), y=(1, -1, -1))
    for trace in engines(data, "classic"):
        assert (trace.stop, trace.cycle, trace.n_updates) == ("cycle", (3, 7), 15)
        certificate = certificate_from_cycle(trace)
        assert certificate is not None and gordan_defect(data, certificate) is None
    ends = epoch_ends(engines(data, "classic")[0])
    assert ends[2] == ends[6] and ends[3] == ends[7] and len(set(ends[:6])) == 6
    for trace in engines(example("xor"), "hard-limiter", mode="batch"):
        assert (trace.stop, trace.cycle, trace.n_updates, trace.cycle_mistakes) == ("cycle", (1, 3), 3, (1, 1, 1, 1))


@st.composite
def never_separable(draw: st.DrawFn) -> Dataset:
    """Small data with one sample repeated under the other label: no separator, the run never converges."""
    data = draw(halves(max_samples=5, max_features=2))
    i = draw(st.integers(0, data.n_samples - 1))
    return Dataset(X=(*data.X, data.X[i]), y=(*data.y, -data.y[i]))


@given(data=never_separable(), convention=st.sampled_from(sorted(CONVENTIONS)),
       mode=st.sampled_from(["online", "batch"]))
def test_every_engine_stops_non_separable_data_at_the_same_epoch_where_the_watch_says(data, convention, mode):
    reference, compiled, numpy_path = engines(data, convention, mode=mode, max_epochs=80)
    assert summary(compiled) == summary(reference) == summary(numpy_path)
    assert compiled.updates == reference.updates
    assert reference.stop in ("cycle", "max-epochs")
    ends = epoch_ends(reference)
    first = next((e for e in range(1, len(ends)) if ends[e] in ends[:e]), None)
    if reference.stop == "max-epochs":
        assert first is None or expected_stop(ends.index(ends[first]), first - ends.index(ends[first])) > 80
        return
    assert first is not None  # the run stopped at a cycle: an epoch's end repeats
    tail = ends.index(ends[first])
    period = first - tail
    assert reference.cycle == (reference.n_epochs - period, reference.n_epochs) == (
        expected_stop(tail, period) - period, expected_stop(tail, period))
    certificate = certificate_from_cycle(reference)
    assert certificate is not None and gordan_defect(data, certificate) is None


# ------------------------------------------------------------------------------------------------
# a wrong watch is caught


class _EagerWatch(CycleWatch):
    """Claims a period-1 repeat at the first epoch, whether or not the weights came back."""

    def seen_before(self, state, epoch, counts):
        self.cycle_mistakes = tuple(int(c) for c in self.one_epoch(state))
        return epoch - 1, epoch


class _ShortWatch(CycleWatch):
    """Claims a repeat since the start, with the counts so far as its certificate."""

    def seen_before(self, state, epoch, counts):
        self.cycle_mistakes = tuple(int(c) for c in counts)
        return 0, epoch


@pytest.mark.parametrize("wrong", [_EagerWatch, _ShortWatch])
@pytest.mark.parametrize("name", ["and", "xor"])
def test_a_watch_that_reports_a_repeat_that_is_none_gives_a_certificate_the_check_refuses(monkeypatch, wrong, name):
    from verify_perceptron.check.traces import check_trace
    from verify_perceptron.report.record import build_report

    data = example(name)
    convention = "hard-limiter"  # on XOR its first epoch does not come back: no certificate is true there
    for module in (fast, __import__("verify_perceptron.run.reference", fromlist=["CycleWatch"])):
        monkeypatch.setattr(module, "CycleWatch", wrong)
    for trace in (train(data, convention), fast.run(data, convention, keep_updates=10**9)):
        assert trace.stop == "cycle" and trace.n_epochs == 1
        certificate = certificate_from_cycle(trace)
        assert certificate is not None
        problem = gordan_defect(data, certificate)
        assert problem is not None and problem.startswith("Σ λ_i·y_i·x~_i = [")
        report: dict[str, Any] = dict(build_report(data, trace, check_trace(data, trace)))  # read as JSON
        assert report["cycle"]["certificate_valid"] is False and report["verdict"] != "not-separable"

