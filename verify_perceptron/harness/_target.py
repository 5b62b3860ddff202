"""The implementation under check: loading it by name, telling its kind (function, estimator class or
instance), naming it in reports, and calling it on one dataset under a time limit."""

from __future__ import annotations

import contextlib
import copy
import importlib
import io
import os
import sys
import warnings
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..data.dataset import Dataset
from ..deadline import alarm
from ..errors import InvalidArgument
from ._expression import resolve_expression
from ._options import CheckOptions
from ._process import CommandFailed, CommandImplementation
from ._reading import _estimator_weights, _split_return


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
        raise InvalidArgument(f"target={target!r}: cannot import {module_name} ({error})") from None
    except Exception as error:  # noqa: BLE001 - the module's own fault, reported as the target's
        raise InvalidArgument(f"target={target!r}: importing {module_name} raised {type(error).__name__}: {error}") from None
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


def _prepare(target: object) -> tuple[object, str, tuple[str, tuple[str, str] | None]]:
    """The implementation loaded, its kind, and how reports name it."""
    loaded = load_target(target)
    kind = _kind(loaded)
    return loaded, kind, (_describe(target) if isinstance(target, str) else _describe(loaded))


class _TimedOut(BaseException):
    """Raised inside the implementation when its time is up (a BaseException, so no `except Exception` eats it)."""


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


@dataclass(frozen=True)
class _Call:
    """What one call of the implementation gave: its weights and updates as returned, or why there are none."""

    weights: Any = None
    updates: Any = None
    signalled: bool = False
    error: str | None = None
    warnings: tuple[str, ...] = ()
    output: str = ""


def _call(target: object, kind: str, X: Any, y: Any, options: CheckOptions) -> _Call:
    with warnings.catch_warnings(record=True) as records:
        warnings.simplefilter("always")
        outcome = _call_quietly(target, kind, X, y, options)
    caught = tuple(dict.fromkeys(f"{r.category.__name__}: {r.message}" for r in records))
    return replace(outcome, warnings=caught)


def _call_quietly(target: object, kind: str, X: Any, y: Any, options: CheckOptions) -> _Call:
    """One call, its printing kept (shown only if it fails) and its time limited; whatever it raises
    becomes the record's error."""
    if kind == "command":
        return _call_command(target, X, y, options)  # type: ignore[arg-type]
    printed = io.StringIO()
    outcome = _call_python(target, kind, X, y, options, printed)
    return replace(outcome, output=printed.getvalue())


def _call_python(target: object, kind: str, X: Any, y: Any, options: CheckOptions, printed: io.StringIO) -> _Call:
    try:
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed), \
                alarm(options.call_timeout, _TimedOut):
            if kind == "function":
                raw = target(X, y)  # type: ignore[operator]
                if raw is None:
                    return _Call(signalled=True)
                weights, updates = _split_return(raw)
            else:
                estimator = _fresh(target, kind)
                estimator.fit(X, y)
                weights, updates = _estimator_weights(estimator)
    except _TimedOut:
        return _Call(error=f"did not return within call_timeout={options.call_timeout} s")
    except Exception as error:  # noqa: BLE001 - whatever it raises is a finding, or its signal
        if options.nonseparable_errors and isinstance(error, options.nonseparable_errors):
            return _Call(signalled=True)
        return _Call(error=f"raised {type(error).__name__}: {error}")
    return _Call(weights, updates)


def _call_command(target: CommandImplementation, X: Any, y: Any, options: CheckOptions) -> _Call:
    """One run of the command; its weights laid out as ``(w, b)`` unless ``output="augmented"``."""
    try:
        flat, updates, output = target.run(X, y, dtype=options.dtype, timeout=options.call_timeout)
    except CommandFailed as failure:
        reason, _, output = str(failure).partition("\n")
        return _Call(error=f"(the command) {reason}", output=output)
    if flat is None:
        return _Call(signalled=True, output=output)
    d = len(X[0])
    if len(flat) != d + 1:
        return _Call(error=f"(the command) wrote {len(flat)} value{'s' * (len(flat) != 1)} to its weights file; "
                     f"{d + 1} needed: w1 ... w{d}, then the bias", output=output)

    def laid_out(values: list[Any]) -> Any:
        return values if options.output == "augmented" or not values else (values[:-1], values[-1])

    if updates is not None:
        updates = [(i, laid_out(w)) for i, w in updates]
    return _Call(laid_out(flat), updates, output=output)
