/*
 * _slacks.h: the wide claims' enclosures in one pass each (included once by _replay.c, whose module exposes
 * them; the Python side is check/wide_claims.py's ChunkSlacks, the reference check/_enclosures.py's NumPy
 * enclosures).
 *
 * An enclosure is [lo, hi] * 2^e: doubles lo <= hi and an integer e, standing for an integer known to lie
 * inside. Every rounded operation here is followed by one step outward, as in check/_enclosures.py:
 * down(x) = x - |x| 2^-52 - 2^-1074 is at or below the double under x (|x| 2^-52 is at least x's ulp, and
 * rounding to nearest is monotone), so a sum, difference or product rounded to nearest (within half an ulp,
 * also where it underflows) and stepped down is at or below the exact value; up() alike. An overflow gives
 * +-inf outward and NaN (inf - inf) inward; a NaN end is kept by every operation below and read as unbounded
 * (-inf below, +inf above) when the ends are written out. A multiplication by a power of two 2^k >= 2^-1022
 * is exact unless the product underflows, where it rounds to nearest: it is stepped outward too; a smaller
 * factor is applied by ldexp, which rounds to nearest likewise.
 *
 * walk_sums() encloses the running sums start + sum_{u <= t} (a[rows[u]] 2^ea + b[u] 2^eb) of a chunk's
 * updates (W.W* from the samples' margins; ||W||^2 from their norms and twice the reported scores), all at
 * one exponent E = max(ea, eb, es): each term and each partial sum rounded once and stepped outward.
 *
 * claim_slacks() evaluates the claims' postfix program (check/_program.h's operations, the constants given
 * as quantities) over enclosures, BLOCK updates at a time: each value on the stack holds the block's ends and
 * one exponent, and after every operation the ends are scaled by a power of two so that the largest finite
 * one is at most 1 unless it is within 2^+-200 of 1 already (Enclosure.normal), so that no product of two
 * kept ends (at most 2^400) overflows. Each claim's blocks are then brought to the claim's largest exponent
 * (outward, as joined_ends does), so that its ends compare across the chunk. Nothing here decides: the
 * caller reads the signs of the ends and decides exactly wherever an enclosure does not.
 */

#ifndef VERIFY_PERCEPTRON_SLACKS_H
#define VERIFY_PERCEPTRON_SLACKS_H

#include <float.h>
#include <math.h>

#define SLACKS_BLOCK 256
#define SLACKS_DEPTH 16
#define SLACKS_NEAR 200
/* Exponents beyond 2^40 in magnitude are refused (no sum of them overflows int64). */
#define SLACKS_EXP ((int64_t)1 << 40)

/* The operations of verify_perceptron.notes.claims.OPS (check/_program.h's, named apart: that enum is compiled
 * only with __int128). */
enum { SLACK_END = 0, SLACK_QUANTITY = 1, SLACK_CONSTANT = 2, SLACK_ADD = 3, SLACK_SUB = 4, SLACK_MUL = 5,
       SLACK_NEG = 6, SLACK_POW = 7 };

static inline double
slack_down(double x)
{
    return x - fabs(x) * 0x1p-52 - 0x1p-1074;
}

static inline double
slack_up(double x)
{
    return x + fabs(x) * 0x1p-52 + 0x1p-1074;
}

/* lo and hi times 2^k, outward (k <= 0 in every use; k = 0 leaves them as they are). */
static void
slack_scale(double *lo, double *hi, Py_ssize_t n, int64_t k)
{
    if (k == 0) {
        return;
    }
    if (k >= -1022 && k <= 1023) {
        const double f = ldexp(1.0, (int)k);
        for (Py_ssize_t j = 0; j < n; j++) {
            lo[j] = slack_down(lo[j] * f);
            hi[j] = slack_up(hi[j] * f);
        }
        return;
    }
    const int s = k < -4000 ? -4000 : k > 4000 ? 4000 : (int)k;  /* (ends below 2^400: -4000 leaves 0) */
    for (Py_ssize_t j = 0; j < n; j++) {
        lo[j] = slack_down(ldexp(lo[j], s));
        hi[j] = slack_up(ldexp(hi[j], s));
    }
}

/* The largest finite magnitude of the ends so far, and v's (NaN and +-inf are left out). */
static inline double
slack_top(double top, double v)
{
    const double a = fabs(v);
    return a > top && a <= DBL_MAX ? a : top;
}

