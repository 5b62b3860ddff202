"""Rendering a report is a total function of its exact record: numbers of any size, every format.

Records are built as the pipeline builds them (`verify_run` and `build_report`
on small data at huge scales) and also fed directly (a record whose exact
numbers are replaced by rationals of up to 10^5 digits and exponents to
±10^5, ties, zero and negatives among them). Each is rendered as JSON, text
(shortened and ``--exact``), Markdown and HTML, and `check`'s verdict as
text, JSON and JUnit, and:

- nothing raises;
- JSON reads back equal, every exact value whole (Python's reader needs
  ``parse_int`` for an integer past 4,300 digits, as for any JSON reader of
  a bounded integer type); ``--exact`` text holds each value whole;
- each shortened format has at most ``BASE + PER_ITEM·shape(record)``
  characters, where `shape` counts the record's values and the characters of
  its words, every exact number counted as `NUMBER_WIDTH`: a function of the
  record's shape, not of its numbers' size; no digit run is longer than 20;
- every ``≈`` value is the correctly rounded 6-digit decimal of its exact value, and every number shown
  without one is its exact decimal (docs/numbers.md): a value whose denominator divides a power of ten is
  shown as that decimal when it is short, and never as ``p/q``; ``--exact`` writes each value by the same
  rule, whole; the HTML's tooltips give each ``≈`` value's exact value (they are left out of its size,
  as ``--exact`` is);
- every enclosure, in the record and as shown, contains its exact value,
  checked by squaring rationals.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from fractions import Fraction
from random import Random
from typing import Any
from xml.etree import ElementTree

import pytest
from hypothesis import given, settings, strategies as st

from tests.rounding_checks import is_rounded
from verify_perceptron.data.dataset import Dataset
from verify_perceptron.data.exact_text import exact_text, read_exact, read_integer
from verify_perceptron.notes.conventions import CONVENTIONS, get_convention
from verify_perceptron.pipeline import verify_run
from verify_perceptron.report._decimals import decimal_down, decimal_text, decimal_up
from verify_perceptron.report._readable import SHORT, readable, written
from verify_perceptron.report.documents import render_html, render_markdown
from verify_perceptron.report.plots.series import available_figures
from verify_perceptron.report.record import build_report, render_json
from verify_perceptron.report.text import render_text

#: What a shortened number may take at most, ``≈ -1.23457e+100000`` and a margin.
NUMBER_WIDTH = 24
#: The fixed text of a page (the HTML's style sheet, headings, the sentences around the numbers) ...
BASE = 5_000
#: ... and what each value or character of the record may make appear, its repetitions in tables included.
PER_ITEM = 2

_EXACT = re.compile(r"-?\d+(?:/\d+)?")


def shape(record: Any) -> int:
    """How many values the record holds plus the characters of its words, each exact number as NUMBER_WIDTH."""
    if isinstance(record, dict):
        return sum(1 + len(key) + shape(value) for key, value in record.items())
    if isinstance(record, list):
        return 1 + sum(shape(value) for value in record)
    if isinstance(record, str):
        return 1 + len(_EXACT.sub("#" * NUMBER_WIDTH, record))
    return NUMBER_WIDTH


def _longest_digit_run(text: str) -> int:
    return max((len(run) for run in re.findall(r"\d+", text)), default=0)


def _pairs(exact: Any, shown: Any) -> Iterator[tuple[str, str]]:
    """Each exact number of the record beside what `readable` shows for it, where it shows it."""
    if isinstance(exact, dict):
        for key in exact:
            yield from _pairs(exact[key], shown[key])
    elif isinstance(exact, list):
        if len(exact) == len(shown):
            for e, s in zip(exact, shown):
                yield from _pairs(e, s)
        for s in shown:  # the entries of a shortened list that keep their index: "17: ≈ 1.2e+9"
            if isinstance(s, str) and (m := re.fullmatch(r"(\d+): (.*)", s)):
                yield from _pairs(exact[int(m.group(1))], m.group(2))
        if len(exact) != len(shown) and len(shown) == 7 and "more …" in shown[4]:
            yield from _pairs(exact[:4] + exact[-2:], shown[:4] + shown[-2:])
    elif isinstance(exact, (str, int)) and not isinstance(exact, bool) and isinstance(shown, str) \
            and shown.startswith("≈ "):
        yield (exact if isinstance(exact, str) else exact_text(exact)), shown


def _root_encloses(low: str, high: str, square: Fraction) -> bool:
    """[low, high] contains √square (square >= 0), by squaring the ends."""
    lo, hi = read_exact(low), read_exact(high)
    return lo <= hi and (lo <= 0 or lo * lo <= square) and hi >= 0 and hi * hi >= square


def _signed_root_encloses(low: str, high: str, sign: int, square: Fraction) -> bool:
    """[low, high] contains sign·√square."""
    lo, hi = read_exact(low), read_exact(high)
    if sign < 0:
        return _root_encloses(str(-hi), str(-lo), square)
    return _root_encloses(low, high, square)


def _check_enclosures(record: dict[str, Any], shown: str) -> None:
    """The record's enclosures, and those the text shows (7 digits), contain their exact values."""
    for b in record["bounds"]:
        assert _root_encloses(b["value_root"]["lower"], b["value_root"]["upper"], read_exact(b["value"]))
    c, boxes = record["constants"], record["enclosures"]
    if not boxes:
        return
    gamma, R_sq, ws_sq = read_exact(c["gamma"]), read_exact(c["R_sq"]), read_exact(c["ws_sq"])
    squares = {"R": R_sq, "‖w*‖": ws_sq, "γ/‖w*‖": gamma**2 / ws_sq, "R·‖w*‖/γ": R_sq * ws_sq / gamma**2}
    names = {"R": "R", "ws_norm": "‖w*‖", "margin": "γ/‖w*‖", "ratio": "R·‖w*‖/γ"}
    for key, name in names.items():
        assert _root_encloses(boxes[key]["lower"], boxes[key]["upper"], squares[name])
    for name, low, high in re.findall(r"(\S+) ∈ \[([^,\]]+), ([^\]]+)\]", shown):
        if name in squares:
            assert _root_encloses(low, high, squares[name]), (name, low, high)
    if "cos_final" in boxes:
        w = [read_exact(v) for v in record["final_weights"]]
        ws = [read_exact(v) for v in record["separator"]["weights"]]
        dot = sum(a * b for a, b in zip(w, ws))
        square = dot * dot / (sum(a * a for a in w) * ws_sq)
        sign = -1 if dot < 0 else 1
        assert _signed_root_encloses(boxes["cos_final"]["lower"], boxes["cos_final"]["upper"], sign, square)
        for low, high in re.findall(r"cos∠\(w, w\*\) ∈ \[([^,\]]+), ([^\]]+)\]", shown):
            assert _signed_root_encloses(low, high, sign, square)


