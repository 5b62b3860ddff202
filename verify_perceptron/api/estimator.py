"""`ExactPerceptron`: a note's perceptron as a scikit-learn estimator, fitted exactly and checked as it runs.

`fit` reads X exactly (`verify_perceptron.data.arrays`: floats as binary
numbers, or as their shortest decimals with ``floats="decimal"``), maps the
two classes to -1/+1 (the larger, ``classes_[1]``, is +1), and makes the run
`verify` makes: the fast exact engine with the checker attached. Its result,
the report included, is ``verification_``. The weights are kept exactly
(``coef_exact_``, ``intercept_exact_``: Fractions) and as float64 arrays for
scikit-learn (``coef_``, ``intercept_``). `predict` decides each score
exactly, by the convention's own rule, tie included (a score of exactly 0
is ``classes_[1]`` under ``hard-limiter-plus``, ``classes_[0]`` under every
other convention); `decision_function` returns each exact score rounded once
to float64, kept on its side of 0 as scikit-learn reads it (``> 0`` is
``classes_[1]``). With scikit-learn installed the class is a scikit-learn classifier
(it passes every check `check_estimator` runs for it: tests/test_api.py); without
it, the same class works on its own.
"""

from __future__ import annotations

import math
import numbers
import time
from decimal import Decimal
from fractions import Fraction
import warnings
from typing import Any

import numpy as np

from ..data.arrays import check_floats, exact_labels, exact_table, label_sequence
from ..data.dataset import Dataset
from ..data.integers import ExactMatrix
from ..data.rationals import shown_value
from ..notes.conventions import Convention, tie_rule
from ..run.settings import check_settings, check_time_limit
from ._bounded import time_bounded
from ._sklearn import BASES, DataConversionWarning, NotFittedError
from .verification import Verification, run_verification

__all__ = ["ExactPerceptron"]


def _refuse_non_numbers(X: Any, where: str) -> None:
    """An object array holding something neither a number nor a literal is a `TypeError` naming the value."""
    if isinstance(X, np.ndarray) and X.dtype == object:
        for index, value in np.ndenumerate(X):
            if not isinstance(value, (numbers.Number, str, Decimal)):
                place = "".join(f"[{k}]" for k in index)
                raise TypeError(f"{where}: X{place}={shown_value(value)}: argument must be a string or a number, "
                                f"not {type(value).__name__}")


def _binary_classes(y: Any, where: str) -> tuple[Any, Any]:
    """``(classes_, labels)``: the two classes sorted, and each sample's label as -1 or +1 (+1 for classes_[1])."""
    if y is None:
        raise ValueError(f"{where}: ExactPerceptron requires y to be passed, but the target y is None")
    y = label_sequence(y, where)
    values = y.to_numpy() if hasattr(y, "to_numpy") else np.asarray(y)
    if values.ndim == 2 and values.shape[1] == 1:
        warnings.warn("A column-vector y was passed when a 1d array was expected. Please change the shape of y "
                      "to (n_samples,), for example using ravel().", DataConversionWarning, stacklevel=3)
        values = values[:, 0]
    if values.ndim != 1:
        raise ValueError(f"{where}: y should be a 1d array, got an array of shape {values.shape} instead.")
    if values.dtype.kind in "fc":
        finite = np.isfinite(values)
        if not finite.all():
            i = int(np.flatnonzero(~finite)[0])
            raise ValueError(f"{where}: y[{i}]={float(values[i].real)!r} is not a finite number: "
                             "Input y contains NaN or infinity")
        if values.dtype.kind == "c" or (values != np.round(values)).any():
            raise ValueError(f"{where}: Unknown label type: continuous (y holds {values.dtype} values that are "
                             "not whole numbers); a classifier needs two class labels")
    if values.dtype.kind not in "iufcb":
        exact_labels(values, source=where)  # each label read once: a missing value, a mix of numbers and text
    try:
        classes, inverse = np.unique(values, return_inverse=True)
    except TypeError as error:  # labels of kinds that do not compare, such as 1 and "a"
        raise ValueError(f"{where}: Unknown label type: y's labels cannot be ordered ({error})") from None
    if len(classes) == 1:
        raise ValueError(f"{where}: y has only one class ({shown_value(classes.tolist()[0])}); the perceptron needs two")
    if len(classes) > 2:
        shown = ", ".join(map(shown_value, classes[:5].tolist())) + (", ..." if len(classes) > 5 else "")
        raise ValueError(f"{where}: Only binary classification is supported. The type of the target is multiclass: "
                         f"y has {len(classes)} classes ({shown}); ExactPerceptron separates two")
    return classes, np.where(inverse.reshape(-1) == 1, 1, -1)


#: The smallest positive float64 (2^-1074): what a positive score too small for float64 becomes.
_TINY = math.ulp(0.0)


