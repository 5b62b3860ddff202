"""The implementation under check: loading it by name, telling its kind (function, estimator class or
instance), naming it in reports, a fresh estimator for each dataset, and the data as it expects them.

Loading runs the implementation's code (its module's import, a constructor
named in the target, ``get_params``) in the check's own process, as pytest
imports a test module: whatever that code raises or exits with is bad input
(`InvalidArgument`), and what it prints is kept (`_prepare`); calls run at
arm's length (`_runner`)."""

from __future__ import annotations

import copy
import importlib
import os
import sys
from typing import Any, NamedTuple

import numpy as np

from ..data.dataset import Dataset
from ..errors import InvalidArgument
from ._capture import Capped, captured_output
from ._clock import OutOfTime
from ._configuration import _params
from ._expression import resolve_expression
from ._options import CheckOptions
from ._process import CommandImplementation
from ._wording import _exception_text


def load_target(target: object) -> object:
    """The implementation `target` names: ``"module:attribute"`` is imported, anything else returned as is.

    The current directory is put on ``sys.path`` first (as ``python -m`` does),
    so a module of the project being tested can be named. The part after the
    colon may also call what it names with literal arguments
    (``"sklearn.linear_model:Perceptron(shuffle=False, tol=None)"``), read
    with `ast`, never evaluated as code.

    Examples
    --------
    >>> from fractions import Fraction
    >>> load_target("fractions:Fraction") is Fraction
    True
    >>> load_target("fractions:Fraction(1, 3)")
    Fraction(1, 3)
    >>> load_target("fractions")
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.InvalidArgument: target='fractions' must be MODULE:CALLABLE, e.g. mypackage.perceptron:fit
    """
    if not isinstance(target, str):
        return target
    module_name, sep, expression = target.partition(":")
    module_name = module_name.strip()
    if not sep or not module_name or not expression.strip():
        raise InvalidArgument(f"target={target!r} must be MODULE:CALLABLE, e.g. mypackage.perceptron:fit")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        module: object = importlib.import_module(module_name)
    except ImportError as error:
        raise InvalidArgument(f"target={target!r}: cannot import {module_name} ({_exception_text(error)})") from None
    except (KeyboardInterrupt, OutOfTime):
        raise
    except BaseException as error:  # noqa: BLE001 - the module's own fault (sys.exit included), the target's
        raise InvalidArgument(f"target={target!r}: importing {module_name} raised {_exception_text(error)}") from None
    return resolve_expression(module, expression, target)


def _kind(target: object) -> str:
    if isinstance(target, CommandImplementation):
        return "command"
    if isinstance(target, type):
        if callable(getattr(target, "fit", None)):
            return "estimator class"
        raise InvalidArgument(f"target={_describe(target)[0]} is a class without a fit method")
    if not _is_function(target) and callable(getattr(target, "fit", None)):
        return "estimator"
    if callable(target):
        return "function"
    raise InvalidArgument(f"target={target!r} is neither a fit(X, y) function nor an estimator with fit")


def _is_function(target: object) -> bool:
    import types

    return isinstance(target, (types.FunctionType, types.BuiltinFunctionType, types.MethodType))


