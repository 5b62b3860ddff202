/*
 * verify_perceptron._scan: the next perceptron mistake, found exactly, in C.
 *
 * The fast engine keeps the integer weights W and the integer samples z_i
 * (rows of Z, labels folded in). Sample i is a mistake at score
 * s_i = z_i . W when s_i < 0, or when s_i == 0 and the note counts a tie as
 * a mistake (tie[i]). first_mistake() returns the first such i at or after
 * `start`, with its score; add_row() performs the update W += z_i.
 *
 * Precondition (the caller's guard, verify_perceptron._intmath):
 *     ||W||^2 * max_i ||z_i||^2 < 2^126.
 * By Cauchy-Schwarz every product and every partial sum, in any order, is
 * then at most ||z_i||*||W|| < 2^63 in magnitude, so int64 holds it.
 *
 * The sum is nevertheless accumulated in 128 bits, with a count of the times
 * it wrapped past 2^127, so it is exact for ANY int64 inputs: a score that
 * fits in int64 is returned exactly even if a partial sum did not, and a
 * score that does not fit raises OverflowError instead of being returned
 * wrong. A violated precondition is therefore detected, never silent.
 * Compilers without __int128 (but with GCC's overflow builtins) check every
 * product and partial sum in int64 instead: there a violated precondition
 * may raise OverflowError even when the final score would have fitted.
 *
 * Arrays come in through the buffer protocol (NumPy arrays, memoryviews,
 * array.array), so the module needs nothing but Python's own headers.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

#if defined(__SIZEOF_INT128__) && !defined(SCAN_NO_INT128)
#define SCAN_WIDE 1
__extension__ typedef __int128 int128;
#elif defined(__GNUC__)
#define SCAN_WIDE 0
#else
#error "_scan needs __int128 or GCC's overflow builtins; the package falls back to NumPy"
#endif

#if PY_LITTLE_ENDIAN
#define NATIVE_ORDER '<'
#else
#define NATIVE_ORDER '>'
#endif

/* ---- the arithmetic ---------------------------------------------------- */

#if SCAN_WIDE
/* acc += term, keeping acc + wraps * 2^128 exact: __builtin_add_overflow
 * leaves the sum modulo 2^128 in acc, and wraps counts what it lost. */
static inline void
add_exact(int128 *acc, Py_ssize_t *wraps, int128 term)
{
    if (__builtin_add_overflow(*acc, term, acc)) {
        *wraps += term > 0 ? 1 : -1;
    }
}
#endif

/* *s = z . w for vectors of length d; 0 on success, -1 if the exact value
 * does not fit in int64 (only possible when the precondition is violated). */
static int
dot(const int64_t *z, const int64_t *w, Py_ssize_t d, int64_t *s)
{
#if SCAN_WIDE
    /* |z_j * w_j| <= 2^126 always fits in 128 bits. Two running sums, so
     * that consecutive products need not wait for each other's addition;
     * the exact score is even + odd + wraps * 2^128 throughout. */
    int128 even = 0, odd = 0;
    Py_ssize_t wraps = 0, j = 0;
    for (; j + 1 < d; j += 2) {
        add_exact(&even, &wraps, (int128)z[j] * w[j]);
        add_exact(&odd, &wraps, (int128)z[j + 1] * w[j + 1]);
    }
    if (j < d) {
        add_exact(&even, &wraps, (int128)z[j] * w[j]);
    }
    add_exact(&even, &wraps, odd);
    /* wraps != 0 means |score| >= 2^128 - 2^127, far outside int64. */
    if (wraps != 0 || even < INT64_MIN || even > INT64_MAX) {
        return -1;
    }
    *s = (int64_t)even;
    return 0;
#else
    int64_t acc = 0;
    for (Py_ssize_t j = 0; j < d; j++) {
        int64_t product;
        if (__builtin_mul_overflow(z[j], w[j], &product)
            || __builtin_add_overflow(acc, product, &acc)) {
            return -1;
        }
    }
    *s = acc;
    return 0;
#endif
}

/* ---- the arguments ----------------------------------------------------- */

enum item_kind { INT64_ITEMS, FLAG_ITEMS };

/* Does the buffer hold native int64 items (kind INT64_ITEMS), or one-byte
 * booleans or uint8 (kind FLAG_ITEMS)? */
static int
has_items(const Py_buffer *view, enum item_kind kind)
{
    const char *format = view->format != NULL ? view->format : "B";
    if (*format == '@' || *format == '=' || *format == NATIVE_ORDER) {
        format++;
    }
    if (format[0] == '\0' || format[1] != '\0') {
        return 0;
    }
    if (kind == INT64_ITEMS) {
        return view->itemsize == 8 && (format[0] == 'q' || format[0] == 'l');
    }
    return view->itemsize == 1 && (format[0] == '?' || format[0] == 'B');
}

/* Fill `view` from `obj`, argument `name` of `func`: a C-contiguous buffer of
 * `ndim` dimensions holding items of `kind`, writable if asked. On failure
 * raise TypeError (not a buffer, wrong items) or ValueError (wrong ndim, not
 * contiguous, read-only) naming the argument and return -1. */
