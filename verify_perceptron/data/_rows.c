/*
 * verify_perceptron.data._rows: the signed samples and all their scores, exactly, in C.
 * Its Python wrapper is verify_perceptron.data.kernel; the references the tests hold
 * it to are verify_perceptron.data.samples.signed_samples with
 * verify_perceptron.data.integers.row_norms_sq, and NumPy's exact products.
 *
 * signed_rows() builds the samples Z[i] = y_i * (X[i] with the bias inserted)
 * and their squared norms ||Z[i]||^2 in one pass. Every entry is compared
 * with the range of Z's items before it is stored (a negated INT64_MIN, which
 * wraps, is caught from X itself), so Z holds the exact samples or the call
 * raises OverflowError. Each squared norm is summed where it cannot wrap: in
 * int64 for int16 items (each square <= 2^30, and at most 2^32 of them since
 * X has fewer than 2^32 columns), in int128 for int32 items (each square
 * <= 2^62), and in int128 with overflow checks for int64 items; a norm that
 * does not fit in int64 is reported (None), never stored wrapped.
 *
 * scores() computes Z[i] . W for every row in int64. It checks
 * ||W||^2 * max_i ||Z[i]||^2 < 2^126 itself (||W||^2 summed with overflow
 * checks in 128 bits); by Cauchy-Schwarz every product and partial sum, in
 * any order, is then at most ||Z[i]||*||W|| < 2^63 in magnitude, so the int64
 * sums are exact and may be vectorised. It trusts `norms` to be the exact
 * squared norms, which signed_rows (or the caller) computed.
 *
 * Both need __int128 (GCC, Clang); elsewhere they raise NotImplementedError
 * and the package uses NumPy instead. The arithmetic and argument parsing
 * they share with the other extensions are in _exact.h.
 */

#include "_exact.h"

/* ---- all the scores ------------------------------------------------------ */

PyDoc_STRVAR(scores_doc,
"scores($module, Z, W, norms, out, /)\n"
"--\n"
"\n"
"out[i] = Z[i] . W for every row, exactly, in int64. Returns None.\n"
"\n"
"Z is (n, d) C-contiguous int16, int32 or int64, W a contiguous int64 vector of\n"
"length d, norms the exact ||Z[i]||^2 (int64, length n), out a writable int64\n"
"vector of length n. The function computes ||W||^2 and max(norms) itself and\n"
"raises ValueError unless their product is below 2^126, which bounds every\n"
"partial sum below 2^63 (Cauchy-Schwarz), given that norms are right.");

#if SCAN_WIDE
#define DEFINE_SCORES(ZT, NAME, DOT32, DOT64)                                           \
MULTIVERSION static void                                                                \
NAME(const ZT *z, Py_ssize_t n, Py_ssize_t d, const int64_t *w, const int32_t *w32,      \
     int narrow, int64_t *out)                                                          \
{                                                                                       \
    for (Py_ssize_t i = 0; i < n; i++) {                                                \
        out[i] = narrow ? DOT32(z + i * d, w32, d) : DOT64(z + i * d, w, d);            \
    }                                                                                   \
}
DEFINE_SCORES(int16_t, scores16, fast_dot16_32, fast_dot16_64)
DEFINE_SCORES(int32_t, scores32, fast_dot32_32, fast_dot32_64)
DEFINE_SCORES(int64_t, scores64, fast_dot64_32, fast_dot64_64)
#endif

static PyObject *
scores(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
#if SCAN_WIDE
    static const char func[] = "scores";
    Py_buffer Z = {0}, W = {0}, norms = {0}, out = {0};
    PyObject *result = NULL;
    int32_t *w32 = NULL;

    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "scores() takes 4 arguments (Z, W, norms, out), got %zd", nargs);
        return NULL;
    }
    if (get_array(func, "Z", args[0], 2, SAMPLE_ITEMS, 0, &Z) < 0
        || get_array(func, "W", args[1], 1, INT64_ITEMS, 0, &W) < 0
        || get_array(func, "norms", args[2], 1, INT64_ITEMS, 0, &norms) < 0
        || get_array(func, "out", args[3], 1, INT64_ITEMS, 1, &out) < 0
        || check_width(func, &Z, &W) < 0) {
        goto done;
    }
    const Py_ssize_t n = Z.shape[0], d = Z.shape[1];
    if (check_rows(func, "norms", &norms, n) < 0 || check_rows(func, "out", &out, n) < 0) {
        goto done;
    }
    const int64_t *w = W.buf, *norm = norms.buf;
    int128 w_sq = 0, largest = 0;
    int too_big = 0;
    for (Py_ssize_t j = 0; j < d; j++) {
        too_big |= __builtin_add_overflow(w_sq, (int128)w[j] * w[j], &w_sq);
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (norm[i] > largest) {
            largest = norm[i];
        }
    }
    /* w_sq * largest < 2^126, without forming the product */
    if (too_big || (largest > 0 && w_sq > (((int128)1 << 126) - 1) / largest)) {
        PyErr_SetString(PyExc_ValueError,
                        "scores(): ||W||^2 * max(norms) must be below 2^126 for int64 sums to be exact");
        goto done;
    }
    const int narrow = w_sq < NARROW_SQ;
    w32 = PyMem_Malloc((d > 0 ? d : 1) * sizeof(int32_t));
    if (w32 == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t j = 0; narrow && j < d; j++) {
        w32[j] = (int32_t)w[j];
    }
    Py_BEGIN_ALLOW_THREADS
    switch (Z.itemsize) {
    case 2: scores16(Z.buf, n, d, w, w32, narrow, out.buf); break;
    case 4: scores32(Z.buf, n, d, w, w32, narrow, out.buf); break;
    default: scores64(Z.buf, n, d, w, w32, narrow, out.buf);
    }
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(w32);
    PyBuffer_Release(&Z);
    PyBuffer_Release(&W);
    PyBuffer_Release(&norms);
    PyBuffer_Release(&out);
    return result;
