"""The record of a run: every update, in order, with the values that caused it."""

from __future__ import annotations

import math
from abc import abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar, overload

import numpy as np

from .exact_text import integer_text

__all__ = ["Update", "Trace", "LazyUpdates", "STOP_REASONS", "Counts", "ScaledWeights"]

Vector = tuple[Fraction, ...]

#: Why a run ended: a pass without a mistake, the epoch limit, a weight vector seen before at an
#: epoch boundary (the run provably cycles forever), or the time limit.
STOP_REASONS = ("converged", "max-epochs", "cycle", "time-limit")


@dataclass(frozen=True)
class Update:
    """The k-th change of the weights.

    In online mode it is caused by one sample; in batch mode by every sample
    misclassified during the pass, added together at its end.

    Attributes
    ----------
    k : int
        Update number, from 1.
    epoch : int
        The pass over the data it happened in, from 1.
    samples : tuple of int
        Indices (from 0) of the samples that caused it.
    scores : tuple of Fraction
        The score ``w_{k-1}·x~`` of each of those samples, which made it a mistake.
    delta : tuple of Fraction
        ``w_k - w_{k-1}``.
    weights : tuple of Fraction
        ``w_k``, in the convention's coordinate order.

    The fast engine gives `delta` and `weights` as `ScaledWeights`, which read as tuples.
    """

    k: int
    epoch: int
    samples: tuple[int, ...]
    scores: tuple[Fraction, ...]
    delta: Sequence[Fraction]
    weights: Sequence[Fraction]


class LazyUpdates(Sequence[Update]):
    """A sequence of updates built on first access from a compact record (the fast engine's).

    Building an `Update` means one `Fraction` per weight; a run that keeps its
    first updates for the report pays that only if the report reads them.

    Examples
    --------
    >>> lazy = LazyUpdates([1], lambda k: Update(k, 1, (0,), (Fraction(0),), (Fraction(1),), (Fraction(1),)))
    >>> lazy[0].k, len(lazy), lazy == (lazy[0],)
    (1, 1, True)
    """

    def __init__(self, records: Sequence[Any], build: Callable[[Any], Update],
                 scaled: Callable[[Sequence[Any], Sequence[int]], list[list[int]]] | None = None) -> None:
        self._records = records
        self._build = build
        self._scaled = scaled
        self._built: list[Update | None] = [None] * len(records)

    def scaled_weights(self, index: int) -> list[int] | None:
        """M·w for update `index`'s weights w (M the least common denominator of their entries), from its
        record without building the update's fractions: the integers
        `verify_perceptron.check.separator.scaled_separator` makes of ``self[index].weights``.
        None when no `scaled` was given (``scaled(records, indices)``: those of the records at the indices).

        Examples
        --------
        >>> lazy = LazyUpdates([(1, 2)], lambda r: None, scaled=lambda rs, at: [[rs[i][0], 2 * rs[i][1]] for i in at])
        >>> lazy.scaled_weights(0), LazyUpdates([1], lambda r: None).scaled_weights(0)
        ([1, 4], None)
        """
        return None if self._scaled is None else self._scaled(self._records, [index])[0]

    def scaled_weights_of(self, indices: Sequence[int]) -> list[list[int]] | None:
        """`scaled_weights` of each of `indices`, read together (a segment of a compiled chunk read once for all).

        Examples
        --------
        >>> LazyUpdates([(1, 2), (3, 4)], lambda r: None, scaled=lambda rs, at: [list(rs[i]) for i in at]
        ...             ).scaled_weights_of([1, 0])
        [[3, 4], [1, 2]]
        """
        return None if self._scaled is None else self._scaled(self._records, indices)

    def __len__(self) -> int:
        return len(self._records)

    def passing(self) -> Iterator[Update]:
        """Each update in turn, those not built yet built for the moment only (a report reads each once).

        Examples
        --------
        >>> lazy = LazyUpdates([1, 2], lambda k: Update(k, 1, (0,), (Fraction(0),), (Fraction(1),), (Fraction(1),)))
        >>> [u.k for u in lazy.passing()], lazy._built
        ([1, 2], [None, None])
        """
        for record, built in zip(self._records, self._built):
            yield built if built is not None else self._build(record)

    @overload
    def __getitem__(self, index: int) -> Update: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Update, ...]: ...

    def __getitem__(self, index: int | slice) -> Update | tuple[Update, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(len(self))))
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(f"update index {index} out of range({len(self)})")
        built = self._built[index]
        if built is None:
            built = self._built[index] = self._build(self._records[index])
        return built

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (tuple, list, LazyUpdates)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"LazyUpdates(<{len(self)} updates>)"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as the tuple of its updates, all built (its builder is the engine's, not data)."""
        return tuple, (tuple(self),)


T = TypeVar("T")


class _ReadsAsTuple(Sequence[T]):
    """A vector kept in another form and read as a tuple, which `_make` builds once, and only if asked.

    It iterates, indexes, compares with tuples and lists, hashes, joins with
    tuples (``+``) and prints as that tuple; a subclass gives `_make`, its length, and may read one
    entry without the whole tuple (`_item`).
    """

    __slots__ = ("_tuple",)

    def __init__(self) -> None:
        self._tuple: tuple[T, ...] | None = None

    @abstractmethod
    def _make(self) -> tuple[T, ...]:
        """The tuple this vector reads as (each subclass says how it is made from its own form)."""

    def _values(self) -> tuple[T, ...]:
        if self._tuple is None:
            self._tuple = self._make()
        return self._tuple

    def _item(self, index: int) -> T:
        return self._values()[index]

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if isinstance(index, slice) or self._tuple is not None:
            return self._values()[index]
        return self._item(index)

    def __iter__(self) -> Iterator[T]:
        return iter(self._values())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (tuple, list, type(self))):
            return self._values() == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __add__(self, other: object) -> tuple[T, ...]:
        if isinstance(other, (tuple, _ReadsAsTuple)):
            return self._values() + tuple(other)
        return NotImplemented

    def __radd__(self, other: object) -> tuple[T, ...]:
        if isinstance(other, tuple):
            return other + self._values()
        return NotImplemented

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self._values())})"


