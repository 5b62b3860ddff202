"""Note 000 (``classic``): the proof of §"Convergence of the perceptron training algorithm", step by step.

The note bounds k, the number of mistakes, by ``k <= (R/γ)²‖w_opt‖²`` from
``w_k·w_opt >= kγ`` (eq. 2), ``‖w_k‖² <= kR²`` (eq. 3) and Cauchy-Schwarz
(eq. 4). It writes the proof for the update ``w + y·x``; Algorithm 1 adds
``η·y·x``, so the steps below carry η (it cancels in the bound). Samples and
weights are augmented with the constant first: ``x~ = (1, x)``.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from .errata import Erratum, Failure, Run, UpdateState
from .counter import CounterModel
from .language import C, Fact, Induction, Place, Proof, Split, Step, T, V, Vec, VecEq, eq, ge, gt, le

__all__ = ["PROOF", "ERRATA", "model_of"]

NOTE = "000_2170d352a53c42fd.txt"

eta, k, y, gamma, R_sq = sp.symbols("eta k y gamma R_sq")
w_ws, prev_w_ws, x_ws, w_sq, prev_w_sq, w_x, x_sq, ws_sq = sp.symbols(
    "w_ws prev_w_ws x_ws w_sq prev_w_sq w_x x_sq ws_sq")
sxs, prev_sxs = sp.symbols("sxs prev_sxs")
theta, w0, aug, raw = sp.symbols("theta w0 aug raw")


def _at(line: int, where: str, quote: str) -> Place:
    return Place("000", line, where, quote)


_TOOLKIT = Place("toolkit", None, "added so that every runtime invariant of this convention has a proof here")

SYMBOLS = (
    (eta, r"\eta", "learning rate (Algorithm 1)"),
    (k, "k", "number of mistakes (updates) so far"),
    (y, "y_j", "label of the sample of the k-th mistake"),
    (gamma, r"\gamma", "margin in eq. (1): y_i·w_opt·x_i >= γ for every i"),
    (R_sq, "R^2", "bound on the squared norms: ‖x_i‖ <= R"),
    (w_ws, r"\mathbf{w}_k^T\mathbf{w}_{opt}", "w_k·w_opt"),
    (prev_w_ws, r"\mathbf{w}_{k-1}^T\mathbf{w}_{opt}", "w_{k-1}·w_opt"),
    (x_ws, r"\mathbf{x}_j^T\mathbf{w}_{opt}", "x_j·w_opt"),
    (w_sq, r"\|\mathbf{w}_k\|^2", "‖w_k‖²"),
    (prev_w_sq, r"\|\mathbf{w}_{k-1}\|^2", "‖w_{k-1}‖²"),
    (w_x, r"\mathbf{w}_{k-1}^T\mathbf{x}_j", "w_{k-1}·x_j"),
    (x_sq, r"\|\mathbf{x}_j\|^2", "‖x_j‖²"),
    (ws_sq, r"\|\mathbf{w}_{opt}\|^2", "‖w_opt‖²"),
    (sxs, r"\Sigma_k", "sum of ‖x‖² over the mistakes so far (Σ_μ N_μ‖x_μ‖²)"),
    (prev_sxs, r"\Sigma_{k-1}", "the same sum before the k-th mistake"),
    (theta, r"\theta", "threshold of §1: w^T x > θ on the positive class"),
    (w0, "w_0", "first (constant-input) weight of the augmented vector"),
    (aug, r"\tilde{\mathbf{w}}^T\tilde{\mathbf{x}}", "augmented score"),
    (raw, r"\mathbf{w}^T\mathbf{x}", "score without the constant input"),
)

VECTORS = (
    ("wk", r"\mathbf{w}_k", "weights after the k-th mistake"),
    ("w", r"\mathbf{w}_{k-1}", "weights before it"),
    ("x", r"\mathbf{x}_j", "the misclassified (augmented) sample"),
    ("o", r"\mathbf{w}_{opt}", "the separating vector"),
    ("wr", r"\mathbf{w}", "weights without the constant input (§1)"),
    ("xr", r"\mathbf{x}", "a sample without the constant input (§1)"),
)

INNER = (
    (w_ws, V("wk"), V("o")), (prev_w_ws, V("w"), V("o")), (x_ws, V("x"), V("o")),
    (w_sq, V("wk"), V("wk")), (prev_w_sq, V("w"), V("w")), (w_x, V("w"), V("x")),
    (x_sq, V("x"), V("x")), (ws_sq, V("o"), V("o")),
    (aug, w0 * V("e0") + V("wr"), V("e0") + V("xr")), (raw, V("wr"), V("xr")),
)

FACTS = (
    Fact("eta", gt(eta, 0), "symbol", "a learning rate is positive (Algorithm 1 takes η as data)",
         _at(72, "Algorithm 1, input", r"Learning Rate: $\eta$")),
    Fact("label", eq(y**2, 1), "symbol", "labels are ±1", _at(45, "§1", r"y_{i} \in \{-1,1\}")),
    Fact("k-nat", ge(k, 0), "symbol", "k counts mistakes", integer=True),
    Fact("update", VecEq(V("wk"), V("w") + eta * y * V("x")), "algorithm", "Algorithm 1 adds η·y·x on a mistake",
         _at(78, "Algorithm 1", r"w \leftarrow w + \eta y_{i} x_{i}")),
    Fact("mistake", le(y * w_x, 0), "algorithm", "an update happens only when y·(w·x) <= 0",
         _at(78, "Algorithm 1", r"\hat{y}_{i}y_{i} \leq 0")),
    Fact("init", VecEq(V("wk"), Vec()), "initial", "w_0 = 0: at k = 0 the weights are zero",
         _at(74, "Algorithm 1", r"Initialize $\mathbf{w} \leftarrow \mathbf{0}$")),
    Fact("margin", ge(y * x_ws, gamma), "hypothesis", "eq. (1) for the sample of the k-th mistake",
         _at(145, "eq. (1)", r"y_{i}\mathbf{w}_{opt}^{T} \mathbf{x}_{i} \geq \gamma")),
    Fact("gamma>0", gt(gamma, 0), "hypothesis", "the margin is positive (the note writes γ ∈ R: erratum E000.3)",
         _at(143, "§Convergence, hypothesis", r"\exists \ \gamma \in \mathbb{R}")),
    Fact("radius", le(x_sq, R_sq), "hypothesis", "every sample has ‖x_i‖ <= R",
         _at(150, "§Convergence", r"\| \mathbf{x}_{i} \| \leq R")),
    Fact("R_sq>=0", ge(R_sq, 0), "symbol", "R² is a square"),
    Fact("ws_sq>=0", ge(ws_sq, 0), "symbol", "‖w_opt‖² is a squared norm"),
    Fact("sum-step", eq(sxs, prev_sxs + x_sq), "definition", "the k-th mistake adds ‖x_j‖² to the running sum"),
    Fact("sum-init", eq(sxs, 0), "initial", "the running sum is empty at k = 0"),
    Fact("w0=theta", eq(w0, theta), "definition", "the note's identification of the first weight with θ",
         _at(52, "§1, augmentation", r"(note that $w_{0}=\theta$)")),
    Fact("w0=-theta", eq(w0, -theta), "definition", "the first weight is -θ when the constant input is +1"),
)

_AUG = _at(52, "§1, augmentation", r"(note that $w_{0}=\theta$)")
_ALG = _at(155, "§Convergence, update of the k-th mistake", r"\mathbf{w}_{k} = \mathbf{w}_{k-1} + y_{j}\mathbf{x}_{j}")
_SQUARE = _at(187, "combining eqs. (2)-(3), first inequality", r"k^{2} \gamma^{2} \leq (\mathbf{w}_{k}^{T} \mathbf{w}_{opt})^2")
_BOUND = _at(191, "eq. (5)", r"k \leq \big(\frac{R}{\gamma}\big)^{2} \|\mathbf{w}_{opt}\|^{2}")
_BOUND_VALUE = R_sq * ws_sq / gamma**2

STEPS = (
    Step("000.1w", _AUG, eq(aug, raw - theta), "identity", ("w0=theta",), written=True, corrected_by="000.1",
         comment="with x0 = 1 first, the augmented score is w0 + w^T x, so w0 = θ gives w^T x + θ"),
    Step("000.1", _AUG, eq(aug, raw - theta), "identity", ("w0=-theta",), corrects="000.1w",
         comment="w^T x - θ > 0 is w~^T x~ > 0 with w~ = (-θ, w), x~ = (1, x)"),
    Step("000.2w", _ALG, VecEq(V("wk"), V("w") + y * V("x")), "identity", ("update",), written=True,
         corrected_by="000.2", comment="Algorithm 1 adds η·y·x; the proof's update is its case η = 1"),
    Step("000.2", _ALG, VecEq(V("wk"), V("w") + eta * y * V("x")), "identity", ("update",), corrects="000.2w",
         comment="the update of Algorithm 1, with its learning rate"),
    Step("000.3", _at(161, "lower-bound display, line 2", r"+ y_{j} \mathbf{x}_{j} ^{T} \mathbf{w}_{opt}"),
         eq(w_ws, prev_w_ws + eta * y * x_ws), "identity", ("000.2",)),
    Step("000.4", _at(162, "lower-bound display, line 3",
                      r"(\because y_{j}\mathbf{w}_{opt}^{T} \mathbf{x}_{j} \geq \gamma)"),
         ge(w_ws, prev_w_ws + eta * gamma), "inequality", ("000.3", "margin", "eta"), C(T(1, "eta", "margin")),
         claim="lower-bound-step"),
    Step("000.5", _at(166, "eq. (2), by induction from w_0 = 0", r"\mathbf{w}_{k}^{T} \mathbf{w}_{opt} \geq k \gamma"),
         ge(w_ws, k * eta * gamma), "induction", ("000.4",),
         induction=Induction(k, {k: k - 1, w_ws: prev_w_ws}, previous_vectors={"wk": V("w")}, base_uses=("init",),
                             step=C(T(1, "IH"), T(1, "000.4")), over="mistakes k"),
         claim="lower-bound"),
    Step("000.6", _at(171, "eq. (4), Cauchy-Schwarz", r"(\mathbf{a}^{T}\mathbf{b})^{2} \leq \|a\|^{2}\|b\|^{2}"),
         le(w_ws**2, w_sq * ws_sq), "cauchy-schwarz", vectors=(V("wk"), V("o")), claim="cauchy-schwarz"),
    Step("000.7", _at(177, "norm display, line 2",
                      r"\|\mathbf{w}_{k-1}\|^{2} + 2 y_{j} \mathbf{w}_{k-1}^{T}\mathbf{x}_{j} + \|\mathbf{x}_{j}\|^{2}"),
         eq(w_sq, prev_w_sq + 2 * eta * y * w_x + eta**2 * x_sq), "identity", ("000.2", "label"),
         comment="the note writes η = 1 and uses y² = 1 silently"),
    Step("000.8", _at(178, "norm display, line 3",
                      r"(\because y_{j} \mathbf{w}_{k-1}^{T}\mathbf{x}_{j} \leq 0)"),
         le(w_sq, prev_w_sq + eta**2 * x_sq), "inequality", ("000.7", "mistake", "eta"), C(T(2, "eta", "mistake")),
         claim="upper-bound-step", tie=("label",)),
    Step("000.9", _at(178, "norm display, line 3", r"\leq& \|\mathbf{w}_{k-1}\|^{2} + R^{2}"),
         le(w_sq, prev_w_sq + eta**2 * R_sq), "inequality", ("000.8", "radius"),
         C(T(1, "000.8"), T(1, "radius", square=eta))),
    Step("000.10", _at(182, "eq. (3), by induction from w_0 = 0", r"\|\mathbf{w}_{k}\|^{2} \leq kR^{2}"),
         le(w_sq, k * eta**2 * R_sq), "induction", ("000.9",),
         induction=Induction(k, {k: k - 1, w_sq: prev_w_sq}, previous_vectors={"wk": V("w")}, base_uses=("init",),
                             step=C(T(1, "IH"), T(1, "000.9")), over="mistakes k"),
         claim="upper-bound"),
    Step("000.S1", _TOOLKIT, le(w_sq, eta**2 * sxs), "induction", ("000.8", "sum-step"),
         induction=Induction(k, {k: k - 1, w_sq: prev_w_sq, sxs: prev_sxs}, previous_vectors={"wk": V("w")}, base_uses=("init", "sum-init"),
                             step=C(T(1, "IH"), T(1, "000.8")), over="mistakes k"),
         claim="upper-bound-per-sample",
         comment="the per-sample form of notes 001 and 003, from step 000.8"),
    Step("000.11w", _SQUARE, le(k**2 * eta**2 * gamma**2, w_ws**2), "inequality", ("000.5", "eta", "k-nat"),
         written=True, corrected_by="000.11",
         comment="squaring w_k·w_opt >= kηγ needs kηγ >= 0, which γ ∈ R does not give"),
    Step("000.11", _SQUARE, le(k**2 * eta**2 * gamma**2, w_ws**2), "inequality",
         ("000.5", "eta", "k-nat", "gamma>0"),
         C(T(1, "000.5", "000.5"), T(2, "k-nat", "eta", "gamma>0", "000.5")), corrects="000.11w",
         comment="(w·w_opt)² - (kηγ)² = (w·w_opt - kηγ)² + 2kηγ(w·w_opt - kηγ)"),
    Step("000.12", _at(187, "combining eqs. (2)-(4)", r"\leq kR^{2} \|\mathbf{w}_{opt}\|^{2}"),
         le(k**2 * eta**2 * gamma**2, k * eta**2 * R_sq * ws_sq), "inequality",
         ("000.11", "000.6", "000.10", "ws_sq>=0"),
         C(T(1, "000.11"), T(1, "000.6"), T(1, "ws_sq>=0", "000.10"))),
    Step("000.13w", _BOUND, le(k, _BOUND_VALUE), "rearrangement", ("000.12", "eta", "k-nat", "R_sq>=0", "ws_sq>=0"),
         written=True, corrected_by="000.13", comment="dividing by γ² needs γ != 0"),
    Step("000.13", _BOUND, le(k, _BOUND_VALUE), "rearrangement",
         ("000.12", "eta", "k-nat", "gamma>0", "R_sq>=0", "ws_sq>=0"),
         Split(k, zero=C(T(1, "R_sq>=0", "ws_sq>=0"), divisor=("gamma>0", "gamma>0")),
               positive=C(T(1, "000.12"), divisor=("k>0", "eta", "eta", "gamma>0", "gamma>0"))),
         claim="mistake-bound", corrects="000.13w",
         comment="for k >= 1 divide eq. 000.12 by kη²γ² > 0; η cancels"),
)

QUANTITIES = (
    ("a", eta), ("k", k), ("N", k), ("n", sp.Integer(1)), ("gamma", gamma), ("R_sq", R_sq), ("ws_sq", ws_sq),
    ("w_ws", w_ws), ("prev_w_ws", prev_w_ws), ("w_sq", w_sq), ("prev_w_sq", prev_w_sq),
    ("step_sq", eta**2 * y**2 * x_sq), ("sum_N_xsq", sxs), ("bound", _BOUND_VALUE),
)

PROOF = Proof(
    key="000", note=NOTE, convention="classic",
    title="Note 000 (classic): k <= (R/γ)²·‖w_opt‖²",
    summary=("Lower bound w_k·w_opt >= kηγ and upper bound ‖w_k‖² <= kη²R², each by induction from w_0 = 0, "
             "joined by Cauchy-Schwarz. The note writes the update as w + y·x (η = 1); Algorithm 1 has η, "
             "which cancels in eq. (5). The note's hypothesis '∃ γ ∈ R' must be γ > 0."),
    symbols=SYMBOLS, vectors=VECTORS, inner=INNER, facts=FACTS, steps=STEPS, quantities=QUANTITIES,
)

_AND = Run("boolean AND (note 000, Table 1)", "classic", example="and")

ERRATA = (
    Erratum(
        "E000.1", _AUG, r"(note that $w_{0}=\theta$)",
        "The constant input is x0 = +1, so the augmented score is w0 + w^T x; the condition w^T x - θ > 0 "
        "needs w0 = -θ, not w0 = θ. The example's final [-4 3 2] has threshold 4, not -4.",
        "w~ = (-θ, w1, ..., wm) with x~ = (1, x): then w~^T x~ = w^T x - θ.",
        "000.1", (Failure("000.1w", _AND),),
        "The proof never uses θ, so the bound is unaffected; only the reading of w0 as θ is wrong.",
    ),
    Erratum(
        "E000.2", _ALG, r"\mathbf{w}_{k} = \mathbf{w}_{k-1} + y_{j}\mathbf{x}_{j}",
        "Algorithm 1 updates w by η·y·x; the proof's update is the case η = 1, which it does not state.",
        "w_k = w_{k-1} + η·y_j·x_j; then (2) reads w_k·w_opt >= kηγ and (3) ‖w_k‖² <= kη²R².",
        "000.2", (Failure("000.2w", Run("boolean AND, η = 1/2", "classic", Fraction(1, 2), example="and")),),
        "η cancels in eq. (5): the bound holds for every η > 0 (steps 000.4-000.13 carry η).",
    ),
    Erratum(
        "E000.3", _at(143, "§Convergence, hypothesis", r"\exists \ \gamma \in \mathbb{R}"),
        r"\exists \ \gamma \in \mathbb{R}",
        "Eq. (1) holds for some real γ, which may be 0 or negative; squaring kγ <= w_k·w_opt needs kγ >= 0, "
        "and eq. (5) divides by γ².",
        "Assume γ > 0 (possible since w_opt separates the data strictly): γ = min_i y_i·w_opt·x_i.",
        "000.11",
        (Failure("000.11w", Run("boolean AND, w_opt = [-4 3 2], γ = -100", "classic", example="and",
                                constants=(("gamma", Fraction(-100)),))),
         Failure("000.13w", Run("boolean AND, w_opt = [-4 3 2], γ = 0", "classic", example="and",
                                constants=(("gamma", Fraction(0)),)))),
        "With γ <= 0 the chain k²γ² <= (w_k·w_opt)² can fail and (R/γ)² is undefined at γ = 0.",
    ),
)


def model_of(state: UpdateState, run: Run) -> CounterModel:
    """The note's symbols at one update of an exact run (γ the run's choice, else the margin)."""
    chosen = dict(run.constants)
    pad = (Fraction(0),)
    return CounterModel.of(
        {eta: state.rate, y: state.y, k: state.k, gamma: chosen.get("gamma", state.margin), R_sq: state.R_sq,
         sxs: state.sum_xsq, prev_sxs: state.sum_xsq - sum(v * v for v in state.x),
         w0: state.w[0], theta: state.w[0]},
        {"wk": state.w, "w": state.w_prev, "x": state.x, "o": state.separator,
         "wr": pad + state.w[1:], "xr": pad + state.x[1:]},
    )
