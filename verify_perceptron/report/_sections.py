"""What a report document says, section by section, as blocks of the document model.

Every section reads only the report dictionary (and, where given, the data):
each number is the report's exact string or computed exactly from it (the
per-update values of the invariant curves, by
`verify_perceptron.report.plots.series.invariant_series`). `document` puts the
sections in order; `figure_captions` says what each figure shows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from ..data.dataset import Dataset
from ..data.exact_text import exact_text, read_exact
from ._document import Block, Bullets, Document, Figure, Heading, Paragraph, Span, Table
from .plots.series import (FIGURE_NAMES, available_figures, epoch_ends, hull_meeting, invariant_series, report_certificate,
                           resolution_notes)
from ._enclosures import angle_text, enclosure_text, root_text
from ._readable import exactly, readable, shown as shortened, written
from ._soft_margin import soft_margin_sentences
from ._proofs_applied import proofs_applied_blocks
from ._words import bracket, count, row_index_phrase, updates_heading, updates_shown

__all__ = ["document", "figure_captions"]


def _t(text: str) -> Span:
    return ("text", text)


def _c(text: str) -> Span:
    return ("code", text)


def _b(text: str) -> Span:
    return ("strong", text)


_MARKS = {True: "ok", False: "FAIL", None: "--"}

_VERDICTS = {
    "verified": "VERIFIED: every invariant held at every update",
    "violated": "VIOLATED: a claim of the proof failed (see the invariants)",
    "not-separable": "NOT SEPARABLE (certified): no separator exists; every invariant checked held",
    "stopped-separable": "VERIFIED AS FAR AS IT RAN: separable (a certified separator), stopped at a limit; every "
                         "invariant held at every update against that separator",
    "inconclusive": "INCONCLUSIVE: no convergence within the limits, and no proof that none is possible",
}


def _stop(r: Mapping[str, Any]) -> str:
    if r["stop"] == "converged":
        return f"converged: epoch {r['n_epochs']} made no mistake"
    if r["stop"] == "cycle" and r["cycle"]:
        e1, e2 = r["cycle"]["epochs"]
        return f"cycles: the weights after epoch {e2} equal those after epoch {e1}"
    if r["stop"] == "time-limit":
        return f"stopped at the time limit after {count(r['n_epochs'], 'epoch')}, not converged"
    return f"stopped at the epoch limit ({count(r['n_epochs'], 'epoch')}), not converged"


def _own_bound(r: Mapping[str, Any]) -> Mapping[str, Any] | None:
    own = [b for b in r["bounds"] if b["own"]]
    return own[0] if own else None


def figure_captions(report: Mapping[str, Any]) -> dict[str, str]:
    """One sentence per figure, with the report's own numbers; the documents print them under the figures.

    Examples
    --------
    >>> from verify_perceptron.pipeline import verify_run
    >>> from verify_perceptron.data.examples import example
    >>> from verify_perceptron.report.record import build_report
    >>> data = example("and")
    >>> print(figure_captions(build_report(data, *verify_run(data)))["invariants"])  # doctest: +NORMALIZE_WHITESPACE
    Top: at every update, w_k·w* stays above its lower bound N·a·γ and ‖w_k‖² below its upper bound N·a²·R²
    (their exact values are in the table of updates). Bottom, on log-log axes: by Cauchy-Schwarz
    (N·a·γ)²/‖w*‖² <= ‖w_k‖² <= N·a²·R²; the left side grows like N², the right like N, so they cross at
    N = 87, the mistake bound of note 000. This run stopped after 18. The curves draw every one of the run's
    18 updates.
    """
    r = report
    online = r["mode"] == "online"
    upper = "N·a²·R²" if online else "a²·R²·Σn² (n: the mistakes of each batch update)"
    own = _own_bound(r)
    captions = {
        "boundaries": (
            "The decision boundary v·x + b = 0 at the end of each epoch, over the samples, as in note 000's figure. "
            "The shaded side is predicted +1; ringed samples are still mistakes under the note's own rule "
            "(a score of exactly 0 counts as a mistake" + {"hard-limiter": ", or as class -1 for the hard limiter",
                                                           "hard-limiter-plus": ", or as class +1 for this hard limiter"
                                                           }.get(r["convention"], "") + ")."
        ),
        "certificate": (
            "No line separates the classes: Gordan's certificate λ (λ >= 0, Σλ = 1, Σ λ_i·y_i·x~_i = 0) puts "
            "weight 1/2 on each class, and Σ 2λ_i·x_i is then one point p of both classes' convex hulls. "
            "A separator would put p strictly on both sides at once."
        ),
        "projection": (
            f"The {r['dataset']['n_features']} features cannot be drawn, so the samples are shown in the plane spanned "
            "by the separator's normal v* and the final weights' normal v: both normals lie in it, so each boundary "
            "is a line there and every sample keeps the side of it that its exact score gives it."
        ),
        "bounds": (
            "Each note's mistake bound, bars in the order of the table, with the mistakes actually made marked. "
            + ("The runs are each note's own perceptron, online from w = 0 in the data's order."
               if r["comparison"] else "The mark is this run's number of mistakes.")
        ),
    }
    gamma = read_exact(r["constants"]["gamma"]) if r["constants"] else None
    if gamma is not None and gamma > 0 and online and own is not None:
        captions["invariants"] = (
            f"Top: at every update, w_k·w* stays above its lower bound N·a·γ and ‖w_k‖² below its upper bound "
            f"{upper} (their exact values are in the table of updates). Bottom, on log-log axes: by Cauchy-Schwarz "
            f"(N·a·γ)²/‖w*‖² <= ‖w_k‖² <= " + ("N·a²·β (note 003's form)" if r["convention"] == "sum-norm" else upper)
            + f"; the left side grows like N², the right like N, so they cross at N = {own['value']}, the mistake "
            f"bound of note {own['note'][:3]}. This run stopped after {r['n_mistakes']}."
        )
    elif gamma is not None and gamma > 0:
        captions["invariants"] = (
            f"At every update, w_k·w* stays above N·a·γ and ‖w_k‖² below {upper} (exact values in the table of "
            "updates). The notes prove no mistake bound for batch runs."
        )
    else:
        reason = ("The separator given does not separate the data (γ <= 0)" if gamma is not None
                  else "There is no separator")
        captions["invariants"] = (
            f"{reason}, so only the upper invariant applies: ‖w_k‖² stays below {upper} at every update, however "
            "long the run."
        )
    captions["invariants"] += " " + _drawn(r)
    return captions


def _drawn(r: Mapping[str, Any]) -> str:
    """Which updates the invariants figure draws, said truthfully."""
    points = r.get("invariant_points")
    if points and points["per_interval"] > 1:
        return (f"The curves cover all {r['n_updates']} updates, thinned exactly: of each interval of "
                f"{points['per_interval']} updates, the updates where either invariant's slack is least and greatest "
                f"are drawn ({len(points['k'])} in all), so no violation and no tightest point falls between two "
                "drawn points.")
    if r["updates_truncated"] and not points:
        return f"The curves cover the first {len(r['updates'])} of the run's {r['n_updates']} updates."
    return f"The curves draw every one of the run's {r['n_updates']} updates."

def _summary(r: Mapping[str, Any], enclosures: Mapping[str, Any] | None = None) -> Table:
    """The summary table of `r` (a record as shown); `enclosures`, the exact record's, give the square roots."""
    d = r["dataset"]
    floats = "; values read from binary floating point, converted exactly" if d["binary_float"] else ""
    floats += row_index_phrase(d)
    rows: list[tuple[str, str]] = [
        ("data", f"{d['source']}: {count(d['n_samples'], 'sample')}, {count(d['n_features'], 'feature')} "
                 f"({bracket(d['feature_names'])}); labels {d['labels']['negative']} -> -1, "
                 f"{d['labels']['positive']} -> +1{floats}"),
        ("convention", f"{r['convention']} (note {r['note'][:3]}: {r.get('note_title') or r['note']}): "
                       f"{r['convention_summary']}"),
        ("run", f"{r['mode']}, rate {r['eta']}, step size a = {r['step_size']}; from w = 0, samples in order"),
        ("outcome", f"{count(r['n_updates'], 'update')}, {count(r['n_mistakes'], 'mistake')}, "
                    f"{count(r['n_epochs'], 'epoch')}; {_stop(r)}"),
        ("final weights", f"{bracket(r['coordinates'])} = {bracket(r['final_weights'])}"),
    ]
    if r["separator"]:
        sep, c = r["separator"], r["constants"]
        note = f"; {sep['note']}" if sep.get("note") else ""
        rows.append(("separator w*", f"{bracket(sep['weights'])} ({sep['source']}{note})"))
        rows.append(("constants", f"γ = {c['gamma']}, R² = {c['R_sq']}, β = {c['beta']}, ‖w*‖² = {c['ws_sq']}"))
        roots = enclosure_text(enclosures)  # type: ignore[arg-type]
        if roots is not None:
            rows.append(("square roots", roots))
        angle = angle_text(enclosures)  # type: ignore[arg-type]
        if angle is not None:
            rows.append(("angle to w*", angle))
    else:
        rows.append(("separator w*", "none: the run did not converge and no separator was given"))
    own = _own_bound(r)
    if own is not None:
        proved = "" if r["mode"] == "online" else "; the note proves it for online runs only"
        rows.append(("mistake bound", f"{own['formula']} = {own['value']} (note {own['note'][:3]}, at w*); "
                                      f"mistakes made: {own['n_mistakes']}{proved}"))
    sep = r["separability"]
    if sep:
        state = {True: "yes", False: "no", None: "undecided"}[sep["separable"]]
        detail = sep["method"] if sep["certified"] else (sep["problem"] or "")
        rows.append(("separable", f"{state} ({detail})"))
    return Table("summary", ("", "value"), tuple(rows))


