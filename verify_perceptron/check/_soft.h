/*
 * _soft.h: the soft-margin check's chunk of mistakes in one pass (included once by _replay.c, whose module
 * exposes it; the Python side is check/soft_chunk.py).
 *
 * SoftMarginCheck._filtered (check/soft_margin.py) reads, for up to 2^16 mistakes on rows[0..m), each
 * sample's d^2/rho^2 (a double) and its d^2 cut into K pieces of 46 bits. In NumPy that was a gather and a
 * cumulative sum of the doubles, two square roots, a comparison, a quotient and an argmax over the chunk,
 * then one gather and one segmented sum per piece: about a dozen passes, eight random reads a mistake.
 * soft_chunk() makes the same doubles in the same order (the running sum left to right, as np.cumsum adds;
 * each root, product and quotient one IEEE operation, as NumPy's) and sums the pieces exactly as it goes:
 * each piece is below 2^46 (checked) and m <= 2^16, so every running sum stays below 2^62 in int64. The
 * pieces are read as rows (n, K): one sample's pieces side by side.
 *
 * bit_rows() unpacks the mistake map's bitmaps of a block of epochs (check/mistake_map.py) into the mistakes'
 * epochs and rows, in order, in one pass over the bytes: NumPy unpacked every presentation to a byte, searched
 * them and divided each index found by n (four arrays of the block's size).
 *
 * Nothing here decides a verdict: the doubtful updates it lists are decided by the caller in integers, from
 * the exact sums it gives at them; the filter's soundness is argued in check/soft_margin.py.
 */

#ifndef VERIFY_PERCEPTRON_SOFT_H
#define VERIFY_PERCEPTRON_SOFT_H

#include <math.h>

/* The most pieces a sample's d^2 is cut into (check/soft_margin.py's _MOST_PIECES), and the chunk's most updates. */
#define SOFT_PIECES_MAX 8
#define SOFT_CHUNK_MAX ((Py_ssize_t)1 << 16)
#define SOFT_PIECE_BITS 46
/* The most limbs of a margin, and of a deficit squared into pieces (_deficits.h, which defines these two). */
#define DEFICIT_MAX_LIMBS 32
#define DEFICIT_WORDS 3

/* Rows read this many rows ahead are asked of the memory first (a hint: nothing is read, nothing changes). A chunk's
 * rows are samples in order, a cache line or more apart: from margins, each row's square (some 60 cycles of
 * dependent products) kept the next rows' loads from starting, and each read waited on memory alone (160 ns a row
 * at 10^6 samples, 33 with rows asked for 16 ahead, in a standalone loop of the same code). */
#define SOFT_AHEAD 16
#if defined(__GNUC__) || defined(__clang__)
#define SOFT_PREFETCH(address) __builtin_prefetch(address)
#else
#define SOFT_PREFETCH(address) ((void)0)
#endif

static int deficit_of(const uint64_t *m, const uint64_t *rho, Py_ssize_t K, uint64_t *d);
static int deficit_cut(const uint64_t *d, int is_short, Py_ssize_t count, int64_t *piece);

PyDoc_STRVAR(soft_chunk_doc,
"soft_chunk($module, over, pieces, rows, base, root_b, n0, factor, use_filter, doubtful, sums,\n"
"           margins=None, rho=None, /)\n"
"--\n"
"\n"
"The soft-margin check's chunk of mistakes on rows, in one pass.\n"
"\n"
"over (n,) float64 is each sample's d^2/rho^2, pieces (n, K) int64 its d^2 in K pieces of\n"
"46 bits (each in [0, 2^46)), rows (m,) int64 with 1 <= m <= 2^16. With S_t the running\n"
"sum over[rows[0]] + ... + over[rows[t]] (left to right), side_t = root_b + sqrt(base + S_t)\n"
"and r_t = sqrt(n0 + t): t is doubtful where r_t * factor > side_t (every t when\n"
"use_filter is 0). Writes the doubtful t, in order, to doubtful (m,) int64, and to sums\n"
"(m + 2, K) int64 the pieces' sums over rows[0..t] at each of them (row j for the j-th),\n"
"at t = m - 1 (row m) and at the first t whose r_t / side_t is largest (row m + 1).\n"
"Returns (how many are doubtful, that t, its r_t / side_t). Raises ValueError where a\n"
"row is out of range or a piece is not in [0, 2^46).\n"
"\n"
"With margins (n, Km) int64 limbs and rho (Km,) given (and pieces None), each row's pieces\n"
"are made as it is read: max(0, rho - m)^2 cut into K = sums.shape[1] pieces, as\n"
"deficit_pieces cuts them (ValueError where a deficit passes 2^192 or its square K pieces).");

