"""A command's output files as one unit: all of them put in place when it has finished, or none.

`Outputs` holds the files a command writes (the report, the trace, a
Markdown report's figures). Each is named before the command runs: its
target is checked and its temporary file made then (`PendingFile`), so a
missing folder, a read-only file system, a directory or a file in the way
is a usage error before anything has run. `commit`, once the command has
finished, puts them all in place; anything that ends the command before
(an error, the time limit, a signal, Ctrl-C) leaves `Outputs` through
`discard`, which removes every temporary file and leaves every existing
file as it was.

A Markdown report and its figures are one unit too (`FigureFolder`): the
figures go in the folder beside the report (``report_figures/`` for
``report.md``, made when missing; the report's own folder must exist), under
names no other run can share (``invariants-3f9a0c51d2e4.svg``: the figure
and a token drawn for the run). Two runs writing the same report at once
therefore never mix: whichever report is put in place last links its own
figures, which nothing else writes or removes. When a report replaces an
earlier one, the figures the earlier one linked in that folder are removed.

Examples
--------
>>> import tempfile
>>> folder = tempfile.mkdtemp()
>>> with Outputs() as outputs:
...     report = outputs.file(os.path.join(folder, "r.md"))
...     figures = outputs.figures(report)
...     link = figures.add("bounds", "<svg/>")
...     report.write(f"![bounds]({link})\\n")
...     outputs.commit()
>>> sorted(os.listdir(folder)), link == "r_figures/" + os.listdir(figures.path)[0]
(['r.md', 'r_figures'], True)
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import signal
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import TracebackType
from urllib.parse import quote

from ..errors import InvalidArgument
from .files import PendingFile, same_file

__all__ = ["FigureFolder", "Outputs"]

#: A figure's name in a link: a word (`verify_perceptron.report.plots.FIGURE_NAMES`).
_FIGURE_NAME = re.compile(r"[a-z]+")
#: Longest line read from a report being replaced, when looking for the figures it links.
_LINE = 1 << 20


def _probe(folder: Path) -> None:
    """Raise `OSError` unless a new file can be made in `folder` (a read-only file system, no permission)."""
    probe = folder / f".verify-perceptron.{secrets.token_hex(6)}.tmp"
    os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    os.unlink(probe)


class FigureFolder:
    """The folder of a Markdown report's figures, each under a name only this run uses.

    Made by `Outputs.figures`: the folder beside the report, ``NAME_figures``
    for ``NAME.md``, is checked then (it must be a folder or not exist, and be
    writable), and made if missing (removed again should the command fail;
    the report's own folder must exist). `add` writes a figure and returns
    its link, relative to the report and URL-quoted.
    """

    def __init__(self, document: PendingFile) -> None:
        self.document = document
        self.path = Path(os.path.splitext(str(document.given))[0] + "_figures")
        self.token = secrets.token_hex(6)
        self.created = False
        self.written: list[Path] = []
        where = f"{document.what} {document.given}"
        try:
            if (self.path.is_symlink() or self.path.exists()) and not self.path.is_dir():
                raise InvalidArgument(f"{where}: its figures go in {self.path}, which is a file, not a folder")
            if not self.path.is_dir():  # made now, so a name too long or a folder not writable shows before the run
                os.mkdir(self.path)
                self.created = True
            _probe(self.path)
        except OSError as error:
            self.discard()
            raise InvalidArgument(f"{where}: its figures cannot be written in {self.path} ({error.strerror})") from None

    def _refused(self, file: Path, error: OSError) -> InvalidArgument:
        return InvalidArgument(f"{self.document.what} {self.document.given}: its figure {file} cannot be written "
                               f"({error.strerror or error})")

    def add(self, name: str, content: str | bytes, *, suffix: str = "svg") -> str:
        """Write figure `name` and return its link from the report (``report_figures/bounds-0a1b2c3d4e5f.svg``)."""
        if not _FIGURE_NAME.fullmatch(name) or not _FIGURE_NAME.fullmatch(suffix):
            raise InvalidArgument(f"figure name={name!r}.{suffix} must be a lower-case word")
        file = self.path / f"{name}-{self.token}.{suffix}"
        try:
            if not self.path.is_dir():
                os.mkdir(self.path)
                self.created = True
            fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
        except OSError as error:
            raise self._refused(file, error) from None
        self.written.append(file)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(content.encode("utf-8") if isinstance(content, str) else content)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as error:
            raise self._refused(file, error) from None
        return quote(f"{self.path.name}/{file.name}")

    def linked_by(self, report: Path) -> set[Path]:
        """The files of this folder that `report` (an earlier report) links under a run's name, read line by line."""
        pattern = re.compile(re.escape(quote(self.path.name)) + r"/([a-z]+-[0-9a-f]{12}\.[a-z]+)\)")
        found: set[Path] = set()
        try:
            if not report.is_file():
                return found
            with open(report, encoding="utf-8", errors="replace") as handle:
                for line in iter(lambda: handle.readline(_LINE), ""):
                    found.update(self.path / name for name in pattern.findall(line))
        except OSError:
            pass  # an earlier report that cannot be read leaves its figures: nothing is lost
        return found

    def remove(self, files: Iterable[Path]) -> None:
        """Remove `files` (an earlier report's figures), but never one this run wrote."""
        for file in set(files) - set(self.written):
            with contextlib.suppress(OSError):
                if file.is_file() and not file.is_symlink():
                    os.unlink(file)

    def discard(self) -> None:
        """Remove what this run wrote: its figures, and the folder if this run made it."""
        for file in self.written:
            with contextlib.suppress(OSError):
                os.unlink(file)
        self.written = []
        if self.created:
            with contextlib.suppress(OSError):
                os.rmdir(self.path)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGALRM held while files are renamed into place, so the renames are not cut in two."""
    held = {signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGALRM", signal.SIGTERM)}
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)  # a signal that came meanwhile is handled now


class Outputs:
    """The files one command writes, put in place all together by `commit`, or none of them.

    Use it as a context manager: leaving the block without `commit` (an
    exception, a signal) removes every temporary file and figure written.

    Parameters
    ----------
    inputs : iterable of path-like
        The command's input files: no output may replace one.
    """

    def __init__(self, *, inputs: Iterable[str | os.PathLike[str] | None] = ()) -> None:
        self.inputs = [p for p in inputs if p]
        self.files: list[PendingFile] = []
        self.folders: list[FigureFolder] = []
        self.committed = False

    def __enter__(self) -> Outputs:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if not self.committed:
            self.discard()

    def _clash(self, path: Path, what: str) -> None:
        for other in self.files:
            if same_file(path, other.given):
                raise InvalidArgument(f"{what} {path} and {other.what} {other.given} are the same file")
        for folder in self.folders:
            if same_file(path, folder.path):
                raise InvalidArgument(f"{what} {path} is where the figures of {folder.document.given} go")

    def file(self, path: str | os.PathLike[str], *, what: str = "output") -> PendingFile:
        """A new output file, checked and its temporary file made now (see `PendingFile`)."""
        self._clash(Path(path), what)
        pending = PendingFile(path, what=what, forbidden=self.inputs)
        self.files.append(pending)
        return pending

    def figures(self, document: PendingFile) -> FigureFolder:
        """The figure folder of the Markdown report `document`, checked now (see `FigureFolder`)."""
        folder = FigureFolder(document)
        for other in self.files:
            if same_file(folder.path, other.given):
                raise InvalidArgument(f"{document.what} {document.given}: its figures go in {folder.path}, "
                                      f"which is {other.what} {other.given}")
        self.folders.append(folder)
        return folder

    def commit(self) -> None:
        """Put every file in place: first each is flushed to disk (a full disk shows here and changes nothing),
        then all are renamed with signals held; then the figures of the reports replaced are removed."""
        for pending in self.files:
            pending.finish()
        replaced = {id(folder): folder.linked_by(folder.document.target) for folder in self.folders}
        with _signals_held():
            for pending in self.files:
                pending.place()
            self.committed = True
        for folder in self.folders:
            folder.remove(replaced[id(folder)])

    def discard(self) -> None:
        """Remove every temporary file and every figure written; existing files stay as they were."""
        for pending in self.files:
            pending.discard()
        for folder in self.folders:
            if not folder.document.placed:  # a report in place keeps its figures, whatever failed after it
                folder.discard()
