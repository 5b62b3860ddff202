/*
 * verify_perceptron.notes._floor: the passes over a column of margins that
 * verify_perceptron.notes.soft_floor.column_floor makes, in C (optional).
 * Its reference, which the tests hold it to value for value, is the NumPy
 * code of soft_floor.py (_numpy_range, _numpy_sums).
 *
 * column_range() is the column's least and largest value and its least
 * positive one in one pass (NumPy made three, one of them masked).
 *
 * floor_sums() puts each weighted margin in its cell of its row of edges and
 * adds its three terms w, w*m, w*(m*m) to that cell's sums: what NumPy did
 * with a gather of the margins and weights, the terms as three arrays, a
 * dozen passes to find the cells and three bincounts. The sums are the same
 * doubles as np.bincount's: each cell's terms are added one at a time in the
 * order of `at`, the order bincount reads them. A cell is found by binary
 * search in its row (non-decreasing, -inf first and inf last): the last edge
 * <= m, that is the number of the row's edges <= m less one, as
 * soft_floor._cells defines it.
 *
 * Nothing here decides anything exact: the floors only choose which columns
 * best_reference measures (soft_floor.py says why a floor is one).
 */

#include "_exact.h"

#include <math.h>

PyDoc_STRVAR(column_range_doc,
"column_range($module, column, /)\n"
"--\n"
"\n"
"(least, largest, least positive) of a contiguous float64 vector: NaN for the\n"
"first two if any value is NaN (as NumPy's min and max give them), inf for the\n"
"third if no value is > 0 (NaN is not).");

static PyObject *
column_range(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    static const char func[] = "column_range";
    Py_buffer column = {0};
    if (nargs != 1) {
        PyErr_Format(PyExc_TypeError, "column_range() takes 1 argument (column), got %zd", nargs);
        return NULL;
    }
    if (get_array(func, "column", args[0], 1, FLOAT64_ITEMS, 0, &column) < 0) {
        return NULL;
    }
    const double *m = column.buf;
    const Py_ssize_t n = column.shape[0];
    double least = INFINITY, largest = -INFINITY, positive = INFINITY;
    int nan = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        const double v = m[i];
        nan |= v != v;
        least = v < least ? v : least;
        largest = v > largest ? v : largest;
        positive = v > 0.0 && v < positive ? v : positive;
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&column);
    if (nan) {
        least = largest = NAN;
    }
    return Py_BuildValue("(ddd)", least, largest, positive);
}

PyDoc_STRVAR(floor_sums_doc,
"floor_sums($module, column, weights, at, owner, edges, cells, sums, /)\n"
"--\n"
"\n"
"For each t, the value m = column[at[t]] of weight w = weights[at[t]], in row\n"
"r = owner[t] (0 if owner is None) of edges (R x E, each row non-decreasing,\n"
"-inf first and inf last, E <= 257): cells[t] = #{k: edges[r, k] <= m} - 1 (in\n"
"0..E-2, uint8: one byte a weighted margin, where int64 cells were 8),\n"
"and w, w*m, w*(m*m) added, in the order of t, to sums[r, cells[t], 0..2]\n"
"(sums, R x (E - 1) x 3, is zeroed first). Returns (least m, largest m, least w),\n"
"the last NaN if a weight is NaN; (inf, -inf, inf) for no values. column and\n"
"weights are float64 vectors of one length, at and owner int64 vectors of\n"
"len(cells); an index out of range raises IndexError, naming it.");

