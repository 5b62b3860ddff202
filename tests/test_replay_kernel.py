"""The compiled checker replay equals a plain replay, and stops where Python must decide.

The runs it replays are made by `online_pass_reference`, the engine's Python pass.
"""

from __future__ import annotations

import array
import functools
import importlib.util
import os
import re
import sys
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from verify_perceptron.check import kernel as _kernel
from verify_perceptron.check import replay as checks
from verify_perceptron.data.integers import score_values
from verify_perceptron.run.kernel import online_pass_reference
from verify_perceptron.notes.claims import CLAIMS, OPS, QUANTITIES, compile_program
from tests.kernel_cases import I64, buffer_format, exact_norms, largest_limit, pass_problems, read_only, wide_problems

needs_kernel = pytest.mark.skipif(not _kernel.AVAILABLE, reason=f"the C kernel is not built: {_kernel.IMPORT_ERROR}")


# --- check_online: the definition ------------------------------------------------------------

#: The quantities check_online computes at each update, in the order `slots` lists them.
SLOT_NAMES = ("N", "k", "n", "n_max", "prev_w_sq", "prev_w_ws", "step_sq", "sum_N_xsq", "sum_n_sq", "w_sq", "w_ws")
SLOTS = np.array([QUANTITIES.index(name) for name in SLOT_NAMES], dtype=np.int64)
NO_PROGRAM, NO_CLAIMS = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=bool)
LOW, HIGH = -(2**127), 2**127  # a value of the replay must stay in [LOW, HIGH)
ONLINE_CLAIMS = [c for c in CLAIMS if "online" in c.modes]


def op(name, *operand):
    """One operation of a claims program."""
    return [OPS[name], *operand]


def quantity(name):
    """Code pushing a quantity."""
    return op("quantity", QUANTITIES.index(name))


def run_program_by_hand(code, q):
    """Each claim's value (one per END), or None when any value on the way leaves [-2^127, 2^127)."""
    stack: list[int] = []
    slacks: list[int] = []
    pc = 0
    while pc < len(code):
        o = code[pc]
        if o == OPS["end"]:
            slacks.append(stack.pop())
        elif o in (OPS["quantity"], OPS["constant"]):
            pc += 1
            stack.append(q[code[pc]] if o == OPS["quantity"] else code[pc])
        elif o == OPS["neg"]:
            stack.append(-stack.pop())
        elif o == OPS["**"]:
            pc += 1
            x, value = stack.pop(), 1
            for _ in range(code[pc]):  # x, x², x³, ...: each power on the way must fit too
                value *= x
                if not LOW <= value < HIGH:
                    return None
            stack.append(value)
        else:
            b, a = stack.pop(), stack.pop()
            stack.append({OPS["+"]: a + b, OPS["-"]: a - b, OPS["*"]: a * b}[o])
        if stack and not LOW <= stack[-1] < HIGH:
            return None
        pc += 1
    return slacks


def check_online_by_hand(Z, W, counts, tie, norms, margins, rows, scores, program, quantities, state, failed):
    """The replay as check_online defines it (its docstring, and its code where that says more:
    it also stops before an update that would END above the limit), in Python integers; W and
    counts in place."""
    k, N, w_sq, w_ws, sum_N_xsq, sum_n_sq, n_max, limit = state
    code, q = [int(v) for v in program], list(quantities)
    weights, done = [int(v) for v in W.tolist()], 0
    best: dict[int, tuple[int, int, tuple[int, ...]]] = {}  # claim: (smallest slack, its update, its quantities)
    for t, (i, reported) in enumerate(zip(rows.tolist(), scores.tolist())):
        if not 0 <= i < len(Z) or w_sq > limit:
            break
        z = [int(v) for v in Z[i].tolist()]
        s = sum(a * b for a, b in zip(z, weights))
        if s != reported or not (s < 0 or (s == 0 and tie[i])):
            break
        norm = int(norms[i])
        values = {"N": N + 1, "k": k + 1, "n": 1, "n_max": max(n_max, 1), "prev_w_sq": w_sq, "prev_w_ws": w_ws,
                  "step_sq": norm, "sum_N_xsq": sum_N_xsq + norm, "sum_n_sq": sum_n_sq + 1,
                  "w_sq": w_sq + 2 * s + norm, "w_ws": w_ws + int(margins[i])}
        if any(not LOW <= v < HIGH for v in values.values()) or values["w_sq"] > limit:
            break
        for name in SLOT_NAMES:
            q[QUANTITIES.index(name)] = values[name]
        slacks = run_program_by_hand(code, q)
        if slacks is None or any(value < 0 and not f for value, f in zip(slacks, failed)):
            break
        weights = [a + b for a, b in zip(weights, z)]
        counts[i] += 1
        k, N, n_max, sum_n_sq = values["k"], values["N"], values["n_max"], values["sum_n_sq"]
        sum_N_xsq, w_sq, w_ws = values["sum_N_xsq"], values["w_sq"], values["w_ws"]
        for c, value in enumerate(slacks):
            if c not in best or value < best[c][0]:  # the first update of the smallest slack
                best[c] = (value, t, tuple(q))
        done = t + 1
    W[:] = weights
    n_claims = len(failed)
    claims = [None] * n_claims if done == 0 else [best[c] for c in range(n_claims)]
    return done, (k, N, w_sq, w_ws, sum_N_xsq, sum_n_sq, n_max, limit), claims


def replay(check, Z, W, tie, norms, margins, rows, scores, *, program=NO_PROGRAM, quantities=(0,) * len(QUANTITIES),
           state=None, failed=NO_CLAIMS, limit=None):
    """What a replay does: its result, the new W and counts (from zeros); the caller's W is not touched."""
    W, counts = W.copy(), np.zeros(len(Z), dtype=np.int64)
    if state is None:
        w_sq = sum(int(v) ** 2 for v in W.tolist())
        state = (0, 0, w_sq, 0, 0, 0, 0, largest_limit(norms) if limit is None else limit)
    rows, scores = np.asarray(rows, dtype=np.int64), np.asarray(scores, dtype=np.int64)
    program, failed = np.asarray(program, dtype=np.int64), np.asarray(failed, dtype=bool)
    if check is check_online_by_hand:
        result = check(Z, W, counts, tie, norms, margins, rows, scores, program, quantities, state, failed)
    else:
        result = check(Z, W, counts, tie, norms, margins, rows, scores, program, quantities, SLOTS, state, failed)
    return result, W.tolist(), counts.tolist()


