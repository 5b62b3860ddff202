"""The search of combinations made faster with the same answers: the counterexample's float64 runs made together
(`_learners_batch.run_many`) are each `_learners.run`'s bit for bit, the integer comparisons of a run's epoch ends
(`_target_weights.Target`) are the exact test's, and a combination that fits only late (at a late epoch, or on the
last dataset alone) is still found."""

from __future__ import annotations

import random
from fractions import Fraction as F

from verify_perceptron.data.dataset import from_arrays
from verify_perceptron.harness._combinations import Search, catalogue, combinations, spec_of
from verify_perceptron.harness._evidence import Observation, _float_ratio, _ratio, factor_of
from verify_perceptron.harness._learners import Run, Spec, run
from verify_perceptron.harness._learners_batch import batchable, run_many
from verify_perceptron.harness._target_weights import Target
from verify_perceptron.notes.conventions import CONVENTIONS, get_convention

CLASSIC = get_convention("classic")


def _everything(r: Run) -> str:
    return repr((r.ends, r.sums, r.presentations, r.stop, sorted(r.fired), r.least_margin, r.scale))


def test_runs_made_together_are_each_run_bit_for_bit() -> None:
    rng = random.Random(3)
    compared, stops = 0, set[str]()
    for convention in sorted(CONVENTIONS):
        conv = get_convention(convention)
        n, d = rng.randint(3, 5), rng.randint(1, 2)
        X = [[str(F(rng.randint(-8, 8), rng.choice([1, 2, 4]))) for _ in range(d)] for _ in range(n)]
        data = from_arrays(X, [-1, 1] + [rng.choice([-1, 1]) for _ in range(n - 2)])
        causes = catalogue(conv, floats=True, rate=F(1, 10), params={})
        combos = [*combinations(causes, 1), *rng.sample(list(combinations(causes, 2)), 50)]
        specs = [s for s in dict.fromkeys(spec_of(c) for c in combos) if batchable(s)]
        specs += [Spec(step=1e307, sign=-1), Spec(step=0.5, tie="zero", tolerance=F(1, 10))]  # an overflow; a tolerance
        for order in ("given", "reversed", "both"):  # one order, or both at once (each spec its own sample)
            group = [s for s in specs if order in (s.order, "both")] or [Spec(step=0.1, order=order)]
            for spec, made in zip(group, run_many(data, conv, group, 40)):
                assert _everything(made) == _everything(run(data, conv, spec, 40)), (convention, spec)
                stops.add(made.stop)
                compared += 1
    assert compared > 200 and {"overflow", "converged", "limit"} <= stops


def test_a_score_that_is_nan_is_decided_as_each_runs_own() -> None:
    # features near 1e300: a score's products overflow to inf and -inf, their sum is NaN (neither > 0, < 0 nor 0)
    big = str(F(10) ** 300)
    data = from_arrays([[big, "-" + big], ["-" + big, big], [big, big]], [1, -1, -1])
    specs = [Spec(step=0.5, tie=tie, schedule=schedule) for tie in ("note", "strict", "plus", "minus", "zero")
             for schedule in (None, "1/t")]
    made = run_many(data, CLASSIC, specs, 20)
    for spec, one in zip(specs, made):
        assert _everything(one) == _everything(run(data, CLASSIC, spec, 20)), spec


def test_the_integer_comparison_of_an_epochs_end_is_the_exact_tests() -> None:
    rng = random.Random(4)
    for _ in range(200):
        weights = tuple(F(rng.randint(-3, 3), rng.choice([1, 2, 3])) for _ in range(3))
        scale = rng.choice([1, 2, 6])
        ends = [tuple(rng.randint(-4, 4) for _ in range(3)) for _ in range(3)] + [tuple(int(w * 6) for w in weights)]
        head = Run(ends=list(ends), scale=scale)
        for rate in (None, F(1), F(1, 3), F(2)):
            target = Target(weights, rate)
            exact = [T for T in range(1, 5) if factor_of(weights, [head.at(T)], rate) is not None]
            assert [T for T in range(1, 5) if target.matches(head, T)] == exact == target.epochs(head)


def test_the_crosswise_integer_ratio_test_is_the_fraction_arithmetics() -> None:
    # `_evidence._ratio` compares numerators and denominators crosswise, and picks the first largest |m| without
    # making Fractions; `_float_ratio` is the same test in the values' own arithmetic (Fractions here): the same
    # factor or None on every pair, exact and rounded (a rounded fit takes its factor off that largest |m|)
    rng = random.Random(5)

    def value() -> F:
        return rng.choice([F(0), F(rng.randint(-6, 6), rng.randint(1, 4)), F(rng.uniform(-3, 3)),
                           F(rng.randint(-10**20, 10**20), rng.randint(1, 10**18))])

    fits = 0
    for _ in range(800):
        model = tuple(rng.choice([value(), F(rng.choice([-2, 2]))]) for _ in range(rng.randint(1, 3)))
        c = rng.choice([F(1), F(1, 2), F(3), F(-1), F(1, 10), F(0.1)])
        weights = rng.choice([tuple(c * m for m in model), tuple(F(float(c * m)) for m in model),
                              tuple(value() for _ in model)])
        for rounded in (False, True):
            for exact in (True, False):
                found = _ratio(weights, model, rounded, exact=exact)
                assert found == _float_ratio(weights, model, rounded, exact=exact), (weights, model, rounded, exact)
                fits += found is not None
    assert fits > 800  # (the factors found, not only None)


def _capped(spec: Spec, epochs: int, data: list[tuple[list[list[str]], list[int]]]) -> list[Observation]:
    """Each dataset's weights after `epochs` epochs of `spec` (or its last ones, converged before)."""
    return [Observation(d, run(d, CLASSIC, spec, epochs).at(epochs)) for d in (from_arrays(X, y) for X, y in data)]


def test_a_fit_at_a_late_epoch_is_found() -> None:
    # a float64 run that never converges (the wrong sign), stopped after 900 epochs: only epoch 900's end fits
    spec = Spec(sign=-1, step=0.1)
    seen = _capped(spec, 900, [([["1"], ["2"]], [-1, 1]), ([["1", "-1"], ["1/2", "2"]], [1, -1])])
    causes = [c for c in catalogue(CLASSIC, floats=True, rate=None, params={}) if c.factor in ("sign", "tie", "rate")]
    fits = Search(seen, CLASSIC, None, True, float("inf")).smallest(causes)
    assert [(f.codes, f.limit) for f in fits] == [(["wrong-sign", "float-rate"], 900)]


def test_a_cap_that_shows_on_the_last_dataset_alone_is_found() -> None:
    # the note's run stopped after 3 epochs: the first datasets converge before, only the last one goes on past it
    spec = Spec(tie="plus")
    data = [([["-1"], ["1"]], [-1, 1]), ([["-2"], ["1"]], [-1, 1]), ([["1/4"], ["1"], ["-2"], ["3"]], [1, -1, 1, -1])]
    seen = _capped(spec, 3, data)
    assert [len(run(o.data, CLASSIC, spec).ends) > 3 for o in seen] == [False, False, True]
    search = Search(seen, CLASSIC, None, False, float("inf"))
    fits = search.smallest(catalogue(CLASSIC, floats=False, rate=None, params={}))
    assert ["tie-plus", "epoch-cap"] in [f.codes for f in fits]
    assert dict(fits[[f.codes for f in fits].index(["tie-plus", "epoch-cap"])].causes[-1].parameters)["epochs"] == 3
