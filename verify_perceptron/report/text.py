"""The report record as plain text for a terminal: aligned tables, one section after another.

Everything here reads only the dictionaries of `verify_perceptron.report.record`
(`build_report`, `comparison_report`), so the text says what the JSON says.

Examples
--------
>>> from verify_perceptron.pipeline import verify_run
>>> from verify_perceptron.data.examples import example
>>> from verify_perceptron.report.record import build_report
>>> data = example("and")
>>> print(render_text(build_report(data, *verify_run(data))).splitlines()[-1])
verdict: VERIFIED: every invariant held at every update (exit code 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..data.exact_text import read_exact
from ._averaged import averaged_lines
from ._proofs_applied import proofs_applied_lines
from .visible import displayed
from ._decimals import decimal_down, decimal_up
from ._enclosures import enclosure_line
from ._readable import exactly, readable
from ._soft_margin import soft_margin_sentences
from ._width import fit_lines, fit_table
from .schema import Report
from ._words import approximately, bracket, count, row_index_phrase, updates_heading, updates_shown

__all__ = ["render_text", "comparison_lines", "data_line", "orders_lines", "fit_lines"]


def _table(rows: list[list[str]], *, align: str, width: int | None = None, kinds: str | None = None) -> list[str]:
    """Columns padded to their widest cell; ``align`` has one ``<`` or ``>`` per column. Given `width`, laid out
    to it by the one rule of `verify_perceptron.report._width` (`kinds`: which columns may be cut or wrapped)."""
    return fit_table(rows, align, width, kinds=kinds)


def _mark(holds: bool | None) -> str:
    return {True: "ok", False: "FAIL", None: "--"}[holds]


def comparison_lines(c: dict[str, Any], *, exact: bool = False, width: int | None = None) -> list[str]:
    """Text tables of a comparison record: one row per note, one column per separator (shortened unless `exact`);
    given `width` (never with `exact`), every line fits it (`verify_perceptron.report._width`)."""
    width = None if exact else width
    return fit_lines([approximately(line) for line in _comparison_lines(c, exact=exact, width=width)], width)


def _comparison_lines(c: dict[str, Any], *, exact: bool = False, width: int | None = None) -> list[str]:
    whole, c = c, (exactly(c) if exact else readable(c))  # the enclosures round their exact ends outward themselves
    out: list[str] = []
    mm = c["max_margin"]
    if c["separable"] is False:
        out.append("not separable: no note's bound applies; λ = " + bracket(c["certificate"]["values"]))
        return out + _soft_margin_rows(whole, readable_too=not exact, width=width)
    if c["separable"] is None:
        out.append("separability undecided: " + "; ".join(c["findings"]))
        return out
    state = "certified optimal" if mm["certified"] else f"NOT certified optimal ({mm['problem']})"
    out.append(f"max-margin separator (b, v) = {bracket(mm['weights'])}, ‖w‖² = {mm['norm_sq']}, {state}")
    out.append(f"  support vectors {bracket(mm['support'])}, multipliers {bracket(mm['multipliers'])}")
    separators = [s["name"] for s in c["separators"] if s.get("skipped") is None]
    for s in c["separators"]:
        if s.get("skipped"):
            out.append(f"separator {s['name']} {bracket(s['weights'])} skipped: {s['skipped']}")
    out.append("the notes' bounds at each separator (mistakes made / bound)")
    rows = [["note", "convention", "mistakes", *separators]]
    by = {(b["convention"], b["separator"]): b for b in c["bounds"]}
    for run in c["runs"]:
        conv = run["convention"]
        cells = []
        for name in separators:
            b = by.get((conv, name))
            cells.append("" if b is None else f"{b['value']} ({b['ratio']})")
        note = next((b["note"][:3] for b in c["bounds"] if b["convention"] == conv), "")
        stop = "" if run["stop"] == "converged" else f" ({run['stop']})"
        rows.append([note, conv, f"{run['n_updates']}{stop}", *cells])
    out += _table(rows, align="<<>" + ">" * len(separators), width=width, kinds="kkk" + "w" * len(separators))
    # prose: wrapped to stay readable, at the width when there is one
    out += fit_lines([f"  - {approximately(finding)}" for finding in c["findings"]], width or 150)
    return out + _batch_lines(c, separators, width)


def _soft_margin_rows(c: dict[str, Any], *, readable_too: bool = False, width: int | None = None) -> list[str]:
    """Each convention's online run beside the bound without separation; nothing when there are none.

    `c` is the exact record: each enclosure's ends are rounded outward here (a shortened ``≈`` value has
    lost its direction); with `readable_too`, ρ and u are shortened for reading.
    """
    entries = c.get("soft_margin") or []
    if not entries:
        return []
    out = ["the bound without separation, N <= ((R‖u‖ + D)/ρ)² (Freund and Schapire 1999; derived here, not in the "
           "notes), at each online run's end, u the best weights it visited, D over its mistakes"]
    rows = [["convention", "mistakes", "bound (enclosure)", "ρ", "u"]]
    for e in entries:
        stop = "" if e["stop"] == "converged" else f" ({e['stop']})"
        bound = "no u with a positive margin" if e["bound"] is None else \
            f"[{decimal_down(read_exact(e['bound']['lower']))}, {decimal_up(read_exact(e['bound']['upper']))}]"
        rho, reference = (readable(e["rho"]), readable(e["reference"])) if readable_too else (e["rho"], e["reference"])
        rows.append([e["convention"], f"{e['n_mistakes']}{stop}", bound, rho or "", reference or ""])
    return out + _table(rows, align="<><><", width=width, kinds="kkwkv")


def _batch_lines(c: dict[str, Any], separators: list[str], width: int | None = None) -> list[str]:
    """Note 003's bound beside each convention's batch run (derived here); nothing without batch runs."""
    runs = c.get("batch_runs") or []  # absent from records written before batch runs were compared
    if not runs:
        return []
    out = ["note 003's bound β·‖w‖²/γ² in batch mode, for every convention (derived here, not in the notes; "
           "batch mistakes / bound)"]
    rows = [["convention", "updates", "mistakes", *separators]]
    by = {(b["convention"], b["separator"]): b for b in c.get("batch_bounds") or []}
    for run in runs:
        conv = run["convention"]
        cells = []
        for name in separators:
            b = by.get((conv, name))
            cells.append("" if b is None else f"{b['value']} ({b['ratio']})")
        stop = "" if run["stop"] == "converged" else f" ({run['stop']})"
        rows.append([conv, str(run["n_updates"]), f"{run['n_mistakes']}{stop}", *cells])
    return out + _table(rows, align="<>>" + ">" * len(separators), width=width, kinds="kkk" + "w" * len(separators))


def orders_lines(o: dict[str, Any], *, width: int | None = None) -> list[str]:
    """Text table of the mistakes over presentation orders; given `width`, every line fits it."""
    out = [f"mistakes over {o['orders']} random presentation orders (seed {o['seed']})"]
    for title, key in (("sampled", "sampled"), ("every order", "exhaustive")):
        if not o[key]:
            continue
        rows = [["convention", "orders", "min", "median", "max", "worst order"]]
        for c in o[key]:
            rows.append([c["convention"], str(c["n_orders"]), str(c["min"]), str(c["median"]), str(c["max"]),
                         bracket([str(i) for i in c["worst_order"]])])
        out.append(f"  {title}:")
        out += _table(rows, align="<>>>><", width=width, kinds="kkkkkv")
    for note in o["notes"]:
        out.append(f"  - {note}")
    return fit_lines(out, width)


# --------------------------------------------------------------------------------------------
# The sections of `render_text`, in the order it prints them
# --------------------------------------------------------------------------------------------


def data_line(d: Mapping[str, Any]) -> str:
    """The report's first line: what was read from where (a record's ``dataset``, its names already escaped by
    `displayed`): samples, features, how the labels were mapped, binary floats, a row index left out.

    Examples
    --------
    >>> data_line({"source": "d.csv", "n_samples": 3, "n_features": 2, "binary_float": False,
    ...            "labels": {"negative": "B", "positive": "M"}, "row_index": None})
    'data        d.csv: 3 samples, 2 features (labels B -> -1, M -> +1)'
    """
    labels = f"labels {d['labels']['negative']} -> -1, {d['labels']['positive']} -> +1"
    floats = "; values read from binary floating point, converted exactly" if d["binary_float"] else ""
    floats += row_index_phrase(d)
    return f"data        {d['source']}: {d['n_samples']} samples, {d['n_features']} features ({labels}{floats})"


def _run_lines(r: dict[str, Any], enclosures: dict[str, Any] | None) -> list[str]:
    """The data, the convention, the run and its outcome, the final weights and the separator; `enclosures`,
    the exact record's, give the square roots (numbers are read from the exact record only)."""
    out = [data_line(r["dataset"]),
           f"convention  {r['convention']} (note {r['note'][:3]}: {r.get('note_title') or r['note']}): "
           f"{r['convention_summary']}"]
    stop = {
        "converged": f"converged: epoch {r['n_epochs']} made no mistake",
        "max-epochs": f"stopped at the epoch limit ({r['n_epochs']} epochs) without converging",
        "time-limit": f"stopped at the time limit after {r['n_epochs']} epochs without converging",
        "cycle": f"cycles: the weights after epoch {r['cycle']['epochs'][1]} equal those after epoch {r['cycle']['epochs'][0]}"
        if r["cycle"] else "cycles",
    }[r["stop"]]
    out.append(f"run         {r['mode']}, rate {r['eta']} (step size a = {r['step_size']}); "
               f"{count(r['n_updates'], 'update')}, {count(r['n_mistakes'], 'mistake')}, "
               f"{count(r['n_epochs'], 'epoch')}; {stop}")
    out.append(f"final w     {bracket(r['coordinates'])} = {bracket(r['final_weights'])}")
    if r["separator"]:
        c = r["constants"]
        sep = r["separator"]
        note = f"; {sep['note']}" if sep["note"] else ""
        out.append(f"separator   w* = {bracket(sep['weights'])} ({sep['source']}{note})")
        out.append(f"constants   γ = {c['gamma']}, R² = {c['R_sq']}, β = {c['beta']}, ‖w*‖² = {c['ws_sq']}"
                   "   (γ = min y·w*·x~, R² = max ‖x~‖², β = Σ ‖x~‖²)")
        roots = enclosure_line(enclosures)
        if roots:
            out.append(roots)
    else:
        out.append("separator   none: the run did not converge and no --separator was given")
    return out


