"""What the convergence proof gives the averaged perceptron: derived here, no note states it.

The averaged perceptron returns w̄ = S_p/p, S_p = Σ_{q<=p} w_q the sum of the weights after each of p
presentations, k_q the updates made by presentation q and K_p = Σ k_q. Each note proves, at every
update, the lower bound w·w* >= k·a·γ and the upper bound ‖w‖² <= k·a²·R² (taken here as facts).
Summing the first over the presentations gives S_p·w* >= a·γ·K_p (A.1); Jensen's inequality for the
squared norm, ‖S_p‖² <= p·Σ ‖w_q‖², follows by induction from the identity
(p-1)(p·Q_p - ‖S_p‖²) = p·((p-1)·Q_{p-1} - ‖S_{p-1}‖²) + ‖(p-1)·w_p - S_{p-1}‖² (A.2); summing the
upper bound (A.3) and joining gives ‖S_p‖² <= p·a²·R²·K_p (A.4). These are the three claims
`verify_perceptron.check.averaged` checks after every presentation. No mistake bound for w̄ follows,
and w̄ need not separate the data.

Examples
--------
>>> from verify_perceptron.proofs.checking import check_proof
>>> check_proof(PROOF).complete
True
"""

from __future__ import annotations

import sympy as sp

from .language import C, Fact, Induction, Place, Proof, Step, T, V, Vec, VecEq, eq, ge, gt, le

__all__ = ["PROOF"]

NOTE = "000_2170d352a53c42fd.txt"

a, gamma, R_sq, p, k = sp.symbols("a gamma R_sq p k")
K, Kp, Q, Qp = sp.symbols("K K_p Q Q_p")
S_u, Sp_u, S_sq, Sp_sq, Sp_w = sp.symbols("S_u Sp_u S_sq Sp_sq Sp_w")
w_u, w_sq = sp.symbols("w_u w_sq")


def _here(where: str) -> Place:
    return Place("toolkit", None, where)


SYMBOLS = (
    (a, "a", "step size of the note's rule"), (gamma, r"\gamma", "the separator's margin min y·w*·x~"),
    (R_sq, "R^2", "max ‖x~‖²"), (p, "p", "presentations so far"), (k, "k", "updates made by presentation p"),
    (K, "K", "Σ_q k_q over the p presentations"), (Kp, "K_{-}", "the same over the first p - 1"),
    (Q, "Q", "Σ_q ‖w_q‖² over the p presentations"), (Qp, "Q_{-}", "the same over the first p - 1"),
    (S_u, r"\mathbf{S}\cdot\mathbf{w}^*", "S_p·w*"), (Sp_u, r"\mathbf{S}_{-}\cdot\mathbf{w}^*", "S_{p-1}·w*"),
    (S_sq, r"\|\mathbf{S}\|^2", "‖S_p‖²"), (Sp_sq, r"\|\mathbf{S}_{-}\|^2", "‖S_{p-1}‖²"),
    (Sp_w, r"\mathbf{S}_{-}\cdot\mathbf{w}", "S_{p-1}·w_p"),
    (w_u, r"\mathbf{w}\cdot\mathbf{w}^*", "w_p·w*"), (w_sq, r"\|\mathbf{w}\|^2", "‖w_p‖²"),
)

VECTORS = (
    ("S", r"\mathbf{S}_p", "the sum of the weights after each of the p presentations"),
    ("Sm", r"\mathbf{S}_{p-1}", "the same sum before presentation p"),
    ("w", r"\mathbf{w}_p", "the weights after presentation p"), ("o", r"\mathbf{w}^*", "a separator"),
)

INNER = (
    (S_u, V("S"), V("o")), (Sp_u, V("Sm"), V("o")), (S_sq, V("S"), V("S")), (Sp_sq, V("Sm"), V("Sm")),
    (Sp_w, V("Sm"), V("w")), (w_u, V("w"), V("o")), (w_sq, V("w"), V("w")),
)

