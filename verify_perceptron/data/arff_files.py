"""ARFF files (Weka's and OpenML's format) read exactly: the ``@attribute`` header names the columns and their
types, the rows after ``@data`` are comma-separated values, and the class is the last attribute.

The header is read here; the rows go to the CSV reader (`verify_perceptron.data.csv_files`) as a CSV text
with the attribute names for its header, each row on the line it had in the file, so every error it names
carries the file's own line. Numeric attributes (``numeric``, ``real``, ``integer``) are the features; the
class may be nominal (``{tested_negative, tested_positive}``) or numeric, and its two values are read as the
CSV reader reads labels (``--positive VALUE`` names the positive one of two names); a nominal attribute named
``class``, ``label``, ``target`` or ``y`` is the class where the last attribute is numeric. A nominal, string or date
feature and a missing value ``?`` are refused by name. A sparse row (``{0 1, 3 2.5}``) is read as the dense row
it stands for (`verify_perceptron.data.arff_sparse`).
"""

from __future__ import annotations

import csv
import io
import re
import shlex

from ..errors import DataError
from .csv_files import csv_text
from .csv_layout import LABEL_NAMES, is_number, named_column
from .dataset import Dataset
from .arff_sparse import dense_cells, first_value
from .files import check_max_cells, read_text, refuse_cells, refuse_foreign
from .denominators import MAX_DENOMINATOR_BITS, check_limit

__all__ = ["load_arff"]

#: ``@attribute NAME TYPE``: the name bare or quoted (either quote), the type the rest of the line.
_ATTRIBUTE = re.compile(r"""@attribute[ \t]+('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[^ \t'"{]+)[ \t]*(.*)""",
                        re.IGNORECASE)
#: The numeric types.
_NUMERIC = ("numeric", "real", "integer")


def load_arff(path: str, *, label_column: str | None = None, positive: object = None,
              max_denominator_bits: int = MAX_DENOMINATOR_BITS, max_cells: int | None = None,
              encoding: str | None = None) -> Dataset:
    """Read an ARFF file exactly: its numeric attributes are the features, its class attribute (`label_column`,
    a name or a 1-based number, else the one KEEL's ``@outputs`` names, else `_class_attribute`) the label. Its
    text is UTF-8, or `encoding` where given (`verify_perceptron.data.files.read_text`).

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "d.arff")
    ...     _ = open(path, "w").write("% two rows\\n@relation toy\\n@attribute 'x 1' real\\n"
    ...                               "@attribute class {no, yes}\\n@data\\n0.5,yes\\n-1,no\\n")
    ...     data = load_arff(path, positive="yes")
    >>> data.X, data.y, data.feature_names
    (((Fraction(1, 2),), (Fraction(-1, 1),)), (1, -1), ('x 1',))
    """
    limit, cap = check_limit(max_denominator_bits), check_max_cells(max_cells)
    refuse_foreign(path)
    lines = read_text(path, cap, encoding).split("\n")
    names, types, start, outputs = _header(lines, path)
    if label_column is None and outputs is not None:  # KEEL's @outputs names the class
        label_column = outputs
    target = _class_attribute(names, types) if label_column is None else named_column(names, len(names),
                                                                                       label_column, path)
    for k, (name, kind) in enumerate(zip(names, types)):
        if k != target and not _numeric(kind):
            hint = (f"; if it is the class, give --label-column {shlex.quote(name)}" if label_column is None and
                    kind.startswith("{") else "")
            raise DataError(f"{path}: attribute {name!r} is {kind!r}, not numeric: the perceptron reads numbers; "
                            f"encode it (one numeric column per value) or leave it out{hint}")
    # the header's cells as the CSV reader will take them for a header (`csv_layout.is_number`): a name that reads
    # as a number is marked
    shown = [f"{name} (attribute {k + 1})" if is_number(name) else name for k, name in enumerate(names)]
    rows = [""] * start + [_csv_line(shown)]
    # sparse rows are made dense here: the cells they stand for are counted against the limit before they are made
    sparse = sum(1 for line in lines[start + 1:] if line.lstrip().startswith("{"))
    refuse_cells(path, f"{sparse} sparse rows x {len(names) - 1} values", sparse * (len(names) - 1), cap)
    defaults = [first_value(kind) for kind in types] if sparse else []  # what a sparse row leaves out holds
    for number, line in enumerate(lines[start + 1:], start + 2):
        text = line.strip()
        if not text or text.startswith("%"):
            rows.append("")
        elif text.startswith("{"):
            rows.append(_csv_line(dense_cells(text, defaults, f"{path}:{number}")))
        else:
            cells = next(csv.reader([text], quotechar="'", skipinitialspace=True))
            if "?" in (cell.strip() for cell in cells):
                raise DataError(f"{path}:{number}: a missing value '?' (column "
                                f"{[c.strip() for c in cells].index('?') + 1}): the perceptron needs every value")
            rows.append(_csv_line(cells))
    data = csv_text("\n".join(rows), path, str(target + 1), positive, limit, cap)
    data.feature_names = tuple(name for k, name in enumerate(names) if k != target)
    return data


