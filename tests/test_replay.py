"""The checker's compiled replay gives the verdicts of its Python path, update for update.

`Checker.observe_chunk` replays online updates in C (`_kernel.check_online`)
where the kernel was built, and leaves any update it stops at to
`Checker.observe`. Here the same runs, genuine and tampered, are checked
with ``compiled=True`` and ``compiled=False``, and the two `CheckResult`s
must be equal, exactly. The claims program (`claims.compile_program`) is
held to the claims themselves by a small interpreter written here.
"""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from verify_perceptron.check import kernel as _kernel
from verify_perceptron import pipeline
from verify_perceptron.run import fast
from verify_perceptron.check.checker import Checker
from verify_perceptron.check.separator import strict_final_weights
from verify_perceptron.check.traces import scaled_scores
from verify_perceptron.data.samples import sample_matrix
from verify_perceptron.pipeline import verify_run
from verify_perceptron.notes.claims import CLAIMS, OPS, QUANTITIES, Claim, claims_for, compile_program
from verify_perceptron.notes.conventions import CONVENTIONS
from verify_perceptron.data.dataset import Dataset
from verify_perceptron.data.examples import example

needs_kernel = pytest.mark.skipif(not _kernel.AVAILABLE, reason=f"the C kernel is not built: {_kernel.IMPORT_ERROR}")
ONLINE_RATES = {"classic": 1, "hard-limiter": Fraction(1, 2), "unit-ball": 1, "sum-norm": Fraction(2, 3),
                "split-bias": 3}


@st.composite
def datasets(draw: st.DrawFn, *, max_value: int = 9) -> Dataset:
    """Small integer-over-denominator datasets with both labels (separable or not)."""
    n = draw(st.integers(2, 9))
    d = draw(st.integers(1, 3))
    denominator = draw(st.sampled_from([1, 2, 7, 1000]))
    values = st.integers(-max_value, max_value)
    numerators = np.array(draw(st.lists(st.lists(values, min_size=d, max_size=d), min_size=n, max_size=n)),
                          dtype=np.int64)
    y = draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n).filter(lambda ys: len(set(ys)) == 2))
    return Dataset(numerators=numerators, denominator=denominator, y=y)


def run_checked(data, convention, *, compiled, separator=None, claims=None, feed=None, max_epochs=30):
    """A fast run observed by a Checker; `feed` replaces the run's own chunks when given."""
    checker = Checker(data, convention, rate=ONLINE_RATES[convention], mode="online", separator=separator,
                      claims=claims, compiled=compiled)
    trace = fast.run(data, convention, eta=ONLINE_RATES[convention], max_epochs=max_epochs,
                     observer=None if feed else checker)
    if feed:
        feed(checker)
    return checker.finish(trace)


def both(data, convention, **options):
    """The compiled and the Python verdicts, which must be equal."""
    compiled = run_checked(data, convention, compiled=True, **options)
    python = run_checked(data, convention, compiled=False, **options)
    assert compiled == python
    return compiled


@needs_kernel
@given(data=datasets(), convention=st.sampled_from(sorted(ONLINE_RATES)))
def test_replay_equals_python_with_the_final_weights_or_none(data, convention):
    trace = fast.run(data, convention, eta=ONLINE_RATES[convention], max_epochs=30)
    separator = strict_final_weights(data, CONVENTIONS[convention], trace.final_weights, sample_matrix(data, CONVENTIONS[convention]))[0] if trace.converged else None
    both(data, convention, separator=separator)


@needs_kernel
@given(data=datasets(), convention=st.sampled_from(sorted(ONLINE_RATES)),
       separator=st.lists(st.integers(-5, 5), min_size=4, max_size=4))
def test_replay_equals_python_with_any_separator(data, convention, separator):
    both(data, convention, separator=separator[: data.n_features + 1])


