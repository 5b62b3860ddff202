/*
 * _limbs.h: the checker's own fixed-width integers, K 64-bit limbs (K <= LIMBS_MAX), for the
 * replay past 128 bits (check_wide in _replay.c, which includes it once).
 *
 * A value is K uint64_t, lowest first, two's complement over all K: the layout of
 * verify_perceptron.data.integers.as_limbs. Every operation that could leave K limbs says so
 * (returns 1) instead of wrapping, and its caller stops there: the update is then the Python
 * checker's to decide. Some results that would fit (a product of exactly -2^(64K-1)) are reported
 * as not fitting too: stopping early is always safe, continuing past an overflow never is.
 *
 * This is deliberately not the engine's multi-word arithmetic (data/_wide.h, run/_scan.c): the
 * checker is what catches an engine bug, so a mistake in one cannot hide the same mistake in the
 * other. The only primitive they share is the hardware's 64 x 64 -> 128-bit product.
 */

#ifndef VERIFY_PERCEPTRON_LIMBS_H
#define VERIFY_PERCEPTRON_LIMBS_H

#include <stdint.h>
#include <string.h>

#if SCAN_WIDE
/* 512 bits: past it, the checker replays in Python integers (check/wide_replay.py). */
#define LIMBS_MAX 8

typedef unsigned __int128 uint128;

static inline int
lb_negative(const uint64_t *a, int K)
{
    return (int64_t)a[K - 1] < 0;
}

/* -1, 0 or 1. */
static inline int
lb_sign(const uint64_t *a, int K)
{
    if (lb_negative(a, K)) {
        return -1;
    }
    for (int i = 0; i < K; i++) {
        if (a[i] != 0) {
            return 1;
        }
    }
    return 0;
}

static inline void
lb_set(uint64_t *r, int64_t v, int K)
{
    r[0] = (uint64_t)v;
    for (int i = 1; i < K; i++) {
        r[i] = v < 0 ? UINT64_MAX : 0;
    }
}

/* a < b, a == b (signed): the top limbs compared as signed, the others as unsigned. */
static inline int
lb_less(const uint64_t *a, const uint64_t *b, int K)
{
    if (a[K - 1] != b[K - 1]) {
        return (int64_t)a[K - 1] < (int64_t)b[K - 1];
    }
    for (int i = K - 2; i >= 0; i--) {
        if (a[i] != b[i]) {
            return a[i] < b[i];
        }
    }
    return 0;
}

static inline int
lb_equal(const uint64_t *a, const uint64_t *b, int K)
{
    return memcmp(a, b, (size_t)K * sizeof(uint64_t)) == 0;
}

/* r = a + b; 1 if the sum leaves K limbs (two operands of one sign, a result of the other).
 * r may be a or b: each limb is read before it is written. */
static inline int
lb_add(uint64_t *r, const uint64_t *a, const uint64_t *b, int K)
{
    const int sa = lb_negative(a, K), sb = lb_negative(b, K);
    uint64_t carry = 0;
    for (int i = 0; i < K; i++) {
        const uint128 t = (uint128)a[i] + b[i] + carry;
        r[i] = (uint64_t)t;
        carry = (uint64_t)(t >> 64);
    }
    return sa == sb && lb_negative(r, K) != sa;
}

/* r = a - b; 1 if the difference leaves K limbs (operands of opposite signs, a result of b's). */
static inline int
lb_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, int K)
{
    const int sa = lb_negative(a, K), sb = lb_negative(b, K);
    uint64_t borrow = 0;
    for (int i = 0; i < K; i++) {
        const uint64_t x = a[i], y = b[i];
        r[i] = x - y - borrow;
        borrow = (x < y) || (x == y && borrow);
    }
    return sa != sb && lb_negative(r, K) != sa;
}

/* |a| as K unsigned limbs (|-2^(64K-1)| = 2^(64K-1) still fits unsigned). */
static inline void
lb_magnitude(uint64_t *r, const uint64_t *a, int K)
{
    if (!lb_negative(a, K)) {
        memcpy(r, a, (size_t)K * sizeof(uint64_t));
        return;
    }
    uint64_t carry = 1;
    for (int i = 0; i < K; i++) {
        const uint64_t v = ~a[i] + carry;
        carry = carry && v == 0;
        r[i] = v;
    }
}

/* r = -a in place of a magnitude m that fits the signed range: two's complement. */
static inline void
lb_negate(uint64_t *r, const uint64_t *m, int K)
{
    uint64_t carry = 1;
    for (int i = 0; i < K; i++) {
        const uint64_t v = ~m[i] + carry;
        carry = carry && v == 0;
        r[i] = v;
    }
}

/* r = -a; 1 if a is -2^(64K-1), whose negation does not fit. */
static inline int
lb_neg(uint64_t *r, const uint64_t *a, int K)
{
    const int sa = lb_negative(a, K);
    lb_negate(r, a, K);
    return sa && lb_negative(r, K);
}

