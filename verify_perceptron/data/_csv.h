/*
 * verify_perceptron.data._rows: a CSV file's body read a block at a time (csv_block) into int64
 * numerators with a 16-bit code for each cell's denominator, and the numerators brought over their
 * common denominator in place (scale_cells). Included by _rows.c after rational_cell, whose
 * grammar and values these cells share. The Python side is verify_perceptron.data.csv_stream:
 * it hands in complete lines only, keeps every array, and reads the file with today's reader
 * whenever csv_block says the block is not the plain case (it returns 1, "not mine"), so that
 * every error is named by that reader, line and column.
 *
 * Why codes: a file's cells have few distinct denominators (the powers of ten of its decimals,
 * or the q of its p/q), so a cell needs 8 + 2 bytes here instead of today's 8 + 8, and the
 * common denominator is the lcm of the table, not of every cell.
 */

/* The state csv_block keeps between blocks, in an int64 array the caller owns. */
enum { ST_ROWS, ST_DENS, ST_LABELS, ST_BLANKS, ST_LAST_DEN, ST_LAST_CODE, ST_SIZE };

#define MAX_DENS 65535           /* codes 0..65534; LEFT_CODE marks a cell left to Python */
#define LEFT_CODE 65535
#define MAX_LABELS 255
#define LABEL_BYTES 64

