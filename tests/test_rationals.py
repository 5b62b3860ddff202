"""Exact rational literals: `parse_rational` and `as_rational`.

Every accepted literal must denote exactly the Fraction written, every
rejected one must raise ValueError naming the text, and hostile literals
(huge exponents, millions of digits) must be refused before any big
arithmetic is done: each such test here returns in milliseconds.
"""

from __future__ import annotations

import fractions
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from verify_perceptron.data import rationals
from verify_perceptron.data.rationals import (MAX_DIGITS, MAX_EXPONENT, as_rational, bounded, format_rational,
                                             parse_rational, shown_value)
from verify_perceptron.errors import InvalidArgument

# --- accepted literals ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("0.1", Fraction(1, 10)),
        ("1.5e-3", Fraction(3, 2000)),
        ("-22/25", Fraction(-22, 25)),
        (".5", Fraction(1, 2)),
        ("5.", Fraction(5)),
        ("+3", Fraction(3)),
        ("1E3", Fraction(1000)),
        ("1e+2", Fraction(100)),
        ("-.5e-3", Fraction(-1, 2000)),
        ("0.1e1", Fraction(1)),
        ("6/4", Fraction(3, 2)),
        ("+1/3", Fraction(1, 3)),
        ("007", Fraction(7)),
        ("-0", Fraction(0)),
        ("0e-7", Fraction(0)),
        ("123456789012345678901234567890", Fraction(123456789012345678901234567890)),
    ],
)
def test_literal_denotes_its_exact_fraction(text: str, expected: Fraction) -> None:
    result = parse_rational(text)
    assert result == expected
    assert type(result) is Fraction


@pytest.mark.parametrize("text", ["  7/4", "7/4  ", "\t7/4\n", " \r\n 7/4 \t "])
def test_surrounding_whitespace_is_ignored(text: str) -> None:
    assert parse_rational(text) == Fraction(7, 4)


def test_decimal_point_one_is_one_tenth_not_the_binary_double() -> None:
    value = parse_rational("0.1")
    assert value == Fraction(1, 10)
    assert value != Fraction.from_float(0.1)


def test_exponent_limit_is_inclusive_at_max_exponent() -> None:
    assert MAX_EXPONENT == 1000
    assert parse_rational("1e1000") == Fraction(10**1000)
    assert parse_rational("1e-1000") == Fraction(1, 10**1000)


def test_digit_limit_is_inclusive_at_max_digits() -> None:
    assert MAX_DIGITS == 1000
    thousand = "9" * MAX_DIGITS
    assert parse_rational(thousand) == Fraction(int(thousand))
    assert parse_rational(f"{thousand}/{thousand[:-1]}8") == Fraction(int(thousand), int(thousand[:-1] + "8"))


def test_leading_zeros_do_not_count_as_digits() -> None:
    assert parse_rational("0" * 2000 + "5") == Fraction(5)
    assert parse_rational("0." + "0" * 9 + "1") == Fraction(1, 10**10)


def test_mantissa_and_exponent_combine_exactly() -> None:
    assert parse_rational("1" + "0" * 999 + "e1000") == Fraction(10**1999)
    assert parse_rational("12.34e-5") == Fraction(1234, 10**7)


