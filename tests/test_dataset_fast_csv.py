"""The fast CSV path reads exactly what the general reader reads."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from verify_perceptron.data import kernel as _kernel
from verify_perceptron.data.csv_files import _fast_csv, _general_csv, _most_fractional_digits, _plain_decimals
from verify_perceptron.errors import DataError


@st.composite
def decimal_tables(draw: st.DrawFn) -> tuple[str, bool]:
    """A CSV of plain decimals, and whether NumPy's float parser may read it (all within its proof)."""
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
    assert quick is not None
    assert quick == general
    assert quick.X == general.X
    features = [line.rpartition(",")[0] for line in text.splitlines()[1:]]
    plain = _plain_decimals(features, general.n_features, 4096)
    if provable:
        assert plain is not None
    if plain is not None:  # taken only when it is provably exact
        assert plain[1] == general.denominator and (plain[0] == general.numerators).all()


def test_fast_csv_path_is_taken_for_every_comma_table_and_refused_for_quotes_and_ragged_rows() -> None:
    plain = "a,b,label\n0.1,-2.25,1\n3,.5,0\n"
    data = _fast_csv(plain, "p.csv", None, None)
    assert data is not None and data.X == ((Fraction(1, 10), Fraction(-9, 4)), (Fraction(3), Fraction(1, 2)))
    for taken in ("a,b,label\n1e3,2,1\n3,4,0\n", "a,b,label\n1/3,2,1\n3,4,0\n", "a,b,label\n0.1234567890123456,2,1\n3,4,0\n"):
        quick = _fast_csv(taken, "o.csv", None, None)
        assert quick is not None and quick == _general_csv(taken, "o.csv", None, None)
    for other in ('a,b,label\n"1",2,1\n3,4,0\n', "a,b,label\n1,2\n3,4,0\n", "a,b,label\n1,2,1\n\n3,4,0\n"):
        assert _fast_csv(other, "o.csv", None, None) is None


def test_fast_csv_path_names_a_bad_cell_as_the_general_reader_does() -> None:
    for text in ("a,b,label\n1,,1\n3,4,0\n", "a,b,label\n1,2,1\n3,x4,0\n", "a,b,label\n1,2,1\n3,1e5000,0\n",
                 "1,2,1\n3,4,0\nfoo,4,1\n", "label,a,b\n1,2,1/0\n0,4,0\n"):
        with pytest.raises(DataError) as quick:
            _fast_csv(text, "o.csv", None, None)
        with pytest.raises(DataError) as general:
            _general_csv(text, "o.csv", None, None)
        assert str(quick.value) == str(general.value)
        assert str(quick.value).startswith("o.csv:")


def test_plain_decimals_without_the_c_reader_equal_the_exact_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "a,b,label\n0.10,-2.250,1\n3,.5,0\n-0.001,7,1\n"
    exact = _fast_csv(text, "p.csv", None, None)
    monkeypatch.setattr(_kernel, "rational_cells", None)
    assert _plain_decimals(["0.10,-2.250", "3,.5", "-0.001,7"], 2, 4096) is not None
    assert _plain_decimals(["1/3,2"], 2, 4096) is None
    assert _plain_decimals(["0.001,2"], 2, 9) is None  # 1000 has 10 bits: the exact reader names it
    assert _fast_csv(text, "p.csv", None, None) == exact


def test_most_fractional_digits_counts_the_longest_fraction() -> None:
    assert [_most_fractional_digits(t) for t in ("1,2", "0.5", "1.25,3.1", "0." + "1" * 20)] == [0, 1, 2, 17]
