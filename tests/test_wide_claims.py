"""The claims past the replay in limbs' 1,024 bits, decided from each update's quantities, give the verdicts of
the per-update Python path.

Separators of 1,100 to 1,600 bits (margins and ‖w*‖² past the limbs) on small data, int64 and ~2^70 numerators,
under every convention: a chunk handed to a compiled `Checker` (the claims about w* split off to
`verify_perceptron.check.wide_claims`, the rest in limbs) must give the `CheckResult` of `Checker.observe` on
each update alone, exactly, also for a wrong score, a wrong row, a false claim and a w* that does not separate.
Batch mode (checked one update at a time on both sides) gives equal results too. The floating-point
enclosures contain every exact value they stand for.
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from verify_perceptron.check import kernel as _kernel
from verify_perceptron.check import wide_claims
from verify_perceptron.check._enclosures import Enclosure, enclose, joined_ends
from verify_perceptron.check.checker import Checker
from verify_perceptron.check.separator import strict_final_weights
from verify_perceptron.data.dataset import Dataset
from verify_perceptron.data.samples import sample_matrix
from verify_perceptron.data.trace import Trace
from verify_perceptron.notes.claims import Claim, claims_for
from verify_perceptron.notes.conventions import CONVENTIONS
from verify_perceptron.run import fast

needs_kernel = pytest.mark.skipif(_kernel.check_wide is None, reason=f"the C kernel is not built: {_kernel.IMPORT_ERROR}")
RATES: dict[str, int | Fraction] = {"classic": 1, "hard-limiter": Fraction(1, 2), "unit-ball": 1,
                                    "sum-norm": Fraction(2, 3), "split-bias": 3, "hard-limiter-plus": 1}
#: A false claim about w*: it reads w_k·w*, so it is one of the wide claims.
HALF_ANGLE = Claim("half-angle", "2·(w_k·w*)² <= ‖w_k‖²·‖w*‖²", "a false claim, for the test",
                   lambda q: 2 * q.w_ws**2, lambda q: q.w_sq * q.ws_sq, ("w_ws", "w_sq", "ws_sq"))


@st.composite
def datasets(draw: st.DrawFn) -> Dataset:
    """Small data sets with both labels: int64 numerators up to 40, or numerators near 2^70 (past 128 bits)."""
    n, d = draw(st.integers(2, 8)), draw(st.integers(1, 3))
    top = draw(st.sampled_from([40, 2**70]))
    values = st.integers(-top, top)
    numerators = np.array(draw(st.lists(st.lists(values, min_size=d, max_size=d), min_size=n, max_size=n)),
                          dtype=np.int64 if top < 2**62 else object)
    y = draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n).filter(lambda ys: len(set(ys)) == 2))
    return Dataset(numerators=numerators, denominator=draw(st.sampled_from([1, 3, 10**9])), y=y)


def updates(data: Dataset, convention: str, max_epochs: int = 12) -> tuple[list[int], list[int], list[int], Trace]:
    """The fast engine's online updates: rows, epochs, scores (the checker's units), and the trace."""
    rows, epochs, scores = [], [], []

    class Recorder:
        def observe(self, k, epoch, samples, s):
            rows.append(samples[0])
            epochs.append(epoch)
            scores.append(int(s[0]))

    trace = fast.run(data, convention, eta=RATES[convention], max_epochs=max_epochs, observer=Recorder())
    return rows, epochs, scores, trace


def wide_separator(data: Dataset, convention: str, trace: Trace, shift: int, rng: random.Random) -> list[Fraction]:
    """A w* past 1,024 bits: the converged run's strict weights times 2^shift plus a little (it still
    separates), else random entries of about `shift` bits (it seldom does)."""
    conv = CONVENTIONS[convention]
    if trace.converged:
        w = strict_final_weights(data, conv, trace.final_weights, sample_matrix(data, conv))[0]
        return [Fraction(v) * 2**shift + rng.randint(0, 3) for v in w]
    return [Fraction(rng.randint(-(2**shift), 2**shift)) for _ in range(data.n_features + 1)]


def checked(data, convention, rows, epochs, scores, *, compiled, separator, claims=None):
    """The CheckResult of the updates as one chunk of Python-integer scores, or told one by one."""
    checker = Checker(data, convention, rate=RATES[convention], mode="online", separator=separator,
                      claims=claims, compiled=compiled)
    if compiled:
        checker.observe_chunk(1, np.array(epochs, dtype=np.int64), np.array(rows, dtype=np.int64),
                              np.array(scores, dtype=object))
    else:
        for k, (i, epoch, s) in enumerate(zip(rows, epochs, scores), start=1):
            checker.observe(k, epoch, [i], [s])
    return checker.finish()


@pytest.fixture
def split_runs(monkeypatch) -> list[int]:
    """How many updates each call of the split replay took."""
    calls: list[int] = []
    original = wide_claims.SplitReplay.run

    def counted(self, *args):
        out = original(self, *args)
        calls.append(out[0])
        return out

    monkeypatch.setattr(wide_claims.SplitReplay, "run", counted)
    return calls


@needs_kernel
@given(data=datasets(), convention=st.sampled_from(sorted(RATES)), shift=st.sampled_from([1100, 1600]),
       seed=st.integers(0, 2**16), spoil=st.sampled_from([None, None, "score", "row", "claim"]))
def test_claims_past_the_limbs_give_the_verdicts_of_one_update_at_a_time(data, convention, shift, seed, spoil):
    rng = random.Random(seed)
    rows, epochs, scores, trace = updates(data, convention)
    separator = wide_separator(data, convention, trace, shift, rng)
    if rows and spoil == "score":
        scores[rng.randrange(len(scores))] += rng.choice([1, -1, 2**90])
    elif rows and spoil == "row":
        rows[rng.randrange(len(rows))] = rng.randrange(-1, data.n_samples + 1)
    claims = [*claims_for(CONVENTIONS[convention].name, "online"), HALF_ANGLE] if spoil == "claim" else None
    expected = checked(data, convention, rows, epochs, scores, compiled=False, separator=separator, claims=claims)
    got = checked(data, convention, rows, epochs, scores, compiled=True, separator=separator, claims=claims)
    assert got == expected


@needs_kernel
@pytest.mark.parametrize("spoil", [None, "score", "row", "claim", "separator"])
@pytest.mark.parametrize("block", [None, 4])
def test_each_wrong_input_is_caught_where_one_update_at_a_time_catches_it(spoil, block, split_runs, monkeypatch):
    if block is not None:  # the claims' slacks enclosed 4 updates at a time: a chunk in many blocks, joined
        monkeypatch.setattr(wide_claims, "_BLOCK", block)
    rng = random.Random(9)
    X = [[rng.randint(-(2**70), 2**70) for _ in range(3)] for _ in range(40)]
    w = [rng.randint(-(2**68), 2**68)] + [rng.randint(-9, 9) for _ in range(3)]
    y = [1 if w[0] + sum(a * b for a, b in zip(w[1:], row)) > 0 else -1 for row in X]  # separable by w
    data = Dataset(numerators=np.array(X, dtype=object), denominator=10**9, y=y)
    rows, epochs, scores, trace = updates(data, "classic", max_epochs=500)
    assert trace.converged and len(rows) > 30
    separator = wide_separator(data, "classic", trace, 1300, rng)
    middle = len(rows) // 2
    claims = None
    if spoil == "score":
        scores[middle] += 2**100
    elif spoil == "row":
        rows[middle] = (rows[middle] + 1) % data.n_samples
    elif spoil == "claim":
        claims = [*claims_for("classic", "online"), HALF_ANGLE]
    elif spoil == "separator":
        separator[1] = -separator[1]  # a w* that no longer separates every sample
    expected = checked(data, "classic", rows, epochs, scores, compiled=False, separator=separator, claims=claims)
    got = checked(data, "classic", rows, epochs, scores, compiled=True, separator=separator, claims=claims)
    assert got == expected
    assert sum(split_runs) > 0, "the split replay took no update"
    failed = [r.name for r in got.invariants if r.holds is False]
    if spoil is None:
        assert failed == [] and sum(split_runs) == len(rows)
    elif spoil == "claim":
        assert failed == [HALF_ANGLE.name]
    elif spoil == "separator":
        assert failed == ["separator-separates"]
    else:
        rule = got.invariants[0]
        assert failed[0] == "update-rule" and rule.first_violation.k == middle + 1


@given(data=datasets(), convention=st.sampled_from(sorted(RATES)), seed=st.integers(0, 2**16))
def test_batch_runs_against_a_separator_past_the_limbs_give_equal_verdicts_either_way(data, convention, seed):
    separator = [Fraction(random.Random(seed).randint(-(2**1200), 2**1200)) for _ in range(data.n_features + 1)]
    results = []
    for compiled in (True, False):
        checker = Checker(data, convention, rate=RATES[convention], mode="batch", separator=separator,
                          compiled=compiled)
        trace = fast.run(data, convention, eta=RATES[convention], mode="batch", max_epochs=8, observer=checker)
        results.append(checker.finish(trace))
    assert results[0] == results[1]


ints = st.integers(-(2**3000), 2**3000) | st.integers(-(2**70), 2**70) | st.integers(-5, 5)


@given(a=st.lists(ints, min_size=1, max_size=6), b=ints, c=st.integers(-(2**80), 2**80), op=st.sampled_from("+-*^"))
def test_every_enclosure_contains_the_exact_value(a, b, c, op):
    x, y = enclose(np.array(a, dtype=object)), enclose(b)
    exact = {"+": [v + b for v in a], "-": [v - b for v in a], "*": [v * b for v in a], "^": [v * v for v in a]}[op]
    got = {"+": x + y, "-": x - y, "*": x * y, "^": x**2}[op]
    assert got.contains(exact)
    assert (got * c + c).contains([v * c + c for v in exact])


def bundled(name: str, standardized: bool) -> tuple[object, object]:
    """A bundled two-class set as float64 arrays: breast cancer, or wine's class 0 against the rest."""
    datasets_ = pytest.importorskip("sklearn.datasets")
    X, y = (datasets_.load_breast_cancer(return_X_y=True) if name == "breast cancer"
            else datasets_.load_wine(return_X_y=True))
    y = y if name == "breast cancer" else (y == 0).astype(int)
    if standardized:
        X = (X - X.mean(axis=0)) / X.std(axis=0)
    return X, y


