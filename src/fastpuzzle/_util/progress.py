"""One progress display for long work: pattern-database builds, batches, long solves.

Two kinds of text reach stderr. A *live* line (a search's bound, a build's level) is rewritten
in place and fitted to the terminal, since a wrapped line cannot be rewritten: at 80 columns it
scrolled a line per report. A *lasting* line (a hint, "built in 0.4 s", a file's path) is printed
whole above the live one (:func:`lasting`): cutting it at the terminal's width lost its end.

With the ``progress`` extra (tqdm) the fitting is tqdm's: a :class:`Meter` is a ``tqdm.auto``
bar, a :class:`LiveLine` a ``tqdm.auto`` bar of text only (a widget in a notebook), and lasting
lines go through ``tqdm.write``, which clears the bars and draws them again below the text.
Without it, :func:`fit_line` cuts and pads the live line. Off a terminal (and outside a
notebook) a live line is one line per report, at most one a :data:`FILE_INTERVAL`.
"""

from __future__ import annotations

import shutil
import sys
import time
import weakref
from typing import Any

__all__ = [
    "LOG_INTERVAL",
    "LiveLine",
    "Meter",
    "Throttle",
    "fit_line",
    "lasting",
    "on_terminal",
]

#: Seconds between two redraws: on a terminal (about 10 a second), and into a file or pipe (one
#: line a second, so that a log does not fill with thousands of lines).
TERMINAL_INTERVAL = 0.1
FILE_INTERVAL = 1.0
#: Seconds between two level lines of a pattern-database build written to a file or pipe.
LOG_INTERVAL = 15.0


def on_terminal() -> bool:
    """Whether stderr is a terminal (where lines can be rewritten in place)."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced or closed
        return False


def _tqdm() -> Any:
    """``tqdm.auto.tqdm`` (the ``progress`` extra), or None where it is not installed."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm


def _is_notebook(bar_class: Any) -> bool:
    # tqdm.auto picks its notebook widget inside a Jupyter kernel: there stderr is no terminal,
    # yet a bar is what the user watches.
    return any(cls.__module__ == "tqdm.notebook" for cls in getattr(bar_class, "__mro__", ()))


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
    to the terminal's width less one and padded to it. For live lines only (see
    :func:`lasting`)."""
    width = _width()
    return "\r" + text[:width].ljust(width)


#: The plain (tqdm-less) live lines drawn on the terminal now, the last one on top, which
#: :func:`lasting` clears and draws again below its text. Weak references: a line its owner
#: dropped without closing it (a display abandoned) is nothing to redraw.
_drawn: list[weakref.ref[LiveLine]] = []


def _live_line() -> LiveLine | None:
    """The live line drawn now, if any (dropped lines are forgotten on the way)."""
    while _drawn:
        live = _drawn[-1]()
        if live is not None:
            return live
        _drawn.pop()
    return None


def lasting(text: str) -> None:
    """Print ``text`` whole on stderr, on a line of its own above any live line or bar."""
    live = _live_line()
    if live is not None:
        sys.stderr.write(fit_line("") + "\r")
    bar_class = _tqdm()
    if live is None and bar_class is not None:
        bar_class.write(text, file=sys.stderr)
    else:
        sys.stderr.write(text + "\n")
    if live is not None:
        live.redraw()
    sys.stderr.flush()


class LiveLine:
    """One line of status on stderr, rewritten in place as the work goes on.

    On a terminal, or in a notebook, with tqdm installed: a ``tqdm.auto`` bar of text only
    (tqdm fits it to the width); on a terminal without tqdm: a line rewritten by
    :func:`fit_line`; elsewhere each shown text is a line of its own. Texts come at most one a
    ``interval`` seconds (:class:`Throttle`'s default), on the caller's clock when ``now`` is
    given.
    """

    def __init__(self, interval: float | None = None, *, terminal: bool | None = None) -> None:
        self.terminal = on_terminal() if terminal is None else terminal
        self.throttle = Throttle(interval)
        self.text = ""
        self._bar: Any = None
        # The bar comes with the first text: work that ends before any report draws nothing.
        self._bar_class = _tqdm()
        if self._bar_class is not None and not (self.terminal or _is_notebook(self._bar_class)):
            self._bar_class = None

    def show(self, text: str, now: float | None = None) -> bool:
        """Draw ``text`` when a report is due at ``now`` (default: the monotonic clock);
        whether it was drawn."""
        if not self.throttle.due(time.monotonic() if now is None else now):
            return False
        self.text = text
        if self._bar is None and self._bar_class is not None:
            self._bar = self._bar_class(
                total=None, bar_format="{desc}", file=sys.stderr, leave=False
            )
        if self._bar is not None:
            self._bar.set_description_str(text, refresh=True)
        elif self.terminal:
            if not any(drawn() is self for drawn in _drawn):
                _drawn.append(weakref.ref(self))
            self.redraw()
        else:
            sys.stderr.write(text + "\n")
            sys.stderr.flush()
        return True

    def redraw(self) -> None:
        """Draw the last text again (after a lasting line took its place)."""
        if self._bar is None and self.terminal and self.text:
            sys.stderr.write(fit_line(self.text))
            sys.stderr.flush()

    def close(self) -> None:
        """End the display: the live line is cleared (lasting lines stay)."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        self._bar_class = None  # closed: a late report draws no new bar
        drawn = [ref for ref in _drawn if ref() is self]
        if drawn:
            _drawn.remove(drawn[0])
            sys.stderr.write(fit_line("") + "\r")
            sys.stderr.flush()


class Meter:
    """A progress bar on stderr for ``total`` units of work.

    Parameters
    ----------
    total : int
        Units of work in all.
    description : str
        What the work is, shown before the bar: short (``"6-6-3 group 1/3"``), since the bar
        has what the line leaves.
    unit : str
        The name of one unit (``"board"``, ``"placement"``).
    unit_scale : bool
        Show counts as 1.2M rather than 1200000.
    rate : bool
        Show the units a second (tqdm's bar): ``False`` leaves their room to the bar, where
        the rate says little (a table's placements).
    """

    def __init__(
        self,
        total: int,
        description: str,
        unit: str,
        *,
        unit_scale: bool = False,
        rate: bool = True,
    ):
        self.total = total
        self.n = 0
        self.description = description
        self.unit = unit
        self._status = ""
        self._bar: Any = None
        self._line: LiveLine | None = None
        bar_class = _tqdm()
        if bar_class is not None:
            options: dict[str, Any] = {}
            if not rate:
                options["bar_format"] = (
                    "{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}{postfix}]"
                )
            self._bar = bar_class(
                total=total,
                desc=description,
                unit=f" {unit}",
                unit_scale=unit_scale,
                file=sys.stderr,
                **options,
            )
        else:
            self._line = LiveLine(0.0, terminal=True)

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
        assert self._line is not None
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
        self._line.show(head + tail)

    def close(self) -> None:
        """End the bar (the line is left as it last was, followed by a newline)."""
        if self._bar is not None:
            self._bar.close()
            return
        assert self._line is not None
        line = self._line
        _drawn[:] = [ref for ref in _drawn if ref() is not line]
        sys.stderr.write("\n")
        sys.stderr.flush()
