"""The bound without separation in the `bounds` comparison: each convention's online run beside it.

For separable data it is the notes' R²‖u‖²/γ² at each separator (ρ = γ, so
D = 0), and `verify_perceptron.certify.comparison` says so. For data that
are not separable no note's bound applies, but Freund and Schapire's does
(`verify_perceptron.notes.soft_margin`): each convention runs online from
w = 0, and its mistakes are set beside ((R‖u‖ + D)/ρ)² for u the best of
the weights it visited (`verify_perceptron.check.soft_reference.best_reference`)
and D over its own mistakes, an enclosure of an irrational number.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from ..check.soft_margin import soft_margin_check
from ..check.soft_reference import best_reference
from ..data.dataset import Dataset
from ..data.exact_text import exact_text
from ..data.samples import sample_matrix
from ..notes.conventions import CONVENTIONS, get_convention
from ..run.fast import run as fast_run

__all__ = ["SoftMarginEntry", "soft_margin_entries"]

#: Updates kept from each run, among which `best_reference` looks for u.
_KEPT = 4096


@dataclass(frozen=True)
class SoftMarginEntry:
    """One convention's online run and the bound without separation at its end (None when no u has a margin)."""

    convention: str
    n_mistakes: int
    stop: str
    reference: str | None
    rho: Fraction | None
    D_sq: Fraction | None
    bound: tuple[Fraction, Fraction] | None

    def as_dict(self) -> dict[str, object]:
        """JSON-ready, with the enclosure's ends as exact fractions."""
        return {
            "convention": self.convention, "n_mistakes": self.n_mistakes, "stop": self.stop,
            "reference": self.reference, "rho": None if self.rho is None else exact_text(self.rho),
            "D_sq": None if self.D_sq is None else exact_text(self.D_sq),
            "bound": None if self.bound is None else {"lower": exact_text(self.bound[0]),
                                                      "upper": exact_text(self.bound[1])},
        }


def soft_margin_entries(data: Dataset, *, max_epochs: int,
                        remaining: Callable[[], float | None]) -> tuple[SoftMarginEntry, ...]:
    """Each convention's online run (rate 1, within the time left) and its bound without separation.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> entry = soft_margin_entries(example("xor"), max_epochs=100, remaining=lambda: None)[0]
    >>> entry.convention, entry.n_mistakes, entry.stop, entry.n_mistakes <= entry.bound[0]
    ('classic', 4, 'cycle', True)
    """
    entries = []
    for name in CONVENTIONS:
        conv = get_convention(name)
        trace = fast_run(data, conv, eta=1, max_epochs=max_epochs, time_limit=remaining(), keep_updates=_KEPT)
        matrix = sample_matrix(data, conv)
        chosen = best_reference(matrix, trace)
        check = None if chosen is None else soft_margin_check(
            matrix, chosen[0], L=data.denominator, source=chosen[1], counts=trace.mistakes_per_sample)
        if check is None or isinstance(check, str):
            entries.append(SoftMarginEntry(name, trace.n_mistakes, trace.stop, None, None, None, None))
            continue
        D_sq = check.shortfall_sum(trace.mistakes_per_sample)  # (the check's: its bound may hold no deficits)
        true = check.bound.true(check.L, check.M)
        entries.append(SoftMarginEntry(name, trace.n_mistakes, trace.stop, check.source, true["rho"],
                                       Fraction(D_sq, (check.L * check.M) ** 2), check.bound.interval(D_sq)))
    return tuple(entries)
