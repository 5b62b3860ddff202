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


def test_kept_chunks_of_different_limbs_are_joined_in_the_most_limbs() -> None:
    # The replay store joins kept chunks whose scores came in 1, 2 or 3 limbs, and single scores past
    # 128 bits, into one chunk of 3 limbs (sign-extended), not Python integers: the C replays read it so.
    from verify_perceptron.data.integers import as_limbs, score_values
    from verify_perceptron.pipeline import _feed_joined

    values = [[-5, 7], [-(2**100), 2**64], [2**150, -(2**140)]]
    parts = [np.array(values[0], dtype=np.int64), as_limbs(np.array(values[1], dtype=object), 2),
             as_limbs(np.array(values[2], dtype=object), 3)]
    told: list[tuple[int, list[int], list[int], object]] = []

    class Chunks:
        def observe(self, k: int, epoch: int, samples: Sequence[int], scores: Sequence[int]) -> None:
            raise AssertionError("told one update at a time")

        def observe_chunk(self, first: int, epoch: object, rows: np.ndarray, scores: np.ndarray) -> None:
            told.append((first, rows.tolist(), np.asarray(score_values(scores)).tolist(), scores.shape))

    items: list[tuple[int, int, object, object]] = [(1 + 2 * j, 1, np.array([0, 1]), part)
                                                    for j, part in enumerate(parts)]
    items.append((7, 1, [1], [-(2**200)]))
    _feed_joined(Chunks(), items)
    assert told == [(1, [0, 1] * 3 + [1], sum(values, []) + [-(2**200)], (7, 4))]
