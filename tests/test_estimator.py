"""`ExactPerceptron` as a scikit-learn user expects it: a `ConvergenceWarning` when a fit stops before converging,
``verify=False`` (the exact engine alone), and more than two classes fitted one against the rest."""

from __future__ import annotations

import subprocess
import sys
import warnings
from fractions import Fraction as F
from typing import Any

import numpy as np
import pytest

from verify_perceptron.api.estimator import ConvergenceWarning, ExactPerceptron, _exact_weights
from verify_perceptron.errors import InvalidArgument
from verify_perceptron.notes.conventions import get_convention

AND_X = [[0, 0], [0, 1], [1, 0], [1, 1]]
AND_Y = [0, 0, 0, 1]
XOR_Y = [0, 1, 1, 0]


def test_a_fit_stopped_at_the_epoch_limit_warns_with_scikit_learns_convergence_warning() -> None:
    exceptions = pytest.importorskip("sklearn.exceptions")
    assert ConvergenceWarning is exceptions.ConvergenceWarning
    with pytest.warns(ConvergenceWarning) as seen:
        clf = ExactPerceptron(max_epochs=2).fit(AND_X, AND_Y)
    assert clf.converged_ is False and len(seen) == 1
    assert str(seen[0].message) == (f"ExactPerceptron did not converge ({clf.n_updates_} updates): stopped at "
                                    "max_epochs=2: increase it; the weights are the last ones")
    assert seen[0].filename == __file__  # the warning points at the caller's fit
    with pytest.warns(ConvergenceWarning, match="the data are certified not separable"):
        ExactPerceptron(max_epochs=100).fit(AND_X, XOR_Y)
    with pytest.warns(ConvergenceWarning, match="its weights came back to earlier ones"):
        ExactPerceptron(max_epochs=100, verify=False).fit(AND_X, XOR_Y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a converged fit does not warn
        assert ExactPerceptron().fit(AND_X, AND_Y).converged_


def test_without_scikit_learn_the_warning_is_a_class_of_its_own() -> None:
    code = (
        "import sys, warnings; sys.modules['sklearn'] = None\n"
        "from verify_perceptron.api.estimator import ConvergenceWarning, ExactPerceptron\n"
        "with warnings.catch_warnings(record=True) as seen:\n"
        "    warnings.simplefilter('always')\n"
        "    ExactPerceptron(max_epochs=2).fit([[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 0, 1])\n"
        "print(issubclass(ConvergenceWarning, UserWarning), [w.category.__name__ for w in seen])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["True ['_ConvergenceWarning']"]


@pytest.mark.parametrize("convention, mode", [("classic", "online"), ("hard-limiter", "online"),
                                              ("sum-norm", "batch")])
def test_verify_false_gives_the_checked_fit_s_weights_without_a_report(convention: str, mode: str) -> None:
    rng = np.random.default_rng(3)
    X = rng.integers(-5, 6, size=(30, 3))
    y = (X @ [2, -1, 1] + 1 > 0).astype(int)
    checked = ExactPerceptron(convention=convention, mode=mode).fit(X, y)
    alone = ExactPerceptron(convention=convention, mode=mode, verify=False).fit(X, y)
    assert (alone.coef_exact_, alone.intercept_exact_) == (checked.coef_exact_, checked.intercept_exact_)
    assert (alone.n_iter_, alone.n_updates_, alone.converged_) == (checked.n_iter_, checked.n_updates_,
                                                                  checked.converged_)
    assert (alone.verification_, alone.verifications_) == (None, ())
    assert checked.verification_ is not None
    assert checked.verifications_ == (checked.verification_,) and checked.verification_.verdict == "verified"
    assert alone.predict(X).tolist() == checked.predict(X).tolist() == y.tolist()
    with pytest.raises(InvalidArgument, match="verify='no' must be True or False"):
        no: Any = "no"  # Any: a wrong type, as a user's untyped code may pass one
        ExactPerceptron(verify=no).fit(X, y)


def test_iris_s_three_classes_are_three_binary_runs_one_against_the_rest() -> None:
    datasets = pytest.importorskip("sklearn.datasets")
    X, y = datasets.load_iris(return_X_y=True)
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    with pytest.warns(ConvergenceWarning, match="class 'versicolor' against the rest: the data are certified not "
                                                "separable"):
        multi = ExactPerceptron(floats="decimal").fit(X, names)
    assert multi.classes_.tolist() == ["setosa", "versicolor", "virginica"]
    assert multi.coef_.shape == (3, 4) and multi.intercept_.shape == (3,) and multi.verification_ is None
    scores = multi.decision_function(X)
    assert scores.shape == (150, 3)
    n_updates = 0
    for k, name in enumerate(multi.classes_):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            binary = ExactPerceptron(floats="decimal").fit(X, names == name)  # False < True: name is +1
        assert multi.coef_exact_[k] == binary.coef_exact_ and multi.intercept_exact_[k] == binary.intercept_exact_
        assert multi.coef_[k].tolist() == binary.coef_[0].tolist()
        assert scores[:, k].tolist() == binary.decision_function(X).tolist()
        run, alone = multi.verifications_[k], binary.verification_
        assert alone is not None
        assert (run.verdict, run.trace.n_updates, run.trace.final_weights, run.data.y) == (
            alone.verdict, alone.trace.n_updates, alone.trace.final_weights, alone.data.y)
        assert f"({name} against the rest)" in run.text.splitlines()[0]
        n_updates += binary.n_updates_
    assert [v.verdict for v in multi.verifications_] == ["verified", "not-separable", "not-separable"]
    assert multi.n_updates_ == n_updates
    # predict: the largest exact score, decided exactly (one common denominator), the first of equal ones
    exact = [[sum(w * F(str(v)) for w, v in zip(multi.coef_exact_[k], row)) + multi.intercept_exact_[k]
              for k in range(3)] for row in X.tolist()]
    expected = [multi.classes_[max(range(3), key=lambda k: (s[k], -k))] for s in exact]
    assert multi.predict(X).tolist() == expected
    assert multi.score(X, names) == np.mean(np.array(expected) == names)


def test_a_tie_between_classes_goes_to_the_first_as_argmax_takes_it() -> None:
    X = [[0], [1], [2], [3], [4], [5]]
    clf = ExactPerceptron(max_epochs=5, verify=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        clf.fit(X, ["a", "a", "b", "b", "c", "c"])
    scores = clf.decision_function(X)
    assert clf.predict(X).tolist() == [clf.classes_[int(np.argmax(row))] for row in scores]
    # weights set by hand: equal exact scores everywhere, so every prediction is the first class
    clf._set_weights([_exact_weights(get_convention("classic"), (F(1), F(1, 3)))] * 3, binary=False)
    assert clf.predict(X).tolist() == ["a"] * 6