# A small run: from W = 0 with every tie a mistake, one pass makes five updates,
#   row 0 ties (W = (1, 0)), row 1 ties (1, 1), row 2 scores -1 (0, 1), row 3 scores -1 (0, 0), row 4 ties (1, 1),
# with ‖W‖² = 1, 2, 1, 0, 2. The margins are z_i·w* for w* = (2, 1).
DATA_Z = np.array([[1, 0], [0, 1], [-1, 0], [0, -1], [1, 1]], dtype=np.int64)
DATA_TIE, DATA_NORMS = np.ones(5, dtype=bool), exact_norms(DATA_Z)
DATA_MARGINS = np.array([2, 1, -2, -1, 3], dtype=np.int64)
DATA_W0 = np.zeros(2, dtype=np.int64)
DATA_LIMIT = largest_limit(DATA_NORMS)


def data_run():
    """The run's updates, as the engine reports them (the reference pass's out_i and out_s)."""
    W, counts = DATA_W0.copy(), np.zeros(5, dtype=np.int64)
    out_i, out_s = np.zeros(8, dtype=np.int64), np.zeros(8, dtype=np.int64)
    m, _, w_sq, _ = online_pass_reference(DATA_Z, W, DATA_TIE, DATA_NORMS, counts, out_i, out_s, 0, 0, DATA_LIMIT)
    return out_i[:m], out_s[:m], W, counts, w_sq


def data_replay(check, rows, scores, **options):
    """Replay updates of the small run."""
    return replay(check, DATA_Z, DATA_W0, DATA_TIE, DATA_NORMS, DATA_MARGINS, rows, scores, **options)


def quantities(**values):
    """A quantities tuple in the order of QUANTITIES, 0 where not given."""
    assert set(values) <= set(QUANTITIES)
    return tuple(values.get(name, 0) for name in QUANTITIES)


def test_the_small_run_is_as_worked_out():
    rows, scores, W, counts, w_sq = data_run()
    assert (rows.tolist(), scores.tolist(), W.tolist(), counts.tolist(), w_sq) == (
        [0, 1, 2, 3, 4], [0, 0, -1, -1, 0], [1, 1], [1, 1, 1, 1, 1], 2)


def test_ops_are_the_c_enum():
    # The program's numbering is the C replay's (enum OP_*), read from its source.
    source = (Path(_kernel.__file__).parent / "_program.h").read_text()
    names = {"END": "end", "QUANTITY": "quantity", "CONSTANT": "constant", "ADD": "+", "SUB": "-", "MUL": "*",
             "NEG": "neg", "POW": "**"}
    enum = {names[name]: int(value) for name, value in re.findall(r"\bOP_([A-Z]+) = (\d+)", source)}
    assert enum == OPS == {"end": 0, "quantity": 1, "constant": 2, "+": 3, "-": 4, "*": 5, "neg": 6, "**": 7}


def test_checker_passes_the_slots_in_the_c_order():
    # check_online overwrites slots[j] with its j-th computed quantity (enum S_* in C).
    source = (Path(_kernel.__file__).parent / "_replay.c").read_text()
    enum = re.search(r"enum \{ (S_N, .*?), N_SLOTS \}", source, re.S)
    assert enum is not None
    c_order = [s.strip() for s in enum.group(1).split(",")]
    assert c_order == ["S_" + {"n": "SMALL_N"}.get(name, name.upper()) for name in SLOT_NAMES]
    assert checks._REPLAYED == SLOT_NAMES


# --- check_online: replays ---------------------------------------------------------------------

REPLAYS = [
    pytest.param(check_online_by_hand, id="by-hand"),
    pytest.param(_kernel.check_online, id="c", marks=needs_kernel),
]


@pytest.mark.parametrize("check", REPLAYS)
def test_replay_of_a_correct_run_ends_where_the_engine_did(check):
    rows, scores, W, counts, w_sq = data_run()
    result, W_after, counts_after = data_replay(check, rows, scores)
    # k = N = sum_n_sq = 5 updates; w_ws = 2 + 1 - 2 - 1 + 3; sum_N_xsq = 1 + 1 + 1 + 1 + 2.
    assert result == (5, (5, 5, 2, 3, 6, 5, 1, DATA_LIMIT), [])
    assert (W_after, counts_after) == (W.tolist(), counts.tolist()) == ([1, 1], [1, 1, 1, 1, 1])


@pytest.mark.parametrize("check", REPLAYS)
def test_replay_carries_on_from_any_state(check):
    # k and N are counted apart (each + 1 per update); n_max stays at its larger value; values past
    # int64 come back exactly.
    rows, scores, *_ = data_run()
    state = (10, 20, 0, -(2**100), 2**126, 50, 3, DATA_LIMIT)
    result, W_after, _ = data_replay(check, rows, scores, state=state)
    assert result == (5, (15, 25, 2, -(2**100) + 3, 2**126 + 6, 55, 3, DATA_LIMIT), [])
    assert W_after == [1, 1]


@pytest.mark.parametrize("check", REPLAYS)
def test_replay_of_no_updates_changes_nothing(check):
    state = (1, 2, 0, 4, 5, 6, 7, 8)
    assert data_replay(check, [], [], state=state) == ((0, state, []), [0, 0], [0, 0, 0, 0, 0])
    program, failed = quantity("N") + op("end"), [False]
    assert data_replay(check, [], [], state=state, program=program, failed=failed) == (
        (0, state, [None]), [0, 0], [0, 0, 0, 0, 0])


# Each: rows and scores with one bad update, how many come before it, and W, counts and state
# (k, N, w_sq, w_ws, sum_N_xsq, sum_n_sq, n_max) after those.
STOPS = {
    "not a mistake": ([0, 1, 0], [0, 0, 1], 2, [1, 1], [1, 1, 0, 0, 0], (2, 2, 2, 3, 2, 2, 1)),
    "a score that is not the true one": ([0, 1, 2], [0, 0, -2], 2, [1, 1], [1, 1, 0, 0, 0], (2, 2, 2, 3, 2, 2, 1)),
    "a row past the end": ([0, 5], [0, 0], 1, [1, 0], [1, 0, 0, 0, 0], (1, 1, 1, 2, 1, 1, 1)),
    "a row far past the end": ([0, 2**62], [0, 0], 1, [1, 0], [1, 0, 0, 0, 0], (1, 1, 1, 2, 1, 1, 1)),
    "a negative row": ([0, -1], [0, 0], 1, [1, 0], [1, 0, 0, 0, 0], (1, 1, 1, 2, 1, 1, 1)),
    "a wrong score at the first update": ([2], [-1], 0, [0, 0], [0, 0, 0, 0, 0], (0, 0, 0, 0, 0, 0, 0)),
}


