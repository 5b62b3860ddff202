"""The hypotheses of the proofs as predicates on runs: the quantities a fact may read, and its exact evaluator.

Each proof of `verify_perceptron.proofs` assumes facts of the theorem and the
algorithm ("on a mistake y·w·x~ <= 0", "y·w*·x~ >= γ", "‖x~‖ <= R"). The proofs
say, once, which of their symbols is which quantity of a run
(`verify_perceptron.proofs.bindings`); from that, each fact's own SymPy
statement is compiled into a `Rule`: a small expression tree of plain tuples
over the run quantities below, stored in the generated module
`verify_perceptron.notes._proof_facts` (a test regenerates it from the proofs
and compares). The checker evaluates those trees on the run's exact values
(`verify_perceptron.check.facts`), so the chain never loads SymPy and the
condition checked is the statement's own, not a copy of it.

A tree is one of

``("q", name)``                     a run quantity (`RUN_QUANTITIES`)
``("c", p, q)``                     the rational p/q
``("+", t, ...)``, ``("*", t, ...)``  sums and products
``("^", t, e)``                     an integer power (e < 0 divides)
``(op, l, r)``                      a comparison, op in ``<= < >= > == !=``
``("and", t, ...)``                 all of them
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from fractions import Fraction
from typing import Any

__all__ = ["RUN_QUANTITIES", "SCOPES", "UNITS", "Rule", "ProofFacts", "evaluate", "quantities_of", "render"]

#: Where a fact is decided, from the least often to the most often.
SCOPES = ("run", "sample", "update", "claim")

#: The quantities of a run a fact may read: name -> (scope, meaning). A sample quantity is the
#: sample's own (the sample of an update, when a fact speaks of the k-th mistake).
RUN_QUANTITIES: dict[str, tuple[str, str]] = {
    "eta": ("run", "the learning rate"),
    "a": ("run", "the step size: w_k - w_{k-1} = a·y·x~ (η; 2η for the hard limiter)"),
    "gamma": ("run", "min_i y_i·w*·x~_i, the separator's margin"),
    "R_sq": ("run", "max_i ‖x~_i‖²"),
    "ws_sq": ("run", "‖w*‖²"),
    "wsb_sq": ("run", "‖w*‖² without its bias weight"),
    "y": ("sample", "the sample's label, ±1"),
    "x_sq": ("sample", "‖x~_i‖²"),
    "x_ws": ("sample", "w*·x~_i"),
    "w_x": ("update", "w_{k-1}·x~, the score of the update's sample before it"),
    "out": ("update", "the output sgn(w_{k-1}·x~) with the convention's sgn(0)"),
    "step": ("update", "the run's step: w_k - w_{k-1} = step·x~ online (a·y), step·Σ_j y_j·x~_j in batch (a)"),
    "n": ("update", "the mistakes in the update"),
    "repeats": ("update", "the most times one sample is among an update's mistakes"),
    "slack": ("claim", "a claim's least slack (rhs - lhs) over the run's updates"),
}

#: How the checker holds a quantity in its integers, as `verify_perceptron.notes.claims.UNITS`: true
#: value = held value · a**p / (L**q · M**r). A rule marked ``scaled`` is homogeneous in these units
#: (each comparison's two sides scale alike), so it may be decided on the integers.
UNITS: dict[str, tuple[int, int, int]] = {
    "gamma": (0, 1, 1), "x_ws": (0, 1, 1), "R_sq": (0, 2, 0), "x_sq": (0, 2, 0),
    "ws_sq": (0, 0, 2), "wsb_sq": (0, 0, 2), "w_x": (1, 2, 0),
}

_COMPARISONS = {
    "<=": lambda l, r: l <= r, "<": lambda l, r: l < r, ">=": lambda l, r: l >= r,
    ">": lambda l, r: l > r, "==": lambda l, r: l == r, "!=": lambda l, r: l != r,
}

Tree = tuple[Any, ...]


@dataclass(frozen=True)
class Rule:
    """One fact of a proof, compiled for runs.

    Attributes
    ----------
    name, origin, text : str
        The fact's name, origin (``hypothesis`` or ``algorithm``) and words.
    formula : str
        Its statement, printed from the SymPy statement in the proof's symbols.
    bound : str
        The same statement over the run's quantities (`render` of `tree`).
    scope : str
        One of `SCOPES`: decided once, on each sample an update was on, at each update, or by a claim.
    tree : tuple
        The predicate (module docstring); a ``claim`` rule's reads only ``slack``, its claim's least slack.
    scaled : bool
        True when `tree` may be evaluated on the checker's integers (`UNITS`).
    claim : str
        For a ``claim`` rule, the runtime claim whose statement is the fact's (checked in the proofs).
    """

    name: str
    origin: str
    text: str
    formula: str
    bound: str
    scope: str
    tree: Tree
    scaled: bool = True
    claim: str = ""

    @cached_property
    def reads(self) -> tuple[str, ...]:
        """The run quantities the rule reads, sorted (walked once a rule: each checked run reads them)."""
        return quantities_of(self.tree)


@dataclass(frozen=True)
class ProofFacts:
    """A proof's hypotheses as rules, and its conclusion.

    ``conclusion`` is the runtime claim the conclusion step instantiates and
    ``statement`` that step's statement, printed.
    """

    key: str
    title: str
    convention: str
    mode: str
    conclusion: str
    statement: str
    rules: tuple[Rule, ...]


def quantities_of(tree: Tree) -> tuple[str, ...]:
    """The quantity names a tree reads, sorted.

    Examples
    --------
    >>> quantities_of(("<=", ("*", ("q", "y"), ("q", "w_x")), ("c", 0, 1)))
    ('w_x', 'y')
    """
    found: set[str] = set()

    def walk(t: Tree) -> None:
        if not t:
            return
        if t[0] == "q":
            found.add(t[1])
        elif t[0] == "^":
            walk(t[1])
        elif t[0] != "c":
            for part in t[1:]:
                walk(part)
    walk(tree)
    return tuple(sorted(found))


def evaluate(tree: Tree, values: Mapping[str, Any]) -> Any:
    """The tree's value for `values` (ints, Fractions or NumPy object arrays of them), exactly.

    A comparison gives a bool (an array of bools for arrays); ZeroDivisionError
    propagates (a fact that divides by zero is not true of the run).

    Examples
    --------
    >>> mistake = ("<=", ("*", ("q", "y"), ("q", "w_x")), ("c", 0, 1))
    >>> evaluate(mistake, {"y": -1, "w_x": 0}), evaluate(("<", *mistake[1:]), {"y": -1, "w_x": 0})
    (True, False)
    >>> evaluate(("^", ("q", "R_sq"), -1), {"R_sq": 4})
    Fraction(1, 4)
    """
    op = tree[0]
    if op == "q":
        return values[tree[1]]
    if op == "c":
        return tree[1] if tree[2] == 1 else Fraction(tree[1], tree[2])
    if op == "+":
        total = evaluate(tree[1], values)
        for part in tree[2:]:
            total = total + evaluate(part, values)
        return total
    if op == "*":
        product = evaluate(tree[1], values)
        for part in tree[2:]:
            product = product * evaluate(part, values)
        return product
    if op == "^":
        base, exponent = evaluate(tree[1], values), tree[2]
        if exponent >= 0:
            return base**exponent
        if _is_array(base):
            return 1 / (base.astype(object) * Fraction(1)) ** -exponent  # raises on a zero entry
        return Fraction(1) / Fraction(base) ** -exponent
    if op == "and":
        result = evaluate(tree[1], values)
        for part in tree[2:]:
            result = result & evaluate(part, values)
        return result
    return _COMPARISONS[op](evaluate(tree[1], values), evaluate(tree[2], values))


def _is_array(value: Any) -> bool:
    return hasattr(value, "astype")


_PRECEDENCE = {"+": 1, "*": 2, "^": 3}


def render(tree: Tree) -> str:
    """The tree as one line of text.

    Examples
    --------
    >>> render(("and", ("!=", ("q", "R_sq"), ("c", 0, 1)), ("<=", ("*", ("q", "x_sq"), ("^", ("q", "R_sq"), -1)), ("c", 1, 1))))
    'R_sq != 0 and x_sq·R_sq^-1 <= 1'
    """
    op = tree[0]
    if op == "and":
        return " and ".join(render(t) for t in tree[1:])
    if op in _COMPARISONS:
        return f"{_term(tree[1], 0)} {op} {_term(tree[2], 0)}"
    return _term(tree, 0)


def _term(tree: Tree, outer: int) -> str:
    op = tree[0]
    if op == "q":
        return str(tree[1])
    if op == "c":
        text = str(tree[1]) if tree[2] == 1 else f"{tree[1]}/{tree[2]}"
        return f"({text})" if outer and (tree[1] < 0 or tree[2] != 1) else text
    if op == "^":
        return f"{_term(tree[1], 3)}^{tree[2]}"
    if op == "*" and tree[1] == ("c", -1, 1):
        rest = _term(("*", *tree[2:]) if len(tree) > 3 else tree[2], 2)
        return f"(-{rest})" if outer > 1 else f"-{rest}"
    level = _PRECEDENCE[op]
    text = (" + " if op == "+" else "·").join(_term(t, level) for t in tree[1:])
    return f"({text})" if outer > level else text
