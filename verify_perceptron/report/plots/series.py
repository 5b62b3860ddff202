"""The exact layer of the figures: what each one shows, computed in `Fraction` from a report.

Everything here reads a report dictionary (`verify_perceptron.report.record.build_report`,
or the JSON of ``verify --format json`` loaded back) and, where the samples
themselves are needed, the `~verify_perceptron.data.dataset.Dataset`. Nothing
here imports matplotlib: the documents print these values in their tables, and
the drawing modules convert them to float only to place ink, each axis scaled
first (`verify_perceptron.report.plots._scale`).

`invariant_series`
    w_k·w* and ‖w_k‖² at every kept update, beside the two sides the proofs
    bound them by (the ``lower-bound`` and ``upper-bound`` claims of
    `verify_perceptron.notes.claims`, evaluated by the very same functions);
`epoch_ends`
    the weights at the end of every epoch, as ``(b, v)`` with score ``v·x + b``;
`hull_meeting`
    for non-separable data, the point where the two classes' convex hulls
    meet, Σ 2λ_i·x_i over either class, from Gordan's certificate λ.

Examples
--------
>>> from verify_perceptron.pipeline import verify_run
>>> from verify_perceptron.data.examples import example
>>> from verify_perceptron.report.record import build_report
>>> data = example("and")
>>> report = build_report(data, *verify_run(data))
>>> series = invariant_series(report)
>>> [str(v) for v in series.w_ws[:4]], [str(v) for v in series.lower[:4]]
(['0', '4', '5', '9'], ['0', '1', '2', '3'])
>>> series.bound, series.crossing
(Fraction(87, 1), Fraction(87, 1))
>>> [(e.epoch, [str(w) for w in e.weights]) for e in epoch_ends(report)][:2]
[(1, ['0', '1', '1']), (2, ['-1', '2', '1'])]
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

from ...check.separator import scaled_separator
from ...notes.claims import CLAIMS
from ...notes.conventions import dot, get_convention
from ...data.dataset import Dataset
from ...data.exact_text import read_exact
from ...errors import InvalidArgument
from .._words import bracket

__all__ = [
    "FIGURE_NAMES",
    "EpochEnd",
    "HullMeeting",
    "InvariantSeries",
    "Vector",
    "RESOLUTION_DIGITS",
    "available_figures",
    "check_data",
    "convex_hull",
    "epoch_ends",
    "hull_meeting",
    "invariant_series",
    "report_certificate",
    "resolution_notes",
]

#: Every figure a report can have, in the order documents show them.
FIGURE_NAMES = ("boundaries", "projection", "certificate", "invariants", "bounds")

Vector = tuple[Fraction, ...]

_CLAIMS = {c.name: c for c in CLAIMS}


def _fractions(values: Sequence[str]) -> Vector:
    return tuple(map(read_exact, values))  # the record's exact strings, at any size


def check_data(report: Mapping[str, Any], data: Dataset) -> None:
    """Raise `InvalidArgument` unless `data` has the report's numbers of samples and features."""
    d = report["dataset"]
    if (data.n_samples, data.n_features) != (d["n_samples"], d["n_features"]):
        raise InvalidArgument(
            f"data has {data.n_samples} samples of {data.n_features} features, but the report is about "
            f"{d['n_samples']} samples of {d['n_features']} features ({d['source']})"
        )


def _own_bound(report: Mapping[str, Any]) -> Fraction | None:
    """The mistake bound of the run's own note (online runs with a separator only)."""
    if report["mode"] != "online":
        return None
    own = [b for b in report["bounds"] if b["own"]]
    return read_exact(own[0]["value"]) if own else None


