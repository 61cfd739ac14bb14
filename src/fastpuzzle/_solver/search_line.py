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
from fastpuzzle.results import SearchStats

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
    start_bound : int, optional
        The start's lower bound, for a search that reports its best length so far (the
        anytime solver): the line shows that length and its gap over this bound.
    """

    def __init__(
        self,
        shape: Shape,
        goal_blank: int,
        *,
        hint: bool,
        terminal: bool | None = None,
        start_bound: int | None = None,
    ) -> None:
        self.hint = progress_hint(shape, goal_blank) if hint else None
        self.line = LiveLine(terminal=terminal)
        self.start_bound = start_bound

    @property
    def terminal(self) -> bool:
        """Whether the line is rewritten in place."""
        return self.line.terminal

    def show(self, stats: SearchStats) -> None:
        """Draw the report ``stats`` (when due)."""
        if self.hint is not None and stats.seconds >= HINT_AFTER_SECONDS:
            lasting(f"  hint: {self.hint}")
            self.hint = None
        text = f"  bound {stats.depth}, {stats.expanded:,} expanded, {duration(stats.seconds)}"
        if self.start_bound is not None:
            gap = stats.depth / self.start_bound if self.start_bound else 1.0
            text = (
                f"  best {stats.depth} moves (gap at most {gap:.3g}x), "
                f"{stats.expanded:,} expanded, {duration(stats.seconds)}"
            )
        self.line.show(text, stats.seconds)

    def close(self) -> None:
        """End the display: the live line is cleared."""
        self.line.close()
