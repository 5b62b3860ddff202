"""Rendering of checked proofs: LaTeX and plain text of statements, and the text, JSON, Markdown layouts.

`proof_record` turns one checked proof into a JSON-ready dictionary; the three
renderers read only such dictionaries, so the formats cannot disagree.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import sympy as sp
from sympy.printing.latex import LatexPrinter

from .algebra import BIAS_AXIS, Vec
from ..notes import claims as _claims
from .errata import Counterexample, Erratum
from .certificates import Certificate, Split, Term
from .counter import CounterModel, evaluate
from .language import Proof
from .relations import Rel, Statement, VecEq
from .results import ProofResult, StepResult

__all__ = ["proof_record", "render_text", "render_json", "render_markdown", "GENERATED_BY"]

#: The command that regenerates the Markdown documents.
GENERATED_BY = "python -m verify_perceptron.proofs"

_OPS_LATEX = {"<=": r"\le", "<": "<", ">=": r"\ge", ">": ">", "==": "="}
_OPS_TEXT = {"<=": "<=", "<": "<", ">=": ">=", ">": ">", "==": "="}


_ATOM = re.compile(r"\\?[A-Za-z]+(_\{?[A-Za-z0-9]*\}?)?")


class _Printer(LatexPrinter):
    """SymPy's LaTeX printer, with a proof's names; a compound name is bracketed before a power."""

    def _print_Pow(self, expr: sp.Pow) -> str:
        base, exponent = expr.as_base_exp()
        name = self._settings["symbol_names"].get(base)
        if name is not None and not _ATOM.fullmatch(name) and exponent.is_Rational and exponent > 0:
            return rf"\left({name}\right)^{{{self._print(exponent)}}}"
        return str(super()._print_Pow(expr))


class _Names:
    """LaTeX names of a proof's symbols and vectors."""

    def __init__(self, proof: Proof) -> None:
        self.symbols = {s: latex for s, latex, _ in proof.symbols}
        self.vectors = {name: latex for name, latex, _ in proof.vectors}
        self.vectors.setdefault(BIAS_AXIS, r"\mathbf{e}_0")
        self._printer = _Printer({"symbol_names": self.symbols})

    def latex(self, expr: sp.Expr) -> str:
        return str(self._printer.doprint(expr))

    def vec(self, v: Vec) -> str:
        if not v.terms:
            return r"\mathbf{0}"
        parts = []
        for name, coefficient in v.terms:
            vector = self.vectors.get(name, name)
            if coefficient == 1:
                parts.append(f"+ {vector}")
            elif coefficient == -1:
                parts.append(f"- {vector}")
            else:
                c = self.latex(coefficient)
                sign = "+ "
                if c.startswith("-") and not isinstance(coefficient, sp.Add):
                    sign, c = "- ", c[1:].lstrip()
                if isinstance(coefficient, sp.Add):
                    c = rf"\left({c}\right)"
                parts.append(f"{sign}{c} {vector}")
        text = " ".join(parts)
        return text[2:] if text.startswith("+ ") else "-" + text[2:]

    def statement(self, s: Statement) -> str:
        if isinstance(s, VecEq):
            return f"{self.vec(s.lhs)} = {self.vec(s.rhs)}"
        return f"{self.latex(s.lhs)} {_OPS_LATEX[s.op]} {self.latex(s.rhs)}"


def _text(s: Statement) -> str:
    if isinstance(s, VecEq):
        def vec(v: Vec) -> str:
            return " + ".join(f"{sp.sstr(c)}*{n}" if c != 1 else n for n, c in v.terms) or "0"
        return f"{vec(s.lhs)} = {vec(s.rhs)}"
    return f"{sp.sstr(s.lhs)} {_OPS_TEXT[s.op]} {sp.sstr(s.rhs)}"


def _label(name: str) -> str:
    """A fact's name inside ``\\text{}``."""
    return name.replace("\\", "").replace("_", r"\_").replace(">=", "≥").replace("<=", "≤")


def _quantity(names: _Names, known: dict[str, Statement], name: str) -> str:
    statement = known.get(name)
    if not isinstance(statement, Rel):
        return rf"[\text{{{_label(name)}}}]"
    body = names.latex(statement.slack())
    if isinstance(statement.slack(), sp.Add) or body.startswith("-"):
        body = rf"\left({body}\right)"
    return rf"\underbrace{{{body}}}_{{\text{{{_label(name)}}}}}"


