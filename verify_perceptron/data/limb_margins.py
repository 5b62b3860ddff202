"""Every sample's exact margin z_i·W held in 64-bit limbs, not as a Python integer each: `LimbMargins`.

On samples held in limbs (`verify_perceptron.data.limb_arrays.LimbMatrix`:
binary floats over one power of two, about 94 bits on randn data) the margins
of a reference u pass int64 (about 141 bits at 10^6 x 10). As Python integers
they were n objects of about 56 bytes (0.64x the int64 data at d = 10), then
listed, squared and cut into pieces as more Python integers. Here they stay as
the rows of an (n, K) int64 array, K the fewest limbs that Cauchy-Schwarz
allows (|z_i·W| <= ‖z_i‖·‖W‖): the soft-margin check's choice of ρ reads their
doubles (`relative`, in C), its squares are made from them in C
(`verify_perceptron.check.soft_squares.limb_squares`), and a Python integer
is made only for the few values asked for by index.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
import math
from typing import Any

import numpy as np

from . import kernel as _kernel
from .limb_arrays import LimbMatrix, int_limbs, limb_values, limbs_for_bits

__all__ = ["LimbMargins"]

#: Rows whose scores `LimbMargins.of` makes at a time (their full width, before the fewest limbs are kept).
_ROWS = 2**15
#: The most limbs `LimbMargins.relative` reads in C (the extension's own limit).
_RATIO_LIMBS = 64


class LimbMargins:
    """Integers held as the rows of an (n, K) int64 array of limbs (two's complement over K, lowest first).

    Examples
    --------
    >>> m = LimbMargins(int_limbs([3, -2**70, 0, 2**64], 2))
    >>> len(m), m[1] == -2**70, m.any_positive(), m.ints().tolist() == list(m) == [3, -2**70, 0, 2**64]
    (4, True, True, True)
    >>> m.relative(4, otherwise=lambda ints, shift: "no C").tolist() == [3 / 16, -(2.0**66), 0.0, 2.0**60]
    True
    >>> LimbMargins(int_limbs([0, -5], 1)).any_positive()
    False
    """

    def __init__(self, limbs: Any) -> None:
        self.limbs = limbs

    @classmethod
    def of(cls, held: LimbMatrix, vector: Sequence[int]) -> LimbMargins | None:
        """Every z_i·`vector` of the samples `held`, exactly, in the fewest limbs that hold ‖z‖·‖vector‖; None
        without the C scores (`verify_perceptron.data.kernel.limb_scores`).

        Examples
        --------
        >>> from verify_perceptron.data.limb_arrays import dyadic_limbs
        >>> Z = LimbMatrix(dyadic_limbs(np.array([[3, -4], [1, 1]]), np.array([[64, 64], [0, 0]]), 2))
        >>> LimbMargins.of(Z, [2**64, 1]).ints().tolist() == [3 * 2**128 - 4 * 2**64, 2**64 + 1]
        True
        """
        if _kernel.limb_scores is None:
            return None
        values = [int(v) for v in vector]
        lw = limbs_for_bits(max((abs(v) for v in values), default=0).bit_length())
        W = int_limbs(values, lw)
        # |z_i·W| <= √(max ‖z‖² · ‖W‖²), so its bits are at most those of that root's integer part, plus one
        bound = math.isqrt(held.max_norm_sq * sum(v * v for v in values)) + 1
        n, _ = held.shape
        ls = held.limbs.shape[2] + lw + 1
        K = min(limbs_for_bits(bound.bit_length()), ls)
        out = np.empty((n, K), dtype=np.int64)
        scores = np.empty((min(n, _ROWS), ls), dtype=np.int64)
        for lo in range(0, n, _ROWS):  # (a block of rows at full width: the lowest K limbs are the value's)
            part = scores[:min(_ROWS, n - lo)]
            _kernel.limb_scores(held.limbs[lo:lo + _ROWS], W, part)
            out[lo:lo + len(part)] = part[:, :K]
        return cls(out)

    def __len__(self) -> int:
        return len(self.limbs)

    def __getitem__(self, i: int) -> int:
        """The i-th value as a Python integer."""
        return int(limb_values(self.limbs[i:i + 1])[0])

    def __iter__(self) -> Iterator[int]:
        return iter(self.ints().tolist())

    def ints(self) -> Any:
        """Every value as a Python integer, in an object array (n of them: for the rare paths only)."""
        return limb_values(self.limbs)

    def any_positive(self) -> bool:
        """Whether some value is > 0: its top limb is positive, or 0 with a lower limb not 0."""
        top = self.limbs[:, -1]
        if bool((top > 0).any()):
            return True
        zero = np.flatnonzero(top == 0)
        return bool(len(zero) and self.limbs.shape[1] > 1 and (self.limbs[zero, :-1] != 0).any())

    def relative(self, shift: int, *, otherwise: Callable[[Any, int], Any]) -> Any:
        """Each value / 2^shift as a float64, bit for bit `verify_perceptron.notes.soft_margin.relative_floats` of
        the Python integers, in C (`verify_perceptron.data.kernel.limb_ratios`); where it is not built,
        ``otherwise(the Python integers, shift)``."""
        if _kernel.limb_ratios is None or self.limbs.shape[1] > _RATIO_LIMBS:
            return otherwise(self.ints().tolist(), shift)
        out = np.empty(len(self.limbs), dtype=np.float64)
        _kernel.limb_ratios(self.limbs, shift, out)
        return out