@dataclass(frozen=True)
class InvariantSeries:
    """The two quantities the convergence proofs bound, exactly, at update 0 (w = 0) and each kept update.

    Attributes
    ----------
    k, n_mistakes : tuple of int
        Update number and mistakes so far N (equal in online mode).
    w_ws, lower : tuple of Fraction, or None
        w_k·w* and the lower bound N·a·γ (the ``lower-bound`` claim); None without a separator
        that separates (γ > 0), as the checker then skips the claim.
    w_sq, upper : tuple of Fraction
        ‖w_k‖² and its upper bound: N·a²·R² online (``upper-bound``), a²·R²·Σn² in batch
        mode (``upper-bound-batch``). `upper` is None when R² is unknown (no separator and no data).
    upper_claim : str
        The name of the claim `upper` comes from.
    a, gamma, R_sq, beta, ws_sq : Fraction or None
        Step size and the separator's constants (γ and ‖w*‖² None without a separator).
    bound : Fraction or None
        The run's own note's mistake bound B (online runs with a separator).
    truncated : bool
        True when the series holds only the first updates of a longer run.
    per_interval, n_updates : int
        The run's updates; with `per_interval` > 1 the series is the whole run thinned exactly: of each interval
        of that many updates, those of least and greatest slack of both invariants (``invariant_points``).
    """

    k: tuple[int, ...]
    n_mistakes: tuple[int, ...]
    w_ws: Vector | None
    lower: Vector | None
    w_sq: Vector
    upper: Vector | None
    upper_claim: str
    a: Fraction
    gamma: Fraction | None
    R_sq: Fraction | None
    beta: Fraction | None
    ws_sq: Fraction | None
    bound: Fraction | None
    convention: str
    truncated: bool
    per_interval: int = 1
    n_updates: int = 0

    @property
    def squeeze_uses_beta(self) -> bool:
        """True for note 003, whose proof bounds ‖w‖² by a²·N·β (a sum) rather than N·a²·R²."""
        return self.convention == "sum-norm"

    @property
    def crossing(self) -> Fraction | None:
        """Where (N·a·γ)²/‖w*‖² (the lower bound, squared, by Cauchy-Schwarz) meets the upper bound.

        The lower side grows like N², the upper like N: they meet at
        N = U·‖w*‖²/γ² (U = R², or β for note 003), which is the note's bound B.
        """
        if self.gamma is None or self.ws_sq is None or self.R_sq is None or self.gamma <= 0:
            return None
        size = self.beta if self.squeeze_uses_beta else self.R_sq
        assert size is not None
        return size * self.ws_sq / self.gamma**2

    def min_slack(self, claim: str) -> tuple[Fraction, int] | None:
        """The smallest slack (right side minus left side) of ``lower-bound`` or the upper claim over
        the updates k >= 1 shown here, and the first k where it occurs.

        Examples
        --------
        >>> from verify_perceptron.pipeline import verify_run
        >>> from verify_perceptron.data.examples import example
        >>> from verify_perceptron.report.record import build_report
        >>> data = example("and")
        >>> invariant_series(build_report(data, *verify_run(data))).min_slack("lower-bound")
        (Fraction(3, 1), 1)
        """
        if claim == "lower-bound":
            if self.w_ws is None or self.lower is None:
                return None
            slacks = [w - b for w, b in zip(self.w_ws, self.lower)]
        elif claim == self.upper_claim:
            if self.upper is None:
                return None
            slacks = [b - w for w, b in zip(self.w_sq, self.upper)]
        else:
            raise InvalidArgument(f"claim={claim!r} must be 'lower-bound' or {self.upper_claim!r}")
        if len(slacks) < 2:
            return None
        best = min(slacks[1:])
        return best, self.k[slacks.index(best, 1)]


def _rows(points: Mapping[str, Any] | None, updates: Sequence[Mapping[str, Any]], start: tuple[int, int],
          ws: Vector | None) -> list[tuple[int, int, int, int, Fraction | None, Fraction]]:
    """``(k, N, n, Σn², w_k·w*, ‖w_k‖²)`` at the record's drawn points, or at `updates` counted on from `start`."""
    if points is not None:
        products = _fractions(points["w_ws"]) if points["w_ws"] is not None else [None] * len(points["k"])
        return list(zip(points["k"], points["n_mistakes"], points["n"], points["sum_n_sq"], products,
                        _fractions(points["w_sq"])))
    rows = []
    N, sum_n_sq = start
    S, M = scaled_separator(ws) if ws is not None else ([], 1)  # integers: w*'s denominator has 1000s of bits
    for u in updates:
        W, D = scaled_separator(_fractions(u["weights"]))
        n = len(u["samples"])
        N, sum_n_sq = N + n, sum_n_sq + n * n
        rows.append((u["k"], N, n, sum_n_sq, None if ws is None else Fraction(sum(map(operator.mul, W, S)), D * M),
                     Fraction(sum(map(operator.mul, W, W)), D * D)))
    return rows