@needs_kernel
@given(data=datasets(max_value=2**40), convention=st.sampled_from(sorted(ONLINE_RATES)))
def test_replay_equals_python_when_values_leave_128_bits(data, convention):
    # Entries near 2^40 over denominator 1000: squared terms of the claims pass 2^128 quickly,
    # so the replay must stop and hand those updates to Python.
    trace = fast.run(data, convention, eta=ONLINE_RATES[convention], max_epochs=30)
    separator = strict_final_weights(data, CONVENTIONS[convention], trace.final_weights, sample_matrix(data, CONVENTIONS[convention]))[0] if trace.converged else None
    both(data, convention, separator=separator)


def chunk_feeder(rows, scores, first=1, epoch=1):
    def feed(checker):
        checker.observe_chunk(first, epoch, np.array(rows, dtype=np.int64),
                              scores if isinstance(scores, np.ndarray) else np.array(scores, dtype=np.int64))
    return feed


def and_data():
    return example("and")


@needs_kernel
@pytest.mark.parametrize("rows, scores, message", [
    ([0, 1], [0, 1], "sample 1 is not a mistake"),  # after update 1 on sample 0, sample 1 scores +1
    ([0, 2], [0, 5], "sample 2's score is not what the run reported"),
    ([0, 7], [0, 0], "sample 7 does not exist"),
    ([0, -1], [0, 0], "sample -1 does not exist"),
])
def test_a_tampered_chunk_fails_the_rule_the_same_way_in_both_paths(rows, scores, message):
    result = both(and_data(), "classic", separator=[-4, 3, 2], feed=chunk_feeder(rows, scores))
    rule = result.invariants[0]
    assert rule.holds is False and message in rule.first_violation.message


@needs_kernel
def test_a_chunk_that_skips_an_update_number_is_caught_in_both_paths():
    result = both(and_data(), "classic", feed=chunk_feeder([0], [0], first=2))
    assert result.invariants[0].holds is False


FALSE_CLAIM = Claim("never-growing", "‖w_k‖² <= ‖w_{k-1}‖²", "a false claim, for the test", lambda q: q.w_sq,
                    lambda q: q.prev_w_sq, ("w_sq", "prev_w_sq"), needs_separator=False)
TENTH_BOUND = Claim("tenth-bound", "N <= B/10", "a tenth of the mistake bound, for the test", lambda q: 10 * q.N,
                    lambda q: q.bound, ("N", "bound"))


@needs_kernel
@pytest.mark.parametrize("claim", [FALSE_CLAIM, TENTH_BOUND], ids=lambda c: c.name)
def test_a_violated_claim_is_found_at_the_same_update_with_the_same_values(claim):
    claims = [*claims_for("classic", "online"), claim]
    result = both(and_data(), "classic", separator=[-4, 3, 2], claims=claims)
    failed = [r for r in result.invariants if r.name == claim.name][0]
    assert failed.holds is False and failed.first_violation.k >= 1


@needs_kernel
def test_verify_run_gives_the_same_result_with_and_without_the_replay_budget(monkeypatch):
    data = example("and")
    kept = verify_run(data, convention="classic")
    monkeypatch.setattr(pipeline, "MIN_REPLAY_BYTES", 0)  # a budget of a few bytes: the run is made again
    rerun = verify_run(data, convention="classic")
    assert kept[1] == rerun[1]
    assert kept[0].final_weights == rerun[0].final_weights and kept[0].n_updates == rerun[0].n_updates


# ------------------------------------------------------------------------------------------------
# the claims program


def interpret(code, values):
    """The program's meaning, by hand: postfix over `values`, one result per END."""
    stack: list[int] = []  # the values are integers: quantities' numerators and the program's constants
    out: list[int] = []
    pc = 0
    names = {v: k for k, v in OPS.items()}
    while pc < len(code):
        op = names[code[pc]]
        if op == "end":
            out.append(stack.pop())
        elif op in ("quantity", "constant", "**"):
            pc += 1
            if op == "quantity":
                stack.append(values[code[pc]])
            elif op == "constant":
                stack.append(code[pc])
            else:
                stack.append(stack.pop() ** code[pc])
        elif op == "neg":
            stack.append(-stack.pop())
        else:
            right, left = stack.pop(), stack.pop()
            stack.append({"+": left + right, "-": left - right, "*": left * right}[op])
        pc += 1
    return out


