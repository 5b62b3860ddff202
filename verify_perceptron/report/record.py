"""The invariant report: one record, rendered as JSON for machines and as text for people.

`build_report` gathers the data, the run, the checks and the bounds into a
plain dictionary whose layout is the documented JSON schema (every exact
number is a string such as ``"-22/25"``); `render_text` lays the same record
out as tables. Both renderers read only that dictionary, so the text and the
JSON cannot disagree.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ..certify.certificates import certificate_from_cycle, gordan_defect
from ..check.checker import CheckResult, InvariantResult
from ..certify.comparison import BoundComparison, OrderStatistics
from ..notes.conventions import get_convention
from ..data.dataset import Dataset
from ..certify.separability import Separability
from ..data.trace import Trace

__all__ = [
    "SCHEMA_VERSION", "EXIT_CODES", "build_report", "render_json", "render_text", "comparison_report",
    "comparison_lines", "orders_lines",
]

#: Bumped whenever a key of the JSON report changes meaning or disappears.
SCHEMA_VERSION = 1

#: verdict -> process exit code
EXIT_CODES = {"verified": 0, "not-separable": 0, "violated": 1, "inconclusive": 3}

_QUANTITY_NAMES = {
    "gamma": "γ = min_i y_i·w*·x~_i",
    "R_sq": "R² = max_i ‖x~_i‖²",
    "beta": "β = Σ_i ‖x~_i‖²",
    "ws_sq": "‖w*‖²",
}


def _q(value: Fraction | int | None) -> str | None:
    return None if value is None else str(value)


def _vector(values: Sequence[Fraction]) -> list[str]:
    return [str(v) for v in values]


def _invariant(result: InvariantResult) -> dict[str, Any]:
    violation = result.first_violation
    return {
        "name": result.name,
        "claim": result.text,
        "source": result.source,
        "holds": result.holds,
        "n_checked": result.n_checked,
        "min_slack": _q(result.min_slack),
        "min_slack_at": result.min_slack_at,
        "skipped": result.skipped,
        "first_violation": None if violation is None else {
            "update": violation.k or None,
            "epoch": violation.epoch or None,
            "samples": list(violation.samples),
            "message": violation.message or None,
            "values": {name: str(value) for name, value in violation.values},
            "text": violation.describe(result.text),
        },
    }


def build_report(
    data: Dataset,
    trace: Trace,
    check: CheckResult,
    *,
    separability: Separability | None = None,
    comparison: BoundComparison | None = None,
) -> dict[str, Any]:
    """The report as a JSON-ready dictionary (schema version `SCHEMA_VERSION`).

    Examples
    --------
    >>> from verify_perceptron.check.checker import check_trace
    >>> from verify_perceptron.run.reference import train
    >>> from verify_perceptron.data.examples import example
    >>> data = example("and")
    >>> trace = train(data)
    >>> report = build_report(data, trace, check_trace(data, trace))
    >>> report["verdict"], report["final_weights"], report["n_updates"]
    ('verified', ['-4', '3', '2'], 18)
    """
    conv = get_convention(trace.convention)
    certificate = certificate_from_cycle(trace)
    certificate_problem = None if certificate is None else gordan_defect(data, certificate)
    online = trace.mode == "online"
    bounds = [
        {
            "note": b.note,
            "convention": b.convention,
            "own": b.convention == conv.name,
            "formula": b.formula,
            "constants": {name: str(value) for name, value in b.constants},
            "value": str(b.value),
            "value_floor": b.value.numerator // b.value.denominator,
            "separator": check.separator_source,
            "n_mistakes": trace.n_mistakes,
            "n_updates": trace.n_mistakes,
            "holds": trace.n_mistakes <= b.value if online else None,
        }
        for b in check.bounds
    ]
    if not check.holds or any(b["holds"] is False for b in bounds):
        verdict = "violated"
    elif trace.converged and check.complete:
        verdict = "verified"
    elif (certificate is not None and certificate_problem is None) or (
            separability is not None and separability.separable is False and separability.certified):
        verdict = "not-separable"
    else:
        verdict = "inconclusive"
    g = check.geometry
    return {
        "schema_version": SCHEMA_VERSION,
        "verdict": verdict,
        "exit_code": EXIT_CODES[verdict],
        "convention": conv.name,
        "note": conv.note,
        "convention_summary": conv.summary,
        "mode": trace.mode,
        "eta": str(trace.rate),
        "step_size": str(conv.step_size(trace.rate)),
        "dataset": {
            "source": data.source,
            "n_samples": data.n_samples,
            "n_features": data.n_features,
            "feature_names": list(data.feature_names),
            "binary_float": data.binary_float,
            "labels": {"negative": data.labels[0], "positive": data.labels[1]},
        },
        "converged": trace.converged,
        "stop": trace.stop,
        "n_updates": trace.n_updates,
        "n_mistakes": trace.n_mistakes,
        "n_epochs": trace.n_epochs,
        "coordinates": conv.weight_names(data.n_features),
        "final_weights": _vector(trace.final_weights),
        "mistakes_per_sample": list(trace.mistakes_per_sample),
        "separator": None if check.separator is None else {
            "source": check.separator_source,
            "weights": _vector(check.separator),
            "note": check.separator_note,
        },
        "constants": None if g is None else {
            "gamma": str(g.gamma), "R_sq": str(g.R_sq), "beta": str(g.beta), "ws_sq": str(g.ws_sq),
        },
        "separable": None if separability is None else separability.separable,
        "certificate": None if separability is None else separability.as_dict()["certificate"],
        "separability": None if separability is None else separability.as_dict(),
        "invariants": [_invariant(r) for r in check.invariants],
        "bounds": bounds,
        "cycle": None if trace.cycle is None else {
            "epochs": list(trace.cycle),
            "certificate": None if certificate is None else _vector(certificate),
            "certificate_valid": certificate_problem is None,
            "certificate_problem": certificate_problem,
        },
        "comparison": None if comparison is None else comparison.as_dict(),
        "updates_truncated": trace.updates_truncated,
        "updates": [
            {
                "k": u.k,
                "epoch": u.epoch,
                "samples": list(u.samples),
                "scores": _vector(u.scores),
                "delta": _vector(u.delta),
                "weights": _vector(u.weights),
            }
            for u in trace.updates
        ],
    }


def comparison_report(data: Dataset, comparison: BoundComparison, orders: OrderStatistics | None) -> dict[str, Any]:
    """The `bounds` command's record: the comparison, and the presentation orders if run."""
    record = comparison.as_dict()
    return {
        "schema_version": SCHEMA_VERSION,
        "dataset": {"source": data.source, "n_samples": data.n_samples, "n_features": data.n_features},
        **record,
        "orders": None if orders is None else orders.as_dict(),
    }