/* A writable C-contiguous 1-D buffer of uint16 items (NumPy's 'H'). */
static int
get_codes(const char *func, PyObject *obj, Py_buffer *view)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_RECORDS) < 0) {
        return -1;
    }
    const char *f = view->format != NULL ? view->format : "B";
    if (*f == '@' || *f == '=' || *f == NATIVE_ORDER) {
        f++;
    }
    if (view->itemsize != 2 || f[0] != 'H' || f[1] != '\0' || view->ndim != 1
        || !PyBuffer_IsContiguous(view, 'C')) {
        PyErr_Format(PyExc_TypeError, "%s(): codes must be a C-contiguous uint16 vector", func);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* The code of denominator `den`, added to the table (of `capacity` entries) if new; -1 when the table is full.
 * `slots` (open addressing, 2^bits of them, at least twice the capacity) hold code + 1, or 0 when free. */
static int
den_code(int64_t den, int64_t *state, int64_t *table, Py_ssize_t capacity, int32_t *slots, int bits)
{
    if (den == state[ST_LAST_DEN]) {
        return (int)state[ST_LAST_CODE];
    }
    const uint64_t mask = ((uint64_t)1 << bits) - 1;
    uint64_t h = ((uint64_t)den * 0x9E3779B97F4A7C15ull) >> (64 - bits);
    for (;; h = (h + 1) & mask) {
        const int32_t slot = slots[h];
        if (slot == 0) {
            if (state[ST_DENS] >= capacity) {
                return -1;
            }
            table[state[ST_DENS]] = den;
            slots[h] = (int32_t)++state[ST_DENS];
            break;
        }
        if (table[slot - 1] == den) {
            break;
        }
    }
    state[ST_LAST_DEN] = den;
    state[ST_LAST_CODE] = slots[h] - 1;
    return slots[h] - 1;
}

/* The code of the label text [s, e), added to the table if new; -1 when it is full or the text too long. */
static int
label_code(const char *s, const char *e, int64_t *state, unsigned char *texts, int64_t *lengths)
{
    const Py_ssize_t n = e - s;
    for (int64_t c = 0; c < state[ST_LABELS]; c++) {
        if (lengths[c] == n && memcmp(texts + c * LABEL_BYTES, s, n) == 0) {
            return (int)c;
        }
    }
    if (n > LABEL_BYTES || state[ST_LABELS] >= MAX_LABELS) {
        return -1;
    }
    memcpy(texts + state[ST_LABELS] * LABEL_BYTES, s, n);
    lengths[state[ST_LABELS]] = n;
    return (int)state[ST_LABELS]++;
}

/* Byte classes of a body line: what may stand in a cell, what separates cells, what this reader leaves
 * to the general one (a quote, a control character, a byte past ASCII, a comma under another separator). */
enum { B_CELL, B_SEP, B_BLANK, B_OTHER };

PyDoc_STRVAR(csv_block_doc,
"csv_block($module, block, sep, layout, nums, codes, label_codes, state, table, maxabs, slots,\n"
"          label_texts, label_lengths, left, /)\n"
"--\n"
"\n"
"Read the complete lines of `block` (bytes ending at a line end, or at the file's end) as rows of\n"
"layout = (width, skipped, target) cells separated by `sep` (a byte; 32 means runs of blanks), the\n"
"first `skipped` cells ignored and cell `target` the label. Feature cells go to nums and codes (flat,\n"
"row by row, from row state[0]): a cell rational_cells reads exactly gets its numerator in lowest\n"
"terms and the code of its denominator in `table` (a decimal's 2^a 5^b past int64 written there as\n"
"-(a 2^16 + b); with maxabs[code], the largest |numerator| over\n"
"it; at most min(len(table), 65535) codes, slots a zeroed int32 array of at least 2^b entries, 2^b the\n"
"least power of two >= 2 * that); any other cell gets code 65535 and (k, its bytes) appended to `left`. A label gets the code of\n"
"its exact text in label_texts (64 bytes a label) and label_lengths. Returns 0, or 1 when the block\n"
"is not the plain case: a line of another width, a blank line followed by another line, a quote, a\n"
"byte past ASCII or a control character, a comma under another separator, a line starting with '#',\n"
"a lone CR, more rows than nums holds, more denominators than the table holds or 255 label texts.");

static PyObject *
csv_block(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    static const char func[] = "csv_block";
    Py_buffer text = {0}, nums = {0}, codes = {0}, labels = {0}, state = {0}, table = {0}, maxabs = {0},
              slots = {0}, texts = {0}, lengths = {0};
    PyObject *result = NULL;
    Py_ssize_t width, skipped, target;
    int sep;

    if (nargs != 13) {
        PyErr_Format(PyExc_TypeError, "csv_block() takes 13 arguments, got %zd", nargs);
        return NULL;
    }
    sep = PyLong_AsLong(args[1]);
    if (sep == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (!PyArg_ParseTuple(args[2], "nnn", &width, &skipped, &target)) {
        return NULL;
    }
    if (width < 1 || skipped < 0 || target < skipped || target >= width || sep < 1 || sep > 127) {
        PyErr_Format(PyExc_ValueError, "csv_block(): layout (%zd, %zd, %zd) or sep=%d out of range",
                     width, skipped, target, sep);
        return NULL;
    }
    if (!PyList_Check(args[12])) {
        PyErr_SetString(PyExc_TypeError, "csv_block(): left must be a list");
        return NULL;
    }
    if (PyObject_GetBuffer(args[0], &text, PyBUF_SIMPLE) < 0
        || get_array(func, "nums", args[3], 1, INT64_ITEMS, 1, &nums) < 0
        || get_codes(func, args[4], &codes) < 0
        || get_array(func, "label_codes", args[5], 1, FLAG_ITEMS, 1, &labels) < 0
        || get_array(func, "state", args[6], 1, INT64_ITEMS, 1, &state) < 0
        || get_array(func, "table", args[7], 1, INT64_ITEMS, 1, &table) < 0
        || get_array(func, "maxabs", args[8], 1, INT64_ITEMS, 1, &maxabs) < 0
        || get_array(func, "label_texts", args[10], 1, FLAG_ITEMS, 1, &texts) < 0
        || get_array(func, "label_lengths", args[11], 1, INT64_ITEMS, 1, &lengths) < 0) {
        goto done;
    }
    if (PyObject_GetBuffer(args[9], &slots, PyBUF_WRITABLE) < 0) {
        goto done;
    }
    const Py_ssize_t m = width - skipped - 1, den_capacity = table.shape[0] < MAX_DENS ? table.shape[0] : MAX_DENS;
    int bits = 1;
    while (bits < 20 && ((Py_ssize_t)1 << bits) < 2 * den_capacity) {
        bits++;
    }
    if (state.shape[0] < ST_SIZE || den_capacity < 1 || maxabs.shape[0] < den_capacity
        || slots.len < ((Py_ssize_t)sizeof(int32_t) << bits) || texts.shape[0] < MAX_LABELS * LABEL_BYTES
        || lengths.shape[0] < MAX_LABELS || codes.shape[0] != nums.shape[0] || m < 1) {
        PyErr_SetString(PyExc_ValueError, "csv_block(): a state array is too small, or no feature column");
        goto done;
    }
    int64_t *st = state.buf, *num = nums.buf, *den_of = table.buf, *largest = maxabs.buf, *length = lengths.buf;
    uint16_t *code = codes.buf;
    unsigned char *label = labels.buf, *label_text = texts.buf;
    int32_t *slot = slots.buf;
    const Py_ssize_t capacity = labels.shape[0] < nums.shape[0] / m ? labels.shape[0] : nums.shape[0] / m;
    unsigned char kind[256];
    for (int c = 0; c < 256; c++) {
        kind[c] = (c < 0x20 && c != '\t') || c >= 0x7f || c == '"' || (c == ',' && sep != ',') ? B_OTHER : B_CELL;
    }
    if (sep == ' ') {
        kind[' '] = kind['\t'] = B_SEP;
    }
    else {
        kind[sep] = B_SEP;
    }
    const char *p = text.buf, *const end = p + text.len;
    int other = 0;
    while (p < end && !other) {
        const char *nl = memchr(p, '\n', end - p);
        const char *stop = nl != NULL ? nl : end, *next = nl != NULL ? nl + 1 : end;
        if (stop > p && stop[-1] == '\r') {
            stop--; /* CRLF: the text reader reads it as one line end */
        }
        const char *s = p;
        while (s < stop && (*s == ' ' || *s == '\t')) {
            s++;
        }
        if (s == stop) { /* blank: fine at the end of the file only */
            st[ST_BLANKS]++;
            p = next;
            continue;
        }
        if (st[ST_BLANKS] || *s == '#' || st[ST_ROWS] >= capacity) {
            other = 1;
            break;
        }
        const Py_ssize_t row = st[ST_ROWS];
        Py_ssize_t j = 0, k = row * m;
        const char *cell = sep == ' ' ? s : p;
        for (const char *q = cell;; q++) {
            const int c = q < stop ? kind[(unsigned char)*q] : B_SEP;
            if (c == B_CELL) {
                continue;
            }
            if (c == B_OTHER) {
                other = 1;
                break;
            }
            if (sep == ' ' && q < stop && q == cell) { /* a run of blanks */
                cell = q + 1;
                continue;
            }
            if (sep == ' ' && q == stop && q == cell) {
                break; /* trailing blanks */
            }
            if (j >= width) {
                other = 1;
                break;
            }
            if (j == target) {
                const int lc = label_code(cell, q, st, label_text, length);
                if (lc < 0) {
                    other = 1;
                    break;
                }
                label[row] = (unsigned char)lc;
            }
            else if (j >= skipped) {
                int64_t n, d;
                if (rational_cell(cell, q, &n, &d, 1)) {
                    const int dc = den_code(d, st, den_of, den_capacity, slot, bits);
                    if (dc < 0) {
                        other = 1; /* the table of denominators is full */
                        break;
                    }
                    num[k] = n;
                    code[k] = (uint16_t)dc;
                    const int64_t a = n < 0 ? -n : n; /* |n| <= INT64_MAX: rational_cell never gives INT64_MIN */
                    if (a > largest[dc]) {
                        largest[dc] = a;
                    }
                }
                else {
                    PyObject *entry = Py_BuildValue("(ny#)", k, cell, (Py_ssize_t)(q - cell));
                    if (entry == NULL || PyList_Append(args[12], entry) < 0) {
                        Py_XDECREF(entry);
                        goto done;
                    }
                    Py_DECREF(entry);
                    num[k] = 0;
                    code[k] = LEFT_CODE;
                }
                k++;
            }
            j++;
            if (q == stop) {
                break;
            }
            cell = q + 1;
        }
        if (other || j != width) {
            other = 1;
            break;
        }
        st[ST_ROWS]++;
        p = next;
    }
    result = PyLong_FromLong(other);
done:
    PyBuffer_Release(&text);
    PyBuffer_Release(&nums);
    PyBuffer_Release(&codes);
    PyBuffer_Release(&labels);
    PyBuffer_Release(&state);
    PyBuffer_Release(&table);
    PyBuffer_Release(&maxabs);
    PyBuffer_Release(&slots);
    PyBuffer_Release(&texts);
    PyBuffer_Release(&lengths);
    return result;
}

PyDoc_STRVAR(scale_cells_doc,
"scale_cells($module, nums, codes, factors, /)\n"
"--\n"
"\n"
"nums[k] *= factors[codes[k]] for every cell, in place. The caller has checked that no product\n"
"reaches 2^62 in magnitude (maxabs[c] * factors[c] < 2^62 for every code c); a code past factors\n"
"raises ValueError before anything is written. Returns None.");

static PyObject *
scale_cells(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    static const char func[] = "scale_cells";
    Py_buffer nums = {0}, codes = {0}, factors = {0};
    PyObject *result = NULL;

    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "scale_cells() takes 3 arguments (nums, codes, factors), got %zd", nargs);
        return NULL;
    }
    if (get_array(func, "nums", args[0], 1, INT64_ITEMS, 1, &nums) < 0 || get_codes(func, args[1], &codes) < 0
        || get_array(func, "factors", args[2], 1, INT64_ITEMS, 0, &factors) < 0) {
        goto done;
    }
    const Py_ssize_t n = nums.shape[0], f = factors.shape[0];
    if (codes.shape[0] != n) {
        PyErr_Format(PyExc_ValueError, "scale_cells(): %zd codes for %zd cells", codes.shape[0], n);
        goto done;
    }
    int64_t *num = nums.buf;
    const uint16_t *code = codes.buf;
    const int64_t *factor = factors.buf;
    uint16_t top = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        top = code[k] > top ? code[k] : top;
    }
    if (n && top >= f) {
        PyErr_Format(PyExc_ValueError, "scale_cells(): code %d has no factor (%zd factors)", (int)top, f);
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t k = 0; k < n; k++) {
        num[k] *= factor[code[k]];
    }
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&nums);
    PyBuffer_Release(&codes);
    PyBuffer_Release(&factors);
    return result;
}