def _invariants(r: Mapping[str, Any]) -> list[Block]:
    rows = []
    for inv in r["invariants"]:
        at = "" if inv["min_slack_at"] is None else str(inv["min_slack_at"])
        rows.append((_MARKS[inv["holds"]], inv["name"], str(inv["n_checked"]), inv["min_slack"] or "", at, inv["claim"]))
    blocks: list[Block] = [
        Heading(2, "Invariants, checked exactly at every update", "invariants"),
        Paragraph((_t("Slack is the right side minus the left side: >= 0 when the claim holds. "
                      "The tightest slack over the whole run, and the first update where it occurs."),)),
        Table("invariants", ("", "invariant", "checked", "min slack", "at k", "claim"), tuple(rows),
              right=frozenset({2, 3, 4}), code=frozenset({1, 3, 5})),
    ]
    notes: list[tuple[Span, ...]] = []
    skipped: dict[str, list[str]] = {}
    for inv in r["invariants"]:
        if inv["first_violation"]:
            notes.append((_b(f"FAIL {inv['name']}: "), _t(inv["first_violation"]["text"])))
        elif inv["skipped"]:
            skipped.setdefault(inv["skipped"], []).append(inv["name"])
    for reason, names in skipped.items():
        notes.append((_t("not checked ("), _c(", ".join(names)), _t(f"): {reason}")))
    if notes:
        blocks.append(Bullets(tuple(notes)))
    return blocks


