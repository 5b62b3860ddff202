"""One width for the text report: every table and line laid out to at most `width` characters.

The rule, written once here and applied to every line of the text report
(`verify_perceptron.report.text`), whatever section it comes from:

- A table's cells are never broken inside a word or a number. When its
  rows are wider than the width, its shrinkable columns give way, the
  widest first: a vector (``[...]``) keeps its first and last entries
  around a count of those left out (``… 25 more …``), a list of samples
  or scores is cut after a whole entry (``1,2,…``), and a column of prose
  (a claim, a formula) is wrapped at its spaces onto lines of its own
  inside the column. When the columns still do not fit, the table is
  wrapped at a cell boundary: the columns that do not fit beside the
  others continue below each row, on lines of their own, indented.
- Every other line (a sentence, a ``label  value`` line) is wrapped at its
  spaces, its continuation lines indented under its text. ``≈ 1.2e+5`` and
  ``… 3 more …`` are never split; a word longer than the whole width is
  the one thing broken inside (a path, say), so that no line is longer.
- ``--exact`` and the JSON never cut and never wrap: the width applies
  only to the shortened text report.

Examples
--------
>>> for line in fit_table([["k", "claim"], ["1", "each update is a mistake under the rule"]], "><", 30,
...                       kinds="kw"):
...     print(line)
  k  claim
  1  each update is a mistake
     under the rule
>>> fit_lines(["data        cancer.csv: 569 samples, 30 features (labels 0 -> -1, 1 -> +1)"], 40)
['data        cancer.csv: 569 samples, 30', '            features (labels 0 -> -1, 1', '            -> +1)']
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence

from ._words import bracket

__all__ = ["fit_table", "fit_lines", "cut_vector", "cut_list", "MIN_WIDTH"]

#: The narrowest width a report is laid out to (``--width`` refuses less).
MIN_WIDTH = 40
#: The indent of a table and the gap between its columns.
_INDENT, _GAP = 2, 2
#: Where a row wrapped at a cell boundary continues.
_CONTINUED = 6
#: Spaces that never break a line: after ``≈``, and inside a ``… N more …`` marker.
_GLUED = re.compile(r"≈ |… \d+ more(?: non-zero)? …|\(\d+ zeros\)")
_NBSP = "\u00a0"

_MORE = re.compile(r"… (\d+) more( non-zero)? …")


def cut_vector(entries: list[str], room: int) -> str:
    """``[...]`` of `entries` in at most `room` characters (while it keeps its first entry), the entries
    taken out folded into the ``… N more …`` count; a sparse vector's ``(N zeros)`` stays last.

    Examples
    --------
    >>> cut_vector(["1", "2", "3", "4", "… 25 more …", "8", "9"], 24)
    '[1, … 28 more …, 8, 9]'
    >>> cut_vector(["-60", "-34", "173", "-38", "73"], 22)
    '[-60, … 3 more …, 73]'
    >>> cut_vector(["1: -1", "5: 2", "7: 3", "11: 1", "… 10 more non-zero …", "19: 4", "20: 5", "(99980 zeros)"], 40)
    '[1: -1, … 15 more non-zero …, (99980 zeros)]'
    >>> cut_vector(["1: -1", "99999: 1", "(99998 zeros)"], 20)  # no shorter with a marker
    '[1: -1, 99999: 1, (99998 zeros)]'
    """
    tail = [entries[-1]] if entries and re.fullmatch(r"\(\d+ zeros\)", entries[-1]) else []
    body = entries[: len(entries) - len(tail)]
    noun = " non-zero" if tail else ""
    at = next((i for i, e in enumerate(body) if _MORE.fullmatch(e)), None)
    while len(bracket(body + tail)) > room:
        if at is None:  # no marker yet: the first one stands for the two entries it replaces
            if len(body) < 4 - bool(tail):
                break
            at = len(body) - (3 if not tail else 2)
            del body[at:at + 2]
            body.insert(at, f"… 2 more{noun} …")
            continue
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
    return cut if len(cut) < len(whole) else whole  # a marker may cost more than the entries it replaced


def cut_list(cell: str, room: int) -> str:
    """A comma list (samples, scores) in at most `room` characters, cut after a whole entry: ``1,2,…``.

    Examples
    --------
    >>> cut_list("0,1,2,3,4,5", 6), cut_list("123456789", 5)
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


def _glue(text: str) -> str:
    return _GLUED.sub(lambda m: m.group().replace(" ", _NBSP), text)


def _wrap(text: str, room: int, *, first: str = "", rest: str = "", hard: bool = False) -> list[str]:
    """`text` wrapped at its spaces to `room` characters a line (the glued spaces kept)."""
    lines = textwrap.wrap(_glue(text), max(room, 1), initial_indent=first, subsequent_indent=rest,
                          break_long_words=hard, break_on_hyphens=False, drop_whitespace=True)
    return [line.replace(_NBSP, " ") for line in lines] or [first.rstrip()]