PyDoc_STRVAR(scale_limbs_doc,
"scale_limbs($module, nums, codes, factors, out, /)\n"
"--\n"
"\n"
"out[k] = nums[k] * factors[codes[k]] for every cell, in L 64-bit limbs (lowest first, two's\n"
"complement: verify_perceptron.data.limb_arrays), where scale_cells' int64 products would not fit.\n"
"factors is a C-contiguous (codes, L) int64 array, each row a factor >= 0 read unsigned, out a\n"
"writable C-contiguous (cells, L) int64 array. A code past factors raises ValueError before\n"
"anything is written; a product that does not fit in L limbs raises OverflowError naming the cell.\n"
"Returns None.");

/* Why limbs: a decimal file at full precision (repr's 17 digits, 1.2345678901234567e-05) has a common
 * denominator past int64, so its scaled numerators pass 64 bits; held as limbs they stay out of Python
 * integers, which cost a multiplication, an object and a gcd each (and 5 times the memory). */
static PyObject *
scale_limbs(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    static const char func[] = "scale_limbs";
    Py_buffer nums = {0}, codes = {0}, factors = {0}, out = {0};
    PyObject *result = NULL;

    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "scale_limbs() takes 4 arguments (nums, codes, factors, out), got %zd", nargs);
        return NULL;
    }
    if (get_array(func, "nums", args[0], 1, INT64_ITEMS, 0, &nums) < 0 || get_codes(func, args[1], &codes) < 0
        || get_array(func, "factors", args[2], 2, INT64_ITEMS, 0, &factors) < 0
        || get_array(func, "out", args[3], 2, INT64_ITEMS, 1, &out) < 0) {
        goto done;
    }
