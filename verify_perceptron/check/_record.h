/*
 * _record.h: two one-pass readings of a chunk of online updates, for the observers beside the replay
 * (included once by _replay.c, whose module exposes them; Python wrappers in check/kernel.py).
 *
 * record_sums() is the whole-run record's chunk (check/whole_run.py, WholeRun._monotone_chunk): whether
 * every score is <= 0, the last update of each piece where the upper slack N.R^2 - ||W||^2 rose, and the
 * prefix sums of 2.s + ||z||^2 at the few updates drawn. Each was a dozen NumPy passes over the chunk (the
 * scores and norms cut into 32-bit pieces so that int64 sums stay exact); here one pass reads each score
 * and norm once and sums every limb position in its own 128-bit accumulator (a limb below the top is added
 * as unsigned, the top one as signed: the value is then the sum of acc[l] . 2^(64 l), exactly, for up to
 * 2^40 updates), joined into limbs only at each piece's ends.
 *
 * fact_keys() is the proofs' hypotheses' chunk (check/facts.py, FactCheck.observe_chunk): the first update
 * on each sample, and the first update of each key (label, sign of the score), which were a dozen NumPy
 * passes too.
 *
 * Neither decides anything: the record draws what the checker decided, and the keys only pick the updates
 * the fact rules are evaluated at. Both read the reported scores as K int64 limbs, lowest first, two's
 * complement (verify_perceptron.data.integers.as_limbs).
 */

#ifndef VERIFY_PERCEPTRON_RECORD_H
#define VERIFY_PERCEPTRON_RECORD_H

#if SCAN_WIDE
/* The widest score or norm read here, in limbs (as the scores the replay in limbs reads). */
#define RECORD_LIMBS_MAX 64

/* The sign of a K-limb value: -1, 0 or 1. */
static inline int
limbs_sign(const int64_t *v, Py_ssize_t K)
{
    if (v[K - 1] < 0) {
        return -1;
    }
    for (Py_ssize_t l = 0; l < K; l++) {
        if (v[l] != 0) {
            return 1;
        }
    }
    return 0;
}

/* acc[0..K) += factor . v (v K limbs, two's complement): each limb at its own position, the top one signed. */
static inline void
limbs_accumulate(int128 *acc, const int64_t *v, Py_ssize_t K, int factor)
{
    for (Py_ssize_t l = 0; l + 1 < K; l++) {
        acc[l] += (int128)((uint64_t)v[l]) * factor;
    }
    acc[K - 1] += (int128)v[K - 1] * factor;
}

/* out[0..KS) = sum over l of acc[l] . 2^(64 l), as KS limbs (two's complement); the caller's KS leaves room. */
static inline void
limbs_join(const int128 *acc, Py_ssize_t P, int64_t *out, Py_ssize_t KS)
{
    int128 carry = 0;
    for (Py_ssize_t l = 0; l < KS; l++) {
        const int128 v = (l < P ? acc[l] : 0) + carry;
        out[l] = (int64_t)(uint64_t)v;
        carry = v >> 64; /* (arithmetic: GCC and Clang shift signed values so) */
    }
}
#endif

PyDoc_STRVAR(record_sums_doc,
"record_sums($module, scores, rows, norms, r_sq, starts, greatest, sums, /)\n"
"--\n"
"\n"
"The whole-run record's chunk of online updates, in one pass.\n"
"\n"
"scores is (m, Ls) int64 limbs, rows (m,) int64, norms (n, Ln') int64 limbs of every\n"
"||z_i||^2 of which the lowest Ln (r_sq's length, the limbs of R^2) hold it, the others 0;\n"
"starts (P,) int64 the first update of each piece, strictly increasing from 0.\n"
"Returns 0 where a score is > 0 or a row is out of range (the outputs are then not to\n"
"be read); else 1, with greatest[p] = (g, c): g the last update of piece p whose row's\n"
"norm is not R^2 or whose score is not 0 (the piece's first when none is), and c the\n"
"updates after g in the piece (each adds exactly R^2); and sums (2P, KS) the prefix sums\n"
"of 2.scores[t] + norms[rows[t]] up to each piece's first and last update, as KS limbs\n"
"(KS >= max(Ls, Ln) + 2).");

