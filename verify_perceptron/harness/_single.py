"""The note's perceptron in single precision (float32), as NumPy float32, PyTorch and JAX code computes it.

Code written with float32 arrays (PyTorch's and JAX's default) rounds every product and sum to 24 bits. On the
harness's data its weights are then float32 values whose coefficients Σ a_i·y_i·x_i are counts only to float32's
precision, so neither a float64 run nor the test of `_reachable.incommensurate` (which allows float64's rounding)
tells what it is. `single_rate` runs the note's perceptron in float32, each score summed in either order of
`_floats.SUMS`, at the rates the weights suggest, and names the one that ends at the implementation's weights on
every dataset.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from ..data.dataset import Dataset
from ..data.exact_text import nearest_float
from ..notes.conventions import Convention
from ._evidence import Observation
from ._exact import Vector, _is_mistake
from ._floats import SUMS, halves_step, short_rates

#: The most datasets a float32 model is run on.
MAX_SINGLE = 30


#: The orders a float32 run sums its scores in: `_floats.SUMS`' loops (NumPy's own order is its float64 BLAS's).
SINGLE_SUMS = SUMS[:2]

def as_single(weights: Vector) -> Vector | None:
    """The float32 values the weights are, exactly or as printed: each weight a float32 value (written in full, as
    ``%.17g`` of a double does), or the decimal that float32's nearest value prints as with ``%.9g`` (C's
    round trip) or with the fewest digits (NumPy's and PyTorch's ``repr``), or the double nearest that decimal
    (as the harness reads a float program's output); None where a weight is neither.

    Examples
    --------
    >>> [str(w) for w in as_single((Fraction(3, 2), Fraction("0.100000001"), Fraction(0.200000003)))]
    ['3/2', '13421773/134217728', '13421773/67108864']
    >>> as_single((Fraction(1, 3),)) is None, as_single((Fraction(0.1) + Fraction(1, 2**60),)) is None
    (True, True)
    """
    found = []
    for w in weights:
        double = nearest_float(w)
        if double is None:
            return None
        with np.errstate(over="ignore"):
            single = np.float32(double)
        if not math.isfinite(single):
            return None
        exact = Fraction(float(single))
        texts = (format(float(single), ".9g"), str(single), *_in_an_array(single))  # C's %.9g; NumPy's fewest digits
        printed = {Fraction(t) for t in texts} | {Fraction(float(t)) for t in texts}  # (read as a double, too)
        if w != exact and w not in printed:
            return None
        found.append(exact)
    return tuple(found)


def _in_an_array(single: Any) -> tuple[str, ...]:
    """The texts NumPy's print of a float32 array may give `single` (all its elements written with as many digits as
    the one that needs most, up to 8 after the point, positional or in scientific notation), those that still read
    back as `single` in float32.

    Examples
    --------
    >>> "7.4999943e-02" in _in_an_array(np.float32(0.07499994337558746))  # [ 1.4901161e-08 -5.9999996e-01  7.4999943e-02]
    True
    """
    return tuple(dict.fromkeys(text for k, unique, text in _array_texts(single)
                               if k >= 1 and not unique and np.float32(text) == single))


def _array_texts(single: Any) -> list[tuple[int, bool, str]]:
    """Every way NumPy's print of a float32 array may write `single`: ``(k, unique, text)``, k digits at most after
    the point, positional or scientific, padded from the exact value (``unique=False``) or its shortest digits cut
    to k (``unique=True``)."""
    return [(k, unique, form(single, precision=k, unique=unique))
            for k in range(9) for form in (np.format_float_positional, np.format_float_scientific)
            for unique in (False, True)]


def is_single(weights: Vector) -> bool:
    """Whether the weights show float32 arithmetic: every one a float32 value, exactly or as printed (`as_single`),
    and either all exactly (a float64 sigmoid learner's are not) or one at least printed with 7 significant digits
    or more (short decimals, ``%g``'s six digits, are no evidence).

    Examples
    --------
    >>> is_single((Fraction(3, 2), Fraction(float(np.float32(0.3))))), is_single((Fraction("0.70000005"),))
    (True, True)
    >>> is_single((Fraction("0.123457"), Fraction("0.5"))), is_single((Fraction(2, 3),))  # %g's digits; no float32
    (False, False)
    """
    found = as_single(weights)
    return found is not None and _shows_single(weights, found)


def _shows_single(weights: Vector, found: Vector) -> bool:
    """`is_single` of `weights` that read as the float32 values `found`."""
    return found == tuple(weights) or any(len(_digits(w)) >= 7 for w in weights)


def _digits(w: Fraction) -> str:
    """The significant digits of `w` as the double nearest it prints with the fewest (``0.70000005`` ->
    ``70000005``)."""
    return repr(float(w)).split("e")[0].replace("-", "").replace(".", "").strip("0")


def single_run(data: Dataset, conv: Convention, rate: Fraction, max_epochs: int, labels: str = "-1/+1",
               sums: str = "bias-last") -> Vector | None:
    """The note's perceptron in float32 from 0: every value and the step rounded to float32, each score summed in
    the order `sums` names (`_floats.SUMS`), each step's products added to the weights; its final weights in the
    convention's coordinates, or None where a value or the step is no finite nonzero float32.

    Examples
    --------
    >>> from verify_perceptron.data.dataset import from_arrays
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> data = from_arrays([["3"], ["-1"]], [1, -1])  # (b, w) = (0.1, 0.3) exactly: float32 ends near them
    >>> [str(w) for w in single_run(data, get_convention("classic"), Fraction(1, 10), 100)]
    ['13421773/134217728', '5033165/16777216']
    """
    a = nearest_float(conv.step_size(rate) / (2 if halves_step(conv, labels) else 1))
    with np.errstate(over="ignore"):
        step32 = np.float32(a) if a is not None else np.float32(np.inf)
        X = [[np.float32(float(v)) for v in x] for x in data.X]
    if not np.isfinite(step32) or step32 == 0 or not all(np.isfinite(v) for x in X for v in x):
        return None
    zero = np.float32(0)
    v: list[Any] = [zero] * data.n_features
    b: Any = zero
    seen: set[tuple[float, ...]] = set()
    with np.errstate(over="ignore", invalid="ignore"):
        for _ in range(max_epochs):
            clean = True
            for x, label in zip(X, data.y):
                s = b if sums == "bias-first" else zero
                for wj, xj in zip(v, x):
                    s = s + wj * xj
                if sums != "bias-first":
                    s = s + b
                if not np.isfinite(s):
                    return None
                if not _is_mistake(conv, Fraction(float(s)), label):
                    continue
                clean = False
                step = step32 * np.float32(label)
                v, b = [wj + step * xj for wj, xj in zip(v, x)], b + step
            state = (float(b), *(float(w) for w in v))
            if clean or state in seen:
                break
            seen.add(state)
    if not all(np.isfinite(w) for w in (b, *v)):
        return None
    return conv.from_canonical(Fraction(float(b)), tuple(Fraction(float(w)) for w in v))


def single_readings(observations: list[Observation]) -> list[Vector] | None:
    """The float32 values (`as_single`) of the weights of the datasets a float32 model is run on (at most
    `MAX_SINGLE`), when they all read so and one dataset's at least show float32 arithmetic (`is_single`); else
    None (short decimals alone, %g's, read as float32 values too, but show no float32 arithmetic)."""
    used = observations[:MAX_SINGLE]
    seen = [as_single(o.weights) for o in used]
    found = [w for w in seen if w is not None]
    if not used or len(found) < len(seen) or not any(_shows_single(o.weights, w) for o, w in zip(used, found)):
        return None
    return found


def single_rate(observations: list[Observation], readings: list[Vector], conv: Convention, rate: Fraction,
                max_epochs: int, labels: str = "-1/+1", declared: bool = False) -> tuple[Fraction, str] | None:
    """The rate (the declared one, else `rate`'s short decimals, then `rate`) and the order of sums at which
    `single_run` ends at the `readings` (`single_readings`) of the first datasets tried; or None."""
    raw, *short = short_rates(rate)
    for candidate in [rate] if declared else dict.fromkeys([*short, raw]):
        for sums in SINGLE_SUMS:
            if all(same_single(single_run(o.data, conv, candidate, max_epochs, labels, sums), w, o.weights)
                   for o, w in zip(observations, readings)):
                return candidate, sums
    return None


def same_single(run: Vector | None, reading: Vector, weights: Vector) -> bool:
    """Whether a float32 run's weights are the implementation's: its float32 values (`reading`), or the `weights`
    as NumPy prints a float32 array (each value's shortest float32 digits, at most 8 after the point: 0.099999994 as
    0.09999999, which reads back as another float32; or in scientific notation), read back as doubles.

    Examples
    --------
    >>> run = (Fraction(float(np.float32(0.099999994))), Fraction(float(np.float32(-0.15))))
    >>> printed = (Fraction(float("0.09999999")), Fraction(float("-0.15")))
    >>> same_single(run, as_single(printed), printed)
    True
    >>> same_single(run, as_single(printed[:1] + (Fraction(-1, 8),)), printed[:1] + (Fraction(-1, 8),))
    False
    """
    if run is None or len(run) != len(weights):
        return False
    return run == reading or all(w in _array_readings(v) for w, v in zip(weights, run))


def _array_readings(value: Fraction) -> set[Fraction]:
    """The doubles NumPy's prints of the float32 `value` in an array read back as (`same_single`)."""
    return {Fraction(float(text)) for _, _, text in _array_texts(np.float32(float(value)))}