@needs_kernel
@pytest.mark.parametrize("name, standardized", [
    ("wine", False), pytest.param("breast cancer", False, marks=pytest.mark.slow),
    pytest.param("breast cancer", True, marks=pytest.mark.slow)])
def test_a_bundled_set_against_its_certified_separator_gives_the_verdicts_of_one_update_at_a_time(
        name, standardized, split_runs):
    # The fit's own check (past the limbs against the certified w*: split) equals the per-update Python path.
    from verify_perceptron.api.estimator import ExactPerceptron

    X, y = bundled(name, standardized)
    with pytest.warns(Warning):  # the run stops at its epoch limit
        fitted = ExactPerceptron().fit(X, y)
    verification = fitted.verifications_[0]
    check, data = verification.check, verification.data
    assert check.separator_source == "certified" and sum(split_runs) == verification.trace.n_updates
    rows, epochs, scores, trace = updates(data, "classic", max_epochs=1000)
    expected = checked(data, "classic", rows, epochs, scores, compiled=False, separator=check.separator)
    got = checked(data, "classic", rows, epochs, scores, compiled=True, separator=check.separator)
    assert got == expected and got.holds
    assert [r.min_slack for r in got.invariants] == [r.min_slack for r in check.invariants]


@given(st.lists(st.tuples(st.lists(ints, min_size=1, max_size=4), st.sampled_from([1, 2**300, 3**900, 2**1200]),
                          st.booleans()), min_size=1, max_size=5))
