"""Check someone else's perceptron against the notes, exactly, on data Hypothesis chooses and shrinks.

An implementation is any of

- a function ``fit(X, y) -> (w, b)`` (score ``w·x + b``), or returning the
  augmented weight vector in the convention's own order (``[w0, w1, ..., wm]``
  for ``classic``);
- a scikit-learn-style estimator, as a class (built with no arguments) or an
  instance (cloned for every dataset): ``fit(X, y)``, then ``coef_`` and
  ``intercept_``;
- either of them also reporting its updates: the function returns
  ``(w, b, updates)``, the estimator has ``updates_`` after ``fit``; each
  update is ``(sample index, weights after it)``, the weights as a pair
  ``(w, b)`` or an augmented vector. That unlocks checking every update.

It gets its inputs as it expects them (``dtype``: NumPy float64, lists of
`Fraction`, or NumPy object arrays of `Fraction`; ``labels``: -1/+1 or 0/1);
its outputs are converted to exact rationals (floats through
`Fraction.from_float`). Under the declared convention the harness then
checks, exactly:

=======================  ===========================================================================
check                    claim
=======================  ===========================================================================
returns-weights          it returns finite weights of the right shape, in time, without raising
detects-nonseparable     (when it claims to) it signals data that no hyperplane separates, and only those
reported-updates         the reported updates are well formed and end at the returned weights
final-weights-separate   the returned weights make no mistake on any sample (the stopping rule)
agrees-with-reference    the result is c times the exact reference run's (`engine.train`), c > 0 the
                         factor a learning rate introduces from w = 0; with updates, update by update
learning-rate            that factor is a rate the note allows (none for ``unit-ball``, <= 1 for
                         ``hard-limiter``)
update-rule, ...         every reported update obeys the note's rule and keeps every invariant the
                         proof uses, the mistake bound included (`checks.check_trace`)
=======================  ===========================================================================

A float implementation is, by default, given data on which float64 computes
every score exactly (small dyadic values, confirmed for each dataset from the
exact run), so a correct one never fails because of the data; ``rounding_stress``
gives it values with 53 significant bits instead, and a failure then says
where float rounding changed a decision (the update, the sample, the exact
score and the float64 score).

Failures are shrunk by Hypothesis to a minimal dataset, under the harness's
own settings (`harness_settings`: derandomized, no database, no deadline), so
the same implementation always gets the same counterexample. The report
prints it as exact literals with a one-line Python reproduction.

Examples
--------
>>> import numpy as np
>>> def fit(X, y):
...     w, b = np.zeros(X.shape[1]), 0.0
...     for _ in range(1000):
...         clean = True
...         for x, t in zip(X, y):
...             if t * (w @ x + b) <= 0:  # mistake: y·(w·x~) <= 0
...                 w, b, clean = w + t * x, b + t, False
...         if clean:
...             break
...     return w, b
>>> check_implementation(fit, examples=20).passed
True
>>> def strict(X, y):  # a score of exactly 0 is not taken for a mistake
...     w, b = np.zeros(X.shape[1]), 0.0
...     for _ in range(1000):
...         clean = True
...         for x, t in zip(X, y):
...             if t * (w @ x + b) < 0:
...                 w, b, clean = w + t * x, b + t, False
...         if clean:
...             break
...     return w, b
>>> result = check_implementation(strict, examples=20)
>>> result.passed, result.counterexample.findings[0].check
(False, 'final-weights-separate')
>>> print(result.counterexample.literals())
X = [["-1"], ["1"]]
y = [-1, 1]
"""

from __future__ import annotations

import contextlib
import copy
import importlib
import io
import itertools
import os
import signal
import sys
import threading
import warnings
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from ..certify.certificates import certificate_from_cycle
from ..check.checker import check_trace
from ..notes.conventions import Convention, dot, get_convention
from ..data.dataset import Dataset
from ..run.reference import train
from ..errors import InvalidArgument, InvariantViolation
from ..data.rationals import as_rational
from ..certify.separability import decide_separability
from ..data.trace import Trace, Update

if TYPE_CHECKING:  # Hypothesis loads only when a check runs
    from hypothesis import settings as HypothesisSettings
    from hypothesis.strategies import SearchStrategy

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

#: How the implementation receives X: NumPy float64, lists of Fraction, NumPy object arrays of Fraction.
DTYPES = ("float", "fraction", "object")
#: How it receives y: labels -1/+1 or 0/1.
LABELS = ("-1/+1", "0/1")
#: Generated datasets per check, unless told otherwise.
DEFAULT_EXAMPLES = 100
#: Epochs the exact run may take on a generated dataset before it is set aside as too slow.
REFERENCE_EPOCHS = 200
#: Most updates an implementation may report (a longer list is cut there, and the cut reported).
MAX_REPORTED_UPDATES = 100_000

_LABEL_ALIASES = {"-1/+1": "-1/+1", "-1,+1": "-1/+1", "-1/1": "-1/+1", "pm1": "-1/+1", "0/1": "0/1", "0,1": "0/1"}
_FLOAT_BITS = 53

Vector = tuple[Fraction, ...]


class ImplementationFailure(InvariantViolation):
    """An implementation broke the algorithm or the theorem; the message is the harness's report."""


class _TimedOut(BaseException):
    """Raised inside the implementation when its time is up (a BaseException, so no `except Exception` eats it)."""


class _Rejected(Exception):
    """A generated dataset the harness does not use (the exact run is too slow, or floats would round)."""


# --- settings and results -------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckOptions:
    """How to call and judge an implementation; every field is echoed in the report.

    Attributes
    ----------
    convention : str
        The note whose perceptron the implementation claims to be (``classic`` by default).
    dtype : {"float", "fraction", "object"}
        How X is passed: NumPy float64, lists of `Fraction`, or a NumPy object array of `Fraction`.
    labels : {"-1/+1", "0/1"}
        How y is passed.
    eta : Fraction or None
        The learning rate the implementation uses, if declared; else inferred from its output.
        A float declares that double (``0.1`` is 3602879701896397/36028797018963968), a
        string the exact value it spells (``"1/10"``).
    examples : int
        Generated datasets to try, shared among the kinds of data (separable, tied,
        duplicated, tiny-margin, scaled, and non-separable when detected), each searched
        on its own so that each gets its share.
    seed : int or None
        None for the derandomized default search; an integer for another, reproducible one.
    rounding_stress : bool
        Give a float implementation values with 53 significant bits, so that float64 rounds.
    detects_nonseparable : bool
        The implementation signals non-separable data (by returning None, or raising one of
        `nonseparable_errors`); such data are then generated too.
    nonseparable_errors : tuple of exception types
        Exceptions that mean "not separable".
    max_epochs : int or None
        The implementation's own limit of passes, if it has one: data needing more are not generated.
    call_timeout : float or None
        Seconds one call may take (POSIX main thread only); None for no limit.
    worked_examples : bool
        Also check the notes' worked examples.
    output : {"auto", "pair", "augmented"}
        How to read returned weights: ``(w, b)``, an augmented vector in the convention's
        order, or ``auto`` (a pair when its first item is a vector).
    accept_departures : tuple of str
        Configuration departures (``shuffle``, ``tol``, ...) not to count as failures.
    max_features, max_samples : int
        Bounds of the generated datasets.
    """

    convention: str = "classic"
    dtype: str = "float"
    labels: str = "-1/+1"
    eta: Fraction | None = None
    examples: int = DEFAULT_EXAMPLES
    seed: int | None = None
    rounding_stress: bool = False
    detects_nonseparable: bool = False
    nonseparable_errors: tuple[type[BaseException], ...] = ()
    max_epochs: int | None = None
    call_timeout: float | None = 10.0
    worked_examples: bool = True
    output: str = "auto"
    accept_departures: tuple[str, ...] = ()
    max_features: int = 3
    max_samples: int = 8

    @property
    def numbers(self) -> str:
        """The values generated: dyadic for floats (exact in float64), floats under rounding stress, else rationals."""
        if self.rounding_stress:
            return "floats"
        return "dyadic" if self.dtype == "float" else "rationals"


@dataclass(frozen=True)
class Finding:
    """One thing wrong with one case: the check that failed and what, exactly, it saw.

    Examples
    --------
    >>> print(Finding("final-weights-separate", "sample 0 scores 0"))
    final-weights-separate: sample 0 scores 0
    """

    check: str
    message: str
    update: int | None = None
    sample: int | None = None

    def __str__(self) -> str:
        return f"{self.check}: {self.message}"


@dataclass(frozen=True)
class FloatDecision:
    """Where float64 arithmetic decided a sample differently from exact arithmetic.

    Attributes
    ----------
    update : int
        The number the update would have (or had), counting from 1: the decision came after update - 1 updates.
    epoch : int
        The pass, from 1.
    sample : int
        The sample, from 0.
    exact_score : Fraction
        The score of those very weights on that sample, computed exactly.
    float_score : float
        The score float64 computed.
    mistake_exactly : bool
        Whether exact arithmetic calls it a mistake (float64 said the opposite).
    """

    update: int
    epoch: int
    sample: int
    exact_score: Fraction
    float_score: float
    mistake_exactly: bool

    def describe(self) -> str:
        """One line: where, the exact score and the float64 score, and how each was judged.

        Examples
        --------
        >>> print(FloatDecision(3, 2, 1, Fraction(0), 5.551115123125783e-17, True).describe())
        at update 3 (epoch 2, sample 1): the exact score is 0 (a mistake), float64 computes 5.551115123125783e-17 (not a mistake)
        """
        said = "a mistake" if self.mistake_exactly else "not a mistake"
        other = "not a mistake" if self.mistake_exactly else "a mistake"
        return (f"at update {self.update} (epoch {self.epoch}, sample {self.sample}): the exact score is "
                f"{self.exact_score} ({said}), float64 computes {self.float_score!r} ({other})")


