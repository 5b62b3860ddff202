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

import re
import textwrap
from typing import Any

from ..data.exact_text import read_exact
from ._averaged import averaged_lines
from ._proofs_applied import proofs_applied_lines
from .visible import displayed
from ._decimals import decimal_down, decimal_up
from ._enclosures import enclosure_line
from ._readable import readable
from ._soft_margin import soft_margin_sentences
from ._words import approximately, bracket, count, row_index_phrase

__all__ = ["render_text", "comparison_lines", "orders_lines"]


def _table(rows: list[list[str]], *, align: str) -> list[str]:
    """Columns padded to their widest cell; ``align`` has one ``<`` or ``>`` per column."""
    widths = [max(len(row[j]) for row in rows) for j in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [cell.ljust(w) if a == "<" else cell.rjust(w) for cell, w, a in zip(row, widths, align)]
        lines.append("  " + "  ".join(cells).rstrip())
    return lines


def _mark(holds: bool | None) -> str:
    return {True: "ok", False: "FAIL", None: "--"}[holds]


def comparison_lines(c: dict[str, Any], *, exact: bool = False) -> list[str]:
    """Text tables of a comparison record: one row per note, one column per separator (shortened unless `exact`)."""
    return [approximately(line) for line in _comparison_lines(c, exact=exact)]


def _comparison_lines(c: dict[str, Any], *, exact: bool = False) -> list[str]:
    whole, c = c, (c if exact else readable(c))  # the enclosures round their exact ends outward themselves
    out: list[str] = []
    mm = c["max_margin"]
    if c["separable"] is False:
        out.append("not separable: no note's bound applies; λ = " + bracket(c["certificate"]["values"]))
        return out + _soft_margin_rows(whole, readable_too=not exact)
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
    out += _table(rows, align="<<>" + ">" * len(separators))
    for finding in c["findings"]:  # prose: wrapped to stay readable on a terminal
        out += textwrap.wrap(approximately(finding), 150, initial_indent="  - ", subsequent_indent="    ")
    return out + _batch_lines(c, separators)


def _soft_margin_rows(c: dict[str, Any], *, readable_too: bool = False) -> list[str]:
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
    return out + _table(rows, align="<><><")


def _batch_lines(c: dict[str, Any], separators: list[str]) -> list[str]:
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
    return out + _table(rows, align="<>>" + ">" * len(separators))


def orders_lines(o: dict[str, Any]) -> list[str]:
    """Text table of the mistakes over presentation orders."""
    out = [f"mistakes over {o['orders']} random presentation orders (seed {o['seed']})"]
    for title, key in (("sampled", "sampled"), ("every order", "exhaustive")):
        if not o[key]:
            continue
        rows = [["convention", "orders", "min", "median", "max", "worst order"]]
        for c in o[key]:
            rows.append([c["convention"], str(c["n_orders"]), str(c["min"]), str(c["median"]), str(c["max"]),
                         bracket([str(i) for i in c["worst_order"]])])
        out.append(f"  {title}:")
        out += _table(rows, align="<>>>><")
    for note in o["notes"]:
        out.append(f"  - {note}")
    return out


# --------------------------------------------------------------------------------------------
# The sections of `render_text`, in the order it prints them
# --------------------------------------------------------------------------------------------


def _run_lines(r: dict[str, Any], enclosures: dict[str, Any] | None) -> list[str]:
    """The data, the convention, the run and its outcome, the final weights and the separator; `enclosures`,
    the exact record's, give the square roots (numbers are read from the exact record only)."""
    d = r["dataset"]
    labels = f"labels {d['labels']['negative']} -> -1, {d['labels']['positive']} -> +1"
    floats = "; values read from binary floating point, converted exactly" if d["binary_float"] else ""
    floats += row_index_phrase(d)
    out = [f"data        {d['source']}: {d['n_samples']} samples, {d['n_features']} features ({labels}{floats})",
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


_MORE = re.compile(r"… (\d+) more( non-zero)? …")


def _cut_vector(entries: list[str], room: int) -> str:
    """``[...]`` of `entries` in at most `room` characters (while it keeps its first entry), the entries
    taken out folded into the ``… N more …`` count; a sparse vector's ``(N zeros)`` stays last.

    Examples
    --------
    >>> _cut_vector(["1", "2", "3", "4", "… 25 more …", "8", "9"], 24)
    '[1, … 28 more …, 8, 9]'
    >>> _cut_vector(["-60", "-34", "173", "-38", "73"], 22)
    '[-60, … 3 more …, 73]'
    >>> _cut_vector(["1: -1", "5: 2", "7: 3", "11: 1", "… 10 more non-zero …", "19: 4", "20: 5", "(99980 zeros)"], 40)
    '[1: -1, … 15 more non-zero …, (99980 zeros)]'
    >>> _cut_vector(["1: -1", "99999: 1", "(99998 zeros)"], 20)  # no shorter with a marker
    '[1: -1, 99999: 1, (99998 zeros)]'
    """
    tail = [entries[-1]] if entries and re.fullmatch(r"\(\d+ zeros\)", entries[-1]) else []
    body = entries[: len(entries) - len(tail)]
    noun = " non-zero" if tail else ""
    at = next((i for i, e in enumerate(body) if _MORE.fullmatch(e)), None)
    while len(bracket(body + tail)) > room:
        if at is None:
            if len(body) < 3 - bool(tail):
                break
            at = len(body) - (2 if not tail else 1)
            body.insert(at, f"… 0 more{noun} …")
        hidden = int(_MORE.fullmatch(body[at]).group(1))  # type: ignore[union-attr]
        if at > 1:  # take the entry before the marker
            del body[at - 1]
            at -= 1
        elif len(body) - at > 1:  # else the ones after it, the last one included
            del body[at + 1]
        else:
            break
        body[at] = f"… {hidden + 1} more{noun} …"
    cut, whole = bracket(body + tail), bracket(entries)
    return cut if len(cut) < len(whole) else whole  # a marker may cost more than the entry it replaced


def _cut(cell: str, room: int) -> str:
    """A list of samples or scores in at most `room` characters, cut after a whole entry: ``1,2,…``.

    Examples
    --------
    >>> _cut("0,1,2,3,4,5", 6), _cut("123456789", 5)
    ('0,1,…', '123456789')
    """
    if len(cell) <= room:
        return cell
    entries = cell.split(",")
    for keep in range(len(entries) - 1, 0, -1):
        shorter = ",".join(entries[:keep] + ["…"])
        if len(shorter) <= room or keep == 1:
            return shorter
    return cell


def _fitted(rows: list[list[str]], width: int) -> list[list[str]]:
    """The updates table's rows with samples, scores and w_k cut so that each line has at most `width`
    characters, where that leaves each of them some room; k and epoch are never cut."""
    widths = [max(len(row[j]) for row in rows) for j in range(5)]
    room = width - 2 - 2 * 4 - widths[0] - widths[1]  # the indent, four gaps, k and epoch
    if sum(widths[2:]) <= room:
        return rows
    share = max(8, room // 4)
    caps = [min(widths[2], share), min(widths[3], share)]
    caps.append(max(12, room - sum(caps)))

    def vector(cell: str, cap: int) -> str:  # the header's "w_k" and the "(N more)" row are not vectors
        return _cut_vector(cell[1:-1].split(", "), cap) if cell.startswith("[") and len(cell) > cap else cell

    return [row[:2] + [_cut(row[2], caps[0]), _cut(row[3], caps[1]), vector(row[4], caps[2])] for row in rows]


def _update_lines(r: dict[str, Any], max_updates: int, width: int | None = None) -> list[str]:
    """The updates table: all of them, or the first and the last 10 when there are more than `max_updates`;
    cut to `width` characters a line when it is given (a terminal's width)."""
    updates = r["updates"]
    out = ["updates (samples numbered from 0; score = w_(k-1)·x~ of the sample that caused the update)"]
    if not updates:
        return out + ["  (none)"]
    rows = [["k", "epoch", "sample", "score", "w_k"]]
    shown = updates if len(updates) <= max_updates else updates[: max_updates - 10] + [None] + updates[-10:]
    for u in shown:
        if u is None:
            rows.append(["...", "", "", "", f"({len(updates) - max_updates} more)"])
            continue
        rows.append([str(u["k"]), str(u["epoch"]), ",".join(map(str, u["samples"])),
                     ",".join(u["scores"]), bracket(u["weights"])])
    out += _table(rows if width is None else _fitted(rows, width), align=">>>><")
    if r["updates_truncated"]:
        out.append(f"  (the report keeps the first {len(updates)} of {r['n_updates']} updates; every one was "
                   "checked; --trace FILE writes them all)")
    return out


def _invariant_lines(r: dict[str, Any]) -> list[str]:
    """The invariants table, then each first violation and the reasons claims went unchecked."""
    out = ["invariants, checked exactly at every update (slack = right side - left side, >= 0 when it holds)"]
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
    return out


def _bound_lines(r: dict[str, Any]) -> list[str]:
    """The notes' bounds at the separator (hard-limiter-plus takes note 001's); nothing without one."""
    if not r["bounds"]:
        return []
    out = ["", "the notes' mistake bounds at this separator (squared forms, exact)"]
    rows = [["", "note", "convention", "bound", "= value", "mistakes"]]
    for b in r["bounds"]:
        own = "*" if b["own"] else ""
        rows.append([_mark(b["holds"]), b["note"][:3] + own, b["convention"], b["formula"], b["value"], str(b["n_mistakes"])])
    out += _table(rows, align="<<<<>>")
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


def render_text(report: dict[str, Any], *, max_updates: int = 60, exact: bool = False,
                width: int | None = None) -> str:
    """The report as text tables, for a terminal.

    At most `max_updates` updates are listed (the first and the last ones);
    every update is checked whatever is listed. Long numbers and vectors
    are shortened for reading (`verify_perceptron.report._readable`) unless
    `exact`; the JSON always has them whole. Given `width` (a terminal's
    columns), the updates table's samples, scores and weights are cut to
    fit it, after a whole entry and with ``…`` (never with `exact`).
    """
    report = displayed(report)  # the data's names and labels with their control characters escaped
    r = report if exact else readable(report)
    out = _run_lines(r, report.get("enclosures")) + [""]
    out += _update_lines(r, max_updates, None if exact else width) + [""]
    out += _invariant_lines(r)
    out += _bound_lines(r)
    out += _soft_margin_lines(r)
    out += averaged_lines(r)
    out += proofs_applied_lines(r)
    out += _separability_lines(r)
    if r["comparison"]:
        out += [""] + comparison_lines(report["comparison"], exact=exact)  # the exact record: it shortens it
    out += _cycle_lines(r)
    out += [""] + ([f"advice: {r['advice']}"] if r.get("advice") else []) + [_verdict_line(r)]
    return approximately("\n".join(out) + "\n")
