/*
 * verify_perceptron.data._limbrows: integer samples held in 64-bit limbs (lowest first, two's
 * complement over all of a value's limbs: verify_perceptron.data.integers.as_limbs's layout),
 * their signed rows, squared norms and nearest doubles, in C. Its Python wrapper is
 * verify_perceptron.data.kernel; the references the tests hold it to are the same values
 * joined into Python integers (verify_perceptron.data.limb_arrays.limb_values).
 *
 * Binary floats over one power of two need about 94 bits (randn data), past int64: held
 * so, a million rows cost two int64 a value instead of a Python integer each, and these
 * functions read them without making one.
 *
 * signed_limbs() builds Z[i] = y_i * (X[i] with the bias inserted) in lz limbs and every
 * ||Z[i]||^2 in ln limbs, in one pass; limb_norms() the squared norms alone; limb_doubles()
 * the nearest double of each entry, rounded once (the floating-point filter's precondition);
 * limb_scores() every Z[i] . W for W in limbs (ExactMatrix.products). dyadic_range() and
 * dyadic_fill() read binary floats into limbs straight from their bits (data/_floats.py): each
 * double is m 2^e with m odd, and m << (e + p) lands in limbs q and q + 1 (e + p = 64 q + r).
 * A square is a product of magnitudes (wide_mul_add), summed in ln >= 2 lz + 1 limbs:
 * |z| < 2^(64 lz - 1) makes each square below 2^(128 lz - 2), and fewer than 2^62 of them
 * sum below 2^(64 (2 lz + 1) - 1), so the sums are exact. Every function needs __int128 but gathered_sums().
 *
 * square_limbs() squares values held in limbs (the soft-margin bound's wide deficits, data/wide_squares.py) and
 * gathered_sums() sums rows of limbs at points of a sequence of row indices (the whole-run record's margins,
 * check/_chunk_sums.py). The passes at the widths of the bundled sets standardized (two limbs an entry) are
 * compiled apart, the same bodies with the widths as constants (LIMB_BODY).
 */

#include "_exact.h"
#include "_wide.h"

#include <limits.h>
#include <math.h>

#if SCAN_WIDE
/* Inlined where the widths are constants: the few widths of the bundled sets' passes (2 limbs an entry) get
 * loops the compiler unrolls, the same operations in the same order as the general call. */
#define LIMB_BODY static inline __attribute__((always_inline))

/* The squared norm of a row of d entries of lz limbs into out (ln limbs); mag is lz limbs of scratch. */
LIMB_BODY void
row_norm(const uint64_t *row, Py_ssize_t d, int lz, uint64_t *mag, uint64_t *out, int ln)
{
    memset(out, 0, (size_t)ln * sizeof(uint64_t));
    for (Py_ssize_t j = 0; j < d; j++) {
        wide_magnitude(mag, row + j * lz, lz);
        wide_mul_add(out, ln, mag, lz, mag, lz);
    }
}

/* The unsigned comparison of two norms of ln limbs: is a above b? */
static int
norm_above(const uint64_t *a, const uint64_t *b, int ln)
{
    for (int k = ln - 1; k >= 0; k--) {
        if (a[k] != b[k]) {
            return a[k] > b[k];
        }
    }
    return 0;
}

/* Index of the largest norm of n (each ln limbs), -1 if none. */
static Py_ssize_t
largest_norm(const uint64_t *norms, Py_ssize_t n, int ln)
{
    Py_ssize_t best = n > 0 ? 0 : -1;
    for (Py_ssize_t i = 1; i < n; i++) {
        if (norm_above(norms + i * ln, norms + best * ln, ln)) {
            best = i;
        }
    }
    return best;
}
#endif

#if SCAN_WIDE
/* signed_limbs' pass: Z[i] = y[i] (X[i] with the bias b at `column`), each entry widened from L to lz limbs, and
 * ||Z[i]||^2 into ln limbs; mag is lz limbs of scratch. */
LIMB_BODY void
signed_rows(const uint64_t *x, const int64_t *labels, const uint64_t *b, uint64_t *z, uint64_t *norm, Py_ssize_t n,
            Py_ssize_t m, Py_ssize_t column, int L, int lz, int ln, uint64_t *mag)
{
    const Py_ssize_t offset = column == 0 ? 1 : 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        uint64_t *out = z + i * (m + 1) * lz;
        memcpy(out + column * lz, b, (size_t)lz * sizeof(uint64_t));
        for (Py_ssize_t j = 0; j < m; j++) {
            wide_extend(out + (j + offset) * lz, lz, x + (i * m + j) * L, L);
        }
        if (labels[i] < 0) {
            for (Py_ssize_t j = 0; j <= m; j++) {
                wide_negate(out + j * lz, out + j * lz, lz);
            }
        }
        row_norm(out, m + 1, lz, mag, norm + i * ln, ln);
    }
}
#endif

/* The limb count of a 3-D int64 buffer (its last axis), checked to be at least 1. */
static int
limbs_of_view(const char *func, const char *name, const Py_buffer *view)
{
    if (view->shape[2] < 1 || view->shape[2] > 4096) {
        PyErr_Format(PyExc_ValueError, "%s(): %s must have 1 to 4096 limbs, got %zd", func, name, view->shape[2]);
        return -1;
    }
    return (int)view->shape[2];
}

PyDoc_STRVAR(signed_limbs_doc,
"signed_limbs($module, X, y, bias, bias_column, Z, norms, /)\n"
"--\n"
"\n"
"Z[i] = y[i] * (X[i] with `bias` inserted at column `bias_column`) and norms[i] =\n"
"||Z[i]||^2, in limbs, in one pass. Returns the index of the largest norm (-1 if none).\n"
"\n"
"X is (n, m, L) int64 limbs, y int64 of length n (each -1 or 1), bias (lz,) int64\n"
"limbs, Z a writable (n, m + 1, lz) int64 array with lz >= L, norms a writable (n, ln)\n"
"int64 array with ln >= 2 lz + 1, bias_column 0 or m, all C-contiguous. Every entry\n"
"and its negation must fit lz limbs (|x| < 2^(64 lz - 1)), which the caller sizes.");

