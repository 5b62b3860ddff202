"""How tight is each note's bound? Bounds at several separators beside the mistakes actually made.

`compare_bounds` evaluates the five notes' bounds (`verify_perceptron.notes.bounds`)
at each of these separators, all written ``(b, v1, ..., vm)``:

``max-margin``
    the certified augmented max-margin separator (``min b² + ‖v‖²``); every
    note's bound is smallest here (named ``best-verified`` when the optimum
    could not be certified);
``free-bias-max-margin``
    the certified standard SVM (``min ‖v‖²``, free bias): the largest
    margin ρ in note 004's normalisation ‖α*‖ = 1, but not its smallest bound;
``user``, ``final``
    a separator the caller gives, and a run's final weights;

and sets each beside the mistakes the perceptron makes under each
note's convention (the fast engine's run, identical to the reference's) (from w = 0, in the data's order, online, rate 1; from
w = 0 the rate does not change the mistakes). Note 003's bound β·‖w‖²/γ²
also holds in batch mode, for every convention (derived here, not in the
notes: `verify_perceptron.proofs.batch`), so it is set beside each
convention's batch run too (`BoundComparison.batch_entries`). Every bound depends on the
samples only, not on their order, so `verify_perceptron.certify.orders.order_statistics` compares the same
numbers with runs over many presentation orders.

Why bounds coincide: for one separator, notes 000, 001, 002 and 004 all
reduce to R²·‖w‖²/γ² (note 004 too: (b²/‖v‖² + 1)·(1 + M²)·‖v‖²/γ² with
R² = 1 + M²), and note 003's β·‖w‖²/γ² is larger by β/R², because it sums
‖x~_i‖² where the others take the largest. `BoundComparison.groups` shows
which values are equal as computed, not as assumed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ._activeset import deadline_after
from ..notes.bounds import Geometry, geometry, note_bound
from ..notes.conventions import CONVENTIONS
from ..data.dataset import Dataset
from ..data.exact_text import exact_text, nearest_float
from ..run.fast import run as fast_run
from ..errors import InvalidArgument
from .maxmargin import MaxMargin, max_margin, max_margin_free_bias
from ..data.rationals import as_rationals
from .separability import Separability
from .soft_bounds import SoftMarginEntry, soft_margin_entries

__all__ = [
    "BatchEntry",
    "BatchRun",
    "BoundComparison",
    "BoundEntry",
    "RunCount",
    "SeparatorUsed",
    "compare_bounds",
]

Vector = tuple[Fraction, ...]


@dataclass(frozen=True)
class RunCount:
    """The reference engine's run under one convention: mistakes (= updates, online) and how it stopped."""

    convention: str
    n_updates: int
    stop: str

    @property
    def converged(self) -> bool:
        """True when the run ended with a pass without a mistake."""
        return self.stop == "converged"


@dataclass(frozen=True)
class BatchRun:
    """The run under one convention in batch mode: its updates (one per pass with a mistake) and mistakes."""

    convention: str
    n_updates: int
    n_mistakes: int
    stop: str

    @property
    def converged(self) -> bool:
        """True when the run ended with a pass without a mistake."""
        return self.stop == "converged"


@dataclass(frozen=True)
class SeparatorUsed:
    """One separator the bounds were evaluated at.

    Attributes
    ----------
    name : str
        ``max-margin``, ``best-verified``, ``free-bias-max-margin``,
        ``free-bias-best-verified``, ``user`` or ``final``.
    weights : tuple of Fraction
        ``(b, v1, ..., vm)``.
    certified_optimal : bool
        True for a max-margin separator whose optimality was certified.
    geometry : Geometry
        Its exact measurements on the data (γ, R², β, ‖w‖², ...).
    skipped : str or None
        Why no bound was evaluated (it does not separate, or ‖v‖ = 0 for note 004).
    """

    name: str
    weights: Vector
    certified_optimal: bool
    geometry: Geometry
    skipped: str | None = None


@dataclass(frozen=True)
class BoundEntry:
    """One note's bound at one separator, beside the mistakes under that note's convention.

    ``ratio = n_updates / value``; a run that did not converge (`converged` False)
    gives only a lower bound on its mistakes.
    """

    convention: str
    note: str
    separator: str
    value: Fraction
    n_updates: int
    converged: bool

    @property
    def ratio(self) -> Fraction:
        """Mistakes made over the bound: how much of the bound the run used."""
        return Fraction(self.n_updates) / self.value

    def as_dict(self) -> dict[str, object]:
        """JSON-ready: exact numbers as strings."""
        return {
            "note": self.note,
            "convention": self.convention,
            "separator": self.separator,
            "value": exact_text(self.value),
            "value_floor": self.value.numerator // self.value.denominator,
            "n_updates": self.n_updates,
            "converged": self.converged,
            "ratio": exact_text(self.ratio),
            "ratio_decimal": nearest_float(self.ratio),
        }


