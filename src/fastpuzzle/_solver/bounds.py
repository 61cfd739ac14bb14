"""Certified lower bounds: what a solution's :attr:`~fastpuzzle.Solution.lower_bound` says.

A lower bound never exceeds the optimal length. An optimal search's bound is its length; any
other method's is the best admissible heuristic of the start that costs next to nothing to
compute: linear conflict (which is at least Manhattan distance), on any board size, and past 16
cells also the pattern database's value where its tables are loaded (on 5x5, 6-6-6-6 gives
2.5 moves more than linear conflict on DeepCubeA's 20 boards, but 2 fewer on one of them:
the larger counts).
"""

from __future__ import annotations

from fastpuzzle._core import _heuristics, _wide, _wide_pdb
from fastpuzzle._core._heuristics import HeuristicCode
from fastpuzzle._core._result import SearchStatus
from fastpuzzle._problem import Problem

__all__ = ["pattern_bound", "start_bound"]

_LINEAR_CONFLICT = int(HeuristicCode.H_LINEAR_CONFLICT)
_SOLVED = int(SearchStatus.STATUS_SOLVED)


def start_bound(problem: Problem, tables: object | None = None) -> int:
    """The linear-conflict value of ``problem``'s start, or with ``tables`` (laid-out pattern
    databases for its shape and goal, past 16 cells) the larger of that and their value: a
    lower bound on its optimal length."""
    rows, cols, goal_blank = problem.rows, problem.cols, problem.goal_blank
    if problem.cells is not None:
        bound = int(_wide.heuristic(_LINEAR_CONFLICT, problem.cells, rows, cols, goal_blank))
    else:
        bound = int(_heuristics.evaluate(_LINEAR_CONFLICT, problem.packed, rows, cols, goal_blank))
    if tables is not None:
        bound = max(bound, pattern_bound(problem, tables))
    return bound


def pattern_bound(problem: Problem, tables: object) -> int:
    """The pattern databases' value of ``problem``'s start (``tables`` laid out for its shape
    and goal, past 16 cells): Manhattan distance plus their largest sum, admissible."""
    # A search capped at depth 0 stops before its first bound past 0 and reports that bound:
    # the start's h (0 on the goal, which it reports solved).
    found = _wide_pdb.idastar(
        problem.wide_cells().astype("uint8"),
        problem.blank,
        problem.rows,
        problem.cols,
        problem.goal_blank,
        tables=tables,
        max_depth=0,
    )
    return 0 if found.status == _SOLVED else int(found.depth)
