"""One progress display for long work: pattern-database builds, batches, long solves.

With the ``progress`` extra (tqdm) a :class:`Meter` is a ``tqdm.auto`` bar: a widget in a
notebook, a bar with the time left on a terminal. Without it, one line on stderr rewritten in
place, cut to the terminal's width so that it never wraps (a wrapped line cannot be rewritten: at
80 columns it scrolled a line per report) and padded so that no longer earlier text stays behind.
Off a terminal nothing is drawn unless the caller asks.
"""

from __future__ import annotations

import shutil
import sys
from typing import Any

__all__ = ["Meter", "Throttle", "fit_line", "on_terminal"]

#: Seconds between two redraws: on a terminal (about 10 a second), and into a file or pipe (one
#: line a second, so that a log does not fill with thousands of lines).
TERMINAL_INTERVAL = 0.1
FILE_INTERVAL = 1.0


def on_terminal() -> bool:
    """Whether stderr is a terminal (where lines can be rewritten in place)."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced or closed
        return False


class Throttle:
    """Whether a report is due: the first one, then one per ``interval`` seconds at most.

    ``interval`` defaults to :data:`TERMINAL_INTERVAL` on a terminal, else
    :data:`FILE_INTERVAL`. The times are the caller's (a search's own clock), so that a report
    driven with given times is drawn as a real one would be.
    """

    def __init__(self, interval: float | None = None):
        if interval is None:
            interval = TERMINAL_INTERVAL if on_terminal() else FILE_INTERVAL
        self.interval = interval
        self._last: float | None = None

    def due(self, now: float) -> bool:
        """True (and ``now`` noted) when a report at ``now`` is to be drawn."""
        if self._last is not None and now - self._last < self.interval:
            return False
        self._last = now
        return True


def _width() -> int:
    # The last column is left empty: writing it makes some terminals wrap at once.
    return max(20, shutil.get_terminal_size((80, 24)).columns - 1)


def fit_line(text: str) -> str:
    """``text`` as a line that rewrites the current one: carriage return, then the text cut
    to the terminal's width less one and padded to it."""
    width = _width()
    return "\r" + text[:width].ljust(width)


class Meter:
    """A progress bar on stderr for ``total`` units of work.

    Parameters
    ----------
    total : int
        Units of work in all.
    description : str
        What the work is, shown before the bar.
    unit : str
        The name of one unit (``"board"``, ``"placement"``).
    unit_scale : bool
        Show counts as 1.2M rather than 1200000.
    """

    def __init__(self, total: int, description: str, unit: str, *, unit_scale: bool = False):
        self.total = total
        self.n = 0
        self.description = description
        self.unit = unit
        self._status = ""
        self._bar: Any = None
        try:
            from tqdm.auto import tqdm  # the progress extra, used where installed
        except ImportError:
            pass
        else:
            self._bar = tqdm(
                total=total,
                desc=description,
                unit=f" {unit}",
                unit_scale=unit_scale,
                file=sys.stderr,
            )

    def update(self, count: int, status: str | None = None) -> None:
        """``count`` more units done; ``status`` (e.g. ``"level 22"``) shown after the bar."""
        self.n += count
        if status is not None:
            self._status = status
        if self._bar is not None:
            if status is not None:
                self._bar.set_postfix_str(status, refresh=False)
            self._bar.update(count)
            return
        share = self.n / self.total if self.total else 1.0
        filled = round(20 * min(1.0, share))
        tail = (
            f" [{'#' * filled}{'.' * (20 - filled)}] {100 * share:5.1f}% "
            f"{self.n:,}/{self.total:,} {self.unit}s {self._status}"
        ).rstrip()
        # A narrow terminal shortens the description, not the figures.
        room = _width() - len(tail)
        head = self.description
        if len(head) > room:
            head = head[: max(0, room - 1)] + "…" if room > 1 else ""
        sys.stderr.write(fit_line(head + tail))
        sys.stderr.flush()

    def close(self) -> None:
        """End the bar (the line is left as it last was, followed by a newline)."""
        if self._bar is not None:
            self._bar.close()
        else:
            sys.stderr.write("\n")
            sys.stderr.flush()
