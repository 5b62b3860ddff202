"""The labels an implementation is given: -1/+1, 0/1, or any other pair of tokens a CSV cell can hold (``1/2``,
``R/M``, ``Iris-versicolor/Iris-setosa``), and how its code reads them (as -1/+1, or as 0/1).

Code written for a dataset's own classes maps them either to ±1 (the classic step η·y) or to 0/1 (η·(d - y), half
the ±1 step of a hard limiter). ``labels`` names the tokens written, ``labels_as`` that reading; the check runs
the note's perceptron on the reading and writes the tokens.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

from ..data.rationals import shown_value
from ..errors import InvalidArgument

#: The two readings, and the spellings of each accepted as ``labels`` (its own tokens).
READINGS = ("-1/+1", "0/1")
ALIASES = {"-1/+1": "-1/+1", "-1,+1": "-1/+1", "-1/1": "-1/+1", "pm1": "-1/+1", "0/1": "0/1", "0,1": "0/1"}
#: What a token may not hold: a CSV cell's separators, quotes, line ends, or spaces at its ends.
_BAD = re.compile(r"[,;\t\r\n\"']|^\s|\s$")
_INTEGER = re.compile(r"[+-]?[0-9]+")


def label_pair(labels: object, labels_as: object = None) -> tuple[str, tuple[str, str] | None]:
    """The reading (``-1/+1`` or ``0/1``) and the tokens (negative, positive; None for the reading's own numbers)
    that ``labels`` and ``labels_as`` declare; `InvalidArgument` naming a bad value.

    Examples
    --------
    >>> label_pair("-1/+1"), label_pair("0,1"), label_pair("1/2"), label_pair("R/M", "0/1")
    (('-1/+1', None), ('0/1', None), ('-1/+1', ('1', '2')), ('0/1', ('R', 'M')))
    >>> label_pair("0/1", "-1/+1")
    ('-1/+1', ('0', '1'))
    >>> label_pair("M/M")
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.InvalidArgument: labels='M/M' must name two different labels, NEG/POS (the negative class first), e.g. 1/2, R/M, no/yes
    """
    if labels_as is not None and labels_as not in ALIASES:
        raise InvalidArgument(f"labels_as={shown_value(labels_as)} must be one of {', '.join(READINGS)}: how the "
                              "code maps the two labels (to -1/+1 for a step of η·y, or to 0/1 for η·(d - y))")
    reading = None if labels_as is None else ALIASES[str(labels_as)]
    if isinstance(labels, str) and labels in ALIASES:
        own = ALIASES[labels]
        if reading is None or reading == own:
            return own, None
        return reading, ("-1", "1") if own == "-1/+1" else ("0", "1")
    tokens = labels.split("/") if isinstance(labels, str) else []
    if len(tokens) != 2 or not all(tokens) or any(_BAD.search(t) for t in tokens) or tokens[0] == tokens[1] or (
            all(_INTEGER.fullmatch(t) for t in tokens) and int(tokens[0]) == int(tokens[1])):
        why = ("cannot hold a comma, semicolon, tab, quote, line end, or spaces at either end (a CSV cell holds "
               "it)") if len(tokens) == 2 and all(tokens) and any(_BAD.search(t) for t in tokens) else (
               "must name two different labels, NEG/POS (the negative class first), e.g. 1/2, R/M, no/yes")
        raise InvalidArgument(f"labels={shown_value(labels)} {why}")
    return reading or "-1/+1", (tokens[0], tokens[1])


def given(y: Sequence[int], reading: str, classes: tuple[str, str] | None) -> list[int] | list[str]:
    """The labels `y` (±1) as the implementation is given them: the reading's numbers, or the tokens (ints when
    both are integers, else the strings).

    Examples
    --------
    >>> given([-1, 1], "0/1", None), given([-1, 1], "-1/+1", ("1", "2")), given([1, -1], "0/1", ("R", "M"))
    ([0, 1], [1, 2], ['M', 'R'])
    """
    if classes is None:
        return [label if reading == "-1/+1" else (1 if label > 0 else 0) for label in y]
    if all(_INTEGER.fullmatch(t) for t in classes):
        negative, positive = int(classes[0]), int(classes[1])
        return [positive if label > 0 else negative for label in y]
    return [classes[1] if label > 0 else classes[0] for label in y]


def shown(reading: str, classes: tuple[str, str] | None) -> str:
    """The labels as a report names them.

    Examples
    --------
    >>> shown("0/1", None), shown("-1/+1", ("1", "2")), shown("0/1", ("R", "M"))
    ('0/1', '1/2 (read as -1/+1)', 'R/M (read as 0/1)')
    """
    return reading if classes is None else f"{classes[0]}/{classes[1]} (read as {reading})"


def flags(reading: str, classes: tuple[str, str] | None) -> str:
    """The ``check`` options that declare these labels (quoted for the shell where a token needs it).

    Examples
    --------
    >>> flags("0/1", None), flags("-1/+1", ("1", "2")), flags("0/1", ("Iris setosa", "b")), flags("-1/+1", ("0", "1"))
    ('--labels 0/1', '--labels 1/2', "--labels 'Iris setosa/b' --labels-as 0/1", '--labels 0/1 --labels-as -1/+1')
    """
    if classes is None:
        return f"--labels {reading}"
    pair = f"{classes[0]}/{classes[1]}"
    said = "" if reading == "-1/+1" and pair not in ALIASES else f" --labels-as {reading}"
    return f"--labels {shlex.quote(pair)}{said}"


def keywords(reading: str, classes: tuple[str, str] | None) -> str:
    """The Python keywords that declare these labels.

    Examples
    --------
    >>> keywords("0/1", None), keywords("0/1", ("R", "M"))
    ("labels='0/1'", "labels='R/M', labels_as='0/1'")
    """
    if classes is None:
        return f"labels={reading!r}"
    return f"labels={classes[0] + '/' + classes[1]!r}, labels_as={reading!r}"


def other_reading(reading: str) -> str:
    """The reading a label probe tries: 0/1 for -1/+1, and back."""
    return "0/1" if reading == "-1/+1" else "-1/+1"


def expects(reading: str, classes: tuple[str, str] | None) -> str:
    """What a label-encoding diagnosis says the code does with its labels.

    Examples
    --------
    >>> expects("0/1", None), expects("0/1", ("R", "M"))
    ('it expects labels 0/1', 'it expects labels R/M (R the negative class), mapped to 0/1 in its code')
    """
    if classes is None:
        return f"it expects labels {reading}"
    return f"it expects labels {classes[0]}/{classes[1]} ({classes[0]} the negative class), mapped to {reading} in its code"


def rechecked(labels: str, classes: tuple[str, str] | None) -> tuple[str, tuple[str, str] | None]:
    """The reading and tokens a probe's call again takes: a reading alone keeps the tokens given (`classes`);
    ``NEG/POS`` or ``NEG/POS:READING`` names new ones.

    Examples
    --------
    >>> rechecked("0/1", ("R", "M")), rechecked("1/2", None), rechecked("1/2:0/1", None)
    (('0/1', ('R', 'M')), ('-1/+1', ('1', '2')), ('0/1', ('1', '2')))
    """
    if labels in READINGS:
        return labels, classes
    pair, _, reading = labels.partition(":")
    return label_pair(pair, reading or None)


def written_apart(classes: tuple[str, str] | None, delimiter: str | None) -> None:
    """`InvalidArgument` where a label holds the `delimiter` that parts the values of a command's ``{train}``.

    Examples
    --------
    >>> written_apart(("Iris setosa", "b"), ",")
    >>> written_apart(("Iris setosa", "b"), " ")
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.InvalidArgument: labels='Iris setosa/b': the label 'Iris setosa' holds a space, the delimiter that parts the values of {train} (--delimiter space): a program reading it would read two values; give labels without one
    """
    if classes is None or delimiter != " ":  # (a comma, semicolon or tab is no label's: `label_pair`)
        return
    for token in classes:
        if " " in token:
            raise InvalidArgument(f"labels={shown_value(classes[0] + '/' + classes[1])}: the label {token!r} holds a "
                                  "space, the delimiter that parts the values of {train} (--delimiter space): a "
                                  "program reading it would read two values; give labels without one")
