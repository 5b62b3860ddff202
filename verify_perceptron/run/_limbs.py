"""The fast engine's samples and weights in 64-bit limbs, for the compiled pass past 128 bits.

Where the samples' integers pass int64 (binary floats over one power of two
of 64 bits and more, decimals with long numerators), or ‖W‖² passes the
128-bit pass's 2^126, the compiled pass `verify_perceptron.run._scan.limb_pass`
works on fixed-width limbs (`verify_perceptron.data.integers.as_limbs`): z
entries in ``lz`` limbs, W's in ``lw``, scores, norms and ‖W‖² in ``ls``,
chosen here from the exact bounds the run tracks. Its precondition is

    0 <= ‖W‖² <= limit < 2^(64·ls − 3),  limit < 2^(128·lw − 2),  every ‖z_i‖² < 2^(64·ls − 3),

so that every |W_j| <= ‖W‖ fits lw limbs and, by Cauchy-Schwarz, every
score's positive and negative parts (each at most ‖z‖·‖W‖ <=
(‖z‖² + ‖W‖²)/2) and every ‖W + z‖² fit ls limbs. An update past `limit`
stops the pass; the engine makes it in Python integers and chooses wider
limbs for what follows, up to `MAX_LIMBS`, then goes on in Python integers.

Examples
--------
>>> import numpy as np
>>> from verify_perceptron.data.integers import ExactMatrix
>>> layout = LimbLayout(ExactMatrix(np.array([[2**70, -1], [3, 2**65]], dtype=object)))
>>> layout.Z.shape, layout.shape(0)[:2]
((2, 2, 2), (3, 2))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..data.float_source import FilterRows
from ..data.integers import ExactMatrix, as_limbs
from ..data.limb_arrays import int_limbs, row_ints
from . import kernel as _kernel

__all__ = ["MAX_LIMBS", "MAX_ENTRY_LIMBS", "LimbLayout", "limbs_of", "values_of", "narrowed"]

_NONE = np.zeros(0, dtype=np.int64)  # no weights to compare with

#: The widest scores, norms and ‖W‖² the compiled pass takes (512 bits), and the widest entries (256 bits).
MAX_LIMBS = 8
MAX_ENTRY_LIMBS = 4
#: Bits of ‖W‖² growth a choice of limbs leaves room for before the pass stops at its limit.
_HEADROOM = 16


def limbs_of(values: Any, limbs: int) -> Any:
    """Integers (a sequence or an array) as an int64 (len, limbs) array, C-contiguous.

    Examples
    --------
    >>> limbs_of([-1, 2**64], 2).tolist()
    [[-1, -1], [0, 1]]
    """
    if isinstance(values, list):  # W and the cycle watch's states, at every call of the pass: no object array
        return int_limbs(values, limbs)
    return int_limbs(np.asarray(values, dtype=object).reshape(-1).tolist(), limbs)


def values_of(limbs: Any) -> list[int]:
    """The Python integers of an int64 (m, L) array of limbs.

    Examples
    --------
    >>> values_of(limbs_of([-(2**100), 7], 2))  == [-(2**100), 7]
    True
    """
    return row_ints(limbs)


def narrowed(scores: Any) -> Any:
    """A chunk's scores in limbs, in two limbs (halves, as the 128-bit pass writes them) where every one fits.

    Examples
    --------
    >>> narrowed(limbs_of([-5, 2**70], 4)).shape, narrowed(limbs_of([2**130], 4)).shape
    ((2, 2), (1, 4))
    """
    if scores.shape[1] > 2 and bool((scores[:, 2:] == (scores[:, 1:2] >> 63)).all()):
        return np.ascontiguousarray(scores[:, :2])
    return scores


class LimbLayout:
    """The samples of `matrix` in limbs, and the limbs a run's ‖W‖² calls for (`shape`), built once a run."""

    def __init__(self, matrix: ExactMatrix) -> None:
        n, d = matrix.shape
        if matrix.limbs is not None:  # held in limbs already: no Python integer is made
            biggest = int(matrix.biggest)
        else:
            exact = matrix.exact
            biggest = max(int(exact.max(initial=0)), -int(exact.min(initial=0))) if exact.size else 0
        self.lz = max(1, (biggest.bit_length() + 64) // 64)  # |z_j| < 2^(64·lz − 1)
        if matrix.limbs is not None:
            self.Z = np.ascontiguousarray(_widened(matrix.limbs, self.lz))
        else:
            self.Z = np.ascontiguousarray(as_limbs(exact.reshape(-1), self.lz).reshape(n, d, self.lz))
        self.max_norm_sq = int(matrix.max_norm_sq)
        self._matrix = matrix
        self._norms: dict[int, Any] = {}
        self._out: Any = None  # the scores' buffer, for the last width used

    @classmethod
    def of(cls, matrix: ExactMatrix) -> LimbLayout | None:
        """The layout of `matrix`, or None where the compiled pass is not there (`kernel.AVAILABLE`) or cannot
        take these samples: some ‖z_i‖² at 2^(64·MAX_LIMBS − 3) or more, or floats too wide for its filter."""
        if not _kernel.AVAILABLE or _kernel.limb_pass is None:
            return None
        if int(matrix.max_norm_sq) >= 2 ** (64 * MAX_LIMBS - 3 - _HEADROOM) or matrix.filter_floats()[1] != 0:
            return None
        return cls(matrix)

    def shape(self, norm_sq: int) -> tuple[int, int, int] | None:
        """``(ls, lw, limit)`` for a run at ‖W‖² = `norm_sq`, or None past the widest limbs."""
        need = max(norm_sq << _HEADROOM, self.max_norm_sq << _HEADROOM, 1).bit_length() + 3
        ls = max(2, -(-need // 64))
        if ls > MAX_LIMBS:
            return None
        lw = -(-(64 * ls - 1) // 128)  # 128·lw − 2 >= 64·ls − 3
        limit = 2 ** min(64 * ls - 3, 128 * lw - 2) - 1
        return ls, lw, limit

    def norms(self, ls: int) -> Any:
        """Every ‖z_i‖² in `ls` limbs, (n, ls), made once for each width."""
        if ls not in self._norms:
            held = None if self._matrix.held is None else self._matrix.held.norm_limbs
            # every norm is below 2^(64·ls − 3) (`shape`): the limbs past ls are zeros, and leaving them is exact
            self._norms[ls] = (limbs_of(self._matrix.norms, ls) if held is None
                               else np.ascontiguousarray(_widened(held[:, None, :], ls)[:, 0, :]))
        return self._norms[ls]

    def scan(self, weights: list[int], norm_sq: int, tie: Any, counts: Any, out: tuple[Any, Any], start: int,
             epochs: tuple[int, int, int, int, int, int, int], states: tuple[Any, Any],
             floats: tuple[Any, Any] | None) -> tuple[int, int, bool, int, int, list[int], int, list[int], Any]:
        """`verify_perceptron.run.kernel.limb_pass` on W = `weights` from row `start`.

        `out` is ``(out_i, out_e)``, `epochs` the pass's ``(epoch, made, max_epochs, stop_epoch, per_epoch,
        work)``, `states` the cycle watch's saved weights and W after the epoch before (lists of ints, or
        None). Returns ``(m, position, guarded, epoch, made, W, ‖W‖², previous, scores)``: the scores in
        limbs (`narrowed`), and `previous` W after the epoch before the one the pass ended in.
        """
        ls, lw, limit = self.shape(norm_sq) or (0, 0, 0)
        if not ls:
            raise ValueError(f"norm_sq of {norm_sq.bit_length()} bits is past the widest limbs")
        W = limbs_of(weights, lw)
        w_sq, bound = limbs_of([norm_sq, limit], ls)
        saved, previous = (_flat_limbs(state, lw) for state in states)
        if self._out is None or self._out.shape[1] != ls:
            self._out = np.empty((len(out[0]), ls), dtype=np.int64)
        m, position, guarded, epoch, made = _kernel.limb_pass(
            self.Z, W, tie, self.norms(ls), counts, out[0], self._out, start, w_sq, bound,
            (out[1], saved, previous, *epochs), _c_filter(floats))
        return (m, position, guarded, epoch, made, values_of(W), values_of(w_sq[None, :])[0],
                values_of(previous.reshape(-1, lw)), narrowed(self._out[:m]))


def _widened(limbs: Any, width: int) -> Any:
    """(n, d, L) limbs in `width` limbs each: the high ones cut (they only repeat the sign: the caller knows
    the values fit) or the sign repeated.

    Examples
    --------
    >>> _widened(np.array([[[-5, -1, -1]]]), 1).tolist(), _widened(np.array([[[-5]]]), 2).tolist()
    ([[[-5]]], [[[-5, -1]]])
    """
    L = limbs.shape[2]
    if width <= L:
        return limbs[:, :, :width]
    return np.concatenate([limbs, np.repeat(limbs[:, :, -1:] >> 63, width - L, axis=2)], axis=2)


def _flat_limbs(state: Any, lw: int) -> Any:
    """A state of the cycle watch in `lw` limbs each, flat; empty when unknown or too wide to be W."""
    if state is None or not len(state):
        return _NONE
    try:
        return limbs_of(state, lw).reshape(-1)
    except OverflowError:
        return _NONE


def _c_filter(floats: tuple[Any, Any] | None) -> tuple[Any, Any] | None:
    """The filter ``(Zf, radius)`` as `limb_pass` reads it: Zf an array, or `FilterRows`' arguments, the rows made
    in C from the user's binary floats as they are read (the same doubles; no float copy of the samples)."""
    return floats if floats is None or not isinstance(floats[0], FilterRows) else (floats[0].c_form(), floats[1])
