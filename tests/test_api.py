"""The notebook front: `vp.verify` and its `Verification`, and the scikit-learn-style `ExactPerceptron`."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
import warnings
from decimal import Decimal
from fractions import Fraction as F
from collections.abc import Hashable
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import verify_perceptron as vp
from verify_perceptron.api.estimator import ExactPerceptron
from verify_perceptron.api.verification import Verification, verify
from verify_perceptron.errors import DataError, InvalidArgument
from verify_perceptron.notes.conventions import CONVENTIONS, get_convention
from verify_perceptron.pipeline import verify_run
from tests import typed_usage

AND_X = [[0, 0], [0, 1], [1, 0], [1, 1]]
AND_Y = [0, 0, 0, 1]
XOR_X = [[0, 0], [0, 1], [1, 0], [1, 1]]
XOR_Y = [0, 1, 1, 0]


class FakeFrame:
    """A DataFrame as `verify` sees one: named columns, ``to_numpy``, ``drop`` and column access."""

    def __init__(self, columns: dict[str, list[Any]]) -> None:
        self._data = {k: np.asarray(v) for k, v in columns.items()}
        self.columns: list[Hashable] = list(columns)  # a DataFrame's column labels: any hashable values
        self.dtypes = [a.dtype for a in self._data.values()]

    def to_numpy(self, dtype: Any = None) -> Any:
        if dtype is object:
            return np.array([list(r) for r in zip(*(a.tolist() for a in self._data.values()))], dtype=object)
        return np.column_stack(list(self._data.values()))

    def drop(self, *, columns: list[str]) -> FakeFrame:
        return FakeFrame({k: v.tolist() for k, v in self._data.items() if k not in columns})

    def __getitem__(self, name: str) -> Any:
        return self._data[name]


# --- vp.verify ---------------------------------------------------------------------------------------


def test_verify_is_the_commands_run_and_report() -> None:
    result = vp.verify(AND_X, AND_Y)
    assert isinstance(result, Verification)
    assert (result.verdict, result.holds, result.exit_code) == ("verified", True, 0)
    assert result.report["final_weights"] == ["-4", "3", "2"]
    assert str(result) == result.text
    assert result.text.splitlines()[-1].startswith("verdict: VERIFIED")
    assert json.loads(result.json)["verdict"] == "verified"
    assert result.markdown().startswith("# Perceptron report: \\<memory>")  # (Markdown escapes the <)
    assert repr(result) == "<Verification of <memory> (classic): verified, 18 updates>"


def test_verify_on_a_dataframe_with_the_name_of_its_label_column() -> None:
    frame = FakeFrame({"p": [0, 0, 1, 1], "q": [0, 1, 0, 1], "target": ["no", "no", "no", "yes"]})
    result = verify(frame, "target", positive="yes", source="and.frame")
    assert result.data.feature_names == ("p", "q")
    assert result.data.labels == ("no", "yes")
    assert result.report["final_weights"] == ["-4", "3", "2"]
    assert result.text.splitlines()[0].startswith("data        and.frame: 4 samples, 2 features")


def test_verify_on_a_real_pandas_dataframe() -> None:
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"p": [0.0, 0.0, 1.0, 1.0], "q": [0, 1, 0, 1], "target": [0, 0, 0, 1]})
    result = verify(frame[["p", "q"]], frame["target"])
    assert (result.verdict, result.data.feature_names) == ("verified", ("p", "q"))
    assert verify(frame, "target").report["final_weights"] == ["-4", "3", "2"]


def test_verify_says_in_the_report_when_floats_were_read_as_binary() -> None:
    binary = verify([[0.1], [0.3]], [0, 1])
    decimal = verify([[0.1], [0.3]], [0, 1], floats="decimal")
    assert "values read from binary floating point" in binary.text
    assert binary.data.X[0][0] == F.from_float(0.1)
    assert "binary floating point" not in decimal.text
    assert decimal.data.X == ((F(1, 10),), (F(3, 10),))


def test_verify_reads_a_file_as_the_command_does(tmp_path: Any) -> None:
    path = tmp_path / "and.csv"
    path.write_text("a,b,label\n0,0,0\n0,1,0\n1,0,0\n1,1,1\n", encoding="utf-8")
    result = verify(path)
    assert (result.data.source, result.report["final_weights"]) == (str(path), ["-4", "3", "2"])
    with pytest.raises(InvalidArgument, match="label_column"):
        verify(str(path), [0, 1])
    with pytest.raises(InvalidArgument, match="floats='decimal' applies to values in memory"):
        verify(path, floats="decimal")


def test_verify_takes_a_dataset_and_the_settings_of_the_command() -> None:
    data = vp.example("modified-or")
    result = verify(data, convention="sum-norm", mode="batch", eta="1")
    assert (result.report["convention"], result.report["mode"], result.report["final_weights"]) == (
        "sum-norm", "batch", ["2", "2", "-2"])
    with pytest.raises(InvalidArgument, match="its labels are part of it"):
        verify(data, [0, 1])


@pytest.mark.parametrize("kwargs, message", [
    ({"y": None}, "y is needed"),
    ({"y": "target"}, None),
    ({"y": AND_Y, "convention": "nope"}, "convention='nope' is not one of"),
    ({"y": AND_Y, "eta": "0"}, "eta=0 must be > 0"),
    ({"y": AND_Y, "max_updates": 0}, "max_updates=0 must be an integer >= 1"),
])
def test_verify_refuses_bad_arguments_by_name(kwargs: dict[str, Any], message: str | None) -> None:
    if message is None:  # a column name, but X has no columns
        with pytest.raises(DataError):
            verify(AND_X, **kwargs)
        frame = FakeFrame({"p": [0, 1], "q": [1, 0]})
        with pytest.raises(InvalidArgument, match=r"y='target' is not a column of X \(columns: p, q\)"):
            verify(frame, "target")
        return
    with pytest.raises(InvalidArgument, match=message):
        verify(AND_X, **kwargs)


def test_verify_on_data_that_cannot_be_separated_certifies_it_without_raising() -> None:
    result = verify(XOR_X, XOR_Y)
    assert result.verdict == "not-separable"
    assert result.separability.separable is False and result.separability.certified
    assert result.trace.converged is False


def test_the_html_report_is_shown_in_a_frame_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    result = verify(AND_X, AND_Y)
    page = result.html(figures=False)
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page
    calls: list[int] = []

    def html(self: Verification) -> str:
        calls.append(1)
        return '<p title="a">x & y</p>'

    monkeypatch.setattr(Verification, "html", html)
    frame = result._repr_html_()
    # no script runs in the frame; the notebook may read its height (allow-same-origin) to fit it
    assert frame.startswith('<iframe srcdoc="&lt;p title=&quot;a&quot;&gt;x &amp; y&lt;/p&gt;" '
                            'sandbox="allow-same-origin"')
    assert result._repr_html_() == frame and calls == [1]  # drawn once, then kept


def test_the_notebook_frame_is_sized_to_its_report(monkeypatch: pytest.MonkeyPatch) -> None:
    import re

    plain = Verification.html
    monkeypatch.setattr(Verification, "html", lambda self: plain(self, figures=False))  # the figures are not tested

    def height(result: Verification) -> int:
        frame = result._repr_html_()
        assert "onload=\"this.style.height = (this.contentDocument.documentElement.scrollHeight + 2) + 'px'\"" in frame
        found = re.search(r"height: ([0-9]+)px", frame)
        assert found is not None, frame
        return int(found[1])

    # the same run, with 2 of its 18 updates listed, then all of them: the longer page gets the taller frame
    assert height(verify(AND_X, AND_Y, max_updates=2)) < height(verify(AND_X, AND_Y, max_updates=60))


def test_a_verification_pickles_with_its_run() -> None:
    result = verify(AND_X, AND_Y)
    copy = pickle.loads(pickle.dumps(result))
    assert copy.text == result.text
    assert copy.trace.final_weights == result.trace.final_weights
    assert list(copy.trace.updates) == list(result.trace.updates)


# --- ExactPerceptron: the exact engine's weights -----------------------------------------------------


def _random_data(seed: int, n: int = 12, d: int = 3) -> tuple[list[list[F]], list[int]]:
    rng = np.random.default_rng(seed)
    X = [[F(int(rng.integers(-9, 10)), int(rng.integers(1, 4))) for _ in range(d)] for _ in range(n)]
    w = rng.integers(-3, 4, size=d + 1)
    y = [1 if sum(int(w[j]) * x for j, x in enumerate(row)) + int(w[d]) >= 0 else 0 for row in X]
    y[0], y[1] = 0, 1  # two classes
    return X, y


@pytest.mark.parametrize("convention", list(CONVENTIONS))
@pytest.mark.parametrize("mode", ["online", "batch"])
def test_the_estimator_gives_the_exact_engines_weights(convention: str, mode: str) -> None:
    eta = "1" if get_convention(convention).rate_fixed else "1/2"
    for seed in range(3):
        X, y = _random_data(seed)
        clf = ExactPerceptron(convention=convention, eta=eta, mode=mode, max_epochs=50).fit(X, y)
        trace, _ = verify_run(vp.from_arrays(X, y), convention, eta=eta, mode=mode, max_epochs=50)
        b, v = get_convention(convention).to_canonical(trace.final_weights)
        assert (clf.coef_exact_, clf.intercept_exact_) == (tuple(v), b)
        assert clf.coef_.tolist() == [[float(x) for x in v]] and clf.intercept_.tolist() == [float(b)]
        assert (clf.n_iter_, clf.n_updates_, clf.converged_) == (trace.n_epochs, trace.n_updates, trace.converged)
        assert clf.verification_ is not None and clf.verification_.trace.final_weights == trace.final_weights


@pytest.mark.parametrize("eta", ["1/2", 1, F(1, 2), "0.5"])
def test_eta_is_taken_exactly_from_a_string_an_int_or_a_fraction(eta: Any) -> None:
    clf = ExactPerceptron(convention="hard-limiter", eta=eta).fit(AND_X, AND_Y)
    assert clf.verification_ is not None and clf.verification_.trace.rate == F(eta)


def test_settings_are_checked_by_fit_not_by_the_constructor() -> None:
    clf = ExactPerceptron(eta="-1", mode="sideways")  # scikit-learn's rule: __init__ only stores
    with pytest.raises(InvalidArgument, match="eta=-1 must be > 0"):
        clf.fit(AND_X, AND_Y)
    with pytest.raises(InvalidArgument, match="floats='hex' must be one of binary, decimal"):
        ExactPerceptron(floats="hex").fit(AND_X, AND_Y)
    assert clf.get_params()["mode"] == "sideways"
    assert clf.set_params(mode="batch").mode == "batch"


def test_any_two_labels_map_to_minus_and_plus_one_and_back() -> None:
    clf = ExactPerceptron().fit(AND_X, ["off", "off", "off", "on"])
    assert clf.classes_.tolist() == ["off", "on"]
    assert clf.verification_ is not None and clf.verification_.data.y == (-1, -1, -1, 1)
    assert clf.predict(AND_X).tolist() == ["off", "off", "off", "on"]
    assert clf.score(AND_X, ["off", "off", "off", "on"]) == 1.0


@pytest.mark.parametrize("y, message", [
    ([1, 1, 1, 1], r"y has only one class \(1\); the perceptron needs two"),
    ([0.5, 1.0, 0.0, 1.0], "Unknown label type: continuous"),
    ([0.0, np.nan, 1.0, 1.0], r"y\[1\]=nan is not a finite number"),
    (None, "requires y to be passed, but the target y is None"),
    (np.zeros((4, 2)), r"y should be a 1d array, got an array of shape \(4, 2\)"),
])
def test_labels_that_are_not_two_classes_are_refused(y: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ExactPerceptron().fit(AND_X, y)


@pytest.mark.parametrize("X, y, message", [
    ([[0], [1], [2]], np.array([0, float("nan"), 0], dtype=object), r"y\[1\]=nan is not a finite number"),
    ([[0], [1], [2]], np.array(["a", None, "a"], dtype=object), r"y\[1\]=None is a missing value"),
    ([[0], [1], [2]], np.array([1, "a", 1], dtype=object), r"y\[1\]='a' is text and y\[0\]=1 is a number"),
    ([[0], [1], [2]], np.ma.masked_array([0, 1, 1], mask=[False, True, False]), r"y\[1\] is masked"),
    (np.ma.masked_array([[0], [1], [2]], mask=[[False], [True], [False]]), [0, 1, 1], r"X\[1\]\[0\] is masked"),
    ([{1, 2}, {3, 4}], [0, 1], r"X\[0\]=\{1, 2\} is a set"),
    ([[0], [1], [2]], [0, 10**5000, 0], r"y\[1\]=\(an integer of 5001 digits\) has more than 2000 digits"),
])
def test_the_estimator_refuses_missing_masked_mixed_and_unordered_input(X: Any, y: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ExactPerceptron().fit(X, y)


@pytest.mark.parametrize("kwargs, message", [
    ({"eta": 10**5000}, r"eta=\(an integer of 5001 digits\) has more than 2000 digits"),
    ({"eta": Decimal("1E+99999999")}, "has exponent 99999999; at most 1000 is accepted"),
    ({"separator": [Decimal("1E+99999999"), 1]}, r"separator\[0\]=Decimal\('1E\+99999999'\): .* has exponent"),
    ({"separator": 5}, "separator=5 is not a sequence of numbers"),
])
def test_settings_in_memory_have_the_literal_limits_of_the_command_line(kwargs: dict[str, Any], message: str) -> None:
    # The command line reads --eta and --separator as literals; through Python, 10^5000 ran to the report's
    # int-to-str limit and Decimal("1E+99999999") to a 10^8-digit integer.
    with pytest.raises(InvalidArgument, match=message):
        verify(AND_X, AND_Y, **kwargs)


def test_a_column_name_past_the_int_to_str_limit_is_named_by_its_size() -> None:
    frame = FakeFrame({"a": [0, 0, 1, 1], "b": [0, 1, 0, 1]})
    frame.columns = [10**5000, 2]
    assert verify(frame, AND_Y).data.feature_names == ("(an integer of 5001 digits)", "2")


def test_verify_takes_a_positive_label_given_as_a_number(tmp_path: Any) -> None:
    assert verify([[0], [1], [2]], [2, 3, 3], positive=2).data.y == (1, -1, -1)
    path = tmp_path / "d.csv"
    path.write_text("x,y\n0,2\n1,3\n2,3\n")
    assert verify(str(path), positive=2).data.y == (1, -1, -1)
    with pytest.raises(DataError, match="--positive 4 is not one of the labels"):
        verify(str(path), positive=4)


def test_data_that_cannot_be_separated_stop_at_a_cycle_and_say_so() -> None:
    clf = ExactPerceptron(max_epochs=100).fit(XOR_X, XOR_Y)
    assert clf.converged_ is False and clf.n_iter_ <= 100
    assert clf.verification_ is not None
    assert clf.verification_.verdict == "not-separable"
    assert clf.verification_.trace.stop == "cycle"


def test_a_small_epoch_limit_stops_fit_without_an_error() -> None:
    clf = ExactPerceptron(max_epochs=2).fit(AND_X, AND_Y)
    assert clf.verification_ is not None
    assert (clf.converged_, clf.n_iter_, clf.verification_.trace.stop) == (False, 2, "max-epochs")


def test_predict_decides_the_sign_exactly_where_float_arithmetic_cannot() -> None:
    clf = ExactPerceptron().fit(AND_X, AND_Y)  # 3·x1 + 2·x2 - 4
    x = np.array([[1.0, 0.5 + 2.0**-53]])  # exact score 2^-52 > 0
    assert (x @ clf.coef_.T + clf.intercept_)[0, 0] == 0.0  # float arithmetic loses it
    assert clf.predict(x).tolist() == [1]
    assert clf.decision_function(x).tolist() == [2.0**-52]
    on_the_line = np.array([[0.0, 2.0]])  # score exactly 0: the negative class, as sgn(0) = -1
    assert clf.decision_function(on_the_line).tolist() == [0.0] and clf.predict(on_the_line).tolist() == [0]


@pytest.mark.parametrize("mode", ["online", "batch"])
def test_a_training_sample_on_the_line_is_predicted_by_the_conventions_own_tie_rule(mode: str) -> None:
    # hard-limiter-plus ends at 2·x + 2: the sample at -1 scores exactly 0, which its sgn(0) = +1 makes class 1.
    clf = ExactPerceptron(convention="hard-limiter-plus", mode=mode).fit([[-2], [-1]], [0, 1])
    assert clf.converged_ and clf.verification_ is not None and clf.verification_.verdict == "verified"
    assert clf.predict([[-2], [-1]]).tolist() == [0, 1]
    assert (clf.decision_function([[-2], [-1]]) > 0).tolist() == [False, True]
    assert clf.score([[-2], [-1]], [0, 1]) == 1.0


@st.composite
def _small_data(draw: st.DrawFn) -> tuple[list[list[int]], list[int]]:
    d = draw(st.integers(1, 2))
    n = draw(st.integers(2, 6))
    X = [[draw(st.integers(-2, 2)) for _ in range(d)] for _ in range(n)]
    y = [draw(st.integers(0, 1)) for _ in range(n)]
    y[0], y[-1] = 0, 1
    return X, y


@pytest.mark.parametrize("convention", sorted(CONVENTIONS))
@given(data=_small_data(), mode=st.sampled_from(["online", "batch"]))
def test_after_a_converged_fit_predict_gives_back_every_training_label(
        data: tuple[list[list[int]], list[int]], convention: str, mode: str) -> None:
    # Small integer data put training samples at a score of exactly 0, where only the convention's own tie rule
    # gives the label the run converged on.
    X, y = data
    clf = ExactPerceptron(convention=convention, mode=mode, max_epochs=20).fit(X, y)
    if clf.converged_:
        assert clf.predict(X).tolist() == y
        assert (clf.decision_function(X) > 0).astype(int).tolist() == y


def test_decision_function_keeps_the_sign_of_a_score_too_small_for_float64() -> None:
    clf = ExactPerceptron().fit(AND_X, AND_Y)  # 3·x1 + 2·x2 - 4
    x = [[F(4, 3) - F(1, 3 * 10**400), 0]]  # exact score -10^-400
    assert clf.predict(x).tolist() == [0]
    assert clf.decision_function(x).tolist() == [-(2.0**-1074)]


def test_decimal_floats_reach_the_weights() -> None:
    X, y = [[0.1, 1.0], [0.4, 0.0], [0.9, 1.0], [0.7, 0.0]], [0, 0, 1, 1]
    decimal = ExactPerceptron(floats="decimal").fit(X, y)
    binary = ExactPerceptron().fit(X, y)
    assert decimal.coef_exact_ == (F(23, 10), F(-1))
    denominator = binary.coef_exact_[0].denominator
    assert denominator > 1 and denominator & (denominator - 1) == 0  # binary fractions: a power of two
    assert decimal.verification_ is not None and binary.verification_ is not None
    assert decimal.verification_.data.binary_float is False and binary.verification_.data.binary_float is True


def test_predict_checks_the_features_against_fit() -> None:
    clf = ExactPerceptron().fit(AND_X, AND_Y)
    with pytest.raises(ValueError, match="X has 3 features, but ExactPerceptron is expecting 2 features as input"):
        clf.predict([[0, 1, 2]])
    with pytest.raises(ValueError, match="Reshape your data"):
        clf.predict(np.array([0, 1]))
    with pytest.raises(TypeError, match=r"X\[0\]\[0\]=\{'a': 1\}: argument must be a string or a number"):
        clf.predict(np.array([[{"a": 1}, 0]], dtype=object))
    named = ExactPerceptron().fit(FakeFrame({"p": [0, 0, 1, 1], "q": [0, 1, 0, 1]}), AND_Y)
    assert named.feature_names_in_.tolist() == ["p", "q"]
    with pytest.raises(ValueError, match="The feature names should match those that were passed during fit"):
        named.predict(FakeFrame({"q": [0], "p": [1]}))


def test_predict_before_fit_is_not_fitted_error() -> None:
    with pytest.raises(ValueError, match="not fitted yet"):
        ExactPerceptron().predict(AND_X)


def test_a_fitted_estimator_pickles() -> None:
    clf = ExactPerceptron().fit(AND_X, AND_Y)
    copy = pickle.loads(pickle.dumps(clf))
    assert copy.coef_exact_ == clf.coef_exact_ and copy.predict(AND_X).tolist() == clf.predict(AND_X).tolist()
    assert clf.verification_ is not None and copy.verification_.text == clf.verification_.text


# --- scikit-learn -----------------------------------------------------------------------------------

#: The `check_estimator` checks ExactPerceptron cannot pass, with why. None today: every check that runs
#: passes, the multiclass ones (one against the rest) included. (Checks scikit-learn does not run for it: the
#: sample_weight checks, as fit takes no weights - no note's perceptron weighs samples; the array API
#: checks, which need SCIPY_ARRAY_API, and the pandas check, which needs pandas.)
EXPECTED_FAILED_CHECKS: dict[str, str] = {}


def test_scikit_learns_check_estimator_passes() -> None:
    pytest.importorskip("sklearn", minversion="1.6")  # expected_failed_checks and the callback came in 1.6
    from sklearn.utils.estimator_checks import check_estimator

    seen: dict[str, str] = {}

    def record(*, check_name: str, status: str, **_: Any) -> None:
        seen[check_name] = status if seen.get(check_name, "passed") == "passed" else seen[check_name]

    # A small epoch limit keeps the runs on scikit-learn's random, non-separable data short; every check
    # passes with the default of 1000 as well (about 25 s).
    check_estimator(ExactPerceptron(max_epochs=10), expected_failed_checks=EXPECTED_FAILED_CHECKS,
                    on_fail=None, on_skip=None, callback=record)
    failed = {name for name, status in seen.items() if status not in ("passed", "skipped")}
    assert failed == set(EXPECTED_FAILED_CHECKS)
    assert sum(status == "passed" for status in seen.values()) >= 40
    assert {"check_classifiers_train", "check_estimators_pickle", "check_fit_idempotent",
            "check_classifiers_classes"} <= {n for n, s in seen.items() if s == "passed"}


def test_a_failing_check_is_seen_by_check_estimator() -> None:
    pytest.importorskip("sklearn", minversion="1.6")
    from sklearn.utils.estimator_checks import check_classifier_not_supporting_multiclass

    class Multiclass(ExactPerceptron):  # says binary only, but does not refuse three classes
        def __sklearn_tags__(self) -> Any:
            tags = super().__sklearn_tags__()
            tags.classifier_tags.multi_class = False
            return tags

    with pytest.raises(AssertionError, match="Only binary classification is supported"):
        check_classifier_not_supporting_multiclass("Multiclass", Multiclass(max_epochs=10, verify=False))


def test_the_estimator_clones_and_is_a_classifier() -> None:
    sklearn_base = pytest.importorskip("sklearn.base")
    clf = ExactPerceptron(convention="sum-norm", eta=F(1, 3))
    assert sklearn_base.is_classifier(clf)
    copy = sklearn_base.clone(clf)
    assert copy.get_params() == clf.get_params() and copy is not clf
    assert repr(clf) == "ExactPerceptron(convention='sum-norm', eta=Fraction(1, 3))"


def test_the_package_imports_without_scikit_learn_and_the_estimator_works_alone() -> None:
    code = (
        "import sys; sys.modules['sklearn'] = None\n"  # importing sklearn now raises ImportError
        "import verify_perceptron as vp\n"
        "clf = vp.ExactPerceptron(max_epochs=50).fit([[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 0, 1])\n"
        "print(clf.predict([[1, 1], [0, 0]]).tolist(), clf.coef_exact_, clf.score([[1, 1]], [1]))\n"
        "print(repr(clf))\nprint(clf.set_params(eta='1/2').get_params()['eta'])\n"
        "try:\n    vp.ExactPerceptron().predict([[0, 0]])\nexcept ValueError as e:\n    print(type(e).__name__)\n"
        "try:\n    clf.set_params(rate=2)\nexcept ValueError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == [
        "[1, 0] (Fraction(3, 1), Fraction(2, 1)) 1.0",
        "ExactPerceptron(max_epochs=50)",
        "1/2",
        "_NotFittedError",
        "rate=2 is not a parameter of ExactPerceptron (parameters: convention, eta, floats, max_epochs, mode, "
        "time_limit, verify)",
    ]


def test_importing_the_package_does_not_load_scikit_learn() -> None:
    code = "import sys, verify_perceptron; print('sklearn' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_a_dataframe_s_integer_column_name_is_its_label_column() -> None:
    # pd.DataFrame(np.c_[X, y]) names its columns 0, 1, ...: verify(df, 2) was refused ("y=2 is not one label per
    # sample"), where verify(df, "target") reads that column.
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame([[0, 0, 0], [1, 1, 1], [2, 0, 1]])
    named = vp.verify(frame, 2)
    assert named.data == vp.verify(frame.iloc[:, :2], frame[2]).data
    assert named.data.n_features == 2
    with pytest.raises(InvalidArgument, match="is not a column of X"):
        vp.verify(frame.rename(columns={2: "t"}), 2)  # an int that names no column is not taken for labels


def test_the_typed_usage_example_runs() -> None:
    # tests/typed_usage.py is a user's annotated code, there for mypy to check against the public API;
    # run once here so that what type-checks also works.
    assert typed_usage.verify_and().verdict == "verified"
    assert typed_usage.fit_and_predict() == 1.0
    assert typed_usage.check_my_perceptron().passed


@pytest.mark.parametrize("mode", ["online", "batch"])
@pytest.mark.parametrize("convention", sorted(CONVENTIONS))
def test_a_run_stopped_at_its_limit_is_checked_against_the_certified_separator_as_if_made_again(
        convention: str, mode: str) -> None:
    import time

    from verify_perceptron.api.verification import settle
    from verify_perceptron.data.examples import example
    from verify_perceptron.report.record import build_report, render_json

    data, conv = example("and"), get_convention(convention)
    again: list[Any] = []
    trace, check = verify_run(data, conv, mode=mode, max_epochs=1, again=again)
    assert len(again) == 1 and trace.stop == "max-epochs"
    reports = []
    for replay in ([], again, again):  # made again; replayed; replayed once more from the same kept updates
        t, c, s, _ = settle(data, conv, trace, check, eta=1, mode=mode, max_epochs=1, time_limit=None,
                            started=time.monotonic(), again=replay)
        assert c.separator_source == "certified"
        reports.append(render_json(build_report(data, t, c, separability=s)))
    assert reports[1] == reports[0] and reports[2] == reports[0]


def test_fit_scans_the_data_once_when_it_checks_against_the_certified_separator(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from verify_perceptron.run import fast

    runs: list[int] = []
    real = fast.run

    def counted(*args: Any, **kwargs: Any) -> Any:
        runs.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(fast, "run", counted)
    X, y = np.array([[0, 0], [0, 1], [1, 0], [1, 1]]), np.array([0, 0, 0, 1])  # AND, stopped after one epoch
    model = ExactPerceptron(max_epochs=1).fit(X, y)
    assert model.verification_ is not None
    check = model.verification_.check
    assert (check.separator_source, check.holds, len(runs)) == ("certified", True, 1)


@pytest.mark.parametrize("convention", list(CONVENTIONS))
@pytest.mark.parametrize("mode", ["online", "batch"])
def test_a_verification_builds_its_report_when_read_and_it_is_the_eager_report(convention: str, mode: str) -> None:
    from verify_perceptron.report.record import build_report, render_json

    eta = "1" if get_convention(convention).rate_fixed else "1/2"
    for seed, epochs in ((0, 50), (1, 1)):  # converged, and stopped at the limit (checked against w* certified)
        X, y = _random_data(seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the stopped fit's ConvergenceWarning (which reads only the verdict)
            clf = ExactPerceptron(convention=convention, eta=eta, mode=mode, max_epochs=epochs).fit(X, y)
        result = clf.verification_
        assert result is not None and result._report is None  # a fit builds none, converged or not
        eager = build_report(result.data, result.trace, result.check, separability=result.separability,
                             comparison=result.comparison)
        assert (result.verdict, result.exit_code) == (eager["verdict"], eager["exit_code"])
        assert result._report is None  # the verdict and exit code are read without it
        assert result.report == eager and result.json == render_json(eager)
        assert result.report is result.report  # built once


def test_the_verdict_read_alone_is_the_reports_on_every_kind_of_run() -> None:
    """`verdict_of` (what a fit's ConvergenceWarning and `Verification.verdict` read) gives `build_report`'s
    verdict on verified, stopped, not-separable and violated runs, a bound exceeded and a claim failed included."""
    import dataclasses

    from verify_perceptron.report.record import build_report, verdict_of

    seen = set()
    cases = [(_random_data(seed), epochs) for seed in range(4) for epochs in (1, 50)]
    xor = [[F(0), F(0)], [F(0), F(1)], [F(1), F(0)], [F(1), F(1)]]
    cases.append(((xor, [0, 1, 1, 0]), 30))  # XOR: not separable
    for (X, y), epochs in cases:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = ExactPerceptron(max_epochs=epochs).fit(X, y).verification_
        assert result is not None
        checks = [result.check, dataclasses.replace(result.check, invariants=tuple(
            dataclasses.replace(r, holds=False) for r in result.check.invariants))]
        if result.check.bounds:  # one note's bound below the run's mistakes: a violation
            low = dataclasses.replace(result.check.bounds[0], value=F(result.trace.n_mistakes - 1, 2))
            checks.append(dataclasses.replace(result.check, bounds=(low, *result.check.bounds[1:])))
        for broken, check in enumerate(checks):
            for separability in (result.separability, None):
                alone = verdict_of(result.data, result.trace, check, separability=separability)
                assert alone == build_report(result.data, result.trace, check, separability=separability)["verdict"]
                assert (alone == "violated") == bool(broken)  # a failed claim or an exceeded bound, and only they
                seen.add(alone)
    assert {"verified", "stopped-separable", "not-separable", "violated"} <= seen
