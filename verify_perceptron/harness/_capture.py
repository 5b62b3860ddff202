"""What an implementation prints or writes, read within fixed limits and never blocking: its output
kept as a head and a tail (what lies between counted, not kept), pipes drained against a deadline, and
files read only when they are regular and small enough.

The limits: `HEAD_BYTES` and `TAIL_BYTES` of everything a target or command prints (its standard output
and error, in the order written), the rest counted; a weights file (``{out}``) of at most
`MAX_WEIGHTS_BYTES`, an updates file (``{updates}``) of at most `MAX_UPDATES_BYTES`. A file that is a
FIFO, a device, a socket or a directory is refused before it is read.
"""

from __future__ import annotations

import contextlib
import io
import os
import select
import stat
import sys
import threading
import time
from collections.abc import Iterator, Sequence

from ..data.files import file_kind

#: Bytes kept of the start and of the end of what an implementation prints (within the report's 400 and
#: 1600 characters, with room for the line that counts what was left out).
HEAD_BYTES, TAIL_BYTES = 400, 1500
#: Most bytes read from a weights file: d + 1 values of at most 4,000 characters each, for d up to 1,000.
MAX_WEIGHTS_BYTES = 4 << 20
#: Most bytes read from an updates file.
MAX_UPDATES_BYTES = 64 << 20
#: Bytes read at a time from a pipe.
_CHUNK = 1 << 16


def ready(readable: Sequence[int], writable: Sequence[int] = (),
          timeout: float | None = None) -> tuple[list[int], list[int]]:
    """The descriptors of `readable` and `writable` ready within `timeout` seconds (None: wait).

    ``poll`` where there is one: ``select`` refuses descriptors numbered past
    1023, which a process with many files open (a notebook) hands out.

    Examples
    --------
    >>> r, w = os.pipe()
    >>> ready([r], [w], 0) == ([], [w])
    True
    >>> os.close(r), os.close(w)
    (None, None)
    """
    if not hasattr(select, "poll"):
        found = select.select(list(readable), list(writable), [], timeout)
        return found[0], found[1]
    poller = select.poll()
    for fd in readable:
        poller.register(fd, select.POLLIN)
    for fd in writable:
        poller.register(fd, select.POLLOUT | (select.POLLIN if fd in readable else 0))
    events = poller.poll(None if timeout is None else max(0, int(timeout * 1000 + 0.999)))
    done_reading = select.POLLIN | select.POLLHUP | select.POLLERR | select.POLLNVAL
    done_writing = select.POLLOUT | select.POLLHUP | select.POLLERR | select.POLLNVAL
    return ([fd for fd, event in events if fd in readable and event & done_reading],
            [fd for fd, event in events if fd in writable and event & done_writing])


class Capped:
    """Bytes kept within a bound: the first `HEAD_BYTES` and the last `TAIL_BYTES`, the rest only counted.

    Examples
    --------
    >>> kept = Capped(head=3, tail=4)
    >>> for chunk in (b"ab", b"cdefgh", b"ijkl"):
    ...     kept.add(chunk)
    >>> kept.total, kept.text()
    (12, 'abc\\n[... 5 bytes left out ...]\\nijkl')
    """

    def __init__(self, *, head: int = HEAD_BYTES, tail: int = TAIL_BYTES) -> None:
        self.head_limit, self.tail_limit = head, tail
        self.head, self.tail = bytearray(), bytearray()
        self.total = 0

    def add(self, chunk: bytes) -> None:
        """Keep what fits of `chunk`; count all of it."""
        self.total += len(chunk)
        room = self.head_limit - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        if len(chunk) >= self.tail_limit:
            self.tail = bytearray(chunk[len(chunk) - self.tail_limit:])
        else:
            self.tail += chunk
            del self.tail[:max(0, len(self.tail) - self.tail_limit)]

    @property
    def dropped(self) -> int:
        """Bytes counted but not kept."""
        return self.total - len(self.head) - len(self.tail)

    def text(self) -> str:
        """What was kept, as text (bytes that are not UTF-8 shown as U+FFFD), with the count left out."""
        head = self.head.decode("utf-8", "replace")
        tail = self.tail.decode("utf-8", "replace")
        if not self.dropped:
            return head + tail
        return f"{head}\n[... {self.dropped} bytes left out ...]\n{tail}"


class TextSink(io.TextIOBase):
    """A text stream that keeps what is written to it in a `Capped` (``print`` in process goes here)."""

    def __init__(self, kept: Capped) -> None:
        self.kept = kept

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.kept.add(str(text).encode("utf-8", "backslashreplace"))
        return len(text)


