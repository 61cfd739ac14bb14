"""Result types shared by every algorithm: statuses, statistics, solutions.

Moves in results are U, D, L, R: the direction the **blank** moves.
"""

from __future__ import annotations

import enum
import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, overload

from fastpuzzle._core._result import CoreResult, SearchStatus
from fastpuzzle._util.branching import effective_branching_factor
from fastpuzzle._util.checks import callback as callback_check
from fastpuzzle._util.files import write_text_atomically
from fastpuzzle._util.records import record
from fastpuzzle._util.units import duration
from fastpuzzle.board import Board
from fastpuzzle.errors import (
    DepthLimitError,
    FastPuzzleError,
    MemoryLimitError,
    NodeLimitError,
    SearchLimitError,
    TimeLimitError,
)
from fastpuzzle.moves import to_tile_directions

__all__ = [
    "AnytimeStats",
    "CoreProgress",
    "CoreResult",
    "ProgressCallback",
    "SearchResult",
    "SearchStats",
    "Solution",
    "Status",
    "core_progress",
    "result_from_core",
    "stats_from_core",
]


class Status(str, enum.Enum):
    """How a search ended (each the compiled core's ``SearchStatus`` of the same name)."""

    SOLVED = "solved"
    EXHAUSTED = "exhausted"
    TIME_LIMIT = "time_limit"
    NODE_LIMIT = "node_limit"
    MEMORY_LIMIT = "memory_limit"
    DEPTH_LIMIT = "depth_limit"

    @classmethod
    def from_code(cls, code: int) -> Status:
        """The status for a compiled core's status code (a ``SearchStatus``)."""
        return _STATUS_BY_CODE[code]

    def __str__(self) -> str:
        return self.value


#: By value: each status is the compiled core's code of the same name.
_STATUS_BY_CODE = {int(SearchStatus["STATUS_" + status.name]): status for status in Status}


@dataclass(frozen=True)
class SearchStats:
    """What a search did, reported the same way by every algorithm.

    Attributes
    ----------
    expanded : int
        Nodes whose children were generated.
    generated : int
        Children generated (the root not counted).
    max_frontier : int
        Largest number of nodes waiting in the open list (or the deepest stack, for DFS kinds).
    peak_memory_bytes : int
        The most bytes of nodes the search stored at once, counted the same way for every
        algorithm: the entries it held (closed and open sets; the path for DFS, IDDFS and
        IDA*; the walk for the random walk) times the bytes of one entry, never the capacity
        of the structures holding them (see :doc:`/algorithms`). At least 8 (the start board).
        The heuristic's tables, shared by every search in the process, are not counted
        (``pdb.Database.nbytes`` gives theirs).
    seconds : float
        Wall-clock time of the search.
    depth : int
        Length of the solution found; when none was found, the deepest depth or bound reached.
    iterations : int
        Iterations of iterative methods (IDDFS, IDA*), else 1.
    peak_allocated_bytes : int
        The most bytes the search's structures held at their capacity (hash-table slots,
        whole arrays): what :attr:`Limits.memory_bytes <fastpuzzle.Limits.memory_bytes>` caps.
        0 where nothing reports it (the fast solver, which has no memory limit).
    max_depth_reached : int or None
        The deepest g (moves from the start) of any node generated, the start's 0 included:
        for BFS the deepest layer generated, for DFS kinds the deepest child tried, for a
        random walk its length; for bidirectional search the deepest of either side, each
        counted from its own end. IDA*'s engine does not count it: a solved IDA* search with
        an admissible heuristic and no weight gives its solution's length (exact for
        heuristics that are 0 only at the goal, as every built-in one: no node deeper is
        generated), else None.
    reexpanded : int or None
        Expansions of a board that had already been expanded. 0 for the searches with a
        closed set (BFS, bidirectional, A*, weighted A*, greedy, lookahead), which never
        reopen a board; counted for ``dfs_visited``, which expands a board again when it
        reaches it by a shorter path; None where the search keeps no record of the boards it
        expanded and so cannot know (``dfs``, ``iddfs``, ``idastar``, ``random``).
    """

    expanded: int = 0
    generated: int = 0
    max_frontier: int = 0
    peak_memory_bytes: int = 0
    seconds: float = 0.0
    depth: int = -1
    iterations: int = 0
    peak_allocated_bytes: int = 0
    max_depth_reached: int | None = None
    reexpanded: int | None = None

    @property
    def nodes_per_second(self) -> float:
        """Generated nodes per second (0 when no time was measured)."""
        return self.generated / self.seconds if self.seconds > 0 else 0.0

    @property
    def ebf(self) -> float | None:
        """The effective branching factor b*: the branching factor of the uniform tree of depth
        ``d`` = :attr:`depth` that holds ``N + 1`` nodes, ``N`` = :attr:`generated`.

        It solves ``N + 1 = 1 + b* + b*^2 + ... + b*^d`` (to 1e-9), the definition of Russell
        and Norvig's *Artificial Intelligence: A Modern Approach* (section 3.6.1 of the 3rd
        edition), whose ``N`` is the nodes generated, the root not counted, as here: 52 nodes
        at depth 5 give 1.92. Summed over the iterations of IDA* and IDDFS, as
        :attr:`generated` is. None where it is undefined: no depth (``depth < 1``: the start was
        the goal, or nothing was searched) or no node counted. Of a search that found no
        solution, :attr:`depth` is the deepest depth reached, not a solution's length.
        """
        return effective_branching_factor(self.generated, self.depth)

    def __repr__(self) -> str:
        # Pasteable, the time to 4 significant digits.
        from fastpuzzle.render import stats_repr

        return stats_repr(self)