def _term(names: _Names, known: dict[str, Statement], term: Term) -> str:
    parts = [] if term.coeff == 1 and (term.factors or term.square is not None) else [names.latex(term.coeff)]
    parts += [_quantity(names, known, f) for f in term.factors]
    if isinstance(term.square, Vec):
        parts.append(rf"\left\|{names.vec(term.square)}\right\|^2")
    elif term.square is not None:
        parts.append(rf"\left({names.latex(term.square)}\right)^2")
    return r" \, ".join(parts)


def _certificate(names: _Names, known: dict[str, Statement], cert: Certificate, statement: Statement) -> str:
    side = r"\text{rhs} - \text{lhs}" if isinstance(statement, Rel) and statement.op in ("<=", "<") else r"\text{lhs} - \text{rhs}"
    if cert.divisor:
        side = rf"\left({side}\right) \cdot " + r" \, ".join(_quantity(names, known, d) for d in cert.divisor)
    if isinstance(statement, VecEq) or statement.is_equality:
        return f"{side} = 0"
    body = " + ".join(_term(names, known, t) for t in cert.terms) or "0"
    return f"{side} = {body}"


def _justification(names: _Names, proof: Proof, result: StepResult, known: dict[str, Statement]) -> str:
    step = result.step
    equalities = [n for n in (*step.uses, *(step.induction.base_uses if step.induction else ()))
                  if isinstance(known.get(n), VecEq) or (isinstance(known.get(n), Rel) and known[n].is_equality)]
    modulo = ("modulo " + ", ".join(f"({n})" for n in dict.fromkeys(equalities))) if equalities else ""
    if step.kind == "cauchy-schwarz" and step.vectors is not None:
        u, v = (names.vec(w) for w in step.vectors)
        text = (rf"$\text{{rhs}} - \text{{lhs}} = \sum_{{i<j}} (u_i v_j - u_j v_i)^2$ with $u = {u}$, $v = {v}$, "
                "checked in components (Lagrange's identity)")
        return f"{text} {modulo}".strip()
    if step.induction is not None:
        ind = step.induction
        index = names.latex(ind.index)
        previous = ", ".join(f"${names.latex(a)} \\to {names.latex(b)}$" for a, b in ind.previous)
        known_ih = dict(known)
        if isinstance(step.statement, Rel):
            known_ih["IH"] = step.statement.subs(dict(ind.previous))
        at_least, above = ind.range_facts
        known_ih[above] = Rel(ind.index - ind.start, ">", 0)
        known_ih[at_least] = Rel(ind.index - ind.start - 1, ">=", 0)
        base = _certificate(names, known, ind.base, step.statement)
        inductive = _certificate(names, known_ih, ind.step, step.statement)
        return (f"induction on {ind.over or index}: base ${index} = {ind.start}$: ${base}$; "
                f"step from the hypothesis (IH) with {previous}: ${inductive}$ {modulo}").strip()
    proof_of = step.proof
    if isinstance(proof_of, Split):
        s = names.latex(proof_of.symbol)
        known_pos = dict(known)
        known_pos[f"{proof_of.symbol}>0"] = Rel(proof_of.symbol, ">", 0)
        known_pos[f"{proof_of.symbol}>=1"] = Rel(proof_of.symbol - 1, ">=", 0)
        zero = _certificate(names, known, proof_of.zero, step.statement)
        positive = _certificate(names, known_pos, proof_of.positive, step.statement)
        return f"case ${s} = 0$: ${zero}$; case ${s} \\ge 1$: ${positive}$ {modulo}".strip()
    if isinstance(proof_of, Certificate):
        return f"${_certificate(names, known, proof_of, step.statement)}$ {modulo}".strip()
    if step.kind == "identity":
        return f"$\\text{{lhs}} - \\text{{rhs}} = 0$ {modulo}".strip()
    return "none given: the note's own statement" if step.written else "none given"


def _sides(statement: Statement, model: CounterModel, proof: Proof) -> dict[str, str] | None:
    """The exact values of both sides of a relation at a counter-model ("undefined" after a division by 0)."""
    if not isinstance(statement, Rel):
        return None
    values = model.values(proof)
    shown = {}
    for side in ("lhs", "rhs"):
        value = getattr(statement, side).xreplace(values)
        shown[side] = str(value) if value.is_Rational else "undefined"
    return shown