_TITLE = re.compile(r' title="exactly ([^"]*)"')


def _check_titles(html_text: str) -> str:
    """Each tooltip of an ``≈`` value holds its exact value (by the rule, or its head when it is huge) and that
    value rounds to what is shown; the page without its tooltips."""
    for m in re.finditer(r'<span class="approx" title="exactly ([^"]*)">([^<]*)</span>', html_text):
        exact, shown = m.groups()
        if "…" not in exact:
            assert is_rounded(shown, read_exact(exact), 6, "nearest"), (exact[:40], shown)
    return _TITLE.sub("", html_text)


def _plain_numbers(exact: Any, shown: Any) -> Iterator[tuple[Fraction, str]]:
    """Each exact number of the record beside what `readable` shows for it, where that is no ``≈`` value."""
    if isinstance(exact, dict):
        for key in exact:
            if key not in _NAMES and key != "row_index":  # a name such as proof "000" is no number
                yield from _plain_numbers(exact[key], shown[key])
    elif isinstance(exact, list) and len(exact) == len(shown):
        for e, s in zip(exact, shown):
            yield from _plain_numbers(e, s)
    elif isinstance(exact, str) and _EXACT.fullmatch(exact) and isinstance(shown, str) and not shown.startswith("≈"):
        yield read_exact(exact), shown


