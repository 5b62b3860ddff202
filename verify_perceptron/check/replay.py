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
from ..data.integers import INT64_EXACT_SQ, ExactMatrix
from ..notes.claims import QUANTITIES, Claim, compile_program

__all__ = ["CompiledReplay", "compiled_replay"]

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
        return _kernel.check_online(
            self.Z, W, counts, self.tie, self.norms, self.margins, np.ascontiguousarray(rows),
            np.ascontiguousarray(scores), self.program, self.quantities, self.slots, (*state, self.limit), failed)


def compiled_replay(matrix: ExactMatrix, tie: Any, margins: Any, claims: Sequence[Claim],
                    constants: Mapping[str, int | Fraction]) -> CompiledReplay | None:
    """What the C replay needs, or None where it cannot run (no kernel, Python integers, a claim it cannot compile).

    `margins` are the scaled z_i·W* (zeros without a separator);
    `constants` the quantities fixed for the whole run, in the checker's units.
    """
    Z = matrix.exact
    if not (_kernel.AVAILABLE and Z.dtype != object and matrix.norms.dtype == np.int64 and margins.dtype == np.int64):
        return None
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
    return CompiledReplay(
        Z=np.ascontiguousarray(Z), tie=tie, norms=matrix.norms, margins=margins,
        program=program, scales=scales, quantities=quantities, slots=_SLOTS,
        limit=(INT64_EXACT_SQ - 1) // max(matrix.max_norm_sq, 1),
    )
