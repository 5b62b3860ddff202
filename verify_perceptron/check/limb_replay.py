"""The checker's compiled replay past 128 bits: a chunk of online updates in K 64-bit limbs, in C.

The 128-bit replay (`verify_perceptron.check.replay`) stops at any update
whose samples, norms, scores, margins or claim values pass 128 bits, as they
do on float64 data over a common denominator of 2^64 and more.
`LimbReplay` replays those in C too (`verify_perceptron.check.kernel.check_wide`),
in fixed-width integers of K limbs (K = 1 .. `LIMBS_MAX`, that is 64 to 1024
bits) whose every operation is checked: it starts at the narrowest K (2 or
more) that holds the data's norms, margins and the claims' constants with room
for the run to grow, and when an update needs more (reason 2) it tries again
one limb wider. Int64 samples are read as they are; wider ones in K limbs.
Where the claims about w* pass `LIMBS_MAX` limbs (a certified separator
of thousands of bits) but the data do not, the claims are split
(`split_replay`): the update rule and the claims that fit stay here, the
others are decided from each update's quantities
(`verify_perceptron.check.wide_claims`). Past `LIMBS_MAX` limbs on the
data's side the checker replays in Python integers
(`verify_perceptron.check.wide_replay.ObjectReplay`). Its stop rule is the
128-bit replay's: it stops before any update that fails a check or gives a
claim not yet failed a negative slack, and `Checker.observe` decides that
update, so the verdicts are the same whichever path replays an update.

Its arithmetic is its own (``check/_limbs.h``), not the engine's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from . import kernel as _kernel
from .replay import _SLOTS
from ..data.integers import ExactMatrix, as_limbs, score_values  # noqa: F401 (score_values: _narrowed's doctest)
from ..data.limb_arrays import int_limbs, row_ints
from ..notes.claims import OPS, Claim
from .wide_claims import SplitReplay, WideClaims, claim_codes
from .wide_replay import compiled_claims

__all__ = ["LimbReplay", "limb_replay", "LIMBS_MAX", "limbs_for", "split_replay"]

#: The widest replay in C, in 64-bit limbs (as ``LIMBS_MAX`` in check/_limbs.h): 1024 bits.
LIMBS_MAX = 16
#: The most quantities the C program reads (MAX_QUANTITIES in check/_program.h).
_MAX_QUANTITIES = 64
#: Bits of room for the run's growth above the data's own values, for the claims kept in limbs (`split_replay`).
_ROOM = 64
#: Bits of room above the data's values and the constants the program reads when K is first chosen. The
#: run's quantities (‖W‖², Σ N·‖x‖², N·R², ...) grow at most in proportion to the number of updates: 32 bits
#: are 4·10^9 updates, and a run that needs more widens K by itself (reason 2). On randn data (norms of 152
#: bits) the replay then starts at 3 limbs, not 4: about 5% of check_wide's time.
_START_ROOM = 32


def limbs_for(bits: int) -> int:
    """The fewest 64-bit limbs holding signed integers of `bits` bits (magnitude below 2^bits).

    Examples
    --------
    >>> limbs_for(63), limbs_for(64), limbs_for(200)
    (1, 2, 4)
    """
    return bits // 64 + 1


def _limbs(values: Any, K: int) -> Any:
    """`as_limbs` of any integer array (int16..int64 or Python integers), C-contiguous, K limbs."""
    flat = np.asarray(values).reshape(-1)
    if flat.dtype != object:
        flat = flat.astype(np.int64)
    return np.ascontiguousarray(as_limbs(flat, K))


def _fewest(values: Any, K: int) -> Any:
    """`_limbs` of an integer array in the fewest limbs that hold its values (int16..int64: one, no copy of int64).

    Raises
    ------
    OverflowError
        When a value does not fit in K limbs.

    Examples
    --------
    >>> _fewest(np.array([2**64, -3], dtype=object), 4).tolist()
    [[0, 1], [-3, -1]]
    >>> _fewest(np.array([5, -1], dtype=np.int32), 4).tolist()
    [[5], [-1]]
    >>> _fewest(np.array([2**127], dtype=object), 2)
    Traceback (most recent call last):
    OverflowError: an integer of 128 bits does not fit in 2 limbs of 64 bits
    """
    flat = np.asarray(values).reshape(-1)
    if flat.dtype != object:
        return np.ascontiguousarray(flat.astype(np.int64, copy=False).reshape(-1, 1))
    bits = max(abs(int(flat.max(initial=0))), abs(int(flat.min(initial=0)))).bit_length()
    return _limbs(flat, min(K, limbs_for(bits)))


def _narrowed(limbs: Any, K: int) -> Any:
    """An (n, L) int64 array of limbs (`as_limbs`' layout) in K limbs, C-contiguous: sign-extended where L <= K,
    else cut to its lowest K limbs where every limb above them repeats the sign of the K-th.

    Raises
    ------
    OverflowError
        When a value does not fit in K limbs (the caller then tries one limb wider).

    Examples
    --------
    >>> values = np.array([-(2**130), 2**126 + 3, -1], dtype=object)
    >>> score_values(_narrowed(as_limbs(values, 5), 3)).tolist() == values.tolist()
    True
    >>> _narrowed(as_limbs(np.array([2**191], dtype=object), 5), 3)
    Traceback (most recent call last):
    OverflowError: values in 5 limbs do not fit in 3 limbs
    """
    if limbs.shape[1] <= K:
        return np.ascontiguousarray(as_limbs(limbs, K))
    sign = limbs[:, K - 1] >> 63
    for above in range(K, limbs.shape[1]):  # (a column at a time: no (n, L - K) temporary)
        if not bool((limbs[:, above] == sign).all()):
            raise OverflowError(f"values in {limbs.shape[1]} limbs do not fit in {K} limbs")
    return np.ascontiguousarray(limbs[:, :K])


class LimbReplay:
    """A checker's samples, norms, margins and compiled claims in limbs, for `run`; K grows as needed.

    Attributes
    ----------
    K : int
        The width in 64-bit limbs the next `run` starts with.
    reason : int
        Why the last `run` stopped: 0 it replayed every update, 1 an update is `Checker.observe`'s
        to decide, 2 an update needs more than `LIMBS_MAX` limbs.
    """

    def __init__(self, matrix: ExactMatrix, tie: Any, margins: Any, program: Any, scales: list[int],
                 quantities: tuple[int, ...], K: int) -> None:
        self.matrix, self.program, self.scales, self.quantities = matrix, program, scales, quantities
        self.tie = np.ascontiguousarray(tie, dtype=bool)
        self.margins = np.asarray(margins)
        self.K, self.reason = K, 0
        self._arrays: dict[int, tuple[Any, Any, Any, Any]] = {}

    def _at(self, K: int) -> tuple[Any, Any, Any, Any] | None:
        """Z, norms, margins and quantities in K limbs (built once per K), or None if one does not fit."""
        if K not in self._arrays:
            try:
                n, d = self.matrix.shape
                held = self.matrix.limbs
                if held is not None and held.shape[2] <= 2 < K:  # entries that fit int128: two limbs each, as held
                    Z = np.ascontiguousarray(as_limbs(held.reshape(n * d, held.shape[2]), 2)).reshape(n, d * 2)
                elif held is not None and held.shape[2] <= K:  # held in limbs: sign-extended, no Python integer
                    Z = np.ascontiguousarray(as_limbs(held.reshape(n * d, held.shape[2]), K)).reshape(n, d * K)
                else:
                    # samples of 16, 32 or 64 bits as they are (the C replay widens a row at a time): an int64
                    # copy of int32 samples would be twice the matrix held, for the whole replay
                    Z = self.matrix.exact
                    Z = (_limbs(Z, K).reshape(n, d * K) if Z.dtype == object
                         else np.ascontiguousarray(Z) if Z.dtype in (np.int16, np.int32, np.int64)
                         else np.ascontiguousarray(Z, dtype=np.int64))
                # norms and margins in their own fewest limbs (check_wide sign-extends them to K as it reads
                # them): K-limb copies were 0.27x the int64 data each at 10^5 x 10 int32 samples (K = 3).
                # Norms held in limbs are narrowed as they are: through Python integers they took a third of a
                # second at 10^5 rows (most of the first chunk's replay), ten times that at 10^6
                held_norms = None if self.matrix.held is None else self.matrix.held.norm_limbs
                norms = (_fewest(self.matrix.norms, K) if held_norms is None
                         else np.ascontiguousarray(held_norms) if held_norms.shape[1] <= K
                         else _narrowed(held_norms, K))
                self._arrays[K] = (Z, norms, _fewest(self.margins, K),
                                   _limbs(np.array(self.quantities, dtype=object), K))
            except OverflowError:
                return None
        return self._arrays[K]

    def run(self, W: Any, counts: Any, state: tuple[int, ...], rows: Any, scores: Any,
            failed: Any) -> tuple[int, tuple[int, ...], list[Any]]:
        """Replay online updates on `rows` from `state` until one needs Python: ``(done, state, verdicts)``,
        as `verify_perceptron.check.replay.CompiledReplay.run` returns them (the state's last entry is 0;
        a verdict's quantities are not kept). W (an object array) and `counts` are updated in place."""
        rows = np.ascontiguousarray(rows, dtype=np.int64)
        said = _reported(scores)
        failed = np.ascontiguousarray(failed, dtype=bool)
        n_claims = len(self.scales)
        while self.K <= LIMBS_MAX:
            K = self.K
            arrays = self._at(K)
            try:  # (a few values: `int.to_bytes` each, not NumPy's object arithmetic; the same limbs)
                W_limbs = int_limbs(W.tolist(), K).reshape(-1)
                state_limbs = int_limbs(list(state), K)
            except OverflowError:
                arrays = None
            if arrays is None:
                self.K += 1
                continue
            Z, norms, margins, quantities = arrays
            best, best_at = np.zeros((n_claims, K), dtype=np.int64), np.zeros(n_claims, dtype=np.int64)
            assert _kernel.check_wide is not None
            done, self.reason = _kernel.check_wide(Z, W_limbs, counts, self.tie, norms, margins, rows, said,
                                                   self.program, quantities, _SLOTS, state_limbs, failed,
                                                   best, best_at)
            if done == 0 and self.reason == 2:
                self.K += 1  # the first update needs more limbs: one wider
                continue
            if done == 0:
                return 0, (*state, 0), [None] * n_claims
            W[:] = row_ints(W_limbs.reshape(-1, K))  # (`int.from_bytes` each: a fifth of `score_values`' time)
            after = tuple(row_ints(state_limbs))
            values = row_ints(best)
            return done, (*after, 0), [(int(v), int(at), None) for v, at in zip(values, best_at.tolist())]
        self.reason = 2
        return 0, (*state, 0), [None] * n_claims


def _reported(scores: Any) -> Any:
    """A chunk's reported scores as (m, L) int64 limbs: int64 as one limb, limbs as they are, Python
    integers in as many limbs as the widest needs."""
    if scores.dtype == np.int64:
        return np.ascontiguousarray(scores if scores.ndim == 2 else scores.reshape(-1, 1))
    values = np.asarray(scores, dtype=object)
    widest = max((abs(int(v)) for v in values.tolist()), default=0)
    return np.ascontiguousarray(as_limbs(values, limbs_for(widest.bit_length())))


def _wide_constants(code: Sequence[int], first: int) -> tuple[Any, tuple[int, ...], set[int]]:
    """The program with each constant outside int64 (a scale such as a bound's 279-bit denominator) read as
    a quantity of its own, numbered from `first`: the C program's constants are int64, its quantities any width;
    and the quantities it reads (`_read`'s), found in the same pass.

    Examples
    --------
    >>> program, extra, read = _wide_constants([OPS["quantity"], 3, OPS["constant"], 2**70, OPS["constant"], 5,
    ...                                         OPS["*"], OPS["end"]], 19)
    >>> program.tolist() == [OPS["quantity"], 3, OPS["quantity"], 19, OPS["constant"], 5, OPS["*"], OPS["end"]]
    True
    >>> extra == (2**70,), sorted(read) == sorted(_read(program))
    (True, True)
    """
    out: list[int] = []
    extra: list[int] = []
    read: set[int] = set()
    quantity, constant, power = OPS["quantity"], OPS["constant"], OPS["**"]
    pc, end = 0, len(code)
    while pc < end:
        op = code[pc]
        if op == quantity or op == constant or op == power:
            value = code[pc + 1]
            if op == constant and not -(2**63) <= value < 2**63:
                value = first + len(extra)
                extra.append(code[pc + 1])
                op = quantity
            if op == quantity:
                read.add(value)
            out += (op, value)
            pc += 2
        else:
            out.append(op)
            pc += 1
    program = np.array(out, dtype=np.int64)
    program.flags.writeable = False
    return program, tuple(extra), read


def limb_replay(matrix: ExactMatrix, tie: Any, margins: Any, claims: Sequence[Claim],
                constants: Mapping[str, int | Fraction]) -> LimbReplay | SplitReplay | None:
    """What `LimbReplay` needs, or None where it cannot run (no kernel, a claim it cannot compile).

    K starts where the data's norms and margins and the constants the claims read fit with `_START_ROOM` bits to spare.
    Where a claim's constant or the margins it reads pass `LIMBS_MAX` limbs (a certified separator of
    thousands of bits), the claims are split (`split_replay`).
    """
    if _kernel.check_wide is None:
        return None
    built = _built(matrix, tie, margins, claims, constants)
    return built if built is not None else split_replay(matrix, tie, margins, claims, constants)


def _built(matrix: ExactMatrix, tie: Any, margins: Any, claims: Sequence[Claim],
           constants: Mapping[str, int | Fraction]) -> LimbReplay | None:
    """`LimbReplay` of every claim, or None where a claim, its quantities or the data pass `LIMBS_MAX` limbs."""
    compiled = compiled_claims(claims, constants)
    if compiled is None:
        return None
    code, scales, quantities = compiled
    program, extra, read = _wide_constants(code, len(quantities))
    quantities += extra
    if len(quantities) > _MAX_QUANTITIES:
        return None
    data = [matrix.max_norm_sq] + [abs(int(v)) for v in (np.max(margins, initial=0), np.min(margins, initial=0))]
    if limbs_for(max([abs(v) for v in quantities] + data).bit_length()) > LIMBS_MAX:
        return None
    # (a constant the program never reads, not in `read`, need not fit K: `LimbReplay._at` widens for it)
    biggest = max([abs(v) for at, v in enumerate(quantities) if at in read] + data)
    K = min(LIMBS_MAX, max(2, limbs_for(biggest.bit_length() + _START_ROOM)))
    return LimbReplay(matrix, tie, margins, program, scales, quantities, K)


def _read(program: Any) -> set[int]:
    """The quantities a (checked) program reads.

    Examples
    --------
    >>> sorted(_read(np.array([OPS["quantity"], 4, OPS["constant"], 7, OPS["**"], 2, OPS["quantity"], 1, OPS["end"]])))
    [1, 4]
    """
    code = program.tolist()
    read: set[int] = set()
    pc = 0
    while pc < len(code):
        if code[pc] in (OPS["quantity"], OPS["constant"], OPS["**"]):
            if code[pc] == OPS["quantity"]:
                read.add(code[pc + 1])
            pc += 2
        else:
            pc += 1
    return read


def _bits(value: int | Fraction) -> int:
    """The bits of a constant's numerator or denominator, whichever is longer."""
    return max(abs(value.numerator).bit_length(), value.denominator.bit_length())


#: The quantities that read the margins z·W*.
_MARGIN_QUANTITIES = frozenset({"w_ws", "prev_w_ws"})
#: The claims program's integer always >= 0: the replay in limbs' one claim when every claim is wide.
_HOLDS = [OPS["constant"], 0, OPS["end"]]


def split_replay(matrix: ExactMatrix, tie: Any, margins: Any, claims: Sequence[Claim],
                 constants: Mapping[str, int | Fraction]) -> SplitReplay | None:
    """The replay in limbs for the update rule and the claims whose quantities fit it with `_ROOM` bits to
    spare, `WideClaims` (from each update's quantities, with a floating-point filter) for the others; None
    where the data themselves pass the limbs.

    Examples
    --------
    >>> from verify_perceptron.check.checker import Checker
    >>> from verify_perceptron.data.examples import example
    >>> big = 2**1100  # margins and ‖w*‖² past 1,024 bits: the claims that read them are wide
    >>> checker = Checker(example("and"), "classic", rate=1, mode="online", separator=[-3 * big, 2 * big, 2 * big])
    >>> replay = split_replay(checker.matrix, checker.tie, checker.margins, [c for c, _ in checker.active],
    ...                       checker.constants)
    >>> [[checker.active[at][0].name for at in side] for side in (replay.wide_at, replay.narrow_at)]
    [['lower-bound-step', 'lower-bound', 'cauchy-schwarz'], ['upper-bound-step', 'upper-bound-per-sample', 'upper-bound', 'mistake-bound']]
    """
    if _kernel.check_wide is None:
        return None
    fits = LIMBS_MAX * 64 - _ROOM
    narrow_at: list[int] = []
    wide_at: list[int] = []
    for at, claim in enumerate(claims):
        # the replay in limbs is given zero margins and W·W* = 0 (below), so every claim that reads them is
        # wide, whatever their size: kept in limbs, it would read zeros (a claim then "violated" at every
        # update sent each one to `Checker.observe`, a chunk's wide slacks made again after each)
        wide = any(name in _MARGIN_QUANTITIES or (name in constants and _bits(constants[name]) > fits)
                   for name in claim.uses)
        (wide_at if wide else narrow_at).append(at)
    narrow_claims = [claims[at] for at in narrow_at]
    used = {name for claim in narrow_claims for name in claim.uses}
    narrow = _built(matrix, tie, np.zeros(len(tie), dtype=np.int64), narrow_claims,
                    {name: v for name, v in constants.items() if name in used})
    if narrow is None:
        return None
    if not narrow_claims:
        narrow.program, narrow.scales = np.array(_HOLDS, dtype=np.int64), [1]
    compiled = compiled_claims([claims[at] for at in wide_at], constants)
    if compiled is None:
        return None
    code, wide_scales, quantities = compiled
    scales = [1] * len(claims)
    for at, scale in zip(narrow_at, narrow.scales if narrow_claims else []):
        scales[at] = scale
    for at, scale in zip(wide_at, wide_scales):
        scales[at] = scale
    wide_claims = WideClaims(claim_codes(code), quantities, np.asarray(matrix.norms).astype(object),
                             np.asarray(margins).astype(object))
    return SplitReplay(narrow, wide_claims, narrow_at, wide_at, scales)
