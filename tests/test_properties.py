"""Properties of the engine, the conventions, the bounds and the checker on generated rational data.

Every dataset here is small (dimension 1-3, 2-8 samples) with small rationals
(numerators in -3..3, denominators 1..3), and holds both labels. Separable
datasets are labelled by a random rational separator w* = (b, v): sign of
v·x + b, with b chosen strictly between two distinct values of v·x so that no
sample lies on the hyperplane and both labels occur.

Section (d) holds a tiny reference perceptron written from the notes alone
(plain loops over Fractions; it imports nothing from the package's engine or
conventions) and requires the engine's trace to equal it exactly.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import assume, example, given
from hypothesis import strategies as st

from verify_perceptron.notes.bounds import geometry, note_bound
from verify_perceptron.check.traces import check_trace
from verify_perceptron.notes.conventions import CONVENTIONS
from verify_perceptron.data.dataset import Dataset
from verify_perceptron.run.reference import train

ALL = ("classic", "hard-limiter", "unit-ball", "sum-norm", "split-bias")
LE_ZERO_TIE_RULE = ("classic", "unit-ball", "sum-norm", "split-bias")
WITH_RATE = ("classic", "hard-limiter", "sum-norm", "split-bias")  # unit-ball has no rate
MODES = ("online", "batch")

# ------------------------------------------------------------------------------------------------
# strategies


def small_rationals() -> st.SearchStrategy[Fraction]:
    return st.builds(Fraction, st.integers(-3, 3), st.integers(1, 3))


@st.composite
def points(draw: st.DrawFn) -> tuple[tuple[Fraction, ...], ...]:
    dim = draw(st.integers(1, 3))
    n = draw(st.integers(2, 8))
    return tuple(tuple(draw(small_rationals()) for _ in range(dim)) for _ in range(n))


@st.composite
def separable(draw: st.DrawFn) -> tuple[Dataset, Fraction, tuple[Fraction, ...]]:
    """(data, b, v): data labelled by the sign of v·x + b, no ties, both labels present."""
    X = draw(points())
    v = tuple(draw(small_rationals()) for _ in X[0])
    scores = [sum((vj * xj for vj, xj in zip(v, x)), Fraction(0)) for x in X]
    distinct = sorted(set(scores))
    assume(len(distinct) >= 2)
    j = draw(st.integers(0, len(distinct) - 2))
    b = -(distinct[j] + distinct[j + 1]) / 2  # strictly between two scores: no sample on the plane
    if draw(st.booleans()):  # flip which side is positive, so both orientations occur
        v, b = tuple(-vj for vj in v), -b
    y = tuple(1 if sum((vj * xj for vj, xj in zip(v, x)), Fraction(0)) + b > 0 else -1 for x in X)
    assert len(set(y)) == 2
    return Dataset(X=X, y=y), b, v


@st.composite
def any_labels(draw: st.DrawFn) -> Dataset:
    """Arbitrary labels (separable or not), both present."""
    X = draw(points())
    y = tuple(draw(st.lists(st.sampled_from((-1, 1)), min_size=len(X), max_size=len(X))))
    assume(len(set(y)) == 2)
    return Dataset(X=X, y=y)


def positive_rates(at_most_one: bool = False) -> st.SearchStrategy[Fraction]:
    if at_most_one:  # 0 < η <= 1: numerator at most the denominator
        return st.integers(1, 5).flatmap(lambda d: st.builds(Fraction, st.integers(1, d), st.just(d)))
    return st.builds(Fraction, st.integers(1, 7), st.integers(1, 5))


def mistake_order(trace) -> list[tuple[int, tuple[int, ...]]]:
    return [(u.epoch, u.samples) for u in trace.updates]


def frac_data(X, y) -> Dataset:
    return Dataset(X=tuple(tuple(Fraction(v) for v in row) for row in X), y=tuple(y))


AND_DATA = frac_data([(0, 0), (0, 1), (1, 0), (1, 1)], (-1, -1, -1, 1))
# a one-dimensional dataset on which several runs meet a score of exactly 0 away from w = 0
TIES_DATA = frac_data([(1,), (-1,), (0,), (2,)], (1, -1, -1, 1))

# ------------------------------------------------------------------------------------------------
# (a) with zero start, the mistake sequence does not depend on the learning rate


@given(case=separable(), rate=positive_rates(), hl_rate=positive_rates(at_most_one=True))
@example(case=(AND_DATA, Fraction(-3, 2), (Fraction(1), Fraction(1))), rate=Fraction(7, 3), hl_rate=Fraction(1, 5))
def test_mistake_sequence_does_not_depend_on_rate(case, rate, hl_rate):
    data, _, _ = case
    for name in WITH_RATE:
        eta = hl_rate if name == "hard-limiter" else rate
        base = train(data, name, eta=1)
        scaled = train(data, name, eta=eta)
        assert mistake_order(scaled) == mistake_order(base)
        assert scaled.stop == base.stop and scaled.n_epochs == base.n_epochs
        # η only scales the weights (and every score) when the start is zero
        assert scaled.final_weights == tuple(eta * w for w in base.final_weights)
        for u, v in zip(scaled.updates, base.updates):
            assert u.scores == tuple(eta * s for s in v.scores)


@given(data=any_labels(), rate=positive_rates())
def test_mistake_sequence_does_not_depend_on_rate_without_separability(data, rate):
    for name in ("classic", "sum-norm", "split-bias"):
        base = train(data, name, eta=1, max_epochs=15)
        scaled = train(data, name, eta=rate, max_epochs=15)
        assert mistake_order(scaled) == mistake_order(base)
        assert scaled.stop == base.stop


# ------------------------------------------------------------------------------------------------
# (b) the four conventions with the `<= 0` tie rule make the same run


@given(data=any_labels(), mode=st.sampled_from(MODES))
@example(data=AND_DATA, mode="online")
def test_le_zero_conventions_make_the_same_mistakes_and_weights(data, mode):
    traces = {name: train(data, name, mode=mode, max_epochs=20) for name in LE_ZERO_TIE_RULE}
    reference = traces["classic"]
    ref_canonical = CONVENTIONS["classic"].to_canonical(reference.final_weights)
    for name, trace in traces.items():
        conv = CONVENTIONS[name]
        assert mistake_order(trace) == mistake_order(reference), name
        assert [u.scores for u in trace.updates] == [u.scores for u in reference.updates], name
        assert trace.stop == reference.stop and trace.n_epochs == reference.n_epochs
        assert trace.mistakes_per_sample == reference.mistakes_per_sample
        assert conv.to_canonical(trace.final_weights) == ref_canonical, name
        for u, r in zip(trace.updates, reference.updates):
            assert conv.to_canonical(u.weights) == CONVENTIONS["classic"].to_canonical(r.weights)


# ------------------------------------------------------------------------------------------------
# (c) the mistake count never exceeds the classic bound of the generating separator


@given(case=separable())
def test_mistake_count_never_exceeds_bound(case):
    data, b, v = case
    bound = note_bound("classic", geometry(data, b, v)).value
    for name in ALL:
        trace = train(data, name)
        assert trace.converged, name
        assert trace.n_mistakes <= bound, (name, trace.n_mistakes, bound)
        # and the convention's own note's bound, which is never smaller
        assert trace.n_mistakes <= note_bound(name, geometry(data, b, v)).value


# ------------------------------------------------------------------------------------------------
# (d) an independent reference perceptron, written from the notes


def _dot(a, b):
    total = Fraction(0)
    for p, q in zip(a, b):
        total += p * q
    return total


def _augment(name, x):
    if name in ("classic", "hard-limiter"):  # notes 000 and 001: constant +1 first
        return [Fraction(1)] + list(x)
    if name == "unit-ball":  # note 002: [x; 1]
        return list(x) + [Fraction(1)]
    if name == "sum-norm":  # note 003: (x, -1)
        return list(x) + [Fraction(-1)]
    raise AssertionError(name)


def _reference_online_step(name, w, x, y, rate):
    """(score, new weights) on a mistake, (score, None) otherwise. w is a list in the note's order."""
    if name == "split-bias":  # note 004: α0 kept apart; (α0, α) += λ·(y, y·x) when y·(x·α + α0) <= 0
        alpha0, alpha = w[0], w[1:]
        score = _dot(x, alpha) + alpha0
        if y * score <= 0:
            return score, [alpha0 + rate * y] + [a + rate * y * xj for a, xj in zip(alpha, x)]
        return score, None
    xa = _augment(name, x)
    score = _dot(w, xa)
    if name == "hard-limiter":  # note 001: y = sgn(w·x), sgn(0) = -1; w += η(d - y)x
        output = 1 if score > 0 else -1
        if output != y:
            return score, [wj + rate * (y - output) * xj for wj, xj in zip(w, xa)]
        return score, None
    step = 1 if name == "unit-ball" else rate  # note 002 has no learning rate
    if y * score <= 0:
        return score, [wj + step * y * xj for wj, xj in zip(w, xa)]
    return score, None


