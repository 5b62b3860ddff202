"""Every hypothesis of every proof, mutated, is refuted: by a run on which the mutant is false, or by the prover.

A mutant changes one fact the way a reviewer's slip would (strict for non-strict
and back, a term dropped, a sign changed) and its words with it, so that the
words still agree with the statement (`language.Fact` refuses them otherwise).
A weaker hypothesis is true of every run, so only the prover can refute it (a
step that needed the fact no longer checks); a stronger one is still enough for
the prover, so only a run can refute it (the rule compiled from the mutant fails
on the run). Each test names which refutes which.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from fractions import Fraction

import pytest
import sympy as sp

from tests.test_facts import decide
from verify_perceptron.data.dataset import Dataset, from_arrays
from verify_perceptron.data.examples import example
from verify_perceptron.errors import InvalidArgument
from verify_perceptron.notes._proof_facts import PROOF_FACTS
from verify_perceptron.notes.conventions import CONVENTIONS
from verify_perceptron.proofs.bindings import BINDINGS, compile_proof, formula
from verify_perceptron.proofs.catalog import NOTE_PROOFS
from verify_perceptron.proofs.checking import check_proof
from verify_perceptron.proofs.language import Fact, Proof
from verify_perceptron.proofs.relations import Rel, VecEq

_STRICT = {"<=": "<", "<": "<=", ">=": ">", ">": ">="}


def _generated(seed: int) -> Dataset:
    """Separable data: integer points in [-3, 3]² labelled by sign(2·x1 - x2 + 1/2), in a seeded order."""
    rng = random.Random(seed)
    points = [(rng.randint(-3, 3), rng.randint(-3, 3)) for _ in range(12)]
    labels = [1 if 2 * a - b + Fraction(1, 2) > 0 else -1 for a, b in points]
    return from_arrays([list(p) for p in points], labels, source=f"generated, seed {seed}")


#: The runs that may refute a mutant: (name, data, rate).
RUNS = (("AND", lambda: example("and"), Fraction(1)), ("AND, rate 1/2", lambda: example("and"), Fraction(1, 2)),
        ("modified OR", lambda: example("modified-or"), Fraction(1)),
        ("generated, seed 1", lambda: _generated(1), Fraction(1)),
        ("generated, seed 2", lambda: _generated(2), Fraction(3, 4)))


def _drop(expr: sp.Expr) -> sp.Expr | None:
    """The expression with its last term (or factor) left out, or None when it has one."""
    if isinstance(expr, (sp.Add, sp.Mul)) and len(expr.args) > 1:
        return expr.func(*expr.args[:-1])
    return None


def mutants(fact: Fact) -> Iterator[tuple[str, Fact]]:
    """``(kind, mutant)`` for each slip that applies to the fact, its words rewritten to agree."""
    s = fact.statement
    if isinstance(s, VecEq):
        (last, c), rest = s.rhs.terms[-1], dict(s.rhs.terms[:-1])
        changed: dict[str, VecEq | Rel] = {"a wrong sign": VecEq(s.lhs, type(s.rhs).of({**rest, last: -c})),
                   "a dropped term": VecEq(s.lhs, type(s.rhs).of(rest))}
    else:
        changed = {}
        if s.op in _STRICT:
            changed["strict" if s.op in ("<=", ">=") else "non-strict"] = Rel(s.lhs, _STRICT[s.op], s.rhs)
        else:
            changed["a shifted side"] = Rel(s.lhs, s.op, s.rhs + 1)
        changed["a wrong sign"] = Rel(s.lhs, s.op, -s.rhs) if s.rhs != 0 else Rel(-s.lhs, s.op, s.rhs)
        for side in ("lhs", "rhs"):
            dropped = _drop(getattr(s, side))
            if dropped is not None:
                changed["a dropped term"] = dataclasses.replace(s, **{side: dropped})
                break
    for kind, statement in changed.items():
        yield kind, dataclasses.replace(fact, statement=statement, text=f"mutated: {formula(statement)}")


def _runs_of(proof: Proof) -> list[tuple[str, str, str]]:
    """(run name, convention, mode) for the proof's runs."""
    if proof.key == "batch":
        return [(name, c, "batch") for name, _, _ in RUNS for c in ("classic", "hard-limiter")]
    convention = "classic" if proof.convention == "*" else proof.convention
    return [(name, convention, "online") for name, _, _ in RUNS]


def refuter(proof: Proof, kind: str, fact: Fact) -> str:
    """The name of the first run on which the mutant's rule fails, else ``prover``, else ``survived``."""
    mutant = proof.replace_fact(fact.name, statement=fact.statement, text=fact.text)
    try:
        rules = compile_proof(mutant, BINDINGS[proof.key])
    except InvalidArgument:
        rules = None  # the mutant cannot be read on a run (it is no longer homogeneous, or no longer its claim)
    if rules is not None:
        data = {name: (make, rate) for name, make, rate in RUNS}
        for name, convention, mode in _runs_of(proof):
            make, rate = data[name]
            rate = Fraction(1) if CONVENTIONS[convention].rate_fixed else rate
            (result,) = decide(make(), convention, [rules], mode=mode, rate=rate)
            if any(f.rule.name == fact.name and f.holds is False for f in result.facts):
                return f"run {name} ({convention}, {mode})"
    base, mutated = check_proof(proof), check_proof(mutant)
    if any(r.status == "verified" and mutated.result(r.step.id).status != "verified"
           for r in base.steps if not r.step.written):
        return "prover"
    return "survived"


def _cases() -> list[tuple[str, str, str]]:
    # The rules' names from the generated module (equal to what the proofs compile to: test_bindings), so
    # that collecting the tests costs no compilation.
    bound = {p.key: {r.name for r in p.rules} for p in PROOF_FACTS}
    return [(e.proof.key, f.name, kind) for e in NOTE_PROOFS if e.proof.key in bound
            for f in e.proof.facts if f.name in bound[e.proof.key] for kind, _ in mutants(f)]


def _refute(key: str, name: str, kind: str) -> str:
    proof = next(e.proof for e in NOTE_PROOFS if e.proof.key == key)
    mutant = dict(mutants(proof.fact(name)))[kind]
    return refuter(proof, kind, mutant)


def test_the_strict_mistake_of_hard_limiter_plus_is_refuted_by_ands_run() -> None:
    # Issue 29's survivor: with "d·w·x < 0" every step still checks; AND's first update (d = -1, score 0) is false.
    assert _refute("hard-limiter-plus", "mistake", "strict") == "run AND (hard-limiter-plus, online)"


@pytest.mark.parametrize(("key", "name", "kind", "by"), [
    ("000", "radius", "strict", "run AND (classic, online)"),  # the longest sample is an update's
    ("000", "update", "a dropped term", "run AND (classic, online)"),
    ("000", "gamma>0", "non-strict", "prover"),  # weaker: true of every run; 000.11 and 000.13 need γ > 0
    ("001", "output", "a wrong sign", "run AND (hard-limiter, online)"),
    ("batch", "once", "strict", "run AND (classic, batch)"),
    ("averaged", "lower", "a wrong sign", "prover"),
])
def test_a_representative_mutant_of_each_kind_is_refuted_where_expected(key: str, name: str, kind: str,
                                                                        by: str) -> None:
    assert _refute(key, name, kind) == by


@pytest.mark.slow
@pytest.mark.parametrize(("key", "name", "kind"), _cases())
def test_every_mutant_of_every_hypothesis_is_refuted(key: str, name: str, kind: str) -> None:
    assert _refute(key, name, kind) != "survived"
