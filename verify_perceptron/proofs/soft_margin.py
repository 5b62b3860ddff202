"""The mistake bound that needs no separation (Freund and Schapire 1999, after Block and Novikoff): derived here.

No note proves it; it is what ``verify`` checks at every online update as
``soft-margin-bound`` (`verify_perceptron.notes.soft_margin`). For any u and
any ρ > 0, d the shortfall max(0, ρ − y·u·x~) of each mistake, S = Σ d and
D² = Σ d² over the N mistakes made: the lower bound becomes
w·u >= a·(N·ρ − S) (S.1-S.3), the upper bound is the notes' ‖w‖² <= a²·N·R²
(S.4-S.6), and S² <= N·D² is Cauchy-Schwarz for the shortfalls (S.7-S.8).
Together, for every λ > 0, λ·N·ρ² <= λ(1 + λ)·R²‖u‖² + (1 + λ)·D² (S.9-S.13),
whose least right side, at λ = D/(R‖u‖), is (R‖u‖ + D)² (S.14); when every
mistake had d = 0 the bound is R²‖u‖²/ρ² directly (S.15-S.16). The checker's
test in squares (t <= 0 or t² <= 4·R²‖u‖²·D², t = N·ρ² − R²‖u‖² − D²) is
the same statement as N·ρ² <= (R‖u‖ + D)², an equivalence tested exactly
in the test suite.
"""

from __future__ import annotations

import sympy as sp

from .language import C, Fact, Induction, Place, Proof, Split, Step, T, V, Vec, VecEq, eq, ge, gt, le

__all__ = ["PROOF"]

NOTE = "000_2170d352a53c42fd.txt"

a, N, rho, R_sq, U_sq, lam = sp.symbols("a N rho R_sq U_sq lambda")
y, d, x_u, x_sq, w_x = sp.symbols("y d x_u x_sq w_x")
S, Sp, D_sq, Dp = sp.symbols("S S_p D_sq D_p")
w_u, prev_w_u, w_sq, prev_w_sq = sp.symbols("w_u prev_w_u w_sq prev_w_sq")
r, e = sp.symbols("r e")


def _here(where: str) -> Place:
    return Place("toolkit", None, where)


SYMBOLS = (
    (a, "a", "step size: w_k - w_{k-1} = a·y·x~ (η, 2η for the hard limiter, ε, λ or 1)"),
    (N, "N", "mistakes so far (one per online update)"),
    (rho, r"\rho", "the target margin, > 0"),
    (R_sq, "R^2", "max_i ‖x~_i‖²"),
    (U_sq, r"\|\mathbf{u}\|^2", "‖u‖², the reference vector's squared norm"),
    (lam, r"\lambda", "any positive number (the bound holds for each)"),
    (y, "y", "label of the mistake's sample"),
    (d, "d", "its shortfall max(0, ρ − y·u·x~)"),
    (x_u, r"\mathbf{x}\cdot\mathbf{u}", "x~·u"), (x_sq, r"\|\mathbf{x}\|^2", "‖x~‖²"),
    (w_x, r"\mathbf{w}_{k-1}\cdot\mathbf{x}", "the mistake's score"),
    (S, "S", "Σ d over the mistakes so far"), (Sp, "S_{-}", "the same before this mistake"),
    (D_sq, "D^2", "Σ d² over the mistakes so far"), (Dp, "D^2_{-}", "the same before this mistake"),
    (w_u, r"\mathbf{w}_k\cdot\mathbf{u}", "w_k·u"), (prev_w_u, r"\mathbf{w}_{k-1}\cdot\mathbf{u}", "w_{k-1}·u"),
    (w_sq, r"\|\mathbf{w}_k\|^2", "‖w_k‖²"), (prev_w_sq, r"\|\mathbf{w}_{k-1}\|^2", "‖w_{k-1}‖²"),
    (r, "r", "R·‖u‖ (r² = R²‖u‖², r > 0)"), (e, "e", "D (e² = D²)"),
)

VECTORS = (
    ("wk", r"\mathbf{w}_k", "weights after the k-th update"), ("w", r"\mathbf{w}_{k-1}", "weights before it"),
    ("u", r"\mathbf{u}", "the reference vector (it need not separate)"),
    ("x", r"\mathbf{x}", "the mistake's augmented sample x~"),
)

INNER = (
    (w_u, V("wk"), V("u")), (prev_w_u, V("w"), V("u")), (w_sq, V("wk"), V("wk")), (prev_w_sq, V("w"), V("w")),
    (U_sq, V("u"), V("u")), (x_u, V("x"), V("u")), (x_sq, V("x"), V("x")), (w_x, V("w"), V("x")),
)

