/*
 * verify_perceptron.data._rows: the signed samples and all their scores, exactly, in C.
 * Its Python wrapper is verify_perceptron.data.kernel; the references the tests hold
 * it to are verify_perceptron.data.samples.signed_samples with
 * verify_perceptron.data.integers.row_norms_sq, and NumPy's exact products.
 *
 * signed_rows() builds the samples Z[i] = y_i * (X[i] with the bias inserted)
 * and their squared norms ||Z[i]||^2 in one pass. Every entry is compared
 * with the range of Z's items before it is stored (a negated INT64_MIN, which
 * wraps, is caught from X itself), so Z holds the exact samples or the call
 * raises OverflowError. Each squared norm is summed where it cannot wrap: in
 * int64 for int16 items (each square <= 2^30, and at most 2^32 of them since
 * X has fewer than 2^32 columns), in int128 for int32 items (each square
 * <= 2^62), and in int128 with overflow checks for int64 items; a norm that
 * does not fit in int64 is reported (None), never stored wrapped.
 *
 * scores() computes Z[i] . W for every row in int64. It checks
 * ||W||^2 * max_i ||Z[i]||^2 < 2^126 itself (||W||^2 summed with overflow
 * checks in 128 bits); by Cauchy-Schwarz every product and partial sum, in
 * any order, is then at most ||Z[i]||*||W|| < 2^63 in magnitude, so the int64
 * sums are exact and may be vectorised. It trusts `norms` to be the exact
 * squared norms, which signed_rows (or the caller) computed.
 *
 * Both need __int128 (GCC, Clang); elsewhere they raise NotImplementedError
 * and the package uses NumPy instead. The arithmetic and argument parsing
 * they share with the other extensions are in _exact.h.
 */

#include "_exact.h"

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
 * squared norm is summed in ACC: int64 for int16 items (each square <= 2^30, at most 2^32
 * of them), int128 for int32 items (each <= 2^62), int128 with overflow checks for int64. */
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

/* ---- rational cells ----------------------------------------------------- */

PyDoc_STRVAR(rational_cells_doc,
"rational_cells($module, text, n_rows, n_cols, skip, numerators, denominators, /)\n"
"--\n"
"\n"
"Read `text` (bytes: n_rows lines joined by '\\n', each of n_cols cells joined\n"
"by ',') into numerators[k] / denominators[k], k counting the cells row by row\n"
"without column `skip` (the labels; -1 skips none), each in lowest terms with\n"
"a positive denominator. A cell this function cannot read exactly in int64\n"
"(too many digits, an exponent it does not apply, or not a literal at all)\n"
"gets denominator 0 and is left to the Python parser, which also names the\n"
"errors. Returns the number of such cells.\n"
"\n"
"Accepted: blanks (space, tab, CR) around [+-]digits/digits, or\n"
"[+-]digits[.digits][(e|E)[+-]digits] with a digit before or after the\n"
"point; each value is exactly the one verify_perceptron.data.rationals\n"
"reads from the same text. numerators and denominators are writable int64\n"
"vectors of n_rows * (n_cols, less one if a column is skipped) items. A line\n"
"with another number of cells raises ValueError.");

/* Append the decimal digits from *p (up to `end`) to *value, times ten each; returns how many digits
 * were read, or -1 when the value leaves uint64 (leading zeros never overflow). */
static Py_ssize_t
digits_into(const char **p, const char *end, uint64_t *value)
{
    const char *start = *p;
    uint64_t v = *value;
    int overflow = 0;
    for (; *p < end && **p >= '0' && **p <= '9'; (*p)++) {
        overflow |= __builtin_mul_overflow(v, (uint64_t)10, &v);
        overflow |= __builtin_add_overflow(v, (uint64_t)(**p - '0'), &v);
    }
    *value = v;
    return overflow ? -1 : *p - start;
}

/* gcd(a, b) for b > 0, by the binary method (no division). */
static uint64_t
gcd64(uint64_t a, uint64_t b)
{
    if (a == 0 || b == 1) {
        return b;
    }
    const int twos = __builtin_ctzll(a | b);
    a >>= __builtin_ctzll(a);
    do {
        b >>= __builtin_ctzll(b);
        if (a > b) {
            const uint64_t t = a;
            a = b;
            b = t;
        }
        b -= a;
    } while (b != 0);
    return a << twos;
}

/* m / 10^tens (0 < m < 2^63, tens >= 19) in lowest terms: 1, with *den the reduced 2^a 5^b where it fits
 * int64, else its code -(a 2^16 + b) (rational_cell's `encode`); 0 past 10^2000, which the Python parser
 * refuses by name (MAX_EXPONENT + MAX_DIGITS of verify_perceptron.data.rationals). */
