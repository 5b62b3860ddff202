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
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from ..notes.conventions import dot
from .errata import Erratum, Failure, Run, UpdateState
from .counter import CounterModel
from .language import C, Fact, Induction, Place, Proof, Split, Step, T, V, Vec, VecEq, eq, ge, gt, le

__all__ = ["PROOF", "ERRATA", "model_of"]

NOTE = "003_a6cf23fd4ca930da.txt"

eps, t, N, Nmu, m, beta, R_sq = sp.symbols("epsilon t N N_mu m beta R_sq")
w_ws, prev_w_ws, x_ws, w_sq, prev_w_sq, w_x, x_sq, ws_sq, S_ws = sp.symbols(
    "w_ws prev_w_ws x_ws w_sq prev_w_sq w_x x_sq ws_sq S_ws")
P, tP, NP, TP, TPp, BP, BPp, CP, CPp = sp.symbols("P t_P N_P T_P T_Pp B_P B_Pp C_P C_Pp")
sp_ws, spp_ws, xP_ws, xP_sq = sp.symbols("sp_ws spp_ws xP_ws xP_sq")
sxs, prev_sxs = sp.symbols("sxs prev_sxs")


def _at(line: int, where: str, quote: str) -> Place:
    return Place("003", line, where, quote)


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
)

_DUAL = _at(140, "Remark 3", r"with positive coefficients λ_{μ}")
_DEN = _at(258, "Denominator", r"\leq \varepsilon^2 N \sum_{\mu} |\mathbf{x}^{\mu}|^2 = \varepsilon^2 N \beta")
_ANGLE = _at(266, "the angle φ", r"= D \sqrt{\frac{N}{\beta}}")
_BOUND_VALUE = beta * ws_sq / m**2

STEPS = (
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
         claim="mistake-bound", comment="β/D² = β|ŵ|²/m²; for N = 0 there is nothing to prove"),
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
             "Remark 3 calls the dual coefficients positive; they are only non-negative."),
    symbols=SYMBOLS, vectors=VECTORS, inner=INNER, facts=FACTS, steps=STEPS, quantities=QUANTITIES,
)

ERRATA = (
    Erratum(
        "E003.1", _DUAL, r"with positive coefficients λ_{μ}",
        "The algorithm's coefficients are λ_μ = ε·N_μ, which is 0 for every pattern that never caused an update "
        "(in the note's own modified-OR run pattern 4 has N_4 = 0), and all are 0 before the first update.",
        "w = Σ_μ λ_μ t^μ x^μ with λ_μ = ε·N_μ >= 0.",
        "003.2", (Failure("003.2w", Run("modified OR (note 003), ε = 1", "sum-norm", example="modified-or")),),
        "The convergence proof uses only λ_μ >= 0 (through N_μ >= 0).",
    ),
)


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
    return CounterModel.of(
        {eps: state.rate, t: state.y, N: state.k, Nmu: counts[mu], m: state.margin,
         beta: sum((dot(x, x) for x in state.samples), Fraction(0)), R_sq: state.R_sq,
         sxs: state.sum_xsq, prev_sxs: state.sum_xsq - sq},
        {"wn": state.w, "w": state.w_prev, "x": state.x, "h": h, "S": dual,
         "Sp": tuple(d - state.y * v for d, v in zip(dual, state.x))},
    )