@given(values=st.lists(st.integers(-10**6, 10**6), min_size=len(QUANTITIES), max_size=len(QUANTITIES)),
       bound_denominator=st.integers(1, 50))
def test_the_program_computes_each_claims_slack_times_its_scale(values, bound_denominator):
    numerators = dict(zip(QUANTITIES, values))
    code, scales = compile_program(CLAIMS, {"bound": bound_denominator} if bound_denominator > 1 else {})
    true = dict(numerators, bound=Fraction(numerators["bound"], bound_denominator))
    expected = [claim.slack(SimpleNamespace(**true)) for claim in CLAIMS]
    got = interpret(code, [numerators[name] for name in QUANTITIES])
    assert [Fraction(g, s) for g, s in zip(got, scales)] == expected
    assert all(s > 0 for s in scales)


def test_a_changed_claim_changes_its_program():
    upper = [c for c in CLAIMS if c.name == "upper-bound"][0]
    halved = Claim(upper.name, upper.text, upper.source, upper.lhs, lambda q: upper.rhs(q) * Fraction(1, 2),
                   upper.uses, needs_separator=False)
    values = [3] * len(QUANTITIES)
    with pytest.raises(ValueError, match="int64 constants"):  # a Fraction constant has no program
        compile_program([halved], {})
    doubled = Claim(upper.name, upper.text, upper.source, lambda q: 2 * upper.lhs(q), upper.rhs, upper.uses)
    assert interpret(compile_program([upper], {})[0], values) != interpret(compile_program([doubled], {})[0], values)


def test_a_claim_that_divides_has_no_program():
    dividing = Claim("ratio", "w_sq / N <= R_sq", "a test", lambda q: q.w_sq / q.N, lambda q: q.R_sq, ("w_sq",))
    with pytest.raises(ValueError, match="no division"):
        compile_program([dividing], {})


@needs_kernel
def test_verify_run_replays_every_update_of_a_plain_run_in_c(monkeypatch):
    # Not a test of speed: it shows the differential tests above compare two different paths.
    replayed = []
    original = _kernel.check_online
    assert original is not None  # needs_kernel skips the test without the extension

    def counting(*args):
        done, state, verdicts = original(*args)
        replayed.append(done)
        return done, state, verdicts

    monkeypatch.setattr(_kernel, "check_online", counting)
    trace, result = verify_run(example("and"), convention="classic")
    assert result.holds and sum(replayed) == trace.n_updates == 18


@needs_kernel
def test_a_chunk_of_several_epochs_is_replayed_and_a_decreasing_epoch_is_caught():
    data = example("and")
    trace = fast.run(data, "classic", keep_updates=10**9)
    rows = np.array([u.samples[0] for u in trace.updates], dtype=np.int64)
    scores = np.array([scaled_scores(data, u, Fraction(1))[0] for u in trace.updates])
    epochs = np.array([u.epoch for u in trace.updates], dtype=np.int64)
    for compiled in (True, False):
        checker = Checker(data, "classic", rate=1, mode="online", separator=[-4, 3, 2], compiled=compiled)
        checker.observe_chunk(1, epochs, rows, scores.astype(np.int64))
        assert checker.finish(trace).holds
    backwards = epochs.copy()
    backwards[5] = backwards[4] - 1
    verdicts = []
    for compiled in (True, False):
        checker = Checker(data, "classic", rate=1, mode="online", separator=[-4, 3, 2], compiled=compiled)
        checker.observe_chunk(1, backwards, rows, scores.astype(np.int64))
        verdicts.append(checker.finish(trace))
    assert verdicts[0] == verdicts[1] and verdicts[0].invariants[0].holds is False
    violation = verdicts[0].invariants[0].first_violation
    assert violation is not None and "update 6 of epoch" in violation.message


