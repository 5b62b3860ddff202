"""A command's weights file as programs in other languages print a vector (`harness._weights_text`): R's
``print``, ``write.csv`` and ``write.table``; Python lists of NumPy or exact scalars; NumPy's ``array(...)``;
Octave's ``w =``; JSON objects and lines that name the weights and the bias. Each reads the values written, and
nothing else: a name the check does not know, a wrong count or a word is refused by name."""

from __future__ import annotations

import textwrap
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from verify_perceptron.harness import check_dataset, command_implementation
from verify_perceptron.harness._protocol import CommandFailed, read_weights

HALF, MINUS_THIRD, TWO = Fraction(1, 2), Fraction(-1, 3), Fraction(2)


def _read(tmp_path: Path, text: str, n_features: int = 2) -> object:
    path = tmp_path / "out.txt"
    path.write_text(text)
    return read_weights(str(path), n_features, exact=True)


@pytest.mark.parametrize("text", [
    "[1]  0.5 -1/3\n[3]  2\n",  # R's print, wrapped
    '"","x"\n"1",0.5\n"2",-1/3\n"3",2\n',  # R's write.csv(w, path)
    '"x"\n"1" 0.5\n"2" -1/3\n"3" 2\n',  # R's write.table(w, path)
    '"1" 0.5\n"2" -1/3\n"3" 2\n',  # write.table(w, path, col.names=FALSE)
    "[np.float64(0.5), Fraction(-1, 3), np.int64(2)]\n",
    "[Fraction('1/2'), Fraction('-1/3'), Decimal('2')]\n",
    "array([ 0.5 , -1/3, 2. ], dtype=float32)\n",
    "w =\n\n   0.5\n  -1/3\n   2\n\n",  # Octave, a vector named alone: its values in order
    '["0.5", "-1/3", "2"]\n',  # JSON strings
    "((0.5, -1/3), 2)\n",
    "Rational{Int64}[1//2, -1//3, 2//1]\n",  # Julia's println of a vector of rationals
    "Float32[0.5, -1/3, 2.0]\n",
    "# weights, then the bias\n0.5 -1/3 2\n",  # np.savetxt(path, w, header=...)
    "w1,w2,b\n0.5,-1/3,2\n",  # pandas' to_csv(index=False) of one row
    "Float64Array(3) [ 0.5, -1/3, 2 ]\n",  # node's console.log of a typed array
    "tensor([ 0.5000, -1/3,  2.0000])\n",  # PyTorch's print of a tensor: it was "'tensor' is not a number"
    "tensor([[ 0.5000, -1/3]], requires_grad=True) tensor([2.], grad_fn=<AddBackward0>)\n",
    "tensor([0.5, -1/3, 2.0], dtype=torch.float64, device='cuda:0')\n",
    "tf.Tensor([ 0.5 -1/3  2. ], shape=(3,), dtype=float32)\n",  # TensorFlow's
])
def test_a_vector_printed_as_other_languages_print_it_is_its_values(tmp_path: Path, text: str) -> None:
    assert _read(tmp_path, text) == [HALF, MINUS_THIRD, TWO]


