"""The wide claims' enclosures in C (`verify_perceptron.check.slack_lanes`, check/_slacks.h) contain the exact
values, and the chunks decided from them give the verdicts of the NumPy enclosures.

`walk_sums`' running sums of gathered per-sample values, of values given by their nearest doubles and of a
start far larger or smaller than the terms, and `claim_slacks`' programs over lanes and scalars (every
operation, scalar factors of either sign, exponents apart, values across 0) are held to Python integers.
A chunk's `ChunkSlacks` made through C and through NumPy give the same first negative slack and the same
least slacks at the same updates.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verify_perceptron.check import kernel as _kernel
from verify_perceptron.check import slack_lanes, wide_claims
from verify_perceptron.check._enclosures import Enclosure, enclose
from verify_perceptron.check.wide_replay import run_program
from verify_perceptron.notes.claims import OPS, QUANTITIES

pytestmark = pytest.mark.skipif(not slack_lanes.available(), reason=f"the C kernel is not built: {_kernel.IMPORT_ERROR}")
Q, C = OPS["quantity"], OPS["constant"]
claim_ends = slack_lanes.claim_ends


def big(rng: random.Random, bits: int) -> int:
    """A random integer of about `bits` bits, of either sign (0 now and then)."""
    return 0 if rng.random() < 0.05 else rng.choice([-1, 1]) * rng.getrandbits(max(bits, 1))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), bits=st.sampled_from([3, 60, 200, 1600]), start_bits=st.sampled_from([0, 40, 3000]),
       extra=st.sampled_from([None, "enclosed", "nearest"]), m=st.integers(0, 700))
def test_walk_sums_enclose_the_running_sums(seed, bits, start_bits, extra, m) -> None:
    rng = random.Random(seed)
    n = rng.randint(1, 30)
    per_sample = np.array([big(rng, bits) for _ in range(n)], dtype=object)
    rows = np.array([rng.randrange(n) for _ in range(m)], dtype=np.int64)
    start = big(rng, start_bits)
    terms = [int(v) for v in per_sample[rows]]
    lanes = slack_lanes.Lanes(1, m)
    if extra is None:
        lanes.walk(0, rows, enclose(per_sample), None, start)
    else:
        scores = [big(rng, 150) for _ in range(m)]
        terms = [t + 2 * s for t, s in zip(terms, scores)]
        given_as = (enclose(np.array(scores, dtype=object)) if extra == "enclosed"
                    else np.array([float(s) for s in scores]))
        lanes.walk(0, rows, enclose(per_sample), given_as, start, doubled=True)
    sums, total = [], start
    for t in terms:
        total += t
        sums.append(total)
    assert lanes.enclosure(0).contains(sums)


def test_walk_sums_with_a_start_past_the_terms_by_more_than_the_doubles_range() -> None:
    """The terms' factor is below 2^-1022 (each term by ldexp), and a term far below the start still counts."""
    terms = np.array([3**40, -(5**30), 7], dtype=object)
    start = 2**3000 + 1
    lanes = slack_lanes.Lanes(1, 3)
    lanes.walk(0, np.array([0, 1, 2]), enclose(terms), None, start)
    assert lanes.enclosure(0).contains([start + 3**40, start + 3**40 - 5**30, start + 3**40 - 5**30 + 7])
    lanes = slack_lanes.Lanes(1, 2)  # and a start far below the terms
    lanes.walk(0, np.array([0, 0]), enclose(np.array([2**3000 + 5], dtype=object)), None, -3)
    assert lanes.enclosure(0).contains([2**3000 + 2, 2**3001 + 7])


