"""The HTML renderer: a `Document` as one self-contained page, figures inside as SVG ``data:`` URIs, no script."""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Mapping, Sequence

from ._document import Bullets, Document, Heading, Paragraph, Span, Table
from ._words import approximately

__all__ = ["to_html"]

_CSS = """
:root { color-scheme: light; }
body { margin: 0; background: #fff; color: #1f2328;
       font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1120px; margin: 0 auto; padding: 20px 28px 56px; }
h1 { font-size: 1.75em; margin: 0.3em 0 0.5em; }
h2 { font-size: 1.3em; margin: 1.9em 0 0.5em; padding-bottom: 0.2em; border-bottom: 1px solid #d8dee4; }
h3 { font-size: 1.08em; margin: 1.4em 0 0.4em; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: 0.9em; }
p code { background: #f3f4f6; padding: 0.05em 0.3em; border-radius: 4px; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: 0.6em 0 1em; font-size: 0.92em; }
th, td { border: 1px solid #d0d7de; padding: 4px 9px; text-align: left; vertical-align: top; }
th { background: #f3f5f7; font-weight: 600; }
tbody tr:nth-child(even) td { background: #fafbfc; }
td.r, th.r { text-align: right; white-space: nowrap; }
#summary td:first-child, #invariants td:nth-child(2) { white-space: nowrap; }
#summary td:first-child { font-weight: 600; }
.approx { text-decoration: underline dotted #8c959f; cursor: help; }
td.ok { color: #1a7f37; font-weight: 600; } td.fail { color: #cf222e; font-weight: 700; } td.skip { color: #6e7781; }
.verdict { padding: 10px 14px; border-left: 6px solid; border-radius: 6px; }
.verdict.verified { background: #e9f6ec; border-color: #1a7f37; }
.verdict.violated { background: #ffebe9; border-color: #cf222e; }
.verdict.not-separable { background: #fff4e0; border-color: #bc4c00; }
.verdict.inconclusive { background: #f3f4f6; border-color: #6e7781; }
figure { margin: 0.8em 0 1.2em; }
figure img { display: block; max-width: 100%; height: auto; margin: 0 auto; }
figcaption { color: #3d444d; font-size: 0.93em; margin-top: 0.5em; }
details > summary { cursor: pointer; color: #0550ae; margin: 0.4em 0; }
footer { margin-top: 3em; color: #6e7781; font-size: 0.85em; }
@media print { figure, table { break-inside: avoid; } details > * { display: block; } }
""".strip()


#: A shortened value as the renderers write it (docs/numbers.md): ``≈ -1.23457e+16``.
_APPROXIMATE = re.compile(r"≈ -?\d+(?:\.\d+)?(?:e[+-]\d+)?")


def _titled(text: str, titles: Mapping[str, str]) -> str:
    """`text` escaped, each ``≈`` value whose exact value is known in a ``<span title>`` (the tooltip)."""
    text = approximately(text)
    out, at = [], 0
    for m in _APPROXIMATE.finditer(text):
        title = titles.get(m.group())
        if title is None:
            continue
        out += [html.escape(text[at:m.start()], quote=False),
                f'<span class="approx" title="{html.escape(title)}">{html.escape(m.group(), quote=False)}</span>']
        at = m.end()
    return "".join(out) + html.escape(text[at:], quote=False)


def _html_spans(spans: Sequence[Span], titles: Mapping[str, str] | None = None) -> str:
    tags = {"code": "code", "strong": "strong"}
    out = []
    for kind, text in spans:
        body = _titled(text, titles or {})
        out.append(f"<{tags[kind]}>{body}</{tags[kind]}>" if kind in tags else body)
    return "".join(out)


def _html_table(t: Table, titles: Mapping[str, str] | None = None) -> list[str]:
    marks = {"ok": "ok", "FAIL": "fail", "--": "skip"}

    def cell(j: int, text: str, tag: str) -> str:
        classes = []
        if j in t.right:
            classes.append("r")
        if tag == "td" and j == 0 and text in marks and t.header[0] == "":
            classes.append(marks[text])
        attr = f' class="{" ".join(classes)}"' if classes else ""
        body = _titled(text, titles or {}) if tag == "td" else html.escape(text, quote=False)
        if tag == "td" and j in t.code and text not in ("", "…"):
            body = f"<code>{body}</code>"
        return f"<{tag}{attr}>{body}</{tag}>"

    lines = [f'<div class="scroll"><table id="{t.anchor}">',
             "<thead><tr>" + "".join(cell(j, h, "th") for j, h in enumerate(t.header)) + "</tr></thead>", "<tbody>"]
    lines += ["<tr>" + "".join(cell(j, c, "td") for j, c in enumerate(row)) + "</tr>" for row in t.rows]
    lines.append("</tbody></table></div>")
    if t.folded:
        return [f"<details><summary>{html.escape(t.summary)}</summary>", *lines, "</details>"]
    return lines


def _svg_uri(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def to_html(doc: Document, figures: Mapping[str, str], titles: Mapping[str, str] | None = None) -> str:
    """The document as an HTML page; each figure is ``figures[name]``, SVG text, embedded; each ``≈`` value in
    `titles` (`verify_perceptron.report._readable.exact_titles`) has its exact value as its tooltip."""
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{html.escape(doc.title)}</title>", f"<style>\n{_CSS}\n</style>", "</head>", "<body>", "<main>",
           f"<h1>{html.escape(doc.title)}</h1>"]
    for block in doc.blocks:
        if isinstance(block, Heading):
            out.append(f'<h{block.level} id="{block.anchor}">{html.escape(block.text)}</h{block.level}>')
        elif isinstance(block, Paragraph):
            css = f' class="{block.css}"' if block.css else ""
            out.append(f"<p{css}>{_html_spans(block.spans, titles)}</p>")
        elif isinstance(block, Bullets):
            out += ["<ul>", *(f"<li>{_html_spans(item, titles)}</li>" for item in block.items), "</ul>"]
        elif isinstance(block, Table):
            out += _html_table(block, titles)
        else:
            out += [f'<figure id="fig-{block.name}">',
                    f'<img src="{_svg_uri(figures[block.name])}" alt="{html.escape(block.alt)}">',
                    f"<figcaption>{_html_spans(block.caption)}</figcaption>", "</figure>"]
    out += [f"<footer>{html.escape(doc.footer)}</footer>", "</main>", "</body>", "</html>"]
    return "\n".join(out) + "\n"
