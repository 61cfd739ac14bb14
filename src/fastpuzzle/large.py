"""Boards of any size up to 100x100: a fast constructive solver and optimal search past 16 cells.

Moves are U, D, L, R: the direction the **blank** moves.

:func:`solve_fast` handles every size (2x2 … 100x100, rectangles too) in well under a second
for most boards, with solutions a few times the Manhattan lower bound; it promises no optimality.
:func:`solve_wide_optimal` runs IDA* (or weighted IDA*) on the wide cell-array core, for boards
of more than 16 cells, within :class:`~fastpuzzle.Limits`; up to 25 cells it can use additive
pattern databases (5x5: the 6-6-6-6 partition with its reflection), once they are built.
"""

from __future__ import annotations

import numpy as np

from fastpuzzle import _constructive, _wide, _wide_pdb
from fastpuzzle.board import Board, BoardLike, as_board, as_goal, is_solvable
from fastpuzzle.errors import UnknownNameError, UnsolvableError
from fastpuzzle.heuristics import BY_NAME, CATALOGUE, Heuristic, lookup_heuristic
from fastpuzzle.limits import Limits
from fastpuzzle.moves import inverse
from fastpuzzle.problem import Problem, canonical_labels, make_problem
from fastpuzzle.results import (
    CoreResult,
    ProgressCallback,
    SearchResult,
    SearchStats,
    Solution,
    Status,
    core_progress,
    result_from_core,
)

__all__ = [
    "MAX_OPTIMAL_DEPTH",
    "WIDE_HEURISTICS",
    "auto_wide_heuristic",
    "cancel_inverse_pairs",
    "manhattan_sum",
    "solve_fast",
    "solve_wide_optimal",
]

#: The longest path the wide IDA* follows (its recursion depth). A board whose Manhattan lower
#: bound is above it is refused at once with :attr:`Status.DEPTH_LIMIT`: no optimal search of
#: such a board could finish.
MAX_OPTIMAL_DEPTH = 1000

#: Heuristics the wide IDA* computes (from the catalogue of :mod:`fastpuzzle.heuristics`, aliases
#: as there). ``pdb`` (boards of up to 25 cells) and ``pdb6666`` (5x5) need their database built
#: beforehand.
WIDE_HEURISTICS = tuple(h.name for h in CATALOGUE if "wide" in h.idastar)


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
        ``algorithm="constructive"``, ``optimal=False``.

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
    status, moves, raw, seconds = _constructive.solve(
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
        seconds=seconds,
        depth=len(moves),
        iterations=1,
    )
    if status != 0:
        result = SearchResult(
            start, target, Status.from_code(status), None, stats, "constructive", None
        )
        return result.unwrap()
    return Solution(
        board=start,
        goal=target,
        moves=moves,
        stats=stats,
        algorithm="constructive",
        heuristic=None,
        optimal=False,
    )


def _wide_heuristic(name: str) -> Heuristic:
    entry = lookup_heuristic(name)
    if entry is None or "wide" not in entry.idastar:
        valid = ", ".join(WIDE_HEURISTICS)
        raise UnknownNameError(f"unknown heuristic {name!r} for wide IDA*; expected one of {valid}")
    return entry


def auto_wide_heuristic(problem: Problem) -> str:
    """``"pdb"`` when the pattern database of this shape (5x5: 6-6-6-6) is on disk and valid,
    else ``"linear_conflict"``: what ``solve()`` uses past 16 cells."""
    from fastpuzzle import pdb

    shape = (problem.rows, problem.cols)
    if problem.rows * problem.cols > pdb.MAX_PDB_CELLS:
        return "linear_conflict"
    partition = pdb.default_partition(shape, problem.goal_blank)
    found = pdb.load_pdb(partition, shape, problem.goal_blank)
    return "linear_conflict" if found is None else "pdb"


def _run_pdb(
    problem: Problem, name: str, cap: int, limits: Limits, progress: ProgressCallback | None
) -> CoreResult:
    from fastpuzzle import pdb

    database = pdb.database_for(problem, name)
    cells = problem.wide_cells().astype(np.uint8)
    groups = [(tiles, nibble, table) for tiles, _, nibble, table in database.groups]
    return _wide_pdb.idastar(
        cells,
        problem.blank,
        problem.rows,
        problem.cols,
        problem.goal_blank,
        groups,
        database.reflect,
        node_limit=int(limits.nodes or 0),
        seconds=float(limits.seconds or 0.0),
        max_depth=min(cap, _PDB_MAX_DEPTH),
        progress=core_progress(progress),
    )


def _walking_args(problem: Problem) -> tuple[object, ...]:
    from fastpuzzle import pdb

    rows, cols = problem.rows, problem.cols
    refusal = UnknownNameError(
        f"walking distance on {rows}x{cols}: the abstraction of each side has over "
        f"{pdb.WALKING_MAX_STATES:,} states (5x5: 65,650,495), so it would be plain Manhattan; "
        "use linear_conflict, or pdb for up to 25 cells"
    )
    if rows > WALKING_MAX_LINES and cols > WALKING_MAX_LINES:
        raise refusal
    walking = pdb.walking_args_for_cells(
        rows, cols, problem.goal_blank, problem.wide_cells().tolist(), problem.blank
    )
    if walking[0] is None and walking[4] is None:
        raise refusal
    return walking


