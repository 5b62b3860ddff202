"""agrees-with-reference for an implementation that returns the averaged perceptron's weights: c times
the exact run's average over every presentation (`run.averaged`), c > 0 its learning rate. The
averaged weights need not separate the data, so final-weights-separate is not checked for it."""

from __future__ import annotations

from fractions import Fraction

from ..data.dataset import Dataset
from ..data.trace import Trace
from ..notes.conventions import Convention
from ..run.averaged import averaged_weights
from ._evidence import Observation, explained
from ._exact import Vector, _factor
from ._options import CheckOptions
from ._results import Finding
from ._wording import _count, _names, _number, _vec


def averaged_reference(data: Dataset, reference: Trace, options: CheckOptions) -> Vector:
    """The exact averaged weights at learning rate 1: over exactly `max_epochs` epochs when declared."""
    return averaged_weights(reference, data.n_samples, options.max_epochs, options.average)


def averaged_agreement(data: Dataset, conv: Convention, reference: Trace, weights: Vector,
                       options: CheckOptions) -> tuple[list[Finding], Fraction]:
    """The finding when `weights` are not c times the exact average (c the declared rate, else the one
    the weights show), and c."""
    target = averaged_reference(data, reference, options)
    # a float64 implementation divides the sum in float64: its weights are the doubles nearest to the average
    fits = explained([Observation(data, weights)], lambda _: [target], options.eta, rounded=options.dtype == "float")
    if fits is None and options.dtype == "float" and options.average == "start":
        C = reference_presentations(data, reference, options) + 1
        fits = _counter_rounding(weights, target, reference.final_weights, C, options.eta)
    if fits is not None:
        return [], fits
    c = options.eta or _factor(weights, target, conv) or Fraction(1)
    over = (f"exactly {_count(options.max_epochs, 'epoch')}" if options.max_epochs else
            f"the {_count(reference.n_epochs, 'epoch')} up to the first without a mistake")
    what = {"presentations": "every presentation", "start": "every presentation and the start w = 0",
            "epochs": "the ends of", "updates": "every update of"}[options.average]
    return [Finding("agrees-with-reference",
                    f"the final weights {_vec(weights)} {_names(conv, data)} are not {_number(c)} times the exact averaged "
                    f"weights {_vec(target)} (the average over {what}{'' if what.endswith('of') else ' of'} {over}, learning rate 1)")], c


def reference_presentations(data: Dataset, reference: Trace, options: CheckOptions) -> int:
    """P: the presentations the average runs over (the run's epochs, or exactly the declared ones)."""
    return data.n_samples * (options.max_epochs or reference.n_epochs)


def counter_average(final: Vector, average: Vector, C: int, c: Fraction) -> Vector | None:
    """What float64 makes of c times the average by a counter from 1 (Daumé's course: u += counter·y·x~ at each
    update, the counter C = P + 1 at the end, and w - u/C returned): each coordinate fl(c·w_j - fl(c·u_j / C)),
    u = C·(w - w̄) exactly. Two roundings, so it can be a double away from the one nearest to c·w̄. None when
    float64 cannot hold c·w or c·u exactly (the implementation's sums rounded as well: nothing is claimed).

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> [str(v) for v in counter_average((F(0), F(2)), (F(-1, 5), F(7, 5)), 5, F(1))]
    ['-3602879701896397/18014398509481984', '3152519739159347/2251799813685248']
    """
    result = []
    for f, m in zip(final, average):
        cw, cu = _double(c * f), _double(c * C * (f - m))
        if cw is None or cu is None:
            return None
        result.append(Fraction(cw - cu / C))
    return tuple(result)


def _double(value: Fraction) -> float | None:
    """`value` as a double when float64 holds it exactly, else None."""
    try:
        double = float(value)
    except OverflowError:
        return None
    return double if Fraction(double) == value else None


def _counter_rounding(weights: Vector, target: Vector, final: Vector, C: int, rate: Fraction | None) -> Fraction | None:
    """c when `weights` are `counter_average` of the exact average at c (the declared rate, else the one the
    largest coordinate shows); None when they are not."""
    j = max(range(len(target)), key=lambda i: abs(target[i]))
    if target[j] == 0:
        return None
    c = rate if rate is not None else (weights[j] / target[j]).limit_denominator(10**6)
    return c if c > 0 and counter_average(final, target, C, c) == tuple(weights) else None
