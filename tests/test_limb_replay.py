"""The checker's replay in K 64-bit limbs gives the verdicts of its per-update Python path.

Runs of the Fraction reference engine on data over denominators such as 2^70
and 10^25 (samples, norms, scores and claims past 128 bits) are handed to a
`Checker` as chunks whose scores are (m, L) int64 limbs (`as_limbs`), with the
replay in limbs starting at 1, 2, 3, 4 and 6 limbs (64 to 384 bits; it widens
itself up to 16, 1024 bits); the `CheckResult` must equal, exactly, that of
`Checker.observe` on each update alone. Tampered chunks (a wrong score, a
wrong row) and a false claim are caught at the same update with the same values.
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from verify_perceptron.check import kernel as _kernel
from verify_perceptron.check import limb_replay as _limb_replay
from verify_perceptron.check.checker import Checker
from verify_perceptron.check.separator import strict_final_weights
from verify_perceptron.check.traces import scaled_scores
from verify_perceptron.data.dataset import Dataset
from verify_perceptron.data.integers import as_limbs, score_values
from verify_perceptron.data.samples import sample_matrix
from verify_perceptron.data.trace import Trace
from verify_perceptron.notes.claims import Claim, claims_for
from verify_perceptron.notes.conventions import CONVENTIONS
from verify_perceptron.run import reference

needs_kernel = pytest.mark.skipif(_kernel.check_wide is None, reason=f"the C kernel is not built: {_kernel.IMPORT_ERROR}")
RATES: dict[str, int | Fraction] = {"classic": 1, "hard-limiter": Fraction(1, 2), "unit-ball": 1, "sum-norm": Fraction(2, 3), "split-bias": 3}
FALSE_CLAIM = Claim("never-growing", "‖w_k‖² <= ‖w_{k-1}‖²", "a false claim, for the test", lambda q: q.w_sq,
                    lambda q: q.prev_w_sq, ("w_sq", "prev_w_sq"), needs_separator=False)


def wide_data(seed: int, denominator: int, bits: int) -> Dataset:
    """A small data set whose numerators have about `bits` bits, over `denominator`, with both labels."""
    rng = random.Random(seed)
    n, d = rng.randint(3, 8), rng.randint(1, 3)
    numerators = np.array([[rng.randint(-(2**bits), 2**bits) for _ in range(d)] for _ in range(n)], dtype=object)
    y = [1, -1] + [rng.choice([-1, 1]) for _ in range(n - 2)]
    return Dataset(numerators=numerators, denominator=denominator, y=y)


def reference_updates(data: Dataset, convention: str) -> tuple[list[int], list[int], list[int], Trace]:
    """The reference engine's online updates: rows, epochs, scores in the checker's units, and the trace."""
    trace = reference.train(data, convention, eta=RATES[convention], max_epochs=8)
    a = CONVENTIONS[convention].step_size(Fraction(RATES[convention]))
    rows = [u.samples[0] for u in trace.updates]
    epochs = [u.epoch for u in trace.updates]
    scores = [int(scaled_scores(data, u, a)[0]) for u in trace.updates]
    return rows, epochs, scores, trace


def checked(data, convention, rows, epochs, scores, *, limbs=None, start=None, separator=None, claims=None):
    """The CheckResult of the updates told one by one (`limbs` None) or as one chunk of L-limb scores
    replayed in limbs from width `start` (the 128-bit replay left out)."""
    checker = Checker(data, convention, rate=RATES[convention], mode="online", separator=separator,
                      claims=claims, compiled=limbs is not None)
    if limbs is None:
        for k, (i, epoch, s) in enumerate(zip(rows, epochs, scores), start=1):
            checker.observe(k, epoch, [i], [s])
        return checker.finish(), 0
    checker._compiled = None  # not the 128-bit replay: only the one in limbs, then Python
    replay = checker._limb_replay()
    if replay is None:  # past 1024 bits from the start: the Python integers' replay
        checker.observe_chunk(1, np.array(epochs, dtype=np.int64), np.array(rows, dtype=np.int64),
                              np.array(scores, dtype=object))
        return checker.finish(), 0
    replay.K = start
    replayed = []
    run = replay.run

    def counted(*args):
        out = run(*args)
        replayed.append(out[0])
        return out

    replay.run = counted  # type: ignore[method-assign]
    L = max(limbs, max(abs(s) for s in scores).bit_length() // 64 + 1) if scores else limbs
    checker.observe_chunk(1, np.array(epochs, dtype=np.int64), np.array(rows, dtype=np.int64),
                          as_limbs(np.array(scores, dtype=object), L))
    return checker.finish(), sum(replayed)


CASES = [(seed, denominator, bits, convention) for seed, (denominator, bits) in enumerate(
    [(2**70, 72), (10**25, 80), (2**64, 66), (2**70, 140), (3, 200)]) for convention in ("classic", "sum-norm")]


@needs_kernel
@pytest.mark.parametrize("start, limbs", [(1, 1), (2, 2), (3, 3), (4, 4), (6, 2)])
@pytest.mark.parametrize("seed, denominator, bits, convention", CASES)
def test_wide_chunks_give_the_verdicts_of_one_update_at_a_time(seed, denominator, bits, convention, start, limbs):
    data = wide_data(seed, denominator, bits)
    rows, epochs, scores, trace = reference_updates(data, convention)
    conv = CONVENTIONS[convention]
    separator = (strict_final_weights(data, conv, trace.final_weights, sample_matrix(data, conv))[0]
                 if trace.converged else [3**40] + [-(2**90)] * data.n_features)
    expected, _ = checked(data, convention, rows, epochs, scores, separator=separator)
    got, replayed = checked(data, convention, rows, epochs, scores, limbs=limbs, start=start, separator=separator)
    assert got == expected
    assert expected.invariants[0].holds is True
    if bits <= 80:  # within 1024 bits all along: every update replayed in C
        assert replayed == len(rows)


@needs_kernel
@pytest.mark.parametrize("spoil", ["score", "row", "claim"])
@pytest.mark.parametrize("denominator, bits", [(2**70, 72), (10**25, 80)])
def test_a_wrong_wide_chunk_is_caught_where_one_update_at_a_time_catches_it(denominator, bits, spoil):
    data = wide_data(7, denominator, bits)
    rows, epochs, scores, _ = reference_updates(data, "classic")
    middle = len(rows) // 2
    claims = None
    if spoil == "score":
        scores[middle] += 2**100  # a limb above the lowest two is wrong
    elif spoil == "row":
        rows[middle] = (rows[middle] + 1) % data.n_samples
    else:
        claims = [*claims_for("classic", "online"), FALSE_CLAIM]
    expected, _ = checked(data, "classic", rows, epochs, scores, claims=claims)
    got, _ = checked(data, "classic", rows, epochs, scores, limbs=3, start=3, claims=claims)
    assert got == expected
    failed = [r for r in got.invariants if r.holds is False]
    assert failed, "the spoiled chunk passed"
    if spoil == "claim":
        assert failed[0].name == FALSE_CLAIM.name
    else:
        assert failed[0].name == "update-rule" and failed[0].first_violation.k == middle + 1


@needs_kernel
def test_the_replay_widens_itself_and_stops_past_its_widest():
    data = wide_data(3, 1, 600)  # norms of 1,200 bits: past 1,024, the replay in limbs cannot start
    rows, epochs, scores, _ = reference_updates(data, "classic")
    checker = Checker(data, "classic", rate=1, mode="online")
    assert checker._limb_replay() is None  # none is made: the Python integers' replay takes it all
    narrow = wide_data(3, 1, 60)
    rows, epochs, scores, _ = reference_updates(narrow, "classic")
    got, replayed = checked(narrow, "classic", rows, epochs, scores, limbs=1, start=1)
    assert got == checked(narrow, "classic", rows, epochs, scores)[0] and replayed == len(rows)


@needs_kernel
def test_check_wide_refuses_wrong_arguments_by_name():
    check_wide = _kernel.check_wide
    assert check_wide is not None
    K, n, d = 3, 2, 2
    args = [np.zeros((n, d * K), dtype=np.int64), np.zeros(d * K, dtype=np.int64), np.zeros(n, dtype=np.int64),
            np.zeros(n, dtype=bool), np.zeros((n, K), dtype=np.int64), np.zeros((n, K), dtype=np.int64),
            np.zeros(0, dtype=np.int64), np.zeros((0, 1), dtype=np.int64), np.array([2, 0, 0], dtype=np.int64),
            np.zeros((1, K), dtype=np.int64), np.zeros(11, dtype=np.int64), np.zeros((7, K), dtype=np.int64),
            np.zeros(1, dtype=bool), np.zeros((1, K), dtype=np.int64), np.zeros(1, dtype=np.int64)]
    assert check_wide(*args) == (0, 0)
    wrong = list(args)
    wrong[4] = np.zeros((n, K + 1), dtype=np.int64)
    with pytest.raises(ValueError, match="norms has shape"):
        check_wide(*wrong)
    wrong = list(args)
    wrong[9] = np.zeros((1, _limb_replay.LIMBS_MAX + 1), dtype=np.int64)
    with pytest.raises(ValueError, match=f"quantities has {_limb_replay.LIMBS_MAX + 1} limbs"):
        check_wide(*wrong)
    wrong = list(args)
    wrong[11] = np.zeros((7, K), dtype=np.int64)[:, :1].copy()
    with pytest.raises(ValueError, match="state has shape"):
        check_wide(*wrong)


def _one_update(w_sq: int, program: list[int], claims: int) -> tuple[tuple[int, int], list[int]]:
    """check_wide on one update (row 0, all zeros, a tie) from W = (1, 0) and a state whose ||W||^2 says
    `w_sq` (K = 3, every slot reading its own quantity: k is quantity 1), every claim marked failed already
    (a negative slack does not stop it): ``((done, reason), least slacks)``."""
    check_wide = _kernel.check_wide
    assert check_wide is not None
    K, n, d = 3, 2, 2
    W = np.zeros(d * K, dtype=np.int64)
    W[0] = 1
    state = np.zeros((7, K), dtype=np.int64)
    state[2, 0] = w_sq  # (k, N, w_sq, ...)
    best = np.zeros((claims, K), dtype=np.int64)
    out = check_wide(np.zeros((n, d * K), dtype=np.int64), W, np.zeros(n, dtype=np.int64), np.ones(n, dtype=bool),
                     np.zeros((n, K), dtype=np.int64), np.zeros((n, K), dtype=np.int64), np.zeros(1, dtype=np.int64),
                     np.zeros((1, 1), dtype=np.int64), np.array(program, dtype=np.int64),
                     np.zeros((11, K), dtype=np.int64), np.arange(11, dtype=np.int64), state,
                     np.ones(claims, dtype=bool), best, np.zeros(claims, dtype=np.int64))
    return out, [int(v) for v in score_values(best).tolist()]


@needs_kernel
def test_check_wide_replays_nothing_from_a_state_whose_w_sq_is_not_w():
    # The dot products are taken mod 2^(64K), exact by Cauchy-Schwarz only while the state's ||W||^2 is W's:
    # a state that says otherwise stops the replay before its first update (reason 1), for Python to decide.
    assert _one_update(1, [2, 0, 0], 1)[0] == (1, 0)
    assert _one_update(0, [2, 0, 0], 1)[0] == (0, 1)
    assert _one_update(4, [2, 0, 0], 1)[0] == (0, 1)


@needs_kernel
def test_the_programs_constant_parts_folded_give_the_programs_values():
    # check_wide folds the program's constant parts once (products, powers, negations of constants; a
    # product by 1 is its other factor): each slack must be the program's value. k is 1 at the update.
    Q, C, ADD, SUB, MUL, NEG, POW, END = 1, 2, 3, 4, 5, 6, 7, 0
    claims = [([C, 3, C, 5, MUL, Q, 1, MUL, END], 15),  # (3 * 5) * k
              ([Q, 1, C, 1, MUL, END], 1),  # k * 1
              ([C, 1, Q, 1, C, 7, SUB, MUL, END], -6),  # 1 * (k - 7)
              ([C, 2, NEG, POW, 3, Q, 1, MUL, END], -8),  # (-2)^3 * k
              ([C, 2, C, 9, ADD, C, 4, SUB, Q, 1, ADD, END], 8),  # (2 + 9 - 4) + k
              ([C, 2**62, POW, 3, C, 2**62, NEG, MUL, Q, 1, MUL, END], -(2**248))]  # 2^248 * k, past K = 3
    program = [op for code, _ in claims for op in code]
    assert _one_update(1, program[:-12], 5) == ((1, 0), [value for _, value in claims[:5]])
    assert _one_update(1, program, 6)[0] == (0, 2)  # a constant past K limbs is left to the update: one wider


@needs_kernel
def test_each_claims_least_slack_is_its_value_at_that_update():
    # check_wide reads each slack where the program left it (a stack position's room of its own per claim, or
    # the quantity itself): one mistake from W = (1, 0) on z = (-1, 0) takes ||W||^2 from 1 to 0, and the claims
    # read it before (the state's own value, then written over by the update) and after, and a sum of each.
    check_wide = _kernel.check_wide
    assert check_wide is not None
    K, n, d, Q, ADD, END = 3, 1, 2, 1, 3, 0
    W = np.array(as_limbs(np.array([1, 0], dtype=object), K), dtype=np.int64).reshape(-1)
    state = np.zeros((7, K), dtype=np.int64)
    state[2, 0] = 1  # (k, N, w_sq, ...): ||W||^2 = 1
    program = [Q, 4, END, Q, 9, END, Q, 4, Q, 4, ADD, END, Q, 9, Q, 4, ADD, END]  # prev_w_sq, w_sq, 2 prev, w + prev
    best = np.zeros((4, K), dtype=np.int64)
    out = check_wide(np.array(as_limbs(np.array([-1, 0], dtype=object), K), dtype=np.int64).reshape(n, d * K), W,
                     np.zeros(n, dtype=np.int64), np.zeros(n, dtype=bool), np.array(as_limbs(np.array([1]), K)),
                     np.zeros((n, K), dtype=np.int64), np.zeros(1, dtype=np.int64), np.array([[-1]], dtype=np.int64),
                     np.array(program, dtype=np.int64), np.zeros((11, K), dtype=np.int64),
                     np.arange(11, dtype=np.int64), state, np.zeros(4, dtype=bool), best, np.zeros(4, dtype=np.int64))
    assert out == (1, 0)
    assert [int(v) for v in score_values(best).tolist()] == [1, 0, 2, 1]
    assert [int(v) for v in score_values(state).tolist()][:3] == [1, 1, 0]


@needs_kernel
@pytest.mark.parametrize("start", [2, 3])
def test_int64_samples_are_read_as_they_are_against_a_separator_past_128_bits(start):
    # Samples in int64 (no copy in limbs: the C replay widens a row at a time), claims past 128 bits
    # through a separator of 90-bit entries: every update replayed in limbs, verdicts as one by one.
    rng = random.Random(11)
    numerators = np.array([[rng.randint(-999, 999) for _ in range(3)] for _ in range(9)], dtype=np.int64)
    data = Dataset(numerators=numerators, denominator=1000, y=[1, -1] * 4 + [1])
    rows, epochs, scores, _ = reference_updates(data, "classic")
    separator = [2**90 + 1, -(2**89), 3**55, 7]
    expected, _ = checked(data, "classic", rows, epochs, scores, separator=separator)
    got, replayed = checked(data, "classic", rows, epochs, scores, limbs=1, start=start, separator=separator)
    assert got == expected and replayed == len(rows) > 0


@pytest.mark.parametrize("limbs", [1, 3, 5])
def test_the_whole_run_record_reads_wide_chunks_as_one_update_at_a_time(limbs):
    # WholeRun (the report's last updates and thinned invariants) told a chunk of (m, L) limb scores,
    # in two pieces, keeps exactly what it keeps when told each update alone.
    from verify_perceptron.check.whole_run import WholeRun

    data = wide_data(1, 10**25, 80)
    rows, epochs, scores, trace = reference_updates(data, "classic")
    separator = [3**40] + [-(2**90)] * data.n_features
    kept = []
    for chunked in (False, True):
        whole = WholeRun(Checker(data, "classic", rate=1, mode="online", separator=separator))
        if chunked:
            L = max(limbs, max(abs(s) for s in scores).bit_length() // 64 + 1)
            S, R, E = as_limbs(np.array(scores, dtype=object), L), np.array(rows), np.array(epochs)
            half = len(rows) // 2
            whole.observe_chunk(1, E[:half], R[:half], S[:half])
            whole.observe_chunk(half + 1, E[half:], R[half:], S[half:])
        else:
            for k, (i, epoch, s) in enumerate(zip(rows, epochs, scores), start=1):
                whole.observe(k, epoch, [i], [s])
        kept.append((whole.points(), list(whole.ring)))
    assert kept[0] == kept[1] and len(rows) > 2


#: A true claim whose program multiplies small negative values (k = N online): (k - 2N)(N - 3k) = 2N² <= 3Nk.
SMALL_PRODUCTS = Claim("small-products", "(k - 2N)(N - 3k) <= 3Nk", "a true claim, for the test",
                       lambda q: (q.k - 2 * q.N) * (q.N - 3 * q.k), lambda q: 3 * q.N * q.k, ("k", "N"),
                       needs_separator=False)


@needs_kernel
@pytest.mark.parametrize("start", [2, 4])
def test_products_of_small_negative_values_are_exact(start):
    # Every update replayed in C (a wrong product would stop it, or move the least slack N² = 1).
    data = wide_data(2, 2**70, 72)
    rows, epochs, scores, _ = reference_updates(data, "classic")
    claims = [*claims_for("classic", "online"), SMALL_PRODUCTS]
    expected, _ = checked(data, "classic", rows, epochs, scores, claims=claims)
    got, replayed = checked(data, "classic", rows, epochs, scores, limbs=2, start=start, claims=claims)
    assert got == expected and replayed == len(rows) > 1
    assert [r.min_slack for r in got.invariants if r.name == SMALL_PRODUCTS.name] == [1]


@needs_kernel
@pytest.mark.parametrize("digits, dtype", [(3, np.int16), (8, np.int32), (12, np.int64)])
def test_narrow_samples_are_replayed_as_held_without_an_int64_copy(digits, dtype):
    # Samples held in 16 or 32 bits are handed to the C replay as they are (an int64 copy was twice an int32
    # matrix, for the whole replay: issue 32's peak at 10^6 x 10); the verdicts are those of one by one,
    # and a wrong score in the chunk is caught as one by one catches it.
    rng = random.Random(digits)
    top = 10**digits - 1
    numerators = np.array([[rng.randint(-top, top) for _ in range(3)] for _ in range(9)], dtype=np.int64)
    data = Dataset(numerators=numerators, denominator=10**digits, y=[1, -1] * 4 + [1])
    rows, epochs, scores, _ = reference_updates(data, "classic")
    separator = [2**90 + 1, -(2**89), 3**55, 7]
    matrix = sample_matrix(data, CONVENTIONS["classic"])
    assert matrix.exact.dtype == dtype
    replay = _limb_replay.LimbReplay(matrix, np.zeros(9, dtype=bool), np.zeros(9, dtype=np.int64), None, [], (0,), 2)
    arrays = replay._at(2)
    assert arrays is not None and arrays[0] is matrix.exact  # no copy
    expected, _ = checked(data, "classic", rows, epochs, scores, separator=separator)
    got, replayed = checked(data, "classic", rows, epochs, scores, limbs=1, start=2, separator=separator)
    assert got == expected and replayed == len(rows) > 0
    spoiled = scores[:2] + [scores[2] - 1] + scores[3:]
    wrong, _ = checked(data, "classic", rows, epochs, spoiled, limbs=1, start=2, separator=separator)
    assert wrong == checked(data, "classic", rows, epochs, spoiled, separator=separator)[0]
    failed = [r for r in wrong.invariants if r.holds is False]
    assert failed and failed[0].name == "update-rule" and failed[0].first_violation.k == 3


#: True claims whose programs multiply a value past int64 by one within it, of either sign (k = N online):
#: (k − 2N)(−S) = N·S <= 2N·S, and 2^62·S·(k − 2N) = −2^62·N·S <= 0, whose product passes 192 bits.
WIDE_BY_SMALL = [
    Claim("wide-by-small", "(k - 2N)(-S) <= 2 N S", "a true claim, for the test",
          lambda q: (q.k - 2 * q.N) * (-q.sum_N_xsq), lambda q: 2 * q.N * q.sum_N_xsq, ("k", "N", "sum_N_xsq"),
          needs_separator=False),
    Claim("wide-by-constant", "2^62 S (k - 2N) <= 0", "a true claim, for the test",
          lambda q: 2**62 * q.sum_N_xsq * (q.k - 2 * q.N), lambda q: 0 * q.sum_N_xsq, ("k", "N", "sum_N_xsq"),
          needs_separator=False),
    # 2^62 times 2^130 (a quantity of its own) is 2^192 exactly: at K = 3 its low limbs are all 0, the carry
    # out of them all there is; wrapped on both sides, the slack 2^192·k would read 0
    Claim("carried-out", "2^62 2^130 N <= 2^62 2^131 k", "a true claim, for the test",
          lambda q: 2**62 * (2**130 * q.N), lambda q: 2**62 * (2**131 * q.k), ("k", "N"), needs_separator=False),
]


def _held(values: list[list[int]], denominator: int, y: list[int]) -> Dataset:
    """Integers over `denominator` held in two 64-bit limbs each, as binary floats are."""
    from verify_perceptron.data.limb_arrays import int_limbs

    n, d = len(values), len(values[0])
    return Dataset(limbs=int_limbs([v for row in values for v in row], 2).reshape(n, d, 2), denominator=denominator,
                   y=y)


@needs_kernel
@pytest.mark.parametrize("start", [3, 4])
@pytest.mark.parametrize("claim", WIDE_BY_SMALL, ids=lambda claim: claim.name)
def test_products_of_a_wide_value_and_an_int64_one_are_exact_and_widen_past_k(start, claim):
    # Every update replayed in C, the least slacks those of one update at a time: a product's sign, and a
    # product past K limbs (2^62·S, 2^192 at K = 3) that must widen the replay, not wrap. One claim a run:
    # the replay widens for all of them at once.
    data = wide_data(2, 2**70, 72)
    rows, epochs, scores, _ = reference_updates(data, "classic")
    expected, _ = checked(data, "classic", rows, epochs, scores, claims=[claim])
    got, replayed = checked(data, "classic", rows, epochs, scores, limbs=2, start=start, claims=[claim])
    assert got == expected and replayed == len(rows) > 1
    assert [r.holds for r in got.invariants if r.name == claim.name] == [True]


@needs_kernel
@pytest.mark.parametrize("magnitude, start", [(2**80, 3), (2**126, 5)])
def test_samples_held_in_two_limbs_are_replayed_as_held(monkeypatch, magnitude, start):
    # Samples held in two limbs (binary floats) reach the replay in two limbs an entry, not K (no copy);
    # near 2^126 ‖W‖² passes 2^252 and the replay reads them sign-extended to K limbs: every update in C.
    rng = random.Random(5)
    values = [[rng.choice([-1, 1]) * rng.randint(magnitude // 2, magnitude) for _ in range(3)] for _ in range(7)]
    data = _held(values, 2**70, [1, -1, 1, -1, 1, 1, -1])
    assert data.limbs is not None
    widths = []
    real = _kernel.check_wide
    assert real is not None

    def spied(*args):
        widths.append(args[0].shape[1] // (args[1].shape[0] // args[9].shape[1]))
        return real(*args)

    monkeypatch.setattr(_kernel, "check_wide", spied)
    rows, epochs, scores, _ = reference_updates(data, "classic")
    expected, _ = checked(data, "classic", rows, epochs, scores)
    got, replayed = checked(data, "classic", rows, epochs, scores, limbs=2, start=start)
    assert got == expected and replayed == len(rows) > 1
    assert set(widths) == {2}


@needs_kernel
@pytest.mark.parametrize("start", [5, 6])
def test_a_dot_product_past_2_to_the_255_from_entries_of_128_bits_is_exact(start):
    # 64 entries just below 2^127 against weights of 1.5 * 2^122 (‖W‖² < 2^252: the 128-bit entries' dot
    # product): the sum of the products' high halves passes 128 bits, and the score (about -2^255.6) needs
    # five limbs. Every update is replayed in C, with the verdicts of one update at a time.
    d = 64
    numerators = np.array([[3 * 2**121] * d, [2**127 - 1] * d], dtype=object)
    data = Dataset(numerators=numerators, denominator=1, y=[1, -1])
    rows, epochs, scores, _ = reference_updates(data, "classic")
    assert min(scores) < -(2**255)
    expected, _ = checked(data, "classic", rows, epochs, scores)
    got, replayed = checked(data, "classic", rows, epochs, scores, limbs=5, start=start)
    assert got == expected
    assert replayed == len(rows)


@needs_kernel
def test_the_replay_of_binary_floats_starts_at_three_limbs_and_widens_as_it_needs():
    # Standard normal float64 data: entries of about 76 bits, norms of about 151, the constants the claims
    # read (R², a) no wider. The replay starts at three limbs (it started at four, for a constant the program
    # never reads and 64 bits of room: 5% slower), and a run whose values outgrow them widens it.
    from verify_perceptron.data.arrays import exact_table

    rng = np.random.default_rng(7)
    X = rng.standard_normal((40, 10))
    X[0, 0] = 3e-7  # a denominator of 2^74, as among 10^5 rows: norms of 151 bits
    table = exact_table(X)
    data = Dataset(numerators=table.numerators, denominator=table.denominator, y=[1, -1] * 20)
    checker = Checker(data, "classic", rate=1, mode="online", compiled=True)
    replay = checker._limb_replay()
    assert replay is not None and replay.K == 3
    rows, epochs, scores, _ = reference_updates(data, "classic")
    expected, _ = checked(data, "classic", rows, epochs, scores)
    got, replayed = checked(data, "classic", rows, epochs, scores, limbs=3, start=2)
    assert got == expected and replayed == len(rows)



@pytest.mark.parametrize("K", [1, 2, 3, 4])
def test_norms_held_in_limbs_are_narrowed_only_where_they_fit(K):
    # The replay reads the norms of samples held in limbs from those limbs (no Python integers), cut to K
    # limbs only where every limb above repeats the sign: the edges of K limbs fit, one past them does not.
    top = 64 * K - 1
    fit = [-(2**top), 2**top - 1, -1, 0, 1, 2**(top - 1) + 5]
    limbs = as_limbs(np.array(fit, dtype=object), K + 2)
    narrowed = _limb_replay._narrowed(limbs, K)
    assert narrowed.flags.c_contiguous and narrowed.shape == (len(fit), K)
    assert score_values(narrowed).tolist() == fit
    for past in (2**top, -(2**top) - 1, 2**(top + 60)):
        with pytest.raises(OverflowError):
            _limb_replay._narrowed(as_limbs(np.array(fit + [past], dtype=object), K + 2), K)
    assert score_values(_limb_replay._narrowed(as_limbs(np.array(fit, dtype=object), K), K + 1)).tolist() == fit


@needs_kernel
def test_the_replay_reads_held_norms_as_the_python_integers_give_them():
    # The same norms from the limbs held as from the norms in Python integers, for every K the replay tries (in at
    # most K limbs: check_wide sign-extends narrower ones as it reads them).
    rng = random.Random(11)
    values = [[rng.choice([-1, 1]) * rng.randint(2**60, 2**126 - 1) for _ in range(3)] for _ in range(6)]
    checker = Checker(_held(values, 2**70, [1, -1, 1, -1, 1, -1]), "classic", rate=1, mode="online", compiled=True)
    replay = checker._limb_replay()
    assert isinstance(replay, _limb_replay.LimbReplay) and checker.matrix.held is not None
    for K in range(replay.K, 8):
        arrays = replay._at(K)
        assert arrays is not None
        assert arrays[1].shape[1] <= K and arrays[1].flags.c_contiguous
        assert score_values(arrays[1]).tolist() == list(checker.matrix.norms)