@dataclass(frozen=True)
class CaseResult:
    """The verdict on one dataset.

    Attributes
    ----------
    name : str
        ``generated``, ``worked example 'and'`` or ``given dataset``.
    data : Dataset
        The data exactly as the implementation saw them (floats are their exact values).
    options : CheckOptions
        The settings it was checked under.
    target : str
        The implementation, as ``module:name`` when it can be imported.
    findings : tuple of Finding
        What is wrong, in check order; empty when the case passed.
    notes : tuple of str
        Diagnoses (what the output is consistent with, where float rounding changed a decision),
        warnings the implementation raised, and how the inputs were rounded.
    target_code : (str, str) or None
        How the reproduction names the implementation: an import statement (or "") and a Python
        expression; None when it cannot be named from outside (a local function).
    separable : bool
        Whether the data are linearly separable (decided exactly).
    reference : Trace or None
        The exact run (learning rate 1) on these data.
    weights : tuple of Fraction or None
        The implementation's final weights, in the convention's coordinates.
    n_updates : int or None
        The number of updates it reported, if it did.
    factor : Fraction or None
        c: its weights divided by the exact run's (its learning rate).
    rounding : FloatDecision or None
        The first decision float64 rounding changed, when that explains a failure.
    """

    name: str
    data: Dataset
    options: CheckOptions
    target: str
    findings: tuple[Finding, ...]
    notes: tuple[str, ...] = ()
    target_code: tuple[str, str] | None = None
    separable: bool = True
    reference: Trace | None = None
    weights: Vector | None = None
    n_updates: int | None = None
    factor: Fraction | None = None
    rounding: FloatDecision | None = None

    @property
    def passed(self) -> bool:
        """True when nothing was found wrong."""
        return not self.findings

    def literals(self) -> str:
        """The dataset as exact Python literals (strings, read back exactly by `from_arrays`).

        Examples
        --------
        >>> from verify_perceptron.data.examples import example
        >>> print(CaseResult("given dataset", example("and"), CheckOptions(), "f", ()).literals())
        X = [["0", "0"], ["0", "1"], ["1", "0"], ["1", "1"]]
        y = [-1, -1, -1, 1]
        """
        return f"X = {_rows_literal(self.data)}\ny = {list(self.data.y)}"

    def reproduction(self) -> str:
        """A one-line shell command that checks this dataset again and prints the same report."""
        return _reproduction(self.target_code, self.data, self.options)

    def report(self) -> str:
        """The whole verdict on this dataset, as text."""
        return "\n".join(_case_lines(self, indent=""))


@dataclass(frozen=True)
class HarnessResult:
    """The verdict on an implementation: the minimal counterexample if there is one.

    Attributes
    ----------
    target : str
        The implementation, as ``module:name`` when it can be imported.
    options : CheckOptions
        The settings it was checked under.
    departures : tuple of Finding
        Where its configuration departs from the note's algorithm (``shuffle=True``, ``tol=...``, a
        learning rate binary floating point cannot hold), read from ``get_params()``.
    counterexample : CaseResult or None
        The shrunk failing case (or a failing worked example when no generated one failed).
    worked_examples : tuple of CaseResult
        The notes' worked examples.
    n_examples : int
        Generated datasets checked (up to the first failure, when there is one).
    n_rejected : int
        Generated datasets set aside (the exact run too slow, or float64 would round).
    flaky : str or None
        Set when the failure did not happen again on the same data (a non-deterministic implementation).
    reports_updates : bool
        Whether the implementation reported its updates, so that every update was checked.
    """

    target: str
    options: CheckOptions
    departures: tuple[Finding, ...]
    counterexample: CaseResult | None
    worked_examples: tuple[CaseResult, ...]
    n_examples: int
    n_rejected: int
    flaky: str | None = None
    reports_updates: bool = False

    @property
    def passed(self) -> bool:
        """True when no case failed and the configuration departs from nothing (or only accepted things)."""
        return (self.counterexample is None and not self.departures and self.flaky is None
                and all(c.passed for c in self.worked_examples))

    def report(self) -> str:
        """The full report: settings, verdict, the counterexample with its reproduction, worked examples."""
        return _harness_report(self)


# --- the Hypothesis settings ----------------------------------------------------------------------


def harness_settings(*, examples: int = DEFAULT_EXAMPLES, seed: int | None = None) -> HypothesisSettings:
    """The harness's own Hypothesis settings: derandomized (unless `seed`), no database, no deadline.

    They do not inherit the loaded profile, so a check gives the same
    counterexample in CI, on a laptop, and under any test profile.

    Examples
    --------
    >>> s = harness_settings(examples=50)
    >>> s.max_examples, s.derandomize, s.database, s.deadline
    (50, True, None, None)
    """
    from hypothesis import HealthCheck, Phase, Verbosity, settings

    return settings(
        settings.get_profile("default"),
        max_examples=examples,
        derandomize=seed is None,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=False,
        verbosity=Verbosity.quiet,
        print_blob=False,
        phases=(Phase.explicit, Phase.generate, Phase.shrink),
    )


# --- options ----------------------------------------------------------------------------------------


