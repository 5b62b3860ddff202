"""The wide claims' enclosures in C: a chunk's per-update quantities as lanes, and the claims' program over them.

`verify_perceptron.check.wide_claims.ChunkSlacks` encloses each claim's slack
at every update of a chunk. In NumPy (`verify_perceptron.check._enclosures`)
that is a few dozen passes over the chunk per claim, each with its own
temporaries; here each quantity a claim reads at every update (the counts,
‖z‖² of the update's sample, the running sums W·W* and ‖W‖²) is a row, a
*lane*, of one matrix of lower ends and one of upper ends, and C
(``check/_slacks.h``) makes the running sums in one pass (`walk_sums`) and
runs every claim's program over the lanes, a block of updates at a time, in
one call (`claim_slacks`). Each operation is the NumPy enclosures' own
(rounded to nearest, one step outward, a power of two scaled out after each),
so each result encloses the exact slack; the enclosures need not be the
NumPy ones bit for bit, as nothing is decided from them that is not decided
exactly where they straddle 0 (`ChunkSlacks.first_negative`, `ChunkSlacks.least`).

Examples
--------
>>> import numpy as np
>>> from verify_perceptron.notes.claims import OPS
>>> lanes = Lanes(3, 2)
>>> lanes.put(0, enclose(np.array([5, -7])))
>>> if available():
...     lanes.walk(1, np.array([1, 0]), enclose(np.array([2, 3**500], dtype=object)), None, 1)
... else:
...     lanes.put(1, enclose(np.array([1 + 3**500, 3 + 3**500], dtype=object)))
>>> code = [OPS["quantity"], 0, OPS["quantity"], 1, OPS["*"], OPS["constant"], -(3**501), OPS["-"], OPS["end"]]
>>> (slack,) = claim_ends([code], lanes, [None, None, None])
>>> lo, hi = slack.lo, slack.hi
>>> exact = [5 * (1 + 3**500) + 3**501, -7 * (3 + 3**500) + 3**501]
>>> bool(lo[0] > 0 and hi[1] < 0), exact[0] > 0 > exact[1]
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..notes.claims import OPS, QUANTITIES
from . import kernel as _kernel
from ._enclosures import Enclosure, enclose

__all__ = ["Lanes", "available", "chunk_lanes", "claim_ends"]


def available() -> bool:
    """Whether the C passes were built (else `verify_perceptron.check.wide_claims` encloses in NumPy)."""
    return _kernel.walk_sums is not None and _kernel.claim_slacks is not None


class Lanes:
    """Per-update quantities of a chunk of m updates, each a row of `lo` and `hi` at its exponent.

    Parameters
    ----------
    count : int
        The most quantities (rows).
    m : int
        The chunk's updates.
    """

    def __init__(self, count: int, m: int) -> None:
        self.lo, self.hi = np.empty((count, m)), np.empty((count, m))
        self.e: list[int] = []
        #: Each quantity's row, by its index in `verify_perceptron.notes.claims.QUANTITIES`.
        self.row: dict[int, int] = {}

    def put(self, index: int, value: Enclosure) -> None:
        """Quantity `index` at every update: an enclosure of m values (or one, for every update)."""
        at = self._next(index)
        self.lo[at], self.hi[at] = value.lo, value.hi
        self.e.append(int(value.e))

    def count(self, index: int, start: int) -> None:
        """Quantity `index` at updates 1..m: start + 1, ..., start + m (doubles exactly below 2^53)."""
        m = self.lo.shape[1]
        if start + m >= 2**53:
            self.put(index, enclose(start + np.arange(1, m + 1, dtype=np.int64).astype(object)))
            return
        at = self._next(index)
        self.lo[at] = np.arange(1, m + 1, dtype=np.int64)
        self.lo[at] += start
        self.hi[at] = self.lo[at]
        self.e.append(0)

    def walk(self, index: int, rows: Any, per_sample: Enclosure, extra: Enclosure | Any | None, start: int,
             doubled: bool = False) -> None:
        """Quantity `index` after each update: `start` plus the running sums of ``per_sample[rows[u]]``
        (plus ``extra[u]``, twice if `doubled`, if given: an enclosure, or an array of the integers' nearest
        doubles, each within |f|·2^-53 of its integer, as `enclose_nearest` takes them), enclosed in one C
        pass (`walk_sums`)."""
        if _kernel.walk_sums is None:
            raise RuntimeError("walk_sums: the C kernel was not built (see available())")
        at = self._next(index)
        s = enclose(start)
        empty = np.zeros(0)
        if extra is None or isinstance(extra, Enclosure):
            b_lo, b_hi = (empty, empty) if extra is None else (_line(extra.lo), _line(extra.hi))
            b_e = 0 if extra is None else extra.e
        else:
            b_lo, b_hi, b_e = _line(extra), empty, 0
        exponents = np.array([per_sample.e, b_e + doubled, s.e], dtype=np.int64)
        self.e.append(int(_kernel.walk_sums(np.ascontiguousarray(rows, dtype=np.int64), _line(per_sample.lo),
                                            _line(per_sample.hi), b_lo, b_hi, exponents,
                                            np.array([float(s.lo), float(s.hi)]), self.lo[at], self.hi[at])))

    def enclosure(self, index: int) -> Enclosure:
        """Quantity `index`'s row as an enclosure (views of the lanes)."""
        at = self.row[index]
        return Enclosure(self.lo[at], self.hi[at], self.e[at])

    def _next(self, index: int) -> int:
        at = self.row[index] = len(self.e)
        return at


def _line(ends: Any) -> Any:
    """An enclosure's ends as a contiguous float64 vector."""
    return np.ascontiguousarray(ends, dtype=np.float64).reshape(-1)


