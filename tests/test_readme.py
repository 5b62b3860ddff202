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


def test_public_front_door_exports_exactly_what_it_lists() -> None:
    import verify_perceptron as vp

    assert len(set(vp.__all__)) == len(vp.__all__)
    for name in vp.__all__:
        assert hasattr(vp, name), name


def test_the_verify_path_does_not_load_sympy_or_hypothesis() -> None:
    import subprocess
    import sys

    code = (
        "import sys, verify_perceptron.cli as c; c.main(['verify', '--example', 'and', '--format', 'json']); "
        "print(sorted(m for m in ('sympy', 'hypothesis', 'matplotlib') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"