@pytest.mark.parametrize("check", REPLAYS)
@pytest.mark.parametrize("case", STOPS.values(), ids=STOPS.keys())
def test_replay_stops_before_a_bad_update(check, case):
    rows, scores, done, W, counts, state = case
    result, W_after, counts_after = data_replay(check, rows, scores)
    assert result == (done, state + (DATA_LIMIT,), [])
    assert (W_after, counts_after) == (W, counts)


@pytest.mark.parametrize("check", REPLAYS)
def test_replay_stops_at_row_n_even_where_memory_follows(check):
    # Every array is the first 5 rows of a longer one whose row 5 would be a good update
    # (score 0, a tie): only the bound on the row index stops it.
    Z = np.vstack([DATA_Z, [[0, 0]]])[:5]
    tie, norms, margins = np.ones(6, dtype=bool)[:5], np.append(DATA_NORMS, 0)[:5], np.zeros(6, dtype=np.int64)[:5]
    assert Z.flags.c_contiguous and len(Z) == 5
    result = replay(check, Z, DATA_W0, tie, norms, margins, [0, 5], [0, 0])
    assert result == ((1, (1, 1, 1, 0, 1, 1, 1, largest_limit(norms)), []), [1, 0], [1, 0, 0, 0, 0])


@pytest.mark.parametrize("check", REPLAYS)
def test_replay_stops_at_a_score_that_wraps_128_bits_into_a_mistake(check):
    # 4·2^126 - 1 = 2^128 - 1 is -1 modulo 2^128: a wrapped 128-bit sum would confirm the
    # reported -1 as a mistake. The replay sums exactly, sees a score beyond int64 and stops.
    # (Only the score matters here: norms and the state's ‖W‖² are not this W's.)
    Z = np.array([[-(2**63)] * 4 + [1]], dtype=np.int64)
    W = np.array([-(2**63)] * 4 + [-1], dtype=np.int64)
    one = np.ones(1, dtype=np.int64)
    result = replay(check, Z, W, np.ones(1, dtype=bool), one, one, [0], [-1], state=(0, 0, 0, 0, 0, 0, 0, 10))
    assert result == ((0, (0, 0, 0, 0, 0, 0, 0, 10), []), W.tolist(), [0])


@pytest.mark.parametrize("check", REPLAYS)
def test_replay_stops_at_a_zero_score_without_a_tie(check):
    tie = np.array([False, True, True, True, True])
    result = replay(check, DATA_Z, DATA_W0, tie, DATA_NORMS, DATA_MARGINS, [0], [0])
    assert result == ((0, (0, 0, 0, 0, 0, 0, 0, DATA_LIMIT), []), [0, 0], [0, 0, 0, 0, 0])
    result = replay(check, DATA_Z, DATA_W0, tie.astype(np.uint8), DATA_NORMS, DATA_MARGINS, [1], [0])
    assert result == ((1, (1, 1, 1, 1, 1, 1, 1, DATA_LIMIT), []), [0, 1], [0, 1, 0, 0, 0])


@pytest.mark.parametrize("check", REPLAYS)
def test_replay_stops_before_an_update_past_the_limit(check):
    rows, scores, *_ = data_run()
    # ‖W‖² goes 0 → 1 → 2: the second update would leave the limit 1.
    assert data_replay(check, rows, scores, limit=1) == ((1, (1, 1, 1, 2, 1, 1, 1, 1), []), [1, 0], [1, 0, 0, 0, 0])
    # ‖W‖² = 2 is already above the limit 1: not even an update back to 1 is replayed.
    W = np.array([1, 1], dtype=np.int64)
    result = replay(check, DATA_Z, W, DATA_TIE, DATA_NORMS, DATA_MARGINS, [2], [-1], limit=1)
    assert result == ((0, (0, 0, 2, 0, 0, 0, 0, 1), []), [1, 1], [0, 0, 0, 0, 0])


@pytest.mark.parametrize("check", REPLAYS)
def test_replay_stops_before_a_state_beyond_128_bits(check):
    rows, scores, *_ = data_run()
    for j in (0, 1, 3, 4, 5):  # k, N, w_ws, sum_N_xsq, sum_n_sq, one at a time, about to leave 128 bits
        state = [0, 0, 0, 0, 0, 0, 0, DATA_LIMIT]
        state[j] = HIGH - 1
        if j == 3:
            state[j] = HIGH - 2  # the first margin is 2
        assert data_replay(check, rows, scores, state=tuple(state)) == ((0, tuple(state), []), [0, 0], [0, 0, 0, 0, 0])


# The mistake-bound claim N <= bound: with bound = 2, its slack bound - N is 1, 0, -1, ... at updates 1, 2, 3.
MISTAKE_BOUND = [c for c in CLAIMS if c.name == "mistake-bound"]
CONSTANT_VALUES = {"a": 1, "gamma": 1, "R_sq": 2, "ws_sq": 5, "beta": 6, "bound": 2}
# The quantities at updates 2 and 5 of the small run (positions 1 and 4 in rows).
AT_UPDATE_2 = quantities(**CONSTANT_VALUES, N=2, k=2, n=1, n_max=1, prev_w_sq=1, prev_w_ws=2, step_sq=1,
                         sum_N_xsq=2, sum_n_sq=2, w_sq=2, w_ws=3)
# The replayed quantities at update 1 (N, k, n, n_max, prev_w_sq, prev_w_ws, step_sq, sum_N_xsq, sum_n_sq, w_sq, w_ws).
FIRST_UPDATE = dict(zip(SLOT_NAMES, [1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 2]))
AT_UPDATE_5 = quantities(**CONSTANT_VALUES, N=5, k=5, n=1, n_max=1, prev_w_sq=0, prev_w_ws=0, step_sq=2,
                         sum_N_xsq=6, sum_n_sq=5, w_sq=2, w_ws=3)


@pytest.mark.parametrize("check", REPLAYS)
def test_replay_stops_before_a_claim_fails_unless_it_failed_already(check):
    code, scales = compile_program(MISTAKE_BOUND, {})
    assert (code, scales) == (quantity("bound") + quantity("N") + op("-") + op("end"), [1])
    rows, scores, *_ = data_run()
    options = {"program": code, "quantities": quantities(**CONSTANT_VALUES)}
    # Not yet failed: stop before update 3 (N = 3 > 2); the least slack so far is 0, at update 2.
    assert data_replay(check, rows, scores, failed=[False], **options) == (
        (2, (2, 2, 2, 3, 2, 2, 1, DATA_LIMIT), [(0, 1, AT_UPDATE_2)]), [1, 1], [1, 1, 0, 0, 0])
    # Already failed (Python reported it): every update is replayed; the least slack is 2 - 5, at update 5.
    assert data_replay(check, rows, scores, failed=[True], **options) == (
        (5, (5, 5, 2, 3, 6, 5, 1, DATA_LIMIT), [(-3, 4, AT_UPDATE_5)]), [1, 1], [1, 1, 1, 1, 1])