#else
    PyErr_SetString(PyExc_NotImplementedError, "scores() needs a compiler with __int128");
    return NULL;
#endif
}

/* ---- the samples -------------------------------------------------------- */

PyDoc_STRVAR(signed_rows_doc,
"signed_rows($module, X, y, bias, bias_column, Z, norms, /)\n"
"--\n"
"\n"
"Z[i] = y[i] * (X[i] with `bias` inserted at column `bias_column`), and\n"
"norms[i] = ||Z[i]||^2, in one pass. Returns max(norms) as an int, or None\n"
"when some ||Z[i]||^2 does not fit in int64 (norms is then unusable).\n"
"\n"
"X is (n, m) C-contiguous int64, y int64 of length n (each -1 or 1), Z a\n"
"writable C-contiguous (n, m + 1) array of int16, int32 or int64, norms a\n"
"writable int64 vector of length n, bias_column 0 or m. An entry that\n"
"does not fit in Z's items raises OverflowError naming it.");

#if SCAN_WIDE
/* One row at a time: the checks of a row are folded into a flag (no branch per entry), and the
 * squared norm is summed in ACC: int64 for int16 items (each square <= 2^30, at most 2^32
 * of them), int128 for int32 items (each <= 2^62), int128 with overflow checks for int64. */
#define DEFINE_SIGNED_ROWS(ZT, NAME, LO, HI, ACC, ADD)                                  \
MULTIVERSION static Py_ssize_t                                                          \
NAME(const int64_t *x, const int64_t *y, int64_t bias, Py_ssize_t column, ZT *z,         \
     int64_t *norms, Py_ssize_t n, Py_ssize_t m, int128 *biggest, int *wide)             \
{                                                                                       \
    const Py_ssize_t offset = column == 0 ? 1 : 0; /* features after a first bias */    \
    for (Py_ssize_t i = 0; i < n; i++) {                                                \
        const int64_t *row = x + i * m;                                                 \
        const int64_t sign = y[i];                                                      \
        ZT *out = z + i * (m + 1);                                                      \
        const int128 b = (int128)sign * bias;                                           \
        if (b < (LO) || b > (HI)) {                                                     \
            return i;                                                                   \
        }                                                                               \
        out[column] = (ZT)b;                                                            \
        ACC norm = (ACC)(b * b);                                                        \
        int bad = 0, overflow = 0;                                                      \
        for (Py_ssize_t j = 0; j < m; j++) {                                            \
            const int64_t v = sign < 0 ? -row[j] : row[j]; /* INT64_MIN wraps: caught below */ \
            bad |= (v < (LO)) | (v > (HI)) | (row[j] == INT64_MIN);                     \
            out[j + offset] = (ZT)v;                                                    \
            ADD(norm, v, overflow);                                                     \
        }                                                                               \
        if (bad) {                                                                      \
            return i;                                                                   \
        }                                                                               \
        if (overflow || (int128)norm > INT64_MAX) {                                     \
            *wide = 1;                                                                  \
        }                                                                               \
        else {                                                                          \
            norms[i] = (int64_t)norm;                                                   \
            if ((int128)norm > *biggest) {                                              \
                *biggest = norm;                                                        \
            }                                                                           \
        }                                                                               \
    }                                                                                   \
    return -1;                                                                          \
}
#define ADD_SMALL(norm, v, overflow) ((norm) += (v) * (v))
#define ADD_WIDE(norm, v, overflow) ((norm) += (int128)(v) * (v))
#define ADD_CHECKED(norm, v, overflow) ((overflow) |= __builtin_add_overflow((norm), (int128)(v) * (v), &(norm)))
DEFINE_SIGNED_ROWS(int16_t, signed_rows16, INT16_MIN, INT16_MAX, int64_t, ADD_SMALL)
DEFINE_SIGNED_ROWS(int32_t, signed_rows32, INT32_MIN, INT32_MAX, int128, ADD_WIDE)
DEFINE_SIGNED_ROWS(int64_t, signed_rows64, INT64_MIN, INT64_MAX, int128, ADD_CHECKED)
#endif