static PyObject *
signed_limbs(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
#if SCAN_WIDE
    static const char func[] = "signed_limbs";
    Py_buffer X = {0}, y = {0}, bias = {0}, Z = {0}, norms = {0};
    PyObject *result = NULL;
    uint64_t *scratch = NULL;

    if (nargs != 6) {
        PyErr_Format(PyExc_TypeError, "signed_limbs() takes 6 arguments, got %zd", nargs);
        return NULL;
    }
    const Py_ssize_t column = PyLong_AsSsize_t(args[3]);
    if (column == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (get_array(func, "X", args[0], 3, INT64_ITEMS, 0, &X) < 0
        || get_array(func, "y", args[1], 1, INT64_ITEMS, 0, &y) < 0
        || get_array(func, "bias", args[2], 1, INT64_ITEMS, 0, &bias) < 0
        || get_array(func, "Z", args[4], 3, INT64_ITEMS, 1, &Z) < 0
        || get_array(func, "norms", args[5], 2, INT64_ITEMS, 1, &norms) < 0) {
        goto done;
    }
    const Py_ssize_t n = X.shape[0], m = X.shape[1];
    const int L = limbs_of_view(func, "X", &X), lz = L < 0 ? -1 : limbs_of_view(func, "Z", &Z);
    if (L < 0 || lz < 0) {
        goto done;
    }
    const int ln = (int)norms.shape[1];
    if (y.shape[0] != n || Z.shape[0] != n || Z.shape[1] != m + 1 || norms.shape[0] != n || lz < L
        || bias.shape[0] != lz || ln < 2 * lz + 1 || (column != 0 && column != m)) {
        PyErr_Format(PyExc_ValueError, "signed_limbs(): shapes do not fit: X (%zd, %zd, %d), y (%zd,), bias (%zd,), "
                     "Z (%zd, %zd, %d), norms (%zd, %d), bias_column %zd", n, m, L, y.shape[0], bias.shape[0],
                     Z.shape[0], Z.shape[1], lz, norms.shape[0], ln, column);
        goto done;
    }
    scratch = PyMem_Malloc((size_t)lz * sizeof(uint64_t));
    if (scratch == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t best;
    Py_BEGIN_ALLOW_THREADS
    const uint64_t *x = X.buf, *b = bias.buf;
    const int64_t *labels = y.buf;
    uint64_t *z = Z.buf, *norm = norms.buf;
    if (L == 2 && lz == 2 && ln == 5) {
        signed_rows(x, labels, b, z, norm, n, m, column, 2, 2, 5, scratch);
    }
    else if (L == 1 && lz == 2 && ln == 5) {
        signed_rows(x, labels, b, z, norm, n, m, column, 1, 2, 5, scratch);
    }
    else {
        signed_rows(x, labels, b, z, norm, n, m, column, L, lz, ln, scratch);
    }
    best = largest_norm(norm, n, ln);
    Py_END_ALLOW_THREADS
    result = PyLong_FromSsize_t(best);
done:
    PyMem_Free(scratch);
    PyBuffer_Release(&X);
    PyBuffer_Release(&y);
    PyBuffer_Release(&bias);
    PyBuffer_Release(&Z);
    PyBuffer_Release(&norms);
    return result;
#else
    PyErr_SetString(PyExc_NotImplementedError, "signed_limbs() needs a compiler with __int128");
    return NULL;
#endif
}

PyDoc_STRVAR(limb_norms_doc,
"limb_norms($module, Z, norms, /)\n"
"--\n"
"\n"
"norms[i] = ||Z[i]||^2 for Z (n, d, lz) int64 limbs and a writable (n, ln) int64\n"
"array, ln >= 2 lz + 1, both C-contiguous. Returns the index of the largest (-1 if none).");

static PyObject *
limb_norms(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
#if SCAN_WIDE
    static const char func[] = "limb_norms";
    Py_buffer Z = {0}, norms = {0};
    PyObject *result = NULL;
    uint64_t *scratch = NULL;

    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "limb_norms() takes 2 arguments (Z, norms), got %zd", nargs);
        return NULL;
    }
    if (get_array(func, "Z", args[0], 3, INT64_ITEMS, 0, &Z) < 0
        || get_array(func, "norms", args[1], 2, INT64_ITEMS, 1, &norms) < 0) {
        goto done;
    }
    const Py_ssize_t n = Z.shape[0], d = Z.shape[1];
    const int lz = limbs_of_view(func, "Z", &Z);
    if (lz < 0) {
        goto done;
    }
    const int ln = (int)norms.shape[1];
    if (norms.shape[0] != n || ln < 2 * lz + 1) {
        PyErr_Format(PyExc_ValueError, "limb_norms(): norms of shape (%zd, %d) for Z of shape (%zd, %zd, %d): "
                     "(n, 2 lz + 1) at least", norms.shape[0], ln, n, d, lz);
        goto done;
    }
    scratch = PyMem_Malloc((size_t)lz * sizeof(uint64_t));
    if (scratch == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t best;
    Py_BEGIN_ALLOW_THREADS
    const uint64_t *z = Z.buf;
    uint64_t *norm = norms.buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        row_norm(z + i * d * lz, d, lz, scratch, norm + i * ln, ln);
    }
    best = largest_norm(norm, n, ln);
    Py_END_ALLOW_THREADS
    result = PyLong_FromSsize_t(best);
done:
    PyMem_Free(scratch);
    PyBuffer_Release(&Z);
    PyBuffer_Release(&norms);
    return result;
#else
    PyErr_SetString(PyExc_NotImplementedError, "limb_norms() needs a compiler with __int128");
    return NULL;
#endif
}

#if SCAN_WIDE
/* limb_doubles' pass: f[c] = the double nearest z[c] (lz limbs) for `cells` values; mag is lz limbs of scratch.
 * Returns 1 (at the first such value) where one has more than 1000 bits, else 0. */
LIMB_BODY int
nearest_doubles(const uint64_t *z, double *f, Py_ssize_t cells, int lz, uint64_t *mag)
{
    for (Py_ssize_t c = 0; c < cells; c++) {
        const int negative = wide_magnitude(mag, z + c * lz, lz);
        int top = lz - 1;
        while (top > 0 && mag[top] == 0) {
            top--;
        }
        /* wide_unsigned_to_double scales by 2^(64 top - lead) <= 2^1023 only below 2^1000 */
        if (64 * top + 64 - (mag[top] ? __builtin_clzll(mag[top]) : 64) > 1000) {
            return 1;
        }
        const double x = wide_unsigned_to_double(mag, top + 1);
        f[c] = negative ? -x : x;
    }
    return 0;
}
#endif

