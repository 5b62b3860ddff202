"""The README's Python examples run and print what it says."""

from __future__ import annotations

import doctest
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_examples_run_as_shown() -> None:
    failures, attempted = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert attempted > 0
    assert failures == 0


def test_readme_two_commands_are_the_ci_command() -> None:
    text = README.read_text(encoding="utf-8")
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    test_command = 'python -m pip install -e ".[test]" && python -m pytest'
    assert test_command in text
    assert test_command in ci
    assert "python -m pip install . && verify-perceptron verify --example and" in text