def test_blocks_enclosed_apart_are_joined_around_their_values_over_one_exponent(blocks):
    pieces: list[Enclosure] = []
    spans: list[tuple[int, int]] = []
    values: list[int] = []
    for block, scale, one in blocks:  # each block's values times its scale; `one`: every index the same value
        block = [block[0] * scale] * len(block) if one else [v * scale for v in block]
        pieces.append(enclose(block[0]) if one else enclose(np.array(block, dtype=object)))
        spans.append((len(values), len(values) + len(block)))
        values += block
    lo, hi = joined_ends(pieces, spans, len(values))
    assert Enclosure(lo, hi, max(p.e for p in pieces)).contains(values)
    undefined = Enclosure(np.array([np.nan, 1.0]), np.array([2.0, np.nan]), 0)  # read as sure() reads them
    assert [v.tolist() for v in joined_ends([undefined], [(0, 2)], 2)] == [[-np.inf, 1.0], [2.0, np.inf]]


@given(values=st.lists(ints, min_size=1, max_size=40), start=ints, picks=st.lists(st.integers(0, 39), max_size=30))
def test_prefix_sums_of_gathered_values_are_enclosed_and_so_is_the_value_before_each(values, start, picks):
    rows = np.array([p % len(values) for p in picks], dtype=np.int64)
    gathered = enclose(np.array(values, dtype=object)).gathered(rows)
    sums, total = [], start
    for r in rows.tolist():
        total += values[r]
        sums.append(total)
    after = enclose(start) + gathered.prefix_sums()
    assert after.contains(sums)
    assert after.preceded_by(enclose(start)).contains([start, *sums[:-1]])