def _update_lines(r: dict[str, Any], max_updates: int, width: int | None = None) -> list[str]:
    """The updates table: all of them, or the first ones and the run's last ones when there are more than
    `max_updates`; laid out to `width` characters a line when it is given (a terminal's width)."""
    if not r["updates"]:
        return ["updates: none"]
    first, last = updates_shown(r, max_updates)
    out = [f"{updates_heading(r, first, last)} (samples numbered from 0; score = w_(k-1)·x~ of the sample that "
           "caused the update)"]
    rows = [["k", "epoch", "sample", "score", "w_k"]]
    for u in first + ([None] if last else []) + last:
        if u is None:
            rows.append(["...", "", "", "", f"({last[0]['k'] - first[-1]['k'] - 1} more)"])
            continue
        rows.append([str(u["k"]), str(u["epoch"]), ",".join(map(str, u["samples"])),
                     ",".join(u["scores"]), bracket(u["weights"])])
    out += _table(rows, align=">>>><", width=width, kinds="kkllv")
    if len(first) + len(last) < r["n_updates"]:
        out.append("  (every update was checked; --trace FILE writes them all)")
    return out


def _invariant_lines(r: dict[str, Any], width: int | None = None) -> list[str]:
    """The invariants table, then each first violation and the reasons claims went unchecked."""
    out = ["invariants, checked exactly at every update (slack = right side - left side, >= 0 when it holds)"]
    rows = [["", "invariant", "checked", "min slack", "at k", "claim"]]
    for inv in r["invariants"]:
        at = "" if inv["min_slack_at"] is None else str(inv["min_slack_at"])
        rows.append([_mark(inv["holds"]), inv["name"], str(inv["n_checked"]), inv["min_slack"] or "", at, inv["claim"]])
    out += _table(rows, align="<<>>><", width=width, kinds="kkkkkw")
    skipped: dict[str, list[str]] = {}
    for inv in r["invariants"]:
        if inv["first_violation"]:
            out.append(f"  FAIL {inv['name']}: {inv['first_violation']['text']}")
        elif inv["skipped"]:
            skipped.setdefault(inv["skipped"], []).append(inv["name"])
    for reason, names in skipped.items():
        out.append(f"  -- not checked ({', '.join(names)}): {reason}")
    return out


