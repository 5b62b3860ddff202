"""The checker's replay of online updates in Python integers, a chunk at once, where 128 bits do not hold them.

The C replay (`verify_perceptron.check.replay`) stops at any update whose
norms, scores, margins or claim values pass 128 bits, as they do against a
certified separator of hundreds of bits; the checker would then check each
update alone (`Checker.observe`). `ObjectReplay` checks a chunk of such
updates together instead, in NumPy arrays of Python integers: each score from
the prefix sums of the rows, the running quantities by cumulative sums, and
every claim through the same integer program the C replay runs
(`verify_perceptron.notes.claims.compile_program`). It has the C replay's
interface and its rule: it stops before any update that fails a check, or
that gives a claim not yet failed a negative slack, and `Checker.observe`
then decides that update, so the verdicts are the same either way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from . import kernel as _kernel
from ..data.integers import ExactMatrix, row_dots, score_values
from ..notes.claims import OPS, QUANTITIES, Claim, compile_program

__all__ = ["ObjectReplay", "compiled_claims", "object_replay", "online_quantities", "run_program"]

#: The quantities the replay computes at each update, as the C replay's slots name them.
_REPLAYED = ("N", "k", "n", "n_max", "prev_w_sq", "prev_w_ws", "step_sq", "sum_N_xsq", "sum_n_sq", "w_sq", "w_ws")
_AT = {name: QUANTITIES.index(name) for name in _REPLAYED}
_BINARY = {OPS["+"]: lambda a, b: a + b, OPS["-"]: lambda a, b: a - b, OPS["*"]: lambda a, b: a * b}


def run_program(code: Sequence[int], q: Sequence[Any]) -> list[Any]:
    """Each claim's value (one per END) from the postfix `code` over quantities `q`: ints or arrays of
    Python integers, element by element.

    Examples
    --------
    >>> code = [OPS["quantity"], 0, OPS["constant"], 3, OPS["*"], OPS["quantity"], 1, OPS["-"], OPS["end"]]
    >>> [v.tolist() for v in run_program(code, [np.array([1, 2], dtype=object), 4])]  # 3·q0 - q1
    [[-1, 2]]
    """
    stack: list[Any] = []
    out: list[Any] = []
    pc = 0
    while pc < len(code):
        op = code[pc]
        if op == OPS["end"]:
            out.append(stack.pop())
        elif op in (OPS["quantity"], OPS["constant"]):
            pc += 1
            stack.append(q[code[pc]] if op == OPS["quantity"] else code[pc])
        elif op == OPS["neg"]:
            stack.append(-stack.pop())
        elif op == OPS["**"]:
            pc += 1
            stack.append(stack.pop() ** code[pc])
        else:
            b, a = stack.pop(), stack.pop()
            stack.append(_BINARY[op](a, b))
        pc += 1
    return out


@dataclass(frozen=True)
class ObjectReplay:
    """A checker's rows (int64 and, made when first needed, Python integers), norms, margins and compiled claims, for `run`."""

    matrix: ExactMatrix
    Z64: Any
    tie: Any
    norms: Any
    margins: Any
    program: list[int]
    scales: list[int]
    quantities: tuple[int, ...]

    def scores(self, W: Any, rows: Any) -> tuple[Any, Callable[[int], Any]]:
        """Each update's score from the W before it (Python ints), and ``after(m)``: W after the first m updates.

        In C (`verify_perceptron.check.kernel.replay_scores`) where it was
        built and W is int64, up to where W would leave int64; the rest as
        `_numpy_scores` makes them.
        """
        start = W.tolist()
        if (self.Z64 is None or not len(rows) or _kernel.replay_scores is None
                or max(abs(v) for v in start) >= 2**63):
            return self._numpy_scores(W, rows)
        W64, halves = np.array(start, dtype=np.int64), np.empty((len(rows), 2), dtype=np.int64)
        done = _kernel.replay_scores(self.Z64, W64, rows, halves.reshape(-1))
        made = W64.astype(object)
        s = np.asarray(score_values(halves[:done])).astype(object)
        after_rest: Callable[[int], Any] | None = None
        if done < len(rows):  # W would have left int64 at update `done`: the rest as without C
            rest, after_rest = self._numpy_scores(made, rows[done:])
            s = np.concatenate([s, rest])

        def after(m: int) -> Any:
            if m > done:
                if after_rest is None:  # m <= len(rows): past `done` only when the rest was replayed
                    raise AssertionError(f"no W after update {m}: only {done} were replayed")
                return after_rest(m - done)
            return made if m == done else W + self.matrix.rows("object")[rows[:m]].sum(axis=0)

        return s, after

    def _numpy_scores(self, W: Any, rows: Any) -> tuple[Any, Callable[[int], Any]]:
        """`scores` without C: while every W on the way provably stays below 2^62 (|W_j| plus the column's
        Σ|z|, summed in floats with room to spare), the W's are int64 and the scores `row_dots` of int64
        pieces; else all in Python integers."""
        if self.Z64 is not None and len(rows) and self.Z64.shape[1] < 2**19:
            start = W.tolist()
            if max(abs(v) for v in start) < 2**62:
                Z = self.Z64[rows]
                W64 = np.array(start, dtype=np.int64)
                bound = np.abs(W64.astype(np.float64)) + np.abs(Z.astype(np.float64)).sum(axis=0)
                if float(bound.max(initial=0.0)) < 2.0**61:  # exactly below 2^62: float sums of m < 2^40 terms
                    ahead = np.cumsum(Z, axis=0)
                    return row_dots(Z, W64 + (ahead - Z)), lambda m: W + ahead[m - 1].astype(object)
        Z = self.matrix.rows("object")[rows]  # the Python-integer copy, made on first use
        ahead = np.cumsum(Z, axis=0) if len(rows) else Z
        return (Z * (W + (ahead - Z))).sum(axis=1), lambda m: W + ahead[m - 1]

    def run(self, W: Any, counts: Any, state: tuple[int, ...], rows: Any, scores: Any,
            failed: Any) -> tuple[int, tuple[int, ...], list[Any]]:
        """Replay online updates on `rows` from `state` until one needs Python: ``(done, state, verdicts)``,
        as `verify_perceptron.check.replay.CompiledReplay.run` returns them (the state's last entry, the C
        replay's limit, is 0; a verdict's quantities are not kept). W (an object array) and `counts` are
        updated in place."""
        k, N, w_sq, w_ws, sum_N_xsq, sum_n_sq, n_max = state
        rows = np.asarray(rows, dtype=np.int64)
        outside = np.flatnonzero((rows < 0) | (rows >= len(self.matrix.exact)))
        m = int(outside[0]) if len(outside) else len(rows)
        rows = rows[:m]
        s, after = self.scores(W, rows)
        reported = np.asarray(score_values(scores[:m]), dtype=object)
        ok = (s == reported).astype(bool) & ((s < 0).astype(bool) | ((s == 0).astype(bool) & self.tie[rows]))
        wrong = np.flatnonzero(~ok)
        m = int(wrong[0]) if len(wrong) else m
        if m == 0:
            return 0, (*state, 0), [None] * len(self.scales)
        rows, s = rows[:m], s[:m]
        values = online_quantities(state, rows, s, self.norms, self.margins)
        w_sq_after, w_ws_after = values["w_sq"], values["w_ws"]
        q: list[Any] = list(self.quantities)
        for name, at in _AT.items():
            q[at] = values[name]
        slacks = [np.broadcast_to(np.asarray(v, dtype=object), (m,)) for v in run_program(self.program, q)]
        for slack, already in zip(slacks, failed):
            negative = np.flatnonzero((slack < 0).astype(bool))
            if len(negative) and not already:
                m = min(m, int(negative[0]))  # before a claim fails: `Checker.observe` records it
        if m == 0:
            return 0, (*state, 0), [None] * len(self.scales)
        np.add.at(counts, rows[:m], 1)
        W[:] = after(m)
        state = (k + m, N + m, int(w_sq_after[m - 1]), int(w_ws_after[m - 1]),
                 int(values["sum_N_xsq"][m - 1]), sum_n_sq + m, max(n_max, 1), 0)
        verdicts = []
        for slack in slacks:
            t = int(np.argmin(slack[:m]))  # the first update of the smallest slack
            verdicts.append((int(slack[t]), t, None))
        return m, state, verdicts