@given(st.lists(ints, min_size=1, max_size=20), st.integers(1, 50))
def test_scores_in_limbs_are_enclosed_as_their_values(values, L):
    from verify_perceptron.data.integers import as_limbs

    L = max(L, max(abs(v) for v in values).bit_length() // 64 + 1)
    limbs = np.asarray(as_limbs(np.array(values, dtype=object), L))
    assert wide_claims._enclosed_scores(limbs).contains(values)


@given(st.integers(2, 16), st.data())
def test_scores_in_up_to_fifteen_limbs_are_enclosed_from_their_nearest_doubles(L, data):
    # (up to 15 limbs from each score's nearest double, rounded in C; past that limb by limb)
    from verify_perceptron.data.integers import as_limbs

    top = 2 ** (64 * L - 2)
    values = data.draw(st.lists(st.integers(-top, top) | st.integers(-(2**60), 2**60), min_size=1, max_size=20))
    values[0] = top - 1  # (at least one value of 64·L - 2 bits, past any double's 53)
    got = wide_claims._enclosed_scores(np.asarray(as_limbs(np.array(values, dtype=object), L)))
    assert got.contains(values)


def test_the_prefix_sums_rounding_error_is_inside_the_enclosure():
    # 4,000 odd values near 2^60 (each rounded to float64, then summed with a rounding at each step): without
    # the error bound of the sums the enclosure misses the exact sums by millions of ulps' worth.
    rng = random.Random(3)
    values = [2**60 + 2 * rng.randrange(2**40) + 1 for _ in range(4000)]
    sums = np.cumsum(np.array(values, dtype=object)).tolist()
    assert enclose(np.array(values, dtype=object)).prefix_sums().contains(sums)
    assert (enclose(-(2**3000)) + enclose(np.array(values, dtype=object)).prefix_sums()).contains(
        [s - 2**3000 for s in sums])


@needs_kernel
@pytest.mark.parametrize("row", [-1, 12])
def test_a_chunk_whose_first_row_does_not_exist_is_left_to_one_update_at_a_time(row):
    data = Dataset(numerators=np.array([[2**70 + i, -i] for i in range(12)], dtype=object), denominator=1,
                   y=[1, -1] * 6)
    separator = [Fraction(2**1300), Fraction(3**900), Fraction(-(5**600))]
    expected = checked(data, "classic", [row, 0], [1, 1], [0, 0], compiled=False, separator=separator)
    got = checked(data, "classic", [row, 0], [1, 1], [0, 0], compiled=True, separator=separator)
    assert got == expected and "does not exist" in got.invariants[0].first_violation.message


def _code(claim: Claim) -> list[int]:
    from verify_perceptron.check.wide_replay import compiled_claims
    from verify_perceptron.notes.claims import CLAIMS

    constants = {name: 1 for c in CLAIMS for name in c.uses if name in ("a", "gamma", "R_sq", "beta", "ws_sq", "bound")}
    compiled = compiled_claims([claim], constants)
    assert compiled is not None
    return compiled[0]


def test_the_claims_whose_slack_is_their_samples_are_told_exactly() -> None:
    from verify_perceptron.notes.claims import CLAIMS

    alone = {c.name for c in CLAIMS if wide_claims.per_sample_code(_code(c))}
    assert alone == {"lower-bound-step"}  # w_k·w* - w_(k-1)·w* >= n·a·γ: z·w* >= a·γ
    step = lambda q: q.w_ws - q.prev_w_ws  # noqa: E731
    made = {  # (claim, whose slack is its sample's)
        Claim("square", "", "", lambda q: step(q) ** 2, lambda q: q.step_sq * q.ws_sq, ("w_ws", "prev_w_ws")): True,
        Claim("squares", "", "", lambda q: q.w_ws**2 - q.prev_w_ws**2, lambda q: q.step_sq * q.ws_sq,
              ("w_ws", "prev_w_ws")): False,  # (z·w*)·(z·w* + 2·w_(k-1)·w*): not its sample's alone
        Claim("count", "", "", lambda q: step(q), lambda q: q.N * q.gamma, ("w_ws", "prev_w_ws", "N")): False,
        Claim("before", "", "", lambda q: q.prev_w_ws, lambda q: q.gamma, ("prev_w_ws",)): False,
        Claim("norm", "", "", lambda q: q.step_sq, lambda q: q.R_sq, ("step_sq",)): True,
    }
    assert {c.name: wide_claims.per_sample_code(_code(c)) for c in made} == {c.name: v for c, v in made.items()}


@given(st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from([0.0, -0.0, 2.0**-1074, 2.0**-1022,
                                                                          -(2.0**-1022), 2.0**1023]))
def test_the_outward_step_passes_the_next_float(x: float) -> None:
    from verify_perceptron.check._enclosures import _down, _up

    a = np.array([x])
    with np.errstate(over="ignore"):  # (the float past the largest is inf)
        below, above = np.nextafter(x, -np.inf), np.nextafter(x, np.inf)
    assert _down(a)[0] <= below and _up(a)[0] >= above


_ends = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from(
    [0.0, -0.0, 2.0**-1074, -(2.0**-1022), 2.0**1023, -(2.0**1023), 1.5 * 2.0**-1000])


@given(st.lists(st.tuples(_ends, _ends, _ends, _ends), min_size=1, max_size=8), st.booleans())
def test_the_enclosures_arithmetic_in_place_gives_the_plain_expressions_floats(rows, owned) -> None:
    # The steps computed into the arrays' own buffers (`_step`, `_extremes`, `_sums_beside`, `_largest`) are
    # the plain NumPy expressions' floats, bit for bit (NaN where they give NaN), and leave every input whole.
    from verify_perceptron.check import _enclosures as E

    p, q, r, s = (np.array(column) for column in zip(*rows))
    kept = [a.copy() for a in (p, q, r, s)]

    def same(got: np.ndarray, want: np.ndarray) -> bool:
        return bool(np.array_equal(got, want, equal_nan=True) and (np.signbit(got) == np.signbit(want)).all())

    with np.errstate(all="ignore"):
        t = np.arange(1, len(p) + 1, dtype=np.float64) * 2.0**-51
        plain = {
            "down": p - np.abs(p) * 2.0**-52 - 2.0**-1074, "up": p + np.abs(p) * 2.0**-52 + 2.0**-1074,
            "lo": np.minimum(np.minimum(p, q), np.minimum(r, s)), "hi": np.maximum(np.maximum(p, q), np.maximum(r, s)),
            "sums_down": np.cumsum(p) - np.cumsum(np.abs(p)) * t, "sums_up": np.cumsum(p) + np.cumsum(np.abs(p)) * t}
        given_ = p.copy() if owned else p
        assert same(E._down(given_, owned), plain["down"]) and same(E._up(p.copy() if owned else p, owned), plain["up"])
        lo, hi = E._extremes(p.copy(), q.copy(), r.copy(), s.copy())
        assert same(lo, plain["lo"]) and same(hi, plain["hi"])
        assert same(E._sums_beside(p, t, np.subtract), plain["sums_down"])
        assert same(E._sums_beside(p, t, np.add), plain["sums_up"])
        finite = np.where(np.isfinite(p), p, 3.0)  # (sums past an infinite or NaN value are all inf or NaN)
        assert same(E._sums_beside(finite, t, np.add), np.cumsum(finite) + np.cumsum(np.abs(finite)) * t)
        largest = float(np.max(np.abs(p), initial=0.0))
        assert E._largest(p) == largest or (np.isnan(E._largest(p)) and np.isnan(largest))
    assert all(same(a, b) for a, b in zip((p, q, r, s), kept))  # nothing given was written to


#: Claims read before each update (not their sample's alone): a true one, and a false one (Cauchy-Schwarz with 2).
BEFORE = [Claim("before", "(w_(k-1)·w*)² <= ‖w_(k-1)‖²·‖w*‖²", "a claim on the weights before, for the test",
                lambda q: q.prev_w_ws**2, lambda q: q.prev_w_sq * q.ws_sq, ("prev_w_ws", "prev_w_sq", "ws_sq")),
          Claim("before-half", "2·(w_(k-1)·w*)² <= ‖w_(k-1)‖²·‖w*‖²", "a false claim, for the test",
                lambda q: 2 * q.prev_w_ws**2, lambda q: q.prev_w_sq * q.ws_sq, ("prev_w_ws", "prev_w_sq", "ws_sq"))]


@needs_kernel
def test_claims_on_the_weights_before_each_update_get_the_verdicts_of_one_update_at_a_time(split_runs, monkeypatch):
    # (the values before each update are enclosed only where a wide claim reads them, and there they decide: an
    # update whose enclosure is missing would be decided exactly, with the same verdict, so that is counted too)
    exactly: list[int] = []
    original = wide_claims.ChunkSlacks._exactly

    def counted(self, c, at):
        exactly.append(len(at))
        return original(self, c, at)

    monkeypatch.setattr(wide_claims.ChunkSlacks, "_exactly", counted)
    rng = random.Random(11)
    X = [[rng.randint(-(2**70), 2**70) for _ in range(3)] for _ in range(40)]
    w = [rng.randint(-(2**68), 2**68)] + [rng.randint(-9, 9) for _ in range(3)]
    y = [1 if w[0] + sum(a * b for a, b in zip(w[1:], row)) > 0 else -1 for row in X]
    data = Dataset(numerators=np.array(X, dtype=object), denominator=10**9, y=y)
    rows, epochs, scores, trace = updates(data, "classic", max_epochs=500)
    separator = wide_separator(data, "classic", trace, 1300, rng)
    claims = [*claims_for("classic", "online"), *BEFORE]
    expected = checked(data, "classic", rows, epochs, scores, compiled=False, separator=separator, claims=claims)
    got = checked(data, "classic", rows, epochs, scores, compiled=True, separator=separator, claims=claims)
    assert got == expected and sum(split_runs) > 0
    assert [r.holds for r in got.invariants if r.name.startswith("before")] == [True, False]
    assert sum(exactly) < len(rows)  # (each update's least slack among a few, and the failing one's)


def _and_against(shift: int) -> tuple[Dataset, list[int], list[int], list[int], list[Fraction]]:
    """The "and" example's classic updates, against its run's strict weights times 2^shift (plus 1)."""
    from verify_perceptron.data.examples import example

    data = example("and")
    rows, epochs, scores, trace = updates(data, "classic")
    separator = [Fraction(v) * 2**shift + 1 for v in strict_final_weights(
        data, CONVENTIONS["classic"], trace.final_weights, sample_matrix(data, CONVENTIONS["classic"]))[0]]
    return data, rows, epochs, scores, separator


@needs_kernel
def test_a_split_with_margins_inside_the_limbs_replays_the_claims_on_the_margins_wide(split_runs) -> None:
    # w* of about 700 bits: ‖w*‖² (1,400 bits) passes the limbs, its margins do not. The replay in limbs is
    # given zero margins, so the claims that read them must be wide too: kept in limbs, they read zeros, "failed"
    # at every update and sent each to `Checker.observe` (UCI's wdbc.data with its id column: 6 ms an update)
    data, rows, epochs, scores, separator = _and_against(shift=700)
    expected = checked(data, "classic", rows, epochs, scores, compiled=False, separator=separator)
    got = checked(data, "classic", rows, epochs, scores, compiled=True, separator=separator)
    assert got == expected
    assert split_runs == [len(rows)]  # one call replayed every update


@needs_kernel
def test_a_replay_that_declines_every_update_is_asked_again_after_1_2_4_updates(monkeypatch) -> None:
    # each call costs its set-up over the rest of the chunk: asked at every update, that was quadratic
    data, rows, epochs, scores, separator = _and_against(shift=1100)
    asked: list[int] = []

    def declines(self, W, counts, state, rows, scores, failed):
        asked.append(len(rows))
        return 0, (*state, 0), [None] * len(self.scales)

    monkeypatch.setattr(wide_claims.SplitReplay, "run", declines)
    expected = checked(data, "classic", rows, epochs, scores, compiled=False, separator=separator)
    got = checked(data, "classic", rows, epochs, scores, compiled=True, separator=separator)
    assert got == expected
    assert asked == [18, 17, 15, 11, 3]  # 1, 2, 4, 8 updates told to `observe` between the asks
