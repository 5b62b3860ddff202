"""Tying a step to the runtime claim it names: the step's statement must imply the
`verify_perceptron.notes.claims.Claim`'s ``lhs <= rhs`` on the proof's symbols.

The claim is looked up in ``claims.CLAIMS`` at check time, so the runtime check
and the symbolic step are one object: a patched claim is what the step is tied to.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

import sympy as sp

from ._context import CheckFailed, Context, Known
from .algebra import remainder, unsafe_denominator
from .language import Proof, Step
from .relations import Rel, Statement, VecEq, _show, ge, gt
from .results import TieResult
from ..notes import claims as _claims

__all__ = ["tie_to_claim"]


def tie_to_claim(proof: Proof, step: Step, known: Mapping[str, Known], env: Mapping[str, Known],
                 conditions: frozenset[Statement] = frozenset()) -> TieResult:
    """Whether the step implies the runtime claim it names (the claim is read from claims.CLAIMS now)."""
    assert step.claim is not None
    try:
        claim = _find_claim(step.claim)
    except CheckFailed as failure:
        return TieResult(step.claim, False, str(failure))
    for name in step.tie:
        if name not in env:
            return TieResult(claim.name, False, f"tie fact ({name}) is neither a fact nor an earlier step")
    shell = Proof(proof.key, proof.note, proof.convention, proof.title, quantities=proof.quantities, mode=proof.mode)
    return _tie_of(claim, shell, step.statement, step.tie, tuple(sorted(known.items())),
                   tuple((name, env[name]) for name in step.tie), conditions)


@functools.lru_cache(maxsize=8192)
def _tie_of(claim: _claims.Claim, proof: Proof, statement: Statement, tie: tuple[str, ...],
            known_items: tuple[tuple[str, Known], ...], tie_items: tuple[tuple[str, Known], ...],
            conditions: frozenset[Statement]) -> TieResult:
    """`tie_to_claim`'s check, memoised on the claim object itself: a replaced claim is checked afresh."""
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
    ctx = Context(proof, usable, expand=False)
    residual = sp.together((rhs - lhs) - factor * statement.slack())
    try:
        bad = unsafe_denominator(residual, ctx.positives())
        if bad is not None:
            raise CheckFailed(f"divides by {bad}, which is not known to be non-zero")
        left = remainder(sp.fraction(residual)[0], ctx.equalities())
        if left != 0:
            left = sp.factor(left)
            raise CheckFailed(f"the claim's rhs - lhs is not {'' if factor == 1 else 'a positive multiple of '}the step's: {left} is left")
    except CheckFailed as failure:
        return TieResult(claim.name, False, str(failure), lhs, rhs)
    if factor == 1 and sp.expand(sp.together((rhs - lhs) - statement.slack())) == 0:
        return TieResult(claim.name, True, "exact", lhs, rhs)
    equalities = [n for n, k in usable.items() if k.statement.is_equality]
    modulo = f" modulo ({'), ('.join(sorted(equalities))})" if equalities and factor == 1 else ""
    if factor == 1:
        return TieResult(claim.name, True, f"exact{modulo}", lhs, rhs)
    return TieResult(claim.name, True, f"implied: the claim's slack is {factor} > 0 times the step's", lhs, rhs)


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
    """The runtime claim called `name`."""
    for claim in _claims.CLAIMS:  # read at call time: a patched claims.CLAIMS is what runs
        if claim.name == name:
            return claim
    raise CheckFailed(f"no runtime claim is named {name!r}")

