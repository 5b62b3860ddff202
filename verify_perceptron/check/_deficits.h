/*
 * _deficits.h: the soft-margin check's per-sample figures from margins held in 64-bit limbs (included once by
 * _replay.c, whose module exposes it; the Python side is check/soft_squares.py's limb_squares).
 *
 * The margins m_i = z_i . U of a reference u on samples held in limbs (randn: about 141 bits) are the rows of an
 * (n, K) int64 array, two's complement over K limbs, lowest first (data/limb_margins.py). For a target rho > 0
 * (K limbs too) each sample's deficit is d_i = max(0, rho - m_i), exact in K + 1 limbs (|rho|, |m| < 2^(64 K - 1)).
 *
 * deficit_top() gives the largest d (the caller sizes the pieces from its square). deficit_squares() gives, for
 * deficits below 2^192, d^2 in six limbs (schoolbook, each partial product and carry below 2^128) cut into
 * `count` pieces of 46 bits (SoftMarginCheck._pieces's cut: bits [46 k, 46 k + 46)), and the quotient
 * d^2 / rho^2 in the x87's extended format (a 64-bit significand):
 *
 *   d~ and rho~ are d and rho cut to their leading 64 bits (d~ = d (1 - a), 0 <= a < 2^-63, likewise b for rho;
 *   exact below 2^64), t = d~ / rho~ rounded once (|c| <= 2^-64), q = t * t rounded once (|e| <= 2^-64). Then
 *   q / Q = ((1 - a) / (1 - b))^2 (1 + c)^2 (1 + e), and as a and b have one sign, |ln(q / Q)| <= 2 max(a, b)
 *   (1 + 2^-62) + 3 * 2^-64 (1 + 2^-62) < 7.01 * 2^-64, so |q - Q| < 7.02 * 2^-64 Q: within 7.02 units of the
 *   last place of Q's binade's 64-bit significands (Q < 2^(E+1), a unit 2^(E-63)). A double's rounding boundary
 *   is a midpoint (a 64-bit significand ending in the 11 bits 10000000000), never a binade's edge (a double); if
 *   q and Q lie in one binade and no midpoint is within 7.02 units of q, they round to the same double; if q is
 *   just below the binade of Q, q's units are half as large and the nearest midpoints are 1024 units away, and
 *   likewise above. So where q's last 11 bits are more than DEFICIT_NEAR (16, over twice 7.02) units from 1024,
 *   the double nearest q is the double nearest Q, that is Python's int / int; the others are flagged (near) and
 *   the caller divides them in Python integers. About 1.6% of them.
 *
 * rho < 2^192 and d < 2^192 keep both quotients far inside the extended and double ranges (Q in [2^-384, 2^384)
 * for d > 0). Nothing here decides a verdict: the exact sums of the pieces do (check/soft_margin.py).
 */

#ifndef VERIFY_PERCEPTRON_DEFICITS_H
#define VERIFY_PERCEPTRON_DEFICITS_H

#include <float.h>
#include <math.h>

/* The nearness flagged (units of 2^-64); the most limbs of a margin (DEFICIT_MAX_LIMBS, 32) and of a deficit
 * squared (DEFICIT_WORDS, 3: d < 2^192) are defined in _soft.h, whose soft_chunk also squares deficits. */
#define DEFICIT_NEAR 16

/* d = rho - m over K + 1 limbs (rho >= 0 and m two's complement, K limbs each); whether d > 0. */
static int
deficit_of(const uint64_t *m, const uint64_t *rho, Py_ssize_t K, uint64_t *d)
{
    const uint64_t fill = (int64_t)m[K - 1] < 0 ? ~(uint64_t)0 : 0;
    uint64_t borrow = 0, any = 0;
    for (Py_ssize_t k = 0; k <= K; k++) {
        const uint64_t a = k < K ? rho[k] : 0, b = k < K ? m[k] : fill;
        const uint64_t t = a - b, r = t - borrow;
        borrow = (a < b) | (t < borrow);
        d[k] = r;
        any |= r;
    }
    return (int64_t)d[K] >= 0 && any != 0;
}

