"""The fast exact engine makes the reference engine's run, update for update."""

from __future__ import annotations

from fractions import Fraction
import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from verify_perceptron.run import reference as engine
from verify_perceptron.run import fast
from verify_perceptron.data.integers import FLOAT_EXACT_SQ, ExactMatrix, matrix_vector, row_norms_sq
from verify_perceptron.check.checker import Checker
from verify_perceptron.check.separator import scaled_separator
from verify_perceptron.check.traces import check_trace
from verify_perceptron.data import samples
from verify_perceptron.pipeline import verify_run
from verify_perceptron.notes.conventions import CONVENTIONS
from verify_perceptron.data.dataset import Dataset
from verify_perceptron.data.examples import EXAMPLES, example
from verify_perceptron.data.trace import LazyUpdates

F = Fraction


def rate_for(convention: str, eta: Fraction) -> Fraction:
    if convention == "unit-ball":
        return F(1)
    if convention in ("hard-limiter", "hard-limiter-plus"):
        return min(eta, F(1))
    return eta


@st.composite
def datasets(draw: st.DrawFn, *, max_value: int = 3, max_denominator: int = 4) -> Dataset:
    """Small rational data, often with exact ties (small integers and repeated points)."""
    n_features = draw(st.integers(1, 3))
    n_samples = draw(st.integers(2, 8))
    value = st.builds(F, st.integers(-max_value, max_value), st.integers(1, max_denominator))
    X = draw(st.lists(st.tuples(*[value] * n_features), min_size=n_samples, max_size=n_samples))
    y = draw(st.lists(st.sampled_from((-1, 1)), min_size=n_samples, max_size=n_samples).filter(lambda ys: len(set(ys)) == 2))
    return Dataset(X=X, y=y)


def same_run(reference, quick) -> None:
    assert quick.updates == reference.updates
    assert quick.final_weights == reference.final_weights
    assert (quick.n_epochs, quick.stop, quick.cycle) == (reference.n_epochs, reference.stop, reference.cycle)
    assert quick.mistakes_per_sample == reference.mistakes_per_sample
    assert quick.n_updates == reference.n_updates
    assert quick.cycle_mistakes == reference.cycle_mistakes


@pytest.mark.parametrize("name", sorted(EXAMPLES))
@pytest.mark.parametrize("convention", sorted(CONVENTIONS))
@pytest.mark.parametrize("mode", ["online", "batch"])
def test_fast_engine_reproduces_the_reference_on_the_notes_examples(name, convention, mode):
    data = example(name)
    eta = rate_for(convention, F(1, 2))
    same_run(engine.train(data, convention, eta=eta, mode=mode),
             fast.run(data, convention, eta=eta, mode=mode, keep_updates=10**9))


@given(data=datasets(), convention=st.sampled_from(sorted(CONVENTIONS)), mode=st.sampled_from(["online", "batch"]),
       eta=st.builds(F, st.integers(1, 5), st.integers(1, 5)))
def test_fast_engine_reproduces_the_reference_trace_ties_included(data, convention, mode, eta):
    eta = rate_for(convention, eta)
    same_run(engine.train(data, convention, eta=eta, mode=mode, max_epochs=60),
             fast.run(data, convention, eta=eta, mode=mode, max_epochs=60, keep_updates=10**9))


@pytest.mark.parametrize("mode", ["online", "batch"])
def test_a_fast_trace_pickles_as_the_run_it_is(mode):
    # Its kept updates are built from the engine's records by a closure over the run; pickled, they are the
    # updates themselves, and the copy is the reference engine's trace as the original is.
    data = example("xor")
    trace = fast.run(data, mode=mode, max_epochs=7, keep_updates=10**9)
    copy = pickle.loads(pickle.dumps(trace))
    assert copy == trace and len(copy.updates) == trace.n_updates > 0
    same_run(engine.train(data, mode=mode, max_epochs=7), copy)


@given(data=datasets(max_value=7, max_denominator=9), convention=st.sampled_from(sorted(CONVENTIONS)),
       mode=st.sampled_from(["online", "batch"]), eta=st.builds(F, st.integers(1, 5), st.integers(1, 5)))