def drain(fd: int, kept: Capped) -> bool:
    """Read what `fd` (non-blocking) holds now into `kept`; True at end of file."""
    while True:
        try:
            chunk = os.read(fd, _CHUNK)
        except (BlockingIOError, InterruptedError):
            return False
        if not chunk:
            return True
        kept.add(chunk)


def drain_until_eof(fd: int, kept: Capped, seconds: float) -> None:
    """Read `fd` into `kept` until its end, or for at most `seconds` (a writer nothing could kill)."""
    end = time.monotonic() + seconds
    while not drain(fd, kept):
        left = end - time.monotonic()
        if left <= 0:
            return
        ready([fd], [], left)


def wait_readable(watch: int, output: int | None, kept: Capped, end: float | None) -> bool:
    """Drain `output` into `kept` until `watch` is readable (True) or the monotonic time `end` passes (False)."""
    open_output = output
    while True:
        left = None if end is None else end - time.monotonic()
        if left is not None and left <= 0:
            return False
        fds = [watch] if open_output is None else [watch, open_output]
        found, _ = ready(fds, [], left)
        if open_output is not None and open_output in found and drain(open_output, kept):
            open_output = None  # every writer is gone; keep watching
        if watch in found:
            return True


class Unreadable(Exception):
    """A file an implementation wrote that is not read: why, in words (``is a FIFO (named pipe)``)."""


def read_regular(path: str, limit: int) -> bytes | None:
    """The bytes of the regular file `path` (None when there is none), at most `limit` of them.

    A FIFO, a device, a socket or a directory is refused from its metadata
    (`Unreadable`), before it is opened for reading, so that no read can block
    or never end; so is a file larger than `limit`.

    Examples
    --------
    >>> read_regular("/dev/zero", 10)
    Traceback (most recent call last):
    ...
    verify_perceptron.harness._capture.Unreadable: is a character device, not a regular file
    >>> read_regular("/no/such/file", 10) is None
    True
    """
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as error:
        raise Unreadable(f"cannot be read ({error.strerror})") from None
    if not stat.S_ISREG(mode):
        raise Unreadable(f"is {file_kind(mode)}, not a regular file")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as error:
        raise Unreadable(f"cannot be read ({error.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # replaced between the two looks
            raise Unreadable(f"is {file_kind(info.st_mode)}, not a regular file")
        if info.st_size > limit:
            raise Unreadable(f"is {info.st_size} bytes long; at most {limit} are read")
        parts, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(_CHUNK * 16, limit + 1 - size))
            if not chunk:
                break
            parts.append(chunk)
            size += len(chunk)
        if size > limit:
            raise Unreadable(f"is more than {limit} bytes long (it grew while read)")
        return b"".join(parts)
    except OSError as error:
        raise Unreadable(f"cannot be read ({error.strerror})") from None
    finally:
        os.close(fd)


@contextlib.contextmanager
def captured_output(kept: Capped) -> Iterator[None]:
    """Everything written to file descriptors 1 and 2 (and to ``sys.stdout``/``sys.stderr``) in the block
    goes to `kept`, not to the check's own output; read by a thread, so the block never blocks on it.

    For code that must run in the check's own process (importing the target). A
    process the block starts that keeps the descriptors open is read for a moment
    after the block, then left.
    """
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    read_end, write_end = os.pipe()
    saved = [os.dup(1), os.dup(2)]
    stop = threading.Event()

    def reader() -> None:
        while not stop.is_set() or ready([read_end], [], 0)[0]:
            if ready([read_end], [], 0.05)[0]:
                chunk = os.read(read_end, _CHUNK)
                if not chunk:
                    return
                kept.add(chunk)

    thread = threading.Thread(target=reader, name="verify-perceptron-capture", daemon=True)
    thread.start()
    text = io.TextIOWrapper(os.fdopen(os.dup(write_end), "wb", buffering=0), encoding="utf-8", errors="backslashreplace",
                            write_through=True)
    try:
        os.dup2(write_end, 1)
        os.dup2(write_end, 2)
        with contextlib.redirect_stdout(text), contextlib.redirect_stderr(text):
            yield
    finally:
        with contextlib.suppress(Exception):
            text.close()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in (*saved, write_end):
            os.close(fd)
        stop.set()
        thread.join(0.5)
        if not thread.is_alive():
            os.close(read_end)