def invariant_series(report: Mapping[str, Any], data: Dataset | None = None, *, whole_run: bool = True,
                     updates: Sequence[Mapping[str, Any]] | None = None, start: tuple[int, int] = (0, 0),
                     ) -> InvariantSeries:
    """w_k·w*, ‖w_k‖² and their bounds at every kept update, exactly (see `InvariantSeries`): over the whole run,
    thinned exactly, from the record's ``invariant_points`` when it kept only its first updates (unless not
    `whole_run`); at `updates` (its ``last_updates``, say), N and Σn² counted on from `start`. `report` is a
    report dictionary (or its JSON loaded back); `data` is needed only for R² when it has no separator.

    Examples
    --------
    >>> from verify_perceptron.pipeline import verify_run
    >>> from verify_perceptron.data.examples import example
    >>> from verify_perceptron.report.record import build_report
    >>> data = example("modified-or")
    >>> s = invariant_series(build_report(data, *verify_run(data, "sum-norm", mode="batch")))
    >>> s.k, s.n_mistakes, s.upper_claim, [str(v) for v in s.upper]
    ((0, 1), (0, 4), 'upper-bound-batch', ['0', '48'])
    """
    convention = get_convention(report["convention"])
    a = read_exact(report["step_size"])
    constants = report["constants"]
    separator = report["separator"]
    ws = _fractions(separator["weights"]) if separator else None
    gamma = ws_sq = R_sq = beta = None
    if constants is not None:
        gamma, ws_sq = read_exact(constants["gamma"]), read_exact(constants["ws_sq"])
        R_sq, beta = read_exact(constants["R_sq"]), read_exact(constants["beta"])
    elif data is not None:
        check_data(report, data)
        norms = [dot(x, x) for x in map(convention.augment, data.X)]
        R_sq, beta = max(norms), sum(norms, Fraction(0))
    # The lower bound speaks of a separator: with γ <= 0 the proof's hypothesis fails, the checker
    # skips every claim about w*, and so do the curves.
    separates = ws is not None and gamma is not None and gamma > 0
    online = report["mode"] == "online"
    upper_claim = "upper-bound" if online else "upper-bound-batch"
    lower_side, upper_side = _CLAIMS["lower-bound"].lhs, _CLAIMS[upper_claim].rhs
    points = report.get("invariant_points") if whole_run and updates is None else None
    ks, Ns, w_ws, w_sq, lower, upper = ([0], [0], [Fraction(0)], [Fraction(0)], [Fraction(0)], [Fraction(0)]) \
        if updates is None else ([], [], [], [], [], [])
    rows = _rows(points, report["updates"] if updates is None else updates, start, ws if separates else None)
    for k, N, n, sum_n_sq, product, norm_sq in rows:
        # The claims' own sides, on the same quantities the checker gives them.
        q = SimpleNamespace(a=a, N=N, n=n, gamma=gamma, R_sq=R_sq, sum_n_sq=sum_n_sq)
        ks.append(k)
        Ns.append(N)
        w_sq.append(norm_sq)
        if separates:
            assert product is not None
            w_ws.append(product)
            lower.append(lower_side(q))
        if R_sq is not None:
            upper.append(upper_side(q))
    return InvariantSeries(
        k=tuple(ks), n_mistakes=tuple(Ns),
        w_ws=tuple(w_ws) if separates else None,
        lower=tuple(lower) if separates else None,
        w_sq=tuple(w_sq), upper=tuple(upper) if R_sq is not None else None, upper_claim=upper_claim,
        a=a, gamma=gamma, R_sq=R_sq, beta=beta, ws_sq=ws_sq,
        bound=_own_bound(report) if separates else None,
        convention=convention.name, truncated=bool(report["updates_truncated"]) and points is None,
        per_interval=int(points["per_interval"]) if points is not None else 1, n_updates=int(report["n_updates"]),
    )


@dataclass(frozen=True)
class EpochEnd:
    """The weights at the end of one epoch (pass).

    Attributes
    ----------
    epoch : int
        From 1.
    k : int
        Updates made so far.
    weights : tuple of Fraction
        In the convention's own coordinate order.
    bias, normal : Fraction and tuple of Fraction
        The same weights as ``(b, v)``: the score of x is ``v·x + b``, the boundary ``v·x + b = 0``.
    """

    epoch: int
    k: int
    weights: Vector
    bias: Fraction
    normal: Vector


