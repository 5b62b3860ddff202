"""What one check works from: the assumptions it may use (`Known`), with inner-product symbols
expanded into components when it needs them (`Context`); `CheckFailed` says why a check did not succeed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import sympy as sp

from .algebra import Vec, components, dot, unsafe_denominator, vector_components
from .language import Fact, Proof
from .relations import Rel, Statement, VecEq

__all__ = ["Known", "CheckFailed", "Context", "known_of_fact"]


@dataclass(frozen=True)
class Known:
    """An assumption as a check sees it: a fact or an earlier step, by name."""

    name: str
    statement: Statement
    integer: bool = False
    initial: bool = False
    # The case facts (``origin="case"``) it holds under: a step inherits those of what it uses.
    conditions: frozenset[Statement] = frozenset()


class CheckFailed(Exception):
    """A check that did not succeed; the message says why."""


class Context:
    """The facts one check may use, and the map from inner-product symbols to components."""

    def __init__(self, proof: Proof, known: Mapping[str, Known], expand: bool, extra_names: Sequence[str] = ()) -> None:
        self.proof = proof
        self.known = dict(known)
        self.inner = proof.inner_table
        self.expand = expand
        self.table: dict[str, tuple[sp.Expr, ...]] = {}
        self.replacements: dict[sp.Symbol, sp.Expr] = {}
        if expand:
            names: set[str] = set(extra_names)
            for k in self.known.values():
                names |= self._vector_names(k.statement)
            self._names = names

    def _vector_names(self, statement: Statement | sp.Expr | Vec) -> set[str]:
        if isinstance(statement, VecEq):
            found = set(statement.names)
            symbols = statement.free_symbols
        elif isinstance(statement, Vec):
            found, symbols = set(statement.names), statement.free_symbols
        elif isinstance(statement, Rel):
            found, symbols = set(), statement.free_symbols
        else:
            found, symbols = set(), statement.free_symbols
        for s in symbols:
            if s in self.inner:
                u, v = self.inner[s]
                found |= u.names | v.names
        return found

    def prepare(self, *items: Statement | sp.Expr | Vec) -> None:
        """Fix the component table for everything this check will look at."""
        if not self.expand:
            return
        names = set(self._names)
        for item in items:
            names |= self._vector_names(item)
        self.table = components(names)
        self.replacements = {}
        for s, (u, v) in self.inner.items():
            if (u.names | v.names) <= names:
                self.replacements[s] = dot(vector_components(u, self.table), vector_components(v, self.table))

    def x(self, expr: sp.Expr) -> sp.Expr:
        """`expr` with inner-product symbols expanded when this check works in components."""
        if not self.expand:
            return expr
        return expr.xreplace(self.replacements)

    def vec(self, v: Vec) -> tuple[sp.Expr, ...]:
        """Components of a vector combination, coefficients expanded."""
        return tuple(self.x(c) for c in vector_components(v, self.table))

    def get(self, name: str) -> Known:
        """The assumption called `name`; one the step does not list fails the check."""
        if name not in self.known:
            raise CheckFailed(f"uses ({name}), which is not among the step's assumptions")
        return self.known[name]

    def positives(self) -> list[sp.Expr]:
        """The quantities the assumptions make strictly positive (they may divide)."""
        return [self.x(k.statement.slack()) for k in self.known.values()
                if isinstance(k.statement, Rel) and k.statement.strict]

    def equalities(self) -> list[sp.Expr]:
        """The polynomials the equations among the assumptions make zero (a vector equation: one per component)."""
        found: list[sp.Expr] = []
        positives = self.positives()
        for k in self.known.values():
            if isinstance(k.statement, VecEq):
                if not self.expand:
                    raise CheckFailed(f"({k.name}) is a vector equation; this check does not work in components")
                left, right = self.vec(k.statement.lhs), self.vec(k.statement.rhs)
                found += [sp.expand(a - b) for a, b in zip(left, right)]
            elif k.statement.is_equality:
                difference = self.x(k.statement.lhs - k.statement.rhs)
                bad = unsafe_denominator(difference, positives)
                if bad is not None:
                    raise CheckFailed(f"({k.name}) divides by {bad}, which is not known to be non-zero")
                found.append(sp.expand(sp.fraction(sp.together(difference))[0]))
        return found


def known_of_fact(f: Fact) -> Known:
    """A fact as an assumption; a ``case`` fact is its own condition."""
    cases = frozenset({f.statement}) if f.origin == "case" else frozenset()
    return Known(f.name, f.statement, f.integer, f.origin == "initial", cases)
