"""A small proof language for the convergence proofs, and the checker that decides each step.

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

`check_proof` returns one `StepResult` per step with a status:

``verified``
    the check succeeded (and the step implies the runtime claim it names).
``not-derivable``
    a `CounterModel`, typically the values of an exact perceptron run, satisfies
    every assumption of the step while its claim fails.
``undecided``
    neither: the checker says why, and never counts it as a pass.

A step that uses a ``case`` fact (``N > 0``) holds only in that case, and so
does every step that uses it, until a `Split` on N discharges the case.
Derivations are memoised: re-checking a proof with one step changed re-derives
only what that change touches.

A step that speaks about update k names a `verify_perceptron.notes.claims.Claim`
(``claim="lower-bound"``): the checker evaluates that claim's ``lhs``/``rhs``
on the proof's symbols and confirms that the step's statement implies
``lhs <= rhs``. The claim is looked up in ``claims.CLAIMS`` at check time, so
the runtime check and the symbolic step are one object.

Examples
--------
>>> k, g = sp.symbols("k gamma")
>>> facts = (Fact("g>0", gt(g, 0), "hypothesis", "the margin is positive"),
...          Fact("k-nat", ge(k, 0), "symbol", "a count", integer=True))
>>> step = Step("s1", Place("000", 1, "demo"), ge(k * g, 0), "inequality", ("g>0", "k-nat"),
...             Certificate((T(1, "k-nat", "g>0"),)))
>>> proof = Proof("demo", "demo.txt", "classic", "demo", facts=facts, steps=(step,))
>>> check_proof(proof).steps[0].status
'verified'
>>> flipped = proof.replace_step("s1", statement=le(k * g, -1))
>>> check_proof(flipped).steps[0].status
'undecided'
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Union

import sympy as sp

from ..notes import claims as _claims
from .algebra import (
    BIAS_AXIS, V, Vec, components, dot, exact_expr, lagrange_sos, remainder, unsafe_denominator, vector_components,
)
from ..errors import InvalidArgument

__all__ = [
    "Rel", "VecEq", "Statement", "le", "lt", "ge", "gt", "eq", "Vec", "V",
    "Place", "Fact", "Term", "T", "Certificate", "C", "Split", "Induction", "Step", "Proof",
    "CounterModel", "Check", "TieResult", "StepResult", "ProofResult",
    "KINDS", "STATUSES", "ORIGINS", "check_proof", "evaluate", "refutes",
]

#: How a step is justified.
KINDS = ("identity", "inequality", "induction", "cauchy-schwarz", "rearrangement")
#: The verdicts a step can get.
STATUSES = ("verified", "not-derivable", "undecided")
#: Where a fact comes from. ``initial`` facts describe the state before the first update and
#: may be used only by the base case of an induction.
ORIGINS = ("hypothesis", "algorithm", "symbol", "definition", "initial", "case", "toolkit")

_OPS = ("<=", "<", ">=", ">", "==")
_FLIP = {"<=": ">=", ">=": "<=", "<": ">", ">": "<", "==": "=="}


_sym = exact_expr  # one conversion rule for the whole proof layer: exact values only


# --- statements -----------------------------------------------------------------------------------


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
        object.__setattr__(self, "lhs", _sym(self.lhs, "lhs"))
        object.__setattr__(self, "rhs", _sym(self.rhs, "rhs"))

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
    return Rel(a, "<=", b)  # type: ignore[arg-type]


def lt(a: object, b: object) -> Rel:
    """``a < b``."""
    return Rel(a, "<", b)  # type: ignore[arg-type]


def ge(a: object, b: object) -> Rel:
    """``a >= b``."""
    return Rel(a, ">=", b)  # type: ignore[arg-type]


def gt(a: object, b: object) -> Rel:
    """``a > b``."""
    return Rel(a, ">", b)  # type: ignore[arg-type]


def eq(a: object, b: object) -> Rel:
    """``a == b``."""
    return Rel(a, "==", b)  # type: ignore[arg-type]


# --- facts and justifications ---------------------------------------------------------------------


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


@dataclass(frozen=True)
class Fact:
    """An assumption a step may use: a hypothesis, a rule of the algorithm, a fact about a symbol.

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


