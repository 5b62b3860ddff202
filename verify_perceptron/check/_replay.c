/*
 * verify_perceptron.check._replay: the checker's replay of online updates, exactly, in C.
 * Its Python wrapper is verify_perceptron.check.kernel; the reference the tests hold it
 * to is the checker's own Python path, verify_perceptron.check.checker.Checker.observe.
 *
 * check_online() replays recorded updates, recomputing each score in 128-bit
 * sums (exact for any int64 inputs, with a count of wrap-arounds), and
 * evaluates the claims' compiled program (verify_perceptron.notes.claims.
 * compile_program) with overflow-checked 128-bit arithmetic. It stops before
 * any update that fails a check or does not fit, so the Python checker
 * decides it: a violated precondition is detected, never silent.
 *
 * It assumes nothing of the engine it checks and shares no code with it
 * (verify_perceptron.run._scan): its scores hold for any int64 samples and
 * weights, and the only bound it relies on is its own limit on ||W||^2,
 * below 2^126, which keeps every |W_j| <= ||W|| < 2^63 in int64. Past int64,
 * norms may be summed here (one of 2^126 or more is left to Python), and
 * recorded scores and margins may come as int64 halves (low, then high bits).
 *
 * replay_scores() gives the scores alone, for the checker's replay in Python
 * integers (verify_perceptron.check.wide_replay), where claims pass 128 bits.
 *
 * It needs __int128 (GCC, Clang); elsewhere it raises NotImplementedError
 * and the checker checks every update in Python. The argument parsing and
 * 128-bit conversions it shares with the other extensions are in
 * ../data/_exact.h.
 */

#include "_exact.h"
#include "_program.h"
#include "_limbs.h"
#include "_record.h"
#include "_soft.h"
#include "_deficits.h"
#include "_slacks.h"

#include <string.h>

/* ---- 128-bit scores ----------------------------------------------------- */

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
 * exact value does not fit in 128 bits. */
#if SCAN_WIDE
/* |z_j * w_j| <= 2^126 always fits in 128 bits. Two running sums, so that consecutive
 * products need not wait for each other's addition; the exact score is
 * even + odd + wraps * 2^128 throughout. wraps != 0 means |score| >= 2^128 - 2^127. */
#define DEFINE_WIDE_DOT(ZT, NAME)                                                       \
static int                                                                              \
NAME(const ZT *z, const int64_t *w, Py_ssize_t d, int128 *s)                            \
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
    if (wraps != 0) {                                                                   \
        return -1;                                                                      \
    }                                                                                   \
    *s = even;                                                                          \
    return 0;                                                                           \
}
DEFINE_WIDE_DOT(int16_t, wide_dot16)
DEFINE_WIDE_DOT(int32_t, wide_dot32)
DEFINE_WIDE_DOT(int64_t, wide_dot64)

/* Row i of a C-contiguous sample matrix of `width`-byte items, dotted with w exactly. */
static int
wide_dot(const void *Z, int width, Py_ssize_t i, Py_ssize_t d, const int64_t *w, int128 *s)
{
    switch (width) {
    case 2: return wide_dot16((const int16_t *)Z + i * d, w, d, s);
    case 4: return wide_dot32((const int32_t *)Z + i * d, w, d, s);
    default: return wide_dot64((const int64_t *)Z + i * d, w, d, s);
    }
}

/* ||row i||^2 in 128 bits, for norms the caller did not give; -1 when it reaches 2^126. */
static int
wide_norm(const void *Z, int width, Py_ssize_t i, Py_ssize_t d, int128 *sq)
{
    int128 acc = 0, term;
    for (Py_ssize_t j = 0; j < d; j++) {
        const int128 v = width == 2 ? ((const int16_t *)Z)[i * d + j]
                       : width == 4 ? ((const int32_t *)Z)[i * d + j] : ((const int64_t *)Z)[i * d + j];
        term = v * v; /* < 2^126 */
        if (__builtin_add_overflow(acc, term, &acc) || acc >= (((int128)1) << 126)) {
            return -1;
        }
    }
    *sq = acc;
    return 0;
}

/* Entry i of an int64 array, or (halves) of one holding each value as its low then high 64 bits. */
static inline int128
entry(const int64_t *a, int halves, Py_ssize_t i)
{
    return halves ? halves_at(a, i) : (int128)a[i];
}

/* w += sign * row i (sign +1 or -1), in int64 (the caller proves the sums fit). */
static void
add_sample(int64_t *w, const void *Z, int width, Py_ssize_t i, Py_ssize_t d, int sign)
{
#define ADD_ROW(ZT)                                                                     \
    do {                                                                                \
        const ZT *r = (const ZT *)Z + i * d;                                            \
        if (sign > 0) {                                                                 \
            for (Py_ssize_t j = 0; j < d; j++) w[j] += r[j];                            \
        }                                                                               \
        else {                                                                          \
            for (Py_ssize_t j = 0; j < d; j++) w[j] -= r[j];                            \
        }                                                                               \
    } while (0)
    switch (width) {
    case 2: ADD_ROW(int16_t); break;
    case 4: ADD_ROW(int32_t); break;
    default: ADD_ROW(int64_t);
    }
#undef ADD_ROW
}
#endif

/* ---- the checker's replay ---------------------------------------------- */

#if SCAN_WIDE
/* The per-update quantities the replay computes, in the order of `slots`. */
enum { S_N, S_K, S_SMALL_N, S_N_MAX, S_PREV_W_SQ, S_PREV_W_WS, S_STEP_SQ, S_SUM_N_XSQ, S_SUM_N_SQ, S_W_SQ,
       S_W_WS, N_SLOTS };
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
"below 2^126 (so every |W_j| < 2^63; ValueError otherwise).\n"
"\n"
"norms are int64 (length n), or empty: each update's ||Z[i]||^2 is then summed\n"
"here, and one of 2^126 or more is left to the caller. norms and margins (length n)\n"
"and scores (length of rows) are int64, or twice as long: each value as two int64,\n"
"its low 64 bits then its high ones, for values past int64.\n"
"\n"
"state = (k, N, w_sq, w_ws, sum_N_xsq, sum_n_sq, n_max, limit) as Python ints.\n"
"Returns ``(done, state, claims)``: updates replayed, the new state, and per\n"
"claim None (done == 0) or (min slack, its update's position in `rows`, the\n"
"quantities there as a tuple). It runs without the GIL: nothing else may touch\n"
"its arrays meanwhile.");

