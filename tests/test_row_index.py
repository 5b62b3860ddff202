"""A table's row index is no feature (`verify_perceptron.data.row_index`): pandas' ``to_csv`` and R's
``write.csv``/``write.table`` files, a DataFrame read back with its index as a column, and the
``--index-column auto|drop|keep`` choice, through the reader, the reports and the Python API."""

from __future__ import annotations

import json
from fractions import Fraction as F
from pathlib import Path

import pytest

import verify_perceptron as vp
from verify_perceptron.cli import main
from verify_perceptron.data.csv_files import _fast_csv, _general_csv, load_csv
from verify_perceptron.data.readers import load_dataset
from verify_perceptron.data.row_index import RowIndex
from verify_perceptron.errors import DataError, InvalidArgument

#: Not separable in x (the positive sample lies between the two negative ones), but pandas' index, 0, 1, 2,
#: separates the classes: read as a feature, it turns a "not separable" into a "verified".
PANDAS = ",x,target\n0,0,0\n1,2,0\n2,1,1\n"


def write(folder: Path, text: str, name: str = "d.csv") -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_pandas_index_is_no_feature_and_the_verdict_is_the_data_s(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, PANDAS)
    code, out, err = run(["verify", path, "--format", "json"], capsys)
    report = json.loads(out)
    assert (code, err) == (0, "")
    assert report["verdict"] == "not-separable" and report["separable"] is False
    assert report["dataset"]["n_features"] == 1 and report["dataset"]["feature_names"] == ["x"]
    assert report["dataset"]["row_index"] == {"columns": [1], "names": [""]}
    # kept on request, the index is a feature again, and separates
    code, out, _ = run(["verify", path, "--format", "json", "--index-column", "keep"], capsys)
    kept = json.loads(out)
    assert (kept["verdict"], kept["dataset"]["n_features"], kept["dataset"]["row_index"]) == ("verified", 2, None)


def test_the_text_report_and_the_bounds_command_say_the_index_was_left_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, PANDAS)
    said = "column 1 (unnamed) read as the row index and left out"
    _, out, _ = run(["verify", path], capsys)
    assert said in out.splitlines()[0]
    _, out, _ = run(["bounds", path], capsys)
    assert said in out.splitlines()[0]
    _, out, _ = run(["bounds", path, "--format", "json"], capsys)
    assert json.loads(out)["dataset"]["row_index"] == {"columns": [1], "names": [""]}


def test_markdown_and_html_reports_say_it_too(tmp_path: Path) -> None:
    result = vp.verify(write(tmp_path, PANDAS))
    said = "column 1 (unnamed) read as the row index and left out"
    assert said in result.markdown() and said in result.html(figures=False)


def test_an_index_header_is_shown_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "\x1b[31mid,x,target\n0,0,0\n1,2,0\n2,1,1\n")
    code, out, _ = run(["verify", path, "--index-column", "drop"], capsys)
    assert code == 0 and "\x1b" not in out and "column 1 ('\\x1b[31mid') read as the row index" in out


#: Files as tools write them, and what the reader makes of them: (text, features, names, row index).
LAYOUTS = {
    "pandas to_csv": (PANDAS, [[0], [2], [1]], ("x",), RowIndex((1,), ("",))),
    "pandas, semicolons": (PANDAS.replace(",", ";"), [[0], [2], [1]], ("x",), RowIndex((1,), ("",))),
    "pandas, index read back and saved again": (
        ",Unnamed: 0,x,target\n0,5,0,0\n1,6,2,0\n2,7,1,1\n", [[0], [2], [1]], ("x",), RowIndex((1, 2), ("", "Unnamed: 0"))),
    "pandas, index saved as a column": (
        "Unnamed: 0,x,target\n5,0,0\n6,2,0\n7,1,1\n", [[0], [2], [1]], ("x",), RowIndex((1,), ("Unnamed: 0",))),
    "R write.csv, row names": (
        '"","x","target"\n"Mazda RX4",0,0\n"Fiat 128",2,0\n"Honda Civic",1,1\n', [[0], [2], [1]], ("x",),
        RowIndex((1,), ("",))),
    "R write.table, header one cell short": (
        '"x" "target"\n"Mazda RX4" 0 0\n"2" 2 0\n"3" 1 1\n', [[0], [2], [1]], ("x",), RowIndex((1,), ("",))),
    "repeated labels after a concat": (",x,target\n0,0,0\n0,2,0\n1,1,1\n", [[0], [2], [1]], ("x",), RowIndex((1,), ("",))),
    "no header: no index": ("0,0,0\n1,2,0\n2,1,1\n", [[0, 0], [1, 2], [2, 1]], ("x1", "x2"), None),
    "a named first column is a feature": ("id,x,target\n0,0,0\n1,2,0\n2,1,1\n", [[0, 0], [1, 2], [2, 1]], ("id", "x"),
                                          None),
    "an unnamed column after the first is a feature": (
        "a,,target\n0,0,0\n1,2,0\n2,1,1\n", [[0, 0], [1, 2], [2, 1]], ("a", ""), None),
}


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_the_row_index_is_found_as_pandas_and_r_write_it(tmp_path: Path, layout: str) -> None:
    text, X, names, index = LAYOUTS[layout]
    data = load_dataset(write(tmp_path, text))
    assert data.X == tuple(tuple(F(v) for v in row) for row in X)
    assert (data.y, data.feature_names, data.row_index) == ((-1, -1, 1), names, index)


