"""Heuristics callable from Python, for any goal: ``misplaced``, ``manhattan``, ``linear_conflict``.

None counts the blank. All three are admissible (never above the true number of moves) and
consistent. ``linear_conflict`` follows Hansson et al.: Manhattan distance plus two moves for
every tile that must leave its row or column to let the others pass (the minimum number, found as
the line's length minus its longest increasing run of goal positions).
"""

from __future__ import annotations

from fastpuzzle import _board, _wide
from fastpuzzle.board import BoardLike
from fastpuzzle.errors import UnknownNameError
from fastpuzzle.problem import make_problem

__all__ = ["HEURISTICS", "evaluate", "linear_conflict", "manhattan", "misplaced"]

#: Names of the heuristics every informed search accepts.
HEURISTICS = ("misplaced", "manhattan", "linear_conflict")


def evaluate(name: str, board: BoardLike, goal: BoardLike | None = None) -> int:
    """Evaluate heuristic ``name`` (one of :data:`HEURISTICS`) on ``board`` towards ``goal``."""
    if name not in HEURISTICS:
        raise UnknownNameError(
            f"unknown heuristic {name!r}; expected one of {', '.join(HEURISTICS)}"
        )
    problem = make_problem(board, goal, check_solvable=False)
    if not problem.wide:
        return int(
            _board.heuristic(name, problem.packed, problem.rows, problem.cols, problem.goal_blank)
        )
    # Past 16 cells the tiles live in a uint16 array (the wide core's form).
    cells = problem.wide_cells()
    if name == "misplaced":
        return sum(1 for a, b in zip(problem.board.tiles, problem.goal.tiles) if a and a != b)
    return int(_wide.heuristic(name, cells, problem.rows, problem.cols, problem.goal_blank))


def misplaced(board: BoardLike, goal: BoardLike | None = None) -> int:
    """Number of tiles not on their goal cell (the blank is never counted).

    >>> misplaced("1 2 3/4 5 6/7 _ 8")
    1
    """
    return evaluate("misplaced", board, goal)


def manhattan(board: BoardLike, goal: BoardLike | None = None) -> int:
    """Sum over tiles of the row plus column distance to the goal cell (blank not counted).

    >>> manhattan("1 2 3/4 5 6/_ 7 8")
    2
    """
    return evaluate("manhattan", board, goal)


def linear_conflict(board: BoardLike, goal: BoardLike | None = None) -> int:
    """Manhattan distance plus 2 for every tile that must leave its line (Hansson's rule).

    >>> linear_conflict("2 1 3/4 5 6/7 8 _")
    4
    """
    return evaluate("linear_conflict", board, goal)