def _bound_lines(r: dict[str, Any], width: int | None = None) -> list[str]:
    """The notes' bounds at the separator (hard-limiter-plus takes note 001's); nothing without one."""
    if not r["bounds"]:
        return []
    out = ["", "the notes' mistake bounds at this separator (squared forms, exact)"]
    rows = [["", "note", "convention", "bound", "= value", "mistakes"]]
    for b in r["bounds"]:
        own = "*" if b["own"] else ""
        rows.append([_mark(b["holds"]), b["note"][:3] + own, b["convention"], b["formula"], b["value"], str(b["n_mistakes"])])
    out += _table(rows, align="<<<<>>", width=width, kinds="kkkwkk")
    batch = ("; the notes prove these for online mode only; note 003's also holds in batch mode, for every "
             "convention (derived here): mistake-bound-sum-batch above")
    out.append("  (* the convention's own note" + ("" if r["mode"] == "online" else batch) + ")")
    return out


def _soft_margin_lines(r: dict[str, Any]) -> list[str]:
    """The soft-margin bound's constants and values; nothing when it was not computed."""
    sentences = soft_margin_sentences(r, r["dataset"]["n_samples"])
    if not sentences:
        return []
    return ["", "the mistake bound that needs no separator (Freund and Schapire 1999; derived here, not in the "
                "notes): N·ρ² <= (R·‖u‖ + D)², checked above as soft-margin-bound"] + [f"  {s}" for s in sentences]


