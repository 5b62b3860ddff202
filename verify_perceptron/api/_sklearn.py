"""What `ExactPerceptron` takes from scikit-learn when it is installed, and small stand-ins when it is not.

With scikit-learn the estimator subclasses its `ClassifierMixin` and
`BaseEstimator` (so `clone`, pipelines, grid search and `check_estimator`
see a classifier), raises its `NotFittedError` and warns with its
`DataConversionWarning` and `ConvergenceWarning`. Without it, `ParamsBase` gives the same
``get_params``/``set_params``/``score`` behaviour for the estimator's own
keyword-only parameters, and the exception and the warnings are local classes.
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np

__all__ = ["BASES", "ConvergenceWarning", "DataConversionWarning", "NotFittedError", "SKLEARN"]


class ParamsBase:
    """`get_params`, `set_params`, `score` and a repr, read off ``__init__``'s keyword-only parameters."""

    @classmethod
    def _param_names(cls) -> list[str]:
        signature = inspect.signature(cls.__init__)
        return sorted(p.name for p in signature.parameters.values() if p.kind is p.KEYWORD_ONLY)

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """The estimator's parameters, by name."""
        return {name: getattr(self, name) for name in self._param_names()}

    def set_params(self, **params: Any) -> ParamsBase:
        """Set parameters by name; an unknown name is a `ValueError` naming it."""
        for name, value in params.items():
            if name not in self._param_names():
                raise ValueError(f"{name}={value!r} is not a parameter of {type(self).__name__} "
                                 f"(parameters: {', '.join(self._param_names())})")
            setattr(self, name, value)
        return self

    def score(self, X: Any, y: Any) -> float:
        """The fraction of samples whose predicted label equals `y`'s."""
        return float(np.mean(self.predict(X) == np.asarray(y)))  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        signature = inspect.signature(type(self).__init__)
        changed = [f"{name}={value!r}" for name, value in self.get_params().items()
                   if signature.parameters[name].default != value]
        return f"{type(self).__name__}({', '.join(changed)})"


class _NotFittedError(ValueError, AttributeError):
    """Raised by predict-like methods before `fit` (scikit-learn's `NotFittedError` when it is installed)."""


class _DataConversionWarning(UserWarning):
    """Warns that y was converted (scikit-learn's `DataConversionWarning` when it is installed)."""


class _ConvergenceWarning(UserWarning):
    """Warns that a fit stopped before converging (scikit-learn's `ConvergenceWarning` when it is installed)."""


try:
    from sklearn.base import BaseEstimator, ClassifierMixin
    from sklearn.exceptions import ConvergenceWarning, DataConversionWarning, NotFittedError
except ImportError:  # scikit-learn is optional
    SKLEARN = False
    BASES: tuple[type, ...] = (ParamsBase,)
    NotFittedError = _NotFittedError
    DataConversionWarning = _DataConversionWarning
    ConvergenceWarning = _ConvergenceWarning
else:
    SKLEARN = True
    BASES = (ClassifierMixin, BaseEstimator)