@pytest.mark.parametrize("check", REPLAYS)
def test_replay_evaluates_a_scaled_claim(check):
    # bound = 7/3: the program reads the numerator 7 and computes 3·(7/3 - N) = 7 - 3N: 4, 1, -2.
    code, scales = compile_program(MISTAKE_BOUND, {"bound": 3})
    rows, scores, *_ = data_run()
    values = quantities(**CONSTANT_VALUES | {"bound": 7})
    assert scales == [3]
    result = data_replay(check, rows, scores, program=code, quantities=values, failed=[False])
    assert result[0][:2] == (2, (2, 2, 2, 3, 2, 2, 1, DATA_LIMIT))
    assert result[0][2] == [(1, 1, quantities(**dict(zip(QUANTITIES, AT_UPDATE_2)) | {"bound": 7}))]
    value, _, snapshot = result[0][2][0]
    q = SimpleNamespace(**dict(zip(QUANTITIES, snapshot)) | {"bound": Fraction(7, 3)})
    assert Fraction(value, scales[0]) == MISTAKE_BOUND[0].slack(q)  # the claim's own slack, exactly


@pytest.mark.parametrize("check", REPLAYS)
def test_replay_keeps_each_claims_own_least_slack(check):
    # Two claims: bound - N (least at the last update) and w_sq (least, 0, at update 4; ties keep the first).
    code = quantity("bound") + quantity("N") + op("-") + op("end") + quantity("w_sq") + op("end")
    rows, scores, *_ = data_run()
    result, _, _ = data_replay(check, rows, scores, program=code, quantities=quantities(bound=10),
                               failed=[False, False])
    at_4 = quantities(bound=10, N=4, k=4, n=1, n_max=1, prev_w_sq=1, prev_w_ws=1, step_sq=1, sum_N_xsq=4,
                      sum_n_sq=4, w_sq=0, w_ws=0)
    at_5 = quantities(bound=10, **dict(zip(SLOT_NAMES, [5, 5, 1, 1, 0, 0, 2, 6, 5, 2, 3])))
    assert result == (5, (5, 5, 2, 3, 6, 5, 1, DATA_LIMIT), [(5, 4, at_5), (0, 3, at_4)])


# Each: a one-claim program over the quantities a = 3, gamma = -4, ws_sq = 2^60 and its value.
OPERATIONS = {
    "quantity": (quantity("gamma"), -4),
    "constant": (op("constant", -(2**63)), -(2**63)),
    "+": (quantity("a") + quantity("gamma") + op("+"), -1),
    "- (first minus second)": (quantity("a") + quantity("gamma") + op("-"), 7),
    "*": (quantity("a") + quantity("gamma") + op("*"), -12),
    "neg": (quantity("gamma") + op("neg"), 4),
    "** 1": (quantity("gamma") + op("**", 1), -4),
    "** 3": (quantity("gamma") + op("**", 3), -64),
    "** 16": (quantity("a") + op("**", 16), 3**16),
    "beyond int64": (quantity("ws_sq") + op("**", 2), 2**120),
    "a full stack of 64": (quantity("a") * 64 + op("+") * 63, 192),
    "a constant operand equal to END": (op("constant", 0) + quantity("a") + op("+"), 3),
}


@pytest.mark.parametrize("check", REPLAYS)
@pytest.mark.parametrize("case", OPERATIONS.values(), ids=OPERATIONS.keys())
def test_replay_computes_each_operation(check, case):
    code, value = case
    q = quantities(a=3, gamma=-4, ws_sq=2**60)
    result, _, _ = data_replay(check, [0], [0], program=code + op("end"), quantities=q, failed=[True])
    assert result[0] == 1 and result[2][0][:2] == (value, 0)


# Each: a one-claim program whose value leaves 128 bits on the way (or at the end).
OVERFLOWS = {
    "2^100 squared": (quantities(ws_sq=2**100), quantity("ws_sq") + op("**", 2)),
    "2^100 times 2^100": (quantities(ws_sq=2**100), quantity("ws_sq") + quantity("ws_sq") + op("*")),
    "2^126 + 2^126": (quantities(ws_sq=2**126), quantity("ws_sq") + quantity("ws_sq") + op("+")),
    "-2^127 - 1": (quantities(ws_sq=-(2**127)), quantity("ws_sq") + op("constant", 1) + op("-")),
    "-(-2^127)": (quantities(ws_sq=-(2**127)), quantity("ws_sq") + op("neg")),
    "2^64 cubed, back to 0": (quantities(ws_sq=2**64), quantity("ws_sq") + op("**", 3) + op("constant", 0) + op("*")),
}


@pytest.mark.parametrize("check", REPLAYS)
@pytest.mark.parametrize("case", OVERFLOWS.values(), ids=OVERFLOWS.keys())
def test_replay_stops_before_a_value_beyond_128_bits(check, case):
    q, code = case
    rows, scores, *_ = data_run()
    for failed in (False, True):  # a claim already failed does not let a wrong value through
        result = data_replay(check, rows, scores, program=code + op("end"), quantities=q, failed=[failed])
        assert result == ((0, (0, 0, 0, 0, 0, 0, 0, DATA_LIMIT), [None]), [0, 0], [0, 0, 0, 0, 0])


@pytest.mark.parametrize("check", REPLAYS)
def test_replay_returns_values_near_2_to_127_exactly(check):
    rows, scores, *_ = data_run()
    for value in (HIGH - 1, LOW, -(2**64), 2**64 - 1, 2**63, -(2**63) - 1):
        q = quantities(ws_sq=value)
        result, _, _ = data_replay(check, rows, scores, program=quantity("ws_sq") + op("end"), quantities=q,
                                   failed=[True])
        # Every update has the same slack: the first is the least.
        assert result[0] == 5 and result[2] == [(value, 0, quantities(ws_sq=value, **FIRST_UPDATE))]


# --- check_online vs the definition, on random runs ---------------------------------------------


