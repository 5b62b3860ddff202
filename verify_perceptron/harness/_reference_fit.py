"""The package's own exact perceptron as an implementation to check: the harness's baseline."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ..notes.conventions import get_convention
from ..run.reference import train

__all__ = ["reference_fit"]


def reference_fit(X: Sequence[Sequence[object]], y: Sequence[object]) -> tuple[list[Fraction], Fraction]:
    """The reference engine as an implementation: ``fit(X, y) -> (w, b)``, exact, under ``classic``.

    It takes labels -1/+1 or 0/1 and any exact values; a check of it passes
    by construction, which makes it a baseline for the harness itself.

    Examples
    --------
    >>> w, b = reference_fit([[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 0, 1])
    >>> [str(v) for v in w], str(b)
    (['3', '2'], '-4')
    """
    from ..data.dataset import from_arrays

    run = train(from_arrays(X, y), "classic", max_epochs=100_000)
    b, v = get_convention("classic").to_canonical(run.final_weights)
    return list(v), b
