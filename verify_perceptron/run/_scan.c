/*
 * verify_perceptron.run._scan: the engine's online perceptron passes, exactly, in C.
 * Its Python wrapper is verify_perceptron.run.kernel, whose online_pass_reference is
 * the Python this must equal.
 *
 * The fast engine keeps the integer weights W and the integer samples z_i
 * (rows of Z, labels folded in, stored as int16, int32 or int64). Sample i
 * is a mistake at score s_i = z_i . W when s_i < 0, or when s_i == 0 and
 * the note counts a tie as a mistake (tie[i]).
 *
 * online_pass() runs the perceptron from a row to the end of the rows,
 * updating W in place and writing each mistake (row, score) to a buffer;
 * given its epochs argument it carries on into the following epochs
 * wherever the engine would have nothing to do at an epoch's end.
 * Its precondition: ||W||^2 <= limit < 2^126, and every ||z_i||^2 < 2^126
 * (given as int64 norms, or summed and checked here in 128 bits when the
 * caller passes none). ||W||^2 is tracked exactly in 128 bits; an update that
 * would take it above `limit` is not made: the pass stops. Every
 * |W_j| <= ||W|| <= sqrt(limit) < 2^63, so W stays in int64.
 *
 * A score is summed in the narrowest exact way. By Cauchy-Schwarz every
 * product and every partial sum of z_i . W, in any order, is at most
 * ||z_i||*||W|| in magnitude. While ||W||^2 * max_i ||z_i||^2 < 2^126
 * (verify_perceptron.data.integers.INT64_EXACT_SQ) that is below 2^63, so
 * int64 sums are exact (and may be vectorised), reading an exact int32 copy
 * of W while ||W||^2 < 2^62. Beyond, it is below 2^63 * 2^63 = 2^126, so
 * each product (< 2^126) is summed in 128 bits, exactly. A mistake's score
 * is written out in int64: one that does not fit stops the pass before its
 * update, as the guard does (the caller makes that update).
 *
 * Past the int32 copy of W, given float64 copies of the rows and each row's
 * radius, a row is first scored in float64 (the floating-point filter of
 * verify_perceptron.run.filter, whose docstring proves it): a float score
 * above radius * n_W proves the exact score positive, and the row is passed
 * over; only the other rows are scored exactly. The filter never decides a
 * mistake, a tie or a score that is written out: it only skips exact sums.
 * It is used only where FLT_EVAL_METHOD == 0 (doubles evaluated as doubles).
 *
 * It needs __int128 (GCC, Clang); elsewhere it raises NotImplementedError
 * and the engine uses NumPy instead. The arithmetic and argument parsing it
 * shares with the other extensions are in ../data/_exact.h.
 */

#include "_exact.h"
#include "_wide.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* The filter's floats are doubles evaluated as doubles, or it is not used. */
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
#define FILTER_SOUND 1
#else
#define FILTER_SOUND 0
#endif

/* ---- the pass ---------------------------------------------------------- */

#if SCAN_WIDE
/* z . w summed in 128 bits: exact when ||z||*||w|| < 2^127 (Cauchy-Schwarz bounds every partial
 * sum), which ||z||^2 < 2^126 and ||w||^2 < 2^126 guarantee. Two running sums, so that consecutive
 * products need not wait for each other's addition. */
#define DEFINE_WIDE_DOT(ZT, NAME)                                                       \
static inline __attribute__((always_inline)) int128                                     \
NAME(const ZT *z, const int64_t *w, Py_ssize_t d)                                       \
{                                                                                       \
    int128 even = 0, odd = 0;                                                           \
    Py_ssize_t j = 0;                                                                   \
    for (; j + 1 < d; j += 2) {                                                         \
        even += (int128)z[j] * w[j];                                                    \
        odd += (int128)z[j + 1] * w[j + 1];                                             \
    }                                                                                   \
    if (j < d) {                                                                        \
        even += (int128)z[j] * w[j];                                                    \
    }                                                                                   \
    return even + odd;                                                                  \
}
DEFINE_WIDE_DOT(int16_t, wide_dot16)
DEFINE_WIDE_DOT(int32_t, wide_dot32)
DEFINE_WIDE_DOT(int64_t, wide_dot64)

#define WIDE_SQ (((int128)1) << 126)

/* Four doubles, added and multiplied lane by lane (GCC's and Clang's vector extension: one AVX
 * instruction in the wider clones, two SSE2 ones in the default one). Only ever a local, never
 * passed or returned, so that no function's ABI depends on the clone. */
typedef double vec4 __attribute__((vector_size(32)));

/* The float64 score of the filter: eight running sums in two vectors (memcpy: unaligned loads),
 * and one for the last d % 4 terms, each started at 0. Any such order, fused multiply-adds
 * included, is covered by the bound of verify_perceptron.run.filter: at most d + 2 roundings
 * per term. */
static inline __attribute__((always_inline)) double
float_dot(const double *z, const double *w, Py_ssize_t d)
{
    vec4 a = {0.0, 0.0, 0.0, 0.0}, b = {0.0, 0.0, 0.0, 0.0}, x, y;
    Py_ssize_t j = 0;
#define ADD_FOUR(sum, at) (memcpy(&x, z + (at), sizeof x), memcpy(&y, w + (at), sizeof y), (sum) += x * y)
    for (; j + 7 < d; j += 8) {
        ADD_FOUR(a, j);
        ADD_FOUR(b, j + 4);
    }
    if (j + 3 < d) {
        ADD_FOUR(a, j);
        j += 4;
    }
#undef ADD_FOUR
    double tail = 0.0;
    for (; j < d; j++) {
        tail += z[j] * w[j];
    }
    a += b;
    return ((a[0] + a[1]) + (a[2] + a[3])) + tail;
}

/* float_dot of a row of ZT read as it is, each entry converted to double on the way: for int16 and int32
 * rows every entry is then exactly its integer, the value a float64 copy of the rows would hold, and the
 * sums are float_dot's, in its order. The filter then needs no float copy of the samples (as large as
 * their int64 array) beside them: the pass reads the rows it scans anyway. */
#define ROW_FOUR(z, at) ((vec4){(double)(z)[(at)], (double)(z)[(at) + 1], (double)(z)[(at) + 2], (double)(z)[(at) + 3]})
#define DEFINE_ROW_DOT(ZT, NAME)                                                        \
static inline __attribute__((always_inline)) double                                     \
NAME(const ZT *z, const double *w, Py_ssize_t d)                                        \
{                                                                                       \
    vec4 a = {0.0, 0.0, 0.0, 0.0}, b = {0.0, 0.0, 0.0, 0.0}, y;                         \
    Py_ssize_t j = 0;                                                                   \
    for (; j + 7 < d; j += 8) {                                                         \
        memcpy(&y, w + j, sizeof y);                                                    \
        a += ROW_FOUR(z, j) * y;                                                        \
        memcpy(&y, w + j + 4, sizeof y);                                                \
        b += ROW_FOUR(z, j + 4) * y;                                                    \
    }                                                                                   \
    if (j + 3 < d) {                                                                    \
        memcpy(&y, w + j, sizeof y);                                                    \
        a += ROW_FOUR(z, j) * y;                                                        \
        j += 4;                                                                         \
    }                                                                                   \
    double tail = 0.0;                                                                  \
    for (; j < d; j++) {                                                                \
        tail += (double)z[j] * w[j];                                                    \
    }                                                                                   \
    a += b;                                                                             \
    return ((a[0] + a[1]) + (a[2] + a[3])) + tail;                                      \
}
DEFINE_ROW_DOT(int16_t, row_dot16)
DEFINE_ROW_DOT(int32_t, row_dot32)
DEFINE_ROW_DOT(int64_t, row_dot64) /* never used: int64 rows are refused without their float copy */

/* n_W >= sqrt(sq) for 0 <= sq < 2^127: sqrt(fl(sq)) * (1 + 2^-46), as verify_perceptron.run.filter.norm_above. */
static inline double
norm_above(int128 sq)
{
    return sqrt((double)sq) * (1.0 + 0x1p-46);
}

/* W's float copy and n_W, after W changed (only when the filter is on). */
static inline void
float_weights(const int64_t *w, Py_ssize_t d, int128 w_sq, double *wf, double *w_norm)
{
    for (Py_ssize_t j = 0; j < d; j++) {
        wf[j] = (double)w[j];
    }
    *w_norm = norm_above(w_sq);
}

/* ||z||^2 in 128 bits, for norms the caller could not give in int64; 0 on success, -1 when it
 * reaches 2^126 (past the precondition, so refused). Each square of an int64 is below 2^126. */
#define DEFINE_WIDE_SQ(ZT, NAME)                                                        \
static int                                                                              \
NAME(const ZT *z, Py_ssize_t d, int128 *sq)                                             \
{                                                                                       \
    int128 acc = 0;                                                                     \
    for (Py_ssize_t j = 0; j < d; j++) {                                                \
        if (__builtin_add_overflow(acc, (int128)z[j] * z[j], &acc) || acc >= WIDE_SQ) {   \
            return -1;                                                                  \
        }                                                                               \
    }                                                                                   \
    *sq = acc;                                                                          \
    return 0;                                                                           \
}
DEFINE_WIDE_SQ(int16_t, wide_sq16)
DEFINE_WIDE_SQ(int32_t, wide_sq32)
DEFINE_WIDE_SQ(int64_t, wide_sq64)