def _whole(value: int | str) -> str:
    """An integer of the record (a bound's floor) as text: the shortened record has it as text already."""
    return value if isinstance(value, str) else exact_text(value)


def _bounds(r: Mapping[str, Any], exact: Sequence[Mapping[str, Any]] = ()) -> list[Block]:
    """The bounds table of `r` (as shown); the `exact` record's bounds give each √value enclosure."""
    if not r["bounds"]:
        return []
    rows = []
    roots = [root_text(b.get("value_root")) for b in exact] or [""] * len(r["bounds"])
    for b, root in zip(r["bounds"], roots):
        constants = ", ".join(f"{k} = {v}" for k, v in b["constants"].items())
        rows.append((_MARKS[b["holds"]], b["note"][:3] + ("*" if b["own"] else ""), b["convention"], b["formula"],
                     constants, b["value"], _whole(b["value_floor"]), root, str(b["n_mistakes"])))
    batch = "" if r["mode"] == "online" else (
        " The notes prove these for online runs only, so none is judged here; note 003's form, N·γ² <= β·‖w*‖²,"
        " also holds in batch mode (derived here) and is checked at every update as mistake-bound-sum-batch.")
    return [
        Heading(2, "The notes' mistake bounds at this separator", "bounds"),
        Paragraph((_t("Squared forms, exact; √value is a rigorous enclosure (mpmath intervals) of the bound's "
                      "square root; * marks the run's own note. The mistakes are this run's." + batch),)),
        Table("bounds", ("", "note", "convention", "bound", "constants", "value", "⌊value⌋", "√value", "mistakes"),
              tuple(rows), right=frozenset({5, 6, 8}), code=frozenset({3, 4, 5})),
    ]