#if SCAN_WIDE
    const Py_ssize_t n = nums.shape[0], f = factors.shape[0], L = factors.shape[1];
    if (codes.shape[0] != n || out.shape[0] != n || out.shape[1] != L || L < 1) {
        PyErr_Format(PyExc_ValueError, "scale_limbs(): %zd codes and out of shape (%zd, %zd) for %zd cells and "
                     "factors in %zd limbs", codes.shape[0], out.shape[0], out.shape[1], n, L);
        goto done;
    }
    const int64_t *num = nums.buf;
    const uint16_t *code = codes.buf;
    const uint64_t *factor = factors.buf;
    uint64_t *limb = out.buf;
    uint16_t top = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        top = code[k] > top ? code[k] : top;
    }
    if (n && top >= f) {
        PyErr_Format(PyExc_ValueError, "scale_limbs(): code %d has no factor (%zd factors)", (int)top, f);
        goto done;
    }
    Py_ssize_t wide = -1;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t k = 0; k < n && wide < 0; k++) {
        const uint64_t a = num[k] < 0 ? -(uint64_t)num[k] : (uint64_t)num[k];
        const uint64_t *g = factor + (Py_ssize_t)code[k] * L;
        uint64_t *r = limb + k * L;
        unsigned __int128 carry = 0;
        for (Py_ssize_t i = 0; i < L; i++) { /* |n| times the factor, a word at a time */
            carry += (unsigned __int128)a * g[i];
            r[i] = (uint64_t)carry;
            carry >>= 64;
        }
        if (carry != 0 || r[L - 1] >> 63) {
            wide = k; /* |product| >= 2^(64 L - 1): no room for the sign */
        }
        else if (num[k] < 0) { /* two's complement: the bits flipped, plus one */
            uint64_t add = 1;
            for (Py_ssize_t i = 0; i < L; i++) {
                r[i] = ~r[i] + add;
                add = add && r[i] == 0;
            }
        }
    }
    Py_END_ALLOW_THREADS
    if (wide >= 0) {
        PyErr_Format(PyExc_OverflowError, "scale_limbs(): cell %zd, %lld times factor %d, does not fit in %zd limbs",
                     wide, (long long)num[wide], (int)code[wide], L);
        goto done;
    }
    result = Py_NewRef(Py_None);
