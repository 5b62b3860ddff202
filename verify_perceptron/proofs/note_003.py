"""Note 003 (``sum-norm``): the convergence proof for incremental mode, step by step.

The note writes the weights in dual form ``w = ε·Σ_μ N_μ t^μ x^μ`` (N_μ the
updates caused by pattern μ, ``N = Σ_μ N_μ``), bounds the numerator of
``cos φ = w·ŵ / (|w||ŵ|)`` by ``εN|ŵ|D`` and its denominator by
``|w|² <= ε²Σ_μ N_μ|x^μ|² <= ε²Nβ`` with ``β = Σ_μ |x^μ|²`` (a sum over the
patterns), so ``D·sqrt(N/β) <= cos φ <= 1`` and ``N <= β/D²``. Patterns are
augmented with -1 last: ``x -> (x, -1)``.

Sums over patterns are checked by induction on the number of patterns summed
(partial sums ``S_P``, ``T_P``, ``B_P``, ``C_P``); square roots are squared,
and ``|ŵ|·D`` is kept as one symbol m, the smallest ``t^μ x^μ·ŵ``.

Three claims around the proof are restated too, each as written and
corrected: "fewer patterns than features are separable" (through Gordan's
alternative, on the dual sum ``S = Σ_μ N_μ t^μ x^μ``), Remark 1's
``y != t <=> (w·x)t <= 0`` (which needs sign(0) = 0), and the bound read
with N as iterations (presentations) rather than updates.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from ..notes.conventions import dot
from .errata import Erratum, Failure, Run, UpdateState
from .counter import CounterModel
from .language import C, Fact, Induction, Place, Proof, Split, Step, T, V, Vec, VecEq, eq, ge, gt, le, lt

__all__ = ["PROOF", "ERRATA", "model_of"]

NOTE = "003_a6cf23fd4ca930da.txt"

eps, t, N, Nmu, m, beta, R_sq = sp.symbols("epsilon t N N_mu m beta R_sq")
w_ws, prev_w_ws, x_ws, w_sq, prev_w_sq, w_x, x_sq, ws_sq, S_ws = sp.symbols(
    "w_ws prev_w_ws x_ws w_sq prev_w_sq w_x x_sq ws_sq S_ws")
P, tP, NP, TP, TPp, BP, BPp, CP, CPp = sp.symbols("P t_P N_P T_P T_Pp B_P B_Pp C_P C_Pp")
sp_ws, spp_ws, xP_ws, xP_sq = sp.symbols("sp_ws spp_ws xP_ws xP_sq")
sxs, prev_sxs = sp.symbols("sxs prev_sxs")
S_sq, Nsq, kappa, n_pat, n_feat, iters, yo, rs = sp.symbols("S_sq N_sq kappa n_patterns n_features iterations y r")


def _at(line: int, where: str, quote: str) -> Place:
    return Place("003", line, where, quote)


_FEWER = _at(8, "why linear classifiers", "If the number of patterns is less than the number of features")
_REMARK1 = _at(120, "Remark 1", r"(\mathbf{w} \cdot \mathbf{x}^\mu)t^\mu \leq 0")


_TOOLKIT = Place("toolkit", None, "added so that every runtime invariant of this convention has a proof here")

SYMBOLS = (
    (eps, r"\varepsilon", "learning rate"),
    (t, r"t^\alpha", "target (±1) of the pattern that caused the update"),
    (N, "N", "number of updates so far, N = Σ_μ N_μ"),
    (Nmu, r"N_\mu", "updates caused by one pattern μ"),
    (m, r"|\hat{\mathbf{w}}|D", "min over μ of t^μ x^μ·ŵ (> 0 since ŵ separates)"),
    (beta, r"\beta", "Σ_μ |x^μ|², a sum over the patterns"),
    (R_sq, "R^2", "max_μ |x^μ|²"),
    (w_ws, r"\mathbf{w}\cdot\hat{\mathbf{w}}", "w·ŵ after the update"),
    (prev_w_ws, r"\mathbf{w}_{-}\cdot\hat{\mathbf{w}}", "w·ŵ before it"),
    (x_ws, r"\mathbf{x}^\alpha\cdot\hat{\mathbf{w}}", "x^α·ŵ"),
    (w_sq, r"|\mathbf{w}|^2", "|w|² after the update"),
    (prev_w_sq, r"|\mathbf{w}_{-}|^2", "|w|² before it"),
    (w_x, r"\mathbf{w}_{-}\cdot\mathbf{x}^\alpha", "w·x^α before the update"),
    (x_sq, r"|\mathbf{x}^\alpha|^2", "|x^α|²"),
    (ws_sq, r"|\hat{\mathbf{w}}|^2", "|ŵ|²"),
    (S_ws, r"\mathbf{S}\cdot\hat{\mathbf{w}}", "(Σ_μ N_μ t^μ x^μ)·ŵ"),
    (P, "P", "number of patterns summed so far"),
    (tP, "t^P", "target of pattern P"),
    (NP, "N_P", "updates caused by pattern P"),
    (TP, "T_P", "Σ_{μ<=P} N_μ"), (TPp, "T_{P-1}", "Σ_{μ<P} N_μ"),
    (BP, "B_P", "Σ_{μ<=P} N_μ|x^μ|²"), (BPp, "B_{P-1}", "Σ_{μ<P} N_μ|x^μ|²"),
    (CP, "C_P", "Σ_{μ<=P} |x^μ|²"), (CPp, "C_{P-1}", "Σ_{μ<P} |x^μ|²"),
    (sp_ws, r"\mathbf{S}_P\cdot\hat{\mathbf{w}}", "(Σ_{μ<=P} N_μ t^μ x^μ)·ŵ"),
    (spp_ws, r"\mathbf{S}_{P-1}\cdot\hat{\mathbf{w}}", "(Σ_{μ<P} N_μ t^μ x^μ)·ŵ"),
    (xP_ws, r"\mathbf{x}^P\cdot\hat{\mathbf{w}}", "x^P·ŵ"),
    (xP_sq, r"|\mathbf{x}^P|^2", "|x^P|²"),
    (sxs, r"\Sigma_N", "Σ_μ N_μ|x^μ|², the sum over the updates so far of |x|²"),
    (prev_sxs, r"\Sigma_{N-1}", "the same sum before the N-th update"),
    (S_sq, r"|\mathbf{S}|^2", "|Σ_μ N_μ t^μ x^μ|², the squared norm of the dual sum"),
    (Nsq, r"\textstyle\sum_\mu N_\mu^2", "Σ_μ N_μ²"),
    (kappa, r"\kappa", "least eigenvalue of the Gram matrix (x^μ·x^ν) of the augmented patterns"),
    (n_pat, r"\#\mu", "number of patterns (the note's P)"),
    (n_feat, "n", "number of features: the patterns lie in R^n before the -1 is added"),
    (iters, "I", "iterations (presentations) made while the weights are w: until the next update or the end"),
    (yo, r"y^\alpha", "the output sign(w·x^α) before the update"),
    (rs, "r", "1/|w·x^α|, any r >= 0 when w·x^α = 0: with sign(0) = 0, y = r·(w·x)"),
)

VECTORS = (
    ("wn", r"\mathbf{w}", "weights after the N-th update"),
    ("w", r"\mathbf{w}_{-}", "weights before it"),
    ("x", r"\mathbf{x}^\alpha", "the pattern that caused it (x, -1)"),
    ("h", r"\hat{\mathbf{w}}", "the separating vector"),
    ("S", r"\mathbf{S}", "Σ_μ N_μ t^μ x^μ after the update"),
    ("Sp", r"\mathbf{S}_{-}", "the same sum before it"),
    ("SP", r"\mathbf{S}_P", "Σ_{μ<=P} N_μ t^μ x^μ"),
    ("SPp", r"\mathbf{S}_{P-1}", "Σ_{μ<P} N_μ t^μ x^μ"),
    ("xP", r"\mathbf{x}^P", "pattern P"),
)

INNER = (
    (w_ws, V("wn"), V("h")), (prev_w_ws, V("w"), V("h")), (x_ws, V("x"), V("h")),
    (w_sq, V("wn"), V("wn")), (prev_w_sq, V("w"), V("w")), (w_x, V("w"), V("x")),
    (x_sq, V("x"), V("x")), (ws_sq, V("h"), V("h")), (S_ws, V("S"), V("h")),
    (sp_ws, V("SP"), V("h")), (spp_ws, V("SPp"), V("h")), (xP_ws, V("xP"), V("h")), (xP_sq, V("xP"), V("xP")),
    (S_sq, V("S"), V("S")),
)

_ALL = "after the last pattern the partial sums are the full ones"

FACTS = (
    Fact("eps", gt(eps, 0), "symbol", "a learning rate is positive",
         _at(109, "the perceptron algorithm", r"\Delta \mathbf{w} = \varepsilon t^\mu \mathbf{x}^\mu")),
    Fact("label", eq(t**2, 1), "symbol", "targets are ±1", _at(89, "coding of outputs", r"$t^\mu = +1$ for patterns in class C_1")),
    Fact("N-nat", ge(N, 0), "symbol", "N counts updates", integer=True),
    Fact("Nmu-nat", ge(Nmu, 0), "symbol", "N_μ counts updates", integer=True),
    Fact("update", VecEq(V("wn"), V("w") + eps * t * V("x")), "algorithm", "Δw = ε·t·x on a wrongly classified pattern",
         _at(109, "the perceptron algorithm", r"y^\mu \neq t^\mu \Rightarrow \Delta \mathbf{w} = \varepsilon t^\mu \mathbf{x}^\mu")),
    Fact("mistake", le(t * w_x, 0), "algorithm", "Remark 1: an update happens when (w·x)t <= 0",
         _at(120, "Remark 1", r"(\mathbf{w} \cdot \mathbf{x}^\mu)t^\mu \leq 0")),
    Fact("init", VecEq(V("wn"), Vec()), "initial", "zero initial weights",
         _at(211, "Convergence", r"initial weights are all set to zero")),
    Fact("count", VecEq(V("S"), V("Sp") + t * V("x")), "definition", "the update raises N_α by one: S grows by t^α x^α"),
    Fact("dual-init", VecEq(V("S"), Vec()), "initial", "every N_μ is 0 before the first update"),
    Fact("part-step", VecEq(V("SP"), V("SPp") + NP * tP * V("xP")), "definition", "S_P = S_{P-1} + N_P t^P x^P"),
    Fact("part-init", VecEq(V("SP"), Vec()), "initial", "S_0 = 0 (no pattern summed)"),
    Fact("count-step", eq(TP, TPp + NP), "definition", "T_P = T_{P-1} + N_P"),
    Fact("count-init", eq(TP, 0), "initial", "T_0 = 0"),
    Fact("NP-nat", ge(NP, 0), "symbol", "N_P counts updates", integer=True),
    Fact("min", ge(tP * xP_ws, m), "definition", "m is the smallest t^μ x^μ·ŵ, |ŵ|D(ŵ) in the note",
         _at(229, "Numerator", r"= \varepsilon N |\hat{\mathbf{w}}| D(\hat{\mathbf{w}})")),
    Fact("full-S", VecEq(V("SP"), V("S")), "definition", _ALL),
    Fact("full-N", eq(TP, N), "definition", _ALL + " (N = Σ_μ N_μ)", _at(209, "Convergence", r"N = \sum_{\mu} N_{\mu}")),
    Fact("B-step", eq(BP, BPp + NP * xP_sq), "definition", "B_P = B_{P-1} + N_P|x^P|²"),
    Fact("C-step", eq(CP, CPp + xP_sq), "definition", "C_P = C_{P-1} + |x^P|²"),
    Fact("B-init", eq(BP, 0), "initial", "B_0 = 0"),
    Fact("C-init", eq(CP, 0), "initial", "C_0 = 0"),
    Fact("NP<=N", le(NP, N), "definition", "N_P <= Σ_μ N_μ = N, every N_μ being >= 0"),
    Fact("xP_sq>=0", ge(xP_sq, 0), "symbol", "a squared norm"),
    Fact("full-B", eq(BP, sxs), "definition", _ALL),
    Fact("full-C", eq(CP, beta), "definition", "β = Σ_μ |x^μ|²",
         _at(258, "Denominator", r"\quad \beta = \sum_{\mu} |\mathbf{x}^{\mu}|^2")),
    Fact("sum-step", eq(sxs, prev_sxs + x_sq), "definition", "the N-th update adds |x^α|² (raises N_α by one)"),
    Fact("sum-init", eq(sxs, 0), "initial", "the sum is empty before the first update"),
    Fact("m>0", gt(m, 0), "hypothesis", "ŵ separates the patterns: every t^μ x^μ·ŵ > 0",
         _at(232, "Numerator", r"> 0 because $\hat{\mathbf{w}}$ corresponds to the separating hyperplane")),
    Fact("ws>0", gt(ws_sq, 0), "symbol", "ŵ != 0"),
    Fact("beta>0", gt(beta, 0), "symbol", "every augmented pattern has |x|² >= 1 (its last component is -1)"),
    Fact("N>0", gt(N, 0), "case", "after at least one update (cos φ needs w != 0)"),
    Fact("min-x", ge(t * x_ws, m), "definition", "m is the smallest t^μ x^μ·ŵ, so t^α x^α·ŵ >= m"),
    Fact("radius", le(x_sq, R_sq), "definition", "R² = max_μ |x^μ|²"),
    # "Why linear classifiers" (line 8), through Gordan's alternative.
    Fact("fewer", lt(n_pat, n_feat), "hypothesis", "the note's case: fewer patterns than features", _FEWER),
    Fact("indep", ge(S_sq, kappa * Nsq), "hypothesis",
         "general position: the augmented patterns are linearly independent, so their Gram matrix is positive "
         "definite with least eigenvalue κ, and |Σ_μ c_μ x^μ|² >= κ·Σ_μ c_μ² (here c_μ = N_μ t^μ, t² = 1)"),
    Fact("kappa>0", gt(kappa, 0), "hypothesis", "linearly independent: the Gram matrix has no zero eigenvalue"),
    Fact("Nsq>=N", ge(Nsq, N), "definition", "N_μ² >= N_μ for a natural number, summed over μ"),
    # "N iterations" (line 206).
    Fact("I>=N", ge(iters, N), "definition", "an iteration presents one pattern; an update follows a presentation",
         _at(204, "Convergence", "In each iteration, a specific training pattern is presented to the network.")),
    # Remark 1 (line 120): the output y = sign(w·x).
    Fact("sign±1", eq(yo**2, 1), "case", "sign(0) = +1 or -1: the outputs are ±1 (lines 96-98)",
         _at(84, "the threshold trick", r"y = \text{sign}(\mathbf{w} \cdot \mathbf{x})")),
    Fact("sign-agrees", ge(yo * w_x, 0), "definition", "sign(v) has the sign of v, whatever sign(0) is"),
    Fact("sign0=0", eq(yo, rs * w_x), "case", "sign(0) = 0: y = (w·x)/|w·x|, and y = 0 when w·x = 0"),
    Fact("r>=0", ge(rs, 0), "definition", "r = 1/|w·x^α|, or any r >= 0 when w·x^α = 0"),
)

_DUAL = _at(140, "Remark 3", r"with positive coefficients λ_{μ}")
_DEN = _at(258, "Denominator", r"\leq \varepsilon^2 N \sum_{\mu} |\mathbf{x}^{\mu}|^2 = \varepsilon^2 N \beta")
_ANGLE = _at(266, "the angle φ", r"= D \sqrt{\frac{N}{\beta}}")
_BOUND_VALUE = beta * ws_sq / m**2

STEPS = (
    Step("003.G1w", _FEWER, gt(S_sq, 0), "inequality", ("fewer", "N>0"), written=True, corrected_by="003.G1",
         comment="Gordan: separable iff no non-negative, non-zero combination of the t^μ x^μ vanishes; after "
                 "N > 0 updates the dual sum S = Σ_μ N_μ t^μ x^μ is one, so 'separable' claims |S|² > 0"),
    Step("003.G1", _FEWER, gt(S_sq, 0), "inequality", ("indep", "kappa>0", "Nsq>=N", "N>0"),
         C(T(1, "indep"), T(1, "kappa>0", "Nsq>=N"), T(1, "kappa>0", "N>0")), corrects="003.G1w",
         comment="in general position no such combination vanishes, so a separating hyperplane exists"),
    Step("003.R1w", _REMARK1, lt(yo * t, 0), "inequality", ("mistake", "label", "sign±1", "sign-agrees"),
         written=True, corrected_by="003.R1",
         comment="Remark 1 from right to left: an update ((w·x)t <= 0) means y != t, that is y·t < 0 for ±1 "
                 "outputs; at a score of 0 the output sign(0) is one class's target"),
    Step("003.R1", _REMARK1, le(yo * t, 0), "inequality", ("mistake", "sign0=0", "r>=0"),
         C(T(1, "r>=0", "mistake")), corrects="003.R1w",
         comment="with sign(0) = 0, y is -1, 0 or 1 and t = ±1: y·t <= 0 says y != t"),
    Step("003.1", _at(213, "dual form", r"\mathbf{w} = \varepsilon \sum_{\mu} N_{\mu} \mathbf{x}^{\mu} t^{\mu}"),
         VecEq(V("wn"), eps * V("S")), "induction", ("update", "count"),
         induction=Induction(N, {N: N - 1}, base_uses=("init", "dual-init"),
                             previous_vectors={"wn": V("w"), "S": V("Sp")}, over="updates N")),
    Step("003.2w", _DUAL, gt(eps * Nmu, 0), "inequality", ("eps", "Nmu-nat"), written=True, corrected_by="003.2",
         comment="λ_μ = ε·N_μ, which is 0 for a pattern that never caused an update (and every λ_μ is 0 at the start)"),
    Step("003.2", _DUAL, ge(eps * Nmu, 0), "inequality", ("eps", "Nmu-nat"), C(T(1, "eps", "Nmu-nat")),
         corrects="003.2w", comment="the dual coefficients are non-negative"),
    Step("003.3", _at(227, "Numerator", r"&= \varepsilon \sum_{\mu} N^{\mu} t^{\mu} \mathbf{x}^{\mu} \cdot \hat{\mathbf{w}}"),
         eq(w_ws, eps * S_ws), "identity", ("003.1",)),
    Step("003.4", _at(227, "Numerator, one term of the sum", r"N^{\mu} t^{\mu} \mathbf{x}^{\mu} \cdot \hat{\mathbf{w}}"),
         eq(sp_ws, spp_ws + NP * tP * xP_ws), "identity", ("part-step",)),
    Step("003.5", _at(227, "Numerator, each term at least the minimum",
                      r"\geq \varepsilon \sum_{\mu} N^{\mu} \min(t^{\mu} \mathbf{x}^{\mu} \cdot \hat{\mathbf{w}})"),
         ge(sp_ws, m * TP), "induction", ("003.4", "count-step", "min", "NP-nat"),
         induction=Induction(P, {P: P - 1, sp_ws: spp_ws, TP: TPp}, previous_vectors={"SP": V("SPp")},
                             base_uses=("part-init", "count-init"),
                             step=C(T(1, "IH"), T(1, "NP-nat", "min")), over="patterns P")),
    Step("003.6", _at(228, "Numerator", r"\min(t^{\mu} \mathbf{x}^{\mu} \cdot \hat{\mathbf{w}}) \sum_{\mu} N^{\mu}"),
         ge(S_ws, m * N), "inequality", ("003.5", "full-S", "full-N"), C(T(1, "003.5")),
         comment="003.5 after the last pattern"),
    Step("003.7", _at(229, "Numerator", r"= \varepsilon N |\hat{\mathbf{w}}| D(\hat{\mathbf{w}})"),
         ge(w_ws, eps * N * m), "inequality", ("003.3", "003.6", "eps"), C(T(1, "eps", "003.6")),
         claim="lower-bound"),
    Step("003.8", _at(246, "Denominator",
                      r"= \varepsilon^2 |\mathbf{x}^\alpha|^2 + 2\varepsilon t^a \mathbf{w} \cdot \mathbf{x}^\alpha"),
         eq(w_sq - prev_w_sq, eps**2 * x_sq + 2 * eps * t * w_x), "identity", ("update", "label")),
    Step("003.9", _at(252, "Denominator, one update", r"\Delta|\mathbf{w}|^2 \leq \varepsilon^2 |\mathbf{x}^\alpha|^2"),
         le(w_sq - prev_w_sq, eps**2 * x_sq), "inequality", ("003.8", "mistake", "eps"), C(T(2, "eps", "mistake")),
         claim="upper-bound-step", tie=("label",)),
    Step("003.10", _at(258, "Denominator, all updates", r"\leq \varepsilon^2 \sum_{\mu} N_{\mu} |\mathbf{x}^{\mu}|^2"),
         le(w_sq, eps**2 * sxs), "induction", ("003.9", "sum-step"),
         induction=Induction(N, {N: N - 1, w_sq: prev_w_sq, sxs: prev_sxs}, previous_vectors={"wn": V("w")},
                             base_uses=("init", "sum-init"),
                             step=C(T(1, "IH"), T(1, "003.9")), over="updates N"),
         claim="upper-bound-per-sample"),
    Step("003.11", _DEN, le(BP, N * CP), "induction", ("B-step", "C-step", "NP<=N", "xP_sq>=0"),
         induction=Induction(P, {P: P - 1, BP: BPp, CP: CPp}, base_uses=("B-init", "C-init"),
                             step=C(T(1, "IH"), T(1, "NP<=N", "xP_sq>=0")), over="patterns P"),
         comment="each N_μ <= N: Σ_μ N_μ|x^μ|² <= N·Σ_μ |x^μ|², pattern by pattern"),
    Step("003.12", _DEN, le(sxs, N * beta), "inequality", ("003.11", "full-B", "full-C"), C(T(1, "003.11")),
         comment="003.11 after the last pattern: the β step"),
    Step("003.13", _DEN, le(w_sq, eps**2 * N * beta), "inequality", ("003.10", "003.12"),
         C(T(1, "003.10"), T(1, "003.12", square=eps)), claim="upper-bound-sum"),
    Step("003.14", _at(232, "Numerator is positive", r"> 0 because $\hat{\mathbf{w}}$ corresponds to the separating hyperplane"),
         gt(w_ws, 0), "inequality", ("003.7", "eps", "N>0", "m>0"), C(T(1, "003.7"), T(1, "eps", "N>0", "m>0")),
         comment="after an update w·ŵ >= εNm > 0, so w != 0 and cos φ is defined"),
    Step("003.15", _at(268, "cos φ <= 1", r"However, $\cos \varphi \leq 1$ and therefore:"),
         le(w_ws**2, w_sq * ws_sq), "cauchy-schwarz", vectors=(V("wn"), V("h")), claim="cauchy-schwarz",
         comment="cos φ <= 1, squared: (w·ŵ)² <= |w|²|ŵ|²"),
    Step("003.16", _at(222, "cos φ well defined",
                       r"0 \leq \frac{\mathbf{w} \cdot \hat{\mathbf{w}}}{\|\mathbf{w}\| \|\hat{\mathbf{w}}\|} \leq 1"),
         gt(w_sq, 0), "inequality", ("003.15", "003.14", "ws>0"),
         C(T(1, "003.15"), T(1, "003.14", "003.14"), divisor=("ws>0",))),
    Step("003.17", _ANGLE, ge(w_ws**2 / (w_sq * ws_sq), m**2 / ws_sq * N / beta), "inequality",
         ("003.7", "003.13", "003.16", "eps", "N-nat", "m>0", "ws>0", "beta>0"),
         C(T(1, "beta>0", "003.7", "003.7"), T(2, "eps", "N-nat", "m>0", "beta>0", "003.7"),
           T(1, "N-nat", "003.13", square=m), divisor=("003.16", "ws>0", "beta>0")),
         claim="angle", tie=("003.16", "ws>0", "beta>0"),
         comment="cos²φ >= D²·N/β: the note's cos φ >= D·sqrt(N/β), squared (both sides >= 0)"),
    Step("003.18", _at(270, "conclusion", r"D \sqrt{N / \beta} \leq 1"),
         le(m**2 / ws_sq * N / beta, 1), "inequality", ("003.17", "003.15", "003.16", "ws>0", "beta>0"),
         C(T(1, "003.15"), T(1, "003.16", "ws>0", "003.17"), divisor=("003.16", "ws>0")),
         comment="D²N/β <= cos²φ <= 1"),
    Step("003.19", _at(270, "conclusion", r"\Rightarrow N \leq \beta / D^2"),
         le(N, _BOUND_VALUE), "rearrangement", ("003.18", "N-nat", "m>0", "ws>0", "beta>0"),
         Split(N, zero=C(T(1, "beta>0", "ws>0"), divisor=("m>0", "m>0")),
               positive=C(T(1, "ws>0", "beta>0", "003.18"), divisor=("m>0", "m>0"))),
         claim="mistake-bound", corrects="003.19w", comment="β/D² = β|ŵ|²/m²; for N = 0 there is nothing to prove"),
    Step("003.19w", _at(270, "conclusion, N read as iterations", r"\Rightarrow N \leq \beta / D^2"),
         le(iters, _BOUND_VALUE), "rearrangement", ("003.18", "I>=N", "N-nat", "m>0", "ws>0", "beta>0"),
         written=True, corrected_by="003.19",
         comment="'N iterations' (line 206) are presentations, but the proof's N = Σ_μ N_μ counts updates"),
    Step("003.S1", _TOOLKIT, eq(w_ws, prev_w_ws + eps * t * x_ws), "identity", ("update",)),
    Step("003.S2", _TOOLKIT, ge(w_ws, prev_w_ws + eps * m), "inequality", ("003.S1", "min-x", "eps"),
         C(T(1, "eps", "min-x")), claim="lower-bound-step",
         comment="the numerator bound update by update, as in notes 000, 002 and 004"),
    Step("003.S3", _TOOLKIT, le(sxs, N * R_sq), "induction", ("radius", "sum-step"),
         induction=Induction(N, {N: N - 1, sxs: prev_sxs}, base_uses=("sum-init",),
                             step=C(T(1, "IH"), T(1, "radius")), over="updates N")),
    Step("003.S4", _TOOLKIT, le(w_sq, eps**2 * N * R_sq), "inequality", ("003.10", "003.S3"),
         C(T(1, "003.10"), T(1, "003.S3", square=eps)), claim="upper-bound",
         comment="the max-norm bound of notes 000, 001, 002 and 004, which β = Σ|x^μ|² relaxes"),
)

QUANTITIES = (
    ("a", eps), ("k", N), ("N", N), ("n", sp.Integer(1)), ("gamma", m), ("R_sq", R_sq), ("beta", beta),
    ("ws_sq", ws_sq), ("w_ws", w_ws), ("prev_w_ws", prev_w_ws), ("w_sq", w_sq), ("prev_w_sq", prev_w_sq),
    ("step_sq", eps**2 * t**2 * x_sq), ("sum_N_xsq", sxs), ("bound", _BOUND_VALUE),
)

PROOF = Proof(
    key="003", note=NOTE, convention="sum-norm",
    title="Note 003 (sum-norm): N <= β/D², β = Σ_μ |x^μ|²",
    summary=("Dual form w = εΣ N_μ t^μ x^μ; numerator w·ŵ >= εN|ŵ|D, denominator |w|² <= ε²Σ N_μ|x^μ|² <= ε²Nβ; "
             "cos φ >= D·sqrt(N/β) and cos φ <= 1 give N <= β/D². Sums over patterns are checked by "
             "induction on the patterns summed; the angle steps are squared and hold after the first update. "
             "Remark 3 calls the dual coefficients positive; they are only non-negative. The claim that fewer patterns "
             "than features are separable needs general position, Remark 1 needs sign(0) = 0, and the bound counts "
             "updates, not iterations."),
    symbols=SYMBOLS, vectors=VECTORS, inner=INNER, facts=FACTS, steps=STEPS, quantities=QUANTITIES,
)

_ONE = Fraction(1)
_LINE4 = tuple((Fraction(v), Fraction(0), Fraction(0), Fraction(0)) for v in (1, 2, 3))  # on a line in R^4
_TENS = tuple((Fraction(v),) for v in (10, 11, -10, -11))

ERRATA = (
    Erratum(
        "E003.1", _DUAL, r"with positive coefficients λ_{μ}",
        "The algorithm's coefficients are λ_μ = ε·N_μ, which is 0 for every pattern that never caused an update "
        "(in the note's own modified-OR run pattern 4 has N_4 = 0), and all are 0 before the first update.",
        "w = Σ_μ λ_μ t^μ x^μ with λ_μ = ε·N_μ >= 0.",
        "003.2", (Failure("003.2w", Run("modified OR (note 003), ε = 1", "sum-norm", example="modified-or")),),
        "The convergence proof uses only λ_μ >= 0 (through N_μ >= 0).",
    ),
    Erratum(
        "E003.2", _FEWER, "If the number of patterns is less than the number of features, there is always a "
        "hyperplane which separates the patterns fully.",
        "Fewer patterns than features do not make them separable: patterns on one line, with targets +1, -1, +1 "
        "along it, are separable in no dimension. By Gordan's alternative the patterns are separable iff no "
        "non-negative, non-zero combination of the t^μ x^μ vanishes; the perceptron finds one itself when its "
        "weights w = ε·Σ_μ N_μ t^μ x^μ return to 0 after N > 0 updates: λ_μ = N_μ/N is then a Gordan certificate.",
        "It holds for patterns in general position: if the augmented patterns (x^μ, -1) are linearly independent "
        "(so there are at most n + 1), no non-zero combination of them vanishes, and some hyperplane separates "
        "them whatever their targets.",
        "003.G1", (Failure("003.G1w", Run("three patterns on a line in R^4", "sum-norm", points=_LINE4,
                                          labels=(1, -1, 1), stop="cycle")),),
        "The convergence proof assumes separability and does not use this claim; the motivation needs 'in "
        "general position'.",
    ),
    Erratum(
        "E003.3", _at(206, "Convergence", "Suppose that we have already performed N iterations."),
        "Suppose that we have already performed N iterations.",
        "An iteration presents one pattern (line 204), but the proof then sets N = Σ_μ N_μ, the number of "
        "updates, and every bound it derives is about that N. Read as iterations, N <= β/D² is false: "
        "presentations without an update (a whole pass of them at the end) count too, and they can exceed "
        "β/D² even for the separator that makes it smallest, the max-margin one.",
        "N counts updates, the iterations in which a presentation triggers one: N = Σ_μ N_μ <= β/D².",
        "003.19", (Failure("003.19w", Run("x = ±10, ±11, ŵ the max-margin separator", "sum-norm", points=_TENS,
                                          labels=(1, 1, -1, -1), separator=(_ONE, Fraction(0)))),),
        "The bound stands for updates. Presentations are at most P·(N + 1), since every pass but the last makes "
        "an update, so the run still ends after finitely many iterations.",
    ),
    Erratum(
        "E003.4", _at(118, "Remark 1", "is equivalent to the following"),
        "The condition $y^\\mu \\neq t^\\mu$, under which updating of the synaptic weights takes place, is "
        "equivalent to the following:",
        "With y = sign(w·x) the equivalence with (w·x)t <= 0 needs sign(0) = 0, which the note never says; its "
        "outputs are ±1 (lines 96-98). With sign(0) = +1 or -1 a score of exactly 0 gives y = ±1, so a pattern "
        "of that class has y = t while (w·x)t = 0 <= 0 counts it as a mistake. Every run meets a score of 0: "
        "its first presentation, at w = 0.",
        "With sign(0) = 0 (y = 0 on the hyperplane, which is no target), (w·x)t <= 0 gives y·t <= 0, that is "
        "y != t. The algorithm and the proof use (w·x)t <= 0 itself as the test for a mistake.",
        "003.R1", (Failure("003.R1w", Run("modified OR (note 003), sign(0) = -1", "sum-norm", example="modified-or",
                                          constants=(("sign0", -_ONE),))),
                   Failure("003.R1w", Run("x = ±1, sign(0) = +1", "sum-norm", points=((_ONE,), (-_ONE,)),
                                          labels=(1, -1), constants=(("sign0", _ONE),)))),
        "The proof is unaffected: it uses (w·x)t <= 0 throughout (step 003.9).",
    ),
)


def _sign(score: Fraction, run: Run) -> tuple[Fraction, Fraction]:
    """(y, r): y = sign(score), with sign(0) the run's constant ``sign0`` (0 if it has none), r = 1/|score| or 0."""
    if score == 0:
        return dict(run.constants).get("sign0", Fraction(0)), Fraction(0)
    return (Fraction(1) if score > 0 else Fraction(-1)), 1 / abs(score)


