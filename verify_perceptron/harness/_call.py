"""One call of a Python implementation and the reading of what it gave back, with everything it raises
or returns turned into a record of plain exact values (`_Call`), in whichever process it runs.

Everything that runs the implementation's code happens here: the call, the
fresh estimator, its attributes after ``fit``, the iteration of its reported
updates and the conversion of every value it returned (its ``__len__``,
``__iter__``, ``__float__``, ``__repr__``...). In a worker process (`_worker`)
all of it is under the call's time limit, and what crosses back to the
check is only `Fraction`s, integers and strings.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from ..notes.conventions import get_convention
from ._exact import Vector
from ._implementation import Labels, Samples
from ._reading import _estimator_weights, _exact_weights, _read_updates, _split_return
from ._target import _fresh
from ._wording import _exception_text, _limited

#: Most distinct warnings kept from one call.
MAX_WARNINGS = 20


@dataclass(frozen=True)
class _Call:
    """What one call of the implementation gave, read: its weights and updates exactly, or why there are none.

    Attributes
    ----------
    weights : tuple of Fraction or None
        The returned weights in the convention's coordinates, when they could be read.
    weights_error : str or None
        Why the returned weights could not be read (a `returns-weights` finding, when they are needed).
    updates : list of (int, tuple of Fraction), or None
        The reported updates, read; None when none were reported or they could not be read.
    updates_error : str or None
        Why the reported updates could not be read (a `reported-updates` finding).
    updates_cut : bool
        The updates went on past the number read (`_options.updates_to_read`); the first ones were read.
    signalled : bool
        It returned None, or raised one of its non-separable signals.
    error : str or None
        It did not return: what it did instead (raised, exited, timed out).
    warnings : tuple of str
        The warnings it issued.
    output : str
        What it printed, cut to a head and a tail (`_capture`).
    output_bytes : int
        How many bytes it printed.
    """

    weights: Vector | None = None
    weights_error: str | None = None
    updates: list[tuple[int, Vector]] | None = None
    updates_error: str | None = None
    updates_cut: bool = False
    signalled: bool = False
    error: str | None = None
    warnings: tuple[str, ...] = ()
    output: str = ""
    output_bytes: int = 0


class Request(NamedTuple):
    """One call as the worker receives it: the data as the implementation expects them, and how to read its weights."""

    X: Samples
    y: Labels
    convention: str
    output: str
    n_features: int
    n_samples: int
    max_updates: int


def attempt(target: object, kind: str, request: Request, signals: tuple[type[BaseException], ...],
            passthrough: tuple[type[BaseException], ...] = ()) -> _Call:
    """Call `target` on the request's data and read what it gives back; whatever it raises (but `passthrough`,
    which propagates) becomes the record's error, or its signal when it is one of `signals`."""
    with warnings.catch_warnings(record=True) as records:
        warnings.simplefilter("always")
        try:
            raw = _called(target, kind, request)
        except passthrough:
            raise
        except BaseException as error:  # noqa: BLE001 - whatever it raises is a finding, or its signal
            call = _failed(error, signals)
        else:
            call = _read(raw, request)
    return replace(call, warnings=_warning_texts(records))


def _called(target: object, kind: str, request: Request) -> tuple[Any, Any] | None:
    """The raw weights and updates the implementation gave (None: it returned None)."""
    if kind == "function":
        if not callable(target):  # `_kind` says "function" of callables only
            raise TypeError(f"{type(target).__name__} object is not callable")
        raw = target(request.X, request.y)
        return None if raw is None else _split_return(raw)
    estimator = _fresh(target, kind)
    estimator.fit(request.X, request.y)
    return _estimator_weights(estimator)


def _failed(error: BaseException, signals: tuple[type[BaseException], ...]) -> _Call:
    if signals and isinstance(error, signals):
        return _Call(signalled=True)
    if isinstance(error, SystemExit):
        return _Call(error=f"called sys.exit ({_exception_text(error)}) instead of returning")
    # a TypeError is often a calling convention of its own (train(data), fit(X, y, epochs)): say how it is called
    called = (" (it is called as fit(X, y): X the samples as an n × d NumPy array, y their labels; code that takes "
              "its data otherwise needs a wrapper, such as lambda X, y: train(np.c_[X, y]))"
              if isinstance(error, TypeError) else "")
    return _Call(error=f"raised {_exception_text(error)}{called}")


def _read(raw: tuple[Any, Any] | None, request: Request) -> _Call:
    """What it returned, read exactly; a value it cannot give (its own code raising) is named."""
    if raw is None:
        return _Call(signalled=True)
    conv = get_convention(request.convention)
    raw_weights, raw_updates = raw
    weights = weights_error = None
    try:
        weights = _exact_weights(raw_weights, conv, request.n_features, request.output, "the returned weights")
    except ValueError as error:
        weights_error = _limited(str(error))
    except BaseException as error:  # noqa: BLE001 - the returned object's own code raised
        weights_error = f"reading the returned weights raised {_exception_text(error)}"
    if raw_updates is None or weights is None:
        return _Call(weights, weights_error)
    try:
        updates, cut = _read_updates(raw_updates, conv, request.n_samples, request.n_features, request.output,
                                     request.max_updates)
    except ValueError as error:
        return _Call(weights, updates_error=_limited(str(error)))
    except BaseException as error:  # noqa: BLE001 - a broken iterator, or a value whose code raised
        return _Call(weights, updates_error=f"reading the updates raised {_exception_text(error)}")
    return _Call(weights, updates=updates, updates_cut=cut)


def _warning_texts(records: list[warnings.WarningMessage]) -> tuple[str, ...]:
    texts: dict[str, None] = {}
    for record in records:
        if len(texts) >= MAX_WARNINGS:
            break
        try:
            texts[_limited(f"{record.category.__name__}: {record.message}")] = None
        except BaseException as error:  # noqa: BLE001 - a warning whose text cannot be made
            texts[f"a warning whose text could not be shown ({type(error).__name__})"] = None
    return tuple(texts)
