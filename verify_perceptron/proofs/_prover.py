"""The prover: decides one step's derivation from its assumptions, by certificate, case split,
Lagrange's identity or induction, memoised in `derive`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import replace

import sympy as sp

from ..deadline import alarm
from ._context import CheckFailed, Context, Known
from .algebra import Vec, lagrange_sos, remainder, unsafe_denominator
from .certificates import Certificate, Induction, Split
from .language import Proof
from .relations import Rel, Statement, VecEq, ge, gt
from .results import Check

__all__ = ["derive", "STEP_SECONDS"]

#: The longest one derivation may take (every step of the notes takes well under 2 s). Past it the step
#: is undecided, never a pass: a mutated step can send the algebra (a Gröbner basis) on a very long road.
STEP_SECONDS = 20.0


class _OutOfTime(BaseException):
    """The derivation's time is up (a BaseException, so that no ``except Exception`` inside SymPy eats it)."""


@functools.lru_cache(maxsize=16384)
def derive(inner: tuple[tuple[sp.Symbol, Vec, Vec], ...], statement: Statement, kind: str,
           justification: Certificate | Split | None, induction: Induction | None, vectors: tuple[Vec, Vec] | None,
           known_items: tuple[tuple[str, Known], ...], base_items: tuple[tuple[str, Known], ...],
           ) -> tuple[tuple[Check, ...], str | None]:
    """Check one step's derivation: its checks, or the reason it failed.

    Memoised on everything the derivation reads, so re-checking a proof with one
    step changed re-derives only the steps whose inputs changed.
    """
    model = Proof("derivation", "", "", "", inner=inner)
    try:
        with alarm(STEP_SECONDS, _OutOfTime):
            if kind == "induction":
                if induction is None:
                    raise CheckFailed("an induction step needs its base and step")
                return tuple(_prove_induction(model, statement, induction, dict(known_items), dict(base_items))), None
            detail = _prove_statement(model, statement, kind, justification, dict(known_items), vectors)
            return (Check("certificate" if kind != "identity" else "identity", True, detail),), None
    except CheckFailed as error:
        return (), str(error)
    except _OutOfTime:
        return (), f"the algebra did not finish within {STEP_SECONDS:g} s"


def _prove_statement(proof: Proof, statement: Statement, kind: str, justification: Certificate | Split | None,
                     known: Mapping[str, Known], sos_vectors: tuple[Vec, Vec] | None = None) -> str:
    """Check a step that is not an induction, by its certificate or its case split."""
    if isinstance(justification, Split):
        if not isinstance(statement, Rel) or statement.is_equality:
            raise CheckFailed("a case split proves an inequality")
        return _prove_split(proof, statement, justification, known)
    if kind in ("inequality", "rearrangement") and not statement.is_equality and justification is None:
        raise CheckFailed("no certificate is given")
    return _prove(proof, statement, kind, justification, known, sos_vectors)


