"""Batch mode: the bounds the runtime checks there, derived here (no note proves them).

Note 003 defines batch mode (Remark 2: after a whole pass,
``w += ε·Σ_{x^μ in Y} t^μ x^μ``, Y the patterns misclassified during the pass)
but proves convergence for incremental mode only. These steps derive what
``verify --mode batch`` checks, for any convention (step size a, labels ±1):
one batch of n mistakes raises ``w·w*`` by at least ``n·a·γ`` and ``‖w‖²``
by at most ``a²n²R²``, because every mistake of the pass was judged against
the same w. Hence ``N <= n_max·R²‖w*‖²/γ²``, and every note's bound B is at
least ``R²‖w*‖²/γ²``. Note 003's own bounds hold too, with no n_max: a batch
holds each sample at most once, so ``‖Σ_Y y·x~‖² <= n·Σ_Y ‖x~‖² <= n·β``
(Cauchy-Schwarz for n vectors, B.21-B.25), hence ``‖w‖² <= a²Nβ`` and
``N·γ² <= β·‖w*‖²``, that is ``N <= β/D²`` (B.26-B.29). Sums over the n
mistakes of a batch are checked by induction on the mistakes summed, j;
sums over the samples by induction on the samples summed, P.
"""

from __future__ import annotations

import sympy as sp

from .language import C, Fact, Induction, Place, Proof, Split, Step, T, V, Vec, VecEq, eq, ge, gt, le

__all__ = ["PROOF"]

NOTE = "003_a6cf23fd4ca930da.txt"

a, k, N, Np, n, j, gamma, R_sq, B = sp.symbols("a k N N_p n j gamma R_sq B")
Q, Qp, nmax, nmax_p, yj = sp.symbols("Q Q_p n_max n_max_p y_j")
w_ws, prev_w_ws, w_sq, prev_w_sq, ws_sq, U_ws, U_sq, w_U = sp.symbols(
    "w_ws prev_w_ws w_sq prev_w_sq ws_sq U_ws U_sq w_U")
uj_ws, ujp_ws, uj_sq, ujp_sq, xj_ws, xj_sq, w_xj, w_uj, w_ujp = sp.symbols(
    "uj_ws ujp_ws uj_sq ujp_sq xj_ws xj_sq w_xj w_uj w_ujp")
beta, s_Y, Sj, Sjp, P, dP, xP_sq, DP, DPp, CP, CPp, sxs, prev_sxs = sp.symbols(
    "beta s_Y S_j S_jp P delta_P xP_sq D_P D_Pp C_P C_Pp sxs prev_sxs")

_HERE = Place("toolkit", None, "batch mode, derived here")


def _here(where: str) -> Place:
    return Place("toolkit", None, where)