/* Scale the block's ends as Enclosure.normal does, given their largest finite magnitude `top`: to at most 1,
 * unless it is 0 or within 2^+-SLACKS_NEAR of 1. */
static void
slack_normal(double *lo, double *hi, Py_ssize_t n, int64_t *e, double top)
{
    if (top == 0.0 || (top >= 0x1p-200 && top <= 0x1p200)) {
        return;
    }
    int k;
    frexp(top, &k);  /* top < 2^k */
    slack_scale(lo, hi, n, -(int64_t)k);
    *e += k;
}

PyDoc_STRVAR(walk_sums_doc,
"walk_sums($module, rows, a_lo, a_hi, b_lo, b_hi, exponents, start, out_lo, out_hi, /)\n"
"--\n"
"\n"
"Enclose start + the running sums of a[rows[u]] 2^ea + b[u] 2^eb over the m updates u of rows (int64)\n"
"into out_lo, out_hi (m float64, writable) at one exponent, returned: max(ea, eb, es). a_lo, a_hi are\n"
"float64 per sample; b_lo, b_hi float64 per update, or both empty for no b, or b_lo the integers' nearest\n"
"doubles (each within |f| 2^-53 of its integer, 0 or normal) and b_hi empty; exponents (ea, eb, es)\n"
"int64; start (lo, hi) float64, at 2^es.");

static PyObject *
walk_sums(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    static const char func[] = "walk_sums";
    enum { N_ARGS = 9 };
    static const struct array_arg spec[N_ARGS] = {
        {"rows", 1, INT64_ITEMS, 0}, {"a_lo", 1, FLOAT64_ITEMS, 0}, {"a_hi", 1, FLOAT64_ITEMS, 0},
        {"b_lo", 1, FLOAT64_ITEMS, 0}, {"b_hi", 1, FLOAT64_ITEMS, 0}, {"exponents", 1, INT64_ITEMS, 0},
        {"start", 1, FLOAT64_ITEMS, 0}, {"out_lo", 1, FLOAT64_ITEMS, 1}, {"out_hi", 1, FLOAT64_ITEMS, 1},
    };
    Py_buffer a[N_ARGS];
    if (get_arrays(func, args, nargs, spec, N_ARGS, a) < 0) {
        return NULL;
    }
    PyObject *result = NULL;
    const Py_ssize_t m = a[0].shape[0], n = a[1].shape[0], mb = a[3].shape[0];
    const int nearest = mb != 0 && a[4].shape[0] == 0;  /* b_lo: nearest doubles, enclosed here */
    if (a[2].shape[0] != n || (a[4].shape[0] != mb && !nearest) || (mb != 0 && mb != m) || a[5].shape[0] != 3
        || a[6].shape[0] != 2 || a[7].shape[0] != m || a[8].shape[0] != m) {
        PyErr_Format(PyExc_ValueError, "walk_sums(): shapes disagree: rows %zd, a %zd/%zd, b %zd/%zd, "
                     "exponents %zd, start %zd, out %zd/%zd", m, n, a[2].shape[0], mb, a[4].shape[0],
                     a[5].shape[0], a[6].shape[0], a[7].shape[0], a[8].shape[0]);
        goto done;
    }
    const int64_t *rows = a[0].buf, *ex = a[5].buf;
    for (Py_ssize_t u = 0; u < m; u++) {
        if (rows[u] < 0 || rows[u] >= n) {
            PyErr_Format(PyExc_ValueError, "walk_sums(): rows[%zd]=%lld is not a sample of %zd",
                         u, (long long)rows[u], n);
            goto done;
        }
    }
    for (int j = 0; j < 3; j++) {
        if (ex[j] < -SLACKS_EXP || ex[j] > SLACKS_EXP) {
            PyErr_Format(PyExc_ValueError, "walk_sums(): exponents[%d]=%lld is out of range", j, (long long)ex[j]);
            goto done;
        }
    }
    int64_t E = ex[0] > ex[2] ? ex[0] : ex[2];
    E = mb && ex[1] > E ? ex[1] : E;
    Py_BEGIN_ALLOW_THREADS
    const double *alo = a[1].buf, *ahi = a[2].buf, *blo = a[3].buf, *bhi = a[4].buf, *start = a[6].buf;
    double *lo = a[7].buf, *hi = a[8].buf;
    double s[2] = {start[0], start[1]};
    slack_scale(&s[0], &s[1], 1, ex[2] - E);
    const int64_t ka = ex[0] - E, kb = ex[1] - E;
    if (ka >= -1022 && (!mb || kb >= -1022)) {  /* the factors are doubles: one multiplication each */
        const double fa = ldexp(1.0, (int)ka), fb = mb ? ldexp(1.0, (int)kb) : 0.0;
        for (Py_ssize_t u = 0; u < m; u++) {
            double xl = alo[rows[u]], xh = ahi[rows[u]];
            if (ka) {
                xl = slack_down(xl * fa);
                xh = slack_up(xh * fa);
            }
            if (mb) {
                double yl = blo[u], yh = nearest ? blo[u] : bhi[u];
                if (nearest) {  /* as enclose_nearest: f -+ |f| 2^-52 (exact), rounded and stepped outward */
                    yl = slack_down(yl - fabs(yl) * 0x1p-52);
                    yh = slack_up(yh + fabs(yh) * 0x1p-52);
                }
                if (kb) {
                    yl = slack_down(yl * fb);
                    yh = slack_up(yh * fb);
                }
                xl = slack_down(xl + yl);
                xh = slack_up(xh + yh);
            }
            s[0] = slack_down(s[0] + xl);
            s[1] = slack_up(s[1] + xh);
            lo[u] = s[0];
            hi[u] = s[1];
        }
    }
    else {  /* a factor below 2^-1022: each term by ldexp (slack_scale) */
        for (Py_ssize_t u = 0; u < m; u++) {
            double xl = alo[rows[u]], xh = ahi[rows[u]];
            slack_scale(&xl, &xh, 1, ka);
            if (mb) {
                double yl = blo[u], yh = nearest ? blo[u] : bhi[u];
                if (nearest) {
                    yl = slack_down(yl - fabs(yl) * 0x1p-52);
                    yh = slack_up(yh + fabs(yh) * 0x1p-52);
                }
                slack_scale(&yl, &yh, 1, kb);
                xl = slack_down(xl + yl);
                xh = slack_up(xh + yh);
            }
            s[0] = slack_down(s[0] + xl);
            s[1] = slack_up(s[1] + xh);
            lo[u] = s[0];
            hi[u] = s[1];
        }
    }
    Py_END_ALLOW_THREADS
    result = PyLong_FromLongLong((long long)E);
done:
    release_arrays(a, N_ARGS);
    return result;
}