/* The pass itself, for rows of type ZT: see online_pass. */
#define DEFINE_PASS(ZT, NAME, DOT32, DOT64, WIDE, SQ, ROWDOT)                           \
MULTIVERSION static Py_ssize_t                                                          \
NAME(const ZT *z, Py_ssize_t n, Py_ssize_t d, int64_t *w, int32_t *w32,                  \
     const unsigned char *ties, const int64_t *norm, int64_t *count, int64_t *rows,     \
     int64_t *scores, Py_ssize_t cap, Py_ssize_t *position, int128 *w_sq, int128 limit, \
     int128 sums64, int halves, int *guarded, const double *zf, const double *radius,   \
     double *wf, double *w_norm, int norm_halves)                                       \
{                                                                                       \
    Py_ssize_t m = 0, i = *position;                                                    \
    int narrow = *w_sq < NARROW_SQ;                                                     \
    for (Py_ssize_t j = 0; narrow && j < d; j++) {                                      \
        w32[j] = (int32_t)w[j];                                                         \
    }                                                                                   \
    for (; i < n; i++) {                                                                \
        const ZT *row = z + i * d;                                                      \
        if (radius != NULL && !narrow                                                   \
            && (zf != NULL ? float_dot(zf + i * d, wf, d) : ROWDOT(row, wf, d)) > radius[i] * *w_norm) { \
            continue; /* the float score proves z_i . W > 0 (run/filter.py) */          \
        }                                                                               \
        const int128 s = *w_sq > sums64 ? WIDE(row, w, d) /* past the int64 guard */     \
                         : narrow ? (int128)DOT32(row, w32, d) : (int128)DOT64(row, w, d); \
        if (s > 0 || (s == 0 && !ties[i])) {                                            \
            continue;                                                                   \
        }                                                                               \
        if (!halves && s < INT64_MIN) { /* out of int64: the caller makes this update */ \
            *guarded = 1;                                                               \
            break;                                                                      \
        }                                                                               \
        /* ||W + z||^2 = ||W||^2 + 2 W.z + ||z||^2 <= 2^126 + 0 + 2^126: 128 bits hold it */ \
        int128 zz = 0;                                                                  \
        if (norm != NULL) {                                                             \
            zz = norm_halves ? halves_at(norm, i) : norm[i];                            \
        } else {                                                                        \
            (void)SQ(row, d, &zz); /* below 2^126: checked before the pass */           \
        }                                                                               \
        const int128 after = *w_sq + 2 * s + zz;                                        \
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
        if (radius != NULL) {                                                           \
            float_weights(w, d, after, wf, w_norm);                                     \
        }                                                                               \
        count[i] += 1;                                                                  \
        rows[m] = i;                                                                    \
        if (halves) { /* the score as its low and high 64 bits: lo + hi * 2^64 */        \
            scores[2 * m] = (int64_t)(uint64_t)s;                                       \
            scores[2 * m + 1] = (int64_t)(s >> 64);                                     \
        } else {                                                                        \
            scores[m] = (int64_t)s;                                                     \
        }                                                                               \
        if (++m == cap) {                                                               \
            i++;                                                                        \
            break;                                                                      \
        }                                                                               \
    }                                                                                   \
    *position = i;                                                                      \
    return m;                                                                           \
}
DEFINE_PASS(int16_t, pass16, fast_dot16_32, fast_dot16_64, wide_dot16, wide_sq16, row_dot16)
DEFINE_PASS(int32_t, pass32, fast_dot32_32, fast_dot32_64, wide_dot32, wide_sq32, row_dot32)
DEFINE_PASS(int64_t, pass64, fast_dot64_32, fast_dot64_64, wide_dot64, wide_sq64, row_dot64)
#endif

PyDoc_STRVAR(online_pass_doc,
"online_pass($module, Z, W, tie, norms, counts, out_i, out_s, start, w_sq, limit, /)\n"
"--\n"
"\n"
"One online pass of the perceptron from row `start`, in place, until the end\n"
"of the rows, a full output buffer, or the guard.\n"
"\n"
"Row i is a mistake when s = Z[i] . W < 0, or s == 0 and tie[i]; a mistake\n"
"makes W += Z[i], counts[i] += 1 and w_sq += 2s + norms[i], and is written\n"
"to out_i / out_s (its row and score; with out_s twice as long as out_i, each\n"
"score as two int64, its low 64 bits then its high ones, so that no score stops\n"
"the pass). Returns ``(m, position, w_sq, guarded)``:\n"
"m mistakes written, the row to resume from, the new ||W||^2, and whether the\n"
"pass stopped at row `position` because its update would take ||W||^2 above\n"
"`limit` (that update is then not made: the caller makes it).\n"
"\n"
"Z is (n, d) C-contiguous int16, int32 or int64; W, norms, counts, out_i, out_s are contiguous\n"
"int64 (W, counts, out_* writable, out_i and out_s of one length >= 1); tie\n"
"holds bool or uint8 flags. Preconditions, which the caller guarantees:\n"
"norms[i] = ||Z[i]||^2 (or norms twice as long: each as its low then high 64 bits,\n"
"below 2^126; or norms empty: each is summed in 128 bits, and a row of\n"
"||Z[i]||^2 >= 2^126 is refused) and w_sq = ||W||^2 <= limit < 2^126 (a larger limit is\n"
"refused: ValueError), so that every |W_j| < 2^63 and every partial sum of every\n"
"score fits in 128 bits (Cauchy-Schwarz); scores are summed in int64 where\n"
"w_sq * max norms < 2^126 makes that exact. The pass also stops (guarded) at a\n"
"mistake whose score does not fit in int64, before its update.\n"
"\n"
"With an 11th argument, epochs = (out_e, saved, previous, epoch, made, max_epochs,\n"
"stop_epoch, per_epoch, work), the pass is pass `epoch` of a run (`made` mistakes\n"
"in it so far) and goes on into the next epochs by itself wherever the caller\n"
"would have nothing to do at the end of one: it stops at the end of an epoch\n"
"without a mistake, of epoch max_epochs or stop_epoch, of an epoch whose W\n"
"equals `saved` (int64, length d, or empty for none) or `previous`, of every\n"
"epoch if per_epoch, or once `work` rows were scanned; or as above at the guard\n"
"or a full buffer. `previous` (writable int64) holds W after the epoch before\n"
"`epoch` (length d), or is empty when the caller does not know it: the pass then\n"
"stops at the end of this epoch. Before it goes on into the next epoch it copies\n"
"W into `previous`, so an epoch whose W equals `previous` is a repeat of period 1.\n"
"out_e (as long as out_i) receives each mistake's epoch, and it returns\n"
"``(m, position, w_sq, guarded, epoch, made)``.\n"
"The GIL is released while scanning; the arrays must not change meanwhile.\n"
"\n"
"With a 12th argument, filter = (Zf, radius) (or None), Zf (n, d) float64 holding\n"
"each entry of Z rounded to the nearest double (or None for int16 or int32 Z,\n"
"whose rows are then converted exactly as they are read) and radius (n) float64 holding\n"
"K_d * n_z[i] (verify_perceptron.run.filter.radii), a row is passed over without\n"
"its exact score when W no longer fits its int32 copy and its float64 score\n"
"exceeds radius[i] times an upper bound on ||W||: the result is the same.\n"
"\n"
"With a 13th argument, most (an int, or None), the largest of the norms given (each\n"
"norms[i] <= most < 2^126, which the caller guarantees, as it does norms[i]): the\n"
"norms are then not read through at the call (nor checked), only at updates.");

#if SCAN_WIDE
/* The epochs argument of online_pass, when given. */
typedef struct {
    Py_buffer out_e, saved, previous;
    long long epoch, made, max_epochs, stop_epoch, per_epoch, work;
} Epochs;

static void
release_epochs(Epochs *e)
{
    PyBuffer_Release(&e->out_e);
    PyBuffer_Release(&e->saved);
    PyBuffer_Release(&e->previous);
}

static int
get_epochs(const char *func, PyObject *obj, Py_ssize_t cap, Py_ssize_t d, Epochs *e)
{
    PyObject *out_e, *saved, *previous;
    if (!PyTuple_Check(obj)
        || !PyArg_ParseTuple(obj, "OOOLLLLLL", &out_e, &saved, &previous, &e->epoch, &e->made,
                             &e->max_epochs, &e->stop_epoch, &e->per_epoch, &e->work)) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError,
                     "%s(): epochs must be a tuple (out_e, saved, previous, epoch, made, max_epochs, "
                     "stop_epoch, per_epoch, work) of three int64 arrays and six ints", func);
        return -1;
    }
    /* A failed get_array leaves its buffer empty ({0}), which PyBuffer_Release ignores. */
    if (get_array(func, "out_e", out_e, 1, INT64_ITEMS, 1, &e->out_e) < 0
        || get_array(func, "saved", saved, 1, INT64_ITEMS, 0, &e->saved) < 0
        || get_array(func, "previous", previous, 1, INT64_ITEMS, 1, &e->previous) < 0) {
        release_epochs(e);
        return -1;
    }
    if (e->out_e.shape[0] != cap || (e->saved.shape[0] != 0 && e->saved.shape[0] != d)
        || (e->previous.shape[0] != 0 && e->previous.shape[0] != d)
        || e->epoch < 1 || e->made < 0 || e->max_epochs < e->epoch || e->work < 1) {
        PyErr_Format(PyExc_ValueError,
                     "%s(): epochs needs out_e as long as out_i (%zd), saved and previous each empty or "
                     "of length d=%zd, 1 <= epoch <= max_epochs, made >= 0 and work >= 1", func, cap, d);
        release_epochs(e);
        return -1;
    }
    return 0;
}

/* The floating-point filter's arguments (Zf, radius) of `func`: Zf an (n, d) float64 array, or None for
 * Z's own rows converted as they are read (int16 or int32 Z only, whose entries are exact doubles: give
 * z_itemsize 0 where that is not possible), radius n float64 values; on failure raise TypeError or
 * ValueError naming them and return -1. */
