/* Note 000's perceptron in C, for the harness's --command protocol.

   Usage: perceptron TRAIN.csv OUT [UPDATES.jsonl]

   TRAIN.csv: one sample a line, the features then the label (-1 or +1), no header.
   OUT: the weights w1 ... wd then the bias b, one a line (%.17g round-trips a double).
   UPDATES.jsonl (optional): one line per update, {"sample": i, "weights": [w1, ..., wd, b]}.

   Compiled with -DBROKEN, a score of exactly 0 is not taken for a mistake (< 0 instead of <= 0):
   the harness must catch that. Compiled with -DSHORT, OUT is printed with %f (six decimal places,
   C's default), as much real code prints, and with -DSHORT_G with %g (six significant digits): the
   harness must name the rounding. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_EPOCHS 1000
#define MAX_LINE 65536

#ifdef BROKEN
#define MISTAKE(margin) ((margin) < 0)
#else
#define MISTAKE(margin) ((margin) <= 0)
#endif

static int read_data(const char *path, double **X, double **y, int *n, int *d) {
    FILE *in = fopen(path, "r");
    if (!in) return 1;
    static char line[MAX_LINE];
    int rows = 0, cols = -1, capacity = 16;
    double *values = malloc(sizeof(double) * (size_t)capacity * 64), *labels = malloc(sizeof(double) * (size_t)capacity);
    while (fgets(line, sizeof line, in)) {
        double cell[64];
        int k = 0;
        for (char *token = strtok(line, ",\n"); token && k < 64; token = strtok(NULL, ",\n")) cell[k++] = strtod(token, NULL);
        if (k == 0) continue;
        if (cols < 0) cols = k - 1;
        if (k - 1 != cols) { fclose(in); return 2; }
        if (rows == capacity) {
            capacity *= 2;
            values = realloc(values, sizeof(double) * (size_t)capacity * 64);
            labels = realloc(labels, sizeof(double) * (size_t)capacity);
        }
        memcpy(values + (size_t)rows * 64, cell, sizeof(double) * (size_t)cols);
        labels[rows++] = cell[cols];
    }
    fclose(in);
    *X = values; *y = labels; *n = rows; *d = cols;
    return 0;
}

#if defined(SHORT_G)
#define OUT_FORMAT "%g%s"
#elif defined(SHORT)
#define OUT_FORMAT "%f%s"
#else
#define OUT_FORMAT "%.17g%s"
#endif

static void write_weights(FILE *out, const double *w, int d, double b, const char *sep, const char *end,
                          const char *format) {
    for (int j = 0; j < d; j++) fprintf(out, format, w[j], sep);
    fprintf(out, format, b, end);
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s TRAIN.csv OUT [UPDATES.jsonl]\n", argv[0]); return 2; }
    double *X, *y;
    int n, d;
    if (read_data(argv[1], &X, &y, &n, &d)) { fprintf(stderr, "cannot read %s\n", argv[1]); return 2; }
    FILE *updates = argc > 3 ? fopen(argv[3], "w") : NULL;
    double *w = calloc((size_t)d, sizeof(double)), b = 0.0;
    for (int epoch = 0; epoch < MAX_EPOCHS; epoch++) {
        int clean = 1;
        for (int i = 0; i < n; i++) {
            const double *x = X + (size_t)i * 64;
            double score = b;
            for (int j = 0; j < d; j++) score += w[j] * x[j];
            if (MISTAKE(y[i] * score)) {
                for (int j = 0; j < d; j++) w[j] += y[i] * x[j];
                b += y[i];
                clean = 0;
                if (updates) {
                    fprintf(updates, "{\"sample\": %d, \"weights\": [", i);
                    write_weights(updates, w, d, b, ", ", "]}\n", "%.17g%s");
                }
            }
        }
        fprintf(stderr, "epoch %d\n", epoch + 1);  /* progress, as real code prints: the harness keeps it */
        if (clean) break;
    }
    FILE *out = fopen(argv[2], "w");
    if (!out) return 2;
    write_weights(out, w, d, b, "\n", "\n", OUT_FORMAT);
    fclose(out);
    if (updates) fclose(updates);
    return 0;
}
