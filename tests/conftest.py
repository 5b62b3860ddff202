"""Shared test settings: a fixed Hypothesis profile for CI, and small helpers."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# CI runs the same examples every time (derandomize) and keeps within the five-minute budget.
settings.register_profile(
    "ci",
    max_examples=60,
    derandomize=True,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=30, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
