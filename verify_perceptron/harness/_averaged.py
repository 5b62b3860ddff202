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
    return averaged_weights(reference, data.n_samples, options.max_epochs)


def averaged_agreement(data: Dataset, conv: Convention, reference: Trace, weights: Vector,
                       options: CheckOptions) -> tuple[list[Finding], Fraction]:
    """The finding when `weights` are not c times the exact average (c the declared rate, else the one
    the weights show), and c."""
    target = averaged_reference(data, reference, options)
    # a float64 implementation divides the sum in float64: its weights are the doubles nearest to the average
    fits = explained([Observation(data, weights)], lambda _: [target], options.eta, rounded=options.dtype == "float")
    if fits is not None:
        return [], fits
    c = options.eta or _factor(weights, target, conv) or Fraction(1)
    over = (f"exactly {_count(options.max_epochs, 'epoch')}" if options.max_epochs else
            f"the {_count(reference.n_epochs, 'epoch')} up to the first without a mistake")
    return [Finding("agrees-with-reference",
                    f"the final weights {_vec(weights)} {_names(conv, data)} are not {_number(c)} times the exact averaged "
                    f"weights {_vec(target)} (the average over every presentation of {over}, learning rate 1)")], c
