"""Failures of the declaration rather than of the algorithm: weights written in another order than the one
declared (``weight-layout``), and a run that goes on past the declared epoch limit (``epoch-limit-ignored``).

A flat weight vector (a command's ``{out}``, a function's one vector) is
read with the bias in one place: last for a command, the convention's own
order for Python, or wherever ``bias`` says. A program that writes
``b, w1, ..., wd`` is then read with its values shifted, and its failure is
not the algorithm's. The order is named when the implementation,
called again under it on the counterexample and on the largest other
datasets tried, passes every check on each: the sentence that names the
option has been run. It is also named when it fails there too, if a
feature that is 0 in every sample (which no update moves) gets weight 0
only read in that order: the program departs in more than one way, and
`_case` diagnoses what is left under that order.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from fractions import Fraction

from ..data.dataset import Dataset
from ..notes.conventions import Convention
from ..run import fast
from ._evidence import Observation, explained
from ._exact import Vector
from ._options import BIAS_PLACES, CheckOptions
from ._probes import with_zero_feature
from ._results import Diagnosis
from ._wording import _count

#: Datasets besides the counterexample on which a weight order is checked again before it is named.
LAYOUT_RECHECKS = 3

#: Epochs the run to convergence may take in `limit_diagnosis` (the neighbours of a slow counterexample,
#: its values halved, take more than the harness's own budget).
LIMIT_EPOCHS = 10_000

#: Calls the implementation on data under other options: whether it passed every check.
Passes = Callable[[Dataset, CheckOptions], bool]
#: Calls the implementation on data (labels, convention): the data as it saw them, its weights, whether it passed.
Recheck = Callable[[Dataset, str, str], "tuple[Dataset, Vector | None, bool]"]


def current_place(options: CheckOptions, kind: str) -> str | None:
    """Where a flat weight vector is read to hold the bias now (None: only pairs ``(w, b)`` are read).

    Examples
    --------
    >>> current_place(CheckOptions(), "command"), current_place(CheckOptions(), "function")
    ('last', 'convention')
    >>> current_place(CheckOptions(bias="first"), "command"), current_place(CheckOptions(output="pair"), "function")
    ('first', None)
    """
    if options.bias is not None:
        return options.bias
    if options.output == "augmented":
        return "convention"
    if options.output == "pair":
        return None
    return "last" if kind == "command" else "convention"


def read_as(conv: Convention, flat: list[Fraction], place: str) -> Vector:
    """The convention's coordinates of a flat vector holding the bias at `place`.

    Examples
    --------
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> [str(v) for v in read_as(get_convention("classic"), [Fraction(1), Fraction(2), Fraction(3)], "last")]
    ['3', '1', '2']
    """
    if place == "first":
        return conv.from_canonical(flat[0], tuple(flat[1:]))
    if place == "last":
        return conv.from_canonical(flat[-1], tuple(flat[:-1]))
    return tuple(flat)


def written(conv: Convention, weights: Vector, place: str) -> list[Fraction]:
    """The flat vector a program wrote, from its weights read (`read_as`) with the bias at `place`.

    Examples
    --------
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> classic = get_convention("classic")
    >>> [str(v) for v in written(classic, read_as(classic, [Fraction(1), Fraction(2), Fraction(3)], "last"), "last")]
    ['1', '2', '3']
    """
    if place == "convention":
        return list(weights)
    b, w = conv.to_canonical(weights)
    return [b, *w] if place == "first" else [*w, b]


def other_places(conv: Convention, n_features: int, place: str | None) -> list[str]:
    """The bias places that read a flat vector differently from `place` under `conv` (none when `place` is None).

    Examples
    --------
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> other_places(get_convention("classic"), 2, "last")  # classic's own order has the bias first
    ['first']
    >>> other_places(get_convention("sum-norm"), 2, "last")  # its bias weight is -b, last
    ['first', 'convention']
    """
    if place is None:
        return []
    probe = [Fraction(j + 1) for j in range(n_features + 1)]
    seen = {read_as(conv, probe, place)}
    others = []
    for other in BIAS_PLACES:
        reading = read_as(conv, probe, other)
        if reading not in seen:
            seen.add(reading)
            others.append(other)
    return others


def largest(datasets: Iterable[Dataset], count: int = LAYOUT_RECHECKS) -> list[Dataset]:
    """The `count` largest of `datasets` (samples times features, then samples), largest first, ties in order."""
    return sorted(datasets, key=lambda d: (d.n_samples * d.n_features, d.n_samples), reverse=True)[:count]


def largest_others(data: Dataset, evidence: list[Observation]) -> list[Dataset]:
    """The `LAYOUT_RECHECKS` largest datasets tried other than `data`: where a declaration found on `data` is
    checked again before it is named."""
    return largest(o.data for o in evidence if (o.data.X, o.data.y) != (data.X, data.y))


_ORDER = {"first": "the bias first (b, w1, ..., wd)", "last": "the bias last (w1, ..., wd, b)",
          "convention": "the convention's own order"}


def layout_diagnosis(data: Dataset, evidence: list[Observation], conv: Convention, options: CheckOptions, kind: str,
                     passes: Passes, recheck: Recheck | None = None) -> Diagnosis | None:
    """``weight-layout``: an order of the flat weight vector under which the implementation passes on the
    counterexample `data` and on the `LAYOUT_RECHECKS` largest other datasets in `evidence`; else, with
    `recheck`, the one order under which a feature 0 in every sample gets weight 0 (`zero_feature_place`,
    parameter ``passes`` False); or None."""
    others = largest_others(data, evidence)
    for place in other_places(conv, data.n_features, current_place(options, kind)):
        declared = dataclasses.replace(options, bias=place, output="auto")
        if not passes(data, declared) or not all(passes(d, declared) for d in others):
            continue
        option = f"--bias {place}"
        return Diagnosis("weight-layout", {"bias": place, "option": option, "python": f"bias={place!r}",
                                           "datasets": 1 + len(others)},
                         f"the weights are written in another order: {_ORDER[place]}, where {_ORDER[current_place(options, kind) or 'last']} "
                         f"was read; read in that order, they pass every check on the counterexample and on "
                         f"{_count(len(others), 'other dataset')} tried, each called again; declare it with {option} "
                         f"(bias={place!r} in Python)")
    # other datasets tried, not the counterexample's neighbours: a bias that ends at 0 by the data's shape would
    # end at 0 on them too; and none on a dataset checked alone
    enough = recheck is not None and len(others) == LAYOUT_RECHECKS
    zero = zero_feature_place([data, *others], conv, options, kind, recheck) if enough and recheck else None
    if zero is None:
        return None
    option = f"--bias {zero}"
    return Diagnosis("weight-layout", {"bias": zero, "option": option, "python": f"bias={zero!r}", "passes": False},
                     f"the weights are written in another order: {_ORDER[zero]}, where "
                     f"{_ORDER[current_place(options, kind) or 'last']} was read: with a feature added that is 0 in "
                     f"every sample (no update moves its weight), its weight is 0 only read in that order; declare "
                     f"the order with {option} (bias={zero!r} in Python)")


def zero_feature_place(datasets: list[Dataset], conv: Convention, options: CheckOptions, kind: str,
                       recheck: Recheck) -> str | None:
    """The one other bias place under which the implementation's weight for a feature 0 in every sample (added
    last to each of `datasets`) reads 0 on each, when the current place reads it nonzero on one; else None
    (a call on each dataset at most). A value read 0 by chance (a program reading its columns otherwise, whose
    bias happens to end at 0) must then happen on every dataset."""
    now = current_place(options, kind)
    places = other_places(conv, datasets[0].n_features + 1, now) if datasets else []
    moved = False
    for data in datasets:
        if now is None or not places:
            return None
        _, weights, _ = recheck(with_zero_feature(data), options.labels, conv.name)
        if weights is None:
            return None
        moved = moved or conv.to_canonical(weights)[1][-1] != 0
        flat = written(conv, weights, now)
        places = [p for p in places if conv.to_canonical(read_as(conv, flat, p))[1][-1] == 0]
    return places[0] if moved and len(places) == 1 else None


def limit_diagnosis(evidence: list[Observation], conv: Convention, options: CheckOptions,
                    rate: Fraction | None) -> Diagnosis | None:
    """``epoch-limit-ignored``: under a declared limit of T epochs, the weights are c times the run to
    convergence on every dataset tried, and that run takes more than T epochs on at least one of them."""
    limit = options.max_epochs
    if limit is None:
        return None
    longer = False

    def converged(o: Observation) -> list[Vector] | None:
        nonlocal longer
        run = fast.run(o.data, conv, max_epochs=LIMIT_EPOCHS, keep_updates=0)
        if run.stop != "converged":
            return None
        longer = longer or run.n_epochs > limit
        return [tuple(run.final_weights)]

    factor = explained(evidence, converged, rate, rounded=options.dtype == "float")
    if factor is None or not longer:
        return None
    return Diagnosis("epoch-limit-ignored", {"max_epochs": limit, "datasets": len(evidence)},
                     f"it does not stop after the declared {_count(limit, 'epoch')}: its weights are those of the "
                     f"{conv.name} perceptron run to convergence on every dataset tried "
                     f"({len(evidence)}), and on some that run takes more than {_count(limit, 'epoch')}")
