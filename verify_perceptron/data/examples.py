"""The notes' worked examples, built in, in the order the notes present them.

=============== ============================================ =================
name            data                                         home convention
=============== ============================================ =================
``and``         note 000, Table 1: boolean AND, 0 -> -1       ``classic``
``or``          boolean OR in the same order                  ``classic``
``modified-or`` note 003: (x1, x2) in {-1, 1}², t = -1 at      ``sum-norm``
                (-1, -1) and +1 elsewhere
``xor``         boolean XOR: not linearly separable           ``classic``
=============== ============================================ =================
"""

from __future__ import annotations

from fractions import Fraction

from .dataset import Dataset
from ..errors import InvalidArgument

__all__ = ["EXAMPLES", "example"]

_BOOLEAN = ((0, 0), (0, 1), (1, 0), (1, 1))

#: name -> (points, labels in {-1, +1}, home convention, original label spelling)
EXAMPLES: dict[str, tuple[tuple[tuple[int, int], ...], tuple[int, ...], str, tuple[str, str]]] = {
    "and": (_BOOLEAN, (-1, -1, -1, 1), "classic", ("0", "1")),
    "or": (_BOOLEAN, (-1, 1, 1, 1), "classic", ("0", "1")),
    "modified-or": (((-1, -1), (1, -1), (-1, 1), (1, 1)), (-1, 1, 1, 1), "sum-norm", ("-1", "1")),
    "xor": (_BOOLEAN, (-1, 1, 1, -1), "classic", ("0", "1")),
}


def example(name: str) -> Dataset:
    """One of the built-in examples, by name.

    Examples
    --------
    >>> data = example("and")
    >>> [tuple(map(int, x)) for x in data.X], data.y
    ([(0, 0), (0, 1), (1, 0), (1, 1)], (-1, -1, -1, 1))
    """
    try:
        points, labels, convention, spelling = EXAMPLES[name]
    except KeyError:
        raise InvalidArgument(f"example={name!r} is not one of {', '.join(EXAMPLES)}") from None
    return Dataset(
        X=tuple(tuple(Fraction(v) for v in p) for p in points),
        y=labels,
        source=f"example:{name}",
        labels=spelling,
        default_convention=convention,
    )
