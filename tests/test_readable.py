"""The report made for reading: only whole exact numbers are shortened, each correctly rounded
(`verify_perceptron.report._readable`)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from tests.rounding_checks import is_rounded
from verify_perceptron.data.exact_text import exact_text
from verify_perceptron.report._decimals import decimal_text
from verify_perceptron.report._readable import SHORT, _approximate, readable, shown

#: Exact rationals whose text is long: big and tiny, of many digits, near and at ties of the 6th digit; none whose
#: decimal is short (-1047/125000000 is -0.000008376: `shown` writes it exactly, as it should).
long_rationals = st.one_of(
    st.builds(lambda m, k, q: Fraction(m, q) * Fraction(10) ** k, st.integers(-(10**80), 10**80),
              st.integers(-3_000, 3_000), st.integers(1, 10**50)),
    st.builds(lambda m, k, nudge: (Fraction(10 * m + 5) + nudge) * Fraction(10) ** k, st.integers(10**5, 10**6 - 1),
              st.integers(-200, 200), st.sampled_from([Fraction(0), Fraction(1, 10**60), Fraction(-1, 10**60)])),
).filter(lambda x: len(exact_text(x)) > SHORT and decimal_text(x, longest=SHORT) is None)


@given(long_rationals)
def test_a_long_exact_number_is_shown_correctly_rounded(x: Fraction) -> None:
    text = readable(exact_text(x))
    assert text.startswith("≈ ") and is_rounded(text, x, 6, "nearest")
    assert shown(x) == text == _approximate(exact_text(x))


def test_a_near_tie_beyond_the_leading_digits_is_read_whole() -> None:
    """1234565 followed by 60 zeros and a 1: the first 40 digits look like a tie; the last decides."""
    x = Fraction(int("1234565" + "0" * 60 + "1"))
    assert readable(exact_text(x)) == "≈ 1.23457e+67" and readable(exact_text(x - 2)) == "≈ 1.23456e+67"
    assert readable(exact_text(-x)) == "≈ -1.23457e+67"


@pytest.mark.parametrize("text", [
    "0.0000019191601234",  # an enclosure's end: the decimal that was rewritten to '0.≈ 1.91916e+09'
    "1.919160123e+100000",
    "runs/20240101123456789.csv", "feature_123456789012345678", "C:\\data\\123456789012345678",
    "2^1234567890123456", "x-123456789012345678", "data 123456789012345678.csv", "5/0000000000000000 in a sentence",
])
def test_no_token_that_is_not_a_whole_exact_number_is_rewritten(text: str) -> None:
    assert readable(text) == text
    assert readable({"lower": text}) == {"lower": text}


def test_names_are_left_as_written() -> None:
    record = {"source": "123456789012345678", "labels": {"negative": "123456789012345678", "positive": "1"}}
    assert readable(record) == record


def test_numbers_standing_alone_in_a_sentence_are_shortened() -> None:
    sentence = "at most 123456789012345678 mistakes (R² = -10000000000000000000/3, γ = 1/2)."
    assert readable(sentence) == "at most ≈ 1.23457e+17 mistakes (R² = ≈ -3.33333e+18, γ = 0.5)."


def test_integers_and_fractions_are_shortened_as_their_text_would_be() -> None:
    assert readable({"floor": 10**20, "n": 7, "x": Fraction(10**400, 3)}) == \
        {"floor": "≈ 1e+20", "n": 7, "x": "≈ 3.33333e+399"}
    assert readable([Fraction(1, 2)] * 3 + [10**30]) == ["0.5", "0.5", "0.5", "≈ 1e+30"]


@given(st.lists(st.sampled_from(["0", "00000000", "7", "123456789", "/", ".", "-", "e+", " ", "x", "_", "^", "≈ "]),
                max_size=24).map("".join))
def test_any_text_is_read_without_an_error(text: str) -> None:
    """Digits, signs, points, slashes and exponents in any order: shortened or left, never an exception."""
    shown_text = readable(text)
    assert isinstance(shown_text, str) and readable({"lower": text})["lower"] == shown_text
