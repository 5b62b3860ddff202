"""Certificates of (non-)separability that anyone can check exactly.

A run that returns to the same weights at two epoch boundaries e1 < e2 has
added nothing over the epochs in between: Σ_j a·y_j·x~_j = 0 over the
mistakes j of those epochs. Counting mistakes per sample, m_i, and
normalising, λ = m/Σm is a certificate in Gordan's alternative:

    λ >= 0,  Σ λ_i = 1,  Σ λ_i·y_i·x~_i = 0,

which no strict separator w can survive (it would give 0 = w·Σλ_i y_i x~_i > 0).
So a cycle is a proof, checkable in one line of arithmetic, that the data are
not linearly separable, and that the perceptron can never converge on them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from ..data.dataset import Dataset
from ..data.trace import Trace

__all__ = ["certificate_from_cycle", "gordan_defect"]


def certificate_from_cycle(trace: Trace) -> tuple[Fraction, ...] | None:
    """λ from the mistakes made during the repeated epochs, or None if the run did not cycle.

    Examples
    --------
    >>> from verify_perceptron.run.reference import train
    >>> from verify_perceptron.data.examples import example
    >>> [str(v) for v in certificate_from_cycle(train(example("xor")))]
    ['1/4', '1/4', '1/4', '1/4']
    """
    if trace.cycle is None:
        return None
    if trace.cycle_mistakes is not None:  # counted by the engine, whatever updates it kept
        counts = list(trace.cycle_mistakes)
    elif trace.updates_truncated:
        return None  # the mistakes of the repeated epochs are not all in the record
    else:
        first, last = trace.cycle
        counts = [0] * len(trace.mistakes_per_sample)
        for update in trace.updates:
            if first < update.epoch <= last:
                for j in update.samples:
                    counts[j] += 1
    total = sum(counts)
    return tuple(Fraction(c, total) for c in counts)


def gordan_defect(data: Dataset, lam: Sequence[Fraction]) -> str | None:
    """None when λ is a valid non-separability certificate for `data`, else what is wrong with it.

    The augmented sample is (1, x); a bias input of -1 flips one coordinate
    of the sum and leaves it zero or not alike, so this serves every convention.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> q = Fraction(1, 4)
    >>> gordan_defect(example("xor"), [q, q, q, q]) is None
    True
    >>> gordan_defect(example("and"), [q, q, q, q])
    'Σ λ_i·y_i·x~_i = [-1/2, 0, 0], not 0'
    """
    if len(lam) != data.n_samples:
        return f"λ has {len(lam)} entries for {data.n_samples} samples"
    # Only the nonzero entries can be negative or add to Σ λ_i: a certificate from the exact method has at
    # most d + 1 of them (6 of iris versicolor/virginica's 100), and comparing and adding the zeros as
    # Fractions was most of this check's time (0.35 of 0.4 ms there).
    nonzero = [(i, value) for i, value in enumerate(lam) if value]
    for i, value in nonzero:
        if value < 0:
            return f"λ_{i} = {value} < 0"
    total = sum((value for _, value in nonzero), Fraction(0))
    if total != 1:
        return f"Σ λ_i = {total}, not 1"
    combined = _signed_sum(data, nonzero)
    if any(combined):
        return "Σ λ_i·y_i·x~_i = [" + ", ".join(map(str, combined)) + "], not 0"
    return None


def _signed_sum(data: Dataset, nonzero: Sequence[tuple[int, Fraction]]) -> list[Fraction]:
    """Σ λ_i·y_i·(1, x_i), exactly, in integers, from the samples i with λ_i != 0 (`nonzero`: (i, λ_i)):
    λ_i = p_i/D and x_i = n_i/L, so the sum is Σ p_i·y_i·(L, n_i) / (D·L) (no Fraction per cell)."""
    values = [v if isinstance(v, Fraction) else Fraction(v) for _, v in nonzero]
    D = math.lcm(*(v.denominator for v in values))
    L = data.denominator
    rows = [i for i, _ in nonzero]
    c = [v.numerator * (D // v.denominator) * data.y[i] for i, v in zip(rows, values)]
    numerators = data.numerators[rows]
    # int64 when Σ|c_i|·max(1, max|n|) < 2^63: then every c_i and every partial sum fits, exactly.
    if numerators.dtype != object and sum(map(abs, c)) * max(1, int(np.abs(numerators).max(initial=0))) < 2**63:
        features = (np.array(c, dtype=np.int64) @ numerators).tolist()
    else:
        features = [sum(ci * int(n) for ci, n in zip(c, column)) for column in numerators.T.tolist()]
    return [Fraction(v, D * L) for v in (L * sum(c), *features)]