def _check_shortened(record: dict[str, Any], outputs: dict[str, str]) -> None:
    bound = BASE + PER_ITEM * shape(record)
    outputs = {**outputs, "html": _check_titles(outputs["html"])}
    for name, text in outputs.items():
        assert len(text) <= bound, (name, len(text), bound)
        assert _longest_digit_run(text) <= 20, name
    shown_record = readable(record)
    for exact, shown in _pairs(record, shown_record):
        assert is_rounded(shown, read_exact(exact), 6, "nearest"), (exact[:40], shown)
        assert decimal_text(read_exact(exact), longest=SHORT) is None, (exact[:40], shown)  # it had a decimal
    for value, shown in _plain_numbers(record, shown_record):
        assert shown == decimal_text(value, longest=SHORT) and "/" not in shown, (value, shown)


def _check_json(record: dict[str, Any]) -> None:
    """The JSON reads back as the record: every exact string, every integer (however long) equal."""
    assert json.loads(render_json(record), parse_int=read_integer) == _plain(record)


def _plain(value: Any) -> Any:
    """`value` as JSON reads it back: tuples as lists."""
    if isinstance(value, dict):
        return {key: _plain(v) for key, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def check_renderings(record: dict[str, Any], data: Dataset | None) -> None:
    """Every format of `record`: no exception, exact JSON and --exact text, bounded shortened formats."""
    _check_json(record)
    exact_text_report = render_text(record, exact=True)
    for value in [*record["final_weights"], record["eta"], *(record["constants"] or {}).values()]:
        assert written(read_exact(value)) in exact_text_report  # whole, by the rule: a decimal where it has one
    outputs = {
        "text": render_text(record),
        "markdown": render_markdown(record, data=data),
        "html": render_html(record, data=data, figures={}),
    }
    _check_shortened(record, outputs)
    if record["constants"] is not None:
        _check_enclosures(record, outputs["text"])
        _check_enclosures(record, outputs["html"])


# --------------------------------------------------------------------------------------------
# Records the pipeline builds, on small data at huge scales
# --------------------------------------------------------------------------------------------

#: Rationals of any size: a numerator and a denominator of up to `digits` digits, times 10^k.
def rationals(digits: int, exponent: int) -> st.SearchStrategy[Fraction]:
    def build(n_digits: int, d_digits: int, seed: int, k: int, sign: int) -> Fraction:
        power = 10 ** (n_digits - 1)
        n = (seed % 9 + 1) * power + power // 3 + seed % power  # n_digits digits: 9 3333... plus the seed
        d = 7 * (10**d_digits - 1) // 9 + seed % 5  # 7777... of d_digits digits
        return sign * Fraction(n, d) * Fraction(10) ** k

    sizes = st.sampled_from(sorted({1, 3, 20, digits // 10 or 1, digits}))
    return st.builds(build, sizes, sizes, st.integers(0, 10**6), st.integers(-exponent, exponent),
                     st.sampled_from([1, -1]))


@st.composite
def small_data(draw: st.DrawFn) -> Dataset:
    n_features = draw(st.integers(1, 2))
    rows = draw(st.lists(st.tuples(*[st.integers(-3, 3)] * n_features), min_size=2, max_size=5))
    labels = draw(st.lists(st.sampled_from([1, -1]), min_size=len(rows), max_size=len(rows)))
    labels[0], labels[-1] = 1, -1
    scale = draw(rationals(1_500, 1_500).filter(lambda s: s > 0))
    return Dataset(X=tuple(tuple(scale * v for v in row) for row in rows), y=tuple(labels))


@settings(max_examples=25)
@given(small_data(), st.sampled_from(sorted(CONVENTIONS)), st.sampled_from([1, 2, 7]),
       st.one_of(st.just(Fraction(1)), rationals(1_000, 1_000).filter(bool).map(lambda x: abs(x) / (1 + abs(x)))),
       st.sampled_from(["online", "batch"]))
def test_records_the_pipeline_builds_render_in_every_format(data: Dataset, convention: str, epochs: int,
                                                            eta: Fraction, mode: str) -> None:
    if get_convention(convention).rate_fixed:
        eta = Fraction(1)
    trace, check = verify_run(data, convention, eta=eta, mode=mode, max_epochs=epochs)
    record = build_report(data, trace, check)
    assert [read_exact(v) for v in record["final_weights"]] == list(trace.final_weights)
    assert read_exact(record["eta"]) == trace.rate
    check_renderings(dict(record), data)


# --------------------------------------------------------------------------------------------
# Records fed directly: every exact number replaced, up to 10^5 digits and exponents of ±10^5
# --------------------------------------------------------------------------------------------

_NAMES = frozenset({"source", "labels", "note", "proof", "name", "convention", "claim", "formula", "text", "message"})


def _replace(record: Any, values: Iterator[Fraction], key: str = "") -> Any:
    """`record` with each exact number replaced by the next of `values` (an enclosure's ends by its
    decimals rounded outward, a bound's floor by an integer)."""
    if isinstance(record, dict):
        if set(record) == {"lower", "upper"}:
            x = next(values)
            return {"lower": decimal_down(x), "upper": decimal_up(x)}
        return {k: v if k in _NAMES else _replace(v, values, k) for k, v in record.items()}
    if isinstance(record, list):
        return [_replace(v, values, key) for v in record]
    if isinstance(record, str) and _EXACT.fullmatch(record):
        return exact_text(next(values))
    if key == "value_floor":
        x = next(values)
        return x.numerator // x.denominator
    return record


def _base_record() -> dict[str, Any]:
    data = Dataset(X=((Fraction(1), Fraction(1)), (Fraction(1), Fraction(2)), (Fraction(-1), Fraction(-1)),
                      (Fraction(2), Fraction(3))), y=(1, -1, -1, 1))
    return dict(build_report(data, *verify_run(data, max_epochs=3)))


_BASE_RECORD = _base_record()

#: Small and long rationals, ties and zero; the extremes (10^5 digits, exponents of ±10^5) are `EXTREMES`.
moderate_rationals = st.one_of(
    rationals(30, 30),
    st.just(Fraction(0)),
    st.builds(lambda m, k: Fraction(10 * m + 5) * Fraction(10) ** k, st.integers(10**5, 10**6), st.integers(-50, 50)),
    rationals(3_000, 3_000),
)

#: Numerators and denominators of 10^5 digits, exponents of ±10^5, a tie, zero, negatives.
EXTREMES = [Fraction(7**118_000, 3), Fraction(-3, 7**118_000), Fraction(10**100_000, 7), Fraction(-7, 10**100_000),
            Fraction(7**118_000 + 1, 7**118_000), Fraction(1234565, 10**100_006), Fraction(0)]


def _render_direct(record: dict[str, Any]) -> None:
    _check_json(record)
    exact_text_report = render_text(record, exact=True)
    for value in record["final_weights"]:
        assert written(read_exact(value)) in exact_text_report
    outputs = {"text": render_text(record), "markdown": render_markdown(record),
               "html": render_html(record, figures={})}
    _check_shortened(record, outputs)


@settings(max_examples=10)
@given(st.lists(moderate_rationals, min_size=1, max_size=6), st.randoms(use_true_random=False))
def test_records_fed_directly_render_in_every_format(values: list[Fraction], random: Random) -> None:
    _render_direct(_replace(_BASE_RECORD, iter(lambda: random.choice(values), None)))


@pytest.mark.parametrize("extreme", EXTREMES, ids=["10^5-digit numerator", "10^5-digit denominator", "exponent +10^5",
                                                    "exponent -10^5", "1 + 7^-118,000", "a tie at 10^-100,000", "zero"])
def test_records_with_the_extremes_render_in_every_format(extreme: Fraction) -> None:
    """The extreme in every tenth place of a record, the others small (so that the test stays fast)."""
    _render_direct(_replace(_BASE_RECORD, itertools.cycle([extreme] + [Fraction(-1, 2)] * 9)))


def test_a_hundred_thousand_digit_weight_is_not_echoed_whole() -> None:
    """The final weights and each update's weights hold a 99,722-digit value: no format but --exact shows it whole."""
    value = Fraction(7**118_000, 3)
    weight = exact_text(value)
    record = {**_BASE_RECORD, "final_weights": [weight, "1", "-2"],
              "updates": [{**u, "weights": [weight, *u["weights"][1:]]} for u in _BASE_RECORD["updates"]]}
    for text in (render_text(record), render_markdown(record), _check_titles(render_html(record, figures={}))):
        assert _longest_digit_run(text) <= 20 and len(text) < 60_000
    assert weight in render_text(record, exact=True)


def test_figures_are_drawn_where_values_pass_the_doubles() -> None:
    """Values of 10^400 have no double: the figures are drawn all the same, each axis scaled by a power of ten
    (they were left out silently, and before that raised OverflowError). tests/test_figure_magnitudes.py holds
    the figures' own tests at every magnitude, as SVG and in documents."""
    pytest.importorskip("matplotlib")
    scale = Fraction(10**400)
    data = Dataset(X=((scale,), (-scale,), (scale * 3 / 10,)), y=(1, -1, 1))
    record = build_report(data, *verify_run(data))
    from verify_perceptron.report.plots import draw_figure

    assert available_figures(record, data) == ("invariants", "bounds")
    assert all(draw_figure(name, record, data).axes for name in available_figures(record, data))


def test_the_trace_file_holds_weights_past_the_int_string_limit() -> None:
    """``--trace``'s lines (`TraceRecorder`) write weights of 5,000 digits whole (str refused them)."""
    import io

    from verify_perceptron.check.recorder import TraceRecorder
    from verify_perceptron.run import fast

    scale = Fraction(7**6_000, 3)
    data = Dataset(X=((scale,), (-scale,), (scale * 3 / 10,)), y=(1, -1, 1))
    out = io.StringIO()
    trace = fast.run(data, observer=TraceRecorder(out, data, get_convention("classic"), Fraction(1)))
    last = json.loads(out.getvalue().splitlines()[-1])
    assert [read_exact(w) for w in last["weights"]] == list(trace.final_weights)
    assert max(map(len, last["weights"])) > 4_300


# --------------------------------------------------------------------------------------------
# check's verdict: where its text, JSON and JUnit show numbers
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("eta", [Fraction(10**400, 3), Fraction(1, 10**400)])
def test_check_verdicts_show_rates_beyond_the_doubles(eta: Fraction) -> None:
    """A rate past the doubles' range (1e400) or below it (1e-400): text, JSON and JUnit."""
    from verify_perceptron.harness import check_implementation, reference_fit
    from verify_perceptron.harness._formats import render

    result = check_implementation(reference_fit, dtype="fraction", examples=2, worked_examples=False, eta=eta)
    options = json.loads(render(result, "json"), parse_int=read_integer)["options"]
    assert read_exact(options["eta"]) == eta
    assert options["eta_decimal"] == (None if eta > 10**308 else float(eta))
    assert ElementTree.fromstring(render(result, "junit").split("\n", 1)[1]).tag == "testsuites"
    assert exact_text(eta) in render(result, "text")
