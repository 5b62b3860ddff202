"""The optional C kernels; every other setting of the package lives in pyproject.toml.

One extension per part, each with its own Python wrapper, sharing only the
header `verify_perceptron/data/_exact.h` and the argument parsing it includes,
`verify_perceptron/data/_arrays.h` (compiled into each, so the checker's
replay links to nothing of the engine):

- `verify_perceptron.data._rows`: the signed samples and their scores
  (`verify_perceptron.data.kernel`);
- `verify_perceptron.data._limbrows`: samples past int64 held in 64-bit limbs, their signed
  rows, squared norms and nearest doubles (`verify_perceptron.data.kernel`);
- `verify_perceptron.run._scan`: the engine's online passes
  (`verify_perceptron.run.kernel`);
- `verify_perceptron.check._replay`: the checker's replay
  (`verify_perceptron.check.kernel`), with the claims' program in
  `verify_perceptron/check/_program.h`;
- `verify_perceptron.notes._floor`: the passes over a column of margins of the
  soft-margin reference's floors (`verify_perceptron.notes.soft_floor`; floats only).

``optional=True``: if an extension cannot be compiled (no compiler, no
Python headers, a compiler without __int128 or GCC builtins), setuptools
warns and installs the package without it, and its wrapper falls back to
NumPy and Python. MANIFEST.in puts the sources and the header in an sdist.
"""

from setuptools import Extension, setup

SHARED = "verify_perceptron/data/_exact.h"
ARGUMENTS = "verify_perceptron/data/_arrays.h"  # the argument parsing, included by SHARED


def kernel(name: str, source: str, *headers: str) -> Extension:
    """An optional extension built from one C file, the shared header and its own `headers`."""
    return Extension(name, [source], include_dirs=["verify_perceptron/data"], depends=[SHARED, ARGUMENTS, *headers],
                     optional=True)


setup(
    ext_modules=[
        kernel("verify_perceptron.data._rows", "verify_perceptron/data/_rows.c", "verify_perceptron/data/_csv.h"),
        kernel("verify_perceptron.data._limbrows", "verify_perceptron/data/_limbrows.c", "verify_perceptron/data/_wide.h"),
        kernel("verify_perceptron.run._scan", "verify_perceptron/run/_scan.c", "verify_perceptron/data/_wide.h"),
        kernel("verify_perceptron.check._replay", "verify_perceptron/check/_replay.c",
               "verify_perceptron/check/_program.h", "verify_perceptron/check/_limbs.h",
               "verify_perceptron/check/_record.h", "verify_perceptron/check/_soft.h",
               "verify_perceptron/check/_deficits.h", "verify_perceptron/check/_slacks.h"),
        kernel("verify_perceptron.notes._floor", "verify_perceptron/notes/_floor.c"),
    ],
)