def _place(place: Any) -> dict[str, Any] | None:
    if place is None:
        return None
    return {"note": place.note, "line": place.line, "where": place.where, "quote": place.quote,
            "text": place.describe()}


def _model_values(names: _Names, proof: Proof, model: CounterModel, statements: Sequence[Statement]) -> list[dict[str, str]]:
    values = model.values(proof)
    wanted: set[sp.Symbol] = set()
    vectors: set[str] = set()
    for s in statements:
        wanted |= s.free_symbols
        if isinstance(s, VecEq):
            vectors |= set(s.names)
    rows = [{"name": str(sym), "latex": names.latex(sym), "value": str(values[sym])}
            for sym in sorted(wanted, key=str) if sym in values]
    table = dict(model.vectors)
    for name in sorted(vectors):
        if name in table:
            rows.append({"name": name, "latex": names.vectors.get(name, name),
                         "value": "(" + ", ".join(str(v) for v in table[name]) + ")"})
    return rows


def _known_statements(proof: Proof) -> dict[str, Statement]:
    known: dict[str, Statement] = {f.name: f.statement for f in proof.facts}
    known.update({s.id: s.statement for s in proof.steps})
    return known


def _runtime(names: _Names, result: StepResult) -> dict[str, Any] | None:
    tie = result.tie
    if tie is None:
        return None
    text = next((c.text for c in _claims.CLAIMS if c.name == tie.claim), "")
    latex = None
    if tie.lhs is not None and tie.rhs is not None:
        latex = f"{names.latex(tie.lhs)} \\le {names.latex(tie.rhs)}"
    return {"name": tie.claim, "text": text, "holds": tie.holds, "how": tie.how, "latex": latex}


def proof_record(result: ProofResult, errata: Sequence[tuple[Erratum, Sequence[Counterexample]]] = ()) -> dict[str, Any]:
    """One checked proof (and its errata) as a JSON-ready dictionary."""
    proof = result.proof
    names = _Names(proof)
    known = _known_statements(proof)
    steps = []
    for r in result.steps:
        s = r.step
        model = None
        if r.counter_model is not None:
            used = [known[u] for u in s.uses if u in known]
            model = {"source": r.counter_model.source,
                     "values": _model_values(names, proof, r.counter_model, [s.statement, *used])}
        steps.append({
            "id": s.id, "place": _place(s.place), "kind": s.kind, "written": s.written,
            "corrects": s.corrects, "corrected_by": s.corrected_by,
            "claim": {"latex": names.statement(s.statement), "text": _text(s.statement)},
            "status": r.status, "reason": r.reason, "uses": list(s.uses),
            "base_uses": list(s.induction.base_uses) if s.induction else [],
            "conditions": list(r.conditions),
            "justification": _justification(names, proof, r, known),
            "checks": [{"label": c.label, "ok": c.ok, "detail": c.detail} for c in r.checks],
            "runtime_claim": _runtime(names, r), "counter_model": model, "comment": s.comment,
        })
    by_id = {r.step.id: r for r in result.steps}
    errata_records = []
    for erratum, counterexamples in errata:
        failures = []
        for ce in counterexamples:
            written = by_id[ce.failure.step]
            statement = written.step.statement
            assumptions = [known[u] for u in written.step.uses if u in known]
            verdict = evaluate(statement, ce.model, proof)
            failures.append({
                "written_step": ce.failure.step, "status": written.status,
                "claim": {"latex": names.statement(statement), "text": _text(statement)},
                "run": ce.failure.run.describe(), "update": ce.state.k, "epoch": ce.state.epoch,
                "sample": ce.state.sample, "claim_at_update": "undefined" if verdict is None else str(verdict).lower(),
                "updates_per_sample": list(ce.state.mistakes),
                "sides": _sides(statement, ce.model, proof),
                "weights_before": [str(v) for v in ce.state.w_prev], "weights_after": [str(v) for v in ce.state.w],
                "values": _model_values(names, proof, ce.model, [statement, *assumptions]),
            })
        corrected = by_id[erratum.corrected]
        errata_records.append({
            "id": erratum.id, "place": _place(erratum.place), "words": erratum.words, "problem": erratum.problem,
            "correction": erratum.correction, "corrected_step": erratum.corrected,
            "corrected_claim": {"latex": names.statement(corrected.step.statement), "text": _text(corrected.step.statement)},
            "corrected_status": corrected.status, "consequence": erratum.consequence, "failures": failures,
        })
    counts = {status: sum(1 for r in result.steps if r.status == status)
              for status in ("verified", "not-derivable", "undecided")}
    runtime: dict[str, list[str]] = {}
    for r in result.steps:
        if r.tie is not None and r.tie.holds and r.status == "verified":
            runtime.setdefault(r.tie.claim, []).append(r.step.id)
    return {
        "key": proof.key, "note": proof.note, "convention": proof.convention, "mode": proof.mode,
        "title": proof.title, "summary": proof.summary, "complete": result.complete, "counts": counts,
        "symbols": [{"name": str(s), "latex": latex, "meaning": meaning} for s, latex, meaning in proof.symbols],
        "vectors": [{"name": n, "latex": latex, "meaning": meaning} for n, latex, meaning in proof.vectors],
        "facts": [{"name": f.name, "statement": {"latex": names.statement(f.statement), "text": _text(f.statement)},
                   "origin": f.origin, "text": f.text, "integer": f.integer, "place": _place(f.place)}
                  for f in proof.facts],
        "steps": steps, "errata": errata_records,
        "runtime_claims": [{"name": name, "steps": ids} for name, ids in sorted(runtime.items())],
    }