def comparison_lines(c: dict[str, Any]) -> list[str]:
    """Text tables of a comparison record: one row per note, one column per separator."""
    out: list[str] = []
    mm = c["max_margin"]
    if c["separable"] is False:
        out.append("not separable: no note's bound applies; λ = " + _bracket(c["certificate"]["values"]))
        return out
    if c["separable"] is None:
        out.append("separability undecided: " + "; ".join(c["findings"]))
        return out
    state = "certified optimal" if mm["certified"] else f"NOT certified optimal ({mm['problem']})"
    out.append(f"max-margin separator (b, v) = {_bracket(mm['weights'])}, ‖w‖² = {mm['norm_sq']}, {state}; "
               f"support vectors {mm['support']}, multipliers {_bracket(mm['multipliers'])}")
    separators = [s["name"] for s in c["separators"] if s.get("skipped") is None]
    for s in c["separators"]:
        if s.get("skipped"):
            out.append(f"separator {s['name']} {_bracket(s['weights'])} skipped: {s['skipped']}")
    out.append("bounds of the five notes at each separator (mistakes made / bound)")
    rows = [["note", "convention", "mistakes", *separators]]
    by = {(b["convention"], b["separator"]): b for b in c["bounds"]}
    for run in c["runs"]:
        conv = run["convention"]
        cells = []
        for name in separators:
            b = by.get((conv, name))
            cells.append("" if b is None else f"{b['value']} ({b['ratio']})")
        note = next((b["note"] for b in c["bounds"] if b["convention"] == conv), "")
        stop = "" if run["stop"] == "converged" else f" ({run['stop']})"
        rows.append([note, conv, f"{run['n_updates']}{stop}", *cells])
    out += _table(rows, align="<<>" + ">" * len(separators))
    for finding in c["findings"]:
        out.append(f"  - {finding}")
    return out


