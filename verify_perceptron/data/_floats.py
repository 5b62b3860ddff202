"""Binary floats as integers over one power of two, exactly, in bounded pieces.

Every finite float16, float32 or float64 is m·2^e with m an odd integer of
at most 53 bits (or 0); a block of them is split so with one `numpy.frexp`,
and the whole array is then m·2^(e + p) over the denominator 2^p, p the
largest -e. The array is read twice, a block of rows at a time (the
smallest and largest exponent first, then the integers), so that its
temporaries take a few tens of megabytes whatever its size: a 20-million
value array costs its int64 result and one block more.

Past int64 (about 94 bits on standard normal data) the numerators are made
straight into 64-bit limbs (`verify_perceptron.data.limb_arrays`), two int64 a
value there, with no Python integer made: each m·2^(e + p) is split by
shifts and masks. Over 2^p, p the largest -e of the odd mantissas, they
are in lowest terms already: the value of exponent -p has an odd numerator.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import kernel as _kernel
from .files import refuse_wide
from .limb_arrays import dyadic_limbs, limbs_for_bits

__all__ = ["NotFinite", "binary_bits", "binary_floats"]

#: Values converted at a time (the temporaries of one block are about 40 bytes a value).
BLOCK = 1 << 20


class NotFinite(ValueError):
    """A NaN or an infinity among the floats `binary_bits` reads (the caller names it: it knows its place)."""


def _parts(block: Any) -> tuple[Any, Any, Any]:
    """(m, e, nonzero) with block == m·2^e elementwise, m odd (0 for a zero, with e = 0)."""
    mantissa, exponent = np.frexp(block.astype(np.float64))  # mantissa·2^exponent, 1/2 <= |mantissa| < 1
    m = np.ldexp(mantissa, 53).astype(np.int64)  # every double is m·2^(exponent-53) with |m| < 2^53
    nonzero = m != 0
    # m odd (its trailing zeros moved into the exponent), so the smallest power below is the lowest terms' one
    zeros = np.where(nonzero, np.frexp((m & -m).astype(np.float64))[1] - 1, 0)
    return m >> zeros, np.where(nonzero, exponent.astype(np.int64) - 53 + zeros, 0), nonzero


def _top_bits(m: Any, e: Any) -> int:
    """max over the cells of bit_length(|m|) + e: the largest m·2^e has that many bits once e + p >= 0."""
    return int((np.frexp(np.abs(m).astype(np.float64))[1] + e).max())  # |m| < 2^53: its float and frexp exact


def binary_floats(a: Any, *, max_cells: int | None, source: str) -> tuple[Any, int]:
    """A finite 2-D float16/32/64 array as (integer numerators, 2^p) in lowest terms, exactly.

    The numerators are an int64 (n, d) array when every one is below 2^62 in
    magnitude, else an int64 (n, d, L) array of L 64-bit limbs each (lowest
    first, two's complement: `verify_perceptron.data.limb_arrays`), refused first
    (`verify_perceptron.data.files.refuse_wide`) when as Python integers they
    would take more memory than `max_cells` int64 values.

    Examples
    --------
    >>> numerators, denominator = binary_floats(np.array([[0.5, 0.25], [1.0, -2.0]]), max_cells=100, source="t")
    >>> numerators.tolist(), denominator
    ([[2, 1], [4, -8]], 4)
    >>> from verify_perceptron.data.limb_arrays import limb_values
    >>> limbs, denominator = binary_floats(np.array([[2.0**-1074, 2.0**1023]]), max_cells=1000, source="t")
    >>> limbs.shape, denominator == 2**1074, limb_values(limbs)[0].tolist() == [1, 2**2097]
    ((1, 2, 33), True, True)
    >>> binary_floats(np.array([[2.0**60, 0.5]]), max_cells=1, source="t")[0].dtype  # 2^61: below 2^62, so int64
    dtype('int64')
    """
    numerators, denominator, _ = binary_bits(a, max_cells=max_cells, source=source)
    return numerators, denominator


def binary_bits(a: Any, *, max_cells: int | None, source: str) -> tuple[Any, int, int]:
    """`binary_floats` and the bit length of its largest |numerator| (0 when every value is 0), which its
    exponents give (the largest m·2^(e + p)): in lowest terms over 2^p (the module's docstring), the numerators
    need no pass of `Dataset`'s own for its facts (`verify_perceptron.data.limb_arrays.lowest_terms_facts`).
    A NaN or an infinity raises `NotFinite`: the floats need no check of their own before.

    Examples
    --------
    >>> binary_bits(np.array([[0.5, -0.25], [3.0, 0.0]]), max_cells=100, source="t")[1:]  # 12/4: 4 bits
    (4, 4)
    >>> binary_bits(np.zeros((1, 2)), max_cells=100, source="t")[1:]
    (1, 0)
    >>> binary_bits(np.array([[1.0, np.nan]]), max_cells=100, source="t")
    Traceback (most recent call last):
    ...
    verify_perceptron.data._floats.NotFinite: t: a value is not finite
    """
    if _kernel.dyadic_range is not None:
        return _compiled(np.ascontiguousarray(a, dtype=np.float64), max_cells, source)
    if not np.isfinite(a).all():
        raise NotFinite(f"{source}: a value is not finite")
    n_rows, n_cols = a.shape
    low = top = None
    step = max(1, BLOCK // max(1, n_cols))
    for start in range(0, n_rows, step):
        m, e, nonzero = _parts(a[start:start + step])
        if nonzero.any():
            m, e = m[nonzero], e[nonzero]
            low = int(e.min()) if low is None else min(low, int(e.min()))
            top = _top_bits(m, e) if top is None else max(top, _top_bits(m, e))
    if low is None or top is None:
        return np.zeros(a.shape, dtype=np.int64), 1, 0
    power = max(0, -low)  # the denominator is 2^power
    bits = top + power  # the widest numerator's bit length, exactly
    wide = bits > 62
    if wide:
        refuse_wide(source, a.size, bits, max_cells)
    limbs = limbs_for_bits(bits)
    out = np.empty(a.shape + (limbs,) if wide else a.shape, dtype=np.int64)
    for start in range(0, n_rows, step):
        m, e, nonzero = _parts(a[start:start + step])
        shift = np.where(nonzero, e + power, 0)
        out[start:start + step] = dyadic_limbs(m, shift, limbs) if wide else m << shift
    return out, 2**power, bits


def _compiled(a: Any, max_cells: int | None, source: str) -> tuple[Any, int, int]:
    """`binary_floats` in C (`verify_perceptron.data.kernel.dyadic_range` and `dyadic_fill`): each double's
    m and e read from its bits in one pass, then the limbs written in another, no temporary array."""
    dyadic_range, dyadic_fill = _kernel.dyadic_range, _kernel.dyadic_fill
    assert dyadic_range is not None and dyadic_fill is not None  # (binary_floats comes here only then)
    try:
        found = dyadic_range(a)  # (its pass over the bits finds a NaN or an infinity: no pass of the caller's)
    except ValueError:
        raise NotFinite(f"{source}: a value is not finite") from None
    if found is None:
        return np.zeros(a.shape, dtype=np.int64), 1, 0
    low, top = found
    power = max(0, -low)
    bits = top + power
    wide = bits > 62
    if wide:
        refuse_wide(source, a.size, bits, max_cells)
    out = np.empty(a.shape + (limbs_for_bits(bits) if wide else 1,), dtype=np.int64)
    dyadic_fill(a, power, out)
    return (out if wide else out[..., 0]), 2**power, bits
