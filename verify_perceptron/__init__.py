"""verify_perceptron: the perceptron convergence theorem, checked exactly.

The data flow one way, one folder per part::

    data -> notes -> run -> check -> certify -> report -> cli

(`pipeline.verify_run` joins an engine and the checker, which never imports an
engine. The harness and the SymPy proofs sit beside the chain and load only on
demand. This module is the front door: it re-exports the public API.)

Examples
--------
>>> import verify_perceptron as vp
>>> data = vp.example("and")
>>> trace = vp.train(data, "classic")
>>> [str(w) for w in trace.final_weights]
['-4', '3', '2']
>>> vp.check_trace(data, trace).holds
True
>>> vp.verify(data).verdict
'verified'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

__version__ = "0.1.0"

from .errors import DataError, InvalidArgument, InvariantViolation, VerifyPerceptronError
from .data.rationals import parse_rational
from .data.dataset import Dataset, from_arrays
from .data.csv_files import load_csv
from .data.libsvm_files import load_libsvm
from .data.numpy_files import load_numpy
from .data.readers import load_dataset
from .data.examples import EXAMPLES, example
from .data.trace import Trace, Update
from .notes.conventions import CONVENTIONS, Convention, get_convention
from .notes.bounds import Geometry, NoteBound, geometry, note_bound, note_bounds
from .notes.claims import CLAIMS, Claim, claims_for
from .run.reference import train
from .run.fast import run as run_fast
from .check.checker import Checker
from .check.results import CheckResult, InvariantResult, Violation
from .check.traces import assert_trace_verified, check_trace
from .pipeline import verify_run
from .certify.certificates import certificate_from_cycle, gordan_defect
from .certify.separability import Separability, decide_separability
from .certify.maxmargin import MaxMargin, max_margin, max_margin_free_bias
from .certify.comparison import BoundComparison, compare_bounds
from .certify.orders import order_statistics
from .report.record import build_report, render_json
from .report.text import render_text
from .api.verification import Verification, verify

if TYPE_CHECKING:  # for a type checker the class itself; at run time `__getattr__` below loads it on first use
    from .api.estimator import ExactPerceptron


def __getattr__(name: str) -> object:
    # The estimator loads on first use: with scikit-learn installed it subclasses its bases, and importing
    # scikit-learn takes seconds the command line and most scripts should not pay.
    if name == "ExactPerceptron":
        from .api.estimator import ExactPerceptron

        return ExactPerceptron
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "__version__",
    "CLAIMS", "CONVENTIONS", "EXAMPLES",
    "BoundComparison", "CheckResult", "Checker", "Claim", "Convention", "DataError", "Dataset", "ExactPerceptron",
    "Geometry", "InvalidArgument", "InvariantResult", "InvariantViolation", "MaxMargin", "NoteBound", "Separability",
    "Trace", "Update", "Verification", "VerifyPerceptronError", "Violation",
    "assert_trace_verified", "build_report", "certificate_from_cycle", "check_trace", "claims_for",
    "compare_bounds", "decide_separability", "example", "from_arrays", "geometry", "get_convention",
    "gordan_defect", "load_csv", "load_dataset", "load_libsvm", "load_numpy", "max_margin",
    "max_margin_free_bias", "note_bound", "note_bounds", "order_statistics", "parse_rational", "render_json",
    "render_text", "run_fast", "train", "verify", "verify_run",
]