def _comparison(r: Mapping[str, Any]) -> list[Block]:
    c = r["comparison"]
    if c is None:
        return []
    blocks: list[Block] = [Heading(2, "How tight is each note's bound?", "comparison")]
    if c["separable"] is not True:
        state = "not separable: no note's bound applies" if c["separable"] is False else "separability undecided"
        return blocks + [Paragraph((_t(state + "."),))]
    mm = c["max_margin"]
    state = "certified optimal" if mm["certified"] else f"not certified optimal ({mm['problem']})"
    blocks.append(Paragraph((
        _t("Max-margin separator (b, v) = "), _c(bracket(mm["weights"])), _t(", ‖w‖² = "), _c(mm["norm_sq"]),
        _t(f", {state}; support vectors {bracket(mm['support'])}, multipliers "), _c(bracket(mm["multipliers"])),
        _t(". Each cell is the bound, then mistakes made / bound."),
    )))
    separators = [s["name"] for s in c["separators"] if not s.get("skipped")]
    by = {(b["convention"], b["separator"]): b for b in c["bounds"]}
    rows = []
    for run in c["runs"]:
        conv = run["convention"]
        note = next((b["note"][:3] for b in c["bounds"] if b["convention"] == conv), "")
        stop = "" if run["stop"] == "converged" else f" ({run['stop']})"
        cells = []
        for name in separators:
            b = by.get((conv, name))
            cells.append("" if b is None else f"{b['value']} ({b['ratio']})")
        rows.append((note, conv, f"{run['n_updates']}{stop}", *cells))
    blocks.append(Table("comparison", ("note", "convention", "mistakes", *separators), tuple(rows),
                        right=frozenset(range(2, 3 + len(separators))),
                        code=frozenset(range(3, 3 + len(separators)))))
    skipped = [s for s in c["separators"] if s.get("skipped")]
    items: list[tuple[Span, ...]] = [
        (_t(f"separator {s['name']} "), _c(bracket(s["weights"])), _t(f" skipped: {s['skipped']}")) for s in skipped]
    items += [(_t(finding),) for finding in c["findings"]]
    if items:
        blocks.append(Bullets(tuple(items)))
    return blocks


def _certificate(r: Mapping[str, Any], data: Dataset | None, exact: bool) -> list[Block]:
    lam = report_certificate(r)
    number = written if exact else shortened
    if lam is None:
        return []
    blocks: list[Block] = [Heading(2, "Why it cannot converge: the certificate", "certificate")]
    if r["cycle"] and r["cycle"]["certificate"]:
        e1, e2 = r["cycle"]["epochs"]
        epochs = f"epoch {e2}" if e2 == e1 + 1 else f"epochs {e1 + 1} to {e2}"
        origin = (f"the run's cycle: the updates of {epochs} sum to zero, and the mistakes per sample over "
                  "them, normalised, are λ")
    else:
        origin = f"the exact decision ({r['separability']['method']})"
    nonzero = [(i, v) for i, v in enumerate(lam) if v != 0]
    labels = r["dataset"]["labels"]
    if data is not None:
        header: tuple[str, ...] = ("sample", "λ_i", "class")
        classes = {1: f"+1 ({labels['positive']})", -1: f"-1 ({labels['negative']})"}
        rows: tuple[tuple[str, ...], ...] = tuple((str(i), number(v), classes[data.y[i]]) for i, v in nonzero)
    else:
        header, rows = ("sample", "λ_i"), tuple((str(i), number(v)) for i, v in nonzero)
    blocks.append(Paragraph((
        _t(f"From {origin}: λ >= 0, Σλ = 1 and Σ λ_i·y_i·x~_i = 0, checked exactly. "
           f"λ is nonzero at {len(nonzero)} of the {count(len(lam), 'sample')}:"),
    )))
    blocks.append(Table("lambda", header, rows, right=frozenset({0, 1}), code=frozenset({1})))
    if data is not None:
        meeting = hull_meeting(data, lam)
        point = "(" + ", ".join(number(v) for v in meeting.point) + ")"
        blocks.append(Paragraph((
            _t("So each class has weight 1/2, and p = Σ over either class of 2λ_i·x_i is the same point, "),
            _c(point), _t(", in both classes' convex hulls: no line (no hyperplane) can have it strictly on both "
                          "sides, so no separator exists and the perceptron can never converge."),
        )))
    return blocks


def _last_start(r: Mapping[str, Any], last: Sequence[Mapping[str, Any]]) -> tuple[int, int]:
    """N and Σn² before the record's last updates: the run's totals less theirs (Σn² from its drawn points)."""
    points = r.get("invariant_points")
    total_sq = points["sum_n_sq"][-1] if points else r["n_mistakes"]
    return (r["n_mistakes"] - sum(len(u["samples"]) for u in last),
            total_sq - sum(len(u["samples"]) ** 2 for u in last))


