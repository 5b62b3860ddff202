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
 * - the argument parsing, in _arrays.h (included here): arrays through the
 *   buffer protocol (NumPy arrays, memoryviews, array.array, so no header
 *   but Python's own is needed), checked for item type, dimensions,
 *   contiguity and writability, with errors that name the function and the
 *   argument, one at a time (get_array) or a whole argument list from a
 *   table (get_arrays);
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

/* ---- the arguments: in _arrays.h ------------------------------------- */

#include "_arrays.h"

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