@dataclass(frozen=True, repr=False)
class AnytimeStats(SearchStats):
    """The anytime solver's progress report (``solve(optimal=False, limits=...)``): ``depth``
    is the best length found so far and ``lower_bound`` the bound the solver has certified so
    far (its own: the pattern database's where it read one, not a recomputed heuristic).

    Attributes
    ----------
    lower_bound : int
        A certified lower bound on the optimal length, as the answer's
        :attr:`Solution.lower_bound` will be (it only rises).
    """

    lower_bound: int = 0

    @property
    def gap(self) -> float:
        """``depth / lower_bound``: how far from optimal the best so far may be (``inf``
        without a positive bound)."""
        if self.lower_bound > 0:
            return self.depth / self.lower_bound
        return 1.0 if self.depth <= 0 else math.inf


#: A progress callback receives a snapshot of the statistics, at most every 2**16 expansions.
ProgressCallback = Callable[[SearchStats], Any]

#: The same callback as the compiled drivers call it: ``progress(expanded, generated, seconds,
#: depth)`` (see :func:`core_progress`).
CoreProgress = Callable[[int, int, float, int], None]


def stats_from_core(core: CoreResult, *, optimal_idastar: bool = False) -> SearchStats:
    """The :class:`SearchStats` of a compiled driver's result; ``optimal_idastar``: IDA* with
    an admissible heuristic and no weight, whose solution is its deepest node generated."""
    max_depth_reached = None if core.max_depth_reached < 0 else core.max_depth_reached
    if (
        max_depth_reached is None
        and optimal_idastar
        and _STATUS_BY_CODE[core.status] is Status.SOLVED
    ):
        # IDA* expands only nodes with g + h within its last bound, the solution's length: a
        # node at that depth only if h is 0 there, the goal, which is never expanded.
        max_depth_reached = len(core.moves)
    return record(
        SearchStats,
        expanded=core.expanded,
        generated=core.generated,
        max_frontier=core.max_frontier,
        peak_memory_bytes=core.peak_memory_bytes,
        seconds=core.seconds,
        depth=core.depth,
        iterations=core.iterations,
        peak_allocated_bytes=core.allocated_bytes,
        max_depth_reached=max_depth_reached,
        reexpanded=None if core.reexpanded < 0 else core.reexpanded,
    )


def core_progress(callback: ProgressCallback | None) -> CoreProgress | None:
    """Adapt a user's ``progress(stats)`` to the core's ``progress(expanded, generated, s, d)``."""
    callback_check(callback, "progress(stats)")
    if callback is None:
        return None

    def relay(expanded: int, generated: int, seconds: float, depth: int) -> None:
        callback(SearchStats(expanded=expanded, generated=generated, seconds=seconds, depth=depth))

    return relay