def random_program(rng: random.Random, names: int, depth: int) -> tuple[list[int], int]:
    """A postfix program of one claim over quantities 0..names-1 and constants, and its operand count."""
    if depth == 0 or rng.random() < 0.25:
        if rng.random() < 0.3:
            return [C, rng.choice([1, -1, 7, 3**50, -(3**400), 2**1100 + 1, 0])], 1
        return [Q, rng.randrange(names)], 1
    op = rng.choice(["+", "-", "*", "*", "neg", "**"])
    a, _ = random_program(rng, names, depth - 1)
    if op == "neg":
        return a + [OPS["neg"]], 1
    if op == "**":
        return a + [OPS["**"], rng.choice([2, 3])], 1
    b, _ = random_program(rng, names, depth - 1)
    return a + b + [OPS[op]], 1


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32), m=st.integers(1, 600), bits=st.sampled_from([2, 50, 130, 1700]))
def test_claim_slacks_enclose_every_programs_exact_value(seed, m, bits) -> None:
    rng = random.Random(seed)
    names = 4  # 0, 1: lanes (one of them large and one small: exponents apart); 2, 3: scalars
    values = [np.array([big(rng, bits) for _ in range(m)], dtype=object),
              np.array([big(rng, 20) for _ in range(m)], dtype=object),
              big(rng, rng.choice([1, 40, 2000])), rng.choice([1, 2, 3**300, -5, -(2**1500)])]
    lanes = slack_lanes.Lanes(2, m)
    lanes.put(0, enclose(values[0]))
    lanes.put(1, enclose(values[1]))
    scalars = [None, None, enclose(values[2]), enclose(values[3])]
    codes = [random_program(rng, names, 4)[0] + [OPS["end"]] for _ in range(rng.randint(1, 4))]
    out = slack_lanes.claim_ends(codes, lanes, scalars)
    for code, slack in zip(codes, out):
        exact = np.broadcast_to(np.asarray(run_program(code, values)[0], dtype=object), (m,))
        assert slack.contains(exact), code
        assert not np.isnan(slack.lo).any() and not np.isnan(slack.hi).any()


@pytest.mark.parametrize("code, exact", [
    ([Q, 0, Q, 0, OPS["-"]], lambda v: 0 * v),  # a difference pops its operand (a stack kept in step)
    ([Q, 0, Q, 1, OPS["*"], Q, 0, OPS["-"]], lambda v: 6 * v),  # lane times a positive scalar (the short path)
    ([Q, 2, Q, 0, OPS["*"], C, 3, OPS["+"]], lambda v: 3 - 2 * v),  # scalar (negative) times lane
    ([Q, 0, OPS["neg"], OPS["**"], 3, Q, 1, OPS["**"], 2, OPS["+"]], lambda v: -(v**3) + 49),
    ([C, 3**700, Q, 0, C, 2**900, OPS["*"], OPS["-"]], lambda v: 3**700 - v * 2**900),  # exponents apart
])
def test_each_operation_on_lanes_and_scalars(code, exact) -> None:
    v = np.array([-(3**60), -1, 0, 1, 5, 2**70 + 1] * 50, dtype=object)
    lanes = slack_lanes.Lanes(1, len(v))
    lanes.put(0, enclose(v))
    (slack,) = slack_lanes.claim_ends([code + [OPS["end"]]], lanes, [None, enclose(7), enclose(-2)])
    assert slack.contains([exact(int(x)) for x in v])
    assert bool((slack.lo <= slack.hi).all())


def test_ends_left_undefined_are_read_as_unbounded() -> None:
    lanes = slack_lanes.Lanes(1, 3)
    lanes.put(0, Enclosure(np.array([np.nan, -np.inf, 1.0]), np.array([np.nan, np.inf, 1.0]), 0))
    (slack,) = slack_lanes.claim_ends([[Q, 0, Q, 0, OPS["*"], OPS["end"]]], lanes, [None])
    assert slack.lo[:2].tolist() == [-np.inf, -np.inf] and slack.hi[:2].tolist() == [np.inf, np.inf]
    assert slack.contains([0, 0, 1])


@pytest.mark.parametrize("code, claims, message", [
    ([9], 1, "no operation"), ([Q, 5, OPS["end"]], 1, "operand"), ([Q, 0, Q, 0, OPS["end"]], 1, "leaves values"),
    ([Q, 0, OPS["end"]], 2, "claims"),
])
def test_malformed_programs_are_refused_naming_what_is_wrong(code, claims, message) -> None:
    assert _kernel.claim_slacks is not None
    with pytest.raises(ValueError, match=message):
        _kernel.claim_slacks(np.array(code, dtype=np.int64), *_claim_args(claims))


def test_a_row_past_the_samples_is_refused_naming_it() -> None:
    assert _kernel.walk_sums is not None
    with pytest.raises(ValueError, match=r"rows\[1\]=3"):
        _kernel.walk_sums(np.array([0, 3], dtype=np.int64), np.zeros(2), np.zeros(2), np.zeros(0), np.zeros(0),
                          np.zeros(3, dtype=np.int64), np.zeros(2), np.zeros(2), np.zeros(2))


