"""`verify`'s peak memory at 10^5 and 10^6 rows (issue 32, item 3): what the process holds once the data are read.

Each test names the copy it catches and fails with it put back; the answers are compared with those of the
code that held the copy (`==` on the exact values, the JSON reports byte for byte).
"""

from __future__ import annotations

import numpy as np
import pytest

from verify_perceptron.certify import separability
from verify_perceptron.data.dataset import Dataset
from verify_perceptron.data.samples import sample_matrix, signed_samples
from verify_perceptron.notes.conventions import get_convention
from verify_perceptron.pipeline import verify_run_deferred


def _grid(n: int, d: int, *, seed: int = 7, flip: float = 0.0) -> Dataset:
    """The scale grid's kind of data (4 significant digits over 10^6, int64 numerators), labels by a hyperplane."""
    rng = np.random.default_rng(seed)
    numerators = (rng.choice([-1, 1], size=(n, d)) * rng.integers(1000, 10000, size=(n, d))
                  * 10 ** (6 - rng.integers(1, 7, size=(n, d))))
    y = np.where(numerators @ np.arange(1, d + 1) > 0, 1, -1)
    y = np.where(rng.random(n) < flip, -y, y)
    return Dataset(numerators=numerators, denominator=10**6, y=y)


@pytest.mark.parametrize("convention", ["classic", "unit-ball"])  # the bias column first, then last
def test_int64_numerators_rest_on_the_runs_sample_matrix_and_are_made_again_exactly(convention: str) -> None:
    # The dataset's int64 numerators (0.9x the int64 data at d = 10) were held beside the run's sample matrix
    # z_i = y_i·(x_i, bias), which holds the same integers (int32 on the grid: 0.5x), to the end of `verify`.
    data = _grid(3000, 6)
    held = data.numerators.copy()
    conv = get_convention(convention)
    matrix = sample_matrix(data, conv, lend=True)
    assert data._numerators is None, "the dataset still holds its numerators beside the sample matrix"
    assert np.array_equal(matrix.exact, signed_samples(Dataset(numerators=held, denominator=10**6, y=data.y), conv))
    rows = data.numerator_rows(slice(100, 140))
    assert rows.dtype == np.int64 and np.array_equal(rows, held[100:140]) and data._numerators is None
    again = data.numerators
    assert again.dtype == np.int64 and again.tolist() == held.tolist() and data._lent is None
    assert data.limbs is None and data.limb_rows(slice(3)) is None


def test_numerators_rest_only_on_a_matrix_of_their_own_shape_and_bias_column() -> None:
    # A matrix of another shape, or a bias column inside the rows, cannot give the numerators back as they were.
    data = _grid(500, 4)
    Z = sample_matrix(data, get_convention("classic")).exact
    for other, column in ((Z[:-1], 0), (Z, 2), (Z.astype(object), 0), (Z[:, :-1], 0)):
        data.rest_on(other, column)
        assert data._numerators is not None and data._lent is None
    data.rest_on(Z, 0)
    assert data._numerators is None


def test_a_checked_run_holds_the_samples_once() -> None:
    # After `verify`'s run (the run kept, its check pending, as `verify` holds them into the report) the
    # numerators are not held beside the trace's sample matrix; a dataset that holds them gives the same run.
    data = _grid(4000, 8, flip=0.05)
    twin = Dataset(numerators=data.numerators.copy(), denominator=10**6, y=data.y)
    trace, pending = verify_run_deferred(data, "classic", max_epochs=3)
    assert data._numerators is None and data._lent is not None
    twin.rest_on = lambda Z, column: None  # type: ignore[method-assign]  # held twice, as before
    before, _ = verify_run_deferred(twin, "classic", max_epochs=3)
    assert twin._numerators is not None
    assert trace.n_updates == before.n_updates and trace.final_weights == before.final_weights


def test_the_final_separator_reads_the_first_int64_rows_alone() -> None:
    # `_final_separator`'s look at the first 2^14 rows read the int64 numerators through `data.exact`, which
    # made them again (1x) and kept them with an ExactMatrix of all n rows to the end of `verify`; it now reads
    # those rows alone, and says what the exact margins of the dataset holding them say.
    n = separability._MARGIN_PIECE + 700
    data = _grid(n, 5)
    twin = Dataset(numerators=data.numerators.copy(), denominator=10**6, y=data.y)
    sample_matrix(data, get_convention("classic"), lend=True)
    first = slice(separability._MARGIN_PIECE)
    answers = []
    for V, offset in (([1, 2, 3, 4, 5], 0), ([1, 2, 3, 4, 5], -(2**90)), ([1, 2, 3, 4, 5], 10**5),
                      ([3, -1, 4, 1, -5], 0), ([2**70, 2**71, 3 * 2**70, 2**72, 5 * 2**70], 1)):
        fails = separability._first_rows_fail(data, V, offset)
        assert data._numerators is None and data._exact is None
        scores = twin.y_array[first].astype(object) * (
            twin.numerators[first].astype(object) @ np.array(V, dtype=object) + offset)
        assert fails == bool(scores.min() <= 0)
        answers.append(fails)
    assert answers[:2] == [False, True] and answers[-1] is False  # (both answers looked at)