def model_of(state: UpdateState, run: Run) -> CounterModel:
    """The note's symbols at one update of an exact run; N_μ is the first pattern's count that is 0, if any."""
    counts = state.mistakes
    labels = state.data.y
    zero = [i for i, c in enumerate(counts) if c == 0]
    mu = zero[0] if zero else min(range(len(counts)), key=counts.__getitem__)
    h = state.separator
    dual = tuple(sum((Fraction(c * yy) * x[j] for c, yy, x in zip(counts, labels, state.samples)), Fraction(0))
                 for j in range(len(h)))
    sq = dot(state.x, state.x)
    output, r = _sign(dot(state.w_prev, state.x), run)
    return CounterModel.of(
        {eps: state.rate, t: state.y, N: state.k, Nmu: counts[mu], m: state.margin,
         beta: sum((dot(x, x) for x in state.samples), Fraction(0)), R_sq: state.R_sq,
         sxs: state.sum_xsq, prev_sxs: state.sum_xsq - sq, Nsq: sum(c * c for c in counts),
         n_pat: len(counts), n_feat: state.data.n_features, iters: state.presentations, yo: output, rs: r},
        {"wn": state.w, "w": state.w_prev, "x": state.x, "h": h, "S": dual,
         "Sp": tuple(d - state.y * v for d, v in zip(dual, state.x))},
    )