class Counts(_ReadsAsTuple[int]):
    """Per-sample counts, kept as a read-only int64 array and read as a tuple of ints.

    It compares equal to the tuple (or list) of the same counts, iterates,
    indexes and hashes like one; the tuple itself is made only if it is
    asked for, and a checker compares two `Counts` as arrays, without a
    Python loop over 10^5 samples.

    Examples
    --------
    >>> c = Counts([2, 0, 1])
    >>> c == (2, 0, 1), list(c), c[0], len(c), c.array.tolist()
    (True, [2, 0, 1], 2, 3, [2, 0, 1])
    """

    __slots__ = ("array",)

    def __init__(self, values: Any) -> None:
        super().__init__()
        array = np.array(values, dtype=np.int64)
        array.flags.writeable = False
        self.array = array

    def _make(self) -> tuple[int, ...]:
        return tuple(self.array.tolist())

    def __len__(self) -> int:
        return len(self.array)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Counts):
            return bool(np.array_equal(self.array, other.array))
        return super().__eq__(other)

    __hash__ = _ReadsAsTuple.__hash__  # (a class that defines __eq__ must say its hash again)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> Any:
        """The counts as NumPy reads them (``np.asarray(counts)``): the held read-only int64 array itself, where
        NumPy iterated the tuple, made and kept for it (n pointers, and the array made from it: 0.09x the int64
        data each at d = 10, from the randn fit's soft-margin reference on); a copy where asked, or in another dtype.

        Examples
        --------
        >>> c = Counts([2, 0, 1])
        >>> np.asarray(c, dtype=np.int64) is c.array, c._tuple, np.asarray(c, dtype=np.float64).tolist()
        (True, None, [2.0, 0.0, 1.0])
        """
        if copy or (dtype is not None and np.dtype(dtype) != self.array.dtype):
            return self.array.astype(self.array.dtype if dtype is None else dtype)
        return self.array