FACTS = (
    Fact("a>0", gt(a, 0), "symbol", "a step size is positive"),
    Fact("label", eq(y**2, 1), "symbol", "labels are ±1"),
    Fact("rho>=0", ge(rho, 0), "hypothesis", "the bound says something only for a positive target margin, and its proof needs ρ >= 0"),
    Fact("lam>0", gt(lam, 0), "hypothesis", "λ is any positive number"),
    Fact("1+lam>=0", ge(1 + lam, 0), "symbol", "1 + λ >= 0 as λ > 0"),
    Fact("U>=0", ge(U_sq, 0), "symbol", "a squared norm"),
    Fact("R_sq>=0", ge(R_sq, 0), "symbol", "a squared norm"),
    Fact("D>=0", ge(D_sq, 0), "symbol", "a sum of squares"),
    Fact("N-nat", ge(N, 0), "symbol", "N counts mistakes", integer=True),
    Fact("update", VecEq(V("wk"), V("w") + a * y * V("x")), "algorithm", "on a mistake, w += a·y·x~"),
    Fact("mistake", le(y * w_x, 0), "algorithm", "an update follows y·w·x~ <= 0, under every convention's tie rule"),
    Fact("short", ge(d, rho - y * x_u), "definition", "d = max(0, ρ − y·u·x~) >= ρ − y·u·x~"),
    Fact("d>=0", ge(d, 0), "definition", "d = max(0, ρ − y·u·x~) >= 0"),
    Fact("radius", le(x_sq, R_sq), "definition", "R² is the largest ‖x~_i‖²"),
    Fact("init", VecEq(V("wk"), Vec()), "initial", "w = 0 before the first update"),
    Fact("S-init", eq(S, 0), "initial", "no shortfall before the first mistake"),
    Fact("S-first", eq(S, d), "initial", "after the first mistake S = d"),
    Fact("D-first", eq(D_sq, d**2), "initial", "after the first mistake D² = d²"),
    Fact("S-step", eq(S, Sp + d), "definition", "each mistake adds its d to S"),
    Fact("D-step", eq(D_sq, Dp + d**2), "definition", "each mistake adds its d² to D²"),
    Fact("r-def", eq(r**2, R_sq * U_sq), "definition", "r = R·‖u‖"),
    Fact("e-def", eq(e**2, D_sq), "definition", "e = D"),
    Fact("r>0", gt(r, 0), "symbol", "u ≠ 0, and R > 0 since every x~ has its bias input ±1"),
    Fact("lam-choice", eq(lam * r, e), "definition", "λ = D/(R‖u‖), the λ that makes the bound least (λ > 0 when some mistake fell short of ρ, D > 0)"),
    Fact("no-short", eq(S, 0), "hypothesis", "no mistake fell short of ρ (every d = 0, so S = 0 and D = 0)"),
)

