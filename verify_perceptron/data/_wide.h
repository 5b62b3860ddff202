/*
 * Fixed-width multi-limb signed integers, exactly, for the compiled passes whose
 * integers pass 128 bits (dyadic floats over one power of two, decimals with long
 * numerators). Compiled into the extensions that include it, as ../data/_exact.h is.
 *
 * A number is n 64-bit limbs, lowest first, two's complement over all n: the layout
 * of verify_perceptron.data.integers.as_limbs, which score_values joins back. Every
 * operation here works modulo 2^(64 n); the callers' preconditions (bounds they track
 * exactly: max ||z||^2, ||W||^2 and Cauchy-Schwarz) make every true result fit, so
 * that each result is the exact one. Products are of magnitudes (unsigned), summed
 * into separate positive and negative accumulators, so no product is ever negated.
 *
 * Code of our own rather than GMP's mpn layer or FLINT: the widths are tiny (2 to 8
 * limbs), fixed for a whole pass, and the work is one dot product per row, where a
 * library call per product (and, for python-flint, a Python object per entry) would
 * cost more than the arithmetic; nothing needs linking, so the extension still builds
 * wherever a compiler has unsigned __int128.
 */
#ifndef VERIFY_PERCEPTRON_WIDE_H
#define VERIFY_PERCEPTRON_WIDE_H

#include <math.h>
#include <stdint.h>
#include <string.h>

/* The widest number: scores, norms and ||W||^2 in at most 8 limbs (512 bits); an entry of z
 * or of W in at most 4 (256 bits). Past these the engine goes on in Python integers. */
#define WIDE_MAX_LIMBS 8
#define WIDE_MAX_ENTRY 4

#define WIDE_SHARED static inline __attribute__((unused))

/* Is a (n limbs) negative? Its top limb's sign bit. */
WIDE_SHARED int
wide_negative(const uint64_t *a, int n)
{
    return (int64_t)a[n - 1] < 0;
}

WIDE_SHARED int
wide_is_zero(const uint64_t *a, int n)
{
    uint64_t any = 0;
    for (int k = 0; k < n; k++) {
        any |= a[k];
    }
    return any == 0;
}

/* out = a (n_a limbs) sign-extended (or cut) to n limbs. */
WIDE_SHARED void
wide_extend(uint64_t *out, int n, const uint64_t *a, int n_a)
{
    const uint64_t fill = wide_negative(a, n_a) ? ~(uint64_t)0 : 0;
    for (int k = 0; k < n; k++) {
        out[k] = k < n_a ? a[k] : fill;
    }
}

/* out = -a, modulo 2^(64 n) (out may be a). */
WIDE_SHARED void
wide_negate(uint64_t *out, const uint64_t *a, int n)
{
    unsigned carry = 1;
    for (int k = 0; k < n; k++) {
        const uint64_t v = ~a[k] + carry;
        carry = carry && v == 0;
        out[k] = v;
    }
}

/* acc += a, modulo 2^(64 n). */
WIDE_SHARED void
wide_add(uint64_t *acc, const uint64_t *a, int n)
{
    unsigned carry = 0;
    for (int k = 0; k < n; k++) {
        const uint64_t s = acc[k] + a[k];
        const unsigned c1 = s < a[k];
        const uint64_t t = s + carry;
        carry = c1 | (t < s);
        acc[k] = t;
    }
}

/* acc -= a, modulo 2^(64 n). */
WIDE_SHARED void
wide_sub(uint64_t *acc, const uint64_t *a, int n)
{
    unsigned borrow = 0;
    for (int k = 0; k < n; k++) {
        const uint64_t x = acc[k], y = a[k];
        const uint64_t t = x - y;
        const unsigned b1 = x < y;
        acc[k] = t - borrow;
        borrow = b1 | (t < (uint64_t)borrow);
    }
}

/* The signed comparison of a and b (n limbs each): -1, 0 or 1. */
WIDE_SHARED int
wide_compare(const uint64_t *a, const uint64_t *b, int n)
{
    if ((int64_t)a[n - 1] != (int64_t)b[n - 1]) {
        return (int64_t)a[n - 1] < (int64_t)b[n - 1] ? -1 : 1;
    }
    for (int k = n - 2; k >= 0; k--) {
        if (a[k] != b[k]) {
            return a[k] < b[k] ? -1 : 1;
        }
    }
    return 0;
}

/* acc += a * b for magnitudes a (n_a limbs) and b (n_b limbs), modulo 2^(64 n): the limb products
 * that land at or past limb n are left out, which changes nothing modulo 2^(64 n). */
WIDE_SHARED void
wide_mul_add(uint64_t *acc, int n, const uint64_t *a, int n_a, const uint64_t *b, int n_b)
{
    for (int i = 0; i < n_a && i < n; i++) {
        if (a[i] == 0) {
            continue;
        }
        uint64_t carry = 0;
        int k = i;
        for (int j = 0; j < n_b && k < n; j++, k++) {
            const unsigned __int128 p = (unsigned __int128)a[i] * b[j] + acc[k] + carry;
            acc[k] = (uint64_t)p;
            carry = (uint64_t)(p >> 64);
        }
        for (; carry != 0 && k < n; k++) { /* the carry out of the row, on up */
            const uint64_t v = acc[k] + carry;
            carry = v < carry;
            acc[k] = v;
        }
    }
}

/* |a| (n limbs, two's complement) into mag (n limbs); returns whether a < 0. */
WIDE_SHARED int
wide_magnitude(uint64_t *mag, const uint64_t *a, int n)
{
    if (wide_negative(a, n)) {
        wide_negate(mag, a, n);
        return 1;
    }
    memcpy(mag, a, (size_t)n * sizeof(uint64_t));
    return 0;
}

/* 2^k as a double, for 0 <= k <= 1023, from its bits (ldexp is a library call; this is one move). */
WIDE_SHARED double
wide_power_of_two(int k)
{
    const uint64_t bits = (uint64_t)(1023 + k) << 52;
    double x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

/* The nearest double to the magnitude mag (n limbs, read unsigned), rounded once: the top 64 bits
 * with every lower bit folded into the last one (a sticky bit, 11 places below the double's last
 * bit, so the one rounding of the conversion is the correct one), then scaled by a power of two,
 * exactly (at most 2^(64 WIDE_MAX_LIMBS - 64), far from overflow). As Python's float(int). */
WIDE_SHARED double
wide_unsigned_to_double(const uint64_t *mag, int n)
{
    int top = n - 1;
    while (top > 0 && mag[top] == 0) {
        top--;
    }
    if (top == 0) {
        return (double)mag[0];
    }
    const int lead = __builtin_clzll(mag[top]); /* mag[top] != 0 here */
    uint64_t bits = lead == 0 ? mag[top] : (mag[top] << lead) | (mag[top - 1] >> (64 - lead));
    uint64_t rest = lead == 0 ? mag[top - 1] : mag[top - 1] << lead;
    for (int k = top - 2; k >= 0; k--) {
        rest |= mag[k];
    }
    bits |= rest != 0;
    return (double)bits * wide_power_of_two(64 * (top - 1) + (64 - lead));
}

/* The nearest double to a (n limbs, two's complement). */
WIDE_SHARED double
wide_to_double(const uint64_t *a, int n)
{
    uint64_t mag[WIDE_MAX_LIMBS];
    const int negative = wide_magnitude(mag, a, n);
    const double x = wide_unsigned_to_double(mag, n);
    return negative ? -x : x;
}

#endif /* VERIFY_PERCEPTRON_WIDE_H */