static PyObject *
floor_sums(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    static const char func[] = "floor_sums";
    Py_buffer column = {0}, weights = {0}, at = {0}, owner = {0}, edges = {0}, cells = {0}, sums = {0};
    PyObject *result = NULL;
    if (nargs != 7) {
        PyErr_Format(PyExc_TypeError,
                     "floor_sums() takes 7 arguments (column, weights, at, owner, edges, cells, sums), got %zd",
                     nargs);
        return NULL;
    }
    const int owned = args[3] != Py_None;
    if (get_array(func, "column", args[0], 1, FLOAT64_ITEMS, 0, &column) < 0
        || get_array(func, "weights", args[1], 1, FLOAT64_ITEMS, 0, &weights) < 0
        || get_array(func, "at", args[2], 1, INT64_ITEMS, 0, &at) < 0
        || (owned && get_array(func, "owner", args[3], 1, INT64_ITEMS, 0, &owner) < 0)
        || get_array(func, "edges", args[4], 2, FLOAT64_ITEMS, 0, &edges) < 0
        || get_array(func, "cells", args[5], 1, FLAG_ITEMS, 1, &cells) < 0
        || get_array(func, "sums", args[6], 3, FLOAT64_ITEMS, 1, &sums) < 0) {
        goto done;
    }
    const Py_ssize_t n = column.shape[0], count = cells.shape[0], rows = edges.shape[0], width = edges.shape[1];
    if (weights.shape[0] != n || at.shape[0] != count || (owned && owner.shape[0] != count)) {
        PyErr_Format(PyExc_ValueError,
                     "floor_sums(): len(weights)=%zd must be len(column)=%zd, and len(at)=%zd and len(owner)=%zd "
                     "len(cells)=%zd", weights.shape[0], n, at.shape[0], owned ? owner.shape[0] : count, count);
        goto done;
    }
    if (width > 257) {
        PyErr_Format(PyExc_ValueError, "floor_sums(): edges.shape=(%zd, %zd) has more than 257 edges a row (a cell is "
                     "a byte)", rows, width);
        goto done;
    }
    if (width < 2 || sums.shape[0] != rows || sums.shape[1] != width - 1 || sums.shape[2] != 3) {
        PyErr_Format(PyExc_ValueError,
                     "floor_sums(): sums.shape=(%zd, %zd, %zd) must be (%zd, %zd, 3) for edges.shape=(%zd, %zd) "
                     "(at least 2 edges a row)", sums.shape[0], sums.shape[1], sums.shape[2], rows, width - 1,
                     rows, width);
        goto done;
    }
    const double *m = column.buf, *w = weights.buf, *e = edges.buf;
    const int64_t *index = at.buf, *row = owned ? owner.buf : NULL;
    uint8_t *cell = cells.buf;
    double *total = sums.buf;
    for (Py_ssize_t t = 0; t < count; t++) {  /* (checked first: nothing is written for a bad index) */
        if (index[t] < 0 || index[t] >= n || (owned && (row[t] < 0 || row[t] >= rows))) {
            PyErr_Format(PyExc_IndexError, "floor_sums(): at[%zd]=%lld must be in 0..%zd and owner[%zd]=%lld in 0..%zd",
                         t, (long long)index[t], n - 1, t, owned ? (long long)row[t] : 0LL, rows - 1);
            goto done;
        }
    }
    double least = INFINITY, largest = -INFINITY, lightest = INFINITY;
    int nan = 0;
    Py_BEGIN_ALLOW_THREADS
    memset(total, 0, (size_t)rows * (size_t)(width - 1) * 3 * sizeof(double));
    for (Py_ssize_t t = 0; t < count; t++) {
        const double v = m[index[t]], weight = w[index[t]];
        const int64_t r = owned ? row[t] : 0;
        const double *edge = e + r * width;
        /* The last edge <= v, without branches (a compare and a conditional move a step: the margins come in
         * no order, and a branch a step mispredicted half the time made this search the pass's whole cost).
         * Invariant: edge[c] <= v (edge[0] is -inf) and the last such edge is at c..c+len-1. */
        Py_ssize_t c = 0, len = width;
        while (len > 1) {
            const Py_ssize_t half = len / 2;
            c = edge[c + half] <= v ? c + half : c;
            len -= half;
        }
        c = c > width - 2 ? width - 2 : c;  /* (v = inf: the last cell, as for a value past the last edge) */
        cell[t] = (uint8_t)c;  /* (c <= width - 2 <= 255) */
        double *slot = total + (r * (width - 1) + c) * 3;
        slot[0] += weight;
        slot[1] += weight * v;
        slot[2] += weight * (v * v);
        least = v < least ? v : least;
        largest = v > largest ? v : largest;
        nan |= weight != weight;
        lightest = weight < lightest ? weight : lightest;
    }
    Py_END_ALLOW_THREADS
    result = Py_BuildValue("(ddd)", least, largest, nan ? NAN : lightest);
done:
    PyBuffer_Release(&column);
    PyBuffer_Release(&weights);
    PyBuffer_Release(&at);
    if (owned) {
        PyBuffer_Release(&owner);
    }
    PyBuffer_Release(&edges);
    PyBuffer_Release(&cells);
    PyBuffer_Release(&sums);
    return result;
}

static PyMethodDef floor_methods[] = {
    {"column_range", (PyCFunction)(void (*)(void))column_range, METH_FASTCALL, column_range_doc},
    {"floor_sums", (PyCFunction)(void (*)(void))floor_sums, METH_FASTCALL, floor_sums_doc},
    {NULL, NULL, 0, NULL},
};

PyDoc_STRVAR(floor_doc,
"The passes over a column of margins of verify_perceptron.notes.soft_floor, in C\n"
"(optional).");

static struct PyModuleDef floor_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "verify_perceptron.notes._floor",
    .m_doc = floor_doc,
    .m_size = 0,
    .m_methods = floor_methods,
    .m_slots = exact_module_slots,
};

PyMODINIT_FUNC
PyInit__floor(void)
{
    return PyModuleDef_Init(&floor_module);
}
