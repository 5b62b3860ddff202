"""Each proof's hypotheses, decided on the run: the bridge between the proofs and the checker.

The rules (`verify_perceptron.notes._proof_facts`, compiled from the proofs'
own SymPy statements) are evaluated exactly, by
`verify_perceptron.notes.facts.evaluate`, on the run's values:

* a ``run`` rule once (γ > 0, the rate);
* a ``sample`` rule on every sample some update was on (the facts speak of
  "the sample of the k-th mistake"), as one array evaluation at the end;
* an ``update`` rule at every update. A rule the proofs mark ``scaled`` is
  homogeneous in the checker's integer units, and reads the update's score only
  through a positive multiple (w·x~ = y·s·a/L², s = z·W the replayed score), so
  its truth at an update depends only on the label, the sign of the score and
  the batch's counts: it is evaluated once per such key, at the first update
  that has it, and the keys of a chunk of updates are found with NumPy. Any
  other rule is evaluated at every update on exact rationals;
* a ``claim`` rule is the runtime claim the proofs showed it states: it holds
  when that claim held at every update.

The scores read here are those the run reported, which the checker's replay
confirms (else ``update-rule`` fails, and with it the run), and ``step`` is
the step the replay confirmed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from . import kernel as _kernel
from ..data.integers import score_values
from ..data.observers import Int64Array
from ..notes._proof_facts import PROOF_FACTS
from ..notes.conventions import Convention
from ..notes.facts import RUN_QUANTITIES, UNITS, ProofFacts, Rule, evaluate
from .results import InvariantResult

__all__ = ["FactResult", "ProofCheck", "FactCheck", "FactObserver", "proofs_for", "fact_check"]

#: Sample rules are evaluated on this many samples at a time (`FactCheck._samples`).
SAMPLE_PIECE = 2**14

#: Quantities that exist only with a separator.
_SEPARATOR = frozenset({"gamma", "x_ws", "ws_sq", "wsb_sq"})


def proofs_for(convention: str, mode: str) -> list[ProofFacts]:
    """The bound proofs a run of this convention and mode is an instance of (the averaged one aside).

    Examples
    --------
    >>> [p.key for p in proofs_for("hard-limiter-plus", "online")], [p.key for p in proofs_for("classic", "batch")]
    (['hard-limiter-plus'], ['batch'])
    """
    if mode == "batch":
        return [p for p in PROOF_FACTS if p.key == "batch"]
    return [p for p in PROOF_FACTS if p.convention == convention]


@dataclass
class FactResult:
    """One hypothesis on one run: held, failed (first where, with the values), or not checked (why)."""

    rule: Rule
    holds: bool | None = True
    n_checked: int = 0
    update: int | None = None
    sample: int | None = None
    values: tuple[tuple[str, Fraction], ...] = ()
    skipped: str | None = None

    def fail(self, update: int | None, sample: int | None, values: Mapping[str, Any]) -> None:
        if self.holds is False:
            return
        self.holds, self.update, self.sample = False, update, sample
        self.values = tuple(sorted((k, Fraction(v)) for k, v in values.items() if k in self.rule.reads))


@dataclass(frozen=True)
class ProofCheck:
    """A proof's hypotheses on one run, and the run's size."""

    proof: ProofFacts
    facts: tuple[FactResult, ...]
    n_updates: int

    @property
    def holds(self) -> bool | None:
        """True when every hypothesis held, False when one failed, None when one was not checked."""
        if any(f.holds is False for f in self.facts):
            return False
        return None if any(f.holds is None for f in self.facts) else True


class FactCheck:
    """The proofs' hypotheses on one run, told of its updates as the checker is.

    Parameters
    ----------
    proofs : sequence of ProofFacts
        The proofs to decide.
    conv, rate, a, L, M : the run's convention, rate, step size and the checker's units
    labels : array of int
        y_i.
    norms : array
        ‖z_i‖² = L²·‖x~_i‖².
    margins : array or None
        z_i·W* = y_i·L·M·w*·x~_i, None without a separator.
    separator : dict
        The scaled run quantities of w*: ``gamma``, ``ws_sq``, ``wsb_sq`` (empty without one).
    mode : {"online", "batch"}
        The run's mode: its step is a·y·x~ online, a·Σ_j y_j·x~_j in batch.
    """

    def __init__(self, proofs: Sequence[ProofFacts], *, conv: Convention, rate: Fraction, a: Fraction, L: int, M: int,
                 labels: Any, norms: Any, max_norm_sq: int, margins: Any | None,
                 separator: Mapping[str, int], mode: str = "online") -> None:
        self.proofs = list(proofs)
        self.batch = mode == "batch"
        self.results = {p.key: tuple(FactResult(r) for r in p.rules) for p in self.proofs}
        self.a, self.L, self.M = a, L, M
        self.y = np.asarray(labels, dtype=np.int64)
        self.norms, self.margins = norms, margins
        self.zero_out = -1 if conv.decide(Fraction(0), 1, rate) is not None else 1  # the convention's sgn(0)
        self.scaled_run: dict[str, Any] = {"eta": rate, "a": a, "R_sq": max_norm_sq, **separator}
        self._separator = separator
        self._true_run: dict[str, Any] | None = None  # the true values: made when a rule or a failure reads them
        self.first_at = np.zeros(len(self.y), dtype=np.int64)  # the first update on each sample (0: none)
        self.keys: set[tuple[Any, ...]] = set()
        self.codes: set[int] = set()  # the keys of online chunks met so far
        self.k = 0
        active = [f for results in self.results.values() for f in results]
        for f in active:
            if _SEPARATOR & set(f.rule.reads) and margins is None:
                f.holds, f.skipped = None, "no separator: the run did not converge and none was given"
        self.update_rules = [f for f in active if f.rule.scope == "update" and f.skipped is None]
        # Keyed by (label, sign of the score, n, repeats) when every update rule allows it, else every update.
        self.by_key = all(f.rule.scaled and not (set(f.rule.reads) & {"x_sq", "x_ws"}) for f in self.update_rules)

    @property
    def true_run(self) -> dict[str, Any]:
        """The run quantities in true units (made on first use: the scaled rules, most of them, never read them)."""
        if self._true_run is None:
            a, L, M = self.a, self.L, self.M
            true = {"eta": self.scaled_run["eta"], "a": a, "R_sq": Fraction(self.scaled_run["R_sq"], L * L)}
            for name, value in self._separator.items():
                p, q, r = UNITS[name]
                true[name] = Fraction(value) * a**p / (L**q * M**r)
            self._true_run = true
        return self._true_run

    # --- updates -------------------------------------------------------------------------------

    def observe(self, k: int, samples: Sequence[int], scores: Sequence[int | Fraction]) -> None:
        """Update k, on `samples` (one online), whose replayed scaled scores z_j·W_(k-1) were `scores`."""
        self.k = k
        if any(not 0 <= j < len(self.y) for j in samples):
            return  # no such sample: the update rule's check says so, and the run is not verified
        rows = np.asarray(samples, dtype=np.int64)
        self._first(k, rows)
        n, repeats = len(samples), int(np.bincount(rows).max()) if len(rows) else 0
        for j, s in zip(samples, scores):
            self._update(k, int(j), s if isinstance(s, (int, Fraction)) else int(s), n, repeats)

    def observe_chunk(self, first: int, rows: Int64Array, scores: Int64Array) -> None:
        """Online updates first, first + 1, ...: one mistake each on `rows`, with replayed scores `scores`."""
        m = len(rows)
        if not m:
            return
        rows = np.asarray(rows, dtype=np.int64)
        found = _compiled_keys(first, rows, scores, self.y, self.first_at)  # the first updates and keys in C
        if found is None:
            if rows.min() < 0 or rows.max() >= len(self.y):
                for t in range(m):  # a sample that does not exist (the update rule's check says so): one at a time
                    self.observe(first + t, [int(rows[t])], score_values(scores[t:t + 1]).tolist())
                return
            self._first(first, rows)
        self.k = first + m - 1
        if not self.update_rules:
            return
        if not self.by_key:
            for t, s in enumerate(score_values(scores)):
                self._update(first + t, int(rows[t]), int(s), 1, 1)
            return
        if found is None:
            codes = (self.y[rows] + 1) * 3 + (_signs(scores) + 1)  # 0..8: (label, sign of y·score)
            new = [c for c in np.flatnonzero(np.bincount(codes, minlength=9)).tolist() if c not in self.codes]
            at = [int(np.argmax(codes == c)) for c in new]  # (one O(m) count a chunk: a sort, as np.unique
        else:                                               # makes, cost 20 ms on breast cancer)
            new = [c for c, t in enumerate(found) if t >= 0 and c not in self.codes]
            at = [found[c] for c in new]
        self.codes.update(new)
        for t in sorted(at):
            self._update(first + t, int(rows[t]), int(score_values(scores[t:t + 1])[0]), 1, 1)

    def _first(self, first: int, rows: Any) -> None:
        fresh = np.flatnonzero(self.first_at[rows] == 0)[::-1]  # reversed: the earliest assignment wins
        self.first_at[rows[fresh]] = first + fresh

    def _update(self, k: int, i: int, s: int | Fraction, n: int, repeats: int) -> None:
        y = int(self.y[i])
        sign = (s > 0) - (s < 0)
        key = (y, sign * y, n, repeats) if self.by_key else (k, i)
        if key in self.keys:
            return
        self.keys.add(key)
        w_x = y * s  # y·z·W = (L²/a)·w·x~: a positive multiple of the score
        out = 1 if w_x > 0 else -1 if w_x < 0 else self.zero_out
        common = {"y": y, "out": out, "n": n, "repeats": repeats, "step": self.a if self.batch else self.a * y}
        scaled = {**self.scaled_run, **self._sample(i, True), **common, "w_x": w_x}
        exact: dict[str, Any] | None = None  # in true units: made for a rule that is not scaled, or a failure
        for f in self.update_rules:
            values = scaled
            if not f.rule.scaled:
                values = exact = self._exact(i, common, w_x) if exact is None else exact
            f.n_checked += 1
            if not _holds(f.rule, values):
                f.fail(k, i, self._exact(i, common, w_x) if exact is None else exact)

    def _exact(self, i: int, common: dict[str, Any], w_x: int | Fraction) -> dict[str, Any]:
        """An update's values in true units, for sample `i` with score y·z·W = `w_x`."""
        return {**self.true_run, **self._sample(i, False), **common, "w_x": Fraction(w_x) * self.a / self.L**2}

    def _sample(self, i: int, scaled: bool) -> dict[str, Any]:
        norm = int(self.norms[i])
        margin = 0 if self.margins is None else int(self.y[i]) * int(self.margins[i])
        if scaled:
            return {"x_sq": norm, "x_ws": margin}
        return {"x_sq": Fraction(norm, self.L**2), "x_ws": Fraction(margin, self.L * self.M)}

    # --- the end -------------------------------------------------------------------------------

    def finish(self, claims: Mapping[str, InvariantResult], n_updates: int) -> tuple[ProofCheck, ...]:
        """Decide the run and sample rules, read the claim rules; every proof's hypotheses on this run."""
        updated = np.flatnonzero(self.first_at)
        self._read: tuple[Any, ...] | None = None  # the last piece read, for the next sample rule (`_piece`)
        for results in self.results.values():
            for f in results:
                if f.skipped is not None:
                    continue
                if f.rule.scope == "run":
                    f.n_checked = 1
                    if not _holds(f.rule, self.scaled_run if f.rule.scaled else self.true_run):
                        f.fail(None, None, self.true_run)
                elif f.rule.scope == "sample":
                    self._samples(f, updated)
                elif f.rule.scope == "claim":
                    self._claim(f, claims.get(f.rule.claim), n_updates)
                elif f.rule.scope == "update":
                    f.n_checked = n_updates
        self._read = None
        return tuple(ProofCheck(p, self.results[p.key], n_updates) for p in self.proofs)

    def _samples(self, f: FactResult, updated: Any) -> None:
        """A sample rule on every sample an update was on, evaluated on arrays of `SAMPLE_PIECE` samples at a
        time (int64 where a bound on every intermediate value proves it exact, else Python integers or
        Fractions: whole, those were n of each beside the norms'); a failure is reported at the failing sample
        the run met first."""
        f.n_checked = len(updated)
        if not len(updated):
            return
        held = np.empty(len(updated), dtype=bool)
        for lo in range(0, len(updated), SAMPLE_PIECE):
            try:
                rows = updated[lo:lo + SAMPLE_PIECE]
                held[lo:lo + SAMPLE_PIECE] = self._sample_rule(f, rows, self._piece(updated, lo))
            except ZeroDivisionError:  # every sample fails, as when the rule was evaluated on them all at once
                held[:] = False
                break
        wrong = updated[~held]
        if wrong.size:
            i = int(wrong[np.argmin(self.first_at[wrong])])
            f.fail(int(self.first_at[i]), i, {**self.true_run, **self._sample(i, False), "y": int(self.y[i])})

    def _piece(self, updated: Any, lo: int) -> tuple[Any, Any, Any]:
        """The labels, norms and margins of ``updated[lo:lo + SAMPLE_PIECE]``: each sample rule reads the same
        pieces, so the last one read is kept for the next rule (every sample of a small run: read once for all)."""
        if self._read is None or self._read[0] is not updated or self._read[1] != lo:
            rows = updated[lo:lo + SAMPLE_PIECE]
            y = self.y[rows]
            self._read = updated, lo, y, np.asarray(self.norms[rows]), np.zeros(len(rows), dtype=np.int64) if (
                self.margins is None) else y * np.asarray(self.margins)[rows]
        _, _, y, norms, margins = self._read
        return y, norms, margins

    def _sample_rule(self, f: FactResult, rows: Any, piece: tuple[Any, Any, Any]) -> Any:
        """Whether sample rule `f` holds on each of `rows` (a bool array; `ZeroDivisionError` as evaluated), whose
        labels, norms and margins are `piece` (`_piece`)."""
        y, norms, margins = piece
        values: dict[str, Any] = {**self.scaled_run, "y": y, "x_sq": norms, "x_ws": margins}
        if not f.rule.scaled:
            values = {**self.true_run, "y": y.astype(object), "x_sq": norms.astype(object) * Fraction(1, self.L**2),
                      "x_ws": margins.astype(object) * Fraction(1, self.L * self.M)}
        elif _magnitude(f.rule.tree, values) is None:
            values = {k: v.astype(object) if isinstance(v, np.ndarray) else v for k, v in values.items()}
        return np.broadcast_to(np.asarray(evaluate(f.rule.tree, values), dtype=bool), (len(rows),))

    def _claim(self, f: FactResult, claim: InvariantResult | None, n_updates: int) -> None:
        if claim is None or claim.skipped is not None:
            f.holds, f.skipped = None, (claim.skipped if claim is not None else f"claim {f.rule.claim} was not checked")
            return
        f.n_checked = claim.n_checked
        if claim.holds is False and claim.first_violation is not None:
            v = claim.first_violation
            f.holds, f.update, f.values = False, v.k or None, v.values
            f.sample = v.samples[0] if v.samples else None
        elif claim.min_slack is not None and not _holds(f.rule, {"slack": claim.min_slack}):
            f.fail(claim.min_slack_at, None, {"slack": claim.min_slack})


