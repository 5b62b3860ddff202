"""The language the convergence proofs are written in: `Place`, `Fact`, `Step` and `Proof`.

A `Proof` is an ordered list of `Step` objects about SymPy symbols. Each step
quotes its note by `Place`, states a claim (a `Rel` such as ``w_ws >= k*eta*gamma``,
or a `VecEq` between vector combinations), lists the assumptions it may use
(facts of the theorem and the algorithm, declared facts about symbols, earlier
steps) and says how it is justified:

``identity``
    ``lhs - rhs`` lies in the ideal of the equalities it uses (checked exactly,
    inner products expanded into symbolic components).
``inequality`` / ``rearrangement``
    a `Certificate`: ``(rhs - lhs)·D = Σ c_i·Π(facts) + Σ squares`` modulo the
    equalities, with every ``c_i >= 0``, every fact a known non-negative
    quantity and ``D`` a product of known positive ones; or a `Split` into the
    cases ``k = 0`` and ``k >= 1`` of a natural number k.
``cauchy-schwarz``
    the checker builds Lagrange's sum of squares for the two vectors and
    confirms it equals ``rhs - lhs``.
``induction``
    an `Induction`: the base case at the start and the step from the claim at
    ``index - 1`` (the induction hypothesis ``IH``, derived by the checker, not
    written by hand) to the claim at ``index``.

This module is the front door the note modules write with: it also hands on the
relations (`verify_perceptron.proofs.relations`), the justifications
(`verify_perceptron.proofs.certificates`) and the vectors (`V`, `Vec`).
`verify_perceptron.proofs.checking.check_proof` decides the steps.

Examples
--------
>>> k, g = sp.symbols("k gamma")
>>> facts = (Fact("g>0", gt(g, 0), "hypothesis", "the margin is positive"),
...          Fact("k-nat", ge(k, 0), "symbol", "a count", integer=True))
>>> step = Step("s1", Place("000", 1, "demo"), ge(k * g, 0), "inequality", ("g>0", "k-nat"),
...             Certificate((T(1, "k-nat", "g>0"),)))
>>> proof = Proof("demo", "demo.txt", "classic", "demo", facts=facts, steps=(step,))
>>> proof.replace_step("s1", statement=le(k * g, -1)).step("s1").statement
Rel(lhs=gamma*k, op='<=', rhs=-1)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

import sympy as sp

from .algebra import V, Vec
from .certificates import C, Certificate, Induction, Split, T, Term
from .relations import Rel, Statement, VecEq, eq, ge, gt, le, lt
from ..errors import InvalidArgument

__all__ = [
    "Place", "Fact", "Step", "Proof", "KINDS", "ORIGINS",
    # the vocabulary defined beside this module, handed on so that a proof imports from one place
    "Rel", "VecEq", "Statement", "le", "lt", "ge", "gt", "eq", "Vec", "V",
    "Term", "T", "Certificate", "C", "Split", "Induction",
]

#: How a step is justified.
KINDS = ("identity", "inequality", "induction", "cauchy-schwarz", "rearrangement")
#: Where a fact comes from. ``initial`` facts describe the state before the first update and
#: may be used only by the base case of an induction.
ORIGINS = ("hypothesis", "algorithm", "symbol", "definition", "initial", "case", "toolkit")


@dataclass(frozen=True)
class Place:
    """Where a note says something: its number, line in the seed file, a description, a short quote.

    Examples
    --------
    >>> Place("000", 182, "eq. (3)", r"\\leq kR^{2}").describe()
    'note 000, line 182 (eq. (3))'
    """

    note: str
    line: int | None
    where: str
    quote: str = ""

    def describe(self) -> str:
        """``note 000, line 182 (eq. (3))``."""
        if self.note == "toolkit":
            return f"not in the note: {self.where}"
        at = f", line {self.line}" if self.line is not None else ""
        return f"note {self.note}{at} ({self.where})"


#: The relations a fact's words may end in, for each relation of its statement (the same, or mirrored).
_AGREEING = {"<=": ("<=", ">="), ">=": (">=", "<="), "<": ("<", ">"), ">": (">", "<"), "==": ("==",)}
_WRITTEN = {"<=": "<=", "≤": "<=", ">=": ">=", "≥": ">=", "<": "<", ">": ">", "==": "==", "!=": "!=", "≠": "!="}
#: A single ``=`` names a definition (``α = min over H of ...``) and is not read as a relation.
_RELATION = re.compile(r"<=|>=|==|!=|≤|≥|≠|(?<![-<=>!])[<>](?![-<=>])")


def text_relation(text: str) -> str | None:
    """The last relation a fact's words write (``<=``, ``<``, ``==``, ...), or None: it must agree with its statement.

    Arrows (``<-``, ``->``) are not relations.

    Examples
    --------
    >>> text_relation("sgn(0) = +1: C1 is misclassified when w·x < 0, C2 when w·x >= 0; either way d·w·x <= 0")
    '<='
    >>> text_relation("the update w <- w + y·x") is None
    True
    """
    found = _RELATION.findall(text)
    return _WRITTEN[found[-1]] if found else None


@dataclass(frozen=True)
class Fact:
    """An assumption a step may use: a hypothesis, a rule of the algorithm, a fact about a symbol.

    The last relation the words of a hypothesis or a rule of the algorithm write (`text_relation`)
    must be its statement's, or its mirror: a fact that says "d·w·x <= 0" cannot state ``d*w_x < 0``.
    ``integer=True`` declares that the statement ``s >= 0`` is about a natural
    number s (needed for a `Split`).
    """

    name: str
    statement: Statement
    origin: str
    text: str
    place: Place | None = None
    integer: bool = False

    def __post_init__(self) -> None:
        if self.origin not in ORIGINS:
            raise InvalidArgument(f"origin={self.origin!r} must be one of {', '.join(ORIGINS)}")
        if self.integer and not (isinstance(self.statement, Rel) and self.statement.op == ">="
                                 and isinstance(self.statement.lhs, sp.Symbol) and self.statement.rhs == 0):
            raise InvalidArgument(f"fact {self.name!r}: integer=True needs a statement of the form s >= 0")
        written = text_relation(self.text)
        if (self.origin in ("hypothesis", "algorithm") and isinstance(self.statement, Rel) and written is not None
                and written not in _AGREEING[self.statement.op]):
            raise InvalidArgument(f"fact {self.name!r}: its text ends in the relation {written!r} but its statement "
                                  f"is {self.statement.lhs} {self.statement.op} {self.statement.rhs}")



@dataclass(frozen=True)
class Step:
    """One step of a note's proof.

    Attributes
    ----------
    id : str
        ``"000.4"``; written (as-the-note-says) steps end in ``w``.
    place : Place
        Where the note makes the step.
    statement : Rel or VecEq
        What the step claims, in the proof's symbols.
    kind : str
        One of `KINDS`.
    uses : tuple of str
        The facts and earlier steps it may use.
    proof : Certificate or Split, optional
        The justification of an inequality (or the divisor of an identity).
    induction : Induction, optional
        For ``kind="induction"``.
    vectors : (Vec, Vec), optional
        For ``kind="cauchy-schwarz"``: the two vectors u, v of ``(u·v)² <= ‖u‖²‖v‖²``.
    claim : str, optional
        The runtime `verify_perceptron.notes.claims.Claim` this step instantiates.
    tie : tuple of str
        Facts used to carry the statement to the claim: positive factors
        (``claim slack = Π factors · step slack``) and equalities.
    written : bool
        True for the note's own wording when it does not follow (an erratum).
    corrected_by, corrects : str, optional
        Links between a written step and its correction.
    comment : str
        A short remark shown with the step.
    """

    id: str
    place: Place
    statement: Statement
    kind: str
    uses: tuple[str, ...] = ()
    proof: Certificate | Split | None = None
    induction: Induction | None = None
    vectors: tuple[Vec, Vec] | None = None
    claim: str | None = None
    tie: tuple[str, ...] = ()
    written: bool = False
    corrected_by: str | None = None
    corrects: str | None = None
    comment: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise InvalidArgument(f"step {self.id}: kind={self.kind!r} must be one of {', '.join(KINDS)}")
        if self.kind == "induction" and self.induction is None and not self.written:
            raise InvalidArgument(f"step {self.id}: kind='induction' needs an Induction")
        if self.kind == "cauchy-schwarz" and self.vectors is None:
            raise InvalidArgument(f"step {self.id}: kind='cauchy-schwarz' needs vectors=(u, v)")


@dataclass(frozen=True)
class Proof:
    """A note's convergence proof: its symbols, vectors, facts and steps.

    Attributes
    ----------
    key : str
        ``"000"`` (the note's number) or another short name.
    note : str
        The seed file.
    convention : str
        The convention the note defines.
    title : str
        One line.
    summary : str
        A paragraph: what the note proves and how this restatement differs.
    symbols : tuple of (Symbol, latex, meaning)
        Every scalar symbol, for display.
    vectors : tuple of (name, latex, meaning)
        Every named vector.
    inner : tuple of (Symbol, Vec, Vec)
        Inner-product symbols: ``w_ws`` is ``(wk, ws)``.
    facts : tuple of Fact
    steps : tuple of Step
    quantities : tuple of (str, Expr)
        The claims' quantity names (``a``, ``N``, ``gamma``, ...) in this proof's symbols.
    mode : str
        ``online`` or ``batch``: which runtime claims the steps speak for.
    """

    key: str
    note: str
    convention: str
    title: str
    summary: str = ""
    symbols: tuple[tuple[sp.Symbol, str, str], ...] = ()
    vectors: tuple[tuple[str, str, str], ...] = ()
    inner: tuple[tuple[sp.Symbol, Vec, Vec], ...] = ()
    facts: tuple[Fact, ...] = ()
    steps: tuple[Step, ...] = ()
    quantities: tuple[tuple[str, sp.Expr], ...] = ()
    mode: str = "online"

    def step(self, step_id: str) -> Step:
        """The step with this id."""
        for s in self.steps:
            if s.id == step_id:
                return s
        raise InvalidArgument(f"step={step_id!r} is not a step of proof {self.key}")

    def fact(self, name: str) -> Fact:
        """The fact with this name."""
        for f in self.facts:
            if f.name == name:
                return f
        raise InvalidArgument(f"fact={name!r} is not a fact of proof {self.key}")

    def replace_step(self, step_id: str, **changes: Any) -> Proof:
        """A copy with one step changed (for mutation tests and experiments)."""
        self.step(step_id)
        return replace(self, steps=tuple(replace(s, **changes) if s.id == step_id else s for s in self.steps))

    def replace_fact(self, name: str, **changes: Any) -> Proof:
        """A copy with one fact changed (``statement=...`` weakens or strengthens it)."""
        self.fact(name)
        return replace(self, facts=tuple(replace(f, **changes) if f.name == name else f for f in self.facts))

    @property
    def inner_table(self) -> dict[sp.Symbol, tuple[Vec, Vec]]:
        """``{symbol: (u, v)}`` for every inner-product symbol."""
        return {s: (u, v) for s, u, v in self.inner}