PyDoc_STRVAR(limb_doubles_doc,
"limb_doubles($module, Z, out, /)\n"
"--\n"
"\n"
"out[i, j] = the double nearest to Z[i, j] (rounded once, as Python's float(int)), for Z\n"
"(n, d, lz) int64 limbs and a writable (n, d) float64 array, both C-contiguous. Every\n"
"value must be below 2^1000 in magnitude: ValueError otherwise.");

static PyObject *
limb_doubles(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
#if SCAN_WIDE
    static const char func[] = "limb_doubles";
    Py_buffer Z = {0}, out = {0};
    PyObject *result = NULL;
    uint64_t *scratch = NULL;

    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "limb_doubles() takes 2 arguments (Z, out), got %zd", nargs);
        return NULL;
    }
    if (get_array(func, "Z", args[0], 3, INT64_ITEMS, 0, &Z) < 0
        || get_array(func, "out", args[1], 2, FLOAT64_ITEMS, 1, &out) < 0) {
        goto done;
    }
    const Py_ssize_t cells = Z.shape[0] * Z.shape[1];
    const int lz = limbs_of_view(func, "Z", &Z);
    if (lz < 0) {
        goto done;
    }
    if (out.shape[0] != Z.shape[0] || out.shape[1] != Z.shape[1]) {
        PyErr_Format(PyExc_ValueError, "limb_doubles(): out of shape (%zd, %zd) for Z of shape (%zd, %zd, %d)",
                     out.shape[0], out.shape[1], Z.shape[0], Z.shape[1], lz);
        goto done;
    }
    scratch = PyMem_Malloc((size_t)lz * sizeof(uint64_t));
    if (scratch == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int too_wide;
    Py_BEGIN_ALLOW_THREADS
    const uint64_t *z = Z.buf;
    double *f = out.buf;
    too_wide = lz == 2 ? nearest_doubles(z, f, cells, 2, scratch) : nearest_doubles(z, f, cells, lz, scratch);
    Py_END_ALLOW_THREADS
    if (too_wide) {
        PyErr_SetString(PyExc_ValueError, "limb_doubles(): a value of more than 1000 bits");
        goto done;
    }
    Py_INCREF(Py_None);
    result = Py_None;
done:
    PyMem_Free(scratch);
    PyBuffer_Release(&Z);
    PyBuffer_Release(&out);
    return result;
#else
    PyErr_SetString(PyExc_NotImplementedError, "limb_doubles() needs a compiler with __int128");
    return NULL;
#endif
}

#if SCAN_WIDE
/* limb_scores' pass: s[i] = Z[i] . W (ls limbs) from W's magnitudes (d lw limbs) and signs (d); z_mag is lz limbs
 * of scratch and pos 2 ls (the positive and the negative sums). */
LIMB_BODY void
score_rows(const uint64_t *z, const uint64_t *w_mag, const uint64_t *w_neg, uint64_t *s, Py_ssize_t n, Py_ssize_t d,
           int lz, int lw, int ls, uint64_t *z_mag, uint64_t *pos)
{
    uint64_t *neg = pos + ls;
    for (Py_ssize_t i = 0; i < n; i++) {
        memset(pos, 0, 2 * (size_t)ls * sizeof(uint64_t));
        for (Py_ssize_t j = 0; j < d; j++) {
            const uint64_t *zj = z + (i * d + j) * lz;
            if (wide_is_zero(zj, lz) || wide_is_zero(w_mag + j * lw, lw)) {
                continue;
            }
            const int negative = wide_magnitude(z_mag, zj, lz) ^ (int)w_neg[j];
            wide_mul_add(negative ? neg : pos, ls, z_mag, lz, w_mag + j * lw, lw);
        }
        wide_sub(pos, neg, ls);
        memcpy(s + i * ls, pos, (size_t)ls * sizeof(uint64_t));
    }
}

/* limb_scores' pass for wide W (a certified separator of thousands of bits): per row, the products of magnitudes
 * summed apart by sign into pos and neg (ls limbs each), each product of a limb of |z_j| by |W_j| as one pass over
 * W_j's limbs with the carry in a register (a multiply, an add and an add with carry a limb), its last carry
 * taken on up; then pos - neg. Where column sums of 128 bits held two 128-bit sums in memory a limb (two loads
 * and two stores of two words), this pass reads and writes one word: breast cancer standardized's 569 x 31 rows of
 * two limbs by the optimum's 51, 1.65 -> 1.49 ms (thread CPU, 200 calls; about 2.5 cycles a limb product). Each
 * sum is below 2^(64 (lz + lw + 1) - 2) (limb_scores' bound), so no carry leaves ls limbs and the difference is
 * the exact score's two's complement. */
LIMB_BODY void
score_carried(const uint64_t *z, const uint64_t *w_mag, const uint64_t *w_neg, uint64_t *s, Py_ssize_t n,
              Py_ssize_t d, int lz, int lw, int ls, uint64_t *z_mag, uint64_t *pos)
{
    uint64_t *neg = pos + ls;
    for (Py_ssize_t i = 0; i < n; i++) {
        memset(pos, 0, 2 * (size_t)ls * sizeof(uint64_t));
        for (Py_ssize_t j = 0; j < d; j++) {
            const uint64_t *zj = z + (i * d + j) * lz, *wj = w_mag + j * lw;
            if (wide_is_zero(zj, lz)) {
                continue;
            }
            uint64_t *acc = (wide_magnitude(z_mag, zj, lz) ^ (int)w_neg[j]) ? neg : pos;
            for (int a = 0; a < lz; a++) {
                const uint64_t za = z_mag[a];
                if (za == 0) {
                    continue;
                }
                uint64_t *row = acc + a, carry = 0;
                for (int b = 0; b < lw; b++) {
                    const unsigned __int128 p = (unsigned __int128)za * wj[b] + row[b] + carry;
                    row[b] = (uint64_t)p;
                    carry = (uint64_t)(p >> 64);
                }
                for (int k = a + lw; carry != 0 && k < ls; k++) { /* on up: below ls by the bound */
                    acc[k] += carry;
                    carry = acc[k] < carry;
                }
            }
        }
        wide_sub(pos, neg, ls);
        memcpy(s + i * ls, pos, (size_t)ls * sizeof(uint64_t));
    }
}
#endif

PyDoc_STRVAR(limb_scores_doc,
"limb_scores($module, Z, W, out, /)\n"
"--\n"
"\n"
"out[i] = Z[i] . W, exactly, for Z (n, d, lz) and W (d, lw) int64 limbs and a writable\n"
"(n, ls) int64 array with ls >= lz + lw + 1, all C-contiguous: each product of\n"
"magnitudes is below 2^(64 (lz + lw) - 2), fewer than 2^62 of them sum below\n"
"2^(64 (lz + lw + 1) - 2), so the positive and the negative sums, and their difference, fit.");