static PyObject *
signed_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
#if SCAN_WIDE
    static const char func[] = "signed_rows";
    Py_buffer X = {0}, y = {0}, Z = {0}, norms = {0};
    PyObject *result = NULL;
    Py_ssize_t column;
    long long bias;

    if (nargs != 6) {
        PyErr_Format(PyExc_TypeError,
                     "signed_rows() takes 6 arguments (X, y, bias, bias_column, Z, norms), got %zd", nargs);
        return NULL;
    }
    if (get_array(func, "X", args[0], 2, INT64_ITEMS, 0, &X) < 0
        || get_array(func, "y", args[1], 1, INT64_ITEMS, 0, &y) < 0
        || get_array(func, "Z", args[4], 2, SAMPLE_ITEMS, 1, &Z) < 0
        || get_array(func, "norms", args[5], 1, INT64_ITEMS, 1, &norms) < 0) {
        goto done;
    }
    const Py_ssize_t n = X.shape[0], m = X.shape[1];
    if (Z.shape[0] != n || Z.shape[1] != m + 1 || y.shape[0] != n || norms.shape[0] != n) {
        PyErr_Format(PyExc_ValueError,
                     "signed_rows(): X is (%zd, %zd), so y and norms need %zd entries and Z shape (%zd, %zd); "
                     "got %zd, %zd and (%zd, %zd)", n, m, n, n, m + 1, y.shape[0], norms.shape[0],
                     Z.shape[0], Z.shape[1]);
        goto done;
    }
    if (m >= ((Py_ssize_t)1 << 32)) {
        PyErr_Format(PyExc_ValueError, "signed_rows(): X has %zd columns; at most 2^32 - 1", m);
        goto done;
    }
    if (get_index(func, "bias_column", args[3], 0, m, "m", &column) < 0) {
        goto done;
    }
    if (column != 0 && column != m) {
        PyErr_Format(PyExc_ValueError, "signed_rows(): bias_column=%zd must be 0 or m=%zd", column, m);
        goto done;
    }
    bias = PyLong_AsLongLong(args[2]);
    if (bias == -1 && PyErr_Occurred()) {
        goto done;
    }
    const int64_t *labels = y.buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (labels[i] != 1 && labels[i] != -1) {
            PyErr_Format(PyExc_ValueError, "signed_rows(): y[%zd]=%lld must be -1 or 1", i, (long long)labels[i]);
            goto done;
        }
    }
    int128 biggest = 0;
    int wide = 0;
    Py_ssize_t bad;
    Py_BEGIN_ALLOW_THREADS
    switch (Z.itemsize) {
    case 2: bad = signed_rows16(X.buf, labels, bias, column, Z.buf, norms.buf, n, m, &biggest, &wide); break;
    case 4: bad = signed_rows32(X.buf, labels, bias, column, Z.buf, norms.buf, n, m, &biggest, &wide); break;
    default: bad = signed_rows64(X.buf, labels, bias, column, Z.buf, norms.buf, n, m, &biggest, &wide);
    }
    Py_END_ALLOW_THREADS
    if (bad >= 0) {
        PyErr_Format(PyExc_OverflowError, "signed_rows(): row %zd does not fit in Z's %zd-byte items",
                     bad, Z.itemsize);
        goto done;
    }
    result = wide ? Py_NewRef(Py_None) : from_int128(biggest);
done:
    PyBuffer_Release(&X);
    PyBuffer_Release(&y);
    PyBuffer_Release(&Z);
    PyBuffer_Release(&norms);
    return result;
#else
    PyErr_SetString(PyExc_NotImplementedError, "signed_rows() needs a compiler with __int128");
    return NULL;
#endif
}

/* ---- the module -------------------------------------------------------- */

static PyMethodDef rows_methods[] = {
    {"signed_rows", (PyCFunction)(void (*)(void))signed_rows, METH_FASTCALL, signed_rows_doc},
    {"scores", (PyCFunction)(void (*)(void))scores, METH_FASTCALL, scores_doc},
    {NULL, NULL, 0, NULL},
};

PyDoc_STRVAR(rows_doc,
"The signed samples and all their scores, exactly, in C (optional; see\n"
"verify_perceptron.data.kernel).");

static struct PyModuleDef rows_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "verify_perceptron.data._rows",
    .m_doc = rows_doc,
    .m_size = 0,
    .m_methods = rows_methods,
    .m_slots = exact_module_slots,
};

PyMODINIT_FUNC
PyInit__rows(void)
{
    return PyModuleDef_Init(&rows_module);
}
