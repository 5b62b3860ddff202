/*
 * verify_perceptron._scan: online perceptron passes and the checker's replay, exactly, in C.
 *
 * The fast engine keeps the integer weights W and the integer samples z_i
 * (rows of Z, labels folded in, stored as int16, int32 or int64). Sample i
 * is a mistake at score s_i = z_i . W when s_i < 0, or when s_i == 0 and
 * the note counts a tie as a mistake (tie[i]).
 *
 * online_pass() runs the perceptron from a row to the end of the rows,
 * updating W in place and writing each mistake (row, score) to a buffer.
 * Its precondition (the caller's guard, verify_perceptron._intmath):
 *     ||W||^2 <= limit and limit * max_i ||z_i||^2 < 2^126.
 * By Cauchy-Schwarz every product and every partial sum, in any order, is
 * then at most ||z_i||*||W|| < 2^63 in magnitude, so int64 sums are exact
 * (and may be vectorised). ||W||^2 is tracked exactly in 128 bits; an
 * update that would take it above `limit` is not made: the pass stops.
 *
 * check_online() is the checker's side: it replays recorded updates,
 * recomputing each score in 128-bit sums (exact for any int64 inputs,
 * with a count of wrap-arounds), and evaluates the claims' compiled
 * program with overflow-checked 128-bit arithmetic. It stops before any
 * update that fails a check or does not fit, so the Python checker
 * decides it: a violated precondition is detected, never silent.
 *
 * Both need __int128 (GCC, Clang); elsewhere they raise NotImplementedError
 * and the package uses NumPy and Python instead. Arrays come in through the
 * buffer protocol (NumPy arrays, memoryviews, array.array), so the module
 * needs nothing but Python's own headers.
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

/* *s = z . w for vectors of length d (z of any sample type, w int64); 0 on success, -1 if the
 * exact value does not fit in int64 (only possible when the precondition is violated). */
#if SCAN_WIDE
/* |z_j * w_j| <= 2^126 always fits in 128 bits. Two running sums, so that consecutive
 * products need not wait for each other's addition; the exact score is
 * even + odd + wraps * 2^128 throughout. wraps != 0 means |score| >= 2^128 - 2^127. */
#define DEFINE_WIDE_DOT(ZT, NAME)                                                       \
static int                                                                              \
NAME(const ZT *z, const int64_t *w, Py_ssize_t d, int64_t *s)                           \
{                                                                                       \
    int128 even = 0, odd = 0;                                                           \
    Py_ssize_t wraps = 0, j = 0;                                                        \
    for (; j + 1 < d; j += 2) {                                                         \
        add_exact(&even, &wraps, (int128)z[j] * w[j]);                                  \
        add_exact(&odd, &wraps, (int128)z[j + 1] * w[j + 1]);                           \
    }                                                                                   \
    if (j < d) {                                                                        \
        add_exact(&even, &wraps, (int128)z[j] * w[j]);                                  \
    }                                                                                   \
    add_exact(&even, &wraps, odd);                                                      \
    if (wraps != 0 || even < INT64_MIN || even > INT64_MAX) {                           \
        return -1;                                                                      \
    }                                                                                   \
    *s = (int64_t)even;                                                                 \
    return 0;                                                                           \
}
DEFINE_WIDE_DOT(int16_t, wide_dot16)
DEFINE_WIDE_DOT(int32_t, wide_dot32)
DEFINE_WIDE_DOT(int64_t, wide_dot64)

/* Row i of a C-contiguous sample matrix of `width`-byte items, dotted with w exactly. */
static int
wide_dot(const void *Z, int width, Py_ssize_t i, Py_ssize_t d, const int64_t *w, int64_t *s)
{
    switch (width) {
    case 2: return wide_dot16((const int16_t *)Z + i * d, w, d, s);
    case 4: return wide_dot32((const int32_t *)Z + i * d, w, d, s);
    default: return wide_dot64((const int64_t *)Z + i * d, w, d, s);
    }
}

/* w += row i, in int64 (the caller proves the sums fit). */
static void
add_sample(int64_t *w, const void *Z, int width, Py_ssize_t i, Py_ssize_t d)
{
    switch (width) {
    case 2: { const int16_t *r = (const int16_t *)Z + i * d; for (Py_ssize_t j = 0; j < d; j++) w[j] += r[j]; break; }
    case 4: { const int32_t *r = (const int32_t *)Z + i * d; for (Py_ssize_t j = 0; j < d; j++) w[j] += r[j]; break; }
    default: { const int64_t *r = (const int64_t *)Z + i * d; for (Py_ssize_t j = 0; j < d; j++) w[j] += r[j]; }
    }
}
#endif

