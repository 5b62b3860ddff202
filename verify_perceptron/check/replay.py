"""The checker's compiled path: a chunk of online updates replayed in C (`verify_perceptron.check.kernel`).

The replay recomputes each update's score from the data with 128-bit sums,
confirms the note's rule and evaluates every claim through the postfix
program `verify_perceptron.notes.claims.compile_program` makes from the
`Claim` objects themselves. It stops before any update that needs Python's
attention, which `verify_perceptron.check.checker.Checker.observe` then
decides: the verdicts are the same either way.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from . import kernel as _kernel
from ..data.integers import WIDE_SQ, ExactMatrix, as_halves, score_values
from ..notes.claims import QUANTITIES, Claim, compile_program

__all__ = ["CompiledReplay", "compiled_replay", "in_halves"]

_EMPTY = np.zeros(0, dtype=np.int64)
_EMPTY.flags.writeable = False


def in_halves(values: Any) -> Any:
    """Integers below 2^127 in magnitude as the C replay reads them past int64: int64 pairs, the low
    64 bits then the high ones (`as_halves`, flat); an int64 array is returned as it is, flat.

    Examples
    --------
    >>> in_halves(np.array([-(2**80), 5], dtype=object)).tolist()
    [0, -65536, 5, 0]
    >>> in_halves(np.array([[0, -65536], [5, 0]], dtype=np.int64)).tolist()
    [0, -65536, 5, 0]
    """
    if values.dtype == np.int64:
        return values.reshape(-1)
    return as_halves(values).reshape(-1)


#: The quantities the C replay computes at each update, in the order of its ``slots`` argument.
_REPLAYED = ("N", "k", "n", "n_max", "prev_w_sq", "prev_w_ws", "step_sq", "sum_N_xsq", "sum_n_sq", "w_sq", "w_ws")
_SLOTS = np.array([QUANTITIES.index(name) for name in _REPLAYED], dtype=np.int64)
_SLOTS.flags.writeable = False


@functools.lru_cache(maxsize=64)
def _program(claims: tuple[Claim, ...], denominators: tuple[tuple[str, int], ...]) -> tuple[Any, list[int]]:
    """`compile_program` as the C replay reads it (a read-only int64 array), once per claims and denominators."""
    code, scales = compile_program(claims, dict(denominators))
    program = np.array(code, dtype=np.int64)
    program.flags.writeable = False
    return program, scales


@dataclass(frozen=True)
class CompiledReplay:
    """A checker's arrays and compiled claims, as `verify_perceptron.check.kernel.check_online` reads them."""

    Z: Any
    tie: Any
    norms: Any
    margins: Any
    program: Any
    scales: list[int]
    quantities: tuple[int, ...]
    slots: Any
    limit: int

    def run(self, W: Any, counts: Any, state: tuple[int, ...], rows: Any, scores: Any,
            failed: Any) -> tuple[int, tuple[int, ...], list[Any]]:
        """Replay updates on `rows` from `state` until one needs Python: ``(done, state, verdicts)``.

        `state` is ``(k, N, ‖W‖², W·W*, Σ N_μ‖z_μ‖², Σ n², n_max)``; W and `counts`
        are updated in place; a verdict per claim is None, or its least slack
        ``(value, at, quantities)`` in the program's scaled integers.
        """
        assert _kernel.check_online is not None
        if scores.dtype == object:  # up to the first score 128 bits do not hold: the rest is for another replay
            wide = [t for t, v in enumerate(scores.tolist()) if not -(2**127) <= v < 2**127]
            rows, scores = (rows[:wide[0]], scores[:wide[0]]) if wide else (rows, scores)
        elif scores.ndim == 2 and scores.shape[1] > 2:
            joined = score_values(scores)
            past = (np.flatnonzero((joined >= 2**127) | (joined < -(2**127))).tolist() if joined.dtype == object
                    else [])
            end = past[0] if past else len(rows)
            rows, scores = rows[:end], as_halves(np.asarray(joined[:end]))
        return _kernel.check_online(
            self.Z, W, counts, self.tie, self.norms, self.margins, np.ascontiguousarray(rows),
            np.ascontiguousarray(in_halves(scores)), self.program, self.quantities, self.slots,
            (*state, self.limit), failed)


def compiled_replay(matrix: ExactMatrix, tie: Any, margins: Any, claims: Sequence[Claim],
                    constants: Mapping[str, int | Fraction]) -> CompiledReplay | None:
    """What the C replay needs, or None where it cannot run (no kernel, Python integers, a claim it cannot compile).

    `margins` are the scaled z_i·W* (zeros without a separator);
    `constants` the quantities fixed for the whole run, in the checker's units.
    """
    if not (_kernel.AVAILABLE and not matrix.wide and matrix.max_norm_sq < WIDE_SQ):
        return None  # (`wide` before `exact`: samples held in limbs are not made Python integers to learn it)
    Z = matrix.exact
    if margins.dtype != np.int64 and len(margins) and not (-(2**127) <= int(margins.min())
                                                           and int(margins.max()) < 2**127):
        return None  # past 128 bits
    denominators = {name: v.denominator for name, v in constants.items()
                    if isinstance(v, Fraction) and v.denominator != 1}
    try:
        program, scales = _program(tuple(claims), tuple(sorted(denominators.items())))
    except ValueError:
        return None
    quantities = tuple(int(v.numerator if isinstance(v, Fraction) else v) if (v := constants.get(name)) is not None
                       else 0 for name in QUANTITIES)
    if any(not -(2**127) <= v < 2**127 for v in quantities):
        return None
    # Past int64, the margins in halves: made only now, when the program holds (on float64 data the claims'
    # constants often pass int64, and the 128-bit replay is not made at all)
    margins = in_halves(margins) if margins.dtype != np.int64 else margins
    return CompiledReplay(
        Z=np.ascontiguousarray(Z), tie=tie, norms=_EMPTY if (halves := matrix.norm_halves()) is None else halves,
        margins=margins, program=program, scales=scales, quantities=quantities, slots=_SLOTS,
        limit=WIDE_SQ - 1,  # every |W_j| < 2^63; the replay sums scores and norms in 128 bits
    )
