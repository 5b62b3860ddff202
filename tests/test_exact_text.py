"""Exact numbers as text and back at any size: `verify_perceptron.data.exact_text`."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from verify_perceptron.data.exact_text import exact_text, integer_text, nearest_float, read_exact, read_integer


@contextmanager
def int_str_limit(digits: int) -> Iterator[None]:
    """The process's int-to-string limit set to `digits` for the block (the test's own setting, restored)."""
    saved = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(digits)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(saved)


def _str_unlimited(value: object) -> str:
    with int_str_limit(0):
        return str(value)


#: Integers around the points where the conversion changes method (2,000 bits) and past str's limit.
integers = st.one_of(
    st.integers(),
    st.builds(lambda bits, low, sign: sign * ((1 << bits) + low), st.integers(1_990, 2_010), st.integers(0, 2**64),
              st.sampled_from([1, -1])),
    st.builds(lambda base, power, sign: sign * base**power, st.integers(2, 99), st.integers(1, 6_000),
              st.sampled_from([1, -1])),
)


@given(integers)
def test_integer_text_is_str_at_any_size_and_reads_back(n: int) -> None:
    with int_str_limit(640):  # the least limit a program may set: nothing here may depend on it
        text = integer_text(n)
        assert read_integer(text) == n
    assert text == _str_unlimited(n)


@given(integers, integers.filter(lambda d: d != 0))
def test_exact_text_is_str_of_the_fraction_and_reads_back(p: int, q: int) -> None:
    value = Fraction(p, q)
    with int_str_limit(640):
        text = exact_text(value)
        assert read_exact(text) == value
    assert text == _str_unlimited(value)


def test_a_hundred_thousand_digits_convert_both_ways() -> None:
    limit = sys.get_int_max_str_digits()
    n = -(7**118_000)  # 99,722 digits
    text = integer_text(n)
    assert len(text) == 99_723 and read_integer(text) == n
    assert read_exact(f"{text}/3") == Fraction(n, 3)
    assert sys.get_int_max_str_digits() == limit  # nothing changed the process's limit


@pytest.mark.parametrize("text, value", [
    ("0", Fraction(0)), ("-0", Fraction(0)), (".5", Fraction(1, 2)), ("5.", Fraction(5)), ("1.25e-7", Fraction(1, 8_000_000)),
    ("-3e+2", Fraction(-300)), ("0.0000001919160123", Fraction(1919160123, 10**16)), ("6/1", Fraction(6)),
])
def test_read_exact_reads_integers_ratios_and_decimals(text: str, value: Fraction) -> None:
    assert read_exact(text) == value


@pytest.mark.parametrize("text", ["", "1/", "/2", "0.≈ 1.91916e+09", "≈ 1.2", "1e", "1/2/3", "--1", "nan"])
def test_read_exact_refuses_what_is_not_an_exact_number(text: str) -> None:
    with pytest.raises(ValueError, match="is not an"):
        read_exact(text)


def test_nearest_float_is_none_only_past_the_doubles_range() -> None:
    assert nearest_float(Fraction(10**308)) == 1e308
    assert nearest_float(Fraction(10**309)) is None and nearest_float(-(10**400)) is None
    assert nearest_float(Fraction(1, 10**400)) == 0.0 and nearest_float(Fraction(1, 3)) == 1 / 3
