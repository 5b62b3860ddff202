"""Float64 beside exact arithmetic: the doubles a float implementation is given, whether float64
computes a whole exact run exactly, and where a float64 run first decides a sample differently.

No value is converted with ``float()`` here: past the doubles' range that
raises (or gives ``inf``), and below it gives 0. `_double` and
`_nearest_double` say so instead (None), and `_as_doubles` refuses data that
float64 cannot hold."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from ..data.dataset import Dataset
from ..data.exact_text import nearest_float
from ..data.trace import Trace
from ..notes.conventions import Convention, dot
from ._exact import Vector, _is_mistake
from ._results import FloatDecision
from ._wording import _approx, _number, _rate_text, _vec

_FLOAT_BITS = 53

#: The orders code sums a float64 score in. ``"bias-last"``: the products in order, then the bias (``sum(...) + b``,
#: a loop from 0; and ``w @ x + b`` where each product is a double). ``"bias-first"``: from the bias (``s = b; for
#: j: s += w[j]*x[j]``, as C, Java, JavaScript and Rust loops are written, or an augmented vector with w0 first).
#: ``"numpy"``: NumPy's ``w @ x`` as it computes it on this machine (its BLAS: here fused multiply-adds, each
#: product not rounded before it is added), then the bias. The sums round differently, so a run at a rate such as
#: 0.1 can decide a sample differently in each.
SUMS = ("bias-last", "bias-first", "numpy")


class Unrepresentable(ValueError):
    """A value float64 cannot hold (past the largest double), in data a float implementation is to be given."""


def _double(value: Fraction) -> float | None:
    """The double equal to `value`, or None when none is (1/10; past the largest double; below the least).

    Examples
    --------
    >>> _double(Fraction(1, 2)), _double(Fraction(1, 10)), _double(Fraction(10**400)), _double(Fraction(1, 10**400))
    (0.5, None, None, None)
    """
    double = nearest_float(value)
    return double if double is not None and Fraction.from_float(double) == value else None


def _nearest_double(value: Fraction) -> Fraction | None:
    """The exact value of the double nearest to `value` (0 below the least one), None past the largest.

    Examples
    --------
    >>> _nearest_double(Fraction(1, 3)) == Fraction.from_float(1 / 3), _nearest_double(Fraction(-10**400))
    (True, None)
    """
    double = nearest_float(value)
    return None if double is None else Fraction.from_float(double)


def _as_doubles(data: Dataset) -> tuple[Dataset, str | None]:
    """The data as a float64 implementation sees them, exactly, and a note when that changed a value;
    `Unrepresentable` naming the first value past the largest double (no float64 array can hold it)."""
    changed: list[str] = []
    rows: list[tuple[Fraction, ...]] = []
    for i, row in enumerate(data.X):
        new = []
        for j, value in enumerate(row):
            seen = _nearest_double(value)
            if seen is None:
                raise Unrepresentable(
                    f"X[{i}][{j}] ≈ {_approx(value)} is beyond the largest double (about 1.8e+308): an implementation "
                    "given float64 data (dtype 'float') cannot receive it; check it with dtype 'fraction' or 'object'")
            if seen != value and len(changed) < 3:
                changed.append(f"X[{i}][{j}] = {_number(value)} became {_number(seen)}")
            new.append(seen)
        rows.append(tuple(new))
    if not changed:
        return data, None
    note = "float64 cannot hold every value; the data checked are the doubles the implementation got: " + "; ".join(changed)
    return Dataset(X=tuple(rows), y=data.y, source=data.source, binary_float=True), note


def _float_exact(data: Dataset, conv: Convention, reference: Trace, rate: Fraction | None) -> bool:
    """True when float64 computes every score and step of the exact run exactly, in any summation order.

    Every value is dyadic. For one weight vector w and one sample x~, each
    product w_j·x~_j is a multiple of g = 2^-(a+b), where 2^a and 2^b are the
    largest denominators of w and of x~; every partial sum of any order is a
    sum of some of the products, so if Σ_j |w_j·x~_j| < 2^53·g, no product and
    no sum rounds. A step w + y·x~ is exact when the new weights hold in 53
    bits, which is checked on the next weights. A rate p/2^k multiplies each
    product by |p|: it is folded into the weights.

    Examples
    --------
    >>> from verify_perceptron.data.dataset import from_arrays
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> from verify_perceptron.run.reference import train
    >>> near = from_arrays([["-1"], ["1"], [str(Fraction(1, 2**30))]], [-1, 1, 1])
    >>> _float_exact(near, get_convention("classic"), train(near, "classic"), None)
    True
    >>> thirds = from_arrays([["-1"], ["1/3"]], [-1, 1])
    >>> _float_exact(thirds, get_convention("classic"), train(thirds, "classic"), None)
    False
    """
    if any(v.denominator & (v.denominator - 1) for x in data.X for v in x):
        return False
    # A short dyadic rate (1/2, 3/4) multiplies every product by its numerator. A long one (the double
    # nearest to 0.1) rounds its steps whatever the data: that is the configuration's doing, reported
    # as such, so the data are judged at rate 1.
    scale = 1
    if rate is not None and not rate.denominator & (rate.denominator - 1) and abs(rate.numerator) < 2**8:
        scale = abs(rate.numerator)
    rows = [(conv.augment(x), max(v.denominator for v in conv.augment(x))) for x in data.X]
    limit = 2**_FLOAT_BITS
    previous = [Fraction(0)] * len(rows[0][0])
    for update in (None, *reference.updates):
        w = [scale * v for v in update.weights] if update else previous
        grid_w = max(v.denominator for v in w)
        if any(abs(v * grid_w) >= limit for v in w):
            return False
        for row, grid_x in rows:
            if sum(abs(a * b) for a, b in zip(w, row)) * grid_w * grid_x >= limit:
                return False
        if update is not None and len(update.samples) > 1 and not _sums_exact(previous, [rows[i] for i in update.samples],
                                                                               scale * conv.step_factor, limit):
            return False
        previous = w
    return True


def _sums_exact(w: list[Fraction], rows: Sequence[tuple[Sequence[Fraction], int]], scale: int, limit: int) -> bool:
    """True when every partial sum of a batch step (the weights `w` and the steps of `rows`, at the folded
    rate `scale`, in any order) holds in 53 bits: each is a multiple of the finest grid among them and at
    most Σ of their magnitudes, coordinate by coordinate."""
    grid = max([v.denominator for v in w] + [g for _, g in rows])
    return all((abs(w[j]) + scale * sum(abs(row[j]) for row, _ in rows)) * grid < limit for j in range(len(w)))


def _doubles(data: Dataset) -> list[list[float]] | None:
    """The samples as the doubles nearest to their values; None when a value is past the largest double."""
    X: list[list[float]] = []
    for row in data.X:
        doubles = [d for d in map(nearest_float, row) if d is not None]
        if len(doubles) < len(row):
            return None
        X.append(doubles)
    return X


def halves_step(conv: Convention, labels: str) -> bool:
    """Whether code computing the note's η·(d - y) on the labels it is given steps by η, half the note's 2η:
    a hard limiter's rule (d - y = ±2 on labels ±1) given labels 0/1, where d - y is ±1.

    Examples
    --------
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> halves_step(get_convention("hard-limiter-plus"), "0/1"), halves_step(get_convention("hard-limiter"), "-1/+1")
    (True, False)
    """
    return labels == "0/1" and conv.step_factor == 2


def code_rate(conv: Convention, factor: Fraction, labels: str) -> Fraction:
    """The rate code was written with, from `factor`, its weights over the exact run's at rate 1 (twice the
    factor where `halves_step`: its steps of η are the note's 2η at η/2)."""
    return 2 * factor if halves_step(conv, labels) else factor


