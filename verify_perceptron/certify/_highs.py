"""HiGHS's compiled core called directly, without importing `scipy.optimize`: `lp_solution`.

`scipy.optimize.linprog` needs SciPy's whole optimizer package, and with it
linalg, sparse, special and more: 38 MiB of resident memory in the process
that imports it, against under 3 MiB for the HiGHS extension module alone.
The separability worker (`verify_perceptron.certify.beside`) forks from the
`verify` process and its peak counts in the command's, so it loads the
extension module by its file, with no parent package imported, and poses the
same model with the same options `linprog` would (``method="highs-ds"`` or
``"highs"``): HiGHS is deterministic, so the same vertex comes back, and the
same acceptance rule (`linprog`'s check of the answer against the
constraints) decides whether it is used. Whatever the answer, it is only a
proposal: the caller checks it exactly. Where the module is not found where
SciPy puts it, or does not have what is used here, `lp_solution` returns
`UNAVAILABLE` and the caller uses `linprog`.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from typing import Any

import numpy as np

__all__ = ["CORE_ONLY", "UNAVAILABLE", "core", "lp_solution"]

#: What `lp_solution` returns when the core cannot be used (the caller then asks `linprog`).
UNAVAILABLE = "unavailable"
#: Whether `verify_perceptron.certify.proposal` solves its LPs here (set in the separability worker, whose peak
#: counts in `verify`'s); elsewhere `linprog` is used, whose import leaves `scipy.optimize` (and its NNLS, which
#: the exact method's start reads when it is imported: `._nnls_start`) to the process.
CORE_ONLY = False

_NAME = "scipy.optimize._highspy._core"
_core: Any = "not looked for"


def core() -> Any:
    """The HiGHS extension module SciPy ships, loaded by its file (its parent packages not imported), or None."""
    global _core
    if not isinstance(_core, str):
        return _core
    _core = sys.modules.get(_NAME)
    if _core is not None:
        return _core
    try:
        spec = importlib.util.find_spec("scipy")  # (finds the package's directory; imports nothing)
        folder = None if spec is None or spec.origin is None else os.path.join(
            os.path.dirname(spec.origin), "optimize", "_highspy")
        for suffix in importlib.machinery.EXTENSION_SUFFIXES if folder is not None else ():
            path = os.path.join(folder, "_core" + suffix)  # type: ignore[arg-type]
            if os.path.exists(path):
                loader = importlib.machinery.ExtensionFileLoader(_NAME, path)
                module = importlib.util.module_from_spec(importlib.machinery.ModuleSpec(_NAME, loader, origin=path))
                loader.exec_module(module)
                module.HighsLp, module._Highs, module.simplex_constants.SimplexStrategy.kSimplexStrategyDual  # noqa: B018
                sys.modules[_NAME] = _core = module  # (SciPy's own import, if one comes, finds it)
                return _core
    except Exception:  # noqa: BLE001 - any failure: linprog is asked instead
        pass
    _core = None
    return None


def lp_solution(A: Any, lower: Any, upper: Any, bounds: tuple[float, float], *, dual_simplex: bool,
                time_limit: float | None) -> Any:
    """x with lower <= A·x <= upper, bounds[0] <= x_j <= bounds[1] (objective 0), as `linprog` finds it.

    ``A`` is dense (rows x columns, float64); infinite sides and bounds are
    allowed. Returns x (float64), None where `linprog` would report no
    optimal x (infeasible, a limit, numerical trouble, an answer outside
    its tolerance), or `UNAVAILABLE`.

    Examples
    --------
    >>> x = lp_solution(np.array([[1.0, 1.0]]), np.array([1.0]), np.array([1.0]), (0.0, np.inf),
    ...                 dual_simplex=True, time_limit=None)
    >>> x is UNAVAILABLE or bool(abs(x.sum() - 1) < 1e-9 and (x >= 0).all())
    True
    """
    global _core
    h = core()
    if h is None:
        return UNAVAILABLE
    try:
        return _solved(h, A, lower, upper, bounds, dual_simplex, time_limit)
    except (AttributeError, TypeError):  # another SciPy's core, whose interface differs: linprog from now on
        _core = None
        return UNAVAILABLE


def _solved(h: Any, A: Any, lower: Any, upper: Any, bounds: tuple[float, float], dual_simplex: bool,
            time_limit: float | None) -> Any:
    """`lp_solution` with the core `h`."""
    rows, columns = A.shape
    infinite = h.kHighsInf
    lp = h.HighsLp()
    lp.num_col_, lp.num_row_ = columns, rows
    lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = columns, rows
    lp.a_matrix_.format_ = h.MatrixFormat.kColwise
    by_column = np.ascontiguousarray(A.T)
    nonzero = by_column != 0  # (column-wise, explicit zeros left out, row indices ascending: a CSC matrix's)
    lp.a_matrix_.start_ = np.concatenate(([0], np.cumsum(nonzero.sum(axis=1)))).astype(np.int32)
    lp.a_matrix_.index_ = np.nonzero(nonzero)[1].astype(np.int32)
    lp.a_matrix_.value_ = by_column[nonzero]
    lp.col_cost_ = np.zeros(columns)
    lp.col_lower_ = np.full(columns, max(bounds[0], -infinite))
    lp.col_upper_ = np.full(columns, min(bounds[1], infinite))
    lp.row_lower_ = np.clip(lower, -infinite, infinite)
    lp.row_upper_ = np.clip(upper, -infinite, infinite)
    options = h.HighsOptions()
    options.presolve = "on"
    if dual_simplex:
        options.solver = "simplex"
    if time_limit is not None:
        options.time_limit = time_limit
    options.highs_debug_level = h.HighsDebugLevel.kHighsDebugLevelNone
    options.log_to_console = options.output_flag = False
    options.simplex_strategy = h.simplex_constants.SimplexStrategy.kSimplexStrategyDual
    highs = h._Highs()
    if highs.passOptions(options) == h.HighsStatus.kError or highs.passModel(lp) == h.HighsStatus.kError \
            or highs.run() == h.HighsStatus.kError or highs.getModelStatus() != h.HighsModelStatus.kOptimal:
        return None
    solution = highs.getSolution()
    x, made = np.array(solution.col_value), np.array(solution.row_value)
    # linprog's acceptance: no NaN, x within its bounds, A·x within its sides, each to sqrt(1e-9)·10
    tol = np.sqrt(1e-9) * 10
    if np.isnan(x).any() or np.isnan(made).any():
        return None
    inside = (x >= bounds[0] - tol).all() and (x <= bounds[1] + tol).all()
    equal = lower == upper
    sides = (upper[~equal] - made[~equal] >= -tol).all() and (np.abs(upper[equal] - made[equal]) <= tol).all()
    return x if inside and sides else None