static int
get_array(const char *func, const char *name, PyObject *obj, int ndim,
          enum item_kind kind, int writable, Py_buffer *view)
{
    if (!PyObject_CheckBuffer(obj)) {
        PyErr_Format(PyExc_TypeError,
                     "%s(): %s must be an array supporting the buffer protocol, got %.100s",
                     func, name, Py_TYPE(obj)->tp_name);
        return -1;
    }
    if (PyObject_GetBuffer(obj, view, PyBUF_RECORDS_RO) < 0) {
        return -1;
    }
    const char *wanted = kind == INT64_ITEMS ? "int64" : "bool or uint8";
    if (!has_items(view, kind)) {
        PyErr_Format(PyExc_TypeError,
                     "%s(): %s must hold %s items, got format='%.20s' itemsize=%zd",
                     func, name, wanted, view->format != NULL ? view->format : "B",
                     view->itemsize);
        goto fail;
    }
    if (view->ndim != ndim) {
        PyErr_Format(PyExc_ValueError, "%s(): %s must be %d-D, got ndim=%d",
                     func, name, ndim, view->ndim);
        goto fail;
    }
    if (!PyBuffer_IsContiguous(view, 'C')) {
        if (ndim == 1) {
            PyErr_Format(PyExc_ValueError,
                         "%s(): %s must be C-contiguous, got strides=(%zd,) for itemsize=%zd",
                         func, name, view->strides[0], view->itemsize);
        }
        else {
            PyErr_Format(PyExc_ValueError,
                         "%s(): %s must be C-contiguous, got strides=(%zd, %zd) for shape=(%zd, %zd)",
                         func, name, view->strides[0], view->strides[1],
                         view->shape[0], view->shape[1]);
        }
        goto fail;
    }
    if (writable && view->readonly) {
        PyErr_Format(PyExc_ValueError, "%s(): %s must be writable, got a read-only buffer",
                     func, name);
        goto fail;
    }
    return 0;
fail:
    PyBuffer_Release(view);
    return -1;
}

/* An index argument in lo..hi, else TypeError or ValueError naming it. */
static int
get_index(const char *func, const char *name, PyObject *obj, Py_ssize_t lo, Py_ssize_t hi,
          const char *bound_name, Py_ssize_t *out)
{
    if (!PyIndex_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s(): %s=%R must be an int, got %.100s",
                     func, name, obj, Py_TYPE(obj)->tp_name);
        return -1;
    }
    Py_ssize_t value = PyNumber_AsSsize_t(obj, NULL); /* clips huge values */
    if (value == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (value < lo || value > hi) {
        PyErr_Format(PyExc_ValueError, "%s(): %s=%R must satisfy %zd <= %s <= %s=%zd",
                     func, name, obj, lo, name, bound_name, hi);
        return -1;
    }
    *out = value;
    return 0;
}

/* W (length d) against Z (n x d): ValueError naming both shapes if d differs. */
static int
check_width(const char *func, const Py_buffer *Z, const Py_buffer *W)
{
    if (W->shape[0] != Z->shape[1]) {
        PyErr_Format(PyExc_ValueError,
                     "%s(): W has length %zd but Z has %zd columns (Z.shape=(%zd, %zd))",
                     func, W->shape[0], Z->shape[1], Z->shape[0], Z->shape[1]);
        return -1;
    }
    return 0;
}

/* ---- the functions ----------------------------------------------------- */

PyDoc_STRVAR(first_mistake_doc,
"first_mistake($module, Z, W, tie, start, /)\n"
"--\n"
"\n"
"The first mistake at or after row `start`: ``(i, s)`` with s = Z[i] . W.\n"
"\n"
"Row i is a mistake when s < 0, or s == 0 and tie[i]. Returns (-1, 0) if no\n"
"row in start..n-1 is one. Z is an (n, d) C-contiguous int64 array, W a\n"
"contiguous int64 vector of length d, tie a contiguous bool or uint8 vector\n"
"of length n, and 0 <= start <= n (start == n scans nothing).\n"
"\n"
"Precondition: ||W||^2 * max_i ||Z[i]||^2 < 2^126, so that every partial\n"
"sum fits in int64. The sum is accumulated exactly in 128 bits regardless:\n"
"if a scanned row's score does not fit in int64 (the precondition was\n"
"violated) OverflowError is raised instead of a wrong score being returned.\n"
"The GIL is released while scanning; the arrays must not change meanwhile.");