FACTS = (
    Fact("a>0", gt(a, 0), "symbol", "a step size is positive"),
    Fact("p-nat", ge(p, 0), "symbol", "p counts presentations", integer=True),
    Fact("sum", VecEq(V("S"), V("Sm") + V("w")), "definition", "presentation p adds w_p to the sum"),
    Fact("sum-init", VecEq(V("S"), Vec()), "initial", "the sum is empty before the first presentation"),
    Fact("K-step", eq(K, Kp + k), "definition", "presentation p adds k_p to K"),
    Fact("K-init", eq(K, 0), "initial", "K = 0 before the first presentation"),
    Fact("Q-step", eq(Q, Qp + w_sq), "definition", "presentation p adds ‖w_p‖² to Q"),
    Fact("Q-init", eq(Q, 0), "initial", "Q = 0 before the first presentation"),
    Fact("Q-first", eq(Q, w_sq), "initial", "after the first presentation Q = ‖w_1‖²"),
    Fact("S-first", VecEq(V("S"), V("w")), "initial", "after the first presentation S_1 = w_1"),
    Fact("lower", ge(w_u, a * gamma * k), "hypothesis",
         "every note's lower bound after k updates: w_k·w* >= k·a·γ (000.8, 001.5, ...)"),
    Fact("upper", le(w_sq, a**2 * R_sq * k), "hypothesis",
         "every note's upper bound after k updates: ‖w_k‖² <= k·a²·R² (000.12, 001.13, ...)"),
)

STEPS = (
    Step("A.1", _here("the lower bound, summed over the presentations"), ge(S_u, a * gamma * K), "induction",
         ("sum", "K-step", "lower"),
         induction=Induction(p, {p: p - 1, S_u: Sp_u, K: Kp}, previous_vectors={"S": V("Sm")},
                             base_uses=("sum-init", "K-init"), step=C(T(1, "IH"), T(1, "lower")),
                             over="presentations p"),
         comment="w̄·w* >= a·γ·K_p/p: the average keeps the lower bound's average"),
    Step("A.2", _here("Jensen's inequality for ‖·‖², by induction"), le(S_sq, p * Q), "induction",
         ("sum", "Q-step"),
         induction=Induction(p, {p: p - 1, S_sq: Sp_sq, Q: Qp}, previous_vectors={"S": V("Sm")}, start=1,
                             base_uses=("S-first", "Q-first"),
                             step=C(T(1, "p>1", "IH"), T(1, "IH"), T(1, square=(p - 1) * V("w") - V("Sm")),
                                    divisor=("p>1",)),
                             over="presentations p"),
         comment="(p-1)(p·Q - ‖S‖²) = p·(IH) + ‖(p-1)·w_p - S_{p-1}‖²"),
    Step("A.3", _here("the upper bound, summed over the presentations"), le(Q, a**2 * R_sq * K), "induction",
         ("Q-step", "K-step", "upper"),
         induction=Induction(p, {p: p - 1, Q: Qp, K: Kp}, base_uses=("Q-init", "K-init"),
                             step=C(T(1, "IH"), T(1, "upper")), over="presentations p")),
    Step("A.4", _here("joined: the average's norm"), le(S_sq, p * a**2 * R_sq * K), "inequality",
         ("A.2", "A.3", "p-nat"), C(T(1, "A.2"), T(1, "p-nat", "A.3")),
         comment="‖w̄‖² <= a²·R²·K_p/p"),
)

PROOF = Proof(
    key="averaged", note=NOTE, convention="*", mode="online",
    title="The averaged perceptron: what the per-update bounds give the average, derived here",
    summary=("No note treats the averaged perceptron, which returns the average of the weights over every "
             "presentation. From each note's per-update bounds (w_k·w* >= k·a·γ, ‖w_k‖² <= k·a²·R²): the sum "
             "of the weights keeps the summed lower bound, S_p·w* >= a·γ·K_p; Jensen's inequality "
             "‖S_p‖² <= p·Σ‖w_q‖²; and so ‖S_p‖² <= p·a²·R²·K_p. `verify --averaged` checks the three after "
             "every presentation. No mistake bound for the average follows, and it need not separate the data."),
    symbols=SYMBOLS, vectors=VECTORS, inner=INNER, facts=FACTS, steps=STEPS, quantities=(),
)