class ScaledWeights(_ReadsAsTuple[Fraction]):
    """Weights w = unit·V for integers V, read as a tuple of `Fraction`.

    The fast engine's final weights: the tuple of fractions is made only if
    it is asked for (a gcd and a `Fraction` per entry, the run's largest
    Python cost on 1,000 features), while the checker and the separator's
    scaling read the integers.

    Examples
    --------
    >>> w = ScaledWeights([2, 0, -3], Fraction(1, 4))
    >>> w == (Fraction(1, 2), Fraction(0), Fraction(-3, 4)), w[2], len(w), w.scaled()
    (True, Fraction(-3, 4), 3, ([2, 0, -3], 4))
    >>> (Fraction(7),) + w + (Fraction(1),) == (7, Fraction(1, 2), 0, Fraction(-3, 4), 1)
    True
    """

    __slots__ = ("integers", "unit", "_scaled")

    def __init__(self, integers: Sequence[int], unit: Fraction) -> None:
        super().__init__()
        self.integers = list(integers)
        self.unit = unit
        self._scaled: tuple[tuple[int, ...], int] | None = None  # (`scaled`'s, made once: read three times a fit)

    def _make(self) -> tuple[Fraction, ...]:
        p, q = self.unit.numerator, self.unit.denominator
        zero = Fraction(0)  # one shared zero, and no gcd when the unit is whole (sparse data, 10^5 weights)
        if q == 1:
            return tuple(zero if v == 0 else Fraction(p * v) for v in self.integers)
        return tuple(zero if v == 0 else Fraction(p * v, q) for v in self.integers)

    def _item(self, index: int) -> Fraction:
        return self.unit * self.integers[index]

    def strings(self) -> list[str]:
        """Each entry as ``str`` writes its `Fraction` ("-3/4", "2"), without making the fractions.

        Examples
        --------
        >>> ScaledWeights([2, 0, -3, 8], Fraction(1, 4)).strings()
        ['1/2', '0', '-3/4', '2']
        >>> len(ScaledWeights([10**5000], Fraction(1, 3)).strings()[0])  # past str's 4,300 digits
        5003
        """
        try:
            return self._strings(str)
        except ValueError:  # past the int-to-string limit (4,300 digits): the same text, written in pieces
            return self._strings(integer_text)

    def _strings(self, text: Callable[[int], str]) -> list[str]:
        p, q = self.unit.numerator, self.unit.denominator
        if q == 1:
            return [text(p * v) for v in self.integers]
        gcd = math.gcd
        return [f"{text(n // g)}/{text(q // g)}" if g != q else text(n // g)
                for n, g in ((p * v, gcd(p * v, q)) for v in self.integers)]

    def scaled(self) -> tuple[list[int], int]:
        """``(M·w, M)`` for M the least common denominator of the entries, without a `Fraction` per entry.

        With unit = p/q in lowest terms and G = gcd(V), M = q/gcd(q, G), so
        M·w = p·V/gcd(q, G).
        """
        if self._scaled is None:
            p, q = self.unit.numerator, self.unit.denominator
            g = math.gcd(q, math.gcd(*self.integers))
            self._scaled = tuple([p * v // g for v in self.integers]), q // g
        scaled, M = self._scaled
        return list(scaled), M  # (a list of the caller's own, as each caller had)

    def __len__(self) -> int:
        return len(self.integers)

    def __add__(self, other: object) -> tuple[Fraction, ...]:  # as a tuple concatenates
        return self._values() + tuple(other) if isinstance(other, (tuple, ScaledWeights)) else NotImplemented

    def __radd__(self, other: object) -> tuple[Fraction, ...]:
        return tuple(other) + self._values() if isinstance(other, tuple) else NotImplemented


@dataclass(frozen=True)
class Trace:
    """A whole run of an engine.

    Attributes
    ----------
    convention : str
        The convention's name.
    rate : Fraction
        The learning rate (η, ε or λ; 1 where the note has none).
    mode : str
        ``online`` (the notes' incremental mode) or ``batch``.
    updates : tuple of Update
        The updates, in order: every one, or the first ones when the run kept
        only those (see `total_updates`).
    final_weights : tuple of Fraction
        The weights when the run stopped (a tuple, or `ScaledWeights`, which reads as one).
    n_epochs : int
        Passes over the data, the final pass without a mistake included.
    stop : str
        One of `STOP_REASONS`.
    cycle : tuple of int, optional
        ``(e1, e2)`` when the weights at the end of epoch e2 equal those at the end of epoch e1.
    mistakes_per_sample : sequence of int
        N_μ: how many mistakes each sample caused (a tuple, or `Counts`, which reads as one).
    total_updates : int, optional
        The number of updates when `updates` holds only the first ones; None when it holds all.
    cycle_mistakes : tuple of int, optional
        With `cycle`: the mistakes per sample made over epochs e1+1..e2 (they sum to a zero step).
    """

    convention: str
    rate: Fraction
    mode: str
    updates: Sequence[Update]
    final_weights: Sequence[Fraction]
    n_epochs: int
    stop: str
    cycle: tuple[int, int] | None
    mistakes_per_sample: Sequence[int]
    total_updates: int | None = None
    cycle_mistakes: tuple[int, ...] | None = None

    @property
    def converged(self) -> bool:
        """True when the last pass made no mistake."""
        return self.stop == "converged"

    @property
    def n_updates(self) -> int:
        """Number of weight changes."""
        return len(self.updates) if self.total_updates is None else self.total_updates

    @property
    def updates_truncated(self) -> bool:
        """True when `updates` holds only the first `n_updates` updates."""
        return self.n_updates > len(self.updates)

    @property
    def n_mistakes(self) -> int:
        """Number of mistakes, Σ_μ N_μ (equal to `n_updates` in online mode)."""
        counts = self.mistakes_per_sample
        return int(counts.array.sum()) if isinstance(counts, Counts) else sum(counts)
