"""Note 001 (``hard-limiter``): the proof of the Perceptron Convergence Theorem, step by step.

The note bounds ``‖w(n+1)‖²`` below by ``n²α²/‖w0‖²`` (Cauchy-Schwarz on
``w0·w(n+1) >= nα``) and above by ``nβ²`` (telescoping), so
``n <= β²‖w0‖²/α²``. It argues for class C1 only ("the case for C2 is
analogous"), with the update ``w + x``; Table 1's rule ``η[d - y]x`` adds
``2η·d·x`` on a mistake. The restatement below takes both classes at once, with
``α = min over H of d·w0·x`` and a general η, so a = 2η; η cancels in the bound.
``w(n+1)`` is the weight vector after n mistakes, as the note's sums assume.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from ..notes.conventions import dot
from .errata import Erratum, Failure, Run, UpdateState
from .counter import CounterModel
from .language import C, Fact, Induction, Place, Proof, Split, Step, T, V, Vec, VecEq, eq, ge, gt, le

__all__ = ["PROOF", "ERRATA", "model_of"]

NOTE = "001_dfb81ab7d9d1b7e8.txt"

eta, n, d, yo, alpha, beta_sq = sp.symbols("eta n d y_out alpha beta_sq")
alpha1, alpha2, first_xsq = sp.symbols("alpha_1 alpha_2 first_xsq")
w_ws, prev_w_ws, x_ws, w_sq, prev_w_sq, w_x, x_sq, ws_sq = sp.symbols(
    "w_ws prev_w_ws x_ws w_sq prev_w_sq w_x x_sq ws_sq")
sxs, prev_sxs = sp.symbols("sxs prev_sxs")


def _at(line: int, where: str, quote: str) -> Place:
    return Place("001", line, where, quote)


_TABLE = _at(111, "Table 1, weight adaptation", r"\eta [d(n) - y(n)]\boldsymbol{x}(n)")

SYMBOLS = (
    (eta, r"\eta", "learning rate, 0 < η <= 1 (Table 1)"),
    (n, "n", "number of mistakes so far; w(n+1) is the weight vector after them"),
    (d, "d(n)", "desired response of the n-th misclassified vector, ±1"),
    (yo, "y(n)", "actual response sgn(w(n)·x(n)), ±1"),
    (alpha, r"\alpha", "margin: min over H of d·w0·x (both classes)"),
    (alpha1, r"\alpha_1", "the note's α: min over H1 of w0·x"),
    (alpha2, r"\alpha_2", "its C2 analogue: min over H2 of -w0·x"),
    (beta_sq, r"\beta^2", "max over H of ‖x‖² (Definition 13)"),
    (w_ws, r"\mathbf{w}_0^T\mathbf{w}(n+1)", "w0·w(n+1)"),
    (prev_w_ws, r"\mathbf{w}_0^T\mathbf{w}(n)", "w0·w(n)"),
    (x_ws, r"\mathbf{w}_0^T\mathbf{x}(n)", "w0·x(n)"),
    (w_sq, r"\|\mathbf{w}(n+1)\|^2", "‖w(n+1)‖²"),
    (prev_w_sq, r"\|\mathbf{w}(n)\|^2", "‖w(n)‖²"),
    (w_x, r"\mathbf{w}^T(n)\mathbf{x}(n)", "w(n)·x(n)"),
    (x_sq, r"\|\mathbf{x}(n)\|^2", "‖x(n)‖²"),
    (ws_sq, r"\|\mathbf{w}_0\|^2", "‖w0‖²"),
    (sxs, r"\Sigma_n", "Σ over the n misclassified vectors of ‖x(k)‖²"),
    (prev_sxs, r"\Sigma_{n-1}", "the same sum before the n-th mistake"),
    (first_xsq, r"\|\mathbf{x}(0)\|^2", "‖x‖² of the first misclassified vector when w(0) = 0 starts the run"),
)

VECTORS = (
    ("wn1", r"\mathbf{w}(n+1)", "weights after the n-th mistake"),
    ("wn", r"\mathbf{w}(n)", "weights before it"),
    ("x", r"\mathbf{x}(n)", "the misclassified vector, x0 = +1 first"),
    ("o", r"\mathbf{w}_0", "the separating ('optimal') weight vector of Definition 12"),
)

INNER = (
    (w_ws, V("wn1"), V("o")), (prev_w_ws, V("wn"), V("o")), (x_ws, V("x"), V("o")),
    (w_sq, V("wn1"), V("wn1")), (prev_w_sq, V("wn"), V("wn")), (w_x, V("wn"), V("x")),
    (x_sq, V("x"), V("x")), (ws_sq, V("o"), V("o")),
)

FACTS = (
    Fact("eta", gt(eta, 0), "symbol", "the learning rate is positive", _at(106, "Table 1", r"\(0 < \eta \leq 1\)")),
    Fact("label", eq(d**2, 1), "symbol", "desired responses are ±1", _at(111, "Table 1", r"\(d(n) = +1\) if")),
    Fact("n-nat", ge(n, 0), "symbol", "n counts mistakes", integer=True),
    Fact("update", VecEq(V("wn1"), V("wn") + eta * (d - yo) * V("x")), "algorithm", "Table 1's weight adaptation",
         _TABLE),
    Fact("output", eq(yo, -d), "algorithm", "on a mistake the output y(n) differs from d(n), and both are ±1, so y(n) = -d(n)"),
    Fact("mistake", le(d * w_x, 0), "algorithm",
         "sgn(0) = -1: C1 is misclassified when w·x <= 0, C2 when w·x > 0; either way d·w·x <= 0",
         _at(38, "Definition 4, hard limiter", r"-1 & \text{if } \upsilon \leq 0")),
    Fact("init", VecEq(V("wn1"), Vec()), "initial", "the weight vector is zero before the first mistake",
         _at(108, "Table 1, initialization", r"Set \(\boldsymbol{w}(0) = \boldsymbol{0}\)")),
    Fact("margin", ge(d * x_ws, alpha), "hypothesis",
         "Definition 12, for both classes: α = min over H of d·w0·x (see E001.2, E001.3)"),
    Fact("alpha>0", gt(alpha, 0), "hypothesis", "w0 separates strictly, so the minimum over finitely many values is > 0"),
    Fact("radius", le(x_sq, beta_sq), "definition", "Definition 13: β² = max over H of ‖x‖²",
         _at(90, "Definition 13", r"Let \(\beta^2 = \max_{\boldsymbol{x} \in H} ||\boldsymbol{x}||^2\)")),
    Fact("beta_sq>=0", ge(beta_sq, 0), "symbol", "β² is a maximum of squared norms"),
    Fact("ws>0", gt(ws_sq, 0), "symbol", "w0 != 0, since w0·x > 0 on C1"),
    Fact("sum-step", eq(sxs, prev_sxs + x_sq), "definition", "the n-th mistake adds ‖x(n)‖² to the sum"),
    Fact("sum-init", eq(sxs, 0), "initial", "the sum is empty before the first mistake"),
    Fact("first>=0", ge(first_xsq, 0), "symbol", "a squared norm"),
    # The note's own settings, for its steps as written.
    Fact("eta=1", eq(eta, 1), "case", "Remark 11 takes η = 1",
         _at(75, "Remark 11", r"constant learning rate \(\eta = 1\)")),
    Fact("C1", eq(d, 1), "case", "the note's case: x(n) in C1",
         _at(76, "Remark 11", r"If \(\boldsymbol{x}(n) \in C_1\)")),
    Fact("C2", eq(d, -1), "case", "the other case: x(n) in C2",
         _at(77, "Remark 11", r"If \(\boldsymbol{x}(n) \in C_2\)")),
    Fact("def12-C2", le(x_ws, 0), "hypothesis", "Definition 12 as written: w0·x <= 0 on C2",
         _at(83, "Definition 12", r"\(\boldsymbol{w}_0^\mathrm{T}\boldsymbol{x} \leq 0\) for all \(\boldsymbol{x} \in C_2\)")),
    Fact("alpha1>0", gt(alpha1, 0), "hypothesis", "the note's α = min over H1 of w0·x is > 0",
         _at(84, "Definition 12", r"Let \(\alpha = \min_{\boldsymbol{x} \in H_1}")),
    Fact("margin-C2", ge(-x_ws, alpha2), "definition", "α2 = min over H2 of -w0·x"),
    Fact("alpha2>0", gt(alpha2, 0), "hypothesis", "w0 separates C2 strictly"),
    Fact("n>=2", ge(n, 2), "case", "at least two mistakes: the note's sum from k = 1 has a term"),
)

_R11 = _at(76, "Remark 11, update for C1", r"\(\boldsymbol{w}(n+1) = \boldsymbol{w}(n) + \boldsymbol{x}(n)\)")
_DEF12 = _at(83, "Definition 12 and 'the case for C2 is analogous' (line 78)",
             r"\(\boldsymbol{w}_0^\mathrm{T}\boldsymbol{x} \leq 0\) for all \(\boldsymbol{x} \in C_2\)")
_LOWER = _at(87, "Lower Bound Derivation", r"\geq \sum_{k=1}^{n} \alpha = n\alpha")
_TELESCOPE = _at(89, "Upper Bound Derivation, telescoping", r"\leq \sum_{k=1}^{n} ||\boldsymbol{x}(k)||^2")
_NMAX = _at(93, "Remark 14, n_max", r"n_{\max} \approx \frac{\beta^2 ||\boldsymbol{w}_0||^2}{\alpha^2}")
_BOUND_VALUE = beta_sq * ws_sq / alpha**2

STEPS = (
    Step("001.1w", _R11, VecEq(V("wn1"), V("wn") + V("x")), "identity", ("update", "output", "C1", "eta=1"),
         written=True, corrected_by="001.1", comment="Table 1's rule with η = 1 adds [d - y]x = 2x on a C1 mistake"),
    Step("001.1", _R11, VecEq(V("wn1"), V("wn") + 2 * eta * d * V("x")), "identity", ("update", "output"),
         corrects="001.1w", comment="on a mistake y(n) = -d(n), so η[d - y] = 2ηd: the step has size a = 2η"),
    Step("001.2w", _DEF12, gt(-x_ws, 0), "inequality", ("C2", "def12-C2"), written=True, corrected_by="001.2",
         comment="the C2 analogue of 'α > 0' needs -w0·x > 0 on C2; Definition 12 gives only >= 0"),
    Step("001.2", _DEF12, gt(-x_ws, 0), "inequality", ("C2", "margin", "alpha>0"),
         C(T(1, "margin"), T(1, "alpha>0")), corrects="001.2w",
         comment="with w0·x < 0 on C2, α = min over both classes of d·w0·x is > 0"),
    Step("001.3", _at(86, "Lower Bound Derivation, projection on w0",
                      r"\boldsymbol{w}_0^\mathrm{T}\boldsymbol{x}(k)"),
         eq(w_ws, prev_w_ws + 2 * eta * d * x_ws), "identity", ("001.1",),
         comment="one term of the note's sum Σ w0·x(k), with the class sign d and the step 2η"),
    Step("001.4w", _at(78, "Remark 11, per-class argument", r"the case for \(C_2\) is analogous"),
         ge(w_ws, prev_w_ws + 2 * eta * alpha1), "inequality", ("001.3", "C2", "margin-C2", "alpha2>0", "alpha1>0", "eta"),
         written=True, corrected_by="001.4",
         comment="a C2 update adds 2η·(-w0·x) >= 2η·α2, not 2η·α1: the bound nα needs α over both classes"),
    Step("001.4", _LOWER, ge(w_ws, prev_w_ws + 2 * eta * alpha), "inequality", ("001.3", "margin", "eta"),
         C(T(2, "eta", "margin")), claim="lower-bound-step", corrects="001.4w"),
    Step("001.5", _LOWER, ge(w_ws, n * 2 * eta * alpha), "induction", ("001.4",),
         induction=Induction(n, {n: n - 1, w_ws: prev_w_ws}, previous_vectors={"wn1": V("wn")}, base_uses=("init",), step=C(T(1, "IH"), T(1, "001.4")),
                             over="mistakes n"),
         claim="lower-bound", comment="the note's w0·w(n+1) = Σ w0·x(k) >= nα, as an induction on n"),
    Step("001.6", _at(87, "Cauchy-Schwarz",
                      r"(\boldsymbol{w}_0^\mathrm{T}\boldsymbol{w}(n+1))^2 \leq ||\boldsymbol{w}_0||^2 ||\boldsymbol{w}(n+1)||^2"),
         le(w_ws**2, w_sq * ws_sq), "cauchy-schwarz", vectors=(V("wn1"), V("o")), claim="cauchy-schwarz"),
    Step("001.7", _at(87, "quadratic lower bound", r"\geq (n\alpha)^2 = n^2 \alpha^2"),
         ge(ws_sq * w_sq, (n * 2 * eta * alpha)**2), "inequality", ("001.5", "001.6", "eta", "n-nat", "alpha>0"),
         C(T(1, "001.6"), T(1, "001.5", "001.5"), T(4, "eta", "n-nat", "alpha>0", "001.5")),
         claim="quadratic-lower-bound"),
    Step("001.8", _at(87, "eq. lower_bound_norm_w_proof",
                      r"||\boldsymbol{w}(n+1)||^2 \geq \frac{n^2 \alpha^2}{||\boldsymbol{w}_0||^2}"),
         ge(w_sq, (2 * eta)**2 * n**2 * alpha**2 / ws_sq), "inequality", ("001.7", "ws>0"),
         C(T(1, "001.7"), divisor=("ws>0",))),
    Step("001.9", _at(89, "Upper Bound Derivation, squared norm",
                      r"||\boldsymbol{w}(k)||^2 + ||\boldsymbol{x}(k)||^2 + 2\boldsymbol{w}^\mathrm{T}(k)\boldsymbol{x}(k)"),
         eq(w_sq, prev_w_sq + (2 * eta)**2 * x_sq + 2 * (2 * eta * d) * w_x), "identity", ("001.1", "label")),
    Step("001.10", _at(89, "Upper Bound Derivation",
                       r"Therefore, \(2\boldsymbol{w}^\mathrm{T}(k)\boldsymbol{x}(k) \leq 0\)"),
         le(w_sq, prev_w_sq + (2 * eta)**2 * x_sq), "inequality", ("001.9", "mistake", "eta"),
         C(T(4, "eta", "mistake")), claim="upper-bound-step", tie=("label",),
         comment="for both classes: the cross term is 4η·d·w(n)·x(n) <= 0"),
    Step("001.11", _TELESCOPE, le(w_sq, (2 * eta)**2 * sxs), "induction", ("001.10", "sum-step"),
         induction=Induction(n, {n: n - 1, w_sq: prev_w_sq, sxs: prev_sxs}, previous_vectors={"wn1": V("wn")},
                             base_uses=("init", "sum-init"),
                             step=C(T(1, "IH"), T(1, "001.10")), over="mistakes n"),
         claim="upper-bound-per-sample", corrects="001.11w",
         comment="the sum runs over every mistake made, starting from the zero weight vector"),
    Step("001.11w", _at(89, "telescoping with the initial condition",
                        r"using the initial condition \(\boldsymbol{w}(0) = \boldsymbol{0}\)"),
         le(w_sq, (2 * eta)**2 * (sxs - first_xsq)), "inequality", ("001.11", "first>=0", "n>=2"), written=True,
         corrected_by="001.11",
         comment="Σ_{k=1}^{n} telescopes to ‖w(n+1)‖² - ‖w(1)‖²: it needs w(1) = 0; from w(0) = 0 the first "
                 "misclassified vector x(0) is missing from the sum"),
    Step("001.12", _at(90, "Definition 13", r"\leq \sum_{k=1}^{n} \beta^2 = n\beta^2"),
         le(sxs, n * beta_sq), "induction", ("radius", "sum-step"),
         induction=Induction(n, {n: n - 1, sxs: prev_sxs}, base_uses=("sum-init",),
                             step=C(T(1, "IH"), T(1, "radius")), over="mistakes n")),
    Step("001.13", _at(90, "eq. upper_bound_norm_w_proof", r"= n\beta^2"),
         le(w_sq, (2 * eta)**2 * n * beta_sq), "inequality", ("001.11", "001.12"),
         C(T(1, "001.11"), T(1, "001.12", square=2 * eta)), claim="upper-bound"),
    Step("001.14", _at(93, "Remark 14, both bounds", r"\leq ||\boldsymbol{w}(n+1)||^2 \leq n\beta^2"),
         le((2 * eta)**2 * n**2 * alpha**2, (2 * eta)**2 * n * beta_sq * ws_sq), "inequality",
         ("001.7", "001.13", "ws>0"), C(T(1, "001.7"), T(1, "ws>0", "001.13"))),
    Step("001.15", _NMAX,
         le(n, _BOUND_VALUE), "rearrangement", ("001.14", "eta", "n-nat", "alpha>0", "beta_sq>=0", "ws>0"),
         Split(n, zero=C(T(1, "beta_sq>=0", "ws>0"), divisor=("alpha>0", "alpha>0")),
               positive=C(T(Fraction(1, 4), "001.14"), divisor=("n>0", "eta", "eta", "alpha>0", "alpha>0"))),
         claim="mistake-bound", corrects="001.15w",
         comment="the note 'equates the approximate bounds'; what they give is the exact bound n <= β²‖w0‖²/α²"),
    Step("001.15w", _NMAX, le(n, beta_sq * ws_sq / alpha1**2), "rearrangement",
         ("001.14", "eta", "n-nat", "alpha1>0", "beta_sq>=0", "ws>0"), written=True, corrected_by="001.15",
         comment="n_max with the note's α, the minimum over H1 only (line 87)"),
)

QUANTITIES = (
    ("a", 2 * eta), ("k", n), ("N", n), ("n", sp.Integer(1)), ("gamma", alpha), ("R_sq", beta_sq),
    ("ws_sq", ws_sq), ("w_ws", w_ws), ("prev_w_ws", prev_w_ws), ("w_sq", w_sq), ("prev_w_sq", prev_w_sq),
    ("step_sq", (2 * eta)**2 * d**2 * x_sq), ("sum_N_xsq", sxs), ("bound", _BOUND_VALUE),
)

PROOF = Proof(
    key="001", note=NOTE, convention="hard-limiter",
    title="Note 001 (hard-limiter): n <= β²·‖w0‖²/α²",
    summary=("Quadratic lower bound ‖w0‖²‖w(n+1)‖² >= (2ηnα)² from w0·w(n+1) >= 2ηnα and Cauchy-Schwarz; "
             "linear upper bound ‖w(n+1)‖² <= 4η²nβ² by telescoping. The note argues for C1 with the update "
             "w + x and says C2 is analogous; here both classes are taken at once (α = min over H of d·w0·x, "
             "which needs w0·x < 0 on C2) and Table 1's step 2η is kept: it cancels in the bound."),
    symbols=SYMBOLS, vectors=VECTORS, inner=INNER, facts=FACTS, steps=STEPS, quantities=QUANTITIES,
)

_HALF = Fraction(1, 2)
_LINE = ((Fraction(1),), (Fraction(0),))  # x = 1 in C1, x = 0 in C2

ERRATA = (
    Erratum(
        "E001.1", _R11, r"\(\boldsymbol{w}(n+1) = \boldsymbol{w}(n) + \boldsymbol{x}(n)\)",
        "With η = 1, Table 1's rule w(n+1) = w(n) + η[d(n) - y(n)]x(n) adds 2x(n) on a C1 mistake, not x(n): "
        "d - y is ±2 whenever y != d.",
        "w(n+1) = w(n) + 2η·d(n)·x(n); the note's w ± x is the case η = 1/2.",
        "001.1", (Failure("001.1w", Run("boolean AND, η = 1", "hard-limiter", example="and")),),
        "The step size 2η cancels in n_max (steps 001.4-001.15 carry it), so the bound stands.",
    ),
    Erratum(
        "E001.2", _DEF12, r"\(\boldsymbol{w}_0^\mathrm{T}\boldsymbol{x} \leq 0\) for all \(\boldsymbol{x} \in C_2\)",
        "Definition 12 lets w0·x = 0 on C2, so the C2 analogue of α, min over H2 of -w0·x, can be 0; the "
        "argument 'for C2 is analogous' then gives no bound. A perceptron's own final weights can be such a w0.",
        "Require w0·x < 0 on C2 and take α = min over H of d·w0·x > 0.",
        "001.2", (Failure("001.2w", Run("x = 1 in C1, x = 0 in C2 (w0 = the run's final weights)", "hard-limiter",
                                        _HALF, points=_LINE, labels=(1, -1))),),
        "With the strict condition the proof goes through; with Definition 12 as written, α may be 0.",
    ),
    Erratum(
        "E001.3", _at(78, "Remark 11 and Remark 14 (line 93)", r"the case for \(C_2\) is analogous"),
        r"the case for \(C_2\) is analogous",
        "The bounds are derived for C1 updates only, with α = min over H1 of w0·x. In a run both classes make "
        "mistakes, and a C2 update raises w0·w by 2η·(-w0·x), which can be less than 2η·α: the lower bound "
        "w0·w(n+1) >= nα fails for the mixed sequence the algorithm makes.",
        "Take α = min over H of d·w0·x (both classes): every update raises w0·w by at least 2ηα.",
        "001.4", (Failure("001.4w", Run("x = 1 in C1, x = 0 in C2, w0 = (-1/10, 1)", "hard-limiter", _HALF,
                                        points=_LINE, labels=(1, -1),
                                        separator=(Fraction(-1, 10), Fraction(1)))),),
        "Per-class bounds do not add up to n <= n_max; with α over both classes the single argument does.",
    ),
    Erratum(
        "E001.4", _at(89, "Upper Bound Derivation", r"using the initial condition \(\boldsymbol{w}(0) = \boldsymbol{0}\)"),
        r"using the initial condition \(\boldsymbol{w}(0) = \boldsymbol{0}\)",
        "Summing from k = 1 to n telescopes to ‖w(n+1)‖² - ‖w(1)‖², so the step needs w(1) = 0; Table 1 sets "
        "w(0) = 0 (and counts n from 1). Read with w(0) = 0, the first misclassified vector x(0) is left out "
        "of the sum, and the inequality fails.",
        "Start from the zero vector before the first mistake: after n mistakes ‖w‖² <= 4η²·Σ of ‖x‖² over all "
        "n of them (the same holds for the sum w0·w(n+1) = Σ w0·x(k)).",
        "001.11", (Failure("001.11w", Run("boolean AND, η = 1/2", "hard-limiter", _HALF, example="and")),),
        "An indexing slip: with the first weight vector zero every bound of the note holds.",
    ),
    Erratum(
        "E001.5", _NMAX, r"n_{\max} \approx \frac{\beta^2 ||\boldsymbol{w}_0||^2}{\alpha^2}",
        "With α as the note defines it (line 87: the minimum over H1 of w0·x), n_max is no bound on the number "
        "of mistakes: not only does a step fail (E001.3), the conclusion is false. C2 vectors close to the "
        "hyperplane keep causing mistakes while α, measured on C1 alone, stays large.",
        "Take α = min over H of d·w0·x, the signed margin over both classes (w0·x < 0 on C2, see E001.2): "
        "then n <= β²‖w0‖²/α².",
        "001.15", (Failure("001.15w", Run("x = 1 in C1, x = 1/100 in C2, w0 = (-1/50, 1)", "hard-limiter", _HALF,
                                          points=((Fraction(1),), (Fraction(1, 100),)), labels=(1, -1),
                                          separator=(Fraction(-1, 50), Fraction(1)))),),
        "n_max bounds the mistakes only with α over both classes; with the note's α a run exceeds it.",
    ),
)


def model_of(state: UpdateState, run: Run) -> CounterModel:
    """The note's symbols at one update of an exact run (α over both classes unless chosen)."""
    scores = [dot(state.separator, x) for x in state.samples]
    labels = state.data.y
    margin = min(yy * s for yy, s in zip(labels, scores))
    first = state.samples[state.first]
    chosen = dict(run.constants)
    return CounterModel.of(
        {eta: state.rate, d: state.y, yo: 1 if dot(state.w_prev, state.x) > 0 else -1, n: state.k,
         alpha: chosen.get("alpha", margin), beta_sq: state.R_sq,
         alpha1: min(s for s, yy in zip(scores, labels) if yy > 0),
         alpha2: min(-s for s, yy in zip(scores, labels) if yy < 0),
         sxs: state.sum_xsq, prev_sxs: state.sum_xsq - dot(state.x, state.x), first_xsq: dot(first, first)},
        {"wn1": state.w, "wn": state.w_prev, "x": state.x, "o": state.separator},
    )