def orders_lines(o: dict[str, Any]) -> list[str]:
    """Text table of the mistakes over presentation orders."""
    out = [f"mistakes over {o['orders']} random presentation orders (seed {o['seed']})"]
    for title, key in (("sampled", "sampled"), ("every order", "exhaustive")):
        if not o[key]:
            continue
        rows = [["convention", "orders", "min", "median", "max", "worst order"]]
        for c in o[key]:
            rows.append([c["convention"], str(c["n_orders"]), str(c["min"]), str(c["median"]), str(c["max"]),
                         _bracket([str(i) for i in c["worst_order"]])])
        out.append(f"  {title}:")
        out += _table(rows, align="<>>>><")
    for note in o["notes"]:
        out.append(f"  - {note}")
    return out


def render_json(report: dict[str, Any]) -> str:
    """The report as indented JSON text."""
    return json.dumps(report, indent=2, ensure_ascii=False) + "\n"


def _table(rows: list[list[str]], *, align: str) -> list[str]:
    """Columns padded to their widest cell; ``align`` has one ``<`` or ``>`` per column."""
    widths = [max(len(row[j]) for row in rows) for j in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [cell.ljust(w) if a == "<" else cell.rjust(w) for cell, w, a in zip(row, widths, align)]
        lines.append("  " + "  ".join(cells).rstrip())
    return lines


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _bracket(values: Sequence[str]) -> str:
    return "[" + ", ".join(values) + "]"


def _mark(holds: bool | None) -> str:
    return {True: "ok", False: "FAIL", None: "--"}[holds]


def render_text(report: dict[str, Any], *, max_updates: int = 60) -> str:
    """The report as text tables, for a terminal.

    At most `max_updates` updates are listed (the first and the last ones);
    every update is checked whatever is listed.
    """
    r = report
    d = r["dataset"]
    out: list[str] = []
    labels = f"labels {d['labels']['negative']} -> -1, {d['labels']['positive']} -> +1"
    floats = "; values read from binary floating point, converted exactly" if d["binary_float"] else ""
    out.append(f"data        {d['source']}: {d['n_samples']} samples, {d['n_features']} features ({labels}{floats})")
    out.append(f"convention  {r['convention']} (note {r['note']}): {r['convention_summary']}")
    stop = {
        "converged": f"converged: epoch {r['n_epochs']} made no mistake",
        "max-epochs": f"stopped at the epoch limit ({r['n_epochs']} epochs) without converging",
        "time-limit": f"stopped at the time limit after {r['n_epochs']} epochs without converging",
        "cycle": f"cycles: the weights after epoch {r['cycle']['epochs'][1]} equal those after epoch {r['cycle']['epochs'][0]}"
        if r["cycle"] else "cycles",
    }[r["stop"]]
    out.append(f"run         {r['mode']}, rate {r['eta']} (step size a = {r['step_size']}); "
               f"{_count(r['n_updates'], 'update')}, {_count(r['n_mistakes'], 'mistake')}, "
               f"{_count(r['n_epochs'], 'epoch')}; {stop}")
    out.append(f"final w     {_bracket(r['coordinates'])} = {_bracket(r['final_weights'])}")
    if r["separator"]:
        c = r["constants"]
        sep = r["separator"]
        note = f"; {sep['note']}" if sep["note"] else ""
        out.append(f"separator   w* = {_bracket(sep['weights'])} ({sep['source']}{note})")
        out.append(f"constants   γ = {c['gamma']}, R² = {c['R_sq']}, β = {c['beta']}, ‖w*‖² = {c['ws_sq']}"
                   "   (γ = min y·w*·x~, R² = max ‖x~‖², β = Σ ‖x~‖²)")
    else:
        out.append("separator   none: the run did not converge and no --separator was given")
    out.append("")
    updates = r["updates"]
    out.append("updates (samples numbered from 0; score = w_(k-1)·x~ of the sample that caused the update)")
    if updates:
        rows = [["k", "epoch", "sample", "score", "w_k"]]
        shown = updates if len(updates) <= max_updates else updates[: max_updates - 10] + [None] + updates[-10:]
        for u in shown:
            if u is None:
                rows.append(["...", "", "", "", f"({len(updates) - max_updates} more)"])
                continue
            rows.append([str(u["k"]), str(u["epoch"]), ",".join(map(str, u["samples"])),
                         ",".join(u["scores"]), _bracket(u["weights"])])
        out += _table(rows, align=">>>><")
        if r["updates_truncated"]:
            out.append(f"  (the report keeps the first {len(updates)} of {r['n_updates']} updates; every one was "
                       "checked; --trace FILE writes them all)")
    else:
        out.append("  (none)")
    out.append("")
    out.append("invariants, checked exactly at every update (slack = right side - left side, >= 0 when it holds)")
    rows = [["", "invariant", "checked", "min slack", "at k", "claim"]]
    for inv in r["invariants"]:
        at = "" if inv["min_slack_at"] is None else str(inv["min_slack_at"])
        rows.append([_mark(inv["holds"]), inv["name"], str(inv["n_checked"]), inv["min_slack"] or "", at, inv["claim"]])
    out += _table(rows, align="<<>>><")
    skipped: dict[str, list[str]] = {}
    for inv in r["invariants"]:
        if inv["first_violation"]:
            out.append(f"  FAIL {inv['name']}: {inv['first_violation']['text']}")
        elif inv["skipped"]:
            skipped.setdefault(inv["skipped"], []).append(inv["name"])
    for reason, names in skipped.items():
        out.append(f"  -- not checked ({', '.join(names)}): {reason}")
    if r["bounds"]:
        out.append("")
        out.append("the five notes' mistake bounds at this separator (squared forms, exact)")
        rows = [["", "note", "convention", "bound", "= value", "mistakes"]]
        for b in r["bounds"]:
            own = "*" if b["own"] else ""
            rows.append([_mark(b["holds"]), b["note"][:3] + own, b["convention"], b["formula"], b["value"], str(b["n_mistakes"])])
        out += _table(rows, align="<<<<>>")
        out.append("  (* the convention's own note" + ("" if r["mode"] == "online" else "; the notes prove these for online mode only") + ")")
    sep = r["separability"]
    if sep and sep["separable"] is False and not r["cycle"]:
        out.append("")
        out.append(f"not separable ({sep['method']}): λ = {_bracket(sep['certificate']['values'])} satisfies λ >= 0, "
                   "Σλ = 1, Σ λ_i·y_i·x~_i = 0, checked exactly: the two classes' convex hulls meet, no separator "
                   "exists, and the perceptron can never converge")
    elif sep and sep["separable"] is None and r["stop"] != "converged":
        out.append("")
        out.append(f"separability undecided: {sep['problem']}")
    if r["comparison"]:
        out.append("")
        out += comparison_lines(r["comparison"])
    if r["cycle"]:
        cyc = r["cycle"]
        out.append("")
        e1, e2 = cyc["epochs"]
        span = f"epoch {e2}" if e2 == e1 + 1 else f"epochs {e1 + 1} to {e2}"
        out.append(f"not separable: over {span} the updates sum to zero, so "
                   f"λ = {_bracket(cyc['certificate'])} (mistakes per sample, normalised) satisfies λ >= 0, Σλ = 1, "
                   f"Σ λ_i·y_i·x~_i = 0: "
                   + ("checked exactly, no separator exists and the perceptron can never converge"
                      if cyc["certificate_valid"] else f"INVALID: {cyc['certificate_problem']}"))
    out.append("")
    verdicts = {
        "verified": "VERIFIED: every invariant held at every update",
        "violated": "VIOLATED: " + ", ".join(i["name"] for i in r["invariants"] if i["holds"] is False
                                            ) + ("" if not any(b["holds"] is False for b in r["bounds"]) else " (and a mistake bound)"),
        "not-separable": "NOT SEPARABLE (certified); every invariant that needs no separator held",
        "inconclusive": "INCONCLUSIVE: no convergence and no proof that none is possible; raise --max-epochs",
    }
    out.append(f"verdict: {verdicts[r['verdict']]} (exit code {r['exit_code']})")
    return "\n".join(out) + "\n"