@dataclass(frozen=True)
class Term:
    """One term ``coeff·Π factors·square²`` of a certificate; every factor names a fact >= 0."""

    coeff: sp.Rational
    factors: tuple[str, ...] = ()
    square: sp.Expr | Vec | None = None

    def __post_init__(self) -> None:
        value = _sym(self.coeff, "coeff")
        if not value.is_Rational:
            raise InvalidArgument(f"coeff={self.coeff!r} must be a rational number")
        if value < 0:
            raise InvalidArgument(f"coeff={self.coeff} must be >= 0")
        object.__setattr__(self, "coeff", value)
        if self.square is not None and not isinstance(self.square, Vec):
            object.__setattr__(self, "square", _sym(self.square, "square"))


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
    return Term(coeff, tuple(factors), square)  # type: ignore[arg-type]


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


# --- counter-models -------------------------------------------------------------------------------


@dataclass(frozen=True)
class CounterModel:
    """Exact values for a step's symbols and vectors, usually read off a perceptron run.

    Inner-product symbols take the values of their vectors, so a counter-model
    built from vectors is consistent with every identity between them.
    """

    scalars: tuple[tuple[sp.Symbol, sp.Rational], ...]
    vectors: tuple[tuple[str, tuple[sp.Rational, ...]], ...] = ()
    source: str = ""

    @classmethod
    def of(cls, scalars: Mapping[sp.Symbol, object], vectors: Mapping[str, Sequence[object]] | None = None,
           source: str = "") -> CounterModel:
        """Build one from plain mappings, converting every value exactly."""
        sc = tuple(sorted(((s, _sym(v, str(s))) for s, v in scalars.items()), key=lambda p: str(p[0])))
        vc = tuple(sorted((name, tuple(_sym(v, name) for v in vec)) for name, vec in (vectors or {}).items()))
        for s, v in sc:
            if not v.is_Rational:
                raise InvalidArgument(f"counter-model value {s}={v} is not rational")
        return cls(sc, vc, source)

    def values(self, proof: Proof) -> dict[sp.Symbol, sp.Rational]:
        """Every scalar value, inner products included (computed from the vectors)."""
        table: dict[sp.Symbol, sp.Expr] = dict(self.scalars)
        vectors = dict(self.vectors)
        for symbol, u, v in proof.inner:
            if symbol in table or not (u.names | v.names) <= set(vectors):
                continue
            table[symbol] = _evaluate_inner(u, v, vectors, table)
        return table  # type: ignore[return-value]


def _evaluate_vec(v: Vec, vectors: Mapping[str, tuple[sp.Expr, ...]], scalars: Mapping[sp.Symbol, sp.Expr]) -> tuple[sp.Expr, tuple[sp.Expr, ...]]:
    size = len(next(iter(vectors.values()))) if vectors else 0
    bias = sp.Integer(0)
    total = [sp.Integer(0)] * size
    for name, coefficient in v.terms:
        c = coefficient.xreplace(dict(scalars))
        if name == BIAS_AXIS:
            bias += c
        else:
            total = [t + c * x for t, x in zip(total, vectors[name])]
    return bias, tuple(total)


def _evaluate_inner(u: Vec, v: Vec, vectors: Mapping[str, tuple[sp.Expr, ...]], scalars: Mapping[sp.Symbol, sp.Expr]) -> sp.Expr:
    bu, cu = _evaluate_vec(u, vectors, scalars)
    bv, cv = _evaluate_vec(v, vectors, scalars)
    return bu * bv + sum((a * b for a, b in zip(cu, cv)), sp.Integer(0))


def evaluate(statement: Statement, model: CounterModel, proof: Proof) -> bool | None:
    """Whether `statement` holds at `model`: True, False, or None when a side is undefined (÷0).

    Raises `InvalidArgument` naming a symbol the model leaves unassigned.

    Examples
    --------
    >>> k, g = sp.symbols("k gamma")
    >>> m = CounterModel.of({k: 1, g: 0})
    >>> evaluate(le(k, 1 / g**2), m, Proof("d", "d", "classic", "d")) is None
    True
    """
    values = model.values(proof)
    if isinstance(statement, VecEq):
        vectors = dict(model.vectors)
        missing = (statement.names - set(vectors)) | {str(s) for s in statement.free_symbols if s not in values}
        if missing:
            raise InvalidArgument(f"the counter-model leaves {', '.join(sorted(missing))} unassigned")
        return _evaluate_vec(statement.lhs, vectors, values) == _evaluate_vec(statement.rhs, vectors, values)
    sides = []
    for side in (statement.lhs, statement.rhs):
        value = side.xreplace(values)
        left = value.free_symbols
        if left:
            raise InvalidArgument(f"the counter-model leaves {', '.join(sorted(map(str, left)))} unassigned")
        if not value.is_Rational:
            return None
        sides.append(value)
    a, b = sides
    return bool({"<=": a <= b, "<": a < b, ">=": a >= b, ">": a > b, "==": a == b}[statement.op])


