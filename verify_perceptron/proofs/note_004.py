"""Note 004 (``split-bias``): the Rosenblatt-Novikoff convergence theorem, step by step.

The bias α0 is kept apart: the weights are the stacked vector ``(α0, α)``,
the update adds ``λ(y_i, y_i x_i)``, and the separator satisfies
``y_i(x_i·α* + α0*) >= ρ`` with ``ρ > 0`` and ``‖α*‖ = 1``, which normalises
the non-bias part only, so ``‖(α0*, α*)‖² = α0*² + 1``. With
``M = max_i ‖x_i‖`` (not augmented) the note proves
``k <= (α0*² + 1)(1 + M²)/ρ²``. It sets λ = 1 "without loss of generality";
the steps below keep λ, which cancels. Stacked vectors use the bias axis
``e0``: ``(α0, α) = α0·e0 + α``.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from ..notes.conventions import dot
from .errata import Erratum, Failure, Run, UpdateState, exact_sqrt
from ..errors import InvalidArgument
from .counter import CounterModel
from .language import C, Fact, Induction, Place, Proof, Split, Step, T, V, Vec, VecEq, eq, ge, gt, le, lt

__all__ = ["PROOF", "ERRATA", "model_of"]

NOTE = "004_0d14cbbd3b612206.txt"

lam, k, y, rho, M_sq, a0k, a0p, a0s, nv = sp.symbols("lambda k y rho M_sq alpha0_k alpha0_p alpha0_s nu")
w_ws, prev_w_ws, w_sq, prev_w_sq, m_prev, z_ws, z_sq, x_sq, as_sq, ws_sq = sp.symbols(
    "w_ws prev_w_ws w_sq prev_w_sq m_prev z_ws z_sq x_sq as_sq ws_sq")
sxs, prev_sxs = sp.symbols("sxs prev_sxs")

_E0 = V("e0")
_AK = a0k * _E0 + V("ak")  # (α0^(k), α^(k))
_AP = a0p * _E0 + V("ap")  # (α0^(k-1), α^(k-1))
_AS = a0s * _E0 + V("as")  # (α0*, α*)
_Z = y * _E0 + y * V("x")  # (y_i, y_i·x_i)


def _at(line: int, where: str, quote: str) -> Place:
    return Place("004", line, where, quote)


_TOOLKIT = Place("toolkit", None, "added so that every runtime invariant of this convention has a proof here")

SYMBOLS = (
    (lam, r"\lambda", "learning rate"),
    (k, "k", "number of updates (iterations with a mistake) so far"),
    (y, "y_i", "label of the misclassified vector, ±1"),
    (rho, r"\rho", "margin of the separator: y_i(x_i·α* + α0*) >= ρ"),
    (M_sq, "M^2", "max_i ‖x_i‖² (not augmented)"),
    (a0k, r"\alpha_0^{(k)}", "bias after the k-th update"),
    (a0p, r"\alpha_0^{(k-1)}", "bias before it"),
    (a0s, r"\alpha_0^*", "bias of the separator (not normalised)"),
    (nv, r"\nu", "‖α*‖ before normalising: the runtime's separator is ν·(α0*, α*)"),
    (w_ws, r"(\alpha_0^{(k)},\vec\alpha^{(k)})^T(\alpha_0^*,\vec\alpha^*)", "stacked inner product after the update"),
    (prev_w_ws, r"(\alpha_0^{(k-1)},\vec\alpha^{(k-1)})^T(\alpha_0^*,\vec\alpha^*)", "the same before it"),
    (w_sq, r"\|(\alpha_0^{(k)},\vec\alpha^{(k)})\|^2", "stacked squared norm after the update"),
    (prev_w_sq, r"\|(\alpha_0^{(k-1)},\vec\alpha^{(k-1)})\|^2", "the same before it"),
    (m_prev, r"y_i(\vec x_i^T\vec\alpha^{(k-1)}+\alpha_0^{(k-1)})", "the mistake's score"),
    (z_ws, r"y_i(\vec x_i^T\vec\alpha^*+\alpha_0^*)", "the separator's score on it"),
    (z_sq, r"\|(y_i, y_i\vec x_i)\|^2", "squared norm of the update direction"),
    (x_sq, r"\|\vec x_i\|^2", "‖x_i‖²"),
    (as_sq, r"\|\vec\alpha^*\|^2", "‖α*‖²"),
    (ws_sq, r"\|(\alpha_0^*,\vec\alpha^*)\|^2", "stacked squared norm of the separator"),
    (sxs, r"\Sigma_k", "Σ over the updates so far of ‖(y_i, y_i x_i)‖²"),
    (prev_sxs, r"\Sigma_{k-1}", "the same sum before the k-th update"),
)

VECTORS = (
    ("ak", r"\vec\alpha^{(k)}", "non-bias weights after the k-th update"),
    ("ap", r"\vec\alpha^{(k-1)}", "non-bias weights before it"),
    ("x", r"\vec x_i", "the misclassified feature vector"),
    ("as", r"\vec\alpha^*", "non-bias part of the separator, ‖α*‖ = 1"),
    ("e0", r"\mathbf{e}_0", "the bias axis of the stacked vectors"),
)

INNER = (
    (w_ws, _AK, _AS), (prev_w_ws, _AP, _AS), (w_sq, _AK, _AK), (prev_w_sq, _AP, _AP),
    (m_prev, _AP, _Z), (z_ws, _Z, _AS), (z_sq, _Z, _Z), (x_sq, V("x"), V("x")), (as_sq, V("as"), V("as")),
    (ws_sq, _AS, _AS),
)

FACTS = (
    Fact("lambda", gt(lam, 0), "symbol", "a learning rate is positive",
         _at(386, "update rule", r"Here $\lambda$ is the learning rate")),
    Fact("label", eq(y**2, 1), "symbol", "labels are ±1", _at(337, "objective function", r"Class numbers are $y=\pm 1$.")),
    Fact("k-nat", ge(k, 0), "symbol", "k counts updates", integer=True),
    Fact("update", VecEq(_AK, _AP + lam * _Z), "algorithm", "(α0, α) += λ(y_i, y_i x_i)",
         _at(384, "update rule", r"+ \lambda {y_i \choose y_i\cdot \vec x_i}")),
    Fact("mistake", le(m_prev, 0), "algorithm", "an update happens when y_i(x_i·α + α0) <= 0",
         _at(395, "algorithm", r"\IF {$y_i\cdot (\vec x_i^T \vec\alpha^{(k)} + \alpha_0^{(k)})\leq 0$}")),
    Fact("init", VecEq(_AK, Vec()), "initial", "α0 = 0 and α = 0 at k = 0",
         _at(392, "algorithm", r"initialize $k=0$, $\alpha^{(0)}_0=0$ and $\vec \alpha^{(0)}= \vec 0$")),
    Fact("margin", ge(z_ws, rho), "hypothesis", "the theorem's assumption for the misclassified vector",
         _at(437, "theorem", r"y_i(\vec x_i^T\vec \alpha^* +\alpha^*_0)\geq \rho")),
    Fact("rho>0", gt(rho, 0), "hypothesis", "ρ > 0", _at(439, "theorem", r"where $\rho>0$")),
    Fact("unit", eq(as_sq, 1), "hypothesis", "‖α*‖ = 1: the non-bias part only",
         _at(439, "theorem", r"$\|\vec \alpha^*\|=1$")),
    Fact("max-norm", le(x_sq, M_sq), "definition", "M = max_i ‖x_i‖",
         _at(440, "theorem", r"Let $M= \max_i \|\vec x_i\|_2$.")),
    Fact("M_sq>=0", ge(M_sq, 0), "symbol", "M² is a square"),
    Fact("nu>0", gt(nv, 0), "symbol", "the runtime's separator has a non-zero non-bias part"),
    Fact("sum-step", eq(sxs, prev_sxs + z_sq), "definition", "the k-th update adds ‖(y_i, y_i x_i)‖²"),
    Fact("sum-init", eq(sxs, 0), "initial", "the sum is empty at k = 0"),
)

_MISTAKE = _at(487, "misclassification", r"= y_i\cdot (\vec x_i^T \vec\alpha^{(k)} + \alpha_0^{(k)})\quad < \quad 0")
_BOUND_VALUE = (a0s**2 + 1) * (1 + M_sq) / rho**2

STEPS = (
    Step("004.1", _at(454, "lower bound, distributing",
                      r"+ {y_i \choose y_i\cdot \vec x_i}^T {\alpha_0^* \choose \vec \alpha^*}"),
         eq(w_ws, prev_w_ws + lam * z_ws), "identity", ("update",)),
    Step("004.2", _at(455, "lower bound", r"\choose \vec \alpha^*} + \rho"),
         ge(w_ws, prev_w_ws + lam * rho), "inequality", ("004.1", "margin", "lambda"), C(T(1, "lambda", "margin")),
         claim="lower-bound-step", tie=("nu>0",)),
    Step("004.3", _at(456, "lower bound, by induction", r"&\geq& k\rho"),
         ge(w_ws, k * lam * rho), "induction", ("004.2",),
         induction=Induction(k, {k: k - 1, w_ws: prev_w_ws, a0k: a0p}, previous_vectors={"ak": V("ap")},
                             base_uses=("init",), step=C(T(1, "IH"), T(1, "004.2")),
                             over="updates k"),
         claim="lower-bound", tie=("nu>0",)),
    Step("004.4", _at(466, "Cauchy-Schwarz", r"\right\|_2\cdot \left\| {\alpha_0^* \choose \vec \alpha^*}\right\|_2"),
         le(w_ws**2, w_sq * ws_sq), "cauchy-schwarz", vectors=(_AK, _AS), claim="cauchy-schwarz",
         tie=("nu>0", "nu>0"), comment="on the stacked vectors, squared"),
    Step("004.5", _at(467, "norm of the separator", r"\cdot \sqrt{\alpha_0^{*2}+1}"),
         eq(ws_sq, a0s**2 + 1), "identity", ("unit",), comment="‖α*‖ = 1 normalises the non-bias part only"),
    Step("004.6", _at(467, "Cauchy-Schwarz with ‖α*‖ = 1", r"\cdot \sqrt{\alpha_0^{*2}+1}"),
         le(w_ws**2, w_sq * (a0s**2 + 1)), "inequality", ("004.4", "004.5"), C(T(1, "004.4"))),
    Step("004.7", _at(477, "norm, expanded",
                      r"+ 2 { \alpha_0^{(k-1)} \choose \vec \alpha^{(k-1)}}^T{y_i \choose y_i\cdot \vec x_i}"),
         eq(w_sq, prev_w_sq + 2 * lam * m_prev + lam**2 * z_sq), "identity", ("update",)),
    Step("004.8w", _MISTAKE, lt(m_prev, 0), "inequality", ("mistake",), written=True, corrected_by="004.8",
         comment="the algorithm updates when the score is <= 0; at k = 0 it is exactly 0"),
    Step("004.8", _MISTAKE, le(m_prev, 0), "inequality", ("mistake",), C(T(1, "mistake")), corrects="004.8w"),
    Step("004.9", _at(494, "norm, dropping the cross term",
                      r"+ {y_i \choose y_i\cdot \vec x_i}^T{y_i \choose y_i\cdot \vec x_i}"),
         le(w_sq, prev_w_sq + lam**2 * z_sq), "inequality", ("004.7", "004.8", "lambda"), C(T(2, "lambda", "004.8")),
         claim="upper-bound-step"),
    Step("004.10", _at(494, "norm of the update direction", r"{y_i \choose y_i\cdot \vec x_i}"),
         eq(z_sq, y**2 * (1 + x_sq)), "identity", (), comment="the bias coordinate contributes y_i² = 1"),
    Step("004.11", _at(495, "norm bound", r"\leq k(1+M^2)"),
         le(z_sq, 1 + M_sq), "inequality", ("004.10", "label", "max-norm"), C(T(1, "max-norm"))),
    Step("004.12", _at(495, "norm bound", r"\leq k(1+M^2)"),
         le(w_sq, prev_w_sq + lam**2 * (1 + M_sq)), "inequality", ("004.9", "004.11"),
         C(T(1, "004.9"), T(1, "004.11", square=lam))),
    Step("004.13", _at(495, "norm bound, by induction", r"\leq k(1+M^2)"),
         le(w_sq, k * lam**2 * (1 + M_sq)), "induction", ("004.12",),
         induction=Induction(k, {k: k - 1, w_sq: prev_w_sq, a0k: a0p}, previous_vectors={"ak": V("ap")},
                             base_uses=("init",), step=C(T(1, "IH"), T(1, "004.12")),
                             over="updates k"),
         claim="upper-bound"),
    Step("004.S1", _TOOLKIT, le(w_sq, lam**2 * sxs), "induction", ("004.9", "sum-step"),
         induction=Induction(k, {k: k - 1, w_sq: prev_w_sq, sxs: prev_sxs, a0k: a0p},
                             previous_vectors={"ak": V("ap")}, base_uses=("init", "sum-init"),
                             step=C(T(1, "IH"), T(1, "004.9")), over="updates k"),
         claim="upper-bound-per-sample", comment="the per-sample form of notes 001 and 003"),
    Step("004.14", _at(502, "wrap-up, squared", r"k\rho"),
         le(k**2 * lam**2 * rho**2, w_ws**2), "inequality", ("004.3", "k-nat", "lambda", "rho>0"),
         C(T(1, "004.3", "004.3"), T(2, "k-nat", "lambda", "rho>0", "004.3")),
         comment="squaring kλρ <= (α^(k))^T(α*), both sides >= 0"),
    Step("004.15", _at(510, "wrap-up", r"\leq \quad \sqrt{k(1+M^2)(\alpha_0^{*2}+1)}"),
         le(k**2 * lam**2 * rho**2, k * lam**2 * (1 + M_sq) * (a0s**2 + 1)), "inequality",
         ("004.14", "004.6", "004.13"),
         C(T(1, "004.14"), T(1, "004.6"), T(1, "004.13"), T(1, "004.13", square=a0s)),
         comment="kρ <= ‖α^(k)‖·sqrt(α0*² + 1) <= sqrt(k(1 + M²)(α0*² + 1)), squared, with λ"),
    Step("004.16", _at(515, "conclusion", r"k \quad \leq\quad \frac{(\alpha_0^{*2}+1)(1+M^2)}{\rho^2}"),
         le(k, _BOUND_VALUE), "rearrangement", ("004.15", "k-nat", "lambda", "rho>0", "M_sq>=0"),
         Split(k, zero=C(T(1), T(1, "M_sq>=0"), T(1, square=a0s), T(1, "M_sq>=0", square=a0s),
                         divisor=("rho>0", "rho>0")),
               positive=C(T(1, "004.15"), divisor=("k>0", "lambda", "lambda", "rho>0", "rho>0"))),
         claim="mistake-bound", comment="λ cancels: the bound holds for every λ > 0, as 'without loss of generality' says"),
)

QUANTITIES = (
    ("a", lam), ("k", k), ("N", k), ("n", sp.Integer(1)), ("gamma", nv * rho), ("R_sq", 1 + M_sq),
    ("ws_sq", nv**2 * ws_sq), ("w_ws", nv * w_ws), ("prev_w_ws", nv * prev_w_ws), ("w_sq", w_sq),
    ("prev_w_sq", prev_w_sq), ("step_sq", lam**2 * z_sq), ("sum_N_xsq", sxs), ("bound", _BOUND_VALUE),
)

PROOF = Proof(
    key="004", note=NOTE, convention="split-bias",
    title="Note 004 (split-bias): k <= (α0*² + 1)(1 + M²)/ρ²",
    summary=("Lower bound kλρ <= (α^(k))^T(α*) and upper bound ‖(α0, α)^(k)‖² <= kλ²(1 + M²) on the stacked "
             "vectors, joined by Cauchy-Schwarz with ‖(α0*, α*)‖² = α0*² + 1 (‖α*‖ = 1, the bias free). "
             "λ is kept and cancels. The note writes the misclassification as < 0; the algorithm's is <= 0."),
    symbols=SYMBOLS, vectors=VECTORS, inner=INNER, facts=FACTS, steps=STEPS, quantities=QUANTITIES,
)

ERRATA = (
    Erratum(
        "E004.1", _MISTAKE, r"\quad < \quad 0",
        "The algorithm updates when y_i(x_i·α^(k) + α0^(k)) <= 0, so a misclassification implies only <= 0: "
        "at k = 0 every score is exactly 0. The display also names the weights α^(k); in the norm expansion "
        "above it (line 477) the cross term is the score of α^(k-1), the weights the k-th update starts from.",
        "(α0^(k-1), α^(k-1))^T(y_i, y_i x_i) <= 0: the score of the weights before the k-th update, the cross "
        "term of the norm expansion, is <= 0, which is all the norm bound needs.",
        "004.8", (Failure("004.8w", Run("boolean AND", "split-bias", example="and")),),
        "The bound stands: the cross term is dropped with <= 0.",
    ),
)


def model_of(state: UpdateState, run: Run) -> CounterModel:
    """The note's symbols at one update; the separator's values only when ‖α*‖ is rational."""
    x = state.x[1:]
    scalars: dict[sp.Symbol, object] = {
        lam: state.rate, k: state.k, y: state.y, M_sq: state.R_sq - 1,
        a0k: state.w[0], a0p: state.w_prev[0], sxs: state.sum_xsq, prev_sxs: state.sum_xsq - dot(state.x, state.x)}
    vectors: dict[str, tuple[Fraction, ...]] = {"ak": state.w[1:], "ap": state.w_prev[1:], "x": x}
    try:
        norm = exact_sqrt(dot(state.separator[1:], state.separator[1:]), "‖α*‖²")
    except InvalidArgument:
        return CounterModel.of(scalars, vectors)
    scalars.update({nv: norm, a0s: state.separator[0] / norm, rho: state.margin / norm})
    vectors["as"] = tuple(v / norm for v in state.separator[1:])
    return CounterModel.of(scalars, vectors)
