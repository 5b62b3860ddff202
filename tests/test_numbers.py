"""One way of writing numbers (docs/numbers.md), in every format: decimals as decimals, other rationals as
``≈`` values with their exact value at hand, the same quantity the same way everywhere, no "… 0 more …"."""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

import pytest

from verify_perceptron.data.dataset import Dataset
from verify_perceptron.pipeline import verify_run
from verify_perceptron.report._decimals import decimal_text, terminating
from verify_perceptron.report._readable import readable, shown, written
from verify_perceptron.report.documents import render_html, render_markdown
from verify_perceptron.report.record import build_report
from verify_perceptron.report.text import render_text


def _report(rows: list[list[str]], y: list[int], separator: Sequence[object] | None = None) -> dict:
    data = Dataset(X=tuple(tuple(Fraction(v) for v in row) for row in rows), y=tuple(y))
    return dict(build_report(data, *verify_run(data, separator=separator)))


def test_decimal_inputs_are_shown_as_decimals_in_every_format() -> None:
    report = _report([["17.99", "10.38"], ["-20.57", "0.125"], ["13.5", "-4.75"]], [1, -1, 1])
    assert "1799/100" in report["updates"][0]["weights"]  # the record keeps p/q ...
    for text in (render_text(report), render_text(report, exact=True), render_markdown(report),
                 render_html(report, figures={})):
        assert "17.99" in text and "1799/100" not in text  # ... every format writes the decimal
        assert not re.search(r"(?<![\w.])-?\d+/\d+(?![\w/])", re.sub(r"<[^>]*>", "", text).replace("x~/", "")), \
            re.search(r"(?<![\w.])-?\d+/\d+(?![\w/])", text)


def test_other_rationals_are_approximate_with_the_exact_value_at_hand() -> None:
    report = _report([["1/3", "1"], ["-2/7", "1"]], [1, -1], separator=[0, 3, 0])
    text, exact = render_text(report), render_text(report, exact=True)
    assert "≈ 0.333333" in text and "1/3" not in text
    assert "1/3" in exact and "≈" not in exact
    page = render_html(report, figures={})
    assert '<span class="approx" title="exactly 1/3">≈ 0.333333</span>' in page


def test_the_advice_writes_the_bound_as_the_bounds_table_does() -> None:
    """The advice gave 14459289768964798 where the table said ≈ 1.44593e+16 (issue 31)."""
    report = {"advice": "note 000's bound allows at most 14459289768964798 mistakes: the run will converge",
              "value": "14459289768964798721/1000"}
    shown_report = readable(report)
    assert "≈ 1.44593e+16" in shown_report["advice"] and shown_report["value"] == "≈ 1.44593e+16"
    assert "note 000's" in shown_report["advice"]  # a note's number is a name


def test_documents_write_the_advice_by_the_rule() -> None:
    """Markdown and HTML printed the advice from the exact record (its 17-digit integer whole)."""
    report = _report([["17.99", "10.38"], ["-20.57", "0.125"]], [1, -1])
    report["advice"] = "note 000's bound allows at most 14459289768964798 mistakes"
    for text in (render_markdown(report), render_html(report, figures={}), render_text(report)):
        seen = re.sub(r"<[^>]*>", "", text)  # what a reader sees (a tooltip holds the exact value)
        assert "14459289768964798" not in seen and "at most ≈ 1.44593e+16 mistakes" in seen


@pytest.mark.parametrize("n_nonzero", range(1, 12))
def test_a_marker_never_stands_for_fewer_than_two_entries(n_nonzero: int) -> None:
    sparse = ["1"] * n_nonzero + ["0"] * 40
    dense = [str(i + 1) for i in range(n_nonzero)]
    for values in (sparse, dense):
        out = readable({"lambda": values})["lambda"]
        hidden = [int(m.group(1)) for e in out if (m := re.fullmatch(r"… (\d+) more(?: non-zero)? …", e))]
        assert all(h >= 2 for h in hidden), out
        shown_count = sum(1 for e in out if not e.startswith(("…", "(")))
        zeros = sum(int(m.group(1)) for e in out if (m := re.fullmatch(r"\((\d+) zeros\)", e)))
        assert shown_count + sum(hidden) + zeros == len(values), out


@pytest.mark.parametrize("value, expected", [
    (Fraction(1799, 100), "17.99"), (Fraction(-1, 8), "-0.125"), (Fraction(3483943, 500), "6967.886"),
    (Fraction(1, 3), "≈ 0.333333"), (Fraction(2, 3), "≈ 0.666667"), (Fraction(14459289768964798), "≈ 1.44593e+16"),
    (Fraction(12345678901234), "12345678901234"), (Fraction(1, 10**20), "≈ 1e-20"), (Fraction(0), "0"),
])
def test_shown_follows_the_rule(value: Fraction, expected: str) -> None:
    assert shown(value) == expected and readable(str(value)) == expected


def test_a_denominator_of_a_hundred_thousand_digits_is_classified_fast() -> None:
    assert terminating(10**100_000) == 100_000 and terminating(3 * 10**100_000) is None
    assert decimal_text(Fraction(1, 10**100_000), longest=14) is None
    assert written(Fraction(7, 10**5_000)) == "0." + "0" * 4_999 + "7"