static int
wide_decimal(uint64_t m, int64_t tens, int negative, int64_t *num, int64_t *den)
{
    if (tens > 2000) {
        return 0;
    }
    const int64_t twos = __builtin_ctzll(m) < tens ? __builtin_ctzll(m) : tens;
    int64_t five = 0;
    m >>= twos;
    while (five < tens && m % 5 == 0) {
        m /= 5;
        five++;
    }
    const int64_t a = tens - twos, b = tens - five;
    uint64_t d = 1;
    int fits = a < 63;
    for (int64_t i = 0; i < b && fits; i++) {
        fits = !__builtin_mul_overflow(d, (uint64_t)5, &d);
    }
    fits = fits && d < ((uint64_t)1 << (63 - a));
    *num = negative ? -(int64_t)m : (int64_t)m;
    *den = fits ? (int64_t)(d << a) : -((a << 16) | b);
    return 1;
}

/* One cell [s, e): 1 and *num / *den in lowest terms, or 0 when the Python parser must read it.
 * Every text accepted here is accepted by rationals.rational_parts with the same value: the
 * grammar is its grammar (a subset of it), and a value is kept only when it fits exactly.
 * With `encode`, a decimal whose reduced denominator 2^a 5^b passes int64 (repr's
 * 1.2345678901234567e-05 is n / (2^21 5^21)) is kept too, its denominator written as the
 * negative -(a 2^16 + b) (a, b <= 2000: wide_decimal). */
static int
rational_cell(const char *s, const char *e, int64_t *num, int64_t *den, int encode)
{
    while (s < e && (*s == ' ' || *s == '\t' || *s == '\r')) {
        s++;
    }
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) {
        e--;
    }
    if (s == e || e - s > 4000) {
        return 0;
    }
    const int negative = *s == '-';
    if (*s == '+' || *s == '-') {
        s++;
    }
    uint64_t m = 0, q = 1;
    int tens = 0; /* q = 10^tens for a decimal */
    const Py_ssize_t whole = digits_into(&s, e, &m);
    Py_ssize_t frac = 0;
    int64_t exponent = 0;
    if (whole < 0) {
        return 0;
    }
    if (s < e && *s == '/') { /* p/q: digits on both sides, q not 0 */
        s++;
        q = 0;
        if (whole == 0 || digits_into(&s, e, &q) <= 0 || s != e || q == 0) {
            return 0;
        }
    }
    else {
        if (s < e && *s == '.') {
            s++;
            frac = digits_into(&s, e, &m);
            if (frac < 0) {
                return 0;
            }
        }
        if (whole + frac == 0) {
            return 0;
        }
        if (s < e && (*s == 'e' || *s == 'E')) {
            s++;
            const int minus = s < e && *s == '-';
            if (s < e && (*s == '+' || *s == '-')) {
                s++;
            }
            uint64_t x = 0;
            const Py_ssize_t n = digits_into(&s, e, &x);
            if (n <= 0 || x > 1000) { /* beyond MAX_EXPONENT: the Python parser refuses it, by name */
                return 0;
            }
            exponent = minus ? -(int64_t)x : (int64_t)x;
        }
        if (s != e) {
            return 0;
        }
        if (m == 0) {
            *num = 0;
            *den = 1;
            return 1;
        }
        int64_t shift = exponent - frac;
        for (; shift > 0; shift--) {
            if (__builtin_mul_overflow(m, (uint64_t)10, &m)) {
                return 0;
            }
        }
        if (shift < -18 && encode) { /* 10^19 and up pass int64; reduced they may not */
            return m <= (uint64_t)INT64_MAX && wide_decimal(m, -shift, negative, num, den);
        }
        if (shift < -19) {
            return 0;
        }
        for (; shift < 0; shift++) {
            q *= 10; /* at most 10^19 < 2^64 */
            tens++;
        }
    }
    if (m > (uint64_t)INT64_MAX || q > (uint64_t)INT64_MAX) {
        return 0;
    }
    if (tens > 0) { /* m / 10^tens: the common factor is 2^a 5^b, found by a shift and a few divisions */
        static const uint64_t fives[19] = {1ull, 5ull, 25ull, 125ull, 625ull, 3125ull, 15625ull, 78125ull,
            390625ull, 1953125ull, 9765625ull, 48828125ull, 244140625ull, 1220703125ull, 6103515625ull,
            30517578125ull, 152587890625ull, 762939453125ull, 3814697265625ull};
        const int zeros = __builtin_ctzll(m), twos = zeros < tens ? zeros : tens;
        int five = 0;
        m >>= twos;
        while (five < tens && m % 5 == 0) {
            m /= 5;
            five++;
        }
        *num = negative ? -(int64_t)m : (int64_t)m;
        *den = (int64_t)(fives[tens - five] << (tens - twos)); /* divides 10^tens <= 10^18 */
        return 1;
    }
    const uint64_t g = gcd64(m, q);
    *num = negative ? -(int64_t)(m / g) : (int64_t)(m / g);
    *den = (int64_t)(q / g);
    return 1;
}

