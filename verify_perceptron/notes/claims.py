"""The claims the convergence proofs make about the k-th update, as data.

A `Claim` says ``lhs <= rhs`` about named quantities of one update (``w_ws``
is w_k·w*, ``w_sq`` is ‖w_k‖², ...). Its two sides are plain Python
functions of a namespace of quantities, so the same claim is evaluated with
exact `Fraction` values at every update by `verify_perceptron.check.checker`, and
with SymPy symbols by the symbolic proofs: the runtime check and the proof
step are one object and cannot drift apart.

Quantities of update k (online: one mistake; batch: ``n`` mistakes at once)
---------------------------------------------------------------------------
``a``           step size: w_k - w_{k-1} = a·Σ y_j·x~_j (η; 2η for hard-limiter; ε; λ; 1)
``k``           updates so far; ``N`` mistakes so far (Σ_μ N_μ); ``n`` mistakes in this update
``gamma``       min_i y_i·w*·x~_i, the separator's unnormalised margin
``R_sq``        max_i ‖x~_i‖²;  ``beta`` = Σ_i ‖x~_i‖² (note 003)
``ws_sq``       ‖w*‖²;  ``bound`` the note's mistake bound
``w_ws``        w_k·w*;  ``prev_w_ws`` w_{k-1}·w*
``w_sq``        ‖w_k‖²;  ``prev_w_sq`` ‖w_{k-1}‖²
``step_sq``     ‖a·Σ_j y_j·x~_j‖², the squared length of the update the rule prescribes
``sum_N_xsq``   Σ_μ N_μ·‖x~_μ‖² (note 003's a-posteriori form)
``sum_n_sq``    Σ over updates of n² (batch);  ``n_max`` the largest n so far
``rho``         a target margin ρ > 0 for a reference u that need not separate (`SOFT_MARGIN`; u is w*)
``sum_N_dsq``   Σ_μ N_μ·d_μ², d_μ = max(0, ρ − y_μ·u·x~_μ): the shortfalls of the mistakes made
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
import functools
from types import SimpleNamespace
from typing import Any

from ._tracers import CONSTANT_LIMIT, INT64, OPS, Code, Traced, Unit, UnitValue

__all__ = ["Claim", "CLAIMS", "SOFT_MARGIN", "UNITS", "QUANTITIES", "OPS", "claims_for", "claim_unit", "compile_slacks",
           "compile_program"]

#: How each quantity scales when the checker works in integers: with samples scaled by L (so
#: x~ = X/L), weights w = (a/L)·W and a separator w* = W*/M, a quantity's true value is its
#: integer value times a**p / (L**q · M**r), for (p, q, r) below. Every claim is homogeneous in
#: these units (each side scales alike), so its sign can be decided on the integers.
UNITS: dict[str, tuple[int, int, int]] = {
    "a": (1, 0, 0),
    "k": (0, 0, 0), "N": (0, 0, 0), "n": (0, 0, 0), "n_max": (0, 0, 0), "sum_n_sq": (0, 0, 0), "bound": (0, 0, 0),
    "gamma": (0, 1, 1),
    "w_ws": (1, 1, 1), "prev_w_ws": (1, 1, 1),
    "w_sq": (2, 2, 0), "prev_w_sq": (2, 2, 0), "step_sq": (2, 2, 0),
    "sum_N_xsq": (0, 2, 0), "R_sq": (0, 2, 0), "beta": (0, 2, 0),
    "ws_sq": (0, 0, 2),
    "rho": (0, 1, 1), "sum_N_dsq": (0, 2, 2),
}

Side = Callable[[Any], Any]


@dataclass(frozen=True)
class Claim:
    """``lhs(q) <= rhs(q)`` at every update, with the proof it comes from.

    Attributes
    ----------
    name : str
        Stable identifier, used in reports and JSON.
    text : str
        The claim in the notation of this package.
    source : str
        Which note(s) and which step of their proof make it.
    lhs, rhs : callable
        Functions of a quantity namespace (attributes as in the module docstring).
    uses : tuple of str
        The quantities it reads, shown when it fails.
    needs_separator : bool
        True when it speaks about w*.
    modes : tuple of str
        The modes it is a theorem for.
    conventions : tuple of str
        The conventions whose notes make it (empty: all five).
    """

    name: str
    text: str
    source: str
    lhs: Side
    rhs: Side
    uses: tuple[str, ...]
    needs_separator: bool = True
    modes: tuple[str, ...] = ("online", "batch")
    conventions: tuple[str, ...] = ()

    def slack(self, q: Any) -> Any:
        """``rhs - lhs``: >= 0 exactly when the claim holds."""
        return self.rhs(q) - self.lhs(q)


CLAIMS: tuple[Claim, ...] = (
    Claim(
        "lower-bound-step",
        "w_k·w* - w_{k-1}·w* >= n·a·γ",
        "all notes: each mistake adds a·y·x~·w* >= a·γ (000 eq. before (2), 001, 002 step 1, 003 numerator, 004)",
        lambda q: q.n * q.a * q.gamma,
        lambda q: q.w_ws - q.prev_w_ws,
        ("n", "a", "gamma", "w_ws", "prev_w_ws"),
    ),
    Claim(
        "lower-bound",
        "w_k·w* >= N·a·γ",
        "000 eq. (2) w_k·w_opt >= kγ; 001 w0·w(n+1) >= nα; 002 (1); 003 w·ŵ >= εN|ŵ|D; 004 >= kρ",
        lambda q: q.N * q.a * q.gamma,
        lambda q: q.w_ws,
        ("N", "a", "gamma", "w_ws"),
    ),
    Claim(
        "upper-bound-step",
        "‖w_k‖² <= ‖w_{k-1}‖² + ‖a·Σ y·x~‖²",
        "all notes: the cross term 2a·y·w_{k-1}·x~ <= 0 on a mistake (000, 001, 002 step 2, 003, 004)",
        lambda q: q.w_sq,
        lambda q: q.prev_w_sq + q.step_sq,
        ("w_sq", "prev_w_sq", "step_sq"),
        needs_separator=False,
    ),
    Claim(
        "upper-bound-per-sample",
        "‖w_k‖² <= a²·Σ_μ N_μ·‖x~_μ‖²",
        "003: |w|² <= ε²·Σ_μ N_μ|x^μ|²; 001: ‖w(n+1)‖² <= Σ_k ‖x(k)‖²",
        lambda q: q.w_sq,
        lambda q: q.a**2 * q.sum_N_xsq,
        ("w_sq", "a", "sum_N_xsq"),
        needs_separator=False,
        modes=("online",),
    ),
    Claim(
        "upper-bound",
        "‖w_k‖² <= N·a²·R²",
        "000 eq. (3) ‖w_k‖² <= kR²; 001 <= nβ²; 002 (2) w·w <= M; 004 <= k(1+M²)",
        lambda q: q.w_sq,
        lambda q: q.N * q.a**2 * q.R_sq,
        ("w_sq", "N", "a", "R_sq"),
        needs_separator=False,
        modes=("online",),
    ),
    Claim(
        "upper-bound-batch",
        "‖w_k‖² <= a²·R²·Σ n²",
        "batch form (derived here: a batch of n mistakes has length <= a·n·R); the notes prove only the online form",
        lambda q: q.w_sq,
        lambda q: q.a**2 * q.R_sq * q.sum_n_sq,
        ("w_sq", "a", "R_sq", "sum_n_sq"),
        needs_separator=False,
        modes=("batch",),
    ),
    Claim(
        "upper-bound-sum-batch",
        "‖w_k‖² <= a²·N·β",
        "003's denominator bound, in batch mode (derived here, not in the notes: a batch of n distinct samples Y "
        "has ‖Σ_Y y·x~‖² <= n·Σ_Y ‖x~‖² <= n·β); every convention",
        lambda q: q.w_sq,
        lambda q: q.a**2 * q.N * q.beta,
        ("w_sq", "a", "N", "beta"),
        needs_separator=False,
        modes=("batch",),
    ),
    Claim(
        "upper-bound-per-sample-batch",
        "‖w_k‖² <= a²·n_max·Σ_μ N_μ·‖x~_μ‖²",
        "003's a-posteriori form, in batch mode with a factor n_max (derived here, not in the notes: a batch of n "
        "mistakes Y adds at most a²·n·Σ_Y ‖x~‖²; without n_max it fails); every convention",
        lambda q: q.w_sq,
        lambda q: q.a**2 * q.n_max * q.sum_N_xsq,
        ("w_sq", "a", "n_max", "sum_N_xsq"),
        needs_separator=False,
        modes=("batch",),
    ),
    Claim(
        "cauchy-schwarz",
        "(w_k·w*)² <= ‖w_k‖²·‖w*‖²",
        "000 eq. (4), 001, 002 (cos θ <= 1), 003 (cos φ <= 1), 004",
        lambda q: q.w_ws**2,
        lambda q: q.w_sq * q.ws_sq,
        ("w_ws", "w_sq", "ws_sq"),
    ),
    Claim(
        "mistake-bound",
        "N <= B (the note's bound)",
        "000 eq. (5), 001 n_max, 002 M <= 1/γ², 003 N <= β/D², 004 theorem",
        lambda q: q.N,
        lambda q: q.bound,
        ("N", "bound"),
        modes=("online",),
    ),
    Claim(
        "mistake-bound-batch",
        "N <= n_max·B",
        "batch form (derived here: γ²(Σn)² <= ‖w*‖²R²Σn² <= ‖w*‖²R²·n_max·Σn); the notes prove only the online form",
        lambda q: q.N,
        lambda q: q.n_max * q.bound,
        ("N", "n_max", "bound"),
        modes=("batch",),
    ),
    Claim(
        "mistake-bound-sum-batch",
        "N·γ² <= β·‖w*‖²  (N <= β/D², D = γ/‖w*‖)",
        "003's N <= β/D², in batch mode (derived here, not in the notes: (N·a·γ)² <= (w·w*)² <= ‖w‖²‖w*‖² "
        "<= a²Nβ‖w*‖²); every convention",
        lambda q: q.N * q.gamma**2,
        lambda q: q.beta * q.ws_sq,
        ("N", "gamma", "beta", "ws_sq"),
        modes=("batch",),
    ),
    Claim(
        "quadratic-lower-bound",
        "‖w_k‖²·‖w*‖² >= (N·a·α)²",
        "001 Lower Bound Derivation: ‖w(n+1)‖² >= n²α²/‖w0‖² (here with general η, a = 2η)",
        lambda q: (q.N * q.a * q.gamma) ** 2,
        lambda q: q.w_sq * q.ws_sq,
        ("N", "a", "gamma", "w_sq", "ws_sq"),
        conventions=("hard-limiter", "hard-limiter-plus"),  # tie-free: the lower bound and Cauchy-Schwarz
    ),
    Claim(
        "upper-bound-sum",
        "‖w_k‖² <= a²·N·β",
        "003 Denominator: |w|² <= ε²·N·Σ_μ |x^μ|² = ε²Nβ",
        lambda q: q.w_sq,
        lambda q: q.a**2 * q.N * q.beta,
        ("w_sq", "a", "N", "beta"),
        needs_separator=False,
        modes=("online",),
        conventions=("sum-norm",),
    ),
    Claim(
        "angle",
        "(w·ŵ)²·β >= γ²·N·‖w‖²  (cos²φ >= D²·N/β)",
        "003: cos φ >= D·sqrt(N/β), squared (both sides are >= 0)",
        lambda q: q.gamma**2 * q.N * q.w_sq,
        lambda q: q.w_ws**2 * q.beta,
        ("gamma", "N", "w_sq", "w_ws", "beta"),
        modes=("online",),
        conventions=("sum-norm",),
    ),
)


def _excess(q: Any) -> Any:
    """N·ρ² − R²‖u‖² − D²: the soft-margin bound holds iff this is at most 2·R·‖u‖·D."""
    return q.N * q.rho**2 - q.R_sq * q.ws_sq - q.sum_N_dsq


#: The mistake bound without separation (Freund and Schapire 1999): N·ρ² <= (R·‖u‖ + D)², in squares.
#: Not one of `CLAIMS`: it reads quantities of its own and is checked by `verify_perceptron.check.soft_margin`.
SOFT_MARGIN = Claim(
    "soft-margin-bound",
    "N·ρ² <= (R·‖u‖ + D)²,  D² = Σ_μ N_μ·d_μ²,  d_μ = max(0, ρ − y_μ·u·x~_μ)  (u need not separate)",
    "derived here, not in the notes: Freund and Schapire (1999), Theorem 2, after Block and Novikoff, with D "
    "over the mistakes; t·|t| <= 4R²‖u‖²D² for t = N·ρ² − R²‖u‖² − D² is the same claim without a root",
    lambda q: _excess(q) * abs(_excess(q)),
    lambda q: 4 * q.R_sq * q.ws_sq * q.sum_N_dsq,
    ("N", "rho", "R_sq", "ws_sq", "sum_N_dsq"),
    modes=("online",),
)


def claims_for(convention: str, mode: str) -> list[Claim]:
    """The claims that are theorems for this convention and mode, in report order.

    Examples
    --------
    >>> [c.name for c in claims_for("sum-norm", "online")][-2:]
    ['upper-bound-sum', 'angle']
    """
    return [c for c in CLAIMS if mode in c.modes and (not c.conventions or convention in c.conventions)]


#: Every quantity a claim may read, in the order `compile_slacks`'s function takes them.
QUANTITIES: tuple[str, ...] = tuple(sorted(UNITS))


def compile_slacks(claims: Sequence[Claim]) -> Callable[..., tuple[Any, ...]]:
    """One function computing every claim's slack from the quantities, positionally.

    Each claim is traced once (its sides called on recording stand-ins) into
    plain Python arithmetic, so the checker pays one call per update rather
    than two per claim; the arithmetic is the claim's own, exact on ints and
    Fractions alike.

    Examples
    --------
    >>> slacks = compile_slacks([c for c in CLAIMS if c.name == "upper-bound"])
    >>> values = dict.fromkeys(QUANTITIES, 0) | {"w_sq": 5, "N": 2, "a": 1, "R_sq": 3}
    >>> slacks(*(values[name] for name in QUANTITIES))
    (1,)
    """
    return _slacks_function(tuple(claims))


@functools.lru_cache(maxsize=64)
def _slacks_function(claims: tuple[Claim, ...]) -> Callable[..., tuple[Any, ...]]:
    """`compile_slacks`'s work, done once per set of claims (checkers are made often, claims rarely change)."""
    q = SimpleNamespace(**{name: Traced(name) for name in QUANTITIES})
    bodies = [f"{Traced.of(c.rhs(q))} - {Traced.of(c.lhs(q))}" for c in claims]
    source = f"def slacks({', '.join(QUANTITIES)}):\n    return ({''.join(b + ', ' for b in bodies)})\n"
    namespace: dict[str, Any] = {"_F": Fraction}
    exec(compile(source, "<claims>", "exec"), namespace)  # source built above from the claims only
    function: Callable[..., tuple[Any, ...]] = namespace["slacks"]
    return function