# --- results --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Check:
    """One mechanical check and its outcome."""

    label: str
    ok: bool
    detail: str


@dataclass(frozen=True)
class TieResult:
    """Whether a step implies the runtime claim it names.

    ``how`` is ``"exact"`` (the claim is the step, possibly modulo an equality
    the step lists in ``tie`` such as y² = 1), ``"implied: ..."`` (the claim's
    slack is F times the step's, F a product of facts known > 0), or why it
    failed. ``lhs`` and ``rhs`` are the claim on the proof's symbols.
    """

    claim: str
    holds: bool
    how: str
    lhs: sp.Expr | None = None
    rhs: sp.Expr | None = None


@dataclass(frozen=True)
class StepResult:
    """The checker's verdict on one step.

    ``status`` is one of `STATUSES`; ``reason`` says why (the successful
    checks, or what failed and, for ``not-derivable``, the counter-model);
    ``conditions`` lists the case facts the step holds under (``N > 0``).
    """

    step: Step
    status: str
    reason: str
    checks: tuple[Check, ...] = ()
    tie: TieResult | None = None
    counter_model: CounterModel | None = None
    conditions: tuple[str, ...] = ()


@dataclass(frozen=True)
class ProofResult:
    """Every step's verdict, in order."""

    proof: Proof
    steps: tuple[StepResult, ...] = field(default=())

    def result(self, step_id: str) -> StepResult:
        """The verdict on one step."""
        for r in self.steps:
            if r.step.id == step_id:
                return r
        raise InvalidArgument(f"step={step_id!r} is not a step of proof {self.proof.key}")

    @property
    def complete(self) -> bool:
        """True when every restated step is verified and every written one shown not derivable."""
        return all(r.status == ("not-derivable" if r.step.written else "verified") for r in self.steps)


# --- the checker ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Known:
    name: str
    statement: Statement
    integer: bool = False
    initial: bool = False
    # The case facts (``origin="case"``) it holds under: a step inherits those of what it uses.
    conditions: frozenset[Statement] = frozenset()


class _Failure(Exception):
    """A check that did not succeed; the message says why."""


def _quantity(known: _Known) -> sp.Expr:
    statement = known.statement
    if not isinstance(statement, Rel) or statement.is_equality:
        raise _Failure(f"({known.name}) is an equation, not a non-negative quantity")
    return statement.slack()


class _Context:
    """The facts one check may use, and the map from inner-product symbols to components."""

    def __init__(self, proof: Proof, known: Mapping[str, _Known], expand: bool, extra_names: Sequence[str] = ()) -> None:
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

    def get(self, name: str) -> _Known:
        if name not in self.known:
            raise _Failure(f"uses ({name}), which is not among the step's assumptions")
        return self.known[name]

    def positives(self) -> list[sp.Expr]:
        return [self.x(k.statement.slack()) for k in self.known.values()
                if isinstance(k.statement, Rel) and k.statement.strict]

    def equalities(self) -> list[sp.Expr]:
        found: list[sp.Expr] = []
        positives = self.positives()
        for k in self.known.values():
            if isinstance(k.statement, VecEq):
                if not self.expand:
                    raise _Failure(f"({k.name}) is a vector equation; this check does not work in components")
                left, right = self.vec(k.statement.lhs), self.vec(k.statement.rhs)
                found += [sp.expand(a - b) for a, b in zip(left, right)]
            elif k.statement.is_equality:
                difference = self.x(k.statement.lhs - k.statement.rhs)
                bad = unsafe_denominator(difference, positives)
                if bad is not None:
                    raise _Failure(f"({k.name}) divides by {bad}, which is not known to be non-zero")
                found.append(sp.expand(sp.fraction(sp.together(difference))[0]))
        return found


