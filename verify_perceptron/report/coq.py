"""A certificate record (`verify_perceptron.certify.evidence`) as a Coq file: ``--coq FILE``.

The file states the certificate's statements as lemmas over Coq's integers
(``Z``: every vector over one common denominator, every scalar a pair
(numerator, positive denominator) compared by cross-multiplying), each
proved by ``vm_compute; reflexivity``: ``coqc FILE`` runs the computation
and Coq's kernel checks it. Coq's ``Q`` is not used: its unreduced
fractions made a 569-sample check take more than 15 minutes, where integers
over one denominator take seconds. The lemmas:

* ``data_shape``: n samples, each a label ±1 and d numerators;
* ``fingerprint``: Σ_k k·v_k over every number of the file, in order, is the
  stated integer, so an edit to any one number is refused (a changed v_k
  moves the sum by k·δ ≠ 0);
* per separator: the least margin y_i·w·x~_i is γ (so every one is >= γ), γ > 0; R², β,
  ‖w*‖²; each note's bound from them, in the note's own squared form;
* ``gordan_*``: λ >= 0, Σλ = 1, Σ λ_i·y_i·x~_i = 0;
* ``final_weights_classify`` (a converged run) and ``run_within_bound``
  (an online run's updates at most its note's bound).

What stays outside Coq is the reading of the data file into integers: the
file's header comment gives the SHA-256 digests that tie the integers to
the canonical text and to the file (``python -m verify_perceptron.audit``
recomputes them).

Examples
--------
>>> from verify_perceptron.api.verification import run_verification
>>> from verify_perceptron.certify.evidence import certificate_of_run
>>> from verify_perceptron.data.examples import example
>>> r = run_verification(example("xor"), "classic")
>>> text = render_coq(certificate_of_run(r.data, r.trace, r.check, r.separability))
>>> [line.split(" :")[0][6:] for line in text.splitlines() if line.startswith("Lemma")]
['data_shape', 'fingerprint', 'gordan_nonnegative', 'gordan_sums_to_one', 'gordan_identity']
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ..data.exact_text import integer_text, read_exact

__all__ = ["render_coq"]

PRELUDE = """\
From Coq Require Import ZArith List Bool.
Import ListNotations.
Open Scope Z_scope.

(* Rationals as (numerator, denominator) pairs of Z, denominators positive; only for a few scalars. *)
Definition qmul (a b : Z * Z) : Z * Z := (fst a * fst b, snd a * snd b).
Definition qdiv (a b : Z * Z) : Z * Z := (fst a * snd b, snd a * fst b).
Definition qadd (a b : Z * Z) : Z * Z := (fst a * snd b + fst b * snd a, snd a * snd b).
Definition qsub (a b : Z * Z) : Z * Z := (fst a * snd b - fst b * snd a, snd a * snd b).
Definition qeq (a b : Z * Z) : bool := fst a * snd b =? fst b * snd a.
Definition qle (a b : Z * Z) : bool := fst a * snd b <=? fst b * snd a.

Fixpoint dot (a b : list Z) : Z :=
  match a, b with x :: a', y :: b' => x * y + dot a' b' | _, _ => 0 end.
Fixpoint vadd (a b : list Z) : list Z :=
  match a, b with x :: a', y :: b' => (x + y) :: vadd a' b' | _, _ => [] end.
Fixpoint weighted (k : Z) (l : list Z) : Z :=
  match l with [] => 0 | x :: r => k * x + weighted (k + 1) r end.