/* One value on claim_slacks' stack: a block's ends and their exponent; a scalar (the same at every update of
 * the block: a constant, or a quantity that does not vary) holds them in lane 0 alone. */
struct slack_value {
    double lo[SLACKS_BLOCK], hi[SLACKS_BLOCK];
    int64_t e;
    int scalar;
};

/* A scalar's ends copied to all n lanes. */
static void
slack_spread(struct slack_value *v, Py_ssize_t n)
{
    if (v->scalar) {
        for (Py_ssize_t j = 1; j < n; j++) {
            v->lo[j] = v->lo[0];
            v->hi[j] = v->hi[0];
        }
        v->scalar = 0;
    }
}

/* out = x * y (out may be x or y). A scalar factor [c1, c2] with 0 < c1 and c2 finite takes the products of
 * the other's ends by c1 and c2 alone (y c is increasing in y; neither product is NaN unless the end is). */
static void
slack_mul(struct slack_value *x, struct slack_value *y, struct slack_value *out, Py_ssize_t n)
{
    const int64_t e = x->e + y->e;
    double top = 0.0;
    if (x->scalar && !y->scalar) {
        struct slack_value *t = x;
        x = y;
        y = t;
    }
    if (y->scalar && !x->scalar && y->lo[0] > 0 && y->hi[0] <= DBL_MAX) {
        const double c1 = y->lo[0], c2 = y->hi[0];
        for (Py_ssize_t j = 0; j < n; j++) {
            const double p = x->lo[j] * c1, q = x->lo[j] * c2, r = x->hi[j] * c1, s = x->hi[j] * c2;
            out->lo[j] = slack_down(p < q ? p : q);
            out->hi[j] = slack_up(r > s ? r : s);
            top = slack_top(slack_top(top, out->lo[j]), out->hi[j]);
        }
        out->scalar = 0;
    }
    else {
        const int scalar = x->scalar && y->scalar;
        slack_spread(x, n);
        slack_spread(y, n);
        const Py_ssize_t k = scalar ? 1 : n;
        for (Py_ssize_t j = 0; j < k; j++) {
            const double p = x->lo[j] * y->lo[j], q = x->lo[j] * y->hi[j], r = x->hi[j] * y->lo[j],
                         s = x->hi[j] * y->hi[j];
            if (isnan(p) || isnan(q) || isnan(r) || isnan(s)) {
                out->lo[j] = out->hi[j] = NAN;
                continue;
            }
            const double l1 = p < q ? p : q, l2 = r < s ? r : s, h1 = p > q ? p : q, h2 = r > s ? r : s;
            out->lo[j] = slack_down(l1 < l2 ? l1 : l2);
            out->hi[j] = slack_up(h1 > h2 ? h1 : h2);
            top = slack_top(slack_top(top, out->lo[j]), out->hi[j]);
        }
        out->scalar = scalar;
    }
    out->e = e;
    slack_normal(out->lo, out->hi, out->scalar ? 1 : n, &out->e, top);
}

