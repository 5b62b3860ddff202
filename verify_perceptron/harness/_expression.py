"""The EXPR of a ``MODULE:EXPR`` target, evaluated safely: a dotted name inside the module, or a call of
one with literal arguments only (``Perceptron(shuffle=False, tol=None)``), read with `ast`, never `eval`."""

from __future__ import annotations

import ast
from typing import Any

from ..errors import InvalidArgument
from ._clock import OutOfTime
from ._wording import _exception_text


def resolve_expression(module: object, expression: str, target: str) -> object:
    """The value `expression` names in `module`: ``name.attr`` or ``name.attr(literal, key=literal)``.

    Only a dotted name is looked up, and a call's arguments must be Python
    literals (numbers, strings, None, True/False, tuples, lists, dicts, sets):
    nothing else in the text is run. `target` is the whole text, for errors.

    Examples
    --------
    >>> import fractions
    >>> resolve_expression(fractions, "Fraction(3, 6)", "fractions:Fraction(3, 6)")
    Fraction(1, 2)
    >>> resolve_expression(fractions, "Fraction", "fractions:Fraction") is fractions.Fraction
    True
    >>> resolve_expression(fractions, "Fraction(len('ab'))", "fractions:Fraction(len('ab'))")
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.InvalidArgument: target="fractions:Fraction(len('ab'))": argument len('ab') is not a literal (only numbers, strings, None, True, False, tuples, lists, dicts and sets may be passed)
    """
    try:
        tree = ast.parse(expression.strip(), mode="eval").body
    except SyntaxError as error:
        raise InvalidArgument(f"target={target!r}: {expression!r} is not a name or a call ({error.msg})") from None
    if isinstance(tree, ast.Call):
        function = _lookup(module, _dotted(tree.func, target), target)
        if any(isinstance(a, ast.Starred) for a in tree.args) or any(k.arg is None for k in tree.keywords):
            raise InvalidArgument(f"target={target!r}: *args and **kwargs are not allowed, only literal arguments")
        args = [_literal(a, target) for a in tree.args]
        kwargs = {k.arg: _literal(k.value, target) for k in tree.keywords if k.arg is not None}
        if not callable(function):
            raise InvalidArgument(f"target={target!r}: {ast.unparse(tree.func)} is not callable")
        try:
            return function(*args, **kwargs)
        except (KeyboardInterrupt, OutOfTime):
            raise
        except BaseException as error:  # noqa: BLE001 - the constructor's own complaint (or exit), the target's
            raise InvalidArgument(f"target={target!r}: calling it raised {_exception_text(error)}") from None
    return _lookup(module, _dotted(tree, target), target)


def _dotted(node: ast.expr, target: str) -> list[str]:
    """``a.b.c`` as ``["a", "b", "c"]``; InvalidArgument for anything else."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        raise InvalidArgument(f"target={target!r}: {ast.unparse(node)!s} is not a dotted name "
                              "(MODULE:NAME or MODULE:NAME(literal arguments))")
    parts.append(node.id)
    return parts[::-1]


def _lookup(module: object, parts: list[str], target: str) -> object:
    value: object = module
    for part in parts:
        try:
            value = getattr(value, part)
        except AttributeError:
            name = getattr(module, "__name__", "the module")
            raise InvalidArgument(f"target={target!r}: {name} has no attribute {'.'.join(parts)}") from None
    return value


def _literal(node: ast.expr, target: str) -> Any:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, RecursionError):
        raise InvalidArgument(f"target={target!r}: argument {ast.unparse(node)} is not a literal (only numbers, "
                              "strings, None, True, False, tuples, lists, dicts and sets may be passed)") from None
