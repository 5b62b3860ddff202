"""Exact algebra for the proof checker: vectors as components, ideal membership, Lagrange's identity.

Nothing here decides a step on its own; the checker (`verify_perceptron.proofs.checking`) calls
these helpers and reports. Three tools:

* `Vec` and `components`: a vector quantity is a linear combination of named
  vectors (plus ``e0``, a bias axis orthogonal to all of them, for note 004's
  ``(α0, α)``). An inner-product symbol such as ``w_ws`` (w_k·w*) is replaced
  by the dot product of symbolic component vectors in R^n, n the number of
  named vectors involved. A polynomial identity in the inner products of n
  vectors that holds for generic vectors of R^n holds in every dimension: any n
  vectors span at most n dimensions and an isometry keeps their inner
  products, while vectors of fewer dimensions embed with zeros.
* `in_ideal`: whether a polynomial vanishes wherever some equalities hold,
  decided by eliminating variables that occur linearly and then by a Gröbner
  basis over the rationals. Membership is exact: a True answer is a proof.
* `lagrange_sos`: ``‖u‖²‖v‖² - (u·v)² = Σ_{i<j} (u_i·v_j - u_j·v_i)²``, the sum
  of squares that proves Cauchy-Schwarz for the given vectors.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp

from ..errors import InvalidArgument

__all__ = [
    "Vec", "V", "BIAS_AXIS", "components", "dot", "exact_expr", "in_ideal", "remainder", "lagrange_sos", "unsafe_denominator",
]

#: The name of the bias axis: orthogonal to every named vector, of length 1.
BIAS_AXIS = "e0"


def exact_expr(value: object, name: str) -> sp.Expr:
    """`value` as an exact SymPy expression; a float is refused, naming `name`."""
    if isinstance(value, float):
        raise InvalidArgument(f"{name}={value!r} is a float; use an exact value (int, Fraction, SymPy)")
    if isinstance(value, Fraction):
        return sp.Rational(value.numerator, value.denominator)
    try:
        return sp.sympify(value, strict=True)
    except (sp.SympifyError, TypeError):
        raise InvalidArgument(f"{name}={value!r} is not a SymPy expression") from None


@dataclass(frozen=True)
class Vec:
    """A linear combination of named vectors, with SymPy coefficients.

    ``terms`` holds ``(name, coefficient)`` pairs, sorted by name, with no zero
    coefficient. The name ``e0`` stands for the bias axis.

    Examples
    --------
    >>> eta, y = sp.symbols("eta y")
    >>> V("w") + eta * y * V("x")
    Vec(terms=(('w', 1), ('x', eta*y)))
    >>> (V("w") - V("w")).terms
    ()
    """

    terms: tuple[tuple[str, sp.Expr], ...] = ()

    @classmethod
    def of(cls, coefficients: Mapping[str, object]) -> Vec:
        """The combination ``Σ coefficient·name``, zero coefficients dropped."""
        terms = []
        for name, value in sorted(coefficients.items()):
            if not isinstance(name, str) or not name:
                raise InvalidArgument(f"vector name={name!r} must be a non-empty string")
            coefficient = sp.expand(exact_expr(value, f"coefficient of {name}"))
            if coefficient != 0:
                terms.append((name, coefficient))
        return cls(tuple(terms))

    def as_dict(self) -> dict[str, sp.Expr]:
        """``{name: coefficient}``."""
        return dict(self.terms)

    @property
    def names(self) -> frozenset[str]:
        """The named vectors it combines (the bias axis excluded)."""
        return frozenset(name for name, _ in self.terms if name != BIAS_AXIS)

    def __add__(self, other: Vec) -> Vec:
        if not isinstance(other, Vec):
            return NotImplemented
        total = self.as_dict()
        for name, value in other.terms:
            total[name] = total.get(name, sp.Integer(0)) + value
        return Vec.of(total)

    def __neg__(self) -> Vec:
        return Vec.of({name: -value for name, value in self.terms})

    def __sub__(self, other: Vec) -> Vec:
        if not isinstance(other, Vec):
            return NotImplemented
        return self + (-other)

    def __rmul__(self, factor: object) -> Vec:
        scale = exact_expr(factor, "factor")
        return Vec.of({name: scale * value for name, value in self.terms})

    __mul__ = __rmul__

    def subs(self, scalars: Mapping[sp.Symbol, sp.Expr] | None = None, vectors: Mapping[str, Vec] | None = None) -> Vec:
        """Substitute scalar symbols in the coefficients and named vectors by combinations."""
        total = Vec()
        for name, value in self.terms:
            coefficient = value.xreplace(dict(scalars)) if scalars else value
            replacement = (vectors or {}).get(name, V(name))
            total = total + coefficient * replacement
        return total

    @property
    def free_symbols(self) -> set[sp.Symbol]:
        """The scalar symbols in its coefficients."""
        found: set[sp.Symbol] = set()
        for _, value in self.terms:
            found |= value.free_symbols
        return found


def V(name: str) -> Vec:
    """The named vector itself (``V("e0")`` is the bias axis).

    Examples
    --------
    >>> V("x").terms
    (('x', 1),)
    """
    return Vec.of({name: 1})


def components(names: Iterable[str]) -> dict[str, tuple[sp.Expr, ...]]:
    """Generic component vectors for `names`, in R^(1+n): coordinate 0 is the bias axis.

    Every named vector has 0 on the bias axis; ``e0`` is ``(1, 0, ..., 0)``.

    Examples
    --------
    >>> components(["x"])
    {'x': (0, x.1), 'e0': (1, 0)}
    """
    ordered = sorted(set(names) - {BIAS_AXIS})
    n = len(ordered)
    table: dict[str, tuple[sp.Expr, ...]] = {}
    for name in ordered:
        table[name] = (sp.Integer(0), *(sp.Symbol(f"{name}.{i}", real=True) for i in range(1, n + 1)))
    table[BIAS_AXIS] = (sp.Integer(1),) + (sp.Integer(0),) * n
    return table


def vector_components(v: Vec, table: Mapping[str, Sequence[sp.Expr]]) -> tuple[sp.Expr, ...]:
    """The components of `v` in the coordinates of `table` (see `components`)."""
    size = len(table[BIAS_AXIS])
    total = [sp.Integer(0)] * size
    for name, coefficient in v.terms:
        if name not in table:
            raise InvalidArgument(f"vector {name!r} has no components in this check")
        total = [t + coefficient * c for t, c in zip(total, table[name])]
    return tuple(total)


def dot(u: Sequence[sp.Expr], v: Sequence[sp.Expr]) -> sp.Expr:
    """``Σ u_i·v_i``, expanded."""
    return sp.expand(sum((a * b for a, b in zip(u, v)), sp.Integer(0)))


def lagrange_sos(u: Sequence[sp.Expr], v: Sequence[sp.Expr]) -> sp.Expr:
    """``Σ_{i<j} (u_i·v_j - u_j·v_i)²``, which equals ``‖u‖²‖v‖² - (u·v)²``.

    Examples
    --------
    >>> a, b, c, d = sp.symbols("a b c d")
    >>> sp.expand(lagrange_sos((a, b), (c, d)) - ((a*a + b*b)*(c*c + d*d) - (a*c + b*d)**2))
    0
    """
    total = sp.Integer(0)
    for i in range(len(u)):
        for j in range(i + 1, len(u)):
            total += (u[i] * v[j] - u[j] * v[i]) ** 2
    return sp.expand(total)


def _linear_variable(poly: sp.Expr) -> sp.Symbol | None:
    """A variable that occurs in `poly` only linearly, with a non-zero rational coefficient."""
    for s in sorted(poly.free_symbols, key=str):
        p = sp.Poly(poly, s)
        if p.degree() == 1:
            coefficient = p.coeff_monomial(s)
            if coefficient.is_Number and coefficient != 0:
                return s
    return None


def remainder(expr: sp.Expr, equalities: Sequence[sp.Expr]) -> sp.Expr:
    """`expr` reduced modulo the ideal the polynomials `equalities` generate: 0 exactly when it lies in it.

    Variables that an equality defines linearly are eliminated first (reduction
    modulo that equality); the rest is reduced by a Gröbner basis over the
    rationals, whose remainder is 0 if and only if `expr` is in the ideal.

    Examples
    --------
    >>> y, t, w0, theta = sp.symbols("y t w0 theta")
    >>> remainder(t * y**2 - t, [y**2 - 1]), remainder(w0 + theta, [w0 - theta])
    (0, 2*w0)
    """
    target = sp.expand(expr)
    polys = [p for p in (sp.expand(g) for g in equalities) if p != 0]
    if target == 0:
        return target
    progress = True
    while progress and polys:
        progress = False
        for index, poly in enumerate(polys):
            variable = _linear_variable(poly)
            if variable is None:
                continue
            solution = sp.solve(poly, variable, dict=False)[0]
            rest = polys[:index] + polys[index + 1:]
            target = sp.expand(target.xreplace({variable: solution}))
            polys = [p for p in (sp.expand(q.xreplace({variable: solution})) for q in rest) if p != 0]
            progress = True
            break
    if target == 0 or not polys:
        return target
    if any(p.is_Number for p in polys):
        return sp.Integer(0)  # inconsistent equalities: the ideal is everything (never expected here)
    gens = sorted(set().union(target.free_symbols, *(p.free_symbols for p in polys)), key=str)
    basis = sp.groebner(polys, *gens, order="grevlex", domain="QQ")
    return sp.expand(basis.reduce(target)[1])


def in_ideal(expr: sp.Expr, equalities: Sequence[sp.Expr]) -> bool:
    """True when the polynomial `expr` lies in the ideal the polynomials `equalities` generate.

    Then ``expr`` is 0 wherever every equality is 0. False means it is not in
    the ideal (the check is complete): the equalities alone do not make it 0.

    Examples
    --------
    >>> y, t = sp.symbols("y t")
    >>> in_ideal(t * y**2 - t, [y**2 - 1]), in_ideal(y - 1, [y**2 - 1])
    (True, False)
    """
    return remainder(expr, equalities) == 0


def unsafe_denominator(expr: sp.Expr, positives: Sequence[sp.Expr]) -> sp.Expr | None:
    """A factor of the denominator of `expr` not known to be non-zero, or None.

    A factor is safe when it is a non-zero number or equals ± one of the
    `positives` (quantities known to be > 0).

    Examples
    --------
    >>> g, k = sp.symbols("gamma k")
    >>> unsafe_denominator(1 / g**2, [g]) is None, unsafe_denominator(1 / (g * k), [g])
    (True, k)
    """
    denominator = sp.fraction(sp.together(expr))[1]
    if denominator.is_Number:
        return None if denominator != 0 else denominator
    _, factors = sp.factor_list(sp.expand(denominator))
    known = [sp.expand(p) for p in positives]
    for factor, _ in factors:
        if factor.is_Number and factor != 0:
            continue
        if not any(sp.expand(factor - p) == 0 or sp.expand(factor + p) == 0 for p in known):
            return factor
    return None