static PyObject *
limb_scores(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
#if SCAN_WIDE
    static const char func[] = "limb_scores";
    Py_buffer Z = {0}, W = {0}, out = {0};
    PyObject *result = NULL;
    uint64_t *scratch = NULL;

    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "limb_scores() takes 3 arguments (Z, W, out), got %zd", nargs);
        return NULL;
    }
    if (get_array(func, "Z", args[0], 3, INT64_ITEMS, 0, &Z) < 0
        || get_array(func, "W", args[1], 2, INT64_ITEMS, 0, &W) < 0
        || get_array(func, "out", args[2], 2, INT64_ITEMS, 1, &out) < 0) {
        goto done;
    }
    const Py_ssize_t n = Z.shape[0], d = Z.shape[1];
    const int lz = limbs_of_view(func, "Z", &Z);
    if (lz < 0) {
        goto done;
    }
    const int lw = (int)W.shape[1], ls = (int)out.shape[1];
    if (W.shape[0] != d || lw < 1 || out.shape[0] != n || ls < lz + lw + 1) {
        PyErr_Format(PyExc_ValueError, "limb_scores(): W (%zd, %d) and out (%zd, %d) do not fit Z (%zd, %zd, %d)",
                     W.shape[0], lw, out.shape[0], ls, n, d, lz);
        goto done;
    }
    /* W's magnitudes (d lw limbs), its signs (d), a z magnitude (lz) and two sums (2 ls) */
    const size_t head = (size_t)d * lw + d + lz + 2 * (size_t)ls;
    scratch = PyMem_RawMalloc(head * sizeof(uint64_t));
    if (scratch == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    uint64_t *w_mag = scratch, *w_neg = w_mag + d * lw, *z_mag = w_neg + d, *pos = z_mag + lz;
    const uint64_t *w = W.buf, *z = Z.buf;
    uint64_t *s = out.buf;
    for (Py_ssize_t j = 0; j < d; j++) {
        w_neg[j] = (uint64_t)wide_magnitude(w_mag + j * lw, w + j * lw, lw);
    }
    if (lz == 2 && lw == 1 && ls == 4) {
        score_rows(z, w_mag, w_neg, s, n, d, 2, 1, 4, z_mag, pos);
    }
    else if (lz == 2 && lw == 2 && ls == 5) {
        score_rows(z, w_mag, w_neg, s, n, d, 2, 2, 5, z_mag, pos);
    }
    else if (lw > 2) {
        score_carried(z, w_mag, w_neg, s, n, d, lz, lw, ls, z_mag, pos);
    }
    else {
        score_rows(z, w_mag, w_neg, s, n, d, lz, lw, ls, z_mag, pos);
    }
    Py_END_ALLOW_THREADS
    Py_INCREF(Py_None);
    result = Py_None;
done:
    PyMem_RawFree(scratch);
    PyBuffer_Release(&Z);
    PyBuffer_Release(&W);
    PyBuffer_Release(&out);
    return result;
#else
    PyErr_SetString(PyExc_NotImplementedError, "limb_scores() needs a compiler with __int128");
    return NULL;
#endif
}

#if SCAN_WIDE
/* x = (-1)^negative * m * 2^e with m odd (m = 0 for a zero); 0, or -1 for an infinity or a NaN. */
static int
dyadic_parts(double x, uint64_t *m, int *e, int *negative)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    const int biased = (int)((bits >> 52) & 0x7ff);
    *negative = (int)(bits >> 63);
    if (biased == 0x7ff) {
        return -1;
    }
    *m = bits & (((uint64_t)1 << 52) - 1);
    *e = biased == 0 ? -1074 : biased - 1075; /* a subnormal has no implicit bit */
    if (biased != 0) {
        *m |= (uint64_t)1 << 52;
    }
    if (*m != 0) {
        const int zeros = __builtin_ctzll(*m);
        *m >>= zeros;
        *e += zeros;
    }
    return 0;
}
#endif

PyDoc_STRVAR(dyadic_range_doc,
"dyadic_range($module, X, /)\n"
"--\n"
"\n"
"For X a C-contiguous float64 array (any shape) of finite values, each m * 2^e with m odd:\n"
"``(min e, max (bit_length(m) + e))`` over the nonzero values, or None when every value is 0.\n"
"An infinity or a NaN raises ValueError.");

static PyObject *
dyadic_range(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
#if SCAN_WIDE
    Py_buffer X = {0};
    PyObject *result = NULL;
    if (nargs != 1) {
        PyErr_Format(PyExc_TypeError, "dyadic_range() takes 1 argument (X), got %zd", nargs);
        return NULL;
    }
    if (PyObject_GetBuffer(args[0], &X, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        return NULL;
    }
    if (X.itemsize != 8 || X.format == NULL || strcmp(X.format, "d") != 0) {
        PyErr_SetString(PyExc_TypeError, "dyadic_range(): X must hold float64 items");
        goto done;
    }
    const Py_ssize_t cells = X.len / 8;
    int low = 0, top = 0, any = 0, bad = 0;
    Py_BEGIN_ALLOW_THREADS
    const double *x = X.buf;
    for (Py_ssize_t c = 0; c < cells; c++) {
        uint64_t m;
        int e, negative;
        if (dyadic_parts(x[c], &m, &e, &negative) < 0) {
            bad = 1;
            break;
        }
        if (m == 0) {
            continue;
        }
        const int bits = 64 - __builtin_clzll(m) + e;
        if (!any || e < low) {
            low = e;
        }
        if (!any || bits > top) {
            top = bits;
        }
        any = 1;
    }
    Py_END_ALLOW_THREADS
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "dyadic_range(): an infinity or a NaN has no exact value");
        goto done;
    }
    result = any ? Py_BuildValue("(ii)", low, top) : (Py_INCREF(Py_None), Py_None);
done:
    PyBuffer_Release(&X);
    return result;
#else
    PyErr_SetString(PyExc_NotImplementedError, "dyadic_range() needs a compiler with __int128");
    return NULL;
#endif
}

#if SCAN_WIDE
/* dyadic_fill's pass: limbs[c] (L limbs) = x[c] 2^power for `cells` values. Returns 1 (at the first such value)
 * where one is not finite, not an integer times 2^-power or does not fit, else 0. */
