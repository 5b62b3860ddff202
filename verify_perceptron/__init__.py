"""verify_perceptron: the perceptron convergence theorem, checked exactly.

The data flow one way, one module each::

    rationals -> dataset -> conventions -> engine -> trace -> bounds -> claims -> checks -> report -> cli

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

from .bounds import Geometry, NoteBound, geometry, note_bound, note_bounds
from .certificates import certificate_from_cycle, gordan_defect
from .checks import CheckResult, InvariantResult, Violation, assert_trace_verified, check_trace
from .claims import CLAIMS, Claim, claims_for
from .conventions import CONVENTIONS, Convention, get_convention
from .dataset import Dataset, from_arrays, load_csv, load_dataset, load_libsvm, load_numpy
from .engine import train
from .errors import DataError, InvalidArgument, InvariantViolation, VerifyPerceptronError
from .examples import EXAMPLES, example
from .rationals import parse_rational
from .report import build_report, render_json, render_text
from .trace import Trace, Update

__all__ = [
    "__version__",
    "CLAIMS", "CONVENTIONS", "EXAMPLES",
    "CheckResult", "Claim", "Convention", "DataError", "Dataset", "Geometry", "InvalidArgument",
    "InvariantResult", "InvariantViolation", "NoteBound", "Trace", "Update", "VerifyPerceptronError", "Violation",
    "assert_trace_verified", "build_report", "certificate_from_cycle", "check_trace", "claims_for", "example",
    "from_arrays", "geometry", "get_convention", "gordan_defect", "load_csv", "load_dataset", "load_libsvm",
    "load_numpy", "note_bound", "note_bounds", "parse_rational", "render_json", "render_text", "train",
]