/* ---- the arguments ----------------------------------------------------- */

enum item_kind { INT64_ITEMS, FLAG_ITEMS, SAMPLE_ITEMS };

/* Does the buffer hold native int64 items (kind INT64_ITEMS), signed 16-, 32-
 * or 64-bit integers (kind SAMPLE_ITEMS), or one-byte booleans or uint8 (kind
 * FLAG_ITEMS)? */
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
    const char *wanted = kind == INT64_ITEMS ? "int64" : kind == SAMPLE_ITEMS ? "int16, int32 or int64" : "bool or uint8";
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

/* ---- 128-bit integers and Python ints --------------------------------- */

#if SCAN_WIDE
static int to_int128_exact(const char *func, const char *name, PyObject *obj, int128 *out);

/* A Python int (or any integer with __index__) in [-2^127, 2^127) as int128; else
 * TypeError or OverflowError naming it. */
static int
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

/* The limit of ||W||^2 both functions accept: below 2^126, so every |W_j| < 2^63. */
static int
check_limit(const char *func, int128 limit, PyObject *shown)
{
    if (limit < 0 || limit >= ((int128)1 << 126)) {
        PyErr_Format(PyExc_ValueError, "%s(): limit=%R must satisfy 0 <= limit < 2^126", func, shown);
        return -1;
    }
    return 0;
}

static int
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

/* An int128 as a Python int: hi * 2^64 + lo. */
static PyObject *
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

/* ---- the engine's pass ------------------------------------------------- */

/* Wherever GCC can, one copy of the hot loop per vector width, chosen when
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
/* ||W||^2 below this makes every |W_j| < 2^31, so the pass may read an int32 copy of W:
 * half the weight traffic, and products the vector units widen in one step. */
#define NARROW_SQ ((int128)1 << 62)

/* The pass itself, for rows of type ZT: see online_pass. */
#define DEFINE_PASS(ZT, NAME, DOT32, DOT64)                                             \
MULTIVERSION static Py_ssize_t                                                          \
NAME(const ZT *z, Py_ssize_t n, Py_ssize_t d, int64_t *w, int32_t *w32,                  \
     const unsigned char *ties, const int64_t *norm, int64_t *count, int64_t *rows,     \
     int64_t *scores, Py_ssize_t cap, Py_ssize_t *position, int128 *w_sq, int128 limit, \
     int *guarded)                                                                      \
{                                                                                       \
    Py_ssize_t m = 0, i = *position;                                                    \
    int narrow = *w_sq < NARROW_SQ;                                                     \
    for (Py_ssize_t j = 0; narrow && j < d; j++) {                                      \
        w32[j] = (int32_t)w[j];                                                         \
    }                                                                                   \
    for (; i < n; i++) {                                                                \
        const ZT *row = z + i * d;                                                      \
        const int64_t s = narrow ? DOT32(row, w32, d) : DOT64(row, w, d);               \
        if (s > 0 || (s == 0 && !ties[i])) {                                            \
            continue;                                                                   \
        }                                                                               \
        /* ||W + z||^2 = ||W||^2 + 2 W.z + ||z||^2: each term far inside 128 bits */     \
        const int128 after = *w_sq + 2 * (int128)s + norm[i];                           \
        if (after > limit) {                                                            \
            *guarded = 1;                                                               \
            break;                                                                      \
        }                                                                               \
        narrow = after < NARROW_SQ;                                                     \
        for (Py_ssize_t j = 0; j < d; j++) {                                            \
            w[j] += row[j]; /* |W_j| <= ||W|| < 2^63 after the update too */            \
            w32[j] = (int32_t)w[j]; /* read only while narrow, when it is exact */      \
        }                                                                               \
        *w_sq = after;                                                                  \
        count[i] += 1;                                                                  \
        rows[m] = i;                                                                    \
        scores[m] = s;                                                                  \
        if (++m == cap) {                                                               \
            i++;                                                                        \
            break;                                                                      \
        }                                                                               \
    }                                                                                   \
    *position = i;                                                                      \
    return m;                                                                           \
}
DEFINE_PASS(int16_t, pass16, fast_dot16_32, fast_dot16_64)
DEFINE_PASS(int32_t, pass32, fast_dot32_32, fast_dot32_64)
DEFINE_PASS(int64_t, pass64, fast_dot64_32, fast_dot64_64)
#endif

