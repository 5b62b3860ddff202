"""`ExactPerceptron`: a note's perceptron as a scikit-learn estimator, fitted exactly and checked as it runs.

`fit` reads X exactly (`verify_perceptron.data.arrays`: floats as binary
numbers, or as their shortest decimals with ``floats="decimal"``), maps two
classes to -1/+1 (the larger, ``classes_[1]``, is +1), and makes the run
`verify` makes: the fast exact engine with the checker attached. Its result,
the report included, is ``verification_``; with ``verify=False`` the exact
engine runs alone, without the checker, the separability decision or a
report. More than two classes are fitted one against the rest, as
scikit-learn's `Perceptron` does: one binary problem per class (that class
+1, every other -1), each run, checked and reported as two classes are
(``verifications_``). The weights are kept exactly (``coef_exact_``,
``intercept_exact_``: Fractions) and as float64 arrays for scikit-learn
(``coef_``, ``intercept_``). `predict` decides each score exactly: for two
classes by the convention's own rule, tie included (a score of exactly 0 is
``classes_[1]`` under ``hard-limiter-plus``, ``classes_[0]`` under every
other convention); for more, the class of the largest exact score, the first
of equal ones (as NumPy's ``argmax`` takes it). `decision_function` returns
each exact score rounded once to float64, kept on its side of 0 as
scikit-learn reads it (``> 0`` is ``classes_[1]``). A fit that stops before
converging warns with a `ConvergenceWarning` (scikit-learn's when it is
installed) saying why. With scikit-learn installed the class is a
scikit-learn classifier (it passes every check `check_estimator` runs for it:
tests/test_api.py); without it, the same class works on its own.
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from ..data.arrays import check_floats, exact_table
from ..data.dataset import from_table
from ..data.float_source import BinaryRows
from ..data.integers import ExactMatrix
from ..data.rationals import shown_value
from ..data.trace import ScaledWeights, Trace
from ..errors import InvalidArgument
from ..notes.conventions import Convention, tie_rule
from ..run import fast
from ..run.settings import check_settings, check_time_limit
from ._bounded import time_bounded, time_left
from ._inputs import TINY, classes_of, refuse_non_numbers, to_float
from ._sklearn import BASES, ConvergenceWarning, NotFittedError
from .verification import Verification, run_verification

__all__ = ["ConvergenceWarning", "ExactPerceptron"]


def _zero_is_positive(convention: Convention, rate: Fraction) -> bool:
    """Whether the convention's own rule puts a score of exactly 0 in the positive class: it does when a
    positive sample at 0 is no mistake and a negative one is (``hard-limiter-plus``, sgn(0) = +1). Where 0 is
    a mistake for either label (``classic``, ...) no class is right and the negative one is taken, as note
    000's sgn(0) = -1 does; no sample of a converged fit lies there."""
    mistake_if_positive, mistake_if_negative = tie_rule(convention, rate, np.array([1, -1])).tolist()
    return not mistake_if_positive and mistake_if_negative


def _as_fraction(x: Any) -> Fraction:
    """`x` as a Fraction: a Fraction as it is (immutable, so shared safely: making it again cost 4 µs a
    weight, a tenth of a converged digits fit), anything else through ``Fraction(x)``."""
    return x if type(x) is Fraction else Fraction(x)


#: A run's canonical weights: (v, b) as Fractions, and (v..., b) as integers over their least common denominator q.
_Weights = tuple[tuple[Fraction, ...], Fraction, tuple[int, ...], int]


