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


#: A factor whose multiples have more digits than Python's int-to-string limit (4,300) lets str() write.
HUGE = 7**6000


def huge_multiple(X: Any, y: Any) -> Any:
    """The note's run scaled by 7^6000/3 (a rate of 5,000 digits), its updates too: every value the check
    shows passes the int-to-string limit."""
    from fractions import Fraction

    from .. import implementations

    w, b, updates = implementations.exact_perceptron_reporting([[Fraction(v) for v in x] for x in X], list(y))
    c = Fraction(HUGE, 3)
    return [c * v for v in w], c * b, [(i, ([c * v for v in u], c * ub)) for i, (u, ub) in updates]


def huge_wrong(X: Any, y: Any) -> Any:
    """Weights of 5,000 digits that are no multiple of the note's run, and one past every double."""
    from fractions import Fraction

    return [Fraction(HUGE + j, 3) for j in range(len(X[0]))], Fraction(-HUGE, 7)


def far_no_bias(X: Any, y: Any) -> Any:
    """The perceptron without its bias step, at a rate of 10^400, past every double (in Fractions)."""
    from fractions import Fraction

    rate = Fraction(10**400)
    w, b = [Fraction(0)] * len(X[0]), Fraction(0)
    for _ in range(1000):
        clean = True
        for x, t in zip(X, y):
            if t * (sum(wj * Fraction(xj) for wj, xj in zip(w, x)) + b) <= 0:
                w, clean = [wj + rate * t * Fraction(xj) for wj, xj in zip(w, x)], False
        if clean:
            break
    return w, b


def far_rate_last_update_unreported(X: Any, y: Any) -> Any:
    """The note's run at a rate of 10^400, past every double, reporting every update but the last."""
    from fractions import Fraction

    from .. import implementations

    w, b, updates = implementations.exact_perceptron_reporting([[Fraction(v) for v in x] for x in X], list(y))
    c = Fraction(10**400)
    return [c * v for v in w], c * b, [(i, ([c * v for v in u], c * ub)) for i, (u, ub) in updates][:-1]


class OddParams:
    """A correct estimator whose get_params() holds values no message can print with repr() or compare with
    ``!=``: an integer past the int-to-string limit, NumPy arrays, a long double past the doubles' range."""

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        import numpy as np

        return {"tol": 10**5000, "penalty": "l2", "alpha": np.array([0.1, 0.2]), "average": np.array([1, 2]),
                "learning_rate_init": np.longdouble("1e400"), "class_weight": {10**5000: 1}}

    def fit(self, X: Any, y: Any) -> OddParams:
        import numpy as np

        w, b = perceptron(X, y)
        self.coef_, self.intercept_ = np.asarray(w, dtype=float).reshape(1, -1), np.array([float(b)])
        return self
