"""The checker's compiled replay, when it was built: `check_online`, and `replay_scores` for its Python-integer one.

It replays recorded online updates from the data, recomputing each score
with 128-bit sums, confirming the note's rule, and evaluating every claim
through the postfix program `verify_perceptron.notes.claims.compile_program`
makes; it stops before any update that needs Python's attention (a failed
check, a newly violated claim, a value beyond 128 bits), which
`verify_perceptron.check.checker.Checker.observe` then decides. The
reference the tests hold it to is that Python path. It shares no code with
the engine it checks (`verify_perceptron.run.kernel`).

`verify_perceptron.check._replay` is an optional C extension: `AVAILABLE`
says whether it imported; if not (or if it was built by a compiler without
__int128), `check_online` is None and `IMPORT_ERROR` says why; the checker
then checks every update in Python. `check_wide` is `check_online` in K 64-bit limbs
past 128 bits (`verify_perceptron.check.limb_replay`). `replay_scores` gives the scores alone,
for `verify_perceptron.check.wide_replay`, which otherwise sums them in NumPy. `record_sums` and
`fact_keys` read a chunk of updates in one pass for the observers beside the replay (the whole-run record,
`verify_perceptron.check.whole_run`, and the proofs' hypotheses, `verify_perceptron.check.facts`), which
otherwise make a dozen NumPy passes over it; `soft_chunk` does the same for the soft-margin check's chunk of
mistakes (`verify_perceptron.check.soft_chunk`), and `bit_rows` unpacks the kept mistakes' bitmaps for it
(`verify_perceptron.check.mistake_map`); `deficit_top` and `deficit_squares` make its per-sample squares from
margins held in limbs (`verify_perceptron.check.soft_squares.limb_squares`), `deficit_pieces` the squares of
the rows a chunk reads (`verify_perceptron.check.soft_chunk.MarginPieces`); `walk_sums` and `claim_slacks`
enclose the wide claims' quantities and slacks in one pass each (`verify_perceptron.check.slack_lanes`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

__all__ = ["AVAILABLE", "IMPORT_ERROR", "check_online", "check_wide", "replay_scores", "record_sums", "fact_keys",
           "soft_chunk", "bit_rows", "deficit_top", "deficit_squares", "deficit_pieces",
           "walk_sums", "claim_slacks"]

CheckOnline = Callable[..., tuple[int, tuple[int, ...], list[Any]]]


def _load() -> tuple[Any, str | None]:
    """The extension, or None and why it did not import."""
    try:
        replay = importlib.import_module(f"{__package__}._replay")
        # A compiler without __int128 builds a module whose functions refuse to run.
        replay.check_online(*_PROBE)
    except (ImportError, NotImplementedError) as error:
        return None, f"{type(error).__name__}: {error}"
    return replay, None


def _probe() -> tuple[Any, ...]:
    """A replay of no updates on no rows, with no claims."""
    import numpy as np

    none = np.zeros(0, dtype=np.int64)
    slots = np.zeros(11, dtype=np.int64)  # every computed quantity into the one quantity
    return (np.zeros((0, 1), dtype=np.int64), np.zeros(1, dtype=np.int64), none, np.zeros(0, dtype=bool),
            none.copy(), none.copy(), none.copy(), none.copy(), none.copy(), (0,), slots, (0,) * 8,
            np.zeros(0, dtype=bool))


_PROBE = _probe()

#: ``check_online(...)`` in C, or None: see `verify_perceptron.check.checker.Checker.observe_chunk`.
check_online: CheckOnline | None
#: ``check_wide(...)`` in C, or None: the replay in K 64-bit limbs (`verify_perceptron.check.limb_replay`).
check_wide: Callable[..., tuple[int, int]] | None
#: ``replay_scores(Z, W, rows, out)`` in C, or None: see `verify_perceptron.check.wide_replay.ObjectReplay.scores`.
replay_scores: Callable[..., int] | None
#: ``record_sums(scores, rows, norms, r_sq, starts, greatest, sums)`` in C, or None: see
#: `verify_perceptron.check.whole_run.WholeRun`.
record_sums: Callable[..., int] | None
#: ``fact_keys(rows, scores, labels, first_at, first, out)`` in C, or None: see
#: `verify_perceptron.check.facts.FactCheck.observe_chunk`.
fact_keys: Callable[..., int] | None
#: ``soft_chunk(over, pieces, rows, base, root_b, n0, factor, use_filter, doubtful, sums)`` in C, or None: see
#: `verify_perceptron.check.soft_chunk`.
soft_chunk: Callable[..., tuple[int, int, float]] | None
#: ``bit_rows(bits, numbers, n, epochs, rows)`` in C, or None: see `verify_perceptron.check.mistake_map.MistakeMap`.
bit_rows: Callable[..., int] | None
#: ``deficit_top(margins, rho)`` and ``deficit_squares(margins, rho, pieces, over, near)`` in C, or None: the
#: soft-margin check's deficits from margins in limbs (`verify_perceptron.check.soft_squares.limb_squares`).
deficit_top: Callable[[Any, Any], int] | None
deficit_squares: Callable[..., int] | None
#: ``deficit_pieces(margins, rho, rows, pieces)`` in C, or None: `deficit_squares`' pieces on the rows asked for
#: (`verify_perceptron.check.soft_chunk.MarginPieces`).
deficit_pieces: Callable[..., None] | None
#: ``walk_sums(rows, a_lo, a_hi, b_lo, b_hi, exponents, start, out_lo, out_hi)`` and ``claim_slacks(code, which,
#: lanes_lo, lanes_hi, lane_e, scalars, scalar_e, out_lo, out_hi)`` in C, or None: the wide claims' enclosures
#: (`verify_perceptron.check.slack_lanes`).
walk_sums: Callable[..., int] | None
claim_slacks: Callable[..., list[int]] | None
#: Why the extension did not import, or None if it did.
IMPORT_ERROR: str | None
_module, IMPORT_ERROR = _load()
check_online = None if _module is None else _module.check_online
replay_scores = None if _module is None else _module.replay_scores
check_wide = None if _module is None else _module.check_wide
record_sums = None if _module is None else _module.record_sums
fact_keys = None if _module is None else _module.fact_keys
soft_chunk = None if _module is None else getattr(_module, "soft_chunk", None)
bit_rows = None if _module is None else getattr(_module, "bit_rows", None)
deficit_top = None if _module is None else getattr(_module, "deficit_top", None)
deficit_squares = None if _module is None else getattr(_module, "deficit_squares", None)
deficit_pieces = None if _module is None else getattr(_module, "deficit_pieces", None)
walk_sums = None if _module is None else getattr(_module, "walk_sums", None)
claim_slacks = None if _module is None else getattr(_module, "claim_slacks", None)
#: Did the compiled replay import?
AVAILABLE: bool = check_online is not None