@pytest.mark.parametrize("as_counts", [False, True], ids=["tuple", "Counts"])
def test_wrong_per_sample_counts_are_caught_as_a_tuple_or_as_counts(as_counts):
    import dataclasses

    from verify_perceptron.data.trace import Counts

    data = example("and")
    checker = Checker(data, "classic", rate=1, mode="online", separator=[-4, 3, 2])
    trace = fast.run(data, "classic", observer=checker)
    assert isinstance(trace.mistakes_per_sample, Counts)
    wrong = list(trace.mistakes_per_sample)
    wrong[0] += 1
    tampered = dataclasses.replace(trace, mistakes_per_sample=Counts(wrong) if as_counts else tuple(wrong))
    rule = checker.finish(tampered).invariants[0]
    assert rule.holds is False and rule.first_violation is not None
    assert "per-sample mistake counts" in rule.first_violation.message


class _Counting:
    """A recorder that keeps the update numbers it was told of."""

    def __init__(self) -> None:
        self.ks: list[int] = []

    def observe(self, k, epoch, samples, scores) -> None:
        self.ks.append(k)


@pytest.mark.parametrize("name", ["and", "xor"])
def test_past_the_replay_budget_a_run_is_made_again_only_when_it_converged(monkeypatch, name):
    # A run that does not converge (xor cycles) is checked as it goes, once the budget is spent: one run.
    # A converged one (and) is made again with w* known. Either way the recorder hears each update once.
    data = example(name)
    expected_trace, expected = verify_run(data)
    runs: list[int] = []
    real_run = fast.run

    def counted_run(*a, **k):
        runs.append(1)
        return real_run(*a, **k)

    monkeypatch.setattr(fast, "run", counted_run)
    monkeypatch.setattr(pipeline, "MIN_REPLAY_BYTES", 0)  # a budget of a few bytes: it overflows at once
    recorder = _Counting()
    trace, result = verify_run(data, recorder=recorder)
    assert len(runs) == (2 if expected_trace.converged else 1)
    assert recorder.ks == list(range(1, trace.n_updates + 1))
    assert [(r.name, r.holds, r.n_checked, r.min_slack, r.skipped) for r in result.invariants] == \
        [(r.name, r.holds, r.n_checked, r.min_slack, r.skipped) for r in expected.invariants]


def test_a_time_limit_bounds_both_runs_together(monkeypatch):
    # The second run of a converged check gets what is left of the limit, not the whole limit again.
    seen: list[float] = []
    real_run = fast.run

    def timed_run(*a, **k):
        seen.append(k["time_limit"])
        return real_run(*a, **k)

    monkeypatch.setattr(fast, "run", timed_run)
    monkeypatch.setattr(pipeline, "MIN_REPLAY_BYTES", 0)
    verify_run(example("and"), time_limit=30)
    assert len(seen) == 2 and seen[0] == 30 and 0 < seen[1] < 30


class _OneByOne(Checker):
    """The checker with its batch shortcut turned off: every sample of an update is looked at alone."""

    def _batch_samples(self, k, epoch, samples, scores):
        step, s_total = None, 0
        for j, claimed in zip(samples, scores):
            z = self.matrix.exact[j].astype(object)
            s = int(z @ self.W.astype(object))
            self._check_sample(k, epoch, samples, j, claimed, s)
            step, s_total = (z if step is None else step + z), s_total + s
            self.counts[j] += 1
            self.sum_N_xsq += int(self.matrix.norms[j])
        return step, s_total


