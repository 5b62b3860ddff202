"""Decimal files at full precision (repr's 17 digits, pandas' to_csv): every cell is read as the Fraction of its
text, over a common denominator past int64 held in 64-bit limbs (`csv_stream`, `scale_limbs`), in lowest terms
found without a Python integer per value (`limb_arrays.common_factor`, `limb_terms`)."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from verify_perceptron.data import csv_files, csv_stream, memory
from verify_perceptron.data import kernel as _kernel
from verify_perceptron.data.csv_files import load_csv
from verify_perceptron.data.dataset import Dataset
from verify_perceptron.data.limb_arrays import common_factor, int_limbs, limb_values
from verify_perceptron.errors import DataError

pytestmark = pytest.mark.skipif(None in (_kernel.csv_block, _kernel.scale_limbs, _kernel.limb_terms),
                                reason="the C reader is not built")


def _read(path: Path, **options: Any) -> tuple[Any, bool]:
    """(load_csv's Dataset or its error's text, whether the streaming reader answered)."""
    taken = []
    stream = csv_stream.stream_csv

    def spy(*args: Any, **kwargs: Any) -> Any:
        result = stream(*args, **kwargs)
        taken.append(result is not None)
        return result

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(csv_files, "stream_csv", spy)
        try:
            return load_csv(str(path), **options), taken[0]
        except DataError as error:
            return str(error), bool(taken and taken[0])


def _general(path: Path, **options: Any) -> Any:
    """What the general reader (the one before the streaming reader) answers."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(csv_files, "stream_csv", lambda *args, **kwargs: None)
        try:
            return load_csv(str(path), **options)
        except DataError as error:
            return str(error)


#: The parts of a decimal literal (made once: a strategy built inside each draw costs Hypothesis more than the read).
_DIGITS = st.text("0123456789", max_size=24)
_FRACTIONS = st.none() | _DIGITS
_NO_DIGITS = st.sampled_from(["0", "7", "00"])
_EXPONENTS = st.none() | st.builds("{}{}{:0{}d}".format, st.sampled_from("eE"), st.sampled_from(["", "+", "-"]),
                                   st.integers(0, 40), st.integers(1, 3))
_SIGNS = st.sampled_from(["", "-", "+"])


@st.composite
def decimal_texts(draw: st.DrawFn) -> str:
    """A decimal literal: a sign or none, leading zeros, up to 24 digits either side of the point (a point with
    digits on one side only too), an exponent (e or E, signed or not, leading zeros) or none."""
    whole, frac = draw(_DIGITS), draw(_FRACTIONS)
    if not whole and not frac:
        whole = draw(_NO_DIGITS)
    return draw(_SIGNS) + whole + ("" if frac is None else "." + frac) + (draw(_EXPONENTS) or "")


_ROWS = st.integers(1, 3).flatmap(lambda width: st.lists(st.lists(decimal_texts(), min_size=width, max_size=width),
                                                         min_size=2, max_size=12))


@given(_ROWS)
def test_every_decimal_text_reads_as_its_fraction(rows: list[list[str]]) -> None:
    import tempfile

    width = len(rows[0])
    text = ",".join([f"x{j}" for j in range(width)] + ["label"]) + "\n"
    text += "".join(",".join(row) + f",{i % 2}\n" for i, row in enumerate(rows))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "d.csv"
        path.write_text(text)
        data, taken = _read(path, max_denominator_bits=8192)
        general = _general(path, max_denominator_bits=8192)
    assert taken
    assert [list(row) for row in data.X] == [[Fraction(cell) for cell in row] for row in rows]
    assert data == general


def test_a_full_precision_file_is_held_in_limbs_over_its_least_common_denominator(tmp_path: Path) -> None:
    cells = ["1.0970639814699807", "-2.0733350146975935", "1.2345678901234567e-05", "-0.018145020611759512",
             "3e-40", "0.5"]
    path = tmp_path / "d.csv"
    path.write_text("a,b,y\n" + "".join(f"{a},{b},{i % 2}\n" for i, (a, b) in enumerate(zip(cells[::2], cells[1::2]))))
    data, taken = _read(path)
    assert taken and data.limbs is not None and data.limbs.shape == (3, 2, 3)
    assert data.denominator == 10**40 and [v for row in data.X for v in row] == [Fraction(c) for c in cells]
    assert data == _general(path)


def test_cells_the_c_reader_cannot_hold_are_read_by_the_python_parser_as_before(tmp_path: Path) -> None:
    """More than 19 significant digits, a p/q past int64: the Python parser's cells, beside limb-held ones."""
    cells = ["123456789012345678901234567890.5", "1/98765432109876543210", "1.2345678901234567e-05", "-7"]
    path = tmp_path / "d.csv"
    path.write_text("".join(f"{c},{i % 2}\n" for i, c in enumerate(cells)))
    data, taken = _read(path)
    assert taken and data.limbs is not None
    assert [row[0] for row in data.X] == [Fraction(c) for c in cells]
    assert data == _general(path)