def online_quantities(state: tuple[int, ...], rows: Any, s: Any, norms: Any, margins: Any,
                      names: frozenset[str] | None = None) -> dict[str, Any]:
    """The replayed quantities (`_REPLAYED`) of online updates 1..m on `rows` whose scores were `s`, from
    the checker's `state` before them (k, N, ‖W‖², W·W*, Σ N_μ‖z_μ‖², Σ n², n_max): each an int or an
    array of m Python integers, exactly; only those in `names` (default: all).

    Examples
    --------
    >>> q = online_quantities((0, 0, 0, 0, 0, 0, 0), np.array([1, 0]), np.array([0, -3], dtype=object),
    ...                       np.array([4, 5], dtype=object), np.array([2, 7], dtype=object))
    >>> q["w_sq"].tolist(), q["prev_w_ws"].tolist(), q["k"].tolist()
    ([5, 3], [0, 7], [1, 2])
    """
    k, N, w_sq, w_ws, sum_N_xsq, sum_n_sq, n_max = state[:7]
    wanted = frozenset(_REPLAYED) if names is None else names
    m = len(rows)
    out: dict[str, Any] = {"n": 1, "n_max": max(n_max, 1)}
    if wanted & {"N", "k", "sum_n_sq"}:
        count = np.arange(1, m + 1, dtype=np.int64).astype(object)
        for name, start in (("N", N), ("k", k), ("sum_n_sq", sum_n_sq)):
            if name in wanted:
                out[name] = start + count
    step_sq: Any = norms[rows] if wanted & {"step_sq", "sum_N_xsq", "w_sq", "prev_w_sq"} else None
    if step_sq is not None:
        out["step_sq"] = step_sq
    if "sum_N_xsq" in wanted:
        out["sum_N_xsq"] = sum_N_xsq + np.cumsum(step_sq)
    if wanted & {"w_sq", "prev_w_sq"}:
        out["w_sq"] = w_sq + np.cumsum(2 * np.asarray(s, dtype=object) + step_sq)
        out["prev_w_sq"] = np.concatenate(([w_sq], out["w_sq"][:-1]))
    if wanted & {"w_ws", "prev_w_ws"}:
        out["w_ws"] = w_ws + np.cumsum(margins[rows])
        out["prev_w_ws"] = np.concatenate(([w_ws], out["w_ws"][:-1]))
    return out


