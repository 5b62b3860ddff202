"""Batch steps scaled by a count: code that takes one step a pass, as note 003's batch mode does, but divides the
sum of the pass's steps by the number of samples it misclassified (the mean of its mistakes) or by the number of
samples (gradient descent on the mean perceptron loss, whose rate is then η/n: another on each dataset, so no
common factor of the batch run fits).

No note does either, and their weights are sums of steps with coefficients that are no counts of updates, so
without this model such code is "unexplained" or "not a perceptron". `batch_scaled_cause` names it where the
model's run ends at the implementation's weights on every dataset tried: the run in exact arithmetic (at the
rate the weights show), or, for float64 code, the run as NumPy computes it: each pass's scores (one of
`SCORES`), its steps' sum (`SUMS_OF_STEPS`) and the scaled step written one of the ways of `STEPS`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from fractions import Fraction

import numpy as np

from ..data.dataset import Dataset
from ..data.exact_text import nearest_float
from ..notes.conventions import CONVENTIONS, Convention, dot
from ._evidence import Observation, explained, recast
from ._exact import Vector, _is_mistake
from ._floats import SUMS, _double, _doubles, _score, code_rate, halves_step, short_rates, summed_how
from ._results import Diagnosis

#: What each pass's step is divided by, with the code and the words that name it. ``"none"``: note 003's batch mode,
#: whose exact run `_causes.mode_cause` tries; here only as float64 code computes it (at a rate such as 0.1 its
#: rounding depends on how the code sums the step).
DIVISORS: dict[str, tuple[str, str]] = {
    "none": ("batch-mode", "by the sum of the steps of the samples the pass's starting weights misclassify (note 003's "
                           "batch mode)"),
    "mistakes": ("batch-mean", "by the mean of the steps of the samples the pass's starting weights misclassify "
                               "(their sum over their count k)"),
    "samples": ("batch-mean-loss", "by the sum of the steps of the samples the pass's starting weights misclassify "
                                   "over the number of samples n (gradient descent on the mean perceptron loss, "
                                   "at rate η/n)"),
}
#: How float64 code scores a pass: NumPy's ``X @ w + b`` over the whole matrix, or one of `_floats.SUMS` a sample.
SCORES = ("matrix", *SUMS)
#: How it sums the pass's steps: ``(y[m, None] * X[m]).sum(0)`` (rows added in order) or ``X[m].T @ y[m]``.
SUMS_OF_STEPS = ("rows", "transposed")
#: How it scales the sum s over the count k at the rate a: ``a * s / k``, ``a * (s / k)`` (``a * mean``),
#: ``a / k * s``.
STEPS = ("rate-first", "mean-first", "rate-over-count")


def exact_run(data: Dataset, conv: Convention, divisor: str, max_epochs: int) -> tuple[Fraction, Vector] | None:
    """The batch run of `conv`'s rule at learning rate 1 whose every step is divided by the pass's count
    (`DIVISORS`), in exact arithmetic; its final weights as ``(b, v)`` (`Convention.to_canonical`), or None where it
    has not converged after `max_epochs` passes.

    Examples
    --------
    >>> from verify_perceptron.data.dataset import from_arrays
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> data = from_arrays([["2", "0"], ["0", "1"], ["-1", "-1"]], [1, 1, -1])
    >>> b, v = exact_run(data, get_convention("classic"), "mistakes", 100)
    >>> str(b), [str(x) for x in v]
    ('1/3', ['1', '2/3'])
    >>> b, v = exact_run(data, get_convention("classic"), "samples", 100)
    >>> str(b), [str(x) for x in v]
    ('1/3', ['1', '2/3'])
    """
    samples = [conv.augment(x) for x in data.X]
    w: Vector = tuple(Fraction(0) for _ in samples[0])
    for _ in range(max_epochs):
        total = [Fraction(0)] * len(w)
        count = 0
        for x, y in zip(samples, data.y):
            factor = conv.decide(dot(w, x), y, Fraction(1))
            if factor is not None:
                total = [t + factor * xj for t, xj in zip(total, x)]
                count += 1
        if not count:
            return conv.to_canonical(w)
        k = {"none": 1, "mistakes": count}.get(divisor, len(samples))
        w = tuple(wj + t / k for wj, t in zip(w, total))
    return None


def float_run(data: Dataset, conv: Convention, rate: Fraction, divisor: str, max_epochs: int, labels: str = "-1/+1",
              *, scores: str = "matrix", steps_sum: str = "rows", step: str = "rate-first",
              at_cap: bool = False, single: bool = False) -> tuple[Fraction, Vector] | None:
    """The same run as float64 NumPy code computes it at `rate` (float32 code, NumPy's or PyTorch's default, where
    `single`: the data, the rate and every value float32): the pass's scores as `scores` says, its mistakes'
    steps summed as `steps_sum` says, the sum scaled as `step` says; its final weights (the floats, exactly, as
    ``(b, v)``), or None where it has not converged after `max_epochs` passes (its weights then where `at_cap`)
    or float64 has no such run (a value or the rate past the doubles, an overflow).

    Examples
    --------
    >>> from verify_perceptron.data.dataset import from_arrays
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> data = from_arrays([["2", "0"], ["0", "1"], ["-1", "-1"]], [1, 1, -1])
    >>> b, v = float_run(data, get_convention("classic"), Fraction(1), "mistakes", 100)
    >>> float(b), [float(x) for x in v]
    (0.3333333333333333, [1.0, 0.6666666666666666])
    """
    a = nearest_float(conv.step_size(rate) / (2 if halves_step(conv, labels) else 1))
    rows = _doubles(data)
    if a is None or a == 0 or rows is None:
        return None
    kind = np.float32 if single else np.float64
    X, y = np.array(rows, dtype=kind).reshape(len(rows), -1), np.array(data.y, dtype=kind)
    ties = {label: _is_mistake(conv, Fraction(0), label) for label in (-1, 1)}
    tie_mistake = np.where(y > 0, ties[1], ties[-1])
    v, b, rate_ = np.zeros(X.shape[1], dtype=kind), kind(0), kind(a)
    with np.errstate(all="ignore"):
        for _ in range(max_epochs):
            s = _scores(X, v, b, scores, rows)
            if not np.isfinite(s).all():
                return None
            wrong = (y * np.sign(s) < 0) | ((s == 0) & tie_mistake)
            if not wrong.any():
                break
            m = y[wrong]
            total = (m[:, None] * X[wrong]).sum(axis=0) if steps_sum == "rows" else X[wrong].T @ m
            k = kind({"none": 1, "mistakes": int(wrong.sum())}.get(divisor, len(rows)))
            v, b = v + _scaled(total, rate_, k, step), b + _scaled(np.array([m.sum()], dtype=kind), rate_, k, step)[0]
            if not (np.isfinite(v).all() and np.isfinite(b)):
                return None
        else:
            if not at_cap:
                return None
    return Fraction(float(b)), tuple(Fraction(float(w)) for w in v)


def _scores(X: np.ndarray, v: np.ndarray, b: Any, scores: str, rows: list[list[float]]) -> np.ndarray:
    """Every sample's score as `scores` says (`SCORES`): a loop's order of sums made a feature at a time over all
    samples (each elementwise operation rounds as the loop's scalar one does), NumPy's dot a sample at a time."""
    if scores == "matrix":
        return X @ v + b
    if scores == "numpy":
        return np.array([_score(v.tolist(), x, float(b), scores) for x in rows])
    total = np.full(X.shape[0], b, dtype=X.dtype) if scores == "bias-first" else X[:, 0] * v[0]
    for j in range(0 if scores == "bias-first" else 1, X.shape[1]):
        total = total + X[:, j] * v[j]
    return total if scores == "bias-first" else total + b


def _scaled(total: np.ndarray, a: Any, k: Any, step: str) -> np.ndarray:
    """The step from the sum `total` of a pass's steps, at the rate `a`, over the count `k`, written as `step` says."""
    if step == "rate-first":
        return a * total / k
    if step == "mean-first":
        return a * (total / k)
    return a / k * total


def batch_scaled_cause(observations: list[Observation], conv: Convention, rate: Fraction | None, max_epochs: int,
                       labels: str, rounded: bool) -> Diagnosis | None:
    """A batch run with each pass's step divided by a count (`DIVISORS`) that ends at the implementation's weights
    on every dataset tried: exactly at one rate (`rate` where it is known), or, for float64 code (`rounded`), as
    NumPy computes it at a rate the weights show or `rate`'s; under `conv`'s rule at a score of 0, else another
    note's (`_rules`). The ``"none"`` divisor (note 003's batch mode) is tried in float64 only (`_causes.mode_cause`
    tries its exact run). None where nothing fits."""
    first = observations[0]
    for divisor, (code, words) in DIVISORS.items():
        for rule in _rules(conv):
            runs: dict[int, Vector | None] = {}

            def exact(o: Observation, rule: Convention = rule) -> list[Vector] | None:
                if id(o) not in runs:
                    found = exact_run(o.data, rule, divisor, max_epochs)
                    runs[id(o)] = None if found is None else conv.from_canonical(*found)
                weights = runs[id(o)]
                return None if weights is None else [weights]

            fit: tuple[Fraction, str] | None = None
            factor = None
            if divisor != "none" or rule is not conv:
                factor = explained(observations, exact, rate, rounded=rounded)
                fit = None if factor is None else (code_rate(rule, factor, labels), "")
            for single in ((False, True) if _in_float32(first) else (False,)) if rounded else ():  # float64, float32
                if fit is None:
                    fit = _float_fit(observations, conv, rule, _rates(first, exact, rate, rule, labels), divisor,
                                     max_epochs, labels, single)
            if fit is not None and not _online_too(observations, conv, rule, fit, factor, rounded, max_epochs, labels):
                return _named(code, words, divisor, conv, rule, fit, len(observations))
    return None


_FLOAT32_MAX = float(np.finfo(np.float32).max)


def _in_float32(observation: Observation) -> bool:
    """Whether every weight is a float32 value, as float32 code returns them (else no float32 model is run)."""
    for w in observation.weights:
        double = nearest_float(w)
        if double is None or abs(double) > _FLOAT32_MAX or Fraction(float(np.float32(double))) != w:
            return False
    return True


def _online_too(observations: list[Observation], conv: Convention, rule: Convention, fit: tuple[Fraction, str],
                factor: Fraction | None, rounded: bool, max_epochs: int, labels: str) -> bool:
    """Whether the note's online run under the same rule, at the same rate and in the same arithmetic, reproduces
    every dataset tried as well: then the datasets do not tell the batch model from it (passes of one mistake each
    step alike), and the batch model is not named; the search of combinations names the online run's causes."""
    from ._floats import _float_run
    from ._models import simulate

    def shown(weights: Vector) -> Vector:
        return recast(weights, rule, conv)

    if factor is not None:  # the exact fit: the online run at rate 1, times the same factor
        def exact(o: Observation) -> list[Vector] | None:
            run = simulate(o.data, rule)
            return [shown(run.final())] if run.stop == "converged" else None

        return explained(observations, exact, factor, rounded=rounded) is not None
    from ._single import SINGLE_SUMS, single_run

    single = fit[1].startswith("float32")
    for sums in SINGLE_SUMS if single else SUMS:
        def model(o: Observation, sums: str = sums) -> list[Vector] | None:
            found = (single_run(o.data, rule, fit[0], max_epochs, labels, sums) if single else
                     _float_run(o.data, rule, fit[0], max_epochs, labels, sums=sums)[0])
            return None if found is None else [shown(found)]

        if explained(observations, model, Fraction(1), rounded=True) is not None or (
                ", printed to " in fit[1] and _printed(observations, model) is not None):
            return True
    return False


def _rules(conv: Convention) -> list[Convention]:
    """`conv`, then each note's convention whose rule differs from it at a score of 0 or in its step's factor."""
    def rule(c: Convention) -> tuple[bool, bool, int]:
        return _is_mistake(c, Fraction(0), -1), _is_mistake(c, Fraction(0), 1), c.step_factor

    found = {rule(conv): conv}
    for other in CONVENTIONS.values():
        found.setdefault(rule(other), other)
    return list(found.values())


def _named(code: str, words: str, divisor: str, conv: Convention, rule: Convention, fit: tuple[Fraction, str],
           datasets: int) -> Diagnosis:
    """The diagnosis of the fit `(rate, how)` found under `rule`."""
    shown, how = fit
    rate_text = f"{float(shown)!r}, in {how}: the first way of computing tried that fits)" if how else str(shown)
    ruled = "" if rule is conv else f", under note {rule.note_number}'s {rule.name} rule ({rule.summary})"
    return Diagnosis(code, {"divisor": divisor, "rate": str(shown), "convention": rule.name,
                            "float64": how.startswith("float64"), "float32": how.startswith("float32"),
                            "printed": ", printed to " in how,
                            **({"mode": "batch"} if divisor == "none" else {}), "datasets": datasets},
                     f"it takes one step a pass, {words}, at rate {rate_text}{ruled}: that run ends at the "
                     "implementation's weights on every dataset tried" + ("" if divisor == "none" else
                     ". No note's perceptron scales its steps so (note 003's batch mode adds them), and no option "
                     "declares it: its weights are sums of the steps with coefficients that are no counts of updates"))


def _rates(first: Observation, exact: Callable[[Observation], list[Vector] | None], rate: Fraction | None,
           conv: Convention, labels: str) -> list[Fraction]:
    """The rates a float model is tried at: the known `rate`, else the short decimals of the counterexample's
    weights over the exact model's (on its largest coordinate)."""
    if rate is not None:
        return short_rates(code_rate(conv, rate, labels))
    model = exact(first)
    if not model:
        return []
    j = max(range(len(model[0])), key=lambda i: abs(model[0][i]))
    if model[0][j] == 0 or first.weights[j] / model[0][j] <= 0:
        return []
    return short_rates(code_rate(conv, first.weights[j] / model[0][j], labels))


def _float_fit(observations: list[Observation], conv: Convention, rule: Convention, rates: list[Fraction],
               divisor: str, max_epochs: int, labels: str, single: bool = False) -> tuple[Fraction, str] | None:
    """The first of `rates` (a double) and way of computing (`SCORES`, `SUMS_OF_STEPS`, `STEPS`) whose float64
    run (float32, NumPy's matrix scores only, where `single`) under `rule` ends at every observation's weights
    (read in `conv`'s coordinates), as they are or printed short (`_printed`: the run's floats rounded to one
    printing's digits); its rate and the words for the arithmetic and the way; None where none does."""
    precision = "float32" if single else "float64"
    seen: dict[tuple[int, Vector], bool] = {}
    for candidate in dict.fromkeys(rates):
        if _double(candidate) is None:
            continue
        for scores in SCORES[:1] if single else SCORES:
            for steps_sum in SUMS_OF_STEPS:
                for step in (STEPS if divisor != "none" else STEPS[:1]):  # k = 1: one way
                    def model(o: Observation) -> list[Vector] | None:
                        found = float_run(o.data, rule, candidate, divisor, max_epochs, labels, scores=scores,
                                          steps_sum=steps_sum, step=step, single=single)
                        return None if found is None else [conv.from_canonical(*found)]

                    way = f"{precision} ({computed(scores, steps_sum, step, divisor)}"
                    if explained(observations, model, Fraction(1), rounded=True) is not None:
                        return candidate, way
                    printing = _printed(observations, model, seen)
                    if printing is not None:
                        return candidate, f"{way}, printed to {printing}"
    return None


def _printed(observations: list[Observation], model: Callable[[Observation], list[Vector] | None],
             seen: dict[tuple[int, Vector], bool] | None = None) -> str | None:
    """The printing (in words) that turns the model's weights into every observation's, where one does; the model is
    run no further than the first dataset whose weights are neither its own nor some printing of them. `seen` keeps
    each dataset's answer for each weights (the ways of computing often end at the same ones)."""
    from ._printed import _one_printing, described, printed_format

    seen = {} if seen is None else seen
    runs = []
    for o in observations:
        run = model(o)
        if not run:
            return None
        key = (id(o), run[0])
        if key not in seen:
            seen[key] = list(o.weights) == list(run[0]) or printed_format(o.weights, run[0], exact=False) is not None
        if not seen[key]:
            return None
        runs.append(list(run[0]))
    fit = _one_printing(observations, runs, False)
    return None if fit is None else described(fit[0])


def computed(scores: str, steps_sum: str, step: str, divisor: str) -> str:
    """The words for one way of computing the float64 run."""
    scored = {"matrix": "the scores X @ w + b", "bias-last": "each score's products added in order, then the bias"
              }.get(scores, f"each score {summed_how(scores)}")
    summed = "s = (y[m, None] * X[m]).sum(0)" if steps_sum == "rows" else "s = X[m].T @ y[m]"
    k = {"mistakes": "k", "samples": "n"}.get(divisor)
    if k is None:
        return f"{scored}, {summed}, then η * s"
    scaled = {"rate-first": f"η * s / {k}", "mean-first": f"η * (s / {k})", "rate-over-count": f"η / {k} * s"}[step]
    return f"{scored}, {summed}, then {scaled}"