def reference_run(X, y, name, rate, mode, max_epochs):
    """The run epoch by epoch, without any cycle detection: (updates, weights at each epoch's end, converged_at).

    ``ends[e]`` is w after epoch e (``ends[0]`` the zero start); ``converged_at`` is the first
    epoch without a mistake, or None if there was none within `max_epochs`.
    """
    w = [Fraction(0)] * (len(X[0]) + 1)
    updates: list[tuple[int, tuple[int, ...], tuple[Fraction, ...], tuple[Fraction, ...], tuple[Fraction, ...]]] = []
    # (epoch, samples, scores, delta, weights)
    ends = [tuple(w)]
    for epoch in range(1, max_epochs + 1):
        before = len(updates)
        if mode == "online":
            for i in range(len(X)):
                score, new = _reference_online_step(name, w, X[i], y[i], rate)
                if new is not None:
                    delta = tuple(n - o for n, o in zip(new, w))
                    w = new
                    updates.append((epoch, (i,), (score,), delta, tuple(w)))
        else:
            wrong, scores, total = [], [], [Fraction(0)] * len(w)
            for i in range(len(X)):
                score, new = _reference_online_step(name, w, X[i], y[i], rate)  # all from the same w
                if new is not None:
                    wrong.append(i)
                    scores.append(score)
                    total = [t + n - o for t, n, o in zip(total, new, w)]
            if wrong:
                w = [wj + t for wj, t in zip(w, total)]
                updates.append((epoch, tuple(wrong), tuple(scores), tuple(total), tuple(w)))
        ends.append(tuple(w))
        if len(updates) == before:
            return updates, ends, epoch
    return updates, ends, None