static int
get_filter(const char *func, PyObject *obj, Py_ssize_t n, Py_ssize_t d, Py_ssize_t z_itemsize, Py_buffer *Zf,
           Py_buffer *radius)
{
    PyObject *zf_obj, *radius_obj;
    if (!PyTuple_Check(obj) || !PyArg_ParseTuple(obj, "OO", &zf_obj, &radius_obj)) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s(): filter must be None or a tuple (Zf, radius)", func);
        return -1;
    }
    if (zf_obj == Py_None && z_itemsize != 2 && z_itemsize != 4) {
        PyErr_Format(PyExc_ValueError, "%s(): filter's Zf may be None only for int16 or int32 Z, whose "
                     "entries are exact doubles", func);
        return -1;
    }
    if ((zf_obj != Py_None && get_array(func, "Zf", zf_obj, 2, FLOAT64_ITEMS, 0, Zf) < 0)
        || get_array(func, "radius", radius_obj, 1, FLOAT64_ITEMS, 0, radius) < 0) {
        return -1;
    }
    if ((zf_obj != Py_None && (Zf->shape[0] != n || Zf->shape[1] != d)) || radius->shape[0] != n) {
        PyErr_Format(PyExc_ValueError, "%s(): Zf must have Z's shape (%zd, %zd) and radius %zd rows", func, n, d, n);
        return -1;
    }
    return 0;
}
#endif

