"""The ``reports/`` gallery: the notes' worked examples and real data, as reports to read.

Regenerate it, from the repository root, with::

    python -m verify_perceptron.gallery            # or: python -m verify_perceptron.gallery DIRECTORY

Each entry is one ``verify-perceptron verify`` run (its arguments are in
`ENTRIES`, as a user would type them from the repository root), rendered as
``NAME.md`` (figures linked from ``figures/``), ``NAME.html`` (one
self-contained page) and ``NAME.json`` (the command's own ``--format json``
output). ``README.md`` indexes them. The real data are Fisher's iris as
scikit-learn ships it, written to ``data/`` as CSV with every value as its
printed decimal (1.4, read exactly as 7/5).

`gallery_files` builds every file in memory, so a test can compare them with
the committed ones: the text exactly, the images by their text and size (the
drawing's fine detail may differ between matplotlib versions). Like the
rest of the library this module prints nothing; it needs matplotlib (the
figures) and scikit-learn (the iris data).
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .data.dataset import Dataset
from .data.readers import load_dataset
from .report.schema import Report
from .report.documents import render_html, render_markdown
from .report.files import write_atomically
from .errors import InvalidArgument
from .data.examples import example
from .report.plots import available_figures, draw_figure, figure_svg
from .report.record import render_json

__all__ = ["ENTRIES", "GENERATED_BY", "GalleryEntry", "default_directory", "gallery_files", "iris_csv",
           "write_gallery"]

#: The command that regenerates the gallery (shown in its index and in test failures).
GENERATED_BY = "python -m verify_perceptron.gallery"


def iris_csv(negative: str, positive: str) -> str:
    """Two of the iris species, petal length and width in cm, as CSV with the values as printed.

    scikit-learn reads its bundled iris file into binary floats; each one is
    written back as the shortest decimal that reads as that float, which for
    these one-decimal measurements is the decimal in the file (``1.4``), and
    the toolkit then reads it exactly (7/5).

    Examples
    --------
    >>> print(iris_csv("setosa", "versicolor").splitlines()[:2])
    ['petal_length_cm,petal_width_cm,species', '1.4,0.2,setosa']
    """
    try:
        from sklearn.datasets import load_iris
    except ImportError:
        raise InvalidArgument("the iris entries need scikit-learn: pip install scikit-learn") from None
    iris = load_iris()
    names = [str(n) for n in iris.target_names]
    for species in (negative, positive):
        if species not in names:
            raise InvalidArgument(f"species={species!r} is not one of {', '.join(names)}")
    petal_length, petal_width = (list(iris.feature_names).index(f"petal {m} (cm)") for m in ("length", "width"))
    lines = ["petal_length_cm,petal_width_cm,species"]
    for row, target in zip(iris.data, iris.target):
        species = names[int(target)]
        if species in (negative, positive):
            lines.append(f"{float(row[petal_length])!r},{float(row[petal_width])!r},{species}")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class GalleryEntry:
    """One report of the gallery.

    Attributes
    ----------
    name : str
        File stem of its documents.
    title, description : str
        The documents' heading and opening paragraph.
    arguments : tuple of str
        ``verify-perceptron verify`` arguments, as typed from the repository root.
    data_file : str or None
        The CSV under ``data/`` it reads (None for a built-in example).
    data_csv : callable or None
        Builds that CSV's text.
    """

    name: str
    title: str
    description: str
    arguments: tuple[str, ...]
    data_file: str | None = None
    data_csv: Callable[[], str] | None = None

    @property
    def command(self) -> str:
        """The command line that reproduces this report (as JSON), from the repository root."""
        return "verify-perceptron verify " + " ".join(self.arguments) + " --format json"


ENTRIES: tuple[GalleryEntry, ...] = (
    GalleryEntry(
        "and", "Boolean AND, note 000's worked example",
        "Note 000, Table 1: the boolean AND of two inputs (0 read as -1), the samples in the table's order, "
        "η = 1, under the note's own convention. The note works the first epoch by hand and draws the decision "
        "boundary after some epochs; here every epoch is drawn, every claim of the proof is checked at every "
        "update, and the five notes' bounds are set beside the mistakes.",
        ("--example", "and", "--compare"),
    ),
    GalleryEntry(
        "modified-or-incremental", "Modified OR, note 003, incremental mode",
        "Note 003's modified OR: (x1, x2) in {-1, 1}², target -1 at (-1, -1) and +1 elsewhere, ε = 1, in "
        "the note's sum-norm convention (threshold input -1 last). The note tabulates every step of the "
        "incremental mode.",
        ("--example", "modified-or", "--compare"),
    ),
    GalleryEntry(
        "modified-or-batch", "Modified OR, note 003, batch mode",
        "The same data in note 003's batch mode: the mistakes of a whole pass are added together at its end. "
        "The notes prove no bound for this mode; the report checks the forms that do hold (the batch upper "
        "bound a²·R²·Σn² and N <= n_max·B).",
        ("--example", "modified-or", "--mode", "batch", "--compare"),
    ),
    GalleryEntry(
        "xor", "Boolean XOR: not separable",
        "XOR has no separating line. After one epoch the perceptron is back at w = 0, so it would cycle for "
        "ever; the mistakes of that epoch, normalised, are Gordan's certificate, and the figure shows the "
        "point where the two classes' convex hulls meet.",
        ("--example", "xor"),
    ),
    GalleryEntry(
        "iris-setosa-versicolor", "Iris: setosa against versicolor (real data)",
        "Fisher's iris as scikit-learn ships it (sklearn.datasets.load_iris): setosa (-1) against versicolor "
        "(+1) on petal length and petal width in cm, 100 flowers in the file's order. The values are read as "
        "their printed decimals, so 1.4 is exactly 7/5; the CSV is in data/.",
        ("reports/data/iris-setosa-versicolor.csv", "--positive", "versicolor", "--compare"),
        "iris-setosa-versicolor.csv", lambda: iris_csv("setosa", "versicolor"),
    ),
    GalleryEntry(
        "iris-versicolor-virginica", "Iris: versicolor against virginica (real data, not separable)",
        "The same measurements, versicolor (-1) against virginica (+1): the two classes overlap, and the exact "
        "decision proves that no line separates them. The run is stopped after 50 epochs (--max-epochs 50): "
        "the certificate shows that no number of epochs would do.",
        ("reports/data/iris-versicolor-virginica.csv", "--positive", "virginica", "--max-epochs", "50"),
        "iris-versicolor-virginica.csv", lambda: iris_csv("versicolor", "virginica"),
    ),
)


def default_directory() -> Path:
    """The repository's ``reports/`` folder, beside the package in a source checkout.

    Raises `InvalidArgument` when the package is not run from a checkout (an
    installed copy has no repository to write into): give a directory then.
    """
    root = Path(__file__).resolve().parent.parent
    if not (root / "pyproject.toml").is_file():
        raise InvalidArgument(f"{root} is not a source checkout of verify-perceptron: give the gallery a DIRECTORY")
    return root / "reports"


def _run(entry: GalleryEntry, data_dir: Path) -> tuple[Report, Dataset]:
    """The report, exactly as ``verify ... --format json`` prints it, and the data it is about."""
    from .cli import main  # the command itself, so that the gallery shows what users get

    arguments = list(entry.arguments)
    if entry.data_file is not None:
        path = data_dir / entry.data_file
        arguments[0] = str(path)
        positive = arguments[arguments.index("--positive") + 1] if "--positive" in arguments else None
        data = load_dataset(str(path), positive=positive)
    else:
        data = example(arguments[arguments.index("--example") + 1])
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        code = main(["verify", *arguments, "--format", "json"])
    report = json.loads(output.getvalue()) if output.getvalue() else None
    if report is None or code != report["exit_code"]:
        raise InvalidArgument(f"gallery entry {entry.name}: verify exited with code {code}")
    if entry.data_file is not None:
        # The run read a scratch copy; name the file as the command line above does.
        report["dataset"]["source"] = entry.arguments[0]
    return report, data


def _index(rows: Sequence[tuple[GalleryEntry, Report]]) -> str:
    lines = [
        "# Gallery of reports",
        "",
        f"Generated by `{GENERATED_BY}` from the repository root; do not edit by hand (a test fails when "
        "these files differ from what the command writes). Each report is the `verify` command's run, shown "
        "three ways: Markdown (read it here), one self-contained HTML page (download it and open it in a "
        "browser: figures inside, no network, no script), and the command's own JSON.",
        "",
        "| report | verdict | updates | mistake bound (own note) | files | reproduce |",
        "|---|---|---:|---:|---|---|",
    ]
    for entry, report in rows:
        own = [b for b in report["bounds"] if b["own"]]
        bound = f"`{own[0]['value']}`" if own else ""
        files = f"[Markdown]({entry.name}.md) · [HTML]({entry.name}.html) · [JSON]({entry.name}.json)"
        lines.append(f"| {entry.title} | {report['verdict']} | {report['n_updates']} | {bound} | {files} | "
                     f"`{entry.command}` |")
    lines += [
        "",
        "The iris files in `data/` are written by the same command, from scikit-learn's copy of the data.",
        "",
    ]
    return "\n".join(lines)


def gallery_files(entries: Sequence[GalleryEntry] = ENTRIES, *, draw: bool = True) -> dict[str, str]:
    """Every file of the gallery, ``{path relative to reports/: text}``, built in memory.

    With ``draw=False`` nothing is drawn: each figure's file is listed with
    empty text, and the HTML pages embed empty images, but every other byte
    is what ``draw=True`` gives (a quick check of all the text). Drawing
    needs matplotlib and takes a few seconds; the iris entries need scikit-learn.
    """
    files: dict[str, str] = {}
    rows = []
    with tempfile.TemporaryDirectory(prefix="verify-perceptron-gallery-") as scratch:
        data_dir = Path(scratch)
        for entry in entries:
            if entry.data_file is not None and entry.data_csv is not None:
                text = entry.data_csv()
                files[f"data/{entry.data_file}"] = text
                (data_dir / entry.data_file).write_text(text, encoding="utf-8")
            report, data = _run(entry, data_dir)
            names = available_figures(report, data)
            svgs = {name: figure_svg(draw_figure(name, report, data)) if draw else "" for name in names}
            links = {name: f"figures/{entry.name}-{name}.svg" for name in names}
            for name in names:
                files[links[name]] = svgs[name]
            files[f"{entry.name}.md"] = render_markdown(report, data=data, figures=links, title=entry.title,
                                                        description=entry.description, command=entry.command)
            files[f"{entry.name}.html"] = render_html(report, data=data, figures=svgs, title=entry.title,
                                                      description=entry.description, command=entry.command)
            files[f"{entry.name}.json"] = render_json(report)
            rows.append((entry, report))
    files["README.md"] = _index(rows)
    return dict(sorted(files.items()))


def write_gallery(directory: str | Path | None = None) -> list[Path]:
    """Write the gallery into `directory` (default: the repository's ``reports/``), each file atomically.

    Files of the directory that the gallery does not make are left alone.
    Returns the paths written.
    """
    target = Path(directory) if directory is not None else default_directory()
    written = []
    for name, text in gallery_files().items():
        path = target / name
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, text)
        written.append(path)
    return written


def _main(argv: Sequence[str]) -> None:
    # `python -m verify_perceptron.gallery [DIRECTORY]`: regenerate the gallery, silently.
    if len(argv) > 1:
        raise InvalidArgument(f"arguments={list(argv)!r}: expected at most one directory")
    write_gallery(argv[0] if argv else None)


if __name__ == "__main__":
    _main(sys.argv[1:])
