"""Browser screenshots of the HTML report, as a person opens it: breast cancer at 200 epochs and iris setosa/versicolor.

Run from the repository root::

    python benchmarks/screenshots.py [DIRECTORY]        # default: screenshots/ (not committed)

It needs scikit-learn (the breast-cancer data), matplotlib (the figures) and
headless Chromium (Debian: ``apt-get install chromium``). For each report it
writes ``NAME.html`` (``verify-perceptron verify ... --format html``) and two
PNG files taken by ``chromium --headless --screenshot``: ``NAME-top.png``,
the top of the page (the verdict, the summary table with the final weights
written as decimals), and ``NAME-invariants.png``, the invariants figure
(opened at its anchor), which draws the whole run and says so in its title
and caption. ``tests/test_screenshots.py`` (slow) runs it and checks the
PNGs; it skips where Chromium is missing.

The breast-cancer data are exported as the README's walk-through exports
them (``np.savetxt(..., fmt='%g')``); iris setosa/versicolor is the
gallery's CSV (``reports/data/iris-setosa-versicolor.csv``), every value its
printed decimal.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from verify_perceptron.cli import main  # noqa: E402

#: The browsers tried, in order.
BROWSERS = ("chromium", "chromium-browser", "google-chrome")
#: The window a screenshot is taken in: wide enough for the page's 1120-pixel column.
WINDOW = (1280, 1800)


def browser() -> str | None:
    """The headless browser's path, or None."""
    return next((path for name in BROWSERS if (path := shutil.which(name))), None)


def cancer_csv(folder: Path) -> Path:
    """breast cancer as the README exports it."""
    import numpy as np
    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True)
    path = folder / "cancer.csv"
    np.savetxt(path, np.c_[X, y], fmt="%g", delimiter=",")
    return path


def reports(folder: Path) -> dict[str, list[str]]:
    """Each report's name and its `verify` arguments."""
    return {
        "breast-cancer-200-epochs": [str(cancer_csv(folder)), "--max-epochs", "200"],
        "iris-setosa-versicolor": [str(ROOT / "reports" / "data" / "iris-setosa-versicolor.csv"),
                                   "--positive", "versicolor"],
    }


def screenshot(chrome: str, page: Path, png: Path, anchor: str = "") -> None:
    """`page` (scrolled to `anchor`) as a PNG, in a fresh headless profile.

    Headless Chromium's ``--screenshot`` does not scroll to a URL's fragment, but a frame does: the page at
    its anchor is shot inside a borderless frame of the window's size (a page of this script's own).
    """
    if anchor:
        frame = png.with_suffix(".frame.html")
        frame.write_text(f'<!DOCTYPE html><html><body style="margin:0"><iframe src="{page.name}{anchor}" '
                         f'style="border:0;width:{WINDOW[0]}px;height:{WINDOW[1]}px"></iframe></body></html>\n',
                         encoding="utf-8")
        page, anchor = frame, ""
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([chrome, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--user-data-dir={profile}", f"--window-size={WINDOW[0]},{WINDOW[1]}",
                        f"--screenshot={png}", page.resolve().as_uri() + anchor],
                       check=True, capture_output=True, timeout=120)


def take(folder: Path) -> list[Path]:
    """Write every report and its screenshots into `folder`; the PNGs' paths."""
    chrome = browser()
    if chrome is None:
        raise SystemExit("no headless Chromium: apt-get install chromium")
    folder.mkdir(parents=True, exist_ok=True)
    pngs = []
    for name, arguments in reports(folder).items():
        page = folder / f"{name}.html"
        code = main(["verify", *arguments, "--format", "html", "-o", str(page)])
        if code != 0:
            raise SystemExit(f"verify {' '.join(arguments)} exited {code}")
        for part, anchor in (("top", ""), ("invariants", "#figure-invariants")):
            pngs.append(folder / f"{name}-{part}.png")
            screenshot(chrome, page, pngs[-1], anchor)
    return pngs


if __name__ == "__main__":
    for path in take(Path(sys.argv[1] if len(sys.argv) > 1 else "screenshots")):
        print(path)