@pytest.mark.parametrize("text", [
    '{"w": [0.5, "-1/3"], "b": 2}',
    '{"bias": 2, "weights": [0.5, "-1/3"], "epochs": 7}',  # the bias first, a key the check does not read
    '{"coef_": [[0.5, "-1/3"]], "intercept_": [2]}',  # scikit-learn's shapes
    "w = [0.5, -1/3]\nb = 2\n",
    "bias: 2\nweights: 0.5 -1/3\n",
    "Weights: [0.5 -1/3]  Bias: 2\n",
    "{ weights: [ 0.5, -1/3 ], bias: 2 }\n",  # node's console.log of an object
    "{\n  weights: [\n    0.5, -1/3\n  ],\n  bias: 2\n}\n",  # ... and of a longer one
    "Perceptron { weights: [0.5, -1/3], bias: 2.0 }\n",  # Rust's {:?} of a struct, JavaScript's of a class
    "Perceptron {\n    weights: [\n        0.5,\n        -1/3,\n    ],\n    bias: 2.0,\n}\n",  # Rust's {:#?}
    "{'w': array([ 0.5, -1/3]), 'b': np.float64(2.0)}\n",  # Python's print of a dict
    "Model(w=[0.5, -1/3], b=2)\n",  # a dataclass's or a named tuple's repr
    "Final weights: [ 0.5 -1/3] bias: 2\n",  # print("Final weights:", w, "bias:", b): a caption before the names
    "$VAR1 = {\n          'bias' => 2,\n          'weights' => [\n            '0.5',\n            '-1/3'\n ]\n };\n",
    "w1=0.5, w2=-1/3, b=2\n",  # each weight named with its index: it was "'w1' is not a number"
    "b = 2\nw_1 = 0.5\nw_2 = -1/3\n",
    "theta0: 0.5 theta1: -1/3 bias: 2\n",  # from 0, with a bias of its own name
    "w: tensor([ 0.5000, -1/3]) b: tensor(2.)\n",
    "Perceptron { epochs: 3, weights: [0.5, -1/3], bias: 2 }\n",  # a field unknown beside the whole pair
    "Epoch 3: w=[0.5 -1/3] b=2\n",  # a whole pair by its names beside a counter: it was "'Epoch' is not a number"
    "epoch=3 loss=0.25 w=[0.5, -1/3] b=2\n",
    "after 12 epochs: w = [0.5 -1/3], b = 2\n",
])
def test_named_weights_and_bias_are_read_by_their_names(tmp_path: Path, text: str) -> None:
    assert _read(tmp_path, text) == ([HALF, MINUS_THIRD], TWO)


@pytest.mark.parametrize("text, message", [
    ("epochs: 3\nw: 0.5 -1/3 2\n", "line 1 of its weights file: 'epochs' is not a number"),
    ("weights: 0.5 -1/3\nbias: 2 3\n", "'weights' is not a number"),  # a bias of two values is no bias
    ('{"w": [0.5], "b": 2}', "named 1 weight in its weights file; 2 needed, w1, w2, and the bias apart"),
    ('{"theta0": 2, "x": [0.5, 1]}', "is not a number"),
    ("Final weights after 3 epochs: 0.5 -1/3 2\n", "'Final' is not a number"),  # a caption holds no number
    ("Fraction(1, 3) 2\n", "wrote 2 values to its weights file; 3 needed"),  # one value, never two
    ('"0.5" "-1/3"\n', "wrote 2 values"),  # quoted values are values, not row names
    ("nan nan nan\n", "'nan' is not a finite number"),  # a diverged run's line is no header
    ("w1,w2,b\n0.5,-1/3\n", "wrote 2 values"),
    ("Perceptron { epochs: 3, weights: [0.5, -1/3] }\n", "'epochs' is not a number"),  # a field unknown, no bias
    ("Model(0.5, -1/3, 2)\n", "'Model' is not a number"),  # a type name before no field names stays a word
    ("w1=0.5, w3=-1/3, b=2\n", "'w1' is not a number"),  # indices with a gap name no vector
    ("w1=0.5, w2=-1/3, w2=1, b=2\n", "'w1' is not a number"),  # an index twice
])
def test_what_is_not_a_vector_of_the_right_length_is_refused_by_name(tmp_path: Path, text: str,
                                                                      message: str) -> None:
    with pytest.raises(CommandFailed, match=message.replace("(", r"\(").replace(")", r"\)")):
        _read(tmp_path, text)


