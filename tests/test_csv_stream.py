"""The streaming CSV reader (`verify_perceptron.data.csv_stream`) gives what `load_csv` gave before it: the same
Dataset (numerators and their dtype, denominator, labels, names, row index) for the plain files it takes, and for
every other file the old reader's result or its error, word for word."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from verify_perceptron.data import csv_files, csv_stream
from verify_perceptron.data import kernel as _kernel
from verify_perceptron.data.csv_files import load_csv
from verify_perceptron.errors import DataError

pytestmark = pytest.mark.skipif(_kernel.csv_block is None, reason="the C reader is not built")


def _outcome(path: Path, **options: Any) -> tuple[Any, ...]:
    """Everything a reader's answer holds, or its error's text."""
    try:
        d = load_csv(str(path), **options)
    except DataError as error:
        return ("error", str(error))
    index = None if d.row_index is None else d.row_index.as_dict()
    return (d.numerators.dtype, d.numerators.tolist(), d.denominator, d.y, d.labels, d.feature_names, index,
            d.binary_float)


def _both(path: Path, monkeypatch: pytest.MonkeyPatch, **options: Any) -> tuple[tuple[Any, ...], tuple[Any, ...], bool]:
    """(today's answer, the answer before the streaming reader, whether the streaming reader took the file)."""
    taken = []
    stream = csv_stream.stream_csv

    def spy(*args: Any, **kwargs: Any) -> Any:
        result = stream(*args, **kwargs)
        taken.append(result is not None)
        return result

    with monkeypatch.context() as patch:
        patch.setattr(csv_files, "stream_csv", spy)
        new = _outcome(path, **options)
    with monkeypatch.context() as patch:
        patch.setattr(csv_files, "stream_csv", lambda *args, **kwargs: None)
        old = _outcome(path, **options)
    return new, old, bool(taken and taken[0])


#: (file text, load_csv's options, whether the streaming reader takes it).
CASES: list[tuple[str, dict[str, Any], bool]] = [
    ("x1,x2,label\n0.5,3/7,1\n-1,2e1,0\n", {}, True),
    ("0.5,1.25,1\n-1,2,-1\n\n\n", {}, True),
    ("\ufeffa,b,y\r\n1.5,2,1\r\n3,-4.75,0\r\n", {}, True),
    (",0,1,label\n0,0.1,0.2,1\n1,0.3,-0.4,0\n", {}, True),  # pandas' to_csv, its index
    ("a,b,c\n1,2,x\n3,4,y\n", {"positive": "y"}, True),
    ("y,a,b\n1,2,3\n0,4,5\n", {}, True),
    ("a,b,c\n1,2,1\n0,4,0\n", {"label_column": "1"}, True),
    ("a;b;label\n1,5;2;1\n3;4;0\n", {}, False),
    ("a;b;label\n1.5;2;1\n3;4;0\n", {}, True),
    ("a\tb\tlabel\n1.5\t2\t1\n3\t4\t0\n", {}, True),
    ("  1.5   2  1\n3 4  0  \n", {}, True),
    ("  1.5   2  1\n3 4\t0  \n", {}, False),  # a tab on one line only: read as commas
    ("a,b,y\n# a comment\n1,2,1\n3,4,0\n", {}, False),
    ("# first\na,b,y\n1,2,1\n3,4,0\n", {}, True),
    ("a,b,y\n1,2,1\n\n3,4,0\n", {}, False),
    ("a,b,y\n1,2,1\n3,4\n", {}, False),
    ("a,b,y\n1,2,1\n3,4,0,5\n", {}, False),
    ('a,b,y\n1,"2",1\n3,4,0\n', {}, False),
    ("a,b,y\n1,abc,1\n3,4,0\n", {}, False),
    ("a,b,y\n1,2,1\n3,4,2\n5,6,0\n", {}, False),
    ("a,b,y\n1,2,1\n3,4,1\n", {}, False),
    ("a,b,y\n1,2,1\n3,4,\n", {}, False),
    ("a,b,y\n1,2\r3,1\n", {}, False),
    ("a,b,y\n1,2,1\n3,é,0\n", {}, False),
    ("x,y\n1/3,1\n1/5,0\n1/7,1\n", {"max_denominator_bits": 5}, False),
    ("x,y\n1/3,1\n1/5,0\n1/7,1\n", {"max_denominator_bits": 7}, True),
    ("x,y\n1,1\n2,0\n3,1\n", {"max_cells": 2}, False),
    ("x,y\n123456789012345678901234567890,1\n0.5,0\n", {}, True),
    ("x,y\n4611686018427387904,1\n0.5,0\n", {}, True),  # 2^62 over 2: past int64 once scaled
    ("x,y\n1e-30,1\n1e30,0\n", {}, True),
    ("x,y\n1e5000,1\n1,0\n", {}, False),
    ("x,y\n1e-19,1\n-3e-19,0\n", {}, True),  # a denominator past int64 over int64 numerators
    ("a,b,y\n1.0970639814699807,-2.0733350146975935,1\n1.2345678901234567e-05,0.5,0\n", {}, True),  # repr
    ("a,b,y\n1.5,2,1\n3,4,0\n", {"max_cells": 3}, False),
    ("0,1,2\n1,2,1\n3,4,0\n", {}, False),  # pandas' names or a sample: the general reader sees
    ("x,y\n", {}, False),
    ("", {}, False),
    ("x,y\n1,1\n2,0", {}, True),  # no line end after the last line
]


@pytest.mark.parametrize(("text", "options", "streamed"), CASES)
def test_the_streaming_reader_answers_as_the_reader_before_it(text: str, options: dict[str, Any], streamed: bool,
                                                              tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "d.csv"
    path.write_bytes(text.encode("utf-8"))
    new, old, taken = _both(path, monkeypatch, **options)
    assert new == old
    assert taken == streamed


@st.composite
def plain_files(draw: st.DrawFn) -> str:
    """A CSV of decimals, p/q and exponents, a header or none, and labels in some column."""
    width = draw(st.integers(1, 4))
    n = draw(st.integers(2, 30))
    literal = st.one_of(
        st.builds(lambda m, k: format(Decimal(m).scaleb(-k), "f"), st.integers(-10**19, 10**19), st.integers(0, 22)),
        st.builds(lambda p, q: f"{p}/{q}", st.integers(-10**20, 10**20), st.integers(1, 10**20)),
        st.builds(lambda m, e: f"{m}e{e}", st.integers(-999, 999), st.integers(-25, 25)),
    )
    label_at = draw(st.integers(0, width))
    rows = []
    for i in range(n):
        cells = [draw(literal) for _ in range(width)]
        cells.insert(label_at, str(i % 2))
        rows.append(",".join(cells))
    header = [",".join(["label" if j == label_at else f"x{j}" for j in range(width + 1)])] if draw(st.booleans()) else []
    return "\n".join(header + rows) + draw(st.sampled_from(["", "\n", "\n\n"]))


@given(plain_files(), st.sampled_from([5, 64, 1 << 20]))
def test_blocks_of_any_size_read_what_the_whole_text_reads(text: str, block: int) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as patch:
        path = Path(tmp) / "d.csv"
        path.write_text(text, encoding="utf-8")
        patch.setattr(csv_stream, "BLOCK", block)
        new, old, taken = _both(path, patch)
    assert new == old
    assert taken or new[0] == "error"


def test_a_ragged_row_past_the_first_block_is_named_by_the_general_reader(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [f"{i / 8},{i % 2}" for i in range(2000)]
    rows[1500] += ",7"
    path = tmp_path / "d.csv"
    path.write_text("x,y\n" + "\n".join(rows) + "\n")
    monkeypatch.setattr(csv_stream, "BLOCK", 4096)
    with pytest.raises(DataError, match=r"d.csv:1502: ragged row: 3 cells, expected 2"):
        load_csv(str(path))


def test_the_numerators_are_scaled_in_place_without_a_copy_per_form(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The codes are 2 bytes a cell: the reader's arrays are the numerators, the codes and a byte a row."""
    import tracemalloc

    rng = np.random.default_rng(5)
    values = rng.integers(-9999, 10000, size=(20_000, 10))
    path = tmp_path / "d.csv"
    with open(path, "w") as handle:
        handle.writelines(",".join(f"{v / 1000:.3f}" for v in row) + f",{i % 2}\n" for i, row in enumerate(values))
    monkeypatch.setattr(csv_stream, "BLOCK", 1 << 16)
    tracemalloc.start()
    try:
        data = csv_stream.stream_csv(str(path), label_column=None, positive=None, delimiter=None, max_bits=64,
                                     max_cells=10**7, index_column="auto")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert data is not None and data.denominator == 1000
    assert data.numerators.tolist() == values.tolist()
    assert peak < 1.5 * len(values) * (values.shape[1] + 1) * 8 + 4 * csv_stream.BLOCK  # the int64 data, labels too


def test_the_time_limit_stops_the_streaming_reader_between_blocks(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line's `TimeUp` lands between blocks (each a short C call): it ends the read, no reader
    catches it and reads the file again."""
    from verify_perceptron.deadline import TimeUp

    path = tmp_path / "d.csv"
    path.write_text("x,y\n" + "".join(f"{i / 4},{i % 2}\n" for i in range(5000)))
    monkeypatch.setattr(csv_stream, "BLOCK", 1024)
    calls = []
    read = _kernel.csv_block

    def late(*args: Any) -> int:
        calls.append(1)
        if len(calls) == 3:
            raise TimeUp(1.0, "reading the data")
        assert read is not None
        return read(*args)

    monkeypatch.setattr(_kernel, "csv_block", late)
    monkeypatch.setattr(csv_files, "read_text", lambda *args: pytest.fail("read again after the time limit"))
    with pytest.raises(TimeUp):
        load_csv(str(path))
    assert len(calls) == 3