#: Sides of more lines than this never get walking-distance tables past 16 cells (5 lines of 5
#: already have 65,650,495 states), so such boards are refused without trying.
WALKING_MAX_LINES = 4


#: The longest path the pattern-database driver follows (optimal 5x5 solutions are far shorter).
_PDB_MAX_DEPTH = 400


def solve_wide_optimal(
    problem_or_board: Problem | BoardLike,
    goal: BoardLike | None = None,
    *,
    heuristic: str = "linear_conflict",
    weight: float | None = None,
    limits: Limits | None = None,
    progress: ProgressCallback | None = None,
) -> SearchResult:
    """IDA* (or weighted IDA*) on the wide cell-array core, for boards of any size.

    Meant for boards past 16 cells (5x5, 6x6, 7x3, ...); smaller ones work too, through the same
    wide path. Never raises on limits: the result's ``status`` says how the search ended. Moves
    are U/D/L/R, the direction the **blank** moves.

    Parameters
    ----------
    problem_or_board : Problem or BoardLike
        A :class:`~fastpuzzle.problem.Problem` (then ``goal`` must be None) or a start board.
    goal : BoardLike, optional
        Default: tiles in order, blank last.
    heuristic : str
        ``"linear_conflict"`` (Manhattan + Hansson's linear conflicts), ``"manhattan"``,
        ``"walking_distance"`` (where one side's abstraction has at most 500,000 states, as the
        rows of 3xN or of 4x5 and 4x6 do; a side without tables counts its Manhattan
        component), or
        ``"pdb"`` / ``"pdb6666"``: additive pattern databases (boards of up to 25 cells; 5x5
        uses 6-6-6-6 and its reflection), which must be built first (``fastpuzzle pdb build
        6-6-6-6``), else :class:`~fastpuzzle.pdb.PatternDatabaseError` is raised.
    weight : float, optional
        ``w >= 1``: weighted IDA* with f = g + w*h, whose solutions are at most ``w`` times the
        optimal length (``w`` is rounded down to a multiple of 1/1000). None or 1: optimal.
        Not with the pattern databases.
    limits : Limits, optional
        ``seconds``, ``nodes`` (expansions) and ``max_depth`` apply (``memory_bytes`` does not:
        IDA* keeps only its path). Checked every 2**16 expansions, as is Ctrl-C.
    progress : callable, optional
        Called with a :class:`~fastpuzzle.SearchStats` every 2**16 expansions; its ``depth`` is
        the current iteration's bound.

    Returns
    -------
    SearchResult
        ``algorithm="idastar"`` (``"widastar"`` when weighted), status SOLVED, TIME_LIMIT,
        NODE_LIMIT or DEPTH_LIMIT. Boards whose Manhattan bound exceeds
        :data:`MAX_OPTIMAL_DEPTH` (or ``limits.max_depth``) end at once with DEPTH_LIMIT.

    Raises
    ------
    UnsolvableError
        If the goal cannot be reached.
    UnknownNameError
        If the heuristic is not one the wide core computes.

    Examples
    --------
    >>> from fastpuzzle import Board, scramble
    >>> board = scramble(Board.goal((5, 5)), 30, rng=4)
    >>> result = solve_wide_optimal(board)
    >>> result.status, result.solution.optimal, result.solution.verify()
    (<Status.SOLVED: 'solved'>, True, True)
    """
    entry = _wide_heuristic(heuristic)
    name = entry.name
    if weight is not None and (
        isinstance(weight, bool) or not isinstance(weight, (int, float)) or not weight >= 1
    ):
        raise ValueError(f"expected a weight >= 1, got {weight!r}")
    if isinstance(problem_or_board, Problem):
        if goal is not None:
            raise ValueError("pass the goal inside the Problem, not beside it")
        problem = problem_or_board
    else:
        problem = make_problem(problem_or_board, goal)
    limits = Limits() if limits is None else limits
    weighted = weight is not None and weight != 1
    if weighted and entry.tables == "pdb":
        raise ValueError("weighted IDA* takes manhattan or linear_conflict, not a pattern database")
    algorithm = "widastar" if weighted else "idastar"
    cap = MAX_OPTIMAL_DEPTH
    if limits.max_depth is not None:
        cap = min(cap, int(limits.max_depth))
    rows, cols = problem.rows, problem.cols
    cells = problem.wide_cells()
    lower = _wide.heuristic(BY_NAME["manhattan"].code, cells, rows, cols, problem.goal_blank)
    if lower > cap:
        stats = SearchStats(depth=lower, iterations=0)
        return SearchResult(
            problem.board, problem.goal, Status.DEPTH_LIMIT, None, stats, algorithm, name
        )
    if entry.tables == "pdb":
        core = _run_pdb(problem, name, cap, limits, progress)
        return result_from_core(problem.board, problem.goal, core, algorithm, name, True)
    walking = None
    if entry.tables == "walking":
        walking = _walking_args(problem)
    core = _wide.idastar(
        cells,
        problem.blank,
        rows,
        cols,
        problem.goal_blank,
        heuristic=entry.code,
        weight=1.0 if weight is None else float(weight),
        node_limit=int(limits.nodes or 0),
        time_limit=float(limits.seconds or 0.0),
        max_depth=cap,
        progress=core_progress(progress),
        walking=walking,
    )
    return result_from_core(problem.board, problem.goal, core, algorithm, name, not weighted)
