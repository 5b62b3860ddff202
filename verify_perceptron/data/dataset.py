"""The exact `Dataset`: rational samples stored once as integers over one common
denominator, with labels in {-1, +1}, and `from_arrays`, which builds one from
values in memory (lists, NumPy arrays, pandas DataFrames: `verify_perceptron.data.arrays`).

The file readers live beside it (`verify_perceptron.data.readers.load_dataset`
chooses among `~verify_perceptron.data.csv_files.load_csv`,
`~verify_perceptron.data.libsvm_files.load_libsvm` and
`~verify_perceptron.data.numpy_files.load_numpy`). Every one converts at the
boundary, once: decimal text through
`verify_perceptron.data.rationals.parse_rational` (``"0.1"`` is 1/10), binary
floats through `Fraction.from_float` (and the dataset says so in
`Dataset.binary_float`). Whatever cannot be read exactly raises `DataError`
naming the source, the line and the value.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from ..errors import DataError, InvalidArgument
from ._labels import label_value, map_labels
from .arrays import ExactTable, column_name, feature_names_of, exact_labels, exact_positive, exact_table, holds_floats
from .float_source import BinaryRows
from .integers import ExactMatrix
from .limb_arrays import (limb_values, limbs_for_bits, lowest_terms_facts, shifted_right, unsigned_rows,
                          unsigned_samples)
from .rationals import shown_value
from .row_index import RowIndex, check_index_column, index_columns

__all__ = ["Dataset", "from_arrays", "from_table", "require_dataset"]


class Dataset:
    """Labelled rational data: ``X[i]`` is sample i, ``y[i]`` its label (+1 or -1).

    The values are stored once, exactly, as an integer matrix over one common
    denominator: ``X[i][j] == Fraction(numerators[i, j], denominator)``, in
    lowest terms over the whole matrix. Scaling every sample by the same
    positive number changes no decision of any of the five perceptrons, so
    the fast engine works on `numerators` directly; `X` gives the same values
    as `Fraction` for code that reads like the notes.

    Parameters
    ----------
    X : sequence of sequences of Fraction, optional
        The samples, all of the same dimension, without any bias input.
    y : sequence of int
        Labels in {-1, +1}.
    source : str
        Where the data came from (a path or ``example:NAME``).
    feature_names : sequence of str
        One name per feature (default ``x1, x2, ...``).
    binary_float : bool
        True when the values were read from binary floating point and converted
        exactly (so ``0.1`` was the double nearest to 1/10).
    labels : (str, str)
        The original spelling of the negative and the positive label.
    default_convention : str, optional
        The convention an example's note uses.
    numerators, denominator : array of int and int, optional
        The values as integers over one positive denominator, instead of `X`.
    limbs : int64 array of shape (n, d, L), optional
        The numerators in 64-bit limbs instead (lowest first, two's complement:
        `verify_perceptron.data.limb_arrays`), as binary floats past int64 are read;
        `numerators` is then made from them only when asked for.
    lowest_bits : int, optional
        Only with `limbs` in lowest terms over `denominator` with no common power of two (as `binary_bits` makes
        them): the largest |numerator|'s bit length, so that no pass over them finds it (`lowest_terms_facts`).
    row_index : RowIndex, optional
        The leading columns of the file or DataFrame read as its row index
        and left out of the samples (`verify_perceptron.data.row_index`).

    Examples
    --------
    >>> data = Dataset(X=((Fraction(1, 2), Fraction(1, 3)), (Fraction(0), Fraction(1))), y=(1, -1))
    >>> data.n_samples, data.n_features, data.denominator, data.numerators.tolist()
    (2, 2, 6, [[3, 2], [0, 6]])
    >>> data.X[0]
    (Fraction(1, 2), Fraction(1, 3))
    """

    def __init__(
        self,
        X: Sequence[Sequence[Fraction]] | None = None,
        y: Sequence[int] | np.ndarray[Any, np.dtype[np.integer[Any]]] = (),
        source: str = "<memory>",
        feature_names: Sequence[str] = (),
        binary_float: bool = False,
        labels: tuple[str, str] = ("-1", "1"),
        default_convention: str | None = None,
        *,
        numerators: Any = None,
        denominator: int = 1,
        row_index: RowIndex | None = None,
        limbs: Any = None,
        lowest_bits: int | None = None,
    ) -> None:
        self.source = source
        #: The columns read as the row index and left out, or None.
        self.row_index = row_index
        self._numerators: Any = None
        self._bits: int | None = None  # bit_length of the largest |numerator|, where known
        self._limbs: Any = None  # `limbs`; None too while they rest on a sample matrix's (`_lent`)
        self._lent: tuple[Any, int, int] | None = None  # (the matrix's limbs, its bias column, L): `rest_on`
        #: The user's float64 array of these values while a fit holds it (`float_source.BinaryRows`), or None.
        self.binary_rows: BinaryRows | None = None
        if X is not None:
            numerators, denominator = _common_denominator(X, source)
        elif numerators is None and limbs is not None:
            numerators, self._limbs, denominator, self._bits = _lowest_limbs(limbs, denominator, source, lowest_bits)
            self._numerators = numerators
        if numerators is None and self._limbs is None:
            raise DataError(f"{source}: no samples")
        if self._limbs is None:
            self._numerators, self.denominator = _lowest_terms(numerators, denominator, source)
        else:
            self.denominator = denominator
        held = self._limbs if self._limbs is not None else self._numerators
        self._shape = (int(held.shape[0]), int(held.shape[1]))  # (samples, features)
        labels_in = np.asarray(y)
        if labels_in.dtype.kind not in "iu" or labels_in.ndim != 1:  # Fractions, floats, ...: one by one
            labels_in = np.array([label_value(label, i, source) for i, label in enumerate(y)], dtype=np.int64)
        self.binary_float = binary_float
        self.labels = labels
        self.default_convention = default_convention
        if len(labels_in) != self.n_samples:
            raise DataError(f"{source}: {self.n_samples} samples but {len(labels_in)} labels")
        wrong = np.flatnonzero((labels_in != 1) & (labels_in != -1))
        if wrong.size:
            i = int(wrong[0])
            raise DataError(f"{source}: label y[{i}]={int(labels_in[i])!r} must be -1 or +1")
        #: The labels as an int64 array (``y`` holds them as a tuple of ints).
        self.y_array = labels_in.astype(np.int64)
        self.y_array.flags.writeable = False
        self.y: tuple[int, ...] = tuple(self.y_array.tolist())
        self.feature_names = feature_names_of(feature_names, self.n_features, source)
        if self.y_array.min() == self.y_array.max():
            raise DataError(f"{source}: only one class (label {self.y[0]:+d}); the perceptron needs two")
        self._X: tuple[tuple[Fraction, ...], ...] | None = None
        self._exact: ExactMatrix | None = None

    @property
    def limbs(self) -> Any:
        """The numerators in 64-bit limbs, (n, d, L) int64, when they pass int64 and were given so; else None
        (made again from the sample matrix's limbs on first use once they rest on them: `rest_on`)."""
        lent = self._lent  # (read once: two threads may ask; each then makes the same limbs)
        if lent is not None and lent[2]:  # (lent[2] is 0 for int64 numerators resting on the matrix: no limbs)
            self._limbs, self._lent = unsigned_rows(lent[0], self.y_array, lent[1], lent[2]), None
        return self._limbs

    def limb_rows(self, rows: slice) -> Any:
        """``limbs[rows]``, made for those rows alone while the limbs rest on a sample matrix's; else None."""
        lent = self._lent
        if lent is None or not lent[2]:
            return None if self._limbs is None else self._limbs[rows]
        return unsigned_rows(lent[0], self.y_array, lent[1], lent[2], rows)

    def numerator_rows(self, rows: slice) -> Any:
        """``numerators[rows]`` when int64 (made for those rows alone while they rest on a sample matrix), else None."""
        lent, held = self._lent, self._numerators
        if lent is not None and not lent[2]:
            return unsigned_samples(lent[0][rows], self.y_array[rows], lent[1])
        return held[rows] if held is not None and held.dtype == np.int64 else None

    def rest_on(self, Z: Any, column: int) -> None:
        """Let go of `limbs` (or int64 `numerators`) for the sample matrix z_i = y_i·(x_i, bias at `column`, first or
        last) made of them in limbs (or int16..int64) `Z`: read, they are made from it again (`unsigned_rows`,
        `unsigned_samples`). A run's matrix lives with its trace: the data were held twice.

        Examples
        --------
        >>> from verify_perceptron.data.samples import _limb_matrix
        >>> data = Dataset(limbs=np.array([[[3, 5], [-1, -1]], [[0, 1], [7, 0]]]), y=(-1, 1))
        >>> before = data.limbs
        >>> data.rest_on(_limb_matrix(data, 1, True).limbs, 0)
        >>> data._limbs is None, data.n_features, bool((data.limb_rows(slice(1)) == before[:1]).all())
        (True, 2, True)
        >>> bool((data.limbs == before).all()), data._lent is None
        (True, True)
        """
        n, d = self._shape
        if self._exact is not None or Z.shape[:2] != (n, d + 1) or column not in (0, d):
            return
        if self._limbs is not None and Z.ndim == 3 and Z.shape[2] >= self._limbs.shape[2]:
            self._lent, self._limbs = (Z, column, int(self._limbs.shape[2])), None
        elif (self._limbs is None and Z.ndim == 2 and Z.dtype in (np.int16, np.int32, np.int64)
              and self._numerators is not None and self._numerators.dtype == np.int64):
            self._lent, self._numerators = (Z, column, 0), None

    @property
    def numerators(self) -> Any:
        """The samples' integers over `denominator`: an int64 array, or Python integers (made from `limbs`
        on first use)."""
        lent = self._lent
        if self._numerators is None and lent is not None and not lent[2]:
            self._numerators, self._lent = unsigned_samples(lent[0], self.y_array, lent[1]), None
        if self._numerators is None:
            self._numerators = limb_values(self.limbs)
        return self._numerators

    @property
    def numerator_bits(self) -> int:
        """The bit length of the largest |numerator| (known from the limbs, else computed on first use)."""
        if self._bits is None:
            self._bits = max((abs(int(v)) for v in self.numerators.ravel().tolist()), default=0).bit_length() \
                if self.numerators.dtype == object else max(int(self.numerators.max()), -int(self.numerators.min())
                                                             ).bit_length()
        return self._bits

    @property
    def X(self) -> tuple[tuple[Fraction, ...], ...]:
        """The samples as exact `Fraction` tuples (built on first use)."""
        if self._X is None:
            d = self.denominator
            self._X = tuple(tuple(Fraction(v, d) for v in row) for row in self.numerators.tolist())
        return self._X

    @property
    def exact(self) -> ExactMatrix:
        """`numerators` wrapped for exact, fast products with integer vectors (built on first use)."""
        if self._exact is None:
            self._exact = ExactMatrix(None, limbs=self.limbs) if self.limbs is not None else ExactMatrix(
                self.numerators)
        return self._exact

    @property
    def row_norms_sq(self) -> list[int]:
        """``‖numerators[i]‖²`` for each sample, exactly (so ‖x_i‖² is this over denominator²)."""
        return self.exact.norms_sq

    @property
    def n_samples(self) -> int:
        """Number of samples."""
        return self._shape[0]

    @property
    def n_features(self) -> int:
        """Dimension of a sample, without the bias input."""
        return self._shape[1]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Dataset):
            return NotImplemented
        same_limbs = self.limbs is not None and other.limbs is not None and self.limbs.shape == other.limbs.shape
        return (
            self.denominator == other.denominator
            and (self.n_samples, self.n_features) == (other.n_samples, other.n_features)
            and (bool((self.limbs == other.limbs).all()) if same_limbs
                 else bool((self.numerators == other.numerators).all()))
            and (self.y, self.source, self.feature_names, self.binary_float, self.labels, self.row_index)
            == (other.y, other.source, other.feature_names, other.binary_float, other.labels, other.row_index)
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Dataset(source={self.source!r}, n_samples={self.n_samples}, n_features={self.n_features})"

    def reordered(self, order: Sequence[int]) -> Dataset:
        """The same data presented in another order (``order[i]`` is the old index).

        Examples
        --------
        >>> from verify_perceptron.data.examples import example
        >>> example("and").reordered([3, 2, 1, 0]).y
        (1, -1, -1, -1)
        """
        if sorted(order) != list(range(self.n_samples)):
            raise ValueError(f"order={shown_value(list(order))} is not a permutation of range({self.n_samples})")
        return Dataset(
            y=tuple(self.y[i] for i in order),
            source=self.source,
            feature_names=self.feature_names,
            binary_float=self.binary_float,
            labels=self.labels,
            default_convention=self.default_convention,
            numerators=None if self.limbs is not None else self.numerators[list(order)],
            denominator=self.denominator,
            row_index=self.row_index,
            limbs=None if self.limbs is None else self.limbs[list(order)],
        )


#: Largest magnitude kept in an int64 array; larger values use Python integers (dtype object).
_INT64_SAFE = 2**62


def _integer_array(rows: Any) -> Any:
    """An int64 array when every value fits comfortably, else an object array of Python ints."""
    flat_max = max((abs(int(v)) for row in rows for v in row), default=0)
    if flat_max < _INT64_SAFE:
        return np.array(rows, dtype=np.int64).reshape(len(rows), -1)
    array = np.empty((len(rows), len(rows[0]) if rows else 0), dtype=object)
    for i, row in enumerate(rows):
        array[i, :] = [int(v) for v in row]
    return array


def _common_denominator(X: Sequence[Sequence[Fraction]], source: str) -> tuple[Any, int]:
    """The samples as integer numerators over their least common denominator, checked rectangular."""
    rows = [tuple(row) for row in X]
    if not rows:
        raise DataError(f"{source}: no samples")
    width = len(rows[0])
    for i, row in enumerate(rows):
        if len(row) != width:
            raise DataError(f"{source}: sample {i} has {len(row)} features, sample 0 has {width}")
    if width == 0:
        raise DataError(f"{source}: samples have no features")
    common = 1
    for row in rows:
        for value in row:
            common = math.lcm(common, Fraction(value).denominator)
    ints = [[(Fraction(v).numerator * (common // Fraction(v).denominator)) for v in row] for row in rows]
    return _integer_array(ints), common


def _lowest_terms(numerators: Any, denominator: int, source: str) -> tuple[Any, int]:
    """Divide numerators and denominator by their common factor, so equal data compare equal."""
    array = np.asarray(numerators)
    if array.ndim != 2 or array.shape[0] == 0 or array.shape[1] == 0:
        raise DataError(f"{source}: numerators of shape {array.shape}; a non-empty 2-D array is needed")
    if array.dtype.kind not in "iuO":
        raise DataError(f"{source}: numerators of dtype {array.dtype}; integers are needed")
    if isinstance(denominator, bool) or int(denominator) != denominator or denominator < 1:
        raise DataError(f"{source}: denominator={denominator!r} must be a positive integer")
    denominator = int(denominator)
    if array.dtype.kind == "u" and array.size and int(array.max()) > np.iinfo(np.int64).max:
        array = array.astype(object)  # as int64, 2^64 - 1 would wrap to -1
    if array.dtype.kind == "O":
        values = array.ravel().tolist()  # the objects themselves
        if set(map(type, values)) <= {int}:  # Python integers only (a converter's): their gcd in one call
            common = math.gcd(denominator, *values)
            return (array // common if common > 1 else array), denominator // common
        for index, v in np.ndenumerate(array):  # int() would truncate 1.5 and read "1"
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise DataError(f"{source}: numerators{list(index)} = {shown_value(v)} is not an integer")
        common = denominator
        for v in array.flat:
            common = math.gcd(common, int(v))
        if common > 1:
            array = np.vectorize(lambda v: int(v) // common, otypes=[object])(array)
        return array, denominator // common
    array = array.astype(np.int64, copy=False)
    common = math.gcd(denominator, int(np.gcd.reduce(array, axis=None)))
    if common > 1:
        array = array // common
    return array, denominator // common


def _lowest_limbs(limbs: Any, denominator: int, source: str, known: int | None = None
                  ) -> tuple[Any, Any, int, int | None]:
    """`_lowest_terms` for numerators in limbs: ``(int64 numerators or None, limbs or None, denominator,
    bit_length of the largest |numerator| or None)``.

    Over a power of two the common factor is 2^t, t the least of its exponent
    and of the numerators' trailing zeros: no gcd per value. Over 2^a·q, q odd
    (10^k: q = 5^k), the same where q has no common factor with the numerators
    (`lowest_terms_facts`: in C, with the trailing zeros and the largest
    numerator's length); else they are reduced through Python integers.
    The result is in int64 when every numerator is then below 2^62 (as
    `_lowest_terms` keeps it), else in the fewest limbs that hold it.
    """
    array = np.asarray(limbs)
    if array.ndim != 3 or array.dtype != np.int64 or 0 in array.shape:
        raise DataError(f"{source}: limbs of shape {array.shape} and dtype {array.dtype}; a non-empty int64 "
                        "(samples, features, limbs) array is needed")
    if isinstance(denominator, bool) or int(denominator) != denominator or denominator < 1:
        raise DataError(f"{source}: denominator={denominator!r} must be a positive integer")
    denominator = int(denominator)
    power = (denominator & -denominator).bit_length() - 1  # the power of two in the denominator
    # `known`: the caller's bit length of limbs in lowest terms (`binary_bits`'), else the facts from one pass
    common, zeros, bits = (1, 0, known) if known is not None else lowest_terms_facts(array, denominator >> power)
    if common > 1:  # (a decimal file's cells over their lcm have none: gcd(5^b, numerators) is 1)
        numerators, denominator = _lowest_terms(limb_values(array), denominator, source)
        return numerators, None, denominator, None
    shift = power if zeros is None else min(power, zeros)
    if shift:  # every nonzero value loses `shift` bits
        array, bits = shifted_right(array, shift), max(bits - shift, 0)
    if bits <= 62:  # |v| < 2^62: int64, as `_lowest_terms` keeps such numerators
        return np.ascontiguousarray(array[..., 0]), None, denominator >> shift, bits
    return None, np.ascontiguousarray(array[..., :limbs_for_bits(bits)]), denominator >> shift, bits


def from_arrays(
    X: Any,
    y: Any,
    *,
    positive: object = None,
    source: str = "<memory>",
    feature_names: Sequence[str] = (),
    floats: str = "binary",
    index_column: str = "auto",
) -> Dataset:
    """Build a `Dataset` from values in memory, converting each exactly.

    Parameters
    ----------
    X : 2-D array-like
        A list of rows, a NumPy array or a pandas DataFrame (whose column
        names become the feature names); values are numbers or literals
        such as ``"3/7"`` or ``"1.5e-3"``.
    y : 1-D array-like
        One label per sample (a list, an array, a Series): -1/+1, 0/1, or any
        two values with `positive` naming the positive one (text or a number,
        as the labels are); of more than two values, `positive` is taken
        against all the others. Labels are all numbers or all text; a masked or
        missing value (None, NaN, pandas' NA) is refused by its place.
    floats : {"binary", "decimal"}
        How floats are read (`verify_perceptron.data.arrays`): ``"binary"``
        (default) as the binary number each is, which the report says;
        ``"decimal"`` through the shortest decimal that reads back as it,
        so ``0.1`` is 1/10.
    index_column : {"auto", "drop", "keep"}
        Whether a pandas DataFrame's leading columns are a row index saved
        as data: ``"auto"`` (default) leaves out the leading columns named
        ``""`` or ``Unnamed: N`` (what ``pd.read_csv`` makes of the index
        ``to_csv`` wrote), ``"drop"`` leaves out the first column whatever its
        name, ``"keep"`` reads them all (`verify_perceptron.data.row_index`).
        The DataFrame's own index is never read. ``"drop"`` needs a DataFrame.

    Examples
    --------
    >>> data = from_arrays([["0.1", 1], ["3/7", 0]], [1, 0])
    >>> data.X[0], data.y
    ((Fraction(1, 10), Fraction(1, 1)), (1, -1))
    >>> from_arrays([[0.1], [2.0]], [0, 1]).X[0][0] == Fraction(1, 10)
    False
    >>> decimal = from_arrays([[0.1], [2.0]], [0, 1], floats="decimal")
    >>> decimal.X[0][0], decimal.source
    (Fraction(1, 10), '<memory> (floats read as their shortest decimals, 0.1 as 1/10)')
    """
    X, index = _without_index(X, check_index_column(index_column, source), source)
    table = exact_table(X, floats=floats, source=source)
    raw = exact_labels(y, floats=floats, source=source)
    if len(raw) != table.shape[0]:  # (the shape: numerators held in limbs are not made Python integers here)
        raise DataError(f"{source}: {table.shape[0]} samples but {len(raw)} labels")
    labels, spelling = map_labels(raw, positive=exact_positive(positive, floats=floats, source=source), source=source)
    if floats == "decimal" and holds_floats(X):  # said in every report: these values are not the binary ones
        source = f"{source} (floats read as their shortest decimals, 0.1 as 1/10)"
    names = feature_names if isinstance(feature_names, (str, bytes)) else tuple(feature_names)  # a str: refused
    return from_table(table, labels, source=source, labels=spelling, feature_names=names, row_index=index)


def from_table(table: ExactTable, y: Any, *, source: str, labels: tuple[str, str],
               feature_names: Sequence[str] = (), row_index: RowIndex | None = None) -> Dataset:
    """A `Dataset` of `table`'s values as the table holds them: in limbs where they pass int64 (no Python integer
    per value is made; reading ``table.numerators`` would make them), else its numerators. The feature names are
    `feature_names`, else the table's.

    Examples
    --------
    >>> data = from_table(exact_table([[0.5, 2**-80], [1.0, -3.0]]), [1, -1], source="x", labels=("-1", "1"))
    >>> data.limbs.shape, data.X[0][1] == Fraction(1, 2**80)
    ((2, 2, 2), True)
    """
    return Dataset(y=y, source=source, feature_names=feature_names or table.feature_names or (),
                   binary_float=table.binary_float, labels=labels, denominator=table.denominator,
                   limbs=table.limbs, numerators=None if table.limbs is not None else table.numerators,
                   lowest_bits=table.bits, row_index=row_index)


def _without_index(X: Any, index_column: str, source: str) -> tuple[Any, RowIndex | None]:
    """A pandas DataFrame without its leading row-index columns (`index_columns`'s rule on its column names),
    and them; anything else as it is."""
    if not (hasattr(X, "columns") and hasattr(X, "to_numpy") and hasattr(X, "iloc")):
        if index_column == "drop":
            raise DataError(f"{source}: index_column='drop' applies to a DataFrame (or a CSV file); X of type "
                            f"{type(X).__name__} has no column names: leave its first column out yourself (X[:, 1:])")
        return X, None
    names = [column_name(c) for c in X.columns]
    index = index_columns(names, len(names), index_column, source)  # (the label column is not among X's)
    if index is None:
        return X, None
    if len(index.columns) == len(names):
        raise DataError(f"{source}: no feature column: {index.description}; index_column='keep' reads it as a "
                        "feature")
    return X.iloc[:, len(index.columns):], index


def require_dataset(data: object) -> Dataset:
    """`data` itself when it is a `Dataset`, else `InvalidArgument` naming what it is (for every API entry).

    Examples
    --------
    >>> require_dataset([[0, 1]])
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.InvalidArgument: data=[[0, 1]] of type list is not a Dataset: make one with from_arrays, load_dataset or example
    """
    if not isinstance(data, Dataset):
        raise InvalidArgument(f"data={shown_value(data)} of type {type(data).__name__} is not a Dataset: "
                              "make one with from_arrays, load_dataset or example")
    return data
