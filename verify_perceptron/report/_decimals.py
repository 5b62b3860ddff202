"""Exact rationals as short decimals for people, correctly rounded, from the integers alone.

Three roundings: to nearest with ties to even (`approximate`, the ``≈``
values of the text, Markdown and HTML), down and up (`decimal_down`,
`decimal_up`: an enclosure's ends, rounded outward so that it still
encloses). Each is a total function of the exact value: no float is made
(so nothing overflows or underflows, at any exponent), no text is parsed,
and no integer is converted to a string but the few digits shown.

Why the digits are right. Let x = n/d with d > 0, p the digits asked for,
and e the integer with 10^e <= |x| < 10^(e+1). With s = p - 1 - e, the
scaled value y = |x|·10^s lies in [10^(p-1), 10^p), and integer division
gives it exactly as y = q + r/b, 0 <= r < b (q = |n|·10^s // d for s >= 0,
|n| // (d·10^-s) otherwise). Rounding y to an integer is then exact
integer work: to nearest, q + 1 when 2r > b, or 2r = b (a tie) and q is
odd; toward zero, q; away from zero, q + 1 when r > 0. Rounding down is
toward zero for x > 0 and away from it for x < 0 (and up the reverse). A
rounded q of 10^p is 10^(p-1) at exponent e + 1, the same number.

With a power of ten kept apart (the value x·10^shift), y = |x|·10^(s + shift):
the first guess of e moves by shift, and the power 10^(s + shift) that
scales n or d stays small when x is moderate, however large the shift.

Finding e. Since floor(y) >= 10^(p-1) exactly when y >= 10^(p-1) (the bound
is an integer), q has p digits exactly when e is right; one too many says
e is too small, one too few too large. The first guess comes from the bit
lengths: |n| in [2^(a-1), 2^a) and d in [2^(b-1), 2^b) put log10|x| within
log10(2) of (a - b)·log10(2), and the integer estimate ⌊(a - b)·30103/10^5⌋
is off by less than 1 more below 3·10^8 bits; so at most three divisions
are made.
"""

from __future__ import annotations

from fractions import Fraction

from ..data.exact_text import integer_text

__all__ = ["approximate", "decimal_down", "decimal_text", "decimal_up", "significant", "terminating"]


def significant(x: Fraction, digits: int, rounding: str, shift: int = 0) -> tuple[bool, int, int]:
    """``(negative, q, e)`` with |x|·10^shift rounded to q·10^(e - digits + 1), q of exactly `digits` digits.

    `rounding` is ``"nearest"`` (ties to even), ``"down"`` or ``"up"``
    (toward -∞ and +∞); x must not be 0. The `shift` is a power of ten
    kept apart from x (a huge one need not be multiplied out).

    Examples
    --------
    >>> significant(Fraction(2, 3), 3, "nearest"), significant(Fraction(-2, 3), 3, "down")
    ((False, 667, -1), (True, 667, -1))
    >>> significant(Fraction(125, 1000), 2, "nearest"), significant(Fraction(135, 1000), 2, "nearest")  # ties to even
    ((False, 12, -1), (False, 14, -1))
    >>> significant(Fraction(9999), 3, "up")  # 10.0e3, carried into the next power of ten
    (False, 100, 4)
    """
    if digits < 1:
        raise ValueError(f"digits={digits} must be >= 1")
    if rounding not in ("nearest", "down", "up"):
        raise ValueError(f"rounding={rounding!r} must be 'nearest', 'down' or 'up'")
    n, d = abs(x.numerator), x.denominator
    if n == 0:
        raise ValueError("x=0 has no significant digits")
    negative = x < 0
    low, high = 10 ** (digits - 1), 10**digits
    e = (n.bit_length() - d.bit_length()) * 30103 // 100000 + shift
    while True:
        k = digits - 1 - e + shift  # y = |x|·10^k
        top, bottom = (n * 10**k, d) if k >= 0 else (n, d * 10**-k)
        q, r = divmod(top, bottom)
        if q >= high:
            e += 1
        elif q < low:
            e -= 1
        else:
            break
    if rounding == "nearest":
        q += int(2 * r > bottom or (2 * r == bottom and q % 2 == 1))
    elif r and (rounding == "up") != negative:  # away from zero: up for x > 0, down for x < 0
        q += 1
    if q == high:
        q, e = low, e + 1
    return negative, q, e


def _fixed(digits: str, e: int) -> str:
    """The digits ``d1 d2 ...`` read as d1.d2... × 10^e, written without an exponent, trailing zeros dropped."""
    if e >= len(digits) - 1:
        return digits + "0" * (e - len(digits) + 1)
    if e >= 0:
        text = digits[: e + 1] + "." + digits[e + 1:]
    else:
        text = "0." + "0" * (-e - 1) + digits
    return text.rstrip("0").rstrip(".")


