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
/* 1024 bits: past it, the checker replays in Python integers (check/wide_replay.py). A run checked
 * against a certified max-margin separator (entries of hundreds of bits) needs up to about that. */
#define LIMBS_MAX 16

typedef unsigned __int128 uint128;

/* Every function is inlined into a replay made for one K (see check_wide): K is then a constant, and
 * the compiler unrolls each loop over the limbs. */
#define LB_INLINE static inline __attribute__((always_inline))

LB_INLINE int
lb_negative(const uint64_t *a, int K)
{
    return (int64_t)a[K - 1] < 0;
}

/* -1, 0 or 1. */
LB_INLINE int
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

LB_INLINE void
lb_set(uint64_t *r, int64_t v, int K)
{
    r[0] = (uint64_t)v;
    for (int i = 1; i < K; i++) {
        r[i] = v < 0 ? UINT64_MAX : 0;
    }
}

/* a < b, a == b (signed): the top limbs compared as signed, the others as unsigned. */
LB_INLINE int
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

LB_INLINE int
lb_equal(const uint64_t *a, const uint64_t *b, int K)
{
    return memcmp(a, b, (size_t)K * sizeof(uint64_t)) == 0;
}

/* r = a + b; 1 if the sum leaves K limbs (two operands of one sign, a result of the other).
 * r may be a or b: each limb is read before it is written. */
LB_INLINE int
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
LB_INLINE int
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
LB_INLINE void
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
LB_INLINE void
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
LB_INLINE int
lb_neg(uint64_t *r, const uint64_t *a, int K)
{
    const int sa = lb_negative(a, K);
    lb_negate(r, a, K);
    return sa && lb_negative(r, K);
}

/* The number of limbs below the highest non-zero one, plus one (0 for 0). */
LB_INLINE int
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
LB_INLINE void
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
LB_INLINE int
lb_fits(const uint64_t *m, int width, int K)
{
    for (int i = K; i < width; i++) {
        if (m[i] != 0) {
            return 0;
        }
    }
    return (int64_t)m[K - 1] >= 0;
}

/* Does a K-limb value fit in int64 (every limb above the lowest extends its sign)? */
LB_INLINE int
lb_fits64(const uint64_t *a, int K)
{
    const uint64_t extend = (int64_t)a[0] < 0 ? UINT64_MAX : 0;
    for (int i = 1; i < K; i++) {
        if (a[i] != extend) {
            return 0;
        }
    }
    return 1;
}

