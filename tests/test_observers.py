"""The update observer protocol (issue 33): the package's observers are what the engines are typed to take.

mypy checks this file with the rest of tests/: a change to an observer's signature that breaks the
protocol fails the type check here, where it is named.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from verify_perceptron.check.checker import Checker
from verify_perceptron.check.mistake_map import MistakeMap
from verify_perceptron.check.recorder import TraceRecorder
from verify_perceptron.check.whole_run import WholeRun
from verify_perceptron.data.observers import ChunkObserver, Observer
from verify_perceptron.run import fast


def observers(checker: Checker, whole: WholeRun, kept: MistakeMap, recorder: TraceRecorder) -> list[Observer]:
    """Typed only: the checker, the report's whole run and the mistake map take chunks; the recorder one at a time."""
    chunked: list[ChunkObserver] = [checker, whole, kept]
    return [*chunked, recorder]


class _OneByOne:
    def __init__(self) -> None:
        self.seen: list[tuple[int, int, list[int], list[int]]] = []

    def observe(self, k: int, epoch: int, samples: Sequence[int], scores: Sequence[int]) -> None:
        self.seen.append((k, epoch, list(samples), list(scores)))


class _Chunks(_OneByOne):
    def observe_chunk(self, first: int, epoch: int | np.ndarray, rows: np.ndarray, scores: np.ndarray) -> None:
        self.seen.append((first, -1, rows.tolist(), scores.tolist()))


def test_feed_tells_an_observer_without_chunks_one_update_at_a_time() -> None:
    sink = _OneByOne()
    fast.feed(sink, 5, np.array([2, 3]), np.array([3, 7]), np.array([0, -4]))
    assert sink.seen == [(5, 2, [3], [0]), (6, 3, [7], [-4])]


def test_feed_hands_a_chunk_observer_the_chunk_whole() -> None:
    sink = _Chunks()
    chunked: ChunkObserver = sink
    fast.feed(chunked, 5, 2, np.array([3, 7]), np.array([0, -4]))
    assert sink.seen == [(5, -1, [3, 7], [0, -4])]
