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
# The fuzz campaign (tests/test_fuzz.py): pytest --hypothesis-profile fuzz tests/test_fuzz.py
settings.register_profile("fuzz", max_examples=20_000, deadline=None, derandomize=False,
                          suppress_health_check=list(HealthCheck))
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _no_inherited_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    """pytest-xdist's workers inherit COLUMNS=80 from execnet; the text report fits every line to COLUMNS
    (report/_width.py), so a test that wants a width sets it itself."""
    monkeypatch.delenv("COLUMNS", raising=False)
