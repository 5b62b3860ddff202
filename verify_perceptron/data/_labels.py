"""Labels as the files spell them, mapped to {-1, +1}: ``-1``/``+1`` as they are, ``0``/``1``
with 0 -> -1, ``False``/``True`` (as pandas, R and JSON spell booleans, in any case) with False -> -1,
any other two values once the positive one is named; of more than two values, the
one named positive against all the others (one against the rest)."""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from ..errors import DataError
from .rationals import MISSING_MARKS, as_rational, bounded, parse_rational, shown as _shown, shown_value

__all__ = ["label_key", "label_value", "map_labels", "positive_key"]

#: The negative class of one label against the rest is spelled by its first values, this many at most.
_NAMED = 4
#: Labels that mark a missing value, in lower case: what marks one in place of a number (`MISSING_MARKS`: R's NA,
#: Excel's #N/A, pandas' <NA>, NULL, Weka's "?") and NaN, but for the words that may name a class ("none", as in
#: the contact-lenses data, "nil", "missing", "nat") and SAS's ".".
_MISSING_LABELS = (MISSING_MARKS | {"nan"}) - {"none", "nil", "missing", "nat", "."}


def label_value(label: Any, i: int, source: str) -> int:
    """A label given as a number (the `i`-th): -1 or +1 exactly (so 1.5 is refused, not truncated to 1).

    Examples
    --------
    >>> label_value(1.0, 0, "x"), label_value(-1, 1, "x")
    (1, -1)
    """
    try:
        value = int(label)
    except (TypeError, ValueError):
        raise DataError(f"{source}: label y[{i}]={shown_value(label)} must be -1 or +1") from None
    if value != label or value not in (-1, 1):
        raise DataError(f"{source}: label y[{i}]={shown_value(label)} must be -1 or +1")
    return value


def label_key(raw: str | Fraction) -> str | Fraction:
    """Labels compare as numbers when they are numbers (``1`` == ``1.0``), else as text."""
    if isinstance(raw, Fraction):
        return raw
    try:
        return parse_rational(raw)
    except ValueError:
        return raw.strip()


def positive_key(positive: object, source: str) -> str | Fraction:
    """`positive` as `label_key` reads a label: text as its number or itself, a number (``positive=2``) exactly.

    Examples
    --------
    >>> positive_key("1.0", "t"), positive_key(2, "t"), positive_key(" yes ", "t")
    (Fraction(1, 1), Fraction(2, 1), 'yes')
    >>> positive_key([1], "t")
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.DataError: t: positive=[1] of type list is not a rational number
    """
    if isinstance(positive, (str, Fraction)):
        return label_key(positive)
    if isinstance(positive, bool) or type(positive).__name__ == "bool_":
        return Fraction(int(positive))  # type: ignore[call-overload]
    try:
        return bounded(as_rational(positive, name="positive"), name="positive")
    except ValueError as error:
        raise DataError(f"{source}: {error}") from None


def _refuse_missing(raw_labels: Sequence[str | Fraction], key_of: dict[Any, str | Fraction],
                    where: Callable[[int], str]) -> None:
    """Refuse the first label that marks a missing value (`_MISSING_LABELS`), naming its place."""
    gap = next((key for key in key_of.values() if isinstance(key, str) and key.lower() in _MISSING_LABELS), None)
    if gap is not None:
        at = next(i for i, raw in enumerate(raw_labels) if key_of[raw] == gap)
        raise DataError(f"{where(at)}: label {_shown(gap)} marks a missing value; every sample needs one (drop "
                        "those rows first, as pandas' dropna() does)")


