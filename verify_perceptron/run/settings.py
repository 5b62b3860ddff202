"""The settings every engine takes (convention, rate, mode, epochs), checked once the same way."""

from __future__ import annotations

import functools
import math
from fractions import Fraction

from ..data.rationals import as_rational, bounded
from ..errors import InvalidArgument
from ..notes.conventions import Convention, get_convention

__all__ = ["MODES", "check_settings", "check_time_limit"]

#: The notes' two modes: update after each mistake, or once per pass (note 003).
MODES = ("online", "batch")


def check_settings(convention: Convention | str, eta: object, mode: str, max_epochs: int) -> tuple[Convention, Fraction]:
    """The convention and the exact rate, once every setting is checked; else `InvalidArgument` naming it.

    Examples
    --------
    >>> check_settings("hard-limiter", "1/2", "online", 10)[1]
    Fraction(1, 2)
    >>> check_settings("classic", 1, "both", 10)
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.InvalidArgument: mode='both' must be one of online, batch
    """
    conv = convention if isinstance(convention, Convention) else get_convention(convention)
    try:
        rate = _rate_of_text(eta) if type(eta) is str else _rate(eta)
    except ValueError as error:
        raise InvalidArgument(str(error)) from None
    conv.check_rate(rate)
    if mode not in MODES:
        raise InvalidArgument(f"mode={mode!r} must be one of {', '.join(MODES)}")
    if isinstance(max_epochs, bool) or not isinstance(max_epochs, int) or max_epochs < 1:
        raise InvalidArgument(f"max_epochs={max_epochs!r} must be an integer >= 1")
    return conv, rate


def _rate(eta: object) -> Fraction:
    """η exactly, no longer than a literal may be; ValueError naming it."""
    return bounded(as_rational(eta, name="eta"), name="eta")


@functools.lru_cache(maxsize=64)
def _rate_of_text(eta: str) -> Fraction:
    """`_rate` of a string, parsed once (an estimator's default ``eta="1"`` was parsed at every fit: a refusal,
    an exception, is not kept)."""
    return _rate(eta)


def check_time_limit(time_limit: object) -> float | None:
    """`time_limit` in seconds, None for none; else `InvalidArgument` naming it (0, negative, NaN, infinite).

    Examples
    --------
    >>> check_time_limit(2), check_time_limit(None)
    (2.0, None)
    >>> check_time_limit(-1)
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.InvalidArgument: time_limit=-1 must be a finite number of seconds > 0, or None
    """
    if time_limit is None:
        return None
    if (isinstance(time_limit, bool) or not isinstance(time_limit, (int, float))
            or not math.isfinite(time_limit) or time_limit <= 0):
        raise InvalidArgument(f"time_limit={time_limit!r} must be a finite number of seconds > 0, or None")
    return float(time_limit)