# --- layouts --------------------------------------------------------------------------------------


def render_json(records: Sequence[dict[str, Any]]) -> str:
    """The records as indented JSON (keys in a stable order)."""
    return json.dumps(list(records), indent=2, ensure_ascii=False) + "\n"


def render_text(records: Sequence[dict[str, Any]]) -> str:
    """The records as plain text: one line per step, then the errata."""
    lines: list[str] = []
    for rec in records:
        counts = rec["counts"]
        convention = "every convention" if rec["convention"] == "*" else rec["convention"]
        lines.append(f"{rec['title']}")
        lines.append(f"  note {rec['note']}, {convention}, {rec['mode']} mode: {counts['verified']} verified, "
                     f"{counts['not-derivable']} not derivable as written, {counts['undecided']} undecided")
        for step in rec["steps"]:
            tie = step["runtime_claim"]
            tail = f"  [runtime {tie['name']}: {tie['how']}]" if tie else ""
            lines.append(f"  {step['id']:<8} {step['status']:<13} {step['kind']:<13} {step['claim']['text']}{tail}")
            if step["status"] != "verified":
                lines.append(f"           {step['reason']}")
        for err in rec["errata"]:
            lines.append(f"  erratum {err['id']} ({err['place']['text']}): {err['words']}")
            lines.append(f"    {err['problem']}")
            lines.append(f"    corrected ({err['corrected_step']}, {err['corrected_status']}): {err['correction']}")
            for f in err["failures"]:
                values = ", ".join(f"{v['name']} = {v['value']}" for v in f["values"])
                sides = f"; lhs {f['sides']['lhs']}, rhs {f['sides']['rhs']}" if f["sides"] else ""
                lines.append(f"    counterexample for {f['written_step']}: {f['run']}; update {f['update']} "
                             f"(epoch {f['epoch']}, sample {f['sample']}, updates per sample "
                             f"{_tuple(f['updates_per_sample'])}): {values}{sides}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _tuple(values: Sequence[object]) -> str:
    return "(" + ", ".join(str(v) for v in values) + ")"


def _md_place(place: dict[str, Any] | None) -> str:
    if place is None:
        return ""
    quote = f": `{place['quote']}`" if place["quote"] else ""
    return f"*{place['text']}*{quote}"


def _cell(latex: str) -> str:
    """LaTeX for a table cell: no bare ``|``, which would end the cell."""
    return latex.replace(r"\|", r"\Vert ").replace("|", r"\vert ")


def _cell_text(text: str) -> str:
    return text.replace("|", r"\|")


def render_markdown(record: dict[str, Any]) -> str:
    """One proof as a Markdown document: symbols, facts, steps in LaTeX with status and justification, errata."""
    rec = record
    counts = rec["counts"]
    convention = "every convention" if rec["convention"] == "*" else f"`{rec['convention']}`"
    out = [f"# {rec['title']}", "",
           f"<!-- Generated by `{GENERATED_BY}`: do not edit by hand. -->", "",
           f"Seed note: `{rec['note']}` · convention: {convention} · mode: {rec['mode']}", "",
           rec["summary"], "",
           f"**Checked:** {counts['verified']} steps verified, {counts['not-derivable']} steps not derivable as "
           f"written (see the errata), {counts['undecided']} undecided.", ""]
    if rec["runtime_claims"]:
        out += ["**Runtime invariants instantiated by these steps** (evaluated exactly at every update by "
                "`verify`): " + ", ".join(f"`{c['name']}` ({', '.join(c['steps'])})" for c in rec["runtime_claims"])
                + ".", ""]
    out += ["## Symbols", "", "| symbol | meaning |", "|---|---|"]
    out += [f"| ${_cell(s['latex'])}$ | {_cell_text(s['meaning'])} |" for s in rec["symbols"]]
    out += ["", "| vector | meaning |", "|---|---|"]
    out += [f"| ${_cell(v['latex'])}$ | {_cell_text(v['meaning'])} |" for v in rec["vectors"]]
    out += ["", "## Facts", "",
            "Hypotheses of the theorem, rules of the algorithm and declared facts about symbols. A step may "
            "use only those it lists; `initial` facts only in the base case of an induction; `case` facts "
            "make the steps that use them conditional.", "",
            "| name | statement | origin | why |", "|---|---|---|---|"]
    for f in rec["facts"]:
        where = f" ({f['place']['text']})" if f["place"] else ""
        integer = " (an integer)" if f["integer"] else ""
        out.append(f"| `{f['name']}` | ${_cell(f['statement']['latex'])}${integer} | {f['origin']} | "
                   f"{_cell_text(f['text'] + where)} |")
    out += ["", "## Steps", ""]
    for step in rec["steps"]:
        label = "as the note writes it" if step["written"] else step["kind"]
        out += [f"### {step['id']} · {label} · **{step['status']}**", "", _md_place(step["place"]), "",
                f"$$ {step['claim']['latex']} $$", ""]
        uses = ", ".join(f"`{u}`" for u in step["uses"]) or "none"
        if step["base_uses"]:
            uses += "; base case: " + ", ".join(f"`{u}`" for u in step["base_uses"])
        out.append(f"- Uses: {uses}")
        if step["conditions"]:
            out.append("- Holds when: " + ", ".join(f"`{c}`" for c in step["conditions"]))
        out.append(f"- Justification: {step['justification']}")
        out.append(f"- Checked: {step['reason']}")
        if step["runtime_claim"]:
            tie = step["runtime_claim"]
            claim = f" ${tie['latex']}$" if tie["latex"] else ""
            out.append(f"- Runtime invariant `{tie['name']}`{claim}: {tie['how']}")
        if step["corrects"]:
            out.append(f"- Corrects step {step['corrects']} (the note's wording)")
        if step["corrected_by"]:
            out.append(f"- Corrected by step {step['corrected_by']}")
        if step["counter_model"]:
            cm = step["counter_model"]
            values = ", ".join(f"${v['latex']} = {v['value']}$" for v in cm["values"])
            out.append(f"- Counter-model ({cm['source']}): {values}")
        if step["comment"]:
            out.append(f"- Note: {step['comment']}")
        out.append("")
    out += ["## Errata", ""]
    if not rec["errata"]:
        out += ["None found: every step of the note, as restated above, checks.", ""]
    for err in rec["errata"]:
        out += [f"### {err['id']} · {err['place']['text']}", "", f"The note writes: `{err['words']}`", "",
                err["problem"], "",
                f"**Corrected** (step {err['corrected_step']}, {err['corrected_status']}): {err['correction']}", "",
                f"$$ {err['corrected_claim']['latex']} $$", ""]
        for f in err["failures"]:
            values = ", ".join(f"${v['latex']} = {v['value']}$" for v in f["values"])
            sides = ""
            if f["sides"] is not None:
                sides = f" (left side {f['sides']['lhs']}, right side {f['sides']['rhs']})"
            out += [f"**Counterexample** to step {f['written_step']} ({f['status']}), ${f['claim']['latex']}$. "
                    f"Run: {f['run']}. At update {f['update']} (epoch {f['epoch']}, sample {f['sample']}; "
                    f"updates per sample so far {_tuple(f['updates_per_sample'])}), "
                    f"weights ({', '.join(f['weights_before'])}) → ({', '.join(f['weights_after'])}): {values}; "
                    f"every assumption of the step holds and the claim is {f['claim_at_update']}{sides}.", ""]
        out += [f"*Consequence:* {err['consequence']}", ""]
    return "\n".join(out).rstrip() + "\n"
