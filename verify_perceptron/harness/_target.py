"""The implementation under check: loading it by name, telling its kind (function, estimator class or
instance), naming it in reports, a fresh estimator for each dataset, and the data as it expects them.

Loading runs the implementation's code (its module's import, a constructor
named in the target, ``get_params``): `load_named` does it in the worker
process that will run the implementation (`_loading`), so that the check's
own process runs none of it; whatever that code raises or exits with is bad
input, and what it prints is kept. Calls run at arm's length (`_runner`)."""

from __future__ import annotations

import copy
import importlib
import importlib.util
import os
import sys
from typing import Any, NamedTuple

import numpy as np

from ..data.dataset import Dataset
from ..data.rationals import shown_value
from ..errors import InvalidArgument
from ._clock import OutOfTime
from ._configuration import _params
from ._expression import resolve_expression
from ._implementation import Labels, Samples
from ._options import CheckOptions
from ._process import CommandImplementation
from ._tokens import given
from ._wording import _exception_text


def load_target(target: object) -> object:
    """The implementation `target` names: ``"module:attribute"`` is imported (the module may also be a Python
    file's path, ``perceptron.py:fit``), anything else returned as is.

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
    module_name, expression = named(target)
    try:
        module: object = (_from_file(module_name, target) if module_name.endswith(".py") or "/" in module_name
                          or os.sep in module_name else importlib.import_module(module_name))
    except ImportError as error:
        raise InvalidArgument(f"target={shown_value(target)}: cannot import {module_name} ({_exception_text(error)})") from None
    except (KeyboardInterrupt, OutOfTime, InvalidArgument):
        raise
    except BaseException as error:  # noqa: BLE001 - the module's own fault (sys.exit included), the target's
        raise InvalidArgument(f"target={shown_value(target)}: importing {module_name} raised {_exception_text(error)}") from None
    return resolve_expression(module, expression, target)


def _from_file(path: str, target: str) -> object:
    """The module of the Python file `path` (``perceptron.py:fit``, ``src/perceptron.py:fit``), imported under
    its file's name with its folder first on ``sys.path``, as ``python path`` runs a script: its own imports of
    its neighbours work, and its functions can be found again by name (pickled to the worker)."""
    full = os.path.abspath(path)
    if not os.path.isfile(full):
        raise InvalidArgument(f"target={shown_value(target)}: {path} is not a file (a Python file's path, or a module's "
                              "dotted name, before the colon)")
    name = os.path.splitext(os.path.basename(full))[0]
    loaded = sys.modules.get(name)
    if loaded is not None and os.path.abspath(getattr(loaded, "__file__", "") or "") == full:
        return loaded
    if loaded is not None or not name.isidentifier():  # a file named random.py must not replace the module random
        name = "_checked_" + "".join(c if c.isalnum() else "_" for c in name)
    folder = os.path.dirname(full)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location(name, full)
    if spec is None or spec.loader is None:
        raise InvalidArgument(f"target={shown_value(target)}: {path} cannot be imported as Python (a .py file is needed)")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def named(target: str) -> tuple[str, str]:
    """``(module, expression)`` of ``"module:expression"`` (`InvalidArgument` when it is not of that form), with
    the current directory put on ``sys.path`` (as ``python -m`` does); nothing is imported.

    Examples
    --------
    >>> named("mypackage.perceptron:fit")
    ('mypackage.perceptron', 'fit')
    """
    module_name, sep, expression = target.partition(":")
    module_name = module_name.strip()
    if not sep or not module_name or not expression.strip():
        raise InvalidArgument(f"target={shown_value(target)} must be MODULE:CALLABLE, e.g. mypackage.perceptron:fit")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    return module_name, expression


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
    raise InvalidArgument(f"target={shown_value(target)} is neither a fit(X, y) function nor an estimator with fit")


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
        first, apart = target.label_column == "first", target.delimiter != ","
        layout = ", ".join((["the label first in {train}"] if first else []) + (["a header line"] if target.header else [])
                           + ([f"values apart by {target.delimiter!r}"] if apart else []))
        return (f"command {target.template!r} (in {target.cwd}{', ' + layout if layout else ''})",
                ("from verify_perceptron.harness import command_implementation; ",
                 f"command_implementation({target.template!r}, cwd={target.cwd!r}"
                 f"{', label_column=' + repr('first') if first else ''}{', header=True' if target.header else ''}"
                 f"{', delimiter=' + repr(target.delimiter) if apart else ''})"))
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
        if not callable(target):  # `_kind` says "estimator class" of classes only
            raise TypeError(f"{type(target).__name__} object is not callable")
        return target()
    get_params = getattr(target, "get_params", None)
    if callable(get_params):
        try:
            return type(target)(**get_params(deep=False))
        except Exception:  # noqa: BLE001 - not a scikit-learn-style constructor: copy instead
            pass
    return copy.deepcopy(target)


class Loaded(NamedTuple):
    """What loading an implementation named by text taught the process that loaded it, as plain data: its
    kind, its configuration (``get_params()``, `_configuration._params`), or (kind None) why it cannot be used."""

    kind: str | None
    params: dict[str, Any]
    error: str | None = None
    command: CommandImplementation | None = None  # a command it names: plain data, run by the check itself


def load_named(name: str) -> tuple[object | None, Loaded]:
    """Import the implementation `name` (``MODULE:EXPR``) here, and look at it: it, and what the check needs
    to know of it. Whatever its code raises or exits with is the record's error, the text of bad input."""
    try:
        target = load_target(name)
        kind = _kind(target)
        params = _params(target, kind)
    except InvalidArgument as error:
        return None, Loaded(None, {}, str(error))
    except BaseException as error:  # noqa: BLE001 - its attributes or repr ran its code, which failed
        return None, Loaded(None, {}, f"target={shown_value(name)}: looking at it raised {_exception_text(error)}")
    if isinstance(target, CommandImplementation):
        return target, Loaded(kind, params, command=CommandImplementation(target.template, target.cwd))
    return target, Loaded(kind, params)


def _inputs(data: Dataset, options: CheckOptions) -> tuple[Samples, Labels]:
    """X and y in the form the implementation expects (fresh objects for every call)."""
    labels = given(data.y, options.labels, options.classes)
    if options.dtype == "float":
        return (np.array([[float(v) for v in row] for row in data.X], dtype=np.float64),
                np.array(labels, dtype=np.str_ if labels and isinstance(labels[0], str) else np.int64))
    if options.dtype == "fraction":
        return [list(row) for row in data.X], labels
    X = np.empty((data.n_samples, data.n_features), dtype=object)
    for i, row in enumerate(data.X):
        X[i, :] = list(row)
    y = np.empty(data.n_samples, dtype=object)
    y[:] = labels
    return X, y