def _needs_components(kind: str, statement: Statement, known: Mapping[str, _Known], certificate: Certificate | None) -> bool:
    if kind in ("identity", "cauchy-schwarz") or isinstance(statement, VecEq):
        return True
    if any(isinstance(k.statement, VecEq) for k in known.values()):
        return True
    return certificate is not None and any(isinstance(t.square, Vec) for t in certificate.terms)


def _prove(proof: Proof, statement: Statement, kind: str, certificate: Certificate | None,
           known: Mapping[str, _Known], sos_vectors: tuple[Vec, Vec] | None = None) -> str:
    """Check one statement from `known` facts; return a description, or raise `_Failure`."""
    certificate = certificate or Certificate()
    if kind == "identity" and not statement.is_equality:
        raise _Failure("an identity step must state an equation")
    if kind in ("inequality", "rearrangement", "cauchy-schwarz") and statement.is_equality:
        raise _Failure(f"a {kind} step must state an inequality")
    for k in known.values():
        if k.initial and kind != "base":
            raise _Failure(f"({k.name}) describes the state before the first update; only a base case may use it")
    extra = tuple(sos_vectors[0].names | sos_vectors[1].names) if sos_vectors else ()
    ctx = _Context(proof, known, _needs_components(kind, statement, known, certificate), extra)
    squares = [t.square for t in certificate.terms if t.square is not None]
    ctx.prepare(statement, *squares)
    positives = ctx.positives()

    divisor = sp.Integer(1)
    for name in certificate.divisor:
        k = ctx.get(name)
        if not (isinstance(k.statement, Rel) and k.statement.strict):
            raise _Failure(f"divides by ({name}), which is not a strictly positive quantity")
        divisor *= ctx.x(k.statement.slack())

    if isinstance(statement, VecEq):
        if certificate.terms:
            raise _Failure("a vector equation is proved by identity, not by a sum of non-negative terms")
        equalities = ctx.equalities()
        for a, b in zip(ctx.vec(statement.lhs), ctx.vec(statement.rhs)):
            left = remainder(sp.fraction(sp.together((a - b) * divisor))[0], equalities)
            if left != 0:
                raise _Failure(f"a component of lhs - rhs does not vanish under the equalities used: {sp.factor(left)} is left")
        return "every component of lhs - rhs vanishes under the equalities used"

    for side in (statement.lhs, statement.rhs):
        bad = unsafe_denominator(ctx.x(side), positives)
        if bad is not None:
            raise _Failure(f"the claim divides by {bad}, which is not known to be non-zero")

    if statement.is_equality:
        if certificate.terms:
            raise _Failure("an equation is proved by identity, not by a sum of non-negative terms")
        residual = ctx.x(statement.lhs - statement.rhs) * divisor
        what = "lhs - rhs"
    else:
        total = sp.Integer(0)
        has_strict_term = False
        for term in certificate.terms:
            value: sp.Expr = term.coeff
            strict = term.coeff > 0 and term.square is None
            for name in term.factors:
                k = ctx.get(name)
                value *= ctx.x(_quantity(k))
                strict = strict and isinstance(k.statement, Rel) and k.statement.strict
            if isinstance(term.square, Vec):
                comps = ctx.vec(term.square)
                value *= sum((c * c for c in comps), sp.Integer(0))
            elif term.square is not None:
                value *= ctx.x(term.square) ** 2
            total += value
            has_strict_term = has_strict_term or strict
        if statement.strict and not has_strict_term:
            raise _Failure("the claim is strict, but no term of the certificate is strictly positive")
        residual = ctx.x(statement.slack()) * divisor - total
        if sos_vectors is not None:
            u, v = (ctx.vec(w) for w in sos_vectors)
            residual -= lagrange_sos(u, v)
        what = "rhs - lhs minus the certificate" if statement.op in ("<=", "<") else "lhs - rhs minus the certificate"
    together = sp.together(residual)
    bad = unsafe_denominator(together, positives)
    if bad is not None:
        raise _Failure(f"the certificate divides by {bad}, which is not known to be non-zero")
    left = remainder(sp.fraction(together)[0], ctx.equalities())
    if left != 0:
        raise _Failure(f"{what} does not vanish under the equalities used: {sp.factor(left)} is left")
    where = " in components" if ctx.expand else ""
    if statement.is_equality:
        return f"lhs - rhs vanishes{where} under the equalities used"
    if sos_vectors is not None:
        return f"rhs - lhs equals Lagrange's sum of squares{where} (plus the certificate)"
    return f"the certificate matches {what[:9]}{where} exactly"