def _float(numerator: int, denominator: int) -> float:
    """numerator/denominator rounded once to the nearest float64 (±inf beyond its range), never to 0.0 unless
    it is 0: a value too small for float64 is ±2^-1074, so its sign survives.

    Examples
    --------
    >>> _float(1, 3), _float(-1, 10**400), _float(10**400, 1), _float(0, 5)
    (0.3333333333333333, -5e-324, inf, 0.0)
    """
    try:
        value = numerator / denominator  # int / int is correctly rounded in Python
    except OverflowError:
        return float("inf") if (numerator > 0) == (denominator > 0) else float("-inf")
    if value == 0.0 and numerator != 0:
        return _TINY if (numerator > 0) == (denominator > 0) else -_TINY
    return value


def _zero_is_positive(convention: Convention, rate: Fraction) -> bool:
    """Whether the convention's own rule puts a score of exactly 0 in the positive class: it does when a
    positive sample at 0 is no mistake and a negative one is (``hard-limiter-plus``, sgn(0) = +1). Where 0 is
    a mistake for either label (``classic``, ...) no class is right and the negative one is taken, as note
    000's sgn(0) = -1 does; no sample of a converged fit lies there."""
    mistake_if_positive, mistake_if_negative = tie_rule(convention, rate, np.array([1, -1])).tolist()
    return not mistake_if_positive and mistake_if_negative