LIMB_BODY int
dyadic_limbs(const double *x, uint64_t *limbs, Py_ssize_t cells, long power, int L)
{
    for (Py_ssize_t c = 0; c < cells; c++) {
        uint64_t *v = limbs + c * L;
        uint64_t m;
        int e, negative;
        memset(v, 0, (size_t)L * sizeof(uint64_t));
        if (dyadic_parts(x[c], &m, &e, &negative) < 0) {
            return 1;
        }
        if (m == 0) {
            continue;
        }
        const long shift = e + power;
        if (shift < 0) {
            return 1;
        }
        const long q = shift / 64;
        const unsigned __int128 wide = (unsigned __int128)m << (shift % 64); /* below 2^117 */
        const uint64_t low = (uint64_t)wide, high = (uint64_t)(wide >> 64);
        /* the magnitude and its sign bit must fit: |value| < 2^(64 L - 1) */
        if (q >= L || (q + 1 >= L ? (high != 0 || (int64_t)low < 0) : (q + 2 >= L && (int64_t)high < 0))) {
            return 1;
        }
        v[q] = low;
        if (q + 1 < L) {
            v[q + 1] = high;
        }
        if (negative) {
            wide_negate(v, v, L);
        }
    }
    return 0;
}
#endif

PyDoc_STRVAR(dyadic_fill_doc,
"dyadic_fill($module, X, power, out, /)\n"
"--\n"
"\n"
"out[..., :] = the limbs of X * 2^power, each an integer, for X a C-contiguous float64 array of\n"
"finite values and out a writable C-contiguous int64 array of X's shape plus (L,): with\n"
"X = m * 2^e (m odd), m << (e + power) split into limbs (lowest first, two's complement).\n"
"Every e + power must be >= 0 and every value fit L limbs: ValueError otherwise.");

static PyObject *
dyadic_fill(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
#if SCAN_WIDE
    Py_buffer X = {0}, out = {0};
    PyObject *result = NULL;
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "dyadic_fill() takes 3 arguments (X, power, out), got %zd", nargs);
        return NULL;
    }
    const long power = PyLong_AsLong(args[1]);
    if (power == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (PyObject_GetBuffer(args[0], &X, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        return NULL;
    }
    if (PyObject_GetBuffer(args[2], &out, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) < 0) {
        goto done;
    }
    const Py_ssize_t cells = X.len / 8;
    if (X.itemsize != 8 || X.format == NULL || strcmp(X.format, "d") != 0 || out.itemsize != 8
        || out.ndim != X.ndim + 1) {
        PyErr_SetString(PyExc_ValueError, "dyadic_fill(): X must hold float64 items and out int64 limbs of X's shape");
        goto done;
    }
    const int L = (int)out.shape[out.ndim - 1];
    if (L < 1 || (Py_ssize_t)L * cells * 8 != out.len) {
        PyErr_SetString(PyExc_ValueError, "dyadic_fill(): out must be X's shape plus one axis of limbs");
        goto done;
    }
    int bad;
    Py_BEGIN_ALLOW_THREADS
    const double *x = X.buf;
    uint64_t *limbs = out.buf;
    bad = L == 2 ? dyadic_limbs(x, limbs, cells, power, 2) : dyadic_limbs(x, limbs, cells, power, L);
    Py_END_ALLOW_THREADS
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "dyadic_fill(): a value is not finite, not an integer times 2^-power, "
                        "or does not fit the limbs");
        goto done;
    }
    Py_INCREF(Py_None);
    result = Py_None;
done:
    PyBuffer_Release(&X);
    if (out.obj != NULL) {
        PyBuffer_Release(&out);
    }
    return result;
#else
    PyErr_SetString(PyExc_NotImplementedError, "dyadic_fill() needs a compiler with __int128");
    return NULL;
#endif
}

PyDoc_STRVAR(limb_ints_doc,
"limb_ints($module, limbs, /)\n"
"--\n"
"\n"
"The integers of an (m, L) int64 C-contiguous array of limbs (each value's lowest 64 bits\n"
"first, two's complement over all L) as a list of m Python ints.");

static PyObject *
limb_ints(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer limbs = {0};
    PyObject *result = NULL;

    if (nargs != 1) {
        PyErr_Format(PyExc_TypeError, "limb_ints() takes 1 argument (limbs), got %zd", nargs);
        return NULL;
    }
    if (get_array("limb_ints", "limbs", args[0], 2, INT64_ITEMS, 0, &limbs) < 0) {
        return NULL;
    }
    Py_ssize_t m = limbs.shape[0], L = limbs.shape[1];
    if (L < 1 && m > 0) {
        PyErr_Format(PyExc_ValueError, "limb_ints(): limbs must have at least 1 limb a value, got shape=(%zd, %zd)",
                     m, L);
        goto done;
    }
    result = PyList_New(m);
    if (result == NULL) {
        goto done;
    }
    const int64_t *v = (const int64_t *)limbs.buf;
#if !PY_LITTLE_ENDIAN
    unsigned char *bytes = PyMem_Malloc((size_t)(L > 0 ? L : 1) * 8);  /* one value's limbs, little-endian */
    if (bytes == NULL) {
        Py_CLEAR(result);
        PyErr_NoMemory();
        goto done;
    }
#endif
    for (Py_ssize_t i = 0; i < m; i++, v += L) {
        PyObject *value;
        if (L == 1) {
            value = PyLong_FromLongLong((long long)v[0]);
        }
        else {
#if PY_LITTLE_ENDIAN
            value = _PyLong_FromByteArray((const unsigned char *)v, (size_t)L * 8, 1, 1);
#else
            for (Py_ssize_t k = 0; k < L; k++) {
                for (int b = 0; b < 8; b++) {
                    bytes[8 * k + b] = (unsigned char)((uint64_t)v[k] >> (8 * b));
                }
            }
            value = _PyLong_FromByteArray(bytes, (size_t)L * 8, 1, 1);
#endif
        }
        if (value == NULL) {
            Py_CLEAR(result);
            break;
        }
        PyList_SET_ITEM(result, i, value);
    }
#if !PY_LITTLE_ENDIAN
    PyMem_Free(bytes);
#endif
done:
    PyBuffer_Release(&limbs);
    return result;
}

PyDoc_STRVAR(int_limbs_doc,
"int_limbs($module, values, out, /)\n"
"--\n"
"\n"
"out[i] = the limbs of values[i] (each value's lowest 64 bits first, two's complement over\n"
"all L) for a sequence of m Python ints and a writable (m, L) int64 C-contiguous array.\n"
"TypeError where a value is no Python int, OverflowError where one does not fit L limbs.");

