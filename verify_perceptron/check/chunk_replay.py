"""The checker's chunk path: a chunk of online updates replayed at once, by the fastest replay that holds it.

`ChunkReplays` is the part of `verify_perceptron.check.checker.Checker` that
takes chunks (`observe_chunk`): the C replay in 128 bits
(`verify_perceptron.check.replay`), then in K 64-bit limbs up to 1024 bits
(`verify_perceptron.check.limb_replay`; with the claims about a separator past
that decided from each update's quantities, `verify_perceptron.check.wide_claims`),
then in Python integers
(`verify_perceptron.check.wide_replay`); any update each stops at is
`Checker._observe`'s, so the verdicts are those of observing every update alone.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from ..data.integers import INT64_EXACT_SQ, WIDE_SQ, score_values
from ..data.observers import Epochs, Int64Array
from .limb_replay import LimbReplay, limb_replay
from .wide_claims import SplitReplay
from .replay import CompiledReplay, compiled_replay
from .wide_replay import ObjectReplay, object_replay

__all__ = ["ChunkReplays"]


class ChunkReplays:
    """`Checker.observe_chunk` and its replays (a mixin: the checker's state is the checker's)."""

    # What the replays read and write of the checker (set by `Checker.__init__`).
    _compiled: CompiledReplay | None | Literal[False]
    _limbs: LimbReplay | SplitReplay | None | Literal[False]
    _wide: ObjectReplay | None | Literal[False]
    W: Any
    counts: Any
    k: int
    N: int
    w_sq: int
    w_ws: int
    sum_N_xsq: int
    sum_n_sq: int
    n_max: int
    epoch: int
    mode: str
    matrix: Any
    tie: Any
    margins: Any
    active: list[Any]
    constants: dict[str, int | Fraction]
    soft: Any
    facts: Any
    tells_facts: bool
    rule: Any

    _observe: Callable[[int, int, Any, Any], None]  # the checker's one-update check, for what a replay stops at

    def observe_chunk(self, first: int, epoch: Epochs, rows: Int64Array, scores: Int64Array) -> None:
        """Check online updates first, first + 1, ... of `epoch`, one mistake each on `rows`.

        As `verify_perceptron.data.observers.ChunkObserver` says (scores past int64 as (m, L) limbs).
        The verdicts are those of calling `observe` on each update in turn. Where the C kernel
        was built, updates are replayed there (`verify_perceptron.check.replay`);
        where 128 bits do not hold them, in C in up to 1024 bits (`verify_perceptron.check.limb_replay`);
        past that, a chunk at once in Python integers (`verify_perceptron.check.wide_replay`); any
        update one stops at (a failed check, a violated claim) is left to `observe`.
        """
        m, t = len(rows), 0
        # one epoch for the whole chunk: a read-only view of it, in order by itself (no m-long array made and compared)
        epochs = np.asarray(epoch) if isinstance(epoch, np.ndarray) else np.broadcast_to(np.int64(epoch), (m,))
        if self.soft is not None:
            self.soft.observe_chunk(first, epochs, rows)
        if self.tells_facts:
            self.facts.observe_chunk(first, rows, scores)
        ordered = m == 0 or (epochs[0] >= max(self.epoch, 1)
                             and (not isinstance(epoch, np.ndarray) or bool((epochs[1:] >= epochs[:-1]).all())))
        replay = self._replay() if first == self.k + 1 and ordered else None
        if replay is not None and not (isinstance(rows, np.ndarray) and rows.dtype == np.int64
                                       and isinstance(scores, np.ndarray) and scores.dtype in (np.int64, object)):
            replay = None
        widens = (first == self.k + 1 and ordered and isinstance(rows, np.ndarray) and rows.dtype == np.int64
                  and isinstance(scores, np.ndarray))
        declined = 0  # refusals in a row (see below)
        while t < m:
            done = 0
            if replay is not None and self.w_sq < WIDE_SQ:  # every |W_j| < 2^63: the replay's int64 W
                self.W = self.W.astype(np.int64) if self.W.dtype == object else self.W
                done = self._replay_chunk(replay, rows[t:], scores[t:])
            limbs = self._limb_replay() if done == 0 and widens else None  # (built on the first call only)
            if limbs is not None:  # what 128 bits do not hold, in C in K limbs
                self.W = self.W.astype(object)
                done = self._replay_chunk(limbs, rows[t:], scores[t:])
            wide = (self._object_replay() if done == 0 and widens and (limbs is None or limbs.reason == 2)
                    else None)
            if wide is not None:  # past the widest limbs, a chunk at once in Python integers
                self.W = self.W.astype(object)
                done = self._replay_chunk(wide, rows[t:], scores[t:])
            if self.W.dtype == np.int64 and self.w_sq * self.matrix.max_norm_sq >= INT64_EXACT_SQ:
                self.W = self.W.astype(object)  # past the int64 guard: the Python path's products
            elif (self.W.dtype == object and not self.matrix.wide
                  and self.w_sq * self.matrix.max_norm_sq < INT64_EXACT_SQ):
                self.W = self.W.astype(np.int64)  # within it again, as `_observe` keeps it
            if done:
                t += done
                self.epoch = int(epochs[t - 1])
                declined = 0
                continue
            # No replay took update t: `observe` decides it. A replay's every call costs its set-up over the
            # rest of the chunk (the wide claims' slacks are made for all of it), so when replays decline
            # updates in a row, the next 1, 2, 4, ... go to `observe` before they are asked again: a replay
            # that declines every update costs O(m log m), not O(m^2)
            for _ in range(min(1 << declined, m - t)):
                self._observe(first + t, int(epochs[t]), [int(rows[t])], [int(score_values(scores[t:t + 1])[0])])
                t += 1
            declined = min(declined + 1, 20)

    def let_go_of_replays(self) -> None:
        """Let go of the replays' arrays (the samples, norms and margins in their widths), once every update is
        told: a chunk told after that builds them again (a replay that is off, None, stays off)."""
        self._compiled = None if self._compiled is None else False
        self._limbs = None if self._limbs is None else False
        self._wide = None if self._wide is None else False

    def _replay(self) -> CompiledReplay | None:
        """What the C replay needs, built once; None where it cannot run (then `observe` does it all)."""
        if self._compiled is False:
            self._compiled = None
            if self.mode == "online":
                self._compiled = compiled_replay(self.matrix, self.tie, self.margins,
                                                 [claim for claim, _ in self.active], self.constants)
        return self._compiled

    def _limb_replay(self) -> LimbReplay | SplitReplay | None:
        """What the replay in limbs needs, built once; None where it cannot run."""
        if self._limbs is False:
            self._limbs = None
            if self.mode == "online":
                self._limbs = limb_replay(self.matrix, self.tie, self.margins,
                                          [claim for claim, _ in self.active], self.constants)
        return self._limbs

    def _object_replay(self) -> ObjectReplay | None:
        """What the replay in Python integers needs, built once; None where it cannot run."""
        if self._wide is False:
            self._wide = None
            if self.mode == "online":
                self._wide = object_replay(self.matrix, self.tie, self.margins,
                                           [claim for claim, _ in self.active], self.constants)
        return self._wide

    def _replay_chunk(self, replay: CompiledReplay | LimbReplay | SplitReplay | ObjectReplay, rows: Any, scores: Any) -> int:
        """Replay updates in C until one needs `observe`; merge the verdicts; return how many were replayed."""
        failed = np.array([result.first_violation is not None for _, result in self.active], dtype=bool)
        state = (self.k, self.N, self.w_sq, self.w_ws, self.sum_N_xsq, self.sum_n_sq, self.n_max)
        done, after, verdicts = replay.run(self.W, self.counts, state, rows, scores, failed)
        base = self.k
        self.k, self.N, self.w_sq, self.w_ws, self.sum_N_xsq, self.sum_n_sq, self.n_max, _ = after
        self.rule.n_checked += done
        for (claim, result), scale, verdict in zip(self.active, replay.scales, verdicts):
            result.n_checked += done
            if verdict is None:
                continue
            value, at, _ = verdict  # (the quantities there are not needed: see `finish`)
            slack = Fraction(value, scale) if scale != 1 else value  # the claim's own slack, exactly
            if result.min_slack is None or slack < result.min_slack:
                result.min_slack, result.min_slack_at = slack, base + at + 1
        return done
