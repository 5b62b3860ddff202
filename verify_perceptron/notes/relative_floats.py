"""Float64 approximations of integers over a power of two, made from the integers: `relative_floats`.

`verify_perceptron.notes.soft_margin.choose_margin` compares its candidate
targets ρ in floating point on the margins over 2^s (s the bit length of
√B), so that nothing passes float64's range: each value's leading 64 bits,
rounded to a double, scaled by a power of two. For int64 arrays, Python
integers (in C where the data extension is built, else an operation at a
time over an object array) and margins held in limbs (`LimbMargins`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..data import kernel as _kernel
from ..data.limb_margins import LimbMargins

__all__ = ["relative_floats"]

#: Python integers shifted at a time by `_relative_ints` (each shifted value a new Python integer).
_PIECE = 2**14


def relative_floats(values: Any, shift: int) -> Any:
    """Float64 approximations of values_i / 2^shift for integers (an int64 array or a sequence of ints).

    Made from the integers, so nothing passes float64's range on the way: a value too small for the quotient is
    0 (of its sign, never of the other), one too large is infinite. Also for integers held in limbs (`LimbMargins`).

    Examples
    --------
    >>> relative_floats([3, -2**5000, 0], 4999).tolist()
    [0.0, -2.0, 0.0]
    >>> relative_floats(np.array([3, -8], dtype=np.int64), 3).tolist()
    [0.375, -1.0]
    """
    if isinstance(values, np.ndarray) and values.dtype == np.int64:
        return np.ldexp(values.astype(np.float64), -shift)
    if isinstance(values, LimbMargins):  # in C from the limbs, else this function's of their Python integers
        return values.relative(shift, otherwise=relative_floats)
    if len(values) and set(map(type, values)) == {int}:
        if _kernel.int_ratios is not None:  # in C, `_relative` value by value (13x quicker at 178 of 150 bits)
            _kernel.int_ratios(values, shift, out := np.empty(len(values)))
            return out
        return _relative_ints(np.array(values, dtype=object), shift)
    return np.array([_relative(int(v), shift) for v in values], dtype=np.float64)


def _relative_ints(values: Any, shift: int) -> Any:
    """`_relative` of each of `values` (a 1-d object array of Python integers), an operation at a time over the array
    rather than a Python call per value: the same leading bits (shifted right by the same amounts), the same rounding
    of each to a double (int to float is correctly rounded) and the same scaling by a power of two (C's ldexp; past
    float64's range ±inf, as `_relative` gives it).

    Examples
    --------
    >>> _relative_ints(np.array([3, -2**5000, 0, 2**70 + 1], dtype=object), 68).tolist()
    [1.0164395367051604e-20, -inf, 0.0, 4.0]

    `_PIECE` values at a time: each shifted value is a new Python integer (all at once, 0.45x the int64 data).
    """
    out = np.empty(len(values), dtype=np.float64)
    for start in range(0, len(values), _PIECE):
        piece = values[start:start + _PIECE]
        bits = np.frompyfunc(int.bit_length, 1, 1)(piece).astype(np.int64)
        drop = np.maximum(bits - 64, 0)
        top = (piece >> drop.astype(object)).astype(np.float64)  # each below 2^64 in magnitude
        with np.errstate(over="ignore", under="ignore"):
            out[start:start + _PIECE] = np.ldexp(top, drop - shift)
    return out


def _relative(value: int, shift: int) -> float:
    """value / 2^shift as a float64: the leading 64 bits of `value`, scaled by a power of two (math.ldexp)."""
    drop = max(0, abs(value).bit_length() - 64)  # float(value >> drop) is exact to within its last bits
    try:
        return math.ldexp(float(value >> drop), drop - shift)
    except OverflowError:
        return math.copysign(math.inf, value)