# --- rejected literals ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "abc",
        "1/0",
        "-3/0",
        "1/-2",
        "0x10",
        "1e1001",
        "1e-1001",
        "1e99999999999999",
        "1e",
        "e5",
        ".",
        "1.2.3",
        "1,5",
        "1_000",
        "--1",
        "1/2/3",
        "0.5/2",
        "1 2",
        "½",
    ],
)
def test_non_literal_is_rejected_naming_the_text(text: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_rational(text)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize(
    "text", ["nan", "NaN", "-nan", "+nan", "inf", "-inf", "+inf", "INF", "infinity", "-Infinity", "+infinity"]
)
def test_non_finite_literal_is_rejected_as_not_finite(text: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_rational(text)
    message = str(info.value)
    assert repr(text) in message
    assert "not a finite number" in message


@pytest.mark.parametrize("text", ["", " ", "\t\n"])
def test_empty_text_is_rejected(text: str) -> None:
    with pytest.raises(ValueError, match="empty"):
        parse_rational(text)


def test_exponent_above_limit_is_rejected_naming_exponent_and_limit() -> None:
    with pytest.raises(ValueError) as info:
        parse_rational("1e1001")
    message = str(info.value)
    assert "'1e1001'" in message
    assert "1001" in message.replace("'1e1001'", "")
    assert str(MAX_EXPONENT) in message


def test_astronomical_exponent_is_rejected_without_computing_it() -> None:
    # 10**99999999999999 cannot be built; the test finishing at all shows it is not tried.
    with pytest.raises(ValueError) as info:
        parse_rational("1e99999999999999")
    assert "'1e99999999999999'" in str(info.value)
    with pytest.raises(ValueError, match="exponent"):
        parse_rational("0e999999")


def test_five_thousand_digit_number_is_rejected_with_a_short_message() -> None:
    text = "7" * 5000
    with pytest.raises(ValueError) as info:
        parse_rational(text)
    message = str(info.value)
    assert "7" * 20 in message  # the head of the offending text is shown
    assert "5000" in message
    assert len(message) < 200


def test_million_digit_number_is_rejected_fast_with_a_short_message() -> None:
    text = "3" * 1_000_000
    with pytest.raises(ValueError) as info:
        parse_rational(text)
    message = str(info.value)
    assert "3" * 20 in message
    assert len(message) < 200


def test_number_one_digit_over_the_limit_is_rejected() -> None:
    with pytest.raises(ValueError, match="more than 1000 digits"):
        parse_rational("1" + "0" * MAX_DIGITS)
    with pytest.raises(ValueError, match="more than 1000 digits"):
        parse_rational("1" * (MAX_DIGITS + 1) + "/3")
    with pytest.raises(ValueError, match="more than 1000 digits"):
        parse_rational("3/" + "1" * (MAX_DIGITS + 1))


def test_tiny_decimal_beyond_the_range_is_rejected() -> None:
    # 1 / 10**2001: the shift exceeds MAX_EXPONENT + MAX_DIGITS.
    with pytest.raises(ValueError, match="out of the accepted range"):
        parse_rational("0." + "0" * 2000 + "1")


def test_ratio_with_zero_denominator_says_divides_by_zero() -> None:
    with pytest.raises(ValueError, match="divides by zero"):
        parse_rational("1/0")
    with pytest.raises(ValueError, match="divides by zero"):
        parse_rational("0/000")


# --- no float anywhere ---------------------------------------------------------------------------


class _FloatForbidden(float):
    """Stands in for the builtin float inside the module under test: calling it fails the test."""

    def __new__(cls, *args: object, **kwargs: object) -> float:  # type: ignore[misc]
        raise AssertionError(f"parse_rational called float{args!r}")


_MANY_LITERALS = [
    "0.1", "1.5e-3", "-22/25", ".5", "5.", "+3", "1E3", "1e-1000", "1e1000", "0", "-0.000",
    "3.14159265358979323846264338327950288", "9" * 1000, "1/3", "-7/9", " 2.5 ", "1" + "0" * 999 + "e1000",
]


def test_parse_rational_never_goes_through_binary_floating_point(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rationals, "float", _FloatForbidden, raising=False)

    def no_from_float(cls: type, value: object) -> Fraction:
        raise AssertionError(f"Fraction.from_float({value!r}) called")

    monkeypatch.setattr(fractions.Fraction, "from_float", classmethod(no_from_float))
    for text in _MANY_LITERALS:
        result = parse_rational(text)
        assert type(result) is Fraction, text
        assert type(result.numerator) is int and type(result.denominator) is int, text


def test_parse_rational_returns_fraction_for_every_accepted_literal() -> None:
    results = [parse_rational(text) for text in _MANY_LITERALS]
    assert all(type(r) is Fraction for r in results)
    assert not any(isinstance(r, float) for r in results)
    assert results[0] == Fraction(1, 10)
    assert results[11] == Fraction(314159265358979323846264338327950288, 10**35)


# --- property tests ------------------------------------------------------------------------------

_fractions = st.fractions(min_value=-(10**40), max_value=10**40, max_denominator=10**40)


@given(_fractions)
def test_str_of_a_fraction_parses_back_to_the_same_fraction(f: Fraction) -> None:
    result = parse_rational(str(f))
    assert result == f
    assert type(result) is Fraction


@given(_fractions)
def test_format_rational_round_trips_through_parse_rational(f: Fraction) -> None:
    assert parse_rational(format_rational(f)) == f


_decimals = st.builds(
    lambda sign, digits, exponent: Decimal((sign, tuple(digits), exponent)),
    st.integers(0, 1),
    st.lists(st.integers(0, 9), min_size=1, max_size=60),
    st.integers(-400, 400),
)


@given(_decimals)
def test_str_of_a_finite_decimal_parses_to_its_exact_value(d: Decimal) -> None:
    result = parse_rational(str(d))
    assert result == Fraction(d)
    assert type(result) is Fraction


@given(st.integers(-(10**30), 10**30), st.integers(-MAX_EXPONENT, MAX_EXPONENT))
def test_scientific_literal_is_mantissa_times_power_of_ten(mantissa: int, exponent: int) -> None:
    expected = Fraction(mantissa) * Fraction(10) ** exponent
    assert parse_rational(f"{mantissa}e{exponent}") == expected
    assert parse_rational(f"{mantissa}E{exponent:+d}") == expected


@given(st.integers(-(10**30), 10**30), st.integers(1, 10**30), st.sampled_from(["", " ", "\t"]))
def test_ratio_literal_is_numerator_over_denominator(numerator: int, denominator: int, pad: str) -> None:
    assert parse_rational(f"{pad}{numerator}/{denominator}{pad}") == Fraction(numerator, denominator)


# --- as_rational ---------------------------------------------------------------------------------


def test_as_rational_returns_a_fraction_unchanged() -> None:
    value = Fraction(3, 7)
    assert as_rational(value) is value


def test_as_rational_converts_int_exactly() -> None:
    assert as_rational(-5) == Fraction(-5)
    assert type(as_rational(-5)) is Fraction
    assert as_rational(10**100) == Fraction(10**100)


def test_as_rational_reads_strings_as_exact_literals() -> None:
    assert as_rational("3/7") == Fraction(3, 7)
    assert as_rational("0.1") == Fraction(1, 10)


def test_as_rational_bad_string_names_the_argument_and_the_text() -> None:
    with pytest.raises(ValueError) as info:
        as_rational("abc", name="eta")
    assert "eta='abc'" in str(info.value)


def test_as_rational_converts_floats_exactly_as_binary_doubles() -> None:
    assert as_rational(0.5) == Fraction(1, 2)
    assert as_rational(0.1) == Fraction.from_float(0.1)
    assert as_rational(0.1) != Fraction(1, 10)
    assert as_rational(-2.0) == Fraction(-2)


@pytest.mark.parametrize("value", [True, False, np.True_])
def test_as_rational_rejects_booleans(value: object) -> None:
    with pytest.raises(ValueError, match="bool"):
        as_rational(value, name="eta")


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf"), np.float64("nan"), np.float32("inf")])
def test_as_rational_rejects_non_finite_floats(value: object) -> None:
    with pytest.raises(ValueError) as info:
        as_rational(value, name="eta")
    assert "eta=" in str(info.value)
    assert "not a finite number" in str(info.value)


def test_as_rational_converts_numpy_scalars_exactly() -> None:
    assert as_rational(np.float64(0.1)) == Fraction.from_float(0.1)
    assert as_rational(np.float64(0.75)) == Fraction(3, 4)
    assert as_rational(np.int64(-7)) == Fraction(-7)
    assert type(as_rational(np.int64(-7))) is Fraction
    assert as_rational(np.uint8(200)) == Fraction(200)
    assert as_rational(np.float32(0.1)) == Fraction(*np.float32(0.1).as_integer_ratio())


@pytest.mark.parametrize("value", [None, object(), 1 + 2j, [1]])  # (a Decimal is exact: accepted)
def test_as_rational_rejects_other_types_naming_the_type(value: object) -> None:
    with pytest.raises(ValueError) as info:
        as_rational(value, name="x")
    assert type(value).__name__ in str(info.value)


def test_as_rational_converts_numpy_longdouble_exactly() -> None:
    value = np.longdouble(1) / np.longdouble(3)
    if value == np.float64(1 / 3):  # long double is plain double on this platform: nothing to lose
        pytest.skip("np.longdouble has no extra precision here")
    assert as_rational(value) == Fraction(*value.as_integer_ratio())


def test_a_decimal_is_exact_and_a_non_finite_one_is_refused() -> None:
    from decimal import Decimal

    assert as_rational(Decimal("0.1")) == fractions.Fraction(1, 10)
    assert as_rational(Decimal("-3.25E-2")) == fractions.Fraction(-13, 400)
    for bad in (Decimal("NaN"), Decimal("Infinity")):
        with pytest.raises(ValueError, match="is not a finite number"):
            as_rational(bad, name="eta")


@pytest.mark.parametrize("text", [None, 3, b"1/2"])
def test_parse_rational_names_what_is_not_text(text: object) -> None:
    with pytest.raises(InvalidArgument, match=f"text={text!r:.8} of type {type(text).__name__} is not a str"):
        parse_rational(text)  # type: ignore[arg-type]


def test_as_rationals_passes_fractions_through_and_names_the_bad_entry() -> None:
    from verify_perceptron.data.rationals import as_rationals

    vector = (Fraction(1, 2), Fraction(-3))
    assert as_rationals(vector) is vector  # a vector the package made: no call per entry
    assert as_rationals(["1/2", 3, 0.5]) == (Fraction(1, 2), Fraction(3), Fraction(1, 2))
    with pytest.raises(ValueError, match=r"^w\[2\]=True is a bool"):
        as_rationals([Fraction(1), 2, True], name="w")
    with pytest.raises(ValueError, match=r"^u\[1\]=nan is not a finite number"):
        as_rationals([1, float("nan")], name="u")


def test_a_decimal_goes_through_the_literal_limits_before_any_arithmetic() -> None:
    # Decimal("1E+99999999") once became a 10^8-digit integer (vp.verify with time_limit=5 never returned).
    with pytest.raises(ValueError, match="has exponent 99999999; at most 1000 is accepted"):
        as_rational(Decimal("1E+99999999"))
    with pytest.raises(ValueError, match="has exponent -1001"):
        as_rational(Decimal("1E-1001"))
    assert as_rational(Decimal("1E+1000")) == 10**1000 and as_rational(Decimal("-1.5E-3")) == Fraction(-3, 2000)


def test_a_value_named_in_a_message_never_meets_the_int_to_str_limit() -> None:
    assert shown_value(-(10**5000)) == "-(an integer of 5001 digits)"
    assert shown_value(Fraction(1, 10**4400)) == "Fraction(1, (an integer of 4401 digits))"
    with pytest.raises(ValueError, match=r"x=\(an integer of 9001 digits\) has more than 2000 digits"):
        bounded(Fraction(10**9000), name="x")


class _Unprintable:
    def __repr__(self) -> str:
        raise RuntimeError("no")


def test_a_value_whose_repr_raises_is_named_by_its_type() -> None:
    with pytest.raises(ValueError, match=r"v=\(a _Unprintable that cannot be shown\) of type _Unprintable"):
        as_rational(_Unprintable(), name="v")


def test_reading_side_messages_name_huge_values_past_the_int_to_str_limit() -> None:
    # Each of these once raised Python's "Exceeds the limit (4300 digits) for integer string conversion".
    from verify_perceptron.api.estimator import ExactPerceptron
    from verify_perceptron.data.dataset import Dataset, require_dataset
    from verify_perceptron.errors import DataError

    huge = 10**5000
    with pytest.raises(DataError, match=r"label y\[0\]=\(an integer of 5001 digits\) must be -1 or \+1"):
        Dataset(X=[[Fraction(1)], [Fraction(2)]], y=[huge, 1])
    with pytest.raises(InvalidArgument, match=r"data=\[\(an integer of 5001 digits\)\] of type list"):
        require_dataset([huge])
    with pytest.raises(TypeError, match=r"X\[0\]\[0\]=\[\[\(an integer of 5001 digits\)\]\]: argument must be"):
        ExactPerceptron().fit(np.array([[[huge]], [[1]]] + [None], dtype=object)[:2].reshape(2, 1), [0, 1])


def test_numpy_scalar_reprs_read_as_the_literal_inside(tmp_path) -> None:
    # NumPy 2 writes np.float64(17.99) for repr() and np.savetxt(fmt="%r"): the first row was taken for a header
    # (no cell a number) and every later cell refused.
    assert parse_rational("np.float64(17.99)") == parse_rational("17.99") == Fraction(1799, 100)
    assert parse_rational(" numpy.int64(-3) ") == -3 and parse_rational("np.float32(1e-3)") == Fraction(1, 1000)
    for junk in ("np.float64()", "np.float64(nan)", "np.float64(1", "np.frobnicate(1)", "np.float64(np.float64(1))"):
        with pytest.raises(ValueError):
            parse_rational(junk)
    import numpy as np

    from verify_perceptron.data.readers import load_dataset

    X, y = np.array([[17.99, 0.1184], [20.57, -3.0], [1e-300, 2.5]]), np.array([1.0, 0.0, 1.0])
    np.savetxt(tmp_path / "r.csv", np.c_[X, y], fmt="%r", delimiter=",")
    rows = (",".join(repr(float(v)) for v in row) for row in np.c_[X, y])  # the shortest text of each double
    (tmp_path / "g.csv").write_text("\n".join(rows) + "\n")
    as_repr, as_g = load_dataset(str(tmp_path / "r.csv")), load_dataset(str(tmp_path / "g.csv"))
    assert (as_repr.X, as_repr.y, as_repr.n_samples) == (as_g.X, as_g.y, 3)