def test_scaled_weights_from_the_record_are_the_scaled_separator_of_the_built_update(data, convention, mode, eta):
    eta = rate_for(convention, eta)
    quick = fast.run(data, convention, eta=eta, mode=mode, max_epochs=30, keep_updates=10**9)
    fresh = fast.run(data, convention, eta=eta, mode=mode, max_epochs=30, keep_updates=10**9)
    assert isinstance(quick.updates, LazyUpdates)  # the fast engine's record, built on first access
    for i in range(len(quick.updates)):
        from_record = quick.updates.scaled_weights(i)  # before the update is built: from its integers
        assert from_record == scaled_separator(fresh.updates[i].weights)[0]
        quick.updates[i]  # built now: the record still gives the same integers
        assert quick.updates.scaled_weights(i) == from_record


@given(data=datasets(max_value=7, max_denominator=9), convention=st.sampled_from(sorted(CONVENTIONS)))
def test_streaming_checks_of_fast_runs_equal_checks_of_reference_traces(data, convention):
    eta = rate_for(convention, F(1))
    reference = engine.train(data, convention, eta=eta, max_epochs=40)
    by_trace = check_trace(data, reference)
    quick, streamed = verify_run(data, convention, eta=eta, max_epochs=40)
    assert quick.final_weights == reference.final_weights
    assert [(r.name, r.holds, r.n_checked, r.min_slack, r.min_slack_at) for r in streamed.invariants] == [
        (r.name, r.holds, r.n_checked, r.min_slack, r.min_slack_at) for r in by_trace.invariants
    ]


