"""How an implementation is called and judged: `CheckOptions`, the checks of its fields, the defaults,
and the harness's own Hypothesis settings."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from ..data.exact_text import nearest_float
from ..data.rationals import as_rational, shown_value
from ..errors import InvalidArgument
from ..notes.conventions import get_convention
from ..run.averaged import AVERAGES
from ._clock import seconds_or_none
from ._tokens import label_pair

if TYPE_CHECKING:  # Hypothesis loads only when a check runs
    from hypothesis import settings as HypothesisSettings

#: How the implementation receives X: NumPy float64, lists of Fraction, NumPy object arrays of Fraction.
DTYPES = ("float", "fraction", "object")
#: How it reads y: labels -1/+1 or 0/1 (any other pair of tokens, `CheckOptions.classes`, is read as one of them).
LABELS = ("-1/+1", "0/1")
#: How it steps: after every mistake, or once per pass by the sum over the pass's mistakes (`CheckOptions.mode`).
MODES = ("online", "batch")
#: Generated datasets per check, unless told otherwise.
DEFAULT_EXAMPLES = 100
#: Epochs the exact run may take on a generated dataset before it is set aside as too slow.
REFERENCE_EPOCHS = 200
#: Most updates an implementation may report (a longer list is cut there, and the cut reported).
MAX_REPORTED_UPDATES = 100_000


def updates_to_read(n_reference: int, n_samples: int) -> int:
    """How many reported updates are read on a dataset whose exact run made `n_reference` updates.

    The note's run reports exactly as many; a run the harness accepts instead
    (stopped at an epoch's end, in float64 at a declared rate) about as many.
    Twice as many, and two epochs more, is more than any of them: an
    implementation that reports more is cut there, with a `reported-updates`
    finding, and checking it costs what the exact run did, not what the
    implementation chose to report (a generator that never ends included).

    Examples
    --------
    >>> updates_to_read(2, 2), updates_to_read(10**6, 8)
    (108, 100000)
    """
    return min(MAX_REPORTED_UPDATES, 2 * (n_reference + n_samples) + 100)

#: The configuration departures that can be accepted (`CheckOptions.accept_departures`): scikit-learn's
#: parameters, ``float-rate`` for a declared rate that is an inexact double, ``printed-rounding``, and ``float32``
#: for code that computes in single precision (compared with the note's run in float32 at the declared rate).
DEPARTURES = ("shuffle", "tol", "early_stopping", "penalty", "fit_intercept", "learning_rate", "loss", "average",
              "class_weight", "eta0", "learning_rate_init", "float-rate", "printed-rounding", "float32")

#: Where a flat weight vector holds the bias (`CheckOptions.bias`).
BIAS_PLACES = ("first", "last", "convention")


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
        How the implementation reads y: as -1/+1 (a step of η·y, the notes' own), or as 0/1 (η·(d - y), where a
        hard limiter's step is η, the note's 2η at η/2, and the label 0 can stand as the step's sign).
    classes : tuple of two str, or None
        The tokens y is passed as for class -1 and class +1 (``("1", "2")``, ``("R", "M")``), when they are
        not the numbers of `labels`; integer tokens are passed as int64, others as strings.
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
        The implementation's own limit of passes, if it has one: it is compared with the note's run
        stopped after exactly that many epochs (converged earlier or not), one included.
    call_timeout : float or None
        Seconds one call may take (POSIX main thread only); None for no limit.
    worked_examples : bool
        Also check the notes' worked examples.
    output : {"auto", "pair", "augmented"}
        How to read returned weights: ``(w, b)``, an augmented vector in the convention's
        order, or ``auto`` (a pair when its first item is a vector).
    accept_departures : tuple of str
        Configuration departures (``shuffle``, ``tol``, ...; one of `DEPARTURES`) not to count as
        failures; ``eta0``/``float-rate``, ``tol`` and ``shuffle`` also change the reference (``_accepted``).
    max_features, max_samples : int
        Bounds of the generated datasets.
    averaged : bool
        It returns the averaged perceptron's weights (`run.averaged`): the average over every
        presentation, up to the first clean epoch, or over exactly `max_epochs` epochs when given.
    average : str
        What that average runs over (`run.averaged.AVERAGES`): every presentation, the start included
        (Daumé's counter from 1), each epoch's end, or each update.
    mode : {"online", "batch"}
        ``online``: a step after every mistake; ``batch``: one step per pass, by the sum of the steps of
        every sample the pass's starting weights misclassify (note 003's batch mode).
    bias : {"first", "last", "convention"} or None
        Where a flat weight vector (a command's ``{out}``, a function's one vector) holds the
        bias: ``[b, w1, ..., wd]``, ``[w1, ..., wd, b]``, or the convention's own augmented order;
        None for the defaults (last for a command, the convention's order for Python). A pair
        ``(w, b)`` is read as one whatever this says.
    """

    convention: str = "classic"
    dtype: str = "float"
    labels: str = "-1/+1"
    classes: tuple[str, str] | None = None
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
    averaged: bool = False
    bias: str | None = None
    mode: str = "online"
    average: str = "presentations"
    #: The implementation's configuration as plain values (``get_params()``), for the diagnosis's models.
    configuration: tuple[tuple[str, object], ...] = ()

    @property
    def reading(self) -> str:
        """How Python return values are read (`_reading._exact_weights`): `output`, or the declared bias place.

        Examples
        --------
        >>> CheckOptions().reading, CheckOptions(bias="first").reading, CheckOptions(bias="convention").reading
        ('auto', 'bias-first', 'auto')
        """
        return {None: self.output, "first": "bias-first", "last": "bias-last", "convention": "auto"}[self.bias]

    @property
    def numbers(self) -> str:
        """The values generated: dyadic for floats (exact in float64), floats under rounding stress, else rationals."""
        if self.rounding_stress:
            return "floats"
        return "dyadic" if self.dtype == "float" else "rationals"


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


def _float_rate(eta: object, rate: Fraction) -> None:
    """A declared rate a float64 implementation can use: one some double is near (`InvalidArgument` else).

    Past the largest double float64 has only ``inf``, and below the least
    positive one it has 0: no implementation given float64 data computes
    with such a rate, so its check could only fail, whatever the code.

    Examples
    --------
    >>> _float_rate("1/10", Fraction(1, 10))
    >>> _float_rate("1e400", Fraction(10**400))
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.InvalidArgument: eta='1e400' is beyond the largest double (about 1.8e+308): an implementation given float64 data (dtype 'float') cannot use that rate; declare it with dtype 'fraction' or 'object'
    """
    double = nearest_float(rate)
    if double is None:
        where = "is beyond the largest double (about 1.8e+308)"
    elif double == 0:
        where = "is below the least positive double (about 4.9e-324), which float64 rounds to 0"
    else:
        return
    raise InvalidArgument(f"eta={shown_value(eta)} {where}: an implementation given float64 data (dtype 'float') "
                          "cannot use that rate; declare it with dtype 'fraction' or 'object'")


def _options(
    *, convention: str, dtype: str, labels: str, eta: object, examples: int, seed: int | None,
    rounding_stress: bool, detects_nonseparable: bool | type[BaseException] | tuple[type[BaseException], ...],
    max_epochs: int | None, call_timeout: float | None, worked_examples: bool, output: str,
    accept_departures: Sequence[str], max_features: int, max_samples: int, averaged: bool | str = False,
    bias: str | None = None, mode: str = "online", labels_as: str | None = None,
) -> CheckOptions:
    """`CheckOptions` from a front door's keyword arguments, each checked (`InvalidArgument` naming it)."""
    conv = get_convention(convention)
    if dtype not in DTYPES:
        raise InvalidArgument(f"dtype={shown_value(dtype)} must be one of {', '.join(DTYPES)}")
    reading, classes = label_pair(labels, labels_as)
    rate = None
    if eta is not None:
        try:
            rate = as_rational(eta, name="eta")
        except ValueError as error:
            raise InvalidArgument(str(error)) from None
        if rate <= 0:
            raise InvalidArgument(f"eta={shown_value(eta)} must be > 0")
        if dtype == "float":
            _float_rate(eta, rate)
    for name, value, least in (("examples", examples, 1), ("max_features", max_features, 1),
                               ("max_samples", max_samples, 2)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise InvalidArgument(f"{name}={shown_value(value)} must be an integer >= {least}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InvalidArgument(f"seed={shown_value(seed)} must be an integer or None")
    if max_epochs is not None and (isinstance(max_epochs, bool) or not isinstance(max_epochs, int) or max_epochs < 1):
        raise InvalidArgument(f"max_epochs={shown_value(max_epochs)} must be an integer >= 1 or None")
    call_timeout = seconds_or_none("call_timeout", call_timeout)
    if rounding_stress and dtype != "float":
        raise InvalidArgument(f"rounding_stress=True needs dtype='float', not dtype={shown_value(dtype)}")
    if output not in ("auto", "pair", "augmented"):
        raise InvalidArgument(f"output={shown_value(output)} must be auto, pair or augmented")
    if isinstance(accept_departures, str):
        raise InvalidArgument(f"accept_departures={shown_value(accept_departures)} must be a list of names, not one string")
    for name in accept_departures:
        if name not in DEPARTURES:
            raise InvalidArgument(f"accept_departures: {shown_value(name)} is not a departure the harness knows "
                                  f"({', '.join(DEPARTURES)})")
    if bias is not None and bias not in BIAS_PLACES:
        raise InvalidArgument(f"bias={shown_value(bias)} must be one of {', '.join(BIAS_PLACES)} or None")
    if bias is not None and output != "auto":
        raise InvalidArgument(f"bias={shown_value(bias)} and output={shown_value(output)}: give one of them (bias "
                              "says where a flat weight vector holds the bias; output='pair' or 'augmented' says "
                              "how every return value is read)")
    average = averaged if isinstance(averaged, str) and averaged in AVERAGES else "presentations"
    if not isinstance(averaged, bool) and averaged not in AVERAGES:
        raise InvalidArgument(f"averaged={shown_value(averaged)} must be True, False or what the average runs over: "
                              f"{', '.join(AVERAGES)}")
    averaged = bool(averaged)
    if mode not in MODES:
        raise InvalidArgument(f"mode={shown_value(mode)} must be one of {', '.join(MODES)}")
    others = [name for name in accept_departures if name not in ("float-rate", "printed-rounding")]
    if mode == "batch" and others:
        raise InvalidArgument(f"mode='batch' and accept_departures={shown_value(tuple(accept_departures))}: in batch "
                              "mode only 'float-rate' (compared with the float64 batch run) and 'printed-rounding' "
                              "are accepted; the other departures (a shuffle, a stop on the loss, ...) are compared "
                              "with online runs")
    if mode == "batch" and averaged:
        raise InvalidArgument("mode='batch' and averaged=True: the averaged perceptron averages an online run's "
                              "weights over its presentations; give one of them")
    errors: tuple[type[BaseException], ...] = ()
    if isinstance(detects_nonseparable, type) and issubclass(detects_nonseparable, BaseException):
        errors = (detects_nonseparable,)
    elif isinstance(detects_nonseparable, tuple):
        if not all(isinstance(e, type) and issubclass(e, BaseException) for e in detects_nonseparable):
            raise InvalidArgument(f"detects_nonseparable={shown_value(detects_nonseparable)} must be a bool or exception types")
        errors = detects_nonseparable
    elif not isinstance(detects_nonseparable, bool):
        raise InvalidArgument(f"detects_nonseparable={shown_value(detects_nonseparable)} must be a bool or exception types")
    return CheckOptions(
        convention=conv.name, dtype=dtype, labels=reading, classes=classes, eta=rate, examples=examples,
        seed=seed, rounding_stress=bool(rounding_stress), detects_nonseparable=bool(detects_nonseparable),
        nonseparable_errors=errors, max_epochs=max_epochs, call_timeout=call_timeout,
        worked_examples=bool(worked_examples), output=output, accept_departures=tuple(accept_departures),
        max_features=max_features, max_samples=max_samples, averaged=averaged, bias=bias, mode=mode, average=average,
    )


def needs_hypothesis() -> None:
    """`InvalidArgument` saying what to install when Hypothesis, which generates and shrinks the data, is missing
    (a dependency of the package; an environment can still lack it)."""
    import importlib.util

    try:
        found = importlib.util.find_spec("hypothesis") is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        raise InvalidArgument("check needs Hypothesis, which generates and shrinks its data, and it is not installed: "
                              "python -m pip install hypothesis (a dependency of verify-perceptron: reinstalling the "
                              "package brings it)")


def float_rate_text(text: str) -> float:
    """The double nearest to the decimal `text` (``--float-eta 0.1``): a finite float > 0."""
    try:
        value = float(text)
    except (TypeError, ValueError):
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise InvalidArgument(f"float_eta={shown_value(text)} must be a decimal number > 0, e.g. 0.1")
    return value
