"""Data that find what other data miss: runs that need many epochs (an epoch cap shows), and a sample
whose final score is positive but within 2^-20 of zero (a tolerance on the score shows).

Both are separable, dyadic (float64 holds every value) and built so that float64 computes the whole
exact run exactly (`_floats._float_exact`), so a correct float implementation never fails on them.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from ..data.dataset import Dataset
from ..data.exact_text import exact_text
from ..notes.conventions import get_convention
from ..run import fast
from ..run.reference import train
from ._bounds import _whole
from ._options import REFERENCE_EPOCHS

#: The fewest epochs a slow dataset's exact run needs.
SLOW_EPOCHS = 100
#: A near tie's final score y·(w·x~) lies in (0, NEAR_TIE].
NEAR_TIE = Fraction(1, 2**20)


def _epochs(data: Dataset, convention: str, limit: int) -> int | None:
    """Epochs the exact run needs (None beyond `limit`)."""
    run = fast.run(data, convention, max_epochs=limit, keep_updates=0)
    return run.n_epochs if run.stop == "converged" else None


@st.composite
def _slow(draw: st.DrawFn, convention: str, max_features: int, max_samples: int, min_epochs: int,
          max_epochs: int) -> Dataset | None:
    """A close pair across x_j = A (a positive sample and, 2^-k below it, a negative one), other samples
    well away on their sides, and k the least exponent that makes the run need `min_epochs` epochs."""
    m = draw(st.integers(1, max_features))
    j = draw(st.integers(0, m - 1))
    A = draw(st.integers(1, 4))
    p = tuple(Fraction(A) if i == j else Fraction(draw(st.integers(-2, 2))) for i in range(m))
    extras = []
    for _ in range(draw(st.integers(0, max_samples - 2))):
        label = draw(st.sampled_from((1, -1)))
        x = list(p)
        x[j] = Fraction(A + draw(st.integers(1, 3))) if label > 0 else Fraction(A - draw(st.integers(2, 4)))
        for i in range(m):
            if i != j:
                x[i] = Fraction(draw(st.integers(-2, 2)))
        extras.append((tuple(x), label))
    first = draw(st.booleans())  # which of the pair comes first
    shift = draw(st.integers(0, len(extras)))
    for k in range(3, 12):
        n = tuple(v - Fraction(1, 2**k) if i == j else v for i, v in enumerate(p))
        pair = [(p, 1), (n, -1)] if first else [(n, -1), (p, 1)]
        rows = extras[:shift] + pair + extras[shift:]
        data = Dataset(X=tuple(x for x, _ in rows), y=tuple(label for _, label in rows),
                       source=f"slow_datasets: a pair 2^-{k} apart across x{j + 1} = {A}")
        epochs = _epochs(data, convention, max_epochs)
        if epochs is None:
            return None
        if epochs >= min_epochs:
            return data
    return None


def slow_datasets(*, convention: str = "classic", max_features: int = 3, max_samples: int = 8,
                  min_epochs: int = SLOW_EPOCHS, max_epochs: int = REFERENCE_EPOCHS) -> st.SearchStrategy[Dataset]:
    """Separable data whose exact run needs at least `min_epochs` epochs (at most `max_epochs`).

    Two samples of opposite labels 2^-k apart across a hyperplane x_j = A set
    a margin that is small relative to R; k grows until the run is that long.

    Examples
    --------
    >>> from hypothesis import find
    >>> from verify_perceptron.harness import harness_settings
    >>> data = find(slow_datasets(), lambda data: True, settings=harness_settings())
    >>> [[str(v) for v in x] for x in data.X], data.y
    ([['63/64'], ['1']], (-1, 1))
    >>> _epochs(data, "classic", 1000)
    130
    """
    convention = get_convention(convention).name
    _whole("max_features", max_features, at_least=1)
    _whole("max_samples", max_samples, at_least=2)
    return _slow(convention, max_features, max_samples, min_epochs, max_epochs).filter(lambda d: d is not None).map(_kept)


def _kept(data: Dataset | None) -> Dataset:
    """A dataset the filter before it kept: it drops every None."""
    if data is None:
        raise AssertionError("a None passed the filter that drops it")
    return data


def _near_tie(data: Dataset, convention: str) -> Dataset | None:
    """`data` with one more sample, last, whose final score is in (0, NEAR_TIE]: a point between a
    positive and a negative sample, just on the positive side of the final hyperplane."""
    conv = get_convention(convention)
    for _ in range(3):  # the new sample may change the run: place it again against the new weights
        run = train(data, conv, max_epochs=REFERENCE_EPOCHS)
        if not run.converged:
            return None
        b, v = conv.to_canonical(run.final_weights)
        scores = [sum((a * c for a, c in zip(v, x)), b) for x in data.X]
        if any(0 < s * y <= NEAR_TIE for s, y in zip(scores, data.y)):
            return data
        i = next(i for i, y in enumerate(data.y) if y > 0)
        k = next(k for k, y in enumerate(data.y) if y < 0)
        sp, sn = scores[i], scores[k]
        t = sp / (sp - sn)  # the point p + t·(n - p) scores 0
        K = 21 + max(0, (sp - sn).numerator.bit_length() - (sp - sn).denominator.bit_length() + 1)
        c = Fraction((t * 2**K).__floor__(), 2**K)
        if sp + c * (sn - sp) == 0:
            c -= Fraction(1, 2**K)
        x = tuple(a + c * (d - a) for a, d in zip(data.X[i], data.X[k]))
        data = Dataset(X=data.X + (x,), y=data.y + (1,), source=f"{data.source}; a near tie at {exact_text(c)} of the way")
    return None


def near_tie_datasets(separable: st.SearchStrategy[Dataset], *, convention: str = "classic") -> st.SearchStrategy[Dataset]:
    """Separable data on which the exact run's final weights score one sample in (0, 2^-20].

    The exact run stops there; an implementation that counts a small positive
    score as a mistake (a tolerance ε >= 2^-20) does not.

    Examples
    --------
    >>> from verify_perceptron.data.dataset import from_arrays
    >>> data = _near_tie(from_arrays([[-1], [1]], [-1, 1]), "classic")
    >>> [str(x[0]) for x in data.X], data.y
    (['-1', '1', '1/8388608'], (-1, 1, 1))
    """
    convention = get_convention(convention).name
    return separable.map(lambda d: _near_tie(d, convention)).filter(lambda d: d is not None).map(_kept)
