"""Certificates about the data: exact separability (separator or Gordan certificate), the
max-margin separators, and the comparison of the five notes' bounds on the same data.
May import `data`, `notes`, `run` and `errors`."""
