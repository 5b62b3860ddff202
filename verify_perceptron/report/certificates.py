"""A certificate record (`verify_perceptron.certify.evidence`) as the JSON file ``--certificate FILE`` writes.

The file is ASCII JSON: every number exact text, a vector or a sample on one
line, so a reviewer can read it and a diff shows which number changed.
`verify_perceptron.audit` reads it back (docs/certificates.md).

Examples
--------
>>> text = render_certificate({"certificate": "verify-perceptron", "version": 1, "rows": [["1", "0"], ["-1", "2"]]})
>>> print(text, end="")
{
 "certificate": "verify-perceptron",
 "version": 1,
 "rows": [
  ["1", "0"],
  ["-1", "2"]
 ]
}
>>> json.loads(text)["rows"][1]
['-1', '2']
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["render_certificate"]


def _flat(value: Any) -> bool:
    """A value written on one line: a scalar, a list of scalars, or a dict of at most four scalars."""
    if isinstance(value, dict):
        return len(value) <= 4 and all(not isinstance(v, (dict, list)) for v in value.values())
    return not isinstance(value, list) or all(not isinstance(v, (dict, list)) for v in value)


def _lines(value: Any, indent: int) -> list[str]:
    pad = " " * (indent + 1)
    if _flat(value) or (isinstance(value, dict) and not value):
        return [json.dumps(value, ensure_ascii=True)]
    if isinstance(value, dict):
        items = [(json.dumps(key, ensure_ascii=True) + ": ", item) for key, item in value.items()]
        opening, closing = "{", "}"
    else:
        items = [("", item) for item in value]
        opening, closing = "[", "]"
    lines = [opening]
    for i, (key, item) in enumerate(items):
        inner = _lines(item, indent + 1)
        inner[0] = pad + key + inner[0]
        inner[-1] += "," if i < len(items) - 1 else ""
        lines += inner
    return lines + [" " * indent + closing]


def render_certificate(record: dict[str, Any]) -> str:
    """The certificate as JSON text, ending with a newline."""
    return "\n".join(_lines(record, 0)) + "\n"
