"""Hypothesis strategies for small exact datasets, shared by the separability, max-margin and comparison tests."""

from __future__ import annotations

from fractions import Fraction as F

from hypothesis import strategies as st

from verify_perceptron.data.dataset import Dataset


def halves(max_samples: int = 6, max_features: int = 2) -> st.SearchStrategy[Dataset]:
    """Small two-class datasets of halves in [-3, 3]; they shrink towards fewer samples and zeros."""

    @st.composite
    def build(draw: st.DrawFn) -> Dataset:
        m = draw(st.integers(1, max_features))
        n = draw(st.integers(2, max_samples))
        value = st.integers(-6, 6).map(lambda k: F(k, 2))
        X = tuple(tuple(draw(value) for _ in range(m)) for _ in range(n))
        y = draw(st.lists(st.sampled_from((-1, 1)), min_size=n, max_size=n).filter(lambda ys: len(set(ys)) == 2))
        return Dataset(X=X, y=tuple(y))

    return build()
