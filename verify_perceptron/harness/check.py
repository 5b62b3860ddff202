"""Check someone else's perceptron against the notes, exactly, on data Hypothesis chooses and shrinks.

An implementation is any of

- a function ``fit(X, y) -> (w, b)`` (score ``w·x + b``), or returning the
  augmented weight vector in the convention's own order (``[w0, w1, ..., wm]``
  for ``classic``);
- a scikit-learn-style estimator, as a class (built with no arguments) or an
  instance (cloned for every dataset): ``fit(X, y)``, then ``coef_`` and
  ``intercept_``;
- a program in any language, `command_implementation("CMD {train} {out}")`: each
  dataset is written as CSV, its weights read back from the file it writes
  (the protocol is in ``_process``; ``docs/harness.md``);
- either of the first two also reporting its updates: the function returns
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
agrees-with-reference    the result is c times the exact reference run's (`run.reference.train`),
                         c > 0 the factor a learning rate introduces from w = 0; with updates,
                         update by update
learning-rate            that factor is a rate the note allows (none for ``unit-ball``, <= 1 for
                         ``hard-limiter``)
update-rule, ...         every reported update obeys the note's rule and keeps every invariant the
                         proof uses, the mistake bound included (`check.traces.check_trace`)
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

This module holds the front doors (`check_implementation`, `check_dataset`,
`assert_implementation_correct`, `run_check_command`); `verify_perceptron.harness`
re-exports them. One dataset's checks run in ``_case``, the search in ``_search``.

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

import dataclasses
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..data.dataset import Dataset
from ..data.rationals import shown_value
from ..deadline import GRACE, TimeUp, alarm
from ..errors import InvalidArgument
from ._case import _Case
from ._clock import Clock, OutOfTime, seconds_or_none
from ._configuration import _declared, _departures, _plain_configuration
from ._evidence import Evidence
from ._implementation import Implementation
from ._keeper import stop_all
from ._options import DEFAULT_EXAMPLES, CheckOptions, _options, float_rate_text, needs_hypothesis
from ._probes import nondeterminism_probe
from ._process import command_implementation
from ._reference_fit import reference_fit
from ._results import CaseResult, Finding, HarnessResult, ImplementationFailure
from ._runner import Runner
from ._search import _search
from ._loading import prepare
from ._tokens import written_apart

if TYPE_CHECKING:  # Hypothesis loads only when a check runs
    from hypothesis.strategies import SearchStrategy

#: Seconds left after the check's timer fires, for the one-line report and the interpreter's exit.
_REPORTING = 0.15

__all__ = [
    "check_dataset",
    "check_implementation",
    "assert_implementation_correct",
    "run_check_command",
    "reference_fit",
    "command_implementation",
]


def check_dataset(
    target: Implementation,
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
    accept_departures: Sequence[str] = (),
    averaged: bool | str = False,
    time_limit: float | None = None,
    bias: str | None = None,
    mode: str = "online",
    labels_as: str | None = None,
) -> CaseResult:
    """Check an implementation on one dataset (the reproduction a report prints).

    Parameters
    ----------
    target : callable, estimator class or instance, or str
        The implementation, or ``"module:name"``.
    X, y : array-like
        The data, exactly: literals such as ``"1/3"``, Fractions, ints or floats;
        labels -1/+1 (or 0/1): the implementation is given them as `labels` and `labels_as` say.
    convention, dtype, labels, eta, detects_nonseparable, max_epochs, call_timeout, output, accept_departures, averaged, time_limit, bias, mode, labels_as
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
                       call_timeout=call_timeout, worked_examples=False, output=output,
                       accept_departures=accept_departures,
                       max_features=3, max_samples=8, averaged=averaged, bias=bias, mode=mode, labels_as=labels_as)
    clock = Clock(_time_limit(time_limit))
    data = from_arrays(X, y)
    clock.phase = "loading the implementation"
    prepared = prepare(target, options.nonseparable_errors, clock)
    clock.phase = "checking the dataset"
    runner = Runner(prepared.target, prepared.kind, options, clock, prepared.worker)
    try:
        case = _Case(runner, prepared.kind, "given dataset", data, options, prepared.label, generated=False)
        case.run()
        case.diagnose()
    except OutOfTime as error:
        raise TimeUp(error.seconds, error.phase) from None
    finally:
        runner.close()
    result = case.result()
    if prepared.output:
        result = dataclasses.replace(result, notes=(*result.notes, "while being loaded, the implementation printed: "
                                                    + " ".join(prepared.output.split())[:200]))
    return result