/* r = a * b; 1 if the product leaves K limbs. */
LB_INLINE int
lb_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, int K)
{
    if (K >= 2 && lb_fits64(a, K) && lb_fits64(b, K)) { /* (N, k, a: most factors are small) */
        const int128 p = (int128)(int64_t)a[0] * (int64_t)b[0]; /* |p| <= 2^126: exact */
        r[0] = (uint64_t)p;
        r[1] = (uint64_t)((uint128)p >> 64);
        for (int i = 2; i < K; i++) {
            r[i] = p < 0 ? UINT64_MAX : 0;
        }
        return 0;
    }
    if (K >= 2 && (lb_fits64(a, K) || lb_fits64(b, K))) { /* (N times a wide constant: K word products) */
        const uint64_t *x = lb_fits64(a, K) ? b : a;
        const int64_t v = (int64_t)(x == a ? b : a)[0];
        const uint64_t mv = v < 0 ? -(uint64_t)v : (uint64_t)v; /* |-2^63| = 2^63 fits unsigned */
        uint64_t mx[LIMBS_MAX], q[LIMBS_MAX + 1];
        lb_magnitude(mx, x, K);
        uint64_t carry = 0;
        for (int i = 0; i < K; i++) {
            const uint128 t = (uint128)mx[i] * mv + carry;
            q[i] = (uint64_t)t;
            carry = (uint64_t)(t >> 64);
        }
        q[K] = carry;
        if (!lb_fits(q, K + 1, K)) {
            return 1;
        }
        if (lb_negative(x, K) != (v < 0)) {
            lb_negate(r, q, K);
        }
        else {
            memcpy(r, q, (size_t)K * sizeof(uint64_t));
        }
        return 0;
    }
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
LB_INLINE int
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

/* Does every value of `count` K-limb values fit in 128 bits (its limbs from the third on extend the second's sign)? */
static int
lb_all_fit128(const uint64_t *a, Py_ssize_t count, int K)
{
    for (Py_ssize_t v = 0; v < count; v++) {
        const uint64_t *x = a + v * K, extend = (int64_t)(K > 1 ? x[1] : x[0]) < 0 ? UINT64_MAX : 0;
        for (int i = 2; i < K; i++) {
            if (x[i] != extend) {
                return 0;
            }
        }
    }
    return 1;
}

/* A K-limb value known to fit in 128 bits, as int128. */
LB_INLINE int128
lb_get128(const uint64_t *a, int K)
{
    const uint64_t high = K > 1 ? a[1] : ((int64_t)a[0] < 0 ? UINT64_MAX : 0);
    return (int128)(((uint128)high << 64) | a[0]);
}

/* *s = z . w (z_j in kz limbs, w_j in K) where every z_j and w_j fits in 128 bits (|z_j|, |w_j| <= 2^127, so each
 * product is below 2^254 in magnitude). Each product p, in 256-bit two's complement, is made from the unsigned
 * word products without branching on signs (the unsigned product, less b*2^128 for a < 0 and a*2^128 for b < 0):
 * p = w0 + w1*2^64 + t*2^128 with words w0, w1 and t = floor(p / 2^128), a signed 128-bit value. The words
 * w0 and w1 are summed in two unsigned 128-bit columns (no carry out for fewer than 2^64 terms) and the t in
 * one signed 128-bit sum whose every addition is checked: three accumulators, which the compiler keeps in
 * registers (four columns and a count of negative products did not fit them, and were summed through
 * memory). 1 if the exact sum leaves K limbs; 2 if the sum of the t leaves 128 bits (|z.w| near 2^255:
 * the caller then takes the dot product in K limbs, lb_dot, which is exact whatever the width). */
LB_INLINE int
lb_dot128(uint64_t *s, const uint64_t *z, int kz, const uint64_t *w, Py_ssize_t d, int K)
{
    uint128 col0 = 0, col1 = 0;
    int128 tops = 0;
    int overflow = 0;
    for (Py_ssize_t j = 0; j < d; j++) {
        const uint128 a = (uint128)lb_get128(z + j * kz, kz), b = (uint128)lb_get128(w + j * K, K);
        const uint64_t a0 = (uint64_t)a, a1 = (uint64_t)(a >> 64), b0 = (uint64_t)b, b1 = (uint64_t)(b >> 64);
        const uint128 p00 = (uint128)a0 * b0, p01 = (uint128)a0 * b1, p10 = (uint128)a1 * b0, p11 = (uint128)a1 * b1;
        const uint128 mid = (p00 >> 64) + (uint64_t)p01 + (uint64_t)p10;
        const uint128 high = (mid >> 64) + (p01 >> 64) + (p10 >> 64) + p11;
        const uint128 fix = (b & (uint128)(int128)((int64_t)a1 >> 63)) + (a & (uint128)(int128)((int64_t)b1 >> 63));
        col0 += (uint64_t)p00;
        col1 += (uint64_t)mid;
        overflow |= __builtin_add_overflow(tops, (int128)(high - fix), &tops); /* high - fix: floor(p / 2^128) */
    }
    /* sum = col0 + col1*2^64 + tops*2^128: four words, two's complement */
    uint64_t acc[4];
    acc[0] = (uint64_t)col0;
    const uint128 carry = (col0 >> 64) + col1;
    acc[1] = (uint64_t)carry;
    int128 top;
    overflow |= __builtin_add_overflow(tops, (int128)(carry >> 64), &top);
    if (overflow) {
        return 2;
    }
    acc[2] = (uint64_t)top;
    acc[3] = (uint64_t)((uint128)top >> 64);
    const uint64_t extend = top < 0 ? UINT64_MAX : 0;
    for (int i = 0; i < K; i++) {
        s[i] = i < 4 ? acc[i] : extend;
    }
    for (int i = K; i < 4; i++) {
        if (acc[i] != ((int64_t)s[K - 1] < 0 ? UINT64_MAX : 0)) {
            return 1;
        }
    }
    return 0;
}

/* r = a + b for values that fit in 128 bits, a and r in K >= 2 limbs, b in kb: in int128, 1 if the sum
 * leaves it (the caller then adds in K limbs). */
LB_INLINE int
lb_add128(uint64_t *r, const uint64_t *a, const uint64_t *b, int kb, int K)
{
    int128 sum;
    if (__builtin_add_overflow(lb_get128(a, K), lb_get128(b, kb), &sum)) {
        return 1;
    }
    r[0] = (uint64_t)sum;
    r[1] = (uint64_t)((uint128)sum >> 64);
    for (int i = 2; i < K; i++) {
        r[i] = sum < 0 ? UINT64_MAX : 0;
    }
    return 0;
}

/* r = a read from `from` limbs (sign-extended, or checked to fit); 1 if it does not fit K. */
LB_INLINE int
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
