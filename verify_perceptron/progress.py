"""How far a `verify` call has got: its phase, the run's epoch of the limit, and about how long is left.

`Watch` turns what the work tells it (a phase begun, an epoch ended, with
the updates, the mistakes and the bound where one is known) into `Progress`
records for a display: `TerminalLine` (one line on a terminal, redrawn in
place), `NotebookBar` (a progress bar updated in place in Jupyter), or any
callable of the caller's (``vp.verify(..., progress=callable)``).

Our own small renderer, not tqdm or rich: the line holds what no one-counter
bar has (the epoch of the limit, updates and mistakes beside the bound, the
phases after the run), neither is a dependency today, and importing rich
costs more than a short run. Everything here is display: its floats (the
share done, the seconds left) decide nothing but what is shown. A display
never slows a short run (nothing is drawn in its first half second), never
holds the work up (a redraw is skipped within 0.1 s of the last), and is
closed, its line cleared, however the call ends (the time limit, SIGINT).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, TextIO

from .check._progress import magnitude

__all__ = ["NotebookBar", "Progress", "TerminalLine", "Watch", "in_notebook", "watch_for", "watching"]

#: Nothing is drawn before a call has run this long: a short run shows no line at all.
QUIET_SECONDS = 0.5
#: Draws closer together than this are skipped (the next one shows the newer state).
REDRAW_SECONDS = 0.1
#: ... and on a stream that is no terminal, where each draw is a line of its own.
LINE_SECONDS = 1.0
#: ... and in a notebook, where each draw is a message to the browser.
BAR_SECONDS = 0.25


@dataclass(frozen=True)
class Progress:
    """One moment of a `verify` call, for a display.

    Attributes
    ----------
    phase : str
        What the call is doing: ``running the perceptron``, ``deciding separability``,
        ``solving for the max-margin separator``, ``writing the report``, ...
    elapsed, phase_elapsed : float
        Seconds since the call began, and since this phase began.
    epoch, max_epochs : int or None
        The epochs ended so far and the epoch limit, in a phase that runs the perceptron.
    n_updates, n_mistakes : int or None
        Updates made and mistakes counted (the checker's count, when it checks during the run).
    bound : Fraction or None
        The note's mistake bound, where it is known during the run (a w* given or certified).
    time_limit : float or None
        The call's time limit.
    calls : int or None
        The calls of the implementation made so far, in a `check`.

    Examples
    --------
    >>> p = Progress("running the perceptron", 4.0, 3.0, epoch=250, max_epochs=1000, n_updates=9000,
    ...              n_mistakes=9000, bound=Fraction(123456789))
    >>> p.share, p.seconds_left
    (0.25, 9.0)
    >>> p.line()
    'running the perceptron: epoch 250 of 1,000 (25%), 9,000 updates, 9,000 mistakes of at most 1.235e+08, 4 s, about 9 s left'
    >>> Progress("deciding separability", 12.0, 2.0, time_limit=20.0).line()
    'deciding separability: 12 s of the 20 s limit'
    >>> Progress("searching generated data", 7.0, 6.0, calls=1234).line()
    'searching generated data: 1,234 calls of the implementation, 7 s'
    """

    phase: str
    elapsed: float
    phase_elapsed: float
    epoch: int | None = None
    max_epochs: int | None = None
    n_updates: int | None = None
    n_mistakes: int | None = None
    bound: Fraction | None = None
    time_limit: float | None = None
    calls: int | None = None

    @property
    def share(self) -> float | None:
        """The share of the epoch limit done (0 to 1), in a phase that runs the perceptron; else None."""
        if self.epoch is None or not self.max_epochs:
            return None
        return min(self.epoch / self.max_epochs, 1.0)

    @property
    def seconds_left(self) -> float | None:
        """About how long until the epoch limit at this phase's pace, or the time limit if sooner; None when
        neither says (a run converges as soon as an epoch makes no mistake, so this is at most)."""
        left = None
        share = self.share
        if share:
            left = self.phase_elapsed * (1 - share) / share
        if self.time_limit is not None:
            to_limit = max(self.time_limit - self.elapsed, 0.0)
            left = to_limit if left is None else min(left, to_limit)
        return left

    def line(self) -> str:
        """The record as one line of text."""
        parts = []
        if self.epoch is not None:
            shown = f"epoch {self.epoch:,}"
            if self.max_epochs:
                shown += f" of {self.max_epochs:,} ({_percent(self.share or 0.0)})"
            parts.append(shown)
        if self.n_updates is not None:
            parts.append(f"{self.n_updates:,} updates")
        if self.n_mistakes is not None:
            parts.append(f"{self.n_mistakes:,} mistakes" + ("" if self.bound is None else
                                                             f" of at most {magnitude(self.bound)}"))
        if self.calls is not None:
            parts.append(f"{self.calls:,} call{'s' * (self.calls != 1)} of the implementation")
        clock = f"{self.elapsed:.0f} s"
        left = self.seconds_left
        if self.epoch is None and self.time_limit is not None:
            clock += f" of the {self.time_limit:g} s limit"
        elif left is not None:
            clock += f", about {left:.0f} s left" if left >= 1 else ", under 1 s left"
        parts.append(clock)
        return f"{self.phase}: " + ", ".join(parts)


def _percent(share: float) -> str:
    """A share as a whole percentage, never 100% before the end."""
    return f"{min(int(share * 100), 99 if share < 1 else 100)}%"


class Watch:
    """Tells `show` how a call goes, as `Progress` records: `phase` as each phase begins, `epoch` (the
    pipeline's ``progress`` callable) as each epoch of a run ends.

    `show` is called within the call's own thread; a display that draws
    from a thread of its own (`TerminalLine`) reads `last` under its lock.
    """

    def __init__(self, show: Callable[[Progress], None], *, max_epochs: int | None = None,
                 time_limit: float | None = None, started: float | None = None) -> None:
        self.show, self.max_epochs, self.time_limit = show, max_epochs, time_limit
        self.started = time.monotonic() if started is None else started
        self.phase_started = self.started
        self.current = "starting"
        self.n_calls: int | None = None  # a check's calls of the implementation, once there are any

    def phase(self, name: str) -> None:
        """A new phase begins."""
        now = time.monotonic()
        self.current, self.phase_started = name, now
        self.show(Progress(name, now - self.started, 0.0, time_limit=self.time_limit, calls=self.n_calls))

    def epoch(self, epoch: int, n_updates: int, n_mistakes: int | None = None, bound: Fraction | None = None) -> None:
        """An epoch of the current run ended (the pipeline's ``progress`` callable)."""
        now = time.monotonic()
        self.show(Progress(self.current, now - self.started, now - self.phase_started, epoch, self.max_epochs,
                           n_updates, n_mistakes, bound, self.time_limit))

    def calls(self, n_calls: int) -> None:
        """The implementation a `check` runs was called again (`n_calls` in all): shown from now on."""
        self.n_calls = n_calls
        self.tick()

    def tick(self) -> None:
        """The current phase goes on (a long wait, such as the separability decision's join): shown again,
        with its clock, where the display redraws by itself only on news (a stream that is no terminal)."""
        now = time.monotonic()
        self.show(Progress(self.current, now - self.started, now - self.phase_started, time_limit=self.time_limit,
                           calls=self.n_calls))

    def close(self) -> None:
        """The call is over: `show`'s own ``close``, if it has one."""
        close = getattr(self.show, "close", None)
        if close is not None:
            close()


class TerminalLine:
    """A `Progress` display: one line on a terminal, redrawn in place, cut to its width; or, on a stream that
    is no terminal (asked for with ``--progress``), a line of its own each phase and at most each second.

    On a terminal a thread of its own redraws the line twice a second, so
    that the clock goes on in a phase that tells nothing (a long exact
    solve, `bounds`' runs); it starts with the first record, and draws
    nothing in a call's first half second.
    """

    def __init__(self, stream: TextIO, *, in_place: bool | None = None) -> None:
        self.stream = stream
        self.in_place = _is_terminal(stream) if in_place is None else in_place
        self.started = time.monotonic()
        self.last: Progress | None = None
        self.drawn_at = 0.0
        self.shown = False
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.ticker: threading.Thread | None = None

    def __call__(self, progress: Progress) -> None:
        now = time.monotonic()
        new_phase = self.last is None or progress.phase != self.last.phase
        self.last = progress
        if self.in_place and self.ticker is None:  # a phase that tells nothing more is drawn once it is long
            self.ticker = threading.Thread(target=self._tick, name="verify-perceptron progress", daemon=True)
            self.ticker.start()
        if now - self.started < QUIET_SECONDS:
            return
        if not new_phase and now - self.drawn_at < (REDRAW_SECONDS if self.in_place else LINE_SECONDS):
            return
        self._draw(progress, now)

    def _draw(self, progress: Progress, now: float) -> None:
        with self.lock:
            if self.stop.is_set():
                return
            self.drawn_at, self.shown = now, True
            if self.in_place:
                width = _columns(self.stream) - 1
                self.stream.write("\r" + progress.line()[:width] + "\033[K")
            else:
                self.stream.write(progress.line() + "\n")
            self.stream.flush()

    def _tick(self) -> None:
        """Redraw the last record with the time gone on, while nothing newer comes (a phase without epochs)."""
        while not self.stop.wait(0.5):
            last, now = self.last, time.monotonic()
            if last is not None and now - self.drawn_at >= 0.5 and now - self.started >= QUIET_SECONDS:
                gone = now - self.started - last.elapsed  # since the record was made
                self._draw(replace(last, elapsed=last.elapsed + gone, phase_elapsed=last.phase_elapsed + gone), now)

    def close(self) -> None:
        """Stop the ticker and clear the line (a terminal's), so the report starts on a clean line."""
        with self.lock:
            self.stop.set()
            if self.shown and self.in_place:
                self.stream.write("\r\033[K")
                self.stream.flush()
            self.shown = False  # (closed twice, it clears once)
        if self.ticker is not None:
            self.ticker.join(1.0)


class NotebookBar:
    """A `Progress` display in Jupyter: an HTML progress bar and its line, updated in place (no widgets needed)."""

    def __init__(self) -> None:
        from IPython.display import HTML, display  # in a notebook, IPython is there

        self._html = HTML
        self.handle: Any = display(HTML(""), display_id=True)
        self.started = time.monotonic()
        self.drawn_at = 0.0
        self.last: Progress | None = None

    def __call__(self, progress: Progress) -> None:
        now = time.monotonic()
        new_phase = self.last is None or progress.phase != self.last.phase
        self.last = progress
        if now - self.started < QUIET_SECONDS or (not new_phase and now - self.drawn_at < BAR_SECONDS):
            return
        self.drawn_at = now
        self._update(progress.share, progress.line())

    def _update(self, share: float | None, text: str) -> None:
        import html

        bar = "<progress></progress>" if share is None else f'<progress value="{share:.4f}" max="1"></progress>'
        self.handle.update(self._html(f"<div>{bar} <code>{html.escape(text)}</code></div>"))

    def close(self) -> None:
        """Leave the bar saying how long the call took (nothing if it never showed)."""
        if self.drawn_at:
            self._update(1.0, f"done in {time.monotonic() - self.started:.0f} s")


def in_notebook() -> bool:
    """Whether this is a Jupyter kernel (IPython's ZMQ shell); IPython is never imported to find out."""
    ipython = sys.modules.get("IPython")
    shell = None if ipython is None else getattr(ipython, "get_ipython", lambda: None)()
    return type(shell).__name__ == "ZMQInteractiveShell"


def watch_for(progress: object, *, max_epochs: int | None, time_limit: float | None,
              started: float | None = None) -> Watch | None:
    """The `Watch` of the Python API's ``progress=``: None shows a bar in a notebook and nothing elsewhere,
    True a bar in a notebook or a line on a terminal's stderr, False nothing, a callable gets every record.

    Examples
    --------
    >>> watch_for(False, max_epochs=10, time_limit=None) is None
    True
    >>> seen = []
    >>> watch = watch_for(seen.append, max_epochs=10, time_limit=None)
    >>> watch.phase("deciding separability"); seen[0].phase
    'deciding separability'
    >>> watch_for("yes", max_epochs=10, time_limit=None)
    Traceback (most recent call last):
    ...
    TypeError: progress='yes' must be None, True, False or a callable taking a Progress
    """
    if progress is None or progress is True:
        if in_notebook():
            show: Callable[[Progress], None] = NotebookBar()
        elif progress is True and _is_terminal(sys.stderr):
            show = TerminalLine(sys.stderr)
        else:
            return None
    elif progress is False:
        return None
    elif callable(progress):
        show = progress
    else:
        raise TypeError(f"progress={progress!r} must be None, True, False or a callable taking a Progress")
    return Watch(show, max_epochs=max_epochs, time_limit=time_limit, started=started)


@contextmanager
def watching(progress: object, *, max_epochs: int | None, time_limit: float | None,
             started: float | None = None) -> Iterator[Watch | None]:
    """`watch_for`'s `Watch` (or None) for the block, closed however the block ends."""
    watch = watch_for(progress, max_epochs=max_epochs, time_limit=time_limit, started=started)
    try:
        yield watch
    finally:
        if watch is not None:
            watch.close()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or replaced stream
        return False


def _columns(stream: TextIO) -> int:
    """The terminal's width (``COLUMNS`` first, as the report reads it), 100 when it cannot be told."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and 0 < int(columns) < 10_000:
        return max(20, int(columns))
    try:
        columns_ = os.get_terminal_size(stream.fileno()).columns
    except (OSError, ValueError, AttributeError):
        return 100
    return max(20, columns_) if columns_ > 0 else 100  # a new pseudo-terminal says 0 until told its size