STEPS = (
    Step("S.1", _here("one mistake, w·u"), eq(w_u, prev_w_u + a * y * x_u), "identity", ("update",)),
    Step("S.2", _here("one mistake, w·u, with its shortfall"), ge(w_u - prev_w_u, a * (rho - d)), "inequality",
         ("S.1", "short", "a>0"), C(T(1, "a>0", "short"))),
    Step("S.3", _here("all mistakes, w·u"), ge(w_u, a * (N * rho - S)), "induction", ("S.2", "S-step"),
         induction=Induction(N, {N: N - 1, w_u: prev_w_u, S: Sp}, previous_vectors={"wk": V("w")},
                             base_uses=("init", "S-init"), step=C(T(1, "IH"), T(1, "S.2")), over="mistakes N"),
         comment="the notes' lower bound, less a·Σ d: a sample that falls short of ρ gives less"),
    Step("S.4", _here("one mistake, ‖w‖²"), eq(w_sq, prev_w_sq + 2 * a * y * w_x + a**2 * x_sq), "identity",
         ("update", "label")),
    Step("S.5", _here("one mistake, ‖w‖²"), le(w_sq, prev_w_sq + a**2 * R_sq), "inequality",
         ("S.4", "mistake", "radius", "a>0"), C(T(2, "a>0", "mistake"), T(1, "radius", square=a))),
    Step("S.6", _here("all mistakes, ‖w‖²"), le(w_sq, a**2 * N * R_sq), "induction", ("S.5",),
         induction=Induction(N, {N: N - 1, w_sq: prev_w_sq}, previous_vectors={"wk": V("w")}, base_uses=("init",),
                             step=C(T(1, "IH"), T(1, "S.5")), over="mistakes N"),
         comment="the notes' upper bound ‖w_k‖² <= k·a²·R², unchanged"),
    Step("S.7", _here("the shortfalls are >= 0"), ge(S, 0), "induction", ("S-step", "d>=0"),
         induction=Induction(N, {N: N - 1, S: Sp}, base_uses=("S-init",), step=C(T(1, "IH"), T(1, "d>=0")),
                             over="mistakes N")),
    Step("S.8", _here("Cauchy-Schwarz for the shortfalls"), le(S**2, N * D_sq), "induction", ("S-step", "D-step"),
         induction=Induction(N, {N: N - 1, S: Sp, D_sq: Dp}, start=1, base_uses=("S-first", "D-first"),
                             step=C(T(1, "N>1", "IH"), T(1, "IH"), T(1, square=(N - 1) * d - Sp), divisor=("N>1",)),
                             over="mistakes N"),
         comment="(N-1)(N·D² - S²) = N·(IH) + ((N-1)d - S_-)², with IH = (N-1)·D²_- - S_-²"),
    Step("S.9", _here("Cauchy-Schwarz for w and u"), le(w_u**2, w_sq * U_sq), "cauchy-schwarz",
         vectors=(V("wk"), V("u"))),
    Step("S.10", _here("squaring the lower bound"), le(a**2 * N**2 * rho**2, (w_u + a * S)**2), "inequality",
         ("S.3", "a>0", "N-nat", "rho>=0"), C(T(1, "S.3", "S.3"), T(2, "a>0", "N-nat", "rho>=0", "S.3")),
         comment="(w·u + aS)² - (aNρ)² = (S.3)² + 2aNρ·(S.3), and w·u + aS >= aNρ >= 0"),
    Step("S.11", _here("splitting the square with λ"),
         le(lam * a**2 * N**2 * rho**2, lam * (1 + lam) * w_u**2 + (1 + lam) * a**2 * S**2), "inequality",
         ("S.10", "lam>0"), C(T(1, "lam>0", "S.10"), T(1, square=lam * w_u - a * S)),
         comment="λ(1+λ)W² + (1+λ)s² - λ(W+s)² = (λW - s)²"),
    Step("S.12", _here("joining the bounds"),
         le(lam * a**2 * N**2 * rho**2, lam * (1 + lam) * a**2 * N * R_sq * U_sq + (1 + lam) * a**2 * N * D_sq),
         "inequality", ("S.11", "S.6", "S.9", "S.8", "lam>0", "1+lam>=0", "U>=0"),
         C(T(1, "S.11"), T(1, "lam>0", "1+lam>=0", "S.9"), T(1, "lam>0", "1+lam>=0", "U>=0", "S.6"),
           T(1, "1+lam>=0", "S.8", square=a))),
    Step("S.13", _here("dividing by a²·N: the bound for each λ > 0"),
         le(lam * N * rho**2, lam * (1 + lam) * R_sq * U_sq + (1 + lam) * D_sq), "rearrangement",
         ("S.12", "N-nat", "a>0", "lam>0", "1+lam>=0", "R_sq>=0", "U>=0", "D>=0"),
         Split(N, zero=C(T(1, "lam>0", "1+lam>=0", "R_sq>=0", "U>=0"), T(1, "1+lam>=0", "D>=0")),
               positive=C(T(1, "S.12"), divisor=("N>0", "a>0", "a>0")))),
    Step("S.14", _here("the least bound, at λ = D/(R‖u‖)"), le(N * rho**2, (r + e)**2), "inequality",
         ("S.13", "r-def", "e-def", "lam-choice", "r>0", "lam>0"),
         C(T(1, "r>0", "S.13"), divisor=("r>0", "lam>0")),
         comment="Freund and Schapire's N <= ((R‖u‖ + D)/ρ)², with D over the mistakes"),
    Step("S.15", _here("no shortfall: the square of the lower bound"), le(a**2 * N**2 * rho**2, w_u**2), "inequality",
         ("S.10", "no-short"), C(T(1, "S.10"))),
    Step("S.16", _here("no shortfall: the notes' bound for u and ρ"), le(N * rho**2, R_sq * U_sq), "rearrangement",
         ("S.15", "S.9", "S.6", "N-nat", "a>0", "R_sq>=0", "U>=0"),
         Split(N, zero=C(T(1, "R_sq>=0", "U>=0")),
               positive=C(T(1, "S.15"), T(1, "S.9"), T(1, "U>=0", "S.6"), divisor=("N>0", "a>0", "a>0"))),
         comment="N <= R²‖u‖²/ρ², (R‖u‖ + D)²/ρ² with D = 0"),
)

QUANTITIES = (
    ("a", a), ("N", N), ("rho", rho), ("R_sq", R_sq), ("ws_sq", U_sq), ("sum_N_dsq", D_sq),
    ("w_sq", w_sq), ("prev_w_sq", prev_w_sq),
)

PROOF = Proof(
    key="soft-margin", note=NOTE, convention="*", mode="online",
    title="Without separation (Freund and Schapire 1999): N·ρ² <= (R‖u‖ + D)², derived here",
    summary=("No note proves a mistake bound for data that are not separable; this is Freund and Schapire's "
             "(Theorem 2, after Block and Novikoff), with D over the mistakes made, which is what verify checks at "
             "every online update as soft-margin-bound. Each mistake moves w·u by at least a·(ρ − d), so "
             "w·u >= a(Nρ − S); ‖w‖² <= a²NR² as in the notes; S² <= N·D². For every λ > 0 that gives "
             "λNρ² <= λ(1+λ)R²‖u‖² + (1+λ)D², least at λ = D/(R‖u‖), where it reads Nρ² <= (R‖u‖ + D)²."),
    symbols=SYMBOLS, vectors=VECTORS, inner=INNER, facts=FACTS, steps=STEPS, quantities=QUANTITIES,
)