def epoch_ends(report: Mapping[str, Any]) -> list[EpochEnd]:
    """The weights at the end of each epoch whose end the report's kept updates determine.

    Epoch e ends with the weights of the last update made in an epoch <= e
    (zero if none). When the report kept only the first updates, the epochs
    they cover completely are given, then the last epoch from the final weights.
    """
    convention = get_convention(report["convention"])
    updates = report["updates"]
    n_epochs = int(report["n_epochs"])
    complete = n_epochs
    if report["updates_truncated"] and updates:
        complete = min(n_epochs, updates[-1]["epoch"] - 1)
    out: list[EpochEnd] = []
    weights: Vector = tuple(Fraction(0) for _ in report["final_weights"])
    k, i = 0, 0
    for epoch in range(1, complete + 1):
        while i < len(updates) and updates[i]["epoch"] <= epoch:
            weights, k = _fractions(updates[i]["weights"]), updates[i]["k"]
            i += 1
        b, v = convention.to_canonical(weights)
        out.append(EpochEnd(epoch, k, weights, b, v))
    if complete < n_epochs:
        final = _fractions(report["final_weights"])
        b, v = convention.to_canonical(final)
        out.append(EpochEnd(n_epochs, int(report["n_updates"]), final, b, v))
    return out


def report_certificate(report: Mapping[str, Any]) -> Vector | None:
    """Gordan's λ when the report certifies the data not separable (from the run's cycle or the exact decision)."""
    if report["cycle"] and report["cycle"]["certificate"] and report["cycle"]["certificate_valid"]:
        return _fractions(report["cycle"]["certificate"])
    certificate = report.get("certificate")
    if certificate and certificate["kind"] == "gordan":
        return _fractions(certificate["values"])
    return None


@dataclass(frozen=True)
class HullMeeting:
    """A point of both classes' convex hulls, from Gordan's certificate.

    Σ λ_i·y_i·x~_i = 0 with Σ λ_i = 1 splits, in the constant coordinate, into
    Σ_{y=+1} λ_i = Σ_{y=-1} λ_i = 1/2; the other coordinates then say that
    Σ_{y=+1} 2λ_i·x_i = Σ_{y=-1} 2λ_i·x_i: one point, a convex combination of
    each class.

    Attributes
    ----------
    point : tuple of Fraction
        The common point.
    positive, negative : tuple of (int, Fraction)
        The samples of each class with λ_i > 0, and their convex weights 2λ_i.
    """

    point: Vector
    positive: tuple[tuple[int, Fraction], ...]
    negative: tuple[tuple[int, Fraction], ...]


def hull_meeting(data: Dataset, certificate: Sequence[Fraction]) -> HullMeeting:
    """The point where the classes' convex hulls meet, checked exactly from both sides.

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> meeting = hull_meeting(example("xor"), [Fraction(1, 4)] * 4)
    >>> [str(v) for v in meeting.point], meeting.positive
    (['1/2', '1/2'], ((1, Fraction(1, 2)), (2, Fraction(1, 2))))
    >>> hull_meeting(example("and"), [Fraction(1, 4)] * 4)
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.InvalidArgument: certificate: λ over the positive class sums to 1/4, not 1/2: not a Gordan certificate
    """
    lam = tuple(Fraction(v) for v in certificate)
    if len(lam) != data.n_samples:
        raise InvalidArgument(f"certificate has {len(lam)} values; the data have {data.n_samples} samples")
    if any(v < 0 for v in lam) or sum(lam) != 1:
        raise InvalidArgument("certificate: λ must be >= 0 with Σλ = 1")
    sides: dict[int, tuple[tuple[int, Fraction], ...]] = {}
    points: dict[int, Vector] = {}
    for label, name in ((1, "positive"), (-1, "negative")):
        members = tuple((i, 2 * v) for i, v in enumerate(lam) if data.y[i] == label and v > 0)
        total = sum((w for _, w in members), Fraction(0)) / 2
        if total != Fraction(1, 2):
            raise InvalidArgument(f"certificate: λ over the {name} class sums to {total}, not 1/2: not a Gordan certificate")
        sides[label] = members
        points[label] = tuple(sum((w * data.X[i][j] for i, w in members), Fraction(0)) for j in range(data.n_features))
    if points[1] != points[-1]:
        raise InvalidArgument(
            f"certificate: Σ 2λ_i·x_i is {bracket(points[1])} over the positive class but "
            f"{bracket(points[-1])} over the negative one: not a Gordan certificate"
        )
    return HullMeeting(points[1], sides[1], sides[-1])