def _exact_weights(conv: Convention, final: Sequence[Any]) -> _Weights:
    """A run's final weights in the convention's canonical form ``v·x + b``: (v, b) as Fractions, and (v, b) as
    integers over their least common denominator q, whose float64 quotients are the same as the Fractions' (a
    quotient of integers is rounded once, whatever their common factors).

    The engine's `ScaledWeights` give those integers from their own (`ScaledWeights.scaled`), without a gcd
    and a lcm over the Fractions.

    Examples
    --------
    >>> from verify_perceptron.notes.conventions import CONVENTIONS
    >>> _exact_weights(CONVENTIONS["classic"], ScaledWeights([-3, 2, 0], Fraction(1, 2)))
    ((Fraction(1, 1), Fraction(0, 1)), Fraction(-3, 2), (2, 0, -3), 2)
    >>> _exact_weights(CONVENTIONS["classic"], (Fraction(-3, 2), Fraction(1), Fraction(0)))
    ((Fraction(1, 1), Fraction(0, 1)), Fraction(-3, 2), (2, 0, -3), 2)
    """
    if isinstance(final, ScaledWeights):
        values = tuple(final)  # (Fractions already: made once)
        b, v = conv.to_canonical(values)
        scaled, q = final.scaled()
        at = 0 if conv.bias_first else len(scaled) - 1
        over = (*(scaled[1:] if conv.bias_first else scaled[:-1]), conv.bias_input * scaled[at])
        return v, b, over, q
    b, v = conv.to_canonical(final)
    v, b = tuple(_as_fraction(x) for x in v), _as_fraction(b)
    q = math.lcm(*(x.denominator for x in (*v, b)))
    return v, b, tuple(x.numerator * (q // x.denominator) for x in (*v, b)), q


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
        Seconds before fit stops, converged or not, reading X included (all
        classes together); a phase that cannot stop by itself (reading X,
        deciding separability) and is still running a second past the limit
        raises `verify_perceptron.deadline.TimeUp` naming it (main thread only).
    verify : bool
        Check every invariant of the note's proof at every update, decide
        separability and build the report (default); False runs the exact
        engine alone: the same weights, faster, and no ``verification_``.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The labels, sorted; with two, ``classes_[1]`` is the positive class (+1).
    coef_, intercept_ : ndarray of shape (1 or n_classes, n_features) and (1 or n_classes,)
        The final weights as float64, each the exact value rounded once: one
        row for two classes, one per class (against the rest) for more.
    coef_exact_ : tuple of Fraction
        The final weights v of ``v·x + b``, exactly; for more than two
        classes a tuple of them, one per class.
    intercept_exact_ : Fraction
        The final bias b, exactly; for more than two classes one per class.
    n_iter_ : int
        Epochs run (passes over the data, the last one included): the most
        of any class's run.
    n_updates_ : int
        Weight updates made (by every class's run together).
    converged_ : bool
        True when every run's last epoch made no mistake. When it is False
        (data not separable, or `max_epochs` too small) the weights are the
        last ones, fit warns (`ConvergenceWarning`), and each
        ``verification.verdict`` says whether the data were certified not
        separable (``not-separable``) or not (``inconclusive``).
    verification_ : Verification or None
        The checked run and its report of two classes
        (`verify_perceptron.api.verification.Verification`); None with
        ``verify=False`` or more than two classes.
    verifications_ : tuple of Verification
        One per binary problem: one for two classes, one per class for more
        (class k against the rest); empty with ``verify=False``.
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
                 max_epochs: int = 1000, floats: str = "binary", time_limit: float | None = None,
                 verify: bool = True) -> None:
        self.convention = convention
        self.eta = eta
        self.mode = mode
        self.max_epochs = max_epochs
        self.floats = floats
        self.time_limit = time_limit
        self.verify = verify

    def fit(self, X: Any, y: Any) -> ExactPerceptron:
        """Run the perceptron exactly on (X, y), with the checker attached unless ``verify=False``; return self.

        Two classes make one run; more make one per class, that class against the rest."""
        started = time.monotonic()
        where = f"{type(self).__name__}.fit"
        conv, rate = check_settings(self.convention, self.eta, self.mode, self.max_epochs)
        floats, time_limit = check_floats(self.floats), check_time_limit(self.time_limit)
        if not isinstance(self.verify, (bool, np.bool_)):
            raise InvalidArgument(f"verify={self.verify!r} must be True or False")
        with time_bounded(time_limit) as clock:  # reading X counts against the time limit, as the run does
            clock.phase = "reading X and y"
            refuse_non_numbers(X, where)
            table = exact_table(X, floats=floats, source=where)
            n_features = table.shape[1]
            classes, index = classes_of(y, where)
            binary = len(classes) == 2
            runs: list[tuple[Trace, Verification | None]] = []
            for k in ([1] if binary else range(len(classes))):  # class k is +1, the rest -1
                labels = np.where(index == k, 1, -1)
                names = (str(classes[0]), str(classes[1])) if binary else (f"not {classes[k]}", str(classes[k]))
                data = from_table(table, labels, source=where if binary else f"{where} ({classes[k]} against the rest)",
                                  labels=names)
                # binary floats in limbs: the run's filter reads X itself, not a float copy, until the run's end
                rows = data.binary_rows = BinaryRows.lent(X, data.denominator) if data.binary_float else None
                if binary:  # the data hold the table's values: only they may let go of them (`Dataset.rest_on`),
                    del table, index, labels  # and their labels (copied): two int64 arrays of n less through the run
                try:
                    if self.verify:
                        result = run_verification(data, conv, eta=rate, mode=self.mode, max_epochs=self.max_epochs,
                                                  time_limit=time_limit, clock=clock, started=started)
                        runs.append((result.trace, result))
                    else:
                        clock.phase = "running the perceptron"
                        runs.append((fast.run(data, conv, eta=rate, mode=self.mode, max_epochs=self.max_epochs,
                                              time_limit=time_left(time_limit, started)), None))
                finally:  # the fitted model never reads the user's X again (they may change it)
                    if rows is not None:
                        rows.let_go()
        self._set_weights([_exact_weights(conv, trace.final_weights) for trace, _ in runs], binary)
        self._zero_positive = _zero_is_positive(conv, rate)
        self.classes_ = classes
        self.n_features_in_ = n_features
        columns = getattr(X, "columns", None)
        if columns is not None and all(isinstance(c, str) for c in columns):
            self.feature_names_in_ = np.asarray(list(columns), dtype=object)
        self.n_iter_ = max(trace.n_epochs for trace, _ in runs)
        self.n_updates_ = sum(trace.n_updates for trace, _ in runs)
        self.converged_ = all(trace.converged for trace, _ in runs)
        self.verifications_ = tuple(result for _, result in runs if result is not None)
        self.verification_: Verification | None = self.verifications_[0] if binary and self.verify else None
        if not self.converged_:
            warnings.warn(self._not_converged(runs, classes, binary), ConvergenceWarning, stacklevel=2)
        return self

    def _not_converged(self, runs: list[tuple[Trace, Verification | None]], classes: Any, binary: bool) -> str:
        """Why the fit did not converge, for its `ConvergenceWarning`: each run that stopped, and where."""
        why = []
        for k, (trace, result) in enumerate(runs):
            if trace.converged:
                continue
            if result is not None and result.verdict == "not-separable":
                reason = "the data are certified not separable: no number of epochs makes it converge"
            elif trace.stop == "cycle":
                reason = "its weights came back to earlier ones, so it never converges (the data are not separable)"
            elif trace.stop == "time-limit":
                reason = f"stopped at time_limit={self.time_limit!r} s after {trace.n_epochs} epochs"
            else:
                reason = f"stopped at max_epochs={self.max_epochs}: increase it"
            why.append(reason if binary else f"class {shown_value(classes.tolist()[k])} against the rest: {reason}")
        return (f"{type(self).__name__} did not converge ({self.n_updates_} updates): " + "; ".join(why)
                + "; the weights are the last ones")

    def _set_weights(self, weights: list[_Weights], binary: bool) -> None:
        self.coef_exact_: Any = weights[0][0] if binary else tuple(v for v, *_ in weights)
        self.intercept_exact_: Any = weights[0][1] if binary else tuple(b for _, b, *_ in weights)
        self.coef_ = np.array([[to_float(n, q) for n in over[:-1]] for *_, over, q in weights], dtype=np.float64)
        self.intercept_ = np.array([to_float(over[-1], q) for *_, over, q in weights], dtype=np.float64)
        # each (v, b) as integers over one denominator, for exact scores: w·(x, 1) = (V·x + B) / q.
        self._weights_over = [(over, q) for *_, over, q in weights]

    def _exact_scores(self, X: Any, method: str) -> list[tuple[Any, int]]:
        """Each sample's score v·x + b under each run's weights: (integer numerators, one positive denominator)."""
        if not hasattr(self, "coef_exact_"):
            raise NotFittedError(f"This {type(self).__name__} instance is not fitted yet. Call 'fit' with "
                                 "appropriate arguments before using this estimator.")
        where = f"{type(self).__name__}.{method}"
        refuse_non_numbers(X, where)
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
        augmented = ExactMatrix(np.hstack([table.numerators.astype(object if wide else np.int64),
                                           np.full((n, 1), L, dtype=object if wide else np.int64)]))
        return [(augmented.products(direction, norm_sq=sum(w * w for w in direction)), q * L)
                for direction, q in self._weights_over]

    def decision_function(self, X: Any) -> Any:
        """The score v·x + b of each sample, computed exactly and rounded once to float64; for more than two
        classes one column per class (its run against the rest).

        Its sign as scikit-learn reads it (``> 0`` is ``classes_[1]``) is
        `predict`'s: a score too small for float64 is ±2^-1074, not 0.0, and
        under ``hard-limiter-plus``, whose rule puts a score of exactly 0 in
        the positive class, such a score is +2^-1074.
        """
        runs = self._exact_scores(X, "decision_function")
        zero = TINY if self._zero_positive else 0.0
        columns = [np.array([to_float(int(s), denominator) if s else zero for s in scores.tolist()], dtype=np.float64)
                   for scores, denominator in runs]
        return columns[0] if len(runs) == 1 else np.column_stack(columns)

    def predict(self, X: Any) -> Any:
        """Two classes: ``classes_[1]`` where the exact score is > 0, ``classes_[0]`` where it is < 0, a score of
        exactly 0 as the convention's own rule decides it (``classes_[1]`` under ``hard-limiter-plus``, else
        ``classes_[0]``). More: the class whose run's exact score is largest, the first of equal ones."""
        runs = self._exact_scores(X, "predict")
        if len(runs) == 1:
            scores = np.asarray(runs[0][0])  # integers (int64 or Python), so each comparison is exact
            positive = (scores > 0) | ((scores == 0) & self._zero_positive)
            return self.classes_[positive.astype(np.intp)]
        # the scores over one common denominator, as Python integers: argmax compares them exactly
        common = math.lcm(*(denominator for _, denominator in runs))
        over = np.column_stack([np.asarray(scores, dtype=object) * (common // denominator)
                                for scores, denominator in runs])
        return self.classes_[np.argmax(over, axis=1)]