@dataclass(frozen=True)
class BatchEntry:
    """Note 003's bound β·‖w‖²/γ² at one separator, beside one convention's batch run.

    The notes prove no bound for batch mode; this one is derived here for every
    convention (``mistake-bound-sum-batch``). ``ratio = n_mistakes / value``.
    """

    convention: str
    separator: str
    value: Fraction
    n_mistakes: int
    n_updates: int
    converged: bool

    @property
    def ratio(self) -> Fraction:
        """Mistakes made in batch mode over the bound."""
        return Fraction(self.n_mistakes) / self.value

    def as_dict(self) -> dict[str, object]:
        """JSON-ready: exact numbers as strings."""
        return {
            "note": "003",
            "convention": self.convention,
            "separator": self.separator,
            "value": exact_text(self.value),
            "value_floor": self.value.numerator // self.value.denominator,
            "n_mistakes": self.n_mistakes,
            "n_updates": self.n_updates,
            "converged": self.converged,
            "ratio": exact_text(self.ratio),
            "ratio_decimal": nearest_float(self.ratio),
        }


@dataclass(frozen=True)
class BoundComparison:
    """Every note's bound at every separator, the runs' mistakes, and what the numbers show.

    Attributes
    ----------
    separability : Separability
        The exact decision; without a separator no bound applies and the rest is empty.
    max_margin, free_bias : MaxMargin or None
        The two max-margin results (None when not computed: not separable, or one class only).
    runs : tuple of RunCount
        One reference run per convention, in note order.
    separators : tuple of SeparatorUsed
    entries : tuple of BoundEntry
        One per separator (in `separators` order) and convention (in note order).
    findings : tuple of str
        Facts read off the exact numbers: which bounds coincide, by how much note 003's
        is larger, where each note's bound is tightest.
    batch_runs : tuple of BatchRun
        One batch-mode run per convention, in note order.
    batch_entries : tuple of BatchEntry
        Note 003's bound at each separator beside each batch run (empty without runs).
    soft_margin : tuple of SoftMarginEntry
        For data that are not separable, each convention's online run beside the bound
        without separation (`verify_perceptron.certify.soft_bounds`).
    """

    separability: Separability
    max_margin: MaxMargin | None
    free_bias: MaxMargin | None
    runs: tuple[RunCount, ...]
    separators: tuple[SeparatorUsed, ...]
    entries: tuple[BoundEntry, ...]
    findings: tuple[str, ...]
    batch_runs: tuple[BatchRun, ...] = ()
    batch_entries: tuple[BatchEntry, ...] = ()
    soft_margin: tuple[SoftMarginEntry, ...] = ()

    def entry(self, convention: str, separator: str) -> BoundEntry | None:
        """The entry for one convention and separator, if there is one."""
        return next((e for e in self.entries if e.convention == convention and e.separator == separator), None)

    def groups(self, separator: str) -> tuple[tuple[str, ...], ...]:
        """Conventions whose bounds are equal at `separator`, grouped, smallest value first.

        Examples
        --------
        >>> from verify_perceptron.data.examples import example
        >>> compare_bounds(example("and")).groups("max-margin")
        (('classic', 'hard-limiter', 'hard-limiter-plus', 'unit-ball', 'split-bias'), ('sum-norm',))
        """
        values: dict[Fraction, list[str]] = {}
        for e in self.entries:
            if e.separator == separator:
                values.setdefault(e.value, []).append(e.convention)
        return tuple(tuple(values[v]) for v in sorted(values))

    def as_dict(self) -> dict[str, object]:
        """JSON-ready: the issue's ``separable``, ``certificate``, ``max_margin`` and ``bounds``, and more."""
        certificate = self.separability.as_dict()
        return {
            "separable": self.separability.separable,
            "certificate": certificate["certificate"],
            "separability": certificate,
            "max_margin": None if self.max_margin is None else self.max_margin.as_dict(),
            "max_margin_free_bias": None if self.free_bias is None else self.free_bias.as_dict(),
            "runs": [{"convention": r.convention, "n_updates": r.n_updates, "stop": r.stop} for r in self.runs],
            "separators": [
                {
                    "name": s.name,
                    "weights": [exact_text(v) for v in s.weights],
                    "certified_optimal": s.certified_optimal,
                    "gamma": exact_text(s.geometry.gamma),
                    "ws_sq": exact_text(s.geometry.ws_sq),
                    "skipped": s.skipped,
                }
                for s in self.separators
            ],
            "bounds": [e.as_dict() for e in self.entries],
            "findings": list(self.findings),
            "batch_runs": [{"convention": r.convention, "n_updates": r.n_updates, "n_mistakes": r.n_mistakes,
                            "stop": r.stop} for r in self.batch_runs],
            "batch_bounds": [e.as_dict() for e in self.batch_entries],
            "soft_margin": [e.as_dict() for e in self.soft_margin],
        }


