"""Where data come in: exact rationals, readers (CSV, LIBSVM, NumPy), the worked examples, the
scaled-integer sample matrix (with its optional compiled row builder), and the trace record.
Imports nothing of the package but `errors`: every other part builds on it."""