PyDoc_STRVAR(fact_keys_doc,
"fact_keys($module, rows, scores, labels, first_at, first, out, /)\n"
"--\n"
"\n"
"The proofs' hypotheses' chunk of online updates first, first + 1, ...\n"
"\n"
"rows (m,) int64, scores (m, Ls) int64 limbs, labels (n,) int64 each -1, 0 or 1,\n"
"first_at (n,) int64 the first update on each sample (0: none yet). Returns 0,\n"
"writing nothing, where a row is out of range or its label is not -1, 0 or 1; else\n"
"1, with first_at[rows[t]] = first + t where it was 0 (the earliest t), and out[c]\n"
"(9,) the first t whose key (label + 1) . 3 + (sign of the score + 1) is c, or -1.");

static PyObject *
record_sums(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
#if SCAN_WIDE
    static const char func[] = "record_sums";
    enum { A_SCORES, A_ROWS, A_NORMS, A_R_SQ, A_STARTS, A_GREATEST, A_SUMS, N_ARGS };
    static const struct array_arg spec[N_ARGS] = {
        {"scores", 2, INT64_ITEMS, 0}, {"rows", 1, INT64_ITEMS, 0}, {"norms", 2, INT64_ITEMS, 0},
        {"r_sq", 1, INT64_ITEMS, 0}, {"starts", 1, INT64_ITEMS, 0}, {"greatest", 2, INT64_ITEMS, 1},
        {"sums", 2, INT64_ITEMS, 1},
    };
    Py_buffer a[N_ARGS];
    PyObject *result = NULL;
    if (get_arrays(func, args, nargs, spec, N_ARGS, a) < 0) {
        return NULL;
    }
    const Py_ssize_t m = a[A_ROWS].shape[0], Ls = a[A_SCORES].shape[1], n = a[A_NORMS].shape[0],
                     stride = a[A_NORMS].shape[1], Ln = a[A_R_SQ].shape[0], P = a[A_STARTS].shape[0],
                     KS = a[A_SUMS].shape[1];
    const Py_ssize_t widest = Ls > Ln ? Ls : Ln;
    if (a[A_SCORES].shape[0] != m || Ls < 1 || Ls > RECORD_LIMBS_MAX || Ln < 1 || Ln > RECORD_LIMBS_MAX
        || Ln > stride || a[A_GREATEST].shape[0] != P || a[A_GREATEST].shape[1] != 2
        || a[A_SUMS].shape[0] != 2 * P || KS < widest + 2 || m < 1 || m > ((Py_ssize_t)1 << 40) || P < 1) {
        PyErr_Format(PyExc_ValueError, "record_sums(): shapes scores (%zd, %zd), rows (%zd), norms (%zd, %zd), "
                     "r_sq (%zd), starts (%zd), greatest (%zd, %zd), sums (%zd, %zd) do not agree",
                     a[A_SCORES].shape[0], Ls, m, n, stride, Ln, P, a[A_GREATEST].shape[0],
                     a[A_GREATEST].shape[1], a[A_SUMS].shape[0], KS);
        goto done;
    }
    const int64_t *score = a[A_SCORES].buf, *row = a[A_ROWS].buf, *norm = a[A_NORMS].buf, *r_sq = a[A_R_SQ].buf,
                  *start = a[A_STARTS].buf;
    int64_t *greatest = a[A_GREATEST].buf, *sums = a[A_SUMS].buf;
    if (start[0] != 0 || start[P - 1] >= m) {
        PyErr_Format(PyExc_ValueError, "record_sums(): starts must run from 0 to below m=%zd", m);
        goto done;
    }
    for (Py_ssize_t p = 1; p < P; p++) {
        if (start[p] <= start[p - 1]) {
            PyErr_Format(PyExc_ValueError, "record_sums(): starts[%zd]=%lld does not increase", p,
                         (long long)start[p]);
            goto done;
        }
    }
    int monotone = 1;
    Py_BEGIN_ALLOW_THREADS
    /* One pass: each limb position summed apart, joined at each piece's ends. A score < 0 always raises the
     * slack N.R^2 - ||W||^2; only a score of 0 on a row of norm R^2 leaves it, and adds exactly R^2 to the
     * sums: the sum at the piece's last rise is its last sum less R^2 for each update after that rise. */
    int128 acc[RECORD_LIMBS_MAX];
    memset(acc, 0, sizeof acc);
    for (Py_ssize_t p = 0; p < P && monotone; p++) {
        const Py_ssize_t end = p + 1 < P ? start[p + 1] : m;
        Py_ssize_t last = start[p], after = 0;
        for (Py_ssize_t t = start[p]; t < end; t++) {
            const int64_t *s_t = score + t * Ls;
            const int sign = limbs_sign(s_t, Ls);
            if (sign > 0 || row[t] < 0 || row[t] >= n) {
                monotone = 0;
                break;
            }
            const int64_t *norm_t = norm + row[t] * stride;
            limbs_accumulate(acc, s_t, Ls, 2);
            limbs_accumulate(acc, norm_t, Ln, 1);
            if (sign < 0 || memcmp(norm_t, r_sq, (size_t)Ln * sizeof(int64_t)) != 0) {
                last = t;
                after = 0;
            }
            else if (t > start[p]) {
                after++;
            }
            if (t == start[p]) {
                limbs_join(acc, widest, sums + 2 * p * KS, KS);
            }
        }
        limbs_join(acc, widest, sums + (2 * p + 1) * KS, KS);
        greatest[2 * p] = last;
        greatest[2 * p + 1] = after;
    }
    Py_END_ALLOW_THREADS
    result = PyLong_FromLong(monotone);
done:
    release_arrays(a, N_ARGS);
    return result;
#else
    PyErr_SetString(PyExc_NotImplementedError, "record_sums() needs a compiler with __int128");
    return NULL;
#endif
}