static PyObject *
check_online(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
#if SCAN_WIDE
    static const char func[] = "check_online";
    Py_buffer Z = {0}, W = {0}, counts = {0}, tie = {0}, norms = {0}, margins = {0}, rows = {0}, scores = {0},
              program = {0}, slots = {0}, failed = {0};
    PyObject *result = NULL, *claims = NULL;
    Lane *lanes = NULL;

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
    /* norms may be empty (summed here); norms, margins and scores twice as long (each value in halves) */
    const int given_norms = norms.shape[0] != 0, margin_halves = margins.shape[0] == 2 * n && n > 0;
    const int norm_halves = norms.shape[0] == 2 * n && n > 0;
    const int score_halves = scores.shape[0] == 2 * m && m > 0;
    if (check_rows(func, "counts", &counts, n) < 0 || check_rows(func, "tie", &tie, n) < 0
        || (given_norms && !norm_halves && check_rows(func, "norms", &norms, n) < 0)
        || (!margin_halves && check_rows(func, "margins", &margins, n) < 0)) {
        goto done;
    }
    if (scores.shape[0] != m && !score_halves) {
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
    /* Written once (the quantities) or once a block at most (a claim's least slack moved), so plain
     * int128 arrays: no store is read back at once (the reason for `Lane`'s words). */
    int128 initial[MAX_QUANTITIES], snapshot[MAX_CLAIMS][MAX_QUANTITIES];
    int128 best[MAX_CLAIMS];
    Py_ssize_t best_at[MAX_CLAIMS];
    for (Py_ssize_t j = 0; j < n_quantities; j++) {
        if (to_int128(func, "a quantity", PyTuple_GET_ITEM(quantities, j), &initial[j]) < 0) {
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
    Py_ssize_t depth = 0;
    const Py_ssize_t n_claims = program_claims(code, program.shape[0], n_quantities, &depth);
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
    /* Lanes: one per quantity (the slots' hold each update's values, the others keep theirs), one
     * per stack position, one per claim's slacks. */
    lanes = PyMem_Malloc((size_t)(n_quantities + depth + n_claims + 1) * sizeof(Lane));
    if (lanes == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Lane *quantity[MAX_QUANTITIES], *own = lanes + n_quantities, *slack = own + depth;
    for (Py_ssize_t j = 0; j < n_quantities; j++) {
        quantity[j] = &lanes[j];
        lane_fill(quantity[j], BLOCK, initial[j]);
    }
    int128 before[BLOCK][7]; /* the state before each update of the block: k, N, w_sq, w_ws, sum_N_xsq, sum_n_sq, n_max */
    Py_ssize_t t = 0; /* updates replayed for good */
    int stopped = 0;
    /* Plain C on the buffers from here to the result: the GIL is released, so the engine (or anything
     * else) runs while a chunk is replayed in another thread (verify_perceptron.check.background). */
    Py_BEGIN_ALLOW_THREADS
    while (!stopped && t < m) {
        const Py_ssize_t room = m - t < BLOCK ? m - t : BLOCK;
        Py_ssize_t nb = 0;
        /* 1. Each update in turn: the rule, and the new state, made at once (undone in 4 if a claim fails). */
        for (; nb < room; nb++) {
            const int64_t i = row_of[t + nb];
            int128 s, zz = 0;
            if (i < 0 || i >= n || w_sq > limit || wide_dot(Z.buf, width, i, d, w, &s) < 0
                || s != entry(reported, score_halves, t + nb) || !(s < 0 || (s == 0 && ties[i]))) {
                stopped = 1; /* not this update: Python decides it and says what is wrong */
                break;
            }
            if (given_norms) {
                zz = entry(norm, norm_halves, i);
                if (zz < 0 || zz >= (((int128)1) << 126)) {
                    stopped = 1; /* not a norm 128 bits hold with W: Python's to decide */
                    break;
                }
            }
            else if (wide_norm(Z.buf, width, i, d, &zz) < 0) {
                stopped = 1; /* ||z||^2 >= 2^126: past what 128 bits hold for W + z */
                break;
            }
            int128 k1, N1, sum_n_sq1, sum_N_xsq1, w_sq1, w_ws1;
            const int128 n_max1 = n_max > 1 ? n_max : 1;
            /* ||W + z||^2 = ||W||^2 + 2 W.z + ||z||^2. Every sum is checked: a state that
             * leaves 128 bits (or a new ||W||^2 above the limit) is Python's to decide. */
            if (__builtin_add_overflow(k, 1, &k1) || __builtin_add_overflow(N, 1, &N1)
                || __builtin_add_overflow(sum_n_sq, 1, &sum_n_sq1)
                || __builtin_add_overflow(sum_N_xsq, zz, &sum_N_xsq1)
                || __builtin_add_overflow(w_sq, s, &w_sq1)
                || __builtin_add_overflow(w_sq1, s, &w_sq1)
                || __builtin_add_overflow(w_sq1, zz, &w_sq1)
                || __builtin_add_overflow(w_ws, entry(margin, margin_halves, i), &w_ws1)
                || w_sq1 > limit) {
                stopped = 1;
                break;
            }
            before[nb][0] = k, before[nb][1] = N, before[nb][2] = w_sq, before[nb][3] = w_ws;
            before[nb][4] = sum_N_xsq, before[nb][5] = sum_n_sq, before[nb][6] = n_max;
            lane_set(quantity[slot[S_N]], nb, N1);
            lane_set(quantity[slot[S_K]], nb, k1);
            lane_set(quantity[slot[S_SMALL_N]], nb, 1);
            lane_set(quantity[slot[S_N_MAX]], nb, n_max1);
            lane_set(quantity[slot[S_PREV_W_SQ]], nb, w_sq);
            lane_set(quantity[slot[S_PREV_W_WS]], nb, w_ws);
            lane_set(quantity[slot[S_STEP_SQ]], nb, zz);
            lane_set(quantity[slot[S_SUM_N_XSQ]], nb, sum_N_xsq1);
            lane_set(quantity[slot[S_SUM_N_SQ]], nb, sum_n_sq1);
            lane_set(quantity[slot[S_W_SQ]], nb, w_sq1);
            lane_set(quantity[slot[S_W_WS]], nb, w_ws1);
            add_sample(w, Z.buf, width, i, d, 1); /* |W_j| <= ||W||: the new w_sq <= limit < 2^126 */
            count[i] += 1;
            k = k1;
            N = N1;
            n_max = n_max1;
            sum_n_sq = sum_n_sq1;
            sum_N_xsq = sum_N_xsq1;
            w_sq = w_sq1;
            w_ws = w_ws1;
        }
        /* 2. The claims, an operation at a time over the block: the first update where a value leaves
         * 128 bits, or a claim not yet marked failed has a negative slack, is not replayed. */
        Py_ssize_t cut = run_block(code, program.shape[0], quantity, nb, own, slack);
        for (Py_ssize_t c = 0; c < n_claims; c++) {
            for (Py_ssize_t u = 0; u < cut && !already[c]; u++) {
                if (lane_get(&slack[c], u) < 0) {
                    cut = u;
                }
            }
        }
        /* 3. Each claim's least slack over the updates replayed (the first of equal ones), with the quantities there. */
        for (Py_ssize_t c = 0; c < n_claims; c++) {
            Py_ssize_t at = -1;
            for (Py_ssize_t u = 0; u < cut; u++) {
                const int128 value = lane_get(&slack[c], u);
                if (t + u == 0 || value < best[c]) {
                    best[c] = value;
                    at = u;
                }
            }
            if (at >= 0) {
                best_at[c] = t + at;
                for (Py_ssize_t j = 0; j < n_quantities; j++) {
                    snapshot[c][j] = lane_get(quantity[j], at);
                }
            }
        }
        /* 4. Undo the updates from `cut` on, which are Python's to decide. */
        if (cut < nb) {
            for (Py_ssize_t u = nb - 1; u >= cut; u--) {
                const int64_t i = row_of[t + u];
                add_sample(w, Z.buf, width, i, d, -1); /* back to the W before it, which was in int64 */
                count[i] -= 1;
            }
            k = before[cut][0], N = before[cut][1], w_sq = before[cut][2], w_ws = before[cut][3];
            sum_N_xsq = before[cut][4], sum_n_sq = before[cut][5], n_max = before[cut][6];
            stopped = 1;
        }
        t += cut;
    }
    Py_END_ALLOW_THREADS

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
    PyMem_Free(lanes);
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

PyDoc_STRVAR(replay_scores_doc,
"replay_scores($module, Z, W, rows, out, /)\n"
"--\n"
"\n"
"Each update's score from the W before it, for the replay in Python integers.\n"
"\n"
"For t = 0, 1, ...: s = Z[rows[t]] . W exactly (128-bit sums, with a count of\n"
"wrap-arounds), written to out[2t], out[2t + 1] as its low then high 64 bits;\n"
"then W += Z[rows[t]] in place. It stops before a row out of range, a score\n"
"past 128 bits, or an entry of W that would leave int64, and returns how many\n"
"updates it made. It checks no claim and no rule: its caller compares the\n"
"scores with those reported. Z is (n, d) int16, int32 or int64; W (length d),\n"
"rows and out (twice as long as rows, writable) are int64.");

static PyObject *
replay_scores(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
#if SCAN_WIDE
    static const char func[] = "replay_scores";
    Py_buffer Z = {0}, W = {0}, rows = {0}, out = {0};
    PyObject *result = NULL;

    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "replay_scores() takes 4 arguments, got %zd", nargs);
        return NULL;
    }
    if (get_array(func, "Z", args[0], 2, SAMPLE_ITEMS, 0, &Z) < 0
        || get_array(func, "W", args[1], 1, INT64_ITEMS, 1, &W) < 0
        || get_array(func, "rows", args[2], 1, INT64_ITEMS, 0, &rows) < 0
        || get_array(func, "out", args[3], 1, INT64_ITEMS, 1, &out) < 0
        || check_width(func, &Z, &W) < 0) {
        goto done;
    }
    const Py_ssize_t n = Z.shape[0], d = Z.shape[1], m = rows.shape[0];
    if (out.shape[0] != 2 * m) {
        PyErr_Format(PyExc_ValueError, "replay_scores(): out has length %zd but rows has %zd (it needs %zd)",
                     out.shape[0], m, 2 * m);
        goto done;
    }
    const int width = (int)Z.itemsize;
    const int64_t *row_of = rows.buf;
    int64_t *w = W.buf, *scores = out.buf;
    Py_ssize_t t = 0;
    for (; t < m; t++) {
        const int64_t i = row_of[t];
        int128 s;
        if (i < 0 || i >= n || wide_dot(Z.buf, width, i, d, w, &s) < 0) {
            break;
        }
        int fits = 1;
        for (Py_ssize_t j = 0; j < d && fits; j++) {
            const int64_t v = width == 2 ? ((const int16_t *)Z.buf)[i * d + j]
                            : width == 4 ? ((const int32_t *)Z.buf)[i * d + j] : ((const int64_t *)Z.buf)[i * d + j];
            int64_t sum;
            fits = !__builtin_add_overflow(w[j], v, &sum);
        }
        if (!fits) {
            break;
        }
        scores[2 * t] = (int64_t)(uint64_t)s;
        scores[2 * t + 1] = (int64_t)(s >> 64);
        add_sample(w, Z.buf, width, i, d, 1);
    }
    result = PyLong_FromSsize_t(t);
done:
    PyBuffer_Release(&Z);
    PyBuffer_Release(&W);
    PyBuffer_Release(&rows);
    PyBuffer_Release(&out);
    return result;
#else
    PyErr_SetString(PyExc_NotImplementedError, "replay_scores() needs a compiler with __int128");
    return NULL;
#endif
}

/* ---- the checker's replay past 128 bits -------------------------------- */

PyDoc_STRVAR(check_wide_doc,
"check_wide($module, Z, W, counts, tie, norms, margins, rows, scores, program, quantities, slots,\n"
"           state, failed, best, best_at, /)\n"
"--\n"
"\n"
"check_online in K 64-bit limbs (K = quantities.shape[1], 1 <= K <= 16), for values\n"
"past 128 bits; every value is K int64 limbs, lowest first, two's complement\n"
"(verify_perceptron.data.integers.as_limbs), and every operation is checked.\n"
"\n"
"Z is (n, d*K): row i's d entries, each in K limbs (int64), or (n, d*2) entries in two limbs (K > 2), or\n"
"(n, d) int16, int32 or int64 samples; W (d*K, writable); counts (n,\n"
"writable int64); tie (n, bool); norms (n, KN) and margins (n, KM), 1 <= KN, KM <= K limbs,\n"
"sign-extended to K as read; rows (m,); scores (m, L)\n"
"in L limbs of their own; program as for check_online; quantities (q, K); slots\n"
"(11,); state (7, K), writable: k, N, w_sq, w_ws, sum_N_xsq, sum_n_sq, n_max, made\n"
"the state after the updates replayed; failed (one flag per claim); best (claims, K)\n"
"and best_at (claims,), writable: each claim's least slack over the updates\n"
"replayed (the first of equal ones) and its position in `rows`, or -1 if none was.\n"
"\n"
"It stops BEFORE any update that fails a check or has a negative slack for a claim\n"
"not yet marked in `failed` (reason 1), or that needs more than K limbs anywhere\n"
"(reason 2: the caller may try a wider K). Returns ``(done, reason)``, reason 0\n"
"when every update was replayed. It runs without the GIL: nothing else may touch\n"
"its arrays meanwhile.");

#if SCAN_WIDE
/* What check_wide reads and writes, in limbs (see its docstring). */
typedef struct {
    const uint64_t *Z, *norm, *margin, *quantity;
    const int64_t *row_of, *reported, *code, *slot;
    const unsigned char *ties, *already;
    uint64_t *w, *state, *best;
    int64_t *count, *best_at;
    uint64_t *row; /* room for one row of Z in K limbs, when Z comes as int16 or int32 samples */
    int64_t *folded; /* room for the program with its constant parts folded (wide_fold) */
    uint64_t *room; /* the program's stack positions' values, `depth` of K limbs a claim (wide_program) */
    Py_ssize_t depth;
    const void *samples; /* Z as samples of `width` bytes (int16 or int32): read as they are, no int64 copy */
    Py_ssize_t n, d, m, length, n_quantities, n_claims;
    int K, L, KZ, width;
    int KN, KM; /* the norms' and the margins' limbs (1..K): narrower ones are sign-extended as read */
} WideReplay;

/* Claim c's slack at this update, by the postfix program over the quantities q[j] (each K limbs, read where they
 * are: no copy), as the address slack[c] of its value; 1 past K limbs. The stack holds pointers: a quantity is
 * pushed as its address, and an operation's result goes to the stack position's own room, K limbs in `room`,
 * each claim's `depth` positions apart from the last's: a slack is read where it was made, never copied (a
 * K-limb copy of limbs just written, at each END, read them back before the stores could forward to the
 * loads: about a tenth of check_wide). slack[c] stays valid until the next update's program or the quantity it
 * names changes. */
LB_INLINE int
wide_program(const int64_t *code, Py_ssize_t length, const uint64_t *const *q, const uint64_t **slack,
             uint64_t *room, Py_ssize_t depth, const int K)
{
    const uint64_t *stack[STACK_DEPTH];
    uint64_t *own_room = room;
#define own(at) (own_room + (at) * K)
    Py_ssize_t top = 0, claim = 0;
    for (Py_ssize_t pc = 0; pc < length; pc++) {
        switch (code[pc]) {
        case OP_END:
            top--;
            slack[claim++] = stack[top];
            own_room += depth * K;
            break;
        case OP_QUANTITY:
            stack[top++] = q[code[++pc]];
            break;
        case OP_CONSTANT:
            lb_set(own(top), code[++pc], K);
            stack[top] = own(top);
            top++;
            break;
        case OP_ADD: case OP_SUB: case OP_MUL: {
            const int64_t op = code[pc];
            top--;
            const uint64_t *x = stack[top - 1], *y = stack[top];
            uint64_t *result = own(top - 1); /* (may be x: each operation reads a limb before it writes it) */
            if (op == OP_ADD ? lb_add(result, x, y, K) : op == OP_SUB ? lb_sub(result, x, y, K) : lb_mul(result, x, y, K)) {
                return 1;
            }
            stack[top - 1] = result;
            break;
        }
        case OP_NEG:
            if (lb_neg(own(top - 1), stack[top - 1], K)) {
                return 1;
            }
            stack[top - 1] = own(top - 1);
            break;
        case OP_POW: {
            uint64_t base[LIMBS_MAX];
            memcpy(base, stack[top - 1], (size_t)K * sizeof(uint64_t));
            memcpy(own(top - 1), base, (size_t)K * sizeof(uint64_t));
            stack[top - 1] = own(top - 1);
            for (int64_t e = code[++pc]; e > 1; e--) {
                if (lb_mul(own(top - 1), own(top - 1), base, K)) {
                    return 1;
                }
            }
            break;
        }
        }
    }
#undef own
    return 0;
}

/* Room for the values folded from the program's constant parts (wide_fold). */
#define FOLD_MAX 64

/* The program with its constant parts folded, once per replay: an operation whose operands are all constant
 * (given quantities that no slot overwrites, or constants) is evaluated here in K limbs, and its value read as a
 * quantity of its own (q[MAX_QUANTITIES + p], p < FOLD_MAX), and a product by a constant equal to 1 is its other
 * factor. The claims on randn data read (a^2) * sum_N_xsq and N * (a^2) * R^2 with a = 1: two powers and three
 * products an update less. Each slack is the same value as the program's (the same exact arithmetic, only done
 * once, and x * 1 = x); an operation on constants that leaves K limbs is left in the program, which stops there
 * as before. The folded code is written to `out` (never longer than `code`); returns its length. */
static Py_ssize_t
wide_fold(const WideReplay *r, const uint64_t **q, uint64_t (*pool)[LIMBS_MAX], int64_t *out, const int K)
{
    struct { int constant; Py_ssize_t start; } stack[STACK_DEPTH];
    unsigned char is_slot[MAX_QUANTITIES] = {0};
    for (Py_ssize_t j = 0; j < N_SLOTS; j++) {
        is_slot[r->slot[j]] = 1;
    }
    uint64_t one[LIMBS_MAX];
    lb_set(one, 1, K);
    Py_ssize_t top = 0, n = 0, p = 0;
    for (Py_ssize_t pc = 0; pc < r->length; pc++) {
        const int64_t op = r->code[pc];
        if (op == OP_QUANTITY || op == OP_CONSTANT) {
            const int64_t operand = r->code[++pc];
            stack[top].start = n;
            stack[top].constant = op == OP_CONSTANT ? p < FOLD_MAX : !is_slot[operand];
            if (op == OP_CONSTANT && stack[top].constant) { /* read as a quantity, to be folded with the others */
                lb_set(pool[p], operand, K);
                q[MAX_QUANTITIES + p] = pool[p];
                out[n++] = OP_QUANTITY;
                out[n++] = MAX_QUANTITIES + p++;
            }
            else {
                out[n++] = op;
                out[n++] = operand;
            }
            top++;
            continue;
        }
        if (op == OP_END) {
            top--;
            out[n++] = OP_END;
            continue;
        }
        const int binary = op == OP_ADD || op == OP_SUB || op == OP_MUL;
        const Py_ssize_t x = binary ? top - 2 : top - 1, y = top - 1; /* (y = x for NEG and POW) */
        if (stack[x].constant && stack[y].constant && p < FOLD_MAX) {
            /* every operand's code is one QUANTITY: evaluated now into the pool */
            const uint64_t *a = q[out[stack[x].start + 1]], *b = q[out[stack[y].start + 1]];
            int past = 0;
            if (op == OP_ADD || op == OP_SUB || op == OP_MUL) {
                past = op == OP_ADD ? lb_add(pool[p], a, b, K) : op == OP_SUB ? lb_sub(pool[p], a, b, K)
                                                                               : lb_mul(pool[p], a, b, K);
            }
            else if (op == OP_NEG) {
                past = lb_neg(pool[p], a, K);
            }
            else { /* OP_POW */
                memcpy(pool[p], a, (size_t)K * sizeof(uint64_t));
                for (int64_t e = r->code[pc + 1]; e > 1 && !past; e--) {
                    past = lb_mul(pool[p], pool[p], a, K);
                }
            }
            if (!past) {
                pc += op == OP_POW;
                n = stack[x].start;
                q[MAX_QUANTITIES + p] = pool[p];
                out[n++] = OP_QUANTITY;
                out[n++] = MAX_QUANTITIES + p++;
                top = x + 1;
                stack[x].constant = 1;
                continue;
            }
        }
        if (op == OP_MUL && stack[y].constant && lb_equal(q[out[stack[y].start + 1]], one, K)) {
            n = stack[y].start; /* x * 1: x */
            top = x + 1;
            continue;
        }
        if (op == OP_MUL && stack[x].constant && lb_equal(q[out[stack[x].start + 1]], one, K)) {
            const Py_ssize_t from = stack[y].start, length = n - from; /* 1 * y: y, moved down over the 1 */
            memmove(out + stack[x].start, out + from, (size_t)length * sizeof(int64_t));
            n = stack[x].start + length;
            top = x + 1;
            stack[x].constant = 0;
            continue;
        }
        out[n++] = op;
        if (op == OP_POW) {
            out[n++] = r->code[++pc];
        }
        top = x + 1;
        stack[x].constant = 0;
    }
    return n;
}

/* The replay itself, without the GIL: updates 0..m-1 until one stops it; *reason as in the docstring. */
LB_INLINE Py_ssize_t
wide_replay(const WideReplay *r, int *reason, const int K)
{
    const size_t bytes = (size_t)K * sizeof(uint64_t);
    enum { K_, N_, W_SQ, W_WS, SUM_N_XSQ, SUM_N_SQ, N_MAX };
    uint64_t one[LIMBS_MAX];
    const uint64_t *slack[MAX_CLAIMS];
    uint64_t s[LIMBS_MAX], said[LIMBS_MAX], next[7][LIMBS_MAX], norm_K[LIMBS_MAX], margin_K[LIMBS_MAX];
    /* where each quantity is: the given ones where given, the slots' this update's, then the folded values */
    const uint64_t *q[MAX_QUANTITIES + FOLD_MAX];
    for (Py_ssize_t j = 0; j < r->n_quantities; j++) {
        q[j] = r->quantity + j * K;
    }
    uint64_t pool[FOLD_MAX][LIMBS_MAX];
    int64_t *code = r->folded;
    const Py_ssize_t length = wide_fold(r, q, pool, code, K);
    lb_set(one, 1, K);
    Py_ssize_t t = 0;
    *reason = 0;
    /* The dot products below are taken mod 2^(64K), exact only while the state's ||W||^2 is W's: checked here,
     * in K limbs, once (then every update keeps it so). A state that says otherwise stops the replay before its
     * first update (reason 1), and the Python checker decides. */
    if (lb_dot(s, r->w, r->w, r->d, K) || !lb_equal(s, r->state + W_SQ * K, K)) {
        *reason = 1;
        return 0;
    }
    for (; t < r->m; t++) {
        const int64_t i = r->row_of[t];
        const uint64_t *state = r->state;
        if (t + 1 < r->m && r->row_of[t + 1] >= 0 && r->row_of[t + 1] < r->n && r->width == 8) {
            /* the next update's row and norm, asked for now: rows are read in a pass's order, far apart */
            const char *next_row = (const char *)(r->Z + r->row_of[t + 1] * r->d * r->KZ);
            for (Py_ssize_t b = 0; b < r->d * r->KZ * (Py_ssize_t)sizeof(uint64_t); b += 64) {
                __builtin_prefetch(next_row + b);
            }
            __builtin_prefetch(r->norm + r->row_of[t + 1] * r->KN);
        }
#define FIELD(f) (state + (f) * K)
        if (i < 0 || i >= r->n) {
            *reason = 1;
            break;
        }
        /* z's entries as given, KZ limbs each (1, 2 or K); zK in K limbs, made only where an operation needs it */
        const uint64_t *z = r->Z + i * r->d * r->KZ, *zz = r->norm + i * r->KN, *mz = r->margin + i * r->KM;
        int kz = r->KZ;
        if (r->KN < K) { /* (read for this update only: a slack that names it is used before the next) */
            (void)lb_resize(norm_K, (const int64_t *)zz, r->KN, K);
            zz = norm_K;
        }
        if (r->KM < K) {
            (void)lb_resize(margin_K, (const int64_t *)mz, r->KM, K);
            mz = margin_K;
        }
        if (r->width != 8) { /* int16 or int32 samples, sign-extended to K limbs for this update */
            const Py_ssize_t at = i * r->d;
            for (Py_ssize_t j = 0; j < r->d; j++) {
                lb_set(r->row + j * K, r->width == 2 ? ((const int16_t *)r->samples)[at + j]
                                                     : ((const int32_t *)r->samples)[at + j], K);
            }
            z = r->row;
            kz = K;
        }
        /* z . W mod 2^(64K), exact: ||z||^2 (the norm given) and ||W||^2 (the state's, checked equal to it when
         * the replay began and kept so by checked sums) both fit K limbs, so |z.W| < 2^(64K-1) (Cauchy-Schwarz) */
        lb_dot_mod(s, z, kz, r->w, r->d, K);
        /* the reported score in its own L limbs: one that does not fit K differs from s, which does */
        const int sign = lb_sign(s, K);
        if (lb_resize(said, r->reported + t * r->L, r->L, K) || !lb_equal(s, said, K)
            || !(sign < 0 || (sign == 0 && r->ties[i]))) {
            *reason = 1;
            break;
        }
        /* the new state: ||W + z||^2 = ||W||^2 + 2 W.z + ||z||^2, every sum checked */
        if (lb_add(next[K_], FIELD(K_), one, K) || lb_add(next[N_], FIELD(N_), one, K)
            || lb_add(next[SUM_N_SQ], FIELD(SUM_N_SQ), one, K)
            || lb_add(next[SUM_N_XSQ], FIELD(SUM_N_XSQ), zz, K)
            || lb_add(next[W_SQ], FIELD(W_SQ), s, K) || lb_add(next[W_SQ], next[W_SQ], s, K)
            || lb_add(next[W_SQ], next[W_SQ], zz, K)
            || lb_add(next[W_WS], FIELD(W_WS), mz, K)) {
            *reason = 2;
            break;
        }
        memcpy(next[N_MAX], lb_less(FIELD(N_MAX), one, K) ? one : FIELD(N_MAX), bytes);
        /* (read in place by the program, before the state is written; in this order, as a slot given twice
         * would be overwritten) */
        q[r->slot[S_N]] = next[N_];
        q[r->slot[S_K]] = next[K_];
        q[r->slot[S_SMALL_N]] = one;
        q[r->slot[S_N_MAX]] = next[N_MAX];
        q[r->slot[S_PREV_W_SQ]] = FIELD(W_SQ);
        q[r->slot[S_PREV_W_WS]] = FIELD(W_WS);
        q[r->slot[S_STEP_SQ]] = zz;
        q[r->slot[S_SUM_N_XSQ]] = next[SUM_N_XSQ];
        q[r->slot[S_SUM_N_SQ]] = next[SUM_N_SQ];
        q[r->slot[S_W_SQ]] = next[W_SQ];
        q[r->slot[S_W_WS]] = next[W_WS];
#undef FIELD
        if (wide_program(code, length, q, slack, r->room, r->depth, K)) {
            *reason = 2;
            break;
        }
        int violated = 0;
        for (Py_ssize_t c = 0; c < r->n_claims && !violated; c++) {
            violated = !r->already[c] && lb_negative(slack[c], K);
        }
        if (violated) {
            *reason = 1; /* a claim's first violation: Python records it, with its values */
            break;
        }
        /* W += z mod 2^(64K), exact without a check: ||W + z||^2 = ||W||^2 + 2 z.W + ||z||^2 is next[W_SQ], whose
         * checked sums above fit K limbs, so every |W_j + z_j| <= ||W + z|| < 2^(32K) fits them too */
        for (Py_ssize_t j = 0; j < r->d; j++) {
            lb_add_mod(r->w + j * K, z + j * kz, kz, K);
        }
        /* the update is replayed for good (the least slacks first: a slack may be the state's own value) */
        r->count[i] += 1;
        for (Py_ssize_t c = 0; c < r->n_claims; c++) {
            if (r->best_at[c] < 0 || lb_less(slack[c], r->best + c * K, K)) {
                memcpy(r->best + c * K, slack[c], bytes);
                r->best_at[c] = t;
            }
        }
        for (int f = 0; f < 7; f++) {
            memcpy(r->state + f * K, next[f], bytes); /* (next's rows are LIMBS_MAX apart, the state's K) */
        }
    }
    return t;
}

/* wide_replay made for each K, its limb loops unrolled (about twice as fast as one for any K). */
#define WIDE_REPLAY_FOR(KK) \
static Py_ssize_t wide_replay_##KK(const WideReplay *r, int *reason) { return wide_replay(r, reason, KK); }
WIDE_REPLAY_FOR(1) WIDE_REPLAY_FOR(2) WIDE_REPLAY_FOR(3) WIDE_REPLAY_FOR(4)
WIDE_REPLAY_FOR(5) WIDE_REPLAY_FOR(6) WIDE_REPLAY_FOR(7) WIDE_REPLAY_FOR(8)
WIDE_REPLAY_FOR(9) WIDE_REPLAY_FOR(10) WIDE_REPLAY_FOR(11) WIDE_REPLAY_FOR(12)
WIDE_REPLAY_FOR(13) WIDE_REPLAY_FOR(14) WIDE_REPLAY_FOR(15) WIDE_REPLAY_FOR(16)

static Py_ssize_t
wide_replay_any(const WideReplay *r, int *reason)
{
    static Py_ssize_t (*const made[LIMBS_MAX])(const WideReplay *, int *) = {
        wide_replay_1, wide_replay_2, wide_replay_3, wide_replay_4,
        wide_replay_5, wide_replay_6, wide_replay_7, wide_replay_8,
        wide_replay_9, wide_replay_10, wide_replay_11, wide_replay_12,
        wide_replay_13, wide_replay_14, wide_replay_15, wide_replay_16,
    };
    return made[r->K - 1](r, reason);
}
#endif

static PyObject *
check_wide(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
#if SCAN_WIDE
    static const char func[] = "check_wide";
    enum { A_Z, A_W, A_COUNTS, A_TIE, A_NORMS, A_MARGINS, A_ROWS, A_SCORES, A_PROGRAM, A_QUANTITIES,
           A_SLOTS, A_STATE, A_FAILED, A_BEST, A_BEST_AT, N_ARGS };
    static const struct array_arg spec[N_ARGS] = {
        {"Z", 2, SAMPLE_ITEMS, 0}, {"W", 1, INT64_ITEMS, 1}, {"counts", 1, INT64_ITEMS, 1},
        {"tie", 1, FLAG_ITEMS, 0}, {"norms", 2, INT64_ITEMS, 0}, {"margins", 2, INT64_ITEMS, 0},
        {"rows", 1, INT64_ITEMS, 0}, {"scores", 2, INT64_ITEMS, 0}, {"program", 1, INT64_ITEMS, 0},
        {"quantities", 2, INT64_ITEMS, 0}, {"slots", 1, INT64_ITEMS, 0}, {"state", 2, INT64_ITEMS, 1},
        {"failed", 1, FLAG_ITEMS, 0}, {"best", 2, INT64_ITEMS, 1}, {"best_at", 1, INT64_ITEMS, 1},
    };
    Py_buffer a[N_ARGS];
    PyObject *result = NULL;
    if (get_arrays(func, args, nargs, spec, N_ARGS, a) < 0) {
        return NULL;
    }
    const Py_ssize_t K = a[A_QUANTITIES].shape[1], n = a[A_Z].shape[0];
    if (K < 1 || K > LIMBS_MAX) {
        PyErr_Format(PyExc_ValueError, "check_wide(): quantities has %zd limbs; 1 to %d are replayed here", K,
                     LIMBS_MAX);
        goto done;
    }
    /* Z in K limbs, (n, d*K), or int64 samples as they are, (n, d): d is W's length over K */
    const Py_ssize_t d = a[A_W].shape[0] / K, m = a[A_ROWS].shape[0];
    /* Z's limbs an entry: 1 (int64 samples), 2 (entries that fit int128) or K */
    /* (samples narrower than int64 are never limbs: read as samples whatever K is) */
    const int width = (int)a[A_Z].itemsize;
    const int KZ = width != 8 || (a[A_Z].shape[1] == d && d * K != d) ? 1
                   : a[A_Z].shape[1] == 2 * d && K > 2 ? 2 : (int)K;
    Py_ssize_t depth = 0;
    const Py_ssize_t n_claims = program_claims(a[A_PROGRAM].buf, a[A_PROGRAM].shape[0],
                                               a[A_QUANTITIES].shape[0], &depth);
    if (n_claims < 0) {
        goto done;
    }
    const struct { int arg; Py_ssize_t rows, columns; } shape[] = {
        {A_Z, n, d * KZ}, {A_W, d * K, -1}, {A_COUNTS, n, -1}, {A_TIE, n, -1}, {A_NORMS, n, -4},
        {A_MARGINS, n, -4}, {A_SCORES, m, -2}, {A_QUANTITIES, -3, K}, {A_SLOTS, N_SLOTS, -1},
        {A_STATE, 7, K}, {A_FAILED, n_claims, -1}, {A_BEST, n_claims, K}, {A_BEST_AT, n_claims, -1},
    };
    for (size_t j = 0; j < sizeof shape / sizeof shape[0]; j++) {
        const Py_buffer *v = &a[shape[j].arg];
        if ((shape[j].rows >= 0 && v->shape[0] != shape[j].rows)
            || (shape[j].columns >= 0 && v->shape[1] != shape[j].columns)
            || (shape[j].columns == -2 && (v->shape[1] < 1 || v->shape[1] > 64))
            || (shape[j].columns == -4 && (v->shape[1] < 1 || v->shape[1] > K))
            || (shape[j].arg == A_QUANTITIES && v->shape[0] > MAX_QUANTITIES)) {
            PyErr_Format(PyExc_ValueError, "check_wide(): %s has shape (%zd%s%zd) for %zd rows, %zd columns and "
                         "K=%zd limbs", spec[shape[j].arg].name, v->shape[0], v->ndim == 2 ? ", " : "",
                         v->ndim == 2 ? v->shape[1] : 0, n, d, K);
            goto done;
        }
    }
    const int64_t *slot = a[A_SLOTS].buf;
    for (Py_ssize_t j = 0; j < N_SLOTS; j++) {
        if (slot[j] < 0 || slot[j] >= a[A_QUANTITIES].shape[0]) {
            PyErr_Format(PyExc_ValueError, "check_wide(): slots[%zd]=%lld is out of range", j, (long long)slot[j]);
            goto done;
        }
    }
    WideReplay r = {
        .Z = a[A_Z].buf, .norm = a[A_NORMS].buf, .margin = a[A_MARGINS].buf, .quantity = a[A_QUANTITIES].buf,
        .row_of = a[A_ROWS].buf, .reported = a[A_SCORES].buf, .code = a[A_PROGRAM].buf, .slot = slot,
        .ties = a[A_TIE].buf, .already = a[A_FAILED].buf, .w = a[A_W].buf, .state = a[A_STATE].buf,
        .best = a[A_BEST].buf, .count = a[A_COUNTS].buf, .best_at = a[A_BEST_AT].buf,
        .n = n, .d = d, .m = m, .length = a[A_PROGRAM].shape[0], .n_quantities = a[A_QUANTITIES].shape[0],
        .n_claims = n_claims, .K = (int)K, .L = (int)a[A_SCORES].shape[1],
        .KN = (int)a[A_NORMS].shape[1], .KM = (int)a[A_MARGINS].shape[1],
    };
    for (Py_ssize_t c = 0; c < n_claims; c++) {
        r.best_at[c] = -1;
    }
    r.KZ = KZ;
    r.width = width;
    r.samples = a[A_Z].buf;
    const int as_rows = width != 8; /* (narrow samples go through r.row whatever K is) */
    r.row = as_rows ? PyMem_Malloc((size_t)(d * K + 1) * sizeof(uint64_t)) : NULL;
    r.folded = PyMem_Malloc((size_t)(r.length + 1) * sizeof(int64_t));
    r.depth = depth > 0 ? depth : 1;
    r.room = PyMem_Malloc((size_t)(n_claims * r.depth * K + 1) * sizeof(uint64_t));
    if ((as_rows && r.row == NULL) || r.folded == NULL || r.room == NULL) {
        PyMem_Free(r.row);
        PyMem_Free(r.folded);
        PyMem_Free(r.room);
        PyErr_NoMemory();
        goto done;
    }
    int reason = 0;
    Py_ssize_t t;
    Py_BEGIN_ALLOW_THREADS
    t = wide_replay_any(&r, &reason);
    Py_END_ALLOW_THREADS
    PyMem_Free(r.row);
    PyMem_Free(r.folded);
    PyMem_Free(r.room);
    result = Py_BuildValue("(ni)", t, reason);
done:
    release_arrays(a, N_ARGS);
    return result;
#else
    PyErr_SetString(PyExc_NotImplementedError, "check_wide() needs a compiler with __int128");
    return NULL;
#endif
}

/* ---- the module -------------------------------------------------------- */

static PyMethodDef replay_methods[] = {
    {"check_online", (PyCFunction)(void (*)(void))check_online, METH_FASTCALL, check_online_doc},
    {"replay_scores", (PyCFunction)(void (*)(void))replay_scores, METH_FASTCALL, replay_scores_doc},
    {"check_wide", (PyCFunction)(void (*)(void))check_wide, METH_FASTCALL, check_wide_doc},
    {"record_sums", (PyCFunction)(void (*)(void))record_sums, METH_FASTCALL, record_sums_doc},
    {"fact_keys", (PyCFunction)(void (*)(void))fact_keys, METH_FASTCALL, fact_keys_doc},
    {"soft_chunk", (PyCFunction)(void (*)(void))soft_chunk, METH_FASTCALL, soft_chunk_doc},
    {"bit_rows", (PyCFunction)(void (*)(void))bit_rows, METH_FASTCALL, bit_rows_doc},
    {"deficit_top", (PyCFunction)(void (*)(void))deficit_top, METH_FASTCALL, deficit_top_doc},
    {"deficit_squares", (PyCFunction)(void (*)(void))deficit_squares, METH_FASTCALL, deficit_squares_doc},
    {"deficit_pieces", (PyCFunction)(void (*)(void))deficit_pieces, METH_FASTCALL, deficit_pieces_doc},
    {"walk_sums", (PyCFunction)(void (*)(void))walk_sums, METH_FASTCALL, walk_sums_doc},
    {"claim_slacks", (PyCFunction)(void (*)(void))claim_slacks, METH_FASTCALL, claim_slacks_doc},
    {NULL, NULL, 0, NULL},
};

PyDoc_STRVAR(replay_doc,
"The checker's replay of online updates, exactly, in C (optional; see\n"
"verify_perceptron.check.kernel).");

static struct PyModuleDef replay_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "verify_perceptron.check._replay",
    .m_doc = replay_doc,
    .m_size = 0,
    .m_methods = replay_methods,
    .m_slots = exact_module_slots,
};

PyMODINIT_FUNC
PyInit__replay(void)
{
    return PyModuleDef_Init(&replay_module);
}