def _updates(r: Mapping[str, Any], data: Dataset | None, max_updates: int, shown: Mapping[str, Any],
             exact: bool) -> list[Block]:
    """The updates table: the first updates and the run's last ones (`updates_shown`); values from `shown`
    (shortened, or whole with `exact`), the invariants' sides from `r`'s series at those updates."""
    if not r["updates"]:
        return []
    number = written if exact else shortened
    first, last = updates_shown(r, max_updates)
    tail = r.get("last_updates") or []
    s = invariant_series(r, data, whole_run=False)
    s_last = (invariant_series(r, data, updates=tail, start=_last_start(r, tail)) if tail
              else s)
    online = r["mode"] == "online"
    upper = "N·a²·R²" if online else "a²·R²·Σn²"
    header = ["k", "epoch", "sample" if online else "samples", "score", "w_k", "N"]
    with_separator = s.w_ws is not None and s.lower is not None
    if with_separator:
        header += ["w_k·w*", "N·a·γ"]
    header += ["‖w_k‖²"] + ([upper] if s.upper is not None else [])
    shown_at = {u["k"]: u for u in shown["updates"]} | {u["k"]: u for u in shown.get("last_updates") or []}
    rows = []
    for u in first + ([None] if last else []) + last:
        if u is None:
            rows.append(("…", "", "", "", f"({last[0]['k'] - first[-1]['k'] - 1} more)", *[""] * (len(header) - 5)))
            continue
        series = s if u["k"] in s.k and u["k"] <= r["updates"][-1]["k"] else s_last
        i = series.k.index(u["k"])
        v = shown_at[u["k"]]
        row = [str(u["k"]), str(u["epoch"]), ", ".join(map(str, v["samples"])), ", ".join(v["scores"]),
               bracket(v["weights"]), str(series.n_mistakes[i])]
        if with_separator:
            assert series.w_ws is not None and series.lower is not None
            row += [number(series.w_ws[i]), number(series.lower[i])]
        row.append(number(series.w_sq[i]))
        if series.upper is not None:
            row.append(number(series.upper[i]))
        rows.append(tuple(row))
    note = ""
    if len(first) + len(last) < r["n_updates"]:
        note = (f" Shown: {updates_heading(r, first, last)}; every one was checked "
                "(verify --trace FILE writes them all).")
    return [
        Heading(2, "Every update, and the invariants' two sides", "updates"),
        Paragraph((_t("Samples are numbered from 0; the score is w_(k-1)·x~ of the sample that caused the update; "
                      f"w_k is in the convention's coordinates {bracket(shown['coordinates'])}. "
                      + ("All values exact." if exact else "Numbers are written as docs/numbers.md says; the JSON "
                         "and --exact have them exact.") + note),)),
        Table("updates", tuple(header), tuple(rows), right=frozenset(range(len(header))) - {4},
              code=frozenset(range(3, len(header))) - {5}, folded=len(rows) > 25,
              summary=f"{updates_heading(r, first, last)} (click to show)"),
    ]


def _epochs(r: Mapping[str, Any], level: int, exact: bool = True) -> list[Block]:
    """The weights at each epoch's end; unless `exact`, long vectors shortened and long numbers as decimals."""
    ends = epoch_ends(r)
    if not ends or len(ends) > 60:
        return []

    def shown(values: Iterable[Fraction]) -> str:
        return bracket([written(v) for v in values] if exact else readable(list(values)))

    rows = tuple((str(e.epoch), str(e.k), shown(e.weights), f"({shown([e.bias])[1:-1]}, {shown(e.normal)})")
                 for e in ends)
    return [
        Heading(level, "Weights at the end of each epoch", "epochs"),
        Table("epochs", ("epoch", "after update", "w", "(b, v): score v·x + b"), rows, right=frozenset({0, 1}),
              code=frozenset({2, 3}), folded=len(rows) > 25, summary=f"{count(len(rows), 'epoch')} (click to show)"),
    ]


_FOOTER = ("Generated by verify-perceptron from its JSON report (schema version {v}). Numbers are written as "
           "docs/numbers.md says: a decimal exactly where it has one, a rounded value marked as approximate "
           "(exact in the JSON and with --exact); the figures convert them to floating point only to draw.")

_FIGURE_TITLES = {
    "boundaries": "Decision boundaries, epoch by epoch",
    "projection": "The data in the plane of w* and the final weights",
    "certificate": "Where the classes' convex hulls meet",
    "invariants": "The two invariants of the proof",
    "bounds": "Mistake bounds and mistakes made",
}


