"""Code written for labels of its own (``1/2``, ``M/R``, ``yes/no``) given -1/+1: it compares each label with a
token it was not given, so it reads every label as one class (``1 if label == 2 else -1``), or the two classes
swapped (``-1 if label == 1 else 1``). Its weights are then the note's run on those labels, exactly; the probe
names that, and where labels 1/2 (the common numeric pair, read as -1/+1 or as 0/1) make it pass, names them.
"""

from __future__ import annotations

import re
from fractions import Fraction

from ..data.dataset import Dataset
from ..notes.conventions import Convention
from ._evidence import Observation, explained
from ._exact import Vector
from ._models import simulate
from ._probes import MAX_RECHECKS, Recheck
from ._results import Diagnosis
from ._tokens import READINGS, expects, shown

#: How the code may have read the labels it was given: every one as class -1, every one as +1, or each swapped.
READS = {"negative": "every label as class -1", "positive": "every label as class +1",
         "swapped": "each label as the other class"}
#: How a diagnosis says what declares a pair of labels.
DECLARE = ("declare its two labels with --labels NEG/POS (the negative class first), and --labels-as 0/1 where its "
           "code maps them to 0/1 (η·(d - y))")
#: The pair tried where the weights show such a reading: the commonest numeric classes (class 2 positive).
PAIR = ("1", "2")


def relabelled(data: Dataset, read: str) -> tuple[int, ...]:
    """The labels of `data` as the code read them: all -1, all +1, or each swapped.

    Examples
    --------
    >>> from verify_perceptron.data.dataset import from_arrays
    >>> [relabelled(from_arrays([[0], [1]], [-1, 1]), r) for r in READS]
    [(-1, -1), (1, 1), (1, -1)]
    """
    if read == "swapped":
        return tuple(-label for label in data.y)
    return tuple(-1 if read == "negative" else 1 for _ in data.y)


def misread(observations: list[Observation], conv: Convention, rate: Fraction | None,
            rounded: bool) -> str | None:
    """The reading (a key of `READS`) under which the note's run gives the weights on every observation (the same
    positive factor on all, the declared `rate` when there is one; rounded to doubles with `rounded`), else None.

    Examples
    --------
    >>> from verify_perceptron.data.dataset import from_arrays
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> data = from_arrays([[-1], [1]], [-1, 1])
    >>> misread([Observation(data, (Fraction(-2), Fraction(0)))], get_convention("classic"), None, False)
    'negative'
    >>> misread([Observation(data, (Fraction(0), Fraction(2)))], get_convention("classic"), None, False) is None
    True
    """
    for read in READS:
        def model(o: Observation, read: str = read) -> list[Vector] | None:
            run = simulate(o.data, conv, labels=relabelled(o.data, read))
            return [run.final()] if run.stop == "converged" else None

        if explained(observations, model, rate, rounded=rounded) is not None:
            return read
    return None


def one_class_probe(observations: list[Observation], conv: Convention, recheck: Recheck, labels: str,
                    classes: tuple[str, str] | None, rate: Fraction | None, rounded: bool) -> Diagnosis | None:
    """``label-encoding`` for weights that are the note's run on labels read as one class, or swapped
    (`misread`): with labels 1/2 (read as -1/+1, then as 0/1) where the implementation, called again so on the
    datasets tried, passes on every one; else naming the misreading and the options that declare a pair. None
    where no such reading gives the weights."""
    read = misread(observations, conv, rate, rounded)
    if read is None:
        return None
    tried = observations[:MAX_RECHECKS]
    given = shown(labels, classes)
    said = (f"given labels {given} it reads {READS[read]}: the {conv.name} perceptron on labels so read gives its "
            "weights on every dataset tried")
    parameters: dict[str, object] = {"read": read, "given": given, "convention": conv.name, "datasets": len(tried)}
    pairs = [(r, PAIR) for r in READINGS] if classes is None else [(labels, (classes[1], classes[0]))] \
        if read == "swapped" else []  # its own labels, or the two given the other way round
    for reading, pair in pairs:
        if all(recheck(o.data, f"{pair[0]}/{pair[1]}:{reading}", conv.name)[2] for o in tried):
            return Diagnosis("label-encoding", {**parameters, "labels": reading, "classes": list(pair)},
                             f"{expects(reading, pair)}: {said}; given labels {shown(reading, pair)}, it gives "
                             "the note's weights on every dataset tried")
    return Diagnosis("label-encoding", parameters,
                     f"it expects labels of its own (such as labels 1/2, M/R, yes/no), not {given}: {said}, as code does "
                     f"that compares each label with a class name it was not given; {DECLARE}"
                     + (" (labels 1/2 were tried, read either way, and fail)" if classes is None else ""))


def refused_tokens(labels: str, classes: tuple[str, str] | None, output: str, convention: str) -> Diagnosis | None:
    """``label-encoding`` for an implementation that failed on the labels it was given, and on the others tried,
    where what it printed names one of them (``KeyError: '-1'``, ``unknown label "-1"``): code that looks its
    labels up among its own; else None.

    Examples
    --------
    >>> print(refused_tokens("-1/+1", None, "KeyError: '-1'", "classic").text)
    it expects labels of its own, not -1/+1: it failed on them, and its output names the label '-1' (code that looks each label up among its own: a dict such as {'M': 1, 'R': -1}, or a check of the class names); declare its two labels with --labels NEG/POS (the negative class first), and --labels-as 0/1 where its code maps them to 0/1 (η·(d - y))
    >>> refused_tokens("-1/+1", None, "ZeroDivisionError: division by zero", "classic") is None
    True
    >>> refused_tokens("-1/+1", None, "unknown label -1", "classic").parameters["named"]
    '-1'
    >>> refused_tokens("-1/+1", None, "label -12 at line 3", "classic") is None
    True
    """
    tokens = ("-1", "1") if classes is None and labels == "-1/+1" else ("0", "1") if classes is None else classes
    for token in tokens:
        quoted = re.escape(token)
        if re.search(rf"""(['"]){quoted}\1|(?:KeyError|[Ll]abel|[Cc]lass)\W{{1,3}}(?:np\.\w+\()?{quoted}(?![\w.])""", output):
            break
    else:
        return None
    given = shown(labels, classes)
    return Diagnosis("label-encoding", {"given": given, "named": token, "convention": convention, "datasets": 1},
                     f"it expects labels of its own, not {given}: it failed on them, and its output names the label "
                     f"'{token}' (code that looks each label up among its own: a dict such as {{'M': 1, 'R': -1}}, "
                     f"or a check of the class names); {DECLARE}")
