"""The toolkit's errors: one hierarchy, each class also a matching builtin.

Every message names the bad value (``eta=-1 must be > 0``), so a user can
act on it without reading a traceback; the CLI prints the message alone.
"""

from __future__ import annotations

__all__ = [
    "VerifyPerceptronError",
    "InvalidArgument",
    "DataError",
    "InvariantViolation",
]


class VerifyPerceptronError(Exception):
    """Base class of every error this package raises on purpose."""


class InvalidArgument(VerifyPerceptronError, ValueError):
    """A setting is out of its domain (``eta=0``, an unknown convention).

    Examples
    --------
    >>> try:
    ...     raise InvalidArgument("eta=0 must be > 0")
    ... except ValueError as error:
    ...     print(error)
    eta=0 must be > 0
    """


class DataError(VerifyPerceptronError, ValueError):
    """Input data cannot be read exactly: the message names file, line and value."""


class InvariantViolation(VerifyPerceptronError, AssertionError):
    """A claim that the convergence proof relies on is false on this run."""