def batch_checked(checker_class, data, convention, *, separator=None, tamper=None):
    """A batch run observed by `checker_class`; ``tamper(checker, k, samples, scores)`` edits each update first."""
    checker = checker_class(data, convention, rate=ONLINE_RATES[convention], mode="batch", separator=separator)

    class Observer:
        def observe(self, k, epoch, samples, scores):
            samples, scores = tamper(checker, k, list(samples), list(scores)) if tamper else (samples, scores)
            checker.observe(k, epoch, samples, scores)

    trace = fast.run(data, convention, eta=ONLINE_RATES[convention], mode="batch", max_epochs=30, observer=Observer())
    return checker.finish(trace)


@given(data=datasets(max_value=2**20), convention=st.sampled_from(sorted(ONLINE_RATES)),
       separator=st.lists(st.integers(-5, 5), min_size=4, max_size=4))
def test_batch_updates_checked_at_once_give_the_verdicts_of_one_sample_at_a_time(data, convention, separator):
    separator = separator[: data.n_features + 1]
    assert batch_checked(Checker, data, convention, separator=separator) == batch_checked(
        _OneByOne, data, convention, separator=separator)


def _with_a_correct_sample(checker, k, samples, scores):
    """Update 2 also names a sample it did not miss, with that sample's true score: only the rule can fail."""
    if k != 2:
        return samples, scores
    extra = next(j for j in range(checker.data.n_samples) if j not in samples)
    samples = sorted([*samples, extra])
    return samples, [int(checker.matrix.exact[j].astype(object) @ checker.W.astype(object)) for j in samples]


@pytest.mark.parametrize("tamper, message", [
    (lambda c, k, s, v: (s, [v[0] + 1, *v[1:]]) if k == 1 else (s, v), "score is not what the run reported"),
    (lambda c, k, s, v: (s, [*v[:-1], v[-1] - 1]) if k == 3 else (s, v), "score is not what the run reported"),
    (_with_a_correct_sample, "is not a mistake under the rule"),
])
def test_a_tampered_batch_update_fails_the_rule_the_same_way_at_once_and_one_by_one(tamper, message):
    data = example("and")  # batch on AND: updates of 4, 1, 2, 1, ... samples
    at_once, one_by_one = (batch_checked(cls, data, "classic", tamper=tamper) for cls in (Checker, _OneByOne))
    rule = at_once.invariants[0]
    assert rule.holds is False and message in rule.first_violation.message
    assert at_once == one_by_one


@needs_kernel
@pytest.mark.parametrize("tamper", [None, "score", "row"])
def test_past_the_int64_guard_the_replay_and_python_give_the_same_verdicts(tamper):
    # Entries near 2^40: norms past int64, scores past int64 (object arrays), W past the int64 guard.
    rng = np.random.default_rng(5)
    X = rng.integers(-(2**40), 2**40, size=(12, 3))
    data = Dataset(numerators=X, denominator=1, y=[1 if v > 0 else -1 for v in X[:, 0] - X[:, 2]])
    rows, scores = [], []

    class Recorder:
        def observe(self, k, epoch, samples, s):
            rows.append(samples[0])
            scores.append(s[0])

    fast.run(data, "classic", max_epochs=20, observer=Recorder())
    assert max(abs(s) for s in scores) >= 2**63  # the case this test is for
    if tamper == "score":
        scores[len(scores) // 2] += 1
    elif tamper == "row":
        rows[len(rows) // 2] = (rows[len(rows) // 2] + 1) % 12
    feed = chunk_feeder(rows, np.array(scores, dtype=object))
    results = [run_checked(data, "classic", compiled=compiled, feed=feed) for compiled in (True, False)]
    assert results[0] == results[1]
    assert results[0].invariants[0].holds is (tamper is None)


@st.composite
def huge_datasets(draw: st.DrawFn) -> Dataset:
    """Datasets whose values pass 128 bits at once (numerators near 2^70): only the replay in Python
    integers can take a chunk of their updates."""
    n, d = draw(st.integers(2, 8)), draw(st.integers(1, 3))
    values = st.integers(-(2**70), 2**70)
    numerators = np.array(draw(st.lists(st.lists(values, min_size=d, max_size=d), min_size=n, max_size=n)),
                          dtype=object)
    y = draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n).filter(lambda ys: len(set(ys)) == 2))
    return Dataset(numerators=numerators, denominator=draw(st.sampled_from([1, 3, 10**9])), y=y)


