"""The data layer's compiled row functions, when they were built: the signed samples and their products.

- `signed_rows` builds the samples z_i = y_i·L·x~_i and their squared norms
  in one pass (`verify_perceptron.data.samples.sample_matrix`);
- `scores` computes z_i·W for every row in int64 after checking
  ‖W‖²·max‖z_i‖² < 2^126 itself (`verify_perceptron.data.integers.ExactMatrix.products`);
- `rational_cells` reads a comma-separated table of rational literals into
  int64 numerators and denominators, leaving to Python the cells it cannot
  read exactly in int64 (`verify_perceptron.data.denominators.read_table`);
- `csv_block` and `scale_cells` read a CSV file's body a block at a time into
  int64 numerators and a code for each cell's denominator, and bring them over
  their common denominator in place (`verify_perceptron.data.csv_stream`).

`verify_perceptron.data._rows` is an optional C extension: `AVAILABLE` says
whether it imported; if not (or if it was built by a compiler without
__int128), both functions are None and `IMPORT_ERROR` says why; the callers
then use NumPy. The references the tests hold them to: NumPy's exact
products, `verify_perceptron.data.samples.signed_samples` with
`verify_perceptron.data.integers.row_norms_sq`, and
`verify_perceptron.data.rationals.rational_parts` for `rational_cells`
(which needs no __int128: it is there whenever the module imported).

Examples
--------
>>> import numpy as np
>>> Z = np.array([[1, 2], [3, -4]], dtype=np.int16)
>>> W, norms = np.array([1, 1], dtype=np.int64), np.array([5, 25], dtype=np.int64)
>>> out = np.zeros(2, dtype=np.int64)
>>> if scores is not None:
...     scores(Z, W, norms, out)
... else:
...     out[:] = Z.astype(np.int64) @ W
>>> out.tolist()
[3, -1]
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

__all__ = ["AVAILABLE", "IMPORT_ERROR", "signed_rows", "scores", "rational_cells", "csv_block", "scale_cells"]

SignedRows = Callable[..., "int | None"]
Scores = Callable[[Any, Any, Any, Any], None]
RationalCells = Callable[[bytes, int, int, int, Any, Any], int]


def _load() -> tuple[SignedRows | None, Scores | None, str | None]:
    """The extension's functions, or None each and why it did not import."""
    try:
        rows = importlib.import_module(f"{__package__}._rows")
        # A compiler without __int128 builds a module whose functions refuse to run.
        rows.scores(*_PROBE)
    except (ImportError, NotImplementedError) as error:
        return None, None, f"{type(error).__name__}: {error}"
    return rows.signed_rows, rows.scores, None


def _probe() -> tuple[Any, ...]:
    import numpy as np

    none = np.zeros(0, dtype=np.int64)
    return (np.zeros((0, 1), dtype=np.int64), np.zeros(1, dtype=np.int64), none, none.copy())


_PROBE = _probe()

#: ``signed_rows(X, y, bias, bias_column, Z, norms)`` in C, or None: the signed samples and
#: their squared norms in one pass; max(norms), or None if a norm does not fit in int64.
signed_rows: SignedRows | None
#: ``scores(Z, W, norms, out)`` in C, or None: out[i] = Z[i]·W for every row, in int64, after
#: checking ‖W‖²·max(norms) < 2^126 itself.
scores: Scores | None
#: Why the extension did not import, or None if it did.
IMPORT_ERROR: str | None
signed_rows, scores, IMPORT_ERROR = _load()
#: Did the compiled row functions import?
AVAILABLE: bool = signed_rows is not None


def _load_cells() -> RationalCells | None:
    """The extension's cell reader, or None if the extension did not import."""
    try:
        return importlib.import_module(f"{__package__}._rows").rational_cells  # type: ignore[no-any-return]
    except (ImportError, AttributeError):
        return None


#: ``rational_cells(text, n_rows, n_cols, skip, numerators, denominators)`` in C, or None: the cells of a
#: comma-separated table, but column `skip`, as int64 numerators over int64 denominators in lowest terms;
#: a cell it cannot read exactly gets denominator 0. Returns how many such cells there are.
rational_cells: RationalCells | None = _load_cells()


def _load_named(name: str) -> Callable[..., Any] | None:
    """The extension's function `name`, or None if the extension did not import (or predates it)."""
    try:
        return getattr(importlib.import_module(f"{__package__}._rows"), name)  # type: ignore[no-any-return]
    except (ImportError, AttributeError):
        return None


#: ``csv_block(block, sep, layout, nums, codes, label_codes, state, table, maxabs, slots, label_texts,
#: label_lengths, left)`` in C, or None: the complete lines of a block of a CSV file's body read into the
#: arrays; 1 when the block is not the plain case the streaming reader takes (`verify_perceptron.data.csv_stream`).
csv_block: Callable[..., int] | None = _load_named("csv_block")
#: ``scale_cells(nums, codes, factors)`` in C, or None: nums[k] *= factors[codes[k]] in place.
scale_cells: Callable[[Any, Any, Any], None] | None = _load_named("scale_cells")