Definition sum (l : list Z) : Z := fold_right Z.add 0 l.
Fixpoint least_from (m : Z) (l : list Z) : Z := match l with [] => m | x :: r => least_from (Z.min m x) r end.
Definition least (l : list Z) : Z := least_from (hd 0 l) l.
"""

#: What a score of exactly 0 counts as, per convention; the Coq test of "sample (y, score) is classified".
TIES = {"hard-limiter": "if y =? 1 then 0 <? s else s <=? 0", "hard-limiter-plus": "if y =? 1 then 0 <=? s else s <? 0"}
MISTAKE_AT_ZERO = "0 <? y * s"
FORMULAS = {  # each note's bound, as its note writes it, squared
    "classic": "qdiv (qmul R_sq {ws}) (qmul {g} {g})",
    "hard-limiter": "qdiv (qmul R_sq {ws}) (qmul {g} {g})",
    "hard-limiter-plus": "qdiv (qmul R_sq {ws}) (qmul {g} {g})",
    "unit-ball": "qdiv (1, 1) (qdiv (qmul {g} {g}) (qmul R_sq {ws}))",
    "sum-norm": "qdiv beta (qdiv (qmul {g} {g}) {ws})",
    "split-bias": "qdiv (qmul (qadd (qdiv {b2} {v2}) (1, 1)) (qadd (1, 1) (qsub R_sq (1, 1)))) (qdiv (qmul {g} {g}) {v2})",
}


def _z(n: int) -> str:
    text = str(n) if n.bit_length() < 10_000 else integer_text(n)
    return text if n >= 0 else f"({text})"


def _list(values: Sequence[int]) -> str:
    return "[" + "; ".join(map(_z, values)) + "]"


def _over_one(values: Sequence[Fraction]) -> tuple[list[int], int]:
    """Integers over their least common denominator."""
    den = math.lcm(1, *(v.denominator for v in values))
    return [int(v * den) for v in values], den


def _safe(text: str) -> str:
    """Text for a Coq comment: no comment or string delimiters, ASCII."""
    return re.sub(r"[^A-Za-z0-9_.,:/ -]", "?", text)[:200]


class _File:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.numbers: list[int] = []
        self.parts: list[str] = []

    def scalar(self, name: str, value: Fraction) -> None:
        self.lines.append(f"Definition {name} : Z * Z := ({_z(value.numerator)}, {_z(value.denominator)}).")
        self.parts.append(f"[fst {name}; snd {name}]")
        self.numbers += [value.numerator, value.denominator]

    def vector(self, name: str, values: Sequence[Fraction], meaning: str) -> None:
        ints, den = _over_one(values)
        self.lines += [f"(* {meaning} = {name} / {name}_den *)", f"Definition {name}_den : Z := {_z(den)}.",
                       f"Definition {name} : list Z := {_list(ints)}."]
        self.parts.append(f"{name}_den :: {name}")
        self.numbers += [den, *ints]

    def lemma(self, name: str, statement: str) -> None:
        self.lines += [f"Lemma {name} : {statement} = true.", "Proof. vm_compute. reflexivity. Qed.", ""]


def _header(record: dict[str, Any]) -> list[str]:
    data, run = record["data"], record.get("run")
    bias = record["bias"]
    return [
        "(* Certificate of verify-perceptron, checked by Coq's kernel: coqc THIS_FILE.v",
        "",
        f"   Data: {_safe(str(data['source']))}, {data['n_samples']} samples x {data['n_features']} features.",
        "   Outside Coq is only the reading of the data file into the integers below: sample i is",
        "   (y_i, n_i), label y_i in {1, -1} and x_i = n_i / L. They are the data whose canonical text",
        "   (docs/certificates.md) has SHA-256",
        f"     {data['sha256']}",
        f"   and the file they were read from has SHA-256 {data['file_sha256'] or '(none: not read from a file)'};",
        "   python -m verify_perceptron.audit recomputes both.",
        "",
        f"   Vectors are in {record['coordinates']}'s coordinates: x~ = (x, bias input) with the bias input",
        f"   {bias['input']} placed {bias['position']}; rows holds (y_i, L * x~_i).",
        "",
        "   The lemmas, each proved by computation (vm_compute; reflexivity):",
        "   data_shape          n samples, each a label 1 or -1 and d numerators.",
        "   fingerprint         sum over k of k * (k-th number of this file) is the stated integer: an edit",
        "                       to any single number of this file is refused.",
        "   sep_K_least_margin  separator K (w = sep_K / sep_K_den): the least of y_i * (w . x~_i) over the",
        "                       samples is gamma_K, so every margin is >= gamma_K; sep_K_gamma_positive:",
        "                       gamma_K > 0. Together: the data are linearly separable with margin gamma_K.",
        "   R_sq_is_max, beta_is_sum, sep_K_ws_sq_is_norm   R^2 = max_i |x~_i|^2, beta = sum_i |x~_i|^2, |w|^2.",
        "   sep_K_bound_NAME_arithmetic   the bound of NAME's note at separator K, computed from R^2, beta, gamma,",
        "                       |w|^2 in the note's own squared form (no square root anywhere).",
        "   gordan_nonnegative, gordan_sums_to_one, gordan_identity   lambda >= 0, sum lambda = 1 and",
        "                       sum_i lambda_i * y_i * x~_i = 0: no w separates (w . 0 = 0 < sum lambda_i *",
        "                       margin_i), so the data are not linearly separable.",
        "   final_weights_classify   the run's final weights classify every sample under its rule.",
        "   run_within_bound    the run's count of updates is at most its note's bound.",
        "   The run itself (that these are its final weights and count) is the auditor's replay, not Coq's.",
        f"   Run: {'none' if run is None else _safe(run['convention'] + ', ' + run['mode'] + ', stop ' + run['stop'])}.",
        "*)",
        "",
    ]


def _separators(f: _File, separators: list[dict[str, Any]], first: bool) -> list[tuple[str, str]]:
    """The separators' definitions added to `f`; their lemmas, as (name, statement)."""
    body: list[tuple[str, str]] = []
    if separators:
        s0 = separators[0]
        f.scalar("R_sq", read_exact(s0["R_sq"]))
        f.scalar("beta", read_exact(s0["beta"]))
        body.append(("R_sq_is_max", "forallb (fun r => norm_sq r * snd R_sq <=? fst R_sq * (L * L)) rows && "
                     "existsb (fun r => norm_sq r * snd R_sq =? fst R_sq * (L * L)) rows"))
        body.append(("beta_is_sum", "sum (map norm_sq rows) * snd beta =? fst beta * (L * L)"))
    for k, s in enumerate(separators, 1):
        name, weights = f"sep_{k}", [read_exact(v) for v in s["weights"]]
        f.vector(name, weights, f"separator {_safe(s['name'])}")
        f.scalar(f"{name}_gamma", read_exact(s["gamma"]))
        f.scalar(f"{name}_ws_sq", read_exact(s["ws_sq"]))
        # one pass over the samples: the least of y_i·(L·x~_i)·sep_K is γ·L·sep_K_den, so every margin is >= γ
        margins = f"map (fun r => fst r * dot (snd r) {name}) rows"
        body += [(f"{name}_least_margin", f"snd {name}_gamma * least ({margins}) =? fst {name}_gamma * (L * {name}_den)"),
                 (f"{name}_gamma_positive", f"0 <? fst {name}_gamma"),
                 (f"{name}_ws_sq_is_norm", f"dot {name} {name} * snd {name}_ws_sq =? fst {name}_ws_sq * ({name}_den * {name}_den)")]
        bias_weight = f"({'hd 0' if first else 'last'} {name}{'' if first else ' 0'}, {name}_den)"
        b2, v2 = f"(qmul {bias_weight} {bias_weight})", f"(qsub {name}_ws_sq (qmul {bias_weight} {bias_weight}))"
        for convention, value in s["bounds"].items():
            bound = f"{name}_bound_{convention.replace('-', '_')}"
            f.scalar(bound, read_exact(value))
            formula = FORMULAS[convention].format(g=f"{name}_gamma", ws=f"{name}_ws_sq", b2=b2, v2=v2)
            body.append((f"{bound}_arithmetic", f"qeq ({formula}) {bound}"))
    return body