def _soft_margin(r: Mapping[str, Any]) -> list[Block]:
    sentences = soft_margin_sentences(r, r["dataset"]["n_samples"])
    if not sentences:
        return []
    return [
        Heading(2, "The mistake bound that needs no separator", "soft-margin"),
        Paragraph((_t("Freund and Schapire (1999), after Block and Novikoff; derived here, not in the notes: "
                      "for any u and ρ > 0, N·ρ² <= (R·‖u‖ + D)² with D² the mistakes' squared shortfalls. "
                      "It is checked at every update as "), _c("soft-margin-bound"), _t("."))),
        Bullets(tuple((_t(sentence),) for sentence in sentences)),
    ]


def _left_out(names: Sequence[str], left_out: Mapping[str, str]) -> list[Block]:
    """One sentence for each reason some figures were not drawn, naming them (in `FIGURE_NAMES` order)."""
    reasons: dict[str, list[str]] = {}
    for name in FIGURE_NAMES:
        if name in left_out and name not in names:
            reasons.setdefault(left_out[name], []).append(_FIGURE_TITLES[name].lower())
    return [Paragraph((_t(f"{'Figures' if len(titles) > 1 else 'Figure'} left out ({'; '.join(titles)}): {reason}."),))
            for reason, titles in reasons.items()]


def document(report: Mapping[str, Any], data: Dataset | None, figure_names: Iterable[str], *,
             title: str | None, description: str | None, command: str | None, max_updates: int,
             exact: bool = False, left_out: Mapping[str, str] | None = None) -> Document:
    """The whole document: verdict and summary, the figures named (in `FIGURE_NAMES` order), then the tables.

    `left_out` gives, for figures that apply but were not drawn, why not: the
    document says so in one sentence per reason, where the figures would be.
    """
    r = report
    if data is not None:
        available_figures(r, data)  # checks that the data are the report's
    doc = Document(title or f"Perceptron report: {r['dataset']['source']}",
                   f"{_VERDICTS[r['verdict']]} (exit code {r['exit_code']})",
                   footer=_FOOTER.format(v=r["schema_version"]))
    if description:
        doc.blocks.append(Paragraph((_t(description),)))
    if command:
        doc.blocks.append(Paragraph((_t("Reproduce with: "), _c(command))))
    doc.blocks.append(Paragraph((_b(doc.verdict),), css=f"verdict {r['verdict']}"))
    # numbers for reading, of the updates the table lists only (the record keeps hundreds); figures use `r`, exact
    listed = {u["k"] for part in updates_shown(r, max_updates) for u in part}
    shown = dict(r, invariant_points=None, updates=[u for u in r["updates"] if u["k"] in listed],
                 last_updates=[u for u in r.get("last_updates") or [] if u["k"] in listed])
    shown = exactly(shown) if exact else readable(shown)
    if shown.get("advice"):  # written as every other number is (docs/numbers.md)
        doc.blocks.append(Paragraph((_t(f"Advice: {shown['advice']}."),)))
    doc.blocks.append(Heading(2, "Summary", "summary"))
    doc.blocks.append(_summary(shown, r.get("enclosures")))
    captions = figure_captions(r)
    for name, note in resolution_notes(r, data).items():
        captions[name] += " " + note
    captions = captions if exact else readable(captions)
    names = [n for n in FIGURE_NAMES if n in set(figure_names)]
    doc.blocks += _left_out(names, left_out or {})
    for name in names:
        doc.blocks.append(Heading(2, _FIGURE_TITLES[name], f"figure-{name}"))
        doc.blocks.append(Figure(name, _FIGURE_TITLES[name], (_t(captions[name]),)))
        if name == "boundaries":
            doc.blocks += _epochs(r, 3, exact)
    if "boundaries" not in names:
        features = r["dataset"]["n_features"]
        if names and features != 2 and "projection" not in names:  # a reader with figures would look for one
            doc.blocks.append(Paragraph((_t(f"No decision-boundary figure: it is drawn in the plane, for two "
                                            f"features, and these data have {features}."),)))
        doc.blocks += _epochs(r, 2, exact)
    doc.blocks += _invariants(shown)
    doc.blocks += proofs_applied_blocks(shown)
    doc.blocks += _bounds(shown, r["bounds"])
    doc.blocks += _soft_margin(shown)
    doc.blocks += _comparison(shown)
    doc.blocks += _certificate(r, data, exact)
    doc.blocks += _updates(r, data, max_updates, shown, exact)
    return doc