static PyObject *
int_limbs(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer out = {0};
    PyObject *values = NULL, *result = NULL;

    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "int_limbs() takes 2 arguments (values, out), got %zd", nargs);
        return NULL;
    }
    if (get_array("int_limbs", "out", args[1], 2, INT64_ITEMS, 1, &out) < 0) {
        return NULL;
    }
    values = PySequence_Fast(args[0], "int_limbs(): values must be a sequence");
    if (values == NULL) {
        goto done;
    }
    Py_ssize_t m = PySequence_Fast_GET_SIZE(values), L = out.shape[1];
    if (out.shape[0] != m || (L < 1 && m > 0)) {
        PyErr_Format(PyExc_ValueError, "int_limbs(): out must have shape (%zd, L >= 1), got (%zd, %zd)",
                     m, out.shape[0], L);
        goto done;
    }
    PyObject **items = PySequence_Fast_ITEMS(values);
    unsigned char *row = (unsigned char *)out.buf;
    for (Py_ssize_t i = 0; i < m; i++, row += 8 * L) {
        if (!PyLong_Check(items[i])) {
            PyErr_Format(PyExc_TypeError, "int_limbs(): values[%zd] is no Python int: %.100s", i,
                         Py_TYPE(items[i])->tp_name);
            goto done;
        }
#if PY_VERSION_HEX >= 0x030D0000
        int failed = _PyLong_AsByteArray((PyLongObject *)items[i], row, (size_t)L * 8, PY_LITTLE_ENDIAN, 1, 1);
#else
        int failed = _PyLong_AsByteArray((PyLongObject *)items[i], row, (size_t)L * 8, PY_LITTLE_ENDIAN, 1);
#endif
        if (failed) {
            goto done;
        }
#if !PY_LITTLE_ENDIAN
        /* each limb came out big-endian and in reverse order: the limbs are reversed in place */
        uint64_t *limb = (uint64_t *)row;
        for (Py_ssize_t k = 0; k < L / 2; k++) {
            uint64_t t = limb[k];
            limb[k] = limb[L - 1 - k];
            limb[L - 1 - k] = t;
        }
#endif
    }
    Py_INCREF(Py_None);
    result = Py_None;
done:
    Py_XDECREF(values);
    PyBuffer_Release(&out);
    return result;
}

PyDoc_STRVAR(int_ratios_doc,
"int_ratios($module, values, shift, out, /)\n"
"--\n"
"\n"
"out[i] = values[i] / 2^shift as a double, for a sequence of m Python ints and a writable (m,)\n"
"float64 C-contiguous array: the value's leading bits (v >> max(0, bit_length(|v|) - 64), a floor),\n"
"rounded once to a double as float(int) rounds it, times 2^(drop - shift) by ldexp (0 or an infinity\n"
"of the value's sign past the doubles' range). TypeError where a value is no Python int.");

static PyObject *
int_ratios(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer out = {0};
    PyObject *values = NULL, *result = NULL;

    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "int_ratios() takes 3 arguments (values, shift, out), got %zd", nargs);
        return NULL;
    }
    long long shift = PyLong_AsLongLong(args[1]);
    if (shift == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (get_array("int_ratios", "out", args[2], 1, FLOAT64_ITEMS, 1, &out) < 0) {
        return NULL;
    }
    values = PySequence_Fast(args[0], "int_ratios(): values must be a sequence");
    if (values == NULL) {
        goto done;
    }
    Py_ssize_t m = PySequence_Fast_GET_SIZE(values);
    if (out.shape[0] != m) {
        PyErr_Format(PyExc_ValueError, "int_ratios(): out must have %zd items, got %zd", m, out.shape[0]);
        goto done;
    }
    PyObject **items = PySequence_Fast_ITEMS(values);
    double *ratio = (double *)out.buf;
    for (Py_ssize_t i = 0; i < m; i++) {
        PyObject *v = items[i];
        if (!PyLong_Check(v)) {
            PyErr_Format(PyExc_TypeError, "int_ratios(): values[%zd] is no Python int: %.100s", i,
                         Py_TYPE(v)->tp_name);
            goto done;
        }
        size_t bits = _PyLong_NumBits(v);
        if (bits == (size_t)-1 && PyErr_Occurred()) {
            goto done;
        }
        long long drop = bits > 64 ? (long long)(bits - 64) : 0;
        double top;
        if (drop == 0) {
            top = PyLong_AsDouble(v);
        }
        else {
            PyObject *amount = PyLong_FromLongLong(drop), *leading = NULL;
            if (amount != NULL) {
                leading = PyNumber_Rshift(v, amount);
                Py_DECREF(amount);
            }
            if (leading == NULL) {
                goto done;
            }
            top = PyLong_AsDouble(leading);
            Py_DECREF(leading);
        }
        if (top == -1.0 && PyErr_Occurred()) {
            goto done;
        }
        long long scale = drop - shift;  /* as NumPy's ldexp takes an int64 exponent: clamped to C's int */
        ratio[i] = ldexp(top, scale > INT_MAX ? INT_MAX : scale < INT_MIN ? INT_MIN : (int)scale);
    }
    Py_INCREF(Py_None);
    result = Py_None;
done:
    Py_XDECREF(values);
    PyBuffer_Release(&out);
    return result;
}

/* The most limbs limb_ratios() reads a value in (4096 bits: past that the caller makes Python integers). */
#define RATIO_MAX_LIMBS 64

PyDoc_STRVAR(limb_ratios_doc,
"limb_ratios($module, M, shift, out, /)\n"
"--\n"
"\n"
"out[i] = M[i] / 2^shift as a double, for M (n, K) int64 limbs (each row one integer, two's\n"
"complement over its K <= 64 limbs, lowest first) and a writable (n,) float64 array, both\n"
"C-contiguous: int_ratios's double for the same integer v, that is its leading bits\n"
"v >> max(0, bit_length(|v|) - 64) (a floor: for v < 0, minus the magnitude's leading bits, one\n"
"more where a dropped bit is set), rounded once to a double, times 2^(drop - shift) by ldexp.");

