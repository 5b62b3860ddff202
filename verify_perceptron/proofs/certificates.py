"""How an inequality is justified: a `Certificate` of non-negative `Term`s, a `Split` into cases of a
natural number, or an `Induction`; `T` and `C` are their shorthands.

Examples
--------
>>> C(T(1, "k-nat", "g>0"), divisor=("eta",))
Certificate(terms=(Term(coeff=1, factors=('k-nat', 'g>0'), square=None),), divisor=('eta',))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import sympy as sp

from .algebra import Vec, exact_expr  # the proof layer's one conversion rule: exact values only
from ..errors import InvalidArgument

__all__ = ["Term", "T", "Certificate", "C", "Split", "Induction"]


@dataclass(frozen=True)
class Term:
    """One term ``coeff·Π factors·square²`` of a certificate; every factor names a fact >= 0."""

    coeff: sp.Rational
    factors: tuple[str, ...] = ()
    square: sp.Expr | Vec | None = None

    def __post_init__(self) -> None:
        value = exact_expr(self.coeff, "coeff")
        if not value.is_Rational:
            raise InvalidArgument(f"coeff={self.coeff!r} must be a rational number")
        if value < 0:
            raise InvalidArgument(f"coeff={self.coeff} must be >= 0")
        object.__setattr__(self, "coeff", value)
        if self.square is not None and not isinstance(self.square, Vec):
            object.__setattr__(self, "square", exact_expr(self.square, "square"))


def T(coeff: object, *factors: str, square: object = None) -> Term:
    """Shorthand for `Term`: ``T(2, "eta", "mistake")`` is ``2·[eta]·[mistake]``.

    Examples
    --------
    >>> T(2, "eta", "mistake")
    Term(coeff=2, factors=('eta', 'mistake'), square=None)
    >>> T(-1)
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.InvalidArgument: coeff=-1 must be >= 0
    """
    return Term(coeff, tuple(factors), square)


@dataclass(frozen=True)
class Certificate:
    """``slack·Π divisor = Σ terms`` modulo the equalities in use.

    ``divisor`` names facts of the form ``q > 0`` whose product multiplies the
    slack (a division by a positive quantity, made explicit).
    """

    terms: tuple[Term, ...] = ()
    divisor: tuple[str, ...] = ()


def C(*terms: Term, divisor: Sequence[str] = ()) -> Certificate:
    """Shorthand for `Certificate`."""
    return Certificate(tuple(terms), tuple(divisor))


@dataclass(frozen=True)
class Split:
    """A case split on a natural number: ``symbol = 0`` (substituted) or ``symbol >= 1``.

    In the second case the facts ``"<symbol>>=1"`` and ``"<symbol>>0"`` are
    available. The split needs, among the step's assumptions, a fact
    ``symbol >= 0`` declared ``integer=True``.
    """

    symbol: sp.Symbol
    zero: Certificate
    positive: Certificate


@dataclass(frozen=True)
class Induction:
    """Induction on ``index`` from ``start``.

    The base case is the statement with ``index = start``, proved from
    ``base_uses`` by ``base``. The step proves the statement from the
    induction hypothesis ``IH`` (the statement with `previous` substituted:
    ``index -> index - 1`` and each quantity by its previous value) and the
    step's own assumptions, by ``step``; the facts ``"<index>>=<start+1>"``
    and ``"<index>><start>"`` are available there.
    """

    index: sp.Symbol
    # Given as mappings, stored as tuples of pairs (so that an Induction is hashable).
    previous: tuple[tuple[sp.Symbol, sp.Expr], ...] | Mapping[sp.Symbol, sp.Expr]
    base: Certificate = Certificate()
    step: Certificate = Certificate()
    base_uses: tuple[str, ...] = ()
    start: int = 0
    previous_vectors: tuple[tuple[str, Vec], ...] | Mapping[str, Vec] = ()
    over: str = ""

    def __post_init__(self) -> None:
        if isinstance(self.previous, Mapping):
            object.__setattr__(self, "previous", tuple(self.previous.items()))
        if isinstance(self.previous_vectors, Mapping):
            object.__setattr__(self, "previous_vectors", tuple(self.previous_vectors.items()))

    @property
    def range_facts(self) -> tuple[str, str]:
        """The names of the facts available in the step: ``index >= start + 1`` and ``index > start``."""
        return f"{self.index}>={self.start + 1}", f"{self.index}>{self.start}"

