"""The separability worker's LPs through HiGHS's compiled core alone (`certify._highs`), not `scipy.optimize`.

`import scipy.optimize` is 38 MiB of resident memory; the forked worker's peak counts in `verify`'s (4.5x the
int64 data of 10^5 x 10 by itself). These tests pin that the worker does not import it, and that its answers
are `linprog`'s, bit for bit.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

pytest.importorskip("scipy")

from verify_perceptron.certify import _highs, beside, proposal  # noqa: E402
from verify_perceptron.certify.separability import Separability  # noqa: E402
from verify_perceptron.data.dataset import Dataset  # noqa: E402

#: Random LPs of both kinds solved first by the core alone, in a fresh interpreter, then by `linprog`.
_COMPARE = textwrap.dedent("""
    import sys
    import numpy as np
    from verify_perceptron.certify import _highs, proposal
    rng = np.random.default_rng(5)
    cases = []
    for trial in range(40):
        n, d = int(rng.integers(5, 300)), int(rng.integers(2, 10))
        rows = rng.standard_normal((n, d)) * rng.choice([1, 1e-3, 1e3], size=(1, d))
        if trial % 3 == 0:
            rows = np.round(rows, 2)
            rows[rng.random(rows.shape) < 0.2] = 0
        if trial % 2:
            rows *= np.where(rows @ rng.standard_normal(d) > 0, 1, -1)[:, None]
        cases.append(rows)
    _highs.CORE_ONLY = True
    ours = [(proposal._gordan_lp(r, None), proposal._separator_lp(r, None)) for r in cases]
    print("imported" if "scipy.optimize" in sys.modules else "not imported")
    _highs.CORE_ONLY = False
    theirs = [(proposal._gordan_lp(r, None), proposal._separator_lp(r, None)) for r in cases]
    same = [(a is None and b is None) or (a is not None and b is not None and np.array_equal(a, b))
            for p, q in zip(ours, theirs) for a, b in zip(p, q)]
    print(sum(same), len(same), sum(a is None for p in ours for a in p))
""")


def test_the_core_alone_gives_linprogs_answers_without_importing_scipy_optimize() -> None:
    done = subprocess.run([sys.executable, "-c", _COMPARE], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    imported, counts = done.stdout.split("\n")[:2]
    same, total, none = map(int, counts.split())
    assert imported == "not imported"
    assert same == total == 80 and 0 < none < total  # (both kinds of answer: a solution, and none)


def test_an_lp_with_no_solution_gives_none_and_a_missing_core_is_said() -> None:
    A = np.array([[1.0, 1.0], [1.0, 1.0]])
    assert _highs.lp_solution(A, np.array([1.0, 2.0]), np.array([1.0, 2.0]), (0.0, np.inf), dual_simplex=True,
                              time_limit=None) is None
    x = _highs.lp_solution(A[:1], np.array([1.0]), np.array([1.0]), (0.0, np.inf), dual_simplex=True, time_limit=None)
    assert x is not None and abs(float(x.sum()) - 1) < 1e-9


def test_without_the_core_the_proposal_asks_linprog(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = np.array([[1.0, 0.5], [-1.0, 0.25], [0.5, -1.0]])
    expected = proposal._gordan_lp(rows, None)
    monkeypatch.setattr(_highs, "CORE_ONLY", True)
    monkeypatch.setattr(_highs, "_core", None)  # (as where SciPy's layout has no such module)
    assert _highs.lp_solution(rows, rows[:, 0], rows[:, 0], (0.0, 1.0), dual_simplex=True,
                              time_limit=None) is _highs.UNAVAILABLE
    got = proposal._gordan_lp(rows, None)
    assert (got is None and expected is None) or (got is not None and expected is not None
                                                  and np.array_equal(got, expected))


def test_a_core_of_another_interface_is_left_for_linprog(monkeypatch: pytest.MonkeyPatch) -> None:
    # A SciPy whose HiGHS module differs (here: no options object) must not fail the worker's decision.
    class Other:
        kHighsInf = np.inf
        HighsLp = _highs.core().HighsLp if _highs.core() is not None else object
        MatrixFormat = getattr(_highs.core(), "MatrixFormat", None)

    rows = np.array([[1.0, 0.5], [-1.0, 0.25], [0.5, -1.0]])
    expected = proposal._gordan_lp(rows, None)
    monkeypatch.setattr(_highs, "CORE_ONLY", True)
    monkeypatch.setattr(_highs, "_core", Other())
    got = proposal._gordan_lp(rows, None)
    assert _highs._core is None
    assert (got is None and expected is None) or (got is not None and expected is not None
                                                  and np.array_equal(got, expected))


def test_the_worker_solves_with_the_core_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    # What the forked worker's decision sees (the fork carries this patch): CORE_ONLY set there, not here.
    monkeypatch.setattr(beside, "decide_separability", lambda data, time_limit: Separability(
        None, False, None, None, "probe", f"core only: {_highs.CORE_ONLY}"))
    rng = np.random.default_rng(3)
    data = Dataset(numerators=rng.integers(-99, 100, size=(beside.BESIDE_FROM // 4, 3)), denominator=10,
                   y=np.where(rng.random(beside.BESIDE_FROM // 4) < 0.5, 1, -1))
    with beside.decision_beside(data, None) as worker:
        if not worker.running:
            pytest.skip("no fork here: the decision is made in this process")
        assert worker.result(None).problem == "core only: True"
    assert _highs.CORE_ONLY is False
