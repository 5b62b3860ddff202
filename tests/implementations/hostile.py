"""Implementations that attack the check rather than get the perceptron wrong: they exit, loop in C,
block or swallow signals, leave threads and processes behind, print to file descriptor 1, or return
values whose own code fails. Importable as ``tests.implementations.hostile:NAME`` for the CLI.

Each must end in a `returns-weights` (or `reported-updates`) finding within the call's timeout, never
in the check's own exit, a traceback or a hang (`tests/test_harness_isolation.py`).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

from . import perceptron

#: The argument of the `sleep` a detaching implementation leaves running: the tests look for it.
DETACHED_MARK = "61.2345"


def exits_0(X: Any, y: Any) -> Any:
    sys.exit(0)


def exits_3(X: Any, y: Any) -> Any:
    sys.exit(3)


def ends_process(X: Any, y: Any) -> Any:
    os._exit(0)


def loops_in_c(X: Any, y: Any) -> Any:
    return sum(range(10**15))  # one C call: no signal handler runs until it returns


def blocks_the_alarm(X: Any, y: Any) -> Any:
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGTERM})
    while True:
        pass


def swallows_everything(X: Any, y: Any) -> Any:
    while True:
        try:
            while True:
                time.sleep(0.01)
        except BaseException:  # noqa: BLE001 - the point: it will not be interrupted
            pass


def leaves_a_thread(X: Any, y: Any) -> Any:
    threading.Thread(target=time.sleep, args=(10**6,), daemon=False).start()
    return perceptron(X, y)


def detaches_a_process(X: Any, y: Any) -> Any:
    subprocess.Popen(["setsid", "sleep", DETACHED_MARK], stdout=subprocess.DEVNULL)
    if os.fork() == 0:  # a double fork: the grandchild is nobody's child once this one exits
        if os.fork() == 0:
            os.execvp("sleep", ["sleep", DETACHED_MARK])
        os._exit(0)
    return perceptron(X, y)


def updates_for_ever(X: Any, y: Any) -> Any:
    w, b = perceptron(X, y)

    def updates() -> Iterator[tuple[int, tuple[Any, Any]]]:
        while True:
            yield 0, (w, b)

    return w, b, updates()


def contains_itself(X: Any, y: Any) -> Any:
    loop: list[Any] = []
    loop.append(loop)
    return loop


class _Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no text for this one")


def raises_unprintable(X: Any, y: Any) -> Any:
    raise _Unprintable


def raises_generator_exit(X: Any, y: Any) -> Any:
    raise GeneratorExit


class Halt(BaseException):
    """Not an Exception: an `except Exception` lets it through."""


def raises_base_exception(X: Any, y: Any) -> Any:
    raise Halt("stop everything")


def writes_to_fd_1(X: Any, y: Any) -> Any:
    os.write(1, b"{not json <xml\n")
    os.write(2, b"and on 2\n")
    return perceptron(X, y)


def sleeps(X: Any, y: Any) -> Any:
    time.sleep(0.2)
    return perceptron(X, y)


def kills_its_keeper(X: Any, y: Any) -> Any:
    os.kill(os.getppid(), signal.SIGKILL)
    time.sleep(30)
    return perceptron(X, y)
