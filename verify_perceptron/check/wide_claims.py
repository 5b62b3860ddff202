"""The claims past the replay in limbs' widths, decided from each update's quantities with a floating-point filter.

Against a certified max-margin separator the claims about w* pass the 1,024
bits of the replay in limbs (`verify_perceptron.check.limb_replay`): on
breast cancer's float64 data ‖W*‖² has 3,133 bits, each margin 1,627, and
Cauchy-Schwarz squares 1,638-bit values at every update. Those claims need no
replay of their own: W_k·W* = W_0·W* + Σ_t z_(i_t)·W*, so each sample's margin
(computed once, exactly, by the checker) and prefix sums give W_k·W* at every
update; ‖W_k‖² is the prefix sum of 2·s_t + ‖z_(i_t)‖² over the reported scores
s_t, which the replay in limbs confirms update by update, and the rest are
counts. `SplitReplay` hands the claims whose quantities fit the limbs, and
every check of the update rule, to the replay in limbs, and the others
(`WideClaims`) to this module:

- each claim's slack at every update of a chunk is enclosed, in float64
  intervals with one exponent (`verify_perceptron.check._enclosures`), by the
  same integer program the replays run
  (`verify_perceptron.check.wide_replay.run_program`);
- a slack whose enclosure lies on one side of 0 is decided by it; every other
  (a slack of exactly 0 is one: a support vector's lower-bound step) is decided
  exactly, in Python integers, by the same program;
- the least slack and its first update are found exactly among the updates
  whose enclosure reaches below the least upper end, the only ones that can
  hold it.

A claim whose slack depends on the update's sample alone (the lower-bound
step: w_k·W* - w_(k-1)·W* = z_i·W*, and the constants) is decided without
enclosures: its exact slack is computed once per sample (`per_sample_code`
tells, exactly, which claims are such) and gathered. On breast cancer raw,
a fifth of the updates are on support vectors, whose step slack is exactly 0:
each was decided exactly from prefix sums of 1,600-bit margins before.

So every claim is decided exactly at every update, and the stop rule is the
other replays': stop before the first update that gives a claim not yet
failed a negative slack, or that the replay in limbs stops at, and
`Checker.observe` decides it. The arithmetic is the checker's own; the
engine's floating-point filter (`run/filter.py`) is not used.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..data import kernel as _data_kernel
from ..data.integers import score_values
from ..notes.claims import OPS, QUANTITIES
from . import slack_lanes
from ._enclosures import Enclosure, enclose, enclose_nearest, joined_ends
from .wide_replay import online_quantities, run_program

__all__ = ["ChunkSlacks", "SplitReplay", "WideClaims", "claim_codes"]

#: The quantities `online_quantities` replays, by index in `QUANTITIES`.
_REPLAYED = ("N", "k", "n", "n_max", "prev_w_sq", "prev_w_ws", "step_sq", "sum_N_xsq", "sum_n_sq", "w_sq", "w_ws")


def claim_codes(program: Sequence[int]) -> list[list[int]]:
    """A program of several claims cut into one program per claim (each ending with END).

    Examples
    --------
    >>> claim_codes([OPS["quantity"], 3, OPS["end"], OPS["constant"], 0, OPS["neg"], OPS["end"]])
    [[1, 3, 0], [2, 0, 6, 0]]
    """
    codes, current, pc = [], [], 0
    while pc < len(program):
        op = program[pc]
        current.append(op)
        if op in (OPS["quantity"], OPS["constant"], OPS["**"]):
            current.append(program[pc + 1])
            pc += 1
        elif op == OPS["end"]:
            codes.append(current)
            current = []
        pc += 1
    return codes


def _reads(code: Sequence[int]) -> frozenset[str]:
    """The names of the quantities a program reads."""
    names, pc = set(), 0
    while pc < len(code):
        if code[pc] in (OPS["quantity"], OPS["constant"], OPS["**"]):
            if code[pc] == OPS["quantity"]:
                names.add(QUANTITIES[code[pc + 1]])
            pc += 1
        pc += 1
    return frozenset(names)


#: The quantities the same at every online update of a chunk: `n`, `n_max` and the constants.
_FIXED = frozenset({"n", "n_max"}) | (frozenset(QUANTITIES) - frozenset(_REPLAYED))
#: A variable that stands for W·W* before an update, in `per_sample_code`'s check.
_BEFORE = len(QUANTITIES)


class _Polynomial:
    """A polynomial with integer coefficients in the quantities (and `_BEFORE`): ``{exponents: coefficient}``.

    `run_program` evaluates a claim's program over these as over integers, so
    its slack comes out as a polynomial, compared exactly term by term.

    Examples
    --------
    >>> x, y = _Polynomial.variable(0), _Polynomial.variable(1)
    >>> ((x + y) ** 2 - x * x - 2 * x * y).terms == (y * y).terms
    True
    """

    def __init__(self, terms: dict[tuple[int, ...], int]) -> None:
        self.terms = {e: c for e, c in terms.items() if c}

    @staticmethod
    def variable(at: int) -> _Polynomial:
        return _Polynomial({tuple(int(j == at) for j in range(_BEFORE + 1)): 1})

    @staticmethod
    def of(value: _Polynomial | int) -> _Polynomial:
        return value if isinstance(value, _Polynomial) else _Polynomial({(0,) * (_BEFORE + 1): int(value)})

    def __add__(self, other: _Polynomial | int) -> _Polynomial:
        terms = dict(self.terms)
        for e, c in _Polynomial.of(other).terms.items():
            terms[e] = terms.get(e, 0) + c
        return _Polynomial(terms)

    __radd__ = __add__

    def __neg__(self) -> _Polynomial:
        return _Polynomial({e: -c for e, c in self.terms.items()})

    def __sub__(self, other: _Polynomial | int) -> _Polynomial:
        return self + -_Polynomial.of(other)

    def __rsub__(self, other: int) -> _Polynomial:
        return _Polynomial.of(other) - self

    def __mul__(self, other: _Polynomial | int) -> _Polynomial:
        terms: dict[tuple[int, ...], int] = {}
        for e, c in self.terms.items():
            for f, d in _Polynomial.of(other).terms.items():
                g = tuple(a + b for a, b in zip(e, f))
                terms[g] = terms.get(g, 0) + c * d
        return _Polynomial(terms)

    __rmul__ = __mul__

    def __pow__(self, n: int) -> _Polynomial:
        out = _Polynomial.of(1)
        for _ in range(n):
            out = out * self
        return out


def per_sample_code(code: Sequence[int]) -> bool:
    """Whether a claim's slack at an online update depends on its sample alone: it reads, besides
    quantities the same at every update of a chunk, only ‖z‖² and W·W* before and after the update, and
    these only through their difference z·W* (so its slack is the program's value with W·W* = z·W* and
    W·W* before = 0). Told exactly: the program is evaluated as a polynomial with W·W* before = B and
    W·W* = (the difference) + B, and must not contain B.

    Examples
    --------
    >>> step = [OPS["quantity"], QUANTITIES.index("w_ws"), OPS["quantity"], QUANTITIES.index("prev_w_ws"),
    ...         OPS["-"], OPS["quantity"], QUANTITIES.index("gamma"), OPS["-"], OPS["end"]]
    >>> per_sample_code(step), per_sample_code(step[:2] + step[5:])  # w_ws - prev_w_ws - gamma; w_ws - gamma
    (True, False)
    """
    if not _reads(code) <= _FIXED | {"step_sq", "w_ws", "prev_w_ws"}:
        return False
    q = [_Polynomial.variable(j) for j in range(len(QUANTITIES))]
    before = _Polynomial.variable(_BEFORE)
    q[QUANTITIES.index("w_ws")] = q[QUANTITIES.index("w_ws")] + before
    q[QUANTITIES.index("prev_w_ws")] = before
    (slack,) = run_program(code, q)
    return all(e[_BEFORE] == 0 for e in _Polynomial.of(slack).terms)


class WideClaims:
    """Claims to decide from each update's quantities.

    Parameters
    ----------
    codes : list of list of int
        One program per claim (`claim_codes` of `compiled_claims`'s, any integer constant).
    quantities : tuple of int
        The quantities' starting values (the constants; `compiled_claims`).
    norms, margins : array of Python integers
        Each sample's ‖z‖² and margin z·W*.
    """

    def __init__(self, codes: list[list[int]], quantities: tuple[int, ...], norms: Any, margins: Any) -> None:
        self.codes, self.quantities, self.norms, self.margins = codes, quantities, norms, margins
        #: The claims whose slack is their sample's (`per_sample_code`), and their slacks per sample, by n_max.
        self.per_sample = [per_sample_code(code) for code in codes]
        self._sample_slacks: dict[int, list[Any]] = {}
        self.reads = frozenset().union(*(_reads(code) for code, alone in zip(codes, self.per_sample) if not alone))
        # Each sample's ‖z‖² and margin enclosed once; an update's are gathered from them.
        self._norms = enclose(norms) if self.reads & _NORMS else None
        self._margins = enclose(margins) if self.reads & _MARGINS else None

    def slacks(self, state: tuple[int, ...], rows: Any, scores: Any) -> ChunkSlacks:
        """Each claim's slack at online updates 1..m on `rows` whose reported scores were `scores`, from `state`."""
        k, N, w_sq, w_ws, sum_N_xsq, sum_n_sq, n_max = state[:7]
        m, reads = len(rows), self.reads
        count = np.arange(1, m + 1, dtype=np.int64)
        enclosed: list[Any] = [enclose(v) if name in reads else None for name, v in zip(QUANTITIES, self.quantities)]
        got: dict[str, Enclosure] = {"n": enclose(1), "n_max": enclose(max(n_max, 1))}
        if slack_lanes.available():  # the replayed quantities in C, as lanes (the same quantities as below)
            for name, value in got.items():
                enclosed[QUANTITIES.index(name)] = value if name in reads else None
            lanes = slack_lanes.chunk_lanes(reads, state, rows, self._norms, self._margins,
                                            lambda: _enclosed_scores(scores, nearest=True), self.per_sample.count(False))
            return ChunkSlacks(self, state, rows, scores, enclosed, self.sample_slacks(max(n_max, 1)), lanes)
        for name, start in (("N", N), ("k", k), ("sum_n_sq", sum_n_sq)):
            if name in reads:
                got[name] = enclose(start + count) if start + m < 2**62 else enclose(start + count.astype(object))
        if self._norms is not None:
            got["step_sq"] = self._norms.gathered(rows)
            if "sum_N_xsq" in reads:
                got["sum_N_xsq"] = enclose(sum_N_xsq) + got["step_sq"].prefix_sums()
            if reads & {"w_sq", "prev_w_sq"}:
                after = enclose(w_sq) + (_enclosed_scores(scores) * 2 + got["step_sq"]).prefix_sums()
                got["w_sq"] = after
                if "prev_w_sq" in reads:  # (the value before each update: made only where a claim reads it)
                    got["prev_w_sq"] = after.preceded_by(enclose(w_sq))
        if self._margins is not None:
            after = enclose(w_ws) + self._margins.gathered(rows).prefix_sums()
            got["w_ws"] = after
            if "prev_w_ws" in reads:
                got["prev_w_ws"] = after.preceded_by(enclose(w_ws))
        for name, value in got.items():
            if name in reads:
                enclosed[QUANTITIES.index(name)] = value
        return ChunkSlacks(self, state, rows, scores, enclosed, self.sample_slacks(max(n_max, 1)))

    def sample_slacks(self, n_max: int) -> list[Any]:
        """Each claim's exact slack at an update on each sample (an object array, or an int for every
        sample alike) for the claims whose slack is their sample's; None for the others."""
        if n_max not in self._sample_slacks:
            q: list[Any] = list(self.quantities)
            for name, value in (("n", 1), ("n_max", n_max), ("step_sq", self.norms), ("w_ws", self.margins),
                                ("prev_w_ws", 0)):
                q[QUANTITIES.index(name)] = value
            self._sample_slacks[n_max] = [run_program(code, q)[0] if alone else None
                                          for code, alone in zip(self.codes, self.per_sample)]
        return self._sample_slacks[n_max]


#: The replayed quantities that only count updates (and n, n_max, the same at every online update).
_COUNTS = frozenset({"N", "k", "sum_n_sq", "n", "n_max"})
#: The replayed quantities read from the samples' norms, and from their margins.
_NORMS = frozenset({"step_sq", "sum_N_xsq", "w_sq", "prev_w_sq"})
_MARGINS = frozenset({"w_ws", "prev_w_ws"})


#: The most limbs whose values `limb_doubles` rounds (values below 2^1000): 15 limbs hold less than 2^959.
_NEAREST_LIMBS = 15


def _enclosed_scores(scores: Any, nearest: bool = False) -> Any:
    """A chunk's reported scores enclosed: int64, Python integers, or (m, L) limbs (each limb enclosed, the
    lower ones unsigned, and summed with its weight 2^(64·l)); with `nearest`, limbs of at most
    `_NEAREST_LIMBS` as their nearest doubles, for `slack_lanes.Lanes.walk` to enclose."""
    scores = np.asarray(scores)
    if scores.dtype != np.int64 or scores.ndim == 1:
        return enclose(scores)
    if _data_kernel.limb_doubles is not None and scores.shape[1] <= _NEAREST_LIMBS:
        # each score's nearest double, rounded once in C from its limbs (as float(int) rounds it), enclosed as
        # `enclose` encloses a Python integer's: one pass, where the limbs one by one took five enclosures' sums
        doubles = np.empty((len(scores), 1), dtype=np.float64)
        _data_kernel.limb_doubles(np.ascontiguousarray(scores).reshape(len(scores), 1, -1), doubles)
        return doubles[:, 0] if nearest else enclose_nearest(doubles[:, 0])
    out = enclose(scores[:, -1]).shifted(64 * (scores.shape[1] - 1))  # the top limb carries the sign
    for limb in range(scores.shape[1] - 1):
        out = out + enclose(scores[:, limb].view(np.uint64)).shifted(64 * limb)
    return out


#: Updates whose slacks are enclosed at once (`ChunkSlacks`): each temporary is then 96 KB, which the
#: allocator hands back and the cache holds; a chunk's (426 KB on breast cancer raw) were mapped and
#: their pages touched anew for each of the program's temporaries (2,500 page faults, a third of its time).
_BLOCK = 12_288


class ChunkSlacks:
    """The claims' slacks over a chunk: enclosed at every update, exact where an enclosure does not decide.

    Parameters
    ----------
    claims : WideClaims
        The claims.
    state, rows, scores
        As `WideClaims.slacks` was given them.
    enclosed : list
        Every quantity in `QUANTITIES` order, enclosed (None for one no claim reads; with `lanes`, for the
        replayed ones too).
    sample_slacks : list
        `WideClaims.sample_slacks`: for a claim whose slack is its sample's, each sample's, exactly.
    lanes : Lanes, optional
        The replayed quantities in C's lanes (`verify_perceptron.check.slack_lanes`): the claims' programs
        run there.
    """

    def __init__(self, claims: WideClaims, state: tuple[int, ...], rows: Any, scores: Any, enclosed: list[Any],
                 sample_slacks: list[Any], lanes: slack_lanes.Lanes | None = None) -> None:
        self.claims, self.state, self.rows, self.scores = claims, state, rows, scores
        self.m = m = len(rows)
        self._known: dict[str, Any] = {}  # exact values of replayed quantities, on a prefix of the chunk
        self.sample_slacks = sample_slacks
        self.enclosures: list[tuple[Any, Any]] = []
        if lanes is not None:  # every claim's program over the lanes in one C call (`slack_lanes.claim_ends`)
            ends = iter(slack_lanes.claim_ends([code for code, alone in zip(claims.codes, claims.per_sample)
                                                if not alone], lanes, enclosed))
            self.enclosures = [(0, 0) if alone else (lambda x: (x.lo, x.hi))(next(ends)) for alone in claims.per_sample]
            return
        spans = [(start, min(start + _BLOCK, m)) for start in range(0, m, _BLOCK)]
        for code, alone in zip(claims.codes, claims.per_sample):
            # a block of updates at a time, joined over one exponent (`joined_ends`)
            lo, hi = (0, 0) if alone else joined_ends(  # (not read if alone)
                [Enclosure.of(run_program(code, [v.sliced(*span) if isinstance(v, Enclosure) else v
                                                 for v in enclosed])[0]) for span in spans], spans, m)
            self.enclosures.append((np.broadcast_to(lo, (m,)), np.broadcast_to(hi, (m,))))

    def _sample_slack(self, c: int, done: int) -> Any:
        """Claim c's exact slack at updates 0..done-1, when it is its sample's: an object array."""
        values = self.sample_slacks[c]
        if not isinstance(values, np.ndarray):
            return np.full(done, values, dtype=object)
        return values[self.rows[:done]]

    def _exact(self, c: int, upto: int) -> list[Any]:
        """Every quantity claim c reads, exactly at updates 0..upto-1 at least (Python integers,
        `online_quantities`): each replayed one made once, for the whole chunk once more than half is asked."""
        claims = self.claims
        names = _reads(claims.codes[c]) & frozenset(_REPLAYED)
        missing = frozenset(name for name in names if not _covers(self._known.get(name), upto))
        if missing:
            length = self.m if 2 * upto > self.m else upto
            rows = self.rows[:length]
            s = _values(self.scores[:length]) if missing & {"w_sq", "prev_w_sq"} else None
            self._known.update(online_quantities(self.state, rows, s, claims.norms, claims.margins, missing))
        exact = list(claims.quantities)
        for name in names:
            exact[QUANTITIES.index(name)] = self._known[name]
        return exact

    def _exactly(self, c: int, at: Any) -> Any:
        """Claim c's exact slack at updates `at` (an index array), as an object array."""
        if not len(at):
            return np.zeros(0, dtype=object)
        names = _reads(self.claims.codes[c]) & frozenset(_REPLAYED)
        if names <= _COUNTS:  # counts alone (the mistake bound's N): at `at` itself, not over the chunk's prefix
            k, N, _, _, _, sum_n_sq, n_max = self.state[:7]
            q: list[Any] = list(self.claims.quantities)
            after = np.asarray(at).astype(object) + 1
            for name, value in (("N", N + after), ("k", k + after), ("sum_n_sq", sum_n_sq + after), ("n", 1),
                                ("n_max", max(n_max, 1))):
                q[QUANTITIES.index(name)] = value
        else:
            q = [v[at] if isinstance(v, np.ndarray) and v.ndim == 1 else v for v in self._exact(c, int(at[-1]) + 1)]
        return np.broadcast_to(np.asarray(run_program(self.claims.codes[c], q)[0], dtype=object), (len(at),))

    def w_ws_after(self, done: int) -> int:
        """W·W* after the first `done` updates, exactly."""
        w_ws = self.state[3]
        counted = np.bincount(self.rows[:done], minlength=len(self.claims.margins))
        picked = np.flatnonzero(counted)
        return int(w_ws + sum(int(c) * int(v) for c, v in zip(counted[picked].tolist(),
                                                               self.claims.margins[picked].tolist())))

    def first_negative(self, failed: Sequence[bool]) -> int:
        """The first update (0-based) at which a claim not yet `failed` has a negative slack; m if none."""
        first = self.m
        for c, (lo, hi) in enumerate(self.enclosures):
            if failed[c]:
                continue
            if self.sample_slacks[c] is not None:  # exactly, from each sample's slack
                negative = self._negative_samples(c)
                below: Any = np.flatnonzero(negative[self.rows[:first]]) if negative is not None else []
                first = int(below[0]) if len(below) else first
                continue
            sure = np.flatnonzero(hi[:first] < 0)
            end = int(sure[0]) if len(sure) else first
            unsure = np.flatnonzero(lo[:end] < 0)  # below or at 0, or not known: decided exactly
            if len(unsure):
                negative = np.flatnonzero((self._exactly(c, unsure) < 0).astype(bool))
                if len(negative):
                    end = int(unsure[negative[0]])
            first = min(first, end)
        return first

    def _negative_samples(self, c: int) -> Any:
        """For claim c, whose slack is its sample's: which samples' slacks are negative (None: none is)."""
        values = self.sample_slacks[c]
        if not isinstance(values, np.ndarray):
            return None if values >= 0 else np.ones(len(self.claims.norms), dtype=bool)
        return (values < 0).astype(bool)

    def least(self, done: int) -> list[tuple[int, int, None]]:
        """Each claim's least slack over updates 0..done-1 and the first update holding it (done >= 1)."""
        out = []
        for c, (lo, hi) in enumerate(self.enclosures):
            if self.sample_slacks[c] is not None:  # the least over the samples the updates were on
                values = self.sample_slacks[c]
                if not isinstance(values, np.ndarray):
                    out.append((int(values), 0, None))
                    continue
                # (a count and a mask per sample: no sort of the chunk's rows, as np.unique and np.isin make)
                seen = np.flatnonzero(np.bincount(self.rows[:done], minlength=len(values)))
                least = min(values[seen].tolist())
                holding = np.zeros(len(values), dtype=bool)  # the samples whose slack it is
                holding[seen[(values[seen] == least).astype(bool)]] = True
                t = int(np.argmax(holding[self.rows[:done]]))  # the first update on one of them
                out.append((int(least), t, None))
                continue
            ceiling = hi[:done].min()
            reach = np.flatnonzero(lo[:done] <= ceiling)  # nothing else can be as small as the least upper end
            slack = self._exactly(c, reach)
            t = int(np.argmin(slack))  # the first of equal least values, as the other replays keep it
            out.append((int(slack[t]), int(reach[t]), None))
        return out


def _covers(value: Any, upto: int) -> bool:
    """Whether a known quantity (an int, or an array over a prefix of the chunk) covers updates 0..upto-1."""
    return value is not None and (not isinstance(value, np.ndarray) or len(value) >= upto)


def _values(scores: Any) -> Any:
    """A chunk's reported scores as exact values: int64 or an object array (limbs joined)."""
    scores = np.asarray(scores)
    return score_values(scores) if scores.dtype == np.int64 else scores.astype(object)


class SplitReplay:
    """The replay in limbs for the update rule and the claims that fit it, `WideClaims` for the others.

    `run` has the interface of `verify_perceptron.check.limb_replay.LimbReplay.run`; `K` and `reason`
    are the replay in limbs'. The replay in limbs is given W·W* = 0 and zero margins (no claim of its
    reads them); W·W* after the updates replayed is summed here, exactly.

    Parameters
    ----------
    narrow : LimbReplay
        The replay in limbs of the claims at `narrow_at` (a program of one claim that always holds when
        there is none).
    wide : WideClaims
        The claims at `wide_at`.
    scales : list of int
        Every claim's scale, in the checker's order.
    """

    def __init__(self, narrow: Any, wide: WideClaims, narrow_at: list[int], wide_at: list[int],
                 scales: list[int]) -> None:
        self.narrow, self.wide, self.narrow_at, self.wide_at, self.scales = narrow, wide, narrow_at, wide_at, scales

    @property
    def K(self) -> int:
        """The replay in limbs' width for the next `run`."""
        return int(self.narrow.K)

    @K.setter
    def K(self, value: int) -> None:
        self.narrow.K = value

    @property
    def reason(self) -> int:
        """Why the last `run` stopped, as the replay in limbs says it."""
        return int(self.narrow.reason)

    def run(self, W: Any, counts: Any, state: tuple[int, ...], rows: Any, scores: Any,
            failed: Any) -> tuple[int, tuple[int, ...], list[Any]]:
        """Replay online updates on `rows` until one needs `Checker.observe`: ``(done, state, verdicts)``, as
        `LimbReplay.run` returns them. W (an object array) and `counts` are updated in place."""
        rows = np.ascontiguousarray(rows, dtype=np.int64)
        failed = np.asarray(failed, dtype=bool)
        outside = np.flatnonzero((rows < 0) | (rows >= len(self.wide.norms)))
        m = int(outside[0]) if len(outside) else len(rows)  # the replay in limbs stops at such a row itself
        k, N, w_sq, w_ws, sum_N_xsq, sum_n_sq, n_max = state[:7]
        if m == 0:  # the first row does not exist: `Checker.observe` says so
            self.narrow.reason = 1
            return 0, (*state, 0), [None] * len(self.scales)
        chunk = self.wide.slacks(state, rows[:m], scores[:m])
        first = chunk.first_negative(failed[self.wide_at])
        narrow_failed = failed[self.narrow_at] if self.narrow_at else np.zeros(1, dtype=bool)
        done, after, narrow = self.narrow.run(W, counts, (k, N, w_sq, 0, sum_N_xsq, sum_n_sq, n_max),
                                              rows[:first], scores[:first], narrow_failed)
        if done == 0:
            return 0, (*state, 0), [None] * len(self.scales)
        moved = chunk.w_ws_after(done)
        verdicts: list[Any] = [None] * len(self.scales)
        for at, verdict in zip(self.narrow_at, narrow):
            verdicts[at] = verdict
        for at, verdict in zip(self.wide_at, chunk.least(done)):
            verdicts[at] = verdict
        return done, (after[0], after[1], after[2], moved, *after[4:]), verdicts
