"""How programs print a weight vector, read as the numbers it holds: a list, a JSON array or object, R's
``print`` and ``write.csv``, NumPy's, Python's and Julia's reprs, and lines naming the weights and the bias (``w = ...``,
``bias: ...``), also as debug printers write a record (node's ``console.log``, Rust's ``{:?}``, Python's dict and
dataclass reprs, Perl's Data::Dumper).

pandas' print of a Series or of a one-row DataFrame is read as its values (`_from_pandas`).

The values come out in the order written, each with its line, as text for
the exact literal reader (`_protocol.number`); nothing here decides what a
value is worth. A vector whose weights and bias are *named* (``{"w": [...],
"b": ...}``, ``w = [...]`` then ``b = ...``) is a `Named` pair, read by its
names whatever order the file has them in; every other layout is flat, read
in the order the check is told (``--bias``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

__all__ = ["BIAS_NAMES", "WEIGHT_NAMES", "Named", "Token", "weight_tokens"]

#: Names a program gives its weight vector, and its bias (any case).
WEIGHT_NAMES = frozenset({"w", "w_", "weights", "weights_", "weight", "coef", "coef_", "coefs", "coefficients",
                          "theta"})
BIAS_NAMES = frozenset({"b", "b_", "bias", "bias_", "intercept", "intercept_"})

#: A value and the line it is on.
Token = tuple[int, str]

# Python's and NumPy's reprs of a number, read as the literal inside: np.float64(0.5), Fraction(1, 3),
# Fraction('1/3'), Decimal('0.5'); array([...], dtype=float32) as its list, and PyTorch's tensor([...]) and
# TensorFlow's tf.Tensor([...], shape=(2,), dtype=float32) too.
_SCALAR = re.compile(r"\b(?:np|numpy)\.(?:float|int|uint|longdouble|double)\d*\(\s*'?([^()'\s]*)'?\s*\)")
_FRACTION = re.compile(r"\bFraction\(\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*\)")
_QUOTED = re.compile(r"\b(?:Fraction|Decimal|mpq|mpz|mpf)\(\s*['\"]([^'\"()]*)['\"]\s*\)")
_ARRAY = re.compile(r"\b(?:(?:np|numpy|torch)\.)?(?:array|tensor)\(|\btf\.Tensor\(")
#: What PyTorch and TensorFlow print after a tensor's values: ``requires_grad=True``, ``grad_fn=<AddBackward0>``,
#: ``device='cuda:0'``, ``shape=(2,)`` (its dtype is `_DTYPE`'s).
_TENSOR_ATTRIBUTES = re.compile(r"\b(?:requires_grad=(?:True|False)|grad_fn=<\w*>|device='[\w:]*'|shape=\([\d, ]*\))")
#: Julia's typed vectors (Float32[0.5, -1.0], Rational{Int64}[1//2, -1//3]) and its rationals, p//q.
_TYPED = re.compile(r"(?<![\w.])[A-Za-z_][\w.]*(\{[\w, ]*\})?(?=\[)")
_JULIA_RATIONAL = re.compile(r"(?<!\d)([+-]?\d+)//(\d+)")
_DTYPE = re.compile(r"\bdtype\s*=\s*[\w.]+")  # (its comma is a separator anyway)
#: JavaScript's typed arrays as console.log prints them (``Float64Array(2) [ 0.5, -1 ]``), read as their list.
_JS_TYPED = re.compile(r"(?<![\w.])[A-Z]\w*Array\(\d+\)(?=\s*\[)")
#: Perl's Data::Dumper before the structure it prints (``$VAR1 = { 'w' => [...], 'b' => 0 };``).
_DUMPER = re.compile(r"^\s*\$VAR\d+\s*=")
#: A record's type name before its fields, as debug printers write it: Rust's ``Perceptron { weights: [...],
#: bias: 0.0 }``, JavaScript's class instances, Python's dataclasses and named tuples (``Model(w=..., b=...)``).
_RECORD = re.compile(r"(?<![\w.])[A-Za-z_]\w*\s*(?=[({]\s*['\"]?[A-Za-z_]\w*['\"]?\s*(?:=>|[:=](?![=/])))")
#: R's print: each line of a vector starts with its first element's index, ``[1]``.
_R_INDEX = re.compile(r"^\s*\[\d+\](?=\s+\S)")
#: R's write.csv / write.table of a vector: a header of quoted names (``"","x"``), then each value after its
#: quoted row name (``"1",0.5``).
_QUOTED_NAMES = re.compile(r'\s*"[^"]*"(?:[\s,;]+"[^"]*")*[\s,;]*')
_ROW_NAME = re.compile(r'^\s*"[^"]*"(?=[\s,;]+\S)')
_COUNTED = re.compile(r'\s*"(\d+)"[\s,;]+[^\s,;"]+\s*')
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
#: ``name =`` or ``name:`` before values. (Every pattern here matches in time linear in its line: a match can
#: start only where a name or a number starts, and no two quantifiers may take the same characters.)
#: The name may be quoted (Python's repr of a dict: ``{'w': array([...]), 'b': 0.0}``), and Perl's ``=>`` names too.
_LABEL = re.compile(r"(?<![\w.'\"])(['\"]?)([A-Za-z_][A-Za-z_0-9]*)\1\s*(?:=>|[:=](?![=/]))")
_SPLIT = re.compile(r"[\s,;\[\]()\"'{}]+")


@dataclass(frozen=True)
class Named:
    """Weights and a bias named as such in the file: `weights` (d values) and `bias` (one), each with its line."""

    weights: list[Token]
    bias: Token


def weight_tokens(text: str) -> list[Token] | Named:
    """The values of a weights file, in order with their lines, or a `Named` pair.

    Examples
    --------
    >>> weight_tokens("[1]  0.5 -1.2\\n[3]  3\\n")  # R's print of a vector
    [(1, '0.5'), (1, '-1.2'), (2, '3')]
    >>> weight_tokens("[np.float64(0.5), Fraction(-1, 3)] 2")  # a Python list of NumPy and exact scalars
    [(1, '0.5'), (1, '-1/3'), (1, '2')]
    >>> weight_tokens("Rational{Int64}[1//2, -1//3, 2//1]")  # Julia's println
    [(1, '1/2'), (1, '-1/3'), (1, '2/1')]
    >>> weight_tokens('{"bias": 2, "w": [0.5, -1]}')
    Named(weights=[(1, '0.5'), (1, '-1')], bias=(1, '2'))
    >>> weight_tokens("Perceptron { weights: [0.5, -1.0], bias: 2.0 }")  # Rust's {:?}; node's console.log alike
    Named(weights=[(1, '0.5'), (1, '-1.0')], bias=(1, '2.0'))
    >>> weight_tokens("weights: 0.5 -1\\nbias: 2\\n")
    Named(weights=[(1, '0.5'), (1, '-1')], bias=(2, '2'))
    >>> weight_tokens("w = array([ 0.5, -1. , 2. ])\\n")  # one named vector: flat, its name aside
    [(1, '0.5'), (1, '-1.'), (1, '2.')]
    >>> weight_tokens('"","x"\\n"1",0.5\\n"2",-1\\n')  # R's write.csv(w, path)
    [(2, '0.5'), (3, '-1')]
    >>> weight_tokens('"1" 0.5\\n"2" -1\\n'), weight_tokens('"0.5" "-1"\\n')  # write.table; quoted values
    ([(1, '0.5'), (2, '-1')], [(1, '0.5'), (1, '-1')])
    >>> weight_tokens("# weights\\nw1,w2,b\\n0.5,-1,2\\n")  # np.savetxt's header, pandas' column names
    [(3, '0.5'), (3, '-1'), (3, '2')]
    >>> weight_tokens("Final weights: [0.5 -1. ] bias: 2.0")  # a caption before the first name
    Named(weights=[(1, '0.5'), (1, '-1.')], bias=(1, '2.0'))
    >>> weight_tokens("w1=0.5, w2=-1, b=2")  # each weight named with its index
    Named(weights=[(1, '0.5'), (1, '-1')], bias=(1, '2'))
    >>> weight_tokens("w_0 = 2\\nw_1 = 0.5\\n")  # from 0 and no bias: the augmented vector, in its order
    [(1, '2'), (2, '0.5')]
    >>> weight_tokens("Epoch 3: w=[0.5 -1] b=2")  # a whole pair by its names: the counter beside it is no weight
    Named(weights=[(1, '0.5'), (1, '-1')], bias=(1, '2'))
    >>> weight_tokens("epochs: 3\\nw: 0.5 -1 2\\n")  # a name the check does not know is left to be refused
    [(1, 'epochs'), (1, '3'), (2, 'w'), (2, '0.5'), (2, '-1'), (2, '2')]
    """
    stripped = text.strip()
    if stripped.startswith("{"):
        from_json = _json_object(stripped)
        if from_json is not None:
            return from_json
    groups: list[tuple[Token | None, list[Token]]] = [(None, [])]  # (its name and line, its values)
    lines = _name_value_rows(_from_pandas(text.split("\n")))
    for k, line in enumerate(map(_plain, _without_header(_without_row_names(lines))), start=1):
        at = 0
        for match in _LABEL.finditer(line):
            groups[-1][1].extend(_tokens(line[at:match.start()], k))
            groups.append(((k, match.group(2)), []))
            at = match.end()
        groups[-1][1].extend(_tokens(line[at:], k))
    if len(groups) == 1:
        return groups[0][1]
    names = {label[1].lower(): values for label, values in groups[1:] if label is not None}
    # words before the first name are a caption ("Final weights: ...", "Learned w = ..."); values there are not
    caption = all(value[0].isalpha() and value.lower() not in _NOT_WORDS for _, value in groups[0][1])
    if caption and len(names) == len(groups) - 1 and set(names) <= WEIGHT_NAMES | BIAS_NAMES:
        named = _named(names)
        if named is not None:
            return named
    if caption and len(names) == len(groups) - 1:
        indexed = _indexed(names)
        if indexed is not None:
            return indexed
    if len(names) == len(groups) - 1:  # a whole pair by its names beside a counter ("Epoch 3: w=[...] b=...", "loss:")
        pair = _named({name: values for name, values in names.items() if name in WEIGHT_NAMES | BIAS_NAMES})
        if isinstance(pair, Named):
            return pair
    # a name the check does not know, a name twice, or values before the first name: every name is kept as a
    # value, for the reader to refuse by name
    return [token for label, values in groups for token in ([label] if label is not None else []) + values]


#: Words that are values (a weight NumPy or R printed as such), never a caption.
_NOT_WORDS = frozenset({"nan", "inf", "infinity", "-inf", "na"})


#: The last line of pandas' print of a Series (``dtype: float64``, ``Name: w, dtype: float64``).
_PANDAS_FOOTER = re.compile(r"\s*(?:Name: [^,]*, )?(?:Length: \d+, )?dtype: \w+\s*")
_PANDAS_CELLS = re.compile(r"\S+")


def _from_pandas(lines: list[str]) -> list[str]:
    """`lines` as plain values where they are pandas' print of a Series (an index and a value a line, then its
    ``dtype`` line) or of a one-row DataFrame (column names, then the row's index and values): values in order
    under an index 0, 1, ...; ``name=value`` where the labels are names (``w1``, ``bias``), for the named forms.

    Examples
    --------
    >>> _from_pandas(["0    2.3", "1    0.5", "dtype: float64"])
    ['2.3', '0.5', '']
    >>> _from_pandas(["w1      2.3", "bias    1.0", "dtype: float64"])
    ['w1=2.3', 'bias=1.0', '']
    >>> _from_pandas(["    w1    b", "0  2.3  1.0"])
    ['', 'w1=2.3 b=1.0']
    """
    filled = [k for k, line in enumerate(lines) if line.strip()]
    if len(filled) < 2:
        return lines
    cells = [_PANDAS_CELLS.findall(lines[k]) for k in filled]
    if _PANDAS_FOOTER.fullmatch(lines[filled[-1]]):  # a Series
        if not all(len(row) == 2 for row in cells[:-1]):
            return lines
        labels, values = [row[0] for row in cells[:-1]], [row[1] for row in cells[:-1]]
        out = list(lines)
        out[filled[-1]] = ""
        for k, text in zip(filled, _labelled(labels, values)):
            out[k] = text
        return out
    names, row = cells[0], cells[-1]
    if len(filled) != 2 or row[0] != "0" or len(row) != len(names) + 1:  # a one-row DataFrame: one index, "0"
        return lines
    out = list(lines)
    out[filled[0]] = ""
    out[filled[1]] = " ".join(_labelled(names, row[1:]))
    return out


#: A table's cells: apart by spaces, tabs, a comma, a semicolon or a bar (``| x1 | 0.5 |``); a rule under its
#: header (``|---|---|``, ``-----  ------``) holds only rule characters.
_TABLE_CELLS = re.compile(r"[^\s,;|]+")
_TABLE_RULE = re.compile(r"[\s|:+=-]*")
_ROW_LABEL = re.compile(r"[A-Za-z_][\w.]*")


def _name_value_rows(lines: list[str]) -> list[str]:
    """`lines` as ``name=value`` where they are a table of a name and a value a row (``x1  0.5``, ``bias 1.0``;
    ``feature,weight`` or ``| x1 | 0.5 |``), under an optional header of words and its rule, as a program prints
    its weights beside the features' names; else unchanged.

    Examples
    --------
    >>> _name_value_rows(["feature    weight", "x1            0.5", "bias         -1.0", ""])
    ['', 'x1=0.5', 'bias=-1.0', '']
    >>> _name_value_rows(["| name | w |", "|---|---|", "| w1 | 0.5 |", "| b | 2 |"])
    ['', '', 'w1=0.5', 'b=2']
    >>> _name_value_rows(["w1 w2 b", "0.5 -1 2"])  # a header over values: not a table of rows
    ['w1 w2 b', '0.5 -1 2']
    """
    filled = [k for k, line in enumerate(lines) if line.strip() and not _TABLE_RULE.fullmatch(line)]
    cells = {k: _TABLE_CELLS.findall(lines[k]) for k in filled}
    rows = filled[1:] if filled and all(_ROW_LABEL.fullmatch(c) for c in cells[filled[0]]) \
        and not _is_row(cells[filled[0]]) else filled
    if len(rows) < 2 or not all(_is_row(cells[k]) for k in rows):
        return lines
    out = ["" if line.strip() else line for line in lines]
    for k in rows:
        out[k] = f"{cells[k][0]}={cells[k][1]}"
    return out


def _is_row(cells: list[str]) -> bool:
    """A name, then one value (a number, or a word NumPy or R prints as a value)."""
    return len(cells) == 2 and bool(_ROW_LABEL.fullmatch(cells[0])) and cells[0].lower() not in _NOT_WORDS \
        and (not cells[1][:1].isalpha() or cells[1].lower() in _NOT_WORDS)


def _labelled(labels: list[str], values: list[str]) -> list[str]:
    """Each value alone under an index 0, 1, ...; else as ``label=value``."""
    if labels == [str(k) for k in range(len(labels))]:
        return values
    return [f"{label}={value}" for label, value in zip(labels, values)]


def _without_header(lines: list[str]) -> list[str]:
    """`lines` with comment lines (``#``, as ``np.savetxt(..., header=...)`` writes) blanked, and a first line of
    column names (``w1,w2,b``: every word starting with a letter, none naming values with ``:`` or ``=``) too."""
    out = ["" if line.lstrip().startswith("#") else line for line in lines]
    first = next((k for k, line in enumerate(out) if line.strip()), None)
    if first is not None and not _LABEL.search(out[first]):
        words = [w for w in _SPLIT.split(out[first].strip()) if w]
        if words and all(w[0].isalpha() or w[0] == "_" for w in words) \
                and not any(w.lower() in ("nan", "inf", "infinity", "-inf") for w in words):
            out[first] = ""
    return out


def _without_row_names(lines: list[str]) -> list[str]:
    """`lines` with R's header of quoted names blanked and the quoted row names taken off: after such a header,
    each line's leading quoted cell; without one, only names ``"1"``, ``"2"``, ... before one value a line."""
    filled = [k for k, line in enumerate(lines) if line.strip()]
    if not filled:
        return lines
    first = lines[filled[0]]
    header = bool(_QUOTED_NAMES.fullmatch(first)) and not any(_NUMBER.fullmatch(cell.strip())
                                                              for cell in re.findall(r'"([^"]*)"', first))
    body = filled[1:] if header else filled
    if not header:
        counted = [_COUNTED.fullmatch(lines[k]) for k in body]
        if not all(counted) or [int(m.group(1)) for m in counted if m] != list(range(1, len(body) + 1)):
            return lines
    out = list(lines)
    if header:
        out[filled[0]] = ""
    for k in body:
        out[k] = _ROW_NAME.sub(" ", lines[k])
    return out


def _plain(line: str) -> str:
    """`line` with R's index, NumPy's and Python's number reprs and array wrappers made plain values."""
    line = _DUMPER.sub(" ", _R_INDEX.sub(" ", line))
    line = _SCALAR.sub(r" \1 ", line)
    line = _FRACTION.sub(r" \1/\2 ", line)
    line = _QUOTED.sub(r" \1 ", line)
    line = _JULIA_RATIONAL.sub(r"\1/\2", _TYPED.sub(" ", _JS_TYPED.sub(" ", line)))
    line = _RECORD.sub(" ", line)
    return _DTYPE.sub(" ", _TENSOR_ATTRIBUTES.sub(" ", _ARRAY.sub("(", line)))


def _tokens(part: str, line: int) -> list[Token]:
    return [(line, value) for value in _SPLIT.split(part.strip()) if value]


def _named(groups: dict[str, list[Token]]) -> list[Token] | Named | None:
    """Known names' values: a `Named` pair (one weights name, one bias name of one value), the values of one
    weights name alone (flat: the bias among them, placed by ``--bias``), else None."""
    weights = [values for name, values in groups.items() if name in WEIGHT_NAMES]
    bias = [values for name, values in groups.items() if name in BIAS_NAMES]
    if len(weights) == 1 and len(bias) == 1 and len(bias[0]) == 1:
        return Named(weights[0], bias[0][0])
    if len(weights) == 1 and not bias:
        return weights[0]
    return None


#: A weight named with its index: ``w1``, ``w_2``, ``weight3``, ``theta0``, ``beta1``, ``coef_4``; or with its
#: feature's name (``x1``, ``feature_2``: the names of ``--header``'s columns), as a table beside the features prints it.
_INDEXED = re.compile(r"(?:w|weight|weights|theta|beta|coef|x|feature)_?(\d+)")


def _indexed(groups: dict[str, list[Token]]) -> list[Token] | Named | None:
    """Weights named one by one with consecutive indices (from 0 or 1), each of one value: with one bias name, a
    `Named` pair; without, the values in their indices' order (flat: ``w0`` the bias placed by ``--bias``); else
    None."""
    found: dict[int, Token] = {}
    bias = [values for name, values in groups.items() if name in BIAS_NAMES]
    for name, values in groups.items():
        match = _INDEXED.fullmatch(name)
        if name in BIAS_NAMES:
            continue
        if match is None or len(values) != 1 or int(match.group(1)) in found:
            return None
        found[int(match.group(1))] = values[0]
    first = min(found, default=None)
    if first not in (0, 1) or sorted(found) != list(range(first, first + len(found))):
        return None
    weights = [found[k] for k in sorted(found)]
    if not bias:
        return weights
    return Named(weights, bias[0][0]) if len(bias) == 1 and len(bias[0]) == 1 else None


class _Text(str):
    """A JSON number's text, kept as written (never through a float)."""


def _json_object(text: str) -> list[Token] | Named | None:
    """A JSON object's weights and bias by their names (other keys aside), or None when the text is not a JSON
    object or names neither as `_named` reads them."""
    try:
        record = json.loads(text, parse_int=_Text, parse_float=_Text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(record, dict):
        return None
    groups = {key.lower(): [(1, _json_text(item)) for item in _flat(value)] for key, value in record.items()
              if key.lower() in WEIGHT_NAMES | BIAS_NAMES}
    return _named(groups)


def _flat(value: object) -> list[object]:
    """A JSON value's items, nested lists flattened (scikit-learn's ``coef_`` is a 1 x d array)."""
    if not isinstance(value, list):
        return [value]
    return [item for part in value for item in _flat(part)]


def _json_text(item: object) -> str:
    return item if isinstance(item, str) else json.dumps(item)
