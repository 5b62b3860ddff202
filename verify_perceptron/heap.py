"""Freed heap memory given back to the system between a command's phases: `give_back`.

glibc's allocator serves a block below its mmap threshold from its heap, and
that threshold rises to the size of the largest mmapped block freed so far
(up to 32 MiB): once the data's first arrays (a few MiB) are let go, the
check's NumPy arrays of n values come from the heap too. Freed, they leave
free pages inside the heap that stay resident, since only its top is
returned on its own: at 10^5 x 10 not separable, 12 MiB (1.5x the int64
data) of the process's resident memory after the check were such pages, on
which the separability decision and then the report were built.
``malloc_trim(0)`` returns every whole free page of the heap to the system
(`madvise`): nothing is moved and nothing live is touched. Elsewhere (another
C library, no ``malloc_trim``) `give_back` does nothing.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable

__all__ = ["BETWEEN_FROM", "between", "give_back"]

#: From this many samples on, `between` gives back (below, a phase's arrays are a few MB at most and a fit takes
#: milliseconds: a ``malloc_trim`` is 15 to 200 µs).
BETWEEN_FROM = 2**16


def _trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where the C library has none."""
    try:
        function = ctypes.CDLL(None).malloc_trim
    except (OSError, TypeError, AttributeError):  # (no C library by that name: Windows; no such function: musl, macOS)
        return None
    function.argtypes, function.restype = [ctypes.c_size_t], ctypes.c_int
    return function


_TRIM = _trim()


def give_back() -> bool:
    """Return the heap's whole free pages to the system; whether the C library could be asked.

    Examples
    --------
    >>> give_back() == (_TRIM is not None)
    True
    """
    if _TRIM is None:
        return False
    _TRIM(0)
    return True


def between(samples: int) -> bool:
    """`give_back` between two phases of the work on `samples` samples, from `BETWEEN_FROM` of them; whether asked.

    The phases after a long run (the best reference's floors and measures,
    the choice of ρ and the squares, the replay of the kept mistakes) each
    free arrays of n values that the next one's do not fill exactly: given
    back between them, the process's peak at 10^5 x 10 not separable was
    0.3x the int64 data lower for the randn fit, 0.15x for `verify`.

    Examples
    --------
    >>> between(10), between(BETWEEN_FROM) == (_TRIM is not None)
    (False, True)
    """
    return samples >= BETWEEN_FROM and give_back()
