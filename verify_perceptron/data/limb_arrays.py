"""Integer arrays held in 64-bit limbs, made and read with NumPy alone: no Python integer per value.

An integer v of an array of shape S is held as L int64 limbs along a last
axis, shape S + (L,): v's lowest 64 bits first, two's complement over all L
(the layout of `verify_perceptron.data.integers.as_limbs`, which the compiled
passes read). Binary floats over one common power of two need about 94 bits
on standard normal data, past int64; held so, they take two int64 a value
where a Python integer takes about 40 bytes and a call to make.

`dyadic_limbs` makes m·2^s from the parts of a float (`numpy.frexp`),
`limb_values` joins limbs back into Python integers (only where something
asks for the values themselves), and `trailing_zeros`, `shifted_right` and
`magnitude_bits` are what lowest terms over a power of two need;
`common_factor` finds the common factor with any other denominator, and
`lowest_terms_facts` all three in one pass in C.

Examples
--------
>>> limbs = dyadic_limbs(np.array([3, -3, 0]), np.array([70, 0, 5]), 2)
>>> limb_values(limbs).tolist() == [3 * 2**70, -3, 0]
True
>>> trailing_zeros(limbs), magnitude_bits(limbs)
(0, 72)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import kernel as _kernel

__all__ = ["LimbMatrix", "NormRows", "dyadic_limbs", "int_limbs", "int64_norms", "row_ints", "limb_values", "limb_sum",
           "trailing_zeros", "shifted_right", "negated", "unsigned_rows", "unsigned_samples", "magnitude_bits",
           "limbs_for_bits", "common_factor", "lowest_terms_facts"]

_U64 = np.uint64


def limbs_for_bits(bits: int) -> int:
    """The fewest limbs that hold every integer of magnitude below 2^bits, and its negation.

    Examples
    --------
    >>> limbs_for_bits(63), limbs_for_bits(64), limbs_for_bits(127), limbs_for_bits(128)
    (1, 2, 2, 3)
    """
    return max(1, (bits + 64) // 64)  # |v| < 2^bits <= 2^(64 L - 1)


def dyadic_limbs(m: Any, shift: Any, limbs: int) -> Any:
    """m·2^shift in `limbs` limbs, elementwise, for int64 m with |m| < 2^62 and shift >= 0, when every value fits.

    With shift = 64q + r (0 <= r < 64), m·2^r spans limbs q and q + 1: its low
    64 bits are limb q, ``m >> (64 - r)`` (arithmetic: floor(m·2^r / 2^64)) is
    limb q + 1, the limbs below q are 0 and those above q + 1 repeat the sign.

    Examples
    --------
    >>> dyadic_limbs(np.array([-1, 5]), np.array([64, 63]), 3).tolist()
    [[0, -1, -1], [-9223372036854775808, 2, 0]]
    """
    m = np.asarray(m, dtype=np.int64)
    shift = np.asarray(shift, dtype=np.int64)
    q, r = shift >> 6, shift & 63
    low = (m.view(_U64) << r.astype(_U64)).view(np.int64)  # the low 64 bits, wrapped as two's complement
    high = (m >> 1) >> (63 - r)  # m >> (64 - r), also for r = 0 (the sign then, as |m| < 2^62)
    sign = m >> 63
    out = np.empty(m.shape + (limbs,), dtype=np.int64)
    for k in range(limbs):
        out[..., k] = np.where(q > k, 0, np.where(q == k, low, np.where(q + 1 == k, high, sign)))
    return out


def limb_values(limbs: Any) -> Any:
    """The integers held in `limbs` (shape S + (L,)) as an object array of shape S of Python ints.

    Past one limb they are read in C where the extension is built (`row_ints`: `verify_perceptron.data.kernel.limb_ints`),
    else from their bytes from `FROM_BYTES` limbs on and by NumPy object arithmetic below.

    Examples
    --------
    >>> limb_values(np.array([[0, 1], [-1, -1]])).tolist()
    [18446744073709551616, -1]
    >>> limb_values(np.array([[0, 0, 0, 0, 1]])).tolist() == [2**256]  # from the bytes (`FROM_BYTES`)
    True
    """
    if limbs.shape[-1] >= FROM_BYTES or (_kernel.limb_ints is not None and limbs.shape[-1] > 1):
        values = np.empty(math.prod(limbs.shape[:-1]), dtype=object)
        values[:] = row_ints(limbs.reshape(-1, limbs.shape[-1]))
        return values.reshape(limbs.shape[:-1])
    values = limbs[..., -1].astype(object)
    for k in range(limbs.shape[-1] - 2, -1, -1):
        values = (values << 64) | limbs[..., k].view(_U64).astype(object)
    return values


#: From this many limbs `limb_values` reads each integer from its bytes (`row_ints`, one `int.from_bytes` each):
#: a shift and an or of Python integers per limb cost more past three (measured on 569 rows: 0.13 against
#: 0.11 ms at four limbs, 10.2 against 0.35 ms at 63, a checker's margins against a certified w*).
FROM_BYTES = 4
#: Up to this many rows `LimbMatrix.products` keeps its last scores in limbs, ``last`` (direction, (n, K) limbs), for
#: `verify_perceptron.data.limb_margins.LimbMargins.last_of`: 32 bytes a row at K = 4 (448 at a certified w*'s 56
#: limbs, beside its Python integers of about the same size); none kept past the bundled sets' small data.
KEEP_SCORES = 2**12


def _lowest_bit(limb: Any) -> Any:
    """The index of the lowest set bit of each nonzero limb (read unsigned); 64 for a zero one."""
    word = limb.view(_U64)
    bit = word & (~word + _U64(1))  # the lowest set bit alone: a power of two, exact as a float64
    return np.where(word == 0, 64, np.frexp(bit.astype(np.float64))[1] - 1)


def trailing_zeros(limbs: Any) -> int | None:
    """The least number of trailing zero bits among the nonzero values (None when every value is 0): the
    largest power of two dividing them all.

    A value's trailing zeros are 64k plus those of its lowest nonzero limb k; the lowest limb that is
    nonzero anywhere gives the least of them (any value nonzero only higher up has at least 64 more).

    Examples
    --------
    >>> trailing_zeros(np.array([[0, 2], [8, 0], [0, 0]])), trailing_zeros(np.zeros((2, 2), dtype=np.int64))
    (3, None)
    """
    if limbs.size and bool((limbs[..., 0] & 1).any()):  # an odd value: no power of two divides them all
        return 0
    for k in range(limbs.shape[-1]):
        limb = limbs[..., k]
        nonzero = limb != 0
        if nonzero.any():
            return 64 * k + int(_lowest_bit(limb[nonzero]).min())
    return None


def common_factor(limbs: Any, q: int) -> int:
    """gcd(q, every value held in `limbs`), q > 0, read 1, 2, 4, ... rows at a time as Python integers and
    stopping where it reaches 1 (`lowest_terms_facts` does it in C for q < 2^63).

    Why it stops early: data read in lowest terms over the least common
    denominator (a file's cells, each reduced, over the lcm of their
    denominators) have no common factor with it, and only a factor that is
    there makes every value be read.

    Examples
    --------
    >>> common_factor(int_limbs([10**20, 3 * 10**20, 5 * 2**70], 2), 5**25), common_factor(int_limbs([7], 1), 5)
    (5, 1)
    """
    flat = limbs.reshape(-1, limbs.shape[-1])
    common, start, rows = q, 0, 1
    while common > 1 and start < flat.shape[0]:
        common = math.gcd(common, *limb_values(flat[start:start + rows]).tolist())
        start, rows = start + rows, 2 * rows
    return common


def lowest_terms_facts(limbs: Any, q: int) -> tuple[int, int | None, int]:
    """``(common_factor(limbs, q), trailing_zeros(limbs), magnitude_bits(limbs))``: what lowest terms over a
    denominator 2^a·q (q odd) need, in one pass in C (`kernel.limb_terms`; the gcd with q >= 2^63 from
    `common_factor`) where it was built.

    Examples
    --------
    >>> lowest_terms_facts(int_limbs([10**20, -5 * 2**70], 2), 5**25), lowest_terms_facts(int_limbs([0], 2), 5)
    ((5, 20, 73), (5, None, 0))
    """
    terms = _kernel.limb_terms
    if terms is None:
        return common_factor(limbs, q), trailing_zeros(limbs), magnitude_bits(limbs)
    common, zeros, bits = terms(np.ascontiguousarray(limbs.reshape(-1, limbs.shape[-1])), q if q < 2**63 else 1)
    return common if q < 2**63 else common_factor(limbs, q), None if zeros < 0 else zeros, bits


def shifted_right(limbs: Any, t: int) -> Any:
    """Every value divided by 2^t, for values that 2^t divides (an arithmetic shift, exact then).

    Examples
    --------
    >>> limb_values(shifted_right(dyadic_limbs(np.array([-3, 5]), np.array([70, 66]), 2), 66)).tolist()
    [-48, 5]
    """
    q, r = divmod(t, 64)
    L = limbs.shape[-1]
    sign = limbs[..., -1] >> 63
    words = [limbs[..., k] if k < L else sign for k in range(q, L + 1)]
    out = np.empty_like(limbs)
    for k in range(L):
        low = words[k] if k < len(words) else sign
        high = words[k + 1] if k + 1 < len(words) else sign
        if r == 0:
            out[..., k] = low
        else:  # the low word's top 64 - r bits, then r bits of the high one above them
            joined = (low.view(_U64) >> _U64(r)) | (high.view(_U64) << _U64(64 - r))
            out[..., k] = joined.view(np.int64)
    return out


def negated(limbs: Any) -> Any:
    """-v for every value v, modulo 2^(64 L) (two's complement: ~v + 1, the carry going up while limbs are 0).

    Examples
    --------
    >>> limb_values(negated(np.array([[0, 1], [5, 0], [0, 0]]))).tolist() == [-(2**64), -5, 0]
    True
    """
    out = np.empty_like(limbs)
    carry = np.ones(limbs.shape[:-1], dtype=bool)
    for k in range(limbs.shape[-1]):
        limb = limbs[..., k]
        out[..., k] = ~limb + carry  # ~limb + 1 wraps exactly when limb is 0: the carry goes on
        carry &= limb == 0
    return out


def unsigned_rows(Z: Any, y: Any, column: int, limbs: int, rows: slice = slice(None)) -> Any:
    """x_i = y_i·z_i in `limbs` limbs, z_i without its entry `column`: the rows `rows` of the numerators that
    a sample matrix z_i = y_i·(x_i with the bias at `column`) in limbs `Z` was made from (y_i = ±1).

    Modulo 2^(64 `limbs`), -v of v's lowest limbs is -v's lowest limbs: each x_i fits in `limbs` limbs, so
    its lowest limbs are x_i's. Negated a piece of rows at a time, within a twelfth of the result beside it.

    Examples
    --------
    >>> Z = int_limbs([-1, 3 * 2**70, -5, 1, 2**64, 0], 3).reshape(2, 3, 3)
    >>> X = unsigned_rows(Z, np.array([-1, 1]), 0, 2)
    >>> X.shape, limb_values(X).tolist() == [[-3 * 2**70, 5], [2**64, 0]]
    ((2, 2, 2), True)
    """
    X = np.delete(Z[rows, :, :limbs], column, axis=1)  # a copy, without the bias column
    negative = np.flatnonzero(np.asarray(y)[rows] < 0)
    step = max(1, len(X) // 12)
    for start in range(0, len(negative), step):
        piece = negative[start:start + step]
        X[piece] = negated(X[piece])
    return X


def unsigned_samples(Z: Any, y: Any, column: int) -> Any:
    """x_i = y_i·z_i as int64, z_i without its entry `column`: the int64 numerators a sample matrix
    z_i = y_i·(x_i with the bias at `column`) of int16, int32 or int64 entries `Z` was made from (y_i = ±1).

    Examples
    --------
    >>> Z = np.array([[-1, 3, -5], [1, 2**40, 0]], dtype=np.int64)
    >>> unsigned_samples(Z, np.array([-1, 1]), 0).tolist()
    [[-3, 5], [1099511627776, 0]]
    >>> unsigned_samples(np.array([[4, -2], [7, 1]], dtype=np.int16), np.array([-1, 1]), 1).tolist()
    [[-4], [7]]
    """
    keep = [j for j in range(Z.shape[1]) if j != column]
    X = np.empty((Z.shape[0], len(keep)), dtype=np.int64)
    np.multiply(Z[:, keep[0]:keep[-1] + 1], np.asarray(y, dtype=np.int64)[:, None], out=X)  # (keep is one range)
    return X


def magnitude_bits(limbs: Any) -> int:
    """max over the values of bit_length(|v|) (0 when every value is 0), exactly.

    A value's limbs XOR its sign are v for v >= 0 and u = ~v = |v| - 1 for v < 0:
    bit_length(|v|) is bit_length(u), but one more when u is 2^b - 1 (v = -2^b).
    So the longest u (or v) is read, then only that exception is looked for.

    Examples
    --------
    >>> magnitude_bits(np.array([[0, 1], [-1, -1], [5, 0]])), magnitude_bits(np.array([[0, -(2**63)]]))
    (65, 128)
    >>> magnitude_bits(np.array([[-4, -1]])), magnitude_bits(np.array([[-5, -1]])), magnitude_bits(np.array([[-1]]))
    (3, 3, 1)
    """
    L = limbs.shape[-1]
    sign = limbs[..., -1] >> 63
    best, k = 0, 0
    for k in range(L - 1, -1, -1):  # the highest limb nonzero anywhere holds the longest value
        top = int((limbs[..., k] ^ sign).view(_U64).max(initial=0))  # v, or ~v for a negative v
        if top:
            best = 64 * k + top.bit_length()
            break
    # a negative v with ~v = 2^best - 1 (all ones below bit `best`) is -2^best: best + 1 bits; looked for
    # among the negative values whose limb k is that of 2^best - 1, then on all their limbs
    ones = int_limbs([2**best - 1], L)[0]
    rows, flat_sign = limbs.reshape(-1, L), sign.reshape(-1)
    found = np.flatnonzero((flat_sign < 0) & ((rows[:, k] ^ flat_sign) == ones[k]))
    exception = found.size and bool(((rows[found] ^ flat_sign[found, None]) == ones).all(axis=1).any())
    return best + 1 if exception else best


def int_limbs(values: Any, limbs: int) -> Any:
    """Python integers (a sequence) as an int64 (len, limbs) array of limbs, each value's lowest 64 bits first.

    Each value's two's complement bytes, little-endian, are its limbs in order (in C where the extension is
    built, `verify_perceptron.data.kernel.int_limbs`, else ``int.to_bytes``: no NumPy object arithmetic, which
    costs more on the few values of a weight vector); OverflowError when one does not fit.

    Examples
    --------
    >>> int_limbs([-1, 2**64 + 3], 2).tolist()
    [[-1, -1], [3, 1]]
    """
    width = 8 * limbs
    if not isinstance(values, (list, tuple, np.ndarray)):
        values = list(values)  # (read twice where the first pass meets a value that is no Python int)
    if _kernel.int_limbs is not None and limbs >= 1:  # in C, into the array: no bytes object a value
        out = np.empty((len(values), limbs), dtype=np.int64)
        try:
            _kernel.int_limbs(values, out)
            return out
        except TypeError:  # not all Python ints: as below
            pass
    to_bytes = int.to_bytes  # (bound once, in a list: half the time of a generator calling int(v).to_bytes)
    try:
        joined = b"".join([to_bytes(v, width, "little", signed=True) for v in values])
    except TypeError:  # not all Python ints (NumPy integers, say): each one through int() first
        joined = b"".join([to_bytes(int(v), width, "little", signed=True) for v in values])
    return np.frombuffer(joined, dtype="<i8").astype(np.int64).reshape(-1, limbs)


def int64_norms(matrix: Any, biggest: int) -> Any | None:
    """Exact ‖z_i‖² of an int64 matrix whose |entries| are at most `biggest` < 2^63, as Python ints (an object
    array): each row's sum of squares in three limbs in C (`verify_perceptron.data.kernel.limb_norms`, the
    matrix read in place as one limb an entry: d < 2^62 squares below 2^126 sum below 2^190), then joined.
    None where it cannot: no C, not C-contiguous int64, or `biggest` >= 2^63. Four to five times quicker than
    int64 pieces (`verify_perceptron.data.int64_pieces`) from 100 x 5 to 569 x 31, and no copy.

    Examples
    --------
    >>> int64_norms(np.array([[2**63 - 1, 3], [-(2**62), 0]]), 2**63 - 1).tolist() == [(2**63 - 1)**2 + 9, 2**124]
    True
    """
    if (_kernel.limb_norms is None or matrix.dtype != np.int64 or not matrix.flags.c_contiguous
            or biggest >= 2**63):
        return None
    n, d = matrix.shape
    norms = np.empty((n, 3), dtype=np.int64)
    _kernel.limb_norms(matrix.reshape(n, d, 1), norms)
    return limb_values(norms)


def row_ints(limbs: Any) -> list[int]:
    """The integers of an int64 (m, L) array of limbs, as a list of Python ints (`int.from_bytes` of each row).

    Examples
    --------
    >>> row_ints(np.array([[0, 1], [-5, -1]])) == [2**64, -5]
    True
    """
    if _kernel.limb_ints is not None:  # (in C: no bytes object a value)
        return _kernel.limb_ints(np.ascontiguousarray(limbs, dtype=np.int64).reshape(-1, limbs.shape[-1]))
    joined = np.ascontiguousarray(limbs, dtype="<i8").tobytes()
    width = 8 * limbs.shape[-1]
    from_bytes = int.from_bytes  # (bound once: the lookup was a fifth of the loop)
    return [from_bytes(joined[k:k + width], "little", signed=True) for k in range(0, len(joined), width)]


#: `limb_sum` adds this many rows at a time: a column of 32-bit pieces then sums below 2^63 in int64.
_SUM_ROWS = 2**30


def limb_sum(limbs: Any) -> int:
    """The exact sum of the integers held in an int64 (m, L) array of limbs, as a Python int, with no Python
    integer per value: each limb's column cut into 32-bit pieces (unsigned, the top limb's high piece signed),
    each piece summed in int64 over at most 2^30 rows (below 2^62), the sums then joined.

    Examples
    --------
    >>> limb_sum(np.array([[0, 1], [-5, -1], [-1, 0]])) == 2**64 - 5 + 2**64 - 1
    True
    >>> limb_sum(np.zeros((0, 3), dtype=np.int64))
    0
    """
    total = 0
    top = limbs.shape[1] - 1
    for lo in range(0, len(limbs), _SUM_ROWS):
        block = limbs[lo:lo + _SUM_ROWS]
        for k in range(top + 1):
            column = block[:, k]
            low = (column & 0xFFFFFFFF).sum(dtype=np.int64)  # the low 32 bits, unsigned
            high = (column >> 32) if k == top else (column.view(_U64) >> _U64(32)).view(np.int64)
            total += (int(low) + (int(high.sum(dtype=np.int64)) << 32)) << (64 * k)
    return total


def _largest(norm_limbs: Any) -> int:
    """The largest of non-negative integers held in limbs (n, L), as a Python int (0 when there are none): from the
    top limb down, narrowed to the rows whose higher limbs are the largest; a limb 0 on every row narrows nothing,
    and one row left is the largest (digits 0 vs 1 standardized's five limbs: 5 NumPy calls where 20 were made).

    >>> _largest(np.array([[5, 0, 0], [-1, 0, 0], [0, 1, 0], [7, 1, 0]])) == 2**64 + 7, _largest(np.zeros((0, 2)))
    (True, 0)
    """
    rows = None  # (every row)
    for k in range(norm_limbs.shape[1] - 1, -1, -1) if len(norm_limbs) else ():
        limb = (norm_limbs[:, k] if rows is None else norm_limbs[rows, k]).view(_U64)
        if rows is None and (top := limb.max()) == 0:
            continue  # every row's limb is 0: all still tie
        rows = np.flatnonzero(limb == top) if rows is None else rows[limb == limb.max()]
        if len(rows) == 1:
            break
    return int(limb_values(norm_limbs[0 if rows is None else rows[0]])) if len(norm_limbs) else 0


class NormRows:
    """A `LimbMatrix`'s ‖z_i‖² read by index: Python integers made only for the rows asked for (an int index
    gives a 0-d array, an index array an object array), where ``matrix.norms`` makes n of them and keeps them.

    Examples
    --------
    >>> norms = NormRows(np.array([[0, 1, 0], [9, 0, 0]]))
    >>> len(norms), int(norms[0]) == 2**64, norms[np.array([1, 1])].tolist()
    (2, True, [9, 9])
    """

    def __init__(self, norm_limbs: Any) -> None:
        self.norm_limbs = norm_limbs

    def __len__(self) -> int:
        return len(self.norm_limbs)

    def __getitem__(self, rows: Any) -> Any:
        return limb_values(self.norm_limbs[rows])


class LimbMatrix:
    """An integer (n, d) matrix held in limbs (n, d, L), with each row's squared norm in limbs (n, 2L + 1).

    The norms are summed in C where it was built (`verify_perceptron.data.kernel.limb_norms`); `bits`
    is max bit_length(|entry|) (computed when not given), `max_norm_sq` the largest norm.

    Examples
    --------
    >>> m = LimbMatrix(dyadic_limbs(np.array([[3, -4]]), np.array([[64, 64]]), 2))
    >>> m.values().tolist() == [[3 * 2**64, -4 * 2**64]], m.max_norm_sq == 25 * 2**128, m.bits
    (True, True, 67)
    >>> m.products((1, 1)).tolist() == [-(2**64)]
    True
    """

    def __init__(self, limbs: Any, *, bits: int | None = None, norm_limbs: Any = None) -> None:
        self.limbs = np.ascontiguousarray(limbs, dtype=np.int64)
        self.bits = magnitude_bits(self.limbs) if bits is None else bits
        n, d, L = self.limbs.shape
        self.shape = (int(n), int(d))
        self.last: tuple[tuple[int, ...], Any] | None = None  # (`products`' last direction, its scores' limbs)
        if norm_limbs is None:
            norm_limbs = np.empty((n, 2 * L + 1), dtype=np.int64)  # squares below 2^(128L - 2), 2^62 of them
            if _kernel.limb_norms is not None:
                _kernel.limb_norms(self.limbs, norm_limbs)
            else:
                norm_limbs = int_limbs([sum(v * v for v in row) for row in self.values().tolist()], 2 * L + 1)
        self.max_norm_sq = _largest(norm_limbs)
        width = limbs_for_bits(self.max_norm_sq.bit_length())  # (2L + 1 limbs hold any; about 60% of that is used)
        # held in the fewest limbs (their values, >= 0, have zeros above): the engine's and the replay's norms at
        # that width are then this array itself, not copies (0.27x the int64 data each at d = 10, 2 limbs)
        self.norm_limbs = norm_limbs if width >= norm_limbs.shape[1] else np.ascontiguousarray(norm_limbs[:, :width])

    def values(self, rows: Any = slice(None)) -> Any:
        """The entries of `rows` (all by default) as Python integers, in an object array."""
        return limb_values(self.limbs[rows])

    def norms(self) -> Any:
        """Every ‖z_i‖² as a Python integer, in an object array."""
        return limb_values(self.norm_limbs)

    def norm_rows(self) -> NormRows:
        """The norms read by index (`NormRows`), without making them all."""
        return NormRows(self.norm_limbs)

    def norm_sum(self) -> int:
        """Σ‖z_i‖² exactly, from the norms' limbs (`limb_sum`): no Python integer per norm."""
        return limb_sum(self.norm_limbs)

    def norm_floats(self) -> Any:
        """Every ‖z_i‖² rounded once to the nearest double, or None (no C, or a norm of 1000 bits or more)."""
        if _kernel.limb_doubles is None or self.max_norm_sq.bit_length() >= 1000:
            return None
        out = np.empty((self.shape[0], 1), dtype=np.float64)
        _kernel.limb_doubles(self.norm_limbs[:, None, :], out)
        return out[:, 0]

    def doubles(self) -> Any:
        """Every entry rounded once to the nearest double, (n, d) float64, or None (no C, or 1000 bits or more)."""
        if _kernel.limb_doubles is None or self.bits >= 1000:
            return None
        out = np.empty(self.shape, dtype=np.float64)
        _kernel.limb_doubles(self.limbs, out)
        return out

    def products(self, direction: Any) -> Any:
        """Every z_i·direction (Python integers) exactly, as an object array, in C; None where it was not built."""
        if _kernel.limb_scores is None:
            return None
        lw = limbs_for_bits(max((abs(int(v)) for v in direction), default=0).bit_length())
        scores = np.empty((self.shape[0], self.limbs.shape[2] + lw + 1), dtype=np.int64)
        _kernel.limb_scores(self.limbs, int_limbs(direction, lw), scores)
        self.last = (tuple(map(int, direction)), scores) if len(scores) <= KEEP_SCORES else None
        return limb_values(scores)
