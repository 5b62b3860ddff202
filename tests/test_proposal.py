"""The float LP's proposals are certified exactly: every wrong one is refused and the exact method still decides;
the decision has no hidden cap, and beside the run it is joined, or ended, cleanly."""

from __future__ import annotations

import json
import time
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.wall_clock import Stopwatch
import verify_perceptron as vp
from verify_perceptron.certify import beside as beside_module
from verify_perceptron.certify import proposal, separability
from verify_perceptron.certify._constraints import augmented_matrix
from verify_perceptron.certify.beside import decision_beside
from verify_perceptron.certify.certificates import gordan_defect
from verify_perceptron.certify.separability import decide_separability, separator_defect
from verify_perceptron.cli import main
from verify_perceptron.data.dataset import Dataset, from_arrays
from verify_perceptron.data.examples import example

F = Fraction


def _random(n: int, m: int, seed: int, separable: bool) -> Dataset:
    """n samples of m features with 3 decimals: labels at random, or by a hyperplane with a margin."""
    rng = np.random.default_rng(seed)
    X = np.round(rng.standard_normal((n, m)), 3)
    score = X @ np.arange(1, m + 1) + 0.1
    if separable:
        X, y = X[np.abs(score) > 0.05], score[np.abs(score) > 0.05] > 0
    else:
        y = rng.standard_normal(n) > 0
    return from_arrays([[str(v) for v in row] for row in X.tolist()], [int(v) for v in y])