def _separator(data: Dataset, w: Sequence[object], name: str) -> Vector:
    values = as_rationals(w, name=name)
    if len(values) != data.n_features + 1:
        raise InvalidArgument(f"{name} has {len(values)} values; (b, v1..v{data.n_features}) needs {data.n_features + 1}")
    return values


def _used(data: Dataset, name: str, w: Vector, certified: bool) -> SeparatorUsed:
    g = geometry(data, w[0], w[1:])
    if not g.separates:
        return SeparatorUsed(name, w, certified, g,
                             f"does not separate: γ = {exact_text(g.gamma)} <= 0 at sample {g.worst_sample}")
    if g.v_sq == 0:
        return SeparatorUsed(name, w, certified, g, "v = 0: note 004's normalisation ‖α*‖ = 1 is impossible")
    return SeparatorUsed(name, w, certified, g)


def _findings(separators: Sequence[SeparatorUsed], entries: Sequence[BoundEntry]) -> list[str]:
    """Sentences stating what the exact values show; each one compares computed numbers."""
    facts: list[str] = []
    by = {(e.separator, e.convention): e.value for e in entries}
    usable = [s for s in separators if s.skipped is None]
    distinct: list[SeparatorUsed] = []
    for s in usable:
        twin = next((d for d in distinct if d.weights == s.weights), None)
        if twin is None:
            distinct.append(s)
        else:
            facts.append(f"{s.name} is the same separator as {twin.name}: the same bounds")
    others = [c for c in CONVENTIONS if c != "sum-norm"]
    for s in distinct:
        g = s.geometry
        common = g.R_sq * g.ws_sq / (g.gamma * g.gamma)
        if all(by[(s.name, c)] == common for c in others):
            facts.append(
                f"at {s.name}: the bounds of {', '.join(others)} coincide, {exact_text(common)} = R²·‖w‖²/γ² "
                f"(R² = {exact_text(g.R_sq)}, ‖w‖² = {exact_text(g.ws_sq)}, γ = {exact_text(g.gamma)})"
            )
    if distinct:
        g = distinct[0].geometry
        excess = g.beta / g.R_sq  # β and R² depend on the data only
        if all(by[(s.name, "sum-norm")] == excess * by[(s.name, "classic")] for s in distinct):
            facts.append(
                f"at every separator sum-norm's bound is β/R² = {exact_text(excess)} times the others': "
                f"note 003 sums ‖x~_i‖² (β = {exact_text(g.beta)}) where the others take the largest "
                f"(R² = {exact_text(g.R_sq)})"
            )
    if len(distinct) > 1:
        ranked = {}
        for c in CONVENTIONS:
            at = sorted((by[(s.name, c)], k) for k, s in enumerate(distinct))
            ranked[c] = (distinct[at[0][1]].name, distinct[at[-1][1]].name, at[-1][0] / at[0][0], at[0][0], at[-1][0])
        if len({(low, high, times) for low, high, times, _, _ in ranked.values()}) == 1:
            low, high, times, _, _ = ranked["classic"]
            facts.append(
                f"every note's bound is smallest at {low} and largest at {high}, {exact_text(times)} times as large "
                "(each bound is a constant of the data times ‖w‖²/γ², so the separators rank alike in every note)"
            )
        else:
            for c, (low, high, times, low_value, high_value) in ranked.items():
                facts.append(f"{c}: the bound is smallest at {low} ({exact_text(low_value)}) and largest at {high} "
                             f"({exact_text(high_value)}, {exact_text(times)} times as large)")
    aug = next((s for s in distinct if s.name == "max-margin"), None)
    free = next((s for s in distinct if s.name == "free-bias-max-margin"), None)
    if aug is not None and free is not None:
        rho_aug = aug.geometry.gamma ** 2 / aug.geometry.v_sq
        rho_free = free.geometry.gamma ** 2 / free.geometry.v_sq
        facts.append(
            f"split-bias: the free-bias SVM has note 004's larger margin (ρ² = {exact_text(rho_free)} against "
            f"{exact_text(rho_aug)}) but the larger bound ({exact_text(by[(free.name, 'split-bias')])} against "
            f"{exact_text(by[(aug.name, 'split-bias')])}): "
            "the bound grows with the bias too, through α0*² + 1"
        )
    return facts


#: What the bound without separation (`verify_perceptron.certify.soft_bounds`) is for separable data.
_WITHOUT_SEPARATION = ("the bound without separation (Freund and Schapire 1999, derived here), N <= ((R‖u‖ + D)/ρ)², "
                       "taken at each separator u with ρ = γ, has D = 0 and is R²‖u‖²/γ², note 000's value")


