"""The fast constructive solver: boards of any size up to 100x100, not promised shortest.

Moves are U, D, L, R: the direction the **blank** moves.

:func:`solve_fast` handles every size (2x2 … 100x100, rectangles too) in well under a second
for most boards, with solutions a few times the Manhattan lower bound: it places the board line
by line, finishes the last few cells optimally, then shortens the moves.
"""

from __future__ import annotations

import numpy as np

from fastpuzzle._core import _constructive
from fastpuzzle._problem import canonical_labels, make_problem
from fastpuzzle._solver.bounds import start_bound
from fastpuzzle.board import Board, BoardLike, as_board, as_goal, is_solvable
from fastpuzzle.errors import UnsolvableError
from fastpuzzle.limits import Limits
from fastpuzzle.moves import inverse
from fastpuzzle.results import (
    ProgressCallback,
    SearchResult,
    SearchStats,
    Solution,
    Status,
    core_progress,
)

__all__ = ["cancel_inverse_pairs", "manhattan_sum", "solve_fast"]


def cancel_inverse_pairs(moves: str) -> str:
    """Remove every move that the next one undoes, repeatedly (``"ULRD"`` → ``""``).

    Moves are blank directions (U/D/L/R).

    >>> cancel_inverse_pairs("UULRDL")
    'UL'
    """
    return _constructive.cancel_inverse_pairs(moves)


def manhattan_sum(board: BoardLike, goal: BoardLike | None = None) -> int:
    """The sum of the tiles' Manhattan distances to their goal cells, for any size (a lower bound).

    >>> manhattan_sum("1 2 3/4 5 6/_ 7 8")
    2
    """
    start = as_board(board)
    target = as_goal(start, goal)
    cols = start.cols
    home = [0] * start.size
    for cell, tile in enumerate(target.tiles):
        home[tile] = cell
    total = 0
    for cell, tile in enumerate(start.tiles):
        if tile:
            goal_row, goal_col = divmod(home[tile], cols)
            total += abs(cell // cols - goal_row) + abs(cell % cols - goal_col)
    return total


#: Shortening: windows of at most this many moves are re-solved optimally within a small box
#: around the blank's route, each search capped at this many expansions.
_WINDOW = 32
_WINDOW_NODES = 10_000


def _blank_last(goal: Board) -> tuple[Board, str]:
    """``(goal', path)``: ``goal`` with its blank walked to the last cell by ``path``.

    The constructive core solves towards a goal with the blank last; any goal is reached by
    solving towards ``goal'`` and then undoing ``path``.
    """
    row, col = goal.blank_position
    path = "R" * (goal.cols - 1 - col) + "D" * (goal.rows - 1 - row)
    return (goal.apply(path) if path else goal), path


def solve_fast(
    board: BoardLike,
    goal: BoardLike | None = None,
    *,
    limits: Limits | None = None,
    progress: ProgressCallback | None = None,
    shorten: bool = True,
) -> Solution:
    """Solve a board of any size quickly, without promising a shortest solution.

    The constructive method: place the top row or the left column of the unsolved rectangle tile
    by tile, shrink the rectangle, finish the last 2x2 … 3x3 optimally, then (``shorten``)
    cancel moves that undo each other and re-solve windows of up to 32 moves optimally (IDA*
    with Manhattan distance, within the box the blank used). Moves are U/D/L/R, the direction
    the **blank** moves.

    Parameters
    ----------
    board, goal : BoardLike
        Start and goal (default: tiles in order, blank last); 2x2 up to 100x100.
    limits : Limits, optional
        Only ``seconds`` applies (checked after each placed row or column).
    progress : callable, optional
        Called with a :class:`~fastpuzzle.SearchStats` (``generated`` = moves so far) after
        placed lines, at most every 2**16 moves, or after each line under a time limit.
    shorten : bool
        Shorten the constructed moves (``stats.expanded`` keeps the length before shortening).

    Returns
    -------
    Solution
        ``algorithm="constructive"``, ``optimal=False``; ``lower_bound`` is the start's
        linear-conflict value.

    Raises
    ------
    UnsolvableError
        If the goal cannot be reached.
    TimeLimitError
        If ``limits.seconds`` ran out first.

    Examples
    --------
    >>> from fastpuzzle import random_board
    >>> board = random_board((10, 10), rng=1)
    >>> solution = solve_fast(board)
    >>> solution.verify(), solution.optimal
    (True, False)
    """
    start = as_board(board)
    target = as_goal(start, goal)
    if not is_solvable(start, target):
        raise UnsolvableError(start, target)
    limits = Limits() if limits is None else limits
    interim, path = _blank_last(target)
    labels = canonical_labels(interim)
    cells = np.array(labels, dtype=np.uint16)[np.array(start.tiles, dtype=np.intp)]
    status, moves, raw, seconds, stored = _constructive.solve(
        cells,
        start.blank,
        start.rows,
        start.cols,
        shorten=shorten,
        time_limit=float(limits.seconds or 0.0),
        progress=core_progress(progress),
    )
    if path:
        moves += inverse(path)
        if shorten:
            moves = _constructive.cancel_inverse_pairs(moves)
    if shorten and status == 0:
        # Two passes with the window cuts shifted by half a window, so no cut is kept twice.
        for first in (0, _WINDOW // 2):
            scratch = np.array(start.tiles, dtype=np.uint16)
            moves = _constructive.shorten_windows(
                scratch,
                start.blank,
                start.rows,
                start.cols,
                moves,
                window=_WINDOW,
                first=first,
                node_cap=_WINDOW_NODES,
            )
    stats = SearchStats(
        expanded=raw + len(path),
        generated=raw + len(path),
        peak_memory_bytes=stored,
        seconds=seconds,
        depth=len(moves),
        iterations=1,
    )
    if status != 0:
        result = SearchResult(
            start, target, Status.from_code(status), None, stats, "constructive", None
        )
        return result.unwrap()
    bound = start_bound(make_problem(start, target, check_solvable=False))
    return Solution(
        board=start,
        goal=target,
        moves=moves,
        stats=stats,
        algorithm="constructive",
        heuristic=None,
        optimal=False,
        lower_bound=bound,
    )