/* The margins (n, K) and rho (K,) views, checked: 1 <= K <= DEFICIT_MAX_LIMBS, rho > 0. */
static int
deficit_inputs(const char *func, PyObject *margins, PyObject *rho, Py_buffer *M, Py_buffer *R)
{
    if (get_array(func, "margins", margins, 2, INT64_ITEMS, 0, M) < 0) {
        return -1;
    }
    if (get_array(func, "rho", rho, 1, INT64_ITEMS, 0, R) < 0) {
        PyBuffer_Release(M);
        return -1;
    }
    const Py_ssize_t K = M->shape[1];
    const uint64_t *r = R->buf;
    int positive = 0;
    for (Py_ssize_t k = 0; k < R->shape[0]; k++) {
        positive |= r[k] != 0;
    }
    if (K < 1 || K > DEFICIT_MAX_LIMBS || R->shape[0] != K || (int64_t)r[K - 1] < 0 || !positive) {
        PyErr_Format(PyExc_ValueError, "%s(): margins (%zd, %zd) need 1 to %d limbs, and rho (%zd) as many, > 0",
                     func, M->shape[0], K, DEFICIT_MAX_LIMBS, R->shape[0]);
        PyBuffer_Release(M);
        PyBuffer_Release(R);
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(deficit_top_doc,
"deficit_top($module, margins, rho, /)\n"
"--\n"
"\n"
"The largest max(0, rho - m) over the rows m of margins (n, K) int64 limbs (two's complement over\n"
"K <= 32, lowest first), for rho (K,) int64 limbs > 0, as a Python int (0 for no rows).");

static PyObject *
deficit_top(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    static const char func[] = "deficit_top";
    Py_buffer M, R;
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "deficit_top() takes 2 arguments (margins, rho), got %zd", nargs);
        return NULL;
    }
    if (deficit_inputs(func, args[0], args[1], &M, &R) < 0) {
        return NULL;
    }
    const Py_ssize_t n = M.shape[0], K = M.shape[1];
    uint64_t d[DEFICIT_MAX_LIMBS + 1], top[DEFICIT_MAX_LIMBS + 1] = {0};
    Py_BEGIN_ALLOW_THREADS
    const uint64_t *m = M.buf;
    for (Py_ssize_t i = 0; i < n; i++, m += K) {
        if (!deficit_of(m, R.buf, K, d)) {
            continue;
        }
        for (Py_ssize_t k = K; k >= 0; k--) {  /* (both >= 0: compared as unsigned, from the top limb) */
            if (d[k] != top[k]) {
                if (d[k] > top[k]) {
                    memcpy(top, d, (size_t)(K + 1) * sizeof(uint64_t));
                }
                break;
            }
        }
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&M);
    PyBuffer_Release(&R);
#if PY_LITTLE_ENDIAN
    return _PyLong_FromByteArray((const unsigned char *)top, (size_t)(K + 1) * 8, 1, 0);
#else
    unsigned char bytes[8 * (DEFICIT_MAX_LIMBS + 1)];
    for (Py_ssize_t k = 0; k <= K; k++) {
        for (int b = 0; b < 8; b++) {
            bytes[8 * k + b] = (unsigned char)(top[k] >> (8 * b));
        }
    }
    return _PyLong_FromByteArray(bytes, (size_t)(K + 1) * 8, 1, 0);
#endif
}

/* The leading 64 bits of a (n limbs, > 0), cut, and the power of two they stand at: a ~ lead * 2^(*at). */
static uint64_t
deficit_lead(const uint64_t *a, int n, int *at)
{
    int top = n - 1;
    while (top > 0 && a[top] == 0) {
        top--;
    }
    const int bits = 64 * top + 64 - __builtin_clzll(a[top]);
    const int drop = bits > 64 ? bits - 64 : 0, w = drop >> 6, s = drop & 63;
    *at = drop;
    return s ? (a[w] >> s) | (a[w + 1] << (64 - s)) : a[w];
}

/* d^2 for a deficit d of three limbs (d < 2^192; 0 unless `is_short`) in six limbs (schoolbook, each partial
 * product and carry below 2^128) cut into `count` pieces of 46 bits (bits [46 k, 46 k + 46)); -1 where d^2 does
 * not fit them (nothing written then), else 0. */
static int
deficit_cut(const uint64_t *d, int is_short, Py_ssize_t count, int64_t *piece)
{
    uint64_t sq[2 * DEFICIT_WORDS] = {0};
    if (is_short) {
        for (int a = 0; a < DEFICIT_WORDS; a++) {
            uint64_t carry = 0;
            for (int b = 0; b < DEFICIT_WORDS; b++) {
                const unsigned __int128 t = (unsigned __int128)d[a] * d[b] + sq[a + b] + carry;
                sq[a + b] = (uint64_t)t;
                carry = (uint64_t)(t >> 64);
            }
            sq[a + DEFICIT_WORDS] = carry;
        }
    }
    for (Py_ssize_t k = 0; k < 2 * DEFICIT_WORDS; k++) {  /* d^2 must fit the pieces' 46 count bits */
        if (64 * k + 64 > SOFT_PIECE_BITS * count && (sq[k] >> (64 * k >= SOFT_PIECE_BITS * count ? 0
                : SOFT_PIECE_BITS * count - 64 * k)) != 0) {
            return -1;
        }
    }
    const uint64_t mask = ((uint64_t)1 << SOFT_PIECE_BITS) - 1;
    for (Py_ssize_t k = 0; k < count; k++) {
        const int at = (int)(SOFT_PIECE_BITS * k), w = at >> 6, s = at & 63;
        uint64_t value = sq[w] >> s;
        if (s + SOFT_PIECE_BITS > 64 && w + 1 < 2 * DEFICIT_WORDS) {
            value |= sq[w + 1] << (64 - s);
        }
        piece[k] = (int64_t)(value & mask);
    }
    return 0;
}

