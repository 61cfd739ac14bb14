"""Certified lower bounds: what a solution's :attr:`~fastpuzzle.Solution.lower_bound` says.

A lower bound never exceeds the optimal length. An optimal search's bound is its length; any
other method's is the best admissible heuristic of the start that costs next to nothing to
compute (linear conflict, which is at least Manhattan distance), on any board size.
"""

from __future__ import annotations

from fastpuzzle._core import _heuristics, _wide
from fastpuzzle._core._heuristics import HeuristicCode
from fastpuzzle._problem import Problem

__all__ = ["start_bound"]

_LINEAR_CONFLICT = int(HeuristicCode.H_LINEAR_CONFLICT)


def start_bound(problem: Problem) -> int:
    """The linear-conflict value of ``problem``'s start: a lower bound on its optimal length."""
    rows, cols, goal_blank = problem.rows, problem.cols, problem.goal_blank
    if problem.cells is not None:
        return int(_wide.heuristic(_LINEAR_CONFLICT, problem.cells, rows, cols, goal_blank))
    return int(_heuristics.evaluate(_LINEAR_CONFLICT, problem.packed, rows, cols, goal_blank))
