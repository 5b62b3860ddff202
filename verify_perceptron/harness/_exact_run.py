"""The exact run a case is judged against, and when a generated dataset is set aside instead (`_Rejected`).

With a declared epoch limit T (``max_epochs``) the run judged against is the
note's run stopped after exactly T epochs, converged or not, as the
implementation stops: a one-pass learner (T = 1) is compared with the weights
after one pass. In batch mode (``mode="batch"``) the run is note 003's batch run. The run to convergence is still made, to decide that the
data are separable and to give the proof's invariants a separator."""

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
        The run judged against: stopped after the declared epoch limit when there is one; on
        non-separable data, as far as it went.
    separable : bool
        Whether the data are linearly separable (decided exactly).
    certificate : tuple of Fraction or None
        Gordan's certificate λ when they are not.
    converged : Trace or None
        The run to convergence when `trace` was stopped before it (None: `trace` is that run).
    """

    trace: Trace
    separable: bool = True
    certificate: Vector | None = None
    converged: Trace | None = None

    @property
    def full(self) -> Trace:
        """The run to convergence (or as far as it went): its final weights separate separable data."""
        return self.converged or self.trace

    @property
    def capped(self) -> bool:
        """Whether the declared epoch limit stopped the run judged against before it converged."""
        return self.converged is not None


def _exact_run(data: Dataset, conv: Convention, options: CheckOptions, name: str, *, generated: bool) -> _ExactRun:
    """The exact run on the data of case `name`: `_Rejected` when a generated dataset is not usable,
    `InvalidArgument` when given data cannot be checked."""
    from ..run import fast

    if generated:  # the harness's time budget (a declared limit caps the run compared with, below)
        budget = REFERENCE_EPOCHS
    else:
        budget = max(options.max_epochs or 0, 100_000)
    separable, certificate = True, None
    # The fast exact engine (the same run, tested so) finds how long the run is; the reference
    # engine then records it: it is never run on data that will be set aside.
    mode = options.mode
    probe = fast.run(data, conv, mode=mode, max_epochs=budget, keep_updates=0)
    if probe.stop in ("converged", "cycle"):
        run = train(data, conv, mode=mode, max_epochs=probe.n_epochs)
        if run.stop == "cycle":
            separable, certificate = False, certificate_from_cycle(run)
    else:
        decided = decide_separability(data)  # no cap: a proposal checked exactly usually answers at once
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
    converged = None
    if separable and options.max_epochs is not None and run.n_epochs > options.max_epochs:
        # the implementation stops after T epochs, converged or not: so does the run it is compared with
        converged, run = run, train(data, conv, mode=mode, max_epochs=options.max_epochs)
    if (generated and options.dtype == "float" and not options.rounding_stress and separable
            and not _float_exact(data, conv, run, options.eta)):
        raise _Rejected("float64 would round a score of the exact run")
    return _ExactRun(run, separable, certificate, converged)