def _program(tmp_path: Path, write: str) -> str:
    """A correct perceptron (classic, η = 1) writing its weights with `write`, a Python expression of w and b."""
    path = tmp_path / "p.py"
    path.write_text(textwrap.dedent(f"""
        import json, sys
        from fractions import Fraction
        rows = [[Fraction(c) for c in line.strip().split(",")] for line in open(sys.argv[1]) if line.strip()]
        w, b = [Fraction(0)] * (len(rows[0]) - 1), Fraction(0)
        for _ in range(1000):
            clean = True
            for *x, t in rows:
                if t * (sum(a * c for a, c in zip(w, x)) + b) <= 0:
                    w, b, clean = [a + t * c for a, c in zip(w, x)], b + t, False
            if clean:
                break
        open(sys.argv[2], "w").write({write})
    """))
    return f"python {path} {{train}} {{out}}"


def test_a_command_naming_its_bias_passes_whatever_bias_place_is_declared(tmp_path: Path) -> None:
    named = _program(tmp_path, 'json.dumps({"bias": str(b), "weights": [str(v) for v in w]})')
    X, y = [["-1", "1/2"], ["1", "1"], ["1/4", "-1"]], [-1, 1, -1]
    for bias in ("last", "first"):
        assert check_dataset(command_implementation(named), X, y, dtype="fraction", bias=bias).passed
    # a wrong bias under its name is caught: the check reads it, it does not trust it
    wrong = _program(tmp_path, 'json.dumps({"bias": str(b + 1), "weights": [str(v) for v in w]})')
    case = check_dataset(command_implementation(wrong), X, y, dtype="fraction")
    assert not case.passed and "agrees-with-reference" in [f.check for f in case.findings]



