"""``hard-limiter-plus``: note 001's proof for the hard limiter with sgn(0) = +1, the form textbook and
library code writes (predict +1 when w·x >= 0).

The tie enters note 001's proof at one place only, the fact that on a mistake d·w·x <= 0. With
sgn(0) = +1, x in C1 (d = +1) is misclassified when w·x < 0 and x in C2 (d = -1) when w·x >= 0:
either way d·w·x <= 0 again. This module restates that fact and keeps every derived step of note
001 unchanged (the steps as the note writes them, and their errata, are note 001's and stay in
``001-hard-limiter.md``); the prover checks the whole chain again from the new fact.

Examples
--------
>>> from verify_perceptron.proofs.checking import check_proof
>>> check_proof(PROOF).complete
True
"""

from __future__ import annotations

import dataclasses

from . import note_001
from .language import Fact

__all__ = ["PROOF", "FACTS", "STEPS"]


def _mirrored(fact: Fact) -> Fact:
    if fact.name != "mistake":
        return fact
    return dataclasses.replace(
        fact, place=None,
        text="sgn(0) = +1 (not in the note): C1 is misclassified when w·x < 0, C2 when w·x >= 0; "
             "either way d·w·x <= 0")


FACTS = tuple(_mirrored(f) for f in note_001.FACTS)
STEPS = tuple(dataclasses.replace(s, corrects=None) for s in note_001.STEPS if not s.written)

PROOF = dataclasses.replace(
    note_001.PROOF, key="hard-limiter-plus", convention="hard-limiter-plus",
    title="Note 001's proof with sgn(0) = +1 (hard-limiter-plus): n <= β²·‖w0‖²/α²",
    summary=("Not a note of its own: the hard limiter of note 001 with the tie the other way, sgn(0) = +1, as "
             "textbook and library code predicts (+1 when w·x >= 0). On a mistake d·w·x <= 0 still holds, the "
             "only fact the tie enters, so note 001's derived steps carry over unchanged and are checked here "
             "again: w0·w(n+1) >= 2ηnα, ‖w(n+1)‖² <= 4η²nβ², hence n <= β²‖w0‖²/α²."),
    facts=FACTS, steps=STEPS,
)