static PyObject *
fact_keys(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
#if SCAN_WIDE
    static const char func[] = "fact_keys";
    enum { A_ROWS, A_SCORES, A_LABELS, A_FIRST_AT, A_FIRST, A_OUT, N_ARGS };
    static const struct array_arg spec[N_ARGS] = {  /* first is an int: ndim 0, read below */
        {"rows", 1, INT64_ITEMS, 0}, {"scores", 2, INT64_ITEMS, 0}, {"labels", 1, INT64_ITEMS, 0},
        {"first_at", 1, INT64_ITEMS, 1}, {"first", 0, INT64_ITEMS, 0}, {"out", 1, INT64_ITEMS, 1},
    };
    Py_buffer a[N_ARGS];
    PyObject *result = NULL;
    if (get_arrays(func, args, nargs, spec, N_ARGS, a) < 0) {
        return NULL;
    }
    const long long first = PyLong_AsLongLong(args[A_FIRST]);
    if (first == -1 && PyErr_Occurred()) {
        goto done;
    }
    const Py_ssize_t m = a[A_ROWS].shape[0], Ls = a[A_SCORES].shape[1], n = a[A_LABELS].shape[0];
    if (a[A_SCORES].shape[0] != m || Ls < 1 || Ls > RECORD_LIMBS_MAX || a[A_FIRST_AT].shape[0] != n
        || a[A_OUT].shape[0] != 9 || first < 1 || first > ((long long)1 << 62)) {
        PyErr_Format(PyExc_ValueError, "fact_keys(): shapes rows (%zd), scores (%zd, %zd), labels (%zd), "
                     "first_at (%zd), out (%zd) or first=%lld do not agree", m, a[A_SCORES].shape[0], Ls, n,
                     a[A_FIRST_AT].shape[0], a[A_OUT].shape[0], first);
        goto done;
    }
    const int64_t *row = a[A_ROWS].buf, *score = a[A_SCORES].buf, *label = a[A_LABELS].buf;
    int64_t *first_at = a[A_FIRST_AT].buf, *out = a[A_OUT].buf;
    int valid = 1;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t t = 0; t < m; t++) { /* nothing is written unless every row and its label can be read */
        if (row[t] < 0 || row[t] >= n || label[row[t]] < -1 || label[row[t]] > 1) {
            valid = 0;
            break;
        }
    }
    if (valid) {
        for (int c = 0; c < 9; c++) {
            out[c] = -1;
        }
        for (Py_ssize_t t = 0; t < m; t++) {
            const int64_t i = row[t];
            if (first_at[i] == 0) {
                first_at[i] = first + t;
            }
            const int c = (int)(label[i] + 1) * 3 + limbs_sign(score + t * Ls, Ls) + 1;
            if (out[c] < 0) {
                out[c] = t;
            }
        }
    }
    Py_END_ALLOW_THREADS
    result = PyLong_FromLong(valid);
done:
    release_arrays(a, N_ARGS);
    return result;
#else
    PyErr_SetString(PyExc_NotImplementedError, "fact_keys() needs a compiler with __int128");
    return NULL;
#endif
}

#endif
