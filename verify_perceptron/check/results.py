"""What the checker finds: a violation, the verdict on one claim, and the result of a whole check."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from ..notes.bounds import Geometry, NoteBound
from ..notes.claims import SOFT_MARGIN
from ..data.exact_text import exact_text

if TYPE_CHECKING:
    from .facts import ProofCheck
    from ..data.trace import ScaledWeights, Update
    from .soft_margin import SoftMarginSummary
    from .whole_run import RunPoints, WholeRecord

__all__ = ["Violation", "InvariantResult", "CheckResult"]

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
        values = ", ".join(f"{name} was {exact_text(value)}" for name, value in self.values)
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
    separator : tuple of Fraction, ScaledWeights or None
        The w* used, in the convention's coordinates (the fast engine's final weights stay `ScaledWeights`).
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
    soft_margin : SoftMarginSummary or None
        The soft-margin bound's constants and values (online runs with a reference u).
    proofs : tuple of ProofCheck
        The hypotheses of each proof the run is an instance of, decided on it (`verify_perceptron.check.facts`).
    whole : WholeRecord or None
        What the report keeps of the whole run when the trace kept only its first updates
        (`verify_perceptron.check.whole_run`): read through `points`, the invariants at the updates a figure
        draws, and `last_updates`, the run's last updates with their weights (the report lists them after its
        first ones). Each is made when first read.
    """

    invariants: tuple[InvariantResult, ...]
    separator: Vector | ScaledWeights | None
    separator_source: str | None
    geometry: Geometry | None
    bounds: tuple[NoteBound, ...] = field(default=())
    own_bound: NoteBound | None = None
    separator_note: str | None = None
    soft_margin: SoftMarginSummary | None = None
    proofs: tuple[ProofCheck, ...] = ()
    # what the report keeps of the whole run, not a finding: two checks of one run are equal without it
    whole: WholeRecord | None = field(default=None, compare=False, repr=False)

    @property
    def points(self) -> RunPoints | None:
        """The invariants at the updates a figure draws (None when the trace kept every update)."""
        return None if self.whole is None else self.whole.points

    @property
    def last_updates(self) -> tuple[Update, ...]:
        """The run's last updates, with their weights (none when the trace kept every update)."""
        return () if self.whole is None else self.whole.last_updates

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
        """True when every claim of the notes was checked (none skipped for want of a separator).

        The soft-margin bound is not one of them: it needs no separator, and
        whether a reference u and a margin ρ could be found for it says
        nothing about the run, so its row never keeps a verdict from a run.
        """
        return all(r.skipped is None for r in self.invariants if r.name != SOFT_MARGIN.name)