/* The three arrays of length n that go with Z: tie flags, squared norms, counts. */
static int
check_rows(const char *func, const char *name, const Py_buffer *view, Py_ssize_t n)
{
    if (view->shape[0] != n) {
        PyErr_Format(PyExc_ValueError, "%s(): %s has length %zd but Z has %zd rows",
                     func, name, view->shape[0], n);
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(online_pass_doc,
"online_pass($module, Z, W, tie, norms, counts, out_i, out_s, start, w_sq, limit, /)\n"
"--\n"
"\n"
"One online pass of the perceptron from row `start`, in place, until the end\n"
"of the rows, a full output buffer, or the guard.\n"
"\n"
"Row i is a mistake when s = Z[i] . W < 0, or s == 0 and tie[i]; a mistake\n"
"makes W += Z[i], counts[i] += 1 and w_sq += 2s + norms[i], and is written\n"
"to out_i / out_s (its row and score). Returns ``(m, position, w_sq, guarded)``:\n"
"m mistakes written, the row to resume from, the new ||W||^2, and whether the\n"
"pass stopped at row `position` because its update would take ||W||^2 above\n"
"`limit` (that update is then not made: the caller makes it).\n"
"\n"
"Z is (n, d) C-contiguous int16, int32 or int64; W, norms, counts, out_i, out_s are contiguous\n"
"int64 (W, counts, out_* writable, out_i and out_s of one length >= 1); tie\n"
"holds bool or uint8 flags. Preconditions, which the caller guarantees:\n"
"norms[i] = ||Z[i]||^2, w_sq = ||W||^2 <= limit, and limit * max norms < 2^126\n"
"(limit >= 2^126 is refused: ValueError),\n"
"so that every partial sum of every score fits in int64 (Cauchy-Schwarz).\n"
"\n"
"With an 11th argument, epochs = (out_e, saved, epoch, made, max_epochs,\n"
"stop_epoch, per_epoch, work), the pass is pass `epoch` of a run (`made` mistakes\n"
"in it so far) and goes on into the next epochs by itself wherever the caller\n"
"would have nothing to do at the end of one: it stops at the end of an epoch\n"
"without a mistake, of epoch max_epochs or stop_epoch, of an epoch whose W\n"
"equals `saved` (int64, length d, or empty for none), of every epoch if\n"
"per_epoch, or once `work` rows were scanned; or as above at the guard or a\n"
"full buffer. out_e (as long as out_i) receives each mistake's epoch, and it\n"
"returns ``(m, position, w_sq, guarded, epoch, made)``.\n"
"The GIL is released while scanning; the arrays must not change meanwhile.");

/* The epochs argument of online_pass, when given. */
typedef struct {
    Py_buffer out_e, saved;
    long long epoch, made, max_epochs, stop_epoch, per_epoch, work;
} Epochs;

static int
get_epochs(const char *func, PyObject *obj, Py_ssize_t cap, Py_ssize_t d, Epochs *e)
{
    PyObject *out_e, *saved;
    if (!PyTuple_Check(obj)
        || !PyArg_ParseTuple(obj, "OOLLLLLL", &out_e, &saved, &e->epoch, &e->made, &e->max_epochs,
                             &e->stop_epoch, &e->per_epoch, &e->work)) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError,
                     "%s(): epochs must be a tuple (out_e, saved, epoch, made, max_epochs, stop_epoch, "
                     "per_epoch, work) of two int64 arrays and six ints", func);
        return -1;
    }
    if (get_array(func, "out_e", out_e, 1, INT64_ITEMS, 1, &e->out_e) < 0) {
        return -1;
    }
    if (get_array(func, "saved", saved, 1, INT64_ITEMS, 0, &e->saved) < 0) {
        PyBuffer_Release(&e->out_e);
        return -1;
    }
    if (e->out_e.shape[0] != cap || (e->saved.shape[0] != 0 && e->saved.shape[0] != d)
        || e->epoch < 1 || e->made < 0 || e->max_epochs < e->epoch || e->work < 1) {
        PyErr_Format(PyExc_ValueError,
                     "%s(): epochs needs out_e as long as out_i (%zd), saved empty or of length d=%zd, "
                     "1 <= epoch <= max_epochs, made >= 0 and work >= 1", func, cap, d);
        PyBuffer_Release(&e->out_e);
        PyBuffer_Release(&e->saved);
        return -1;
    }
    return 0;
}