def compiled_claims(claims: Sequence[Claim], constants: Mapping[str, int | Fraction]
                    ) -> tuple[list[int], list[int], tuple[int, ...]] | None:
    """The claims' integer program, its scales and the quantities' starting values (the constants'
    numerators, 0 for the others), as every replay runs them; None for a claim the program cannot state."""
    denominators = {name: v.denominator for name, v in constants.items()
                    if isinstance(v, Fraction) and v.denominator != 1}
    try:
        code, scales = compile_program(list(claims), denominators, any_constant=True)
    except ValueError:
        return None
    quantities = tuple(int(v.numerator if isinstance(v, Fraction) else v) if (v := constants.get(name)) is not None
                       else 0 for name in QUANTITIES)
    return list(code), list(scales), quantities


def object_replay(matrix: ExactMatrix, tie: Any, margins: Any, claims: Sequence[Claim],
                  constants: Mapping[str, int | Fraction]) -> ObjectReplay | None:
    """What `ObjectReplay` needs, or None for a claim the integer program cannot state."""
    compiled = compiled_claims(claims, constants)
    if compiled is None:
        return None
    code, scales, quantities = compiled
    return ObjectReplay(matrix=matrix, Z64=None if matrix.wide else matrix.exact, tie=np.asarray(tie, dtype=bool),
                        norms=np.asarray(matrix.norms).astype(object), margins=np.asarray(margins).astype(object),
                        program=list(code), scales=list(scales), quantities=quantities)
