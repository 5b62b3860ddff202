"""The document model: a report laid out once as blocks (headings, paragraphs, tables, figures).

`verify_perceptron.report._sections` fills a `Document` from a report; the
Markdown and HTML renderers (`_markdown`, `_html`) only walk its blocks, so
the two formats show the same things in the same order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Block", "Bullets", "Document", "Figure", "Heading", "Paragraph", "Span", "Table"]

#: Inline text: ``("text", ...)`` plain, ``("code", ...)`` (exact numbers and formulas), or ``("strong", ...)``.
Span = tuple[str, str]


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    anchor: str


@dataclass(frozen=True)
class Paragraph:
    spans: tuple[Span, ...]
    css: str = ""


@dataclass(frozen=True)
class Bullets:
    items: tuple[tuple[Span, ...], ...]


@dataclass(frozen=True)
class Table:
    """Rows of cells; each cell is text, shown as code when its column is in `code`."""

    anchor: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    right: frozenset[int] = frozenset()
    code: frozenset[int] = frozenset()
    folded: bool = False
    summary: str = ""


@dataclass(frozen=True)
class Figure:
    name: str
    alt: str
    caption: tuple[Span, ...]


Block = Heading | Paragraph | Bullets | Table | Figure


@dataclass
class Document:
    """The title, the verdict line, the blocks in order, and the closing line."""

    title: str
    verdict: str
    blocks: list[Block] = field(default_factory=list)
    footer: str = ""
