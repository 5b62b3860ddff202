"""The bounds every dataset strategy takes, checked when the strategy is built (before anything is
drawn), and the values they allow: `_Shape` draws them so that they shrink toward 0 and denominator 1."""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import reject
from hypothesis import strategies as st

from ..data.exact_text import exact_text, nearest_float
from ..data.rationals import shown_value
from ..errors import InvalidArgument

#: The kinds of values a strategy can draw (see `verify_perceptron.harness.strategies`).
NUMBERS = ("integers", "dyadic", "rationals", "floats")


# --- validation: every bound is checked when the strategy is built, before anything is drawn ----


def _whole(name: str, value: object, *, at_least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgument(f"{name}={shown_value(value)} must be an integer")
    if value < at_least:
        raise InvalidArgument(f"{name}={shown_value(value)} must be >= {at_least}")
    return value


def _ordered(low_name: str, low: int, high_name: str, high: int) -> None:
    if high < low:
        raise InvalidArgument(f"{high_name}={exact_text(high)} must be >= {low_name}={exact_text(low)}")


def _rational(name: str, value: object) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, Fraction, str)):
        raise InvalidArgument(f"{name}={shown_value(value)} must be an int, a Fraction or a literal such as '1/4'")
    try:
        return Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise InvalidArgument(f"{name}={shown_value(value)} is not a rational number") from None


def _numbers_kind(numbers: object) -> str:
    if numbers not in NUMBERS:
        raise InvalidArgument(f"numbers={shown_value(numbers)} must be one of {', '.join(NUMBERS)}")
    return str(numbers)


class _Shape:
    """The validated common bounds of the separable strategies."""

    def __init__(self, *, min_features: object, max_features: object, min_samples: object, max_samples: object,
                 min_margin: object, numbers: object, max_numerator: object, max_denominator: object) -> None:
        # a user's values, each checked here
        self.min_features = _whole("min_features", min_features, at_least=1)
        self.max_features = _whole("max_features", max_features, at_least=1)
        _ordered("min_features", self.min_features, "max_features", self.max_features)
        self.min_samples = _whole("min_samples", min_samples, at_least=2)
        self.max_samples = _whole("max_samples", max_samples, at_least=2)
        _ordered("min_samples", self.min_samples, "max_samples", self.max_samples)
        self.min_margin = _rational("min_margin", min_margin)
        if self.min_margin < 0:
            raise InvalidArgument(f"min_margin={shown_value(min_margin)} must be >= 0")
        self.numbers = _numbers_kind(numbers)
        self.max_numerator = _whole("max_numerator", max_numerator, at_least=1)
        self.max_denominator = _whole("max_denominator", max_denominator, at_least=1)
        # dyadic denominators are the powers of two up to max_denominator
        self.max_power = self.max_denominator.bit_length() - 1
        # Strategies are built once and reused by every draw (building one per draw costs more than drawing).
        self._values: st.SearchStrategy[Fraction] | None = None
        self._vectors: st.SearchStrategy[tuple[Fraction, ...]] | None = None
        self._rows: dict[tuple[int, int], st.SearchStrategy[list[tuple[tuple[Fraction, ...], bool]]]] = {}
        self.dimensions = st.integers(self.min_features, self.max_features)
        self.pivots = st.integers(0, self.max_features - 1)

    def values(self) -> st.SearchStrategy[Fraction]:
        """One drawn value p/q: shrinks toward 0, then toward denominator 1 (built once per shape)."""
        if self._values is None:
            numerators = st.integers(-self.max_numerator, self.max_numerator)
            if self.numbers == "integers":
                self._values = numerators.map(Fraction)
            elif self.numbers == "dyadic":
                self._values = st.builds(lambda p, k: Fraction(p, 2**k), numerators, st.integers(0, self.max_power))
            else:
                self._values = st.builds(Fraction, numerators, st.integers(1, self.max_denominator))
        return self._values

    def vectors(self) -> st.SearchStrategy[tuple[Fraction, ...]]:
        """A vector at the largest dimension (cut to the drawn one by the caller)."""
        if self._vectors is None:
            self._vectors = st.tuples(*[self.values()] * self.max_features)
        return self._vectors

    def rows(self, *, min_size: int, max_size: int) -> st.SearchStrategy[list[tuple[tuple[Fraction, ...], bool]]]:
        """Samples as (vector, positive?) pairs: a list, so the shrinker deletes samples one by one."""
        key = (min_size, max_size)
        if key not in self._rows:
            self._rows[key] = st.lists(st.tuples(self.vectors(), st.booleans()), min_size=min_size, max_size=max_size)
        return self._rows[key]

    def on_grid(self, value: Fraction) -> Fraction:
        """The least value of the drawn kind that is >= `value` (>= 0), so a margin is kept."""
        if self.numbers == "integers":
            return Fraction(math.ceil(value))
        if self.numbers == "dyadic":
            scale = 2**self.max_power
            return Fraction(math.ceil(value * scale), scale)
        return value


def _shape(**bounds: object) -> _Shape:
    unknown = sorted(set(bounds) - set(_DEFAULTS))
    if unknown:
        raise InvalidArgument(f"{unknown[0]}={shown_value(bounds[unknown[0]])} is not a bound; the bounds are {', '.join(_DEFAULTS)}")
    return _Shape(**{**_DEFAULTS, **bounds})


_DEFAULTS: dict[str, object] = {
    "min_features": 1, "max_features": 3, "min_samples": 2, "max_samples": 8, "min_margin": 0,
    "numbers": "rationals", "max_numerator": 4, "max_denominator": 4,
}


def _norm_ceiling(v_sq: Fraction) -> int:
    """The least integer c with c² >= v_sq: an exact upper bound of ‖v‖ without a root."""
    c = math.isqrt(math.ceil(v_sq))
    while c * c < v_sq:
        c += 1
    return c


def _as_float(value: Fraction) -> Fraction:
    """The exact value of the double nearest to `value`; past the largest double, where float64 has none,
    the draw is rejected (bounds that large cannot make float data)."""
    double = nearest_float(value)
    if double is None:
        reject()
    return Fraction.from_float(double)
