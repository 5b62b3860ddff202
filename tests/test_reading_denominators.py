"""Reading rationals without a `Fraction` per cell: the same Dataset as the `Fraction` path, and a
common denominator refused past its size limit, quickly, naming the file, line and value."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.wall_clock import Stopwatch
from verify_perceptron.cli import main
from verify_perceptron.data import kernel as _kernel
from verify_perceptron.data.csv_files import _general_csv, load_csv
from verify_perceptron.data.dataset import Dataset
from verify_perceptron.data.denominators import MAX_DENOMINATOR_BITS, check_limit, over_common_denominator
from verify_perceptron.data.libsvm_files import load_libsvm
from verify_perceptron.data.rationals import parse_rational
from verify_perceptron.errors import DataError


def primes(count: int, above: int) -> list[int]:
    found: list[int] = []
    n = above
    while len(found) < count:
        n += 1
        if all(n % p for p in range(2, int(n**0.5) + 1)):
            found.append(n)
    return found


# --- the same Dataset as the Fraction path --------------------------------------------------------

_literal = st.one_of(
    st.integers(-(10**6), 10**6).map(str),
    st.builds(lambda p, q: f"{p}/{q}", st.integers(-(10**20), 10**20), st.integers(1, 10**20)),
    st.builds(lambda p, q: f"{p}/{q}", st.integers(-999, 999), st.integers(1, 60)),
    st.integers(0, 25).flatmap(lambda places: st.decimals(-(10**6), 10**6, places=places, allow_nan=False,
                                                          allow_infinity=False)).map(lambda d: format(d, "f")),
    st.builds(lambda m, f, e: f"{m}.{f}e{e}", st.integers(-999, 999), st.integers(0, 9999), st.integers(-30, 30)),
    st.sampled_from(["0", "-0", ".5", "5.", "+3", "1E3", "-.5e-3", " 2.5 ", "007", "0e-7", "1e-1000",
                     "9" * 40, "1/" + "7" * 30, "0.000000000000000000001", "12345678901234567890", "-6/4"]),
)


@st.composite
def rational_tables(draw: st.DrawFn) -> str:
    """A CSV of rational literals of every kind, labels 0/1, sometimes with the label column first."""
    width = draw(st.integers(1, 4))
    n = draw(st.integers(2, 8))
    rows = [[draw(_literal) for _ in range(width)] for _ in range(n)]
    labels = [str(i % 2) for i in range(n)]
    first = draw(st.booleans())
    lines = [([label] + row if first else row + [label]) for row, label in zip(rows, labels)]
    names = [f"x{j}" for j in range(width)]
    header = ["label"] + names if first else names + ["label"]
    return "\n".join(",".join(line) for line in [header, *lines]) + "\n"


def fraction_dataset(text: str) -> Dataset:
    """The Fraction path: one parse_rational per cell, the Dataset's own common denominator."""
    lines = text.splitlines()
    label_at = lines[0].split(",").index("label")
    cells = [line.split(",") for line in lines[1:]]
    X = [tuple(parse_rational(c) for j, c in enumerate(row) if j != label_at) for row in cells]
    y = [1 if row[label_at] == "1" else -1 for row in cells]
    return Dataset(X=X, y=y, source="t.csv", feature_names=[h for h in lines[0].split(",") if h != "label"],
                   labels=("0", "1"))


def same(a: Dataset, b: Dataset) -> None:
    assert a == b
    assert a.numerators.dtype == b.numerators.dtype
    assert a.numerators.tolist() == b.numerators.tolist() and a.denominator == b.denominator
    assert a.y == b.y and a.labels == b.labels


@given(rational_tables())
def test_reader_gives_the_fraction_paths_dataset_exactly(tmp_path_factory: pytest.TempPathFactory, text: str) -> None:
    path = tmp_path_factory.mktemp("t") / "t.csv"
    path.write_text(text)
    expected = fraction_dataset(text)
    expected.source = str(path)
    roomy = 100_000  # (1e-1000 alone has a 3,322-bit denominator: this test is about the values)
    same(load_csv(str(path), max_denominator_bits=roomy), expected)
    same(_general_csv(text, str(path), None, None, ",", roomy), expected)
    with pytest.MonkeyPatch.context() as patch:  # no C reader: the Python parser, cell by cell
        patch.setattr(_kernel, "rational_cells", None)
        same(load_csv(str(path), max_denominator_bits=roomy), expected)


