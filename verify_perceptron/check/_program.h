/*
 * The claims' compiled program (verify_perceptron.notes.claims.compile_program), evaluated
 * exactly in 128 bits over a block of updates at once. Part of verify_perceptron.check._replay,
 * which includes it once; see check_online there.
 *
 * The program is postfix code over the quantities, one slack per END. It is evaluated one
 * operation at a time over every update of the block (a lane per value), not one update at a
 * time over the whole program: the interpreter then branches once per operation and block,
 * where it branched once per operation and update (an indirect jump that the processor
 * mispredicts, about twenty per update). Each update's arithmetic is the same as evaluating the
 * program on that update alone: the same operations, in the same order, on the same values,
 * each checked for overflow.
 */

#ifndef VERIFY_PERCEPTRON_PROGRAM_H
#define VERIFY_PERCEPTRON_PROGRAM_H

#include "_exact.h"

#include <string.h>

#if SCAN_WIDE
enum { OP_END = 0, OP_QUANTITY = 1, OP_CONSTANT = 2, OP_ADD = 3, OP_SUB = 4, OP_MUL = 5, OP_NEG = 6,
       OP_POW = 7 };
#define STACK_DEPTH 64
#define MAX_QUANTITIES 64
#define MAX_CLAIMS 64
/* Updates evaluated together: a lane of values is 2 KiB. */
#define BLOCK 128

/* Check the program's shape once: operands in range, stack within bounds, one value per END.
 * Returns the number of claims and sets *depth to the deepest the stack gets, or -1 with ValueError. */
static Py_ssize_t
program_claims(const int64_t *code, Py_ssize_t length, Py_ssize_t n_quantities, Py_ssize_t *depth_out)
{
    Py_ssize_t depth = 0, deepest = 0, claims = 0;
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
        deepest = depth > deepest ? depth : deepest;
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
    *depth_out = deepest;
    return claims;
}

/* One value per update of a block, as separate low and high words. GCC writes an int128 as two
 * 64-bit stores and copies one with a single 16-byte load, which the processor cannot forward
 * from those two stores (a stall of about a dozen cycles); words read back as words are forwarded. */
typedef struct {
    uint64_t lo[BLOCK];
    int64_t hi[BLOCK];
} Lane;

static inline int128
lane_get(const Lane *a, Py_ssize_t t)
{
    return (int128)(((unsigned __int128)(uint64_t)a->hi[t] << 64) | a->lo[t]);
}

static inline void
lane_set(Lane *a, Py_ssize_t t, int128 v)
{
    a->lo[t] = (uint64_t)v;
    a->hi[t] = (int64_t)(v >> 64);
}

static void
lane_fill(Lane *a, Py_ssize_t n, int128 v)
{
    for (Py_ssize_t t = 0; t < n; t++) {
        lane_set(a, t, v);
    }
}

/* r = x OP y for updates 0..*cut-1; at the first update whose result leaves 128 bits, *cut
 * becomes that update (nothing from it on is used). */
#define LANE_BINARY(NAME, OVERFLOW)                                                     \
static void                                                                             \
NAME(const Lane *x, const Lane *y, Lane *r, Py_ssize_t *cut)                            \
{                                                                                       \
    const Py_ssize_t n = *cut;                                                          \
    for (Py_ssize_t t = 0; t < n; t++) {                                                \
        int128 v;                                                                       \
        if (OVERFLOW(lane_get(x, t), lane_get(y, t), &v)) {                             \
            *cut = t;                                                                   \
            return;                                                                     \
        }                                                                               \
        lane_set(r, t, v);                                                              \
    }                                                                                   \
}
LANE_BINARY(lane_add, __builtin_add_overflow)
LANE_BINARY(lane_sub, __builtin_sub_overflow)
LANE_BINARY(lane_mul, __builtin_mul_overflow)

/* r = -x, and r = x^e (e >= 1, by e - 1 checked products as the single-update program makes them). */
static void
lane_neg(const Lane *x, Lane *r, Py_ssize_t *cut)
{
    const Py_ssize_t n = *cut;
    for (Py_ssize_t t = 0; t < n; t++) {
        int128 v;
        if (__builtin_sub_overflow((int128)0, lane_get(x, t), &v)) {
            *cut = t;
            return;
        }
        lane_set(r, t, v);
    }
}

static void
lane_pow(const Lane *x, int64_t e, Lane *r, Py_ssize_t *cut)
{
    const Py_ssize_t n = *cut;
    for (Py_ssize_t t = 0; t < n; t++) {
        const int128 base = lane_get(x, t);
        int128 v = base;
        for (int64_t k = e; k > 1; k--) {
            if (__builtin_mul_overflow(v, base, &v)) {
                *cut = t;
                return;
            }
        }
        lane_set(r, t, v);
    }
}

/* Run the (checked) program over updates 0..nb-1: quantity j of update t is quantity[j] at t,
 * `own` has a lane per stack position (the program's depth), and claim c's slacks go to
 * slack[c]. Returns the first update at which an intermediate value leaves 128 bits, or nb:
 * every slack before it is exact. */
static Py_ssize_t
run_block(const int64_t *code, Py_ssize_t length, Lane *const *quantity, Py_ssize_t nb, Lane *own, Lane *slack)
{
    const Lane *stack[STACK_DEPTH];
    Py_ssize_t top = 0, claim = 0, cut = nb;
    for (Py_ssize_t pc = 0; pc < length; pc++) {
        /* a value's lane is the quantity's own, or `own` at its stack position, which it keeps */
        switch (code[pc]) {
        case OP_END:
            top--;
            memcpy(slack[claim].lo, stack[top]->lo, cut * sizeof(uint64_t));
            memcpy(slack[claim].hi, stack[top]->hi, cut * sizeof(int64_t));
            claim++;
            break;
        case OP_QUANTITY:
            stack[top++] = quantity[code[++pc]];
            break;
        case OP_CONSTANT:
            lane_fill(&own[top], cut, code[++pc]);
            stack[top] = &own[top];
            top++;
            break;
        case OP_ADD: case OP_SUB: case OP_MUL: {
            const Lane *y = stack[--top];
            Lane *r = &own[top - 1];
            (code[pc] == OP_ADD ? lane_add : code[pc] == OP_SUB ? lane_sub : lane_mul)(stack[top - 1], y, r, &cut);
            stack[top - 1] = r;
            break;
        }
        case OP_NEG:
            lane_neg(stack[top - 1], &own[top - 1], &cut);
            stack[top - 1] = &own[top - 1];
            break;
        case OP_POW:
            lane_pow(stack[top - 1], code[++pc], &own[top - 1], &cut);
            stack[top - 1] = &own[top - 1];
            break;
        }
    }
    return cut;
}
#endif

#endif
