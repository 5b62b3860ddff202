"""Writing report files: all at once (a reader never sees half a file), and never over an input.

A file is written to a new hidden file in its target's folder, flushed to
disk, then renamed over the target (`os.replace`, atomic on POSIX and
Windows): a reader sees the old file or the new one, never a part, and a
failure at any point (a full disk, a read-only file system, an error, a
signal) leaves the old file as it was and removes the new one.
`write_atomically` does it in one call; a `PendingFile` does it in steps,
so that its temporary file is made (and any reason it cannot be written
found) before a run, filled while or after it runs, and put in place only
when it has finished (`verify_perceptron.report.outputs.Outputs` keeps a
command's files together).

The rule for every file: the folder it goes in must exist (nothing creates
it), and the file itself must be a regular file or not exist. A directory,
a FIFO, a device or a socket is refused, never replaced, and so is a file
that is one of the command's inputs, however it is spelled. A symbolic link
is followed: the file it names is replaced and the link stays.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

from ..data.files import not_regular
from ..errors import InvalidArgument

__all__ = ["PendingFile", "same_file", "write_atomically"]


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Whether `a` and `b` name one file: the same file when both exist, else the same resolved path.

    Examples
    --------
    >>> same_file("/tmp/../tmp/x.md", "/tmp/x.md")
    True
    """
    try:
        if os.path.exists(a) and os.path.exists(b):
            return os.path.samefile(a, b)
        return os.path.realpath(a) == os.path.realpath(b)
    except (OSError, ValueError):
        return False


def _writable_target(target: Path, forbidden: Iterable[str | os.PathLike[str]], what: str) -> Path:
    """The regular file to replace for `target` (a link's own file), or `InvalidArgument` saying why not."""
    if "\0" in str(target):
        raise InvalidArgument(f"{what} {str(target)!r}: a file name cannot hold a NUL character")
    try:
        return _checked_target(target, forbidden, what)
    except OSError as error:  # a name too long, a folder that cannot be searched
        raise InvalidArgument(f"{what} {target}: cannot be written ({error.strerror or error})") from None


def _checked_target(target: Path, forbidden: Iterable[str | os.PathLike[str]], what: str) -> Path:
    for other in forbidden:
        if same_file(target, other):
            raise InvalidArgument(f"{what} {target} is an input file ({other}); it would be overwritten")
    if target.is_dir():
        raise InvalidArgument(f"{what} {target} is a directory, not a file")
    kind = not_regular(str(target))
    if kind is not None:  # renaming over it would replace a device or a pipe with a plain file
        raise InvalidArgument(f"{what} {target} is {kind}, not a regular file")
    if target.is_symlink():  # write the file the link names, and keep the link
        target = Path(os.path.realpath(target))
    if not target.parent.is_dir():
        raise InvalidArgument(f"{what} {target}: the directory {target.parent} does not exist")
    return target


def _new_temporary(target: Path, what: str) -> tuple[int, Path]:
    """A new hidden file beside `target`, open for writing: ``(descriptor, path)``."""
    try:
        while True:
            # (the name cut short: a target's name near the 255-byte limit leaves no room for the token)
            temporary = target.parent / f".{target.name[:64]}.{secrets.token_hex(6)}.tmp"
            try:
                flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
                return os.open(temporary, flags, 0o666), temporary
            except FileExistsError:
                continue
    except OSError as error:
        raise InvalidArgument(f"{what} {target}: cannot be written ({error.strerror})") from None