def first_repeat(ends):
    """(e1, e2): the first epoch end e2 whose weights equal an earlier end e1; None if none."""
    seen: dict[tuple[Fraction, ...], int] = {}  # weights: the first epoch end with them
    for e, w in enumerate(ends):
        if w in seen:
            return seen[w], e
        seen[w] = e
    return None


def assert_same_as_reference(data, name, rate, mode, max_epochs):
    """The engine's trace is the reference run up to the epoch where the engine stopped, and its
    stop reason is true of that run (whatever cycle-detection strategy the engine uses)."""
    trace = train(data, name, eta=rate, mode=mode, max_epochs=max_epochs)
    updates, ends, converged_at = reference_run(data.X, data.y, name, rate, mode, max_epochs)
    E = trace.n_epochs
    assert 1 <= E <= max_epochs
    expected = [u for u in updates if u[0] <= E]
    got = [(u.epoch, u.samples, u.scores, u.delta, u.weights) for u in trace.updates]
    assert got == expected, (name, mode)
    assert trace.n_updates == len(expected)
    assert [u.k for u in trace.updates] == list(range(1, len(expected) + 1))
    assert trace.final_weights == ends[E]
    counts = [0] * data.n_samples
    for _, samples, _, _, _ in expected:
        for j in samples:
            counts[j] += 1
    assert trace.mistakes_per_sample == tuple(counts)
    assert trace.n_mistakes == sum(counts)
    if trace.stop == "converged":
        assert converged_at == E and trace.cycle is None
    elif trace.stop == "max-epochs":
        assert E == max_epochs and converged_at is None and trace.cycle is None
    else:
        assert trace.stop == "cycle" and trace.cycle is not None
        e1, e2 = trace.cycle
        assert 0 <= e1 < e2 == E and ends[e1] == ends[e2]  # a true repeat: the run can never converge
        assert converged_at is None
    return trace


@given(case=separable(), rate=positive_rates(), hl_rate=positive_rates(at_most_one=True))
@example(case=(AND_DATA, Fraction(-3, 2), (Fraction(1), Fraction(1))), rate=Fraction(1), hl_rate=Fraction(1))
def test_engine_matches_reference_perceptron_on_separable_data(case, rate, hl_rate):
    data, _, _ = case
    for name in ALL:
        eta = {"hard-limiter": hl_rate, "unit-ball": Fraction(1)}.get(name, rate)
        for mode in MODES:
            trace = assert_same_as_reference(data, name, eta, mode, 1000)
            assert trace.converged


@given(data=any_labels(), rate=positive_rates(), hl_rate=positive_rates(at_most_one=True))
@example(data=TIES_DATA, rate=Fraction(1), hl_rate=Fraction(1))
@example(data=frac_data([(0, 0), (0, 1), (1, 0), (1, 1)], (-1, 1, 1, -1)), rate=Fraction(1), hl_rate=Fraction(1, 2))
def test_engine_matches_reference_perceptron_on_any_data(data, rate, hl_rate):
    for name in ALL:
        eta = {"hard-limiter": hl_rate, "unit-ball": Fraction(1)}.get(name, rate)
        for mode in MODES:
            assert_same_as_reference(data, name, eta, mode, 12)