static PyObject *
first_mistake(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    static const char func[] = "first_mistake";
    Py_buffer Z = {0}, W = {0}, tie = {0};
    PyObject *result = NULL;
    Py_ssize_t start;

    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError,
                     "first_mistake() takes 4 arguments (Z, W, tie, start), got %zd", nargs);
        return NULL;
    }
    if (get_array(func, "Z", args[0], 2, INT64_ITEMS, 0, &Z) < 0
        || get_array(func, "W", args[1], 1, INT64_ITEMS, 0, &W) < 0
        || get_array(func, "tie", args[2], 1, FLAG_ITEMS, 0, &tie) < 0
        || check_width(func, &Z, &W) < 0) {
        goto done;
    }
    const Py_ssize_t n = Z.shape[0], d = Z.shape[1];
    if (tie.shape[0] != n) {
        PyErr_Format(PyExc_ValueError,
                     "first_mistake(): tie has length %zd but Z has %zd rows", tie.shape[0], n);
        goto done;
    }
    if (get_index(func, "start", args[3], 0, n, "n", &start) < 0) {
        goto done;
    }

    const int64_t *z = Z.buf, *w = W.buf;
    const unsigned char *ties = tie.buf;
    Py_ssize_t found = -1, unrepresentable = -1;
    int64_t score = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = start; i < n; i++) {
        if (dot(z + i * d, w, d, &score) < 0) {
            unrepresentable = i;
            break;
        }
        /* mistake: y.(w.x) < 0, or == 0 where the note counts a tie */
        if (score < 0 || (score == 0 && ties[i])) {
            found = i;
            break;
        }
    }
    Py_END_ALLOW_THREADS

    if (unrepresentable >= 0) {
        PyErr_Format(PyExc_OverflowError,
                     "first_mistake(): the score Z[%zd] . W does not fit in int64; "
                     "the precondition ||W||^2 * max ||Z[i]||^2 < 2^126 was violated",
                     unrepresentable);
        goto done;
    }
    result = found >= 0 ? Py_BuildValue("(nL)", found, (long long)score)
                        : Py_BuildValue("(ni)", (Py_ssize_t)-1, 0);
done:
    PyBuffer_Release(&Z);
    PyBuffer_Release(&W);
    PyBuffer_Release(&tie);
    return result;
}

PyDoc_STRVAR(add_row_doc,
"add_row($module, W, Z, i, /)\n"
"--\n"
"\n"
"W += Z[i], in place, in int64. Returns None.\n"
"\n"
"W is a writable contiguous int64 vector of length d, Z an (n, d)\n"
"C-contiguous int64 array, 0 <= i < n. If any coordinate of the sum does\n"
"not fit in int64, OverflowError is raised and W is left unchanged.");

static PyObject *
add_row(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    static const char func[] = "add_row";
    Py_buffer W = {0}, Z = {0};
    PyObject *result = NULL;
    Py_ssize_t i;

    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "add_row() takes 3 arguments (W, Z, i), got %zd", nargs);
        return NULL;
    }
    if (get_array(func, "W", args[0], 1, INT64_ITEMS, 1, &W) < 0
        || get_array(func, "Z", args[1], 2, INT64_ITEMS, 0, &Z) < 0
        || check_width(func, &Z, &W) < 0) {
        goto done;
    }
    const Py_ssize_t n = Z.shape[0], d = Z.shape[1];
    if (get_index(func, "i", args[2], 0, n - 1, "n-1", &i) < 0) {
        goto done;
    }

    int64_t *w = W.buf;
    const int64_t *row = (const int64_t *)Z.buf + i * d;
    /* Check every coordinate before writing any, so a failure leaves W as it was. */
    for (Py_ssize_t j = 0; j < d; j++) {
        int64_t sum;
        if (__builtin_add_overflow(w[j], row[j], &sum)) {
            PyErr_Format(PyExc_OverflowError,
                         "add_row(): W[%zd] + Z[%zd, %zd] = %lld + %lld does not fit in int64",
                         j, i, j, (long long)w[j], (long long)row[j]);
            goto done;
        }
    }
    for (Py_ssize_t j = 0; j < d; j++) {
        w[j] += row[j];
    }
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&W);
    PyBuffer_Release(&Z);
    return result;
}

/* ---- the module -------------------------------------------------------- */

static PyMethodDef scan_methods[] = {
    {"first_mistake", (PyCFunction)(void (*)(void))first_mistake, METH_FASTCALL, first_mistake_doc},
    {"add_row", (PyCFunction)(void (*)(void))add_row, METH_FASTCALL, add_row_doc},
    {NULL, NULL, 0, NULL},
};

static PyModuleDef_Slot scan_slots[] = {
#ifdef Py_mod_multiple_interpreters
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#endif
#ifdef Py_GIL_DISABLED
    {Py_mod_gil, Py_MOD_GIL_NOT_USED},
#endif
    {0, NULL},
};

PyDoc_STRVAR(scan_doc,
"The next perceptron mistake, found exactly in C (optional; see verify_perceptron._kernel).\n"
"\n"
"Precondition of first_mistake: ||W||^2 * max_i ||Z[i]||^2 < 2^126 (the fast\n"
"engine's int64 guard). A violation raises OverflowError, never a wrong score.");

static struct PyModuleDef scan_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "verify_perceptron._scan",
    .m_doc = scan_doc,
    .m_size = 0,
    .m_methods = scan_methods,
    .m_slots = scan_slots,
};

PyMODINIT_FUNC
PyInit__scan(void)
{
    return PyModuleDef_Init(&scan_module);
}
