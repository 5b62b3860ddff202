"""The user's float64 array as the floating-point filter's rows, instead of a float copy of the samples.

Binary floats over their common power of two 2^p are the integers x_ij·2^p, so the sample matrix's entries
are z_ij = y_i·x_ij·2^p, and the bias column's y_i·bias·2^p. Below 2^480 (`verify_perceptron.data.integers.
FLOAT_BITS`) each such integer is a double: x_ij·2^p multiplies by a power of two without rounding (the result
is an integer numerator, so it neither underflows nor, below 2^480, overflows), and the sign is exact. So the
double nearest to z_ij, which the filter reads (`verify_perceptron.run.filter`), is y_i·(x_ij·2^p), made from
the user's array as a row is read: the float copy the filter read (as large as the int64 data) is not made.

`BinaryRows` holds the user's array by reference for one fit (never writing it), and `let_go` ends that: a
fitted model must not read an array its user may change afterwards. `FilterRows` gives one sample matrix's
rows from it, by slices (for NumPy) and as the compiled limb pass's arguments (`c_form`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["BinaryRows", "FilterRows"]

#: A numerator below 2^FLOAT_BITS is a double; the same bound as `integers.FLOAT_BITS` (the filter's, t = 0).
_FLOAT_BITS = 480
#: The fewest cells (n·m) of an X a fit lends its filter (`BinaryRows.lent`): below, the float copy is at most 1 MiB,
#: and the pass over copied rows is quicker than one building each row from X (breast cancer standardized, d = 30,
#: 569 rows at 1,000 epochs: the limb pass 5.6 ms on the copy, 9.0 ms from X).
MIN_CELLS = 2**17


class BinaryRows:
    """A C-contiguous float64 array `X` (n, m) whose values are a dataset's, over `denominator` = 2^p.

    Examples
    --------
    >>> X = np.array([[0.5, -3.0], [0.0, 2.0**-3]])
    >>> rows = BinaryRows.of(X, 8)
    >>> rows.X is X, BinaryRows.of(X.astype(np.float32), 8), BinaryRows.of(X, 6)  # a copy; 6 is no 2^p
    (True, None, None)
    >>> rows.let_go(); rows.X is None
    True
    """

    def __init__(self, X: Any, denominator: int) -> None:
        self.X: Any = X
        self.denominator = denominator

    @classmethod
    def of(cls, X: Any, denominator: int) -> BinaryRows | None:
        """`X` by reference where it is a 2-D C-contiguous float64 NumPy array and `denominator` a power of two
        up to 2^1023 (an exact double); else None (a copy would be as large as the float copy it replaces)."""
        if (not isinstance(X, np.ndarray) or X.dtype != np.float64 or X.ndim != 2 or not X.flags.c_contiguous
                or denominator < 1 or denominator & (denominator - 1) or denominator > 2**1023):
            return None
        return cls(X, denominator)

    @classmethod
    def lent(cls, X: Any, denominator: int) -> BinaryRows | None:
        """`of`, for an `X` of `MIN_CELLS` cells or more (where the float copy's memory is worth a slower pass).

        Examples
        --------
        >>> BinaryRows.lent(np.zeros((2, 2)), 8) is None, BinaryRows.lent(np.zeros((2**16, 2)), 8) is None
        (True, False)
        """
        return cls.of(X, denominator) if getattr(X, "size", 0) >= MIN_CELLS else None

    def let_go(self) -> None:
        """Forget the array (the fit is over): its readers go back to the samples' own integers."""
        self.X = None


class FilterRows:
    """The rows z_i = y_i·(x_i, bias at `column`) of a sample matrix as the filter reads them: each entry the
    double nearest to the exact one, made from `source` a slice of rows at a time.

    Examples
    --------
    >>> X = np.array([[0.5, -3.0], [0.0, 2.0**-3]])
    >>> rows = FilterRows.of(BinaryRows(X, 8), np.array([1, -1]), 8, 0, 10)
    >>> rows[0:2].tolist()  # 8·y_i·(1, x_i): no negative zero
    [[8.0, 4.0, -24.0], [-8.0, 0.0, -1.0]]
    >>> rows.shape, rows.c_form()[2:]
    ((2, 3), (8.0, 8.0, 0))
    >>> FilterRows.of(BinaryRows(X, 8), np.array([1, -1]), 8, 0, 481) is None  # past 2^480: not every one a double
    True
    """

    def __init__(self, source: BinaryRows, y: Any, bias: int, column: int) -> None:
        self.source = source
        self.y = np.ascontiguousarray(y, dtype=np.int64)
        self.scale, self.bias, self.column = float(source.denominator), float(bias), column
        n, m = source.X.shape
        self.shape = (n, m + 1)

    @classmethod
    def of(cls, source: BinaryRows | None, y: Any, bias: int, column: int, bits: int) -> FilterRows | None:
        """The rows, where `source` holds its array and every entry (of at most `bits` bits) is a double."""
        if source is None or source.X is None or bits > _FLOAT_BITS or len(y) != source.X.shape[0]:
            return None
        return cls(source, y, bias, column)

    @property
    def alive(self) -> bool:
        """Whether the user's array is still held (the fit is not over)."""
        return self.source.X is not None

    def c_form(self) -> tuple[Any, Any, float, float, int]:
        """``(X, y, scale, bias, column)``: the filter's rows as `verify_perceptron.run.kernel.limb_pass` makes them."""
        if self.source.X is None:
            raise ValueError("the filter's rows were let go with the fit's end")
        return self.source.X, self.y, self.scale, self.bias, self.column

    def __getitem__(self, rows: slice) -> Any:
        """Rows `rows` (a slice) as a float64 array, the doubles the limb pass makes, bit for bit."""
        X, y, scale, bias, column = self.c_form()
        X, y = X[rows], y[rows]
        out = np.empty((len(X), X.shape[1] + 1), dtype=np.float64)
        features = out[:, 1:] if column == 0 else out[:, :-1]
        np.multiply(X, (y * scale)[:, None], out=features)  # (±2^p: every product exact)
        out[:, column] = y * bias
        out += 0.0  # a zero as +0.0, as the nearest double of the integer 0 (and the C pass's rows) are
        return out
