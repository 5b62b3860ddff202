"""Figures: the exact values they show equal the checker's, and matplotlib stays off the text and JSON paths."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from fractions import Fraction
from typing import Any

import pytest

from verify_perceptron.pipeline import verify_run
from verify_perceptron.notes.conventions import CONVENTIONS
from verify_perceptron.data.dataset import from_arrays
from verify_perceptron.errors import InvalidArgument
from verify_perceptron.data.examples import example
from verify_perceptron.report.plots import (
    FIGURE_NAMES,
    PlottingUnavailable,
    available_figures,
    convex_hull,
    epoch_ends,
    hull_meeting,
    invariant_series,
    report_certificate,
)
from verify_perceptron.report.record import build_report

F = Fraction


def fractions(*values: int) -> tuple[Fraction, ...]:
    """Integers as the exact values the curves and epoch ends hold."""
    return tuple(F(v) for v in values)


def report_for(name: str, convention: str | None = None, **options: Any) -> dict[str, Any]:
    data = example(name)
    trace, check = verify_run(data, convention or data.default_convention or "classic", **options)
    return dict(build_report(data, trace, check))


def invariant(report: dict[str, Any], name: str) -> dict[str, Any]:
    return next(i for i in report["invariants"] if i["name"] == name)


# -- matplotlib is imported only to draw ------------------------------------------------------


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)


def test_verify_json_and_text_never_import_matplotlib() -> None:
    done = run_python(
        "import io, sys, contextlib\n"
        "import verify_perceptron.cli as cli\n"
        "for fmt in ('json', 'text'):\n"
        "    with contextlib.redirect_stdout(io.StringIO()):\n"
        "        assert cli.main(['verify', '--example', 'and', '--format', fmt]) == 0\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'matplotlib'))\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_importing_plots_documents_and_gallery_does_not_import_matplotlib() -> None:
    done = run_python(
        "import sys\n"
        "import verify_perceptron.report.plots, verify_perceptron.report.documents, verify_perceptron.gallery\n"
        "from verify_perceptron.report.documents import render_markdown\n"
        "from verify_perceptron.pipeline import verify_run\n"
        "from verify_perceptron.data.examples import example\n"
        "from verify_perceptron.report.record import build_report\n"
        "data = example('and')\n"
        "render_markdown(build_report(data, *verify_run(data)), data=data)\n"
        "print('matplotlib' in sys.modules)\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_drawing_without_matplotlib_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from verify_perceptron.report.plots import draw_invariants

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    with pytest.raises(PlottingUnavailable, match=r"pip install 'verify-perceptron\[plots\]'") as caught:
        draw_invariants(report_for("and"))
    assert isinstance(caught.value, ImportError)


# -- the exact layer ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["and", "or", "modified-or"])
@pytest.mark.parametrize("convention", list(CONVENTIONS))
def test_curves_tightest_slack_equals_the_checkers(name: str, convention: str) -> None:
    report = report_for(name, convention)
    series = invariant_series(report)
    for claim in ("lower-bound", "upper-bound"):
        tightest = series.min_slack(claim)
        assert tightest is not None
        value, at = tightest
        assert (str(value), at) == (invariant(report, claim)["min_slack"], invariant(report, claim)["min_slack_at"])


@pytest.mark.parametrize("convention", list(CONVENTIONS))
def test_squeeze_crosses_at_the_own_notes_bound(convention: str) -> None:
    # (N·a·γ)²/‖w*‖² = N·a²·U exactly at N = B: the picture is the proof's last step.
    series = invariant_series(report_for("and", convention))
    assert series.crossing == series.bound
    assert series.bound == F(next(b for b in report_for("and", convention)["bounds"] if b["own"])["value"])


def test_batch_curves_use_the_batch_upper_bound() -> None:
    report = report_for("modified-or", "sum-norm", mode="batch")
    series = invariant_series(report)
    assert series.upper_claim == "upper-bound-batch" and series.bound is None
    assert series.min_slack("upper-bound-batch") == (F(invariant(report, "upper-bound-batch")["min_slack"]), 1)
    assert series.n_mistakes == (0, 4) and series.k == (0, 1)
    with pytest.raises(InvalidArgument, match="claim='upper-bound' must be"):
        series.min_slack("upper-bound")


def test_without_a_separator_only_the_upper_curve_and_it_needs_the_data() -> None:
    report = report_for("xor")
    assert invariant_series(report).upper is None
    series = invariant_series(report, example("xor"))
    assert series.w_ws is None and series.R_sq == 3
    assert series.upper == fractions(0, 3, 6, 9, 12)  # N·a²·R²
    assert series.min_slack("upper-bound") == (F(invariant(report, "upper-bound")["min_slack"]), 1)


def test_a_separator_that_does_not_separate_gives_no_lower_curve() -> None:
    # The checker skips every claim about w* when γ <= 0; the curves do the same.
    report = report_for("and", separator=[1, 1, 1])
    series = invariant_series(report)
    assert invariant(report, "lower-bound")["skipped"] and series.gamma == -2
    assert series.w_ws is None and series.lower is None and series.bound is None and series.crossing is None
    assert series.min_slack("lower-bound") is None
    assert series.min_slack("upper-bound") == (F(invariant(report, "upper-bound")["min_slack"]), 1)


def test_epoch_ends_are_note_000s_weights() -> None:
    report = report_for("and")
    ends = epoch_ends(report)
    assert [e.epoch for e in ends] == list(range(1, report["n_epochs"] + 1))
    # The note: [0 1 1] after the first epoch, [-4 3 2] in the end.
    assert ends[0].weights == fractions(0, 1, 1) and ends[-1].weights == fractions(-4, 3, 2)
    assert (ends[-1].bias, ends[-1].normal) == (F(-4), fractions(3, 2))


def test_epoch_ends_in_another_convention_give_the_same_boundary() -> None:
    # sum-norm keeps the threshold last, with input -1: the same line, other coordinates.
    ends = epoch_ends(report_for("and", "sum-norm"))
    assert ends[-1].weights == fractions(3, 2, 4) and (ends[-1].bias, ends[-1].normal) == (F(-4), fractions(3, 2))


def test_epoch_ends_of_a_truncated_report_skip_the_epoch_cut_short() -> None:
    report = report_for("and")
    kept = [u for u in report["updates"] if u["k"] <= 6]  # update 6 is in epoch 3
    cut = {**report, "updates": kept, "updates_truncated": True}
    ends = epoch_ends(cut)
    assert [e.epoch for e in ends] == [1, 2, 9]
    assert ends[-1].weights == fractions(-4, 3, 2) and ends[-1].k == 18


def test_hull_meeting_of_xor_is_the_centre() -> None:
    certificate = report_certificate(report_for("xor"))
    assert certificate is not None
    meeting = hull_meeting(example("xor"), certificate)
    assert meeting.point == (F(1, 2), F(1, 2))
    assert meeting.positive == ((1, F(1, 2)), (2, F(1, 2))) and meeting.negative == ((0, F(1, 2)), (3, F(1, 2)))


def test_hull_meeting_rejects_what_is_no_certificate() -> None:
    data = from_arrays([[0, 0], [2, 0], [1, 1], [1, 3]], [1, 1, 0, 0])
    with pytest.raises(InvalidArgument, match="3 values; the data have 4"):
        hull_meeting(data, [F(1, 3)] * 3)
    with pytest.raises(InvalidArgument, match="λ must be >= 0"):
        hull_meeting(data, [F(1), F(1, 2), F(-1, 2), F(0)])
    with pytest.raises(InvalidArgument, match="is \\[1, 0\\] over the positive class but \\[1, 1\\]"):
        hull_meeting(data, [F(1, 4), F(1, 4), F(1, 2), F(0)])


def test_convex_hull_is_exact_and_drops_inner_and_collinear_points() -> None:
    square = [(F(0), F(0)), (F(1), F(0)), (F(1), F(1)), (F(0), F(1))]
    inner = [(F(1, 2), F(1, 2)), (F(1, 2), F(0)), (F(1, 3), F(1, 3))]
    assert convex_hull(square + inner) == square
    assert convex_hull([(F(1), F(1)), (F(1), F(1))]) == [(F(1), F(1))]


def test_available_figures_follow_the_report_and_the_data() -> None:
    and_data = example("and")
    assert available_figures(report_for("and")) == ("invariants", "bounds")
    assert available_figures(report_for("and"), and_data) == ("boundaries", "invariants", "bounds")
    assert available_figures(report_for("xor"), example("xor")) == ("boundaries", "certificate", "invariants")
    assert set(FIGURE_NAMES) == {"boundaries", "projection", "certificate", "invariants", "bounds"}
    with pytest.raises(InvalidArgument, match="data has 3 samples of 2 features, but the report is about 4 samples"):
        available_figures(report_for("and"), from_arrays([[0, 0], [1, 1], [0, 1]], [0, 1, 1]))


# -- the drawings -------------------------------------------------------------------------------


def test_invariant_figure_draws_the_exact_values() -> None:
    pytest.importorskip("matplotlib")
    from verify_perceptron.report.plots import draw_invariants

    report = report_for("and")
    series = invariant_series(report)
    assert series.w_ws is not None and series.lower is not None and series.upper is not None
    fig = draw_invariants(report)
    lower, upper, squeeze = fig.axes
    drawn = {line.get_label(): [float(y) for y in line.get_ydata()]  # type: ignore[union-attr, arg-type]
             for ax in (lower, upper) for line in ax.get_lines()}
    # each panel in the unit of its largest value, here 10^1 (the tick labels show the true values)
    assert drawn[r"$w_k\cdot w^*$"] == [float(v / 10) for v in series.w_ws]
    assert drawn[r"lower bound $N\,a\,\gamma$"] == [float(v / 10) for v in series.lower]
    assert drawn[r"$\Vert w_k\Vert^2$"] == [float(v / 10) for v in series.w_sq]
    assert drawn[r"upper bound $N\,a^2R^2$"] == [float(v / 10) for v in series.upper]
    labels = [line.get_label() for line in squeeze.get_lines()]
    assert "mistake bound B = 87" in labels and "this run: N = 18" in labels
    assert lower.get_xlabel() == "update k (= mistakes N)" and upper.get_ylabel() == r"$\Vert w_k\Vert^2$"


def test_boundary_figure_has_one_panel_per_epoch_titled_with_its_weights() -> None:
    pytest.importorskip("matplotlib")
    from verify_perceptron.report.plots import draw_boundaries

    report = report_for("and")
    titles = [ax.get_title() for ax in draw_boundaries(report, example("and")).axes if ax.get_visible()]
    assert len(titles) == 9
    assert titles[0] == "epoch 1 (after update 2)\n[w0, w1, w2] = [0, 1, 1]\n3 of 4 wrong"
    assert titles[-1] == "epoch 9 (converged)\n[w0, w1, w2] = [-4, 3, 2]\nall correct"


def test_long_runs_show_nine_epochs_the_last_included() -> None:
    pytest.importorskip("matplotlib")
    from verify_perceptron.report.plots import draw_boundaries

    data = from_arrays([[0, 0], [0, 1], [1, 0], [1, 1], ["1/2", "1"]], [0, 0, 0, 1, 1])  # 15 epochs
    report = build_report(data, *verify_run(data))
    titles = [ax.get_title() for ax in draw_boundaries(report, data).axes if ax.get_visible()]
    assert report["n_epochs"] == 15 and len(titles) == 9
    assert titles[0].startswith("epoch 1 (") and titles[-1].startswith("epoch 15 (converged)")


def test_certificate_figure_marks_the_common_point_exactly() -> None:
    pytest.importorskip("matplotlib")
    from verify_perceptron.report.plots import draw_certificate

    fig = draw_certificate(report_for("xor"), example("xor"))
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert "p = (0.5, 0.5)" in texts and r"$\lambda_{1}$ = 0.25" in texts
    with pytest.raises(InvalidArgument, match="no Gordan certificate"):
        draw_certificate(report_for("and"), example("and"))


def test_bounds_figure_without_comparison_marks_this_runs_mistakes() -> None:
    pytest.importorskip("matplotlib")
    from verify_perceptron.report.plots import draw_bounds

    ax = draw_bounds(report_for("and")).axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        "000 classic", "001 hard-limiter", "001 hard-limiter-plus", "002 unit-ball", "003 sum-norm", "004 split-bias"]
    assert sorted({t.get_text().strip() for t in ax.texts}) == ["18 mistakes", "232", "87"]
    with pytest.raises(InvalidArgument, match="no bounds to draw"):
        draw_bounds(report_for("xor"))


def test_svg_is_the_same_every_time_and_has_no_date() -> None:
    pytest.importorskip("matplotlib")
    from verify_perceptron.report.plots import draw_figure, figure_png, figure_svg

    report = report_for("modified-or")
    first = figure_svg(draw_figure("bounds", report))
    assert first == figure_svg(draw_figure("bounds", report))
    assert "<dc:date>" not in first and "Matplotlib v" not in first
    png = figure_png(draw_figure("bounds", report))
    assert png.startswith(b"\x89PNG") and png == figure_png(draw_figure("bounds", report))


def test_draw_figure_names_what_it_needs() -> None:
    from verify_perceptron.report.plots import draw_figure

    with pytest.raises(InvalidArgument, match="figure='pie' is not one of boundaries, projection, certificate"):
        draw_figure("pie", report_for("and"))
    with pytest.raises(InvalidArgument, match="figure='boundaries' needs the data"):
        draw_figure("boundaries", report_for("and"))


def test_three_features_have_a_projection_instead_of_the_boundary_figure() -> None:
    data = from_arrays([[0, 0, 1], [1, 1, 0]], [0, 1])
    report = build_report(data, *verify_run(data))
    assert available_figures(report, data) == ("projection", "invariants", "bounds")
    assert dataclasses.is_dataclass(invariant_series(report))


def test_the_projection_keeps_every_sample_on_its_side_of_both_boundaries() -> None:
    import numpy as np

    from verify_perceptron.report.plots.projection import projection_basis

    data = from_arrays([[3, 1, 0, 2], [1, 2, 2, 0], [0, 0, 3, 1], [2, 3, 1, 1], [4, 0, 1, 3]], [1, 0, 0, 1, 1])
    trace, check = verify_run(data)
    assert check.separator is not None
    for normal in (check.separator, trace.final_weights):
        b, v = float(normal[0]), np.array([float(c) for c in normal[1:]])
        u1, u2 = projection_basis([float(c) for c in check.separator[1:]], [float(c) for c in trace.final_weights[1:]])
        assert abs(u1 @ u2) < 1e-12 and abs(np.linalg.norm(u1) - 1) < 1e-12 and abs(np.linalg.norm(u2) - 1) < 1e-12
        in_plane = (v @ u1, v @ u2)
        for x in data.X:
            point = np.array([float(c) for c in x])
            exact = normal[0] + sum(w * c for w, c in zip(normal[1:], x))
            drawn = b + in_plane[0] * (point @ u1) + in_plane[1] * (point @ u2)
            assert abs(drawn - float(exact)) < 1e-9 * (1 + abs(float(exact)))
    # a normal outside the plane would not keep the sides: the check above can fail
    u1, u2 = projection_basis([1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0])
    assert abs(np.array([0.0, 0.0, 1.0, 0.0]) @ u1) + abs(np.array([0.0, 0.0, 1.0, 0.0]) @ u2) == 0


def test_the_projection_is_drawn_for_many_features() -> None:
    pytest.importorskip("matplotlib")
    from verify_perceptron.report.plots import draw_figure

    data = from_arrays([[3, 1, 0, 2], [1, 2, 2, 0], [0, 0, 3, 1], [2, 3, 1, 1], [4, 0, 1, 3]], [1, 0, 0, 1, 1])
    report = build_report(data, *verify_run(data))
    figure = draw_figure("projection", report, data)
    assert "plane of w* and the final weights" in figure.texts[0].get_text()
    with pytest.raises(InvalidArgument, match="needs the data"):
        draw_figure("projection", report)
