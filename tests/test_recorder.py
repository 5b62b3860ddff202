"""`check.recorder`: the --trace writer writes every update exactly, whatever the size of its numbers."""

from __future__ import annotations

import io
import json
import sys
from fractions import Fraction

from verify_perceptron.check.recorder import TraceRecorder
from verify_perceptron.data.exact_text import exact_text
from verify_perceptron.data.dataset import Dataset
from verify_perceptron.notes.conventions import CONVENTIONS
from verify_perceptron.run import fast


def test_a_weight_past_pythons_4300_digit_limit_is_written_whole() -> None:
    # str() of an int of 4,401 digits raises ValueError (an internal error of --trace before).
    big = Fraction(10**4400 + 1, 3)
    data = Dataset([[big], [-big]], [1, -1])
    out = io.StringIO()
    fast.run(data, observer=TraceRecorder(out, data, CONVENTIONS["classic"], Fraction(1)))
    first = json.loads(out.getvalue().splitlines()[0])
    assert first["weights"] == ["1", "1" + "0" * 4399 + "1/3"]


def test_exact_text_is_str_at_every_length_and_sign() -> None:
    values = [Fraction(sign * (7 * 10 ** (digits - 1) + 3), 10 ** (digits // 2) + 1 if digits % 2 else 1)
              for digits in (1, 4299, 4300, 4301, 8001, 16003, 40000) for sign in (1, -1)]
    written = [exact_text(v) for v in values]
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)  # Python's own conversion, unlimited, as the reference
    try:
        assert written == [str(v) for v in values]
    finally:
        sys.set_int_max_str_digits(limit)
