"""The compiled next-mistake scan, when it was built, and the NumPy reference it must equal.

The fast engine keeps integer weights W and integer samples z_i (the rows
of Z, labels folded in). Sample i is a mistake when its score
s_i = z_i·W is < 0, or is 0 and the note counts a tie as a mistake
(``tie[i]``). `first_mistake` finds the first mistake at or after a row,
`add_row` makes the update W += z_i.

`verify_perceptron._scan` is an optional C extension: `AVAILABLE` says
whether it imported; if not, `first_mistake` and `add_row` are None and
the caller keeps to NumPy (`first_mistake_reference` computes the same
answer, but scans every remaining row where the engine's galloping stops
early).

Precondition
------------
``‖W‖²·max_i ‖z_i‖² < 2^126``, the engine's int64 guard
(`verify_perceptron._intmath.INT64_EXACT_SQ`): by Cauchy-Schwarz every
partial sum of every score then fits in int64. Both implementations stay
exact when it fails: a score that does not fit in int64 raises
OverflowError, never comes back wrong.

Examples
--------
>>> Z = np.array([[1, 2], [3, -4], [0, 0]], dtype=np.int64)
>>> W = np.array([1, 1], dtype=np.int64)
>>> tie = np.array([False, False, True])
>>> scan = first_mistake or first_mistake_reference
>>> scan(Z, W, tie, 0)  # row 1 scores 3 - 4 = -1
(1, -1)
>>> scan(Z, W, tie, 2)  # row 2 scores 0, and a tie counts there
(2, 0)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["AVAILABLE", "IMPORT_ERROR", "add_row", "first_mistake", "first_mistake_reference"]

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1

FirstMistake = Callable[[Any, Any, Any, int], tuple[int, int]]
AddRow = Callable[[Any, Any, int], None]


def _load() -> tuple[FirstMistake | None, AddRow | None, str | None]:
    """The extension's two functions, or None twice and why it did not import."""
    try:
        scan = importlib.import_module(f"{__package__}._scan")
    except ImportError as error:
        return None, None, f"{type(error).__name__}: {error}"
    return scan.first_mistake, scan.add_row, None


#: ``first_mistake(Z, W, tie, start) -> (i, s)`` in C, or None; same contract as
#: `first_mistake_reference`, and Z, W, tie must also be C-contiguous.
first_mistake: FirstMistake | None
#: ``add_row(W, Z, i)``: W += Z[i] in place in C (OverflowError leaves W unchanged), or None.
add_row: AddRow | None
#: Why the extension did not import, or None if it did.
IMPORT_ERROR: str | None
first_mistake, add_row, IMPORT_ERROR = _load()
#: Did the compiled kernel import?
AVAILABLE: bool = first_mistake is not None


def _check_arguments(Z: Any, W: Any, tie: Any, start: int) -> None:
    """The extension's own argument checks and messages, bar contiguity, which NumPy does not need."""
    func = "first_mistake_reference()"
    for name, array, ndim, kinds in (("Z", Z, 2, "int64"), ("W", W, 1, "int64"), ("tie", tie, 1, "bool or uint8")):
        if not isinstance(array, np.ndarray):
            raise TypeError(f"{func}: {name} must be a NumPy array, got {type(array).__name__}")
        if array.dtype.name not in kinds.split(" or "):
            raise TypeError(f"{func}: {name} must hold {kinds} items, got dtype={array.dtype}")
        if array.ndim != ndim:
            raise ValueError(f"{func}: {name} must be {ndim}-D, got ndim={array.ndim}")
    n, d = Z.shape
    if W.shape[0] != d:
        raise ValueError(f"{func}: W has length {W.shape[0]} but Z has {d} columns (Z.shape=({n}, {d}))")
    if tie.shape[0] != n:
        raise ValueError(f"{func}: tie has length {tie.shape[0]} but Z has {n} rows")
    if not isinstance(start, (int, np.integer)):
        raise TypeError(f"{func}: start={start!r} must be an int, got {type(start).__name__}")
    if not 0 <= start <= n:
        raise ValueError(f"{func}: start={start!r} must satisfy 0 <= start <= n={n}")


def first_mistake_reference(Z: Any, W: Any, tie: Any, start: int) -> tuple[int, int]:
    """The first mistake at or after row `start`, in NumPy: what the C `first_mistake` must return.

    Parameters
    ----------
    Z : numpy.ndarray of int64, shape (n, d)
        The samples, labels folded in: row i is z_i.
    W : numpy.ndarray of int64, shape (d,)
        The weights.
    tie : numpy.ndarray of bool or uint8, shape (n,)
        Whether a score of exactly 0 is a mistake for row i.
    start : int
        The first row to look at, ``0 <= start <= n`` (n looks at none).

    Returns
    -------
    (int, int)
        ``(i, s)``: the first i >= start with s = Z[i]·W < 0, or == 0 and
        ``tie[i]``; ``(-1, 0)`` if there is none.

    Raises
    ------
    TypeError, ValueError
        An argument of the wrong dtype, shape or value, named in the message.
    OverflowError
        A row scanned before the first mistake has a score outside int64:
        the precondition ``‖W‖²·max‖z_i‖² < 2^126`` did not hold.

    Notes
    -----
    The product runs in int64 when ``max|Z| · Σ|W_j| < 2^63`` proves every
    partial sum fits (always the case under the precondition), and in
    Python integers otherwise, so the answer is exact for any int64 input.

    Examples
    --------
    Rows 1 and 2 both score 0, and only row 1 counts a tie as a mistake:

    >>> Z = np.array([[2, 1], [1, -1], [-1, 1]], dtype=np.int64)
    >>> W = np.array([1, 1], dtype=np.int64)
    >>> first_mistake_reference(Z, W, np.array([False, True, False]), 0)
    (1, 0)
    >>> first_mistake_reference(Z, W, np.array([False, True, False]), 2)
    (-1, 0)

    A score beyond int64 is an error, not a wrapped-around value:

    >>> Z, W = np.array([[2**62, 2**62]], dtype=np.int64), np.array([1, 1], dtype=np.int64)
    >>> first_mistake_reference(Z, W, np.zeros(1, dtype=bool), 0)
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    OverflowError: first_mistake_reference(): the score Z[0]·W = 9223372036854775808 does not fit in int64; ...
    """
    _check_arguments(Z, W, tie, start)
    rows = Z[start:]
    biggest = max(int(rows.max(initial=0)), -int(rows.min(initial=0)))
    if biggest * sum(abs(w) for w in W.tolist()) < 2**63:
        scores = rows @ W  # |any partial sum| <= max|z|·Σ|w_j| < 2^63: int64 is exact
    else:
        scores = rows.astype(object) @ W.astype(object)  # Python integers: exact at any size
    # A row stops the scan at its mistake, or earlier at a score int64 cannot hold.
    mistake = (scores < 0) | ((scores == 0) & tie[start:].astype(bool))
    unrepresentable = (scores < INT64_MIN) | (scores > INT64_MAX)
    stops = np.flatnonzero(mistake | unrepresentable)
    if stops.size == 0:
        return -1, 0
    i, s = start + int(stops[0]), int(scores[stops[0]])
    if not INT64_MIN <= s <= INT64_MAX:
        raise OverflowError(
            f"first_mistake_reference(): the score Z[{i}]·W = {s} does not fit in int64; "
            "the precondition ‖W‖²·max‖Z[i]‖² < 2^126 was violated"
        )
    return i, s