def test_every_pattern_reads_a_long_adversarial_line_in_linear_time() -> None:
    # A pattern whose quantifiers can share characters backtracks: '"a" ' * 40 took exponential time (a hang) in
    # R's header test, and runs of spaces before 'dtype', letters, dotted names or digits took quadratic time.
    import time

    from verify_perceptron.data.delimiters import as_points
    from verify_perceptron.harness._weights_text import weight_tokens

    n = 200_000
    texts = ['"a" ' * 40 + "x", '"a" ' * (n // 4) + "x", "a" * n, "a." * (n // 2) + "[", "1" * n + "/",
             "a " * (n // 2), "np.float64(" + "1" * n, "Fraction(1" + " " * n, "[1]" + " " * n,
             ('"1" ' + "x" * n + "\n") * 3, "x" + ".x" * n + "[", " " * n + "x", "w" + " " * n + "x",
             "Decimal('" + " " * n, "np.float64(" + " " * n, '"' + "1" * n + 'x"\n0.5\n',
             "a" + " " * n + "{", "a{" + " " * n + "b", "a( " * (n // 3), "'" + "a" * n, "'a" * n, "$VAR1" + " " * n,
             "A" * n + "Array(1)", "Float64Array(" + "1" * n, "grad_fn=<" + "a" * n, "device='" + ":" * n,
             "shape=(" + "1, " * (n // 3), "tf.Tensor(" * (n // 10),
             "a" * n + " 1\nb 2", "-" * n + "x\nb 2\nc 3", "|" * n + "\nb 2\nc 3", "a." * n + " 1\n" + "b 2"]
    started = time.process_time()
    for text in texts:
        weight_tokens(text)
    for cell in ("1" * n + "x", "1." * (n // 2) + "x", "1," * (n // 2) + "x"):
        try:
            as_points(cell, "f:2")
        except Exception:
            pass  # refused or read: only the time is tested here
    from verify_perceptron.data.csv_files import _THOUSANDS
    from verify_perceptron.data.delimiters import excel_separator
    for cell in (" " * n + "x", "1" + ",123" * (n // 4) + "x", "1" + ",123" * (n // 4) + " " * n + "x", "1,12" * n):
        _THOUSANDS.fullmatch(cell)  # a CSV cell's thousands separator, for the hint of its error
    for line in (" " * n + "x", "sep=;" + " " * n + "x", '"sep=' + '"' * n, "sep=" * n):
        excel_separator(line, "f")  # Excel's first line naming the separator
    assert time.process_time() - started < 5  # linear: about 0.3 s; a quadratic pattern: minutes


def test_matlab_s_common_scale_factor_is_refused_by_name(tmp_path: Path) -> None:
    # MATLAB's disp(w) of [1234.5, 0.5]: the values below the factor are the weights over 1000; they were read
    # as the weights themselves (a log line passed over), a silent misreading
    from verify_perceptron.harness._protocol import trailing_weights

    path = tmp_path / "out.txt"
    path.write_text("   1.0e+03 *\n\n    1.2345    0.0005\n")
    with pytest.raises(CommandFailed, match="'1.0e\\+03 \\*', the common scale factor MATLAB and Octave print"):
        trailing_weights(str(path), 1, exact=False)
    path.write_text("Epoch 1: 2 errors\n    1.2345    0.0005\n")  # without it, the log is passed over as before
    assert trailing_weights(str(path), 1, exact=False) is not None


@pytest.mark.parametrize("printed, expected", [
    # print(pd.Series(w)), of named labels, of a one-row DataFrame with names and with pandas' own column numbers
    ("0    2.3\n1    0.5\n2    1.0\ndtype: float64\n", ["2.3", "0.5", "1.0"]),
    ("w1      2.3\nw2      0.5\nbias    1.0\nName: weights, dtype: float64\n", ("2.3", "0.5", "1.0")),
    ("    w1   w2    b\n0  2.3  0.5  1.0\n", ("2.3", "0.5", "1.0")),
    ("     0    1    2\n0  2.3  0.5  1.0\n", ["2.3", "0.5", "1.0"]),
])
def test_pandas_prints_are_read_as_their_values(printed: str, expected: Any) -> None:
    # each was refused ("'dtype' is not a number", "'w1' is not a number", "3 values; 2 needed")
    from verify_perceptron.harness._weights_text import Named, weight_tokens

    found = weight_tokens(printed)
    if isinstance(expected, tuple):  # named: the weights and the bias by their names
        assert isinstance(found, Named) and [v for _, v in found.weights] + [found.bias[1]] == list(expected)
    else:
        assert [v for _, v in found] == expected  # type: ignore[union-attr]
    # a header of names over values alone (no index column) is read as before: the header is passed over
    assert [v for _, v in weight_tokens("w1 w2 b\n2.3 0.5 1.0\n")] == ["2.3", "0.5", "1.0"]  # type: ignore[union-attr]


@pytest.mark.parametrize("printed", [
    "feature    weight\nx1            0.5\nx2           -1.0\nbias          2.0\n",  # f"{name:<10}{value:>10}"
    "x1 0.5\nx2 -1.0\nbias 2.0\n",
    "name,value\nw1,0.5\nw2,-1.0\nb,2.0\n",  # a CSV of the weights beside their names
    "| feature | weight |\n|---------|--------|\n| x1 | 0.5 |\n| x2 | -1.0 |\n| bias | 2.0 |\n",  # Markdown
])
def test_a_table_of_names_and_values_is_read_by_its_names(printed: str) -> None:
    # each was refused ("line 2: 'x1' is not a number"): a program printing its weights beside the features' names
    from verify_perceptron.harness._weights_text import Named, weight_tokens

    found = weight_tokens(printed)
    assert isinstance(found, Named) and [v for _, v in found.weights] + [found.bias[1]] == ["0.5", "-1.0", "2.0"]
    # a name the check does not know is still refused by name, never read as a weight
    assert (1, "epochs") in weight_tokens("epochs 3\nw 0.5\n")  # type: ignore[operator]


def test_a_command_printing_a_table_is_checked(tmp_path: Path) -> None:
    table = _program(tmp_path, '"feature  weight\\n" + "".join(f"x{j + 1}  {v}\\n" for j, v in enumerate(w)) '
                               '+ f"bias  {b}"')
    X, y = [["-1", "1/2"], ["1", "1"], ["1/4", "-1"]], [-1, 1, -1]
    assert check_dataset(command_implementation(table), X, y, dtype="fraction").passed