def _class_attribute(names: list[str], types: list[str]) -> int:
    """The class attribute's index: the last attribute (Weka's rule), unless that one is numeric and a nominal
    attribute is named as a CSV file's label column is (``class``, ``label``, ``target``, ``y``, in any case),
    as OpenML's files put the class first or in the middle.

    Examples
    --------
    >>> _class_attribute(["Class", "a", "b"], ["{pos, neg}", "real", "real"])
    0
    >>> _class_attribute(["x", "y", "c"], ["real", "real", "{0, 1}"]), _class_attribute(["x", "y"], ["real"] * 2)
    (2, 1)
    """
    last = len(names) - 1
    if not _numeric(types[last]):
        return last
    lowered = [name.strip().lower() for name in names]
    for label in LABEL_NAMES:
        k = lowered.index(label) if label in lowered else -1
        if k >= 0 and types[k].startswith("{"):
            return k
    return last


def _numeric(kind: str) -> bool:
    """Whether an attribute's type is numeric: ``numeric``, ``real`` or ``integer``, in any case, also with the
    range KEEL's files give it (``real [4.3, 7.9]``).

    Examples
    --------
    >>> _numeric("REAL"), _numeric("integer [0, 17]"), _numeric("{a, b}"), _numeric("date")
    (True, True, False, False)
    """
    word, _, rest = kind.partition("[")
    return word.strip().lower() in _NUMERIC and (not rest or rest.rstrip().endswith("]"))


def _header(lines: list[str], path: str) -> tuple[list[str], list[str], int, str | None]:
    """The attribute names and types, the index of the ``@data`` line, and the class KEEL's ``@outputs`` line
    names (None without one; its ``@inputs`` line is the numeric attributes, read as such)."""
    names: list[str] = []
    types: list[str] = []
    outputs = None
    for k, line in enumerate(lines):
        text = line.strip()
        lowered = text.lower()
        if not text or text.startswith("%") or lowered.startswith(("@relation", "@inputs")):
            continue
        if lowered.startswith("@outputs"):
            outputs = text[len("@outputs"):].strip()
            if not outputs or "," in outputs:
                raise DataError(f"{path}:{k + 1}: {text[:60]!r}: one class attribute is needed")
            continue
        if lowered.startswith("@data"):
            if len(names) < 2:
                raise DataError(f"{path}:{k + 1}: @data after {len(names)} attribute(s); a feature and a class "
                                "are needed")
            return names, types, k, outputs
        match = _ATTRIBUTE.fullmatch(text)
        if match is None:
            raise DataError(f"{path}:{k + 1}: {text[:60]!r} is not an ARFF header line (@relation, @attribute "
                            "NAME TYPE, @data)")
        name = match[1][1:-1] if match[1][:1] in "'\"" else match[1]
        names.append(name)
        types.append(match[2].strip() or "(none)")
    raise DataError(f"{path}: no @data line: not an ARFF file's data")


def _csv_line(cells: list[str]) -> str:
    """One CSV line of `cells`, quoted where a cell needs it."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="").writerow([cell.strip() for cell in cells])
    return buffer.getvalue()