def compare_bounds(
    data: Dataset,
    *,
    user: Sequence[object] | None = None,
    final: Sequence[object] | None = None,
    time_limit: float | None = None,
    max_epochs: int = 1000,
) -> BoundComparison:
    """Every note's bound at the max-margin, free-bias, user and final separators, beside the runs' mistakes.

    Parameters
    ----------
    data : Dataset
    user, final : sequence of rationals, optional
        Separators ``(b, v1, ..., vm)``; a convention's ``to_canonical`` converts
        its own coordinates. One that does not separate is listed with the reason
        and gets no bound.
    time_limit : float, optional
        Seconds for the whole comparison (the max-margin solves and the runs).
    max_epochs : int
        Passes allowed to each run.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> result = compare_bounds(example("and"), final=[-4, 3, 2])
    >>> [(e.separator, str(e.value), e.n_updates) for e in result.entries if e.convention == "classic"]
    [('max-margin', '51', 18), ('free-bias-max-margin', '51', 18), ('final', '87', 18)]
    >>> str(result.entry("sum-norm", "max-margin").value)
    '136'
    >>> [(e.convention, str(e.value), e.n_mistakes) for e in result.batch_entries if e.separator == "max-margin"][:2]
    [('classic', '136', 15), ('hard-limiter', '136', 5)]
    """
    deadline = deadline_after(time_limit)
    checked_user = None if user is None else _separator(data, user, "user")
    checked_final = None if final is None else _separator(data, final, "final")

    def remaining() -> float | None:
        return None if deadline is None else max(deadline - time.monotonic(), 1e-3)

    candidates = [w for w in (checked_final, checked_user) if w is not None]
    augmented = max_margin(data, time_limit=remaining(), candidates=candidates)
    separability = augmented.separability
    if separability.separable is not True:
        refuted = separability.separable is False
        reason = "not separable: no note's bound applies" if refuted else f"undecided: {separability.problem}"
        soft = soft_margin_entries(data, max_epochs=max_epochs, remaining=remaining) if refuted else ()
        return BoundComparison(separability, augmented, None, (), (), (), (reason,), soft_margin=soft)
    free = max_margin_free_bias(data, time_limit=remaining(), candidates=candidates) if len(set(data.y)) == 2 else None

    separators: list[SeparatorUsed] = []
    if augmented.weights is not None:
        name = "max-margin" if augmented.certified else "best-verified"
        separators.append(_used(data, name, augmented.weights, augmented.certified))
    if free is not None and free.weights is not None:
        name = "free-bias-max-margin" if free.certified else "free-bias-best-verified"
        separators.append(_used(data, name, free.weights, free.certified))
    if checked_user is not None:
        separators.append(_used(data, "user", checked_user, False))
    if checked_final is not None:
        separators.append(_used(data, "final", checked_final, False))

    runs = tuple(
        RunCount(c, t.n_updates, t.stop)
        for c, t in ((c, fast_run(data, c, eta=1, max_epochs=max_epochs, time_limit=remaining(), keep_updates=0))
                     for c in CONVENTIONS)
    )
    entries = tuple(
        BoundEntry(run.convention, CONVENTIONS[run.convention].note_number, s.name,
                   note_bound(run.convention, s.geometry).value, run.n_updates, run.converged)
        for s in separators if s.skipped is None
        for run in runs
    )
    findings = tuple(_findings(separators, entries)) + (_WITHOUT_SEPARATION,)
    batch_runs, batch_entries = _batch(data, separators, max_epochs, remaining)
    return BoundComparison(separability, augmented, free, runs, tuple(separators), entries, findings,
                           batch_runs, batch_entries)


def _batch(data: Dataset, separators: Sequence[SeparatorUsed], max_epochs: int,
           remaining: Callable[[], float | None]) -> tuple[tuple[BatchRun, ...], tuple[BatchEntry, ...]]:
    """Each convention's batch run, and note 003's bound (which holds in batch mode) beside each, per separator."""
    runs = tuple(
        BatchRun(c, t.n_updates, t.n_mistakes, t.stop)
        for c, t in ((c, fast_run(data, c, eta=1, mode="batch", max_epochs=max_epochs, time_limit=remaining(),
                                  keep_updates=0)) for c in CONVENTIONS)
    )
    entries = tuple(
        BatchEntry(run.convention, s.name, note_bound("sum-norm", s.geometry).value, run.n_mistakes, run.n_updates,
                   run.converged)
        for s in separators if s.skipped is None
        for run in runs
    )
    return runs, entries


# --- presentation orders ---------------------------------------------------------------------------
