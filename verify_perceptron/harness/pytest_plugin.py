"""A pytest plugin: check a perceptron implementation from a test suite, in one line.

Installed with the package, it is registered through the ``pytest11`` entry
point, so every pytest run of a project that has ``verify-perceptron``
installed can use:

- the fixture ``perceptron_checker``: call it with the implementation (a
  ``fit(X, y)`` function, an estimator class or instance, or
  ``"module:name"``) and any option of
  `verify_perceptron.harness.check_implementation`; the test fails with the
  harness's report (the minimal counterexample, exact, and its one-line
  reproduction) and no traceback::

      def test_my_perceptron(perceptron_checker):
          perceptron_checker(my_package.fit)

- the marker ``perceptron(**options)``, which sets the fixture's default
  options for one test (or, as ``pytestmark``, a module)::

      @pytest.mark.perceptron(convention="sum-norm", dtype="fraction")
      def test_note_003(perceptron_checker):
          perceptron_checker("my_package.note003:fit")

- `perceptron_test`, which makes the test itself, for a module-level one-liner::

      test_my_perceptron = perceptron_test("my_package:fit", labels="0/1")

- the options ``--perceptron-examples N`` and ``--perceptron-seed S``, which
  override the number of generated datasets and the search's seed for every
  check of the run (a quick local run, a longer nightly one).

The harness, and with it Hypothesis, loads only when a check runs, so the
plugin costs nothing to a test run that does not use it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

from ..data.rationals import shown_value

if TYPE_CHECKING:
    from ._implementation import Implementation
    from ._results import HarnessResult

__all__ = ["PerceptronChecker", "perceptron_checker", "perceptron_test", "MARKER"]

#: The marker's name: ``@pytest.mark.perceptron(**options)``.
MARKER = "perceptron"


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--perceptron-examples`` and ``--perceptron-seed``."""
    group = parser.getgroup("verify-perceptron", "checks of perceptron implementations (verify_perceptron)")
    group.addoption("--perceptron-examples", type=int, default=None, metavar="N",
                    help="generated datasets per perceptron check (default: the harness's, or the marker's)")
    group.addoption("--perceptron-seed", type=int, default=None, metavar="S",
                    help="search with this seed instead of the derandomized default")


def pytest_configure(config: pytest.Config) -> None:
    """Declare the marker, so ``--strict-markers`` accepts it and ``pytest --markers`` lists it."""
    config.addinivalue_line(
        "markers",
        f"{MARKER}(**options): default options of the perceptron_checker fixture "
        "(convention, dtype, labels, eta, examples, ...: see verify_perceptron.harness.check_implementation)",
    )


class PerceptronChecker:
    """The fixture's value: call it with an implementation to check it, failing the test on a counterexample.

    Parameters
    ----------
    defaults : dict
        Options applied to every call (the marker's, then the command line's); a call's own options win.

    Examples
    --------
    >>> checker = PerceptronChecker({"examples": 5, "worked_examples": False})
    >>> checker.check("verify_perceptron.harness:reference_fit", dtype="fraction").passed
    True
    """

    def __init__(self, defaults: dict[str, Any]) -> None:
        self.defaults = dict(defaults)

    def check(self, target: Implementation, **options: Any) -> HarnessResult:
        """Run the check and return the result, pass or fail."""
        from .check import check_implementation

        return check_implementation(target, **{**self.defaults, **options})

    def __call__(self, target: Implementation, **options: Any) -> HarnessResult:
        """Run the check; fail the test with the report if the implementation failed."""
        result = self.check(target, **options)
        if not result.passed:
            pytest.fail(result.report(), pytrace=False)
        return result


def _defaults(config: pytest.Config, marker_options: dict[str, Any]) -> dict[str, Any]:
    options = dict(marker_options)
    examples = config.getoption("perceptron_examples", default=None)
    if examples is not None:
        options["examples"] = examples
    seed = config.getoption("perceptron_seed", default=None)
    if seed is not None:
        options["seed"] = seed
    return options


@pytest.fixture
def perceptron_checker(request: pytest.FixtureRequest) -> PerceptronChecker:
    """A `PerceptronChecker` with this test's ``perceptron`` marker options and the command line's."""
    marker_options: dict[str, Any] = {}
    for marker in reversed(list(request.node.iter_markers(MARKER))):  # the closest marker wins
        if marker.args:
            raise pytest.UsageError(f"@pytest.mark.{MARKER} takes keyword options only, not {shown_value(marker.args)}")
        marker_options.update(marker.kwargs)
    return PerceptronChecker(_defaults(request.config, marker_options))


def perceptron_test(target: Implementation, **options: Any) -> Callable[[pytest.FixtureRequest], None]:
    """A test function that checks `target`: assign it to a ``test_`` name in a test module.

    Examples
    --------
    >>> test_reference = perceptron_test("verify_perceptron.harness:reference_fit", dtype="fraction")
    >>> test_reference.__name__
    'test_perceptron'
    """

    def test_perceptron(request: pytest.FixtureRequest) -> None:
        PerceptronChecker(_defaults(request.config, options))(target)

    test_perceptron.__doc__ = (f"The perceptron implementation {shown_value(target)} passes the exact checks of "
                               "verify_perceptron.")
    return test_perceptron
