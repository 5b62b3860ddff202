/*
 * _exact.h: what the package's three C extensions share, exactly.
 *
 *   verify_perceptron.data._rows    signed_rows, scores  (wrapper: verify_perceptron.data.kernel)
 *   verify_perceptron.run._scan     online_pass          (wrapper: verify_perceptron.run.kernel)
 *   verify_perceptron.check._replay check_online         (wrapper: verify_perceptron.check.kernel)
 *
 * Each includes this header and compiles its own copy of what it uses; no
 * extension links to or imports another, so the checker's replay shares
 * no code with the engine but these primitives. They are:
 *
 * - int128, for values that need up to 128 bits: the product of two int64
 *   is below 2^126 in magnitude, and ||W||^2 and the checker's running sums
 *   are kept in it exactly;
 * - the argument parsing: arrays through the buffer protocol (NumPy arrays,
 *   memoryviews, array.array, so no header but Python's own is needed),
 *   checked for item type, dimensions, contiguity and writability, with
 *   errors that name the function and the argument;
 * - Python ints to and from int128, exactly, or OverflowError;
 * - the largest ||W||^2 a caller may ask for, below 2^126, so that every
 *   |W_j| <= ||W|| < 2^63 fits in int64;
 * - z . w in int64 where ||z||^2 * ||w||^2 < 2^126: by Cauchy-Schwarz every
 *   partial sum, in any order, is at most ||z||*||w|| < 2^63 in magnitude,
 *   so the sums may be vectorised and are still exact.
 *
 * Everything needs __int128 (GCC, Clang). Elsewhere SCAN_WIDE is 0 and each
 * extension's functions raise NotImplementedError (the package then uses
 * NumPy and Python); defining SCAN_NO_INT128 builds that fallback on purpose.
 */

#ifndef VERIFY_PERCEPTRON_EXACT_H
#define VERIFY_PERCEPTRON_EXACT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>

#if defined(__SIZEOF_INT128__) && !defined(SCAN_NO_INT128)
#define SCAN_WIDE 1
__extension__ typedef __int128 int128;
#elif defined(__GNUC__)
#define SCAN_WIDE 0
#else
#error "verify_perceptron's C kernels need __int128 or GCC's overflow builtins; the package falls back to NumPy"
#endif

#if PY_LITTLE_ENDIAN
#define NATIVE_ORDER '<'
#else
#define NATIVE_ORDER '>'
#endif

/* A function of this header: each extension uses only some of them, and the
 * others must not warn (nor stay in its object code). */
#define EXACT_SHARED static __attribute__((unused))

/* ---- the arguments ----------------------------------------------------- */

enum item_kind { INT64_ITEMS, FLAG_ITEMS, SAMPLE_ITEMS, FLOAT64_ITEMS };

/* Does the buffer hold native int64 items (kind INT64_ITEMS), signed 16-, 32-
 * or 64-bit integers (kind SAMPLE_ITEMS), doubles (kind FLOAT64_ITEMS), or
 * one-byte booleans or uint8 (kind FLAG_ITEMS)? */
EXACT_SHARED int
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
    if (kind == FLOAT64_ITEMS) {
        return view->itemsize == 8 && format[0] == 'd';
    }
    if (kind == SAMPLE_ITEMS) {
        return (view->itemsize == 2 && format[0] == 'h')
            || (view->itemsize == 4 && (format[0] == 'i' || format[0] == 'l'))
            || (view->itemsize == 8 && (format[0] == 'q' || format[0] == 'l'));
    }
    return view->itemsize == 1 && (format[0] == '?' || format[0] == 'B');
}

/* Fill `view` from `obj`, argument `name` of `func`: a C-contiguous buffer of
 * `ndim` dimensions holding items of `kind`, writable if asked. On failure
 * raise TypeError (not a buffer, wrong items) or ValueError (wrong ndim, not
 * contiguous, read-only) naming the argument and return -1. */
EXACT_SHARED int
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
    const char *wanted = kind == INT64_ITEMS ? "int64" : kind == SAMPLE_ITEMS ? "int16, int32 or int64"
                       : kind == FLOAT64_ITEMS ? "float64" : "bool or uint8";
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
EXACT_SHARED int
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
EXACT_SHARED int
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

/* An array of length n that goes with Z's rows (tie flags, squared norms, counts, ...). */
EXACT_SHARED int
check_rows(const char *func, const char *name, const Py_buffer *view, Py_ssize_t n)
{
    if (view->shape[0] != n) {
        PyErr_Format(PyExc_ValueError, "%s(): %s has length %zd but Z has %zd rows",
                     func, name, view->shape[0], n);
        return -1;
    }
    return 0;
}

/* ---- 128-bit integers and Python ints --------------------------------- */

#if SCAN_WIDE
/* Entry i of an int64 array holding each value as two int64, its low 64 bits then its high ones. */
static inline int128
halves_at(const int64_t *a, Py_ssize_t i)
{
    return (int128)(((unsigned __int128)(uint64_t)a[2 * i + 1] << 64) | (uint64_t)a[2 * i]);
}

/* A Python int as hi * 2^64 + lo, with lo = the value mod 2^64 and hi = floor(value / 2^64):
 * it fits in 128 bits exactly when hi fits in int64. */
