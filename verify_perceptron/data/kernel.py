"""The data layer's compiled row functions, when they were built: the signed samples and their products.

- `signed_rows` builds the samples z_i = y_i·L·x~_i and their squared norms
  in one pass (`verify_perceptron.data.samples.sample_matrix`);
- `scores` computes z_i·W for every row in int64 after checking
  ‖W‖²·max‖z_i‖² < 2^126 itself (`verify_perceptron.data.integers.ExactMatrix.products`);
- `signed_limbs`, `limb_norms`, `limb_doubles` and `limb_scores` do the same for samples
  held in 64-bit limbs (`verify_perceptron.data.limb_arrays`), past int64: the
  signed rows and their squared norms, the norms alone, each entry's
  nearest double, and the products with a vector; `dyadic_range` and
  `dyadic_fill` read binary floats into limbs from their bits (extension `verify_perceptron.data._limbrows`);
- `rational_cells` reads a comma-separated table of rational literals into
  int64 numerators and denominators, leaving to Python the cells it cannot
  read exactly in int64 (`verify_perceptron.data.denominators.read_table`);
- `csv_block` and `scale_cells` read a CSV file's body a block at a time into
  int64 numerators and a code for each cell's denominator, and bring them over
  their common denominator in place (`verify_perceptron.data.csv_stream`);
  `scale_limbs` brings them over it in 64-bit limbs where int64 does not hold
  the products (a decimal file at full precision), and `limb_terms` reads what
  lowest terms need of such limbs (their common factor with the odd part of
  their denominator, their trailing zeros and their length) in one pass.

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

__all__ = ["AVAILABLE", "IMPORT_ERROR", "signed_rows", "scores", "rational_cells", "signed_limbs", "limb_norms",
           "limb_doubles", "limb_scores", "dyadic_range", "dyadic_fill", "limb_ints", "int_limbs", "int_ratios",
           "limb_ratios", "csv_block", "scale_cells", "scale_limbs", "limb_terms", "square_limbs", "gathered_sums"]

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


def _load_limbs() -> tuple[Any, Any, Any, Any, Any, Any]:
    """The limb extension's functions, or None each where it did not import or cannot run (no __int128)."""
    try:
        module = importlib.import_module(f"{__package__}._limbrows")
        module.limb_norms(_PROBE[0].reshape(0, 1, 1), _PROBE[0].reshape(0, 1).repeat(3, axis=1))
    except (ImportError, NotImplementedError):
        return None, None, None, None, None, None
    return (module.signed_limbs, module.limb_norms, module.limb_doubles, module.limb_scores, module.dyadic_range,
            module.dyadic_fill)


#: ``signed_limbs(X, y, bias, bias_column, Z, norms)`` in C, or None: `signed_rows` for samples in limbs, X
#: (n, m, L), bias (lz,), Z (n, m + 1, lz), norms (n, ln >= 2 lz + 1); returns the largest norm's row (-1: none).
signed_limbs: Callable[..., int] | None
#: ``limb_norms(Z, norms)`` in C, or None: every ‖Z[i]‖², Z (n, d, lz) in limbs, into norms (n, ln >= 2 lz + 1);
#: returns the largest norm's row (-1 when there is none).
limb_norms: Callable[[Any, Any], int] | None
#: ``limb_doubles(Z, out)`` in C, or None: out[i, j] the double nearest Z[i, j] (limbs (n, d, lz), values below
#: 2^1000), as Python's float(int).
limb_doubles: Callable[[Any, Any], None] | None
#: ``limb_scores(Z, W, out)`` in C, or None: out[i] = Z[i]·W, exactly, Z (n, d, lz) and W (d, lw) in limbs,
#: out (n, ls >= lz + lw + 1).
limb_scores: Callable[[Any, Any, Any], None] | None
#: ``dyadic_range(X)`` in C, or None: for finite float64 values m·2^e (m odd), (min e, max bit_length(m) + e) over
#: the nonzero ones, or None when all are 0.
dyadic_range: Callable[[Any], "tuple[int, int] | None"] | None
#: ``dyadic_fill(X, p, out)`` in C, or None: out (X's shape plus L limbs) = X·2^p, each value's limbs.
dyadic_fill: Callable[[Any, int, Any], None] | None
signed_limbs, limb_norms, limb_doubles, limb_scores, dyadic_range, dyadic_fill = _load_limbs()


def _load_converters() -> tuple[Any, Any, Any, Any]:
    """The limb extension's `limb_ints`, `int_limbs`, `int_ratios` and `limb_ratios` (they need no __int128), or
    None each where the extension did not import."""
    try:
        module = importlib.import_module(f"{__package__}._limbrows")
    except ImportError:
        return None, None, None, None
    return (getattr(module, "limb_ints", None), getattr(module, "int_limbs", None), getattr(module, "int_ratios", None),
            getattr(module, "limb_ratios", None))