def claim_ends(codes: Sequence[Sequence[int]], lanes: Lanes, scalars: Sequence[Any]) -> list[Enclosure]:
    """Each claim's enclosed slack at every update, over one exponent a claim (its ends as `Enclosure.sure`'s:
    no NaN).

    Parameters
    ----------
    codes : list of programs
        One claim each (`verify_perceptron.check.wide_claims.claim_codes`); any integer constant.
    lanes : Lanes
        The quantities that vary over the chunk (written over: the ends are returned in its rows).
    scalars : list
        Every quantity's enclosure, by index, where it is the same at every update (None for the lanes and
        for the quantities no claim reads).
    """
    if _kernel.claim_slacks is None:
        raise RuntimeError("claim_slacks: the C kernel was not built (see available())")
    m = lanes.lo.shape[1]
    ends: list[tuple[float, float, int]] = [(0.0, 0.0, 0)] * len(scalars)
    which = [-1] * len(scalars)
    for index, value in enumerate(scalars):
        if index in lanes.row:
            which[index] = lanes.row[index]
        elif value is not None:
            ends[index] = (float(value.lo), float(value.hi), int(value.e))
    program: list[int] = []
    for code in codes:  # each constant becomes a quantity of its own, enclosed
        pc = 0
        while pc < len(code):
            if code[pc] == OPS["constant"]:
                c = enclose(int(code[pc + 1]))
                program += [OPS["quantity"], len(ends)]
                ends.append((float(c.lo), float(c.hi), int(c.e)))
                which.append(-1)
                pc += 2
                continue
            program.append(int(code[pc]))
            if code[pc] in (OPS["quantity"], OPS["**"]):
                program.append(int(code[pc + 1]))
                pc += 1
            pc += 1
    rows = len(lanes.e)
    # the ends over the lanes' own rows where there are as many (C writes a block's once it has read its lanes):
    # fresh arrays of a chunk's length cost their pages' first touch, about as much as the program itself
    out_lo, out_hi = ((lanes.lo[:len(codes)], lanes.hi[:len(codes)]) if len(codes) <= lanes.lo.shape[0]
                      else (np.empty((len(codes), m)), np.empty((len(codes), m))))
    exponents = _kernel.claim_slacks(np.array(program, dtype=np.int64), np.array(which, dtype=np.int64),
                         lanes.lo[:rows], lanes.hi[:rows], np.array(lanes.e, dtype=np.int64),
                         np.array([end[:2] for end in ends], dtype=np.float64).reshape(-1, 2),
                         np.array([end[2] for end in ends], dtype=np.int64), out_lo, out_hi)
    return [Enclosure(out_lo[c], out_hi[c], e) for c, e in enumerate(exponents)]


def chunk_lanes(reads: frozenset[str], state: tuple[int, ...], rows: Any, norms: Enclosure | None,
                margins: Enclosure | None, scores: Any, least: int = 0) -> Lanes:
    """The lanes of every replayed quantity a claim reads (`reads`), at online updates 1..m on `rows`, from
    `state` (``k, N, w_sq, w_ws, sum_N_xsq, sum_n_sq, n_max``): the counts, ‖z‖² of each update's sample,
    and the running sums Σ‖z‖², ‖W‖² (Σ 2·s + ‖z‖² over the reported scores s, `scores()` enclosed) and
    W·W* (Σ z·W*), with the values before each update where a claim reads them (`scores()`: an enclosure, or
    the scores' nearest doubles, as `Lanes.walk` takes them). `norms` and `margins` are
    the samples' ‖z‖² and z·W* enclosed (None where no claim reads them); `verify_perceptron.check.wide_claims.
    WideClaims.slacks` makes the same quantities in NumPy. At least `least` rows are made (the claims',
    for `claim_ends` to write their ends over)."""
    k, N, w_sq, w_ws, sum_N_xsq, sum_n_sq, _ = state[:7]
    m = len(rows)
    # exactly as many lanes as are made (a matrix past glibc's mmap threshold is mapped and its pages touched anew)
    lanes = Lanes(max(least, len(reads & {"N", "k", "sum_n_sq", "step_sq", "sum_N_xsq", "prev_w_sq", "prev_w_ws"})
                      + bool(norms is not None and reads & {"w_sq", "prev_w_sq"})
                      + bool(margins is not None and reads & {"w_ws", "prev_w_ws"})), m)
    for name, start in (("N", N), ("k", k), ("sum_n_sq", sum_n_sq)):
        if name in reads:
            lanes.count(_at(name), start)
    if norms is not None:
        if "step_sq" in reads:
            lanes.put(_at("step_sq"), norms.gathered(rows))
        if "sum_N_xsq" in reads:
            lanes.walk(_at("sum_N_xsq"), rows, norms, None, sum_N_xsq)
        if reads & {"w_sq", "prev_w_sq"}:
            lanes.walk(_at("w_sq"), rows, norms, scores(), w_sq, doubled=True)
            if "prev_w_sq" in reads:
                lanes.put(_at("prev_w_sq"), lanes.enclosure(_at("w_sq")).preceded_by(enclose(w_sq)))
    if margins is not None and reads & {"w_ws", "prev_w_ws"}:
        lanes.walk(_at("w_ws"), rows, margins, None, w_ws)
        if "prev_w_ws" in reads:
            lanes.put(_at("prev_w_ws"), lanes.enclosure(_at("w_ws")).preceded_by(enclose(w_ws)))
    return lanes


def _at(name: str) -> int:
    """A quantity's index in `QUANTITIES`."""
    return QUANTITIES.index(name)