class FactObserver:
    """A `FactCheck` as an update observer of its own (`verify_perceptron.data.observers.ChunkObserver`), told
    apart from its checker (`Checker.facts_apart`): the same updates, the same reported scores.

    Examples
    --------
    >>> from verify_perceptron.check.checker import Checker
    >>> from verify_perceptron.data.examples import example
    >>> checker = Checker(example("and"), "classic", rate=1, mode="online", separator=[-4, 3, 2])
    >>> told = checker.facts_apart()
    >>> checker.observe(1, 1, [0], [0]); told.observe(1, 1, [0], [0])
    >>> checker.facts.first_at.tolist(), checker.facts.k
    ([1, 0, 0, 0], 1)
    """

    def __init__(self, facts: FactCheck) -> None:
        self.facts = facts

    def observe(self, k: int, epoch: int, samples: Sequence[int], scores: Sequence[int]) -> None:
        self.facts.observe(k, samples, scores)

    def observe_chunk(self, first: int, epoch: Any, rows: Int64Array, scores: Int64Array) -> None:
        self.facts.observe_chunk(first, rows, scores)


def fact_check(checker: Any, proofs: Sequence[ProofFacts] | None = None) -> FactCheck:
    """The `FactCheck` of a `verify_perceptron.check.checker.Checker`, from its data, units and separator.

    `proofs` defaults to those the run's convention and mode make it an instance of, and the averaged one online.
    """
    conv, mode = checker.conv, checker.mode
    if proofs is None:
        proofs = proofs_for(conv.name, mode) + [p for p in PROOF_FACTS if p.key == "averaged" and mode == "online"]
    separator: dict[str, int] = {}
    margins = None
    if checker.separator is not None:
        W_star, _, margins = checker._scaled_separator
        bias = 0 if conv.bias_first else len(W_star) - 1
        # ‖W*‖² less its bias term's square: the checker's ‖W*‖² (the sum of every square) holds it already
        separator = {"gamma": checker.gamma_scaled, "ws_sq": checker.ws_sq_scaled,
                     "wsb_sq": checker.ws_sq_scaled - int(W_star[bias]) ** 2}
    return FactCheck(proofs, conv=conv, rate=checker.rate, a=checker.a, L=checker.L, M=checker.M,
                     labels=checker.data.y_array, norms=checker.matrix.norm_rows(),  # (by index: no n Python ints)
                     max_norm_sq=checker.matrix.max_norm_sq, margins=margins, separator=separator, mode=mode)