def short_decimals(ratio: Fraction) -> list[Fraction]:
    """The decimals of 1, 2 and 3 significant digits nearest to a positive `ratio`, each once, exactly (none for
    a ratio float64 cannot hold: past its range, or so small it rounds to 0).

    Examples
    --------
    >>> short_decimals(Fraction(1, 101))
    [Fraction(1, 100), Fraction(99, 10000)]
    """
    try:
        value = float(ratio)
    except OverflowError:  # a ratio past the doubles is no rate a program was written with
        return []
    if value <= 0:
        return []
    return list(dict.fromkeys(Fraction(f"{value:.{digits}g}") for digits in (1, 2, 3)))


def short_rates(rate: Fraction) -> list[Fraction]:
    """`rate` and the doubles nearest to its `short_decimals`: the rate code was written with, from one its
    weights show (float64's steps round it: 0.0099999... -> 0.01).

    Examples
    --------
    >>> [float(r) for r in short_rates(Fraction(1, 101))]
    [0.009900990099009901, 0.01, 0.0099]
    """
    if rate <= 0 or not Fraction(1, 10**300) < rate < 10**300:  # (a Fraction past the doubles has no float)
        return [rate]
    return [rate, *(Fraction(float(decimal)) for decimal in short_decimals(rate))]


def rates_shown(data: Dataset, conv: Convention, weights: Vector, labels: str, max_epochs: int) -> list[Fraction]:
    """The double rates (`short_rates` of what the weights show against the exact run, the shortest decimal
    first) at which the note's algorithm in float64 ends at `weights` on `data`."""
    from ..run.reference import train

    reference = train(data, conv.name, max_epochs=max_epochs).final_weights
    j = next((j for j, v in enumerate(reference) if v != 0), None)
    if j is None or weights[j] / reference[j] <= 0:
        return []
    raw, *short = short_rates(code_rate(conv, weights[j] / reference[j], labels))
    return [rate for rate in dict.fromkeys([*short, raw])
            if _double(rate) is not None and float_sums(data, conv, rate, max_epochs, labels, weights) is not None]


