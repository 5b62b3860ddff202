"""Loading the implementation to check, at arm's length: one named by text (``MODULE:EXPR``) is imported
in the worker process that will run it, never in the check's own process, under a time limit; one given
as an object is looked at where it is.

A module can hang while it is imported inside one C call (a regular
expression that backtracks, ``sum(range(10**12))``), print megabytes, fork,
or start a thread that never ends. In the check's own process nothing could
stop the first or undo the others (a non-daemon thread keeps the interpreter
from exiting). In a worker (`_worker`), the check waits for its `Loaded`
record while reading what it prints, within the check's time limit, or
`LOAD_SECONDS` without one, and a worker that does not load in time is
killed with everything it started (`_keeper`). Without ``fork`` (Windows)
the module is imported in the check's process, as pytest imports a test
module.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..data.rationals import shown_value
from ..deadline import TimeUp
from ..errors import InvalidArgument
from . import _worker
from ._capture import Capped, captured_output
from ._clock import Clock, OutOfTime
from ._configuration import _params
from ._target import _describe, _kind, load_target, named
from ._wording import _exception_text

#: Seconds a worker may take to import the implementation when the check has no time limit (with one,
#: loading may take all of it). Imports of the heaviest libraries take seconds; a minute is a hang.
LOAD_SECONDS = 60.0


class LoadTimeUp(TimeUp):
    """The implementation did not load within `LOAD_SECONDS` (the check had no time limit): exit code 3."""

    def __str__(self) -> str:
        return (f"the loading limit of {self.seconds:g} s ran out while {self.phase} (without --time-limit, "
                "loading may take that long; with one, all of it)")


class Prepared(NamedTuple):
    """An implementation ready to check: loaded (here, or in `worker`), its kind, how reports name it, its
    ``get_params()``, and what it printed while being loaded."""

    target: object
    kind: str
    label: tuple[str, tuple[str, str] | None]
    params: dict[str, Any]
    output: str
    worker: _worker.Worker | None = None


def prepare(target: object, signals: tuple[type[BaseException], ...], clock: Clock) -> Prepared:
    """The implementation loaded, its kind, how reports name it, its parameters, and what it printed meanwhile.

    Its output (file descriptors 1 and 2 included) is kept, never mixed with
    the check's own (a JSON report on standard output stays JSON). Whatever its
    code raises or exits with while it is loaded and looked at is
    `InvalidArgument`; loading that outlasts the check's time limit is
    `OutOfTime`, and without one, `LOAD_SECONDS` is `LoadTimeUp`. `signals`
    are the exceptions by which it says "not separable" (the worker's).
    """
    if isinstance(target, str) and _worker.ISOLATED:
        return _in_worker(target, signals, clock)
    kept = Capped()
    with captured_output(kept):
        try:
            loaded = load_target(target)
            kind = _kind(loaded)
            label = _describe(target) if isinstance(target, str) else _describe(loaded)
            params = _params(loaded, kind)
        except (InvalidArgument, KeyboardInterrupt, OutOfTime):
            raise
        except BaseException as error:  # noqa: BLE001 - its attributes or repr ran its code, which failed
            raise InvalidArgument(f"target={shown_value(target)}: looking at it raised {_exception_text(error)}") from None
    return Prepared(loaded, kind, label, params, kept.text())


def _in_worker(name: str, signals: tuple[type[BaseException], ...], clock: Clock) -> Prepared:
    """`prepare` of an implementation named by text: a worker imports it and says what it is."""
    named(name)  # a malformed name is refused before any process starts
    seconds, limited = clock.wait(LOAD_SECONDS)
    worker = _worker.Worker(None, None, signals, name=name)
    try:
        loaded, kept = worker.load(seconds)
    except _worker.LoadTimeout:
        worker.close()
        if limited:
            raise OutOfTime(clock.seconds or 0.0, clock.phase) from None
        raise LoadTimeUp(LOAD_SECONDS, clock.phase) from None
    except OSError as error:  # fork or pipes refused: the machine's limits, not the implementation's
        worker.close()
        raise InvalidArgument(f"the check could not start a process to load the implementation in "
                              f"({error.strerror or error})") from None
    except BaseException:
        worker.close()
        raise
    if loaded.kind is None:
        raise InvalidArgument(loaded.error or f"target={shown_value(name)} could not be loaded")
    if loaded.command is not None:  # a command runs under the check's own keeper, not in the worker
        worker.close()
        return Prepared(loaded.command, loaded.kind, _describe(name), loaded.params, kept.text())
    return Prepared(None, loaded.kind, _describe(name), loaded.params, kept.text(), worker)