@given(data=st.one_of(huge_datasets(), datasets(max_value=2**40)), convention=st.sampled_from(sorted(ONLINE_RATES)),
       separator=st.lists(st.integers(-(2**80), 2**80), min_size=4, max_size=4), spoil=st.sampled_from(
           [None, "score", "row", "claim"]))
def test_past_128_bits_the_chunk_replay_in_python_integers_gives_the_verdicts_of_one_by_one(
        data, convention, separator, spoil):
    # Samples near 2^70 pass 128 bits at once; int64 samples against 80-bit separators pass it in the claims
    # only, and the replay in Python integers takes their scores from C (where built) or NumPy.
    rows, scores = [], []

    class Recorder:
        def observe(self, k, epoch, samples, s):
            rows.append(samples[0])
            scores.append(s[0])

    fast.run(data, convention, eta=ONLINE_RATES[convention], max_epochs=12, observer=Recorder())
    if rows and spoil == "score":
        scores[len(scores) // 2] += 1
    elif rows and spoil == "row":
        rows[-1] = (rows[-1] + 1) % data.n_samples
    claims = [*claims_for(convention, "online"), FALSE_CLAIM] if spoil == "claim" else None
    feed = chunk_feeder(rows, np.array(scores, dtype=object))
    options = {"separator": separator[: data.n_features + 1], "feed": feed, "claims": claims}
    assert run_checked(data, convention, compiled=True, **options) == run_checked(
        data, convention, compiled=False, **options)


def count_python_integer_replays(monkeypatch) -> list[int]:
    """A list that receives how many updates each call of the replay in Python integers took."""
    from verify_perceptron.check import wide_replay

    calls: list[int] = []
    original = wide_replay.ObjectReplay.run

    def counted(self, *args):
        result = original(self, *args)
        calls.append(result[0])
        return result

    monkeypatch.setattr(wide_replay.ObjectReplay, "run", counted)
    return calls


def test_the_chunk_replay_in_python_integers_is_used_past_128_bits(monkeypatch) -> None:
    calls = count_python_integer_replays(monkeypatch)
    # AND, checked against a separator of 100-bit entries: the run is the compiled pass's, in chunks, and
    # the claims' values pass 128 bits, so the C replay stops; the one in limbs takes them where built,
    # else (here: as if it were not) the Python-integer one, with the same verdicts.
    data = example("and")
    big = 2**100
    separator = [-3 * big - 1, 2 * big + 1, 2 * big + 1]
    trace, in_limbs = verify_run(data, "classic", separator=separator)
    assert trace.n_updates == 18 and sum(calls) == 0 or _kernel.check_wide is None
    monkeypatch.setattr(_kernel, "check_wide", None)
    trace, check = verify_run(data, "classic", separator=separator)
    assert trace.n_updates == 18 and sum(calls) == 18 and check.holds and check == in_limbs


def _object_replay_of(data):
    checker = Checker(data, "classic", rate=1, mode="online", separator=[2**100, 1, 1][: data.n_features + 1])
    return checker._object_replay()


@pytest.mark.parametrize("compiled", [pytest.param(True, marks=needs_kernel), False])
@given(st.lists(st.lists(st.integers(-(2**62), 2**62), min_size=2, max_size=2), min_size=2, max_size=6),
       st.lists(st.integers(0, 5), min_size=1, max_size=12), st.integers(-(2**63) + 1, 2**63 - 1))
def test_the_python_integer_replays_scores_are_exact_in_c_and_on_past_int64(compiled, rows, picks, start):
    # In C up to where W would leave int64, then on in Python integers: every score, and W after any prefix.
    data = Dataset(numerators=np.array(rows, dtype=np.int64), denominator=1,
                   y=[(-1) ** i for i in range(len(rows))])
    replay = _object_replay_of(data)
    picked = np.array([p % len(rows) for p in picks], dtype=np.int64)
    W = np.array([start // 5, start, -start // 3], dtype=object)  # (bias, w1, w2): z = y·(1, x)
    saved = _kernel.replay_scores
    _kernel.replay_scores = saved if compiled else None
    try:
        s, after = replay.scores(W.copy(), picked)
    finally:
        _kernel.replay_scores = saved
    Z = replay.Z64.tolist()
    expected, w, prefixes = [], [int(v) for v in W], []
    for i in picked.tolist():
        expected.append(sum(a * b for a, b in zip(w, Z[i])))
        w = [a + b for a, b in zip(w, Z[i])]
        prefixes.append(w)
    assert s.tolist() == expected
    assert [after(m).tolist() for m in range(1, len(prefixes) + 1)] == prefixes


@needs_kernel
def test_a_wrong_c_score_is_not_taken_by_the_python_integer_replay(monkeypatch):
    # The replay compares the scores it made with those reported and leaves any update where they differ
    # to `Checker.observe`: with C scores off by one it replays nothing, and the verdicts do not change.
    data, big = example("and"), 2**100
    separator = [-3 * big - 1, 2 * big + 1, 2 * big + 1]
    replayed = count_python_integer_replays(monkeypatch)
    monkeypatch.setattr(_kernel, "check_wide", None)  # not the replay in limbs, which would take them
    _, right = verify_run(data, "classic", separator=separator)
    assert sum(replayed) == 18
    real = _kernel.replay_scores
    assert real is not None  # needs_kernel skips the test without the extension

    def off_by_one(Z, W, rows, out):
        done = real(Z, W, rows, out)
        out[0] += 1
        return done

    monkeypatch.setattr(_kernel, "replay_scores", off_by_one)
    replayed.clear()
    _, check = verify_run(data, "classic", separator=separator)
    assert sum(replayed) == 0 and check == right and check.holds


@needs_kernel
def test_replay_scores_stops_at_a_bad_row_and_at_a_score_past_128_bits():
    assert _kernel.replay_scores is not None  # needs_kernel skips the test without the extension
    Z = np.array([[2**62, 2**62], [1, 1]], dtype=np.int64)
    out = np.zeros(8, dtype=np.int64)
    W = np.array([2**62, 2**62], dtype=np.int64)
    assert _kernel.replay_scores(Z, W, np.array([1, 2, 0, 0]), out) == 1  # row 2 does not exist
    W = np.full(3, 2**63 - 1, dtype=np.int64)  # z·W = -3·2^63·(2^63 - 1): past 128 bits
    assert _kernel.replay_scores(np.full((1, 3), -(2**63), dtype=np.int64), W, np.array([0]), out[:2]) == 0
    # W + 1 leaves int64
    assert _kernel.replay_scores(np.full((1, 3), 1, dtype=np.int64), W, np.array([0]), out[:2]) == 0
    with pytest.raises(ValueError, match="out has length"):
        _kernel.replay_scores(Z, W[:2], np.array([0]), out)


def test_once_w_leaves_int64_the_python_integer_replay_still_takes_whole_chunks(monkeypatch):
    # The replay in Python integers goes on in chunks where W leaves int64 (its C scores stop there, and
    # the rest of the chunk is scored in Python integers), not leaving updates there to `Checker.observe`.
    # One feature is 3·2^61 in every sample, so its weight, 3·2^61 times a sum of labels, leaves int64 and
    # comes back as that sum wanders between 1 and 2 in magnitude.
    rng = np.random.default_rng(3)
    numerators = np.c_[np.full(40, 3 * 2**61), rng.integers(-9, 10, size=(40, 2))]
    data = Dataset(numerators=numerators, denominator=1,
                   y=[int(v) for v in np.where(rng.integers(0, 2, size=40) == 1, 1, -1)])
    one_by_one: list[int] = []
    original = Checker._observe

    def counted_observe(self, *a):
        one_by_one.append(1)
        return original(self, *a)

    monkeypatch.setattr(Checker, "_observe", counted_observe)
    trace, check = verify_run(data, "classic", max_epochs=30, separator=[2**70, 1, -1, 1])
    assert trace.n_updates > 300 and len(one_by_one) < trace.n_updates // 10
    assert check == verify_run(data, "classic", max_epochs=30, separator=[2**70, 1, -1, 1], engine_name="reference")[1]


@given(data=st.one_of(datasets(max_value=2**62), huge_datasets()), convention=st.sampled_from(sorted(ONLINE_RATES)),
       separator=st.lists(st.integers(-(2**70), 2**70), min_size=4, max_size=4))
def test_batch_updates_past_int64_checked_at_once_give_the_verdicts_of_one_sample_at_a_time(data, convention,
                                                                                           separator):
    # W past the int64 guard: scores from int64 pieces while W's entries fit in int64, else in Python integers.
    separator = separator[: data.n_features + 1]
    assert batch_checked(Checker, data, convention, separator=separator) == batch_checked(
        _OneByOne, data, convention, separator=separator)


@given(integers=st.lists(st.integers(-(2**70), 2**70), min_size=1, max_size=6),
       unit=st.builds(Fraction, st.integers(1, 10**6), st.integers(1, 10**6)))
def test_scaled_weights_read_as_their_fractions_and_scale_as_the_separator_does(integers, unit):
    from verify_perceptron.check.separator import scaled_separator
    from verify_perceptron.data.trace import ScaledWeights

    fractions = tuple(unit * v for v in integers)
    w = ScaledWeights(integers, unit)
    assert w == fractions and fractions == w and w == list(fractions) and hash(w) == hash(fractions)
    assert [w[j] for j in range(-len(w), len(w))] == [*fractions, *fractions] and w[1:] == fractions[1:]
    assert w.scaled() == scaled_separator(fractions) == scaled_separator(w)  # the lcm of the entries' denominators
    assert w.strings() == [str(f) for f in fractions]  # as str(Fraction) writes each, in lowest terms
    assert w + (1,) == fractions + (1,) and (1,) + w == (1,) + fractions and w + w == fractions * 2
    whole = Fraction(unit.numerator)
    assert ScaledWeights(integers, whole).strings() == [str(whole * v) for v in integers]
    assert ScaledWeights(integers, whole) == tuple(whole * v for v in integers)  # (no gcd on this path)
    assert (w == tuple(unit * (v + (j == 0)) for j, v in enumerate(integers))) is False


@pytest.mark.parametrize("change", ["one integer", "another unit", "the same values in another unit"])
def test_final_weights_kept_as_integers_are_checked_against_the_replay(change):
    import dataclasses

    from verify_perceptron.data.trace import ScaledWeights

    data = example("and")
    checker = Checker(data, "classic", rate=1, mode="online", separator=[-4, 3, 2])
    trace = fast.run(data, "classic", observer=checker)
    final = trace.final_weights
    assert isinstance(final, ScaledWeights) and final == (-4, 3, 2)
    V, unit = list(final.integers), final.unit
    if change == "one integer":
        V[1] += 1
    elif change == "another unit":
        unit = unit * 2
    else:
        V, unit = [2 * v for v in V], unit / 2
    rule = checker.finish(dataclasses.replace(trace, final_weights=ScaledWeights(V, unit))).invariants[0]
    if change == "the same values in another unit":
        assert rule.holds is True
    else:
        assert rule.holds is False and rule.first_violation is not None
        assert "final weights are not the sum" in rule.first_violation.message
