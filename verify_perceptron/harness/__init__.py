"""Checking someone else's perceptron: options, calling an implementation, diagnosis, the
public Hypothesis strategies and the pytest plugin. Beside the chain: nothing else imports it.
May import everything below `report`; Hypothesis loads only here."""

from ._implementation import Estimator, FitFunction, Implementation
from ._options import DEFAULT_EXAMPLES, DTYPES, LABELS, CheckOptions, harness_settings
from ._process import CommandImplementation, command_implementation
from ._results import CaseResult, Diagnosis, Finding, FloatDecision, HarnessResult, ImplementationFailure
from ._target import load_target
from .check import (
    assert_implementation_correct,
    check_dataset,
    check_implementation,
    reference_fit,
    run_check_command,
)

__all__ = [
    "DTYPES",
    "LABELS",
    "DEFAULT_EXAMPLES",
    "CheckOptions",
    "Finding",
    "FloatDecision",
    "Diagnosis",
    "CommandImplementation",
    "FitFunction",
    "Estimator",
    "Implementation",
    "command_implementation",
    "CaseResult",
    "HarnessResult",
    "ImplementationFailure",
    "harness_settings",
    "load_target",
    "check_dataset",
    "check_implementation",
    "assert_implementation_correct",
    "run_check_command",
    "reference_fit",
]