@pytest.mark.parametrize("layout", [name for name, case in LAYOUTS.items() if '"' not in case[0]])
def test_the_fast_reader_finds_the_index_as_the_general_one_does(layout: str) -> None:
    text = LAYOUTS[layout][0].replace(";", ",")
    quick = _fast_csv(text, "t.csv", None, None)
    assert quick is not None and quick == _general_csv(text, "t.csv", None, None)


def test_drop_takes_column_1_whatever_its_header_and_keep_reads_it(tmp_path: Path) -> None:
    named, bare = write(tmp_path, "id,x,target\n0,0,0\n1,2,0\n2,1,1\n"), write(tmp_path, "0,0,0\n1,2,0\n2,1,1\n", "b.csv")
    assert load_dataset(named, index_column="drop").row_index == RowIndex((1,), ("id",))
    dropped = load_dataset(bare, index_column="drop")
    assert (dropped.n_features, dropped.row_index) == (1, RowIndex((1,), ("",)))
    kept = load_dataset(write(tmp_path, PANDAS, "p.csv"), index_column="keep")
    assert (kept.n_features, kept.feature_names, kept.row_index) == (2, ("", "x"), None)


def test_the_label_column_is_never_the_index(tmp_path: Path) -> None:
    path = write(tmp_path, ",x\n1,5\n0,6\n")
    data = load_dataset(path, label_column="1")
    assert (data.y, data.X, data.row_index) == ((1, -1), ((F(5),), (F(6),)), None)
    with pytest.raises(DataError, match="column 1 is the label column"):
        load_dataset(path, label_column="1", index_column="drop")


def test_an_index_and_a_label_and_nothing_else_is_refused_naming_the_way_out(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"d.csv: no feature column: column 1 \(unnamed\) read as the row index and "
                                        r"left out, and column 2 holds the labels; --index-column keep"):
        load_dataset(write(tmp_path, ",target\n0,0\n1,1\n"))


def test_messages_count_the_file_s_columns_index_included(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"d.csv:2: column 3: 'q' is not a number"):
        load_csv(write(tmp_path, "0,0,0,0\n1,2,q,1\n"), index_column="drop")
    with pytest.raises(DataError, match=r"d.csv:3: column b: 'q' is not a number"):
        load_csv(write(tmp_path, ",a,b,target\n0,0,0,0\n1,2,q,1\n"))
    with pytest.raises(DataError, match=r"d.csv:3: ragged row: 3 cells, expected 4"):
        load_csv(write(tmp_path, ",a,b,target\n0,0,0,0\n1,2,1\n"))


def test_index_column_is_checked_and_applies_where_there_can_be_one(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(DataError, match="index_column='yes' must be one of auto, drop, keep"):
        load_dataset(write(tmp_path, PANDAS), index_column="yes")
    svm = write(tmp_path, "-1 1:0\n+1 1:1\n", "d.svm")
    assert load_dataset(svm, index_column="keep").n_features == 1
    with pytest.raises(DataError, match="applies to CSV files"):
        load_dataset(svm, index_column="drop")
    code, out, err = run(["verify", "--example", "and", "--index-column", "drop"], capsys)
    assert (code, out) == (2, "") and "--index-column drop applies to a data file" in err


# --- the Python API -------------------------------------------------------------------------------------------


def test_verify_reads_a_file_s_index_as_the_command_does(tmp_path: Path) -> None:
    path = write(tmp_path, PANDAS)
    assert vp.verify(path).verdict == "not-separable"
    assert vp.verify(path, index_column="keep").data.n_features == 2


def test_verify_finds_a_dataframe_s_label_column_by_the_command_s_names() -> None:
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"x": [0, 1, 2, 3], "Target": [0, 0, 1, 1]})
    result = vp.verify(frame)
    assert (result.data.feature_names, result.data.y, result.verdict) == (("x",), (-1, -1, 1, 1), "verified")
    both = pd.DataFrame({"y": [1, 1, 0, 0], "x": [0, 1, 2, 3], "label": [0, 0, 1, 1]})
    assert vp.verify(both).data.feature_names == ("y", "x")  # 'label' comes first, as in the CSV reader
    assert vp.verify(both, label_column="y").data.feature_names == ("x", "label")
    with pytest.raises(InvalidArgument, match=r"y is needed: X has no column named label, y, target, class "
                                              r"\(columns: a, b\)"):
        vp.verify(pd.DataFrame({"a": [0, 1], "b": [0, 1]}))
    with pytest.raises(InvalidArgument, match="label_column='y' applies to a file or a DataFrame without y"):
        vp.verify([[0], [1]], [0, 1], label_column="y")