@dataclass(frozen=True)
class Solution:
    """A solution: the moves (U/D/L/R, the direction the blank moves) and how they were found.

    Attributes
    ----------
    board, goal : Board
        Start and goal.
    moves : str
        Blank directions, e.g. ``"ULDR"``.
    stats : SearchStats
        Statistics of the search that found it.
    algorithm : str
        Canonical name of the algorithm.
    heuristic : str or None
        Canonical name of the heuristic, if any.
    optimal : bool
        Whether the solution is certified shortest: its method guarantees it (the anytime
        solver of ``solve(optimal=False, limits=...)`` when its own search proved it). A
        method without the guarantee says False even when its length meets its bound (its
        :attr:`gap` is then 1.0).
    lower_bound : int
        A certified lower bound on the optimal length, never above it: the length itself for
        an optimal search, else the best admissible bound the method established (at least the
        start's linear-conflict value); 0 for a solution built without one.
    """

    board: Board
    goal: Board
    moves: str
    stats: SearchStats
    algorithm: str
    heuristic: str | None = None
    optimal: bool = False
    lower_bound: int = 0

    def __len__(self) -> int:
        return len(self.moves)

    @property
    def gap(self) -> float:
        """How far from optimal the solution may be: ``len(self) / lower_bound`` (1.0: optimal;
        ``inf`` when no positive bound is known for a non-empty solution)."""
        if self.lower_bound > 0:
            return len(self.moves) / self.lower_bound
        return 1.0 if not self.moves else math.inf

    def boards(self) -> list[Board]:
        """Every board from the start to the goal (``len(self) + 1`` of them)."""
        out = [self.board]
        for move in self.moves:
            out.append(out[-1].move(move))
        return out

    def verify(self) -> bool:
        """Whether replaying the moves from the start reaches the goal."""
        try:
            return self.board.apply(self.moves) == self.goal
        except FastPuzzleError:
            return False

    def tile_directions(self) -> str:
        """The moves as the directions the tiles travel (each blank direction flipped)."""
        return to_tile_directions(self.moves)

    def tiles_moved(self) -> list[int]:
        """The tile numbers that slide, one per move."""
        return self.board.tiles_moved(self.moves)

    def steps(self) -> str:
        """Every board from start to goal as text, each step naming its move."""
        # Lazy: import fastpuzzle loads no render (tests/api/test_package.py).
        from fastpuzzle.render import solution_steps_text

        return solution_steps_text(self)

    @overload
    def to_html(self, path: None = None) -> str: ...
    @overload
    def to_html(self, path: str | os.PathLike[str]) -> Path: ...
    def to_html(self, path: str | os.PathLike[str] | None = None) -> str | Path:
        """A self-contained HTML page that replays the solution in the browser (a speed
        control, step buttons, a slider).

        Returns the page's text; with ``path``, writes it there atomically and returns the
        path instead. The page holds the moves, not every board, so it stays small: about a
        byte a move plus a few kilobytes.
        """
        # Lazy: import fastpuzzle loads no render (tests/api/test_package.py).
        from fastpuzzle.render import playback_html

        page = playback_html(self)
        if path is None:
            return page
        return write_text_atomically(path, page)

    def to_gif(
        self,
        path: str | os.PathLike[str],
        *,
        cell: int = 48,
        ms_per_move: int = 400,
        loop: bool = True,
    ) -> Path:
        """Write the solution as an animated GIF, one frame a board (``len(self) + 1``),
        atomically; returns ``path``. Needs Pillow (``pip install 'fastpuzzle[pictures]'``).

        Parameters
        ----------
        path : path
            The file to write; its folder must exist.
        cell : int
            Side of one cell in pixels, at least 8.
        ms_per_move : int
            Milliseconds a frame is shown, 10 to 60,000 (the first and last at least a second).
        loop : bool
            Play again from the start after the last frame, endlessly.

        Raises
        ------
        ImportError
            If Pillow is not installed, naming the extra that installs it.
        InvalidOptionError
            If an option is not valid, the frames would hold more than
            :data:`fastpuzzle.render.MAX_PIXELS` pixels together, or no file can be written
            at ``path`` (checked before any frame is drawn).
        """
        # Lazy: import fastpuzzle loads no pictures (tests/api/test_package.py).
        from fastpuzzle.pictures import solution_gif

        return solution_gif(self, path, cell=cell, ms_per_move=ms_per_move, loop=loop)

    def to_png_strip(
        self, path: str | os.PathLike[str], *, cell: int = 32, per_row: int = 10
    ) -> Path:
        """Write every board of the solution in one PNG, ``per_row`` boards a row, atomically;
        returns ``path``. Needs Pillow (``pip install 'fastpuzzle[pictures]'``).

        Raises
        ------
        ImportError
            If Pillow is not installed, naming the extra that installs it.
        InvalidOptionError
            If ``cell`` (at least 8) or ``per_row`` (at least 1) is not valid, or the picture
            would hold more than :data:`fastpuzzle.render.MAX_PIXELS` pixels, or no file can be
            written at ``path`` (checked before any board is drawn).
        """
        from fastpuzzle.pictures import solution_png_strip

        return solution_png_strip(self, path, cell=cell, per_row=per_row)

    def to_tikz(self, *, per_row: int = 10) -> str:
        """The solution as a TikZ picture for LaTeX (``\\usepackage{tikz}``): every board,
        ``per_row`` a row, each labelled with its step and the blank's move.

        Raises
        ------
        InvalidOptionError
            If ``per_row`` is not a whole number of at least 1, or the picture would draw more
            than :data:`fastpuzzle.pictures.MAX_TIKZ_CELLS` cells.
        """
        from fastpuzzle.pictures import solution_tikz

        return solution_tikz(self, per_row=per_row)

    def _repr_html_(self) -> str:
        # Lazy: import fastpuzzle loads no render (tests/api/test_package.py).
        from fastpuzzle.render import playback_fragment

        return playback_fragment(self, element_id=f"fp-player-{id(self):x}")

    def __str__(self) -> str:
        # A few labelled lines, long boards and moves cut (``moves`` has them all).
        # Lazy: import fastpuzzle loads no render (tests/api/test_package.py).
        from fastpuzzle.render import solution_text

        return solution_text(self)

    def __repr__(self) -> str:
        # One short line in a terminal (the dataclass's was 340 characters for an 8-puzzle,
        # far more for a large board); the fields are the attributes.
        from fastpuzzle.render import solution_repr

        return solution_repr(self)