_INT64 = 2**63


def _magnitude(tree: Any, values: Mapping[str, Any], bounds: dict[str, int | None] | None = None) -> int | None:
    """A bound on |value| of the tree and each part of it, if int64 holds them all, else None.

    Only int64 arrays and ints count; anything else (a Fraction, a Python-integer array) is None.

    Examples
    --------
    >>> _magnitude(("<=", ("*", ("q", "y"), ("q", "m")), ("c", 0, 1)), {"y": np.array([1, -1]), "m": np.array([5, 2**62])})
    4611686018427387904
    >>> _magnitude(("*", ("q", "m"), ("q", "m")), {"m": np.array([2**62])}) is None
    True
    """
    op = tree[0]
    known = {} if bounds is None else bounds  # each quantity's bound, read once a call (a rule reads some often)
    if op == "q":
        if tree[1] not in known:
            known[tree[1]] = _quantity_bound(values[tree[1]])
        leaf = known[tree[1]]
        if leaf is None:
            return None
        bound = leaf
    elif op == "c":
        bound = abs(tree[1]) if tree[2] == 1 else _INT64
    elif op == "^":
        base = _magnitude(tree[1], values, known)
        bound = _INT64 if base is None or tree[2] < 0 else base ** tree[2]
    else:
        parts = [_magnitude(t, values, known) for t in tree[1:]]
        if any(p is None for p in parts):
            return None
        bound = 1
        if op == "*":
            for p in parts:
                bound *= p  # type: ignore[operator]
        else:
            bound = sum(parts)  # type: ignore[arg-type]
    return bound if bound < _INT64 else None