def _prove(proof: Proof, statement: Statement, kind: str, certificate: Certificate | None,
           known: Mapping[str, Known], sos_vectors: tuple[Vec, Vec] | None = None) -> str:
    """Check one statement from `known` facts; return a description, or raise `CheckFailed`."""
    certificate = certificate or Certificate()
    _check_kind(statement, kind, known)
    extra = tuple(sos_vectors[0].names | sos_vectors[1].names) if sos_vectors else ()
    ctx = Context(proof, known, _needs_components(kind, statement, known, certificate), extra)
    squares = [t.square for t in certificate.terms if t.square is not None]
    ctx.prepare(statement, *squares)
    positives = ctx.positives()
    divisor = _divisor(ctx, certificate)

    if isinstance(statement, VecEq):
        return _prove_vector_equation(ctx, statement, certificate, divisor)

    for side in (statement.lhs, statement.rhs):
        bad = unsafe_denominator(ctx.x(side), positives)
        if bad is not None:
            raise CheckFailed(f"the claim divides by {bad}, which is not known to be non-zero")

    if statement.is_equality:
        if certificate.terms:
            raise CheckFailed("an equation is proved by identity, not by a sum of non-negative terms")
        residual = ctx.x(statement.lhs - statement.rhs) * divisor
        what = "lhs - rhs"
    else:
        total, has_strict_term = _certificate_sum(ctx, certificate)
        if statement.strict and not has_strict_term:
            raise CheckFailed("the claim is strict, but no term of the certificate is strictly positive")
        residual = ctx.x(statement.slack()) * divisor - total
        if sos_vectors is not None:
            u, v = (ctx.vec(w) for w in sos_vectors)
            residual -= lagrange_sos(u, v)
        what = "rhs - lhs minus the certificate" if statement.op in ("<=", "<") else "lhs - rhs minus the certificate"
    together = sp.together(residual)
    bad = unsafe_denominator(together, positives)
    if bad is not None:
        raise CheckFailed(f"the certificate divides by {bad}, which is not known to be non-zero")
    left = remainder(sp.fraction(together)[0], ctx.equalities())
    if left != 0:
        raise CheckFailed(f"{what} does not vanish under the equalities used: {sp.factor(left)} is left")
    where = " in components" if ctx.expand else ""
    if statement.is_equality:
        return f"lhs - rhs vanishes{where} under the equalities used"
    if sos_vectors is not None:
        return f"rhs - lhs equals Lagrange's sum of squares{where} (plus the certificate)"
    return f"the certificate matches {what[:9]}{where} exactly"


def _check_kind(statement: Statement, kind: str, known: Mapping[str, Known]) -> None:
    """Fail unless the kind of step fits its statement and every assumption may be used by it."""
    if kind == "identity" and not statement.is_equality:
        raise CheckFailed("an identity step must state an equation")
    if kind in ("inequality", "rearrangement", "cauchy-schwarz") and statement.is_equality:
        raise CheckFailed(f"a {kind} step must state an inequality")
    for k in known.values():
        if k.initial and kind != "base":
            raise CheckFailed(f"({k.name}) describes the state before the first update; only a base case may use it")


def _needs_components(kind: str, statement: Statement, known: Mapping[str, Known], certificate: Certificate | None) -> bool:
    """Whether the check must expand inner products into components (vectors occur in it)."""
    if kind in ("identity", "cauchy-schwarz") or isinstance(statement, VecEq):
        return True
    if any(isinstance(k.statement, VecEq) for k in known.values()):
        return True
    return certificate is not None and any(isinstance(t.square, Vec) for t in certificate.terms)


def _divisor(ctx: Context, certificate: Certificate) -> sp.Expr:
    """The product of the positive quantities the certificate divides the slack by."""
    divisor = sp.Integer(1)
    for name in certificate.divisor:
        k = ctx.get(name)
        if not (isinstance(k.statement, Rel) and k.statement.strict):
            raise CheckFailed(f"divides by ({name}), which is not a strictly positive quantity")
        divisor *= ctx.x(k.statement.slack())
    return divisor


def _prove_vector_equation(ctx: Context, statement: VecEq, certificate: Certificate, divisor: sp.Expr) -> str:
    """Every component of ``lhs - rhs`` (times the divisor) vanishes under the equalities used."""
    if certificate.terms:
        raise CheckFailed("a vector equation is proved by identity, not by a sum of non-negative terms")
    equalities = ctx.equalities()
    for a, b in zip(ctx.vec(statement.lhs), ctx.vec(statement.rhs)):
        left = remainder(sp.fraction(sp.together((a - b) * divisor))[0], equalities)
        if left != 0:
            raise CheckFailed(f"a component of lhs - rhs does not vanish under the equalities used: {sp.factor(left)} is left")
    return "every component of lhs - rhs vanishes under the equalities used"


def _certificate_sum(ctx: Context, certificate: Certificate) -> tuple[sp.Expr, bool]:
    """``Σ c_i·Π(facts)·square²`` over the certificate's terms, and whether some term is strictly positive."""
    total = sp.Integer(0)
    has_strict_term = False
    for term in certificate.terms:
        value: sp.Expr = term.coeff
        # a term is > 0 when its coefficient is and every factor is a strict fact (a square may vanish)
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
    return total, has_strict_term


