"""Causes found by calling the implementation again on data built to show them: a weight that moves
although its feature is 0 in every sample (the weights did not start at 0), the same data twice
(seeded or not), and the datasets already tried under the other label encoding."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from ..data.dataset import Dataset
from ..notes.conventions import Convention
from ._evidence import Observation
from ._exact import Vector
from ._floats import SUMS, _float_run, float_sums
from ._results import Diagnosis
from ._wording import _approx, _number

#: Calls the implementation on data, under a label encoding and a convention: the data as it saw
#: them, its weights (None when it returned none) and whether the case passed every check.
Recheck = Callable[[Dataset, str, str], "tuple[Dataset, Vector | None, bool]"]
#: Most datasets re-checked under another label encoding.
MAX_RECHECKS = 100
#: Datasets that fail under a convention, no float64 rate explaining them, before the probe leaves it.
_UNEXPLAINED = 3


def with_zero_feature(data: Dataset, first: bool = False) -> Dataset:
    """`data` with one more feature, 0 in every sample: the last one, or the `first`.

    Examples
    --------
    >>> from verify_perceptron.data.dataset import from_arrays
    >>> [[str(v) for v in x] for x in with_zero_feature(from_arrays([[-1], [1]], [-1, 1])).X]
    [['-1', '0'], ['1', '0']]
    >>> [[str(v) for v in x] for x in with_zero_feature(from_arrays([[-1], [1]], [-1, 1]), first=True).X]
    [['0', '-1'], ['0', '1']]
    """
    return Dataset(X=tuple((Fraction(0), *x) if first else (*x, Fraction(0)) for x in data.X), y=data.y,
                   source=data.source, binary_float=data.binary_float)


def neighbours(data: Dataset) -> list[Dataset]:
    """Datasets near a counterexample that tell causes apart: its rows rotated and reversed, each feature
    negated, the labels swapped, the values doubled and halved, its first sample repeated.

    Examples
    --------
    >>> from verify_perceptron.data.dataset import from_arrays
    >>> [[[str(v) for v in x] for x in d.X] for d in neighbours(from_arrays([[-1], [1]], [-1, 1]))][:2]
    [[['1'], ['-1']], [['1'], ['-1']]]
    """
    n = data.n_samples
    made: list[tuple[tuple[tuple[Fraction, ...], ...], tuple[int, ...]]] = []
    for shift in range(1, n):
        made.append((data.X[shift:] + data.X[:shift], data.y[shift:] + data.y[:shift]))
    made.append((data.X[::-1], data.y[::-1]))
    for j in range(data.n_features):
        made.append((tuple(tuple(-v if i == j else v for i, v in enumerate(x)) for x in data.X), data.y))
    made.append((data.X, tuple(-t for t in data.y)))
    for factor in (Fraction(2), Fraction(1, 2)):
        made.append((tuple(tuple(factor * v for v in x) for x in data.X), data.y))
    made.append((data.X + data.X[:1], data.y + data.y[:1]))
    return [Dataset(X=X, y=y, source=data.source, binary_float=data.binary_float) for X, y in made]


def slow_pairs() -> list[Dataset]:
    """Two samples 2^-k apart across a threshold, k = 1, 3, 5: the note's run needs 10, 34 and 130 epochs,
    so an implementation that stops after fewer shows its epoch cap on them.

    Examples
    --------
    >>> [[str(x[0]) for x in d.X] for d in slow_pairs()][0]
    ['1', '3/2']
    """
    pairs = [Dataset(X=((Fraction(1),), (1 + Fraction(1, 2**k),)), y=(-1, 1), source=f"a pair 2^-{k} apart")
             for k in (1, 3, 5)]
    # and two samples whose features are independent: their weights' coefficients are unique (`_reachable`)
    return [*pairs, Dataset(X=((Fraction(1), Fraction(1, 2)), (Fraction(-1, 2), Fraction(1))), y=(-1, 1),
                            source="two independent samples")]


def start_probe(data: Dataset, conv: Convention, recheck: Recheck, labels: str) -> Diagnosis | None:
    """nonzero-start: the weight of a feature that is 0 in every sample can only keep its start value.

    Returns the diagnosis when that weight is not 0, added last and added first, saying whether a second call gives the same value
    (a seeded start) or not.
    """
    probe = with_zero_feature(data)
    _, weights, _ = recheck(probe, labels, conv.name)
    if weights is None:
        return None
    value = conv.to_canonical(weights)[1][-1]
    if value == 0:
        return None
    # a random start moves a zero feature's weight wherever it is; a program reading its columns otherwise (the
    # label from the first column) can show a nonzero weight there and keep 0 when the zero feature comes first
    _, ahead, _ = recheck(with_zero_feature(data, first=True), labels, conv.name)
    if ahead is None or conv.to_canonical(ahead)[1][0] == 0:
        return None
    _, again, _ = recheck(probe, labels, conv.name)
    seeded = again is not None and conv.to_canonical(again)[1][-1] == value
    name = conv.weight_names(probe.n_features)[probe.n_features - (0 if conv.bias_first else 1)]
    how = ("the same value on a second call: a fixed start (a constant, or a seeded random draw)" if seeded else
           f"a different value ({_number(conv.to_canonical(again)[1][-1]) if again else 'none'}) on a second call: an "
           "unseeded random start")
    return Diagnosis("nonzero-start", {"weight": name, "value": _number(value), "seeded": seeded},
                     f"the weights do not start at 0: with a feature added that is 0 in every sample, its weight "
                     f"{name} ends at {_number(value)} (≈ {_approx(value)}), and no update can move it; {how}")


def nondeterminism_probe(data: Dataset, conv: Convention, recheck: Recheck, labels: str) -> Diagnosis:
    """For an implementation that gave two answers on the same data: a random start, or else a random order."""
    start = start_probe(data, conv, recheck, labels)
    if start is not None:
        return start
    return Diagnosis("nondeterministic", {},
                     "two calls on the same data give different weights, and a feature that is 0 everywhere keeps "
                     "weight 0 (the start is 0): consistent with an unseeded random order (shuffling)")


def labels_probe(observations: list[Observation], conv: Convention, recheck: Recheck,
                 labels: str, floats: bool = False, classes: tuple[str, str] | None = None) -> Diagnosis | None:
    """label-encoding: every dataset tried passes when given with the other labels (0/1 for -1/+1),
    under the checked convention or else under one other convention; with `floats`, also where float64
    rounding at one rate explains every one that did not pass (`_floats.rates_shown` on one of them, the
    rate then run on all: a run whose rounding changed a decision shows no rate of its own). With `classes` (a
    pair of tokens), the same tokens read the other way."""
    from ..notes.conventions import CONVENTIONS, get_convention
    from ._options import REFERENCE_EPOCHS

    other = "0/1" if labels == "-1/+1" else "-1/+1"
    tried = observations[:MAX_RECHECKS]
    for name in (conv.name, *(c for c in CONVENTIONS if c != conv.name)):
        failed: list[tuple[Dataset, Vector]] = []
        rate: Fraction | None = None
        for o in tried:
            seen, weights, passed = recheck(o.data, other, name)
            if passed:
                continue
            if not floats or weights is None:
                break
            failed.append((seen, weights))
            if rate is None or float_sums(seen, get_convention(name), rate, REFERENCE_EPOCHS, other, weights) is None:
                rate = _one_rate(failed, name, other)
                if rate is None and len(failed) >= _UNEXPLAINED:
                    break  # (as before: not this convention, without calling the implementation on every dataset)
        else:
            if not failed or rate is not None:
                return _encoding(conv, name, other, len(tried), rate, classes)
    return None


def _one_rate(failed: list[tuple[Dataset, Vector]], name: str, labels: str) -> Fraction | None:
    """The first rate shown by one of `failed` (`rates_shown`) at which float64 ends at every one's weights."""
    from ..notes.conventions import get_convention
    from ._floats import rates_shown
    from ._options import REFERENCE_EPOCHS

    under = get_convention(name)
    for data, weights in failed:
        for rate in rates_shown(data, under, weights, labels, REFERENCE_EPOCHS):
            if any(all(_float_run(d, under, rate, REFERENCE_EPOCHS, labels, sums=sums)[0] == w for d, w in failed)
                   for sums in SUMS):
                return rate
    return None


def _encoding(conv: Convention, name: str, other: str, datasets: int, rate: Fraction | None,
              classes: tuple[str, str] | None = None) -> Diagnosis:
    """The label-encoding diagnosis: labels `other`, convention `name`, a float64 rate when one was needed."""
    from ..notes.conventions import get_convention
    from ._floats import halves_step
    from ._tokens import expects, flags as label_flags
    from ._wording import _rate_text

    flags = label_flags(other, classes) + ("" if name == conv.name else f" --convention {name}")
    also = "" if name == conv.name else f", and it is the {name} perceptron"
    parameters: dict[str, object] = {"labels": other, "convention": name, "datasets": datasets}
    if rate is not None:
        steps = " (η·(d - y) on labels 0/1: steps of η)" if halves_step(get_convention(name), other) else ""
        also += f", computed in float64 at rate {_rate_text(rate)}{steps}"
        flags += f" --float-eta {float(rate)!r} --accept float-rate"
        parameters["rate"] = _number(rate)
    return Diagnosis("label-encoding", parameters,
                     f"{expects(other, classes)}{also}: given them, it gives the note's weights on every "
                     f"dataset tried ({flags} declares that)")