class ExactPerceptron(*BASES):  # type: ignore[misc]
    """A note's perceptron, fitted in exact arithmetic, with every invariant of its proof checked.

    Parameters
    ----------
    convention : str
        One of the five notes' conventions (``classic``, ``hard-limiter``,
        ``unit-ball``, ``sum-norm``, ``split-bias``) or a note number.
    eta : str, int or Fraction
        The learning rate, exactly (``"1/2"``); a float is taken as the binary number it is.
    mode : {"online", "batch"}
        Update after each mistake (the notes' incremental mode) or once per pass.
    max_epochs : int
        Passes over the data before fit stops on data it cannot separate.
    floats : {"binary", "decimal"}
        How floats in X are read: as the binary numbers they are (default), or
        through their shortest decimal representation (0.1 is 1/10).
    time_limit : float, optional
        Seconds before fit stops, converged or not, reading X included; a
        phase that cannot stop by itself (reading X, deciding separability)
        and is still running a second past the limit raises
        `verify_perceptron.deadline.TimeUp` naming it (main thread only).

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``classes_[1]`` is the positive class (+1).
    coef_, intercept_ : ndarray of shape (1, n_features) and (1,)
        The final weights as float64, each the exact value rounded once.
    coef_exact_ : tuple of Fraction
        The final weights v of ``v·x + b``, exactly.
    intercept_exact_ : Fraction
        The final bias b, exactly.
    n_iter_ : int
        Epochs run (passes over the data, the last one included).
    n_updates_ : int
        Weight updates made.
    converged_ : bool
        True when the last epoch made no mistake. When it is False (data not
        separable, or `max_epochs` too small) the weights are the last ones,
        and ``verification_.verdict`` says whether the data were certified
        not separable (``not-separable``) or not (``inconclusive``).
    verification_ : Verification
        The checked run and its report (`verify_perceptron.api.verification.Verification`).
    n_features_in_ : int
        Features seen by fit.
    feature_names_in_ : ndarray of str
        A DataFrame's column names, when they are all strings.

    Examples
    --------
    >>> clf = ExactPerceptron().fit([[0, 0], [0, 1], [1, 0], [1, 1]], ["no", "no", "no", "yes"])
    >>> clf.coef_exact_, clf.intercept_exact_, clf.verification_.verdict
    ((Fraction(3, 1), Fraction(2, 1)), Fraction(-4, 1), 'verified')
    >>> clf.predict([[1, 1], [0, 1]]).tolist(), clf.decision_function([[1, 1]]).tolist()
    (['yes', 'no'], [1.0])
    """

    def __init__(self, *, convention: str = "classic", eta: Any = "1", mode: str = "online",
                 max_epochs: int = 1000, floats: str = "binary", time_limit: float | None = None) -> None:
        self.convention = convention
        self.eta = eta
        self.mode = mode
        self.max_epochs = max_epochs
        self.floats = floats
        self.time_limit = time_limit

    def fit(self, X: Any, y: Any) -> ExactPerceptron:
        """Run the perceptron exactly on (X, y) with the checker attached; return self."""
        started = time.monotonic()
        where = f"{type(self).__name__}.fit"
        conv, rate = check_settings(self.convention, self.eta, self.mode, self.max_epochs)
        floats, time_limit = check_floats(self.floats), check_time_limit(self.time_limit)
        with time_bounded(time_limit) as clock:  # reading X counts against the time limit, as the run does
            clock.phase = "reading X and y"
            _refuse_non_numbers(X, where)
            table = exact_table(X, floats=floats, source=where)
            classes, labels = _binary_classes(y, where)
            data = Dataset(y=labels, source=where, feature_names=table.feature_names or (),
                           binary_float=table.binary_float, labels=(str(classes[0]), str(classes[1])),
                           numerators=table.numerators, denominator=table.denominator)
            result = run_verification(data, conv, eta=rate, mode=self.mode, max_epochs=self.max_epochs,
                                      time_limit=time_limit, clock=clock, started=started)
        self._set_weights(conv.to_canonical(result.trace.final_weights))
        self._zero_positive = _zero_is_positive(conv, rate)
        self.classes_ = classes
        self.n_features_in_ = data.n_features
        columns = getattr(X, "columns", None)
        if columns is not None and all(isinstance(c, str) for c in columns):
            self.feature_names_in_ = np.asarray(list(columns), dtype=object)
        self.n_iter_ = result.trace.n_epochs
        self.n_updates_ = result.trace.n_updates
        self.converged_ = result.trace.converged
        self.verification_: Verification = result
        return self

    def _set_weights(self, canonical: tuple[Fraction, tuple[Fraction, ...]]) -> None:
        b, v = canonical
        self.coef_exact_ = tuple(Fraction(x) for x in v)
        self.intercept_exact_ = Fraction(b)
        self.coef_ = np.array([[_float(x.numerator, x.denominator) for x in self.coef_exact_]], dtype=np.float64)
        self.intercept_ = np.array([_float(b.numerator, b.denominator)], dtype=np.float64)
        # (v, b) as integers over one denominator, for exact scores: w·(x, 1) = (V·x + B) / q.
        q = math.lcm(*(Fraction(x).denominator for x in (*v, b)))
        self._weights_over = (tuple(int(x * q) for x in (*v, b)), int(q))

    def _exact_scores(self, X: Any, method: str) -> tuple[Any, int]:
        """Each sample's score v·x + b as (integer numerators, one positive denominator), exactly."""
        if not hasattr(self, "coef_exact_"):
            raise NotFittedError(f"This {type(self).__name__} instance is not fitted yet. Call 'fit' with "
                                 "appropriate arguments before using this estimator.")
        where = f"{type(self).__name__}.{method}"
        _refuse_non_numbers(X, where)
        table = exact_table(X, floats=self.floats, source=where)
        n, d = table.numerators.shape
        if d != self.n_features_in_:
            raise ValueError(f"X has {d} features, but {type(self).__name__} is expecting "
                             f"{self.n_features_in_} features as input")
        names = getattr(self, "feature_names_in_", None)
        if names is not None and table.feature_names is not None and list(table.feature_names) != list(names):
            raise ValueError(f"{where}: The feature names should match those that were passed during fit: "
                             f"{list(table.feature_names)} instead of {list(names)}")
        L = table.denominator
        wide = table.numerators.dtype == object or L >= 2**62
        augmented = np.hstack([table.numerators.astype(object if wide else np.int64),
                               np.full((n, 1), L, dtype=object if wide else np.int64)])
        direction, q = self._weights_over
        scores = ExactMatrix(augmented).products(direction, norm_sq=sum(w * w for w in direction))
        return scores, q * L

    def decision_function(self, X: Any) -> Any:
        """The score v·x + b of each sample, computed exactly and rounded once to float64.

        Its sign as scikit-learn reads it (``> 0`` is ``classes_[1]``) is
        `predict`'s: a score too small for float64 is ±2^-1074, not 0.0, and
        under ``hard-limiter-plus``, whose rule puts a score of exactly 0 in
        the positive class, such a score is +2^-1074.
        """
        scores, denominator = self._exact_scores(X, "decision_function")
        zero = _TINY if self._zero_positive else 0.0
        return np.array([_float(int(s), denominator) if s else zero for s in scores.tolist()], dtype=np.float64)

    def predict(self, X: Any) -> Any:
        """``classes_[1]`` where the exact score is > 0, ``classes_[0]`` where it is < 0; a score of exactly 0 as
        the convention's own rule decides it (``classes_[1]`` under ``hard-limiter-plus``, else ``classes_[0]``)."""
        scores, _ = self._exact_scores(X, "predict")
        scores = np.asarray(scores)  # integers (int64 or Python), so each comparison is exact
        positive = (scores > 0) | ((scores == 0) & self._zero_positive)
        return self.classes_[positive.astype(np.intp)]

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # two classes, as the notes' perceptrons
        return tags

    def _more_tags(self) -> dict[str, bool]:  # scikit-learn before 1.6
        return {"binary_only": True}
