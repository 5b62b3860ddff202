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
        blocks = _blocks(held, vector)
        if blocks is None:
            return None
        out = None
        for lo, part in blocks:
            out = np.empty((held.shape[0], part.shape[1]), dtype=np.int64) if out is None else out
            out[lo:lo + len(part)] = part
        return cls(np.zeros((0, 1), dtype=np.int64) if out is None else out)

    @classmethod
    def last_of(cls, held: LimbMatrix | None, vector: Sequence[int]) -> LimbMargins | None:
        """Every z_i·`vector` from the limbs `held.products` kept of its last product (`LimbMatrix.last`), where it
        was of `vector`; else None. The checker's margins against w* are Python integers made from such a
        product; the soft-margin check reads its own from the limbs instead (in C: no `as_limbs` of the integers).

        Examples
        --------
        >>> from verify_perceptron.data.limb_arrays import dyadic_limbs
        >>> Z = LimbMatrix(dyadic_limbs(np.array([[3, -4], [1, 1]]), np.array([[64, 64], [0, 0]]), 2))
        >>> LimbMargins.last_of(Z, [1, 1]) is None, Z.products([1, 1]).tolist() == [-(2**64), 2]
        (True, True)
        >>> LimbMargins.last_of(Z, [1, 1]).ints().tolist() == [-(2**64), 2], LimbMargins.last_of(Z, [1, 2]) is None
        (True, True)
        """
        last = None if held is None else held.last  # (read once: another thread may make a product meanwhile)
        return cls(last[1]) if last is not None and last[0] == tuple(map(int, vector)) else None

    @staticmethod
    def positive(held: LimbMatrix, vector: Sequence[int]) -> bool | None:
        """Whether some z_i·`vector` is > 0, exactly: `of`'s margins a block of rows at a time, up to the first
        block with one (of a reference u that the run visited, the first block, most often); None without C.

        Examples
        --------
        >>> from verify_perceptron.data.limb_arrays import dyadic_limbs
        >>> Z = LimbMatrix(dyadic_limbs(np.array([[3, -4], [1, 1]]), np.array([[64, 64], [0, 0]]), 2))
        >>> LimbMargins.positive(Z, [-1, -1]), LimbMargins.positive(Z, [0, 0]), LimbMargins.positive(Z, [1, -2])
        (True, False, True)
        """
        blocks = _blocks(held, vector)
        return None if blocks is None else any(LimbMargins(part).any_positive() for _, part in blocks)

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


def _blocks(held: LimbMatrix, vector: Sequence[int]) -> Iterator[tuple[int, Any]] | None:
    """(first row, the rows' z·`vector` in the fewest limbs that hold ‖z‖·‖vector‖) a block of `_ROWS` rows at a
    time (each made at `limb_scores`' full width, then cut: the lowest K limbs of a value that K limbs hold are its
    own), or None without the C scores."""
    if _kernel.limb_scores is None:
        return None
    values = [int(v) for v in vector]
    lw = limbs_for_bits(max((abs(v) for v in values), default=0).bit_length())
    W = int_limbs(values, lw)
    # |z_i·W| <= √(max ‖z‖² · ‖W‖²), so its bits are at most those of that root's integer part, plus one
    bound = math.isqrt(held.max_norm_sq * sum(v * v for v in values)) + 1
    ls = held.limbs.shape[2] + lw + 1
    K = min(limbs_for_bits(bound.bit_length()), ls)
    n = held.shape[0]

    def blocks() -> Iterator[tuple[int, Any]]:
        scores = np.empty((min(n, _ROWS), ls), dtype=np.int64)
        for lo in range(0, n, _ROWS):
            part = scores[:min(_ROWS, n - lo)]
            limb_scores(held.limbs[lo:lo + _ROWS], W, part)
            yield lo, part[:, :K]

    limb_scores = _kernel.limb_scores
    return blocks()