def _claim_args(claims: int) -> tuple[np.ndarray, ...]:
    """claim_slacks' arguments after the code: one lane of 4 updates, and `claims` rows out."""
    return (np.array([0], dtype=np.int64), np.ones((1, 4)), np.ones((1, 4)), np.zeros(1, dtype=np.int64),
            np.zeros((1, 2)), np.zeros(1, dtype=np.int64), np.empty((claims, 4)), np.empty((claims, 4)))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), m=st.integers(1, 400), gamma_shift=st.sampled_from([-3, 0, 2]))
def test_a_chunk_through_c_gives_the_numpy_enclosures_verdicts(seed, m, gamma_shift) -> None:
    """The claims of a separator past the limbs (W·W* >= N·a·γ, Cauchy-Schwarz, the mistake bound, the step),
    with γ moved so that some fail: the first negative slack and the least slacks are the NumPy path's."""
    rng = random.Random(seed)
    n = rng.randint(2, 12)
    margins = np.array([rng.getrandbits(1200) + 2**1200 for _ in range(n)], dtype=object)
    norms = np.array([rng.getrandbits(140) + 1 for _ in range(n)], dtype=object)
    gamma = int(min(margins)) >> 1 if gamma_shift <= 0 else int(min(margins)) << gamma_shift
    ws_sq = rng.getrandbits(2500) + 2**2500
    step = [Q, QUANTITIES.index("w_ws"), Q, QUANTITIES.index("prev_w_ws"), OPS["-"], Q, QUANTITIES.index("gamma"),
            OPS["-"], OPS["end"]]
    lower = [Q, QUANTITIES.index("w_ws"), Q, QUANTITIES.index("N"), Q, QUANTITIES.index("gamma"), OPS["*"],
             OPS["-"], OPS["end"]]
    cauchy = [Q, QUANTITIES.index("w_sq"), Q, QUANTITIES.index("ws_sq"), OPS["*"], Q, QUANTITIES.index("w_ws"),
              OPS["**"], 2, OPS["-"], OPS["end"]]
    bound = [C, rng.randint(0, 2 * m) * gamma, Q, QUANTITIES.index("N"), C, gamma, OPS["*"], OPS["-"], OPS["end"]]
    quantities = [0] * len(QUANTITIES)
    quantities[QUANTITIES.index("gamma")], quantities[QUANTITIES.index("ws_sq")] = gamma, ws_sq
    claims = wide_claims.WideClaims([step, lower, cauchy, bound], tuple(quantities), norms, margins)
    rows = np.array([rng.randrange(n) for _ in range(m)], dtype=np.int64)
    scores = np.array([big(rng, 100) for _ in range(m)], dtype=object)
    state = (0, 0, rng.getrandbits(150), rng.getrandbits(1190), 0, 0, 1)
    failed = [False] * 4
    calls: list[int] = []

    def counted(*args: Any) -> Any:
        calls.append(1)
        return claim_ends(*args)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(slack_lanes, "claim_ends", counted)
        through_c = claims.slacks(state, rows, scores)
        patch.setattr(slack_lanes, "available", lambda: False)
        in_numpy = claims.slacks(state, rows, scores)
    assert calls == [1]  # (the first through C, the second not)
    first = in_numpy.first_negative(failed)
    assert through_c.first_negative(failed) == first
    done = max(first, 1)
    assert through_c.least(done) == in_numpy.least(done)



def test_blocks_scaled_apart_are_joined_over_the_claims_largest_exponent() -> None:
    """A lane whose first block of updates is small and the next about 2^160: the square is scaled in the second
    block alone (past 2^200), and the first must be brought down to the claim's exponent with it."""
    v = np.array([5 + t for t in range(256)] + [2**160 + t for t in range(256)], dtype=object)
    lanes = slack_lanes.Lanes(1, len(v))
    lanes.put(0, enclose(v))
    (slack,) = slack_lanes.claim_ends([[Q, 0, Q, 0, OPS["*"], OPS["end"]]], lanes, [None])
    assert slack.e > 0 and slack.contains([int(x) ** 2 for x in v])
