"""Relations between the proof's quantities: `Rel` (``lhs op rhs``), `VecEq` (equal vectors), and the
shorthands `le`, `lt`, `ge`, `gt`, `eq` a proof is written with.

Examples
--------
>>> a, b = sp.symbols("a b")
>>> ge(a, b).slack()
a - b
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Union

import sympy as sp

from .algebra import Vec, exact_expr  # the proof layer's one conversion rule: exact values only
from ..errors import InvalidArgument

__all__ = ["Rel", "VecEq", "Statement", "le", "lt", "ge", "gt", "eq"]

_OPS = ("<=", "<", ">=", ">", "==")
_FLIP = {"<=": ">=", ">=": "<=", "<": ">", ">": "<", "==": "=="}


@dataclass(frozen=True)
class Rel:
    """``lhs op rhs`` for op in ``<= < >= > ==``, kept unevaluated (``0 <= 0`` stays a relation).

    Examples
    --------
    >>> a, b = sp.symbols("a b")
    >>> r = le(a, b)
    >>> r.slack(), r.flipped().op
    (-a + b, '>=')
    """

    lhs: sp.Expr
    op: str
    rhs: sp.Expr

    def __post_init__(self) -> None:
        if self.op not in _OPS:
            raise InvalidArgument(f"op={self.op!r} must be one of {', '.join(_OPS)}")
        object.__setattr__(self, "lhs", exact_expr(self.lhs, "lhs"))
        object.__setattr__(self, "rhs", exact_expr(self.rhs, "rhs"))

    @property
    def strict(self) -> bool:
        """True for ``<`` and ``>``."""
        return self.op in ("<", ">")

    @property
    def is_equality(self) -> bool:
        """True for ``==``."""
        return self.op == "=="

    def slack(self) -> sp.Expr:
        """The quantity the relation says is >= 0 (> 0 if strict; = 0 for ``==``)."""
        return self.lhs - self.rhs if self.op in (">=", ">", "==") else self.rhs - self.lhs

    def subs(self, scalars: Mapping[sp.Symbol, sp.Expr] | None = None, vectors: Mapping[str, Vec] | None = None) -> Rel:
        """The relation with symbols replaced simultaneously (vectors do not occur in a `Rel`)."""
        table = dict(scalars or {})
        return Rel(self.lhs.xreplace(table), self.op, self.rhs.xreplace(table))

    def flipped(self) -> Rel:
        """The opposite inequality (``a <= b`` becomes ``a >= b``); an equation stays as it is."""
        return Rel(self.lhs, _FLIP[self.op], self.rhs)

    @property
    def free_symbols(self) -> set[sp.Symbol]:
        """Symbols on either side."""
        return set(self.lhs.free_symbols) | set(self.rhs.free_symbols)


@dataclass(frozen=True)
class VecEq:
    """``lhs = rhs`` between two vector combinations (every component equal).

    Examples
    --------
    >>> from verify_perceptron.proofs.algebra import V
    >>> eta = sp.Symbol("eta")
    >>> VecEq(V("wk"), V("w") + eta * V("x")).names == {"wk", "w", "x"}
    True
    """

    lhs: Vec
    rhs: Vec

    def __post_init__(self) -> None:
        for side in ("lhs", "rhs"):
            if not isinstance(getattr(self, side), Vec):
                raise InvalidArgument(f"{side}={getattr(self, side)!r} must be a Vec")

    @property
    def is_equality(self) -> bool:
        """Always True."""
        return True

    strict = False
    op = "=="

    @property
    def names(self) -> frozenset[str]:
        """The named vectors on either side."""
        return self.lhs.names | self.rhs.names

    def subs(self, scalars: Mapping[sp.Symbol, sp.Expr] | None = None, vectors: Mapping[str, Vec] | None = None) -> VecEq:
        """Substitute scalar symbols and named vectors."""
        return VecEq(self.lhs.subs(scalars, vectors), self.rhs.subs(scalars, vectors))

    def flipped(self) -> VecEq:
        """Itself: an equation has no direction."""
        return self

    @property
    def free_symbols(self) -> set[sp.Symbol]:
        """Scalar symbols in the coefficients."""
        return self.lhs.free_symbols | self.rhs.free_symbols


Statement = Union[Rel, VecEq]


def le(a: object, b: object) -> Rel:
    """``a <= b``."""
    return Rel(a, "<=", b)


def lt(a: object, b: object) -> Rel:
    """``a < b``."""
    return Rel(a, "<", b)


def ge(a: object, b: object) -> Rel:
    """``a >= b``."""
    return Rel(a, ">=", b)


def gt(a: object, b: object) -> Rel:
    """``a > b``."""
    return Rel(a, ">", b)


def eq(a: object, b: object) -> Rel:
    """``a == b``."""
    return Rel(a, "==", b)


def _show(statement: Statement) -> str:
    """A statement on one line, for verdicts (a vector equation is not spelled out)."""
    if isinstance(statement, Rel):
        return f"{statement.lhs} {statement.op} {statement.rhs}"
    return "a vector equation"