def compile_program(claims: Sequence[Claim], denominators: dict[str, int], *,
                    any_constant: bool = False) -> tuple[list[int], list[int]]:
    """Every claim's slack as integer postfix code, for the compiled replay.

    A quantity listed in `denominators` has a non-integer value p/q; the
    program reads its numerator p, and each claim's code computes its slack
    times a positive integer, its scale, so that every intermediate value is
    an integer. The sign and the update of the smallest slack are the
    claim's own; the exact slack is the program's value divided by the scale.

    Returns
    -------
    (code, scales) : list of int, list of int
        The program (operations `OPS`, quantities by their index in
        `QUANTITIES`, int64 constants, or any int with `any_constant`, for
        the replay in Python integers) and one scale per claim.

    Raises
    ------
    ValueError
        A claim divides, or needs a constant outside int64 (without `any_constant`).

    Examples
    --------
    >>> mistake = [c for c in CLAIMS if c.name == "mistake-bound"]
    >>> code, scales = compile_program(mistake, {"bound": 3})  # bound = p/3: 3·(p/3 - N) = p - 3·N
    >>> scales
    [3]
    >>> dict(zip(QUANTITIES, range(99)))["bound"] in code
    True
    """
    made = _program(tuple(claims), tuple(sorted(denominators.items())), any_constant)
    if isinstance(made, str):
        raise ValueError(made)
    code, scales = made
    return list(code), list(scales)


