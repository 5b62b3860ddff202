"""Counter-models: exact values of a proof's symbols and vectors (`CounterModel`), whether a statement
holds at them (`evaluate`), and whether they refute a step from its own assumptions (`refutes`).

A step the checker cannot derive counts as ``not-derivable`` only with a
counter-model, usually read off an exact perceptron run: every assumption
holds there and the claim does not.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import sympy as sp

from ._context import CheckFailed, Known, known_of_fact
from .algebra import BIAS_AXIS, Vec, exact_expr
from .language import Proof, Step
from .relations import Statement, VecEq
from ..errors import InvalidArgument

__all__ = ["CounterModel", "evaluate", "refutes"]


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
        sc = tuple(sorted(((s, exact_expr(v, str(s))) for s, v in scalars.items()), key=lambda p: str(p[0])))
        vc = tuple(sorted((name, tuple(exact_expr(v, name) for v in vec)) for name, vec in (vectors or {}).items()))
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
        return table


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
    >>> from verify_perceptron.proofs.language import le
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



def _counter(proof: Proof, step: Step, known: Mapping[str, Known], model: CounterModel) -> str:
    """Why `model` refutes `step` from its assumptions; raise `CheckFailed` if it does not."""
    try:
        for k in known.values():
            verdict = evaluate(k.statement, model, proof)
            if verdict is not True:
                raise CheckFailed(f"the counter-model violates the assumption ({k.name})")
            if k.integer and not model.values(proof)[k.statement.lhs].is_Integer:
                raise CheckFailed(f"the counter-model gives the natural number in ({k.name}) a non-integer value")
        verdict = evaluate(step.statement, model, proof)
    except InvalidArgument as error:
        raise CheckFailed(str(error)) from None
    if verdict is True:
        raise CheckFailed("the claim holds at the counter-model")
    outcome = "is undefined (a division by zero)" if verdict is None else "fails"
    return f"every assumption holds and the claim {outcome} at {model.source or 'the counter-model'}"



def refutes(proof: Proof, step_id: str, model: CounterModel) -> bool:
    """True when `model` satisfies every assumption of the step and its claim fails (or is undefined).

    Examples
    --------
    >>> from verify_perceptron.proofs.language import Fact, Place, ge, gt
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
        known[name] = (known_of_fact(proof.fact(name)) if any(f.name == name for f in proof.facts)
                       else Known(name, proof.step(name).statement))
    try:
        _counter(proof, step, known, model)
    except CheckFailed:
        return False
    return True