SYMBOLS = (
    (a, "a", "step size: w_k - w_{k-1} = a·Σ_j y_j x~_j (η, 2η for the hard limiter, ε, λ or 1)"),
    (k, "k", "number of batch updates so far"),
    (N, "N", "number of mistakes so far"), (Np, "N_{-}", "mistakes before this batch"),
    (n, "n", "mistakes in this batch"),
    (j, "j", "mistakes of the batch summed so far"),
    (gamma, r"\gamma", "min_i y_i·w*·x~_i"),
    (R_sq, "R^2", "max_i ‖x~_i‖²"),
    (B, "B", "the convention's mistake bound for w*"),
    (Q, "Q", "Σ over the batch updates so far of n²"), (Qp, "Q_{-}", "the same before this batch"),
    (nmax, r"n_{\max}", "the largest batch so far"), (nmax_p, r"n_{\max,-}", "the same before this batch"),
    (yj, "y_j", "label of the j-th mistake of the batch"),
    (w_ws, r"\mathbf{w}_k\cdot\mathbf{w}^*", "w_k·w*"), (prev_w_ws, r"\mathbf{w}_{k-1}\cdot\mathbf{w}^*", "w_{k-1}·w*"),
    (w_sq, r"\|\mathbf{w}_k\|^2", "‖w_k‖²"), (prev_w_sq, r"\|\mathbf{w}_{k-1}\|^2", "‖w_{k-1}‖²"),
    (ws_sq, r"\|\mathbf{w}^*\|^2", "‖w*‖²"),
    (U_ws, r"\mathbf{U}\cdot\mathbf{w}^*", "U·w*, U = Σ_j y_j x~_j over the batch"),
    (U_sq, r"\|\mathbf{U}\|^2", "‖U‖²"), (w_U, r"\mathbf{w}_{k-1}\cdot\mathbf{U}", "w_{k-1}·U"),
    (uj_ws, r"\mathbf{U}_j\cdot\mathbf{w}^*", "partial sum U_j = Σ_{i<=j} y_i x~_i, times w*"),
    (ujp_ws, r"\mathbf{U}_{j-1}\cdot\mathbf{w}^*", "U_{j-1}·w*"),
    (uj_sq, r"\|\mathbf{U}_j\|^2", "‖U_j‖²"), (ujp_sq, r"\|\mathbf{U}_{j-1}\|^2", "‖U_{j-1}‖²"),
    (xj_ws, r"\mathbf{x}_j\cdot\mathbf{w}^*", "x~_j·w*"), (xj_sq, r"\|\mathbf{x}_j\|^2", "‖x~_j‖²"),
    (w_xj, r"\mathbf{w}_{k-1}\cdot\mathbf{x}_j", "the score of the j-th mistake"),
    (w_uj, r"\mathbf{w}_{k-1}\cdot\mathbf{U}_j", "w_{k-1}·U_j"), (w_ujp, r"\mathbf{w}_{k-1}\cdot\mathbf{U}_{j-1}", "w_{k-1}·U_{j-1}"),
    (beta, r"\beta", "Σ_i ‖x~_i‖² over every sample (note 003's β)"),
    (s_Y, "s_Y", "Σ over the batch's mistakes of ‖x~_j‖²"),
    (Sj, "S_j", "its first j terms"), (Sjp, "S_{j-1}", "its first j - 1 terms"),
    (P, "P", "samples summed so far, in the data's order"),
    (dP, r"\delta_P", "1 when sample P is a mistake of the batch, else 0"),
    (xP_sq, r"\|\mathbf{x}^P\|^2", "‖x~_P‖²"),
    (DP, "D_P", "Σ_{i<=P} δ_i‖x~_i‖²"), (DPp, "D_{P-1}", "Σ_{i<P} δ_i‖x~_i‖²"),
    (CP, "C_P", "Σ_{i<=P} ‖x~_i‖²"), (CPp, "C_{P-1}", "Σ_{i<P} ‖x~_i‖²"),
    (sxs, r"\Sigma_N", "Σ_μ N_μ‖x~_μ‖² after this batch"), (prev_sxs, r"\Sigma_{N,-}", "the same before it"),
)

VECTORS = (
    ("wk", r"\mathbf{w}_k", "weights after the batch"), ("w", r"\mathbf{w}_{k-1}", "weights during the pass"),
    ("o", r"\mathbf{w}^*", "the separator"), ("U", r"\mathbf{U}", "Σ_j y_j x~_j over the batch's mistakes"),
    ("Uj", r"\mathbf{U}_j", "the first j terms of that sum"), ("Ujp", r"\mathbf{U}_{j-1}", "the first j - 1"),
    ("xj", r"\mathbf{x}_j", "the j-th misclassified (augmented) sample"),
)

INNER = (
    (w_ws, V("wk"), V("o")), (prev_w_ws, V("w"), V("o")), (w_sq, V("wk"), V("wk")), (prev_w_sq, V("w"), V("w")),
    (ws_sq, V("o"), V("o")), (U_ws, V("U"), V("o")), (U_sq, V("U"), V("U")), (w_U, V("w"), V("U")),
    (uj_ws, V("Uj"), V("o")), (ujp_ws, V("Ujp"), V("o")), (uj_sq, V("Uj"), V("Uj")), (ujp_sq, V("Ujp"), V("Ujp")),
    (xj_ws, V("xj"), V("o")), (xj_sq, V("xj"), V("xj")), (w_xj, V("w"), V("xj")), (w_uj, V("w"), V("Uj")),
    (w_ujp, V("w"), V("Ujp")),
)