def _options(
    *, convention: str, dtype: str, labels: str, eta: object, examples: int, seed: int | None,
    rounding_stress: bool, detects_nonseparable: bool | type[BaseException] | tuple[type[BaseException], ...],
    max_epochs: int | None, call_timeout: float | None, worked_examples: bool, output: str,
    accept_departures: Sequence[str], max_features: int, max_samples: int,
) -> CheckOptions:
    conv = get_convention(convention)
    if dtype not in DTYPES:
        raise InvalidArgument(f"dtype={dtype!r} must be one of {', '.join(DTYPES)}")
    if labels not in _LABEL_ALIASES:
        raise InvalidArgument(f"labels={labels!r} must be one of {', '.join(LABELS)}")
    rate = None
    if eta is not None:
        try:
            rate = as_rational(eta, name="eta")
        except ValueError as error:
            raise InvalidArgument(str(error)) from None
        if rate <= 0:
            raise InvalidArgument(f"eta={eta!r} must be > 0")
    for name, value, least in (("examples", examples, 1), ("max_features", max_features, 1),
                               ("max_samples", max_samples, 2)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise InvalidArgument(f"{name}={value!r} must be an integer >= {least}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InvalidArgument(f"seed={seed!r} must be an integer or None")
    if max_epochs is not None and (isinstance(max_epochs, bool) or not isinstance(max_epochs, int) or max_epochs < 1):
        raise InvalidArgument(f"max_epochs={max_epochs!r} must be an integer >= 1 or None")
    if call_timeout is not None and not (isinstance(call_timeout, (int, float)) and call_timeout > 0):
        raise InvalidArgument(f"call_timeout={call_timeout!r} must be a number of seconds > 0 or None")
    if rounding_stress and dtype != "float":
        raise InvalidArgument(f"rounding_stress=True needs dtype='float', not dtype={dtype!r}")
    if output not in ("auto", "pair", "augmented"):
        raise InvalidArgument(f"output={output!r} must be auto, pair or augmented")
    errors: tuple[type[BaseException], ...] = ()
    if isinstance(detects_nonseparable, type) and issubclass(detects_nonseparable, BaseException):
        errors = (detects_nonseparable,)
    elif isinstance(detects_nonseparable, tuple):
        if not all(isinstance(e, type) and issubclass(e, BaseException) for e in detects_nonseparable):
            raise InvalidArgument(f"detects_nonseparable={detects_nonseparable!r} must be a bool or exception types")
        errors = detects_nonseparable
    elif not isinstance(detects_nonseparable, bool):
        raise InvalidArgument(f"detects_nonseparable={detects_nonseparable!r} must be a bool or exception types")
    return CheckOptions(
        convention=conv.name, dtype=dtype, labels=_LABEL_ALIASES[labels], eta=rate, examples=examples,
        seed=seed, rounding_stress=bool(rounding_stress), detects_nonseparable=bool(detects_nonseparable),
        nonseparable_errors=errors, max_epochs=max_epochs, call_timeout=call_timeout,
        worked_examples=bool(worked_examples), output=output, accept_departures=tuple(accept_departures),
        max_features=max_features, max_samples=max_samples,
    )


# --- the implementation -----------------------------------------------------------------------------


def load_target(target: object) -> object:
    """The implementation `target` names: ``"module:attribute"`` is imported, anything else returned as is.

    The current directory is put on ``sys.path`` first (as ``python -m`` does),
    so a module of the project being tested can be named.

    Examples
    --------
    >>> load_target("fractions:Fraction") is Fraction
    True
    >>> load_target("fractions")
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.InvalidArgument: target='fractions' must be MODULE:CALLABLE, e.g. mypackage.perceptron:fit
    """
    if not isinstance(target, str):
        return target
    module_name, sep, attribute = target.partition(":")
    if not sep or not module_name or not attribute:
        raise InvalidArgument(f"target={target!r} must be MODULE:CALLABLE, e.g. mypackage.perceptron:fit")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        value: object = importlib.import_module(module_name)
    except ImportError as error:
        raise InvalidArgument(f"target={target!r}: cannot import {module_name} ({error})") from None
    except Exception as error:  # noqa: BLE001 - the module's own fault, reported as the target's
        raise InvalidArgument(f"target={target!r}: importing {module_name} raised {type(error).__name__}: {error}") from None
    for part in attribute.split("."):
        try:
            value = getattr(value, part)
        except AttributeError:
            raise InvalidArgument(f"target={target!r}: {module_name} has no attribute {attribute}") from None
    return value


def _kind(target: object) -> str:
    if isinstance(target, type):
        if callable(getattr(target, "fit", None)):
            return "estimator class"
        raise InvalidArgument(f"target={_describe(target)[0]} is a class without a fit method")
    if not _is_function(target) and callable(getattr(target, "fit", None)):
        return "estimator"
    if callable(target):
        return "function"
    raise InvalidArgument(f"target={target!r} is neither a fit(X, y) function nor an estimator with fit")


def _is_function(target: object) -> bool:
    import types

    return isinstance(target, (types.FunctionType, types.BuiltinFunctionType, types.MethodType))


def _describe(target: object) -> tuple[str, tuple[str, str] | None]:
    """How reports name `target`, and how a reproduction can: ``(label, (import, expression) or None)``.

    A function or class that imports back by ``module:qualname`` is named so; an
    estimator instance by its class and repr (``sklearn.linear_model:Perceptron(tol=None)``).
    """
    if isinstance(target, str):
        return target, ("", repr(target))
    module, qualname = getattr(target, "__module__", None), getattr(target, "__qualname__", None)
    if module and qualname and module != "__main__":
        found: object = sys.modules.get(module)
        for part in qualname.split("."):
            found = getattr(found, part, None)
        if found is target:
            return f"{module}:{qualname}", ("", repr(f"{module}:{qualname}"))
    cls = type(target)
    if callable(getattr(target, "fit", None)) and not _is_function(target) and "<" not in cls.__qualname__:
        shown = " ".join(repr(target).split())
        public = _public_module(cls)
        if shown.startswith(cls.__name__ + "(") and getattr(sys.modules.get(public), cls.__name__, None) is cls:
            return f"{public}:{shown}", (f"from {public} import {cls.__name__}; ", shown)
    if module and qualname:
        return f"{module}:{qualname} (not importable by that name)", None
    return f"a {cls.__name__} object (not importable by name)", None


def _public_module(cls: type) -> str:
    """The shortest loaded module path that exports `cls` (``sklearn.linear_model``, not ``..._perceptron``)."""
    parts = cls.__module__.split(".")
    for end in range(1, len(parts) + 1):
        module = sys.modules.get(".".join(parts[:end]))
        if module is not None and getattr(module, cls.__name__, None) is cls:
            return ".".join(parts[:end])
    return cls.__module__


def _fresh(target: object, kind: str) -> Any:
    """A new estimator for one dataset: the class built with no arguments, or the instance cloned."""
    if kind == "estimator class":
        return target()  # type: ignore[operator]
    get_params = getattr(target, "get_params", None)
    if callable(get_params):
        try:
            return type(target)(**get_params(deep=False))
        except Exception:  # noqa: BLE001 - not a scikit-learn-style constructor: copy instead
            pass
    return copy.deepcopy(target)


def _params(target: object, kind: str) -> dict[str, Any]:
    if kind == "function":
        return {}
    probe = target if kind == "estimator" else None
    if probe is None:
        try:
            probe = target()  # type: ignore[operator]
        except Exception:  # noqa: BLE001
            return {}
    get_params = getattr(probe, "get_params", None)
    if not callable(get_params):
        return {}
    try:
        params = get_params(deep=False)
    except Exception:  # noqa: BLE001
        return {}
    return dict(params) if isinstance(params, dict) else {}


def _inexact_float(value: object) -> Fraction | None:
    """The double's exact value when a float's shortest decimal text is not that value (0.1), else None."""
    if isinstance(value, bool) or not isinstance(value, (float, np.floating)):
        return None
    exact = Fraction.from_float(float(value))
    return exact if Fraction(repr(float(value))) != exact else None


def _departures(params: dict[str, Any], options: CheckOptions) -> tuple[Finding, ...]:
    """Where a scikit-learn-style configuration departs from the note's algorithm, each named precisely."""
    found: list[tuple[str, str]] = []
    if params.get("shuffle") is True:
        found.append(("shuffle", "shuffle=True presents the samples in a new random order every epoch; "
                      "the notes present them in the given order"))
    if params.get("tol", None) is not None and "tol" in params:
        found.append(("tol", f"tol={params['tol']!r} stops once the training loss has not improved by "
                      f"tol·n_samples for n_iter_no_change={params.get('n_iter_no_change', '?')!r} epochs in a "
                      "row; the notes stop after the first pass without a mistake"))
    if params.get("early_stopping") is True:
        found.append(("early_stopping", "early_stopping=True holds out validation_fraction="
                      f"{params.get('validation_fraction')!r} of the samples and stops on their score"))
    if params.get("penalty") not in (None, "none") and "penalty" in params and params.get("alpha", 0) != 0:
        found.append(("penalty", f"penalty={params['penalty']!r} with alpha={params.get('alpha')!r} shrinks the "
                      "weights at every step; the notes' update adds the step only"))
    if params.get("fit_intercept") is False:
        found.append(("fit_intercept", "fit_intercept=False keeps the bias at 0; the notes' perceptron has a "
                      "bias weight (the constant input of x~)"))
    if "learning_rate" in params and params["learning_rate"] != "constant":
        found.append(("learning_rate", f"learning_rate={params['learning_rate']!r} changes the step over time; "
                      "the notes' rate is constant"))
    if "loss" in params and params["loss"] != "perceptron":
        found.append(("loss", f"loss={params['loss']!r} is not the perceptron's criterion"))
    if params.get("average") not in (None, False, 0) and "average" in params:
        found.append(("average", f"average={params['average']!r} returns averaged weights, not the last ones"))
    if params.get("class_weight") is not None and "class_weight" in params:
        found.append(("class_weight", f"class_weight={params['class_weight']!r} scales the step by class"))
    for name in ("eta0", "learning_rate_init"):
        exact = _inexact_float(params.get(name))
        if exact is not None:
            found.append((name, f"{name}={params[name]!r} is not exactly representable in binary floating "
                          f"point: the rate used is {exact}, and every step η·y·x~ it scales may round"))
    return tuple(Finding("configuration", message) for name, message in found
                 if name not in options.accept_departures)


@contextlib.contextmanager
def _time_limit(seconds: float | None) -> Iterator[None]:
    """Interrupt the block after `seconds` (SIGALRM; only in the main thread of a POSIX process with no timer set)."""
    usable = (hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
              and signal.getitimer(signal.ITIMER_REAL)[0] == 0)
    if seconds is None or not usable:
        yield
        return

    def on_alarm(signum: int, frame: object) -> None:
        raise _TimedOut

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _inputs(data: Dataset, options: CheckOptions) -> tuple[Any, Any]:
    """X and y in the form the implementation expects (fresh objects for every call)."""
    labels = [label if options.labels == "-1/+1" else (1 if label > 0 else 0) for label in data.y]
    if options.dtype == "float":
        return np.array([[float(v) for v in row] for row in data.X], dtype=np.float64), np.array(labels, dtype=np.int64)
    if options.dtype == "fraction":
        return [list(row) for row in data.X], labels
    X = np.empty((data.n_samples, data.n_features), dtype=object)
    for i, row in enumerate(data.X):
        X[i, :] = list(row)
    y = np.empty(data.n_samples, dtype=object)
    y[:] = labels
    return X, y


@dataclass(frozen=True)
class _Call:
    """What one call of the implementation gave: its weights and updates as returned, or why there are none."""

    weights: Any = None
    updates: Any = None
    signalled: bool = False
    error: str | None = None
    warnings: tuple[str, ...] = ()


def _call(target: object, kind: str, X: Any, y: Any, options: CheckOptions) -> _Call:
    with warnings.catch_warnings(record=True) as records:
        warnings.simplefilter("always")
        outcome = _call_quietly(target, kind, X, y, options)
    caught = tuple(dict.fromkeys(f"{r.category.__name__}: {r.message}" for r in records))
    return replace(outcome, warnings=caught)


def _call_quietly(target: object, kind: str, X: Any, y: Any, options: CheckOptions) -> _Call:
    """One call, its printing discarded and its time limited; whatever it raises becomes the record's error."""
    try:
        with contextlib.redirect_stdout(io.StringIO()), _time_limit(options.call_timeout):
            if kind == "function":
                raw = target(X, y)  # type: ignore[operator]
                if raw is None:
                    return _Call(signalled=True)
                weights, updates = _split_return(raw)
            else:
                estimator = _fresh(target, kind)
                estimator.fit(X, y)
                weights, updates = _estimator_weights(estimator)
    except _TimedOut:
        return _Call(error=f"did not return within call_timeout={options.call_timeout} s")
    except Exception as error:  # noqa: BLE001 - whatever it raises is a finding, or its signal
        if options.nonseparable_errors and isinstance(error, options.nonseparable_errors):
            return _Call(signalled=True)
        return _Call(error=f"raised {type(error).__name__}: {error}")
    return _Call(weights, updates)


def _split_return(raw: Any) -> tuple[Any, Any]:
    """``(w, b, updates)`` or ``(augmented, updates)`` -> the weights and the updates; else the weights alone."""
    if isinstance(raw, (tuple, list)) and _is_vector(raw[0]) if len(raw) else False:
        if len(raw) == 3 and _looks_like_updates(raw[2]):
            return (raw[0], raw[1]), raw[2]
        if len(raw) == 2 and _looks_like_updates(raw[1]):
            return raw[0], raw[1]
    return raw, None


def _looks_like_updates(value: Any) -> bool:
    """A list of (index, weights) pairs, or an iterator (which a bias never is)."""
    if isinstance(value, (str, bytes, np.ndarray)) or not hasattr(value, "__iter__"):
        return False
    if not isinstance(value, (list, tuple)):
        return True
    return all(isinstance(item, (list, tuple)) and len(item) == 2
               and isinstance(item[0], (int, np.integer)) and not isinstance(item[0], bool) for item in value)


def _estimator_weights(estimator: Any) -> tuple[Any, Any]:
    if not hasattr(estimator, "coef_"):
        raise AttributeError("after fit, the estimator has no coef_")
    coef = np.asarray(estimator.coef_, dtype=object).ravel()
    intercept = getattr(estimator, "intercept_", 0)
    classes = getattr(estimator, "classes_", None)
    # scikit-learn's coef_ scores classes_[1]; flip when that is the negative class
    if classes is not None and len(classes) == 2 and classes[1] in (-1, 0) and classes[0] in (1,):
        coef = -coef
        intercept = -np.asarray(intercept, dtype=object)
    return (coef, intercept), getattr(estimator, "updates_", None)


def _is_vector(value: Any) -> bool:
    return isinstance(value, (list, tuple)) or (isinstance(value, np.ndarray) and value.ndim >= 1)


def _flat(value: Any) -> list[Any]:
    if isinstance(value, np.ndarray):
        return list(value.astype(object).ravel())
    if isinstance(value, (list, tuple)):
        out: list[Any] = []
        for item in value:
            out.extend(_flat(item) if _is_vector(item) else [item])
        return out
    return [value]


def _exact_weights(raw: Any, conv: Convention, n_features: int, output: str, what: str) -> Vector:
    """The weights in the convention's coordinates, exactly; ValueError naming what is wrong."""
    pair = output == "pair" or (output == "auto" and isinstance(raw, (tuple, list)) and len(raw) == 2
                                and _is_vector(raw[0]))
    if pair:
        if not isinstance(raw, (tuple, list)) or len(raw) != 2:
            raise ValueError(f"{what} is {_short(raw)}, not a pair (w, b)")
        v_raw, b_raw = _flat(raw[0]), _flat(raw[1])
        if len(v_raw) != n_features:
            raise ValueError(f"{what}: w has {len(v_raw)} values for {n_features} features")
        if len(b_raw) != 1:
            raise ValueError(f"{what}: b has {len(b_raw)} values, not 1")
        v = tuple(_exact(x, f"{what}: w[{j}]") for j, x in enumerate(v_raw))
        return conv.from_canonical(_exact(b_raw[0], f"{what}: b"), v)
    if raw is None or not (_is_vector(raw)):
        raise ValueError(f"{what} is {_short(raw)}, neither (w, b) nor a weight vector")
    flat = _flat(raw)
    if len(flat) != n_features + 1:
        raise ValueError(f"{what} has {len(flat)} values; {conv.name} needs {n_features + 1}: "
                         + ", ".join(conv.weight_names(n_features)))
    return tuple(_exact(x, f"{what}[{j}]") for j, x in enumerate(flat))


def _exact(value: Any, name: str) -> Fraction:
    if isinstance(value, np.ndarray) and value.size == 1:
        value = value.reshape(()).item()
    return as_rational(value, name=name)


def _short(value: Any) -> str:
    text = " ".join(repr(value).split())
    return text if len(text) <= 60 else text[:57] + "..."


# --- exact helpers ----------------------------------------------------------------------------------


def _vec(values: Sequence[Fraction]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def _names(conv: Convention, data: Dataset) -> str:
    return "(" + ", ".join(conv.weight_names(data.n_features)) + ")"


def _add(u: Sequence[Fraction], w: Sequence[Fraction]) -> Vector:
    return tuple(a + b for a, b in zip(u, w))


def _scaled(c: Fraction, w: Sequence[Fraction]) -> Vector:
    return tuple(c * x for x in w)


def _factor(mine: Sequence[Fraction], theirs: Sequence[Fraction], conv: Convention) -> Fraction | None:
    """The positive ratio most coordinates share (a non-bias one on a tie); None if no ratio is positive."""
    bias = 0 if conv.bias_first else len(theirs) - 1
    ratios = [(m / t, j == bias) for j, (m, t) in enumerate(zip(mine, theirs)) if t != 0 and m / t > 0]
    if not ratios:
        return None
    counts = Counter(r for r, _ in ratios)
    if len(counts) > 1 and 1 in counts:  # the coordinates disagree: measure against the plain rule
        return Fraction(1)
    return max(counts, key=lambda r: (counts[r], any(r == q and not is_bias for q, is_bias in ratios)))


def _is_mistake(conv: Convention, score: Fraction, label: int) -> bool:
    return conv.decide(score, label, Fraction(1)) is not None


def _judged(conv: Convention, score: Fraction, label: int) -> str:
    """How the note's rule judges this score: "a mistake under classic (y·(w·x~) = 0 <= 0)", or "not a mistake ..."."""
    if conv.name == "hard-limiter":
        out = 1 if score > 0 else -1
        verdict = "a mistake" if out != label else "not a mistake"
        return f"{verdict} under {conv.name} (sgn(w·x~) = {out:+d}, label {label:+d})"
    product = score * label
    verdict = "a mistake" if product <= 0 else "not a mistake"
    tie = ": a score of exactly 0 is a mistake under this rule" if score == 0 else ""
    return f"{verdict} under {conv.name} (y·(w·x~) = {product} {'<=' if product <= 0 else '>'} 0{tie})"


# --- float64 ----------------------------------------------------------------------------------------


def _as_doubles(data: Dataset) -> tuple[Dataset, str | None]:
    """The data as a float64 implementation sees them, exactly, and a note when that changed a value."""
    changed: list[str] = []
    rows: list[tuple[Fraction, ...]] = []
    for i, row in enumerate(data.X):
        new = []
        for j, value in enumerate(row):
            seen = Fraction.from_float(float(value))
            if seen != value and len(changed) < 3:
                changed.append(f"X[{i}][{j}] = {value} became {seen}")
            new.append(seen)
        rows.append(tuple(new))
    if not changed:
        return data, None
    note = "float64 cannot hold every value; the data checked are the doubles the implementation got: " + "; ".join(changed)
    return Dataset(X=tuple(rows), y=data.y, source=data.source, binary_float=True), note


def _float_exact(data: Dataset, conv: Convention, reference: Trace, rate: Fraction | None) -> bool:
    """True when float64 computes every score and step of the exact run exactly, in any summation order.

    With values N/L (L a power of two) and weights W/L, every product is an
    integer over L², and every partial sum of any order is a sum of some of the
    products, so if Σ_j |W_j·N_ij| < 2^53 for every weight vector of the run
    and every sample, no operation rounds. A rate p/2^k multiplies by |p|.
    """
    L = data.denominator
    if L & (L - 1):
        return False
    # A short dyadic rate (1/2, 3/4) multiplies every product by its numerator. A long one (the double
    # nearest to 0.1) rounds its steps whatever the data: that is the configuration's doing, reported
    # as such, so the data are judged at rate 1.
    scale = 1
    if rate is not None and not rate.denominator & (rate.denominator - 1) and abs(rate.numerator) < 2**8:
        scale = abs(rate.numerator)
    limit = 2**_FLOAT_BITS
    rows = [[abs(int(v * L)) for v in conv.augment(x)] for x in data.X]
    for update in (None, *reference.updates):
        W = [abs(int(w * L)) for w in (update.weights if update else [Fraction(0)] * len(rows[0]))]
        if any(w * scale >= limit for w in W):
            return False
        for row in rows:
            if sum(w * r for w, r in zip(W, row)) * scale >= limit:
                return False
    return True


def _float_run(data: Dataset, conv: Convention, rate: Fraction, max_epochs: int) -> tuple[Vector, FloatDecision | None, str | None]:
    """The note's perceptron in float64 (products added in order, then the bias) beside the exact one.

    Both runs visit the samples in the same order and make the same decisions
    until float64 first decides a sample differently: that visit is returned
    with the exact run's score and the float64 run's. Also returned: the float
    run's final weights (exactly, in the convention's coordinates) and the
    first update whose step float64 rounded.
    """
    a = conv.step_size(rate)
    a_float = float(a)
    X = [[float(v) for v in row] for row in data.X]
    v, b = [0.0] * data.n_features, 0.0  # float64 weights, canonical: score v·x + b
    exact_v, exact_b = [Fraction(0)] * data.n_features, Fraction(0)
    first: FloatDecision | None = None
    rounded: str | None = None
    k = 0
    seen: set[tuple[float, ...]] = set()
    for epoch in range(1, max_epochs + 1):
        clean = True
        for i, (x, label) in enumerate(zip(X, data.y)):
            s = 0.0
            for wj, xj in zip(v, x):
                s += wj * xj
            s += b
            mistake = _is_mistake(conv, Fraction.from_float(s), label)
            if first is None:
                exact = dot(exact_v, data.X[i]) + exact_b
                exact_mistake = _is_mistake(conv, exact, label)
                if exact_mistake != mistake:
                    first = FloatDecision(k + 1, epoch, i, exact, s, exact_mistake)
                elif exact_mistake:  # the same decision: the exact run takes the same step
                    exact_v = [wj + a * label * xj for wj, xj in zip(exact_v, data.X[i])]
                    exact_b += a * label
            if not mistake:
                continue
            k, clean = k + 1, False
            step = a_float * label
            new_v, new_b = [wj + step * xj for wj, xj in zip(v, x)], b + step
            if rounded is None:
                want = [Fraction(wj) + a * label * Fraction(xj) for wj, xj in zip(v, x)] + [Fraction(b) + a * label]
                got = [Fraction(w) for w in (*new_v, new_b)]
                j = next((j for j in range(len(got)) if want[j] != got[j]), None)
                if j is not None:
                    where = f"w{j + 1}" if j < len(new_v) else "the bias"
                    rounded = (f"update {k} (epoch {epoch}, sample {i}): float64 rounded the step on {where}: "
                               f"exactly {want[j]}, float64 {float(got[j])!r} ({got[j]})")
            v, b = new_v, new_b
        state = (b, *v)
        if clean or state in seen:
            break
        seen.add(state)
    return conv.from_canonical(Fraction(b), tuple(Fraction(w) for w in v)), first, rounded


# --- diagnosis: which simple departure reproduces the output ----------------------------------------

_VARIANTS: tuple[tuple[str, str], ...] = (
    ("ties-not-mistakes", "counts a mistake only when the score is strictly on the wrong side, so a score of "
                          "exactly 0 is let through"),
    ("no-bias-update", "never moves the bias weight"),
    ("bias-wrong-sign", "moves the bias weight the wrong way (by -η·y)"),
    ("wrong-sign", "moves the weights the wrong way (w -= η·y·x~)"),
    ("labels-0-1", "uses the 0/1 label as the update's sign, so mistakes on class 0 never move the weights"),
    ("skips-last-sample", "never presents the last sample (a loop that stops one short)"),
    ("updates-every-sample", "updates on every sample, mistake or not"),
    ("bias-rate", "scales the bias step by a learning rate the other weights do not get"),
)
#: The rates tried for a learning rate applied to the bias step alone.
_BIAS_RATES = (Fraction(1, 2), Fraction(1, 4), Fraction(1, 10), Fraction(2), Fraction(1, 100))
#: Epochs a variant runs while looking for the implementation's output (it may stop at an epoch limit).
_VARIANT_EPOCHS = 2000


def _variant_ends(data: Dataset, conv: Convention, variant: str,
                  bias_rate: Fraction = Fraction(1)) -> tuple[list[tuple[int, ...]], int, str]:
    """The exact perceptron changed as `variant` says, run in integers: its weights at the end of each
    epoch as U with w = (rate/(L·Q))·U (Q the bias rate's denominator), Q, and how the run ends
    (``converged``, ``cycles`` or ``limit``)."""
    L, Q, P = data.denominator, bias_rate.denominator, bias_rate.numerator
    samples = [[int(v * L) for v in conv.augment(x)] for x in data.X]
    bias = 0 if conv.bias_first else data.n_features
    # The note's decision depends only on the sign of the score (and the label), so read it once.
    decides = {(sign, label): _is_mistake(conv, Fraction(sign), label) for sign in (-1, 0, 1) for label in (-1, 1)}
    order = range(len(samples) - 1) if variant == "skips-last-sample" else range(len(samples))
    U = [0] * len(samples[0])
    ends: list[tuple[int, ...]] = []
    seen: set[tuple[int, ...]] = set()
    for _ in range(_VARIANT_EPOCHS):
        clean = True
        for i in order:
            x, label = samples[i], data.y[i]
            score = sum(u * v for u, v in zip(U, x))
            mistake = decides[((score > 0) - (score < 0), label)]
            if variant == "ties-not-mistakes":
                mistake = mistake and score != 0
            elif variant == "updates-every-sample":
                mistake = True
            if not mistake:
                continue
            clean = False
            sign = conv.step_factor * ((1 if label > 0 else 0) if variant == "labels-0-1" else label)
            if variant == "wrong-sign":
                sign = -sign
            step = [sign * Q * v for v in x]
            if variant == "no-bias-update":
                step[bias] = 0
            elif variant == "bias-wrong-sign":
                step[bias] = -step[bias]
            elif variant == "bias-rate":
                step[bias] = sign * P * x[bias]
            U = [u + t for u, t in zip(U, step)]
        state = tuple(U)
        if clean:
            return ends or [state], L * Q, "converged"
        ends.append(state)
        if state in seen:
            return ends, L * Q, "cycles"
        seen.add(state)
    return ends, L * Q, "limit"


def _proportional(mine: Vector, theirs: Vector) -> bool:
    """mine = c·theirs for some c > 0 (0 = c·0)."""
    if not any(theirs):
        return not any(mine)
    j = next(j for j, t in enumerate(theirs) if t != 0)
    c = mine[j] / theirs[j]
    return c > 0 and all(m == c * t for m, t in zip(mine, theirs))


def _variant_match(weights: Vector, ends: list[tuple[int, ...]], scale: int, rate: Fraction | None,
                   how: str) -> str | None:
    """How the variant's run reaches `weights`: at the end of some epoch, with the learning rate
    `rate` (w = (rate/scale)·U), or, when the rate is unknown (None), at its converged end, up to the
    positive factor a rate introduces from w = 0."""
    if rate is None:
        if how == "converged" and _proportional(weights, tuple(Fraction(u) for u in ends[-1])):
            return "and converges there"
        rate = Fraction(1)  # the usual rate: an exact match with it is still a fact worth showing
    target = tuple(w * scale / rate for w in weights)
    if any(t.denominator != 1 for t in target):
        return None
    wanted = tuple(int(t) for t in target)
    for epoch, state in enumerate(ends, start=1):
        if state == wanted:
            if how == "converged" and epoch == len(ends):
                return "and converges there"
            if how == "cycles":
                return "which never converges on these data: an epoch limit stops it"
            return f"stopped after {_count(epoch, 'epoch')}"
    return None


def _diagnoses(data: Dataset, conv: Convention, reference: Trace, weights: Vector, rate: Fraction | None) -> list[str]:
    """Simple departures from the note's algorithm whose output on these data is exactly the implementation's.

    `rate` is the implementation's learning rate when known (declared, or read off its updates);
    unknown, only runs that converge are compared, up to a positive factor.
    """
    found = []
    for variant, text in _VARIANTS:
        if conv.name == "unit-ball" and variant in ("labels-0-1", "bias-rate"):
            continue
        for bias_rate in (_BIAS_RATES if variant == "bias-rate" else (Fraction(1),)):
            ends, scale, how = _variant_ends(data, conv, variant, bias_rate)
            match = _variant_match(weights, ends, scale, rate, how)
            if match is not None:
                detail = f" (rate {bias_rate} on the bias)" if variant == "bias-rate" else ""
                found.append(f"consistent with the {conv.name} perceptron that {text}{detail}, {match}")
                break
    if reference.converged and not _proportional(weights, reference.final_weights):
        for k, update in enumerate(reference.updates[:-1], start=1):
            if weights == _scaled(rate or Fraction(1), update.weights) or (rate is None and _proportional(weights, update.weights)):
                found.append(f"consistent with the exact run stopped after update {k} of {reference.n_updates} "
                             f"(epoch {update.epoch}): an early stop, or earlier weights returned")
                break
    exact = _scaled(rate or Fraction(1), reference.final_weights)
    if all(w.denominator == 1 for w in weights) and any(w.denominator != 1 for w in exact):
        found.append(f"the weights are whole numbers where the exact run's are {_vec(exact)}: a step truncated or "
                     "rounded to an integer (an integer weight array?)")
    if 2 <= data.n_samples <= 4:
        for order in itertools.permutations(range(data.n_samples)):
            if list(order) == sorted(order):
                continue
            run = train(data.reordered(order), conv, max_epochs=REFERENCE_EPOCHS)
            if run.converged and (_proportional(weights, run.final_weights) if rate is None
                                  else weights == _scaled(rate, run.final_weights)):
                found.append(f"consistent with the exact run with the samples presented in the order {list(order)} "
                             "instead of the given one (shuffled?)")
                break
    return found


# --- one dataset ------------------------------------------------------------------------------------


class _Case:
    """Checks one dataset: `run` collects the findings, `diagnose` adds notes, `result` is the immutable record."""

    def __init__(self, target: object, kind: str, name: str, data: Dataset, options: CheckOptions,
                 label: tuple[str, tuple[str, str] | None], *, generated: bool) -> None:
        self.target, self.kind, self.name, self.options, self.label = target, kind, name, options, label
        self.conv = get_convention(options.convention)
        self.generated = generated
        self.notes: list[str] = []
        self.findings: list[Finding] = []
        if options.dtype == "float":
            data, note = _as_doubles(data)
            if note:
                self.notes.append(note)
        self.data = data
        self.weights: Vector | None = None
        self.n_updates: int | None = None
        self.factor: Fraction | None = None
        self.rounding: FloatDecision | None = None
        self.separable = True
        self.reference: Trace | None = None
        self.certificate: Vector | None = None

    # -- the exact run ------------------------------------------------------------------------------

    def _reference(self) -> None:
        """The exact run on these data, or `_Rejected` when a generated dataset is not usable."""
        from ..run import fast

        options, data = self.options, self.data
        if self.generated:  # the implementation's own limit, and the harness's time budget
            budget = min(options.max_epochs or REFERENCE_EPOCHS, REFERENCE_EPOCHS)
        else:
            budget = max(options.max_epochs or 0, 100_000)
        # The fast exact engine (the same run, tested so) finds how long the run is; the reference
        # engine then records it: it is never run on data that will be set aside.
        probe = fast.run(data, self.conv, max_epochs=budget, keep_updates=0)
        if probe.stop in ("converged", "cycle"):
            run = train(data, self.conv, max_epochs=probe.n_epochs)
            if run.stop == "cycle":
                self.separable, self.certificate = False, certificate_from_cycle(run)
        else:
            decided = decide_separability(data, time_limit=10.0)
            if decided.separable is not False:
                if self.generated:
                    raise _Rejected(f"the exact run needs more than {budget} epochs")
                raise InvalidArgument(f"the exact run on {self.name} does not converge within {budget} epochs")
            self.separable, self.certificate = False, decided.gordan
            run = probe
        if not self.separable and not options.detects_nonseparable:
            if self.generated:
                raise _Rejected("not separable")
            lam = ", ".join(str(v) for v in self.certificate or ())
            raise InvalidArgument(f"the data of {self.name} are not linearly separable (Gordan's certificate λ = [{lam}]); "
                                  "pass detects_nonseparable=True to check that the implementation signals that")
        if (self.generated and options.dtype == "float" and not options.rounding_stress and self.separable
                and not _float_exact(data, self.conv, run, options.eta)):
            raise _Rejected("float64 would round a score of the exact run")
        self.reference = run

    # -- the checks ---------------------------------------------------------------------------------

    def run(self) -> None:
        self._reference()
        X, y = _inputs(self.data, self.options)
        call = _call(self.target, self.kind, X, y, self.options)
        self.notes.extend(f"the implementation warned: {w}" for w in call.warnings)
        if call.error is not None:
            self._find("returns-weights", f"on these data the implementation {call.error}")
            return
        if not self.separable:
            self._nonseparable(call)
            return
        if call.signalled:
            self._signalled_on_separable()
            return
        try:
            self.weights = _exact_weights(call.weights, self.conv, self.data.n_features, self.options.output,
                                          "the returned weights")
        except ValueError as error:
            self._find("returns-weights", str(error))
            return
        updates = self._updates(call.updates)
        self._separates()
        self._agrees(updates)
        self._learning_rate()
        if updates is not None:
            self._invariants(updates)

    def _find(self, check: str, message: str, *, update: int | None = None, sample: int | None = None) -> None:
        self.findings.append(Finding(check, message, update, sample))

    def _nonseparable(self, call: _Call) -> None:
        if call.signalled:
            return
        lam = ", ".join(str(v) for v in self.certificate or ())
        self._find("detects-nonseparable",
                   f"returned weights on data that no hyperplane separates (Gordan's certificate λ = [{lam}]: "
                   "λ >= 0, Σλ = 1, Σ λ_i·y_i·x~_i = 0); it claims to signal such data by "
                   + self._signal_text())

    def _signal_text(self) -> str:
        errors = " or ".join(e.__name__ for e in self.options.nonseparable_errors)
        return "returning None" + (f" or raising {errors}" if errors else "")

    def _signalled_on_separable(self) -> None:
        if not self.options.detects_nonseparable:
            self._find("returns-weights", "returned None instead of weights")
            return
        assert self.reference is not None
        w = self.reference.final_weights
        self._find("detects-nonseparable",
                   f"signalled non-separable data ({self._signal_text()}), but the weights {_vec(w)} "
                   f"{_names(self.conv, self.data)} of the exact run separate them")

    def _updates(self, raw: Any) -> list[tuple[int, Vector]] | None:
        if raw is None:
            return None
        conv, n = self.conv, self.data.n_samples
        updates: list[tuple[int, Vector]] = []
        try:
            for k, item in enumerate(raw, start=1):
                if k > MAX_REPORTED_UPDATES:
                    self.notes.append(f"only the first {MAX_REPORTED_UPDATES} reported updates were read")
                    break
                if not isinstance(item, (tuple, list)) or len(item) != 2:
                    raise ValueError(f"update {k} is {_short(item)}, not (sample index, weights)")
                index, weights = item
                if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or not 0 <= int(index) < n:
                    raise ValueError(f"update {k}: sample index {index!r} is not in range({n})")
                updates.append((int(index), _exact_weights(weights, conv, self.data.n_features, self.options.output,
                                                           f"update {k}'s weights")))
        except ValueError as error:
            self._find("reported-updates", str(error))
            return None
        except Exception as error:  # noqa: BLE001 - a broken iterator is the implementation's
            self._find("reported-updates", f"reading the updates raised {type(error).__name__}: {error}")
            return None
        assert self.weights is not None
        last = updates[-1][1] if updates else tuple(Fraction(0) for _ in self.weights)
        if last != self.weights:
            self._find("reported-updates", f"the returned weights {_vec(self.weights)} are not the weights after "
                       f"the last reported update, {_vec(last)}")
        self.n_updates = len(updates)
        return updates

    def _separates(self) -> None:
        assert self.weights is not None
        conv, w = self.conv, self.weights
        for i, (x, label) in enumerate(zip(self.data.X, self.data.y)):
            score = dot(w, conv.augment(x))
            if _is_mistake(conv, score, label):
                self._find("final-weights-separate",
                           f"the final weights {_vec(w)} {_names(conv, self.data)} make a mistake on sample {i} "
                           f"(x = {_vec(x)}, label {label:+d}): w·x~ = {score}, {_judged(conv, score, label)}",
                           sample=i)
                return

    def _choose_factor(self, updates: list[tuple[int, Vector]] | None) -> Fraction:
        declared = self.options.eta
        if declared is not None:
            return declared
        reference = self.reference
        assert reference is not None and self.weights is not None
        if updates is not None:  # read off the first step; the final weights may have gone astray
            if updates and reference.updates and updates[0][0] == reference.updates[0].samples[0]:
                c = _factor(updates[0][1], reference.updates[0].weights, self.conv)
                if c is not None:
                    return c
            return Fraction(1)
        c = _factor(self.weights, reference.final_weights, self.conv)
        return c if c is not None else Fraction(1)

    def _agrees(self, updates: list[tuple[int, Vector]] | None) -> None:
        reference = self.reference
        assert reference is not None and self.weights is not None
        c = self.factor = self._choose_factor(updates)
        if updates is not None:
            if self._first_divergence(updates, c):
                return
        want = _scaled(c, reference.final_weights)
        if self.weights != want:
            names = self.conv.weight_names(self.data.n_features)
            per = "; ".join(
                f"{name}: {m} vs {r}" + (f" (ratio {m / r})" if r != 0 else "")
                for name, m, r in zip(names, self.weights, reference.final_weights))
            other = _factor(self.weights, reference.final_weights, self.conv)
            if other is not None and self.weights == _scaled(other, reference.final_weights):
                how = f"they are {other} times them, not {c} (the declared learning rate)"
            else:
                how = f"not {c} times them, nor any positive multiple of them"
            self._find("agrees-with-reference",
                       f"the final weights {_vec(self.weights)} {_names(self.conv, self.data)} do not match the exact "
                       f"run's {_vec(reference.final_weights)} (learning rate 1): {how}; coordinate by coordinate: {per}")

    def _first_divergence(self, updates: list[tuple[int, Vector]], c: Fraction) -> bool:
        """Compare update by update; report the first difference. True when one was found."""
        reference, conv, data = self.reference, self.conv, self.data
        assert reference is not None
        samples = [conv.augment(x) for x in data.X]
        zero = tuple(Fraction(0) for _ in samples[0])
        ref_updates = list(reference.updates)
        for k in range(1, max(len(ref_updates), len(updates)) + 1):
            mine = updates[k - 1] if k <= len(updates) else None
            ref = ref_updates[k - 1] if k <= len(ref_updates) else None
            if mine is not None and ref is not None and mine[0] == ref.samples[0] and mine[1] == _scaled(c, ref.weights):
                continue
            before = _scaled(c, ref_updates[k - 2].weights) if k >= 2 else zero
            if mine is None:
                assert ref is not None
                i = ref.samples[0]
                score = dot(before, samples[i])
                self._find("agrees-with-reference",
                           f"the implementation stopped after {_count(k - 1, 'update')}, but the exact run goes on: with w = "
                           f"{_vec(before)}, sample {i} (epoch {ref.epoch}) scores w·x~ = {score}, "
                           f"{_judged(conv, score, data.y[i])}: update {k} of {reference.n_updates}",
                           update=k, sample=i)
                return True
            i, after = mine
            score = dot(before, samples[i])
            if ref is None:
                self._find("agrees-with-reference",
                           f"update {k}: the implementation updated on sample {i} after the exact run had "
                           f"converged (at {reference.n_updates} updates): with w = {_vec(before)} it scores "
                           f"w·x~ = {score}, {_judged(conv, score, data.y[i])}", update=k, sample=i)
                return True
            j = ref.samples[0]
            if i != j:
                ref_score = dot(before, samples[j])
                text = (f"update {k}: the implementation updated on sample {i}, the exact run on sample {j}: with "
                        f"w = {_vec(before)}, sample {j} scores {ref_score}, {_judged(conv, ref_score, data.y[j])}")
                if not _is_mistake(conv, score, data.y[i]):
                    text += f"; sample {i} scores {score}, {_judged(conv, score, data.y[i])}"
                else:
                    text += f"; sample {i} is a mistake too, but the samples are presented in order and {j} comes first"
                self._find("agrees-with-reference", text, update=k, sample=i)
                return True
            self._find("agrees-with-reference", self._step_text(k, i, before, after, c, ref.delta), update=k, sample=i)
            return True
        return False

    def _step_text(self, k: int, i: int, before: Vector, after: Vector, c: Fraction, rule_delta: Vector) -> str:
        conv, data = self.conv, self.data
        step = tuple(a - b for a, b in zip(after, before))
        want = _scaled(c, rule_delta)
        names = conv.weight_names(data.n_features)
        bias = 0 if conv.bias_first else data.n_features
        label = data.y[i]
        text = (f"update {k} (sample {i}, label {label:+d}): the weights moved by {_vec(step)} {_names(conv, data)}, "
                f"the rule moves them by {_vec(want)}")
        others = [j for j in range(len(step)) if j != bias]
        if not any(step):
            text += ": they did not move at all"
            if self.options.labels == "0/1" and label < 0:
                text += " (the 0/1 label 0 used as the update's sign?)"
        elif step == tuple(-t for t in want):
            text += ": the opposite sign (w -= η·y·x~ instead of w += η·y·x~)"
        elif all(step[j] == want[j] for j in others):
            if step[bias] == 0:
                text += f": the bias weight {names[bias]} did not move"
            elif step[bias] == -want[bias]:
                text += f": the bias weight {names[bias]} moved the wrong way"
            elif want[bias] != 0:
                text += (f": the bias weight {names[bias]} moved {step[bias] / want[bias]} times the rule's step, the "
                         "other weights exactly the rule's step")
        elif all(t.denominator == 1 for t in after) and any(t.denominator != 1 for t in _add(before, want)):
            text += ": whole numbers where the rule gives fractions (truncated or rounded to integers?)"
        elif step[bias] == want[bias] and all(want[j] != 0 for j in others) and len({step[j] / want[j] for j in others}) == 1:
            text += (f": the weights other than {names[bias]} moved {step[others[0]] / want[others[0]]} times the "
                     "rule's step, the bias exactly the rule's step")
        return text

    def _learning_rate(self) -> None:
        c, conv = self.factor, self.conv
        if c is None or any(f.check == "agrees-with-reference" for f in self.findings):
            return
        try:
            conv.check_rate(c)
        except InvalidArgument as error:
            self._find("learning-rate", f"the weights are {c} times the exact run's: {error}")

    def _invariants(self, updates: list[tuple[int, Vector]]) -> None:
        conv, data, reference = self.conv, self.data, self.reference
        assert reference is not None and self.factor is not None
        samples = [conv.augment(x) for x in data.X]
        previous: Vector = tuple(Fraction(0) for _ in samples[0])
        records, epoch, last, counts = [], 1, -1, [0] * data.n_samples
        for k, (i, after) in enumerate(updates, start=1):
            if i <= last:
                epoch += 1
            last = i
            counts[i] += 1
            records.append(Update(k, epoch, (i,), (dot(previous, samples[i]),),
                                  tuple(a - b for a, b in zip(after, previous)), after))
            previous = after
        rate = self.factor if self.factor > 0 else Fraction(1)
        trace = Trace(conv.name, rate, "online", tuple(records), previous, epoch + 1, "max-epochs", None,
                      tuple(counts))
        final = reference.final_weights
        strict = all(y * dot(final, x) > 0 for x, y in zip(samples, data.y))
        # w* for the invariants: the exact run's final weights, made strict by the checker when a
        # hard limiter stopped with a class -1 score of exactly 0
        separator = final if strict else check_trace(data, reference).separator
        result = check_trace(data, trace, separator=separator)
        for invariant in result.violations:
            violation = invariant.first_violation
            assert violation is not None
            self._find(invariant.name, violation.describe(invariant.text), update=violation.k or None)

    # -- diagnosis of a failure ---------------------------------------------------------------------

    def diagnose(self) -> None:
        """Add what the output is consistent with, and where float rounding changed a decision."""
        if not self.findings or self.weights is None or self.reference is None or not self.separable:
            return
        rate = self.options.eta or (self.factor if self.n_updates else None)
        self.notes.extend(_diagnoses(self.data, self.conv, self.reference, self.weights, rate))
        if self.options.dtype == "float":
            self._explain_rounding()

    def _explain_rounding(self) -> None:
        """Where float64 changes a decision of this run, and whether that explains the implementation's output."""
        assert self.weights is not None
        rate = self.options.eta or (self.factor if self.factor is not None and self.factor > 0 else Fraction(1))
        if Fraction.from_float(float(rate)) != rate:
            return  # not a float64 rate: no float64 run to compare with
        budget = self.options.max_epochs or REFERENCE_EPOCHS
        final, first, rounded = _float_run(self.data, self.conv, rate, budget)
        explains = final == self.weights
        if first is None and not (rounded is not None and explains):
            return
        if first is not None:
            self.rounding = first
            self.notes.append(f"float rounding: a float64 run of the same algorithm (rate {_rate_text(rate)}, products "
                              f"added in order, then the bias) first decides differently from the exact run "
                              f"{first.describe()}")
        if rounded is not None:
            self.notes.append(f"float rounding: in that float64 run, {rounded}")
        self.notes.append(f"float rounding: the float64 run ends at {_vec(final)}, which "
                          + ("is exactly the implementation's result: float rounding explains the difference from "
                             "the exact run" if explains else "is not the implementation's result either"))

    def result(self) -> CaseResult:
        return CaseResult(self.name, self.data, self.options, self.label[0], tuple(self.findings), tuple(self.notes),
                          self.label[1],
                          self.separable, self.reference, self.weights, self.n_updates, self.factor, self.rounding)


# --- reports ----------------------------------------------------------------------------------------


def _rows_literal(data: Dataset) -> str:
    return "[" + ", ".join("[" + ", ".join(f'"{v}"' for v in row) + "]" for row in data.X) + "]"


def _reproduction(code: tuple[str, str] | None, data: Dataset, options: CheckOptions) -> str:
    head, call = code if code is not None else ("", "YOUR_IMPLEMENTATION")
    defaults = CheckOptions()
    keywords = [f"convention={options.convention!r}", f"dtype={options.dtype!r}", f"labels={options.labels!r}"]
    if options.eta is not None:
        keywords.append(f"eta={str(options.eta)!r}")
    if options.max_epochs is not None:
        keywords.append(f"max_epochs={options.max_epochs}")
    if options.detects_nonseparable != defaults.detects_nonseparable:
        keywords.append("detects_nonseparable=True")
    if options.output != defaults.output:
        keywords.append(f"output={options.output!r}")
    rows = "[" + ", ".join("[" + ", ".join(repr(str(v)) for v in row) + "]" for row in data.X) + "]"
    return (f'python -c "from verify_perceptron.harness import check_dataset; {head}print(check_dataset({call}, '
            f'{rows}, {list(data.y)}, {", ".join(keywords)}).report())"')


_NUMBERS_SHOWN = {
    "integers": "integer values",
    "dyadic": "small dyadic values, on which float64 computes every score exactly",
    "rationals": "rational values",
    "floats": "float64 values with 53 significant bits: rounding stress",
}


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _rate_text(rate: Fraction) -> str:
    """A rate, with the float it is when that reads shorter (``3602879701896397/36028797018963968 (the double 0.1)``)."""
    if Fraction.from_float(float(rate)) == rate and len(repr(float(rate))) < len(str(rate)):
        return f"{rate} (the double {float(rate)!r})"
    return str(rate)


def _settings_line(options: CheckOptions) -> str:
    conv = get_convention(options.convention)
    rate = f"learning rate {_rate_text(options.eta)}" if options.eta is not None else "learning rate inferred from the output"
    limit = ("" if options.max_epochs is None else
             f", at most {_count(options.max_epochs, 'epoch')} (data needing more are not generated)")
    return (f"convention {conv.name} (note {conv.note_number}: {conv.summary}); dtype {options.dtype}, "
            f"labels {options.labels}, {rate}{limit}")


def _case_lines(case: CaseResult, *, indent: str) -> list[str]:
    conv = get_convention(case.options.convention)
    d = case.data
    lines = [f"{indent}{case.name}: {d.n_samples} samples, {d.n_features} feature{'s' if d.n_features > 1 else ''}"
             f"{'' if case.separable else ', not linearly separable'}: {'passed' if case.passed else 'FAILED'}"]
    lines += [f"{indent}  {line}" for line in case.literals().splitlines()]
    if case.findings:
        lines.append(f"{indent}  what is wrong:")
        lines += [f"{indent}    - {finding}" for finding in case.findings]
    if case.notes:
        lines.append(f"{indent}  notes:")
        lines += [f"{indent}    - {note}" for note in case.notes]
    ref = case.reference
    if ref is not None and case.separable:
        steps = ", ".join(f"sample {u.samples[0]} (score {u.scores[0]})" for u in ref.updates[:8])
        more = ", ..." if ref.n_updates > 8 else ""
        lines.append(f"{indent}  exact run (learning rate 1): {_count(ref.n_updates, 'update')} in "
                     f"{_count(ref.n_epochs, 'epoch')} "
                     f"[{steps}{more}], final weights {_vec(ref.final_weights)} "
                     f"({', '.join(conv.weight_names(d.n_features))})")
    if case.weights is not None:
        reported = "updates not reported" if case.n_updates is None else f"{_count(case.n_updates, 'update')} reported"
        lines.append(f"{indent}  implementation: final weights {_vec(case.weights)}, {reported}")
    if not case.passed:
        lines.append(f"{indent}  reproduce:")
        lines.append(f"{indent}    {case.reproduction()}")
    return lines


def _harness_report(result: HarnessResult) -> str:
    options = result.options
    verdict = "passed" if result.passed else "FAILED"
    lines = [f"check of {result.target}", f"  {_settings_line(options)}",
             f"  data: up to {options.examples} generated datasets ({_NUMBERS_SHOWN[options.numbers]}"
             + (", non-separable ones too" if options.detects_nonseparable else "")
             + (")" if not options.worked_examples else ") and the notes' worked examples"),
             "  checks: the final weights separate the data and equal the exact run's up to the learning rate"
             + ("; every reported update obeys the rule and keeps the proof's invariants, the mistake bound included"
                if result.reports_updates else "; the updates are not reported, so not checked one by one"),
             f"verdict: {verdict}"]
    if result.departures:
        lines.append("configuration departs from the note's algorithm:")
        lines += [f"  - {d.message}" for d in result.departures]
    if result.flaky:
        lines.append(f"not deterministic: {result.flaky}")
    if result.counterexample is not None:
        shrunk = " (shrunk to a minimal one)" if result.counterexample.name == "generated" else ""
        lines.append(f"counterexample{shrunk}:")
        lines += _case_lines(result.counterexample, indent="  ")
    generated = (f"generated: {_count(result.n_examples, 'dataset')} checked"
                 + (" before the first failure" if result.counterexample is not None
                    and result.counterexample.name == "generated" else "")
                 + f", {result.n_rejected} set aside")
    lines.append(generated)
    if result.worked_examples:
        shown = []
        for case in result.worked_examples:
            status = "passed" if case.passed else f"FAILED ({case.findings[0].check})"
            shown.append(f"{case.name.removeprefix('worked example ')} {status}")
        lines.append("worked examples: " + ", ".join(shown))
    return "\n".join(lines) + "\n"


# --- the front doors --------------------------------------------------------------------------------


def _prepare(target: object) -> tuple[object, str, tuple[str, tuple[str, str] | None]]:
    """The implementation loaded, its kind, and how reports name it."""
    loaded = load_target(target)
    kind = _kind(loaded)
    return loaded, kind, (_describe(target) if isinstance(target, str) else _describe(loaded))


def check_dataset(
    target: object,
    X: Sequence[Sequence[object]],
    y: Sequence[object],
    *,
    convention: str = "classic",
    dtype: str = "float",
    labels: str = "-1/+1",
    eta: object = None,
    detects_nonseparable: bool | type[BaseException] | tuple[type[BaseException], ...] = False,
    max_epochs: int | None = None,
    call_timeout: float | None = 10.0,
    output: str = "auto",
) -> CaseResult:
    """Check an implementation on one dataset (the reproduction a report prints).

    Parameters
    ----------
    target : callable, estimator class or instance, or str
        The implementation, or ``"module:name"``.
    X, y : array-like
        The data, exactly: literals such as ``"1/3"``, Fractions, ints or floats;
        labels -1/+1 (or 0/1).
    convention, dtype, labels, eta, detects_nonseparable, max_epochs, call_timeout, output
        As for `check_implementation`.

    Returns
    -------
    CaseResult

    Examples
    --------
    >>> def fit(X, y):
    ...     return [0.0] * len(X[0]), 0.0  # never learns
    >>> case = check_dataset(fit, [["-1"], ["1"]], [-1, 1])
    >>> case.passed, case.findings[0].check
    (False, 'final-weights-separate')
    """
    from ..data.dataset import from_arrays

    options = _options(convention=convention, dtype=dtype, labels=labels, eta=eta, examples=1, seed=None,
                       rounding_stress=False, detects_nonseparable=detects_nonseparable, max_epochs=max_epochs,
                       call_timeout=call_timeout, worked_examples=False, output=output, accept_departures=(),
                       max_features=3, max_samples=8)
    loaded, kind, label = _prepare(target)
    data = from_arrays(X, y)
    case = _Case(loaded, kind, "given dataset", data, options, label, generated=False)
    case.run()
    case.diagnose()
    return case.result()


def check_implementation(
    target: object,
    *,
    convention: str = "classic",
    dtype: str = "float",
    labels: str = "-1/+1",
    eta: object = None,
    examples: int = DEFAULT_EXAMPLES,
    seed: int | None = None,
    rounding_stress: bool = False,
    detects_nonseparable: bool | type[BaseException] | tuple[type[BaseException], ...] = False,
    max_epochs: int | None = None,
    call_timeout: float | None = 10.0,
    worked_examples: bool = True,
    output: str = "auto",
    accept_departures: Sequence[str] = (),
    max_features: int = 3,
    max_samples: int = 8,
    data: SearchStrategy[Dataset] | None = None,
) -> HarnessResult:
    """Check a perceptron implementation on generated data; return the verdict and the minimal counterexample.

    Parameters
    ----------
    target : callable, estimator class or instance, or str
        ``fit(X, y) -> (w, b)`` (or ``(w, b, updates)``), a scikit-learn-style
        estimator class or instance, or ``"module:name"`` naming one.
    convention : str
        The note whose perceptron it claims to be (default ``classic``).
    dtype : {"float", "fraction", "object"}
        How it receives X: NumPy float64, lists of Fraction, NumPy object arrays of Fraction.
    labels : {"-1/+1", "0/1"}
        How it receives y.
    eta : rational, optional
        Its learning rate, if you want it checked; else inferred from its
        output (a scikit-learn ``eta0`` is read from ``get_params()``).
    examples : int
        Generated datasets to try, shared among the kinds of data (see `CheckOptions`).
    seed : int, optional
        Search with this seed instead of the derandomized default.
    rounding_stress : bool
        Give a float implementation values with 53 significant bits (float64 then rounds).
    detects_nonseparable : bool or exception type(s)
        It signals data that no hyperplane separates by returning None (or by
        raising one of these exceptions); non-separable data are generated too.
    max_epochs : int, optional
        Its own limit of passes; data whose exact run needs more are not
        generated (a scikit-learn ``max_iter`` is read from ``get_params()``).
    call_timeout : float, optional
        Seconds one call may take (POSIX, main thread).
    worked_examples : bool
        Also check the notes' worked examples.
    output : {"auto", "pair", "augmented"}
        How to read the returned weights.
    accept_departures : sequence of str
        Configuration departures not to count as failures (``"tol"``, ...).
    max_features, max_samples : int
        Bounds of the generated datasets.
    data : SearchStrategy of Dataset, optional
        Your own strategy (from `verify_perceptron.harness.strategies`) instead of the default mix.

    Returns
    -------
    HarnessResult
        ``passed``, the shrunk ``counterexample``, and ``report()``.

    Examples
    --------
    >>> def fit(X, y):
    ...     return [0.0] * len(X[0]), 0.0  # never learns
    >>> result = check_implementation(fit, examples=10, worked_examples=False)
    >>> result.passed, result.counterexample.findings[0].check
    (False, 'final-weights-separate')
    """
    loaded, kind, label = _prepare(target)
    params = _params(loaded, kind)
    if eta is None and isinstance(params.get("eta0"), (int, float)) and not isinstance(params.get("eta0"), bool):
        eta = params["eta0"]
    if max_epochs is None and isinstance(params.get("max_iter"), int) and params.get("max_iter", 0) >= 1:
        max_epochs = params["max_iter"]
    options = _options(convention=convention, dtype=dtype, labels=labels, eta=eta, examples=examples, seed=seed,
                       rounding_stress=rounding_stress, detects_nonseparable=detects_nonseparable,
                       max_epochs=max_epochs, call_timeout=call_timeout, worked_examples=worked_examples,
                       output=output, accept_departures=accept_departures, max_features=max_features,
                       max_samples=max_samples)
    departures = _departures(params, options)
    worked: list[_Case] = []
    if options.worked_examples:
        from .strategies import worked_examples as notes_examples

        for name, example_data in notes_examples(nonseparable=options.detects_nonseparable):
            case = _Case(loaded, kind, f"worked example {name!r}", example_data, options, label, generated=False)
            case.run()
            worked.append(case)
    counterexample, n_examples, n_rejected, flaky, with_updates = _search(loaded, kind, label, options, data)
    if counterexample is None:  # no generated failure: show the first failing worked example, diagnosed
        failing = next((c for c in worked if c.findings), None)
        if failing is not None:
            failing.diagnose()
            counterexample = failing.result()
    with_updates = with_updates or any(c.n_updates is not None for c in worked)
    return HarnessResult(label[0], options, departures, counterexample, tuple(c.result() for c in worked), n_examples,
                         n_rejected, flaky, with_updates)


def _strategies(options: CheckOptions, strategy: SearchStrategy[Dataset] | None) -> list[tuple[SearchStrategy[Dataset], int]]:
    """The searches to run, each with its share of the examples: one per kind of data, simplest first.

    Searching each kind on its own guarantees it its share: in one mixed
    search Hypothesis's generation clusters, and a small budget can miss a
    kind entirely. The first kind that fails gives the counterexample.
    """
    if strategy is not None:
        return [(strategy, options.examples)]
    from .strategies import DATASET_KINDS, datasets, nonseparable_datasets

    bounds: dict[str, Any] = {"numbers": options.numbers, "max_features": options.max_features,
                              "max_samples": options.max_samples}
    searches = [datasets(kinds=[kind], convention=options.convention, **bounds) for kind in DATASET_KINDS]
    if options.detects_nonseparable:
        searches.append(nonseparable_datasets(**bounds))
    searches = searches[:options.examples]  # fewer examples than kinds: the simplest kinds, one each
    share, extra = divmod(options.examples, len(searches))
    return [(s, share + (extra if i == 0 else 0)) for i, s in enumerate(searches)]


def _search(target: object, kind: str, label: tuple[str, tuple[str, str] | None], options: CheckOptions,
            strategy: SearchStrategy[Dataset] | None) -> tuple[CaseResult | None, int, int, str | None, bool]:
    """Hypothesis's search and shrink; the minimal failing case (polished and diagnosed), or None."""
    from hypothesis import assume, given, seed
    from hypothesis.errors import Flaky, Unsatisfiable

    counts = Counter[str]()
    last: list[_Case] = []
    reasons = Counter[str]()

    class _Failed(Exception):
        pass

    def attempt(data: Dataset) -> None:
        case = _Case(target, kind, "generated", data, options, label, generated=True)
        try:
            case.run()
        except _Rejected as reason:
            counts["rejected"] += 1
            reasons[str(reason)] += 1
            assume(False)
        if not last:
            counts["checked"] += 1
        if case.n_updates is not None:
            counts["with updates"] += 1
        if case.findings:
            last[:] = [case]
            raise _Failed

    def fresh(data: Dataset) -> None:  # one function per search: Hypothesis decorates each once
        attempt(data)

    flaky = None
    usable = 0
    for strategy_of_kind, examples in _strategies(options, strategy):
        test: Callable[[], None] = given(strategy_of_kind)(
            harness_settings(examples=examples, seed=options.seed)(_function_copy(fresh)))
        if options.seed is not None:
            test = seed(options.seed)(test)
        try:
            test()
        except _Failed:
            pass
        except Flaky:
            flaky = ("the implementation failed on a dataset and passed when given the same dataset again; it is "
                     "not deterministic (unseeded shuffling?)")
        except Unsatisfiable:
            continue
        usable += 1
        if last or flaky:
            break
    if not usable:
        common = ", ".join(f"{r} ({n})" for r, n in reasons.most_common(3))
        raise InvalidArgument(f"no generated dataset could be used: {common}; loosen max_epochs or the data bounds")
    with_updates = counts["with updates"] > 0
    if not last:
        return None, counts["checked"], counts["rejected"], flaky, with_updates
    minimal = _polish(last[0], target, kind, label, options)
    minimal.diagnose()
    return minimal.result(), counts["checked"], counts["rejected"], flaky, with_updates


def _function_copy(function: Callable[[Dataset], None]) -> Callable[[Dataset], None]:
    """A new function object with the same code: the same derandomized seed, a fresh place for Hypothesis's marks."""
    import types

    return types.FunctionType(function.__code__, function.__globals__, function.__name__, function.__defaults__,
                              function.__closure__)


def _smaller(data: Dataset) -> Iterator[Dataset]:
    """Simpler datasets to try after Hypothesis's shrink: without one feature (first those that are 0 in
    every sample, on which no weight ever moves), then without one sample."""
    from ..errors import DataError

    zero_first = sorted(range(data.n_features), key=lambda j: any(x[j] != 0 for x in data.X))
    for j in zero_first if data.n_features > 1 else ():
        yield Dataset(X=tuple(x[:j] + x[j + 1:] for x in data.X), y=data.y, source=data.source)
    for i in range(data.n_samples):
        try:
            yield Dataset(X=data.X[:i] + data.X[i + 1:], y=data.y[:i] + data.y[i + 1:], source=data.source)
        except DataError:  # one class left
            continue


def _polish(case: _Case, target: object, kind: str, label: tuple[str, tuple[str, str] | None],
            options: CheckOptions) -> _Case:
    """Keep removing features and samples while the implementation still fails (on data the harness
    would use): a case from which no single feature or sample can be dropped."""
    improved = True
    while improved:
        improved = False
        for data in _smaller(case.data):
            candidate = _Case(target, kind, "generated", data, options, label, generated=True)
            try:
                candidate.run()
            except _Rejected:
                continue
            if candidate.findings:
                case, improved = candidate, True
                break
    return case


def assert_implementation_correct(target: object, **options: Any) -> HarnessResult:
    """Like `check_implementation`, but raise `ImplementationFailure` (an AssertionError) with the report.

    Examples
    --------
    >>> def fit(X, y):
    ...     return [0.0] * len(X[0]), 0.0
    >>> assert_implementation_correct(fit, examples=5, worked_examples=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    verify_perceptron.harness.ImplementationFailure: check of verify_perceptron.harness:fit (not importable by that name)
    ...
    verdict: FAILED
    ...
    """
    result = check_implementation(target, **options)
    if not result.passed:
        raise ImplementationFailure(result.report())
    return result


def run_check_command(
    target: str,
    *,
    convention: str = "classic",
    examples: int = DEFAULT_EXAMPLES,
    dtype: str = "float",
    labels: str = "-1/+1",
    seed: int | None = None,
    eta: str | None = None,
    rounding_stress: bool = False,
    detects_nonseparable: bool = False,
    max_epochs: int | None = None,
) -> tuple[int, str]:
    """The ``verify-perceptron check MODULE:CALLABLE`` command: ``(exit code, report text)``, printing nothing.

    Exit code 0 when the implementation passed, 1 when it failed (the text then
    holds the minimal counterexample and its reproduction). A target that
    cannot be imported or used, or a bad option, raises `InvalidArgument`
    (the CLI's exit code 2).

    Examples
    --------
    >>> code, text = run_check_command("verify_perceptron.harness:reference_fit", dtype="fraction", examples=5)
    >>> code, [line for line in text.splitlines() if line.startswith("verdict")]
    (0, ['verdict: passed'])
    """
    result = check_implementation(target, convention=convention, examples=examples, dtype=dtype, labels=labels,
                                  seed=seed, eta=eta, rounding_stress=rounding_stress,
                                  detects_nonseparable=detects_nonseparable, max_epochs=max_epochs)
    return (0 if result.passed else 1), result.report()


def reference_fit(X: Sequence[Sequence[object]], y: Sequence[object]) -> tuple[list[Fraction], Fraction]:
    """The reference engine as an implementation: ``fit(X, y) -> (w, b)``, exact, under ``classic``.

    It takes labels -1/+1 or 0/1 and any exact values; a check of it passes
    by construction, which makes it a baseline for the harness itself.

    Examples
    --------
    >>> w, b = reference_fit([[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 0, 1])
    >>> [str(v) for v in w], str(b)
    (['3', '2'], '-4')
    """
    from ..data.dataset import from_arrays

    run = train(from_arrays(X, y), "classic", max_epochs=100_000)
    b, v = get_convention("classic").to_canonical(run.final_weights)
    return list(v), b