/* The number of limbs below the highest non-zero one, plus one (0 for 0). */
static inline int
lb_length(const uint64_t *m, int K)
{
    int n = K;
    while (n > 0 && m[n - 1] == 0) {
        n--;
    }
    return n;
}

/* acc (unsigned, `width` limbs) += x * y for unsigned magnitudes of lengths nx, ny
 * (nx + ny <= width; the caller sizes acc so that the sum cannot carry out of it). */
static inline void
lb_mul_add(uint64_t *acc, int width, const uint64_t *x, int nx, const uint64_t *y, int ny)
{
    for (int i = 0; i < nx; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < ny; j++) {
            const uint128 t = (uint128)x[i] * y[j] + acc[i + j] + carry;
            acc[i + j] = (uint64_t)t;
            carry = (uint64_t)(t >> 64);
        }
        for (int j = i + ny; carry != 0 && j < width; j++) {
            const uint128 t = (uint128)acc[j] + carry;
            acc[j] = (uint64_t)t;
            carry = (uint64_t)(t >> 64);
        }
    }
}

/* Does an unsigned magnitude of `width` limbs fit K signed limbs (below 2^(64K-1))? */
static inline int
lb_fits(const uint64_t *m, int width, int K)
{
    for (int i = K; i < width; i++) {
        if (m[i] != 0) {
            return 0;
        }
    }
    return (int64_t)m[K - 1] >= 0;
}

/* r = a * b; 1 if the product leaves K limbs. */
static inline int
lb_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, int K)
{
    uint64_t ma[LIMBS_MAX], mb[LIMBS_MAX], p[2 * LIMBS_MAX] = {0};
    const int negative = lb_negative(a, K) != lb_negative(b, K);
    lb_magnitude(ma, a, K);
    lb_magnitude(mb, b, K);
    const int na = lb_length(ma, K), nb = lb_length(mb, K);
    if (na + nb > K + 1) {
        return 1; /* at least 2^(64(na + nb - 2)) >= 2^(64K): past K limbs */
    }
    lb_mul_add(p, 2 * K, ma, na, mb, nb);
    if (!lb_fits(p, 2 * K, K)) {
        return 1;
    }
    if (negative) {
        lb_negate(r, p, K);
    }
    else {
        memcpy(r, p, (size_t)K * sizeof(uint64_t));
    }
    return 0;
}

/* *s = z . w over d entries of K limbs each (z_j at z + j*K); 1 if the exact value leaves K limbs.
 * The positive and the negative products are summed apart, as magnitudes in 2K + 1 limbs (room for
 * 2^64 products of 2K limbs), and subtracted once: no partial sum can wrap. */
static int
lb_dot(uint64_t *s, const uint64_t *z, const uint64_t *w, Py_ssize_t d, int K)
{
    const int width = 2 * K + 1;
    uint64_t plus[2 * LIMBS_MAX + 1] = {0}, minus[2 * LIMBS_MAX + 1] = {0};
    uint64_t mz[LIMBS_MAX], mw[LIMBS_MAX];
    for (Py_ssize_t j = 0; j < d; j++) {
        const uint64_t *zj = z + j * K, *wj = w + j * K;
        lb_magnitude(mz, zj, K);
        const int nz = lb_length(mz, K);
        if (nz == 0) {
            continue;
        }
        lb_magnitude(mw, wj, K);
        const int nw = lb_length(mw, K);
        if (nw == 0) {
            continue;
        }
        lb_mul_add(lb_negative(zj, K) != lb_negative(wj, K) ? minus : plus, width, mz, nz, mw, nw);
    }
    /* plus - minus, as a magnitude and a sign */
    const int negative = lb_less(plus, minus, width) ; /* both below 2^(64 width - 1): signed compare is unsigned */
    const uint64_t *big = negative ? minus : plus, *small = negative ? plus : minus;
    uint64_t diff[2 * LIMBS_MAX + 1];
    uint64_t borrow = 0;
    for (int i = 0; i < width; i++) {
        const uint64_t x = big[i], y = small[i];
        diff[i] = x - y - borrow;
        borrow = (x < y) || (x == y && borrow);
    }
    if (!lb_fits(diff, width, K)) {
        return 1;
    }
    if (negative) {
        lb_negate(s, diff, K);
    }
    else {
        memcpy(s, diff, (size_t)K * sizeof(uint64_t));
    }
    return 0;
}

/* r = a read from `from` limbs (sign-extended, or checked to fit); 1 if it does not fit K. */
static inline int
lb_resize(uint64_t *r, const int64_t *a, int from, int K)
{
    const uint64_t extend = a[from - 1] < 0 ? UINT64_MAX : 0;
    for (int i = 0; i < K; i++) {
        r[i] = i < from ? (uint64_t)a[i] : extend;
    }
    for (int i = K; i < from; i++) {
        if ((uint64_t)a[i] != ((int64_t)a[K - 1] < 0 ? UINT64_MAX : 0)) {
            return 1;
        }
    }
    return 0;
}
#endif

#endif
