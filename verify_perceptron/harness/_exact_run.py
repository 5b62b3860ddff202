"""The exact run a case is judged against, and when a generated dataset is set aside instead (`_Rejected`)."""

from __future__ import annotations

from dataclasses import dataclass

from ..certify.certificates import certificate_from_cycle
from ..certify.separability import decide_separability
from ..data.dataset import Dataset
from ..data.exact_text import exact_text
from ..data.trace import Trace
from ..errors import InvalidArgument
from ..notes.conventions import Convention
from ..run.reference import train
from ._exact import Vector
from ._floats import _float_exact
from ._options import REFERENCE_EPOCHS, CheckOptions


class _Rejected(Exception):
    """A generated dataset the harness does not use (the exact run is too slow, or floats would round)."""


@dataclass(frozen=True)
class _ExactRun:
    """The exact run (learning rate 1) on a case's data, and whether the data are separable.

    Attributes
    ----------
    trace : Trace
        The run; on non-separable data, as far as it went.
    separable : bool
        Whether the data are linearly separable (decided exactly).
    certificate : tuple of Fraction or None
        Gordan's certificate λ when they are not.
    """

    trace: Trace
    separable: bool = True
    certificate: Vector | None = None


def _exact_run(data: Dataset, conv: Convention, options: CheckOptions, name: str, *, generated: bool) -> _ExactRun:
    """The exact run on the data of case `name`: `_Rejected` when a generated dataset is not usable,
    `InvalidArgument` when given data cannot be checked."""
    from ..run import fast

    if generated:  # the implementation's own limit, and the harness's time budget
        budget = min(options.max_epochs or REFERENCE_EPOCHS, REFERENCE_EPOCHS)
    else:
        budget = max(options.max_epochs or 0, 100_000)
    separable, certificate = True, None
    # The fast exact engine (the same run, tested so) finds how long the run is; the reference
    # engine then records it: it is never run on data that will be set aside.
    probe = fast.run(data, conv, max_epochs=budget, keep_updates=0)
    if probe.stop in ("converged", "cycle"):
        run = train(data, conv, max_epochs=probe.n_epochs)
        if run.stop == "cycle":
            separable, certificate = False, certificate_from_cycle(run)
    else:
        decided = decide_separability(data, time_limit=10.0)
        if decided.separable is not False:
            if generated:
                raise _Rejected(f"the exact run needs more than {budget} epochs")
            raise InvalidArgument(f"the exact run on {name} does not converge within {budget} epochs")
        separable, certificate = False, decided.gordan
        run = probe
    if not separable and not options.detects_nonseparable:
        if generated:
            raise _Rejected("not separable")
        lam = ", ".join(exact_text(v) for v in certificate or ())
        raise InvalidArgument(f"the data of {name} are not linearly separable (Gordan's certificate λ = [{lam}]); "
                              "pass detects_nonseparable=True to check that the implementation signals that")
    if (generated and options.dtype == "float" and not options.rounding_stress and separable
            and not _float_exact(data, conv, run, options.eta)):
        raise _Rejected("float64 would round a score of the exact run")
    return _ExactRun(run, separable, certificate)