def summed(sums: str) -> str:
    """Words for a float run's order of sums where it is not the usual one (`SUMS`).

    Examples
    --------
    >>> summed("bias-last"), summed("bias-first")
    ('', ', each score summed from the bias (s = b, then s += w_j·x_j)')
    """
    if sums == "numpy":
        return ", each score NumPy's w @ x (as its BLAS computes it on this machine), then the bias"
    return ", each score summed from the bias (s = b, then s += w_j·x_j)" if sums == "bias-first" else ""


def summed_how(sums: str) -> str:
    """How a float run sums each score, in words, either way (`SUMS`)."""
    if sums == "numpy":
        return "NumPy's w @ x (as its BLAS computes it on this machine), then the bias"
    return "summed from the bias" if sums == "bias-first" else "products added in order, then the bias"


def float_sums(data: Dataset, conv: Convention, rate: Fraction, max_epochs: int, labels: str,
               weights: Vector) -> str | None:
    """The order of `SUMS` in which the note's float64 run at `rate` ends at `weights` on `data`, or None.

    Examples
    --------
    >>> from verify_perceptron.data.dataset import from_arrays
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> data, conv = from_arrays([["2", "1"], ["1", "3/2"]], [1, -1]), get_convention("classic")
    >>> [float_sums(data, conv, Fraction(1, 10), 100, "-1/+1", _float_run(data, conv, Fraction(1, 10), 100,
    ...                                                                    sums=order)[0]) for order in SUMS[:2]]
    ['bias-last', 'bias-first']
    """
    return next((order for order in SUMS
                 if _float_run(data, conv, rate, max_epochs, labels, sums=order)[0] == weights), None)


def float_fit(pairs: Sequence[tuple[Dataset | None, Vector]], conv: Convention, candidates: Sequence[Fraction],
              max_epochs: int, labels: str = "-1/+1") -> tuple[Fraction, str] | None:
    """The first of the `candidates` rates that is a double, and the first order of `SUMS`, at which the note's
    float64 run ends at each pair's weights on its data (a pair without data fits none); None where none does.

    Examples
    --------
    >>> from verify_perceptron.data.dataset import from_arrays
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> data, conv = from_arrays([["2", "1"], ["1", "3/2"]], [1, -1]), get_convention("classic")
    >>> first = _float_run(data, conv, Fraction(1, 10), 100, sums="bias-first")[0]
    >>> float_fit([(data, first)], conv, [Fraction(1, 10), Fraction(0.1)], 100)  # 1/10 is no double
    (Fraction(3602879701896397, 36028797018963968), 'bias-first')
    """
    for candidate in dict.fromkeys(candidates):
        if _double(candidate) is None:  # no double is that rate (0.1, or past the doubles' range)
            continue
        for sums in SUMS:
            if all(data is not None and _float_run(data, conv, candidate, max_epochs, labels, sums=sums)[0] == weights
                   for data, weights in pairs):
                return candidate, sums
    return None


