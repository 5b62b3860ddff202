"""The soft-margin check told of a run's kept mistakes after the run: `replay_kept`, in two threads on long runs.

For a run that did not converge, u (the soft-margin bound's reference) is
known only at its end, so its check (`verify_perceptron.check.soft_margin`)
is told of the mistakes the run kept apart (`verify_perceptron.check.mistake_map`)
once the run is over, while the second core is idle. On a long run the
mistakes are cut in two at a block of epochs: the second half is told to a
copy of the check that starts where the first half ends (N, and D² summed
exactly from the first half's mistakes per sample), in a second thread; the
two are then joined, and the join confirms that the first half ended where
the second began. Each half is cut into the same chunks as one pass makes,
so every float the filter computes, and every verdict, is the one pass's.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from .mistake_map import MistakeMap
from .soft_margin import SoftMarginCheck

__all__ = ["replay_kept"]

#: From this many kept mistakes on, the second half is told in a second thread (10^6 x 10 not separable at 100
#: epochs: 13 million; breast cancer raw's whole fit, 53,256).
HALVES_FROM = 2**20


def replay_kept(check: SoftMarginCheck, kept: MistakeMap) -> None:
    """Tell `check` of every mistake `kept` (a complete map), in order, numbered on from 1.

    Examples
    --------
    >>> from verify_perceptron.notes.soft_margin import SoftMargin
    >>> kept = MistakeMap(n_samples=2, capacity=100)
    >>> kept.observe_chunk(1, np.array([1, 1, 2]), np.array([0, 1, 1]), None)
    >>> bound = SoftMargin.from_margins([1, -1], rho=1, R_sq=1, u_sq=1, scale=1)  # d² = (0, 4)
    >>> check = SoftMarginCheck(bound, reference=(), source="user", L=1, M=1)
    >>> replay_kept(check, kept)
    >>> check.N, check.D_sq
    (3, 8)
    """
    parts = kept.parts()
    sizes = kept.sizes(parts)
    total = sum(sizes)
    half, told = 0, 0
    while total >= HALVES_FROM and half < len(parts) and 2 * (told + sizes[half]) <= total:
        told += sizes[half]
        half += 1
    if not told or told == total:  # one pass
        _tell(check, check.N + 1, kept, parts)
        return
    later, N, D_sq = check.resumed(), check.N, check.D_sq
    epochs = sum(len(numbers) for numbers, _ in parts[:half])  # (the most mistakes a sample has in the first half)

    def second() -> None:
        # The first half's counts in the smallest type that holds them (uint16: 0.02x the int64 data at d = 10,
        # where int64 counts and their products were 0.18x), let go before the second half is told
        counts, told = kept.counts(parts[:half], out=np.zeros(kept.n, dtype=np.uint16 if epochs < 2**16 else np.int64))
        start = D_sq + check.shortfall_sum(counts)
        del counts
        later.start_at(N + told, start)
        _tell(later, N + told + 1, kept, parts[half:], stop)

    stop = threading.Event()  # set when this thread stops early (an error, the time limit): the second stops too
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="verify_perceptron-soft") as pool:
        future = pool.submit(second)
        try:
            _tell(check, N + 1, kept, parts[:half])
        except BaseException:
            stop.set()
            raise
        future.result()
    check.join(later)


def _tell(check: SoftMarginCheck, first: int, kept: MistakeMap, parts: Any, stop: Any = None) -> None:
    """`check` told of the mistakes of `parts`, numbered from `first`, a block of epochs at a time (until `stop`,
    a `threading.Event`, is set)."""
    for epochs, rows in kept.blocks_of(parts):
        if stop is not None and stop.is_set():
            return
        check.observe_chunk(first, epochs, rows)
        first += len(rows)
