"""The checker: every claim of the proofs, confirmed exactly at every update of a run.

A `Checker` is told of each update as it happens (it is the engines'
observer), so it needs memory for one weight vector, not for the trace. At
each update it replays the update from the data and confirms that it obeys
the convention's rule (it was a mistake, with the score the run reported,
and it moved the weights by exactly the rule's step), then evaluates every
`Claim` that is a theorem for the convention and mode, exactly, with no
square root anywhere. At the end it confirms the run's totals and, when the
run claims convergence, that the final weights make no mistake.

It works in the integers of the fast engine (samples scaled by the common
denominator L, weights W with w = (a/L)·W, separator W* = M·w*), where each
update costs O(d) integer operations; every claim is homogeneous in those
units (`verify_perceptron.notes.claims.UNITS`), so each decision is the same as in
rationals, and the values it reports are converted back to exact rationals.

The separator w* is the user's, or by default the run's own final weights
once the run has converged: they classify every sample correctly, so they
are a valid w*. `verify_run` runs an engine with the checker attached (twice
in that default case, since w* is known only at the end); `check_trace`
checks a recorded `Trace`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from ..run import kernel as _kernel
from ..run import reference as engine
from ..run import fast
from ..data.integers import INT64_EXACT_SQ, ExactMatrix, exact_sum
from ..notes.bounds import Geometry, NoteBound, geometry_from_scaled, note_bounds
from ..notes.claims import QUANTITIES, UNITS, Claim, claim_unit, claims_for, compile_program, compile_slacks
from ..notes.conventions import Convention, get_convention
from ..data.dataset import Dataset
from ..errors import InvalidArgument, InvariantViolation
from ..data.rationals import as_rational
from ..data.trace import Counts, Trace, Update

__all__ = [
    "Violation", "InvariantResult", "CheckResult", "Checker", "check_trace", "verify_run", "assert_trace_verified",
    "ENGINES",
]

#: The engines `verify_run` can drive: the fast exact one and the reference that reads like the notes.
ENGINES = ("fast", "reference")
#: `verify_run` keeps a run's updates for the checker in at most max(this, half the samples' bytes).
MIN_REPLAY_BYTES = 2**20

Vector = tuple[Fraction, ...]


@dataclass(frozen=True)
class Violation:
    """Where a claim first failed, with the values involved (sorted by name)."""

    k: int
    epoch: int
    samples: tuple[int, ...]
    values: tuple[tuple[str, Fraction], ...]
    message: str = ""

    def describe(self, claim: str) -> str:
        """One stable line: the claim, where, then each value as ``name was value``.

        Examples
        --------
        >>> Violation(3, 1, (2,), (("w_sq", Fraction(5)),)).describe("‖w‖² <= 4")
        '‖w‖² <= 4 failed at update 3 (epoch 1, sample 2): w_sq was 5'
        """
        plural = "s" if len(self.samples) > 1 else ""
        samples = ", ".join(map(str, self.samples))
        if self.k:
            where = f"update {self.k} (epoch {self.epoch}, sample{plural} {samples})"
        else:
            where = f"sample{plural} {samples}" if self.samples else "the data"
        values = ", ".join(f"{name} was {value}" for name, value in self.values)
        detail = f" ({self.message})" if self.message else ""
        return f"{claim} failed at {where}{detail}: {values}" if values else f"{claim} failed at {where}{detail}"


@dataclass
class InvariantResult:
    """The verdict on one claim over a whole trace.

    ``holds`` is None when the claim was not checked (``skipped`` says why).
    ``min_slack`` is the smallest ``rhs - lhs`` seen, exactly, at update
    ``min_slack_at``.
    """

    name: str
    text: str
    source: str
    holds: bool | None = True
    n_checked: int = 0
    min_slack: Fraction | None = None
    min_slack_at: int | None = None
    first_violation: Violation | None = None
    skipped: str | None = None

    def record(self, slack: Fraction, k: int) -> None:
        self.n_checked += 1
        if self.min_slack is None or slack < self.min_slack:
            self.min_slack, self.min_slack_at = slack, k

    def fail(self, violation: Violation) -> None:
        if self.first_violation is None:
            self.first_violation = violation
        self.holds = False


@dataclass(frozen=True)
class CheckResult:
    """Everything the checker found about one trace.

    Attributes
    ----------
    invariants : tuple of InvariantResult
        One per claim, in report order.
    separator : tuple of Fraction or None
        The w* used, in the convention's coordinates.
    separator_source : str or None
        ``"user"`` or ``"final"`` (the run's own final weights); None when there was none.
    separator_note : str or None
        How the separator was adjusted, if it was (a hard limiter's final weights made strict).
    geometry : Geometry or None
        The separator's exact measurements on the data.
    bounds : tuple of NoteBound
        All five notes' bounds for this separator (empty if it does not separate).
    own_bound : NoteBound or None
        The bound of the trace's own convention.
    """

    invariants: tuple[InvariantResult, ...]
    separator: Vector | None
    separator_source: str | None
    geometry: Geometry | None
    bounds: tuple[NoteBound, ...] = field(default=())
    own_bound: NoteBound | None = None
    separator_note: str | None = None

    @property
    def holds(self) -> bool:
        """True when no checked claim failed."""
        return all(r.holds is not False for r in self.invariants)

    @property
    def violations(self) -> list[InvariantResult]:
        """The claims that failed."""
        return [r for r in self.invariants if r.holds is False]

    @property
    def complete(self) -> bool:
        """True when every claim was checked (none skipped for want of a separator)."""
        return all(r.skipped is None for r in self.invariants)



#: The order in which `Checker.observe` lists the quantities (it must be `QUANTITIES`).
_OBSERVED_ORDER = ("N", "R_sq", "a", "beta", "bound", "gamma", "k", "n", "n_max", "prev_w_sq", "prev_w_ws",
                   "step_sq", "sum_N_xsq", "sum_n_sq", "w_sq", "w_ws", "ws_sq")


def _scaled_separator(separator: Sequence[Fraction]) -> tuple[list[int], int]:
    """``(W*, M)`` with integer W* = M·w* and M the least common denominator (integer arithmetic only)."""
    values = [v if isinstance(v, Fraction) else Fraction(v) for v in separator]
    M = math.lcm(*(v.denominator for v in values))
    return [v.numerator * (M // v.denominator) for v in values], M


#: The quantities the C replay computes at each update, in the order of its ``slots`` argument.
_REPLAYED = ("N", "k", "n", "n_max", "prev_w_sq", "prev_w_ws", "step_sq", "sum_N_xsq", "sum_n_sq", "w_sq", "w_ws")
_SLOTS = np.array([QUANTITIES.index(name) for name in _REPLAYED], dtype=np.int64)
_SLOTS.flags.writeable = False


@functools.lru_cache(maxsize=64)
def _program(claims: tuple[Claim, ...], denominators: tuple[tuple[str, int], ...]) -> tuple[Any, list[int]]:
    """`compile_program` as the C replay reads it (a read-only int64 array), once per claims and denominators."""
    code, scales = compile_program(claims, dict(denominators))
    program = np.array(code, dtype=np.int64)
    program.flags.writeable = False
    return program, scales


@dataclass(frozen=True)
class _Replay:
    """A checker's arrays and compiled claims for `verify_perceptron.run.kernel.check_online`."""

    Z: Any
    tie: Any
    norms: Any
    margins: Any
    program: Any
    scales: list[int]
    quantities: tuple[int, ...]
    slots: Any
    limit: int


class Checker:
    """Checks a run update by update, exactly: the engines' observer.

    Parameters
    ----------
    data : Dataset
        The data, in the order the run presents them.
    convention : Convention or str
        The run's convention.
    rate : rational
        The run's learning rate.
    mode : {"online", "batch"}
        The run's mode.
    separator : sequence of rationals, optional
        w* in the convention's coordinates; without it the claims about w* are skipped.
    separator_source, separator_note : str, optional
        Where w* came from and how it was adjusted, for the report.
    claims : sequence of Claim, optional
        The claims to evaluate (default: every theorem for the convention and mode).
    matrix : ExactMatrix, optional
        The scaled signed samples z_i = y_i·L·x~_i, if the caller has them already.
    compiled : bool
        Replay chunks of online updates in C where the kernel was built
        (`observe_chunk`); False checks every update in Python. The verdicts
        are the same either way.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> from verify_perceptron import fast
    >>> data = example("and")
    >>> checker = Checker(data, "classic", rate=1, mode="online", separator=[-4, 3, 2])
    >>> trace = fast.run(data, observer=checker)
    >>> checker.finish(trace).holds
    True
    """

    def __init__(
        self,
        data: Dataset,
        convention: Convention | str,
        *,
        rate: object,
        mode: str,
        separator: Sequence[object] | None = None,
        separator_source: str | None = None,
        separator_note: str | None = None,
        claims: Sequence[Claim] | None = None,
        matrix: ExactMatrix | None = None,
        compiled: bool = True,
    ) -> None:
        conv = convention if isinstance(convention, Convention) else get_convention(convention)
        self.conv, self.mode, self.data = conv, mode, data
        self.rate = as_rational(rate, name="eta")
        self.a = conv.step_size(self.rate)
        self.L = data.denominator
        self.matrix = matrix if matrix is not None else fast.sample_matrix(data, conv)
        self.tie = fast._tie_rule(conv, self.rate, data.y_array)  # per sample: is a score of 0 a mistake?
        width = data.n_features + 1
        # The replayed weights, scaled (w = (a/L)·W): int64 while ‖W‖²·max‖z‖² < 2^126 proves every
        # dot product free of overflow, Python integers after that.
        self.W: Any = np.zeros(width, dtype=np.int64 if self.matrix.exact.dtype != object else object)
        self.w_sq = 0
        self.counts = np.zeros(data.n_samples, dtype=np.int64)
        self.k = self.N = self.sum_n_sq = self.n_max = 0
        self.sum_N_xsq = 0
        self.epoch = 0

        self.rule = InvariantResult(
            "update-rule", f"each update is a mistake under {conv.name}'s rule and moves w by exactly that rule",
            f"note {conv.note_number}'s algorithm",
        )
        self.separates = InvariantResult(
            "separator-separates", "y_i·w*·x~_i > 0 for every sample i (γ > 0)", "the theorem's hypothesis (all notes)",
        )
        self.final = InvariantResult(
            "final-weights-separate", "the final weights make no mistake on any sample", "the algorithm's stopping rule",
        )
        self.separator: tuple[Fraction, ...] | None = None
        self.source, self.note = separator_source, separator_note
        self.g: Geometry | None = None
        self.bounds: tuple[NoteBound, ...] = ()
        self.own: NoteBound | None = None
        self.M = 1
        self.margins: Any = np.zeros(data.n_samples, dtype=np.int64)
        self.gamma_scaled = 0
        self.ws_sq_scaled = 0
        self.w_ws = 0
        if separator is None:
            self.separates.holds, self.separates.skipped = None, "no separator: the run did not converge and none was given"
        else:
            values = tuple(as_rational(v, name=f"separator[{j}]") for j, v in enumerate(separator))
            if len(values) != width:
                raise InvalidArgument(
                    f"separator has {len(values)} values; {conv.name} needs {width}: "
                    + ", ".join(conv.weight_names(data.n_features))
                )
            self.separator = values
            W_star, self.M = _scaled_separator(values)
            self.ws_sq_scaled = sum(v * v for v in W_star)
            # z_i·W* = y_i·L·M·(w*·x~_i): each sample's margin, scaled, exactly.
            self.margins = self.matrix.products(W_star, norm_sq=self.ws_sq_scaled)
            b, _ = conv.to_canonical(values)
            self.g = geometry_from_scaled(self.margins, self.matrix.norms, L=self.L, M=self.M,
                                          ws_sq=Fraction(self.ws_sq_scaled, self.M**2), b=b)
            self.gamma_scaled = int(self.margins.min())
            self.separates.n_checked = data.n_samples
            self.separates.min_slack = self.g.gamma
            if not self.g.separates:
                i = self.g.worst_sample
                self.separates.fail(Violation(0, 0, (i,), (("gamma", self.g.gamma),), f"y_{i}·w*·x~_{i} = {self.g.gamma} <= 0"))
            else:
                self.bounds = tuple(note_bounds(self.g))
                self.own = next(b for b in self.bounds if b.convention == conv.name)
        usable = self.g is not None and self.g.separates
        chosen = list(claims) if claims is not None else claims_for(conv.name, mode)
        self.claims: list[tuple[Claim, InvariantResult]] = []
        for claim in chosen:
            result = InvariantResult(claim.name, claim.text, claim.source)
            if claim.needs_separator and not usable:
                result.holds = None
                result.skipped = "the separator does not separate" if self.g is not None else self.separates.skipped
            self.claims.append((claim, result))
        for claim, _ in self.claims:
            try:
                claim_unit(claim)
            except ValueError as error:
                raise InvalidArgument(f"claim {claim.name!r} cannot be checked exactly here: {error}") from None
        self.active = [(c, r) for c, r in self.claims if r.skipped is None]
        self.slacks = compile_slacks([c for c, _ in self.active])
        assert QUANTITIES == _OBSERVED_ORDER, "observe() passes the quantities in a stale order"
        self.usable = usable
        self._compiled: _Replay | None | bool = False if compiled else None  # built by _replay() on first use
        self._factors: dict[tuple[int, int, int], Fraction] = {}  # unit -> true value of 1, for _to_true
        self.constants: dict[str, int | Fraction] = {
            "a": 1,
            "R_sq": self.matrix.max_norm_sq,
            "beta": exact_sum(self.matrix.norms),
            "ws_sq": self.ws_sq_scaled,
            "gamma": self.gamma_scaled,
            "bound": self.own.value if self.own is not None else 0,
        }

    # --- per update -------------------------------------------------------------------------

    def _fail_rule(self, k: int, epoch: int, samples: Sequence[int], message: str,
                   values: tuple[tuple[str, Fraction], ...] = ()) -> None:
        self.rule.fail(Violation(k, epoch, tuple(samples), values, message))

    def observe(self, k: int, epoch: int, samples: Sequence[int], scores: Sequence[object], *,
                weights: Sequence[Fraction] | None = None, delta: Sequence[Fraction] | None = None) -> None:
        """Check update k, caused by `samples` whose reported scaled scores z_i·W_(k-1) were `scores`.

        `weights` and `delta`, in true units, are compared with the replay when a recorded trace has them.
        """
        self.rule.n_checked += 1
        if k != self.k + 1 or epoch < max(self.epoch, 1):
            self._fail_rule(k, epoch, samples, f"update {k} of epoch {epoch} follows update {self.k} of epoch {self.epoch}")
        if not samples or (self.mode == "online" and len(samples) != 1) or list(samples) != sorted(set(samples)):
            self._fail_rule(k, epoch, samples, f"samples {list(samples)} are not what one {self.mode} update can have")
        outside = [j for j in samples if not 0 <= j < self.data.n_samples]
        if outside:
            self._fail_rule(k, epoch, samples, f"sample {outside[0]} does not exist (the data have {self.data.n_samples})")
            self.k, self.epoch = k, epoch
            return
        self.k, self.epoch = k, epoch
        Z = self.matrix.exact
        W = self.W  # int64 only while ‖W‖²·max‖z‖² < 2^126 (set below), so z·W is exact in int64
        step: Any = None
        s_total = 0
        for j, claimed in zip(samples, scores):
            z = Z[j].astype(object)
            s = int((Z[j] if W.dtype != object else z) @ W)
            if s != claimed:
                shown_claim = claimed if isinstance(claimed, Fraction) else Fraction(claimed)  # type: ignore[arg-type]
                self._fail_rule(k, epoch, samples, f"sample {j}'s score is not what the run reported", (
                    ("recorded_score", self._score(j, shown_claim)), ("score", self._score(j, Fraction(s)))))
            if not (s < 0 or (s == 0 and self.tie[j])):
                self._fail_rule(k, epoch, samples, f"sample {j} is not a mistake under the rule", (
                    ("label", Fraction(self.data.y[j])), ("score", self._score(j, Fraction(s)))))
            step = z if step is None else step + z  # Python integers: exact at any size
            s_total += s
            self.counts[j] += 1
            self.sum_N_xsq += int(self.matrix.norms[j])
        n = len(samples)
        step_sq = int(self.matrix.norms[samples[0]]) if n == 1 else sum(t * t for t in step.tolist())
        prev_w_sq, prev_w_ws = self.w_sq, self.w_ws
        self.w_sq = prev_w_sq + 2 * s_total + step_sq  # ‖W + D‖² = ‖W‖² + 2·W·D + ‖D‖²
        self.W = W.astype(object) + step
        if self.matrix.exact.dtype != object and self.w_sq * self.matrix.max_norm_sq < INT64_EXACT_SQ:
            self.W = self.W.astype(np.int64)  # exact: |W_j| <= ‖W‖ < 2^63
        if self.usable:
            self.w_ws = prev_w_ws + sum(int(self.margins[j]) for j in samples)
        if delta is not None and tuple(delta) != self._true(step.tolist()):
            self._fail_rule(k, epoch, samples, f"the step is {_vec(delta)}, the rule gives {_vec(self._true(step.tolist()))}")
        if weights is not None and not self._is_true(weights, self.W.tolist()):
            self._fail_rule(k, epoch, samples,
                            f"w_k is {_vec(weights)}, but w_(k-1) + the rule's step is {_vec(self._true(self.W.tolist()))}")
        self.N += n
        self.sum_n_sq += n * n
        self.n_max = max(self.n_max, n)
        if not self.active:
            return
        c = self.constants
        # The quantities in QUANTITIES order (sorted names): one call evaluates every claim.
        values = (self.N, c["R_sq"], c["a"], c["beta"], c["bound"], c["gamma"], k, n, self.n_max, prev_w_sq,
                  prev_w_ws, step_sq, self.sum_N_xsq, self.sum_n_sq, self.w_sq, self.w_ws, c["ws_sq"])
        for (claim, result), slack in zip(self.active, self.slacks(*values)):
            result.n_checked += 1
            if result.min_slack is None or slack < result.min_slack:
                result.min_slack, result.min_slack_at = slack, k
            if slack < 0 and result.first_violation is None:
                q = dict(zip(QUANTITIES, values))
                shown = tuple(sorted((name, self._to_true(name, q[name])) for name in claim.uses))
                result.fail(Violation(k, epoch, tuple(samples), shown))

    def observe_chunk(self, first: int, epoch: Any, rows: Any, scores: Any) -> None:
        """Check online updates first, first + 1, ... of `epoch`, one mistake each on `rows`.

        `epoch` is an int, or an array of each update's epoch. The verdicts are
        those of calling `observe` on each update in turn. Where the C kernel
        was built, updates are replayed there (`verify_perceptron.run.kernel.check_online`),
        and any update it stops at (a failed check, a violated claim, a value
        beyond 128 bits, ‖W‖² past the int64 guard) is left to `observe`.
        """
        m, t = len(rows), 0
        epochs = np.asarray(epoch) if isinstance(epoch, np.ndarray) else np.full(m, epoch)
        ordered = m == 0 or (epochs[0] >= max(self.epoch, 1) and bool((epochs[1:] >= epochs[:-1]).all()))
        replay = self._replay() if first == self.k + 1 and ordered else None
        if replay is not None and not (isinstance(rows, np.ndarray) and rows.dtype == np.int64
                                       and isinstance(scores, np.ndarray) and scores.dtype == np.int64):
            replay = None
        while t < m:
            if replay is not None and self.W.dtype == np.int64:
                done = self._replay_chunk(replay, rows[t:], scores[t:])
                if done:
                    t += done
                    self.epoch = int(epochs[t - 1])
                if t == m:
                    break
            self.observe(first + t, int(epochs[t]), [int(rows[t])], [int(scores[t])])
            t += 1

    def _replay(self) -> _Replay | None:
        """What the C replay needs, built once; None where it cannot run (then `observe` does it all)."""
        if self._compiled is not False:
            return self._compiled
        self._compiled = None
        Z = self.matrix.exact
        if not (_kernel.AVAILABLE and self.mode == "online" and Z.dtype != object
                and self.matrix.norms.dtype == np.int64 and self.margins.dtype == np.int64):
            return None
        c = self.constants
        denominators = {name: v.denominator for name, v in c.items() if isinstance(v, Fraction) and v.denominator != 1}
        try:
            program, scales = _program(tuple(claim for claim, _ in self.active), tuple(sorted(denominators.items())))
        except ValueError:
            return None
        quantities = tuple(int(c[name].numerator if isinstance(c[name], Fraction) else c[name]) if name in c else 0
                           for name in QUANTITIES)
        if any(not -(2**127) <= v < 2**127 for v in quantities):
            return None
        margins = self.margins if self.usable else np.zeros(self.data.n_samples, dtype=np.int64)
        self._compiled = _Replay(
            Z=np.ascontiguousarray(Z), tie=self.tie, norms=self.matrix.norms, margins=margins,
            program=program, scales=scales, quantities=quantities, slots=_SLOTS,
            limit=(INT64_EXACT_SQ - 1) // max(self.matrix.max_norm_sq, 1),
        )
        return self._compiled

    def _replay_chunk(self, replay: _Replay, rows: Any, scores: Any) -> int:
        """Replay updates in C until one needs `observe`; merge the verdicts; return how many were replayed."""
        failed = np.array([result.first_violation is not None for _, result in self.active], dtype=bool)
        state = (self.k, self.N, self.w_sq, self.w_ws, self.sum_N_xsq, self.sum_n_sq, self.n_max, replay.limit)
        assert _kernel.check_online is not None
        done, state, verdicts = _kernel.check_online(
            replay.Z, self.W, self.counts, replay.tie, replay.norms, replay.margins, np.ascontiguousarray(rows),
            np.ascontiguousarray(scores), replay.program, replay.quantities, replay.slots, state, failed)
        base = self.k
        self.k, self.N, self.w_sq, self.w_ws, self.sum_N_xsq, self.sum_n_sq, self.n_max, _ = state
        self.rule.n_checked += done
        for (claim, result), scale, verdict in zip(self.active, replay.scales, verdicts):
            result.n_checked += done
            if verdict is None:
                continue
            value, at, _ = verdict  # (the quantities there are not needed: see `finish`)
            slack = Fraction(value, scale) if scale != 1 else value  # the claim's own slack, exactly
            if result.min_slack is None or slack < result.min_slack:
                result.min_slack, result.min_slack_at = slack, base + at + 1
        return done

    # --- units ------------------------------------------------------------------------------

    def _to_true(self, name: str, value: int | Fraction) -> Fraction:
        return value * self._unit_factor(UNITS[name])

    def _unit_factor(self, unit: tuple[int, int, int]) -> Fraction:
        """The true value of 1 in `unit` (p, q, r): a**p / (L**q · M**r)."""
        factor = self._factors.get(unit)
        if factor is None:
            p, q, r = unit
            factor = self._factors[unit] = self.a**p / (self.L**q * self.M**r)
        return factor

    def _is_true(self, weights: Sequence[Fraction], vector: Sequence[int]) -> bool:
        """Is ``weights == _true(vector)``? In integers: w_j = (a/L)·V_j ⟺ p_j·L·a_den = a_num·V_j·q_j."""
        a_num, a_den, L = self.a.numerator, self.a.denominator, self.L
        if len(weights) != len(vector):
            return False
        for w, v in zip(weights, vector):
            w = w if isinstance(w, Fraction) else Fraction(w)
            if w.numerator * L * a_den != a_num * v * w.denominator:
                return False
        return True

    def _true(self, vector: Sequence[int]) -> tuple[Fraction, ...]:
        return tuple(Fraction(self.a.numerator * int(v), self.a.denominator * self.L) for v in vector)

    def _score(self, j: int, s: Fraction) -> Fraction:
        """A scaled score z_j·W back in true units: w·x~_j = (a/L²)·y_j·s."""
        return self.a * self.data.y[j] * s / (self.L * self.L)

    # --- the end ----------------------------------------------------------------------------

    def finish(self, trace: Trace | None = None) -> CheckResult:
        """Confirm the run's totals and final weights; return every claim's verdict."""
        if trace is not None:
            if trace.n_updates != self.k:
                self._fail_rule(0, 0, (), f"the run reports {trace.n_updates} updates; {self.k} were observed")
            counts = trace.mistakes_per_sample
            if not (np.array_equal(counts.array, self.counts) if isinstance(counts, Counts)
                    else tuple(counts) == tuple(self.counts.tolist())):
                self._fail_rule(0, 0, (), "the run's per-sample mistake counts N_μ are not those of its updates")
            weights_match = self._is_true(trace.final_weights, self.W.tolist())
            if not weights_match:
                self._fail_rule(0, 0, (), "the run's final weights are not the sum of its updates")
        results = [self.rule, self.separates]
        if trace is not None and trace.converged:
            # The run's own final weights w = (a/L)·V: V is the replay's W when the record is right;
            # else the record scaled to integers, V = M·(L/a)·w, whose scores are M times too large.
            final, M = (self.W.tolist(), 1) if weights_match else _scaled_separator(
                tuple(w * self.L / self.a for w in trace.final_weights))
            scores = self.matrix.products(final, norm_sq=sum(v * v for v in final))
            wrong = np.flatnonzero((scores < 0) | ((scores == 0) & self.tie))
            self.final.n_checked += int(wrong[0]) + 1 if wrong.size else len(self.tie)
            if wrong.size:
                i = int(wrong[0])
                self.final.fail(Violation(0, 0, (i,), (
                    ("label", Fraction(self.data.y[i])), ("score", self._score(i, Fraction(int(scores[i]), M)))),
                    "a mistake after convergence"))
            results.append(self.final)
        for claim, result in self.claims:
            if result.min_slack is not None:
                # A homogeneous claim's true slack is its slack in the checker's units times its unit.
                result.min_slack = Fraction(result.min_slack) * self._unit_factor(claim_unit(claim))
            results.append(result)
        return CheckResult(tuple(results), self.separator, self.source, self.g, self.bounds, self.own, self.note)

    def status(self) -> str:
        """One line for a progress display: updates so far and the mistake bound's slack."""
        if self.own is not None:
            return f"{self.N} mistakes, bound {float(self.own.value):.4g}"
        return f"{self.N} mistakes"


def _strict(data: Dataset, conv: Convention, final: Sequence[Fraction],
            matrix: ExactMatrix | None = None) -> tuple[tuple[Fraction, ...], str | None]:
    """The final weights as w*, made strict when a hard limiter left a class -1 score at exactly 0.

    sgn(0) = -1 lets note 001's run stop with w·x~ = 0 on a class -1 sample, so
    γ = 0 and the final weights are no strict separator. Every class +1 score
    is then > 0; lowering the bias by half the smallest of them, δ, keeps those
    >= δ and makes every class -1 score <= -δ: a strict separator, exactly.
    """
    w = tuple(final)
    b, v = conv.to_canonical(w)
    if matrix is None:
        matrix = fast.sample_matrix(data, conv)
    W, M = _scaled_separator(w)
    # z_i·W = y_i·L·M·(w·x~_i), so y_i·(z_i·W) is (v·x_i + b)·L·M: each score, exactly, in integers.
    y = data.y_array
    scores = matrix.products(W, norm_sq=sum(c * c for c in W)) * y
    L = data.denominator
    positive_class = y > 0
    if np.array_equal(scores > 0, positive_class) and not (scores == 0).any():
        return w, None
    positive = scores[positive_class & (scores > 0)]
    if not positive.size or (scores[~positive_class] > 0).any():
        return w, None  # not a clean hard-limiter stop: let the checks report it
    delta = Fraction(int(positive.min()), 2 * L * M)
    return conv.from_canonical(b - delta, v), f"bias lowered by {delta}: a class -1 score was exactly 0"


def check_trace(
    data: Dataset,
    trace: Trace,
    *,
    separator: Sequence[object] | None = None,
    claims: Sequence[Claim] | None = None,
) -> CheckResult:
    """Check a recorded trace against its data, exactly, at every update.

    Parameters
    ----------
    data : Dataset
        The data the trace was run on, in the same order.
    trace : Trace
        The run to check, with all its updates (from `verify_perceptron.run.reference.train` or elsewhere).
    separator : sequence of rationals, optional
        w* in the convention's own coordinates; by default the run's final
        weights if it converged.
    claims : sequence of Claim, optional
        The claims to evaluate; by default every claim that is a theorem for
        the convention and mode.

    Returns
    -------
    CheckResult

    Examples
    --------
    >>> from verify_perceptron.run.reference import train
    >>> from verify_perceptron.data.examples import example
    >>> data = example("and")
    >>> result = check_trace(data, train(data))
    >>> result.holds, [r.n_checked for r in result.invariants][:3]
    (True, [18, 4, 4])
    """
    if trace.updates_truncated:
        raise InvalidArgument(
            f"the trace keeps {len(trace.updates)} of its {trace.n_updates} updates; "
            "check it while it runs (verify_run) or record all of them"
        )
    conv = get_convention(trace.convention)
    source, note = None, None
    if separator is not None:
        source = "user"
    elif trace.converged:
        separator, note = _strict(data, conv, trace.final_weights)
        source = "final"
    checker = Checker(data, conv, rate=trace.rate, mode=trace.mode, separator=separator,
                      separator_source=source, separator_note=note, claims=claims)
    for u in trace.updates:
        checker.observe(u.k, u.epoch, u.samples, _scaled_scores(data, u, checker.a),
                        weights=u.weights, delta=u.delta)
    return checker.finish(trace)


def _scaled_scores(data: Dataset, update: Update, a: Fraction) -> list[int | Fraction]:
    """A recorded update's scores in the checker's units: z·W = y·(L²/a)·(w·x~), an int when whole.

    (A tampered record may give a non-integer, which the checker then reports as a wrong score.)
    """
    L = data.denominator
    scaled = [data.y[j] * score * L * L / a for j, score in zip(update.samples, update.scores)]
    return [int(s) if s.denominator == 1 else s for s in scaled]


class _Tee:
    def __init__(self, *observers: Any) -> None:
        self.observers = [o for o in observers if o is not None]

    def observe(self, k: int, epoch: int, samples: list[int], scores: list[int]) -> None:
        for observer in self.observers:
            observer.observe(k, epoch, samples, scores)

    def observe_chunk(self, first: int, epoch: Any, rows: Any, scores: Any) -> None:
        for observer in self.observers:
            fast.feed(observer, first, epoch, rows, scores)


class _Store:
    """A run's updates, kept to be replayed once w* is known, up to `capacity` bytes (then dropped).

    Memory therefore never grows past `capacity`, however many updates the
    run makes; a run that needs more is run again instead (`complete` is False).
    """

    def __init__(self, capacity: int) -> None:
        self.capacity, self.used = capacity, 0
        self.items: list[tuple[int, int, Any, Any]] = []
        self.complete = True

    def _room(self, size: int) -> bool:
        self.used += size
        if self.complete and self.used > self.capacity:
            self.complete, self.items = False, []
        return self.complete

    def observe(self, k: int, epoch: int, samples: list[int], scores: list[int]) -> None:
        if self._room(64 + 16 * len(samples) + sum(s.bit_length() // 8 for s in scores if isinstance(s, int))):
            self.items.append((k, epoch, list(samples), list(scores)))

    def observe_chunk(self, first: int, epoch: Any, rows: Any, scores: Any) -> None:
        if self._room(rows.nbytes + scores.nbytes + np.asarray(epoch).nbytes):
            # (copies: the engine's buffers are reused as soon as this returns)
            self.items.append((first, np.copy(epoch) if isinstance(epoch, np.ndarray) else epoch,
                               rows.copy(), scores.copy()))

    def replay(self, observer: Any) -> None:
        chunks = [item for item in self.items if isinstance(item[2], np.ndarray)]
        if chunks and len(chunks) == len(self.items):  # all from the compiled pass: one chunk
            epochs = np.concatenate([np.full(len(rows), epoch) for _, epoch, rows, _ in chunks])
            rows = np.concatenate([rows for _, _, rows, _ in chunks])
            scores = np.concatenate([scores for _, _, _, scores in chunks])
            fast.feed(observer, chunks[0][0], epochs, rows, scores)
            return
        for first, epoch, rows, scores in self.items:
            if isinstance(rows, np.ndarray):
                fast.feed(observer, first, epoch, rows, scores)
            else:
                observer.observe(first, epoch, rows, scores)


def verify_run(
    data: Dataset,
    convention: Convention | str = "classic",
    *,
    eta: object = 1,
    mode: str = "online",
    max_epochs: int = 1000,
    time_limit: float | None = None,
    separator: Sequence[object] | None = None,
    engine_name: str = "fast",
    progress: Callable[[int, int, str], None] | None = None,
    recorder: Any = None,
    keep_updates: int | None = None,
) -> tuple[Trace, CheckResult]:
    """Run a note's perceptron with the checker attached; the `verify` command's work.

    With no `separator` the run's own final weights serve as w*, known only
    at the end: the run's updates are kept, up to a budget of half the
    memory of the scaled samples, and replayed into the checker once w* is
    known; a run with more updates than that is run again, deterministically,
    with every claim checked. Memory does not grow with the number of
    updates (beyond the first `keep_updates`, kept for the report).

    Parameters
    ----------
    engine_name : {"fast", "reference"}
        The fast exact engine, or the reference engine that reads like the notes.
    progress : callable, optional
        Called as ``progress(epoch, n_updates, status)`` after each pass.
    recorder : observer, optional
        Also told of every update of the final pass (to write a trace file).

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> trace, result = verify_run(example("and"))
    >>> [str(w) for w in trace.final_weights], result.holds, result.separator_source
    (['-4', '3', '2'], True, 'final')
    """
    if engine_name not in ENGINES:
        raise InvalidArgument(f"engine={engine_name!r} must be one of {', '.join(ENGINES)}")
    conv, rate = engine._check_settings(convention, eta, mode, max_epochs)
    if engine_name == "reference":
        trace = engine.train(data, conv, eta=rate, mode=mode, max_epochs=max_epochs, time_limit=time_limit,
                             progress=None if progress is None else (lambda e, n: progress(e, n, "")))
        if recorder is not None:
            for u in trace.updates:
                recorder.observe(u.k, u.epoch, list(u.samples), _scaled_scores(data, u, conv.step_size(rate)))
        return trace, check_trace(data, trace, separator=separator)
    matrix = fast.sample_matrix(data, conv)

    def attempt(w_star: Sequence[object] | None, source: str | None, note: str | None,
                sink: Any) -> tuple[Trace, CheckResult]:
        checker = Checker(data, conv, rate=rate, mode=mode, separator=w_star, separator_source=source,
                          separator_note=note, matrix=matrix)
        report = None if progress is None else (lambda e, n: progress(e, n, checker.status()))
        trace = fast.run(data, conv, eta=rate, mode=mode, max_epochs=max_epochs, time_limit=time_limit,
                         progress=report, observer=_Tee(checker, sink), keep_updates=keep_updates, matrix=matrix)
        return trace, checker.finish(trace)

    if separator is not None:
        return attempt(separator, "user", None, recorder)
    # w* is the final weights, known at the end: run once keeping the updates (within a budget of
    # half the samples' own memory), then replay them into the checker, which costs no scan.
    store = _Store(capacity=max(MIN_REPLAY_BYTES, matrix.exact.nbytes // 2))
    report = None if progress is None else (lambda e, n: progress(e, n, f"{n} mistakes"))
    trace = fast.run(data, conv, eta=rate, mode=mode, max_epochs=max_epochs, time_limit=time_limit,
                     progress=report, observer=store, keep_updates=keep_updates, matrix=matrix)
    w_star, source, note = None, None, None
    if trace.converged:
        w_star, note = _strict(data, conv, trace.final_weights, matrix)
        source = "final"
    if not store.complete:
        return attempt(w_star, source, note, recorder)
    checker = Checker(data, conv, rate=rate, mode=mode, separator=w_star, separator_source=source,
                      separator_note=note, matrix=matrix)
    store.replay(_Tee(checker, recorder))
    return trace, checker.finish(trace)


def _vec(v: Sequence[Fraction]) -> str:
    return "[" + ", ".join(str(x) for x in v) + "]"


def assert_trace_verified(data: Dataset, trace: Trace, *, separator: Sequence[object] | None = None) -> CheckResult:
    """Like `check_trace`, but raise `InvariantViolation` naming the first failed claim.

    Examples
    --------
    >>> from verify_perceptron.run.reference import train
    >>> from verify_perceptron.data.examples import example
    >>> data = example("and")
    >>> assert_trace_verified(data, train(data), separator=[1, 1, 1])
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.InvariantViolation: y_i·w*·x~_i > 0 for every sample i (γ > 0) failed at sample 1 (y_1·w*·x~_1 = -2 <= 0): gamma was -2
    """
    result = check_trace(data, trace, separator=separator)
    for r in result.violations:
        assert r.first_violation is not None
        raise InvariantViolation(r.first_violation.describe(r.text))
    return result