@pytest.fixture
def always_proposed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The proposal tried on data of every size."""
    monkeypatch.setattr(separability, "PROPOSE_FROM", 0)


# A line: y = +, -, +, - at x = 0, 1, 2, 3 (not separable). On samples {0, 1, 3} the exact λ has negative
# entries (λ = 1/2, 3/4, -1/4); on {0, 1, 2} it is Gordan's certificate (1/4, 1/2, 1/4).
def _line() -> Dataset:
    return from_arrays([[0], [1], [2], [3]], [1, 0, 1, 0])  # a new one each time: a finished exact solve is kept


def _lp_answer(positive: list[int], n: int) -> Any:
    x = np.zeros(n)
    x[positive] = 1.0 / len(positive)
    return lambda rows, deadline: x if len(rows) == n else None


def test_the_proposal_decides_large_data_and_its_certificates_pass_the_independent_checks() -> None:
    data = _random(400, 3, 0, separable=False)
    assert data.n_samples * 4 < separability.PROPOSE_FROM  # (forced below)
    found = proposal.propose(data)
    assert found is not None
    kind, lam, method = found
    assert kind == "gordan" and gordan_defect(data, lam) is None and "float LP" in method
    assert sum(1 for v in lam if v) <= data.n_features + 2  # Carathéodory: a basic solution
    data = _random(300, 3, 1, separable=True)
    found = proposal.propose(data)
    assert found is not None
    kind, w, method = found
    assert kind == "separator" and separator_defect(data, w) is None


def test_a_lambda_whose_exact_solve_has_a_negative_entry_is_refused_and_the_exact_method_decides(
        monkeypatch: pytest.MonkeyPatch, always_proposed: None) -> None:
    matrix, _ = augmented_matrix(_line())
    lam = proposal.exact_gordan(matrix, [0, 1, 3])
    assert lam == [F(1, 2), F(3, 4), F(-1, 4)]
    assert proposal.gordan_support_defect(matrix, [0, 1, 3], lam) == "λ_3 = -1/4 < 0"
    monkeypatch.setattr(proposal, "_gordan_lp", _lp_answer([0, 1, 3], 4))
    assert proposal.propose(_line()) is None
    result = decide_separability(_line())
    assert result.separable is False and result.certified and "float LP" not in result.method
    monkeypatch.setattr(proposal, "_gordan_lp", _lp_answer([0, 1, 2], 4))  # the right support is taken
    result = decide_separability(_line())
    assert result.separable is False and "float LP" in result.method
    assert result.gordan == (F(1, 4), F(1, 2), F(1, 4), F(0))


def test_a_lambda_on_the_wrong_support_is_refused(monkeypatch: pytest.MonkeyPatch, always_proposed: None) -> None:
    data = example("xor")  # only all four samples together make a certificate
    monkeypatch.setattr(proposal, "_gordan_lp", _lp_answer([0, 1, 2], 4))
    assert proposal.propose(data) is None
    matrix, _ = augmented_matrix(data)
    assert proposal.gordan_support_defect(matrix, [0, 3], [F(1, 2), F(1, 2)]) is not None
    assert proposal.gordan_support_defect(matrix, [0, 1], [F(1, 2), F(1, 4)]) == "Σ λ_i = 3/4, not 1"
    result = decide_separability(data)
    assert result.separable is False and result.gordan == (F(1, 4),) * 4


def test_a_perturbed_lp_answer_is_refused(monkeypatch: pytest.MonkeyPatch, always_proposed: None) -> None:
    data = _random(200, 2, 2, separable=False)
    real = proposal._gordan_lp

    def perturbed(rows: Any, deadline: float | None) -> Any:
        x = real(rows, deadline)
        assert x is not None
        x[np.flatnonzero(x == 0)[:1]] = 1e-3  # one more sample in the support: no longer a vertex's
        return x

    monkeypatch.setattr(proposal, "_gordan_lp", perturbed)
    monkeypatch.setattr(proposal, "FIRST_ROWS", 10)  # m + 2 = 4 samples at most: the fifth is refused
    monkeypatch.setattr(proposal, "_first_rows", lambda n, d: np.arange(n))
    found = proposal.propose(data)
    assert found is None or gordan_defect(data, found[1]) is None
    assert decide_separability(data).separable is False


def test_a_separator_failing_one_sample_is_refused_and_the_exact_method_decides(
        monkeypatch: pytest.MonkeyPatch, always_proposed: None) -> None:
    data = example("and")  # separated by (-3, 2, 2); (-2, 1, 1) scores 0 on sample 3
    matrix, L = augmented_matrix(data)
    assert proposal.rounded_separator(matrix, L, np.array([-3.0, 2.0, 2.0])) is not None
    assert proposal.rounded_separator(matrix, L, np.array([-2.0, 1.0, 1.0])) is None
    assert proposal.rounded_separator(matrix, L, np.array([-1.0, 2.0, -1.0])) is None  # sample 2 scores -1
    monkeypatch.setattr(proposal, "_gordan_lp", lambda rows, deadline: None)
    monkeypatch.setattr(proposal, "_separator_lp", lambda rows, deadline: np.array([-2.0, 1.0, 1.0]))
    assert proposal.propose(data) is None  # sample 3 fails it; every sample is in the LP already
    result = decide_separability(data)
    assert result.separable is True and result.separator == (F(-3), F(2), F(2))  # the exact method's


def test_without_scipy_the_exact_method_answers(monkeypatch: pytest.MonkeyPatch, always_proposed: None) -> None:
    monkeypatch.setattr(proposal, "_linprog", None)
    result = decide_separability(example("xor"))
    assert result.separable is False and result.method == "exact dual active set"


# --- no hidden cap ----------------------------------------------------------------------------------

NOT_SEPARABLE = example("xor")


def _slow(seconds: float, seen: list[float | None]) -> Any:
    real = separability.augmented_solution

    def slow(data: Dataset, deadline: float | None) -> Any:
        seen.append(deadline)
        stop = time.monotonic() + seconds
        while time.monotonic() < stop and (deadline is None or time.monotonic() < deadline):
            time.sleep(0.02)
        return real(data, deadline)

    return slow


def test_without_a_time_limit_a_slow_decision_is_waited_for(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[float | None] = []
    monkeypatch.setattr(separability, "augmented_solution", _slow(0.5, seen))
    result = vp.verify(_random(40, 2, 5, separable=False), max_epochs=1)  # neither converged nor cycled
    assert result.trace.stop == "max-epochs" and seen == [None]  # no deadline given to the exact method (it was 30 s)
    assert result.separability.separable is False and result.verdict == "not-separable"


def test_with_a_time_limit_a_slow_decision_ends_in_exit_3_naming_the_limit(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    seen: list[float | None] = []
    monkeypatch.setattr(separability, "augmented_solution", _slow(60.0, seen))
    path = tmp_path / "random.csv"
    data = _random(40, 2, 5, separable=False)
    path.write_text("x1,x2,y\n" + "".join(f"{a},{b},{int(y > 0)}\n" for (a, b), y in zip(data.X, data.y)))
    with Stopwatch() as watch:
        code = main(["verify", str(path), "--max-epochs", "1", "--time-limit", "1.5", "--format", "json"])
    assert code == 3 and watch.within(1.5, 8.5), watch
    report = json.loads(capsys.readouterr().out)
    assert report["separable"] is None and "time limit" in report["separability"]["problem"]


# --- beside the run ----------------------------------------------------------------------------------


@pytest.fixture
def always_beside(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(beside_module, "BESIDE_FROM", 0)


def test_the_decision_beside_the_run_gives_the_same_answer(always_beside: None) -> None:
    data = _random(300, 3, 3, separable=False)
    with decision_beside(data, None) as beside:
        process = beside.process
        assert beside.running
        result = beside.result(None)
    assert not process.is_alive() and process.exitcode == 0
    alone = decide_separability(data)
    assert (result.separable, result.gordan) == (alone.separable, alone.gordan)
    assert result.gordan is not None and gordan_defect(data, result.gordan) is None
    assert result.method.endswith("(beside the run)")


def test_verify_joins_the_decision_beside_the_run(always_beside: None) -> None:
    data = _random(300, 3, 4, separable=False)
    result = vp.verify(data, max_epochs=2)
    assert result.separability.separable is False and result.separability.method.endswith("(beside the run)")
    assert result.separability.gordan is not None and gordan_defect(data, result.separability.gordan) is None


def test_an_error_in_the_run_ends_the_worker(always_beside: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(beside_module, "decide_separability", lambda data, time_limit: time.sleep(60))
    with pytest.raises(ValueError, match="the run failed"):
        with decision_beside(NOT_SEPARABLE, None) as beside:
            process = beside.process
            raise ValueError("the run failed")
    assert not process.is_alive()


def test_the_time_limit_ends_the_worker_and_says_so(always_beside: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(beside_module, "decide_separability", lambda data, time_limit: time.sleep(60))
    with decision_beside(NOT_SEPARABLE, 0.5) as beside, Stopwatch() as watch:
        process = beside.process
        result = beside.result(0.5)
    assert watch.within(0.5, 4.5) and not process.is_alive(), watch
    assert result.separable is None and "time limit" in (result.problem or "")


def test_an_error_in_the_worker_is_an_error_in_the_caller(always_beside: None,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(data: Dataset, time_limit: float | None) -> None:
        raise ZeroDivisionError("on purpose")

    monkeypatch.setattr(beside_module, "decide_separability", fail)
    with decision_beside(NOT_SEPARABLE, None) as beside:
        with pytest.raises(RuntimeError, match="ZeroDivisionError: on purpose"):
            beside.result(None)


def test_a_run_stopped_just_after_its_last_mistake_is_certified_by_its_final_weights() -> None:
    # x = 1 (+) then x = -1 (-): both are mistakes in epoch 1, after which w = (0, 2) separates; the run
    # stops at its limit of one epoch before the clean epoch that would show it converged
    result = vp.verify([[1], [-1]], [1, 0], max_epochs=1)
    assert result.trace.stop == "max-epochs"
    assert result.separability.separable is True and result.separability.method.startswith("the run's final")
    assert separator_defect(result.data, result.separability.separator or ()) is None
    result = vp.verify([[1], [-1], [0]], [0, 0, 1], max_epochs=1)  # not separable (+ between two -): refused
    assert result.separability.separable is False and not result.separability.method.startswith("the run's final")


def test_a_worker_that_dies_without_answering_is_replaced_by_the_decision_here(
        always_beside: None, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    parent, real = os.getpid(), decide_separability

    def die_in_the_worker(data: Dataset, time_limit: float | None) -> Any:
        if os.getpid() != parent:
            os._exit(9)  # as if killed: no answer, no error sent
        return real(data, time_limit=time_limit)

    monkeypatch.setattr(beside_module, "decide_separability", die_in_the_worker)
    with decision_beside(NOT_SEPARABLE, None) as beside:
        process = beside.process
        result = beside.result(None)
    assert process.exitcode == 9 and result.separable is False and result.certified


def test_the_progress_display_is_told_while_the_answer_is_waited_for(
        always_beside: None, monkeypatch: pytest.MonkeyPatch) -> None:
    from verify_perceptron.progress import Progress, Watch

    real = decide_separability

    def slow(data: Dataset, time_limit: float | None) -> Any:
        time.sleep(1.0)
        return real(data, time_limit=time_limit)

    monkeypatch.setattr(beside_module, "decide_separability", slow)
    shown: list[Progress] = []
    watch = Watch(shown.append)
    watch.phase("deciding separability")
    with decision_beside(NOT_SEPARABLE, None, tick=watch.tick) as beside:
        assert beside.result(None).separable is False
    assert len(shown) >= 3 and {p.phase for p in shown} == {"deciding separability"}
    assert shown[-1].phase_elapsed >= 0.5


# --- numerators held in limbs (binary floats): the proposal's floats from the limbs, exact rows on its support ---

def _binary(X: Any, y: Any) -> Dataset:
    """float64 samples read as the binary numbers they are (`ExactPerceptron`'s default)."""
    from verify_perceptron.data.arrays import exact_table
    from verify_perceptron.data.dataset import from_table

    return from_table(exact_table(np.asarray(X, dtype=np.float64), floats="binary", max_cells=10**7),
                      np.asarray(y), source="test", labels=("-1", "1"))


@st.composite
def _held(draw: st.DrawFn) -> Dataset:
    """Binary-float datasets past int64 (held in limbs), with a zero, labels at random or by a hyperplane."""
    m, n = draw(st.integers(1, 3)), draw(st.integers(4, 24))
    X = np.random.default_rng(draw(st.integers(0, 2**32))).standard_normal((n, m))  # (floats an LP answers well)
    X[-1, -1], X[1, 0] = 3 * 2.0**-90, 0.0  # numerators of 90 bits and more, past int64; a zero of a negative sample
    if draw(st.booleans()):
        y = np.array(draw(st.lists(st.sampled_from((-1, 1)), min_size=n, max_size=n)))
    else:
        y = np.where(X @ np.arange(1.0, m + 1) + 0.5 > 0, 1, -1)
    y[0], y[1], y[-1] = 1, -1, -1  # (not -y[1]: with one feature, rows 1 and -1 would be opposite in floats)
    return _binary(X, y)


@given(data=_held(), picked=st.data())
def test_floats_from_the_limbs_are_the_augmented_rows_quotients_bit_for_bit(data: Dataset, picked: st.DataObject
                                                                           ) -> None:
    assert data.limbs is not None and proposal._held_pieces(data)
    A, L = augmented_matrix(data)
    n = data.n_samples
    rows = picked.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n).map(np.array))
    for index in (slice(0, n), slice(1, n - 1), rows.astype(np.int64)):
        ours, theirs = proposal._signed_doubles(data, index), proposal._floats(A, L, index)
        assert theirs is not None and ours.shape == theirs.shape
        assert ours.view(np.int64).tolist() == theirs.view(np.int64).tolist()  # the same bits: -0.0 is not 0.0


