"""A command whose weights are written in another order and that departs in another way too: what is left after
the order is declared is diagnosed as a check in that order would diagnose it (its search's datasets), not from
the few datasets the first order failed on at once."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

from verify_perceptron.harness import check_implementation, command_implementation

#: Python's float perceptron at rate 0.1 printing [b, w1, ..., wd] with three decimals (NumPy's
#: `print(w.round(3))` of a weight vector holding its bias first): the order and the printing both depart.
BIAS_FIRST_ROUNDED = """
    import sys
    rows = [[float(v) for v in line.split(",")] for line in open(sys.argv[1]) if line.strip()]
    d = len(rows[0]) - 1
    w = [0.0] * (d + 1)
    for _ in range(1000):
        mistakes = 0
        for *x, y in rows:
            s = w[0]
            for j in range(d):
                s += w[j + 1] * x[j]
            if y * s <= 0:
                w[0] += 0.1 * y
                for j in range(d):
                    w[j + 1] += 0.1 * y * x[j]
                mistakes += 1
        if not mistakes:
            break
    print(" ".join("%.3f" % v for v in w))
"""


def test_the_departure_left_after_the_order_is_named_as_a_check_in_that_order_names_it(tmp_path: Path) -> None:
    program = tmp_path / "perceptron.py"
    program.write_text(textwrap.dedent(BIAS_FIRST_ROUNDED), encoding="utf-8")
    command = command_implementation(f"{sys.executable} -S {program} {{train}}")
    result = check_implementation(command, examples=30)
    assert not result.passed
    layout = result.counterexample.diagnoses[0] if result.counterexample else None
    assert layout is not None and layout.code == "weight-layout", result.report()
    then = layout.parameters["then"]
    assert isinstance(then, dict) and then["code"] == "printed-rounding", result.report()
    assert "%.3f" in layout.text and "--bias first" in layout.text
