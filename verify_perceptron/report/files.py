"""Writing report files: all at once (a reader never sees half a file), and never over an input."""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Iterable
from pathlib import Path

from ..errors import InvalidArgument

__all__ = ["write_atomically"]


def _same_file(a: Path, b: Path) -> bool:
    if a.exists() and b.exists():
        return os.path.samefile(a, b)
    return os.path.realpath(a) == os.path.realpath(b)


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

    Raises
    ------
    InvalidArgument
        If `path` is one of `forbidden`, a directory, or cannot be written; nothing is changed then.

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
    target = Path(path)
    for other in forbidden:
        if _same_file(target, Path(other)):
            raise InvalidArgument(f"output {target} is an input file ({other}); it would be overwritten")
    if target.is_dir():
        raise InvalidArgument(f"output {target} is a directory, not a file")
    directory = target.parent
    if not directory.is_dir():
        raise InvalidArgument(f"output {target}: the directory {directory} does not exist")
    payload = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    try:
        while True:
            temporary = directory / f".{target.name}.{secrets.token_hex(6)}.tmp"
            try:
                fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
                break
            except FileExistsError:
                continue
    except OSError as error:
        raise InvalidArgument(f"output {target}: cannot be written ({error.strerror})") from None
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
