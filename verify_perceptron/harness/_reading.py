"""What an implementation gives back, read: its weights and reported updates split apart and converted,
exactly, to the convention's coordinates (floats through `Fraction.from_float`)."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

import numpy as np

from ..data.rationals import as_rational, shown_value
from ..notes.conventions import Convention
from ._exact import Vector
from ._options import MAX_REPORTED_UPDATES
from ._wording import _short


def _plain(value: object) -> object:
    """`value` as a NumPy array when it is another library's array (a pandas Series, a PyTorch tensor, a JAX array:
    anything with ``__array__`` that NumPy converts), else itself.

    Examples
    --------
    >>> class Tensor:  # an array library's vector
    ...     def __array__(self, dtype=None, copy=None):
    ...         return np.array([1.5, -2.0])
    >>> _plain(Tensor()), _plain([1, 2])
    (array([ 1.5, -2. ]), [1, 2])
    """
    if value is None or isinstance(value, (list, tuple, dict, np.ndarray, np.generic, str, bytes, int, float, Fraction)):
        return value
    if hasattr(value, "__array__"):
        try:
            return np.asarray(value)
        except Exception:  # noqa: BLE001 - its conversion refused (a tensor on a GPU, one that needs its gradient)
            return value
    return value


def _split_return(raw: object) -> tuple[object, object]:
    """``(w, b, updates)`` or ``(augmented, updates)`` -> the weights and the updates; a dict is read by its keys
    as an estimator by its attributes (``{"w": ..., "b": ...}``), and so is a model object (a dataclass with ``w``
    and ``b``); else the weights alone. Other libraries' arrays (a pandas Series, a tensor) are read as NumPy's
    (`_plain`)."""
    raw = _plain(raw)
    if isinstance(raw, (tuple, list)) and len(raw) <= 3:
        raw = (list if isinstance(raw, list) else tuple)(_plain(item) for item in raw)  # a namedtuple too
    if isinstance(raw, dict) and all(isinstance(key, str) for key in raw):
        try:
            return _named_weights(raw.get, "the returned dict has no key")
        except AttributeError:
            return raw, None
    if not isinstance(raw, (list, tuple, np.ndarray)) and any(hasattr(raw, n) for n in ("coef_", *WEIGHT_NAMES)):
        try:  # a model object (a dataclass, a trained model with .w and .b): read as an estimator is
            return _named_weights(lambda name: getattr(raw, name, None), "the returned object has no coef_")
        except AttributeError:
            return raw, None
    if isinstance(raw, (tuple, list)) and raw and _is_vector(raw[0]):
        if len(raw) == 3 and _looks_like_updates(raw[2]):
            return (raw[0], raw[1]), raw[2]
        if len(raw) == 2 and _looks_like_updates(raw[1]):
            return raw[0], raw[1]
    return raw, None


def _looks_like_updates(value: object) -> bool:
    """A list of (index, weights) pairs, or an iterator (which a bias never is)."""
    if isinstance(value, (str, bytes, np.ndarray)) or not hasattr(value, "__iter__"):
        return False
    if not isinstance(value, (list, tuple)):
        return True
    return all(isinstance(item, (list, tuple)) and len(item) == 2
               and isinstance(item[0], (int, np.integer)) and not isinstance(item[0], bool) for item in value)


#: Where estimators that are not scikit-learn's keep their weights after fit, in the order looked at, and their
#: bias when it is apart (Raschka's book: ``w_`` with the bias first, later ``w_`` and ``b_``; course code:
#: ``weights`` and ``bias``; ``W`` and ``B``; ``w`` and ``w0``). Without a bias attribute the weights are one
#: augmented vector.
WEIGHT_NAMES = ("w_", "weights_", "weights", "w", "W", "theta_", "theta", "weight", "coefs", "_weights", "_w",
                "_theta")
BIAS_NAMES = ("b_", "bias_", "bias", "b", "intercept", "_bias", "_b", "B", "w0", "theta0")


def _estimator_weights(estimator: Any) -> tuple[Any, Any]:
    """An estimator's weights after fit: ``coef_`` and ``intercept_`` (scikit-learn's), else the first of
    `WEIGHT_NAMES` it has, with the first of `BIAS_NAMES` as its bias (else one augmented vector); and its
    reported updates (``updates_``)."""
    if not hasattr(estimator, "coef_"):
        return _named_weights(lambda name: getattr(estimator, name, None), "after fit, the estimator has no coef_")
    coef = np.asarray(estimator.coef_, dtype=object).ravel()
    intercept = getattr(estimator, "intercept_", 0)
    classes = getattr(estimator, "classes_", None)
    # scikit-learn's coef_ scores classes_[1]; flip when that is the negative class
    if classes is not None and len(classes) == 2 and classes[1] in (-1, 0) and classes[0] in (1,):
        coef = -coef
        intercept = -np.asarray(intercept, dtype=object)
    return (coef, intercept), getattr(estimator, "updates_", None)


def _named_weights(found: Any, missing: str) -> tuple[Any, Any]:
    """The weights under the first of `WEIGHT_NAMES` that `found` gives as numbers (a pair with the first of
    `BIAS_NAMES` holding one number, else one augmented vector), and ``updates_``; AttributeError saying
    `missing` and where it looked when there are none. Other libraries' arrays are read as NumPy's (`_plain`)."""
    def get(name: str) -> object:
        return _plain(found(name))

    name = next((n for n in ("coef_", "coef", *WEIGHT_NAMES) if _is_weights(get(n))), None)
    if name is None:
        raise AttributeError(f"{missing}, nor any of {', '.join(WEIGHT_NAMES[:-1])} or {WEIGHT_NAMES[-1]} holding "
                             "its weights")
    bias = next((_one_number(get(b)) for b in ("intercept_", *BIAS_NAMES) if _one_number(get(b)) is not None), None)
    return (get(name) if bias is None else (get(name), bias)), get("updates_")


def _is_weights(value: object) -> bool:
    """A vector of numbers (not a method, a string or an empty list)."""
    return _is_vector(value) and len(value) > 0 and all(_is_number(v) for v in np.asarray(value, dtype=object).ravel())  # type: ignore[arg-type]


def _one_number(value: object) -> object | None:
    """`value` when it is a number, its one item when it is a vector of one number (mlxtend's ``b_``), else None."""
    if _is_vector(value) and np.asarray(value, dtype=object).size == 1:
        value = np.asarray(value, dtype=object).ravel()[0]
    return value if _is_number(value) else None


def _is_number(value: object) -> bool:
    """An int, a float, a Fraction or a NumPy scalar (a 0-d array too), not a bool."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    return isinstance(value, (int, float, Fraction, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def _is_vector(value: object) -> bool:
    return isinstance(value, (list, tuple)) or (isinstance(value, np.ndarray) and value.ndim >= 1)


#: How deep weights may be nested in lists and tuples (``(w, b)`` with ``w`` a row of a matrix is 3).
MAX_NESTING = 8


def _flat(value: object, depth: int = 0) -> list[object]:
    """The numbers in `value`, nested lists, tuples and arrays read in order; ValueError past `MAX_NESTING`
    (a list that contains itself has no end).

    Examples
    --------
    >>> _flat(([1, 2], (3,)))
    [1, 2, 3]
    >>> loop = []
    >>> loop.append(loop)
    >>> _flat(loop)
    Traceback (most recent call last):
    ...
    ValueError: nested more than 8 deep (a list that contains itself?)
    """
    if isinstance(value, np.ndarray):
        return list(value.astype(object).ravel())
    if isinstance(value, (list, tuple)):
        if depth >= MAX_NESTING:
            raise ValueError(f"nested more than {MAX_NESTING} deep (a list that contains itself?)")
        out: list[object] = []
        for item in value:
            out.extend(_flat(item, depth + 1) if _is_vector(item) else [item])
        return out
    return [value]


def _flat_of(value: object, what: str) -> list[object]:
    try:
        return _flat(value)
    except ValueError as error:
        raise ValueError(f"{what}: {error}") from None


def _exact_weights(raw: object, conv: Convention, n_features: int, output: str, what: str) -> Vector:
    """The weights in the convention's coordinates, exactly; ValueError naming what is wrong.

    `output` is ``pair``, ``augmented`` (the convention's order), ``auto`` (a pair when its first item
    is a vector, else ``augmented``), or ``bias-first`` / ``bias-last`` (as ``auto``, but a flat
    vector is ``[b, w1, ..., wd]`` / ``[w1, ..., wd, b]``).

    Examples
    --------
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> classic = get_convention("classic")  # its augmented order: the bias first
    >>> [str(v) for v in _exact_weights([1, 2, 3], classic, 2, "bias-last", "w")]
    ['3', '1', '2']
    >>> [str(v) for v in _exact_weights([1, 2, 3], classic, 2, "bias-first", "w")]
    ['1', '2', '3']
    """
    pair = output == "pair" or (output in ("auto", "bias-first", "bias-last") and isinstance(raw, (tuple, list))
                                and len(raw) == 2 and _is_vector(raw[0]))
    if pair:
        if not isinstance(raw, (tuple, list)) or len(raw) != 2:
            raise ValueError(f"{what} is {_short(raw)}, not a pair (w, b)")
        v_raw, b_raw = _flat_of(raw[0], what), _flat_of(raw[1], what)
        if len(v_raw) != n_features:
            raise ValueError(f"{what}: w has {len(v_raw)} values for {n_features} features")
        if len(b_raw) != 1:
            raise ValueError(f"{what}: b has {len(b_raw)} values, not 1")
        v = tuple(_exact(x, f"{what}: w[{j}]") for j, x in enumerate(v_raw))
        return conv.from_canonical(_exact(b_raw[0], f"{what}: b"), v)
    if raw is None or not (_is_vector(raw)):
        raise ValueError(f"{what} is {_short(raw)}, neither (w, b) nor a weight vector")
    flat = _flat_of(raw, what)
    if output in ("bias-first", "bias-last"):
        if len(flat) != n_features + 1:
            raise ValueError(f"{what} has {len(flat)} values; {n_features + 1} needed: "
                             + ("b, w1 ... wd" if output == "bias-first" else "w1 ... wd, b"))
        values = [_exact(x, f"{what}[{j}]") for j, x in enumerate(flat)]
        b, rest = (values[0], values[1:]) if output == "bias-first" else (values[-1], values[:-1])
        return conv.from_canonical(b, tuple(rest))
    if len(flat) != n_features + 1:
        raise ValueError(f"{what} has {len(flat)} values; {conv.name} needs {n_features + 1}: "
                         + ", ".join(conv.weight_names(n_features)))
    return tuple(_exact(x, f"{what}[{j}]") for j, x in enumerate(flat))


def _exact(value: object, name: str) -> Fraction:
    if isinstance(value, np.ndarray) and value.size == 1:
        value = value.reshape(()).item()
    return as_rational(value, name=name)


def _read_updates(raw: Iterable[object], conv: Convention, n_samples: int, n_features: int, output: str,
                  limit: int = MAX_REPORTED_UPDATES) -> tuple[list[tuple[int, Vector]], bool]:
    """The reported updates as ``(sample index, exact weights)``, and whether the list was cut at `limit`
    (the rest is never asked for: an iterator may go on for ever); ValueError naming the first malformed one."""
    n = n_samples
    updates: list[tuple[int, Vector]] = []
    for k, item in enumerate(raw, start=1):
        if k > limit:
            return updates, True
        if not isinstance(item, (tuple, list)) or len(item) != 2:
            raise ValueError(f"update {k} is {_short(item)}, not (sample index, weights)")
        index, weights = item
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or not 0 <= int(index) < n:
            raise ValueError(f"update {k}: sample index {shown_value(index)} is not in range({n})")
        updates.append((int(index), _exact_weights(weights, conv, n_features, output, f"update {k}'s weights")))
    return updates, False