def convex_hull(points: Sequence[tuple[Fraction, Fraction]]) -> list[tuple[Fraction, Fraction]]:
    """The convex hull's corners, counter-clockwise, exactly (Andrew's monotone chain).

    Examples
    --------
    >>> F = Fraction
    >>> convex_hull([(F(0), F(0)), (F(1), F(1)), (F(2), F(0)), (F(1), F(0)), (F(1), F(1, 2))])
    [(Fraction(0, 1), Fraction(0, 1)), (Fraction(2, 1), Fraction(0, 1)), (Fraction(1, 1), Fraction(1, 1))]
    """
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def turn(o: tuple[Fraction, Fraction], p: tuple[Fraction, Fraction], q: tuple[Fraction, Fraction]) -> Fraction:
        return (p[0] - o[0]) * (q[1] - o[1]) - (p[1] - o[1]) * (q[0] - o[0])

    def chain(ordered: list[tuple[Fraction, Fraction]]) -> list[tuple[Fraction, Fraction]]:
        out: list[tuple[Fraction, Fraction]] = []
        for p in ordered:
            while len(out) >= 2 and turn(out[-2], out[-1], p) <= 0:
                out.pop()
            out.append(p)
        return out

    lower, upper = chain(pts), chain(pts[::-1])
    return lower[:-1] + upper[:-1]


def available_figures(report: Mapping[str, Any], data: Dataset | None = None) -> tuple[str, ...]:
    """The names (from `FIGURE_NAMES`) of the figures this report can have; matplotlib is not needed.

    Every one of them is drawn at any magnitude of the data and the report
    (each axis in units of a power of ten read off the exact values:
    `verify_perceptron.report.plots._scale`).

    Examples
    --------
    >>> from verify_perceptron.pipeline import verify_run
    >>> from verify_perceptron.data.examples import example
    >>> from verify_perceptron.report.record import build_report
    >>> data = example("and")
    >>> report = build_report(data, *verify_run(data))
    >>> available_figures(report), available_figures(report, data)
    (('invariants', 'bounds'), ('boundaries', 'invariants', 'bounds'))
    """
    two_d = data is not None and data.n_features == 2
    if data is not None:
        check_data(report, data)
    names = []
    if two_d and report["n_epochs"] >= 1:
        names.append("boundaries")
    if data is not None and data.n_features > 2 and report["separator"] is not None and report["n_epochs"] >= 1:
        names.append("projection")
    if two_d and report_certificate(report) is not None:
        names.append("certificate")
    if report["updates"] and (report["separator"] is not None or data is not None):
        names.append("invariants")
    comparison = report["comparison"]
    if (comparison is not None and comparison["separable"]) or report["bounds"]:
        names.append("bounds")
    return tuple(names)


#: A double holds about 16 significant digits: a value more than 10^16 times smaller than the largest on its axis
#: is drawn at 0 (within the axis's resolution).
RESOLUTION_DIGITS = 16


def _below_resolution(numerators: Sequence[int]) -> bool:
    """Whether some nonzero value is more than 10^`RESOLUTION_DIGITS` times smaller than the largest (exactly:
    the values share one denominator)."""
    below = (max(map(abs, numerators), default=0) - 1) // 10**RESOLUTION_DIGITS  # |n|·10^16 < largest: |n| <= this
    return any(n and abs(n) <= below for n in numerators)


def resolution_notes(report: Mapping[str, Any], data: Dataset | None) -> dict[str, str]:
    """One sentence for each figure of the data (`available_figures`) that draws values of the data at 0 because
    they lie below its axis's resolution: features of very different magnitudes, drawn on one axis.

    The boundaries and the certificate draw each feature on its own axis; the
    projection draws all features in one unit. Exactly: the values share the
    data's denominator, so their numerators are compared.

    Examples
    --------
    >>> from verify_perceptron.pipeline import verify_run
    >>> from verify_perceptron.report.record import build_report
    >>> data = Dataset(X=[[Fraction(1, 10**300), 1, 0], [0, 0, 10**300]], y=[1, -1])
    >>> notes = resolution_notes(build_report(data, *verify_run(data)), data)
    >>> list(notes), notes["projection"][:60]
    (['projection'], 'Values of the data more than 10^16 times smaller than the la')
    """
    if data is None:
        return {}
    rows = data.numerators.tolist()
    names = available_figures(report, data)
    sentence = (f"Values of the data more than 10^{RESOLUTION_DIGITS} times smaller than the largest on their axis "
                "(below a double's resolution there) are drawn at 0: this is a picture, nothing is decided from it.")
    notes = {}
    if "projection" in names and _below_resolution([n for row in rows for n in row]):
        notes["projection"] = sentence
    if data.n_features == 2 and any(_below_resolution([row[j] for row in rows]) for j in (0, 1)):
        notes.update({name: sentence for name in ("boundaries", "certificate") if name in names})
    return notes