@given(data=any_labels(), name=st.sampled_from(ALL), mode=st.sampled_from(MODES))
@example(data=frac_data([(0, 0), (0, 1), (1, 0), (1, 1)], (-1, 1, 1, -1)), name="hard-limiter", mode="online")
def test_engine_detects_a_cycle_soon_after_the_first_repeat(data, name, mode):
    # Liveness, whatever the strategy: if the run first repeats at epochs (e1, e2) (tail e1,
    # period e2 - e1), the engine reports a cycle within O(e2) epochs (3·e2 + 1 covers Brent's
    # method) and never runs on to its epoch limit.
    rate = Fraction(1)
    _, ends, converged_at = reference_run(data.X, data.y, name, rate, mode, 40)
    assume(converged_at is None)  # (a clean last pass repeats the weights too, but converges)
    repeat = first_repeat(ends)
    assume(repeat is not None)
    trace = train(data, name, mode=mode, max_epochs=3 * repeat[1] + 1)
    assert trace.stop == "cycle"
    assert repeat[1] <= trace.n_epochs <= 3 * repeat[1] + 1


def test_reference_comparison_covers_ties_after_the_start():
    # A score of exactly 0 away from w = 0 is where hard-limiter parts from the other four:
    # both the reference and the engine must see it.
    for name in ALL:
        for mode in MODES:
            trace = assert_same_as_reference(AND_DATA, name, Fraction(1), mode, 1000)
            if name == "hard-limiter" and mode == "online":
                assert any(u.scores == (0,) and u.k > 1 for u in trace.updates)
    hl = train(AND_DATA, "hard-limiter")
    classic = train(AND_DATA, "classic")
    assert mistake_order(hl) != mistake_order(classic)


# ------------------------------------------------------------------------------------------------
# (e) the checker passes what is true


@given(case=separable(), mode=st.sampled_from(MODES))
def test_checker_passes_every_true_trace(case, mode):
    data, b, v = case
    for name in ALL:
        trace = train(data, name, mode=mode)
        assert trace.converged
        result = check_trace(data, trace)
        assert result.holds, (name, mode, [(r.name, r.first_violation) for r in result.violations])
        assert result.complete
        # with the generating separator as w*, in the convention's own coordinates
        w_star = CONVENTIONS[name].from_canonical(b, v)
        result = check_trace(data, trace, separator=w_star)
        assert result.holds, (name, mode, [(r.name, r.first_violation) for r in result.violations])
        assert result.separator_source == "user"
        assert result.geometry is not None and result.geometry.gamma > 0


@given(case=separable(), rate=positive_rates(), hl_rate=positive_rates(at_most_one=True))
@example(case=(AND_DATA, Fraction(-3, 2), (Fraction(1), Fraction(1))), rate=Fraction(1), hl_rate=Fraction(1))
def test_note_003_bounds_hold_at_every_batch_update(case, rate, hl_rate):
    # Note 003's ‖w‖² <= a²·N·β and N <= β/D² (derived here for batch mode, any convention), first
    # recomputed from the trace alone, then as the checker's claims with the generating separator.
    data, b, v = case
    g = geometry(data, b, v)
    for name in ALL:
        eta = {"hard-limiter": hl_rate, "unit-ball": Fraction(1)}.get(name, rate)
        trace = train(data, name, eta=eta, mode="batch")
        a = CONVENTIONS[name].step_size(trace.rate)
        n_mistakes = 0
        for u in trace.updates:
            n_mistakes += len(u.samples)
            assert sum((w * w for w in u.weights), Fraction(0)) <= a * a * n_mistakes * g.beta, (name, u.k)
        assert n_mistakes == trace.n_mistakes and n_mistakes * g.gamma**2 <= g.beta * g.ws_sq, name
        result = check_trace(data, trace, separator=CONVENTIONS[name].from_canonical(b, v))
        for claim in ("upper-bound-sum-batch", "upper-bound-per-sample-batch", "mistake-bound-sum-batch"):
            (found,) = [r for r in result.invariants if r.name == claim]
            assert found.holds is True and found.n_checked == trace.n_updates, (name, claim)


@given(data=any_labels(), mode=st.sampled_from(MODES))
def test_checker_passes_runs_that_do_not_converge(data, mode):
    for name in ALL:
        trace = train(data, name, mode=mode, max_epochs=8)
        assert check_trace(data, trace).holds, name
