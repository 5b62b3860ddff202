"""Everything formatted for people: the report record (JSON schema), text and JSON, Markdown
and HTML documents, and the figures (matplotlib loads only in `report.plots`).
May import every part but `harness`, `proofs` and the CLI."""
