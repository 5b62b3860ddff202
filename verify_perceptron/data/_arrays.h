/*
 * _arrays.h: the C entry points' arguments, fetched and checked in one place.
 *
 * Included by _exact.h (after Python.h, EXACT_SHARED and NATIVE_ORDER), never
 * on its own, so every extension has it. An array argument comes through the
 * buffer protocol (NumPy arrays, memoryviews, array.array): get_array checks
 * its items, dimensions, contiguity and writability and names the function
 * and the argument in its error; get_arrays does that for a whole argument
 * list after checking its length, from a table of struct array_arg, and
 * leaves nothing held when it fails; release_arrays lets them go. The joint
 * checks of lengths (which argument's rows go with which) stay with each entry
 * point, whose error lists the shapes that disagree; check_width and
 * check_rows are the common ones.
 */

#ifndef VERIFY_PERCEPTRON_ARRAYS_H
#define VERIFY_PERCEPTRON_ARRAYS_H

#ifndef VERIFY_PERCEPTRON_EXACT_H
#error "_arrays.h is included by _exact.h"
#endif

#include <string.h>

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

/* One argument of an entry point's table: its name in errors, its dimensions (0: not an array, left to the
 * entry point), its items and whether it is written. */
struct array_arg {
    const char *name;
    int ndim;
    enum item_kind kind;
    int writable;
};

/* Let go of views[0..count-1]; an empty view (zeroed, or one get_array failed on) is passed over. */
EXACT_SHARED void
release_arrays(Py_buffer *views, int count)
{
    for (int j = 0; j < count; j++) {
        PyBuffer_Release(&views[j]);
    }
}

/* Fill views[j] from args[j] as spec[j] says, for j < count, after checking that `func` got count arguments
 * (else TypeError "func() takes count arguments, got nargs"). An entry of ndim 0 is not fetched: its view stays
 * empty. On failure raise get_array's error for the first bad argument, release every view taken (all are then
 * empty) and return -1. */
EXACT_SHARED int
get_arrays(const char *func, PyObject *const *args, Py_ssize_t nargs, const struct array_arg *spec, int count,
           Py_buffer *views)
{
    memset(views, 0, (size_t)count * sizeof(Py_buffer));
    if (nargs != count) {
        PyErr_Format(PyExc_TypeError, "%s() takes %d arguments, got %zd", func, count, nargs);
        return -1;
    }
    for (int j = 0; j < count; j++) {
        if (spec[j].ndim != 0 && get_array(func, spec[j].name, args[j], spec[j].ndim, spec[j].kind,
                                           spec[j].writable, &views[j]) < 0) {
            release_arrays(views, j);
            return -1;
        }
    }
    return 0;
}

#endif