def test_vec200_style_table_is_read_as_the_fraction_path_reads_it(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    p, q = rng.integers(-30, 31, size=(20, 100)), rng.integers(1, 21, size=(20, 100))
    text = "\n".join(",".join(f"{a}/{b}" for a, b in zip(pr, qr)) + f",{i % 2}" for i, (pr, qr) in enumerate(zip(p, q)))
    path = tmp_path / "v.csv"
    path.write_text(text + "\n")
    data = load_csv(str(path))
    assert data.numerators.dtype == np.int64
    assert data.X == tuple(tuple(Fraction(int(a), int(b)) for a, b in zip(pr, qr)) for pr, qr in zip(p, q))


def test_libsvm_reader_gives_the_fraction_paths_values(tmp_path: Path) -> None:
    path = tmp_path / "d.svm"
    path.write_text("1 1:1/3 3:0.25\n-1 2:-2e-2 3:7\n1 1:" + "9" * 30 + "\n")
    data = load_libsvm(str(path))
    assert data.X == ((Fraction(1, 3), Fraction(0), Fraction(1, 4)), (Fraction(0), Fraction(-1, 50), Fraction(7)),
                      (Fraction(10**30 - 1), Fraction(0), Fraction(0)))
    assert data.numerators.dtype == object and data.denominator == 300


# --- the size limit ------------------------------------------------------------------------------


def test_three_hundred_prime_denominators_are_refused_in_well_under_a_second(tmp_path: Path) -> None:
    # 300 primes above 2^14: their lcm has about 4,200 bits, past the default 4,096
    rows = [f"1/{p},{i % 2}" for i, p in enumerate(primes(300, 2**14))]
    path = tmp_path / "primes.csv"
    path.write_text("\n".join(rows) + "\n")
    assert path.stat().st_size < 3300
    with Stopwatch() as watch, pytest.raises(DataError) as refused:
        load_csv(str(path))
    assert watch.within(0, 0.5), watch
    message = str(refused.value)
    line = next(i for i in range(1, 301) if _lcm_bits(rows[:i]) > MAX_DENOMINATOR_BITS)
    assert message.startswith(f"{path}:{line}: column 1: '{rows[line - 1].split(',')[0]}' makes the common denominator ")
    assert f"past the limit of {MAX_DENOMINATOR_BITS} bits; raise it with --max-denominator-bits N" in message
    assert "\n" not in message
    data = load_csv(str(path), max_denominator_bits=5000)  # raised, the same file loads
    assert data.denominator.bit_length() == _lcm_bits(rows) <= 5000


def _lcm_bits(rows: list[str]) -> int:
    import math

    return math.lcm(*(int(row.split(",")[0].split("/")[1]) for row in rows)).bit_length()


def test_the_first_value_in_file_order_is_named_not_the_largest(tmp_path: Path) -> None:
    path = tmp_path / "d.csv"
    path.write_text("a,b,label\n1/2,1/3,0\n1/5,1/7,1\n1/11,1/4,0\n")
    # lcm after 1/2, 1/3, 1/5, 1/7: 210 (8 bits); 1/11 takes it to 2310 (12 bits)
    with pytest.raises(DataError, match=r"d\.csv:4: column a: '1/11' makes the common denominator 2310, 12 bits long"):
        load_csv(str(path), max_denominator_bits=11)
    with pytest.raises(DataError, match=r"d\.csv:4: column b: '1/4' makes the common denominator 4620, 13 bits long"):
        load_csv(str(path), max_denominator_bits=12)
    assert load_csv(str(path), max_denominator_bits=13).denominator == 4620


def test_the_limit_is_inclusive_and_counts_the_reduced_denominator(tmp_path: Path) -> None:
    path = tmp_path / "d.csv"
    path.write_text("x,label\n1/128,0\n2/256,1\n0.5000000000000000000000000,0\n")
    assert load_csv(str(path), max_denominator_bits=8).denominator == 128  # 128 has 8 bits; 2/256 is 1/128
    with pytest.raises(DataError, match=r"d\.csv:2: column x: '1/128' makes the common denominator 128, 8 bits"):
        load_csv(str(path), max_denominator_bits=7)


def test_huge_literal_denominators_are_refused_by_size_quickly(tmp_path: Path) -> None:
    path = tmp_path / "d.csv"
    path.write_text(f"x,label\n1/{2**3000},0\n1/{3**2000},1\n")  # 3,001 and 3,170 bits, coprime
    expected = (rf"d\.csv:3: column x: '1/{str(3**2000)[:18]}\.\.\.{str(3**2000)[-10:]}' makes the "
                r"common denominator \d+ bits long")
    with Stopwatch() as watch, pytest.raises(DataError, match=expected):
        load_csv(str(path))
    assert watch.within(0, 0.5), watch


def test_libsvm_refusal_names_the_line_feature_and_value(tmp_path: Path) -> None:
    path = tmp_path / "d.svm"
    path.write_text("1 1:1/2 2:1/3\n-1 2:0.2 5:1/7\n")
    with pytest.raises(DataError, match=r"d\.svm:2: feature 5: '1/7' makes the common denominator 210, 8 bits long"):
        load_libsvm(str(path), max_denominator_bits=7)
    assert load_libsvm(str(path), max_denominator_bits=8).denominator == 210


def test_command_line_refuses_with_exit_2_and_one_line_and_the_option_raises_the_limit(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "primes.csv"
    path.write_text("".join(f"{'' if i % 2 else '-'}1/{p},{i % 2}\n" for i, p in enumerate(primes(20, 100))))
    for command in ("verify", "bounds"):
        assert main([command, str(path), "--max-denominator-bits", "64"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"{path}:" in err and "--max-denominator-bits" in err
    assert main(["verify", str(path), "--max-denominator-bits", "200", "--format", "json"]) == 0
    capsys.readouterr()


@pytest.mark.parametrize("bad", [0, -1, True, 2.5, "64"])
def test_a_limit_that_is_not_a_positive_integer_is_refused(bad: object) -> None:
    with pytest.raises(DataError, match=r"max_denominator_bits=.* must be a positive integer"):
        check_limit(bad)


def test_over_common_denominator_keeps_int64_exactly_while_every_numerator_is_below_2_62() -> None:
    where = lambda k: ("t", "")  # noqa: E731
    scaled, common = over_common_denominator(np.array([2**61, 1]), np.array([1, 2]), max_bits=64, where=where)
    assert scaled.dtype == object and scaled.tolist() == [2**62, 1] and common == 2
    scaled, common = over_common_denominator(np.array([2**61 - 1, 1]), np.array([1, 2]), max_bits=64, where=where)
    assert scaled.dtype == np.int64 and scaled.tolist() == [2**62 - 2, 1]
    scaled, common = over_common_denominator(np.array([2**60, 1]), np.array([1, 2]), max_bits=64, where=where)
    assert scaled.dtype == np.int64 and scaled.tolist() == [2**61, 1]
    big = np.array([1, 1], dtype=object)
    scaled, common = over_common_denominator(big, np.array([2**70, 3], dtype=object), max_bits=80, where=where)
    assert common == 3 * 2**70 and scaled.dtype == object and scaled.tolist() == [3, 2**70]


def _near_the_cap(rows: int) -> str:
    """A CSV of 1/p and -1/q over ~280 primes: a common denominator just under 4,096 bits on every path."""
    ps = primes(300, 2**14)
    chosen, common = [], 1
    for p in ps:
        if (common * p).bit_length() > 4080:
            break
        common *= p
        chosen.append(p)
    return "x1,x2,y\n" + "".join(f"1/{chosen[i % len(chosen)]},-1/{chosen[(7 * i + 3) % len(chosen)]},{i % 2}\n"
                                 for i in range(rows))


@pytest.mark.parametrize("suffix", [".csv", ".tsv"])
def test_integers_a_common_denominator_makes_wide_are_bounded_before_they_are_made(
        tmp_path: Path, suffix: str) -> None:
    # A 3 MB file of such cells once made 300,000 integers of 4,080 bits (over 1 GiB in the run).
    text = _near_the_cap(600)
    path = tmp_path / f"d{suffix}"
    path.write_text(text if suffix == ".csv" else text.replace(",", "\t").replace("x1\tx2", '"x1"\tx2'))
    delimiter = "," if suffix == ".csv" else "tab"  # the quoted tab file goes through the general reader
    with pytest.raises(DataError, match=r"1200 values of up to 40\d\d bits over one common denominator take the "
                                        r"memory of \d+ int64 values, more than the limit of 100000 cells"):
        load_csv(str(path), max_cells=100_000, delimiter=delimiter)
    data = load_csv(str(path), max_cells=1_000_000, delimiter=delimiter)
    assert data.denominator.bit_length() > 4000 and data.numerators.dtype == object


def test_libsvm_values_over_a_wide_denominator_are_bounded_too(tmp_path: Path) -> None:
    lines = _near_the_cap(600).splitlines()[1:]
    path = tmp_path / "d.svm"
    path.write_text("".join(f"{y} 1:{a} 2:{b}\n" for a, b, y in (line.split(",") for line in lines)))
    with pytest.raises(DataError, match="d.svm: 1200 values of up to 40"):
        load_libsvm(str(path), max_cells=100_000)


def test_a_long_line_of_cells_the_c_reader_leaves_to_python_is_read_in_linear_time(tmp_path: Path) -> None:
    # Each cell the C reader could not read (10^999 is past int64) split its whole line again: two lines of
    # 6,000 such cells (an 84 KB file) took 4.2 s, 100,000 would take about twenty minutes.
    path = tmp_path / "wide.csv"
    path.write_text(",".join(["1e-999"] * 6000) + ",0\n" + ",".join(["2e-999"] * 6000) + ",1\n")
    with Stopwatch() as watch:
        data = load_csv(str(path))
    assert watch.within(0, 1.5), watch
    assert data.denominator == 10**999 and data.numerators[:, :2].tolist() == [[1, 1], [2, 2]]
