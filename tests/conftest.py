"""Shared test settings: a fixed Hypothesis profile for CI, and small helpers."""

from __future__ import annotations

import compileall
import os
from pathlib import Path

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

#: The package's own directory (its bytecode is written there, as Python writes it on import by default).
PACKAGE = Path(__file__).resolve().parent.parent / "verify_perceptron"


def pytest_configure(config: pytest.Config) -> None:
    """The package's bytecode written once, in the main process before pytest-xdist starts its workers. With
    PYTHONDONTWRITEBYTECODE set (as on these machines) no import writes it, so each process importing the
    package would compile its modules again, about 0.2 s of CPU each, and the suite starts dozens (the CLI's
    and the harness's commands, the workers); written files are only refreshed where a source changed."""
    if not hasattr(config, "workerinput"):
        compileall.compile_dir(str(PACKAGE), quiet=1)


@pytest.fixture(autouse=True)
def _no_inherited_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    """pytest-xdist's workers inherit COLUMNS=80 from execnet; the text report fits every line to COLUMNS
    (report/_width.py), so a test that wants a width sets it itself."""
    monkeypatch.delenv("COLUMNS", raising=False)