class PendingFile:
    """A file being written: a hidden temporary beside its target now, the target itself once `place` d.

    Making one checks the target (see the module's rule) and creates the
    temporary file, so a folder that is missing or cannot be written is
    found at once. `write` adds to it; `finish` flushes it to disk; `place`
    renames it over the target (an existing file keeps its permissions);
    `discard` removes it, whatever state it is in. Every failure is an
    `InvalidArgument` naming the target and the reason (``No space left on
    device``), and leaves the target as it was.

    Parameters
    ----------
    path : path-like
        The target.
    what : str
        How messages name it (``output``, ``--trace``).
    forbidden : iterable of path-like
        Files it must not replace (the inputs).

    Examples
    --------
    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> pending = PendingFile(os.path.join(folder, "t.jsonl"), what="--trace")
    >>> pending.write('{"k": 1}\\n')
    >>> os.listdir(folder) == [pending.temporary.name]
    True
    >>> pending.finish(); pending.place()
    >>> os.listdir(folder), open(pending.target).read()
    (['t.jsonl'], '{"k": 1}\\n')
    """

    def __init__(self, path: str | os.PathLike[str], *, what: str = "output",
                 forbidden: Iterable[str | os.PathLike[str]] = ()) -> None:
        self.given, self.what = Path(path), what
        self.target = _writable_target(self.given, forbidden, what)
        fd, self.temporary = _new_temporary(self.target, what)
        self._handle: BinaryIO | None = os.fdopen(fd, "wb")
        self.placed = False

    def _refused(self, error: OSError) -> InvalidArgument:
        return InvalidArgument(f"{self.what} {self.given}: cannot be written ({error.strerror or error})")

    def write(self, text: str | bytes) -> None:
        """Add `text` (UTF-8, byte for byte: no newline translation)."""
        if self._handle is None:
            raise InvalidArgument(f"{self.what} {self.given}: written after it was finished")
        try:
            self._handle.write(text.encode("utf-8") if isinstance(text, str) else text)
        except OSError as error:
            raise self._refused(error) from None

    def finish(self) -> None:
        """Flush the file to disk and close it: the last point where a full disk shows."""
        if self._handle is None:
            return
        handle, self._handle = self._handle, None
        try:
            with handle:
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as error:
            raise self._refused(error) from None

    def place(self) -> None:
        """Rename the finished file over its target."""
        self.finish()
        try:
            if self.target.exists():
                os.chmod(self.temporary, stat.S_IMODE(os.stat(self.target).st_mode))
            os.replace(self.temporary, self.target)
        except OSError as error:
            raise self._refused(error) from None
        self.placed = True

    def discard(self) -> None:
        """Remove the temporary file (nothing once placed); the target stays as it was."""
        if self._handle is not None:
            handle, self._handle = self._handle, None
            with contextlib.suppress(OSError):
                handle.close()
        if not self.placed:
            with contextlib.suppress(OSError):
                os.unlink(self.temporary)


def write_atomically(
    path: str | os.PathLike[str],
    text: str | bytes,
    *,
    forbidden: Iterable[str | os.PathLike[str]] = (),
) -> None:
    """Write `text` to `path` all at once: a reader sees the old file or the new one, never a part.

    The text goes to a new file in the same directory, is flushed to disk,
    then renamed over `path` (`os.replace`, atomic on POSIX and Windows). An
    existing file keeps its permissions; a new one gets the usual ones (the
    umask applies). Text is written as UTF-8, byte for byte (no newline translation).

    Parameters
    ----------
    path : path-like
        The file to write.
    text : str or bytes
    forbidden : iterable of path-like
        Files that must not be overwritten (the inputs): `path` naming any of
        them, through a link or not, is refused.

    A symbolic link is followed: the file it names is replaced and the link
    stays. A FIFO, a device or a socket is refused, never replaced.

    Raises
    ------
    InvalidArgument
        If `path` is one of `forbidden`, a directory, not a regular file, or cannot be written; nothing
        is changed then.

    Examples
    --------
    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> target = os.path.join(folder, "report.md")
    >>> write_atomically(target, "# report\\n")
    >>> open(target, encoding="utf-8").read()
    '# report\\n'
    >>> write_atomically(target, "x", forbidden=[target])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    verify_perceptron.errors.InvalidArgument: output ... is an input file (...); it would be overwritten
    """
    pending = PendingFile(path, forbidden=forbidden)
    try:
        pending.write(text)
        pending.place()
    finally:
        pending.discard()
