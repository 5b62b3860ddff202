"""verify_perceptron: the perceptron convergence theorem, checked exactly.

The data flow one way, one module each::

    rationals -> dataset -> conventions -> engine, fast -> trace -> bounds -> claims -> checks
    -> certificates, separability, maxmargin, comparison -> report -> cli

(the SymPy proofs in `verify_perceptron.proofs` sit beside the chain and load only on demand).

Examples
--------
>>> import verify_perceptron as vp
>>> data = vp.example("and")
>>> trace = vp.train(data, "classic")
>>> [str(w) for w in trace.final_weights]
['-4', '3', '2']
>>> vp.check_trace(data, trace).holds
True
"""

from __future__ import annotations

__version__ = "0.1.0"

from .notes.bounds import Geometry, NoteBound, geometry, note_bound, note_bounds
from .certify.certificates import certificate_from_cycle, gordan_defect
from .check.checker import Checker, CheckResult, InvariantResult, Violation, assert_trace_verified, check_trace, verify_run
from .notes.claims import CLAIMS, Claim, claims_for
from .notes.conventions import CONVENTIONS, Convention, get_convention
from .data.dataset import Dataset, from_arrays, load_csv, load_dataset, load_libsvm, load_numpy
from .run.reference import train
from .errors import DataError, InvalidArgument, InvariantViolation, VerifyPerceptronError
from .data.examples import EXAMPLES, example
from .data.rationals import parse_rational
from .certify.comparison import BoundComparison, compare_bounds, order_statistics
from .run.fast import run as run_fast
from .certify.maxmargin import MaxMargin, max_margin, max_margin_free_bias
from .report.record import build_report, render_json, render_text
from .certify.separability import Separability, decide_separability
from .data.trace import Trace, Update

__all__ = [
    "__version__",
    "CLAIMS", "CONVENTIONS", "EXAMPLES",
    "BoundComparison", "CheckResult", "Checker", "Claim", "Convention", "DataError", "Dataset", "Geometry",
    "InvalidArgument", "InvariantResult", "InvariantViolation", "MaxMargin", "NoteBound", "Separability", "Trace",
    "Update", "VerifyPerceptronError", "Violation",
    "assert_trace_verified", "build_report", "certificate_from_cycle", "check_trace", "claims_for",
    "compare_bounds", "decide_separability", "example", "from_arrays", "geometry", "get_convention",
    "gordan_defect", "load_csv", "load_dataset", "load_libsvm", "load_numpy", "max_margin",
    "max_margin_free_bias", "note_bound", "note_bounds", "order_statistics", "parse_rational", "render_json",
    "render_text", "run_fast", "train", "verify_run",
]
