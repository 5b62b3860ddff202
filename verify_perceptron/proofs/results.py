"""What the checker finds: a `Check` per mechanical check, a `TieResult` per runtime claim, a
`StepResult` per step and a `ProofResult` per proof, each an immutable record.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from .counter import CounterModel
from .language import Proof, Step
from ..errors import InvalidArgument

__all__ = ["Check", "TieResult", "StepResult", "ProofResult", "STATUSES"]

#: The verdicts a step can get.
STATUSES = ("verified", "not-derivable", "undecided")


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