def _shrunk(cells: list[str], kind: str, room: int) -> list[list[str]]:
    """A column's cells made at most `room` wide where its kind allows: each cell as its lines."""
    if kind == "v":
        return [[cut_vector(c[1:-1].split(", "), room) if c.startswith("[") and len(c) > room else c] for c in cells]
    if kind == "l":
        return [[cut_list(c, room)] for c in cells]
    if kind == "w":
        return [_wrap(c, room) if len(c) > room else [c] for c in cells]
    return [[c] for c in cells]


_MINIMUM = {"v": 14, "l": 6, "w": 12}


def _laid(rows: list[list[str]], kinds: str, group: list[int], room: int | None) -> dict[int, list[list[str]]]:
    """The columns of `group`, each cell as its lines, shrunk (the widest shrinkable column first) until their
    widths sum to at most `room` or none can give way more."""
    columns = {j: [[row[j]] for row in rows] for j in group}

    def width_of(j: int) -> int:
        return max(len(line) for cell in columns[j] for line in cell)

    if room is None:
        return columns
    done: set[int] = set()
    while sum(map(width_of, group)) > room:
        current = {j: width_of(j) for j in group}
        movable = [j for j in group if kinds[j] in _MINIMUM and j not in done and current[j] > _MINIMUM[kinds[j]]]
        if not movable:
            break
        j = max(movable, key=lambda i: current[i])
        floor = max(_MINIMUM[kinds[j]], len(rows[0][j]))  # the header stays whole
        target = max(floor, current[j] - (sum(current.values()) - room))
        columns[j] = [[rows[0][j]]] + _shrunk([row[j] for row in rows[1:]], kinds[j], target)
        if width_of(j) >= current[j] or target <= floor:
            done.add(j)
    return columns


def _groups(widths: list[int], width: int) -> list[list[int]]:
    """The columns split, left to right, into groups whose lines fit `width`: the first at the table's indent,
    each later one on lines of its own at the continuation indent."""
    groups: list[list[int]] = [[]]
    used = _INDENT
    for j, w in enumerate(widths):
        step = w + (_GAP if groups[-1] else 0)
        if groups[-1] and used + step > width:
            groups.append([])
            used, step = _CONTINUED, w
        groups[-1].append(j)
        used += step
    return groups


def fit_table(rows: list[list[str]], align: str, width: int | None, *, kinds: str | None = None) -> list[str]:
    """`rows` (the header first) as aligned lines of at most `width` characters (None: as wide as they are).

    `align` has one ``<`` or ``>`` per column; `kinds` one letter per column:
    ``k`` kept whole, ``v`` a vector cut with a count, ``l`` a comma list
    cut after an entry, ``w`` prose wrapped at its spaces (the rule of this
    module's docstring). The header row is never cut. Columns that cannot
    fit beside the others continue on lines of their own below each row.
    """
    n = len(rows[0])
    kinds = kinds or "k" * n
    every = list(range(n))
    laid = _laid(rows, kinds, every, None if width is None else width - _INDENT - _GAP * (n - 1))
    widths = [max(len(line) for cell in laid[j] for line in cell) for j in every]
    if width is None or _INDENT + sum(widths) + _GAP * (n - 1) <= width:
        groups = [every]
    else:
        groups = _groups(widths, width)
        for g, group in enumerate(groups):
            if g:  # a later group has the whole line: laid out again in it
                laid.update(_laid(rows, kinds, group, width - _CONTINUED - _GAP * (len(group) - 1)))
    out: list[str] = []
    for i in range(len(rows)):
        for g, group in enumerate(groups):
            final = [max(len(line) for cell in laid[j] for line in cell) for j in group]
            indent = " " * (_INDENT if g == 0 else _CONTINUED)
            for d in range(max(len(laid[j][i]) for j in group)):
                cells = [laid[j][i][d] if d < len(laid[j][i]) else "" for j in group]
                line = indent + (" " * _GAP).join(
                    c.ljust(w) if align[j] == "<" else c.rjust(w) for c, w, j in zip(cells, final, group))
                if line.strip() or g == 0:
                    out.append(line.rstrip())
    return out


def _hang(line: str) -> str:
    """The indent of a line's continuation: under the text after a ``label   `` column, a bullet, or its indent."""
    label = re.match(r"([^ ].*?\S {2,})\S", line)
    if label and len(label.group(1)) <= 16:
        return " " * len(label.group(1))
    bullet = re.match(r"( *(?:- |\* |\d+\. ))", line)
    if bullet:
        return " " * len(bullet.group(1))
    indent = len(line) - len(line.lstrip(" "))
    return " " * (indent + 2)


def fit_lines(lines: Sequence[str], width: int | None) -> list[str]:
    """Every line at most `width` characters: longer ones wrapped at their spaces under their text (see the
    module docstring); None leaves them as they are."""
    if width is None:
        return list(lines)
    out: list[str] = []
    for line in lines:
        if len(line) <= width:
            out.append(line)
            continue
        lead = line[: len(line) - len(line.lstrip(" "))][: width // 4]  # a deep indent would leave no room
        hang = _hang(line)
        if len(hang) > width // 2:
            hang = lead + "  "
        for part in _wrap(line.strip(" "), width, first=lead, rest=hang):
            # a word longer than the room: on a line of its own, broken only where it passes the whole width
            out += [part] if len(part) <= width else _wrap(part.strip(" "), width, first=lead, rest=lead, hard=True)
    return out