static PyObject *
limb_ratios(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    static const char func[] = "limb_ratios";
    Py_buffer M = {0}, out = {0};
    PyObject *result = NULL;

    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "limb_ratios() takes 3 arguments (M, shift, out), got %zd", nargs);
        return NULL;
    }
    long long shift = PyLong_AsLongLong(args[1]);
    if (shift == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (get_array(func, "M", args[0], 2, INT64_ITEMS, 0, &M) < 0
        || get_array(func, "out", args[2], 1, FLOAT64_ITEMS, 1, &out) < 0) {
        goto done;
    }
    const Py_ssize_t n = M.shape[0], K = M.shape[1];
    if (out.shape[0] != n || K < 1 || K > RATIO_MAX_LIMBS) {
        PyErr_Format(PyExc_ValueError, "limb_ratios(): M (%zd, %zd) must have 1 to %d limbs and out (%zd) its rows",
                     n, K, RATIO_MAX_LIMBS, out.shape[0]);
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    const uint64_t *v = M.buf;
    double *ratio = out.buf;
    uint64_t mag[RATIO_MAX_LIMBS];
    for (Py_ssize_t i = 0; i < n; i++, v += K) {
        const int negative = (int64_t)v[K - 1] < 0;
        uint64_t carry = 1;
        int top = -1;
        for (Py_ssize_t k = 0; k < K; k++) {  /* |v|: the limbs negated (~v + 1) where v < 0 */
            uint64_t word = v[k];
            if (negative) {
                word = ~word + carry;
                carry = carry && word == 0;
            }
            mag[k] = word;
            if (word) {
                top = (int)k;
            }
        }
        if (top < 0) {
            ratio[i] = 0.0;
            continue;
        }
        const long long bits = 64LL * top + 64 - __builtin_clzll(mag[top]);
        const long long drop = bits > 64 ? bits - 64 : 0;
        double lead;
        if (drop == 0) {
            lead = (double)mag[0];  /* correctly rounded, as float(int); the sign after (rounding is symmetric) */
            lead = negative ? -lead : lead;
        }
        else {
            const int w = (int)(drop >> 6), s = (int)(drop & 63);
            uint64_t t = mag[w] >> s, sticky = s ? mag[w] << (64 - s) : 0;
            if (s) {
                t |= mag[w + 1] << (64 - s);  /* (the leading bit is at drop + 63, in limb w + 1 when s > 0) */
            }
            for (int k = 0; k < w; k++) {
                sticky |= mag[k];
            }
            if (!negative) {
                lead = (double)t;
            }
            else if (sticky) {  /* floor(v / 2^drop) = -(t + 1): 2^64 itself where t + 1 carries out */
                lead = t == UINT64_MAX ? -18446744073709551616.0 : -(double)(t + 1);
            }
            else {
                lead = -(double)t;
            }
        }
        const long long scale = drop - shift;  /* clamped to C's int, as int_ratios does */
        ratio[i] = ldexp(lead, scale > INT_MAX ? INT_MAX : scale < INT_MIN ? INT_MIN : (int)scale);
    }
    Py_END_ALLOW_THREADS
    Py_INCREF(Py_None);
    result = Py_None;
done:
    PyBuffer_Release(&M);
    PyBuffer_Release(&out);
    return result;
}

#if SCAN_WIDE
/* out (2 k limbs) = m^2 for the magnitude m (k limbs), by columns (Comba): each column's products m_a m_b, a < b,
 * summed in 128 bits and a count of overflows, doubled, the square m_{c/2}^2 added, then the column's carry-in;
 * its low limb written and the rest carried on. A column sums at most k / 2 products below 2^128 (doubled, with
 * one square: below k 2^128), so its overflow count stays below k, and the carry below (k + 1) 2^64. */
static void
comba_square(const uint64_t *m, int k, uint64_t *out)
{
    unsigned __int128 acc = 0; /* the carry into the column, low 128 bits; `top` the bits above them */
    uint64_t top = 0;
    for (int c = 0; c < 2 * k - 1; c++) {
        unsigned __int128 s = 0;
        uint64_t over = 0;
        for (int a = c < k ? 0 : c - k + 1; a < c - a; a++) {
            const unsigned __int128 p = (unsigned __int128)m[a] * m[c - a];
            s += p;
            over += s < p;
        }
        over = (over << 1) | (uint64_t)(s >> 127);
        s <<= 1;
        if ((c & 1) == 0) {
            const unsigned __int128 p = (unsigned __int128)m[c / 2] * m[c / 2];
            s += p;
            over += s < p;
        }
        acc += s;
        top += over + (acc < s);
        out[c] = (uint64_t)acc;
        acc = (acc >> 64) | ((unsigned __int128)top << 64);
        top = 0;
    }
    out[2 * k - 1] = (uint64_t)acc; /* m^2 < 2^(128 k): nothing is left above */
}
#endif

PyDoc_STRVAR(square_limbs_doc,
"square_limbs($module, V, out, /)\n"
"--\n"
"\n"
"out[i] = V[i]^2, exactly, for V (n, K) int64 limbs (two's complement, lowest first) and a\n"
"writable (n, L) int64 array with L >= 2 K, both C-contiguous: |V[i]| <= 2^(64 K - 1), so the\n"
"square is below 2^(128 K - 1) and fits 2 K limbs with its sign bit clear.");

static PyObject *
square_limbs(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
#if SCAN_WIDE
    static const char func[] = "square_limbs";
    Py_buffer V = {0}, out = {0};
    PyObject *result = NULL;
    uint64_t *mag = NULL;

    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "square_limbs() takes 2 arguments (V, out), got %zd", nargs);
        return NULL;
    }
    if (get_array(func, "V", args[0], 2, INT64_ITEMS, 0, &V) < 0
        || get_array(func, "out", args[1], 2, INT64_ITEMS, 1, &out) < 0) {
        goto done;
    }
    const Py_ssize_t n = V.shape[0], K = V.shape[1], L = out.shape[1];
    if (K < 1 || K > 1 << 20 || out.shape[0] != n || L < 2 * K) {
        PyErr_Format(PyExc_ValueError, "square_limbs(): out of shape (%zd, %zd) for V of shape (%zd, %zd): "
                     "(n, 2 K) at least, 1 <= K <= 2^20", out.shape[0], L, n, K);
        goto done;
    }
    mag = PyMem_Malloc((size_t)K * sizeof(uint64_t));
    if (mag == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    const uint64_t *v = V.buf;
    uint64_t *o = out.buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        uint64_t *row = o + i * L;
        wide_magnitude(mag, v + i * K, (int)K);
        int k = (int)K;
        while (k > 0 && mag[k - 1] == 0) {
            k--;
        }
        memset(row, 0, (size_t)L * sizeof(uint64_t));
        if (k > 0) {
            comba_square(mag, k, row);
        }
    }
    Py_END_ALLOW_THREADS
    Py_INCREF(Py_None);
    result = Py_None;