static PyObject *
online_pass(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
#if SCAN_WIDE
    static const char func[] = "online_pass";
    Py_buffer Z = {0}, W = {0}, tie = {0}, norms = {0}, counts = {0}, out_i = {0}, out_s = {0};
    Epochs ep = {0};
    int with_epochs = nargs == 11;
    PyObject *result = NULL;
    Py_ssize_t start;
    int128 w_sq, limit;
    int32_t *w32 = NULL;

    if (nargs != 10 && nargs != 11) {
        PyErr_Format(PyExc_TypeError,
                     "online_pass() takes 10 arguments (Z, W, tie, norms, counts, out_i, out_s, "
                     "start, w_sq, limit), or 11 with epochs, got %zd", nargs);
        return NULL;
    }
    if (get_array(func, "Z", args[0], 2, SAMPLE_ITEMS, 0, &Z) < 0
        || get_array(func, "W", args[1], 1, INT64_ITEMS, 1, &W) < 0
        || get_array(func, "tie", args[2], 1, FLAG_ITEMS, 0, &tie) < 0
        || get_array(func, "norms", args[3], 1, INT64_ITEMS, 0, &norms) < 0
        || get_array(func, "counts", args[4], 1, INT64_ITEMS, 1, &counts) < 0
        || get_array(func, "out_i", args[5], 1, INT64_ITEMS, 1, &out_i) < 0
        || get_array(func, "out_s", args[6], 1, INT64_ITEMS, 1, &out_s) < 0
        || check_width(func, &Z, &W) < 0) {
        goto done;
    }
    const Py_ssize_t n = Z.shape[0], d = Z.shape[1], cap = out_i.shape[0];
    if (check_rows(func, "tie", &tie, n) < 0 || check_rows(func, "norms", &norms, n) < 0
        || check_rows(func, "counts", &counts, n) < 0) {
        goto done;
    }
    if (cap < 1 || out_s.shape[0] != cap) {
        PyErr_Format(PyExc_ValueError,
                     "online_pass(): out_i and out_s must have one length >= 1, got %zd and %zd",
                     cap, out_s.shape[0]);
        goto done;
    }
    if (get_index(func, "start", args[7], 0, n, "n", &start) < 0
        || to_int128(func, "w_sq", args[8], &w_sq) < 0 || to_int128(func, "limit", args[9], &limit) < 0) {
        goto done;
    }
    if (check_limit(func, limit, args[9]) < 0) {
        goto done;
    }
    if (w_sq < 0 || w_sq > limit) {
        PyErr_Format(PyExc_ValueError, "online_pass(): w_sq=%R must satisfy 0 <= w_sq <= limit=%R",
                     args[8], args[9]);
        goto done;
    }
    if (with_epochs && get_epochs(func, args[10], cap, d, &ep) < 0) {
        with_epochs = 0; /* nothing to release */
        goto done;
    }

    const int64_t *norm = norms.buf;
    int64_t *w = W.buf, *count = counts.buf, *rows = out_i.buf, *scores = out_s.buf;
    int64_t *epochs = with_epochs ? ep.out_e.buf : NULL;
    const int64_t *saved = with_epochs ? ep.saved.buf : NULL;
    const Py_ssize_t n_saved = with_epochs ? ep.saved.shape[0] : 0;
    const unsigned char *ties = tie.buf;
    w32 = PyMem_Malloc((d > 0 ? d : 1) * sizeof(int32_t));
    if (w32 == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t m = 0, i = start;
    int guarded = 0;
    long long scanned = 0;
    Py_BEGIN_ALLOW_THREADS
    for (;;) {
        Py_ssize_t got;
        switch (Z.itemsize) {
        case 2: got = pass16(Z.buf, n, d, w, w32, ties, norm, count, rows + m, scores + m, cap - m, &i, &w_sq, limit, &guarded); break;
        case 4: got = pass32(Z.buf, n, d, w, w32, ties, norm, count, rows + m, scores + m, cap - m, &i, &w_sq, limit, &guarded); break;
        default: got = pass64(Z.buf, n, d, w, w32, ties, norm, count, rows + m, scores + m, cap - m, &i, &w_sq, limit, &guarded);
        }
        if (!with_epochs) {
            m = got;
            break;
        }
        for (Py_ssize_t t = m; t < m + got; t++) {
            epochs[t] = ep.epoch;
        }
        m += got;
        ep.made += got;
        scanned += n;
        if (guarded || i < n) {
            break; /* at the guard, or the buffer filled before the end of the rows */
        }
        /* The end of epoch ep.epoch: go on only where the caller would have nothing to do. */
        int same = n_saved == d;
        for (Py_ssize_t j = 0; same && j < d; j++) {
            same = w[j] == saved[j];
        }
        if (ep.made == 0 || ep.per_epoch || ep.epoch >= ep.max_epochs || ep.epoch == ep.stop_epoch || same
            || m == cap || scanned >= ep.work) {
            break;
        }
        ep.epoch++;
        ep.made = 0;
        i = 0;
    }
    Py_END_ALLOW_THREADS

    PyObject *norm_sq = from_int128(w_sq);
    if (norm_sq != NULL) {
        result = with_epochs
            ? Py_BuildValue("(nnNOLL)", m, i, norm_sq, guarded ? Py_True : Py_False, ep.epoch, ep.made)
            : Py_BuildValue("(nnNO)", m, i, norm_sq, guarded ? Py_True : Py_False);
    }
done:
    PyMem_Free(w32);
    if (with_epochs) {
        PyBuffer_Release(&ep.out_e);
        PyBuffer_Release(&ep.saved);
    }
    PyBuffer_Release(&Z);
    PyBuffer_Release(&W);
    PyBuffer_Release(&tie);
    PyBuffer_Release(&norms);
    PyBuffer_Release(&counts);
    PyBuffer_Release(&out_i);
    PyBuffer_Release(&out_s);
    return result;
#else
    PyErr_SetString(PyExc_NotImplementedError, "online_pass() needs a compiler with __int128");
    return NULL;
#endif
}

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
 * squared norm is summed in ACC: int64 for int16 items (each square < 2^30, fewer than 2^33
 * of them), int128 for int32 items (each < 2^62), int128 with overflow checks for int64. */
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

/* ---- the checker's replay ---------------------------------------------- */

#if SCAN_WIDE
/* The claims' program: postfix code over the quantities, one slack per END. */
enum { OP_END = 0, OP_QUANTITY = 1, OP_CONSTANT = 2, OP_ADD = 3, OP_SUB = 4, OP_MUL = 5, OP_NEG = 6,
       OP_POW = 7 };
#define STACK_DEPTH 64
#define MAX_QUANTITIES 64
#define MAX_CLAIMS 64
/* The per-update quantities the replay computes, in the order of `slots`. */
enum { S_N, S_K, S_SMALL_N, S_N_MAX, S_PREV_W_SQ, S_PREV_W_WS, S_STEP_SQ, S_SUM_N_XSQ, S_SUM_N_SQ, S_W_SQ,
       S_W_WS, N_SLOTS };

/* Check the program's shape once: operands in range, stack within bounds, one value per END.
 * Returns the number of claims, or -1 with ValueError. */
static Py_ssize_t
program_claims(const int64_t *code, Py_ssize_t length, Py_ssize_t n_quantities)
{
    Py_ssize_t depth = 0, claims = 0;
    for (Py_ssize_t pc = 0; pc < length; pc++) {
        const int64_t op = code[pc];
        int pops, pushes = 1, operand = 0;
        switch (op) {
        case OP_END: pops = 1; pushes = 0; break;
        case OP_QUANTITY: pops = 0; operand = 1; break;
        case OP_CONSTANT: pops = 0; operand = 1; break;
        case OP_ADD: case OP_SUB: case OP_MUL: pops = 2; break;
        case OP_NEG: pops = 1; break;
        case OP_POW: pops = 1; operand = 1; break;
        default:
            PyErr_Format(PyExc_ValueError, "check_online(): program[%zd]=%lld is no operation",
                         pc, (long long)op);
            return -1;
        }
        if (operand) {
            if (++pc >= length) {
                PyErr_SetString(PyExc_ValueError, "check_online(): program ends inside an operation");
                return -1;
            }
            if ((op == OP_QUANTITY && (code[pc] < 0 || code[pc] >= n_quantities))
                || (op == OP_POW && (code[pc] < 1 || code[pc] > 16))) {
                PyErr_Format(PyExc_ValueError, "check_online(): program[%zd]=%lld is out of range",
                             pc, (long long)code[pc]);
                return -1;
            }
        }
        if (depth < pops || depth - pops + pushes > STACK_DEPTH) {
            PyErr_Format(PyExc_ValueError, "check_online(): the program's stack is wrong at [%zd]", pc);
            return -1;
        }
        depth += pushes - pops;
        if (op == OP_END) {
            if (depth != 0) {
                PyErr_Format(PyExc_ValueError, "check_online(): claim %zd leaves values behind", claims);
                return -1;
            }
            claims++;
        }
    }
    if (depth != 0 || claims > MAX_CLAIMS) {
        PyErr_SetString(PyExc_ValueError, "check_online(): the program must end with END and have <= 64 claims");
        return -1;
    }
    return claims;
}

/* Run the (checked) program on the quantities q: slack[c] for each claim. 0, or -1 when an
 * intermediate value leaves 128 bits (the caller then decides the update in Python). */
static int
run_program(const int64_t *code, Py_ssize_t length, const int128 *q, int128 *slack)
{
    int128 stack[STACK_DEPTH];
    Py_ssize_t top = 0, claim = 0;
    for (Py_ssize_t pc = 0; pc < length; pc++) {
        int128 x;
        switch (code[pc]) {
        case OP_END: slack[claim++] = stack[--top]; break;
        case OP_QUANTITY: stack[top++] = q[code[++pc]]; break;
        case OP_CONSTANT: stack[top++] = code[++pc]; break;
        case OP_ADD: top--; if (__builtin_add_overflow(stack[top - 1], stack[top], &stack[top - 1])) return -1; break;
        case OP_SUB: top--; if (__builtin_sub_overflow(stack[top - 1], stack[top], &stack[top - 1])) return -1; break;
        case OP_MUL: top--; if (__builtin_mul_overflow(stack[top - 1], stack[top], &stack[top - 1])) return -1; break;
        case OP_NEG: if (__builtin_sub_overflow((int128)0, stack[top - 1], &stack[top - 1])) return -1; break;
        case OP_POW:
            x = stack[top - 1];
            for (int64_t e = code[++pc]; e > 1; e--) {
                if (__builtin_mul_overflow(stack[top - 1], x, &stack[top - 1])) return -1;
            }
            break;
        }
    }
    return 0;
}
#endif

PyDoc_STRVAR(check_online_doc,
"check_online($module, Z, W, counts, tie, norms, margins, rows, scores, program, quantities, slots,\n"
"             state, failed, /)\n"
"--\n"
"\n"
"The checker's replay of online updates, in place, until one needs Python.\n"
"\n"
"Update t was a mistake on row rows[t] with reported score scores[t]. The\n"
"replay recomputes s = Z[i] . W exactly (128-bit sums), confirms s equals the\n"
"report and is a mistake (s < 0, or s == 0 and tie[i]), makes W += Z[i] and\n"
"counts[i] += 1, updates the running quantities, and evaluates `program`: the\n"
"claims' slacks as postfix code over `quantities` (Python ints; the slots listed\n"
"in `slots` are overwritten with this update's N, k, n, n_max, prev_w_sq,\n"
"prev_w_ws, step_sq, sum_N_xsq, sum_n_sq, w_sq, w_ws). It stops BEFORE any update\n"
"that fails a check, has a negative slack for a claim not yet marked in\n"
"`failed`, starts or would end with ||W||^2 above the state's limit, or needs\n"
"more than 128 bits, leaving that update to the caller. The limit must be\n"
"below 2^126 (so every |W_j| < 2^63; ValueError otherwise) and should be\n"
"(2^126 - 1) // max norms, the checker's own int64 guard.\n"
"\n"
"state = (k, N, w_sq, w_ws, sum_N_xsq, sum_n_sq, n_max, limit) as Python ints.\n"
"Returns ``(done, state, claims)``: updates replayed, the new state, and per\n"
"claim None (done == 0) or (min slack, its update's position in `rows`, the\n"
"quantities there as a tuple).");

static PyObject *
check_online(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
#if SCAN_WIDE
    static const char func[] = "check_online";
    Py_buffer Z = {0}, W = {0}, counts = {0}, tie = {0}, norms = {0}, margins = {0}, rows = {0}, scores = {0},
              program = {0}, slots = {0}, failed = {0};
    PyObject *result = NULL, *claims = NULL;

    if (nargs != 13) {
        PyErr_Format(PyExc_TypeError, "check_online() takes 13 arguments, got %zd", nargs);
        return NULL;
    }
    if (get_array(func, "Z", args[0], 2, SAMPLE_ITEMS, 0, &Z) < 0
        || get_array(func, "W", args[1], 1, INT64_ITEMS, 1, &W) < 0
        || get_array(func, "counts", args[2], 1, INT64_ITEMS, 1, &counts) < 0
        || get_array(func, "tie", args[3], 1, FLAG_ITEMS, 0, &tie) < 0
        || get_array(func, "norms", args[4], 1, INT64_ITEMS, 0, &norms) < 0
        || get_array(func, "margins", args[5], 1, INT64_ITEMS, 0, &margins) < 0
        || get_array(func, "rows", args[6], 1, INT64_ITEMS, 0, &rows) < 0
        || get_array(func, "scores", args[7], 1, INT64_ITEMS, 0, &scores) < 0
        || get_array(func, "program", args[8], 1, INT64_ITEMS, 0, &program) < 0
        || get_array(func, "slots", args[10], 1, INT64_ITEMS, 0, &slots) < 0
        || get_array(func, "failed", args[12], 1, FLAG_ITEMS, 0, &failed) < 0
        || check_width(func, &Z, &W) < 0) {
        goto done;
    }
    const Py_ssize_t n = Z.shape[0], d = Z.shape[1], m = rows.shape[0];
    if (check_rows(func, "counts", &counts, n) < 0 || check_rows(func, "tie", &tie, n) < 0
        || check_rows(func, "norms", &norms, n) < 0 || check_rows(func, "margins", &margins, n) < 0) {
        goto done;
    }
    if (scores.shape[0] != m) {
        PyErr_Format(PyExc_ValueError, "check_online(): scores has length %zd but rows has %zd",
                     scores.shape[0], m);
        goto done;
    }
    PyObject *quantities = args[9], *state = args[11];
    if (!PyTuple_Check(quantities) || PyTuple_GET_SIZE(quantities) > MAX_QUANTITIES) {
        PyErr_SetString(PyExc_TypeError, "check_online(): quantities must be a tuple of at most 64 ints");
        goto done;
    }
    const Py_ssize_t n_quantities = PyTuple_GET_SIZE(quantities);
    int128 q[MAX_QUANTITIES], slack[MAX_CLAIMS], best[MAX_CLAIMS], snapshot[MAX_CLAIMS][MAX_QUANTITIES];
    Py_ssize_t best_at[MAX_CLAIMS];
    for (Py_ssize_t j = 0; j < n_quantities; j++) {
        if (to_int128(func, "a quantity", PyTuple_GET_ITEM(quantities, j), &q[j]) < 0) {
            goto done;
        }
    }
    const int64_t *slot = slots.buf;
    if (slots.shape[0] != N_SLOTS) {
        PyErr_Format(PyExc_ValueError, "check_online(): slots must have %d entries, got %zd", N_SLOTS,
                     slots.shape[0]);
        goto done;
    }
    for (Py_ssize_t j = 0; j < N_SLOTS; j++) {
        if (slot[j] < 0 || slot[j] >= n_quantities) {
            PyErr_Format(PyExc_ValueError, "check_online(): slots[%zd]=%lld is out of range", j,
                         (long long)slot[j]);
            goto done;
        }
    }
    const int64_t *code = program.buf;
    const Py_ssize_t n_claims = program_claims(code, program.shape[0], n_quantities);
    if (n_claims < 0) {
        goto done;
    }
    if (failed.shape[0] != n_claims) {
        PyErr_Format(PyExc_ValueError, "check_online(): failed has length %zd but the program has %zd claims",
                     failed.shape[0], n_claims);
        goto done;
    }
    int128 k, N, w_sq, w_ws, sum_N_xsq, sum_n_sq, n_max, limit;
    if (!PyTuple_Check(state) || PyTuple_GET_SIZE(state) != 8) {
        PyErr_SetString(PyExc_TypeError, "check_online(): state must be a tuple of 8 ints");
        goto done;
    }
    int128 *fields[8] = {&k, &N, &w_sq, &w_ws, &sum_N_xsq, &sum_n_sq, &n_max, &limit};
    for (Py_ssize_t j = 0; j < 8; j++) {
        if (to_int128(func, "a state value", PyTuple_GET_ITEM(state, j), fields[j]) < 0) {
            goto done;
        }
    }
    if (check_limit(func, limit, PyTuple_GET_ITEM(state, 7)) < 0) {
        goto done;
    }

    const int64_t *norm = norms.buf, *margin = margins.buf, *row_of = rows.buf, *reported = scores.buf;
    const int width = (int)Z.itemsize;
    int64_t *w = W.buf, *count = counts.buf;
    const unsigned char *ties = tie.buf, *already = failed.buf;
    Py_ssize_t t = 0;
    for (; t < m; t++) {
        const int64_t i = row_of[t];
        int64_t s;
        if (i < 0 || i >= n || w_sq > limit || wide_dot(Z.buf, width, i, d, w, &s) < 0 || s != reported[t]
            || !(s < 0 || (s == 0 && ties[i]))) {
            break; /* not this update: Python decides it and says what is wrong */
        }
        int128 next[N_SLOTS];
        if (__builtin_add_overflow(k, 1, &next[S_K]) || __builtin_add_overflow(N, 1, &next[S_N])) {
            break;
        }
        next[S_SMALL_N] = 1;
        next[S_N_MAX] = n_max > 1 ? n_max : 1;
        next[S_PREV_W_SQ] = w_sq;
        next[S_PREV_W_WS] = w_ws;
        next[S_STEP_SQ] = norm[i];
        /* ||W + z||^2 = ||W||^2 + 2 W.z + ||z||^2. Every sum is checked: a state that
         * leaves 128 bits (or a new ||W||^2 above the limit) is Python's to decide. */
        if (__builtin_add_overflow(sum_n_sq, 1, &next[S_SUM_N_SQ])
            || __builtin_add_overflow(sum_N_xsq, (int128)norm[i], &next[S_SUM_N_XSQ])
            || __builtin_add_overflow(w_sq, 2 * (int128)s + norm[i], &next[S_W_SQ])
            || __builtin_add_overflow(w_ws, (int128)margin[i], &next[S_W_WS])
            || next[S_W_SQ] > limit) {
            break;
        }
        for (Py_ssize_t j = 0; j < N_SLOTS; j++) {
            q[slot[j]] = next[j];
        }
        if (run_program(code, program.shape[0], q, slack) < 0) {
            break;
        }
        int violated = 0;
        for (Py_ssize_t c = 0; c < n_claims; c++) {
            violated |= slack[c] < 0 && !already[c];
        }
        if (violated) {
            break;
        }
        /* Commit the update. */
        add_sample(w, Z.buf, width, i, d); /* |W_j| <= ||W||: the new w_sq <= limit < 2^126 */
        count[i] += 1;
        k = next[S_K];
        N = next[S_N];
        n_max = next[S_N_MAX];
        sum_n_sq = next[S_SUM_N_SQ];
        sum_N_xsq = next[S_SUM_N_XSQ];
        w_sq = next[S_W_SQ];
        w_ws = next[S_W_WS];
        for (Py_ssize_t c = 0; c < n_claims; c++) {
            if (t == 0 || slack[c] < best[c]) {
                best[c] = slack[c];
                best_at[c] = t;
                memcpy(snapshot[c], q, n_quantities * sizeof(int128));
            }
        }
    }

    claims = PyList_New(n_claims);
    if (claims == NULL) {
        goto done;
    }
    for (Py_ssize_t c = 0; c < n_claims; c++) {
        PyObject *entry;
        if (t == 0) {
            entry = Py_NewRef(Py_None);
        }
        else {
            PyObject *values = PyTuple_New(n_quantities);
            if (values == NULL) {
                goto done;
            }
            for (Py_ssize_t j = 0; j < n_quantities; j++) {
                PyObject *value = from_int128(snapshot[c][j]);
                if (value == NULL) {
                    Py_DECREF(values);
                    goto done;
                }
                PyTuple_SET_ITEM(values, j, value);
            }
            entry = Py_BuildValue("(NnN)", from_int128(best[c]), best_at[c], values);
            if (entry == NULL) {
                goto done;
            }
        }
        PyList_SET_ITEM(claims, c, entry);
    }
    result = Py_BuildValue("(n(NNNNNNNN)O)", t, from_int128(k), from_int128(N), from_int128(w_sq),
                           from_int128(w_ws), from_int128(sum_N_xsq), from_int128(sum_n_sq),
                           from_int128(n_max), from_int128(limit), claims);
done:
    Py_XDECREF(claims);
    PyBuffer_Release(&Z);
    PyBuffer_Release(&W);
    PyBuffer_Release(&counts);
    PyBuffer_Release(&tie);
    PyBuffer_Release(&norms);
    PyBuffer_Release(&margins);
    PyBuffer_Release(&rows);
    PyBuffer_Release(&scores);
    PyBuffer_Release(&program);
    PyBuffer_Release(&slots);
    PyBuffer_Release(&failed);
    return result;
#else
    PyErr_SetString(PyExc_NotImplementedError, "check_online() needs a compiler with __int128");
    return NULL;
#endif
}

/* ---- the module -------------------------------------------------------- */

static PyMethodDef scan_methods[] = {
    {"online_pass", (PyCFunction)(void (*)(void))online_pass, METH_FASTCALL, online_pass_doc},
    {"check_online", (PyCFunction)(void (*)(void))check_online, METH_FASTCALL, check_online_doc},
    {"signed_rows", (PyCFunction)(void (*)(void))signed_rows, METH_FASTCALL, signed_rows_doc},
    {"scores", (PyCFunction)(void (*)(void))scores, METH_FASTCALL, scores_doc},
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
"Online perceptron passes and the checker's replay, exactly, in C (optional; see\n"
"verify_perceptron._kernel).");

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
