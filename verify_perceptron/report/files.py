"""Writing report files: all at once (a reader never sees half a file), and never over an input."""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Iterable
from pathlib import Path

from ..data.files import not_regular
from ..errors import InvalidArgument

__all__ = ["write_atomically"]


def _same_file(a: Path, b: Path) -> bool:
    if a.exists() and b.exists():
        return os.path.samefile(a, b)
    return os.path.realpath(a) == os.path.realpath(b)


def _writable_target(target: Path, forbidden: Iterable[str | os.PathLike[str]]) -> Path:
    """The regular file to replace for `target` (a link's own file), or `InvalidArgument` saying why not."""
    for other in forbidden:
        if _same_file(target, Path(other)):
            raise InvalidArgument(f"output {target} is an input file ({other}); it would be overwritten")
    if target.is_dir():
        raise InvalidArgument(f"output {target} is a directory, not a file")
    kind = not_regular(str(target))
    if kind is not None:  # renaming over it would replace a device or a pipe with a plain file
        raise InvalidArgument(f"output {target} is {kind}, not a regular file")
    if target.is_symlink():  # write the file the link names, and keep the link
        target = Path(os.path.realpath(target))
    if not target.parent.is_dir():
        raise InvalidArgument(f"output {target}: the directory {target.parent} does not exist")
    return target


def _new_temporary(target: Path) -> tuple[int, Path]:
    """A new hidden file beside `target`, open for writing: ``(descriptor, path)``."""
    try:
        while True:
            temporary = target.parent / f".{target.name}.{secrets.token_hex(6)}.tmp"
            try:
                flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
                return os.open(temporary, flags, 0o666), temporary
            except FileExistsError:
                continue
    except OSError as error:
        raise InvalidArgument(f"output {target}: cannot be written ({error.strerror})") from None


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
    target = _writable_target(Path(path), forbidden)
    payload = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    fd, temporary = _new_temporary(target)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        if target.exists():
            os.chmod(temporary, stat.S_IMODE(os.stat(target).st_mode))
        os.replace(temporary, target)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise InvalidArgument(f"output {target}: cannot be written ({error.strerror})") from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