def _separability_lines(r: dict[str, Any]) -> list[str]:
    """The exact decision's certificate of non-separability, or why it is undecided (when it matters)."""
    sep = r["separability"]
    if sep and sep["separable"] is False and not r["cycle"]:
        return ["", f"not separable ({sep['method']}): λ = {bracket(sep['certificate']['values'])} satisfies λ >= 0, "
                    "Σλ = 1, Σ λ_i·y_i·x~_i = 0, checked exactly: the two classes' convex hulls meet, no separator "
                    "exists, and the perceptron can never converge"]
    if sep and sep["separable"] is None and r["stop"] != "converged":
        return ["", f"separability undecided: {sep['problem']}"]
    return []


def _cycle_lines(r: dict[str, Any]) -> list[str]:
    """The certificate read off the run's cycle; nothing when the run did not cycle."""
    cyc = r["cycle"]
    if not cyc:
        return []
    e1, e2 = cyc["epochs"]
    span = f"epoch {e2}" if e2 == e1 + 1 else f"epochs {e1 + 1} to {e2}"
    return ["", f"not separable: over {span} the updates sum to zero, so "
                f"λ = {bracket(cyc['certificate'])} (mistakes per sample, normalised) satisfies λ >= 0, Σλ = 1, "
                f"Σ λ_i·y_i·x~_i = 0: "
                + ("checked exactly, no separator exists and the perceptron can never converge"
                   if cyc["certificate_valid"] else f"INVALID: {cyc['certificate_problem']}")]


def _verdict_line(r: dict[str, Any]) -> str:
    verdicts = {
        "verified": "VERIFIED: every invariant held at every update",
        "violated": "VIOLATED: " + ", ".join(i["name"] for i in r["invariants"] if i["holds"] is False
                                            ) + ("" if not any(b["holds"] is False for b in r["bounds"]) else " (and a mistake bound)"),
        "not-separable": "NOT SEPARABLE (certified); every invariant checked held",
        "stopped-separable": f"VERIFIED AS FAR AS IT RAN: separable (w* = the {(r['separator'] or {}).get('source')} "
                             f"separator); the run stopped at the {'time' if r['stop'] == 'time-limit' else 'epoch'} "
                             f"limit after {count(r['n_updates'], 'update')}, and every invariant held at every one",
        "inconclusive": "INCONCLUSIVE: no convergence and no proof that none is possible",
    }
    return f"verdict: {verdicts[r['verdict']]} (exit code {r['exit_code']})"


def render_text(report: Report | Mapping[str, Any], *, max_updates: int = 60, exact: bool = False,
                width: int | None = None) -> str:
    """The report as text tables, for a terminal.

    At most `max_updates` updates are listed (the first and the last ones);
    every update is checked whatever is listed. Numbers are written by the
    rule of docs/numbers.md (`verify_perceptron.report._readable`): long ones
    shortened unless `exact`; the JSON always has them whole. Given `width`
    (a terminal's columns, ``COLUMNS`` or ``--width``), every table and line
    fits it, by the one rule of `verify_perceptron.report._width` (never with
    `exact`).
    """
    shown = displayed(report)  # the data's names and labels with their control characters escaped
    r = exactly(shown) if exact else readable(shown)
    width = None if exact else width
    out = _run_lines(r, shown.get("enclosures")) + [""]
    out += _update_lines(r, max_updates, width) + [""]
    out += _invariant_lines(r, width)
    out += _bound_lines(r, width)
    out += _soft_margin_lines(r)
    out += averaged_lines(r)
    out += proofs_applied_lines(r)
    out += _separability_lines(r)
    if r["comparison"]:
        out += [""] + comparison_lines(shown["comparison"], exact=exact, width=width)  # it shortens the exact record
    out += _cycle_lines(r)
    out += [""] + ([f"advice: {r['advice']}"] if r.get("advice") else []) + [_verdict_line(r)]
    return "\n".join(fit_lines(approximately("\n".join(out)).split("\n"), width)) + "\n"
