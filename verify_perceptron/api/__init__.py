"""The notebook front: `verify` (data or a file in, a report that prints and shows as HTML out) and the
scikit-learn-style `ExactPerceptron` (scikit-learn optional). May import every part but `harness`,
`proofs` and the CLI; the package's `__init__` re-exports it."""