PyDoc_STRVAR(deficit_squares_doc,
"deficit_squares($module, margins, rho, pieces, over, near, /)\n"
"--\n"
"\n"
"For each row m of margins (n, K) int64 limbs and rho (K,) int64 limbs > 0 (as deficit_top), with\n"
"d = max(0, rho - m): pieces[i, k] = bits [46 k, 46 k + 46) of d^2 (pieces (n, count) int64,\n"
"1 <= count <= 8), over[i] the double nearest (d~ / rho~)^2 in extended precision (d~, rho~ the\n"
"leading 64 bits), near[i] = 1 where that may not be d^2 / rho^2 correctly rounded (its last 11 bits\n"
"within 16 units of a midpoint), else 0. Returns how many d are > 0. ValueError where rho or a d is\n"
"2^192 or more, or a d^2 does not fit the pieces; NotImplementedError without a 64-bit long double.");

static PyObject *
deficit_squares(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
#if LDBL_MANT_DIG == 64 && SCAN_WIDE
    static const char func[] = "deficit_squares";
    Py_buffer M, R, P = {0}, O = {0}, N = {0};
    PyObject *result = NULL;
    if (nargs != 5) {
        PyErr_Format(PyExc_TypeError, "deficit_squares() takes 5 arguments (margins, rho, pieces, over, near), "
                     "got %zd", nargs);
        return NULL;
    }
    if (deficit_inputs(func, args[0], args[1], &M, &R) < 0) {
        return NULL;
    }
    if (get_array(func, "pieces", args[2], 2, INT64_ITEMS, 1, &P) < 0
        || get_array(func, "over", args[3], 1, FLOAT64_ITEMS, 1, &O) < 0
        || get_array(func, "near", args[4], 1, FLAG_ITEMS, 1, &N) < 0) {
        goto done;
    }
    const Py_ssize_t n = M.shape[0], K = M.shape[1], count = P.shape[1];
    if (P.shape[0] != n || O.shape[0] != n || N.shape[0] != n || count < 1 || count > SOFT_PIECES_MAX) {
        PyErr_Format(PyExc_ValueError, "deficit_squares(): pieces (%zd, %zd), over (%zd) and near (%zd) must have "
                     "the margins' %zd rows, and 1 to 8 pieces", P.shape[0], count, O.shape[0], N.shape[0], n);
        goto done;
    }
    const uint64_t *r = R.buf;
    for (Py_ssize_t k = DEFICIT_WORDS; k < K; k++) {
        if (r[k]) {
            PyErr_Format(PyExc_ValueError, "deficit_squares(): rho passes 2^%d", 64 * DEFICIT_WORDS);
            goto done;
        }
    }
    int rho_at;
    const long double rho_lead = (long double)deficit_lead(r, (int)(K < DEFICIT_WORDS ? K : DEFICIT_WORDS), &rho_at);
    Py_ssize_t short_count = 0, bad = -1;
    Py_BEGIN_ALLOW_THREADS
    const uint64_t *m = M.buf;
    int64_t *piece = P.buf;
    double *over = O.buf;
    unsigned char *near = N.buf;
    uint64_t d[DEFICIT_MAX_LIMBS + 1] = {0};  /* (the limbs above K + 1 stay 0: d has three at least) */
    for (Py_ssize_t i = 0; i < n; i++, m += K, piece += count) {
        over[i] = 0.0;
        near[i] = 0;
        const int is_short = deficit_of(m, r, K, d);
        if (is_short) {
            for (Py_ssize_t k = DEFICIT_WORDS; k <= K; k++) {
                if (d[k]) {
                    bad = i;
                }
            }
            if (bad >= 0) {
                break;
            }
            short_count++;
            int d_at;
            const long double lead = (long double)deficit_lead(d, DEFICIT_WORDS, &d_at);
            const long double t = ldexpl(lead / rho_lead, d_at - rho_at);
            const long double q = t * t;
            int e;
            const uint64_t significand = (uint64_t)ldexpl(frexpl(q, &e), 64);
            const int last = (int)(significand & 2047);
            over[i] = (double)q;
            near[i] = last - 1024 <= DEFICIT_NEAR && 1024 - last <= DEFICIT_NEAR;
        }
        if (deficit_cut(d, is_short, count, piece) < 0) {  /* d^2 in six limbs, cut into the pieces */
            bad = i;
            break;
        }
    }
    Py_END_ALLOW_THREADS
    if (bad >= 0) {
        PyErr_Format(PyExc_ValueError, "deficit_squares(): row %zd's deficit passes 2^%d or its square %d pieces",
                     bad, 64 * DEFICIT_WORDS, (int)count);
        goto done;
    }
    result = PyLong_FromSsize_t(short_count);
done:
    PyBuffer_Release(&M);
    PyBuffer_Release(&R);
    PyBuffer_Release(&P);
    PyBuffer_Release(&O);
    PyBuffer_Release(&N);
    return result;
#else
    PyErr_SetString(PyExc_NotImplementedError, "deficit_squares() needs a 64-bit long double and __int128");
    return NULL;
#endif
}

