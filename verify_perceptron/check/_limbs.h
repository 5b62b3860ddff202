/*
 * _limbs.h: the checker's own fixed-width integers, K 64-bit limbs (K <= LIMBS_MAX), for the
 * replay past 128 bits (check_wide in _replay.c, which includes it once).
 *
 * A value is K uint64_t, lowest first, two's complement over all K: the layout of
 * verify_perceptron.data.integers.as_limbs. Every operation that could leave K limbs says so
 * (returns 1) instead of wrapping, and its caller stops there: the update is then the Python
 * checker's to decide. Some results that would fit (a product of exactly -2^(64K-1)) are reported
 * as not fitting too: stopping early is always safe, continuing past an overflow never is.
 * The two exceptions are lb_dot_mod, a dot product mod 2^(64K), and lb_add_mod, a sum mod 2^(64K), for a
 * caller that knows the exact value fits K limbs (check_wide knows it from the norms it reads: Cauchy-Schwarz
 * for z.W, ||W + z||^2 for W_j + z_j; see there).
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
    for (int i = 0; i < K; i++) { /* (word sums and carries, not a 128-bit sum, which GCC spills to the stack) */
        uint64_t t;
        const uint64_t out = __builtin_add_overflow(a[i], b[i], &t);
        const uint64_t out2 = __builtin_add_overflow(t, carry, &r[i]);
        carry = out | out2;
    }
    return sa == sb && lb_negative(r, K) != sa;
}

/* r = a - b; 1 if the difference leaves K limbs (operands of opposite signs, a result of b's). */
LB_INLINE int
lb_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, int K)
{
    const int sa = lb_negative(a, K), sb = lb_negative(b, K);
    uint64_t borrow = 0;
    for (int i = 0; i < K; i++) { /* (as lb_add: words and borrows) */
        uint64_t t;
        const uint64_t out = __builtin_sub_overflow(a[i], b[i], &t);
        const uint64_t out2 = __builtin_sub_overflow(t, borrow, &r[i]);
        borrow = out | out2;
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

/* r += b mod 2^(64K), r in K limbs, b in kb <= K (sign-extended): for a caller that knows the sum fits K limbs. */
LB_INLINE void
lb_add_mod(uint64_t *r, const uint64_t *b, int kb, int K)
{
    const uint64_t extend = (uint64_t)((int64_t)b[kb - 1] >> 63);
    uint64_t carry = 0;
    for (int i = 0; i < K; i++) {
        uint64_t t;
        const uint64_t out = __builtin_add_overflow(r[i], i < kb ? b[i] : extend, &t);
        const uint64_t out2 = __builtin_add_overflow(t, carry, &r[i]);
        carry = out | out2;
    }
}

/* acc += v * 2^(64 c) mod 2^(64K), for a word v: a carry through the words above c. */
LB_INLINE void
lb_add_word_at(uint64_t *acc, int c, uint64_t v, const int K)
{
    uint64_t carry = __builtin_add_overflow(acc[c], v, &acc[c]);
    for (int i = c + 1; i < K; i++) {
        carry = __builtin_add_overflow(acc[i], carry, &acc[i]);
    }
}

/* acc += (high 2^64 + low) 2^(64 c) mod 2^(64K), c < K - 1, for the two words of a word product: high is at most
 * 2^64 - 2, so high plus the carry from low is still a word. */
LB_INLINE void
lb_add_product_at(uint64_t *acc, int c, uint64_t low, uint64_t high, const int K)
{
    const uint64_t carry = __builtin_add_overflow(acc[c], low, &acc[c]);
    lb_add_word_at(acc, c + 1, high + carry, K);
}

/* acc -= v * 2^(64 c) mod 2^(64K), for a word v: a borrow through the words above c. */
LB_INLINE void
lb_sub_word_at(uint64_t *acc, int c, uint64_t v, const int K)
{
    uint64_t borrow = __builtin_sub_overflow(acc[c], v, &acc[c]);
    for (int i = c + 1; i < K; i++) {
        borrow = __builtin_sub_overflow(acc[i], borrow, &acc[i]);
    }
}

/* acc += z . w mod 2^(64K), z_j in exactly KZ limbs (a constant
 * where it is inlined), read as KZ unsigned words: its value plus 2^(64 KZ) where it is negative, taken back here
 * as w_j 2^(64 KZ); w_j as K words (two's complement, which is its value mod 2^(64K)). Word products at word
 * c = i + l < K - 1 are added whole, at c = K - 1 only their low word (the high word is a multiple of 2^(64K)),
 * past it not at all. Every step is exact mod 2^(64K). */
LB_INLINE void
lb_dot_words(uint64_t *acc, const uint64_t *z, const int KZ, const uint64_t *w, Py_ssize_t d, const int K)
{
    for (Py_ssize_t j = 0; j < d; j++) {
        const uint64_t *zj = z + j * KZ, *wj = w + j * K;
        for (int i = 0; i < KZ; i++) {
            for (int l = 0; i + l < K; l++) {
                if (i + l < K - 1) {
                    const uint128 p = (uint128)zj[i] * wj[l];
                    lb_add_product_at(acc, i + l, (uint64_t)p, (uint64_t)(p >> 64), K);
                }
                else {
                    acc[K - 1] += zj[i] * wj[l];
                }
            }
        }
        if (KZ < K) {
            const uint64_t sign = (uint64_t)((int64_t)zj[KZ - 1] >> 63);
            for (int l = 0; l + KZ < K; l++) {
                lb_sub_word_at(acc, l + KZ, wj[l] & sign, K);
            }
        }
    }
}

/* *s = z . w mod 2^(64K), z_j in kz <= K limbs, w_j in K, without a check: the caller must know that the exact
 * value fits K limbs (check_wide knows it by Cauchy-Schwarz: |z.w|^2 <= ||z||^2 ||w||^2, both factors below
 * 2^(64K-1), so |z.w| < 2^(64K-1)); it is then the unique K-limb value equal to the sum mod 2^(64K), summed here
 * in K words with their carries (which GCC keeps in registers: 128-bit column sums, as before, it spilled to the
 * stack at every product; two sums of the even and odd entries side by side were slower). */
LB_INLINE void
lb_dot_mod(uint64_t *s, const uint64_t *z, int kz, const uint64_t *w, Py_ssize_t d, const int K)
{
    uint64_t acc[LIMBS_MAX];
    for (int c = 0; c < K; c++) { /* (only K: an initializer clears all LIMBS_MAX, at every update) */
        acc[c] = 0;
    }
    if (kz == 2 && K > 2) {
        lb_dot_words(acc, z, 2, w, d, K);
    }
    else if (kz == 1) {
        lb_dot_words(acc, z, 1, w, d, K);
    }
    else {
        lb_dot_words(acc, z, K, w, d, K);
    }
    memcpy(s, acc, (size_t)K * sizeof(uint64_t));
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