@st.composite
def small_problems(draw):
    """Like `pass_problems`, but small enough that a pass makes mistakes (entries in -3..3)."""
    dtype = draw(st.sampled_from([np.int16, np.int32, np.int64]))
    n, d = draw(st.integers(1, 6)), draw(st.integers(1, 3))
    Z = np.array(draw(st.lists(st.integers(-3, 3), min_size=n * d, max_size=n * d)), dtype=dtype).reshape(n, d)
    W = np.array(draw(st.lists(st.integers(-3, 3), min_size=d, max_size=d)), dtype=np.int64)
    tie = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    norms = exact_norms(Z)
    return Z, W, tie, norms, sum(int(v) ** 2 for v in W.tolist()), largest_limit(norms)


@st.composite
def recorded_runs(draw):
    """A problem and the updates an engine reported for it over up to three passes (maybe one
    spoilt), with the checker's program, quantities, state and failed flags.

    Returns ``(data, options, (claims, scales, denominators))``: the arguments of `replay`, and
    how the program was compiled.
    """
    Z, W, tie, norms, w_sq, limit = draw(st.one_of(small_problems(), pass_problems(max_rows=6, max_width=3)))
    W0, counts = W.copy(), np.zeros(len(Z), dtype=np.int64)
    out_i, out_s = np.zeros(20, dtype=np.int64), np.zeros(20, dtype=np.int64)
    rows, scores, sq = [], [], w_sq
    for _ in range(3):
        m, _, sq, guarded = online_pass_reference(Z, W, tie, norms, counts, out_i, out_s, 0, sq, limit)
        rows += out_i[:m].tolist()
        scores += out_s[:m].tolist()
        if guarded:
            break
    spoil = draw(st.sampled_from(["none", "none", "score", "row"]))
    if rows and spoil != "none":
        t = draw(st.integers(0, len(rows) - 1))
        if spoil == "score":
            scores[t] += draw(st.sampled_from([-1, 1]))
        else:
            rows[t] = draw(st.integers(-2, len(Z) + 1))
    claims = draw(st.lists(st.sampled_from(ONLINE_CLAIMS), min_size=1, max_size=4))  # no claims: tested above
    denominators = draw(st.dictionaries(st.sampled_from(["a", "gamma", "bound", "R_sq", "beta"]), st.integers(2, 5)))
    code, scales = compile_program(claims, denominators)
    # Mostly small values, so that claims hold, fail and pass 128 bits in turn.
    value = st.one_of(st.integers(-3, 40), st.integers(-3, 40), st.integers(-(2**70), 2**70),
                      st.integers(LOW, HIGH - 1))
    q = tuple(draw(value) for _ in QUANTITIES)  # the replay overwrites the slots: they may start at anything
    small = st.integers(0, 9)
    state = (draw(small), draw(small), w_sq, draw(st.integers(-9, 9)), draw(small), draw(small), draw(small),
             draw(st.sampled_from([limit, limit, max(w_sq, limit // 2), min(w_sq + 2, limit)])))
    margins = np.array(draw(st.lists(st.one_of(st.integers(-3, 3), st.integers(-(2**62), 2**62)),
                                     min_size=len(Z), max_size=len(Z))), dtype=np.int64)
    # Mostly failed already: random claims on random data rarely hold at every update.
    failed = draw(st.lists(st.sampled_from([True, True, True, False]), min_size=len(claims), max_size=len(claims)))
    data = (Z, W0, tie, norms, margins, rows, scores)
    options = {"program": code, "quantities": q, "state": state, "failed": failed}
    return data, options, (claims, scales, denominators)


@needs_kernel
@given(run=recorded_runs())
def test_c_replay_equals_the_definition(run):
    data, options, (claims, scales, denominators) = run
    got = replay(_kernel.check_online, *data, **options)
    assert got == replay(check_online_by_hand, *data, **options)
    # Each claim's reported value is its own slack there, times its scale.
    for claim, scale, entry in zip(claims, scales, got[0][2]):
        if entry is None:  # nothing replayed
            continue
        value, _, snapshot = entry
        q = {name: Fraction(v, denominators.get(name, 1)) for name, v in zip(QUANTITIES, snapshot)}
        assert Fraction(value, scale) == claim.slack(SimpleNamespace(**q))


# --- check_online over many updates: blocks of them, and a stop anywhere in a block ------------------


@st.composite
def long_recorded_runs(draw):
    """A run of up to about 1,500 updates (many passes over a small problem), so that the C replay
    evaluates the claims over several blocks (of 128 updates), with a spoilt update, a claim that
    fails at update k = c + 1 and a power that leaves 128 bits at k = 246 (k counted on from the
    state's) each maybe placed anywhere: ``(data, options)`` for `replay`."""
    Z, W, tie, norms, w_sq, limit = draw(small_problems())
    if draw(st.booleans()):  # with a sample and its opposite the run never converges: long runs, surely
        Z, tie = np.vstack([Z, -Z[:1]]), np.append(tie, True)
        norms, limit = exact_norms(Z), largest_limit(exact_norms(Z))
    W0, counts = W.copy(), np.zeros(len(Z), dtype=np.int64)
    out_i, out_s = np.zeros(len(Z), dtype=np.int64), np.zeros(len(Z), dtype=np.int64)
    rows, scores, sq = [], [], w_sq
    for _ in range(draw(st.integers(1, 300))):
        m, _, sq, guarded = online_pass_reference(Z, W, tie, norms, counts, out_i, out_s, 0, sq, limit)
        rows += out_i[:m].tolist()
        scores += out_s[:m].tolist()
        if guarded or m == 0:
            break
    if rows and draw(st.booleans()):
        scores[draw(st.integers(0, len(rows) - 1))] += 1
    claims = draw(st.lists(st.sampled_from(ONLINE_CLAIMS), min_size=1, max_size=3))
    code, _ = compile_program(claims, {})
    # mostly failed already (their quantities are random): else most runs would stop at a random claim at once
    failed = draw(st.lists(st.sampled_from([True, True, False]), min_size=len(claims), max_size=len(claims)))
    k0 = draw(st.integers(0, 9))
    if draw(st.booleans()):  # c - k: fails at update k = c + 1 unless marked failed
        code = [*code, *op("constant", draw(st.integers(k0, k0 + 700))), *quantity("k"), *op("-"), *op("end")]
        failed.append(draw(st.sampled_from([False, False, True])))
    if draw(st.booleans()):  # k^16 < 2^127 up to k = 245: the state's k placed so that 246 falls anywhere
        k0 = draw(st.integers(0, 245))
        code = [*code, *quantity("k"), *op("**", 16), *op("end")]
        failed.append(True)
    q = tuple(draw(st.integers(-3, 40)) for _ in QUANTITIES)
    state = (k0, 0, w_sq, 0, 0, 0, 0, limit)
    data = (Z, W0, tie, norms, np.array(draw(st.lists(st.integers(-3, 3), min_size=len(Z), max_size=len(Z))),
                                         dtype=np.int64), rows, scores)
    return data, {"program": code, "quantities": q, "state": state, "failed": failed}


@needs_kernel
@given(run=long_recorded_runs())
def test_c_replay_of_hundreds_of_updates_equals_the_definition(run):
    data, options = run
    assert replay(_kernel.check_online, *data, **options) == replay(check_online_by_hand, *data, **options)


@needs_kernel
@pytest.mark.parametrize("stop", [0, 1, 126, 127, 128, 129, 255, 256, 300])
def test_c_replay_stops_before_a_claim_fails_at_any_place_in_a_block(stop):
    # xor, as the checker sees it, cycles for ever: 4 updates per pass. The claim 0 - (k - stop) >= 0
    # fails first at the update after number `stop`: the replay stops there, W and counts as before it.
    Z = np.array([[-1, 0, 0], [1, 0, 1], [1, 1, 0], [-1, -1, -1]], dtype=np.int64)
    tie, norms = np.ones(4, dtype=bool), exact_norms(Z)
    W, counts = np.zeros(3, dtype=np.int64), np.zeros(4, dtype=np.int64)
    out_i, out_s = np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64)
    rows: list[int] = []
    scores: list[int] = []
    sq = 0
    while len(rows) < 400:
        m, _, sq, _ = online_pass_reference(Z, W, tie, norms, counts, out_i, out_s, 0, sq, largest_limit(norms))
        assert m > 0
        rows += out_i[:m].tolist()
        scores += out_s[:m].tolist()
    program = [*op("constant", stop), *quantity("k"), *op("-"), *op("end")]
    options = {"program": program, "quantities": (0,) * len(QUANTITIES), "failed": [False]}
    data = (Z, np.zeros(3, dtype=np.int64), tie, norms, np.zeros(4, dtype=np.int64), rows, scores)
    got = replay(_kernel.check_online, *data, **options)
    assert got == replay(check_online_by_hand, *data, **options)
    (done, state, claims), W_after, counts_after = got
    assert done == stop and state[0] == stop and sum(counts_after) == stop
    assert claims == ([None] if stop == 0 else [(0, stop - 1, claims[0][2])])  # the least slack, 0, at the last


# --- check_online past the int64 guard: norms summed by the replay, scores and margins in halves ---


def halves(values) -> np.ndarray:
    """Python integers of 128 bits as int64 pairs, the low 64 bits then the high ones."""
    out = []
    for v in values:
        low = v % 2**64
        out += [low - 2**64 if low >= 2**63 else low, v >> 64]
    return np.array(out, dtype=np.int64)


@st.composite
def wide_recorded_runs(draw):
    """A run past the int64 guard as the engine reports it (scores in halves), to replay with norms given
    or not and margins in int64 or in halves; ``(data, options)`` for C, and the same values plainly."""
    Z, W, tie, norms, w_sq, limit = draw(wide_problems(max_rows=6, max_width=3))
    W0, counts = W.copy(), np.zeros(len(Z), dtype=np.int64)
    out_i, out_s = np.zeros(20, dtype=np.int64), np.zeros(40, dtype=np.int64)
    m, _, _, _ = online_pass_reference(Z, W, tie, norms, counts, out_i, out_s, 0, w_sq, limit)
    rows, scores = out_i[:m].tolist(), score_values(out_s[: 2 * m].reshape(-1, 2)).tolist()
    if rows and draw(st.booleans()):  # spoil one score
        t = draw(st.integers(0, len(rows) - 1))
        scores[t] += draw(st.sampled_from([-1, 1, 2**64]))
    true_norms = [sum(int(v) ** 2 for v in row) for row in Z.tolist()]
    margins = draw(st.lists(st.one_of(st.integers(-3, 3), st.integers(-(2**100), 2**100)), min_size=len(Z),
                            max_size=len(Z)))
    claims = draw(st.lists(st.sampled_from(ONLINE_CLAIMS), min_size=1, max_size=3))
    code, _ = compile_program(claims, {})
    q = tuple(draw(st.integers(-3, 2**80)) for _ in QUANTITIES)
    failed = draw(st.lists(st.booleans(), min_size=len(claims), max_size=len(claims)))
    state = (0, 0, w_sq, 0, 0, 0, 0, 2**126 - 1)
    c_margins = halves(margins) if draw(st.booleans()) or max(map(abs, margins)) >= 2**63 else np.array(
        margins, dtype=np.int64)
    c_data = (Z, W0, tie, norms, c_margins, np.array(rows, dtype=np.int64).reshape(len(rows)),
              halves(scores) if rows else np.zeros(0, dtype=np.int64))
    plain = (Z, W0, tie, true_norms, margins, rows, scores)
    options = {"program": np.array(code, dtype=np.int64), "quantities": q, "state": state,
               "failed": np.array(failed, dtype=bool)}
    return c_data, plain, options


@needs_kernel
@given(run=wide_recorded_runs())
def test_c_replay_past_the_int64_guard_equals_the_definition(run):
    assert _kernel.check_online is not None  # needs_kernel skips the test without the extension
    (Z, W0, tie, norms, margins, rows, scores), plain, options = run
    W, counts = W0.copy(), np.zeros(len(Z), dtype=np.int64)
    got = _kernel.check_online(Z, W, counts, tie, norms, margins, rows, scores, options["program"],
                               options["quantities"], SLOTS, options["state"], options["failed"])
    pZ, pW, ptie, pnorms, pmargins, prows, pscores = plain
    W2, counts2 = pW.copy(), np.zeros(len(Z), dtype=np.int64)
    rows_array = np.array(prows, dtype=np.int64).reshape(len(prows))
    expected = check_online_by_hand(pZ, W2, counts2, ptie, pnorms, pmargins, rows_array,
                                    SimpleNamespace(tolist=lambda: pscores), options["program"],
                                    options["quantities"], options["state"], options["failed"].tolist())
    assert (got, W.tolist(), counts.tolist()) == (expected, W2.tolist(), counts2.tolist())


@needs_kernel
def test_c_replay_takes_a_score_of_minus_2_to_the_80_in_halves_and_sums_the_norms_itself():
    assert _kernel.check_online is not None  # needs_kernel skips the test without the extension
    Z = np.array([[-(2**40), 0]], dtype=np.int64)
    W = np.array([2**40, 3], dtype=np.int64)  # the score is -2^80, ‖z‖² = 2^80
    program = np.array(quantity("w_sq") + op("end"), dtype=np.int64)
    result = _kernel.check_online(Z, W, np.zeros(1, dtype=np.int64), np.zeros(1, dtype=bool),
                                  np.zeros(0, dtype=np.int64), halves([5]), np.zeros(1, dtype=np.int64),
                                  halves([-(2**80)]), program, quantities(), SLOTS,
                                  (0, 0, 2**80 + 9, 0, 0, 0, 0, 2**126 - 1), np.zeros(1, dtype=bool))
    done, state, claims = result
    assert done == 1 and state[2] == 9 and state[3] == 5 and state[4] == 2**80 and W.tolist() == [0, 3]
    assert claims[0][0] == 9  # ‖W‖² after the update, evaluated by the program


@needs_kernel
@pytest.mark.parametrize("norm", [2**80, 2**80 + 1, 2**126], ids=["true", "off-by-one", "past-2^126"])
def test_c_replay_reads_norms_given_in_halves_and_leaves_one_of_2_to_the_126_to_python(norm):
    assert _kernel.check_online is not None  # needs_kernel skips the test without the extension
    # The norm read from its halves enters ‖W + z‖² = ‖W‖² + 2s + ‖z‖² as it is (one off by one shows in the
    # claim's value, so the halves are read, not recomputed); one of 2^126 is not replayed at all.
    Z = np.array([[-(2**40), 0]], dtype=np.int64)
    W = np.array([2**40, 3], dtype=np.int64)  # the score is -2^80, ‖z‖² = 2^80
    program = np.array(quantity("w_sq") + op("end"), dtype=np.int64)
    done, state, claims = _kernel.check_online(
        Z, W, np.zeros(1, dtype=np.int64), np.zeros(1, dtype=bool), halves([norm]), halves([5]),
        np.zeros(1, dtype=np.int64), halves([-(2**80)]), program, quantities(), SLOTS,
        (0, 0, 2**80 + 9, 0, 0, 0, 0, 2**126 - 1), np.zeros(1, dtype=bool))
    if norm >= 2**126:
        assert done == 0 and W.tolist() == [2**40, 3]
    else:
        assert done == 1 and state[4] == norm and claims[0][0] == 9 + (norm - 2**80)


# --- check_online: its arguments --------------------------------------------------------------


def replay_arguments(**changes):
    """Good arguments for replaying the small run, with some replaced."""
    rows, scores, *_ = data_run()
    good = {"Z": DATA_Z, "W": DATA_W0.copy(), "counts": np.zeros(5, dtype=np.int64), "tie": DATA_TIE,
            "norms": DATA_NORMS, "margins": DATA_MARGINS, "rows": rows, "scores": scores,
            "program": np.array(quantity("N") + op("end"), dtype=np.int64), "quantities": quantities(),
            "slots": SLOTS, "state": (0, 0, 0, 0, 0, 0, 0, DATA_LIMIT), "failed": np.zeros(1, dtype=bool)}
    good.update(changes)
    return tuple(good.values())


def program(*code):
    """A program as check_online takes it."""
    return np.array(code, dtype=np.int64)


# Each: bad arguments, the error, and the whole message after "check_online(): ".
BAD_REPLAY_ARGUMENTS = {
    "an unknown operation": (replay_arguments(program=program(9)), ValueError, "program[0]=9 is no operation"),
    "a negative operation": (replay_arguments(program=program(*quantity("N"), -1)), ValueError,
                             "program[2]=-1 is no operation"),
    "a quantity past the end": (replay_arguments(program=program(OPS["quantity"], len(QUANTITIES), 0)), ValueError,
                                f"program[1]={len(QUANTITIES)} is out of range"),
    "a negative quantity": (replay_arguments(program=program(OPS["quantity"], -1, 0)), ValueError,
                            "program[1]=-1 is out of range"),
    "a power of 0": (replay_arguments(program=program(*quantity("N"), OPS["**"], 0, 0)), ValueError,
                     "program[3]=0 is out of range"),
    "a power of 17": (replay_arguments(program=program(*quantity("N"), OPS["**"], 17, 0)), ValueError,
                      "program[3]=17 is out of range"),
    "two values left at END": (replay_arguments(program=program(*quantity("N"), *quantity("k"), 0)), ValueError,
                               "claim 0 leaves values behind"),
    "two values left at the second END": (
        replay_arguments(program=program(*quantity("N"), 0, *quantity("N"), *quantity("k"), 0),
                         failed=np.zeros(2, dtype=bool)), ValueError, "claim 1 leaves values behind"),
    "an operand missing at the end": (replay_arguments(program=program(OPS["quantity"])), ValueError,
                                      "program ends inside an operation"),
    "a power missing at the end": (replay_arguments(program=program(*quantity("N"), OPS["**"])), ValueError,
                                   "program ends inside an operation"),
    "+ on one value": (replay_arguments(program=program(*quantity("N"), OPS["+"], 0)), ValueError,
                       "the program's stack is wrong at [2]"),
    "END on no value": (replay_arguments(program=program(0)), ValueError, "the program's stack is wrong at [0]"),
    "a stack deeper than 64": (replay_arguments(program=program(*quantity("N") * 65, *[OPS["+"]] * 64, 0)),
                               ValueError, "the program's stack is wrong at [129]"),
    "no END at the end": (replay_arguments(program=program(*quantity("N"), 0, *quantity("N"))), ValueError,
                          "the program must end with END and have <= 64 claims"),
    "65 claims": (replay_arguments(program=program(*(quantity("N") + op("end")) * 65), failed=np.zeros(65, bool)),
                  ValueError, "the program must end with END and have <= 64 claims"),
    "failed too long": (replay_arguments(failed=np.zeros(2, dtype=bool)), ValueError,
                        "failed has length 2 but the program has 1 claims"),
    "failed int64": (replay_arguments(failed=np.zeros(1, dtype=np.int64)), TypeError,
                     f"failed must hold bool or uint8 items, got format='{I64}' itemsize=8"),
    "slots too short": (replay_arguments(slots=SLOTS[:10]), ValueError, "slots must have 11 entries, got 10"),
    "a slot out of range": (replay_arguments(slots=np.array([*SLOTS[:3], len(QUANTITIES), *SLOTS[4:]])),
                            ValueError, f"slots[3]={len(QUANTITIES)} is out of range"),
    "quantities a list": (replay_arguments(quantities=list(quantities())), TypeError,
                          "quantities must be a tuple of at most 64 ints"),
    "65 quantities": (replay_arguments(quantities=(0,) * 65), TypeError,
                      "quantities must be a tuple of at most 64 ints"),
    "a quantity of 2^127": (replay_arguments(quantities=quantities(bound=2**127)), OverflowError,
                            f"a quantity={2**127} does not fit in 128 bits"),
    "a quantity a float": (replay_arguments(quantities=quantities(bound=1.5)), TypeError,
                           "a quantity must be an int, got float"),
    "state of 7": (replay_arguments(state=(0,) * 7), TypeError, "state must be a tuple of 8 ints"),
    # A limit of 2^126 or more would let W_j leave int64: refused, not replayed wrongly.
    "a limit of 2^126": (replay_arguments(state=(0,) * 7 + (2**126,)), ValueError,
                         f"limit={2**126} must satisfy 0 <= limit < 2^126"),
    "a negative limit": (replay_arguments(state=(0,) * 7 + (-1,)), ValueError,
                         "limit=-1 must satisfy 0 <= limit < 2^126"),
    "state a list": (replay_arguments(state=[0] * 8), TypeError, "state must be a tuple of 8 ints"),
    "a state value below -2^127": (replay_arguments(state=(0,) * 7 + (LOW - 1,)), OverflowError,
                                   f"a state value={LOW - 1} does not fit in 128 bits"),
    "scores too short": (replay_arguments(scores=np.zeros(4, dtype=np.int64)), ValueError,
                         "scores has length 4 but rows has 5"),
    "margins too short": (replay_arguments(margins=np.zeros(4, dtype=np.int64)), ValueError,
                          "margins has length 4 but Z has 5 rows"),
    "counts too long": (replay_arguments(counts=np.zeros(6, dtype=np.int64)), ValueError,
                        "counts has length 6 but Z has 5 rows"),
    "W read-only": (replay_arguments(W=read_only(np.zeros(2, dtype=np.int64))), ValueError,
                    "W must be writable, got a read-only buffer"),
    "counts read-only": (replay_arguments(counts=read_only(np.zeros(5, dtype=np.int64))), ValueError,
                         "counts must be writable, got a read-only buffer"),
    "W too short": (replay_arguments(W=np.zeros(1, dtype=np.int64)), ValueError,
                    "W has length 1 but Z has 2 columns (Z.shape=(5, 2))"),
    "Z float64": (replay_arguments(Z=DATA_Z.astype(float)), TypeError,
                  f"Z must hold int16, int32 or int64 items, got format='{buffer_format(np.float64)}' itemsize=8"),
    "rows int32": (replay_arguments(rows=np.zeros(5, dtype=np.int32)), TypeError,
                   f"rows must hold int64 items, got format='{buffer_format(np.int32)}' itemsize=4"),
    "program not contiguous": (replay_arguments(program=np.array([1, 9, 0, 9], dtype=np.int64)[::2]), ValueError,
                               "program must be C-contiguous, got strides=(16,) for itemsize=8"),
}


@needs_kernel
def test_c_replay_takes_the_good_arguments():
    assert _kernel.check_online is not None  # needs_kernel skips the test without the extension
    # So that each bad case below fails for its one change: all five updates are replayed.
    args = replay_arguments()
    assert _kernel.check_online(*args) == (5, (5, 5, 2, 3, 6, 5, 1, DATA_LIMIT), [(1, 0, quantities(**FIRST_UPDATE))])
    assert (args[1].tolist(), args[2].tolist()) == ([1, 1], [1, 1, 1, 1, 1])


@needs_kernel
@pytest.mark.parametrize("case", BAD_REPLAY_ARGUMENTS.values(), ids=BAD_REPLAY_ARGUMENTS.keys())
def test_c_replay_rejects_bad_arguments_with_the_whole_message(case):
    assert _kernel.check_online is not None  # needs_kernel skips the test without the extension
    args, error, message = case
    arrays = [a for a in args if isinstance(a, np.ndarray)]
    before = [a.copy() for a in arrays]
    with pytest.raises(error) as raised:
        _kernel.check_online(*args)
    assert type(raised.value) is error and str(raised.value) == f"check_online(): {message}"
    assert all(np.array_equal(a, b) for a, b in zip(arrays, before))  # nothing was written


@needs_kernel
def test_c_replay_rejects_a_wrong_number_of_arguments():
    assert _kernel.check_online is not None  # needs_kernel skips the test without the extension
    with pytest.raises(TypeError) as raised:
        _kernel.check_online(*replay_arguments()[:12])
    assert str(raised.value) == "check_online() takes 13 arguments, got 12"


@needs_kernel
def test_c_replay_reads_any_buffer():
    assert _kernel.check_online is not None  # needs_kernel skips the test without the extension
    # The small run as array.array and bytes, Z as a 2-D int16 memoryview.
    Z = memoryview(array.array("h", DATA_Z.ravel().tolist())).cast("B").cast("h", (5, 2))
    W, counts = array.array("q", [0, 0]), array.array("q", [0] * 5)
    longs = functools.partial(array.array, "q")
    done, state, claims = _kernel.check_online(
        Z, W, counts, bytes([1] * 5), longs(DATA_NORMS.tolist()), longs(DATA_MARGINS.tolist()), longs(range(5)),
        longs([0, 0, -1, -1, 0]), longs(quantity("N") + op("end")), quantities(), longs(SLOTS.tolist()),
        (0, 0, 0, 0, 0, 0, 0, DATA_LIMIT), bytes([0]))
    assert (done, state, W.tolist(), counts.tolist()) == (5, (5, 5, 2, 3, 6, 5, 1, DATA_LIMIT), [1, 1], [1] * 5)
    assert claims == [(1, 0, quantities(**FIRST_UPDATE))]



# --- the loader -----------------------------------------------------------------------------


def test_loader_falls_back_to_none_without_the_extension(monkeypatch):
    monkeypatch.setitem(sys.modules, "verify_perceptron.check._replay", None)  # makes the import fail
    spec = importlib.util.spec_from_file_location("verify_perceptron.check._kernel_without_replay", _kernel.__file__)
    assert spec is not None and spec.loader is not None
    loader = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loader)
    assert (loader.AVAILABLE, loader.check_online) == (False, None)
    assert loader.IMPORT_ERROR is not None and "verify_perceptron.check._replay" in loader.IMPORT_ERROR


@pytest.mark.skipif(os.environ.get("VERIFY_PERCEPTRON_REQUIRE_KERNEL") != "1",
                    reason="set VERIFY_PERCEPTRON_REQUIRE_KERNEL=1 to demand the compiled kernel")
def test_kernel_is_built_when_required():
    assert _kernel.AVAILABLE, f"VERIFY_PERCEPTRON_REQUIRE_KERNEL=1 but the C kernel did not import: {_kernel.IMPORT_ERROR}"