static PyObject *
soft_chunk(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    static const char func[] = "soft_chunk";
    enum { A_OVER, A_PIECES, A_ROWS, A_BASE, A_ROOT_B, A_N0, A_FACTOR, A_FILTER, A_DOUBTFUL, A_SUMS, N_ARGS,
           A_MARGINS = N_ARGS, A_RHO, N_WITH_MARGINS };
    if (nargs != N_ARGS && nargs != N_WITH_MARGINS) {
        PyErr_Format(PyExc_TypeError, "soft_chunk() takes %d or %d arguments, got %zd", N_ARGS, N_WITH_MARGINS, nargs);
        return NULL;
    }
    const int from_margins = nargs == N_WITH_MARGINS && args[A_MARGINS] != Py_None;
    if (from_margins && args[A_PIECES] != Py_None) {
        PyErr_SetString(PyExc_ValueError, "soft_chunk(): pieces must be None where margins are given");
        return NULL;
    }
    const double base = PyFloat_AsDouble(args[A_BASE]), root_b = PyFloat_AsDouble(args[A_ROOT_B]),
                 factor = PyFloat_AsDouble(args[A_FACTOR]);
    const long long n0 = PyLong_AsLongLong(args[A_N0]);
    const int use_filter = PyObject_IsTrue(args[A_FILTER]);
    if (PyErr_Occurred() || use_filter < 0) {
        return NULL;
    }
    if (n0 < 1 || n0 > ((long long)1 << 52)) {
        PyErr_Format(PyExc_ValueError, "soft_chunk(): n0=%lld is not in [1, 2^52]", n0);
        return NULL;
    }
    Py_buffer over_v, pieces_v, rows_v, doubtful_v, sums_v, rho_v;
    Py_buffer *views[] = {&over_v, &pieces_v, &rows_v, &doubtful_v, &sums_v, &rho_v};
    int got = 0;
    PyObject *result = NULL;
    if (get_array(func, "over", args[A_OVER], 1, FLOAT64_ITEMS, 0, &over_v) < 0) {
        goto done;
    }
    got = 1;
    if (get_array(func, from_margins ? "margins" : "pieces", args[from_margins ? A_MARGINS : A_PIECES], 2,
                  INT64_ITEMS, 0, &pieces_v) < 0) {
        goto done;
    }
    got = 2;
    if (get_array(func, "rows", args[A_ROWS], 1, INT64_ITEMS, 0, &rows_v) < 0) {
        goto done;
    }
    got = 3;
    if (get_array(func, "doubtful", args[A_DOUBTFUL], 1, INT64_ITEMS, 1, &doubtful_v) < 0) {
        goto done;
    }
    got = 4;
    if (get_array(func, "sums", args[A_SUMS], 2, INT64_ITEMS, 1, &sums_v) < 0) {
        goto done;
    }
    got = 5;
    if (from_margins && get_array(func, "rho", args[A_RHO], 1, INT64_ITEMS, 0, &rho_v) < 0) {
        goto done;
    }
    got = from_margins ? 6 : 5;
    const Py_ssize_t n = over_v.shape[0], m = rows_v.shape[0], Km = from_margins ? pieces_v.shape[1] : 0;
    const Py_ssize_t K = from_margins ? sums_v.shape[1] : pieces_v.shape[1];
    if (pieces_v.shape[0] != n || K < 1 || K > SOFT_PIECES_MAX || m < 1 || m > SOFT_CHUNK_MAX
        || doubtful_v.shape[0] != m || sums_v.shape[0] != m + 2 || sums_v.shape[1] != K
        || (from_margins && (Km < 1 || Km > DEFICIT_MAX_LIMBS || rho_v.shape[0] != Km))) {
        PyErr_Format(PyExc_ValueError, "soft_chunk(): shapes over (%zd), %s (%zd, %zd), rows (%zd), doubtful (%zd), "
                     "sums (%zd, %zd) do not agree (1 <= m <= 2^16, 1 <= K <= 8; margins 1 to %d limbs, rho as many)",
                     n, from_margins ? "margins" : "pieces", pieces_v.shape[0], pieces_v.shape[1], m,
                     doubtful_v.shape[0], sums_v.shape[0], sums_v.shape[1], DEFICIT_MAX_LIMBS);
        goto done;
    }
    const double *over = over_v.buf;
    const int64_t *pieces = pieces_v.buf, *rows = rows_v.buf;
    const uint64_t *rho = from_margins ? rho_v.buf : NULL;
    int64_t *doubtful = doubtful_v.buf, *sums = sums_v.buf;
    Py_ssize_t bad_row = -1, bad_square = -1, count = 0, best = 0;
    uint64_t seen = 0; /* every piece read, or-ed: a bit at 46 or above is a piece out of range */
    double nearest = 0.0;
    Py_BEGIN_ALLOW_THREADS
    int64_t acc[SOFT_PIECES_MAX] = {0};
    int64_t at_best[SOFT_PIECES_MAX] = {0};
    int64_t cut[SOFT_PIECES_MAX];
    uint64_t d[DEFICIT_MAX_LIMBS + 1] = {0};  /* (the limbs above Km + 1 stay 0: d has three at least) */
    double sum = 0.0;
    int have_best = 0, best_nan = 0;
    for (Py_ssize_t t = 0; t < m; t++) {
        const int64_t i = rows[t];
        if (i < 0 || i >= n) {
            bad_row = t;
            break;
        }
        const int64_t *piece = pieces + i * (from_margins ? Km : K);
        if (t + SOFT_AHEAD < m) {
            const int64_t ahead = rows[t + SOFT_AHEAD];
            if (ahead >= 0 && ahead < n) {  /* (an address past the arrays is not even formed) */
                SOFT_PREFETCH(pieces + ahead * (from_margins ? Km : K));
                SOFT_PREFETCH(over + ahead);
            }
        }
        if (from_margins) {  /* the row's d^2 cut into its K pieces here (deficit_pieces' cut) */
            const int is_short = deficit_of((const uint64_t *)piece, rho, Km, d);
            for (Py_ssize_t k = DEFICIT_WORDS; is_short && k <= Km; k++) {
                if (d[k]) {
                    bad_square = t;
                }
            }
            if (bad_square >= 0 || deficit_cut(d, is_short, K, cut) < 0) {
                bad_square = t;
                break;
            }
            piece = cut;
        }
        for (Py_ssize_t k = 0; k < K; k++) {
            seen |= (uint64_t)piece[k];
            acc[k] += piece[k];
        }
        sum = t == 0 ? over[i] : sum + over[i]; /* np.cumsum's order: the first term itself, then one by one */
        const double side = root_b + sqrt(base + sum);
        const double root_n = sqrt((double)(n0 + t));
        if (!use_filter || root_n * factor > side) {
            doubtful[count] = t;
            memcpy(sums + count * K, acc, (size_t)K * sizeof acc[0]);
            count++;
        }
        const double ratio = root_n / side;
        /* np.argmax: the first largest, or the first NaN (nothing after a NaN replaces it) */
        if (!best_nan && (!have_best || ratio > nearest || isnan(ratio))) {
            have_best = 1;
            best_nan = isnan(ratio);
            nearest = ratio;
            best = t;
            memcpy(at_best, acc, (size_t)K * sizeof acc[0]);
        }
    }
    memcpy(sums + m * K, acc, (size_t)K * sizeof acc[0]);
    memcpy(sums + (m + 1) * K, at_best, (size_t)K * sizeof acc[0]);
    Py_END_ALLOW_THREADS
    if (bad_row >= 0) {
        PyErr_Format(PyExc_ValueError, "soft_chunk(): rows[%zd]=%lld is not a sample (n=%zd)", bad_row,
                     (long long)rows[bad_row], n);
        goto done;
    }
    if (bad_square >= 0) {
        PyErr_Format(PyExc_ValueError, "soft_chunk(): rows[%zd]'s deficit passes 2^%d or its square %zd pieces",
                     bad_square, 64 * DEFICIT_WORDS, K);
        goto done;
    }
    if (seen >> SOFT_PIECE_BITS) {
        PyErr_Format(PyExc_ValueError, "soft_chunk(): a piece of the rows read is not in [0, 2^%d)",
                     SOFT_PIECE_BITS);
        goto done;
    }
    result = Py_BuildValue("(nnd)", count, best, nearest);
done:
    for (int v = 0; v < got; v++) {
        PyBuffer_Release(views[v]);
    }
    return result;
}