def capped_float_fit(pairs: Sequence[tuple[Dataset, Vector]], conv: Convention, candidates: Sequence[Fraction],
                     max_epochs: int, labels: str = "-1/+1") -> tuple[Fraction, str, int] | None:
    """As `float_fit`, with a cap of T epochs: the first rate, order of `SUMS` and the least T at which the note's
    float64 run stopped after epoch T (or converged before it) ends at each pair's weights, T binding on one pair at
    least (code that runs a fixed number of epochs); None where none does.

    Examples
    --------
    >>> from verify_perceptron.data.dataset import from_arrays
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> data, conv = from_arrays([["2", "1"], ["1", "3/2"], ["-1", "1"]], [1, -1, 1]), get_convention("classic")
    >>> ends: list[Vector] = []
    >>> _ = _float_run(data, conv, Fraction(0.1), 100, ends=ends)
    >>> len(ends) > 2, capped_float_fit([(data, ends[1])], conv, [Fraction(0.1)], 100)
    (True, (Fraction(3602879701896397, 36028797018963968), 'bias-last', 2))
    """
    for candidate in dict.fromkeys(candidates):
        if _double(candidate) is None:
            continue
        for sums in SUMS:
            allowed: list[tuple[set[int], int | None]] = []  # per pair: the caps that fit, and "every T from"
            for data, weights in pairs:
                ends: list[Vector] = []
                final = _float_run(data, conv, candidate, max_epochs, labels, ends=ends, sums=sums)[0]
                if final is None:
                    break
                allowed.append(({t for t, end in enumerate(ends[:-1], 1) if end == weights},
                                len(ends) if final == weights else None))
            else:
                caps = sorted(set().union(*(binding for binding, _ in allowed)))
                fits = [T for T in caps if all(T in binding or (start is not None and T >= start)
                                               for binding, start in allowed)]
                if fits:
                    return candidate, sums, fits[0]
    return None


def _float_run(data: Dataset, conv: Convention, rate: Fraction, max_epochs: int, labels: str = "-1/+1", *,
               start: tuple[float, Sequence[float]] | None = None, ends: list[Vector] | None = None,
               sums: str = "bias-last") -> tuple[Vector | None, FloatDecision | None, str | None]:
    """The note's perceptron in float64 (each score summed in the order `sums` names, `SUMS`) beside the exact one.

    Both runs visit the samples in the same order and make the same decisions
    until float64 first decides a sample differently: that visit is returned
    with the exact run's score and the float64 run's. Also returned: the float
    run's final weights (exactly, in the convention's coordinates), and the
    first update whose step float64 rounded, or what ended the float run early.
    The final weights are None when there is no float64 run to speak of: the
    rate or a value is past the largest double, or below the least (a rate of
    0), or a score or a weight overflows on the way (float64 then holds
    ``inf``, which no implementation returns as weights). `labels` are the
    ones the implementation was given: on 0/1 a hard limiter's code steps by
    the rate itself (`halves_step`). `start`: canonical ``(b, v)`` (default 0,
    for both runs); `ends` gets the weights at each epoch's end.

    Examples
    --------
    >>> from verify_perceptron.data.dataset import from_arrays
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> tie = from_arrays([["-1"], ["1"]], [-1, 1])
    >>> _float_run(tie, get_convention("classic"), Fraction(1), 100)[0], _float_run(tie, get_convention("classic"),
    ...            Fraction(1), 100, start=(0.5, [0.0]))[0]
    ((Fraction(0, 1), Fraction(2, 1)), (Fraction(-1, 2), Fraction(1, 1)))
    >>> _float_run(tie, get_convention("classic"), Fraction(10**400), 100)
    (None, None, 'the rate 1e+400 is past the largest double: float64 has no such rate')
    """
    a = conv.step_size(rate) / (2 if halves_step(conv, labels) else 1)
    a_float = nearest_float(a)
    if a_float is None or a_float == 0:
        where = "past the largest double" if a_float is None else "below the least double"
        return None, None, f"the rate {_approx(rate)} is {where}: float64 has no such rate"
    X = _doubles(data)
    if X is None:
        return None, None, "a value of the data is past the largest double"
    b, v = (0.0, [0.0] * data.n_features) if start is None else (start[0], list(start[1]))  # canonical: v·x + b
    exact_v, exact_b = [Fraction(w) for w in v], Fraction(b)
    first: FloatDecision | None = None
    rounded: str | None = None
    k = 0
    seen: set[tuple[float, ...]] = set()
    for epoch in range(1, max_epochs + 1):
        clean = True
        for i, (x, label) in enumerate(zip(X, data.y)):
            s = _score(v, x, b, sums)
            if not math.isfinite(s):  # inf, or inf - inf: float64 holds no score here
                return None, first, (f"at update {k + 1} (epoch {epoch}, sample {i}) the float64 score "
                                     f"overflows ({s!r})")
            mistake = _is_mistake(conv, Fraction.from_float(s), label)
            if first is None:
                exact = dot(exact_v, data.X[i]) + exact_b
                exact_mistake = _is_mistake(conv, exact, label)
                if exact_mistake != mistake:
                    first = FloatDecision(k + 1, epoch, i, exact, s, exact_mistake)
                elif exact_mistake:  # the same decision: the exact run takes the same step
                    exact_v = [wj + a * label * xj for wj, xj in zip(exact_v, data.X[i])]
                    exact_b += a * label
            if not mistake:
                continue
            k, clean = k + 1, False
            step = a_float * label
            new_v, new_b = [wj + step * xj for wj, xj in zip(v, x)], b + step
            new = (*new_v, new_b)
            if not all(math.isfinite(w) for w in new):
                return None, first, f"at update {k} (epoch {epoch}, sample {i}) a float64 weight overflows"
            if rounded is None:
                rounded = _rounded_step((*v, b), (*x, 1.0), a * label, new, f"update {k} (epoch {epoch}, sample {i})")
            v, b = new_v, new_b
        state = (b, *v)
        if ends is not None:
            ends.append(conv.from_canonical(Fraction(b), tuple(Fraction(w) for w in v)))
        if clean or state in seen:
            break
        seen.add(state)
    return conv.from_canonical(Fraction(b), tuple(Fraction(w) for w in v)), first, rounded