static PyObject *
online_pass(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
#if SCAN_WIDE
    static const char func[] = "online_pass";
    Py_buffer Z = {0}, W = {0}, tie = {0}, norms = {0}, counts = {0}, out_i = {0}, out_s = {0};
    Epochs ep = {0};
    Py_buffer Zf = {0}, radius = {0};
    int with_epochs = nargs >= 11, with_filter = 0;
    PyObject *result = NULL;
    Py_ssize_t start;
    int128 w_sq, limit;
    int32_t *w32 = NULL;
    double *wf = NULL, w_norm = 0.0;

    if (nargs < 10 || nargs > 13) {
        PyErr_Format(PyExc_TypeError,
                     "online_pass() takes 10 arguments (Z, W, tie, norms, counts, out_i, out_s, "
                     "start, w_sq, limit), 11 with epochs, 12 with a filter or 13 with most, got %zd", nargs);
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
    const int norm_halves = n > 0 && norms.shape[0] == 2 * n; /* each norm as two int64: low then high bits */
    if (check_rows(func, "tie", &tie, n) < 0
        || (norms.shape[0] != 0 && !norm_halves && check_rows(func, "norms", &norms, n) < 0)
        || check_rows(func, "counts", &counts, n) < 0) {
        goto done;
    }
    const int halves = out_s.shape[0] == 2 * cap; /* each score as two int64: low then high bits */
    if (cap < 1 || (out_s.shape[0] != cap && !halves)) {
        PyErr_Format(PyExc_ValueError,
                     "online_pass(): out_i must have a length >= 1 and out_s the same or twice it, "
                     "got %zd and %zd",
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
    if (nargs >= 12 && args[11] != Py_None) {
        if (get_filter(func, args[11], n, d, Z.itemsize, &Zf, &radius) < 0) {
            goto done;
        }
        with_filter = FILTER_SOUND && d > 0;
        if (with_filter) {
            wf = PyMem_Malloc((size_t)d * sizeof(double));
            if (wf == NULL) {
                PyErr_NoMemory();
                goto done;
            }
            float_weights(W.buf, d, w_sq, wf, &w_norm);
        }
    }
    const double *zf = with_filter ? Zf.buf : NULL, *radii = with_filter ? radius.buf : NULL;

    const int64_t *norm = norms.shape[0] != 0 ? norms.buf : NULL; /* NULL: summed here, in 128 bits */
    int64_t *w = W.buf, *count = counts.buf, *rows = out_i.buf, *scores = out_s.buf;
    int64_t *epochs = with_epochs ? ep.out_e.buf : NULL;
    const int64_t *saved = with_epochs ? ep.saved.buf : NULL;
    const Py_ssize_t n_saved = with_epochs ? ep.saved.shape[0] : 0;
    int64_t *previous = with_epochs ? ep.previous.buf : NULL;
    const Py_ssize_t n_previous = with_epochs ? ep.previous.shape[0] : 0;
    const unsigned char *ties = tie.buf;
    w32 = PyMem_Malloc((d > 0 ? d : 1) * sizeof(int32_t));
    if (w32 == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    /* Up to this ||W||^2 the int64 sums are exact: ||W||^2 * max ||z_i||^2 < 2^126. Norms not given
     * are summed here, and refused from 2^126 (then a score's partial sums could pass 2^127). Given
     * `most` (the largest of the norms given, which the caller knows), the norms are not read through:
     * the engine calls the pass every CHUNK mistakes, and this loop over every row was, at 10^6 rows of
     * a run that does not converge, more of its time than the pass itself (with the GIL held). */
    int128 most = 0;
    const int given_most = nargs == 13 && args[12] != Py_None && norm != NULL;
    if (given_most) {
        if (to_int128(func, "most", args[12], &most) < 0) {
            goto done;
        }
        if (most < 0 || most >= WIDE_SQ) {
            PyErr_Format(PyExc_ValueError, "online_pass(): most=%R must satisfy 0 <= most < 2^126", args[12]);
            goto done;
        }
    }
    for (Py_ssize_t r = 0; !given_most && r < n; r++) {
        int128 sq = 0;
        if (norm != NULL) {
            sq = norm_halves ? halves_at(norm, r) : norm[r];
            if (norm_halves && (sq < 0 || sq >= WIDE_SQ)) {
                PyErr_Format(PyExc_ValueError, "online_pass(): norms[%zd] given in halves must be in [0, 2^126)", r);
                goto done;
            }
        } else {
            const char *row = (const char *)Z.buf + r * d * Z.itemsize;
            int bad = Z.itemsize == 2 ? wide_sq16((const int16_t *)row, d, &sq)
                    : Z.itemsize == 4 ? wide_sq32((const int32_t *)row, d, &sq)
                    : wide_sq64((const int64_t *)row, d, &sq);
            if (bad) {
                PyErr_Format(PyExc_ValueError, "online_pass(): ||Z[%zd]||^2 >= 2^126; without norms every row "
                             "must be below", r);
                goto done;
            }
        }
        most = sq > most ? sq : most;
    }
    const int128 sums64 = most > 0 ? ((((int128)1) << 126) - 1) / most : limit;
    Py_ssize_t m = 0, i = start;
    int guarded = 0;
    long long scanned = 0;
    Py_BEGIN_ALLOW_THREADS
    for (;;) {
        Py_ssize_t got;
        switch (Z.itemsize) {
        case 2: got = pass16(Z.buf, n, d, w, w32, ties, norm, count, rows + m, scores + (halves ? 2 * m : m), cap - m, &i, &w_sq, limit, sums64, halves, &guarded, zf, radii, wf, &w_norm, norm_halves); break;
        case 4: got = pass32(Z.buf, n, d, w, w32, ties, norm, count, rows + m, scores + (halves ? 2 * m : m), cap - m, &i, &w_sq, limit, sums64, halves, &guarded, zf, radii, wf, &w_norm, norm_halves); break;
        default: got = pass64(Z.buf, n, d, w, w32, ties, norm, count, rows + m, scores + (halves ? 2 * m : m), cap - m, &i, &w_sq, limit, sums64, halves, &guarded, zf, radii, wf, &w_norm, norm_halves);
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
        int same = n_saved == d, known = n_previous == d, repeat = known;
        for (Py_ssize_t j = 0; same && j < d; j++) {
            same = w[j] == saved[j];
        }
        for (Py_ssize_t j = 0; repeat && j < d; j++) {
            repeat = w[j] == previous[j]; /* W after the epoch before: a period of one epoch */
        }
        if (ep.made == 0 || ep.per_epoch || ep.epoch >= ep.max_epochs || ep.epoch == ep.stop_epoch || same
            || !known || repeat || m == cap || scanned >= ep.work) {
            break;
        }
        memcpy(previous, w, (size_t)d * sizeof(int64_t)); /* W after this epoch, for the next one's end */
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
    PyMem_Free(wf);
    PyBuffer_Release(&Zf);
    PyBuffer_Release(&radius);
    if (with_epochs) {
        release_epochs(&ep);
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

/* ---- the pass past 128 bits: limbs ------------------------------------- */

#if SCAN_WIDE
/* The shape of a limb pass: z entries in lz limbs, W's entries in lw, scores, norms and ||W||^2
 * in ls (verify_perceptron.run._limbs chooses them). Its precondition, checked by limb_pass:
 * 0 <= ||W||^2 <= limit < 2^(64 ls - 3), limit < 2^(128 lw - 2), and every ||z_i||^2 < 2^(64 ls - 3).
 * Then |W_j| <= ||W|| < 2^(64 lw - 1), and by Cauchy-Schwarz the positive and the negative products
 * of a score each sum to at most ||z||*||W|| <= (||z||^2 + ||W||^2) / 2 < 2^(64 ls - 3), as does
 * |2 s| + ||W||^2 + ||z||^2: every value fits its limbs, so arithmetic modulo 2^64k is exact. */
typedef struct {
    int lz, lw, ls;
} LimbShape;

/* z . W into s (ls limbs): the products of magnitudes summed apart by sign, then subtracted. */
static inline __attribute__((always_inline)) void
limb_dot(const uint64_t *z, const uint64_t *w_mag, const unsigned char *w_neg, Py_ssize_t d, LimbShape sh,
         uint64_t *s)
{
    uint64_t pos[WIDE_MAX_LIMBS] = {0}, neg[WIDE_MAX_LIMBS] = {0}, z_mag[WIDE_MAX_ENTRY];
    for (Py_ssize_t j = 0; j < d; j++) {
        const uint64_t *zj = z + j * sh.lz, *wj = w_mag + j * sh.lw;
        if (wide_is_zero(zj, sh.lz) || wide_is_zero(wj, sh.lw)) {
            continue;
        }
        const int negative = wide_magnitude(z_mag, zj, sh.lz) ^ w_neg[j];
        wide_mul_add(negative ? neg : pos, sh.ls, z_mag, sh.lz, wj, sh.lw);
    }
    wide_sub(pos, neg, sh.ls);
    memcpy(s, pos, (size_t)sh.ls * sizeof(uint64_t));
}

/* W's magnitudes, signs and float copy, and n_W >= ||W|| (run/filter.py's norm_above), after W changed. */
static inline __attribute__((always_inline)) void
limb_weights(const uint64_t *w, Py_ssize_t d, LimbShape sh, const uint64_t *w_sq, uint64_t *w_mag,
             unsigned char *w_neg, double *wf, double *w_norm)
{
    for (Py_ssize_t j = 0; j < d; j++) {
        w_neg[j] = (unsigned char)wide_magnitude(w_mag + j * sh.lw, w + j * sh.lw, sh.lw);
        if (wf != NULL) {
            const double x = wide_unsigned_to_double(w_mag + j * sh.lw, sh.lw);
            wf[j] = w_neg[j] ? -x : x;
        }
    }
    if (wf != NULL) {
        *w_norm = sqrt(wide_to_double(w_sq, sh.ls)) * (1.0 + 0x1p-46);
    }
}

/* ---- entries of at most 128 bits: int128 ----
 * Where every z_j fits two limbs (lz <= 2) and W's entries are two limbs (lw == 2: ls is 3 or 4), each
 * entry is an int128 (two limbs, lowest first, are its two's complement), and the pass needs neither
 * magnitudes nor limb loops: about six times fewer instructions an update than the pass for any shape.
 * With the filter, two more uses of the float score (run/filter.py proves both): a score is summed exactly
 * modulo 2^128 only (dot_mod128) and its high limb read off the float score where the filter's bound allows
 * (score_of_residue); and W's float copy is kept by adding the rows' floats, with a bound on its drift (Drift),
 * and made from W's limbs every DRIFT_UPDATES updates. At 10^5 x 11 in two limbs (the randn fit) the three
 * with the prefetch of rows took the pass from about 74 to 34 ns a row visited. */

/* An entry of n <= 2 limbs (two's complement, lowest first) as int128. */
static inline __attribute__((always_inline)) int128
entry128(const uint64_t *a, int n)
{
    const uint64_t high = n == 2 ? a[1] : (uint64_t)((int64_t)a[0] >> 63);
    return (int128)(((unsigned __int128)high << 64) | a[0]);
}

/* z . W into s (ls = 3 or 4 limbs) for entries of at most 128 bits, modulo 2^(64 ls): the exact value
 * fits them (see LimbShape), so the residue is the value. With a = ah 2^64 + al and b = bh 2^64 + bl (ah, bh
 * signed, al, bl unsigned words), a b = al bl + (ah bl + bh al) 2^64 + ah bh 2^128. A word product reads a
 * negative ah as ah + 2^64, which adds bl 2^64: ah bl is that product less bl 2^64, a correction of its high
 * word only. The words at 2^0 and 2^64 are summed in unsigned 128-bit columns (fewer than 2^62 terms below
 * 2^64 cannot carry out), those from 2^128 on modulo 2^(64 ls - 128), and one carry chain joins them. */
static inline __attribute__((always_inline)) void
dot128(const uint64_t *z, int lz, const uint64_t *w, Py_ssize_t d, int ls, uint64_t *s)
{
    unsigned __int128 c0 = 0, c1 = 0, c2 = 0;
    for (Py_ssize_t j = 0; j < d; j++) {
        const int128 a = entry128(z + j * lz, lz), b = entry128(w + 2 * j, 2);
        const uint64_t al = (uint64_t)a, bl = (uint64_t)b;
        const int64_t ah = (int64_t)(a >> 64), bh = (int64_t)(b >> 64);
        const unsigned __int128 low = (unsigned __int128)al * bl;
        const unsigned __int128 x = (unsigned __int128)(uint64_t)ah * bl, y = (unsigned __int128)(uint64_t)bh * al;
        /* the high words of ah bl and bh al, signed: corrected for a negative ah or bh */
        const int64_t xh = (int64_t)((uint64_t)(x >> 64) - (bl & (uint64_t)(ah >> 63)));
        const int64_t yh = (int64_t)((uint64_t)(y >> 64) - (al & (uint64_t)(bh >> 63)));
        c0 += (uint64_t)low;
        c1 += (unsigned __int128)(uint64_t)(low >> 64) + (uint64_t)x + (uint64_t)y;
        if (ls > 3) {
            c2 += (unsigned __int128)((int128)xh + yh + (int128)ah * bh);
        }
        else { /* modulo 2^64: the low words only */
            c2 += (uint64_t)xh + (uint64_t)yh + (uint64_t)ah * (uint64_t)bh;
        }
    }
    s[0] = (uint64_t)c0;
    c1 += c0 >> 64;
    s[1] = (uint64_t)c1;
    c2 += c1 >> 64;
    s[2] = (uint64_t)c2;
    if (ls > 3) {
        s[3] = (uint64_t)(c2 >> 64);
    }
}

/* A double within two roundings of an int128 x: fl(fl(h) 2^64 + fl(l)) for |x| = h 2^64 + l, both words
 * unsigned. Both terms are >= 0 and the scaling by 2^64 is exact, so the result is |x| (1 + t)(1 + e) with
 * |t|, |e| <= 2^-53: two of the factors run/filter.py counts, within the ones it keeps to spare (m = d + 5,
 * of which a product, its d - 1 additions and two conversions of each factor use d + 3). Without a loop, a
 * branch or a count of leading zeros, where a correct rounding took a third of the pass's time. */
static inline __attribute__((always_inline)) double
double_of128(int128 x)
{
    const unsigned __int128 u = x < 0 ? -(unsigned __int128)x : (unsigned __int128)x;
    const double r = (double)(uint64_t)(u >> 64) * 0x1p64 + (double)(uint64_t)u;
    return x < 0 ? -r : r;
}

/* z . W modulo 2^128 for entries of at most 128 bits (two's complement words read as unsigned): one full
 * and two low word products an entry, where dot128 takes three full and one low. */
static inline __attribute__((always_inline)) unsigned __int128
dot_mod128(const uint64_t *z, int lz, const uint64_t *w, Py_ssize_t d)
{
    unsigned __int128 even = 0, odd = 0;
    Py_ssize_t j = 0;
    for (; j + 1 < d; j += 2) {
        even += (unsigned __int128)entry128(z + j * lz, lz) * (unsigned __int128)entry128(w + 2 * j, 2);
        odd += (unsigned __int128)entry128(z + (j + 1) * lz, lz) * (unsigned __int128)entry128(w + 2 * j + 2, 2);
    }
    if (j < d) {
        even += (unsigned __int128)entry128(z + j * lz, lz) * (unsigned __int128)entry128(w + 2 * j, 2);
    }
    return even + odd;
}

/* The score s (ls >= 3 limbs) from r = s mod 2^128 and the filter's float score f, |f - s| <= t
 * (run/filter.py): s = r + 2^128 k with k the integer nearest (f - r) / 2^128. 1 on success; 0, and s
 * untouched, where t >= 2^125 or |f| >= 2^176 (or either is not a number): dot128 then sums s whole.
 * Why k is exact (run/filter.py's "The score from its residue" proves it at length): r's double
 * rf = fl(fl(r_hi) 2^64 + fl(r_lo)) is within 2^77 of r; f - rf = 2^128 k + (f - s) - (rf - r) is below
 * 2^177 in magnitude, so its rounding errs by at most 2^124; in all fl(f - rf) is within
 * 2^125 + 2^124 + 2^77 < 2^126 of 2^128 k, and its scaling by 2^-128 (exact) within 1/4 of k, which
 * adding and taking away 1.5 2^52 rounds to (|k| < 2^49: the sum is in [2^52, 2^53), whose doubles are
 * the integers). No fused multiply-add changes this: the one product, by 2^64, is exact. */
static inline __attribute__((always_inline)) int
score_of_residue(unsigned __int128 r, double f, double t, int ls, uint64_t *s)
{
    if (!(t < 0x1p125 && fabs(f) < 0x1p176)) {
        return 0;
    }
    const double rf = (double)(uint64_t)(r >> 64) * 0x1p64 + (double)(uint64_t)r;
    const double near = (f - rf) * 0x1p-128 + 0x1.8p52; /* rounded to an integer (no -ffast-math folds it) */
    const int64_t k = (int64_t)(near - 0x1.8p52);
    s[0] = (uint64_t)r;
    s[1] = (uint64_t)(r >> 64);
    s[2] = (uint64_t)k;
    for (int l = 3; l < ls; l++) {
        s[l] = (uint64_t)(k >> 63);
    }
    return 1;
}

/* W's float copy between two exact conversions: run/filter.py's "W's float copy kept from the rows'" proves
 * the bound. n_W >= ||W|| and drift >= 2 e / (K_d (1 - u)), e >= ||Wf - W|| (Wf the float copy), so that
 * the threshold fl(radius_i (n_W + drift)) bounds |f - s| for every row. */
typedef struct {
    double n_W, drift;
    double rate; /* 2 u / K_d = 2^-(b + 1), b = the bits of d + 4 (run/filter.py's K_d = 2^(b + 2 - 53)) */
    int since;   /* updates since W's float copy was made from W */
} Drift;

/* Updates between two exact conversions of W's float copy: the drift grows by about n_W 2^-(b + 1) an
 * update (b = the bits of d + 4), so that over 16 the threshold grows by half at d = 11, and the
 * conversion's cost is spread over 16 updates (8, 16 and 32 measured within 6% of each other). */
#define DRIFT_UPDATES 16
/* How many rows ahead the pass asks for a row's limbs (a 64-byte line at a time): they are read only where the
 * float score cannot decide, so the hardware's own prefetch, which follows reads, lags behind. 2 to 8 measured
 * the same (15% off the pass at 10^5 x 11 in two limbs); 4 kept. */
#define PREFETCH_ROWS 4
/* A factor >= (1 + u) / (1 - u)^k for the k < 100 roundings of a bound's few operations: each bound is
 * rounded up by it once. */
#define ROUND_UP (1.0 + 0x1p-45)

/* 2 u / K_d = 2^-(b + 1), b = the bits of d + 4 (run/filter.py's factor K_d = 2^(b + 2 - 53)). */
static inline double
drift_rate(Py_ssize_t d)
{
    return ldexp(1.0, -(64 - __builtin_clzll((unsigned long long)d + 4)) - 1);
}

/* W's float copy made from W (two roundings an entry: e <= 3 u ||W||, so drift = 3 (2 u / K_d) n_W, rounded
 * up) and n_W from ||W||^2 (run/filter.py's norm_above). */
static inline __attribute__((always_inline)) void
drift_sync(Drift *t, const uint64_t *w, Py_ssize_t d, const uint64_t *w_sq, int ls, double *wf, double *w_norm)
{
    for (Py_ssize_t j = 0; j < d; j++) {
        wf[j] = double_of128(entry128(w + 2 * j, 2));
    }
    t->n_W = sqrt(wide_to_double(w_sq, ls)) * (1.0 + 0x1p-46);
    t->drift = 3.0 * t->rate * t->n_W * ROUND_UP;
    t->since = 0;
    *w_norm = (t->n_W + t->drift) * ROUND_UP;
}

/* The limb pass's filter rows: its (n, d) float64 copy Zf, or each row made as it is read from the user's
 * binary floats X (n, d - 1), the labels y and the common power of two 2^p over which the samples' integers
 * are z_ij = y_i x_ij 2^p, and the bias's column z_i,c = y_i bias (c = 0 or d - 1). The filter's bound
 * (run/filter.py) needs each entry to be the double nearest to z_ij; made so it is z_ij itself: x_ij 2^p is
 * the integer numerator, below 2^480 (the caller's precondition, so never rounded, never overflowing), the
 * sign is exact, and the bias is its nearest double with the sign of y_i. float_row writes such a row ("+ 0.0"
 * makes a zero +0.0, as the copy's, limb_doubles', is: the same doubles bit for bit); filter_rows shows it to
 * the tests. The pass itself never writes one: float_dot_of sums its entries in registers and drift_step adds
 * them to W's float copy as it makes them (each comment says why the sums are the copy's). */
typedef struct {
    const double *zf;   /* (n, d), or NULL: the rows made from x */
    const double *x;    /* (n, d - 1), C order */
    const int64_t *y;   /* (n,): +1 where positive, else -1 (the caller gives +1 or -1) */
    double scale, bias; /* 2^p and the bias's nearest double */
    Py_ssize_t column;  /* the bias's column: 0 or d - 1 */
    double *row;        /* d doubles: the row made last */
} FloatRows;

static inline __attribute__((always_inline)) const double *
float_row(const FloatRows *r, Py_ssize_t i, Py_ssize_t d)
{
    if (r->zf != NULL) {
        return r->zf + i * d;
    }
    const int positive = r->y[i] > 0;
    const double s = positive ? r->scale : -r->scale;
    const double *x = r->x + i * (d - 1);
    double *f = r->row + (r->column == 0);
    for (Py_ssize_t j = 0; j < d - 1; j++) {
        f[j] = x[j] * s + 0.0;
    }
    r->row[r->column] = (positive ? r->bias : -r->bias) + 0.0;
    return r->row;
}

/* Four entries of row i from column J on, as float_row makes them, into the vec4 V, in registers (a macro:
 * no function passes or returns a vec4): X's four from J (from J - 1 with the bias first) times +-2^p; the
 * first four of a row with the bias first as X's first four moved up a lane, the bias put in lane 0; lane by
 * lane where the bias's column is among them otherwise. */
typedef long long lane4 __attribute__((vector_size(32)));
#if defined(__clang__)
#define BIAS_FIRST(v, bias) ((v) = __builtin_shufflevector((v), (vec4){(bias), (bias), (bias), (bias)}, 4, 0, 1, 2))
#else
#define BIAS_FIRST(v, bias) ((v) = __builtin_shuffle((v), (vec4){(bias), (bias), (bias), (bias)}, (lane4){4, 0, 1, 2}))
#endif
#define FLOAT_FOUR(V, J)                                                                    \
    do {                                                                                    \
        const Py_ssize_t j_ = (J);                                                          \
        if (column == 0 && j_ == 0 && d >= 5) {                                             \
            memcpy(&(V), x, sizeof(V));                                                     \
            (V) *= s;                                                                       \
            BIAS_FIRST(V, bias);                                                            \
        }                                                                                   \
        else if (column >= j_ && column < j_ + 4) {                                         \
            for (int k_ = 0; k_ < 4; k_++) {                                                \
                (V)[k_] = j_ + k_ == column ? bias : x[j_ + k_ - (column == 0)] * s;        \
            }                                                                               \
        }                                                                                   \
        else {                                                                              \
            memcpy(&(V), x + j_ - (column == 0), sizeof(V));                                \
            (V) *= s;                                                                       \
        }                                                                                   \
    } while (0)

/* float_dot(float_row(r, i, d), w, d) without writing the row: the same products in the same order (a row
 * stored entry by entry and read back four doubles at a time stalls on store forwarding: a quarter more time
 * in the pass). Without float_row's "+ 0.0" an entry may be -0.0 where the copy's is +0.0: its product is a
 * zero, and a sum started at +0.0 plus a zero of either sign is the same double (round to nearest: +0.0 + -0.0
 * = +0.0), so every sum, and the score, is the copy's bit for bit. */
static inline __attribute__((always_inline)) double
float_dot_of(const FloatRows *r, Py_ssize_t i, const double *w, Py_ssize_t d)
{
    if (r->zf != NULL) {
        return float_dot(r->zf + i * d, w, d);
    }
    const int positive = r->y[i] > 0;
    const double s = positive ? r->scale : -r->scale, bias = positive ? r->bias : -r->bias;
    const double *x = r->x + i * (d - 1);
    const Py_ssize_t column = r->column;
    vec4 a = {0.0, 0.0, 0.0, 0.0}, b = {0.0, 0.0, 0.0, 0.0}, y, z = {0.0, 0.0, 0.0, 0.0};
    Py_ssize_t j = 0;
    for (; j + 7 < d; j += 8) {
        memcpy(&y, w + j, sizeof y);
        FLOAT_FOUR(z, j);
        a += z * y;
        memcpy(&y, w + j + 4, sizeof y);
        FLOAT_FOUR(z, j + 4);
        b += z * y;
    }
    if (j + 3 < d) {
        memcpy(&y, w + j, sizeof y);
        FLOAT_FOUR(z, j);
        a += z * y;
        j += 4;
    }
    double tail = 0.0;
    for (; j < d; j++) {
        tail += (j == column ? bias : x[j - (column == 0)] * s) * w[j];
    }
    a += b;
    return ((a[0] + a[1]) + (a[2] + a[3])) + tail;
}

/* After W += z_i (W already moved): Wf += z_i's floats (row i of `rows`), ||W|| <= n_W + nu_i (nu_i = radius_i /
 * K_d >= ||z_i||), e grows by at most u e + u (1 + u) ||z_i|| + u ||W||; or, every DRIFT_UPDATES updates,
 * drift_sync. Rows made from X are added as they are made, without float_row's buffer or its "+ 0.0": Wf's
 * entries start as +0.0 or nonzero (drift_sync) and a sum is -0.0 only of two -0.0s, so adding a -0.0 where
 * the copy adds +0.0 gives the same double. */
static inline __attribute__((always_inline)) void
drift_step(Drift *t, const uint64_t *w, Py_ssize_t d, const uint64_t *w_sq, int ls, const FloatRows *rows,
           Py_ssize_t i, double radius, double *wf, double *w_norm)
{
    if (++t->since == DRIFT_UPDATES) {
        drift_sync(t, w, d, w_sq, ls, wf, w_norm);
        return;
    }
    if (rows->zf != NULL) {
        const double *zf_row = rows->zf + i * d;
        for (Py_ssize_t j = 0; j < d; j++) {
            wf[j] += zf_row[j];
        }
    }
    else {
        const int positive = rows->y[i] > 0;
        const double s = positive ? rows->scale : -rows->scale;
        const double *x = rows->x + i * (d - 1);
        double *features = wf + (rows->column == 0);
        for (Py_ssize_t j = 0; j < d - 1; j++) {
            features[j] += x[j] * s;
        }
        wf[rows->column] += positive ? rows->bias : -rows->bias;
    }
    const double nu = radius * (t->rate * 0x1p52); /* radius / K_d, exactly: 1 / K_d = 2^52 (2 u / K_d) */
    t->n_W = (t->n_W + nu) * ROUND_UP;
    t->drift = (t->drift + t->rate * (nu + t->n_W)) * ROUND_UP;
    *w_norm = (t->n_W + t->drift) * ROUND_UP;
}

/* One pass from row *position to the end of the rows, a full buffer (cap) or the guard: as
 * DEFINE_PASS, in limbs. Inlined into one function per common shape (LIMB_ROWS), where the limb
 * counts are constants the compiler unrolls, and into one for any shape. */
#define LIMB_ROWS_ARGS const uint64_t *z, Py_ssize_t n, Py_ssize_t d, uint64_t *w, uint64_t *w_mag, \
    unsigned char *w_neg, const unsigned char *ties, const uint64_t *norm, int64_t *count, int64_t *rows, \
    uint64_t *scores, Py_ssize_t cap, Py_ssize_t *position, uint64_t *w_sq, const uint64_t *limit, int *guarded, \
    const FloatRows *zf, const double *radius, double *wf, double *w_norm
#define LIMB_ROWS_CALL z, n, d, w, w_mag, w_neg, ties, norm, count, rows, scores, cap, position, w_sq, limit, \
    guarded, zf, radius, wf, w_norm

static inline __attribute__((always_inline)) Py_ssize_t
limb_rows(LimbShape sh, LIMB_ROWS_ARGS)
{
    Py_ssize_t m = 0, i = *position;
    uint64_t s[WIDE_MAX_LIMBS], after[WIDE_MAX_LIMBS], step[WIDE_MAX_ENTRY];
    /* entries as int128 (dot128): z's in at most two limbs, W's in two (then ls is 3 or 4) */
    const int wide128 = sh.lz <= 2 && sh.lw == 2 && sh.ls <= 4;
    /* With int128 entries and the filter, W's float copy drifts (run/filter.py, "W's float copy kept from
     * the rows'"): n_W >= ||W||, drift >= 2 ||Wf - W|| / (K_d (1 - u)), and *w_norm = n_W + drift rounded up;
     * W's float copy is made from W again every DRIFT_UPDATES updates. */
    Drift drift = {0.0, 0.0, drift_rate(d), 0};
    const int drifting = wide128 && zf != NULL;
    if (drifting) {
        drift_sync(&drift, w, d, w_sq, sh.ls, wf, w_norm);
    }
    for (; i < n; i++) {
        double f = 0.0, t = 0.0;
        if (i + PREFETCH_ROWS < n) { /* about half the rows are scored exactly: their limbs asked for early */
            const char *ahead = (const char *)(z + (i + PREFETCH_ROWS) * d * sh.lz);
            for (Py_ssize_t c = 0; c < d * sh.lz * (Py_ssize_t)sizeof(uint64_t); c += 64) {
                __builtin_prefetch(ahead + c);
            }
        }
        if (zf != NULL) {
            f = float_dot_of(zf, i, wf, d);
            t = radius[i] * *w_norm;
            if (f > t) {
                continue; /* the float score proves z_i . W > 0 (run/filter.py) */
            }
        }
        const uint64_t *row = z + i * d * sh.lz;
        if (wide128) {
            /* the score's low 128 bits exactly and its high limb from the float score, where t allows */
            if (zf == NULL || !score_of_residue(dot_mod128(row, sh.lz, w, d), f, t, sh.ls, s)) {
                dot128(row, sh.lz, w, d, sh.ls, s);
            }
        }
        else {
            limb_dot(row, w_mag, w_neg, d, sh, s);
        }
        if (!wide_negative(s, sh.ls) && !(ties[i] && wide_is_zero(s, sh.ls))) {
            continue;
        }
        /* ||W + z||^2 = ||W||^2 + 2 W.z + ||z||^2, below 2^(64 ls - 1): exact modulo 2^(64 ls) */
        memcpy(after, w_sq, (size_t)sh.ls * sizeof(uint64_t));
        wide_add(after, s, sh.ls);
        wide_add(after, s, sh.ls);
        wide_add(after, norm + i * sh.ls, sh.ls);
        if (wide_compare(after, limit, sh.ls) > 0) {
            *guarded = 1;
            break;
        }
        memcpy(w_sq, after, (size_t)sh.ls * sizeof(uint64_t));
        if (wide128) {
            for (Py_ssize_t j = 0; j < d; j++) { /* |W_j + z_j| <= ||W + z|| < 2^127: exact in int128 */
                const int128 v = entry128(w + 2 * j, 2) + entry128(row + j * sh.lz, sh.lz);
                w[2 * j] = (uint64_t)v;
                w[2 * j + 1] = (uint64_t)((unsigned __int128)v >> 64);
            }
            if (drifting) {
                drift_step(&drift, w, d, w_sq, sh.ls, zf, i, radius[i], wf, w_norm);
            }
        }
        else {
            for (Py_ssize_t j = 0; j < d; j++) { /* W_j + z_j fits lw limbs: |W_j + z_j| <= ||W + z|| */
                wide_extend(step, sh.lw, row + j * sh.lz, sh.lz);
                wide_add(w + j * sh.lw, step, sh.lw);
            }
            limb_weights(w, d, sh, w_sq, w_mag, w_neg, zf != NULL ? wf : NULL, w_norm);
        }
        count[i] += 1;
        rows[m] = i;
        memcpy(scores + m * sh.ls, s, (size_t)sh.ls * sizeof(uint64_t));
        if (++m == cap) {
            i++;
            break;
        }
    }
    *position = i;
    return m;
}

#define LIMB_ROWS(LZ, LW, LS)                                                                  \
MULTIVERSION static Py_ssize_t                                                                 \
limb_rows_##LZ##LW##LS(LIMB_ROWS_ARGS)                                                         \
{                                                                                              \
    return limb_rows((LimbShape){LZ, LW, LS}, LIMB_ROWS_CALL);                                 \
}
LIMB_ROWS(1, 2, 3)
LIMB_ROWS(2, 2, 3)
LIMB_ROWS(1, 2, 4)
LIMB_ROWS(2, 2, 4)

MULTIVERSION static Py_ssize_t
limb_rows_any(LimbShape sh, LIMB_ROWS_ARGS)
{
    return limb_rows(sh, LIMB_ROWS_CALL);
}

/* The pass for shape sh: a constant shape's own, or the one for any. */
static Py_ssize_t
limb_rows_of(LimbShape sh, LIMB_ROWS_ARGS)
{
    const int key = sh.lz * 100 + sh.lw * 10 + sh.ls;
    switch (key) {
    case 123: return limb_rows_123(LIMB_ROWS_CALL);
    case 223: return limb_rows_223(LIMB_ROWS_CALL);
    case 124: return limb_rows_124(LIMB_ROWS_CALL);
    case 224: return limb_rows_224(LIMB_ROWS_CALL);
    default: return limb_rows_any(sh, LIMB_ROWS_CALL);
    }
}

/* 1 if the magnitude a (n limbs) is below 2^bits. */
static int
limb_below(const uint64_t *a, int n, int bits)
{
    for (int k = n - 1; k >= 0; k--) {
        if (a[k] != 0) {
            return 64 * k + (64 - __builtin_clzll(a[k])) <= bits;
        }
    }
    return 1;
}
#endif

#if SCAN_WIDE
/* limb_pass's filter (Zf, radius): Zf an (n, d) float64 array, or a tuple (X, y, scale, bias, column) whose
 * rows are made as they are read (FloatRows): X an (n, d - 1) float64 array, y n int64 labels, scale a power of
 * two at most 2^1023, bias a finite double, column 0 or d - 1; radius n float64 values. Fills `rows` (its row
 * buffer left to the caller); on failure raises TypeError or ValueError naming the argument and returns -1. */
static int
get_limb_filter(const char *func, PyObject *obj, Py_ssize_t n, Py_ssize_t d, Py_buffer *Zf, Py_buffer *X,
                Py_buffer *Y, Py_buffer *radius, FloatRows *rows)
{
    PyObject *zf_obj, *radius_obj, *x_obj, *y_obj;
    if (!PyTuple_Check(obj) || !PyArg_ParseTuple(obj, "OO", &zf_obj, &radius_obj)) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s(): filter must be None or a tuple (Zf, radius)", func);
        return -1;
    }
    if (!PyTuple_Check(zf_obj)) {
        if (get_filter(func, obj, n, d, 0, Zf, radius) < 0) {
            return -1;
        }
        rows->zf = Zf->buf;
        return 0;
    }
    double scale, bias;
    Py_ssize_t column;
    if (!PyArg_ParseTuple(zf_obj, "OOddn", &x_obj, &y_obj, &scale, &bias, &column)) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s(): filter's rows must be Zf or a tuple (X, y, scale, bias, column) of "
                     "two arrays, two floats and an int", func);
        return -1;
    }
    int exponent;
    if (!(scale > 0.0 && scale <= 0x1p1023 && frexp(scale, &exponent) == 0.5) || !isfinite(bias)) {
        PyErr_Format(PyExc_ValueError, "%s(): filter's scale must be a power of two up to 2^1023 and its bias "
                     "finite, got scale=%R and bias=%R", func, PyTuple_GET_ITEM(zf_obj, 2), PyTuple_GET_ITEM(zf_obj, 3));
        return -1;
    }
    if (d < 1 || (column != 0 && column != d - 1)) {
        PyErr_Format(PyExc_ValueError, "%s(): filter's bias column must be 0 or %zd, got %zd", func, d - 1, column);
        return -1;
    }
    if (get_array(func, "X", x_obj, 2, FLOAT64_ITEMS, 0, X) < 0 || get_array(func, "y", y_obj, 1, INT64_ITEMS, 0, Y) < 0
        || get_array(func, "radius", radius_obj, 1, FLOAT64_ITEMS, 0, radius) < 0) {
        return -1;
    }
    if (X->shape[0] != n || X->shape[1] != d - 1 || Y->shape[0] != n || radius->shape[0] != n) {
        PyErr_Format(PyExc_ValueError, "%s(): filter's X must be (%zd, %zd) and y and radius have %zd rows, got X "
                     "(%zd, %zd), y (%zd,) and radius (%zd,)", func, n, d - 1, n, X->shape[0], X->shape[1],
                     Y->shape[0], radius->shape[0]);
        return -1;
    }
    rows->zf = NULL;
    rows->x = X->buf;
    rows->y = Y->buf;
    rows->scale = scale;
    rows->bias = bias;
    rows->column = column;
    return 0;
}
#endif

PyDoc_STRVAR(limb_pass_doc,
"limb_pass($module, Z, W, tie, norms, counts, out_i, out_s, start, w_sq, limit, epochs, filter, /)\n"
"--\n"
"\n"
"online_pass with every integer in 64-bit limbs, lowest first, two's complement\n"
"(verify_perceptron.data.integers.as_limbs): Z (n, d, lz), W (d, lw), norms\n"
"(n, ls), out_s (cap, ls), and w_sq (ls,) updated in place and limit (ls,) as arrays,\n"
"all int64 and C-contiguous. Preconditions, refused with ValueError:\n"
"0 <= w_sq <= limit < 2^(64 ls - 3), limit < 2^(128 lw - 2), 0 <= norms[i] < 2^(64 ls - 3),\n"
"1 <= lz, lw <= 4 and 1 <= ls <= 8. epochs and filter are online_pass's (saved and\n"
"previous hold d * lw limbs, or none), and it returns ``(m, position, guarded, epoch, made)``.\n"
"Where entries fit two limbs, the filter's float score also gives a score's high limb\n"
"over its exact residue modulo 2^128, and W's float copy is kept by adding the rows'\n"
"floats (run/filter.py proves both): Zf must hold the nearest doubles of Z and\n"
"radius[i] at least K_d ||Z[i]|| (both as verify_perceptron.run.filter.radii gives).\n"
"Zf may instead be a tuple (X, y, scale, bias, column) from which each row is made as\n"
"it is read, Z[i] = y[i] (X[i] scale with bias inserted at column 0 or d - 1): X (n, d - 1)\n"
"float64 and y (n,) int64 of +1 and -1, C-contiguous, scale a power of two; then every\n"
"X[i, j] scale must be an integer below 2^480 and these rows Z's values (the caller's\n"
"precondition: they are then the nearest doubles, exactly).\n"
"The GIL is released while scanning; the arrays must not change meanwhile.");

static PyObject *
limb_pass(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
#if SCAN_WIDE
    static const char func[] = "limb_pass";
    Py_buffer Z = {0}, W = {0}, tie = {0}, norms = {0}, counts = {0}, out_i = {0}, out_s = {0};
    Py_buffer sq = {0}, lim = {0}, Zf = {0}, radius = {0}, fX = {0}, fY = {0};
    FloatRows frows = {0};
    Epochs ep = {0};
    int with_epochs = 0, with_filter = 0;
    PyObject *result = NULL;
    Py_ssize_t start;
    uint64_t *w_mag = NULL;
    unsigned char *w_neg = NULL;
    double *wf = NULL, w_norm = 0.0;

    if (nargs != 12) {
        PyErr_Format(PyExc_TypeError,
                     "limb_pass() takes 12 arguments (Z, W, tie, norms, counts, out_i, out_s, start, w_sq, "
                     "limit, epochs, filter), got %zd", nargs);
        return NULL;
    }
    if (get_array(func, "Z", args[0], 3, INT64_ITEMS, 0, &Z) < 0
        || get_array(func, "W", args[1], 2, INT64_ITEMS, 1, &W) < 0
        || get_array(func, "tie", args[2], 1, FLAG_ITEMS, 0, &tie) < 0
        || get_array(func, "norms", args[3], 2, INT64_ITEMS, 0, &norms) < 0
        || get_array(func, "counts", args[4], 1, INT64_ITEMS, 1, &counts) < 0
        || get_array(func, "out_i", args[5], 1, INT64_ITEMS, 1, &out_i) < 0
        || get_array(func, "out_s", args[6], 2, INT64_ITEMS, 1, &out_s) < 0
        || get_array(func, "w_sq", args[8], 1, INT64_ITEMS, 1, &sq) < 0
        || get_array(func, "limit", args[9], 1, INT64_ITEMS, 0, &lim) < 0) {
        goto done;
    }
    const Py_ssize_t n = Z.shape[0], d = Z.shape[1], cap = out_i.shape[0];
    const LimbShape sh = {(int)Z.shape[2], (int)W.shape[1], (int)norms.shape[1]};
    if (Z.shape[2] < 1 || Z.shape[2] > WIDE_MAX_ENTRY || W.shape[1] < 1 || W.shape[1] > WIDE_MAX_ENTRY
        || norms.shape[1] < 1 || norms.shape[1] > WIDE_MAX_LIMBS || W.shape[0] != d || norms.shape[0] != n
        || out_s.shape[0] != cap || out_s.shape[1] != sh.ls || sq.shape[0] != sh.ls || lim.shape[0] != sh.ls
        || cap < 1) {
        PyErr_Format(PyExc_ValueError,
                     "limb_pass(): needs Z (n, d, lz), W (d, lw), norms (n, ls), out_s (cap, ls), w_sq and limit "
                     "(ls,), out_i (cap,) with cap >= 1, 1 <= lz, lw <= %d and 1 <= ls <= %d; got Z (%zd, %zd, "
                     "%zd), W (%zd, %zd), norms (%zd, %zd), out_i (%zd,), out_s (%zd, %zd), w_sq (%zd,), "
                     "limit (%zd,)", WIDE_MAX_ENTRY, WIDE_MAX_LIMBS, n, d, Z.shape[2], W.shape[0], W.shape[1],
                     norms.shape[0], norms.shape[1], cap, out_s.shape[0], out_s.shape[1], sq.shape[0],
                     lim.shape[0]);
        goto done;
    }
    if (check_rows(func, "tie", &tie, n) < 0 || check_rows(func, "counts", &counts, n) < 0
        || get_index(func, "start", args[7], 0, n, "n", &start) < 0) {
        goto done;
    }
    uint64_t *w_sq = sq.buf;
    const uint64_t *limit = lim.buf, *norm = norms.buf;
    if (wide_negative(w_sq, sh.ls) || wide_compare(w_sq, limit, sh.ls) > 0
        || !limb_below(limit, sh.ls, 64 * sh.ls - 3) || !limb_below(limit, sh.ls, 128 * sh.lw - 2)) {
        PyErr_SetString(PyExc_ValueError, "limb_pass(): needs 0 <= w_sq <= limit < 2^(64 ls - 3) and "
                        "limit < 2^(128 lw - 2)");
        goto done;
    }
    /* every norm in [0, 2^(64 ls - 3)): its top limb, read unsigned, below 2^61. Or-ed over all rows first
     * (no branch per row: this runs at every call, over every row), the row named only when one is not. */
    uint64_t tops = 0;
    for (Py_ssize_t r = 0; r < n; r++) {
        tops |= norm[r * sh.ls + sh.ls - 1];
    }
    for (Py_ssize_t r = 0; (tops >> 61) != 0 && r < n; r++) {
        if (wide_negative(norm + r * sh.ls, sh.ls) || !limb_below(norm + r * sh.ls, sh.ls, 64 * sh.ls - 3)) {
            PyErr_Format(PyExc_ValueError, "limb_pass(): norms[%zd] must be in [0, 2^(64 ls - 3))", r);
            goto done;
        }
    }
    if (get_epochs(func, args[10], cap, d * sh.lw, &ep) < 0) {
        goto done;
    }
    with_epochs = 1;
    if (args[11] != Py_None) {
        if (get_limb_filter(func, args[11], n, d, &Zf, &fX, &fY, &radius, &frows) < 0) {
            goto done;
        }
        with_filter = FILTER_SOUND && d > 0;
    }
    w_mag = PyMem_Malloc((size_t)(d > 0 ? d : 1) * sh.lw * sizeof(uint64_t));
    w_neg = PyMem_Malloc((size_t)(d > 0 ? d : 1));
    wf = PyMem_Malloc((size_t)(d > 0 ? d : 1) * sizeof(double));
    if (w_mag == NULL || w_neg == NULL || wf == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    const FloatRows *zf = with_filter ? &frows : NULL;
    const double *radii = with_filter ? radius.buf : NULL;
    uint64_t *w = W.buf;
    const uint64_t *saved = ep.saved.buf, *z = Z.buf;
    uint64_t *previous = ep.previous.buf, *scores = out_s.buf;
    const Py_ssize_t n_saved = ep.saved.shape[0], n_previous = ep.previous.shape[0], width = d * sh.lw;
    int64_t *rows = out_i.buf, *epochs = ep.out_e.buf;
    Py_ssize_t m = 0, i = start;
    int guarded = 0;
    long long scanned = 0;
    Py_BEGIN_ALLOW_THREADS
    limb_weights(w, d, sh, w_sq, w_mag, w_neg, zf != NULL ? wf : NULL, &w_norm);
    for (;;) {
        const Py_ssize_t got = limb_rows_of(sh, z, n, d, w, w_mag, w_neg, tie.buf, norm, counts.buf, rows + m,
                                            scores + m * sh.ls, cap - m, &i, w_sq, limit, &guarded, zf, radii, wf,
                                            &w_norm);
        for (Py_ssize_t t = m; t < m + got; t++) {
            epochs[t] = ep.epoch;
        }
        m += got;
        ep.made += got;
        scanned += n;
        if (guarded || i < n) {
            break;
        }
        /* The end of epoch ep.epoch: go on only where the caller would have nothing to do (as online_pass). */
        const size_t bytes = (size_t)width * sizeof(uint64_t);
        const int same = n_saved == width && memcmp(w, saved, bytes) == 0; /* limbs: one form per value */
        const int known = n_previous == width, repeat = known && memcmp(w, previous, bytes) == 0;
        if (ep.made == 0 || ep.per_epoch || ep.epoch >= ep.max_epochs || ep.epoch == ep.stop_epoch || same
            || !known || repeat || m == cap || scanned >= ep.work) {
            break;
        }
        memcpy(previous, w, bytes);
        ep.epoch++;
        ep.made = 0;
        i = 0;
    }
    Py_END_ALLOW_THREADS
    result = Py_BuildValue("(nnOLL)", m, i, guarded ? Py_True : Py_False, ep.epoch, ep.made);
done:
    PyMem_Free(w_mag);
    PyMem_Free(w_neg);
    PyMem_Free(wf);
    if (with_epochs) {
        release_epochs(&ep);
    }
    PyBuffer_Release(&Zf);
    PyBuffer_Release(&fX);
    PyBuffer_Release(&fY);
    PyBuffer_Release(&radius);
    PyBuffer_Release(&Z);
    PyBuffer_Release(&W);
    PyBuffer_Release(&tie);
    PyBuffer_Release(&norms);
    PyBuffer_Release(&counts);
    PyBuffer_Release(&out_i);
    PyBuffer_Release(&out_s);
    PyBuffer_Release(&sq);
    PyBuffer_Release(&lim);
    return result;
#else
    PyErr_SetString(PyExc_NotImplementedError, "limb_pass() needs a compiler with __int128");
    return NULL;
#endif
}

PyDoc_STRVAR(filter_rows_doc,
"filter_rows($module, filter, out, w, dots, /)\n"
"--\n"
"\n"
"The rows limb_pass's filter reads, alone (for tests): out (n, d) float64 receives\n"
"row i as limb_pass reads it from filter, limb_pass's (Zf, radius) with Zf an (n, d)\n"
"array or a tuple (X, y, scale, bias, column), checked as limb_pass checks it; dots (n,)\n"
"the float score of each row against w (d,) float64, as limb_pass's filter sums it.");

static PyObject *
filter_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
#if SCAN_WIDE
    static const char func[] = "filter_rows";
    Py_buffer Zf = {0}, X = {0}, Y = {0}, radius = {0}, out = {0}, W = {0}, dots = {0};
    FloatRows rows = {0};
    PyObject *result = NULL;
    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "filter_rows() takes 4 arguments (filter, out, w, dots), got %zd", nargs);
        return NULL;
    }
    if (get_array(func, "out", args[1], 2, FLOAT64_ITEMS, 1, &out) < 0) {
        return NULL;
    }
    const Py_ssize_t n = out.shape[0], d = out.shape[1];
    if (get_limb_filter(func, args[0], n, d, &Zf, &X, &Y, &radius, &rows) < 0
        || get_array(func, "w", args[2], 1, FLOAT64_ITEMS, 0, &W) < 0
        || get_array(func, "dots", args[3], 1, FLOAT64_ITEMS, 1, &dots) < 0) {
        goto done;
    }
    if (W.shape[0] != d || dots.shape[0] != n) {
        PyErr_Format(PyExc_ValueError, "filter_rows(): w must have %zd entries and dots %zd", d, n);
        goto done;
    }
    rows.row = PyMem_Malloc((size_t)(d > 0 ? d : 1) * sizeof(double));
    if (rows.row == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    double *f = out.buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        memcpy(f + i * d, float_row(&rows, i, d), (size_t)d * sizeof(double));
        ((double *)dots.buf)[i] = float_dot_of(&rows, i, W.buf, d);
    }
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&W);
    PyBuffer_Release(&dots);
    PyMem_Free(rows.row);
    PyBuffer_Release(&Zf);
    PyBuffer_Release(&X);
    PyBuffer_Release(&Y);
    PyBuffer_Release(&radius);
    PyBuffer_Release(&out);
    return result;
#else
    PyErr_SetString(PyExc_NotImplementedError, "filter_rows() needs a compiler with __int128");
    return NULL;
#endif
}

PyDoc_STRVAR(float_copy_trace_doc,
"float_copy_trace($module, Z, W, Zf, radius, w_sq, out, /)\n"
"--\n"
"\n"
"The bookkeeping of W's float copy in limb_pass, alone (for tests of its bound):\n"
"from W (d, 2) in limbs with ||W||^2 = w_sq (ls,), W's float copy is made, then\n"
"W += Z[t] for each of the k rows of Z (k, d, lz) in limbs (lz <= 2), their floats\n"
"Zf (k, d) and radii radius (k,) as limb_pass's filter reads them. Row t of out\n"
"(k + 1, d + 3) float64 receives W's float copy, n_W and the drift after t rows\n"
"(Zf may be limb_pass's tuple (X, y, scale, bias, column): the rows made from X)\n"
"(run/filter.py, \"W's float copy kept from the rows'\"), then the threshold's\n"
"factor n_W + drift rounded up. k must be below the updates between two exact\n"
"conversions (16), and every W + Z[0] + ... + Z[t] must stay below 2^127 in each entry.");

static PyObject *
float_copy_trace(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
#if SCAN_WIDE
    static const char func[] = "float_copy_trace";
    Py_buffer Z = {0}, W = {0}, Zf = {0}, radius = {0}, sq = {0}, out = {0}, fX = {0}, fY = {0};
    FloatRows rows = {0};
    PyObject *result = NULL, *filter = NULL;
    if (nargs != 6) {
        PyErr_Format(PyExc_TypeError, "float_copy_trace() takes 6 arguments (Z, W, Zf, radius, w_sq, out), got %zd",
                     nargs);
        return NULL;
    }
    if (get_array(func, "Z", args[0], 3, INT64_ITEMS, 0, &Z) < 0
        || get_array(func, "W", args[1], 2, INT64_ITEMS, 0, &W) < 0
        || (filter = PyTuple_Pack(2, args[2], args[3])) == NULL
        || get_limb_filter(func, filter, Z.shape[0], W.shape[0], &Zf, &fX, &fY, &radius,
                           &rows) < 0
        || get_array(func, "w_sq", args[4], 1, INT64_ITEMS, 0, &sq) < 0
        || get_array(func, "out", args[5], 2, FLOAT64_ITEMS, 1, &out) < 0) {
        goto done;
    }
    const Py_ssize_t k = Z.shape[0], d = Z.shape[1], lz = Z.shape[2], ls = sq.shape[0];
    if (lz < 1 || lz > 2 || W.shape[0] != d || W.shape[1] != 2 || radius.shape[0] != k || ls < 1 || ls > WIDE_MAX_LIMBS || out.shape[0] != k + 1
        || out.shape[1] != d + 3 || k >= DRIFT_UPDATES) {
        PyErr_Format(PyExc_ValueError, "float_copy_trace(): needs Z (k, d, lz <= 2) with k < %d, W (d, 2), "
                     "Zf (k, d), radius (k,), w_sq (ls <= %d,) and out (k + 1, d + 3)", DRIFT_UPDATES,
                     WIDE_MAX_LIMBS);
        goto done;
    }
    uint64_t w[2 * WIDE_MAX_LIMBS * 64];
    if (d > (Py_ssize_t)(sizeof w / sizeof w[0]) / 2) {
        PyErr_SetString(PyExc_ValueError, "float_copy_trace(): d is at most 512");
        goto done;
    }
    memcpy(w, W.buf, (size_t)(2 * d) * sizeof(uint64_t));
    const uint64_t *z = Z.buf;
    const double *radii = radius.buf;
    double *row = out.buf, w_norm = 0.0;
    Drift drift = {0.0, 0.0, drift_rate(d), 0};
    drift_sync(&drift, w, d, sq.buf, (int)ls, row, &w_norm);
    row[d] = drift.n_W, row[d + 1] = drift.drift, row[d + 2] = w_norm;
    for (Py_ssize_t t = 0; t < k; t++) {
        for (Py_ssize_t j = 0; j < d; j++) {
            int128 v;
            if (__builtin_add_overflow(entry128(w + 2 * j, 2), entry128(z + (t * d + j) * lz, (int)lz), &v)) {
                PyErr_Format(PyExc_ValueError, "float_copy_trace(): W + Z[%zd] leaves 127 bits in entry %zd", t, j);
                goto done;
            }
            w[2 * j] = (uint64_t)v;
            w[2 * j + 1] = (uint64_t)((unsigned __int128)v >> 64);
        }
        double *next = row + d + 3;
        memcpy(next, row, (size_t)d * sizeof(double));
        drift_step(&drift, w, d, sq.buf, (int)ls, &rows, t, radii[t], next, &w_norm);
        next[d] = drift.n_W, next[d + 1] = drift.drift, next[d + 2] = w_norm;
        row = next;
    }
    result = Py_NewRef(Py_None);
done:
    Py_XDECREF(filter);
    PyBuffer_Release(&fX);
    PyBuffer_Release(&fY);
    PyBuffer_Release(&Z);
    PyBuffer_Release(&W);
    PyBuffer_Release(&Zf);
    PyBuffer_Release(&radius);
    PyBuffer_Release(&sq);
    PyBuffer_Release(&out);
    return result;
#else
    PyErr_SetString(PyExc_NotImplementedError, "float_copy_trace() needs a compiler with __int128");
    return NULL;
#endif
}

/* ---- the module -------------------------------------------------------- */

static PyMethodDef scan_methods[] = {
    {"online_pass", (PyCFunction)(void (*)(void))online_pass, METH_FASTCALL, online_pass_doc},
    {"limb_pass", (PyCFunction)(void (*)(void))limb_pass, METH_FASTCALL, limb_pass_doc},
    {"float_copy_trace", (PyCFunction)(void (*)(void))float_copy_trace, METH_FASTCALL, float_copy_trace_doc},
    {"filter_rows", (PyCFunction)(void (*)(void))filter_rows, METH_FASTCALL, filter_rows_doc},
    {NULL, NULL, 0, NULL},
};

PyDoc_STRVAR(scan_doc,
"The engine's online perceptron passes, exactly, in C (optional; see\n"
"verify_perceptron.run.kernel).");

static struct PyModuleDef scan_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "verify_perceptron.run._scan",
    .m_doc = scan_doc,
    .m_size = 0,
    .m_methods = scan_methods,
    .m_slots = exact_module_slots,
};

PyMODINIT_FUNC
PyInit__scan(void)
{
    return PyModuleDef_Init(&scan_module);
}
