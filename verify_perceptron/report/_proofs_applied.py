"""Which theorems hold for this run: each proof's hypotheses as decided on the run, and so its conclusion.

The record's ``proofs_applied`` lists, for each proof the run is an instance of
(its convention's note, batch mode, the averaged perceptron with
``--averaged``), every hypothesis the proof's conclusion rests on, compiled from
the proof's own statement (`verify_perceptron.proofs.bindings`) and decided on
the run (`verify_perceptron.check.facts`), with one sentence: either all held,
so the conclusion is a theorem about this run, or the first that failed (where,
with its values), or which could not be checked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..check.facts import FactResult, ProofCheck
from ..check.results import CheckResult
from ..data.exact_text import exact_text
from ..data.trace import Trace
from ._document import Block, Bullets, Heading, Paragraph

__all__ = ["proofs_applied_record", "averaged_proof_record", "proofs_applied_lines", "proofs_applied_blocks"]

_SCOPES = {"run": "on the run", "sample": "on every sample an update was on", "update": "at every update",
           "claim": "as a claim, at every update"}


def _fact(f: FactResult) -> dict[str, Any]:
    r = f.rule
    return {
        "name": r.name, "origin": r.origin, "text": r.text, "statement": r.formula, "on_run": r.bound,
        "scope": r.scope, "holds": f.holds, "n_checked": f.n_checked, "skipped": f.skipped,
        "first_failure": None if f.holds is not False else {
            "update": f.update, "sample": f.sample, "values": {k: exact_text(v) for k, v in f.values}},
    }


def _where(fact: Mapping[str, Any]) -> str:
    failure = fact["first_failure"]
    where = []
    if failure["update"] is not None:
        where.append(f"update {failure['update']}")
    if failure["sample"] is not None:
        where.append(f"sample {failure['sample']}")
    values = ", ".join(f"{k} = {v}" for k, v in failure["values"].items())
    at = f" at {', '.join(where)}" if where else " on this run"
    return f"{at}" + (f" ({values})" if values else "")


def _sentence(p: Mapping[str, Any]) -> str:
    facts, n = p["hypotheses"], len(p["hypotheses"])
    failed = next((f for f in facts if f["holds"] is False), None)
    if failed is not None:
        return (f"hypothesis {failed['name']} ({failed['on_run']}) failed{_where(failed)}: the proof's conclusion "
                "is not a theorem about this run")
    skipped = [f for f in facts if f["holds"] is None]
    if skipped:
        return (f"{len(skipped)} of its {n} hypotheses could not be checked ({skipped[0]['skipped']}): its "
                "conclusion is not established for this run")
    c = p["conclusion"]
    here = f"; here N = {c['n_mistakes']}" + (f" and B = {c['bound']}" if c.get("bound") is not None else "")
    updates = "at its one update" if p["n_updates"] == 1 else f"at every one of the {p['n_updates']} updates"
    return (f"its {n} hypotheses held on the data and {updates}, so its "
            f"conclusion {c['statement']} is a theorem about this run{here if c['claim'] != 'averaged' else ''}")


def _entry(check: ProofCheck, conclusion: dict[str, Any]) -> dict[str, Any]:
    record = {
        "proof": check.proof.key, "title": check.proof.title, "mode": check.proof.mode,
        "holds": check.holds, "n_updates": check.n_updates, "conclusion": conclusion,
        "hypotheses": [_fact(f) for f in check.facts],
    }
    record["sentence"] = _sentence(record)
    return record


def proofs_applied_record(trace: Trace, check: CheckResult) -> list[dict[str, Any]]:
    """The ``proofs_applied`` list of the record: the note's (or batch mode's) proof; the averaged one is added
    by `averaged_proof_record`."""
    entries = []
    for p in check.proofs:
        if p.proof.key == "averaged":
            continue
        bound = check.own_bound
        claim = next((r for r in check.invariants if r.name == p.proof.conclusion), None)
        entries.append(_entry(p, {
            "claim": p.proof.conclusion, "statement": p.proof.statement,
            "bound": None if bound is None else exact_text(bound.value),
            "formula": None if bound is None else bound.formula,
            "n_mistakes": trace.n_mistakes, "claim_holds": None if claim is None else claim.holds}))
    return entries


def averaged_proof_record(check: CheckResult, averaged_holds: bool) -> dict[str, Any] | None:
    """The averaged perceptron's proof on the run (``verify --averaged``), or None in batch mode."""
    p = next((p for p in check.proofs if p.proof.key == "averaged"), None)
    if p is None:
        return None
    return _entry(p, {"claim": "averaged", "statement": p.proof.statement, "bound": None,
                      "formula": None, "n_mistakes": p.n_updates, "claim_holds": averaged_holds})


def proofs_applied_lines(report: Mapping[str, Any]) -> list[str]:
    """The text lines, or none when the record has no ``proofs_applied``."""
    entries = report.get("proofs_applied") or []
    if not entries:
        return []
    lines = ["", "theorems for this run (each proof's hypotheses, decided on the run):"]
    for p in entries:
        mark = {True: "ok", False: "NO", None: "--"}[p["holds"]]
        lines.append(f"  {mark:<3} proof {p['proof']}: {p['sentence']}")
        for f in p["hypotheses"]:
            fmark = {True: "ok", False: "NO", None: "--"}[f["holds"]]
            lines.append(f"        {fmark:<3} {f['name']:<10} {f['on_run']:<28} {_SCOPES[f['scope']]}")
    return lines


def proofs_applied_blocks(report: Mapping[str, Any]) -> list[Block]:
    """The Markdown and HTML section, or none."""
    entries = report.get("proofs_applied") or []
    if not entries:
        return []
    blocks: list[Block] = [
        Heading(2, "Theorems for this run", "proofs-applied"),
        Paragraph((("text", "Each proof's hypotheses, compiled from the proof's own statements, decided exactly "
                            "on this run; where all hold, the proof's conclusion is a theorem about this run."),)),
    ]
    for p in entries:
        blocks.append(Paragraph((("strong", f"Proof {p['proof']}"), ("text", f" ({p['title']}): {p['sentence']}."))))
        blocks.append(Bullets(tuple(
            (("text", f"{'held' if f['holds'] else 'FAILED' if f['holds'] is False else 'not checked'}: "
                      f"{f['name']} "), ("code", f["statement"]), ("text", ", on the run "), ("code", f["on_run"]),
             ("text", f", {_SCOPES[f['scope']]} ({f['text']})"))
            for f in p["hypotheses"])))
    return blocks