def _score(v: Sequence[float], x: Sequence[float], b: float, sums: str) -> float:
    """The float64 score v·x + b summed in the order `sums` names (`SUMS`)."""
    if sums == "numpy":
        return float(np.dot(np.array(v, dtype=np.float64), np.array(x, dtype=np.float64))) + b
    s = b if sums == "bias-first" else 0.0
    for wj, xj in zip(v, x):
        s += wj * xj
    return s if sums == "bias-first" else s + b


def _rounded_step(old: tuple[float, ...], x: tuple[float, ...], step: Fraction, new: tuple[float, ...],
                  when: str) -> str | None:
    """Where float64 rounded the step old + step·x (the bias last, its x 1) to `new`, in words; None where it did not.

    Examples
    --------
    >>> _rounded_step((1.0, 0.0), (2.0**-60, 1.0), Fraction(1), (1.0 + 2.0**-60, 1.0), "update 1")
    'update 1: float64 rounded the step on w1: exactly 1152921504606846977/1152921504606846976, float64 1.0 (1)'
    >>> _rounded_step((1.0, 0.0), (0.5, 1.0), Fraction(1), (1.5, 1.0), "update 1") is None
    True
    """
    want = [Fraction(w) + step * Fraction(xj) for w, xj in zip(old, x)]
    j = next((j for j in range(len(new)) if want[j] != Fraction(new[j])), None)
    if j is None:
        return None
    where = f"w{j + 1}" if j < len(new) - 1 else "the bias"
    return (f"{when}: float64 rounded the step on {where}: exactly {_number(want[j])}, float64 {new[j]!r} "
            f"({_number(Fraction(new[j]))})")


def _rounding_notes(data: Dataset, conv: Convention, weights: Vector, rate: Fraction,
                    max_epochs: int, labels: str = "-1/+1") -> tuple[FloatDecision | None, list[str]]:
    """Where float64 changes a decision of this run, and whether that explains the implementation's output.

    Returns the first decision float64 changed (None when none did, or when
    `rate` is not a double) and the notes that say so.
    """
    if _double(rate) is None:
        return None, []  # not a float64 rate: no float64 run to compare with
    sums = float_sums(data, conv, rate, max_epochs, labels, weights) or "bias-last"  # the one that explains it
    final, first, rounded = _float_run(data, conv, rate, max_epochs, labels, sums=sums)
    explains = final == weights
    if final is None:
        return first, ([] if rounded is None else [f"float rounding: a float64 run at rate {_rate_text(rate)} "
                                                   f"ends early: {rounded}"])
    if first is None and not (rounded is not None and explains):
        return None, []
    notes = []
    if first is not None:
        how = summed_how(sums)
        notes.append(f"float rounding: a float64 run of the same algorithm (rate {_rate_text(rate)}, each score "
                     f"{how}) first decides differently from the exact run {first.describe()}")
    if rounded is not None:
        notes.append(f"float rounding: in that float64 run, {rounded}")
    notes.append(f"float rounding: the float64 run ends at {_vec(final)}, which "
                 + ("is exactly the implementation's result: float rounding explains the difference from "
                    "the exact run" if explains else "is not the implementation's result either"))
    return first, notes
