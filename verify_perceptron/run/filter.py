"""A floating-point filter for the sign of a score: float speed where the sign is certain, exact elsewhere.

The perceptron decides on the sign of s = z·W alone (W and z integer
vectors of length d). The filter computes that score in float64 from
float64 copies and proves, with an a-priori bound on the rounding error,
when its sign is certain; only the other scores are computed exactly. It is
the technique of robust geometric predicates (Shewchuk's adaptive
predicates, CGAL's filtered kernels). The compiled pass
(`verify_perceptron.run._scan`) applies it to every row it scans once W no
longer fits the int32 copy; the NumPy engine (`verify_perceptron.run.fast`)
applies it to blocks of rows, one BLAS matrix-vector product a block, when
its weights have left the int64 guard.

The bound
---------
Let u = 2^-53 (IEEE 754 double, rounding to nearest, no extended
precision: FLT_EVAL_METHOD == 0), ẑ_j = fl(z_j) and Ŵ_j = fl(W_j) the
nearest doubles (ẑ_j = z_j(1 + α_j), Ŵ_j = W_j(1 + β_j), |α_j|, |β_j| <= u),
and ŝ the float64 value of Σ_j ẑ_j·Ŵ_j computed by any sequence of
multiplications, additions and fused multiply-adds, in any order (BLAS's
blocking, vector lanes, several running sums started at 0). Each product is
rounded at most once; on its way to ŝ every addition that can round joins
its partial sum to a partial sum of other terms, so there are at most d − 1
of them (an addition to an exact 0 does not round). So each term carries at
most m = d + 2 rounding factors (1 + δ), |δ| <= u, and by Higham's Lemma 3.1

    |ŝ − s| <= γ_m·Σ_j |z_j·W_j| <= γ_m·‖z‖·‖W‖,     γ_m = m·u / (1 − m·u),

the last step by Cauchy-Schwarz. The compiled pass in limbs converts each W_j
of two limbs with two roundings instead of one (fl(fl(h)·2^64 + fl(l)) for
|W_j| = h·2^64 + l, both terms >= 0, the scaling exact: W_j(1 + β_j)(1 + β'_j)),
so its terms carry m = d + 3 factors. No intermediate value is subnormal, as
sums and products of integers are integers, and none overflows while
‖z‖·‖W‖·d < 2^1000. We count m = d + 5, two to spare for every caller, and take

    K_d = 2^(⌈log2(d + 5)⌉ + 2 − 53) >= 4·(d + 5)·u,

a power of two, so that K_d·x is exact for any double x. With
n_z >= ‖z‖ and n_W >= ‖W‖ (`norm_above`), the threshold

    T = fl(K_d·n_z · n_W) >= 4·m·u·(1 − u)·‖z‖·‖W‖ >= γ_m·‖z‖·‖W‖

(as m·u <= 1/4 gives γ_m <= (4/3)·m·u, for every d below 2^50). So ŝ > T
proves s > 0, and ŝ < −T proves s < 0. A tie, s = 0, always has |ŝ| <= T:
the filter never decides one. Where |ŝ| <= T the score is computed
exactly; a mistake's score is always computed exactly (the update needs it).

`norm_above(x)` is ``sqrt(fl(x))·(1 + 2^-46)``, rounded: fl(x) >= x(1 − u),
the square root is correctly rounded, so √x <= sqrt(fl(x))·(1 + 3u), and
the product's rounding leaves at least (1 + 2^-46)(1 − u) > 1 + 3u of it
(the factor covers a conversion of x up to about 30 units in the last
place off, for a compiler's 128-bit conversion that did not round to
nearest). The compiled pass computes n_W the same way from its exact ‖W‖².

The score from its residue
--------------------------
Where every entry fits two limbs, the pass in limbs sums a row's score s
exactly only modulo 2^128 (one full and two low word products an entry,
where the whole score takes three full and one low), as r = s mod 2^128 in
[0, 2^128), and takes s = r + 2^128·k with k the integer nearest
(ŝ − r)/2^128, where the filter's threshold T (>= |ŝ − s|, above) is below
2^125 and |ŝ| below 2^176; elsewhere it sums s whole. Why k is exact: r's
double r̂ = fl(fl(r_hi)·2^64 + fl(r_lo)) is within 2^11·2^64 + 2^11 + 2^75 <
2^77 of r; ŝ − r̂ = 2^128·k + (ŝ − s) − (r̂ − r) is below 2^176 + 2^129 <
2^177 in magnitude, so its rounding errs by at most 2^124; in all
fl(ŝ − r̂) is within 2^125 + 2^77 + 2^124 < 2^126 of 2^128·k. Scaled by
2^-128 (exact: fl(ŝ − r̂) is an integer or 0) it is within 1/4 of k, with
|k| < 2^49, and adding 1.5·2^52 rounds it to k + 1.5·2^52 (the doubles in
[2^52, 2^53) are the integers), from which 1.5·2^52 is taken exactly. The
decision never rests on the residue alone: a wrong ŝ within its bound still
gives the right k.

W's float copy kept from the rows'
----------------------------------
The same pass does not round W's float copy Ŵ from W's limbs at every
update: it adds the row's floats, Ŵ ← fl(Ŵ + ẑ_i) (ẑ_i the nearest
doubles, |ẑ_j − z_j| <= u·|z_j|), makes Ŵ from the limbs again every 16
updates, and tests ŝ against T = fl(K_d·n_z·N) with N >= n_W + D, where
n_W >= ‖W‖ and D >= 2e/(K_d(1 − u)) for some e >= ‖Ŵ − W‖. Why T still
bounds |ŝ − s|: ŝ is Σ ẑ_j·Ŵ_j in floats, each term with at most d rounding
factors, so |ŝ − ẑ·Ŵ| <= γ_d·‖ẑ‖·‖Ŵ‖ <= γ_d(1 + u)‖z‖(‖W‖ + e); and
|ẑ·Ŵ − z·W| = |ẑ·(Ŵ − W) + (ẑ − z)·W| <= (1 + u)‖z‖·e + u‖z‖‖W‖. In all
|ŝ − s| <= γ_(d+1)‖z‖‖W‖ + 2‖z‖·e, as γ_d(1 + u) + u <= γ_(d+1) and
(1 + u)(1 + γ_d) < 2; and T >= K_d·n_z·(n_W + D)(1 − u) is at least each
part (the first as above, m = d + 5 > d + 1; the second as
K_d·n_z·D(1 − u) >= 2‖z‖·e).

The bounds are kept so: when Ŵ is made from the limbs (two roundings an
entry, |Ŵ_j − W_j| <= (2u + u²)|W_j|), e = 3u·n_W and n_W as above. At an
update W' = W + z_i: n_W' = n_W + ν_i >= ‖W'‖ (the triangle inequality;
ν_i = radius_i/K_d >= ‖z_i‖, exact as K_d is a power of two); and, with
Ŵ'_j = (Ŵ_j + ẑ_j)(1 + δ_j), |δ_j| <= u, and E = Ŵ − W,
|E'_j| <= |E_j| + |ẑ_j − z_j| + u·(|W'_j| + |E_j| + |ẑ_j − z_j|), so
e' = (1 + u)e + u(1 + u)‖z_i‖ + u‖W'‖ bounds ‖E'‖, and in D's units

    D' = D + (2u/K_d)·(ν_i + n_W'),    2u/K_d = 2^-(⌈log2(d + 5)⌉ + 1),

each bound's few roundings covered by one factor 1 + 2^-45 (>= (1 + u)/(1 − u)^k
for every k < 100), which also covers the factors (1 + u) above. Every
value is a nonnegative double of an integer's size or 0, so none is
subnormal. The drift makes N grow by about n_W·2^-(b + 1) an update (b = the
bits of d + 4): half of n_W in 16 updates at d = 11, when Ŵ is made again.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["FILTER_FROM_SQ", "SLACK", "factor", "norm_above", "radii", "certainly_positive", "weights_in_floats", "usable"]

#: From this ‖W‖² on, the compiled pass no longer reads an int32 copy of W, and is given the filter.
FILTER_FROM_SQ = 2**62

#: The relative margin `norm_above` adds to a rounded square root.
SLACK = 1.0 + 2.0**-46


def factor(d: int) -> float:
    """K_d = 2^(⌈log2(d + 5)⌉ + 2 − 53): a power of two >= 4·(d + 5)·2^-53.

    Examples
    --------
    >>> factor(30) == 2.0**-45, factor(30) >= 4 * 35 * 2.0**-53
    (True, True)
    """
    if not 0 <= d < 2**50:
        raise ValueError(f"d={d!r} must satisfy 0 <= d < 2^50 for the filter's bound")
    return 2.0 ** ((d + 4).bit_length() + 2 - 53)  # (d + 4).bit_length() = ⌈log2(d + 5)⌉


def norm_above(norm_sq: Any) -> Any:
    """An upper bound on √x for integers x >= 0 (a NumPy array or one int): ``sqrt(fl(x))·(1 + 2^-46)``.

    Examples
    --------
    >>> import math
    >>> x = 2**100 + 1
    >>> bound = float(norm_above(x))
    >>> math.isqrt(x) < bound, bound < math.isqrt(x) * (1 + 2**-40)
    (True, True)
    """
    with np.errstate(over="raise"):
        return np.sqrt(np.asarray(norm_sq, dtype=np.float64)) * SLACK


def radii(norms_sq: Any, d: int) -> Any:
    """K_d·n_z for each row: the filter's threshold is this row's radius times n_W (float64 array).

    `norms_sq` holds each row's exact ‖z_i‖² (int64, or Python integers
    below 2^1000).

    Examples
    --------
    >>> r = radii(np.array([25, 0]), 2)
    >>> bool(r[0] >= 5 * 4 * 7 * 2.0**-53), float(r[1])
    (True, 0.0)
    """
    values = np.asarray(norms_sq)
    if values.dtype == object:
        values = np.array([float(v) for v in values.tolist()], dtype=np.float64)
    return norm_above(values) * factor(d)


def certainly_positive(approximate: Any, radius: Any, weight_norm: float) -> Any:
    """Which float scores ŝ_i prove s_i > 0: ``ŝ_i > fl(radius_i·n_W)``, as a boolean array.

    Examples
    --------
    >>> certainly_positive(np.array([1.0, 1e-20, -3.0]), np.array([1e-15, 1e-15, 1e-15]), 1.0).tolist()
    [True, False, False]
    """
    return approximate > radius * weight_norm


def weights_in_floats(weights: list[int], norm_sq: int) -> tuple[Any, float] | None:
    """``(Ŵ, n_W)``, the nearest doubles of W and a bound n_W >= ‖W‖, or None when they would not be finite.

    Examples
    --------
    >>> W, n = weights_in_floats([3, 4], 25)
    >>> W.tolist(), 5 < n < 5.0001
    ([3.0, 4.0], True)
    >>> weights_in_floats([2**600], 2**1200) is None
    True
    """
    if norm_sq.bit_length() > 1000:
        return None
    return np.array([float(v) for v in weights], dtype=np.float64), float(norm_above(norm_sq))


def usable(max_norm_sq: int, norm_sq: int, d: int) -> bool:
    """Whether no float of the filter can overflow: ‖z‖²·‖W‖²·d² < 2^2000 (then ‖z‖·‖W‖·d < 2^1000).

    Examples
    --------
    >>> usable(2**72, 2**200, 30), usable(2**1000, 2**1000, 30)
    (True, False)
    """
    return (max_norm_sq * norm_sq * max(d, 1) ** 2).bit_length() <= 2000