PyDoc_STRVAR(bit_rows_doc,
"bit_rows($module, bits, numbers, n, epochs, rows, /)\n"
"--\n"
"\n"
"The set bits of packed bitmaps, in order: the mistakes of a block of epochs.\n"
"\n"
"bits (E, B) uint8 holds E bitmaps of n bits each, packed as np.packbits packs them (the\n"
"first bit of a byte its highest), B = ceil(n / 8); numbers (E,) int64 the epoch of each.\n"
"Writes, for every set bit j < n of bitmap e in order (e, then j), numbers[e] to epochs\n"
"and j to rows (both (cap,) int64) and returns how many; bits past n are not read.\n"
"Raises ValueError where the shapes disagree or more than cap bits are set.");

static PyObject *
bit_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    static const char func[] = "bit_rows";
    if (nargs != 5) {
        PyErr_Format(PyExc_TypeError, "bit_rows() takes 5 arguments, got %zd", nargs);
        return NULL;
    }
    const Py_ssize_t n = PyLong_AsSsize_t(args[2]);
    if (n == -1 && PyErr_Occurred()) {
        return NULL;
    }
    Py_buffer bits_v, numbers_v, epochs_v, rows_v;
    Py_buffer *views[] = {&bits_v, &numbers_v, &epochs_v, &rows_v};
    int got = 0;
    PyObject *result = NULL;
    if (get_array(func, "bits", args[0], 2, FLAG_ITEMS, 0, &bits_v) < 0) {
        goto done;
    }
    got = 1;
    if (get_array(func, "numbers", args[1], 1, INT64_ITEMS, 0, &numbers_v) < 0) {
        goto done;
    }
    got = 2;
    if (get_array(func, "epochs", args[3], 1, INT64_ITEMS, 1, &epochs_v) < 0) {
        goto done;
    }
    got = 3;
    if (get_array(func, "rows", args[4], 1, INT64_ITEMS, 1, &rows_v) < 0) {
        goto done;
    }
    got = 4;
    const Py_ssize_t E = bits_v.shape[0], B = bits_v.shape[1], cap = rows_v.shape[0];
    if (n < 0 || B != (n + 7) / 8 || numbers_v.shape[0] != E || epochs_v.shape[0] != cap) {
        PyErr_Format(PyExc_ValueError, "bit_rows(): shapes bits (%zd, %zd), numbers (%zd), epochs (%zd), rows (%zd) "
                     "do not agree with n=%zd", E, B, numbers_v.shape[0], epochs_v.shape[0], cap, n);
        goto done;
    }
    const uint8_t *bits = bits_v.buf;
    const int64_t *numbers = numbers_v.buf;
    int64_t *epochs = epochs_v.buf, *rows = rows_v.buf;
    Py_ssize_t count = 0;
    int over = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t e = 0; e < E && !over; e++) {
        const uint8_t *bitmap = bits + e * B;
        const int64_t number = numbers[e];
        for (Py_ssize_t j = 0; j < B; j++) {
            unsigned byte = bitmap[j];
            if (j == B - 1 && (n & 7)) {
                byte &= 0xFFu << (8 - (n & 7)); /* the padding's bits past n: not samples */
            }
            while (byte) {
                const int high = __builtin_clz(byte) - (int)(8 * sizeof(unsigned) - 8); /* 0 for bit 7 */
                if (count == cap) {
                    over = 1;
                    break;
                }
                epochs[count] = number;
                rows[count] = 8 * j + high;
                count++;
                byte &= ~(0x80u >> high);
            }
            if (over) {
                break;
            }
        }
    }
    Py_END_ALLOW_THREADS
    if (over) {
        PyErr_Format(PyExc_ValueError, "bit_rows(): more than cap=%zd bits are set", cap);
        goto done;
    }
    result = PyLong_FromSsize_t(count);
done:
    for (int v = 0; v < got; v++) {
        PyBuffer_Release(views[v]);
    }
    return result;
}

#endif