EXACT_SHARED int
to_int128_exact(const char *func, const char *name, PyObject *obj, int128 *out)
{
    unsigned long long lo = PyLong_AsUnsignedLongLongMask(obj); /* the value mod 2^64 */
    if (lo == (unsigned long long)-1 && PyErr_Occurred()) {
        return -1;
    }
    PyObject *shift = PyLong_FromLong(64);
    PyObject *high = shift != NULL ? PyNumber_Rshift(obj, shift) : NULL; /* floor(obj / 2^64) */
    Py_XDECREF(shift);
    if (high == NULL) {
        return -1;
    }
    int overflow = 0;
    long long hi = PyLong_AsLongLongAndOverflow(high, &overflow);
    Py_DECREF(high);
    if (hi == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (overflow) {
        PyErr_Format(PyExc_OverflowError, "%s(): %s=%R does not fit in 128 bits", func, name, obj);
        return -1;
    }
    *out = (int128)(((unsigned __int128)(unsigned long long)hi << 64) | lo);
    return 0;
}

/* A Python int (or any integer with __index__) in [-2^127, 2^127) as int128; else
 * TypeError or OverflowError naming it. */
EXACT_SHARED int
to_int128(const char *func, const char *name, PyObject *obj, int128 *out)
{
    if (!PyIndex_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s(): %s must be an int, got %.100s",
                     func, name, Py_TYPE(obj)->tp_name);
        return -1;
    }
    PyObject *index = PyNumber_Index(obj); /* Python ints, NumPy integers, ... */
    if (index == NULL) {
        return -1;
    }
    int status = to_int128_exact(func, name, index, out);
    Py_DECREF(index);
    return status;
}

/* The limit of ||W||^2 online_pass and check_online accept: below 2^126, so every
 * |W_j| <= ||W|| < 2^63. */
EXACT_SHARED int
check_limit(const char *func, int128 limit, PyObject *shown)
{
    if (limit < 0 || limit >= ((int128)1 << 126)) {
        PyErr_Format(PyExc_ValueError, "%s(): limit=%R must satisfy 0 <= limit < 2^126", func, shown);
        return -1;
    }
    return 0;
}

/* An int128 as a Python int: hi * 2^64 + lo. */
EXACT_SHARED PyObject *
from_int128(int128 value)
{
    if (value >= INT64_MIN && value <= INT64_MAX) {
        return PyLong_FromLongLong((long long)value);
    }
    unsigned __int128 bits = (unsigned __int128)value;
    PyObject *hi = PyLong_FromLongLong((long long)(int64_t)(uint64_t)(bits >> 64));
    PyObject *lo = PyLong_FromUnsignedLongLong((unsigned long long)(uint64_t)bits);
    PyObject *shift = PyLong_FromLong(64);
    PyObject *shifted = hi && lo && shift ? PyNumber_Lshift(hi, shift) : NULL;
    PyObject *result = shifted != NULL ? PyNumber_Or(shifted, lo) : NULL;
    Py_XDECREF(hi);
    Py_XDECREF(lo);
    Py_XDECREF(shift);
    Py_XDECREF(shifted);
    return result;
}
#endif

/* ---- fast exact dot products -------------------------------------------- */

/* Wherever GCC can, one copy of each hot loop per vector width, chosen when
 * the module loads (the exact same arithmetic in each). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define MULTIVERSION __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define MULTIVERSION
#endif

/* z . w in int64, for each sample type and each weight type. Exact under the precondition
 * ||z||^2 * ||w||^2 < 2^126: by Cauchy-Schwarz every partial sum, in any order (so
 * vectorised too), is at most ||z||*||w|| < 2^63 in magnitude. */
#define DEFINE_FAST_DOT(ZT, WT, NAME)                                                   \
static inline __attribute__((always_inline)) int64_t                                    \
NAME(const ZT *z, const WT *w, Py_ssize_t d)                                            \
{                                                                                       \
    int64_t acc = 0;                                                                    \
    for (Py_ssize_t j = 0; j < d; j++) {                                                \
        acc += (int64_t)z[j] * (int64_t)w[j];                                           \
    }                                                                                   \
    return acc;                                                                         \
}
DEFINE_FAST_DOT(int16_t, int32_t, fast_dot16_32)
DEFINE_FAST_DOT(int16_t, int64_t, fast_dot16_64)
DEFINE_FAST_DOT(int32_t, int32_t, fast_dot32_32)
DEFINE_FAST_DOT(int32_t, int64_t, fast_dot32_64)
DEFINE_FAST_DOT(int64_t, int32_t, fast_dot64_32)
DEFINE_FAST_DOT(int64_t, int64_t, fast_dot64_64)

#if SCAN_WIDE
/* ||W||^2 below this makes every |W_j| < 2^31, so a loop may read an int32 copy of W:
 * half the weight traffic, and products the vector units widen in one step. */
#define NARROW_SQ ((int128)1 << 62)
#endif

/* ---- the modules ------------------------------------------------------ */

/* The slots of every module of the package: it keeps no state, so it is safe under
 * per-interpreter GILs and needs no GIL of its own where the build is free-threaded. */
static PyModuleDef_Slot exact_module_slots[] __attribute__((unused)) = {
#ifdef Py_mod_multiple_interpreters
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#endif
#ifdef Py_GIL_DISABLED
    {Py_mod_gil, Py_MOD_GIL_NOT_USED},
#endif
    {0, NULL},
};

#endif /* VERIFY_PERCEPTRON_EXACT_H */
