"""The engine's compiled online pass, when it was built, and the reference it must equal.

The fast engine keeps integer weights W and integer samples z_i (the rows
of Z, labels folded in, stored as int16, int32 or int64). Sample i is a
mistake when its score s_i = z_i·W is < 0, or is 0 and the note counts a
tie as a mistake (``tie[i]``).

`online_pass` makes an online pass from a row, updating W in place and
writing each mistake's row and score to a buffer, so the engine pays no
Python call per update; given its `epochs` argument it carries on into the
following epochs wherever the engine would have nothing to do at an
epoch's end. That includes the cycle watch (`verify_perceptron.run.cycles`):
the pass stops at an epoch whose weights equal the watch's saved ones or
those after the epoch before (a period of one epoch), which it keeps itself.

`verify_perceptron.run._scan` is an optional C extension: `AVAILABLE` says
whether it imported; if not, `online_pass` is None and the engine keeps to
NumPy. The reference the tests hold the C code to is `online_pass_reference`
(below). The checker's compiled replay (`verify_perceptron.check.kernel`)
and the data layer's compiled rows and scores (`verify_perceptron.data.kernel`)
are extensions of their own.

Precondition of `online_pass`
-----------------------------
``‖W‖² <= limit < 2^126`` and ``‖z_i‖² < 2^126`` (int64 norms, or none: then the
pass sums and checks them itself): every
``|W_j| <= ‖W‖ < 2^63`` stays in int64 and, by Cauchy-Schwarz, every partial
sum of every score is below ``‖z_i‖·‖W‖ < 2^126``. The C pass sums a score in
int64 while ``‖W‖²·max_i ‖z_i‖² < 2^126`` (the int64 guard,
`verify_perceptron.data.integers.INT64_EXACT_SQ`) makes that exact, and in
128 bits beyond. An update that would take ‖W‖² above `limit`, or whose
score does not fit in int64 (the buffer's type), is not made: the pass
stops there and says so.

Examples
--------
>>> import numpy as np
>>> Z = np.array([[1, 2], [3, -4], [0, 0]], dtype=np.int64)
>>> W, counts = np.array([1, 1], dtype=np.int64), np.zeros(3, dtype=np.int64)
>>> tie, norms = np.array([False, False, True]), (Z * Z).sum(axis=1)
>>> rows, scores = np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64)
>>> step = online_pass or online_pass_reference
>>> step(Z, W, tie, norms, counts, rows, scores, 0, 2, 10**6)  # row 1 scores -1, row 2 ties
(2, 3, 25, False)
>>> W.tolist(), rows[:2].tolist(), scores[:2].tolist(), counts.tolist()
([4, -3], [1, 2], [-1, 0], [0, 1, 1])
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol, overload

import numpy as np

from ..data.integers import score_values

__all__ = ["AVAILABLE", "IMPORT_ERROR", "compiled", "limb_pass", "online_pass", "online_pass_reference"]

#: The 11th argument of `online_pass`: ``(out_e, saved, previous, epoch, made, max_epochs, stop_epoch,
#: per_epoch, work)``, three int64 arrays and six ints.
Epochs = tuple[Any, Any, Any, int, int, int, int, int, int]


class OnlinePass(Protocol):
    """`online_pass`'s two forms: one pass (as `online_pass_reference`), or given `epochs` (and the float
    filter's ``(Zf, radius)`` or None, and `most`, the largest of the norms given, or None) a pass that goes
    on into the following epochs.

    The arrays are NumPy arrays of the dtypes the module's docstring names (Any: the C code checks them).
    """

    @overload
    def __call__(self, Z: Any, W: Any, tie: Any, norms: Any, counts: Any, out_i: Any, out_s: Any,
                 start: int, w_sq: int, limit: int, /) -> tuple[int, int, int, bool]: ...

    @overload
    def __call__(self, Z: Any, W: Any, tie: Any, norms: Any, counts: Any, out_i: Any, out_s: Any,
                 start: int, w_sq: int, limit: int, epochs: Epochs, floats: tuple[Any, Any] | None = None,
                 most: int | None = None, /) -> tuple[int, int, int, bool, int, int]: ...


def _load() -> tuple[OnlinePass | None, str | None]:
    """The extension's function, or None and why it did not import."""
    try:
        scan = importlib.import_module(f"{__package__}._scan")
        # A compiler without __int128 builds a module whose functions refuse to run.
        scan.online_pass(*_PROBE)
    except (ImportError, NotImplementedError) as error:
        return None, f"{type(error).__name__}: {error}"
    return scan.online_pass, None


def _probe() -> tuple[Any, ...]:
    import numpy as np

    empty = np.zeros((0, 1), dtype=np.int64)
    none = np.zeros(0, dtype=np.int64)
    one = np.zeros(1, dtype=np.int64)
    return (empty, one.copy(), np.zeros(0, dtype=bool), none, none.copy(), one.copy(), one.copy(), 0, 0, 0)


_PROBE = _probe()

#: ``online_pass(Z, W, tie, norms, counts, out_i, out_s, start, w_sq, limit)`` in C, or None;
#: the contract of `online_pass_reference`, with C-contiguous arrays.
online_pass: OnlinePass | None
#: Why the extension did not import, or None if it did.
IMPORT_ERROR: str | None
online_pass, IMPORT_ERROR = _load()
#: Did the compiled kernel import?
AVAILABLE: bool = online_pass is not None


