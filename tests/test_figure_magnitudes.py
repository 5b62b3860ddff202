"""Figures at any magnitude: drawn, valid SVG, and the same picture whatever power of ten the numbers carry.

Each axis is drawn in units of a power of ten read off the exact values
(`verify_perceptron.report.plots._scale`). Before, `available_figures` left
every figure out, silently, once a number passed 10^±150, and before that
drawing 1e400 raised OverflowError and data at 1e-300 made the projection
refuse the data ("the separator's normal v* is 0"): every test here fails
without the scaling.
"""

from __future__ import annotations

import contextlib
import io
import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verify_perceptron.cli import main
from verify_perceptron.data.dataset import Dataset, from_arrays
from verify_perceptron.data.examples import example
from verify_perceptron.data.exact_text import exact_text, read_exact
from verify_perceptron.notes.conventions import get_convention
from verify_perceptron.pipeline import verify_run
from verify_perceptron.report.plots._scale import AxisScale, axis_scale, exponent, log_position, shifted
from verify_perceptron.report.plots.series import available_figures, resolution_notes
from verify_perceptron.report.record import build_report

pytest.importorskip("matplotlib")

# Two features (the boundaries; XOR's certificate), four (the projection).
SHAPES: dict[str, tuple[list[list[int]], list[int]]] = {
    "and": ([[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 0, 1]),
    "xor": ([[0, 0], [0, 1], [1, 0], [1, 1]], [0, 1, 1, 0]),
    "four": ([[3, 1, 0, 2], [1, 2, 2, 0], [0, 0, 3, 1], [2, 3, 1, 1], [4, 0, 1, 3]], [1, 0, 0, 1, 1]),
}
FIGURES = {"and": {"boundaries", "invariants", "bounds"}, "xor": {"boundaries", "certificate", "invariants"},
           "four": {"projection", "invariants", "bounds"}}
#: A power of ten for every feature, or one per feature: mixed magnitudes within one sample.
MIXED = {"and": (-300, 300), "xor": (-300, 300), "four": (-300, -150, 150, 300)}


def write_csv(path: Path, shape: str, powers: Sequence[int]) -> Path:
    """The shape's data with feature j times 10^powers[j], written as decimal literals (read back exactly)."""
    X, y = SHAPES[shape]
    lines = [",".join([*(f"{v}e{p}" for v, p in zip(row, powers)), str(t)]) for row, t in zip(X, y)]
    path.write_text("\n".join(lines) + "\n")
    return path


_BAD_NUMBER = re.compile(r'\b(?:d|x|y|x1|x2|y1|y2|width|height|points|transform)="[^"]*\b(?:nan|inf)', re.I)


def assert_svg(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert ElementTree.fromstring(text).tag.endswith("svg")
    assert not _BAD_NUMBER.search(text), _BAD_NUMBER.search(text)


def markdown_report(tmp_path: Path, shape: str, powers: Sequence[int]) -> tuple[str, dict[str, Path]]:
    """``verify DATA --format markdown -o report.md``: the report and its figures by name, each valid SVG."""
    data = write_csv(tmp_path / "data.csv", shape, powers)
    report = tmp_path / "report.md"
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(["verify", str(data), "--max-epochs", "3", "--format", "markdown", "-o", str(report)])
    assert code == 0, err.getvalue()
    text = report.read_text(encoding="utf-8")
    links = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    figures = {Path(link).name.rsplit("-", 1)[0]: report.parent / link for link in links}
    for path in figures.values():
        assert_svg(path)
    return text, figures


_CASES = [(shape, [p] * len(SHAPES[shape][0][0])) for shape in SHAPES for p in (-400, -300, 300, 400)]
_CASES += [(shape, list(MIXED[shape])) for shape in SHAPES]
_DEFAULT = {("and", -400), ("xor", 400), ("four", "mixed")}


def _case_id(shape: str, powers: list[int]) -> str:
    return f"{shape}-{'mixed' if len(set(powers)) > 1 else f'1e{powers[0]}'}"


@pytest.mark.parametrize("shape, powers", [
    pytest.param(shape, powers, id=_case_id(shape, powers),
                 marks=() if (shape, "mixed" if len(set(powers)) > 1 else powers[0]) in _DEFAULT else pytest.mark.slow)
    for shape, powers in _CASES])
def test_every_figure_is_drawn_as_valid_svg_at_every_magnitude(tmp_path: Path, shape: str, powers: list[int]) -> None:
    text, figures = markdown_report(tmp_path, shape, powers)
    assert set(figures) == FIGURES[shape], text[:2000]
    assert "left out" not in text
    mixed = len(set(powers)) > 1 and shape == "four"  # the projection draws all features in one unit
    assert ("drawn at 0: this is a picture" in text) == mixed


# --- the same picture at every power of ten ----------------------------------------------------------------------


def geometry(figure: Any) -> list[Any]:
    """Everything a figure places, as floats: each panel's limits, lines, markers, filled shapes and text anchors."""
    import numpy as np

    out: list[Any] = []
    for ax in figure.axes:
        out += [ax.get_xlim(), ax.get_ylim()]
        out += [np.asarray(line.get_xydata()).tolist() for line in ax.get_lines()]
        for collection in ax.collections:
            out.append(np.asarray(collection.get_offsets()).tolist())
            out += [path.vertices.tolist() for path in collection.get_paths()]
        out += [patch.get_path().vertices.tolist() for patch in ax.patches]
        out += [text.xy if hasattr(text, "xy") else text.get_position() for text in ax.texts]
    return out


def _times(x: Fraction, k: int) -> Fraction:
    return x * Fraction(10) ** k


def scaled(report: dict[str, Any], data: Dataset, k: int) -> tuple[dict[str, Any], Dataset]:
    """The same classifiers on the data times 10^k: every sample scaled, and every weight vector's bias with it
    (v·(c·x) + c·b = c·(v·x + b)); Gordan's λ is unchanged."""
    convention = get_convention(report["convention"])

    def weights(w: Sequence[str]) -> list[str]:
        b, v = convention.to_canonical([read_exact(c) for c in w])
        return [exact_text(c) for c in convention.from_canonical(_times(b, k), v)]

    out = dict(report, final_weights=weights(report["final_weights"]),
               updates=[dict(u, weights=weights(u["weights"])) for u in report["updates"]])
    if report["separator"] is not None:
        out["separator"] = dict(report["separator"], weights=weights(report["separator"]["weights"]))
    return out, Dataset(X=[[_times(x, k) for x in row] for row in data.X], y=data.y)


def drawn(name: str, report: dict[str, Any], data: Dataset | None) -> Any:
    from verify_perceptron.report.plots import draw_figure

    return draw_figure(name, report, data)


def _report(data: Dataset, **options: Any) -> dict[str, Any]:
    return dict(build_report(data, *verify_run(data, **options)))


@settings(max_examples=6)
@given(st.integers(-400, 400))
def test_scaling_the_data_by_a_power_of_ten_draws_the_same_boundaries_projection_and_certificate(k: int) -> None:
    for data, name in ((example("and"), "boundaries"), (from_arrays(*SHAPES["four"]), "projection"),
                       (example("xor"), "certificate")):
        report = _report(data, max_epochs=3)
        if name == "projection":
            report["separator"] = dict(report["separator"] or {"source": "given"}, weights=["1", "-1", "2", "0", "1"])
        base = drawn(name, report, data)
        moved = drawn(name, *scaled(report, data, k))
        assert geometry(moved) == geometry(base), (name, k)
        # the unit is in the axis label, k more than without the scaling (feature 1's, or all features' at once)
        shift = axis_scale(*(data.X if name == "projection" else [[row[0] for row in data.X]])).exponent
        labels = {ax.get_xlabel() for ax in moved.axes}
        assert any(f"10^{{{shift + k}}}" in label for label in labels) != AxisScale(shift + k).plain, labels


@settings(max_examples=4)
@given(st.integers(-400, 400))
def test_scaling_the_step_size_by_a_power_of_ten_draws_the_same_invariants(k: int) -> None:
    # w_k, w* and a scale by 10^k: w_k·w*, N·a·γ, ‖w_k‖² and N·a²·R² by 10^2k, the bound B not at all
    data = example("and")
    base = drawn("invariants", _report(data), None)
    moved = drawn("invariants", _report(data, eta=Fraction(10) ** k), None)
    assert geometry(moved) == geometry(base)
    panels = {ax.get_ylabel() for ax in moved.axes}
    if not AxisScale(1 + 2 * k).plain:  # the largest of the top panels' values are 10 to 99 at k = 0
        assert any(f"10^{{{1 + 2 * k}}}" in label for label in panels), panels


def test_a_boundary_drawn_at_10_to_the_minus_400_lies_on_the_exact_boundary() -> None:
    # AND's final weights, b = -4·10^-400 and v = (3, 2), on the data times 10^-400: the line's ends solve
    # v·x + b = 0 (3X + 2Y - 4 = 0 in the axes' unit) to the floats' precision, on the axes' edges, and the side
    # called +1 is on the positive side
    data = example("and")
    report, moved = scaled(_report(data), data, -400)
    panel = [ax for ax in drawn("boundaries", report, moved).axes if ax.get_visible()][-1]
    line = next(line for line in panel.get_lines() if line.get_label() == "boundary v·x + b = 0")
    for x, y in line.get_xydata():
        assert abs(3 * Fraction(x) + 2 * Fraction(y) - 4) < Fraction(1, 10**12)
        assert x in panel.get_xlim() or y in panel.get_ylim()
    side = panel.patches[0].get_path().vertices
    assert all(3 * Fraction(x) + 2 * Fraction(y) - 4 >= -Fraction(1, 10**12) for x, y in side)
    assert panel.get_xlabel().endswith("(×$\\mathdefault{10^{-400}}$)")  # the unit: the largest feature, 10^-400


def test_the_projection_at_10_to_the_400_keeps_each_class_on_its_side_of_the_final_boundary() -> None:
    data = from_arrays(*SHAPES["four"])
    base = _report(data)
    assert base["converged"]  # the final weights separate: every sample's score has its label's sign
    report, moved = scaled(base, data, 400)
    ax = drawn("projection", report, moved).axes[0]
    (a, b), = [line.get_xydata().tolist() for line in ax.get_lines() if line.get_label().startswith("final")]
    points = [p for collection in ax.collections if len(collection.get_offsets()) for p in collection.get_offsets()]
    sides = {(b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) > 0 for p in points[:3]}
    others = {(b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) > 0 for p in points[3:]}
    assert len(points) == 5 and len(sides) == len(others) == 1 and sides != others


def test_a_separator_whose_normal_is_0_still_has_its_projection() -> None:
    # `verify --separator 1,0,0,0,0` on four features: v* = 0 spans no plane ("the separator's normal v* is 0"
    # refused the data); u1 is then along the final v
    data = from_arrays(*SHAPES["four"])
    report = dict(_report(data), separator={"source": "given", "weights": ["1", "0", "0", "0", "0"]})
    ax = drawn("projection", report, data).axes[0]
    assert ax.get_xlabel().startswith("x·u1  (u1 = v/‖v‖ (v* = 0))")
    assert ax.get_ylabel().startswith("x·u2  (u2: a direction orthogonal to u1 (v* = 0))")


# --- the scaling itself -----------------------------------------------------------------------------------------


@settings(max_examples=40)
@given(st.fractions().filter(lambda x: x != 0), st.integers(-5000, 5000))
def test_an_axis_scale_moves_with_the_values_and_leaves_the_drawn_floats_alone(x: Fraction, k: int) -> None:
    values = [x, x / 3, -x * 7, Fraction(0)]
    scale, moved = axis_scale(values), axis_scale([_times(v, k) for v in values])
    assert moved.exponent == scale.exponent + k == exponent(_times(x * 7, k))
    assert moved.floats([_times(v, k) for v in values]) == scale.floats(values)
    assert all(1 <= abs(f) < 10 for f in scale.floats([x * 7]))
    assert log_position(_times(abs(x), k), k) == log_position(abs(x), 0)


def test_a_float_is_made_from_the_integers_at_any_magnitude() -> None:
    assert shifted(Fraction(1, 3), 0) == 1 / 3 and shifted(Fraction(10**5000 + 1, 3 * 10**4999), 1) == 1 / 3
    assert shifted(Fraction(10**400), 0) == 1e300 and shifted(Fraction(-(10**400)), 0) == -1e300  # far off the axis
    assert shifted(Fraction(1, 10**400), 0) == 0.0
    assert [exponent(Fraction(10) ** n) for n in (-400, 0, 400)] == [-400, 0, 400]
    assert exponent(Fraction(10**400 - 1)) == 399 and exponent(Fraction(-1, 10**400 + 1)) == -401


def test_values_far_below_the_largest_on_one_axis_are_said_to_be_drawn_at_0() -> None:
    X, y = SHAPES["four"]
    mixed = Dataset(X=[[Fraction(v) * Fraction(10) ** p for v, p in zip(row, MIXED["four"])] for row in X], y=[
        1 if t else -1 for t in y])
    same = from_arrays(X, y)
    separator = {"source": "given", "weights": ["1", "-1", "2", "0", "1"]}
    for data, noted in ((mixed, True), (same, False)):
        report = dict(_report(data, max_epochs=2), separator=separator)
        assert "projection" in available_figures(report, data)
        assert ("projection" in resolution_notes(report, data)) is noted