def _prove_split(proof: Proof, statement: Rel, split: Split, known: Mapping[str, _Known]) -> str:
    s = split.symbol
    if not any(k.integer and isinstance(k.statement, Rel) and k.statement.lhs == s for k in known.values()):
        raise _Failure(f"a case split on {s} needs a fact {s} >= 0 declared integer among the assumptions")
    zero_known = {}
    for n, k in known.items():
        if any(_decided_false(c.subs({s: sp.Integer(0)})) for c in k.conditions):
            continue  # holds only when s > 0: not available in the case s = 0
        zero_known[n] = replace(k, statement=k.statement.subs({s: sp.Integer(0)}))
    try:
        _prove(proof, statement.subs({s: sp.Integer(0)}), "inequality", split.zero, zero_known)
    except _Failure as failure:
        raise _Failure(f"case {s} = 0: {failure}") from None
    positive_known = dict(known)
    positive_known[f"{s}>=1"] = _Known(f"{s}>=1", ge(s, 1))
    positive_known[f"{s}>0"] = _Known(f"{s}>0", gt(s, 0))
    try:
        _prove(proof, statement, "inequality", split.positive, positive_known)
    except _Failure as failure:
        raise _Failure(f"case {s} >= 1: {failure}") from None
    return f"both cases, {s} = 0 and {s} >= 1, have matching certificates"


def _decided_false(statement: Statement) -> bool:
    """True when a relation between numbers is false (``0 > 0``)."""
    if not isinstance(statement, Rel) or statement.free_symbols:
        return False
    return not bool({"<=": statement.lhs <= statement.rhs, "<": statement.lhs < statement.rhs,
                     ">=": statement.lhs >= statement.rhs, ">": statement.lhs > statement.rhs,
                     "==": statement.lhs == statement.rhs}[statement.op])


def _conditions(step: Step, known: Mapping[str, _Known]) -> frozenset[Statement]:
    """The case facts the step holds under: those of what it uses, less those a split on n discharges."""
    found: set[Statement] = set()
    for k in known.values():
        found |= k.conditions
    if isinstance(step.proof, Split):
        s = step.proof.symbol
        found -= {gt(s, 0), ge(s, 1)}
    return frozenset(found)


def _prove_statement(proof: Proof, statement: Statement, kind: str, justification: Certificate | Split | None,
                     known: Mapping[str, _Known], sos_vectors: tuple[Vec, Vec] | None = None) -> str:
    if isinstance(justification, Split):
        if not isinstance(statement, Rel) or statement.is_equality:
            raise _Failure("a case split proves an inequality")
        return _prove_split(proof, statement, justification, known)
    if kind in ("inequality", "rearrangement") and not statement.is_equality and justification is None:
        raise _Failure("no certificate is given")
    return _prove(proof, statement, kind, justification, known, sos_vectors)


def _prove_induction(proof: Proof, statement: Statement, ind: Induction, known: Mapping[str, _Known],
                     base_known: Mapping[str, _Known]) -> list[Check]:
    previous = dict(ind.previous)
    index = ind.index
    if index not in previous or sp.expand(previous[index] - (index - 1)) != 0:
        raise _Failure(f"the previous value of the index {index} must be {index} - 1")
    # An inner product's previous value must be the inner product of the previous vectors.
    inner = proof.inner_table
    vectors = dict(ind.previous_vectors)
    for symbol, before in previous.items():
        if symbol not in inner:
            continue
        u, v = (w.subs(previous, vectors) for w in inner[symbol])
        if not (before in inner and {(u, v), (v, u)} & {inner[before]}):
            raise _Failure(f"the previous value of {symbol} must be the inner product of the previous vectors "
                           f"(declare how the vectors step back in previous_vectors)")
    checks = []
    base_goal = statement.subs({index: sp.Integer(ind.start)})
    kind = "identity" if statement.is_equality else "inequality"
    try:
        detail = _prove(proof, base_goal, "base", ind.base, base_known)
    except _Failure as failure:
        raise _Failure(f"base case ({index} = {ind.start}): {failure}") from None
    checks.append(Check("base", True, f"{index} = {ind.start}: {detail}"))
    hypothesis = statement.subs(previous, dict(ind.previous_vectors))
    step_known = dict(known)
    step_known["IH"] = _Known("IH", hypothesis)
    at_least, above = ind.range_facts
    step_known[at_least] = _Known(at_least, ge(index, ind.start + 1))
    step_known[above] = _Known(above, gt(index, ind.start))
    try:
        detail = _prove(proof, statement, kind, ind.step, step_known)
    except _Failure as failure:
        raise _Failure(f"induction step ({index} - 1 to {index}): {failure}") from None
    checks.append(Check("step", True, f"from the hypothesis at {index} - 1: {detail}"))
    return checks


