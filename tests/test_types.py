"""The type check (issue 33): mypy, at pyproject.toml's settings, finds no error in the package or the tests.

The settings are `[tool.mypy]` in pyproject.toml: check-untyped-defs, no-implicit-optional and
warn-unused-ignores everywhere, mypy's strict flags on data/, notes/, check/ and certify/. The other
tests here show that the check can fail: a type error is found, and the strict flags bite in the strict
parts only.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "pyproject.toml"


def _mypy(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=900)


@pytest.mark.slow  # 16 s of a core with a cold cache (a clean clone); the two tests below stay in the default run
def test_the_package_and_the_tests_type_check() -> None:
    result = _mypy()  # the files and settings of pyproject.toml
    assert result.returncode in (0, 1), (result.stdout[-3000:], result.stderr[-3000:])  # 2: mypy could not run
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    assert not errors, "\n".join(errors[:60])
    assert result.returncode == 0, result.stdout[-3000:]


def _module(root: Path, dotted: str, text: str) -> str:
    """Write `text` as module `dotted` under `root` (with its packages' __init__.py); its path."""
    *packages, name = dotted.split(".")
    folder = root
    for package in packages:
        folder = folder / package
        folder.mkdir(exist_ok=True)
        (folder / "__init__.py").touch()
    path = folder / f"{name}.py"
    path.write_text(text)
    return str(path.relative_to(root))


def test_a_type_error_is_found(tmp_path: Path) -> None:
    bad = _module(tmp_path, "example.halves", "from fractions import Fraction\n\n\n"
                  "def half(x: Fraction) -> Fraction:\n    return x / 2\n\n\nhalf('1/2')\n")
    result = _mypy("--config-file", str(CONFIG), "--cache-dir", str(tmp_path / ".cache"), bad, cwd=tmp_path)
    assert result.returncode == 1 and "[arg-type]" in result.stdout, result.stdout


def test_the_strict_flags_apply_to_the_trusted_parts_only(tmp_path: Path) -> None:
    loose = "def twice(x):\n    return 2 * x\n"  # no annotations: an error under the strict flags only
    strict = _module(tmp_path, "verify_perceptron.check.loose", loose)
    lenient = _module(tmp_path, "verify_perceptron.report.loose", loose)
    result = _mypy("--config-file", str(CONFIG), "--cache-dir", str(tmp_path / ".cache"), strict, lenient,
                   cwd=tmp_path)
    assert result.returncode == 1, result.stdout
    assert "check/loose.py:1: error" in result.stdout and "[no-untyped-def]" in result.stdout, result.stdout
    assert "report/loose.py" not in result.stdout, result.stdout
