"""`from_arrays` and `verify_perceptron.data.arrays`: lists, NumPy arrays, DataFrames and Series, read exactly.

pandas is not a dependency: the DataFrame and Series support is duck-typed
(``to_numpy()``, ``columns``, ``dtypes``), so most tests use the small
stand-ins below; `test_real_pandas_frames_and_series` runs the same cases on real pandas
objects when it is installed (it is skipped otherwise).
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction as F
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from verify_perceptron.data.arrays import check_floats, exact_labels, exact_table
from verify_perceptron.data.dataset import from_arrays
from verify_perceptron.errors import DataError, InvalidArgument


class FakeFrame:
    """A DataFrame as `from_arrays` sees one: named columns, each with its own dtype."""

    def __init__(self, columns: dict[str, list[Any]]) -> None:
        self.columns = list(columns)
        self._arrays = [np.asarray(v) for v in columns.values()]
        self.dtypes = [a.dtype for a in self._arrays]

    def to_numpy(self, dtype: Any = None) -> Any:
        if dtype is object:  # each value keeps its column's type, as pandas does
            return np.array([list(row) for row in zip(*(a.tolist() for a in self._arrays))], dtype=object)
        return np.column_stack(self._arrays)  # one common dtype: ints and floats together become floats


class FakeSeries:
    def __init__(self, values: list[Any]) -> None:
        self._values = np.asarray(values)

    def to_numpy(self) -> Any:
        return self._values


def _values(table: Any) -> list[list[F]]:
    return [[F(int(v), table.denominator) for v in row] for row in table.numerators.tolist()]


def _in_lowest_terms(table: Any) -> bool:
    return math.gcd(table.denominator, *(int(v) for v in table.numerators.flat)) == 1


# --- DataFrames and Series --------------------------------------------------------------------------


def test_a_frame_and_a_series_are_read_with_the_column_names() -> None:
    frame = FakeFrame({"height": [1, 2, 3], "weight": [F(1, 3), 2, 0]})
    data = from_arrays(frame, FakeSeries(["no", "yes", "no"]), positive="yes")
    assert data.feature_names == ("height", "weight")
    assert data.X == ((F(1), F(1, 3)), (F(2), F(2)), (F(3), F(0)))
    assert data.y == (-1, 1, -1)
    assert data.labels == ("no", "yes")


def test_explicit_feature_names_win_over_the_columns() -> None:
    data = from_arrays(FakeFrame({"a": [0, 1]}), [0, 1], feature_names=["size"])
    assert data.feature_names == ("size",)


def test_mixed_columns_keep_a_large_integer_exact() -> None:
    # Upcast together to float64, 2^60 + 1 would become 2^60.
    frame = FakeFrame({"count": [0, 2**60 + 1], "ratio": [0.5, 0.25]})
    assert np.column_stack(frame._arrays)[1, 0] == 2.0**60  # what one common dtype would do
    data = from_arrays(frame, [0, 1])
    assert data.X[1] == (F(2**60 + 1), F(1, 4))


def test_labels_may_come_as_a_one_column_frame_or_an_n_by_one_array() -> None:
    assert exact_labels(np.array([[0], [1]])) == [F(0), F(1)]
    assert from_arrays([[0], [1]], FakeFrame({"target": [1, 0]})).y == (1, -1)


def test_labels_of_two_columns_are_refused_with_their_shape() -> None:
    with pytest.raises(DataError, match=r"y has shape \(2, 2\); one label per sample"):
        from_arrays([[0], [1]], np.array([[0, 1], [1, 0]]))


@pytest.mark.parametrize("labels, expected", [
    (np.array([True, False]), (1, -1)),
    (np.array([0.0, 1.0]), (-1, 1)),
    (np.array([-1, 1], dtype=np.int8), (-1, 1)),
    (np.array(["b", "a"]), None),
])
def test_array_labels_of_every_kind(labels: Any, expected: Any) -> None:
    if expected is None:
        assert from_arrays([[0], [1]], labels, positive="b").y == (1, -1)
    else:
        assert from_arrays([[0], [1]], labels).y == expected


def test_a_third_label_in_an_array_is_named_with_its_sample() -> None:
    with pytest.raises(DataError, match="sample 2: label '7' is a third label value"):
        from_arrays([[0], [1], [2]], np.array([0, 1, 7]))


def test_real_pandas_frames_and_series() -> None:
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"x1": [0.1, 0.9], "n": [2**60 + 1, 3], "target": ["no", "yes"]})
    data = from_arrays(frame[["x1", "n"]], frame["target"], positive="yes", floats="decimal")
    assert data.feature_names == ("x1", "n")
    assert data.X == ((F(1, 10), F(2**60 + 1)), (F(9, 10), F(3)))
    assert data.y == (-1, 1)
    with pytest.raises(DataError, match=r"X\[1\]\[0\]=(nan|<NA>)"):  # (pandas 3 gives NaN, 2 gives NA)
        from_arrays(pd.DataFrame({"a": pd.array([1, None], dtype="Int64")}), [0, 1])


# --- floats: binary by default, decimal on request --------------------------------------------------


def test_floats_are_binary_by_default_and_the_dataset_says_so() -> None:
    data = from_arrays(np.array([[0.1], [2.0]]), [0, 1])
    assert data.X[0][0] == F.from_float(0.1) == F(3602879701896397, 36028797018963968)
    assert data.binary_float is True


@pytest.mark.parametrize("X", [np.array([[0.1], [0.3]]), [[0.1], [0.3]], np.array([[0.1], [0.3]], dtype=object),
                               np.array([[0.1], [0.3]], dtype=np.float32), FakeFrame({"a": [0.1, 0.3]})])
def test_decimal_floats_read_each_value_as_its_shortest_decimal(X: Any) -> None:
    data = from_arrays(X, [0, 1], floats="decimal")
    assert data.X == ((F(1, 10),), (F(3, 10),))
    assert data.binary_float is False


def test_a_float32_is_read_as_its_own_shortest_decimal_not_float64s() -> None:
    value = np.float32(0.1)
    assert repr(float(value)) == "0.10000000149011612"  # the float64 reading it must not take
    assert _values(exact_table(np.array([[value]]), floats="decimal")) == [[F(1, 10)]]


def test_literals_and_exact_types_are_the_same_under_both_readings() -> None:
    row = ["0.1", F(1, 3), Decimal("2.5"), 7]
    for floats in ("binary", "decimal"):
        assert _values(exact_table([row], floats=floats)) == [[F(1, 10), F(1, 3), F(5, 2), F(7)]]


def test_an_unknown_float_reading_is_refused_by_name() -> None:
    with pytest.raises(InvalidArgument, match="floats='exact' must be one of binary, decimal"):
        from_arrays([[1]], [1], floats="exact")
    assert check_floats("binary") == "binary"


finite = st.floats(allow_nan=False, allow_infinity=False)


@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=2, max_side=5), elements=finite))
def test_binary_reading_equals_fraction_from_float_in_lowest_terms(a: Any) -> None:
    table = exact_table(a)
    assert _values(table) == [[F.from_float(float(v)) for v in row] for row in a]
    assert _in_lowest_terms(table)


@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=2, max_side=5), elements=finite))
def test_decimal_reading_equals_the_shortest_repr_in_lowest_terms(a: Any) -> None:
    table = exact_table(a, floats="decimal")
    assert _values(table) == [[F(repr(float(v))) for v in row] for row in a]
    assert _in_lowest_terms(table)


@given(hnp.arrays(np.float32, hnp.array_shapes(min_dims=2, max_dims=2, max_side=4),
                  elements=st.floats(width=32, allow_nan=False, allow_infinity=False)))
def test_float32_decimal_reading_reads_back_as_the_same_float32(a: Any) -> None:
    values = _values(exact_table(a, floats="decimal"))
    assert [[np.float32(float(v)) for v in row] for row in values] == a.tolist()


def test_a_wide_span_of_exponents_stays_exact_in_python_integers() -> None:
    a = np.array([[5e-324, 1.7976931348623157e308], [-0.0, 3.0]])
    table = exact_table(a)
    assert table.numerators.dtype == object
    assert _values(table) == [[F.from_float(5e-324), F.from_float(1.7976931348623157e308)], [F(0), F(3)]]


# --- errors: one line naming the value --------------------------------------------------------------


@pytest.mark.parametrize("X", [np.array([[1.0], [np.nan]]), [[1.0], [float("nan")]],
                               np.array([[1.0], [np.nan]], dtype=object)])
def test_nan_is_refused_naming_its_place(X: Any) -> None:
    with pytest.raises(DataError, match=r"mem: X\[1\]\[0\]=nan is not a finite number \(NaN"):
        from_arrays(X, [0, 1], source="mem")


@pytest.mark.parametrize("floats", ["binary", "decimal"])
def test_infinity_is_refused_under_both_readings(floats: str) -> None:
    with pytest.raises(DataError, match=r"X\[0\]\[1\]=inf is not a finite number"):
        from_arrays(np.array([[1.0, np.inf], [0.0, 0.0]]), [0, 1], floats=floats)


@pytest.mark.parametrize("X, message", [
    (np.array([1.0, 2.0]), r"X has shape \(2,\); a 2-D array is needed, one row per sample \(Reshape your data"),
    ([1, 2], r"X\[0\]=1 is not a row of values: X must be 2-D"),
    (np.zeros((2, 0)), r"X has 0 feature\(s\) \(shape=\(2, 0\)\) while a minimum of 1 is required\."),
    (np.zeros((0, 3)), "no samples"),
    (np.array([[1 + 2j], [0j]]), "Complex data not supported: X has dtype complex128"),
    (np.array([[True], [False]]), "X has dtype bool; numbers are needed"),
    ([[1, 2], [3]], "sample 1 has 1 features, sample 0 has 2"),
    ([[{"a": 1}], [2]], r"X\[0\]\[0\]=\{'a': 1\} of type dict is not a rational number"),
])
def test_malformed_samples_are_refused_with_a_clear_message(X: Any, message: str) -> None:
    with pytest.raises(DataError, match=message):
        from_arrays(X, [0, 1])


def test_a_sparse_matrix_is_refused_not_densified() -> None:
    class Sparse:
        shape, nnz = (2, 3), 1

        def toarray(self) -> Any:  # pragma: no cover - must not be called
            raise AssertionError("densified")

    with pytest.raises(DataError, match=r"X is a sparse matrix of shape \(2, 3\); sparse input is not supported"):
        from_arrays(Sparse(), [0, 1])


def test_integer_arrays_are_taken_as_they_are_and_uint64_beyond_int64_stays_exact() -> None:
    data = from_arrays(np.array([[2**64 - 1], [1]], dtype=np.uint64), [1, 0])
    assert data.X == ((F(2**64 - 1),), (F(1),))
    assert data.binary_float is False


def test_the_report_says_when_floats_were_read_as_decimals() -> None:
    from verify_perceptron.report.record import build_report
    from verify_perceptron.report.text import render_text
    from verify_perceptron.check.traces import check_trace
    from verify_perceptron.run.reference import train

    X, y = [[0.1, 1.0], [0.3, 0.0], [0.2, 2.0]], [1, 0, 1]
    for floats, said in (("decimal", True), ("binary", False)):
        data = from_arrays(X, y, floats=floats)
        trace = train(data, "classic")
        text = render_text(build_report(data, trace, check_trace(data, trace)))
        assert ("floats read as their shortest decimals, 0.1 as 1/10" in text) is said
        assert ("values read from binary floating point, converted exactly" in text) is not said
    assert from_arrays([["0.1", "1"], ["0.3", "0"]], [1, 0], floats="decimal").source == "<memory>"  # no float in it


# --- what the API used to accept silently (issue 27): each a DataError naming the value ---------------------

_ROWS = [[0], [1], [2]]


@pytest.mark.parametrize("X, y, kwargs, message", [
    (_ROWS, np.array([0, float("nan"), 1], dtype=object), {}, r"y\[1\]=nan is not a finite number"),
    (_ROWS, np.array(["a", None, "b"], dtype=object), {"positive": "a"}, r"y\[1\]=None is a missing value"),
    (np.ma.masked_array(_ROWS, mask=[[False], [True], [False]]), [0, 1, 1], {}, r"X\[1\]\[0\] is masked: masked values are missing"),
    (_ROWS, np.ma.masked_array([0, 1, 1], mask=[False, False, True]), {}, r"y\[2\] is masked"),
    ([{1, 2}, {3, 4}], [0, 1], {}, r"X\[0\]=\{1, 2\} is a set, which has no order"),
    ({(0,), (1,)}, [0, 1], {}, "X=.* is a set"),
    ([{"a": 1}, {"a": 2}], [0, 1], {}, r"X\[0\]=\{'a': 1\} is a mapping"),
    (_ROWS, {0, 1, 2}, {}, "y=.* is a set"),
    (_ROWS, 1, {}, "y=1 is not one label per sample"),
    ([[0, 1], [1, 0]], [0, 1], {"feature_names": ["a"]}, "feature_names has 1 names for 2 features"),
    ([[0, 1], [1, 0]], [0, 1], {"feature_names": "ab"}, "feature_names='ab' is one string"),
    ([[0, 1], [1, 0]], [0, 1], {"feature_names": ["a", 2]}, r"feature_names\[1\]=2 is not a str"),
    (_ROWS, [1, "a", 1], {"positive": "a"}, r"y\[1\]='a' is text and y\[0\]=1 is a number"),
    (_ROWS, [1, "1", 0], {}, r"y\[1\]='1' is text and y\[0\]=1 is a number"),
    (_ROWS, [0, 1, 1], {"positive": 2}, "--positive 2 is not one of the labels"),
    (_ROWS, [0, 1, 1], {"positive": [1]}, "positive=.* is not a rational number"),
    (np.array([[1], [2], [3]], dtype="timedelta64[s]"), [0, 1, 1], {}, r"X has dtype timedelta64\[s\]"),
    (np.array([[1], [2]], dtype="datetime64[D]"), [0, 1], {}, r"X has dtype datetime64\[D\]"),
    (np.zeros((2, 1), dtype=[("a", "i4"), ("b", "f8")]), [0, 1], {}, "X has dtype"),
    ([[np.timedelta64(3, "s")], [1]], [0, 1], {}, "of type timedelta64 is not a rational number"),
    ([[Decimal("1E+99999999")], [1]], [0, 1], {}, "has exponent 99999999; at most 1000"),
    ([[Decimal("1" * 1001)], [1]], [0, 1], {}, "more than 1000 digits"),
    ([[10**2000], [1]], [0, 1], {}, r"X\[0\]\[0\]=.*\(2001 digits\) has more than 2000 digits"),
    ([[F(1, 10**5000)], [1]], [0, 1], {}, r"an integer of 5001 digits\)\) has more than 2000 digits"),
    (_ROWS, [0, 10**5000, 0], {}, r"y\[1\]=\(an integer of 5001 digits\) has more than 2000 digits"),
])
def test_inputs_once_accepted_silently_are_refused_naming_the_value(X: Any, y: Any, kwargs: dict[str, Any],
                                                                     message: str) -> None:
    with pytest.raises(DataError, match=message) as error:
        from_arrays(X, y, **kwargs)
    assert "\n" not in str(error.value)


def test_a_positive_label_given_as_a_number_names_its_class() -> None:
    data = from_arrays(_ROWS, [2, 3, 3], positive=2)
    assert data.y == (1, -1, -1) and data.labels == ("3", "2")
    assert from_arrays(_ROWS, [0.5, 1.5, 1.5], positive=F(3, 2), floats="decimal").y == (-1, 1, 1)


def test_a_masked_array_with_nothing_masked_is_its_data() -> None:
    data = from_arrays(np.ma.masked_array(_ROWS, mask=False), np.ma.masked_array([0, 1, 1]))
    assert data.X == ((F(0),), (F(1),), (F(2),)) and data.y == (-1, 1, 1)


def test_the_largest_values_a_literal_can_make_are_accepted_in_memory() -> None:
    data = from_arrays([[10**2000 - 1], [F(-1, 10**1000 - 1)]], [0, 1])
    assert data.X[0][0] == 10**2000 - 1 and data.X[1][0] == F(-1, 10**1000 - 1)


def test_in_memory_the_common_denominator_has_the_files_limit() -> None:
    primes = [p for p in range(2**14, 2**15) if all(p % q for q in range(2, int(p**0.5) + 1))][:300]
    with pytest.raises(DataError, match=r"X\[29[0-9]\]\[0\]=Fraction\(1, \d+\) makes the common denominator 4\d\d\d bits long, past the limit of 4096"):
        from_arrays([[F(1, p)] for p in primes], [k % 2 for k in range(300)])


def test_values_in_memory_are_bounded_by_the_cell_limit_before_they_are_converted() -> None:
    import itertools

    with pytest.raises(DataError, match=r"X: 101 rows of 10 values so far, more than the limit of 1000 cells"):
        exact_table(([0] * 10 for _ in itertools.count()), max_cells=1000)  # rows without end
    with pytest.raises(DataError, match=r"X of shape \(100, 11\), more than the limit of 1000 cells"):
        exact_table(np.zeros((100, 11)), max_cells=1000)
    with pytest.raises(DataError, match=r"100 values of up to 1\d\d bits over one common denominator take the memory"):
        exact_table([[2**100 + k] for k in range(100)], max_cells=1000)
    with pytest.raises(DataError, match=r"2 values of up to 2098 bits over one common denominator"):  # 2^2097, exactly
        exact_table(np.array([[2.0**-1074], [2.0**1023]]), max_cells=100)
    assert exact_table(np.array([[2.0**-1074], [2.0**1023]])).denominator == 2**1074


def test_values_read_one_by_one_are_bounded_and_uniform_ones_are_read_at_once() -> None:
    # np.zeros((5 * 10**6, 1), dtype=object) once made five million Fractions (over 1 GiB).
    with pytest.raises(DataError, match=r"X: 2000 x 1 values read one by one, 8 cells each, more than the limit"):
        exact_table(np.zeros((2000, 1), dtype=object), max_cells=10_000)
    assert exact_table([[0.5]] * 2000, max_cells=10_000).numerators.shape == (2000, 1)  # floats: at once, exactly
    assert exact_table([[2**62 + 1]] * 2000, max_cells=10_000).numerators[0, 0] == 2**62 + 1
    frame = FakeFrame({"a": [1, 2**53 - 1], "b": [0.5, 0.25]})
    assert _values(exact_table(frame)) == [[F(1), F(1, 2)], [F(2**53 - 1), F(1, 4)]]
    frame = FakeFrame({"a": [1, 2**53 + 1], "b": [0.5, 0.25]})  # past float64: each value on its own, exactly
    assert _values(exact_table(frame)) == [[F(1), F(1, 2)], [F(2**53 + 1), F(1, 4)]]


@pytest.mark.parametrize("top, dtype", [(60, np.int64), (61, object)])
def test_binary_floats_are_int64_exactly_when_every_numerator_is_below_2_to_the_62(top: int, dtype: Any) -> None:
    # 2^top over a denominator of 2: a numerator of 2^(top + 1); the 53 bits of a mantissa are not all counted
    table = exact_table(np.array([[2.0**top, 0.5], [3.0, -0.5]]))
    assert table.numerators.dtype == dtype and table.denominator == 2
    assert table.numerators.tolist() == [[2 ** (top + 1), 1], [6, -1]]