def check_implementation(
    target: Implementation, *, convention: str = "classic", dtype: str = "float", labels: str = "-1/+1",
    labels_as: str | None = None, eta: object = None, examples: int = DEFAULT_EXAMPLES, seed: int | None = None, rounding_stress: bool = False,
    detects_nonseparable: bool | type[BaseException] | tuple[type[BaseException], ...] = False,
    max_epochs: int | None = None, call_timeout: float | None = 10.0, worked_examples: bool = True,
    output: str = "auto", accept_departures: Sequence[str] = (), max_features: int = 3, max_samples: int = 8,
    data: SearchStrategy[Dataset] | None = None, averaged: bool | str = False, time_limit: float | None = None, bias: str | None = None,
    mode: str = "online",
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
    labels, labels_as : str
        How it receives y: ``"-1/+1"``, ``"0/1"``, or any two tokens ``"NEG/POS"`` (``"1/2"``, ``"R/M"``; int64
        when both are integers, else strings); and how its code maps them: ``labels_as="0/1"`` for η·(d - y).
    eta : rational, optional
        Its learning rate, if you want it checked; else inferred from its output (scikit-learn's ``eta0`` too).
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
        Its own limit of passes (or a scikit-learn ``max_iter``): compared with the note's run stopped
        after exactly that many epochs, converged or not (1: a one-pass learner).
    call_timeout : float, optional
        Seconds one call may take (POSIX, main thread).
    worked_examples : bool
        Also check the notes' worked examples.
    output : {"auto", "pair", "augmented"}
        How to read the returned weights.
    accept_departures : sequence of str
        Configuration departures not to count as failures (``"tol"``, ...); ``eta0`` (or ``float-rate``), ``tol``
        and ``shuffle`` also change the reference (the float64 run at the rate; any epoch's end; no order).
    max_features, max_samples : int
        Bounds of the generated datasets.
    data : SearchStrategy of Dataset, optional
        Your own strategy (from `verify_perceptron.harness.strategies`) instead of the default mix.
    averaged : bool or str
        It returns the averaged perceptron's weights (over every presentation, or over what it names:
        `run.averaged.AVERAGES`; up to the first clean epoch, or exactly `max_epochs`), which need not separate.
    time_limit : float, optional
        Seconds the whole check may take: every call ends by then, and the check raises `TimeUp` naming what it
        was doing (looked at between the steps of its own work; ``check --time-limit`` also interrupts them).
    bias : {"first", "last", "convention"}, optional
        Where a flat weight vector holds the bias (`CheckOptions.bias`); ``weight-layout`` names another that fits.
    mode : {"online", "batch"}
        ``batch``: one step a pass, by the sum over the pass's mistakes (note 003); compared with the batch run.

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
    return _checked(Clock(_time_limit(time_limit)), target, data, eta=eta, max_epochs=max_epochs,
                    convention=convention, dtype=dtype, labels=labels, examples=examples, seed=seed,
                    rounding_stress=rounding_stress, detects_nonseparable=detects_nonseparable,
                    call_timeout=call_timeout, worked_examples=worked_examples, output=output,
                    accept_departures=accept_departures, max_features=max_features, max_samples=max_samples,
                    averaged=averaged, bias=bias, mode=mode, labels_as=labels_as)


def _checked(clock: Clock, target: object, data: SearchStrategy[Dataset] | None, *, eta: object,
             max_epochs: int | None, **settings: Any) -> HarnessResult:
    """`check_implementation` under `clock`: the options checked (before anything is loaded), then the target
    loaded, its declared rate and epochs read, and the check."""
    start = time.perf_counter()
    given = _options(eta=eta, max_epochs=max_epochs, **settings)
    written_apart(given.classes, getattr(target, "delimiter", None))  # a command's {train} holds the labels
    needs_hypothesis()
    clock.phase = "loading the implementation"
    prepared = prepare(target, given.nonseparable_errors, clock)
    try:
        declared_eta, declared_epochs = _declared(prepared.params, eta=eta, max_epochs=max_epochs)
        options = _options(eta=declared_eta, max_epochs=declared_epochs, **settings)
    except InvalidArgument as error:
        if prepared.worker is not None:
            prepared.worker.close()
        read = [name for name, mine, theirs in (("eta0", eta, declared_eta), ("max_iter", max_epochs, declared_epochs))
                if mine is None and theirs is not None]
        raise InvalidArgument(f"{error} ({' and '.join(read)} read from the estimator's get_params())" if read
                              else str(error)) from None
    except BaseException:
        if prepared.worker is not None:
            prepared.worker.close()
        raise
    options = dataclasses.replace(options, configuration=_plain_configuration(prepared.params))
    runner = Runner(prepared.target, prepared.kind, options, clock, prepared.worker)
    try:
        configuration = time.perf_counter()
        departures = _departures(prepared.params, options)
        configuration = time.perf_counter() - configuration
        result = _verdict(runner, prepared.kind, prepared.label, options, departures, data)
    except OutOfTime as error:
        raise TimeUp(error.seconds, error.phase) from None
    finally:
        runner.close()
    seconds = (("total", time.perf_counter() - start), ("configuration", configuration), *result.seconds)
    return dataclasses.replace(result, loading_output=prepared.output, seconds=seconds)


def _time_limit(seconds: object) -> float | None:
    """`seconds` checked: a number > 0 (at most `_clock.MAX_SECONDS`), or None for no limit."""
    return seconds_or_none("time_limit", seconds)


def _verdict(target: Runner, kind: str, label: tuple[str, tuple[str, str] | None], options: CheckOptions,
             departures: tuple[Finding, ...], strategy: SearchStrategy[Dataset] | None) -> HarnessResult:
    """The notes' worked examples, then the search; the counterexample is the search's, else the first
    failing worked example, diagnosed."""
    worked: list[_Case] = []
    evidence = Evidence()
    seconds: dict[str, float] = {}
    target.clock.phase = "checking the notes' worked examples"
    if options.worked_examples:
        from .strategies import worked_examples as notes_examples

        for name, example_data in notes_examples(nonseparable=options.detects_nonseparable):
            start = time.perf_counter()
            case = _Case(target, kind, f"worked example {name!r}", example_data, options, label, generated=False)
            case.run()
            worked.append(case)
            if case.separable:
                evidence.add(case.data, case.weights)
            seconds[case.name] = time.perf_counter() - start
    start = time.perf_counter()
    counterexample, n_examples, n_rejected, flaky, with_updates = _search(target, kind, label, options, strategy,
                                                                          evidence)
    seconds["generated"] = time.perf_counter() - start
    flaky_diagnosis = None
    if counterexample is None:  # no generated failure: show the first failing worked example, diagnosed
        failing = next((c for c in worked if c.findings), None)
        target.clock.phase = "diagnosing the failing worked example"
        if failing is not None:
            start = time.perf_counter()
            failing.diagnose(evidence)
            counterexample = failing.result()
            seconds[failing.name] += time.perf_counter() - start
    if flaky is not None and evidence.last is not None:
        start = time.perf_counter()
        probe = _Case(target, kind, "probe", evidence.last, options, label, generated=False)
        flaky_diagnosis = nondeterminism_probe(probe.data, probe.conv, probe.recheck, options.labels)
        seconds["generated"] += time.perf_counter() - start
    with_updates = with_updates or any(c.n_updates is not None for c in worked)
    return HarnessResult(label[0], options, departures, counterexample, tuple(c.result() for c in worked), n_examples,
                         n_rejected, flaky, with_updates, flaky_diagnosis, seconds=tuple(seconds.items()))


def assert_implementation_correct(target: Implementation, **options: Any) -> HarnessResult:
    """Like `check_implementation`, but raise `ImplementationFailure` (an AssertionError) with the report.

    Examples
    --------
    >>> def fit(X, y):
    ...     return [0.0] * len(X[0]), 0.0
    >>> assert_implementation_correct(fit, examples=5, worked_examples=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    verify_perceptron.harness.ImplementationFailure: check of verify_perceptron.harness.check:fit (not importable by that name)
    ...
    verdict: FAILED
    ...
    """
    result = check_implementation(target, **options)
    if not result.passed:
        raise ImplementationFailure(result.report())
    return result


def run_check_command(
    target: str | None,
    *,
    convention: str = "classic",
    examples: int = DEFAULT_EXAMPLES,
    dtype: str = "float",
    labels: str = "-1/+1",
    seed: int | None = None,
    eta: str | None = None,
    float_eta: str | None = None,
    rounding_stress: bool = False,
    detects_nonseparable: bool = False,
    max_epochs: int | None = None,
    command: str | None = None,
    call_timeout: float | None = 10.0,
    accept: Sequence[str] = (),
    output: str = "auto",
    format: str = "text",
    averaged: bool | str = False,
    time_limit: float | None = None, spent: float = 0.0,
    bias: str | None = None, mode: str = "online", progress: Any = None, label_column: str = "last",
    header: bool = False, delimiter: str = ",", labels_as: str | None = None,
) -> tuple[int, str]:
    """The ``verify-perceptron check MODULE:EXPR`` (or ``--command CMD``) command: ``(exit code, text)``.

    Exit code 0 when the implementation passed, 1 when it failed (the text then
    holds the minimal counterexample and its reproduction). A target that
    cannot be imported or used, or a bad option, raises `InvalidArgument`
    (the CLI's exit code 2). `float_eta` declares the double nearest to a
    decimal (``"0.1"``), `eta` the exact value it spells; `command` runs an
    implementation in any language (`command_implementation`); `format` is
    ``text``, ``json`` or ``junit``.

    `time_limit` bounds the whole check, counting the `spent` seconds the
    process used before (its start, its imports): every call of the
    implementation ends by then, the check looks at the time between its
    own steps, and a timer interrupts whatever runs at the limit plus
    `verify_perceptron.deadline.GRACE` (less the moment the CLI needs to
    report). Either raises `verify_perceptron.deadline.TimeUp` (the CLI's
    exit code 3), and no process the check started is left running.

    Examples
    --------
    >>> code, text = run_check_command("verify_perceptron.harness:reference_fit", dtype="fraction", examples=5)
    >>> code, [line for line in text.splitlines() if line.startswith("verdict")]
    (0, ['verdict: passed'])
    >>> run_check_command("verify_perceptron.harness:reference_fit", float_eta="x")
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.InvalidArgument: float_eta='x' must be a decimal number > 0, e.g. 0.1
    """
    from ._formats import FORMATS, render

    if format not in FORMATS:
        raise InvalidArgument(f"format={shown_value(format)} must be one of {', '.join(FORMATS)}")
    rate: object = eta
    if float_eta is not None:
        if eta is not None:
            raise InvalidArgument(f"eta={shown_value(eta)} and float_eta={shown_value(float_eta)}: give one learning rate, not both")
        rate = float_rate_text(float_eta)
    limit = _time_limit(time_limit)
    clock = Clock(None if limit is None else limit, spent=spent, watch=progress)
    implementation = _implementation(target, command, label_column, header, delimiter)
    backstop = None if limit is None else max(limit + GRACE - _REPORTING - spent, 0.01)
    try:
        with alarm(backstop, lambda: OutOfTime(limit or 0.0, clock.phase)):
            result = _checked(clock, implementation, None, eta=rate, max_epochs=max_epochs, convention=convention,
                              dtype=dtype, labels=labels, examples=examples, seed=seed,
                              rounding_stress=rounding_stress, detects_nonseparable=detects_nonseparable,
                              call_timeout=call_timeout, worked_examples=True, output=output,
                              accept_departures=tuple(accept), max_features=3, max_samples=8, averaged=averaged,
                              bias=bias, mode=mode, labels_as=labels_as)
    except OutOfTime as error:  # the timer's, landing anywhere
        raise TimeUp(error.seconds, error.phase) from None
    finally:
        stop_all()  # here, out of the timer's reach: whatever it interrupted, nothing is left running
    return (0 if result.passed else 1), render(result, format)


def _implementation(target: str | None, command: str | None, label_column: str, header: bool = False,
                    delimiter: str = ",") -> object:
    """What `run_check_command` checks: `target` (MODULE:EXPR), or the `command` with its `{train}` layout."""
    if (target is None) == (command is None):
        raise InvalidArgument("give either MODULE:EXPR or command='CMD {train} [{out}]', not "
                              + ("both" if target is not None else "neither"))
    if command is None:
        if label_column != "last":
            raise InvalidArgument(f"label_column={shown_value(label_column)} says where a command's {{train}} holds "
                                  "the label")
        if header or delimiter not in (",", "comma"):
            raise InvalidArgument("header=True says a command's {train} starts with a header line" if header else
                                  f"delimiter={shown_value(delimiter)} says what a command's {{train}} holds apart")
        return target
    return command_implementation(command, label_column=label_column, header=header, delimiter=delimiter)