@functools.lru_cache(maxsize=16384)
def _derive(inner: tuple[tuple[sp.Symbol, Vec, Vec], ...], statement: Statement, kind: str,
            justification: Certificate | Split | None, induction: Induction | None, vectors: tuple[Vec, Vec] | None,
            known_items: tuple[tuple[str, _Known], ...], base_items: tuple[tuple[str, _Known], ...],
            ) -> tuple[tuple[Check, ...], str | None]:
    """Check one step's derivation: its checks, or the reason it failed.

    Memoised on everything the derivation reads, so re-checking a proof with one
    step changed re-derives only the steps whose inputs changed.
    """
    model = Proof("derivation", "", "", "", inner=inner)
    try:
        if kind == "induction":
            if induction is None:
                raise _Failure("an induction step needs its base and step")
            return tuple(_prove_induction(model, statement, induction, dict(known_items), dict(base_items))), None
        detail = _prove_statement(model, statement, kind, justification, dict(known_items), vectors)
        return (Check("certificate" if kind != "identity" else "identity", True, detail),), None
    except _Failure as error:
        return (), str(error)


class _Quantities:
    """The claims' quantities in a proof's symbols; a missing one is named in the error."""

    def __init__(self, proof: Proof) -> None:
        self._proof = proof
        self._table = dict(proof.quantities)

    def __getattr__(self, name: str) -> sp.Expr:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._table[name]
        except KeyError:
            raise AttributeError(f"quantity {name!r} is not defined by proof {self._proof.key}") from None


def _find_claim(name: str) -> _claims.Claim:
    for claim in _claims.CLAIMS:  # read at call time: a patched claims.CLAIMS is what runs
        if claim.name == name:
            return claim
    raise _Failure(f"no runtime claim is named {name!r}")


def _show(statement: Statement) -> str:
    if isinstance(statement, Rel):
        return f"{statement.lhs} {statement.op} {statement.rhs}"
    return "a vector equation"


def _tie(proof: Proof, step: Step, known: Mapping[str, _Known], env: Mapping[str, _Known],
         conditions: frozenset[Statement] = frozenset()) -> TieResult:
    """Whether the step implies the runtime claim it names (the claim is read from claims.CLAIMS now)."""
    assert step.claim is not None
    try:
        claim = _find_claim(step.claim)
    except _Failure as failure:
        return TieResult(step.claim, False, str(failure))
    for name in step.tie:
        if name not in env:
            return TieResult(claim.name, False, f"tie fact ({name}) is neither a fact nor an earlier step")
    shell = Proof(proof.key, proof.note, proof.convention, proof.title, quantities=proof.quantities, mode=proof.mode)
    return _tie_of(claim, shell, step.statement, step.tie, tuple(sorted(known.items())),
                   tuple((name, env[name]) for name in step.tie), conditions)