def _load_limbs() -> Any:
    """The extension's pass in limbs (past 128 bits), or None: with `online_pass`, or not at all."""
    if online_pass is None:
        return None
    return getattr(importlib.import_module(f"{__package__}._scan"), "limb_pass", None)


#: ``limb_pass(Z, W, tie, norms, counts, out_i, out_s, start, w_sq, limit, epochs, filter)`` in C, or None:
#: `online_pass` with every integer in 64-bit limbs (`verify_perceptron.run._limbs` says how wide);
#: used only where `AVAILABLE` is true.
limb_pass: Any = _load_limbs()


def compiled() -> OnlinePass:
    """`online_pass`, for a caller that has seen `AVAILABLE` (read at the call: a test may replace it)."""
    if online_pass is None:
        raise RuntimeError("the compiled online pass is not available: check AVAILABLE first")
    return online_pass


def _reference_norms(Z: Any, norms: Any) -> Any:
    """`online_pass_reference`'s norms as values: as given, read from halves, or summed (each checked)."""
    n = len(Z)
    if n and len(norms) == 2 * n:
        values = score_values(np.asarray(norms).reshape(-1, 2)).tolist()
        for r, v in enumerate(values):
            if not 0 <= v < 2**126:
                raise ValueError(f"online_pass_reference(): norms[{r}] given in halves must be in [0, 2^126)")
        return values
    if len(norms) == 0:
        values = [sum(int(v) * int(v) for v in row) for row in Z.tolist()]
        for r, v in enumerate(values):
            if v >= 2**126:
                raise ValueError(f"online_pass_reference(): ||Z[{r}]||^2 >= 2^126; without norms every row must "
                                 "be below")
        return values
    return norms


def online_pass_reference(Z: Any, W: Any, tie: Any, norms: Any, counts: Any, out_i: Any, out_s: Any,
                          start: int, w_sq: int, limit: int) -> tuple[int, int, int, bool]:
    """One online pass from row `start`, in place, in Python integers: what `online_pass` must do.

    Parameters
    ----------
    Z : numpy.ndarray of int64, shape (n, d)
        The samples, labels folded in: row i is z_i.
    W : numpy.ndarray of int64, shape (d,)
        The weights, updated in place.
    tie : numpy.ndarray of bool, shape (n,)
        Whether a score of exactly 0 is a mistake for row i.
    norms : numpy.ndarray of int64, shape (n,), (2n,) or (0,)
        ‖z_i‖²; past int64 either twice as long (each as its low 64 bits,
        then its high ones; each below 2^126) or empty: each is then summed
        exactly, and a row of ‖z_i‖² >= 2^126 is refused.
    counts : numpy.ndarray of int64, shape (n,)
        Mistakes per row, incremented in place.
    out_i, out_s : numpy.ndarray of int64, out_i of length >= 1, out_s as long or twice as long
        Receive each mistake's row and score, in order; when out_s is twice
        as long, each score as two int64, its low 64 bits (modulo 2^64) then
        its high ones (`verify_perceptron.data.integers.score_values` reads them back
        as an (m, 2) array), and no score stops the pass.
    start : int
        The first row, ``0 <= start <= n``.
    w_sq, limit : int
        ‖W‖², and the largest ‖W‖² an update may leave.

    Returns
    -------
    (m, position, w_sq, guarded) : int, int, int, bool
        Mistakes written; the row to resume from; the new ‖W‖²; whether the
        pass stopped at `position` because its update would exceed `limit`,
        or its score does not fit in int64 (that update is not made).
    """
    n = len(Z)
    if not 0 <= start <= n:
        raise ValueError(f"online_pass_reference(): start={start!r} must satisfy 0 <= start <= n={n}")
    if not 0 <= limit < 2**126:
        raise ValueError(f"online_pass_reference(): limit={limit!r} must satisfy 0 <= limit < 2^126")
    if not 0 <= w_sq <= limit:
        raise ValueError(f"online_pass_reference(): w_sq={w_sq!r} must satisfy 0 <= w_sq <= limit={limit!r}")
    norms = _reference_norms(Z, norms)
    halves = len(out_s) == 2 * len(out_i)
    if not len(out_i) >= 1 or not (halves or len(out_s) == len(out_i)):
        raise ValueError(f"online_pass_reference(): out_i must have a length >= 1 and out_s the same or twice it, "
                         f"got {len(out_i)} and {len(out_s)}")
    weights = [int(v) for v in W.tolist()]
    m = 0
    i = start
    guarded = False
    while i < n:
        row = [int(v) for v in Z[i].tolist()]
        s = sum(z * w for z, w in zip(row, weights))
        if s < 0 or (s == 0 and tie[i]):
            after = w_sq + 2 * s + int(norms[i])
            if (s < -(2**63) and not halves) or after > limit:  # a score out of int64, or ‖W‖² past the limit
                guarded = True
                break
            weights = [w + z for w, z in zip(weights, row)]
            w_sq = after
            counts[i] += 1
            out_i[m] = i
            if halves:  # the low 64 bits as int64 (two's complement), then the high ones
                low = s % 2**64
                out_s[2 * m], out_s[2 * m + 1] = low - 2**64 if low >= 2**63 else low, s >> 64
            else:
                out_s[m] = s
            m += 1
            if m == len(out_i):
                i += 1
                break
        i += 1
    W[:] = weights
    return m, i, w_sq, guarded