#: ``limb_ints(limbs)`` in C, or None: the values of an (m, L) int64 C-contiguous array of limbs as a list of m
#: Python ints (one ``int.from_bytes`` each, without the bytes objects: 4 to 8 times quicker than
#: `verify_perceptron.data.limb_arrays.limb_values`' NumPy object arithmetic at 20 to 569 values of 2 to 4 limbs).
limb_ints: Callable[[Any], list[int]] | None
#: ``int_limbs(values, out)`` in C, or None: out[i] = the L limbs of values[i], m Python ints into an (m, L) int64
#: C-contiguous array (`int.to_bytes` each, into the array); TypeError where a value is no Python int,
#: OverflowError where one does not fit.
int_limbs: Callable[[Any, Any], None] | None
#: ``int_ratios(values, shift, out)`` in C, or None: out[i] = values[i] / 2^shift as a float64, m Python ints into
#: an (m,) float64 array, bit for bit `verify_perceptron.notes.soft_margin`'s ``_relative`` (the leading 64 bits
#: rounded once, then ldexp); TypeError where a value is no Python int.
int_ratios: Callable[[Any, int, Any], None] | None
#: ``limb_ratios(M, shift, out)`` in C, or None: `int_ratios` of integers held as the rows of M, (n, K <= 64) int64
#: limbs, without a Python integer each (`verify_perceptron.data.limb_margins.LimbMargins.relative`).
limb_ratios: Callable[[Any, int, Any], None] | None
limb_ints, int_limbs, int_ratios, limb_ratios = _load_converters()


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


def _load_wide(name: str) -> Callable[..., Any] | None:
    """`_load_named`'s function where it runs here: None also where it was built without __int128 (a call on
    empty arrays raises NotImplementedError)."""
    import numpy as np

    function = _load_named(name)
    empty = np.zeros((0, 1), dtype=np.int64)
    probe = {"scale_limbs": (empty[:, 0], np.zeros(0, np.uint16), np.zeros((1, 1), np.int64), empty),
             "limb_terms": (empty, 1)}[name]
    try:
        if function is not None:
            function(*probe)
    except NotImplementedError:
        return None
    return function


#: ``scale_limbs(nums, codes, factors, out)`` in C, or None: out[k] = nums[k]·factors[codes[k]] in limbs (factors
#: an (codes, L) int64 array of magnitudes, out a (cells, L) one); OverflowError where a product passes L limbs.
scale_limbs: Callable[[Any, Any, Any, Any], None] | None = _load_wide("scale_limbs")
#: ``limb_terms(limbs, q)`` in C, or None: (gcd(q, every value), least trailing zeros of a nonzero value or -1,
#: largest bit length of |value|) of the (values, L) int64 limbs, 0 < q < 2^63
#: (`verify_perceptron.data.limb_arrays.lowest_terms_facts`).
limb_terms: Callable[[Any, int], tuple[int, int, int]] | None = _load_wide("limb_terms")


def _load_square() -> Callable[[Any, Any], None] | None:
    """The limb extension's `square_limbs`, or None where it did not import, predates it or has no __int128."""
    import numpy as np

    try:
        function = importlib.import_module(f"{__package__}._limbrows").square_limbs
        function(np.zeros((0, 1), dtype=np.int64), np.zeros((0, 2), dtype=np.int64))
    except (ImportError, AttributeError, NotImplementedError):
        return None
    return function  # type: ignore[no-any-return]


#: ``square_limbs(V, out)`` in C, or None: out[i] = V[i]², exactly, V (n, K) int64 limbs, out (n, L >= 2 K)
#: (`verify_perceptron.data.wide_squares.int_squares`).
square_limbs: Callable[[Any, Any], None] | None = _load_square()


def _load_gathered() -> Callable[[Any, Any, Any, Any], None] | None:
    """The limb extension's `gathered_sums`, or None where it did not import or predates it."""
    try:
        return importlib.import_module(f"{__package__}._limbrows").gathered_sums  # type: ignore[no-any-return]
    except (ImportError, AttributeError):
        return None


#: ``gathered_sums(M, rows, points, out)`` in C, or None: out[j] = M[rows[0]] + ... + M[rows[points[j]]] in
#: limbs, M (n, K), out (points, K + 1) (`verify_perceptron.check._chunk_sums.margin_sums`).
gathered_sums: Callable[[Any, Any, Any, Any], None] | None = _load_gathered()