def test_the_runs_state_goes_with_the_run_not_at_a_collection(monkeypatch: pytest.MonkeyPatch) -> None:
    # The compiled run's state and its cycle watch referred to each other: the state (its mistakes per sample
    # and the watch's saved copy of them, 16 bytes a sample) lived on beside the checker until a collection.
    import gc
    import weakref

    from verify_perceptron.run import fast

    made: list[weakref.ref[fast._Run]] = []
    start = fast._Run.__init__

    def init(self: fast._Run, *args: object, **kwargs: object) -> None:
        start(self, *args, **kwargs)  # type: ignore[arg-type]
        made.append(weakref.ref(self))

    data = _grid(3000, 6, flip=0.05)
    monkeypatch.setattr(fast._Run, "__init__", init)
    gc.collect()
    gc.disable()
    try:
        trace = fast.run(data, "classic", max_epochs=4)
        assert len(made) == 1 and made[0]() is None, "the run's state outlived the run"
    finally:
        gc.enable()
    again = fast.run(Dataset(numerators=data.numerators.copy(), denominator=10**6, y=data.y), "classic", max_epochs=4)
    assert trace.cycle_mistakes == again.cycle_mistakes and trace.final_weights == again.final_weights
    assert trace.mistakes_per_sample == again.mistakes_per_sample and trace.n_updates == again.n_updates


def test_the_report_builds_the_kept_updates_one_at_a_time() -> None:
    # The report's first updates were built (one Fraction per weight, score and step) and kept by the trace
    # beside their text, to the end of `verify`: at 10^5 x 10 not separable 0.2x the int64 data.
    from verify_perceptron.data.trace import LazyUpdates
    from verify_perceptron.report.record import build_report, render_json

    data = _grid(2000, 5, flip=0.05)
    trace, check = verify_run_deferred(data, "classic", max_epochs=2)
    assert isinstance(trace.updates, LazyUpdates) and len(trace.updates) > 10
    checked = check.check(None, "undecided", None) if hasattr(check, "check") else check
    before = [u is not None for u in trace.updates._built]  # (the check builds one or two it names)
    text = render_json(build_report(data, trace, checked))
    assert [u is not None for u in trace.updates._built] == before, "the report kept the updates it built"
    assert sum(before) < len(before) - 10
    first = trace.updates[3]  # built now, and kept by the trace as before: the report's text is theirs
    assert [str(w) for w in first.weights] in [u["weights"] for u in __import__("json").loads(text)["updates"]]


@pytest.mark.parametrize("bits", [20, 62, 63, 100, 300])
def test_wide_products_make_one_python_integer_a_row(bits: int) -> None:
    # `ExactMatrix.products` past int64 on narrow rows (w*'s margins at 10^5 x 10): the int64 pieces' sums were
    # joined in Python integers, three or four made and let go per row (their heap stayed resident beside the
    # margins, and past 63 bits the traced peak was about twice the margins); now the rows' products are made
    # in limbs in C, a block at a time, and read once. The same integers.
    import random
    import tracemalloc

    from verify_perceptron.data import int64_pieces

    rng, pick = np.random.default_rng(bits), random.Random(bits)
    Z = rng.integers(-(2**31), 2**31, size=(60_000, 10)).astype(np.int32)
    Z[0] = np.iinfo(np.int32).min  # (the extremes too)
    w = [pick.randint(-(2**bits), 2**bits) for _ in range(10)]
    w[1] = -(2**bits)
    tracemalloc.start()
    got = int64_pieces._wide_products(Z, w)
    held, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    exact = [sum(z * v for z, v in zip(row, w)) for row in Z[:2000].tolist()]
    assert got[:2000].tolist() == exact and got.dtype == object
    assert got[2000:].tolist() == (Z[2000:].astype(object) @ np.array(w, dtype=object)).tolist()
    if bits > 63:  # (below, the old way's temporaries were int64 pieces: its heap, not its traced peak, rose)
        assert peak < 1.8 * held, f"the products' peak is {peak / held:.2f} times what they hold"