@given(data=_held(), picked=st.data())
def test_the_support_rows_from_the_limbs_are_the_augmented_rows(data: Dataset, picked: st.DataObject) -> None:
    indices = picked.draw(st.lists(st.integers(0, data.n_samples - 1), min_size=1, max_size=5, unique=True))
    matrix, at = proposal._Rows(data).support(indices)
    assert [matrix.exact[k].tolist() for k in at] == [augmented_matrix(data)[0].exact[i].tolist() for i in indices]


@given(data=_held())
def test_a_proposal_from_the_limbs_is_the_proposal_from_the_python_integer_rows(data: Dataset) -> None:
    from unittest import mock

    ours = proposal.propose(data)
    with mock.patch.object(proposal, "_held_pieces", lambda data: False):
        theirs = proposal.propose(data)
    assert ours == theirs


def test_a_separator_on_binary_floats_is_checked_on_every_row_as_before() -> None:
    from unittest import mock

    rng = np.random.default_rng(6)
    X = rng.standard_normal((400, 3))
    score = X @ np.array([1.0, -2.0, 0.5]) + 0.25
    X, score = X[np.abs(score) > 0.1], score[np.abs(score) > 0.1]
    X[0, 0] = 3 * 2.0**-90  # a numerator past int64: held in limbs
    data = _binary(X, np.where(X @ np.array([1.0, -2.0, 0.5]) + 0.25 > 0, 1, -1))
    assert data.limbs is not None and proposal._held_pieces(data)
    ours = proposal.propose(data)
    with mock.patch.object(proposal, "_held_pieces", lambda data: False):
        assert ours is not None and ours[0] == "separator" and proposal.propose(data) == ours
    assert separator_defect(data, ours[1]) is None


def test_a_gordan_certificate_on_binary_floats_reads_no_exact_matrix_of_every_row() -> None:
    from verify_perceptron.certify import _constraints

    rng = np.random.default_rng(5)
    data = _binary(rng.standard_normal((3000, 10)), np.where(rng.random(3000) < 0.5, 1, -1))
    assert data.n_samples * (data.n_features + 1) >= separability.PROPOSE_FROM
    found = decide_separability(data)
    assert found.separable is False and found.certified and found.gordan is not None
    assert gordan_defect(data, found.gordan) is None
    assert id(data) not in _constraints._AUGMENTED  # the rows as Python integers were never made
    separability._SOLVED.pop(id(data), None)
    from unittest import mock

    with mock.patch.object(proposal, "_held_pieces", lambda data: False):
        assert decide_separability(data) == found
