"""The checker's C entry points that fetch their arguments from a table (`get_arrays`, data/_arrays.h).

`walk_sums`, `claim_slacks`, `record_sums`, `fact_keys` and `check_wide` each take a fixed list of
arrays; every one is given, in turn, the wrong item type, the wrong number of dimensions, a strided
view, a read-only array where it is written, and something that is not an array, and the error must
be the one for that argument, naming the function and the argument; the call with the wrong number
of arguments says how many it takes. After every failure no argument's buffer is still held.
"""

from __future__ import annotations

import array
from typing import Any

import numpy as np
import pytest

from tests.kernel_cases import buffer_format
from verify_perceptron.check import kernel

#: (name, ndim, items, written) of each argument, in order, as the entry points' docstrings and
#: `verify_perceptron.check.kernel` give them; ndim 0 is an int argument, not an array.
I, F, S, B = "int64", "float64", "samples", "flags"
TABLES: dict[str, list[tuple[str, int, str, bool]]] = {
    "walk_sums": [("rows", 1, I, False), ("a_lo", 1, F, False), ("a_hi", 1, F, False), ("b_lo", 1, F, False),
                  ("b_hi", 1, F, False), ("exponents", 1, I, False), ("start", 1, F, False),
                  ("out_lo", 1, F, True), ("out_hi", 1, F, True)],
    "claim_slacks": [("code", 1, I, False), ("which", 1, I, False), ("lanes_lo", 2, F, False),
                     ("lanes_hi", 2, F, False), ("lane_e", 1, I, False), ("scalars", 2, F, False),
                     ("scalar_e", 1, I, False), ("out_lo", 2, F, True), ("out_hi", 2, F, True)],
    "record_sums": [("scores", 2, I, False), ("rows", 1, I, False), ("norms", 2, I, False), ("r_sq", 1, I, False),
                    ("starts", 1, I, False), ("greatest", 2, I, True), ("sums", 2, I, True)],
    "fact_keys": [("rows", 1, I, False), ("scores", 2, I, False), ("labels", 1, I, False),
                  ("first_at", 1, I, True), ("first", 0, I, False), ("out", 1, I, True)],
    "check_wide": [("Z", 2, S, False), ("W", 1, I, True), ("counts", 1, I, True), ("tie", 1, B, False),
                   ("norms", 2, I, False), ("margins", 2, I, False), ("rows", 1, I, False),
                   ("scores", 2, I, False), ("program", 1, I, False), ("quantities", 2, I, False),
                   ("slots", 1, I, False), ("state", 2, I, True), ("failed", 1, B, False), ("best", 2, I, True),
                   ("best_at", 1, I, True)],
}
DTYPES = {I: np.int64, F: np.float64, S: np.int64, B: np.bool_}
WRONG = {I: np.float64, F: np.int64, S: np.float64, B: np.int64}
WANTED = {I: "int64", F: "float64", S: "int16, int32 or int64", B: "bool or uint8"}
CASES = [(name, j) for name, table in TABLES.items() for j, (_, ndim, _, _) in enumerate(table) if ndim]

pytestmark = pytest.mark.skipif(kernel.check_wide is None, reason=f"no compiled replay: {kernel.IMPORT_ERROR}")


def good(ndim: int, items: str) -> Any:
    """A valid argument: an int for ndim 0; 1-D int64 or float64 as array.array (it refuses to grow while its
    buffer is held: `held`), anything else a NumPy array of two entries a dimension."""
    if ndim == 0:
        return 1
    if ndim == 1 and items in (I, F):
        return array.array("q" if items == I else "d", [0, 0])
    return np.zeros((2,) * ndim, dtype=DTYPES[items])


def arguments(name: str) -> list[Any]:
    """Valid arguments for `name`, in order."""
    return [good(ndim, items) for _, ndim, items, _ in TABLES[name]]


def held(args: list[Any]) -> list[int]:
    """The positions of the array.array arguments whose buffers are still held (they cannot be resized)."""
    still = []
    for j, a in enumerate(args):
        if isinstance(a, array.array):
            try:
                a.append(0)
            except BufferError:
                still.append(j)
            else:
                a.pop()
    return still


def raises(name: str, args: list[Any], error: type[Exception]) -> str:
    """The message of the `error` that entry point `name` raises on `args`, after checking it holds nothing."""
    with pytest.raises(error) as raised:
        getattr(kernel, name)(*args)
    assert held(args) == []
    return str(raised.value)


@pytest.mark.parametrize("name, j", CASES)
def test_each_argument_is_checked_and_named(name: str, j: int) -> None:
    """Wrong items, dimensions, strides, writability and a non-array, each named for argument j."""
    arg, ndim, items, written = TABLES[name][j]
    prefix = f"{name}(): {arg} must "
    args = arguments(name)
    args[j] = np.zeros((2,) * ndim, dtype=WRONG[items])
    assert raises(name, args, TypeError).startswith(f"{prefix}hold {WANTED[items]} items, got format="
                                                    f"'{buffer_format(WRONG[items])}' itemsize=8")
    args[j] = np.zeros((2,) * (ndim + 1), dtype=DTYPES[items])
    assert raises(name, args, ValueError) == f"{prefix}be {ndim}-D, got ndim={ndim + 1}"
    args[j] = np.zeros((2,) * (ndim - 1) + (4,), dtype=DTYPES[items])[..., ::2]
    assert raises(name, args, ValueError).startswith(f"{prefix}be C-contiguous, got strides=")
    args[j] = [0, 0]
    assert raises(name, args, TypeError) == f"{prefix}be an array supporting the buffer protocol, got list"
    if written:
        args[j] = np.zeros((2,) * ndim, dtype=DTYPES[items])
        args[j].flags.writeable = False
        assert raises(name, args, ValueError) == f"{prefix}be writable, got a read-only buffer"


@pytest.mark.parametrize("name", sorted(TABLES))
def test_the_number_of_arguments_is_checked(name: str) -> None:
    """One argument more or fewer: a TypeError saying how many the entry point takes."""
    count = len(TABLES[name])
    for args in (arguments(name)[:-1], arguments(name) + [0]):
        assert raises(name, args, TypeError) == f"{name}() takes {count} arguments, got {len(args)}"


@pytest.mark.parametrize("name", sorted(TABLES))
def test_valid_arguments_pass_to_the_shapes(name: str) -> None:
    """Arguments of the right kinds get past the fetching: what fails then is the entry point's own check of
    how their lengths or contents agree (check_wide's program, of no claims, is first), a ValueError, and
    every buffer is let go."""
    message = raises(name, arguments(name), ValueError)
    assert not any(f" {arg} must " in message for arg, _, _, _ in TABLES[name]), message
