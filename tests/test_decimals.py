"""Short decimals for people, correctly rounded at any size: `verify_perceptron.report._decimals`."""

from __future__ import annotations

from decimal import MAX_EMAX, MIN_EMIN, ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_EVEN, Context, Decimal
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from tests.rounding_checks import is_rounded
from verify_perceptron.report._decimals import approximate, decimal_down, decimal_up, significant

_MODES = {"nearest": ROUND_HALF_EVEN, "down": ROUND_FLOOR, "up": ROUND_CEILING}


def _decimal_module(x: Fraction, digits: int, rounding: str) -> Fraction:
    """The same rounding by the standard library's `decimal` (another implementation, exact by design)."""
    context = Context(prec=digits, rounding=_MODES[rounding], Emax=MAX_EMAX, Emin=MIN_EMIN)
    return Fraction(context.divide(Decimal(x.numerator), Decimal(x.denominator)))


#: Rationals of every size: mantissas to 60 digits, powers of ten to ±100,000, zero, and ties (a last
#: digit followed by exactly 5).
rationals = st.one_of(
    st.fractions(max_denominator=10**30),
    st.builds(lambda m, k, q: Fraction(m, q) * Fraction(10) ** k, st.integers(-(10**60), 10**60),
              st.integers(-100_000, 100_000), st.integers(1, 10**20)),
    st.builds(lambda m, k: Fraction(10 * m + 5) * Fraction(10) ** k, st.integers(-(10**7), 10**7),
              st.integers(-400, 400)),
)


@given(rationals, st.integers(1, 12), st.sampled_from(sorted(_MODES)))
def test_significant_digits_are_the_decimal_modules(x: Fraction, digits: int, rounding: str) -> None:
    if x == 0:
        return
    negative, q, e = significant(x, digits, rounding)
    shown = Fraction(-q if negative else q) * Fraction(10) ** (e - digits + 1)
    assert 10 ** (digits - 1) <= q < 10**digits
    assert shown == _decimal_module(x, digits, rounding)


@given(rationals)
def test_each_text_is_the_right_rounding_by_the_definition(x: Fraction) -> None:
    assert is_rounded(approximate(x), x, 6, "nearest")
    assert is_rounded(decimal_down(x), x, 10, "down") and is_rounded(decimal_up(x), x, 10, "up")
    assert is_rounded(decimal_down(x, 7), x, 7, "down") and is_rounded(decimal_up(x, 7), x, 7, "up")


@given(st.floats(allow_nan=False, allow_infinity=False).filter(lambda f: 1e-300 < abs(f) < 1e300))
def test_approximate_lays_numbers_out_as_format_g_does(f: float) -> None:
    text, ours = format(f, ".6g"), approximate(Fraction(f))
    assert Fraction(text) == Fraction(ours)  # the double is exact: both round it correctly, to even on a tie
    assert ours == text


@pytest.mark.parametrize("x, digits, nearest", [
    (Fraction(1234565, 10), 6, "123456"),  # a tie: to the even last digit
    (Fraction(1234575, 10), 6, "123458"),
    (Fraction(-1234565, 10**12), 6, "-1.23456e-06"),
    (Fraction(999_999_5, 10), 6, "1e+06"),  # a tie carried into the next power of ten
    (Fraction(10**100_000 + 1, 3), 6, "3.33333e+99999"),
    (Fraction(2, 3 * 10**100_000), 6, "6.66667e-100001"),
])
def test_ties_signs_and_huge_exponents(x: Fraction, digits: int, nearest: str) -> None:
    assert approximate(x, digits) == nearest


def test_the_enclosure_ends_keep_the_layout_they_had() -> None:
    """Plain digits for exponents -6 to 14, else ``d.ddde±X`` with the exponent unpadded, as `decimal` wrote them."""
    assert [decimal_down(Fraction(n, d)) for n, d in ((1, 3), (10**14, 3), (10**16, 3), (1, 3 * 10**5), (1, 3 * 10**7))] \
        == ["0.3333333333", "33333333330000", "3.333333333e+15", "0.000003333333333", "3.333333333e-8"]
    assert decimal_up(Fraction(-1, 3 * 10**7)) == "-3.333333333e-8" and decimal_down(Fraction(0)) == "0"


def test_significant_refuses_what_has_no_digits() -> None:
    with pytest.raises(ValueError, match="x=0"):
        significant(Fraction(0), 6, "nearest")
    with pytest.raises(ValueError, match="digits=0"):
        significant(Fraction(1), 0, "nearest")
    with pytest.raises(ValueError, match="rounding='half-up'"):
        significant(Fraction(1), 6, "half-up")


def test_the_rounding_check_rejects_wrong_roundings() -> None:
    """The definition the property tests hold every shown decimal to can fail: each of these is wrong."""
    third = Fraction(1, 3)
    assert is_rounded("0.333", third, 3, "down") and is_rounded("0.334", third, 3, "up")
    assert not is_rounded("0.334", third, 3, "down") and not is_rounded("0.333", third, 3, "up")
    assert not is_rounded("0.3333", third, 3, "nearest") and not is_rounded("0.33", third, 3, "nearest")
    assert is_rounded("1.23456", Fraction(1234565, 10**6), 6, "nearest")  # a tie, to even
    assert not is_rounded("1.23457", Fraction(1234565, 10**6), 6, "nearest")
    assert not is_rounded("≈ -3.33333e+399", Fraction(10**400, 3), 6, "nearest")