def render_coq(record: dict[str, Any]) -> str:
    """The Coq file of a certificate record with its data embedded (`ValueError` when they are not)."""
    data = record["data"]
    if not data["embedded"]:
        raise ValueError("a Coq file needs the data's integers: the certificate record has only their digest")
    L = read_exact(data["denominator"]).numerator
    rows = [[int(v) for v in row] for row in data["rows"]]
    first, bias = record["bias"]["position"] == "first", int(record["bias"]["input"])
    f = _File()
    f.lines.append(f"Definition L : Z := {_z(L)}.")
    f.parts.append("[L]")
    f.numbers.append(L)
    f.lines.append("Definition samples : list (Z * list Z) := [")
    f.lines += [f"  ({_z(row[0])}, {_list(row[1:])}){';' if i < len(rows) - 1 else ''}" for i, row in enumerate(rows)]
    f.lines.append("].")
    f.parts.append("concat (map (fun s => fst s :: snd s) samples)")
    f.numbers += [v for row in rows for v in row]
    scaled = "L :: x" if first else "x ++ [L]" if bias == 1 else "x ++ [-L]"
    if first and bias != 1:
        scaled = "(-L) :: x"
    f.lines += [f"Definition scaled (x : list Z) : list Z := {scaled}.",
                "Definition rows : list (Z * list Z) := map (fun s => (fst s, scaled (snd s))) samples.",
                "Definition norm_sq (r : Z * list Z) : Z := dot (snd r) (snd r).", ""]
    f.lines.append(f"Definition shape_ok : bool := Nat.eqb (length samples) {len(rows)} && forallb (fun s => "
                   f"Nat.eqb (length (snd s)) {data['n_features']} && (Z.abs (fst s) =? 1)) samples.")
    separators = record["separators"]
    body = _separators(f, separators, first)
    gordan = record.get("gordan")
    if gordan is not None:
        f.vector("lambda", [read_exact(v) for v in gordan["lambda"]], "Gordan's lambda")
        f.lines.append("Fixpoint gordan_sum (l : list Z) (rs : list (Z * list Z)) : list Z :=\n"
                       "  match l, rs with c :: l', r :: rs' => vadd (map (fun v => c * fst r * v) (snd r)) "
                       "(gordan_sum l' rs')\n  | _, _ => map (fun _ => 0) (snd (hd (0, []) rows)) end.")
        body += [("gordan_nonnegative", "forallb (Z.leb 0) lambda && Nat.eqb (length lambda) (length samples)"),
                 ("gordan_sums_to_one", "sum lambda =? lambda_den"),
                 ("gordan_identity", "forallb (Z.eqb 0) (gordan_sum lambda rows)")]
    run = record.get("run")
    if run is not None:
        f.vector("final", [read_exact(v) for v in run["final_weights"]], "the run's final weights")
        f.lines.append(f"Definition n_updates : Z := {run['n_updates']}.")
        f.parts.append("[n_updates]")
        f.numbers.append(run["n_updates"])
        tie = TIES.get(run["convention"], MISTAKE_AT_ZERO)
        f.lines.append(f"Definition classified (y s : Z) : bool := {tie}.")
        if run["converged"]:
            body.append(("final_weights_classify", "forallb (fun r => classified (fst r) (dot (snd r) final)) rows"))
        own = next((k for k, s in enumerate(separators, 1) if s["name"] == run.get("claims_separator")), None)
        if own is not None and run["mode"] == "online" and run["convention"] in separators[own - 1]["bounds"]:
            body.append(("run_within_bound",
                         f"qle (n_updates, 1) sep_{own}_bound_{run['convention'].replace('-', '_')}"))
    f.lines.append("Definition all_numbers : list Z :=\n  " + " ++\n  ".join(f.parts) + ".")
    fingerprint = sum(k * v for k, v in enumerate(f.numbers, 1))
    f.lines.append("")
    f.lemma("data_shape", "shape_ok")
    f.lines += [f"Lemma fingerprint : weighted 1 all_numbers = {_z(fingerprint)}.",
                "Proof. vm_compute. reflexivity. Qed.", ""]
    for name, statement in body:
        f.lemma(name, statement)
    return "\n".join(_header(record) + [PRELUDE] + f.lines) + "\n"
