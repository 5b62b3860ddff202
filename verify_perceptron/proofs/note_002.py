"""Note 002 (``unit-ball``): the proof that the perceptron makes at most 1/γ² mistakes, step by step.

The note rescales the data and w* so that ``‖w*‖ = 1`` and ``‖x_i‖ <= 1``
(samples augmented with the constant last, ``[x; 1]``), takes
``γ = min_i |x_i·w*|`` and shows, after M updates, ``w·w* >= Mγ`` and
``w·w <= M``, hence ``M <= 1/γ²``. The steps below work in those rescaled
units; step 002.1 checks that rescaling by R > 0 changes neither the
mistakes nor M, and the runtime claims (in the original units) follow from
each step times a positive factor R·S (R the data scale, S = ‖w*‖).
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from ..notes.conventions import dot
from .errata import Erratum, Failure, Run, UpdateState, exact_sqrt
from .counter import CounterModel
from .language import C, Fact, Induction, Place, Proof, Split, Step, T, V, Vec, VecEq, eq, ge, gt, le, lt

__all__ = ["PROOF", "ERRATA", "model_of"]

NOTE = "002_a1550050d12f1cd2.txt"

M, y, gamma, R, S, abs_s = sp.symbols("M y gamma R S abs_s")
w_ws, prev_w_ws, x_ws, w_sq, prev_w_sq, w_x, x_sq, ws_sq = sp.symbols(
    "w_ws prev_w_ws x_ws w_sq prev_w_sq w_x x_sq ws_sq")
sxs, prev_sxs, score_n, score_o = sp.symbols("sxs prev_sxs score_n score_o")


def _at(line: int, where: str, quote: str) -> Place:
    return Place("002", line, where, quote)


_TOOLKIT = Place("toolkit", None, "added so that every runtime invariant of this convention has a proof here")

SYMBOLS = (
    (M, "M", "number of updates so far"),
    (y, "y", "label of the misclassified point, ±1"),
    (gamma, r"\gamma", "margin after rescaling: min_i |x_i·w*|"),
    (R, "R", "the rescaling of the data: x = x_original / R, R = max_i ‖x_i‖ (original units)"),
    (S, "S", "the rescaling of w*: ‖w*‖ before normalising"),
    (abs_s, r"|\mathbf{x}^T\mathbf{w}^*|", "|x·w*|"),
    (w_ws, r"\mathbf{w}_M^T\mathbf{w}^*", "w·w* after the update"),
    (prev_w_ws, r"\mathbf{w}^T\mathbf{w}^*", "w·w* before it"),
    (x_ws, r"\mathbf{x}^T\mathbf{w}^*", "x·w*"),
    (w_sq, r"\mathbf{w}_M^T\mathbf{w}_M", "w·w after the update"),
    (prev_w_sq, r"\mathbf{w}^T\mathbf{w}", "w·w before it"),
    (w_x, r"\mathbf{w}^T\mathbf{x}", "w·x before the update"),
    (x_sq, r"\mathbf{x}^T\mathbf{x}", "x·x"),
    (ws_sq, r"\|\mathbf{w}^*\|^2", "‖w*‖²"),
    (sxs, r"\Sigma_M", "Σ over the updates so far of x·x (rescaled)"),
    (prev_sxs, r"\Sigma_{M-1}", "the same sum before the M-th update"),
    (score_n, r"\mathbf{w}_M^T\mathbf{x}", "a score in rescaled units"),
    (score_o, r"\mathbf{W}_M^T\mathbf{X}", "the same score in the original units"),
)

VECTORS = (
    ("wM", r"\mathbf{w}_M", "weights after the M-th update (rescaled run)"),
    ("w", r"\mathbf{w}", "weights before it"),
    ("x", r"\mathbf{x}", "the misclassified point, rescaled"),
    ("o", r"\mathbf{w}^*", "the separating vector, rescaled to ‖w*‖ = 1"),
    ("W", r"\mathbf{W}_M", "weights after the M-th update, original data"),
    ("Wp", r"\mathbf{W}", "weights before it, original data"),
    ("X", r"\mathbf{X}", "the misclassified point, original units"),
)

INNER = (
    (w_ws, V("wM"), V("o")), (prev_w_ws, V("w"), V("o")), (x_ws, V("x"), V("o")),
    (w_sq, V("wM"), V("wM")), (prev_w_sq, V("w"), V("w")), (w_x, V("w"), V("x")),
    (x_sq, V("x"), V("x")), (ws_sq, V("o"), V("o")),
    (score_n, V("wM"), V("x")), (score_o, V("W"), V("X")),
)

FACTS = (
    Fact("label", eq(y**2, 1), "symbol", "labels are ±1", _at(9, "Assumptions", r"y_i \in \{-1, +1\}")),
    Fact("M-nat", ge(M, 0), "symbol", "M counts updates", integer=True),
    Fact("update", VecEq(V("wM"), V("w") + y * V("x")), "algorithm", "the update w <- w + y·x",
         _at(64, "Perceptron Algorithm", r"\vec{w} \leftarrow \vec{w} + y\vec{x}")),
    Fact("mistake", le(y * w_x, 0), "algorithm", "an update happens only when y·(w·x) <= 0",
         _at(62, "Perceptron Algorithm", r"if y_i(\vec{w}^T \cdot \vec{x_i}) \leq 0 then")),
    Fact("init", VecEq(V("wM"), Vec()), "initial", "w = 0 before the first update",
         _at(55, "Perceptron Algorithm", r"Initialize \vec{w} = \vec{0}")),
    Fact("update-orig", VecEq(V("W"), V("Wp") + y * V("X")), "algorithm", "the same update on the original data"),
    Fact("init-orig", VecEq(V("W"), Vec()), "initial", "W = 0 before the first update"),
    Fact("scale-x", VecEq(R * V("x"), V("X")), "definition", "the rescaled point is X/R",
         _at(92, "Perceptron Convergence", r"we rescale each data point and the")),
    Fact("R>0", gt(R, 0), "symbol", "a rescaling factor is positive"),
    Fact("S>0", gt(S, 0), "symbol", "‖w*‖ > 0 before normalising (w* separates)"),
    Fact("separates", gt(y * x_ws, 0), "hypothesis", "w* classifies every point correctly",
         _at(90, "Perceptron Convergence", r"y_i(\mathbf{x}^\top \mathbf{w}^*) > 0")),
    Fact("unit-w*", eq(ws_sq, 1), "hypothesis", "after rescaling ‖w*‖ = 1", _at(94, "rescaling", r"||\mathbf{w}^*|| = 1")),
    Fact("unit-x", le(x_sq, 1), "hypothesis", "after rescaling ‖x_i‖ <= 1", _at(95, "rescaling", r"||\mathbf{x}_i|| \le 1")),
    Fact("abs", eq(abs_s**2, x_ws**2), "definition", "|t|² = t²"),
    Fact("abs>=0", ge(abs_s, 0), "definition", "|t| >= 0"),
    Fact("gamma-min", ge(abs_s, gamma), "definition", "γ = min_i |x_i·w*|",
         _at(97, "Margin", r"\gamma = \min_{(\mathbf{x}_i, y_i) \in D} |\mathbf{x}_i^\top \mathbf{w}^*|")),
    Fact("gamma>0", gt(gamma, 0), "definition", "a minimum of finitely many |x_i·w*| > 0"),
    Fact("sum-step", eq(sxs, prev_sxs + x_sq), "definition", "the M-th update adds x·x to the sum"),
    Fact("sum-init", eq(sxs, 0), "initial", "the sum is empty before the first update"),
    Fact("M>=1", ge(M, 1), "case", "at least one update has been made"),
)

_CROSS = _at(129, "step 2, first bullet", r"< 0$  as we had to make an update")
_TWO = _at(136, "step 3, inequality (2)", r"{\bf w}^{\top} {\bf w} < M")
_FINAL = _at(140, "end of the proof", r"\Rightarrow M \leq \frac{1}{\gamma^{2}}")

STEPS = (
    Step("002.1", _at(92, "rescaling", r"we rescale each data point and the"),
         VecEq(R * V("wM"), V("W")), "induction", ("update", "update-orig", "scale-x"),
         induction=Induction(M, {M: M - 1}, base_uses=("init", "init-orig"), previous_vectors={"wM": V("w"), "W": V("Wp")},
                             over="updates M"),
         comment="run on the rescaled points, the perceptron's weights are the original ones divided by R"),
    Step("002.2", _at(92, "rescaling", r"we rescale each data point and the"),
         eq(R**2 * score_n, score_o), "identity", ("002.1", "scale-x"),
         comment="scores are divided by R² > 0: the rescaled run makes the same mistakes, so M is unchanged"),
    Step("002.3a", _at(119, "step 1", r"y(\mathbf{x}^\top \mathbf{w}^*) = |\mathbf{x}^\top \mathbf{w}^*| \ge \gamma"),
         gt(y * x_ws + abs_s, 0), "inequality", ("separates", "abs>=0"), C(T(1, "separates"), T(1, "abs>=0"))),
    Step("002.3", _at(119, "step 1", r"y(\mathbf{x}^\top \mathbf{w}^*) = |\mathbf{x}^\top \mathbf{w}^*| \ge \gamma"),
         eq(y * x_ws, abs_s), "identity", ("label", "abs", "002.3a"), C(divisor=("002.3a",)),
         comment="(y·x·w* - |x·w*|)(y·x·w* + |x·w*|) = y²(x·w*)² - |x·w*|² = 0, and the second factor is > 0"),
    Step("002.4", _at(119, "step 1", r"y(\mathbf{x}^\top \mathbf{w}^*) = |\mathbf{x}^\top \mathbf{w}^*| \ge \gamma"),
         ge(y * x_ws, gamma), "inequality", ("002.3", "gamma-min"), C(T(1, "gamma-min"))),
    Step("002.5", _at(117, "step 1", r"= \mathbf{w}^{\top}\mathbf{w}^* + y(\mathbf{x}^{\top}\mathbf{w}^*)"),
         eq(w_ws, prev_w_ws + y * x_ws), "identity", ("update",)),
    Step("002.6", _at(117, "step 1", r"\ge \mathbf{w}^{\top}\mathbf{w}^* + \gamma"),
         ge(w_ws, prev_w_ws + gamma), "inequality", ("002.5", "002.4"), C(T(1, "002.4")),
         claim="lower-bound-step", tie=("R>0", "S>0")),
    Step("002.7", _at(125, "step 2", r"\mathbf{w}^{\top}\mathbf{w} + \underbrace{2y(\mathbf{w}^{\top}\mathbf{x})}_{<0}"),
         eq(w_sq, prev_w_sq + 2 * y * w_x + y**2 * x_sq), "identity", ("update",)),
    Step("002.8w", _CROSS, lt(2 * y * w_x, 0), "inequality", ("mistake",), written=True, corrected_by="002.8",
         comment="the update condition is y·(w·x) <= 0, so the cross term can be 0 (at w = 0 it is)"),
    Step("002.8", _CROSS, le(2 * y * w_x, 0), "inequality", ("mistake",), C(T(2, "mistake")), corrects="002.8w"),
    Step("002.9", _at(130, "step 2, second bullet", r"0 \le y^2(\mathbf{x}^\top \mathbf{x}) \le 1"),
         le(y**2 * x_sq, 1), "inequality", ("label", "unit-x"), C(T(1, "unit-x"))),
    Step("002.10", _at(125, "step 2, dropping the cross term", r"\underbrace{2y(\mathbf{w}^{\top}\mathbf{x})}_{<0}"),
         le(w_sq, prev_w_sq + y**2 * x_sq), "inequality", ("002.7", "002.8"), C(T(1, "002.8")),
         claim="upper-bound-step", tie=("R>0", "R>0")),
    Step("002.11", _at(125, "step 2", r"\leq \mathbf{w}^{\top}\mathbf{w} + 1"),
         le(w_sq, prev_w_sq + 1), "inequality", ("002.10", "002.9"), C(T(1, "002.10"), T(1, "002.9"))),
    Step("002.12", _at(135, "step 3, inequality (1)", r"(1)  $\mathbf{w}^{\top}\mathbf{w}^* \geq M\gamma$"),
         ge(w_ws, M * gamma), "induction", ("002.6",),
         induction=Induction(M, {M: M - 1, w_ws: prev_w_ws}, previous_vectors={"wM": V("w")}, base_uses=("init",), step=C(T(1, "IH"), T(1, "002.6")),
                             over="updates M"),
         claim="lower-bound", tie=("R>0", "S>0")),
    Step("002.13", _TWO, le(w_sq, M), "induction", ("002.11",),
         induction=Induction(M, {M: M - 1, w_sq: prev_w_sq}, previous_vectors={"wM": V("w")}, base_uses=("init",), step=C(T(1, "IH"), T(1, "002.11")),
                             over="updates M"),
         claim="upper-bound", tie=("R>0", "R>0"), corrects="002.13w"),
    Step("002.13w", _TWO, lt(w_sq, M), "inequality", ("002.13", "M>=1"), written=True, corrected_by="002.13",
         comment="each update adds at most 1, so w·w <= M; equality happens when the first update is a point with ‖x‖ = 1"),
    Step("002.S1", _TOOLKIT, le(w_sq, sxs), "induction", ("002.10", "sum-step", "label"),
         induction=Induction(M, {M: M - 1, w_sq: prev_w_sq, sxs: prev_sxs}, previous_vectors={"wM": V("w")},
                             base_uses=("init", "sum-init"),
                             step=C(T(1, "IH"), T(1, "002.10")), over="updates M"),
         claim="upper-bound-per-sample", tie=("R>0", "R>0"), comment="the per-sample form of notes 001 and 003"),
    Step("002.14", _at(140, "cos θ <= 1", r"we must have } \cos(\theta) \leq 1"),
         le(w_ws**2, w_sq * ws_sq), "cauchy-schwarz", vectors=(V("wM"), V("o")),
         claim="cauchy-schwarz", tie=("R>0", "R>0", "S>0", "S>0"),
         comment="cos θ <= 1 for w·w* = ‖w‖‖w*‖cos θ, squared"),
    Step("002.15", _at(140, "with ‖w*‖ = 1", r"= \|\mathbf{w}\| \cos(\theta)"),
         le(w_ws**2, w_sq), "inequality", ("002.14", "unit-w*"), C(T(1, "002.14")),
         comment="w·w* <= ‖w‖ = sqrt(w·w), squared"),
    Step("002.16", _at(140, "By (1)", r"M\gamma &\leq \mathbf{w}^{\top}\mathbf{w}^{*}"),
         le(M**2 * gamma**2, w_ws**2), "inequality", ("002.12", "M-nat", "gamma>0"),
         C(T(1, "002.12", "002.12"), T(2, "M-nat", "gamma>0", "002.12")),
         comment="squaring Mγ <= w·w*, both sides >= 0"),
    Step("002.17", _at(140, "chain", r"\Rightarrow M^{2}\gamma^{2} \leq M"),
         le(M**2 * gamma**2, M), "inequality", ("002.16", "002.15", "002.13"),
         C(T(1, "002.16"), T(1, "002.15"), T(1, "002.13")),
         comment="Mγ <= w·w* <= sqrt(w·w) <= sqrt(M), squared"),
    Step("002.18", _FINAL, le(M, 1 / gamma**2), "rearrangement", ("002.17", "M-nat", "gamma>0"),
         Split(M, zero=C(T(1), divisor=("gamma>0", "gamma>0")),
               positive=C(T(1, "002.17"), divisor=("M>0", "gamma>0", "gamma>0"))),
         claim="mistake-bound"),
)

QUANTITIES = (
    ("a", sp.Integer(1)), ("k", M), ("N", M), ("n", sp.Integer(1)), ("gamma", R * S * gamma), ("R_sq", R**2),
    ("ws_sq", S**2 * ws_sq), ("w_ws", R * S * w_ws), ("prev_w_ws", R * S * prev_w_ws), ("w_sq", R**2 * w_sq),
    ("prev_w_sq", R**2 * prev_w_sq), ("step_sq", R**2 * y**2 * x_sq), ("sum_N_xsq", R**2 * sxs),
    ("bound", 1 / gamma**2),
)

PROOF = Proof(
    key="002", note=NOTE, convention="unit-ball",
    title="Note 002 (unit-ball): M <= 1/γ²",
    summary=("After rescaling to ‖w*‖ = 1 and ‖x_i‖ <= 1: each update adds at least γ to w·w* and at most 1 to "
             "w·w, so Mγ <= w·w* <= sqrt(w·w) <= sqrt(M). The note writes two of its inequalities strictly "
             "(the cross term < 0, and w·w < M); only <= follows. The squares of the note's square-root chain "
             "are checked, which keeps every quantity rational."),
    symbols=SYMBOLS, vectors=VECTORS, inner=INNER, facts=FACTS, steps=STEPS, quantities=QUANTITIES,
)

# 1-D data whose augmented points [x; 1] have the rational norm 5/4, so the rescaled values stay rational.
_RUN = Run("x = 3/4 labelled +1, x = -3/4 labelled -1", "unit-ball",
           points=((Fraction(3, 4),), (Fraction(-3, 4),)), labels=(1, -1))

ERRATA = (
    Erratum(
        "E002.1", _CROSS, r"< 0$  as we had to make an update",
        "The update is made when y·(w·x) <= 0, so 2y(w·x) can be 0 (at w = 0 it always is); the display's "
        "underbrace '<0' (line 125) says the same. Only 2y(w·x) <= 0 follows.",
        "2y(w·x) <= 0; the conclusion w·w grows by at most 1 is unchanged.",
        "002.8", (Failure("002.8w", _RUN),),
        "Harmless for the bound, which needs only <= 0.",
    ),
    Erratum(
        "E002.2", _TWO, r"{\bf w}^{\top} {\bf w} < M",
        "Each update adds at most 1 to w·w, so after M updates w·w <= M; equality is reached when the first "
        "update is made on a point with ‖x‖ = 1 (the largest point after rescaling).",
        "(2) w·w <= M.",
        "002.13", (Failure("002.13w", _RUN),),
        "The proof uses only w·w <= M, so M <= 1/γ² stands.",
    ),
)


def model_of(state: UpdateState, run: Run) -> CounterModel:
    """The note's rescaled symbols at one update (data and w* must have rational norms)."""
    r = exact_sqrt(state.R_sq, "R_sq")
    s = exact_sqrt(dot(state.separator, state.separator), "ws_sq")
    x = tuple(v / r for v in state.x)
    o = tuple(v / s for v in state.separator)
    scores = [abs(dot(tuple(v / r for v in p), o)) for p in state.samples]
    sq = dot(state.x, state.x) / (r * r)
    return CounterModel.of(
        {y: state.y, M: state.k, gamma: min(scores), R: r, S: s, abs_s: abs(dot(x, o)),
         sxs: state.sum_xsq / (r * r), prev_sxs: state.sum_xsq / (r * r) - sq},
        {"wM": tuple(v / r for v in state.w), "w": tuple(v / r for v in state.w_prev), "x": x, "o": o,
         "W": state.w, "Wp": state.w_prev, "X": state.x},
    )