#else
    PyErr_SetString(PyExc_NotImplementedError, "scale_limbs() needs a compiler with __int128");
#endif
done:
    PyBuffer_Release(&nums);
    PyBuffer_Release(&codes);
    PyBuffer_Release(&factors);
    PyBuffer_Release(&out);
    return result;
}

PyDoc_STRVAR(limb_terms_doc,
"limb_terms($module, limbs, q, /)\n"
"--\n"
"\n"
"What lowest terms need of the values held in limbs (a C-contiguous (values, L) int64 array, each\n"
"row a value in L limbs, lowest first, two's complement), in one pass: (g, zeros, bits) with g =\n"
"gcd(q, every value) for 0 < q < 2^63 (its search stops where g is 1), zeros the least number of\n"
"trailing zero bits of a nonzero value (-1 when every value is 0) and bits the largest\n"
"bit_length(|value|) (0 when every value is 0).");

#if SCAN_WIDE
/* v mod q, 0 <= result < q, for v in L limbs (two's complement); wrap is 2^(64 L) mod q. The high part
 * is always below q, so each step's quotient fits 64 bits. */
static uint64_t
limbs_mod(const uint64_t *v, Py_ssize_t L, uint64_t q, uint64_t wrap)
{
    uint64_t r = 0;
    for (Py_ssize_t k = L - 1; k >= 0; k--) {
        r = (uint64_t)((((unsigned __int128)r << 64) | v[k]) % q);
    }
    if ((int64_t)v[L - 1] < 0) { /* the limbs read unsigned are v + 2^(64 L) */
        r = r >= wrap ? r - wrap : r + (q - wrap);
    }
    return r;
}