FACTS = (
    Fact("a>0", gt(a, 0), "symbol", "a step size is positive"),
    Fact("label", eq(yj**2, 1), "symbol", "labels are ±1"),
    Fact("gamma>0", gt(gamma, 0), "hypothesis", "w* separates the data strictly"),
    Fact("R_sq>=0", ge(R_sq, 0), "symbol", "a squared norm"),
    Fact("W>=0", ge(ws_sq, 0), "symbol", "a squared norm"),
    Fact("N-nat", ge(N, 0), "symbol", "N counts mistakes", integer=True),
    Fact("Np>=0", ge(Np, 0), "symbol", "a count"),
    Fact("n>=1", ge(n, 1), "algorithm", "a batch update follows at least one mistake"),
    Fact("nmax>=n", ge(nmax, n), "definition", "n_max is the largest batch so far"),
    Fact("nmax-mono", ge(nmax, nmax_p), "definition", "the largest batch never shrinks"),
    Fact("nmax>=0", ge(nmax, 0), "symbol", "a count"),
    Fact("update", VecEq(V("wk"), V("w") + a * V("U")), "algorithm", "after the pass, w += a·Σ_j y_j x~_j",
         Place("003", 130, "Remark 2, batch mode", r"\Delta \mathbf{w} = \varepsilon \sum_{\mathbf{x}^\mu \in Y} t^\mu \mathbf{x}^\mu")),
    Fact("mistake-j", le(yj * w_xj, 0), "algorithm", "every mistake of the pass is judged against the same w_{k-1}",
         Place("003", 126, "Remark 2, batch mode", r"updating takes place only after presentation of all training patterns")),
    Fact("margin-j", ge(yj * xj_ws, gamma), "hypothesis", "γ is the smallest y_i·w*·x~_i"),
    Fact("radius-j", le(xj_sq, R_sq), "definition", "R² is the largest ‖x~_i‖²"),
    Fact("init", VecEq(V("wk"), Vec()), "initial", "w = 0 before the first update"),
    Fact("N-init", eq(N, 0), "initial", "no mistake before the first update"),
    Fact("Q-init", eq(Q, 0), "initial", "the sum of n² is empty before the first update"),
    Fact("count", eq(N, Np + n), "definition", "the batch adds its n mistakes"),
    Fact("Q-step", eq(Q, Qp + n**2), "definition", "the batch adds n² to Q"),
    Fact("part-step", VecEq(V("Uj"), V("Ujp") + yj * V("xj")), "definition", "U_j = U_{j-1} + y_j x~_j"),
    Fact("part-init", VecEq(V("Uj"), Vec()), "initial", "U_0 = 0"),
    Fact("part-first", VecEq(V("Uj"), yj * V("xj")), "initial", "U_1 = y_1 x~_1"),
    Fact("full", VecEq(V("Uj"), V("U")), "definition", "after the batch's last mistake U_j = U"),
    Fact("full-j", eq(j, n), "definition", "the batch has n mistakes"),
    Fact("bound", ge(B, R_sq * ws_sq / gamma**2), "toolkit",
         "every note's bound for w* is at least R²‖w*‖²/γ² (notes 000, 001, 002, 004 equal it; 003's β >= R²)"),
    Fact("S-step", eq(Sj, Sjp + xj_sq), "definition", "S_j = S_{j-1} + ‖x~_j‖²"),
    Fact("S-first", eq(Sj, xj_sq), "initial", "S_1 = ‖x~_1‖²"),
    Fact("full-S", eq(Sj, s_Y), "definition", "after the batch's last mistake S_j = s_Y"),
    Fact("once", le(dP, 1), "algorithm", "a pass presents each sample once, so it is at most once among the batch's mistakes",
         Place("003", 132, "Remark 2, batch mode", r"where Y is the set of the wrongly classified training patterns")),
    Fact("xP_sq>=0", ge(xP_sq, 0), "symbol", "a squared norm"),
    Fact("D-step", eq(DP, DPp + dP * xP_sq), "definition", "D_P = D_{P-1} + δ_P‖x~_P‖²"),
    Fact("C-step", eq(CP, CPp + xP_sq), "definition", "C_P = C_{P-1} + ‖x~_P‖²"),
    Fact("D-init", eq(DP, 0), "initial", "D_0 = 0"),
    Fact("C-init", eq(CP, 0), "initial", "C_0 = 0"),
    Fact("full-D", eq(DP, s_Y), "definition", "after the last sample D_P = s_Y: the batch's mistakes, in the data's order"),
    Fact("full-C", eq(CP, beta), "definition", "β = Σ_i ‖x~_i‖², note 003's β",
         Place("003", 258, "Denominator", r"\quad \beta = \sum_{\mu} |\mathbf{x}^{\mu}|^2")),
    Fact("beta>=0", ge(beta, 0), "symbol", "a sum of squared norms"),
    Fact("sxs-step", eq(sxs, prev_sxs + s_Y), "definition", "each mistake of the batch adds its ‖x~‖² to Σ_μ N_μ‖x~_μ‖²"),
    Fact("sxs-init", eq(sxs, 0), "initial", "Σ_μ N_μ‖x~_μ‖² is 0 before the first update"),
    Fact("prev_sxs>=0", ge(prev_sxs, 0), "symbol", "a sum of squared norms"),
    Fact("s_Y>=0", ge(s_Y, 0), "symbol", "a sum of squared norms"),
)

