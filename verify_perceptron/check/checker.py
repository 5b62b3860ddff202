"""The checker: every claim of the proofs, confirmed exactly at every update of a run.

A `Checker` is told of each update as it happens (it is the engines'
observer), so it needs memory for one weight vector, not for the trace. At
each update it replays the update from the data and confirms that it obeys
the convention's rule (it was a mistake, with the score the run reported,
and it moved the weights by exactly the rule's step), then evaluates every
`Claim` that is a theorem for the convention and mode, exactly, with no
square root anywhere. At the end it confirms the run's totals and, when the
run claims convergence, that the final weights make no mistake.

It works in scaled integers (samples z_i = y_i·L·x~_i from
`verify_perceptron.data.samples`, weights w = (a/L)·W, separator W* = M·w*),
where each update costs O(d) integer operations; every claim is homogeneous
in those units (`verify_perceptron.notes.claims.UNITS`), so each decision is
the same as in rationals, and the values it reports are converted back to
exact rationals (`verify_perceptron.check.units`). It imports no engine:
what it checks comes from the data and the notes alone.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from ..data.dataset import Dataset
from ..data.exact_text import exact_text
from ..data.integers import INT64_EXACT_SQ, ExactMatrix, exact_sum, matrix_vector
from ..data.rationals import as_rational, as_rationals
from ..data.samples import sample_matrix
from ..data.trace import Counts, ScaledWeights, Trace
from ..errors import InvalidArgument
from ..notes.bounds import Geometry, NoteBound, geometry_of_margins, note_bounds
from ..notes.claims import QUANTITIES, SOFT_MARGIN, Claim, claim_unit, claims_for, compile_slacks
from ..notes.conventions import Convention, get_convention, tie_rule
from ._progress import magnitude
from .chunk_replay import ChunkReplays
from .replay import CompiledReplay
from .limb_replay import LimbReplay
from .wide_claims import SplitReplay
from .wide_replay import ObjectReplay
from .results import CheckResult, InvariantResult, Violation
from .separator import scaled_separator
from .soft_margin import SoftMarginCheck, soft_margin_check
from .facts import FactObserver, fact_check
from .units import Units

__all__ = ["Checker"]

#: The quantities that mean something only for a w* that separates (γ > 0, and the bound built on it).
_SEPARATION = frozenset({"gamma", "bound"})
#: The order in which `Checker.observe` lists the quantities (it must be `QUANTITIES`).
_OBSERVED_ORDER = ("N", "R_sq", "a", "beta", "bound", "gamma", "k", "n", "n_max", "prev_w_sq", "prev_w_ws",
                   "rho", "step_sq", "sum_N_dsq", "sum_N_xsq", "sum_n_sq", "w_sq", "w_ws", "ws_sq")


#: No sample: `finish`'s mistakes after convergence when every score is positive.
_NONE = np.zeros(0, dtype=np.intp)


def _vec(v: Sequence[Fraction]) -> str:
    return "[" + ", ".join(exact_text(x) for x in v) + "]"


class Checker(ChunkReplays):
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
        The scaled signed samples z_i = y_i·L·x~_i
        (`verify_perceptron.data.samples.sample_matrix`), if the caller has them already.
    compiled : bool
        Replay chunks of online updates in C where the kernel was built
        (`observe_chunk`); False checks every update in Python. The verdicts
        are the same either way.
    reference : sequence of rationals, optional
        u for the soft-margin bound (`verify_perceptron.check.soft_margin`),
        checked in online mode with the default claims: by default w*.
    reference_source : str
        Where `reference` came from, for the report.
    reference_counts : sequence of int, optional
        The finished run's mistakes per sample, to choose the bound's ρ (else one per sample).

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> from verify_perceptron.run import fast
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
        reference: Sequence[object] | None = None,
        reference_source: str = "last",
        reference_counts: Sequence[int] | None = None,
    ) -> None:
        conv = convention if isinstance(convention, Convention) else get_convention(convention)
        self.conv, self.mode, self.data = conv, mode, data
        self.rate = as_rational(rate, name="eta")
        self.a = conv.step_size(self.rate)
        self.L = data.denominator
        self.matrix = matrix if matrix is not None else sample_matrix(data, conv)
        self.tie = tie_rule(conv, self.rate, data.y_array)  # per sample: is a score of 0 a mistake?
        # The replayed weights, scaled (w = (a/L)·W): int64 while ‖W‖²·max‖z‖² < 2^126 proves every
        # dot product free of overflow, Python integers after that.
        self.W: Any = np.zeros(data.n_features + 1, dtype=object if self.matrix.wide else np.int64)
        self.w_sq = 0
        self.counts = np.zeros(data.n_samples, dtype=np.int64)
        self.k = self.N = self.sum_n_sq = self.n_max = 0
        self.sum_N_xsq = 0
        self.epoch = 0
        self.rule = InvariantResult(
            "update-rule", f"each update is a mistake under {conv.name}'s rule and moves w by exactly that rule",
            f"note {conv.note_number}'s algorithm",
        )
        self.separates = InvariantResult("separator-separates", "y_i·w*·x~_i > 0 for every sample i (γ > 0)",
                                         "the theorem's hypothesis (all notes)")
        self.final = InvariantResult("final-weights-separate", "the final weights make no mistake on any sample",
                                     "the algorithm's stopping rule")
        self.source, self.note = separator_source, separator_note
        # Σ‖z_i‖² (the claims' β, and the geometry's) from the norms' limbs where the samples are held so:
        # `matrix.norms` would make n Python integers, kept with the matrix through the run (0.55x the int64 data
        # on randn 10^5 x 10), and summing them again for the geometry was a second pass
        self.beta_scaled = self.matrix.held.norm_sum() if self.matrix.held is not None else exact_sum(self.matrix.norms)
        self._take_separator(separator)
        self.units = Units(self.a, L=self.L, M=self.M, labels=data.y)
        self._take_claims(claims)
        self.default_claims = claims is None
        self.take_reference(reference, reference_source, reference_counts)
        self.facts = fact_check(self)  # the proofs' hypotheses on this run
        self.tells_facts = True  # False once they are told apart (`facts_apart`)
        self._compiled: CompiledReplay | None | Literal[False] = False if compiled else None  # built on first use
        self._limbs: LimbReplay | SplitReplay | None | Literal[False] = False if compiled else None  # C, in limbs, past 128 bits
        self._wide: ObjectReplay | None | Literal[False] = False if compiled else None  # Python integers, past that

    def _take_separator(self, separator: Sequence[object] | None) -> None:
        """Scale w* to integers and measure it on the data: margins, geometry, the notes' bounds."""
        data, conv = self.data, self.conv
        self.separator: tuple[Fraction, ...] | ScaledWeights | None = None
        self.g: Geometry | None = None
        self.bounds: tuple[NoteBound, ...] = ()
        self.own: NoteBound | None = None
        self.M = 1
        self.margins: Any = np.zeros(data.n_samples, dtype=np.int64)
        self.gamma_scaled = self.ws_sq_scaled = self.w_ws = 0
        if separator is None:
            self.separates.holds, self.separates.skipped = None, "no separator: the run did not converge and none was given"
            return
        width = data.n_features + 1
        values = separator if isinstance(separator, ScaledWeights) else as_rationals(separator, name="separator")
        if len(values) != width:
            raise InvalidArgument(
                f"separator has {len(values)} values; {conv.name} needs {width}: "
                + ", ".join(conv.weight_names(data.n_features))
            )
        self.separator = values
        W_star, self.M = scaled_separator(values)
        self.ws_sq_scaled = sum(map(operator.mul, W_star, W_star))
        # z_i·W* = y_i·L·M·(w*·x~_i): each sample's margin, scaled, exactly.
        self.margins = self.matrix.products(W_star, norm_sq=self.ws_sq_scaled)
        self._scaled_separator = (W_star, self.M, self.margins)  # the soft-margin bound's u, by default
        b = conv.bias(values)
        self.g = geometry_of_margins(self.margins, R_sq=self.matrix.max_norm_sq, beta=self.beta_scaled, L=self.L,
                                     M=self.M, ws_sq=Fraction(self.ws_sq_scaled, self.M**2), b=b)
        self.gamma_scaled = int(self.margins[self.g.worst_sample])  # (the least margin: the geometry found it)
        self.separates.n_checked = data.n_samples
        self.separates.min_slack = self.g.gamma
        if not self.g.separates:
            # The first sample in the data's order that w* does not separate, with its margin and γ.
            i = int(np.flatnonzero(self.margins <= 0)[0])
            margin = Fraction(int(self.margins[i]), self.L * self.M)
            self.separates.fail(Violation(0, 0, (i,), (("gamma", self.g.gamma), ("margin", margin)),
                                          f"y_{i}·w*·x~_{i} = {exact_text(margin)} <= 0"))
        else:
            self.bounds = tuple(note_bounds(self.g))
            self.own = next(b for b in self.bounds if b.convention == conv.name)

    def _take_claims(self, claims: Sequence[Claim] | None) -> None:
        """The claims to evaluate, compiled once: those about w* skipped without one, and those about
        its margin γ (or the bound built on it) skipped when it does not separate."""
        usable = self.g is not None and self.g.separates
        chosen = list(claims) if claims is not None else claims_for(self.conv.name, self.mode)
        self.claims: list[tuple[Claim, InvariantResult]] = []
        for claim in chosen:
            result = InvariantResult(claim.name, claim.text, claim.source)
            if claim.needs_separator and self.g is None:
                result.holds, result.skipped = None, self.separates.skipped
            elif claim.needs_separator and not usable and _SEPARATION & set(claim.uses):
                result.holds, result.skipped = None, "the separator does not separate"
            self.claims.append((claim, result))
        for claim, _ in self.claims:
            try:
                claim_unit(claim)
            except ValueError as error:
                raise InvalidArgument(f"claim {claim.name!r} cannot be checked exactly here: {error}") from None
        self.active = [(c, r) for c, r in self.claims if r.skipped is None]
        self.slacks = compile_slacks([c for c, _ in self.active])
        assert QUANTITIES == _OBSERVED_ORDER, "observe() passes the quantities in a stale order"
        self.constants: dict[str, int | Fraction] = {
            "a": 1,
            "R_sq": self.matrix.max_norm_sq,
            "beta": self.beta_scaled,
            "ws_sq": self.ws_sq_scaled,
            "gamma": self.gamma_scaled,
            "bound": self.own.value if self.own is not None else 0,
        }

    def take_reference(self, reference: Sequence[object] | None, source: str = "last",
                       counts: Sequence[int] | None = None) -> None:
        """Set u, the soft-margin bound's reference (else w*): online mode, default claims, before it is told of updates.

        Its check (`soft`) can also be told of the run's mistakes directly,
        when they were kept apart (`verify_perceptron.check.mistake_map`).
        """
        self.soft: SoftMarginCheck | None = None
        self.soft_result: InvariantResult | None = None
        if self.mode != "online" or not self.default_claims:
            return
        scaled = None
        if reference is None and self.separator is not None:
            reference, source, scaled = self.separator, self.source or "user", self._scaled_separator
        if reference is None:
            reason: str | None = "no reference vector u: no weights the run visited are non-zero; give --separator (it need not separate)"
        else:
            values = (self.separator if scaled is not None and self.separator is not None  # reference is w*
                      else as_rationals(reference, name="reference"))
            if len(values) != self.data.n_features + 1:
                raise InvalidArgument(f"reference has {len(values)} values; {self.conv.name} needs "
                                      f"{self.data.n_features + 1}")
            check = soft_margin_check(self.matrix, values, L=self.L, source=source, counts=counts, scaled=scaled)
            reason = check if isinstance(check, str) else None
            self.soft = None if isinstance(check, str) else check
        if reason is not None:
            self.soft_result = InvariantResult(SOFT_MARGIN.name, SOFT_MARGIN.text, SOFT_MARGIN.source,
                                               holds=None, skipped=reason)

    # --- per update -------------------------------------------------------------------------

    def _fail_rule(self, k: int, epoch: int, samples: Sequence[int], message: str,
                   values: tuple[tuple[str, Fraction], ...] = ()) -> None:
        self.rule.fail(Violation(k, epoch, tuple(samples), values, message))

    def observe(self, k: int, epoch: int, samples: Sequence[int], scores: Sequence[int | Fraction], *,
                weights: Sequence[Fraction] | None = None, delta: Sequence[Fraction] | None = None) -> None:
        """Check update k, caused by `samples` whose reported scaled scores z_i·W_(k-1) were `scores`.

        `weights` and `delta`, in true units, are compared with the replay when a recorded trace has them.
        """
        self._observe(k, epoch, samples, scores, weights, delta)
        if not samples:  # an update of no sample (the rule's violation): nothing to replay or tell
            return
        if self.tells_facts:
            self.facts.observe(k, samples, scores)
        if self.soft is not None:
            self.soft.observe(k, epoch, samples)

    def facts_apart(self) -> FactObserver:
        """The proofs' hypotheses as an observer of their own, to be told of every update beside this checker,
        which no longer tells them (call it before the first update). They read only the reported rows and
        scores, so a caller whose checker runs in a second thread tells them in the engine's, which waits on
        the checker's longer replay anyway."""
        self.tells_facts = False
        return FactObserver(self.facts)

    def _observe(self, k: int, epoch: int, samples: Sequence[int], scores: Sequence[int | Fraction],
                 weights: Sequence[Fraction] | None = None, delta: Sequence[Fraction] | None = None) -> None:
        """`observe` without the soft-margin bound (which `observe_chunk` tells of a whole chunk at once)."""
        self.rule.n_checked += 1
        if k != self.k + 1 or epoch < max(self.epoch, 1):
            self._fail_rule(k, epoch, samples, f"update {k} of epoch {epoch} follows update {self.k} of epoch {self.epoch}")
        if not samples or (self.mode == "online" and len(samples) != 1) or list(samples) != sorted(set(samples)):
            self._fail_rule(k, epoch, samples, f"samples {list(samples)} are not what one {self.mode} update can have")
            if not samples:
                self.k, self.epoch = k, epoch
                return
        outside = [j for j in samples if not 0 <= j < self.data.n_samples]
        if outside:
            self._fail_rule(k, epoch, samples, f"sample {outside[0]} does not exist (the data have {self.data.n_samples})")
            self.k, self.epoch = k, epoch
            return
        self.k, self.epoch = k, epoch
        W = self.W  # int64 only while ‖W‖²·max‖z‖² < 2^126 (set below), so z·W is exact in int64
        if len(samples) > 1:
            step, s_total = self._batch_samples(k, epoch, samples, scores)
        else:
            step, s_total = None, 0
            for j, claimed in zip(samples, scores):
                row = self.matrix.row_values([j])[0]  # (the update's row only: samples held in limbs stay so)
                z = row.astype(object)
                s = int((row if W.dtype != object else z) @ W)
                self._check_sample(k, epoch, samples, j, claimed, s)
                step = z if step is None else step + z  # Python integers: exact at any size
                s_total += s
                self.counts[j] += 1
                self.sum_N_xsq += int(self.matrix.norms[j])
        n = len(samples)
        step_sq = int(self.matrix.norms[samples[0]]) if n == 1 else sum(t * t for t in step.tolist())
        prev_w_sq, prev_w_ws = self.w_sq, self.w_ws
        self.w_sq = prev_w_sq + 2 * s_total + step_sq  # ‖W + D‖² = ‖W‖² + 2·W·D + ‖D‖²
        self.W = W.astype(object) + step
        if not self.matrix.wide and self.w_sq * self.matrix.max_norm_sq < INT64_EXACT_SQ:
            self.W = self.W.astype(np.int64)  # exact: |W_j| <= ‖W‖ < 2^63
        self.w_ws = prev_w_ws + sum(int(self.margins[j]) for j in samples)  # margins are 0 without w*
        if delta is not None and tuple(delta) != self.units.weights(step.tolist()):
            self._fail_rule(k, epoch, samples, f"the step is {_vec(delta)}, the rule gives {_vec(self.units.weights(step.tolist()))}")
        if weights is not None and not self.units.is_weights(weights, self.W.tolist()):
            self._fail_rule(k, epoch, samples,
                            f"w_k is {_vec(weights)}, but w_(k-1) + the rule's step is {_vec(self.units.weights(self.W.tolist()))}")
        self.N += n
        self.sum_n_sq += n * n
        self.n_max = max(self.n_max, n)
        if not self.active:
            return
        c = self.constants
        # The quantities in QUANTITIES order (sorted names): one call evaluates every claim.
        values = (self.N, c["R_sq"], c["a"], c["beta"], c["bound"], c["gamma"], k, n, self.n_max, prev_w_sq,
                  prev_w_ws, 0, step_sq, 0, self.sum_N_xsq, self.sum_n_sq, self.w_sq, self.w_ws, c["ws_sq"])
        for (claim, result), slack in zip(self.active, self.slacks(*values)):
            result.n_checked += 1
            if result.min_slack is None or slack < result.min_slack:
                result.min_slack, result.min_slack_at = slack, k
            if slack < 0 and result.first_violation is None:
                q = dict(zip(QUANTITIES, values))
                shown = tuple(sorted((name, self.units.true(name, q[name])) for name in claim.uses))
                result.fail(Violation(k, epoch, tuple(samples), shown))

    def _check_sample(self, k: int, epoch: int, samples: Sequence[int], j: int, claimed: int | Fraction, s: int) -> None:
        """Sample j of update k: its score z_j·W_(k-1) is `s`; it must be the one reported and a mistake."""
        if s != claimed:
            shown_claim = claimed if isinstance(claimed, Fraction) else Fraction(claimed)
            self._fail_rule(k, epoch, samples, f"sample {j}'s score is not what the run reported", (
                ("recorded_score", self.units.score(j, shown_claim)), ("score", self.units.score(j, Fraction(s)))))
        if not (s < 0 or (s == 0 and self.tie[j])):
            self._fail_rule(k, epoch, samples, f"sample {j} is not a mistake under the rule", (
                ("label", Fraction(self.data.y[j])), ("score", self.units.score(j, Fraction(s)))))

    def _batch_samples(self, k: int, epoch: int, samples: Sequence[int], scores: Sequence[int | Fraction]) -> tuple[Any, int]:
        """A batch update's samples at once: the same checks and sums as one by one.

        The scores Z_j·W are exact: in int64 while W is (under the guard on
        ‖W‖²), from int64 pieces (`matrix_vector`) while W's entries fit in int64,
        else in Python integers; the step Σ z_j is summed in Python integers.
        Only the first sample that fails is looked at one by one (a violation
        keeps only its first instance).
        """
        rows = np.asarray(samples, dtype=np.intp)
        Z = self.matrix.row_values(rows)  # (only these rows: samples held in limbs are not all made Python integers)
        if self.W.dtype != object and Z.dtype != object:
            products = Z @ self.W
        elif Z.dtype != object and Z.shape[1] < 2**19 and max(map(abs, self.W.tolist())) < 2**63:
            products = matrix_vector(Z, self.W.astype(np.int64))
        else:
            products = Z.astype(object) @ self.W.astype(object)
        values = products.tolist()
        tie = np.asarray(self.tie, dtype=bool)[rows]
        wrong = ~(np.asarray(products < 0, dtype=bool) | (np.asarray(products == 0, dtype=bool) & tie))
        if values != list(scores) or wrong.any():
            for j, claimed, s in zip(samples, scores, values):
                if s != claimed or not (s < 0 or (s == 0 and self.tie[j])):
                    self._check_sample(k, epoch, samples, j, claimed, s)
                    break
        np.add.at(self.counts, rows, 1)  # a repeated sample (already a violation) counts twice, as one by one
        self.sum_N_xsq += sum(self.matrix.norms[rows].tolist())
        return Z.sum(axis=0, dtype=object), sum(values)

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
            weights_match = self.units.is_weights(trace.final_weights, self.W.tolist())
            if not weights_match:
                self._fail_rule(0, 0, (), "the run's final weights are not the sum of its updates")
        results = [self.rule, self.separates]
        if trace is not None and trace.converged:
            # The run's own final weights w = (a/L)·V: V is the replay's W when the record is right;
            # else the record scaled to integers, V = M·(L/a)·w, whose scores are M times too large.
            final, M = (self.W.tolist(), 1) if weights_match else scaled_separator(
                tuple(w * self.L / self.a for w in trace.final_weights))
            scores = self.matrix.products(final, norm_sq=sum(map(operator.mul, final, final)))
            # (every score positive, as on a converged run but for a hard limiter's tie: one comparison a sample)
            wrong = _NONE if (scores > 0).all() else np.flatnonzero((scores < 0) | ((scores == 0) & self.tie))
            self.final.n_checked += int(wrong[0]) + 1 if wrong.size else len(self.tie)
            if wrong.size:
                i = int(wrong[0])
                self.final.fail(Violation(0, 0, (i,), (
                    ("label", Fraction(self.data.y[i])), ("score", self.units.score(i, Fraction(int(scores[i]), M)))),
                    "a mistake after convergence"))
            results.append(self.final)
        for claim, result in self.claims:
            if result.min_slack is not None:
                # A homogeneous claim's true slack is its slack in the checker's units times its unit.
                result.min_slack = Fraction(result.min_slack) * self.units.factor(claim_unit(claim))
            results.append(result)
        summary = None
        if self.soft is not None:
            self.soft_result, summary = self.soft.finish()
        if self.soft_result is not None:
            results.append(self.soft_result)
        proofs = self.facts.finish({claim.name: result for claim, result in self.claims}, self.k)
        return CheckResult(tuple(results), self.separator, self.source, self.g, self.bounds, self.own, self.note,
                           summary, proofs)

    def status(self) -> str:
        """One line for a progress display: updates so far and the mistake bound's slack."""
        if self.own is not None:
            return f"{self.N} mistakes, bound {magnitude(self.own.value)}"
        return f"{self.N} mistakes"