@functools.lru_cache(maxsize=64)
def _program(claims: tuple[Claim, ...], denominators: tuple[tuple[str, int], ...],
             any_constant: bool = False) -> tuple[tuple[int, ...], tuple[int, ...]] | str:
    """`compile_program`'s work, once per claims, denominators and bound on the constants: the program, or why
    it cannot be made (kept too: a run whose constants pass int64 asks for the int64 program, and is refused
    it, at every replay set up, where tracing the claims again cost about as much as the replay of a few
    updates)."""
    token = CONSTANT_LIMIT.set(None if any_constant else INT64)
    try:
        return _traced_program(claims, dict(denominators))
    except ValueError as error:
        return str(error)
    finally:
        CONSTANT_LIMIT.reset(token)


def _traced_program(claims: tuple[Claim, ...], scale_of: dict[str, int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each claim traced into postfix code over the quantities, with its scale."""
    code: list[int] = []
    scales: list[int] = []
    q = SimpleNamespace(**{
        name: Code([OPS["quantity"], index], scale_of.get(name, 1)) for index, name in enumerate(QUANTITIES)
    })
    for claim in claims:
        slack = Code.of(claim.rhs(q)) - Code.of(claim.lhs(q))
        code += slack.code + [OPS["end"]]
        scales.append(slack.scale)
    return tuple(code), tuple(scales)


@functools.lru_cache(maxsize=256)
def claim_unit(claim: Claim) -> Unit:
    """The unit (p, q, r) of a claim's slack, in the sense of `UNITS`; ValueError if it has none.

    A claim that adds quantities of different units is not homogeneous: its
    sign could change with the scaling the checker works in, so it cannot be
    checked there. A homogeneous claim's true slack is its scaled slack times
    a**p / (L**q · M**r).

    Examples
    --------
    >>> claim_unit([c for c in CLAIMS if c.name == "upper-bound"][0])  # ‖w‖² <= N·a²·R²: a²/L²
    (2, 2, 0)
    >>> claim_unit(Claim("mixed", "‖w‖² <= k", "test", lambda q: q.w_sq, lambda q: q.k, ("w_sq", "k")))
    Traceback (most recent call last):
    ...
    ValueError: a claim adds a quantity of unit (0, 0, 0) to one of unit (2, 2, 0)
    """
    q = SimpleNamespace(**{name: UnitValue(unit) for name, unit in UNITS.items()})
    unit = (UnitValue.of(claim.rhs(q)) - UnitValue.of(claim.lhs(q))).unit
    return (0, 0, 0) if unit is None else unit
