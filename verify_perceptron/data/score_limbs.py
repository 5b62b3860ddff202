"""Integers as 64-bit limbs and back: a chunk's scores as the compiled passes write them (`score_values`),
and values cut into limbs (`as_limbs`, `as_halves`), two's complement over all the limbs.

(Moved out of `verify_perceptron.data.integers`, which imports them from here, unchanged.)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .limb_arrays import int_limbs, limb_values

__all__ = ["score_values", "as_halves", "as_limbs"]

#: `as_limbs` converts Python integers this many at a time.
_LIMB_BLOCK = 2**12


def score_values(scores: Any) -> Any:
    """A chunk of scores as values: an int64 (m,) array as it is; an int64 (m, L) array of L 64-bit limbs
    (each score's lowest 64 bits first, two's complement over all L) joined, in int64 where every one fits,
    else as an object array of Python integers.

    The compiled pass writes scores past int64 in limbs (two, "halves", for 128-bit sums), and the
    checker's C replay reads them so; only a reader that needs their values joins them.

    Examples
    --------
    >>> score_values(np.array([[-5, -1], [7, 0]], dtype=np.int64)).tolist()
    [-5, 7]
    >>> score_values(np.array([[0, -1], [1, 0]], dtype=np.int64)).tolist()  # -2^64 and 1
    [-18446744073709551616, 1]
    >>> score_values(np.array([[0, 0, 1], [3, 0, 0]], dtype=np.int64)).tolist()  # 2^128 and 3
    [340282366920938463463374607431768211456, 3]
    """
    if scores.ndim != 2:
        return scores
    low = scores[:, 0]
    sign = low >> 63
    if bool((scores[:, 1:] == sign[:, None]).all()):  # the higher limbs only extend the low one's sign
        return low.copy()
    return limb_values(scores)


def as_halves(values: Any) -> Any:
    """Integers below 2^127 in magnitude as an (m, 2) int64 array of halves: `as_limbs` with two limbs, as
    the compiled pass writes 128-bit scores and the C replay reads them; an (m, 2) array is returned as it is.

    Examples
    --------
    >>> as_halves(np.array([-5, 7], dtype=np.int64)).tolist()
    [[-5, -1], [7, 0]]
    >>> as_halves(np.array([-(2**80)], dtype=object)).tolist()
    [[0, -65536]]
    """
    return values if values.ndim == 2 else as_limbs(values, 2)


def as_limbs(values: Any, limbs: int) -> Any:
    """Integers in [-2^(64·limbs - 1), 2^(64·limbs - 1)) as an (m, limbs) int64 array: each value's lowest 64
    bits first, two's complement over all the limbs (`score_values` joins them back).

    Raises
    ------
    OverflowError
        When a value does not fit in `limbs` limbs; the message names the value's bit length.

    An int64 (m, L) array of limbs, L <= `limbs`, is sign-extended to `limbs` limbs.

    Examples
    --------
    >>> as_limbs(np.array([-5, 7], dtype=np.int64), 3).tolist()
    [[-5, -1, -1], [7, 0, 0]]
    >>> as_limbs(np.array([[0, -1], [1, 0]], dtype=np.int64), 3).tolist()  # -2^64 and 1, widened
    [[0, -1, -1], [1, 0, 0]]
    >>> score_values(as_limbs(np.array([-(2**150), 2**100 + 1], dtype=object), 3)).tolist() == [-(2**150), 2**100 + 1]
    True
    """
    if values.ndim == 2:
        extra = limbs - values.shape[1]
        if extra < 0:
            raise OverflowError(f"scores in {values.shape[1]} limbs do not fit in {limbs} limbs")
        if not extra:
            return values
        out = np.empty((values.shape[0], limbs), dtype=np.int64)  # one array, no temporary (hstack made two)
        out[:, :values.shape[1]] = values
        out[:, values.shape[1]:] = values[:, -1:] >> 63
        return out
    if values.dtype == np.int64:
        sign = values >> 63
        return np.stack((values,) + (sign,) * (limbs - 1), axis=1)
    exact = np.asarray(values, dtype=object)
    out = np.empty((len(exact), limbs), dtype=np.int64)
    try:  # each value's two's complement bytes (`int_limbs`): no NumPy object arithmetic, 2-3 times quicker;
        for lo in range(0, len(exact), _LIMB_BLOCK):  # a block at a time, so that its bytes stay small beside `out`
            out[lo:lo + _LIMB_BLOCK] = int_limbs(exact[lo:lo + _LIMB_BLOCK].tolist(), limbs)
        return out
    except OverflowError:
        top = 64 * limbs - 1
        high, low = int(exact.max()), int(exact.min())
        wide = high if high >= 2**top else low
        raise OverflowError(f"an integer of {abs(wide).bit_length()} bits does not fit in {limbs} limbs of 64 bits"
                            ) from None