STEPS = (
    Step("B.1", _here("one batch, lower bound, term by term"), ge(uj_ws, j * gamma), "induction",
         ("part-step", "margin-j"),
         induction=Induction(j, {j: j - 1, uj_ws: ujp_ws}, previous_vectors={"Uj": V("Ujp")}, base_uses=("part-init",),
                             step=C(T(1, "IH"), T(1, "margin-j")), over="mistakes of the batch j")),
    Step("B.2", _here("one batch, lower bound"), ge(U_ws, n * gamma), "inequality", ("B.1", "full", "full-j"),
         C(T(1, "B.1"))),
    Step("B.3", _here("one batch, w·w*"), eq(w_ws, prev_w_ws + a * U_ws), "identity", ("update",)),
    Step("B.4", _here("one batch, w·w*"), le(n * a * gamma, w_ws - prev_w_ws), "inequality", ("B.3", "B.2", "a>0"),
         C(T(1, "a>0", "B.2")), claim="lower-bound-step"),
    Step("B.5", _here("all batches, w·w*"), ge(w_ws, N * a * gamma), "induction", ("B.4", "count"),
         induction=Induction(k, {k: k - 1, w_ws: prev_w_ws, N: Np}, previous_vectors={"wk": V("w")},
                             base_uses=("init", "N-init"),
                             step=C(T(1, "IH"), T(1, "B.4")), over="batch updates k"),
         claim="lower-bound"),
    Step("B.6", _here("one batch, cross term, term by term"), le(w_uj, 0), "induction", ("part-step", "mistake-j"),
         induction=Induction(j, {j: j - 1, w_uj: w_ujp}, previous_vectors={"Uj": V("Ujp")}, base_uses=("part-init",),
                             step=C(T(1, "IH"), T(1, "mistake-j")), over="mistakes of the batch j"),
         comment="every term y_j·w_{k-1}·x~_j <= 0 because all were judged against w_{k-1}"),
    Step("B.7", _here("one batch, cross term"), le(w_U, 0), "inequality", ("B.6", "full"), C(T(1, "B.6"))),
    Step("B.8", _here("one batch, ‖w‖²"), eq(w_sq, prev_w_sq + 2 * a * w_U + a**2 * U_sq), "identity", ("update",)),
    Step("B.9", _here("one batch, ‖w‖²"), le(w_sq, prev_w_sq + a**2 * U_sq), "inequality", ("B.8", "B.7", "a>0"),
         C(T(2, "a>0", "B.7")), claim="upper-bound-step"),
    Step("B.10", _here("length of a batch, term by term"), le(uj_sq, j**2 * R_sq), "induction",
         ("part-step", "radius-j", "label"),
         induction=Induction(j, {j: j - 1, uj_sq: ujp_sq}, previous_vectors={"Uj": V("Ujp")}, start=1, base_uses=("part-first", "radius-j", "label"),
                             base=C(T(1, "radius-j")),
                             step=C(T(1, "j>1", "IH"), T(1, "IH"), T(1, "j>1", "j>1", "radius-j"), T(1, "j>1", "radius-j"),
                                    T(1, square=V("Ujp") - (j - 1) * yj * V("xj")), divisor=("j>1",)),
                             over="mistakes of the batch j"),
         comment="(j-1)(j²R² - ‖U_j‖²) = j·(IH) + j(j-1)(R² - ‖x~_j‖²) + ‖U_{j-1} - (j-1)y_j x~_j‖²"),
    Step("B.11", _here("length of a batch"), le(U_sq, n**2 * R_sq), "inequality", ("B.10", "full", "full-j"),
         C(T(1, "B.10"))),
    Step("B.12", _here("one batch, ‖w‖²"), le(w_sq, prev_w_sq + a**2 * n**2 * R_sq), "inequality", ("B.9", "B.11"),
         C(T(1, "B.9"), T(1, "B.11", square=a))),
    Step("B.13", _here("all batches, ‖w‖²"), le(w_sq, a**2 * R_sq * Q), "induction", ("B.12", "Q-step"),
         induction=Induction(k, {k: k - 1, w_sq: prev_w_sq, Q: Qp}, previous_vectors={"wk": V("w")}, base_uses=("init", "Q-init"),
                             step=C(T(1, "IH"), T(1, "B.12")), over="batch updates k"),
         claim="upper-bound-batch"),
    Step("B.14", _here("Cauchy-Schwarz"), le(w_ws**2, w_sq * ws_sq), "cauchy-schwarz", vectors=(V("wk"), V("o")),
         claim="cauchy-schwarz"),
    Step("B.15", _here("squaring the lower bound"), le((N * a * gamma)**2, w_ws**2), "inequality",
         ("B.5", "N-nat", "a>0", "gamma>0"), C(T(1, "B.5", "B.5"), T(2, "N-nat", "a>0", "gamma>0", "B.5"))),
    Step("B.16", _here("quadratic lower bound"), le((N * a * gamma)**2, w_sq * ws_sq), "inequality", ("B.15", "B.14"),
         C(T(1, "B.15"), T(1, "B.14")), claim="quadratic-lower-bound"),
    Step("B.17", _here("Σ n² <= n_max·Σ n"), le(Q, nmax * N), "induction",
         ("Q-step", "count", "nmax-mono", "nmax>=n", "Np>=0", "n>=1"),
         induction=Induction(k, {k: k - 1, Q: Qp, N: Np, nmax: nmax_p}, base_uses=("Q-init", "N-init"),
                             step=C(T(1, "IH"), T(1, "nmax-mono", "Np>=0"), T(1, "n>=1", "nmax>=n"), T(1, "nmax>=n")),
                             over="batch updates k")),
    Step("B.18", _here("joining the bounds"), le(N**2 * a**2 * gamma**2, a**2 * R_sq * nmax * N * ws_sq), "inequality",
         ("B.16", "B.13", "B.17", "W>=0", "R_sq>=0"),
         C(T(1, "B.16"), T(1, "W>=0", "B.13"), T(1, "R_sq>=0", "W>=0", "B.17", square=a))),
    Step("B.19", _here("dividing by N·a²·γ²"), le(N, nmax * R_sq * ws_sq / gamma**2), "rearrangement",
         ("B.18", "N-nat", "a>0", "gamma>0", "nmax>=0", "R_sq>=0", "W>=0"),
         Split(N, zero=C(T(1, "nmax>=0", "R_sq>=0", "W>=0"), divisor=("gamma>0", "gamma>0")),
               positive=C(T(1, "B.18"), divisor=("N>0", "a>0", "a>0", "gamma>0", "gamma>0")))),
    Step("B.20", _here("the convention's bound"), le(N, nmax * B), "inequality", ("B.19", "nmax>=0", "bound"),
         C(T(1, "B.19"), T(1, "nmax>=0", "bound")), claim="mistake-bound-batch"),
    # Note 003's own bounds, with β = Σ_i ‖x~_i‖²: they need only that a batch holds each sample at most once.
    Step("B.21", _here("length of a batch by its squared norms, term by term"), le(uj_sq, j * Sj), "induction",
         ("part-step", "S-step", "label"),
         induction=Induction(j, {j: j - 1, uj_sq: ujp_sq, Sj: Sjp}, previous_vectors={"Uj": V("Ujp")}, start=1,
                             base_uses=("part-first", "S-first", "label"),
                             step=C(T(1, "j>1", "IH"), T(1, "IH"), T(1, square=V("Ujp") - (j - 1) * yj * V("xj")),
                                    divisor=("j>1",)),
                             over="mistakes of the batch j"),
         comment="(j-1)(j·S_j - ‖U_j‖²) = j·(IH) + ‖U_{j-1} - (j-1)y_j x~_j‖²"),
    Step("B.22", _here("length of a batch by its squared norms"), le(U_sq, n * s_Y), "inequality",
         ("B.21", "full", "full-j", "full-S"), C(T(1, "B.21")),
         comment="‖Σ_Y y_j x~_j‖² <= |Y|·Σ_Y ‖x~_j‖², Cauchy-Schwarz for a sum of n vectors"),
    Step("B.23", _here("a batch's squared norms, sample by sample"), le(DP, CP), "induction",
         ("D-step", "C-step", "once", "xP_sq>=0"),
         induction=Induction(P, {P: P - 1, DP: DPp, CP: CPp}, base_uses=("D-init", "C-init"),
                             step=C(T(1, "IH"), T(1, "once", "xP_sq>=0")), over="samples P")),
    Step("B.24", _here("a batch's squared norms"), le(s_Y, beta), "inequality", ("B.23", "full-D", "full-C"),
         C(T(1, "B.23")), comment="the batch's mistakes are distinct samples: their ‖x~‖² are some of β's terms"),
    Step("B.25", _here("length of a batch"), le(U_sq, n * beta), "inequality", ("B.22", "B.24", "n>=1"),
         C(T(1, "B.22"), T(1, "n>=1", "B.24"), T(1, "B.24"))),
    Step("B.26", _here("one batch, ‖w‖², note 003's form"), le(w_sq, prev_w_sq + a**2 * n * beta), "inequality",
         ("B.9", "B.25"), C(T(1, "B.9"), T(1, "B.25", square=a))),
    Step("B.27", _here("all batches, ‖w‖², note 003's form"), le(w_sq, a**2 * N * beta), "induction", ("B.26", "count"),
         induction=Induction(k, {k: k - 1, w_sq: prev_w_sq, N: Np}, previous_vectors={"wk": V("w")},
                             base_uses=("init", "N-init"), step=C(T(1, "IH"), T(1, "B.26")), over="batch updates k"),
         claim="upper-bound-sum-batch", comment="note 003's |w|² <= ε²Nβ, in batch mode"),
    Step("B.28", _here("joining note 003's bounds"), le(N**2 * a**2 * gamma**2, a**2 * N * beta * ws_sq), "inequality",
         ("B.16", "B.27", "W>=0"), C(T(1, "B.16"), T(1, "W>=0", "B.27"))),
    Step("B.29", _here("dividing by N·a²"), le(N * gamma**2, beta * ws_sq), "rearrangement",
         ("B.28", "N-nat", "a>0", "beta>=0", "W>=0"),
         Split(N, zero=C(T(1, "beta>=0", "W>=0")), positive=C(T(1, "B.28"), divisor=("N>0", "a>0", "a>0"))),
         claim="mistake-bound-sum-batch", comment="note 003's N <= β/D² with D = γ/‖w*‖, in batch mode"),
    Step("B.30", _here("one batch, ‖w‖², by its own samples"), le(w_sq, prev_w_sq + a**2 * n * s_Y), "inequality",
         ("B.9", "B.22"), C(T(1, "B.9"), T(1, "B.22", square=a))),
    Step("B.31", _here("all batches, ‖w‖², by the samples' mistakes"), le(w_sq, a**2 * nmax * sxs), "induction",
         ("B.30", "sxs-step", "nmax-mono", "nmax>=n", "prev_sxs>=0", "s_Y>=0"),
         induction=Induction(k, {k: k - 1, w_sq: prev_w_sq, nmax: nmax_p, sxs: prev_sxs}, previous_vectors={"wk": V("w")},
                             base_uses=("init", "sxs-init"),
                             step=C(T(1, "IH"), T(1, "B.30"), T(1, "nmax-mono", "prev_sxs>=0", square=a),
                                    T(1, "nmax>=n", "s_Y>=0", square=a)),
                             over="batch updates k"),
         claim="upper-bound-per-sample-batch",
         comment="note 003's |w|² <= ε²Σ_μ N_μ|x^μ|², which fails in batch mode, holds with a factor n_max"),
)