def _scientific(digits: str, e: int, exponent_width: int) -> str:
    """``d1.d2...e±X``, trailing zeros of the significand dropped, X of at least `exponent_width` digits."""
    mantissa = (digits[0] + "." + digits[1:]).rstrip("0").rstrip(".")
    return f"{mantissa}e{'-' if e < 0 else '+'}{abs(e):0{exponent_width}d}"


def approximate(x: Fraction, digits: int = 6, *, shift: int = 0) -> str:
    """`x`·10^shift to `digits` significant digits, nearest (ties to even), laid out as
    ``format(float(x), ".6g")`` does.

    Examples
    --------
    >>> approximate(Fraction(14459289768964798721, 2)), approximate(Fraction(-1, 3 * 10**5)), approximate(Fraction(0))
    ('7.22964e+18', '-3.33333e-06', '0')
    >>> approximate(Fraction(10**400 + 1, 3)), approximate(Fraction(1, 10**400)), approximate(Fraction(25, 2), 2)
    ('3.33333e+399', '1e-400', '12')
    """
    if x == 0:
        return "0"
    negative, q, e = significant(x, digits, "nearest", shift)
    text = _fixed(str(q), e) if -4 <= e < digits else _scientific(str(q), e, 2)
    return "-" + text if negative else text


def _directed(x: Fraction, digits: int, rounding: str) -> str:
    """`x` rounded toward `rounding`: plain digits for exponents -6 to 14, else ``d.ddde±X``."""
    if x == 0:
        return "0"
    negative, q, e = significant(x, digits, rounding)
    text = _fixed(str(q), e) if -7 < e < 15 else _scientific(str(q), e, 1)
    return "-" + text if negative else text


def decimal_down(x: Fraction, digits: int = 10) -> str:
    """`x` rounded down to `digits` significant decimal digits (an enclosure's lower end stays below).

    Examples
    --------
    >>> decimal_down(Fraction(2, 3)), decimal_up(Fraction(2, 3)), decimal_up(Fraction(-2, 3), 3)
    ('0.6666666666', '0.6666666667', '-0.666')
    >>> decimal_down(Fraction(10**400 + 1, 3), 4), decimal_up(Fraction(1, 3 * 10**400), 4)
    ('3.333e+399', '3.334e-401')
    """
    return _directed(x, digits, "down")


def decimal_up(x: Fraction, digits: int = 10) -> str:
    """`x` rounded up to `digits` significant decimal digits (an enclosure's upper end stays above)."""
    return _directed(x, digits, "up")


def terminating(denominator: int) -> int | None:
    """The least m with `denominator` dividing 10^m, or None when there is none (a factor other than 2 and 5).

    The odd part's power of five is found from its bit length (at most three
    candidates, each one power), never by dividing by 5 once per factor, so a
    denominator of 10^5 digits costs a few multiplications.

    Examples
    --------
    >>> terminating(100), terminating(625), terminating(1), terminating(3), terminating(2**10 * 5**3)
    (2, 4, 0, None, 10)
    """
    if denominator < 1:
        raise ValueError(f"denominator={denominator} must be >= 1")
    twos = (denominator & -denominator).bit_length() - 1
    odd = denominator >> twos
    if odd == 1:
        return twos
    guess = (odd.bit_length() - 1) * 43067656 // 10**8  # times log_5(2), in integers: within one of log_5(odd)
    fives = next((b for b in (guess, guess + 1, guess - 1, guess + 2) if b > 0 and 5**b == odd), None)
    return None if fives is None else max(twos, fives)


def decimal_text(x: Fraction, *, longest: int | None = None) -> str | None:
    """`x` written as a decimal, exactly (``17.99``, ``-0.000125``), when its denominator divides a power of ten;
    None otherwise, or when the text would be longer than `longest` characters (found before any digit is made).

    Examples
    --------
    >>> decimal_text(Fraction(1799, 100)), decimal_text(Fraction(-1, 8)), decimal_text(Fraction(1, 3))
    ('17.99', '-0.125', None)
    >>> decimal_text(Fraction(3483943, 500)), decimal_text(Fraction(10**20)), decimal_text(Fraction(10**20), longest=14)
    ('6967.886', '100000000000000000000', None)
    """
    m = terminating(x.denominator)
    if m is None:
        return None
    n = abs(x.numerator) * (10**m // x.denominator)  # x = ±n / 10^m
    if longest is not None:
        # n has at least (bits - 1)·log10(2) digits: too long for sure, without writing them
        if (n.bit_length() - 1) * 30103 // 100000 + 1 > longest:
            return None
    digits = integer_text(n)
    if m:
        digits = digits.rjust(m + 1, "0")
        digits = f"{digits[:-m]}.{digits[-m:]}"
    text = ("-" if x < 0 else "") + digits
    return None if longest is not None and len(text) > longest else text
