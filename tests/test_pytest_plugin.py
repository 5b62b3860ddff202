"""The pytest plugin: a one-line check in someone else's test suite, run here by pytester.

Each inner run loads only this plugin (``-p verify_perceptron.harness.pytest_plugin``,
plugin autoloading off), as a project would once the ``pytest11`` entry point
is installed, and checks the gallery's perceptrons.
"""

from __future__ import annotations

import textwrap
from importlib import metadata
from typing import Protocol

import pytest

from verify_perceptron.harness.pytest_plugin import MARKER, PerceptronChecker, perceptron_test

pytest_plugins = ["pytester"]

PLUGIN = "verify_perceptron.harness.pytest_plugin"


class Run(Protocol):
    """The `run` fixture: pytest on one test file's source, with extra command-line arguments."""

    def __call__(self, source: str, *args: str) -> pytest.RunResult: ...


@pytest.fixture
def run(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Run:
    """Run pytest on one test file with only this plugin loaded; return the outcome."""
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")

    def go(source: str, *args: str) -> pytest.RunResult:
        pytester.makepyfile(test_subject=textwrap.dedent(source))
        return pytester.runpytest_inprocess("-p", PLUGIN, "-p", "no:cacheprovider", *args)

    return go


def test_the_fixture_passes_a_correct_perceptron(run: Run) -> None:
    result = run("""
        from tests import implementations as gallery

        def test_mine(perceptron_checker):
            assert perceptron_checker(gallery.perceptron, examples=10).passed
    """)
    result.assert_outcomes(passed=1)


def test_the_fixture_fails_a_broken_perceptron_with_the_report_and_no_traceback(run: Run) -> None:
    result = run("""
        from tests import implementations as gallery

        def test_mine(perceptron_checker):
            perceptron_checker(gallery.strict_negative, examples=10)
    """)
    result.assert_outcomes(failed=1)
    output = result.stdout.str()
    assert "verdict: FAILED" in output and 'X = [["-1"], ["1"]]' in output
    assert "python -c \"from verify_perceptron.harness import check_dataset" in output
    assert "def test_mine" not in output  # pytrace=False: the report, not the test's source


def test_the_marker_sets_the_options_of_the_fixture(run: Run) -> None:
    result = run("""
        import pytest
        from tests import implementations as gallery

        pytestmark = pytest.mark.perceptron(examples=8, worked_examples=False)

        @pytest.mark.perceptron(convention="sum-norm")
        def test_note_003(perceptron_checker):
            result = perceptron_checker("tests.implementations:sum_norm_perceptron")
            assert result.options.convention == "sum-norm" and result.options.examples == 8

        @pytest.mark.perceptron(labels="0/1", convention="hard-limiter")
        def test_note_001(perceptron_checker):
            perceptron_checker(gallery.zero_one_hard_limiter)
    """, "--strict-markers")
    result.assert_outcomes(passed=2)


def test_command_line_options_override_examples_and_seed(run: Run) -> None:
    result = run("""
        import pytest

        @pytest.mark.perceptron(examples=50)
        def test_mine(perceptron_checker):
            result = perceptron_checker("tests.implementations:perceptron")
            assert (result.options.examples, result.options.seed) == (6, 3)
    """, "--perceptron-examples=6", "--perceptron-seed=3")
    result.assert_outcomes(passed=1)


def test_a_module_level_one_liner_is_a_test(run: Run) -> None:
    result = run("""
        from verify_perceptron.harness.pytest_plugin import perceptron_test

        test_correct = perceptron_test("tests.implementations:exact_perceptron", dtype="fraction", examples=8)
        test_broken = perceptron_test("tests.implementations:wrong_sign", examples=8)
    """)
    result.assert_outcomes(passed=1, failed=1)
    assert "moves the weights the wrong way" in result.stdout.str()


def test_the_marker_is_declared(run: Run) -> None:
    result = run("def test_nothing():\n    pass\n", "--markers")
    assert f"@pytest.mark.{MARKER}(**options)" in result.stdout.str()


def test_the_marker_takes_keywords_only(run: Run) -> None:
    result = run("""
        import pytest

        @pytest.mark.perceptron("classic")
        def test_mine(perceptron_checker):
            pass
    """)
    result.assert_outcomes(errors=1)
    assert "takes keyword options only" in result.stdout.str()


def test_checker_object_merges_defaults_with_call_options() -> None:
    checker = PerceptronChecker({"examples": 5, "dtype": "fraction", "worked_examples": False})
    result = checker.check("tests.implementations:exact_perceptron", examples=7)
    assert result.passed and (result.options.examples, result.options.dtype) == (7, "fraction")


def test_one_liner_function_checks_when_called_by_pytest() -> None:
    test = perceptron_test("tests.implementations:perceptron")
    assert test.__name__ == "test_perceptron" and "passes the exact checks" in (test.__doc__ or "")


def test_an_installed_pytest11_entry_point_names_this_plugin() -> None:
    try:
        points = metadata.entry_points(group="pytest11")
    except TypeError:  # pragma: no cover - Python 3.9 API
        pytest.skip("entry_points(group=...) needs Python 3.10")
    ours = [p for p in points if p.value.startswith("verify_perceptron")]
    if not ours:
        pytest.skip("the pytest11 entry point is not installed (yet)")
    assert [p.value for p in ours] == [PLUGIN]