def _quantity_bound(v: Any) -> int | None:
    """max |v| of an int64 array or an int, else None (`_magnitude`'s leaves)."""
    if isinstance(v, np.ndarray) and v.dtype == np.int64:
        return max(int(v.max()), -int(v.min())) if v.size else 0
    if isinstance(v, int):
        return abs(v)
    return None


def _compiled_keys(first: int, rows: Any, scores: Any, labels: Any, first_at: Any) -> list[int] | None:
    """`FactCheck.observe_chunk`'s reading of a chunk in one pass in C (`kernel.fact_keys`): `first_at` set
    where it was 0, and per key c = (label + 1)·3 + (sign of the score + 1) the first update t that has it (-1:
    none); None, with nothing written, where the C reading is not built, the scores are not int64, or a row or
    its label is out of its range (the NumPy path then decides, as before)."""
    keys = _kernel.fact_keys
    if keys is None or scores.dtype != np.int64 or first_at.dtype != np.int64:
        return None
    out = np.empty(9, dtype=np.int64)
    if not keys(np.ascontiguousarray(rows), np.ascontiguousarray(scores.reshape(len(scores), -1)),
                np.ascontiguousarray(labels), first_at, first, out):
        return None
    found: list[int] = out.tolist()
    return found


def _signs(scores: Any) -> Any:
    """The signs of a chunk's scores, as int64, without joining halves or making Python integers.

    Limbs (halves for L = 2) are two's complement over all L, lowest first: a value is negative when its
    top limb is, else positive when any limb is non-zero.
    """
    if getattr(scores, "ndim", 1) == 2:
        nonzero = scores[:, 0] != 0
        for limb in range(1, scores.shape[1]):  # a column at a time: .any(axis=1) is slow on a few columns
            nonzero |= scores[:, limb] != 0
        return np.where(scores[:, -1] < 0, -1, nonzero.astype(np.int64))
    values = np.asarray(scores)
    if values.dtype == object:
        return (values > 0).astype(np.int64) - (values < 0).astype(np.int64)
    return np.sign(values).astype(np.int64)


def _holds(rule: Rule, values: Mapping[str, Any]) -> bool:
    """The rule at these values; a division by zero is a fact that does not hold."""
    try:
        return bool(evaluate(rule.tree, values))
    except ZeroDivisionError:
        return False


assert set(UNITS) <= set(RUN_QUANTITIES)
