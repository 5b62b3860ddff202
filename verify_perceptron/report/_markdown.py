"""The Markdown renderer: a `Document` as GitHub-flavoured Markdown, every special character escaped."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ._document import Bullets, Document, Heading, Paragraph, Span, Table

__all__ = ["to_markdown"]

# Characters that could start emphasis, code, links, HTML, strikethrough or split a table cell.
_MD_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_<|~"})


def _md_text(text: str) -> str:
    return text.translate(_MD_SPECIAL)


def _md_code(text: str, *, in_table: bool = False) -> str:
    if not text:
        return ""
    fence = "``" if "`" in text else "`"
    body = text.replace("|", "\\|") if in_table else text
    return f"{fence}{body}{fence}"


def _md_spans(spans: Sequence[Span]) -> str:
    out = []
    for kind, text in spans:
        if kind == "code":
            out.append(_md_code(text))
        elif kind == "strong":
            out.append(f"**{_md_text(text)}**")
        else:
            out.append(_md_text(text))
    return "".join(out)


def _md_table(t: Table) -> list[str]:
    def cell(j: int, text: str) -> str:
        return _md_code(text, in_table=True) if j in t.code and text not in ("", "…") else _md_text(text)

    lines = ["| " + " | ".join(_md_text(h) if h else " " for h in t.header) + " |",
             "|" + "|".join("---:" if j in t.right else "---" for j in range(len(t.header))) + "|"]
    lines += ["| " + " | ".join(cell(j, c) for j, c in enumerate(row)) + " |" for row in t.rows]
    return lines


def to_markdown(doc: Document, links: Mapping[str, str]) -> str:
    """The document as Markdown; each figure is an image linked as ``links[name]``."""
    out = [f"# {_md_text(doc.title)}", ""]
    for block in doc.blocks:
        if isinstance(block, Heading):
            out += ["#" * block.level + " " + _md_text(block.text), ""]
        elif isinstance(block, Paragraph):
            out += [_md_spans(block.spans), ""]
        elif isinstance(block, Bullets):
            out += ["- " + _md_spans(item) for item in block.items] + [""]
        elif isinstance(block, Table):
            out += _md_table(block) + [""]
        else:
            out += [f"![{_md_text(block.alt)}]({links[block.name]})", "", _md_spans(block.caption), ""]
    out.append(_md_text(doc.footer))
    return "\n".join(out) + "\n"