PyDoc_STRVAR(deficit_pieces_doc,
"deficit_pieces($module, margins, rho, rows, pieces, /)\n"
"--\n"
"\n"
"deficit_squares' pieces on the rows asked for: for each t, d^2 = max(0, rho - m)^2 for the\n"
"margin m = margins[rows[t]] (margins (n, K) int64 limbs, rho (K,) > 0, as deficit_squares\n"
"reads them), cut into pieces[t] ((m, count) int64, 1 <= count <= 8) of 46 bits, lowest first.\n"
"Raises ValueError where a row is not one of the margins', or a deficit passes 2^192 or its\n"
"square the count pieces.");

static PyObject *
deficit_pieces(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
#if SCAN_WIDE
    static const char func[] = "deficit_pieces";
    Py_buffer M, R, T = {0}, P = {0};
    PyObject *result = NULL;
    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "deficit_pieces() takes 4 arguments (margins, rho, rows, pieces), got %zd",
                     nargs);
        return NULL;
    }
    if (deficit_inputs(func, args[0], args[1], &M, &R) < 0) {
        return NULL;
    }
    if (get_array(func, "rows", args[2], 1, INT64_ITEMS, 0, &T) < 0
        || get_array(func, "pieces", args[3], 2, INT64_ITEMS, 1, &P) < 0) {
        goto done;
    }
    const Py_ssize_t n = M.shape[0], K = M.shape[1], m = T.shape[0], count = P.shape[1];
    if (P.shape[0] != m || count < 1 || count > SOFT_PIECES_MAX) {
        PyErr_Format(PyExc_ValueError, "deficit_pieces(): pieces (%zd, %zd) must have the rows' %zd rows, and 1 to "
                     "8 pieces", P.shape[0], count, m);
        goto done;
    }
    Py_ssize_t bad_row = -1, bad = -1;
    Py_BEGIN_ALLOW_THREADS
    const int64_t *rows = T.buf;
    int64_t *piece = P.buf;
    uint64_t d[DEFICIT_MAX_LIMBS + 1] = {0};  /* (the limbs above K + 1 stay 0: d has three at least) */
    for (Py_ssize_t t = 0; t < m; t++, piece += count) {
        const int64_t i = rows[t];
        if (i < 0 || i >= n) {
            bad_row = t;
            break;
        }
        if (t + SOFT_AHEAD < m && rows[t + SOFT_AHEAD] >= 0 && rows[t + SOFT_AHEAD] < n) {  /* (_soft.h) */
            SOFT_PREFETCH((const uint64_t *)M.buf + rows[t + SOFT_AHEAD] * K);
        }
        const int is_short = deficit_of((const uint64_t *)M.buf + i * K, R.buf, K, d);
        for (Py_ssize_t k = DEFICIT_WORDS; is_short && k <= K; k++) {
            if (d[k]) {
                bad = t;
            }
        }
        if (bad >= 0 || deficit_cut(d, is_short, count, piece) < 0) {
            bad = t;
            break;
        }
    }
    Py_END_ALLOW_THREADS
    if (bad_row >= 0) {
        PyErr_Format(PyExc_ValueError, "deficit_pieces(): rows[%zd]=%lld is not a margin's (n=%zd)", bad_row,
                     (long long)((const int64_t *)T.buf)[bad_row], n);
        goto done;
    }
    if (bad >= 0) {
        PyErr_Format(PyExc_ValueError, "deficit_pieces(): rows[%zd]'s deficit passes 2^%d or its square %d pieces",
                     bad, 64 * DEFICIT_WORDS, (int)count);
        goto done;
    }
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&M);
    PyBuffer_Release(&R);
    PyBuffer_Release(&T);
    PyBuffer_Release(&P);
    return result;
#else
    PyErr_SetString(PyExc_NotImplementedError, "deficit_pieces() needs __int128");
    return NULL;
#endif
}

#endif
