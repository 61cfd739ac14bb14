"""The progress of one long search, as ``fastpuzzle solve`` and ``solve(progress=True)`` show it.

One live line (bound, nodes expanded, time), rewritten in place: a ``tqdm.auto`` bar where the
``progress`` extra is installed (a widget in a notebook), see :mod:`fastpuzzle._util.progress`.
Past :data:`~fastpuzzle._solver.policy.HINT_AFTER_SECONDS` a default search with a table to
build prints the command that builds it, whole, on a line of its own above the live one.
"""

from __future__ import annotations

from fastpuzzle._solver.policy import HINT_AFTER_SECONDS, progress_hint
from fastpuzzle._util.progress import LiveLine, lasting
from fastpuzzle._util.units import duration
from fastpuzzle.board import Shape
from fastpuzzle.results import AnytimeStats, SearchStats

__all__ = ["SearchLine"]


class SearchLine:
    """The display of one search: :meth:`show` is its ``progress``, :meth:`close` ends it.

    Reports come as often as the search makes them (hundreds a second); the line is drawn at
    most ten times a second on a terminal and once a second elsewhere, on the search's clock.
    It counts expanded nodes, as the solution's line does. The live line is cleared once the
    search ends (the hint stays), so that a search shows the same lasting lines whether or not
    it drew its progress.

    Parameters
    ----------
    shape, goal_blank
        The board's shape and the goal's blank cell: what the hint is about.
    hint : bool
        Whether the search is the default optimal one, whose tables the hint names.
    terminal : bool, optional
        Whether stderr is a terminal (default: asked).

    A report of the anytime solver (:class:`~fastpuzzle.results.AnytimeStats`) shows the best
    length so far, the solver's own lower bound and their gap instead of a bound.
    """

    def __init__(
        self,
        shape: Shape,
        goal_blank: int,
        *,
        hint: bool,
        terminal: bool | None = None,
    ) -> None:
        self.hint = progress_hint(shape, goal_blank) if hint else None
        self.line = LiveLine(terminal=terminal)

    @property
    def terminal(self) -> bool:
        """Whether the line is rewritten in place."""
        return self.line.terminal

    def show(self, stats: SearchStats) -> None:
        """Draw the report ``stats`` (when due)."""
        if self.hint is not None and stats.seconds >= HINT_AFTER_SECONDS:
            lasting(f"  hint: {self.hint}")
            self.hint = None
        now = f"{stats.expanded:,} expanded, {duration(stats.seconds)}"
        text = f"  bound {stats.depth}, {now}"
        if isinstance(stats, AnytimeStats):
            # Lazy: import fastpuzzle loads no render (tests/api/test_package.py).
            from fastpuzzle.render import gap_words

            text = f"  best {stats.depth:,} moves ({gap_words(stats)}), {now}"
        self.line.show(text, stats.seconds)

    def close(self) -> None:
        """End the display: the live line is cleared."""
        self.line.close()