def test_a_dataframe_s_index_is_never_a_feature_and_its_saved_index_column_is_left_out(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"x": [0, 2, 1], "target": [0, 0, 1]}, index=[50, 51, 52])  # as after a filter
    path = tmp_path / "p.csv"
    frame.to_csv(path)
    assert path.read_text().startswith(",x,target\n50,")
    assert vp.verify(frame).data.n_features == 1  # the DataFrame's own index: never read
    assert vp.verify(str(path)).verdict == "not-separable"
    back = pd.read_csv(path)  # the index comes back as a column named 'Unnamed: 0'
    assert list(back.columns) == ["Unnamed: 0", "x", "target"]
    result = vp.verify(back)
    assert (result.verdict, result.data.feature_names) == ("not-separable", ("x",))
    assert "column 1 ('Unnamed: 0') read as the row index and left out" in result.text.splitlines()[0]
    assert vp.verify(back, index_column="keep").report["separable"] is True
    assert vp.verify(back, "target", index_column="drop").data.row_index == RowIndex((1,), ("Unnamed: 0",))
    with pytest.raises(DataError, match="index_column='drop' applies to a DataFrame"):
        vp.from_arrays([[0, 1], [1, 0]], [0, 1], index_column="drop")


def test_pandas_default_column_names_are_a_header(tmp_path: Path) -> None:
    # pd.DataFrame(X).to_csv(path) names the columns 0, 1, ..., m-1: every header cell a number, so the header was
    # read as data (with the index: "column 1: empty cell"; without it: a sample 0, 1, 2 with a third label).
    rows = "1.5,2,0\n-1,0.5,1\n3,-2,0\n"
    indexed = ",0,1,2\n" + "".join(f"{i},{row}" for i, row in enumerate(rows.splitlines(True)))
    for text, row_index in ((indexed, RowIndex((1,), ("",))), ("0,1,2\n" + rows, None)):
        path = write(tmp_path, text)
        data = load_csv(path)
        assert (data.n_samples, data.n_features, data.row_index) == (3, 2, row_index)
        assert data.X == ((F(3, 2), F(2)), (F(-1), F(1, 2)), (F(3), F(-2)))
        assert _general_csv(text, path, None, None) == data  # the fast reader defers to it or agrees
        fast = _fast_csv(text, path, None, None)
        assert fast is None or fast == data


def test_a_first_row_that_may_be_names_or_a_sample_is_refused(tmp_path: Path) -> None:
    # 0, 1, 2 could be pandas' names or a sample whose label 2 (written 2.0 below) is a label of the data too.
    with pytest.raises(DataError, match="may be pandas' column names or a sample whose label is 2"):
        load_csv(write(tmp_path, "0,1,2\n5,1,2.0\n3,0,7\n"))
    assert load_csv(write(tmp_path, "0,1\n5,1\n3,0\n")).n_samples == 3  # two columns: 0, 1 is data, as always


def test_iris_written_by_to_csv_with_its_index_runs_as_the_frame_itself(tmp_path: Path) -> None:
    # The issue's case: setosa/versicolor saved with pandas' default to_csv read back to 5 features, 374
    # updates in 137 epochs; without the index it is the frame's own run.
    pytest.importorskip("sklearn")
    from sklearn.datasets import load_iris

    frame = load_iris(as_frame=True).frame
    frame = frame[frame["target"] < 2]
    path = tmp_path / "iris.csv"
    frame.to_csv(path)
    from_file, from_frame = vp.verify(str(path)), vp.verify(frame, floats="decimal")  # 5.1 is 51/10 in both
    assert from_file.data.row_index == RowIndex((1,), ("",)) and from_file.data.n_features == 4
    assert (from_file.trace.n_updates, from_file.trace.n_epochs) == (from_frame.trace.n_updates,
                                                                     from_frame.trace.n_epochs)
    assert from_file.trace.final_weights == from_frame.trace.final_weights
    assert vp.verify(str(path), index_column="keep").data.n_features == 5
