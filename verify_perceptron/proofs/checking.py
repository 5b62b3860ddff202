"""The checker: `check_proof` decides every step of a `verify_perceptron.proofs.language.Proof`, in order.

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
>>> import sympy as sp
>>> from verify_perceptron.proofs.language import Certificate, Fact, Place, T, ge, gt, le
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

from collections.abc import Mapping

from ._context import CheckFailed, Known, known_of_fact
from ._prover import derive
from ._tie import tie_to_claim
from .certificates import Certificate, Split
from .counter import CounterModel, _counter
from .language import Proof, Step
from .relations import Statement, _show, ge, gt
from .results import Check, ProofResult, StepResult
from ..errors import InvalidArgument

__all__ = ["check_proof"]


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
    env: dict[str, Known] = {}
    for f in proof.facts:
        if f.name in env:
            raise InvalidArgument(f"proof {proof.key}: fact name {f.name!r} is used twice")
        env[f.name] = known_of_fact(f)
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
        found, failure = derive(proof.inner, step.statement, step.kind, justification, step.induction, step.vectors,
                                tuple(sorted(known.items())), tuple(sorted(base_known.items())))
        checks = list(found)
        if failure is not None:
            checks.append(Check("derivation", False, failure))
        conditions = _conditions(step, known)
        tie = None
        if step.claim is not None:
            tie = tie_to_claim(proof, step, known, env, conditions)
            checks.append(Check("runtime claim", tie.holds, f"{tie.claim}: {tie.how}"))
        pending = [name for name in dict.fromkeys((*step.uses, *(step.induction.base_uses if step.induction else ()),
                                                   *step.tie))
                   if name in status_of and status_of[name] != "verified"]
        model = counter_models.get(step.id)
        why_not = failure if failure is not None or tie is None or tie.holds else \
            f"does not imply the runtime claim {tie.claim}: {tie.how}"
        if why_not is None and not pending:
            status = "verified"
            reason = "; ".join(c.detail for c in checks if c.label != "runtime claim")
        elif why_not is None:
            status, reason = "undecided", f"depends on {', '.join(pending)}, not verified"
        else:
            status, reason = "undecided", why_not
            if model is not None:
                try:
                    reason = _counter(proof, step, known, model) + f"; {reason}"
                    status = "not-derivable"
                except CheckFailed as error:
                    reason = f"{reason}; the counter-model does not refute it: {error}"
        shown = tuple(sorted(_show(c) for c in conditions))
        results.append(StepResult(step, status, reason, tuple(checks), tie, model, shown))
        status_of[step.id] = status
        if not step.written:
            env[step.id] = Known(step.id, step.statement, conditions=conditions)
    return ProofResult(proof, tuple(results))


def _conditions(step: Step, known: Mapping[str, Known]) -> frozenset[Statement]:
    """The case facts the step holds under: those of what it uses, less those a split on n discharges."""
    found: set[Statement] = set()
    for k in known.values():
        found |= k.conditions
    if isinstance(step.proof, Split):
        s = step.proof.symbol
        found -= {gt(s, 0), ge(s, 1)}
    return frozenset(found)


def _borrowed_justification(proof: Proof, step: Step) -> Certificate | Split | None:
    """For a step as the note writes it: its own justification, else its correction's, tried as is."""
    if step.proof is not None or step.corrected_by is None:
        return step.proof
    corrected = proof.step(step.corrected_by)
    return corrected.proof if corrected.kind == step.kind else None