def _quantity(known: Known) -> sp.Expr:
    """The quantity a fact makes non-negative; an equation has none."""
    statement = known.statement
    if not isinstance(statement, Rel) or statement.is_equality:
        raise CheckFailed(f"({known.name}) is an equation, not a non-negative quantity")
    return statement.slack()


def _prove_split(proof: Proof, statement: Rel, split: Split, known: Mapping[str, Known]) -> str:
    """Prove the inequality in the case ``s = 0`` (substituted) and in the case ``s >= 1``."""
    s = split.symbol
    if not any(k.integer and isinstance(k.statement, Rel) and k.statement.lhs == s for k in known.values()):
        raise CheckFailed(f"a case split on {s} needs a fact {s} >= 0 declared integer among the assumptions")
    zero_known = {}
    for n, k in known.items():
        if any(_decided_false(c.subs({s: sp.Integer(0)})) for c in k.conditions):
            continue  # holds only when s > 0: not available in the case s = 0
        zero_known[n] = replace(k, statement=k.statement.subs({s: sp.Integer(0)}))
    try:
        _prove(proof, statement.subs({s: sp.Integer(0)}), "inequality", split.zero, zero_known)
    except CheckFailed as failure:
        raise CheckFailed(f"case {s} = 0: {failure}") from None
    positive_known = dict(known)
    positive_known[f"{s}>=1"] = Known(f"{s}>=1", ge(s, 1))
    positive_known[f"{s}>0"] = Known(f"{s}>0", gt(s, 0))
    try:
        _prove(proof, statement, "inequality", split.positive, positive_known)
    except CheckFailed as failure:
        raise CheckFailed(f"case {s} >= 1: {failure}") from None
    return f"both cases, {s} = 0 and {s} >= 1, have matching certificates"


def _decided_false(statement: Statement) -> bool:
    """True when a relation between numbers is false (``0 > 0``)."""
    if not isinstance(statement, Rel) or statement.free_symbols:
        return False
    return not bool({"<=": statement.lhs <= statement.rhs, "<": statement.lhs < statement.rhs,
                     ">=": statement.lhs >= statement.rhs, ">": statement.lhs > statement.rhs,
                     "==": statement.lhs == statement.rhs}[statement.op])


def _prove_induction(proof: Proof, statement: Statement, ind: Induction, known: Mapping[str, Known],
                     base_known: Mapping[str, Known]) -> list[Check]:
    """Check the base case from `base_known` and the step from the derived hypothesis ``IH``."""
    previous = dict(ind.previous)
    index = ind.index
    if index not in previous or sp.expand(previous[index] - (index - 1)) != 0:
        raise CheckFailed(f"the previous value of the index {index} must be {index} - 1")
    # An inner product's previous value must be the inner product of the previous vectors.
    inner = proof.inner_table
    vectors = dict(ind.previous_vectors)
    for symbol, before in previous.items():
        if symbol not in inner:
            continue
        u, v = (w.subs(previous, vectors) for w in inner[symbol])
        if not (before in inner and {(u, v), (v, u)} & {inner[before]}):
            raise CheckFailed(f"the previous value of {symbol} must be the inner product of the previous vectors "
                              f"(declare how the vectors step back in previous_vectors)")
    checks = []
    base_goal = statement.subs({index: sp.Integer(ind.start)})
    kind = "identity" if statement.is_equality else "inequality"
    try:
        detail = _prove(proof, base_goal, "base", ind.base, base_known)
    except CheckFailed as failure:
        raise CheckFailed(f"base case ({index} = {ind.start}): {failure}") from None
    checks.append(Check("base", True, f"{index} = {ind.start}: {detail}"))
    hypothesis = statement.subs(previous, dict(ind.previous_vectors))
    step_known = dict(known)
    step_known["IH"] = Known("IH", hypothesis)
    at_least, above = ind.range_facts
    step_known[at_least] = Known(at_least, ge(index, ind.start + 1))
    step_known[above] = Known(above, gt(index, ind.start))
    try:
        detail = _prove(proof, statement, kind, ind.step, step_known)
    except CheckFailed as failure:
        raise CheckFailed(f"induction step ({index} - 1 to {index}): {failure}") from None
    checks.append(Check("step", True, f"from the hypothesis at {index} - 1: {detail}"))
    return checks