static PyObject *
rational_cells(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    static const char func[] = "rational_cells";
    Py_buffer text = {0}, nums = {0}, dens = {0};
    PyObject *result = NULL;
    Py_ssize_t sizes[3], left = 0;

    if (nargs != 6) {
        PyErr_Format(PyExc_TypeError, "rational_cells() takes 6 arguments (text, n_rows, n_cols, skip, "
                     "numerators, denominators), got %zd", nargs);
        return NULL;
    }
    for (int a = 0; a < 3; a++) {
        sizes[a] = PyLong_AsSsize_t(args[a + 1]);
        if (sizes[a] == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    const Py_ssize_t rows = sizes[0], cols = sizes[1], skip = sizes[2];
    if (rows < 0 || cols < 1 || skip < -1 || skip >= cols || (rows > 0 && cols > PY_SSIZE_T_MAX / rows)) {
        PyErr_Format(PyExc_ValueError, "rational_cells(): n_rows=%zd, n_cols=%zd, skip=%zd: need n_rows >= 0, "
                     "n_cols >= 1 and -1 <= skip < n_cols", rows, cols, skip);
        return NULL;
    }
    const Py_ssize_t count = rows * (cols - (skip >= 0));
    if (PyObject_GetBuffer(args[0], &text, PyBUF_SIMPLE) < 0
        || get_array(func, "numerators", args[4], 1, INT64_ITEMS, 1, &nums) < 0
        || get_array(func, "denominators", args[5], 1, INT64_ITEMS, 1, &dens) < 0) {
        goto done;
    }
    if (nums.shape[0] != count || dens.shape[0] != count) {
        PyErr_Format(PyExc_ValueError, "rational_cells(): numerators and denominators need %zd items, got %zd and %zd",
                     count, nums.shape[0], dens.shape[0]);
        goto done;
    }
    const char *p = text.buf, *const end = p + text.len;
    int64_t *num = nums.buf, *den = dens.buf;
    Py_ssize_t bad_row = -1, k = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < rows && bad_row < 0; i++) {
        for (Py_ssize_t j = 0; j < cols; j++) {
            const char *stop = p;
            while (stop < end && *stop != ',' && *stop != '\n') {
                stop++;
            }
            /* the last cell of a line ends at '\n' (or at the end of the last line), the others at ',' */
            if (j == cols - 1 ? (stop < end && *stop != '\n') || (stop == end && i != rows - 1)
                              : stop == end || *stop != ',') {
                bad_row = i;
                break;
            }
            if (j != skip) {
                if (!rational_cell(p, stop, num + k, den + k, 0)) {
                    num[k] = 0;
                    den[k] = 0;
                    left++;
                }
                k++;
            }
            p = stop < end ? stop + 1 : stop;
        }
    }
    if (bad_row < 0 && rows > 0 && p < end) {
        bad_row = rows; /* more text than n_rows lines */
    }
    Py_END_ALLOW_THREADS
    if (bad_row >= 0) {
        PyErr_Format(PyExc_ValueError, "rational_cells(): line %zd of the text does not hold %zd cells "
                     "(or the text holds more than %zd lines)", bad_row, cols, rows);
        goto done;
    }
    result = PyLong_FromSsize_t(left);
done:
    PyBuffer_Release(&text);
    PyBuffer_Release(&nums);
    PyBuffer_Release(&dens);
    return result;
}

/* ---- a CSV file's body, a block at a time -------------------------------- */

#include "_csv.h"

/* ---- the module -------------------------------------------------------- */

static PyMethodDef rows_methods[] = {
    {"signed_rows", (PyCFunction)(void (*)(void))signed_rows, METH_FASTCALL, signed_rows_doc},
    {"scores", (PyCFunction)(void (*)(void))scores, METH_FASTCALL, scores_doc},
    {"rational_cells", (PyCFunction)(void (*)(void))rational_cells, METH_FASTCALL, rational_cells_doc},
    {"csv_block", (PyCFunction)(void (*)(void))csv_block, METH_FASTCALL, csv_block_doc},
    {"scale_cells", (PyCFunction)(void (*)(void))scale_cells, METH_FASTCALL, scale_cells_doc},
    {"scale_limbs", (PyCFunction)(void (*)(void))scale_limbs, METH_FASTCALL, scale_limbs_doc},
    {"limb_terms", (PyCFunction)(void (*)(void))limb_terms, METH_FASTCALL, limb_terms_doc},
    {NULL, NULL, 0, NULL},
};

PyDoc_STRVAR(rows_doc,
"The signed samples and all their scores, exactly, in C (optional; see\n"
"verify_perceptron.data.kernel).");

static struct PyModuleDef rows_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "verify_perceptron.data._rows",
    .m_doc = rows_doc,
    .m_size = 0,
    .m_methods = rows_methods,
    .m_slots = exact_module_slots,
};

PyMODINIT_FUNC
PyInit__rows(void)
{
    return PyModuleDef_Init(&rows_module);
}
