"""The optional C kernel; every other setting of the package lives in pyproject.toml.

``optional=True``: if the extension cannot be compiled (no compiler, no
Python headers, a compiler without __int128 or GCC builtins), setuptools
warns and installs the package without it, and `verify_perceptron.run.kernel`
falls back to NumPy.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("verify_perceptron.run._scan", ["verify_perceptron/run/_scan.c"], optional=True),
    ],
)