@functools.lru_cache(maxsize=8192)
def _tie_of(claim: _claims.Claim, proof: Proof, statement: Statement, tie: tuple[str, ...],
            known_items: tuple[tuple[str, _Known], ...], tie_items: tuple[tuple[str, _Known], ...],
            conditions: frozenset[Statement]) -> TieResult:
    """`_tie`'s check, memoised on the claim object itself: a replaced claim is checked afresh."""
    known = dict(known_items)
    env = dict(tie_items)
    if claim.conventions and proof.convention not in claim.conventions and proof.convention != "*":
        return TieResult(claim.name, False, f"the runtime checks {claim.name} only for {', '.join(claim.conventions)}")
    if proof.mode not in claim.modes:
        return TieResult(claim.name, False, f"the runtime checks {claim.name} only in {', '.join(claim.modes)} mode")
    if not isinstance(statement, Rel) or statement.is_equality:
        return TieResult(claim.name, False, "only an inequality can carry a runtime claim")
    count = dict(proof.quantities).get("N")
    runtime_cases = {gt(count, 0), ge(count, 1)} if count is not None else set()
    extra = [c for c in conditions if c not in runtime_cases]
    if extra:
        return TieResult(claim.name, False, "holds only when " + ", ".join(_show(c) for c in extra)
                         + ", which the runtime check does not assume")
    try:
        q = _Quantities(proof)
        lhs, rhs = sp.sympify(claim.lhs(q)), sp.sympify(claim.rhs(q))
    except AttributeError as error:
        return TieResult(claim.name, False, str(error))
    tie_known = dict(known)
    factor = sp.Integer(1)
    for name in tie:
        k = env[name]
        tie_known[name] = k
        if isinstance(k.statement, Rel) and k.statement.strict:
            factor *= k.statement.slack()
        elif not k.statement.is_equality:
            return TieResult(claim.name, False, f"tie fact ({name}) is neither positive nor an equation", lhs, rhs)
    # Only the tie's own equalities may be used to carry the step to the claim; positive facts of the step
    # still vouch for its denominators.
    usable = {n: k for n, k in tie_known.items() if not isinstance(k.statement, VecEq)
              and (n in tie or not k.statement.is_equality)}
    ctx = _Context(proof, usable, expand=False)
    residual = sp.together((rhs - lhs) - factor * statement.slack())
    try:
        bad = unsafe_denominator(residual, ctx.positives())
        if bad is not None:
            raise _Failure(f"divides by {bad}, which is not known to be non-zero")
        left = remainder(sp.fraction(residual)[0], ctx.equalities())
        if left != 0:
            left = sp.factor(left)
            raise _Failure(f"the claim's rhs - lhs is not {'' if factor == 1 else 'a positive multiple of '}the step's: {left} is left")
    except _Failure as failure:
        return TieResult(claim.name, False, str(failure), lhs, rhs)
    if factor == 1 and sp.expand(sp.together((rhs - lhs) - statement.slack())) == 0:
        return TieResult(claim.name, True, "exact", lhs, rhs)
    equalities = [n for n, k in usable.items() if k.statement.is_equality]
    modulo = f" modulo ({'), ('.join(sorted(equalities))})" if equalities and factor == 1 else ""
    if factor == 1:
        return TieResult(claim.name, True, f"exact{modulo}", lhs, rhs)
    return TieResult(claim.name, True, f"implied: the claim's slack is {factor} > 0 times the step's", lhs, rhs)


def _counter(proof: Proof, step: Step, known: Mapping[str, _Known], model: CounterModel) -> str:
    """Why `model` refutes `step` from its assumptions; raise `_Failure` if it does not."""
    try:
        for k in known.values():
            verdict = evaluate(k.statement, model, proof)
            if verdict is not True:
                raise _Failure(f"the counter-model violates the assumption ({k.name})")
            if k.integer and not model.values(proof)[k.statement.lhs].is_Integer:  # type: ignore[union-attr]
                raise _Failure(f"the counter-model gives the natural number in ({k.name}) a non-integer value")
        verdict = evaluate(step.statement, model, proof)
    except InvalidArgument as error:
        raise _Failure(str(error)) from None
    if verdict is True:
        raise _Failure("the claim holds at the counter-model")
    outcome = "is undefined (a division by zero)" if verdict is None else "fails"
    return f"every assumption holds and the claim {outcome} at {model.source or 'the counter-model'}"


def _borrowed_justification(proof: Proof, step: Step) -> Certificate | Split | None:
    """For a step as the note writes it: its own justification, else its correction's, tried as is."""
    if step.proof is not None or step.corrected_by is None:
        return step.proof
    corrected = proof.step(step.corrected_by)
    return corrected.proof if corrected.kind == step.kind else None


def _known_of_fact(f: Fact) -> _Known:
    cases = frozenset({f.statement}) if f.origin == "case" else frozenset()
    return _Known(f.name, f.statement, f.integer, f.origin == "initial", cases)