done:
    PyMem_Free(mag);
    PyBuffer_Release(&V);
    if (out.obj != NULL) {
        PyBuffer_Release(&out);
    }
    return result;
#else
    PyErr_SetString(PyExc_NotImplementedError, "square_limbs() needs a compiler with __int128");
    return NULL;
#endif
}

PyDoc_STRVAR(gathered_sums_doc,
"gathered_sums($module, M, rows, points, out, /)\n"
"--\n"
"\n"
"out[j] = M[rows[0]] + ... + M[rows[points[j]]], exactly, for M (n, K) int64 limbs (two's\n"
"complement, lowest first), rows (m,) int64 in [0, n), points (p,) int64 strictly increasing\n"
"in [0, m) and a writable (p, K + 1) int64 out, all C-contiguous: each sum of at most m < 2^63\n"
"values below 2^(64 K - 1) in magnitude fits K + 1 limbs. ValueError names a row or point out\n"
"of range.");

static PyObject *
gathered_sums(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    static const char func[] = "gathered_sums";
    Py_buffer M = {0}, rows = {0}, points = {0}, out = {0};
    PyObject *result = NULL;
    uint64_t *acc = NULL;

    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "gathered_sums() takes 4 arguments (M, rows, points, out), got %zd", nargs);
        return NULL;
    }
    if (get_array(func, "M", args[0], 2, INT64_ITEMS, 0, &M) < 0
        || get_array(func, "rows", args[1], 1, INT64_ITEMS, 0, &rows) < 0
        || get_array(func, "points", args[2], 1, INT64_ITEMS, 0, &points) < 0
        || get_array(func, "out", args[3], 2, INT64_ITEMS, 1, &out) < 0) {
        goto done;
    }
    const Py_ssize_t n = M.shape[0], K = M.shape[1], m = rows.shape[0], p = points.shape[0];
    if (K < 1 || K > 1 << 20 || out.shape[0] != p || out.shape[1] != K + 1) {
        PyErr_Format(PyExc_ValueError, "gathered_sums(): out of shape (%zd, %zd) for %zd points and M of shape "
                     "(%zd, %zd): (points, K + 1), 1 <= K <= 2^20", out.shape[0], out.shape[1], p, n, K);
        goto done;
    }
    const int64_t *row = rows.buf, *point = points.buf;
    for (Py_ssize_t j = 0; j < p; j++) {
        if (point[j] < 0 || point[j] >= m || (j > 0 && point[j] <= point[j - 1])) {
            PyErr_Format(PyExc_ValueError, "gathered_sums(): points[%zd]=%lld is out of range or order (%zd rows)",
                         j, (long long)point[j], m);
            goto done;
        }
    }
    const Py_ssize_t last = p > 0 ? point[p - 1] + 1 : 0;
    for (Py_ssize_t t = 0; t < last; t++) {
        if (row[t] < 0 || row[t] >= n) {
            PyErr_Format(PyExc_ValueError, "gathered_sums(): rows[%zd]=%lld is not a row of M (0..%zd)", t,
                         (long long)row[t], n - 1);
            goto done;
        }
    }
    acc = PyMem_Calloc((size_t)K + 1, sizeof(uint64_t));
    if (acc == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    const uint64_t *values = M.buf;
    uint64_t *o = out.buf;
    Py_ssize_t t = 0;
    for (Py_ssize_t j = 0; j < p; j++) {
        for (; t <= point[j]; t++) { /* acc += M[row[t]], sign-extended to K + 1 limbs */
            const uint64_t *v = values + row[t] * K;
            unsigned carry = 0;
            for (Py_ssize_t k = 0; k < K; k++) {
                const uint64_t s = acc[k] + v[k];
                const unsigned c1 = s < v[k];
                acc[k] = s + carry;
                carry = c1 | (acc[k] < s);
            }
            acc[K] += ((int64_t)v[K - 1] < 0 ? ~(uint64_t)0 : 0) + carry;
        }
        memcpy(o + j * (K + 1), acc, ((size_t)K + 1) * sizeof(uint64_t));
    }
    Py_END_ALLOW_THREADS
    Py_INCREF(Py_None);
    result = Py_None;
done:
    PyMem_Free(acc);
    PyBuffer_Release(&M);
    PyBuffer_Release(&rows);
    PyBuffer_Release(&points);
    PyBuffer_Release(&out);
    return result;
}

static PyMethodDef limbrows_methods[] = {
    {"gathered_sums", (PyCFunction)(void (*)(void))gathered_sums, METH_FASTCALL, gathered_sums_doc},
    {"square_limbs", (PyCFunction)(void (*)(void))square_limbs, METH_FASTCALL, square_limbs_doc},
    {"limb_ratios", (PyCFunction)(void (*)(void))limb_ratios, METH_FASTCALL, limb_ratios_doc},
    {"int_ratios", (PyCFunction)(void (*)(void))int_ratios, METH_FASTCALL, int_ratios_doc},
    {"int_limbs", (PyCFunction)(void (*)(void))int_limbs, METH_FASTCALL, int_limbs_doc},
    {"limb_ints", (PyCFunction)(void (*)(void))limb_ints, METH_FASTCALL, limb_ints_doc},
    {"dyadic_range", (PyCFunction)(void (*)(void))dyadic_range, METH_FASTCALL, dyadic_range_doc},
    {"dyadic_fill", (PyCFunction)(void (*)(void))dyadic_fill, METH_FASTCALL, dyadic_fill_doc},
    {"limb_scores", (PyCFunction)(void (*)(void))limb_scores, METH_FASTCALL, limb_scores_doc},
    {"signed_limbs", (PyCFunction)(void (*)(void))signed_limbs, METH_FASTCALL, signed_limbs_doc},
    {"limb_norms", (PyCFunction)(void (*)(void))limb_norms, METH_FASTCALL, limb_norms_doc},
    {"limb_doubles", (PyCFunction)(void (*)(void))limb_doubles, METH_FASTCALL, limb_doubles_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef limbrows_module = {
    PyModuleDef_HEAD_INIT, "_limbrows",
    "Integer samples in 64-bit limbs: signed rows, squared norms and nearest doubles, exactly.",
    -1, limbrows_methods,
};

PyMODINIT_FUNC
PyInit__limbrows(void)
{
    return PyModule_Create(&limbrows_module);
}