def _describe(target: object) -> tuple[str, tuple[str, str] | None]:
    """How reports name `target`, and how a reproduction can: ``(label, (import, expression) or None)``.

    A function or class that imports back by ``module:qualname`` is named so; an
    estimator instance by its class and repr (``sklearn.linear_model:Perceptron(tol=None)``).
    """
    if isinstance(target, str):
        return target, ("", repr(target))
    if isinstance(target, CommandImplementation):
        return (f"command {target.template!r} (in {target.cwd})",
                ("from verify_perceptron.harness import command_implementation; ",
                 f"command_implementation({target.template!r}, cwd={target.cwd!r})"))
    module, qualname = getattr(target, "__module__", None), getattr(target, "__qualname__", None)
    if module and qualname and module != "__main__":
        found: object = sys.modules.get(module)
        for part in qualname.split("."):
            found = getattr(found, part, None)
        if found is target:
            return f"{module}:{qualname}", ("", repr(f"{module}:{qualname}"))
    cls = type(target)
    if callable(getattr(target, "fit", None)) and not _is_function(target) and "<" not in cls.__qualname__:
        shown = " ".join(repr(target).split())
        public = _public_module(cls)
        if shown.startswith(cls.__name__ + "(") and getattr(sys.modules.get(public), cls.__name__, None) is cls:
            return f"{public}:{shown}", (f"from {public} import {cls.__name__}; ", shown)
    if module and qualname:
        return f"{module}:{qualname} (not importable by that name)", None
    return f"a {cls.__name__} object (not importable by name)", None


def _public_module(cls: type) -> str:
    """The shortest loaded module path that exports `cls` (``sklearn.linear_model``, not ``..._perceptron``)."""
    parts = cls.__module__.split(".")
    for end in range(1, len(parts) + 1):
        module = sys.modules.get(".".join(parts[:end]))
        if module is not None and getattr(module, cls.__name__, None) is cls:
            return ".".join(parts[:end])
    return cls.__module__


def _fresh(target: object, kind: str) -> Any:
    """A new estimator for one dataset: the class built with no arguments, or the instance cloned."""
    if kind == "estimator class":
        return target()  # type: ignore[operator]
    get_params = getattr(target, "get_params", None)
    if callable(get_params):
        try:
            return type(target)(**get_params(deep=False))
        except Exception:  # noqa: BLE001 - not a scikit-learn-style constructor: copy instead
            pass
    return copy.deepcopy(target)


class Prepared(NamedTuple):
    """An implementation ready to check: loaded, its kind, how reports name it, its ``get_params()``, and what
    it printed while being loaded."""

    target: object
    kind: str
    label: tuple[str, tuple[str, str] | None]
    params: dict[str, Any]
    output: str


def _prepare(target: object) -> Prepared:
    """The implementation loaded, its kind, how reports name it, its parameters, and what it printed meanwhile.

    Its output (file descriptors 1 and 2 included) is kept, never mixed with
    the check's own (a JSON report on standard output stays JSON). Whatever its
    code raises or exits with while it is loaded and looked at is `InvalidArgument`.
    """
    kept = Capped()
    with captured_output(kept):
        try:
            loaded = load_target(target)
            kind = _kind(loaded)
            label = _describe(target) if isinstance(target, str) else _describe(loaded)
            params = _params(loaded, kind)
        except (InvalidArgument, KeyboardInterrupt, OutOfTime):
            raise
        except BaseException as error:  # noqa: BLE001 - its attributes or repr ran its code, which failed
            raise InvalidArgument(f"target={_safe_repr(target)}: looking at it raised {_exception_text(error)}") from None
    return Prepared(loaded, kind, label, params, kept.text())


def _safe_repr(value: object) -> str:
    try:
        text = repr(value)
    except BaseException:  # noqa: BLE001 - a repr that fails is the target's
        return f"a {type(value).__name__} object"
    return text if len(text) <= 200 else text[:200] + "..."


def _inputs(data: Dataset, options: CheckOptions) -> tuple[Any, Any]:
    """X and y in the form the implementation expects (fresh objects for every call)."""
    labels = [label if options.labels == "-1/+1" else (1 if label > 0 else 0) for label in data.y]
    if options.dtype == "float":
        return np.array([[float(v) for v in row] for row in data.X], dtype=np.float64), np.array(labels, dtype=np.int64)
    if options.dtype == "fraction":
        return [list(row) for row in data.X], labels
    X = np.empty((data.n_samples, data.n_features), dtype=object)
    for i, row in enumerate(data.X):
        X[i, :] = list(row)
    y = np.empty(data.n_samples, dtype=object)
    y[:] = labels
    return X, y