def test_huge_values_take_the_int64_and_python_integer_paths_and_agree():
    # Coordinates near 2^40 put ‖W‖²·max‖z‖² past 2^106 at once (float64 is no longer proven
    # exact), and 2^70 past int64; the engine must switch representation and stay exact.
    for scale in (2**40, 2**70):
        X = [(F(scale + 1), F(-scale)), (F(-scale), F(scale - 3)), (F(scale // 2), F(scale // 3 + 1)), (F(1), F(-1))]
        data = Dataset(X=X, y=(1, -1, 1, -1))
        for convention in CONVENTIONS:
            same_run(engine.train(data, convention, max_epochs=50),
                     fast.run(data, convention, max_epochs=50, keep_updates=10**9))


def test_exact_matrix_chooses_a_representation_the_guard_proves_exact():
    m = ExactMatrix(np.array([[3, 4], [1, 2]]))
    assert m.max_norm_sq == 25
    assert m.backend(0) == "float64"
    assert m.backend(FLOAT_EXACT_SQ // 25 - 1) == "float64"
    assert m.backend(FLOAT_EXACT_SQ // 25 + 1) == "int64"
    assert m.backend(2**126) == "object"
    # A product float64 would round (2^53 + 1 is not a double): the guard sends it to int64, exactly.
    big = [2**53 + 1, 0]
    assert m.matvec(big, slice(0, 1), norm_sq=(2**53 + 1) ** 2) == [3 * (2**53 + 1)]
    assert row_norms_sq(np.array([[2**40, 2**40]], dtype=object)) == [2**81]


@given(st.lists(st.lists(st.integers(-(2**63), 2**63 - 1), min_size=3, max_size=3), min_size=1, max_size=6))
def test_row_norms_past_int64_are_exact(rows):
    # Entries past 2^31.5 send the norms to the six int64 sums of 21-bit pieces: equal to Python's.
    norms = row_norms_sq(np.array(rows, dtype=np.int64))
    assert norms.tolist() == [sum(v * v for v in row) for row in rows]


_int64 = st.integers(-(2**63), 2**63 - 1)


@given(st.integers(1, 40).flatmap(lambda d: st.tuples(
    st.lists(st.lists(st.one_of(st.integers(-(2**20), 2**20), _int64, st.sampled_from([-(2**63), 2**63 - 1])),
                      min_size=d, max_size=d), max_size=5),
    st.lists(st.one_of(_int64, st.sampled_from([-(2**63), 2**63 - 1, 2**32 - 1, -(2**32)])), min_size=d,
             max_size=d))), st.integers(0, 60))
def test_matrix_vector_products_are_exact_in_pieces(case, shrink):
    # Rows shrunk by `shrink` bits reach every piece width b = 63 - bits(max|Z|·d), and the extremes of int64.
    rows, w = case
    rows = [[v >> shrink for v in row] for row in rows]
    Z = np.array(rows, dtype=np.int64).reshape(len(rows), len(w))
    assert matrix_vector(Z, np.array(w, dtype=np.int64)).tolist() == [sum(a * b for a, b in zip(r, w)) for r in rows]


def test_matrix_vector_at_the_bound_of_its_pieces():
    # max|Z|·d just below 2^e and w's pieces all ones (or w = -2^63): each piece's sum comes within a factor
    # (1 - 2^-b) of 2^63, where a piece one bit wider would overflow.
    for e in range(9, 56, 3):
        for d in (1, 3, 31):
            m = (2**e - 1) // d
            Z = np.array([[m] * d, [-m] * d], dtype=np.int64)
            for w in ([2**63 - 1] * d, [-(2**63)] * d, [2**63 - 1, -(2**63)] * d):
                w = w[:d]
                expected = [sum(a * b for a, b in zip(row, w)) for row in Z.tolist()]
                assert matrix_vector(Z, np.array(w, dtype=np.int64)).tolist() == expected, (e, d, w)


@given(st.lists(st.lists(st.integers(-(2**40), 2**40), min_size=3, max_size=3), min_size=1, max_size=5),
       st.lists(st.one_of(_int64, st.integers(-(2**70), 2**70)), min_size=3, max_size=3))
def test_exact_matrix_products_past_the_int64_guard_are_exact(rows, vector):
    # Past the guard the products come from int64 pieces while the vector fits in int64, else Python integers.
    matrix = ExactMatrix(np.array(rows, dtype=np.int64))
    got = matrix.products(vector, norm_sq=sum(v * v for v in vector))
    assert got.tolist() == [sum(a * b for a, b in zip(row, vector)) for row in rows]


def test_fast_engine_keeps_only_the_first_updates_when_asked():
    data = example("and")
    trace = fast.run(data, keep_updates=5)
    assert trace.n_updates == 18 and len(trace.updates) == 5 and trace.updates_truncated
    assert trace.updates == engine.train(data).updates[:5]
    with pytest.raises(ValueError, match="keeps 5 of its 18 updates"):
        check_trace(data, trace)


def test_checker_observing_the_fast_engine_with_a_user_separator_runs_once():
    data = example("or")
    checker = Checker(data, "classic", rate=1, mode="online", separator=[-1, 2, 2])
    trace = fast.run(data, observer=checker)
    result = checker.finish(trace)
    assert result.holds and result.separator_source is None
    assert [r.n_checked for r in result.invariants if r.name == "lower-bound"] == [trace.n_updates]


def test_verify_run_without_separator_uses_the_final_weights_and_checks_every_update():
    trace, result = verify_run(example("and"), engine_name="fast")
    assert result.separator == trace.final_weights and result.separator_source == "final"
    assert all(r.n_checked == 18 for r in result.invariants if r.name.startswith(("lower", "upper", "cauchy", "mistake")))


def test_verify_run_time_limit_stops_with_time_limit():
    X = [(F(i, 97), F((i * 37) % 101, 101)) for i in range(400)]
    y = [1 if (x1 - x2 + F(1, 1000)) > 0 else -1 for x1, x2 in X]
    trace, _ = verify_run(Dataset(X=X, y=y), time_limit=1e-9, max_epochs=10**6)
    assert trace.stop == "time-limit" and not trace.converged


@given(data=datasets(max_value=7, max_denominator=9), convention=st.sampled_from(sorted(CONVENTIONS)))
def test_signed_samples_are_the_labelled_scaled_samples(data, convention):
    X, Z = samples.scaled_samples(data, CONVENTIONS[convention])
    assert Z.tolist() == [[y * v for v in row] for row, y in zip(X.tolist(), data.y)]
    L = data.denominator
    assert [[Fraction(v, L) for v in row] for row in X.tolist()] == [list(CONVENTIONS[convention].augment(x)) for x in data.X]


def test_a_verify_run_makes_no_float_copy_when_the_compiled_scan_is_there():
    from verify_perceptron.run import kernel as _kernel
    if not _kernel.AVAILABLE:
        pytest.skip("the C scan is not built here")
    matrix = ExactMatrix(samples.signed_samples(example("and"), CONVENTIONS["classic"]))
    fast.run(example("and"), matrix=matrix)
    assert matrix._as_float is None


@pytest.mark.parametrize("convention", sorted(CONVENTIONS))
def test_without_the_compiled_scan_the_numpy_path_makes_the_same_run(monkeypatch, convention):
    from verify_perceptron.run import kernel as _kernel

    monkeypatch.setattr(_kernel, "AVAILABLE", False)
    for name in EXAMPLES:
        data = example(name)
        eta = rate_for(convention, F(1, 2))
        same_run(engine.train(data, convention, eta=eta), fast.run(data, convention, eta=eta, keep_updates=10**9))
    X = [(F(i, 97), F((i * 37) % 101, 101)) for i in range(300)]
    y = [1 if x1 - x2 > F(1, 50) else -1 for x1, x2 in X]
    data = Dataset(X=X, y=y)
    same_run(engine.train(data, convention, eta=1 if convention == "unit-ball" else F(1, 2), max_epochs=30),
             fast.run(data, convention, eta=1 if convention == "unit-ball" else F(1, 2), max_epochs=30,
                      keep_updates=10**9))


@pytest.mark.parametrize("compiled", [True, False])
def test_xor_under_the_hard_limiter_stops_at_the_first_repeat_compiled_or_not(monkeypatch, compiled):
    # w_3 = w_2: epoch 3's four mistakes sum to a zero step. The run stops there, after 9 updates,
    # whether the compiled pass goes on through the epochs by itself or NumPy makes each one.
    from verify_perceptron.run import kernel as _kernel

    if not compiled:
        monkeypatch.setattr(_kernel, "AVAILABLE", False)
    trace = fast.run(example("xor"), "hard-limiter", keep_updates=10**9)
    assert (trace.stop, trace.cycle, trace.n_epochs, trace.n_updates) == ("cycle", (2, 3), 3, 9)
    assert trace.cycle_mistakes == (1, 1, 1, 1)
    same_run(engine.train(example("xor"), "hard-limiter"), trace)


@given(magnitude=st.sampled_from([2**4, 2**14, 2**20, 2**30, 2**45, 2**61]), data=st.data(),
       convention=st.sampled_from(sorted(CONVENTIONS)))
def test_every_sample_width_and_weight_width_makes_the_reference_run(magnitude, data, convention):
    # Samples are stored in int16, int32 or int64 by their size, and the compiled pass reads an
    # int32 copy of W while ‖W‖² < 2^62: these magnitudes cross each of those lines.
    n, d = data.draw(st.integers(2, 7)), data.draw(st.integers(1, 3))
    entry = st.integers(-magnitude, magnitude)
    X = data.draw(st.lists(st.lists(entry, min_size=d, max_size=d), min_size=n, max_size=n))
    y = data.draw(st.lists(st.sampled_from((-1, 1)), min_size=n, max_size=n).filter(lambda ys: len(set(ys)) == 2))
    dataset = Dataset(numerators=np.array(X, dtype=np.int64), denominator=1, y=y)
    Z = samples.signed_samples(dataset, CONVENTIONS[convention])
    biggest = max(1, max(abs(v) for row in X for v in row))
    assert Z.dtype == (np.int16 if biggest < 2**15 else np.int32 if biggest < 2**31 else np.int64)
    same_run(engine.train(dataset, convention, max_epochs=25),
             fast.run(dataset, convention, max_epochs=25, keep_updates=10**9))


@given(magnitude=st.sampled_from([2**4, 2**14, 2**20, 2**30, 2**45, 2**61]), data=st.data(),
       convention=st.sampled_from(sorted(CONVENTIONS)), denominator=st.sampled_from([1, 3, 1000]))
def test_the_one_pass_sample_matrix_equals_signed_samples_and_their_norms(magnitude, data, convention, denominator):
    n, d = data.draw(st.integers(1, 6)), data.draw(st.integers(1, 4))
    X = data.draw(st.lists(st.lists(st.integers(-magnitude, magnitude), min_size=d, max_size=d), min_size=n, max_size=n))
    y = data.draw(st.lists(st.sampled_from((-1, 1)), min_size=n, max_size=n))
    numerators = np.array(X + [[1] * d], dtype=np.int64)  # a last sample of the other class: two labels
    labels = y + [-y[0]]
    dataset = Dataset(numerators=numerators, denominator=denominator, y=labels)
    conv = CONVENTIONS[convention]
    quick, plain = samples.sample_matrix(dataset, conv), ExactMatrix(samples.signed_samples(dataset, conv))
    assert quick.exact.dtype == plain.exact.dtype
    assert quick.exact.tolist() == plain.exact.tolist()
    assert quick.norms.tolist() == plain.norms.tolist() and quick.max_norm_sq == plain.max_norm_sq
    assert quick.float_exact == plain.float_exact


def test_past_the_int64_guard_the_compiled_pass_carries_the_run_in_128_bit_sums(monkeypatch) -> None:
    # Coordinates near 2^40: ‖z‖² passes int64 (the norms are given in halves) and soon ‖W‖²·max‖z‖²
    # passes 2^126 (the scores are summed in 128 bits and come back in halves). The run stays in C
    # and makes the reference run, update for update.
    from verify_perceptron.run import kernel as _kernel

    if not _kernel.AVAILABLE:
        pytest.skip(f"the C kernel is not built: {_kernel.IMPORT_ERROR}")
    calls, mosts = [], []
    compiled = _kernel.online_pass
    assert compiled is not None  # AVAILABLE

    def watched(Z, W, tie, norms, counts, out_i, out_s, *rest):
        calls.append((len(norms), len(out_s) == 2 * len(out_i)))
        mosts.append(rest[5] if len(rest) > 5 else None)
        return compiled(Z, W, tie, norms, counts, out_i, out_s, *rest)

    monkeypatch.setattr(_kernel, "online_pass", watched)
    rng = np.random.default_rng(3)
    X = rng.integers(-(2**40), 2**40, size=(30, 4))
    data = Dataset(numerators=X, denominator=1, y=[1 if v > 0 else -1 for v in X[:, 0] + X[:, 1]])
    run = fast.run(data, "classic", max_epochs=40, keep_updates=10**9)
    same_run(engine.train(data, "classic", max_epochs=40), run)
    assert (2 * len(X), True) in calls  # norms in halves, scores in halves
    assert run.n_updates > 10
    # the pass is told the largest norm (it reads no row's norm at a call then), the true one: a smaller one
    # would let it sum past the int64 guard in int64, and the run above would not be the reference's
    assert mosts and set(mosts) == {max(1 + sum(int(v) ** 2 for v in row) for row in X.tolist())}  # x~ = (1, x)


@pytest.mark.parametrize("scale", [1, 2**40, 2**62, 2**70])
def test_a_cycle_whose_weights_pass_int64_is_found_where_the_reference_finds_it(scale):
    # xor: the run cycles, at every scale; past int64 the watch's states are Python integers.
    X = [(0, 0), (0, scale), (scale, 0), (scale, scale)]
    data = Dataset(X=X, y=(-1, 1, 1, -1))
    quick = fast.run(data, "classic", max_epochs=200, keep_updates=10**9)
    assert quick.stop == "cycle"
    same_run(engine.train(data, "classic", max_epochs=200), quick)


def test_a_watch_state_past_int64_is_given_to_the_compiled_pass_as_nothing_to_compare():
    assert fast._int64_copy([-(2**63), 2**63 - 1]).tolist() == [-(2**63), 2**63 - 1]
    assert fast._int64_copy([0, 2**63]).size == 0 and fast._int64_copy([-(2**63) - 1]).size == 0


@given(st.lists(st.one_of(st.integers(-(2**63), 2**63 - 1), st.integers(-(2**700), 2**700)), min_size=1, max_size=8))
def test_scaled_floats_are_each_value_over_the_least_power_of_two_that_brings_all_below_2_to_480(values):
    from verify_perceptron.data.integers import FLOAT_BITS, scaled_floats

    f, t = scaled_floats(values)
    bits = max(abs(v).bit_length() for v in values)
    assert t == max(0, bits - FLOAT_BITS)
    assert f.dtype == np.float64 and f.tolist() == [float(v >> t) for v in values]  # each rounded once


def test_a_run_in_the_compiled_wide_pass_makes_no_python_integer_copy_of_the_samples() -> None:
    # Scores past int64 (entries near 10^9, ten columns) are summed by the compiled pass in 128 bits: the
    # matrix's Python-integer copy (5 times the int64 data at 10 columns) is never read, so never made.
    from verify_perceptron.data.dataset import Dataset
    from verify_perceptron.data.samples import sample_matrix
    from verify_perceptron.notes.conventions import get_convention

    rng = np.random.default_rng(3)
    X = rng.integers(-10**9, 10**9, size=(300, 10))
    y = np.where(X @ rng.integers(-9, 10, size=10) > 0, 1, -1)
    y[:15] *= -1  # not separable: the run goes on to its epoch limit
    data, conv = Dataset(numerators=X, denominator=10**6, y=y), get_convention("classic")
    matrix = sample_matrix(data, conv)
    trace = fast.run(data, conv, max_epochs=5, matrix=matrix)
    W = [int(w * data.denominator) for w in trace.final_weights]  # classic: w = W / L
    if not fast._kernel.AVAILABLE:
        pytest.skip("the compiled pass was not built")
    assert matrix.backend(sum(w * w for w in W)) == "object"  # the run did leave int64 products
    assert matrix._as_object is None
    slow = engine.train(data, conv, max_epochs=5)
    assert (trace.final_weights, trace.n_updates, trace.stop) == (slow.final_weights, slow.n_updates, slow.stop)


def test_row_dots_in_blocks_is_exact_across_block_boundaries(monkeypatch: pytest.MonkeyPatch) -> None:
    from verify_perceptron.data import int64_pieces, integers

    rng = np.random.default_rng(5)
    X = rng.integers(-2**63, 2**63 - 1, size=(103, 7), dtype=np.int64)
    Y = rng.integers(-2**63, 2**63 - 1, size=(103, 7), dtype=np.int64)
    expected = [sum(int(u) * int(v) for u, v in zip(r, s)) for r, s in zip(X.tolist(), Y.tolist())]
    whole = integers.row_dots(X, Y)
    monkeypatch.setattr(int64_pieces, "DOT_CELLS", 7 * 10)  # blocks of ten rows, the last of three
    assert integers.row_dots(X, Y).tolist() == whole.tolist() == expected
    assert row_norms_sq(X.astype(np.int32)).tolist() == [sum(int(v) ** 2 for v in r) for r in X.astype(np.int32).tolist()]


def test_a_finished_run_lets_go_of_its_filters_float_copy_without_waiting_for_a_collection() -> None:
    import gc
    import weakref

    from verify_perceptron.data.dataset import Dataset
    from verify_perceptron.data.samples import sample_matrix
    from verify_perceptron.notes.conventions import get_convention

    rng = np.random.default_rng(3)
    X = rng.integers(-10**12, 10**12, size=(300, 10))  # int64 rows: the filter reads int16/int32 ones without a copy
    y = np.where(X @ rng.integers(-9, 10, size=10) > 0, 1, -1)
    y[:15] *= -1
    data, conv = Dataset(numerators=X, denominator=10**6, y=y), get_convention("classic")
    matrix = sample_matrix(data, conv)
    gc.disable()  # the run's state and its cycle watch refer to each other: only a collection would end them
    try:
        fast.run(data, conv, max_epochs=5, matrix=matrix)
        if matrix._approximate is None:
            pytest.skip("the run made no float copy (no compiled pass, or no filter)")
        floats = weakref.ref(matrix._approximate[0])
        matrix.release_copies()
        assert floats() is None
    finally:
        gc.enable()


def test_matrix_vector_in_blocks_is_exact_and_widens_no_whole_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    import tracemalloc

    from verify_perceptron.data import int64_pieces

    rng = np.random.default_rng(8)
    Z = rng.integers(-2**31, 2**31 - 1, size=(100_000, 10)).astype(np.int32)  # eight blocks
    w = rng.integers(-2**63, 2**63 - 1, size=10, dtype=np.int64)
    expected = [sum(int(a) * int(b) for a, b in zip(row, w.tolist())) for row in Z.tolist()]
    tracemalloc.start()
    try:
        result = matrix_vector(Z, w)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.tolist() == expected
    # the result (a Python integer a row: about 44 bytes) and one block's temporaries (about 3 MB); the whole
    # matrix at once was about 300 bytes a row (its int64 copy and three Python integers a row)
    assert peak < 120 * len(Z), peak
    monkeypatch.setattr(int64_pieces, "PRODUCT_CELLS", 10 * 7)  # blocks of seven rows
    assert matrix_vector(Z[:100], w).tolist() == expected[:100]


@pytest.mark.parametrize("narrow", [True, False])
def test_the_float_filter_reaches_the_compiled_pass_beside_the_largest_norm(narrow: bool, monkeypatch) -> None:
    # the engine gives the C pass both its filter and the largest norm (13 arguments): a filter that passes over
    # every row it is asked about (radius -inf) must change the run, or the filter was never read
    from verify_perceptron.data.dataset import from_arrays
    from verify_perceptron.run import kernel

    if not kernel.AVAILABLE:
        pytest.skip("no compiled kernel")
    rng = np.random.default_rng(5)
    X = rng.integers(-10**9 if narrow else -10**12, 10**9 if narrow else 10**12, size=(300, 8))
    data = from_arrays(X, np.where(rng.random(300) < 0.5, 1, -1))
    honest = fast.run(data, "classic", max_epochs=20)
    asked = []

    def blind(self, **_):
        asked.append(self.Z.dtype)
        return None if narrow else np.asarray(self.Z, dtype=float), np.full(len(self.Z), -np.inf)

    monkeypatch.setattr(fast._Run, "_filter", blind)
    fooled = fast.run(data, "classic", max_epochs=20)
    assert asked and (asked[0] in (np.int16, np.int32)) == narrow
    assert fooled.n_updates < honest.n_updates