/* 2^(64 L) mod q. */
static uint64_t
wrap_mod(Py_ssize_t L, uint64_t q)
{
    uint64_t t = 1 % q;
    for (Py_ssize_t k = 0; k < L; k++) {
        t = (uint64_t)(((unsigned __int128)t << 64) % q);
    }
    return t;
}

/* bit_length(|v|) of v in L limbs (two's complement). |v| is v, or ~v + 1 for v < 0: ~v's length, one more
 * where ~v is all ones below its length (v = -2^b). */
static int64_t
limbs_bits(const uint64_t *v, Py_ssize_t L)
{
    const uint64_t sign = (int64_t)v[L - 1] < 0 ? ~(uint64_t)0 : 0;
    for (Py_ssize_t k = L - 1; k >= 0; k--) {
        const uint64_t u = v[k] ^ sign;
        if (u != 0) {
            const int64_t bits = 64 * k + 64 - __builtin_clzll(u);
            int power = sign != 0 && (u & (u + 1)) == 0; /* ~v's top limb all ones below its length */
            for (Py_ssize_t j = 0; j < k && power; j++) {
                power = (v[j] ^ sign) == ~(uint64_t)0;
            }
            return bits + power;
        }
    }
    return sign != 0; /* -1 */
}
#endif

/* Why in C: a Dataset held in limbs over a decimal denominator 2^a 5^b is in lowest terms when gcd(5^b,
 * the numerators) is 1 and the 2^a part has no common trailing zeros, and reading that through NumPy or
 * Python integers cost a temporary per limb or a Python integer per value. */
static PyObject *
limb_terms(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    static const char func[] = "limb_terms";
    Py_buffer limbs = {0};
    PyObject *result = NULL;

    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "limb_terms() takes 2 arguments (limbs, q), got %zd", nargs);
        return NULL;
    }
    const long long q = PyLong_AsLongLong(args[1]);
    if (q == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (q < 1) {
        PyErr_Format(PyExc_ValueError, "limb_terms(): q=%lld must be positive (and below 2^63)", q);
        return NULL;
    }
    if (get_array(func, "limbs", args[0], 2, INT64_ITEMS, 0, &limbs) < 0) {
        return NULL;
    }
#if SCAN_WIDE
    const Py_ssize_t n = limbs.shape[0], L = limbs.shape[1];
    const uint64_t *v = limbs.buf;
    uint64_t g = (uint64_t)q;
    int64_t zeros = -1, bits = 0;
    if (L < 1) {
        PyErr_SetString(PyExc_ValueError, "limb_terms(): limbs must have at least one limb a value");
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    uint64_t wrap = wrap_mod(L, g);
    for (Py_ssize_t i = 0; i < n; i++) {
        const uint64_t *value = v + i * L;
        if (g > 1) {
            const uint64_t h = gcd64(limbs_mod(value, L, g, wrap), g);
            if (h != g) { /* a smaller modulus from here on: its own 2^(64 L) mod it */
                g = h;
                wrap = wrap_mod(L, g);
            }
        }
        for (Py_ssize_t k = 0; k < L && (zeros < 0 || 64 * k < zeros); k++) { /* the lowest nonzero limb */
            if (value[k] != 0) {
                const int64_t z = 64 * k + __builtin_ctzll(value[k]);
                zeros = zeros < 0 || z < zeros ? z : zeros;
                break;
            }
        }
        const int64_t b = limbs_bits(value, L);
        bits = b > bits ? b : bits;
    }
    Py_END_ALLOW_THREADS
    result = Py_BuildValue("(KLL)", (unsigned long long)g, (long long)zeros, (long long)bits);
#else
    PyErr_SetString(PyExc_NotImplementedError, "limb_terms() needs a compiler with __int128");
    goto done;
#endif
done:
    PyBuffer_Release(&limbs);
    return result;
}
