"""Which symbol of a proof is which quantity of a run, and each hypothesis compiled into a rule for runs.

A `Binding` says, once per proof, what each symbol of its hypotheses is on a
run (``"alpha": "gamma"``: note 001's α is the run's min_i y_i·w*·x~_i), how the
run's update reads in the proof's vectors (``wk = w + step·x``), which symbols
the note rescales by a positive factor it never computes (note 002's
‖w*‖ = 1: ``y·x_ws > 0`` holds for w* exactly when it holds for w*/‖w*‖), and
which facts are runtime claims (the averaged perceptron's). `compile_proof`
then turns each fact of origin ``hypothesis`` or ``algorithm`` that the
proof's conclusion depends on into a `verify_perceptron.notes.facts.Rule`:

* a relation ``lhs op rhs`` becomes the same relation with every symbol
  replaced by its run quantities, plus ``den != 0`` for each denominator a
  binding brings in;
* a vector equation (the update rule) becomes, after the run's own update is
  put in for the vector it defines, the conditions that every remaining
  coefficient vanishes;
* a claim fact is checked here to state exactly its claim (equal slacks).

SymPy also decides, here and not at run time, whether a rule is homogeneous in
the checker's integer units (`verify_perceptron.notes.facts.UNITS`) and in each
positive factor a binding leaves out; a rule that is not is refused (a positive
factor) or marked to be evaluated on exact rationals (units). `module_source`
writes the rules of every proof as the module `verify_perceptron.notes._proof_facts`,
which the chain reads without SymPy; regenerate it with::

    python -m verify_perceptron.proofs.bindings

(``python -m verify_perceptron.proofs``, which rewrites the ``proofs/`` documents, writes it too.)

Examples
--------
>>> from verify_perceptron.proofs import hard_limiter_plus
>>> facts = compile_proof(hard_limiter_plus.PROOF)
>>> [(r.name, r.scope, r.bound) for r in facts.rules if r.name in ("mistake", "margin")]
[('mistake', 'update', 'w_x·y <= 0'), ('margin', 'sample', 'x_ws·y >= gamma')]
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import sympy as sp

from ..errors import InvalidArgument
from ..notes.claims import CLAIMS
from ..notes.facts import RUN_QUANTITIES, SCOPES, UNITS, ProofFacts, Rule, render
from .algebra import V, Vec
from .language import Fact, Proof
from .relations import Rel, VecEq

__all__ = ["Binding", "BINDINGS", "compile_proof", "compiled_proofs", "module_source", "formula", "MODULE"]

#: The generated module, relative to the package.
MODULE = Path(__file__).resolve().parent.parent / "notes" / "_proof_facts.py"

_RUN = {name: sp.Symbol(name) for name in RUN_QUANTITIES}
STEP = _RUN["step"]
_CONCLUSIONS = ("mistake-bound", "mistake-bound-batch", "mistake-bound-sum-batch")


@dataclass(frozen=True)
class Binding:
    """How one proof's symbols read on a run.

    Attributes
    ----------
    symbols : mapping of str to str
        Proof symbol -> an expression over `RUN_QUANTITIES` (for a claim fact,
        over the claims' quantities).
    moves : mapping of str to Vec
        For the update rule: each vector the update defines, as the run's
        update writes it (``{"wk": V("w") + STEP·V("x")}``).
    scalar_moves : mapping of str to str
        The same for a scalar the update defines (note 004's bias).
    positive : mapping of str to tuple of tuple of str
        Fact -> groups of run quantities of which the note's symbols are a
        common positive multiple (a rescaling the note makes).
    claims : mapping of str to str
        Fact -> the runtime claim it states.
    conclusion : tuple of str
        The steps whose hypotheses are the theorem's (default: those that
        instantiate a mistake bound).
    """

    symbols: Mapping[str, str]
    moves: Mapping[str, Vec] = field(default_factory=dict)
    scalar_moves: Mapping[str, str] = field(default_factory=dict)
    positive: Mapping[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    claims: Mapping[str, str] = field(default_factory=dict)
    conclusion: tuple[str, ...] = ()


_ONLINE = {"wk": V("w") + STEP * V("x")}
_001 = Binding({"eta": "eta", "d": "y", "y_out": "out", "w_x": "w_x", "x_ws": "x_ws", "alpha": "gamma",
                "x_sq": "x_sq", "beta_sq": "R_sq"}, {"wn1": V("wn") + STEP * V("x")})

#: One binding per proof key.
BINDINGS: dict[str, Binding] = {
    "000": Binding({"eta": "eta", "y": "y", "w_x": "w_x", "x_ws": "x_ws", "gamma": "gamma", "x_sq": "x_sq",
                    "R_sq": "R_sq"}, _ONLINE),
    "001": _001,
    "hard-limiter-plus": _001,
    # Note 002 rescales the samples by 1/R and w* by 1/‖w*‖: w·x and ‖x‖² scale by 1/R², w*·x by an
    # irrational factor, which `positive` leaves out.
    "002": Binding({"y": "y", "w_x": "w_x/R_sq", "x_sq": "x_sq/R_sq", "ws_sq": "ws_sq/ws_sq", "x_ws": "x_ws"},
                   {"wM": V("w") + STEP * V("x"), "W": V("Wp") + STEP * V("X")},
                   positive={"separates": (("x_ws",),)}),
    "003": Binding({"epsilon": "eta", "t": "y", "w_x": "w_x", "m": "gamma"}, {"wn": V("w") + STEP * V("x")},
                   positive={"m>0": (("gamma",),)}),
    # Note 004 normalises α* (not the bias): ρ and y·(x·α* + α0*) share the factor 1/‖α*‖.
    "004": Binding({"lambda": "eta", "y": "y", "m_prev": "y*w_x", "z_ws": "y*x_ws", "rho": "gamma",
                    "as_sq": "wsb_sq/wsb_sq"}, {"ak": V("ap") + STEP * V("x")}, {"alpha0_k": "alpha0_p + step"},
                   positive={"margin": (("x_ws", "gamma"),), "rho>0": (("gamma",),)}),
    "batch": Binding({"a": "a", "gamma": "gamma", "n": "n", "y_j": "y", "w_xj": "w_x", "xj_ws": "x_ws",
                      "delta_P": "repeats"}, {"wk": V("w") + STEP * V("U")}),
    "averaged": Binding({"w_u": "w_ws", "w_sq": "w_sq", "k": "N", "a": "a", "gamma": "gamma", "R_sq": "R_sq"},
                        claims={"lower": "lower-bound", "upper": "upper-bound"}, conclusion=("A.1", "A.4")),
}


def formula(statement: Rel | VecEq) -> str:
    """A statement printed in plain text (``d·w_x <= 0``): the form reports show beside a fact's words.

    Examples
    --------
    >>> d, w_x = sp.symbols("d w_x")
    >>> formula(Rel(d * w_x, "<=", sp.Integer(0)))
    'd·w_x <= 0'
    """
    if isinstance(statement, VecEq):
        return f"{_vec_text(statement.lhs)} = {_vec_text(statement.rhs)}"
    return f"{_text(statement.lhs)} {statement.op} {_text(statement.rhs)}"


def _text(expr: sp.Expr) -> str:
    return sp.sstr(expr, order="lex").replace("**", "^").replace("*", "·")


def _vec_text(v: Vec) -> str:
    if not v.terms:
        return "0"
    parts = [name if c == 1 else f"({_text(c)})·{name}" for name, c in v.terms]
    return " + ".join(parts)


def compile_proof(proof: Proof, binding: Binding | None = None) -> ProofFacts:
    """The proof's hypotheses, as rules for runs (`InvalidArgument` naming the fact when one cannot be bound)."""
    binding = binding if binding is not None else BINDINGS[proof.key]
    conclusion = binding.conclusion or tuple(s.id for s in proof.steps
                                             if not s.written and s.claim in _CONCLUSIONS)
    if not conclusion:
        raise InvalidArgument(f"proof {proof.key}: no step states a mistake bound; name its conclusion")
    needed = _closure(proof, conclusion)
    rules = tuple(_rule(proof, fact, binding) for fact in proof.facts
                  if fact.origin in ("hypothesis", "algorithm") and fact.name in needed)
    claim = "averaged" if proof.key == "averaged" else proof.step(conclusion[0]).claim or ""
    statement = "; ".join(formula(proof.step(s).statement) for s in conclusion)
    return ProofFacts(proof.key, proof.title, proof.convention, proof.mode, claim, statement, rules)


def _closure(proof: Proof, roots: tuple[str, ...]) -> set[str]:
    """Every step and fact the roots use, through the steps they use."""
    steps = {s.id: s for s in proof.steps}
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        step = steps.get(name)
        if step is not None:
            todo += [*step.uses, *step.tie, *(step.induction.base_uses if step.induction else ())]
    return seen


def _rule(proof: Proof, fact: Fact, binding: Binding) -> Rule:
    where = f"proof {proof.key}, fact {fact.name!r}"
    if fact.name in binding.claims:
        return _claim_rule(fact, binding, where)
    if isinstance(fact.statement, VecEq):
        named = {name for name, _ in (fact.statement.lhs - fact.statement.rhs).terms}
        if not named & set(binding.moves):
            raise InvalidArgument(f"{where}: no move says how the run's update reads in {', '.join(sorted(named))}")
        residual = (fact.statement.lhs - fact.statement.rhs).subs(
            {sp.Symbol(k): _parse(v, where) for k, v in binding.scalar_moves.items()}, dict(binding.moves))
        residual = residual.subs(_table(residual.free_symbols - {STEP}, binding, where))
        conditions = [_split(sp.expand(c)) for _, c in residual.terms]
        if any(name in binding.moves for name, _ in residual.terms):
            raise InvalidArgument(f"{where}: the update leaves {residual} in terms of the vector it defines")
        relations = list(dict.fromkeys(conditions)) or [(sp.Integer(0), sp.Integer(0))]
        parts = [("==", lhs, rhs) for lhs, rhs in relations]
    else:
        statement = fact.statement
        table = _table(statement.lhs.free_symbols | statement.rhs.free_symbols, binding, where)
        parts = [(statement.op, statement.lhs.xreplace(table), statement.rhs.xreplace(table))]
    for op, lhs, rhs in parts:
        for group in binding.positive.get(fact.name, ()):
            if _degree(lhs - rhs, [_RUN[q] for q in group]) is None:
                raise InvalidArgument(f"{where}: {lhs} {op} {rhs} changes with the positive factor of {group}")
    denominators = _denominators(fact, binding, where)
    trees: list[tuple[object, ...]] = [("!=", _tree(d, where), ("c", 0, 1)) for d in denominators]
    trees += [(op, _tree(lhs, where), _tree(rhs, where)) for op, lhs, rhs in parts]
    tree = trees[0] if len(trees) == 1 else ("and", *trees)
    reads = {str(s) for op, lhs, rhs in parts for s in (lhs - rhs).free_symbols} | {str(d) for d in denominators}
    unknown = reads - set(RUN_QUANTITIES)
    if unknown:
        raise InvalidArgument(f"{where}: {', '.join(sorted(unknown))} is not a run quantity")
    scope = max((RUN_QUANTITIES[q][0] for q in reads), key=SCOPES.index, default="run")
    scaled = all(_units_ok(lhs - rhs) for _, lhs, rhs in parts)
    return Rule(fact.name, fact.origin, fact.text, formula(fact.statement), render(tree), scope, tree, scaled)


def _table(free: set[sp.Symbol], binding: Binding, where: str) -> dict[sp.Symbol, sp.Expr]:
    """The bindings, once every symbol in `free` has one (else `InvalidArgument` naming those without)."""
    missing = sorted(str(s) for s in free if str(s) not in binding.symbols)
    if missing:
        raise InvalidArgument(f"{where}: no run quantity is bound to {', '.join(missing)}")
    return {sp.Symbol(k): _parse(v, where) for k, v in binding.symbols.items()}


def _parse(text: str, where: str) -> sp.Expr:
    names = set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", text))
    return sp.sympify(text, locals={n: sp.Symbol(n) for n in names})


def _denominators(fact: Fact, binding: Binding, where: str) -> list[sp.Expr]:
    """The denominators the bindings of the fact's symbols bring in: each must be != 0 on the run."""
    statement = fact.statement
    names = {str(s) for s in (statement.lhs.free_symbols | statement.rhs.free_symbols)}
    found: list[sp.Expr] = []
    for name in sorted(names & set(binding.symbols)):
        # Read unevaluated, so that the denominator of ws_sq/ws_sq (which SymPy would cancel) is kept.
        text = binding.symbols[name]
        symbols = {n: sp.Symbol(n) for n in re.findall(r"[A-Za-z_][A-Za-z_0-9]*", text)}
        for part in sp.preorder_traversal(sp.parse_expr(text, local_dict=symbols, evaluate=False)):
            if isinstance(part, sp.Pow) and part.exp.is_negative and part.base.free_symbols \
                    and part.base not in found:
                found.append(part.base)
    return found


def _split(coefficient: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """``c == 0`` as ``positive terms == negated negative terms``: ``step - eta·y`` reads ``step == eta·y``."""
    terms = sp.Add.make_args(coefficient)
    plus = [t for t in terms if not t.could_extract_minus_sign()]
    minus = [-t for t in terms if t.could_extract_minus_sign()]
    return sp.Add(*plus), sp.Add(*minus)


def _degree(expr: sp.Expr, group: list[sp.Symbol]) -> int | None:
    """p with expr(c·group) = c**p·expr for every c > 0, or None."""
    if expr == 0:
        return 0
    c = sp.Symbol("c_scale", positive=True)
    scaled = expr.xreplace({s: c * s for s in group})
    for p in range(-8, 9):
        if sp.simplify(scaled - c**p * expr) == 0:
            return p
    return None


def _units_ok(expr: sp.Expr) -> bool:
    """Does the sign of expr survive the checker's integer units (each quantity times a**p/(L**q·M**r))?"""
    A, L, M = sp.symbols("A_unit L_unit M_unit", positive=True)
    held = {_RUN[name]: _RUN[name] * A**p / (L**q * M**r) for name, (p, q, r) in UNITS.items()}
    if expr == 0:
        return True
    ratio = sp.simplify(expr.xreplace(held) / expr)
    return ratio.free_symbols <= {A, L, M} and all(
        isinstance(f, sp.Symbol) or (isinstance(f, sp.Pow) and isinstance(f.base, sp.Symbol))
        or (f.is_number and f > 0) for f in sp.Mul.make_args(ratio))


def _claim_rule(fact: Fact, binding: Binding, where: str) -> Rule:
    """A fact that is a runtime claim: it must state the claim exactly (equal slacks)."""
    name = binding.claims[fact.name]
    claim = next((c for c in CLAIMS if c.name == name), None)
    if claim is None or not isinstance(fact.statement, Rel) or fact.statement.op == "==":
        raise InvalidArgument(f"{where}: claim {name!r} cannot state it")
    statement = fact.statement
    table = _table(statement.lhs.free_symbols | statement.rhs.free_symbols, binding, where)
    slack = (statement.lhs - statement.rhs) if statement.op in (">=", ">") else (statement.rhs - statement.lhs)
    q = SimpleNamespace(**{n: sp.Symbol(n) for n in claim.uses})
    if sp.simplify(slack.xreplace(table) - claim.slack(q)) != 0:
        raise InvalidArgument(f"{where}: it does not state claim {name!r} ({claim.text})")
    # The claim's least slack over the run's updates: >= 0 when the claim held at every one, > 0 for a strict fact.
    tree = (">" if statement.strict else ">=", ("q", "slack"), ("c", 0, 1))
    return Rule(fact.name, fact.origin, fact.text, formula(statement), f"{claim.text} ({render(tree)})", "claim",
                tree, True, name)


def _tree(expr: sp.Expr, where: str) -> tuple[object, ...]:
    """A SymPy expression as the plain tree of `verify_perceptron.notes.facts`."""
    if isinstance(expr, sp.Symbol):
        return ("q", str(expr))
    if isinstance(expr, sp.Rational):
        return ("c", int(expr.p), int(expr.q))
    if isinstance(expr, sp.Add):
        return ("+", *(_tree(t, where) for t in sp.Add.make_args(expr)))
    if isinstance(expr, sp.Mul):
        return ("*", *(_tree(t, where) for t in sp.Mul.make_args(expr)))
    if isinstance(expr, sp.Pow) and isinstance(expr.exp, sp.Integer):
        return ("^", _tree(expr.base, where), int(expr.exp))
    raise InvalidArgument(f"{where}: {expr} is not a polynomial or a quotient of polynomials")


def compiled_proofs() -> tuple[ProofFacts, ...]:
    """Every bound proof's rules, in the catalogue's order."""
    from .catalog import NOTE_PROOFS  # the catalogue imports every note; loaded when the rules are wanted
    return tuple(compile_proof(e.proof) for e in NOTE_PROOFS if e.proof.key in BINDINGS)


def module_source(proofs: tuple[ProofFacts, ...] | None = None) -> str:
    """The text of `verify_perceptron.notes._proof_facts`."""
    proofs = compiled_proofs() if proofs is None else proofs
    lines = [
        '"""Generated by ``python -m verify_perceptron.proofs.bindings`` from the proofs: do not edit.',
        "",
        "Each proof's hypotheses as rules for runs (`verify_perceptron.notes.facts`); a test regenerates this",
        'module from `verify_perceptron.proofs` and compares."""',
        "",
        "from .facts import ProofFacts, Rule",
        "",
        '__all__ = ["PROOF_FACTS"]',
        "",
        "PROOF_FACTS: tuple[ProofFacts, ...] = (",
    ]
    for p in proofs:
        lines.append(f"    ProofFacts({p.key!r}, {p.title!r}, {p.convention!r}, {p.mode!r}, {p.conclusion!r},")
        lines.append(f"               {p.statement!r}, (")
        for r in p.rules:
            fields = ", ".join(repr(getattr(r, f.name)) for f in dataclasses.fields(r))
            lines.append(f"        Rule({fields}),")
        lines.append("    )),")
    lines.append(")")
    return "\n".join(lines) + "\n"


def main() -> None:
    """Write the generated module, silently."""
    MODULE.write_text(module_source(), encoding="utf-8")


if __name__ == "__main__":
    main()
