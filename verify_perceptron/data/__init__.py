"""Where data come in: exact rationals, readers (CSV, LIBSVM, NumPy), the worked examples, the
scaled-integer sample matrix, and the trace record every run writes.
Imports nothing of the package but `errors` (and the compiled row builder of `run.kernel`)."""