@pytest.mark.parametrize(("exponent", "accepted"), [(-499, True), (-500, False)])
def test_the_c_reader_takes_the_denominators_the_python_parser_takes_and_no_more(
        tmp_path: Path, exponent: int, accepted: bool) -> None:
    """1 over 10^2000 is the last decimal denominator the Python parser reads (MAX_EXPONENT + MAX_DIGITS); past
    it the file goes to the general reader, which names the cell."""
    path = tmp_path / "d.csv"
    path.write_text(f"x,y\n0.{'0' * 1500}1e{exponent},1\n-2.5,0\n")
    data, taken = _read(path, max_denominator_bits=8000)
    assert taken == accepted
    assert data == _general(path, max_denominator_bits=8000)
    if accepted:
        assert data.X[0][0] == Fraction(1, 10**2000)
    else:
        assert "is out of the accepted range" in data


def test_scale_limbs_is_the_product_and_refuses_what_it_cannot_hold() -> None:
    scale = _kernel.scale_limbs
    assert scale is not None
    nums = np.array([5, -7, 0, -(2**63), 2**63 - 1, -1], dtype=np.int64)
    codes = np.array([0, 1, 0, 1, 1, 2], dtype=np.uint16)
    factors = [3**50, 10**21, 0]
    out = np.empty((6, 3), dtype=np.int64)
    scale(nums, codes, int_limbs(factors, 3), out)
    assert limb_values(out).tolist() == [n * factors[c] for n, c in zip(nums.tolist(), codes.tolist())]
    with pytest.raises(OverflowError, match=r"cell 3, -9223372036854775808 times factor 1, does not fit in 2 limbs"):
        scale(nums, codes, int_limbs(factors, 2), np.empty((6, 2), dtype=np.int64))
    with pytest.raises(ValueError, match="code 2 has no factor"):
        scale(nums, codes, int_limbs(factors[:2], 3), out)
    with pytest.raises(ValueError, match="out of shape"):
        scale(nums, codes, int_limbs(factors, 3), np.empty((6, 2), dtype=np.int64))


def _facts(values: list[int], q: int) -> tuple[int, int, int]:
    """limb_terms' answer, from Python integers."""
    nonzero = [v for v in values if v]
    return (math.gcd(q, *values), min(((v & -v).bit_length() - 1 for v in nonzero), default=-1),
            max((abs(v).bit_length() for v in values), default=0))


def test_limb_terms_are_the_gcd_the_trailing_zeros_and_the_length_of_the_values() -> None:
    rng = np.random.default_rng(3)
    terms = _kernel.limb_terms
    assert terms is not None
    for L in (1, 2, 3):
        top = 2**(64 * L - 1)
        for q in (1, 5**20, 5**27, 3 * 7**9, 2**63 - 25):
            for factor in (1, 5 * 2**64, q):
                values = [int(v) * factor << int(s) for v, s in zip(rng.integers(-(2**40), 2**40, size=6),
                                                                     rng.integers(0, 20, size=6))]
                values = [v for v in values if -top <= v < top]
                for extra in ([], [0], [-top], [-(2**64)], [2**64 - 1], [-1]):
                    held = values + [v for v in extra if -top <= v < top]
                    assert terms(int_limbs(held, L), q) == _facts(held, q), (held, q)
    assert terms(int_limbs([0, 0], 2), 5) == (5, -1, 0)
    with pytest.raises(ValueError, match="q=0 must be positive"):
        terms(int_limbs([5], 1), 0)
    with pytest.raises(OverflowError):
        terms(int_limbs([5], 1), 2**63)
    with pytest.raises(TypeError, match="limbs must hold int64 items"):
        terms(np.zeros((2, 2)), 5)


@pytest.mark.parametrize("q", [5**25, 5**30])  # in C, and past 2^63 read as Python integers
def test_limbs_sharing_a_factor_with_the_denominator_are_put_in_lowest_terms(q: int) -> None:
    values = [[5 * 2**70, -15], [25, 5 * 3**40]]
    assert common_factor(int_limbs([v for row in values for v in row], 2).reshape(2, 2, 2), q) == 5
    data = Dataset(limbs=int_limbs([v for row in values for v in row], 2).reshape(2, 2, 2), denominator=4 * q,
                   y=(1, -1))
    assert data == Dataset(numerators=np.array(values, dtype=object), denominator=4 * q, y=(1, -1))
    assert data.denominator == 4 * q // 5 and data.X[1][1] == Fraction(3**40, 4 * q // 5)


def test_a_small_file_is_read_without_reading_the_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The default limit is never below MIN_CELLS: below it the machine's memory is not read (about 100 µs, a
    fifth of a small file's read); past it, it is."""
    read: list[int] = []

    def available() -> tuple[int, str]:
        read.append(1)
        return memory.RUN_BYTES_PER_CELL * 10**9, "MemAvailable"

    monkeypatch.setattr(memory, "available_memory", available)
    path = tmp_path / "d.csv"
    path.write_text("x,y\n" + "".join(f"{i / 8},{i % 2}\n" for i in range(100)))
    assert load_csv(str(path)).n_samples == 100 and read == []
    monkeypatch.setattr(memory, "MIN_CELLS", 99)
    assert load_csv(str(path)).n_samples == 100 and read == [1]
