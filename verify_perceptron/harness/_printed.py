"""Weights printed with too few digits: a program that writes ``printf("%f")`` (6 decimals), ``%g`` (6
significant digits), R's ``print`` (7) or NumPy's array ``print`` (8 decimals) gives the exact run's weights
rounded, and the exact comparison fails although the perceptron is right.

`printed_format` finds the one printing that turns the expected weights into the ones read: a fixed count
of decimal places k (the value rounded to a multiple of 10^-k) or of significant digits p (to a multiple of
10^(e - p + 1), e the value's decimal exponent), whichever rule breaks a tie (half to even, as C's printf;
half up, as Java's ``String.format``). The value printed is then read as the check reads it: exactly, or
(float data) as the double nearest to it. Nothing here is a tolerance: each expected weight is rounded
exactly and the result compared with ``==``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from ..data.dataset import Dataset
from ..notes.conventions import Convention
from ._evidence import Observation, other_rules, recast_all
from ._floats import short_decimals
from ._models import simulate
from ._results import Diagnosis

#: The decimal places and significant digits tried (fewer than 1 decimal or 2 digits say too little to name).
PLACES, DIGITS = range(1, 21), range(2, 18)


def _rounded(value: Fraction, unit: Fraction) -> tuple[Fraction, ...]:
    """`value` rounded to a multiple of `unit`: one result, or both neighbours when it lies halfway.

    Examples
    --------
    >>> _rounded(Fraction(1, 3), Fraction(1, 100))
    (Fraction(33, 100),)
    >>> _rounded(Fraction(5, 1000), Fraction(1, 100))
    (Fraction(0, 1), Fraction(1, 100))
    """
    q = value / unit
    low = math.floor(q)
    if q - low == Fraction(1, 2):
        return (low * unit, (low + 1) * unit)
    return (round(q) * unit,)


def _exponent(value: Fraction) -> int:
    """The decimal exponent e of a nonzero value: 10^e <= |value| < 10^(e + 1), exactly.

    Examples
    --------
    >>> _exponent(Fraction(1)), _exponent(Fraction(999, 1000)), _exponent(Fraction(-1000))
    (0, -1, 3)
    """
    v = abs(value)
    e = math.floor(math.log10(v.numerator) - math.log10(v.denominator))
    while Fraction(10) ** e > v:  # the float logarithm may be one off near a power of ten
        e -= 1
    while Fraction(10) ** (e + 1) <= v:
        e += 1
    return e


def _read(value: Fraction, exact: bool) -> Fraction | None:
    """A printed value as the check reads it: exactly, or as the nearest double (None past the doubles)."""
    if exact:
        return value
    try:
        return Fraction.from_float(float(value))
    except OverflowError:
        return None


def _unit(form: str, value: Fraction) -> Fraction:
    """The unit of the last digit `form` prints of a nonzero `value` (``"%.6f"``: 10^-6; ``"%.6g"``: by its
    exponent)."""
    count = int(form[2:-1])
    return Fraction(1, 10**count) if form.endswith("f") else Fraction(10) ** (_exponent(value) - count + 1)


#: NumPy's print of an array (``print(w)``, ``print("Weights:", w)``): 8 decimal places, or 9 significant digits
#: where it writes the whole array in scientific notation (a value below 1e-4 or from 1e8 on), and a value that
#: needs fewer digits in full; a number printed on its own (the bias, ``print(b)``) in full.
NUMPY = "numpy"


def _printings(form: str, value: Fraction) -> tuple[Fraction, ...]:
    """The values `form` can print a nonzero `value` as (any tie rule; NumPy's: either of its layouts, or in full)."""
    if form != NUMPY:
        return _rounded(value, _unit(form, value))
    return (value, *_rounded(value, Fraction(1, 10**8)), *_rounded(value, _unit("%.9g", value)))


def reproduces(weights: Sequence[Fraction], want: Sequence[Fraction], exact: bool, form: str) -> bool:
    """Whether printing `want` with `form` (any tie rule) and reading it back gives `weights`.

    Examples
    --------
    >>> reproduces((Fraction("0.333333"),), (Fraction(1, 3),), True, "%.6g")
    True
    >>> reproduces((Fraction("33.333333"),), (Fraction(100, 3),), True, "%.6g")
    False
    >>> reproduces((Fraction("0.33333333"), Fraction("3.33333333e-05"), Fraction(1, 4)),
    ...            (Fraction(1, 3), Fraction(1, 30000), Fraction(1, 4)), True, NUMPY)
    True
    """
    return len(weights) == len(want) and all(
        got == 0 if expected == 0 else got in {_read(r, exact) for r in _printings(form, expected)}
        for got, expected in zip(weights, want))


#: Every printing tried, in the order named: the fewest decimal places (NumPy's print beside its 8), then the
#: fewest significant digits.
FORMS = (*(f"%.{k}f" for k in PLACES if k <= 8), NUMPY, *(f"%.{k}f" for k in PLACES if k > 8),
         *(f"%.{p}g" for p in DIGITS))


def printed_format(weights: Sequence[Fraction], want: Sequence[Fraction], exact: bool) -> str | None:
    """The printing (``"%.6f"``, ``"%.6g"``) that turns `want` into `weights`, or None (also when they are equal).

    The first of `FORMS` that reproduces every coordinate.

    Examples
    --------
    >>> want = (Fraction(1, 128), Fraction(-3, 2))
    >>> printed_format((Fraction(7812, 10**6), Fraction(-3, 2)), want, exact=True)
    '%.6f'
    >>> printed_format((Fraction(333333, 10**4), Fraction(333333, 10**8)), (Fraction(100, 3), Fraction(1, 300)), exact=True)
    '%.6g'
    >>> printed_format(want, want, exact=True) is None
    True
    >>> printed_format((Fraction(7814, 10**6), Fraction(-3, 2)), want, exact=True) is None
    True
    """
    if len(weights) != len(want) or list(weights) == [_read(v, exact) for v in want]:
        return None
    return next((form for form in FORMS if reproduces(weights, want, exact, form)), None)


def rates(weights: Sequence[Fraction], want: Sequence[Fraction], rate: Fraction | None) -> list[Fraction]:
    """The learning rates to scale `want` by: the declared one, else 1 and the ratio of the largest weights
    rounded to 1, 2 and 3 significant digits (a rate such as 0.1 read off rounded weights).

    Examples
    --------
    >>> rates((Fraction(3333, 10**4),), (Fraction(10, 3),), None)
    [Fraction(1, 1), Fraction(1, 10)]
    >>> rates((Fraction(1),), (Fraction(2),), Fraction(1, 2))
    [Fraction(1, 2)]
    """
    if rate is not None:
        return [rate]
    found = [Fraction(1)]
    j = max(range(len(want)), key=lambda i: abs(want[i]), default=None)
    if j is not None and want[j] != 0 and weights[j] / want[j] > 0:
        found += [c for c in short_decimals(weights[j] / want[j]) if c not in found]
    return found


def printed_at(weights: Sequence[Fraction], want: Sequence[Fraction], rate: Fraction | None,
               exact: bool) -> tuple[Fraction, str] | None:
    """The rate c and the printing that turn c·`want` into `weights` (`rates`, `printed_format`), or None."""
    for c in rates(weights, want, rate):
        form = printed_format(weights, [c * v for v in want], exact)
        if form is not None:
            return c, form
    return None


def printed_cause(observations: list[Observation], conv: Convention, rate: Fraction | None,
                  exact: bool, labels: str = "-1/+1") -> Diagnosis | None:
    """printed-rounding: on every dataset tried the weights are the note's exact run's (at one rate)
    printed with too few digits, and on at least one they differ from it; for a float implementation also the
    note's run computed in float64 at one rate (`_floats._float_run`), printed so (``print(w)`` of a run at 0.1),
    or another note's run so (Perl's ``print`` of a 0/1 step rule's weights at 0.1: 15 digits, note 001's rule).

    Examples
    --------
    >>> from verify_perceptron.data.examples import example
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> data, conv = example("and"), get_convention("classic")
    >>> [str(v) for v in simulate(data, conv).final()]
    ['-4', '3', '2']
    >>> printed = (Fraction("-0.5"), Fraction("0.38"), Fraction("0.25"))  # rate 1/8, printed with %.2f
    >>> printed_cause([Observation(data, printed)], conv, None, exact=True).parameters
    {'format': '%.2f', 'also': '%.2g', 'rate': '1/8', 'datasets': 1}
    """
    wants = []
    for o in observations:
        run = simulate(o.data, conv)
        if run.stop != "converged":
            return None
        wants.append(run.final())
    found = next((f for o, want in zip(observations, wants) if (f := printed_at(o.weights, want, rate, exact))), None)
    if found is not None:
        c, _ = found  # one rate for every dataset, as every other cause has
        fit = _one_printing(observations, [[c * v for v in want] for want in wants], exact)
        if fit is not None:
            return _named(conv, fit, c, f"the {conv.name} perceptron's exact weights{'' if c == 1 else f' at rate {c}'}",
                          len(observations))
    if exact:
        return None
    named = _printed_float_run(observations, wants[0], conv, conv, rate, labels)
    for other in other_rules(conv):  # another note's rule (a tie counted +1 or -1), in its own coordinates
        if named is not None:
            break
        run = simulate(observations[0].data, other)
        if run.stop == "converged":
            named = _printed_float_run(recast_all(observations, conv, other), run.final(), other, conv, rate, labels)
    return named


def _printed_float_run(observations: list[Observation], want: tuple[Fraction, ...], conv: Convention,
                       checked: Convention, rate: Fraction | None, labels: str) -> Diagnosis | None:
    """printed-rounding of `conv`'s run (the `checked` one's, or another note's) computed in float64 at the declared
    rate or at a short decimal the first dataset's weights show against its exact run's (`want`)."""
    from ._floats import SUMS, _float_run, code_rate, summed
    from ._options import REFERENCE_EPOCHS

    first = observations[0]
    candidates = [rate] if rate is not None else [code_rate(conv, r, labels) for r in rates(first.weights, want, None)
                                                  if r != 1 or conv is not checked]
    for r, sums in ((r, sums) for r in candidates for sums in SUMS):
        head = _float_run(first.data, conv, r, REFERENCE_EPOCHS, labels, sums=sums)[0]
        if head is None or (conv is not checked and not any(reproduces(first.weights, head, False, f) for f in FORMS)):
            continue  # (another rule's runs are made past the first dataset only where it fits there)
        runs = [head, *(_float_run(o.data, conv, r, REFERENCE_EPOCHS, labels, sums=sums)[0] for o in observations[1:])]
        if any(run is None for run in runs):
            continue
        fit = _one_printing(observations, [list(run) for run in runs if run is not None], exact=False)
        if fit is not None:
            ruled = "" if conv is checked else f" (note {conv.note_number}'s rule, not {checked.name}'s)"
            declared = "" if conv is checked else f"--convention {conv.name} "
            found = _named(conv, fit, r, f"the {conv.name} perceptron{ruled} computed in float64 at rate {float(r)!r}"
                           f"{summed(sums)}", len(observations),
                           f"{declared}--accept printed-rounding,float-rate --float-eta {float(r)!r}", sums)
            return found if conv is checked else Diagnosis(found.code, {**found.parameters, "convention": conv.name},
                                                           found.text)
    return None


def _one_printing(observations: list[Observation], wants: list[list[Fraction]],
                  exact: bool) -> tuple[str, str | None, str | None] | None:
    """The printing with the fewest digits (and its sibling, where one fits as well) that turns each of `wants`
    into its dataset's weights, where they differ on one at least, and the most significant digits that do too
    where that is more (the data tried may not tell C++'s six digits from four); None where none does."""
    if all(list(o.weights) == [_read(v, exact) for v in want] for o, want in zip(observations, wants)):
        return None
    # the printings that give every dataset's weights, the fewest digits first (one dataset alone may not tell
    # %.6f from %.6g, and its fewest may be %.1f where the program printed %.15g)
    fits = sorted((f for f in FORMS if all(reproduces(o.weights, want, exact, f)
                                           for o, want in zip(observations, wants))),
                  key=lambda f: (8, "n") if f == NUMPY else (int(f[2:-1]), f[-1]))
    if not fits:
        return None
    form = fits[0]
    most = max((f for f in fits if f.endswith("g")), key=lambda f: int(f[2:-1]), default=None)
    # values of one magnitude do not tell 6 places from 6 digits (C's %f from C++'s cout): both named then
    return (form, (_sibling(form) if form != NUMPY and _sibling(form) in fits else None),
            most if most is not None and form != NUMPY and int(most[2:-1]) > int(form[2:-1]) else None)


def _named(conv: Convention, fit: tuple[str, str | None, str | None], c: Fraction, what: str, datasets: int,
           accept: str = "--accept printed-rounding", sums: str = "bias-last") -> Diagnosis:
    form, other, most = fit
    either = described(form) + (f" or {described(other)}" if other else "")
    upto = f" (or to as many as {described(most)}: the data tried do not tell those apart)" if most else ""
    parameters: dict[str, object] = {"format": form, "also": other, "rate": str(c), "datasets": datasets}
    if most:
        parameters["most"] = most
    if accept != "--accept printed-rounding":
        parameters["float64"] = True
    if sums != "bias-last":
        parameters["sums"] = sums
    return Diagnosis("printed-rounding", parameters,
                     f"{what}, rounded to {either} as printed{upto}: they reproduce the implementation's weights on "
                     f"every dataset tried; {FULL_PRECISION}, or accept the rounding with {accept}")


def printed_sum(weights: Sequence[Fraction], data: Dataset, conv: Convention, a: Sequence[Fraction],
                exact: bool) -> str | None:
    """The printing under which the feature weights of `weights` (`a` their exact coefficients over the samples'
    steps, `_reachable.incommensurate`) are a sum of steps with coefficients of denominators at most 1000 (whole
    counts times a short rate), printed short; None when there is none.

    A perceptron whose weights are printed with 8 decimals (NumPy's repr) has coefficients a hair off whole
    counts: they are no proof that it is not a perceptron.

    Examples
    --------
    >>> from verify_perceptron.data.dataset import from_arrays
    >>> from verify_perceptron.notes.conventions import get_convention
    >>> data = from_arrays([["-1", "0"], ["1", "3/512"]], [-1, 1])  # steps (1, 0) and (1, 3/512): a = (1, 1)
    >>> read = (Fraction(0), Fraction(2), Fraction("0.00585938"))  # (2, 3/512) printed with %.8f
    >>> printed_sum(read, data, get_convention("classic"), [Fraction(1), Fraction(100000, 99999)], exact=True)
    '%.8f'
    """
    from ._reachable import directions

    near = [c.limit_denominator(1000) for c in a]
    if list(near) == list(a):
        return None
    bias = 0 if conv.bias_first else data.n_features
    steps = [[v for j, v in enumerate(z) if j != bias] for z in directions(data, conv)]
    rebuilt = [sum((c * z[j] for c, z in zip(near, steps)), Fraction(0)) for j in range(data.n_features)]
    return printed_format([v for j, v in enumerate(weights) if j != bias], rebuilt, exact)


def _sibling(form: str) -> str:
    """The same count in the other family: ``"%.6f"`` and ``"%.6g"``."""
    return form[:-1] + ("g" if form.endswith("f") else "f")


def related(form: str) -> tuple[str, ...]:
    """`form` and the printings one dataset may not tell from it: its sibling, and NumPy's print (which writes
    0.30000000000000004 as 0.3 on one dataset, 3.33333333e-05 in scientific notation on another).

    Examples
    --------
    >>> related("%.6f"), related(NUMPY)
    (('%.6f', '%.6g', 'numpy'), ('numpy',))
    """
    return (NUMPY,) if form == NUMPY else (form, _sibling(form), NUMPY)


def described(form: str) -> str:
    """What a printing means, in words.

    Examples
    --------
    >>> described("%.6f"), described("%.7g")
    ('6 decimal places (%.6f)', '7 significant digits (%.7g)')
    """
    if form == NUMPY:
        return ("NumPy's print of an array (8 decimal places, or 9 significant digits in scientific notation; a number "
                "printed alone in full)")
    count = int(form[2:-1])
    return f"{count} decimal place{'s' * (count != 1)} ({form})" if form.endswith("f") else f"{count} significant digits ({form})"


#: How to print every digit, said once where the cause is named.
FULL_PRECISION = ("print every digit for an exact comparison (C: printf(\"%.17g\", x); C++: cout << setprecision(17); "
                  "awk and Perl: printf \"%.17g\", x; Java: Double.toString; Python: repr; NumPy: print(w.tolist()); "
                  "JavaScript: String(x); Rust: {} or {:?}; R: sprintf('%.17g', x))")