_LIMIT_ERRORS: dict[Status, type[SearchLimitError]] = {
    Status.TIME_LIMIT: TimeLimitError,
    Status.NODE_LIMIT: NodeLimitError,
    Status.MEMORY_LIMIT: MemoryLimitError,
    Status.DEPTH_LIMIT: DepthLimitError,
    Status.EXHAUSTED: SearchLimitError,
}


@dataclass(frozen=True)
class SearchResult:
    """The outcome of :func:`fastpuzzle.search`, which never raises on limits.

    Attributes
    ----------
    status : Status
        How the search ended.
    solution : Solution or None
        The solution when ``status`` is SOLVED.
    stats : SearchStats
        Statistics, partial when a limit stopped the search.
    """

    board: Board
    goal: Board
    status: Status
    solution: Solution | None
    stats: SearchStats
    algorithm: str
    heuristic: str | None = None

    @property
    def solved(self) -> bool:
        """Whether a solution was found."""
        return self.status is Status.SOLVED

    def __str__(self) -> str:
        # A few labelled lines, not the dataclass's one nested line.
        # Lazy: import fastpuzzle loads no render (tests/api/test_package.py).
        from fastpuzzle.render import result_text

        return result_text(self)

    def __repr__(self) -> str:
        # One short line in a terminal, as Solution's.
        from fastpuzzle.render import result_repr

        return result_repr(self)

    def _repr_html_(self) -> str:
        # Lazy: import fastpuzzle loads no render (tests/api/test_package.py).
        from fastpuzzle.render import result_html

        return result_html(self)

    def unwrap(self, hint: str | None = None) -> Solution:
        """The solution, or the :class:`~fastpuzzle.errors.SearchLimitError` matching the status
        (its message ending with ``hint``, when given)."""
        if self.solution is not None:
            return self.solution
        error = _LIMIT_ERRORS[self.status]
        raise error(
            f"{self.algorithm} stopped without a solution ({self.status}) after "
            f"{self.stats.expanded:,} expansions and {duration(self.stats.seconds)}"
            + (f"; {hint}" if hint else ""),
            self.stats,
        )


def result_from_core(
    board: Board,
    goal: Board,
    core: CoreResult,
    algorithm: str,
    heuristic: str | None,
    optimal: bool,
    *,
    lower_bound: int = 0,
) -> SearchResult:
    """The :class:`SearchResult` of a compiled driver's result for ``board`` and ``goal``.

    ``lower_bound`` is the method's certified bound; an optimal method's solution has its own
    length.
    """
    status = _STATUS_BY_CODE[core.status]
    # Weighted (or inadmissible), IDA*'s last bound passes the solution's length.
    stats = stats_from_core(core, optimal_idastar=algorithm == "idastar" and optimal)
    solution = None
    if status is Status.SOLVED:
        bound = len(core.moves) if optimal else lower_bound
        solution = record(
            Solution,
            board=board,
            goal=goal,
            moves=core.moves,
            stats=stats,
            algorithm=algorithm,
            heuristic=heuristic,
            optimal=optimal,
            lower_bound=bound,
        )
    return record(
        SearchResult,
        board=board,
        goal=goal,
        status=status,
        solution=solution,
        stats=stats,
        algorithm=algorithm,
        heuristic=heuristic,
    )
