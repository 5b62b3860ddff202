"""Checking someone else's perceptron: options, calling an implementation, diagnosis, the
public Hypothesis strategies and the pytest plugin. Beside the chain: nothing else imports it.
May import everything below `report`; Hypothesis loads only here."""

from .harness import (
    DTYPES,
    LABELS,
    DEFAULT_EXAMPLES,
    CheckOptions,
    Finding,
    FloatDecision,
    CaseResult,
    HarnessResult,
    ImplementationFailure,
    harness_settings,
    load_target,
    check_dataset,
    check_implementation,
    assert_implementation_correct,
    run_check_command,
    reference_fit,
)

__all__ = [
    "DTYPES",
    "LABELS",
    "DEFAULT_EXAMPLES",
    "CheckOptions",
    "Finding",
    "FloatDecision",
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