def map_labels(
    raw_labels: Sequence[str | Fraction], *, positive: object = None, source: str,
    lines: Sequence[int] | None = None, samples: Sequence[int] | None = None
) -> tuple[tuple[int, ...], tuple[str, str]]:
    """Map raw labels to {-1, +1}: {-1,+1} as is, {0,1} with 0 -> -1, {False, True} (any case) with False -> -1,
    or `positive` against the other values.

    Returns the labels and their original spelling, negative first. `lines`
    (one file line per sample) lets an error name the line of a third value;
    `samples` (one sample number per label, when `raw_labels` are some of the
    samples' labels) its sample.

    Examples
    --------
    >>> map_labels(["0", "1.0", "1"], positive=None, source="t")
    ((-1, 1, 1), ('0', '1'))
    >>> map_labels(["True", "False", "True"], positive=None, source="t")
    ((1, -1, 1), ('False', 'True'))
    >>> map_labels(["cat", "dog"], positive="dog", source="t")
    ((-1, 1), ('cat', 'dog'))
    >>> map_labels(["0", "2", "1", "2"], positive=2, source="t")  # one against the rest
    ((-1, 1, -1, 1), ('0, 1', '2'))
    >>> map_labels(["0", "-1"], positive=None, source="t")
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.DataError: t: sample 1: labels '0', '-1' are neither {-1, +1} nor {0, 1}; name the positive one with --positive (--positive 0 takes '0' as +1 and '-1' as -1, as scikit-learn orders them)
    """
    def where(at: int) -> str:
        return f"{source}:{lines[at]}" if lines else f"{source}: sample {samples[at] if samples else at}"

    # Work on the distinct spellings (usually two), then map every sample through a dict.
    key_of = {raw: label_key(raw) for raw in dict.fromkeys(raw_labels)}
    if "" in key_of.values():
        at = next(i for i, raw in enumerate(raw_labels) if key_of[raw] == "")
        raise DataError(f"{where(at)}: empty label; every sample needs one")
    _refuse_missing(raw_labels, key_of, where)  # (even with --positive: the class is unknown, not "the rest")
    # Each distinct value as the file first spells it: 0.5 is shown as '0.5', not as 1/2.
    spelled = {key: str(raw) for raw, key in reversed(key_of.items())}
    distinct = list(dict.fromkeys(key_of.values()))
    shown = ", ".join(_shown(spelled[k]) for k in distinct[:5]) + (", ..." if len(distinct) > 5 else "")
    if len(distinct) > 2 and positive is None:
        third = distinct[2]
        at = next(i for i, raw in enumerate(raw_labels) if key_of[raw] == third)
        raise DataError(f"{where(at)}: label {_shown(spelled[third])} is a third label value ({shown}); "
                        "exactly two are needed, or one named with --positive to be taken against the rest")
    if positive is not None:
        pos_key = positive_key(positive, source)
        if pos_key not in distinct:
            named = _shown(positive) if isinstance(positive, str) else _shown(str(pos_key)).strip("'")
            raise DataError(f"{source}: --positive {named} is not one of the labels ({shown})")
        if len(distinct) < 2:
            raise DataError(f"{source}: only one class ({shown}); the perceptron needs two")
        # one class against the rest when there are more than two: every other value is the negative class
        rest = [str(k) for k in distinct if k != pos_key]
        value_of = {k: 1 if k == pos_key else -1 for k in distinct}
        spelling = (", ".join(rest[:_NAMED]) + (f", ... ({len(rest)} values)" if len(rest) > _NAMED else ""),
                    str(pos_key))
    elif len(distinct) < 2:
        raise DataError(f"{source}: only one class ({shown}); the perceptron needs two")
    elif set(distinct) == {Fraction(-1), Fraction(1)}:
        value_of, spelling = {k: int(k) for k in distinct}, ("-1", "1")
    elif set(distinct) == {Fraction(0), Fraction(1)}:
        value_of, spelling = {k: 1 if k == 1 else -1 for k in distinct}, ("0", "1")
    elif len(distinct) == 2 and {str(k).lower() for k in distinct} == {"false", "true"}:
        value_of = {k: 1 if str(k).lower() == "true" else -1 for k in distinct}
        spelling = tuple(sorted((str(k) for k in distinct), key=str.lower))  # type: ignore[assignment]
    else:
        # the first value outside -1, 0, +1; or, for a pair such as {-1, 0}, the second value seen
        odd = next((k for k in distinct if k not in (Fraction(-1), Fraction(0), Fraction(1))), distinct[1])
        at = next(i for i, raw in enumerate(raw_labels) if key_of[raw] == odd)
        numbers = all(isinstance(k, Fraction) for k in distinct)
        low, high = sorted(distinct, key=lambda k: k if numbers else str(k))
        raise DataError(f"{where(at)}: labels {shown} are neither {{-1, +1}} nor {{0, 1}}; "
                        f"name the positive one with --positive (--positive {shlex.quote(spelled[high])} takes "
                        f"{_shown(spelled[high])} as +1 and {_shown(spelled[low])} as -1, as scikit-learn orders them)")
    label_of = {raw: value_of[key] for raw, key in key_of.items()}
    return tuple(map(label_of.__getitem__, raw_labels)), spelling
