"""Rational cells as integer numerators over one common denominator, without a `Fraction` per cell.

A file's literals become pairs of integers (numerator, denominator) in
lowest terms: in C for a plain comma-separated table
(`verify_perceptron.data.kernel.rational_cells`), else one
`~verify_perceptron.data.rationals.rational_parts` per cell. The common
denominator is the lcm of the *distinct* denominators (a file of 200,000
cells usually holds a few dozen), grown in the order the values first
appear, and refused as soon as it would pass `MAX_DENOMINATOR_BITS` bits
(or the caller's limit): a few hundred cells ``1/p`` for distinct primes p
would otherwise make every numerator thousands of digits long and every
later step slow. The numerators are then scaled by ``lcm // denominator``
with one NumPy multiplication in int64 when every product provably fits,
in Python integers otherwise.

The result equals what `verify_perceptron.data.dataset.Dataset` makes of the
same values as `Fraction` objects: the least common denominator, and int64
numerators exactly when every one is below 2^62 in magnitude.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any, NoReturn

import numpy as np

from ..errors import DataError
from . import kernel as _kernel
from .files import refuse_wide
from .rationals import cell_parts, shown

__all__ = ["MAX_DENOMINATOR_BITS", "as_arrays", "check_limit", "over_common_denominator", "parse_cells", "read_table"]

#: Default largest size, in bits, of a dataset's common denominator (``--max-denominator-bits``).
MAX_DENOMINATOR_BITS = 4096
#: Numerators below this in magnitude are stored as int64, as `Dataset` stores them.
_INT64_SAFE = 2**62

#: Raises the reader's error for the cell at a flat index, given the parser's complaint.
Fail = Callable[[int, ValueError], NoReturn]
#: A cell's place and text for a message, by flat index: ``("d.csv:7: column x3", "1/1009")``.
Where = Callable[[int], "tuple[str, str]"]


def check_limit(max_bits: object) -> int:
    """`max_bits` as a positive int, else `DataError` naming it.

    Examples
    --------
    >>> check_limit(4096)
    4096
    >>> check_limit(0)
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.DataError: max_denominator_bits=0 must be a positive integer
    """
    if isinstance(max_bits, bool) or not isinstance(max_bits, (int, np.integer)) or max_bits < 1:
        raise DataError(f"max_denominator_bits={max_bits!r} must be a positive integer")
    return int(max_bits)


def parse_cells(cells: Iterable[str], fail: Fail) -> tuple[Any, Any]:
    """Every cell as (numerator, denominator) in lowest terms: two flat arrays, int64 when all fit, else object.

    Examples
    --------
    >>> def fail(k, error): raise error
    >>> [a.tolist() for a in parse_cells(["0.5", "-6/4", "1e-3"], fail)]
    [[1, -3, 1], [2, 2, 1000]]
    """
    nums: list[int] = []
    dens: list[int] = []
    for k, cell in enumerate(cells):
        try:
            n, d = cell_parts(cell)
        except ValueError as error:
            fail(k, error)
        nums.append(n)
        dens.append(d)
    return as_arrays(nums, dens)


def read_table(text: str, n_rows: int, n_cols: int, skip: int, fail: Fail) -> tuple[Any, Any] | None:
    """The cells of `text` (`n_rows` lines of `n_cols` comma-separated cells, no quotes), row by row
    without column `skip` (-1: none), as `parse_cells` returns them; None if a line has another width.

    The C reader takes every cell it can read exactly in int64; the few it
    leaves (huge numbers, and anything that is not a literal, so that the
    Python parser names the error) are read one by one.

    Examples
    --------
    >>> def fail(k, error): raise error
    >>> [a.tolist() for a in read_table("1/3,0.25,a\\n-2,7e2,b", 2, 3, 2, fail)]
    [[1, 1, -2, 700], [3, 4, 1, 1]]
    >>> read_table("1,2\\n3", 2, 2, -1, fail) is None
    True
    """
    reader = _kernel.rational_cells
    m = n_cols - (skip >= 0)
    if reader is None:
        rows = [line.split(",") for line in text.split("\n")]
        if len(rows) != n_rows or any(len(row) != n_cols for row in rows):
            return None
        return parse_cells([c for row in rows for j, c in enumerate(row) if j != skip], fail)
    nums = np.empty(n_rows * m, dtype=np.int64)
    dens = np.empty(n_rows * m, dtype=np.int64)
    try:
        left_over = reader(text.encode("utf-8"), n_rows, n_cols, skip, nums, dens)
    except ValueError:  # a line of another width
        return None
    if not left_over:
        return nums, dens
    lines = text.split("\n")
    left = np.flatnonzero(dens == 0)
    parts = []
    row, cells = -1, []
    for k in left.tolist():  # (in order: each line is split once, however many of its cells are left)
        if k // m != row:
            row = k // m
            cells = [c for j, c in enumerate(lines[row].split(",")) if j != skip]
        try:
            parts.append(cell_parts(cells[k % m]))
        except ValueError as error:
            fail(k, error)
    if all(abs(n) < 2**63 and d < 2**63 for n, d in parts):
        nums[left], dens[left] = [n for n, _ in parts], [d for _, d in parts]
        return nums, dens
    nums, dens = nums.astype(object), dens.astype(object)
    for k, (n, d) in zip(left.tolist(), parts):
        nums[k], dens[k] = n, d
    return nums, dens


def as_arrays(nums: list[int], dens: list[int]) -> tuple[Any, Any]:
    """Numerators and positive denominators as two flat arrays: int64 when every value fits, else object.

    Examples
    --------
    >>> [a.dtype.name for a in as_arrays([1, -2], [3, 1])], as_arrays([2**70], [1])[0].dtype.name
    (['int64', 'int64'], 'object')
    """
    if all(-(2**63) < n < 2**63 for n in nums) and all(d < 2**63 for d in dens):
        return np.array(nums, dtype=np.int64), np.array(dens, dtype=np.int64)
    return np.array(nums + [None], dtype=object)[:-1], np.array(dens + [None], dtype=object)[:-1]


def over_common_denominator(nums: Any, dens: Any, *, max_bits: int, where: Where, max_cells: int | None = None,
                            source: str = "<data>") -> tuple[Any, int]:
    """numerators[k] / denominators[k] (flat, lowest terms) as integers over their least common denominator.

    Returns the flat integer array (int64 when every entry is below 2^62 in
    magnitude, else object) and the denominator. Raises `DataError` naming
    the first value, in the arrays' order, with which the common denominator
    passes `max_bits` bits, or naming `source` when the Python integers
    would take more memory than `max_cells` int64 cells
    (`verify_perceptron.data.files.cell_units`), before they are made.

    Examples
    --------
    >>> nums, dens = np.array([1, -5, 2]), np.array([2, 6, 1])
    >>> scaled, common = over_common_denominator(nums, dens, max_bits=64, where=lambda k: ("t", ""))
    >>> scaled.tolist(), common
    ([3, -5, 12], 6)
    >>> over_common_denominator(nums, dens, max_bits=2, where=lambda k: (f"t.csv: cell {k}", "-5/6"))
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.DataError: t.csv: cell 1: '-5/6' makes the common denominator 6, 3 bits long, past the limit of 2 bits; raise it with --max-denominator-bits N (max_denominator_bits= in Python)
    """
    if nums.dtype != object and nums.size:  # the usual case: int64, and a few distinct denominators
        distinct = _distinct(dens)
        common = _grown_lcm(distinct.tolist(), None, max_bits, where)
        if common is None:  # past the limit: walk again in file order to name the value
            values, first = np.unique(dens, return_index=True)
            _grown_lcm(values.tolist(), first.tolist(), max_bits, where)
            raise AssertionError("the lcm in file order passes the limit too")  # (lcm is order-free)
        if common < 2**63:
            factors = np.int64(common) // dens
            # Every |n|·f below 2^62 (what Dataset keeps in int64): at once when max|n|·max f is, else
            # cell by cell, where |n|·f < 2^62 exactly when |n| <= (2^62 - 1) // f.
            if (int(np.abs(nums).max()) * int(factors.max()) < _INT64_SAFE
                    or bool(np.all(np.abs(nums) <= (_INT64_SAFE - 1) // factors))):
                return nums * factors, common
        _refuse_wide(int(np.abs(nums).max()), common // int(distinct[0]), nums.size, max_cells, source)
        factor_of = np.array([common // d for d in distinct.tolist()] + [None], dtype=object)[:-1]
        return _fitted(nums.astype(object) * factor_of[np.searchsorted(distinct, dens)]), common
    dens_list = dens.tolist()
    first_at: dict[int, int] = {}
    for k, d in enumerate(dens_list):
        first_at.setdefault(d, k)
    common = _grown_lcm(list(first_at), list(first_at.values()), max_bits, where)
    assert common is not None  # (the walk in file order raises instead)
    if nums.size:
        _refuse_wide(max(map(abs, nums.tolist())), common // min(first_at), nums.size, max_cells, source)
    factor_by_den = {d: common // d for d in first_at}
    scaled = [int(n) * factor_by_den[d] for n, d in zip(nums.tolist(), dens_list)]
    return _fitted(np.array(scaled + [None], dtype=object)[:-1]), common


def _refuse_wide(largest: int, factor: int, n_cells: int, max_cells: int | None, source: str) -> None:
    """Refuse, before they are made, integers of up to bits(largest numerator) + bits(largest factor) bits
    whose memory passes `max_cells` int64 cells (a bound: the largest numerator may have a smaller factor)."""
    bits = largest.bit_length() + factor.bit_length()
    if bits >= 63:
        refuse_wide(source, n_cells, bits, max_cells)


def _distinct(dens: Any) -> Any:
    """The distinct values of a positive int64 array, sorted (by counting when they are small)."""
    largest = int(dens.max())
    if largest <= 4 * dens.size + 4096:  # small denominators, the usual case: no sort
        return np.flatnonzero(np.bincount(dens))
    return np.unique(dens)


def _grown_lcm(distinct: list[int], first: list[int] | None, max_bits: int, where: Where) -> int | None:
    """lcm of `distinct`, checked at each growth; None when it passes `max_bits` bits, or, given
    `first` (where each value first appears), a `DataError` naming the value that takes it there."""
    common = 1
    for at, d in sorted(zip(first, distinct)) if first is not None else zip(distinct, distinct):
        if common % d:
            common = common // math.gcd(common, d) * d
            if common.bit_length() > max_bits:
                if first is None:
                    return None
                place, text = where(at)
                size = f"{common}, " if common.bit_length() <= 64 else ""
                raise DataError(
                    f"{place}: {shown(text)} makes the common denominator {size}{common.bit_length()} bits long, "
                    f"past the limit of {max_bits} bits; raise it with --max-denominator-bits N "
                    "(max_denominator_bits= in Python)")
    return common


def _fitted(scaled: Any) -> Any:
    """An object array of Python ints as int64 when every entry is below 2^62 in magnitude."""
    if not scaled.size or max(map(abs, scaled.tolist())) < _INT64_SAFE:
        return scaled.astype(np.int64)
    return scaled