QUANTITIES = (
    ("a", a), ("k", k), ("N", N), ("n", n), ("gamma", gamma), ("R_sq", R_sq), ("ws_sq", ws_sq),
    ("w_ws", w_ws), ("prev_w_ws", prev_w_ws), ("w_sq", w_sq), ("prev_w_sq", prev_w_sq), ("step_sq", a**2 * U_sq),
    ("sum_n_sq", Q), ("n_max", nmax), ("bound", B), ("beta", beta), ("sum_N_xsq", sxs),
)

PROOF = Proof(
    key="batch", note=NOTE, convention="*", mode="batch",
    title="Batch mode (note 003, Remark 2): N <= n_max·B and N <= β/D², derived here",
    summary=("No note proves convergence in batch mode; these steps derive the invariants the runtime checks "
             "there, for every convention. All mistakes of a pass are judged against the same w, so the "
             "batch's cross term is <= 0 and its length is at most a·n·R; hence ‖w‖² <= a²R²Σn² and "
             "N <= n_max·R²‖w*‖²/γ² <= n_max·B. A pass holds each sample at most once, so a batch's squared "
             "length is at most a²·n·Σ_Y‖x~‖² <= a²·n·β: note 003's ‖w‖² <= a²Nβ and N <= β/D² hold as they "
             "are, and its per-sample form with a factor n_max."),
    symbols=SYMBOLS, vectors=VECTORS, inner=INNER, facts=FACTS, steps=STEPS, quantities=QUANTITIES,
)