PyDoc_STRVAR(claim_slacks_doc,
"claim_slacks($module, code, which, lanes_lo, lanes_hi, lane_e, scalars, scalar_e, out_lo, out_hi, /)\n"
"--\n"
"\n"
"Enclose each claim's slack at m updates: the postfix code (int64; END, QUANTITY j, ADD, SUB, MUL, NEG,\n"
"POW n; no CONSTANT) over quantities j that are lanes (which[j] = row of lanes_lo/lanes_hi (l, m)\n"
"float64, at 2^lane_e[row]) or scalars (which[j] = -1: scalars (q, 2) float64 at 2^scalar_e[j]). Writes\n"
"each claim's ends into its row of out_lo, out_hi (claims, m), NaN read as -inf and +inf (a block's\n"
"once its lanes are read: out may be the lanes' first rows), and returns the claims' exponents (a list\n"
"of int).");

static PyObject *
claim_slacks(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    static const char func[] = "claim_slacks";
    enum { N_ARGS = 9 };
    static const struct array_arg spec[N_ARGS] = {
        {"code", 1, INT64_ITEMS, 0}, {"which", 1, INT64_ITEMS, 0}, {"lanes_lo", 2, FLOAT64_ITEMS, 0},
        {"lanes_hi", 2, FLOAT64_ITEMS, 0}, {"lane_e", 1, INT64_ITEMS, 0}, {"scalars", 2, FLOAT64_ITEMS, 0},
        {"scalar_e", 1, INT64_ITEMS, 0}, {"out_lo", 2, FLOAT64_ITEMS, 1}, {"out_hi", 2, FLOAT64_ITEMS, 1},
    };
    Py_buffer a[N_ARGS];
    const int fetched = get_arrays(func, args, nargs, spec, N_ARGS, a) == 0;
    PyObject *result = NULL;
    int64_t *claim_e = NULL, *block_e = NULL;
    struct slack_value *stack = NULL;
    double *pending = NULL;
    if (!fetched) {
        goto done;
    }
    const int64_t *code = a[0].buf, *which = a[1].buf, *lane_e = a[4].buf, *scalar_e = a[6].buf;
    const Py_ssize_t length = a[0].shape[0], nq = a[1].shape[0], nl = a[2].shape[0], m = a[2].shape[1];
    const Py_ssize_t claims = a[7].shape[0];
    if (a[3].shape[0] != nl || a[3].shape[1] != m || a[4].shape[0] != nl || a[5].shape[0] != nq
        || a[5].shape[1] != 2 || a[6].shape[0] != nq || a[8].shape[0] != claims || a[7].shape[1] != m
        || a[8].shape[1] != m) {
        PyErr_SetString(PyExc_ValueError, "claim_slacks(): the arrays' shapes disagree");
        goto done;
    }
    for (Py_ssize_t j = 0; j < nq; j++) {
        if (which[j] < -1 || which[j] >= nl || scalar_e[j] < -SLACKS_EXP || scalar_e[j] > SLACKS_EXP) {
            PyErr_Format(PyExc_ValueError, "claim_slacks(): quantity %zd: which=%lld or its exponent is out of range",
                         j, (long long)which[j]);
            goto done;
        }
    }
    for (Py_ssize_t j = 0; j < nl; j++) {
        if (lane_e[j] < -SLACKS_EXP || lane_e[j] > SLACKS_EXP) {
            PyErr_Format(PyExc_ValueError, "claim_slacks(): lane_e[%zd]=%lld is out of range", j, (long long)lane_e[j]);
            goto done;
        }
    }
    /* the program's shape: operands in range, the stack within SLACKS_DEPTH, one value per END, `claims` ENDs */
    Py_ssize_t depth = 0, ends = 0;
    for (Py_ssize_t pc = 0; pc < length; pc++) {
        const int64_t op = code[pc];
        int pops = 0, pushes = 1;
        if (op == SLACK_QUANTITY || op == SLACK_POW) {
            if (pc + 1 >= length || (op == SLACK_QUANTITY && (code[pc + 1] < 0 || code[pc + 1] >= nq))
                || (op == SLACK_POW && (code[pc + 1] < 1 || code[pc + 1] > 16))) {
                PyErr_Format(PyExc_ValueError, "claim_slacks(): code[%zd]=%lld has no operand in range", pc,
                             (long long)op);
                goto done;
            }
            pops = op == SLACK_POW;
            pc++;
        }
        else if (op == SLACK_ADD || op == SLACK_SUB || op == SLACK_MUL) {
            pops = 2;
        }
        else if (op == SLACK_NEG || op == SLACK_END) {
            pops = 1;
            pushes = op == SLACK_NEG;
        }
        else {
            PyErr_Format(PyExc_ValueError, "claim_slacks(): code[%zd]=%lld is no operation here", pc, (long long)op);
            goto done;
        }
        if (depth < pops || depth - pops + pushes > SLACKS_DEPTH - 1) {
            PyErr_Format(PyExc_ValueError, "claim_slacks(): the program's stack is wrong at [%zd]", pc);
            goto done;
        }
        depth += pushes - pops;
        if (op == SLACK_END) {
            if (depth != 0) {
                PyErr_Format(PyExc_ValueError, "claim_slacks(): claim %zd leaves values behind", ends);
                goto done;
            }
            ends++;
        }
    }
    if (depth != 0 || ends != claims) {
        PyErr_Format(PyExc_ValueError, "claim_slacks(): the program has %zd claims, out has %zd", ends, claims);
        goto done;
    }
    const Py_ssize_t blocks = (m + SLACKS_BLOCK - 1) / SLACKS_BLOCK;
    claim_e = PyMem_Calloc((size_t)(claims ? claims : 1), sizeof(int64_t));
    block_e = PyMem_Calloc((size_t)(claims * blocks > 0 ? claims * blocks : 1), sizeof(int64_t));
    stack = PyMem_Malloc(SLACKS_DEPTH * sizeof(struct slack_value));
    pending = PyMem_Malloc((size_t)(claims ? claims : 1) * 2 * SLACKS_BLOCK * sizeof(double));
    if (claim_e == NULL || block_e == NULL || stack == NULL || pending == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    const double *llo = a[2].buf, *lhi = a[3].buf, *scalars = a[5].buf;
    double *olo = a[7].buf, *ohi = a[8].buf;
    for (Py_ssize_t b = 0; b < blocks; b++) {
        const Py_ssize_t at = b * SLACKS_BLOCK, n = m - at < SLACKS_BLOCK ? m - at : SLACKS_BLOCK;
        Py_ssize_t top = 0, c = 0;
        for (Py_ssize_t pc = 0; pc < length; pc++) {
            const int64_t op = code[pc];
            struct slack_value *x = top >= 1 ? &stack[top - 1] : stack, *y = top >= 2 ? &stack[top - 2] : stack;
            if (op == SLACK_QUANTITY) {
                const int64_t j = code[++pc];
                struct slack_value *v = &stack[top++];
                if (which[j] >= 0) {
                    memcpy(v->lo, llo + which[j] * m + at, (size_t)n * sizeof(double));
                    memcpy(v->hi, lhi + which[j] * m + at, (size_t)n * sizeof(double));
                    v->e = lane_e[which[j]];
                    v->scalar = 0;
                }
                else {
                    v->lo[0] = scalars[2 * j];
                    v->hi[0] = scalars[2 * j + 1];
                    v->e = scalar_e[j];
                    v->scalar = 1;
                }
            }
            else if (op == SLACK_ADD || op == SLACK_SUB) {  /* y op x, each brought to the larger exponent */
                const int64_t e = x->e > y->e ? x->e : y->e;
                const int scalar = x->scalar && y->scalar;
                if (!scalar) {
                    slack_spread(x, n);
                    slack_spread(y, n);
                }
                const Py_ssize_t k = scalar ? 1 : n;
                slack_scale(x->lo, x->hi, k, x->e - e);
                slack_scale(y->lo, y->hi, k, y->e - e);
                double big = 0.0;  /* the ends' largest finite magnitude */
                if (op == SLACK_ADD) {
                    for (Py_ssize_t l = 0; l < k; l++) {
                        y->lo[l] = slack_down(y->lo[l] + x->lo[l]);
                        y->hi[l] = slack_up(y->hi[l] + x->hi[l]);
                        big = slack_top(slack_top(big, y->lo[l]), y->hi[l]);
                    }
                }
                else {
                    for (Py_ssize_t l = 0; l < k; l++) {
                        const double lo = y->lo[l] - x->hi[l];
                        y->hi[l] = slack_up(y->hi[l] - x->lo[l]);
                        y->lo[l] = slack_down(lo);
                        big = slack_top(slack_top(big, y->lo[l]), y->hi[l]);
                    }
                }
                y->e = e;
                y->scalar = scalar;
                slack_normal(y->lo, y->hi, k, &y->e, big);
                top--;
            }
            else if (op == SLACK_MUL) {
                slack_mul(y, x, y, n);
                top--;
            }
            else if (op == SLACK_NEG) {
                for (Py_ssize_t l = 0; l < (x->scalar ? 1 : n); l++) {
                    const double lo = x->lo[l];
                    x->lo[l] = -x->hi[l];
                    x->hi[l] = -lo;
                }
            }
            else if (op == SLACK_POW) {
                const int64_t p = code[++pc];
                struct slack_value *base = &stack[top];  /* (a free slot: the stack keeps one) */
                memcpy(base, x, sizeof(*base));
                for (int64_t i = 1; i < p; i++) {
                    slack_mul(x, base, x, n);
                }
            }
            else {  /* SLACK_END: kept until the block's lanes are read (out may be the lanes' own rows) */
                slack_spread(x, n);
                memcpy(pending + 2 * c * SLACKS_BLOCK, x->lo, (size_t)n * sizeof(double));
                memcpy(pending + (2 * c + 1) * SLACKS_BLOCK, x->hi, (size_t)n * sizeof(double));
                block_e[c * blocks + b] = x->e;
                if (b == 0 || x->e > claim_e[c]) {
                    claim_e[c] = x->e;
                }
                top--;
                c++;
            }
        }
        for (Py_ssize_t k = 0; k < claims; k++) {
            memcpy(olo + k * m + at, pending + 2 * k * SLACKS_BLOCK, (size_t)n * sizeof(double));
            memcpy(ohi + k * m + at, pending + (2 * k + 1) * SLACKS_BLOCK, (size_t)n * sizeof(double));
        }
    }
    for (Py_ssize_t c = 0; c < claims; c++) {  /* every block at the claim's exponent; NaN read as unbounded */
        for (Py_ssize_t b = 0; b < blocks; b++) {
            const Py_ssize_t at = b * SLACKS_BLOCK, n = m - at < SLACKS_BLOCK ? m - at : SLACKS_BLOCK;
            double *lo = olo + c * m + at, *hi = ohi + c * m + at;
            slack_scale(lo, hi, n, block_e[c * blocks + b] - claim_e[c]);
            for (Py_ssize_t l = 0; l < n; l++) {
                lo[l] = isnan(lo[l]) ? -INFINITY : lo[l];
                hi[l] = isnan(hi[l]) ? INFINITY : hi[l];
            }
        }
    }
    Py_END_ALLOW_THREADS
    result = PyList_New(claims);
    for (Py_ssize_t c = 0; result != NULL && c < claims; c++) {
        PyObject *e = PyLong_FromLongLong((long long)claim_e[c]);
        if (e == NULL) {
            Py_CLEAR(result);
            break;
        }
        PyList_SET_ITEM(result, c, e);
    }
done:
    PyMem_Free(claim_e);
    PyMem_Free(block_e);
    PyMem_Free(stack);
    PyMem_Free(pending);
    release_arrays(a, N_ARGS);
    return result;
}

#endif /* VERIFY_PERCEPTRON_SLACKS_H */
