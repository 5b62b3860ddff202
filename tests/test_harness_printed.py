"""Weights printed with too few digits (`harness._printed`): the exact run's weights rounded as a printing
rounds them are recognised, exactly, and nothing else is."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from verify_perceptron.harness import check_implementation
from verify_perceptron.harness._printed import printed_format

doubles = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False).filter(lambda v: v == 0 or abs(v) > 1e-6)


@given(st.lists(doubles, min_size=1, max_size=4), st.integers(1, 12))
def test_a_printing_with_k_places_is_recognised_and_reproduces_the_weights(values: list[float], k: int) -> None:
    want = [Fraction(v) for v in values]
    read = [Fraction(float(f"{v:.{k}f}")) for v in values]  # as printf prints them, as strtod reads them back
    form = printed_format(read, want, exact=False)
    if read == want:
        assert form is None
        return
    assert form is not None
    again = [Fraction(float(f"{v:{form[1:]}}")) for v in values]
    assert again == read


def test_a_tie_is_accepted_rounded_either_way() -> None:
    # 1/128 = 0.0078125: glibc's %f gives 0.007812 (half to even), Java's String.format 0.007813 (half up)
    want = [Fraction(1, 128)]
    assert printed_format([Fraction("0.007812")], want, exact=True) == "%.6f"
    assert printed_format([Fraction("0.007813")], want, exact=True) == "%.6f"


def test_a_value_one_unit_off_at_every_printing_is_not_excused() -> None:
    want = [Fraction(1, 3), Fraction(2, 7)]
    assert printed_format([Fraction("0.333333"), Fraction("0.285714")], want, exact=True) == "%.6f"
    assert printed_format([Fraction("0.333334"), Fraction("0.285714")], want, exact=True) is None
    assert printed_format([Fraction("0.333333"), Fraction("-0.285714")], want, exact=True) is None


def _perceptron(X: object, y: object, strict: bool, rate: float = 1.0) -> tuple[Any, Any]:
    """The note's perceptron in float64 at `rate` (a tie let through when `strict`: a wrong one)."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    w, b = np.zeros(X.shape[1]), 0.0
    for _ in range(1000):
        clean = True
        for i in range(len(X)):
            score = y[i] * (w @ X[i] + b)
            if score < 0 or (score == 0 and not strict):
                w, b, clean = w + rate * y[i] * X[i], b + rate * y[i], False
        if clean:
            break
    return w, b


def _perceptron_rounded(X: object, y: object, strict: bool) -> tuple[object, float]:
    """`_perceptron`'s weights at rate 1/8 returned rounded to 3 decimal places."""
    w, b = _perceptron(X, y, strict)
    return np.round(w / 8, 3), round(b / 8, 3)


def rounded_perceptron(X: object, y: object) -> tuple[object, float]:
    """The note's perceptron, its weights returned rounded."""
    return _perceptron_rounded(X, y, strict=False)


def rounded_strict_perceptron(X: object, y: object) -> tuple[object, float]:
    """A tie let through (a wrong perceptron), rounded the same way."""
    return _perceptron_rounded(X, y, strict=True)


def test_weights_rounded_at_an_undeclared_rate_are_named_with_the_rate_and_pass_when_accepted() -> None:
    result = check_implementation(rounded_perceptron, examples=30)
    assert not result.passed
    [diagnosis] = result.diagnoses
    assert (diagnosis.code, diagnosis.parameters["format"], diagnosis.parameters["rate"]) == ("printed-rounding", "%.3f", "1/8")
    # how to print every digit, in each language people print from (awk's print, like Perl's, was not named)
    for form in ('awk and Perl: printf "%.17g", x', "C++: cout << setprecision(17)", "Rust: {} or {:?}"):
        assert form in diagnosis.text, diagnosis.text
    assert check_implementation(rounded_perceptron, examples=30, accept_departures=("printed-rounding",)).passed


def test_a_wrong_perceptron_rounded_the_same_way_is_neither_named_so_nor_passed() -> None:
    result = check_implementation(rounded_strict_perceptron, examples=30)
    assert not result.passed and "printed-rounding" not in [d.code for d in result.diagnoses]
    assert not check_implementation(rounded_strict_perceptron, examples=30,
                                    accept_departures=("printed-rounding",)).passed


def _numpy_printed(strict: bool) -> Any:
    """The note's perceptron at rate 0.1 (a tie let through when `strict`: a wrong one) whose weights are printed as
    ``print(w); print(b)`` prints them (NumPy's array layout for w, in full for b) and read back as doubles."""
    def fit(X: object, y: object) -> tuple[list[float], float]:
        w, b = _perceptron(X, y, strict, rate=0.1)
        return [float(t) for t in str(w).strip("[]").split()], float(str(b))
    return fit


def test_weights_printed_as_numpy_prints_an_array_are_named_so_and_pass_when_accepted() -> None:
    # print(w) of a NumPy array: 8 decimals, or 9 significant digits in scientific notation, the layout chosen per
    # array; it was 'printed-short ... something else departs too' (no one printing fitted every dataset)
    fit = _numpy_printed(strict=False)
    result = check_implementation(fit, examples=60)
    assert [d.code for d in result.diagnoses] == ["printed-rounding"], result.report()
    parameters = result.diagnoses[0].parameters
    assert (parameters["format"], parameters["float64"], parameters["rate"]) == ("numpy", True, "1/10")
    assert "--accept printed-rounding,float-rate --float-eta 0.1" in result.report()
    assert check_implementation(fit, examples=60, accept_departures=("printed-rounding", "float-rate"),
                                eta=Fraction(0.1)).passed


def test_a_wrong_perceptron_printed_as_numpy_prints_is_neither_named_so_nor_passed() -> None:
    fit = _numpy_printed(strict=True)
    result = check_implementation(fit, examples=60)
    assert not result.passed and "printed-rounding" not in [d.code for d in result.diagnoses], result.report()
    assert not check_implementation(fit, examples=60, accept_departures=("printed-rounding", "float-rate"),
                                    eta=Fraction(0.1)).passed
