"""The README's walk-through on breast cancer at the default 1,000 epochs, and small data whose enclosures
once broke the text report (a decimal's digits shortened, then parsed back: exit 4)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import verify_perceptron as vp
from verify_perceptron.cli import main
from verify_perceptron.data.exact_text import read_integer
from verify_perceptron.report.text import render_text

sklearn_datasets = pytest.importorskip("sklearn.datasets")


@pytest.fixture(scope="module")
def cancer_csv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The README's export: ``np.savetxt('cancer.csv', np.c_[X, y], fmt='%g', delimiter=',')``."""
    X, y = sklearn_datasets.load_breast_cancer(return_X_y=True)
    path = tmp_path_factory.mktemp("walkthrough") / "cancer.csv"
    np.savetxt(path, np.c_[X, y], fmt="%g", delimiter=",")
    return path


def test_the_walkthrough_at_default_epochs_renders(cancer_csv: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`verify cancer.csv` (1,000 epochs) as JSON, then as text from that record (Markdown and HTML: the slow form)."""
    assert main(["verify", str(cancer_csv), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out, parse_int=read_integer)
    assert report["verdict"] == "stopped-separable" and report["enclosures"]
    text = render_text(report)
    assert "verdict: VERIFIED AS FAR AS IT RAN" in text and "∈ [" in text


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["text", "json", "markdown", "html"])
def test_the_walkthrough_in_every_format(cancer_csv: Path, fmt: str, tmp_path: Path) -> None:
    out = tmp_path / f"report.{fmt}"
    assert main(["verify", str(cancer_csv), "--format", fmt, "-o", str(out)]) == 0
    assert out.stat().st_size > 0


@pytest.mark.slow
@pytest.mark.parametrize("epochs", ["300", "3000", "10000"])
def test_the_walkthrough_at_other_epochs(cancer_csv: Path, epochs: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(cancer_csv), "--max-epochs", epochs]) == 0
    assert "VERIFIED AS FAR AS IT RAN" in capsys.readouterr().out


@pytest.mark.slow
def test_the_walkthrough_through_the_api() -> None:
    """The API's print and the estimator's report. The floats are read as their shortest decimals, as the CSV
    export has them: read as binary fractions the same report takes about 30 s of exact arithmetic in the engine."""
    X, y = sklearn_datasets.load_breast_cancer(return_X_y=True)
    assert "VERIFIED AS FAR AS IT RAN" in str(vp.verify(X, y, floats="decimal"))
    fitted = vp.ExactPerceptron(floats="decimal").fit(X, y)
    assert "VERIFIED AS FAR AS IT RAN" in str(fitted.verification_)
    pytest.importorskip("pandas")
    frame = sklearn_datasets.load_breast_cancer(as_frame=True).frame
    assert "VERIFIED AS FAR AS IT RAN" in str(vp.verify(frame, "target", floats="decimal"))


def one_feature_sets(count: int) -> Iterator[tuple[list[list[int]], list[int]]]:
    """A sample at 0 (class 0) and up to 8 integers of up to 999 in size, labelled by their sign: the run
    converges in a few updates with a cos∠ bound of about 10^-6, whose enclosure is a 17-character decimal."""
    for seed in range(count):
        rng = random.Random(seed)
        X = [[0]] + [[rng.choice([-1, 1]) * rng.randint(1, 999)] for _ in range(rng.randint(2, 8))]
        y = [0] + [int(x[0] > 0) for x in X[1:]]
        if len(set(y)) == 2:
            yield X, y


def test_small_integer_data_render_as_text() -> None:
    """Of these 40 sets, 31 ended in 'Invalid literal for Fraction' before the fix."""
    shown = [str(vp.verify(X, y)) for X, y in one_feature_sets(40)]
    assert len(shown) > 30 and all("verdict: VERIFIED" in text for text in shown)
