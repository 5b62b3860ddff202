r"""Text made safe to show: every control character a terminal or a viewer would act on is shown as an escape.

Labels, feature names and file names come from the user's data, and
arguments from the command line; shown raw, an ESC sequence among them
drives the terminal (clears it, recolours it, retitles the window), a
carriage return overwrites the line before it, and a bidirectional override
(U+202E) makes a line read other than its characters. `visible` is the one
function that makes them visible, ``\x1b`` and ``\u202e``, wherever text is
emitted for people: the terminal (every line the command line prints, usage
errors included), the text, Markdown and HTML reports and the figures. In
JSON the escape is JSON's own (`visible_json`), so the document stays valid
and the value reads back unchanged.

Shown escaped: the C0 controls (U+0000 to U+001F), DEL (U+007F), the C1
controls (U+0080 to U+009F), the bidirectional marks, embeddings, overrides
and isolates (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069),
the line and paragraph separators (U+2028, U+2029), and the lone
surrogates by which Python holds a file name's bytes that are not UTF-8.
A whole document keeps its newlines and tabs (``lines=True``); one value
(a label, a name, an error message of one line) shows them too.

Examples
--------
>>> print(visible("red\x1b[31m label\r\n"))
red\x1b[31m label\r\n
>>> visible("a\tb\n", lines=True) == "a\tb\n"
True
>>> visible("abc\u202edcba")
'abc\\u202edcba'
>>> visible_json('"\x85\u2066"')
'"\\u0085\\u2066"'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["visible", "visible_json", "displayed"]

_SHOWN = ("\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
          "\ud800-\udfff")
#: What a whole document may keep: newline and tab.
_IN_DOCUMENT = re.compile(f"[{_SHOWN}]")
#: What one value may not keep: newline and tab too.
_IN_VALUE = re.compile(f"[\t\n{_SHOWN}]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code == 0x09:
        return "\\t"
    if code == 0x0A:
        return "\\n"
    if code == 0x0D:
        return "\\r"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str, *, lines: bool = False) -> str:
    r"""`text` with every control character shown as an escape (``\x1b``, ``\r``, ``\u202e``), never obeyed.

    Parameters
    ----------
    text : str
    lines : bool
        Keep newlines and tabs (a whole document, a report of many lines);
        by default they are shown escaped too (one value, one line).

    Examples
    --------
    >>> visible("x\x00\x7f\x9b\udcff")
    'x\\x00\\x7f\\x9b\\udcff'
    >>> visible("two\nlines", lines=True) == "two\nlines"
    True
    """
    return (_IN_DOCUMENT if lines else _IN_VALUE).sub(_escape, text)


def visible_json(text: str) -> str:
    r"""JSON text with the characters `visible` shows written as JSON escapes (``\u001b``): valid, and equal once read.

    Examples
    --------
    >>> import json
    >>> shown = visible_json(json.dumps({"label": "\x9bno\u202e"}, ensure_ascii=False))
    >>> shown, json.loads(shown)["label"] == "\x9bno\u202e"
    ('{"label": "\\u009bno\\u202e"}', True)
    """
    return _IN_DOCUMENT.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def displayed(report: Mapping[str, Any], show: Callable[[str], str] = visible) -> dict[str, Any]:
    """A copy of `report` whose strings from the user's data are passed through `show`: the data's source (a
    file name), the feature names, the two labels and the header cells of a row index left out. The exact
    record (and its JSON) keeps them as given.

    Examples
    --------
    >>> shown = displayed({"dataset": {"source": "a\\x1b.csv", "feature_names": ["x\\n"],
    ...                                "labels": {"negative": "-1", "positive": "\\u202e1"}}, "k": 1})
    >>> shown["dataset"]["source"], shown["dataset"]["feature_names"], shown["dataset"]["labels"]["positive"]
    ('a\\\\x1b.csv', ['x\\\\n'], '\\\\u202e1')
    """
    copy = dict(report)
    dataset = copy.get("dataset")
    if not isinstance(dataset, Mapping):
        return copy
    dataset = dict(dataset)
    if isinstance(dataset.get("source"), str):
        dataset["source"] = show(dataset["source"])
    names = dataset.get("feature_names")
    # (one scan of them all first: 100,000 names mostly need nothing, and a call each costs a tenth of a second)
    if isinstance(names, list) and not (show is visible and all(isinstance(n, str) for n in names)
                                        and not _IN_VALUE.search("".join(names))):
        dataset["feature_names"] = [show(name) if isinstance(name, str) else name for name in names]
    if isinstance(dataset.get("labels"), Mapping):
        dataset["labels"] = {key: show(value) if isinstance(value, str) else value
                             for key, value in dataset["labels"].items()}
    index = dataset.get("row_index")
    if isinstance(index, Mapping) and isinstance(index.get("names"), list):
        dataset["row_index"] = {**index, "names": [show(n) if isinstance(n, str) else n for n in index["names"]]}
    copy["dataset"] = dataset
    return copy
