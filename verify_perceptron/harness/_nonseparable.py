"""Data that no hyperplane separates: a sample of one class inside the convex hull of the other, the
combination itself Gordan's certificate."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import assume
from hypothesis import strategies as st

from ..data.dataset import Dataset
from ._bounds import _as_float, _shape, _Shape

# Convex weights λ of the hull's points (each a dyadic rational, so a float grid keeps them exact).
_HULL_WEIGHTS: tuple[tuple[Fraction, ...], ...] = (
    (Fraction(1),),
    (Fraction(1, 2), Fraction(1, 2)),
    (Fraction(1, 4), Fraction(3, 4)),
    (Fraction(1, 4), Fraction(1, 4), Fraction(1, 2)),
)
_HULL_CHOICES = st.sampled_from(_HULL_WEIGHTS)


@st.composite
def _nonseparable(draw: st.DrawFn, shape: _Shape) -> Dataset:
    d = draw(shape.dimensions)  # vectors drawn at full width and cut to d, as in _separable
    weights = draw(_HULL_CHOICES)
    hull_label = 1 if draw(st.booleans()) else -1
    hull = [list(draw(shape.vectors()))[:d] for _ in weights]
    # The witness: a convex combination of the hull's points, with the other label.
    inside = [sum((lam * p[j] for lam, p in zip(weights, hull)), Fraction(0)) for j in range(d)]
    extra = draw(shape.rows(min_size=0, max_size=max(0, shape.max_samples - len(weights) - 1)))
    X = [*hull, inside, *(list(x[:d]) for x, _ in extra)]
    y = [hull_label] * len(hull) + [-hull_label] + [1 if positive else -1 for _, positive in extra]
    if shape.numbers == "floats":
        X = [[_as_float(v) for v in x] for x in X]
        inside_now = [sum((lam * p[j] for lam, p in zip(weights, X)), Fraction(0)) for j in range(d)]
        assume(inside_now == X[len(weights)])  # rounding kept the witness inside the hull
    order = draw(st.permutations(range(len(X))))
    return Dataset(X=tuple(tuple(X[i]) for i in order), y=tuple(y[i] for i in order),
                   source=f"nonseparable_datasets: sample {order.index(len(weights))} = "
                   + " + ".join(f"{lam}·x_{order.index(k)}" for k, lam in enumerate(weights))
                   + " with the opposite label")


def nonseparable_datasets(**bounds: object) -> st.SearchStrategy[Dataset]:
    """Datasets that no hyperplane separates: one sample is a convex combination of the other class's.

    If x_q = Σ λ_k x_k (λ >= 0, Σλ = 1) with the opposite label, then
    Σ λ_k y_k x~_k + y_q x~_q = 0 is Gordan's certificate that no w makes
    every y_i·w·x~_i positive. The combination uses 1, 2 or 3 points with
    dyadic weights, so it is exact on every grid.

    Parameters
    ----------
    **bounds
        As for `separable_datasets` (`min_samples` and `min_margin` do not apply).

    Notes
    -----
    Shrinks toward two copies of the same point with opposite labels,
    ``X = [[0], [0]]`` (the smallest conflict), then toward fewer extra
    samples and values 0.

    Examples
    --------
    >>> from hypothesis import find
    >>> from verify_perceptron.harness import harness_settings
    >>> quiet = harness_settings()
    >>> data = find(nonseparable_datasets(), lambda data: True, settings=quiet)
    >>> [[str(v) for v in row] for row in data.X], data.y
    ([['0'], ['0']], (-1, 1))
    """
    return _nonseparable(_shape(**bounds))
