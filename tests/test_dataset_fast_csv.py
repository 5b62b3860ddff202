"""The fast CSV path reads exactly what the general reader reads."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from verify_perceptron.data.csv_files import _fast_csv, _general_csv, _most_fractional_digits


@st.composite
def decimal_tables(draw: st.DrawFn) -> tuple[str, bool]:
    """A CSV of plain decimals, and whether the fast path must take it (all within its proof)."""
    width = draw(st.integers(1, 4))
    n = draw(st.integers(2, 12))
    digits = draw(st.integers(0, 17))
    magnitude = draw(st.sampled_from([10**3, 10**12, 10**16]))
    cells = [[draw(st.integers(-magnitude, magnitude)) for _ in range(width)] for _ in range(n)]
    rows = [",".join(format(Decimal(m).scaleb(-digits), "f") for m in row) + "," + str(i % 2) for i, row in enumerate(cells)]
    header = ",".join(f"x{j}" for j in range(width)) + ",label"
    provable = digits <= 15 and magnitude <= 10**12
    return "\n".join([header, *rows]) + "\n", provable


@given(decimal_tables())
def test_fast_csv_path_equals_the_general_reader_exactly(table: tuple[str, bool]) -> None:
    text, provable = table
    quick = _fast_csv(text, "t.csv", None, None)
    general = _general_csv(text, "t.csv", None, None)
    if provable:
        assert quick is not None
    if quick is not None:  # taken only when it is provably exact
        assert quick == general
        assert quick.X == general.X


def test_fast_csv_path_is_taken_for_plain_decimals_and_refused_otherwise() -> None:
    plain = "a,b,label\n0.1,-2.25,1\n3,.5,0\n"
    data = _fast_csv(plain, "p.csv", None, None)
    assert data is not None and data.X == ((Fraction(1, 10), Fraction(-9, 4)), (Fraction(3), Fraction(1, 2)))
    for other in ("a,b,label\n1e3,2,1\n3,4,0\n", 'a,b,label\n"1",2,1\n3,4,0\n', "a,b,label\n1/3,2,1\n3,4,0\n",
                  "a,b,label\n0.1234567890123456,2,1\n3,4,0\n", "a,b,label\n1,2\n3,4,0\n", "a,b,label\n1,,1\n3,4,0\n"):
        assert _fast_csv(other, "o.csv", None, None) is None


def test_most_fractional_digits_counts_the_longest_fraction() -> None:
    assert [_most_fractional_digits(t) for t in ("1,2", "0.5", "1.25,3.1", "0." + "1" * 20)] == [0, 1, 2, 17]