def refutes(proof: Proof, step_id: str, model: CounterModel) -> bool:
    """True when `model` satisfies every assumption of the step and its claim fails (or is undefined).

    Examples
    --------
    >>> k = sp.Symbol("k")
    >>> step = Step("s", Place("000", None, "demo"), gt(k, 0), "inequality", ("k-nat",), written=True)
    >>> proof = Proof("d", "d", "classic", "d", facts=(Fact("k-nat", ge(k, 0), "symbol", "a count", integer=True),),
    ...               steps=(step,))
    >>> refutes(proof, "s", CounterModel.of({k: 0})), refutes(proof, "s", CounterModel.of({k: 2}))
    (True, False)
    """
    step = proof.step(step_id)
    known = {}
    for name in step.uses:
        known[name] = (_known_of_fact(proof.fact(name)) if any(f.name == name for f in proof.facts)
                       else _Known(name, proof.step(name).statement))
    try:
        _counter(proof, step, known, model)
    except _Failure:
        return False
    return True


def check_proof(proof: Proof, *, counter_models: Mapping[str, CounterModel] | None = None) -> ProofResult:
    """Check every step of `proof`, in order.

    Parameters
    ----------
    proof : Proof
    counter_models : mapping of step id to CounterModel, optional
        Counter-models for the steps the note writes wrongly (from exact runs).

    Returns
    -------
    ProofResult
        One `StepResult` per step. A step is ``verified`` only when its check
        succeeded, it depends only on verified steps, and it implies the
        runtime claim it names; ``not-derivable`` only with a counter-model
        that satisfies its assumptions and refutes it; else ``undecided``.
    """
    counter_models = counter_models or {}
    env: dict[str, _Known] = {}
    for f in proof.facts:
        if f.name in env:
            raise InvalidArgument(f"proof {proof.key}: fact name {f.name!r} is used twice")
        env[f.name] = _known_of_fact(f)
    status_of: dict[str, str] = {}
    written_ids = {s.id for s in proof.steps if s.written}
    results = []
    for step in proof.steps:
        if step.id in env or step.id in status_of:
            raise InvalidArgument(f"proof {proof.key}: step id {step.id!r} is used twice")
        for name in (*step.uses, *(step.induction.base_uses if step.induction else ())):
            if name in written_ids:
                raise InvalidArgument(f"step {step.id} uses {name}, a step as the note writes it; use its correction")
            if name not in env and name not in status_of:
                raise InvalidArgument(f"step {step.id}: uses={name!r} names no fact and no earlier step")
        known = {name: env[name] for name in step.uses if name in env}
        base_known = {name: env[name] for name in (step.induction.base_uses if step.induction else ()) if name in env}
        justification = step.proof if not step.written else _borrowed_justification(proof, step)
        found, failure = _derive(proof.inner, step.statement, step.kind, justification, step.induction, step.vectors,
                                 tuple(sorted(known.items())), tuple(sorted(base_known.items())))
        checks = list(found)
        if failure is not None:
            checks.append(Check("derivation", False, failure))
        conditions = _conditions(step, known)
        tie = None
        if step.claim is not None:
            tie = _tie(proof, step, known, env, conditions)
            checks.append(Check("runtime claim", tie.holds, f"{tie.claim}: {tie.how}"))
        pending = [name for name in dict.fromkeys((*step.uses, *(step.induction.base_uses if step.induction else ()),
                                                   *step.tie))
                   if name in status_of and status_of[name] != "verified"]
        model = counter_models.get(step.id)
        if failure is None and (tie is None or tie.holds) and not pending:
            status = "verified"
            reason = "; ".join(c.detail for c in checks if c.label != "runtime claim")
        elif failure is None and (tie is None or tie.holds):
            status, reason = "undecided", f"depends on {', '.join(pending)}, not verified"
        else:
            status = "undecided"
            reason = failure if failure is not None else f"does not imply the runtime claim {tie.claim}: {tie.how}"  # type: ignore[union-attr]
            if model is not None:
                try:
                    reason = _counter(proof, step, known, model) + f"; {reason}"
                    status = "not-derivable"
                except _Failure as error:
                    reason = f"{reason}; the counter-model does not refute it: {error}"
        shown = tuple(sorted(_show(c) for c in conditions))
        results.append(StepResult(step, status, reason, tuple(checks), tie, model, shown))
        status_of[step.id] = status
        if not step.written:
            env[step.id] = _Known(step.id, step.statement, conditions=conditions)
    return ProofResult(proof, tuple(results))
